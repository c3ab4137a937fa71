//! `gpucc fuzz-diff`: random valid shaders, compiled and checked against the interpreter.
//!
//! Shader `i` of a run comes from its own generator seeded by `(seed, i)`, so `--only I`
//! regenerates exactly the shader a long run reported. Every shader must parse, validate and
//! compile; a verify mismatch is a miscompile (or a simulator/interpreter disagreement) and
//! fails the run; so do panics and internal errors. `Unsupported` outcomes are counted: the
//! generator is meant to produce only what the backends take, so they should stay at zero.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use gpucc::compiler::{BindingModel, CompileOptions, Compiler};
use gpucc::nir;
use gpucc::target::Target;
use gpucc::util::rng::Rng;
use gpucc::verify::VerifyOutcome;

use super::gen::{shader_text, Kind};
use crate::cli::{Failure, Outcome};

#[derive(Args)]
pub struct FuzzDiffArgs {
    /// Target GPU (see `gpucc targets`)
    #[arg(long)]
    target: String,
    /// Intel: fragment (`fs`) or compute (`cs`) shaders; etnaviv takes only `fs`
    #[arg(long, default_value = "fs", value_parser = ["fs", "cs"])]
    stage: String,
    /// Number of shaders
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// Seed of the generator
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Generate, print and check only shader number I of the run
    #[arg(long, value_name = "I")]
    only: Option<u64>,
    /// Write every failing shader here as <target>-<seed>-<i>.nir
    #[arg(long)]
    save: Option<PathBuf>,
    /// Intel binding model the shaders are compiled and checked under: `gpucc` or `mesa`
    /// (as `gpucc verify --binding`)
    /// `mesa:ranges=B/S/L,...` is Mesa's with the UBO ranges the driver chose itself (block,
    /// start, length in 32-byte registers; `mesa:ranges=` for none, as iris and crocus give
    /// compute shaders)
    #[arg(long, value_parser = crate::compile::parse_binding, default_value = "gpucc")]
    binding: BindingModel,
}

/// The generator's form for a target and stage.
pub fn kind_for(target: Target, stage: &str) -> Result<Kind, String> {
    match (target, stage) {
        (Target::Intel(_), "cs") => Ok(Kind::IntelCs),
        (Target::Intel(_), _) => Ok(Kind::IntelFs),
        (Target::Etnaviv(s), "fs") => Ok(Kind::Etna {
            ints: s.has_integers(),
        }),
        (Target::Etnaviv(_), _) => Err("etnaviv: only fragment shaders are generated".into()),
    }
}

/// Shader `i` of the run with `seed`, as the backend reads it.
pub fn generate(seed: u64, i: u64, kind: Kind) -> String {
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i);
    let regs = shader_text(&mut rng, kind);
    let to_ssa = match kind {
        Kind::Etna { .. } => true,
        _ => rng.bool(),
    };
    if !to_ssa {
        return regs;
    }
    match nir::parse(&regs) {
        Ok(mut s) => {
            nir::passes::regs_to_ssa(&mut s);
            nir::print(&s)
        }
        // Let the caller report the parse error on the text itself.
        Err(_) => regs,
    }
}

/// What checking one generated shader showed.
pub enum Check {
    Pass,
    Unsupported(String),
    Fail(String),
}

pub fn check(compiler: &Compiler, options: &CompileOptions, text: &str) -> Check {
    let run = catch_unwind(AssertUnwindSafe(|| {
        let shader = match nir::parse(text) {
            Ok(s) => s,
            Err(e) => return Check::Fail(format!("generated text does not parse: {e}")),
        };
        if let Err(e) = nir::validate(&shader) {
            return Check::Fail(format!("generated shader is invalid: {e}"));
        }
        match compiler.verify_options(&shader, options) {
            VerifyOutcome::Pass => Check::Pass,
            VerifyOutcome::Unsupported(w) => Check::Unsupported(w),
            other => Check::Fail(other.line("shader")),
        }
    }));
    run.unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Check::Fail(format!("panic: {msg}"))
    })
}

pub fn fuzz_diff(args: FuzzDiffArgs) -> Outcome {
    let target = crate::cli::target(&args.target)?;
    let kind = kind_for(target, &args.stage).map_err(Failure::Usage)?;
    let compiler = Compiler::for_target(target);
    let options = CompileOptions {
        binding: args.binding,
        ..Default::default()
    };
    let range = match args.only {
        Some(i) => i..i + 1,
        None => 0..args.count,
    };
    let start = Instant::now();
    let (mut pass, mut fail, mut unsupported) = (0u64, 0u64, 0u64);
    let mut reasons: std::collections::BTreeMap<String, u64> = Default::default();
    for i in range {
        let text = generate(args.seed, i, kind);
        if args.only.is_some() {
            crate::cli::out(&text);
        }
        match check(&compiler, &options, &text) {
            Check::Pass => pass += 1,
            Check::Unsupported(w) => {
                unsupported += 1;
                *reasons.entry(w).or_default() += 1;
            }
            Check::Fail(why) => {
                fail += 1;
                let saved = args.save.as_ref().map(|dir| {
                    let _ = std::fs::create_dir_all(dir);
                    let p = dir.join(format!("{}-{}-{i}.nir", args.target, args.seed));
                    let _ = std::fs::write(&p, &text);
                    p
                });
                if fail <= 20 {
                    eprintln!(
                        "shader {i} (--seed {} --only {i}): {why}{}",
                        args.seed,
                        saved
                            .map(|p| format!(" [{}]", p.display()))
                            .unwrap_or_default()
                    );
                }
            }
        }
    }
    for (w, n) in &reasons {
        eprintln!("unsupported x{n}: {w}");
    }
    crate::cli::out(format_args!(
        "{} {} seed {}: {pass} passed, {fail} failed, {unsupported} unsupported, {:.1} s\n",
        args.target,
        args.stage,
        args.seed,
        start.elapsed().as_secs_f64()
    ));
    if fail > 0 {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}
