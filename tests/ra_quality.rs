//! Quality: interval graphs (chordal) with one class of k registers colour whenever at most k
//! values are live at once. A chordal graph always has a simplicial node, whose neighbours form
//! a clique of at most k - 1 nodes, so the q test (q = 1 within a class of disjoint
//! registers) always finds a node to remove and simplify never needs an optimistic push.

use gpucc::ra::{check, ClassId, Graph, NodeId, RegSet, RegSetBuilder};
use gpucc::util::rng::Rng;
use std::sync::Arc;

/// Random live intervals `[start, end)` such that at most `k` overlap at any point, with
/// random lengths (short temporaries and long-lived values mixed).
fn intervals(rng: &mut Rng, k: usize, steps: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut live_ends: Vec<u32> = Vec::new();
    for t in 0..steps {
        live_ends.retain(|&e| e > t);
        while live_ends.len() < k && rng.below(3) != 0 {
            let len = if rng.below(5) == 0 {
                rng.range(1, 200)
            } else {
                rng.range(1, 8)
            } as u32;
            live_ends.push(t + len);
            out.push((t, t + len));
        }
    }
    out
}

fn max_overlap(iv: &[(u32, u32)]) -> usize {
    let mut events: Vec<(u32, i32)> = iv.iter().flat_map(|&(s, e)| [(s, 1), (e, -1)]).collect();
    events.sort(); // ends (-1) before starts (+1) at the same point: [s, e) is half-open
    let mut live = 0i32;
    let mut max = 0;
    for (_, d) in events {
        live += d;
        max = max.max(live);
    }
    max as usize
}

/// Builds the interference graph with nodes in a random order and edges in a random order.
fn interval_graph(rng: &mut Rng, set: &Arc<RegSet>, class: ClassId, iv: &[(u32, u32)]) -> Graph {
    let n = iv.len();
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut g = Graph::new(set);
    for _ in 0..n {
        let node = g.add_node(class);
        g.set_spill_cost(node, 1.0);
    }
    let mut edges = Vec::new();
    for a in 0..n {
        for b in 0..a {
            let ((s1, e1), (s2, e2)) = (iv[a], iv[b]);
            if s1 < e2 && s2 < e1 {
                edges.push((NodeId(order[a] as u32), NodeId(order[b] as u32)));
            }
        }
    }
    for i in (1..edges.len()).rev() {
        edges.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for (a, b) in edges {
        g.add_edge(a, b);
    }
    g
}

#[test]
fn interval_graphs_colour_with_max_overlap_registers() {
    let mut rng = Rng::new(0x1a7e_0001);
    let mut tight = 0;
    for case in 0..600 {
        let k = rng.range(1, 24) as usize;
        let steps = rng.range(10, 120) as u32;
        let iv = intervals(&mut rng, k, steps);
        let overlap = max_overlap(&iv);
        assert!(overlap <= k);
        tight += usize::from(overlap == k);
        let mut b = RegSetBuilder::new(k);
        let class = b.add_contiguous_class(1, 1);
        let set = b.finalize().unwrap();
        let mut g = interval_graph(&mut rng, &set, class, &iv);
        g.set_round_robin(rng.bool());
        let a = g
            .allocate()
            .unwrap_or_else(|e| panic!("case {case} (k {k}, {} values): {e}", iv.len()));
        check(&g, &a).unwrap();
    }
    assert!(tight > 400, "only {tight} cases reach the bound");
}

/// The same holds for a class of k aligned pairs inside a file with other classes: pairs never
/// half-overlap each other, so q within the class is 1 again.
#[test]
fn interval_graphs_colour_with_aligned_pairs() {
    let mut rng = Rng::new(0x1a7e_0002);
    for case in 0..300 {
        let k = rng.range(1, 16) as usize;
        let steps = rng.range(10, 100) as u32;
        let iv = intervals(&mut rng, k, steps);
        let mut b = RegSetBuilder::new(2 * k + 1);
        b.add_contiguous_class(1, 1);
        let pairs = b.add_contiguous_class(2, 2);
        b.add_contiguous_class(3, 1);
        let set = b.finalize().unwrap();
        assert_eq!(set.class_size(pairs) as usize, k);
        let mut g = interval_graph(&mut rng, &set, pairs, &iv);
        let a = g
            .allocate()
            .unwrap_or_else(|e| panic!("case {case} (k {k}): {e}"));
        check(&g, &a).unwrap();
    }
}

/// One more value than registers at the busiest point: allocation must fail and ask for a
/// spill (the bound above is tight, not a lucky accident of easy inputs).
#[test]
fn interval_graphs_over_the_bound_spill() {
    let mut rng = Rng::new(0x1a7e_0003);
    for case in 0..200 {
        let k = rng.range(2, 16) as usize;
        let steps = rng.range(10, 100) as u32;
        let iv = intervals(&mut rng, k, steps);
        if max_overlap(&iv) < k {
            continue;
        }
        let mut b = RegSetBuilder::new(k - 1);
        let class = b.add_contiguous_class(1, 1);
        let set = b.finalize().unwrap();
        let mut g = interval_graph(&mut rng, &set, class, &iv);
        match g.allocate() {
            Err(gpucc::ra::AllocError::Spill(_)) => {}
            other => panic!("case {case}: expected a spill request, got {other:?}"),
        }
    }
}
