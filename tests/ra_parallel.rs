//! A compiler object holds one register set and allocates for many shaders at once.

use gpucc::ra::{check, AllocError, Assignment, ClassId, Graph, NodeId, RegSet, RegSetBuilder};
use gpucc::util::rng::Rng;
use std::sync::Arc;

/// Stand-in for a backend's compiler object: the per-target state built once.
struct Compiler {
    regs: Arc<RegSet>,
    classes: Vec<ClassId>,
}

impl Compiler {
    /// An Intel-like file: 128 units, runs of 1..=8.
    fn new() -> Compiler {
        let mut b = RegSetBuilder::new(128);
        let classes = (1..=8).map(|k| b.add_contiguous_class(k, 1)).collect();
        Compiler {
            regs: b.finalize().unwrap(),
            classes,
        }
    }

    /// "Compiles" shader `seed`: a random interval-like graph, allocated with spill retries.
    fn compile(&self, seed: u64) -> (Graph, Assignment, usize) {
        let mut rng = Rng::new(seed);
        let mut g = Graph::new(&self.regs);
        let n = rng.range(50, 400) as usize;
        let mut iv = Vec::with_capacity(n);
        for i in 0..n {
            let class = if rng.below(4) == 0 {
                *rng.pick(&self.classes)
            } else {
                self.classes[0]
            };
            let node = g.add_node(class);
            g.set_spill_cost(node, 1.0 + rng.below(10) as f32);
            let start = i as u32 / 2;
            iv.push((start, start + rng.range(1, 60) as u32));
        }
        for a in 0..n {
            for b in 0..a {
                if iv[a].0 < iv[b].1 && iv[b].0 < iv[a].1 {
                    g.add_edge(NodeId(a as u32), NodeId(b as u32));
                }
            }
        }
        let mut spills = 0;
        loop {
            match g.allocate() {
                Ok(a) => return (g, a, spills),
                Err(AllocError::Spill(s)) => {
                    g.clear_edges(s.candidate);
                    g.set_spill_cost(s.candidate, 0.0);
                    spills += 1;
                }
                Err(e) => panic!("shader {seed}: {e}"),
            }
        }
    }
}

#[test]
fn many_shaders_in_parallel_share_one_set() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<RegSet>();
    assert_send_sync::<Graph>();

    let compiler = Compiler::new();
    let shaders: Vec<u64> = (0..64).collect();
    let serial: Vec<(Assignment, usize)> = shaders
        .iter()
        .map(|&s| {
            let (g, a, spills) = compiler.compile(s);
            check(&g, &a).unwrap();
            (a, spills)
        })
        .collect();
    assert!(
        serial.iter().any(|&(_, s)| s > 0),
        "some shader should need spilling"
    );

    let parallel: Vec<(Assignment, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = shaders
            .chunks(8)
            .map(|chunk| {
                let compiler = &compiler;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|&s| {
                            let (g, a, spills) = compiler.compile(s);
                            check(&g, &a).unwrap();
                            (a, spills)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    // Deterministic: the same shader gives the same registers on any thread.
    assert_eq!(parallel, serial);
    // Every graph held a clone of the one Arc; all are dropped again.
    assert_eq!(Arc::strong_count(&compiler.regs), 1);
}
