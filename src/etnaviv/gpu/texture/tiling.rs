//! Where texel (x, y) of one image (a level's slice, face or layer) lives, for the layouts the
//! texture unit reads: linear rows, 4×4 tiles and 64×64 supertiles.
//!
//! The address math is the pixel engine's and resolve engines' ([`crate::etnaviv::gpu::layout`]),
//! so a surface the GPU rendered reads back through the texture unit as it was written:
//! linear rows, 4×4 tiles exactly as the CPU writes them, and 64×64 supertiles in the one
//! arrangement every engine of the model uses.

use crate::etnaviv::gpu::layout::{Surface, Tiling};

/// A surface layout the texture unit reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Linear,
    Tiled,
    SuperTiled,
}

impl Layout {
    /// Texel alignment of the padded width and height of an image in this layout, given the
    /// CONFIG1 HALIGN (4 or 16 texels; Mesa pads resolve-compatible tiled textures to 16).
    pub fn padding(self, halign: u32) -> (u32, u32) {
        match self {
            Layout::Linear => (1, 1),
            Layout::Tiled => (halign, 4),
            Layout::SuperTiled => (64, 64),
        }
    }
}

/// Byte offset of texel (x, y) from the start of its image. `stride` is the byte distance
/// between texel rows (for tiled layouts: the padded width times the texel size).
pub fn texel_offset(layout: Layout, x: u32, y: u32, bytes: u32, stride: u32) -> usize {
    let tiling = match layout {
        Layout::Linear => Tiling::Linear,
        Layout::Tiled => Tiling::Tiled,
        Layout::SuperTiled => Tiling::Super,
    };
    Surface::new(0, stride, bytes, tiling).address(x, y) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiled_offsets_follow_mesas_cpu_tiling() {
        // 4-byte texels, a 16-texel padded width: stride 64 bytes, a tile row 256 bytes.
        // (5, 6): tile row 1 (256), tile column 1 (64), inside row 2 column 1 → texel 9 (36).
        assert_eq!(texel_offset(Layout::Tiled, 5, 6, 4, 64), 256 + 64 + 36);
        assert_eq!(texel_offset(Layout::Tiled, 3, 0, 4, 64), 12);
        assert_eq!(texel_offset(Layout::Tiled, 0, 1, 4, 64), 16);
        assert_eq!(texel_offset(Layout::Linear, 5, 6, 4, 64), 6 * 64 + 20);
        // Supertiled, 1-byte texels, 128 wide: (4, 0) is tile 1; (0, 4) tile 2; (64, 0) the
        // second supertile (4096 bytes on).
        assert_eq!(texel_offset(Layout::SuperTiled, 4, 0, 1, 128), 16);
        assert_eq!(texel_offset(Layout::SuperTiled, 0, 4, 1, 128), 32);
        assert_eq!(texel_offset(Layout::SuperTiled, 64, 0, 1, 128), 4096);
        assert_eq!(texel_offset(Layout::SuperTiled, 0, 64, 1, 128), 128 * 64);
    }
}
