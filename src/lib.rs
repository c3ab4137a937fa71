//! gpucc: a shader compiler backend for Intel Gen4–Gen9 EUs and Vivante GC cores.
//!
//! The map of the crate follows the data flow: [`nir`] is the input IR and its reference
//! interpreter, [`ra`] the target-neutral register allocator, [`intel`] and [`etnaviv`] the two
//! backends with their ISA layers and simulators, [`drm`] the kernel interface, and `capi` the C
//! ABI on top. Dependencies point one way: `nir` and `ra` know nothing of targets.

pub mod capi;
pub mod compiler;
pub mod debug;
pub mod drm;
pub mod error;
pub mod etnaviv;
pub mod form;
pub mod intel;
pub mod key;
pub mod nir;
#[cfg(feature = "rig")]
pub mod piglit;
pub mod pipeline;
pub mod program;
pub mod ra;
pub mod shader_log;
pub mod stage_check;
pub mod target;
pub mod util;
pub mod verify;
