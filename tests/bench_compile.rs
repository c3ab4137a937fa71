//! `gpucc bench compile` runs and reports throughput (no timing is asserted: the figures
//! depend on the machine).

mod common;

use std::process::Command;

#[test]
fn bench_compile_runs_on_one_file_single_and_multi_threaded() {
    let Some(file) = common::shared_path(
        "corpus/nir/ivb/piglit__glsl-1.10__execution__algebraic__glsl-algebraic-add-sub-1.fs.nir",
    ) else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args([
            "bench",
            "compile",
            "--target",
            "ivb",
            "--runs",
            "3",
            "--threads",
            "2",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(
        lines[0],
        "1 files, 1 compile; timing those (3 runs per configuration)"
    );
    assert!(lines[1].starts_with("  1 thread : ") && lines[1].contains("shaders/s median (min "));
    assert!(lines[2].starts_with("  2 threads: ") && lines[2].contains("shaders/s median (min "));
}

#[test]
fn bench_compile_without_a_target_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args(["bench", "compile"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
