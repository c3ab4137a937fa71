//! Geometry shaders in dual-object dispatch (Mesa's `vec4_gs_visitor` on Gen7): the two
//! halves of a SIMD4x2 thread are two input primitives, each with its own output URB entry.
//!
//! - `load_per_vertex_input` of vertex `v`, VUE slot `s` reads pushed element
//!   `v · 2 · urb_read_length + s` (one payload register per element, both objects' copies
//!   interleaved, as for a vertex shader's attributes);
//! - `emit_vertex_with_counter` writes the current outputs to the URB at once, at the
//!   object's vertex `counter` (per-slot offsets in the header, after the control-data
//!   header: [`urb::emit_gs_vertex`]);
//! - `end_primitive_with_counter` sets cut bit `counter - 1` in the control-data register
//!   (when the header holds cut bits), which the thread end writes to the start of the entry
//!   with the vertex count from the last `set_vertex_and_primitive_count`
//!   ([`urb::emit_gs_end`]).
//!
//! In single and dual-instance dispatch (a shader Mesa would have spill in dual-object
//! mode, or one with instancing) the inputs are interleaved, two elements per payload
//! register that both halves read (see `codegen::Layout::interleaved`), and each half's
//! instance number is bits 31:27 of its dword of g0 ([`Op::GsInstanceId`]).
//!
//! Headers of 33 to 128 control bits are written a dword at a time as vertices are emitted
//! (at constant counters only). Refused by name: longer headers, streams other than 0,
//! indirect vertex indices.

use crate::intel::eu::{Opcode, RegType};
use crate::intel::geometry::ControlDataFormat;
use crate::intel::vec4::urb;
use crate::nir::{IndexKind, IntrinsicInstr, SsaId};

use super::super::ir::{replicate, swz_get, Dst, File, Op, Src};
use super::gs_state::GsState;
use super::{invalid, ty_of, unsupported, CompileError, Tr, Val};

fn src_at(i: &IntrinsicInstr, k: usize) -> Result<SsaId, CompileError> {
    i.srcs
        .get(k)
        .copied()
        .ok_or_else(|| invalid(format!("{} is missing source {k}", i.intrinsic.name())))
}

impl Tr<'_> {
    fn gs(&mut self) -> Result<&mut GsState, CompileError> {
        self.gs
            .as_mut()
            .ok_or_else(|| invalid("a geometry intrinsic outside a geometry shader"))
    }

    /// The prolog: g0.2 cleared, the control-data register zeroed.
    pub(super) fn gs_prolog(&mut self) -> Result<(), CompileError> {
        self.push(Op::GsClearR0Dword2, Dst::null(RegType::UD), vec![]);
        if self.gs()?.info.control_data_header_bits() > 0 {
            let r = self.prog.vgrf();
            self.push(
                Op::Alu(Opcode::Mov),
                Dst::vgrf(r, RegType::UD, 1),
                vec![Src::imm(RegType::UD, 0)],
            );
            self.gs()?.control = Some(r);
        }
        Ok(())
    }

    /// A counter as the GS header instructions take it: an immediate, or x of a register.
    fn counter(&mut self, id: SsaId) -> Result<Src, CompileError> {
        if let Some(c) = self.const_u32(id) {
            return Ok(Src::imm(RegType::UD, c));
        }
        let s = self.value_src(id, RegType::UD)?;
        if s.file == File::Vgrf && swz_get(s.swizzle, 0) == 0 && !s.negate && !s.abs {
            return Ok(Src {
                swizzle: replicate(0),
                ..s
            });
        }
        let r = self.prog.vgrf();
        self.push(
            Op::Alu(Opcode::Mov),
            Dst::vgrf(r, RegType::UD, 1),
            vec![s.swizzled(replicate(0))],
        );
        Ok(Src {
            swizzle: replicate(0),
            ..Src::vgrf(r, RegType::UD)
        })
    }

    /// Whether `i` is about stream 0; vertices and primitives of other streams are refused
    /// (only transform feedback would see them), their counts ignored.
    fn stream_0(&self, i: &IntrinsicInstr) -> Result<bool, CompileError> {
        match i.int_index(IndexKind::StreamId).unwrap_or(0) {
            0 => Ok(true),
            _ if i.intrinsic == crate::nir::Intrinsic::SetVertexAndPrimitiveCount => Ok(false),
            s => Err(unsupported(format!(
                "vertex stream {s} in a Gen7 geometry shader"
            ))),
        }
    }

    pub(super) fn emit_load_per_vertex_input(
        &mut self,
        i: &IntrinsicInstr,
    ) -> Result<(), CompileError> {
        let stride = 2 * self.gs()?.info.urb_read_length;
        let vertex = self
            .const_u32(src_at(i, 0)?)
            .ok_or_else(|| unsupported("a Gen7 geometry input with an indirect vertex index"))?;
        let off = self
            .const_u32(src_at(i, 1)?)
            .ok_or_else(|| unsupported("a Gen7 geometry input with an indirect slot"))?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let slot = base.saturating_add(off);
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        let def = i
            .def
            .ok_or_else(|| invalid("load_per_vertex_input has no destination"))?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit geometry inputs")));
        }
        let vertices = self.gs()?.info.vertices_in;
        if vertex >= vertices || slot >= stride || first + n as u32 > 4 {
            return Err(invalid(format!(
                "input vertex {vertex} slot {slot} component {first}..{} outside the {vertices} \
                 vertices of {stride} pushed slots",
                first + n as u32
            )));
        }
        let ty = match i.type_index(IndexKind::DestType).map(|t| t.base) {
            Some(b) => ty_of(b),
            None => RegType::F,
        };
        let swizzle = (0..4u32).fold(0u8, |s, ch| s | ((first + ch).min(3) as u8) << (2 * ch));
        self.set(
            def,
            Val::Reg(Src {
                swizzle,
                ..Src::reg(File::Attr, stride * vertex + slot, ty)
            }),
        )
    }

    pub(super) fn emit_gs_emit_vertex(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if !self.stream_0(i)? {
            return Ok(());
        }
        let counter = self.counter(src_at(i, 0)?)?;
        self.flush_control_bits(counter)?;
        let gs = self.gs()?;
        let (vertex_hwords, header_hwords) = (
            gs.info.output_vertex_size_hwords,
            gs.info.control_data_header_size_hwords,
        );
        let map = gs.info.vue_map.clone();
        urb::emit_gs_vertex(
            &mut self.prog.insts,
            &map,
            &self.facts.outputs,
            &self.facts.output_masks,
            counter,
            vertex_hwords,
            header_hwords,
        );
        Ok(())
    }

    /// Headers of more than 32 bits are written 32 bits at a time: before the vertex that
    /// starts a new dword, the finished one is written and the register cleared (Mesa's
    /// `gs_emit_vertex`); here only at constant counters.
    fn flush_control_bits(&mut self, counter: Src) -> Result<(), CompileError> {
        let gs = self.gs()?;
        let (Some(control), bits) = (gs.control, gs.info.control_data_bits_per_vertex) else {
            return Ok(());
        };
        if gs.info.control_data_header_bits() <= 32 {
            return Ok(());
        }
        if counter.file != File::Imm {
            return Err(unsupported(
                "a run-time vertex counter with more than 32 control-data bits",
            ));
        }
        let c = counter.imm;
        if c % (32 / bits) != 0 {
            return Ok(());
        }
        if c != 0 {
            let dword = gs.control_dword(c);
            urb::emit_gs_control(
                &mut self.prog.insts,
                Src::vgrf(control, RegType::UD).swizzled(replicate(0)),
                Some(dword),
            );
        }
        self.push(
            Op::Alu(Opcode::Mov),
            Dst::vgrf(control, RegType::UD, 1),
            vec![Src::imm(RegType::UD, 0)],
        );
        Ok(())
    }

    pub(super) fn emit_gs_end_primitive(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if !self.stream_0(i)? {
            return Ok(());
        }
        let gs = self.gs()?;
        let Some(control) = gs.control else {
            return Ok(());
        };
        if gs.info.control_data_format != ControlDataFormat::Cut {
            return Ok(());
        }
        let bits = Dst::vgrf(control, RegType::UD, 1);
        let old = Src::vgrf(control, RegType::UD).swizzled(replicate(0));
        let id = src_at(i, 0)?;
        // Cut bit (counter - 1) mod 32: the strip ends after the last vertex emitted.
        let mask = if let Some(c) = self.const_u32(id) {
            Src::imm(RegType::UD, 1 << (c.wrapping_sub(1) & 31))
        } else {
            let counter = self.counter(id)?;
            let prev = self.prog.vgrf();
            self.push(
                Op::Alu(Opcode::Add),
                Dst::vgrf(prev, RegType::UD, 1),
                vec![counter, Src::imm(RegType::UD, u32::MAX)],
            );
            let one = self.prog.vgrf();
            self.push(
                Op::Alu(Opcode::Mov),
                Dst::vgrf(one, RegType::UD, 1),
                vec![Src::imm(RegType::UD, 1)],
            );
            let m = self.prog.vgrf();
            // SHL takes the low five bits of its shift count.
            self.push(
                Op::Alu(Opcode::Shl),
                Dst::vgrf(m, RegType::UD, 1),
                vec![
                    Src::vgrf(one, RegType::UD).swizzled(replicate(0)),
                    Src::vgrf(prev, RegType::UD).swizzled(replicate(0)),
                ],
            );
            Src::vgrf(m, RegType::UD).swizzled(replicate(0))
        };
        self.push(Op::Alu(Opcode::Or), bits, vec![old, mask]);
        Ok(())
    }

    pub(super) fn emit_gs_set_count(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if !self.stream_0(i)? {
            return Ok(());
        }
        let count = self.counter(src_at(i, 0)?)?;
        self.gs()?.count = count;
        Ok(())
    }

    pub(super) fn emit_gs_system_value(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let def = i
            .def
            .ok_or_else(|| invalid(format!("{} has no destination", i.intrinsic.name())))?;
        match i.intrinsic {
            crate::nir::Intrinsic::LoadInvocationId if self.gs()?.info.invocations > 1 => {
                let r = self.prog.vgrf();
                self.push(Op::GsInstanceId, Dst::vgrf(r, RegType::UD, 0xf), vec![]);
                self.set(
                    def,
                    Val::Reg(Src {
                        swizzle: replicate(0),
                        ..Src::vgrf(r, RegType::UD)
                    }),
                )
            }
            crate::nir::Intrinsic::LoadInvocationId => self.set(def, Val::Const(vec![0])),
            _ => {
                if !self.gs()?.info.include_primitive_id {
                    return Err(invalid("load_primitive_id without the primitive ids"));
                }
                // g1: object 0's primitive id in dword 0, object 1's in dword 4.
                let d = self.def_dst(def, RegType::D)?;
                self.push(
                    Op::Alu(Opcode::Mov),
                    d,
                    vec![Src::reg(File::Fixed, 1, RegType::D).swizzled(replicate(0))],
                );
                Ok(())
            }
        }
    }
}
