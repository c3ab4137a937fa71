//! Colouring, pre-colouring, spill choice and error reporting on hand-sized graphs.

use gpucc::ra::{
    check, AllocError, Assignment, CheckError, ClassId, Graph, GraphError, NodeId, RegId, RegSet,
    RegSetBuilder,
};
use std::sync::Arc;

fn units(n: usize) -> (Arc<RegSet>, ClassId) {
    let mut b = RegSetBuilder::new(n);
    let c = b.add_contiguous_class(1, 1);
    (b.finalize().unwrap(), c)
}

#[test]
fn empty_graph_allocates() {
    let (set, _) = units(2);
    let mut g = Graph::new(&set);
    let a = g.allocate().unwrap();
    assert!(a.is_empty());
    check(&g, &a).unwrap();
}

/// A path a–b–c with two registers: every node is trivially colourable; lowest-first select
/// gives the ends the same register.
#[test]
fn path_takes_lowest_registers() {
    let (set, c) = units(2);
    let mut g = Graph::new(&set);
    let n: Vec<NodeId> = (0..3).map(|_| g.add_node(c)).collect();
    g.add_edge(n[0], n[1]);
    g.add_edge(n[1], n[2]);
    let a = g.allocate().unwrap();
    check(&g, &a).unwrap();
    assert_eq!(a.reg(n[0]), a.reg(n[2]));
    assert_ne!(a.reg(n[0]), a.reg(n[1]));
    assert!(a.regs().iter().all(|r| r.0 < 2));
}

/// K3 with two registers, costs 4, 1, 2. Every node has q total 2 = |class|, so simplify
/// pushes one optimistically: the lowest q total, ties to the highest index (n2), which then
/// fails in select after n0 and n1 took r0 and r1. All three are candidates with benefit
/// 2/2 = 1; benefit/cost is largest for n1 (cost 1).
#[test]
fn triangle_spills_cheapest_by_benefit_over_cost() {
    let (set, c) = units(2);
    let mut g = Graph::new(&set);
    let n: Vec<NodeId> = (0..3).map(|_| g.add_node(c)).collect();
    for (i, cost) in [4.0, 1.0, 2.0].into_iter().enumerate() {
        g.set_spill_cost(n[i], cost);
    }
    g.add_edge(n[0], n[1]);
    g.add_edge(n[1], n[2]);
    g.add_edge(n[2], n[0]);
    match g.allocate() {
        Err(AllocError::Spill(s)) => {
            assert_eq!(s.uncoloured, n[2]);
            assert_eq!(s.candidate, n[1]);
            assert_eq!(s.benefit_per_cost, 1.0);
        }
        other => panic!("expected a spill, got {other:?}"),
    }
    // Unspillable nodes (cost 0, negative or NaN) are never named.
    g.set_spill_cost(n[1], 0.0);
    g.set_spill_cost(n[0], f32::NAN);
    match g.allocate() {
        Err(AllocError::Spill(s)) => assert_eq!(s.candidate, n[2]),
        other => panic!("expected a spill, got {other:?}"),
    }
    g.set_spill_cost(n[2], -1.0);
    assert_eq!(
        g.allocate(),
        Err(AllocError::NoSpillCandidate { uncoloured: n[2] })
    );
}

/// Spilling the candidate (here: removing its interference) and retrying succeeds.
#[test]
fn spill_and_retry() {
    let (set, c) = units(3);
    let mut g = Graph::new(&set);
    let n: Vec<NodeId> = (0..5).map(|_| g.add_node(c)).collect();
    for i in 0..5 {
        g.set_spill_cost(n[i], 1.0 + i as f32);
        for j in 0..i {
            g.add_edge(n[i], n[j]);
        }
    }
    let mut spilled = Vec::new();
    let a = loop {
        match g.allocate() {
            Ok(a) => break a,
            Err(AllocError::Spill(s)) => {
                g.clear_edges(s.candidate);
                g.set_spill_cost(s.candidate, 0.0);
                // The spilled value now lives in two short temporaries that interfere with
                // nothing but each other.
                let t0 = g.add_node(c);
                let t1 = g.add_node(c);
                g.add_edge(t0, t1);
                spilled.push(s.candidate);
            }
            Err(e) => panic!("{e}"),
        }
    };
    check(&g, &a).unwrap();
    // K5 on 3 registers needs exactly two spills, and the cheapest nodes go first.
    assert_eq!(spilled, vec![n[0], n[1]]);
}

/// A payload pair pinned to units 0-1 of a five-unit file pushes an interfering pair and a
/// single elsewhere. The single is trivially colourable (q total 2 + 2 < 5) and goes on the
/// stack first; then the pair is (3 + 2 - 2 < 4), so the pair is coloured first and takes the
/// lowest run clear of units 0-1, units 2-3, leaving unit 4 for the single.
#[test]
fn precolour_is_kept_and_respected() {
    let mut b = RegSetBuilder::new(5);
    let single = b.add_contiguous_class(1, 1);
    let pair = b.add_contiguous_class(2, 1);
    let set = b.finalize().unwrap();
    let r01 = set.class_regs(pair)[0];
    assert_eq!(set.units_of(r01), 0..2);
    let mut g = Graph::new(&set);
    let payload = g.add_node(pair);
    g.precolor(payload, r01);
    let x = g.add_node(single);
    let y = g.add_node(pair);
    g.add_edge(payload, x);
    g.add_edge(payload, y);
    g.add_edge(x, y);
    let a = g.allocate().unwrap();
    check(&g, &a).unwrap();
    assert_eq!(a.reg(payload), r01);
    assert_eq!(set.units_of(a.reg(y)), 2..4);
    assert_eq!(a.reg(x), RegId(4));
}

/// Round-robin rotates through the file instead of reusing the lowest register.
#[test]
fn round_robin_rotates() {
    let (set, c) = units(4);
    let mut g = Graph::new(&set);
    let n: Vec<NodeId> = (0..4).map(|_| g.add_node(c)).collect();
    let lowest = g.allocate().unwrap();
    assert!(lowest.regs().iter().all(|&r| r == RegId(0)));
    g.set_round_robin(true);
    let rr = g.allocate().unwrap();
    check(&g, &rr).unwrap();
    let mut regs: Vec<u32> = n.iter().map(|&x| rr.reg(x).0).collect();
    regs.sort();
    assert_eq!(regs, vec![0, 1, 2, 3]);
}

#[test]
fn malformed_graphs_are_errors_not_panics() {
    let (set, c) = units(2);
    let mut g = Graph::new(&set);
    let a = g.add_node(c);
    g.add_edge(a, NodeId(7));
    let e = g.allocate().unwrap_err();
    assert_eq!(
        e,
        AllocError::Invalid(GraphError::UnknownNode {
            node: NodeId(7),
            nodes: 1,
            used_by: "add_edge"
        })
    );
    assert!(e.to_string().contains("n7"), "{e}");

    let mut g = Graph::new(&set);
    let n = g.add_node(ClassId(3));
    assert_eq!(
        g.allocate(),
        Err(AllocError::Invalid(GraphError::UnknownClass {
            node: n,
            class: ClassId(3)
        }))
    );

    let mut g = Graph::new(&set);
    let n = g.add_node(c);
    g.precolor(n, RegId(9));
    assert!(matches!(
        g.allocate(),
        Err(AllocError::Invalid(GraphError::PrecolourNotInClass { .. }))
    ));

    let mut g = Graph::new(&set);
    let (x, y) = (g.add_node(c), g.add_node(c));
    g.precolor(x, RegId(1));
    g.precolor(y, RegId(1));
    g.add_edge(x, y);
    let e = g.allocate().unwrap_err();
    assert!(
        matches!(e, AllocError::Invalid(GraphError::PrecolourConflict { .. })),
        "{e}"
    );
}

#[test]
fn checker_catches_each_rule() {
    let mut b = RegSetBuilder::new(4);
    let low = b.add_class([RegId(0), RegId(1)]);
    let set = b.finalize().unwrap();
    let mut g = Graph::new(&set);
    let (x, y) = (g.add_node(low), g.add_node(low));
    g.add_edge(x, y);
    g.precolor(y, RegId(1));
    let regs = |r: &[u32]| Assignment::from_regs(r.iter().map(|&r| RegId(r)).collect());
    check(&g, &regs(&[0, 1])).unwrap();
    assert_eq!(
        check(&g, &regs(&[0])),
        Err(CheckError::WrongLength { nodes: 2, regs: 1 })
    );
    assert_eq!(
        check(&g, &regs(&[2, 1])),
        Err(CheckError::NotInClass {
            node: x,
            reg: RegId(2),
            class: low
        })
    );
    assert_eq!(
        check(&g, &regs(&[1, 0])),
        Err(CheckError::PrecolourChanged {
            node: y,
            wanted: RegId(1),
            got: RegId(0)
        })
    );
    assert_eq!(
        check(&g, &regs(&[1, 1])),
        Err(CheckError::Conflict {
            a: x,
            a_reg: RegId(1),
            b: y,
            b_reg: RegId(1)
        })
    );
}
