//! Register sets: registers, the units they cover, classes, conflicts and q-values.
//!
//! A register set describes one target's register file once; every graph of every shader the
//! compiler object compiles shares it through an `Arc`. Building it is the expensive part
//! (q-values look at every pair of classes), so it is never rebuilt per shader.
//!
//! The model has two ingredients, which together express both of Mesa's styles of set:
//!
//! - *Units* `0..n` are the registers the builder starts with. A *run* register covers a
//!   contiguous range of units (an Intel VGRF of k GRFs); a unit covers itself. Registers that
//!   cover a common unit conflict without being told, which is what makes big Intel registers
//!   collide with every GRF they overlap.
//! - Explicit conflicts name two registers that must not be live in the same place, for files
//!   whose overlap is not contiguous (etnaviv's virtual vec4 sub-registers, whose write masks
//!   may overlap in any pattern).
//!
//! The rule combining them: the *parts* of a register are itself and the units it covers; two
//! registers conflict when a part of one is a part of the other or was named together with it
//! in [`RegSetBuilder::add_conflict`]. The relation is symmetric and reflexive by construction.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use super::bits::{count_and, words_for, WORD_BITS};
use crate::util::bitset::{union_words, BitMatrix};

/// A register of a [`RegSet`]: a unit, or a run of units.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct RegId(pub u32);

impl RegId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for RegId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.0)
    }
}

/// A register class of a [`RegSet`], numbered in the order the classes were added.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ClassId(pub u32);

impl ClassId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ClassId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "class {}", self.0)
    }
}

/// Why a register set could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegSetError {
    /// A run must have at least one unit and end inside the unit range.
    RunOutOfRange {
        start: usize,
        len: usize,
        units: usize,
    },
    /// `add_contiguous_class` needs a run length and an alignment of at least one.
    BadContiguousClass {
        class: ClassId,
        len: usize,
        align: usize,
    },
    /// A class or a conflict names a register the set does not have.
    UnknownRegister { reg: RegId, used_by: String },
    /// A class without registers could never be allocated and has no meaningful q-values.
    EmptyClass(ClassId),
    /// A precomputed q table must be square with one row and column per class.
    QTableShape {
        classes: usize,
        row: Option<usize>,
        len: usize,
    },
}

impl fmt::Display for RegSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegSetError::RunOutOfRange { start, len, units } => {
                write!(
                    f,
                    "register run of {len} units at unit {start} does not fit in {units} units"
                )
            }
            RegSetError::BadContiguousClass { class, len, align } => {
                write!(
                    f,
                    "{class}: contiguous class with run length {len} and alignment {align}"
                )
            }
            RegSetError::UnknownRegister { reg, used_by } => {
                write!(
                    f,
                    "{used_by} names {reg}, which the register set does not have"
                )
            }
            RegSetError::EmptyClass(c) => write!(f, "{c} has no registers"),
            RegSetError::QTableShape {
                classes,
                row: None,
                len,
            } => {
                write!(f, "q table has {len} rows, the set has {classes} classes")
            }
            RegSetError::QTableShape {
                classes,
                row: Some(r),
                len,
            } => {
                write!(
                    f,
                    "q table row {r} has {len} entries, the set has {classes} classes"
                )
            }
        }
    }
}

impl std::error::Error for RegSetError {}

/// Collects registers, classes and conflicts; [`finalize`](Self::finalize) freezes them.
#[derive(Clone, Debug)]
pub struct RegSetBuilder {
    units: usize,
    /// Per register: the units it covers.
    runs: Vec<Range<u32>>,
    run_ids: HashMap<(u32, u32), RegId>,
    conflicts: Vec<(RegId, RegId)>,
    classes: Vec<Vec<RegId>>,
    error: Option<RegSetError>,
}

impl RegSetBuilder {
    /// A set whose first `n_regs` registers are units `0..n_regs`.
    pub fn new(n_regs: usize) -> RegSetBuilder {
        RegSetBuilder {
            units: n_regs,
            runs: (0..n_regs as u32).map(|u| u..u + 1).collect(),
            run_ids: HashMap::new(),
            conflicts: Vec::new(),
            classes: Vec::new(),
            error: None,
        }
    }

    pub fn num_regs(&self) -> usize {
        self.runs.len()
    }

    /// The register covering units `start..start + len`, created on first request. A run of
    /// one unit is that unit, so classes of different run lengths and alignments share
    /// registers wherever their runs coincide.
    pub fn add_run(&mut self, start: usize, len: usize) -> Result<RegId, RegSetError> {
        if len == 0 || !matches!(start.checked_add(len), Some(end) if end <= self.units) {
            return Err(RegSetError::RunOutOfRange {
                start,
                len,
                units: self.units,
            });
        }
        if len == 1 {
            return Ok(RegId(start as u32));
        }
        let key = (start as u32, len as u32);
        if let Some(&r) = self.run_ids.get(&key) {
            return Ok(r);
        }
        let r = RegId(self.runs.len() as u32);
        self.runs.push(key.0..key.0 + key.1);
        self.run_ids.insert(key, r);
        Ok(r)
    }

    /// A class of arbitrary registers (duplicates are ignored).
    pub fn add_class(&mut self, regs: impl IntoIterator<Item = RegId>) -> ClassId {
        self.classes.push(regs.into_iter().collect());
        ClassId(self.classes.len() as u32 - 1)
    }

    /// The class of every run of `len` units starting at a multiple of `align`.
    pub fn add_contiguous_class(&mut self, len: usize, align: usize) -> ClassId {
        let class = ClassId(self.classes.len() as u32);
        let mut regs = Vec::new();
        if len == 0 || align == 0 {
            self.error
                .get_or_insert(RegSetError::BadContiguousClass { class, len, align });
        } else {
            let mut start = 0;
            while start + len <= self.units {
                regs.push(self.add_run(start, len).expect("run checked to fit"));
                start += align;
            }
        }
        self.add_class(regs)
    }

    /// Declares that `a` and `b` conflict (and so does everything sharing a part with them).
    pub fn add_conflict(&mut self, a: RegId, b: RegId) {
        if a != b {
            self.conflicts.push((a, b));
        }
    }

    /// Computes the q-values from the conflicts and freezes the set.
    pub fn finalize(self) -> Result<Arc<RegSet>, RegSetError> {
        let mut set = self.freeze()?;
        set.q = compute_q(&set);
        Ok(Arc::new(set))
    }

    /// Freezes the set with a precomputed q table, indexed `q[b][c]` like [`RegSet::q`].
    ///
    /// The table is trusted: an understated entry lets simplify call a node trivially
    /// colourable when it is not, which costs optimistic failures but never a wrong result,
    /// because select still checks every conflict.
    pub fn finalize_with_q(self, table: &[impl AsRef<[u32]>]) -> Result<Arc<RegSet>, RegSetError> {
        let classes = self.classes.len();
        if table.len() != classes {
            return Err(RegSetError::QTableShape {
                classes,
                row: None,
                len: table.len(),
            });
        }
        let mut q = Vec::with_capacity(classes * classes);
        for (i, row) in table.iter().enumerate() {
            let row = row.as_ref();
            if row.len() != classes {
                return Err(RegSetError::QTableShape {
                    classes,
                    row: Some(i),
                    len: row.len(),
                });
            }
            q.extend_from_slice(row);
        }
        let mut set = self.freeze()?;
        set.q = q;
        Ok(Arc::new(set))
    }

    /// Validates the builder and computes everything but the q-values.
    fn freeze(self) -> Result<RegSet, RegSetError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let n = self.runs.len();
        let unknown = |reg: RegId, used_by: String| RegSetError::UnknownRegister { reg, used_by };
        for &(a, b) in &self.conflicts {
            for r in [a, b] {
                if r.index() >= n {
                    return Err(unknown(r, format!("conflict {a}–{b}")));
                }
            }
        }

        // Which registers cover each unit; most units of a file without runs cover only
        // themselves, and for those a single bit replaces a row union below.
        let mut cover = BitMatrix::new(self.units, n);
        let mut in_run = vec![false; self.units];
        for (r, run) in self.runs.iter().enumerate() {
            for u in run.clone() {
                cover.insert(u as usize, r);
                in_run[u as usize] |= r >= self.units;
            }
        }

        // Explicit conflicts as adjacency lists (CSR).
        let mut start = vec![0u32; n + 1];
        for &(a, b) in &self.conflicts {
            start[a.index() + 1] += 1;
            start[b.index() + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut explicit = vec![0u32; start[n] as usize];
        for &(a, b) in &self.conflicts {
            for (x, y) in [(a, b), (b, a)] {
                explicit[fill[x.index()] as usize] = y.0;
                fill[x.index()] += 1;
            }
        }

        // conflicts(a) = every register sharing a part with reach(a), where reach(a) is the
        // parts of a and everything explicitly named with one of them.
        let units = self.units;
        let mut rows = BitMatrix::new(n, n);
        for a in 0..n {
            let run = &self.runs[a];
            let own = (a >= units).then_some(a as u32);
            let parts = own.into_iter().chain(run.clone());
            for p in parts {
                let named = &explicit[start[p as usize] as usize..start[p as usize + 1] as usize];
                for &x in std::iter::once(&p).chain(named) {
                    if (x as usize) < units && in_run[x as usize] {
                        union_words(rows.row_mut(a), cover.row(x as usize));
                    } else {
                        rows.insert(a, x as usize);
                    }
                }
            }
        }

        let mut classes = Vec::with_capacity(self.classes.len());
        for (ci, mut regs) in self.classes.into_iter().enumerate() {
            let id = ClassId(ci as u32);
            if let Some(&r) = regs.iter().find(|r| r.index() >= n) {
                return Err(unknown(r, id.to_string()));
            }
            regs.sort_unstable();
            regs.dedup();
            let (Some(first), Some(last)) = (regs.first(), regs.last()) else {
                return Err(RegSetError::EmptyClass(id));
            };
            let words = first.index() / WORD_BITS..last.index() / WORD_BITS + 1;
            classes.push(Class { regs, words });
        }
        let mut members = BitMatrix::new(classes.len(), n);
        for (ci, c) in classes.iter().enumerate() {
            for r in &c.regs {
                members.insert(ci, r.index());
            }
        }

        Ok(RegSet {
            units,
            runs: self.runs,
            conflicts: rows,
            classes,
            members,
            q: Vec::new(),
        })
    }
}

/// One class: its registers in increasing order and the words of a register row they occupy.
#[derive(Clone, Debug)]
pub(crate) struct Class {
    pub(crate) regs: Vec<RegId>,
    pub(crate) words: Range<usize>,
}

/// A finalized, immutable register set; share it with `Arc` across threads and shaders.
#[derive(Clone)]
pub struct RegSet {
    units: usize,
    runs: Vec<Range<u32>>,
    /// Row `r`: every register conflicting with `r` (including `r`). R² bits (465 KB for the
    /// 1928-register Intel file) buy select a word-wise mask per coloured neighbour, restricted
    /// to the words the node's class occupies.
    conflicts: BitMatrix,
    classes: Vec<Class>,
    /// Row `c`: the registers of class `c`.
    members: BitMatrix,
    /// `q[b * classes + c]`.
    q: Vec<u32>,
}

impl RegSet {
    pub fn num_regs(&self) -> usize {
        self.runs.len()
    }

    pub fn num_units(&self) -> usize {
        self.units
    }

    pub fn num_classes(&self) -> usize {
        self.classes.len()
    }

    /// The units register `r` covers (a unit covers itself).
    pub fn units_of(&self, r: RegId) -> Range<usize> {
        let run = &self.runs[r.index()];
        run.start as usize..run.end as usize
    }

    /// The registers of class `c`, in increasing order.
    pub fn class_regs(&self, c: ClassId) -> &[RegId] {
        &self.classes[c.index()].regs
    }

    /// The number of registers of class `c` (Mesa's p).
    pub fn class_size(&self, c: ClassId) -> u32 {
        self.classes[c.index()].regs.len() as u32
    }

    pub fn class_contains(&self, c: ClassId, r: RegId) -> bool {
        r.index() < self.num_regs() && self.members.contains(c.index(), r.index())
    }

    /// Whether `a` and `b` may not be assigned to two interfering nodes.
    pub fn conflicts(&self, a: RegId, b: RegId) -> bool {
        self.conflicts.contains(a.index(), b.index())
    }

    /// Every register conflicting with `r`, including `r`.
    pub fn conflicts_of(&self, r: RegId) -> impl Iterator<Item = RegId> + '_ {
        let row = self.conflicts.row(r.index());
        (0..self.num_regs())
            .filter(move |&i| row[i / WORD_BITS] >> (i % WORD_BITS) & 1 == 1)
            .map(|i| RegId(i as u32))
    }

    /// The q-value q\[b\]\[c\]: the most class-`b` registers one class-`c` register conflicts
    /// with (Runeson–Nyström, in Mesa's orientation), counting the register itself when it is
    /// in both classes. The orientation matters when classes differ in shape: etnaviv's first
    /// virtual-register patch hard-coded the transpose without self-conflicts, which says a
    /// VEC4 neighbour blocks 1 scalar where it blocks all 4 (see tests/ra_qvalues.rs).
    pub fn q(&self, b: ClassId, c: ClassId) -> u32 {
        self.q[b.index() * self.classes.len() + c.index()]
    }

    /// The q-values of class `b` against every class: `q_row(b)[c] == q(b, c)`.
    pub(crate) fn q_row(&self, b: ClassId) -> &[u32] {
        let n = self.classes.len();
        &self.q[b.index() * n..(b.index() + 1) * n]
    }

    /// The whole q table, `table[b][c] == q(b, c)`.
    pub fn q_table(&self) -> Vec<Vec<u32>> {
        self.q
            .chunks(self.classes.len())
            .map(<[u32]>::to_vec)
            .collect()
    }

    pub(crate) fn class(&self, c: ClassId) -> &Class {
        &self.classes[c.index()]
    }

    pub(crate) fn member_row(&self, c: ClassId) -> &[u64] {
        self.members.row(c.index())
    }

    pub(crate) fn conflict_row(&self, r: RegId) -> &[u64] {
        self.conflicts.row(r.index())
    }

    pub(crate) fn row_words(&self) -> usize {
        words_for(self.num_regs())
    }
}

impl fmt::Debug for RegSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegSet")
            .field("units", &self.units)
            .field("regs", &self.num_regs())
            .field("classes", &self.classes.len())
            .field("q", &self.q_table())
            .finish()
    }
}

/// q\[b\]\[c\] = max over registers rc of c of |conflicts(rc) ∩ b|.
///
/// Each count is a popcount of two bit rows restricted to the words class `b` occupies, so the
/// cost is Σ_c |c| · Σ_b words(b) rather than Mesa's general Σ_c |c| · classes · conflicts(rc):
/// for the Intel Gen7 set of 1928 registers that is about 10^5 word operations.
fn compute_q(set: &RegSet) -> Vec<u32> {
    let nc = set.classes.len();
    let mut q = vec![0u32; nc * nc];
    for (c, class_c) in set.classes.iter().enumerate() {
        for &rc in &class_c.regs {
            let row = set.conflicts.row(rc.index());
            for (b, class_b) in set.classes.iter().enumerate() {
                let slot = &mut q[b * nc + c];
                if *slot as usize == class_b.regs.len() {
                    continue;
                }
                let n = count_and(row, set.members.row(b), class_b.words.clone());
                *slot = (*slot).max(n);
            }
        }
    }
    q
}
