//! The Gen4–5 messages Mesa's g4x code sends (see [`super::send_gen4`] for the dispatch):
//!
//! | SFID | message | notes |
//! |---|---|---|
//! | math (1) | extended math: function 3:0, signed 4, saturate 6, scalar 7 | operands one register per 8 channels, src1 after src0's registers; results to the response registers (two per 8 channels for INT DIV quotient and remainder); a compressed SIMD16 SEND of a one-register unary message is two messages, the second half's operand and result one register further |
//! | write (5) | render-target write (type 4; control 2:0 = 0 SIMD16, 4 SIMD8; bit 3 last) | two header registers (the pixel mask in dword 0 bits 15:0: Mesa's discard writes it into g0 before the implied move), then r g b a per 8 channels; SIMD16: r g b a of channels 0–7, then of 8–15 (what Mesa's `compr4` MOVs build); then the shader's depth, one register per 8 channels, when it writes one |
//! | write (5) | OWord dual block write (type 1) | scratch: block offsets in bytes in m(n+1) dwords 0 and 4 |
//! | read (4) | OWord block read (0) | header dword 2 = offset in bytes (Mesa's FS pull constants) |
//! | read (4) | OWord dual block read (G45: 2) | offsets in bytes in m(n+1) dwords 0 and 4: scratch (surface 255) or a constant buffer (vec4 pull constants) |
//!
//! Gen4–5 data-port offsets are in bytes where Gen6 counts OWords (Mesa's
//! `generate_oword_dual_block_offsets` and `brw_oword_block_read`).

use super::alu;
use super::exec::Ctx;
use super::send::Msg;
use super::shared::{RtWrite, SharedFunctions};
use super::thread::Thread;
use crate::intel::eu::MathFn;
use crate::intel::msg::{Gen4DpReadDesc, Gen4DpWriteDesc, MathDesc};

/// Gen4–5 data-port message types (Mesa's `BRW_DATAPORT_*` and `G45_DATAPORT_*`).
mod gen4 {
    pub const OWORD_BLOCK_READ: u32 = 0;
    pub const G45_OWORD_DUAL_BLOCK_READ: u32 = 2;
    pub const GEN4_OWORD_DUAL_BLOCK_READ: u32 = 1;
    pub const OWORD_DUAL_BLOCK_WRITE: u32 = 1;
    pub const RENDER_TARGET_WRITE: u32 = 4;
    pub const RT_SIMD16: u32 = 0;
    pub const RT_SIMD8: u32 = 4;
    pub const SCRATCH_SURFACE: u32 = 255;
}

impl Thread {
    /// The extended-math message.
    pub(super) fn math_msg(&mut self, m: &Msg) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let md = MathDesc::decode(ver, m.desc);
        let f = MathFn::from_hw(md.function as u8)
            .ok_or_else(|| format!("unsupported: {} (math function)", m.unknown(ver)))?;
        let both = f == MathFn::IntDivQuotientAndRemainder;
        let int = matches!(
            f,
            MathFn::IntDivQuotient | MathFn::IntDivRemainder | MathFn::IntDivQuotientAndRemainder
        );
        let nops = if f.is_binary() { 2 } else { 1 };
        let per_op = m.mlen / nops;
        let per_result = m.rlen / if both { 2 } else { 1 };
        if per_op == 0 || per_result == 0 {
            return Err(format!("math message of mlen {} rlen {}", m.mlen, m.rlen));
        }
        let dst = m.dst.ok_or("math message without a response register")?;
        // A compressed SIMD16 message of one operand register is two messages of eight
        // channels, the second's operand and result one register further (Mesa's SIMD16
        // math on Gen4: the implied move fills both halves' registers).
        let halves = m.n == 16 && nops == 1 && !both && per_op == 1 && per_result == 1;
        let channels = if halves {
            16
        } else {
            m.n.min(8 * per_op as u32).min(8 * per_result as u32)
        };
        let mut out = Vec::new();
        for c in 0..channels {
            if m.mask >> c & 1 == 0 {
                continue;
            }
            let (r, d) = (c as usize / 8, c as usize % 8);
            let a = self.grf_dword(m.payload + r, d)?;
            let b = if nops == 2 {
                self.grf_dword(m.payload + per_op + r, d)?
            } else {
                0
            };
            let vals: Vec<u32> = if int {
                let v = |x: u32| {
                    if md.signed {
                        x as i32 as i128
                    } else {
                        x as i128
                    }
                };
                let q = alu::int_div(MathFn::IntDivQuotient, v(a), v(b)).ok_or("int div")?;
                let rem = alu::int_div(MathFn::IntDivRemainder, v(a), v(b)).ok_or("int div")?;
                match f {
                    MathFn::IntDivQuotient => vec![q as u32],
                    MathFn::IntDivRemainder => vec![rem as u32],
                    _ => vec![q as u32, rem as u32],
                }
            } else {
                let x = f32::from_bits(a) as f64;
                let y = f32::from_bits(b) as f64;
                let v = alu::math_float(f, x, y)
                    .ok_or_else(|| format!("unsupported: math function `{}`", f.name()))?
                    as f32;
                // Saturation takes NaN to 0, as the ALU's does.
                let v = match md.saturate {
                    true if v.is_nan() => 0.0,
                    true => v.clamp(0.0, 1.0),
                    false => v,
                };
                vec![v.to_bits()]
            };
            out.push((r, d, vals));
        }
        for (r, d, vals) in out {
            for (k, v) in vals.iter().enumerate() {
                self.set_grf_dword(dst + k * per_result + r, d, *v)?;
            }
        }
        Ok(())
    }

    /// The Gen4–5 data port's write side: render-target writes and scratch writes.
    pub(super) fn dp_write_gen4(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
        ctx: &mut Ctx,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let wd = Gen4DpWriteDesc::decode(ver, m.desc);
        match wd.msg_type {
            gen4::RENDER_TARGET_WRITE => {
                let simd = match wd.msg_control & 7 {
                    gen4::RT_SIMD16 => 16u32,
                    gen4::RT_SIMD8 => 8,
                    other => {
                        return Err(format!(
                            "unsupported: {} (render-target write subtype {other})",
                            m.unknown(ver)
                        ))
                    }
                };
                let rpp = simd as usize / 8;
                // Four colour components, then the computed depth when the shader writes it.
                let with_depth = m.mlen == 2 + 5 * rpp;
                if m.mlen != 2 + 4 * rpp && !with_depth {
                    return Err(format!(
                        "unsupported: render-target write of mlen {} (supported: two header \
                         registers, four colour components and an optional depth)",
                        m.mlen
                    ));
                }
                let first = m.payload + 2;
                let mut color = Vec::new();
                for c in 0..simd as usize {
                    let mut px = [0f32; 4];
                    for (k, p) in px.iter_mut().enumerate() {
                        let reg = first + 4 * (c / 8) + k;
                        *p = f32::from_bits(self.grf_dword(reg, c % 8)?);
                    }
                    color.push(px);
                }
                let depth = if with_depth {
                    let at = first + 4 * rpp;
                    let mut d = Vec::new();
                    for c in 0..simd as usize {
                        d.push(f32::from_bits(self.grf_dword(at + c / 8, c % 8)?));
                    }
                    Some(d)
                } else {
                    None
                };
                // The pixels written are those of the header's g0 part (dword 0 bits 15:0,
                // the dispatch mask as the thread received it, or what the shader left
                // there after a discard) that the instruction enables.
                let header_mask = self.grf_dword(m.payload, 0)? & 0xffff;
                let w = RtWrite {
                    target: wd.binding_table_index,
                    simd,
                    pixel_mask: m.mask & header_mask >> m.base,
                    color,
                    color1: None,
                    depth,
                    last: wd.msg_control & 8 != 0,
                };
                shared.render_target_write(&w)?;
                ctx.res.rt_writes.push(w);
                Ok(())
            }
            gen4::OWORD_DUAL_BLOCK_WRITE if wd.binding_table_index == gen4::SCRATCH_SURFACE => {
                self.dual_block_gen4(m, shared, true)
            }
            _ => Err(format!(
                "unsupported: {} (Gen4-5 data-port write)",
                m.unknown(ver)
            )),
        }
    }

    /// The Gen4–5 data port's read side: OWord block and dual block reads.
    pub(super) fn dp_read_gen4(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let rd = Gen4DpReadDesc::decode(ver, m.desc);
        let dual = if ver >= 45 {
            gen4::G45_OWORD_DUAL_BLOCK_READ
        } else {
            gen4::GEN4_OWORD_DUAL_BLOCK_READ
        };
        match rd.msg_type {
            gen4::OWORD_BLOCK_READ => {
                let (owords, high) = crate::intel::msg::oword_block_size(rd.msg_control & 7)
                    .ok_or_else(|| m.unknown(ver))?;
                let offset = self.grf_dword(m.payload, 2)? as usize;
                let mut data = vec![0u8; owords * 16];
                shared.constant_read(rd.binding_table_index, offset, &mut data)?;
                let dst = m
                    .dst
                    .ok_or("OWord block read without a response register")?;
                let skip = if high { 4 } else { 0 };
                for (k, w) in data.chunks(4).enumerate() {
                    let d = skip + k;
                    let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                    self.set_grf_dword(dst + d / 8, d % 8, v)?;
                }
                Ok(())
            }
            t if t == dual => self.dual_block_gen4(m, shared, false),
            _ => Err(format!(
                "unsupported: {} (Gen4-5 data-port read)",
                m.unknown(ver)
            )),
        }
    }

    /// OWord dual block read or write, one OWord per block: block h (channels 4h..4h + 3) at
    /// the byte offset in m(n+1) dword 4h; data in dwords 4h.. of the response (read) or of
    /// m(n+2) (write), each dword only where its channel is enabled. Surface 255 is scratch;
    /// reads of other surfaces read the constant buffer bound there.
    fn dual_block_gen4(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
        write: bool,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let (bti, control) = if write {
            let d = Gen4DpWriteDesc::decode(ver, m.desc);
            (d.binding_table_index, d.msg_control)
        } else {
            let d = Gen4DpReadDesc::decode(ver, m.desc);
            (d.binding_table_index, d.msg_control)
        };
        let mlen = if write { 3 } else { 2 };
        if control != 0 || m.mlen != mlen || (!write && m.rlen != 1) {
            return Err(format!(
                "unsupported: {} (OWord dual block messages other than one OWord per block)",
                m.unknown(ver)
            ));
        }
        let scratch = bti == gen4::SCRATCH_SURFACE;
        if write && !scratch {
            return Err(format!(
                "unsupported: {} (OWord dual block write to a surface other than scratch)",
                m.unknown(ver)
            ));
        }
        let mut out = Vec::new();
        for h in 0..2usize {
            if m.mask >> (4 * h) & 0xf == 0 {
                continue;
            }
            let base = self.grf_dword(m.payload + 1, 4 * h)? as usize;
            let mut data = [0u8; 16];
            if write {
                for k in 0..4 {
                    if m.mask >> (4 * h + k) & 1 == 1 {
                        let v = self.grf_dword(m.payload + 2, 4 * h + k)?;
                        shared.scratch_write(base + 4 * k, &v.to_le_bytes())?;
                    }
                }
                continue;
            }
            if scratch {
                shared.scratch_read(base, &mut data)?;
            } else {
                shared.constant_read(bti, base, &mut data)?;
            }
            for k in 0..4 {
                if m.mask >> (4 * h + k) & 1 == 1 {
                    let b = &data[4 * k..4 * k + 4];
                    out.push((4 * h + k, u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
                }
            }
        }
        if let Some(dst) = m.dst {
            for (d, v) in out {
                self.set_grf_dword(dst, d, v)?;
            }
        }
        Ok(())
    }
}
