//! The vec4 optimization passes, each a function over the [`Program`] returning whether it
//! made progress. Their order is written once, as [`ROUND`], which [`optimize_with`] runs
//! through the compile's [`Runner`] until a round makes no progress (at most
//! [`MAX_ROUNDS`] rounds):
//!
//! 1. [`copy_prop`]: reads of a copy read the copy's source instead, swizzles composed;
//! 2. [`cse`]: recomputations within a block become copies of the first result;
//! 3. [`dce`]: instructions whose result nobody reads go;
//! 4. [`dead_channels`]: write masks shrink to the components read later;
//! 5. [`coalesce`]: a copy whose destination can take the source's register is removed by
//!    renaming;
//! 6. [`cmod_prop`]: a flag test of a value goes into the instruction that computed it, and
//!    a compare repeating the last flag write goes;
//! 7. [`dead_flow`]: empty `if`/`else` blocks go.
//!
//! The names the runner prints and times are the scalar backend's for the same Mesa pass
//! (`copy_propagation`, `dead_code_eliminate`, `register_coalesce`, `cmod_propagation`), so
//! that `GPUCC_DEBUG=time` tables of the two backends can be read side by side.

pub mod cmod_prop;
pub mod coalesce;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod dead_channels;
pub mod dead_flow;
#[cfg(test)]
mod mesa_tests;
#[cfg(test)]
mod test_builder;

use super::ir::Program;
use crate::pipeline::{InvalidIr, Pass, Runner};

/// Upper bound on rounds: each round that makes progress removes or narrows something, so
/// this only guards against two passes undoing each other forever.
pub const MAX_ROUNDS: usize = 16;

/// A vec4 optimization pass; the passes need nothing besides the program.
pub type OptPass = Pass<(), Program>;

/// One round, repeated until none of its passes makes progress.
pub const ROUND: &[OptPass] = &[
    Pass {
        name: "copy_propagation",
        run: |_, p| copy_prop::copy_propagation(p),
    },
    Pass {
        name: "cse",
        run: |_, p| cse::cse(p),
    },
    Pass {
        name: "dead_code_eliminate",
        run: |_, p| dce::dead_code_eliminate(p),
    },
    Pass {
        name: "dead_channels",
        run: |_, p| dead_channels::dead_channels(p),
    },
    Pass {
        name: "register_coalesce",
        run: |_, p| coalesce::register_coalesce(p),
    },
    Pass {
        name: "cmod_propagation",
        run: |_, p| cmod_prop::cmod_propagation(p),
    },
    Pass {
        name: "dead_control_flow_eliminate",
        run: |_, p| dead_flow::dead_control_flow_eliminate(p),
    },
];

/// Runs the passes until none makes progress; returns whether any did.
pub fn optimize(prog: &mut Program) -> bool {
    // A quiet runner never validates, so it cannot fail.
    optimize_with(&mut Runner::quiet(super::validate::validate), prog).unwrap_or(true)
}

/// [`optimize`] through `runner`, which prints, times and validates as the compile asked.
/// Every pass of a round runs, whether or not an earlier one made progress.
pub fn optimize_with(runner: &mut Runner<Program>, prog: &mut Program) -> Result<bool, InvalidIr> {
    let mut any = false;
    for _ in 0..MAX_ROUNDS {
        if !runner.run_all(ROUND, &(), prog)? {
            break;
        }
        any = true;
    }
    Ok(any)
}
