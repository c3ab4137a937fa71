//! Register allocation: every virtual register takes one whole GRF (as Mesa's vec4 backend
//! allocates), placed by the graph-colouring allocator of [`crate::ra`].
//!
//! Two registers interfere when their live intervals ([`super::liveness`]) overlap.

use std::sync::{Arc, OnceLock};

use crate::ra::{ClassId, Graph, NodeId, RegSet, RegSetBuilder};

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

/// Every virtual register's GRF, and the size of the interference graph that placed them
/// (for `GPUCC_DEBUG=ra`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    /// GRF of each virtual register (registers never live get one too, unused).
    pub regs: Vec<u32>,
    /// Nodes of the interference graph: one per virtual register, one per GRF outside the
    /// allocatable range.
    pub graph_nodes: usize,
    /// Interference edges added.
    pub graph_edges: usize,
}

/// Assigns a GRF in `first_free..limit` to every virtual register; `None` when they do not
/// fit.
pub fn allocate(
    prog: &Program,
    first_free: u32,
    limit: u32,
) -> Result<Option<Allocation>, CompileError> {
    Ok(match allocate_with(prog, first_free, limit, None)? {
        Outcome::Done(a) => Some(a),
        Outcome::Spill(_) | Outcome::NoFit => None,
    })
}

/// What [`allocate_with`] found.
#[derive(Debug)]
pub enum Outcome {
    /// Every virtual register's GRF.
    Done(Allocation),
    /// The program does not fit; spilling this virtual register helps most per unit of cost.
    Spill(u32),
    /// The program does not fit and nothing may be spilled.
    NoFit,
}

/// The interference graph of `prog` for registers `first_free..limit`: node `v` is virtual
/// register `v` (the returned nodes, in order), and every GRF outside the range is taken by
/// a pre-coloured blocker that interferes with every live register. Two registers interfere
/// when their live intervals overlap.
pub fn build_graph(
    prog: &Program,
    iv: &[Option<(usize, usize)>],
    first_free: u32,
    limit: u32,
) -> (Graph, Vec<NodeId>) {
    let (set, class) = reg_set();
    let class = *class;
    let mut g = Graph::new(set);
    let nodes: Vec<_> = iv.iter().map(|_| g.add_node(class)).collect();
    debug_assert_eq!(nodes.len(), prog.num_vgrfs as usize);
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
    (g, nodes)
}

/// [`allocate`] with spill costs per virtual register (no positive cost: never spilled).
///
/// Every allocation found is checked by [`ra::check`](crate::ra::check), which verifies the
/// colouring of the graph; the program, once allocated and spilled, by
/// [`alloc_check`](super::alloc_check), which follows the values through the registers.
pub fn allocate_with(
    prog: &Program,
    first_free: u32,
    limit: u32,
    costs: Option<&[f32]>,
) -> Result<Outcome, CompileError> {
    let iv = liveness::intervals(prog);
    let (mut g, nodes) = build_graph(prog, &iv, first_free, limit);
    let (set, _) = reg_set();
    if let Some(costs) = costs {
        for (&n, &c) in nodes.iter().zip(costs) {
            g.set_spill_cost(n, c);
        }
    }
    match g.allocate() {
        Ok(a) => {
            crate::ra::check(&g, &a).map_err(|e| {
                CompileError::Internal(format!("vec4 register allocation check failed: {e}"))
            })?;
            let regs: Vec<u32> = nodes
                .iter()
                .map(|&n| set.units_of(a.reg(n)).start as u32)
                .collect();
            Ok(Outcome::Done(Allocation {
                regs,
                graph_nodes: g.num_nodes(),
                graph_edges: g.num_edges_added(),
            }))
        }
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
            interleaved_attrs: false,
        };
        let iv = liveness::intervals(&prog);
        assert_eq!(iv[0], Some((0, 5)));
        assert_eq!(iv[1], Some((2, 4)));
        // Read before any write: undefined on entry, so live from the start.
        assert_eq!(iv[2], Some((0, 5)));
        assert_eq!(iv[3], Some((1, 6)));
        // Everything fits in four registers from g10, and v0 and v2 never share one.
        let a = allocate(&prog, 10, 14).unwrap().unwrap().regs;
        assert_ne!(a[0], a[2]);
        assert!(a.iter().take(4).all(|r| (10..14).contains(r)));
    }

    /// A wrong allocation of the loop program above: v0 and v2 are live together around
    /// the loop, and giving them one GRF loses v0 on the back edge. The colouring check
    /// rejects it on the graph from the true live intervals, but accepts it on a graph
    /// built from intervals a liveness bug cut short (v0's ending at its last read in program
    /// order, v2's starting at its write, as if the loop did not go round). The value check
    /// needs no graph: it names the read on the next iteration.
    #[test]
    fn a_wrong_allocation_a_bad_graph_accepts_is_rejected_by_the_value_check() {
        let mov = |d: u32, s: Src| Inst::new(Op::Alu(Opcode::Mov), Dst::vgrf(d, F, 0xf), vec![s]);
        let flow = |op| Inst::new(op, Dst::null(F), vec![]);
        let prog = Program {
            insts: vec![
                mov(0, Src::imm_f(1.0)),
                flow(Op::Do),
                mov(1, Src::vgrf(0, F)),
                mov(3, Src::vgrf(2, F)),
                mov(2, Src::vgrf(1, F)),
                flow(Op::While),
                mov(4, Src::vgrf(3, F)),
            ],
            num_vgrfs: 5,
            interleaved_attrs: false,
        };
        let (set, class) = reg_set();
        let grf =
            |a: &crate::ra::Assignment, n: crate::ra::NodeId| set.units_of(a.reg(n)).start as u32;
        let iv = liveness::intervals(&prog);
        let (g, nodes) = build_graph(&prog, &iv, 10, 14);
        let good = g.clone().allocate().unwrap();
        crate::ra::check(&g, &good).unwrap();
        let regs: Vec<u32> = nodes.iter().map(|&n| grf(&good, n)).collect();
        super::super::alloc_check::check(&prog, &regs, (1, 1), 10).unwrap();

        // v2 moved onto v0's register.
        let mut wrong = good.regs().to_vec();
        wrong[nodes[2].index()] = wrong[nodes[0].index()];
        let wrong = crate::ra::Assignment::from_regs(wrong);
        let err = crate::ra::check(&g, &wrong).unwrap_err();
        assert!(
            matches!(err, crate::ra::CheckError::Conflict { .. }),
            "{err}"
        );
        let mut cut = iv.clone();
        cut[0] = Some((0, 2));
        cut[2] = Some((4, 4));
        let (bad_graph, _) = build_graph(&prog, &cut, 10, 14);
        assert_eq!(crate::ra::check(&bad_graph, &wrong), Ok(()));
        let shared: Vec<u32> = nodes.iter().map(|&n| grf(&wrong, n)).collect();
        let err = super::super::alloc_check::check(&prog, &shared, (1, 1), 10).unwrap_err();
        let g0 = shared[0];
        assert_eq!(
            err.to_string(),
            // The loop's entry brings v0 into the register, the back edge v2.
            format!(
                "ip 2 (mov v1F, v0F) operand 0 reads v0.x from g{g0}.x, which holds \
                 different values on different paths"
            )
        );

        // v1 placed in g3, below the allocatable range (a payload register): the colouring
        // check refuses the register, the value check the payload it overwrites when the
        // payload is read afterwards (here nothing reads it, so only the colouring check
        // has something to say).
        let mut low = good.regs().to_vec();
        low[nodes[1].index()] = set.class_regs(*class)[3];
        assert!(crate::ra::check(&g, &crate::ra::Assignment::from_regs(low)).is_err());
    }
}
