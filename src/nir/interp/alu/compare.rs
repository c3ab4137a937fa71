//! Comparisons: a boolean per component, encoded at the destination's bit size (0/1 for
//! 1-bit booleans, 0/all-ones otherwise). Float comparisons are IEEE: every ordered comparison
//! with a NaN is false and `fneu` is true.

use super::super::value::{mask, sext, to_f64};
use crate::nir::opcodes::AluOp;

/// Evaluates a per-component comparison on sources of `bits` bits; None when `op` is not a
/// comparison. Each family has a 1-bit boolean form and 8-, 16- and 32-bit ones.
pub fn eval(op: AluOp, bits: u8, s: &[u64]) -> Option<bool> {
    use AluOp::*;
    let f = |i: usize| to_f64(s[i], bits);
    let i = |k: usize| sext(s[k], bits);
    let u = |k: usize| s[k] & mask(bits);
    let bit = || (u(0) >> ((s[1] as u32) & (bits as u32 - 1))) & 1 == 1;
    Some(match op {
        flt | flt8 | flt16 | flt32 => f(0) < f(1),
        fge | fge8 | fge16 | fge32 => f(0) >= f(1),
        feq | feq8 | feq16 | feq32 => f(0) == f(1),
        fneu | fneu8 | fneu16 | fneu32 => f(0) != f(1),
        ilt | ilt8 | ilt16 | ilt32 => i(0) < i(1),
        ige | ige8 | ige16 | ige32 => i(0) >= i(1),
        ieq | ieq8 | ieq16 | ieq32 => u(0) == u(1),
        ine | ine8 | ine16 | ine32 => u(0) != u(1),
        ult | ult8 | ult16 | ult32 => u(0) < u(1),
        uge | uge8 | uge16 | uge32 => u(0) >= u(1),
        bitnz | bitnz8 | bitnz16 | bitnz32 => bit(),
        bitz | bitz8 | bitz16 | bitz32 => !bit(),
        fisfinite | fisfinite32 => f(0).is_finite(),
        fisnormal => f(0).is_normal(),
        _ => return None,
    })
}
