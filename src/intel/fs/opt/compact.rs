//! VGRF compaction: virtual registers that no instruction names any more are dropped and the
//! rest renumbered densely, in their old order.
//!
//! Translation allocates a register for every NIR component and lowering adds temporaries;
//! copy propagation, coalescing and dead-code elimination then leave many of those numbers
//! unreferenced. Every per-register table after that (pass bookkeeping, liveness bit sets,
//! the allocator's interference graph) is sized by [`Program::vgrf_sizes`], so the dead
//! numbers cost time and memory in each of them. Keeping the survivors' relative order keeps
//! the passes that walk registers by number (coalescing) deciding as they would have.
//!
//! Nothing outside the instruction list names a virtual register once translation is done
//! (the payload and push-constant facts hold hardware register numbers), so renumbering the
//! operands is the whole job; were a side table ever to hold VGRF numbers, it would need the
//! returned map.

use crate::intel::fs::ir::{File, Inst, Program};

/// Removes unreferenced VGRFs and renumbers the rest; returns whether any went.
///
/// A program naming a register beyond [`Program::vgrf_sizes`] is left as it is: renumbering
/// around a number that has no size would only hide the fault from the checks that report it.
pub fn compact_virtual_grfs(prog: &mut Program) -> bool {
    let n = prog.vgrf_sizes.len();
    let mut used = vec![false; n];
    for inst in &prog.insts {
        for r in operands(inst) {
            if r.file == File::Vgrf {
                match used.get_mut(r.nr as usize) {
                    Some(u) => *u = true,
                    None => return false,
                }
            }
        }
    }
    if used.iter().all(|&u| u) {
        return false;
    }
    let mut remap = vec![u32::MAX; n];
    let mut sizes = Vec::with_capacity(n);
    for (v, &size) in prog.vgrf_sizes.iter().enumerate() {
        if used[v] {
            remap[v] = sizes.len() as u32;
            sizes.push(size);
        }
    }
    prog.vgrf_sizes = sizes;
    for inst in &mut prog.insts {
        for r in std::iter::once(&mut inst.dst).chain(inst.src.iter_mut()) {
            if r.file == File::Vgrf {
                r.nr = remap[r.nr as usize];
            }
        }
    }
    true
}

fn operands(inst: &Inst) -> impl Iterator<Item = &crate::intel::fs::ir::Reg> {
    std::iter::once(&inst.dst).chain(inst.src.iter())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{alu, f};
    use super::*;
    use crate::intel::eu::{Opcode, RegType};
    use crate::intel::fs::ir::{Op, Reg};

    fn send(payload: Reg, dst: Reg, mlen: u8, rlen: u8) -> Inst {
        let mut i = Inst::new(Op::Send, 8, dst, vec![payload]);
        i.mlen = mlen;
        i.rlen = rlen;
        i
    }

    #[test]
    fn unreferenced_registers_go_and_the_rest_close_up_in_order() {
        // v0, v2 and v5 are dead numbers; v1 (2 regs), v3, v4 (4 regs) and v6 are named.
        let mut p = Program {
            insts: vec![
                alu(Opcode::Add, f(3), vec![f(1), f(1).reg_offset(1)]),
                send(f(3), f(4), 1, 4),
                alu(Opcode::Mul, f(6), vec![f(4).reg_offset(3), Reg::imm_f(2.0)]),
            ],
            vgrf_sizes: vec![1, 2, 3, 1, 4, 1, 1],
            ..Default::default()
        };
        assert!(compact_virtual_grfs(&mut p));
        assert_eq!(p.vgrf_sizes, vec![2, 1, 4, 1]);
        assert_eq!(
            p.insts,
            vec![
                alu(Opcode::Add, f(1), vec![f(0), f(0).reg_offset(1)]),
                send(f(1), f(2), 1, 4),
                alu(Opcode::Mul, f(3), vec![f(2).reg_offset(3), Reg::imm_f(2.0)]),
            ]
        );
        // Already dense: nothing to do.
        let before = p.clone();
        assert!(!compact_virtual_grfs(&mut p));
        assert_eq!(p.insts, before.insts);
        assert_eq!(p.vgrf_sizes, before.vgrf_sizes);
    }

    #[test]
    fn a_register_only_written_is_still_referenced() {
        // Compaction does not judge liveness: a write nobody reads is dead code's business.
        let mut p = Program {
            insts: vec![alu(Opcode::Mov, f(2), vec![Reg::imm_f(1.0)])],
            vgrf_sizes: vec![1, 1, 1],
            ..Default::default()
        };
        assert!(compact_virtual_grfs(&mut p));
        assert_eq!(p.vgrf_sizes, vec![1]);
        assert_eq!(p.insts, vec![alu(Opcode::Mov, f(0), vec![Reg::imm_f(1.0)])]);
    }

    #[test]
    fn other_files_keep_their_numbers() {
        let fixed = Reg::fixed(5, 0, RegType::F, 1);
        let mut p = Program {
            insts: vec![alu(Opcode::Add, f(4), vec![fixed, Reg::imm_f(1.0)])],
            vgrf_sizes: vec![1; 5],
            ..Default::default()
        };
        assert!(compact_virtual_grfs(&mut p));
        assert_eq!(
            p.insts,
            vec![alu(Opcode::Add, f(0), vec![fixed, Reg::imm_f(1.0)])]
        );
    }

    #[test]
    fn a_register_number_without_a_size_leaves_the_program_alone() {
        let insts = vec![alu(Opcode::Add, f(1), vec![f(9), f(9)])];
        let mut p = Program {
            insts: insts.clone(),
            vgrf_sizes: vec![1, 1],
            ..Default::default()
        };
        assert!(!compact_virtual_grfs(&mut p));
        assert_eq!(p.insts, insts);
        assert_eq!(p.vgrf_sizes, vec![1, 1]);
    }
}
