//! Denormal flushing: which float sizes lose their denormals, and how.
//!
//! GL leaves denormal behaviour to the implementation, and every GPU gpucc targets flushes
//! single-precision denormals by default: Intel EUs unless cr0.0 bit 7 (single-precision denorm
//! mode) is set, which brw only does when the shader's float controls ask for preservation;
//! Vivante cores by assumption (see `etnaviv::sim::alu`). The reference semantics follow the
//! hardware so that a test such as piglit's fs-underflow-mul-compare-zero, which expects 2^-149
//! to compare equal to zero, means the same on the interpreter as on the GPUs.
//!
//! What flushes is decided by NIR's operand types, as Intel hardware decides it by register
//! types: a float-typed source is read with its denormals as zero and a float-typed result is
//! written with its denormals as zero (after rounding, as Mesa's constant folding does under
//! `denorm_flush_to_zero`), while ops whose operands are untyped bits or integers — `mov`,
//! `vecN`, `bcsel`, the bit and integer ops, the pack/unpack bitcasts — keep the bits. brw
//! relies on the same split: it types NIR moves as integers precisely so that they do not flush.
//!
//! Half and double precision keep their denormals unless the shader asks for flushing: the
//! Intel simulator models only the single-precision mode bit, and GL shaders have no such
//! request.

use crate::nir::ir::ShaderInfo;

/// Bits of `shader_info::float_controls_execution_mode` (Mesa's `FLOAT_CONTROLS_*`) that
/// concern denormals.
pub mod execution_mode {
    pub const DENORM_PRESERVE_FP16: u32 = 1 << 0;
    pub const DENORM_PRESERVE_FP32: u32 = 1 << 1;
    pub const DENORM_PRESERVE_FP64: u32 = 1 << 2;
    pub const DENORM_FLUSH_TO_ZERO_FP16: u32 = 1 << 3;
    pub const DENORM_FLUSH_TO_ZERO_FP32: u32 = 1 << 4;
    pub const DENORM_FLUSH_TO_ZERO_FP64: u32 = 1 << 5;
}

/// The shader-info field nir_print writes the float controls in (only when non-zero).
const FIELD: &str = "float_controls_execution_mode";

/// Which float bit sizes have their denormal operands and results flushed to a signed zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenormMode {
    fp16: bool,
    fp32: bool,
    fp64: bool,
}

impl Default for DenormMode {
    /// The targets' behaviour when the shader states nothing: single precision flushes.
    fn default() -> DenormMode {
        DenormMode::from_execution_mode(0)
    }
}

impl DenormMode {
    /// Every denormal kept (IEEE behaviour, what Mesa's constant folding does for GL).
    pub const PRESERVE_ALL: DenormMode = DenormMode {
        fp16: false,
        fp32: false,
        fp64: false,
    };

    /// The mode for a float-controls execution mode word: single precision flushes unless
    /// `DENORM_PRESERVE_FP32` is set; half and double precision flush only when their
    /// `DENORM_FLUSH_TO_ZERO` bit is set.
    pub fn from_execution_mode(mode: u32) -> DenormMode {
        use execution_mode::*;
        DenormMode {
            fp16: mode & DENORM_FLUSH_TO_ZERO_FP16 != 0 && mode & DENORM_PRESERVE_FP16 == 0,
            fp32: mode & DENORM_PRESERVE_FP32 == 0,
            fp64: mode & DENORM_FLUSH_TO_ZERO_FP64 != 0 && mode & DENORM_PRESERVE_FP64 == 0,
        }
    }

    /// The mode of a shader, from the `float_controls_execution_mode` header line when there
    /// is one (nir_print omits it when zero).
    pub fn of_shader(info: &ShaderInfo) -> Result<DenormMode, String> {
        let Some(text) = info.field(FIELD) else {
            return Ok(DenormMode::default());
        };
        let t = text.trim();
        let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(hex) => u32::from_str_radix(hex, 16),
            None => t.parse::<u32>(),
        };
        parsed
            .map(DenormMode::from_execution_mode)
            .map_err(|_| format!("shader header `{FIELD}: {text}` is not a 32-bit number"))
    }

    /// Whether floats of `bits` bits are flushed.
    pub fn flushes(self, bits: u8) -> bool {
        match bits {
            16 => self.fp16,
            32 => self.fp32,
            64 => self.fp64,
            _ => false,
        }
    }

    /// `v` (a float of `bits` bits) with a denormal replaced by the zero of its sign, when
    /// this mode flushes that size.
    pub fn apply(self, v: u64, bits: u8) -> u64 {
        if self.flushes(bits) {
            flush(v, bits)
        } else {
            v
        }
    }
}

/// Replaces a denormal float of `bits` bits by the zero of the same sign: a zero exponent
/// field with a non-zero fraction is a denormal, and keeping only the sign bit flushes it
/// (zeros map to themselves). Other sizes are returned unchanged.
pub fn flush(v: u64, bits: u8) -> u64 {
    let (exponent, sign) = match bits {
        16 => (0x7c00, 0x8000),
        32 => (0x7f80_0000, 0x8000_0000),
        64 => (0x7ff0_0000_0000_0000, 0x8000_0000_0000_0000),
        _ => return v,
    };
    if v & exponent == 0 {
        v & sign
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nir::types::Stage;

    fn info(fields: &[(&str, &str)]) -> ShaderInfo {
        ShaderInfo {
            fields: fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..ShaderInfo::new(Stage::Fragment)
        }
    }

    #[test]
    fn flush_keeps_only_the_sign_of_denormals() {
        // binary32: 0x00000001 = 2^-149 (smallest denormal), 0x007fffff the largest denormal,
        // 0x00800000 = 2^-126 the smallest normal.
        assert_eq!(flush(0x0000_0001, 32), 0);
        assert_eq!(flush(0x807f_ffff, 32), 0x8000_0000);
        assert_eq!(flush(0x0080_0000, 32), 0x0080_0000);
        assert_eq!(flush(0x3f80_0000, 32), 0x3f80_0000);
        assert_eq!(flush(0x7fc0_0000, 32), 0x7fc0_0000);
        // binary16: 0x0001 = 2^-24; binary64: 0x0000000000000001 = 2^-1074.
        assert_eq!(flush(0x8001, 16), 0x8000);
        assert_eq!(flush(0x0400, 16), 0x0400);
        assert_eq!(flush(1, 64), 0);
        assert_eq!(flush(0x0010_0000_0000_0000, 64), 0x0010_0000_0000_0000);
        assert_eq!(flush(1, 8), 1);
    }

    #[test]
    fn execution_mode_bits_select_the_flushed_sizes() {
        let d = DenormMode::default();
        assert!(d.flushes(32) && !d.flushes(16) && !d.flushes(64));
        assert_eq!(d.apply(1, 32), 0);
        assert_eq!(d.apply(1, 64), 1);
        // Mesa's FLOAT_CONTROLS_DENORM_PRESERVE_FP32 is bit 1.
        let p = DenormMode::from_execution_mode(0x2);
        assert!(!p.flushes(32));
        // DENORM_FLUSH_TO_ZERO_FP16 | _FP64 are bits 3 and 5.
        let f = DenormMode::from_execution_mode(0x28);
        assert!(f.flushes(16) && f.flushes(32) && f.flushes(64));
        assert!(!DenormMode::PRESERVE_ALL.flushes(32));
    }

    #[test]
    fn shader_header_field_is_read_as_nir_print_writes_it() {
        assert_eq!(DenormMode::of_shader(&info(&[])), Ok(DenormMode::default()));
        let m = DenormMode::of_shader(&info(&[(FIELD, "0x00000002")])).unwrap();
        assert!(!m.flushes(32));
        let m = DenormMode::of_shader(&info(&[(FIELD, "16")])).unwrap();
        assert!(m.flushes(32));
        let e = DenormMode::of_shader(&info(&[(FIELD, "0xzz")])).unwrap_err();
        assert!(e.contains("float_controls_execution_mode: 0xzz"), "{e}");
    }
}
