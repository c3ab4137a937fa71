//! The random-shader differential test (`gpucc fuzz-diff`) and the miscompiles it found.
//!
//! The smoke run generates a fixed set of shaders per backend and checks each compiled one
//! against the reference interpreter on the simulator; the long runs (10^4 and more shaders
//! per backend) use the same command in a release build. Each shader found failing is kept
//! here, minimised, with its expected behaviour: the compiled code agrees with the
//! interpreter.

use std::process::Command;

use gpucc::compiler::Compiler;
use gpucc::verify::VerifyOutcome;

fn fuzz_shader(name: &str) -> gpucc::nir::Shader {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let shader = gpucc::nir::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    gpucc::nir::validate(&shader).unwrap_or_else(|e| panic!("{name}: {e}"));
    shader
}

/// Every Intel platform the scalar backend compiles fragment shaders for.
const INTEL_FS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

fn passes_everywhere(name: &str) {
    let shader = fuzz_shader(name);
    for t in INTEL_FS {
        let outcome = Compiler::new(t).unwrap().verify(&shader, &[8, 16]);
        assert_eq!(outcome, VerifyOutcome::Pass, "{name} on {t}");
    }
}

/// `b2f32` of a constant true is 1.0. from_nir writes it as a move of the negated immediate
/// -1 (0xffffffff:D), and codegen used to drop the negate, which an immediate cannot encode:
/// the shader wrote -1.0. (Fuzz-diff seed 1: a quarter of all Intel shaders hit it.)
#[test]
fn b2f32_of_a_constant_true_is_one() {
    passes_everywhere("b2f32-constant-true.nir");
}

/// A comparison stored to a register before a loop and again inside it: compute_to_copy
/// made the comparison write the register directly for the first copy, while the copy in
/// the loop still read the comparison's own (now never written) register, so the output
/// read garbage after one trip. Two copies of one value into one register part now keep the
/// writer.
#[test]
fn a_value_copied_twice_into_one_register_keeps_its_writer() {
    passes_everywhere("copy-twice-into-register.nir");
}

/// Open: `fmax(-0, +0)`, `fmin(+0, -0)` and `fsat(-0)` (NIR's `fmin(fmax(x, 0), 1)`). The interpreter orders -0 below +0 (so fmax
/// gives +0, fmin -0); the simulator's SEL.GE/SEL.L compare the zeros equal and return
/// src0, and the backend emits `sel.ge dst, -0, 0` for fmax(-0, +0): -0. GLSL leaves the sign
/// of a zero result of max/min open; which one Intel hardware returns decides who is right
/// (the PRM's SEL rules on signed zeros are the fact to check); the simulator's saturate
/// likewise keeps -0 where the interpreter gives +0. The generator adds +0 to Intel
/// min/max/sat operands until this is settled.
#[test]
#[ignore = "open: signed zero in fmin/fmax, interpreter (+0) against simulator SEL (-0)"]
fn fmax_of_signed_zeros_agrees_with_the_interpreter() {
    passes_everywhere("fmax-signed-zero.nir");
}

/// Open, the same question on etnaviv: NIR's `fsign(-0)` is -0, the simulator's SIGN gives
/// +0, and `frsq` of it turns the difference into -inf against +inf. (The output comparison
/// takes -0 and +0 as equal, so only the reciprocal shows it.) Which sign Vivante's SIGN
/// writes for -0 decides; the generator adds +0 before etnaviv fsign meanwhile.
#[test]
#[ignore = "open: sign of fsign(-0) on etnaviv, interpreter (-0) against simulator SIGN (+0)"]
fn etnaviv_fsign_of_negative_zero_agrees_with_the_interpreter() {
    let shader = fuzz_shader("etna-rsq-negative-zero.nir");
    for t in ["gc2000", "gc3000", "gc7000"] {
        let outcome = Compiler::new(t).unwrap().verify(&shader, &[]);
        assert_eq!(outcome, VerifyOutcome::Pass, "{t}");
    }
}

/// `gpucc fuzz-diff` over a fixed seed: every generated shader compiles and matches.
fn diff_smoke(target: &str, stage: &str, count: u32) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args([
            "fuzz-diff",
            "--target",
            target,
            "--stage",
            stage,
            "--seed",
            "7",
        ])
        .args(["--count", &count.to_string()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{target} {stage}: {stdout}\n{stderr}");
    let want = format!("{count} passed, 0 failed, 0 unsupported");
    assert!(stdout.contains(&want), "{target} {stage}: {stdout}");
}

#[test]
fn generated_intel_fragment_shaders_match_the_interpreter() {
    diff_smoke("ivb", "fs", 200);
}

#[test]
fn generated_intel_compute_shaders_match_the_interpreter() {
    diff_smoke("bdw", "cs", 200);
}

#[test]
fn generated_etnaviv_shaders_match_the_interpreter() {
    diff_smoke("gc2000", "fs", 200);
    diff_smoke("gc7000", "fs", 200);
}

/// The generator's output is what the command prints with `--only`, and a shader of the
/// run is the same whatever the count: `--only I` replays shader I of a long run.
#[test]
fn only_replays_one_shader_of_a_run() {
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
            .args(["fuzz-diff", "--target", "ivb", "--seed", "11"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let a = run(&["--only", "5"]);
    let b = run(&["--only", "5"]);
    let c = run(&["--only", "6"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert!(a.starts_with("shader: MESA_SHADER_FRAGMENT"), "{a}");
    assert!(a.contains("1 passed, 0 failed"), "{a}");
}
