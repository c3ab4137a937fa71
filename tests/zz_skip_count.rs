//! The count of tests that skipped for missing data in this `cargo test` run.
//!
//! Cargo runs the integration-test binaries one after another in the order of their names, and
//! this file is named to come last. Every test that skips writes its visible `SKIP` line and
//! also one line into a folder named after cargo's pid (`common::skip_log_dir`); this test
//! reads that folder, prints the total and what the skips were for, and removes it. Run alone
//! (`cargo test --test zz_skip_count`) it counts nothing, which is true of that run.
//!
//! Under `GPUCC_REQUIRE_SHARED=1` no shared-data test may skip (each one fails instead), so any
//! recorded skip there is one whose requirement is not the data folder, and it is listed too.

mod common;

use std::collections::BTreeMap;

/// With `GPUCC_CHECK_FIGURES=1` (set by `.ci/run` for its whole-suite release run): every
/// group of figures in tests/expectations/corpus.txt was compared by some test of this run.
/// A test that stops producing a group (renamed, removed, ignored) otherwise leaves its
/// figures in the file with nothing holding them.
#[test]
fn every_expected_figure_was_compared() {
    if std::env::var("GPUCC_CHECK_FIGURES").as_deref() != Ok("1") {
        return;
    }
    let cargo = std::os::unix::process::parent_id();
    let dir = common::expect::owner_log_dir(cargo);
    let mut seen = std::collections::BTreeSet::new();
    if let Ok(rd) = std::fs::read_dir(&dir) {
        for e in rd.flatten() {
            for line in std::fs::read_to_string(e.path())
                .unwrap_or_default()
                .lines()
            {
                seen.insert(line.to_string());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let expected = common::expect::owners(&common::expect::read(&common::expect::path()));
    let missing: Vec<&String> = expected.difference(&seen).collect();
    assert!(
        missing.is_empty(),
        "{} group(s) of figures in tests/expectations/corpus.txt were not compared by any test \
         of this run: {missing:?}",
        missing.len()
    );
}

#[test]
fn count_of_skipped_tests() {
    let cargo = std::os::unix::process::parent_id();
    let dir = common::skip_log_dir(cargo);
    let mut by_reason: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut total = 0;
    if let Ok(rd) = std::fs::read_dir(&dir) {
        let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            for line in std::fs::read_to_string(&f).unwrap_or_default().lines() {
                let (test, why) = line.split_once('\t').unwrap_or((line, ""));
                // Shared-data skips end alike (`common::missing`); others name their class
                // before the first `;`.
                let class = if why.ends_with("shared data test skipped") {
                    "missing shared data (../shared or GPUCC_SHARED)".to_string()
                } else {
                    why.split(';').next().unwrap_or(why).to_string()
                };
                by_reason.entry(class).or_default().push(test.to_string());
                total += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Folders of earlier runs whose last binary never ran (a failing run stops early).
    if let Some(parent) = dir.parent() {
        if let Ok(rd) = std::fs::read_dir(parent) {
            for e in rd.flatten() {
                let stale = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age.as_secs() > 24 * 3600);
                if stale {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
    }
    use std::io::Write as _;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "SKIPPED: {total} tests skipped in this cargo test run");
    for (why, tests) in &by_reason {
        let _ = writeln!(err, "SKIPPED: {} for {why}", tests.len());
    }
}
