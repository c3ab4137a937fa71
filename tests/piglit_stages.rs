//! piglit's geometry and tessellation tests (the .shader_test files behind
//! shared/corpus/stages, from Debian's `piglit` package through
//! scripts/fetch-piglit-stages.sh) run end to end on ivb, hsw, bdw and skl with the NIR Mesa
//! 23.3 produced for every stage (captured on ivb, which hsw shares, and on bdw, which skl
//! shares): vertex, geometry and fragment stages compiled by gpucc and run on the simulator,
//! the tessellation stages on the interpreter (the tessellator between them). The
//! pass/fail/skip counts and the count per class of test the runner cannot
//! run are held exactly in tests/expectations/corpus.txt (`<platform>.piglit_stages.*`), so a
//! test that regresses or becomes unrunnable fails by name.
//!
//! The tests are fetched once into the target directory (`piglit-stages/`); without the
//! package (no apt) the test is skipped visibly, and fails in CI.

mod common;

use std::path::PathBuf;

use gpucc::piglit::{self, Mode, Outcome};

/// The fetched tests, fetching them first if needed; `None` after reporting them missing.
/// The four platform tests run in parallel: one of them fetches while the others wait for it
/// (two scripts writing the same directory at once fail).
fn fetched(shared: &std::path::Path) -> Option<PathBuf> {
    static FETCHED: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    let result = FETCHED.get_or_init(|| {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
        let dest = target.join("piglit-stages");
        if dest.join(".complete").exists() {
            return Ok(dest);
        }
        let status = std::process::Command::new("bash")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/fetch-piglit-stages.sh"
            ))
            .arg("--shared")
            .arg(shared)
            .arg(&dest)
            .status();
        match status {
            Ok(s) if s.success() => Ok(dest),
            other => Err(format!(
                "the piglit stage tests could not be fetched into {} ({other:?})",
                dest.display()
            )),
        }
    });
    match result {
        Ok(dest) => Some(dest.clone()),
        Err(why) => {
            common::missing(why);
            None
        }
    }
}

/// Runs the tests on `platform` with the NIR captured for `corpus` (hsw shares ivb's, skl
/// bdw's: the stage corpus was captured on ivb and bdw only).
fn run(platform: &str, corpus: &str) {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let Some(nir_dir) = common::shared_path(&format!("corpus/stages/{corpus}")) else {
        return;
    };
    let Some(dir) = fetched(&shared) else {
        return;
    };
    let tests = common::files_with_suffix(&dir, ".shader_test");
    let mut counts = piglit::Counts::default();
    let mut figs = common::expect::Figures::new(&format!("{platform}.piglit_stages"));
    let mut gs_on_simulator = 0;
    let mut through_tes = 0;
    for t in &tests {
        let o = piglit::run_test(platform, t, &nir_dir, Mode::Simulator);
        counts.add(&o);
        match &o {
            Outcome::Pass { stages } => {
                if stages.contains("gs: gpucc on the Intel simulator") {
                    gs_on_simulator += 1;
                }
                if stages.contains("tes: ") {
                    through_tes += 1;
                }
            }
            _ => {
                println!("{}: {o}", piglit::test_name(t));
                figs.note(format!("{}: {o}", piglit::test_name(t)));
            }
        }
    }
    println!(
        "{platform}: {} passed, {} failed, {} skipped of {}",
        counts.passed,
        counts.failed,
        counts.skipped,
        tests.len()
    );
    for l in counts.gap_lines() {
        println!("{l}");
    }
    figs.count("tests", tests.len());
    figs.count("passed", counts.passed);
    figs.count("passed_with_gs_on_simulator", gs_on_simulator);
    figs.count("passed_through_tes", through_tes);
    figs.count("failed", counts.failed);
    figs.count("skipped", counts.skipped);
    figs.gaps(&counts.gaps);
    figs.check();
}

#[test]
fn ivb_stage_tests() {
    run("ivb", "ivb");
}

#[test]
fn hsw_stage_tests() {
    run("hsw", "ivb");
}

#[test]
fn bdw_stage_tests() {
    run("bdw", "bdw");
}

#[test]
fn skl_stage_tests() {
    run("skl", "bdw");
}
