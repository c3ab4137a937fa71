//! Blending, logic ops, sRGB and the comparison functions of the pixel engine, as GL defines
//! them (the hardware's blend factor, equation, logic op and compare numbering is GL's order:
//! Mesa's etnaviv_blend.c passes gallium's values through unchanged).

/// A compare function (PE depth, stencil and alpha tests): never, less, equal, less-or-equal,
/// greater, not-equal, greater-or-equal, always; `a` is the incoming value, `b` the stored one.
pub fn compare<T: PartialOrd>(func: u32, a: T, b: T) -> bool {
    match func & 7 {
        0 => false,
        1 => a < b,
        2 => a == b,
        3 => a <= b,
        4 => a > b,
        5 => a != b,
        6 => a >= b,
        _ => true,
    }
}

/// Blend factor `f` for channel `i` (3 = alpha).
fn factor(f: u32, i: usize, src: &[f32; 4], dst: &[f32; 4], constant: &[f32; 4]) -> f32 {
    match f {
        0 => 0.0,
        1 => 1.0,
        2 => src[i],
        3 => 1.0 - src[i],
        4 => src[3],
        5 => 1.0 - src[3],
        6 => dst[3],
        7 => 1.0 - dst[3],
        8 => dst[i],
        9 => 1.0 - dst[i],
        10 if i == 3 => 1.0,
        10 => src[3].min(1.0 - dst[3]),
        11 => constant[3],
        12 => 1.0 - constant[3],
        13 => constant[i],
        14 => 1.0 - constant[i],
        _ => 0.0,
    }
}

/// One blend equation: add, subtract, reverse subtract, min, max.
fn equation(eq: u32, s: f32, sf: f32, d: f32, df: f32) -> f32 {
    match eq {
        1 => s * sf - d * df,
        2 => d * df - s * sf,
        3 => s.min(d),
        4 => s.max(d),
        _ => s * sf + d * df,
    }
}

/// Blends `src` over `dst` as PE_ALPHA_CONFIG says (blending assumed enabled). Without
/// SEPARATE_ALPHA the colour factors and equation apply to alpha too.
pub fn blend(config: u32, src: [f32; 4], dst: [f32; 4], constant: [f32; 4]) -> [f32; 4] {
    let field = |shift: u32, bits: u32| (config >> shift) & ((1 << bits) - 1);
    let color = (field(4, 4), field(8, 4), field(12, 3));
    let alpha = if config & (1 << 16) != 0 {
        (field(20, 4), field(24, 4), field(28, 3))
    } else {
        color
    };
    let mut out = [0.0; 4];
    for (i, o) in out.iter_mut().enumerate() {
        let (sf, df, eq) = if i == 3 { alpha } else { color };
        *o = equation(
            eq,
            src[i],
            factor(sf, i, &src, &dst, &constant),
            dst[i],
            factor(df, i, &src, &dst, &constant),
        );
    }
    out
}

/// Logic op `op` (GL's numbering, COPY = 12) of source bits `s` and destination bits `d`.
pub fn logic_op(op: u32, s: u64, d: u64) -> u64 {
    match op & 15 {
        0 => 0,
        1 => !(s | d),
        2 => !s & d,
        3 => !s,
        4 => s & !d,
        5 => !d,
        6 => s ^ d,
        7 => !(s & d),
        8 => s & d,
        9 => !(s ^ d),
        10 => d,
        11 => !s | d,
        12 => s,
        13 => s | !d,
        14 => s | d,
        _ => u64::MAX,
    }
}

pub fn linear_to_srgb(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// sRGB-encoded component to linear: the texture unit's curve, at the pixel engine's
/// precision.
pub fn srgb_to_linear(c: f32) -> f32 {
    crate::etnaviv::gpu::texture::format::srgb_to_linear(f64::from(c)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_alpha_blending() {
        // SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD: 0.25 * src + 0.75 * dst.
        let config = 1 | (4 << 4) | (5 << 8);
        let out = blend(
            config,
            [1.0, 0.0, 0.0, 0.25],
            [0.0, 0.0, 1.0, 1.0],
            [0.0; 4],
        );
        assert_eq!(out, [0.25, 0.0, 0.75, 0.25 * 0.25 + 0.75]);
    }

    #[test]
    fn separate_alpha_and_reverse_subtract() {
        // Colour: ONE, ONE, REVERSE_SUBTRACT (dst - src); alpha: ZERO, CONSTANT_ALPHA, ADD.
        let config = 1 | (1 << 4) | (1 << 8) | (2 << 12) | (1 << 16) | (11 << 24);
        let out = blend(
            config,
            [0.25, 0.5, 0.0, 1.0],
            [1.0, 1.0, 1.0, 0.5],
            [0.0, 0.0, 0.0, 0.5],
        );
        assert_eq!(out, [0.75, 0.5, 1.0, 0.25]);
    }

    #[test]
    fn min_max_ignore_factors_and_saturate_factor_is_one_for_alpha() {
        let config = 1 | (3 << 12);
        assert_eq!(blend(config, [0.2; 4], [0.7; 4], [0.0; 4]), [0.2; 4]);
        // SRC_ALPHA_SATURATE, ZERO: colour scaled by min(0.5, 1 - 0.75), alpha by 1.
        let sat = 1 | (10 << 4);
        assert_eq!(
            blend(sat, [1.0, 1.0, 1.0, 0.5], [0.0, 0.0, 0.0, 0.75], [0.0; 4]),
            [0.25, 0.25, 0.25, 0.5]
        );
    }

    #[test]
    fn compare_functions_in_gl_order() {
        let results: Vec<bool> = (0..8).map(|f| compare(f, 1, 2)).collect();
        assert_eq!(
            results,
            [false, true, false, true, false, true, false, true]
        );
        assert!(compare(2, 5, 5) && compare(6, 5, 5) && !compare(4, 5, 5));
    }

    #[test]
    fn srgb_round_trips() {
        for v in [0.0, 0.001, 0.2, 0.5, 1.0] {
            assert!((srgb_to_linear(linear_to_srgb(v)) - v).abs() < 1e-5);
        }
        assert!((linear_to_srgb(0.5) - 0.735_356_7).abs() < 1e-5);
    }
}
