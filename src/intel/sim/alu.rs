//! Per-element semantics of the ALU opcodes.
//!
//! Every function here takes already-read, already-modified source values and returns the
//! result in the execution type: integers in `i128` (wrapped or saturated later by the
//! destination conversion, as the EU's wide intermediate does), floats in `f64` rounded to the
//! precision of the execution type by [`Precision::round`].

use super::value::{round_even, FloatEnv, Val};
use crate::intel::eu::{CondMod, MathFn};

/// The precision an operation computes in, from its execution type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// Integer execution type.
    Int,
    /// Single (also for HF and VF operands, which the EU widens to F).
    Single,
    /// Double.
    Double,
}

impl Precision {
    /// Rounds an exact result to the execution precision with cr0's rounding mode.
    pub fn round(self, x: f64, env: FloatEnv) -> f64 {
        match self {
            Precision::Single => env.to_f32(x) as f64,
            _ => x,
        }
    }
}

/// `src0 op src1` of the conditional modifier, or a result tested against zero.
/// Unordered comparisons are false except for "not equal".
pub fn compare(cm: CondMod, a: Val, b: Val) -> Option<bool> {
    let ord = match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(&y)),
        _ => a.f().partial_cmp(&b.f()),
    };
    use std::cmp::Ordering::*;
    Some(match cm {
        CondMod::None => return None,
        CondMod::Z => ord == Some(Equal),
        CondMod::Nz => ord != Some(Equal),
        CondMod::G => ord == Some(Greater),
        CondMod::Ge => matches!(ord, Some(Greater | Equal)),
        CondMod::L => ord == Some(Less),
        CondMod::Le => matches!(ord, Some(Less | Equal)),
        CondMod::U => ord.is_none(),
        CondMod::R | CondMod::O => return None,
    })
}

/// Bits of an integer value at `bits` width, zero-extended.
pub fn as_unsigned(v: i128, bits: u32) -> u128 {
    if bits >= 128 {
        v as u128
    } else {
        (v as u128) & ((1u128 << bits) - 1)
    }
}

/// BFE: extract `width` bits at `offset` of `value` (sign-extending for signed types).
pub fn bfe(width: i128, offset: i128, value: i128, signed: bool) -> i128 {
    let w = (width & 31) as u32;
    let o = (offset & 31) as u32;
    let v = value as u32;
    if w == 0 {
        return 0;
    }
    if w + o < 32 {
        let x = (v << (32 - w - o)) as i32;
        if signed {
            (x >> (32 - w)) as i128
        } else {
            ((x as u32) >> (32 - w)) as i128
        }
    } else if signed {
        ((v as i32) >> o) as i128
    } else {
        (v >> o) as i128
    }
}

/// BFI1: a mask of `width` ones starting at `offset`.
pub fn bfi1(width: i128, offset: i128) -> i128 {
    let w = (width & 31) as u32;
    let o = (offset & 31) as u32;
    let ones = if w == 0 { 0u64 } else { (1u64 << w) - 1 };
    ((ones << o) as u32) as i128
}

/// BFI2: `(mask & insert) | (!mask & base)`.
pub fn bfi2(mask: i128, insert: i128, base: i128) -> i128 {
    let m = mask as u32;
    ((m & insert as u32) | (!m & base as u32)) as i128
}

/// FBH: for unsigned values the index from the MSB of the first one bit; for signed values of
/// the first bit that differs from the sign bit; all ones when there is none.
pub fn fbh(v: i128, signed: bool) -> i128 {
    let x = v as u32;
    let y = if signed && (x as i32) < 0 { !x } else { x };
    if y == 0 {
        0xffff_ffff
    } else {
        y.leading_zeros() as i128
    }
}

/// FBL: the index of the lowest one bit, all ones for zero.
pub fn fbl(v: i128) -> i128 {
    let x = v as u32;
    if x == 0 {
        0xffff_ffff
    } else {
        x.trailing_zeros() as i128
    }
}

/// The float functions of MATH. Integer division is handled by [`int_div`].
pub fn math_float(f: MathFn, a: f64, b: f64) -> Option<f64> {
    Some(match f {
        MathFn::Inv => 1.0 / a,
        MathFn::Log => a.log2(),
        MathFn::Exp => a.exp2(),
        MathFn::Sqrt => a.sqrt(),
        MathFn::Rsq => 1.0 / a.sqrt(),
        MathFn::Sin => a.sin(),
        MathFn::Cos => a.cos(),
        MathFn::Fdiv => a / b,
        MathFn::Pow => a.powf(b),
        _ => return None,
    })
}

/// Integer quotient or remainder, truncating toward zero like C. Division by zero gives a
/// quotient of all ones and a remainder equal to the dividend (the model's choice: the PRM
/// leaves it undefined).
pub fn int_div(f: MathFn, a: i128, b: i128) -> Option<i128> {
    let (q, r) = if b == 0 { (-1, a) } else { (a / b, a % b) };
    match f {
        MathFn::IntDivQuotient => Some(q),
        MathFn::IntDivRemainder => Some(r),
        _ => None,
    }
}

/// RNDD/RNDU/RNDE/RNDZ/FRC.
pub fn round_op(op: crate::intel::eu::Opcode, x: f64) -> f64 {
    use crate::intel::eu::Opcode::*;
    match op {
        Rndd => x.floor(),
        Rndu => x.ceil(),
        Rnde => round_even(x),
        Rndz => x.trunc(),
        _ => x - x.floor(),
    }
}
