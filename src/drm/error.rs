//! What can go wrong talking to a render node, phrased for the person reading the log.

use std::fmt;
use std::path::PathBuf;

/// A DRM-layer failure. Every variant's message names the node or ioctl it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// No render node with a supported driver exists.
    NoDevice,
    /// A node could not be opened or listed.
    Open { path: PathBuf, errno: i32 },
    /// The node belongs to a driver gpucc does not drive.
    WrongDriver { path: PathBuf, driver: String },
    /// An ioctl (or the mmap that follows one) failed with `errno`.
    Ioctl { name: &'static str, errno: i32 },
    /// The device works but cannot do what was asked (a GPU gpucc has no target for, a
    /// program too large for the instruction memory, ...).
    Unsupported(String),
    /// The caller asked for something impossible (an offset past the end of a buffer, ...).
    Invalid(String),
}

/// The C library's text for an errno value, without Rust's "(os error N)" suffix.
pub fn errno_text(errno: i32) -> String {
    let text = std::io::Error::from_raw_os_error(errno).to_string();
    match text.rfind(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoDevice => f.write_str("no i915 or etnaviv render node found"),
            Error::Open { path, errno } => {
                write!(
                    f,
                    "cannot open {}: {} (errno {errno})",
                    path.display(),
                    errno_text(*errno)
                )
            }
            Error::WrongDriver { path, driver } => write!(
                f,
                "{} is driven by '{driver}', not i915 or etnaviv",
                path.display()
            ),
            Error::Ioctl { name, errno } => {
                write!(f, "{name} failed: {} (errno {errno})", errno_text(*errno))
            }
            Error::Unsupported(what) | Error::Invalid(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
