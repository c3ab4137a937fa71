//! The scalar backend over Mesa's fragment-shader corpus: every ivb and bdw `*.fs.nir`, and
//! the ivb files re-targeted to hsw, compiled at SIMD8 and SIMD16.
//!
//! What must hold for every file: the compile either succeeds (with the register allocator's
//! checker and the EU validator run inside the compile) or fails with `Unsupported` naming the
//! feature — never an internal or input error; and compiling twice gives identical bytes.
//! The tally of unsupported features and the compile rate are printed (`--nocapture`).

mod common;

use std::collections::BTreeMap;

use gpucc::intel::fs::{CompileError, Context, Options};
use gpucc::intel::DevInfo;

fn run_platform(corpus: &str, target: &str) -> (usize, usize) {
    let Some(dir) = common::shared_path(&format!("corpus/nir/{corpus}")) else {
        return (0, 0);
    };
    let dev = DevInfo::from_name(target).unwrap();
    let ctx = Context::new(dev);
    let opts = Options::widths(&[8, 16]);
    let files = common::files_with_suffix(&dir, ".fs.nir");
    let mut ok = 0;
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let shader = gpucc::nir::parse(&text).unwrap();
        match ctx.compile(&shader, &opts) {
            Ok(k) => {
                ok += 1;
                assert!(k.variant(8).is_some(), "{}: no SIMD8 variant", f.display());
                let again = ctx.compile(&shader, &opts).unwrap();
                assert_eq!(k.code, again.code, "{}: nondeterministic code", f.display());
            }
            Err(CompileError::Unsupported(what)) => {
                // Group by the feature, not the details after it.
                *tally.entry(what).or_default() += 1;
            }
            Err(e) => bad.push(format!("{}: {e}", f.display())),
        }
    }
    println!(
        "{target} (corpus {corpus}): {ok}/{} compiled ({:.1}%)",
        files.len(),
        100.0 * ok as f64 / files.len().max(1) as f64
    );
    let mut t: Vec<_> = tally.into_iter().collect();
    t.sort_by(|a, b| b.1.cmp(&a.1));
    for (what, n) in t {
        println!("  {n:4} unsupported: {what}");
    }
    assert!(
        bad.is_empty(),
        "{} files failed with errors other than Unsupported, first: {}",
        bad.len(),
        bad.first().map(String::as_str).unwrap_or("")
    );
    (ok, files.len())
}

#[test]
fn ivb_corpus_compiles_or_names_the_feature() {
    run_platform("ivb", "ivb");
}

#[test]
fn hsw_retargeted_corpus_compiles_or_names_the_feature() {
    run_platform("ivb", "hsw");
}

#[test]
fn bdw_corpus_compiles_or_names_the_feature() {
    run_platform("bdw", "bdw");
}
