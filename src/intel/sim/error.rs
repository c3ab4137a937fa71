//! What a simulated run reports when it cannot go on: the simulator's one error type, which
//! every part of the thread model returns.

use std::fmt;

/// A run-time failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimError {
    /// What is wrong.
    pub message: String,
    /// Index of the instruction, when the error belongs to one.
    pub index: Option<usize>,
    /// Its byte offset.
    pub offset: Option<usize>,
}

impl SimError {
    /// An error without a location.
    pub fn new(message: impl Into<String>) -> SimError {
        SimError {
            message: message.into(),
            index: None,
            offset: None,
        }
    }

    /// An error at an instruction.
    pub fn at(message: impl Into<String>, index: usize, offset: usize) -> SimError {
        SimError {
            message: message.into(),
            index: Some(index),
            offset: Some(offset),
        }
    }

    /// Whether this is a feature outside the model rather than a fault of the program.
    pub fn is_unsupported(&self) -> bool {
        self.message.starts_with("unsupported")
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.index, self.offset) {
            (Some(i), Some(o)) => {
                write!(f, "instruction {i} (byte offset {o:#x}): {}", self.message)
            }
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for SimError {}
