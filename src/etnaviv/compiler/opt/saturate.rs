//! `fsat` folded into the instruction computing its source.
//!
//! Translation gives `fsat(x)` a `MOV.SAT` of `x`. Every float ALU instruction has the
//! saturate bit (clamp to [0, 1], NaN to 0, after rounding), so when `x` is an ordinary
//! value read by nothing else, the instructions computing it can write the MOV's
//! destination with that bit set, and the MOV goes, as Mesa's etnaviv folds `fsat` into the
//! ALU instruction's `saturate`.

use super::{remove_items, Facts};
use crate::etnaviv::compiler::ir::{Item, OperandKind, Program, Shape, ValueId, ValueKind};
use crate::etnaviv::isa::{DataType, Opcode};

/// The instructions whose float result the saturate bit clamps.
fn saturates(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Add | Mad
            | Mul
            | Dp2
            | Dp3
            | Dp4
            | Mov
            | Rcp
            | Rsq
            | Select
            | Exp
            | Log
            | Frc
            | Sqrt
            | Sin
            | Cos
            | Floor
            | Ceil
            | Sign
    )
}

/// Folds every `MOV.SAT` it can into its source's instructions; returns whether it folded
/// any.
pub fn fold_saturate(p: &mut Program) -> bool {
    let mut progress = false;
    while fold_one(p) {
        progress = true;
    }
    progress
}

fn fold_one(p: &mut Program) -> bool {
    let Some((m, d, map, defs)) = find(p) else {
        return false;
    };
    let mut dead = vec![m];
    for at in defs {
        let Item::Instr(ins) = &mut p.items[at] else {
            continue;
        };
        if ins.retarget(d, map) {
            ins.sat = true;
        } else {
            dead.push(at);
        }
    }
    remove_items(p, dead);
    true
}

/// The first `MOV.SAT` that can go: its index, destination, the channels of the destination
/// each source component goes to, and the instructions computing the source.
fn find(p: &Program) -> Option<(usize, ValueId, [u8; 4], Vec<usize>)> {
    let facts = Facts::of(p);
    for (m, item) in p.items.iter().enumerate() {
        let Item::Instr(mov) = item else { continue };
        let (Opcode::Mov, true, DataType::F32, Shape::Aligned, Some((d, dmask)), Some(src)) =
            (mov.op, mov.sat, mov.ty, mov.shape, mov.dst, mov.src[2])
        else {
            continue;
        };
        let OperandKind::Value(s) = src.kind else {
            continue;
        };
        if src.neg || src.abs || s == d || p.values[s.index()].kind != ValueKind::Temp {
            continue;
        }
        let defs = &facts.defs[s.index()];
        if facts.reads[s.index()] != [m]
            || !facts.written_in_one_stretch(s)
            || facts.stretch[defs[0]] != facts.stretch[m]
            || defs.iter().any(|&at| at > m)
        {
            continue;
        }
        let sat_capable = defs.iter().all(|&at| {
            matches!(&p.items[at], Item::Instr(i) if saturates(i.op) && i.ty == DataType::F32
                && i.addr_mask == 0 && i.shape != Shape::Texture)
        });
        // `d` is now written where `s` was: nothing in between may see it.
        if !sat_capable || facts.read_between(d, defs[0], m) || facts.written_between(d, defs[0], m)
        {
            continue;
        }
        // Component j of `s` goes to the channels of `d` the MOV fills from it.
        let mut map = [0u8; 4];
        for c in (0..4).filter(|c| dmask & (1 << c) != 0) {
            map[src.swz[c] as usize & 3] |= 1 << c;
        }
        return Some((m, d, map, defs.clone()));
    }
    None
}
