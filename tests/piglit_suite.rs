//! piglit's own shader tests (shared/corpus/piglit) run end to end with the NIR Mesa 23.3
//! produced for each platform (shared/corpus/nir/<platform>), with piglit's expected pixels.
//! Prints the tally and every FAIL with its cause; the pass/fail/skip counts, and the count of
//! tests the runner could not run per class (the shader_runner command it does not model, or
//! the data the corpus lacks), are held exactly in tests/expectations/corpus.txt: a test that
//! becomes unrunnable fails by the name of its class (`gaps_<class>`).

mod common;

use gpucc::piglit::{self, Mode, Outcome};

/// Runs every test, prints the tally and compares the counts with the expectations.
fn run_suite(platform: &str, mode: Mode) {
    let (Some(dir), Some(nir_dir)) = (
        common::shared_path("corpus/piglit"),
        common::shared_path(&format!("corpus/nir/{platform}")),
    ) else {
        return;
    };
    let tests = common::files_with_suffix(&dir, ".shader_test");
    let mut counts = piglit::Counts::default();
    let mut skips = std::collections::BTreeMap::new();
    let owner = match mode {
        Mode::Interpreter => format!("{platform}.piglit.interpreter"),
        Mode::Simulator => format!("{platform}.piglit.simulator"),
    };
    let mut figs = common::expect::Figures::new(&owner);
    let mut vs_on_simulator = 0;
    for t in &tests {
        let o = piglit::run_test(platform, t, &nir_dir, mode);
        counts.add(&o);
        if matches!(&o, Outcome::Pass { stages } if stages.starts_with("vs: gpucc on the")) {
            vs_on_simulator += 1;
        }
        match &o {
            Outcome::Fail { .. } => {
                println!("{}: {o}", piglit::test_name(t));
                figs.note(format!("{}: {o}", piglit::test_name(t)));
            }
            Outcome::Skip(r) => {
                if std::env::var_os("PIGLIT_SHOW_SKIPS").is_some() {
                    println!("{}: {o}", piglit::test_name(t));
                }
                // Group by reason, without the test-specific tail (the missing file).
                let key = r.split(" (").next().unwrap_or(r).to_string();
                *skips.entry(key).or_insert(0) += 1;
            }
            Outcome::Pass { .. } => {}
        }
    }
    println!(
        "{platform} {mode:?}: {} passed, {} failed, {} skipped of {}",
        counts.passed,
        counts.failed,
        counts.skipped,
        tests.len()
    );
    for (k, n) in &skips {
        println!("  skipped {n}: {k}");
        figs.note(format!("skipped {n}: {k}"));
    }
    figs.count("tests", tests.len());
    figs.count("passed", counts.passed);
    figs.count("failed", counts.failed);
    figs.count("skipped", counts.skipped);
    for l in counts.gap_lines() {
        println!("{l}");
    }
    figs.gaps(&counts.gaps);
    if mode == Mode::Simulator {
        figs.count("passed_with_vs_on_simulator", vs_on_simulator);
    }
    figs.check();
}

/// Every ivb test passes on the interpreter too, fs-underflow-mul-compare-zero included since
/// the interpreter flushes single-precision denormals as the GPUs do.
#[test]
fn ivb_interpreter() {
    run_suite("ivb", Mode::Interpreter);
}

#[test]
fn gc2000_interpreter() {
    run_suite("gc2000", Mode::Interpreter);
}

/// The fragment shader compiled by gpucc's Intel backend and run on the EU simulator; the
/// vertex shader goes through the NIR interpreter (the backend compiles fragment shaders only).
/// Every ivb test runs and passes.
#[test]
fn ivb_simulator() {
    run_suite("ivb", Mode::Simulator);
}

/// Gen9: the vertex stage compiled and run on the simulator too, bound to the fragment stage
/// through the VUE map (every test that passes with the interpreter's vertex stage).
#[test]
fn skl_simulator() {
    run_suite("skl", Mode::Simulator);
}

#[test]
fn bdw_simulator() {
    run_suite("bdw", Mode::Simulator);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in a debug build: run with --release")]
fn gc7000_interpreter() {
    run_suite("gc7000", Mode::Interpreter);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in a debug build: run with --release")]
fn bdw_interpreter() {
    run_suite("bdw", Mode::Interpreter);
}

/// The command-line entry: one line per test and the summary line.
#[test]
fn cli_output_names_each_test_and_sums_up() {
    let (Some(dir), Some(nir_dir)) = (
        common::shared_path("corpus/piglit"),
        common::shared_path("corpus/nir/ivb"),
    ) else {
        return;
    };
    let paths = [
        dir.join("piglit__glsl-1.10__execution__algebraic__glsl-algebraic-add-sub-1.shader_test"),
        dir.join("piglit__glsl-1.10__execution__builtins__glsl-fs-atan-3.shader_test"),
        dir.join("piglit__glsl-1.10__execution__samplers__glsl-fs-shadow2D-09.shader_test"),
    ];
    let (out, counts) = piglit::run_cli("ivb", &paths, Some(&nir_dir), Mode::Interpreter);
    assert!(counts.gaps.is_empty(), "{out}");
    println!("{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0]
        .ends_with("glsl-algebraic-add-sub-1: PASS (vs: NIR interpreter, fs: NIR interpreter)"));
    assert!(lines[1].contains("glsl-fs-atan-3: PASS"));
    // A depth texture with its comparison and depth mode (texture shadow2D, texparameter).
    assert!(lines[2].contains("glsl-fs-shadow2D-09: PASS"), "{out}");
    assert_eq!(lines[3], "3 passed, 0 failed, 0 skipped");
    assert_eq!(counts.passed, 3);
}

/// The fragment shader compiled by gpucc's etnaviv backend and run on the Vivante simulator
/// (2x2 quads); the vertex shader too, once per vertex. Besides GLSL 1.30 tests, the
/// skips are the NaN min/max tests (the core's SELECT rule, checked against NIR's rule on the
/// interpreter) and the constant-array tests Mesa compiles no program for (over GC2000's 64
/// fragment uniforms).
#[test]
fn gc2000_simulator() {
    run_suite("gc2000", Mode::Simulator);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in a debug build: run with --release")]
fn gc7000_simulator() {
    run_suite("gc7000", Mode::Simulator);
}
