//! The etnaviv backend's order of work before allocation, written once.
//!
//! Translation ([`from_nir::lower`]) into the value-based IR, then the [`PASSES`], each
//! through the compile's [`Runner`]: `GPUCC_DEBUG=etna` prints the IR after every pass that
//! changed it, `time` times them, and validation checks the IR after each. Allocation and
//! emission follow in [`super::Context::compile`]. Tests that need the IR at some point call
//! [`prepare`] with the name of the last step instead of repeating the order.

use crate::debug::Flags;
use crate::etnaviv::specs::Specs;
use crate::nir::ir::Shader;
use crate::pipeline::{Pass, Runner};

use super::ir::Program;
use super::{consts, emit, from_nir, opt, validate, CompileError};

/// The step that translates NIR into the IR.
pub const TRANSLATE: &str = "from_nir";

/// The passes between translation and allocation, in order. Each applies only where the core
/// needs it (the condition is part of the pass, so the list stays the same for every core).
pub const PASSES: &[Pass<Specs, Program>] = &[
    // Vectors sharing their sources become swizzles of one register first, so that what
    // is left of the MOV-built vectors is read through by splitting their readers.
    Pass {
        name: "pack_shared_sources",
        run: |_, p| opt::pack::pack_shared_sources(p),
    },
    Pass {
        name: "split_built_reads",
        run: |_, p| opt::split::split_built_reads(p),
    },
    Pass {
        name: "fold_compare_into_select",
        run: |_, p| opt::select_cond::fold_compare_into_select(p),
    },
    Pass {
        name: "fold_saturate",
        run: |_, p| opt::saturate::fold_saturate(p),
    },
    Pass {
        name: "hoist_else_copies",
        run: |_, p| opt::else_copies::hoist_else_copies(p),
    },
    // HALTI2+: constants that fit 20 bits become inline immediates before the one-const
    // rule counts uniform reads, so they need no MOV.
    Pass {
        name: "inline_immediates",
        run: |specs, p| specs.has_halti2_instructions() && emit::inline_immediates(p),
    },
    Pass {
        name: "one_const",
        run: |specs, p| specs.has_one_const_limit() && consts::one_const(p) > 0,
    },
    Pass {
        name: "drop_trivial_branches",
        run: |_, p| emit::drop_trivial_branches(p),
    },
];

/// Translates `shader` and runs [`PASSES`] through `runner`.
pub fn lower(
    specs: &'static Specs,
    shader: &Shader,
    runner: &mut Runner<Program>,
) -> Result<from_nir::Lowered, CompileError> {
    let mut lowered = runner.time_step(TRANSLATE, || from_nir::lower(specs, shader))?;
    runner.show(TRANSLATE, &lowered.program);
    runner.check(TRANSLATE, &lowered.program)?;
    runner.run_all(PASSES, specs, &mut lowered.program)?;
    Ok(lowered)
}

/// Translation and the passes up to and including the one named `last` ([`TRANSLATE`] or a
/// name in [`PASSES`]), validating after each.
pub fn prepare(
    specs: &'static Specs,
    shader: &Shader,
    last: &str,
) -> Result<from_nir::Lowered, CompileError> {
    let steps: Vec<&str> = std::iter::once(TRANSLATE)
        .chain(PASSES.iter().map(|p| p.name))
        .collect();
    let Some(stop) = steps.iter().position(|s| *s == last) else {
        return Err(CompileError::Invalid(format!(
            "no step named '{last}' in the etnaviv pipeline ({})",
            steps.join(", ")
        )));
    };
    let mut runner = Runner::new("", Flags::empty(), Flags::ETNA, true, validate::validate);
    let mut lowered = from_nir::lower(specs, shader)?;
    runner.check(TRANSLATE, &lowered.program)?;
    for pass in PASSES.iter().take(stop) {
        runner.run(pass, specs, &mut lowered.program)?;
    }
    Ok(lowered)
}
