//! A dense, fixed-size bit set: the representation for liveness sets and interference rows.

/// Bits `0..len`, stored 64 to a word.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    pub fn new(len: usize) -> BitSet {
        BitSet {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn contains(&self, i: usize) -> bool {
        debug_assert!(i < self.len);
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Sets bit `i`; returns whether it was newly set.
    pub fn insert(&mut self, i: usize) -> bool {
        debug_assert!(i < self.len);
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let new = self.words[w] & b == 0;
        self.words[w] |= b;
        new
    }

    /// Clears bit `i`; returns whether it was set.
    pub fn remove(&mut self, i: usize) -> bool {
        debug_assert!(i < self.len);
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.words[w] & b != 0;
        self.words[w] &= !b;
        was
    }

    /// `self = other`, reusing the storage.
    pub fn assign(&mut self, other: &BitSet) {
        debug_assert_eq!(self.len, other.len);
        self.words.copy_from_slice(&other.words);
    }

    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// `self |= other`; returns whether any bit changed (the step of a data-flow fixed point).
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        debug_assert_eq!(self.len, other.len);
        union_words(&mut self.words, &other.words)
    }

    /// `self |= other`, calling `f` on each bit that was not yet set, in increasing order:
    /// a walk over several sets that visits every bit once, at its first occurrence.
    pub fn union_with_new(&mut self, other: &BitSet, f: impl FnMut(usize)) {
        debug_assert_eq!(self.len, other.len);
        union_words_new(&mut self.words, &other.words, f);
    }

    /// `self &= !other`.
    pub fn subtract(&mut self, other: &BitSet) {
        debug_assert_eq!(self.len, other.len);
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !b;
        }
    }

    /// `self &= other`; returns whether any bit changed (the step of a "on every path"
    /// data-flow fixed point).
    pub fn intersect_with(&mut self, other: &BitSet) -> bool {
        debug_assert_eq!(self.len, other.len);
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let n = *a & b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }

    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The set bits in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        ones(&self.words)
    }

    /// `self = ` the bits of `words` (a [`BitMatrix`] row of the same width).
    pub fn assign_words(&mut self, words: &[u64]) {
        self.words.copy_from_slice(words);
    }
}

/// The set bits of `words` (a [`BitSet`]'s storage or a [`BitMatrix`] row), in increasing
/// order.
pub fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(wi, &w)| {
        let mut bits = w;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(wi * 64 + b)
        })
    })
}

/// `rows` bit sets of `len` bits each in one allocation: the per-block sets of a data-flow
/// problem, or the allocator's register conflict and class membership rows, which would
/// otherwise cost an allocation per row.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BitMatrix {
    words: Vec<u64>,
    /// Words per row.
    stride: usize,
    len: usize,
}

impl BitMatrix {
    pub fn new(rows: usize, len: usize) -> BitMatrix {
        let stride = len.div_ceil(64);
        BitMatrix {
            words: vec![0; rows * stride],
            stride,
            len,
        }
    }

    /// Bits per row.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn row(&self, r: usize) -> &[u64] {
        &self.words[r * self.stride..(r + 1) * self.stride]
    }

    pub fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.words[r * self.stride..(r + 1) * self.stride]
    }

    pub fn contains(&self, r: usize, i: usize) -> bool {
        debug_assert!(i < self.len);
        self.words[r * self.stride + i / 64] >> (i % 64) & 1 == 1
    }

    pub fn insert(&mut self, r: usize, i: usize) {
        debug_assert!(i < self.len);
        self.words[r * self.stride + i / 64] |= 1u64 << (i % 64);
    }
}

/// `a |= b` over rows of one width; returns whether any bit changed.
pub fn union_words(a: &mut [u64], b: &[u64]) -> bool {
    debug_assert_eq!(a.len(), b.len());
    let mut changed = false;
    for (a, b) in a.iter_mut().zip(b) {
        let n = *a | b;
        changed |= n != *a;
        *a = n;
    }
    changed
}

/// `seen |= b`, calling `f` on each bit of `b` not yet in `seen`, in increasing order (as
/// [`BitSet::union_with_new`]).
pub fn union_words_new(seen: &mut [u64], b: &[u64], mut f: impl FnMut(usize)) {
    debug_assert_eq!(seen.len(), b.len());
    for (wi, (a, b)) in seen.iter_mut().zip(b).enumerate() {
        let mut new = b & !*a;
        *a |= b;
        while new != 0 {
            f(wi * 64 + new.trailing_zeros() as usize);
            new &= new - 1;
        }
    }
}

impl std::fmt::Debug for BitSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut a = BitSet::new(130);
        assert!(a.insert(0));
        assert!(a.insert(64));
        assert!(a.insert(129));
        assert!(!a.insert(64));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 64, 129]);
        let mut b = BitSet::new(130);
        b.insert(5);
        b.insert(64);
        assert!(a.union_with(&b));
        assert!(!a.union_with(&b));
        assert_eq!(a.count(), 4);
        a.subtract(&b);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 129]);
        assert!(a.remove(0));
        assert!(!a.contains(0));
        let mut seen = BitSet::new(130);
        let mut firsts = Vec::new();
        seen.union_with_new(&b, |i| firsts.push(i));
        seen.union_with_new(&a, |i| firsts.push(i));
        assert_eq!(firsts, vec![5, 64, 129], "b's bits, then a's 129 only once");
        assert!(a.intersect_with(&b), "129 is not in b");
        assert!(a.is_empty());
        assert!(!a.intersect_with(&b));
    }

    #[test]
    fn matrix_rows_are_separate_sets() {
        let mut m = BitMatrix::new(3, 70);
        m.insert(0, 69);
        m.insert(1, 0);
        m.insert(2, 64);
        assert!(m.contains(0, 69) && !m.contains(1, 69) && !m.contains(2, 69));
        assert_eq!(m.row(1), &[1, 0]);
        let b = m.row(2).to_vec();
        assert!(union_words(m.row_mut(1), &b));
        assert!(!union_words(m.row_mut(1), &b));
        assert!(m.contains(1, 0) && m.contains(1, 64) && !m.contains(0, 64));
        let mut seen = vec![0u64; 2];
        let mut firsts = Vec::new();
        union_words_new(&mut seen, m.row(1), |i| firsts.push(i));
        union_words_new(&mut seen, m.row(0), |i| firsts.push(i));
        union_words_new(&mut seen, m.row(2), |i| firsts.push(i));
        assert_eq!(firsts, vec![0, 64, 69], "64 only once");
    }
}
