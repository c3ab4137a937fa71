//! The uniform file: user uniforms, constants and driver-provided values, and the one-const
//! rule.
//!
//! Cores without `SH_NO_ONECONST_LIMIT` read at most one distinct uniform register per
//! instruction. Two halves keep programs within it: before allocation, [`one_const`] moves
//! every uniform read beyond the first into a temporary (counting all of an instruction's
//! constants as one read, since they can share a slot); after allocation, [`Uniforms::place`]
//! puts the constants an instruction needs into one slot, reusing slots that already hold the
//! values or have free components, as Mesa's immediate packing does.

// Component and type indices address several parallel tables at once.
#![allow(clippy::needless_range_loop)]

use super::ir::*;
use crate::etnaviv::isa::{Cond, DataType, Opcode};

/// The contents of uniform slots are an IR operand's vocabulary, defined with the IR.
pub use super::ir::UniformContent;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uniforms {
    pub slots: Vec<[UniformContent; 4]>,
}

impl Uniforms {
    /// A file whose first `user` slots belong to the application.
    pub fn new(user: u32) -> Uniforms {
        Uniforms {
            slots: (0..user).map(Self::user_slot).collect(),
        }
    }

    /// Records that slot `slot` is a user uniform (the header may undercount).
    pub fn note_user(&mut self, slot: u32) {
        while self.slots.len() <= slot as usize {
            self.slots.push([UniformContent::Unused; 4]);
        }
        debug_assert!(
            self.slots[slot as usize]
                .iter()
                .all(|c| matches!(c, UniformContent::Unused | UniformContent::User(_))),
            "application slot {slot} would overwrite {:?}",
            self.slots[slot as usize]
        );
        self.slots[slot as usize] = Self::user_slot(slot);
    }

    /// Slot `slot` of the application's layout, in place.
    fn user_slot(slot: u32) -> [UniformContent; 4] {
        [0, 1, 2, 3].map(|c| UniformContent::User(4 * slot + c))
    }

    pub fn texture_scale(&mut self, unit: u32) -> u32 {
        let want = [
            UniformContent::TextureScale { unit, comp: 0 },
            UniformContent::TextureScale { unit, comp: 1 },
            UniformContent::Unused,
            UniformContent::Unused,
        ];
        if let Some(i) = self.slots.iter().position(|s| *s == want) {
            return i as u32;
        }
        self.slots.push(want);
        self.slots.len() as u32 - 1
    }

    /// A slot holding (width, height, depth) of the texture at `unit` in x, y, z.
    pub fn texture_size(&mut self, unit: u32) -> u32 {
        let want = [
            UniformContent::TextureSize { unit, comp: 0 },
            UniformContent::TextureSize { unit, comp: 1 },
            UniformContent::TextureSize { unit, comp: 2 },
            UniformContent::Unused,
        ];
        if let Some(i) = self.slots.iter().position(|s| *s == want) {
            return i as u32;
        }
        self.slots.push(want);
        self.slots.len() as u32 - 1
    }

    /// A slot whose `x` holds the address of uniform buffer `index`.
    pub fn ubo_address(&mut self, index: u32) -> u32 {
        let want = [
            UniformContent::UboAddress(index),
            UniformContent::Unused,
            UniformContent::Unused,
            UniformContent::Unused,
        ];
        if let Some(i) = self.slots.iter().position(|s| *s == want) {
            return i as u32;
        }
        self.slots.push(want);
        self.slots.len() as u32 - 1
    }

    /// Whether one slot already holds every value of `vals`.
    pub fn holds(&self, vals: &[UniformContent]) -> bool {
        self.slots
            .iter()
            .any(|s| vals.iter().all(|v| s.contains(v)))
    }

    /// A slot holding every value of `vals` (at most four distinct: constants and user
    /// uniform components), and the component of each value. A slot of the application's
    /// layout serves when it holds them all; new values go only into the free components of
    /// slots of constants and gathered components.
    pub fn place(&mut self, vals: &[UniformContent]) -> (u32, Vec<u8>) {
        let mut distinct: Vec<UniformContent> = Vec::new();
        for &v in vals {
            if !distinct.contains(&v) {
                distinct.push(v);
            }
        }
        debug_assert!(distinct.len() <= 4);
        let mut best = None;
        for (i, slot) in self.slots.iter().enumerate() {
            let is_const = slot.iter().all(|c| {
                matches!(
                    c,
                    UniformContent::Const(_) | UniformContent::User(_) | UniformContent::Unused
                )
            });
            if !is_const {
                continue;
            }
            let missing = distinct.iter().filter(|v| !slot.contains(v)).count();
            let free = slot
                .iter()
                .filter(|c| **c == UniformContent::Unused)
                .count();
            if missing <= free {
                best = Some(i);
                if missing == 0 {
                    break;
                }
            }
        }
        let i = match best {
            Some(i) => i,
            None => {
                self.slots.push([UniformContent::Unused; 4]);
                self.slots.len() - 1
            }
        };
        let slot = &mut self.slots[i];
        for v in &distinct {
            if !slot.contains(v) {
                let free = slot
                    .iter()
                    .position(|c| *c == UniformContent::Unused)
                    .expect("slot chosen with room");
                slot[free] = *v;
            }
        }
        let comps = vals
            .iter()
            .map(|v| slot.iter().position(|c| c == v).expect("value placed") as u8)
            .collect();
        (i as u32, comps)
    }
}

/// What a uniform-reading operand reads, for counting distinct uniform registers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    Slot(u32),
    Consts,
}

/// Rewrites `p` so that no instruction reads more than one uniform register: the extra reads
/// go through a MOV into a temporary just before the instruction. Returns the MOVs added.
pub fn one_const(p: &mut Program) -> usize {
    let items = std::mem::take(&mut p.items);
    let mut out = Vec::with_capacity(items.len());
    let mut added = 0;
    for item in items {
        let Item::Instr(mut ins) = item else {
            out.push(item);
            continue;
        };
        let mut kept: Option<Read> = None;
        let mut const_vals: Vec<UniformContent> = Vec::new();
        for slot in 0..3 {
            let Some(op) = ins.src[slot] else { continue };
            let used = ins.used_channels(slot);
            let read = match op.kind {
                OperandKind::Uniform(u) => Read::Slot(u),
                OperandKind::Const(v) => {
                    // Constants and user uniform components share a slot only while they
                    // fit in four components.
                    let mut vals = const_vals.clone();
                    for c in (0..4).filter(|c| used & (1 << c) != 0) {
                        if !vals.contains(&v[c]) {
                            vals.push(v[c]);
                        }
                    }
                    if vals.len() <= 4 && matches!(kept, None | Some(Read::Consts)) {
                        const_vals = vals;
                        kept = Some(Read::Consts);
                        continue;
                    }
                    Read::Consts
                }
                _ => continue,
            };
            match kept {
                None => {
                    kept = Some(read);
                    continue;
                }
                Some(k) if k == read && read != Read::Consts => continue,
                _ => {}
            }
            // Move the channels this instruction reads into a temporary of just that width.
            let mut reads: Vec<(u8, UniformContent)> = Vec::new();
            let mut swz = [0u8; 4];
            for c in 0..4 {
                if used & (1 << c) == 0 {
                    continue;
                }
                let key = match op.kind {
                    OperandKind::Const(v) => (0, v[c]),
                    _ => (op.swz[c], UniformContent::Unused),
                };
                let at = match reads.iter().position(|r| *r == key) {
                    Some(i) => i,
                    None => {
                        reads.push(key);
                        reads.len() - 1
                    }
                };
                swz[c] = at as u8;
            }
            let width = reads.len().max(1) as u8;
            let tmp = p.new_value(width, ValueKind::Temp);
            let mut src = op;
            src.neg = false;
            src.abs = false;
            for (j, r) in reads.iter().enumerate() {
                src.swz[j] = r.0;
                if let OperandKind::Const(v) = &mut src.kind {
                    v[j] = r.1;
                }
            }
            let mut mov = Instr::new(Opcode::Mov, Shape::Aligned);
            mov.cond = Cond::True;
            mov.ty = DataType::F32;
            mov.dst = Some((tmp, (1u8 << width) - 1));
            mov.src[2] = Some(src);
            out.push(Item::Instr(mov));
            added += 1;
            let fill = swz[used.trailing_zeros().min(3) as usize];
            for c in 0..4 {
                if used & (1 << c) == 0 {
                    swz[c] = fill;
                }
            }
            ins.src[slot] = Some(Operand {
                kind: OperandKind::Value(tmp),
                swz,
                neg: op.neg,
                abs: op.abs,
            });
        }
        out.push(Item::Instr(ins));
    }
    p.items = out;
    added
}
