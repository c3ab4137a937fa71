//! Arena editing helpers shared by the passes.

use crate::nir::ir::*;

/// Calls `f` on every SSA source of an instruction, mutably.
pub fn for_each_src_mut(kind: &mut InstrKind, f: &mut impl FnMut(&mut SsaId)) {
    match kind {
        InstrKind::Alu(a) => a.srcs.iter_mut().for_each(|s| f(&mut s.ssa)),
        InstrKind::Phi(p) => p.srcs.iter_mut().for_each(|s| f(&mut s.1)),
        InstrKind::Intrinsic(i) => i.srcs.iter_mut().for_each(f),
        InstrKind::Tex(t) => t.srcs.iter_mut().for_each(|s| f(&mut s.1)),
        InstrKind::Deref(d) => {
            if let DerefKind::Array { parent, index } = &mut d.kind {
                f(parent);
                f(index);
            }
        }
        InstrKind::LoadConst(_) | InstrKind::Undef(_) | InstrKind::Jump(_) => {}
    }
}

/// Calls `f` on every `if` condition of a control-flow list, mutably.
pub fn for_each_condition_mut(list: &mut [CfNode], f: &mut impl FnMut(&mut SsaId)) {
    for node in list {
        match node {
            CfNode::Block(_) => {}
            CfNode::If(n) => {
                f(&mut n.condition);
                for_each_condition_mut(&mut n.then_body, f);
                for_each_condition_mut(&mut n.else_body, f);
            }
            CfNode::Loop(l) => {
                for_each_condition_mut(&mut l.body, f);
                for_each_condition_mut(&mut l.continue_body, f);
            }
        }
    }
}

fn for_each_condition(list: &[CfNode], f: &mut impl FnMut(SsaId)) {
    for node in list {
        match node {
            CfNode::Block(_) => {}
            CfNode::If(n) => {
                f(n.condition);
                for_each_condition(&n.then_body, f);
                for_each_condition(&n.else_body, f);
            }
            CfNode::Loop(l) => {
                for_each_condition(&l.body, f);
                for_each_condition(&l.continue_body, f);
            }
        }
    }
}

/// Number of uses of every SSA value by instructions placed in blocks and by `if`s.
pub fn use_counts(imp: &Impl) -> Vec<u32> {
    let mut counts = vec![0u32; imp.defs.len()];
    for block in &imp.blocks {
        for &id in &block.instrs {
            for s in imp.instr(id).kind.srcs() {
                if let Some(c) = counts.get_mut(s.0 as usize) {
                    *c += 1;
                }
            }
        }
    }
    for_each_condition(&imp.body, &mut |s| {
        if let Some(c) = counts.get_mut(s.0 as usize) {
            *c += 1;
        }
    });
    counts
}

/// Replaces every use of a value for which `map` returns a replacement.
pub fn rewrite_uses(imp: &mut Impl, map: &impl Fn(SsaId) -> Option<SsaId>) {
    let placed: Vec<InstrId> = imp.blocks.iter().flat_map(|b| b.instrs.clone()).collect();
    for id in placed {
        for_each_src_mut(&mut imp.instrs[id.0 as usize].kind, &mut |s| {
            if let Some(r) = map(*s) {
                *s = r;
            }
        });
    }
    for_each_condition_mut(&mut imp.body, &mut |s| {
        if let Some(r) = map(*s) {
            *s = r;
        }
    });
}

/// Appends an instruction to the arena (the caller places it in `block`'s list).
pub fn push_instr(imp: &mut Impl, block: BlockId, kind: InstrKind) -> InstrId {
    let id = InstrId(imp.instrs.len() as u32);
    imp.instrs.push(Instr { block, kind });
    id
}

/// Allocates a new SSA value defined by `instr`.
pub fn new_def(
    imp: &mut Impl,
    num_components: u8,
    bit_size: u8,
    divergent: bool,
    instr: InstrId,
) -> SsaId {
    let id = SsaId(imp.defs.len().max(imp.ssa_alloc as usize) as u32);
    if imp.defs.len() <= id.0 as usize {
        imp.defs.resize(id.0 as usize + 1, None);
    }
    imp.defs[id.0 as usize] = Some(Def {
        num_components,
        bit_size,
        divergent,
        instr,
    });
    imp.ssa_alloc = imp.defs.len() as u32;
    id
}

/// Drops arena entries no block lists, renumbers the rest, and forgets the values they
/// defined. Call at the end of a pass that removed instructions.
pub fn compact(imp: &mut Impl) {
    let mut map = vec![None; imp.instrs.len()];
    let mut instrs = Vec::new();
    for (b, block) in imp.blocks.iter_mut().enumerate() {
        for id in block.instrs.iter_mut() {
            let new = InstrId(instrs.len() as u32);
            let mut ins = imp.instrs[id.0 as usize].clone();
            ins.block = BlockId(b as u32);
            instrs.push(ins);
            map[id.0 as usize] = Some(new);
            *id = new;
        }
    }
    for def in imp.defs.iter_mut() {
        if let Some(d) = def {
            match map.get(d.instr.0 as usize).copied().flatten() {
                Some(n) => d.instr = n,
                None => *def = None,
            }
        }
    }
    imp.instrs = instrs;
}

/// The block-order position of every placed instruction: (block, index in block).
pub fn positions(imp: &Impl) -> Vec<Option<(u32, u32)>> {
    let mut pos = vec![None; imp.instrs.len()];
    for (b, block) in imp.blocks.iter().enumerate() {
        for (k, id) in block.instrs.iter().enumerate() {
            pos[id.0 as usize] = Some((b as u32, k as u32));
        }
    }
    pos
}
