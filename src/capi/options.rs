//! `gpucc_compile_options`: the options and compile key of one compile, and their reading
//! from a caller's struct of any version.
//!
//! The struct is size-prefixed: the caller sets `struct_size` to `sizeof` of the struct it
//! was built with. A caller built against an older (smaller) header gives a prefix; the
//! fields it does not have keep their "no key" value. A caller built against a newer header
//! gives a larger struct; the bytes this library does not know must then be zero (a key this
//! library cannot honour is never dropped silently).

use std::ffi::c_void;

use super::status::Error;
use crate::compiler::{BindingModel, CompileOptions};
use crate::intel::ubo_ranges::{DriverRanges, UboRange};

/// `nr_color_regions` value for Mesa's `nr_color_regions = 0`: no colour buffer is bound
/// (0 in the field means "not given").
pub const NO_COLOR_REGIONS: u32 = 0xffff_ffff;

/// Options and compile key of one compile. Pass NULL for the defaults; otherwise start
/// from a zeroed struct and set `struct_size = sizeof(gpucc_compile_options)`: every field
/// left 0 means "no key" (the code gpucc produces without one). Boolean fields take 0 or 1.
///
/// A key field gpucc does not implement (any value other than 0) makes gpucc_compile
/// return GPUCC_STATUS_UNSUPPORTED naming the field and value; a key of the other family or
/// of another stage likewise.
///
/// Pass the key of the variant Mesa's driver is compiling, with its NIR taken at the hand-over
/// point (README, "Getting NIR out of Mesa"). Each key field below says whether Mesa 23.3
/// reads it in the backend, after that point ("backend field": gpucc applies it), or applies
/// it in its NIR passes before it ("NIR field": the NIR already carries it, so gpucc does
/// not apply it again, and refuses with GPUCC_STATUS_INVALID_ARGUMENT, naming the field and the
/// slot, NIR that shows the key was not applied). `apply_nir_keys` = 1 is for NIR cut before
/// Mesa's key lowering: gpucc then applies the NIR fields itself, as Mesa's passes would.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CompileOptionsC {
    /// Set by the caller: `sizeof(gpucc_compile_options)` of the header it was built with.
    /// A multiple of 4; at least 8.
    pub struct_size: u32,
    /// Intel: the SIMD widths to try as a bit mask, 1 = SIMD8, 2 = SIMD16, 4 = SIMD32; 0 lets
    /// the backend choose (Mesa's `INTEL_DEBUG=no8,no16,no32` choose the same). A width in the
    /// mask is tried, not promised: SIMD16 and SIMD32 are dropped when they do not fit without
    /// spilling, and SIMD32 is kept only when its estimated throughput beats the narrower
    /// programs' (Mesa's `brw_compile_fs` rule); gpucc does not try SIMD32 at all when the SIMD16
    /// program's busiest execution unit outlasts its thread, where SIMD32 cannot win. The
    /// program's `simd32_offset` tells which widths were built. Ignored for Vivante targets.
    pub simd_mask: u32,
    /// Intel FS (`brw_wm_prog_key::nr_color_regions`): colour buffers bound, 1-8.
    /// `gl_FragColor` (FRAG_RESULT_COLOR) is written to every region; FRAG_RESULT_DATAi with
    /// i >= nr_color_regions is not written. GPUCC_NO_COLOR_REGIONS for Mesa's 0 (no colour
    /// buffer: one write to render target 0, which the driver binds to a null surface).
    /// 0: not given, one render target per colour output the shader writes. Backend field
    /// (Mesa's `fs_visitor` writes the render targets): applied.
    pub nr_color_regions: u32,
    /// Intel FS (`brw_wm_prog_key::flat_shade`, GL's glShadeModel(GL_FLAT)): colour inputs
    /// (COL0, COL1; BFC0, BFC1 too) whose interpolation the shader leaves unspecified
    /// (INTERP_MODE_NONE) are flat. NIR field: Mesa's `brw_nir_lower_fs_inputs` has already
    /// given every input a mode at the hand-over (flat for those colours under this key, smooth
    /// otherwise; a colour the shader declares `smooth` stays smooth), so gpucc compiles the
    /// modes the NIR has and gpucc_program_fs_input reports them. A colour input still
    /// INTERP_MODE_NONE (or read through an `interp_mode=0` barycentric) with flat_shade = 1 is
    /// INVALID_ARGUMENT naming the slot. With `apply_nir_keys` gpucc makes those colours flat.
    pub flat_shade: u32,
    /// Intel FS (`brw_wm_prog_key::persample_interp`): read by Mesa in NIR (per-sample
    /// barycentrics) and in the backend (dispatch). Not implemented: 1 is UNSUPPORTED.
    pub persample_interp: u32,
    /// Intel FS (`brw_wm_prog_key::alpha_to_coverage`): Mesa 23.3 lowers it in NIR on Gen7+
    /// before the hand-over (`brw_nir_lower_alpha_to_coverage`, for shaders writing
    /// gl_SampleMask) and reads it in the backend (alpha replicated to every render target).
    /// Not implemented: 1 is UNSUPPORTED.
    pub alpha_to_coverage: u32,
    /// Intel FS (`brw_wm_prog_key::emit_alpha_test`, Gen4/5 MRT alpha test): 1 lowers the
    /// alpha test into the shader with `alpha_test_func`. Backend field
    /// (`fs_visitor::emit_alpha_test`). Not implemented: 1 is UNSUPPORTED.
    pub emit_alpha_test: u32,
    /// Intel FS (`brw_wm_prog_key::alpha_test_func`): Mesa's `enum compare_func` (0 NEVER ..
    /// 7 ALWAYS), read only with `emit_alpha_test`; must be 0 without it.
    pub alpha_test_func: u32,
    /// Intel VS (`brw_vs_prog_key::nr_userclip_plane_consts`): user clip planes the shader
    /// computes distances for. crocus and iris lower them in NIR (`nir_lower_clip_vs`) before
    /// calling `brw_compile_vs`. Not implemented: a value other than 0 is UNSUPPORTED.
    pub nr_userclip_plane_consts: u32,
    /// etnaviv FS (`etna_shader_key::frag_rb_swap`): the shader swaps red and blue of colour
    /// output 0 (the render target has a format the PE stores swapped). NIR field: Mesa's
    /// `etna_lower_io` has put the swap into the NIR at the hand-over, so pass the variant's key
    /// as it is and gpucc does not swap again. With `apply_nir_keys` gpucc adds the swap.
    pub frag_rb_swap: u32,
    /// etnaviv FS (`etna_shader_key::sprite_coord_enable`): mask of the TEX0..7 varyings
    /// point sprites replace with the point coordinate (0-0xff): a read of TEXi becomes
    /// (PNTC.x, PNTC.y, 0, 1), where PNTC is a vec2 input (VARYING_SLOT_PNTC), which the driver
    /// feeds with the rasterizer's point coordinate. NIR field: Mesa's
    /// `nir_lower_texcoord_replace` has done it at the hand-over; a shader that still reads a
    /// TEXi in the mask and no PNTC is INVALID_ARGUMENT naming the slot. With `apply_nir_keys`
    /// gpucc does the replacement, PNTC a new input at the first free input location.
    pub sprite_coord_enable: u32,
    /// etnaviv FS (`etna_shader_key::sprite_coord_yinvert`): the replaced y is 1 - PNTC.y.
    /// Only with `sprite_coord_enable`. NIR field, like it.
    pub sprite_coord_yinvert: u32,
    /// Where the NIR was taken. 0 (the default): at the documented hand-over point, where
    /// Mesa has applied the NIR fields (`flat_shade`, `frag_rb_swap`, `sprite_coord_enable`,
    /// `sprite_coord_yinvert`): gpucc does not apply them again. 1: before Mesa's key lowering
    /// (hand-written NIR, NIR cut early): gpucc applies them as Mesa's passes would. Backend
    /// fields are applied either way. Added after `sprite_coord_yinvert`: a caller built against
    /// an older header (a smaller `struct_size`) gets 0.
    pub apply_nir_keys: u32,
    /// Intel: the binding model, GPUCC_BINDING_MODEL_GPUCC (0, the default) or
    /// GPUCC_BINDING_MODEL_MESA (1), as crocus and iris need it: texture, UBO and SSBO
    /// indices in the NIR are the final binding-table slots the driver assigned
    /// (`crocus_setup_binding_table`; gpucc adds no bases), and uniform data is pushed as up
    /// to four UBO ranges (three on Gen7, as brw keeps them for crocus's
    /// `constant_buffer_0_is_relative`) chosen as `brw_nir_analyze_ubo_ranges` chooses them,
    /// within 64 registers (32 for Gen7 vertex shaders), with pull loads for every other
    /// constant (gpucc_program_ubo_range reads them: Mesa's `ubo_ranges`). Compute programs
    /// push one range fewer, within 63 registers, followed by the subgroup id, split into
    /// cross-thread and per-thread data as Mesa splits them, and compute their local ids from
    /// the subgroup id (gpucc_cs_info, GPUCC_CS_PUSH_LAYOUT_MESA). Under 0 gpucc's own layout:
    /// UBO block b at slot 64 + b, SSBO block b at 128 + b, dwords pushed in order of first
    /// use, compute local ids pushed per thread. Vivante programs are the same under both.
    /// Added after `apply_nir_keys`.
    pub binding_model: u32,
    /// Intel FS (`brw_wm_prog_key::clamp_fragment_color`): colour outputs clamped to [0, 1].
    /// Backend field: gpucc saturates the stored colours (Mesa's render-target write does).
    pub clamp_fragment_color: u32,
    /// Intel VS (`brw_vs_prog_key::clamp_vertex_color`): COL0, COL1, BFC0 and BFC1 clamped to
    /// [0, 1]. Backend field: gpucc saturates them.
    pub clamp_vertex_color: u32,
    /// Intel FS (`brw_wm_prog_key::force_dual_color_blend`): FRAG_RESULT_DATA1 as the second
    /// blend colour. Not implemented: 1 is UNSUPPORTED.
    pub force_dual_color_blend: u32,
    /// Intel (`brw_sampler_prog_key_data::gather_channel_quirk_mask`): Gen7 textureGather
    /// format fix-up per texture. Not implemented: a mask other than 0 is UNSUPPORTED.
    pub gather_channel_quirk_mask: u32,
    /// etnaviv FS (`etna_shader_key::front_ccw`): counter-clockwise front faces. NIR field:
    /// `etna_lower_io` has applied it at the hand-over (pass the variant's key as it is);
    /// with `apply_nir_keys` it is UNSUPPORTED.
    pub front_ccw: u32,
    /// Intel FS (`brw_wm_prog_key::color_outputs_valid`): the colour buffers bound, bit i =
    /// render target i. Mesa's backend only copies it to `brw_wm_prog_data::
    /// color_outputs_written`, which no code depends on, so it changes nothing in the
    /// program: accepted whatever its value (`nr_color_regions` is what decides the
    /// render-target writes). Added after `front_ccw`, like every field below.
    pub color_outputs_valid: u32,
    /// Intel FS (`brw_wm_prog_key::input_slots_valid`): the varyings the previous stage
    /// writes (its VUE map's `slots_valid`, VARYING_SLOT bits). A backend field that matters
    /// only for a fragment program reading more than 16 input attributes: the SBE can
    /// rearrange only 16, so then the attribute setup follows the previous stage's VUE map
    /// (brw's `calculate_urb_setup`), which this field describes, and
    /// gpucc_program_fs_urb_setup reports where each varying lands. With 16 or fewer it
    /// changes nothing. 0: not given; more than 16 inputs then keep gpucc's own layout (the
    /// inputs read, in varying order, as with 16 or fewer), which only a previous stage
    /// writing exactly those varyings in that order can feed: a driver passes the field.
    pub input_slots_valid: u64,
    /// The `log_data` of this compile (Mesa's `brw_compile_params::log_data`, the first
    /// argument of `brw_shader_debug_log`/`brw_shader_perf_log`): the log callback receives
    /// this pointer as its `user_data` for every message of this compile. NULL: the
    /// `user_data` given to gpucc_compiler_set_log_callback. gpucc never dereferences it.
    pub log_data: *mut c_void,
    /// Intel FS (`brw_wm_prog_key::multisample_fbo`, Mesa's `enum brw_sometimes`): 0 =
    /// BRW_NEVER, 1 = BRW_SOMETIMES, 2 = BRW_ALWAYS, the values crocus and iris put in the
    /// key. At the hand-over Mesa has applied BRW_NEVER (`nir_lower_single_sampled` in
    /// `brw_nir_lower_fs_inputs`); the backend reads the field for per-sample dispatch, the
    /// sample id, interpolateAtSample and framebuffer fetch. gpucc refuses the intrinsics of
    /// the last three by name, so 2 changes nothing for the shaders it compiles, except one
    /// that shades per sample (`uses_sample_shading`, or per-sample barycentrics), which is
    /// UNSUPPORTED under 2 (per-sample dispatch is not implemented). 1 (dynamic MSAA, which
    /// only Vulkan's anv uses) is UNSUPPORTED.
    pub multisample_fbo: u32,
    /// Intel FS (`brw_wm_prog_key::alpha_test_replicate_alpha`): render-target writes after
    /// the first carry colour output 0's alpha (Mesa's source-0 alpha, for the alpha test
    /// with several colour buffers). A backend field; it changes only writes to render
    /// targets 1 and up, which gpucc does not build with source-0 alpha: 1 is UNSUPPORTED
    /// when the program writes more than render target 0, and changes nothing otherwise.
    pub alpha_test_replicate_alpha: u32,
    /// Intel (`brw_sampler_prog_key_data::swizzles`): bit i set when texture i's swizzle is
    /// not SWIZZLE_NOOP (EXT_texture_swizzle and DEPTH_TEXTURE_MODE on Gen7, which has no
    /// shader channel select). NIR field: crocus applies the swizzles itself
    /// (`crocus_lower_swizzles`, `nir_lower_tex` with `swizzle_result`) before it calls
    /// `brw_compile_*`, and brw never reads them, so at the hand-over they are in the NIR
    /// and the mask changes nothing. With `apply_nir_keys` a mask other than 0 is
    /// UNSUPPORTED (gpucc does not apply swizzles).
    pub tex_swizzle_mask: u32,
    /// etnaviv (`etna_shader_key::has_sample_tex_compare`, with `tex_compare_func` and
    /// `tex_swizzle` per texture): shadow comparison and swizzle done in the shader before
    /// HALTI2. NIR field: `etna_nir_lower_texture` (`nir_lower_tex_shadow`) has applied them
    /// at the hand-over, early in `etna_compile_shader`, so 1 changes nothing there. With
    /// `apply_nir_keys` 1 is UNSUPPORTED.
    pub sample_tex_compare: u32,
    /// Intel, with GPUCC_BINDING_MODEL_MESA: 1 when `ubo_ranges` holds the UBO ranges the
    /// driver chose itself (Mesa: `brw_stage_prog_data.ubo_ranges` as the driver's
    /// `brw_nir_analyze_ubo_ranges` filled it before calling the backend). gpucc then pushes
    /// exactly those, cut to the push limit as brw's backend cuts them, instead of choosing
    /// its own; gpucc_program_ubo_range reports them as cut. iris and crocus analyse no
    /// ranges for compute shaders: pass 1 with all-zero ranges there, and the program pushes
    /// only the subgroup id (the CURBE `iris_fill_cs_push_const_buffer` writes), pulling
    /// every uniform. 0: gpucc chooses by Mesa's rule. Added after `sample_tex_compare`.
    pub ubo_ranges_given: u32,
    /// With `ubo_ranges_given`: Mesa's four `brw_ubo_range`s in order, each `{block, start,
    /// length}` (the `load_ubo` block operand, first 32-byte register, registers); a range of
    /// length 0 pushes nothing.
    pub ubo_ranges: [[u32; 3]; 4],
    /// Intel TCS (`brw_tcs_prog_key::input_vertices`): the vertices of the input patch, 1 to
    /// 32 (crocus puts the draw's `vertices_per_patch` there). A backend field: on Gen7 the
    /// program's thread end releases exactly these input vertices' URB handles (pairs, the
    /// last alone when odd, as `TCS_OPCODE_RELEASE_INPUT`); the NIR at the hand-over already
    /// has `load_patch_vertices_in` lowered with it. On Gen8/9 (SINGLE_PATCH dispatch, where
    /// iris passes 0) it changes nothing. 0: not given; a Gen7 program then releases as many
    /// input vertices as it has output vertices, right only when the two are equal. Another
    /// stage's key with it set is UNSUPPORTED. Added after `ubo_ranges`.
    pub tcs_input_vertices: u32,
}

impl Default for CompileOptionsC {
    fn default() -> CompileOptionsC {
        CompileOptionsC {
            struct_size: 0,
            simd_mask: 0,
            nr_color_regions: 0,
            flat_shade: 0,
            persample_interp: 0,
            alpha_to_coverage: 0,
            emit_alpha_test: 0,
            alpha_test_func: 0,
            nr_userclip_plane_consts: 0,
            frag_rb_swap: 0,
            sprite_coord_enable: 0,
            sprite_coord_yinvert: 0,
            apply_nir_keys: 0,
            binding_model: 0,
            clamp_fragment_color: 0,
            clamp_vertex_color: 0,
            force_dual_color_blend: 0,
            gather_channel_quirk_mask: 0,
            front_ccw: 0,
            color_outputs_valid: 0,
            input_slots_valid: 0,
            log_data: std::ptr::null_mut(),
            multisample_fbo: 0,
            alpha_test_replicate_alpha: 0,
            tex_swizzle_mask: 0,
            sample_tex_compare: 0,
            ubo_ranges_given: 0,
            ubo_ranges: [[0; 3]; 4],
            tcs_input_vertices: 0,
        }
    }
}

/// Values of `gpucc_compile_options.binding_model`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingModelC {
    /// gpucc's own binding-table layout and push order.
    Gpucc = 0,
    /// Mesa's (crocus, iris): final binding-table slots, UBO ranges, and Mesa's compute
    /// push layout (subgroup id last; cross-thread, then per-thread).
    Mesa = 1,
}

const BINDING_MODEL_GPUCC: u32 = BindingModelC::Gpucc as u32;
const BINDING_MODEL_MESA: u32 = BindingModelC::Mesa as u32;

/// What one compile takes from the caller's options struct.
pub(crate) struct ReadOptions {
    pub options: CompileOptions,
    /// The compile's `log_data`, NULL when not given.
    pub log_data: *mut c_void,
}

/// Reads the caller's options struct (of any version) into the Rust options.
///
/// # Safety
/// `options` is NULL or points to a struct whose first u32 is `struct_size` and which has
/// `struct_size` readable bytes.
pub(crate) unsafe fn read_options(options: *const CompileOptionsC) -> Result<ReadOptions, Error> {
    if options.is_null() {
        return Ok(ReadOptions {
            options: CompileOptions::default(),
            log_data: std::ptr::null_mut(),
        });
    }
    // SAFETY: non-NULL options start with the caller-set struct_size (the contract above).
    let size = unsafe { options.cast::<u32>().read_unaligned() } as usize;
    let known = std::mem::size_of::<CompileOptionsC>();
    if size < 8 || size % 4 != 0 {
        return Err(Error::invalid(format!(
            "gpucc_compile: options struct_size {size} is not sizeof(gpucc_compile_options) \
             (a multiple of 4, at least 8; this library's is {known})"
        )));
    }
    // SAFETY: the caller owns `size` readable bytes at `options`.
    let bytes = unsafe { std::slice::from_raw_parts(options.cast::<u8>(), size) };
    if let Some(at) = bytes.iter().skip(known).position(|&b| b != 0) {
        return Err(Error::invalid(format!(
            "gpucc_compile: options struct_size {size} is larger than this library's {known} \
             and byte {} beyond it is not zero (a key field this library does not know)",
            known + at
        )));
    }
    let mut c = CompileOptionsC::default();
    let n = size.min(known);
    // SAFETY: `c` is a repr(C) struct of integers and one raw pointer, for which any bytes
    // are valid values (the pointer is only handed back to the caller's callback, never
    // dereferenced); the copy writes its first `n <= size_of` bytes. A prefix that ends
    // inside a wider field (a caller's size that is no version of the struct) leaves that
    // field's other bytes as the default's zeros.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), (&mut c as *mut CompileOptionsC).cast(), n)
    };
    Ok(ReadOptions {
        options: convert(&c)?,
        log_data: c.log_data,
    })
}

/// The Rust options of a C options struct (its unknown tail already checked).
fn convert(o: &CompileOptionsC) -> Result<CompileOptions, Error> {
    let mut opts = CompileOptions::default();
    if o.simd_mask & !7 != 0 {
        return Err(Error::invalid(format!(
            "gpucc_compile: simd_mask {:#x} has bits other than SIMD8|SIMD16|SIMD32",
            o.simd_mask
        )));
    }
    opts.simd = [(1, 8), (2, 16), (4, 32)]
        .iter()
        .filter(|(bit, _)| o.simd_mask & bit != 0)
        .map(|&(_, w)| w)
        .collect();
    let flag = |name: &str, v: u32| match v {
        0 | 1 => Ok(v == 1),
        _ => Err(Error::invalid(format!(
            "gpucc_compile: key {name}={v} is not 0 or 1"
        ))),
    };
    let k = &mut opts.key;
    k.nr_color_regions = match o.nr_color_regions {
        0 => None,
        NO_COLOR_REGIONS => Some(0),
        n => Some(n),
    };
    k.flat_shade = flag("flat_shade", o.flat_shade)?;
    k.persample_interp = flag("persample_interp", o.persample_interp)?;
    k.alpha_to_coverage = flag("alpha_to_coverage", o.alpha_to_coverage)?;
    if o.alpha_test_func > 7 {
        return Err(Error::invalid(format!(
            "gpucc_compile: key alpha_test_func={} is no compare function (0-7)",
            o.alpha_test_func
        )));
    }
    k.alpha_test_func = match (
        flag("emit_alpha_test", o.emit_alpha_test)?,
        o.alpha_test_func,
    ) {
        (true, f) => Some(f),
        (false, 0) => None,
        (false, f) => {
            return Err(Error::invalid(format!(
                "gpucc_compile: key alpha_test_func={f} without emit_alpha_test"
            )))
        }
    };
    k.nr_userclip_plane_consts = o.nr_userclip_plane_consts;
    k.frag_rb_swap = flag("frag_rb_swap", o.frag_rb_swap)?;
    k.sprite_coord_enable = o.sprite_coord_enable;
    k.sprite_coord_yinvert = flag("sprite_coord_yinvert", o.sprite_coord_yinvert)?;
    k.apply_nir_keys = flag("apply_nir_keys", o.apply_nir_keys)?;
    k.clamp_fragment_color = flag("clamp_fragment_color", o.clamp_fragment_color)?;
    k.clamp_vertex_color = flag("clamp_vertex_color", o.clamp_vertex_color)?;
    k.force_dual_color_blend = flag("force_dual_color_blend", o.force_dual_color_blend)?;
    k.gather_channel_quirk_mask = o.gather_channel_quirk_mask;
    k.front_ccw = flag("front_ccw", o.front_ccw)?;
    k.color_outputs_valid = o.color_outputs_valid;
    k.input_slots_valid = (o.input_slots_valid != 0).then_some(o.input_slots_valid);
    k.tcs_input_vertices = (o.tcs_input_vertices != 0).then_some(o.tcs_input_vertices);
    if o.multisample_fbo > 2 {
        return Err(Error::invalid(format!(
            "gpucc_compile: key multisample_fbo={} is no enum brw_sometimes (0 BRW_NEVER, 1 \
             BRW_SOMETIMES, 2 BRW_ALWAYS)",
            o.multisample_fbo
        )));
    }
    k.multisample_fbo = o.multisample_fbo;
    k.alpha_test_replicate_alpha =
        flag("alpha_test_replicate_alpha", o.alpha_test_replicate_alpha)?;
    k.tex_swizzle_mask = o.tex_swizzle_mask;
    k.sample_tex_compare = flag("sample_tex_compare", o.sample_tex_compare)?;
    let given = flag("ubo_ranges_given", o.ubo_ranges_given)?;
    if !given && o.ubo_ranges != [[0; 3]; 4] {
        return Err(Error::invalid(
            "gpucc_compile: ubo_ranges set without ubo_ranges_given = 1",
        ));
    }
    if given && o.binding_model != BINDING_MODEL_MESA {
        return Err(Error::invalid(
            "gpucc_compile: ubo_ranges_given needs binding_model = GPUCC_BINDING_MODEL_MESA",
        ));
    }
    if let Some((i, r)) = o
        .ubo_ranges
        .iter()
        .enumerate()
        .find(|(_, r)| r[1].saturating_add(r[2]) > 64)
    {
        return Err(Error::invalid(format!(
            "gpucc_compile: ubo_ranges[{i}] = {{{}, {}, {}}} reaches past register 64 of its \
             block (brw_ubo_range covers the first 64 32-byte registers)",
            r[0], r[1], r[2]
        )));
    }
    opts.binding = match o.binding_model {
        BINDING_MODEL_GPUCC => BindingModel::Gpucc,
        BINDING_MODEL_MESA if given => {
            let ranges = o.ubo_ranges.map(|[block, start, length]| UboRange {
                block,
                start,
                length,
            });
            BindingModel::MesaDriverRanges(DriverRanges::from(ranges))
        }
        BINDING_MODEL_MESA => BindingModel::Mesa,
        v => {
            return Err(Error::invalid(format!(
                "gpucc_compile: binding_model={v} is neither GPUCC_BINDING_MODEL_GPUCC (0) nor \
                 GPUCC_BINDING_MODEL_MESA (1)"
            )))
        }
    };
    Ok(opts)
}
