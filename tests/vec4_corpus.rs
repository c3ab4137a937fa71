//! Mesa's ivb vertex-shader corpus through the vec4 (SIMD4x2) backend, on Ivy Bridge and on
//! Haswell (which has no corpus of its own: it compiles the ivb NIR), and Mesa's snb corpus
//! on Sandy Bridge (Gen6: message registers, align1 MATH): every `*.vs.nir` compiled, its VUE
//! map compared with the one Mesa printed after the shader, run two vertices per thread on
//! the simulator against the interpreter, and (ivb, snb) its instruction count compared with
//! Mesa's vec4 statistics (shared/corpus/mesa-stats/<platform>.csv, `vs` rows, simd `vec4`).
//! Figures are held exactly in tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{Compiled, MesaRow, Record, Tally};
use gpucc::intel::backend::{verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::kernel::SIMD4X2;
use gpucc::intel::DevInfo;

/// Mesa's assembly of corpus file `name` (`X.vs.nir`) for `platform`, if it is there.
fn mesa_asm(platform: &str, name: &str) -> Option<String> {
    let dir = common::shared_path(&format!("corpus/mesa-asm/{platform}"))?;
    std::fs::read_to_string(dir.join(format!("{}.asm", name.trim_end_matches(".nir")))).ok()
}

/// Compiles and verifies `corpus`'s vertex shaders on `platform`, comparing with Mesa's
/// statistics when the corpus is the platform's own.
fn run(platform: &str, corpus: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/nir/{corpus}")) else {
        return;
    };
    let mesa = if platform == corpus {
        let Some(m) = common::mesa_vs_stats(platform, |_| true) else {
            common::missing(&format!("corpus/mesa-stats/{platform}.csv"));
            return;
        };
        Some(m)
    } else {
        None
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
        }) = t.compile(&ctx, &Options::widths(&[8]).validating(), f)
        else {
            continue;
        };
        assert!(
            k.is_simd4x2() && k.simd.len() == 1,
            "{name}: not a SIMD4x2 kernel"
        );
        assert_eq!(k.simd[0].simd, SIMD4X2);
        let v = k.vertex.as_ref().expect("a vertex shader has vertex facts");
        if common::printed_vue_map(&text).is_some() {
            t.vue_map(&name, &text, v.vue_map.to_string());
        } else if let Some(asm) = mesa_asm(platform, &name) {
            // The snb and g4x dumps print no VUE map: Mesa's URB writes must then cover
            // exactly its slots (padded to whole rows of two slots, interleaved writes, on
            // Gen6; Gen4-5 messages are not padded).
            t.vue_maps_printed += 1;
            let ours = if platform == "g4x" {
                v.vue_map.num_slots()
            } else {
                v.vue_map.num_slots().next_multiple_of(2)
            };
            match common::mesa_asm::urb_slots_written(&asm) {
                Some(n) if n == ours => t.vue_maps_equal += 1,
                n => t.failures.push(format!(
                    "{name}: VUE map of {ours} slots (padded), Mesa's URB writes cover {n:?}"
                )),
            }
        }
        let outcome = match verify_kernel(&ctx, &shader, &k, 8) {
            // Grouped by the reason, without the instruction position.
            VerifyOutcome::Unsupported(w) => {
                VerifyOutcome::Unsupported(w.split(": ").skip(2).collect::<Vec<_>>().join(": "))
            }
            other => other,
        };
        t.verdict(&name, outcome);
        if let Some(m) = mesa
            .as_ref()
            .and_then(|m| m.get(name.trim_end_matches(".nir")))
        {
            t.compare(&k.simd[0].stats, MesaRow::from(m));
        }
    }
    let record = Record {
        mesa: mesa.is_some(),
        cycles: false,
        vue_maps: true,
    };
    // Nothing fails: every shader compiles or is UNSUPPORTED naming the feature, and every
    // compiled one that runs matches the interpreter.
    t.check(&format!("{platform}.vs.vec4_corpus"), record);
}

#[test]
fn ivb_vertex_shaders_compile_simd4x2_and_verify() {
    run("ivb", "ivb");
}

#[test]
fn hsw_compiles_the_ivb_vertex_shaders_simd4x2_and_verifies_them() {
    run("hsw", "ivb");
}

#[test]
fn snb_vertex_shaders_compile_simd4x2_and_verify() {
    run("snb", "snb");
}

#[test]
fn g4x_vertex_shaders_compile_simd4x2_and_verify() {
    run("g4x", "g4x");
}

#[test]
fn ivb_vertex_shaders_forced_to_spill_still_verify() {
    // GPUCC_DEBUG=spill_vec4's register file (8 GRFs after the payload) on every corpus
    // shader: most spill, and every one must still match the interpreter, which exercises
    // the fills and spills inside Mesa's real control flow (loops, nested ifs) on the
    // simulator. The figures (how many spilled, spills and fills in all) are held exactly.
    let Some(dir) = common::shared_path("corpus/nir/ivb") else {
        return;
    };
    let ctx = Context::new(DevInfo::from_name("ivb").unwrap());
    let mut opts = Options::widths(&[8]);
    opts.debug |= gpucc::debug::Flags::SPILL_VEC4;
    let files = common::files_with_suffix(&dir, ".vs.nir");
    let (mut compiled, mut passed, mut spilled, mut spills, mut fills) = (0, 0, 0, 0u64, 0u64);
    let mut failures = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let shader = gpucc::nir::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
        let k = match ctx.compile(&shader, &opts) {
            Ok(k) => k,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        compiled += 1;
        let s = &k.simd[0].stats;
        spilled += (s.spills > 0) as usize;
        spills += s.spills as u64;
        fills += s.fills as u64;
        match verify_kernel(&ctx, &shader, &k, 8) {
            VerifyOutcome::Pass => passed += 1,
            other => failures.push(format!("{name}: {other:?}")),
        }
    }
    println!(
        "ivb vec4 vs, spill_vec4: {compiled}/{} compiled, {passed} verified, {spilled} \
         spilled ({spills} spills, {fills} fills)",
        files.len()
    );
    let mut figs = common::expect::Figures::new("ivb.vs.vec4_forced_spill");
    figs.count("files", files.len());
    figs.count("compiled", compiled);
    figs.count("verified", passed);
    figs.count("spilled", spilled);
    figs.count("spills", spills as usize);
    figs.count("fills", fills as usize);
    figs.count("failures", failures.len());
    for f in failures.iter().take(20) {
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{failures:#?}");
}
