//! Tessellation-evaluation shaders on Gen7 (Mesa's `vec4_tes_visitor`): SIMD4x2, two domain
//! points of one patch per thread, point 0 in channels 0–3 and point 1 in 4–7.
//!
//! The payload: g0 the output URB handles (the VUE is written as a vertex shader's, from g0,
//! by [`urb::emit_vertex`](super::super::urb::emit_vertex)); g1 point 0's u v w in dwords
//! 0–2, the patch URB handle in dword 3, point 1's u v w in 4–6, the primitive id in 7; the
//! push constants from g2; then the first [`TessEvalInfo::urb_read_length`] registers of
//! the patch URB entry, two slots each, read by both points alike ([`File::Patch`]).
//!
//! Inputs arrive in Intel form (slots of the patch entry, the vertex index folded in): a
//! constant slot below [`MAX_PATCH_PUSH_SLOTS`] is pushed; any other is an OWord URB read
//! from the patch handle, through a header built once at the start of the program, with
//! each point's run-time slot offset (clamped to the hardware's range) in the header's
//! per-slot offsets when the slot is indirect.

use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::nir::{BaseType, IndexKind, Intrinsic, IntrinsicInstr};

use super::super::ir::{replicate, Dst, File, Op, Src, MAX_PATCH_PUSH_SLOTS};
use super::{invalid, unsupported, CompileError, Tr, Val};

/// The largest per-slot offset the URB takes (Haswell's PRM: `[0, 0FFFFFFFh]`).
const MAX_SLOT_OFFSET: u32 = 0x0fff_ffff;

/// The largest global offset of a URB read descriptor (eleven bits).
const MAX_GLOBAL_OFFSET: u32 = 2047;

impl Tr<'_> {
    /// The patch URB read header, built at the start of the program on first use.
    fn tes_read_header(&mut self) -> u32 {
        if let Some(h) = self.tes_header {
            return h;
        }
        let h = self.prog.vgrf();
        self.prelude.push(super::super::ir::Inst::new(
            Op::TesInputHeader,
            Dst::vgrf(h, RegType::UD, 0xf),
            vec![],
        ));
        self.tes_header = Some(h);
        h
    }

    /// `load_tess_coord`: u v w of each point from g1.
    pub(super) fn emit_tes_coord(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let def = i
            .def
            .ok_or_else(|| invalid("load_tess_coord has no destination"))?;
        let (n, _) = self.def_info(def)?;
        if n > 3 {
            return Err(invalid(format!("load_tess_coord of {n} components")));
        }
        let d = self.def_dst(def, RegType::F)?;
        self.push(
            Op::Alu(Opcode::Mov),
            d,
            vec![Src::reg(File::Fixed, 1, RegType::F)],
        );
        Ok(())
    }

    /// `load_primitive_id`: g1.7, the patch's.
    pub(super) fn emit_tes_primitive_id(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let def = i
            .def
            .ok_or_else(|| invalid("load_primitive_id has no destination"))?;
        let r = self.prog.vgrf();
        self.push(Op::TesPrimitiveId, Dst::vgrf(r, RegType::D, 0xf), vec![]);
        self.set(def, Val::Reg(Src::vgrf(r, RegType::D)))
    }

    /// `load_input` (patch slots, the tess levels among them) and `load_per_vertex_input`:
    /// a pushed slot or a URB read of the patch entry.
    pub(super) fn emit_tes_input(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let off_src = usize::from(i.intrinsic == Intrinsic::LoadPerVertexInput);
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        let def = i
            .def
            .ok_or_else(|| invalid(format!("{} has no destination", i.intrinsic.name())))?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!(
                "{bits}-bit tessellation-evaluation inputs"
            )));
        }
        if first + n as u32 > 4 {
            return Err(invalid(format!(
                "TES input components {first}..{} of a vec4 slot",
                first + n as u32
            )));
        }
        let ty = match i.type_index(IndexKind::DestType).map(|t| t.base) {
            Some(BaseType::Int) => RegType::D,
            Some(BaseType::Uint) => RegType::UD,
            _ => RegType::F,
        };
        let swizzle = (0..4u32).fold(0u8, |s, ch| s | ((first + ch).min(3) as u8) << (2 * ch));
        let offset = i
            .srcs
            .get(off_src)
            .copied()
            .ok_or_else(|| invalid("TES input without its offset"))?;
        let header = match self.const_u32(offset) {
            Some(c) => {
                let slot = base.saturating_add(c);
                if slot < MAX_PATCH_PUSH_SLOTS {
                    let info = self
                        .tes
                        .as_mut()
                        .ok_or_else(|| invalid("a TES input outside a TES"))?;
                    info.urb_read_length = info.urb_read_length.max(slot / 2 + 1);
                    return self.set(
                        def,
                        Val::Reg(Src {
                            swizzle,
                            ..Src::reg(File::Patch, slot, ty)
                        }),
                    );
                }
                return self.tes_urb_read(def, slot, None, ty, swizzle);
            }
            None => {
                let off = self.value_src(offset, RegType::UD)?;
                Some(off.swizzled(replicate(0)))
            }
        };
        self.tes_urb_read(def, base, header, ty, swizzle)
    }

    /// A URB read of slot `slot` (plus each point's `indirect` slots, x of its half) of the
    /// patch entry into `def`.
    fn tes_urb_read(
        &mut self,
        def: crate::nir::SsaId,
        slot: u32,
        indirect: Option<Src>,
        ty: RegType,
        swizzle: u8,
    ) -> Result<(), CompileError> {
        if slot > MAX_GLOBAL_OFFSET {
            return Err(unsupported(format!("a URB read at patch slot {slot}")));
        }
        let mut header = self.tes_read_header();
        if let Some(off) = indirect {
            let clamped = self.prog.vgrf();
            self.push(
                Op::Alu(Opcode::Sel),
                Dst::vgrf(clamped, RegType::UD, 0xf),
                vec![off, Src::imm(RegType::UD, MAX_SLOT_OFFSET)],
            )
            .cmod = CondMod::L;
            let h = self.prog.vgrf();
            self.push(
                Op::TesIndirectOffset,
                Dst::vgrf(h, RegType::UD, 0xf),
                vec![
                    Src::vgrf(header, RegType::UD),
                    Src::vgrf(clamped, RegType::UD),
                ],
            );
            header = h;
        }
        let r = self.prog.vgrf();
        self.push(
            Op::UrbRead { offset: slot },
            Dst::vgrf(r, RegType::D, 0xf),
            vec![Src::vgrf(header, RegType::UD)],
        );
        self.set(
            def,
            Val::Reg(Src {
                swizzle,
                ..Src::vgrf(r, ty)
            }),
        )
    }
}
