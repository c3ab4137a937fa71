//! The texture unit: sampler and texture states (TE/NTE registers before HALTI5, descriptors
//! from HALTI5 on), texel fetch from memory in the driver's layouts and formats, and filtering.
//!
//! A draw asks for a [`TextureUnit`] per shader stage ([`Gpu::texture_unit`]): the decoded state
//! of every sampler the stage can reach, with owned copies of the texels those samplers can
//! read, so it can be boxed into the ISA simulator as its [`Sampler`].
//!
//! Sampler numbering (facts from Mesa's etnaviv_screen.c, etnaviv_texture.c,
//! etnaviv_compiler_nir_emit.c): vertex and fragment samplers share one space. Fragment
//! samplers come first; vertex sampler `n` is sampler `vertex_offset + n` (8 before HALTI1,
//! 16 from it on), and the compiler puts exactly that number in a vertex shader's `tex.id`.
//! So `tex.id` is the sampler index in both stages, and the state (or descriptor) of that
//! index is what it reads. HALTI5 cores also have PS_SAMPLER_BASE and VS_SAMPLER_BASE, which
//! Mesa sets to 0 and 0x20 once at context start while numbering samplers as above; what
//! other values would do is not known, so the model accepts exactly those.
//!
//! Which states program which cores: TE registers before HALTI1, their NTE copies from HALTI1
//! to HALTI4, descriptors from HALTI5 ([`te`], [`descriptor`]); the sampler tile-status
//! registers (TS_SAMPLER_*), which let a sampler read a fast-cleared surface, are checked to
//! be off.

pub mod descriptor;
pub mod format;
pub mod spec;
pub mod te;
pub mod tiling;
pub mod view;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use super::memory::Memory;
use super::{Gpu, GpuError};
use crate::nir::interp::{Sampler, TexRequest};
use view::View;

const PS_SAMPLER_BASE: u32 = 0x1058;
const VS_SAMPLER_BASE: u32 = 0x08a8;
/// TS_SAMPLER_CONFIG (8 samplers): ENABLE is bit 0. STATUS_BASE, CLEAR_VALUE, CLEAR_VALUE2
/// and SURFACE_BASE only matter when it is set.
const TS_SAMPLER_CONFIG: u32 = 0x1720;

/// States the texture unit interprets.
pub const STATES: &[Range<u32>] = &[
    PS_SAMPLER_BASE..PS_SAMPLER_BASE + 4,
    VS_SAMPLER_BASE..VS_SAMPLER_BASE + 4,
    // TS_SAMPLER_CONFIG, STATUS_BASE, CLEAR_VALUE, CLEAR_VALUE2; SURFACE_BASE.
    0x1720..0x17a0,
    0x1a80..0x1aa0,
    // The state-based samplers ([`te`]).
    // TE: CONFIG0, SIZE, LOG_SIZE, LOD_CONFIG (12 samplers each, 0x40 apart).
    0x2000..0x2030,
    0x2040..0x2070,
    0x2080..0x20b0,
    0x20c0..0x20f0,
    // TE: 3D_CONFIG, CONFIG1.
    0x2180..0x21b0,
    0x21c0..0x21f0,
    // TE: LOD_ADDR (14 levels × 0x40), and level 0's LINEAR_STRIDE of each sampler (0x40
    // apart; the entries between are other levels', which Mesa never writes).
    0x2400..0x2780,
    0x2c00..0x2c04,
    0x2c40..0x2c44,
    0x2c80..0x2c84,
    0x2cc0..0x2cc4,
    0x2d00..0x2d04,
    0x2d40..0x2d44,
    0x2d80..0x2d84,
    0x2dc0..0x2dc4,
    0x2e00..0x2e04,
    0x2e40..0x2e44,
    0x2e80..0x2e84,
    0x2ec0..0x2ec4,
    // NTE (32 samplers each): CONFIG0, SIZE, LOG_SIZE, LOD_CONFIG, LINEAR_STRIDE, 3D_CONFIG,
    // CONFIG1, ASTC0, BASELOD, ADDR_LOD.
    0x10000..0x10200,
    0x10280..0x10400,
    0x10500..0x10580,
    0x10700..0x10780,
    0x10800..0x11000,
    // The descriptor samplers ([`descriptor`]): the descriptor cache controls (UNK14C40,
    // FLUSH, INVALIDATE), then ADDR, TX_CTRL, SAMP_CTRL0/1, SAMP_LOD_MINMAX, SAMP_LOD_BIAS and
    // SAMP_ANISOTROPY, 32 samplers each.
    0x14c40..0x14c4c,
    0x15c00..0x15c80,
    0x15e00..0x15e80,
    0x16c00..0x16c80,
    0x16e00..0x16e80,
    0x17000..0x17080,
    0x17200..0x17280,
    0x17400..0x17480,
];

/// A shader stage, which decides the samplers a texture unit holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Vertex,
    Fragment,
}

/// The enabled samplers one stage can reach at a draw, by sampler index (= `tex.id`), with
/// their texels. Cloning shares the texels.
#[derive(Clone, Debug, Default)]
pub struct TextureUnit {
    views: BTreeMap<u32, Arc<View>>,
}

impl TextureUnit {
    /// How many coordinates sampler `unit` takes: 1, 2 or 3 (cube maps and arrays 3); 2 for a
    /// sampler that is off.
    pub fn dims(&self, unit: u32) -> u32 {
        self.views.get(&unit).map_or(2, |v| v.dims())
    }

    /// The sampler indices that are enabled.
    pub fn units(&self) -> impl Iterator<Item = u32> + '_ {
        self.views.keys().copied()
    }

    fn view(&self, unit: u32) -> Result<&View, String> {
        self.views
            .get(&unit)
            .map(Arc::as_ref)
            .ok_or_else(|| format!("texture sampler {unit} is not enabled"))
    }
}

impl Sampler for TextureUnit {
    fn sample(&self, req: &TexRequest) -> Result<[f64; 4], String> {
        self.view(req.sampler)?.sample(req)
    }

    fn size(&self, texture: u32, lod: u32) -> [u32; 3] {
        self.view(texture).map_or([0; 3], |v| v.size(lod))
    }

    fn levels(&self, texture: u32) -> u32 {
        self.view(texture).map_or(0, |v| v.levels())
    }
}

impl Gpu {
    /// The texture unit as `stage` sees it now: every enabled sampler of the stage, decoded,
    /// with the texels it can reach copied out of `mem`.
    pub fn texture_unit(&self, mem: &dyn Memory, stage: Stage) -> Result<TextureUnit, GpuError> {
        let limits = self.specs.sampler_limits();
        let range = match stage {
            Stage::Fragment => 0..limits.fragment_count,
            Stage::Vertex => limits.vertex_offset..limits.vertex_offset + limits.vertex_count,
        };
        let halti = self.specs.halti();
        let mut views = BTreeMap::new();
        for i in range {
            let spec = if halti >= 5 {
                descriptor::decode(&self.states, mem, i)?
            } else {
                te::decode(&self.states, i, halti >= 1)?
            };
            let Some(spec) = spec else { continue };
            if i < 8 && self.states.get(TS_SAMPLER_CONFIG + 4 * i) & 1 != 0 {
                return Err(GpuError::Unmodelled(
                    "sampler tile status (TS_SAMPLER_CONFIG ENABLE)".into(),
                ));
            }
            views.insert(i, Arc::new(View::load(spec, mem)?));
        }
        // The sampler base only matters to a stage that samples: Mesa leaves it unset until
        // a draw binds a texture.
        if halti >= 5 && !views.is_empty() {
            let (ps, vs) = (
                self.states.get(PS_SAMPLER_BASE),
                self.states.get(VS_SAMPLER_BASE),
            );
            let bad = match stage {
                Stage::Fragment => (ps != 0).then_some(("PS_SAMPLER_BASE", ps)),
                Stage::Vertex => (vs != 0x20).then_some(("VS_SAMPLER_BASE", vs)),
            };
            if let Some((name, v)) = bad {
                return Err(GpuError::Unmodelled(format!("{name} 0x{v:x}")));
            }
        }
        Ok(TextureUnit { views })
    }
}
