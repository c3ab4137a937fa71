//! Mesa's vertex-shader corpus on Gen8 (bdw) and Gen9 (skl): every `*.vs.nir` compiled,
//! its VUE map compared with the one Mesa printed after the shader (`VS Output VUE map`),
//! run on the simulator against the interpreter, and its statistics compared with Mesa's
//! (shared/corpus/mesa-stats, `vs` rows). Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{Compiled, MesaRow, Record, Tally};
use gpucc::intel::backend::{verify_kernel, Context, Options};
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
    let mut t = Tally {
        files: files.len(),
        ..Tally::default()
    };
    for f in &files {
        let Some(Compiled {
            name,
            text,
            shader,
            kernel: k,
        }) = t.compile(&ctx, &Options::widths(&[8]), f)
        else {
            continue;
        };
        let v = k.vertex.as_ref().expect("a vertex shader has vertex facts");
        t.vue_map(&name, &text, v.vue_map.to_string());
        t.verdict(&name, verify_kernel(&ctx, &shader, &k, 8));
        if let Some(m) = mesa.get(name.trim_end_matches(".nir")) {
            t.compare(&k.simd[0].stats, MesaRow::from(m));
        }
    }
    // Our estimator is a port of Mesa's; the programs differ, the model does not.
    let record = Record {
        cycles: true,
        vue_maps: true,
        ..Record::MESA
    };
    t.check(&format!("{platform}.vs.corpus"), record);
    assert!(
        t.ours <= t.theirs,
        "more instructions than Mesa: {} > {}",
        t.ours,
        t.theirs
    );
    assert!(t.ours_spills <= t.theirs_spills);
}

#[test]
fn bdw_vertex_shaders_compile_verify_and_match_mesas_layout() {
    run("bdw");
}

#[test]
fn skl_vertex_shaders_compile_verify_and_match_mesas_layout() {
    run("skl");
}
