//! Vivante GC cores (etnaviv): core specs, ISA, simulator and backend.

pub mod isa;
pub mod sim;
pub mod specs;
pub mod tool;
