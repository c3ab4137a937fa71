//! Small helpers shared by every part of the compiler.

pub mod bitset;
pub mod fxhash;
pub mod groups;
pub mod rng;
pub mod source_error;
pub mod stack;
pub mod stamps;

pub use source_error::SourceError;
