//! The `gpucc` command line: `gpucc <verb> [--target NAME] ...`.
//!
//! Exit status: 0 success, 1 an input was wrong (parse error, failed check, unsupported
//! feature), 2 the command line itself was wrong. Errors go to stderr as `file:line:col: message`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

// Verb implementations live beside this file, in src/bin/gpucc/.
#[path = "gpucc/bench.rs"]
mod bench;
#[path = "gpucc/cli.rs"]
mod cli;
#[path = "gpucc/compile.rs"]
mod compile;
#[path = "gpucc/estimate.rs"]
mod estimate;
#[path = "gpucc/fuzz/mod.rs"]
mod fuzz;
#[path = "gpucc/isa.rs"]
mod isa;
#[path = "gpucc/nir.rs"]
mod nir;
#[path = "gpucc/piglit.rs"]
mod piglit;
#[path = "gpucc/sim.rs"]
mod sim;

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
    /// Compile a NIR shader for a target
    Compile(compile::CompileArgs),
    /// Compile shaders, run them on the simulator and the reference interpreter, compare
    Verify(compile::VerifyArgs),
    /// Compile a directory of shaders and write Mesa-comparable statistics as CSV
    Report(compile::ReportArgs),
    /// Assemble Mesa-syntax assembly into machine code
    Asm(isa::AsmArgs),
    /// Estimate the cycles of Intel assembly, instruction by instruction
    Estimate(estimate::EstimateArgs),
    /// Disassemble machine code into Mesa-syntax assembly
    Disasm(isa::DisasmArgs),
    /// Assemble and run a program on the target's functional simulator
    Sim(sim::SimArgs),
    /// Run piglit shader tests on the target's simulator
    Piglit(piglit::PiglitArgs),
    /// List the DRM render nodes and the target gpucc would compile for on each
    Device,
    /// Run the built-in benchmarks: register allocation, or compile throughput
    Bench(bench::BenchArgs),
    /// Fuzz the library in process: mutated inputs through a target, panics and hangs reported
    Fuzz(fuzz::FuzzArgs),
    /// Generate random valid NIR shaders and check each compiled one against the interpreter
    FuzzDiff(fuzz::FuzzDiffArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // GPUCC_DEBUG is read now, whatever the verb, so `GPUCC_DEBUG=help` and the warnings for
    // unknown flags appear even when nothing gets compiled.
    let _ = gpucc::debug::flags();
    let result = match cli.verb {
        Verb::Nir(v) => nir::run(v),
        Verb::Compile(a) => compile::compile(a),
        Verb::Verify(a) => compile::verify(a),
        Verb::Report(a) => compile::report(a),
        Verb::Asm(a) => isa::asm(a),
        Verb::Estimate(a) => estimate::estimate(a),
        Verb::Disasm(a) => isa::disasm(a),
        Verb::Sim(a) => sim::run(a),
        Verb::Piglit(a) => piglit::run(a),
        Verb::Bench(a) => bench::run(a),
        Verb::Fuzz(a) => fuzz::fuzz(a),
        Verb::FuzzDiff(a) => fuzz::fuzz_diff(a),
        Verb::Device => {
            cli::out(gpucc::drm::format_nodes(&gpucc::drm::list_render_nodes()));
            Ok(())
        }
        Verb::Targets => {
            for t in gpucc::target::all_targets() {
                cli::out(format_args!(
                    "{:8} {:20} {}\n",
                    t.name(),
                    t.stage_list(),
                    t.description()
                ));
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
