//! `gpucc nir run`: run a shader with generated inputs and print its outputs as text.

use super::env::{Environment, RunResult};
use super::value::to_f64;
use super::{run, InterpError};
use crate::nir::ir::Shader;
use std::fmt::{self, Write};

/// Why `run_cli` failed.
#[derive(Debug)]
pub enum CliError {
    Parse(crate::nir::ParseError),
    Run(InterpError),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Parse(e) => write!(f, "parse error: {e}"),
            CliError::Run(e) => write!(f, "run error: {e}"),
        }
    }
}

impl std::error::Error for CliError {}

/// Parses NIR text, runs it for `invocations` invocations with `uniforms` as the push-constant
/// bytes (also bound as UBO 0, where Intel's drivers put the default uniform block), generated
/// inputs and the default sampler, and formats the outputs (see [`format_result`]).
pub fn run_cli(text: &str, invocations: usize, uniforms: &[u8]) -> Result<String, CliError> {
    let shader = crate::nir::parse(text).map_err(CliError::Parse)?;
    let env = cli_environment(&shader, uniforms);
    let result = run(&shader, &env, invocations).map_err(CliError::Run)?;
    Ok(format_result(&result))
}

/// The most constant data `run_cli` builds: 16 MiB.
pub const CLI_CONSTANT_DATA_MAX: usize = 16 << 20;

/// The environment `run_cli` uses: the uniform bytes padded to at least 64 KiB of zeros (so
/// shaders reading uniforms the file does not give still run), as push constants and UBO 0,
/// and zeroed constant data of the size the shader declares, up to [`CLI_CONSTANT_DATA_MAX`]
/// (the header is input: a fuzzed `constants: 4000000000` asked for 4 GB); reads past it are
/// out-of-bounds errors.
pub fn cli_environment(shader: &Shader, uniforms: &[u8]) -> Environment {
    let mut bytes = uniforms.to_vec();
    if bytes.len() < 65536 {
        bytes.resize(65536, 0);
    }
    Environment {
        uniforms: bytes.clone(),
        ubos: vec![bytes.clone(); 16],
        ssbos: vec![vec![0; 65536]; 4],
        shared: vec![0; 65536],
        constant_data: vec![
            0;
            (shader.info.constant_data_size as usize)
                .clamp(4096, CLI_CONSTANT_DATA_MAX)
        ],
        ..Environment::default()
    }
}

/// One line per written output component group:
/// `inv 0 FRAG_RESULT_COLOR[4] = (0.5, 0.25, 1, 1)` with floats printed for 32/64/16-bit
/// slots, plus a `(discarded)` line for discarded invocations.
pub fn format_result(r: &RunResult) -> String {
    let mut s = String::new();
    for (i, inv) in r.invocations.iter().enumerate() {
        if inv.discarded {
            let _ = writeln!(s, "inv {i} (discarded)");
            continue;
        }
        for (slot, out) in &inv.outputs {
            let comps: Vec<String> = out
                .comps
                .iter()
                .map(|c| match c {
                    Some(v) if out.bit_size >= 16 => {
                        format!("{}", to_f64(*v, out.bit_size))
                    }
                    Some(v) => format!("{v:#x}"),
                    None => "_".to_string(),
                })
                .collect();
            let last = out.comps.iter().rposition(|c| c.is_some()).unwrap_or(0);
            let _ = writeln!(
                s,
                "inv {i} {}[{slot}] = ({})",
                out.name,
                comps[..=last].join(", ")
            );
        }
    }
    s
}
