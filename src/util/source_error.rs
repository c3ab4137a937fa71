//! The error every text reader reports: where in the input, and what was wrong.

use std::fmt;

/// A problem at a position of a text input (NIR, EU assembly, Vivante assembly). Prints as
/// `line:col: message`, so callers put the file name in front and get the compiler-style
/// `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What was expected or what is wrong.
    pub message: String,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for SourceError {}
