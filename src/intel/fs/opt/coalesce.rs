//! Register coalescing: a virtual register that is only ever a whole copy of another one is
//! replaced by that other register, and the copies go.
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
//! (shared/seeds/003). The pass accepts a copy when either A is dead after it, or B's range
//! starts at the copy and ends inside A's, no instruction in that stretch writes A, and no
//! control flow lies in it (the stretch is then straight-line code, so "in between" means the
//! same thing on every path).
//!
//! Liveness is computed once per call; a register that took part in a merge is not
//! considered again until the next call, so the stale intervals are never consulted for it.

use crate::intel::eu::{CondMod, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program, REG_SIZE};
use crate::intel::fs::liveness;

/// Whether a MOV between these types copies bits: the same type, or integers of one size
/// (a MOV between float and integer types converts).
pub(super) fn is_raw_copy(src: RegType, dst: RegType) -> bool {
    src == dst || (!src.is_float() && !dst.is_float() && src.size() == dst.size())
}

/// Whether `inst` is a plain copy of register-aligned whole registers from one virtual
/// register into the same place of another; returns the source register.
fn whole_reg_copy(inst: &Inst) -> Option<u32> {
    let s = inst.src.first()?;
    let d = &inst.dst;
    let ok = inst.op == Op::Alu(Opcode::Mov)
        && inst.src.len() == 1
        && inst.pred.is_none()
        && !inst.sat
        && inst.cmod == CondMod::None
        && d.file == File::Vgrf
        && s.file == File::Vgrf
        && s.nr != d.nr
        && !s.neg
        && !s.abs
        && s.region.is_none()
        && s.stride == 1
        && d.stride == 1
        && is_raw_copy(s.ty, d.ty)
        && s.offset == d.offset
        && d.offset % REG_SIZE == 0
        && (inst.exec_size as u32 * d.ty.size()) % REG_SIZE == 0;
    ok.then_some(s.nr)
}

/// Coalesces copies as described in the module documentation; returns whether any went.
pub fn register_coalesce(prog: &mut Program) -> bool {
    let n = prog.vgrf_sizes.len();
    let mut writers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (ip, inst) in prog.insts.iter().enumerate() {
        if inst.dst.file == File::Vgrf && (inst.dst.nr as usize) < n {
            writers[inst.dst.nr as usize].push(ip);
        }
    }
    let flow_before: Vec<usize> = {
        // flow_before[ip] = number of flow instructions in 0..ip.
        let mut v = Vec::with_capacity(prog.insts.len() + 1);
        let mut c = 0;
        v.push(0);
        for inst in &prog.insts {
            c += inst.op.is_flow() as usize;
            v.push(c);
        }
        v
    };
    let no_flow = |a: usize, b: usize| flow_before[b + 1] == flow_before[a];
    let mut live = None;
    let mut touched = vec![false; n];
    let mut remove = vec![false; prog.insts.len()];
    let mut rename: Vec<u32> = (0..n as u32).collect();
    for b in 0..n {
        let ws = &writers[b];
        if ws.is_empty() || touched[b] {
            continue;
        }
        let Some(a) = whole_reg_copy(&prog.insts[ws[0]]) else {
            continue;
        };
        let (a, bu) = (a as usize, b);
        if a >= n || touched[a] || prog.vgrf_sizes[a] != prog.vgrf_sizes[bu] {
            continue;
        }
        // Every write of B is a copy from A, together covering B exactly once.
        let mut covered = vec![false; prog.vgrf_sizes[bu] as usize];
        let mut ok = true;
        for &ip in ws {
            let inst = &prog.insts[ip];
            if whole_reg_copy(inst) != Some(a as u32) {
                ok = false;
                break;
            }
            let first = (inst.dst.offset / REG_SIZE) as usize;
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
        let first = ws[0];
        let last = *ws.last().unwrap();
        if !no_flow(first, last) {
            continue;
        }
        let live: &liveness::Liveness = live.get_or_insert_with(|| liveness::compute(prog));
        let (Some((sa, ea)), Some((sb, eb))) = (
            live.vgrf_interval(a, prog.vgrf_sizes[a]),
            live.vgrf_interval(bu, prog.vgrf_sizes[bu]),
        ) else {
            continue;
        };
        let _ = sa;
        if sb != first {
            continue;
        }
        let a_dead_after = ea <= last;
        let b_inside = eb <= ea && no_flow(first, eb);
        if !(a_dead_after || b_inside) {
            continue;
        }
        let end = eb.max(last);
        if writers[a].iter().any(|&w| w >= first && w <= end) {
            continue;
        }
        for &ip in ws {
            remove[ip] = true;
        }
        rename[bu] = a as u32;
        touched[a] = true;
        touched[bu] = true;
    }
    if !touched.iter().any(|t| *t) {
        return false;
    }
    let mut ip = 0;
    prog.insts.retain(|_| {
        ip += 1;
        !remove[ip - 1]
    });
    for inst in &mut prog.insts {
        for r in std::iter::once(&mut inst.dst).chain(inst.src.iter_mut()) {
            if r.file == File::Vgrf && (r.nr as usize) < n {
                r.nr = rename[r.nr as usize];
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::fs::ir::Reg;

    fn f(nr: u32) -> Reg {
        Reg::vgrf(nr, RegType::F)
    }

    fn mov(dst: Reg, src: Reg) -> Inst {
        Inst::new(Op::Alu(Opcode::Mov), 8, dst, vec![src])
    }

    fn alu(op: Opcode, dst: Reg, a: Reg, b: Reg) -> Inst {
        Inst::new(Op::Alu(op), 8, dst, vec![a, b])
    }

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
        let mut p = Program {
            insts,
            vgrf_sizes: vec![1; 8],
        };
        let progress = register_coalesce(&mut p);
        (progress, p.insts)
    }

    #[test]
    fn seed_003_add_mov_mul() {
        // add vgrf3, vgrf1, vgrf2; mov vgrf4, vgrf3; mul vgrf5, vgrf5, vgrf4
        //   =>  add vgrf3, vgrf1, vgrf2; mul vgrf5, vgrf5, vgrf3
        // (the copy's destination takes the source's name; Mesa keeps the other name, which
        // is the same program up to renaming).
        let (p, insts) = run(vec![
            mov(f(5), f(0)),
            alu(Opcode::Add, f(3), f(1), f(2)),
            mov(f(4), f(3)),
            alu(Opcode::Mul, f(5), f(5), f(4)),
            out(&[5, 1, 2, 0]),
        ]);
        assert!(p);
        assert_eq!(
            insts,
            vec![
                mov(f(5), f(0)),
                alu(Opcode::Add, f(3), f(1), f(2)),
                alu(Opcode::Mul, f(5), f(5), f(3)),
                out(&[5, 1, 2, 0]),
            ]
        );
    }

    #[test]
    fn copy_whose_range_lies_inside_the_source_is_coalesced() {
        // A (v1) stays live after B's (v2) last use: they overlap but never differ.
        let (p, insts) = run(vec![
            alu(Opcode::Add, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            alu(Opcode::Mul, f(3), f(2), f(0)),
            alu(Opcode::Add, f(4), f(1), f(3)),
            out(&[4, 0, 0, 0]),
        ]);
        assert!(p);
        assert_eq!(insts[1], alu(Opcode::Mul, f(3), f(1), f(0)));
        assert_eq!(insts.len(), 4);
    }

    #[test]
    fn source_written_while_copy_is_live_blocks_coalescing() {
        let insts = vec![
            alu(Opcode::Add, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            alu(Opcode::Add, f(1), f(1), f(0)),
            alu(Opcode::Mul, f(3), f(2), f(1)),
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
            alu(Opcode::Add, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            alu(Opcode::Mul, f(3), f(1), f(0)),
            alu(Opcode::Mul, f(4), f(1), f(3)),
            out(&[2, 4, 0, 0]),
        ];
        let (_, got) = run(insts.clone());
        // A ends at ip 3, B at ip 4; A is live after the copy, so no merge.
        assert_eq!(got, insts);
    }

    #[test]
    fn copy_across_control_flow_is_kept() {
        let insts = vec![
            alu(Opcode::Add, f(1), f(0), f(0)),
            mov(f(2), f(1)),
            Inst::new(Op::If, 8, Reg::BAD, vec![]),
            alu(Opcode::Mul, f(3), f(2), f(0)),
            Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
            out(&[3, 1, 0, 0]),
        ];
        let (p, got) = run(insts.clone());
        assert!(!p);
        assert_eq!(got, insts);
    }

    #[test]
    fn converting_move_is_not_a_copy() {
        let insts = vec![
            alu(Opcode::Add, Reg::vgrf(1, RegType::D), f(0), f(0)),
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
            alu(Opcode::Add, f(2), f(2), f(0)),
            out(&[2, 1, 0, 0]),
        ];
        let (p, got) = run(insts.clone());
        assert!(!p);
        assert_eq!(got, insts);
    }
}
