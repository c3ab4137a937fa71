//! Half-float conversion and C-style float printing for immediates.
//!
//! The disassembly syntax prints immediates the way isaspec does with printf: integral finite
//! values as `%.1f`, others as `%.9g` (32-bit) or `%.5g` (16-bit), NaN as `nan`/`-nan` with the
//! sign taken from the raw bits.

/// IEEE half → single (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let man = f32::from(h & 0x3ff);
    let mag = match exp {
        0 => man * (2.0f32).powi(-24),
        31 => {
            if man == 0.0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        }
        e => (1024.0 + man) * (2.0f32).powi(e - 25),
    };
    sign * mag
}

/// Single → IEEE half, round to nearest even; out-of-range values become infinity.
pub fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    // Value as an integer count of half-precision units (2^-24) with extra precision bits.
    let (mant, shift) = if e <= 0 {
        if e < -10 {
            return sign;
        }
        (man | 0x80_0000, (14 - e) as u32)
    } else {
        (man, 13u32)
    };
    let half = 1u32 << (shift - 1);
    let rest = mant & ((1 << shift) - 1);
    let mut q = mant >> shift;
    if rest > half || (rest == half && q & 1 == 1) {
        q += 1;
    }
    if e <= 0 {
        sign | q as u16
    } else {
        // A carry out of the mantissa correctly bumps the exponent (up to infinity).
        sign | (((e as u32) << 10) + q) as u16
    }
}

/// C's `%.{prec}g`.
pub fn format_g(x: f64, prec: usize) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        };
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let p = prec.max(1);
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let e_form = format!("{:.*e}", p - 1, x);
    let (mantissa, exp) = e_form.split_once('e').unwrap_or((&e_form, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= p as i32 {
        let m = strip_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{:.*}", decimals, x)).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// An immediate float as isaspec prints it; `negative_bit` is the raw sign (for NaN).
pub fn format_imm_float(x: f32, negative_bit: bool, half: bool) -> String {
    if x.is_nan() {
        return if negative_bit {
            "-nan".into()
        } else {
            "nan".into()
        };
    }
    if x.is_finite() && x == x.trunc() {
        return format!("{:.1}", f64::from(x));
    }
    format_g(f64::from(x), if half { 5 } else { 9 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_format_matches_c() {
        // Values and their glibc printf output.
        assert_eq!(format_g(5.960_464_5e-8, 5), "5.9605e-08");
        assert_eq!(format_g(0.5, 9), "0.5");
        assert_eq!(format_g(4.5, 9), "4.5");
        assert_eq!(format_g(0.1f32 as f64, 9), "0.100000001");
        assert_eq!(format_g(1e10, 5), "1e+10");
        assert_eq!(format_g(123456.0, 5), "1.2346e+05");
        assert_eq!(format_g(0.0001, 5), "0.0001");
        assert_eq!(format_g(f64::INFINITY, 9), "inf");
        assert_eq!(format_imm_float(99.0, false, false), "99.0");
        assert_eq!(format_imm_float(-0.0, true, false), "-0.0");
    }

    #[test]
    fn half_conversions() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
        assert_eq!(f32_to_f16(2f32.powi(-25)), 0x0000);
        assert_eq!(f32_to_f16(3.0 * 2f32.powi(-25)), 0x0002);
        assert_eq!(f32_to_f16(-0.5), 0xb800);
        for h in 0..0x7c00u16 {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#x}");
        }
    }
}
