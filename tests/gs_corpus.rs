//! Mesa's geometry-shader corpus on Gen8 (bdw) and Gen9 (skl): every `*.gs.nir` of
//! shared/corpus/stages/bdw (piglit's geometry tests as iris received them) compiled with
//! Mesa's binding model, run on the simulator against the interpreter's emitted vertex lists,
//! and its statistics compared with Mesa's (shared/corpus/stages/bdw.csv, `gs` rows; Mesa's
//! bdw figures serve both platforms). Every program must stay at or under Mesa's
//! instructions and spills+fills. Figures are held exactly in tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{mesa_stage_stats, Compiled, Record, Tally};
use gpucc::intel::backend::{verify_kernel, BindingModel, Context, Options};
use gpucc::intel::DevInfo;

fn run(platform: &str) {
    let Some(dir) = common::shared_path("corpus/stages/bdw") else {
        return;
    };
    let Some(csv) = common::shared_path("corpus/stages/bdw.csv") else {
        return;
    };
    let mesa = mesa_stage_stats(&csv, "gs");
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".gs.nir");
    let mut t = Tally {
        files: files.len(),
        ..Tally::default()
    };
    let mut options = Options::widths(&[8]);
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
        assert!(
            k.geometry.is_some(),
            "{name}: a geometry program has GS facts"
        );
        t.verdict(&name, verify_kernel(&ctx, &shader, &k, 8));
        if let Some(&m) = mesa.get(name.trim_end_matches(".nir")) {
            let s = &k.simd[0].stats;
            t.compare(s, m);
            let mine = (s.spills + s.fills) as u64;
            if s.instructions as u64 > m.instructions || mine > m.spills_fills {
                t.failures.push(format!(
                    "{name}: {} instructions, {mine} spills+fills; Mesa's {}, {}",
                    s.instructions, m.instructions, m.spills_fills
                ));
            }
        }
    }
    t.check(
        &format!("{platform}.gs.corpus"),
        Record {
            cycles: true,
            ..Record::MESA
        },
    );
}

#[test]
fn bdw_geometry_shaders_compile_verify_and_stay_under_mesa() {
    run("bdw");
}

#[test]
fn skl_geometry_shaders_compile_verify_and_stay_under_mesa() {
    run("skl");
}
