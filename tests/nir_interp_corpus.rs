//! Every corpus shader runs on the reference interpreter for one quad of invocations with
//! deterministic inputs, and every ALU op the corpus uses has semantics.

mod common;

use gpucc::nir::interp::{self, alu, Environment};
use gpucc::nir::{self, passes, AluOp, InstrKind};
use std::collections::BTreeSet;

/// The environment used for corpus runs: generated inputs, 64 KiB of patterned uniform and
/// UBO bytes (see the fill below), zeroed constant data, and robust access: indices the shaders compute from these
/// made-up uniforms need not respect the application's bounds.
fn corpus_env(shader: &nir::Shader, platform: &str) -> Environment {
    let mut bytes = vec![0u8; 65536];
    for (i, chunk) in bytes.chunks_mut(4).enumerate() {
        // Small integers: valid loop counts and indices when read as ints, (denormal) near
        // zero when read as floats.
        let v = (i % 3) as u32;
        chunk.copy_from_slice(&v.to_le_bytes());
    }
    Environment {
        uniforms: bytes.clone(),
        float_uniform_offsets: platform == "gc2000",
        ubos: vec![bytes; 16],
        robust_access: true,
        constant_data: vec![0; (shader.info.constant_data_size as usize).max(4096)],
        ..Environment::default()
    }
}

#[test]
fn corpus_shaders_run_on_a_quad() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let files = common::files_with_suffix(&dir, ".nir");
    let (mut ok, mut failures) = (0, Vec::new());
    for path in &files {
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        let platform = name.split('/').next().unwrap_or("").to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let shader = match nir::parse(&text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: parse: {e}"));
                continue;
            }
        };
        match interp::run(&shader, &corpus_env(&shader, &platform), 4) {
            Ok(_) => ok += 1,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "interp corpus: {} shaders, {ok} ran, {} failed",
        files.len(),
        failures.len()
    );
    let mut figs = common::expect::Figures::new("all.nir_interp.quad");
    figs.count("shaders", files.len());
    figs.count("ran", ok);
    figs.count("failed", failures.len());
    for f in failures.iter().take(40) {
        println!("  {f}");
        figs.note(f.clone());
    }
    figs.check();
    assert!(
        failures.is_empty(),
        "{} shaders failed to run",
        failures.len()
    );
}

#[test]
fn every_corpus_alu_op_has_semantics() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let mut ops = BTreeSet::new();
    for path in common::files_with_suffix(&dir, ".nir") {
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(shader) = nir::parse(&text) else {
            continue;
        };
        for f in &shader.functions {
            for ins in f.body.iter().flat_map(|b| b.instrs.iter()) {
                if let InstrKind::Alu(a) = &ins.kind {
                    ops.insert(a.op);
                }
            }
        }
    }
    let missing: Vec<&str> = ops
        .iter()
        .filter(|&&op| !alu::is_supported(op))
        .map(|op| op.name())
        .collect();
    println!("corpus uses {} ALU ops", ops.len());
    let mut figs = common::expect::Figures::new("all.nir_interp.alu_ops");
    figs.count("used", ops.len());
    figs.count("without_semantics", missing.len());
    figs.check();
    assert!(missing.is_empty(), "ops without semantics: {missing:?}");
    let _ = AluOp::from_name("fadd");
}

/// The colours a piglit `[test]` section probes for, when the test is one draw with no
/// uniform or texture setup: `probe rgb(a) X Y c...`, `relative probe rgb(a) (x, y) (c...)`,
/// `probe all rgb(a) c...`. None when the test does anything else.
fn piglit_probes(test: &str) -> Option<Vec<Vec<f32>>> {
    let section = test.split("[test]").nth(1)?;
    let mut probes = Vec::new();
    let mut draws = 0;
    for line in section.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with("draw") {
            draws += 1;
            continue;
        }
        if line.starts_with("clear") {
            continue;
        }
        let pos = line.find("probe")?;
        let rest = &line[pos + 5..];
        let (n, rest) = if let Some(r) = rest.trim_start().strip_prefix("all") {
            (0, r.trim_start())
        } else {
            (2, rest.trim_start())
        };
        let (ncomp, rest) = if let Some(r) = rest.strip_prefix("rgba") {
            (4, r)
        } else if let Some(r) = rest.strip_prefix("rgb") {
            (3, r)
        } else {
            return None;
        };
        let nums: Vec<f32> = rest
            .split(|c: char| c == ',' || c == '(' || c == ')' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<f32>())
            .collect::<Result<_, _>>()
            .ok()?;
        if nums.len() != n + ncomp {
            return None;
        }
        probes.push(nums[n..].to_vec());
    }
    (draws == 1 && !probes.is_empty()).then_some(probes)
}

/// Piglit's execution tests state the colour a correct implementation draws. Fragment shaders
/// from single-draw tests that read no uniforms, textures or inputs compute a constant colour,
/// so piglit's own probe values (read from the `.shader_test` files) check the interpreter end
/// to end, with piglit-like tolerance and the unorm framebuffer's clamp to [0, 1]. The same
/// shaders must still draw the right colour after the whole pass pipeline.
#[test]
fn self_contained_piglit_fragment_shaders_match_piglit_probes() {
    let (Some(dir), Some(piglit)) = (
        common::shared_path("corpus/nir"),
        common::shared_path("corpus/piglit"),
    ) else {
        return;
    };
    let external = [
        "load_ubo",
        "load_uniform",
        ")tex",
        ")txf",
        ")txl",
        ")txd",
        ")txb",
        ")txs",
        "load_input",
        "load_interpolated_input",
        "load_frag_coord",
        "load_front_face",
        "load_global_constant",
    ];
    let (mut checked, mut wrong) = (0, Vec::new());
    for path in common::files_with_suffix(&dir, ".fs.nir") {
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        let Some(test_name) = path
            .file_name()
            .and_then(|f| f.to_str())
            .and_then(|f| f.strip_suffix(".fs.nir"))
            .filter(|f| f.starts_with("piglit__"))
        else {
            continue;
        };
        let Ok(test) = std::fs::read_to_string(piglit.join(format!("{test_name}.shader_test")))
        else {
            continue;
        };
        let Some(probes) = piglit_probes(&test) else {
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        if external.iter().any(|e| text.contains(e)) {
            continue;
        }
        let shader = nir::parse(&text).unwrap();
        let platform = name.split('/').next().unwrap_or("").to_string();
        // The shader as Mesa handed it over, and after the whole pass pipeline.
        let mut optimized = shader.clone();
        passes::regs_to_ssa(&mut optimized);
        passes::copy_prop(&mut optimized);
        passes::constant_folding(&mut optimized);
        passes::scalarize_alu(&mut optimized, &|_, _| true);
        passes::dce(&mut optimized);
        passes::phis_to_regs(&mut optimized);
        if let Err(e) = nir::validate(&optimized) {
            wrong.push(format!("{name}: invalid after the pass pipeline: {e:?}"));
            continue;
        }
        checked += 1;
        for (what, s) in [("", &shader), (" after passes", &optimized)] {
            let r = match interp::run(s, &corpus_env(s, &platform), 4) {
                Ok(r) => r,
                Err(e) => {
                    wrong.push(format!("{name}{what}: {e}"));
                    continue;
                }
            };
            let Some(out) = r.invocations[0].outputs.values().next() else {
                wrong.push(format!("{name}{what}: no output"));
                continue;
            };
            let rgba: Vec<f32> = out.comps[..4]
                .iter()
                .map(|c| f32::from_bits(c.unwrap_or(0) as u32).clamp(0.0, 1.0))
                .collect();
            if let Some(p) = probes
                .iter()
                .find(|p| p.iter().zip(&rgba).any(|(e, g)| (e - g).abs() > 0.01))
            {
                wrong.push(format!("{name}{what}: drew {rgba:?}, piglit probes {p:?}"));
            }
        }
    }
    println!(
        "piglit probes: {checked} shaders checked, {} wrong",
        wrong.len()
    );
    let mut figs = common::expect::Figures::new("all.nir_interp.piglit_probes");
    figs.count("checked", checked);
    figs.count("wrong", wrong.len());
    for w in &wrong {
        println!("  {w}");
        figs.note(w.clone());
    }
    figs.check();
    assert!(
        wrong.is_empty(),
        "{} shaders draw the wrong colour",
        wrong.len()
    );
}

/// Bounded robustness run: corpus shaders whose constants are replaced by random bit patterns
/// (NaN, infinities, huge indices, negative offsets) run against small, non-robust buffers.
/// Errors are expected; a panic fails the test. Folding and the other passes then run on the
/// same shaders and must leave them valid.
#[test]
fn mutated_constants_never_panic_the_interpreter() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let files = common::files_with_suffix(&dir, ".nir");
    let mut rng = gpucc::util::rng::Rng::new(0x5eed_1e55);
    let specials: [u64; 8] = [
        0x7fc0_0000,
        0xff80_0000,
        0x8000_0000,
        0xffff_ffff,
        0x7fff_ffff,
        0x0000_0001,
        0x4f80_0000,
        0x0001_0000,
    ];
    let (mut runs, mut errors) = (0, 0);
    for path in files.iter().step_by(7) {
        let Ok(mut shader) = nir::parse(&std::fs::read_to_string(path).unwrap()) else {
            continue;
        };
        let Some(imp) = shader.entry_mut() else {
            continue;
        };
        let defs = imp.defs.clone();
        for ins in &mut imp.instrs {
            if let InstrKind::LoadConst(c) = &mut ins.kind {
                let bits = defs[c.def.0 as usize].map_or(32, |d| d.bit_size);
                let mask = if bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                for v in &mut c.values {
                    if rng.below(3) == 0 {
                        let r = if rng.bool() {
                            *rng.pick(&specials)
                        } else {
                            rng.next_u64()
                        };
                        *v = r & mask;
                    }
                }
            }
        }
        let env = Environment {
            uniforms: vec![0; 256],
            ubos: vec![vec![0; 256]; 2],
            step_limit: 100_000,
            ..Environment::default()
        };
        runs += 1;
        if interp::run(&shader, &env, 4).is_err() {
            errors += 1;
        }
        // The passes must cope with the same values (constant folding evaluates them).
        passes::constant_folding(&mut shader);
        passes::copy_prop(&mut shader);
        passes::dce(&mut shader);
        passes::regs_to_ssa(&mut shader);
        assert!(nir::validate(&shader).is_ok(), "{}", path.display());
    }
    println!("mutated constants: {runs} runs, {errors} ended with an error");
    let mut figs = common::expect::Figures::new("all.nir_interp.mutated_constants");
    figs.count("runs", runs);
    figs.count("errors", errors);
    figs.check();
}
