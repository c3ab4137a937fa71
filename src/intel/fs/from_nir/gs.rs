//! Geometry shaders on Gen8+ through the scalar backend, as brw compiles them there: SIMD8,
//! eight (primitive, instance) objects per thread, every value one register per component.
//!
//! The thread payload is g0 (header), g1 (each object's output URB handle in bits 15:0, its
//! instance number in bits 31:27), g2 (primitive ids, when the shader reads them), then the
//! input vertices' URB handles: one register per vertex, channel c holding object c's handle
//! (one invocation per primitive), or, with instancing, vertex v's handle in dword v of the
//! first of those registers (all channels run the same primitive). Push constants follow,
//! then the pushed part of each input vertex (`urb_read_length` 32-byte units per vertex,
//! one register per component). Inputs past the pushed part, at a run-time vertex index or
//! slot, are read with SIMD8 URB read messages from the vertex's handle.
//!
//! Outputs are kept in registers per varying; `emit_vertex_with_counter` writes all of them
//! into the object's output URB entry at the vertex's place (per-slot offset = vertex count ×
//! vertex size), after the vertex count (when it is not static) and the control-data header.
//! The control-data header (cut bits, or stream ids) accumulates 32 bits per channel in a
//! register, written out when 32 bits are full (more than 32 bits of header) and at the end
//! of the thread, as Mesa's `emit_gs_control_data_bits` lays them out. The thread ends with
//! the vertex count write (dynamic count) or by marking the last URB write EOT.

use crate::intel::eu::types::sfid;
use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::intel::geometry::{ControlDataFormat, GeometryInfo};
use crate::intel::msg::{Lengths, UrbDesc};
use crate::intel::vue;
use crate::nir::{Impl, IndexKind, InstrId, InstrKind, Intrinsic, IntrinsicInstr, SsaId};

use super::super::ir::{File, Op, Reg};
use super::gs_state::GsState;
use super::{intrinsic_def, intrinsic_src, unsupported, CompileError, Translator};
use crate::intel::backend::vertex::const_offset;

/// Registers of the geometry thread payload before the push constants: g0, g1, the
/// primitive ids when read, and one register per input vertex (Mesa's
/// `gs_thread_payload::num_regs`).
pub fn gs_payload_regs(info: &GeometryInfo) -> u32 {
    2 + u32::from(info.include_primitive_id) + info.vertices_in
}

impl Translator<'_> {
    fn gs(&self) -> Result<&GsState, CompileError> {
        self.gs
            .as_ref()
            .ok_or_else(|| CompileError::Invalid("geometry intrinsic outside a GS".into()))
    }

    fn gs_mut(&mut self) -> Result<&mut GsState, CompileError> {
        self.gs
            .as_mut()
            .ok_or_else(|| CompileError::Invalid("geometry intrinsic outside a GS".into()))
    }

    /// The start of a geometry thread: the output handles, the output registers of every
    /// varying the shader writes, and the control bits (Mesa's `run_gs` before the NIR).
    pub(super) fn begin_gs(&mut self, info: GeometryInfo) -> Result<(), CompileError> {
        let handles = self.vgrf(RegType::UD);
        let g1 = Reg::fixed(1, 0, RegType::UD, 1);
        self.alu(
            Opcode::And,
            handles,
            vec![g1, Reg::imm(RegType::UD, 0xffff)],
        );
        let primitive_id = info
            .include_primitive_id
            .then(|| Reg::fixed(2, 0, RegType::UD, 1));
        let icp_start = 2 + u32::from(info.include_primitive_id);
        let mut outputs = std::collections::BTreeMap::new();
        for v in written_varyings(self.imp)? {
            outputs.insert(v, [(); 4].map(|_| self.vgrf(RegType::UD)));
        }
        let header_bits = info.control_data_header_bits();
        let control_bits = (header_bits > 0).then(|| self.vgrf(RegType::UD));
        if let Some(bits) = control_bits.filter(|_| header_bits <= 32) {
            self.alu(Opcode::Mov, bits, vec![Reg::imm(RegType::UD, 0)]);
        }
        let final_vertex_count = self.vgrf(RegType::UD);
        self.gs = Some(GsState {
            info,
            urb_handles: handles,
            icp_start,
            primitive_id,
            control_bits,
            final_vertex_count,
            outputs,
            invocation_id: None,
        });
        Ok(())
    }

    /// The geometry intrinsics (and the GS forms of the I/O ones).
    pub(super) fn emit_gs_intrinsic(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        match i.intrinsic {
            Intrinsic::LoadPerVertexInput => self.emit_gs_input(i),
            Intrinsic::StoreOutput => self.emit_gs_output(i),
            Intrinsic::LoadPrimitiveId => {
                let id = self.gs()?.primitive_id.ok_or_else(|| {
                    CompileError::Internal("primitive id without its payload register".into())
                })?;
                let d = self.vgrf(RegType::UD);
                self.alu(Opcode::Mov, d, vec![id]);
                self.set(intrinsic_def(i)?, vec![d]);
                Ok(())
            }
            Intrinsic::LoadInvocationId => {
                let id = match self.gs()?.invocation_id {
                    Some(id) => id,
                    None => {
                        // The instance number is in bits 31:27 of each channel's g1 dword.
                        let id = self.vgrf(RegType::UD);
                        let g1 = Reg::fixed(1, 0, RegType::UD, 1);
                        self.alu(Opcode::Shr, id, vec![g1, Reg::imm(RegType::UD, 27)]);
                        self.gs_mut()?.invocation_id = Some(id);
                        id
                    }
                };
                self.set(intrinsic_def(i)?, vec![id]);
                Ok(())
            }
            Intrinsic::EmitVertexWithCounter => {
                let stream = i.int_index(IndexKind::StreamId).unwrap_or(0) as u32;
                let count = self.comp(intrinsic_src(i, 0)?, 0)?.retype(RegType::UD);
                self.emit_gs_vertex(count, stream)
            }
            Intrinsic::EndPrimitiveWithCounter => {
                let count = self.comp(intrinsic_src(i, 0)?, 0)?.retype(RegType::UD);
                self.emit_gs_end_primitive(count)
            }
            Intrinsic::SetVertexAndPrimitiveCount => {
                let count = self.comp(intrinsic_src(i, 0)?, 0)?.retype(RegType::UD);
                let dst = self.gs()?.final_vertex_count;
                self.alu(Opcode::Mov, dst, vec![count]);
                Ok(())
            }
            _ => Err(unsupported(format!(
                "intrinsic {} in a geometry shader",
                i.intrinsic.name()
            ))),
        }
    }

    /// `store_output`: the value is kept per varying until the next emitted vertex.
    fn emit_gs_output(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let varying = base.saturating_add(const_offset(self.imp, i, 1)?);
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as usize;
        let mask = i.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u32;
        if self.def_info(intrinsic_src(i, 0)?)?.1 != 32 {
            return Err(unsupported("geometry outputs of other than 32-bit data"));
        }
        let val = self.value(intrinsic_src(i, 0)?)?.clone();
        let regs = *self.gs()?.outputs.get(&varying).ok_or_else(|| {
            CompileError::Internal(format!("output {varying} missed by the output scan"))
        })?;
        for (c, v) in val.iter().enumerate() {
            if mask & 1 << c == 0 {
                continue;
            }
            let at = first + c;
            let dst = *regs.get(at).ok_or_else(|| {
                CompileError::Invalid(format!("store_output component {at} of a vec4 slot"))
            })?;
            self.alu(Opcode::Mov, dst.retype(v.ty), vec![*v]);
        }
        Ok(())
    }

    /// `load_per_vertex_input`: pushed registers where Mesa pushes (one invocation, constant
    /// vertex and slot inside the pushed part), a URB read of the vertex's entry otherwise
    /// (Mesa's `emit_gs_input_load`).
    fn emit_gs_input(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let def = intrinsic_def(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit geometry inputs")));
        }
        let n = n as u32;
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        if first + n > 4 {
            return Err(CompileError::Invalid(format!(
                "load_per_vertex_input of components {first}..{} of a vec4 slot",
                first + n
            )));
        }
        let vertex_src = intrinsic_src(i, 0)?;
        let offset_src = intrinsic_src(i, 1)?;
        let vertex = self.imp.const_value(vertex_src).map(|v| v[0] as u32);
        let offset = self.imp.const_value(offset_src).map(|v| v[0] as u32);
        let gs = self.gs()?;
        let info = &gs.info;
        let (icp_start, vertices_in, instanced) =
            (gs.icp_start, info.vertices_in, info.invocations > 1);
        let push_regs = info.urb_read_length * 8;
        if let (Some(v), Some(o)) = (vertex, offset) {
            if v >= vertices_in {
                return Err(CompileError::Invalid(format!(
                    "input vertex {v} of a {vertices_in}-vertex primitive"
                )));
            }
            let slot = base + o;
            if !instanced && 4 * slot < push_regs {
                let regs = (0..n)
                    .map(|c| Reg {
                        file: File::Attr,
                        nr: v * push_regs + 4 * slot + first + c,
                        ty: RegType::UD,
                        stride: 1,
                        ..Reg::BAD
                    })
                    .collect();
                self.set(def, regs);
                return Ok(());
            }
        }
        // Pulled: the vertex's handle, then a URB read of the slot.
        let handle = match vertex {
            Some(v) if v >= vertices_in => {
                return Err(CompileError::Invalid(format!(
                    "input vertex {v} of a {vertices_in}-vertex primitive"
                )))
            }
            Some(v) if instanced => Reg::fixed(icp_start, 4 * v, RegType::UD, 0),
            Some(v) => Reg::fixed(icp_start + v, 0, RegType::UD, 1),
            None => {
                // A run-time vertex index: select among the handles.
                let index = self.comp(vertex_src, 0)?.retype(RegType::UD);
                let handle_of = |v: u32| {
                    if instanced {
                        Reg::fixed(icp_start, 4 * v, RegType::UD, 0)
                    } else {
                        Reg::fixed(icp_start + v, 0, RegType::UD, 1)
                    }
                };
                let h = self.vgrf(RegType::UD);
                self.alu(Opcode::Mov, h, vec![handle_of(0)]);
                for v in 1..vertices_in {
                    let cmp = self.alu(
                        Opcode::Cmp,
                        Reg::null(RegType::UD),
                        vec![index, Reg::imm(RegType::UD, v)],
                    );
                    cmp.cmod = CondMod::Z;
                    self.alu(Opcode::Sel, h, vec![handle_of(v), h]).pred = Some(false);
                }
                h
            }
        };
        let per_slot = match offset {
            Some(_) => None,
            None => Some(self.comp(offset_src, 0)?.retype(RegType::UD)),
        };
        let global = base + offset.unwrap_or(0);
        let read = first + n;
        let dst = Reg::vgrf(self.prog.alloc(read), RegType::UD);
        let mut srcs = vec![handle];
        srcs.extend(per_slot);
        let header = srcs.len() as u32;
        let payload = if header == 1 && handle.stride == 1 {
            // The handles alone are the payload: read from their register in place.
            handle
        } else {
            let payload = Reg::vgrf(self.prog.alloc(header), RegType::UD);
            let lp = self.push(Op::LoadPayload, payload, srcs);
            lp.header_size = header as u8;
            payload
        };
        let desc = UrbDesc {
            len: Lengths::new(header, read, true),
            opcode: UrbDesc::SIMD8_READ,
            global_offset: global,
            per_slot_offset: per_slot.is_some(),
            ..UrbDesc::default()
        }
        .encode(self.devinfo.ver);
        let send = self.push(Op::Send, dst, vec![payload]);
        send.mlen = header as u8;
        send.rlen = read as u8;
        send.sfid = sfid::URB;
        send.desc = desc;
        let regs = (first..read).map(|c| dst.reg_offset(c)).collect();
        self.set(def, regs);
        Ok(())
    }

    /// `emit_vertex_with_counter` (Mesa's `emit_gs_vertex`).
    fn emit_gs_vertex(&mut self, count: Reg, stream: u32) -> Result<(), CompileError> {
        // Vertices of streams other than 0 only feed transform feedback, which gpucc's
        // programs do not declare: they are dropped, as Mesa drops them without it.
        if stream > 0 {
            return Ok(());
        }
        let info = self.gs()?.info.clone();
        let header_bits = info.control_data_header_bits();
        let bpv = info.control_data_bits_per_vertex;
        if header_bits > 32 && count.file == File::Imm {
            // A constant count decides at compile time whether a dword of header is full.
            let n = count.imm as u32;
            if n % (32 / bpv) == 0 {
                if n != 0 {
                    self.emit_gs_control_data_bits(count)?;
                }
                let bits = self.gs()?.control_bits.expect("header bits");
                self.alu(Opcode::Mov, bits, vec![Reg::imm(RegType::UD, 0)]);
            }
        } else if header_bits > 32 {
            // Every 32 bits of header: write the full dword out before this vertex.
            let and = self.alu(
                Opcode::And,
                Reg::null(RegType::UD),
                vec![count, Reg::imm(RegType::UD, 32 / bpv - 1)],
            );
            and.cmod = CondMod::Z;
            self.push(Op::If, Reg::BAD, vec![]).pred = Some(false);
            let cmp = self.alu(
                Opcode::Cmp,
                Reg::null(RegType::UD),
                vec![count, Reg::imm(RegType::UD, 0)],
            );
            cmp.cmod = CondMod::Nz;
            self.push(Op::If, Reg::BAD, vec![]).pred = Some(false);
            self.emit_gs_control_data_bits(count)?;
            self.push(Op::EndIf, Reg::BAD, vec![]);
            // A new batch of 32 bits. Only in the channels emitting this vertex: Mesa resets
            // every channel (a write-all move), which wipes the bits of a channel that
            // emitted fewer vertices and waits to write them at its end.
            let bits = self.gs()?.control_bits.expect("header bits");
            self.alu(Opcode::Mov, bits, vec![Reg::imm(RegType::UD, 0)]);
            self.push(Op::EndIf, Reg::BAD, vec![]);
        }
        self.emit_gs_urb_writes(count)?;
        if header_bits > 0 && info.control_data_format == ControlDataFormat::StreamId && stream > 0
        {
            // Stream ids: bits |= stream << 2 (count) (the shift uses its low five bits).
            let shift = self.vgrf(RegType::UD);
            self.alu(Opcode::Shl, shift, vec![count, Reg::imm(RegType::UD, 1)]);
            let sid = self.vgrf(RegType::UD);
            self.alu(Opcode::Mov, sid, vec![Reg::imm(RegType::UD, stream)]);
            let mask = self.vgrf(RegType::UD);
            self.alu(Opcode::Shl, mask, vec![sid, shift]);
            let bits = self.gs()?.control_bits.expect("header bits");
            self.alu(Opcode::Or, bits, vec![bits, mask]);
        }
        Ok(())
    }

    /// `end_primitive_with_counter`: cut bit (count − 1) mod 32 (Mesa's
    /// `emit_gs_end_primitive`).
    fn emit_gs_end_primitive(&mut self, count: Reg) -> Result<(), CompileError> {
        let gs = self.gs()?;
        let Some(bits) = gs.control_bits else {
            return Ok(());
        };
        if gs.info.control_data_format != ControlDataFormat::Cut {
            return Ok(());
        }
        let count = self.in_grf_ud(count);
        let prev = self.vgrf(RegType::UD);
        self.alu(
            Opcode::Add,
            prev,
            vec![count, Reg::imm(RegType::UD, 0xffff_ffff)],
        );
        let one = self.vgrf(RegType::UD);
        self.alu(Opcode::Mov, one, vec![Reg::imm(RegType::UD, 1)]);
        let mask = self.vgrf(RegType::UD);
        self.alu(Opcode::Shl, mask, vec![one, prev]);
        self.alu(Opcode::Or, bits, vec![bits, mask]);
        Ok(())
    }

    /// A register holding `r` (immediate counters become registers where the hardware
    /// needs one).
    fn in_grf_ud(&mut self, r: Reg) -> Reg {
        if r.file != File::Imm {
            return r;
        }
        let t = self.vgrf(RegType::UD);
        self.alu(Opcode::Mov, t, vec![r]);
        t
    }

    /// Writes the accumulated control bits into the header dword vertex `count − 1`
    /// belongs to (Mesa's `emit_gs_control_data_bits`).
    fn emit_gs_control_data_bits(&mut self, count: Reg) -> Result<(), CompileError> {
        let gs = self.gs()?;
        let info = gs.info.clone();
        let (handles, bits) = (gs.urb_handles, gs.control_bits.expect("header bits"));
        let header_bits = info.control_data_header_bits();
        let mut per_slot = None;
        let mut channel_mask = None;
        if header_bits > 32 {
            let prev = self.vgrf(RegType::UD);
            let count = self.in_grf_ud(count);
            self.alu(
                Opcode::Add,
                prev,
                vec![count, Reg::imm(RegType::UD, 0xffff_ffff)],
            );
            let log2 = 32 - info.control_data_bits_per_vertex.leading_zeros();
            let dword = self.vgrf(RegType::UD);
            self.alu(
                Opcode::Shr,
                dword,
                vec![prev, Reg::imm(RegType::UD, 6 - log2)],
            );
            if header_bits > 128 {
                let off = self.vgrf(RegType::UD);
                self.alu(Opcode::Shr, off, vec![dword, Reg::imm(RegType::UD, 2)]);
                per_slot = Some(off);
            }
            // Channel mask: 1 << (dword % 4), in bits 23:16.
            let channel = self.vgrf(RegType::UD);
            self.alu(Opcode::And, channel, vec![dword, Reg::imm(RegType::UD, 3)])
                .we_all = true;
            let one = self.vgrf(RegType::UD);
            self.alu(Opcode::Mov, one, vec![Reg::imm(RegType::UD, 1)])
                .we_all = true;
            let mask = self.vgrf(RegType::UD);
            self.alu(Opcode::Shl, mask, vec![one, channel]).we_all = true;
            self.alu(Opcode::Shl, mask, vec![mask, Reg::imm(RegType::UD, 16)])
                .we_all = true;
            channel_mask = Some(mask);
        }
        let copies = if channel_mask.is_some() { 4 } else { 1 };
        let mut srcs = vec![handles];
        srcs.extend(per_slot);
        srcs.extend(channel_mask);
        let header = srcs.len() as u32;
        srcs.extend(std::iter::repeat(bits).take(copies));
        let offset = if info.static_vertex_count.is_none() {
            2
        } else {
            0
        };
        self.gs_urb_write(
            srcs,
            header,
            offset,
            per_slot.is_some(),
            channel_mask.is_some(),
        );
        Ok(())
    }

    /// The URB writes of one vertex: every written varying at its VUE slot, in messages of
    /// up to two slots, at per-slot offset `count` × the vertex size.
    fn emit_gs_urb_writes(&mut self, count: Reg) -> Result<(), CompileError> {
        let gs = self.gs()?;
        let map = gs.info.vue_map.clone();
        let outputs = gs.outputs.clone();
        let handles = gs.urb_handles;
        let owords = gs.info.output_vertex_size_hwords * 2;
        let start = gs.info.first_vertex_oword();
        let header_mask = vue::HEADER_VARYINGS;
        let written = |v: Option<u32>| v.and_then(|v| outputs.get(&v));
        let last = (0..map.slots.len()).rev().find(|&s| match map.slots[s] {
            Some(vue::VARYING_SLOT_PSIZ) => map.slots_valid & header_mask != 0,
            v => written(v).is_some(),
        });
        let Some(last) = last else {
            return Ok(());
        };
        let offsets = if count.file == File::Imm {
            let r = self.vgrf(RegType::UD);
            self.alu(
                Opcode::Mov,
                r,
                vec![Reg::imm(RegType::UD, count.imm as u32 * owords)],
            );
            r
        } else {
            let r = self.vgrf(RegType::UD);
            self.alu(Opcode::Mul, r, vec![count, Reg::imm(RegType::UD, owords)]);
            r
        };
        let mut sources: Vec<Reg> = Vec::new();
        let mut offset = start;
        for (slot, &varying) in map.slots.iter().enumerate() {
            let mut flush = false;
            match varying {
                Some(vue::VARYING_SLOT_PSIZ) => {
                    if map.slots_valid & header_mask == 0 {
                        offset += 1;
                        continue;
                    }
                    // Header dwords 0-3: shading rate, layer, viewport, point size.
                    let zero = self.vgrf(RegType::UD);
                    self.alu(Opcode::Mov, zero, vec![Reg::imm(RegType::UD, 0)]);
                    for v in [
                        vue::VARYING_SLOT_PRIMITIVE_SHADING_RATE,
                        vue::VARYING_SLOT_LAYER,
                        vue::VARYING_SLOT_VIEWPORT,
                        vue::VARYING_SLOT_PSIZ,
                    ] {
                        sources.push(outputs.get(&v).map_or(zero, |r| r[0]));
                    }
                }
                v => match written(v) {
                    None if sources.is_empty() => {
                        offset += 1;
                        continue;
                    }
                    None => flush = true,
                    Some(regs) => sources.extend(regs.iter().map(|r| r.retype(RegType::F))),
                },
            }
            if sources.len() == 8 || slot == last {
                flush = true;
            }
            if flush && !sources.is_empty() {
                let mut srcs = vec![handles, offsets];
                srcs.append(&mut sources);
                self.gs_urb_write(srcs, 2, offset, true, false);
                offset = start + slot as u32 + 1;
            }
            if slot == last {
                break;
            }
        }
        Ok(())
    }

    /// One SIMD8 URB write of `srcs` (the handles, `header - 1` registers of offsets and
    /// masks, the data) at global offset `offset`.
    pub(super) fn gs_urb_write(
        &mut self,
        srcs: Vec<Reg>,
        header: u32,
        offset: u32,
        per_slot: bool,
        channel_mask: bool,
    ) {
        let mlen = srcs.len() as u32;
        let payload = Reg::vgrf(self.prog.alloc(mlen), RegType::UD);
        let lp = self.push(Op::LoadPayload, payload, srcs);
        lp.header_size = header as u8;
        let desc = UrbDesc {
            len: Lengths::new(mlen, 0, true),
            opcode: UrbDesc::SIMD8_WRITE,
            global_offset: offset,
            per_slot_offset: per_slot,
            channel_mask_present: channel_mask,
            ..UrbDesc::default()
        }
        .encode(self.devinfo.ver);
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.mlen = mlen as u8;
        send.rlen = 0;
        send.sfid = sfid::URB;
        send.desc = desc;
    }

    /// The end of a geometry thread (Mesa's `emit_gs_thread_end`): the last control bits,
    /// then the vertex count write that ends the thread, or, with a static count, EOT on the
    /// last URB write when it is the program's last instruction.
    pub(super) fn end_gs(&mut self) -> Result<(), CompileError> {
        let gs = self.gs()?;
        let (handles, count) = (gs.urb_handles, gs.final_vertex_count);
        let static_count = gs.info.static_vertex_count.is_some();
        if gs.control_bits.is_some() {
            self.emit_gs_control_data_bits(count)?;
        }
        if static_count {
            // Mesa's `mark_last_urb_write_with_eot`: the last URB write ends the thread when
            // nothing after it has an effect (no flow, no message); what follows it is dead.
            let insts = &mut self.prog.insts;
            let last_write = insts
                .iter()
                .rposition(|i| i.op.is_flow() || i.op.is_send())
                .filter(|&k| {
                    let i = &insts[k];
                    i.op == Op::Send && i.sfid == sfid::URB && i.rlen == 0
                });
            if let Some(k) = last_write {
                insts[k].eot = true;
                insts.truncate(k + 1);
                return Ok(());
            }
            let payload = Reg::vgrf(self.prog.alloc(1), RegType::UD);
            let lp = self.push(Op::LoadPayload, payload, vec![handles]);
            lp.header_size = 1;
            let desc = UrbDesc {
                len: Lengths::new(1, 0, true),
                opcode: UrbDesc::SIMD8_WRITE,
                ..UrbDesc::default()
            }
            .encode(self.devinfo.ver);
            let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
            send.mlen = 1;
            send.sfid = sfid::URB;
            send.desc = desc;
            send.eot = true;
        } else {
            self.gs_urb_write(vec![handles, count], 1, 0, false, false);
            self.prog.insts.last_mut().expect("the write").eot = true;
        }
        Ok(())
    }
}

/// The instructions of a block with each input load, and each move of an input load's
/// component, moved down to just before the first instruction that
/// reads it (or to the end of the block when none does). NIR hands the GS every input load
/// at the top of the program, often followed by moves of their components; pulled loads are
/// URB reads whose results would all be live at once (four registers per slot: 384 for a
/// shader reading 96 slots), where next to their readers they live briefly. Loads read only
/// the input vertices, which nothing in the shader writes, and the moved instructions keep
/// their relative order, so every value is still defined before its uses.
pub(super) fn sink_input_loads(imp: &Impl, instrs: &[InstrId]) -> Vec<InstrId> {
    let is_const = |s: SsaId| imp.const_value(s).is_some();
    // Pending instructions in their original order: (definition, instruction, sources).
    let mut pending: Vec<(SsaId, InstrId, Vec<SsaId>)> = Vec::new();
    let mut out = Vec::with_capacity(instrs.len());
    for &id in instrs {
        let kind = &imp.instr(id).kind;
        let srcs = kind.srcs();
        let sinkable = match kind {
            InstrKind::Intrinsic(i) if i.intrinsic == Intrinsic::LoadPerVertexInput => i.def,
            InstrKind::Alu(a)
                if a.op == crate::nir::AluOp::mov
                    && srcs
                        .iter()
                        .all(|s| is_const(*s) || pending.iter().any(|p| p.0 == *s)) =>
            {
                Some(a.def)
            }
            _ => None,
        };
        if let Some(d) = sinkable {
            pending.push((d, id, srcs));
            continue;
        }
        // What this instruction reads, with what those read in turn.
        let mut needed = srcs;
        let mut take = vec![false; pending.len()];
        for k in (0..pending.len()).rev() {
            if needed.contains(&pending[k].0) {
                take[k] = true;
                needed.extend(pending[k].2.iter().copied());
            }
        }
        let mut k = 0;
        pending.retain(|p| {
            let t = take[k];
            k += 1;
            if t {
                out.push(p.1);
            }
            !t
        });
        out.push(id);
    }
    // What no instruction of the block reads goes before the block's end, in order (the
    // block's last instruction may be a jump, which reads nothing).
    let tail = out
        .last()
        .is_some_and(|&id| matches!(imp.instr(id).kind, InstrKind::Jump(_)));
    let at = if tail { out.len() - 1 } else { out.len() };
    out.splice(at..at, pending.into_iter().map(|p| p.1));
    out
}

/// The varyings the shader's `store_output`s write.
fn written_varyings(imp: &Impl) -> Result<Vec<u32>, CompileError> {
    let mut out = Vec::new();
    for ins in &imp.instrs {
        let InstrKind::Intrinsic(i) = &ins.kind else {
            continue;
        };
        if i.intrinsic == Intrinsic::StoreOutput {
            let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
            let v = base.saturating_add(const_offset(imp, i, 1)?);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    Ok(out)
}
