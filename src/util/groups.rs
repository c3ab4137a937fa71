//! Values grouped under dense keys in one buffer (compressed rows).
//!
//! Optimizer passes list, for every virtual register, the instructions that write or copy it.
//! A `Vec<Vec<usize>>` pays an allocation for every register that has one; these groups are
//! two buffers however many keys there are, with each group's values in insertion order.

/// The values of each key `0..n`, in the order they were given.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    start: Vec<u32>,
    values: Vec<usize>,
}

impl Groups {
    /// Groups `pairs` of (key, value); every key must be below `n`.
    pub fn new(n: usize, pairs: &[(u32, usize)]) -> Groups {
        let mut start = vec![0u32; n + 1];
        for &(k, _) in pairs {
            start[k as usize + 1] += 1;
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut values = vec![0usize; pairs.len()];
        for &(k, v) in pairs {
            values[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Groups { start, values }
    }

    /// The values of `key`, in insertion order; empty past the last key.
    pub fn get(&self, key: usize) -> &[usize] {
        match (self.start.get(key), self.start.get(key + 1)) {
            (Some(&s), Some(&e)) => &self.values[s as usize..e as usize],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_keep_insertion_order_per_key() {
        let g = Groups::new(4, &[(2, 10), (0, 11), (2, 12), (3, 13), (2, 14)]);
        assert_eq!(g.get(0), &[11]);
        assert_eq!(g.get(1), &[] as &[usize]);
        assert_eq!(g.get(2), &[10, 12, 14]);
        assert_eq!(g.get(3), &[13]);
        assert_eq!(g.get(4), &[] as &[usize], "past the last key");
    }
}
