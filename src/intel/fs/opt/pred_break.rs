//! Predicated jumps: an IF whose only content is a BREAK or CONTINUE becomes that jump,
//! predicated like the IF (the first half of Mesa's `opt_peephole_predicated_break`).
//!
//! ```text
//! (+f0) if
//!       break             =>      (+f0) break
//! endif
//! ```
//!
//! A BREAK or CONTINUE disables, until the loop ends or the next iteration begins, exactly the
//! channels that execute it; the IF makes those the channels whose flag bit passes, which is
//! what the predicate on the jump selects.

use crate::intel::fs::ir::{Op, Program};

/// Replaces `if; break|continue; endif` with a predicated jump; returns whether any changed.
pub fn predicated_break(prog: &mut Program) -> bool {
    let insts = &prog.insts;
    let mut remove = vec![false; insts.len()];
    let mut ifs = Vec::new();
    for ip in 0..insts.len().saturating_sub(2) {
        let (iff, jump, endif) = (&insts[ip], &insts[ip + 1], &insts[ip + 2]);
        let fits = iff.op == Op::If
            && iff.pred.is_some()
            && matches!(jump.op, Op::Break | Op::Continue)
            && jump.pred.is_none()
            && jump.exec_size == iff.exec_size
            && jump.group == iff.group
            && endif.op == Op::EndIf;
        if fits {
            remove[ip] = true;
            remove[ip + 2] = true;
            ifs.push(ip);
        }
    }
    if ifs.is_empty() {
        return false;
    }
    // The jump takes the IF's predicate.
    for ip in ifs {
        let (pred, flag) = (prog.insts[ip].pred, prog.insts[ip].flag_subnr);
        let jump = &mut prog.insts[ip + 1];
        jump.pred = pred;
        jump.flag_subnr = flag;
    }
    let mut ip = 0;
    prog.insts.retain(|_| {
        ip += 1;
        !remove[ip - 1]
    });
    true
}

#[cfg(test)]
mod tests {
    use super::super::testing;
    use super::super::testing::flow;
    use super::*;
    use crate::intel::eu::{Opcode, RegType};
    use crate::intel::fs::ir::{Inst, Reg};

    fn pred(mut i: Inst, inv: bool, flag: u8) -> Inst {
        i.pred = Some(inv);
        i.flag_subnr = flag;
        i
    }

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(predicated_break, insts)
    }

    #[test]
    fn if_break_endif_becomes_a_predicated_break() {
        for jump in [Op::Break, Op::Continue] {
            let (p, out) = run(vec![
                flow(Op::Do),
                pred(flow(Op::If), true, 1),
                flow(jump),
                flow(Op::EndIf),
                flow(Op::While),
            ]);
            assert!(p);
            assert_eq!(
                out,
                vec![flow(Op::Do), pred(flow(jump), true, 1), flow(Op::While)]
            );
        }
    }

    #[test]
    fn other_contents_or_an_else_keep_the_if() {
        let add = Inst::new(
            Op::Alu(Opcode::Add),
            8,
            Reg::vgrf(0, RegType::F),
            vec![Reg::vgrf(1, RegType::F), Reg::vgrf(2, RegType::F)],
        );
        for insts in [
            vec![
                flow(Op::Do),
                pred(flow(Op::If), false, 0),
                add.clone(),
                flow(Op::Break),
                flow(Op::EndIf),
                flow(Op::While),
            ],
            vec![
                flow(Op::Do),
                pred(flow(Op::If), false, 0),
                flow(Op::Break),
                flow(Op::Else),
                add,
                flow(Op::EndIf),
                flow(Op::While),
            ],
            vec![
                flow(Op::Do),
                pred(flow(Op::If), false, 0),
                pred(flow(Op::Break), false, 1),
                flow(Op::EndIf),
                flow(Op::While),
            ],
        ] {
            let (p, out) = run(insts.clone());
            assert!(!p);
            assert_eq!(out, insts);
        }
    }
}
