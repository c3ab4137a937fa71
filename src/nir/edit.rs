//! Editing helpers for passes: allocate values, insert and remove instructions, rewrite uses,
//! and compact the arena afterwards.
//!
//! The contract: a pass may detach instructions from their blocks ([`Impl::remove_instr`]),
//! leaving them in the arena, but must call [`Impl::compact`] before validating or printing;
//! compaction drops detached instructions, renumbers the arena in program order and forgets
//! the values they defined.

use super::ir::*;

impl InstrKind {
    /// Calls `f` on every SSA source (not on the defined value).
    pub fn for_each_src_mut(&mut self, mut f: impl FnMut(&mut SsaId)) {
        match self {
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
}

/// Calls `f` on every `if` condition of a control-flow list.
fn for_each_condition_mut(list: &mut [CfNode], f: &mut impl FnMut(&mut SsaId)) {
    crate::util::stack::grow(|| {
        for node in list {
            match node {
                CfNode::Block(_) => {}
                CfNode::If(i) => {
                    f(&mut i.condition);
                    for_each_condition_mut(&mut i.then_body, f);
                    for_each_condition_mut(&mut i.else_body, f);
                }
                CfNode::Loop(l) => {
                    for_each_condition_mut(&mut l.body, f);
                    for_each_condition_mut(&mut l.continue_body, f);
                }
            }
        }
    })
}

fn for_each_condition(list: &[CfNode], f: &mut impl FnMut(SsaId)) {
    crate::util::stack::grow(|| {
        for node in list {
            match node {
                CfNode::Block(_) => {}
                CfNode::If(i) => {
                    f(i.condition);
                    for_each_condition(&i.then_body, f);
                    for_each_condition(&i.else_body, f);
                }
                CfNode::Loop(l) => {
                    for_each_condition(&l.body, f);
                    for_each_condition(&l.continue_body, f);
                }
            }
        }
    })
}

impl Impl {
    /// A fresh SSA value; the instruction that defines it must then be inserted with
    /// [`Impl::insert_instr`].
    pub fn alloc_ssa(&mut self, num_components: u8, bit_size: u8) -> SsaId {
        let id = SsaId(self.defs.len() as u32);
        self.defs.push(Some(Def {
            num_components,
            bit_size,
            divergent: false,
            instr: InstrId(u32::MAX),
        }));
        self.ssa_alloc = self.ssa_alloc.max(self.defs.len() as u32);
        id
    }

    /// Inserts `kind` into `block` before position `at` (clamped to the block's length) and
    /// records it as the definition of the value it defines.
    pub fn insert_instr(&mut self, block: BlockId, at: usize, kind: InstrKind) -> InstrId {
        let id = InstrId(self.instrs.len() as u32);
        if let Some(Some(def)) = kind.def().and_then(|d| self.defs.get_mut(d.0 as usize)) {
            def.instr = id;
        }
        self.instrs.push(Instr { block, kind });
        if let Some(b) = self.blocks.get_mut(block.0 as usize) {
            let at = at.min(b.instrs.len());
            b.instrs.insert(at, id);
        }
        id
    }

    /// Detaches an instruction from its block (it stays in the arena until [`Impl::compact`]).
    pub fn remove_instr(&mut self, id: InstrId) {
        if let Some(instr) = self.instrs.get(id.0 as usize) {
            if let Some(b) = self.blocks.get_mut(instr.block.0 as usize) {
                b.instrs.retain(|i| *i != id);
            }
        }
    }

    /// Replaces every use of `old` (instruction sources and if conditions) with `new`.
    pub fn rewrite_uses(&mut self, old: SsaId, new: SsaId) {
        let mut swap = |s: &mut SsaId| {
            if *s == old {
                *s = new;
            }
        };
        for instr in &mut self.instrs {
            instr.kind.for_each_src_mut(&mut swap);
        }
        for_each_condition_mut(&mut self.body, &mut swap);
    }

    /// How many times each SSA value is read by attached instructions and if conditions.
    pub fn use_counts(&self) -> Vec<u32> {
        let mut counts = vec![0u32; self.defs.len()];
        let mut count = |s: SsaId| {
            if let Some(c) = counts.get_mut(s.0 as usize) {
                *c += 1;
            }
        };
        for (_, instr) in self.instrs_in_order() {
            for s in instr.kind.srcs() {
                count(s);
            }
        }
        for_each_condition(&self.body, &mut count);
        counts
    }

    /// Drops detached instructions and renumbers the arena in program order; values defined
    /// by dropped instructions become undefined (`defs[n] = None`).
    pub fn compact(&mut self) {
        let mut map = vec![None; self.instrs.len()];
        let mut order = Vec::new();
        for block in &self.blocks {
            for &i in &block.instrs {
                if let Some(slot) = map.get_mut(i.0 as usize) {
                    if slot.is_none() {
                        *slot = Some(InstrId(order.len() as u32));
                        order.push(i);
                    }
                }
            }
        }
        let mut old: Vec<Option<Instr>> = std::mem::take(&mut self.instrs)
            .into_iter()
            .map(Some)
            .collect();
        self.instrs = order
            .iter()
            .filter_map(|i| old[i.0 as usize].take())
            .collect();
        for block in &mut self.blocks {
            block.instrs = block
                .instrs
                .iter()
                .filter_map(|i| map.get(i.0 as usize).copied().flatten())
                .collect();
            block.instrs.dedup();
        }
        for def in &mut self.defs {
            if let Some(d) = def {
                match map.get(d.instr.0 as usize).copied().flatten() {
                    Some(new) => d.instr = new,
                    None => *def = None,
                }
            }
        }
    }
}
