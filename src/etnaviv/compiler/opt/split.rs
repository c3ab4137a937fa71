//! Instructions that read vectors assembled by MOVs, split so that each part reads the
//! MOVs' sources directly.
//!
//! `fcsel(c, vec4(a.zyx, 0.0), vec4(a.xzy, 1.0))` is four MOVs building the two vectors and
//! a SELECT. Read channel by channel, the SELECT takes `a` in x, y and z from both vectors
//! and constants in w: two SELECTs (one over xyz reading `a` swizzled, one over w reading
//! the two constants, which share one uniform slot) compute the same without the MOVs.
//!
//! An instruction's channels are grouped by what each of its operands reads there once the
//! builds are looked through (the same value, or constants); each group becomes one copy of
//! the instruction writing those channels. That is done when it saves instructions: the
//! MOVs of the builds read only by this instruction go, and each group past the first
//! costs one. A build here is an ordinary value written only by plain MOVs, each component
//! once, in the same stretch as the instruction and before it, with nothing in between
//! writing what the MOVs read.

// Slot and channel indices address several parallel tables at once.
#![allow(clippy::needless_range_loop)]

use super::{remove_items, Facts};
use crate::etnaviv::compiler::ir::{
    Instr, Item, Operand, OperandKind, Program, Shape, ValueId, ValueKind,
};
use crate::etnaviv::isa::carries_float_modifiers;
use crate::etnaviv::isa::{DataType, Opcode};

/// Splits every instruction it profitably can; returns whether it split any.
pub fn split_built_reads(p: &mut Program) -> bool {
    let mut progress = false;
    while split_one(p) {
        progress = true;
    }
    progress
}

/// What channel `c` of an operand reads once builds are looked through: the operand a MOV
/// read (with the component in `swz[c]`), or the operand itself.
type Looked = [Option<Operand>; 4];

/// For a value read only by item `at`, written only by plain MOVs (each component once) in
/// `at`'s stretch before it, with their sources unchanged until `at`: per component, the
/// MOV's source operand giving it (in that component's channel), and the MOVs.
fn build_parts(
    p: &Program,
    f: &Facts,
    v: ValueId,
    at: usize,
) -> Option<([Operand; 4], Vec<usize>)> {
    let val = p.values[v.index()];
    if val.kind != ValueKind::Temp || f.reads[v.index()].iter().any(|&r| r != at) {
        return None;
    }
    let mut parts: [Option<Operand>; 4] = [None; 4];
    for &d in &f.defs[v.index()] {
        if d > at || f.stretch[d] != f.stretch[at] {
            return None;
        }
        let Item::Instr(i) = &p.items[d] else {
            return None;
        };
        let (Opcode::Mov, false, DataType::F32, Shape::Aligned, Some((_, m)), Some(op), 0) =
            (i.op, i.sat, i.ty, i.shape, i.dst, i.src[2], i.addr_mask)
        else {
            return None;
        };
        match op.kind {
            OperandKind::Value(s) if !f.written_between(s, d, at) && s != v => {}
            OperandKind::Const(_) | OperandKind::Uniform(_) => {}
            _ => return None,
        }
        for c in (0..4).filter(|c| m & (1 << c) != 0) {
            if parts[c].is_some() {
                return None;
            }
            parts[c] = Some(channel(op, c));
        }
    }
    let full = (1usize << val.width) - 1;
    if (0..val.width as usize).any(|c| parts[c].is_none()) || full == 0 {
        return None;
    }
    let last = parts[val.width as usize - 1];
    Some((
        parts.map(|x| x.or(last).expect("covered")),
        f.defs[v.index()].clone(),
    ))
}

/// What channel `c` of `op` reads, in every channel.
fn channel(op: Operand, c: usize) -> Operand {
    let mut one = op;
    one.swz = [op.swz[c]; 4];
    if let OperandKind::Const(vals) = op.kind {
        one.kind = OperandKind::Const([vals[c]; 4]);
    }
    one
}

/// Kind, index, negate, absolute value.
type Key = (u8, u32, bool, bool);

/// What identifies an operand's source for grouping channels: the same value, slot or
/// constants, with the same modifiers.
fn key(op: &Operand) -> Key {
    let (k, id) = match op.kind {
        OperandKind::Value(v) => (0, v.0),
        OperandKind::Fixed(r) => (1, u32::from(r)),
        OperandKind::Internal(r) => (2, u32::from(r)),
        OperandKind::Uniform(u) => (3, u),
        OperandKind::UniformRel(u) => (4, u),
        OperandKind::Imm(i) => (5, i.bits),
        OperandKind::Const(_) => (6, 0),
    };
    (k, id, op.neg, op.abs)
}

/// The uniform registers a set of operands reads (constants count as one, as they share a
/// slot).
fn uniform_reads(ops: &[Operand]) -> usize {
    let mut seen: Vec<(u8, u32)> = Vec::new();
    for op in ops {
        let k = match op.kind {
            OperandKind::Uniform(u) | OperandKind::UniformRel(u) => (3, u),
            OperandKind::Const(_) => (6, 0),
            _ => continue,
        };
        if !seen.contains(&k) {
            seen.push(k);
        }
    }
    seen.len()
}

/// One rewrite: the instruction at `at` replaced by `parts`, and the MOVs `dead` removed.
struct Split {
    at: usize,
    parts: Vec<Instr>,
    dead: Vec<usize>,
}

fn find(p: &Program) -> Option<Split> {
    let f = Facts::of(p);
    for (at, item) in p.items.iter().enumerate() {
        let Item::Instr(ins) = item else { continue };
        let Some((dv, dmask)) = ins.dst else { continue };
        if ins.shape != Shape::Aligned || ins.target.is_some() || ins.addr_mask != 0 {
            continue;
        }
        // Per slot, what each channel reads.
        let mut looked: [Looked; 3] = [[None; 4]; 3];
        let mut dead: Vec<usize> = Vec::new();
        let mut any = false;
        let mut ok = true;
        for slot in 0..3 {
            let Some(op) = ins.src[slot] else { continue };
            let built = match op.kind {
                OperandKind::Value(v) => build_parts(p, &f, v, at),
                _ => None,
            };
            for c in 0..4 {
                looked[slot][c] = Some(channel(op, c));
            }
            let Some((parts, movs)) = built else { continue };
            for c in (0..4).filter(|c| dmask & (1 << c) != 0) {
                let mut part = parts[op.swz[c] as usize & 3];
                // (`part` reads one component in every channel.)
                // The modifiers of the MOV's source and of this operand, composed where one
                // side has none.
                match (part.neg || part.abs, op.neg || op.abs) {
                    (_, false) => {}
                    (false, true) => {
                        part.neg = op.neg;
                        part.abs = op.abs;
                    }
                    (true, true) => ok = false,
                }
                if (part.neg || part.abs) && !carries_float_modifiers(ins.op, ins.ty) {
                    ok = false;
                }
                looked[slot][c] = Some(part);
            }
            for m in movs {
                if !dead.contains(&m) {
                    dead.push(m);
                }
            }
            any = true;
        }
        if !any || !ok {
            continue;
        }
        // Group the written channels by what their operands read.
        let mut groups: Vec<(Vec<Key>, u8)> = Vec::new();
        for c in (0..4).filter(|c| dmask & (1 << c) != 0) {
            let k: Vec<_> = (0..3)
                .filter_map(|s| looked[s][c].as_ref().map(key))
                .collect();
            match groups.iter_mut().find(|g| g.0 == k) {
                Some(g) => g.1 |= 1 << c,
                None => groups.push((k, 1 << c)),
            }
        }
        if groups.len() > dead.len() {
            continue;
        }
        let before = uniform_reads(&ins.src.iter().flatten().copied().collect::<Vec<_>>());
        let mut parts = Vec::new();
        for (_, mask) in &groups {
            let first = mask.trailing_zeros() as usize;
            let mut part = ins.clone();
            part.dst = Some((dv, *mask));
            for slot in 0..3 {
                if ins.src[slot].is_none() {
                    continue;
                }
                let mut op = looked[slot][first].expect("read");
                for c in 0..4 {
                    let from = if mask & (1 << c) != 0 { c } else { first };
                    let l = looked[slot][from].expect("read");
                    op.swz[c] = l.swz[0];
                    if let (OperandKind::Const(nv), OperandKind::Const(lv)) = (&mut op.kind, l.kind)
                    {
                        nv[c] = lv[0];
                    }
                }
                part.src[slot] = Some(op);
            }
            let ops: Vec<Operand> = part.src.iter().flatten().copied().collect();
            if uniform_reads(&ops) > before.max(1) {
                ok = false;
            }
            // A part must not read what an earlier part wrote.
            if ops.iter().any(|o| o.kind == OperandKind::Value(dv)) {
                ok = false;
            }
            parts.push(part);
        }
        if ok {
            return Some(Split { at, parts, dead });
        }
    }
    None
}

fn split_one(p: &mut Program) -> bool {
    let Some(s) = find(p) else { return false };
    let parts: Vec<Item> = s.parts.into_iter().map(Item::Instr).collect();
    p.items.splice(s.at..=s.at, parts);
    remove_items(p, s.dead);
    true
}
