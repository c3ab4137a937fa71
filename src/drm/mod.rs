//! The kernel interface: find the GPU behind a render node, pick the compiler target for it,
//! place programs in GPU memory and submit work, through the i915 and etnaviv ioctls.
//!
//! Layers, bottom up: [`uapi`] (the kernel's structs and request numbers), [`ioctl`] (the only
//! code that makes system calls, behind a trait with a recording [`fake`]), [`node`] (render
//! node discovery), then one module per driver with its buffer objects, submission and GPU
//! command builders, and [`device`] tying them together.

pub mod device;
pub mod error;
pub mod etnaviv;
pub mod fake;
pub mod i915;
pub mod ioctl;
pub mod node;
pub mod sim;
pub mod uapi;

pub use device::{Device, Gpu};
pub use error::{Error, Result};
pub use ioctl::{DriverVersion, FdIoctl, Ioctl, Mapping};
pub use node::{format_nodes, list_render_nodes, NodeInfo};
