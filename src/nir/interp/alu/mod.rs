//! ALU semantics: one definition of every opcode, shared by the interpreter and by constant
//! folding (`passes::constant_folding`), so the two can never disagree.
//!
//! The families follow `nir_opcodes.py`: [`float`] arithmetic, [`int`] arithmetic and bit
//! manipulation, [`compare`] ops producing booleans, [`convert`] ops, and [`horizontal`] ops
//! whose operands have a fixed width (vecN, dot products, reductions, pack/unpack).

pub mod compare;
pub mod convert;
pub mod float;
pub mod horizontal;
pub mod int;

use super::value::{bool_bits, mask, to_f64};
use crate::nir::opcodes::AluOp;
use crate::nir::types::BaseType;
use std::fmt;

/// Why an ALU op could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AluError {
    /// The opcode has no semantics here (named).
    Unsupported(&'static str),
    /// A bit size the op does not accept.
    BadBitSize { op: &'static str, bits: u8 },
    /// Fewer sources than the op's signature.
    MissingSource { op: &'static str },
}

impl fmt::Display for AluError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AluError::Unsupported(op) => write!(f, "ALU op `{op}` is not supported"),
            AluError::BadBitSize { op, bits } => write!(f, "ALU op `{op}` on {bits}-bit values"),
            AluError::MissingSource { op } => write!(f, "ALU op `{op}` is missing a source"),
        }
    }
}

impl std::error::Error for AluError {}

/// Up to 16 components of raw bits.
pub type Comps = [u64; 16];

/// Evaluates `op` for one invocation.
///
/// `srcs[i]` holds source i's components after swizzling (component c of a per-component
/// source is the value for destination channel c; a fixed-width source holds its `input_size`
/// components). `src_bits` are the sources' bit sizes, `dst_bits` the destination's, and
/// `num_components` the destination's width. The result holds raw bits masked to `dst_bits`.
pub fn eval(
    op: AluOp,
    num_components: usize,
    dst_bits: u8,
    srcs: &[Comps],
    src_bits: &[u8],
) -> Result<Comps, AluError> {
    let info = op.info();
    let name = info.name;
    let n_in = info.num_inputs();
    if srcs.len() < n_in || src_bits.len() < n_in {
        return Err(AluError::MissingSource { op: name });
    }
    for &b in src_bits.iter().take(n_in).chain(std::iter::once(&dst_bits)) {
        if !matches!(b, 1 | 8 | 16 | 32 | 64) {
            return Err(AluError::BadBitSize { op: name, bits: b });
        }
    }
    let bits0 = src_bits.first().copied().unwrap_or(dst_bits);
    let mut out = [0u64; 16];
    let width = num_components.clamp(1, 16);
    let horizontal = info.output_size != 0 || info.input_sizes.iter().any(|&s| s != 0);
    if horizontal {
        let slices: Vec<&[u64]> = srcs[..n_in]
            .iter()
            .zip(info.input_sizes)
            .map(|(s, &n)| &s[..if n == 0 { width } else { n as usize }])
            .collect();
        check_float_bits(name, info.input_types.first().map(|t| t.base), bits0)?;
        let r =
            horizontal::eval(name, bits0, dst_bits, &slices).ok_or(AluError::Unsupported(name))?;
        if info.output_size == 0 {
            // `_replicated` ops splat their one result.
            out[..width].fill(r[0]);
        } else {
            for (o, v) in out.iter_mut().zip(r) {
                *o = v;
            }
        }
    } else {
        let out_float = info.output_type.base == BaseType::Float;
        let in_float = info.input_types.first().map(|t| t.base);
        let mut s = [0u64; 4];
        for c in 0..width {
            for (i, v) in s.iter_mut().enumerate().take(n_in.min(4)) {
                *v = srcs[i][c];
            }
            out[c] = component(
                name,
                out_float,
                in_float,
                bits0,
                dst_bits,
                &s[..n_in.min(4)],
            )?;
        }
    }
    let m = mask(dst_bits);
    for o in &mut out[..width.max(info.output_size as usize)] {
        *o &= m;
    }
    Ok(out)
}

fn check_float_bits(name: &'static str, base: Option<BaseType>, bits: u8) -> Result<(), AluError> {
    if base == Some(BaseType::Float) && !matches!(bits, 16 | 32 | 64) {
        return Err(AluError::BadBitSize { op: name, bits });
    }
    Ok(())
}

fn component(
    name: &'static str,
    out_float: bool,
    in_float: Option<BaseType>,
    bits0: u8,
    dst_bits: u8,
    s: &[u64],
) -> Result<u64, AluError> {
    check_float_bits(name, in_float, bits0)?;
    if let Some(v) = convert::eval(name, bits0, s[0]) {
        return Ok(v);
    }
    if let Some(b) = compare::eval(name, bits0, s) {
        return Ok(bool_bits(b, dst_bits));
    }
    if out_float || name.starts_with("fcsel") {
        check_float_bits(name, Some(BaseType::Float), dst_bits)?;
        if let Some(v) = float::eval(name, dst_bits, s) {
            return Ok(v);
        }
    }
    if name == "frexp_exp" {
        let x = to_f64(s[0], bits0);
        let e = if x == 0.0 || !x.is_finite() {
            0
        } else {
            float::frexp(x).1
        };
        return Ok(e as u32 as u64);
    }
    // Selects take their size from the selected values, not from the boolean condition.
    let int_bits = if name.ends_with("csel") {
        dst_bits
    } else {
        bits0
    };
    if let Some(v) = int::eval(name, int_bits, s) {
        return Ok(v);
    }
    // Per-component pack/unpack helpers (`unpack_half_2x16_split_x`...).
    let one: Vec<&[u64]> = s.iter().map(std::slice::from_ref).collect();
    horizontal::eval(name, bits0, dst_bits, &one)
        .and_then(|v| v.first().copied())
        .ok_or(AluError::Unsupported(name))
}

/// Whether [`eval`] has semantics for `op` (probed with 32-bit operands, or the sizes the
/// op's signature fixes).
pub fn is_supported(op: AluOp) -> bool {
    let info = op.info();
    let size = |b: u8| if b == 0 { 32 } else { b };
    let src_bits: Vec<u8> = info.input_types.iter().map(|t| size(t.bits)).collect();
    let dst = size(info.output_type.bits);
    let srcs = vec![[0u64; 16]; info.num_inputs()];
    !matches!(
        eval(op, 4, dst, &srcs, &src_bits),
        Err(AluError::Unsupported(_))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nir::opcodes::ALU_OPS;

    /// Vendor-specific ops of other drivers (AMD, Mali, AGX, VC4, DXIL) and the packed dot
    /// products, which no gpucc input produces.
    const NOT_MODELLED: &[&str] = &[
        "cube_amd",
        "b32fcsel_mdg",
        "extr_agx",
        "fclamp_pos_mali",
        "fddx_must_abs_mali",
        "fddy_must_abs_mali",
        "fsat_signed_mali",
        "fsin_agx",
        "imadshl_agx",
        "imsubshl_agx",
        "interleave_agx",
        "pack_double_2x32_dxil",
        "unpack_double_2x32_dxil",
        "sdot_2x16_iadd",
        "sdot_2x16_iadd_sat",
        "sdot_4x8_iadd",
        "sdot_4x8_iadd_sat",
        "sudot_4x8_iadd",
        "sudot_4x8_iadd_sat",
        "udot_2x16_uadd",
        "udot_2x16_uadd_sat",
        "udot_4x8_uadd",
        "udot_4x8_uadd_sat",
        "umax_4x8_vc4",
        "umin_4x8_vc4",
        "umul_unorm_4x8_vc4",
        "usadd_4x8_vc4",
        "ussub_4x8_vc4",
    ];

    #[test]
    fn every_opcode_outside_the_vendor_list_has_semantics() {
        let missing: Vec<&str> = crate::nir::opcodes::AluOp::from_name("mov")
            .map(|_| {
                ALU_OPS
                    .iter()
                    .filter_map(|i| AluOp::from_name(i.name))
                    .filter(|&op| !is_supported(op) && !NOT_MODELLED.contains(&op.name()))
                    .map(|op| op.name())
                    .collect()
            })
            .unwrap_or_default();
        assert!(missing.is_empty(), "ops without semantics: {missing:?}");
    }
}
