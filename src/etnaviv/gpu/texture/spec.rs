//! One sampler's texture and sampler state, decoded: what both programming models (the TE/NTE
//! state registers and the HALTI5 descriptors) reduce to before the texels are copied.
//!
//! Field encodings shared by both (facts from Mesa's hw/common_3d.xml.h and
//! etnaviv_texture_state.c / etnaviv_texture_desc.c): TEXTURE_TYPE 2 = 2D, 3 = 3D, 5 = cube;
//! wrap 0 repeat, 1 mirrored repeat, 2 clamp to edge, 3 clamp to border; filters 0 none,
//! 1 nearest, 2 linear, 3 anisotropic; swizzle 0-3 pick R, G, B, A, 4 is 0 and 5 is 1;
//! compare functions 0 LEQUAL, 1 GEQUAL, 2 LESS, 3 GREATER, 4 EQUAL, 5 NOTEQUAL, 6 ALWAYS,
//! 7 NEVER.

use super::format::Format;
use super::tiling::Layout;
use crate::etnaviv::gpu::GpuError;
use crate::nir::interp::filtering::CompareFunc;

/// The shape of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// 2D (Mesa also samples 1D textures as 2D ones of height 1).
    D2,
    /// 3D: depth slices that minify with the level.
    D3,
    /// Six faces, addressed by a direction.
    Cube,
    /// Layers of 2D images that do not minify; the third coordinate picks one.
    D2Array,
}

/// GL_NEAREST or GL_LINEAR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    Repeat,
    MirroredRepeat,
    ClampToEdge,
}

/// Everything the texture unit needs of one enabled sampler, before reading texels.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub shape: Shape,
    pub format: Format,
    /// Integer components are signed (descriptor CONFIG2 SIGNED_INT8/16).
    pub signed_int: bool,
    /// Per result component: 0-3 a texel component, 4 zero, 5 one.
    pub swizzle: [u32; 4],
    pub srgb: bool,
    pub layout: Layout,
    /// Width alignment of tiled images in texels (HALIGN FOUR or SIXTEEN).
    pub halign: u32,
    /// Row pitch of a linear level 0.
    pub linear_stride: u32,
    /// Layer pitch of level 0 when the state gives it (descriptor SLICE).
    pub slice_stride: Option<u32>,
    /// Width, height and depth (3D) or layer count (arrays) of the base level.
    pub size: [u32; 3],
    /// The level `size` describes and LOD 0 selects.
    pub base_level: u32,
    /// The highest level that may be read.
    pub max_level: u32,
    /// Address of every level, indexed by level number.
    pub level_addr: Vec<u32>,
    /// S, T and R wrap modes.
    pub wrap: [Wrap; 3],
    pub min: Filter,
    pub mag: Filter,
    /// The filter between levels; `None` samples one level only.
    pub mip: Option<Filter>,
    /// LOD clamps, relative to the base level.
    pub min_lod: f64,
    pub max_lod: f64,
    /// The sampler's LOD bias (added to the shader's).
    pub bias: f64,
    pub compare: Option<CompareFunc>,
}

pub fn unmodelled(what: impl Into<String>) -> GpuError {
    GpuError::Unmodelled(what.into())
}

/// `n` bits of `v` from bit `lo`.
pub fn field(v: u32, lo: u32, n: u32) -> u32 {
    (v >> lo) & ((1u32 << n) - 1)
}

/// A two's-complement field of `n` bits as a signed number.
pub fn signed_field(v: u32, lo: u32, n: u32) -> i32 {
    let f = field(v, lo, n) as i32;
    (f << (32 - n)) >> (32 - n)
}

pub fn shape(ty: u32, array: bool) -> Result<Shape, GpuError> {
    Ok(match (ty, array) {
        (2, false) => Shape::D2,
        (3, false) => Shape::D3,
        (3, true) => Shape::D2Array,
        (5, false) => Shape::Cube,
        (2, true) => return Err(unmodelled("1D array texture")),
        (1, _) => return Err(unmodelled("texture type 1D")),
        (t, a) => {
            return Err(unmodelled(format!(
                "texture type {t}{}",
                if a { " array" } else { "" }
            )))
        }
    })
}

pub fn wrap(v: u32) -> Result<Wrap, GpuError> {
    Ok(match v {
        0 => Wrap::Repeat,
        1 => Wrap::MirroredRepeat,
        2 => Wrap::ClampToEdge,
        // Mesa never programs it (it turns CLAMP_TO_BORDER into clamp to edge) and the
        // border colour's encoding is not known.
        3 => return Err(unmodelled("texture wrap clamp-to-border")),
        v => return Err(unmodelled(format!("texture wrap mode {v}"))),
    })
}

pub fn filter(v: u32, which: &str) -> Result<Filter, GpuError> {
    Ok(match v {
        1 => Filter::Nearest,
        2 => Filter::Linear,
        3 => return Err(unmodelled(format!("texture {which} filter anisotropic"))),
        v => return Err(unmodelled(format!("texture {which} filter {v}"))),
    })
}

pub fn mip_filter(v: u32) -> Result<Option<Filter>, GpuError> {
    Ok(match v {
        0 => None,
        v => Some(filter(v, "mip")?),
    })
}

pub fn compare_func(v: u32) -> CompareFunc {
    match v & 7 {
        0 => CompareFunc::LessEqual,
        1 => CompareFunc::GreaterEqual,
        2 => CompareFunc::Less,
        3 => CompareFunc::Greater,
        4 => CompareFunc::Equal,
        5 => CompareFunc::NotEqual,
        6 => CompareFunc::Always,
        _ => CompareFunc::Never,
    }
}

/// CONFIG0 ADDRESSING_MODE and CONFIG1 HALIGN: the layout and the tiled width alignment.
pub fn layout(addressing: u32, halign: u32) -> Result<(Layout, u32), GpuError> {
    match (addressing, halign) {
        (3, _) => Ok((Layout::Linear, 1)),
        (0, 0) => Ok((Layout::Tiled, 4)),
        (0, 1) => Ok((Layout::Tiled, 16)),
        (0, 2) => Ok((Layout::SuperTiled, 64)),
        (0, 3 | 4) => Err(unmodelled("split (multi-pipe) texture layout")),
        (0, h) => Err(unmodelled(format!("texture HALIGN {h}"))),
        (a, _) => Err(unmodelled(format!("texture addressing mode {a}"))),
    }
}

/// The four CONFIG1 swizzle fields (bits 8, 12, 16, 20; 3 bits each).
pub fn swizzle(config1: u32) -> Result<[u32; 4], GpuError> {
    let s = [8, 12, 16, 20].map(|lo| field(config1, lo, 3));
    if let Some(bad) = s.iter().find(|&&v| v > 5) {
        return Err(unmodelled(format!("texture swizzle {bad}")));
    }
    Ok(s)
}

/// Checks on CONFIG0 bits both models share: ENDIAN (22-23) and ANISOTROPY (24-31).
pub fn check_config0(config0: u32) -> Result<(), GpuError> {
    if field(config0, 22, 2) != 0 {
        return Err(unmodelled("texture endian swap"));
    }
    if field(config0, 24, 8) != 0 {
        return Err(unmodelled("texture anisotropy"));
    }
    Ok(())
}

pub fn format(base: u32, ext: u32) -> Result<Format, GpuError> {
    Format::from_fields(base, ext).map_err(GpuError::Unmodelled)
}
