//! Float arithmetic per component, following the constant expressions of `nir_opcodes.py`.
//!
//! Values are widened exactly to f64 and each C operation of Mesa's definition is rounded back
//! to the instruction's bit size, so `a + b` on float32 is the correctly rounded f32 sum (an f64
//! intermediate never double-rounds +, -, *, / or sqrt for 16- or 32-bit operands). The
//! transcendental ops (exp2, log2, pow, sin, cos, rsq) are evaluated in f64 and rounded once:
//! more accurate than any GPU, which is what a reference wants.

use super::super::value::{f64_to_f16, from_f64, to_f64, Rounding};
use crate::nir::opcodes::AluOp;

/// Rounds to the precision of a `bits`-bit float and widens again (one C operation's result).
fn rd(x: f64, bits: u8) -> f64 {
    to_f64(from_f64(x, bits), bits)
}

/// C `fmin` as Mesa uses it: a NaN operand yields the other operand. C leaves the sign of a
/// zero result open; we order -0 below +0 so that the op stays commutative.
pub fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else if b < a {
        b
    } else if a.is_sign_negative() {
        a
    } else {
        b
    }
}

/// C `fmax`, with +0 ordered above -0 (see [`fmin`]).
pub fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else if b > a {
        b
    } else if a.is_sign_positive() {
        a
    } else {
        b
    }
}

/// Fused multiply-add at the given precision.
fn fma(a: f64, b: f64, c: f64, bits: u8) -> u64 {
    match bits {
        32 => (a as f32).mul_add(b as f32, c as f32).to_bits() as u64,
        64 => a.mul_add(b, c).to_bits(),
        // binary16 products are exact in f64; the sum is rounded twice only when the operands'
        // exponents are more than 53 apart, where the f16 result is c anyway.
        _ => from_f64(a.mul_add(b, c), bits),
    }
}

/// Evaluates a per-component float op whose result is a float of `bits` bits.
/// Returns None when `op` is not in this family.
pub fn eval(op: AluOp, bits: u8, s: &[u64]) -> Option<u64> {
    let f = |i: usize| to_f64(s[i], bits);
    let r = |x: f64| from_f64(x, bits);
    let sign_bit = 1u64 << (bits - 1);
    Some(match op {
        AluOp::fneg => s[0] ^ sign_bit,
        AluOp::fabs => s[0] & !sign_bit,
        AluOp::fadd => r(f(0) + f(1)),
        AluOp::fsub => r(f(0) - f(1)),
        AluOp::fmul => r(f(0) * f(1)),
        AluOp::fmulz => {
            if f(0) == 0.0 || f(1) == 0.0 {
                r(0.0)
            } else {
                r(f(0) * f(1))
            }
        }
        AluOp::fdiv => r(f(0) / f(1)),
        AluOp::ffma => fma(f(0), f(1), f(2), bits),
        AluOp::ffmaz => {
            if f(0) == 0.0 || f(1) == 0.0 {
                r(0.0 + f(2))
            } else {
                fma(f(0), f(1), f(2), bits)
            }
        }
        AluOp::flrp => {
            let one_minus = rd(1.0 - f(2), bits);
            r(rd(f(0) * one_minus, bits) + rd(f(1) * f(2), bits))
        }
        AluOp::fmin => r(fmin(f(0), f(1))),
        AluOp::fmax => r(fmax(f(0), f(1))),
        AluOp::fsat => r(fmin(fmax(f(0), 0.0), 1.0)),
        AluOp::fsign => {
            let x = f(0);
            if x.is_nan() {
                r(0.0)
            } else if x == 0.0 {
                s[0]
            } else if x > 0.0 {
                r(1.0)
            } else {
                r(-1.0)
            }
        }
        AluOp::frcp => r(1.0 / f(0)),
        AluOp::frsq => r(1.0 / f(0).sqrt()),
        AluOp::fsqrt => r(f(0).sqrt()),
        AluOp::fexp2 => r(f(0).exp2()),
        AluOp::flog2 => r(f(0).log2()),
        AluOp::fsin => r(f(0).sin()),
        AluOp::fcos => r(f(0).cos()),
        AluOp::fsin_amd => r((std::f64::consts::TAU * f(0)).sin()),
        AluOp::fcos_amd => r((std::f64::consts::TAU * f(0)).cos()),
        AluOp::fsin_mdg => r((std::f64::consts::PI * f(0)).sin()),
        AluOp::fcos_mdg => r((std::f64::consts::PI * f(0)).cos()),
        AluOp::fpow => r(f(0).powf(f(1))),
        AluOp::ftrunc => r(f(0).trunc()),
        AluOp::fceil => r(f(0).ceil()),
        AluOp::ffloor => r(f(0).floor()),
        AluOp::ffract => r(f(0) - f(0).floor()),
        AluOp::fround_even => r(f(0).round_ties_even()),
        AluOp::fmod => {
            let q = rd(f(0) / f(1), bits).floor();
            r(f(0) - rd(f(1) * q, bits))
        }
        AluOp::frem => {
            let q = rd(f(0) / f(1), bits).trunc();
            r(f(0) - rd(f(1) * q, bits))
        }
        AluOp::fquantize2f16 => {
            let x = f(0);
            if x.abs() < (-14f64).exp2() {
                r(0.0f64.copysign(x))
            } else {
                let h = f64_to_f16(x, Rounding::NearestEven);
                r(to_f64(h as u64, 16))
            }
        }
        AluOp::ldexp => {
            // Mesa flushes every non-normal result (zero, denormal, inf, NaN) to a signed zero.
            let e = (s[1] as u32 as i32).clamp(-2200, 2200);
            let half = e / 2;
            let scaled = f(0) * (half as f64).exp2() * ((e - half) as f64).exp2();
            let v = rd(scaled, bits);
            if v.is_normal() {
                r(v)
            } else {
                r(0.0f64.copysign(f(0)))
            }
        }
        AluOp::frexp_sig => {
            let x = f(0);
            if x == 0.0 || !x.is_finite() {
                s[0]
            } else {
                let (m, _) = frexp(x);
                r(m)
            }
        }
        AluOp::fddx
        | AluOp::fddy
        | AluOp::fddx_fine
        | AluOp::fddy_fine
        | AluOp::fddx_coarse
        | AluOp::fddy_coarse => {
            // The constant-folding definition: the derivative of a constant.
            if f(0).is_finite() {
                r(0.0)
            } else {
                r(f64::NAN)
            }
        }
        AluOp::slt => r(if f(0) < f(1) { 1.0 } else { 0.0 }),
        AluOp::sge => r(if f(0) >= f(1) { 1.0 } else { 0.0 }),
        AluOp::seq => r(if f(0) == f(1) { 1.0 } else { 0.0 }),
        AluOp::sne => r(if f(0) != f(1) { 1.0 } else { 0.0 }),
        AluOp::fcsel => pick(f(0) != 0.0, s),
        AluOp::fcsel_gt => pick(f(0) > 0.0, s),
        AluOp::fcsel_ge => pick(f(0) >= 0.0, s),
        _ => return None,
    })
}

fn pick(cond: bool, s: &[u64]) -> u64 {
    if cond {
        s[1]
    } else {
        s[2]
    }
}

/// C `frexp` for finite non-zero x: x = m * 2^e with 0.5 <= |m| < 1.
pub fn frexp(x: f64) -> (f64, i32) {
    let mut e = x.abs().log2().floor() as i32 + 1;
    let mut m = x / (e as f64).exp2();
    // Correct log2's rounding near powers of two.
    if m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    } else if m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m, e)
}
