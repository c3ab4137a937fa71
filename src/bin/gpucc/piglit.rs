//! `gpucc piglit`: run piglit shader tests on the target's simulator (or the interpreter).

use std::path::PathBuf;

use clap::Args;
use gpucc::piglit::{self, Mode};

use crate::cli::{target, Failure, Outcome};

#[derive(Args)]
pub struct PiglitArgs {
    /// Target GPU (see `gpucc targets`), or a Vivante preset with values changed
    /// (`gc2000:instruction_count=128,features4=0x8`)
    #[arg(long)]
    target: String,
    /// piglit .shader_test files
    #[arg(required = true)]
    tests: Vec<PathBuf>,
    /// Directory holding <test>.vs.nir / <test>.fs.nir (default: beside each test)
    #[arg(long)]
    nir_dir: Option<PathBuf>,
    /// Run the fragment stage on the NIR interpreter instead of the compiled program
    #[arg(long)]
    interp: bool,
}

pub fn run(args: PiglitArgs) -> Outcome {
    let target = target(&args.target)?;
    let mode = if args.interp {
        Mode::Interpreter
    } else {
        Mode::Simulator
    };
    let (text, counts) = piglit::run_cli(target.name(), &args.tests, args.nir_dir.as_deref(), mode);
    crate::cli::out(&text);
    if counts.failed > 0 {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}
