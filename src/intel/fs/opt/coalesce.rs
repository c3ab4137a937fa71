//! Register coalescing: a virtual register A copied whole into (a slice of) another one, B,
//! is renamed to that slice when the two can share registers, and the copies go.
//!
//! Plain live-range overlap is too strict a notion of interference here: after
//!
//! ```text
//! mov B, A
//! ...        (no write to A or B)
//! use B
//! use A
//! ```
//!
//! B's range lies inside A's, yet B always equals A, so both can share a register
//! (shared/seeds/003). The pass accepts the copies when only they write B's slice, the
//! slice's range starts at the first copy, and either A is dead after the copies or the
//! slice's range ends inside A's with no write to A and no control flow in between (the
//! stretch is then straight-line code, so "in between" means the same thing on every path).
//!
//! Liveness is computed once per call; the registers pieces that took part in a merge are not
//! considered again until the next call, so stale intervals are never consulted.

use crate::intel::eu::RegType;

use crate::intel::fs::ir::{File, Inst, Program, REG_SIZE};
use crate::intel::fs::liveness;
use crate::util::bitset::BitSet;
use crate::util::groups::Groups;

/// Whether a MOV between these types copies bits: the same type, or integers of one size
/// (a MOV between float and integer types converts).
pub(super) fn is_raw_copy(src: RegType, dst: RegType) -> bool {
    src == dst || (!src.is_float() && !dst.is_float() && src.size() == dst.size())
}

/// A MOV that copies bits unchanged from one virtual register to another: one source, no
/// predicate, saturate, condition or source modifier, unit strides and no explicit region,
/// types that move the same bits. The copy-removing passes add their own placement rules.
pub(super) fn is_vgrf_bit_copy(inst: &Inst) -> bool {
    let (Some(s), d) = (inst.src.first(), &inst.dst) else {
        return false;
    };
    inst.is_unmodified_mov()
        && d.file == File::Vgrf
        && s.file == File::Vgrf
        && s.nr != d.nr
        && s.region.is_none()
        && d.region.is_none()
        && s.stride == 1
        && d.stride == 1
        && is_raw_copy(s.ty, d.ty)
}

/// A plain copy of register-aligned whole registers between two virtual registers:
/// `(source, destination, byte shift from source offset to destination offset)`.
fn whole_reg_copy(inst: &Inst) -> Option<(u32, u32, u32)> {
    let s = inst.src.first()?;
    let d = &inst.dst;
    let ok = is_vgrf_bit_copy(inst)
        && d.offset >= s.offset
        && s.offset % REG_SIZE == 0
        && d.offset % REG_SIZE == 0
        && (inst.exec_size as u32 * d.ty.size()) % REG_SIZE == 0;
    // Lazily: the shift is only meaningful (and only non-negative) when the copy qualifies.
    ok.then(|| (s.nr, d.nr, d.offset - s.offset))
}

/// Coalesces copies as described in the module documentation; returns whether any went.
///
/// A register A copied whole into a slice of B that nothing else writes is renamed to that
/// slice (with equal sizes, B itself), which also places values straight into the message
/// payloads that sends read.
///
/// With `into_slices` false only registers of equal size merge.
pub fn register_coalesce(prog: &mut Program, into_slices: bool) -> bool {
    let n = prog.vgrf_sizes.len();
    let (mut writer_pairs, mut copy_pairs) = (Vec::new(), Vec::new());
    for (ip, inst) in prog.insts.iter().enumerate() {
        if inst.dst.file == File::Vgrf && (inst.dst.nr as usize) < n {
            writer_pairs.push((inst.dst.nr, ip));
        }
        if let Some((a, _, _)) = whole_reg_copy(inst) {
            if (a as usize) < n {
                copy_pairs.push((a, ip));
            }
        }
    }
    let writers = Groups::new(n, &writer_pairs);
    let copies_of = Groups::new(n, &copy_pairs);
    // flow_before[ip] = number of flow instructions in 0..ip.
    let mut flow_before = Vec::with_capacity(prog.insts.len() + 1);
    flow_before.push(0usize);
    for inst in &prog.insts {
        flow_before.push(flow_before.last().unwrap() + inst.op.is_flow() as usize);
    }
    let no_flow = |a: usize, b: usize| flow_before[b + 1] == flow_before[a];
    let mut live: Option<liveness::Liveness> = None;
    let mut touched: Option<BitSet> = None;
    let mut remove = vec![false; prog.insts.len()];
    // New (register, byte shift) for each renamed register.
    let mut rename: Vec<Option<(u32, u32)>> = vec![None; n];
    // `a` indexes the copy lists, the sizes and the renames alike.
    #[allow(clippy::needless_range_loop)]
    for a in 0..n {
        let Some(&c0) = copies_of.get(a).first() else {
            continue;
        };
        let (_, b, shift) = whole_reg_copy(&prog.insts[c0]).unwrap();
        let b = b as usize;
        let size_a = prog.vgrf_sizes[a];
        let k = shift / REG_SIZE;
        if b >= n
            || k + size_a > prog.vgrf_sizes[b]
            || (!into_slices && prog.vgrf_sizes[b] != size_a)
        {
            continue;
        }
        // The copies from A into B at this shift, covering A exactly once.
        let copies: Vec<usize> = copies_of
            .get(a)
            .iter()
            .copied()
            .filter(|&ip| whole_reg_copy(&prog.insts[ip]) == Some((a as u32, b as u32, shift)))
            .collect();
        let mut covered = vec![false; size_a as usize];
        let mut ok = true;
        for &ip in &copies {
            let inst = &prog.insts[ip];
            let first = (inst.src[0].offset / REG_SIZE) as usize;
            for r in first..first + inst.regs_written() as usize {
                match covered.get_mut(r) {
                    Some(c) if !*c => *c = true,
                    _ => ok = false,
                }
            }
        }
        if !ok || covered.iter().any(|c| !c) {
            continue;
        }
        // Nothing but those copies writes the slice.
        let slice = k..k + size_a;
        let foreign_write = writers.get(b).iter().any(|&ip| {
            let inst = &prog.insts[ip];
            let first = inst.dst.offset / REG_SIZE;
            let last = first + inst.regs_written().max(1);
            first < slice.end && slice.start < last && !copies.contains(&ip)
        });
        if foreign_write {
            continue;
        }
        let first = copies[0];
        let last = *copies.last().unwrap();
        if !no_flow(first, last) {
            continue;
        }
        let live = live.get_or_insert_with(|| liveness::compute(prog));
        let touched = touched.get_or_insert_with(|| BitSet::new(total_pieces(prog)));
        let pa = live.piece_base[a]..live.piece_base[a] + size_a as usize;
        let pb = live.piece_base[b] + k as usize..live.piece_base[b] + (k + size_a) as usize;
        if pa.clone().chain(pb.clone()).any(|p| touched.contains(p)) {
            continue;
        }
        let interval = |ps: std::ops::Range<usize>| {
            let s = ps
                .clone()
                .map(|p| live.start[p])
                .min()
                .unwrap_or(usize::MAX);
            let e = ps.map(|p| live.end[p]).max().unwrap_or(0);
            (s != usize::MAX).then_some((s, e))
        };
        let (Some((_, ea)), Some((sb, eb))) = (interval(pa.clone()), interval(pb.clone())) else {
            continue;
        };
        if sb != first {
            continue;
        }
        let a_dead_after = ea <= last;
        let b_inside = eb <= ea && no_flow(first, eb);
        if !(a_dead_after || b_inside) {
            continue;
        }
        let end = eb.max(last);
        if writers.get(a).iter().any(|&w| w >= first && w <= end) {
            continue;
        }
        for &ip in &copies {
            remove[ip] = true;
        }
        rename[a] = Some((b as u32, shift));
        for p in pa.chain(pb) {
            touched.insert(p);
        }
    }
    if rename.iter().all(Option::is_none) {
        return false;
    }
    let mut ip = 0;
    prog.insts.retain(|_| {
        ip += 1;
        !remove[ip - 1]
    });
    for inst in &mut prog.insts {
        for r in std::iter::once(&mut inst.dst).chain(inst.src.iter_mut()) {
            if r.file == File::Vgrf {
                if let Some(Some((b, shift))) = rename.get(r.nr as usize) {
                    r.nr = *b;
                    r.offset += shift;
                }
            }
        }
    }
    true
}

fn total_pieces(prog: &Program) -> usize {
    prog.vgrf_sizes.iter().map(|&s| s as usize).sum()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, binary, f, mov};
    use super::*;
    use crate::intel::eu::Opcode;
    use crate::intel::fs::ir::{Op, Reg};

    /// A sink keeping registers live (a render-target write reads its sources).
    fn out(regs: &[u32]) -> Inst {
        Inst::new(
            Op::FbWrite {
                target: 0,
                last: true,
            },
            8,
            Reg::BAD,
            regs.iter().map(|&r| f(r)).collect(),
        )
    }

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(|p| register_coalesce(p, true), insts)
    }

    #[test]
    fn seed_003_add_mov_mul() {
        // add vgrf3, vgrf1, vgrf2; mov vgrf4, vgrf3; mul vgrf5, vgrf5, vgrf4
        //   =>  add vgrf4, vgrf1, vgrf2; mul vgrf5, vgrf5, vgrf4  (as in the seed)
        let (p, insts) = run(vec![
            mov(f(5), f(0)),
            binary(Opcode::Add, f(3), f(1), f(2)),
            mov(f(4), f(3)),
            binary(Opcode::Mul, f(5), f(5), f(4)),
            out(&[5, 1, 2, 0]),
        ]);
        assert!(p);
        assert_eq!(
            insts,
            vec![
                mov(f(5), f(0)),
                binary(Opcode::Add, f(4), f(1), f(2)),
                binary(Opcode::Mul, f(5), f(5), f(4)),
                out(&[5, 1, 2, 0]),
            ]
        );
    }

    #[test]
    fn copy_whose_range_lies_inside_the_source_is_coalesced() {
        // A (v1) stays live after B's (v2) last use: they overlap but never differ.
        let (p, insts) = run(vec![
            binary(Opcode::Add, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            binary(Opcode::Mul, f(3), f(2), f(0)),
            binary(Opcode::Add, f(4), f(1), f(3)),
            out(&[4, 0, 0, 0]),
        ]);
        assert!(p);
        assert_eq!(
            insts,
            vec![
                binary(Opcode::Add, f(2), f(0), f(0)),
                binary(Opcode::Mul, f(3), f(2), f(0)),
                binary(Opcode::Add, f(4), f(2), f(3)),
                out(&[4, 0, 0, 0]),
            ]
        );
    }

    #[test]
    fn source_written_while_copy_is_live_blocks_coalescing() {
        let insts = vec![
            binary(Opcode::Add, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            binary(Opcode::Add, f(1), f(1), f(0)),
            binary(Opcode::Mul, f(3), f(2), f(1)),
            out(&[3, 0, 0, 0]),
        ];
        let (p, got) = run(insts.clone());
        assert!(!p);
        assert_eq!(got, insts);
    }

    #[test]
    fn copy_outliving_a_live_source_is_kept() {
        // B lives past A's end while A is still live after the copy: ranges overlap and B
        // does not lie inside A.
        let insts = vec![
            binary(Opcode::Add, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            binary(Opcode::Mul, f(3), f(1), f(0)),
            binary(Opcode::Mul, f(4), f(1), f(3)),
            out(&[2, 4, 0, 0]),
        ];
        let (_, got) = run(insts.clone());
        // A ends at ip 3, B at ip 4; A is live after the copy, so no merge.
        assert_eq!(got, insts);
    }

    #[test]
    fn copy_across_control_flow_is_kept() {
        let insts = vec![
            binary(Opcode::Add, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            Inst::new(Op::If, 8, Reg::BAD, vec![]),
            binary(Opcode::Mul, f(3), f(2), f(0)),
            Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
            out(&[3, 1, 0, 0]),
        ];
        let (p, got) = run(insts.clone());
        assert!(!p);
        assert_eq!(got, insts);
    }

    #[test]
    fn components_are_placed_into_the_payload() {
        // Two one-register values copied into a two-register message payload (v3) are
        // computed there directly.
        let mut p = Program {
            insts: vec![
                binary(Opcode::Add, f(1), f(0), f(0)),
                binary(Opcode::Mul, f(2), f(0), f(0)),
                mov(f(3), f(1)),
                mov(f(3).reg_offset(1), f(2)),
                Inst::new(Op::Send, 8, Reg::null(RegType::UW), vec![f(3)]),
            ],
            vgrf_sizes: vec![1, 1, 1, 2],
            ..Default::default()
        };
        p.insts[4].mlen = 2;
        let mut same_size_only = p.clone();
        assert!(!register_coalesce(&mut same_size_only, false));
        assert!(register_coalesce(&mut p, true));
        assert_eq!(p.insts.len(), 3);
        assert_eq!(p.insts[0], binary(Opcode::Add, f(3), f(0), f(0)));
        assert_eq!(
            p.insts[1],
            binary(Opcode::Mul, f(3).reg_offset(1), f(0), f(0))
        );
    }

    #[test]
    fn slice_written_by_something_else_is_kept() {
        let mut p = Program {
            insts: vec![
                binary(Opcode::Add, f(1), f(0), f(0)),
                mov(f(3), f(1)),
                binary(Opcode::Mul, f(3), f(3), f(0)),
                Inst::new(Op::Send, 8, Reg::null(RegType::UW), vec![f(3)]),
            ],
            vgrf_sizes: vec![1, 1, 1, 2],
            ..Default::default()
        };
        p.insts[3].mlen = 2;
        let before = p.insts.clone();
        assert!(!register_coalesce(&mut p, true));
        assert_eq!(p.insts, before);
    }

    #[test]
    fn converting_move_is_not_a_copy() {
        let insts = vec![
            binary(Opcode::Add, Reg::vgrf(1, RegType::D), f(0), f(0)),
            mov(f(2), Reg::vgrf(1, RegType::D)),
            out(&[2, 0, 0, 0]),
        ];
        let (p, got) = run(insts.clone());
        assert!(!p);
        assert_eq!(got, insts);
    }

    #[test]
    fn twice_written_destination_is_kept() {
        let insts = vec![
            mov(f(2), f(1)),
            binary(Opcode::Add, f(2), f(2), f(0)),
            out(&[2, 1, 0, 0]),
        ];
        let (p, got) = run(insts.clone());
        assert!(!p);
        assert_eq!(got, insts);
    }
}
