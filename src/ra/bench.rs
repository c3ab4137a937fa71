//! Benchmarks for the register allocator, run by `gpucc bench ra`.
//!
//! They time the two costs that matter: building a target's register set (once per compiler
//! object, but the expensive part) and allocating one shader's graph (per shader, including
//! adding its nodes and edges). The register files are built here, not in `ra`, which stays
//! target-neutral: an Intel Gen7-like file of 128 GRFs with contiguous classes of 1..=16 GRFs,
//! and etnaviv's 64 vec4 temporaries, each carrying 15 virtual sub-registers.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{AllocError, ClassId, Graph, NodeId, RegId, RegSet, RegSetBuilder};
use crate::util::rng::Rng;

/// Timings of one benchmark case.
#[derive(Clone, Debug)]
pub struct BenchResult {
    pub name: String,
    pub iterations: u32,
    pub median: Duration,
    pub min: Duration,
    pub max: Duration,
    /// What one iteration did (sizes, outcome).
    pub note: String,
}

impl fmt::Display for BenchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<28} {:>5} iters  median {:>10.3?}  min {:>10.3?}  max {:>10.3?}  {}",
            self.name, self.iterations, self.median, self.min, self.max, self.note
        )
    }
}

/// Runs every case; takes a few seconds in a release build.
pub fn run_benchmarks() -> Vec<BenchResult> {
    let mut out = Vec::new();
    let set = intel_gen7_set();
    let note = format!("{} regs, {} classes", set.num_regs(), set.num_classes());
    out.push(measure("regset/intel-gen7", note, || {
        intel_gen7_set();
    }));
    out.push(measure(
        "regset/intel-gen7-explicit",
        String::from("same file, conflicts listed by hand"),
        || {
            intel_gen7_explicit_set();
        },
    ));
    let lists: Vec<Vec<RegId>> = (0..set.num_regs())
        .map(|r| set.conflicts_of(RegId(r as u32)).collect())
        .collect();
    out.push(measure(
        "q/intel-gen7-conflict-lists",
        String::from("Mesa's general q loop, for comparison"),
        || {
            naive_q(&set, &lists);
        },
    ));
    let etna = etnaviv_set();
    let note = format!("{} regs, {} classes", etna.num_regs(), etna.num_classes());
    out.push(measure("regset/etnaviv", note, || {
        etnaviv_set();
    }));

    let intel_classes: Vec<ClassId> = (0..16).map(ClassId).collect();
    let etna_classes: Vec<ClassId> = (0..4).map(ClassId).collect();
    for nodes in [1_000, 5_000, 20_000] {
        for (target, set, classes) in [
            ("intel", &set, &intel_classes),
            ("etnaviv", &etna, &etna_classes),
        ] {
            let shader =
                IntervalShader::generate(nodes, classes, target == "intel", 150, nodes as u64);
            out.push(time_allocation(
                &format!("alloc/{target}/{}k", nodes / 1000),
                set,
                &shader,
            ));
        }
    }
    // Far more live values than registers: simplify runs mostly on optimistic pushes and select
    // stops at the first failure, as the first round of a spilling shader does.
    let shader = IntervalShader::generate(20_000, &etna_classes, false, 1500, 7);
    out.push(time_allocation(
        "alloc/etnaviv/20k-overloaded",
        &etna,
        &shader,
    ));
    out
}

/// Times building the graph of `shader` and allocating it once.
fn time_allocation(name: &str, set: &Arc<RegSet>, shader: &IntervalShader) -> BenchResult {
    let mut outcome = String::new();
    let result = measure(name, String::new(), || {
        let mut g = shader.graph(set);
        outcome = match g.allocate() {
            Ok(_) => "coloured".into(),
            Err(AllocError::Spill(s)) => format!("spill {}", s.candidate),
            Err(e) => e.to_string(),
        };
    });
    let note = format!("{} edges, {}", shader.edges.len(), outcome);
    BenchResult { note, ..result }
}

/// Times `f` repeatedly (after one warm-up run) for about half a second, 3 to 200 runs.
fn measure(name: &str, note: String, mut f: impl FnMut()) -> BenchResult {
    f();
    let mut times = Vec::new();
    let budget = Instant::now();
    while times.len() < 3 || (times.len() < 200 && budget.elapsed() < Duration::from_millis(500)) {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort();
    BenchResult {
        name: name.to_string(),
        iterations: times.len() as u32,
        median: times[times.len() / 2],
        min: times[0],
        max: times[times.len() - 1],
        note,
    }
}

/// q-values the way Mesa's general path computes them: walk each register's conflict list and
/// test class membership, O(classes² · regs · conflicts).
fn naive_q(set: &RegSet, lists: &[Vec<RegId>]) -> Vec<u32> {
    let nc = set.num_classes();
    let mut q = vec![0; nc * nc];
    for b in 0..nc {
        for c in 0..nc {
            let (b_id, c_id) = (ClassId(b as u32), ClassId(c as u32));
            let most = set.class_regs(c_id).iter().map(|&rc| {
                lists[rc.index()]
                    .iter()
                    .filter(|&&rb| set.class_contains(b_id, rb))
                    .count() as u32
            });
            q[b * nc + c] = most.max().unwrap_or(0);
        }
    }
    q
}

/// 128 GRFs; class k (0-based) holds every run of k + 1 GRFs.
pub fn intel_gen7_set() -> Arc<RegSet> {
    let mut b = RegSetBuilder::new(128);
    for k in 1..=16 {
        b.add_contiguous_class(k, 1);
    }
    b.finalize().expect("the Intel file is well-formed")
}

/// The same file the way Mesa's older Intel backend described it: one register per run, with
/// every overlap listed as an explicit conflict (about 2·10^5 pairs).
pub fn intel_gen7_explicit_set() -> Arc<RegSet> {
    let runs: Vec<(usize, usize)> = (1..=16)
        .flat_map(|k| (0..=128 - k).map(move |s| (s, k)))
        .collect();
    let mut b = RegSetBuilder::new(runs.len());
    let mut by_unit: Vec<Vec<u32>> = vec![Vec::new(); 128];
    for (r, &(s, k)) in runs.iter().enumerate() {
        by_unit[s..s + k].iter_mut().for_each(|v| v.push(r as u32));
    }
    for (r, &(s, k)) in runs.iter().enumerate() {
        // Each overlapping pair once: listed at the later register's first covered unit that
        // the earlier one also covers.
        let mut seen = Vec::new();
        for regs in &by_unit[s..s + k] {
            for &o in regs.iter().filter(|&&o| (o as usize) < r) {
                seen.push(o);
            }
        }
        seen.sort_unstable();
        seen.dedup();
        for o in seen {
            b.add_conflict(RegId(r as u32), RegId(o));
        }
    }
    let mut first = 0;
    for k in 1..=16 {
        let n = 129 - k;
        b.add_class((first..first + n).map(|r| RegId(r as u32)));
        first += n;
    }
    b.finalize().expect("the Intel file is well-formed")
}

/// 64 temporaries × {VEC4, 4 VEC3, 6 VEC2, 4 SCALAR}, conflicting where write masks overlap;
/// classes VEC4, VEC3, VEC2, SCALAR.
pub fn etnaviv_set() -> Arc<RegSet> {
    const MASKS: [u8; 15] = [
        0xf, 0x7, 0xb, 0xd, 0xe, 0x3, 0x5, 0x9, 0x6, 0xa, 0xc, 0x1, 0x2, 0x4, 0x8,
    ];
    const TEMPS: usize = 64;
    let reg = |base: usize, t: usize| RegId((base * MASKS.len() + t) as u32);
    let mut b = RegSetBuilder::new(TEMPS * MASKS.len());
    for base in 0..TEMPS {
        for (i, mi) in MASKS.iter().enumerate() {
            for (j, mj) in MASKS[..i].iter().enumerate() {
                if mi & mj != 0 {
                    b.add_conflict(reg(base, i), reg(base, j));
                }
            }
        }
    }
    for width in [4, 3, 2, 1] {
        let types: Vec<usize> = (0..MASKS.len())
            .filter(|&t| MASKS[t].count_ones() == width)
            .collect();
        b.add_class((0..TEMPS).flat_map(|base| types.iter().map(move |&t| reg(base, t))));
    }
    b.finalize().expect("the etnaviv file is well-formed")
}

/// A deterministic stand-in for a shader's interference: one value defined per instruction,
/// mostly short-lived with some long-lived ones, classes skewed towards the smallest.
struct IntervalShader {
    classes: Vec<ClassId>,
    edges: Vec<(u32, u32)>,
}

impl IntervalShader {
    fn generate(
        nodes: usize,
        classes: &[ClassId],
        intel: bool,
        long: i64,
        seed: u64,
    ) -> IntervalShader {
        let mut rng = Rng::new(seed);
        let mut node_classes = Vec::with_capacity(nodes);
        let mut ends = Vec::with_capacity(nodes);
        for i in 0..nodes {
            let class = if intel {
                // Mostly 1-GRF values, some SIMD16 pairs, a few 4- and 8-GRF payloads.
                match rng.below(20) {
                    0..=13 => 0,
                    14..=16 => 1,
                    17..=18 => 3,
                    _ => 7,
                }
            } else {
                rng.below(classes.len() as u64) as usize
            };
            node_classes.push(classes[class]);
            let len = if rng.below(5) == 0 {
                rng.range(1, long)
            } else {
                rng.range(1, 20)
            };
            ends.push(i + len as usize);
        }
        // Sweep: node i interferes with every earlier node still live at i.
        let mut edges = Vec::new();
        let mut live: Vec<usize> = Vec::new();
        for (i, &end) in ends.iter().enumerate() {
            live.retain(|&m| ends[m] > i);
            edges.extend(live.iter().map(|&m| (m as u32, i as u32)));
            live.push(i);
            debug_assert!(end > i);
        }
        IntervalShader {
            classes: node_classes,
            edges,
        }
    }

    fn graph(&self, set: &Arc<RegSet>) -> Graph {
        let mut g = Graph::with_capacity(set, self.classes.len(), self.edges.len());
        for &c in &self.classes {
            let n = g.add_node(c);
            g.set_spill_cost(n, 1.0);
        }
        for &(a, b) in &self.edges {
            g.add_edge(NodeId(a), NodeId(b));
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ra::check;

    #[test]
    fn bench_sets_agree_and_bench_graphs_check() {
        let (runs, explicit) = (intel_gen7_set(), intel_gen7_explicit_set());
        assert_eq!(runs.q_table(), explicit.q_table());
        let lists: Vec<Vec<RegId>> = (0..runs.num_regs())
            .map(|r| runs.conflicts_of(RegId(r as u32)).collect())
            .collect();
        assert_eq!(naive_q(&runs, &lists), runs.q_table().concat());
        assert_eq!(
            etnaviv_set().q_table(),
            vec![
                vec![1, 1, 1, 1],
                vec![4, 4, 4, 3],
                vec![6, 6, 5, 3],
                vec![4, 3, 2, 1]
            ]
        );
        let classes: Vec<ClassId> = (0..16).map(ClassId).collect();
        let shader = IntervalShader::generate(1000, &classes, true, 150, 1);
        let mut g = shader.graph(&runs);
        match g.allocate() {
            Ok(a) => check(&g, &a).unwrap(),
            Err(AllocError::Spill(_)) => {}
            Err(e) => panic!("{e}"),
        }
    }
}
