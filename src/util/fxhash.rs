//! A fast hasher for the compiler's own tables.
//!
//! The standard library's default (SipHash) resists hash flooding, which matters for tables
//! keyed by untrusted input but costs several times more per word than the keys here need:
//! instruction fingerprints and register numbers the compiler made itself. This is the
//! multiply-rotate word hash rustc uses for the same purpose (one rotate, xor and multiply per
//! word).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The multiplier: an odd constant with well-mixed bits (from rustc's FxHasher).
const SEED: u64 = 0x517c_c1b7_2722_0a95;

/// Word-at-a-time hasher; see the module documentation.
#[derive(Debug, Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u8(&mut self, v: u8) {
        self.add(v as u64);
    }

    fn write_u16(&mut self, v: u16) {
        self.add(v as u64);
    }

    fn write_u32(&mut self, v: u32) {
        self.add(v as u64);
    }

    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` hashed with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn hash<T: Hash>(v: T) -> u64 {
        let mut h = FxHasher::default();
        v.hash(&mut h);
        h.finish()
    }

    #[test]
    fn equal_values_hash_alike_and_small_changes_differ() {
        assert_eq!(hash((1u32, 2u8)), hash((1u32, 2u8)));
        assert_ne!(hash(1u32), hash(2u32));
        assert_ne!(hash((1u32, 2u32)), hash((2u32, 1u32)));
        // One word: (0 rotl 5 ^ 1) * SEED.
        assert_eq!(hash(1u64), SEED);
    }

    #[test]
    fn map_works_as_a_map() {
        let mut m: FxHashMap<u64, &str> = FxHashMap::default();
        m.insert(7, "seven");
        m.insert(1 << 40, "big");
        assert_eq!(m.get(&7), Some(&"seven"));
        assert_eq!(m.get(&(1 << 40)), Some(&"big"));
        assert_eq!(m.get(&8), None);
    }
}
