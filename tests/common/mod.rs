//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The `shared/` data directory beside the clone (or `$GPUCC_SHARED`), if it is there.
///
/// Tests that walk the corpus or the vectors call this and return early, after printing why,
/// when it is absent: a fresh clone without the data still builds and runs every other test.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GPUCC_SHARED") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    };
    if dir.join("README.md").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "SKIP: {} not found; shared data tests skipped",
            dir.display()
        );
        None
    }
}

/// A sub-path of `shared/`, or `None` (with the skip message) when the data is absent.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    shared_dir().map(|d| d.join(rel))
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted.
pub fn files_with_suffix(dir: &std::path::Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
