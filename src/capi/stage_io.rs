//! How an Intel vertex program's outputs meet a fragment program's inputs: the vertex
//! program's facts, the output VUE map of whichever stage is last before the rasteriser
//! (vertex, tessellation-evaluation or geometry), the fragment program's input slots. A
//! driver programs 3DSTATE_VS, the vertex elements, 3DSTATE_SBE and 3DSTATE_SBE_SWIZ from
//! these alone.
//!
//! The info structs are size-prefixed: the caller sets `struct_size` to `sizeof` of the
//! struct it was built with and the library fills only the fields that fit, so a driver
//! built against an older header keeps working when fields are added at the end.

use super::sized::write_sized;
use super::status::{guard, write_out, Error, Status};
use crate::intel::kernel::Kernel;
use crate::intel::vue::VueMap;
use crate::program::{Code, Program};

/// A vertex program's binding facts (Intel, Gen8+; Mesa's `brw_vs_prog_data` and
/// `brw_vue_prog_data`). Booleans are 0 or 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct VsInfo {
    /// Set by the caller: `sizeof(gpucc_vs_info)`.
    pub struct_size: u32,
    /// Vertex elements the vertex fetcher pushes: the attributes read, then the
    /// draw-parameter element and the draw-id element when used (`nr_attribute_slots`).
    pub nr_attribute_slots: u32,
    /// `VERT_ATTRIB` bits of the attributes read, in element order (`inputs_read`).
    pub inputs_read: u64,
    /// Varyings written, header ones included (`vue_map.slots_valid`).
    pub vue_slots_valid: u64,
    /// Slots of the VUE map (`vue_map.num_slots`); see gpucc_program_vue_slot.
    pub num_vue_slots: u32,
    /// The VUE map uses the separate-shader layout (`vue_map.separate`).
    pub vue_separate: u32,
    /// 3DSTATE_VS Vertex URB Entry Read Length, in pairs of elements (`urb_read_length`).
    pub urb_read_length: u32,
    /// URB entry size in 64-byte units (`urb_entry_size`).
    pub urb_entry_size: u32,
    /// First GRF after the thread payload (`dispatch_grf_start_reg`).
    pub dispatch_grf_start: u32,
    /// GRFs the program uses (Mesa's `grf_used`; 3DSTATE_VS needs none on Gen8+).
    pub grfs: u32,
    /// The draw-parameter element (x = first vertex, y = base instance, z = vertex id from
    /// the first vertex, w = instance id) is pushed for these (`uses_firstvertex`,
    /// `uses_baseinstance`, `uses_vertexid`, `uses_instanceid`).
    pub uses_firstvertex: u32,
    pub uses_baseinstance: u32,
    pub uses_vertexid: u32,
    pub uses_instanceid: u32,
    /// The draw-id element (x = draw id, y = ~0 for indexed draws) is pushed
    /// (`uses_drawid`).
    pub uses_drawid: u32,
    /// How threads run (`dispatch_mode`, Mesa's `shader_dispatch_mode`): 2 =
    /// DISPATCH_MODE_4X2_DUAL_OBJECT (Gen7: SIMD4x2, two vertices a thread), 3 =
    /// DISPATCH_MODE_SIMD8 (Gen8+: eight vertices a thread); 3DSTATE_VS takes it.
    pub dispatch_mode: u32,
    /// `gl_ClipDistance` elements written, bit i = distance i (`clip_distance_mask`; the
    /// clipper's user clip distance enables).
    pub clip_distance_mask: u32,
    /// `gl_CullDistance` elements, numbered after the clip distances (`cull_distance_mask`).
    pub cull_distance_mask: u32,
}

/// One input slot of a fragment program, in the order of its attribute setup data
/// (Mesa's `urb_setup` order): SBE attribute `index` must be fed from the VUE slot holding
/// `varying`. Past 16 inputs (compiled with the key's `input_slots_valid`) the slots are
/// the previous stage's VUE slots from the first one read on (see gpucc_program_fs_urb_setup),
/// so a slot can hold a varying the program does not read (`read` 0) or padding (`varying`
/// 0xffffffff, Mesa's BRW_VARYING_SLOT_PAD).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct FsInput {
    /// Set by the caller: `sizeof(gpucc_fs_input)`.
    pub struct_size: u32,
    /// The `VARYING_SLOT` number read (Mesa's gl_varying_slot).
    pub varying: u32,
    /// Constant interpolation: the driver sets the slot's bit in the SBE constant
    /// interpolation enable (`flat_inputs`).
    pub flat: u32,
    /// Read with non-perspective barycentrics (the WM barycentric modes include them;
    /// `INTERP_MODE_NOPERSPECTIVE` of the input).
    pub noperspective: u32,
    /// The program reads the slot (Mesa: `urb_setup[varying]` is this slot). 0 only past 16
    /// inputs, for a VUE slot between those read.
    pub read: u32,
}

pub(super) fn kernel<'a>(program: *const Program, entry: &str) -> Result<&'a Kernel, Error> {
    // SAFETY: a non-NULL program is a live handle from gpucc_compile.
    let p: &'a Program = unsafe { program.as_ref() }
        .ok_or_else(|| Error::invalid(format!("{entry}: program is NULL")))?;
    match &p.code {
        Code::Intel(k) => Ok(k),
        Code::Etnaviv(_) => Err(Error::invalid(format!(
            "{entry}: a Vivante program (this describes Intel programs)"
        ))),
    }
}

fn vertex<'a>(
    program: *const Program,
    entry: &str,
) -> Result<&'a crate::intel::kernel::VertexInfo, Error> {
    kernel(program, entry)?
        .vertex
        .as_ref()
        .ok_or_else(|| Error::invalid(format!("{entry}: not a vertex program")))
}

/// Fills `*info` (its `struct_size` set by the caller) with a vertex program's facts. A
/// program of another stage or family is GPUCC_STATUS_INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn gpucc_program_vs_info(program: *const Program, info: *mut VsInfo) -> Status {
    guard("gpucc_program_vs_info", || {
        let k = kernel(program, "gpucc_program_vs_info")?;
        let v = vertex(program, "gpucc_program_vs_info")?;
        let variant = k.simd.first();
        let value = VsInfo {
            struct_size: std::mem::size_of::<VsInfo>() as u32,
            nr_attribute_slots: v.nr_attribute_slots,
            inputs_read: v.inputs_read,
            vue_slots_valid: v.vue_map.slots_valid,
            num_vue_slots: v.vue_map.num_slots(),
            vue_separate: v.vue_map.separate as u32,
            urb_read_length: v.urb_read_length(),
            urb_entry_size: v.urb_entry_size(),
            dispatch_grf_start: variant.map_or(0, |s| s.dispatch_grf_start),
            grfs: variant.map_or(0, |s| s.grfs_used),
            uses_firstvertex: v.uses_first_vertex as u32,
            uses_baseinstance: v.uses_base_instance as u32,
            uses_vertexid: v.uses_vertex_id as u32,
            uses_instanceid: v.uses_instance_id as u32,
            uses_drawid: v.uses_draw_id as u32,
            dispatch_mode: if k.is_simd4x2() { 2 } else { 3 },
            clip_distance_mask: u32::from(v.clip_distance_mask),
            cull_distance_mask: u32::from(v.cull_distance_mask),
        };
        write_sized!(
            info,
            value,
            VsInfo,
            [
                struct_size,
                nr_attribute_slots,
                inputs_read,
                vue_slots_valid,
                num_vue_slots,
                vue_separate,
                urb_read_length,
                urb_entry_size,
                dispatch_grf_start,
                grfs,
                uses_firstvertex,
                uses_baseinstance,
                uses_vertexid,
                uses_instanceid,
                uses_drawid,
                dispatch_mode,
                clip_distance_mask,
                cull_distance_mask,
            ]
        )
    })
}

/// The output VUE map of a program that feeds the rasteriser or a later geometry stage: a
/// vertex, tessellation-evaluation or geometry program (Mesa's `brw_vue_prog_data::vue_map`,
/// which iris and crocus read from whichever of them is the last before the rasteriser to
/// program 3DSTATE_SBE).
fn output_vue_map<'a>(program: *const Program, entry: &str) -> Result<&'a VueMap, Error> {
    let k = kernel(program, entry)?;
    let map = k.vertex.as_ref().map(|v| &v.vue_map);
    map.or(k.tess_eval.as_ref().map(|t| &t.vue_map))
        .or(k.geometry.as_ref().map(|g| &g.vue_map))
        .ok_or_else(|| {
            Error::invalid(format!(
                "{entry}: not a vertex, tessellation-evaluation or geometry program"
            ))
        })
}

/// The varying (`VARYING_SLOT` number) in slot `slot` of the output VUE map of a vertex,
/// tessellation-evaluation or geometry program, or -1 for a padding slot. A slot past
/// `num_vue_slots` is GPUCC_STATUS_INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn gpucc_program_vue_slot(
    program: *const Program,
    slot: u32,
    varying: *mut i32,
) -> Status {
    guard("gpucc_program_vue_slot", || {
        const ENTRY: &str = "gpucc_program_vue_slot";
        write_vue_slot(output_vue_map(program, ENTRY)?, slot, varying, ENTRY)
    })
}

/// Writes the varying in `slot` of `map` (-1 for padding) to `*varying`.
pub(super) fn write_vue_slot(
    map: &VueMap,
    slot: u32,
    varying: *mut i32,
    entry: &str,
) -> Result<(), Error> {
    let s = map.slots.get(slot as usize).ok_or_else(|| {
        Error::invalid(format!(
            "{entry}: slot {slot} of a {}-slot VUE map",
            map.num_slots()
        ))
    })?;
    write_out(varying, s.map_or(-1, |x| x as i32), "varying")
}

/// The slot of the output VUE map of a vertex, tessellation-evaluation or geometry program
/// that holds `varying`, or -1 when the program does not write it (GL then reads zeros; the
/// driver feeds the SBE attribute a constant). Mesa: `vue_map.varying_to_slot[varying]`.
#[no_mangle]
pub extern "C" fn gpucc_program_vue_slot_of(
    program: *const Program,
    varying: u32,
    slot: *mut i32,
) -> Status {
    guard("gpucc_program_vue_slot_of", || {
        let map = output_vue_map(program, "gpucc_program_vue_slot_of")?;
        write_out(slot, map.slot_of(varying).map_or(-1, |s| s as i32), "slot")
    })
}

/// Input slot `index` (0 .. `inputs` of gpucc_program_info) of a fragment program into
/// `*input` (its `struct_size` set by the caller).
#[no_mangle]
pub extern "C" fn gpucc_program_fs_input(
    program: *const Program,
    index: u32,
    input: *mut FsInput,
) -> Status {
    guard("gpucc_program_fs_input", || {
        const ENTRY: &str = "gpucc_program_fs_input";
        kernel(program, ENTRY)?;
        let p = super::program::program_ref(program, ENTRY)?;
        let inputs = p.fragment_inputs();
        let i = inputs.get(index as usize).ok_or_else(|| {
            Error::invalid(format!("{ENTRY}: index {index} of {} inputs", inputs.len()))
        })?;
        let varying = i.varying;
        let value = FsInput {
            struct_size: std::mem::size_of::<FsInput>() as u32,
            varying,
            flat: i.flat as u32,
            noperspective: i.noperspective as u32,
            read: i.read as u32,
        };
        write_sized!(
            input,
            value,
            FsInput,
            [struct_size, varying, flat, noperspective, read]
        )
    })
}
