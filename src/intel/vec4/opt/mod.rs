//! The vec4 optimization passes, each a function over the [`Program`] returning whether it
//! made progress, run to a fixed point by [`optimize`].

pub mod coalesce;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod dead_channels;
pub mod dead_flow;
pub mod flags;

use super::ir::Program;

/// Runs the passes until none makes progress.
pub fn optimize(prog: &mut Program) {
    for _ in 0..16 {
        let mut progress = false;
        progress |= copy_prop::copy_propagate(prog);
        progress |= cse::cse(prog);
        progress |= dce::dead_code(prog);
        progress |= dead_channels::dead_channels(prog);
        progress |= coalesce::coalesce(prog);
        progress |= flags::propagate_cmod(prog);
        progress |= dead_flow::dead_flow(prog);
        if !progress {
            break;
        }
    }
}
