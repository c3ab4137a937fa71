//! From the PCI id the kernel reports to gpucc's target name.

use crate::drm::error::{Error, Result};

/// The Intel platform behind a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform {
    /// The compiler target (Mesa's short name of the EU generation's reference platform).
    pub target: &'static str,
    /// Generation ×10 (70 for Ivy Bridge, 75 for Haswell, ...).
    pub ver: u32,
    /// Platform name from the device table, for messages (byt, chv, ...).
    pub name: &'static str,
}

impl Platform {
    pub fn from_chipset(id: u16) -> Result<Platform> {
        Err(Error::Unsupported(format!(
            "no Intel device table entry for PCI id {id:#06x}"
        )))
    }
}
