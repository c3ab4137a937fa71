//! Conditional-modifier propagation within basic blocks.
//!
//! A flag test of a value just computed, `cmp.nz null, x, 0`, `mov.nz null, x` or
//! `and.nz null, x, 1` on a boolean, costs an instruction that the instruction writing `x`
//! can usually absorb: ALU instructions set the flag from their own result when they carry a
//! conditional modifier. The pass looks back from each such test to the instruction that wrote
//! the tested register and
//!
//! - drops the test when that writer is a CMP and the test is `.nz` on an integer reading
//!   (a CMP result is 0 or ~0 whatever its type, and the CMP already put the same bits in the
//!   flag);
//! - drops the test when the writer already sets the same flag with the same condition;
//! - otherwise moves the condition onto the writer, when the writer can take one and nothing
//!   in between reads the flag the writer would now change.
//!
//! The two must cover exactly the same channels (execution size, channel group and
//! write-mask-all) and see the value with the same meaning: the rules on types follow Mesa's
//! `opt_cmod_propagation`, restricted to the cases where the flag is provably the same bits.

use crate::intel::eu::{CondMod, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg, REG_SIZE};

/// Propagates conditional modifiers as described in the module documentation; returns
/// whether any test went.
pub fn cmod_propagation(prog: &mut Program) -> bool {
    let reads = prog.vgrf_read_counts();
    let mut removed = vec![false; prog.insts.len()];
    let mut progress = false;
    for ip in 0..prog.insts.len() {
        let dst = prog.insts[ip].dst;
        // A test whose register result nobody reads only produces the flag.
        let flag_only = dst.file == File::Null
            || (dst.file == File::Vgrf && reads.get(dst.nr as usize) == Some(&0));
        if !flag_only || !is_candidate(&prog.insts[ip]) {
            continue;
        }
        if propagate_one(prog, ip, &removed) {
            removed[ip] = true;
            progress = true;
        }
    }
    if progress {
        let mut ip = 0;
        prog.insts.retain(|_| {
            ip += 1;
            !removed[ip - 1]
        });
    }
    progress
}

/// An immediate zero (either zero of a float type).
fn is_zero(r: &Reg) -> bool {
    r.file == File::Imm
        && !r.neg
        && !r.abs
        && (r.imm as u32 == 0 || (r.ty == RegType::F && r.imm as u32 == 0x8000_0000))
}

fn is_int_one(r: &Reg) -> bool {
    r.file == File::Imm && !r.ty.is_float() && !r.neg && !r.abs && r.imm as u32 == 1
}

/// A flag test that another instruction may absorb (its destination is checked by the
/// caller).
fn is_candidate(inst: &Inst) -> bool {
    let Op::Alu(op) = inst.op else {
        return false;
    };
    let Some(s) = inst.src.first() else {
        return false;
    };
    let shape = inst.pred.is_none()
        && !inst.sat
        && inst.cmod != CondMod::None
        && s.file == File::Vgrf
        && s.stride == 1
        && s.region.is_none()
        && !s.neg
        && !s.abs;
    shape
        && match op {
            Opcode::Mov => inst.src.len() == 1 && inst.cmod == CondMod::Nz,
            Opcode::Cmp => inst.src.len() == 2 && is_zero(&inst.src[1]),
            Opcode::And => {
                inst.src.len() == 2 && inst.cmod == CondMod::Nz && is_int_one(&inst.src[1])
            }
            _ => false,
        }
}

/// Whether `w`, written by `writer`, overlaps the registers that `r` reads in `reader`.
fn writes_into(writer: &Inst, reader: &Inst, r: &Reg) -> bool {
    let w = &writer.dst;
    if w.file != File::Vgrf || w.nr != r.nr {
        return false;
    }
    let ws = w.offset / REG_SIZE;
    let we = ws + writer.regs_written().max(1);
    let rs = r.offset / REG_SIZE;
    let re = rs + r.regs_read(reader.exec_size as u32).max(1);
    ws < re && rs < we
}

/// Opcodes whose conditional modifier tests their own result.
fn can_do_cmod(inst: &Inst) -> bool {
    let Op::Alu(op) = inst.op else {
        return false;
    };
    let op_ok = matches!(
        op,
        Opcode::Add
            | Opcode::And
            | Opcode::Asr
            | Opcode::Avg
            | Opcode::Frc
            | Opcode::Lrp
            | Opcode::Mad
            | Opcode::Mov
            | Opcode::Mul
            | Opcode::Not
            | Opcode::Or
            | Opcode::Rndd
            | Opcode::Rnde
            | Opcode::Rndu
            | Opcode::Rndz
            | Opcode::Shl
            | Opcode::Shr
            | Opcode::Xor
    );
    // Negating an unsigned source produces a 33-bit value in the accumulator, from which the
    // flag is computed; a conversion between integer and float tests a value of another type
    // than the one written. Integer multiplies leave the flags undefined.
    let int_mul = op == Opcode::Mul && !inst.dst.ty.is_float();
    let sources_ok = inst.src.iter().all(|s| {
        let neg_unsigned = s.neg && !s.ty.is_signed();
        !neg_unsigned && s.ty.is_float() == inst.dst.ty.is_float()
    });
    op_ok && !int_mul && sources_ok
}

/// Whether a test of `read` (as `test` reads it) sees the same flag as the writer's own
/// condition on `written` would.
fn same_meaning(test: &Inst, read: RegType, written: RegType) -> bool {
    let Op::Alu(op) = test.op else {
        return false;
    };
    let eq_test = matches!(test.cmod, CondMod::Z | CondMod::Nz);
    if written.is_float() {
        // Float results: the test must read and compare them as the same float type.
        return read == written && (op == Opcode::Cmp || test.dst.ty == written);
    }
    // Integers: zero-ness does not depend on signedness, order does. A CMP compares in its
    // sources' type whatever its destination's; a MOV tests its destination.
    !read.is_float()
        && read.size() == written.size()
        && (read == written || eq_test)
        && (op == Opcode::Cmp || (!test.dst.ty.is_float() && test.dst.ty.size() == written.size()))
}

fn propagate_one(prog: &mut Program, ip: usize, removed: &[bool]) -> bool {
    let inst = prog.insts[ip].clone();
    let src = inst.src[0];
    let mut read_flag = false;
    for scan_ip in (0..ip).rev() {
        if removed[scan_ip] {
            continue;
        }
        let scan = &prog.insts[scan_ip];
        if scan.op.is_flow() {
            return false;
        }
        if !writes_into(scan, &inst, &src) {
            if scan.cmod != CondMod::None {
                return false;
            }
            read_flag |= scan.pred.is_some();
            continue;
        }
        // The nearest writer of the tested value: it must write exactly what is read.
        let exact = scan.pred.is_none()
            && scan.dst.offset == src.offset
            && scan.dst.stride == 1
            && scan.dst.region.is_none()
            && scan.dst.ty.size() == src.ty.size()
            && scan.exec_size == inst.exec_size
            && scan.group == inst.group
            && scan.we_all == inst.we_all
            && !scan.sat;
        if !exact {
            return false;
        }
        if scan.cmod != CondMod::None && scan.flag_subnr != inst.flag_subnr {
            return false;
        }
        let is_cmp = matches!(scan.op, Op::Alu(Opcode::Cmp | Opcode::Cmpn));
        if is_cmp {
            // A CMP writes ~0 or 0 and the same condition to the flag.
            let int_test = !src.ty.is_float() && !inst.dst.ty.is_float();
            return scan.op == Op::Alu(Opcode::Cmp)
                && inst.cmod == CondMod::Nz
                && int_test
                && scan.cmod != CondMod::None;
        }
        if inst.op == Op::Alu(Opcode::And) {
            return false;
        }
        if !same_meaning(&inst, src.ty, scan.dst.ty) {
            return false;
        }
        // Only for opcodes whose condition tests their own result: SEL's condition compares
        // its sources (sel.l is a minimum), so `sel.l x; cmp.l null, x, 0` is no repeat.
        if !can_do_cmod(scan) {
            return false;
        }
        if scan.cmod == inst.cmod {
            return true;
        }
        if read_flag {
            return false;
        }
        let scan = &mut prog.insts[scan_ip];
        scan.cmod = inst.cmod;
        scan.flag_subnr = inst.flag_subnr;
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, alu, f};
    use super::*;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(cmod_propagation, insts)
    }

    fn unchanged(insts: Vec<Inst>) {
        testing::unchanged(cmod_propagation, insts)
    }

    fn d(nr: u32) -> Reg {
        Reg::vgrf(nr, RegType::D)
    }

    fn with_cmod(mut i: Inst, c: CondMod) -> Inst {
        i.cmod = c;
        i
    }

    fn cmp_zero(src: Reg, c: CondMod) -> Inst {
        with_cmod(
            alu(
                Opcode::Cmp,
                Reg::null(src.ty),
                vec![src, Reg::imm(src.ty, 0)],
            ),
            c,
        )
    }

    #[test]
    fn cmp_against_zero_goes_into_the_add() {
        // add v2, v0, v1; cmp.ge null, v2, 0.0  =>  add.ge v2, v0, v1
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let (p, out) = run(vec![add.clone(), cmp_zero(f(2), CondMod::Ge)]);
        assert!(p);
        assert_eq!(out, vec![with_cmod(add, CondMod::Ge)]);
    }

    #[test]
    fn unread_comparison_result_counts_as_a_flag_only_test() {
        // and v2, v0, 3; cmp.z v4, v2, 0 (v4 unread)  =>  and.z v2, v0, 3
        let and = alu(Opcode::And, d(2), vec![d(0), Reg::imm(RegType::D, 3)]);
        let mut test = cmp_zero(d(2), CondMod::Z);
        test.dst = d(4);
        let (p, out) = run(vec![and.clone(), test.clone()]);
        assert!(p);
        assert_eq!(out, vec![with_cmod(and.clone(), CondMod::Z)]);
        // Read afterwards: the register result is needed.
        let use_ = alu(Opcode::Add, d(5), vec![d(4), d(0)]);
        unchanged(vec![and, test, use_]);
    }

    #[test]
    fn mov_nz_of_a_cmp_result_goes() {
        // cmp.l v2:F, v0, v1; mov.nz null:D, v2:D  =>  the CMP alone
        let cmp = with_cmod(alu(Opcode::Cmp, f(2), vec![f(0), f(1)]), CondMod::L);
        let test = with_cmod(
            alu(Opcode::Mov, Reg::null(RegType::D), vec![d(2)]),
            CondMod::Nz,
        );
        let (p, out) = run(vec![cmp.clone(), test]);
        assert!(p);
        assert_eq!(out, vec![cmp]);
    }

    #[test]
    fn and_nz_one_of_a_cmp_result_goes_but_not_of_other_values() {
        let cmp = with_cmod(alu(Opcode::Cmp, d(2), vec![d(0), d(1)]), CondMod::G);
        let and = with_cmod(
            alu(
                Opcode::And,
                Reg::null(RegType::D),
                vec![d(2), Reg::imm(RegType::D, 1)],
            ),
            CondMod::Nz,
        );
        let (p, out) = run(vec![cmp.clone(), and.clone()]);
        assert!(p);
        assert_eq!(out, vec![cmp]);
        unchanged(vec![alu(Opcode::Add, d(2), vec![d(0), d(1)]), and]);
    }

    #[test]
    fn mov_nz_of_an_and_goes_into_the_and() {
        let and = alu(Opcode::And, d(2), vec![d(0), d(1)]);
        let test = with_cmod(
            alu(Opcode::Mov, Reg::null(RegType::D), vec![d(2)]),
            CondMod::Nz,
        );
        let (p, out) = run(vec![and.clone(), test]);
        assert!(p);
        assert_eq!(out, vec![with_cmod(and, CondMod::Nz)]);
    }

    #[test]
    fn same_condition_already_set_makes_the_test_redundant() {
        let add = with_cmod(alu(Opcode::Add, f(2), vec![f(0), f(1)]), CondMod::Nz);
        let (p, out) = run(vec![add.clone(), cmp_zero(f(2), CondMod::Nz)]);
        assert!(p);
        assert_eq!(out, vec![add]);
    }

    #[test]
    fn sel_condition_is_not_a_test_of_its_result() {
        // sel.l v2, v0, v1 is min(v0, v1) and sets the flag from v0 < v1, not from v2 < 0:
        // the test of v2 must stay (glsl-fs-atan-3 went wrong without this).
        let sel = with_cmod(alu(Opcode::Sel, f(2), vec![f(0), f(1)]), CondMod::L);
        unchanged(vec![sel, cmp_zero(f(2), CondMod::L)]);
    }

    #[test]
    fn intervening_flag_write_or_read_blocks_it() {
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let other = cmp_zero(f(5), CondMod::Z);
        unchanged(vec![add.clone(), other, cmp_zero(f(2), CondMod::Ge)]);
        let mut sel = alu(Opcode::Sel, f(6), vec![f(0), f(1)]);
        sel.pred = Some(false);
        unchanged(vec![add, sel, cmp_zero(f(2), CondMod::Ge)]);
    }

    #[test]
    fn intervening_write_of_the_value_blocks_it() {
        // The nearest writer is a predicated MOV: a partial write.
        let mut mov = alu(Opcode::Mov, f(2), vec![f(3)]);
        mov.pred = Some(false);
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            mov,
            cmp_zero(f(2), CondMod::Ge),
        ]);
    }

    #[test]
    fn different_exec_size_or_group_blocks_it() {
        let mut add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        add.exec_size = 16;
        unchanged(vec![add, cmp_zero(f(2), CondMod::Ge)]);
        let mut test = cmp_zero(f(2), CondMod::Ge);
        test.group = 8;
        unchanged(vec![alu(Opcode::Add, f(2), vec![f(0), f(1)]), test]);
    }

    #[test]
    fn nonzero_operand_negated_source_or_predicated_test_are_left() {
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let mut t = cmp_zero(f(2), CondMod::Ge);
        t.src[1] = Reg::imm_f(1.0);
        unchanged(vec![add.clone(), t]);
        let mut t = cmp_zero(f(2), CondMod::Ge);
        t.src[0] = f(2).negate();
        unchanged(vec![add.clone(), t]);
        let mut t = cmp_zero(f(2), CondMod::Ge);
        t.pred = Some(false);
        unchanged(vec![add, t]);
    }

    #[test]
    fn type_changes_and_integer_multiplies_are_left() {
        // A float result tested as an integer: -0.0 is nonzero bits but a zero float.
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        unchanged(vec![
            add,
            with_cmod(
                alu(Opcode::Mov, Reg::null(RegType::D), vec![d(2)]),
                CondMod::Nz,
            ),
        ]);
        let mul = alu(Opcode::Mul, d(2), vec![d(0), d(1)]);
        unchanged(vec![mul, cmp_zero(d(2), CondMod::Nz)]);
        // Integer order depends on signedness.
        let add = alu(
            Opcode::Add,
            Reg::vgrf(2, RegType::UD),
            vec![Reg::vgrf(0, RegType::UD), Reg::vgrf(1, RegType::UD)],
        );
        unchanged(vec![add, cmp_zero(d(2), CondMod::L)]);
    }

    #[test]
    fn control_flow_ends_the_search() {
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
            cmp_zero(f(2), CondMod::Ge),
        ]);
    }

    #[test]
    fn cmp_writer_keeps_other_tests() {
        // A CMP's flag is the comparison of its sources, not a test of its result.
        let cmp = with_cmod(alu(Opcode::Cmp, d(2), vec![d(0), d(1)]), CondMod::L);
        unchanged(vec![cmp, cmp_zero(d(2), CondMod::Z)]);
    }
}

#[cfg(test)]
mod mesa_tests;
