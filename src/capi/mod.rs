//! The C ABI (include/gpucc.h is generated from this module by cbindgen).
//!
//! Conventions every entry point follows, stated once here and in the header:
//!
//! - Objects are opaque handles with `_create`/`_destroy` pairs (or a constructor named after
//!   its input); every `_destroy` accepts NULL.
//! - Every fallible call returns a [`Status`]. On failure the message is kept per thread and
//!   read with `gpucc_last_error()`; a successful call clears it. The per-thread form was chosen
//!   over error objects because it costs the driver nothing on the success path and matches how
//!   Mesa drivers log compile failures.
//! - No panic crosses the ABI: every entry point runs under `catch_unwind` (see [`guard`]), and a
//!   panic becomes `GPUCC_STATUS_INTERNAL` with the panic message.
//! - NULL where an object or out-pointer is required is `GPUCC_STATUS_INVALID_ARGUMENT`; texts
//!   come with an explicit length and nothing reads past it.
//! - Thread safety is stated per object in the header: a compiler may be used from many threads
//!   at once; a shader may be read (printed, compiled) from many threads but destroyed by one.
//!
//! Test hook: when the environment variable `GPUCC_TEST_PANIC` names an entry point (for
//! example `gpucc_shader_print`), that entry point panics on purpose inside its guard. The C
//! tests use this to show that a panic comes back as `GPUCC_STATUS_INTERNAL`.

// The entry points take raw pointers from C and are declared safe `extern "C"` functions: their
// contract (live handles, `len` readable bytes, writable out-pointers) is the header's, checked
// as far as C allows (NULL), and Rust code never calls them except to test the ABI. Marking them
// `unsafe fn` would change nothing for C callers.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

mod builder;
mod compiler;
mod compute_info;
mod device;
mod etna_core;
mod etna_gpu;
mod gs_info;
mod info;
mod log;
mod options;
mod program;
mod shader;
mod sized;
mod stage_io;
mod status;
mod tess_info;
mod version;

pub use builder::replay::replay;
pub use builder::*;
pub use compiler::*;
pub use compute_info::*;
pub use device::*;
pub use etna_core::*;
pub use info::*;
pub use log::*;
pub use options::*;
pub use program::*;
pub use shader::*;
pub use stage_io::*;
pub use status::*;
pub use version::*;
