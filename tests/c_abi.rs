//! Builds every C program in tests/c/ against include/gpucc.h and the shared library cargo just
//! built, with the flags a strict driver build uses, and runs it. `cargo test` alone thus covers
//! the C ABI; `meson test` runs the same programs from the Meson build.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The directory holding libgpucc.so for the profile this test was built in (the test binary
/// lives in its `deps/` subdirectory).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(Path::parent).unwrap().to_path_buf()
}

fn build(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = lib_dir();
    assert!(
        lib.join("libgpucc.so").is_file(),
        "{} has no libgpucc.so",
        lib.display()
    );
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("c-{name}"));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-Wall", "-Wextra", "-Werror", "-std=c11", "-pthread"])
        .arg(format!("-I{}", root.join("include").display()))
        .arg(root.join("tests/c").join(format!("{name}.c")))
        .arg("-o")
        .arg(&out)
        .arg(format!("-L{}", lib.display()))
        .arg("-lgpucc")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler '{cc}': {e}"));
    assert!(status.success(), "compiling tests/c/{name}.c failed");
    out
}

fn run(exe: &Path, args: &[&Path]) -> String {
    let out = Command::new(exe)
        .args(args)
        .env_remove("GPUCC_TEST_PANIC")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} {:?} failed ({}):\n{}\n{}",
        exe.display(),
        args,
        out.status,
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn c_version() {
    run(&build("version"), &[]);
}

#[test]
fn c_errors() {
    run(&build("errors"), &[]);
}

#[test]
fn c_panic_becomes_internal_status() {
    run(&build("panic"), &[]);
}

#[test]
fn c_import_print_example() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/gradient.fs.nir");
    let printed = run(&build("import_print"), &[&example]);
    assert!(printed.contains("name: gradient"), "{printed}");
}

#[test]
fn c_import_print_corpus() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let exe = build("import_print");
    for platform in ["ivb", "bdw", "gc2000", "gc7000"] {
        let files = common::files_with_suffix(&dir.join(platform), ".fs.nir");
        let first = files
            .first()
            .unwrap_or_else(|| panic!("no fragment shaders for {platform}"));
        let printed = run(&exe, &[first]);
        assert!(
            printed.starts_with("shader: MESA_SHADER_FRAGMENT"),
            "{printed}"
        );
    }
}
