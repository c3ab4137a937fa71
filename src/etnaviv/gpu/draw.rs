//! Draws: vertex fetch, the vertex shader, primitive assembly, clipping, the viewport, the
//! rasterizer and the fragment shader, handing each fragment to the pixel engine ([`super::pe`]).

use std::ops::Range;

use super::memory::Memory;
use super::{Draw, Gpu, GpuError};

/// States the draw path interprets.
pub const STATES: &[Range<u32>] = &[];

impl Gpu {
    pub(crate) fn draw(&mut self, _mem: &mut dyn Memory, draw: &Draw) -> Result<(), GpuError> {
        self.report.draws += 1;
        self.unmodelled(format!("draw of primitive type {}", draw.primitive));
        Ok(())
    }
}
