//! Dead code elimination: drops instructions whose results nobody uses and that have no
//! other effect, and registers that are never read (with their stores).

use super::each_impl;
use crate::nir::ir::*;
use crate::nir::opcodes::{Intrinsic, CAN_ELIMINATE};

pub fn dce(shader: &mut Shader) -> bool {
    each_impl(shader, dce_impl)
}

fn removable(kind: &InstrKind) -> bool {
    match kind {
        InstrKind::Alu(_)
        | InstrKind::LoadConst(_)
        | InstrKind::Undef(_)
        | InstrKind::Phi(_)
        | InstrKind::Deref(_)
        | InstrKind::Tex(_) => true,
        InstrKind::Intrinsic(i) => i.def.is_some() && i.intrinsic.info().flags & CAN_ELIMINATE != 0,
        InstrKind::Jump(_) => false,
    }
}

/// Registers that some instruction reads.
fn read_regs(imp: &Impl) -> Vec<bool> {
    let mut read = vec![false; imp.defs.len()];
    for block in &imp.blocks {
        for &id in &block.instrs {
            if let InstrKind::Intrinsic(i) = &imp.instr(id).kind {
                if matches!(i.intrinsic, Intrinsic::LoadReg | Intrinsic::LoadRegIndirect) {
                    if let Some(r) = i.srcs.first().and_then(|s| read.get_mut(s.0 as usize)) {
                        *r = true;
                    }
                }
            }
        }
    }
    read
}

pub fn dce_impl(imp: &mut Impl) -> bool {
    let mut progress = false;
    loop {
        let counts = imp.use_counts();
        let read = read_regs(imp);
        let mut removed = false;
        for b in 0..imp.blocks.len() {
            let before = imp.blocks[b].instrs.len();
            let instrs = std::mem::take(&mut imp.blocks[b].instrs);
            let kept: Vec<InstrId> = instrs
                .into_iter()
                .filter(|&id| {
                    let kind = &imp.instrs[id.0 as usize].kind;
                    if let InstrKind::Intrinsic(i) = kind {
                        if matches!(
                            i.intrinsic,
                            Intrinsic::StoreReg | Intrinsic::StoreRegIndirect
                        ) {
                            let reg = i.srcs.get(1).map(|s| s.0 as usize);
                            return reg.is_some_and(|r| read.get(r).copied().unwrap_or(true));
                        }
                    }
                    let dead = removable(kind)
                        && kind
                            .def()
                            .is_some_and(|d| counts.get(d.0 as usize).copied().unwrap_or(0) == 0);
                    !dead
                })
                .collect();
            removed |= kept.len() != before;
            imp.blocks[b].instrs = kept;
        }
        if !removed {
            break;
        }
        progress = true;
    }
    if progress {
        imp.compact();
    }
    progress
}
