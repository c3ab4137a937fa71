//! Source modifiers: `fneg` and `fabs` (and chains of them) cost no instruction, they become
//! the negate and absolute-value bits of the float sources that read them.
//!
//! The folding happens as the NIR is translated, where the SSA facts are still at hand: an
//! `fneg`/`fabs` binds its def as an *alias* of its source with the modifier composed
//! ([`Tr::fold_modifier`]), so every later read of the def is an operand of the source with
//! `neg`/`abs` set, and no instruction is emitted for it. Composition follows the hardware's
//! order (absolute value first, then negation): `fneg(fabs(x))` is `-|x|`, `fabs(fneg(x))` is
//! `|x|`, `fneg(fneg(x))` is `x`. On constants the modifier goes into the bits instead, which
//! keeps them eligible for inline immediates (those cannot carry `abs`, and carry `neg` only
//! as a flipped sign bit).
//!
//! Not every source can carry float modifiers
//! ([`carries_float_modifiers`](crate::etnaviv::isa::carries_float_modifiers), a fact of the
//! ISA, the same line Mesa's etnaviv draws: only ALU sources that the instruction reads as
//! floats). Integer
//! instructions would apply the bits as integer negation and absolute value, and texture
//! coordinates, address-register writes, LOAD offsets, branch and kill conditions take no
//! modifiers at all. A modified operand meeting such a source is first computed by a MOV
//! ([`Tr::plain`]): the `fneg`/`fabs` instruction stays exactly where some use needs its
//! value and disappears where none does.
//!
//! Phi variables are folded too. They are reassigned only by the copies at the ends of the
//! phi block's predecessors, and every use of an alias is dominated by the alias's def, which
//! the phi's block dominates: a path from a reassignment back to a use would have to re-enter
//! the phi's block and reach the use without passing the def, and prefixed by the way into
//! that block it would be a path from the entry that avoids the def. The one place where a
//! reassignment and a read meet is the parallel copy itself, which saves sources that are
//! also destinations first ([`Tr::phi_moves`]).

use super::{aligned, Binding, Tr, R};
use crate::etnaviv::compiler::ir::{Instr, Operand, OperandKind, Shape};
use crate::etnaviv::isa::Opcode;
use crate::nir::ir::AluInstr;
use crate::nir::opcodes::AluOp;

impl Tr<'_> {
    /// Binds an `fneg`, `fabs` or `mov` to its source with the swizzle and modifier
    /// composed (see the module documentation). Returns whether it did: an output deref
    /// has no value to alias.
    pub(super) fn fold_modifier(&mut self, a: &AluInstr, n: u8) -> R<bool> {
        let src = &a.srcs[0];
        let comps = aligned(&src.swizzle, n);
        let b = match self.binding(src.ssa)?.clone() {
            Binding::Const(vals) => {
                let mut out: Vec<u32> = comps[..n as usize]
                    .iter()
                    .map(|&c| vals.get(c as usize).copied().unwrap_or(0))
                    .collect();
                for v in &mut out {
                    match a.op {
                        AluOp::fneg => *v ^= 0x8000_0000,
                        AluOp::fabs => *v &= 0x7fff_ffff,
                        _ => {}
                    }
                }
                Binding::Const(out)
            }
            Binding::Src {
                kind,
                swz,
                mut neg,
                mut abs,
            } => {
                match a.op {
                    AluOp::fneg => neg = !neg,
                    AluOp::fabs => {
                        abs = true;
                        neg = false;
                    }
                    _ => {}
                }
                Binding::Src {
                    kind,
                    swz: comps.map(|c| swz[c as usize & 3]),
                    neg,
                    abs,
                }
            }
            Binding::Deref(..) => return Ok(false),
        };
        self.bind[a.def.0 as usize] = Some(b);
        Ok(true)
    }

    /// `op` without modifiers, for a source that cannot carry them: a MOV computes the
    /// modified value into a temporary first. Constants already hold their modifiers in
    /// their bits and pass unchanged (user uniforms among them do not).
    pub(super) fn plain(&mut self, op: Operand) -> Operand {
        if !(op.neg || op.abs) || op.const_bits().is_some() {
            return op;
        }
        // A broadcast (the usual case) needs only a scalar.
        let splat = match op.kind {
            OperandKind::Const(cells) => cells.iter().all(|&c| c == cells[0]),
            _ => op.swz.iter().all(|&c| c == op.swz[0]),
        };
        let t = self.temp(if splat { 1 } else { 4 });
        let mut i = Instr::new(Opcode::Mov, Shape::Aligned);
        i.dst = Some((t, if splat { 1 } else { 0xf }));
        i.src[2] = Some(op);
        self.p.push(i);
        Operand::value(t, if splat { [0; 4] } else { [0, 1, 2, 3] })
    }
}
