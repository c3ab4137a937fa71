//! ALU semantics: one definition of every opcode, shared by the interpreter and by constant
//! folding (`passes::constant_folding`), so the two can never disagree.
//!
//! The families follow `nir_opcodes.py`: [`float`] arithmetic, [`int`] arithmetic and bit
//! manipulation, [`compare`] ops producing booleans, [`convert`] ops, and [`horizontal`] ops
//! whose operands have a fixed width (vecN, dot products, reductions, pack/unpack).
//! [`denorm`] decides which float operands and results lose their denormals; [`eval_in`]
//! applies it around every op, so the families themselves compute in IEEE arithmetic.

pub mod compare;
pub mod convert;
pub mod denorm;
pub mod float;
pub mod horizontal;
pub mod int;

pub use denorm::DenormMode;

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
    /// A boolean conversion (`b2f32`, `b2i32`, ...) read a value that is no boolean of its
    /// size: NIR's booleans wider than one bit are 0 or all ones, so what such a value
    /// converts to is undefined (the hardware's AND with 1.0 and the `!= 0` of a reading of
    /// the spec disagree).
    NotBoolean {
        op: &'static str,
        bits: u8,
        value: u64,
    },
}

impl fmt::Display for AluError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AluError::Unsupported(op) => write!(f, "ALU op `{op}` is not supported"),
            AluError::BadBitSize { op, bits } => write!(f, "ALU op `{op}` on {bits}-bit values"),
            AluError::MissingSource { op } => write!(f, "ALU op `{op}` is missing a source"),
            AluError::NotBoolean { op, bits, value } => write!(
                f,
                "ALU op `{op}` reads {value:#x}, which is not a {bits}-bit boolean (0 or ~0): \
                 its result is undefined"
            ),
        }
    }
}

impl std::error::Error for AluError {}

/// Up to 16 components of raw bits.
pub type Comps = [u64; 16];

/// Room for the sources of any op with a float source: none has more than three (`ffma`,
/// `fcsel`, `flrp`), which a unit test checks against the opcode table.
const MAX_FLOAT_SOURCES: usize = 4;

/// Evaluates `op` for one invocation under the targets' default denormal handling
/// (single-precision denormals flushed; see [`denorm`]), as a shader without float controls
/// runs. Constant folding uses this, so a folded value is what the GPU would have computed.
pub fn eval(
    op: AluOp,
    num_components: usize,
    dst_bits: u8,
    srcs: &[Comps],
    src_bits: &[u8],
) -> Result<Comps, AluError> {
    eval_in(
        DenormMode::default(),
        op,
        num_components,
        dst_bits,
        srcs,
        src_bits,
    )
}

/// Evaluates `op` for one invocation.
///
/// `srcs[i]` holds source i's components after swizzling (component c of a per-component
/// source is the value for destination channel c; a fixed-width source holds its `input_size`
/// components). `src_bits` are the sources' bit sizes, `dst_bits` the destination's, and
/// `num_components` the destination's width. The result holds raw bits masked to `dst_bits`.
/// Float-typed sources are read, and a float-typed result written, with denormals flushed as
/// `denorms` says; untyped and integer operands keep their bits.
pub fn eval_in(
    denorms: DenormMode,
    op: AluOp,
    num_components: usize,
    dst_bits: u8,
    srcs: &[Comps],
    src_bits: &[u8],
) -> Result<Comps, AluError> {
    let info = op.info();
    let n = info.num_inputs().min(srcs.len()).min(src_bits.len());
    let flushed_input =
        |i: usize| info.input_types[i].base == BaseType::Float && denorms.flushes(src_bits[i]);
    let mut out = if (0..n).any(flushed_input) {
        if n > MAX_FLOAT_SOURCES {
            return Err(AluError::Unsupported(info.name));
        }
        let mut local = [[0u64; 16]; MAX_FLOAT_SOURCES];
        for (i, (l, s)) in local.iter_mut().zip(srcs).enumerate().take(n) {
            *l = *s;
            if flushed_input(i) {
                for v in l.iter_mut() {
                    *v = denorm::flush(*v, src_bits[i]);
                }
            }
        }
        eval_ieee(op, num_components, dst_bits, &local[..n], src_bits)?
    } else {
        eval_ieee(op, num_components, dst_bits, srcs, src_bits)?
    };
    // fquantize2f16 has its own flushing rule (below 2^-14), as in Mesa.
    if info.output_type.base == BaseType::Float
        && denorms.flushes(dst_bits)
        && op != AluOp::fquantize2f16
    {
        let width = num_components.max(info.output_size as usize).clamp(1, 16);
        for v in &mut out[..width] {
            *v = denorm::flush(*v, dst_bits);
        }
    }
    Ok(out)
}

/// Evaluates `op` in IEEE arithmetic, denormals kept.
fn eval_ieee(
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
            horizontal::eval(op, bits0, dst_bits, &slices).ok_or(AluError::Unsupported(name))?;
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
            out[c] = component(op, out_float, in_float, bits0, dst_bits, &s[..n_in.min(4)])?;
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
    op: AluOp,
    out_float: bool,
    in_float: Option<BaseType>,
    bits0: u8,
    dst_bits: u8,
    s: &[u64],
) -> Result<u64, AluError> {
    use AluOp::*;
    let name = op.name();
    check_float_bits(name, in_float, bits0)?;
    let from_bool = op.info().is_conversion
        && op.info().input_types.first().map(|t| t.base) == Some(BaseType::Bool);
    if from_bool && bits0 > 1 && s[0] != 0 && s[0] != mask(bits0) {
        return Err(AluError::NotBoolean {
            op: name,
            bits: bits0,
            value: s[0],
        });
    }
    if let Some(v) = convert::eval(op, bits0, s[0]) {
        return Ok(v);
    }
    if let Some(b) = compare::eval(op, bits0, s) {
        return Ok(bool_bits(b, dst_bits));
    }
    // The float selects pick bit patterns, but their condition is a float.
    if out_float || matches!(op, fcsel | fcsel_gt | fcsel_ge) {
        check_float_bits(name, Some(BaseType::Float), dst_bits)?;
        if let Some(v) = float::eval(op, dst_bits, s) {
            return Ok(v);
        }
    }
    if op == frexp_exp {
        let x = to_f64(s[0], bits0);
        let e = if x == 0.0 || !x.is_finite() {
            0
        } else {
            float::frexp(x).1
        };
        return Ok(e as u32 as u64);
    }
    // Selects take their size from the selected values, not from the boolean condition.
    let int_bits = if matches!(op, bcsel | b8csel | b16csel | b32csel | fcsel) {
        dst_bits
    } else {
        bits0
    };
    if let Some(v) = int::eval(op, int_bits, s) {
        return Ok(v);
    }
    // Per-component pack/unpack helpers (`unpack_half_2x16_split_x`...).
    let one: Vec<&[u64]> = s.iter().map(std::slice::from_ref).collect();
    horizontal::eval(op, bits0, dst_bits, &one)
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
    const NOT_MODELLED: &[AluOp] = &[
        AluOp::cube_amd,
        AluOp::b32fcsel_mdg,
        AluOp::extr_agx,
        AluOp::fclamp_pos_mali,
        AluOp::fddx_must_abs_mali,
        AluOp::fddy_must_abs_mali,
        AluOp::fsat_signed_mali,
        AluOp::fsin_agx,
        AluOp::imadshl_agx,
        AluOp::imsubshl_agx,
        AluOp::interleave_agx,
        AluOp::pack_double_2x32_dxil,
        AluOp::unpack_double_2x32_dxil,
        AluOp::sdot_2x16_iadd,
        AluOp::sdot_2x16_iadd_sat,
        AluOp::sdot_4x8_iadd,
        AluOp::sdot_4x8_iadd_sat,
        AluOp::sudot_4x8_iadd,
        AluOp::sudot_4x8_iadd_sat,
        AluOp::udot_2x16_uadd,
        AluOp::udot_2x16_uadd_sat,
        AluOp::udot_4x8_uadd,
        AluOp::udot_4x8_uadd_sat,
        AluOp::umax_4x8_vc4,
        AluOp::umin_4x8_vc4,
        AluOp::umul_unorm_4x8_vc4,
        AluOp::usadd_4x8_vc4,
        AluOp::ussub_4x8_vc4,
    ];

    /// `op` on 32-bit operands (one component per source unless the op is horizontal).
    fn eval32(denorms: DenormMode, name: &str, srcs: &[&[u64]], dst_bits: u8) -> Comps {
        let op = AluOp::from_name(name).unwrap_or_else(|| panic!("no op {name}"));
        let comps: Vec<Comps> = srcs
            .iter()
            .map(|s| {
                let mut c = [0u64; 16];
                c[..s.len()].copy_from_slice(s);
                c
            })
            .collect();
        let bits: Vec<u8> = srcs.iter().map(|_| 32).collect();
        eval_in(denorms, op, 1, dst_bits, &comps, &bits).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    fn gpu(name: &str, srcs: &[&[u64]]) -> u64 {
        eval32(DenormMode::default(), name, srcs, 32)[0]
    }

    // binary32 bit patterns, from the format (bias 127, 23 fraction bits).
    /// 2^-149, the smallest denormal: fraction 1, exponent field 0.
    const MIN_DENORM: u64 = 0x0000_0001;
    /// 2^-126, the smallest normal: exponent field 1.
    const MIN_NORMAL: u64 = 0x0080_0000;
    const ONE: u64 = 0x3f80_0000;
    /// 2^-121: exponent field 6.
    const P2_M121: u64 = 6 << 23;
    /// 2^-28: exponent field 99.
    const P2_M28: u64 = 99 << 23;
    /// 2^-63: exponent field 64.
    const P2_M63: u64 = 64 << 23;

    #[test]
    fn single_precision_denormal_results_flush_to_signed_zero() {
        assert_eq!(gpu("fmul", &[&[MIN_DENORM], &[ONE]]), 0);
        assert_eq!(gpu("fmul", &[&[MIN_DENORM | 1 << 31], &[ONE]]), 1 << 31);
        // piglit fs-underflow-mul-compare-zero, draw 2: 2^-121 * 2^-28 = 2^-149 is zero, so
        // `0 < result` is false.
        assert_eq!(gpu("fmul", &[&[P2_M121], &[P2_M28]]), 0);
        assert_eq!(
            gpu("flt32", &[&[0], &[gpu("fmul", &[&[P2_M121], &[P2_M28]])]]),
            0
        );
        // The same product with denormals kept is 2^-149, and compares above zero.
        let keep = DenormMode::PRESERVE_ALL;
        assert_eq!(
            eval32(keep, "fmul", &[&[P2_M121], &[P2_M28]], 32)[0],
            MIN_DENORM
        );
        // fneg and fabs are float ops: they flush too (a raw `mov` does not, below).
        assert_eq!(gpu("fneg", &[&[MIN_DENORM]]), 1 << 31);
        assert_eq!(gpu("fabs", &[&[MIN_DENORM | 1 << 31]]), 0);
    }

    #[test]
    fn normal_results_are_unchanged() {
        // 2^-63 * 2^-63 = 2^-126, the smallest normal.
        assert_eq!(gpu("fmul", &[&[P2_M63], &[P2_M63]]), MIN_NORMAL);
        // 1.0 + 1.0 = 2.0 (exponent field 128).
        assert_eq!(gpu("fadd", &[&[ONE], &[ONE]]), 128 << 23);
        assert_eq!(gpu("fmul", &[&[MIN_NORMAL], &[ONE]]), MIN_NORMAL);
    }

    #[test]
    fn single_precision_denormal_operands_read_as_zero() {
        // Kept, 2^-149 + 2^-126 would be 0x00800001; flushed, the sum is 2^-126 exactly.
        assert_eq!(gpu("fadd", &[&[MIN_DENORM], &[MIN_NORMAL]]), MIN_NORMAL);
        // 2^-149 * 2^100 = 2^-49 if kept; 0 when the operand reads as zero.
        let p2_100 = (127 + 100) << 23;
        assert_eq!(gpu("fmul", &[&[MIN_DENORM], &[p2_100]]), 0);
        assert_eq!(gpu("feq32", &[&[MIN_DENORM], &[0]]), 0xffff_ffff);
        assert_eq!(gpu("fneu32", &[&[MIN_DENORM], &[0]]), 0);
        // Horizontal ops: fdot2((2^-149, 1), (2^100, 0)) = 0, not 2^-49.
        assert_eq!(
            gpu("fdot2", &[&[MIN_DENORM, ONE], &[p2_100, 0]]),
            0,
            "fdot2 reads its denormal operand as zero"
        );
        // The float condition of fcsel: a denormal is false.
        assert_eq!(
            gpu("fcsel", &[&[MIN_DENORM], &[ONE], &[MIN_NORMAL]]),
            MIN_NORMAL
        );
    }

    #[test]
    fn bit_and_integer_ops_keep_denormal_patterns() {
        // 0x00000001 and 0x00000002 are denormal bit patterns; as integers 1 + 1 = 2.
        assert_eq!(gpu("iadd", &[&[1], &[1]]), 2);
        assert_eq!(gpu("ior", &[&[MIN_DENORM], &[0x0040_0000]]), 0x0040_0001);
        assert_eq!(gpu("mov", &[&[MIN_DENORM]]), MIN_DENORM);
        assert_eq!(
            gpu("b32csel", &[&[0xffff_ffff], &[MIN_DENORM], &[0]]),
            MIN_DENORM
        );
        let v = eval32(
            DenormMode::default(),
            "vec2",
            &[&[MIN_DENORM], &[0x807f_ffff]],
            32,
        );
        assert_eq!(&v[..2], &[MIN_DENORM, 0x807f_ffff]);
        // Conversions from integers never produce denormals; the bits of i2f32(1) are 1.0.
        assert_eq!(gpu("i2f32", &[&[1]]), ONE);
    }

    #[test]
    fn preserve_mode_and_other_sizes_keep_denormals() {
        use denorm::execution_mode::DENORM_PRESERVE_FP32;
        let keep = DenormMode::from_execution_mode(DENORM_PRESERVE_FP32);
        assert_eq!(
            eval32(keep, "fmul", &[&[MIN_DENORM], &[ONE]], 32)[0],
            MIN_DENORM
        );
        // Double precision keeps denormals by default: 2^-1074 * 1.0.
        let op = AluOp::from_name("fmul").unwrap();
        let mut a = [0u64; 16];
        let mut b = [0u64; 16];
        a[0] = 1;
        b[0] = 1f64.to_bits();
        let r = eval(op, 1, 64, &[a, b], &[64, 64]).unwrap();
        assert_eq!(r[0], 1);
    }

    #[test]
    fn no_float_op_has_more_sources_than_the_flush_buffer() {
        for info in ALU_OPS.iter() {
            if info.input_types.iter().any(|t| t.base == BaseType::Float) {
                assert!(info.num_inputs() <= MAX_FLOAT_SOURCES, "{}", info.name);
            }
        }
    }

    #[test]
    fn every_opcode_outside_the_vendor_list_has_semantics() {
        let missing: Vec<&str> = ALU_OPS
            .iter()
            .filter_map(|i| AluOp::from_name(i.name))
            .filter(|&op| !is_supported(op) && !NOT_MODELLED.contains(&op))
            .map(|op| op.name())
            .collect();
        assert!(missing.is_empty(), "ops without semantics: {missing:?}");
    }
}
