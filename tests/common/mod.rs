//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod intel_fs;

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

/// The C compiler the tests use (`$CC`, else `cc`).
pub fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

/// The directory holding the libgpucc.so built together with the running test: cargo builds
/// every crate type of the library into `deps/`, beside the test binary, and only `cargo build`
/// copies them up one level.
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_path_buf()
}

/// Compiles tests/c/<name>.c with the flags of a strict driver build, against include/gpucc.h
/// and the libgpucc.so of this test run; returns the executable's path.
pub fn build_c_program(name: &str) -> PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = lib_dir();
    assert!(
        lib.join("libgpucc.so").is_file(),
        "{} has no libgpucc.so",
        lib.display()
    );
    // Tests run in parallel and may build the same program: each build gets its own file.
    static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("c-{name}-{}-{n}", std::process::id()));
    let status = std::process::Command::new(cc())
        .args(["-Wall", "-Wextra", "-Werror", "-std=c11", "-pthread"])
        .arg(format!("-I{}", root.join("include").display()))
        .arg(root.join("tests/c").join(format!("{name}.c")))
        .arg("-o")
        .arg(&out)
        .arg(format!("-L{}", lib.display()))
        .arg("-lgpucc")
        // DT_RPATH (not RUNPATH) so that the library of this build wins over the stale copy
        // cargo may leave one level up, which LD_LIBRARY_PATH of `cargo test` lists first.
        .arg(format!("-Wl,--disable-new-dtags,-rpath,{}", lib.display()))
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler '{}': {e}", cc()));
    assert!(status.success(), "compiling tests/c/{name}.c failed");
    out
}
