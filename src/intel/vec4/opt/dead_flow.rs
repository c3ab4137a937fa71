//! Empty control flow (Mesa's `dead_control_flow_eliminate`): an `else` directly followed by
//! its `endif`, and an `if` directly followed by its `endif`, do nothing but jump.
//! Translation leaves them when a branch's only contents (copies of values into the
//! registers of NIR's out-of-SSA phis) were coalesced away.

use super::super::ir::{Op, Program};

/// Removes empty `else` branches and empty `if` blocks; true on progress.
pub fn dead_control_flow_eliminate(prog: &mut Program) -> bool {
    let mut remove = vec![false; prog.insts.len()];
    let mut progress = false;
    for ip in 0..prog.insts.len().saturating_sub(1) {
        if prog.insts[ip + 1].op != Op::EndIf {
            continue;
        }
        match prog.insts[ip].op {
            Op::Else => {
                remove[ip] = true;
                progress = true;
            }
            // The flag test before it is dead code's to remove once nothing reads the flag.
            Op::If => {
                remove[ip] = true;
                remove[ip + 1] = true;
                progress = true;
            }
            _ => {}
        }
    }
    if progress {
        prog.remove_marked(&remove);
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{Opcode, RegType::F};
    use crate::intel::vec4::ir::{Dst, Inst, Src};

    #[test]
    fn empty_branches_go_and_full_ones_stay() {
        let flow = |op| Inst::new(op, Dst::null(F), vec![]);
        let mov = Inst::new(
            Op::Alu(Opcode::Mov),
            Dst::vgrf(0, F, 0xf),
            vec![Src::imm_f(1.0)],
        );
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                flow(Op::If),
                mov.clone(),
                flow(Op::Else), // empty else: goes
                flow(Op::EndIf),
                flow(Op::If), // empty if: goes with its endif
                flow(Op::EndIf),
                flow(Op::If),
                flow(Op::Else),
                mov,
                flow(Op::EndIf),
            ],
            num_vgrfs: 1,
        };
        assert!(dead_control_flow_eliminate(&mut p));
        let ops: Vec<Op> = p.insts.iter().map(|i| i.op).collect();
        assert_eq!(
            ops,
            vec![
                Op::If,
                Op::Alu(Opcode::Mov),
                Op::EndIf,
                Op::If,
                Op::Else,
                Op::Alu(Opcode::Mov),
                Op::EndIf
            ]
        );
    }
}
