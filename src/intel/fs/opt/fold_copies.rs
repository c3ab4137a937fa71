//! Copy folding: a value computed only to be copied once, a few instructions later in the same
//! block, is computed straight into the copy's destination.
//!
//! ```text
//! mul v105, v42, v104                 mul v4, v42, v104
//! mov v4:UD, v105:UD          =>
//! ```
//!
//! This is the shape NIR registers (the out-of-SSA form of phis) take: each arm of an IF
//! computes a value and moves it into the register the phi became, which therefore has one
//! write per arm. Register coalescing cannot merge such a copy, because the destination is
//! written elsewhere too and its live range spans both arms; but nothing needs the temporary
//! once the copy is gone. Mesa's translation writes the register directly (NIR's legacy
//! register stores); this pass reaches the same code after the fact.
//!
//! The fold is sound when the temporary has exactly this one write and this one read, the
//! two instructions write the same bytes with the same channels, and nothing between them
//! (straight-line code) reads or writes the destination, so moving the write of the
//! destination up to the computing instruction changes no value anyone reads. The computing
//! instruction may itself read the destination, where it reads exactly the registers it
//! would write (a loop-carried value updated in place).

use crate::intel::eu::Opcode;

use crate::intel::fs::ir::{File, Inst, Op, Program};
use crate::util::groups::Groups;

use super::coalesce::is_vgrf_bit_copy;

/// How far back (in instructions) a copy looks for the write of its source.
const WINDOW: usize = 256;

/// The destination offset at which `def` writes channels the copy reads, when it writes
/// whole, unpredicated (or SEL) channels of the copy's source: a SIMD8 half of a SIMD16
/// copy's source included.
fn part_of_source(def: &Inst, copy: &Inst) -> Option<u32> {
    let (d, s) = (&def.dst, &copy.src[0]);
    let (g, e) = (def.group as u32, def.exec_size as u32);
    let (cg, ce) = (copy.group as u32, copy.exec_size as u32);
    let ok = matches!(def.op, Op::Alu(_) | Op::Math(_) | Op::MulHigh)
        && (def.pred.is_none() || def.op == Op::Alu(Opcode::Sel))
        && d.file == File::Vgrf
        && d.nr == s.nr
        && d.stride == 1
        && d.ty.size() == s.ty.size()
        && def.we_all == copy.we_all
        && g >= cg
        && g + e <= cg + ce
        && d.offset == s.offset + (g - cg) * s.ty.size();
    ok.then(|| copy.dst.offset + (g - cg) * s.ty.size())
}

/// Whether every read of VGRF `a` in `def` reads exactly the registers `def` would write at
/// offset `off` (the same channels, one dword each), so that writing `a` there instead of the
/// temporary changes nothing `def` reads: each channel (each half of a compressed
/// instruction) reads its register before writing it. A loop-carried value updated at the
/// end of the loop body, `mad t, a, b, c; mov a, t`, becomes `mad a, a, b, c`.
fn reads_only_in_place(def: &Inst, a: u32, off: u32) -> bool {
    def.src
        .iter()
        .filter(|s| s.is_vgrf() && s.nr == a)
        .all(|s| {
            s.offset == off
                && s.stride == 1
                && s.region.is_none()
                && s.ty.size() == 4
                && def.dst.ty.size() == 4
                && def.dst.stride == 1
                && matches!(def.op, Op::Alu(_) | Op::Math(_) | Op::MulHigh)
        })
}

fn references(inst: &Inst, nr: u32) -> bool {
    std::iter::once(&inst.dst)
        .chain(&inst.src)
        .any(|r| r.file == File::Vgrf && r.nr == nr)
}

/// Folds copies as described in the module documentation; returns whether any went.
///
/// With `into_larger` false the destination must be a register of the temporary's size:
/// computing values straight into slices of message payloads lengthens the payloads' live
/// ranges, which the register-pressure fallback avoids.
pub fn fold_copies(prog: &mut Program, into_larger: bool) -> bool {
    let n = prog.vgrf_sizes.len();
    let mut writes = vec![0u32; n];
    let mut reads = vec![0u32; n];
    let mut def_pairs = Vec::new();
    for (ip, inst) in prog.insts.iter().enumerate() {
        if inst.dst.file == File::Vgrf {
            let Some(w) = writes.get_mut(inst.dst.nr as usize) else {
                return false;
            };
            *w += 1;
            def_pairs.push((inst.dst.nr, ip));
        }
        for s in &inst.src {
            if s.file == File::Vgrf {
                let Some(r) = reads.get_mut(s.nr as usize) else {
                    return false;
                };
                *r += 1;
            }
        }
    }
    let defs = Groups::new(n, &def_pairs);
    let mut removed = vec![false; prog.insts.len()];
    let mut progress = false;
    for ip in 0..prog.insts.len() {
        let copy = &prog.insts[ip];
        if !is_vgrf_bit_copy(copy) {
            continue;
        }
        let (a, b) = (copy.dst.nr, copy.src[0].nr as usize);
        let ds = defs.get(b);
        let Some(&first) = ds.first() else {
            continue;
        };
        if reads[b] != 1 || writes[b] as usize != ds.len() || ds[ds.len() - 1] >= ip {
            continue;
        }
        // A write of the temporary that was itself a copy folded earlier in this pass is
        // gone (its value now lands in the temporary straight from its own computation):
        // the counts above predate that, so leave this copy to the next round.
        if ds.iter().any(|&d| removed[d]) {
            continue;
        }
        if ip - first > WINDOW
            || (!into_larger && prog.vgrf_sizes[a as usize] != prog.vgrf_sizes[b])
        {
            continue;
        }
        // The writes of the temporary cover the copied channels exactly once.
        let mut parts = Vec::with_capacity(ds.len());
        let mut channels = 0u32;
        for &d in ds {
            let def = &prog.insts[d];
            match part_of_source(def, copy) {
                Some(off) if reads_only_in_place(def, a, off) => {
                    parts.push((d, def.group, off));
                    channels += def.exec_size as u32;
                }
                _ => break,
            }
        }
        parts.sort_by_key(|p| p.1);
        let disjoint = parts.windows(2).all(|w| {
            let end = w[0].1 as u32 + prog.insts[w[0].0].exec_size as u32;
            end <= w[1].1 as u32
        });
        if parts.len() != ds.len() || channels != copy.exec_size as u32 || !disjoint {
            continue;
        }
        let blocked = (first + 1..ip).filter(|&k| !removed[k]).any(|k| {
            let inst = &prog.insts[k];
            inst.op.is_flow() || references(inst, a)
        });
        if blocked {
            continue;
        }
        for (d, _, off) in parts {
            let def = &mut prog.insts[d];
            def.dst.nr = a;
            def.dst.offset = off;
        }
        removed[ip] = true;
        progress = true;
    }
    if progress {
        let mut ip = 0;
        prog.insts.retain(|_| {
            ip += 1;
            !removed[ip - 1]
        });
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, binary, f, flow, mov, ud};
    use super::*;
    use crate::intel::eu::RegType;
    use crate::intel::fs::ir::Reg;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(|p| fold_copies(p, true), insts)
    }

    /// `v1 -> v2 -> v3`: folding the first copy removes the instruction that wrote v2, so
    /// the second copy must not be folded into that removed instruction in the same pass
    /// (v3 would never be written); the next pass folds it into the multiply.
    #[test]
    fn chained_copies_fold_one_link_per_pass() {
        let insts = vec![
            binary(Opcode::Mul, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            mov(f(3), f(2)),
            binary(Opcode::Add, f(4), f(3), f(3)),
        ];
        let (changed, out) = run(insts);
        assert!(changed);
        assert_eq!(
            out,
            vec![
                binary(Opcode::Mul, f(2), f(0), f(0)),
                mov(f(3), f(2)),
                binary(Opcode::Add, f(4), f(3), f(3)),
            ]
        );
        let (changed, out) = run(out);
        assert!(changed);
        assert_eq!(
            out,
            vec![
                binary(Opcode::Mul, f(3), f(0), f(0)),
                binary(Opcode::Add, f(4), f(3), f(3)),
            ]
        );
    }

    #[test]
    fn phi_copies_in_both_arms_are_folded() {
        // v0 is the phi register, written in each arm through a temporary.
        let mut iff = flow(Op::If);
        iff.pred = Some(false);
        let (p, out) = run(vec![
            iff.clone(),
            binary(Opcode::Mul, f(1), f(5), f(6)),
            mov(ud(0), ud(1)),
            flow(Op::Else),
            binary(Opcode::Add, f(2), f(5), f(6)),
            binary(Opcode::Mul, f(3), f(2), f(6)),
            mov(ud(0), ud(3)),
            flow(Op::EndIf),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![
                iff,
                binary(Opcode::Mul, f(0), f(5), f(6)),
                flow(Op::Else),
                binary(Opcode::Add, f(2), f(5), f(6)),
                binary(Opcode::Mul, f(0), f(2), f(6)),
                flow(Op::EndIf),
            ]
        );
    }

    #[test]
    fn destination_read_or_written_in_between_blocks_the_fold() {
        for middle in [
            binary(Opcode::Add, f(7), f(0), f(6)),
            mov(f(0), f(6)),
            flow(Op::EndIf),
        ] {
            let insts = vec![
                binary(Opcode::Mul, f(1), f(5), f(6)),
                middle,
                mov(ud(0), ud(1)),
            ];
            let (p, out) = run(insts.clone());
            assert!(!p);
            assert_eq!(out, insts);
        }
    }

    #[test]
    fn temporaries_with_other_reads_or_writes_stay() {
        let insts = vec![
            binary(Opcode::Mul, f(1), f(5), f(6)),
            mov(ud(0), ud(1)),
            binary(Opcode::Add, f(7), f(1), f(6)),
            binary(Opcode::Mul, f(2), f(5), f(6)),
            binary(Opcode::Add, f(2), f(2), f(6)),
            mov(ud(3), ud(2)),
        ];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
    }

    #[test]
    fn converting_moves_and_partial_writes_stay() {
        let mut pred = binary(Opcode::Add, f(3), f(5), f(6));
        pred.pred = Some(false);
        let mut half = binary(Opcode::Add, f(8), f(5), f(6));
        half.exec_size = 4;
        let insts = vec![
            binary(Opcode::Mul, f(1), f(5), f(6)),
            mov(Reg::vgrf(0, RegType::D), f(1)),
            pred,
            mov(ud(2), ud(3)),
            half,
            mov(ud(9), ud(8)),
        ];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
    }

    #[test]
    fn halves_of_a_split_instruction_are_folded() {
        // A SIMD16 copy of a value computed as two SIMD8 halves.
        let mut lo = Inst::new(Op::Alu(Opcode::Mad), 8, f(1), vec![f(5), f(6), f(7)]);
        let mut hi = Inst::new(
            Op::Alu(Opcode::Mad),
            8,
            f(1).horiz_offset(8),
            vec![
                f(5).horiz_offset(8),
                f(6).horiz_offset(8),
                f(7).horiz_offset(8),
            ],
        );
        hi.group = 8;
        let mut copy = mov(ud(0), ud(1));
        copy.exec_size = 16;
        let mut p = Program {
            insts: vec![lo.clone(), hi.clone(), copy.clone()],
            vgrf_sizes: vec![2; 8],
            ..Default::default()
        };
        assert!(fold_copies(&mut p, false));
        lo.dst = f(0);
        hi.dst = f(0).horiz_offset(8);
        assert_eq!(p.insts, vec![lo.clone(), hi.clone()]);
        // Only one half written: the other half of the copy would be lost.
        let mut p = Program {
            insts: vec![lo, copy],
            vgrf_sizes: vec![2; 8],
            ..Default::default()
        };
        p.insts[0].dst = f(1);
        let before = p.insts.clone();
        assert!(!fold_copies(&mut p, false));
        assert_eq!(p.insts, before);
    }

    #[test]
    fn source_reading_the_destination_in_place_folds() {
        // add v1, v0, v6; mov v0, v1  =>  add v0, v0, v6 (each channel reads v0 first).
        let insts = vec![binary(Opcode::Add, f(1), f(0), f(6)), mov(ud(0), ud(1))];
        let (p, out) = run(insts);
        assert!(p);
        assert_eq!(out, vec![binary(Opcode::Add, f(0), f(0), f(6))]);
    }

    #[test]
    fn source_reading_the_destination_elsewhere_stays() {
        // add v1, v0.1, v6; mov v0.0, v1: the add would overwrite what another copy reads
        // at a different offset, and a scalar read of v0 is another channel's value.
        let mut shifted = f(0);
        shifted.offset = 32;
        let insts = vec![binary(Opcode::Add, f(1), shifted, f(6)), mov(ud(0), ud(1))];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
        let mut scalar = f(0);
        scalar.stride = 0;
        let insts = vec![binary(Opcode::Add, f(1), scalar, f(6)), mov(ud(0), ud(1))];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
    }

    #[test]
    fn payload_slices_only_when_allowed() {
        let insts = vec![
            binary(Opcode::Mul, f(1), f(5), f(6)),
            mov(ud(0).reg_offset(1), ud(1)),
        ];
        let mut p = Program {
            insts: insts.clone(),
            vgrf_sizes: vec![2, 1, 1, 1, 1, 1, 1],
            ..Default::default()
        };
        assert!(!fold_copies(&mut p, false));
        assert_eq!(p.insts, insts);
        assert!(fold_copies(&mut p, true));
        assert_eq!(
            p.insts,
            vec![binary(Opcode::Mul, f(0).reg_offset(1), f(5), f(6))]
        );
    }
}
