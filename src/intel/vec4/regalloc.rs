//! Register allocation: every virtual register takes one whole GRF (as Mesa's vec4 backend
//! allocates), placed by the graph-colouring allocator of [`crate::ra`].
//!
//! Liveness is an interval over the instruction order: from the first instruction that
//! touches a register to the last. A register touched inside a loop and live across any
//! part of it is live over the whole loop (the back edge carries it around, and disabled
//! channels keep their old contents), so its interval is widened to the loop's DO..WHILE
//! until nothing changes.

use std::sync::{Arc, OnceLock};

use crate::ra::{ClassId, Graph, RegSet, RegSetBuilder};

use super::ir::{File, Op, Program};
use super::CompileError;

/// The register set: 128 single GRFs and their one class, built once.
fn reg_set() -> &'static (Arc<RegSet>, ClassId) {
    static SET: OnceLock<(Arc<RegSet>, ClassId)> = OnceLock::new();
    SET.get_or_init(|| {
        let mut b = RegSetBuilder::new(128);
        let class = b.add_contiguous_class(1, 1);
        (
            b.finalize().expect("a set of single registers is valid"),
            class,
        )
    })
}

/// Each virtual register's live interval `(first, last)` instruction index, `None` when
/// it is never touched.
pub fn intervals(prog: &Program) -> Vec<Option<(usize, usize)>> {
    intervals_with(prog, &[])
}

/// [`intervals`], leaving the registers marked in `short` unwidened: spill and fill
/// temporaries live from one instruction to the next and never carry a value around a loop.
pub fn intervals_with(prog: &Program, short: &[bool]) -> Vec<Option<(usize, usize)>> {
    let mut iv: Vec<Option<(usize, usize)>> = vec![None; prog.num_vgrfs as usize];
    let mut touch = |r: u32, ip: usize| {
        if let Some(slot) = iv.get_mut(r as usize) {
            *slot = Some(match *slot {
                None => (ip, ip),
                Some((a, b)) => (a.min(ip), b.max(ip)),
            });
        }
    };
    let mut loops = Vec::new();
    let mut open = Vec::new();
    for (ip, inst) in prog.insts.iter().enumerate() {
        match inst.op {
            Op::Do => open.push(ip),
            Op::While => {
                if let Some(d) = open.pop() {
                    loops.push((d, ip));
                }
            }
            _ => {}
        }
        if inst.dst.file == File::Vgrf {
            touch(inst.dst.nr, ip);
        }
        for s in &inst.src {
            if s.file == File::Vgrf {
                touch(s.nr, ip);
            }
        }
    }
    loop {
        let mut changed = false;
        for (r, slot) in iv.iter_mut().enumerate() {
            let Some(slot) = slot else { continue };
            if short.get(r).copied().unwrap_or(false) {
                continue;
            }
            for &(d, w) in &loops {
                let (a, b) = *slot;
                let overlaps = a <= w && b >= d;
                let inside = a >= d && b <= w;
                if overlaps && (!inside || live_around(prog, d, a, r as u32)) {
                    let n = (a.min(d), b.max(w));
                    if n != *slot {
                        *slot = n;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    iv
}

/// Whether register `r`, whose interval starts at `first` inside the loop starting at
/// `do_ip`, may carry a value around the back edge. Only a register whose first touch is a
/// full, unpredicated write of it at the loop's top nesting level starts fresh each
/// iteration; anything else (a read first, a partial write) is live around the loop.
fn live_around(prog: &Program, do_ip: usize, first: usize, r: u32) -> bool {
    let inst = &prog.insts[first];
    let full = inst.dst.file == File::Vgrf
        && inst.dst.nr == r
        && inst.dst.writemask == 0xf
        && inst.pred.is_none()
        && !inst
            .src
            .iter()
            .any(|s| s.file == File::Vgrf && s.nr == inst.dst.nr);
    if !full {
        return true;
    }
    // Nested control flow between the loop's top and the write makes it conditional.
    let mut depth = 0i32;
    for i in &prog.insts[do_ip + 1..first] {
        match i.op {
            Op::If | Op::Do => depth += 1,
            Op::EndIf | Op::While => depth -= 1,
            Op::Break | Op::Continue if depth == 0 => return true,
            _ => {}
        }
    }
    depth != 0
}

/// Assigns a GRF in `first_free..limit` to every virtual register; `None` when they do not
/// fit.
pub fn allocate(
    prog: &Program,
    first_free: u32,
    limit: u32,
) -> Result<Option<Vec<u32>>, CompileError> {
    Ok(match allocate_with(prog, first_free, limit, None, &[])? {
        Outcome::Done(a) => Some(a),
        Outcome::Spill(_) | Outcome::NoFit => None,
    })
}

/// What [`allocate_with`] found.
#[derive(Debug)]
pub enum Outcome {
    /// Every virtual register's GRF.
    Done(Vec<u32>),
    /// The program does not fit; spilling this virtual register helps most per unit of cost.
    Spill(u32),
    /// The program does not fit and nothing may be spilled.
    NoFit,
}

/// [`allocate`] with spill costs per virtual register (no positive cost: never spilled) and
/// the spill temporaries marked in `short` (see [`intervals_with`]).
pub fn allocate_with(
    prog: &Program,
    first_free: u32,
    limit: u32,
    costs: Option<&[f32]>,
    short: &[bool],
) -> Result<Outcome, CompileError> {
    let iv = intervals_with(prog, short);
    let (set, class) = reg_set();
    let class = *class;
    let mut g = Graph::new(set);
    let nodes: Vec<_> = iv.iter().map(|_| g.add_node(class)).collect();
    // Registers outside the allocatable range are taken by precoloured blockers.
    let blockers: Vec<_> = (0..128u32)
        .filter(|r| *r < first_free || *r >= limit)
        .map(|r| {
            let n = g.add_node(class);
            g.precolor(n, set.class_regs(class)[r as usize]);
            n
        })
        .collect();
    let mut live: Vec<(usize, usize, usize)> = iv
        .iter()
        .enumerate()
        .filter_map(|(v, s)| s.map(|(a, b)| (a, b, v)))
        .collect();
    live.sort_unstable();
    for (k, &(a, b, v)) in live.iter().enumerate() {
        for &(a2, _, v2) in &live[k + 1..] {
            if a2 > b {
                break;
            }
            let _ = a;
            g.add_edge(nodes[v], nodes[v2]);
        }
        for &bl in &blockers {
            g.add_edge(nodes[v], bl);
        }
    }
    if let Some(costs) = costs {
        for (&n, &c) in nodes.iter().zip(costs) {
            g.set_spill_cost(n, c);
        }
    }
    match g.allocate() {
        Ok(a) => Ok(Outcome::Done(
            nodes
                .iter()
                .map(|&n| set.units_of(a.reg(n)).start as u32)
                .collect(),
        )),
        Err(crate::ra::AllocError::Spill(c)) if costs.is_some() => Ok(nodes
            .iter()
            .position(|&n| n == c.candidate)
            .map_or(Outcome::NoFit, |v| Outcome::Spill(v as u32))),
        Err(crate::ra::AllocError::Spill(_) | crate::ra::AllocError::NoSpillCandidate { .. }) => {
            Ok(Outcome::NoFit)
        }
        Err(e) => Err(CompileError::Internal(format!(
            "register allocation: {e:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{Opcode, RegType::F};
    use crate::intel::vec4::ir::{Dst, Inst, Src};

    #[test]
    fn values_live_around_a_loop_cover_it_and_fresh_ones_do_not() {
        let mov = |d: u32, s: Src| Inst::new(Op::Alu(Opcode::Mov), Dst::vgrf(d, F, 0xf), vec![s]);
        let flow = |op| Inst::new(op, Dst::null(F), vec![]);
        let prog = Program {
            insts: vec![
                mov(0, Src::imm_f(1.0)), // 0: v0 before the loop
                flow(Op::Do),            // 1
                mov(1, Src::vgrf(0, F)), // 2: v1 fresh each iteration
                mov(3, Src::vgrf(2, F)), // 3: v2 read before written
                mov(2, Src::vgrf(1, F)), // 4
                flow(Op::While),         // 5
                mov(4, Src::vgrf(3, F)), // 6
            ],
            num_vgrfs: 5,
        };
        let iv = intervals(&prog);
        assert_eq!(iv[0], Some((0, 5)));
        assert_eq!(iv[1], Some((2, 4)));
        assert_eq!(iv[2], Some((1, 5)));
        assert_eq!(iv[3], Some((1, 6)));
        // Everything fits in four registers from g10, and v0 and v2 never share one.
        let a = allocate(&prog, 10, 14).unwrap().unwrap();
        assert_ne!(a[0], a[2]);
        assert!(a.iter().take(4).all(|r| (10..14).contains(r)));
    }
}
