//! Stand-in for the pixel engine's fragment interface until `pe.rs` provides it: the same
//! `Fragment` and `Gpu::pe_fragment` signature, counting each fragment as unmodelled so a
//! run with the stand-in says that nothing was written.

use super::super::memory::Memory;
use super::super::{Gpu, GpuError};

/// One fragment for the pixel engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fragment {
    pub x: u32,
    pub y: u32,
    /// Window depth in [0, 1] after viewport/depth scale+bias, or the shader's depth output.
    pub z: f32,
    pub front_facing: bool,
    /// Colour outputs as the shader wrote them, raw 32-bit components, per render target.
    pub colors: [[u32; 4]; 8],
    pub color_count: usize,
}

impl Gpu {
    pub(crate) fn pe_fragment(
        &mut self,
        _mem: &mut dyn Memory,
        _f: &Fragment,
    ) -> Result<(), GpuError> {
        self.unmodelled("pixel engine (fragments not written)");
        Ok(())
    }
}
