//! Common-subexpression elimination within basic blocks.
//!
//! An instruction that computes what an earlier one in the block already computed (same
//! operation, sources, modifiers and execution controls, with none of the sources, the earlier
//! result or, for flag users, the flag rewritten in between) becomes a copy of the earlier
//! result; copy propagation then redirects its readers and dead-code elimination removes it.
//! This differs from Mesa's `opt_cse` in one respect: the IR is not SSA after coalescing, so
//! rather than moving the first result into a fresh temporary, an expression stays available
//! only while its own destination is not rewritten.
//!
//! Besides arithmetic, MOVs of immediates are expressions here: three-source instructions and
//! payload loads cannot take immediates, so every use of a constant otherwise gets its own
//! MOV. Sends are not considered (their payloads are distinct registers built by MOVs).

use std::hash::{Hash, Hasher};

use crate::util::fxhash::{FxHashMap, FxHasher};

use crate::intel::eu::{CondMod, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg, REG_SIZE};

/// Replaces recomputations by copies; returns whether any instruction changed.
///
/// Available expressions are found through a hash of their operation and sources, and are
/// invalidated lazily: each virtual register (and the flag) records the last instruction of
/// the block that wrote it, and an expression is still available when none of its operands
/// was written after it. Large straight-line shaders would otherwise pay a quadratic scan.
pub fn cse(prog: &mut Program) -> bool {
    let mut progress = false;
    let mut removed: Vec<usize> = Vec::new();
    // Available expressions of the current block, by key: the map holds bucket numbers.
    let mut avail: FxHashMap<u64, u32> = FxHashMap::default();
    let mut buckets = Buckets::default();
    // One past the index of the latest write, per virtual register and for the flag.
    let mut last_write = vec![0usize; prog.vgrf_sizes.len()];
    let mut last_flag_write = 0usize;
    for ip in 0..prog.insts.len() {
        let inst = &prog.insts[ip];
        if inst.op.is_flow() {
            avail.clear();
            buckets.clear();
            continue;
        }
        if is_expression(inst) {
            let key = key_of(inst);
            let insts = &prog.insts;
            let still_valid = |g: usize| {
                let gen = &insts[g];
                let stamp = g + 1;
                let uses_flag = gen.pred.is_some() || gen.cmod != CondMod::None;
                (!uses_flag || last_flag_write <= stamp)
                    && std::iter::once(&gen.dst)
                        .chain(gen.src.iter())
                        .filter(|r| r.file == File::Vgrf)
                        .all(|r| last_write.get(r.nr as usize).map_or(true, |&w| w <= stamp))
            };
            let slot = *avail.entry(key).or_insert_with(|| buckets.add());
            buckets.retain(slot, still_valid);
            let found = buckets.find(slot, |g| matches(&insts[g], inst));
            if let Some(g) = found {
                let gen = &prog.insts[g];
                if inst.dst.file == File::Null || inst.dst == gen.dst {
                    // The flag (and the register) already hold the result.
                    removed.push(ip);
                    progress = true;
                    continue;
                }
                let copy = copy_of(gen, inst);
                prog.insts[ip] = copy;
                progress = true;
            } else if (inst.dst.file != File::Null || inst.cmod != CondMod::None)
                && !overwrites_own_source(inst)
            {
                buckets.push(slot, ip);
            }
        }
        let inst = &prog.insts[ip];
        if matches!(inst.dst.file, File::Fixed | File::Mrf) {
            // Rare: fixed registers are checked the slow way.
            let insts = &prog.insts;
            for slot in 0..buckets.len() {
                buckets.retain(slot, |g| !invalidates(inst, &insts[g]));
            }
        }
        if inst.dst.file == File::Vgrf {
            if let Some(w) = last_write.get_mut(inst.dst.nr as usize) {
                *w = ip + 1;
            }
        }
        if inst.cmod != CondMod::None {
            last_flag_write = ip + 1;
        }
    }
    if !removed.is_empty() {
        let mut remove = vec![false; prog.insts.len()];
        for ip in removed {
            remove[ip] = true;
        }
        let mut ip = 0;
        prog.insts.retain(|_| {
            ip += 1;
            !remove[ip - 1]
        });
    }
    progress
}

/// No entry.
const NONE: u32 = u32::MAX;

/// The candidate lists of one block's available expressions, oldest first: singly linked
/// lists threaded through shared arrays, so that neither a new key nor a block boundary
/// allocates (a vector per key did, for every key of every block in every round).
#[derive(Default)]
struct Buckets {
    /// Per bucket, its first and last entry.
    ends: Vec<(u32, u32)>,
    /// Per entry, the instruction, and the next entry of its bucket.
    ip: Vec<u32>,
    next: Vec<u32>,
}

impl Buckets {
    fn len(&self) -> u32 {
        self.ends.len() as u32
    }

    fn clear(&mut self) {
        self.ends.clear();
        self.ip.clear();
        self.next.clear();
    }

    /// A new, empty bucket.
    fn add(&mut self) -> u32 {
        self.ends.push((NONE, NONE));
        self.ends.len() as u32 - 1
    }

    fn push(&mut self, b: u32, ip: usize) {
        let k = self.ip.len() as u32;
        self.ip.push(ip as u32);
        self.next.push(NONE);
        let (head, tail) = &mut self.ends[b as usize];
        if *tail == NONE {
            *head = k;
        } else {
            self.next[*tail as usize] = k;
        }
        *tail = k;
    }

    /// Drops the entries of bucket `b` whose instruction `keep` rejects, keeping the order.
    fn retain(&mut self, b: u32, mut keep: impl FnMut(usize) -> bool) {
        let (mut head, mut tail) = self.ends[b as usize];
        let mut prev = NONE;
        let mut k = head;
        while k != NONE {
            let next = self.next[k as usize];
            if keep(self.ip[k as usize] as usize) {
                prev = k;
            } else {
                if prev == NONE {
                    head = next;
                } else {
                    self.next[prev as usize] = next;
                }
                if tail == k {
                    tail = prev;
                }
            }
            k = next;
        }
        self.ends[b as usize] = (head, tail);
    }

    /// The oldest instruction of bucket `b` that `f` accepts.
    fn find(&self, b: u32, mut f: impl FnMut(usize) -> bool) -> Option<usize> {
        let mut k = self.ends[b as usize].0;
        while k != NONE {
            let ip = self.ip[k as usize] as usize;
            if f(ip) {
                return Some(ip);
            }
            k = self.next[k as usize];
        }
        None
    }
}

/// A hash of what [`matches`] compares, with the sources combined in an order-independent
/// way (sum and exclusive or of their hashes) so that commuted operations meet in one bucket.
/// Buckets are only candidates: [`matches`] decides, so the hash affects speed, not results.
fn key_of(inst: &Inst) -> u64 {
    // Sum and xor of the source hashes: both independent of the sources' order.
    let (mut sum, mut xor) = (0u64, 0u64);
    for s in &inst.src {
        let mut h = FxHasher::default();
        s.hash(&mut h);
        let v = h.finish();
        sum = sum.wrapping_add(v);
        xor ^= v;
    }
    let mut h = FxHasher::default();
    (inst.op, inst.exec_size, inst.group, inst.we_all).hash(&mut h);
    (inst.pred, inst.cmod, inst.sat, inst.src.len(), sum, xor).hash(&mut h);
    h.finish()
}

/// Pure operations whose result depends only on their sources and execution controls.
fn is_expression(inst: &Inst) -> bool {
    let pure_op = match inst.op {
        Op::Alu(op) => match op {
            Opcode::Mov => inst.src.len() == 1 && inst.src[0].file == File::Imm,
            Opcode::Sel
            | Opcode::Not
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Shr
            | Opcode::Shl
            | Opcode::Asr
            | Opcode::Cmp
            | Opcode::Cmpn
            | Opcode::Csel
            | Opcode::F32to16
            | Opcode::F16to32
            | Opcode::Bfrev
            | Opcode::Bfe
            | Opcode::Bfi1
            | Opcode::Bfi2
            | Opcode::Add
            | Opcode::Mul
            | Opcode::Avg
            | Opcode::Frc
            | Opcode::Rndu
            | Opcode::Rndd
            | Opcode::Rnde
            | Opcode::Rndz
            | Opcode::Lzd
            | Opcode::Fbh
            | Opcode::Fbl
            | Opcode::Cbit
            | Opcode::Dp4
            | Opcode::Dph
            | Opcode::Dp3
            | Opcode::Dp2
            | Opcode::Line
            | Opcode::Pln
            | Opcode::Mad
            | Opcode::Lrp => true,
            _ => false,
        },
        Op::Math(_) | Op::DdyFine | Op::MulHigh => true,
        _ => false,
    };
    // A predicated write other than SEL leaves the disabled channels as they were, which a
    // copy of the earlier result would not.
    let full = inst.pred.is_none() || inst.op == Op::Alu(Opcode::Sel);
    let dst_ok = match inst.dst.file {
        File::Null => true,
        File::Vgrf => {
            inst.dst.stride == 1
                && inst.dst.region.is_none()
                && !inst.dst.neg
                && !inst.dst.abs
                && raw_type(inst.dst.ty).is_some()
        }
        _ => false,
    };
    pure_op && full && dst_ok && !inst.compr4
}

/// The integer type a copy of `ty` moves bits with.
fn raw_type(ty: RegType) -> Option<RegType> {
    match ty.size() {
        4 => Some(RegType::UD),
        2 => Some(RegType::UW),
        _ => None,
    }
}

fn commutes(op: Op) -> bool {
    matches!(
        op,
        Op::Alu(Opcode::Add | Opcode::Mul | Opcode::And | Opcode::Or | Opcode::Xor)
    )
}

fn sources_match(a: &Inst, b: &Inst) -> bool {
    if a.src == b.src {
        return true;
    }
    if a.src.len() == 2 && commutes(a.op) {
        return a.src[0] == b.src[1] && a.src[1] == b.src[0];
    }
    // MAD multiplies its last two sources.
    if a.src.len() == 3 && a.op == Op::Alu(Opcode::Mad) {
        return a.src[0] == b.src[0] && a.src[1] == b.src[2] && a.src[2] == b.src[1];
    }
    false
}

/// Whether `inst` recomputes what `gen` computed.
fn matches(gen: &Inst, inst: &Inst) -> bool {
    // A flag-only comparison cannot stand in for a result.
    if gen.dst.file == File::Null && inst.dst.file != File::Null {
        return false;
    }
    let uses_flag = gen.pred.is_some() || gen.cmod != CondMod::None;
    gen.op == inst.op
        && gen.exec_size == inst.exec_size
        && gen.group == inst.group
        && gen.we_all == inst.we_all
        && gen.pred == inst.pred
        && gen.cmod == inst.cmod
        && (!uses_flag || gen.flag_subnr == inst.flag_subnr)
        && gen.sat == inst.sat
        && (inst.dst.file == File::Null
            || (gen.dst.ty == inst.dst.ty && gen.regs_written() == inst.regs_written()))
        && gen.src.len() == inst.src.len()
        && sources_match(gen, inst)
}

/// `mov inst.dst, gen.dst` with `inst`'s execution controls, moving raw bits.
fn copy_of(gen: &Inst, inst: &Inst) -> Inst {
    let ty = raw_type(inst.dst.ty).unwrap_or(inst.dst.ty);
    let mut mov = Inst::new(
        Op::Alu(Opcode::Mov),
        inst.exec_size,
        inst.dst.retype(ty),
        vec![gen.dst.retype(ty)],
    );
    mov.group = inst.group;
    mov.we_all = inst.we_all;
    mov
}

/// Whether a register region read or written by an instruction may share registers with what
/// `w` (writing `regs` registers) writes.
fn overlaps(r: &Reg, w: &Reg, regs: u32) -> bool {
    if r.file != w.file {
        return false;
    }
    match r.file {
        File::Vgrf => r.nr == w.nr,
        // Fixed registers: absolute register ranges, with slack for multi-register reads.
        File::Fixed | File::Mrf => {
            let rs = r.nr + r.offset / REG_SIZE;
            let ws = w.nr + w.offset / REG_SIZE;
            rs + 2 >= ws && rs < ws + regs + 2
        }
        _ => false,
    }
}

/// Whether executing `inst` makes the expression computed by `gen` unavailable.
fn invalidates(inst: &Inst, gen: &Inst) -> bool {
    if inst.cmod != CondMod::None && (gen.pred.is_some() || gen.cmod != CondMod::None) {
        return true;
    }
    clobbers(inst, gen)
}

fn overwrites_own_source(inst: &Inst) -> bool {
    let regs = inst.regs_written().max(1);
    inst.dst.file != File::Null && inst.src.iter().any(|s| overlaps(s, &inst.dst, regs))
}

/// Whether `inst` writes a register that `gen` reads or wrote.
fn clobbers(inst: &Inst, gen: &Inst) -> bool {
    let w = inst.dst;
    if matches!(w.file, File::Bad | File::Null) {
        return false;
    }
    let regs = inst.regs_written().max(1);
    overlaps(&gen.dst, &w, regs) || gen.src.iter().any(|s| overlaps(s, &w, regs))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, alu, copy, f};
    use super::*;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(cse, insts)
    }

    fn unchanged(insts: Vec<Inst>) {
        testing::unchanged(cse, insts)
    }

    #[test]
    fn repeated_add_becomes_a_copy() {
        // add v2, v0, v1; add v3, v0, v1  =>  add v2, v0, v1; mov v3, v2
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let (p, out) = run(vec![add.clone(), alu(Opcode::Add, f(3), vec![f(0), f(1)])]);
        assert!(p);
        assert_eq!(out, vec![add, copy(3, 2)]);
    }

    #[test]
    fn commuted_sources_match() {
        let mul = alu(Opcode::Mul, f(2), vec![f(0), f(1)]);
        let (_, out) = run(vec![mul.clone(), alu(Opcode::Mul, f(3), vec![f(1), f(0)])]);
        assert_eq!(out, vec![mul, copy(3, 2)]);
        let mad = alu(Opcode::Mad, f(2), vec![f(0), f(1), f(4)]);
        let (_, out) = run(vec![
            mad.clone(),
            alu(Opcode::Mad, f(3), vec![f(0), f(4), f(1)]),
        ]);
        assert_eq!(out, vec![mad.clone(), copy(3, 2)]);
        // MAD's addend does not commute with the factors.
        unchanged(vec![mad, alu(Opcode::Mad, f(3), vec![f(1), f(0), f(4)])]);
    }

    #[test]
    fn immediate_moves_are_shared() {
        let one = alu(Opcode::Mov, f(2), vec![Reg::imm_f(1.0)]);
        let (p, out) = run(vec![
            one.clone(),
            alu(Opcode::Mov, f(3), vec![Reg::imm_f(1.0)]),
        ]);
        assert!(p);
        assert_eq!(out, vec![one, copy(3, 2)]);
        // Register copies are copy propagation's business.
        unchanged(vec![
            alu(Opcode::Mov, f(2), vec![f(0)]),
            alu(Opcode::Mov, f(3), vec![f(0)]),
        ]);
    }

    #[test]
    fn intervening_write_of_a_source_or_of_the_result_blocks_it() {
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        unchanged(vec![
            add.clone(),
            alu(Opcode::Mov, f(0), vec![f(5)]),
            alu(Opcode::Add, f(3), vec![f(0), f(1)]),
        ]);
        unchanged(vec![
            add,
            alu(Opcode::Mov, f(2), vec![f(5)]),
            alu(Opcode::Add, f(3), vec![f(0), f(1)]),
        ]);
        // An instruction overwriting its own source is no longer available.
        unchanged(vec![
            alu(Opcode::Add, f(0), vec![f(0), f(1)]),
            alu(Opcode::Add, f(3), vec![f(0), f(1)]),
        ]);
    }

    #[test]
    fn different_exec_controls_or_modifiers_do_not_match() {
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let mut wide = alu(Opcode::Add, f(3), vec![f(0), f(1)]);
        wide.exec_size = 16;
        unchanged(vec![add.clone(), wide]);
        let mut hi = alu(Opcode::Add, f(3), vec![f(0), f(1)]);
        hi.group = 8;
        unchanged(vec![add.clone(), hi]);
        let mut all = alu(Opcode::Add, f(3), vec![f(0), f(1)]);
        all.we_all = true;
        unchanged(vec![add.clone(), all]);
        let mut sat = alu(Opcode::Add, f(3), vec![f(0), f(1)]);
        sat.sat = true;
        unchanged(vec![add.clone(), sat]);
        unchanged(vec![add, alu(Opcode::Add, f(3), vec![f(0), f(1).negate()])]);
    }

    #[test]
    fn predicated_writes_are_not_expressions_but_sel_is() {
        let mut a = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        a.pred = Some(false);
        let mut b = a.clone();
        b.dst = f(3);
        unchanged(vec![a, b]);
        let mut s = alu(Opcode::Sel, f(2), vec![f(0), f(1)]);
        s.pred = Some(false);
        let mut t = s.clone();
        t.dst = f(3);
        let (p, out) = run(vec![s.clone(), t]);
        assert!(p);
        assert_eq!(out, vec![s, copy(3, 2)]);
    }

    #[test]
    fn flag_write_kills_flag_readers_and_writers() {
        let mut s = alu(Opcode::Sel, f(2), vec![f(0), f(1)]);
        s.pred = Some(false);
        let mut t = s.clone();
        t.dst = f(3);
        let mut cmp = alu(Opcode::Cmp, Reg::null(RegType::F), vec![f(4), f(5)]);
        cmp.cmod = CondMod::L;
        unchanged(vec![s, cmp.clone(), t]);
        let mut other = cmp.clone();
        other.src[0] = f(6);
        unchanged(vec![cmp.clone(), other, cmp]);
    }

    #[test]
    fn repeated_flag_only_compare_goes() {
        let mut cmp = alu(Opcode::Cmp, Reg::null(RegType::F), vec![f(4), f(5)]);
        cmp.cmod = CondMod::L;
        let add = alu(Opcode::Add, f(2), vec![f(0), f(1)]);
        let (p, out) = run(vec![cmp.clone(), add.clone(), cmp.clone()]);
        assert!(p);
        assert_eq!(out, vec![cmp, add]);
    }

    #[test]
    fn flag_only_compare_does_not_provide_a_value() {
        let mut a = alu(Opcode::Cmp, Reg::null(RegType::F), vec![f(4), f(5)]);
        a.cmod = CondMod::L;
        let mut b = a.clone();
        b.dst = f(3);
        unchanged(vec![a, b]);
    }

    #[test]
    fn control_flow_ends_the_block() {
        unchanged(vec![
            alu(Opcode::Add, f(2), vec![f(0), f(1)]),
            Inst::new(Op::Else, 8, Reg::BAD, vec![]),
            alu(Opcode::Add, f(3), vec![f(0), f(1)]),
        ]);
    }
}
