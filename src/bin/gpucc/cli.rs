//! What every verb shares: how failures are reported and how inputs are read.

use std::path::Path;
use std::process::ExitCode;

/// Why a verb failed; decides the exit status.
pub enum Failure {
    /// An input was wrong; the diagnostics were already printed (exit 1).
    Input,
}

impl Failure {
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Input => ExitCode::from(1),
        }
    }
}

pub type Outcome = Result<(), Failure>;

/// Reads a whole input file as UTF-8, printing `file: message` on failure.
pub fn read_text(path: &Path) -> Result<String, Failure> {
    std::fs::read(path)
        .map_err(|e| {
            eprintln!("{}: {e}", path.display());
            Failure::Input
        })
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|e| {
                eprintln!(
                    "{}: invalid UTF-8 at byte {}",
                    path.display(),
                    e.utf8_error().valid_up_to()
                );
                Failure::Input
            })
        })
}
