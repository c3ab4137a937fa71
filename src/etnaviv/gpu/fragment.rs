//! What the rasterizer and fragment shader hand the pixel engine, one per covered pixel.

/// One fragment leaving the shader, for the pixel engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fragment {
    pub x: u32,
    pub y: u32,
    /// Window depth in [0, 1] after viewport/depth scale+bias, or the shader's depth output.
    pub z: f32,
    /// Whether the primitive faces the way the PE's FRONT stencil states apply to. The
    /// hardware has no front-face state: the driver swaps the front and back stencil states
    /// by the rasterizer's winding instead (PE_STENCIL_OP[ccw] in etnaviv_emit.c), so this is
    /// the hardware's fixed winding, the one gl_FrontFacing and culling are derived from.
    pub front_facing: bool,
    /// Colour outputs as the shader wrote them, raw 32-bit components, per render target.
    pub colors: [[u32; 4]; 8],
    pub color_count: usize,
}
