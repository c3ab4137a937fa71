//! The compiler object: one per target, shared by every shader compiled for it.
//!
//! Everything that depends only on the target (device facts, register sets and their q-values)
//! lives in the backend context built here once, never per shader. A `Compiler` is
//! `Send + Sync`: drivers compile from several threads at once with one object.

use std::borrow::Cow;
use std::fmt;

use crate::etnaviv;
use crate::intel;
use crate::key::Family as KeyFamily;
pub use crate::key::Key;
use crate::nir;
use crate::program::Program;
use crate::target::{Target, UnknownTarget};
use crate::verify::VerifyOutcome;

/// The backend state of one target, built once. (Boxed: the Intel context holds its flow
/// templates inline and is much larger than the etnaviv one.)
#[derive(Debug)]
enum Backend {
    Intel(Box<intel::fs::Context>),
    Etnaviv(etnaviv::compiler::Context),
}

#[derive(Debug)]
pub struct Compiler {
    target: Target,
    backend: Backend,
}

/// Options of one compile.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// Intel: the SIMD widths to try (8, 16, 32); empty means the backend's default choice.
    pub simd: Vec<u32>,
    /// Per-draw state that changes the code (Mesa's program keys); the default is no key.
    pub key: Key,
    /// Intel: where surfaces sit and how uniform data is pushed.
    pub binding: BindingModel,
}

/// Intel: where a program's surfaces sit in the binding table and how it pushes uniform
/// data. Vivante programs are the same under both (sampler units and the uniform file are
/// Mesa's already).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BindingModel {
    /// gpucc's own layout, for its tools and tests: texture indices are binding-table slots,
    /// UBO block b is slot 64 + b and SSBO block b slot 128 + b; uniform data is pushed a
    /// dword at a time in order of first use, up to 32 registers, and pulled past that.
    #[default]
    Gpucc,
    /// Mesa's (crocus, iris): texture, UBO and SSBO indices in the NIR are the final
    /// binding-table slots the driver assigned (`crocus_setup_binding_table`); uniform data
    /// is pushed as up to four ranges of 32-byte registers chosen as
    /// `brw_nir_analyze_ubo_ranges` chooses them, within 64 registers, and pulled outside.
    Mesa,
    /// Mesa's, pushing the UBO ranges the driver chose itself rather than gpucc's choice.
    MesaDriverRanges(crate::intel::ubo_ranges::DriverRanges),
}

impl BindingModel {
    /// Mesa's binding model, with gpucc's ranges or the driver's.
    pub fn is_mesa(&self) -> bool {
        !matches!(self, BindingModel::Gpucc)
    }

    /// The driver's own UBO ranges, when it gave them.
    pub fn driver_ranges(&self) -> Option<&crate::intel::ubo_ranges::DriverRanges> {
        match self {
            BindingModel::MesaDriverRanges(r) => Some(r),
            _ => None,
        }
    }
}

/// Why a compile failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// The shader uses a feature the target or gpucc does not support; names it.
    Unsupported(String),
    /// The program exceeds a hardware limit; names it.
    Limit(String),
    /// The shader is malformed for this backend.
    Invalid(String),
    /// A gpucc bug caught by an internal check.
    Internal(String),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Unsupported(m) => write!(f, "unsupported: {m}"),
            CompileError::Limit(m) => write!(f, "limit exceeded: {m}"),
            CompileError::Invalid(m) => write!(f, "invalid shader: {m}"),
            CompileError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for CompileError {}

/// A validator's complaint between passes is a gpucc bug, whichever backend found it.
impl From<crate::pipeline::InvalidIr> for CompileError {
    fn from(e: crate::pipeline::InvalidIr) -> CompileError {
        CompileError::Internal(e.to_string())
    }
}

impl Compiler {
    pub fn new(target_name: &str) -> Result<Compiler, UnknownTarget> {
        Ok(Compiler::for_target(Target::from_name(target_name)?))
    }

    pub fn for_target(target: Target) -> Compiler {
        // Read GPUCC_DEBUG when a driver creates its compiler, not at its first compile, so
        // `GPUCC_DEBUG=help` and unknown-flag warnings come out at start-up.
        let _ = crate::debug::flags();
        let backend = match target {
            Target::Intel(devinfo) => Backend::Intel(Box::new(intel::fs::Context::new(devinfo))),
            Target::Etnaviv(specs) => Backend::Etnaviv(etnaviv::compiler::Context::new(specs)),
        };
        Compiler { target, backend }
    }

    pub fn target(&self) -> Target {
        self.target
    }

    /// The shader with the compile key applied (the same shader when the key is empty), or
    /// the key's error for this target and the shader's stage. `compile` applies it itself;
    /// `verify` takes the keyed shader so that the interpreter runs what the key produced.
    pub fn keyed<'a>(
        &self,
        shader: &'a nir::Shader,
        key: &Key,
    ) -> Result<Cow<'a, nir::Shader>, CompileError> {
        self.target
            .check_stage(shader.stage())
            .map_err(CompileError::Unsupported)?;
        crate::stage_check::check(shader, self.target)?;
        let family = match &self.backend {
            Backend::Intel(_) => KeyFamily::Intel,
            Backend::Etnaviv(_) => KeyFamily::Etnaviv,
        };
        key.apply(shader, family, shader.stage())
    }

    /// Compiles one shader (already validated) into a kernel-ready program.
    pub fn compile(
        &self,
        shader: &nir::Shader,
        options: &CompileOptions,
    ) -> Result<Program, CompileError> {
        let keyed = self.keyed(shader, &options.key)?;
        let shader: &nir::Shader = &keyed;
        let compiled = match &self.backend {
            Backend::Intel(ctx) => {
                let mut opts = intel::fs::Options::default();
                if !options.simd.is_empty() {
                    opts.simd = options.simd.clone();
                }
                opts.binding = options.binding;
                opts.input_slots_valid = options.key.input_slots_valid;
                ctx.compile(shader, &opts)
                    .map(|kernel| Program::intel(self.target, shader.stage(), kernel))
            }
            Backend::Etnaviv(ctx) => ctx
                .compile(shader, &etnaviv::compiler::Options::default())
                .map(|object| Program::etnaviv(self.target, object)),
        };
        // A shader of the other family's NIR form fails somewhere; say why rather than where.
        let program = compiled.map_err(|e| crate::form::wrong_form(shader, self.target, e))?;
        crate::shader_log::log_stats(&program);
        Ok(program)
    }
}

impl Compiler {
    /// Compiles `shader`, runs it on the target's simulator and the NIR on the reference
    /// interpreter with several deterministic input sets, and compares the outputs. Intel
    /// shaders are checked at each width of `simd` (default SIMD8, SIMD16 and SIMD32; a width that
    /// would spill is skipped, as the driver would not use it).
    pub fn verify(&self, shader: &nir::Shader, simd: &[u32]) -> VerifyOutcome {
        self.verify_keyed(shader, &Key::default(), simd)
    }

    /// [`Compiler::verify`] of `shader` with `key` applied first, as `compile` applies it. The
    /// stage and form checks run once, in [`Compiler::keyed`]; what they refuse is
    /// UNSUPPORTED with their message.
    pub fn verify_keyed(&self, shader: &nir::Shader, key: &Key, simd: &[u32]) -> VerifyOutcome {
        let options = CompileOptions {
            simd: simd.to_vec(),
            key: key.clone(),
            binding: BindingModel::Gpucc,
        };
        self.verify_options(shader, &options)
    }

    /// [`Compiler::verify`] of the program `compile` makes with `options`: key, widths (none:
    /// SIMD8, 16 and 32) and binding model.
    pub fn verify_options(&self, shader: &nir::Shader, options: &CompileOptions) -> VerifyOutcome {
        /// Input sets per shader for the etnaviv check (Intel's check uses its own three).
        const INPUT_SETS: usize = 3;
        let simd = &options.simd[..];
        let keyed = match self.keyed(shader, &options.key) {
            Ok(k) => k,
            Err(CompileError::Unsupported(why)) => return VerifyOutcome::Unsupported(why),
            Err(e) => return VerifyOutcome::Unsupported(e.to_string()),
        };
        let shader: &nir::Shader = &keyed;
        match &self.backend {
            Backend::Etnaviv(ctx) => etnaviv::compiler::verify(ctx, shader, INPUT_SETS),
            Backend::Intel(ctx) => {
                let widths = if simd.is_empty() {
                    &[8, 16, 32][..]
                } else {
                    simd
                };
                let mut outcome = VerifyOutcome::Pass;
                let mut memo = intel::fs::SetMemo::default();
                for (i, &w) in widths.iter().enumerate() {
                    let layout = intel::fs::Layout {
                        binding: options.binding,
                        input_slots_valid: options.key.input_slots_valid,
                    };
                    match intel::fs::verify_laid_out(ctx, shader, w, layout, &mut memo) {
                        VerifyOutcome::Pass => {}
                        // Only the first width decides whether the shader is supported.
                        VerifyOutcome::Unsupported(_) if i > 0 => {}
                        other => {
                            outcome = other;
                            break;
                        }
                    }
                }
                outcome
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Compiler>();
    }
}
