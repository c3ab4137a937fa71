//! Mesa's ivb geometry-shader corpus through the vec4 backend, on Ivy Bridge and Haswell
//! (which has no corpus of its own: it compiles the ivb NIR): every `*.gs.nir` of
//! shared/corpus/stages/ivb (piglit's geometry tests as crocus received them) compiled with
//! Mesa's binding model in dual-object dispatch, run on the simulator two primitives per
//! thread against the interpreter's emitted vertex lists, and its statistics compared with
//! Mesa's (shared/corpus/stages/ivb.csv, `gs` rows; Mesa's ivb figures serve both
//! platforms). What is not built is refused by name. Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use std::collections::{BTreeMap, HashMap};

use gpucc::intel::backend::{verify_kernel, BindingModel, Context, Options, VerifyOutcome};
use gpucc::intel::fs::CompileError;
use gpucc::intel::geometry::DispatchMode;
use gpucc::intel::kernel::SIMD4X2;
use gpucc::intel::DevInfo;

/// Mesa's statistics of the corpus's geometry shaders: name to (instructions, spills+fills).
fn mesa_gs_stats(path: &std::path::Path) -> HashMap<String, (u64, u64)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect(n);
    let [name, stage, ins, sp, fi] =
        ["shader", "stage", "instructions", "spills", "fills"].map(col);
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f.get(stage) == Some(&"gs"))
        .map(|f| {
            let num = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            (f[name].to_string(), (num(ins), num(sp) + num(fi)))
        })
        .collect()
}

fn run(platform: &str) {
    let Some(dir) = common::shared_path("corpus/stages/ivb") else {
        return;
    };
    let Some(csv) = common::shared_path("corpus/stages/ivb.csv") else {
        return;
    };
    let mesa = mesa_gs_stats(&csv);
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".gs.nir");
    let (mut compiled, mut passed, mut unsupported_verify) = (0, 0, 0);
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut verify_unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut refused_beyond_fp64 = 0;
    let (mut ours, mut theirs, mut ours_spills, mut theirs_spills) = (0u64, 0u64, 0u64, 0u64);
    let (mut helped, mut hurt, mut compared) = (0, 0, 0);
    let mut options = Options::widths(&[8]).validating();
    options.binding = BindingModel::Mesa;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let shader = match gpucc::nir::parse(&text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let k = match ctx.compile(&shader, &options) {
            Ok(k) => k,
            Err(CompileError::Unsupported(w)) => {
                if !name.contains("fp64") {
                    refused_beyond_fp64 += 1;
                }
                if std::env::var_os("GPUCC_TEST_LIST").is_some() {
                    eprintln!("unsupported {name}: {w}");
                }
                *unsupported.entry(w).or_default() += 1;
                continue;
            }
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        compiled += 1;
        let g = k
            .geometry
            .as_ref()
            .expect("a geometry program has GS facts");
        assert_eq!(g.dispatch_mode, DispatchMode::DualObject, "{name}");
        assert!(
            k.vertex.is_none(),
            "{name}: a geometry program has no vertex facts"
        );
        assert_eq!(k.simd[0].simd, SIMD4X2, "{name}");
        match verify_kernel(&ctx, &shader, &k, 8) {
            VerifyOutcome::Pass => passed += 1,
            VerifyOutcome::Unsupported(w) => {
                unsupported_verify += 1;
                *verify_unsupported.entry(w).or_default() += 1;
            }
            other => failures.push(format!("{name}: {other:?}")),
        }
        let key = name.trim_end_matches(".nir");
        if let Some(&(n, spills)) = mesa.get(key) {
            let s = &k.simd[0].stats;
            let mine = (s.spills + s.fills) as u64;
            compared += 1;
            ours += s.instructions as u64;
            theirs += n;
            ours_spills += mine;
            theirs_spills += spills;
            helped += ((s.instructions as u64) < n) as usize;
            hurt += (s.instructions as u64 > n) as usize;
            if std::env::var_os("GPUCC_TEST_LIST").is_some() {
                eprintln!("{name}: {} vs Mesa's {n}", s.instructions);
            }
        }
    }
    println!(
        "{platform} vec4 gs: {compiled}/{} compiled, {passed} verified; instructions {ours} vs \
         Mesa's {theirs} ({:.3}), helped {helped}, hurt {hurt}; spills+fills {ours_spills} vs \
         {theirs_spills}",
        files.len(),
        ours as f64 / theirs.max(1) as f64
    );
    let mut figs = common::expect::Figures::new(&format!("{platform}.vec4_gs.corpus"));
    figs.count("files", files.len());
    figs.count("compiled", compiled);
    figs.count("unsupported", unsupported.values().sum());
    figs.count("verified", passed);
    figs.count("verify_unsupported", unsupported_verify);
    figs.count("refused_beyond_fp64", refused_beyond_fp64);
    figs.count("failures", failures.len());
    figs.count("compared_with_mesa", compared);
    figs.count("instructions", ours as usize);
    figs.count("mesa_instructions", theirs as usize);
    figs.ratio("instructions_vs_mesa", ours as f64 / theirs.max(1) as f64);
    figs.count("helped", helped);
    figs.count("hurt", hurt);
    figs.count("spills_fills", ours_spills as usize);
    figs.count("mesa_spills_fills", theirs_spills as usize);
    for (w, n) in &unsupported {
        figs.note(format!("{n:4} unsupported: {w}"));
    }
    for (w, n) in &verify_unsupported {
        figs.note(format!("{n:4} not checked: {w}"));
    }
    for f in failures.iter().take(20) {
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn ivb_vec4_geometry_corpus() {
    run("ivb");
}

#[test]
fn hsw_vec4_geometry_corpus() {
    run("hsw");
}
