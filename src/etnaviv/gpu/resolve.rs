//! The resolve engine (RS): copies, clears, tiling and format conversion between surfaces.

use std::ops::Range;

use super::memory::Memory;
use super::{Gpu, GpuError};

/// RS_KICKER: writing it starts the resolve the RS states describe.
pub const RS_KICKER: u32 = 0x1600;

/// States the resolve engine interprets.
pub const STATES: &[Range<u32>] = &[];

impl Gpu {
    pub(crate) fn resolve(&mut self, _mem: &mut dyn Memory) -> Result<(), GpuError> {
        self.unmodelled("resolve (RS)");
        Ok(())
    }
}
