//! Intel Gen4–Gen9 EUs: device table, EU ISA, simulator and the scalar backend.

pub mod cs_dispatch;
pub mod devinfo;
pub mod eu;
pub mod flow;
pub mod fs;
pub mod kernel;
pub mod msg;
pub mod sim;
pub mod ubo_ranges;
pub mod vec4;
pub mod vue;

pub use devinfo::DevInfo;
