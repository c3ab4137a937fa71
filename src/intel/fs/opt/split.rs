//! VGRF splitting: a multi-register virtual register is cut between any two of its registers
//! that no single operand touches together, and every access is renamed to the piece it
//! falls in.
//!
//! ```text
//! (size 2) v1                         (size 1) v1, v5
//! add(8)    v1,    v0, v0             add(8)    v1, v0, v0
//! add(8)@8  v1+32, v0, v0     =>      add(8)@8  v5, v0, v0
//! mul(8)    v2, v1, v1                mul(8)    v2, v1, v1
//! mul(8)@8  v3, v1+32, v3             mul(8)@8  v3, v5, v3
//! ```
//!
//! Registers are allocated whole, so a VGRF is a promise that its registers are contiguous.
//! Only instructions that read or write several registers at once need that (a SIMD16
//! operand, a message payload or response); a register whose halves are only ever used one
//! at a time, as after SIMD width lowering splits an instruction, gives the allocator a
//! constraint for nothing and keeps both halves in one spill decision. Liveness already
//! works per register, so the gain is in allocation freedom and in making each piece a
//! candidate for the passes that want whole registers of one size (coalescing, copy folding).
//!
//! An operand's extent is what the hardware touches, not only what it names: a send's payload
//! is `mlen` registers, PLN's barycentric source is two registers per eight channels, and an
//! explicit region spans its rows. Every register an operand covers after its first stays
//! joined to the one before. Registers nothing names are left as they are; compaction removes
//! them. This is Mesa's `split_virtual_grfs`.

use crate::intel::eu::Region;
use crate::util::bitset::BitSet;

use crate::intel::fs::ir::{File, Inst, Program, Reg, REG_SIZE};
use crate::intel::fs::regalloc;

/// Splits VGRFs as described in the module documentation; returns whether any was split.
///
/// A program with an operand outside its register's size is left as it is.
pub fn split_virtual_grfs(prog: &mut Program) -> bool {
    let n = prog.vgrf_sizes.len();
    let mut base = Vec::with_capacity(n);
    let mut total = 0usize;
    for &size in &prog.vgrf_sizes {
        base.push(total);
        total += size as usize;
    }
    // `joined` holds register slot `base[v] + r` when some operand covers registers r-1 and
    // r of v together.
    let mut joined = BitSet::new(total);
    let mut used = vec![false; n];
    for inst in &prog.insts {
        let mut ok = true;
        each_access(inst, |r, regs| {
            let v = r.nr as usize;
            let Some(&size) = prog.vgrf_sizes.get(v) else {
                ok = false;
                return;
            };
            let first = r.offset / REG_SIZE;
            if first >= size {
                ok = false;
                return;
            }
            used[v] = true;
            let end = first.saturating_add(regs.max(1)).min(size);
            for k in first + 1..end {
                joined.insert(base[v] + k as usize);
            }
        });
        if !ok {
            return false;
        }
    }
    // For every register slot of a split VGRF: its piece and its register within the piece.
    let mut piece: Vec<(u32, u32)> = Vec::new();
    let mut split = vec![false; n];
    for v in 0..n {
        let size = prog.vgrf_sizes[v];
        let cut = |k: u32| !joined.contains(base[v] + k as usize);
        if !used[v] || !(1..size).any(cut) {
            continue;
        }
        if piece.is_empty() {
            piece = vec![(0, 0); total];
        }
        split[v] = true;
        let mut start = 0;
        let mut nr = v as u32;
        for k in 1..=size {
            if k < size && !cut(k) {
                continue;
            }
            // Registers start..k form one piece; the first keeps the VGRF's number.
            if start == 0 {
                prog.vgrf_sizes[v] = k;
            } else {
                nr = prog.alloc(k - start);
            }
            for r in start..k {
                piece[base[v] + r as usize] = (nr, r - start);
            }
            start = k;
        }
    }
    if piece.is_empty() {
        return false;
    }
    for inst in &mut prog.insts {
        for r in std::iter::once(&mut inst.dst).chain(inst.src.iter_mut()) {
            if r.file == File::Vgrf && split[r.nr as usize] {
                let (nr, reg) = piece[base[r.nr as usize] + (r.offset / REG_SIZE) as usize];
                r.nr = nr;
                r.offset = reg * REG_SIZE + r.offset % REG_SIZE;
            }
        }
    }
    true
}

/// Calls `f` with every VGRF operand of `inst` and the number of registers it covers from its
/// first one.
fn each_access(inst: &Inst, mut f: impl FnMut(&Reg, u32)) {
    if inst.dst.file == File::Vgrf {
        f(&inst.dst, inst.regs_written());
    }
    for (i, s) in inst.src.iter().enumerate() {
        if s.file == File::Vgrf {
            let regs = regalloc::regs_read(inst, i).max(region_regs(s, inst.exec_size as u32));
            f(s, regs);
        }
    }
}

/// Registers an explicit source region covers for `channels` channels (0 without one).
fn region_regs(s: &Reg, channels: u32) -> u32 {
    let Some(Region {
        vstride,
        width,
        hstride,
    }) = s.region
    else {
        return 0;
    };
    if vstride == Region::VXH {
        // Rows addressed one by one: any register may be read.
        return u32::MAX;
    }
    let width = (width as u32).max(1);
    let rows = (channels / width).max(1);
    let last = (rows - 1) * vstride as u32 + (width - 1) * hstride as u32;
    (s.offset % REG_SIZE + (last + 1) * s.ty.size()).div_ceil(REG_SIZE)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{alu, f, ud};
    use super::*;
    use crate::intel::eu::{Opcode, RegType};
    use crate::intel::fs::ir::Op;

    fn half(op: Opcode, dst: Reg, src: Vec<Reg>, group: u8) -> Inst {
        let mut i = alu(op, dst, src);
        i.group = group;
        i
    }

    fn wide(op: Opcode, dst: Reg, src: Vec<Reg>) -> Inst {
        let mut i = alu(op, dst, src);
        i.exec_size = 16;
        i
    }

    fn send(payload: Reg, dst: Reg, mlen: u8, rlen: u8) -> Inst {
        let mut i = Inst::new(Op::Send, 8, dst, vec![payload]);
        i.mlen = mlen;
        i.rlen = rlen;
        i
    }

    fn unchanged(insts: Vec<Inst>, sizes: Vec<u32>) {
        let mut p = Program {
            insts: insts.clone(),
            vgrf_sizes: sizes.clone(),
            ..Default::default()
        };
        assert!(!split_virtual_grfs(&mut p), "the pass reported progress");
        assert_eq!(p.insts, insts);
        assert_eq!(p.vgrf_sizes, sizes);
    }

    #[test]
    fn halves_used_one_at_a_time_become_two_registers() {
        let mut p = Program {
            insts: vec![
                half(Opcode::Add, f(1), vec![f(0), f(0)], 0),
                half(Opcode::Add, f(1).reg_offset(1), vec![f(0), f(0)], 8),
                half(Opcode::Mul, f(2), vec![f(1), f(1)], 0),
                half(Opcode::Mul, f(3), vec![f(1).reg_offset(1), f(3)], 8),
            ],
            vgrf_sizes: vec![1, 2, 1, 1, 1],
            ..Default::default()
        };
        assert!(split_virtual_grfs(&mut p));
        assert_eq!(p.vgrf_sizes, vec![1, 1, 1, 1, 1, 1]);
        assert_eq!(
            p.insts,
            vec![
                half(Opcode::Add, f(1), vec![f(0), f(0)], 0),
                half(Opcode::Add, f(5), vec![f(0), f(0)], 8),
                half(Opcode::Mul, f(2), vec![f(1), f(1)], 0),
                half(Opcode::Mul, f(3), vec![f(5), f(3)], 8),
            ]
        );
        // Nothing left to split.
        let (insts, sizes) = (p.insts.clone(), p.vgrf_sizes.clone());
        unchanged(insts, sizes);
    }

    #[test]
    fn a_read_or_write_spanning_registers_keeps_them_together() {
        // Written in halves, read whole.
        unchanged(
            vec![
                half(Opcode::Add, f(1), vec![f(0), f(0)], 0),
                half(Opcode::Add, f(1).reg_offset(1), vec![f(0), f(0)], 8),
                wide(Opcode::Mul, f(2), vec![f(1), f(1)]),
            ],
            vec![1, 2, 2],
        );
        // Written whole, read in halves.
        unchanged(
            vec![
                wide(Opcode::Add, f(1), vec![f(0), f(0)]),
                half(Opcode::Mul, f(2), vec![f(1), f(1)], 0),
                half(Opcode::Mul, f(3), vec![f(1).reg_offset(1), f(3)], 8),
            ],
            vec![2, 2, 1, 1],
        );
    }

    #[test]
    fn message_payloads_and_responses_stay_whole() {
        // The payload is written a register at a time but the send reads all three; the
        // response is read a register at a time but the send writes all four.
        unchanged(
            vec![
                alu(Opcode::Mov, ud(0), vec![ud(5)]),
                alu(Opcode::Mov, ud(0).reg_offset(1), vec![ud(5)]),
                alu(Opcode::Mov, ud(0).reg_offset(2), vec![ud(5)]),
                send(ud(0), ud(1), 3, 4),
                alu(Opcode::Add, f(2), vec![f(1), f(1).reg_offset(3)]),
            ],
            vec![3, 4, 1, 1, 1, 1],
        );
    }

    #[test]
    fn only_the_boundaries_no_operand_crosses_are_cut() {
        // v0 has four registers: a SIMD16 write covers 0-1, registers 2 and 3 are used one at
        // a time (3 as a scalar, at a byte offset that must survive).
        let mut scalar = f(0).reg_offset(3);
        scalar.offset += 12;
        scalar.stride = 0;
        let mut p = Program {
            insts: vec![
                wide(Opcode::Mov, f(0), vec![f(1)]),
                alu(Opcode::Mov, f(0).reg_offset(2), vec![f(1)]),
                alu(Opcode::Mov, f(0).reg_offset(3), vec![f(1)]),
                wide(Opcode::Add, f(1), vec![f(0), f(0)]),
                alu(Opcode::Mul, f(2), vec![f(0).reg_offset(2), scalar]),
            ],
            vgrf_sizes: vec![4, 2, 1],
            ..Default::default()
        };
        assert!(split_virtual_grfs(&mut p));
        assert_eq!(p.vgrf_sizes, vec![2, 2, 1, 1, 1]);
        let mut scalar4 = f(4);
        scalar4.offset = 12;
        scalar4.stride = 0;
        assert_eq!(
            p.insts,
            vec![
                wide(Opcode::Mov, f(0), vec![f(1)]),
                alu(Opcode::Mov, f(3), vec![f(1)]),
                alu(Opcode::Mov, f(4), vec![f(1)]),
                wide(Opcode::Add, f(1), vec![f(0), f(0)]),
                alu(Opcode::Mul, f(2), vec![f(3), scalar4]),
            ]
        );
    }

    #[test]
    fn implied_reads_keep_registers_together() {
        // PLN reads u and v planes from its one named barycentric register.
        unchanged(
            vec![
                alu(Opcode::Mov, f(0), vec![f(2)]),
                alu(Opcode::Mov, f(0).reg_offset(1), vec![f(2)]),
                alu(
                    Opcode::Pln,
                    f(1),
                    vec![Reg::fixed(3, 0, RegType::F, 0), f(0)],
                ),
            ],
            vec![2, 1, 1],
        );
        // A region <8;8,1> read by a SIMD16 instruction covers two rows of eight.
        let mut rows = f(0);
        rows.region = Some(Region::new(8, 8, 1));
        let mut read = alu(Opcode::Mov, f(1), vec![rows]);
        read.exec_size = 16;
        unchanged(
            vec![
                alu(Opcode::Mov, f(0), vec![f(2)]),
                alu(Opcode::Mov, f(0).reg_offset(1), vec![f(2)]),
                read,
            ],
            vec![2, 2, 1],
        );
    }

    #[test]
    fn unnamed_registers_and_bad_operands_are_left() {
        // v1 is never named: not split (compaction's job to drop it).
        unchanged(vec![alu(Opcode::Mov, f(0), vec![f(2)])], vec![1, 4, 1]);
        // An operand past its register's end: the program is left for the checks to report.
        unchanged(
            vec![
                alu(Opcode::Mov, f(0), vec![f(2)]),
                alu(Opcode::Mov, f(0).reg_offset(1), vec![f(2)]),
                alu(Opcode::Mov, f(1), vec![f(0).reg_offset(2)]),
            ],
            vec![2, 1, 1],
        );
    }
}
