//! What the optimization passes buy, measured over Mesa's fragment-shader corpus against
//! Mesa's own instruction counts (shared/corpus/mesa-stats/<platform>.csv).
//!
//! For each platform and width, over the shaders that both Mesa and gpucc compiled at that
//! width: total instructions with and without the passes, the ratio to Mesa, how many
//! shaders the passes helped and hurt, estimated cycles against Mesa's, and compile time
//! (`--nocapture` prints them). Every figure but the time is held exactly in
//! tests/expectations/corpus.txt; the assertions besides are the properties the passes must
//! have: they never add instructions to a shader in total, and they change the program for at
//! least some shaders.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use gpucc::intel::backend::{Context, Options};
use gpucc::intel::DevInfo;

/// Mesa's instruction and cycle counts per (shader name, SIMD width) for fragment shaders.
/// `None` (after the visible skip, or a failure under `GPUCC_REQUIRE_SHARED`) when the file is
/// absent; a file that is there but lacks a column this test reads fails the test, since the
/// figures would silently stop being compared.
fn mesa_counts(platform: &str) -> Option<HashMap<(String, u32), (u32, u32)>> {
    let path = common::shared_path(&format!("corpus/mesa-stats/{platform}.csv"))?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(parse_mesa_counts(&path.display().to_string(), &text))
}

/// The fragment rows of a mesa-stats CSV; panics naming a missing column.
fn parse_mesa_counts(path: &str, text: &str) -> HashMap<(String, u32), (u32, u32)> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let col = |n: &str| {
        header
            .iter()
            .position(|h| *h == n)
            .unwrap_or_else(|| panic!("{path}: no column {n:?} in {header:?}"))
    };
    let (c_name, c_stage, c_simd, c_inst, c_cycles) = (
        col("shader"),
        col("stage"),
        col("simd"),
        col("instructions"),
        col("cycles"),
    );
    let mut out = HashMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        if f.get(c_stage) != Some(&"fs") {
            continue;
        }
        let (Some(Ok(simd)), Some(Ok(n)), Some(Ok(c))) = (
            f.get(c_simd).map(|s| s.parse::<u32>()),
            f.get(c_inst).map(|s| s.parse::<u32>()),
            f.get(c_cycles).map(|s| s.parse::<u32>()),
        ) else {
            continue;
        };
        out.insert((f[c_name].to_string(), simd), (n, c));
    }
    out
}

#[test]
fn mesa_counts_read_the_fragment_rows() {
    let csv = "shader,stage,simd,instructions,cycles\na.fs,fs,8,10,100\na.vs,vs,8,5,50\n";
    let counts = parse_mesa_counts("t.csv", csv);
    assert_eq!(counts.len(), 1);
    assert_eq!(counts[&("a.fs".to_string(), 8)], (10, 100));
}

/// A CSV without a column the figures need fails rather than comparing nothing.
#[test]
#[should_panic(expected = "t.csv: no column \"cycles\"")]
fn a_missing_mesa_stats_column_fails() {
    parse_mesa_counts("t.csv", "shader,stage,simd,instructions\na.fs,fs,8,10\n");
}

#[derive(Default)]
struct Totals {
    shaders: usize,
    mesa: u64,
    before: u64,
    after: u64,
    helped: usize,
    hurt: usize,
    mesa_cycles: u64,
    cycles: u64,
}

fn measure(platform: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/nir/{platform}")) else {
        return;
    };
    let Some(mesa) = mesa_counts(platform) else {
        return;
    };
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let on = Options::widths(&[8, 16]);
    let off = Options {
        optimize: false,
        ..on.clone()
    };
    let mut totals: [Totals; 2] = Default::default();
    let (mut t_on, mut t_off) = (Duration::ZERO, Duration::ZERO);
    for f in common::files_with_suffix(&dir, ".fs.nir") {
        let text = std::fs::read_to_string(&f).unwrap();
        let shader = gpucc::nir::parse(&text).unwrap();
        let t = Instant::now();
        let before = ctx.compile(&shader, &off);
        t_off += t.elapsed();
        let t = Instant::now();
        let after = ctx.compile(&shader, &on);
        t_on += t.elapsed();
        let (Ok(before), Ok(after)) = (before, after) else {
            continue;
        };
        let name = f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".nir")
            .to_string();
        for (i, w) in [8u32, 16].into_iter().enumerate() {
            let (Some(b), Some(a), Some(&(m, m_cycles))) = (
                before.variant(w),
                after.variant(w),
                mesa.get(&(name.clone(), w)),
            ) else {
                continue;
            };
            let t = &mut totals[i];
            t.shaders += 1;
            t.mesa += m as u64;
            t.before += b.stats.instructions as u64;
            t.after += a.stats.instructions as u64;
            t.helped += (a.stats.instructions < b.stats.instructions) as usize;
            t.hurt += (a.stats.instructions > b.stats.instructions) as usize;
            t.mesa_cycles += m_cycles as u64;
            t.cycles += a.stats.cycles as u64;
        }
    }
    for (i, w) in [8, 16].into_iter().enumerate() {
        let t = &totals[i];
        println!(
            "{platform} SIMD{w}: {} shaders, Mesa {} instructions; gpucc without passes {} \
             ({:.3}x), with passes {} ({:.3}x); helped {}, hurt {}; cycles Mesa {}, gpucc {} \
             ({:.3}x)",
            t.shaders,
            t.mesa,
            t.before,
            t.before as f64 / t.mesa as f64,
            t.after,
            t.after as f64 / t.mesa as f64,
            t.helped,
            t.hurt,
            t.mesa_cycles,
            t.cycles,
            t.cycles as f64 / t.mesa_cycles as f64
        );
        let mut figs = common::expect::Figures::new(&format!("{platform}.fs.opt_simd{w}"));
        figs.count("shaders", t.shaders);
        figs.count("mesa_instructions", t.mesa as usize);
        figs.count("instructions_unoptimized", t.before as usize);
        figs.count("instructions", t.after as usize);
        figs.count("helped", t.helped);
        figs.count("hurt", t.hurt);
        figs.count("mesa_cycles", t.mesa_cycles as usize);
        figs.count("cycles", t.cycles as usize);
        figs.ratio(
            "instructions_vs_mesa",
            t.after as f64 / t.mesa.max(1) as f64,
        );
        figs.ratio(
            "cycles_vs_mesa",
            t.cycles as f64 / t.mesa_cycles.max(1) as f64,
        );
        figs.check();
        assert!(
            t.after <= t.before,
            "{platform} SIMD{w}: the passes added code"
        );
        assert!(
            t.helped > 0,
            "{platform} SIMD{w}: the passes changed nothing"
        );
    }
    println!(
        "{platform} compile time (SIMD8+16, whole corpus): {:.2?} without passes, {:.2?} with",
        t_off, t_on
    );
}

#[test]
fn ivb_instruction_counts_against_mesa() {
    measure("ivb");
}

#[test]
fn bdw_instruction_counts_against_mesa() {
    measure("bdw");
}
