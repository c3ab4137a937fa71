//! From the PCI id the kernel reports to gpucc's target name.

use crate::drm::error::{Error, Result};
use crate::intel::devinfo::DevInfo;

/// The Intel platform behind a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform {
    /// The compiler target: the EU generation's short name (an Atom-class part compiles
    /// like the big core of its generation: byt as ivb, chv as bdw, bxt/glk as skl).
    pub target: &'static str,
    /// Generation ×10 (70 for Ivy Bridge, 75 for Haswell, ...).
    pub ver: u32,
    /// Platform name from the device table (byt, chv, ...), for messages.
    pub name: &'static str,
    /// Compute threads the VFE may run at once (0 where the platform has no compute).
    pub max_cs_threads: u32,
}

/// Target name per generation ×10.
fn target_for_ver(ver: u32) -> Option<&'static str> {
    Some(match ver {
        40 => "brw",
        45 => "g4x",
        50 => "ilk",
        60 => "snb",
        70 => "ivb",
        75 => "hsw",
        80 => "bdw",
        90 => "skl",
        _ => return None,
    })
}

impl Platform {
    pub fn from_chipset(id: u16) -> Result<Platform> {
        let info = DevInfo::from_pci_id(id).ok_or_else(|| {
            Error::Unsupported(format!(
                "Intel GPU with PCI id {id:#06x} is not a Gen4-Gen9 part gpucc knows"
            ))
        })?;
        let target = target_for_ver(info.ver).ok_or_else(|| {
            Error::Unsupported(format!(
                "no gpucc target for {} (generation {})",
                info.full_name, info.ver
            ))
        })?;
        Ok(Platform {
            target,
            ver: info.ver,
            name: info.name,
            max_cs_threads: info.max_cs_threads,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // PCI ids from the kernel's i915_pciids.h: 0x0166 Ivy Bridge GT2 mobile, 0x0416 Haswell GT2
    // mobile, 0x1616 Broadwell GT2 ULT, 0x1912 Skylake GT2, 0x0f31 Bay Trail.
    #[test]
    fn chipsets_map_to_targets() {
        let t = |id| Platform::from_chipset(id).map(|p| p.target).ok();
        assert_eq!(t(0x0166), Some("ivb"));
        assert_eq!(t(0x0416), Some("hsw"));
        assert_eq!(t(0x1616), Some("bdw"));
        assert_eq!(t(0x1912), Some("skl"));
        assert_eq!(t(0x0f31), Some("ivb"));
    }

    #[test]
    fn unknown_chipset_is_named() {
        let e = Platform::from_chipset(0x9a49).unwrap_err().to_string();
        assert!(e.contains("0x9a49"), "{e}");
    }
}
