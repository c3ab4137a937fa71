//! Algebraic simplification of single instructions.
//!
//! NIR folded the shader's own algebra already; what is left comes from lowering and from
//! copy propagation putting immediates into sources (an address computed as `x + 0`, a
//! saturated constant, a select between equal values). Each rule below rewrites one
//! instruction into a cheaper one with the same result in every channel it writes, bit for
//! bit; rules that would differ for NaN, infinities or signed zeros are left out (`x * 0.0`,
//! `x + 0.0`, `min(x, c).sat`). Most rewrites produce a MOV that copy propagation then folds
//! into its readers.

use crate::intel::eu::{CondMod, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg};

/// Simplifies instructions in place; returns whether any changed.
pub fn algebraic(prog: &mut Program) -> bool {
    let mut progress = false;
    for inst in &mut prog.insts {
        progress |= simplify(inst);
    }
    progress
}

fn imm_bits(r: &Reg) -> Option<u32> {
    (r.file == File::Imm && !r.neg && !r.abs).then_some(r.imm as u32)
}

fn is_int32(ty: RegType) -> bool {
    matches!(ty, RegType::D | RegType::UD)
}

/// The instruction becomes `mov dst, src`, keeping its predicate, saturate and condition.
fn into_mov(inst: &mut Inst, src: Reg) {
    inst.op = Op::Alu(Opcode::Mov);
    inst.src = vec![src];
}

/// Clamps a float immediate to [0, 1] as the hardware's saturate does (NaN becomes 0).
fn saturate_f32(bits: u32) -> u32 {
    let v = f32::from_bits(bits);
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= 1.0 {
        1.0f32.to_bits()
    } else {
        bits
    }
}

fn simplify(inst: &mut Inst) -> bool {
    let Op::Alu(op) = inst.op else {
        return false;
    };
    let n = inst.src.len();
    let all_int32 = is_int32(inst.dst.ty) && inst.src.iter().all(|s| is_int32(s.ty));
    let all_f = inst.dst.ty == RegType::F && inst.src.iter().all(|s| s.ty == RegType::F);
    match op {
        // mov.sat of a float immediate: clamp the immediate.
        Opcode::Mov if n == 1 && inst.sat && all_f => {
            let Some(bits) = imm_bits(&inst.src[0]) else {
                return false;
            };
            inst.src[0].imm = saturate_f32(bits) as u64;
            inst.sat = false;
            true
        }
        Opcode::Mul if n == 2 => {
            let Some(b) = imm_bits(&inst.src[1]) else {
                return false;
            };
            let a = inst.src[0];
            if all_f && b == 1.0f32.to_bits() {
                into_mov(inst, a);
            } else if all_f && b == (-1.0f32).to_bits() {
                into_mov(inst, a.negate());
            } else if all_int32 && b == 1 {
                into_mov(inst, a);
            } else if all_int32 && b == 0 && inst.cmod == CondMod::None && !inst.sat {
                into_mov(inst, inst.src[1]);
            } else {
                return false;
            }
            true
        }
        // x + 0 for integers, x + (-0.0) for floats.
        Opcode::Add if n == 2 => {
            let Some(b) = imm_bits(&inst.src[1]) else {
                return false;
            };
            let neutral = (all_int32 && b == 0) || (all_f && b == 0x8000_0000);
            if neutral {
                let a = inst.src[0];
                into_mov(inst, a);
            }
            neutral
        }
        // Logic and shifts by their neutral element; the source must carry no modifier, which
        // a MOV would read as arithmetic.
        Opcode::Or | Opcode::Xor | Opcode::Shl | Opcode::Shr | Opcode::Asr | Opcode::And
            if n == 2 && all_int32 && !inst.src[0].neg && !inst.src[0].abs =>
        {
            let a = inst.src[0];
            let b = imm_bits(&inst.src[1]);
            let neutral = match op {
                Opcode::And => b == Some(u32::MAX) || inst.src[1] == a,
                Opcode::Or => b == Some(0) || inst.src[1] == a,
                _ => b == Some(0),
            };
            if neutral && inst.cmod == CondMod::None {
                into_mov(inst, a);
            }
            neutral && inst.cmod == CondMod::None
        }
        // A test of |x| or -x against zero for (in)equality is a test of x.
        Opcode::Cmp
            if n == 2
                && matches!(inst.cmod, CondMod::Z | CondMod::Nz)
                && imm_bits(&inst.src[1]) == Some(0)
                && (inst.src[0].neg || inst.src[0].abs) =>
        {
            inst.src[0].neg = false;
            inst.src[0].abs = false;
            true
        }
        Opcode::Sel if n == 2 => {
            if inst.src[0] == inst.src[1] {
                let a = inst.src[0];
                into_mov(inst, a);
                inst.pred = None;
                inst.cmod = CondMod::None;
                return true;
            }
            // max(x, c) with c <= 0, saturated, is x saturated (NaN included: both give 0).
            let Some(b) = imm_bits(&inst.src[1]) else {
                return false;
            };
            let v = f32::from_bits(b);
            if all_f
                && inst.sat
                && inst.pred.is_none()
                && matches!(inst.cmod, CondMod::Ge | CondMod::G)
                && v <= 0.0
            {
                let a = inst.src[0];
                into_mov(inst, a);
                inst.cmod = CondMod::None;
                return true;
            }
            false
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{alu, f, mov};
    use super::*;

    fn d(nr: u32) -> Reg {
        Reg::vgrf(nr, RegType::D)
    }

    fn one(i: Inst) -> (bool, Inst) {
        let mut p = Program {
            insts: vec![i],
            vgrf_sizes: vec![1; 8],
            ..Default::default()
        };
        let progress = algebraic(&mut p);
        (progress, p.insts.remove(0))
    }

    fn becomes(i: Inst, want: Inst) {
        let (p, out) = one(i);
        assert!(p);
        assert_eq!(out, want);
    }

    fn unchanged(i: Inst) {
        let (p, out) = one(i.clone());
        assert!(!p);
        assert_eq!(out, i);
    }

    #[test]
    fn multiply_by_one_and_minus_one() {
        becomes(
            alu(Opcode::Mul, f(1), vec![f(0), Reg::imm_f(1.0)]),
            mov(f(1), f(0)),
        );
        becomes(
            alu(Opcode::Mul, f(1), vec![f(0), Reg::imm_f(-1.0)]),
            mov(f(1), f(0).negate()),
        );
        becomes(
            alu(Opcode::Mul, d(1), vec![d(0), Reg::imm(RegType::D, 1)]),
            mov(d(1), d(0)),
        );
        becomes(
            alu(Opcode::Mul, d(1), vec![d(0), Reg::imm(RegType::D, 0)]),
            mov(d(1), Reg::imm(RegType::D, 0)),
        );
    }

    #[test]
    fn float_multiply_by_zero_and_add_of_zero_stay() {
        // NaN * 0 is NaN, -0 + 0 is +0.
        unchanged(alu(Opcode::Mul, f(1), vec![f(0), Reg::imm_f(0.0)]));
        unchanged(alu(Opcode::Add, f(1), vec![f(0), Reg::imm_f(0.0)]));
        becomes(
            alu(Opcode::Add, f(1), vec![f(0), Reg::imm_f(-0.0)]),
            mov(f(1), f(0)),
        );
    }

    #[test]
    fn integer_add_of_zero_and_shift_by_zero() {
        let ud = |n| Reg::vgrf(n, RegType::UD);
        becomes(
            alu(Opcode::Add, ud(1), vec![ud(0), Reg::imm(RegType::UD, 0)]),
            mov(ud(1), ud(0)),
        );
        becomes(
            alu(Opcode::Shr, ud(1), vec![ud(0), Reg::imm(RegType::UD, 0)]),
            mov(ud(1), ud(0)),
        );
        unchanged(alu(
            Opcode::Shr,
            ud(1),
            vec![ud(0), Reg::imm(RegType::UD, 1)],
        ));
    }

    #[test]
    fn logic_with_equal_sources_or_neutral_immediates() {
        becomes(alu(Opcode::Or, d(1), vec![d(0), d(0)]), mov(d(1), d(0)));
        becomes(
            alu(
                Opcode::And,
                d(1),
                vec![d(0), Reg::imm(RegType::D, u32::MAX)],
            ),
            mov(d(1), d(0)),
        );
        // A negated logic source is a NOT on Gen8, not an arithmetic negate.
        unchanged(alu(
            Opcode::Or,
            d(1),
            vec![d(0).negate(), Reg::imm(RegType::D, 0)],
        ));
        // The flag result must stay.
        let mut and = alu(Opcode::And, d(1), vec![d(0), d(0)]);
        and.cmod = CondMod::Nz;
        unchanged(and);
    }

    #[test]
    fn saturated_immediate_is_clamped() {
        let mut m = mov(f(1), Reg::imm_f(2.5));
        m.sat = true;
        becomes(m, mov(f(1), Reg::imm_f(1.0)));
        let mut m = mov(f(1), Reg::imm_f(-3.0));
        m.sat = true;
        becomes(m, mov(f(1), Reg::imm_f(0.0)));
        let mut m = mov(f(1), Reg::imm_f(0.25));
        m.sat = true;
        becomes(m, mov(f(1), Reg::imm_f(0.25)));
    }

    #[test]
    fn sel_of_equal_sources_is_a_plain_mov() {
        let mut sel = alu(Opcode::Sel, f(1), vec![f(0), f(0)]);
        sel.pred = Some(true);
        becomes(sel, mov(f(1), f(0)));
    }

    #[test]
    fn saturated_max_with_nonpositive_constant_is_saturate() {
        let mut sel = alu(Opcode::Sel, f(1), vec![f(0), Reg::imm_f(0.0)]);
        sel.sat = true;
        sel.cmod = CondMod::Ge;
        let mut want = mov(f(1), f(0));
        want.sat = true;
        becomes(sel, want);
        // min(x, 1).sat differs for NaN (1 against 0): left alone.
        let mut sel = alu(Opcode::Sel, f(1), vec![f(0), Reg::imm_f(1.0)]);
        sel.sat = true;
        sel.cmod = CondMod::L;
        unchanged(sel);
    }

    #[test]
    fn cmp_of_negated_or_absolute_value_against_zero() {
        let mut cmp = alu(
            Opcode::Cmp,
            Reg::null(RegType::F),
            vec![f(0).absolute(), Reg::imm_f(0.0)],
        );
        cmp.cmod = CondMod::Nz;
        let mut want = cmp.clone();
        want.src[0] = f(0);
        becomes(cmp.clone(), want);
        cmp.cmod = CondMod::L;
        unchanged(cmp);
    }
}
