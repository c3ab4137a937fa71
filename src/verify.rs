//! The outcome of checking a compiled shader against the reference interpreter, shared by both
//! backends and printed by `gpucc verify` in a format outside checks rely on.

use std::fmt;

use crate::nir::interp::{is_inexact, Environment, MathError, RunResult};
use crate::nir::ir::{InstrKind, Shader};

/// What running a compiled shader on the simulator and the NIR on the interpreter showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyOutcome {
    /// Every output of every invocation agreed.
    Pass,
    /// The first mismatch.
    Fail {
        invocation: usize,
        output: String,
        expected: String,
        got: String,
    },
    /// The shader uses something the compiler (or the check) does not handle; names it.
    Unsupported(String),
    /// Compiling or running failed for another reason.
    Error(String),
}

impl VerifyOutcome {
    /// The `gpucc verify` line for `file`: `PASS file`, `FAIL file: ...` or
    /// `UNSUPPORTED file: feature`. An error counts as a failure.
    pub fn line(&self, file: &str) -> String {
        match self {
            VerifyOutcome::Pass => format!("PASS {file}"),
            VerifyOutcome::Fail {
                invocation,
                output,
                expected,
                got,
            } => format!(
                "FAIL {file}: first mismatch (invocation {invocation}, output {output}, \
                 expected {expected}, got {got})"
            ),
            VerifyOutcome::Unsupported(f) => format!("UNSUPPORTED {file}: {f}"),
            VerifyOutcome::Error(e) => format!("FAIL {file}: {e}"),
        }
    }
}

impl fmt::Display for VerifyOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line("shader"))
    }
}

/// The reference runs of one input set under each [`MathError::PROBES`] error, made the first
/// time a mismatch needs them (most checks never do): a component whose value moves out of the
/// tolerance under a few units of error in the inexact operations is decided by the hardware's
/// rounding, not by the compiler, so a mismatch on it is not claimed (see
/// [`crate::nir::interp::math_error`]).
pub struct MathProbes<'a> {
    shader: &'a Shader,
    run: Box<dyn Fn(MathError) -> Option<RunResult> + 'a>,
    /// The probe runs, or `None` inside when the shader has no inexact operation (then no
    /// probe is run); decided at the first mismatch.
    runs: Option<Option<Vec<Option<RunResult>>>>,
}

impl<'a> MathProbes<'a> {
    /// `run` runs the set's reference with the given error; `None` when that run fails (a
    /// loop that no longer ends, an undefined value): control flow that depends on the
    /// rounding, so nothing of the set can be judged against it.
    pub fn new(shader: &'a Shader, run: impl Fn(MathError) -> Option<RunResult> + 'a) -> Self {
        MathProbes {
            shader,
            run: Box::new(run),
            runs: None,
        }
    }

    /// Probes that rerun `env`'s reference of `n` invocations (undefined values back to
    /// their default bits, so only the math error differs from the exact run).
    pub fn rerunning(shader: &'a Shader, env: Environment, n: usize) -> Self {
        let env = std::cell::RefCell::new(env);
        MathProbes::new(shader, move |e| {
            let mut env = env.borrow_mut();
            env.undefined_bits = 0;
            env.math_error = Some(e);
            crate::nir::interp::run(shader, &env, n).ok()
        })
    }

    /// The probe runs; empty when the shader has no inexact operation.
    fn runs(&mut self) -> &[Option<RunResult>] {
        let (run, shader) = (&self.run, self.shader);
        self.runs
            .get_or_insert_with(|| {
                has_inexact_math(shader)
                    .then(|| MathError::PROBES.iter().map(|&e| run(e)).collect())
            })
            .as_deref()
            .unwrap_or(&[])
    }

    /// Whether output `slot` component `comp` of invocation `inv`, `expected` in the exact run,
    /// moves out of tolerance (`close`) under the probes' error.
    pub fn ill_conditioned(
        &mut self,
        inv: usize,
        slot: u32,
        comp: usize,
        expected: u64,
        close: impl Fn(u64, u64) -> bool,
    ) -> bool {
        self.runs().iter().any(|r| {
            let v = r
                .as_ref()
                .and_then(|r| r.invocations.get(inv))
                .and_then(|i| i.outputs.get(&slot))
                .and_then(|o| o.comps.get(comp).copied().flatten());
            v.map_or(true, |v| !close(expected, v))
        })
    }

    /// Whether invocation `inv`'s discard, `discarded` in the exact run, changes under the
    /// probes' error.
    pub fn discard_ill_conditioned(&mut self, inv: usize, discarded: bool) -> bool {
        self.runs().iter().any(|r| {
            r.as_ref()
                .and_then(|r| r.invocations.get(inv))
                .map_or(true, |i| i.discarded != discarded)
        })
    }
}

/// Whether a compiled shader's float outputs may differ from the interpreter's by rounding, so
/// verification compares them within a tolerance: hardware math and multiply-adds
/// ([`is_inexact`]), dot products (one hardware instruction on Vivante, whose accumulation
/// order and intermediate rounding are the core's; Intel's NIR has them lowered already),
/// derivatives, and texture sampling (filtering and coordinate arithmetic in the sampler).
/// Every other shader's outputs must match the interpreter bit for bit.
pub fn uses_inexact_math(shader: &Shader) -> bool {
    use crate::nir::opcodes::AluOp;
    shader
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .any(|b| {
            b.instrs.iter().any(|i| match &i.kind {
                InstrKind::Alu(a) => {
                    is_inexact(a.op)
                        || a.op.name().starts_with("fdot")
                        || a.op == AluOp::fdph
                        || matches!(
                            a.op,
                            AluOp::fddx
                                | AluOp::fddy
                                | AluOp::fddx_coarse
                                | AluOp::fddy_coarse
                                | AluOp::fddx_fine
                                | AluOp::fddy_fine
                        )
                }
                InstrKind::Tex(_) => true,
                _ => false,
            })
        })
}

/// Whether any ALU instruction of `shader` is one whose hardware result is inexact.
pub fn has_inexact_math(shader: &Shader) -> bool {
    shader
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .any(|b| {
            b.instrs
                .iter()
                .any(|i| matches!(&i.kind, InstrKind::Alu(a) if is_inexact(a.op)))
        })
}
