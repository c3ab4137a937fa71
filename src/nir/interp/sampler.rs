//! Texture access through the [`Sampler`] trait, and the deterministic default model.
//!
//! The default model has no image data: every texel is a documented function of the texture
//! index, the mip level and the integer texel coordinates, so a test can compute by hand what
//! any texture instruction returns.
//!
//! - Every texture is [`DEFAULT_SIZE`]×[`DEFAULT_SIZE`] (depth/layers [`DEFAULT_DEPTH`]) with
//!   [`DEFAULT_LEVELS`] mip levels; level `l` is `max(1, 16 >> l)` texels wide.
//! - The texel of texture `t` at level `l` and integer coordinates `(x, y, z)` is the vec4
//!   `((x + 1) / 32, (y + 1) / 32, (t + 1) / 8 + z / 64, 1 - l / 8)` (floats), or the same
//!   numbers times 1024 truncated for integer destinations.
//! - Sampling uses nearest filtering with repeat wrapping: `x = floor(u * width) mod width`.
//!   The level is the `lod` source (txl, txf), `bias` rounded (txb), or 0; it is clamped to
//!   the level range and rounded to nearest.
//! - Shadow comparisons (a `comparator` source) return 1.0 when `comparator <= texel.x`, else
//!   0.0, in all four components (GL_LEQUAL).

use crate::nir::tex::TexOp;

/// One texture request, with its sources already read.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TexRequest {
    /// The texture opcode: never a query (`txs` and `query_levels` are asked through
    /// [`Sampler::size`] and [`Sampler::levels`]).
    pub op: TexOp,
    pub texture: u32,
    pub sampler: u32,
    /// Coordinates: floats for sampling ops, integers (as f64) for `txf`.
    pub coord: Vec<f64>,
    pub lod: Option<f64>,
    pub bias: Option<f64>,
    pub comparator: Option<f64>,
    pub offset: Vec<i64>,
    /// Whether the destination is an integer type.
    pub integer: bool,
    /// Explicit gradients of the coordinates (`txd`), empty otherwise.
    pub ddx: Vec<f64>,
    pub ddy: Vec<f64>,
}

impl TexRequest {
    /// A plain sample (`tex`) of `texture` with `sampler`, the texel offsets and result type
    /// given: what a hardware sampler message starts from before its type says which
    /// parameters (coordinates, level, bias, reference, gradients) follow.
    pub fn sample(texture: u32, sampler: u32, offset: &[i64], integer: bool) -> TexRequest {
        TexRequest {
            op: TexOp::Tex,
            texture,
            sampler,
            offset: offset.to_vec(),
            integer,
            ..TexRequest::default()
        }
    }
}

/// Texture data and queries as the shader sees them.
pub trait Sampler {
    /// The four result components for a sampling or fetch op, as f64 (converted to the
    /// destination type by the interpreter), or an error text.
    fn sample(&self, req: &TexRequest) -> Result<[f64; 4], String>;
    /// `txs`: width, height, depth of level `lod`.
    fn size(&self, texture: u32, lod: u32) -> [u32; 3];
    /// `query_levels`.
    fn levels(&self, texture: u32) -> u32;
}

pub const DEFAULT_SIZE: u32 = 16;
pub const DEFAULT_DEPTH: u32 = 4;
pub const DEFAULT_LEVELS: u32 = 5;

/// The default model described in the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultSampler;

impl DefaultSampler {
    /// The texel value of the model (float form).
    pub fn texel(texture: u32, level: u32, x: i64, y: i64, z: i64) -> [f64; 4] {
        [
            (x + 1) as f64 / 32.0,
            (y + 1) as f64 / 32.0,
            (f64::from(texture) + 1.0) / 8.0 + z as f64 / 64.0,
            1.0 - level as f64 / 8.0,
        ]
    }
}

impl Sampler for DefaultSampler {
    fn sample(&self, req: &TexRequest) -> Result<[f64; 4], String> {
        let max_level = (DEFAULT_LEVELS - 1) as f64;
        let level_f = match req.op {
            TexOp::Txl | TexOp::Txf => req.lod.unwrap_or(0.0),
            TexOp::Txb => req.bias.unwrap_or(0.0),
            _ => 0.0,
        };
        let level = if level_f.is_nan() {
            0
        } else {
            level_f.round().clamp(0.0, max_level) as u32
        };
        let size = self.size(req.texture, level);
        let coord = |i: usize| -> i64 {
            let n = size[i.min(2)] as i64;
            let c = req.coord.get(i).copied().unwrap_or(0.0);
            let off = req.offset.get(i).copied().unwrap_or(0);
            let t = if req.op == TexOp::Txf {
                if c.is_nan() {
                    0
                } else {
                    c as i64
                }
            } else if c.is_finite() {
                (c * n as f64).floor() as i64
            } else {
                0
            };
            (t.saturating_add(off)).rem_euclid(n)
        };
        let t = Self::texel(req.texture, level, coord(0), coord(1), coord(2));
        if let Some(cmp) = req.comparator {
            let v = if cmp <= t[0] { 1.0 } else { 0.0 };
            return Ok([v; 4]);
        }
        if req.integer {
            return Ok(t.map(|v| (v * 1024.0).trunc()));
        }
        Ok(t)
    }

    fn size(&self, _texture: u32, lod: u32) -> [u32; 3] {
        let w = (DEFAULT_SIZE >> lod.min(31)).max(1);
        [w, w, DEFAULT_DEPTH]
    }

    fn levels(&self, _texture: u32) -> u32 {
        DEFAULT_LEVELS
    }
}
