//! Every corpus shader rebuilt through the C builder's entry points (`gpucc_builder_*`,
//! driven by a walk over the parsed shader as a driver adapter walks Mesa's `nir_shader`)
//! equals the shader the text import reads, and compiles to the same bytes.
//!
//! The walk passes Mesa's packed index words (io_semantics, access, xfb, types) and the
//! variables' numeric locations, interpolation and qualifier bits, so the equality also checks
//! that the builder turns Mesa's encodings into what nir_print writes for them.

mod common;

use gpucc::capi::replay;
use gpucc::compiler::{CompileOptions, Compiler};
use gpucc::nir;

/// The corpus folders and the target each one's shaders were captured for.
const PLATFORMS: [(&str, &str); 7] = [
    ("ivb", "ivb"),
    ("bdw", "bdw"),
    ("skl", "skl"),
    ("snb", "snb"),
    ("g4x", "g4x"),
    ("gc2000", "gc2000"),
    ("gc7000", "gc7000"),
];

fn first_diff(a: &str, b: &str) -> String {
    for (n, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: `{x}` vs `{y}`", n + 1);
        }
    }
    format!("{} vs {} lines", a.lines().count(), b.lines().count())
}

#[test]
fn corpus_rebuilds_through_the_c_builder_into_identical_code() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let mut failures = Vec::new();
    let mut total = 0;
    for (folder, target) in PLATFORMS {
        let compiler = Compiler::new(target).unwrap();
        let paths = common::files_with_suffix(&dir.join(folder), ".nir");
        let (mut files, mut identical, mut compiled, mut refused) = (0, 0, 0, 0);
        for path in &paths {
            files += 1;
            let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
            let text = std::fs::read_to_string(path).unwrap();
            let mut parsed = nir::parse(&text).unwrap();
            parsed.trailer.clear();
            let rebuilt = match replay(&parsed) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{name}: {e}"));
                    continue;
                }
            };
            if rebuilt != parsed {
                let diff = first_diff(&nir::print(&parsed), &nir::print(&rebuilt));
                failures.push(format!("{name}: rebuilt shader differs: {diff}"));
                continue;
            }
            let options = CompileOptions::default();
            match (
                compiler.compile(&parsed, &options),
                compiler.compile(&rebuilt, &options),
            ) {
                (Ok(a), Ok(b)) => {
                    if a.bytes == b.bytes {
                        identical += 1;
                    } else {
                        failures.push(format!("{name}: program bytes differ"));
                    }
                    compiled += 1;
                }
                (Err(a), Err(b)) => {
                    if a.to_string() == b.to_string() {
                        identical += 1;
                    } else {
                        failures.push(format!("{name}: errors differ: {a} / {b}"));
                    }
                    refused += 1;
                }
                (a, b) => {
                    failures.push(format!("{name}: text {:?}, builder {:?}", a.err(), b.err()))
                }
            }
        }
        // Exact figures per platform: files, shaders whose code (or refusal) is identical
        // both ways, and how many compile; g4x has no backend yet and snb builds fragment
        // shaders only, so both paths refuse the rest alike.
        let mut figs = common::expect::Figures::new(&format!("{folder}.builder.corpus"));
        figs.count("files", files);
        figs.count("identical", identical);
        figs.count("compiled", compiled);
        figs.count("refused", refused);
        figs.check();
        assert_eq!(identical, files, "{folder}: every file identical both ways");
        total += files;
    }
    assert!(
        failures.is_empty(),
        "{} of {total} differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
