//! Intel Gen4–Gen9 EUs: device table, EU ISA, simulator, the scalar (`fs`) and vec4
//! backends, and the [`backend`] layer above them that picks one.

pub mod backend;
pub mod cs_dispatch;
pub mod devinfo;
pub mod eu;
pub mod flow;
pub mod fs;
pub mod geometry;
pub mod kernel;
pub mod msg;
pub mod sim;
pub mod tcs;
pub mod tess;
pub mod ubo_ranges;
pub mod vec4;
pub mod vue;

pub use devinfo::DevInfo;
