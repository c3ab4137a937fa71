//! `gpucc_device` and `gpucc_bo`: a render node with the GPU behind it, and buffers placed in
//! its memory.
//!
//! Until compiled programs have their own handle, uploads take a byte blob (the program's
//! native code); `gpucc_program_upload` will wrap the same path.

use std::ffi::{c_char, CStr, CString};
use std::path::Path;

use super::compiler::Compiler;
use super::status::{guard, write_out, Error, Status};
use crate::drm;

/// An open render node (opaque to C).
pub struct Device {
    inner: drm::Device,
    target: CString,
}

/// A buffer object on a device (opaque to C).
pub struct Bo {
    inner: drm::device::Buffer,
}

impl Device {
    /// Wraps an already identified device as a C handle (for embedders and tests that open
    /// devices through the Rust API, e.g. over a test double).
    pub fn into_handle(inner: drm::Device) -> *mut Device {
        let target = CString::new(inner.target()).unwrap_or_default();
        Box::into_raw(Box::new(Device { inner, target }))
    }
}

/// The status a DRM-layer error maps to.
fn device_error(e: drm::Error) -> Error {
    let status = match &e {
        drm::Error::WrongDriver { .. } | drm::Error::Unsupported(_) => Status::Unsupported,
        drm::Error::Invalid(_) => Status::InvalidArgument,
        drm::Error::NoDevice | drm::Error::Open { .. } | drm::Error::Ioctl { .. } => {
            Status::DeviceError
        }
    };
    Error::new(status, e.to_string())
}

/// Opens a render node and identifies its GPU. `path` names the node (for example
/// "/dev/dri/renderD128"); NULL picks the first node driven by i915 or etnaviv.
///
/// Simulated node: the path "sim:ivb" (or "sim:hsw", "sim:bdw", "sim:skl") opens an
/// in-process model of an i915 render node that executes compute dispatches on gpucc's EU
/// simulator; with NULL, the environment variable GPUCC_SIM_NODE=<target> does the same.
///
/// Errors: GPUCC_STATUS_DEVICE_ERROR when no such node exists ("no i915 or etnaviv render
/// node found"), it cannot be opened, or an ioctl fails (the message names the ioctl and the
/// errno text); GPUCC_STATUS_UNSUPPORTED when the node belongs to another driver or the GPU
/// has no gpucc target.
///
/// Thread safety: a device may be used by one thread at a time.
#[no_mangle]
pub extern "C" fn gpucc_device_open(path: *const c_char, out: *mut *mut Device) -> Status {
    guard("gpucc_device_open", || {
        if out.is_null() {
            return Err(Error::invalid("gpucc_device_open: out is NULL"));
        }
        let path = if path.is_null() {
            None
        } else {
            // SAFETY: `path` is non-NULL and the header requires a NUL-terminated string.
            let c = unsafe { CStr::from_ptr(path) };
            Some(
                c.to_str()
                    .map_err(|_| Error::invalid("gpucc_device_open: path is not UTF-8"))?,
            )
        };
        let inner = drm::Device::open(path.map(Path::new)).map_err(device_error)?;
        write_out(out, Device::into_handle(inner), "out")
    })
}

/// Closes a device. NULL is accepted and ignored. Buffers must be destroyed first.
#[no_mangle]
pub extern "C" fn gpucc_device_destroy(dev: *mut Device) {
    guard("gpucc_device_destroy", || {
        if !dev.is_null() {
            // SAFETY: non-NULL devices only come from Box::into_raw in Device::into_handle,
            // and the caller gives up the handle by destroying it.
            drop(unsafe { Box::from_raw(dev) });
        }
        Ok(())
    });
}

/// The compiler target for the device's GPU, the name gpucc_compiler_create takes: the
/// platform on Intel ("ivb"); on Vivante the preset ("gc7000") when every value the kernel
/// reports is the preset's, else the custom core made from those values
/// ("gc880-r5124-0123abcd", see gpucc_etna_core). Owned by the device; "" for NULL.
#[no_mangle]
pub extern "C" fn gpucc_device_target(dev: *const Device) -> *const c_char {
    // SAFETY: a non-NULL device is a live handle from gpucc_device_open.
    match unsafe { dev.as_ref() } {
        Some(d) => d.target.as_ptr(),
        None => c"".as_ptr(),
    }
}

/// Creates a compiler for the device's target (gpucc_device_target): the Intel platform, or
/// the Vivante core as the kernel describes it (model, revision, feature words and limits,
/// as gpucc_compiler_create_etnaviv takes them), so a core without a preset compiles too.
#[no_mangle]
pub extern "C" fn gpucc_compiler_create_for_device(
    dev: *const Device,
    out: *mut *mut Compiler,
) -> Status {
    guard("gpucc_compiler_create_for_device", || {
        // SAFETY: a non-NULL device is a live handle from gpucc_device_open.
        let d = unsafe { dev.as_ref() }
            .ok_or_else(|| Error::invalid("gpucc_compiler_create_for_device: dev is NULL"))?;
        if out.is_null() {
            return Err(Error::invalid(
                "gpucc_compiler_create_for_device: out is NULL",
            ));
        }
        let target = d.inner.compiler_target().map_err(|e| {
            Error::new(
                Status::Internal,
                format!("gpucc_compiler_create_for_device: {e}"),
            )
        })?;
        write_out(out, Compiler::into_handle(target), "out")
    })
}

/// Copies `len` bytes at `data` into a new buffer object on the device (a program's code, a
/// data buffer). The buffer is at least `len` bytes, rounded up to a page.
#[no_mangle]
pub extern "C" fn gpucc_device_upload(
    dev: *mut Device,
    data: *const u8,
    len: usize,
    out: *mut *mut Bo,
) -> Status {
    guard("gpucc_device_upload", || {
        // SAFETY: a non-NULL device is a live handle from gpucc_device_open, used by one
        // thread at a time (the header's contract), so the exclusive borrow is unique.
        let d = unsafe { dev.as_mut() }
            .ok_or_else(|| Error::invalid("gpucc_device_upload: dev is NULL"))?;
        if out.is_null() {
            return Err(Error::invalid("gpucc_device_upload: out is NULL"));
        }
        if data.is_null() && len != 0 {
            return Err(Error::invalid("gpucc_device_upload: data is NULL"));
        }
        if len > isize::MAX as usize {
            return Err(Error::invalid(format!(
                "gpucc_device_upload: length {len} is too large"
            )));
        }
        let bytes: &[u8] = if len == 0 {
            &[]
        } else {
            // SAFETY: `data` is non-NULL with `len` readable bytes (the header's contract),
            // and `len` fits in isize; the slice is only read during this call.
            unsafe { std::slice::from_raw_parts(data, len) }
        };
        let inner = d.inner.upload(bytes).map_err(device_error)?;
        write_out(out, Box::into_raw(Box::new(Bo { inner })), "out")
    })
}

/// Places a compiled program's machine code in a new buffer object on the device (the code
/// gpucc_program_code returns, laid out as the kernel-ready binary: every SIMD variant back to
/// back on Intel, the instruction words on Vivante). The program must have been compiled for the
/// device's target; otherwise GPUCC_STATUS_INVALID_ARGUMENT names both. A program with
/// relocations (gpucc_program_info's num_relocs) cannot run as it is and is refused the same
/// way: patch a copy of its code and upload that with gpucc_device_upload.
#[no_mangle]
pub extern "C" fn gpucc_program_upload(
    dev: *mut Device,
    program: *const crate::program::Program,
    out: *mut *mut Bo,
) -> Status {
    guard("gpucc_program_upload", || {
        // SAFETY: a non-NULL device is a live handle from gpucc_device_open, used by one
        // thread at a time (the header's contract), so the exclusive borrow is unique; a
        // non-NULL program is a live handle from gpucc_compile.
        let (d, p) = unsafe { (dev.as_mut(), program.as_ref()) };
        let d = d.ok_or_else(|| Error::invalid("gpucc_program_upload: dev is NULL"))?;
        let p = p.ok_or_else(|| Error::invalid("gpucc_program_upload: program is NULL"))?;
        if out.is_null() {
            return Err(Error::invalid("gpucc_program_upload: out is NULL"));
        }
        if p.target.name() != d.inner.target() {
            return Err(Error::invalid(format!(
                "gpucc_program_upload: the program was compiled for {}, the device is {}",
                p.target.name(),
                d.inner.target()
            )));
        }
        if let crate::program::Code::Intel(k) = &p.code {
            // The placeholder immediates would send the shader's loads to a bogus address.
            if !k.relocs.is_empty() {
                return Err(Error::invalid(format!(
                    "gpucc_program_upload: the program has {} relocations (the address of its \
                     {} bytes of constant data): upload the constant data, then a copy of \
                     gpucc_program_code patched as gpucc_program_reloc says, with \
                     gpucc_device_upload",
                    k.relocs.len(),
                    k.constant_data_size
                )));
            }
        }
        let inner = d.inner.upload(&p.bytes).map_err(device_error)?;
        write_out(out, Box::into_raw(Box::new(Bo { inner })), "out")
    })
}

/// The GEM handle of a buffer (0 for NULL).
#[no_mangle]
pub extern "C" fn gpucc_bo_handle(bo: *const Bo) -> u32 {
    // SAFETY: a non-NULL bo is a live handle from gpucc_device_upload.
    unsafe { bo.as_ref() }.map_or(0, |b| b.inner.handle)
}

/// The buffer's GPU address when gpucc chose it (softpin: Gen8+ Intel, etnaviv with a softpin
/// range); 0 when the kernel places the buffer at submission.
#[no_mangle]
pub extern "C" fn gpucc_bo_gpu_address(bo: *const Bo) -> u64 {
    // SAFETY: a non-NULL bo is a live handle from gpucc_device_upload.
    unsafe { bo.as_ref() }.map_or(0, |b| b.inner.address)
}

/// The buffer's size in bytes (0 for NULL).
#[no_mangle]
pub extern "C" fn gpucc_bo_size(bo: *const Bo) -> u64 {
    // SAFETY: a non-NULL bo is a live handle from gpucc_device_upload.
    unsafe { bo.as_ref() }.map_or(0, |b| b.inner.size)
}

/// Copies `len` bytes at byte `offset` of a buffer into `out` (i915: GEM_PREAD), for
/// instance the results of gpucc_device_dispatch_compute, which has waited for the GPU.
///
/// Errors: GPUCC_STATUS_INVALID_ARGUMENT for a NULL argument or a range past the buffer's
/// end; GPUCC_STATUS_UNSUPPORTED on Vivante; GPUCC_STATUS_DEVICE_ERROR when the ioctl fails.
#[no_mangle]
pub extern "C" fn gpucc_bo_read(
    dev: *mut Device,
    bo: *const Bo,
    offset: u64,
    out: *mut u8,
    len: usize,
) -> Status {
    guard("gpucc_bo_read", || {
        // SAFETY: as in gpucc_device_upload.
        let d =
            unsafe { dev.as_mut() }.ok_or_else(|| Error::invalid("gpucc_bo_read: dev is NULL"))?;
        // SAFETY: a non-NULL bo is a live handle from gpucc_device_upload.
        let bo =
            unsafe { bo.as_ref() }.ok_or_else(|| Error::invalid("gpucc_bo_read: bo is NULL"))?;
        if len == 0 {
            return Ok(());
        }
        if out.is_null() {
            return Err(Error::invalid("gpucc_bo_read: out is NULL"));
        }
        if offset
            .checked_add(len as u64)
            .map_or(true, |end| end > bo.inner.size)
        {
            return Err(Error::invalid(format!(
                "gpucc_bo_read: {len} bytes at offset {offset} pass the end of the {}-byte buffer",
                bo.inner.size
            )));
        }
        // SAFETY: `out` is non-NULL with `len` writable bytes (the header's contract); the
        // slice lives for this call only.
        let dst = unsafe { std::slice::from_raw_parts_mut(out, len) };
        d.inner.read(&bo.inner, offset, dst).map_err(device_error)
    })
}

/// Releases a buffer (GEM_CLOSE) on the device it was made on. A NULL bo is accepted and
/// ignored; the handle is freed even when the kernel call fails.
#[no_mangle]
pub extern "C" fn gpucc_bo_destroy(dev: *mut Device, bo: *mut Bo) -> Status {
    guard("gpucc_bo_destroy", || {
        if bo.is_null() {
            return Ok(());
        }
        // SAFETY: non-NULL bos only come from Box::into_raw in gpucc_device_upload, and the
        // caller gives up the handle by destroying it.
        let bo = unsafe { Box::from_raw(bo) };
        // SAFETY: as in gpucc_device_upload.
        let d = unsafe { dev.as_mut() }
            .ok_or_else(|| Error::invalid("gpucc_bo_destroy: dev is NULL"))?;
        d.inner.release(bo.inner).map_err(device_error)
    })
}

/// The per-dispatch part of a compute launch; everything else (kernel offset, SIMD width,
/// workgroup size, push layout, shared memory, barrier) comes from the program.
/// Size-prefixed: the caller sets `struct_size` to `sizeof(gpucc_compute_launch)`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ComputeLaunch {
    /// Set by the caller: `sizeof(gpucc_compute_launch)`.
    pub struct_size: u32,
    /// Workgroups in x, y and z, each at least 1 (GPGPU_WALKER's thread group counts; the
    /// `grid` of Gallium's `pipe_grid_info`).
    pub groups: [u32; 3],
    /// The bytes of UBO block 0 that the program's push constants read (the uniforms);
    /// NULL when `uniforms_size` is 0. gpucc lays them out per thread as gpucc_cs_info says.
    pub uniforms: *const u8,
    /// Bytes at `uniforms` (at most 1 MiB); every pushed dword must lie within them.
    pub uniforms_size: usize,
}

/// Runs `launch.groups` workgroups of a compute program on an Intel device (Gen7, Gen7.5,
/// Gen8, Gen9) and waits for them. `code` holds the program's code as gpucc_program_upload placed
/// it; the kernel offset, SIMD width, workgroup size, push data, shared memory and barrier
/// come from `program` (see gpucc_program_cs_info). `buffers` (`buffer_count` handles, NULL
/// when 0, at most 31) are the program's SSBO blocks 0, 1, ...: bound as untyped (RAW)
/// buffers of their full size at binding-table entries `ssbo_binding_base + i`.
///
/// Errors: GPUCC_STATUS_INVALID_ARGUMENT for a NULL handle, a program that is not an Intel
/// compute program (the message names its stage), a program compiled for another target,
/// a `code` buffer smaller than the program's code, a `struct_size` this library does not
/// know, or uniforms shorter than the pushed dwords need; GPUCC_STATUS_UNSUPPORTED on
/// Vivante, on Intel generations without a compute path, and for a program that spills
/// (gpucc_cs_info's `scratch_size` is not 0: no scratch space is allocated);
/// GPUCC_STATUS_DEVICE_ERROR when an ioctl fails.
#[no_mangle]
pub extern "C" fn gpucc_device_dispatch_compute(
    dev: *mut Device,
    program: *const crate::program::Program,
    code: *const Bo,
    launch: *const ComputeLaunch,
    buffers: *const *const Bo,
    buffer_count: usize,
) -> Status {
    guard("gpucc_device_dispatch_compute", || {
        const ENTRY: &str = "gpucc_device_dispatch_compute";
        // SAFETY: as in gpucc_device_upload.
        let d = unsafe { dev.as_mut() }
            .ok_or_else(|| Error::invalid(format!("{ENTRY}: dev is NULL")))?;
        // SAFETY: a non-NULL program is a live handle from gpucc_compile.
        let p = unsafe { program.as_ref() }
            .ok_or_else(|| Error::invalid(format!("{ENTRY}: program is NULL")))?;
        // SAFETY: a non-NULL bo is a live handle from gpucc_device_upload.
        let code = unsafe { code.as_ref() }
            .ok_or_else(|| Error::invalid(format!("{ENTRY}: code is NULL")))?;
        let launch = read_launch(launch, ENTRY)?;
        if matches!(d.inner.gpu_mut(), drm::Gpu::Etnaviv(_)) {
            return Err(Error::new(
                Status::Unsupported,
                format!("{ENTRY}: compute dispatch is implemented for Intel GPUs only"),
            ));
        }
        let (kernel, _) = super::compute_info::compute_kernel(program, ENTRY)?;
        if p.target.name() != d.inner.target() {
            return Err(Error::invalid(format!(
                "{ENTRY}: the program was compiled for {}, the device is {}",
                p.target.name(),
                d.inner.target()
            )));
        }
        if code.inner.size < p.bytes.len() as u64 {
            return Err(Error::invalid(format!(
                "{ENTRY}: the code buffer is {} bytes, the program's code {}",
                code.inner.size,
                p.bytes.len()
            )));
        }
        if buffers.is_null() && buffer_count != 0 {
            return Err(Error::invalid(format!("{ENTRY}: buffers is NULL")));
        }
        if buffer_count > 31 {
            return Err(Error::invalid(format!(
                "{ENTRY}: {buffer_count} buffers; at most 31 can be bound"
            )));
        }
        let handles: &[*const Bo] = if buffer_count == 0 {
            &[]
        } else {
            // SAFETY: `buffers` is non-NULL with `buffer_count` (≤ 31) readable pointers.
            unsafe { std::slice::from_raw_parts(buffers, buffer_count) }
        };
        let mut bound = Vec::with_capacity(handles.len());
        for (i, &h) in handles.iter().enumerate() {
            // SAFETY: each non-NULL entry is a live handle from gpucc_device_upload.
            let bo = unsafe { h.as_ref() }
                .ok_or_else(|| Error::invalid(format!("{ENTRY}: buffers[{i}] is NULL")))?;
            bound.push(i915_bo(bo));
        }
        // SAFETY: non-NULL with `uniforms_size` readable bytes (the header's contract).
        let uniforms = unsafe {
            super::compute_info::byte_slice(
                launch.uniforms,
                launch.uniforms_size,
                ENTRY,
                "uniforms",
            )?
        };
        let hw = drm::i915::ComputeLaunch::for_kernel(kernel, uniforms, launch.groups)
            .map_err(device_error)
            .map_err(|e| Error::new(e.status, format!("{ENTRY}: {}", e.message)))?;
        match d.inner.gpu_mut() {
            drm::Gpu::I915(g) => g.launch(&i915_bo(code), &hw, &bound).map_err(device_error),
            drm::Gpu::Etnaviv(_) => Err(Error::new(
                Status::Unsupported,
                format!("{ENTRY}: compute dispatch is implemented for Intel GPUs only"),
            )),
        }
    })
}

/// Reads a caller's gpucc_compute_launch: `struct_size` must be a size this library knows.
fn read_launch(launch: *const ComputeLaunch, entry: &str) -> Result<ComputeLaunch, Error> {
    if launch.is_null() {
        return Err(Error::invalid(format!("{entry}: launch is NULL")));
    }
    // SAFETY: non-NULL, and every version of the struct starts with `struct_size` (the
    // header's contract).
    let size = unsafe { std::ptr::addr_of!((*launch).struct_size).read_unaligned() } as usize;
    let known = std::mem::size_of::<ComputeLaunch>();
    if size != known {
        return Err(Error::invalid(format!(
            "{entry}: launch->struct_size is {size}; this gpucc knows \
             sizeof(gpucc_compute_launch) = {known}"
        )));
    }
    // SAFETY: the caller's struct is `known` bytes, this version's.
    Ok(unsafe { launch.read_unaligned() })
}

fn i915_bo(bo: &Bo) -> drm::i915::Bo {
    drm::i915::Bo {
        handle: bo.inner.handle,
        size: bo.inner.size,
        address: bo.inner.address,
    }
}
