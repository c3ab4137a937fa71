//! Saturate propagation within basic blocks.
//!
//! NIR's `fsat` arrives as `mov.sat dst, x` after the instruction that computed `x`. Most
//! float arithmetic can clamp its own result, so the clamp moves onto `x`'s writer and the
//! MOV becomes a plain copy, which copy propagation and coalescing then remove. As in Mesa's
//! `opt_saturate_propagation`, the writer must be the nearest write of `x` in the block and
//! write exactly the channels the MOV reads, and the MOVs are visited last to first.
//!
//! The clamp may move when no reader of `x` could see the difference:
//!
//! - the writer clamps already: the MOV's clamp is a no-op, whoever else reads `x`;
//! - every other read of `x` in the whole program is a `mov.sat` of the plain value between
//!   the writer and this MOV: those clamp again, which changes nothing. Counting reads over
//!   the whole program is conservative but needs no liveness: a read anywhere else, in a loop
//!   or after the MOV, keeps the clamp where it is.
//!
//! `mov.sat d, -x` is folded too when `x`'s writer can compute `-x` itself: ADD negates both
//! sources, MUL one factor, MAD its addend and one factor (an immediate is negated in place).
//! Float negation is exact, so the writer's new result is bit for bit the negated one.

use crate::intel::eu::{CondMod, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg, REG_SIZE};

/// Moves saturation onto the writers of saturated copies; returns whether any moved.
pub fn saturate_propagation(prog: &mut Program) -> bool {
    let reads = prog.vgrf_read_counts();
    let mut progress = false;
    for ip in (0..prog.insts.len()).rev() {
        if !is_candidate(&prog.insts[ip]) {
            continue;
        }
        let total_reads = reads
            .get(prog.insts[ip].src[0].nr as usize)
            .copied()
            .unwrap_or(0);
        progress |= propagate_one(prog, ip, total_reads);
    }
    progress
}

/// `mov.sat dst:F, x:F` or `mov.sat dst:F, -x:F` with `x` a plain virtual register read.
fn is_candidate(inst: &Inst) -> bool {
    let Some(s) = inst.src.first() else {
        return false;
    };
    inst.op == Op::Alu(Opcode::Mov)
        && inst.sat
        && inst.pred.is_none()
        && inst.cmod == CondMod::None
        && inst.dst.ty == RegType::F
        && s.ty == RegType::F
        && s.file == File::Vgrf
        && s.stride == 1
        && s.region.is_none()
        && !s.abs
}

/// Float operations that can clamp their result (Mesa's `can_do_saturate`, restricted to
/// what this backend emits).
fn can_do_sat(inst: &Inst) -> bool {
    matches!(
        inst.op,
        Op::Math(_)
            | Op::Alu(
                Opcode::Add
                    | Opcode::Mul
                    | Opcode::Mad
                    | Opcode::Lrp
                    | Opcode::Mov
                    | Opcode::Sel
                    | Opcode::Pln
                    | Opcode::Line
                    | Opcode::Rndd
                    | Opcode::Rnde
                    | Opcode::Rndu
                    | Opcode::Rndz
            )
    )
}

/// Whether `r` reads any part of the register the MOV at `inst` reads.
fn reads_value(r: &Reg, reader: &Inst, inst: &Inst) -> bool {
    let s = &inst.src[0];
    if r.file != File::Vgrf || r.nr != s.nr {
        return false;
    }
    let rs = r.offset / REG_SIZE;
    let re = rs + r.regs_read(reader.exec_size as u32).max(1);
    let ss = s.offset / REG_SIZE;
    let se = ss + s.regs_read(inst.exec_size as u32).max(1);
    rs < se && ss < re
}

/// A read of the value that a clamped writer does not disturb: `mov.sat` of the plain value.
fn is_plain_clamp(reader: &Inst) -> bool {
    reader.op == Op::Alu(Opcode::Mov)
        && reader.sat
        && reader.pred.is_none()
        && reader.cmod == CondMod::None
        && !reader.src[0].neg
        && !reader.src[0].abs
}

fn propagate_one(prog: &mut Program, ip: usize, total_reads: u32) -> bool {
    let inst = prog.insts[ip].clone();
    let s = inst.src[0];
    // Reads of the value between its writer and the MOV, all of them plain clamps.
    let mut clamps_between = 0;
    let mut other_reader = false;
    for scan_ip in (0..ip).rev() {
        let scan = &prog.insts[scan_ip];
        if scan.op.is_flow() {
            return false;
        }
        if scan.dst.file != File::Vgrf || scan.dst.nr != s.nr {
            let n = scan
                .src
                .iter()
                .filter(|r| reads_value(r, scan, &inst))
                .count();
            if n > 0 {
                if is_plain_clamp(scan) && n == 1 {
                    clamps_between += 1;
                } else {
                    other_reader = true;
                }
            }
            continue;
        }
        // SEL writes every channel whatever its predicate says.
        let full = scan.pred.is_none() || scan.op == Op::Alu(Opcode::Sel);
        let exact = full
            && scan.dst.offset == s.offset
            && scan.dst.ty == RegType::F
            && scan.dst.stride == 1
            && scan.dst.region.is_none()
            && scan.exec_size == inst.exec_size
            && scan.group == inst.group
            && scan.we_all == inst.we_all
            // A conditional modifier would test the clamped value instead.
            && scan.cmod == CondMod::None;
        if !exact || !can_do_sat(scan) {
            return false;
        }
        if scan.sat {
            // The value is clamped already: a plain MOV's clamp repeats it. (Of `-x` it
            // does not: that clamps [-1, 0] to 0.)
            if s.neg {
                return false;
            }
            prog.insts[ip].sat = false;
            return true;
        }
        // Nobody but plain clamps may see the clamped value, and nobody at all the negated
        // one.
        let only_clamps = !other_reader && total_reads == 1 + clamps_between;
        if !only_clamps || (s.neg && clamps_between > 0) {
            return false;
        }
        if s.neg {
            let Some(negated) = negated_sources(scan) else {
                return false;
            };
            prog.insts[scan_ip].src = negated;
            prog.insts[ip].src[0].neg = false;
        }
        prog.insts[scan_ip].sat = true;
        prog.insts[ip].sat = false;
        return true;
    }
    false
}

/// The sources that make `writer` compute the negation of its result, if it can.
fn negated_sources(writer: &Inst) -> Option<Vec<Reg>> {
    let Op::Alu(op) = writer.op else {
        return None;
    };
    // Which sources to negate: -(a + b) = -a + -b, -(a * b) = -a * b, and MAD (addend
    // first) -(c + a * b) = -c + -a * b.
    let which: &[usize] = match op {
        Opcode::Add => &[0, 1],
        Opcode::Mul => &[0],
        Opcode::Mad => &[0, 1],
        _ => return None,
    };
    let mut src = writer.src.clone();
    for &i in which {
        src[i] = negate(src.get(i)?)?;
    }
    Some(src)
}

/// `-r`: a register with its negate modifier flipped, or a float immediate with its sign.
fn negate(r: &Reg) -> Option<Reg> {
    match r.file {
        File::Imm if r.ty == RegType::F && !r.neg && !r.abs => {
            Some(Reg::imm(RegType::F, (r.imm as u32) ^ 0x8000_0000))
        }
        File::Imm => None,
        _ if !r.ty.is_float() => None,
        _ => Some(r.negate()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, alu, f};
    use super::*;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(saturate_propagation, insts)
    }

    fn unchanged(insts: Vec<Inst>) {
        testing::unchanged(saturate_propagation, insts)
    }
    use crate::intel::fs::ir::Reg;

    fn sat(mut i: Inst) -> Inst {
        i.sat = true;
        i
    }

    #[test]
    fn saturate_moves_onto_the_add() {
        // add v2, v0, v1; mov.sat v3, v2  =>  add.sat v2, v0, v1; mov v3, v2
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let mov = alu(Opcode::Mov, f(3), vec![f(2)]);
        let (p, out) = run(vec![add.clone(), sat(mov.clone())]);
        assert!(p);
        assert_eq!(out, vec![sat(add), mov]);
    }

    #[test]
    fn other_reader_of_the_value_blocks_it() {
        // Before or after the MOV, another reader would see the clamped value.
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let mov = sat(alu(Opcode::Mov, f(3), vec![f(2)]));
        let use_ = alu(Opcode::Mul, f(4), vec![f(2), f(0)]);
        unchanged(vec![add.clone(), mov.clone(), use_.clone()]);
        unchanged(vec![add, use_, mov]);
    }

    #[test]
    fn already_saturated_writer_makes_the_mov_plain() {
        let add = sat(alu(Opcode::Add, f(2), vec![f(0), f(1)]));
        let mov = alu(Opcode::Mov, f(3), vec![f(2)]);
        let (p, out) = run(vec![add.clone(), sat(mov.clone())]);
        assert!(p);
        assert_eq!(out, vec![add, mov]);
    }

    #[test]
    fn predicated_writer_flag_writer_or_other_exec_size_blocks_it() {
        let mov = sat(alu(Opcode::Mov, f(3), vec![f(2)]));
        let mut add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        add.pred = Some(false);
        unchanged(vec![add, mov.clone()]);
        let mut add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        add.cmod = CondMod::G;
        unchanged(vec![add, mov.clone()]);
        let mut add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        add.exec_size = 16;
        unchanged(vec![add, mov]);
    }

    #[test]
    fn negated_copy_of_a_clamped_value_keeps_its_clamp() {
        // sat(-x) of x in [0, 1] is 0 for every x but 0: the clamp is no repeat.
        unchanged(vec![
            sat(alu(Opcode::Add, f(2), vec![f(0), f(1)])),
            sat(alu(Opcode::Mov, f(3), vec![f(2).negate()])),
        ]);
    }

    #[test]
    fn predicated_sel_is_a_full_write() {
        let mut sel = alu(Opcode::Sel, f(2), vec![f(0), f(1)]);
        sel.pred = Some(false);
        let mov = alu(Opcode::Mov, f(3), vec![f(2)]);
        let (p, out) = run(vec![sel.clone(), sat(mov.clone())]);
        assert!(p);
        assert_eq!(out, vec![sat(sel), mov]);
    }

    #[test]
    fn negated_source_integer_writer_and_control_flow_block_it() {
        // A negated copy folds only into a writer that can negate its own result.
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        unchanged(vec![
            alu(Opcode::Frc, f(2), vec![f(0)]),
            sat(alu(Opcode::Mov, f(3), vec![f(2).negate()])),
        ]);
        // An integer immediate in the ADD cannot be negated as a float.
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), Reg::imm(RegType::D, 1)]),
            sat(alu(Opcode::Mov, f(3), vec![f(2).negate()])),
        ]);
        let and = alu(
            Opcode::And,
            Reg::vgrf(2, RegType::F),
            vec![Reg::vgrf(0, RegType::UD), Reg::vgrf(1, RegType::UD)],
        );
        unchanged(vec![and, sat(alu(Opcode::Mov, f(3), vec![f(2)]))]);
        unchanged(vec![
            add,
            Inst::new(Op::Else, 8, Reg::BAD, vec![]),
            sat(alu(Opcode::Mov, f(3), vec![f(2)])),
        ]);
    }
}

#[cfg(test)]
mod mesa_tests;
