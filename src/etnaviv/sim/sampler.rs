//! Texture access for the simulator, through the NIR interpreter's texture model.
//!
//! The simulator and the reference interpreter must return the same texels for the same
//! request, or no compiled shader that samples could ever match its reference. The model
//! therefore lives in one place, the target-neutral [`crate::nir::interp::sampler`]; this module
//! only translates a Vivante sampling request (unit, coordinate register, LOD mode) into that
//! model's terms. Only 2D sampling is modelled: the coordinate's x and y are passed on.

use crate::nir::interp::sampler::{DefaultSampler as Model, Sampler as _, TexRequest};

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

/// Units a [`DefaultSampler`] describes.
pub const UNITS: usize = 32;

/// The NIR interpreter's default model seen from the hardware's sampler units.
///
/// Vertex shaders sample through units placed after the fragment ones; `first_unit` is the
/// unit that shows texture 0, so that texture indices agree with the NIR the program came
/// from. The coordinate register always has four components; how many of them address the
/// texture depends on the texture bound to the unit (1D, 2D, 3D/cube/array), which
/// `coord_dims` gives per unit (2 by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefaultSampler {
    pub first_unit: u32,
    pub coord_dims: [u8; UNITS],
}

impl Default for DefaultSampler {
    fn default() -> DefaultSampler {
        DefaultSampler {
            first_unit: 0,
            coord_dims: [2; UNITS],
        }
    }
}

impl DefaultSampler {
    fn coord(&self, unit: u32, c: [f64; 4]) -> Vec<f64> {
        let n = self.coord_dims.get(unit as usize).copied().unwrap_or(2);
        c[..usize::from(n.clamp(1, 4))].to_vec()
    }

    fn texture(&self, unit: u32) -> u32 {
        unit.saturating_sub(self.first_unit)
    }

    fn run(&self, req: TexRequest) -> [f32; 4] {
        // The model only fails on requests it cannot express; those read black.
        Model.sample(&req).map_or([0.0; 4], |v| v.map(|x| x as f32))
    }
}

impl Sampler for DefaultSampler {
    fn sample(&self, req: &SampleRequest) -> [f32; 4] {
        let t = self.texture(req.unit);
        let (op, lod, bias) = match req.lod {
            Lod::Implicit => ("tex", None, None),
            Lod::Bias(b) => ("txb", None, Some(f64::from(b))),
            Lod::Explicit(l) => ("txl", Some(f64::from(l)), None),
            Lod::Gradients { .. } => ("txd", None, None),
        };
        self.run(TexRequest {
            op,
            texture: t,
            sampler: t,
            coord: self.coord(req.unit, req.coord.map(f64::from)),
            lod,
            bias,
            comparator: req.compare.map(f64::from),
            offset: Vec::new(),
            integer: false,
        })
    }

    fn fetch(&self, unit: u32, texel: [i32; 2], level: i32) -> [f32; 4] {
        let t = self.texture(unit);
        self.run(TexRequest {
            op: "txf",
            texture: t,
            sampler: t,
            coord: self.coord(unit, [f64::from(texel[0]), f64::from(texel[1]), 0.0, 0.0]),
            lod: Some(f64::from(level)),
            bias: None,
            comparator: None,
            offset: Vec::new(),
            integer: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected texels from the model's documentation: texture `t`, level `l`, texel `(x, y)`
    /// is `((x + 1) / 32, (y + 1) / 32, (t + 1) / 8, 1 - l / 8)`, nearest, repeat, 16×16.
    #[test]
    fn follows_the_interpreter_model_by_hand() {
        let s = DefaultSampler::default();
        let req = |coord, lod| SampleRequest {
            unit: 2,
            coord,
            lod,
            compare: None,
        };
        // s = 0.5 on 16 texels → texel 8; t = 0.25 → texel 4.
        assert_eq!(
            s.sample(&req([0.5, 0.25, 9.0, 9.0], Lod::Implicit)),
            [9.0 / 32.0, 5.0 / 32.0, 3.0 / 8.0, 1.0]
        );
        // Level 2 is 4×4: s = 0.5 → texel 2.
        assert_eq!(
            s.sample(&req([0.5, 0.5, 0.0, 0.0], Lod::Explicit(2.2))),
            [3.0 / 32.0, 3.0 / 32.0, 3.0 / 8.0, 0.75]
        );
        // Bias 1 selects level 1 (8×8): s = 0.5 → texel 4.
        assert_eq!(
            s.sample(&req([0.5, 0.5, 0.0, 0.0], Lod::Bias(1.0)))[0],
            5.0 / 32.0
        );
        // Repeat: s = 1.25 → texel 20 mod 16 = 4.
        assert_eq!(
            s.sample(&req([1.25, 0.0, 0.0, 0.0], Lod::Implicit))[0],
            5.0 / 32.0
        );
        // Vertex units: with texture 0 at unit 16, unit 17 shows texture 1.
        let vs = DefaultSampler {
            first_unit: 16,
            ..DefaultSampler::default()
        };
        let r = SampleRequest {
            unit: 17,
            coord: [0.0; 4],
            lod: Lod::Implicit,
            compare: None,
        };
        assert_eq!(vs.sample(&r)[2], 2.0 / 8.0);
        assert_eq!(
            s.fetch(0, [3, 5], 0),
            [4.0 / 32.0, 6.0 / 32.0, 1.0 / 8.0, 1.0]
        );
        let shadow = SampleRequest {
            unit: 0,
            coord: [0.5, 0.0, 0.0, 0.0],
            lod: Lod::Implicit,
            compare: Some(0.2),
        };
        assert_eq!(s.sample(&shadow), [1.0; 4]);
        // A 3D texture on unit 1: r = 0.5 over a depth of 4 → layer 2, adding 2/64 to blue.
        let mut dims = DefaultSampler::default();
        dims.coord_dims[1] = 3;
        let r3 = SampleRequest {
            unit: 1,
            coord: [0.0, 0.0, 0.5, 0.0],
            lod: Lod::Implicit,
            compare: None,
        };
        assert_eq!(dims.sample(&r3)[2], 2.0 / 8.0 + 2.0 / 64.0);
        // The same request on a 2D unit ignores z.
        assert_eq!(s.sample(&SampleRequest { unit: 1, ..r3 })[2], 2.0 / 8.0);
    }
}
