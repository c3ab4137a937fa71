//! Conditional-modifier propagation for `if`: the flag an `if` tests is set by a
//! `mov.nz null, c.xxxx` of its condition; when `c.x` was computed by a compare whose flag
//! still stands, that compare already set the bit the `if` reads, and the mov goes (Mesa's
//! `opt_cmod_propagation` does the same for its vec4 code).
//!
//! An align16 `if` tests each vertex's x flag bit only (`(+f0.0.x) if`). The compare wrote
//! that bit from channel x, which computes `c.x`, and a compare's result is all ones or zero,
//! so `c.x != 0` is the bit itself. The mov also set bits y, z and w (from `c.x`); dropping
//! it is safe only when nothing reads those before the flag is written again: the `if` must
//! be the next instruction, and no flag write or control flow may lie between the compare
//! and the mov.

use crate::intel::eu::{CondMod, Opcode, RegType};

use super::super::ir::{replicate, File, Op, Program};

/// Removes `mov.nz` flag copies of compare results tested by the next `if`; true on
/// progress.
pub fn propagate_cmod(prog: &mut Program) -> bool {
    let mut gone = Vec::new();
    for ip in 1..prog.insts.len() {
        let mov = &prog.insts[ip];
        let tests_x = mov.op == Op::Alu(Opcode::Mov)
            && mov.cmod == CondMod::Nz
            && mov.dst.file == File::Null
            && mov.pred.is_none()
            && !mov.sat
            && matches!(mov.src[0].ty, RegType::D | RegType::UD)
            && mov.src[0].file == File::Vgrf
            && mov.src[0].swizzle == replicate(0)
            && !mov.src[0].negate
            && !mov.src[0].abs;
        let next_is_if = prog
            .insts
            .get(ip + 1)
            .is_some_and(|i| i.op == Op::If && i.pred.is_some());
        if !tests_x || !next_is_if {
            continue;
        }
        let c = mov.src[0].nr;
        // The last write of `c` before the mov, with no flag write or flow in between.
        for j in (0..ip).rev() {
            let i = &prog.insts[j];
            if i.op.is_flow() {
                break;
            }
            let writes_c = i.dst.file == File::Vgrf && i.dst.nr == c;
            if writes_c {
                if i.op == Op::Alu(Opcode::Cmp)
                    && i.cmod != CondMod::None
                    && i.pred.is_none()
                    && i.dst.writemask & 1 != 0
                {
                    gone.push(ip);
                }
                break;
            }
            if i.cmod != CondMod::None {
                break;
            }
        }
    }
    if gone.is_empty() {
        return false;
    }
    let mut k = 0;
    prog.insts.retain(|_| {
        k += 1;
        !gone.contains(&(k - 1))
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::RegType::{D, F, UD};
    use crate::intel::vec4::ir::{Dst, Inst, Src};

    fn cmp(d: u32, mask: u8) -> Inst {
        let mut i = Inst::new(
            Op::Alu(Opcode::Cmp),
            Dst::vgrf(d, D, mask),
            vec![Src::reg(File::Attr, 0, F), Src::imm_f(0.0)],
        );
        i.cmod = CondMod::L;
        i
    }

    fn test_x(v: u32, swizzle: u8) -> Inst {
        let mut i = Inst::new(
            Op::Alu(Opcode::Mov),
            Dst::null(D),
            vec![Src {
                swizzle,
                ..Src::vgrf(v, D)
            }],
        );
        i.cmod = CondMod::Nz;
        i
    }

    fn if_() -> Inst {
        let mut i = Inst::new(Op::If, Dst::null(UD), vec![]);
        i.pred = Some(false);
        i
    }

    fn run(insts: Vec<Inst>) -> (bool, String) {
        let mut p = Program {
            insts,
            num_vgrfs: 4,
        };
        (propagate_cmod(&mut p), p.to_string())
    }

    #[test]
    fn the_compare_sets_the_bit_the_if_tests() {
        let add = Inst::new(
            Op::Alu(Opcode::Add),
            Dst::vgrf(1, F, 0xf),
            vec![Src::reg(File::Attr, 0, F), Src::imm_f(1.0)],
        );
        let (progress, ir) = run(vec![cmp(0, 0x1), add, test_x(0, replicate(0)), if_()]);
        assert!(progress);
        assert_eq!(
            ir,
            "cmp.l v0.xD, attr0F, 0x0F\nadd v1F, attr0F, 0x3f800000F\n(+f0) if\n"
        );
    }

    #[test]
    fn another_component_an_intervening_flag_write_or_another_reader_keep_the_mov() {
        // The if reads the x bit, which the compare set from channel x, not from c.y.
        assert!(!run(vec![cmp(0, 0x3), test_x(0, replicate(1)), if_()]).0);
        // The compare did not write x.
        assert!(!run(vec![cmp(0, 0x2), test_x(0, replicate(0)), if_()]).0);
        // Another compare wrote the flag since.
        assert!(
            !run(vec![
                cmp(0, 0x1),
                cmp(1, 0x1),
                test_x(0, replicate(0)),
                if_()
            ])
            .0
        );
        // A predicated sel reads every bit the mov set.
        let mut sel = Inst::new(
            Op::Alu(Opcode::Sel),
            Dst::vgrf(2, F, 0xf),
            vec![Src::reg(File::Attr, 0, F), Src::imm_f(1.0)],
        );
        sel.pred = Some(false);
        assert!(!run(vec![cmp(0, 0x1), test_x(0, replicate(0)), sel, if_()]).0);
        // Not a compare: only a compare's result is the flag bit it set.
        let mul = Inst::new(
            Op::Alu(Opcode::Mul),
            Dst::vgrf(0, D, 0x1),
            vec![Src::reg(File::Attr, 0, D), Src::reg(File::Attr, 1, D)],
        );
        assert!(!run(vec![mul, test_x(0, replicate(0)), if_()]).0);
    }
}
