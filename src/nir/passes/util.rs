//! Editing helpers the passes need beyond [`crate::nir::edit`]: batch use rewriting (one
//! walk for many replacements) and appending instructions whose value is defined later.

use crate::nir::ir::*;

/// Calls `f` on every `if` condition of a control-flow list, mutably.
pub fn for_each_condition_mut(list: &mut [CfNode], f: &mut impl FnMut(&mut SsaId)) {
    crate::util::stack::grow(|| {
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
    })
}

/// Replaces every use of a value for which `map` returns a replacement.
pub fn rewrite_uses(imp: &mut Impl, map: &impl Fn(SsaId) -> Option<SsaId>) {
    let placed: Vec<InstrId> = imp.blocks.iter().flat_map(|b| b.instrs.clone()).collect();
    for id in placed {
        imp.instrs[id.0 as usize].kind.for_each_src_mut(|s| {
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

/// Applies `f` to every function body, and reports whether any changed.
pub(crate) fn each_impl(shader: &mut Shader, mut f: impl FnMut(&mut Impl) -> bool) -> bool {
    let mut progress = false;
    for func in &mut shader.functions {
        if let Some(imp) = func.body.as_mut() {
            progress |= f(imp);
        }
    }
    progress
}
