//! Generates include/gpucc.h from src/capi with cbindgen.
//!
//! The header is written to $OUT_DIR/gpucc.h on every build. Outside CI it is also copied to
//! include/gpucc.h (the committed copy) when it differs, so a developer's build keeps the
//! committed header current; under CI (CI set) the source tree is left alone and
//! tests/header.rs fails if the committed copy is stale.

use std::path::PathBuf;

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=src/capi");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=CI");

    // No SONAME here: a program linked against cargo's target/release/libgpucc.so records
    // the file name it was linked with and starts. Meson links the installed library from the
    // static one and gives it the versioned SONAME libgpucc.so.MAJOR (meson.build).

    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable and valid");
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap();
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").unwrap();
    let patch = std::env::var("CARGO_PKG_VERSION_PATCH").unwrap();
    config.after_includes = Some(format!(
        "\n/* Version of the header; gpucc_version() returns the library's as a string. */\n\
         #define GPUCC_VERSION_MAJOR {major}\n\
         #define GPUCC_VERSION_MINOR {minor}\n\
         #define GPUCC_VERSION_PATCH {patch}\n\
         #define GPUCC_VERSION_STRING \"{major}.{minor}.{patch}\"\n\n\
         /* gpucc_compile_options.nr_color_regions for Mesa's nr_color_regions = 0 (no colour\n \
         * buffer bound); 0 in the field means \"not given\". */\n\
         #define GPUCC_NO_COLOR_REGIONS 0xffffffffu\n\n\
         /**\n * A compiled program (opaque to C): machine code, layout and statistics.\n */\n\
         typedef struct gpucc_program gpucc_program;\n"
    ));

    // Only src/capi (mod.rs and the modules it declares) is parsed: every type the C API
    // names is defined there, and the crate's internal types (some share names with the C
    // handles) must not leak into the header.
    let bindings = match cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src/capi/mod.rs"))
        .generate()
    {
        Ok(b) => b,
        Err(e) => {
            // A source error elsewhere in the crate is reported better by rustc itself.
            println!("cargo:warning=cbindgen could not generate the header: {e}");
            return;
        }
    };
    let generated = out_dir.join("gpucc.h");
    bindings.write_to_file(&generated);

    if std::env::var_os("CI").is_none() {
        let committed = crate_dir.join("include/gpucc.h");
        let new = std::fs::read(&generated).unwrap();
        if std::fs::read(&committed).ok().as_deref() != Some(&new[..]) {
            std::fs::create_dir_all(crate_dir.join("include")).unwrap();
            std::fs::write(&committed, new).unwrap();
        }
    }
}
