//! The driver's log for statistics and performance warnings (Mesa's
//! `brw_compiler::shader_debug_log` and `shader_perf_log`), which
//! `gpucc_compiler_set_log_callback` (with the compiler handle, `capi/compiler.rs`) sets.
//!
//! Inside gpucc the messages are `log` records (see [`crate::shader_log`]). This module is
//! the `log` logger of a C host: installed once, it hands each gpucc record to the callback of
//! the compiler whose compile is running on the calling thread. A compile runs on its caller's
//! thread from start to end, so a thread-local names that compiler; records from elsewhere
//! (no compile on the thread, no callback) are dropped.

use std::cell::Cell;
use std::ffi::{c_char, c_void, CString};
use std::sync::Once;

/// What a log message is, as Mesa's brw compiler tells its two callbacks apart.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogKind {
    /// Statistics: one line per program and SIMD width in Mesa's shader-db wording
    /// (`brw_compiler::shader_debug_log`; etnaviv's SHADER_INFO debug message).
    Stats = 0,
    /// A performance warning: a SIMD width not built, register spilling
    /// (`brw_compiler::shader_perf_log`).
    Perf = 1,
}

/// The driver's log function: `user_data` is the compile's `gpucc_compile_options.log_data`,
/// or when that is NULL (or no options are given) the one given to
/// gpucc_compiler_set_log_callback; then the kind, and a NUL-terminated message without a trailing newline, valid during the call only.
/// Called on the thread that called gpucc_compile, during that call.
pub type LogCallback =
    Option<unsafe extern "C" fn(user_data: *mut c_void, kind: LogKind, message: *const c_char)>;

/// A compiler's callback and its user data.
#[derive(Clone, Copy)]
pub(crate) struct Sink {
    callback: unsafe extern "C" fn(*mut c_void, LogKind, *const c_char),
    user_data: *mut c_void,
}

impl Sink {
    pub(crate) fn new(
        callback: unsafe extern "C" fn(*mut c_void, LogKind, *const c_char),
        user_data: *mut c_void,
    ) -> Sink {
        Sink {
            callback,
            user_data,
        }
    }

    /// This sink with a compile's own `log_data` (`gpucc_compile_options.log_data`) in place
    /// of the compiler's user data, when the compile gives one.
    pub(crate) fn with_user_data(self, log_data: *mut c_void) -> Sink {
        if log_data.is_null() {
            self
        } else {
            Sink {
                user_data: log_data,
                ..self
            }
        }
    }
}

// SAFETY: the sink is only called on a thread that runs gpucc_compile with the compiler that
// holds it; the header tells the driver that its callback runs on whichever thread compiles,
// with the user data it registered or the log_data of the compile. gpucc never dereferences
// `user_data`.
unsafe impl Send for Sink {}
// SAFETY: as above; the sink is copied out, never mutated through a shared reference.
unsafe impl Sync for Sink {}

thread_local! {
    /// The sink of the compile running on this thread.
    static CURRENT: Cell<Option<Sink>> = const { Cell::new(None) };
}

/// The `log` logger of a C host (see the module documentation).
struct CallbackLogger;

impl log::Log for CallbackLogger {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.target().starts_with("gpucc::")
            && CURRENT.try_with(|c| c.get().is_some()).unwrap_or(false)
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let kind = if record.target() == crate::shader_log::PERF {
            LogKind::Perf
        } else {
            LogKind::Stats
        };
        let text = record.args().to_string().replace('\0', " ");
        let Ok(text) = CString::new(text) else {
            return;
        };
        if let Ok(Some(sink)) = CURRENT.try_with(|c| c.get()) {
            // SAFETY: the driver registered this function for this compiler and promised it
            // can be called with its user data and a NUL-terminated string valid for the call.
            unsafe { (sink.callback)(sink.user_data, kind, text.as_ptr()) };
        }
    }

    fn flush(&self) {}
}

static LOGGER: CallbackLogger = CallbackLogger;
static INSTALL: Once = Once::new();

/// Makes [`CallbackLogger`] the process's `log` logger, once (see
/// `gpucc_compiler_set_log_callback` for when another logger keeps the records).
pub(crate) fn install_logger() {
    INSTALL.call_once(|| {
        if log::set_logger(&LOGGER).is_ok() {
            log::set_max_level(log::LevelFilter::Info);
        }
    });
}

/// Runs `f` with `sink` receiving this thread's gpucc log records.
pub(crate) fn with_sink<T>(sink: Option<Sink>, f: impl FnOnce() -> T) -> T {
    let Some(sink) = sink else {
        return f();
    };
    /// Restores the previous sink also when `f` unwinds (the guard turns a panic into a
    /// status; the next compile on this thread must not log to this compiler).
    struct Restore(Option<Sink>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.replace(Some(sink))));
    f()
}
