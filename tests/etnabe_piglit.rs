//! piglit tests that exercise the etnaviv fragment payload beyond position and varyings, run
//! end to end (gpucc's backend on the etnaviv simulator, Mesa 23.3's NIR, piglit's expected
//! pixels): gl_FrontFacing (i0), derivatives (2×2 quads), uniform buffer loads (gc7000's
//! LOAD from the default uniform block) and out-of-bounds array reads. Vertex shaders that
//! compute what the fragment stage reads run on the simulator too (`vs: gpucc on the etnaviv
//! simulator`), their outputs fed to the fragment stage through the program's output map.

mod common;

use gpucc::piglit::{self, Mode, Outcome};

fn run(platform: &str, tests: &[&str]) {
    run_checking(platform, tests, "etnaviv simulator");
}

/// Runs `tests`; each must pass with `stages` naming `want`.
fn run_checking(platform: &str, tests: &[&str], want: &str) {
    let (Some(dir), Some(nir_dir)) = (
        common::shared_path("corpus/piglit"),
        common::shared_path(&format!("corpus/nir/{platform}")),
    ) else {
        return;
    };
    let mut failures = Vec::new();
    for t in tests {
        let path = dir.join(format!("piglit__{t}.shader_test"));
        match piglit::run_test(platform, &path, &nir_dir, Mode::Simulator) {
            Outcome::Pass { stages } => assert!(stages.contains(want), "{t}: {stages}"),
            o => failures.push(format!("{t}: {o}")),
        }
    }
    assert!(failures.is_empty(), "{platform}:\n{}", failures.join("\n"));
}

const FRONT_FACING: [&str; 3] = [
    "glsl-1.10__execution__fs-frontfacing-ternary-0.0-neg-1.0",
    "glsl-1.10__execution__fs-frontfacing-ternary-1-neg-1",
    "glsl-1.10__execution__fs-frontfacing-ternary-1.0-neg-1.0",
];

const DERIVATIVES: [&str; 2] = [
    "glsl-1.10__execution__fs-dfdx-accuracy",
    "glsl-1.10__execution__fs-dfdy-accuracy",
];

const OUT_OF_BOUNDS: [&str; 2] = [
    "glsl-1.20__execution__array_bounds__glsl-array-bounds-06",
    "glsl-1.20__execution__array_bounds__glsl-array-bounds-10",
];

/// On gc7000 Mesa leaves indirectly indexed uniform arrays in the default uniform block and
/// reads them with LOAD.
const UBO: [&str; 9] = [
    "glsl-1.20__execution__array_bounds__glsl-array-bounds-13",
    "glsl-1.20__execution__fs-vec4-const-array-indirect-access-004-elements",
    "glsl-1.20__execution__fs-vec4-const-array-indirect-access-008-elements",
    "glsl-1.20__execution__fs-vec4-const-array-indirect-access-016-elements",
    "glsl-1.20__execution__fs-vec4-const-array-indirect-access-048-elements",
    "glsl-1.20__execution__fs-vec4-const-array-indirect-access-064-elements",
    "glsl-1.20__execution__fs-vec4-const-array-indirect-access-128-elements",
    "glsl-1.20__execution__fs-vec4-const-array-indirect-access-256-elements",
    "glsl-1.20__execution__out-parameter-indexing__fs-inout-index-two-level",
];

#[test]
fn front_facing_gc2000() {
    run("gc2000", &FRONT_FACING);
}

#[test]
fn front_facing_gc7000() {
    run("gc7000", &FRONT_FACING);
}

#[test]
fn derivatives_gc2000() {
    run("gc2000", &DERIVATIVES);
}

#[test]
fn derivatives_gc7000() {
    run("gc7000", &DERIVATIVES);
}

#[test]
fn out_of_bounds_reads_gc2000() {
    run("gc2000", &OUT_OF_BOUNDS);
}

#[test]
fn out_of_bounds_reads_gc7000() {
    run("gc7000", &OUT_OF_BOUNDS);
}

#[test]
fn ubo_loads_gc7000() {
    run("gc7000", &UBO);
}

/// Vertex shaders whose outputs decide the colour: a clamp, a branch, a loop, an indexed
/// output array and an early return, all computed per vertex on the simulator.
const VERTEX: [&str; 5] = [
    "glsl-1.10__execution__builtins__glsl-vs-clamp-1",
    "glsl-1.10__execution__glsl-vs-if-greater",
    "glsl-1.10__execution__loops__glsl-vs-loop-300",
    "glsl-1.10__execution__variable-indexing__vs-output-array-vec2-index-wr",
    "glsl-1.10__execution__vs-nested-return-sibling-loop2",
];

#[test]
fn vertex_stage_on_the_simulator_gc2000() {
    run_checking("gc2000", &VERTEX, "vs: gpucc on the etnaviv simulator");
}

#[test]
fn vertex_stage_on_the_simulator_gc7000() {
    run_checking("gc7000", &VERTEX, "vs: gpucc on the etnaviv simulator");
}
