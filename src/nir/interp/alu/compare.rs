//! Comparisons: a boolean per component, encoded at the destination's bit size (0/1 for
//! 1-bit booleans, 0/all-ones otherwise). Float comparisons are IEEE: every ordered comparison
//! with a NaN is false and `fneu` is true.

use super::super::value::{mask, sext, to_f64};

/// `name` without its boolean-size suffix (`flt32` -> `flt`).
fn family(name: &str) -> &str {
    name.trim_end_matches(|c: char| c.is_ascii_digit())
}

/// Evaluates a per-component comparison on sources of `bits` bits; None when `name` is not a
/// comparison.
pub fn eval(name: &str, bits: u8, s: &[u64]) -> Option<bool> {
    let f = |i: usize| to_f64(s[i], bits);
    let i = |k: usize| sext(s[k], bits);
    let u = |k: usize| s[k] & mask(bits);
    Some(match family(name) {
        "flt" => f(0) < f(1),
        "fge" => f(0) >= f(1),
        "feq" => f(0) == f(1),
        "fneu" => f(0) != f(1),
        "ilt" => i(0) < i(1),
        "ige" => i(0) >= i(1),
        "ieq" => u(0) == u(1),
        "ine" => u(0) != u(1),
        "ult" => u(0) < u(1),
        "uge" => u(0) >= u(1),
        "bitnz" | "bitz" => {
            let bit = (u(0) >> ((s[1] as u32) & (bits as u32 - 1))) & 1;
            (bit == 1) == (family(name) == "bitnz")
        }
        "fisfinite" => f(0).is_finite(),
        "fisnormal" => f(0).is_normal(),
        _ => return None,
    })
}
