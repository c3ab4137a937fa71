//! Liveness of vec4 virtual registers, per component, over the structured CFG.
//!
//! A component of a register is *defined* in a block when an unpredicated write (or a
//! predicated SEL, which writes every channel) covers it before any read; a read of it first
//! makes it *used*, so live into the block. A source reads the components its swizzle names
//! for the channels the instruction computes ([`Inst::components_read`](super::ir::Inst::components_read)).
//! Tracking components matters because the vec4 code builds many values a few components at
//! a time: counting a whole-register write only would leave such registers live from the
//! program's start.
//!
//! The block sets are solved backwards to a fixed point and turned into intervals without
//! holes (the allocator interferes intervals), one per register: the union of its
//! components'. As in the scalar backend ([`crate::intel::fs::liveness`]), a register live
//! across a loop's WHILE is live from the loop's DO: a vertex that left the loop, or skipped
//! an iteration's `if`, still runs every instruction with its channels disabled, and its
//! value must survive the other vertex's iterations (shared/seeds/004). Within one iteration a
//! register written and read inside the same `if` is not live around the loop, which is what
//! keeps the one-loop ubershaders within the register file.

use crate::intel::flow::{build_cfg, Block};
use crate::util::bitset::{ones, BitMatrix};

use super::ir::{File, Op, Program};
use crate::intel::eu::Opcode;

/// The per-component dataflow solution: component `4 r + c` of register `r`.
pub struct Live {
    /// The basic blocks.
    pub blocks: Vec<Block>,
    /// Components live on entry to each block.
    pub livein: BitMatrix,
    /// Components live on exit from each block.
    pub liveout: BitMatrix,
    /// First and last instruction touching each component (`usize::MAX`, 0 when none).
    touched: Vec<(usize, usize)>,
}

/// Solves liveness per component over the blocks of `prog`.
pub fn solve(prog: &Program) -> Live {
    let insts = &prog.insts;
    let blocks = build_cfg(insts);
    let n = prog.num_vgrfs as usize * 4;
    let mut start = vec![usize::MAX; n];
    let mut end = vec![0usize; n];
    let mut use_ = BitMatrix::new(blocks.len(), n);
    let mut def = BitMatrix::new(blocks.len(), n);
    for (b, blk) in blocks.iter().enumerate() {
        for (ip, inst) in insts.iter().enumerate().take(blk.end).skip(blk.start) {
            for (i, s) in inst.src.iter().enumerate() {
                if s.file != File::Vgrf {
                    continue;
                }
                let read = inst.components_read(i);
                for c in (0..4).filter(|c| read >> c & 1 != 0) {
                    let p = s.nr as usize * 4 + c;
                    if p >= n {
                        continue;
                    }
                    if !def.contains(b, p) {
                        use_.insert(b, p);
                    }
                    start[p] = start[p].min(ip);
                    end[p] = end[p].max(ip);
                }
            }
            if inst.dst.file == File::Vgrf {
                let whole = inst.pred.is_none() || inst.op == Op::Alu(Opcode::Sel);
                for c in (0..4).filter(|c| inst.dst.writemask & (1 << c) != 0) {
                    let p = inst.dst.nr as usize * 4 + c;
                    if p >= n {
                        continue;
                    }
                    if whole && !use_.contains(b, p) {
                        def.insert(b, p);
                    }
                    start[p] = start[p].min(ip);
                    end[p] = end[p].max(ip);
                }
            }
        }
    }
    let (livein, liveout) = crate::intel::flow::solve_liveness(&blocks, &use_, &def);
    Live {
        blocks,
        livein,
        liveout,
        touched: start.into_iter().zip(end).collect(),
    }
}

/// Each virtual register's live interval `(first, last)` instruction index (inclusive),
/// `None` when it is never touched.
pub fn intervals(prog: &Program) -> Vec<Option<(usize, usize)>> {
    let insts = &prog.insts;
    let Live {
        blocks,
        livein,
        liveout,
        touched,
    } = solve(prog);
    let (mut start, mut end): (Vec<usize>, Vec<usize>) = touched.into_iter().unzip();
    for (b, blk) in blocks.iter().enumerate() {
        let last = blk.end.saturating_sub(1).max(blk.start);
        for p in ones(livein.row(b)) {
            start[p] = start[p].min(blk.start);
            end[p] = end[p].max(blk.start);
        }
        for p in ones(liveout.row(b)) {
            start[p] = start[p].min(last);
            end[p] = end[p].max(last);
        }
    }
    let mut iv: Vec<Option<(usize, usize)>> = (0..prog.num_vgrfs as usize)
        .map(|r| {
            let (s, e) = (r * 4..r * 4 + 4)
                .filter(|&p| start[p] != usize::MAX)
                .fold((usize::MAX, 0), |(s, e), p| {
                    (s.min(start[p]), e.max(end[p]))
                });
            (s != usize::MAX).then_some((s, e))
        })
        .collect();
    // Registers live across a WHILE are carried around the loop by disabled channels.
    // Inner loops close first, so an outer loop sees the widened intervals.
    let mut open = Vec::new();
    for (ip, inst) in insts.iter().enumerate() {
        match inst.op {
            Op::Do => open.push(ip),
            Op::While => {
                if let Some(d) = open.pop() {
                    for (s, e) in iv.iter_mut().flatten() {
                        if *s < ip && *e > ip {
                            *s = (*s).min(d);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    iv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{CondMod, RegType::F};
    use crate::intel::vec4::ir::{replicate, Dst, Inst, Src};

    fn mov(d: u32, mask: u8, s: Src) -> Inst {
        Inst::new(Op::Alu(Opcode::Mov), Dst::vgrf(d, F, mask), vec![s])
    }

    fn flow(op: Op) -> Inst {
        Inst::new(op, Dst::null(F), vec![])
    }

    fn cmp(s: Src) -> Inst {
        let mut i = Inst::new(Op::Alu(Opcode::Cmp), Dst::null(F), vec![s, Src::imm_f(0.0)]);
        i.cmod = CondMod::Nz;
        i
    }

    fn pred_if() -> Inst {
        let mut i = flow(Op::If);
        i.pred = Some(false);
        i
    }

    #[test]
    fn a_value_made_and_used_inside_an_if_in_a_loop_stays_inside_the_if() {
        let prog = Program {
            insts: vec![
                mov(0, 0xf, Src::imm_f(1.0)), // 0: v0, read after the loop
                flow(Op::Do),                 // 1
                cmp(Src::vgrf(0, F)),         // 2
                pred_if(),                    // 3
                mov(1, 0xf, Src::vgrf(0, F)), // 4: v1 fresh inside the if
                mov(2, 0xf, Src::vgrf(1, F)), // 5: v2 written in the if, read after it
                flow(Op::EndIf),              // 6
                mov(0, 0xf, Src::vgrf(2, F)), // 7
                flow(Op::While),              // 8
                mov(3, 0xf, Src::vgrf(0, F)), // 9
            ],
            num_vgrfs: 4,
            interleaved_attrs: false,
        };
        let iv = intervals(&prog);
        assert_eq!(iv[0], Some((0, 9)));
        assert_eq!(iv[1], Some((4, 5)));
        // v2 may reach the read at 7 undefined (the if not taken in the first iteration), so
        // it is live from the program's start and around the loop.
        assert_eq!(iv[2], Some((0, 8)));
        assert_eq!(iv[3], Some((9, 9)));
    }

    #[test]
    fn components_written_one_at_a_time_are_defined_by_the_last_of_them() {
        let prog = Program {
            insts: vec![
                mov(0, 0xf, Src::imm_f(1.0)), // 0
                flow(Op::Do),                 // 1
                mov(1, 0x1, Src::vgrf(0, F)), // 2: v1.x
                mov(1, 0x2, Src::vgrf(0, F)), // 3: v1.y
                mov(1, 0x4, Src::vgrf(0, F)), // 4: v1.z
                // Reads x, y, z only (the swizzle .xyzx).
                mov(2, 0xf, Src::vgrf(1, F).swizzled(0x24)), // 5
                mov(0, 0xf, Src::vgrf(2, F)),                // 6
                flow(Op::While),                             // 7
            ],
            num_vgrfs: 3,
            interleaved_attrs: false,
        };
        let iv = intervals(&prog);
        assert_eq!(iv[1], Some((2, 5)));
        assert_eq!(iv[2], Some((5, 6)));
        assert_eq!(iv[0], Some((0, 7)));
    }

    #[test]
    fn a_predicated_write_does_not_kill_and_a_component_read_first_is_live_in() {
        let mut sel = mov(1, 0xf, Src::vgrf(0, F));
        sel.pred = Some(false);
        let prog = Program {
            insts: vec![
                mov(0, 0xf, Src::imm_f(1.0)),                        // 0
                mov(1, 0xf, Src::imm_f(2.0)),                        // 1
                flow(Op::Do),                                        // 2
                cmp(Src::vgrf(0, F)),                                // 3
                sel, // 4: predicated, keeps v1's other channels
                mov(2, 0xf, Src::vgrf(1, F).swizzled(replicate(3))), // 5
                mov(0, 0xf, Src::vgrf(2, F)), // 6
                flow(Op::While), // 7
            ],
            num_vgrfs: 3,
            interleaved_attrs: false,
        };
        let iv = intervals(&prog);
        // v1 flows around the loop (the predicated mov keeps old channels).
        assert_eq!(iv[1], Some((1, 7)));
        assert_eq!(iv[2], Some((5, 6)));
    }
}
