//! An `else` that only copies constants into phi variables, done before the `if` instead.
//!
//! An if/else whose `else` block only sets phi variables to constants (or uniforms) costs
//! a branch at the end of the `then` block to jump over those copies. When the `then` block
//! overwrites each of those variables in its last straight-line stretch, and reads none of
//! them, the copies can run before the `if`: the `then` path overwrites them anyway, the
//! `else` path finds them already set, and the jump over the `else` goes away.

use crate::etnaviv::compiler::ir::{Item, Label, OperandKind, Program, ValueId};
use crate::etnaviv::isa::Opcode;

/// Moves the constant copies of such `else` blocks before their `if` and drops the jump
/// over them. Returns whether it changed anything.
pub fn hoist_else_copies(p: &mut Program) -> bool {
    let mut changed = false;
    let mut from = 0;
    while let Some((cond_at, jump_at, movs_end)) = find(p, from) {
        // Before: cond_at .. then .. jump_at, Label(else), MOVs [jump_at+2, movs_end).
        // After: MOVs, cond_at .. then .., Label(else).
        let movs: Vec<Item> = p.items.drain(jump_at + 2..movs_end).collect();
        p.items.remove(jump_at);
        let n = movs.len();
        p.items.splice(cond_at..cond_at, movs);
        from = cond_at + n + 1;
        changed = true;
    }
    changed
}

/// Whether `it` is a jump with no condition.
fn is_jump(it: &Item) -> Option<Label> {
    match it {
        Item::Instr(i) if i.src[0].is_none() => i.target,
        _ => None,
    }
}

/// The next pattern at or after item `from`: (conditional branch, jump over the `else`,
/// end of the `else` copies).
fn find(p: &Program, from: usize) -> Option<(usize, usize, usize)> {
    let items = &p.items;
    (from..items.len()).find_map(|j| {
        let end = is_jump(&items[j])?;
        let Some(Item::Label(els)) = items.get(j + 1) else {
            return None;
        };
        // The `else` block: MOVs of placed values up to a run of labels that holds `end`.
        let mut k = j + 2;
        let mut dsts: Vec<(ValueId, u8)> = Vec::new();
        while let Some(Item::Instr(i)) = items.get(k) {
            let reads_nothing_live = i.src.iter().flatten().all(|o| {
                matches!(
                    o.kind,
                    OperandKind::Const(_) | OperandKind::Uniform(_) | OperandKind::Imm(_)
                )
            });
            if i.op != Opcode::Mov || i.target.is_some() || !reads_nothing_live {
                return None;
            }
            dsts.push(i.dst?);
            k += 1;
        }
        if dsts.is_empty()
            || !items[k..]
                .iter()
                .take_while(|it| matches!(it, Item::Label(_)))
                .any(|it| *it == Item::Label(end))
        {
            return None;
        }
        // The one branch to the `else`: a conditional one before the jump.
        let targets_else: Vec<usize> = items
            .iter()
            .enumerate()
            .filter(|(_, it)| matches!(it, Item::Instr(i) if i.target == Some(*els)))
            .map(|(at, _)| at)
            .collect();
        let [c] = targets_else[..] else { return None };
        if c >= j || is_jump(&items[c]).is_some() {
            return None;
        }
        safe_to_hoist(p, c, j, end, &dsts).then_some((c, j, k))
    })
}

/// Whether the `then` block `items[c+1..j]` (entered by the branch at `c`) leaves only
/// through its end or to `end`, reads none of `dsts` (nor does the branch), and overwrites
/// every component of each in its last straight-line stretch.
fn safe_to_hoist(p: &Program, c: usize, j: usize, end: Label, dsts: &[(ValueId, u8)]) -> bool {
    let body = &p.items[c + 1..j];
    let inner: Vec<Label> = body
        .iter()
        .filter_map(|it| match it {
            Item::Label(l) => Some(*l),
            _ => None,
        })
        .collect();
    let mut last_stretch = 0;
    for (at, it) in p.items[c..j].iter().enumerate() {
        let Item::Instr(i) = it else {
            last_stretch = at + 1;
            continue;
        };
        let reads_dst = i
            .src
            .iter()
            .flatten()
            .any(|o| matches!(o.kind, OperandKind::Value(v) if dsts.iter().any(|d| d.0 == v)));
        if reads_dst {
            return false;
        }
        if at > 0 {
            if let Some(t) = i.target {
                if t != end && !inner.contains(&t) {
                    return false;
                }
            }
        }
        if i.target.is_some() || i.op == Opcode::Texkill {
            last_stretch = at + 1;
        }
    }
    dsts.iter().all(|&(v, mask)| {
        let written = p.items[c + last_stretch.max(1)..j]
            .iter()
            .filter_map(|it| match it {
                Item::Instr(i) => i.dst.filter(|d| d.0 == v).map(|d| d.1),
                _ => None,
            })
            .fold(0u8, |m, w| m | w);
        written & mask == mask
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::etnaviv::compiler::ir::{Instr, Operand, Shape, ValueKind};
    use crate::etnaviv::isa::{Cond, DataType};

    fn mov(d: ValueId, src: Operand) -> Item {
        let mut i = Instr::new(Opcode::Mov, Shape::Aligned);
        i.cond = Cond::True;
        i.ty = DataType::F32;
        i.dst = Some((d, 1));
        i.src[2] = Some(src);
        Item::Instr(i)
    }

    fn branch(cond: Option<ValueId>, to: Label) -> Item {
        let mut i = Instr::new(Opcode::Branch, Shape::Aligned);
        i.cond = if cond.is_some() { Cond::Nz } else { Cond::True };
        i.src[0] = cond.map(|c| Operand::value(c, [0; 4]));
        i.target = Some(to);
        Item::Instr(i)
    }

    /// `if (c) x = y else x = 1.0`, as translation lays it out, with `then` writing `x`
    /// from `then_src`.
    fn if_else(then_src: fn(ValueId, ValueId, ValueId) -> Operand) -> (Program, [ValueId; 3]) {
        let mut p = Program::default();
        let c = p.new_value(1, ValueKind::Temp);
        let x = p.new_value(1, ValueKind::Temp);
        let y = p.new_value(1, ValueKind::Temp);
        let (els, end) = (Label(0), Label(1));
        p.items = vec![
            mov(y, Operand::splat(0x4000_0000)),
            branch(Some(c), els),
            mov(x, then_src(c, x, y)),
            branch(None, end),
            Item::Label(els),
            mov(x, Operand::splat(0x3f80_0000)),
            Item::Label(end),
        ];
        (p, [c, x, y])
    }

    #[test]
    fn the_constant_copy_runs_before_the_if_and_the_jump_goes() {
        let (mut p, [c, x, y]) = if_else(|_, _, y| Operand::value(y, [0; 4]));
        assert!(hoist_else_copies(&mut p));
        let (els, end) = (Label(0), Label(1));
        assert_eq!(
            p.items,
            vec![
                mov(y, Operand::splat(0x4000_0000)),
                mov(x, Operand::splat(0x3f80_0000)),
                branch(Some(c), els),
                mov(x, Operand::value(y, [0; 4])),
                Item::Label(els),
                Item::Label(end),
            ]
        );
    }

    #[test]
    fn a_then_block_reading_the_variable_keeps_the_else() {
        // `then` reads x (a loop variable updated in place, say): the constant must not
        // reach it.
        let (mut p, _) = if_else(|_, x, _| Operand::value(x, [0; 4]));
        let before = p.items.clone();
        assert!(!hoist_else_copies(&mut p));
        assert_eq!(p.items, before);
    }

    #[test]
    fn a_then_block_not_writing_the_variable_keeps_the_else() {
        // `then` leaves x as it was: on that path x must keep its old value.
        let (mut p, [_, _, y]) = if_else(|_, _, y| Operand::value(y, [0; 4]));
        p.items[2] = mov(y, Operand::splat(0));
        let before = p.items.clone();
        assert!(!hoist_else_copies(&mut p));
        assert_eq!(p.items, before);
    }
}
