//! Computing a value straight into the register it is copied to.
//!
//! NIR phis become copies at the end of each predecessor: `op X, ...; mov P, X`, with `X`
//! read nowhere else and `P` written on every path into the join. Register coalescing cannot
//! merge `X` into `P` there (P has several writers, so the copy is not P's only definition),
//! but the copy is still redundant: the instruction that computed `X` can write `P` itself,
//! as long as nothing between it and the copy reads or writes `P`. This is the local
//! rewrite Mesa's `compute_to_mrf` does for message registers, applied to virtual
//! registers of the same size, so payload copies (which coalescing handles with its own
//! register-pressure fallback) are left alone.

use crate::intel::eu::Opcode;

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg, REG_SIZE};

use super::coalesce::is_vgrf_bit_copy;

/// Retargets writers of copied values onto the copies' destinations; returns whether any
/// copy went.
pub fn compute_to_copy(prog: &mut Program) -> bool {
    // Per register: how many sources read it, and how many of those are copies into one
    // single other register (a SIMD16 value split in halves has one copy per half).
    let n = prog.vgrf_sizes.len();
    let mut reads = vec![0u32; n];
    let mut copies = vec![0u32; n];
    let mut target: Vec<Option<u32>> = vec![None; n];
    // The registers of X each copy reads: two copies of the same part (the copy after the
    // writer and another in a loop, say) would leave the second reading an X nobody writes
    // once the writer is retargeted, so X then keeps its writer.
    let mut parts: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for inst in &prog.insts {
        for s in &inst.src {
            if s.file == File::Vgrf && (s.nr as usize) < n {
                reads[s.nr as usize] += 1;
            }
        }
        if is_copy(inst) {
            let x = inst.src[0].nr as usize;
            if x < n {
                copies[x] = copies[x].saturating_add(1);
                if target[x].is_some_and(|p| p != inst.dst.nr) {
                    copies[x] = u32::MAX;
                }
                let first = inst.src[0].offset / REG_SIZE;
                let part = (first, first + inst.regs_written().max(1));
                if parts[x].iter().any(|&(a, b)| a < part.1 && part.0 < b) {
                    copies[x] = u32::MAX;
                }
                parts[x].push(part);
                target[x] = Some(inst.dst.nr);
            }
        }
    }
    let mut remove = vec![false; prog.insts.len()];
    let mut progress = false;
    for ip in 0..prog.insts.len() {
        let inst = &prog.insts[ip];
        if !is_copy(inst) {
            continue;
        }
        let (src, dst) = (inst.src[0], inst.dst);
        let x = src.nr as usize;
        let same_size = prog.vgrf_sizes.get(x) == prog.vgrf_sizes.get(dst.nr as usize);
        if !same_size || reads.get(x) != copies.get(x) {
            continue;
        }
        if let Some(w) = writer_of(prog, ip, &remove) {
            let writer = &mut prog.insts[w];
            writer.dst = Reg {
                nr: dst.nr,
                offset: dst.offset,
                ..writer.dst
            };
            remove[ip] = true;
            progress = true;
        }
    }
    if progress {
        let mut ip = 0;
        prog.insts.retain(|_| {
            ip += 1;
            !remove[ip - 1]
        });
    }
    progress
}

/// A plain whole-register copy between two distinct virtual registers.
fn is_copy(inst: &Inst) -> bool {
    let (Some(s), d) = (inst.src.first(), &inst.dst) else {
        return false;
    };
    is_vgrf_bit_copy(inst) && s.offset == d.offset && s.offset % REG_SIZE == 0
}

/// Whether `r`, covering `regs` registers, shares a register with `of`'s `of_regs`.
fn overlaps(r: &Reg, regs: u32, of: &Reg, of_regs: u32) -> bool {
    let (rs, os) = (r.offset / REG_SIZE, of.offset / REG_SIZE);
    r.file == File::Vgrf && r.nr == of.nr && rs < os + of_regs.max(1) && os < rs + regs.max(1)
}

/// Whether source `s` reads, channel for channel, the region `dst` names: an instruction may
/// then write `dst` while reading it (an accumulation `P = P + x`), as every channel reads its
/// own old value before writing the new one.
fn same_channels(s: &Reg, dst: &Reg) -> bool {
    s.offset == dst.offset && s.stride == 1 && s.region.is_none() && s.ty.size() == dst.ty.size()
}

/// The nearest earlier instruction of the block that writes exactly what the copy at `ip`
/// reads, provided nothing in between reads or writes the copy's destination.
fn writer_of(prog: &Program, ip: usize, removed: &[bool]) -> Option<usize> {
    let copy = &prog.insts[ip];
    let (src, dst) = (copy.src[0], copy.dst);
    let regs = copy.regs_written();
    let reads_dst = |i: &Inst| {
        i.src
            .iter()
            .any(|s| overlaps(s, s.regs_read(i.exec_size as u32), &dst, regs))
    };
    for scan_ip in (0..ip).rev() {
        if removed[scan_ip] {
            continue;
        }
        let scan = &prog.insts[scan_ip];
        if scan.op.is_flow() {
            return None;
        }
        let written = scan.regs_written();
        if !overlaps(&scan.dst, written, &src, regs) {
            if overlaps(&scan.dst, written, &dst, regs) || reads_dst(scan) {
                return None;
            }
            continue;
        }
        // SEL writes every channel whatever its predicate says.
        let full = scan.pred.is_none() || scan.op == Op::Alu(Opcode::Sel);
        let ok = full
            && matches!(scan.op, Op::Alu(_) | Op::Math(_) | Op::MulHigh)
            && scan.dst.offset == src.offset
            && scan.dst.stride == 1
            && scan.dst.region.is_none()
            && scan.dst.ty.size() == src.ty.size()
            && scan.exec_size == copy.exec_size
            && scan.group == copy.group
            && scan.we_all == copy.we_all
            && written == regs
            && scan.src.iter().all(|s| {
                !overlaps(s, s.regs_read(scan.exec_size as u32), &dst, regs)
                    || same_channels(s, &dst)
            });
        return ok.then_some(scan_ip);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, alu, copy, f, ud};
    use super::*;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(compute_to_copy, insts)
    }

    fn unchanged(insts: Vec<Inst>) {
        testing::unchanged(compute_to_copy, insts)
    }
    use crate::intel::eu::RegType;

    #[test]
    fn phi_copies_in_both_branches_are_computed_in_place() {
        // if: add v2; mov v5, v2  else: mul v3; mov v5, v3  endif
        let (p, out) = run(vec![
            Inst::new(Op::If, 8, Reg::BAD, vec![]),
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            copy(5, 2),
            Inst::new(Op::Else, 8, Reg::BAD, vec![]),
            alu(Opcode::Mul, f(3), vec![f(0), f(1)]),
            copy(5, 3),
            Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
            alu(Opcode::Add, f(6), vec![f(5), f(0)]),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![
                Inst::new(Op::If, 8, Reg::BAD, vec![]),
                alu(Opcode::Add, f(5), vec![f(0), f(1)]),
                Inst::new(Op::Else, 8, Reg::BAD, vec![]),
                alu(Opcode::Mul, f(5), vec![f(0), f(1)]),
                Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
                alu(Opcode::Add, f(6), vec![f(5), f(0)]),
            ]
        );
    }

    #[test]
    fn a_value_copied_twice_to_the_same_part_keeps_its_writer() {
        // cmp v8; mov v1, v8; do; ...; mov v1, v8; while: the fuzz-diff miscompile (the
        // second copy read v8 after its writer had been retargeted to v1).
        unchanged(vec![
            alu(Opcode::Add, f(8), vec![f(3), f(5)]),
            copy(1, 8),
            Inst::new(Op::Do, 8, Reg::BAD, vec![]),
            alu(Opcode::Add, f(0), vec![f(9), f(9)]),
            copy(1, 8),
            Inst::new(Op::While, 8, Reg::BAD, vec![]),
            alu(Opcode::Add, f(6), vec![f(1), f(0)]),
        ]);
    }

    #[test]
    fn reader_or_writer_of_the_destination_in_between_blocks_it() {
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            alu(Opcode::Mul, f(7), vec![f(5), f(1)]),
            copy(5, 2),
        ]);
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            alu(Opcode::Mul, f(5), vec![f(0), f(1)]),
            copy(5, 2),
        ]);
    }

    #[test]
    fn accumulation_into_the_destination_is_computed_in_place() {
        // mad v2, v5, v1, v3; mov v5, v2  =>  mad v5, v5, v1, v3
        let (p, out) = run(vec![
            alu(Opcode::Mad, f(2), vec![f(5), f(1), f(3)]),
            copy(5, 2),
        ]);
        assert!(p);
        assert_eq!(out, vec![alu(Opcode::Mad, f(5), vec![f(5), f(1), f(3)])]);
        // Reading other channels of the destination (a scalar broadcast) is not.
        let mut scalar = f(5);
        scalar.stride = 0;
        unchanged(vec![alu(Opcode::Add, f(2), vec![scalar, f(1)]), copy(5, 2)]);
    }

    #[test]
    fn other_reader_of_the_value_or_partial_writer_blocks_it() {
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            copy(5, 2),
            alu(Opcode::Mul, f(7), vec![f(2), f(1)]),
        ]);
        let mut add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        add.pred = Some(false);
        unchanged(vec![add, copy(5, 2)]);
        let mut wide = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        wide.exec_size = 16;
        unchanged(vec![wide, copy(5, 2)]);
    }

    #[test]
    fn split_halves_are_computed_in_place_each() {
        // A SIMD16 value in two SIMD8 halves, each copied into the phi register.
        let half = |op: Opcode, dst: Reg, src: Vec<Reg>, g: u8| {
            let mut i = alu(op, dst, src);
            i.group = g;
            i
        };
        let lo = half(Opcode::Add, f(2), vec![f(0), f(1)], 0);
        let hi = half(
            Opcode::Add,
            f(2).reg_offset(1),
            vec![f(0).reg_offset(1), f(1).reg_offset(1)],
            8,
        );
        let c_lo = copy(5, 2);
        let c_hi = half(
            Opcode::Mov,
            ud(5).reg_offset(1),
            vec![ud(2).reg_offset(1)],
            8,
        );
        let mut p = Program {
            insts: vec![lo.clone(), hi.clone(), c_lo, c_hi],
            vgrf_sizes: vec![2; 8],
            ..Default::default()
        };
        assert!(compute_to_copy(&mut p));
        let mut want_lo = lo;
        want_lo.dst = f(5);
        let mut want_hi = hi;
        want_hi.dst = f(5).reg_offset(1);
        assert_eq!(p.insts, vec![want_lo, want_hi]);
    }

    #[test]
    fn value_copied_into_two_registers_is_left() {
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            copy(5, 2),
            copy(6, 2),
        ]);
    }

    #[test]
    fn copy_into_a_larger_register_is_left_to_coalescing() {
        let mut p = Program {
            insts: vec![alu(Opcode::Add, f(2), vec![f(0), f(1)]), copy(5, 2)],
            vgrf_sizes: vec![1, 1, 1, 1, 1, 4],
            ..Default::default()
        };
        assert!(!compute_to_copy(&mut p));
    }

    #[test]
    fn conversions_are_not_copies() {
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            alu(Opcode::Mov, Reg::vgrf(5, RegType::D), vec![f(2)]),
        ]);
    }
}
