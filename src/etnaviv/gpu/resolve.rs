//! The resolve engine (RS) of pre-BLT cores (GC2000, GC3000): copies a window between surfaces
//! with tiling and format conversion and optional 2× downsampling, fills a window with a clear
//! value, and fills the cleared tiles of a surface in place.
//!
//! Facts (Mesa's hw/state_3d.xml.h, etnaviv_rs.c): RS_CONFIG holds the source and destination
//! formats, their TILED bits, SWAP_RB, FLIP and the downsample bits; the stride states hold the
//! stride (times four for tiled surfaces: one row of 4×4 tiles) with TILING (supertiled) and
//! MULTI (split over two pipes) bits. Cores with two pixel pipes, or RS_NEW_BASEADDR, take
//! per-pipe source and destination addresses and a per-pipe window offset: in dual-pipe mode
//! the driver halves the window height and offsets pipe 1 by that half, so the work is the
//! union of the pipes' windows, each pipe's window shifted by its offset in both surfaces. An
//! address state for pipe 1 is only emitted when that side is MULTI, so a side that is not
//! uses pipe 0's address for both pipes. RS_CLEAR_CONTROL's BITS are a byte mask repeating
//! every 16 bytes (the driver clears only stencil of D24S8 with 0x1111). A copy reads its
//! source through the colour tile status when TS_MEM_CONFIG enables colour fast clear (the
//! driver points those states at the source before every copy and clears them otherwise).

use std::ops::Range;

use super::layout::tile_status::{read_through, TileState, TileStatus};
use super::layout::{feature, has_cache128, Surface, Tiling};
use super::memory::Memory;
use super::{Gpu, GpuError};

/// RS_KICKER: writing it starts the resolve the RS states describe.
pub const RS_KICKER: u32 = 0x1600;
/// RS_KICKER_INPLACE: writing a tile count fills that many cleared colour tiles in place.
pub const RS_KICKER_INPLACE: u32 = 0x16b0;

const RS_CONFIG: u32 = 0x1604;
const RS_SOURCE_ADDR: u32 = 0x1608;
const RS_SOURCE_STRIDE: u32 = 0x160c;
const RS_DEST_ADDR: u32 = 0x1610;
const RS_DEST_STRIDE: u32 = 0x1614;
const RS_WINDOW_SIZE: u32 = 0x1620;
const RS_DITHER: u32 = 0x1630;
const RS_CLEAR_CONTROL: u32 = 0x163c;
const RS_FILL_VALUE: u32 = 0x1640;
const RS_EXTRA_CONFIG: u32 = 0x16a0;
const RS_SINGLE_BUFFER: u32 = 0x16b8;
const RS_PIPE_SOURCE_ADDR: u32 = 0x16c0;
const RS_PIPE_DEST_ADDR: u32 = 0x16e0;
const RS_PIPE_OFFSET: u32 = 0x1700;

pub(crate) const TS_MEM_CONFIG: u32 = 0x1654;
pub(crate) const TS_COLOR_STATUS_BASE: u32 = 0x1658;
pub(crate) const TS_COLOR_SURFACE_BASE: u32 = 0x165c;
pub(crate) const TS_COLOR_CLEAR_VALUE: u32 = 0x1660;
pub(crate) const TS_COLOR_CLEAR_VALUE_EXT: u32 = 0x16bc;
/// TS_MEM_CONFIG: colour tile status enabled.
pub(crate) const TS_COLOR_FAST_CLEAR: u32 = 1 << 1;

/// States the resolve engine interprets (the TS states it shares with the PE are declared
/// there). RS_SINGLE_BUFFER only selects how the hardware splits work between its pipes,
/// which a model running each resolve to completion does not need.
pub const STATES: &[Range<u32>] = &[
    0x1600..0x1618,
    0x1620..0x1624,
    0x1630..0x1638,
    0x163c..0x1650,
    0x16a0..0x16a4,
    0x16b0..0x16b4,
    RS_SINGLE_BUFFER..0x16bc,
    0x16c0..0x1720,
];

/// An RS pixel format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RsFormat(pub u32);

impl RsFormat {
    pub const X4R4G4B4: RsFormat = RsFormat(0);
    pub const A4R4G4B4: RsFormat = RsFormat(1);
    pub const X1R5G5B5: RsFormat = RsFormat(2);
    pub const A1R5G5B5: RsFormat = RsFormat(3);
    pub const R5G6B5: RsFormat = RsFormat(4);
    pub const X8R8G8B8: RsFormat = RsFormat(5);
    pub const A8R8G8B8: RsFormat = RsFormat(6);
    pub const CLEAR_64BPP: RsFormat = RsFormat(0x15);

    pub fn bytes(self) -> Option<u32> {
        match self.0 {
            0..=4 => Some(2),
            5 | 6 => Some(4),
            0x15 => Some(8),
            _ => None,
        }
    }

    /// (shift, bits) of alpha, red, green and blue, and whether alpha is padding.
    fn channels(self) -> Option<([(u32, u32); 4], bool)> {
        Some(match self.0 {
            0 | 1 => ([(12, 4), (8, 4), (4, 4), (0, 4)], self.0 == 0),
            2 | 3 => ([(15, 1), (10, 5), (5, 5), (0, 5)], self.0 == 2),
            4 => ([(0, 0), (11, 5), (5, 6), (0, 5)], true),
            5 | 6 => ([(24, 8), (16, 8), (8, 8), (0, 8)], self.0 == 5),
            _ => return None,
        })
    }

    /// The element as 8-bit alpha, red, green, blue (narrower channels replicate their high
    /// bits; padding alpha reads as opaque).
    pub fn decode(self, raw: u32) -> Option<[u8; 4]> {
        let (ch, no_alpha) = self.channels()?;
        let mut out = [0u8; 4];
        for (i, &(shift, bits)) in ch.iter().enumerate() {
            out[i] = if i == 0 && no_alpha {
                255
            } else {
                expand((raw >> shift) & ((1 << bits) - 1), bits)
            };
        }
        Some(out)
    }

    /// 8-bit alpha, red, green, blue as an element (truncating to narrower channels; padding
    /// alpha is written as ones).
    pub fn encode(self, argb: [u8; 4]) -> Option<u32> {
        let (ch, no_alpha) = self.channels()?;
        let mut raw = 0;
        for (i, &(shift, bits)) in ch.iter().enumerate() {
            let v = if i == 0 && no_alpha { 255 } else { argb[i] };
            raw |= ((v as u32) >> (8 - bits.min(8))) << shift;
        }
        Some(raw & if self.0 < 5 { 0xffff } else { u32::MAX })
    }
}

/// An n-bit unorm value widened to 8 bits by replicating its high bits.
fn expand(v: u32, bits: u32) -> u8 {
    match bits {
        0 => 255,
        8 => v as u8,
        _ => {
            let mut out = 0u32;
            let mut filled = 0;
            while filled < 8 {
                out = (out << bits) | v;
                filled += bits;
            }
            (out >> (filled - 8)) as u8
        }
    }
}

fn le_value(bytes: &[u8]) -> u32 {
    bytes.iter().rev().fold(0u32, |v, &b| (v << 8) | b as u32)
}

impl Gpu {
    /// Whether the RS and PE take per-pipe addresses (the pipe-address states) rather than the
    /// single address states.
    fn rs_per_pipe_addresses(&self) -> bool {
        self.specs.pixel_pipes > 1 || feature(self.specs, 8, 0x0000_0004)
    }

    /// Window offsets of the pipes that take part in a resolve, without duplicates (in
    /// single-pipe mode both pipes do the same whole window).
    fn rs_pipe_offsets(&self) -> Vec<(u32, u32)> {
        if !self.rs_per_pipe_addresses() {
            return vec![(0, 0)];
        }
        let mut offsets = Vec::new();
        for p in 0..self.specs.pixel_pipes.clamp(1, 2) as usize {
            let v = self.states.at(RS_PIPE_OFFSET, p);
            let o = (v & 0xffff, v >> 16);
            if !offsets.contains(&o) {
                offsets.push(o);
            }
        }
        offsets
    }

    /// The source or destination surface of the RS as its states describe it.
    fn rs_surface(&self, dest: bool, format: RsFormat) -> Result<Surface, GpuError> {
        let config = self.states.get(RS_CONFIG);
        let (stride_state, tiled_bit, single, pipes) = if dest {
            (RS_DEST_STRIDE, 1 << 14, RS_DEST_ADDR, RS_PIPE_DEST_ADDR)
        } else {
            (
                RS_SOURCE_STRIDE,
                1 << 7,
                RS_SOURCE_ADDR,
                RS_PIPE_SOURCE_ADDR,
            )
        };
        let stride = self.states.get(stride_state);
        let tiled = config & tiled_bit != 0;
        let supertiled = stride & (1 << 31) != 0;
        let multi = stride & (1 << 30) != 0;
        let tiling = match (tiled, supertiled) {
            (false, false) => Tiling::Linear,
            (true, false) => Tiling::Tiled,
            (_, true) => Tiling::Super,
        };
        let field = stride & 0x3_ffff;
        let bases = if self.rs_per_pipe_addresses() {
            let b0 = self.states.at(pipes, 0);
            [b0, if multi { self.states.at(pipes, 1) } else { b0 }]
        } else {
            if multi {
                return Err(GpuError::Unmodelled(
                    "RS MULTI surface on a core without per-pipe addresses".into(),
                ));
            }
            let b = self.states.get(single);
            [b, b]
        };
        let bpp = format
            .bytes()
            .ok_or_else(|| GpuError::Unmodelled(format!("RS format 0x{:x}", format.0)))?;
        Ok(Surface {
            bases,
            stride: if tiling == Tiling::Linear {
                field
            } else {
                field / 4
            },
            bpp,
            tiling,
            multi,
        })
    }

    pub(crate) fn resolve(&mut self, mem: &mut dyn Memory) -> Result<(), GpuError> {
        let config = self.states.get(RS_CONFIG);
        if config & (1 << 30) != 0 {
            return Err(GpuError::Unmodelled("RS FLIP".into()));
        }
        let extra = self.states.get(RS_EXTRA_CONFIG);
        if extra & 0x300 != 0 {
            return Err(GpuError::Unmodelled(format!(
                "RS endian mode {}",
                (extra >> 8) & 3
            )));
        }
        if extra & 3 != 0 {
            self.unmodelled("RS_EXTRA_CONFIG AA");
        }
        if self.states.at(RS_DITHER, 0) != u32::MAX || self.states.at(RS_DITHER, 1) != u32::MAX {
            self.unmodelled("RS dithering");
        }
        let window = self.states.get(RS_WINDOW_SIZE);
        let (w, h) = (window & 0xffff, window >> 16);
        let src_format = RsFormat(config & 0x1f);
        let dst_format = RsFormat((config >> 8) & 0x1f);
        let clear = self.states.get(RS_CLEAR_CONTROL);
        match (clear >> 16) & 3 {
            0 => self.rs_copy(mem, config, src_format, dst_format, w, h),
            1 => self.rs_clear(mem, dst_format, clear & 0xffff, w, h),
            mode => Err(GpuError::Unmodelled(format!("RS clear mode {mode}"))),
        }
    }

    fn rs_clear(
        &mut self,
        mem: &mut dyn Memory,
        format: RsFormat,
        bits: u32,
        w: u32,
        h: u32,
    ) -> Result<(), GpuError> {
        let dst = self.rs_surface(true, format)?;
        let fill = [
            self.states.at(RS_FILL_VALUE, 0),
            self.states.at(RS_FILL_VALUE, 1),
        ];
        // A 64-bit clear repeats two fill words; narrower formats repeat the first (16-bit
        // values come replicated in it).
        let pattern_len = if dst.bpp == 8 { 8 } else { 4 };
        let pattern = |offset: u32| -> u8 {
            let word = fill[(offset as usize / 4) % 2];
            (word >> (8 * (offset % 4))) as u8
        };
        let bpp = dst.bpp as usize;
        for (ox, oy) in self.rs_pipe_offsets() {
            for y in oy..oy + h {
                for x in ox..ox + w {
                    let at = dst.address(x, y);
                    let mut px = [0u8; 8];
                    let px = &mut px[..bpp];
                    if bits != 0xffff {
                        mem.read(at, px)?;
                    }
                    for (j, b) in px.iter_mut().enumerate() {
                        let k = x * dst.bpp + j as u32;
                        if bits & (1 << (k % 16)) != 0 {
                            *b = pattern(k % pattern_len);
                        }
                    }
                    mem.write(at, px)?;
                }
            }
        }
        Ok(())
    }

    /// The colour tile status an RS copy reads its source through, if enabled.
    fn rs_source_ts(&self) -> Option<TileStatus> {
        if self.states.get(TS_MEM_CONFIG) & TS_COLOR_FAST_CLEAR == 0 {
            return None;
        }
        let large = self.states.get(RS_SOURCE_STRIDE) & (1 << 29) != 0;
        Some(TileStatus::for_core(
            self.specs,
            self.states.get(TS_COLOR_STATUS_BASE),
            self.states.get(TS_COLOR_SURFACE_BASE),
            [
                self.states.get(TS_COLOR_CLEAR_VALUE),
                self.states.get(TS_COLOR_CLEAR_VALUE_EXT),
            ],
            large,
        ))
    }

    fn rs_copy(
        &mut self,
        mem: &mut dyn Memory,
        config: u32,
        src_format: RsFormat,
        dst_format: RsFormat,
        w: u32,
        h: u32,
    ) -> Result<(), GpuError> {
        let src = self.rs_surface(false, src_format)?;
        let dst = self.rs_surface(true, dst_format)?;
        let ts = self.rs_source_ts();
        let swap_rb = config & (1 << 29) != 0;
        let (sx, sy) = ((config >> 5) & 1, (config >> 6) & 1);
        let raw = src_format == dst_format && !swap_rb && sx == 0 && sy == 0;
        if !raw && (src_format.channels().is_none() || dst_format.channels().is_none()) {
            return Err(GpuError::Unmodelled(format!(
                "RS conversion from format 0x{:x} to 0x{:x}",
                src_format.0, dst_format.0
            )));
        }
        let samples = 1u32 << (sx + sy);
        for (ox, oy) in self.rs_pipe_offsets() {
            for y in 0..h >> sy {
                for x in 0..w >> sx {
                    let (dx, dy) = ((ox >> sx) + x, (oy >> sy) + y);
                    let mut px = [0u8; 8];
                    let px = &mut px[..src.bpp as usize];
                    if raw {
                        read_through(ts.as_ref(), mem, src.address(ox + x, oy + y), px)?;
                        mem.write(dst.address(dx, dy), px)?;
                        continue;
                    }
                    let mut sum = [0u32; 4];
                    for j in 0..1 << sy {
                        for i in 0..1 << sx {
                            let at = src.address(ox + (x << sx) + i, oy + (y << sy) + j);
                            read_through(ts.as_ref(), mem, at, px)?;
                            let c = src_format.decode(le_value(px)).unwrap_or_default();
                            for (s, v) in sum.iter_mut().zip(c) {
                                *s += v as u32;
                            }
                        }
                    }
                    let mut argb = sum.map(|s| ((s + samples / 2) / samples) as u8);
                    if swap_rb {
                        argb.swap(1, 3);
                    }
                    let v = dst_format.encode(argb).unwrap_or_default();
                    let n = dst.bpp as usize;
                    mem.write(dst.address(dx, dy), &v.to_le_bytes()[..n])?;
                }
            }
        }
        Ok(())
    }

    /// RS_KICKER_INPLACE: writes the clear value into the first `tiles` tiles of the colour
    /// surface whose status says cleared. Their status stays cleared, which still describes
    /// them correctly (the driver keeps using the tile status afterwards).
    pub(crate) fn resolve_in_place(
        &mut self,
        mem: &mut dyn Memory,
        tiles: u32,
    ) -> Result<(), GpuError> {
        if self.states.get(TS_MEM_CONFIG) & TS_COLOR_FAST_CLEAR == 0 {
            self.unmodelled("RS in-place resolve without colour tile status");
            return Ok(());
        }
        let large = has_cache128(self.specs) && self.states.get(RS_EXTRA_CONFIG) & (1 << 24) != 0;
        let ts = TileStatus::for_core(
            self.specs,
            self.states.get(TS_COLOR_STATUS_BASE),
            self.states.get(TS_COLOR_SURFACE_BASE),
            [
                self.states.get(TS_COLOR_CLEAR_VALUE),
                self.states.get(TS_COLOR_CLEAR_VALUE_EXT),
            ],
            large,
        );
        for t in 0..tiles {
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

    fn run(core: &str, mem: &mut Buffers, cs: &CmdStream) -> Gpu {
        let mut gpu = Gpu::new(Specs::from_name(core).unwrap());
        gpu.execute(mem, cs.words()).unwrap();
        gpu
    }

    /// The RS states of a copy or clear on a two-pipe core in single-pipe mode.
    fn rs_states(
        cs: &mut CmdStream,
        config: u32,
        src_stride: u32,
        dst_stride: u32,
        w: u32,
        h: u32,
    ) {
        cs.set_state(RS_CONFIG, config);
        cs.set_state(RS_SOURCE_STRIDE, src_stride);
        cs.set_state(RS_DEST_STRIDE, dst_stride);
        cs.set_states(RS_PIPE_SOURCE_ADDR, &[SRC, SRC]);
        cs.set_states(RS_PIPE_DEST_ADDR, &[DST, DST]);
        cs.set_states(RS_PIPE_OFFSET, &[0, 0]);
        cs.set_state(RS_WINDOW_SIZE, (h << 16) | w);
        cs.set_states(RS_DITHER, &[u32::MAX, u32::MAX]);
        cs.set_state(RS_EXTRA_CONFIG, 0);
    }

    #[test]
    fn a_tiled_surface_resolves_to_linear_pixel_for_pixel() {
        // 16×8 pixels of 32 bits, 4×4-tiled: pixel (x, y) is element
        // ((y / 4) * 4 + x / 4) * 16 + (y % 4) * 4 + x % 4, and holds y << 8 | x.
        let mut src = vec![0u8; 16 * 8 * 4];
        for y in 0..8u32 {
            for x in 0..16u32 {
                let e = ((y / 4) * 4 + x / 4) * 16 + (y % 4) * 4 + x % 4;
                src[e as usize * 4..][..4].copy_from_slice(&((y << 8) | x).to_le_bytes());
            }
        }
        let mut mem = Buffers::new();
        mem.map(SRC, src);
        mem.map(DST, vec![0; 16 * 8 * 4]);
        let mut cs = CmdStream::new();
        // A8R8G8B8 both sides, source tiled; stride 64 bytes (times 4 when tiled).
        rs_states(&mut cs, 6 | (1 << 7) | (6 << 8), 256, 64, 16, 8);
        cs.set_state(RS_CLEAR_CONTROL, 0);
        cs.set_state(RS_KICKER, 0xbeeb_beeb);
        run("gc2000", &mut mem, &cs);
        let out = mem.get(DST).unwrap();
        for y in 0..8u32 {
            for x in 0..16u32 {
                let at = ((y * 16 + x) * 4) as usize;
                let v = u32::from_le_bytes(out[at..at + 4].try_into().unwrap());
                assert_eq!(v, (y << 8) | x, "pixel ({x}, {y})");
            }
        }
    }

    #[test]
    fn a_clear_fills_exactly_the_window_with_the_masked_bytes() {
        // A 32×8 linear D24S8-like surface of 0xaa bytes; clear a 16×4 window's stencil bytes
        // (mask 0x1111: byte 0 of every pixel) to 0x42.
        let mut mem = Buffers::new();
        mem.map(SRC, vec![0; 4]);
        mem.map(DST, vec![0xaa; 32 * 8 * 4]);
        let mut cs = CmdStream::new();
        rs_states(&mut cs, 6 | (6 << 8), 0, 128, 16, 4);
        cs.set_states(RS_FILL_VALUE, &[0x1234_5642, 0, 0x1234_5642, 0]);
        cs.set_state(RS_CLEAR_CONTROL, (1 << 16) | 0x1111);
        cs.set_state(RS_KICKER, 0xbeeb_beeb);
        run("gc2000", &mut mem, &cs);
        let out = mem.get(DST).unwrap();
        for y in 0..8usize {
            for x in 0..32usize {
                let px = &out[(y * 32 + x) * 4..][..4];
                let inside = x < 16 && y < 4;
                let want = if inside {
                    [0x42, 0xaa, 0xaa, 0xaa]
                } else {
                    [0xaa; 4]
                };
                assert_eq!(px, want, "pixel ({x}, {y})");
            }
        }
    }

    #[test]
    fn a_copy_converts_a8r8g8b8_to_r5g6b5_swapping_red_and_blue() {
        // One row of 16 pixels; pixel 0 is A=0x80 R=0xff G=0x84 B=0x10.
        let mut src = vec![0u8; 16 * 4];
        src[..4].copy_from_slice(&0x80ff_8410u32.to_le_bytes());
        let mut mem = Buffers::new();
        mem.map(SRC, src);
        mem.map(DST, vec![0xff; 16 * 2]);
        let mut cs = CmdStream::new();
        rs_states(&mut cs, 6 | (4 << 8) | (1 << 29), 64, 32, 16, 1);
        cs.set_state(RS_CLEAR_CONTROL, 0);
        cs.set_state(RS_KICKER, 0xbeeb_beeb);
        run("gc2000", &mut mem, &cs);
        let out = mem.get(DST).unwrap();
        // Swapped: R=0x10 -> 5 bits 0x02, G=0x84 -> 6 bits 0x21, B=0xff -> 0x1f.
        let want: u16 = (0x02 << 11) | (0x21 << 5) | 0x1f;
        assert_eq!(u16::from_le_bytes([out[0], out[1]]), want);
        assert_eq!(u16::from_le_bytes([out[2], out[3]]), 0, "black stays black");
    }

    #[test]
    fn downsampling_averages_each_2x2_block() {
        // 32×2 source samples resolve to 16×1 pixels; block 0 holds greys 0, 10, 20, 30.
        let mut src = vec![0u8; 32 * 2 * 4];
        for (i, g) in [(0usize, 0u8), (1, 10), (32, 20), (33, 30)] {
            src[i * 4..][..4].copy_from_slice(&[g, g, g, 0xff]);
        }
        let mut mem = Buffers::new();
        mem.map(SRC, src);
        mem.map(DST, vec![0; 16 * 4]);
        let mut cs = CmdStream::new();
        rs_states(&mut cs, 6 | (6 << 8) | (3 << 5), 128, 64, 32, 2);
        cs.set_state(RS_CLEAR_CONTROL, 0);
        cs.set_state(RS_KICKER, 0xbeeb_beeb);
        run("gc2000", &mut mem, &cs);
        let out = mem.get(DST).unwrap();
        assert_eq!(&out[..4], &[15, 15, 15, 0xff]);
    }

    #[test]
    fn a_copy_reads_cleared_tiles_as_the_clear_value() {
        // A tiled 16×4 surface is four 64-byte tiles; tiles 1 and 3 are cleared (status
        // 0b01_00_01_00), tiles 0 and 2 hold 0x11 bytes.
        let mut mem = Buffers::new();
        mem.map(SRC, vec![0x11; 256]);
        mem.map(DST, vec![0; 256]);
        mem.map(0x30_0000, 0x44u32.to_le_bytes().to_vec());
        let mut cs = CmdStream::new();
        rs_states(&mut cs, 6 | (1 << 7) | (6 << 8), 256, 64, 16, 4);
        cs.set_state(TS_MEM_CONFIG, TS_COLOR_FAST_CLEAR);
        cs.set_state(TS_COLOR_STATUS_BASE, 0x30_0000);
        cs.set_state(TS_COLOR_SURFACE_BASE, SRC);
        cs.set_state(TS_COLOR_CLEAR_VALUE, 0xff00_00ff);
        cs.set_state(TS_COLOR_CLEAR_VALUE_EXT, 0xff00_00ff);
        cs.set_state(RS_CLEAR_CONTROL, 0);
        cs.set_state(RS_KICKER, 0xbeeb_beeb);
        run("gc2000", &mut mem, &cs);
        let out = mem.get(DST).unwrap();
        for x in 0..16usize {
            let v = u32::from_le_bytes(out[x * 4..][..4].try_into().unwrap());
            let want = if (x / 4) % 2 == 1 {
                0xff00_00ff
            } else {
                0x1111_1111
            };
            assert_eq!(v, want, "pixel ({x}, 0)");
        }
    }

    #[test]
    fn an_in_place_resolve_fills_only_cleared_tiles() {
        let mut mem = Buffers::new();
        mem.map(SRC, vec![0x11; 256]);
        mem.map(0x30_0000, 0b0100_0100u32.to_le_bytes().to_vec());
        let mut cs = CmdStream::new();
        cs.set_state(TS_MEM_CONFIG, TS_COLOR_FAST_CLEAR);
        cs.set_state(TS_COLOR_STATUS_BASE, 0x30_0000);
        cs.set_state(TS_COLOR_SURFACE_BASE, SRC);
        cs.set_state(TS_COLOR_CLEAR_VALUE, 0x0102_0304);
        cs.set_state(TS_COLOR_CLEAR_VALUE_EXT, 0x0102_0304);
        cs.set_state(RS_KICKER_INPLACE, 3);
        run("gc3000", &mut mem, &cs);
        let out = mem.get(SRC).unwrap();
        assert_eq!(&out[..4], &[0x11; 4]);
        assert_eq!(&out[64..68], &[4, 3, 2, 1]);
        // Tile 3 is cleared too but past the count.
        assert_eq!(&out[192..196], &[0x11; 4]);
    }
}
