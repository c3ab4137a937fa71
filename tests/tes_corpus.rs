//! Piglit's tessellation-evaluation shaders as Mesa 23.3's iris compiled them on bdw
//! (shared/corpus/stages/bdw, `*.tes.nir`): every one compiled for Gen8 (bdw) and Gen9 (skl),
//! run on the simulator against the interpreter, and on bdw its statistics compared with
//! Mesa's (shared/corpus/stages/bdw.csv, `tes` rows). Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{mesa_stage_stats, Record, Tally};
use gpucc::intel::backend::{verify_kernel, Context, Options};
use gpucc::intel::fs::CompileError;
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
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let shader = gpucc::nir::parse(&text).unwrap();
        let k = match ctx.compile(&shader, &Options::widths(&[8])) {
            Ok(k) => k,
            Err(CompileError::Unsupported(w)) => {
                t.refused(&name, w);
                continue;
            }
            Err(e) => {
                t.failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        t.compiled += 1;
        assert!(k.tess_eval.is_some(), "{name}: a TES has its facts");
        t.verdict(&name, verify_kernel(&ctx, &shader, &k, 8));
        // Mesa's statistics are bdw's; skl's programs are only compiled and verified.
        if let (Some(&m), "bdw") = (mesa.get(name.trim_end_matches(".nir")), platform) {
            t.compare(&k.simd[0].stats, m);
        }
    }
    t.check(&format!("{platform}.tes.corpus"), Record::MESA);
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
