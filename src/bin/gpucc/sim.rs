//! `gpucc sim`: assemble a program and run it on the target's functional simulator.

use std::path::PathBuf;

use clap::Args;
use gpucc::target::Target;

use crate::cli::{input_error, read_text, target, Outcome};

#[derive(Args)]
pub struct SimArgs {
    /// Target GPU (see `gpucc targets`), or a Vivante preset with values changed
    /// (`gc2000:instruction_count=128,features4=0x8`)
    #[arg(long)]
    target: String,
    /// Assembly in Mesa's syntax
    file: PathBuf,
    /// Register assignment before the run, e.g. `t1=1,2,3,4` (Vivante) or `g2=1.0,2.0` (Intel);
    /// may be repeated
    #[arg(long = "set")]
    sets: Vec<String>,
    /// Registers to print after the run, e.g. `t0-t3` or `g10-g12`
    #[arg(long)]
    dump: Option<String>,
    /// Intel: SIMD width of the thread (8, 16 or 32)
    #[arg(long, default_value_t = 8)]
    simd: u32,
}

pub fn run(args: SimArgs) -> Outcome {
    let target = target(&args.target)?;
    let source = read_text(&args.file)?;
    let out = match target {
        Target::Etnaviv(specs) => {
            gpucc::etnaviv::tool::sim(specs, &source, &args.sets, args.dump.as_deref())
        }
        Target::Intel(devinfo) => {
            let dumps: Vec<String> = args.dump.iter().cloned().collect();
            gpucc::intel::sim::cli::run(devinfo, &source, args.simd, &args.sets, &dumps)
        }
    }
    .map_err(|e| input_error(&args.file, e))?;
    crate::cli::out(&out);
    Ok(())
}
