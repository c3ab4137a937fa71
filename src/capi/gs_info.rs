//! A geometry program's facts (Intel, Gen7+), as a driver programs 3DSTATE_GS and binds the
//! next stage to its output VUE map: Mesa's `brw_gs_prog_data` and `brw_vue_prog_data`
//! fields, named after them. Size-prefixed like the other info structs: the library fills
//! only the fields that fit the caller's `struct_size`.

use super::sized::write_sized;
use super::status::{guard, Error, Status};
use crate::intel::geometry::{DispatchMode, GeometryInfo};
use crate::intel::kernel::Kernel;
use crate::program::{Code, Program};

/// A geometry program's facts (Mesa's `brw_gs_prog_data`; 3DSTATE_GS field in brackets, as
/// iris's `iris_store_gs_state` and crocus's `crocus_upload_dirty_render_state` program it).
/// Booleans are 0 or 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GsInfo {
    /// Set by the caller: `sizeof(gpucc_gs_info)`.
    pub struct_size: u32,
    /// Vertices per input primitive (`vertices_in`) [Expected Vertex Count].
    pub vertices_in: u32,
    /// Most vertices one invocation emits (`shader_info.gs.vertices_out`).
    pub vertices_out: u32,
    /// Invocations per primitive (`invocations`) [Instance Control = invocations - 1].
    pub invocations: u32,
    /// 0 = GFX7_GS_CONTROL_DATA_FORMAT_GSCTL_CUT (cut bits), 1 = ..._GSCTL_SID (stream ids)
    /// (`control_data_format`) [Control Data Format].
    pub control_data_format: u32,
    /// Control-data header size in 32-byte units, 0 without one
    /// (`control_data_header_size_hwords`) [Control Data Header Size].
    pub control_data_header_size_hwords: u32,
    /// Output vertex size in 32-byte units (`output_vertex_size_hwords`) [Output Vertex Size =
    /// 2 x this - 1].
    pub output_vertex_size_hwords: u32,
    /// `_3DPRIM_*` of the output (`output_topology`) [Output Topology].
    pub output_topology: u32,
    /// The number of vertices every invocation emits, or -1 when it varies
    /// (`static_vertex_count`) [Static Output, Static Output Vertex Count]; with -1 the thread
    /// writes its count into dword 0 of its URB entry (Gen8+; a Gen7 thread, always -1, gives
    /// it in the header of its last URB write).
    pub static_vertex_count: i32,
    /// The payload holds the primitive ids (`include_primitive_id`) [Include Primitive ID].
    pub include_primitive_id: u32,
    /// The payload holds the input vertices' URB handles (`include_vue_handles`) [Include
    /// Vertex Handles]; 1 for Mesa's scalar GS (Gen8+), 0 for a Gen7 vec4 program.
    pub include_vue_handles: u32,
    /// Pushed part of each input vertex in 32-byte units (`urb_read_length`) [Vertex URB Entry
    /// Read Length]; the read offset is 0 [Vertex URB Entry Read Offset]. Gen7 pushes every
    /// input slot.
    pub urb_read_length: u32,
    /// Output URB entry size in 64-byte units (`urb_entry_size`; 3DSTATE_URB_GS).
    pub urb_entry_size: u32,
    /// First GRF after the thread payload (`dispatch_grf_start_reg`) [Dispatch GRF Start
    /// Register For URB Data].
    pub dispatch_grf_start: u32,
    /// GRFs the program uses (Mesa's `grf_used`).
    pub grfs: u32,
    /// 3 = DISPATCH_MODE_SIMD8 (Gen8+), 2 = DISPATCH_MODE_4X2_DUAL_OBJECT (Gen7)
    /// (`dispatch_mode`) [Dispatch Mode].
    pub dispatch_mode: u32,
    /// Varyings of the output VUE map, header ones included (`vue_map.slots_valid`).
    pub vue_slots_valid: u64,
    /// Slots of the output VUE map (`vue_map.num_slots`); see gpucc_program_gs_vue_slot.
    /// [Vertex URB Entry Output Length = max(ceil(num_vue_slots / 2) - 1, 1), Output Read
    /// Offset 1.]
    pub num_vue_slots: u32,
    /// The output VUE map uses the separate-shader layout (`vue_map.separate`).
    pub vue_separate: u32,
    /// Slots of the input VUE map the previous stage must write (`input_vue_map.num_slots`
    /// of `brw_gs_compile`).
    pub num_input_vue_slots: u32,
    /// `gl_ClipDistance` elements written (`clip_distance_mask`).
    pub clip_distance_mask: u32,
    /// `gl_CullDistance` elements after them (`cull_distance_mask`) [User Clip Distance Cull
    /// Test Enable Bitmask].
    pub cull_distance_mask: u32,
}

fn geometry<'a>(
    program: *const Program,
    entry: &str,
) -> Result<(&'a Kernel, &'a GeometryInfo), Error> {
    // SAFETY: a non-NULL program is a live handle from gpucc_compile.
    let p: &'a Program = unsafe { program.as_ref() }
        .ok_or_else(|| Error::invalid(format!("{entry}: program is NULL")))?;
    let Code::Intel(k) = &p.code else {
        return Err(Error::invalid(format!(
            "{entry}: a Vivante program (this describes Intel programs)"
        )));
    };
    let g = k
        .geometry
        .as_ref()
        .ok_or_else(|| Error::invalid(format!("{entry}: not a geometry program")))?;
    Ok((k, g))
}

/// Fills `*info` (its `struct_size` set by the caller) with a geometry program's facts. A
/// program of another stage or family is GPUCC_STATUS_INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn gpucc_program_gs_info(program: *const Program, info: *mut GsInfo) -> Status {
    guard("gpucc_program_gs_info", || {
        let (k, g) = geometry(program, "gpucc_program_gs_info")?;
        let variant = k.simd.first();
        let value = GsInfo {
            struct_size: std::mem::size_of::<GsInfo>() as u32,
            vertices_in: g.vertices_in,
            vertices_out: g.vertices_out,
            invocations: g.invocations,
            control_data_format: g.control_data_format as u32,
            control_data_header_size_hwords: g.control_data_header_size_hwords,
            output_vertex_size_hwords: g.output_vertex_size_hwords,
            output_topology: g.output_topology,
            static_vertex_count: g.static_vertex_count.map_or(-1, |c| c as i32),
            include_primitive_id: g.include_primitive_id as u32,
            include_vue_handles: u32::from(g.dispatch_mode == DispatchMode::Simd8),
            urb_read_length: g.urb_read_length,
            urb_entry_size: g.urb_entry_size,
            dispatch_grf_start: variant.map_or(0, |s| s.dispatch_grf_start),
            grfs: variant.map_or(0, |s| s.grfs_used),
            dispatch_mode: g.dispatch_mode as u32,
            vue_slots_valid: g.vue_map.slots_valid,
            num_vue_slots: g.vue_map.num_slots(),
            vue_separate: g.vue_map.separate as u32,
            num_input_vue_slots: g.input_vue_map.num_slots(),
            clip_distance_mask: u32::from(g.clip_distance_mask),
            cull_distance_mask: u32::from(g.cull_distance_mask),
        };
        write_sized!(
            info,
            value,
            GsInfo,
            [
                struct_size,
                vertices_in,
                vertices_out,
                invocations,
                control_data_format,
                control_data_header_size_hwords,
                output_vertex_size_hwords,
                output_topology,
                static_vertex_count,
                include_primitive_id,
                include_vue_handles,
                urb_read_length,
                urb_entry_size,
                dispatch_grf_start,
                grfs,
                dispatch_mode,
                vue_slots_valid,
                num_vue_slots,
                vue_separate,
                num_input_vue_slots,
                clip_distance_mask,
                cull_distance_mask,
            ]
        )
    })
}

/// The varying (`VARYING_SLOT` number) in slot `slot` of a geometry program's output VUE
/// map, or -1 for a padding slot. A slot past `num_vue_slots` is
/// GPUCC_STATUS_INVALID_ARGUMENT. gpucc_program_vue_slot answers the same for a geometry
/// program; this one also refuses a program of another stage.
#[no_mangle]
pub extern "C" fn gpucc_program_gs_vue_slot(
    program: *const Program,
    slot: u32,
    varying: *mut i32,
) -> Status {
    guard("gpucc_program_gs_vue_slot", || {
        const ENTRY: &str = "gpucc_program_gs_vue_slot";
        let (_, g) = geometry(program, ENTRY)?;
        super::stage_io::write_vue_slot(&g.vue_map, slot, varying, ENTRY)
    })
}
