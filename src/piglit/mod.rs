//! A piglit `shader_runner` for the simulators: runs a `.shader_test`'s `[test]` commands
//! against the NIR Mesa produced for its shaders, and reports `PASS`, `FAIL: ...` or
//! `SKIP: ...` per test, as piglit would on hardware: a skip only for a requirement the
//! platform lacks, while a test the runner cannot run fails (`FAIL: cannot run: ...`).
//!
//! The pieces: [`script`] reads the test, [`uniforms`] lays out each stage's default uniform
//! block from the NIR's `decl_var` lines, [`raster`] sets up the rectangle's triangles and
//! interpolates varyings, [`geometry`] assembles a draw's primitives for a geometry shader
//! and turns the strips it emits back into triangles, [`tessellation`] runs a patch draw's
//! control and evaluation shaders around [`tessellator`] (GL's primitive generation),
//! [`intel`] and [`etna`] run the compiled stages on the simulators, and [`run`] executes
//! draws and probes. The framebuffer is RGBA8
//! unorm; only pixels some probe reads are shaded (with the rest of their 2×2 quad, for
//! derivatives), since nothing else can change the outcome.

pub mod etna;
pub mod geometry;
pub mod intel;
pub mod io;
pub mod raster;
pub mod run;
pub mod script;
pub mod tessellation;
pub mod tessellator;
pub mod texture;
pub mod uniforms;

pub use run::{run_test, Gap, Mode, Outcome};
pub use script::test_name;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Tallies over several tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    /// Of the failures, those the runner could not run, per class ([`Gap::class`]: the
    /// shader_runner command not modelled, the data missing, or a malformed test).
    pub gaps: BTreeMap<String, usize>,
}

impl Counts {
    pub fn add(&mut self, o: &Outcome) {
        match o {
            Outcome::Pass { .. } => self.passed += 1,
            Outcome::Fail { .. } => self.failed += 1,
            Outcome::Skip(_) => self.skipped += 1,
        }
        if let Some(g) = o.gap() {
            *self.gaps.entry(g.class()).or_insert(0) += 1;
        }
    }

    /// One line per class of [`Counts::gaps`], most frequent first (ties by name):
    /// `  12 cannot run: texparameter swizzle_r`, `  7 missing data: constant data`.
    pub fn gap_lines(&self) -> Vec<String> {
        let mut v: Vec<(&String, &usize)> = self.gaps.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        v.into_iter()
            .map(|(class, n)| format!("  {n} {class}"))
            .collect()
    }
}

/// `gpucc piglit --target NAME TEST.shader_test... [--nir-dir DIR] [--interp]`: one line
/// per test and, for several tests, the summary line and a count per class of test the
/// runner could not run ([`Counts::gap_lines`]). NIR files are
/// `<nir_dir>/<test>.{vs,fs}.nir`; without `nir_dir`, next to the test file.
pub fn run_cli(
    target: &str,
    paths: &[PathBuf],
    nir_dir: Option<&Path>,
    mode: Mode,
) -> (String, Counts) {
    let mut out = String::new();
    let mut counts = Counts::default();
    for path in paths {
        let dir = nir_dir
            .map(Path::to_path_buf)
            .or_else(|| path.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        let outcome = run_test(target, path, &dir, mode);
        counts.add(&outcome);
        let _ = writeln!(out, "{}: {outcome}", test_name(path));
    }
    if paths.len() > 1 {
        let _ = writeln!(
            out,
            "{} passed, {} failed, {} skipped",
            counts.passed, counts.failed, counts.skipped
        );
        for l in counts.gap_lines() {
            let _ = writeln!(out, "{l}");
        }
    }
    (out, counts)
}
