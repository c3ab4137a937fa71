//! Mesa's vertex-shader corpus on Gen8 (bdw) and Gen9 (skl): every `*.vs.nir` compiled,
//! its VUE map compared with the one Mesa printed after the shader (`VS Output VUE map`),
//! run on the simulator against the interpreter, and its statistics compared with Mesa's
//! (shared/corpus/mesa-stats, `vs` rows). Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use std::collections::BTreeMap;

use gpucc::intel::fs::CompileError;

use gpucc::intel::backend::{verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;

fn run(platform: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/nir/{platform}")) else {
        return;
    };
    let Some(mesa) = common::mesa_vs_stats(platform, |r| r.simd == 8) else {
        common::missing(&format!("corpus/mesa-stats/{platform}.csv"));
        return;
    };
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".vs.nir");
    let (mut compiled, mut maps_equal, mut maps_printed) = (0, 0, 0);
    let (mut passed, mut unsupported_verify) = (0, 0);
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut ours, mut theirs, mut ours_spills, mut theirs_spills) = (0u64, 0u64, 0u64, 0u64);
    let (mut helped, mut hurt, mut compared) = (0, 0, 0);
    let (mut ours_cycles, mut theirs_cycles) = (0u64, 0u64);
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
        let v = k.vertex.as_ref().expect("a vertex shader has vertex facts");
        if let Some(printed) = common::printed_vue_map(&text) {
            maps_printed += 1;
            if printed == v.vue_map.to_string() {
                maps_equal += 1;
            } else {
                failures.push(format!(
                    "{name}: VUE map\n{}differs from Mesa's\n{printed}",
                    v.vue_map
                ));
            }
        }
        match verify_kernel(&ctx, &shader, &k, 8) {
            VerifyOutcome::Pass => passed += 1,
            VerifyOutcome::Unsupported(_) => unsupported_verify += 1,
            other => failures.push(format!("{name}: {other:?}")),
        }
        let key = name.trim_end_matches(".nir");
        if let Some(m) = mesa.get(key) {
            let (n, spills) = (m.instructions as u32, m.spills + m.fills);
            let s = &k.simd[0].stats;
            compared += 1;
            ours += s.instructions as u64;
            theirs += n as u64;
            ours_spills += (s.spills + s.fills) as u64;
            ours_cycles += s.cycles as u64;
            theirs_cycles += m.cycles;
            theirs_spills += spills;
            helped += (s.instructions < n) as usize;
            hurt += (s.instructions > n) as usize;
        }
    }
    println!(
        "{platform} vs: {compiled}/{} compiled, {passed} verified, VUE maps {maps_equal}/{maps_printed}; \
         instructions {ours} vs Mesa's {theirs} ({:.3}), helped {helped}, HURT {hurt}; \
         spills+fills {ours_spills} vs {theirs_spills}",
        files.len(),
        ours as f64 / theirs.max(1) as f64
    );
    let mut figs = common::expect::Figures::new(&format!("{platform}.vs.corpus"));
    figs.count("files", files.len());
    figs.count("compiled", compiled);
    figs.count("unsupported", unsupported.values().sum());
    figs.count("verified", passed);
    figs.count("verify_unsupported", unsupported_verify);
    figs.count("failures", failures.len());
    figs.count("vue_maps_equal_to_mesa", maps_equal);
    figs.count("vue_maps_printed", maps_printed);
    figs.count("compared_with_mesa", compared);
    figs.count("instructions", ours as usize);
    figs.count("mesa_instructions", theirs as usize);
    figs.ratio("instructions_vs_mesa", ours as f64 / theirs.max(1) as f64);
    // Our estimator is a port of Mesa's; the programs differ, the model does not.
    figs.count("cycles", ours_cycles as usize);
    figs.count("mesa_cycles", theirs_cycles as usize);
    figs.ratio(
        "cycles_vs_mesa",
        ours_cycles as f64 / theirs_cycles.max(1) as f64,
    );
    figs.count("helped", helped);
    figs.count("hurt", hurt);
    figs.count("spills_fills", ours_spills as usize);
    figs.count("mesa_spills_fills", theirs_spills as usize);
    for (w, n) in &unsupported {
        figs.note(format!("{n:4} unsupported: {w}"));
    }
    for f in failures.iter().take(20) {
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
fn bdw_vertex_shaders_compile_verify_and_match_mesas_layout() {
    run("bdw");
}

#[test]
fn skl_vertex_shaders_compile_verify_and_match_mesas_layout() {
    run("skl");
}
