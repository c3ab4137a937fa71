//! Word-range operations on bit rows for the register set.
//!
//! The register set keeps its conflict and membership rows in `util::bitset::BitMatrix`; the
//! allocator works on their words, because a class usually occupies a narrow band of register
//! numbers (an Intel class of 8-wide runs lives in three words out of thirty-one) and every
//! mask operation in the hot loops is restricted to that band.

use std::ops::Range;

pub(crate) const WORD_BITS: usize = 64;

pub(crate) fn words_for(bits: usize) -> usize {
    bits.div_ceil(WORD_BITS)
}

/// Population count of `a & b` over the word range `words`.
pub(crate) fn count_and(a: &[u64], b: &[u64], words: Range<usize>) -> u32 {
    a[words.clone()]
        .iter()
        .zip(&b[words])
        .map(|(x, y)| (x & y).count_ones())
        .sum()
}

/// The first set bit at or after `from` within the word range `words`, if any.
pub(crate) fn first_set_from(bits: &[u64], from: usize, words: Range<usize>) -> Option<usize> {
    let start_word = (from / WORD_BITS).max(words.start);
    let span = bits.get(start_word..words.end).unwrap_or(&[]);
    for (w, &word) in (start_word..).zip(span) {
        let mut word = word;
        if w == from / WORD_BITS {
            word &= !0u64 << (from % WORD_BITS);
        }
        if word != 0 {
            return Some(w * WORD_BITS + word.trailing_zeros() as usize);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::bitset::BitMatrix;

    #[test]
    fn first_set_respects_start_and_word_range() {
        let mut m = BitMatrix::new(1, 200);
        for c in [3, 64, 130, 199] {
            m.insert(0, c);
        }
        let row = m.row(0);
        assert_eq!(first_set_from(row, 0, 0..4), Some(3));
        assert_eq!(first_set_from(row, 4, 0..4), Some(64));
        assert_eq!(first_set_from(row, 65, 0..4), Some(130));
        assert_eq!(first_set_from(row, 131, 0..3), None); // 199 lies in word 3, outside
        assert_eq!(first_set_from(row, 0, 2..4), Some(130)); // words before the range ignored
        assert_eq!(first_set_from(row, 500, 0..4), None);
        assert_eq!(count_and(row, row, 0..4), 4);
        assert_eq!(count_and(row, row, 1..3), 2);
    }
}
