//! The pixel engine: alpha test, stencil and depth, blending and colour writes of each
//! fragment, through tile status when it is enabled.
//!
//! Facts (Mesa's hw/state_3d.xml.h, etnaviv_state.c, etnaviv_zsa.c, etnaviv_blend.c,
//! etnaviv_emit.c): cores from HALTI0 on take per-pipe colour and depth addresses
//! (PE_PIPE_COLOR_ADDR / PE_PIPE_DEPTH_ADDR), older ones PE_COLOR_ADDR / PE_DEPTH_ADDR; the
//! strides are pixel-row strides. Render targets are tiled or (SUPER_TILED bit) supertiled;
//! PE_LOGIC_OP's SINGLE_BUFFER field is 1 for a linear render target and 2 or 3 when both
//! pipes share one buffer, and 0 on two-pipe cores means the target is split between the pipes
//! (the driver asserts render targets on such cores are MULTI). Mesa 23.3 renders to one
//! colour target, so the HALTI5 PE_RT_* states stay unused.
//!
//! Decisions of the model, all invisible to what the driver reads back: the depth and stencil
//! tests run here whether the driver asked for them early (RA) or late (PE) — EARLY_Z and
//! DISABLE_ZS only choose where, and the driver picks early only when the result is the same;
//! depth is quantised by rounding `z * PE_DEPTH_NORMALIZE`; dithering is treated as a no-op on
//! formats with 8 or more bits per channel and counted as unmodelled on narrower ones; the
//! OVERWRITE bit (a bandwidth hint) has no effect; tile-status auto-disable counts are a
//! bandwidth feature with no visible effect and are ignored.

mod blend;
pub mod color;

use std::ops::Range;

use self::blend::{compare, linear_to_srgb, logic_op, srgb_to_linear};
use self::color::{ColorFormat, Kind};
pub use super::fragment::Fragment;
use super::layout::tile_status::{read_through, write_through, TileStatus};
use super::layout::{has_cache128, Surface, Tiling};
use super::memory::Memory;
use super::resolve::{
    TS_COLOR_CLEAR_VALUE, TS_COLOR_CLEAR_VALUE_EXT, TS_COLOR_FAST_CLEAR, TS_COLOR_STATUS_BASE,
    TS_COLOR_SURFACE_BASE, TS_MEM_CONFIG,
};
use super::{Gpu, GpuError};
use crate::etnaviv::isa::float::f16_to_f32;

const PE_DEPTH_CONFIG: u32 = 0x1400;
const PE_DEPTH_NORMALIZE: u32 = 0x140c;
const PE_DEPTH_ADDR: u32 = 0x1410;
const PE_DEPTH_STRIDE: u32 = 0x1414;
const PE_STENCIL_OP: u32 = 0x1418;
const PE_STENCIL_CONFIG: u32 = 0x141c;
const PE_ALPHA_OP: u32 = 0x1420;
const PE_ALPHA_BLEND_COLOR: u32 = 0x1424;
const PE_ALPHA_CONFIG: u32 = 0x1428;
const PE_COLOR_FORMAT: u32 = 0x142c;
const PE_COLOR_ADDR: u32 = 0x1430;
const PE_COLOR_STRIDE: u32 = 0x1434;
const PE_HDEPTH_CONTROL: u32 = 0x1454;
const PE_PIPE_COLOR_ADDR: u32 = 0x1460;
const PE_PIPE_DEPTH_ADDR: u32 = 0x1480;
const PE_STENCIL_CONFIG_EXT: u32 = 0x14a0;
const PE_LOGIC_OP: u32 = 0x14a4;
const PE_DITHER: u32 = 0x14a8;
const PE_ALPHA_COLOR_EXT0: u32 = 0x14b0;
const PE_ALPHA_COLOR_EXT1: u32 = 0x14b4;
const PE_STENCIL_CONFIG_EXT2: u32 = 0x14b8;
const PE_MEM_CONFIG: u32 = 0x14bc;

const TS_DEPTH_STATUS_BASE: u32 = 0x1664;
const TS_DEPTH_SURFACE_BASE: u32 = 0x1668;
const TS_DEPTH_CLEAR_VALUE: u32 = 0x166c;
/// TS_MEM_CONFIG: depth tile status enabled.
const TS_DEPTH_FAST_CLEAR: u32 = 1 << 0;

/// States the pixel engine interprets, with the tile-status states it shares with the RS
/// (TS_FLUSH_CACHE only orders work; the auto-disable counts, see above). PE_DEPTH_NEAR/FAR
/// only matter to W-buffering, which is reported when met.
pub const STATES: &[Range<u32>] = &[
    0x1400..0x1438,
    PE_HDEPTH_CONTROL..0x1458,
    0x1460..0x14c0,
    0x1650..0x1678,
    TS_COLOR_CLEAR_VALUE_EXT..0x16c0,
];

/// A stencil side's function, operations, reference and masks.
struct StencilSide {
    func: u32,
    fail: u32,
    depth_fail: u32,
    pass: u32,
    reference: u32,
    mask: u32,
    write_mask: u32,
}

/// Stencil operation `op` (keep, zero, replace, increment and decrement saturating, invert,
/// increment and decrement wrapping) on an 8-bit value.
fn stencil_op(op: u32, s: u32, reference: u32) -> u32 {
    match op & 7 {
        0 => s,
        1 => 0,
        2 => reference,
        3 => (s + 1).min(255),
        4 => s.saturating_sub(1),
        5 => !s & 0xff,
        6 => (s + 1) & 0xff,
        _ => s.wrapping_sub(1) & 0xff,
    }
}

fn le_u64(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |v, &b| (v << 8) | b as u64)
}

impl Gpu {
    /// A PE render target (colour or depth) as its states describe it.
    fn pe_target(&self, depth: bool, bpp: u32) -> Surface {
        let s = &self.states;
        let single_buffer = (s.get(PE_LOGIC_OP) >> 8) & 3;
        let (single, pipes, stride, supertiled) = if depth {
            let st = s.get(PE_DEPTH_CONFIG) & (1 << 26) != 0;
            (PE_DEPTH_ADDR, PE_PIPE_DEPTH_ADDR, PE_DEPTH_STRIDE, st)
        } else {
            let st = s.get(PE_COLOR_FORMAT) & (1 << 20) != 0;
            (PE_COLOR_ADDR, PE_PIPE_COLOR_ADDR, PE_COLOR_STRIDE, st)
        };
        let bases = if self.specs.halti() >= 0 {
            [s.at(pipes, 0), s.at(pipes, 1)]
        } else {
            [s.get(single); 2]
        };
        let tiling = if supertiled {
            Tiling::Super
        } else if single_buffer == 1 && !depth {
            Tiling::Linear
        } else {
            Tiling::Tiled
        };
        Surface {
            bases,
            stride: s.get(stride),
            bpp,
            tiling,
            multi: self.specs.pixel_pipes > 1 && single_buffer == 0,
        }
    }

    /// The tile status of the colour (`depth` false) or depth target, when enabled.
    fn pe_tile_status(&self, depth: bool) -> Option<TileStatus> {
        let s = &self.states;
        let (enable, status, surface, clear, mode_bit) = if depth {
            let v = s.get(TS_DEPTH_CLEAR_VALUE);
            let st = (TS_DEPTH_STATUS_BASE, TS_DEPTH_SURFACE_BASE);
            (TS_DEPTH_FAST_CLEAR, st.0, st.1, [v, v], 26)
        } else {
            let clear = [s.get(TS_COLOR_CLEAR_VALUE), s.get(TS_COLOR_CLEAR_VALUE_EXT)];
            let st = (TS_COLOR_STATUS_BASE, TS_COLOR_SURFACE_BASE);
            (TS_COLOR_FAST_CLEAR, st.0, st.1, clear, 24)
        };
        if s.get(TS_MEM_CONFIG) & enable == 0 {
            return None;
        }
        let large = has_cache128(self.specs) && s.get(PE_MEM_CONFIG) & (1 << mode_bit) != 0;
        Some(TileStatus::for_core(
            self.specs,
            s.get(status),
            s.get(surface),
            clear,
            large,
        ))
    }

    /// Runs one fragment through the pixel engine (the draw path hands each one here).
    pub(crate) fn pe_fragment(
        &mut self,
        mem: &mut dyn Memory,
        f: &Fragment,
    ) -> Result<(), GpuError> {
        let alpha_op = self.states.get(PE_ALPHA_OP);
        if alpha_op & 1 != 0 && f.color_count > 0 {
            let a = f32::from_bits(f.colors[0][3]).clamp(0.0, 1.0);
            let a8 = (a * 255.0).round() as u32;
            if !compare((alpha_op >> 4) & 7, a8, (alpha_op >> 8) & 0xff) {
                return Ok(());
            }
        }
        if !self.pe_depth_stencil(mem, f)? {
            return Ok(());
        }
        self.pe_color(mem, f)
    }

    fn stencil_side(&self, back: bool) -> StencilSide {
        let s = &self.states;
        let op = s.get(PE_STENCIL_OP) >> if back { 16 } else { 0 };
        let config = s.get(PE_STENCIL_CONFIG);
        let ext2 = s.get(PE_STENCIL_CONFIG_EXT2);
        let (reference, mask, write_mask) = if back {
            (
                s.get(PE_STENCIL_CONFIG_EXT) & 0xff,
                ext2 & 0xff,
                (ext2 >> 8) & 0xff,
            )
        } else {
            ((config >> 8) & 0xff, (config >> 16) & 0xff, config >> 24)
        };
        StencilSide {
            func: op & 7,
            pass: (op >> 4) & 7,
            fail: (op >> 8) & 7,
            depth_fail: (op >> 12) & 7,
            reference,
            mask,
            write_mask,
        }
    }

    /// The depth and stencil tests and their writes; whether the fragment survives.
    fn pe_depth_stencil(&mut self, mem: &mut dyn Memory, f: &Fragment) -> Result<bool, GpuError> {
        let config = self.states.get(PE_DEPTH_CONFIG);
        if self.states.get(PE_HDEPTH_CONTROL) & 0xf != 0 {
            self.unmodelled("PE hierarchical depth");
        }
        let mode = config & 3;
        if mode == 0 {
            return Ok(true);
        }
        if mode != 1 {
            self.unmodelled("PE W-buffer depth");
        }
        let d24 = config & (1 << 4) != 0;
        let target = self.pe_target(true, if d24 { 4 } else { 2 });
        let ts = self.pe_tile_status(true);
        let at = target.address(f.x, f.y);
        let mut bytes = [0u8; 4];
        let bytes = &mut bytes[..target.bpp as usize];
        read_through(ts.as_ref(), mem, at, bytes)?;
        let old = le_u64(bytes) as u32;

        let max = if d24 { 0xff_ffff } else { 0xffff };
        let normalize = match self.states.get_f32(PE_DEPTH_NORMALIZE) {
            n if n > 0.0 => n,
            _ => max as f32,
        };
        let z = ((f.z.clamp(0.0, 1.0) * normalize).round() as u32).min(max);
        let old_z = if d24 { old >> 8 } else { old };
        let depth_pass = compare((config >> 8) & 7, z, old_z);

        let stencil_mode = self.states.get(PE_STENCIL_CONFIG) & 3;
        let mut new = old;
        let mut stencil_pass = true;
        if stencil_mode != 0 && d24 {
            let side = self.stencil_side(stencil_mode == 2 && !f.front_facing);
            let s = old & 0xff;
            stencil_pass = compare(side.func, side.reference & side.mask, s & side.mask);
            let op = if !stencil_pass {
                side.fail
            } else if !depth_pass {
                side.depth_fail
            } else {
                side.pass
            };
            let updated = stencil_op(op, s, side.reference);
            new = (new & !0xff) | (s & !side.write_mask) | (updated & side.write_mask);
        }
        let survives = depth_pass && stencil_pass;
        if survives && config & (1 << 12) != 0 {
            new = if d24 { (z << 8) | (new & 0xff) } else { z };
        }
        if new != old {
            let n = target.bpp as usize;
            write_through(ts.as_ref(), mem, at, &new.to_le_bytes()[..n])?;
        }
        Ok(survives)
    }

    /// The blend constant in channel order: 8-bit for normalized targets, the half-float
    /// extension states for float targets.
    fn blend_constant(&self, kind: Kind) -> [f32; 4] {
        let s = &self.states;
        if kind == Kind::Float {
            let (e0, e1) = (s.get(PE_ALPHA_COLOR_EXT0), s.get(PE_ALPHA_COLOR_EXT1));
            [e0, e0 >> 16, e1, e1 >> 16].map(|h| f16_to_f32(h as u16))
        } else {
            let c = s.get(PE_ALPHA_BLEND_COLOR);
            [c >> 16, c >> 8, c, c >> 24].map(|v| (v & 0xff) as f32 / 255.0)
        }
    }

    fn pe_color(&mut self, mem: &mut dyn Memory, f: &Fragment) -> Result<(), GpuError> {
        let cf = self.states.get(PE_COLOR_FORMAT);
        let components = (cf >> 8) & 0xf;
        if components == 0 || f.color_count == 0 {
            return Ok(());
        }
        if f.color_count > 1 {
            self.unmodelled("PE multiple render targets");
        }
        let number = if cf & (1 << 4) != 0 {
            (cf >> 24) & 0x7f
        } else {
            cf & 0xf
        };
        let format = ColorFormat::pe(number)
            .ok_or_else(|| GpuError::Unmodelled(format!("PE colour format 0x{number:x}")))?;
        let dither = [0, 1].map(|i| self.states.at(PE_DITHER, i));
        if dither != [u32::MAX; 2] && format.has_narrow_channel() {
            self.unmodelled("PE dithering to a format under 8 bits per channel");
        }
        let target = self.pe_target(false, format.bytes);
        let ts = self.pe_tile_status(false);
        let at = target.address(f.x, f.y);
        let n = format.bytes as usize;
        let mut bytes = [0u8; 8];
        read_through(ts.as_ref(), mem, at, &mut bytes[..n])?;
        let old = le_u64(&bytes[..n]);
        let logic = self.states.get(PE_LOGIC_OP);
        let srgb = logic & (1 << 31) != 0;
        let src = f.colors[0];

        let mut new = if format.kind == Kind::Int {
            format.encode_raw(src)
        } else {
            let mut s = src.map(f32::from_bits);
            if format.kind == Kind::Unorm {
                s = s.map(|v| v.clamp(0.0, 1.0));
            }
            let config = self.states.get(PE_ALPHA_CONFIG);
            let out = if config & 1 != 0 {
                let mut d = format.decode(old);
                if srgb {
                    for c in &mut d[..3] {
                        *c = srgb_to_linear(*c);
                    }
                }
                blend::blend(config, s, d, self.blend_constant(format.kind))
            } else {
                s
            };
            let mut out = out;
            if srgb {
                for c in &mut out[..3] {
                    *c = linear_to_srgb(*c);
                }
            }
            let packed = format.encode(out);
            if format.kind == Kind::Unorm {
                logic_op(logic & 0xf, packed, old)
            } else {
                packed
            }
        };
        // Channels outside the colour mask keep their bits, as does the padding.
        let mut keep = !0u64;
        for i in 0..4 {
            if components & (1 << i) != 0 {
                keep &= !format.channel_mask(i);
            }
        }
        if let Some(p) = format.padding {
            keep &= !(color::mask(p.bits) << p.shift);
        }
        new = (new & !keep) | (old & keep);
        if new != old || ts.is_some() {
            write_through(ts.as_ref(), mem, at, &new.to_le_bytes()[..n])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
