//! Smoke runs of every `gpucc fuzz` target in the normal test suite (a debug build, so
//! arithmetic overflow panics), and the inputs the long runs found.

mod common;

use std::process::Command;

/// A fixed number of mutated inputs through every target: no panic, no input past the time
/// bound (the command fails on either). The corpus seeds come from the shared data when it
/// is there; without it the built-in seeds are used.
#[test]
fn every_fuzz_target_survives_a_smoke_run() {
    let artifacts = std::env::temp_dir().join(format!("gpucc-fuzz-smoke-{}", std::process::id()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpucc"));
    cmd.args(["fuzz", "--target", "all", "--execs", "150", "--seed", "5"])
        .args(["--time-limit-ms", "20000"])
        .arg("--artifacts")
        .arg(&artifacts);
    if let Some(shared) = common::shared_dir() {
        cmd.arg("--shared").arg(shared);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // One line per target, each with its full count and no panic or hang.
    let names = Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args(["fuzz", "--list"])
        .output()
        .unwrap();
    let names = String::from_utf8(names.stdout).unwrap();
    assert!(names.lines().count() >= 20, "{names}");
    for name in names.lines() {
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}:\n{stdout}"));
        assert!(line.contains(" 150 execs"), "{line}");
        assert!(
            line.contains(" 0 panics") && line.contains(" 0 hangs"),
            "{line}"
        );
    }
    let _ = std::fs::remove_dir_all(&artifacts);
}

/// A panic inside a target is caught, counted and saved, and fails the run: the harness
/// itself is checked with the C ABI's test hook, which makes an entry point panic.
#[test]
fn a_panicking_target_fails_the_run_and_saves_the_input() {
    let artifacts = std::env::temp_dir().join(format!("gpucc-fuzz-panic-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args([
            "fuzz",
            "--target",
            "capi-ivb",
            "--execs",
            "3",
            "--artifacts",
        ])
        .arg(&artifacts)
        .env("GPUCC_TEST_PANIC", "gpucc_compiler_create")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(" 3 panics"), "{stdout}");
    let saved = std::fs::read_dir(&artifacts).unwrap().count();
    assert!(saved >= 1, "no input saved");
    let _ = std::fs::remove_dir_all(&artifacts);
}

/// Found by the long `nir` run: a texture instruction left with no sources (a mutation
/// dropped the coordinate) printed as `tex , 3 (texture)`, which does not read back. Mesa
/// prints such ops (size and level queries have no sources) with the texture index first.
#[test]
fn texture_op_without_sources_prints_text_that_reads_back() {
    let text = "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 0\noutputs: 0\nuniforms: 0\n\
        decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds:\n\
        \x20   32x4  %0 = (float32)tex 3 (texture), 1 (sampler)\n    // succs: b1\n    block b1:\n}\n";
    let shader = gpucc::nir::parse(text).unwrap();
    let printed = gpucc::nir::print(&shader);
    assert!(
        printed.contains("= (float32)tex 3 (texture), 1 (sampler)"),
        "{printed}"
    );
    let again = gpucc::nir::parse(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    assert_eq!(gpucc::nir::print(&again), printed);
}

/// Found by the long `capi-ivb` run: a `tex` with no coordinate (a mutation dropped it and
/// the texture index) compiled to a sampler SEND of length 0, and EU validation turned that
/// into an internal error (the C ABI's INTERNAL status). It is the input's fault: an invalid
/// shader, named as such.
#[test]
fn texture_op_without_a_coordinate_is_an_invalid_shader() {
    let text = "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 0\noutputs: 1\nuniforms: 0\n\
        decl_var uniform INTERP_MODE_NONE none sampler2D tex (0, 0, 0)\n\
        decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n\
        decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds:\n\
        \x20   32    %0 = load_const (0x00000000)\n\
        \x20   32x4  %1 = (float32)tex 0 (sampler)\n\
        \x20   @store_output (%1, %0) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
        \x20   // succs: b1\n    block b1:\n}\n";
    let shader = gpucc::nir::parse(text).unwrap();
    gpucc::nir::validate(&shader).unwrap();
    for t in ["ivb", "hsw", "bdw", "skl"] {
        let err = gpucc::compiler::Compiler::new(t)
            .unwrap()
            .compile(&shader, &Default::default())
            .unwrap_err();
        assert!(
            matches!(&err, gpucc::compiler::CompileError::Invalid(m) if m.contains("tex has no coordinate")),
            "{t}: {err}"
        );
    }
}
