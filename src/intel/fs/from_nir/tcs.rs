//! Tessellation-control shaders on Gen8/9 through the scalar backend, as brw compiles them
//! there: SIMD8 SINGLE_PATCH dispatch, one patch per thread, channel c computing output
//! vertex c (Mesa's `run_tcs` and `nir_emit_tcs_intrinsic`).
//!
//! The thread payload (Mesa's `tcs_thread_payload`) is g0 (dword 0 the patch URB entry's
//! handle, dword 1 the primitive id, dword 2 the instance number in bits 23:17) and g1–g4,
//! the input patch's vertex (ICP) URB handles, one dword each; then the push constants.
//! Nothing of the inputs is pushed (`urb_read_length` 0).
//!
//! `gl_InvocationID` is the channel number (one instance). When the output vertex count is
//! not a multiple of eight, the whole shader runs under `IF (invocation < vertices)`, as
//! Mesa fixes the dispatch mask. Inputs are SIMD8 URB reads from a vertex's handle: a
//! constant vertex's handle broadcast from g1–g4, or g1 itself when the vertex index is the
//! invocation id; a vertex chosen otherwise at run time (Mesa's indirect move) is refused.
//! Outputs, patch and per-vertex alike, are slots of the patch URB entry in Intel-form NIR
//! (the vertex already folded into the offset): each store is one SIMD8 URB write from g0.0
//! (per-slot offsets for a run-time offset, a channel mask for a partial write mask), and
//! loads of outputs are URB reads of the same entry. A barrier needs no message with one
//! thread per patch. The thread ends with a URB write of zero to header dword 0 (Broadwell's
//! "TR DS Cache Disable"), or on Skylake by marking the last URB write EOT when it ends the
//! program.

use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::intel::tcs::TessCtrlInfo;
use crate::nir::{BaseType, IndexKind, InstrKind, Intrinsic, IntrinsicInstr, SsaId};

use super::super::ir::{File, Op, Reg};
use super::{intrinsic_def, intrinsic_src, unsupported, CompileError, Translator};

/// Registers of the TCS thread payload before the push constants: g0 and the ICP handles.
pub const TCS_PAYLOAD_REGS: u32 = 5;

impl Translator<'_> {
    fn tcs(&self) -> Result<&TessCtrlInfo, CompileError> {
        self.facts.tess_ctrl.as_ref().ok_or_else(|| {
            CompileError::Invalid("tessellation-control intrinsic outside a TCS".into())
        })
    }

    /// The start of a TCS thread: the invocation ids and the dispatch-mask fix.
    pub(super) fn begin_tcs(&mut self) -> Result<(), CompileError> {
        let vertices = self.tcs()?.output_vertices;
        let id = self.emit_channel_index();
        self.tcs_invocation = Some(id);
        if vertices % 8 != 0 {
            let cmp = self.alu(
                Opcode::Cmp,
                Reg::null(RegType::UD),
                vec![id, Reg::imm(RegType::UD, vertices)],
            );
            cmp.cmod = CondMod::L;
            let i = self.push(Op::If, Reg::BAD, vec![]);
            i.pred = Some(false);
        }
        Ok(())
    }

    /// The end of a TCS thread (Mesa's `emit_tcs_thread_end`).
    pub(super) fn end_tcs(&mut self) -> Result<(), CompileError> {
        if self.tcs()?.output_vertices % 8 != 0 {
            self.push(Op::EndIf, Reg::BAD, vec![]);
        }
        if self.devinfo.ver != 80 {
            let insts = &mut self.prog.insts;
            let last_write = insts
                .iter()
                .rposition(|i| i.op.is_flow() || i.op.is_send())
                .filter(|&k| {
                    let i = &insts[k];
                    i.op == Op::Send && i.sfid == crate::intel::eu::types::sfid::URB && i.rlen == 0
                });
            if let Some(k) = last_write {
                insts[k].eot = true;
                insts.truncate(k + 1);
                return Ok(());
            }
        }
        let g0 = Reg::fixed(0, 0, RegType::UD, 0);
        let srcs = vec![g0, Reg::imm(RegType::UD, 1 << 16), Reg::imm(RegType::UD, 0)];
        self.gs_urb_write(srcs, 2, 0, false, true);
        self.prog.insts.last_mut().expect("the write").eot = true;
        Ok(())
    }

    /// The TCS intrinsics and the TCS forms of the I/O ones.
    pub(super) fn emit_tcs_intrinsic(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        match i.intrinsic {
            Intrinsic::LoadPerVertexInput => self.emit_tcs_input(i),
            Intrinsic::LoadOutput | Intrinsic::LoadPerVertexOutput => self.emit_tcs_output_read(i),
            Intrinsic::StoreOutput | Intrinsic::StorePerVertexOutput => self.emit_tcs_output(i),
            Intrinsic::LoadPrimitiveId => {
                self.tcs()?;
                self.set(intrinsic_def(i)?, vec![Reg::fixed(0, 4, RegType::UD, 0)]);
                Ok(())
            }
            Intrinsic::LoadInvocationId => {
                let id = self.tcs_invocation.ok_or_else(|| {
                    CompileError::Internal("TCS invocation id before the thread start".into())
                })?;
                self.set(intrinsic_def(i)?, vec![id]);
                Ok(())
            }
            // One thread per patch runs every invocation in lockstep: a barrier orders
            // nothing more (Mesa sends the gateway message only with several instances).
            Intrinsic::Barrier => Ok(()),
            other => Err(CompileError::Internal(format!(
                "{} is not a TCS intrinsic",
                other.name()
            ))),
        }
    }

    /// The register type a load's `dest_type` asks for.
    fn dest_type(i: &IntrinsicInstr) -> RegType {
        match i.type_index(IndexKind::DestType).map(|t| t.base) {
            Some(BaseType::Int) => RegType::D,
            Some(BaseType::Uint) => RegType::UD,
            _ => RegType::F,
        }
    }

    /// A slot offset source: a constant folded into the global offset, or per-slot offsets.
    fn tcs_offset(&mut self, base: u32, offset: SsaId) -> Result<(u32, Option<Reg>), CompileError> {
        Ok(
            match self
                .imp
                .const_value(offset)
                .and_then(|v| v.first().copied())
            {
                Some(c) => (base.saturating_add(c as u32), None),
                None => (base, Some(self.comp(offset, 0)?.retype(RegType::UD))),
            },
        )
    }

    /// The components a 32-bit load asks for, checked to lie within one vec4 slot.
    fn tcs_load_shape(&self, i: &IntrinsicInstr) -> Result<(SsaId, u32, u32), CompileError> {
        let def = intrinsic_def(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit TCS inputs and outputs")));
        }
        let first = i.int_index(IndexKind::Component).unwrap_or(0).max(0) as u32;
        if first + n as u32 > 4 {
            return Err(CompileError::Invalid(format!(
                "{} of components {first}..{} of a vec4 slot",
                i.intrinsic.name(),
                first + n as u32
            )));
        }
        Ok((def, n as u32, first))
    }

    /// `load_per_vertex_input`: a URB read from the input vertex's handle.
    fn emit_tcs_input(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let (def, n, first) = self.tcs_load_shape(i)?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let vertex_src = intrinsic_src(i, 0)?;
        let offset_src = intrinsic_src(i, 1)?;
        let handle = match self.imp.const_value(vertex_src).map(|v| v[0]) {
            Some(v) if v >= 32 => {
                return Err(CompileError::Invalid(format!(
                    "input vertex {v} of a patch (at most 32 vertices)"
                )))
            }
            Some(v) => {
                // The constant vertex's handle in every channel.
                let v = v as u32;
                let h = self.vgrf(RegType::UD);
                let g = Reg::fixed(1 + v / 8, 4 * (v % 8), RegType::UD, 0);
                self.alu(Opcode::Mov, h, vec![g]);
                h
            }
            None if self.is_invocation_id(vertex_src) && self.tcs()?.instances == 1 => {
                // Channel c reads vertex c: the handles in g1 as they are.
                Reg::fixed(1, 0, RegType::UD, 1)
            }
            None => {
                return Err(unsupported(
                    "a TCS input vertex chosen at run time other than by gl_InvocationID \
                     (Mesa's indirect move of the ICP handles)",
                ))
            }
        };
        let (global, per_slot) = self.tcs_offset(base, offset_src)?;
        if global > 2047 {
            return Err(unsupported(format!("a URB read at slot {global}")));
        }
        let read = first + n;
        let dst = Reg::vgrf(self.prog.alloc(read), RegType::UD);
        let (payload, mlen) = match per_slot {
            None => (handle, 1),
            Some(p) => {
                let payload = Reg::vgrf(self.prog.alloc(2), RegType::UD);
                let lp = self.push(Op::LoadPayload, payload, vec![handle, p]);
                lp.header_size = 2;
                (payload, 2)
            }
        };
        let send = self.push(Op::Send, dst, vec![payload]);
        send.mlen = mlen;
        send.rlen = read as u8;
        send.sfid = crate::intel::eu::types::sfid::URB;
        send.desc = super::urb_simd8_read_desc(global, mlen as u32, read, per_slot.is_some());
        let ty = Self::dest_type(i);
        let regs = (first..read)
            .map(|c| dst.reg_offset(c).retype(ty))
            .collect();
        self.set(def, regs);
        Ok(())
    }

    fn is_invocation_id(&self, s: SsaId) -> bool {
        self.imp.def_instr(s).is_some_and(|ins| {
            matches!(&ins.kind, InstrKind::Intrinsic(ii) if ii.intrinsic == Intrinsic::LoadInvocationId)
        })
    }

    /// `load_output` / `load_per_vertex_output`: a URB read of the patch entry.
    fn emit_tcs_output_read(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let (def, n, first) = self.tcs_load_shape(i)?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let off_src = usize::from(i.intrinsic == Intrinsic::LoadPerVertexOutput);
        let (global, per_slot) = self.tcs_offset(base, intrinsic_src(i, off_src)?)?;
        let regs = self.urb_read_patch(global, per_slot, first + n)?;
        let ty = Self::dest_type(i);
        let regs = regs[first as usize..]
            .iter()
            .map(|r| r.retype(ty))
            .collect();
        self.set(def, regs);
        Ok(())
    }

    /// `store_output` / `store_per_vertex_output`: one URB write into the patch entry.
    fn emit_tcs_output(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let value = intrinsic_src(i, 0)?;
        let (_, bits) = self.def_info(value)?;
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit TCS outputs")));
        }
        let wrmask = i.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u32 & 0xf;
        if wrmask == 0 {
            return Ok(());
        }
        let first = i.int_index(IndexKind::Component).unwrap_or(0).max(0) as u32;
        let count = 32 - wrmask.leading_zeros();
        if first + count > 4 {
            return Err(CompileError::Invalid(format!(
                "{} of components {first}..{} of a vec4 slot",
                i.intrinsic.name(),
                first + count
            )));
        }
        let mask = wrmask << first;
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let off_src = if i.intrinsic == Intrinsic::StoreOutput {
            1
        } else {
            2
        };
        let (global, per_slot) = self.tcs_offset(base, intrinsic_src(i, off_src)?)?;
        if global > 2047 {
            return Err(unsupported(format!("a URB write at slot {global}")));
        }
        let mut srcs = vec![Reg::fixed(0, 0, RegType::UD, 0)];
        srcs.extend(per_slot);
        if mask != 0xf {
            srcs.push(Reg::imm(RegType::UD, mask << 16));
        }
        let header = srcs.len() as u32;
        for c in 0..first + count {
            if mask >> c & 1 != 0 {
                let r = self.comp(value, (c - first) as usize)?;
                srcs.push(if r.file == File::Imm {
                    r
                } else {
                    r.retype(RegType::UD)
                });
            } else {
                srcs.push(Reg::BAD);
            }
        }
        self.gs_urb_write(srcs, header, global, per_slot.is_some(), mask != 0xf);
        Ok(())
    }
}
