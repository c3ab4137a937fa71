//! The C ABI called from Rust tests: the last error as a string, and a compile from NIR text
//! that asserts each step succeeds.

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use gpucc::capi::*;
use gpucc::program::Program;

/// `gpucc_last_error()` as a Rust string.
pub fn last_error() -> String {
    // SAFETY: gpucc_last_error returns a valid NUL-terminated string owned by the library
    // for the calling thread, until its next call.
    unsafe { CStr::from_ptr(gpucc_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Compiles NIR `text` for `target` through the C ABI (the backend chooses the widths),
/// asserting that every call succeeds; the caller destroys the program.
pub fn compile(target: &str, text: &str) -> *mut Program {
    let target = CString::new(target).unwrap();
    let (mut compiler, mut shader, mut program) =
        (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    assert_eq!(
        gpucc_compiler_create(target.as_ptr(), &mut compiler),
        Status::Ok
    );
    assert_eq!(
        gpucc_shader_from_nir_text(text.as_ptr() as *const c_char, text.len(), &mut shader),
        Status::Ok,
        "{}",
        last_error()
    );
    assert_eq!(
        gpucc_compile(compiler, shader, ptr::null(), &mut program),
        Status::Ok,
        "{}",
        last_error()
    );
    gpucc_shader_destroy(shader);
    gpucc_compiler_destroy(compiler);
    program
}
