//! The binding facts of `crate::program::binding` as C structs: an Intel program's
//! push-constant layout, binding table and fragment facts; a Vivante program's uniform file,
//! I/O registers and register facts. Every struct is size-prefixed (see `sized`).

use super::program::program_ref;
use super::sized::write_sized;
use super::status::{guard, Error, Status};
use crate::program::{BindingKind, ComputedDepth, EtnaUniform, Program};

/// What a binding-table entry or sampler state holds.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BindingKindC {
    /// Colour render target `index` (Intel; Mesa's `render_target_start + index`).
    #[default]
    RenderTarget = 0,
    /// The texture the NIR names with `texture_index` = `index` (Mesa's `texture_start`
    /// group; Vivante: the sampler unit in `slot`).
    Texture = 1,
    /// Sampler state `index` of the sampler-state table (Intel).
    Sampler = 2,
    /// Uniform block `index`, read with pull-constant messages (Intel; `ubo_start`).
    UniformBuffer = 3,
    /// Storage block `index` (Intel; `ssbo_start`).
    StorageBuffer = 4,
}

/// One entry a driver must fill before a draw or dispatch: the `kind` numbered `index` goes
/// at binding-table index `slot` (Intel; for samplers, sampler-state index `slot`), or at
/// texture sampler unit `slot` (Vivante).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct BindingC {
    /// Set by the caller: `sizeof(gpucc_binding)`.
    pub struct_size: u32,
    pub kind: BindingKindC,
    pub index: u32,
    pub slot: u32,
}

/// One pushed dword of an Intel program (an entry of Mesa's `brw_stage_prog_data::param`,
/// or a dword of a pushed `ubo_ranges` range): the driver stores dword `offset / 4` of
/// uniform block `block` there. `block` is the block operand of the shader's `load_ubo`, as
/// the NIR gives it. In NIR taken where crocus and iris hand it to brw, that operand is
/// already the driver's binding-table slot (`crocus_setup_binding_table` rewrote it): their
/// default uniform block, constant buffer 0, is the first UBO slot, after the render
/// targets, so a fragment shader with one render target reads its uniforms from block 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PushParamC {
    /// Set by the caller: `sizeof(gpucc_push_param)`.
    pub struct_size: u32,
    pub block: u32,
    /// Byte offset in the block, a multiple of 4 (for the default uniform block, Mesa's
    /// `param[i]` is `offset / 4`; for a pushed UBO, `ubo_ranges[].start * 32` plus the
    /// dword's place).
    pub offset: u32,
}

/// One pushed UBO range of an Intel program compiled with GPUCC_BINDING_MODEL_MESA (Mesa's
/// `brw_ubo_range`): `length` 32-byte registers of UBO `block` from register `start`. The
/// ranges follow each other in the push-constant data in order (range 0 first), as
/// 3DSTATE_CONSTANT_* buffers 0-3 take them; their dwords are also the entries of
/// gpucc_program_push_param.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct UboRangeC {
    /// Set by the caller: `sizeof(gpucc_ubo_range)`.
    pub struct_size: u32,
    /// The `load_ubo` block operand: the buffer's binding-table slot in the driver's NIR.
    pub block: u32,
    /// First 32-byte register of the block pushed (`start`).
    pub start: u32,
    /// Registers pushed (`length`).
    pub length: u32,
}

/// An Intel fragment program's facts for 3DSTATE_WM, 3DSTATE_PS, 3DSTATE_PS_EXTRA and
/// 3DSTATE_SBE (Mesa's `brw_wm_prog_data`). Booleans are 0 or 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct FsInfo {
    /// Set by the caller: `sizeof(gpucc_fs_info)`.
    pub struct_size: u32,
    /// Which dispatch widths exist (`dispatch_8`, `dispatch_16`, `dispatch_32`).
    pub dispatch_8: u32,
    pub dispatch_16: u32,
    pub dispatch_32: u32,
    /// Byte offsets of the SIMD16 and SIMD32 kernels in the code (`prog_offset_16`,
    /// `prog_offset_32`; the SIMD8 kernel, when present, is at 0).
    pub prog_offset_16: u32,
    pub prog_offset_32: u32,
    /// First GRF after the payload per width: 3DSTATE_PS "Dispatch GRF Start Register For
    /// Constant/Setup Data" 0, 1 and 2 (`dispatch_grf_start_reg`, `_16`, `_32`).
    pub dispatch_grf_start_reg: u32,
    pub dispatch_grf_start_reg_16: u32,
    pub dispatch_grf_start_reg_32: u32,
    /// Colour render targets written, 0 .. n (the key's `nr_color_regions` the program
    /// was built for).
    pub num_render_targets: u32,
    /// 0 = off, 1 = the program writes depth (`computed_depth_mode`,
    /// `BRW_PSCDEPTH_OFF` / `BRW_PSCDEPTH_ON`).
    pub computed_depth_mode: u32,
    /// The program writes the coverage mask (`uses_omask`).
    pub uses_omask: u32,
    /// The program can discard pixels (`uses_kill`): the driver sets "Pixel Shader Kills
    /// Pixel".
    pub uses_kill: u32,
    /// Interpolated source depth and W are in the payload (`uses_src_depth`, `uses_src_w`).
    pub uses_src_depth: u32,
    pub uses_src_w: u32,
    /// The input coverage mask is in the payload (`uses_sample_mask`).
    pub uses_sample_mask: u32,
    /// Dispatched per sample (`persample_dispatch`).
    pub persample_dispatch: u32,
    /// Render target 0 blends two source colours (`dual_src_blend`).
    pub dual_src_blend: u32,
    /// Barycentric sets in the payload, bit n = `brw_barycentric_mode` n: 0 perspective
    /// pixel, 1 centroid, 2 sample, 3-5 the same without perspective
    /// (`barycentric_interp_modes`).
    pub barycentric_interp_modes: u32,
    /// Input slots in attribute-setup order (`num_varying_inputs`); see
    /// gpucc_program_fs_input.
    pub num_varying_inputs: u32,
    /// Bit per input slot with constant interpolation: the SBE constant interpolation
    /// enable (`flat_inputs`).
    pub flat_inputs: u64,
    /// Bit per input slot interpolated without perspective correction (Mesa keeps this in
    /// the inputs' `interp_mode` and the `barycentric_interp_modes` it implies).
    pub noperspective_inputs: u64,
    /// The program writes memory: SSBO, image or global stores or atomics
    /// (`has_side_effects`, from NIR's `writes_memory`); the driver keeps it running for
    /// pixels that write no colour (3DSTATE_PS_EXTRA "Pixel Shader Has UAV").
    pub has_side_effects: u32,
    /// The shader's `early_fragment_tests` layout qualifier (`early_fragment_tests`): the
    /// driver forces early depth/stencil.
    pub early_fragment_tests: u32,
    /// The program writes stencil (`computed_stencil`): always 0, gpucc refuses a shader
    /// that stores FRAG_RESULT_STENCIL (GPUCC_STATUS_UNSUPPORTED naming it).
    pub computed_stencil: u32,
    /// The payload holds per-sample position offsets (`uses_pos_offset`): always 0, per-sample
    /// dispatch is not implemented (the `persample_interp` key is refused).
    pub uses_pos_offset: u32,
    /// The dispatch starts from the vector mask, so helper pixels run for derivatives
    /// (`uses_vmask`; 3DSTATE_PS "Vector Mask Enable"): always 1, as brw before XeHP.
    pub uses_vmask: u32,
    /// The varyings that have an input slot, bit n = VARYING_SLOT n (Mesa's `inputs`, the
    /// shader's `inputs_read`; on Gen9 a program with no input gets the layer, brw's
    /// header-only workaround). With gpucc_program_fs_urb_setup a driver programs
    /// 3DSTATE_SBE as crocus and iris do from `urb_setup` and `inputs`.
    pub inputs_read: u64,
    /// Entries of `urb_setup_attribs` (Mesa's `urb_setup_attribs_count`): the varyings with
    /// an input slot, in varying order; see gpucc_program_fs_urb_setup_attrib.
    pub urb_setup_attribs_count: u32,
}

/// A Vivante program's register facts (Mesa's `etna_shader_variant`). A register field is
/// -1 when the program has no such register.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EtnaInfo {
    /// Set by the caller: `sizeof(gpucc_etna_info)`.
    pub struct_size: u32,
    /// Temporary registers (`num_temps`): VS/PS_TEMP_REGISTER_CONTROL.
    pub num_temps: u32,
    /// Loops (`num_loops`).
    pub num_loops: u32,
    /// Uniform slots of four components (`uniforms.count / 4`); see
    /// gpucc_program_etna_uniform.
    pub num_uniform_slots: u32,
    /// Input and output registers (`infile.num_reg`, `outfile.num_reg`); see
    /// gpucc_program_etna_input / gpucc_program_etna_output.
    pub num_inputs: u32,
    pub num_outputs: u32,
    /// Vertex: the position and point-size output registers (`vs_pos_out_reg`,
    /// `vs_pointsize_out_reg`).
    pub vs_pos_out_reg: i32,
    pub vs_pointsize_out_reg: i32,
    /// Fragment: the colour and depth output registers (`ps_color_out_reg`,
    /// `ps_depth_out_reg`).
    pub ps_color_out_reg: i32,
    pub ps_depth_out_reg: i32,
    /// The program must run from memory through the instruction cache (`needs_icache`).
    pub needs_icache: u32,
    /// Fragment: the program can discard pixels (`uses_discard`).
    pub uses_discard: u32,
    /// Vertex: the input register the front end fills with the vertex id (component x) and
    /// the instance id (y) when the program reads `load_vertex_id` or `load_instance_id`, -1
    /// otherwise (Mesa's `vs_id_in_reg`): the register after the vertex attributes
    /// (`num_inputs`). The driver adds it to the VS inputs with VS_INPUT_COUNT's ID_ENABLE
    /// and, on HALTI5 cores, sets FE_HALTI5_ID_CONFIG's vertex id to component 4 * reg and
    /// instance id to 4 * reg + 1, as Mesa's `etna_shader_update_vs_inputs` does. Only cores
    /// from HALTI2 on compile those intrinsics.
    pub vs_id_in_reg: i32,
}

/// What fills one component of a Vivante uniform file (Mesa's `etna_uniform_contents`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EtnaUniformKind {
    /// Nothing reads it (`ETNA_UNIFORM_UNUSED`).
    #[default]
    Unused = 0,
    /// Dword `value` of the default uniform block (`ETNA_UNIFORM_UNIFORM`).
    User = 1,
    /// The raw bits `value` (`ETNA_UNIFORM_CONSTANT`).
    Constant = 2,
    /// 1.0 / width of the texture at sampler unit `value` (`ETNA_UNIFORM_TEXRECT_SCALE_X`).
    TexrectScaleX = 3,
    /// 1.0 / height of the texture at sampler unit `value` (`ETNA_UNIFORM_TEXRECT_SCALE_Y`).
    TexrectScaleY = 4,
    /// The GPU address of uniform buffer `value` (`ETNA_UNIFORM_UBO0_ADDR + value`).
    UboAddress = 5,
    /// The width of the texture at sampler unit `value`, an integer: its base level's, or a
    /// buffer texture's element count (`ETNA_UNIFORM_TEXTURE_WIDTH`; read by
    /// `load_texture_size_etna`, which is how etnaviv's NIR asks for textureSize).
    TextureWidth = 6,
    /// The height of the texture at sampler unit `value` (`ETNA_UNIFORM_TEXTURE_HEIGHT`).
    TextureHeight = 7,
    /// The depth of the texture at sampler unit `value`, or its layer count when it is an
    /// array (cube arrays: layers / 6) (`ETNA_UNIFORM_TEXTURE_DEPTH`).
    TextureDepth = 8,
}

/// One component of a Vivante program's uniform file: component `index % 4` of uniform
/// register `index / 4`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EtnaUniformC {
    /// Set by the caller: `sizeof(gpucc_etna_uniform)`.
    pub struct_size: u32,
    pub kind: EtnaUniformKind,
    /// See the kind (Mesa's `etna_shader_uniform_info::data`).
    pub value: u32,
}

/// A Vivante input or output register (Mesa's `etna_shader_inout`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EtnaIoC {
    /// Set by the caller: `sizeof(gpucc_etna_io)`.
    pub struct_size: u32,
    /// Register number (`reg`).
    pub reg: u32,
    /// `VERT_ATTRIB` (vertex inputs), `VARYING_SLOT` (varyings) or `FRAG_RESULT`
    /// (fragment outputs) number (`slot`), -1 when the NIR names none.
    pub slot: i32,
    /// The NIR driver location (`driver_location` of the variable).
    pub location: u32,
    /// Components, bit 0 = x (`num_components` as a mask). Inputs: the components of the
    /// variable's declared type, as Mesa's `infile` has them (`etna_link_shader` sizes each
    /// varying by the fragment shader's count). Outputs: the components the program writes
    /// (Mesa's `outfile` has the declared count, which the link does not read).
    pub component_mask: u32,
}

fn get<T: Clone>(items: &[T], index: u32, entry: &str, what: &str) -> Result<T, Error> {
    items
        .get(index as usize)
        .cloned()
        .ok_or_else(|| Error::invalid(format!("{entry}: index {index} of {} {what}", items.len())))
}

/// Binding `index` (0 .. `num_bindings` of gpucc_program_info) into `*binding` (its
/// `struct_size` set by the caller). Entries are sorted by kind, then index.
#[no_mangle]
pub extern "C" fn gpucc_program_binding(
    program: *const Program,
    index: u32,
    binding: *mut BindingC,
) -> Status {
    guard("gpucc_program_binding", || {
        const ENTRY: &str = "gpucc_program_binding";
        let p = program_ref(program, ENTRY)?;
        let b = get(&p.bindings(), index, ENTRY, "bindings")?;
        let value = BindingC {
            struct_size: std::mem::size_of::<BindingC>() as u32,
            kind: match b.kind {
                BindingKind::RenderTarget => BindingKindC::RenderTarget,
                BindingKind::Texture => BindingKindC::Texture,
                BindingKind::Sampler => BindingKindC::Sampler,
                BindingKind::UniformBuffer => BindingKindC::UniformBuffer,
                BindingKind::StorageBuffer => BindingKindC::StorageBuffer,
            },
            index: b.index,
            slot: b.slot,
        };
        write_sized!(binding, value, BindingC, [struct_size, kind, index, slot])
    })
}

/// Pushed dword `index` (0 .. `uniforms` of gpucc_program_info) of an Intel program into
/// `*param` (its `struct_size` set by the caller), in payload order: dword `index` of the
/// push-constant data the driver uploads.
#[no_mangle]
pub extern "C" fn gpucc_program_push_param(
    program: *const Program,
    index: u32,
    param: *mut PushParamC,
) -> Status {
    guard("gpucc_program_push_param", || {
        const ENTRY: &str = "gpucc_program_push_param";
        let p = program_ref(program, ENTRY)?;
        let q = get(&p.push_params(), index, ENTRY, "pushed dwords")?;
        let value = PushParamC {
            struct_size: std::mem::size_of::<PushParamC>() as u32,
            block: q.block,
            offset: q.offset,
        };
        write_sized!(param, value, PushParamC, [struct_size, block, offset])
    })
}

/// Pushed UBO range `index` (0 .. `num_ubo_ranges` of gpucc_program_info) into `*range`
/// (its `struct_size` set by the caller).
#[no_mangle]
pub extern "C" fn gpucc_program_ubo_range(
    program: *const Program,
    index: u32,
    range: *mut UboRangeC,
) -> Status {
    guard("gpucc_program_ubo_range", || {
        const ENTRY: &str = "gpucc_program_ubo_range";
        let p = program_ref(program, ENTRY)?;
        let r = get(&p.ubo_ranges(), index, ENTRY, "UBO ranges")?;
        let value = UboRangeC {
            struct_size: std::mem::size_of::<UboRangeC>() as u32,
            block: r.block,
            start: r.start,
            length: r.length,
        };
        write_sized!(range, value, UboRangeC, [struct_size, block, start, length])
    })
}

/// Fills `*info` (its `struct_size` set by the caller) with an Intel fragment program's
/// facts. Another stage or a Vivante program is GPUCC_STATUS_INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn gpucc_program_fs_info(program: *const Program, info: *mut FsInfo) -> Status {
    guard("gpucc_program_fs_info", || {
        const ENTRY: &str = "gpucc_program_fs_info";
        let p = program_ref(program, ENTRY)?;
        let f = p
            .fragment_info()
            .ok_or_else(|| Error::invalid(format!("{ENTRY}: not an Intel fragment program")))?;
        let kernels = p.intel_kernels();
        let width = |w| kernels.iter().find(|k| k.simd == w);
        let value = FsInfo {
            struct_size: std::mem::size_of::<FsInfo>() as u32,
            dispatch_8: width(8).is_some() as u32,
            dispatch_16: width(16).is_some() as u32,
            dispatch_32: width(32).is_some() as u32,
            prog_offset_16: width(16).map_or(0, |v| v.offset),
            prog_offset_32: width(32).map_or(0, |v| v.offset),
            dispatch_grf_start_reg: width(8).map_or(0, |v| v.dispatch_grf_start),
            dispatch_grf_start_reg_16: width(16).map_or(0, |v| v.dispatch_grf_start),
            dispatch_grf_start_reg_32: width(32).map_or(0, |v| v.dispatch_grf_start),
            num_render_targets: f.num_render_targets,
            computed_depth_mode: match f.computed_depth_mode {
                ComputedDepth::Off => 0,
                ComputedDepth::On => 1,
            },
            uses_omask: f.uses_omask as u32,
            uses_kill: f.uses_kill as u32,
            uses_src_depth: f.uses_src_depth as u32,
            uses_src_w: f.uses_src_w as u32,
            uses_sample_mask: f.uses_sample_mask as u32,
            persample_dispatch: f.persample_dispatch as u32,
            dual_src_blend: f.dual_src_blend as u32,
            barycentric_interp_modes: f.barycentric_interp_modes,
            num_varying_inputs: f.num_varying_inputs,
            flat_inputs: f.flat_inputs,
            noperspective_inputs: f.noperspective_inputs,
            has_side_effects: f.has_side_effects as u32,
            early_fragment_tests: f.early_fragment_tests as u32,
            computed_stencil: 0,
            uses_pos_offset: 0,
            uses_vmask: 1,
            inputs_read: urb_setup_attribs(p).iter().fold(0u64, |m, &v| m | 1 << v),
            urb_setup_attribs_count: urb_setup_attribs(p).len() as u32,
        };
        write_sized!(
            info,
            value,
            FsInfo,
            [
                struct_size,
                dispatch_8,
                dispatch_16,
                dispatch_32,
                prog_offset_16,
                prog_offset_32,
                dispatch_grf_start_reg,
                dispatch_grf_start_reg_16,
                dispatch_grf_start_reg_32,
                num_render_targets,
                computed_depth_mode,
                uses_omask,
                uses_kill,
                uses_src_depth,
                uses_src_w,
                uses_sample_mask,
                persample_dispatch,
                dual_src_blend,
                barycentric_interp_modes,
                num_varying_inputs,
                flat_inputs,
                noperspective_inputs,
                has_side_effects,
                early_fragment_tests,
                computed_stencil,
                uses_pos_offset,
                uses_vmask,
                inputs_read,
                urb_setup_attribs_count,
            ]
        )
    })
}

/// Mesa's `urb_setup_attribs`: the varyings that have an input slot, in varying order.
fn urb_setup_attribs(p: &Program) -> Vec<u32> {
    (0u32..)
        .zip(p.urb_setup())
        .filter(|&(_, s)| s >= 0)
        .map(|(v, _)| v)
        .collect()
}

/// The input slot (attribute) of an Intel fragment program that varying `varying`
/// (a VARYING_SLOT number below 64, Mesa's VARYING_SLOT_MAX) is read from, or -1 when the
/// program gives it none, into `*slot` (Mesa's `brw_wm_prog_data::urb_setup[varying]`). Up
/// to 16 inputs the slots are the varyings read, in varying order (the SBE swizzles them
/// from wherever the previous stage wrote them); past 16, compiled with the key's
/// `input_slots_valid`, they are the previous stage's VUE map from the first slot brw
/// requires (`brw_compute_first_urb_slot_required`, which the driver computes as crocus and
/// iris do) on, so slot i is VUE slot first + i. Another program is
/// GPUCC_STATUS_INVALID_ARGUMENT, as is a varying of 64 or more.
#[no_mangle]
pub extern "C" fn gpucc_program_fs_urb_setup(
    program: *const Program,
    varying: u32,
    slot: *mut i32,
) -> Status {
    guard("gpucc_program_fs_urb_setup", || {
        const ENTRY: &str = "gpucc_program_fs_urb_setup";
        let p = program_ref(program, ENTRY)?;
        let setup = p.urb_setup();
        if setup.is_empty() {
            return Err(Error::invalid(format!(
                "{ENTRY}: not an Intel fragment program"
            )));
        }
        let s = get(&setup, varying, ENTRY, "varyings (VARYING_SLOT_MAX)")?;
        super::status::write_out(slot, s, "slot")
    })
}

/// Entry `index` (0 .. `urb_setup_attribs_count` of gpucc_fs_info) of an Intel fragment
/// program's `urb_setup_attribs` into `*varying`: the varyings that have an input slot, in
/// varying order (Mesa's `brw_wm_prog_data::urb_setup_attribs`).
#[no_mangle]
pub extern "C" fn gpucc_program_fs_urb_setup_attrib(
    program: *const Program,
    index: u32,
    varying: *mut u32,
) -> Status {
    guard("gpucc_program_fs_urb_setup_attrib", || {
        const ENTRY: &str = "gpucc_program_fs_urb_setup_attrib";
        let p = program_ref(program, ENTRY)?;
        if p.urb_setup().is_empty() {
            return Err(Error::invalid(format!(
                "{ENTRY}: not an Intel fragment program"
            )));
        }
        let v = get(&urb_setup_attribs(p), index, ENTRY, "attributes")?;
        super::status::write_out(varying, v, "varying")
    })
}

/// Fills `*info` (its `struct_size` set by the caller) with a Vivante program's register
/// facts. An Intel program is GPUCC_STATUS_INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn gpucc_program_etna_info(program: *const Program, info: *mut EtnaInfo) -> Status {
    guard("gpucc_program_etna_info", || {
        const ENTRY: &str = "gpucc_program_etna_info";
        let p = program_ref(program, ENTRY)?;
        let e = p
            .etna_info()
            .ok_or_else(|| Error::invalid(format!("{ENTRY}: not a Vivante program")))?;
        let reg = |r: Option<u32>| r.map_or(-1, |r| r as i32);
        let value = EtnaInfo {
            struct_size: std::mem::size_of::<EtnaInfo>() as u32,
            num_temps: e.num_temps,
            num_loops: e.num_loops,
            num_uniform_slots: p.etna_uniforms().len() as u32 / 4,
            num_inputs: p.etna_inputs().len() as u32,
            num_outputs: p.etna_outputs().len() as u32,
            vs_pos_out_reg: reg(e.vs_pos_out_reg),
            vs_pointsize_out_reg: reg(e.vs_pointsize_out_reg),
            ps_color_out_reg: reg(e.ps_color_out_reg),
            ps_depth_out_reg: reg(e.ps_depth_out_reg),
            needs_icache: e.needs_icache as u32,
            uses_discard: e.uses_discard as u32,
            vs_id_in_reg: reg(e.vs_id_in_reg),
        };
        write_sized!(
            info,
            value,
            EtnaInfo,
            [
                struct_size,
                num_temps,
                num_loops,
                num_uniform_slots,
                num_inputs,
                num_outputs,
                vs_pos_out_reg,
                vs_pointsize_out_reg,
                ps_color_out_reg,
                ps_depth_out_reg,
                needs_icache,
                uses_discard,
                vs_id_in_reg,
            ]
        )
    })
}

/// Component `index` (0 .. 4 * `num_uniform_slots`) of a Vivante program's uniform file
/// into `*uniform` (its `struct_size` set by the caller). The driver fills the file from
/// these before every draw: user dwords from its uniform storage, constants as given,
/// texture scales and buffer addresses from its bindings.
#[no_mangle]
pub extern "C" fn gpucc_program_etna_uniform(
    program: *const Program,
    index: u32,
    uniform: *mut EtnaUniformC,
) -> Status {
    guard("gpucc_program_etna_uniform", || {
        const ENTRY: &str = "gpucc_program_etna_uniform";
        let p = program_ref(program, ENTRY)?;
        let u = get(&p.etna_uniforms(), index, ENTRY, "uniform components")?;
        let (kind, value) = match u {
            EtnaUniform::Unused => (EtnaUniformKind::Unused, 0),
            EtnaUniform::User { index } => (EtnaUniformKind::User, index),
            EtnaUniform::Constant(bits) => (EtnaUniformKind::Constant, bits),
            EtnaUniform::TextureScale { unit, comp: 0 } => (EtnaUniformKind::TexrectScaleX, unit),
            EtnaUniform::TextureScale { unit, .. } => (EtnaUniformKind::TexrectScaleY, unit),
            EtnaUniform::TextureSize { unit, comp: 0 } => (EtnaUniformKind::TextureWidth, unit),
            EtnaUniform::TextureSize { unit, comp: 1 } => (EtnaUniformKind::TextureHeight, unit),
            EtnaUniform::TextureSize { unit, .. } => (EtnaUniformKind::TextureDepth, unit),
            EtnaUniform::UboAddress { block } => (EtnaUniformKind::UboAddress, block),
        };
        let value = EtnaUniformC {
            struct_size: std::mem::size_of::<EtnaUniformC>() as u32,
            kind,
            value,
        };
        write_sized!(uniform, value, EtnaUniformC, [struct_size, kind, value])
    })
}

fn etna_io(
    program: *const Program,
    index: u32,
    io: *mut EtnaIoC,
    outputs: bool,
    entry: &str,
) -> Result<(), Error> {
    let p = program_ref(program, entry)?;
    if p.etna_info().is_none() {
        return Err(Error::invalid(format!("{entry}: not a Vivante program")));
    }
    let regs = if outputs {
        p.etna_outputs()
    } else {
        p.etna_inputs()
    };
    let r = get(&regs, index, entry, "registers")?;
    let value = EtnaIoC {
        struct_size: std::mem::size_of::<EtnaIoC>() as u32,
        reg: r.reg,
        slot: r.slot,
        location: r.location,
        component_mask: r.component_mask,
    };
    write_sized!(
        io,
        value,
        EtnaIoC,
        [struct_size, reg, slot, location, component_mask]
    )
}

/// Input register `index` (0 .. `num_inputs` of gpucc_etna_info) of a Vivante program
/// into `*io` (its `struct_size` set by the caller).
#[no_mangle]
pub extern "C" fn gpucc_program_etna_input(
    program: *const Program,
    index: u32,
    io: *mut EtnaIoC,
) -> Status {
    guard("gpucc_program_etna_input", || {
        etna_io(program, index, io, false, "gpucc_program_etna_input")
    })
}

/// Output register `index` (0 .. `num_outputs` of gpucc_etna_info) of a Vivante program
/// into `*io` (its `struct_size` set by the caller).
#[no_mangle]
pub extern "C" fn gpucc_program_etna_output(
    program: *const Program,
    index: u32,
    io: *mut EtnaIoC,
) -> Status {
    guard("gpucc_program_etna_output", || {
        etna_io(program, index, io, true, "gpucc_program_etna_output")
    })
}
