//! Vivante GC cores (etnaviv): core specs, ISA, simulator and backend.

pub mod compiler;
pub mod features;
pub mod gpu;
pub mod isa;
pub mod params;
pub mod shader;
pub mod sim;
pub mod specs;
#[cfg(feature = "rig")]
pub mod tool;
