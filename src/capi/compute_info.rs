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
use crate::intel::kernel::{ComputeInfo, CsParam, CsPushLayout, Kernel};
use crate::program::{Code, Program};

/// An Intel compute program's dispatch facts (Gen7, Gen7.5, Gen8, Gen9). Booleans are 0 or 1.
///
/// The push data (the CURBE) is laid out in one of two ways, `push_layout` says which:
///
/// - GPUCC_CS_PUSH_LAYOUT_LOCAL_IDS (gpucc's own binding model): each thread's block (the
///   hardware loads it from g1) is its local invocation ids, one register each of x, y and z
///   per 8 channels (invocation index `thread * simd_width + channel`, x fastest), then the
///   `uniform_dwords` pushed uniform dwords, each a dword of UBO block 0. Every thread's
///   block is the same size; the cross-thread block is empty.
/// - GPUCC_CS_PUSH_LAYOUT_MESA (GPUCC_BINDING_MODEL_MESA): Mesa's layout before Gen12.5.
///   The `num_params` params (`base.param[]`, read with gpucc_program_cs_param) are the
///   pushed uniform dwords, whole 32-byte registers of the UBO ranges in range order
///   (gpucc_program_ubo_range), then the subgroup id (`BRW_PARAM_BUILTIN_SUBGROUP_ID`) as
///   the last param; the shader computes its local ids from the subgroup id and its channel.
///   As brw's `cs_fill_push_const_info` splits them: on Gen7 (no cross-thread data) every
///   param is per-thread; on Gen7.5 and later the registers before the subgroup id's are the
///   cross-thread block and the subgroup id's register is the per-thread block (its one
///   dword). The driver fills the CURBE as iris and crocus do
///   (`*_fill_cs_push_const_buffer`): the cross-thread block once, then per thread t a copy
///   of the per-thread block with the subgroup id set to t. A program that pushes no uniform
///   data has exactly the layout stock iris and crocus assert (`nr_params` 1, `param[0]` the
///   subgroup id, no cross-thread data, one per-thread dword); one that does is iris's
///   "combine subgroup-id with cbuf0" TODO: its uniform registers come before the subgroup
///   id (cross-thread from Gen7.5 on) and the driver copies them from the UBOs the params
///   name. For compute the ranges are these params, not 3DSTATE_CONSTANT buffers.
///
/// gpucc_program_cs_curbe (uniforms of block 0) and gpucc_program_cs_curbe_blocks (any
/// blocks) build the bytes of either layout.
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
    /// Dwords of each thread's push block (`push.per_thread.dwords`): local ids included
    /// in gpucc's layout; in Mesa's the params after the cross-thread ones, subgroup id last.
    pub per_thread_dwords: u32,
    /// Registers of each thread's push block (`push.per_thread.regs`): the interface
    /// descriptor's Constant URB Entry Read Length.
    pub per_thread_regs: u32,
    /// Dwords shared by all threads (`push.cross_thread.dwords`): 0 in gpucc's layout and
    /// on Gen7; in Mesa's on Gen7.5+, every whole register of params before the subgroup
    /// id's.
    pub cross_thread_dwords: u32,
    /// Registers shared by all threads (`push.cross_thread.regs`): Cross-Thread Constant
    /// Data Read Length (Gen7.5+).
    pub cross_thread_regs: u32,
    /// Registers of local ids at the start of each thread's block, 3 per 8 channels in
    /// gpucc's layout; 0 in Mesa's. Mesa has no counterpart before Gen12.5 (it pushes a
    /// subgroup id instead; later hardware generates the ids, `generate_local_id`).
    pub local_id_regs: u32,
    /// Pushed uniform dwords: after the local ids in each thread's block (gpucc's layout),
    /// or the params before the subgroup id (Mesa's: `base.nr_params - 1`).
    pub uniform_dwords: u32,
    /// Bytes of push data for one workgroup: cross-thread block plus `threads` per-thread
    /// blocks (`brw_cs_push_const_total_size(threads)`): MEDIA_CURBE_LOAD's length.
    pub curbe_size: u32,
    /// First GRF after the thread header, where the params land
    /// (`base.dispatch_grf_start_reg`): `1 + local_id_regs` (1 in Mesa's layout).
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
    /// Which push layout the program uses (see above): GPUCC_CS_PUSH_LAYOUT_MESA when it
    /// was compiled with GPUCC_BINDING_MODEL_MESA. Added after `slm_binding`; a caller built
    /// before it gets the local-ids layout, the only one there was.
    pub push_layout: CsPushLayoutC,
    /// Params, the entries of gpucc_program_cs_param (`base.nr_params`): the uniform dwords,
    /// plus the subgroup id in Mesa's layout.
    pub num_params: u32,
    /// Index of the subgroup-id param (`brw_get_subgroup_id_param_index`): `num_params - 1`
    /// in Mesa's layout, -1 in gpucc's (which pushes local ids instead).
    pub subgroup_id_param: i32,
}

/// Values of `gpucc_cs_info.push_layout`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CsPushLayoutC {
    /// gpucc's own: per-thread local ids, then the uniform dwords; nothing cross-thread.
    #[default]
    LocalIds = 0,
    /// Mesa's (`brw_cs_prog_data.push`): uniform params then the subgroup id, split into
    /// cross-thread and per-thread blocks.
    Mesa = 1,
}

/// What a compute param holds (Mesa's `param[]` entries).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CsParamKindC {
    /// Dword `offset / 4` of uniform block `block` (a UBO range's dword, or in gpucc's own
    /// layout a dword of block 0): the driver copies it from the buffer.
    #[default]
    Uniform = 0,
    /// `BRW_PARAM_BUILTIN_SUBGROUP_ID`: the thread's index in its workgroup, which the
    /// driver writes into thread t's copy of the per-thread block as t.
    SubgroupId = 1,
}

/// One param dword of an Intel compute program (an entry of Mesa's
/// `brw_stage_prog_data::param`): param i is dword i of the concatenation of the
/// cross-thread block and a thread's per-thread block (after the local ids in gpucc's
/// layout).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CsParamC {
    /// Set by the caller: `sizeof(gpucc_cs_param)`.
    pub struct_size: u32,
    pub kind: CsParamKindC,
    /// For GPUCC_CS_PARAM_KIND_UNIFORM: the `load_ubo` block operand (in crocus's and
    /// iris's final NIR, the binding-table slot of the buffer); 0 otherwise.
    pub block: u32,
    /// For GPUCC_CS_PARAM_KIND_UNIFORM: byte offset in the block, a multiple of 4; 0
    /// otherwise.
    pub offset: u32,
}

/// The bytes of one uniform block, for gpucc_program_cs_curbe_blocks: `size` bytes at
/// `data` (NULL when `size` is 0) are UBO `block` (the `block` of the params). This input
/// struct is not size-prefixed and keeps this layout.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct UniformBlockC {
    pub block: u32,
    pub data: *const u8,
    pub size: usize,
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
            push_layout: match c.push_layout {
                CsPushLayout::LocalIds => CsPushLayoutC::LocalIds,
                CsPushLayout::SubgroupId { .. } => CsPushLayoutC::Mesa,
            },
            num_params: push.params,
            subgroup_id_param: push.subgroup_id_param.map_or(-1, |i| i as i32),
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
                push_layout,
                num_params,
                subgroup_id_param,
            ]
        )
    })
}

/// Param `index` (0 .. `num_params` of gpucc_cs_info) of a compute program into `*param`
/// (its `struct_size` set by the caller): a uniform dword (block, offset) or the subgroup id.
#[no_mangle]
pub extern "C" fn gpucc_program_cs_param(
    program: *const Program,
    index: u32,
    param: *mut CsParamC,
) -> Status {
    const ENTRY: &str = "gpucc_program_cs_param";
    guard(ENTRY, || {
        let (k, _) = compute_kernel(program, ENTRY)?;
        let params = k.cs_params();
        let p = params.get(index as usize).ok_or_else(|| {
            Error::invalid(format!("{ENTRY}: index {index} of {} params", params.len()))
        })?;
        let (kind, block, offset) = match *p {
            CsParam::Uniform { block, offset } => (CsParamKindC::Uniform, block, offset),
            CsParam::SubgroupId => (CsParamKindC::SubgroupId, 0, 0),
        };
        let value = CsParamC {
            struct_size: std::mem::size_of::<CsParamC>() as u32,
            kind,
            block,
            offset,
        };
        write_sized!(param, value, CsParamC, [struct_size, kind, block, offset])
    })
}

/// Writes a compute program's push data for one workgroup (gpucc_cs_info's layout,
/// `curbe_size` bytes) to `out`, taking the pushed uniform dwords from `uniforms` (the
/// `uniforms_size` bytes of UBO block 0; NULL when 0): in gpucc's layout each thread's local
/// ids, then the uniform dwords; in Mesa's the cross-thread block, then per thread t its
/// block with the subgroup id t. This is what gpucc_device_dispatch_compute loads with
/// MEDIA_CURBE_LOAD. A program whose params read other blocks (Mesa's binding model) takes
/// gpucc_program_cs_curbe_blocks.
///
/// Errors (GPUCC_STATUS_INVALID_ARGUMENT): not a compute program; `out_size` smaller than
/// `curbe_size`; a pushed dword past the end of `uniforms` or from a block other than 0.
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
        copy_out(&curbe, out, out_size, ENTRY)
    })
}

/// gpucc_program_cs_curbe with the uniform dwords taken from `num_blocks` blocks
/// (`blocks` may be NULL when 0): each param of kind GPUCC_CS_PARAM_KIND_UNIFORM reads the
/// dword at its `offset` in the entry of `blocks` whose `block` is its block. Unused dwords of
/// a register are 0.
///
/// Errors (GPUCC_STATUS_INVALID_ARGUMENT): not a compute program; `out_size` smaller than
/// `curbe_size`; a param's block not among `blocks` or given twice, or its dword past the end
/// of the block's bytes (each names the param, block and offset).
#[no_mangle]
pub extern "C" fn gpucc_program_cs_curbe_blocks(
    program: *const Program,
    blocks: *const UniformBlockC,
    num_blocks: usize,
    out: *mut u8,
    out_size: usize,
) -> Status {
    const ENTRY: &str = "gpucc_program_cs_curbe_blocks";
    guard(ENTRY, || {
        let (k, _) = compute_kernel(program, ENTRY)?;
        if num_blocks > 1024 {
            return Err(Error::invalid(format!(
                "{ENTRY}: {num_blocks} blocks (at most 1024)"
            )));
        }
        let entries: &[UniformBlockC] = if num_blocks == 0 {
            &[]
        } else if blocks.is_null() {
            return Err(Error::invalid(format!("{ENTRY}: blocks is NULL")));
        } else {
            // SAFETY: non-NULL with `num_blocks` (≤ 1024) readable entries, the header's
            // contract; they stay valid for the call.
            unsafe { std::slice::from_raw_parts(blocks, num_blocks) }
        };
        let mut data: Vec<(u32, &[u8])> = Vec::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            if data.iter().any(|&(b, _)| b == e.block) {
                return Err(Error::invalid(format!(
                    "{ENTRY}: block {} is given twice (entry {i})",
                    e.block
                )));
            }
            let what = format!("blocks[{i}].data");
            // SAFETY: a non-NULL `data` has `size` readable bytes (the header's contract).
            data.push((e.block, unsafe {
                byte_slice(e.data, e.size, ENTRY, &what)?
            }));
        }
        let curbe = k
            .cs_curbe_with(|i, block, offset| {
                let bytes = data
                    .iter()
                    .find(|&&(b, _)| b == block)
                    .map(|&(_, d)| d)
                    .ok_or_else(|| format!("param {i} reads UBO {block}, which is not given"))?;
                let at = offset as usize;
                bytes
                    .get(at..at + 4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .ok_or_else(|| {
                        format!(
                            "param {i} reads bytes {at}..{} of UBO {block}, which has {}",
                            at + 4,
                            bytes.len()
                        )
                    })
            })
            .map_err(|e| Error::invalid(format!("{ENTRY}: {e}")))?;
        copy_out(&curbe, out, out_size, ENTRY)
    })
}

/// Copies `bytes` to the caller's `out` of `out_size` bytes.
fn copy_out(bytes: &[u8], out: *mut u8, out_size: usize, entry: &str) -> Result<(), Error> {
    if out.is_null() {
        return Err(Error::invalid(format!("{entry}: out is NULL")));
    }
    if out_size < bytes.len() {
        return Err(Error::invalid(format!(
            "{entry}: the push data is {} bytes, out has {out_size}",
            bytes.len()
        )));
    }
    // SAFETY: `out` is non-NULL with `out_size` ≥ bytes.len() writable bytes (the header's
    // contract), and a caller's buffer cannot overlap the library's own vector.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len()) };
    Ok(())
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
