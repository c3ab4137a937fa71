//! Raw component bits and their typed views.
//!
//! Every component of every value is held as its raw bits zero-extended to 64 bits, exactly as
//! `load_const` stores them, so the interpreter and constant folding never disagree about
//! representation. Booleans follow NIR: 1-bit booleans are 0/1, wider ones are 0/all-ones.

/// All-ones mask of `bits` bits (bits in 1..=64).
pub fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits.
pub fn sext(v: u64, bits: u8) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let sh = 64 - bits as u32;
        ((v << sh) as i64) >> sh
    }
}

/// NIR's encoding of a boolean of the given bit size.
pub fn bool_bits(b: bool, bits: u8) -> u64 {
    if b {
        mask(bits.max(1))
    } else {
        0
    }
}

/// A float of `bits` bits, widened exactly to f64.
pub fn to_f64(v: u64, bits: u8) -> f64 {
    match bits {
        16 => f16_to_f64(v as u16),
        32 => f32::from_bits(v as u32) as f64,
        _ => f64::from_bits(v),
    }
}

/// Rounds `x` to the nearest float of `bits` bits (ties to even) and returns its bits.
pub fn from_f64(x: f64, bits: u8) -> u64 {
    match bits {
        16 => f64_to_f16(x, Rounding::NearestEven) as u64,
        32 => (x as f32).to_bits() as u64,
        _ => x.to_bits(),
    }
}

/// IEEE rounding direction for narrowing conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    NearestEven,
    TowardZero,
}

/// Exact widening of a binary16 value.
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let man = (h & 0x3ff) as f64;
    let mag = match exp {
        0 => man * (-24f64).exp2(),
        31 if man == 0.0 => f64::INFINITY,
        31 => return f64::NAN.copysign(sign),
        e => (1.0 + man / 1024.0) * ((e - 15) as f64).exp2(),
    };
    sign * mag
}

/// Narrows an f64 to binary16 in one rounding step (no double rounding through f32).
///
/// All scalings are by powers of two, so they are exact in f64 and the only rounding is the
/// final `round_ties_even`/`trunc` of the significand.
pub fn f64_to_f16(x: f64, mode: Rounding) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    let round = |v: f64| match mode {
        Rounding::NearestEven => v.round_ties_even(),
        Rounding::TowardZero => v.trunc(),
    };
    let max_finite = 0x7bffu16;
    if a < (-14f64).exp2() {
        // Subnormal range: units of 2^-24; rounding up to 0x400 gives the smallest normal.
        return sign | round(a * 2f64.powi(24)) as u16;
    }
    let mut e = a.log2().floor() as i32;
    // log2 may be off by one ulp near powers of two; fix the exponent exactly.
    if (e as f64).exp2() > a {
        e -= 1;
    } else if ((e + 1) as f64).exp2() <= a {
        e += 1;
    }
    let m = a / (e as f64).exp2();
    let mut man = round((m - 1.0) * 1024.0) as u32;
    if man == 1024 {
        man = 0;
        e += 1;
    }
    if e > 15 {
        return match mode {
            Rounding::NearestEven => sign | 0x7c00,
            Rounding::TowardZero => sign | max_finite,
        };
    }
    sign | (((e + 15) as u16) << 10) | man as u16
}

/// Rounds an f64 to f32 toward zero.
pub fn f64_to_f32_rtz(x: f64) -> f32 {
    let r = x as f32;
    if r.is_finite() && (r as f64).abs() > x.abs() {
        f32::from_bits(r.to_bits() - 1)
    } else if r.is_infinite() && x.is_finite() {
        f32::MAX.copysign(r)
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_match_binary16() {
        // binary16 facts: 1.0 = 0x3c00, max finite 65504 = 0x7bff, min subnormal 2^-24 = 0x0001.
        assert_eq!(f64_to_f16(1.0, Rounding::NearestEven), 0x3c00);
        assert_eq!(f64_to_f16(-2.0, Rounding::NearestEven), 0xc000);
        assert_eq!(f64_to_f16(65504.0, Rounding::NearestEven), 0x7bff);
        assert_eq!(f64_to_f16(65520.0, Rounding::NearestEven), 0x7c00);
        assert_eq!(f64_to_f16(65519.0, Rounding::NearestEven), 0x7bff);
        assert_eq!(f64_to_f16(1e6, Rounding::TowardZero), 0x7bff);
        assert_eq!(f64_to_f16((-24f64).exp2(), Rounding::NearestEven), 1);
        // Half of the smallest subnormal ties to even (zero).
        assert_eq!(f64_to_f16((-25f64).exp2(), Rounding::NearestEven), 0);
        // 1 + 2^-11 is halfway between 1.0 and the next half: ties to even = 1.0.
        assert_eq!(
            f64_to_f16(1.0 + (-11f64).exp2(), Rounding::NearestEven),
            0x3c00
        );
        assert_eq!(f64_to_f16(-0.0, Rounding::NearestEven), 0x8000);
        assert_eq!(f16_to_f64(0x3555), 0.333251953125);
        assert_eq!(f16_to_f64(0x0001), (-24f64).exp2());
        assert!(f16_to_f64(0x7e00).is_nan());
        assert_eq!(f64_to_f32_rtz(1.0 + 1e-12), 1.0);
        assert_eq!(f64_to_f32_rtz(-(1.0 + 1e-12)), -1.0);
    }

    #[test]
    fn bit_helpers() {
        assert_eq!(sext(0x80, 8), -128);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(mask(32), 0xffff_ffff);
        assert_eq!(bool_bits(true, 1), 1);
        assert_eq!(bool_bits(true, 32), 0xffff_ffff);
    }
}
