//! The two NIR forms (crate::form) and the parser's independence from nir_print's block
//! comments, over the corpus: the directory a dump sits in says which driver produced it.

mod common;

use gpucc::compiler::{CompileError, CompileOptions, Compiler};
use gpucc::target::Family;

fn corpus(target: &str) -> Option<Vec<std::path::PathBuf>> {
    let dir = common::shared_path(&format!("corpus/nir/{target}"))?;
    Some(common::files_with_suffix(&dir, ".nir"))
}

/// Every dump of each family is recognised as that family's form (or, for a shader too
/// small to carry a marker, as neither), never as the other's.
#[test]
fn corpus_dumps_are_recognised_as_their_drivers_form() {
    for (target, family) in [
        ("ivb", Family::Intel),
        ("bdw", Family::Intel),
        ("gc2000", Family::Etnaviv),
        ("gc7000", Family::Etnaviv),
    ] {
        let Some(files) = corpus(target) else { return };
        let mut recognised = 0;
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let shader = gpucc::nir::parse(&text).unwrap();
            if let Some(fam) = gpucc::form::form(&shader) {
                assert_eq!(fam, family, "{}", f.display());
                recognised += 1;
            }
        }
        // Nearly all carry a marker (outputs are stored in every graphics shader).
        assert!(
            recognised * 100 >= files.len() * 95,
            "{target}: {recognised} of {} recognised",
            files.len()
        );
    }
}

/// An etnaviv dump compiled for an Intel target and an Intel dump for a Vivante one fail
/// with a message naming the form and what the target expects, not a missing intrinsic.
#[test]
fn the_wrong_form_is_named_as_such() {
    for (from, to, needle) in [
        ("gc2000", "ivb", "this is etnaviv-form NIR"),
        ("ivb", "gc2000", "this is Intel-form NIR"),
    ] {
        let Some(files) = corpus(from) else { return };
        let compiler = Compiler::new(to).unwrap();
        for f in files
            .iter()
            .filter(|f| f.to_string_lossy().ends_with(".fs.nir"))
            .take(40)
        {
            let shader = gpucc::nir::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
            match compiler.compile(&shader, &CompileOptions::default()) {
                Err(CompileError::Unsupported(m)) => {
                    assert!(m.starts_with(needle), "{}: {m}", f.display());
                    assert!(m.contains(&format!("target {to} expects")), "{m}");
                }
                other => panic!("{}: {other:?}", f.display()),
            }
        }
    }
}

/// nir_print's `// preds:` and `// succs:` comments are redundant with the structure: a dump
/// with them removed parses to the same shader.
#[test]
fn block_comments_are_optional() {
    for target in ["ivb", "gc2000"] {
        let Some(files) = corpus(target) else { return };
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let stripped: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("// succs:"))
                .map(|l| match l.find("// preds:") {
                    Some(at) => l[..at].trim_end(),
                    None => l,
                })
                .map(|l| format!("{l}\n"))
                .collect();
            let a = gpucc::nir::parse(&text).unwrap();
            let b = gpucc::nir::parse(&stripped).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert!(
                a == b,
                "{}: parses differently without comments",
                f.display()
            );
        }
    }
}
