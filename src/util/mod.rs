//! Small helpers shared by every part of the compiler.

pub mod bitset;
pub mod rng;
