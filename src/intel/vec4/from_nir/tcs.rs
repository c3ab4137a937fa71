//! Tessellation-control shaders on Gen7 (Mesa's `vec4_tcs_visitor`): SIMD4x2, two output
//! vertices (invocations) of one patch per thread, invocation `2i` in channels 0–3 and
//! `2i + 1` in 4–7 of instance `i`; `ceil(vertices / 2)` instance threads per patch.
//!
//! The payload: g0 (dword 0 the patch URB entry's handle, dword 1 the primitive id, dword 2
//! the instance number and the barrier id), g1–g4 the input vertices' (ICP) URB handles, one
//! dword each; then the push constants. Nothing of the inputs or the patch is pushed.
//!
//! Inputs are OWord URB reads from the input vertex each half names (its handle picked from
//! g1–g4 by an immediate or, per half, through the address register), at the slot of the
//! Intel-form NIR plus each half's run-time offset when the slot is indirect. Outputs,
//! patch and per-vertex alike, are slots of the patch entry (the vertex already folded into
//! the offset): each store is an OWord write with per-slot offsets whose header enables only
//! the components written; loads of outputs read the same entry. A barrier is the gateway's
//! barrier message for the instance threads of the patch.
//!
//! The thread's end: the `if` of an odd vertex count closed, a barrier when there are
//! several instances (so that no thread still reads an input vertex), the first instance
//! releasing the input vertices two at a time, and a masked write of zero to header dword
//! 0 with EOT. The input vertex count comes from the driver's key in Mesa; gpucc has no key
//! field for it and takes the output vertex count
//! ([`TessCtrlInfo::input_vertices`](crate::intel::tcs::TessCtrlInfo::input_vertices)).

use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::nir::{BaseType, IndexKind, Intrinsic, IntrinsicInstr, SsaId};

use super::super::ir::{replicate, Dst, File, Inst, Op, Src, UrbKind};
use super::super::urb::HEADER;
use super::tcs_state::TcsState;
use super::{invalid, unsupported, CompileError, Tr, Val};

/// The largest global offset of a URB message descriptor (eleven bits).
const MAX_GLOBAL_OFFSET: u32 = 2047;

/// The swizzle that reads components `first..` into channels `0..` (an input or output
/// read at component `first`).
fn from_component(first: u32) -> u8 {
    (0..4u32).fold(0u8, |s, ch| s | ((first + ch).min(3) as u8) << (2 * ch))
}

/// The swizzle that puts components `0..` into channels `first..` (a store at component
/// `first`).
fn to_component(first: u32) -> u8 {
    (0..4u32).fold(0u8, |s, ch| {
        s | (ch.saturating_sub(first).min(3) as u8) << (2 * ch)
    })
}

impl Tr<'_> {
    fn tcs_state(&self) -> Result<&TcsState, CompileError> {
        self.tcs
            .as_ref()
            .ok_or_else(|| invalid("a tessellation-control intrinsic outside a TCS"))
    }

    /// The start of a TCS thread: the invocation ids, and the `if` that disables the
    /// second half of the last instance when the vertex count is odd (Mesa's `emit_prolog`).
    pub(super) fn tcs_prolog(&mut self) -> Result<(), CompileError> {
        let vertices = self.tcs_state()?.info.output_vertices;
        let inv = self.tcs_state()?.invocation;
        self.push(Op::TcsInstanceId, Dst::vgrf(inv, RegType::UD, 0x1), vec![]);
        if vertices % 2 != 0 {
            self.push(
                Op::Alu(Opcode::Cmp),
                Dst::null(RegType::UD),
                vec![
                    Src::vgrf(inv, RegType::UD).swizzled(replicate(0)),
                    Src::imm(RegType::UD, vertices),
                ],
            )
            .cmod = CondMod::L;
            self.push(Op::If, Dst::null(RegType::UD), vec![]).pred = Some(false);
        }
        Ok(())
    }

    /// The end of a TCS thread (Mesa's `emit_thread_end` for Gen7).
    pub(super) fn tcs_end(&mut self) -> Result<(), CompileError> {
        let st = self.tcs_state()?.clone();
        if st.info.output_vertices % 2 != 0 {
            self.push(Op::EndIf, Dst::null(RegType::UD), vec![]);
        }
        if st.info.instances > 1 {
            self.emit_tcs_barrier(st.info.instances);
        }
        // The first instance (invocations 0 and 1: x of either half with bit 0 cleared is
        // zero) releases the input vertices.
        self.push(
            Op::Alu(Opcode::And),
            Dst::null(RegType::UD),
            vec![
                Src::vgrf(st.invocation, RegType::UD).swizzled(replicate(0)),
                Src::imm(RegType::UD, !1),
            ],
        )
        .cmod = CondMod::Z;
        self.push(Op::If, Dst::null(RegType::UD), vec![]).pred = Some(false);
        let n = st.info.input_vertices;
        for v in (0..n).step_by(2) {
            self.push(
                Op::TcsReleaseInput {
                    vertex: v,
                    unpaired: v + 1 == n,
                },
                Dst::fixed(HEADER, RegType::UD, 0xf),
                vec![],
            );
        }
        self.push(Op::EndIf, Dst::null(RegType::UD), vec![]);
        self.push(
            Op::TcsThreadEnd,
            Dst::fixed(HEADER, RegType::UD, 0xf),
            vec![],
        );
        Ok(())
    }

    fn emit_tcs_barrier(&mut self, instances: u32) {
        self.push(
            Op::TcsBarrierHeader { instances },
            Dst::fixed(HEADER, RegType::UD, 0xf),
            vec![],
        );
        self.push(
            Op::Barrier,
            Dst::null(RegType::UD),
            vec![Src::reg(File::Fixed, HEADER, RegType::UD)],
        );
    }

    /// The TCS intrinsics; `None` for one this stage does not handle here.
    pub(super) fn emit_tcs_intrinsic(
        &mut self,
        i: &IntrinsicInstr,
    ) -> Option<Result<(), CompileError>> {
        Some(match i.intrinsic {
            Intrinsic::LoadInvocationId => self.tcs_def(i).and_then(|def| {
                let inv = self.tcs_state()?.invocation;
                self.set(
                    def,
                    Val::Reg(Src::vgrf(inv, RegType::UD).swizzled(replicate(0))),
                )
            }),
            Intrinsic::LoadPrimitiveId => self.tcs_def(i).and_then(|def| {
                let r = self.prog.vgrf();
                self.push(Op::TcsPrimitiveId, Dst::vgrf(r, RegType::UD, 0xf), vec![]);
                self.set(def, Val::Reg(Src::vgrf(r, RegType::UD)))
            }),
            Intrinsic::LoadPerVertexInput => self.emit_tcs_input(i),
            Intrinsic::LoadOutput | Intrinsic::LoadPerVertexOutput => self.emit_tcs_output_read(i),
            Intrinsic::StoreOutput | Intrinsic::StorePerVertexOutput => self.emit_tcs_output(i),
            Intrinsic::Barrier => {
                // Memory scopes need nothing more: the patch entry's reads and writes are in
                // program order. The execution barrier synchronises the instance threads.
                let workgroup = matches!(
                    i.index(IndexKind::ExecutionScope),
                    Some(crate::nir::IndexValue::Text(t)) if t.contains("WORKGROUP")
                );
                match self.tcs_state() {
                    Ok(st) if workgroup && st.info.instances > 1 => {
                        let n = st.info.instances;
                        self.emit_tcs_barrier(n);
                        Ok(())
                    }
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                }
            }
            _ => return None,
        })
    }

    fn tcs_def(&self, i: &IntrinsicInstr) -> Result<SsaId, CompileError> {
        i.def
            .ok_or_else(|| invalid(format!("{} has no destination", i.intrinsic.name())))
    }

    /// `src` as a plain virtual register (a copy when it is a payload register or a
    /// constant), x of each half read by the message headers.
    fn tcs_plain(&mut self, id: SsaId) -> Result<Src, CompileError> {
        let s = self.value_src(id, RegType::UD)?;
        let s = s.swizzled(replicate(0));
        if s.file == File::Vgrf && !s.negate && !s.abs {
            return Ok(s);
        }
        let r = self.prog.vgrf();
        self.push(
            Op::Alu(Opcode::Mov),
            Dst::vgrf(r, RegType::UD, 0xf),
            vec![s],
        );
        Ok(Src::vgrf(r, RegType::UD).swizzled(replicate(0)))
    }

    /// The slot base plus a constant offset, or the base and the run-time offset.
    fn tcs_offset(
        &mut self,
        i: &IntrinsicInstr,
        k: usize,
    ) -> Result<(u32, Option<Src>), CompileError> {
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let off = i
            .srcs
            .get(k)
            .copied()
            .ok_or_else(|| invalid(format!("{} without its offset", i.intrinsic.name())))?;
        let (slot, indirect) = match self.const_u32(off) {
            Some(c) => (base.saturating_add(c), None),
            None => (base, Some(self.tcs_plain(off)?)),
        };
        if slot > MAX_GLOBAL_OFFSET {
            return Err(unsupported(format!(
                "a tessellation-control URB access at slot {slot}"
            )));
        }
        Ok((slot, indirect))
    }

    fn tcs_read_type(&self, i: &IntrinsicInstr, def: SsaId) -> Result<RegType, CompileError> {
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!(
                "{bits}-bit tessellation-control inputs and outputs"
            )));
        }
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        if first + n as u32 > 4 {
            return Err(invalid(format!(
                "components {first}..{} of a vec4 slot",
                first + n as u32
            )));
        }
        Ok(match i.type_index(IndexKind::DestType).map(|t| t.base) {
            Some(BaseType::Int) => RegType::D,
            Some(BaseType::Uint) => RegType::UD,
            _ => RegType::F,
        })
    }

    /// A URB read with `header` at `slot` into a fresh register, `def` its components from
    /// the intrinsic's first.
    fn tcs_urb_read(
        &mut self,
        i: &IntrinsicInstr,
        def: SsaId,
        header: u32,
        slot: u32,
        ty: RegType,
    ) -> Result<(), CompileError> {
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        let r = self.prog.vgrf();
        self.push(
            Op::UrbRead { offset: slot },
            Dst::vgrf(r, RegType::D, 0xf),
            vec![Src::vgrf(header, RegType::UD)],
        );
        self.set(
            def,
            Val::Reg(Src::vgrf(r, ty).swizzled(from_component(first))),
        )
    }

    /// `load_per_vertex_input`: a URB read from the vertex's ICP handle.
    fn emit_tcs_input(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let def = self.tcs_def(i)?;
        let ty = self.tcs_read_type(i, def)?;
        let vertex = i
            .srcs
            .first()
            .copied()
            .ok_or_else(|| invalid("load_per_vertex_input without its vertex"))?;
        let vertex = match self.const_u32(vertex) {
            Some(v) if v < 32 => Src::imm(RegType::UD, v),
            Some(v) => {
                return Err(invalid(format!(
                    "input vertex {v} of a patch of at most 32"
                )))
            }
            None => self.tcs_plain(vertex)?,
        };
        let (slot, indirect) = self.tcs_offset(i, 1)?;
        let h = self.prog.vgrf();
        let mut srcs = vec![vertex];
        srcs.extend(indirect);
        self.push(Op::TcsInputHeader, Dst::vgrf(h, RegType::UD, 0xf), srcs);
        self.tcs_urb_read(i, def, h, slot, ty)
    }

    /// `load_output` and `load_per_vertex_output`: a URB read of the patch entry.
    fn emit_tcs_output_read(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        self.tcs_state()?;
        let def = self.tcs_def(i)?;
        let ty = self.tcs_read_type(i, def)?;
        let k = usize::from(i.intrinsic == Intrinsic::LoadPerVertexOutput);
        let (slot, indirect) = self.tcs_offset(i, k)?;
        let h = self.prog.vgrf();
        self.push(
            Op::TcsOutputHeader { mask: 0xf, held: 0 },
            Dst::vgrf(h, RegType::UD, 0xf),
            indirect.into_iter().collect(),
        );
        self.tcs_urb_read(i, def, h, slot, ty)
    }

    /// `store_output` and `store_per_vertex_output`: an OWord write to the patch entry of
    /// the components written.
    fn emit_tcs_output(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        self.tcs_state()?;
        let value = i
            .srcs
            .first()
            .copied()
            .ok_or_else(|| invalid("a TCS store without its value"))?;
        let (n, bits) = self.def_info(value)?;
        if bits != 32 {
            return Err(unsupported(format!(
                "{bits}-bit tessellation-control outputs"
            )));
        }
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        let wrmask = i.int_index(IndexKind::WriteMask).unwrap_or((1 << n) - 1) as u32;
        let mask = ((wrmask << first) & 0xf) as u8;
        if mask == 0 {
            return Ok(());
        }
        let k = if i.intrinsic == Intrinsic::StoreOutput {
            1
        } else {
            2
        };
        let (slot, indirect) = self.tcs_offset(i, k)?;
        let v = self.value_src(value, RegType::UD)?;
        let v = v.swizzled(to_component(first));
        self.push(
            Op::TcsOutputHeader { mask, held: 0 },
            Dst::fixed(HEADER, RegType::UD, 0xf),
            indirect.into_iter().collect(),
        );
        self.push(
            Op::Alu(Opcode::Mov),
            Dst::fixed(HEADER + 1, RegType::UD, mask),
            vec![v],
        );
        self.prog.insts.push(Inst::new(
            Op::UrbWrite {
                offset: slot,
                mlen: 2,
                eot: false,
                kind: UrbKind::TcsOutput,
            },
            Dst::null(RegType::F),
            vec![Src::reg(File::Fixed, HEADER, RegType::F)],
        ));
        Ok(())
    }
}
