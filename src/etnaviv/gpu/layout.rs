//! Surface layouts: where pixel (x, y) of a linear, tiled, supertiled or multi-pipe surface
//! lives in memory, and the core properties that decide them.
//!
//! Two kinds of layout live here. The CPU writes and reads linear and 4×4-tiled buffers itself
//! (Mesa's etnaviv_tiling.c for tiled), so those follow the driver byte for byte: a tile is 16
//! consecutive elements in row-major order, tiles are row-major, and a row of tiles spans four
//! pixel rows' worth of stride. Supertiled, multi-pipe and tile-status memory is only ever
//! produced and consumed by the GPU's own engines in Mesa 23.3 (readback goes through the RS or
//! BLT into linear or tiled buffers), so those only have to agree between the PE, RS, BLT and
//! texture unit and fit the sizes the driver allocates (etnaviv_resource.c pads supertiled
//! surfaces to 64×64 and multi-pipe ones to 64×128 or 16×8). We still use the arrangement the
//! kernel's DRM modifier documentation gives where it is known:
//!
//! * supertiled: 64×64 supertiles in row-major order; inside one, 8×4 groups (row-major) of
//!   2×4 tiles (row-major) of 4×4 pixels (row-major);
//! * multi-pipe ("split"): every second 4-pixel-high row of tiles belongs to the second pixel
//!   pipe, which has its own base address, so offsets from either base are computed on the
//!   halved height. This matches how Mesa offsets a box in such a surface (it halves y).
//!
//! Cores with CACHE128B256BPERLINE (GC7000L) flag supertiled surfaces as "new" supertiled; the
//! model uses the same arrangement for both, which every engine applies alike.

pub mod tile_status;

use crate::etnaviv::specs::Specs;

/// How a surface's pixels are ordered inside one pipe's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiling {
    Linear,
    /// 4×4 tiles.
    Tiled,
    /// 64×64 supertiles of 4×4 tiles.
    Super,
}

/// A surface as an engine sees it: per-pipe bases, row stride, element size and layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surface {
    /// Base address of each pixel pipe's half; only `bases[0]` is used unless `multi`.
    pub bases: [u32; 2],
    /// Bytes from one pixel row to the next (Mesa's level stride); a row of 4×4 tiles spans
    /// four times this, a row of supertiles 64 times.
    pub stride: u32,
    /// Bytes per element.
    pub bpp: u32,
    pub tiling: Tiling,
    /// Split between two pixel pipes (Mesa's MULTI layouts).
    pub multi: bool,
}

/// Element index of pixel (x, y), both below 64, inside a 64×64 supertile.
pub fn supertile_index(x: u32, y: u32) -> u32 {
    // bits 0-1: x within the tile, 2-3: y within the tile, 4: which of the group's two tile
    // columns, 5-6: which of its four tile rows, 7-9: group column, 10-11: group row.
    (x & 3)
        | ((y & 3) << 2)
        | ((x & 4) << 2)
        | ((y & 0xc) << 3)
        | ((x & 0x38) << 4)
        | ((y & 0x30) << 6)
}

impl Surface {
    /// A single-pipe surface at `base`.
    pub fn new(base: u32, stride: u32, bpp: u32, tiling: Tiling) -> Surface {
        Surface {
            bases: [base, base],
            stride,
            bpp,
            tiling,
            multi: false,
        }
    }

    /// Which pipe's memory holds row `y`, and the row index inside that pipe's memory.
    pub fn pipe_of_row(&self, y: u32) -> (usize, u32) {
        if self.multi {
            (((y >> 2) & 1) as usize, ((y >> 3) << 2) | (y & 3))
        } else {
            (0, y)
        }
    }

    /// Byte offset of pixel (x, y) from its pipe's base, `y` already being the pipe's row.
    fn offset(&self, x: u32, y: u32) -> u32 {
        let (s, b) = (self.stride, self.bpp);
        match self.tiling {
            Tiling::Linear => y.wrapping_mul(s).wrapping_add(x.wrapping_mul(b)),
            Tiling::Tiled => {
                let tile_row = (y / 4).wrapping_mul(4 * s);
                let element = (x / 4) * 16 + (y % 4) * 4 + x % 4;
                tile_row.wrapping_add(element.wrapping_mul(b))
            }
            Tiling::Super => {
                let super_row = (y / 64).wrapping_mul(64 * s);
                let element = (x / 64) * 4096 + supertile_index(x % 64, y % 64);
                super_row.wrapping_add(element.wrapping_mul(b))
            }
        }
    }

    /// GPU address of the first byte of pixel (x, y).
    pub fn address(&self, x: u32, y: u32) -> u32 {
        let (pipe, row) = self.pipe_of_row(y);
        self.bases[pipe].wrapping_add(self.offset(x, row))
    }
}

/// Whether feature bit `bit` of feature word `word` (0 = chipFeatures, 1 + n = minor
/// features n) is set.
pub(crate) fn feature(specs: &Specs, word: usize, bit: u32) -> bool {
    specs.features.get(word).is_some_and(|w| w & bit != 0)
}

/// chipMinorFeatures6 CACHE128B256BPERLINE: 128/256-byte tile-status tiles, new supertiling.
pub(crate) fn has_cache128(specs: &Specs) -> bool {
    feature(specs, 7, 0x0000_4000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiled_matches_the_cpu_tiling_of_the_driver() {
        // 8×8 pixels of 4 bytes, stride 32: tile (1, 0) starts after the 16 elements of tile
        // (0, 0), and the second row of tiles starts 4 rows × 32 bytes in.
        let s = Surface::new(0x1000, 32, 4, Tiling::Tiled);
        assert_eq!(s.address(0, 0), 0x1000);
        assert_eq!(s.address(1, 0), 0x1004);
        assert_eq!(s.address(0, 1), 0x1000 + 16);
        assert_eq!(s.address(3, 3), 0x1000 + 15 * 4);
        assert_eq!(s.address(4, 0), 0x1000 + 64);
        assert_eq!(s.address(5, 2), 0x1000 + 64 + 9 * 4);
        assert_eq!(s.address(0, 4), 0x1000 + 128);
        assert_eq!(s.address(7, 7), 0x1000 + 128 + 64 + 60);
    }

    #[test]
    fn linear_is_row_major() {
        let s = Surface::new(0x100, 40, 2, Tiling::Linear);
        assert_eq!(s.address(3, 2), 0x100 + 80 + 6);
    }

    #[test]
    fn a_supertile_is_a_permutation_of_its_4096_elements() {
        let mut seen = vec![false; 4096];
        for y in 0..64 {
            for x in 0..64 {
                let i = supertile_index(x, y) as usize;
                assert!(!seen[i], "({x}, {y}) collides");
                seen[i] = true;
            }
        }
        // Group (1, 0) starts after one group of 2×4 tiles = 128 elements; the second tile
        // row of the first group is tile 2 (elements 32..48).
        assert_eq!(supertile_index(8, 0), 128);
        assert_eq!(supertile_index(0, 4), 32);
        assert_eq!(supertile_index(4, 0), 16);
        assert_eq!(supertile_index(0, 16), 1024);
        // Supertile (1, 1) of a 128-pixel-wide 32bpp surface: one row of supertiles is
        // 64 rows × 512 bytes, one supertile 16 KiB.
        let s = Surface::new(0, 512, 4, Tiling::Super);
        assert_eq!(s.address(64, 64), 64 * 512 + 16384);
    }

    #[test]
    fn multi_pipe_rows_alternate_every_four_rows() {
        let s = Surface {
            bases: [0x10000, 0x20000],
            stride: 64,
            bpp: 4,
            tiling: Tiling::Tiled,
            multi: true,
        };
        assert_eq!(s.address(0, 0), 0x10000);
        assert_eq!(s.address(0, 4), 0x20000);
        // Rows 8..12 are the second tile row of pipe 0.
        assert_eq!(s.address(1, 9), 0x10000 + 256 + 5 * 4);
        assert_eq!(s.address(0, 12), 0x20000 + 256);
    }
}
