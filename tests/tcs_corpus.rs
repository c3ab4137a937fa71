//! Piglit's tessellation-control shaders as Mesa 23.3's iris compiled them on bdw
//! (shared/corpus/stages/bdw, `*.tcs.nir`): every one compiled for Gen8 (bdw) and Gen9 (skl),
//! run on the simulator against the interpreter, and on bdw its statistics compared with
//! Mesa's (shared/corpus/stages/bdw.csv, `tcs` rows). Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use std::collections::{BTreeMap, HashMap};

use gpucc::intel::backend::{verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::fs::CompileError;
use gpucc::intel::DevInfo;

/// Mesa's instructions and spills + fills per `tcs` row of the stages statistics.
fn mesa_tcs_stats(csv: &str) -> HashMap<String, (u64, u64)> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect(n);
    let (shader, stage, insts, spills, fills) = (
        col("shader"),
        col("stage"),
        col("instructions"),
        col("spills"),
        col("fills"),
    );
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r.get(stage) == Some(&"tcs"))
        .map(|r| {
            let n = |i: usize| r[i].parse::<u64>().unwrap_or(0);
            (r[shader].to_string(), (n(insts), n(spills) + n(fills)))
        })
        .collect()
}

fn run(platform: &str) {
    let Some(dir) = common::shared_path("corpus/stages/bdw") else {
        return;
    };
    let Some(csv) = common::shared_path("corpus/stages/bdw.csv") else {
        return;
    };
    let mesa = mesa_tcs_stats(&std::fs::read_to_string(csv).unwrap());
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".tcs.nir");
    let (mut compiled, mut passed, mut unsupported_verify) = (0, 0, 0);
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut unchecked: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut ours, mut theirs, mut ours_spills, mut theirs_spills) = (0u64, 0u64, 0u64, 0u64);
    let (mut helped, mut hurt, mut compared) = (0, 0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let shader = gpucc::nir::parse(&text).unwrap();
        let k = match ctx.compile(&shader, &Options::widths(&[8])) {
            Ok(k) => k,
            Err(CompileError::Unsupported(w)) => {
                *unsupported.entry(w).or_default() += 1;
                continue;
            }
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        compiled += 1;
        assert!(k.tess_ctrl.is_some(), "{name}: a TCS has its facts");
        match verify_kernel(&ctx, &shader, &k, 8) {
            VerifyOutcome::Pass => passed += 1,
            VerifyOutcome::Unsupported(w) => {
                unsupported_verify += 1;
                // The reason without its set-specific details.
                let w: String = w.split(':').take(1).collect::<Vec<_>>().join(":");
                *unchecked.entry(w).or_default() += 1;
            }
            other => failures.push(format!("{name}: {other:?}")),
        }
        // Mesa's statistics are bdw's; skl's programs are only compiled and verified.
        let key = name.trim_end_matches(".nir");
        if let (Some(&(n, spills)), "bdw") = (mesa.get(key), platform) {
            let s = &k.simd[0].stats;
            compared += 1;
            ours += s.instructions as u64;
            theirs += n;
            ours_spills += (s.spills + s.fills) as u64;
            theirs_spills += spills;
            helped += ((s.instructions as u64) < n) as usize;
            hurt += (s.instructions as u64 > n) as usize;
        }
    }
    println!(
        "{platform} tcs: {compiled}/{} compiled, {passed} verified; instructions {ours} vs \
         Mesa's {theirs}, helped {helped}, HURT {hurt}; spills+fills {ours_spills} vs {theirs_spills}",
        files.len()
    );
    let mut figs = common::expect::Figures::new(&format!("{platform}.tcs.corpus"));
    figs.count("files", files.len());
    figs.count("compiled", compiled);
    figs.count("unsupported", unsupported.values().sum());
    figs.count("verified", passed);
    figs.count("verify_unsupported", unsupported_verify);
    figs.count("failures", failures.len());
    figs.count("compared_with_mesa", compared);
    figs.count("instructions", ours as usize);
    figs.count("mesa_instructions", theirs as usize);
    figs.count("helped", helped);
    figs.count("hurt", hurt);
    figs.count("spills_fills", ours_spills as usize);
    figs.count("mesa_spills_fills", theirs_spills as usize);
    for (w, n) in &unsupported {
        figs.note(format!("{n:4} unsupported: {w}"));
    }
    for (w, n) in &unchecked {
        figs.note(format!("{n:4} not checked: {w}"));
    }
    for f in failures.iter().take(40) {
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(
        ours <= theirs,
        "more instructions than Mesa: {ours} > {theirs}"
    );
    assert!(ours_spills <= theirs_spills);
}

#[test]
fn bdw_tessellation_control_shaders_compile_verify_and_match_mesa() {
    run("bdw");
}

#[test]
fn skl_tessellation_control_shaders_compile_and_verify() {
    run("skl");
}
