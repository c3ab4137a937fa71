//! Conversions `<src>2<dst><bits>[_rtne|_rtz]` and the `*mp` medium-precision forms.
//!
//! The shape of a conversion (source and destination base types, destination size) comes from
//! the opcode table's signature, not from the spelling of its name; only the rounding mode is
//! not in the signature, and `f2f16_rtz` is the one op that truncates.
//!
//! Float to integer truncates toward zero and saturates to the destination range, with NaN
//! giving 0 (C leaves out-of-range casts undefined; this is the GPU behaviour GLSL allows and
//! what Intel and Vivante hardware do). Integer to float and float narrowing round to nearest
//! even unless the op names `_rtz`. Anything to bool is `!= 0`.

use super::super::value::{
    bool_bits, f64_to_f16, f64_to_f32_rtz, from_f64, mask, sext, to_f64, Rounding,
};
use crate::nir::opcodes::AluOp;
use crate::nir::types::BaseType;

/// The shape of a conversion opcode.
#[derive(Debug, PartialEq, Eq)]
struct Conv {
    src: BaseType,
    dst: BaseType,
    dst_bits: u8,
    rounding: Rounding,
}

fn shape(op: AluOp) -> Option<Conv> {
    let info = op.info();
    if !info.is_conversion {
        return None;
    }
    Some(Conv {
        src: info.input_types.first()?.base,
        dst: info.output_type.base,
        dst_bits: info.output_type.bits,
        rounding: if op == AluOp::f2f16_rtz {
            Rounding::TowardZero
        } else {
            Rounding::NearestEven
        },
    })
}

fn int_to_float(v: i128, bits: u8) -> u64 {
    // Converting straight from the integer avoids double rounding through f64.
    match bits {
        32 => (v as f32).to_bits() as u64,
        64 => (v as f64).to_bits(),
        // Integers beyond 2^53 are far outside binary16's range, so f64 is exact enough.
        _ => from_f64(v as f64, bits),
    }
}

/// Converts one component; None when `op` is not a conversion.
pub fn eval(op: AluOp, src_bits: u8, v: u64) -> Option<u64> {
    use BaseType::{Bool, Float, Int, Uint};
    let c = shape(op)?;
    let db = c.dst_bits;
    Some(match (c.src, c.dst) {
        (Float, Float) => {
            let x = to_f64(v, src_bits);
            match (db, c.rounding) {
                (16, r) => f64_to_f16(x, r) as u64,
                (32, Rounding::TowardZero) => f64_to_f32_rtz(x).to_bits() as u64,
                _ => from_f64(x, db),
            }
        }
        (Float, Int) => {
            let x = to_f64(v, src_bits);
            let sat = match db {
                8 => x as i8 as i64,
                16 => x as i16 as i64,
                32 => x as i32 as i64,
                64 => x as i64,
                _ => (x as i64).clamp(-1, 0),
            };
            sat as u64 & mask(db)
        }
        (Float, Uint) => {
            let x = to_f64(v, src_bits);
            let sat = match db {
                8 => x as u8 as u64,
                16 => x as u16 as u64,
                32 => x as u32 as u64,
                64 => x as u64,
                _ => (x as u64).min(1),
            };
            sat & mask(db)
        }
        (Float, Bool) => bool_bits(to_f64(v, src_bits) != 0.0, db),
        (Int, Float) => int_to_float(sext(v, src_bits) as i128, db),
        (Uint, Float) => int_to_float((v & mask(src_bits)) as i128, db),
        (Int, Int) => sext(v, src_bits) as u64 & mask(db),
        (Uint, Uint) => v & mask(src_bits) & mask(db),
        (Int | Uint, Bool) => bool_bits(v & mask(src_bits) != 0, db),
        (Bool, Float) => from_f64(if v & mask(src_bits) != 0 { 1.0 } else { 0.0 }, db),
        (Bool, Int) => (v & mask(src_bits) != 0) as u64,
        (Bool, Bool) => bool_bits(v & mask(src_bits) != 0, db),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nir::opcodes::ALU_OPS;

    /// The shape the name spells (`f2i32`, `u2fmp`, `f2f16_rtz`), parsed independently of the
    /// table's signature columns.
    fn spelled(name: &str) -> Option<Conv> {
        let b = name.as_bytes();
        if b.len() < 4 || b[1] != b'2' {
            return None;
        }
        let base = |c: u8| match c {
            b'f' => Some(BaseType::Float),
            b'i' => Some(BaseType::Int),
            b'u' => Some(BaseType::Uint),
            b'b' => Some(BaseType::Bool),
            _ => None,
        };
        let rest = &name[3..];
        let (digits, rounding) = match rest.split_once('_') {
            Some((d, "rtz")) => (d, Rounding::TowardZero),
            Some((d, "rtne")) => (d, Rounding::NearestEven),
            Some(_) => return None,
            None => (rest, Rounding::NearestEven),
        };
        let dst_bits = match digits {
            "mp" => 16,
            d => d.parse().ok()?,
        };
        Some(Conv {
            src: base(b[0])?,
            dst: base(b[2])?,
            dst_bits,
            rounding,
        })
    }

    #[test]
    fn every_conversion_shape_matches_its_name() {
        let mut n = 0;
        for info in ALU_OPS.iter() {
            let op = AluOp::from_name(info.name).unwrap();
            assert_eq!(shape(op), spelled(info.name), "{}", info.name);
            n += shape(op).is_some() as usize;
        }
        // b2*, f2*, i2* and u2* of nir_opcodes.py: 49 conversions.
        assert_eq!(n, 49);
        assert_eq!(eval(AluOp::f2i32, 32, 0xc020_0000), Some(0xffff_fffe));
        assert_eq!(eval(AluOp::fadd, 32, 0), None);
    }
}
