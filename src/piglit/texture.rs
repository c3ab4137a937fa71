//! The textures shader_runner creates, with GL's sampler state, behind the interpreter's
//! [`Sampler`] trait so that the NIR interpreter, the Intel simulator and the etnaviv
//! simulator all sample the same images.
//!
//! The images are the ones piglit's utility library builds (facts from piglit's
//! `piglit-util-gl.c` and `shader_runner.c`):
//!
//! - `texture rgbw N (w, h)`: one level, quadrants red (lower left), green (lower right),
//!   blue (upper left), white, opaque; NEAREST filters, CLAMP_TO_EDGE;
//! - `texture rgbw 3D N`: 2×2×2, slice 0 red green / blue white, slice 1 yellow magenta /
//!   cyan black; NEAREST, CLAMP_TO_EDGE;
//! - `texture checkerboard N L (w, h) (black) (white)`: `w/2 × h/2` tiles, the lower-left
//!   one "black"; NEAREST, CLAMP_TO_BORDER with border (1, 0, 0, 1);
//! - `texture shadow1D/shadow2D N (w[, h])`: depth `x / (w − 1)`; NEAREST, CLAMP_TO_EDGE,
//!   comparison on with GL_GREATER;
//! - `texture miptree N`: 8×8 with four levels of solid red, green, blue, white;
//!   NEAREST / NEAREST_MIPMAP_NEAREST, CLAMP_TO_EDGE.
//!
//! Colour images are stored as GL_RGBA8 unorm, as the drivers allocate them for GL_RGBA.
//!
//! Level of detail: explicit (`txl`, `txf`) or from explicit gradients (`txd`). The runner
//! does not give the samplers the quad's implicit derivatives, so implicit-LOD sampling is
//! only answered when the result cannot depend on the LOD (one level and equal min and mag
//! filters, true of every implicit-LOD texture shader_runner creates); otherwise it is an
//! error that names the reason.

use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::nir::interp::filtering::CompareFunc;
use crate::nir::interp::filtering::{self, lod_from_gradients};
use crate::nir::interp::{Sampler, TexRequest};
use crate::nir::TexOp;

/// GL_NEAREST or GL_LINEAR, for texels within a level or between levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    ClampToEdge,
    ClampToBorder,
}

/// GL_DEPTH_TEXTURE_MODE: how a depth value (or comparison result) fills RGBA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthMode {
    Luminance,
    Intensity,
    Alpha,
    Red,
}

/// One mip level: `size` texels (1 for unused dimensions), x fastest, then y, then z.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub size: [u32; 3],
    pub texels: Vec<[f32; 4]>,
}

/// A texture object: images and the sampler state GL keeps with them.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// 1, 2 or 3: how many coordinates address a texel.
    pub dims: usize,
    pub levels: Vec<Level>,
    pub min: Filter,
    /// The filter between levels when minifying, `None` for a non-mipmapped min filter.
    pub mip: Option<Filter>,
    pub mag: Filter,
    pub wrap: Wrap,
    pub border: [f32; 4],
    /// Depth textures hold their value in component 0.
    pub depth: bool,
    pub compare: Option<CompareFunc>,
    pub depth_mode: DepthMode,
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const WHITE: [f32; 4] = [1.0; 4];

/// The value an RGBA8 unorm texel holds for `c`.
fn unorm8(c: [f32; 4]) -> [f32; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() / 255.0)
}

impl Texture {
    fn colour(dims: usize, levels: Vec<Level>, wrap: Wrap) -> Texture {
        Texture {
            dims,
            levels,
            min: Filter::Nearest,
            mip: None,
            mag: Filter::Nearest,
            wrap,
            border: [0.0; 4],
            depth: false,
            compare: None,
            depth_mode: DepthMode::Luminance,
        }
    }

    fn level(size: [u32; 3], texel: impl Fn(u32, u32, u32) -> [f32; 4]) -> Level {
        let mut texels = Vec::with_capacity((size[0] * size[1] * size[2]) as usize);
        for z in 0..size[2] {
            for y in 0..size[1] {
                for x in 0..size[0] {
                    texels.push(texel(x, y, z));
                }
            }
        }
        Level { size, texels }
    }

    /// `piglit_rgbw_texture(GL_RGBA, w, h, no mipmaps, opaque, unorm)`.
    pub fn rgbw(w: u32, h: u32) -> Texture {
        let level = Self::level([w, h, 1], |x, y, _| match (x < w / 2, y < h / 2) {
            (true, true) => RED,
            (false, true) => GREEN,
            (true, false) => BLUE,
            (false, false) => WHITE,
        });
        Self::colour(2, vec![level], Wrap::ClampToEdge)
    }

    /// `piglit_rgbw_texture_3d()`.
    pub fn rgbw_3d() -> Texture {
        const SLICE1: [[f32; 4]; 4] = [
            [1.0, 1.0, 0.0, 1.0],
            [1.0, 0.0, 1.0, 1.0],
            [0.0, 1.0, 1.0, 1.0],
            [0.0, 0.0, 0.0, 1.0],
        ];
        let level = Self::level([2, 2, 2], |x, y, z| {
            let i = (y * 2 + x) as usize;
            if z == 0 {
                [RED, GREEN, BLUE, WHITE][i]
            } else {
                SLICE1[i]
            }
        });
        Self::colour(3, vec![level], Wrap::ClampToEdge)
    }

    /// `piglit_checkerboard_texture(0, level, w, h, w / 2, h / 2, black, white)`: tiles
    /// alternate from "black" at the lower left; only `level` has an image.
    pub fn checkerboard(level: u32, w: u32, h: u32, black: [f32; 4], white: [f32; 4]) -> Texture {
        let (tw, th) = ((w / 2).max(1), (h / 2).max(1));
        let (black, white) = (unorm8(black), unorm8(white));
        let image = Self::level([w, h, 1], |x, y, _| {
            if (x / tw + y / th) % 2 == 1 {
                white
            } else {
                black
            }
        });
        // Levels below `level` stay undefined; the texture then is incomplete unless
        // `level` is 0, which is all shader_runner tests use.
        let mut levels = Vec::new();
        if level == 0 {
            levels.push(image);
        }
        let mut t = Self::colour(2, levels, Wrap::ClampToBorder);
        t.border = [1.0, 0.0, 0.0, 1.0];
        t
    }

    /// `piglit_depth_texture(GL_TEXTURE_1D or 2D, GL_DEPTH_COMPONENT, w, h, 1, no mipmaps)`
    /// with comparison enabled (GL_COMPARE_R_TO_TEXTURE, GL_GREATER) as shader_runner sets it.
    pub fn shadow(dims: usize, w: u32, h: u32) -> Texture {
        let denom = w.saturating_sub(1).max(1) as f32;
        let level = Self::level([w, h, 1], |x, _, _| [x as f32 / denom, 0.0, 0.0, 1.0]);
        let mut t = Self::colour(dims, vec![level], Wrap::ClampToEdge);
        t.depth = true;
        t.compare = Some(CompareFunc::Greater);
        t
    }

    /// `piglit_miptree_texture()`.
    pub fn miptree() -> Texture {
        let levels = [RED, GREEN, BLUE, WHITE]
            .iter()
            .enumerate()
            .map(|(l, &c)| {
                let s = 8 >> l;
                Self::level([s, s, 1], |_, _, _| c)
            })
            .collect();
        let mut t = Self::colour(2, levels, Wrap::ClampToEdge);
        t.mip = Some(Filter::Nearest);
        t
    }

    /// `texparameter <target> <name> <value>` as shader_runner spells it.
    pub fn set_parameter(&mut self, name: &str, value: &str) -> Result<(), String> {
        let filter = |v: &str| match v {
            "nearest" => Some(Filter::Nearest),
            "linear" => Some(Filter::Linear),
            _ => None,
        };
        let bad = || format!("texparameter {name}: unknown value {value}");
        match name {
            "min" => {
                let (min, mip) = match value.split_once("_mipmap_") {
                    Some((a, b)) => (filter(a), Some(filter(b).ok_or_else(bad)?)),
                    None => (filter(value), None),
                };
                self.min = min.ok_or_else(bad)?;
                self.mip = mip;
            }
            "mag" => self.mag = filter(value).ok_or_else(bad)?,
            "compare_func" => {
                self.compare = Some(CompareFunc::from_name(value).ok_or_else(bad)?);
            }
            "depth_mode" => {
                self.depth_mode = match value {
                    "luminance" => DepthMode::Luminance,
                    "intensity" => DepthMode::Intensity,
                    "alpha" => DepthMode::Alpha,
                    "red" => DepthMode::Red,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(format!("texparameter {name} is not modelled")),
        }
        Ok(())
    }

    /// Whether sampling needs a level of detail: several levels reachable through a
    /// mipmapped min filter, or different min and mag filters.
    fn lod_matters(&self) -> bool {
        (self.mip.is_some() && self.levels.len() > 1) || self.min != self.mag
    }

    /// The level of detail from the gradients of `txd`, against the base level.
    fn lod_from_gradients(&self, ddx: &[f64], ddy: &[f64]) -> f64 {
        let size = self.levels.first().map_or([1, 1, 1], |l| l.size);
        lod_from_gradients(ddx, ddy, size, self.dims)
    }

    /// The filtered texel at level of detail `lod` (before comparison swizzles).
    fn filtered(&self, coord: &[f64], lod: f64, reference: Option<f64>) -> [f64; 4] {
        let last = self.levels.len().saturating_sub(1);
        if lod <= 0.0 || lod.is_nan() {
            return self.sample_level(0, self.mag, coord, reference);
        }
        match self.mip {
            None => self.sample_level(0, self.min, coord, reference),
            Some(Filter::Nearest) => {
                let d = filtering::nearest_mip_level(lod);
                self.sample_level(d.min(last), self.min, coord, reference)
            }
            Some(Filter::Linear) => {
                let (d1, d2, frac) = filtering::linear_mip_levels(lod, last);
                let a = self.sample_level(d1, self.min, coord, reference);
                let b = self.sample_level(d2, self.min, coord, reference);
                [0, 1, 2, 3].map(|c| a[c] * (1.0 - frac) + b[c] * frac)
            }
        }
    }

    /// One level, nearest or (bi/tri)linear, comparing each texel first for shadow lookups.
    fn sample_level(
        &self,
        level: usize,
        filter: Filter,
        coord: &[f64],
        reference: Option<f64>,
    ) -> [f64; 4] {
        let Some(l) = self.levels.get(level) else {
            return [0.0, 0.0, 0.0, 1.0];
        };
        // Per dimension: up to two (index, weight) taps.
        let mut taps: Vec<Vec<(i64, f64)>> = Vec::with_capacity(self.dims);
        for d in 0..self.dims {
            let n = f64::from(l.size[d]);
            let u = coord.get(d).copied().unwrap_or(0.0);
            let u = if u.is_finite() { u * n } else { 0.0 };
            taps.push(match filter {
                Filter::Nearest => vec![(filtering::nearest_tap(u), 1.0)],
                Filter::Linear => filtering::linear_taps(u).to_vec(),
            });
        }
        let mut out = [0.0; 4];
        let mut idx = vec![0usize; self.dims];
        loop {
            let mut weight = 1.0;
            let mut at = [0i64; 3];
            for d in 0..self.dims {
                let (i, w) = taps[d][idx[d]];
                weight *= w;
                at[d] = i;
            }
            if weight != 0.0 {
                let t = self.texel(l, at);
                for c in 0..4 {
                    let v = match reference {
                        Some(r) => {
                            let func = self.compare.unwrap_or(CompareFunc::Always);
                            // Fixed-point depth formats clamp the reference to [0, 1].
                            f64::from(u8::from(func.test(r.clamp(0.0, 1.0), t[0])))
                        }
                        None => t[c],
                    };
                    out[c] += weight * v;
                }
            }
            // Next tap combination.
            let mut d = 0;
            loop {
                if d == self.dims {
                    return out;
                }
                idx[d] += 1;
                if idx[d] < taps[d].len() {
                    break;
                }
                idx[d] = 0;
                d += 1;
            }
        }
    }

    /// The texel at integer coordinates after wrapping.
    fn texel(&self, l: &Level, at: [i64; 3]) -> [f64; 4] {
        let mut p = [0usize; 3];
        for d in 0..3 {
            let n = i64::from(l.size[d].max(1));
            let i = if d < self.dims { at[d] } else { 0 };
            if !(0..n).contains(&i) && self.wrap == Wrap::ClampToBorder {
                return self.border.map(f64::from);
            }
            p[d] = i.clamp(0, n - 1) as usize;
        }
        let (w, h) = (l.size[0] as usize, l.size[1] as usize);
        l.texels
            .get((p[2] * h + p[1]) * w + p[0])
            .map_or([0.0, 0.0, 0.0, 1.0], |t| t.map(f64::from))
    }

    /// A sampling request against this texture; `glsl130` is whether the program uses
    /// GLSL 1.30 or later (see [`Texture::depth_swizzle`]).
    pub fn sample(&self, req: &TexRequest, glsl130: bool) -> Result<[f64; 4], String> {
        if self.levels.is_empty() {
            // An incomplete texture samples as opaque black.
            return Ok([0.0, 0.0, 0.0, 1.0]);
        }
        if req.op == TexOp::Txf {
            let level = req.lod.unwrap_or(0.0).max(0.0) as usize;
            let Some(l) = self.levels.get(level) else {
                return Ok([0.0; 4]);
            };
            let mut at = [0i64; 3];
            for (d, a) in at.iter_mut().enumerate().take(self.dims) {
                let c = req.coord.get(d).copied().unwrap_or(0.0) as i64;
                let off = req.offset.get(d).copied().unwrap_or(0);
                *a = c + off;
                if !(0..i64::from(l.size[d])).contains(a) {
                    return Ok([0.0; 4]);
                }
            }
            return Ok(self.swizzled(self.texel(l, at), glsl130));
        }
        let lod = match req.op {
            TexOp::Txl => req.lod.unwrap_or(0.0),
            TexOp::Txd if !req.ddx.is_empty() => self.lod_from_gradients(&req.ddx, &req.ddy),
            TexOp::Tex | TexOp::Txb if !self.lod_matters() => 0.0,
            op => {
                return Err(format!(
                    "{op} needs the implicit level of detail of a mipmapped texture, \
                     which the runner does not model"
                ))
            }
        };
        let reference = if self.depth && self.compare.is_some() {
            req.comparator
        } else {
            None
        };
        if self.depth && self.compare.is_some() && reference.is_none() {
            return Err("a shadow texture sampled without a comparison value".into());
        }
        let v = self.filtered(&req.coord, lod, reference);
        Ok(self.swizzled(v, glsl130))
    }

    /// Depth textures spread their one value by the depth mode; others pass through.
    fn swizzled(&self, v: [f64; 4], glsl130: bool) -> [f64; 4] {
        if !self.depth {
            return v;
        }
        let r = v[0];
        match self.depth_swizzle(glsl130) {
            DepthMode::Luminance => [r, r, r, 1.0],
            DepthMode::Intensity => [r, r, r, r],
            DepthMode::Alpha => [0.0, 0.0, 0.0, r],
            DepthMode::Red => [r, 0.0, 0.0, 1.0],
        }
    }

    /// The depth mode in effect. GLSL 1.30's `texture()` on shadow samplers returns a float
    /// and ignores the depth mode, but GL_ALPHA would force it to zero; Mesa's state tracker
    /// therefore treats GL_ALPHA as GL_INTENSITY for programs of GLSL 1.30 and later.
    fn depth_swizzle(&self, glsl130: bool) -> DepthMode {
        match (self.depth_mode, glsl130) {
            (DepthMode::Alpha, true) => DepthMode::Intensity,
            (m, _) => m,
        }
    }
}

/// The texture units and the program's sampler uniforms at one draw.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    /// Texture objects by unit.
    pub units: BTreeMap<u32, Arc<Texture>>,
    /// The unit each sampler slot of the fragment program reads (`uniform int sampler N`).
    pub slot_units: Vec<u32>,
    /// NIR texture index minus sampler index (Intel places textures after the render
    /// targets in the binding table); maps `txs` texture indices back to slots.
    pub texture_base: u32,
    pub glsl130: bool,
}

impl Bindings {
    /// How many coordinates address the texture a sampler slot reads (the texture type a
    /// driver programs into the sampler state), `None` when nothing is bound.
    pub fn dims(&self, slot: u32) -> Option<usize> {
        self.texture_of_slot(slot).map(|t| t.dims)
    }

    fn texture_of_slot(&self, slot: u32) -> Option<&Texture> {
        let unit = self.slot_units.get(slot as usize).copied().unwrap_or(0);
        self.units.get(&unit).map(Arc::as_ref)
    }
}

impl Sampler for Bindings {
    fn sample(&self, req: &TexRequest) -> Result<[f64; 4], String> {
        match self.texture_of_slot(req.sampler) {
            Some(t) => t.sample(req, self.glsl130),
            // No texture bound: GL samples an incomplete texture as opaque black.
            None => Ok([0.0, 0.0, 0.0, 1.0]),
        }
    }

    fn size(&self, texture: u32, lod: u32) -> [u32; 3] {
        let slot = texture.saturating_sub(self.texture_base);
        self.texture_of_slot(slot)
            .and_then(|t| t.levels.get(lod as usize))
            .map_or([0; 3], |l| l.size)
    }

    fn levels(&self, texture: u32) -> u32 {
        let slot = texture.saturating_sub(self.texture_base);
        self.texture_of_slot(slot)
            .map_or(0, |t| t.levels.len() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(op: TexOp, coord: &[f64]) -> TexRequest {
        TexRequest {
            op,
            texture: 0,
            sampler: 0,
            coord: coord.to_vec(),
            lod: None,
            bias: None,
            comparator: None,
            offset: Vec::new(),
            integer: false,
            ddx: Vec::new(),
            ddy: Vec::new(),
        }
    }

    #[test]
    fn rgbw_quadrants() {
        // 8×8: texel (1, 1) is in the red quadrant, (6, 1) green, (1, 6) blue, (6, 6) white.
        let t = Texture::rgbw(8, 8);
        let at = |u: f64, v: f64| t.sample(&req(TexOp::Tex, &[u, v]), false).unwrap();
        assert_eq!(at(1.5 / 8.0, 1.5 / 8.0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(at(6.5 / 8.0, 1.5 / 8.0), [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(at(1.5 / 8.0, 6.5 / 8.0), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(at(6.5 / 8.0, 6.5 / 8.0), [1.0; 4]);
        // Clamp to edge: far outside still reads the nearest edge texel.
        assert_eq!(at(7.0, -3.0), [0.0, 1.0, 0.0, 1.0]);
    }

    #[test]
    fn checkerboard_tiles_and_border() {
        let t = Texture::checkerboard(0, 8, 8, [0.0; 4], [0.0, 1.0, 0.0, 0.0]);
        let at = |u: f64, v: f64| t.sample(&req(TexOp::Tex, &[u, v]), false).unwrap();
        assert_eq!(at(0.1, 0.1), [0.0; 4]);
        assert_eq!(at(0.6, 0.1), [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(at(0.1, 0.6), [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(at(0.6, 0.6), [0.0; 4]);
        // CLAMP_TO_BORDER with piglit's red border.
        assert_eq!(at(1.1, 0.5), [1.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn shadow_compare_and_depth_modes() {
        // 32 texels: texel 0 holds depth 0, texel 31 depth 1.
        let mut t = Texture::shadow(2, 32, 32);
        let mut r = req(TexOp::Tex, &[0.5 / 32.0, 0.5]);
        r.comparator = Some(0.1);
        // GL_GREATER: 0.1 > 0.0.
        assert_eq!(t.sample(&r, false).unwrap(), [1.0, 1.0, 1.0, 1.0]);
        t.set_parameter("depth_mode", "alpha").unwrap();
        assert_eq!(t.sample(&r, false).unwrap(), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(t.sample(&r, true).unwrap(), [1.0; 4]);
        t.set_parameter("compare_func", "never").unwrap();
        assert_eq!(t.sample(&r, false).unwrap(), [0.0; 4]);
        t.set_parameter("compare_func", "less").unwrap();
        r.coord = vec![31.5 / 32.0, 0.5];
        // 0.1 < 1.0.
        assert_eq!(t.sample(&r, false).unwrap(), [0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn miptree_levels_by_lod() {
        let mut t = Texture::miptree();
        let mut r = req(TexOp::Txl, &[0.5, 0.5]);
        let mut at = |t: &Texture, lod: f64| {
            r.lod = Some(lod);
            t.sample(&r, false).unwrap()
        };
        assert_eq!(at(&t, 0.0), [1.0, 0.0, 0.0, 1.0]);
        // NEAREST_MIPMAP_NEAREST: 0.4 stays on level 0, 0.6 picks level 1, 2.6 level 3.
        assert_eq!(at(&t, 0.4), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(at(&t, 0.6), [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(at(&t, 2.6), [1.0; 4]);
        assert_eq!(at(&t, 9.0), [1.0; 4]);
        // NEAREST_MIPMAP_LINEAR: λ = 1.25 is ¾ green and ¼ blue.
        t.set_parameter("min", "nearest_mipmap_linear").unwrap();
        let v = at(&t, 1.25);
        assert_eq!(v, [0.0, 0.75, 0.25, 1.0]);
        // txd: a gradient of 2 texels per pixel on the 8×8 base is λ = 1.
        let mut d = req(TexOp::Txd, &[0.5, 0.5]);
        d.ddx = vec![2.0 / 8.0, 0.0];
        d.ddy = vec![0.0, 2.0 / 8.0];
        assert_eq!(t.sample(&d, false).unwrap(), [0.0, 1.0, 0.0, 1.0]);
        // Implicit LOD on a mipmapped texture is reported, not guessed.
        assert!(t.sample(&req(TexOp::Tex, &[0.5, 0.5]), false).is_err());
    }

    #[test]
    fn rgbw_3d_slices() {
        let t = Texture::rgbw_3d();
        let at = |c: [f64; 3]| t.sample(&req(TexOp::Tex, &c), false).unwrap();
        assert_eq!(at([0.75, 0.25, 0.25]), [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(at([0.25, 0.25, 0.75]), [1.0, 1.0, 0.0, 1.0]);
        assert_eq!(at([0.75, 0.75, 0.75]), [0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn bindings_follow_sampler_uniforms() {
        let mut b = Bindings::default();
        b.units.insert(1, Arc::new(Texture::rgbw(8, 8)));
        // Slot 0 reads unit 0 (nothing bound): opaque black.
        assert_eq!(
            b.sample(&req(TexOp::Tex, &[0.9, 0.9])).unwrap(),
            [0.0, 0.0, 0.0, 1.0]
        );
        b.slot_units = vec![1];
        assert_eq!(b.sample(&req(TexOp::Tex, &[0.9, 0.9])).unwrap(), [1.0; 4]);
        b.texture_base = 1;
        assert_eq!(b.size(1, 0), [8, 8, 1]);
        assert_eq!(b.levels(1), 1);
    }
}
