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
        for slot in iv.iter_mut().flatten() {
            for &(d, w) in &loops {
                let (a, b) = *slot;
                let overlaps = a <= w && b >= d;
                let inside = a >= d && b <= w;
                if overlaps && (!inside || live_around(prog, d, w, a)) {
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

/// Whether a register whose interval starts at `first` inside the loop `do_ip..while_ip`
/// may carry a value around the back edge. Only a register whose first touch is a full,
/// unpredicated write at the loop's top nesting level starts fresh each iteration; anything
/// else is treated as live around the loop.
fn live_around(prog: &Program, do_ip: usize, while_ip: usize, first: usize) -> bool {
    let inst = &prog.insts[first];
    let full = inst.dst.file == File::Vgrf
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
    let _ = while_ip;
    depth != 0
}

/// Assigns a GRF in `first_free..limit` to every virtual register; `None` when they do not
/// fit (spilling is not implemented).
pub fn allocate(
    prog: &Program,
    first_free: u32,
    limit: u32,
) -> Result<Option<Vec<u32>>, CompileError> {
    let iv = intervals(prog);
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
    match g.allocate() {
        Ok(a) => Ok(Some(
            nodes
                .iter()
                .map(|&n| set.units_of(a.reg(n)).start as u32)
                .collect(),
        )),
        // Nothing is spillable yet, so the allocator's "spill this" and "nothing to spill"
        // both mean the program does not fit.
        Err(crate::ra::AllocError::Spill(_) | crate::ra::AllocError::NoSpillCandidate { .. }) => {
            Ok(None)
        }
        Err(e) => Err(CompileError::Internal(format!(
            "register allocation: {e:?}"
        ))),
    }
}
