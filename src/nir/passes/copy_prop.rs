//! Copy propagation: uses of a `mov` read its source directly.
//!
//! ALU users compose the mov's swizzle into their own, so any mov folds into them; other
//! users (intrinsics, phis, texture sources, `if` conditions) have no swizzle and only see
//! through movs that copy the whole value unchanged. The movs themselves are left for `dce`.

use super::each_impl;
use crate::nir::ir::*;
use crate::nir::opcodes::AluOp;
use std::collections::HashMap;

pub fn copy_prop(shader: &mut Shader) -> bool {
    each_impl(shader, copy_prop_impl)
}

struct Copy {
    src: AluSrc,
    /// Copies every component of the source in order.
    whole: bool,
}

pub fn copy_prop_impl(imp: &mut Impl) -> bool {
    let mut copies = HashMap::new();
    for block in &imp.blocks {
        for &id in &block.instrs {
            if let InstrKind::Alu(a) = &imp.instr(id).kind {
                if a.op == AluOp::mov && a.srcs.len() == 1 {
                    let (Some(d), Some(s)) = (imp.def(a.def), imp.def(a.srcs[0].ssa)) else {
                        continue;
                    };
                    let n = d.num_components as usize;
                    let whole = n == s.num_components as usize
                        && (0..n).all(|c| a.srcs[0].swizzle[c] as usize == c);
                    copies.insert(
                        a.def,
                        Copy {
                            src: a.srcs[0],
                            whole,
                        },
                    );
                }
            }
        }
    }
    if copies.is_empty() {
        return false;
    }
    let mut progress = false;
    let placed: Vec<InstrId> = imp.blocks.iter().flat_map(|b| b.instrs.clone()).collect();
    for id in placed {
        let kind = &mut imp.instrs[id.0 as usize].kind;
        match kind {
            InstrKind::Alu(a) => {
                for s in &mut a.srcs {
                    // Follow chains of movs, composing swizzles.
                    while let Some(c) = copies.get(&s.ssa) {
                        let mut swz = s.swizzle;
                        for k in swz.iter_mut() {
                            *k = c.src.swizzle[(*k & 15) as usize];
                        }
                        *s = AluSrc {
                            ssa: c.src.ssa,
                            swizzle: swz,
                        };
                        progress = true;
                    }
                }
            }
            other => other.for_each_src_mut(|s| {
                while let Some(c) = copies.get(s).filter(|c| c.whole) {
                    *s = c.src.ssa;
                    progress = true;
                }
            }),
        }
    }
    super::util::for_each_condition_mut(&mut imp.body, &mut |s| {
        while let Some(c) = copies.get(s).filter(|c| c.whole) {
            *s = c.src.ssa;
            progress = true;
        }
    });
    progress
}
