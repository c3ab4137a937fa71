//! Every corpus shader runs on the reference interpreter for one quad of invocations with
//! deterministic inputs, and every ALU op the corpus uses has semantics.

mod common;

use gpucc::nir::interp::{self, alu, Environment};
use gpucc::nir::{self, AluOp, InstrKind};
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
    for f in failures.iter().take(40) {
        println!("  {f}");
    }
    assert!(files.len() > 3000, "corpus looks incomplete");
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
    assert!(ops.len() > 50, "too few ops found: {}", ops.len());
    assert!(missing.is_empty(), "ops without semantics: {missing:?}");
    let _ = AluOp::from_name("fadd");
}
