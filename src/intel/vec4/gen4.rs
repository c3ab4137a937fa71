//! What the vec4 backend builds differently for Gen4.5 (G4x) vertex shaders, on top of what
//! Gen6 already changes ([`super::gen6`]: messages from MRFs, pull offsets folded), and what
//! it refuses there.
//!
//! - math is a message to the shared math unit (Mesa's `gfx4_math`): the first operand goes
//!   to m[`MATH_MRF`] by the SEND's implied move (so it may be any GRF region with a
//!   swizzle, but no source modifier and no immediate), a second one (POW) is moved to the
//!   next MRF; the SEND cannot be predicated nor set flags, so [`lower_math`] moves such
//!   results through a temporary (saturation travels in the message descriptor);
//! - the URB write's header is g0 by the SEND's implied move into m1, the message is not
//!   padded to whole rows, and the VUE has the Gen4–5 header: slot 0 (point size and clip
//!   flags, zero here), slot 1 the NDC position `(x/w, y/w, z/w, 1/w)`, slot 2 the position
//!   ([`super::urb::emit_vertex`] with `gen4`, `brw_compute_vue_map` before Gen6);
//! - IF/ELSE/ENDIF/DO/WHILE/BREAK/CONT carry Gen4 jump counts and pop counts
//!   ([`crate::intel::flow::gen4_jumps`]); an IF without ELSE is an IFF;
//! - a pull-constant load is the data port's G45 OWord dual block read: g0 into
//!   m[`super::gen6::PULL_MSG`] by the implied move, the two vertices' byte offsets in the
//!   next MRF.
//!
//! Refused by name ([`check_program`]): instructions Gen4 lacks (three-source and the
//! Gen6+/Gen7 additions), texturing (the Gen4–5 sampler messages are not built), run-time
//! uniform indices (`FindLiveChannel`/`Broadcast`), point size, layer and viewport outputs
//! (the Gen4–5 header's fixed-point point width), clip distances (the header's clip flags)
//! and register spilling.

use crate::error::CompileError;
use crate::intel::eu::{CondMod, Opcode};

use super::ir::{Dst, File, Inst, Op, Program, Src, XYZW};

/// The message register of a Gen4 math message's first operand (the second in the next):
/// the pull-constant load's pair, past the URB write's m1..m13; each message is built just
/// before its SEND, so the two never hold live values at once.
pub const MATH_MRF: u32 = super::gen6::PULL_MSG;

/// Refuses, naming it, the first instruction of `prog` that the Gen4.5 path does not build.
pub fn check_program(prog: &Program, ver: u32) -> Result<(), CompileError> {
    match prog.insts.iter().find_map(|i| unbuilt(i, ver)) {
        Some(why) => Err(CompileError::Unsupported(format!(
            "Gen4-5 vec4 vertex shader: {why}"
        ))),
        None => Ok(()),
    }
}

/// What the Gen4.5 path does not build in `inst`, in words.
fn unbuilt(inst: &Inst, ver: u32) -> Option<String> {
    match inst.op {
        Op::Alu(o) if !o.exists_on(ver) || o.is_three_src() => {
            Some(format!("{} (no such instruction before Gen6)", o.name()))
        }
        Op::Math(f) if f.hw() == 0 || f.hw() > 10 => {
            Some(format!("math {} (not a Gen4 math message)", f.name()))
        }
        Op::Tex { .. } | Op::SamplerHeader { .. } => {
            Some("texturing (Gen4-5 sampler messages)".into())
        }
        Op::FindLiveChannel | Op::Broadcast => Some("run-time uniform indices".into()),
        Op::ScratchRead { .. } | Op::ScratchWrite { .. } => Some("scratch access".into()),
        Op::UntypedAtomic { .. } => Some("ssbo_atomic (a Gen7+ data-cache message)".into()),
        Op::GsWriteOffset { .. } | Op::GsVertexCount | Op::GsClearR0Dword2 => {
            Some("geometry shaders".into())
        }
        _ => None,
    }
}

/// Whether `s` can be a math message's first operand as it is: a register the implied move
/// reads (any region and swizzle), without source modifiers.
fn implied_move_operand(s: &Src) -> bool {
    matches!(s.file, File::Vgrf | File::Attr | File::Uniform) && !s.negate && !s.abs
}

/// Whether a math message can write `i`'s destination as it is: a virtual register (the
/// response goes to GRFs), unpredicated, without a conditional modifier.
fn plain_dst(i: &Inst) -> bool {
    i.dst.file == File::Vgrf && i.pred.is_none() && i.cmod == CondMod::None
}

/// Gen4 math legalisation: a first operand that the implied move cannot carry is moved into
/// a register of its own first; a math writing a message register, under a predicate or
/// with a conditional modifier computes into a fresh register and is moved from there (the
/// move carries the predicate, the modifier and the write mask). Returns whether anything
/// changed.
pub fn lower_math(prog: &mut Program) -> bool {
    let needs = |i: &Inst| {
        matches!(i.op, Op::Math(_)) && (!implied_move_operand(&i.src[0]) || !plain_dst(i))
    };
    if !prog.insts.iter().any(needs) {
        return false;
    }
    let old = std::mem::take(&mut prog.insts);
    for mut inst in old {
        if !needs(&inst) {
            prog.insts.push(inst);
            continue;
        }
        let s = inst.src[0];
        if !implied_move_operand(&s) {
            let tmp = prog.vgrf();
            prog.insts.push(Inst::new(
                Op::Alu(Opcode::Mov),
                Dst::vgrf(tmp, s.ty, 0xf),
                vec![s],
            ));
            inst.src[0] = Src::vgrf(tmp, s.ty);
        }
        if plain_dst(&inst) {
            prog.insts.push(inst);
            continue;
        }
        let tmp = prog.vgrf();
        let mut mov = Inst::new(
            Op::Alu(Opcode::Mov),
            inst.dst,
            vec![Src {
                swizzle: XYZW,
                ..Src::vgrf(tmp, inst.dst.ty)
            }],
        );
        mov.pred = inst.pred.take();
        mov.pred_ctrl = inst.pred_ctrl;
        mov.sat = std::mem::take(&mut inst.sat);
        mov.cmod = std::mem::replace(&mut inst.cmod, CondMod::None);
        inst.dst = Dst::vgrf(tmp, inst.dst.ty, inst.dst.writemask);
        prog.insts.push(inst);
        prog.insts.push(mov);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{MathFn, RegType};
    use crate::intel::vec4::ir::replicate;

    #[test]
    fn a_swizzled_uniform_operand_stays_a_negated_one_is_moved() {
        let mut p = Program {
            num_vgrfs: 1,
            ..Program::default()
        };
        let u = Src::reg(File::Uniform, 0, RegType::F).swizzled(replicate(2));
        p.insts.push(Inst::new(
            Op::Math(MathFn::Rsq),
            Dst::vgrf(0, RegType::F, 0x1),
            vec![u],
        ));
        assert!(!lower_math(&mut p), "{p}");
        p.insts[0].src[0].negate = true;
        assert!(lower_math(&mut p));
        assert_eq!(p.insts.len(), 2, "{p}");
        assert_eq!(p.insts[0].op, Op::Alu(Opcode::Mov));
        assert_eq!(p.insts[1].src[0], Src::vgrf(1, RegType::F), "{p}");
        // The write mask stays on the math: the response honours it.
        assert_eq!(p.insts[1].dst, Dst::vgrf(0, RegType::F, 0x1), "{p}");
    }

    #[test]
    fn a_predicated_math_computes_into_a_temporary() {
        let mut p = Program {
            num_vgrfs: 2,
            ..Program::default()
        };
        let mut m = Inst::new(
            Op::Math(MathFn::Inv),
            Dst::vgrf(0, RegType::F, 0xf),
            vec![Src::vgrf(1, RegType::F)],
        );
        m.pred = Some(false);
        p.insts.push(m);
        assert!(lower_math(&mut p));
        assert_eq!(p.insts.len(), 2, "{p}");
        assert!(p.insts[0].pred.is_none(), "{p}");
        assert_eq!(p.insts[1].pred, Some(false), "{p}");
        assert_eq!(p.insts[1].dst, Dst::vgrf(0, RegType::F, 0xf), "{p}");
    }

    #[test]
    fn three_source_and_texturing_are_refused_by_name() {
        let mut p = Program::default();
        p.insts.push(Inst::new(
            Op::Alu(Opcode::Mad),
            Dst::vgrf(0, RegType::F, 0xf),
            vec![Src::vgrf(1, RegType::F); 3],
        ));
        let e = check_program(&p, 45).unwrap_err().to_string();
        assert!(e.contains("mad"), "{e}");
    }
}
