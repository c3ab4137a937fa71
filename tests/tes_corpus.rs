//! Piglit's tessellation-evaluation shaders as Mesa 23.3's iris compiled them on bdw
//! (shared/corpus/stages/bdw, `*.tes.nir`): every one compiled for Gen8 (bdw) and Gen9 (skl),
//! run on the simulator against the interpreter, and on bdw its statistics compared with
//! Mesa's (shared/corpus/stages/bdw.csv, `tes` rows). Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{mesa_stage_stats, Compiled, Record, Tally};
use gpucc::intel::backend::{verify_kernel, Context, Options};
use gpucc::intel::DevInfo;

fn run(platform: &str) {
    let Some(dir) = common::shared_path("corpus/stages/bdw") else {
        return;
    };
    let Some(csv) = common::shared_path("corpus/stages/bdw.csv") else {
        return;
    };
    let mesa = mesa_stage_stats(&csv, "tes");
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".tes.nir");
    let mut t = Tally {
        files: files.len(),
        ..Tally::default()
    };
    for f in &files {
        let Some(Compiled {
            name,
            shader,
            kernel: k,
            ..
        }) = t.compile(&ctx, &Options::widths(&[8]), f)
        else {
            continue;
        };
        assert!(k.tess_eval.is_some(), "{name}: a TES has its facts");
        t.verdict(&name, verify_kernel(&ctx, &shader, &k, 8));
        // Mesa's statistics are bdw's; skl's programs are only compiled and verified.
        if let (Some(&m), "bdw") = (mesa.get(name.trim_end_matches(".nir")), platform) {
            t.compare(&k.simd[0].stats, m);
        }
    }
    let record = Record {
        cycles: true,
        ..Record::MESA
    };
    t.check(&format!("{platform}.tes.corpus"), record);
    assert!(
        t.ours <= t.theirs,
        "more instructions than Mesa: {} > {}",
        t.ours,
        t.theirs
    );
    assert!(t.ours_spills <= t.theirs_spills);
}

#[test]
fn bdw_tessellation_evaluation_shaders_compile_verify_and_match_mesa() {
    run("bdw");
}

#[test]
fn skl_tessellation_evaluation_shaders_compile_and_verify() {
    run("skl");
}
