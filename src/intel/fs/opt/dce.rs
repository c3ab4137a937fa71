//! Dead-code elimination: ALU instructions writing a virtual register that no instruction
//! reads anywhere in the program.
//!
//! Whole-program reference counting rather than liveness: it is linear, needs no CFG, and is
//! sound regardless of control flow (a register nobody reads can hold anything). Chains of
//! dead values disappear over the rounds of [`super::optimize`].

use crate::intel::eu::CondMod;

use crate::intel::fs::ir::{File, Op, Program};

/// Removes unread ALU and math results; returns whether any instruction went.
pub fn dead_code_eliminate(prog: &mut Program) -> bool {
    let mut read = vec![false; prog.vgrf_sizes.len()];
    for inst in &prog.insts {
        for s in &inst.src {
            if s.file == File::Vgrf {
                if let Some(r) = read.get_mut(s.nr as usize) {
                    *r = true;
                }
            }
        }
    }
    let before = prog.insts.len();
    prog.insts.retain(|inst| {
        let removable = matches!(inst.op, Op::Alu(_) | Op::Math(_) | Op::MulHigh | Op::SelExec)
            // A conditional modifier also writes the flag, which someone may test.
            && inst.cmod == CondMod::None
            && inst.dst.file == File::Vgrf
            && !read.get(inst.dst.nr as usize).copied().unwrap_or(true);
        !removable
    });
    prog.insts.len() != before
}

#[cfg(test)]
mod tests {
    use super::super::testing::f;
    use super::*;
    use crate::intel::eu::{Opcode, RegType};
    use crate::intel::fs::ir::{Inst, Reg};

    fn prog(insts: Vec<Inst>, n: u32) -> Program {
        Program {
            insts,
            vgrf_sizes: vec![1; n as usize],
            ..Default::default()
        }
    }

    #[test]
    fn unread_result_is_removed_read_one_stays() {
        let add = Inst::new(Op::Alu(Opcode::Add), 8, f(2), vec![f(0), f(1)]);
        let mul = Inst::new(Op::Alu(Opcode::Mul), 8, f(3), vec![f(0), f(1)]);
        let out = Inst::new(Op::Alu(Opcode::Mov), 8, Reg::null(RegType::F), vec![f(2)]);
        let mut p = prog(vec![add.clone(), mul, out.clone()], 4);
        assert!(dead_code_eliminate(&mut p));
        assert_eq!(p.insts, vec![add, out]);
        assert!(!dead_code_eliminate(&mut p));
    }

    #[test]
    fn flag_writes_and_sends_stay() {
        let mut cmp = Inst::new(Op::Alu(Opcode::Cmp), 8, f(2), vec![f(0), f(1)]);
        cmp.cmod = CondMod::L;
        let mut send = Inst::new(Op::Send, 8, f(3), vec![f(0)]);
        send.rlen = 1;
        send.mlen = 1;
        let mut p = prog(vec![cmp, send], 4);
        assert!(!dead_code_eliminate(&mut p));
        assert_eq!(p.insts.len(), 2);
    }
}
