//! Optimization passes on the backend IR, run after lowering (so the copies that
//! LOAD_PAYLOAD expansion and SIMD splitting create are visible) and before register
//! allocation.
//!
//! Every pass is a `fn(&mut Program) -> bool` that reports progress. [`optimize`] runs them in
//! this order. First, once:
//!
//! - [`split`]: multi-register VGRFs whose registers no operand uses together (the halves of
//!   an instruction SIMD width lowering split) become separate VGRFs, so that the passes below
//!   see whole registers of one size and the allocator places each on its own;
//! - [`compact`]: the VGRF numbers nothing names any more are dropped (translation and
//!   lowering leave many), so every per-register table below is smaller.
//!
//! Then, in a fixed order until none makes progress:
//!
//! 1. [`algebraic`]: single instructions with an immediate or repeated operand become cheaper
//!    ones, usually MOVs (`x + 0`, `x * 1`, `sel x, x`, a saturated immediate);
//! 2. [`cse`]: recomputations within a block become copies of the first result;
//! 3. [`copy_prop`]: reads of a copy read the copy's source instead (registers, immediates and
//!    source modifiers where the hardware accepts them), which leaves the copy unread;
//! 4. [`dce`]: instructions whose result nobody reads go;
//! 5. [`coalesce`]: a whole-register copy whose destination can share the source's register
//!    (shared/seeds/003's interference rule) is removed by renaming the destination;
//! 6. [`compute_to_copy`]: a value computed only to be copied (a phi's copy at the end of a
//!    branch) is computed into the copy's destination instead;
//! 7. [`cmod_prop`]: a flag test of a value (`cmp.nz null, x, 0`, `mov.nz`, `and.nz`) goes
//!    into the instruction that computed the value;
//! 8. [`sat_prop`]: `mov.sat` of a value read nowhere else saturates the value's writer
//!    instead, leaving a plain copy for the next round;
//! 9. [`flags`]: `mov.nz` reloads of a boolean the flag already reflects go;
//! 10. [`fold_copies`]: a value computed only to be copied a few instructions later is
//!     computed into the copy's destination, also when the copy goes into a larger register
//!     (the copies into phi registers coalescing cannot merge, because those are written in
//!     every arm);
//! 11. [`peephole_sel`]: IF/ELSE arms that begin with moves into the same registers become
//!     SELs, and arms left empty go;
//! 12. [`pred_break`]: an IF holding only a BREAK or CONTINUE becomes a predicated jump;
//! 13. [`rename`]: each later complete definition of a register outside control flow gets a
//!     fresh register, its reads following it;
//!
//! and after each round [`compact`] again, for the registers the round left unnamed (it does
//! not count as progress: a renumbering enables no other rewrite).
//!
//! Algebraic simplification and CSE first, because both turn instructions into copies;
//! copy propagation then makes most copies unread, and dead-code elimination deletes them
//! without any liveness analysis; coalescing handles what remains (copies into message
//! payloads, whose readers are sends that need the whole contiguous block and so cannot be
//! redirected one channel group at a time). Flag and saturate propagation come late: they
//! look for the writer of a value, which is easiest to find once copies are gone. Renaming
//! comes after peephole select, as in Mesa, because the SELs that replace an IF's moves are
//! definitions outside control flow; it ends the round so that the next one's copy
//! propagation and coalescing see registers with a single writer. Splitting comes first, as
//! Mesa's does before its loop: what it separates the loop never joins again, and the loop
//! makes a register splittable only by deleting the one instruction that spanned it.
//!
//! After the fixed point, once:
//!
//! - [`combine_constants`]: immediates that instructions cannot encode are loaded once into
//!   a shared register and read as scalars (last, because the earlier passes propagate
//!   immediates wherever the hardware takes them, and what is left is what needs a register);
//! - [`compact`], so that the allocator's tables cover only registers that are named.

pub mod algebraic;
pub mod cmod_prop;
pub mod coalesce;
pub mod combine_constants;
pub mod compact;
pub mod compute_to_copy;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod flags;
pub mod fold_copies;
pub mod peephole_sel;
pub mod pred_break;
pub mod rename;
pub mod sat_prop;
pub mod split;
#[cfg(test)]
mod testing;

use super::ir::Program;

/// Upper bound on rounds of the pass pipeline; each round that makes progress removes or
/// simplifies at least one instruction, so this is only a guard against a pass that
/// oscillates.
const MAX_ROUNDS: usize = 64;

/// How hard to optimize.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// No passes.
    None,
    /// Every pass.
    Full,
    /// Every pass, but coalescing only merges registers of equal size: values are not
    /// computed straight into message payloads, whose live ranges would otherwise grow to
    /// cover their components', and a constant is loaded again where its reads are far
    /// apart (the fallback when a width does not fit in the registers).
    NoPayloadCoalescing,
}

/// Runs the passes of `level` to a fixed point; returns whether anything changed.
pub fn optimize(prog: &mut Program, level: Level) -> bool {
    if level == Level::None {
        return false;
    }
    let into_payloads = level == Level::Full;
    let mut any = split::split_virtual_grfs(prog);
    any |= compact::compact_virtual_grfs(prog);
    for _ in 0..MAX_ROUNDS {
        let mut progress = false;
        progress |= algebraic::algebraic(prog);
        progress |= cse::cse(prog);
        progress |= copy_prop::copy_propagation(prog);
        progress |= dce::dead_code_eliminate(prog);
        progress |= coalesce::register_coalesce(prog, into_payloads);
        progress |= compute_to_copy::compute_to_copy(prog);
        progress |= cmod_prop::cmod_propagation(prog);
        progress |= sat_prop::saturate_propagation(prog);
        progress |= flags::remove_redundant_flag_writes(prog);
        progress |= fold_copies::fold_copies(prog, into_payloads);
        progress |= peephole_sel::peephole_select(prog);
        progress |= pred_break::predicated_break(prog);
        progress |= rename::register_renaming(prog);
        any |= compact::compact_virtual_grfs(prog);
        if !progress {
            break;
        }
        any = true;
    }
    let gap = if into_payloads {
        usize::MAX
    } else {
        combine_constants::TIGHT_GAP
    };
    any |= combine_constants::combine_constants(prog, gap);
    // As Mesa does before allocation: liveness and the interference graph are sized by it.
    any |= compact::compact_virtual_grfs(prog);
    any
}
