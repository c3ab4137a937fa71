//! The committed include/gpucc.h must be exactly what cbindgen generates from src/capi now.
//!
//! build.rs writes the fresh header to $OUT_DIR; outside CI it also refreshes the committed copy,
//! so this test fails in CI (and for anyone building with CI set) when a change to the C ABI was
//! committed without the regenerated header.

#[test]
fn committed_header_is_fresh() {
    let generated = std::path::Path::new(env!("OUT_DIR")).join("gpucc.h");
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("include/gpucc.h");
    let generated = std::fs::read_to_string(&generated)
        .unwrap_or_else(|e| panic!("{}: {e} (did build.rs run cbindgen?)", generated.display()));
    let committed = std::fs::read_to_string(&committed)
        .unwrap_or_else(|e| panic!("{}: {e}", committed.display()));
    assert!(
        generated == committed,
        "include/gpucc.h is stale: rebuild without CI set (build.rs refreshes it) and commit it"
    );
}

#[test]
fn header_version_matches_cargo() {
    let header = include_str!("../include/gpucc.h");
    for (macro_name, value) in [
        ("GPUCC_VERSION_MAJOR", env!("CARGO_PKG_VERSION_MAJOR")),
        ("GPUCC_VERSION_MINOR", env!("CARGO_PKG_VERSION_MINOR")),
        ("GPUCC_VERSION_PATCH", env!("CARGO_PKG_VERSION_PATCH")),
    ] {
        let line = format!("#define {macro_name} {value}\n");
        assert!(header.contains(&line), "header lacks `{}`", line.trim());
    }
}
