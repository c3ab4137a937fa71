//! The tessellation programs' facts. A tessellation-evaluation program's: what a driver
//! programs 3DSTATE_TE and 3DSTATE_DS from (Mesa's `brw_tes_prog_data` and
//! `brw_vue_prog_data`, as iris reads them); its output VUE map is read like a vertex
//! program's (`num_vue_slots`, the slots' varyings in `vue_slots_valid` order of brw's
//! layout). A tessellation-control program's: 3DSTATE_HS and the patch URB entry's size
//! (Mesa's `brw_tcs_prog_data`).

use super::sized::write_sized;
use super::stage_io::kernel;
use super::status::{guard, Error, Status};
use crate::program::Program;

/// A tessellation-evaluation program's binding facts (Intel, Gen7+). Booleans are 0 or 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct TesInfo {
    /// Set by the caller: `sizeof(gpucc_tes_info)`.
    pub struct_size: u32,
    /// 3DSTATE_TE TE Domain (`domain`, `brw_tess_domain`): 0 quad, 1 triangle, 2 isoline.
    pub domain: u32,
    /// 3DSTATE_TE Partitioning (`partitioning`, `brw_tess_partitioning`): 0 integer, 1 odd
    /// fractional, 2 even fractional.
    pub partitioning: u32,
    /// 3DSTATE_TE Output Topology (`output_topology`, `brw_tess_output_topology`): 0 point,
    /// 1 line, 2 triangle clockwise, 3 triangle counter-clockwise (the hardware's winding).
    pub output_topology: u32,
    /// The program reads the primitive id (`include_primitive_id`; 3DSTATE_DS Primitive ID
    /// Not Required is its negation).
    pub include_primitive_id: u32,
    /// 3DSTATE_DS Patch URB Entry Read Length: registers of the patch entry pushed, two
    /// vec4 slots each (`urb_read_length`).
    pub urb_read_length: u32,
    /// 3DSTATE_DS Patch URB Entry Read Offset (always 0 in Mesa's scalar TES).
    pub urb_read_offset: u32,
    /// First GRF after the thread payload (`dispatch_grf_start_reg`): 3DSTATE_DS Dispatch
    /// GRF Start Register For URB Data.
    pub dispatch_grf_start: u32,
    /// Output URB entry size in 64-byte units (`urb_entry_size`).
    pub urb_entry_size: u32,
    /// Varyings written, header ones included (`vue_map.slots_valid`).
    pub vue_slots_valid: u64,
    /// Slots of the output VUE map (`vue_map.num_slots`).
    pub num_vue_slots: u32,
    /// The VUE map uses the separate-shader layout (`vue_map.separate`).
    pub vue_separate: u32,
    /// How threads run (`dispatch_mode`): 3 = DISPATCH_MODE_SIMD8 (iris programs
    /// 3DSTATE_DS with DISPATCH_MODE_SIMD8_SINGLE_PATCH); 2 = DISPATCH_MODE_4X2_DUAL_OBJECT,
    /// a Gen7 vec4 program's two domain points per thread (Mesa's vec4 TES leaves the field
    /// unset; Gen7's 3DSTATE_DS has no dispatch mode).
    pub dispatch_mode: u32,
    /// `clip_distance_mask` and `cull_distance_mask`, as for a vertex program.
    pub clip_distance_mask: u32,
    pub cull_distance_mask: u32,
}

/// Fills `*info` (its `struct_size` set by the caller) with a tessellation-evaluation
/// program's facts. A program of another stage or family is GPUCC_STATUS_INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn gpucc_program_tes_info(program: *const Program, info: *mut TesInfo) -> Status {
    guard("gpucc_program_tes_info", || {
        let k = kernel(program, "gpucc_program_tes_info")?;
        let t = k.tess_eval.as_ref().ok_or_else(|| {
            Error::invalid("gpucc_program_tes_info: not a tessellation-evaluation program")
        })?;
        let value = TesInfo {
            struct_size: std::mem::size_of::<TesInfo>() as u32,
            domain: t.domain as u32,
            partitioning: t.partitioning as u32,
            output_topology: t.output_topology as u32,
            include_primitive_id: t.include_primitive_id as u32,
            urb_read_length: t.urb_read_length,
            urb_read_offset: crate::intel::tess::TessEvalInfo::URB_READ_OFFSET,
            dispatch_grf_start: k.simd.first().map_or(0, |s| s.dispatch_grf_start),
            urb_entry_size: t.urb_entry_size(),
            vue_slots_valid: t.vue_map.slots_valid,
            num_vue_slots: t.vue_map.num_slots(),
            vue_separate: t.vue_map.separate as u32,
            dispatch_mode: if k.is_simd4x2() { 2 } else { 3 },
            clip_distance_mask: u32::from(t.clip_distance_mask),
            cull_distance_mask: u32::from(t.cull_distance_mask),
        };
        write_sized!(
            info,
            value,
            TesInfo,
            [
                struct_size,
                domain,
                partitioning,
                output_topology,
                include_primitive_id,
                urb_read_length,
                urb_read_offset,
                dispatch_grf_start,
                urb_entry_size,
                vue_slots_valid,
                num_vue_slots,
                vue_separate,
                dispatch_mode,
                clip_distance_mask,
                cull_distance_mask,
            ]
        )
    })
}

/// A tessellation-control program's binding facts (Intel, Gen7+: one patch per thread
/// group; on Gen8+ scalar SINGLE_PATCH threads of eight output vertices, on Gen7 SIMD4x2
/// threads of two, `simd4x2`). Booleans are 0 or 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct TcsInfo {
    /// Set by the caller: `sizeof(gpucc_tcs_info)`.
    pub struct_size: u32,
    /// Threads per patch (`instances`: eight output vertices each on Gen8+, two on Gen7):
    /// 3DSTATE_HS Instance Count is one less.
    pub instances: u32,
    /// Output vertices per patch (`nir->info.tess.tcs_vertices_out`).
    pub output_vertices: u32,
    /// The primitive id is in the payload (`include_primitive_id`; 3DSTATE_HS Include
    /// Primitive ID). 0 in SINGLE_PATCH dispatch, where g0.1 holds it anyway.
    pub include_primitive_id: u32,
    /// 3DSTATE_HS Include Vertex Handles: the input patch's URB handles in g1-g4 (always 1).
    pub include_vertex_handles: u32,
    /// How threads run (`brw_vue_prog_data::dispatch_mode`): 0 = DISPATCH_MODE_TCS_SINGLE_PATCH,
    /// which Mesa records on Gen7 too (its 3DSTATE_HS has no such field; see `simd4x2`).
    pub dispatch_mode: u32,
    /// First GRF after the thread payload (`dispatch_grf_start_reg`): 3DSTATE_HS Dispatch
    /// GRF Start Register For URB Data.
    pub dispatch_grf_start: u32,
    /// Input registers pushed (`urb_read_length`; 0: the program reads its inputs from the
    /// URB).
    pub urb_read_length: u32,
    /// Patch URB entry size in 64-byte units (`urb_entry_size`): the patch header and
    /// varyings and every output vertex's.
    pub urb_entry_size: u32,
    /// Slots before the first output vertex, the two header slots included
    /// (`vue_map.num_per_patch_slots`).
    pub num_per_patch_slots: u32,
    /// Slots of each output vertex (`vue_map.num_per_vertex_slots`).
    pub num_per_vertex_slots: u32,
    /// 1 on Gen7: SIMD4x2 threads, output vertices `2i` and `2i + 1` in instance `i`
    /// (3DSTATE_HS as crocus programs it); 0 on Gen8+ (SIMD8).
    pub simd4x2: u32,
    /// Gen7: the input patch size the program was built for, whose vertex URB handles its
    /// first instance releases at the end (Mesa's `key->input_vertices`): the compile key's
    /// `tcs_input_vertices`, or without it the output vertex count. A draw whose patch size
    /// differs needs another variant, as with Mesa. 0 on Gen8+ (nothing released).
    pub input_vertices: u32,
}

/// Fills `*info` (its `struct_size` set by the caller) with a tessellation-control
/// program's facts. A program of another stage or family is GPUCC_STATUS_INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn gpucc_program_tcs_info(program: *const Program, info: *mut TcsInfo) -> Status {
    guard("gpucc_program_tcs_info", || {
        let k = kernel(program, "gpucc_program_tcs_info")?;
        let t = k.tess_ctrl.as_ref().ok_or_else(|| {
            Error::invalid("gpucc_program_tcs_info: not a tessellation-control program")
        })?;
        let value = TcsInfo {
            struct_size: std::mem::size_of::<TcsInfo>() as u32,
            instances: t.instances,
            output_vertices: t.output_vertices,
            include_primitive_id: t.include_primitive_id as u32,
            include_vertex_handles: crate::intel::tcs::TessCtrlInfo::INCLUDE_VERTEX_HANDLES as u32,
            dispatch_mode: t.dispatch_mode as u32,
            dispatch_grf_start: k.simd.first().map_or(0, |s| s.dispatch_grf_start),
            urb_read_length: 0,
            urb_entry_size: t.urb_entry_size(),
            num_per_patch_slots: t.vue_map.num_per_patch_slots,
            num_per_vertex_slots: t.vue_map.num_per_vertex_slots,
            simd4x2: k.is_simd4x2() as u32,
            input_vertices: t.input_vertices,
        };
        write_sized!(
            info,
            value,
            TcsInfo,
            [
                struct_size,
                instances,
                output_vertices,
                include_primitive_id,
                include_vertex_handles,
                dispatch_mode,
                dispatch_grf_start,
                urb_read_length,
                urb_entry_size,
                num_per_patch_slots,
                num_per_vertex_slots,
                simd4x2,
                input_vertices,
            ]
        )
    })
}
