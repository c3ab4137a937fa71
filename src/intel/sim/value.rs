//! Element values and the conversions between EU data types.
//!
//! An element read from a register becomes a [`Val`]: integers widen losslessly into `i128`
//! (so that UQ and the 33-bit intermediates of integer ALU operations are exact), floats into
//! `f64` (so that HF/F/DF all fit). Writing converts to the destination type as the EU does:
//! float → integer rounds toward zero and clamps to the type's range (NaN becomes 0), integer →
//! integer keeps the low bits unless saturating, float → float rounds with the mode in cr0.

use crate::intel::eu::RegType;

/// One element in flight between a read and a write.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    /// An integer of any EU integer type, sign- or zero-extended per its type.
    Int(i128),
    /// A floating-point value (HF and F values are exactly representable).
    Float(f64),
}

impl Val {
    /// The value as a float (integers convert exactly enough for the ALU's purposes).
    pub fn f(self) -> f64 {
        match self {
            Val::Int(i) => i as f64,
            Val::Float(f) => f,
        }
    }

    /// The value as an integer (floats truncate toward zero; NaN is 0).
    pub fn i(self) -> i128 {
        match self {
            Val::Int(i) => i,
            Val::Float(f) if f.is_nan() => 0,
            Val::Float(f) => f.trunc().clamp(i128::MIN as f64, i128::MAX as f64) as i128,
        }
    }
}

/// Rounding mode of cr0.0 bits 5:4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rounding {
    /// Round to nearest, ties to even (the reset value).
    #[default]
    NearestEven,
    /// Toward +infinity.
    Up,
    /// Toward -infinity.
    Down,
    /// Toward zero.
    Zero,
}

impl Rounding {
    /// Decodes cr0.0.
    pub fn from_cr0(cr0: u32) -> Rounding {
        match (cr0 >> 4) & 3 {
            0 => Rounding::NearestEven,
            1 => Rounding::Up,
            2 => Rounding::Down,
            _ => Rounding::Zero,
        }
    }
}

/// Floating-point environment of one instruction, from cr0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FloatEnv {
    /// Rounding of results narrower than the computation.
    pub rounding: Rounding,
    /// cr0.0 bit 7: single-precision denormals are kept instead of flushed to zero.
    pub keep_f32_denorms: bool,
}

impl FloatEnv {
    /// Decodes cr0.0 (bit 7: single-precision denorm mode; bits 5:4 rounding mode).
    pub fn from_cr0(cr0: u32) -> FloatEnv {
        FloatEnv {
            rounding: Rounding::from_cr0(cr0),
            keep_f32_denorms: cr0 & (1 << 7) != 0,
        }
    }

    /// Rounds `x` to single precision, flushing denormals unless cr0 keeps them.
    pub fn to_f32(self, x: f64) -> f32 {
        let r = round_f32(x, self.rounding);
        self.flush(r)
    }

    /// Flushes a single-precision denormal to a zero of the same sign, unless kept.
    pub fn flush(self, r: f32) -> f32 {
        if !self.keep_f32_denorms && r.is_subnormal() {
            if r.is_sign_negative() {
                -0.0
            } else {
                0.0
            }
        } else {
            r
        }
    }
}

fn next_up(f: f32) -> f32 {
    if f.is_nan() || f == f32::INFINITY {
        return f;
    }
    if f == 0.0 {
        return f32::from_bits(1);
    }
    let b = f.to_bits();
    f32::from_bits(if f > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(f: f32) -> f32 {
    -next_up(-f)
}

/// Rounds a double to single precision with `mode`.
pub fn round_f32(x: f64, mode: Rounding) -> f32 {
    let r = x as f32;
    if !x.is_finite() || r as f64 == x {
        return r;
    }
    match mode {
        Rounding::NearestEven => r,
        Rounding::Up => {
            if (r as f64) < x {
                next_up(r)
            } else {
                r
            }
        }
        Rounding::Down => {
            if (r as f64) > x {
                next_down(r)
            } else {
                r
            }
        }
        Rounding::Zero => {
            if (r as f64).abs() > x.abs() {
                if r > 0.0 {
                    next_down(r)
                } else {
                    next_up(r)
                }
            } else {
                r
            }
        }
    }
}

/// IEEE half → single.
pub fn half_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) & 1) as u32;
    let exp = ((h >> 10) & 0x1f) as i32;
    let man = (h & 0x3ff) as u32;
    let bits = if exp == 0 {
        if man == 0 {
            sign << 31
        } else {
            // Denormal half: value = man * 2^-24, always a normal single.
            let v = man as f32 * (1.0 / 16_777_216.0);
            return if sign == 1 { -v } else { v };
        }
    } else if exp == 31 {
        (sign << 31) | 0x7f80_0000 | (man << 13)
    } else {
        (sign << 31) | (((exp - 15 + 127) as u32) << 23) | (man << 13)
    };
    f32::from_bits(bits)
}

/// Single → IEEE half, rounding to nearest even (overflow gives infinity, NaN stays NaN).
pub fn f32_to_half(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if f.is_nan() {
        return sign | 0x7e00;
    }
    let a = f.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 6.103_515_6e-5 {
        // Denormal (or zero) half: units of 2^-24, rounded to nearest even.
        let units = (a as f64) * 16_777_216.0;
        let r = round_even(units);
        return sign | r as u16;
    }
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let man = b & 0x7f_ffff;
    let mut h = ((exp as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

/// Round half to even for doubles (RNDE).
pub fn round_even(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

/// Decodes the raw little-endian bits of one element of type `ty`.
pub fn from_bits(ty: RegType, bits: u64, env: FloatEnv) -> Val {
    match ty {
        RegType::UD => Val::Int(bits as u32 as i128),
        RegType::D => Val::Int(bits as u32 as i32 as i128),
        RegType::UW | RegType::UV => Val::Int(bits as u16 as i128),
        RegType::W | RegType::V => Val::Int(bits as u16 as i16 as i128),
        RegType::UB => Val::Int(bits as u8 as i128),
        RegType::B => Val::Int(bits as u8 as i8 as i128),
        RegType::UQ => Val::Int(bits as i128),
        RegType::Q => Val::Int(bits as i64 as i128),
        RegType::F | RegType::VF => Val::Float(env.flush(f32::from_bits(bits as u32)) as f64),
        RegType::HF => Val::Float(half_to_f32(bits as u16) as f64),
        RegType::DF => Val::Float(f64::from_bits(bits)),
    }
}

fn int_range(ty: RegType) -> (i128, i128) {
    match ty {
        RegType::UD => (0, u32::MAX as i128),
        RegType::D => (i32::MIN as i128, i32::MAX as i128),
        RegType::UW | RegType::UV => (0, u16::MAX as i128),
        RegType::W | RegType::V => (i16::MIN as i128, i16::MAX as i128),
        RegType::UB => (0, u8::MAX as i128),
        RegType::B => (i8::MIN as i128, i8::MAX as i128),
        RegType::UQ => (0, u64::MAX as i128),
        _ => (i64::MIN as i128, i64::MAX as i128),
    }
}

/// Converts `v` to the raw bits of type `ty`, saturating when `sat` is set.
pub fn to_bits(ty: RegType, v: Val, sat: bool, env: FloatEnv) -> u64 {
    if ty.is_float() {
        let mut f = v.f();
        if sat {
            f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
        }
        return match ty {
            RegType::DF => f.to_bits(),
            RegType::HF => f32_to_half(env.to_f32(f)) as u64,
            _ => env.to_f32(f).to_bits() as u64,
        };
    }
    let (lo, hi) = int_range(ty);
    let i = match v {
        // Float to integer always clamps to the destination range.
        Val::Float(f) => {
            if f.is_nan() {
                0
            } else {
                let t = f.trunc();
                if t <= lo as f64 {
                    lo
                } else if t >= hi as f64 {
                    hi
                } else {
                    t as i128
                }
            }
        }
        Val::Int(i) if sat => i.clamp(lo, hi),
        Val::Int(i) => i,
    };
    let size = ty.size();
    let mask = if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    };
    (i as u64) & mask
}

/// Decodes a restricted 8-bit float of a VF immediate: sign, 3-bit exponent (bias 3), 4-bit
/// mantissa; exponent 0 with mantissa 0 is zero.
pub fn vf_to_f32(b: u8) -> f32 {
    let sign = (b >> 7) & 1;
    let exp = ((b >> 4) & 7) as i32;
    let man = (b & 0xf) as u32;
    let mag = if exp == 0 && man == 0 {
        0.0
    } else {
        f32::from_bits((((exp - 3 + 127) as u32) << 23) | (man << 19))
    };
    if sign == 1 {
        -mag
    } else {
        mag
    }
}
