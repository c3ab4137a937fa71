//! What every verb shares: how failures are reported and how inputs are read.

use std::path::Path;
use std::process::ExitCode;

/// Why a verb failed; decides the exit status.
pub enum Failure {
    /// An input was wrong; the diagnostics were already printed (exit 1).
    Input,
    /// The command line was wrong (exit 2), with the message to print.
    Usage(String),
}

impl Failure {
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Input => ExitCode::from(1),
            Failure::Usage(msg) => {
                eprintln!("gpucc: {msg}");
                ExitCode::from(2)
            }
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

/// Resolves `--target NAME` (or a Vivante core description, `gc2000:instruction_count=128`);
/// an unknown name is a usage error listing the valid ones.
pub fn target(name: &str) -> Result<gpucc::target::Target, Failure> {
    gpucc::target::Target::parse(name).map_err(Failure::Usage)
}

/// Reads a whole input file as bytes, printing `file: message` on failure.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| {
        eprintln!("{}: {e}", path.display());
        Failure::Input
    })
}

/// Prints an error about an input file: `file:` followed by the message, which carries its own
/// `line:col:` prefix where it has one.
pub fn input_error(path: &Path, message: impl std::fmt::Display) -> Failure {
    eprintln!("{}:{message}", path.display());
    Failure::Input
}

/// Writes `bytes` to `out`, or fails with the reason.
pub fn write_output(out: &Path, bytes: &[u8]) -> Outcome {
    std::fs::write(out, bytes).map_err(|e| {
        eprintln!("{}: {e}", out.display());
        Failure::Input
    })
}

/// Writes to standard output. A closed pipe (`gpucc disasm ... | head`) ends the program quietly
/// with status 0, as command-line tools do, instead of the panic `print!` would raise.
pub fn out(text: impl std::fmt::Display) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = write!(stdout, "{text}").and_then(|()| stdout.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("gpucc: writing the output failed: {e}");
        std::process::exit(1);
    }
}
