//! Gen4 and G45 sampler messages (SFID 2) in SIMD8 and SIMD16, as Mesa's g4x code sends them
//! (`lower_sampler_logical_send_gfx4`, `generate_tex`): before Gen5 the descriptor has no SIMD
//! mode and only four message types, and the hardware tells the messages of one type apart
//! by the SEND's execution size and the message length. The header (one register, g0 by the
//! implied move) always comes first; each parameter then takes one register per 8 channels.
//!
//! | type | SIMD16 (two registers a parameter) | SIMD8 (one register a parameter) |
//! |---|---|---|
//! | 0 | sample `u [v [r]]`; mlen 9: sample_b `u v r bias` | sample `u [v [r]]`; mlen 6: sample_b_c `u v r bias ref` |
//! | 1 | sample_l `u v r lod` | sample_l_c `u v r lod ref` |
//! | 2 | mlen 3: resinfo `lod`; else sample_c `u v r ref` | sample_d `u v [r] dudx dvdx [drdx] dudy dvdy [drdy]` |
//! | 3 | ld `u [v [r]] [lod]` (integers) | ld `u [v [r]] [lod]` |
//!
//! Where a message has three coordinate slots, those past the texture's dimensions are
//! ignored (Mesa writes zero there); the number of coordinates the texture has comes from
//! [`DefaultShared::coordinate_counts`](super::shared::DefaultShared) when the caller bound
//! it. A SIMD16 `ld` of one parameter is Mesa's varying pull-constant load: from a buffer
//! surface, u is the byte offset of the four dwords read. resinfo answers width, height,
//! depth and the level count as integers.
//!
//! The response has four components (r g b a), one register per 8 channels each; a shorter
//! response keeps the leading components.

use super::send::{encode, Msg};
use super::shared::SharedFunctions;
use super::thread::Thread;
use crate::intel::msg::SamplerDesc;
use crate::nir::interp::TexRequest;
use crate::nir::TexOp;

/// What a Gen4 sampler message asks for, after its type, width and length are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sample,
    SampleB,
    SampleL,
    SampleC,
    SampleBC,
    SampleLC,
    SampleD,
    Ld,
    Resinfo,
}

impl Thread {
    /// A Gen4/G45 sampler message (layout in the module documentation).
    pub(super) fn sampler_gen4(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let sd = SamplerDesc::decode(ver, m.desc);
        let unsupported = |what: &str| format!("unsupported: {} (sampler: {what})", m.unknown(ver));
        let simd = match m.n {
            8 => 8u32,
            16 => 16,
            n => return Err(unsupported(&format!("Gen4 message of SIMD{n}"))),
        };
        let rpp = simd as usize / 8;
        if m.mlen < 1 || (m.mlen - 1) % rpp != 0 {
            return Err(unsupported(&format!("message length {}", m.mlen)));
        }
        let params = (m.mlen - 1) / rpp;
        let kind = match (sd.msg_type, simd, params) {
            (0, _, 1..=3) => Kind::Sample,
            (0, 16, 4) => Kind::SampleB,
            (0, 8, 5) => Kind::SampleBC,
            (1, 16, 4) => Kind::SampleL,
            (1, 8, 5) => Kind::SampleLC,
            (2, 16, 1) => Kind::Resinfo,
            (2, 16, 4) => Kind::SampleC,
            (2, 8, 6 | 9) => Kind::SampleD,
            (3, _, 1..=4) => Kind::Ld,
            _ => {
                return Err(unsupported(&format!(
                    "Gen4 type {} in SIMD{simd} with {params} parameters",
                    sd.msg_type
                )))
            }
        };
        let dst = m.dst.ok_or("sampler message without a response register")?;
        let texture = sd.binding_table_index;
        let integer = shared.texture_is_integer(texture);
        let texel_offsets: Vec<i64> = {
            let bits = self.grf_dword(m.payload, 2)?;
            (0..3)
                .map(|k| (((bits >> (8 - 4 * k)) & 0xf) as i64 ^ 8) - 8)
                .collect()
        };
        let first = m.payload + 1;
        // Coordinate slots before what follows them.
        let slots = match kind {
            Kind::Sample => params,
            Kind::SampleD => params / 3,
            Kind::Ld => params.min(3),
            Kind::Resinfo => 0,
            _ => 3,
        };
        let ncoord = shared
            .coordinate_count(texture)
            .map_or(slots, |n| n.min(slots));
        let mut replies = Vec::new();
        for c in 0..simd {
            if m.mask >> c & 1 == 0 {
                continue;
            }
            let raw = |p: usize| self.param(first, rpp, p, c);
            let f = |p: usize| -> Result<f64, String> { Ok(f32::from_bits(raw(p)?) as f64) };
            let mut req = TexRequest::sample(texture, sd.sampler, &texel_offsets, integer);
            let result = match kind {
                Kind::Resinfo => {
                    let s = shared.texture_size(texture, raw(0)?);
                    [s[0], s[1], s[2], shared.texture_levels(texture)]
                }
                Kind::Ld => {
                    let u = raw(0)? as i32 as i64;
                    match shared.buffer_texel(texture, u) {
                        Some(t) if params == 1 => t,
                        _ => {
                            req.op = TexOp::Txf;
                            for p in 0..ncoord {
                                req.coord.push(raw(p)? as i32 as f64);
                            }
                            req.lod = (params == 4)
                                .then(|| raw(3))
                                .transpose()?
                                .map(|l| l as i32 as f64);
                            encode(shared.sample(&req)?, integer)
                        }
                    }
                }
                _ => {
                    for p in 0..ncoord {
                        req.coord.push(f(p)?);
                    }
                    match kind {
                        Kind::SampleB => {
                            req.op = TexOp::Txb;
                            req.bias = Some(f(3)?);
                        }
                        Kind::SampleL => {
                            req.op = TexOp::Txl;
                            req.lod = Some(f(3)?);
                        }
                        Kind::SampleC => req.comparator = Some(f(3)?),
                        Kind::SampleBC => {
                            req.op = TexOp::Txb;
                            req.bias = Some(f(3)?);
                            req.comparator = Some(f(4)?);
                        }
                        Kind::SampleLC => {
                            req.op = TexOp::Txl;
                            req.lod = Some(f(3)?);
                            req.comparator = Some(f(4)?);
                        }
                        Kind::SampleD => {
                            req.op = TexOp::Txd;
                            // dP/dx then dP/dy, as many components as coordinate slots.
                            for k in 0..ncoord {
                                req.ddx.push(f(slots + k)?);
                                req.ddy.push(f(2 * slots + k)?);
                            }
                        }
                        _ => {}
                    }
                    let out_int = integer && req.comparator.is_none();
                    encode(shared.sample(&req)?, out_int)
                }
            };
            replies.push((c, result));
        }
        // Every parameter is read before the response, which may overlap the payload.
        for (c, result) in replies {
            for (k, v) in result.iter().enumerate() {
                if (k + 1) * rpp <= m.rlen {
                    self.set_grf_dword(dst + k * rpp + c as usize / 8, c as usize % 8, *v)?;
                }
            }
        }
        Ok(())
    }
}
