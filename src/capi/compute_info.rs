//! What a driver needs to dispatch an Intel compute program (Mesa's `brw_cs_prog_data` and
//! `brw_cs_dispatch_info`): its width, workgroup shape, barrier and shared-memory use and the
//! layout of the push data each thread starts with. gpucc_device_dispatch_compute reads the
//! same facts from the program; a driver with its own batch code reads them here.
//!
//! The info struct is size-prefixed like gpucc_vs_info: the caller sets `struct_size` to
//! `sizeof` of the struct it was built with and the library fills only the fields that fit.

use super::sized::write_sized;
use super::status::{guard, Error, Status};
use crate::intel::fs::from_nir::SLM_SURFACE;
use crate::intel::kernel::{ComputeInfo, Kernel};
use crate::program::{Code, Program};

/// An Intel compute program's dispatch facts (Gen7, Gen7.5, Gen8, Gen9). Booleans are 0 or 1.
///
/// Each thread's push data (the CURBE block the hardware loads from g1) is its local
/// invocation ids, one register each of x, y and z per 8 channels (invocation index
/// `thread * simd_width + channel`, x fastest), then the `uniform_dwords` pushed uniform
/// dwords, each a dword of UBO block 0. Every thread's block is the same size; the
/// cross-thread block is empty (Mesa pushes uniforms cross-thread on Gen7.5+, but there the
/// per-thread data comes last, and here the local ids come first).
/// gpucc_program_cs_curbe builds the bytes.
///
/// Mesa fields without a counterpart here: `uses_num_work_groups` (the backend does not
/// implement `load_num_workgroups`, so no surface holds the group counts) and
/// `uses_inline_data` / `uses_btd_stack_ids` (Gen12.5+).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CsInfo {
    /// Set by the caller: `sizeof(gpucc_cs_info)`.
    pub struct_size: u32,
    /// Workgroup size in invocations, x, y and z (`local_size`).
    pub local_size: [u32; 3],
    /// The SIMD width a dispatch runs: the widest variant compiled, chosen for the
    /// workgroup size (Mesa's `brw_cs_simd_size_for_group_size`). GPGPU_WALKER SIMD Size.
    pub simd_width: u32,
    /// Byte offset of that variant's kernel in gpucc_program_code, 64-byte aligned
    /// (`prog_offset[simd_width / 16]`): the interface descriptor's Kernel Start Pointer
    /// is the code's address plus this.
    pub kernel_offset: u32,
    /// Hardware threads per workgroup, `ceil(invocations / simd_width)`
    /// (`brw_cs_dispatch_info.threads`): the interface descriptor's Number of Threads in
    /// GPGPU Thread Group, and GPGPU_WALKER Thread Width Counter Maximum + 1.
    pub threads: u32,
    /// Execution mask of a workgroup's last thread, the channels left over or all of them
    /// (`brw_cs_dispatch_info.right_mask`): GPGPU_WALKER Right Execution Mask.
    pub right_mask: u32,
    /// The program uses workgroup barriers (`uses_barrier`): set Barrier Enable in the
    /// interface descriptor.
    pub uses_barrier: u32,
    /// Shared local memory per workgroup in bytes (`base.total_shared`).
    pub shared_size: u32,
    /// Dwords of each thread's push block, local ids included (`push.per_thread.dwords`).
    pub per_thread_dwords: u32,
    /// Registers of each thread's push block (`push.per_thread.regs`): the interface
    /// descriptor's Constant URB Entry Read Length.
    pub per_thread_regs: u32,
    /// Dwords shared by all threads (`push.cross_thread.dwords`); 0, see above.
    pub cross_thread_dwords: u32,
    /// Registers shared by all threads (`push.cross_thread.regs`): Cross-Thread Constant
    /// Data Read Length (Gen7.5+); 0.
    pub cross_thread_regs: u32,
    /// Registers of local ids at the start of each thread's block, 3 per 8 channels. Mesa
    /// has no counterpart before Gen12.5 (it pushes a subgroup id instead; later hardware
    /// generates the ids, `generate_local_id`).
    pub local_id_regs: u32,
    /// Uniform dwords after the local ids in each thread's block (`base.nr_params`).
    pub uniform_dwords: u32,
    /// Bytes of push data for one workgroup: cross-thread block plus `threads` per-thread
    /// blocks (`brw_cs_push_const_total_size(threads)`): MEDIA_CURBE_LOAD's length.
    pub curbe_size: u32,
    /// First GRF after the payload, where the uniforms land (`base.dispatch_grf_start_reg`):
    /// `1 + local_id_regs`.
    pub dispatch_grf_start: u32,
    /// GRFs the dispatched variant uses (Mesa's `grf_used`).
    pub grfs: u32,
    /// Scratch bytes per thread (`base.total_scratch`); 0 when nothing spills.
    pub scratch_size: u32,
    /// Binding-table index of SSBO block 0; block i is at this plus i (Mesa leaves the
    /// binding table to the driver: iris's `IRIS_SURFACE_GROUP_SSBO`).
    pub ssbo_binding_base: u32,
    /// Binding-table index of shared local memory accesses (Mesa's `GFX7_BTI_SLM`): a
    /// special index the data port resolves, not an entry the driver fills.
    pub slm_binding: u32,
}

/// The kernel and compute facts of a compute program; any other program is an
/// INVALID_ARGUMENT naming its family or stage.
pub(super) fn compute_kernel<'a>(
    program: *const Program,
    entry: &str,
) -> Result<(&'a Kernel, &'a ComputeInfo), Error> {
    // SAFETY: a non-NULL program is a live handle from gpucc_compile.
    let p: &'a Program = unsafe { program.as_ref() }
        .ok_or_else(|| Error::invalid(format!("{entry}: program is NULL")))?;
    let k = match &p.code {
        Code::Intel(k) => k,
        Code::Etnaviv(_) => {
            return Err(Error::invalid(format!(
                "{entry}: a Vivante program (compute dispatch is for Intel programs)"
            )))
        }
    };
    let info = k.compute.as_ref().ok_or_else(|| {
        Error::invalid(format!(
            "{entry}: a {} program, not a compute program",
            p.stage.mesa_name()
        ))
    })?;
    Ok((k, info))
}

/// Fills `*info` (its `struct_size` set by the caller) with a compute program's dispatch
/// facts. A program of another stage or family is GPUCC_STATUS_INVALID_ARGUMENT naming it.
#[no_mangle]
pub extern "C" fn gpucc_program_cs_info(program: *const Program, info: *mut CsInfo) -> Status {
    guard("gpucc_program_cs_info", || {
        let (k, c) = compute_kernel(program, "gpucc_program_cs_info")?;
        let push = k
            .cs_push()
            .ok_or_else(|| Error::invalid("gpucc_program_cs_info: no push layout"))?;
        let variant = k.variant(c.simd).ok_or_else(|| {
            Error::new(
                Status::Internal,
                format!("gpucc_program_cs_info: no SIMD{} kernel", c.simd),
            )
        })?;
        let threads = c.threads();
        let value = CsInfo {
            struct_size: std::mem::size_of::<CsInfo>() as u32,
            local_size: c.local_size,
            simd_width: c.simd,
            kernel_offset: variant.offset,
            threads,
            right_mask: crate::intel::cs_dispatch::last_thread_mask(c.invocations(), c.simd),
            uses_barrier: c.uses_barrier as u32,
            shared_size: c.shared_size,
            per_thread_dwords: push.per_thread.dwords,
            per_thread_regs: push.per_thread.regs,
            cross_thread_dwords: push.cross_thread.dwords,
            cross_thread_regs: push.cross_thread.regs,
            local_id_regs: push.local_id_regs,
            uniform_dwords: push.uniform_dwords,
            curbe_size: push.cross_thread.size + threads * push.per_thread.size,
            dispatch_grf_start: variant.dispatch_grf_start,
            grfs: variant.grfs_used,
            scratch_size: variant.scratch_size,
            ssbo_binding_base: k.ssbo_surface_base,
            slm_binding: SLM_SURFACE,
        };
        write_sized!(
            info,
            value,
            CsInfo,
            [
                struct_size,
                local_size,
                simd_width,
                kernel_offset,
                threads,
                right_mask,
                uses_barrier,
                shared_size,
                per_thread_dwords,
                per_thread_regs,
                cross_thread_dwords,
                cross_thread_regs,
                local_id_regs,
                uniform_dwords,
                curbe_size,
                dispatch_grf_start,
                grfs,
                scratch_size,
                ssbo_binding_base,
                slm_binding,
            ]
        )
    })
}

/// Writes a compute program's push data for one workgroup (gpucc_cs_info's layout,
/// `curbe_size` bytes) to `out`: each thread's local ids, then the dwords of `uniforms`
/// (the `uniforms_size` bytes of UBO block 0; NULL when 0) that the program pushes. This is
/// what gpucc_device_dispatch_compute loads with MEDIA_CURBE_LOAD.
///
/// Errors (GPUCC_STATUS_INVALID_ARGUMENT): not a compute program; `out_size` smaller than
/// `curbe_size`; a pushed dword past the end of `uniforms`.
#[no_mangle]
pub extern "C" fn gpucc_program_cs_curbe(
    program: *const Program,
    uniforms: *const u8,
    uniforms_size: usize,
    out: *mut u8,
    out_size: usize,
) -> Status {
    const ENTRY: &str = "gpucc_program_cs_curbe";
    guard(ENTRY, || {
        let (k, _) = compute_kernel(program, ENTRY)?;
        // SAFETY: non-NULL with `uniforms_size` readable bytes (the header's contract).
        let uniforms = unsafe { byte_slice(uniforms, uniforms_size, ENTRY, "uniforms")? };
        let curbe = k
            .cs_curbe(uniforms)
            .map_err(|e| Error::invalid(format!("{ENTRY}: {e}")))?;
        if out.is_null() {
            return Err(Error::invalid(format!("{ENTRY}: out is NULL")));
        }
        if out_size < curbe.len() {
            return Err(Error::invalid(format!(
                "{ENTRY}: the push data is {} bytes, out has {out_size}",
                curbe.len()
            )));
        }
        // SAFETY: `out` is non-NULL with `out_size` ≥ curbe.len() writable bytes.
        unsafe { std::ptr::copy_nonoverlapping(curbe.as_ptr(), out, curbe.len()) };
        Ok(())
    })
}

/// The `len` bytes at `data` (NULL allowed when `len` is 0), at most 1 MiB.
///
/// # Safety
/// A non-NULL `data` must point to `len` readable bytes that stay valid for `'a`.
pub(super) unsafe fn byte_slice<'a>(
    data: *const u8,
    len: usize,
    entry: &str,
    what: &str,
) -> Result<&'a [u8], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    if data.is_null() {
        return Err(Error::invalid(format!("{entry}: {what} is NULL")));
    }
    if len > 1 << 20 {
        return Err(Error::invalid(format!(
            "{entry}: {len} bytes of {what} (at most 1 MiB)"
        )));
    }
    // SAFETY: the caller's contract; `len` ≤ 1 MiB fits in isize.
    Ok(unsafe { std::slice::from_raw_parts(data, len) })
}
