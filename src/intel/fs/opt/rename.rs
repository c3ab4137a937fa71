//! Register renaming: each later complete definition of a virtual register outside control
//! flow gets a register of its own, and the reads up to the next such definition follow it.
//!
//! ```text
//! mul v1, v0, v0              mul v1, v0, v0
//! add v2, v1, v0              add v2, v1, v0
//! mov v1, v3          =>      mov v9, v3
//! add v4, v1, v2              add v4, v9, v2
//! ```
//!
//! Reusing one register for unrelated values (NIR registers left by out-of-SSA, temporaries
//! that lowering reuses, what peephole select leaves of an IF) chains the values through
//! write-after-read and write-after-write dependencies: the scheduler cannot start the second
//! value before the first one's last read, and the allocator sees one long live range where
//! there are two short ones. A fresh name removes both constraints and, with one writer per
//! register, opens the copy to coalescing and copy propagation.
//!
//! Only definitions at nesting depth zero are renamed, because there program order is
//! execution order: every read after the definition sees it and none before does. Inside an
//! IF or a loop a read after the write may also see the value from before it (the other arm,
//! the previous iteration, channels disabled for the write), so such writes keep writing
//! whatever the register is currently called. A definition must overwrite the whole register
//! in every channel it runs (no predicate other than SEL's, no gaps, no partial register):
//! after a partial write the reads still see parts of the older value, so the write goes
//! into the current name instead of a new one. This is Mesa's `opt_register_renaming`.

use crate::intel::eu::Opcode;

use crate::intel::fs::ir::{File, Inst, Op, Program, REG_SIZE};

/// Gives later complete definitions at depth zero fresh registers; returns whether any
/// operand changed.
pub fn register_renaming(prog: &mut Program) -> bool {
    const UNSEEN: u32 = u32::MAX;
    let n = prog.vgrf_sizes.len();
    // The name each original register currently goes by; UNSEEN before its first complete
    // definition at depth zero.
    let mut name = vec![UNSEEN; n];
    let mut depth = 0u32;
    let mut progress = false;
    let Program {
        insts, vgrf_sizes, ..
    } = prog;
    for inst in insts {
        match inst.op {
            Op::If | Op::Do => depth += 1,
            Op::EndIf | Op::While => depth = depth.saturating_sub(1),
            _ => {}
        }
        for s in &mut inst.src {
            if s.file == File::Vgrf {
                if let Some(&cur) = name.get(s.nr as usize) {
                    if cur != UNSEEN && cur != s.nr {
                        s.nr = cur;
                        progress = true;
                    }
                }
            }
        }
        if inst.dst.file != File::Vgrf {
            continue;
        }
        let v = inst.dst.nr as usize;
        if v >= n {
            continue;
        }
        if depth == 0 && defines_whole(inst, vgrf_sizes[v]) {
            if name[v] == UNSEEN {
                name[v] = v as u32;
            } else {
                vgrf_sizes.push(vgrf_sizes[v]);
                name[v] = vgrf_sizes.len() as u32 - 1;
                inst.dst.nr = name[v];
                progress = true;
            }
        } else if name[v] != UNSEEN && name[v] != v as u32 {
            inst.dst.nr = name[v];
            progress = true;
        }
    }
    progress
}

/// Whether `inst` overwrites every byte of its destination register, of `size` registers,
/// in every channel it runs: Mesa's "size written is the whole VGRF and not a partial write".
fn defines_whole(inst: &Inst, size: u32) -> bool {
    let d = &inst.dst;
    // A predicated SEL picks a source per channel but writes every channel.
    let unpredicated = inst.pred.is_none() || inst.op == Op::Alu(Opcode::Sel);
    let bytes = match inst.op {
        Op::Send | Op::Tex { .. } | Op::LoadPayload => inst.regs_written() * REG_SIZE,
        _ => inst.exec_size as u32 * d.ty.size(),
    };
    unpredicated && d.offset == 0 && d.stride == 1 && d.region.is_none() && bytes == size * REG_SIZE
}

#[cfg(test)]
mod tests {
    use super::super::testing::{alu, copy, f, flow, ud};
    use super::*;
    use crate::intel::eu::RegType;
    use crate::intel::fs::ir::Reg;

    fn prog(insts: Vec<Inst>, sizes: Vec<u32>) -> Program {
        Program {
            insts,
            vgrf_sizes: sizes,
            ..Default::default()
        }
    }

    fn unchanged(insts: Vec<Inst>, sizes: Vec<u32>) {
        let mut p = prog(insts.clone(), sizes.clone());
        assert!(!register_renaming(&mut p), "the pass reported progress");
        assert_eq!(p.insts, insts);
        assert_eq!(p.vgrf_sizes, sizes);
    }

    #[test]
    fn later_definitions_get_fresh_registers_and_their_reads_follow() {
        let mut p = prog(
            vec![
                alu(Opcode::Mul, f(1), vec![f(0), f(0)]),
                alu(Opcode::Add, f(2), vec![f(1), f(0)]),
                copy(1, 3),
                alu(Opcode::Add, f(4), vec![f(1), f(2)]),
                alu(Opcode::Mul, f(1), vec![f(1), f(4)]),
                alu(Opcode::Add, f(5), vec![f(1), f(4)]),
            ],
            vec![1; 6],
        );
        assert!(register_renaming(&mut p));
        // Second definition of v1 becomes v6, the third (which reads the second) v7.
        assert_eq!(
            p.insts,
            vec![
                alu(Opcode::Mul, f(1), vec![f(0), f(0)]),
                alu(Opcode::Add, f(2), vec![f(1), f(0)]),
                copy(6, 3),
                alu(Opcode::Add, f(4), vec![f(6), f(2)]),
                alu(Opcode::Mul, f(7), vec![f(6), f(4)]),
                alu(Opcode::Add, f(5), vec![f(7), f(4)]),
            ]
        );
        assert_eq!(p.vgrf_sizes, vec![1; 8]);
        // Each register now has one complete definition: a second run changes nothing.
        let (insts, sizes) = (p.insts.clone(), p.vgrf_sizes.clone());
        unchanged(insts, sizes);
    }

    #[test]
    fn new_register_has_the_old_ones_size() {
        // A SIMD16 value (two registers) and a four-register send result.
        let wide = |dst: Reg, src: Vec<Reg>| {
            let mut i = alu(Opcode::Add, dst, src);
            i.exec_size = 16;
            i
        };
        let first = wide(f(0), vec![f(2), f(2)]);
        let second = wide(f(0), vec![f(2), Reg::imm_f(1.0)]);
        let mut send = Inst::new(Op::Send, 16, ud(1), vec![ud(2)]);
        send.mlen = 2;
        send.rlen = 4;
        let mut send2 = send.clone();
        send2.src = vec![ud(0)];
        let read = wide(f(3), vec![f(0), f(1).reg_offset(2)]);
        let mut p = prog(
            vec![first.clone(), send.clone(), second, send2, read],
            vec![2, 4, 2, 2],
        );
        assert!(register_renaming(&mut p));
        assert_eq!(p.vgrf_sizes, vec![2, 4, 2, 2, 2, 4]);
        let mut want_send2 = send.clone();
        want_send2.dst = ud(5);
        want_send2.src = vec![ud(4)];
        assert_eq!(
            p.insts,
            vec![
                first,
                send,
                wide(f(4), vec![f(2), Reg::imm_f(1.0)]),
                want_send2,
                wide(f(3), vec![f(4), f(5).reg_offset(2)]),
            ]
        );
    }

    #[test]
    fn partial_writes_keep_the_current_name() {
        // A predicated write, a SIMD8 write of half a SIMD16 register, a strided word write
        // and a write at an offset all leave older bytes in place: none is renamed, and each
        // writes the name the register has at that point.
        let mut pred = alu(Opcode::Mov, f(0), vec![f(3)]);
        pred.pred = Some(false);
        unchanged(
            vec![
                copy(0, 2),
                pred.clone(),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
            ],
            vec![1; 5],
        );
        let half = alu(Opcode::Mov, f(1).reg_offset(1), vec![f(3)]);
        let mut full16 = alu(Opcode::Mov, f(1), vec![f(2)]);
        full16.exec_size = 16;
        unchanged(vec![full16.clone(), half.clone()], vec![1, 2, 2, 1]);
        let words = alu(
            Opcode::Mov,
            Reg {
                stride: 2,
                ..Reg::vgrf(0, RegType::UW)
            },
            vec![Reg::vgrf(3, RegType::UW)],
        );
        unchanged(vec![copy(0, 2), words], vec![1; 4]);
        // After a renamed definition, the partial writes go to the new name.
        let mut p = prog(
            vec![
                copy(0, 2),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
                copy(0, 3),
                pred.clone(),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
            ],
            vec![1; 5],
        );
        assert!(register_renaming(&mut p));
        let mut pred5 = pred;
        pred5.dst = f(5);
        assert_eq!(
            p.insts,
            vec![
                copy(0, 2),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
                copy(5, 3),
                pred5,
                alu(Opcode::Add, f(6), vec![f(5), f(5)]),
            ]
        );
    }

    #[test]
    fn predicated_sel_is_a_complete_definition() {
        let mut sel = alu(Opcode::Sel, f(0), vec![f(2), f(3)]);
        sel.pred = Some(false);
        let mut p = prog(
            vec![
                copy(0, 2),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
                sel.clone(),
            ],
            vec![1; 5],
        );
        assert!(register_renaming(&mut p));
        sel.dst = f(5);
        assert_eq!(p.insts[2], sel);
    }

    #[test]
    fn definitions_inside_control_flow_keep_the_name() {
        // The write in the IF and the one in the loop may or may not happen (or happen
        // again): the reads after them can see either value, so both stay in v0.
        unchanged(
            vec![
                copy(0, 2),
                flow(Op::If),
                copy(0, 3),
                flow(Op::Else),
                copy(0, 1),
                flow(Op::EndIf),
                flow(Op::Do),
                alu(Opcode::Add, f(0), vec![f(0), f(2)]),
                flow(Op::While),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
            ],
            vec![1; 5],
        );
    }

    #[test]
    fn definitions_in_control_flow_use_the_name_of_the_depth_zero_one_before() {
        let mut p = prog(
            vec![
                copy(0, 2),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
                copy(0, 3),
                flow(Op::If),
                alu(Opcode::Add, f(0), vec![f(0), f(2)]),
                flow(Op::EndIf),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
                // Back at depth zero: renamed again; the loop reads the newest name.
                copy(0, 1),
                flow(Op::Do),
                alu(Opcode::Add, f(0), vec![f(0), f(2)]),
                flow(Op::While),
            ],
            vec![1; 5],
        );
        assert!(register_renaming(&mut p));
        assert_eq!(
            p.insts,
            vec![
                copy(0, 2),
                alu(Opcode::Add, f(4), vec![f(0), f(0)]),
                copy(5, 3),
                flow(Op::If),
                alu(Opcode::Add, f(5), vec![f(5), f(2)]),
                flow(Op::EndIf),
                alu(Opcode::Add, f(6), vec![f(5), f(5)]),
                copy(7, 1),
                flow(Op::Do),
                alu(Opcode::Add, f(7), vec![f(7), f(2)]),
                flow(Op::While),
            ]
        );
        assert_eq!(p.vgrf_sizes.len(), 8);
    }

    #[test]
    fn first_complete_definition_after_earlier_partial_ones_keeps_the_name() {
        // v1's halves are written separately, then the whole: the first complete definition
        // keeps v1, so the reads of the halves before it are untouched.
        let lo = alu(Opcode::Mov, f(1), vec![f(0)]);
        let mut hi = alu(Opcode::Mov, f(1).reg_offset(1), vec![f(0)]);
        hi.group = 8;
        let mut read = alu(Opcode::Add, f(2), vec![f(1), f(1)]);
        read.exec_size = 16;
        let mut whole = alu(Opcode::Mov, f(1), vec![f(3)]);
        whole.exec_size = 16;
        let mut read_again = read.clone();
        read_again.dst = f(4);
        unchanged(vec![lo, hi, read, whole, read_again], vec![2; 5]);
    }
}
