//! How an interpreter run fails: the interpreter's one error type.

use crate::nir::ir::{BlockId, InstrId};
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
