//! A value-tracking check of final code, in the spirit of regalloc2's checker.
//!
//! [`check`](super::check) proves that interfering nodes got different registers, which is
//! only as good as the interference graph, and says nothing about what happens to the code
//! after allocation: an edge left out (a liveness bug, a payload range cut short), an
//! instruction split into parts after allocation, a scheduler moving a write above the last
//! read of the register's previous value all pass it. This check looks at neither the graph
//! nor the allocator. It runs the final, physical-register code abstractly: for every
//! physical register unit it remembers which virtual value was written into it last, and at
//! every read asks whether the unit still holds the value the instruction means to read.
//!
//! What a backend provides ([`FinalCode`]) is the code as the hardware will run it: per
//! instruction, the units it reads and writes, each paired with the virtual value (the
//! identity before allocation) meant to be there, and the control flow between blocks. The
//! units are the backend's to choose (a GRF, a component of a GRF, a component of a
//! temporary); values are dense numbers the backend can describe.
//!
//! The rules:
//! - A read is checked only when its value was written on every path to it: a value defined
//!   on some paths only is undefined on the others, where any contents will do.
//! - Paths meet: a unit holds a value after a join only when every incoming path brings the
//!   same one.
//! - A full write makes the unit hold the written value. A partial write (some bytes or
//!   channels of the unit, or a predicated write) merges: the unit keeps holding the value
//!   when it held it already (the rest of the value is still there) or when the value was not
//!   yet written on every path (the rest is undefined); otherwise the part written lands on
//!   another value, and the earlier parts of the written value are gone.
//! - Every read of an instruction happens before its writes.

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Range;

use crate::util::bitset::BitSet;

/// A basic block of final code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The instructions, in order.
    pub insts: Range<usize>,
    /// Blocks control may reach next (block 0 is the entry).
    pub succs: Vec<usize>,
    /// Control may leave the program at the end of this block, where
    /// [`FinalCode::exit_reads`] are made.
    pub exits: bool,
}

/// A unit an instruction reads, and the value it means to find there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Read {
    /// The physical unit.
    pub unit: u32,
    /// The virtual value.
    pub value: u32,
    /// Which operand reads it (for the message).
    pub operand: u32,
}

/// A unit an instruction writes, and the value it puts there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Write {
    /// The physical unit.
    pub unit: u32,
    /// The virtual value.
    pub value: u32,
    /// Only part of the unit is written (some channels or bytes, or under a predicate).
    pub partial: bool,
}

/// Final code as the value check sees it.
pub trait FinalCode {
    /// Physical units in the register file.
    fn units(&self) -> u32;
    /// Virtual values (numbered `0..values()`).
    fn values(&self) -> u32;
    /// The basic blocks, the entry first, covering every instruction once.
    fn blocks(&self) -> Vec<Block>;
    /// What the units hold when the program starts (the payload, inputs): `(unit, value)`.
    fn entry(&self, out: &mut Vec<(u32, u32)>);
    /// The units instruction `ip` reads.
    fn reads(&self, ip: usize, out: &mut Vec<Read>);
    /// The units instruction `ip` writes.
    fn writes(&self, ip: usize, out: &mut Vec<Write>);
    /// What is read after the program ends (outputs a driver takes from registers).
    fn exit_reads(&self, _out: &mut Vec<Read>) {}
    /// The instruction, for messages.
    fn describe_inst(&self, ip: usize) -> String;
    /// A value, for messages.
    fn describe_value(&self, value: u32) -> String;
    /// A unit, for messages.
    fn describe_unit(&self, unit: u32) -> String;
}

/// What a unit holds at a program point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// Nothing the program wrote (and no entry value).
    Nothing,
    /// A value, written by instruction `writer` (`None`: there on entry).
    Value { value: u32, writer: Option<usize> },
    /// Part of `value`, written by `writer` over another value: the value's earlier parts
    /// are lost.
    Overlaid { value: u32, writer: usize },
    /// Paths disagree.
    Mixed,
}

impl Holds {
    fn meet(self, other: Holds) -> Holds {
        match (self, other) {
            (a, b) if a == b => a,
            (Holds::Value { value: a, writer }, Holds::Value { value: b, .. }) if a == b => {
                Holds::Value { value: a, writer }
            }
            _ => Holds::Mixed,
        }
    }

    fn holds(self, value: u32) -> bool {
        matches!(self, Holds::Value { value: v, .. } if v == value)
    }
}

/// The first thing the check finds wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueError {
    /// An instruction (or the entry, `ip: None`) names a unit past the register file.
    OutOfFile { ip: Option<usize>, unit: u32 },
    /// A read finds another value than the one it means.
    Lost(LostValue),
}

/// A read that does not find its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostValue {
    /// The reading instruction; `None` for a read after the program ends.
    pub ip: Option<usize>,
    /// The operand.
    pub operand: u32,
    /// The unit read.
    pub unit: u32,
    /// The value meant.
    pub wanted: u32,
    /// What the unit holds instead.
    pub found: Holds,
    /// The same, in words.
    pub message: String,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::OutOfFile { ip: Some(ip), unit } => {
                write!(f, "ip {ip} names unit {unit}, past the register file")
            }
            ValueError::OutOfFile { ip: None, unit } => {
                write!(
                    f,
                    "the entry state names unit {unit}, past the register file"
                )
            }
            ValueError::Lost(l) => f.write_str(&l.message),
        }
    }
}

impl std::error::Error for ValueError {}

/// The units' contents at a program point, with the values written on every path so far.
#[derive(Clone)]
struct State {
    units: Vec<Holds>,
    written: BitSet,
}

impl State {
    /// `self = other`, reusing the storage.
    fn assign(&mut self, other: &State) {
        self.units.copy_from_slice(&other.units);
        self.written.assign(&other.written);
    }

    /// Meets `other` into `self`; returns whether `self` changed.
    fn meet(&mut self, other: &State) -> bool {
        let mut changed = false;
        for (o, &n) in self.units.iter_mut().zip(&other.units) {
            let m = o.meet(n);
            changed |= m != *o;
            *o = m;
        }
        changed | self.written.intersect_with(&other.written)
    }
}

/// Runs `code` abstractly and returns the first read that does not find its value.
pub fn check(code: &impl FinalCode) -> Result<(), ValueError> {
    let units = code.units();
    let blocks = code.blocks();
    if blocks.is_empty() {
        return Ok(());
    }
    let mut entry = State {
        units: vec![Holds::Nothing; units as usize],
        written: BitSet::new(code.values() as usize),
    };
    let mut pairs = Vec::new();
    code.entry(&mut pairs);
    for (unit, value) in pairs {
        let slot = entry
            .units
            .get_mut(unit as usize)
            .ok_or(ValueError::OutOfFile { ip: None, unit })?;
        *slot = Holds::Value {
            value,
            writer: None,
        };
        entry.written.insert(value as usize);
    }

    let mut writes = Vec::new();
    let mut st = entry.clone();
    let mut ins: Vec<Option<State>> = vec![None; blocks.len()];
    ins[0] = Some(entry);
    // Taking the lowest queued block first visits most blocks after their forward
    // predecessors (blocks come in program order), so the fixed point needs few passes.
    let mut work = BTreeSet::from([0usize]);
    while let Some(b) = work.pop_first() {
        st.assign(ins[b].as_ref().expect("queued blocks have an in-state"));
        for ip in blocks[b].insts.clone() {
            apply_writes(code, ip, &mut st, &mut writes)?;
        }
        for &s in &blocks[b].succs {
            let changed = match &mut ins[s] {
                slot @ None => {
                    *slot = Some(st.clone());
                    true
                }
                Some(old) => old.meet(&st),
            };
            if changed {
                work.insert(s);
            }
        }
    }

    // At the fixed point, walk every reachable block once more and check the reads.
    let mut reads = Vec::new();
    for (b, blk) in blocks.iter().enumerate() {
        let Some(in_state) = &ins[b] else { continue };
        st.assign(in_state);
        for ip in blk.insts.clone() {
            reads.clear();
            code.reads(ip, &mut reads);
            for r in &reads {
                verify(code, Some(ip), r, &st)?;
            }
            apply_writes(code, ip, &mut st, &mut writes)?;
        }
        if blk.exits {
            reads.clear();
            code.exit_reads(&mut reads);
            for r in &reads {
                verify(code, None, r, &st)?;
            }
        }
    }
    Ok(())
}

fn apply_writes(
    code: &impl FinalCode,
    ip: usize,
    st: &mut State,
    writes: &mut Vec<Write>,
) -> Result<(), ValueError> {
    writes.clear();
    code.writes(ip, writes);
    for w in writes.iter() {
        let slot = st
            .units
            .get_mut(w.unit as usize)
            .ok_or(ValueError::OutOfFile {
                ip: Some(ip),
                unit: w.unit,
            })?;
        let keeps = !w.partial || slot.holds(w.value) || !st.written.contains(w.value as usize);
        *slot = if keeps {
            Holds::Value {
                value: w.value,
                writer: Some(ip),
            }
        } else {
            Holds::Overlaid {
                value: w.value,
                writer: ip,
            }
        };
    }
    for w in writes.iter() {
        st.written.insert(w.value as usize);
    }
    Ok(())
}

fn verify(
    code: &impl FinalCode,
    ip: Option<usize>,
    r: &Read,
    st: &State,
) -> Result<(), ValueError> {
    if !st.written.contains(r.value as usize) {
        return Ok(()); // not written on some path: any contents will do
    }
    let found = *st
        .units
        .get(r.unit as usize)
        .ok_or(ValueError::OutOfFile { ip, unit: r.unit })?;
    if found.holds(r.value) {
        return Ok(());
    }
    let there = match found {
        Holds::Value {
            value,
            writer: Some(w),
        } => format!("{} (written at ip {w})", code.describe_value(value)),
        Holds::Value {
            value,
            writer: None,
        } => format!("{} (on entry)", code.describe_value(value)),
        Holds::Overlaid { value, writer } => format!(
            "part of {} written at ip {writer} over another value",
            code.describe_value(value)
        ),
        Holds::Nothing => "nothing the program wrote".into(),
        Holds::Mixed => "different values on different paths".into(),
    };
    let at = match ip {
        Some(ip) => format!("ip {ip} ({}) operand {}", code.describe_inst(ip), r.operand),
        None => format!("the end of the program (output {})", r.operand),
    };
    Err(ValueError::Lost(LostValue {
        ip,
        operand: r.operand,
        unit: r.unit,
        wanted: r.value,
        found,
        message: format!(
            "{at} reads {} from {}, which holds {there}",
            code.describe_value(r.value),
            code.describe_unit(r.unit)
        ),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One toy instruction: reads as (unit, value), writes as (unit, value, partial).
    type ToyInst = (Vec<(u32, u32)>, Vec<(u32, u32, bool)>);

    /// A straight-line or branching toy: each instruction reads and writes whole units.
    struct Toy {
        units: u32,
        insts: Vec<ToyInst>,
        blocks: Vec<Block>,
        entry: Vec<(u32, u32)>,
        exit: Vec<(u32, u32)>,
    }

    impl Toy {
        fn straight(units: u32, insts: Vec<ToyInst>) -> Toy {
            let n = insts.len();
            Toy {
                units,
                insts,
                blocks: vec![Block {
                    insts: 0..n,
                    succs: vec![],
                    exits: true,
                }],
                entry: vec![],
                exit: vec![],
            }
        }
    }

    impl FinalCode for Toy {
        fn units(&self) -> u32 {
            self.units
        }
        fn values(&self) -> u32 {
            16
        }
        fn blocks(&self) -> Vec<Block> {
            self.blocks.clone()
        }
        fn entry(&self, out: &mut Vec<(u32, u32)>) {
            out.extend(&self.entry);
        }
        fn reads(&self, ip: usize, out: &mut Vec<Read>) {
            out.extend(
                self.insts[ip]
                    .0
                    .iter()
                    .enumerate()
                    .map(|(k, &(unit, value))| Read {
                        unit,
                        value,
                        operand: k as u32,
                    }),
            );
        }
        fn writes(&self, ip: usize, out: &mut Vec<Write>) {
            out.extend(
                self.insts[ip]
                    .1
                    .iter()
                    .map(|&(unit, value, partial)| Write {
                        unit,
                        value,
                        partial,
                    }),
            );
        }
        fn exit_reads(&self, out: &mut Vec<Read>) {
            out.extend(self.exit.iter().map(|&(unit, value)| Read {
                unit,
                value,
                operand: 0,
            }));
        }
        fn describe_inst(&self, _: usize) -> String {
            "op".into()
        }
        fn describe_value(&self, v: u32) -> String {
            format!("v{v}")
        }
        fn describe_unit(&self, u: u32) -> String {
            format!("r{u}")
        }
    }

    fn lost(code: &Toy) -> LostValue {
        match check(code) {
            Err(ValueError::Lost(l)) => l,
            other => panic!("expected a lost value, got {other:?}"),
        }
    }

    /// v1 = ..; v2 = ..; .. = v1 + v2, with v2 in v1's unit: v1 is gone by its read.
    #[test]
    fn a_write_over_a_live_value_is_found_at_the_read() {
        let good = Toy::straight(
            4,
            vec![
                (vec![], vec![(0, 1, false)]),
                (vec![], vec![(1, 2, false)]),
                (vec![(0, 1), (1, 2)], vec![(2, 3, false)]),
            ],
        );
        assert_eq!(check(&good), Ok(()));
        let bad = Toy::straight(
            4,
            vec![
                (vec![], vec![(0, 1, false)]),
                (vec![], vec![(0, 2, false)]),
                (vec![(0, 1), (0, 2)], vec![(2, 3, false)]),
            ],
        );
        let l = lost(&bad);
        assert_eq!((l.ip, l.operand, l.unit, l.wanted), (Some(2), 0, 0, 1));
        assert_eq!(
            l.message,
            "ip 2 (op) operand 0 reads v1 from r0, which holds v2 (written at ip 1)"
        );
    }

    /// Two halves of one value written one after the other build it; a half written over
    /// another value after the value was complete once loses the other half.
    #[test]
    fn partial_writes_merge_into_the_value_they_continue() {
        let halves = Toy::straight(
            2,
            vec![
                (vec![], vec![(0, 5, false)]),
                (vec![(0, 5)], vec![(1, 6, false)]),
                // v1 built in two halves in unit 0, which held v5 (dead by now).
                (vec![], vec![(0, 1, true)]),
                (vec![], vec![(0, 1, true)]),
                (vec![(0, 1), (1, 6)], vec![]),
            ],
        );
        assert_eq!(check(&halves), Ok(()));
        let overlaid = Toy::straight(
            2,
            vec![
                (vec![], vec![(0, 1, false)]),
                (vec![], vec![(0, 2, false)]),
                (vec![(0, 2)], vec![(0, 1, true)]),
                (vec![(0, 1)], vec![]),
            ],
        );
        let l = lost(&overlaid);
        assert_eq!(l.ip, Some(3));
        assert_eq!(
            l.found,
            Holds::Overlaid {
                value: 1,
                writer: 2
            }
        );
    }

    /// Entry values and exit reads: a payload unit reused before its last read, and an
    /// output overwritten after its last write.
    #[test]
    fn entry_values_and_exit_reads_are_checked() {
        let mut t = Toy::straight(
            2,
            vec![(vec![(0, 9)], vec![(1, 3, false)]), (vec![], vec![])],
        );
        t.entry = vec![(0, 9)];
        t.exit = vec![(1, 3)];
        assert_eq!(check(&t), Ok(()));
        t.insts[1].1 = vec![(1, 4, false)];
        let l = lost(&t);
        assert_eq!(l.ip, None);
        assert_eq!(
            l.message,
            "the end of the program (output 0) reads v3 from r1, which holds v4 (written at ip 1)"
        );
        t.insts[1].1.clear();
        // The payload unit taken for v7 before the payload's read.
        t.insts.insert(0, (vec![], vec![(0, 7, false)]));
        t.blocks[0].insts = 0..3;
        let l = lost(&t);
        assert_eq!((l.ip, l.unit, l.wanted), (Some(1), 0, 9));
    }

    /// `v1 = ..; if { v2 = .. in v1's unit } ; .. = v1`: the join sees two values; a value
    /// written on one path only is not checked after the join.
    #[test]
    fn paths_meet_at_joins() {
        let insts = vec![
            (vec![], vec![(0, 1, false)]),
            (vec![], vec![(0, 2, false)]),
            (vec![(0, 1)], vec![]),
        ];
        let mut t = Toy::straight(2, insts);
        t.blocks = vec![
            Block {
                insts: 0..1,
                succs: vec![1, 2],
                exits: false,
            },
            Block {
                insts: 1..2,
                succs: vec![2],
                exits: false,
            },
            Block {
                insts: 2..3,
                succs: vec![],
                exits: true,
            },
        ];
        let l = lost(&t);
        assert_eq!((l.ip, l.found), (Some(2), Holds::Mixed));
        // Reading v2 instead: written on one path only, so not checked.
        t.insts[2].0 = vec![(0, 2)];
        assert_eq!(check(&t), Ok(()));
    }

    #[test]
    fn units_past_the_file_are_reported() {
        let t = Toy::straight(2, vec![(vec![], vec![(2, 1, false)])]);
        assert_eq!(
            check(&t),
            Err(ValueError::OutOfFile {
                ip: Some(0),
                unit: 2
            })
        );
    }
}
