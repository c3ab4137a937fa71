//! State-based samplers (pre-HALTI5): the TE_SAMPLER_* registers at 0x02000 on cores before
//! HALTI1 (12 samplers), and their NTE_SAMPLER_* copies at 0x10000 from HALTI1 on (32
//! samplers), which Mesa picks by `halti >= 1` (etnaviv_texture_state.c).
//!
//! Facts (Mesa hw/state_3d.xml.h and etnaviv_texture_state.c):
//! - CONFIG0: TYPE 0-2 (0: sampler off), UWRAP 3-4, VWRAP 5-6, MIN 7-8, MIP 9-10, MAG 11-12,
//!   FORMAT 13-17, ROUND_UV 19, ADDRESSING_MODE 20-21, ENDIAN 22-23, ANISOTROPY 24-31.
//! - SIZE: width 0-15, height 16-31 of level 0. LOG_SIZE: log2 of them (5.5 fixed point),
//!   ASTC 28, INT_FILTER 29, SRGB 31.
//! - LOD_CONFIG: BIAS_ENABLE 0, MAX 1-10, MIN 11-20, BIAS 21-30, all 5.5 fixed point and in
//!   absolute level numbers (Mesa adds the view's first level to the sampler's clamps).
//! - 3D_CONFIG: DEPTH 0-13, LOG_DEPTH 16-25, R wrap 28-29.
//! - CONFIG1: FORMAT_EXT 0-5, swizzles 8/12/16/20, TS_MODE 23, TEXTURE_ARRAY 24,
//!   SEAMLESS_CUBE_MAP 25, HALIGN 26-28, USE_TS 30.
//! - LOD_ADDR: 14 levels; LINEAR_STRIDE of level 0.
//! - NTE only: BASELOD with COMPARE_ENABLE 16 and COMPARE_FUNC 20-22 (the shadow comparison
//!   from HALTI2 on; earlier cores compare in the shader, which Mesa lowers), and BASELOD 0-3,
//!   MAXLOD 8-11, BASELOD_ENABLE 23, which Mesa leaves 0.
//!
//! ROUND_UV and INT_FILTER select the hardware's coordinate and filter precision; the model
//! filters in double precision whatever they say. LOG_SIZE's logarithms repeat SIZE, which the
//! model uses for the level of detail.

use super::spec::{self, field, signed_field, unmodelled, Spec};
use crate::etnaviv::gpu::states::States;
use crate::etnaviv::gpu::GpuError;

/// Register addresses of one family (TE or NTE).
struct Bank {
    config0: u32,
    size: u32,
    log_size: u32,
    lod_config: u32,
    config_3d: u32,
    config1: u32,
    /// Level `l` of sampler `i` is at `lod_addr + i * sampler_step + l * level_step`.
    lod_addr: u32,
    sampler_step: u32,
    level_step: u32,
    /// Level 0's LINEAR_STRIDE of sampler `i` is at `linear_stride + i * linear_step`.
    linear_stride: u32,
    linear_step: u32,
    baselod: Option<u32>,
}

const TE: Bank = Bank {
    config0: 0x2000,
    size: 0x2040,
    log_size: 0x2080,
    lod_config: 0x20c0,
    config_3d: 0x2180,
    config1: 0x21c0,
    lod_addr: 0x2400,
    sampler_step: 4,
    level_step: 0x40,
    linear_stride: 0x2c00,
    linear_step: 0x40,
    baselod: None,
};

const NTE: Bank = Bank {
    config0: 0x10000,
    size: 0x10080,
    log_size: 0x10100,
    lod_config: 0x10180,
    config_3d: 0x10300,
    config1: 0x10380,
    lod_addr: 0x10800,
    sampler_step: 0x40,
    level_step: 4,
    linear_stride: 0x10280,
    linear_step: 4,
    baselod: Some(0x10700),
};

/// LOD_ADDR entries per sampler.
const LEVELS: u32 = 14;

/// Sampler `i` as the state registers program it, `None` when it is off (CONFIG0 0).
pub fn decode(states: &States, i: u32, nte: bool) -> Result<Option<Spec>, GpuError> {
    let bank = if nte { &NTE } else { &TE };
    let at = |base: u32| states.get(base + 4 * i);
    let config0 = at(bank.config0);
    if field(config0, 0, 3) == 0 {
        return Ok(None);
    }
    let config1 = at(bank.config1);
    let log_size = at(bank.log_size);
    let lod_config = at(bank.lod_config);
    let config_3d = at(bank.config_3d);
    let size = at(bank.size);
    spec::check_config0(config0)?;
    if log_size & (1 << 28) != 0 {
        return Err(unmodelled("texture ASTC"));
    }
    if config1 & (1 << 30) != 0 {
        return Err(unmodelled("sampler tile status (CONFIG1 USE_TS)"));
    }
    if config1 & (1 << 25) != 0 {
        return Err(unmodelled("seamless cube map"));
    }
    let compare = match bank.baselod {
        Some(b) => {
            let baselod = states.get(b + 4 * i);
            if baselod & (1 << 23) != 0 {
                return Err(unmodelled("sampler BASELOD_ENABLE"));
            }
            (baselod & (1 << 16) != 0).then(|| spec::compare_func(field(baselod, 20, 3)))
        }
        None => None,
    };
    let shape = spec::shape(field(config0, 0, 3), config1 & (1 << 24) != 0)?;
    let (layout, halign) = spec::layout(field(config0, 20, 2), field(config1, 26, 3))?;
    let (width, height) = (field(size, 0, 16), field(size, 16, 16));
    let depth = match shape {
        spec::Shape::D3 | spec::Shape::D2Array => field(config_3d, 0, 14).max(1),
        _ => 1,
    };
    let min_lod = f64::from(field(lod_config, 11, 10)) / 32.0;
    let max_lod = f64::from(field(lod_config, 1, 10)) / 32.0;
    let bias = if lod_config & 1 != 0 {
        f64::from(signed_field(lod_config, 21, 10)) / 32.0
    } else {
        0.0
    };
    let level_addr = (0..LEVELS)
        .map(|l| states.get(bank.lod_addr + i * bank.sampler_step + l * bank.level_step))
        .collect();
    Ok(Some(Spec {
        shape,
        format: spec::format(field(config0, 13, 5), field(config1, 0, 6))?,
        signed_int: false,
        swizzle: spec::swizzle(config1)?,
        srgb: log_size & (1 << 31) != 0,
        layout,
        halign,
        linear_stride: states.get(bank.linear_stride + i * bank.linear_step),
        slice_stride: None,
        size: [width, height, depth],
        base_level: 0,
        max_level: LEVELS - 1,
        level_addr,
        wrap: [
            spec::wrap(field(config0, 3, 2))?,
            spec::wrap(field(config0, 5, 2))?,
            spec::wrap(field(config_3d, 28, 2))?,
        ],
        min: spec::filter(field(config0, 7, 2), "min")?,
        mag: spec::filter(field(config0, 11, 2), "mag")?,
        mip: spec::mip_filter(field(config0, 9, 2))?,
        min_lod,
        max_lod,
        bias,
        compare,
    }))
}
