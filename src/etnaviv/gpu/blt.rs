//! The BLT engine of HALTI5 cores (GC7000L): clears, copies and in-place resolves.
//!
//! Facts (Mesa's hw/state_blt.xml.h, etnaviv_blt.c): the driver brackets every operation with
//! BLT_ENABLE and BLT_SET_COMMAND and starts it by writing BLT_COMMAND (1 clear image, 2 copy
//! image, 4 in-place resolve). An image is an address (the level's base), a stride state
//! holding the pixel-row stride, the format and the tiling (0 linear, 3 tiled; the config's
//! FROM/TO_SUPER_TILED bits make it supertiled) and a config state holding the tile-status
//! enable, mode and compression; positions and the size come separately. A clear writes
//! BLT_CLEAR_COLOR0/1 through the bit masks BLT_CLEAR_BITS0/1 (the two 32-bit halves of a
//! 64-bit pattern, which 16- and 8-bit formats carry replicated) over a rectangle of the
//! destination. The driver only copies between equal formats, with identity swizzles.
//!
//! With tile status, a clear marks the tiles the rectangle covers completely, with every clear
//! bit set, as cleared (the driver then programs the same value as the PE's clear value);
//! tiles it covers partly, or with only some bits, are first made current with the
//! destination's TS clear value and then written.

use std::collections::BTreeMap;
use std::ops::Range;

use super::layout::tile_status::{read_through, write_through, TileState, TileStatus};
use super::layout::{Surface, Tiling};
use super::memory::Memory;
use super::{Gpu, GpuError};

/// BLT_COMMAND: writing it runs the operation the BLT states describe.
pub const BLT_COMMAND: u32 = 0x14060;

const BLT_SRC_ADDR: u32 = 0x14000;
const BLT_SRC_STRIDE: u32 = 0x14008;
const BLT_SRC_CONFIG: u32 = 0x1400c;
const BLT_SRC_TS: u32 = 0x14010;
const BLT_SRC_POS: u32 = 0x14014;
const BLT_DEST_ADDR: u32 = 0x14018;
const BLT_DEST_TS: u32 = 0x14020;
const BLT_DEST_STRIDE: u32 = 0x14024;
const BLT_DEST_CONFIG: u32 = 0x14028;
const BLT_DEST_POS: u32 = 0x1402c;
const BLT_IMAGE_SIZE: u32 = 0x14030;
const BLT_SRC_TS_CLEAR_VALUE: u32 = 0x14034;
const BLT_DEST_TS_CLEAR_VALUE: u32 = 0x1403c;
const BLT_CLEAR_COLOR: u32 = 0x14044;
const BLT_CLEAR_BITS: u32 = 0x1404c;
const BLT_CONFIG: u32 = 0x14064;
const BLT_INPLACE_TILE_COUNT: u32 = 0x14068;
const BLT_SWIZZLE: u32 = 0x140bc;

/// Image config bits.
const CONFIG_TS: u32 = 1 << 0;
const CONFIG_TS_MODE_256: u32 = 1 << 17;
const CONFIG_FLIP_Y: u32 = 1 << 19;
const CONFIG_FROM_SUPER_TILED: u32 = 1 << 21;
const CONFIG_TO_SUPER_TILED: u32 = 1 << 26;

/// The identity swizzle the driver always programs, for source and destination.
const IDENTITY_SWIZZLE: u32 = 0x688 | (0x688 << 12);

/// States the BLT engine interprets: the operation states, BLT_SET_COMMAND and BLT_ENABLE
/// (brackets around each operation, with nothing to do for a model that runs it at once).
/// BLT_BUFFER_SIZE and the unknown states the driver writes with fixed values are not.
pub const STATES: &[Range<u32>] = &[
    0x14000..0x14004,
    0x14008..0x14054,
    0x14060..0x1406c,
    0x140ac..0x140b0,
    0x140b8..0x140c0,
];

/// Bytes per pixel of a BLT format.
fn format_bytes(format: u32) -> Option<u32> {
    Some(match format {
        0..=4 | 7 | 8 | 0x18 | 0x20 | 0x24 => 2,
        5 | 6 | 0x16 | 0x17 => 4,
        0x10 | 0x21 | 0x23 => 1,
        0x1c => 8,
        0x22 => 3,
        _ => return None,
    })
}

/// An image as the BLT states describe it.
struct Image {
    surface: Surface,
    format: u32,
    ts: Option<TileStatus>,
}

impl Gpu {
    fn blt_image(&self, dest: bool, format_mask: u32, bpp: Option<u32>) -> Result<Image, GpuError> {
        let s = &self.states;
        let (addr, stride, config, ts_addr, clear, super_bit) = if dest {
            let c = BLT_DEST_TS_CLEAR_VALUE;
            (
                BLT_DEST_ADDR,
                BLT_DEST_STRIDE,
                BLT_DEST_CONFIG,
                BLT_DEST_TS,
                c,
                CONFIG_TO_SUPER_TILED,
            )
        } else {
            let c = BLT_SRC_TS_CLEAR_VALUE;
            (
                BLT_SRC_ADDR,
                BLT_SRC_STRIDE,
                BLT_SRC_CONFIG,
                BLT_SRC_TS,
                c,
                CONFIG_FROM_SUPER_TILED,
            )
        };
        let stride = s.get(stride);
        let config = s.get(config);
        let format = (stride & format_mask) >> 21;
        let bpp = match bpp {
            Some(b) => b,
            None => format_bytes(format)
                .ok_or_else(|| GpuError::Unmodelled(format!("BLT format 0x{format:x}")))?,
        };
        let tiling = match ((stride >> 29) & 3, config & super_bit != 0) {
            (0, _) => Tiling::Linear,
            (_, true) => Tiling::Super,
            _ => Tiling::Tiled,
        };
        let base = s.get(addr);
        let ts = (config & CONFIG_TS != 0).then(|| {
            TileStatus::for_core(
                self.specs,
                s.get(ts_addr),
                base,
                [s.get(clear), s.get(clear + 4)],
                config & CONFIG_TS_MODE_256 != 0,
            )
        });
        Ok(Image {
            surface: Surface::new(base, stride & 0xf_ffff, bpp, tiling),
            format,
            ts,
        })
    }

    pub(crate) fn blt(&mut self, mem: &mut dyn Memory, command: u32) -> Result<(), GpuError> {
        match command & 0xf {
            1 => self.blt_clear(mem),
            2 => self.blt_copy(mem),
            4 => self.blt_in_place(mem),
            c => Err(GpuError::Unmodelled(format!("BLT command {c}"))),
        }
    }

    fn blt_rect(&self, pos: u32) -> (u32, u32, u32, u32) {
        let size = self.states.get(BLT_IMAGE_SIZE);
        let pos = self.states.get(pos);
        (pos & 0xffff, pos >> 16, size & 0xffff, size >> 16)
    }

    fn blt_clear(&mut self, mem: &mut dyn Memory) -> Result<(), GpuError> {
        let bpp = ((self.states.get(BLT_CONFIG) >> 7) & 7) + 1;
        let dst = self.blt_image(true, 0x1fe0_0000, Some(bpp))?;
        let color = [0, 1].map(|i| self.states.at(BLT_CLEAR_COLOR, i) as u64);
        let bits = [0, 1].map(|i| self.states.at(BLT_CLEAR_BITS, i) as u64);
        let pattern = color[0] | (color[1] << 32);
        let mask = bits[0] | (bits[1] << 32);
        let (x0, y0, w, h) = self.blt_rect(BLT_DEST_POS);
        let all_bits = mask == u64::MAX;

        // Which tiles the rectangle covers completely (with tile status and every bit set,
        // those become cleared tiles instead of being written).
        let mut coverage: BTreeMap<u32, u32> = BTreeMap::new();
        if let (Some(ts), true) = (&dst.ts, all_bits) {
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    if let Some(t) = ts.tile_of(dst.surface.address(x, y)) {
                        *coverage.entry(t).or_default() += bpp;
                    }
                }
            }
        }
        let full = |t: Option<u32>, ts: &TileStatus| {
            t.is_some_and(|t| coverage.get(&t) == Some(&ts.tile_bytes))
        };
        let n = bpp as usize;
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                let at = dst.surface.address(x, y);
                if let Some(ts) = &dst.ts {
                    if full(ts.tile_of(at), ts) {
                        continue;
                    }
                }
                let mut px = [0u8; 8];
                if !all_bits {
                    read_through(dst.ts.as_ref(), mem, at, &mut px[..n])?;
                }
                for (j, b) in px[..n].iter_mut().enumerate() {
                    let k = ((x * bpp + j as u32) % 8) * 8;
                    let (p, m) = ((pattern >> k) as u8, (mask >> k) as u8);
                    *b = (*b & !m) | (p & m);
                }
                write_through(dst.ts.as_ref(), mem, at, &px[..n])?;
            }
        }
        if let Some(ts) = &dst.ts {
            for (&t, _) in coverage.iter().filter(|(_, c)| **c == ts.tile_bytes) {
                ts.set_state(mem, t, TileState::Cleared)?;
            }
        }
        Ok(())
    }

    fn blt_copy(&mut self, mem: &mut dyn Memory) -> Result<(), GpuError> {
        let config = self.states.get(BLT_CONFIG);
        if config & 0x1e != 0 {
            return Err(GpuError::Unmodelled("BLT endian swap".into()));
        }
        if self.states.get(BLT_SWIZZLE) != IDENTITY_SWIZZLE {
            self.unmodelled("BLT swizzle");
        }
        let src = self.blt_image(false, 0x07e0_0000, None)?;
        let dst = self.blt_image(true, 0x1fe0_0000, None)?;
        if src.format != dst.format {
            return Err(GpuError::Unmodelled(format!(
                "BLT copy from format 0x{:x} to 0x{:x}",
                src.format, dst.format
            )));
        }
        if dst.ts.is_some() {
            self.unmodelled("BLT copy into a destination with tile status");
        }
        let src_stride = self.states.get(BLT_SRC_STRIDE);
        let (sx, sy) = ((src_stride >> 27) & 1, (src_stride >> 28) & 1);
        if (sx | sy) != 0 && !matches!(src.format, 5 | 6) {
            return Err(GpuError::Unmodelled(format!(
                "BLT downsample of format 0x{:x}",
                src.format
            )));
        }
        let flip = self.states.get(BLT_DEST_CONFIG) & CONFIG_FLIP_Y != 0;
        let (src_x, src_y, w, h) = self.blt_rect(BLT_SRC_POS);
        let (dst_x, dst_y, _, _) = self.blt_rect(BLT_DEST_POS);
        let n = src.surface.bpp as usize;
        let samples = 1u32 << (sx + sy);
        for y in 0..h >> sy {
            for x in 0..w >> sx {
                let mut sum = [0u32; 8];
                let mut px = [0u8; 8];
                for j in 0..1 << sy {
                    for i in 0..1 << sx {
                        let at = src
                            .surface
                            .address(src_x + (x << sx) + i, src_y + (y << sy) + j);
                        read_through(src.ts.as_ref(), mem, at, &mut px[..n])?;
                        for (s, b) in sum.iter_mut().zip(&px[..n]) {
                            *s += *b as u32;
                        }
                    }
                }
                let out = sum.map(|s| ((s + samples / 2) / samples) as u8);
                let dy = if flip { (h >> sy) - 1 - y } else { y };
                let at = dst.surface.address(dst_x + x, dst_y + dy);
                mem.write(at, &out[..n])?;
            }
        }
        Ok(())
    }

    /// In-place resolve: the cleared tiles among the first BLT_INPLACE_TILE_COUNT of the
    /// destination get the clear value in memory; their status stays valid.
    fn blt_in_place(&mut self, mem: &mut dyn Memory) -> Result<(), GpuError> {
        let s = &self.states;
        let ts = TileStatus::for_core(
            self.specs,
            s.get(BLT_DEST_TS),
            s.get(BLT_DEST_ADDR),
            [
                s.get(BLT_DEST_TS_CLEAR_VALUE),
                s.get(BLT_DEST_TS_CLEAR_VALUE + 4),
            ],
            s.get(BLT_CONFIG) & (1 << 10) != 0,
        );
        for t in 0..s.get(BLT_INPLACE_TILE_COUNT) {
            if ts.state(mem, t)? == TileState::Cleared {
                ts.fill(mem, t)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drm::etnaviv::CmdStream;
    use crate::etnaviv::gpu::memory::Buffers;
    use crate::etnaviv::specs::Specs;

    const SRC: u32 = 0x10_0000;
    const DST: u32 = 0x20_0000;
    const TS: u32 = 0x30_0000;

    fn run(mem: &mut Buffers, cs: &CmdStream) -> Gpu {
        let mut gpu = Gpu::new(Specs::from_name("gc7000l").unwrap());
        gpu.execute(mem, cs.words()).unwrap();
        gpu
    }

    /// Stride state: tiling field, format, stride.
    fn stride(tiled: bool, format: u32, stride: u32) -> u32 {
        (if tiled { 3 << 29 } else { 0 }) | (format << 21) | stride
    }

    #[test]
    fn a_clear_writes_the_masked_pattern_over_exactly_the_rectangle() {
        // A linear 16×4 D24S8 image of 0xaa bytes: clear depth (bits 0xffffff00) of the 3×2
        // rectangle at (2, 1) to 0x123456.
        let mut mem = Buffers::new();
        mem.map(DST, vec![0xaa; 16 * 4 * 4]);
        let mut cs = CmdStream::new();
        cs.set_state(0x140b8, 1);
        cs.set_state(BLT_CONFIG, 3 << 7);
        cs.set_state(BLT_DEST_STRIDE, stride(false, 0x17, 64));
        cs.set_state(BLT_DEST_CONFIG, 0);
        cs.set_state(BLT_DEST_ADDR, DST);
        cs.set_state(BLT_DEST_POS, (1 << 16) | 2);
        cs.set_state(BLT_IMAGE_SIZE, (2 << 16) | 3);
        cs.set_states(BLT_CLEAR_COLOR, &[0x1234_5600, 0x1234_5600]);
        cs.set_states(BLT_CLEAR_BITS, &[0xffff_ff00, 0xffff_ff00]);
        cs.set_state(BLT_COMMAND, 1);
        run(&mut mem, &cs);
        let out = mem.get(DST).unwrap();
        for y in 0..4usize {
            for x in 0..16usize {
                let px = &out[(y * 16 + x) * 4..][..4];
                let inside = (2..5).contains(&x) && (1..3).contains(&y);
                let want = if inside {
                    [0xaa, 0x56, 0x34, 0x12]
                } else {
                    [0xaa; 4]
                };
                assert_eq!(px, want, "pixel ({x}, {y})");
            }
        }
    }

    /// Pixel (x, y) of a 16-wide 32bpp tiled image, addressed by hand.
    fn tiled_at(x: u32, y: u32) -> u32 {
        4 * (((y / 4) * 4 + x / 4) * 16 + (y % 4) * 4 + x % 4)
    }

    #[test]
    fn a_fast_clear_marks_whole_tiles_and_a_copy_reads_them_back() {
        // A tiled 16×8 A8R8G8B8 image (GC7000L: 128-byte TS tiles = two 4×4 tiles, 4 status
        // bits each). Clear a 12×8 rectangle: the TS tiles of x 0..8 are covered completely,
        // those of x 8..16 only half (x 8..12).
        let mut mem = Buffers::new();
        mem.map(SRC, vec![0x11; 16 * 8 * 4]);
        mem.map(TS, vec![0; 8]);
        mem.map(DST, vec![0; 16 * 8 * 4]);
        let mut cs = CmdStream::new();
        cs.set_state(BLT_CONFIG, 3 << 7);
        cs.set_state(BLT_DEST_STRIDE, stride(true, 6, 64));
        cs.set_state(BLT_DEST_CONFIG, CONFIG_TS);
        cs.set_state(BLT_DEST_ADDR, SRC);
        cs.set_state(BLT_DEST_TS, TS);
        cs.set_states(BLT_DEST_TS_CLEAR_VALUE, &[0xff00_ff00, 0xff00_ff00]);
        cs.set_state(BLT_DEST_POS, 0);
        cs.set_state(BLT_IMAGE_SIZE, (8 << 16) | 12);
        cs.set_states(BLT_CLEAR_COLOR, &[0xff00_ff00, 0xff00_ff00]);
        cs.set_states(BLT_CLEAR_BITS, &[u32::MAX, u32::MAX]);
        cs.set_state(BLT_COMMAND, 1);
        run(&mut mem, &cs);
        // Image tiles (4×4) 0,1 | 2,3 in the first tile row form TS tiles 0 and 1; 4..8 the
        // second row. TS tiles 0 and 2 are cleared (0xf, DEC400 core), 1 and 3 written.
        assert_eq!(mem.read_u32(TS).unwrap(), 0x0000_0f0f);
        assert_eq!(
            mem.read_u32(SRC).unwrap(),
            0x1111_1111,
            "fast-cleared: untouched"
        );
        assert_eq!(mem.read_u32(SRC + tiled_at(8, 0)).unwrap(), 0xff00_ff00);
        // Outside the rectangle, in a tile whose memory was already current: untouched.
        assert_eq!(mem.read_u32(SRC + tiled_at(12, 0)).unwrap(), 0x1111_1111);

        // Copy the whole image through its TS to a linear image at (0, 0).
        let mut cs = CmdStream::new();
        cs.set_state(BLT_CONFIG, 0);
        cs.set_state(BLT_SRC_STRIDE, stride(true, 6, 64));
        cs.set_state(BLT_SRC_CONFIG, CONFIG_TS);
        cs.set_state(BLT_SWIZZLE, IDENTITY_SWIZZLE);
        cs.set_state(BLT_SRC_TS, TS);
        cs.set_states(BLT_SRC_TS_CLEAR_VALUE, &[0xff00_ff00, 0xff00_ff00]);
        cs.set_state(BLT_SRC_ADDR, SRC);
        cs.set_state(BLT_DEST_STRIDE, stride(false, 6, 64));
        cs.set_state(BLT_DEST_CONFIG, 0);
        cs.set_state(BLT_DEST_ADDR, DST);
        cs.set_state(BLT_SRC_POS, 0);
        cs.set_state(BLT_DEST_POS, 0);
        cs.set_state(BLT_IMAGE_SIZE, (8 << 16) | 16);
        cs.set_state(BLT_COMMAND, 2);
        run(&mut mem, &cs);
        let out = mem.get(DST).unwrap();
        for y in 0..8usize {
            for x in 0..16usize {
                let v = u32::from_le_bytes(out[(y * 16 + x) * 4..][..4].try_into().unwrap());
                let want = if x < 12 { 0xff00_ff00 } else { 0x1111_1111 };
                assert_eq!(v, want, "pixel ({x}, {y})");
            }
        }
    }

    #[test]
    fn a_copy_detiles_a_subrectangle_with_positions_and_flip() {
        // Source: tiled 16×8, pixel (x, y) = y << 8 | x. Copy the 4×2 rectangle at (5, 3) to
        // (1, 0) of a linear 8-wide image, flipped vertically.
        let mut src = vec![0u8; 16 * 8 * 4];
        for y in 0..8 {
            for x in 0..16 {
                let at = tiled_at(x, y) as usize;
                src[at..at + 4].copy_from_slice(&((y << 8) | x).to_le_bytes());
            }
        }
        let mut mem = Buffers::new();
        mem.map(SRC, src);
        mem.map(DST, vec![0; 8 * 2 * 4]);
        let mut cs = CmdStream::new();
        cs.set_state(BLT_CONFIG, 0);
        cs.set_state(BLT_SRC_STRIDE, stride(true, 6, 64));
        cs.set_state(BLT_SRC_CONFIG, 0);
        cs.set_state(BLT_SWIZZLE, IDENTITY_SWIZZLE);
        cs.set_state(BLT_SRC_ADDR, SRC);
        cs.set_state(BLT_DEST_STRIDE, stride(false, 6, 32));
        cs.set_state(BLT_DEST_CONFIG, CONFIG_FLIP_Y);
        cs.set_state(BLT_DEST_ADDR, DST);
        cs.set_state(BLT_SRC_POS, (3 << 16) | 5);
        cs.set_state(BLT_DEST_POS, 1);
        cs.set_state(BLT_IMAGE_SIZE, (2 << 16) | 4);
        cs.set_state(BLT_COMMAND, 2);
        run(&mut mem, &cs);
        for (y, src_y) in [(0u32, 4u32), (1, 3)] {
            for x in 0..8u32 {
                let v = mem.read_u32(DST + (y * 8 + x) * 4).unwrap();
                let want = if (1..5).contains(&x) {
                    (src_y << 8) | (x + 4)
                } else {
                    0
                };
                assert_eq!(v, want, "pixel ({x}, {y})");
            }
        }
    }

    #[test]
    fn an_in_place_resolve_fills_cleared_tiles() {
        let mut mem = Buffers::new();
        mem.map(SRC, vec![0x11; 512]);
        // 128-byte tiles, 4 bits each: tile 1 cleared (0xf), tiles 0, 2, 3 current.
        mem.map(TS, 0xf0u32.to_le_bytes().to_vec());
        let mut cs = CmdStream::new();
        cs.set_state(BLT_CONFIG, 0x800 | (2 << 15));
        cs.set_states(BLT_DEST_TS_CLEAR_VALUE, &[0x0403_0201, 0x0807_0605]);
        cs.set_state(BLT_DEST_ADDR, SRC);
        cs.set_state(BLT_DEST_TS, TS);
        cs.set_state(BLT_INPLACE_TILE_COUNT, 4);
        cs.set_state(BLT_COMMAND, 4);
        run(&mut mem, &cs);
        let out = mem.get(SRC).unwrap();
        assert_eq!(&out[120..128], &[0x11; 8]);
        assert_eq!(&out[128..136], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(&out[252..256], &[5, 6, 7, 8]);
        assert_eq!(&out[256..260], &[0x11; 4]);
    }
}
