//! Why a submission stopped: the simulated GPU's one error type, which every engine returns.

use std::fmt;

use super::memory::Fault;

/// Why a submission stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum GpuError {
    /// The stream itself is malformed or uses a command the model does not know.
    Stream { offset: usize, message: String },
    /// An engine touched memory outside the submission's buffers.
    Fault(Fault),
    /// An engine met a state combination it does not model.
    Unmodelled(String),
}

impl GpuError {
    pub fn stream(offset: usize, message: impl Into<String>) -> GpuError {
        GpuError::Stream {
            offset,
            message: message.into(),
        }
    }
}

impl From<Fault> for GpuError {
    fn from(f: Fault) -> GpuError {
        GpuError::Fault(f)
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GpuError::Stream { offset, message } => {
                write!(f, "command stream offset 0x{offset:x}: {message}")
            }
            GpuError::Fault(fault) => fault.fmt(f),
            GpuError::Unmodelled(what) => write!(f, "not modelled: {what}"),
        }
    }
}
