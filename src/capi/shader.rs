//! `gpucc_shader`: a NIR shader imported from Mesa's nir_print text.

use std::ffi::{c_char, CString};

use super::status::{guard, write_out, Error, Status};
use crate::nir;

/// An imported shader (opaque to C).
pub struct Shader {
    pub(crate) nir: nir::Shader,
}

/// Borrows `len` bytes of caller text as UTF-8, naming the position of the first bad byte.
pub(crate) fn text_arg<'a>(text: *const c_char, len: usize, what: &str) -> Result<&'a str, Error> {
    if text.is_null() {
        return Err(Error::invalid(format!("{what} is NULL")));
    }
    if len > isize::MAX as usize {
        return Err(Error::invalid(format!("{what}: length {len} is too large")));
    }
    // SAFETY: `text` is non-NULL and the caller guarantees `len` readable bytes there (the
    // header's contract); len fits in isize as `from_raw_parts` requires. The bytes are only
    // borrowed for the duration of the call.
    let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len) };
    std::str::from_utf8(bytes).map_err(|e| {
        let upto = &bytes[..e.valid_up_to()];
        let line = 1 + upto.iter().filter(|&&b| b == b'\n').count();
        let col = 1 + upto.iter().rev().take_while(|&&b| b != b'\n').count();
        Error::new(
            Status::ParseError,
            format!("{line}:{col}: invalid UTF-8 in {what}"),
        )
    })
}

/// Parses Mesa nir_print text (`len` bytes at `text`, not necessarily NUL-terminated) and
/// validates it. On a syntax or validation error returns GPUCC_STATUS_PARSE_ERROR with a message
/// of the form "line:col: what was expected". Bounds: SSA ids below 2^22 and control flow
/// nested at most 200 deep, which parses on any thread stack (128 KiB included).
///
/// Thread safety: a shader may be printed or compiled from several threads at once; destroy it
/// from one thread when no other uses it.
#[no_mangle]
pub extern "C" fn gpucc_shader_from_nir_text(
    text: *const c_char,
    len: usize,
    out: *mut *mut Shader,
) -> Status {
    guard("gpucc_shader_from_nir_text", || {
        if out.is_null() {
            return Err(Error::invalid("gpucc_shader_from_nir_text: out is NULL"));
        }
        let text = text_arg(text, len, "gpucc_shader_from_nir_text: text")?;
        let shader = nir::parse(text).map_err(|e| Error::new(Status::ParseError, e.to_string()))?;
        nir::validate(&shader)
            .map_err(|e| Error::new(Status::ParseError, format!("invalid shader: {e}")))?;
        write_out(out, Box::into_raw(Box::new(Shader { nir: shader })), "out")
    })
}

/// Prints a shader in Mesa's nir_print syntax. The string is NUL-terminated and owned by the
/// caller: free it with gpucc_string_free.
#[no_mangle]
pub extern "C" fn gpucc_shader_print(shader: *const Shader, out: *mut *mut c_char) -> Status {
    guard("gpucc_shader_print", || {
        if out.is_null() {
            return Err(Error::invalid("gpucc_shader_print: out is NULL"));
        }
        // SAFETY: a non-NULL shader is a live handle from gpucc_shader_from_nir_text.
        let shader = unsafe { shader.as_ref() }
            .ok_or_else(|| Error::invalid("gpucc_shader_print: shader is NULL"))?;
        write_out(out, into_c_string(nir::print(&shader.nir)), "out")
    })
}

/// Destroys a shader. NULL is accepted and ignored.
#[no_mangle]
pub extern "C" fn gpucc_shader_destroy(shader: *mut Shader) {
    guard("gpucc_shader_destroy", || {
        if !shader.is_null() {
            // SAFETY: non-NULL shaders only come from Box::into_raw in this module, and the
            // caller gives up the handle by destroying it.
            drop(unsafe { Box::from_raw(shader) });
        }
        Ok(())
    });
}

/// Frees a string returned by gpucc (for example by gpucc_shader_print). NULL is accepted.
#[no_mangle]
pub extern "C" fn gpucc_string_free(s: *mut c_char) {
    guard("gpucc_string_free", || {
        if !s.is_null() {
            // SAFETY: every string gpucc hands out comes from CString::into_raw in
            // `into_c_string`, and the caller gives it back exactly once.
            drop(unsafe { CString::from_raw(s) });
        }
        Ok(())
    });
}

/// Hands a Rust string to C; interior NUL bytes (which nir_print never produces) are dropped.
pub(crate) fn into_c_string(s: String) -> *mut c_char {
    let bytes: Vec<u8> = s.into_bytes().into_iter().filter(|&b| b != 0).collect();
    CString::new(bytes).unwrap_or_default().into_raw()
}
