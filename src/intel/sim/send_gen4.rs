//! SEND on Gen4–Gen6: the messages Mesa 23.3's backends send on these generations, read from
//! the MRFs (see [`super::mrf`]) with the descriptors of [`crate::intel::msg`].
//!
//! | SFID | message | notes |
//! |---|---|---|
//! | sampler (2), Gen4–4.5 | sample, sample_b, sample_l, sample_c, sample_b_c, sample_l_c, sample_d, ld, resinfo told apart by type, width and length | [`super::sampler_gen4`] |
//! | sampler (2), Gen5–6 | sample, sample_b, sample_l, sample_c, sample_d, sample_b_c, sample_l_c, ld, resinfo in SIMD8/SIMD16; SIMD4x2 as on Gen7 | parameter layout below |
//! | render cache (5), Gen6 | render-target write (type 12) | as on Gen7 (header of two registers optional) |
//! | render cache (5), Gen6 | OWord dual block read (2) / write (9) on the scratch surface (255) | block offsets in OWords in m(n+1) dwords 0 and 4 (Mesa's vec4 scratch) |
//! | sampler cache (4), Gen6 | OWord dual block read (2) on a constant buffer | block offsets in OWords in m(n+1) dwords 0 and 4 (Mesa's vec4 pull constants) |
//! | constant cache (9), Gen6 | OWord block read (0) | header dword 2 = offset in OWords (Mesa's FS pull constants) |
//! | URB (6), Gen4–6 | interleaved SIMD4x2 write | bits 9:4 global offset in rows of two slots, 11:10 swizzle (1 = interleave), 13 allocate, 14 used, 15 complete |
//! | thread spawner (7) | only as the EOT message | |
//! | math (1), read (4), write (5), Gen4–5 | extended math, render-target writes, OWord (dual) block reads and writes | [`super::send_gen45`] |
//!
//! Gen5–6 sampler parameters (Mesa's `lower_sampler_logical_send_gfx5`), one register per 8
//! channels each, after the optional one-register header: the coordinates u v r (as many as
//! the texture has, then parameter 4): sample `u v r`; sample_b / sample_l `u v r ai bias|lod`;
//! sample_c `u v r ai ref`; sample_b_c / sample_l_c `u v r ai ref bias|lod`; sample_d
//! `u v r ai dudx dudy dvdx dvdy drdx drdy`; ld `u v r lod` (from a buffer surface, u is
//! the byte offset of the four dwords read: Mesa's varying pull-constant load); resinfo
//! `lod`. Where a message
//! carries its coordinates in four fixed slots, the slots past the texture's dimensions hold
//! whatever the MRFs held, and the hardware ignores them; the simulator has no surface
//! types, so it takes the number of coordinates from [`DefaultShared::coordinate_counts`]
//! when the caller bound one for the texture (the check harness does, from the NIR), else
//! the message's own count.
//!
//! The Gen6 URB write header is g0 as the thread received it (Mesa copies g0 whole): the
//! model takes dwords 0 and 1 as the two vertices' URB handles, as for Gen7. Gen6 has no
//! per-channel mask in the header: every enabled channel writes its dword (the execution
//! mask and, in align16, the destination's write mask).
//!
//! [`DefaultShared::coordinate_counts`]: super::shared::DefaultShared

use super::exec::Ctx;
use super::send::{Msg, SamplerPayload};
use super::shared::SharedFunctions;
use super::thread::Thread;
use crate::intel::eu::types::sfid;
use crate::intel::eu::Inst;
use crate::intel::msg::{RenderTargetWriteDesc, SamplerDesc, UrbDesc};
use crate::nir::interp::TexRequest;
use crate::nir::TexOp;

/// Gen6 data-port message types (Mesa's `GFX6_DATAPORT_*`): read and write types share the
/// four-bit field of the render cache.
mod gen6 {
    pub const OWORD_DUAL_BLOCK_READ: u32 = 2;
    pub const OWORD_BLOCK_READ: u32 = 0;
    pub const OWORD_DUAL_BLOCK_WRITE: u32 = 9;
}

/// Parameter index where Gen5–6 sampler messages put what follows the coordinates.
const AFTER_COORDS: usize = 4;

impl Thread {
    pub(super) fn send_gen4(
        &mut self,
        m: &Msg,
        inst: &Inst,
        ctx: &mut Ctx,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let outside = |what: &str| format!("unsupported: {} ({what})", m.unknown(ver));
        match m.sfid {
            sfid::SAMPLER if ver >= 50 => self.sampler_gen5(m, shared),
            sfid::SAMPLER => self.sampler_gen4(m, shared),
            sfid::DATAPORT_WRITE if ver >= 60 => match m.dp.msg_type {
                t if t == RenderTargetWriteDesc::msg_type(ver) => self.rt_write(m, shared, ctx),
                gen6::OWORD_DUAL_BLOCK_WRITE => self.oword_dual_block(m, shared, true),
                gen6::OWORD_DUAL_BLOCK_READ => self.oword_dual_block(m, shared, false),
                _ => Err(outside("Gen6 render-cache message")),
            },
            sfid::DATAPORT_READ if ver >= 60 => {
                if m.dp.msg_type != gen6::OWORD_DUAL_BLOCK_READ {
                    return Err(outside("Gen6 sampler-cache message"));
                }
                self.dual_block_constants(m, shared)
            }
            sfid::CONSTANT_CACHE if ver >= 60 => {
                if m.dp.msg_type != gen6::OWORD_BLOCK_READ {
                    return Err(outside("Gen6 constant-cache message"));
                }
                self.const_read(m, shared)
            }
            sfid::URB => self.urb_write_gen6(m, shared),
            sfid::MATH if ver < 60 => self.math_msg(m),
            sfid::DATAPORT_WRITE => self.dp_write_gen4(m, shared, ctx),
            sfid::DATAPORT_READ => self.dp_read_gen4(m, shared),
            sfid::THREAD_SPAWNER if inst.eot => Ok(()),
            _ => Err(outside("Gen4-5 message")),
        }
    }

    /// OWord dual block read of a constant buffer (Mesa's Gen6 vec4 pull-constant load):
    /// block h (channels 4h..4h + 3) reads the 16 bytes at OWord offset m(n+1).4h into
    /// dwords 4h.. of the one response register, each dword only where its channel is
    /// enabled.
    fn dual_block_constants(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        if m.dp.block_size_code() != 0 || !m.header || m.mlen != 2 || m.rlen != 1 {
            return Err(format!(
                "unsupported: {} (OWord dual block reads other than one OWord per block with \
                 a header)",
                m.unknown(ver)
            ));
        }
        let dst = m
            .dst
            .ok_or("OWord dual block read without a response register")?;
        let mut out = [None; 8];
        for h in 0..2 {
            if m.mask >> (4 * h) & 0xf == 0 {
                continue;
            }
            let offset = self.grf_dword(m.payload + 1, 4 * h)? as usize * 16;
            let mut data = [0u8; 16];
            shared.constant_read(m.dp.binding_table_index, offset, &mut data)?;
            for k in 0..4 {
                if m.mask >> (4 * h + k) & 1 == 1 {
                    let b = &data[4 * k..4 * k + 4];
                    out[4 * h + k] = Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                }
            }
        }
        for (d, v) in out.iter().enumerate() {
            if let Some(v) = v {
                self.set_grf_dword(dst, d, *v)?;
            }
        }
        Ok(())
    }

    /// Gen4–6 interleaved SIMD4x2 URB write: after the header, register k holds vertex 0's
    /// dwords `8·offset + 4k ..` in dwords 0–3 and vertex 1's in 4–7.
    fn urb_write_gen6(&mut self, m: &Msg, shared: &mut dyn SharedFunctions) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let urb = UrbDesc::decode(ver, m.desc);
        if urb.opcode != UrbDesc::WRITE_HWORD
            || urb.swizzle != UrbDesc::SWIZZLE_INTERLEAVE
            || urb.allocate
            || m.n != 8
        {
            return Err(format!(
                "unsupported: {} (Gen4-6 URB messages other than an interleaved SIMD4x2 write \
                 without allocation)",
                m.unknown(ver)
            ));
        }
        // Gen4 descriptors have no header bit: the header is always there.
        if (ver >= 50 && !m.header) || m.rlen != 0 || m.mlen < 2 {
            return Err(format!(
                "URB write without its header or data, or with a response: {}",
                m.unknown(ver)
            ));
        }
        for v in 0..2usize {
            if m.mask >> (4 * v) & 0xf == 0 {
                continue;
            }
            let handle = self.grf_dword(m.payload, v)?;
            for k in 0..m.mlen - 1 {
                for c in 0..4 {
                    let ch = 4 * v + c;
                    if m.mask >> ch & 1 == 0 {
                        continue;
                    }
                    let val = self.grf_dword(m.payload + 1 + k, ch)?;
                    let dword = 8 * urb.global_offset + 4 * k as u32 + c as u32;
                    shared.urb_write(handle, dword, val)?;
                }
            }
        }
        Ok(())
    }

    /// Gen5–6 sampler messages in SIMD8 and SIMD16 (layout in the module documentation);
    /// SIMD4x2 messages have the Gen7 layout.
    fn sampler_gen5(&mut self, m: &Msg, shared: &mut dyn SharedFunctions) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let sd = SamplerDesc::decode(ver, m.desc);
        let Some(SamplerPayload {
            simd,
            rpp,
            first,
            params,
            dst,
            integer,
            texel_offsets,
        }) = self.sampler_payload(m, &sd, shared)?
        else {
            return self.sampler_simd4x2(m, shared);
        };
        let (texture, ty) = (sd.binding_table_index, sd.msg_type);
        let coords_bound = shared.coordinate_count(texture);
        // How many coordinate slots the message has, before what follows them.
        let slots = match ty {
            0 => params,
            1..=6 => AFTER_COORDS.min(params),
            7 => 3.min(params),
            10 => 0,
            _ => return Err(format!("unsupported: {}", m.unknown(ver))),
        };
        let ncoord = coords_bound.map_or(slots, |n| n.min(slots));
        let mut replies = Vec::new();
        for c in 0..simd {
            if m.mask >> c & 1 == 0 {
                continue;
            }
            let raw = |p: usize| self.param(first, rpp, p, c);
            let f = |p: usize| -> Result<f64, String> { Ok(f32::from_bits(raw(p)?) as f64) };
            let mut req = TexRequest::sample(texture, sd.sampler, &texel_offsets, integer);
            let result = match ty {
                10 => {
                    let s = shared.texture_size(texture, raw(0)?);
                    [s[0], s[1], s[2], shared.texture_levels(texture)]
                }
                // From a buffer (Mesa's varying pull-constant load): u is the byte offset.
                7 if shared
                    .buffer_texel(texture, raw(0)? as i32 as i64)
                    .is_some() =>
                {
                    shared
                        .buffer_texel(texture, raw(0)? as i32 as i64)
                        .unwrap_or_default()
                }
                7 => {
                    req.op = TexOp::Txf;
                    for p in 0..ncoord {
                        req.coord.push(raw(p)? as i32 as f64);
                    }
                    req.lod = (params > 3)
                        .then(|| raw(3))
                        .transpose()?
                        .map(|l| l as i32 as f64);
                    super::send::encode(shared.sample(&req)?, integer)
                }
                _ => {
                    for p in 0..ncoord {
                        req.coord.push(f(p)?);
                    }
                    let mut p = AFTER_COORDS;
                    if matches!(ty, 3 | 5 | 6) {
                        req.comparator = Some(f(p)?);
                        p += 1;
                    }
                    match ty {
                        1 | 5 => {
                            req.op = TexOp::Txb;
                            req.bias = Some(f(p)?);
                        }
                        2 | 6 => {
                            req.op = TexOp::Txl;
                            req.lod = Some(f(p)?);
                        }
                        4 => {
                            req.op = TexOp::Txd;
                            let grads = params.saturating_sub(AFTER_COORDS) / 2;
                            for k in 0..grads.min(ncoord) {
                                req.ddx.push(f(AFTER_COORDS + 2 * k)?);
                                req.ddy.push(f(AFTER_COORDS + 2 * k + 1)?);
                            }
                        }
                        _ => {}
                    }
                    let out_int = integer && req.comparator.is_none();
                    super::send::encode(shared.sample(&req)?, out_int)
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
