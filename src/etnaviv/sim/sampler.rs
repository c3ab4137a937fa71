//! The texture model shared by the etnaviv simulator and (later) the NIR interpreter.
//!
//! Nothing here depends on the Vivante ISA: a sampling request is a unit, a coordinate and a
//! level-of-detail choice, and the answer is an RGBA colour. It lives in `etnaviv::sim` for now
//! and can move to a target-neutral module unchanged.
//!
//! [`DefaultSampler`] is deterministic and simple enough to compute by hand in tests:
//!
//! - every unit holds a square 2D texture of `size`×`size` texels at level 0 (default 16), with
//!   levels down to 1×1 (level `L` is `max(1, size >> L)` wide);
//! - the texel at integer coordinates `(i, j)` of level `L` on unit `u` has colour
//!   `(i / 16, j / 16, L / 16, (u + 1) / 16)`;
//! - filtering is nearest: `i = floor(s * width)`, `j = floor(t * height)`;
//! - wrapping is clamp-to-edge or repeat, per sampler;
//! - the level is `round(lod)` clamped to the existing levels; an implicit-lod sample (no bias,
//!   no explicit lod, no derivatives) uses level 0, derivatives select
//!   `log2(max(|ddx|, |ddy|) * size)`;
//! - a depth comparison returns 1.0 in all channels when `compare <= red`, else 0.0;
//! - an integer fetch (`txf`) addresses texels directly and returns black outside the level.

/// What to sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleRequest {
    pub unit: u32,
    pub coord: [f32; 4],
    pub lod: Lod,
    /// Reference value for shadow samplers.
    pub compare: Option<f32>,
}

/// How the level of detail is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lod {
    /// No derivatives are available in a single-invocation simulator: level 0.
    Implicit,
    Bias(f32),
    Explicit(f32),
    Gradients {
        ddx: [f32; 2],
        ddy: [f32; 2],
    },
}

/// A texture unit model.
pub trait Sampler {
    fn sample(&self, req: &SampleRequest) -> [f32; 4];
    /// Texel fetch at integer coordinates and level.
    fn fetch(&self, unit: u32, texel: [i32; 2], level: i32) -> [f32; 4];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    Clamp,
    Repeat,
}

/// The documented default model (see the module comment).
#[derive(Clone, Debug, PartialEq)]
pub struct DefaultSampler {
    pub size: u32,
    pub wrap: Wrap,
}

impl Default for DefaultSampler {
    fn default() -> DefaultSampler {
        DefaultSampler {
            size: 16,
            wrap: Wrap::Clamp,
        }
    }
}

impl DefaultSampler {
    fn levels(&self) -> i32 {
        32 - self.size.max(1).leading_zeros() as i32
    }

    fn width(&self, level: i32) -> i32 {
        ((self.size.max(1) >> level.clamp(0, 31)) as i32).max(1)
    }

    fn texel(&self, unit: u32, i: i32, j: i32, level: i32) -> [f32; 4] {
        [
            i as f32 / 16.0,
            j as f32 / 16.0,
            level as f32 / 16.0,
            (unit + 1) as f32 / 16.0,
        ]
    }

    fn wrap_coord(&self, x: i32, n: i32) -> i32 {
        match self.wrap {
            Wrap::Clamp => x.clamp(0, n - 1),
            Wrap::Repeat => x.rem_euclid(n),
        }
    }

    /// The level a request reads.
    pub fn level(&self, lod: Lod) -> i32 {
        let l = match lod {
            Lod::Implicit => 0.0,
            Lod::Bias(b) => b,
            Lod::Explicit(l) => l,
            Lod::Gradients { ddx, ddy } => {
                let m = ddx[0]
                    .abs()
                    .max(ddx[1].abs())
                    .max(ddy[0].abs())
                    .max(ddy[1].abs());
                (m * self.size as f32).log2()
            }
        };
        let l = if l.is_nan() { 0.0 } else { l.round() };
        (l.clamp(0.0, (self.levels() - 1) as f32)) as i32
    }
}

impl Sampler for DefaultSampler {
    fn sample(&self, req: &SampleRequest) -> [f32; 4] {
        let level = self.level(req.lod);
        let n = self.width(level);
        let to_texel = |c: f32| {
            let x = (c * n as f32).floor();
            // Saturate before the integer conversion so huge or NaN coordinates stay defined.
            let x = if x.is_nan() {
                0.0
            } else {
                x.clamp(-1.0e9, 1.0e9)
            };
            self.wrap_coord(x as i32, n)
        };
        let colour = self.texel(
            req.unit,
            to_texel(req.coord[0]),
            to_texel(req.coord[1]),
            level,
        );
        match req.compare {
            Some(r) => [if r <= colour[0] { 1.0 } else { 0.0 }; 4],
            None => colour,
        }
    }

    fn fetch(&self, unit: u32, texel: [i32; 2], level: i32) -> [f32; 4] {
        if level < 0 || level >= self.levels() {
            return [0.0; 4];
        }
        let n = self.width(level);
        if texel.iter().any(|&c| c < 0 || c >= n) {
            return [0.0; 4];
        }
        self.texel(unit, texel[0], texel[1], level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_model_by_hand() {
        let s = DefaultSampler::default();
        let req = |coord, lod| SampleRequest {
            unit: 2,
            coord,
            lod,
            compare: None,
        };
        // s = 0.5 on 16 texels → texel 8; t = 0.25 → texel 4.
        assert_eq!(
            s.sample(&req([0.5, 0.25, 0.0, 0.0], Lod::Implicit)),
            [0.5, 0.25, 0.0, 3.0 / 16.0]
        );
        // Level 2 is 4×4: s = 0.5 → texel 2.
        assert_eq!(
            s.sample(&req([0.5, 0.5, 0.0, 0.0], Lod::Explicit(2.2))),
            [2.0 / 16.0, 2.0 / 16.0, 2.0 / 16.0, 3.0 / 16.0]
        );
        // Clamp: s = 1.5 → texel 15; repeat: s = 1.25 → texel 4.
        assert_eq!(
            s.sample(&req([1.5, -1.0, 0.0, 0.0], Lod::Implicit))[..2],
            [15.0 / 16.0, 0.0]
        );
        let r = DefaultSampler {
            wrap: Wrap::Repeat,
            ..DefaultSampler::default()
        };
        assert_eq!(
            r.sample(&req([1.25, -0.25, 0.0, 0.0], Lod::Implicit))[..2],
            [4.0 / 16.0, 12.0 / 16.0]
        );
        // Levels: 16, 8, 4, 2, 1 → lod clamps at 4.
        assert_eq!(s.level(Lod::Bias(9.0)), 4);
        assert_eq!(
            s.level(Lod::Gradients {
                ddx: [0.25, 0.0],
                ddy: [0.0, 0.0]
            }),
            2
        );
        assert_eq!(
            s.fetch(0, [3, 5], 0),
            [3.0 / 16.0, 5.0 / 16.0, 0.0, 1.0 / 16.0]
        );
        assert_eq!(s.fetch(0, [16, 0], 0), [0.0; 4]);
        let shadow = SampleRequest {
            unit: 0,
            coord: [0.5, 0.0, 0.0, 0.0],
            lod: Lod::Implicit,
            compare: Some(0.4),
        };
        assert_eq!(s.sample(&shadow), [1.0; 4]);
    }
}
