//! Constant folding: an ALU instruction whose sources are all `load_const` becomes a
//! `load_const` of its result, computed by the interpreter's ALU semantics
//! ([`crate::nir::interp::alu::eval_in`]) in the shader's own denormal mode, so folding and
//! execution always agree.

use super::each_impl;
use crate::nir::interp::alu;
use crate::nir::ir::*;

pub fn constant_folding(shader: &mut Shader) -> bool {
    // A malformed float-controls line is the interpreter's error to report; folding in
    // another mode than execution would use could change results, so nothing is folded.
    let Ok(mode) = alu::DenormMode::of_shader(&shader.info) else {
        return false;
    };
    each_impl(shader, |imp| fold_impl_in(imp, mode))
}

/// Folds `imp` with the default denormal mode (fp32 denormals flushed).
pub fn fold_impl(imp: &mut Impl) -> bool {
    fold_impl_in(imp, alu::DenormMode::default())
}

fn fold_impl_in(imp: &mut Impl, mode: alu::DenormMode) -> bool {
    let mut progress = false;
    // Program order: a folded value is a constant for the instructions after it.
    let placed: Vec<InstrId> = imp.blocks.iter().flat_map(|b| b.instrs.clone()).collect();
    for id in placed {
        let InstrKind::Alu(a) = &imp.instr(id).kind else {
            continue;
        };
        let Some(d) = imp.def(a.def).copied() else {
            continue;
        };
        let info = a.op.info();
        let nc = d.num_components as usize;
        let mut srcs = Vec::with_capacity(a.srcs.len());
        let mut bits = Vec::with_capacity(a.srcs.len());
        let mut all_const = true;
        for (i, s) in a.srcs.iter().enumerate() {
            let (Some(vals), Some(sd)) = (imp.const_value(s.ssa), imp.def(s.ssa)) else {
                all_const = false;
                break;
            };
            let width = match info.input_sizes.get(i) {
                Some(&0) | None => nc,
                Some(&n) => n as usize,
            };
            let mut comps = [0u64; 16];
            for (c, v) in comps.iter_mut().enumerate().take(width.min(16)) {
                *v = vals.get((s.swizzle[c] & 15) as usize).copied().unwrap_or(0);
            }
            srcs.push(comps);
            bits.push(sd.bit_size);
        }
        if !all_const {
            continue;
        }
        let Ok(out) = alu::eval_in(mode, a.op, nc, d.bit_size, &srcs, &bits) else {
            continue;
        };
        let def = a.def;
        imp.instrs[id.0 as usize].kind = InstrKind::LoadConst(LoadConstInstr {
            def,
            values: out[..nc].to_vec(),
        });
        progress = true;
    }
    progress
}
