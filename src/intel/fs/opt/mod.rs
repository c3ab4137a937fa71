//! Optimization passes on the backend IR, run after lowering (so the copies that
//! LOAD_PAYLOAD expansion and SIMD splitting create are visible) and before register
//! allocation.
//!
//! Every pass is a `fn(&mut Program) -> bool` that reports progress; [`optimize`] runs them in
//! a fixed order until none makes progress:
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
//! 9. [`flags`]: `mov.nz` reloads of a boolean the flag already reflects go.
//!
//! Algebraic simplification and CSE first, because both turn instructions into copies;
//! copy propagation then makes most copies unread, and dead-code elimination deletes them
//! without any liveness analysis; coalescing handles what remains (copies into message
//! payloads, whose readers are sends that need the whole contiguous block and so cannot be
//! redirected one channel group at a time). Flag and saturate propagation come last: they
//! look for the writer of a value, which is easiest to find once copies are gone.

pub mod algebraic;
pub mod cmod_prop;
pub mod coalesce;
pub mod compute_to_copy;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod flags;
pub mod sat_prop;

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
    /// cover their components' (the fallback when a width does not fit in the registers).
    NoPayloadCoalescing,
}

/// Runs the passes of `level` to a fixed point; returns whether anything changed.
pub fn optimize(prog: &mut Program, level: Level) -> bool {
    if level == Level::None {
        return false;
    }
    let into_payloads = level == Level::Full;
    let mut any = false;
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
        if !progress {
            break;
        }
        any = true;
    }
    any
}
