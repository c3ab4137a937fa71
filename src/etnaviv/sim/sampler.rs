//! Texture sampling for the simulator goes through the target-neutral model of the NIR
//! interpreter ([`crate::nir::interp::sampler`]), so that running a shader's NIR and running
//! its Vivante binary sample the same texels. This module only re-exports it.

pub use crate::nir::interp::sampler::{DefaultSampler, Sampler, TexRequest};
