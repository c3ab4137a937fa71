//! The compiler object: one per target, shared by every shader compiled for it.
//!
//! Everything that depends only on the target (device facts, register sets and their q-values)
//! lives in the backend context built here once, never per shader. A `Compiler` is
//! `Send + Sync`: drivers compile from several threads at once with one object.

use std::borrow::Cow;

pub use crate::error::CompileError;
use crate::etnaviv;
use crate::intel;
pub use crate::intel::backend::BindingModel;
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
    Intel(Box<intel::backend::Context>),
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

impl Compiler {
    pub fn new(target_name: &str) -> Result<Compiler, UnknownTarget> {
        Ok(Compiler::for_target(Target::from_name(target_name)?))
    }

    pub fn for_target(target: Target) -> Compiler {
        // Read GPUCC_DEBUG when a driver creates its compiler, not at its first compile, so
        // `GPUCC_DEBUG=help` and unknown-flag warnings come out at start-up.
        let _ = crate::debug::flags();
        let backend = match target {
            Target::Intel(devinfo) => {
                Backend::Intel(Box::new(intel::backend::Context::new(devinfo)))
            }
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
                let mut opts = intel::backend::Options::default();
                if !options.simd.is_empty() {
                    opts.simd = options.simd.clone();
                }
                opts.binding = options.binding;
                opts.input_slots_valid = options.key.input_slots_valid;
                opts.tcs_input_vertices = options.key.tcs_input_vertices;
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
                let mut memo = intel::backend::SetMemo::default();
                for (i, &w) in widths.iter().enumerate() {
                    let layout = intel::backend::Layout {
                        binding: options.binding,
                        input_slots_valid: options.key.input_slots_valid,
                        tcs_input_vertices: options.key.tcs_input_vertices,
                    };
                    match intel::backend::verify_laid_out(ctx, shader, w, layout, &mut memo) {
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
