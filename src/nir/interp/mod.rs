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
mod error;
mod exec;
pub mod filtering;
pub mod gs;
pub mod math_error;
mod output;
pub mod sampler;
pub mod subgroup;
pub mod tcs;
pub mod tess;
pub mod value;

#[cfg(feature = "rig")]
pub use cli::{format_result, run_cli, CliError};
pub use env::{DrawParameters, Environment, InvocationResult, OutputSlot, RunResult};
pub use error::InterpError;
pub use exec::{is_division, run};
pub use gs::{EmittedVertex, GeometryLane, GeometryOutput};
pub use math_error::{is_inexact, ErrorDirection, MathError};
pub use sampler::{DefaultSampler, Sampler, TexRequest};
pub use tess::TessDomain;
