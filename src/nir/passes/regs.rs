//! Conversion between SSA form and the register-intrinsic form
//! (`decl_reg`/`load_reg`/`store_reg`) that out-of-SSA NIR uses.
//!
//! [`phis_to_regs`] leaves SSA: every phi gets a register, each predecessor stores its source
//! value at its end, and the phi becomes a `load_reg`. Because the sources are SSA values
//! already computed (a phi read by another phi of the same block was loaded at the top of the
//! block), no parallel-copy problem arises.
//!
//! [`regs_to_ssa`] goes back with the algorithm of Braun et al., "Simple and Efficient
//! Construction of Static Single Assignment Form" (CC 2013): blocks are visited in program
//! order, which in structured NIR reaches every predecessor first except loop back edges;
//! a loop header stays "unsealed" with incomplete phis until its last predecessor is done.
//! Partial writes become a `vecN` mixing the new and the previous components. Trivial phis
//! are removed afterwards. Registers with array elements, indirect access, a non-zero base or
//! legacy modifiers stay registers.

use super::each_impl;
use super::util::{new_def, push_instr, rewrite_uses};
use crate::nir::cfg::Cfg;
use crate::nir::ir::*;
use crate::nir::opcodes::{AluOp, IndexKind, Intrinsic};
use std::collections::{HashMap, HashSet};

/// An intrinsic instruction with its indices in table order, taken from `values`.
fn make_intrinsic(
    intr: Intrinsic,
    def: Option<SsaId>,
    num_components: u8,
    srcs: Vec<SsaId>,
    values: &[(IndexKind, IndexValue)],
) -> IntrinsicInstr {
    let indices = intr
        .info()
        .indices
        .iter()
        .map(|k| {
            values
                .iter()
                .find(|(vk, _)| vk == k)
                .map(|(_, v)| v.clone())
                .unwrap_or(IndexValue::Int(0))
        })
        .collect();
    IntrinsicInstr {
        intrinsic: intr,
        def,
        num_components,
        srcs,
        indices,
    }
}

/// Out of SSA: replaces every phi with a register.
pub fn phis_to_regs(shader: &mut Shader) -> bool {
    each_impl(shader, phis_to_regs_impl)
}

pub fn phis_to_regs_impl(imp: &mut Impl) -> bool {
    let phis: Vec<InstrId> = imp
        .blocks
        .iter()
        .flat_map(|b| b.instrs.iter().copied())
        .filter(|&id| matches!(imp.instr(id).kind, InstrKind::Phi(_)))
        .collect();
    if phis.is_empty() {
        return false;
    }
    let mut decls = Vec::new();
    let mut stores: HashMap<BlockId, Vec<InstrId>> = HashMap::new();
    for id in phis {
        let InstrKind::Phi(phi) = imp.instr(id).kind.clone() else {
            continue;
        };
        let Some(d) = imp.def(phi.def).copied() else {
            continue;
        };
        let decl_id = push_instr(imp, BlockId(0), InstrKind::Undef(SsaId(0)));
        let reg = new_def(imp, 1, 32, d.divergent, decl_id);
        imp.instrs[decl_id.0 as usize].kind = InstrKind::Intrinsic(make_intrinsic(
            Intrinsic::DeclReg,
            Some(reg),
            1,
            Vec::new(),
            &[
                (
                    IndexKind::NumComponents,
                    IndexValue::Int(d.num_components as i64),
                ),
                (IndexKind::NumArrayElems, IndexValue::Int(0)),
                (IndexKind::BitSize, IndexValue::Int(d.bit_size as i64)),
                (IndexKind::Divergent, IndexValue::Int(d.divergent as i64)),
            ],
        ));
        decls.push(decl_id);
        for (pred, value) in &phi.srcs {
            let sid = push_instr(
                imp,
                *pred,
                InstrKind::Intrinsic(make_intrinsic(
                    Intrinsic::StoreReg,
                    None,
                    d.num_components,
                    vec![*value, reg],
                    &[
                        (IndexKind::Base, IndexValue::Int(0)),
                        (
                            IndexKind::WriteMask,
                            IndexValue::WriteMask((1u32 << d.num_components) - 1),
                        ),
                        (IndexKind::LegacyFsat, IndexValue::Int(0)),
                    ],
                )),
            );
            stores.entry(*pred).or_default().push(sid);
        }
        imp.instrs[id.0 as usize].kind = InstrKind::Intrinsic(make_intrinsic(
            Intrinsic::LoadReg,
            Some(phi.def),
            d.num_components,
            vec![reg],
            &[
                (IndexKind::Base, IndexValue::Int(0)),
                (IndexKind::LegacyFabs, IndexValue::Int(0)),
                (IndexKind::LegacyFneg, IndexValue::Int(0)),
            ],
        ));
    }
    for (block, ids) in stores {
        let list = &mut imp.blocks[block.0 as usize].instrs;
        let ends_in_jump = list
            .last()
            .is_some_and(|&l| matches!(imp.instrs[l.0 as usize].kind, InstrKind::Jump(_)));
        let at = if ends_in_jump {
            list.len() - 1
        } else {
            list.len()
        };
        list.splice(at..at, ids);
    }
    let first = &mut imp.blocks[0].instrs;
    first.splice(0..0, decls);
    true
}

/// Into SSA: replaces registers by SSA values and phis where possible.
pub fn regs_to_ssa(shader: &mut Shader) -> bool {
    each_impl(shader, regs_to_ssa_impl)
}

#[derive(Clone, Copy)]
struct RegShape {
    comps: u8,
    bits: u8,
}

struct Builder<'a> {
    imp: &'a mut Impl,
    preds: Vec<Vec<BlockId>>,
    shapes: HashMap<SsaId, RegShape>,
    current: HashMap<(SsaId, BlockId), SsaId>,
    sealed: Vec<bool>,
    filled: Vec<bool>,
    incomplete: HashMap<BlockId, Vec<(SsaId, InstrId)>>,
    new_phis: HashMap<BlockId, Vec<InstrId>>,
    undefs: Vec<InstrId>,
    phi_ids: HashSet<InstrId>,
}

impl Builder<'_> {
    fn read(&mut self, reg: SsaId, block: BlockId) -> SsaId {
        if let Some(&v) = self.current.get(&(reg, block)) {
            return v;
        }
        let shape = self.shapes[&reg];
        let preds = self.preds[block.0 as usize].clone();
        let val = if !self.sealed[block.0 as usize] {
            let (phi, id) = self.new_phi(block, shape);
            self.incomplete.entry(block).or_default().push((reg, id));
            phi
        } else if preds.len() == 1 {
            self.read(reg, preds[0])
        } else if preds.is_empty() {
            self.undef(shape)
        } else {
            let (phi, id) = self.new_phi(block, shape);
            self.current.insert((reg, block), phi);
            self.fill_phi(reg, id);
            phi
        };
        self.current.insert((reg, block), val);
        val
    }

    fn new_phi(&mut self, block: BlockId, shape: RegShape) -> (SsaId, InstrId) {
        let id = push_instr(self.imp, block, InstrKind::Undef(SsaId(0)));
        let def = new_def(self.imp, shape.comps, shape.bits, true, id);
        self.imp.instrs[id.0 as usize].kind = InstrKind::Phi(PhiInstr {
            def,
            srcs: Vec::new(),
        });
        self.new_phis.entry(block).or_default().push(id);
        self.phi_ids.insert(id);
        (def, id)
    }

    fn fill_phi(&mut self, reg: SsaId, id: InstrId) {
        let block = self.imp.instrs[id.0 as usize].block;
        let preds = self.preds[block.0 as usize].clone();
        let mut srcs = Vec::with_capacity(preds.len());
        for p in preds {
            srcs.push((p, self.read(reg, p)));
        }
        if let InstrKind::Phi(phi) = &mut self.imp.instrs[id.0 as usize].kind {
            phi.srcs = srcs;
        }
    }

    fn undef(&mut self, shape: RegShape) -> SsaId {
        let id = push_instr(self.imp, BlockId(0), InstrKind::Undef(SsaId(0)));
        let def = new_def(self.imp, shape.comps, shape.bits, false, id);
        self.imp.instrs[id.0 as usize].kind = InstrKind::Undef(def);
        self.undefs.push(id);
        def
    }

    fn seal_ready(&mut self) {
        for b in 0..self.sealed.len() {
            if !self.sealed[b] && self.preds[b].iter().all(|p| self.filled[p.0 as usize]) {
                self.sealed[b] = true;
                for (reg, id) in self
                    .incomplete
                    .remove(&BlockId(b as u32))
                    .unwrap_or_default()
                {
                    self.fill_phi(reg, id);
                }
            }
        }
    }
}

/// Registers that can become SSA values, with their shapes.
fn convertible(imp: &Impl) -> HashMap<SsaId, RegShape> {
    let mut shapes = HashMap::new();
    let mut bad = HashSet::new();
    for block in &imp.blocks {
        for &id in &block.instrs {
            let InstrKind::Intrinsic(ii) = &imp.instr(id).kind else {
                continue;
            };
            let int = |k| ii.int_index(k).unwrap_or(0);
            match ii.intrinsic {
                Intrinsic::DeclReg => {
                    if let Some(d) = ii.def {
                        let comps = int(IndexKind::NumComponents);
                        let bits = int(IndexKind::BitSize);
                        if int(IndexKind::NumArrayElems) == 0
                            && (1..=16).contains(&comps)
                            && matches!(bits, 1 | 8 | 16 | 32 | 64)
                        {
                            shapes.insert(
                                d,
                                RegShape {
                                    comps: comps as u8,
                                    bits: bits as u8,
                                },
                            );
                        }
                    }
                }
                Intrinsic::LoadReg
                    if int(IndexKind::Base) != 0
                        || int(IndexKind::LegacyFabs) != 0
                        || int(IndexKind::LegacyFneg) != 0 =>
                {
                    bad.extend(ii.srcs.first().copied());
                }
                Intrinsic::StoreReg
                    if int(IndexKind::Base) != 0 || int(IndexKind::LegacyFsat) != 0 =>
                {
                    bad.extend(ii.srcs.get(1).copied());
                }
                Intrinsic::LoadRegIndirect => bad.extend(ii.srcs.first().copied()),
                Intrinsic::StoreRegIndirect => bad.extend(ii.srcs.get(1).copied()),
                _ => {}
            }
        }
    }
    // A register used other than as the register source of its intrinsics stays.
    for block in &imp.blocks {
        for &id in &block.instrs {
            let kind = &imp.instr(id).kind;
            let reg_slot = match kind {
                InstrKind::Intrinsic(ii) => ii.intrinsic.register_src(),
                _ => None,
            };
            for (k, s) in kind.srcs().into_iter().enumerate() {
                if Some(k) != reg_slot && shapes.contains_key(&s) {
                    bad.insert(s);
                }
            }
        }
    }
    shapes.retain(|r, _| !bad.contains(r));
    shapes
}

pub fn regs_to_ssa_impl(imp: &mut Impl) -> bool {
    let shapes = convertible(imp);
    if shapes.is_empty() {
        return false;
    }
    let cfg = Cfg::compute(imp);
    let n = imp.blocks.len();
    let mut bld = Builder {
        imp,
        preds: cfg.preds,
        shapes,
        current: HashMap::new(),
        sealed: vec![false; n],
        filled: vec![false; n],
        incomplete: HashMap::new(),
        new_phis: HashMap::new(),
        undefs: Vec::new(),
        phi_ids: HashSet::new(),
    };
    // Loads become these values; vecs for partial writes go before their store.
    let mut replace: HashMap<SsaId, SsaId> = HashMap::new();
    let mut removed: HashSet<InstrId> = HashSet::new();
    let mut insert_before: HashMap<InstrId, InstrId> = HashMap::new();
    bld.seal_ready();
    for b in 0..n {
        let block = BlockId(b as u32);
        let instrs = bld.imp.blocks[b].instrs.clone();
        for id in instrs {
            let InstrKind::Intrinsic(ii) = bld.imp.instr(id).kind.clone() else {
                continue;
            };
            match ii.intrinsic {
                Intrinsic::DeclReg if ii.def.is_some_and(|d| bld.shapes.contains_key(&d)) => {
                    removed.insert(id);
                }
                Intrinsic::LoadReg if bld.shapes.contains_key(&ii.srcs[0]) => {
                    let v = bld.read(ii.srcs[0], block);
                    if let Some(d) = ii.def {
                        replace.insert(d, v);
                    }
                    removed.insert(id);
                }
                Intrinsic::StoreReg if bld.shapes.contains_key(&ii.srcs[1]) => {
                    let reg = ii.srcs[1];
                    let shape = bld.shapes[&reg];
                    let full = (1u32 << shape.comps) - 1;
                    let mask = ii.int_index(IndexKind::WriteMask).unwrap_or(full as i64) as u32;
                    let value = ii.srcs[0];
                    let value = replace.get(&value).copied().unwrap_or(value);
                    let new = if mask & full == full {
                        value
                    } else {
                        let old = bld.read(reg, block);
                        let op = match shape.comps {
                            2 => AluOp::vec2,
                            3 => AluOp::vec3,
                            4 => AluOp::vec4,
                            5 => AluOp::vec5,
                            8 => AluOp::vec8,
                            _ => AluOp::vec16,
                        };
                        let vid = push_instr(bld.imp, block, InstrKind::Undef(SsaId(0)));
                        let def = new_def(bld.imp, shape.comps, shape.bits, true, vid);
                        let srcs = (0..shape.comps)
                            .map(|c| {
                                let from = if mask & (1 << c) != 0 { value } else { old };
                                AluSrc::swizzled(from, &[c])
                            })
                            .collect();
                        bld.imp.instrs[vid.0 as usize].kind = InstrKind::Alu(AluInstr {
                            op,
                            def,
                            srcs,
                            exact: false,
                            no_signed_wrap: false,
                            no_unsigned_wrap: false,
                        });
                        insert_before.insert(id, vid);
                        def
                    };
                    bld.current.insert((reg, block), new);
                    removed.insert(id);
                }
                _ => {}
            }
        }
        bld.filled[b] = true;
        bld.seal_ready();
    }
    let Builder {
        imp,
        new_phis,
        undefs,
        ..
    } = bld;
    // Rebuild the block lists: new phis first, then the surviving instructions.
    for b in 0..n {
        let old = std::mem::take(&mut imp.blocks[b].instrs);
        let mut list: Vec<InstrId> = new_phis
            .get(&BlockId(b as u32))
            .cloned()
            .unwrap_or_default();
        if b == 0 {
            list.splice(0..0, undefs.iter().copied());
        }
        let phis_end = old
            .iter()
            .position(|&i| !matches!(imp.instrs[i.0 as usize].kind, InstrKind::Phi(_)))
            .unwrap_or(old.len());
        // Existing phis stay first; undefs in b0 go before everything else.
        let mut merged: Vec<InstrId> = old[..phis_end].to_vec();
        merged.extend(list);
        for &id in &old[phis_end..] {
            if let Some(&v) = insert_before.get(&id) {
                merged.push(v);
            }
            if !removed.contains(&id) {
                merged.push(id);
            }
        }
        imp.blocks[b].instrs = merged;
    }
    let resolve = |mut v: SsaId| {
        let mut guard = 0;
        while let Some(&r) = replace.get(&v) {
            v = r;
            guard += 1;
            if guard > replace.len() {
                break;
            }
        }
        v
    };
    rewrite_uses(imp, &|s| replace.contains_key(&s).then(|| resolve(s)));
    remove_trivial_phis(imp);
    imp.compact();
    true
}

/// Removes phis whose sources are all one value (or the phi itself), in rounds: each round
/// finds every trivial phi, then rewrites all uses at once.
fn remove_trivial_phis(imp: &mut Impl) {
    loop {
        let mut replace: HashMap<SsaId, SsaId> = HashMap::new();
        for block in &mut imp.blocks {
            block.instrs.retain(|&id| {
                let InstrKind::Phi(phi) = &imp.instrs[id.0 as usize].kind else {
                    return true;
                };
                let mut same = None;
                for &(_, v) in &phi.srcs {
                    if v == phi.def || Some(v) == same {
                        continue;
                    }
                    if same.is_some() {
                        return true;
                    }
                    same = Some(v);
                }
                match same {
                    Some(v) => {
                        replace.insert(phi.def, v);
                        false
                    }
                    None => true,
                }
            });
        }
        if replace.is_empty() {
            return;
        }
        let resolve = |mut v: SsaId| {
            let mut guard = 0;
            while let Some(&r) = replace.get(&v) {
                v = r;
                guard += 1;
                if guard > replace.len() {
                    break;
                }
            }
            v
        };
        rewrite_uses(imp, &|s| replace.contains_key(&s).then(|| resolve(s)));
    }
}
