//! The mutator: deterministic, seedable edits of seed inputs.
//!
//! Coverage-blind, so it leans on what breaks parsers and backends in practice: numbers at the
//! edges of their fields (0xffffffff, -1, 1e30, 2^31), keywords of the input language in the
//! wrong place, duplicated or deleted lines (which break SSA and block structure), and splices
//! of two seeds. Every choice comes from one [`Rng`], so a (seed, execution) pair replays.

use gpucc::util::rng::Rng;

/// Numbers that sit on the edge of some field: sign, width, float range, NaN.
pub const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "7",
    "16",
    "31",
    "32",
    "64",
    "255",
    "256",
    "4095",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "4000000000",
    "18446744073709551615",
    "99999999999999999999",
    "0x0",
    "0x1",
    "0x7fffffff",
    "0x80000000",
    "0xffffffff",
    "0x3f800000",
    "0x7fc00000",
    "0xff800000",
    "0xffffffffffffffff",
    "1e30",
    "-1e30",
    "1e-45",
    "3.4e38",
    "nan",
    "inf",
    "-0.0",
    "0.5",
];

/// Applies one to four stacked edits to `input`; `dict` holds the target's keywords and
/// `others` the other seeds (for splices).
pub fn mutate(rng: &mut Rng, input: &[u8], dict: &[&str], others: &[Vec<u8>]) -> Vec<u8> {
    let mut out = input.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        edit(rng, &mut out, dict, others);
    }
    out
}

fn edit(rng: &mut Rng, buf: &mut Vec<u8>, dict: &[&str], others: &[Vec<u8>]) {
    let len = buf.len() as u64;
    match rng.below(12) {
        // Flip one bit.
        0 if len > 0 => {
            let i = rng.below(len) as usize;
            buf[i] ^= 1 << rng.below(8);
        }
        // Overwrite a byte with an arbitrary or an interesting one.
        1 if len > 0 => {
            let i = rng.below(len) as usize;
            buf[i] = *rng.pick(&[0u8, 0xff, 0x7f, 0x80, b'\n', b'{', b'}', b'%', b' ']);
            if rng.bool() {
                buf[i] = rng.below(256) as u8;
            }
        }
        // Delete a range.
        2 if len > 0 => {
            let a = rng.below(len) as usize;
            let n = 1 + rng.below(64.min(len - a as u64)) as usize;
            buf.drain(a..a + n);
        }
        // Duplicate a range in place.
        3 if len > 0 => {
            let a = rng.below(len) as usize;
            let n = 1 + rng.below(64.min(len - a as u64)) as usize;
            let piece = buf[a..a + n].to_vec();
            let at = rng.below(len + 1) as usize;
            buf.splice(at..at, piece);
        }
        // Replace a number with an edge value.
        4 | 5 => replace_token(rng, buf, |b| b.is_ascii_digit(), NUMBERS),
        // Replace a word with a keyword of the language.
        6 if !dict.is_empty() => replace_token(rng, buf, |b| b.is_ascii_alphabetic(), dict),
        // Insert a keyword or a number.
        7 => {
            let tok = if rng.bool() && !dict.is_empty() {
                *rng.pick(dict)
            } else {
                *rng.pick(NUMBERS)
            };
            let at = rng.below(len + 1) as usize;
            buf.splice(at..at, tok.bytes());
        }
        // Lines: delete, duplicate or swap (text inputs break on structure, not bytes).
        8 => edit_lines(rng, buf),
        // Splice: keep a prefix of this input and a suffix of another seed.
        9 if !others.is_empty() => {
            let other = rng.pick(others);
            let a = rng.below(len + 1) as usize;
            let b = rng.below(other.len() as u64 + 1) as usize;
            buf.truncate(a);
            buf.extend_from_slice(&other[b..]);
        }
        // Binary: overwrite an aligned 32-bit word with an edge value.
        10 if len >= 4 => {
            let i = (rng.below(len / 4) * 4) as usize;
            let w = *rng.pick(&[0u32, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 0x3f80_0000]);
            let w = if rng.bool() { rng.next_u32() } else { w };
            buf[i..i + 4].copy_from_slice(&w.to_le_bytes());
        }
        // Append random bytes (grows inputs past their seeds' ends).
        _ => {
            let n = 1 + rng.below(16);
            for _ in 0..n {
                buf.push(rng.below(256) as u8);
            }
        }
    }
}

/// Replaces one maximal run of bytes satisfying `class` (found from a random start) by `toks`.
fn replace_token(rng: &mut Rng, buf: &mut Vec<u8>, class: impl Fn(u8) -> bool, toks: &[&str]) {
    if buf.is_empty() {
        return;
    }
    let start = rng.below(buf.len() as u64) as usize;
    let Some(a) = (start..buf.len()).find(|&i| class(buf[i])) else {
        return;
    };
    let mut b = a;
    while b < buf.len() && (class(buf[b]) || buf[b].is_ascii_alphanumeric() || buf[b] == b'_') {
        b += 1;
    }
    let mut a = a;
    while a > 0 && (buf[a - 1].is_ascii_alphanumeric() || buf[a - 1] == b'_') {
        a -= 1;
    }
    // Take a leading `-` or `0x` with the number, so the edge value replaces it whole.
    if a > 0 && buf[a - 1] == b'-' {
        a -= 1;
    }
    let tok = *rng.pick(toks);
    buf.splice(a..b, tok.bytes());
}

fn edit_lines(rng: &mut Rng, buf: &mut Vec<u8>) {
    let mut lines: Vec<Vec<u8>> = buf.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let n = lines.len() as u64;
    match rng.below(3) {
        0 if n > 1 => {
            lines.remove(rng.below(n) as usize);
        }
        1 => {
            let i = rng.below(n) as usize;
            let l = lines[i].clone();
            lines.insert(rng.below(n + 1) as usize, l);
        }
        _ => {
            let (a, b) = (rng.below(n) as usize, rng.below(n) as usize);
            lines.swap(a, b);
        }
    }
    *buf = lines.join(&b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_mutants() {
        let seed = b"32 %1 = load_const (0x3f800000)\n".to_vec();
        let run = |s| {
            let mut rng = Rng::new(s);
            (0..50)
                .map(|_| mutate(&mut rng, &seed, &["fadd"], std::slice::from_ref(&seed)))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }

    #[test]
    fn number_replacement_takes_the_whole_number() {
        // An edit that lands in "-12" replaces all of it (one past it finds no number).
        for s in 0..200 {
            let mut rng = Rng::new(s);
            let mut buf = b"x -12 y".to_vec();
            replace_token(&mut rng, &mut buf, |b| b.is_ascii_digit(), &["7"]);
            assert!(buf == b"x 7 y" || buf == b"x -12 y", "seed {s}: {buf:?}");
        }
    }
}
