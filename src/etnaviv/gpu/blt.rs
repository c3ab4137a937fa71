//! The BLT engine of HALTI5 cores (GC7000L): clears, copies and in-place resolves.

use std::ops::Range;

use super::memory::Memory;
use super::{Gpu, GpuError};

/// BLT_COMMAND: writing it runs the operation the BLT states describe.
pub const BLT_COMMAND: u32 = 0x14060;

/// States the BLT engine interprets.
pub const STATES: &[Range<u32>] = &[];

impl Gpu {
    pub(crate) fn blt(&mut self, _mem: &mut dyn Memory, command: u32) -> Result<(), GpuError> {
        self.unmodelled(format!("BLT command {command}"));
        Ok(())
    }
}
