//! `GPUCC_DEBUG`: each flag prints what the README says it prints, for both backends, on the
//! project's examples and on a corpus shader of each backend; `help` lists the flags; an
//! unknown flag warns. The flags are read once per process, so each case runs the `gpucc`
//! binary with its own environment.

mod common;

use std::process::Command;

/// The flags the design and the README name (DESIGN.md "GPUCC_DEBUG"; issue 20).
const DOCUMENTED: &[&str] = &[
    "nir",
    "fs",
    "etna",
    "ra",
    "asm",
    "stats",
    "time",
    "validate",
    "spill_vec4",
];

struct Run {
    stdout: String,
    stderr: String,
}

fn gpucc(debug: &str, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args(args)
        .env("GPUCC_DEBUG", debug)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gpucc runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "GPUCC_DEBUG={debug} {args:?}: {stderr}"
    );
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    }
}

fn compile(debug: &str, target: &str, file: &str) -> Run {
    gpucc(debug, &["compile", "--target", target, file])
}

const INTEL_EXAMPLE: &str = "examples/intel/gradient.fs.nir";
/// A vertex shader, which Gen7 compiles with the vec4 backend.
const VEC4_EXAMPLE: &str = "examples/intel/transform.vs.nir";
const ETNA_EXAMPLE: &str = "examples/etnaviv/gradient.fs.nir";

#[test]
fn help_lists_every_flag_and_the_library_knows_exactly_those() {
    let help = compile("help", "bdw", INTEL_EXAMPLE).stderr;
    for flag in DOCUMENTED.iter().chain(&["all", "help"]) {
        assert!(
            help.lines()
                .any(|l| l.split_whitespace().next() == Some(flag)),
            "GPUCC_DEBUG=help does not list '{flag}':\n{help}"
        );
    }
    let known: Vec<&str> = gpucc::debug::FLAGS.iter().map(|f| f.0).collect();
    assert_eq!(known, DOCUMENTED);
}

#[test]
fn an_unknown_flag_warns_and_the_others_still_apply() {
    let quiet = compile("", "bdw", INTEL_EXAMPLE);
    let run = compile("stats,bogus", "bdw", INTEL_EXAMPLE);
    assert!(
        run.stderr
            .contains("GPUCC_DEBUG: unknown flag 'bogus' ignored"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("SIMD8 shader: "), "{}", run.stderr);
    assert_eq!(run.stdout, quiet.stdout, "debug output goes to stderr only");
    assert_eq!(quiet.stderr, "", "no flags, no debug output");
}

/// The parts of the `--asm --stats` output a debug flag must reproduce: the statistics lines
/// and the instruction lines.
fn listing(target: &str, file: &str) -> (Vec<String>, Vec<String>) {
    let lines = |flag: &str| -> Vec<String> {
        gpucc("", &["compile", "--target", target, file, flag])
            .stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect()
    };
    // The assembly listing repeats each variant's statistics line before its code.
    let asm = lines("--asm")
        .into_iter()
        .filter(|l| !l.contains(" shader: "))
        .collect();
    (lines("--stats"), asm)
}

/// What both backends print alike: the NIR as received, the assembly and statistics of
/// `compile --asm --stats`, a time for each of `passes`, and the number of validated steps
/// (returned).
fn check_common(target: &str, file: &str, passes: &[&str], label: &str) -> usize {
    let (stats, asm) = listing(target, file);

    let nir = compile("nir", target, file).stderr;
    assert!(
        nir.starts_with("=== NIR as received\nshader: MESA_SHADER_"),
        "{nir}"
    );

    let printed = compile("asm", target, file).stderr;
    assert!(
        printed.contains(&format!("=== {target} assembly")),
        "{printed}"
    );
    // etnaviv's listing starts with the stage name, which the dump keeps in its header.
    for line in asm.iter().filter(|l| *l != "FRAG") {
        assert!(printed.contains(line.as_str()), "asm lacks '{line}'");
    }

    let printed = compile("stats", target, file).stderr;
    for line in &stats {
        assert!(printed.contains(line.as_str()), "stats lacks '{line}'");
    }

    let time = compile("time", target, file).stderr;
    for pass in passes {
        assert!(
            time.lines()
                .any(|l| l.split_whitespace().next() == Some(pass)),
            "no time for {pass}:\n{time}"
        );
    }

    validated_steps(&compile("validate", target, file).stderr, label)
}

fn check_intel(file: &str) {
    let passes = [
        "from_nir",
        "copy_propagation",
        "register_allocation",
        "encode",
    ];
    let steps = check_common("bdw", file, &passes, "SIMD8");
    assert!(
        steps > 10,
        "the Intel pipeline has more than ten steps, not {steps}"
    );

    let fs = compile("fs", "bdw", file).stderr;
    for step in [
        "SIMD8 after from_nir",
        "SIMD16 after from_nir",
        "after lower_load_payload",
    ] {
        assert!(fs.contains(step), "GPUCC_DEBUG=fs lacks '{step}':\n{fs}");
    }
    assert!(!fs.contains("=== NIR"), "fs prints only the backend IR");

    let ra = compile("ra", "bdw", file).stderr;
    assert!(
        ra.contains("=== SIMD8 register allocation")
            && ra.contains("VGRFs by size")
            && ra.contains("interference graph")
            && ra.contains("spills:fills"),
        "{ra}"
    );
}

/// The vec4 backend (an ivb vertex shader) prints what the scalar backend prints: its IR
/// under `fs` after translation and each pass that changed it, a time per pass under the
/// names the scalar backend uses for the same passes, the allocation under `ra`, and the
/// number of validated steps.
fn check_vec4(file: &str) {
    let passes = [
        "from_nir",
        "emit_vertex",
        "copy_propagation",
        "dead_code_eliminate",
        "register_coalesce",
        "cmod_propagation",
        "register_allocation",
        "codegen",
        "encode",
    ];
    let steps = check_common("ivb", file, &passes, "vec4");
    assert!(
        steps > 2 + 7,
        "translation, the URB writes and a round of seven passes are validated, not {steps}"
    );

    let fs = compile("fs", "ivb", file).stderr;
    for step in ["=== vec4 after from_nir\n", "=== vec4 after emit_vertex\n"] {
        assert!(fs.contains(step), "GPUCC_DEBUG=fs lacks '{step}':\n{fs}");
    }
    assert!(fs.contains("urb_write("), "{fs}");
    assert!(!fs.contains("=== NIR"), "fs prints only the backend IR");

    let ra = compile("ra", "ivb", file).stderr;
    assert!(
        ra.contains("=== vec4 register allocation")
            && ra.contains("virtual registers")
            && ra.contains("interference graph")
            && ra.contains("spills:fills")
            && ra.contains("=== vec4 registers: "),
        "{ra}"
    );
    let ra = compile("ra,spill_vec4", "ivb", file).stderr;
    assert!(ra.contains("allocatable g"), "{ra}");
}

fn check_etnaviv(file: &str) {
    let passes = ["from_nir", "register_allocation", "emit"];
    let steps = check_common("gc7000", file, &passes, "gc7000");
    assert!(
        steps >= 2,
        "translation and at least one pass are validated, not {steps}"
    );

    let etna = compile("etna", "gc7000", file).stderr;
    assert!(
        etna.contains("MESA_SHADER_FRAGMENT after from_nir\nvalues: "),
        "GPUCC_DEBUG=etna prints the IR after translation:\n{etna}"
    );

    let ra = compile("ra", "gc7000", file).stderr;
    assert!(
        ra.contains("=== register allocation: ") && ra.contains("interference graph"),
        "{ra}"
    );

    // The Intel IR flag says nothing about an etnaviv compile, and the reverse.
    assert_eq!(compile("fs", "gc7000", file).stderr, "");
}

/// N from "=== LABEL...: IR valid after each of N steps".
fn validated_steps(out: &str, label: &str) -> usize {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("=== {label}")) && l.contains("IR valid after each of"))
        .unwrap_or_else(|| panic!("no validation line for {label}:\n{out}"));
    line.split_whitespace()
        .rev()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no step count in '{line}'"))
}

#[test]
fn each_flag_prints_its_part_on_the_intel_example() {
    check_intel(INTEL_EXAMPLE);
    assert_eq!(compile("etna", "bdw", INTEL_EXAMPLE).stderr, "");
}

#[test]
fn each_flag_prints_its_part_on_the_vec4_example() {
    check_vec4(VEC4_EXAMPLE);
    assert_eq!(compile("etna", "ivb", VEC4_EXAMPLE).stderr, "");
}

/// A vertex shader that spills in the eight registers `spill_vec4` leaves: `fs` shows the
/// spill code, `ra` which registers went to scratch.
#[test]
fn a_spilling_vec4_shader_shows_its_spills() {
    let Some(nir) = common::shared_path("corpus/nir/ivb") else {
        return;
    };
    let file = nir.join("shader-db__tesseract__339.vs.nir");
    let file = file.to_str().unwrap();
    check_vec4(file);
    let out = compile("spill_vec4,ra,fs", "ivb", file).stderr;
    assert!(
        out.contains("=== vec4 after spill_reg\n") && out.contains("scratch_write("),
        "{out}"
    );
    assert!(out.contains("=== vec4 spilled to scratch: v"), "{out}");
}

#[test]
fn each_flag_prints_its_part_on_the_etnaviv_example() {
    check_etnaviv(ETNA_EXAMPLE);
}

#[test]
fn each_flag_prints_its_part_on_a_corpus_shader_of_each_backend() {
    let Some(nir) = common::shared_path("corpus/nir") else {
        return;
    };
    // A shader with a loop: more passes make progress than on the straight-line examples.
    let name = "piglit__glsl-1.10__execution__loops__glsl-fs-loop-shadow-variables.fs.nir";
    let intel = nir.join("bdw").join(name);
    let etna = nir.join("gc7000").join(name);
    check_intel(intel.to_str().unwrap());
    check_etnaviv(etna.to_str().unwrap());
}

/// `help` and unknown-flag warnings come out whatever the verb, also when nothing compiles
/// (they once waited for the first compile).
#[test]
fn help_prints_without_a_compile() {
    let run = gpucc("help", &["targets"]);
    assert!(
        run.stderr
            .lines()
            .any(|l| l.trim_start().starts_with("stats")),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("ivb"), "{}", run.stdout);
    let run = gpucc("bogus", &["targets"]);
    assert!(
        run.stderr.contains("unknown flag 'bogus'"),
        "{}",
        run.stderr
    );
}
