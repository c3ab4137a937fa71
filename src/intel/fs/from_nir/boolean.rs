//! Which NIR values are booleans in the backend's sense (0 or ~0 in every channel), and the
//! `inot` of such a value. `inot b` of a boolean is itself a boolean, non-zero exactly where
//! `b` is zero, so a consumer that only asks "is it zero?" can test `b` with the opposite
//! sense and leave the NOT out: an IF with an inverted predicate, a discard that keeps the
//! pixels where `b` is non-zero, and `b2f`/`b2i` of it, which is `b + 1` (Mesa's
//! try_emit_b2fi_of_inot). NIR's 32-bit comparisons (`flt32`, `ieq32`, ...) give such
//! booleans as well as its 1-bit ones, and logic on booleans keeps them booleans.

use crate::nir::{self, AluOp, AluSrc, InstrKind, SsaId};

use super::Translator;

/// How deep [`Translator::is_boolean`] follows logic operations before it gives up.
const DEPTH: u32 = 4;

impl Translator<'_> {
    /// Whether every component of `id` is 0 or ~0 in the backend's registers.
    pub(super) fn is_boolean(&self, id: SsaId) -> bool {
        self.is_boolean_at(id, DEPTH)
    }

    fn is_boolean_at(&self, id: SsaId, depth: u32) -> bool {
        if self.def_info(id).map(|d| d.1) == Ok(1) {
            return true;
        }
        let Some(nir::Instr { kind, .. }) = self.imp.def_instr(id) else {
            return false;
        };
        match kind {
            InstrKind::Alu(a) => match a.op {
                op if op.is_comparison32() => true,
                AluOp::iand | AluOp::ior | AluOp::ixor | AluOp::inot | AluOp::mov => {
                    depth > 0
                        && !a.srcs.is_empty()
                        && a.srcs.iter().all(|s| self.is_boolean_at(s.ssa, depth - 1))
                }
                AluOp::b32csel => {
                    depth > 0
                        && a.srcs.len() == 3
                        && a.srcs[1..]
                            .iter()
                            .all(|s| self.is_boolean_at(s.ssa, depth - 1))
                }
                _ => false,
            },
            InstrKind::LoadConst(c) => c.values.iter().all(|&v| v == 0 || v == u32::MAX as u64),
            _ => false,
        }
    }

    /// The source of `id` when `id` is `inot` of a boolean.
    pub(super) fn inot_of_boolean(&self, id: SsaId) -> Option<&AluSrc> {
        match self.imp.def_instr(id) {
            Some(nir::Instr {
                kind: InstrKind::Alu(a),
                ..
            }) if a.op == AluOp::inot => a.srcs.first().filter(|s| self.is_boolean(s.ssa)),
            _ => None,
        }
    }
}
