//! The outcome of checking a compiled shader against the reference interpreter, shared by both
//! backends and printed by `gpucc verify` in a format outside checks rely on.

use std::fmt;

/// What running a compiled shader on the simulator and the NIR on the interpreter showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyOutcome {
    /// Every output of every invocation agreed.
    Pass,
    /// The first mismatch.
    Fail {
        invocation: usize,
        output: String,
        expected: String,
        got: String,
    },
    /// The shader uses something the compiler (or the check) does not handle; names it.
    Unsupported(String),
    /// Compiling or running failed for another reason.
    Error(String),
}

impl VerifyOutcome {
    /// The `gpucc verify` line for `file`: `PASS file`, `FAIL file: ...` or
    /// `UNSUPPORTED file: feature`. An error counts as a failure.
    pub fn line(&self, file: &str) -> String {
        match self {
            VerifyOutcome::Pass => format!("PASS {file}"),
            VerifyOutcome::Fail {
                invocation,
                output,
                expected,
                got,
            } => format!(
                "FAIL {file}: first mismatch (invocation {invocation}, output {output}, \
                 expected {expected}, got {got})"
            ),
            VerifyOutcome::Unsupported(f) => format!("UNSUPPORTED {file}: {f}"),
            VerifyOutcome::Error(e) => format!("FAIL {file}: {e}"),
        }
    }
}

impl fmt::Display for VerifyOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line("shader"))
    }
}
