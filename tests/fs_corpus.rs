//! The scalar backend over Mesa's fragment-shader corpus: every ivb, bdw and skl `*.fs.nir`,
//! and the ivb files re-targeted to hsw, compiled at SIMD8 and SIMD16 (and verified at SIMD8,
//! SIMD16 and SIMD32).
//!
//! What must hold for every file: the compile either succeeds (with the register allocator's
//! checker and the EU validator run inside the compile) or fails with `Unsupported` naming the
//! feature — never an internal or input error; and compiling twice gives identical bytes.
//! The counts (compiled, unsupported; verified, failed, unsupported per width) are held exactly
//! in tests/expectations/corpus.txt; the tally of unsupported features is printed
//! (`--nocapture`) and shown with a changed figure.

mod common;

use std::collections::BTreeMap;

use gpucc::intel::fs::CompileError;

use gpucc::intel::backend::{Context, Options};
use gpucc::intel::DevInfo;

fn run_platform(corpus: &str, target: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/nir/{corpus}")) else {
        return;
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
    let mut figs = common::expect::Figures::new(&format!("{target}.fs.compile"));
    figs.count("files", files.len());
    figs.count("compiled", ok);
    figs.count("unsupported", tally.values().sum());
    figs.count("errors", bad.len());
    let mut t: Vec<_> = tally.into_iter().collect();
    t.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (what, n) in t {
        println!("  {n:4} unsupported: {what}");
        figs.note(format!("{n:4} unsupported: {what}"));
    }
    for b in bad.iter().take(20) {
        figs.note(format!("error: {b}"));
    }
    figs.check();
    assert!(
        bad.is_empty(),
        "{} files failed with errors other than Unsupported, first: {}",
        bad.len(),
        bad.first().map(String::as_str).unwrap_or("")
    );
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

fn verify_platform(corpus: &str, target: &str, simd: u32) {
    use gpucc::intel::backend::{verify, VerifyOutcome};
    let Some(dir) = common::shared_path(&format!("corpus/nir/{corpus}")) else {
        return;
    };
    let dev = DevInfo::from_name(target).unwrap();
    let ctx = Context::new(dev);
    let files = common::files_with_suffix(&dir, ".fs.nir");
    let (mut pass, mut unsup) = (0, 0);
    let mut fails = Vec::new();
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let shader = gpucc::nir::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
        match verify(&ctx, &shader, simd) {
            VerifyOutcome::Pass => pass += 1,
            VerifyOutcome::Unsupported(w) => {
                unsup += 1;
                *tally.entry(w.chars().take(90).collect()).or_default() += 1;
            }
            VerifyOutcome::Fail {
                invocation,
                output,
                expected,
                got,
            } => fails.push(format!(
                "{}: invocation {invocation} {output}: expected {expected}, got {got}",
                f.file_name().unwrap().to_string_lossy()
            )),
            VerifyOutcome::Error(e) => {
                fails.push(format!("{}: {e}", f.file_name().unwrap().to_string_lossy()))
            }
        }
    }
    println!(
        "verify {target} SIMD{simd}: {pass} passed, {} failed, {unsup} unsupported",
        fails.len()
    );
    let mut figs = common::expect::Figures::new(&format!("{target}.fs.verify_simd{simd}"));
    figs.count("passed", pass);
    figs.count("failed", fails.len());
    figs.count("unsupported", unsup);
    for (w, n) in &tally {
        println!("  {n:4} unsupported: {w}");
    }
    for f in fails.iter().take(40) {
        println!("  FAIL {f}");
        figs.note(format!("FAIL {f}"));
    }
    figs.check();
    assert!(fails.is_empty(), "{} files mismatched", fails.len());
}

#[test]
fn ivb_simd8_matches_the_interpreter() {
    verify_platform("ivb", "ivb", 8);
}

#[test]
fn ivb_simd16_matches_the_interpreter() {
    verify_platform("ivb", "ivb", 16);
}

#[test]
fn hsw_simd8_matches_the_interpreter() {
    verify_platform("ivb", "hsw", 8);
}

#[test]
fn hsw_simd16_matches_the_interpreter() {
    verify_platform("ivb", "hsw", 16);
}

#[test]
fn bdw_simd8_matches_the_interpreter() {
    verify_platform("bdw", "bdw", 8);
}

#[test]
fn bdw_simd16_matches_the_interpreter() {
    verify_platform("bdw", "bdw", 16);
}

/// SIMD32 (every shader SIMD32 can be built for, kept by the throughput rule or not: the
/// check compiles that width alone): two SIMD16 halves, split messages and the two-run
/// payload against the interpreter's 32 invocations.
#[test]
fn ivb_simd32_matches_the_interpreter() {
    verify_platform("ivb", "ivb", 32);
}

#[test]
fn hsw_simd32_matches_the_interpreter() {
    verify_platform("ivb", "hsw", 32);
}

#[test]
fn bdw_simd32_matches_the_interpreter() {
    verify_platform("bdw", "bdw", 32);
}

/// The bdw shaders that read constant data through the relocated constant-data address
/// (`load_reloc_const_intel`, `u2u64`, A64 `load_global_constant`): every one compiles with
/// both widths, as Mesa does, and matches the interpreter at SIMD8 and SIMD16 on the
/// synthetic constant data the checks place at the relocated address.
#[test]
fn bdw_constant_data_shaders_compile_at_both_widths_and_verify() {
    use gpucc::intel::backend::{verify_kernel, VerifyOutcome};
    let Some(dir) = common::shared_path("corpus/nir/bdw") else {
        return;
    };
    let ctx = Context::new(DevInfo::from_name("bdw").unwrap());
    let mut verified = 0;
    for f in common::files_with_suffix(&dir, ".fs.nir") {
        let text = std::fs::read_to_string(&f).unwrap();
        if !text.contains("@load_reloc_const_intel") {
            continue;
        }
        let shader = gpucc::nir::parse(&text).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let k = ctx
            .compile(&shader, &Options::widths(&[8, 16]))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!k.relocs.is_empty() && k.constant_data_size > 0, "{name}");
        for simd in [8, 16] {
            assert!(k.variant(simd).is_some(), "{name}: no SIMD{simd}");
            assert_eq!(
                verify_kernel(&ctx, &shader, &k, simd),
                VerifyOutcome::Pass,
                "{name} SIMD{simd}"
            );
            verified += 1;
        }
    }
    println!("bdw constant-data shaders: {verified} programs verified");
    // 7 shaders, SIMD8 and SIMD16.
    let mut figs = common::expect::Figures::new("bdw.fs.constant_data");
    figs.count("programs_verified", verified);
    figs.check();
}

#[test]
fn skl_corpus_compiles_or_names_the_feature() {
    run_platform("skl", "skl");
}

#[test]
fn skl_simd8_matches_the_interpreter() {
    verify_platform("skl", "skl", 8);
}

#[test]
fn skl_simd16_matches_the_interpreter() {
    verify_platform("skl", "skl", 16);
}

#[test]
fn skl_simd32_matches_the_interpreter() {
    verify_platform("skl", "skl", 32);
}

/// Mesa's (instructions, sends, cycles) per (shader, SIMD width) for fragment shaders, from
/// mesa-stats/PLATFORM.csv.
fn mesa_fs_stats(platform: &str) -> Option<BTreeMap<(String, u32), [u64; 3]>> {
    let rows = common::mesa_stats(platform)?;
    Some(
        rows.into_iter()
            .filter(|r| r.stage == "fs" && r.simd != 0)
            .map(|r| ((r.shader, r.simd), [r.instructions, r.sends, r.cycles]))
            .collect(),
    )
}

/// Code quality on Gen9 against Mesa's own statistics, over the (shader, width) pairs both
/// compiled: total instructions, sends and estimated cycles (Mesa's model, whose Gen8
/// figures Gen9 shares), and the same for the shaders that read a UBO
/// block at a run-time uniform offset or a constant-data block (`*_uniform_block_intel`
/// with a non-constant offset or address), where brw sends one block message per load.
/// The figures are held in tests/expectations/corpus.txt; on the block-load shaders the
/// sends must not exceed Mesa's (one message per load, not one per four components).
#[test]
fn skl_instructions_and_sends_against_mesa() {
    let Some(dir) = common::shared_path("corpus/nir/skl") else {
        return;
    };
    let Some(mesa) = mesa_fs_stats("skl") else {
        return;
    };
    let ctx = Context::new(DevInfo::from_name("skl").unwrap());
    let opts = Options::widths(&[8, 16]);
    // [all, block-load shaders] x (programs, Mesa instructions, ours, Mesa sends, ours,
    // Mesa cycles, ours).
    let mut t = [[0u64; 7]; 2];
    for f in common::files_with_suffix(&dir, ".fs.nir") {
        let text = std::fs::read_to_string(&f).unwrap();
        let shader = gpucc::nir::parse(&text).unwrap();
        let Ok(k) = ctx.compile(&shader, &opts) else {
            continue;
        };
        let block = text.lines().any(|l| {
            l.contains("@load_global_constant_uniform_block_intel") || dynamic_block_offset(l)
        });
        let name = f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".nir")
            .to_string();
        for w in [8, 16] {
            let (Some(v), Some(&[mi, ms, mc])) = (k.variant(w), mesa.get(&(name.clone(), w)))
            else {
                continue;
            };
            for (i, row) in t.iter_mut().enumerate() {
                if i == 1 && !block {
                    continue;
                }
                row[0] += 1;
                row[1] += mi;
                row[2] += v.stats.instructions as u64;
                row[3] += ms;
                row[4] += v.stats.sends as u64;
                row[5] += mc;
                row[6] += v.stats.cycles as u64;
            }
        }
    }
    for (i, what) in ["all", "block_loads"].into_iter().enumerate() {
        let [n, mi, oi, ms, os, mc, oc] = t[i];
        println!(
            "skl {what}: {n} programs; instructions Mesa {mi}, gpucc {oi} ({:.3}x); sends \
             Mesa {ms}, gpucc {os} ({:.3}x); cycles Mesa {mc}, gpucc {oc} ({:.3}x)",
            oi as f64 / mi.max(1) as f64,
            os as f64 / ms.max(1) as f64,
            oc as f64 / mc.max(1) as f64
        );
        let mut figs = common::expect::Figures::new(&format!("skl.fs.vs_mesa_{what}"));
        figs.count("programs", n as usize);
        figs.count("mesa_instructions", mi as usize);
        figs.count("instructions", oi as usize);
        figs.ratio("instructions_vs_mesa", oi as f64 / mi.max(1) as f64);
        figs.count("mesa_sends", ms as usize);
        figs.count("sends", os as usize);
        figs.ratio("sends_vs_mesa", os as f64 / ms.max(1) as f64);
        figs.count("mesa_cycles", mc as usize);
        figs.count("cycles", oc as usize);
        figs.ratio("cycles_vs_mesa", oc as f64 / mc.max(1) as f64);
        figs.check();
    }
    assert!(t[1][0] > 0, "no block-load shader compiled");
    assert!(
        t[1][4] <= t[1][3],
        "block-load shaders: {} sends, Mesa {}",
        t[1][4],
        t[1][3]
    );
}

/// Whether a `load_ubo_uniform_block_intel` line's offset (its second source) is not a
/// constant: nir_print shows a constant source with its value, `%n (0x..)`.
fn dynamic_block_offset(line: &str) -> bool {
    let Some(args) = line
        .split("@load_ubo_uniform_block_intel (")
        .nth(1)
        .and_then(|r| r.split(") (").next())
    else {
        return false;
    };
    args.split(", ").nth(1).is_some_and(|o| !o.contains("(0x"))
}
