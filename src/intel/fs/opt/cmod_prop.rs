//! Conditional-modifier propagation within basic blocks.
//!
//! A flag test of a value just computed, `cmp.nz null, x, 0`, `mov.l null, x` or
//! `and.nz null, x, 1` on a boolean, costs an instruction that the instruction writing `x`
//! can usually absorb: ALU instructions set the flag from their own (saturated) result when
//! they carry a conditional modifier. Following Mesa's `opt_cmod_propagation`, the pass
//! visits each block's tests last to first, looks back to the instruction that wrote the
//! tested register and
//!
//! - drops the test when that writer is a CMP on the same flag and the test means the same on
//!   a CMP result (0 or ~0 whatever its type): `.nz`, unsigned `.g`, signed `.l`;
//! - drops the test when the writer already sets the same flag with the same condition;
//! - otherwise moves the condition onto the writer, when the writer can take one and nothing
//!   in between reads the flag the writer would now change; a test of `-x` takes the
//!   swapped condition (`-x < 0` is `x > 0`).
//!
//! A float `cmp.cond null, a, b` with `b` not zero is matched instead with an earlier
//! `add d, a, -b` (or `add d, -a, b` with the condition swapped): the ADD computes the same
//! difference, whose sign and zero-ness the CMP tests.
//!
//! The two must cover exactly the same channels (execution size, channel group and
//! write-mask-all) and see the value with the same meaning: the rules on types follow Mesa's,
//! narrowed where a type conversion could tell the two apart. Only flag writes and reads of
//! the flag bits the test writes stand in the way; `sel.cond` writes no flag on the
//! generations this backend compiles for (Gen7+).
//!
//! Mesa also turns `not.nz null, x` into `.z` on the OR or AND that wrote `x`. That holds
//! only when `x` is a boolean (0 or ~0): `~x != 0` is `x != ~0`, not `x == 0`. The IR does
//! not say which values are booleans, so this pass leaves NOT tests alone.

use crate::intel::eu::{CondMod, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg, REG_SIZE};

/// Propagates conditional modifiers as described in the module documentation; returns
/// whether any test went.
pub fn cmod_propagation(prog: &mut Program) -> bool {
    let reads = prog.vgrf_read_counts();
    let mut removed = vec![false; prog.insts.len()];
    let mut progress = false;
    for ip in (0..prog.insts.len()).rev() {
        let dst = prog.insts[ip].dst;
        // A test whose register result nobody reads only produces the flag.
        let flag_only = dst.file == File::Null
            || (dst.file == File::Vgrf && reads.get(dst.nr as usize) == Some(&0));
        if !flag_only || !is_candidate(&prog.insts[ip]) {
            continue;
        }
        let inst = &prog.insts[ip];
        let done = if inst.op == Op::Alu(Opcode::Cmp) && !is_zero(&inst.src[1]) {
            inst.src[0].ty.is_float() && propagate_cmp_to_add(prog, ip)
        } else {
            propagate_one(prog, ip)
        };
        if done {
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
        && s.region.is_none();
    // The swapped condition describes `-x` exactly only in float: integer negation wraps
    // (and is 33 bits wide on unsigned sources).
    let neg_ok = !s.neg || s.ty.is_float();
    shape
        && neg_ok
        && match op {
            Opcode::Mov => inst.src.len() == 1 && !s.abs,
            // An absolute value only in a comparison with another value, which goes to an
            // ADD reading the same absolute value.
            Opcode::Cmp => inst.src.len() == 2 && !(s.abs && is_zero(&inst.src[1])),
            Opcode::And => {
                inst.src.len() == 2
                    && inst.cmod == CondMod::Nz
                    && is_int_one(&inst.src[1])
                    && !s.neg
                    && !s.abs
            }
            _ => false,
        }
}

/// The flag bits (one per eight channels, four 16-bit subregisters) that `inst`'s predicate
/// or condition reaches.
fn flag_mask(inst: &Inst) -> u32 {
    let start = inst.flag_subnr as u32 * 16 + inst.group as u32;
    let end = start + inst.exec_size as u32;
    let bits = end.div_ceil(8) - start / 8;
    ((1u32 << bits) - 1) << (start / 8)
}

/// The flag bits `inst` writes. A Gen6+ `sel.cond` writes none (its condition picks the
/// source), and this backend starts at Gen7.
fn flags_written(inst: &Inst) -> u32 {
    if inst.cmod == CondMod::None || inst.op == Op::Alu(Opcode::Sel) {
        0
    } else {
        flag_mask(inst)
    }
}

fn flags_read(inst: &Inst) -> u32 {
    if inst.pred.is_some() {
        flag_mask(inst)
    } else {
        0
    }
}

/// Whether `w`, written by `writer`, overlaps the registers that `r` reads in `reader`.
fn writes_into(writer: &Inst, reader: &Inst, r: &Reg) -> bool {
    let w = &writer.dst;
    if w.file != File::Vgrf || r.file != File::Vgrf || w.nr != r.nr {
        return false;
    }
    let ws = w.offset / REG_SIZE;
    let we = ws + writer.regs_written().max(1);
    let rs = r.offset / REG_SIZE;
    let re = rs + r.regs_read(reader.exec_size as u32).max(1);
    ws < re && rs < we
}

/// Whether `writer` writes every channel of its destination, contiguously, in the channels
/// `test` runs (exec size, group, write-mask-all).
fn full_write_for(writer: &Inst, test: &Inst) -> bool {
    writer.pred.is_none()
        && writer.dst.stride == 1
        && writer.dst.region.is_none()
        && writer.exec_size == test.exec_size
        && writer.group == test.group
        && writer.we_all == test.we_all
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
            | Opcode::Line
            | Opcode::Lrp
            | Opcode::Mad
            | Opcode::Mov
            | Opcode::Mul
            | Opcode::Not
            | Opcode::Or
            | Opcode::Pln
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

/// `cmod` with its operands exchanged: `a < b` is `b > a`, so `-x < 0` is `x > 0`.
fn swapped(cmod: CondMod) -> CondMod {
    match cmod {
        CondMod::G => CondMod::L,
        CondMod::L => CondMod::G,
        CondMod::Ge => CondMod::Le,
        CondMod::Le => CondMod::Ge,
        c => c,
    }
}

fn is_eq_test(c: CondMod) -> bool {
    matches!(c, CondMod::Z | CondMod::Nz)
}

/// Whether the test `test` of `read` sees the same flag as the writer's own condition on
/// its result of type `written` would.
fn same_meaning(test: &Inst, read: RegType, written: RegType) -> bool {
    let eq = is_eq_test(test.cmod);
    if test.op == Op::Alu(Opcode::Cmp) {
        // A CMP compares its source, in the source's type, with zero.
        return if written.is_float() {
            read == written
        } else {
            !read.is_float() && read.size() == written.size() && (read == written || eq)
        };
    }
    // A MOV tests its destination, converted from the source.
    let out = test.dst.ty;
    if written.is_float() {
        // Float to float no narrower: zero, sign and order survive; to integer they do not
        // ((-1, 1) truncates to 0).
        read == written && out.is_float() && out.size() >= written.size()
    } else {
        // Integer reinterpretation keeps zero-ness, order only with the same signedness;
        // to float, both survive.
        let read_ok = !read.is_float() && read.size() == written.size() && (read == written || eq);
        let out_ok = out.is_float()
            || (out.size() >= written.size() && (eq || out.is_signed() == written.is_signed()));
        read_ok && out_ok
    }
}

/// Whether a test `test` of a CMP result (0 or ~0 in its type, the CMP's condition in the
/// flag) repeats what the flag holds.
fn repeats_cmp(test: &Inst, read: RegType) -> bool {
    // Read without conversion: a CMP compares its source type; a MOV only into the same
    // type (~0 as a float is a NaN, which a conversion to integer may turn into 0).
    let plain = test.op == Op::Alu(Opcode::Cmp) || test.dst.ty == read;
    plain
        && match test.cmod {
            // Non-zero bits, or a NaN: `.nz` is the one condition true for NaN.
            CondMod::Nz => true,
            CondMod::G => read == RegType::UD,
            CondMod::L => read == RegType::D,
            _ => false,
        }
}

/// Mesa's main case: the test at `ip` of a value against zero. Returns whether the test
/// can go (the writer possibly changed).
fn propagate_one(prog: &mut Program, ip: usize) -> bool {
    let inst = prog.insts[ip].clone();
    let src = inst.src[0];
    let fw = flags_written(&inst);
    let mut read_flag = false;
    for scan_ip in (0..ip).rev() {
        let scan = &prog.insts[scan_ip];
        if scan.op.is_flow() {
            return false;
        }
        if !writes_into(scan, &inst, &src) {
            if flags_written(scan) & fw != 0 {
                return false;
            }
            read_flag |= flags_read(scan) & fw != 0;
            continue;
        }
        let sw = flags_written(scan);
        if sw != 0 && sw != fw {
            return false;
        }
        // The nearest writer of the tested value: it must write exactly what is read.
        if !full_write_for(scan, &inst)
            || scan.dst.offset != src.offset
            || scan.dst.ty.size() != src.ty.size()
        {
            return false;
        }
        let is_cmp = matches!(scan.op, Op::Alu(Opcode::Cmp | Opcode::Cmpn));
        if is_cmp {
            // A CMP's flag is the comparison of its sources, not a test of its result.
            return scan.op == Op::Alu(Opcode::Cmp)
                && sw != 0
                && !src.neg
                && repeats_cmp(&inst, src.ty);
        }
        if inst.op == Op::Alu(Opcode::And) || !same_meaning(&inst, src.ty, scan.dst.ty) {
            return false;
        }
        // Only for opcodes whose condition tests their own result: SEL's condition compares
        // its sources (sel.l is a minimum), so `sel.l x; cmp.l null, x, 0` is no repeat.
        if !can_do_cmod(scan) {
            return false;
        }
        let cond = if src.neg {
            swapped(inst.cmod)
        } else {
            inst.cmod
        };
        if scan.cmod == cond {
            return true;
        }
        // The writer's own condition (on the same flag) may be replaced when nobody reads
        // it before the test would overwrite it anyway.
        if read_flag {
            return false;
        }
        let scan = &mut prog.insts[scan_ip];
        scan.cmod = cond;
        scan.flag_subnr = inst.flag_subnr;
        return true;
    }
    false
}

/// `a` and `b` are the same operand, one negated (a register with the other negate
/// modifier, or a float immediate of the other sign).
fn negative_equals(a: &Reg, b: &Reg) -> bool {
    if a.file == File::Imm && b.file == File::Imm {
        return a.ty == RegType::F
            && b.ty == RegType::F
            && !a.neg
            && !b.neg
            && !a.abs
            && !b.abs
            && a.imm as u32 == (b.imm as u32) ^ 0x8000_0000;
    }
    a.file != File::Imm && a.negate() == *b
}

/// `cmp.cond null, a, b` (float, `b` not zero) at `ip` against an earlier ADD of `a` and
/// `-b`: the ADD takes the condition and the CMP goes.
fn propagate_cmp_to_add(prog: &mut Program, ip: usize) -> bool {
    let inst = prog.insts[ip].clone();
    let (a, b) = (&inst.src[0], &inst.src[1]);
    let fw = flags_written(&inst);
    let mut read_flag = false;
    for scan_ip in (0..ip).rev() {
        let scan = &prog.insts[scan_ip];
        // A write of an operand (the matching ADD's own included) means the CMP compares
        // other values than the ADD summed.
        if scan.op.is_flow() || writes_into(scan, &inst, a) || writes_into(scan, &inst, b) {
            return false;
        }
        if scan.op == Op::Alu(Opcode::Add) && full_write_for(scan, &inst) && scan.src.len() == 2 {
            let (x, y) = (&scan.src[0], &scan.src[1]);
            // add x, y computes a - b, or b - a (the condition then swaps).
            let same = (a == x && negative_equals(b, y)) || (a == y && negative_equals(b, x));
            let negated = (negative_equals(a, x) && b == y) || (negative_equals(a, y) && b == x);
            let sw = flags_written(scan);
            // The difference in the compared type: the sum must be written as that type.
            if (same || negated) && (sw == 0 || sw == fw) && scan.dst.ty == a.ty {
                let cond = if negated {
                    swapped(inst.cmod)
                } else {
                    inst.cmod
                };
                // The flag tests the clamped sum: for a float, clamping keeps `> 0` and
                // `<= 0` and nothing else.
                if scan.sat && !matches!(cond, CondMod::G | CondMod::Le) {
                    return false;
                }
                if !can_do_cmod(scan) {
                    return false;
                }
                if scan.cmod == cond {
                    return true;
                }
                if read_flag || scan.cmod != CondMod::None {
                    return false;
                }
                let scan = &mut prog.insts[scan_ip];
                scan.cmod = cond;
                scan.flag_subnr = inst.flag_subnr;
                return true;
            }
        }
        if flags_written(scan) & fw != 0 {
            return false;
        }
        read_flag |= flags_read(scan) & fw != 0;
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
    fn negated_float_test_swaps_the_condition() {
        // add v2, v0, v1; cmp.l null, -v2, 0.0  =>  add.g v2, v0, v1
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let mut t = cmp_zero(f(2), CondMod::L);
        t.src[0] = f(2).negate();
        let (p, out) = run(vec![add.clone(), t]);
        assert!(p);
        assert_eq!(out, vec![with_cmod(add, CondMod::G)]);
    }

    #[test]
    fn flag_traffic_on_other_subregisters_does_not_block_it() {
        // A flag write on f0.1 between an ADD and a test on f0.0.
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let mut other = cmp_zero(f(5), CondMod::Z);
        other.flag_subnr = 1;
        let (p, out) = run(vec![
            add.clone(),
            other.clone(),
            cmp_zero(f(2), CondMod::Ge),
        ]);
        assert!(p);
        assert_eq!(out, vec![with_cmod(add.clone(), CondMod::Ge), other]);
        // Channels 16-31 on f0.0 use f0.1's bits: they block a test on f0.1.
        let mut upper = cmp_zero(f(5), CondMod::Z);
        upper.exec_size = 16;
        upper.group = 16;
        let mut t = cmp_zero(f(2), CondMod::Ge);
        t.flag_subnr = 1;
        unchanged(vec![add, upper, t]);
    }

    #[test]
    fn compare_goes_to_the_add_of_the_same_operands_only() {
        // add v2, v0, -v1; cmp.l null, v0, v1  =>  add.l v2, v0, -v1
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1).negate()]);
        let test = with_cmod(
            alu(Opcode::Cmp, Reg::null(RegType::F), vec![f(0), f(1)]),
            CondMod::L,
        );
        let (p, out) = run(vec![add.clone(), test.clone()]);
        assert!(p);
        assert_eq!(out, vec![with_cmod(add.clone(), CondMod::L)]);
        // v0 written again in between: the CMP compares another value.
        unchanged(vec![add, alu(Opcode::Mov, f(0), vec![f(5)]), test.clone()]);
        // The ADD overwrites its own operand.
        unchanged(vec![
            alu(Opcode::Add, f(0), vec![f(0), f(1).negate()]),
            test,
        ]);
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
        // -x of an integer wraps at the most negative value: the swapped condition would
        // not describe it.
        let mut t = cmp_zero(d(2), CondMod::Ge);
        t.src[0] = d(2).negate();
        unchanged(vec![alu(Opcode::Add, d(2), vec![d(0), d(1)]), t]);
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
