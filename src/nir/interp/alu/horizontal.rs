//! Ops whose sources or result have a fixed width: vector construction, dot products,
//! all/any reductions, and the pack/unpack family.

use super::super::value::{bool_bits, f64_to_f16, from_f64, sext, to_f64, Rounding};
use crate::nir::opcodes::AluOp;
use crate::nir::types::BaseType;

/// Result components of a horizontal op (`out.len()` is the op's output size, or 1 for the
/// replicated dot products, which the caller splats). None when `op` is not horizontal.
/// Widths come from the opcode table (`vec4` has four sources, `fdot3` two 3-vectors).
pub fn eval(op: AluOp, bits: u8, dst_bits: u8, s: &[&[u64]]) -> Option<Vec<u64>> {
    use AluOp::*;
    let info = op.info();
    let f = |src: usize, c: usize| to_f64(s[src][c], bits);
    let rd = |x: f64| to_f64(from_f64(x, bits), bits);
    let width = || info.input_sizes.first().map_or(0, |&n| n as usize);
    if op.is_vector_constructor() {
        let n = info.output_size as usize;
        return Some((0..n).map(|i| s[i][0]).collect());
    }
    if matches!(
        op,
        fdot2
            | fdot3
            | fdot4
            | fdot5
            | fdot8
            | fdot16
            | fdot2_replicated
            | fdot3_replicated
            | fdot4_replicated
            | fdot5_replicated
            | fdot8_replicated
            | fdot16_replicated
    ) {
        let p: Vec<f64> = (0..width()).map(|c| rd(f(0, c) * f(1, c))).collect();
        return Some(vec![from_f64(reduce(&p, &|a, b| rd(a + b)), bits)]);
    }
    if matches!(op, fdph | fdph_replicated) {
        let xy = rd(rd(f(0, 0) * f(1, 0)) + rd(f(0, 1) * f(1, 1)));
        let xyz = rd(xy + rd(f(0, 2) * f(1, 2)));
        return Some(vec![from_f64(xyz + f(1, 3), bits)]);
    }
    if matches!(op, fsum2 | fsum3 | fsum4) {
        // unop_reduce: ((x + y) + z) for 3, (x + y) + (z + w) for 4.
        let v: Vec<f64> = (0..width()).map(|c| f(0, c)).collect();
        let sum = match v.len() {
            2 => rd(v[0] + v[1]),
            3 => rd(rd(v[0] + v[1]) + v[2]),
            _ => rd(rd(v[0] + v[1]) + rd(v[2] + v[3])),
        };
        return Some(vec![from_f64(sum, bits)]);
    }
    if let Some(all) = reduction(op) {
        // The sources' type says how components compare, the result's how the answer is
        // written (a boolean, or 1.0/0.0 for `fall_equal`/`fany_nequal`).
        let float = info.input_types[0].base == BaseType::Float;
        let m = bits_mask(bits);
        let eq: Vec<bool> = (0..width())
            .map(|c| {
                if float {
                    f(0, c) == f(1, c)
                } else {
                    s[0][c] & m == s[1][c] & m
                }
            })
            .collect();
        let v = if all {
            eq.iter().all(|&b| b)
        } else {
            !eq.iter().all(|&b| b)
        };
        let out = if info.output_type.base == BaseType::Float {
            from_f64(if v { 1.0 } else { 0.0 }, 32)
        } else {
            bool_bits(v, dst_bits)
        };
        return Some(vec![out]);
    }
    let x = s[0][0];
    let half = |h: u64| to_f64(h & 0xffff, 16);
    let half_ftz = |h: u64| {
        let h = if h & 0x7c00 == 0 { h & 0x8000 } else { h };
        to_f64(h & 0xffff, 16)
    };
    let f32b = |v: f64| from_f64(v, 32);
    let comps = |src: usize, n: usize| -> Vec<f64> { (0..n).map(|c| f(src, c)).collect() };
    Some(match op {
        AluOp::pack_snorm_2x16 => vec![pack(&comps(0, 2), 16, pack_snorm)],
        AluOp::pack_unorm_2x16 => vec![pack(&comps(0, 2), 16, pack_unorm)],
        AluOp::pack_snorm_4x8 => vec![pack(&comps(0, 4), 8, pack_snorm)],
        AluOp::pack_unorm_4x8 => vec![pack(&comps(0, 4), 8, pack_unorm)],
        AluOp::pack_half_2x16 => vec![
            f64_to_f16(f(0, 0), Rounding::NearestEven) as u64
                | (f64_to_f16(f(0, 1), Rounding::NearestEven) as u64) << 16,
        ],
        AluOp::pack_half_2x16_split => vec![
            f64_to_f16(f(0, 0), Rounding::NearestEven) as u64
                | (f64_to_f16(f(1, 0), Rounding::NearestEven) as u64) << 16,
        ],
        AluOp::pack_half_2x16_rtz_split => vec![
            f64_to_f16(f(0, 0), Rounding::TowardZero) as u64
                | (f64_to_f16(f(1, 0), Rounding::TowardZero) as u64) << 16,
        ],
        // GLSL's unpack*2x16 take the high half for y. (Mesa 23.3's constant expression
        // truncates `x << 16` to 16 bits there, a known folding bug we do not copy.)
        AluOp::unpack_snorm_2x16 => (0..2)
            .map(|i| f32b(unpack_snorm(x >> (16 * i), 16)))
            .collect(),
        AluOp::unpack_unorm_2x16 => (0..2)
            .map(|i| f32b(unpack_unorm(x >> (16 * i), 16)))
            .collect(),
        AluOp::unpack_snorm_4x8 => (0..4)
            .map(|i| f32b(unpack_snorm(x >> (8 * i), 8)))
            .collect(),
        AluOp::unpack_unorm_4x8 => (0..4)
            .map(|i| f32b(unpack_unorm(x >> (8 * i), 8)))
            .collect(),
        AluOp::unpack_half_2x16 => vec![f32b(half(x)), f32b(half(x >> 16))],
        AluOp::unpack_half_2x16_flush_to_zero => vec![f32b(half_ftz(x)), f32b(half_ftz(x >> 16))],
        AluOp::unpack_half_2x16_split_x => vec![f32b(half(x))],
        AluOp::unpack_half_2x16_split_y => vec![f32b(half(x >> 16))],
        AluOp::unpack_half_2x16_split_x_flush_to_zero => vec![f32b(half_ftz(x))],
        AluOp::unpack_half_2x16_split_y_flush_to_zero => vec![f32b(half_ftz(x >> 16))],
        AluOp::pack_uint_2x16 => {
            let c = |v: u64| (v as u32).min(0xffff) as u64;
            vec![c(s[0][0]) | c(s[0][1]) << 16]
        }
        AluOp::pack_sint_2x16 => {
            let c = |v: u64| ((v as u32 as i32).clamp(-32768, 32767) as u32 & 0xffff) as u64;
            vec![c(s[0][0]) | c(s[0][1]) << 16]
        }
        AluOp::pack_uvec2_to_uint => vec![((s[0][0] & 0xffff) | (s[0][1] << 16)) & 0xffff_ffff],
        AluOp::pack_uvec4_to_uint => {
            vec![(s[0][0] | s[0][1] << 8 | s[0][2] << 16 | s[0][3] << 24) & 0xffff_ffff]
        }
        AluOp::pack_32_4x8 => vec![
            (s[0][0] & 0xff)
                | (s[0][1] & 0xff) << 8
                | (s[0][2] & 0xff) << 16
                | (s[0][3] & 0xff) << 24,
        ],
        AluOp::pack_32_2x16 => vec![(s[0][0] & 0xffff) | (s[0][1] & 0xffff) << 16],
        AluOp::pack_64_2x32 => vec![(s[0][0] & 0xffff_ffff) | s[0][1] << 32],
        AluOp::pack_64_4x16 => vec![
            (s[0][0] & 0xffff)
                | (s[0][1] & 0xffff) << 16
                | (s[0][2] & 0xffff) << 32
                | (s[0][3] & 0xffff) << 48,
        ],
        AluOp::unpack_64_2x32 => vec![x & 0xffff_ffff, x >> 32],
        AluOp::unpack_64_4x16 => (0..4).map(|i| (x >> (16 * i)) & 0xffff).collect(),
        AluOp::unpack_32_2x16 => vec![x & 0xffff, (x >> 16) & 0xffff],
        AluOp::unpack_32_4x8 => (0..4).map(|i| (x >> (8 * i)) & 0xff).collect(),
        AluOp::unpack_32_2x16_split_x => vec![x & 0xffff],
        AluOp::unpack_32_2x16_split_y => vec![(x >> 16) & 0xffff],
        AluOp::unpack_64_2x32_split_x => vec![x & 0xffff_ffff],
        AluOp::unpack_64_2x32_split_y => vec![x >> 32],
        AluOp::sad_u8x4 => {
            let b = |v: u64, i: u32| ((v >> (8 * i)) & 0xff) as i64;
            let sum: i64 = (0..4).map(|i| (b(s[0][0], i) - b(s[1][0], i)).abs()).sum();
            vec![(s[2][0] as u32).wrapping_add(sum as u32) as u64]
        }
        _ => return None,
    })
}

fn bits_mask(bits: u8) -> u64 {
    super::super::value::mask(bits)
}

/// Whether `op` is an all-equal (true) or any-not-equal (false) reduction of two vectors.
fn reduction(op: AluOp) -> Option<bool> {
    use AluOp::*;
    match op {
        b16all_fequal2 | b16all_fequal3 | b16all_fequal4 | b16all_fequal5 | b16all_fequal8
        | b16all_fequal16 | b16all_iequal2 | b16all_iequal3 | b16all_iequal4 | b16all_iequal5
        | b16all_iequal8 | b16all_iequal16 | b32all_fequal2 | b32all_fequal3 | b32all_fequal4
        | b32all_fequal5 | b32all_fequal8 | b32all_fequal16 | b32all_iequal2 | b32all_iequal3
        | b32all_iequal4 | b32all_iequal5 | b32all_iequal8 | b32all_iequal16 | b8all_fequal2
        | b8all_fequal3 | b8all_fequal4 | b8all_fequal5 | b8all_fequal8 | b8all_fequal16
        | b8all_iequal2 | b8all_iequal3 | b8all_iequal4 | b8all_iequal5 | b8all_iequal8
        | b8all_iequal16 | ball_fequal2 | ball_fequal3 | ball_fequal4 | ball_fequal5
        | ball_fequal8 | ball_fequal16 | ball_iequal2 | ball_iequal3 | ball_iequal4
        | ball_iequal5 | ball_iequal8 | ball_iequal16 | fall_equal2 | fall_equal3 | fall_equal4
        | fall_equal5 | fall_equal8 | fall_equal16 => Some(true),
        b16any_fnequal2 | b16any_fnequal3 | b16any_fnequal4 | b16any_fnequal5 | b16any_fnequal8
        | b16any_fnequal16 | b16any_inequal2 | b16any_inequal3 | b16any_inequal4
        | b16any_inequal5 | b16any_inequal8 | b16any_inequal16 | b32any_fnequal2
        | b32any_fnequal3 | b32any_fnequal4 | b32any_fnequal5 | b32any_fnequal8
        | b32any_fnequal16 | b32any_inequal2 | b32any_inequal3 | b32any_inequal4
        | b32any_inequal5 | b32any_inequal8 | b32any_inequal16 | b8any_fnequal2
        | b8any_fnequal3 | b8any_fnequal4 | b8any_fnequal5 | b8any_fnequal8 | b8any_fnequal16
        | b8any_inequal2 | b8any_inequal3 | b8any_inequal4 | b8any_inequal5 | b8any_inequal8
        | b8any_inequal16 | bany_fnequal2 | bany_fnequal3 | bany_fnequal4 | bany_fnequal5
        | bany_fnequal8 | bany_fnequal16 | bany_inequal2 | bany_inequal3 | bany_inequal4
        | bany_inequal5 | bany_inequal8 | bany_inequal16 | fany_nequal2 | fany_nequal3
        | fany_nequal4 | fany_nequal5 | fany_nequal8 | fany_nequal16 => Some(false),
        _ => None,
    }
}

/// NIR's pairwise reduction order for dot products: sizes 2, 4, 8, 16 split in halves
/// (`reduce(high half, low half)`); 3 is `(z + y) + x`; 5 is `e + ((w + z) + (y + x))`.
fn reduce(p: &[f64], add: &dyn Fn(f64, f64) -> f64) -> f64 {
    match p.len() {
        1 => p[0],
        3 => add(add(p[2], p[1]), p[0]),
        5 => add(p[4], add(add(p[3], p[2]), add(p[1], p[0]))),
        n => {
            let h = n / 2;
            add(reduce(&p[h..], add), reduce(&p[..h], add))
        }
    }
}

fn pack_snorm(x: f64, bits: u32) -> u64 {
    let scale = ((1u64 << (bits - 1)) - 1) as f64;
    let c = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
    let v = (c as f32 * scale as f32).round_ties_even() as i64;
    v as u64 & ((1u64 << bits) - 1)
}

fn pack_unorm(x: f64, bits: u32) -> u64 {
    let scale = ((1u64 << bits) - 1) as f64;
    let c = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    (c as f32 * scale as f32).round_ties_even() as u64
}

fn pack(v: &[f64], bits: u32, f: fn(f64, u32) -> u64) -> u64 {
    v.iter()
        .enumerate()
        .fold(0, |acc, (i, &x)| acc | f(x, bits) << (bits * i as u32))
}

fn unpack_snorm(v: u64, bits: u32) -> f64 {
    let scale = ((1u64 << (bits - 1)) - 1) as f32;
    let s = sext(v, bits as u8) as f32;
    ((s / scale).clamp(-1.0, 1.0)) as f64
}

fn unpack_unorm(v: u64, bits: u32) -> f64 {
    let scale = ((1u64 << bits) - 1) as f32;
    ((v & ((1u64 << bits) - 1)) as f32 / scale) as f64
}
