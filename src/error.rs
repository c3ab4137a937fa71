//! Why a compile failed: the one error type of every backend and of the checks before them.
//!
//! It sits at the bottom of the crate's layering (it imports only the pass runner's
//! validation error), so a backend can report a failure without depending on the compile
//! entry that dispatches to it.

use std::fmt;

/// Why a compile failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// The shader uses a feature the target or gpucc does not support; names it.
    Unsupported(String),
    /// The program exceeds a hardware limit; names it.
    Limit(String),
    /// The shader is malformed for this backend.
    Invalid(String),
    /// A gpucc bug caught by an internal check.
    Internal(String),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Unsupported(m) => write!(f, "unsupported: {m}"),
            CompileError::Limit(m) => write!(f, "limit exceeded: {m}"),
            CompileError::Invalid(m) => write!(f, "invalid shader: {m}"),
            CompileError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for CompileError {}

/// A validator's complaint between passes is a gpucc bug, whichever backend found it.
impl From<crate::pipeline::InvalidIr> for CompileError {
    fn from(e: crate::pipeline::InvalidIr) -> CompileError {
        CompileError::Internal(e.to_string())
    }
}
