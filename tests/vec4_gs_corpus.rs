//! Mesa's ivb geometry-shader corpus through the vec4 backend, on Ivy Bridge and Haswell
//! (which has no corpus of its own: it compiles the ivb NIR): every `*.gs.nir` of
//! shared/corpus/stages/ivb (piglit's geometry tests as crocus received them) compiled with
//! Mesa's binding model in dual-object dispatch, run on the simulator two primitives per
//! thread against the interpreter's emitted vertex lists, and its statistics compared with
//! Mesa's (shared/corpus/stages/ivb.csv, `gs` rows; Mesa's ivb figures serve both
//! platforms). What is not built is refused by name. Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{mesa_stage_stats, Compiled, Record, Tally};
use gpucc::intel::backend::{verify_kernel, BindingModel, Context, Options};
use gpucc::intel::geometry::DispatchMode;
use gpucc::intel::kernel::SIMD4X2;
use gpucc::intel::DevInfo;

fn run(platform: &str) {
    let Some(dir) = common::shared_path("corpus/stages/ivb") else {
        return;
    };
    let Some(csv) = common::shared_path("corpus/stages/ivb.csv") else {
        return;
    };
    let mesa = mesa_stage_stats(&csv, "gs");
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".gs.nir");
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
        let g = k
            .geometry
            .as_ref()
            .expect("a geometry program has GS facts");
        // brw_compile_gs: instanced shaders run dual-instance; the others dual-object, or
        // single when dual-object code would spill.
        if g.invocations > 1 {
            assert_eq!(g.dispatch_mode, DispatchMode::DualInstance, "{name}");
        } else {
            assert!(
                matches!(
                    g.dispatch_mode,
                    DispatchMode::DualObject | DispatchMode::Single
                ),
                "{name}: {:?}",
                g.dispatch_mode
            );
        }
        assert_eq!(
            g.invocations,
            shader
                .info
                .field("invocations")
                .and_then(|v| v.trim().parse::<u32>().ok())
                .unwrap_or(1)
                .max(1),
            "{name}"
        );
        assert!(
            k.vertex.is_none(),
            "{name}: a geometry program has no vertex facts"
        );
        assert_eq!(k.simd[0].simd, SIMD4X2, "{name}");
        t.verdict(&name, verify_kernel(&ctx, &shader, &k, 8));
        if let Some(&m) = mesa.get(name.trim_end_matches(".nir")) {
            let s = &k.simd[0].stats;
            t.compare(s, m);
            if list {
                eprintln!("{name}: {} vs Mesa's {}", s.instructions, m.instructions);
            }
        }
    }
    t.check(&format!("{platform}.vec4_gs.corpus"), Record::MESA);
}

#[test]
fn ivb_vec4_geometry_corpus() {
    run("ivb");
}

#[test]
fn hsw_vec4_geometry_corpus() {
    run("hsw");
}
