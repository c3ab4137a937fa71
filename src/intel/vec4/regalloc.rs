//! Register allocation: every virtual register takes one whole GRF (as Mesa's vec4 backend
//! allocates), placed by the graph-colouring allocator of [`crate::ra`].
//!
//! Two registers interfere when their live intervals ([`super::liveness`]) overlap.

use std::sync::{Arc, OnceLock};

use crate::ra::{ClassId, Graph, RegSet, RegSetBuilder};

use super::ir::Program;
use super::liveness;
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

/// Assigns a GRF in `first_free..limit` to every virtual register; `None` when they do not
/// fit.
pub fn allocate(
    prog: &Program,
    first_free: u32,
    limit: u32,
) -> Result<Option<Vec<u32>>, CompileError> {
    Ok(match allocate_with(prog, first_free, limit, None)? {
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

/// [`allocate`] with spill costs per virtual register (no positive cost: never spilled).
pub fn allocate_with(
    prog: &Program,
    first_free: u32,
    limit: u32,
    costs: Option<&[f32]>,
) -> Result<Outcome, CompileError> {
    let iv = liveness::intervals(prog);
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
    for (k, &(_, b, v)) in live.iter().enumerate() {
        for &(a2, _, v2) in &live[k + 1..] {
            if a2 > b {
                break;
            }
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
    use crate::intel::vec4::ir::{Dst, Inst, Op, Src};

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
        let iv = liveness::intervals(&prog);
        assert_eq!(iv[0], Some((0, 5)));
        assert_eq!(iv[1], Some((2, 4)));
        // Read before any write: undefined on entry, so live from the start.
        assert_eq!(iv[2], Some((0, 5)));
        assert_eq!(iv[3], Some((1, 6)));
        // Everything fits in four registers from g10, and v0 and v2 never share one.
        let a = allocate(&prog, 10, 14).unwrap().unwrap();
        assert_ne!(a[0], a[2]);
        assert!(a.iter().take(4).all(|r| (10..14).contains(r)));
    }
}
