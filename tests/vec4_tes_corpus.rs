//! Mesa's ivb tessellation-evaluation corpus through the vec4 backend, on Ivy Bridge and
//! Haswell (which compiles the ivb NIR): every `*.tes.nir` of shared/corpus/stages/ivb
//! (piglit's tessellation tests as crocus received them) compiled with Mesa's binding model,
//! run on the simulator two domain points per thread over a laid-in patch URB entry against
//! the interpreter, and its statistics compared with Mesa's (shared/corpus/stages/ivb.csv,
//! `tes` rows; Mesa's ivb figures serve both platforms). What is not built is refused by
//! name (double precision among it). Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{mesa_stage_stats, Compiled, Record, Tally};
use gpucc::intel::backend::{verify_kernel, BindingModel, Context, Options};
use gpucc::intel::kernel::SIMD4X2;
use gpucc::intel::DevInfo;

fn run(platform: &str) {
    let Some(dir) = common::shared_path("corpus/stages/ivb") else {
        return;
    };
    let Some(csv) = common::shared_path("corpus/stages/ivb.csv") else {
        return;
    };
    let mesa = mesa_stage_stats(&csv, "tes");
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".tes.nir");
    let mut t = Tally {
        files: files.len(),
        ..Tally::default()
    };
    let list = std::env::var_os("GPUCC_TEST_LIST").is_some();
    let mut options = Options::widths(&[8]).validating();
    options.binding = BindingModel::Mesa;
    for f in &files {
        let Some(Compiled {
            name,
            shader,
            kernel: k,
            ..
        }) = t.compile(&ctx, &options, f)
        else {
            continue;
        };
        let info = k
            .tess_eval
            .as_ref()
            .expect("a tessellation-evaluation program has TES facts");
        assert!(
            k.vertex.is_none() && k.geometry.is_none(),
            "{name}: a TES program has no vertex or geometry facts"
        );
        assert_eq!(k.simd[0].simd, SIMD4X2, "{name}");
        // The payload: g0, g1 (domain points, patch handle, primitive id), then the push
        // constants; Mesa's vec4 TES pushes at most 24 patch slots (12 registers).
        assert_eq!(k.simd[0].dispatch_grf_start, 2, "{name}");
        assert!(info.urb_read_length <= 12, "{name}");
        t.verdict(&name, verify_kernel(&ctx, &shader, &k, 8));
        if let Some(&m) = mesa.get(name.trim_end_matches(".nir")) {
            let s = &k.simd[0].stats;
            t.compare(s, m);
            if list {
                eprintln!("{name}: {} vs Mesa's {}", s.instructions, m.instructions);
            }
        }
    }
    t.check(&format!("{platform}.vec4_tes.corpus"), Record::MESA);
}

#[test]
fn ivb_vec4_tes_corpus() {
    run("ivb");
}

#[test]
fn hsw_vec4_tes_corpus() {
    run("hsw");
}
