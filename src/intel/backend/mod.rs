//! The Intel layer above the two backends, as Mesa's `brw_compile_*` entry points sit above
//! its scalar and vec4 visitors: the per-device [`Context`] that picks the backend, the
//! scalar backend's [`simd`] width choice, and what both backends share: the [`Options`] of a
//! compile, the [`binding`] layout, the [`vertex`] facts, and the [`verify`] harness that runs
//! either backend's kernel on the EU simulator against the reference interpreter.
//!
//! The backends (`intel::fs`, `intel::vec4`) import from the leaf modules here
//! ([`binding`], [`options`], [`vertex`]) and never from each other; [`context`], [`simd`]
//! and [`verify`] import the backends.

pub mod binding;
pub mod context;
pub mod options;
pub mod simd;
pub mod tcs;
pub mod tess;
pub mod verify;
pub mod vertex;

pub use binding::BindingModel;
pub use context::Context;
pub use options::Options;
pub use simd::compute_width_wanted;
pub use verify::{
    verify, verify_bound, verify_kernel, verify_kernel_with, verify_laid_out, verify_with, Layout,
    SetMemo,
};

/// Why a compile failed (the crate's one error type).
pub use crate::error::CompileError;
/// The verdict of running a compiled shader against the interpreter, shared with etnaviv.
pub use crate::verify::VerifyOutcome;
