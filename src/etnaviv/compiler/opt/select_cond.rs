//! A comparison with zero folded into the SELECT that reads it.
//!
//! `fcsel(x < 0.0, a, b)` is a SET writing 1.0 or 0.0 and a SELECT on that flag being
//! non-zero. SELECT has conditions of its own that compare its first source with zero
//! (LZ, GEZ, GZ, LEZ, and NZ/NOT for the inequalities), so one `SELECT.LZ x, a, b` computes
//! the same when the flag is read by nothing else. NaN keeps its meaning: a SET of an
//! ordered comparison gives 0.0 for it and the zero condition is false, so both take `b`;
//! `!=` holds for NaN in both. On cores with integers the flag may be a CMP giving ~0 or
//! 0, which folds the same way into a float SELECT (`fcsel`); an integer one (`b32csel`)
//! stays, as a float SELECT would flush the operands that look like denormals.

use super::{remove_items, Facts};
use crate::etnaviv::compiler::ir::{Item, OperandKind, Program, Shape, ValueKind};
use crate::etnaviv::isa::{Cond, DataType, Opcode};

/// Folds every comparison it can; returns whether it folded any.
pub fn fold_compare_into_select(p: &mut Program) -> bool {
    let mut progress = false;
    while fold_one(p) {
        progress = true;
    }
    progress
}

/// The zero condition on `x` equivalent to `x cond 0` (`zero_first`: `0 cond x`).
fn zero_cond(cond: Cond, zero_first: bool) -> Option<Cond> {
    Some(match (cond, zero_first) {
        (Cond::Lt, false) | (Cond::Gt, true) => Cond::Lz,
        (Cond::Ge, false) | (Cond::Le, true) => Cond::Gez,
        (Cond::Gt, false) | (Cond::Lt, true) => Cond::Gz,
        (Cond::Le, false) | (Cond::Ge, true) => Cond::Lez,
        (Cond::Ne, _) => Cond::Nz,
        (Cond::Eq, _) => Cond::Not,
        _ => return None,
    })
}

/// Whether every channel in `used` of a constant operand is +0.0 or -0.0.
fn is_zero(op: &crate::etnaviv::compiler::ir::Operand, used: u8) -> bool {
    op.const_bits().is_some_and(|bits| {
        (0..4)
            .filter(|c| used & (1 << c) != 0)
            .all(|c| bits[c] & 0x7fff_ffff == 0)
    })
}

fn fold_one(p: &mut Program) -> bool {
    let f = Facts::of(p);
    'items: for (at, item) in p.items.iter().enumerate() {
        let Item::Instr(sel) = item else { continue };
        // Only a float SELECT: an integer one moves its operands' bits, which a float one
        // would not do for those that look like denormals.
        let (Opcode::Select, Cond::Nz, DataType::F32, Shape::Aligned, Some((_, smask)), Some(flag)) =
            (sel.op, sel.cond, sel.ty, sel.shape, sel.dst, sel.src[0])
        else {
            continue;
        };
        let OperandKind::Value(c) = flag.kind else {
            continue;
        };
        if flag.neg || flag.abs || p.values[c.index()].kind != ValueKind::Temp {
            continue;
        }
        let defs = &f.defs[c.index()];
        if f.reads[c.index()] != [at] || defs.len() != 1 || defs[0] > at {
            continue;
        }
        let d = defs[0];
        if f.stretch[d] != f.stretch[at] {
            continue;
        }
        let Item::Instr(cmp) = &p.items[d] else {
            continue;
        };
        // The flag: a float SET (1.0/0.0), or a float CMP giving ~0 where it holds.
        let flag_ok = match cmp.op {
            Opcode::Set => true,
            Opcode::Cmp => cmp.src[2]
                .and_then(|o| o.const_bits())
                .is_some_and(|b| b == [u32::MAX; 4]),
            _ => false,
        };
        let (Some((_, cmask)), Some(a), Some(b)) = (cmp.dst, cmp.src[0], cmp.src[1]) else {
            continue;
        };
        if !flag_ok || cmp.ty != DataType::F32 || cmp.shape != Shape::Aligned || cmp.sat {
            continue;
        }
        let used = cmask;
        let (x, zero_first) = if is_zero(&b, used) {
            (a, false)
        } else if is_zero(&a, used) {
            (b, true)
        } else {
            continue;
        };
        let Some(cond) = zero_cond(cmp.cond, zero_first) else {
            continue;
        };
        // x must hold the same between the comparison and the SELECT.
        if let OperandKind::Value(xv) = x.kind {
            if f.written_between(xv, d, at) || xv == c {
                continue;
            }
        } else if !matches!(x.kind, OperandKind::Uniform(_) | OperandKind::Const(_)) {
            continue;
        }
        // Channel k of the SELECT reads flag component flag.swz[k], which the comparison
        // computed in its channel of that index from x.swz[that].
        let mut nx = x;
        for k in 0..4 {
            let j = if smask & (1 << k) != 0 {
                flag.swz[k] as usize & 3
            } else {
                flag.swz[smask.trailing_zeros() as usize & 3] as usize & 3
            };
            if cmask & (1 << j) == 0 {
                continue 'items;
            }
            nx.swz[k] = x.swz[j];
            if let (OperandKind::Const(nv), OperandKind::Const(xv)) = (&mut nx.kind, x.kind) {
                nv[k] = xv[j];
            }
        }
        let mut new = sel.clone();
        new.cond = cond;
        new.src[0] = Some(nx);
        p.items[at] = Item::Instr(new);
        remove_items(p, vec![d]);
        return true;
    }
    false
}
