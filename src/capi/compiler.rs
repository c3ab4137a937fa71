//! `gpucc_compiler`: one per target, shareable across threads.

use std::ffi::{c_char, c_void, CStr, CString};

use super::log::{install_logger, LogCallback, Sink};
use super::status::{guard, write_out, Error, Status};
use crate::target::Target;

/// A compiler handle (opaque to C): the compiler and its target name as a C string.
pub struct Compiler {
    pub(crate) inner: crate::compiler::Compiler,
    target_name: CString,
    /// The driver's log callback (gpucc_compiler_set_log_callback).
    pub(crate) log: std::sync::RwLock<Option<Sink>>,
}

/// Creates a compiler for a target named as on the command line: an Intel platform by Mesa's
/// short name (brw g4x ilk snb ivb hsw bdw skl) or a Vivante preset by model (gc400 gc2000
/// gc3000 gc7000). The name of a custom Vivante core (gpucc_compiler_create_etnaviv,
/// gpucc_device_target) is known too, in the process that made the core. An unknown name gives
/// GPUCC_STATUS_INVALID_ARGUMENT and a message listing the valid names.
///
/// Thread safety: a compiler may be used from any number of threads at once; only
/// gpucc_compiler_set_log_callback changes it (see there). Destroy it with gpucc_compiler_destroy once no thread uses it.
#[no_mangle]
pub extern "C" fn gpucc_compiler_create(target: *const c_char, out: *mut *mut Compiler) -> Status {
    guard("gpucc_compiler_create", || {
        if out.is_null() {
            return Err(Error::invalid("gpucc_compiler_create: out is NULL"));
        }
        if target.is_null() {
            return Err(Error::invalid("gpucc_compiler_create: target is NULL"));
        }
        // SAFETY: `target` is non-NULL and the header requires a NUL-terminated string.
        let name = unsafe { CStr::from_ptr(target) };
        let name = name
            .to_str()
            .map_err(|_| Error::invalid("gpucc_compiler_create: target name is not UTF-8"))?;
        let target = Target::from_name(name).map_err(|e| Error::invalid(e.to_string()))?;
        write_out(out, Compiler::into_handle(target), "out")
    })
}

impl Compiler {
    /// A new compiler for `target` as a C handle (gpucc_compiler_destroy frees it).
    pub(crate) fn into_handle(target: Target) -> *mut Compiler {
        let inner = crate::compiler::Compiler::for_target(target);
        let target_name = CString::new(inner.target().name()).unwrap_or_default();
        let compiler = Compiler {
            inner,
            target_name,
            log: std::sync::RwLock::new(None),
        };
        Box::into_raw(Box::new(compiler))
    }
}

/// Destroys a compiler. NULL is accepted and ignored.
#[no_mangle]
pub extern "C" fn gpucc_compiler_destroy(compiler: *mut Compiler) {
    guard("gpucc_compiler_destroy", || {
        if !compiler.is_null() {
            // SAFETY: non-NULL compilers only come from Box::into_raw in gpucc_compiler_create,
            // and the caller gives up the handle by destroying it.
            drop(unsafe { Box::from_raw(compiler) });
        }
        Ok(())
    });
}

/// The name of the target a compiler was created for (never NULL; valid while the compiler
/// lives): the canonical name (an alias given to gpucc_compiler_create, such as "vlv", comes
/// back as "byt"); for a Vivante core given by its values, the preset's name ("gc2000") when
/// every value is the preset's, else "gc<model>-r<revision>-<fingerprint>" (see
/// gpucc_etna_core). Returns "" for a NULL compiler.
#[no_mangle]
pub extern "C" fn gpucc_compiler_target(compiler: *const Compiler) -> *const c_char {
    // SAFETY: a non-NULL compiler is a live handle from gpucc_compiler_create.
    match unsafe { compiler.as_ref() } {
        Some(c) => c.target_name.as_ptr(),
        None => c"".as_ptr(),
    }
}

/// The GPU family of a target, for drivers that serve both.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Family {
    /// Intel Gen EUs (i965 generations).
    #[default]
    Intel = 0,
    /// Vivante GC cores (etnaviv).
    Etnaviv = 1,
}

/// The family of a compiler's target, written to `out`.
#[no_mangle]
pub extern "C" fn gpucc_compiler_family(compiler: *const Compiler, out: *mut Family) -> Status {
    guard("gpucc_compiler_family", || {
        // SAFETY: a non-NULL compiler is a live handle from gpucc_compiler_create.
        let c = unsafe { compiler.as_ref() }
            .ok_or_else(|| Error::invalid("gpucc_compiler_family: compiler is NULL"))?;
        let family = match c.inner.target().family() {
            crate::target::Family::Intel => Family::Intel,
            crate::target::Family::Etnaviv => Family::Etnaviv,
        };
        write_out(out, family, "out")
    })
}

/// Sets the function that receives a compiler's statistics lines and performance warnings,
/// with `user_data` passed back to it (Mesa's `brw_compiler::shader_debug_log` and
/// `shader_perf_log`). `user_data` is the compiler's default; a compile whose options set
/// `log_data` (Mesa's per-compile `brw_compile_params::log_data`, a driver's context) passes
/// that to the callback instead. NULL `callback` turns logging off.
///
/// Call it before the compiler is shared between threads: setting it while another thread
/// compiles with the same compiler gives that compile the old or the new callback.
///
/// Statistics come once per program and SIMD width, in Mesa 23.3's shader-db wording
/// (`FS SIMD8 shader: 12 inst, 0 loops, 136 cycles, 0:0 spills:fills, 1 sends, scheduled with
/// mode top-down, Promoted 0 constants, compacted 192 to 144 bytes.`; `VS vec4 shader: ...`;
/// etnaviv `FRAG shader: 5 instructions, 2 temps, 1 immediates, 0 loops`), so shader-db's
/// report reads them. If the process already has another `log` logger of this library's copy
/// of the `log` crate (only possible when gpucc is linked into a Rust program), that logger
/// receives the records instead.
#[no_mangle]
pub extern "C" fn gpucc_compiler_set_log_callback(
    compiler: *mut Compiler,
    callback: LogCallback,
    user_data: *mut c_void,
) -> Status {
    guard("gpucc_compiler_set_log_callback", || {
        // SAFETY: a non-NULL compiler is a live handle from gpucc_compiler_create.
        let c = unsafe { compiler.as_ref() }
            .ok_or_else(|| Error::invalid("gpucc_compiler_set_log_callback: compiler is NULL"))?;
        install_logger();
        let sink = callback.map(|callback| Sink::new(callback, user_data));
        *c.log.write().unwrap_or_else(|e| e.into_inner()) = sink;
        Ok(())
    })
}
