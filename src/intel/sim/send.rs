//! SEND: the payload/response layouts of the messages the backend emits on Gen7–Gen9, with
//! the descriptors read through [`crate::intel::msg`] (the table below restates their
//! fields for the reader).
//!
//! Every descriptor has the Gen5+ common part: bits 28:25 message length (registers), 24:20
//! response length, 19 header present. The rest depends on the shared function (the SFID of
//! the instruction). Supported messages, with their function-control bits (Mesa's
//! `brw_eu_defines.h` / `brw_eu.h` names):
//!
//! | SFID | message | function control |
//! |---|---|---|
//! | sampler (2) | sample, sample_b, sample_l, sample_c, sample_d, sample_b_c, sample_l_c, ld, resinfo | 7:0 binding table, 11:8 sampler, 16:12 type (0,1,2,3,4,5,6,7,10), 18:17 SIMD mode (1 = SIMD8, 2 = SIMD16; 0 = SIMD4x2: sample, sample_b, sample_l, sample_l_c, resinfo and ld only) |
//! | render (5) | render-target write | 7:0 binding table, 10:8 subtype (0 = SIMD16, 4 = SIMD8 single source, 2 / 3 = SIMD8 dual source for subspans 0-1 / 2-3), 11 slot group (channels 16-31 of a SIMD32 thread), 12 last RT, message type 12 in 17:14 (18:14 on Gen8+) |
//! | render (5), data (10) | memory fence (7) | header only; function-control bit 5 = commit (one reply register) |
//! | const (9) | OWord block read | 7:0 binding table, 10:8 block size (0 = 1 low, 1 = 1 high, 2 = 2, 3 = 4, 4 = 8 OWords), type 0; header dword 2 = offset in OWords |
//! | data (10) | scratch block read/write | 18 = 1, 17 write, 11:0 offset in 32-byte units; read: rlen registers; write: mlen − 1 registers after the header |
//! | data (10) | OWord block read (0) / write (8) | 7:0 binding table (253/255 = scratch), 10:8 block size as for const; header dword 2 = offset in OWords (Gen9 spills) |
//! | data (10) | unaligned OWord block read (1) | 7:0 binding table, 10:8 block size as for const; header dword 2 = offset in bytes, dword aligned (Gen9 `load_ubo_uniform_block_intel`) |
//! | data (10) | OWord dual block read (2) / write (10) | 7:0 binding table (253/255 = scratch), 10:8 block size (0 = one OWord per block only); register 1 dwords 0 and 4 = the two blocks' offsets in OWords (the vec4 backend's scratch) |
//! | data (10) | DWORD scattered read (3) / write (11) | 7:0 binding table (253/255 = scratch), 8 = SIMD16; per-channel offsets in dwords, then the data |
//! | data (10, Gen7) / data 1 (12, HSW+) | untyped surface read (5 / 1), write (13 / 9) | 7:0 binding table, 11:8 disabled components, 13:12 SIMD mode (1 = SIMD16, 2 = SIMD8) |
//! | data 1 (12, Gen8+) | A64 untyped surface read (0x11) | 7:0 binding table (253), 11:8 disabled components, 13:12 SIMD mode (1 = SIMD16, 2 = SIMD8); per-channel 64-bit addresses (one qword each, no header) |
//! | data 1 (12, Gen9+) | A64 OWord block read (0x14) | 7:0 binding table (253 or 255, stateless), 10:8 block size as for const, 11 = address only dword aligned (unaligned read; 0: OWord aligned), 13:12 zero; header dwords 1:0 = the 64-bit address (Gen9 `load_global_constant_uniform_block_intel`) |
//! | data (10, Gen7) / data 1 (12, HSW+) | untyped atomic (6 / 2) | 7:0 binding table, 11:8 `BRW_AOP_*`, 12 SIMD8, 13 return data |
//! | data 1 (12, HSW) | SIMD4x2 untyped atomic (3) | 7:0 binding table, 11:8 `BRW_AOP_*`, 13 return data; register 0 dword 4h = vertex h's address, register 1 dwords 4h and 4h + 1 its operands, the old value back in dword 4h (the vec4 backend's; Ivy Bridge sends the SIMD8 message with the destination masked to .x) |
//! | gateway (3) | barrier | 2:0 = 4 |
//! | URB (6, Gen8+) | SIMD8 write (7) | 14:4 global offset in 16-byte slots, 15 channel masks present, 17 per-slot offsets present; header = per-channel URB handles |
//! | URB (6, Gen8+) | SIMD8 read (8) | as the write; reply register k = dword k of each channel's slot (see `urb_read.rs`) |
//! | URB (6, Gen7) | SIMD4x2 write HWord (0), interleaved | 2:0 opcode 0, 13:3 global offset in 256-bit rows (two slots), 14 interleave, 15 complete, 16 per-slot offsets present (added from header dword 3 for object 0, 4 for object 1); opcode 1 writes one OWord slot; header dwords 0/1 = vertex 0/1's URB handle, dword 5 bits 15:8 = channel mask (bits 11:8 vertex 0's x–w, 15:12 vertex 1's) |
//! | URB (6, Gen7) | SIMD4x2 read OWord (3), interleaved | as the OWord write, one reply register: object 0's slot in dwords 0–3, object 1's in 4–7 (see `urb_read.rs`) |
//! | thread spawner (7) | only as the EOT message | |
//!
//! Payload layouts (after the header register(s) when bit 19 is set; render-target writes
//! have a two-register header, the others one): each parameter takes one register per 8
//! channels, channel c in dword c % 8 of register c / 8 of the parameter.
//!
//! - sampler (Gen7/8 order as Mesa emits it): sample `u v r ai`; sample_b / sample_l
//!   `bias|lod u v r`; sample_c `ref u v r`; sample_b_c / sample_l_c `ref bias|lod u v r`;
//!   sample_d `u dudx dudy v dvdx dvdy r …`; ld `u lod v r` (Gen9: `u v lod r`); resinfo `lod`.
//!   With a header (one register, g0-based), dword 2 holds texel offsets for the sampling
//!   messages: u in bits 11:8, v 7:4, r 3:0, signed.
//!   The number of coordinates comes from the message length. The reply is four components
//!   (r, g, b, a; resinfo: width, height, depth, levels) of one register per 8 channels each.
//! - render-target write: r, g, b, a, then optionally source depth.
//! - untyped read: addresses; write: addresses then components; atomic: addresses then the
//!   operands.
//!
//! Any other descriptor is an error that names the SFID and the descriptor.

use super::exec::{Ctx, Next};
use super::shared::{AtomicOp, RtWrite, SharedFunctions};
use super::thread::{arf_base, Loc, Thread, REG_SIZE};
use crate::intel::eu::types::sfid;
use crate::intel::eu::{AccessMode, Inst, RegFile};
use crate::intel::msg::{
    self, dc, DataPortDesc, GatewayDesc, Lengths, RenderTargetWriteDesc, RtSubtype, SamplerDesc,
    ScratchDesc, SimdMode, UrbDesc,
};
use crate::nir::interp::TexRequest;
use crate::nir::TexOp;

/// The decoded common part of a descriptor.
pub(super) struct Msg {
    pub(super) desc: u32,
    /// The descriptor read as a data-port message (what most of the messages are).
    pub(super) dp: DataPortDesc,
    pub(super) sfid: u8,
    pub(super) mlen: usize,
    pub(super) rlen: usize,
    pub(super) header: bool,
    pub(super) payload: usize,
    pub(super) dst: Option<usize>,
    /// Enabled channels of the message, bit n = channel n of the instruction.
    pub(super) mask: u32,
    pub(super) n: u32,
    /// The message ends the thread.
    pub(super) eot: bool,
    /// First channel of the instruction in the thread (its group: 8 for a second half).
    pub(super) base: u32,
}

impl Msg {
    pub(super) fn unknown(&self, ver: u32) -> String {
        format!(
            "unknown message: sfid {} ({}) descriptor {:#010x}",
            self.sfid,
            sfid::name(ver, self.sfid).unwrap_or("?"),
            self.desc
        )
    }
}

/// The layout of a SIMD8/16 sampler message (`Thread::sampler_payload`).
pub(super) struct SamplerPayload {
    pub(super) simd: u32,
    /// Registers per parameter: 1 in SIMD8, 2 in SIMD16.
    pub(super) rpp: usize,
    /// The first parameter register (after the header, if any).
    pub(super) first: usize,
    /// Parameters the message carries.
    pub(super) params: usize,
    pub(super) dst: usize,
    pub(super) integer: bool,
    pub(super) texel_offsets: Vec<i64>,
}

impl Thread {
    pub(super) fn grf_dword(&self, reg: usize, dword: usize) -> Result<u32, String> {
        let a = reg * REG_SIZE + dword * 4;
        Ok(self
            .read_raw(Loc::Grf(a), 4)
            .map_err(|_| format!("message payload g{reg}.{dword} is outside the GRF file"))?
            as u32)
    }

    pub(super) fn set_grf_dword(&mut self, reg: usize, dword: usize, v: u32) -> Result<(), String> {
        let a = reg * REG_SIZE + dword * 4;
        self.write_raw(Loc::Grf(a), 4, v as u64)
            .map_err(|_| format!("message response g{reg}.{dword} is outside the GRF file"))
    }

    /// Parameter `p` of channel `c` in a payload with `rpp` registers per parameter.
    pub(super) fn param(&self, first: usize, rpp: usize, p: usize, c: u32) -> Result<u32, String> {
        self.grf_dword(first + p * rpp + c as usize / 8, c as usize % 8)
    }

    pub(super) fn exec_send(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        shared: &mut dyn SharedFunctions,
    ) -> Result<Next, String> {
        let desc = match inst.send_desc() {
            Some(d) => d,
            None => {
                // Indirect descriptor in a0.0.
                let raw = self.read_raw(Loc::Arf(arf_base(0x10)), 4)?;
                raw as u32
            }
        };
        let src0 = inst
            .src
            .first()
            .and_then(|s| s.as_reg())
            .ok_or("send without a payload register")?;
        let ver = self.devinfo.ver;
        let payload = match src0.file {
            RegFile::Grf if ver < 60 => {
                let mrf = inst.msg.map_or(0, |m| m.base_mrf);
                self.implied_move(inst, src0, mrf)?;
                self.mrf_storage_reg(mrf)?
            }
            RegFile::Grf => src0.nr as usize,
            RegFile::Mrf if ver < 70 => self.mrf_storage_reg(src0.nr)?,
            // Gen4-5 without an implied move: the message is already at the base MRF.
            RegFile::Arf if ver < 60 && src0.nr & 0xf0 == 0 => {
                self.mrf_storage_reg(inst.msg.map_or(0, |m| m.base_mrf))?
            }
            _ => return Err("unsupported: send payload outside the GRF".into()),
        };
        let base = self.group_base(inst);
        let n = inst.exec_size as u32;
        // In align16 the destination's write mask is part of each channel's enable: a
        // SIMD4x2 message reads or writes component c of a vertex only where bit c is set.
        let writemask = if inst.access_mode == AccessMode::Align16 {
            inst.dst.writemask as u32 & 0xf
        } else {
            0xf
        };
        let mut mask = 0u32;
        for i in 0..n.min(32) {
            if writemask >> (i % 4) & 1 == 0 {
                continue;
            }
            if inst.we_all || (self.active(base + i) && self.predicate(inst, base + i)?) {
                mask |= 1 << i;
            }
        }
        let len = Lengths::decode(ver, desc);
        let m = Msg {
            desc,
            dp: DataPortDesc::decode(ver, desc),
            sfid: inst.msg.map_or(0, |m| m.sfid),
            mlen: len.mlen as usize,
            rlen: len.rlen as usize,
            header: len.header,
            payload,
            dst: (inst.dst.file == RegFile::Grf).then_some(inst.dst.nr as usize),
            mask,
            n,
            eot: inst.eot,
            base,
        };
        if ver < 70 {
            self.send_gen4(&m, inst, ctx, shared)?;
            return Ok(if inst.eot { Next::End } else { Next::Fall });
        }
        match m.sfid {
            sfid::SAMPLER => self.sampler_msg(&m, shared)?,
            sfid::DATAPORT_WRITE => {
                let ty = m.dp.msg_type;
                if ty == dc::MEMORY_FENCE {
                    // Render-cache memory fence: nothing is outstanding in this model; the
                    // commit reply (if asked for) only signals completion.
                    self.fence_reply(&m)?;
                } else if ty != RenderTargetWriteDesc::msg_type(ver) {
                    return Err(m.unknown(ver));
                } else {
                    self.rt_write(&m, shared, ctx)?;
                }
            }
            sfid::CONSTANT_CACHE => self.const_read(&m, shared)?,
            sfid::DATA_CACHE | sfid::DATA_CACHE_1 => self.data_msg(&m, shared)?,
            sfid::GATEWAY => {
                if GatewayDesc::decode(ver, desc).subfunction != GatewayDesc::BARRIER {
                    return Err(m.unknown(ver));
                }
                shared.barrier()?;
            }
            sfid::URB if ver >= 80 => self.urb_msg(&m, shared)?,
            sfid::URB if UrbDesc::decode(ver, desc).opcode == UrbDesc::READ_OWORD => {
                self.urb_simd4x2_read(&m, shared)?
            }
            sfid::URB => self.urb_simd4x2_write(&m, shared)?,
            sfid::THREAD_SPAWNER if inst.eot => {}
            _ => return Err(m.unknown(ver)),
        }
        Ok(if inst.eot { Next::End } else { Next::Fall })
    }

    /// Gen8 SIMD8 URB write (message type 7): a header of per-channel URB handles
    /// (dword c = channel c's entry), optional per-slot offsets (bit 17: one register, in
    /// 16-byte slots), optional channel masks (bit 15: one register, bits 23:16 of channel
    /// c's dword enabling data register k at bit k), then the data registers, register k
    /// holding dword `slot offset · 4 + k` of each enabled channel's entry. Reads (message
    /// type 8) are in `urb_read.rs`.
    fn urb_msg(&mut self, m: &Msg, shared: &mut dyn SharedFunctions) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let urb = UrbDesc::decode(ver, m.desc);
        let per_slot = urb.per_slot_offset;
        if urb.opcode == UrbDesc::SIMD8_READ {
            return self.urb_simd8_read(m, shared);
        }
        if urb.opcode != UrbDesc::SIMD8_WRITE || !m.header || m.n != 8 {
            return Err(format!("unsupported: {}", m.unknown(ver)));
        }
        let masked = urb.channel_mask_present;
        let offset = urb.global_offset;
        let first = m.payload + 1 + per_slot as usize + masked as usize;
        let data = m
            .mlen
            .saturating_sub(1 + per_slot as usize + masked as usize);
        // A write of the handles alone (no data) only ends a thread (brw's GS thread end).
        if data > 8 || data == 0 && !m.eot {
            return Err(format!(
                "URB write of {data} data registers (1 to 8 are allowed): {}",
                m.unknown(ver)
            ));
        }
        for c in 0..8 {
            if m.mask & 1 << c == 0 {
                continue;
            }
            let handle = self.grf_dword(m.payload, c)?;
            let mut at = offset * 4;
            if per_slot {
                at = at.wrapping_add(4 * self.grf_dword(m.payload + 1, c)?);
            }
            // Channel masks (bits 23:16 of the channel's dword): which dwords of the
            // written slots are written.
            let dwords = if masked {
                let reg = m.payload + 1 + per_slot as usize;
                self.grf_dword(reg, c)? >> 16 & 0xff
            } else {
                0xff
            };
            for k in 0..data {
                if dwords >> k & 1 == 0 {
                    continue;
                }
                let v = self.grf_dword(first + k, c)?;
                shared.urb_write(handle, at.wrapping_add(k as u32), v)?;
            }
        }
        Ok(())
    }

    /// Gen7 SIMD4x2 URB write (the handles' bits 31:27, a geometry thread's instance
    /// numbers, are not part of them; Mesa's `brw_urb_WRITE` with `BRW_URB_SWIZZLE_INTERLEAVE`, the
    /// only URB message its vec4 vertex and geometry shaders send): after the header, data
    /// register k holds one 128-bit slot of each object, object 0's in dwords 0–3 and
    /// object 1's in 4–7. An HWord write (opcode 0) puts register k at slot
    /// `2 · offset + k` of that object's entry, the offset counting 256-bit rows; an OWord
    /// write (opcode 1, one data register) puts it at slot `offset`, counting 128-bit slots.
    /// The offset is the descriptor's global offset, plus, with per-slot offsets (bit 16),
    /// header dword 3 (object 0) or 4 (object 1). A component is written when its channel is
    /// enabled for the instruction and its bit in the header's channel mask (dword 5 bits
    /// 15:8, channel c at bit 8 + c) is set; an object with none of its four channels
    /// enabled (the second of a lone-vertex thread) is not written at all.
    ///
    /// A header-only write that ends the thread is a Gen7 geometry thread's end: header
    /// dword 2 holds each object's vertex count (bits 15:0 object 0, 31:16 object 1), which
    /// the URB unit records for the entry ([`SharedFunctions::urb_vertex_count`]).
    fn urb_simd4x2_write(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let urb = UrbDesc::decode(ver, m.desc);
        let interleave = urb.swizzle == UrbDesc::SWIZZLE_INTERLEAVE;
        let oword = urb.opcode == UrbDesc::WRITE_OWORD;
        if oword && !interleave && m.n == 8 && m.header && m.rlen == 0 && m.mlen == 2 {
            // Not interleaved: the first handle's entry takes the data register's two
            // OWords, each dword enabled by its bit of the channel mask (a Gen7 TCS's
            // thread end, Mesa's `TCS_OPCODE_THREAD_END`).
            let channel_mask = self.grf_dword(m.payload, 5)? >> 8 & 0xff;
            if m.mask == 0 {
                return Ok(());
            }
            let handle = self.grf_dword(m.payload, 0)? & GEN7_URB_HANDLE_MASK;
            let base = 4 * urb.global_offset;
            for c in 0..8u32 {
                if channel_mask >> c & 1 != 0 {
                    let val = self.grf_dword(m.payload + 1, c as usize)?;
                    shared.urb_write(handle, base.wrapping_add(c), val)?;
                }
            }
            return Ok(());
        }
        if !(urb.opcode == UrbDesc::WRITE_HWORD || oword) || !interleave || m.n != 8 {
            return Err(format!(
                "unsupported: {} (Gen7 URB messages other than interleaved SIMD4x2 HWord and \
                 OWord writes)",
                m.unknown(ver)
            ));
        }
        if !m.header || m.rlen != 0 {
            return Err(format!(
                "Gen7 URB write without its header or with a response: {}",
                m.unknown(ver)
            ));
        }
        let data = m.mlen.saturating_sub(1);
        if data == 0 && m.eot && !oword {
            let counts = self.grf_dword(m.payload, 2)?;
            for v in 0..2usize {
                if m.mask >> (4 * v) & 0xf == 0 {
                    continue;
                }
                let handle = self.grf_dword(m.payload, v)? & GEN7_URB_HANDLE_MASK;
                shared.urb_vertex_count(handle, counts >> (16 * v) & 0xffff)?;
            }
            return Ok(());
        }
        if data == 0 || oword && data != 1 {
            return Err(format!(
                "URB write of {data} data registers: {}",
                m.unknown(ver)
            ));
        }
        let channel_mask = self.grf_dword(m.payload, 5)? >> 8 & 0xff;
        let enabled = m.mask & channel_mask;
        for v in 0..2usize {
            if m.mask >> (4 * v) & 0xf == 0 {
                continue;
            }
            let handle = self.grf_dword(m.payload, v)? & GEN7_URB_HANDLE_MASK;
            let mut offset = urb.global_offset;
            if urb.per_slot_offset {
                offset = offset.wrapping_add(self.grf_dword(m.payload, 3 + v)?);
            }
            // First dword of the write in the entry.
            let base = if oword { 4 * offset } else { 8 * offset };
            for k in 0..data {
                for c in 0..4 {
                    let ch = 4 * v + c;
                    if enabled >> ch & 1 == 0 {
                        continue;
                    }
                    let val = self.grf_dword(m.payload + 1 + k, ch)?;
                    let dword = base.wrapping_add(4 * k as u32 + c as u32);
                    shared.urb_write(handle, dword, val)?;
                }
            }
        }
        Ok(())
    }

    /// SIMD4x2 sampler messages, as Mesa's vec4 backend sends them (one response register):
    /// the two vertices are two lanes; lane h's parameters are in dwords 4h.. of each
    /// parameter register and its four result dwords go to dwords 4h..4h + 3 of the response.
    /// A lane none of whose four channels is enabled reads nothing. An optional header (g0
    /// with the texel offsets in dword 2, u v r at bits 11:8, 7:4, 3:0) precedes the
    /// parameters. Modelled:
    ///
    /// - `ld` (7): from a buffer (the pull-constant load, `VS_OPCODE_PULL_CONSTANT_LOAD_GFX7`)
    ///   u = the byte offset; from a texture, integer u v r in x y z and the level in w;
    /// - `sample` (0), `sample_b` (1), `sample_l` (2): u v r in the first register, the bias
    ///   or level in dword 0 of the lane in the second;
    /// - `sample_l_c` (6): u v r in the first register, the reference in dword 0 and the
    ///   level in dword 1 of the lane in the second;
    /// - `resinfo` (10): the level in dword 0 of the lane; width, height, depth, levels back.
    ///
    /// Other types (`sample_c`, gradients, gathers) are outside the model.
    pub(super) fn sampler_simd4x2(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let sd = SamplerDesc::decode(ver, m.desc);
        let ty = sd.msg_type;
        let hdr = m.header as usize;
        let params = match ty {
            0 | 7 | 10 => 1,
            1 | 2 | 6 => 2,
            _ => 0,
        };
        if params == 0 || m.mlen != params + hdr || m.rlen != 1 || m.n != 8 {
            return Err(format!(
                "unsupported: {} (SIMD4x2 sampler messages other than sample, sample_b, \
                 sample_l, sample_l_c, resinfo and ld with one response register)",
                m.unknown(ver)
            ));
        }
        let first = m.payload + hdr;
        let texel_offsets: Vec<i64> = if m.header {
            let bits = self.grf_dword(m.payload, 2)?;
            (0..3)
                .map(|k| (((bits >> (8 - 4 * k)) & 0xf) as i64 ^ 8) - 8)
                .collect()
        } else {
            Vec::new()
        };
        let (texture, sampler) = (sd.binding_table_index, sd.sampler);
        let dst = m.dst.ok_or("sampler message without a response register")?;
        let integer = shared.texture_is_integer(texture);
        // Both lanes' parameters are read before the response, which may overlap them.
        let mut results = [None; 2];
        for (h, result) in results.iter_mut().enumerate() {
            if m.mask >> (4 * h) & 0xf == 0 {
                continue;
            }
            let reg = |r: usize, k: usize| self.grf_dword(first + r, 4 * h + k);
            let f = |r: usize, k: usize| -> Result<f64, String> {
                Ok(f32::from_bits(reg(r, k)?) as f64)
            };
            let d = |k: usize| -> Result<f64, String> { Ok(reg(0, k)? as i32 as f64) };
            let mut req = TexRequest::sample(texture, sampler, &texel_offsets, integer);
            *result = Some(match ty {
                7 => match shared.buffer_texel(texture, reg(0, 0)? as i32 as i64) {
                    Some(t) => t,
                    None => {
                        req.op = TexOp::Txf;
                        req.coord = vec![d(0)?, d(1)?, d(2)?];
                        req.lod = Some(d(3)?);
                        encode(shared.sample(&req)?, integer)
                    }
                },
                10 => {
                    let s = shared.texture_size(texture, reg(0, 0)?);
                    [s[0], s[1], s[2], shared.texture_levels(texture)]
                }
                _ => {
                    // sample (0), sample_b (1), sample_l (2), sample_l_c (6).
                    req.op = match ty {
                        1 => TexOp::Txb,
                        2 | 6 => TexOp::Txl,
                        _ => TexOp::Tex,
                    };
                    req.coord = vec![f(0, 0)?, f(0, 1)?, f(0, 2)?];
                    match ty {
                        1 => req.bias = Some(f(1, 0)?),
                        2 => req.lod = Some(f(1, 0)?),
                        6 => {
                            req.comparator = Some(f(1, 0)?);
                            req.lod = Some(f(1, 1)?);
                        }
                        _ => {}
                    }
                    encode(shared.sample(&req)?, integer && ty != 6)
                }
            });
        }
        for (h, result) in results.iter().enumerate() {
            if let Some(r) = result {
                for (k, v) in r.iter().enumerate() {
                    self.set_grf_dword(dst, 4 * h + k, *v)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn rt_write(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
        ctx: &mut Ctx,
    ) -> Result<(), String> {
        let rt = RenderTargetWriteDesc::decode(self.devinfo.ver, m.desc);
        if rt.subtype.is_dual_source() {
            return self.rt_write_dual(m, &rt, shared, ctx);
        }
        let simd = match rt.subtype {
            RtSubtype::Simd16 => 16,
            RtSubtype::Simd8 => 8,
            other => {
                return Err(format!(
                    "unsupported: {} (render-target write subtype {})",
                    m.unknown(self.devinfo.ver),
                    other.bits()
                ))
            }
        };
        // Slot group select: the message carries channels 16-31 of a SIMD32 thread, which
        // must be the channels the SEND runs for.
        let base = if rt.slot_group_high { 16 } else { 0 };
        if simd == 16 && base != m.base {
            return Err(format!(
                "render-target write for slot group {} sent by channels {}..",
                base / 16,
                m.base
            ));
        }
        let base = if simd == 16 { base } else { 0 };
        let rpp = simd as usize / 8;
        let hdr = if m.header { 2 } else { 0 };
        let depth = if m.mlen == hdr + 4 * rpp {
            false
        } else if m.mlen == hdr + 5 * rpp {
            true
        } else {
            return Err(format!(
                "unsupported: render-target write of mlen {} (supported: {} colour, {} colour + depth)",
                m.mlen,
                hdr + 4 * rpp,
                hdr + 5 * rpp
            ));
        };
        let first = m.payload + hdr;
        // Indexed by thread channel: a slot group 1 write fills channels 16..31.
        let mut color = vec![[0f32; 4]; base as usize];
        let mut depths = vec![0f32; if depth { base as usize } else { 0 }];
        for c in 0..simd {
            let mut px = [0f32; 4];
            for (k, p) in px.iter_mut().enumerate() {
                *p = f32::from_bits(self.param(first, rpp, k, c)?);
            }
            color.push(px);
            if depth {
                depths.push(f32::from_bits(self.param(first, rpp, 4, c)?));
            }
        }
        let w = RtWrite {
            target: rt.binding_table_index,
            simd,
            pixel_mask: m.mask << base,
            color,
            color1: None,
            depth: depth.then_some(depths),
            last: rt.last_render_target,
        };
        shared.render_target_write(&w)?;
        ctx.res.rt_writes.push(w);
        Ok(())
    }

    /// SIMD8 dual-source render-target write (subtype 2: subspans 0-1, 3: subspans 2-3):
    /// the two-register header, source 0 r g b a, source 1 r g b a, optionally source
    /// depth. The captured write is indexed by thread channel, so a subspan 2-3 message
    /// fills channels 8..15.
    fn rt_write_dual(
        &mut self,
        m: &Msg,
        rt: &RenderTargetWriteDesc,
        shared: &mut dyn SharedFunctions,
        ctx: &mut Ctx,
    ) -> Result<(), String> {
        if !m.header {
            return Err("dual-source render-target write without its header".into());
        }
        let depth = match m.mlen {
            10 => false,
            11 => true,
            n => {
                return Err(format!(
                "unsupported: dual-source render-target write of mlen {n} (10, or 11 with depth)"
            ))
            }
        };
        let first = m.payload + 2;
        let base = if rt.subtype == RtSubtype::Simd8DualHigh {
            8
        } else {
            0
        };
        if base != m.base % 16 {
            return Err(format!(
                "dual-source render-target write for subspans {} sent by channels {}..",
                if base == 8 { "2-3" } else { "0-1" },
                m.base
            ));
        }
        let channels = m.base as usize + 8;
        let mut color = vec![[0f32; 4]; channels];
        let mut color1 = vec![[0f32; 4]; channels];
        let mut depths = vec![0f32; channels];
        for c in 0..8u32 {
            let ch = (m.base + c) as usize;
            for k in 0..4 {
                color[ch][k] = f32::from_bits(self.param(first, 1, k, c)?);
                color1[ch][k] = f32::from_bits(self.param(first, 1, 4 + k, c)?);
            }
            if depth {
                depths[ch] = f32::from_bits(self.param(first, 1, 8, c)?);
            }
        }
        let w = RtWrite {
            target: rt.binding_table_index,
            simd: 8,
            pixel_mask: m.mask << m.base,
            color,
            color1: Some(color1),
            depth: depth.then_some(depths),
            last: rt.last_render_target,
        };
        shared.render_target_write(&w)?;
        ctx.res.rt_writes.push(w);
        Ok(())
    }

    /// A memory fence's reply: with commit enabled (function control bit 5) the data port
    /// writes one register when earlier accesses have completed. Messages complete in order
    /// here, so the reply only has to arrive.
    pub(super) fn fence_reply(&mut self, m: &Msg) -> Result<(), String> {
        if m.mlen != 1 || !m.header {
            return Err(format!(
                "memory fence with mlen {} (the thread header alone)",
                m.mlen
            ));
        }
        let commit = m.dp.fence_commit();
        if commit != (m.rlen == 1) {
            return Err(format!(
                "memory fence with commit {commit} and response length {}",
                m.rlen
            ));
        }
        if commit {
            let dst = m.dst.ok_or("fence commit without a response register")?;
            for d in 0..8 {
                self.set_grf_dword(dst, d, 0)?;
            }
        }
        Ok(())
    }

    /// The part every SIMD8/16 sampler message shares: width, parameter layout, response
    /// register, and the texel offsets of the header (dword 2: signed 4 bits each, u 11:8,
    /// v 7:4, r 3:0). `None` for a SIMD4x2 message, which has its own layout.
    pub(super) fn sampler_payload(
        &self,
        m: &Msg,
        sd: &SamplerDesc,
        shared: &mut dyn SharedFunctions,
    ) -> Result<Option<SamplerPayload>, String> {
        let simd: u32 = match sd.simd_mode {
            SimdMode::SIMD4X2 => return Ok(None),
            SimdMode::SIMD8 => 8,
            SimdMode::SIMD16 => 16,
            mode => {
                return Err(format!(
                    "unsupported: {} (sampler SIMD mode {mode})",
                    m.unknown(self.devinfo.ver)
                ))
            }
        };
        let rpp = simd as usize / 8;
        let hdr = m.header as usize;
        let texel_offsets = if m.header {
            let bits = self.grf_dword(m.payload, 2)?;
            (0..3)
                .map(|k| (((bits >> (8 - 4 * k)) & 0xf) as i64 ^ 8) - 8)
                .collect()
        } else {
            Vec::new()
        };
        Ok(Some(SamplerPayload {
            simd,
            rpp,
            first: m.payload + hdr,
            params: m.mlen.saturating_sub(hdr) / rpp,
            dst: m.dst.ok_or("sampler message without a response register")?,
            integer: shared.texture_is_integer(sd.binding_table_index),
            texel_offsets,
        }))
    }

    fn sampler_msg(&mut self, m: &Msg, shared: &mut dyn SharedFunctions) -> Result<(), String> {
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
        let (ty, texture, sampler) = (sd.msg_type, sd.binding_table_index, sd.sampler);
        for c in 0..simd {
            if m.mask >> c & 1 == 0 {
                continue;
            }
            let f = |p: usize| -> Result<f64, String> {
                Ok(f32::from_bits(self.param(first, rpp, p, c)?) as f64)
            };
            let d = |p: usize| -> Result<i64, String> {
                Ok(self.param(first, rpp, p, c)? as i32 as i64)
            };
            let mut req = TexRequest::sample(texture, sampler, &texel_offsets, integer);
            let mut out_int = integer;
            let result: [u32; 4] = match ty {
                0..=6 => {
                    let mut p = 0;
                    if matches!(ty, 3 | 5 | 6) {
                        req.comparator = Some(f(p)?);
                        p += 1;
                    }
                    match ty {
                        1 | 5 => {
                            req.op = TexOp::Txb;
                            req.bias = Some(f(p)?);
                            p += 1;
                        }
                        2 | 6 => {
                            req.op = TexOp::Txl;
                            req.lod = Some(f(p)?);
                            p += 1;
                        }
                        4 => req.op = TexOp::Txd,
                        _ => {}
                    }
                    if ty == 4 {
                        let grads = params / 3;
                        for k in 0..grads {
                            req.coord.push(f(3 * k)?);
                            req.ddx.push(f(3 * k + 1)?);
                            req.ddy.push(f(3 * k + 2)?);
                        }
                        for k in 3 * grads..params {
                            req.coord.push(f(k)?);
                        }
                    } else {
                        for k in p..params {
                            req.coord.push(f(k)?);
                        }
                    }
                    if req.comparator.is_some() {
                        out_int = false;
                    }
                    let v = shared.sample(&req)?;
                    encode(v, out_int)
                }
                7 => {
                    req.op = TexOp::Txf;
                    // Gen7/8 interleave the level after u: `u lod v r`; Gen9 has `u v lod r`.
                    let lod_pos = if ver >= 90 { 2 } else { 1 };
                    let coords: Vec<usize> = (0..params).filter(|&p| p != lod_pos).collect();
                    if let Some(t) = shared.buffer_texel(texture, d(0)?) {
                        t
                    } else {
                        req.lod = if params > lod_pos {
                            Some(d(lod_pos)? as f64)
                        } else {
                            None
                        };
                        for p in coords {
                            req.coord.push(d(p)? as f64);
                        }
                        encode(shared.sample(&req)?, out_int)
                    }
                }
                10 => {
                    let lod = self.param(first, rpp, 0, c)?;
                    let s = shared.texture_size(texture, lod);
                    [s[0], s[1], s[2], shared.texture_levels(texture)]
                }
                _ => return Err(m.unknown(ver)),
            };
            for (k, v) in result.iter().enumerate() {
                if (k + 1) * rpp <= m.rlen {
                    self.set_grf_dword(dst + k * rpp + c as usize / 8, c as usize % 8, *v)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn const_read(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        if m.dp.msg_type != dc::OWORD_BLOCK_READ || !m.header {
            return Err(m.unknown(ver));
        }
        let (owords, high) =
            msg::oword_block_size(m.dp.block_size_code()).ok_or_else(|| m.unknown(ver))?;
        let offset = self.grf_dword(m.payload, 2)? as usize * 16;
        let mut data = vec![0u8; owords * 16];
        shared.constant_read(m.dp.binding_table_index, offset, &mut data)?;
        let dst = m.dst.ok_or("constant read without a response register")?;
        let start = dst * REG_SIZE + if high { 16 } else { 0 };
        for (i, b) in data.iter().enumerate() {
            self.write_raw(Loc::Grf(start + i), 1, *b as u64)?;
        }
        Ok(())
    }

    fn data_msg(&mut self, m: &Msg, shared: &mut dyn SharedFunctions) -> Result<(), String> {
        let ver = self.devinfo.ver;
        if ScratchDesc::is_scratch(ver, m.sfid, m.desc) {
            return self.scratch_msg(m, shared);
        }
        let ty = m.dp.msg_type;
        let port1 = m.sfid == sfid::DATA_CACHE_1;
        if port1 && ver >= 75 && ty == dc::P1_UNTYPED_ATOMIC_SIMD4X2 {
            return self.untyped_atomic_simd4x2(m, shared);
        }
        let (read, write, atomic) = if ver >= 75 {
            (
                port1 && ty == dc::P1_UNTYPED_SURFACE_READ,
                port1 && ty == dc::P1_UNTYPED_SURFACE_WRITE,
                port1 && ty == dc::P1_UNTYPED_ATOMIC,
            )
        } else {
            (
                !port1 && ty == dc::UNTYPED_SURFACE_READ,
                !port1 && ty == dc::UNTYPED_SURFACE_WRITE,
                !port1 && ty == dc::UNTYPED_ATOMIC,
            )
        };
        let surface = m.dp.binding_table_index;
        let hdr = m.header as usize;
        let first = m.payload + hdr;
        let port0 = m.sfid == sfid::DATA_CACHE;
        if port0
            && matches!(
                ty,
                dc::OWORD_BLOCK_READ | dc::UNALIGNED_OWORD_BLOCK_READ | dc::OWORD_BLOCK_WRITE
            )
        {
            return self.oword_block(m, shared, ty);
        }
        if port0 && ty == dc::MEMORY_FENCE {
            return self.fence_reply(m);
        }
        if port0 && matches!(ty, dc::OWORD_DUAL_BLOCK_READ | dc::OWORD_DUAL_BLOCK_WRITE) {
            return self.oword_dual_block(m, shared, ty == dc::OWORD_DUAL_BLOCK_WRITE);
        }
        if port0 && matches!(ty, dc::DWORD_SCATTERED_READ | dc::DWORD_SCATTERED_WRITE) {
            return self.dword_scattered(m, shared, ty == dc::DWORD_SCATTERED_WRITE);
        }
        if port1 && ver >= 80 && ty == dc::A64_UNTYPED_SURFACE_READ {
            return self.a64_untyped_read(m, shared);
        }
        if port1 && ver >= 90 && ty == dc::A64_OWORD_BLOCK_READ {
            return self.a64_oword_block_read(m, shared);
        }
        if read || write {
            let simd = match m.dp.surface_simd_mode() {
                1 => 16,
                2 => 8,
                mode => {
                    return Err(format!(
                        "unsupported: {} (SIMD mode {mode})",
                        m.unknown(ver)
                    ))
                }
            };
            let rpp = simd / 8;
            let comps = m.dp.channels() as usize;
            // Addresses first: a read's response may overlap its payload.
            let addrs = (0..simd as u32)
                .map(|c| self.param(first, rpp, 0, c))
                .collect::<Result<Vec<u32>, String>>()?;
            for c in 0..simd as u32 {
                if m.mask >> c & 1 == 0 {
                    continue;
                }
                let addr = addrs[c as usize];
                for k in 0..comps {
                    let a = addr.wrapping_add(4 * k as u32);
                    if read {
                        let v = shared.untyped_read(surface, a)?;
                        let dst = m.dst.ok_or("untyped read without a response register")?;
                        self.set_grf_dword(dst + k * rpp + c as usize / 8, c as usize % 8, v)?;
                    } else {
                        let v = self.param(first, rpp, 1 + k, c)?;
                        shared.untyped_write(surface, a, v)?;
                    }
                }
            }
            return Ok(());
        }
        if atomic {
            let op = AtomicOp::from_hw(m.dp.atomic_op()).ok_or_else(|| m.unknown(ver))?;
            let simd = if m.dp.simd8() { 8 } else { 16 };
            let rpp = simd / 8;
            for c in 0..simd as u32 {
                if m.mask >> c & 1 == 0 {
                    continue;
                }
                let addr = self.param(first, rpp, 0, c)?;
                let a = if op.operands() >= 1 {
                    self.param(first, rpp, 1, c)?
                } else {
                    0
                };
                let b = if op.operands() >= 2 {
                    self.param(first, rpp, 2, c)?
                } else {
                    0
                };
                let old = shared.untyped_atomic(surface, addr, op, a, b)?;
                if m.dp.atomic_returns() {
                    if let Some(dst) = m.dst {
                        self.set_grf_dword(dst + c as usize / 8, c as usize % 8, old)?;
                    }
                }
            }
            return Ok(());
        }
        Err(m.unknown(ver))
    }

    /// Haswell's SIMD4x2 untyped atomic (data cache 1, type 3), the vec4 backend's: one
    /// atomic per vertex half whose channels are enabled, the address in dword 4h of the
    /// first payload register, the operands in dwords 4h and 4h + 1 of the second, the old
    /// value back in dword 4h of the response.
    fn untyped_atomic_simd4x2(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let op = AtomicOp::from_hw(m.dp.atomic_op()).ok_or_else(|| m.unknown(ver))?;
        let first = m.payload + m.header as usize;
        let regs = 1 + usize::from(op.operands() > 0);
        if m.mlen != regs + m.header as usize || m.dp.simd8() {
            return Err(format!(
                "unsupported: {} (a SIMD4x2 atomic of {} payload registers{})",
                m.unknown(ver),
                m.mlen,
                if m.dp.simd8() {
                    " with the SIMD8 bit"
                } else {
                    ""
                }
            ));
        }
        for h in 0..2 {
            if m.mask >> (4 * h) & 0xf == 0 {
                continue;
            }
            let addr = self.grf_dword(first, 4 * h)?;
            let a = if op.operands() >= 1 {
                self.grf_dword(first + 1, 4 * h)?
            } else {
                0
            };
            let b = if op.operands() >= 2 {
                self.grf_dword(first + 1, 4 * h + 1)?
            } else {
                0
            };
            let old = shared.untyped_atomic(m.dp.binding_table_index, addr, op, a, b)?;
            if m.dp.atomic_returns() {
                if let Some(dst) = m.dst {
                    self.set_grf_dword(dst, 4 * h, old)?;
                }
            }
        }
        Ok(())
    }

    /// OWord dual block read (type 2) / write (type 10) of one OWord per block, the vec4
    /// backend's scratch access (Mesa's `generate_scratch_read`/`_write`): after the header,
    /// register 1 holds the two blocks' offsets in OWords (dword 0 for the block of channels
    /// 0–3, dword 4 for channels 4–7); a read returns block h in dwords 4h..4h + 3 of its one
    /// response register, a write takes it from the same dwords of register 2. Each dword is
    /// read or written only when its channel is enabled. Only the scratch surfaces are
    /// modelled.
    pub(super) fn oword_dual_block(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
        write: bool,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let (mlen, rlen) = if write { (3, 0) } else { (2, 1) };
        if m.dp.block_size_code() != 0 || !m.header || m.mlen != mlen || m.rlen != rlen {
            return Err(format!(
                "unsupported: {} (OWord dual block messages other than one OWord per block with \
                 a header)",
                m.unknown(ver)
            ));
        }
        if !is_scratch_bti(m.dp.binding_table_index) {
            return Err(format!(
                "unsupported: {} (OWord dual block access to a surface other than scratch)",
                m.unknown(ver)
            ));
        }
        let offsets = [
            self.grf_dword(m.payload + 1, 0)? as usize * 16,
            self.grf_dword(m.payload + 1, 4)? as usize * 16,
        ];
        for (h, &base) in offsets.iter().enumerate() {
            for k in 0..4 {
                let ch = 4 * h + k;
                if m.mask >> ch & 1 == 0 {
                    continue;
                }
                let byte = base + 4 * k;
                // As for scattered scratch: past the modelled space writes vanish and reads
                // give 0.
                let inside = byte + 4 <= SCRATCH_MODEL_BYTES;
                if write {
                    let v = self.grf_dword(m.payload + 2, ch)?;
                    if inside {
                        shared.scratch_write(byte, &v.to_le_bytes())?;
                    }
                } else {
                    let mut b = [0u8; 4];
                    if inside {
                        shared.scratch_read(byte, &mut b)?;
                    }
                    let dst = m
                        .dst
                        .ok_or("OWord dual block read without a response register")?;
                    self.set_grf_dword(dst, ch, u32::from_le_bytes(b))?;
                }
            }
        }
        Ok(())
    }

    /// A64 untyped surface read: each enabled channel reads its enabled components as
    /// consecutive dwords from the flat 64-bit address in its payload qword (channel c in
    /// register c / 4, dwords 2 (c % 4) and 2 (c % 4) + 1), into one response register per
    /// component per 8 channels.
    fn a64_untyped_read(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let simd: u32 = match m.dp.surface_simd_mode() {
            1 => 16,
            2 => 8,
            mode => {
                return Err(format!(
                    "unsupported: {} (SIMD mode {mode})",
                    m.unknown(ver)
                ))
            }
        };
        if m.header || m.mlen != simd as usize / 4 {
            return Err(format!(
                "A64 untyped read of SIMD{simd} with mlen {} (want {} address registers, no header)",
                m.mlen,
                simd / 4
            ));
        }
        let rpp = simd as usize / 8;
        let comps = m.dp.channels() as usize;
        let dst = m
            .dst
            .ok_or("A64 untyped read without a response register")?;
        // Every address is read before any response is written: the response may overlap
        // the payload (brw lets them share registers).
        let mut addrs = Vec::with_capacity(simd as usize);
        for c in (0..simd).filter(|c| m.mask >> c & 1 == 1) {
            let reg = m.payload + c as usize / 4;
            let lo = self.grf_dword(reg, 2 * (c as usize % 4))?;
            let hi = self.grf_dword(reg, 2 * (c as usize % 4) + 1)?;
            addrs.push((c as usize, (hi as u64) << 32 | lo as u64));
        }
        for (c, addr) in addrs {
            for k in 0..comps {
                let v = shared.global_read(addr.wrapping_add(4 * k as u64))?;
                self.set_grf_dword(dst + k * rpp + c / 8, c % 8, v)?;
            }
        }
        Ok(())
    }

    /// OWord block messages on the data cache: the aligned read (type 0) and write (type
    /// 8), whose header dword 2 is the offset in OWords (Gen9 spills use them on BTI 253),
    /// and the unaligned read (type 1), whose header dword 2 is a byte offset that must be
    /// dword aligned (Gen9 UBO block loads). The block size is in function-control bits
    /// 10:8. Non-scratch indices read and write the buffer bound at the binding-table index,
    /// whichever kind of buffer that is.
    fn oword_block(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
        ty: u32,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let write = ty == dc::OWORD_BLOCK_WRITE;
        let (owords, high) =
            msg::oword_block_size(m.dp.block_size_code()).ok_or_else(|| m.unknown(ver))?;
        if !m.header {
            return Err(m.unknown(ver));
        }
        let raw = self.grf_dword(m.payload, 2)? as usize;
        let offset = if ty == dc::UNALIGNED_OWORD_BLOCK_READ {
            if raw % 4 != 0 {
                return Err(format!(
                    "unaligned OWord block read at byte {raw}: the offset must be dword aligned"
                ));
            }
            raw
        } else {
            raw * 16
        };
        let surface = m.dp.binding_table_index;
        let bytes = owords * 16;
        let reg_off = if high { 16 } else { 0 };
        if write {
            let mut data = vec![0u8; bytes];
            for (i, b) in data.iter_mut().enumerate() {
                *b = self.read_raw(Loc::Grf((m.payload + 1) * REG_SIZE + reg_off + i), 1)? as u8;
            }
            if is_scratch_bti(surface) {
                shared.scratch_write(offset, &data)?;
            } else {
                for (k, w) in data.chunks(4).enumerate() {
                    let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                    // Past the 32-bit offset range is out of bounds: the write is dropped.
                    if let Ok(a) = u32::try_from(offset + 4 * k) {
                        shared.untyped_write(surface, a, v)?;
                    }
                }
            }
        } else {
            let dst = block_reply(m, reg_off + bytes)?;
            let mut data = vec![0u8; bytes];
            if is_scratch_bti(surface) {
                shared.scratch_read(offset, &mut data)?;
            } else {
                for (k, w) in data.chunks_mut(4).enumerate() {
                    // Past the 32-bit offset range is out of bounds: zero.
                    let v = match u32::try_from(offset + 4 * k) {
                        Ok(a) => shared.untyped_read(surface, a)?,
                        Err(_) => 0,
                    };
                    w.copy_from_slice(&v.to_le_bytes());
                }
            }
            for (i, b) in data.iter().enumerate() {
                self.write_raw(Loc::Grf(dst * REG_SIZE + reg_off + i), 1, *b as u64)?;
            }
        }
        Ok(())
    }

    /// A64 OWord block read (Gen9, data cache 1 type 0x14): header dwords 0 and 1 hold the
    /// 64-bit address, OWord aligned unless function-control bit 3 (descriptor bit 11)
    /// allows dword alignment; the block size is in bits 10:8 as for the other OWord
    /// block messages. The binding-table index must name the stateless surface.
    fn a64_oword_block_read(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        if !m.header
            || m.mlen != 1
            || m.dp.a64_block_reserved() != 0
            || !is_scratch_bti(m.dp.binding_table_index)
        {
            return Err(m.unknown(ver));
        }
        let (owords, high) =
            msg::oword_block_size(m.dp.block_size_code()).ok_or_else(|| m.unknown(ver))?;
        let unaligned = m.dp.a64_unaligned();
        let lo = self.grf_dword(m.payload, 0)?;
        let hi = self.grf_dword(m.payload, 1)?;
        let addr = (hi as u64) << 32 | lo as u64;
        let align = if unaligned { 4 } else { 16 };
        if addr % align != 0 {
            return Err(format!(
                "A64 OWord block read at {addr:#x}: the address must be {align}-byte aligned"
            ));
        }
        let reg_off = if high { 16 } else { 0 };
        let dst = block_reply(m, reg_off + owords * 16)?;
        let mut words = Vec::with_capacity(owords * 4);
        for k in 0..owords as u64 * 4 {
            words.push(shared.global_read(addr.wrapping_add(4 * k))?);
        }
        for (k, v) in words.into_iter().enumerate() {
            self.write_raw(Loc::Grf(dst * REG_SIZE + reg_off + 4 * k), 4, v as u64)?;
        }
        Ok(())
    }

    /// DWORD scattered read/write (Mesa's `load_scratch`/`store_scratch` on Gen7–Gen9, BTI
    /// 253): per-channel offsets in dwords; function-control bit 0 selects SIMD16.
    fn dword_scattered(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
        write: bool,
    ) -> Result<(), String> {
        let simd: u32 = if m.dp.scattered_simd16() { 16 } else { 8 };
        let rpp = simd as usize / 8;
        let first = m.payload + m.header as usize;
        let surface = m.dp.binding_table_index;
        for c in 0..simd {
            if m.mask >> c & 1 == 0 {
                continue;
            }
            let byte = self.param(first, rpp, 0, c)? as usize * 4;
            // Offsets past the modelled scratch (array indices out of bounds) are undefined
            // on the hardware; here writes are dropped and reads give 0, as the reference
            // interpreter's bounds-checked scratch does.
            if is_scratch_bti(surface) && byte + 4 > SCRATCH_MODEL_BYTES {
                if !write {
                    let dst = m.dst.ok_or("scattered read without a response register")?;
                    self.set_grf_dword(dst + c as usize / 8, c as usize % 8, 0)?;
                }
                continue;
            }
            if write {
                let v = self.param(first, rpp, 1, c)?;
                if is_scratch_bti(surface) {
                    shared.scratch_write(byte, &v.to_le_bytes())?;
                } else {
                    shared.untyped_write(surface, byte as u32, v)?;
                }
            } else {
                let v = if is_scratch_bti(surface) {
                    let mut b = [0u8; 4];
                    shared.scratch_read(byte, &mut b)?;
                    u32::from_le_bytes(b)
                } else {
                    shared.untyped_read(surface, byte as u32)?
                };
                let dst = m.dst.ok_or("scattered read without a response register")?;
                self.set_grf_dword(dst + c as usize / 8, c as usize % 8, v)?;
            }
        }
        Ok(())
    }

    fn scratch_msg(&mut self, m: &Msg, shared: &mut dyn SharedFunctions) -> Result<(), String> {
        let scratch = ScratchDesc::decode(self.devinfo.ver, m.desc);
        let offset = scratch.offset as usize * REG_SIZE;
        if scratch.write {
            let regs = m.mlen.saturating_sub(1);
            for r in 0..regs {
                for d in 0..8 {
                    let ch = ((r * 8 + d) as u32) % m.n.max(1);
                    if m.mask >> ch & 1 == 0 {
                        continue;
                    }
                    let v = self.grf_dword(m.payload + 1 + r, d)?;
                    shared.scratch_write(offset + r * REG_SIZE + d * 4, &v.to_le_bytes())?;
                }
            }
        } else {
            let dst = m.dst.ok_or("scratch read without a response register")?;
            let mut data = vec![0u8; m.rlen * REG_SIZE];
            shared.scratch_read(offset, &mut data)?;
            for (i, b) in data.iter().enumerate() {
                self.write_raw(Loc::Grf(dst * REG_SIZE + i), 1, *b as u64)?;
            }
        }
        Ok(())
    }
}

/// The reply register of a block read of `end` bytes (counted from the start of the first
/// reply register), checked against the response length.
fn block_reply(m: &Msg, end: usize) -> Result<usize, String> {
    let dst = m.dst.ok_or("block read without a response register")?;
    let need = end.div_ceil(REG_SIZE);
    if m.rlen != need {
        return Err(format!(
            "block read of {end} bytes with response length {} (want {need})",
            m.rlen
        ));
    }
    Ok(dst)
}

/// Scratch bytes per thread the simulator models (the shared-function model's limit).
/// The bits of a Gen7 URB handle in a SIMD4x2 header: a geometry thread's g0 carries each
/// half's instance number in bits 31:27 beside it, which the URB unit ignores.
const GEN7_URB_HANDLE_MASK: u32 = 0x07ff_ffff;

const SCRATCH_MODEL_BYTES: usize = 1 << 24;

/// Binding-table indices that address the thread's scratch space: Mesa's stateless BTI 253
/// (`GFX8_BTI_STATELESS_NON_COHERENT`) and 255.
fn is_scratch_bti(bti: u32) -> bool {
    bti == 253 || bti == 255
}

/// Sampler reply dwords: floats, or integers for integer textures.
pub(super) fn encode(v: [f64; 4], integer: bool) -> [u32; 4] {
    v.map(|x| {
        if integer {
            x as i64 as i32 as u32
        } else {
            (x as f32).to_bits()
        }
    })
}
