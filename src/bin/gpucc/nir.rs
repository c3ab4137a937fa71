//! `gpucc nir ...`: NIR text tools.

use std::path::PathBuf;

use clap::Subcommand;

use crate::cli::{read_text, Failure, Outcome};

#[derive(Subcommand)]
pub enum NirVerb {
    /// Parse and validate each file; print one diagnostic per bad file
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Parse, validate and print a shader in nir_print syntax
    Print { file: PathBuf },
    /// Run a shader on the reference interpreter and print its outputs
    Run {
        file: PathBuf,
        /// Number of invocations (fragment shaders run in 2x2 quads)
        #[arg(long, default_value_t = 4)]
        invocations: usize,
        /// Raw bytes of the uniforms (push constants, also bound as UBO 0)
        #[arg(long)]
        uniforms: Option<PathBuf>,
    },
}

pub fn run(verb: NirVerb) -> Outcome {
    match verb {
        NirVerb::Check { files } => {
            let mut bad = 0;
            for f in &files {
                if load(f).is_err() {
                    bad += 1;
                }
            }
            if bad > 0 {
                eprintln!("{bad} of {} files failed", files.len());
                return Err(Failure::Input);
            }
            Ok(())
        }
        NirVerb::Print { file } => {
            let shader = load(&file)?;
            crate::cli::out(gpucc::nir::print(&shader));
            Ok(())
        }
        NirVerb::Run {
            file,
            invocations,
            uniforms,
        } => {
            load(&file)?;
            let uniforms = match uniforms {
                Some(path) => crate::cli::read_bytes(&path)?,
                None => Vec::new(),
            };
            let text = read_text(&file)?;
            let out = gpucc::nir::interp::run_cli(&text, invocations, &uniforms)
                .map_err(|e| crate::cli::input_error(&file, format_args!(" {e}")))?;
            crate::cli::out(&out);
            Ok(())
        }
    }
}

/// Reads, parses and validates one file, printing `file:line:col: message` on failure.
pub fn load(path: &std::path::Path) -> Result<gpucc::nir::Shader, Failure> {
    let text = read_text(path)?;
    let shader = gpucc::nir::parse(&text).map_err(|e| {
        eprintln!("{}:{}", path.display(), e);
        Failure::Input
    })?;
    gpucc::nir::validate(&shader).map_err(|e| {
        eprintln!("{}: invalid shader: {e}", path.display());
        Failure::Input
    })?;
    Ok(shader)
}
