//! Descriptor-based samplers (HALTI5, GC7000): the texture half of the state lives in a
//! descriptor in memory, the sampler half in NTE_DESCRIPTOR_* registers.
//!
//! Facts (Mesa hw/texdesc_3d.xml.h, hw/state_3d.xml.h, etnaviv_texture_desc.c):
//! - NTE_DESCRIPTOR_ADDR (0x15c00 + 4i) points at sampler i's descriptor; 0 or a descriptor
//!   whose CONFIG0 TYPE is 0 (Mesa's dummy descriptor for unused samplers) is a sampler off.
//! - The descriptor: LOD_ADDR[16] at 0x00, CONFIG0 0x40 (TYPE, FORMAT, ADDRESSING_MODE as in
//!   the TE registers), SIZE 0x44 and LOG_SIZE_EXT 0x74 of the *base* level, LINEAR_STRIDE
//!   0x48, CONFIG1 0x4c (as TE), BASELOD 0x68 (BASELOD 0-3, MAXLOD 8-11, COMPARE_ENABLE 16,
//!   COMPARE_FUNC 20-22, BASELOD_ENABLE 23), CONFIG2 0x6c (SIGNED_INT8 bit 18, SIGNED_INT16
//!   bit 19), CONFIG3 0x70 (MSAA bit 3), SLICE 0x7c (level 0's layer pitch), 3D_CONFIG 0x84
//!   (DEPTH 0-13).
//! - SAMP_CTRL0 (0x16c00 + 4i): UWRAP 0-2, VWRAP 3-5, WWRAP 6-8, MIN 9-10, MIP 11-12,
//!   MAG 13-14, COMPARE_ENABLE 17, COMPARE_FUNC 18-20, INT_FILTER 23. SAMP_CTRL1 (0x16e00):
//!   SRGB bit 2. SAMP_LOD_MINMAX (0x17000): MAX 0-15, MIN 16-31 in 8.8 fixed point, relative
//!   to the base level (they are GL's sampler clamps). SAMP_LOD_BIAS (0x17200): BIAS 0-15
//!   (8.8), ENABLE 16. SAMP_ANISOTROPY (0x17400). TX_CTRL (0x15e00): TS_ENABLE bit 1.
//! - NTE_DESCRIPTOR_UNK14C40 (set to 1 at context start), DESCRIPTOR_FLUSH and INVALIDATE
//!   manage the descriptor cache; the model reads descriptors at draw time, which is what the
//!   driver invalidates the cache for.

use super::spec::{self, field, signed_field, unmodelled, Spec};
use crate::etnaviv::gpu::memory::Memory;
use crate::etnaviv::gpu::states::States;
use crate::etnaviv::gpu::GpuError;

const ADDR: u32 = 0x15c00;
const TX_CTRL: u32 = 0x15e00;
const SAMP_CTRL0: u32 = 0x16c00;
const SAMP_CTRL1: u32 = 0x16e00;
const SAMP_LOD_MINMAX: u32 = 0x17000;
const SAMP_LOD_BIAS: u32 = 0x17200;
const SAMP_ANISOTROPY: u32 = 0x17400;

/// Bytes of a descriptor the model reads (through BORDER_COLOR_A).
const DESCRIPTOR_BYTES: usize = 0x9c;
/// LOD_ADDR entries of a descriptor.
const LEVELS: u32 = 16;

/// Sampler `i` as its registers and descriptor program it, `None` when it is off.
pub fn decode(states: &States, mem: &dyn Memory, i: u32) -> Result<Option<Spec>, GpuError> {
    let at = |base: u32| states.get(base + 4 * i);
    let addr = at(ADDR);
    if addr == 0 {
        return Ok(None);
    }
    let mut bytes = [0u8; DESCRIPTOR_BYTES];
    mem.read(addr, &mut bytes)?;
    let word = |off: usize| {
        u32::from_le_bytes([bytes[off], bytes[off + 1], bytes[off + 2], bytes[off + 3]])
    };
    let config0 = word(0x40);
    if field(config0, 0, 3) == 0 {
        return Ok(None);
    }
    let (size, config1, baselod, config2, config3, config_3d) = (
        word(0x44),
        word(0x4c),
        word(0x68),
        word(0x6c),
        word(0x70),
        word(0x84),
    );
    let (ctrl0, ctrl1, minmax, bias) = (
        at(SAMP_CTRL0),
        at(SAMP_CTRL1),
        at(SAMP_LOD_MINMAX),
        at(SAMP_LOD_BIAS),
    );
    spec::check_config0(config0)?;
    if at(SAMP_ANISOTROPY) != 0 {
        return Err(unmodelled("texture anisotropy"));
    }
    if at(TX_CTRL) & 2 != 0 || config1 & (1 << 30) != 0 {
        return Err(unmodelled("sampler tile status (TX_CTRL TS_ENABLE)"));
    }
    if config1 & (1 << 25) != 0 {
        return Err(unmodelled("seamless cube map"));
    }
    if config3 & (1 << 3) != 0 {
        return Err(unmodelled("multisampled texture"));
    }
    if baselod & (1 << 23) != 0 {
        return Err(unmodelled("descriptor BASELOD_ENABLE"));
    }
    let shape = spec::shape(field(config0, 0, 3), config1 & (1 << 24) != 0)?;
    let (layout, halign) = spec::layout(field(config0, 20, 2), field(config1, 26, 3))?;
    let depth = match shape {
        spec::Shape::D3 | spec::Shape::D2Array => field(config_3d, 0, 14).max(1),
        _ => 1,
    };
    // The comparison may come from the sampler registers or the descriptor; Mesa 23.3 sets
    // neither, so take whichever is enabled.
    let compare = if ctrl0 & (1 << 17) != 0 {
        Some(spec::compare_func(field(ctrl0, 18, 3)))
    } else if baselod & (1 << 16) != 0 {
        Some(spec::compare_func(field(baselod, 20, 3)))
    } else {
        None
    };
    let base_level = field(baselod, 0, 4);
    let slice = word(0x7c);
    Ok(Some(Spec {
        shape,
        format: spec::format(field(config0, 13, 5), field(config1, 0, 6))?,
        signed_int: config2 & (3 << 18) != 0,
        swizzle: spec::swizzle(config1)?,
        srgb: ctrl1 & 4 != 0,
        layout,
        halign,
        linear_stride: word(0x48),
        slice_stride: (slice != 0).then_some(slice),
        size: [field(size, 0, 16), field(size, 16, 16), depth],
        base_level,
        max_level: field(baselod, 8, 4).max(base_level),
        level_addr: (0..LEVELS).map(|l| word(4 * l as usize)).collect(),
        wrap: [
            spec::wrap(field(ctrl0, 0, 3))?,
            spec::wrap(field(ctrl0, 3, 3))?,
            spec::wrap(field(ctrl0, 6, 3))?,
        ],
        min: spec::filter(field(ctrl0, 9, 2), "min")?,
        mag: spec::filter(field(ctrl0, 13, 2), "mag")?,
        mip: spec::mip_filter(field(ctrl0, 11, 2))?,
        min_lod: f64::from(field(minmax, 16, 16)) / 256.0,
        max_lod: f64::from(field(minmax, 0, 16)) / 256.0,
        bias: if bias & (1 << 16) != 0 {
            f64::from(signed_field(bias, 0, 16)) / 256.0
        } else {
            0.0
        },
        compare,
    }))
}
