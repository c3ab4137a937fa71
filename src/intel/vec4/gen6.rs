//! What the vec4 backend builds differently for Gen6 (Sandy Bridge) vertex shaders, and what
//! it refuses there.
//!
//! Gen6 runs the same SIMD4x2 align16 program as Gen7 with these differences:
//!
//! - messages leave from the message registers: the IR's fixed registers from
//!   [`MSG_BASE`](super::urb::MSG_BASE) (where Gen7 keeps its message area in GRFs, Mesa's
//!   `GFX7_MRF_HACK_START`) are MRFs on Gen6, `m(nr - MSG_BASE)`, so the URB write's header
//!   sits in m1 and its slots from m2 as in Mesa's gfx6 path ([`mrf_of`], used by codegen);
//! - the URB write header is g0 alone (no channel-enable byte: Gen6's URB write has no
//!   channel masks), and the descriptor marks the entry used (`urb::urb_desc`);
//! - MATH is an align1 instruction taking whole GRFs without source modifiers, writing a whole
//!   GRF ([`lower_math`], after the optimizer, which would otherwise propagate swizzles and
//!   modifiers straight back; Mesa's `emit_math` and `fix_math_operand`);
//! - a pull-constant load is the sampler-cache data port's OWord dual block read with a
//!   header in [`PULL_MSG`] and the two vertices' offsets, in OWords, in the next MRF (Mesa's
//!   gfx6 `generate_pull_constant_load`); an offset known at compile time is written there as
//!   an immediate ([`fold_pull_offsets`]);
//! - IF and ELSE carry one jump count, and BREAK's second one points past the WHILE (the flow
//!   templates and codegen).
//!
//! Sampler messages are Gen7's SIMD4x2 ones, sent from the MRFs.
//!
//! What is not built is refused by name ([`check_program`]): the instructions Gen7 added,
//! integer three-source operations, and register
//! spilling (Gen6 scratch messages are built from MRFs too).

use crate::error::CompileError;
use crate::intel::eu::{CondMod, Opcode};

use super::ir::{swz_get, Dst, File, Inst, Op, Program, Src, XYZW};
use super::urb::MSG_BASE;

/// The message register of a pull-constant load's header (its offsets in the next one):
/// past the URB write's m1..m13, so that values written straight into the VUE's message
/// registers survive the loads between them and the write.
pub const PULL_MSG: u32 = 14;

/// The MRF a fixed IR register is on Gen6, or `None` for a GRF (g0 and other payload
/// registers).
pub fn mrf_of(nr: u32) -> Option<u32> {
    nr.checked_sub(MSG_BASE)
}

/// Refuses, naming it, the first instruction of `prog` (freshly translated) that the Gen6
/// path does not build.
pub fn check_program(prog: &Program) -> Result<(), CompileError> {
    match prog.insts.iter().find_map(unbuilt) {
        Some(why) => Err(CompileError::Unsupported(format!(
            "Gen6 vec4 vertex shader: {why}"
        ))),
        None => Ok(()),
    }
}

/// What the Gen6 path does not build in `inst`, in words.
fn unbuilt(inst: &Inst) -> Option<String> {
    match inst.op {
        Op::Alu(o) => o.missing_on_gen6(inst.dst.ty),
        Op::PullLoad { indexed: true, .. } => {
            Some("pull-constant loads at a run-time block index".into())
        }
        Op::UntypedAtomic { .. } => Some("ssbo_atomic (a Gen7+ data-cache message)".into()),
        Op::GsWriteOffset { .. }
        | Op::GsVertexCount
        | Op::GsClearR0Dword2
        | Op::GsInstanceId
        | Op::UrbChannelMask { .. } => Some("geometry shaders".into()),
        _ => None,
    }
}

/// Whether `s` can be a Gen6 MATH operand as it is, for a MATH writing the components in
/// `mask`: a GRF read whole (a virtual register or a vertex element; push constants are read
/// with a zero vertical stride, which align1 MATH may not honour), without modifiers, each
/// written component reading its own.
fn plain_operand(s: &Src, mask: u8) -> bool {
    matches!(s.file, File::Vgrf | File::Attr)
        && !s.negate
        && !s.abs
        && (0..4).all(|c| mask & (1 << c) == 0 || swz_get(s.swizzle, c) == c)
}

/// Gen6 MATH legalisation: an operand that is not a plain GRF read is first moved into a
/// register of its own; a MATH writing part of a register, a message register, under a
/// predicate or with a saturate or conditional modifier computes into a fresh register and
/// is moved from there (the move carries the write mask, predicate and modifiers). Codegen
/// emits every MATH align1, writing its whole register: after this pass a MATH that writes
/// part of one writes such a fresh register, which nothing else holds while it is live.
/// Returns whether anything changed.
pub fn lower_math(prog: &mut Program) -> bool {
    let needs = |i: &Inst| {
        matches!(i.op, Op::Math(_))
            && (i.src.iter().any(|s| !plain_operand(s, i.dst.writemask)) || !plain_dst(i))
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
        for k in 0..inst.src.len() {
            let s = inst.src[k];
            if plain_operand(&s, inst.dst.writemask) {
                continue;
            }
            let tmp = prog.vgrf();
            prog.insts.push(Inst::new(
                Op::Alu(Opcode::Mov),
                Dst::vgrf(tmp, s.ty, inst.dst.writemask),
                vec![s],
            ));
            inst.src[k] = Src::vgrf(tmp, s.ty);
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
        // Align1 MATH writes the whole register; the temporary is this MATH's alone, so
        // the components outside the mask are written where nothing reads them.
        inst.dst = Dst::vgrf(tmp, inst.dst.ty, inst.dst.writemask);
        prog.insts.push(inst);
        prog.insts.push(mov);
    }
    true
}

/// Puts the compile-time offsets of pull-constant loads into the loads: a load whose offset
/// register is written once, by a move of an immediate into its x, and read by the load
/// alone takes the immediate, and the move goes (codegen writes the offset register of the
/// message from it directly). Returns whether anything changed.
pub fn fold_pull_offsets(prog: &mut Program) -> bool {
    let n = prog.num_vgrfs as usize;
    let (mut writes, mut reads) = (vec![0u32; n], vec![0u32; n]);
    for i in &prog.insts {
        if i.dst.file == File::Vgrf {
            writes[i.dst.nr as usize] += 1;
        }
        for s in i.src.iter().filter(|s| s.file == File::Vgrf) {
            reads[s.nr as usize] += 1;
        }
    }
    let mut imm_of = vec![None; n];
    let mut def_at = vec![usize::MAX; n];
    for (ip, i) in prog.insts.iter().enumerate() {
        if i.op == Op::Alu(Opcode::Mov)
            && i.dst.file == File::Vgrf
            && i.dst.writemask == 1
            && i.src[0].file == File::Imm
            && i.pred.is_none()
            && !i.sat
            && i.cmod == CondMod::None
        {
            imm_of[i.dst.nr as usize] = Some(i.src[0]);
            def_at[i.dst.nr as usize] = ip;
        }
    }
    let mut dead = vec![false; prog.insts.len()];
    for inst in prog.insts.iter_mut() {
        if !matches!(inst.op, Op::PullLoad { .. }) {
            continue;
        }
        let s = inst.src[0];
        let v = s.nr as usize;
        if s.file != File::Vgrf || swz_get(s.swizzle, 0) != 0 || writes[v] != 1 || reads[v] != 1 {
            continue;
        }
        if let Some(imm) = imm_of[v] {
            inst.src[0] = imm;
            dead[def_at[v]] = true;
        }
    }
    if !dead.contains(&true) {
        return false;
    }
    prog.remove_marked(&dead);
    true
}

/// Whether a MATH's destination and controls suit align1 as they are: a whole virtual
/// register, unpredicated, without modifiers.
fn plain_dst(i: &Inst) -> bool {
    i.dst.file == File::Vgrf
        && i.dst.writemask == 0xf
        && i.pred.is_none()
        && !i.sat
        && i.cmod == CondMod::None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::MathFn;
    use crate::intel::eu::RegType;
    use crate::intel::vec4::ir::replicate;

    #[test]
    fn message_registers_map_to_mrfs() {
        assert_eq!(mrf_of(MSG_BASE + 1), Some(1));
        assert_eq!(mrf_of(0), None);
    }

    #[test]
    fn a_swizzled_uniform_operand_and_a_partial_write_are_moved() {
        let mut p = Program {
            num_vgrfs: 1,
            ..Program::default()
        };
        p.insts.push(Inst::new(
            Op::Math(MathFn::Rsq),
            Dst::vgrf(0, RegType::F, 0x1),
            vec![Src::reg(File::Uniform, 0, RegType::F).swizzled(replicate(2))],
        ));
        assert!(lower_math(&mut p));
        let ir = p.to_string();
        assert_eq!(p.insts.len(), 3, "{ir}");
        assert_eq!(p.insts[0].op, Op::Alu(Opcode::Mov));
        assert_eq!(p.insts[1].dst, Dst::vgrf(2, RegType::F, 0x1), "{ir}");
        assert_eq!(p.insts[1].src[0], Src::vgrf(1, RegType::F), "{ir}");
        assert_eq!(p.insts[2].dst, Dst::vgrf(0, RegType::F, 0x1), "{ir}");
        // The partly written temporary is the MATH's alone: written there, read by the move.
        let uses = p.insts.iter().filter(|i| {
            (i.dst.file == File::Vgrf && i.dst.nr == 2)
                || i.src.iter().any(|s| s.file == File::Vgrf && s.nr == 2)
        });
        assert_eq!(uses.count(), 2, "{ir}");
        assert_eq!(p.insts[2].src[0], Src::vgrf(2, RegType::F), "{ir}");
    }

    #[test]
    fn a_plain_math_is_left_alone() {
        let mut p = Program {
            num_vgrfs: 2,
            ..Program::default()
        };
        p.insts.push(Inst::new(
            Op::Math(MathFn::Inv),
            Dst::vgrf(0, RegType::F, 0xf),
            vec![Src::vgrf(1, RegType::F)],
        ));
        assert!(!lower_math(&mut p));
    }
}
