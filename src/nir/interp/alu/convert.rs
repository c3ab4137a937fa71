//! Conversions `<src>2<dst><bits>[_rtne|_rtz]` and the `*mp` medium-precision forms.
//!
//! Float to integer truncates toward zero and saturates to the destination range, with NaN
//! giving 0 (C leaves out-of-range casts undefined; this is the GPU behaviour GLSL allows and
//! what Intel and Vivante hardware do). Integer to float and float narrowing round to nearest
//! even unless the op names `_rtz`. Anything to bool is `!= 0`.

use super::super::value::{
    bool_bits, f64_to_f16, f64_to_f32_rtz, from_f64, mask, sext, to_f64, Rounding,
};

/// The parsed shape of a conversion opcode name.
struct Conv {
    src: u8,
    dst: u8,
    dst_bits: u8,
    rounding: Rounding,
}

fn parse(name: &str) -> Option<Conv> {
    let b = name.as_bytes();
    if b.len() < 4 || b[1] != b'2' || !b"fiub".contains(&b[0]) || !b"fiub".contains(&b[2]) {
        return None;
    }
    let rest = &name[3..];
    let (digits, rounding) = if let Some(d) = rest.strip_suffix("_rtz") {
        (d, Rounding::TowardZero)
    } else if let Some(d) = rest.strip_suffix("_rtne") {
        (d, Rounding::NearestEven)
    } else {
        (rest, Rounding::NearestEven)
    };
    let dst_bits = if digits == "mp" {
        16
    } else {
        match digits.parse::<u8>().ok()? {
            n @ (1 | 8 | 16 | 32 | 64) => n,
            _ => return None,
        }
    };
    Some(Conv {
        src: b[0],
        dst: b[2],
        dst_bits,
        rounding,
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

/// Converts one component; None when `name` is not a conversion.
pub fn eval(name: &str, src_bits: u8, v: u64) -> Option<u64> {
    let c = parse(name)?;
    let db = c.dst_bits;
    Some(match (c.src, c.dst) {
        (b'f', b'f') => {
            let x = to_f64(v, src_bits);
            match (db, c.rounding) {
                (16, r) => f64_to_f16(x, r) as u64,
                (32, Rounding::TowardZero) => f64_to_f32_rtz(x).to_bits() as u64,
                _ => from_f64(x, db),
            }
        }
        (b'f', b'i') => {
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
        (b'f', b'u') => {
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
        (b'f', b'b') => bool_bits(to_f64(v, src_bits) != 0.0, db),
        (b'i', b'f') => int_to_float(sext(v, src_bits) as i128, db),
        (b'u', b'f') => int_to_float((v & mask(src_bits)) as i128, db),
        (b'i', b'i') => sext(v, src_bits) as u64 & mask(db),
        (b'u', b'u') => v & mask(src_bits) & mask(db),
        (b'i' | b'u', b'b') => bool_bits(v & mask(src_bits) != 0, db),
        (b'b', b'f') => from_f64(if v & mask(src_bits) != 0 { 1.0 } else { 0.0 }, db),
        (b'b', b'i') => (v & mask(src_bits) != 0) as u64,
        (b'b', b'b') => bool_bits(v & mask(src_bits) != 0, db),
        _ => return None,
    })
}

/// Destination bit size a conversion opcode fixes (for `f2i32` it is 32).
pub fn dst_bits(name: &str) -> Option<u8> {
    parse(name).map(|c| c.dst_bits)
}
