//! The etnaviv backend over the shared corpus: compile rate, agreement with the reference
//! interpreter on the simulator, and temporaries against Mesa 23.3's; every count held exactly
//! in tests/expectations/corpus.txt.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use gpucc::etnaviv::compiler::{verify, CompileError, Context, Options, VerifyOutcome};
use gpucc::etnaviv::specs::Specs;

/// Input sets per shader in the differential check.
const INPUT_SETS: usize = 2;

struct Report {
    total: usize,
    /// Files the NIR parser rejects (the parser's own tests cover why).
    parse_errors: usize,
    verified: usize,
    compiled: usize,
    unsupported: BTreeMap<String, usize>,
    other_errors: Vec<String>,
    /// Hardware limits exceeded.
    limits: Vec<String>,
    mismatches: Vec<String>,
    verify_skipped: BTreeMap<String, usize>,
    /// shader name → (instructions, temps)
    stats: BTreeMap<String, (u32, u32)>,
}

fn feature(msg: &str) -> String {
    msg.split(" (block").next().unwrap_or(msg).to_string()
}

fn run(platform_dir: &Path, target: &str) -> Report {
    let specs = Specs::from_name(target).expect("known target");
    let ctx = Context::new(specs);
    let mut files: Vec<_> = std::fs::read_dir(platform_dir)
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "nir"))
        .collect();
    files.sort();
    let mut r = Report {
        total: 0,
        parse_errors: 0,
        verified: 0,
        compiled: 0,
        unsupported: BTreeMap::new(),
        other_errors: Vec::new(),
        limits: Vec::new(),
        mismatches: Vec::new(),
        verify_skipped: BTreeMap::new(),
        stats: BTreeMap::new(),
    };
    for path in files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .trim_end_matches(".nir")
            .to_string();
        let text = std::fs::read_to_string(&path).expect("readable corpus file");
        let shader = match gpucc::nir::parse::parse(&text) {
            Ok(s) => s,
            Err(_) => {
                r.parse_errors += 1;
                continue;
            }
        };
        r.total += 1;
        // Validating: the IR validators and the value check of the emitted code run too.
        match ctx.compile(&shader, &Options::default().validating()) {
            Ok(obj) => {
                r.compiled += 1;
                let s = obj.stats();
                r.stats.insert(name.clone(), (s.instructions, s.temps));
            }
            Err(CompileError::Unsupported(m)) => {
                *r.unsupported.entry(feature(&m)).or_default() += 1;
                continue;
            }
            Err(CompileError::Limit(m)) => {
                // Reported with Mesa's outcome (a .nir without a .asm is one Mesa could not
                // compile either).
                let asm = platform_dir.join(format!(
                    "../../mesa-asm/{}/{name}.asm",
                    platform_dir
                        .file_name()
                        .and_then(|n| n.to_str())
                        .unwrap_or("")
                ));
                let mesa = if asm.exists() {
                    "Mesa compiled it"
                } else {
                    "Mesa failed too"
                };
                r.limits.push(format!("{name}: {m} ({mesa})"));
                continue;
            }
            Err(e) => {
                r.other_errors.push(format!("{name}: {e}"));
                continue;
            }
        }
        match verify(&ctx, &shader, INPUT_SETS) {
            VerifyOutcome::Pass => r.verified += 1,
            VerifyOutcome::Unsupported(m) => {
                *r.verify_skipped.entry(feature(&m)).or_default() += 1;
            }
            VerifyOutcome::Fail {
                invocation,
                output,
                expected,
                got,
            } => r.mismatches.push(format!(
                "{name}: invocation {invocation} {output}: expected {expected}, got {got}"
            )),
            VerifyOutcome::Error(e) => r.mismatches.push(format!("{name}: {e}")),
        }
    }
    r
}

fn print(target: &str, r: &Report) {
    eprintln!(
        "{target}: compiled {}/{} ({:.1}%)",
        r.compiled,
        r.total,
        100.0 * r.compiled as f64 / r.total.max(1) as f64
    );
    for (f, n) in &r.unsupported {
        eprintln!("  UNSUPPORTED {n:4}  {f}");
    }
    for e in &r.limits {
        eprintln!("  LIMIT {e}");
    }
    for e in &r.other_errors {
        eprintln!("  ERROR {e}");
    }
    for (f, n) in &r.verify_skipped {
        eprintln!("  not verified {n:4}  {f}");
    }
    for m in &r.mismatches {
        eprintln!("  MISMATCH {m}");
    }
}

/// Mesa's (instructions, temps) per shader from `mesa-stats/PLATFORM.csv`.
fn mesa_stats(csv: &Path) -> BTreeMap<String, (u32, u32)> {
    let text = std::fs::read_to_string(csv).unwrap_or_default();
    let mut out = BTreeMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 9 {
            continue;
        }
        if let (Ok(i), Ok(t)) = (f[3].parse::<u32>(), f[8].parse::<u32>()) {
            out.insert(f[0].to_string(), (i, t));
        }
    }
    out
}

fn check(platform: &str, target: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/nir/{platform}")) else {
        return;
    };
    let r = run(&dir, target);
    print(target, &r);
    let mut figs = common::expect::Figures::new(&format!("{target}.etnabe.corpus"));
    figs.count("files", r.total);
    figs.count("parse_errors", r.parse_errors);
    figs.count("compiled", r.compiled);
    figs.count("unsupported", r.unsupported.values().sum());
    figs.count("limits", r.limits.len());
    figs.count("errors", r.other_errors.len());
    figs.count("verified", r.verified);
    figs.count("verify_failed", r.mismatches.len());
    figs.count("verify_unsupported", r.verify_skipped.values().sum());
    for (f, n) in &r.unsupported {
        figs.note(format!("UNSUPPORTED {n:4}  {f}"));
    }
    for e in r.limits.iter().chain(&r.other_errors).chain(&r.mismatches) {
        figs.note(e.clone());
    }
    figs.check();
    assert!(
        r.other_errors.is_empty(),
        "{target}: non-UNSUPPORTED errors: {:#?}",
        r.other_errors
    );
    // A program may exceed the core's instruction memory only where Mesa's could not fit it
    // either (the acceptance): a shader Mesa fitted, gpucc must fit too.
    let fitted_by_mesa: Vec<&String> = r
        .limits
        .iter()
        .filter(|l| !l.ends_with("(Mesa failed too)"))
        .collect();
    assert!(
        fitted_by_mesa.is_empty(),
        "{target}: over a limit that Mesa's program fits: {fitted_by_mesa:#?}"
    );
    assert!(
        r.mismatches.is_empty(),
        "{target}: {} shaders disagree with the interpreter: {:#?}",
        r.mismatches.len(),
        r.mismatches
    );
    if target != platform {
        return;
    }
    let Some(csv) = common::shared_path(&format!("corpus/mesa-stats/{platform}.csv")) else {
        return;
    };
    let mesa = mesa_stats(&csv);
    let (mut ours_t, mut mesa_t, mut ours_i, mut mesa_i, mut n) = (0u64, 0u64, 0u64, 0u64, 0);
    let mut worst: Vec<(i64, String)> = Vec::new();
    for (name, (i, t)) in &r.stats {
        if let Some((mi, mt)) = mesa.get(name) {
            worst.push((
                i64::from(*t) - i64::from(*mt),
                format!("{name}: temps {t} vs {mt}, instructions {i} vs {mi}"),
            ));
            ours_t += u64::from(*t);
            mesa_t += u64::from(*mt);
            ours_i += u64::from(*i);
            mesa_i += u64::from(*mi);
            n += 1;
        }
    }
    worst.sort();
    for (_, w) in worst.iter().rev().take(8) {
        eprintln!("  most temps over Mesa: {w}");
    }
    for (_, w) in worst.iter().take(3) {
        eprintln!("  most temps under Mesa: {w}");
    }
    eprintln!(
        "{target}: {n} shaders both compiled: temps gpucc {ours_t} vs Mesa {mesa_t}; \
         instructions gpucc {ours_i} vs Mesa {mesa_i}"
    );
    let mut figs = common::expect::Figures::new(&format!("{target}.etnabe.vs_mesa"));
    figs.count("shaders", n);
    figs.count("temps", ours_t as usize);
    figs.count("mesa_temps", mesa_t as usize);
    figs.count("instructions", ours_i as usize);
    figs.count("mesa_instructions", mesa_i as usize);
    figs.ratio("temps_vs_mesa", ours_t as f64 / mesa_t.max(1) as f64);
    figs.ratio("instructions_vs_mesa", ours_i as f64 / mesa_i.max(1) as f64);
    for (_, w) in worst.iter().rev().take(8) {
        figs.note(format!("most temps over Mesa: {w}"));
    }
    figs.check();
    assert!(
        ours_t <= mesa_t,
        "{target}: Σ temps {ours_t} exceeds Mesa's {mesa_t}"
    );
}

#[test]
fn gc2000_corpus() {
    check("gc2000", "gc2000");
}

#[test]
fn gc7000_corpus() {
    check("gc7000", "gc7000");
}

/// GC3000 (HALTI3, integers, one-const limit) has no corpus of its own: the GC7000 shaders,
/// which assume integers, are re-targeted to it.
#[test]
fn gc3000_retargeted_corpus() {
    check("gc7000", "gc3000");
}
