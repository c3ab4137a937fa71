//! Target-neutral NIR passes. Each is a plain `fn(&mut Shader) -> bool` that returns whether
//! it changed anything, works on every function body, and leaves the shader valid (the tests
//! run the validator after each one).
//!
//! Passes edit the instruction arena through [`crate::nir::edit`] and the helpers in [`util`]:
//! new instructions are appended to the arena and placed in a block's list; removed ones are
//! dropped from their block and the arena is compacted at the end, so `defs[..].instr` and
//! `Instr::block` stay consistent.

pub mod constant_folding;
pub mod copy_prop;
pub mod dce;
pub mod regs;
pub mod scalarize;
pub mod util;

pub use constant_folding::constant_folding;
pub use copy_prop::copy_prop;
pub use dce::dce;
pub use regs::{phis_to_regs, regs_to_ssa};
pub use scalarize::scalarize_alu;

pub(crate) use util::each_impl;
