//! Property tests over random register sets and graphs (fixed seeds): every success passes the
//! checker, every failure names a usable spill candidate, and spilling always converges.

use gpucc::ra::{check, AllocError, ClassId, Graph, NodeId, RegId, RegSet, RegSetBuilder};
use gpucc::util::rng::Rng;
use std::sync::Arc;

/// A random file: units, some contiguous classes, some arbitrary classes, a few explicit
/// conflicts (which make the relation irregular, as etnaviv's is).
fn random_set(rng: &mut Rng) -> (Arc<RegSet>, Vec<ClassId>) {
    let units = rng.range(2, 24) as usize;
    let mut b = RegSetBuilder::new(units);
    let mut classes = vec![b.add_contiguous_class(1, 1)];
    for _ in 0..rng.below(3) {
        let k = rng.range(1, (units as i64).min(4)) as usize;
        let align = *rng.pick(&[1, 1, 2, k]);
        classes.push(b.add_contiguous_class(k, align));
    }
    for _ in 0..rng.below(3) {
        let regs: Vec<RegId> = (0..b.num_regs())
            .filter(|_| rng.below(3) == 0)
            .map(|r| RegId(r as u32))
            .collect();
        if !regs.is_empty() {
            classes.push(b.add_class(regs));
        }
    }
    let n = b.num_regs() as u64;
    for _ in 0..rng.below(4) {
        b.add_conflict(RegId(rng.below(n) as u32), RegId(rng.below(n) as u32));
    }
    (b.finalize().unwrap(), classes)
}

/// A random graph with random costs; some nodes pre-coloured consistently with each other.
fn random_graph(rng: &mut Rng, set: &Arc<RegSet>, classes: &[ClassId]) -> Graph {
    let mut g = Graph::new(set);
    let nodes = rng.range(1, 40) as usize;
    for _ in 0..nodes {
        let n = g.add_node(*rng.pick(classes));
        g.set_spill_cost(n, 0.5 + rng.below(100) as f32);
    }
    let density = rng.range(1, 60) as u64;
    let pairs: Vec<(usize, usize)> = (0..nodes)
        .flat_map(|a| (0..a).map(move |b| (a, b)))
        .collect();
    let mut adj = vec![vec![false; nodes]; nodes];
    for (a, b) in pairs {
        if rng.below(100) < density {
            g.add_edge(NodeId(a as u32), NodeId(b as u32));
            adj[a][b] = true;
            adj[b][a] = true;
        }
    }
    let mut fixed: Vec<Option<RegId>> = vec![None; nodes];
    for n in 0..nodes {
        if rng.below(8) != 0 {
            continue;
        }
        let node = NodeId(n as u32);
        let regs = set.class_regs(g.class(node));
        let r = *rng.pick(regs);
        let clash = (0..nodes).any(|m| adj[n][m] && fixed[m].is_some_and(|f| set.conflicts(f, r)));
        if !clash {
            fixed[n] = Some(r);
            g.precolor(node, r);
        }
    }
    g
}

#[test]
fn successes_check_and_failures_name_a_candidate() {
    let mut rng = Rng::new(0x7261_0001);
    let (mut ok, mut spill) = (0, 0);
    for case in 0..4000 {
        let (set, classes) = random_set(&mut rng);
        let mut g = random_graph(&mut rng, &set, &classes);
        g.set_round_robin(rng.bool());
        match g.allocate() {
            Ok(a) => {
                check(&g, &a).unwrap_or_else(|e| panic!("case {case}: {e}"));
                ok += 1;
            }
            Err(AllocError::Spill(s)) => {
                let c = s.candidate;
                assert!(
                    c.index() < g.num_nodes() && s.uncoloured.index() < g.num_nodes(),
                    "case {case}"
                );
                assert!(
                    g.precolour(c).is_none(),
                    "case {case}: pre-coloured {c} named"
                );
                assert!(
                    g.spill_cost(c) > 0.0 && s.benefit_per_cost > 0.0,
                    "case {case}"
                );
                assert!(g.precolour(s.uncoloured).is_none(), "case {case}");
                spill += 1;
            }
            Err(e) => panic!("case {case}: {e}"),
        }
    }
    // Both outcomes must actually be exercised for the property to mean anything.
    assert!(ok > 1000 && spill > 500, "ok {ok}, spill {spill}");
}

/// Spill the named candidate (drop its interference, make it unspillable) until allocation
/// succeeds: each round removes one spillable node's edges, so it ends within n rounds, and
/// the final result passes the checker.
#[test]
fn spilling_converges() {
    let mut rng = Rng::new(0x7261_0002);
    for case in 0..1500 {
        let (set, classes) = random_set(&mut rng);
        let mut g = random_graph(&mut rng, &set, &classes);
        let mut rounds = 0;
        let a = loop {
            match g.allocate() {
                Ok(a) => break a,
                Err(AllocError::Spill(s)) => {
                    assert!(g.spill_cost(s.candidate) > 0.0, "case {case}");
                    g.clear_edges(s.candidate);
                    g.set_spill_cost(s.candidate, 0.0);
                    rounds += 1;
                    assert!(rounds <= g.num_nodes(), "case {case}: no convergence");
                }
                Err(e) => panic!("case {case}: {e}"),
            }
        };
        check(&g, &a).unwrap_or_else(|e| panic!("case {case}: {e}"));
    }
}

/// If some order removes every node by the q test, the graph is colourable and allocation must
/// succeed. (A node that passes the test keeps passing as neighbours leave, so the allocator's
/// own removal order also never needs an optimistic push.) The removal here is an independent
/// quadratic re-implementation that uses only the set's public q-values.
#[test]
fn never_fails_when_every_node_is_trivially_colourable() {
    let mut rng = Rng::new(0x7261_0003);
    let mut checked = 0;
    for case in 0..3000 {
        let (set, classes) = random_set(&mut rng);
        let mut g = Graph::new(&set);
        let nodes = rng.range(1, 12) as usize;
        for _ in 0..nodes {
            let n = g.add_node(*rng.pick(&classes));
            g.set_spill_cost(n, 1.0);
        }
        for a in 0..nodes {
            for b in 0..a {
                if rng.below(3) == 0 {
                    g.add_edge(NodeId(a as u32), NodeId(b as u32));
                }
            }
        }
        // Independent greedy simplify with the q test, from the set's q-values only.
        let mut left: Vec<usize> = (0..nodes).collect();
        let adj: Vec<Vec<NodeId>> = (0..nodes)
            .map(|n| g.neighbours(NodeId(n as u32)).collect())
            .collect();
        loop {
            let pos = left.iter().position(|&n| {
                let b = g.class(NodeId(n as u32));
                let total: u32 = adj[n]
                    .iter()
                    .filter(|m| left.contains(&m.index()))
                    .map(|&m| set.q(b, g.class(m)))
                    .sum();
                total < set.class_size(b)
            });
            match pos {
                Some(p) => {
                    left.remove(p);
                }
                None => break,
            }
        }
        if left.is_empty() {
            let a = g.allocate().unwrap_or_else(|e| panic!("case {case}: {e}"));
            check(&g, &a).unwrap();
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} trivially colourable graphs");
}

/// The real files under pressure: random interval-like shaders over the Intel Gen7 file and
/// the etnaviv virtual file, allocated with spill retries. Every intermediate failure names a
/// spillable candidate and the final assignment passes the checker.
#[test]
fn real_files_with_spill_retries() {
    let intel = {
        let mut b = RegSetBuilder::new(128);
        let classes: Vec<ClassId> = (1..=16).map(|k| b.add_contiguous_class(k, 1)).collect();
        (b.finalize().unwrap(), classes)
    };
    let etnaviv = {
        const MASKS: [u8; 15] = [
            0xf, 0x7, 0xb, 0xd, 0xe, 0x3, 0x5, 0x9, 0x6, 0xa, 0xc, 0x1, 0x2, 0x4, 0x8,
        ];
        let temps = 16;
        let reg = |t: usize, i: usize| RegId((t * MASKS.len() + i) as u32);
        let mut b = RegSetBuilder::new(temps * MASKS.len());
        for t in 0..temps {
            for (i, mi) in MASKS.iter().enumerate() {
                for (j, mj) in MASKS[..i].iter().enumerate() {
                    if mi & mj != 0 {
                        b.add_conflict(reg(t, i), reg(t, j));
                    }
                }
            }
        }
        let classes: Vec<ClassId> = [4, 3, 2, 1]
            .iter()
            .map(|&w| {
                let types: Vec<usize> = (0..MASKS.len())
                    .filter(|&i| MASKS[i].count_ones() == w)
                    .collect();
                b.add_class((0..temps).flat_map(|t| types.iter().map(move |&i| reg(t, i))))
            })
            .collect();
        (b.finalize().unwrap(), classes)
    };
    let mut rng = Rng::new(0x7261_0004);
    let mut spills = 0;
    for case in 0..120 {
        let (set, classes) = if case % 2 == 0 { &intel } else { &etnaviv };
        let mut g = Graph::new(set);
        let n = rng.range(20, 300) as usize;
        let mut ends = Vec::with_capacity(n);
        for i in 0..n {
            let class = if rng.below(3) == 0 {
                *rng.pick(&classes[..classes.len().min(8)])
            } else {
                classes[0]
            };
            let node = g.add_node(class);
            g.set_spill_cost(node, 1.0 + rng.below(50) as f32);
            ends.push(i + rng.range(1, 80) as usize);
            for (m, &end) in ends[..i].iter().enumerate() {
                if end > i {
                    g.add_edge(NodeId(m as u32), node);
                }
            }
        }
        let a = loop {
            match g.allocate() {
                Ok(a) => break a,
                Err(AllocError::Spill(s)) => {
                    assert!(g.spill_cost(s.candidate) > 0.0, "case {case}");
                    g.clear_edges(s.candidate);
                    g.set_spill_cost(s.candidate, 0.0);
                    spills += 1;
                }
                Err(e) => panic!("case {case}: {e}"),
            }
        };
        check(&g, &a).unwrap_or_else(|e| panic!("case {case}: {e}"));
    }
    assert!(spills > 0);
}
