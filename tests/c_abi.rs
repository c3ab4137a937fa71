//! Builds every C program in tests/c/ against include/gpucc.h and the shared library cargo just
//! built, with the flags a strict driver build uses, and runs it. `cargo test` alone thus covers
//! the C ABI; `meson test` runs the same programs from the Meson build.

mod common;

use std::path::Path;
use std::process::Command;

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
    run(&common::build_c_program("version"), &[]);
}

#[test]
fn c_errors() {
    run(&common::build_c_program("errors"), &[]);
}

#[test]
fn c_calls_from_an_atexit_handler_return_their_status() {
    run(&common::build_c_program("atexit"), &[]);
}

#[test]
fn c_panic_becomes_internal_status() {
    run(&common::build_c_program("panic"), &[]);
}

#[test]
fn c_import_print_example() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/intel/gradient.fs.nir");
    let printed = run(&common::build_c_program("import_print"), &[&example]);
    assert!(printed.contains("name: gradient"), "{printed}");
}

#[test]
fn c_builder_builds_the_examples_without_text() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    run(
        &common::build_c_program("builder"),
        &[
            &root.join("examples/intel/gradient.fs.nir"),
            &root.join("examples/etnaviv/gradient.fs.nir"),
        ],
    );
}

#[test]
fn c_import_print_corpus() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let exe = common::build_c_program("import_print");
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

#[test]
fn c_compile_both_families() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let intel = root.join("examples/intel/gradient.fs.nir");
    let etna = root.join("examples/etnaviv/gradient.fs.nir");
    run(&common::build_c_program("compile"), &[&intel, &etna]);
}

#[test]
fn c_compile_key_and_options_versions() {
    run(&common::build_c_program("compile_key"), &[]);
}

#[test]
fn c_binds_a_vertex_program_to_a_fragment_program() {
    run(&common::build_c_program("bind_vs_fs"), &[]);
    run(&common::build_c_program("tes_info"), &[]);
}

#[test]
fn c_reads_a_tessellation_control_programs_facts() {
    run(&common::build_c_program("tcs_info"), &[]);
}

#[test]
fn c_reads_a_geometry_programs_facts() {
    run(&common::build_c_program("bind_gs"), &[]);
}

#[test]
fn c_binds_a_gen7_vertex_geometry_fragment_pipeline() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/intel");
    run(
        &common::build_c_program("bind_vs_gs_fs"),
        &[Path::new(examples)],
    );
}

/// An ivb VS+TCS+TES+FS pipeline bound from the four program objects alone.
#[test]
fn c_binds_a_gen7_tessellation_pipeline() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/intel");
    run(
        &common::build_c_program("bind_ivb_tess"),
        &[Path::new(examples)],
    );
}

/// A bdw VS+TCS+TES+GS+FS pipeline bound from the five program objects alone.
#[test]
fn c_binds_a_gen8_five_stage_pipeline() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/intel");
    run(
        &common::build_c_program("bind_five_stages"),
        &[Path::new(examples)],
    );
}

#[test]
fn c_binds_programs_of_both_families_from_the_info_alone() {
    run(&common::build_c_program("bind_programs"), &[]);
}

#[test]
fn c_describes_a_compute_program() {
    run(&common::build_c_program("bind_cs"), &[]);
}

#[test]
fn c_log_callback_gets_each_compiles_log_data() {
    run(&common::build_c_program("log_data"), &[]);
}

#[test]
fn c_compiler_from_a_vivante_cores_values() {
    run(&common::build_c_program("etna_core"), &[]);
}

#[test]
fn c_deep_nesting_on_a_small_thread_stack() {
    run(&common::build_c_program("deep_nesting"), &[]);
}

/// examples/compute: the minimal compute driver, on each simulated node and with no argument
/// (a real i915 node when there is one, else the simulated Ivy Bridge).
#[test]
fn c_compute_example_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = common::build_c_source(&root.join("examples/compute/main.c"), "compute");
    for node in ["sim:ivb", "sim:hsw", "sim:bdw", "sim:skl"] {
        let out = run(&exe, &[Path::new(node)]);
        assert!(out.contains("compute: 256 elements ok"), "{node}: {out}");
    }
    let out = run(&exe, &[]);
    assert!(out.contains("compute: 256 elements ok"), "{out}");
}
