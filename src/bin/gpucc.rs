//! The `gpucc` command line: `gpucc <verb> [--target NAME] ...`.
//!
//! Exit status: 0 success, 1 an input was wrong (parse error, failed check, unsupported
//! feature), 2 the command line itself was wrong. Errors go to stderr as `file:line:col: message`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

// Verb implementations live beside this file, in src/bin/gpucc/.
#[path = "gpucc/cli.rs"]
mod cli;
#[path = "gpucc/nir.rs"]
mod nir;

#[derive(Parser)]
#[command(
    name = "gpucc",
    version,
    about = "Shader compiler backend for Intel Gen4-Gen9 and Vivante GPUs"
)]
struct Cli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Subcommand)]
enum Verb {
    /// Read, check, print and run NIR shaders (Mesa's nir_print syntax)
    #[command(subcommand)]
    Nir(nir::NirVerb),
    /// List the targets gpucc compiles for
    Targets,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.verb {
        Verb::Nir(v) => nir::run(v),
        Verb::Targets => {
            for t in gpucc::target::TARGETS {
                println!("{:8} {}", t.name, t.description);
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
