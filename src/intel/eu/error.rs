//! How encoding and decoding fail: the EU layer's one error type.

use std::fmt;

/// An encoding or decoding failure, with the instruction index and byte offset when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EuError {
    /// What is wrong.
    pub message: String,
    /// Index of the instruction in its program, when known.
    pub index: Option<usize>,
    /// Byte offset of the instruction in its program, when known.
    pub offset: Option<usize>,
}

impl EuError {
    /// An error with a message and no location yet.
    pub fn new(message: impl Into<String>) -> EuError {
        EuError {
            message: message.into(),
            index: None,
            offset: None,
        }
    }

    /// The same error at instruction `index`, `offset` bytes into its program.
    pub(super) fn at(mut self, index: usize, offset: usize) -> EuError {
        self.index = Some(index);
        self.offset = Some(offset);
        self
    }
}

impl fmt::Display for EuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.index, self.offset) {
            (Some(i), Some(o)) => {
                write!(f, "instruction {i} (byte offset {o:#x}): {}", self.message)
            }
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for EuError {}
