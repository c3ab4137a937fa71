//! Subgroup semantics: which invocations share a subgroup, and the reduction order.
//!
//! A subgroup is the channels of one hardware thread. A check tells the interpreter the
//! thread width ([`Environment::simd_width`](super::Environment::simd_width)): invocation
//! `i` is channel `i % width` of subgroup `i / width`, as the Intel checks dispatch their
//! invocations (a fragment thread's pixels, a compute workgroup's threads, the output
//! vertices of one tessellation-control patch in its one instance thread). Without a width
//! the whole run is one subgroup.
//!
//! `reduce` folds a cluster's values pairwise by halves (channel `i` with channel
//! `i + n/2`, then again over the first half) with the operation's identity in the
//! channels that do not run, which is the order a SIMD reduction tree computes in: float
//! sums and products round the same way on both sides, so results compare exactly.

use super::alu::{self, Comps, DenormMode};
use crate::nir::opcodes::AluOp;

/// The ALU op a `reduction_op` names, with the identity it folds inactive channels in as
/// (raw bits of `bits` size); `None` for an op not built.
pub fn reduction(name: &str, bits: u8) -> Option<(AluOp, u64)> {
    let m = super::value::mask(bits);
    let (imax, imin) = (m >> 1, (m >> 1) ^ m);
    let float = |v: f64| match bits {
        32 => Some(u64::from((v as f32).to_bits())),
        64 => Some(v.to_bits()),
        _ => None,
    };
    Some(match name {
        "iadd" => (AluOp::iadd, 0),
        "imul" => (AluOp::imul, 1),
        "imin" => (AluOp::imin, imax),
        "imax" => (AluOp::imax, imin),
        "umin" => (AluOp::umin, m),
        "umax" => (AluOp::umax, 0),
        "iand" => (AluOp::iand, m),
        "ior" => (AluOp::ior, 0),
        "ixor" => (AluOp::ixor, 0),
        // -0.0: the one value whose sum with any x is x, -0.0 included.
        "fadd" => (AluOp::fadd, float(-0.0)?),
        "fmul" => (AluOp::fmul, float(1.0)?),
        "fmin" => (AluOp::fmin, float(f64::INFINITY)?),
        "fmax" => (AluOp::fmax, float(f64::NEG_INFINITY)?),
        _ => return None,
    })
}

/// Folds `vals` (a power-of-two count; channels that do not run hold the identity) by
/// halves: the reduction tree's order.
pub fn fold(denorms: DenormMode, op: AluOp, bits: u8, vals: &[u64]) -> Result<u64, String> {
    let mut v = vals.to_vec();
    let mut n = v.len();
    while n > 1 {
        let h = n / 2;
        for i in 0..h {
            let mut a: Comps = [0; 16];
            let mut b: Comps = [0; 16];
            a[0] = v[i];
            b[0] = v[i + h];
            let r = alu::eval_in(denorms, op, 1, bits, &[a, b], &[bits, bits])
                .map_err(|e| e.to_string())?;
            v[i] = r[0];
        }
        n = h;
    }
    Ok(v.first().copied().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_leave_every_value_alone() {
        let d = DenormMode::default();
        for name in [
            "iadd", "imul", "imin", "imax", "umin", "umax", "iand", "ior", "ixor",
        ] {
            let (op, id) = reduction(name, 32).unwrap();
            for x in [0u64, 1, 7, 0x8000_0000, 0xffff_ffff, 0x7fff_ffff] {
                assert_eq!(fold(d, op, 32, &[x, id]).unwrap(), x, "{name} {x:#x}");
            }
        }
        for name in ["fadd", "fmul", "fmin", "fmax"] {
            let (op, id) = reduction(name, 32).unwrap();
            for x in [0.0f32, -0.0, 1.5, -3.25, 1e30] {
                let x = u64::from(x.to_bits());
                assert_eq!(fold(d, op, 32, &[id, x]).unwrap(), x, "{name} {x:#x}");
            }
        }
    }

    /// Summed by halves, (1 + 2^24) + (1 + 0) rounds to 2^24 twice; in sequence,
    /// 1 + 1 + 2^24 + 0 is 2^24 + 2 exactly: the order shows in the result.
    #[test]
    fn floats_fold_by_halves() {
        let d = DenormMode::default();
        let (op, _) = reduction("fadd", 32).unwrap();
        let v = [1.0f32, 1.0, 16777216.0, 0.0].map(|f| u64::from(f.to_bits()));
        let got = f32::from_bits(fold(d, op, 32, &v).unwrap() as u32);
        assert_eq!(got, 16777216.0);
    }
}
