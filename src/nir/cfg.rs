//! Control-flow edges, derived from the structured tree the way NIR links its blocks: a block
//! ending in a jump goes to the jump's target; a block before an `if` goes to both branches;
//! a block before a loop enters it; the last block of a branch goes to the block after the
//! `if`, the last block of a loop body back to the loop's first block, and the last block of
//! the function to the end block.

use super::ir::{BlockId, CfNode, Impl, InstrKind, JumpKind};

/// Successors and predecessors of every block (indexed by `BlockId`).
#[derive(Clone, Debug, PartialEq)]
pub struct Cfg {
    /// At most two successors, in NIR's order (then before else).
    pub succs: Vec<Vec<BlockId>>,
    /// Predecessors sorted by block index.
    pub preds: Vec<Vec<BlockId>>,
}

struct LoopCtx {
    header: BlockId,
    exit: BlockId,
}

impl Cfg {
    pub fn compute(imp: &Impl) -> Cfg {
        let n = imp.blocks.len();
        let mut cfg = Cfg {
            succs: vec![Vec::new(); n],
            preds: vec![Vec::new(); n],
        };
        if n == 0 {
            return cfg;
        }
        let end = imp.end_block();
        link_list(imp, &imp.body, end, None, end, &mut cfg.succs);
        for (b, succs) in cfg.succs.iter().enumerate() {
            for s in succs {
                if let Some(p) = cfg.preds.get_mut(s.0 as usize) {
                    if !p.contains(&BlockId(b as u32)) {
                        p.push(BlockId(b as u32));
                    }
                }
            }
        }
        for p in &mut cfg.preds {
            p.sort();
        }
        cfg
    }
}

/// The first block of a control-flow list (its entry), when the list starts with one.
pub fn first_block(list: &[CfNode]) -> Option<BlockId> {
    match list.first()? {
        CfNode::Block(b) => Some(*b),
        CfNode::Loop(l) => first_block(&l.body),
        CfNode::If(_) => None,
    }
}

/// The last instruction's jump kind, if the block ends with a jump.
pub fn block_jump(imp: &Impl, b: BlockId) -> Option<JumpKind> {
    let last = imp.blocks.get(b.0 as usize)?.instrs.last()?;
    match imp.instrs.get(last.0 as usize)?.kind {
        InstrKind::Jump(j) => Some(j),
        _ => None,
    }
}

fn link_list(
    imp: &Impl,
    list: &[CfNode],
    follow: BlockId,
    lp: Option<&LoopCtx>,
    end: BlockId,
    succs: &mut [Vec<BlockId>],
) {
    crate::util::stack::grow(|| {
        for (i, node) in list.iter().enumerate() {
            let next = list.get(i + 1);
            // Where control goes when this node finishes normally.
            let after = match next {
                Some(CfNode::Block(b)) => *b,
                Some(other) => first_block(std::slice::from_ref(other)).unwrap_or(follow),
                None => follow,
            };
            match node {
                CfNode::Block(b) => {
                    let out = match block_jump(imp, *b) {
                        Some(JumpKind::Break) => vec![lp.map_or(end, |l| l.exit)],
                        Some(JumpKind::Continue) => vec![lp.map_or(end, |l| l.header)],
                        Some(JumpKind::Return) | Some(JumpKind::Halt) => vec![end],
                        None => match next {
                            Some(CfNode::If(f)) => {
                                let t = first_block(&f.then_body).unwrap_or(after);
                                let e = first_block(&f.else_body).unwrap_or(after);
                                vec![t, e]
                            }
                            _ => vec![after],
                        },
                    };
                    if let Some(s) = succs.get_mut(b.0 as usize) {
                        *s = out;
                    }
                }
                CfNode::If(f) => {
                    link_list(imp, &f.then_body, after, lp, end, succs);
                    link_list(imp, &f.else_body, after, lp, end, succs);
                }
                CfNode::Loop(l) => {
                    let Some(header) = first_block(&l.body) else {
                        continue;
                    };
                    let cont_entry = first_block(&l.continue_body);
                    let ctx = LoopCtx {
                        header: cont_entry.unwrap_or(header),
                        exit: after,
                    };
                    link_list(
                        imp,
                        &l.body,
                        cont_entry.unwrap_or(header),
                        Some(&ctx),
                        end,
                        succs,
                    );
                    if !l.continue_body.is_empty() {
                        link_list(imp, &l.continue_body, header, Some(&ctx), end, succs);
                    }
                }
            }
        }
    })
}
