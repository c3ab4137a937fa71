//! One sampler's texture, copied out of GPU memory, and sampling it.
//!
//! Sampling follows GL's rules (the shared arithmetic is in [`crate::nir::interp::filtering`]),
//! with the choices below where the hardware's behaviour is not documented:
//!
//! - Level of detail: λ = log2 ρ of the quad's coordinate differences (or the explicit LOD of
//!   TEXLDL) against the `Spec::size` level, plus the shader's bias (TEXLDB) and the sampler's
//!   bias, then clamped to the sampler's min and max LOD. A lone invocation (a vertex shader)
//!   has no differences: λ is 0 before bias. λ ≤ 0 magnifies, otherwise it minifies; this is
//!   also what Mesa's "max_lod_min" workaround (a max LOD above 0 when min and mag filters
//!   differ) says of the hardware: with the LOD clamped to 0 the min filter is never used.
//! - Levels: without a mip filter the sampler reads the level its min LOD names (Mesa puts the
//!   view's first level there on the state-based cores); otherwise the GL nearest / linear
//!   level rules from the base level, limited to the levels the clamps and the view reach.
//! - Texel taps, weights and wrap are GL's, computed in double precision (the hardware's
//!   ROUND_UV and INT_FILTER precision modes are not modelled and need not be: a piglit
//!   tolerance covers fixed-point weights).
//! - Integer formats are never filtered: nearest texels, nearest level.
//! - sRGB textures are decoded to linear per texel, before filtering.
//! - A shadow comparison (when the sampler enables one) compares the reference, clamped to
//!   [0, 1], with each tapped texel's first component and filters the 0/1 results; the result
//!   fills R, G and B (alpha 1) before the swizzle, so the driver's depth-mode swizzle picks
//!   it up wherever it looks.
//! - The CONFIG1 swizzle is applied last.

use super::format::{self, Kind};
use super::spec::{unmodelled, Filter, Shape, Spec, Wrap};
use super::tiling::{texel_offset, Layout};
use crate::etnaviv::gpu::memory::Memory;
use crate::etnaviv::gpu::GpuError;
use crate::nir::interp::filtering::{self, lod_from_gradients};
use crate::nir::interp::TexRequest;
use crate::nir::TexOp;

/// One level's images (slices, layers or faces), as they lie in memory.
#[derive(Clone, Debug)]
struct Image {
    /// Width, height, and slices/layers/faces.
    size: [u32; 3],
    stride: u32,
    layer_stride: usize,
    bytes: Vec<u8>,
}

/// Where one request looks, see [`View::lookup`].
struct Lookup {
    coord: Vec<f64>,
    layer: u32,
    grads: Option<(Vec<f64>, Vec<f64>)>,
}

/// A sampler's state and the texels of every level it can reach.
#[derive(Clone, Debug)]
pub struct View {
    spec: Spec,
    /// Levels `lo..=hi` are copied; `images[l - lo]` is level `l`.
    lo: u32,
    hi: u32,
    images: Vec<Image>,
}

impl View {
    /// Copies the levels `spec` can reach out of `mem`.
    pub fn load(spec: Spec, mem: &dyn Memory) -> Result<View, GpuError> {
        let base = spec.base_level;
        let [w, h, d] = spec.size;
        let deepest = match spec.shape {
            Shape::D3 => w.max(h).max(d),
            _ => w.max(h),
        }
        .max(1);
        let chain_end = base + deepest.ilog2();
        let last = spec
            .max_level
            .min(chain_end)
            .min(spec.level_addr.len() as u32 - 1);
        let (min_lod, max_lod) = (spec.min_lod.max(0.0), spec.max_lod.max(0.0));
        let (lo, hi) = if spec.mip.is_none() {
            let l = (base + min_lod.min(max_lod) as u32).min(last);
            (l, l)
        } else {
            let hi = (base + max_lod as u32).min(last);
            ((base + min_lod as u32).min(hi), hi)
        };
        let mut view = View {
            spec,
            lo,
            hi,
            images: Vec::new(),
        };
        for l in lo..=hi {
            let image = view.read_level(mem, l)?;
            view.images.push(image);
        }
        Ok(view)
    }

    fn read_level(&self, mem: &dyn Memory, level: u32) -> Result<Image, GpuError> {
        let s = &self.spec;
        let bytes = s.format.bytes();
        let size = self.level_size(level);
        let [w, h, layers] = size;
        let (px, py) = s.layout.padding(s.halign);
        let (pw, ph) = (w.next_multiple_of(px), h.next_multiple_of(py));
        let stride = match s.layout {
            Layout::Linear if level != 0 => {
                return Err(unmodelled("linear texture with mip levels"))
            }
            Layout::Linear => s.linear_stride,
            _ => pw * bytes,
        };
        let computed_layer = stride as usize * ph as usize;
        let layer_stride = match (level, s.slice_stride) {
            (0, Some(slice)) => slice as usize,
            _ if s.layout == Layout::Linear && layers > 1 => {
                return Err(unmodelled("linear texture with several layers"))
            }
            _ => computed_layer,
        };
        let image_bytes = match s.layout {
            Layout::Linear => stride as usize * (h as usize - 1) + (w * bytes) as usize,
            _ => computed_layer,
        };
        let total = (layers as usize - 1) * layer_stride + image_bytes;
        let mut data = vec![0; total];
        let addr = s.level_addr[level as usize];
        mem.read(addr, &mut data)?;
        Ok(Image {
            size,
            stride,
            layer_stride,
            bytes: data,
        })
    }

    /// Width, height and slices (3D), layers (arrays) or faces (cube) of `level`.
    fn level_size(&self, level: u32) -> [u32; 3] {
        let k = level.saturating_sub(self.spec.base_level).min(31);
        let [w, h, d] = self.spec.size;
        let third = match self.spec.shape {
            Shape::D2 => 1,
            Shape::D3 => (d >> k).max(1),
            Shape::D2Array => d.max(1),
            Shape::Cube => 6,
        };
        [(w >> k).max(1), (h >> k).max(1), third]
    }

    /// How many coordinates address a texel: 2 for 2D, 3 for 3D, cube maps and arrays.
    pub fn dims(&self) -> u32 {
        match self.spec.shape {
            Shape::D2 => 2,
            _ => 3,
        }
    }

    /// Size of level `lod` counted from the base level (`txs`).
    pub fn size(&self, lod: u32) -> [u32; 3] {
        let [w, h, d] = self.level_size(self.spec.base_level + lod);
        match self.spec.shape {
            Shape::Cube => [w, h, 1],
            _ => [w, h, d],
        }
    }

    /// Levels from the base level to the last one the view reaches.
    pub fn levels(&self) -> u32 {
        self.hi.saturating_sub(self.spec.base_level) + 1
    }

    fn image(&self, level: u32) -> &Image {
        &self.images[(level.clamp(self.lo, self.hi) - self.lo) as usize]
    }

    /// The texel at (x, y, layer) of `img`, decoded (and linearised when sRGB).
    fn texel(&self, img: &Image, x: u32, y: u32, layer: u32, raw_bits: bool) -> [f64; 4] {
        let f = self.spec.format;
        let n = f.bytes() as usize;
        let off = layer as usize * img.layer_stride
            + texel_offset(self.spec.layout, x, y, f.bytes(), img.stride);
        let Some(b) = img.bytes.get(off..off + n) else {
            return [0.0; 4];
        };
        let mut t = f.decode(b, self.spec.signed_int, raw_bits);
        if self.spec.srgb {
            for c in &mut t[..3] {
                *c = format::srgb_to_linear(*c);
            }
        }
        t
    }

    fn swizzled(&self, v: [f64; 4]) -> [f64; 4] {
        self.spec.swizzle.map(|s| match s {
            0..=3 => v[s as usize],
            4 => 0.0,
            _ => 1.0,
        })
    }

    /// A texture request from the shader.
    pub fn sample(&self, req: &TexRequest) -> Result<[f64; 4], String> {
        if req.op == TexOp::Txf {
            return Ok(self.fetch(req));
        }
        let integer = self.spec.format.kind() == Kind::Integer;
        let Lookup {
            coord,
            layer,
            grads,
        } = self.lookup(req);
        let fdims = coord.len();
        let base_size = self.level_size(self.spec.base_level);
        let implicit = match grads {
            Some((dx, dy)) => lod_from_gradients(&dx, &dy, base_size, fdims),
            None => 0.0,
        };
        let lambda = match req.op {
            TexOp::Tex => implicit,
            TexOp::Txb => implicit + req.bias.unwrap_or(0.0),
            TexOp::Txl => req.lod.unwrap_or(0.0),
            TexOp::Txd if !req.ddx.is_empty() => implicit,
            TexOp::Txd => {
                return Err("texldd reached the texture unit without its gradients".into())
            }
            op => {
                return Err(format!(
                    "texture op {op} is not modelled by the texture unit"
                ))
            }
        } + self.spec.bias;
        let lambda = if lambda.is_nan() { 0.0 } else { lambda };
        let lambda = lambda.max(self.spec.min_lod).min(self.spec.max_lod);
        let magnify = lambda <= 0.0;
        let filter = match (integer, magnify) {
            (true, _) => Filter::Nearest,
            (false, true) => self.spec.mag,
            (false, false) => self.spec.min,
        };
        let base = self.spec.base_level;
        let reference = match (self.spec.compare, req.comparator) {
            (Some(_), Some(r)) => Some(r.clamp(0.0, 1.0)),
            (Some(_), None) => {
                return Err("a shadow sampler was read without a comparison value".into())
            }
            (None, _) => None,
        };
        let one =
            |level: u32| self.sample_level(level, filter, &coord, layer, reference, req.integer);
        let v = match (self.spec.mip, magnify) {
            (None, _) => one(self.lo),
            (Some(_), true) => one(base),
            (Some(mip), false) => {
                let last = self.hi.saturating_sub(base) as usize;
                if mip == Filter::Nearest || integer {
                    one(base + filtering::nearest_mip_level(lambda).min(last) as u32)
                } else {
                    let (d1, d2, frac) = filtering::linear_mip_levels(lambda, last);
                    let a = one(base + d1 as u32);
                    if frac == 0.0 {
                        a
                    } else {
                        let b = one(base + d2 as u32);
                        [0, 1, 2, 3].map(|c| a[c] * (1.0 - frac) + b[c] * frac)
                    }
                }
            }
        };
        Ok(self.swizzled(v))
    }

    /// Where a sampling request looks: its filtering coordinates, the layer or face, and the
    /// gradients in those coordinates (cube directions projected onto the face).
    fn lookup(&self, req: &TexRequest) -> Lookup {
        let at = |i: usize| req.coord.get(i).copied().unwrap_or(0.0);
        let grads = (!req.ddx.is_empty()).then_some((&req.ddx, &req.ddy));
        let first = |d: &[f64], n: usize| d[..n.min(d.len())].to_vec();
        match self.spec.shape {
            Shape::D2 | Shape::D3 => {
                let n = if self.spec.shape == Shape::D2 { 2 } else { 3 };
                Lookup {
                    coord: (0..n).map(at).collect(),
                    layer: 0,
                    grads: grads.map(|(x, y)| (first(x, n), first(y, n))),
                }
            }
            Shape::D2Array => {
                let top = f64::from(self.spec.size[2].max(1) - 1);
                Lookup {
                    coord: vec![at(0), at(1)],
                    layer: at(2).round().clamp(0.0, top) as u32,
                    grads: grads.map(|(x, y)| (first(x, 2), first(y, 2))),
                }
            }
            Shape::Cube => {
                let r = [at(0), at(1), at(2)];
                let face = cube_face(r);
                let st = cube_coords(face, r);
                let project = |d: &[f64]| {
                    let moved = [0, 1, 2].map(|i| r[i] + d.get(i).copied().unwrap_or(0.0));
                    let m = cube_coords(face, moved);
                    vec![m[0] - st[0], m[1] - st[1]]
                };
                Lookup {
                    coord: st.to_vec(),
                    layer: face,
                    grads: grads.map(|(x, y)| (project(x), project(y))),
                }
            }
        }
    }

    /// One level, nearest or (bi/tri)linear; `coord` are normalised, one per filtered
    /// dimension.
    fn sample_level(
        &self,
        level: u32,
        filter: Filter,
        coord: &[f64],
        layer: u32,
        reference: Option<f64>,
        raw_bits: bool,
    ) -> [f64; 4] {
        let img = self.image(level);
        // Per dimension: the texel indices (after wrapping) and their weights.
        let taps: Vec<Vec<(u32, f64)>> = coord
            .iter()
            .enumerate()
            .map(|(d, &c)| {
                let n = img.size[d].max(1);
                let u = if c.is_finite() { c * f64::from(n) } else { 0.0 };
                let raw = match filter {
                    Filter::Nearest => vec![(filtering::nearest_tap(u), 1.0)],
                    Filter::Linear => filtering::linear_taps(u).to_vec(),
                };
                raw.into_iter()
                    .map(|(i, w)| (wrap(self.spec.wrap[d], i, n), w))
                    .collect()
            })
            .collect();
        let mut out = [0.0; 4];
        let mut idx = vec![0usize; taps.len()];
        loop {
            let mut weight = 1.0;
            let mut at = [0u32, 0, layer];
            for (d, t) in taps.iter().enumerate() {
                let (i, w) = t[idx[d]];
                weight *= w;
                at[d] = i;
            }
            if weight != 0.0 {
                let t = self.texel(img, at[0], at[1], at[2], raw_bits);
                let t = match reference {
                    Some(r) => {
                        let func = self.spec.compare.expect("reference only with compare");
                        let v = f64::from(u8::from(func.test(r, t[0])));
                        [v, v, v, 1.0]
                    }
                    None => t,
                };
                for c in 0..4 {
                    out[c] += weight * t[c];
                }
            }
            let mut d = 0;
            loop {
                if d == taps.len() {
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

    /// `txf`: integer texel coordinates at level `lod` from the base; outside the image or
    /// the levels the view reaches it reads zeros.
    fn fetch(&self, req: &TexRequest) -> [f64; 4] {
        let level = i64::from(self.spec.base_level) + req.lod.unwrap_or(0.0) as i64;
        if level < i64::from(self.lo) || level > i64::from(self.hi) {
            return [0.0; 4];
        }
        let img = self.image(level as u32);
        let mut at = [0u32; 3];
        let used = if self.spec.shape == Shape::D2 { 2 } else { 3 };
        for (d, a) in at.iter_mut().enumerate().take(used) {
            let c = req.coord.get(d).copied().unwrap_or(0.0) as i64
                + req.offset.get(d).copied().unwrap_or(0);
            if !(0..i64::from(img.size[d])).contains(&c) {
                return [0.0; 4];
            }
            *a = c as u32;
        }
        self.swizzled(self.texel(img, at[0], at[1], at[2], req.integer))
    }
}

/// Texel index `i` of a dimension of `n` texels after wrapping.
fn wrap(mode: Wrap, i: i64, n: u32) -> u32 {
    let n = i64::from(n);
    let v = match mode {
        Wrap::Repeat => i.rem_euclid(n),
        Wrap::MirroredRepeat => {
            let m = i.rem_euclid(2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
        Wrap::ClampToEdge => i.clamp(0, n - 1),
    };
    v as u32
}

/// The cube face a direction selects (GL's major axis; +X, −X, +Y, −Y, +Z, −Z = 0..5, the
/// TEXTURE_FACE_* order, in which the faces follow each other in memory). Ties go to X, then Y.
fn cube_face(r: [f64; 3]) -> u32 {
    let a = r.map(f64::abs);
    let (axis, _) = if a[0] >= a[1] && a[0] >= a[2] {
        (0, a[0])
    } else if a[1] >= a[2] {
        (1, a[1])
    } else {
        (2, a[2])
    };
    2 * axis + u32::from(r[axis as usize] < 0.0)
}

/// Normalised (s, t) of a direction on `face` (GL's cube map table).
fn cube_coords(face: u32, r: [f64; 3]) -> [f64; 2] {
    let [x, y, z] = r;
    let (sc, tc, ma) = match face {
        0 => (-z, -y, x),
        1 => (z, -y, x),
        2 => (x, z, y),
        3 => (x, -z, y),
        4 => (x, -y, z),
        _ => (-x, -y, z),
    };
    let ma = ma.abs();
    if ma == 0.0 {
        return [0.5, 0.5];
    }
    [(sc / ma + 1.0) / 2.0, (tc / ma + 1.0) / 2.0]
}
