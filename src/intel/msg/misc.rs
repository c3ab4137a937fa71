//! The smaller shared functions (Gen4/5 math, gateway, thread spawner, pixel interpolator),
//! the Gen9 extended descriptor, and the instruction dword that carries a descriptor.

use super::fields::{flag, get, set, Lengths};

/// A Gen4/5 extended-math message (SFID 1; the math unit became an instruction on Gen6):
/// function 3:0, signed integer 4, partial precision 5, saturate 6, scalar data 7
/// (`brw_inst.h` `math_msg_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MathDesc {
    /// Message length, response length.
    pub len: Lengths,
    /// Math function (the `MathFn` hardware number).
    pub function: u32,
    /// Signed integer operands.
    pub signed: bool,
    /// Partial precision.
    pub partial_precision: bool,
    /// Saturate.
    pub saturate: bool,
    /// Scalar rather than vector data.
    pub scalar: bool,
}

impl MathDesc {
    /// The descriptor on generation `ver` (4 or 5).
    pub fn encode(&self, ver: u32) -> u32 {
        self.len.encode(ver)
            | set(self.function, 3, 0)
            | set(self.signed as u32, 4, 4)
            | set(self.partial_precision as u32, 5, 5)
            | set(self.saturate as u32, 6, 6)
            | set(self.scalar as u32, 7, 7)
    }

    /// The fields of `desc` on generation `ver` (4 or 5).
    pub fn decode(ver: u32, desc: u32) -> MathDesc {
        MathDesc {
            len: Lengths::decode(ver, desc),
            function: get(desc, 3, 0),
            signed: flag(desc, 4),
            partial_precision: flag(desc, 5),
            saturate: flag(desc, 6),
            scalar: flag(desc, 7),
        }
    }
}

/// A message-gateway message (SFID 3): the subfunction in 2:0 (Gen4/5: 1:0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GatewayDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// Subfunction ([`GatewayDesc::BARRIER`], …).
    pub subfunction: u32,
}

impl GatewayDesc {
    /// The barrier message (`BRW_MESSAGE_GATEWAY_SFID_BARRIER_MSG`).
    pub const BARRIER: u32 = 4;

    fn width(ver: u32) -> u32 {
        if ver >= 60 {
            2
        } else {
            1
        }
    }

    /// The descriptor on generation `ver`.
    pub fn encode(&self, ver: u32) -> u32 {
        self.len.encode(ver) | set(self.subfunction, Self::width(ver), 0)
    }

    /// The fields of `desc` on generation `ver`.
    pub fn decode(ver: u32, desc: u32) -> GatewayDesc {
        GatewayDesc {
            len: Lengths::decode(ver, desc),
            subfunction: get(desc, Self::width(ver), 0),
        }
    }
}

/// A thread-spawner message (SFID 7): opcode 0 (0 = dereference resource), request type 1
/// (0 = root thread), resource select 4 (1 = do not dereference the URB entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SpawnerDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// Opcode.
    pub opcode: u32,
    /// Request type.
    pub request_type: u32,
    /// Resource select.
    pub resource_select: u32,
}

impl SpawnerDesc {
    /// The descriptor on generation `ver`.
    pub fn encode(&self, ver: u32) -> u32 {
        self.len.encode(ver)
            | set(self.opcode, 0, 0)
            | set(self.request_type, 1, 1)
            | set(self.resource_select, 4, 4)
    }

    /// The fields of `desc` on generation `ver`.
    pub fn decode(ver: u32, desc: u32) -> SpawnerDesc {
        SpawnerDesc {
            len: Lengths::decode(ver, desc),
            opcode: get(desc, 0, 0),
            request_type: get(desc, 1, 1),
            resource_select: get(desc, 4, 4),
        }
    }
}

/// A Gen7+ pixel-interpolator message (SFID 11; Mesa's `brw_pixel_interp_desc`): message
/// data 7:0 (an offset or a sample index), slot group 11, message type 13:12,
/// noperspective 14, SIMD16 16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PixelInterpDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// Message-specific data.
    pub data: u32,
    /// Channels 16-31.
    pub slot_group_high: bool,
    /// Message type (per-message offset, sample position, centroid, per-slot offset).
    pub msg_type: u32,
    /// Linear rather than perspective-correct.
    pub noperspective: bool,
    /// SIMD16 rather than SIMD8.
    pub simd16: bool,
}

impl PixelInterpDesc {
    /// The descriptor on generation `ver` (7 or later).
    pub fn encode(&self, ver: u32) -> u32 {
        self.len.encode(ver)
            | set(self.data, 7, 0)
            | set(self.slot_group_high as u32, 11, 11)
            | set(self.msg_type, 13, 12)
            | set(self.noperspective as u32, 14, 14)
            | set(self.simd16 as u32, 16, 16)
    }

    /// The fields of `desc` on generation `ver` (7 or later).
    pub fn decode(ver: u32, desc: u32) -> PixelInterpDesc {
        PixelInterpDesc {
            len: Lengths::decode(ver, desc),
            data: get(desc, 7, 0),
            slot_group_high: flag(desc, 11),
            msg_type: get(desc, 13, 12),
            noperspective: flag(desc, 14),
            simd16: flag(desc, 16),
        }
    }
}

/// The second payload's length in a Gen9 split send's extended descriptor (9:6; Mesa's
/// `brw_message_ex_desc_ex_mlen`).
pub fn ex_mlen(ex_desc: u32) -> u32 {
    get(ex_desc, 9, 6)
}

/// The instruction's dword 3 (bits 96–127) as Mesa prints it beside a SEND: the descriptor,
/// the end-of-thread bit 31 and, before Gen5, the SFID in 27:24 (Gen5 moved it out of the
/// descriptor).
pub fn with_dword3(ver: u32, desc: u32, sf: u8, eot: bool) -> u32 {
    let sf_bits = if ver < 50 {
        set(sf as u32 & 0xf, 27, 24)
    } else {
        0
    };
    desc | sf_bits | set(eot as u32, 31, 31)
}

/// The parts of an instruction's dword 3 (see [`with_dword3`]): the descriptor, the SFID it
/// names before Gen5, and the end-of-thread bit.
pub fn split_dword3(ver: u32, dword: u32) -> (u32, Option<u8>, bool) {
    let eot = flag(dword, 31);
    let mut desc = get(dword, 30, 0);
    let sf = if ver < 50 {
        let s = get(dword, 27, 24) as u8;
        desc &= !set(0xf, 27, 24);
        Some(s)
    } else {
        None
    };
    (desc, sf, eot)
}
