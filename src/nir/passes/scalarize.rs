//! ALU scalarization: a per-component vector ALU instruction becomes one scalar instruction
//! per component and a `vecN` that gathers them (Mesa's `nir_lower_alu_to_scalar`). The
//! filter decides which instructions to split, so a vec4 target can keep what it likes.

use super::each_impl;
use super::util::{new_def, push_instr};
use crate::nir::ir::*;
use crate::nir::opcodes::AluOp;

pub fn scalarize_alu(shader: &mut Shader, filter: &dyn Fn(&AluInstr, &Impl) -> bool) -> bool {
    each_impl(shader, |imp| scalarize_impl(imp, filter))
}

fn vec_op(n: usize) -> Option<AluOp> {
    match n {
        2 => Some(AluOp::vec2),
        3 => Some(AluOp::vec3),
        4 => Some(AluOp::vec4),
        5 => Some(AluOp::vec5),
        8 => Some(AluOp::vec8),
        16 => Some(AluOp::vec16),
        _ => None,
    }
}

pub fn scalarize_impl(imp: &mut Impl, filter: &dyn Fn(&AluInstr, &Impl) -> bool) -> bool {
    let mut progress = false;
    for b in 0..imp.blocks.len() {
        let old = std::mem::take(&mut imp.blocks[b].instrs);
        let mut new = Vec::with_capacity(old.len());
        for id in old {
            let InstrKind::Alu(a) = &imp.instr(id).kind else {
                new.push(id);
                continue;
            };
            let info = a.op.info();
            let per_component = info.output_size == 0 && info.input_sizes.iter().all(|&s| s == 0);
            let Some(d) = imp.def(a.def).copied() else {
                new.push(id);
                continue;
            };
            let n = d.num_components as usize;
            let gather = vec_op(n);
            if !per_component || n < 2 || gather.is_none() || !filter(a, imp) {
                new.push(id);
                continue;
            }
            let a = a.clone();
            let mut parts = Vec::with_capacity(n);
            for c in 0..n {
                let iid = push_instr(imp, BlockId(b as u32), InstrKind::Undef(SsaId(0)));
                let def = new_def(imp, 1, d.bit_size, d.divergent, iid);
                let srcs = a
                    .srcs
                    .iter()
                    .map(|s| AluSrc::swizzled(s.ssa, &[s.swizzle[c]]))
                    .collect();
                imp.instrs[iid.0 as usize].kind = InstrKind::Alu(AluInstr {
                    op: a.op,
                    def,
                    srcs,
                    exact: a.exact,
                    no_signed_wrap: a.no_signed_wrap,
                    no_unsigned_wrap: a.no_unsigned_wrap,
                });
                new.push(iid);
                parts.push(def);
            }
            imp.instrs[id.0 as usize].kind = InstrKind::Alu(AluInstr {
                op: gather.expect("checked above"),
                def: a.def,
                srcs: parts.into_iter().map(AluSrc::new).collect(),
                exact: false,
                no_signed_wrap: false,
                no_unsigned_wrap: false,
            });
            new.push(id);
            progress = true;
        }
        imp.blocks[b].instrs = new;
    }
    progress
}
