//! The state file: every LOAD_STATE lands here, and each engine reads its states from it.
//!
//! A Vivante core's states are 32-bit registers addressed in bytes; LOAD_STATE carries a dword
//! address in 16 bits, so the file spans 0x00000-0x3fffc. The model keeps all of it and
//! records, per address, how often the stream wrote it. Which addresses the model interprets
//! is declared by the engines ([`MODELLED`]); a write anywhere else is counted and shows up in
//! the run's report by address, so a test that draws wrongly because of a state the model does
//! not know says so instead of failing silently.

use std::collections::BTreeMap;
use std::ops::Range;

/// Number of dword states LOAD_STATE can address.
pub const STATE_COUNT: usize = 0x10000;

/// The registers of one core.
#[derive(Clone)]
pub struct States {
    values: Vec<u32>,
    writes: Vec<u32>,
}

impl Default for States {
    fn default() -> States {
        States {
            values: vec![0; STATE_COUNT],
            writes: vec![0; STATE_COUNT],
        }
    }
}

impl States {
    /// The value at byte address `address`.
    pub fn get(&self, address: u32) -> u32 {
        self.values[(address as usize >> 2) & (STATE_COUNT - 1)]
    }

    /// The value as an IEEE float (states the hardware keeps as floats).
    pub fn get_f32(&self, address: u32) -> f32 {
        f32::from_bits(self.get(address))
    }

    /// Element `i` of a state array starting at `base`.
    pub fn at(&self, base: u32, i: usize) -> u32 {
        self.get(base + 4 * i as u32)
    }

    pub fn set(&mut self, address: u32, value: u32) {
        let i = (address as usize >> 2) & (STATE_COUNT - 1);
        self.values[i] = value;
        self.writes[i] = self.writes[i].saturating_add(1);
    }

    /// Writes to addresses outside `modelled`, by byte address.
    pub fn unmodelled_writes(&self, modelled: &[Range<u32>]) -> BTreeMap<u32, u32> {
        self.writes
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, n)| ((i as u32) << 2, *n))
            .filter(|(a, _)| !modelled.iter().any(|r| r.contains(a)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_writes_outside_the_modelled_ranges() {
        let mut s = States::default();
        s.set(0x3808, 0x701);
        s.set(0x1234 << 2, 7);
        s.set(0x1234 << 2, 8);
        assert_eq!(s.get(0x1234 << 2), 8);
        let un = s.unmodelled_writes(&[0x3800..0x3814, 0x3c00..0x3c04]);
        assert_eq!(un.into_iter().collect::<Vec<_>>(), vec![(0x48d0, 2)]);
    }
}
