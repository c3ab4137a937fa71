//! Integer and bit-manipulation ops per component, as `nir_opcodes.py` defines them: arithmetic
//! wraps at the bit size, shift counts are taken modulo the bit size (SM5 rules), and division
//! or remainder by zero yields 0 (Mesa's constant folding).

use super::super::value::{mask, sext};
use crate::nir::opcodes::AluOp;

/// Evaluates a per-component integer op on sources of `bits` bits. The result is masked to
/// `dst_bits` by the caller. None when `op` is not in this family.
pub fn eval(op: AluOp, bits: u8, s: &[u64]) -> Option<u64> {
    let m = mask(bits);
    let u = |i: usize| s[i] & m;
    let i = |k: usize| sext(s[k], bits);
    let sh = |k: usize| (s[k] as u32) & (bits as u32 - 1);
    let imin_v = i64::MIN >> (64 - bits as u32);
    let imax_v = i64::MAX >> (64 - bits as u32);
    Some(match op {
        AluOp::mov => s[0],
        AluOp::ineg => u(0).wrapping_neg(),
        AluOp::inot => !u(0),
        AluOp::iabs => i(0).wrapping_abs() as u64,
        AluOp::isign => i(0).signum() as u64,
        AluOp::iadd => u(0).wrapping_add(u(1)),
        AluOp::isub => u(0).wrapping_sub(u(1)),
        AluOp::imul | AluOp::amul => u(0).wrapping_mul(u(1)),
        AluOp::imul_high => ((i(0) as i128 * i(1) as i128) >> bits) as u64,
        AluOp::umul_high => ((u(0) as u128 * u(1) as u128) >> bits) as u64,
        AluOp::umul_low => {
            let half = mask(bits / 2);
            (u(0) & half).wrapping_mul(u(1) & half)
        }
        AluOp::imul_32x16 => (s[0] as u32).wrapping_mul(s[1] as u16 as i16 as i32 as u32) as u64,
        AluOp::umul_32x16 => (s[0] as u32).wrapping_mul(s[1] as u16 as u32) as u64,
        AluOp::imul_2x32_64 => {
            (s[0] as u32 as i32 as i64).wrapping_mul(s[1] as u32 as i32 as i64) as u64
        }
        AluOp::umul_2x32_64 => (s[0] as u32 as u64) * (s[1] as u32 as u64),
        AluOp::imul24 | AluOp::imul24_relaxed => {
            (sext(s[0], 24) as i32).wrapping_mul(sext(s[1], 24) as i32) as u32 as u64
        }
        AluOp::umul24 | AluOp::umul24_relaxed => {
            ((s[0] & 0xff_ffff) * (s[1] & 0xff_ffff)) & 0xffff_ffff
        }
        AluOp::idiv => {
            if u(1) == 0 {
                0
            } else {
                // INT_MIN / -1 overflows in C; it wraps to INT_MIN here.
                i(0).wrapping_div(i(1)) as u64
            }
        }
        AluOp::udiv => u(0).checked_div(u(1)).unwrap_or(0),
        AluOp::umod => u(0).checked_rem(u(1)).unwrap_or(0),
        AluOp::irem => {
            if u(1) == 0 {
                0
            } else {
                i(0).wrapping_rem(i(1)) as u64
            }
        }
        AluOp::imod => {
            if u(1) == 0 {
                0
            } else {
                let r = i(0).wrapping_rem(i(1));
                if r == 0 || (i(0) >= 0) == (i(1) >= 0) {
                    r as u64
                } else {
                    r.wrapping_add(i(1)) as u64
                }
            }
        }
        AluOp::iadd_sat => {
            (i(0) as i128 + i(1) as i128).clamp(imin_v as i128, imax_v as i128) as u64
        }
        AluOp::isub_sat => {
            (i(0) as i128 - i(1) as i128).clamp(imin_v as i128, imax_v as i128) as u64
        }
        AluOp::uadd_sat => (u(0) as u128 + u(1) as u128).min(m as u128) as u64,
        AluOp::usub_sat => u(0).saturating_sub(u(1)),
        AluOp::uadd_carry => ((u(0) as u128 + u(1) as u128) > m as u128) as u64,
        AluOp::usub_borrow => (u(0) < u(1)) as u64,
        AluOp::ihadd => ((i(0) & i(1)) + ((i(0) ^ i(1)) >> 1)) as u64,
        AluOp::uhadd => (u(0) & u(1)) + ((u(0) ^ u(1)) >> 1),
        AluOp::irhadd => ((i(0) | i(1)) - ((i(0) ^ i(1)) >> 1)) as u64,
        AluOp::urhadd => (u(0) | u(1)) - ((u(0) ^ u(1)) >> 1),
        AluOp::uabs_isub => (i(0) as i128 - i(1) as i128).unsigned_abs() as u64,
        AluOp::uabs_usub => u(0).abs_diff(u(1)),
        AluOp::ishl => u(0) << sh(1),
        AluOp::ishr => (i(0) >> sh(1)) as u64,
        AluOp::ushr => u(0) >> sh(1),
        AluOp::urol => {
            let n = sh(1);
            (u(0) << n) | (u(0) >> ((bits as u32 - n) % bits as u32))
        }
        AluOp::uror => {
            let n = sh(1);
            (u(0) >> n) | (u(0) << ((bits as u32 - n) % bits as u32))
        }
        AluOp::iand => u(0) & u(1),
        AluOp::ior => u(0) | u(1),
        AluOp::ixor => u(0) ^ u(1),
        AluOp::imin => i(0).min(i(1)) as u64,
        AluOp::imax => i(0).max(i(1)) as u64,
        AluOp::umin => u(0).min(u(1)),
        AluOp::umax => u(0).max(u(1)),
        AluOp::extract_u8 | AluOp::extract_i8 | AluOp::extract_u16 | AluOp::extract_i16 => {
            let width: u32 = if matches!(op, AluOp::extract_u8 | AluOp::extract_i8) {
                8
            } else {
                16
            };
            let shift = (s[1] as u32).saturating_mul(width);
            let field = if shift >= 64 {
                0
            } else {
                (u(0) >> shift) & mask(width as u8)
            };
            if matches!(op, AluOp::extract_i8 | AluOp::extract_i16) {
                sext(field, width as u8) as u64
            } else {
                field
            }
        }
        AluOp::insert_u8 | AluOp::insert_u16 => {
            let width: u32 = if op == AluOp::insert_u8 { 8 } else { 16 };
            let shift = (s[1] as u32).saturating_mul(width);
            if shift >= 64 {
                0
            } else {
                (u(0) & mask(width as u8)) << shift
            }
        }
        AluOp::bfm => {
            let nbits = s[0] as u32 & 0x1f;
            let offset = s[1] as u32 & 0x1f;
            (((1u32 << nbits) - 1) << offset) as u64
        }
        AluOp::pack_64_2x32_split => (s[0] & 0xffff_ffff) | (s[1] << 32),
        AluOp::pack_32_2x16_split => (s[0] & 0xffff) | ((s[1] & 0xffff) << 16),
        AluOp::pack_32_4x8_split => {
            (s[0] & 0xff) | ((s[1] & 0xff) << 8) | ((s[2] & 0xff) << 16) | ((s[3] & 0xff) << 24)
        }
        AluOp::bitfield_reverse => (s[0] as u32).reverse_bits() as u64,
        AluOp::bit_count => u(0).count_ones() as u64,
        AluOp::ufind_msb => find_result(if u(0) == 0 {
            None
        } else {
            Some(63 - u(0).leading_zeros())
        }),
        AluOp::ifind_msb => {
            // Highest bit that differs from the sign bit.
            let v = if i(0) < 0 { !u(0) & m } else { u(0) };
            find_result(if v == 0 {
                None
            } else {
                Some(63 - v.leading_zeros())
            })
        }
        AluOp::find_lsb => find_result(if u(0) == 0 {
            None
        } else {
            Some(u(0).trailing_zeros())
        }),
        AluOp::uclz => (u(0).leading_zeros() - (64 - bits as u32)) as u64,
        AluOp::ufind_msb_rev => {
            let v = s[0] as u32;
            find_result(if v == 0 {
                None
            } else {
                Some(v.leading_zeros())
            })
        }
        AluOp::ifind_msb_rev => {
            let v = s[0] as u32;
            let w = if (v as i32) < 0 { !v } else { v };
            find_result(if w == 0 {
                None
            } else {
                Some(w.leading_zeros())
            })
        }
        AluOp::bcsel | AluOp::b8csel | AluOp::b16csel | AluOp::b32csel => {
            if s[0] != 0 {
                s[1]
            } else {
                s[2]
            }
        }
        AluOp::i32csel_gt => {
            if (s[0] as u32 as i32) > 0 {
                s[1]
            } else {
                s[2]
            }
        }
        AluOp::i32csel_ge => {
            if (s[0] as u32 as i32) >= 0 {
                s[1]
            } else {
                s[2]
            }
        }
        AluOp::bfi => {
            let (msk, mut insert, base) = (s[0] as u32, s[1] as u32, s[2] as u32);
            if msk == 0 {
                base as u64
            } else {
                insert = insert.wrapping_shl(msk.trailing_zeros());
                ((base & !msk) | (insert & msk)) as u64
            }
        }
        AluOp::bitfield_select => (u(0) & u(1)) | (!u(0) & u(2)),
        AluOp::ubfe | AluOp::ibfe => {
            let offset = s[1] as u32 & 0x1f;
            let nbits = s[2] as u32 & 0x1f;
            let base = s[0] as u32;
            let v = if nbits == 0 {
                0
            } else if offset + nbits < 32 {
                let up = base << (32 - nbits - offset);
                if op == AluOp::ibfe {
                    ((up as i32) >> (32 - nbits)) as u32
                } else {
                    up >> (32 - nbits)
                }
            } else if op == AluOp::ibfe {
                ((base as i32) >> offset) as u32
            } else {
                base >> offset
            };
            v as u64
        }
        AluOp::ubitfield_extract | AluOp::ibitfield_extract => {
            let base = s[0] as u32;
            let (offset, nbits) = (s[1] as u32 as i32, s[2] as u32 as i32);
            let v = if nbits == 0 || offset < 0 || nbits < 0 || offset + nbits > 32 {
                0
            } else if op == AluOp::ibitfield_extract {
                (((base << (32 - offset - nbits)) as i32) >> (32 - nbits)) as u32
            } else {
                ((base as u64 >> offset) & ((1u64 << nbits) - 1)) as u32
            };
            v as u64
        }
        AluOp::bitfield_insert => {
            let (base, insert) = (s[0] as u32, s[1] as u32);
            let (offset, nbits) = (s[2] as u32 as i32, s[3] as u32 as i32);
            let v = if nbits == 0 {
                base
            } else if offset < 0 || nbits < 0 || nbits + offset > 32 {
                0
            } else {
                let msk = (((1u64 << nbits) - 1) << offset) as u32;
                (base & !msk) | ((insert << offset) & msk)
            };
            v as u64
        }
        AluOp::iadd3 => u(0).wrapping_add(u(1)).wrapping_add(u(2)),
        AluOp::imad24_ir3 => (sext(s[0], 24) as i32)
            .wrapping_mul(sext(s[1], 24) as i32)
            .wrapping_add(s[2] as u32 as i32) as u32 as u64,
        AluOp::umad24 | AluOp::umad24_relaxed => {
            ((s[0] & 0xff_ffff) * (s[1] & 0xff_ffff)).wrapping_add(s[2]) & 0xffff_ffff
        }
        AluOp::imadsh_mix16 => {
            let (a, b, c) = (s[0] as u32, s[1] as u32, s[2] as u32);
            ((((a & 0xffff_0000) >> 16).wrapping_mul(b & 0xffff)) << 16).wrapping_add(c) as u64
        }
        _ => return None,
    })
}

/// The -1-when-absent encoding of the find_* ops (an int32 result).
fn find_result(bit: Option<u32>) -> u64 {
    match bit {
        Some(b) => b as u64,
        None => 0xffff_ffff,
    }
}
