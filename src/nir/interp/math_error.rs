//! Deliberate error in the inexact operations, for judging which results a check may compare.
//!
//! The hardware's transcendentals (`frcp`, `frsq`, `fsqrt`, `fexp2`, `flog2`, `fsin`, `fcos`,
//! `fpow`, `fdiv`) are not correctly rounded, and a multiply-add may or may not round its
//! product. The interpreter computes them exactly, so a compiled program legitimately differs
//! from it by a few units in the last place at each such operation. The checks compare within a
//! tolerance, but the difference is then carried through the rest of the shader: a subtraction
//! of nearly equal values, a comparison, a conversion to integer or a shift by a float's bits can
//! turn one unit in the last place into any value at all. Such a result is decided by the
//! rounding of the hardware's math, not by the compiler, and no mismatch can be claimed on it.
//!
//! A check finds those results by running the interpreter again with a [`MathError`]: every
//! inexact operation's result moved by a few units in the last place, up, down, or up and down
//! by turns, and every `ffma` computed unfused (its product rounded to nearest, or one unit up
//! or down). A result that moves out of the check's
//! tolerance under that error is ill-conditioned and is not compared.

use crate::nir::AluOp;

/// Which way the deliberate error goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorDirection {
    Up,
    Down,
    /// Up or down depending on the instruction, lane and component (a fixed hash), so that
    /// errors which cancel under [`ErrorDirection::Up`] and [`ErrorDirection::Down`] do not here.
    Mixed,
    /// No error added: `frcp`, `frsq` and `fsqrt` computed the plain single-precision way
    /// (`1 / x`, `1 / sqrt(x)` with two roundings) and `ffma` unfused, as a simple hardware
    /// unit (and the simulators) compute them. Where a sum cancels exactly to zero under one
    /// rounding and not under another (a normalised vector minus itself), only the same
    /// roundings reproduce the zero.
    Single,
}

/// The next single-precision value after `v` toward `to` (`v` itself at the ends).
fn next_toward(v: f32, to: f32) -> f32 {
    if v == to || !v.is_finite() {
        return v;
    }
    if v == 0.0 {
        return f32::from_bits(1).copysign(to);
    }
    let bits = v.to_bits();
    let next = if (to > v) == (v > 0.0) {
        bits + 1
    } else {
        bits - 1
    };
    f32::from_bits(next)
}

/// Error added to every inexact operation of a run (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MathError {
    /// Units in the last place added to a transcendental's result (`ffma` is computed
    /// unfused instead, see [`MathError::apply`]).
    pub ulps: u32,
    pub direction: ErrorDirection,
}

impl MathError {
    /// The runs a check makes: two units in the last place each way, mixed, and plain single
    /// precision. Two, because the simulators compute these operations in single precision
    /// (within one unit of the interpreter's double-precision result) and the hardware within
    /// about two.
    pub const PROBES: [MathError; 4] = [
        MathError {
            ulps: 2,
            direction: ErrorDirection::Up,
        },
        MathError {
            ulps: 2,
            direction: ErrorDirection::Down,
        },
        MathError {
            ulps: 2,
            direction: ErrorDirection::Mixed,
        },
        MathError {
            ulps: 0,
            direction: ErrorDirection::Single,
        },
    ];

    /// Whether the error moves this result up (`site` names the instruction, lane and
    /// component).
    fn up(self, site: u64) -> bool {
        match self.direction {
            ErrorDirection::Up => true,
            ErrorDirection::Down => false,
            ErrorDirection::Mixed => site.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 63 == 1,
            ErrorDirection::Single => true,
        }
    }

    /// `bits`, a 32-bit float result of `op` whose first sources were `x`, moved by this error.
    /// `ffma` becomes an unfused multiply-add, whose product `x[0] * x[1]` is rounded to nearest
    /// under [`ErrorDirection::Mixed`] and [`ErrorDirection::Single`] and one unit up or down
    /// under the others (a fused and an unfused multiply-add differ most where the sum cancels
    /// the product, and there only this shows). Zero, infinities and NaN results of the other
    /// operations stay as they are: the hardware gets those exactly.
    pub fn apply(self, op: AluOp, bits: u32, x: [f32; 3], site: u64) -> u32 {
        if op == AluOp::ffma {
            let (p, c) = (x[0] * x[1], x[2]);
            if !p.is_finite() || !c.is_finite() {
                return bits;
            }
            let p = match self.direction {
                ErrorDirection::Mixed | ErrorDirection::Single => p,
                ErrorDirection::Up => next_toward(p, f32::INFINITY),
                ErrorDirection::Down => next_toward(p, f32::NEG_INFINITY),
            };
            let sum = p + c;
            return if sum.is_finite() { sum.to_bits() } else { bits };
        }
        if self.direction == ErrorDirection::Single {
            return match op {
                AluOp::frcp => (1.0 / x[0]).to_bits(),
                AluOp::frsq => (1.0 / x[0].sqrt()).to_bits(),
                AluOp::fsqrt => x[0].sqrt().to_bits(),
                _ => bits,
            };
        }
        let v = f32::from_bits(bits);
        if v == 0.0 || !v.is_finite() || self.ulps == 0 {
            return bits;
        }
        let up = self.up(site);
        // Moving the magnitude's bits: up means away from zero for positive values.
        let away = up == (v > 0.0);
        let mag = bits & 0x7fff_ffff;
        let moved = if away {
            mag.saturating_add(self.ulps).min(0x7f7f_ffff)
        } else {
            mag.saturating_sub(self.ulps)
        };
        (bits & 0x8000_0000) | moved
    }
}

/// Whether `op` is one of the operations whose hardware result may differ from the exact one.
pub fn is_inexact(op: AluOp) -> bool {
    matches!(
        op,
        AluOp::frcp
            | AluOp::frsq
            | AluOp::fsqrt
            | AluOp::fexp2
            | AluOp::flog2
            | AluOp::fsin
            | AluOp::fcos
            | AluOp::fpow
            | AluOp::fdiv
            | AluOp::ffma
            | AluOp::flrp
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_by_units_in_the_last_place() {
        let up = MathError::PROBES[0];
        let down = MathError::PROBES[1];
        // 1.0 is 0x3f800000; two units up and down.
        assert_eq!(up.apply(AluOp::frcp, 0x3f80_0000, [1.0; 3], 0), 0x3f80_0002);
        assert_eq!(
            down.apply(AluOp::frcp, 0x3f80_0000, [1.0; 3], 0),
            0x3f7f_fffe
        );
        // -1.0: up is towards +inf, so the magnitude shrinks.
        assert_eq!(
            up.apply(AluOp::frcp, 0xbf80_0000, [-1.0; 3], 0),
            0xbf7f_fffe
        );
        // Exact values stay.
        assert_eq!(up.apply(AluOp::frcp, 0, [0.0; 3], 0), 0);
        assert_eq!(up.apply(AluOp::frcp, 0x7f80_0000, [0.0; 3], 0), 0x7f80_0000);
    }

    #[test]
    fn ffma_becomes_unfused() {
        // 3 * (1/3) - 1: fused, the exact product's excess over 1; unfused, the rounded product
        // 1.0 minus 1 gives exactly zero; rounded a unit down, -2^-24.
        let third = 1.0f32 / 3.0;
        let p = 3.0f32 * third;
        assert_eq!(p, 1.0);
        let mixed = MathError::PROBES[2];
        let down = MathError::PROBES[1];
        let fused = 3.0f32.mul_add(third, -1.0).to_bits();
        assert_ne!(fused, 0);
        assert_eq!(mixed.apply(AluOp::ffma, fused, [3.0, third, -1.0], 0), 0);
        let single = MathError::PROBES[3];
        assert_eq!(single.apply(AluOp::ffma, fused, [3.0, third, -1.0], 0), 0);
        assert_eq!(
            f32::from_bits(down.apply(AluOp::ffma, fused, [3.0, third, -1.0], 0)),
            -(2f32.powi(-24))
        );
    }

    #[test]
    fn single_precision_reciprocal_square_root_rounds_twice() {
        let single = MathError::PROBES[3];
        // 1/sqrt(3): sqrt rounded, then its reciprocal rounded.
        let x = 3.0f32;
        let want = (1.0 / x.sqrt()).to_bits();
        assert_eq!(single.apply(AluOp::frsq, 0, [x, 0.0, 0.0], 0), want);
        assert_eq!(
            single.apply(AluOp::fsin, 0x3f00_0000, [x, 0.0, 0.0], 0),
            0x3f00_0000
        );
    }

    #[test]
    fn mixed_goes_both_ways() {
        let mixed = MathError::PROBES[2];
        let ups = (0..64).filter(|&s| mixed.up(s)).count();
        assert!(ups > 8 && ups < 56, "{ups} of 64 sites up");
    }
}
