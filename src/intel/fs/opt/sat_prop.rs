//! Saturate propagation within basic blocks.
//!
//! NIR's `fsat` arrives as `mov.sat dst, x` after the instruction that computed `x`. Most
//! float arithmetic can clamp its own result, so when nothing else reads `x` the clamp moves
//! onto `x`'s writer and the MOV becomes a plain copy, which copy propagation and coalescing
//! then remove. As in Mesa's `opt_saturate_propagation`, the writer must be the nearest write
//! of `x` in the block and write exactly the channels the MOV reads.
//!
//! "Nothing else reads `x`" is counted over the whole program, which is conservative but
//! needs no liveness: every read of the register anywhere would see the clamped value.

use crate::intel::eu::{CondMod, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program};

/// Moves saturation onto the writers of saturated copies; returns whether any moved.
pub fn saturate_propagation(prog: &mut Program) -> bool {
    let reads = prog.vgrf_read_counts();
    let mut progress = false;
    for ip in 0..prog.insts.len() {
        let inst = &prog.insts[ip];
        if !is_candidate(inst) || reads.get(inst.src[0].nr as usize) != Some(&1) {
            continue;
        }
        if let Some(writer) = writer_of(prog, ip) {
            prog.insts[writer].sat = true;
            prog.insts[ip].sat = false;
            progress = true;
        }
    }
    progress
}

/// `mov.sat dst:F, x:F` with `x` a plain virtual register read.
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
        && !s.neg
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

/// The index of the instruction that can take over the saturation of the MOV at `ip`.
fn writer_of(prog: &Program, ip: usize) -> Option<usize> {
    let inst = &prog.insts[ip];
    let s = inst.src[0];
    for scan_ip in (0..ip).rev() {
        let scan = &prog.insts[scan_ip];
        if scan.op.is_flow() {
            return None;
        }
        if scan.dst.file != File::Vgrf || scan.dst.nr != s.nr {
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
        return (exact && can_do_sat(scan)).then_some(scan_ip);
    }
    None
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
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        unchanged(vec![
            add.clone(),
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
