//! Sampler messages (SFID 2; Mesa's `brw_sampler_desc`).

use super::fields::{get, set, Lengths};

/// Sampler message types of Gen5 and later (`GFX5_SAMPLER_MESSAGE_*`): the ones gpucc
/// sends and the simulator answers.
pub struct SamplerMsg;

impl SamplerMsg {
    /// `sample`.
    pub const SAMPLE: u32 = 0;
    /// `sample_b`: with a LOD bias.
    pub const SAMPLE_B: u32 = 1;
    /// `sample_l`: at an explicit LOD.
    pub const SAMPLE_L: u32 = 2;
    /// `sample_c`: shadow compare.
    pub const SAMPLE_C: u32 = 3;
    /// `sample_d`: with explicit derivatives.
    pub const SAMPLE_D: u32 = 4;
    /// `sample_b_c`.
    pub const SAMPLE_B_C: u32 = 5;
    /// `sample_l_c`.
    pub const SAMPLE_L_C: u32 = 6;
    /// `ld`: fetch a texel by integer coordinates.
    pub const LD: u32 = 7;
    /// `resinfo`: the size of a level.
    pub const RESINFO: u32 = 10;
}

/// Sampler SIMD modes (`BRW_SAMPLER_SIMD_MODE_*`); Gen8 adds a third bit for the
/// half-register modes.
pub struct SimdMode;

impl SimdMode {
    /// Two vertices of four channels (the vec4 backend).
    pub const SIMD4X2: u32 = 0;
    /// Eight channels.
    pub const SIMD8: u32 = 1;
    /// Sixteen channels.
    pub const SIMD16: u32 = 2;
    /// SIMD32/64.
    pub const SIMD32_64: u32 = 3;
}

/// A sampler message descriptor.
///
/// | gen | type | SIMD mode | return format |
/// |---|---|---|---|
/// | 4 | 15:14 | – | 13:12 |
/// | G45 | 15:12 | – | – |
/// | 5, 6 | 15:12 | 17:16 | – |
/// | 7 | 16:12 | 18:17 | – |
/// | 8, 9 | 16:12 | 18:17 and 29 | 30 (16-bit return) |
///
/// The binding-table index is in 7:0 and the sampler state in 11:8 on every generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SamplerDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// Binding-table index of the texture.
    pub binding_table_index: u32,
    /// Sampler state index.
    pub sampler: u32,
    /// Message type ([`SamplerMsg`] from Gen5; Gen4 numbers its own).
    pub msg_type: u32,
    /// SIMD mode ([`SimdMode`]; Gen5+).
    pub simd_mode: u32,
    /// Gen4: return format (0 float, 2 UD, 3 D); Gen8+: 16-bit return (`HP`).
    pub return_format: u32,
}

impl SamplerDesc {
    /// The descriptor on generation `ver`.
    pub fn encode(&self, ver: u32) -> u32 {
        let d =
            self.len.encode(ver) | set(self.binding_table_index, 7, 0) | set(self.sampler, 11, 8);
        d | if ver >= 80 {
            set(self.msg_type, 16, 12)
                | set(self.simd_mode & 3, 18, 17)
                | set(self.simd_mode >> 2, 29, 29)
                | set(self.return_format, 30, 30)
        } else if ver >= 70 {
            set(self.msg_type, 16, 12) | set(self.simd_mode, 18, 17)
        } else if ver >= 50 {
            set(self.msg_type, 15, 12) | set(self.simd_mode, 17, 16)
        } else if ver >= 45 {
            set(self.msg_type, 15, 12)
        } else {
            set(self.return_format, 13, 12) | set(self.msg_type, 15, 14)
        }
    }

    /// The fields of `desc` on generation `ver`.
    pub fn decode(ver: u32, desc: u32) -> SamplerDesc {
        let (msg_type, simd_mode, return_format) = if ver >= 80 {
            (
                get(desc, 16, 12),
                get(desc, 18, 17) | get(desc, 29, 29) << 2,
                get(desc, 30, 30),
            )
        } else if ver >= 70 {
            (get(desc, 16, 12), get(desc, 18, 17), 0)
        } else if ver >= 50 {
            (get(desc, 15, 12), get(desc, 17, 16), 0)
        } else if ver >= 45 {
            (get(desc, 15, 12), 0, 0)
        } else {
            (get(desc, 15, 14), 0, get(desc, 13, 12))
        };
        SamplerDesc {
            len: Lengths::decode(ver, desc),
            binding_table_index: get(desc, 7, 0),
            sampler: get(desc, 11, 8),
            msg_type,
            simd_mode,
            return_format,
        }
    }

    /// The descriptor bits an indexed sampler message computes at run time: the sampler
    /// (11:8) and binding-table (7:0) indices, which brw adds the index to (times 0x101) and
    /// masks so that a stray index cannot reach the message type.
    pub const INDEX_BITS: u32 = 0xfff;

    /// Whether `desc` on `ver` is a sampler message of type `msg_type`.
    pub fn is(ver: u32, desc: u32, msg_type: u32) -> bool {
        SamplerDesc::decode(ver, desc).msg_type == msg_type
    }
}
