//! Status codes, the per-thread last-error text, and the guard every entry point runs under.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Result of every fallible gpucc call.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Success.
    Ok = 0,
    /// A required pointer was NULL, a name was unknown, or a value was out of range.
    InvalidArgument = 1,
    /// The shader text (or other textual input) could not be parsed or failed validation; the
    /// message names the line and column.
    ParseError = 2,
    /// The input uses a feature the target or gpucc does not support; the message names it.
    Unsupported = 3,
    /// An allocation failed.
    OutOfMemory = 4,
    /// A kernel call on a device failed; the message names the ioctl and the errno text.
    DeviceError = 5,
    /// A bug in gpucc (including a caught panic); the message says what happened.
    Internal = 6,
}

/// An error on its way to the C caller: a status and the message for `gpucc_last_error`.
#[derive(Debug)]
pub(crate) struct Error {
    pub status: Status,
    pub message: String,
}

impl Error {
    pub fn new(status: Status, message: impl Into<String>) -> Error {
        Error {
            status,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(Status::InvalidArgument, message)
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// The longest text `gpucc_last_error()` returns: messages quote their input (a target name,
/// a line of NIR), and an input of megabytes must not come back whole.
const MAX_LAST_ERROR: usize = 4096;

fn set_last_error(message: &str) {
    let message = crate::util::source_error::bounded(message, MAX_LAST_ERROR);
    // Interior NUL bytes cannot be represented in a C string; show them visibly instead.
    let text = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    // During thread teardown (a call from an atexit handler, after the main thread's
    // thread-locals are gone) the text cannot be kept; the status still reaches the caller,
    // and a panic here would abort the process from inside the C ABI.
    let _ = LAST_ERROR.try_with(|e| *e.borrow_mut() = text);
}

/// Runs an entry point's body: catches panics, records the error text, returns the status.
///
/// `entry` is the C name of the entry point, used in messages and by the `GPUCC_TEST_PANIC`
/// hook.
pub(crate) fn guard(entry: &'static str, body: impl FnOnce() -> Result<(), Error>) -> Status {
    let result = catch_unwind(AssertUnwindSafe(|| {
        if std::env::var_os("GPUCC_TEST_PANIC").is_some_and(|v| v == entry) {
            panic!("forced panic in {entry} (GPUCC_TEST_PANIC)");
        }
        body()
    }));
    let outcome = match result {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic payload".to_string());
            Err(Error::new(
                Status::Internal,
                format!("internal error in {entry}: {what}"),
            ))
        }
    };
    match outcome {
        Ok(()) => {
            set_last_error("");
            Status::Ok
        }
        Err(e) => {
            set_last_error(&e.message);
            e.status
        }
    }
}

/// The message of the last failed gpucc call on this thread, or "" after a successful call.
///
/// The pointer stays valid until the next gpucc call on the same thread; copy the text to keep
/// it. Never NULL.
#[no_mangle]
pub extern "C" fn gpucc_last_error() -> *const c_char {
    // Reading a thread-local cannot panic in a way that unwinds here except during thread
    // teardown, where `try_with` fails and we return a static empty string instead.
    LAST_ERROR
        .try_with(|e| e.borrow().as_ptr())
        .unwrap_or(c"".as_ptr())
}

/// A short, static name for a status code (for logs); never NULL. Takes the code as a plain
/// integer, not as `gpucc_status`: C lets a caller pass any int where the enum is expected,
/// and a Rust enum holding a value outside its variants would be undefined behaviour. Values
/// that are no status give "UNKNOWN".
#[no_mangle]
pub extern "C" fn gpucc_status_name(status: i32) -> *const c_char {
    const NAMES: [(Status, &std::ffi::CStr); 7] = [
        (Status::Ok, c"OK"),
        (Status::InvalidArgument, c"INVALID_ARGUMENT"),
        (Status::ParseError, c"PARSE_ERROR"),
        (Status::Unsupported, c"UNSUPPORTED"),
        (Status::OutOfMemory, c"OUT_OF_MEMORY"),
        (Status::DeviceError, c"DEVICE_ERROR"),
        (Status::Internal, c"INTERNAL"),
    ];
    NAMES
        .iter()
        .find(|(s, _)| *s as i32 == status)
        .map_or(c"UNKNOWN", |(_, name)| name)
        .as_ptr()
}

/// Stores `value` through a caller's out-pointer, which must not be NULL.
pub(crate) fn write_out<T>(out: *mut T, value: T, what: &str) -> Result<(), Error> {
    if out.is_null() {
        return Err(Error::invalid(format!("{what} is NULL")));
    }
    // SAFETY: `out` is non-NULL and, per the header's contract for out-pointers, points to
    // writable storage for one T owned by the caller. `write` does not read or drop the old
    // (possibly uninitialised) contents.
    unsafe { out.write(value) };
    Ok(())
}
