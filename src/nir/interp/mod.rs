//! The reference interpreter: the semantics every backend is checked against.
//!
//! [`run`] executes a shader's entry point for N invocations in lockstep (see [`exec`]'s
//! documentation for why), reading everything external from an [`Environment`] and returning
//! each invocation's outputs. ALU semantics live in [`alu`], one definition per opcode, shared
//! with constant folding; texture reads go through the [`Sampler`] trait, with
//! [`DefaultSampler`] as a deterministic model. Errors (an unsupported op, an out-of-bounds
//! access, a run that exceeds the step limit) come back as [`InterpError`]s naming the
//! instruction; nothing the shader does makes the interpreter panic.

pub mod alu;
#[cfg(feature = "rig")]
mod cli;
pub mod env;
mod exec;
pub mod filtering;
pub mod math_error;
pub mod sampler;
pub mod value;

#[cfg(feature = "rig")]
pub use cli::{format_result, run_cli, CliError};
pub use env::{DrawParameters, Environment, InvocationResult, OutputSlot, RunResult};
pub use exec::is_division;
pub use math_error::{is_inexact, ErrorDirection, MathError};
pub use sampler::{DefaultSampler, Sampler, TexRequest};

use crate::nir::ir::{BlockId, InstrId, Shader};
use std::fmt;

/// A run-time failure, with the instruction it happened at when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterpError {
    pub message: String,
    pub block: Option<BlockId>,
    pub instr: Option<InstrId>,
    /// The shader's behaviour is undefined on these inputs (an access out of bounds without
    /// robust access, a conversion of a value that is no boolean), as opposed to something
    /// the interpreter cannot model: a checker skips such an input set.
    pub undefined: bool,
    /// The run was cut off at the step limit: on these inputs the shader does not end (a
    /// `do { } while (b)` with `b` true), or not within the limit. There is no output to
    /// compare, and a checker may skip the input set as it skips an undefined one.
    pub endless: bool,
}

impl InterpError {
    pub fn new(message: impl Into<String>) -> InterpError {
        InterpError {
            message: message.into(),
            block: None,
            instr: None,
            undefined: false,
            endless: false,
        }
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(b) = self.block {
            write!(f, "block b{}: ", b.0)?;
        }
        if let Some(i) = self.instr {
            write!(f, "instruction #{}: ", i.0)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for InterpError {}

/// Runs `shader` for `invocations` invocations (at least 1, at most 4096).
pub fn run(
    shader: &Shader,
    env: &Environment,
    invocations: usize,
) -> Result<RunResult, InterpError> {
    if invocations == 0 || invocations > 4096 {
        return Err(InterpError::new(format!(
            "invocation count {invocations} is outside 1..=4096"
        )));
    }
    barycentrics_are_handles(shader)?;
    exec::Machine::new(shader, env, invocations)?.run()
}

/// The interpreter's inputs come already interpolated, so a `load_barycentric_*` result is
/// only a handle for `load_interpolated_input`: a shader that computes with it (legal NIR:
/// the hardware gives the real barycentric coordinates) is refused rather than given
/// made-up values, which once read as miscompiles (shared/fuzz-repro verify/ivb-*, bdw-*).
fn barycentrics_are_handles(shader: &Shader) -> Result<(), InterpError> {
    use crate::nir::ir::InstrKind;
    use crate::nir::Intrinsic;
    let Some(imp) = shader.entry() else {
        return Ok(());
    };
    let is_bary = |i: Intrinsic| {
        matches!(
            i,
            Intrinsic::LoadBarycentricPixel
                | Intrinsic::LoadBarycentricCentroid
                | Intrinsic::LoadBarycentricSample
                | Intrinsic::LoadBarycentricAtOffset
                | Intrinsic::LoadBarycentricAtSample
        )
    };
    let handles: std::collections::HashSet<_> = imp
        .instrs
        .iter()
        .filter_map(|ins| match &ins.kind {
            InstrKind::Intrinsic(ii) if is_bary(ii.intrinsic) => ii.def,
            _ => None,
        })
        .collect();
    if handles.is_empty() {
        return Ok(());
    }
    for ins in &imp.instrs {
        let srcs = ins.kind.srcs();
        let allowed = match &ins.kind {
            InstrKind::Intrinsic(ii) if ii.intrinsic == Intrinsic::LoadInterpolatedInput => 1,
            _ => 0,
        };
        if let Some(id) = srcs.iter().skip(allowed).find(|s| handles.contains(s)) {
            return Err(InterpError::new(format!(
                "barycentrics %{} used as data (the interpreter models them only as \
                 load_interpolated_input's handle)",
                id.0
            )));
        }
    }
    Ok(())
}
