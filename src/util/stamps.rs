//! Per-index marks that a new run clears without touching the table.

/// Marks over indices `0..len` that all clear when a run begins: an index is marked in the
/// current run when its stamp equals the run's number, so beginning a run writes nothing
/// (except once every 2^32 runs, when the counter wraps). Scratch tables reused from run to
/// run (a scheduler run per block) use it to tell their live entries from stale ones.
#[derive(Clone, Debug, Default)]
pub struct Stamps {
    /// The current run (never 0, which marks an index no run has touched).
    run: u32,
    stamp: Vec<u32>,
}

impl Stamps {
    pub fn new(len: usize) -> Stamps {
        Stamps {
            run: 0,
            stamp: vec![0; len],
        }
    }

    /// Makes room for indices `0..len`.
    pub fn grow(&mut self, len: usize) {
        if self.stamp.len() < len {
            self.stamp.resize(len, 0);
        }
    }

    /// Begins a run: no index is marked.
    pub fn next_run(&mut self) {
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.stamp.fill(0);
            self.run = 1;
        }
    }

    /// Marks `i`; returns whether it was not yet marked in this run.
    pub fn mark(&mut self, i: usize) -> bool {
        let fresh = self.stamp[i] != self.run;
        self.stamp[i] = self.run;
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_run_clears_every_mark() {
        let mut s = Stamps::new(4);
        s.next_run();
        assert!(s.mark(1));
        assert!(!s.mark(1));
        s.grow(8);
        assert!(s.mark(6));
        s.next_run();
        assert!(s.mark(1));
        assert!(s.mark(6));
    }

    #[test]
    fn the_counter_wrapping_still_clears_the_marks() {
        let mut s = Stamps::new(2);
        s.run = u32::MAX - 1;
        s.next_run();
        assert!(s.mark(0));
        s.next_run(); // wraps to 0, which is reserved: every stamp resets
        assert_eq!(s.run, 1);
        assert!(s.mark(0));
        assert!(!s.mark(0));
    }
}
