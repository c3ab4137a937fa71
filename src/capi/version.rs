//! Library version, as a string; the header carries the same numbers as macros.

use std::ffi::c_char;

/// The library version as "MAJOR.MINOR.PATCH" (the same numbers as the GPUCC_VERSION_* macros
/// of the header the driver was built against, unless it loaded a different library). Static;
/// never NULL.
#[no_mangle]
pub extern "C" fn gpucc_version() -> *const c_char {
    const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr().cast()
}
