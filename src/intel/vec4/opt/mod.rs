//! The vec4 optimization passes, each a function over the [`Program`] returning whether it
//! made progress, run to a fixed point by [`optimize`].

pub mod cmod_prop;
pub mod coalesce;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod dead_channels;
pub mod dead_flow;

use super::ir::Program;

/// Runs the passes until none makes progress.
pub fn optimize(prog: &mut Program) {
    for _ in 0..16 {
        let mut progress = false;
        progress |= copy_prop::copy_propagation(prog);
        progress |= cse::cse(prog);
        progress |= dce::dead_code_eliminate(prog);
        progress |= dead_channels::dead_channels(prog);
        progress |= coalesce::register_coalesce(prog);
        progress |= cmod_prop::cmod_propagation(prog);
        progress |= dead_flow::dead_control_flow_eliminate(prog);
        if !progress {
            break;
        }
    }
}
