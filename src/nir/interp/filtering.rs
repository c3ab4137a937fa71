//! Texture filtering arithmetic that every texture model shares: the GL rules for texel taps,
//! the level of detail from gradients, mip level selection and depth comparison.
//!
//! The piglit runner's GL-level textures (`piglit::texture`) and the simulated Vivante texture
//! unit (`etnaviv::gpu::texture`) both sample through these, so a rule is written once and a
//! fix reaches both.

/// A depth comparison: the result is 1 when `reference OP texel` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFunc {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    Always,
}

impl CompareFunc {
    pub fn test(self, reference: f64, texel: f64) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => reference < texel,
            CompareFunc::Equal => reference == texel,
            CompareFunc::LessEqual => reference <= texel,
            CompareFunc::Greater => reference > texel,
            CompareFunc::NotEqual => reference != texel,
            CompareFunc::GreaterEqual => reference >= texel,
            CompareFunc::Always => true,
        }
    }

    /// The function by its GL suffix as shader_runner spells it (`lequal`, `greater`, ...).
    pub fn from_name(name: &str) -> Option<CompareFunc> {
        Some(match name {
            "never" => CompareFunc::Never,
            "less" => CompareFunc::Less,
            "equal" => CompareFunc::Equal,
            "lequal" => CompareFunc::LessEqual,
            "greater" => CompareFunc::Greater,
            "notequal" => CompareFunc::NotEqual,
            "gequal" => CompareFunc::GreaterEqual,
            "always" => CompareFunc::Always,
            _ => return None,
        })
    }
}

/// The texel GL_NEAREST reads at texel-space coordinate `u` (coordinate times size).
pub fn nearest_tap(u: f64) -> i64 {
    u.floor() as i64
}

/// The two texels GL_LINEAR blends at texel-space coordinate `u`, with their weights: texel
/// centres sit at half-integers, so `u = 2.5` is texel 2 alone and `u = 3.0` half 2, half 3.
pub fn linear_taps(u: f64) -> [(i64, f64); 2] {
    let s = u - 0.5;
    let i = s.floor();
    let a = s - i;
    [(i as i64, 1.0 - a), (i as i64 + 1, a)]
}

/// The level of detail from coordinate gradients: log2 of the longer of the two derivative
/// vectors scaled to texels (GL's ρ, without the optional approximations). `size` is the
/// texel size of the level the gradients are measured against; `dims` how many coordinates
/// count.
pub fn lod_from_gradients(ddx: &[f64], ddy: &[f64], size: [u32; 3], dims: usize) -> f64 {
    let len = |d: &[f64]| {
        d.iter()
            .take(dims)
            .enumerate()
            .map(|(i, v)| (v * f64::from(size[i.min(2)])).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    len(ddx).max(len(ddy)).log2()
}

/// The level GL's *_MIPMAP_NEAREST filters read at level of detail `lod` (> 0), relative to
/// the base level: `ceil(lod + 0.5) - 1`, and the base level itself up to 0.5.
pub fn nearest_mip_level(lod: f64) -> usize {
    if lod <= 0.5 {
        0
    } else {
        ((lod + 0.5).ceil() as usize).saturating_sub(1)
    }
}

/// The two levels GL's *_MIPMAP_LINEAR filters blend at level of detail `lod` (> 0),
/// relative to the base level, and the weight of the second; `last` is the highest level
/// there is, which both are clamped to (the weight then is 0).
pub fn linear_mip_levels(lod: f64, last: usize) -> (usize, usize, f64) {
    let d1 = (lod.floor() as usize).min(last);
    let d2 = (d1 + 1).min(last);
    let frac = if lod.floor() as usize >= last {
        0.0
    } else {
        lod.fract()
    };
    (d1, d2, frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taps_and_levels_follow_the_gl_rules() {
        assert_eq!(nearest_tap(2.99), 2);
        assert_eq!(nearest_tap(-0.01), -1);
        // Centre of texel 2: all of texel 2; a quarter past it: 3/4 of 2, 1/4 of 3.
        assert_eq!(linear_taps(2.5), [(2, 1.0), (3, 0.0)]);
        assert_eq!(linear_taps(2.75), [(2, 0.75), (3, 0.25)]);
        assert_eq!(linear_taps(0.25), [(-1, 0.25), (0, 0.75)]);
        // Two texels per pixel in x on a 16-wide level: λ = 1.
        assert_eq!(
            lod_from_gradients(&[2.0 / 16.0, 0.0], &[0.0, 0.5 / 16.0], [16, 16, 1], 2),
            1.0
        );
        assert_eq!(nearest_mip_level(0.5), 0);
        assert_eq!(nearest_mip_level(0.6), 1);
        assert_eq!(nearest_mip_level(1.5), 1);
        assert_eq!(nearest_mip_level(1.51), 2);
        assert_eq!(linear_mip_levels(1.25, 3), (1, 2, 0.25));
        assert_eq!(linear_mip_levels(3.5, 3), (3, 3, 0.0));
    }
}
