//! Passes over the value-based IR between translation and allocation that remove
//! instructions translation could not avoid while walking the NIR one instruction at a time:
//! a saturate after the instruction computing its source ([`saturate`]), vectors that share
//! their sources ([`pack`]), instructions reading vectors assembled by MOVs ([`split`]) and
//! comparisons with zero computed only for a SELECT ([`select_cond`]) and jumps over an `else`
//! that only sets phi variables to constants ([`else_copies`]).
//!
//! They rely on what translation guarantees for ordinary values (`ValueKind::Temp`): a
//! value whose writes all lie in one straight-line stretch is written once per component
//! there, before every read of it (the NIR is SSA, and only phi variables, written at the
//! end of several blocks, break that). [`Facts`] gathers what they need to check it.

pub mod else_copies;
pub mod pack;
pub mod saturate;
pub mod select_cond;
pub mod split;

use super::ir::{Item, OperandKind, Program, ValueId};
use crate::etnaviv::isa::Opcode;

/// Where each value is written and read, and which straight-line stretch each item is in.
pub(crate) struct Facts {
    /// Item indices of the instructions writing each value.
    pub defs: Vec<Vec<usize>>,
    /// Item indices of the instructions reading each value (once per operand).
    pub reads: Vec<Vec<usize>>,
    /// Per item, its stretch: a new one starts at every label and after every branch or
    /// kill.
    pub stretch: Vec<u32>,
}

impl Facts {
    pub fn of(p: &Program) -> Facts {
        let n = p.values.len();
        let mut f = Facts {
            defs: vec![Vec::new(); n],
            reads: vec![Vec::new(); n],
            stretch: Vec::with_capacity(p.items.len()),
        };
        let mut s = 0u32;
        for (at, item) in p.items.iter().enumerate() {
            match item {
                Item::Label(_) => {
                    s += 1;
                    f.stretch.push(s);
                }
                Item::Instr(i) => {
                    f.stretch.push(s);
                    if let Some((d, _)) = i.dst {
                        f.defs[d.index()].push(at);
                    }
                    for op in i.src.iter().flatten() {
                        if let OperandKind::Value(v) = op.kind {
                            f.reads[v.index()].push(at);
                        }
                    }
                    if i.target.is_some() || i.op == Opcode::Texkill {
                        s += 1;
                    }
                }
            }
        }
        f
    }

    /// Whether every write of `v` lies in one stretch (and there is at least one).
    pub fn written_in_one_stretch(&self, v: ValueId) -> bool {
        let d = &self.defs[v.index()];
        !d.is_empty() && d.iter().all(|&at| self.stretch[at] == self.stretch[d[0]])
    }

    /// Whether any item strictly between `from` and `to` writes `v`.
    pub fn written_between(&self, v: ValueId, from: usize, to: usize) -> bool {
        self.defs[v.index()].iter().any(|&at| from < at && at < to)
    }

    /// Whether any item strictly between `from` and `to` reads `v`.
    pub fn read_between(&self, v: ValueId, from: usize, to: usize) -> bool {
        self.reads[v.index()].iter().any(|&at| from < at && at < to)
    }
}

/// Removes the items at `dead` (any order).
pub(crate) fn remove_items(p: &mut Program, mut dead: Vec<usize>) {
    dead.sort_unstable();
    dead.dedup();
    for at in dead.into_iter().rev() {
        p.items.remove(at);
    }
}
