//! A check of a vec4 register allocation that does not look at the interference graph.
//!
//! [`ra::check`](crate::ra::check) proves that the allocator coloured its graph correctly,
//! which is only as good as the graph: an edge left out while building it would pass. This
//! check starts again from the live intervals the graph was built from and asks directly what
//! the allocation must give: every register live somewhere sits in the allocatable range, and
//! two registers whose intervals overlap never share a GRF. One sweep over the intervals in
//! order of their start, remembering per GRF the interval that reaches furthest, finds any
//! clash.

use std::fmt;

/// The first rule an allocation breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AllocCheckError {
    /// The allocation does not name a GRF for every virtual register.
    WrongLength {
        /// Virtual registers.
        vgrfs: usize,
        /// GRFs given.
        regs: usize,
    },
    /// A live register lies outside `first_free..limit`.
    OutOfRange {
        /// The virtual register.
        vgrf: u32,
        /// Its GRF.
        reg: u32,
    },
    /// Two registers live at the same time share a GRF.
    Shared {
        /// The register whose interval begins first.
        a: u32,
        /// The other.
        b: u32,
        /// The GRF both got.
        reg: u32,
        /// An instruction where both are live.
        at: usize,
    },
}

impl fmt::Display for AllocCheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocCheckError::WrongLength { vgrfs, regs } => {
                write!(f, "{regs} GRFs for {vgrfs} virtual registers")
            }
            AllocCheckError::OutOfRange { vgrf, reg } => {
                write!(f, "v{vgrf} got g{reg}, outside the allocatable registers")
            }
            AllocCheckError::Shared { a, b, reg, at } => write!(
                f,
                "v{a} and v{b} are both live at instruction {at} but share g{reg}"
            ),
        }
    }
}

impl std::error::Error for AllocCheckError {}

/// Checks that `regs` (a GRF per virtual register) keeps apart the registers whose live
/// intervals `iv` ([`liveness::intervals`](super::liveness::intervals), inclusive) overlap,
/// and places every live register in `first_free..limit`.
pub fn check(
    iv: &[Option<(usize, usize)>],
    regs: &[u32],
    first_free: u32,
    limit: u32,
) -> Result<(), AllocCheckError> {
    if iv.len() != regs.len() {
        return Err(AllocCheckError::WrongLength {
            vgrfs: iv.len(),
            regs: regs.len(),
        });
    }
    let mut live: Vec<(usize, usize, u32)> = iv
        .iter()
        .enumerate()
        .filter_map(|(v, s)| s.map(|(a, b)| (a, b, v as u32)))
        .collect();
    live.sort_unstable();
    // Per GRF, the last interval placed there: (end, register). Intervals come in order of
    // their start, so one that does not overlap it also ends after it.
    let mut owner: Vec<Option<(usize, u32)>> = vec![None; limit.max(first_free) as usize];
    for (start, end, v) in live {
        let reg = regs[v as usize];
        if reg < first_free || reg >= limit {
            return Err(AllocCheckError::OutOfRange { vgrf: v, reg });
        }
        let slot = &mut owner[reg as usize];
        match *slot {
            Some((other_end, other)) if other_end >= start => {
                return Err(AllocCheckError::Shared {
                    a: other,
                    b: v,
                    reg,
                    at: start,
                })
            }
            _ => *slot = Some((end, v)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_intervals_may_not_share_a_register() {
        let iv = [Some((0, 4)), Some((2, 6)), Some((5, 8)), None];
        // v0 and v2 do not overlap and may share; v3 is never live.
        check(&iv, &[10, 11, 10, 99], 10, 12).unwrap();
        assert_eq!(
            check(&iv, &[10, 10, 11, 0], 10, 12),
            Err(AllocCheckError::Shared {
                a: 0,
                b: 1,
                reg: 10,
                at: 2
            })
        );
        // Overlapping at one instruction is overlapping (the intervals are inclusive).
        let touching = [Some((0, 4)), Some((4, 6))];
        assert!(check(&touching, &[10, 10], 10, 12).is_err());
    }

    #[test]
    fn live_registers_stay_in_range_and_every_register_has_one() {
        let iv = [Some((0, 1)), Some((2, 3))];
        assert_eq!(
            check(&iv, &[10, 12], 10, 12),
            Err(AllocCheckError::OutOfRange { vgrf: 1, reg: 12 })
        );
        assert_eq!(
            check(&iv, &[10], 10, 12),
            Err(AllocCheckError::WrongLength { vgrfs: 2, regs: 1 })
        );
    }
}
