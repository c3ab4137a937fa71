//! `gpucc bench`: the built-in benchmarks.
//!
//! `bench compile` measures compile throughput the way a driver sees it: NIR text in, every
//! SIMD width compiled, program out. The files are read into memory first so that the disk
//! is not measured; parsing is part of the timed work. Each configuration runs several times
//! and prints the minimum, median and maximum, since a shared machine is noisy.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::Args;
use gpucc::compiler::{CompileOptions, Compiler};

use crate::cli::{out, read_text, target, Failure, Outcome};

#[derive(Args)]
pub struct BenchArgs {
    /// What to measure: `ra` (register allocator) or `compile` (NIR to machine code)
    #[arg(value_parser = ["ra", "compile"])]
    what: String,
    /// compile: target GPU (see `gpucc targets`)
    #[arg(long, required_if_eq("what", "compile"))]
    target: Option<String>,
    /// compile: directory of .nir files (searched recursively), or one .nir file
    #[arg(required_if_eq("what", "compile"))]
    input: Option<PathBuf>,
    /// compile: threads for the parallel runs (default: all available cores)
    #[arg(long)]
    threads: Option<usize>,
    /// compile: runs per configuration
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    runs: u32,
    /// compile: compile each file exactly once on one thread, untimed, and print how many
    /// compiled: the run an instruction-count profiler measures (scripts/compile-cost.sh)
    #[arg(long)]
    once: bool,
}

pub fn run(args: BenchArgs) -> Outcome {
    if args.what == "ra" {
        for r in gpucc::ra::bench::run_benchmarks() {
            out(format_args!("{r}\n"));
        }
        return Ok(());
    }
    let (Some(name), Some(input)) = (args.target.as_deref(), args.input.as_ref()) else {
        return Err(Failure::Usage(
            "bench compile needs --target and a directory".into(),
        ));
    };
    let compiler = Compiler::for_target(target(name)?);
    let files = if input.is_dir() {
        crate::compile::nir_files(input)
    } else {
        vec![input.clone()]
    };
    let mut texts = Vec::with_capacity(files.len());
    for f in &files {
        texts.push(read_text(f)?);
    }
    if files.is_empty() {
        eprintln!("{}: no .nir files", input.display());
        return Err(Failure::Input);
    }
    if args.once {
        let compiled = texts.iter().filter(|t| compile_one(&compiler, t)).count();
        out(format_args!(
            "{} files, {compiled} compile (each compiled once)\n",
            files.len()
        ));
        return Ok(());
    }
    let all = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    // A warm-up pass finds the shaders the target compiles; only those are timed, so that
    // files rejected early (other stages, unsupported features) do not inflate the rate.
    let compiles: Vec<bool> = texts.iter().map(|t| compile_one(&compiler, t)).collect();
    let texts: Vec<String> = texts
        .into_iter()
        .zip(&compiles)
        .filter_map(|(t, ok)| ok.then_some(t))
        .collect();
    out(format_args!(
        "{} files, {} compile; timing those ({} runs per configuration)\n",
        files.len(),
        texts.len(),
        args.runs
    ));
    if texts.is_empty() {
        return Ok(());
    }
    let mut configs = vec![1];
    if all > 1 {
        configs.push(all);
    }
    for threads in configs {
        let mut rates: Vec<f64> = (0..args.runs)
            .map(|_| {
                let start = Instant::now();
                compile_all(&compiler, &texts, threads);
                texts.len() as f64 / start.elapsed().as_secs_f64().max(1e-9)
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        out(format_args!(
            "{threads:>3} thread{}: {:.1} shaders/s median (min {:.1}, max {:.1})\n",
            if threads == 1 { " " } else { "s" },
            rates[rates.len() / 2],
            rates[0],
            rates[rates.len() - 1]
        ));
    }
    Ok(())
}

/// Parses, validates and compiles one shader; whether it compiled.
fn compile_one(compiler: &Compiler, text: &str) -> bool {
    gpucc::nir::parse(text).is_ok_and(|shader| {
        gpucc::nir::validate(&shader).is_ok()
            && compiler
                .compile(&shader, &CompileOptions::default())
                .is_ok()
    })
}

/// Compiles every text on `threads` threads, each taking the next unclaimed shader.
fn compile_all(compiler: &Compiler, texts: &[String], threads: usize) {
    let next = AtomicUsize::new(0);
    let work = || {
        while let Some(text) = texts.get(next.fetch_add(1, Ordering::Relaxed)) {
            compile_one(compiler, text);
        }
    };
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
}
