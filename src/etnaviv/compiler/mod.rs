//! The etnaviv backend: NIR in, [`ShaderObject`] out.
//!
//! The passes, in order: [`from_nir::lower`] (target lowering into the value-based IR), the
//! [`pipeline::PASSES`] (the [`opt`] passes that remove MOVs and SETs translation left,
//! inline immediates, [`consts::one_const`]: one uniform register per instruction,
//! trivial-branch cleanup), [`alloc::allocate`] (virtual register classes on the shared
//! [`regs::RegFile`]) and [`emit::emit`] (re-swizzling, constant placement, dropping the
//! self-moves and the jumps they leave empty, encoding), then the limit checks.
//! [`verify`] runs the result on the simulator against the NIR interpreter.

pub mod alloc;
pub mod alloc_check;
pub mod consts;
mod context;
pub mod dialect;
pub mod emit;
pub mod from_nir;
pub mod ir;
pub mod opt;
pub mod pipeline;
mod print;
pub mod regs;
pub mod validate;
pub mod verify;

pub use context::{Context, Options};
pub use verify::{verify, VerifyOutcome};

/// Why a compile failed: the one error type of every backend (see [`crate::error`]).
pub use crate::error::CompileError;
