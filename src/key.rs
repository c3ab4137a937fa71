//! The compile key: per-draw state that changes the code of a shader, as Mesa's drivers key
//! their variants (`brw_wm_prog_key`, `brw_vs_prog_key`, `etna_shader_key`).
//!
//! A driver recompiles when a key field changes, so every field here either changes the code
//! or is refused: a value gpucc does not implement is [`CompileError::Unsupported`] naming the
//! field and the value, never silently ignored (a driver that asked for alpha-to-coverage and
//! got a shader without it would render wrongly with no hint why).
//!
//! Where Mesa 23.3 reads each field, relative to the hand-over point (README, "Getting NIR out
//! of Mesa": the end of `brw_postprocess_nir` on Intel, just after `etna_lower_io` on etnaviv),
//! sorts the fields in two kinds:
//!
//! - **Backend fields**, read by the backend after the hand-over. `nr_color_regions`
//!   (`fs_visitor`'s render-target writes) is implemented; `emit_alpha_test` with
//!   `alpha_test_func` (`fs_visitor::emit_alpha_test`) is refused. gpucc applies a backend
//!   field in every case.
//! - **NIR fields**, applied by Mesa's NIR passes before the hand-over: `flat_shade`
//!   (`brw_nir_lower_fs_inputs` gives each input left INTERP_MODE_NONE a mode: flat for COL0 and
//!   COL1 under the key, smooth otherwise), `frag_rb_swap` (`etna_lower_io`),
//!   `sprite_coord_enable` and `sprite_coord_yinvert` (`nir_lower_texcoord_replace`, early in
//!   `etna_compile_shader`). NIR taken at the hand-over already carries them, so by default
//!   gpucc does not apply them a second time ([`Key::apply_nir_keys`] false): it checks the
//!   NIR against them where the NIR shows it (a colour still INTERP_MODE_NONE under
//!   `flat_shade`, a point-sprite texture coordinate still read under `sprite_coord_enable`)
//!   and refuses a contradiction by name. With `apply_nir_keys` (NIR cut before Mesa's key
//!   lowering: gpucc's own tools, hand-written NIR) gpucc applies them as those passes would.
//!
//! The fields gpucc refuses are not all backend fields in Mesa: `persample_interp` is read in
//! NIR (`brw_nir_lower_fs_inputs` makes barycentrics per-sample) and by the backend (dispatch
//! mode); `alpha_to_coverage` is lowered in NIR on Gen7+ before `brw_postprocess_nir`
//! (`brw_nir_lower_alpha_to_coverage`, when the shader writes gl_SampleMask) and read by the
//! backend (alpha replicated to every render target); `nr_userclip_plane_consts` is lowered by
//! crocus and iris themselves (`nir_lower_clip_vs`) before they call `brw_compile_vs`. Each
//! is refused whatever `apply_nir_keys` says, until gpucc implements it.
//!
//! Some fields a driver sets change nothing in the code gpucc builds, and are accepted for
//! that reason, each checked in Mesa 23.3's source: `color_outputs_valid` (brw only copies it
//! into `color_outputs_written`), `tex_swizzle_mask` (crocus applies the swizzles in NIR
//! before calling brw) and etnaviv's `sample_tex_compare` (`etna_nir_lower_texture`, before
//! the hand-over; both refused with `apply_nir_keys`), `multisample_fbo` = BRW_ALWAYS (its
//! backend effects are in code gpucc refuses by name, except per-sample shading, which is
//! refused under it), `alpha_test_replicate_alpha` (it changes only writes to render targets
//! 1 and up, refused when there are any) and `input_slots_valid` up to 16 inputs (past
//! them it lays out the inputs, in the backend: [`Key::input_slots_valid`]).
//!
//! The fields gpucc applies are applied to the NIR before the backend sees it
//! ([`Key::apply`]): the backends need no knowledge of the key, and `gpucc verify` checks the
//! keyed shader like any other because the interpreter runs the same rewritten NIR.

use std::borrow::Cow;

use crate::error::CompileError;
use crate::nir::{
    self, AluInstr, AluOp, AluSrc, DerefKind, IndexKind, IndexValue, InstrKind, Intrinsic,
    IntrinsicInstr, Stage,
};

/// Per-draw state that changes code. `Key::default()` is "no key": the shader compiles as
/// gpucc compiles it without one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Key {
    /// Intel FS, Mesa's `brw_wm_prog_key::nr_color_regions`: colour buffers bound. A
    /// `gl_FragColor` write (FRAG_RESULT_COLOR) goes to every region 0..max(n, 1); a
    /// FRAG_RESULT_DATAi write with i >= max(n, 1) is dropped; with 0 regions colour output 0
    /// still goes to render target 0 (a null surface: Mesa sends its alpha there for alpha
    /// test and alpha-to-coverage). None: one render target per colour output the shader
    /// writes (gpucc's behaviour without a key).
    pub nr_color_regions: Option<u32>,
    /// Intel FS, `brw_wm_prog_key::flat_shade`: the colour inputs (COL0, COL1, and BFC0,
    /// BFC1) whose interpolation the shader left unspecified (INTERP_MODE_NONE) are flat. A
    /// NIR field: Mesa applies it before the hand-over, so gpucc applies it only with
    /// [`Key::apply_nir_keys`]; without, a colour input still INTERP_MODE_NONE is refused.
    pub flat_shade: bool,
    /// Intel FS, `brw_wm_prog_key::persample_interp`: run per sample. Not implemented.
    pub persample_interp: bool,
    /// Intel FS, `brw_wm_prog_key::alpha_to_coverage`. Not implemented.
    pub alpha_to_coverage: bool,
    /// Intel FS, `brw_wm_prog_key::emit_alpha_test` with `alpha_test_func` (Mesa's
    /// `enum compare_func`, 0 NEVER .. 7 ALWAYS): the alpha test lowered into the shader
    /// (Gen4/5 multiple render targets). None: no alpha test in the shader. Not implemented.
    pub alpha_test_func: Option<u32>,
    /// Intel VS, `brw_vs_prog_key::nr_userclip_plane_consts`: user clip planes whose
    /// distances the shader computes. Not implemented.
    pub nr_userclip_plane_consts: u32,
    /// etnaviv FS, `etna_shader_key::frag_rb_swap`: the render target stores red and blue
    /// swapped (a BGRA format the PE cannot swizzle), so the shader swaps them in colour
    /// output 0 (FRAG_RESULT_COLOR or FRAG_RESULT_DATA0). A NIR field (`etna_lower_io`):
    /// applied only with [`Key::apply_nir_keys`].
    pub frag_rb_swap: bool,
    /// etnaviv FS, `etna_shader_key::sprite_coord_enable`: mask of TEX0..7 varyings that
    /// point sprites replace with the point coordinate: a read of TEXi becomes
    /// (PNTC.x, PNTC.y, 0, 1), PNTC being a new input (VARYING_SLOT_PNTC) the driver feeds
    /// with the rasterizer's point coordinate (Mesa's `nir_lower_texcoord_replace`). A NIR
    /// field: applied only with [`Key::apply_nir_keys`]; without, a read of a TEXi in the
    /// mask with no read of PNTC is refused.
    pub sprite_coord_enable: u32,
    /// etnaviv FS, `etna_shader_key::sprite_coord_yinvert`: the replaced coordinate's y is
    /// 1 - y (GL's lower-left point-sprite origin). A NIR field, with `sprite_coord_enable`.
    pub sprite_coord_yinvert: bool,
    /// Where the NIR was taken, which decides what becomes of the NIR fields (`flat_shade`,
    /// `frag_rb_swap`, `sprite_coord_enable`, `sprite_coord_yinvert`). False (the default):
    /// at the documented hand-over point, where Mesa has applied them already; gpucc does not
    /// apply them again and refuses NIR that contradicts them. True: before Mesa's key
    /// lowering (gpucc's own tools, hand-written NIR); gpucc applies them as Mesa's passes
    /// would. Backend fields (`nr_color_regions`) are applied either way.
    pub apply_nir_keys: bool,
    /// Intel FS, `brw_wm_prog_key::clamp_fragment_color`: colour outputs are clamped to
    /// [0, 1] (GL's fragment colour clamping). A backend field in Mesa (the render-target
    /// write saturates); gpucc saturates the stored colours.
    pub clamp_fragment_color: bool,
    /// Intel VS, `brw_vs_prog_key::clamp_vertex_color`: the colour outputs (COL0, COL1,
    /// BFC0, BFC1) are clamped to [0, 1]. A backend field in Mesa; gpucc saturates them.
    pub clamp_vertex_color: bool,
    /// Intel FS, `brw_wm_prog_key::force_dual_color_blend`: FRAG_RESULT_DATA1 is the second
    /// colour of dual-source blending. Not implemented.
    pub force_dual_color_blend: bool,
    /// Intel, `brw_sampler_prog_key_data::gather_channel_quirk_mask`: textures whose
    /// `textureGather` results Gen7 returns in the wrong format and the shader fixes up. Not
    /// implemented.
    pub gather_channel_quirk_mask: u32,
    /// etnaviv FS, `etna_shader_key::front_ccw`: counter-clockwise faces are front faces.
    /// A NIR field: `etna_lower_io` has turned `load_front_face` into the comparison it
    /// implies at the hand-over; with [`Key::apply_nir_keys`] it is not implemented.
    pub front_ccw: bool,
    /// Intel FS, `brw_wm_prog_key::color_outputs_valid`: the colour buffers bound (bit i =
    /// render target i). Mesa's backend only copies it into `color_outputs_written`, which
    /// no code depends on: accepted, it changes nothing.
    pub color_outputs_valid: u32,
    /// Intel FS, `brw_wm_prog_key::input_slots_valid`: the previous stage's VUE map
    /// `slots_valid`. A backend field read only when the program reads more than 16 input
    /// attributes: the attribute setup then follows that VUE map (brw's
    /// `calculate_urb_setup`). None: not given (gpucc's own layout in every case).
    pub input_slots_valid: Option<u64>,
    /// Intel FS, `brw_wm_prog_key::multisample_fbo` as Mesa's `enum brw_sometimes`: 0
    /// NEVER, 1 SOMETIMES, 2 ALWAYS. NEVER is applied in NIR before the hand-over; ALWAYS
    /// changes the backend's per-sample dispatch, sample id, interpolateAtSample and
    /// framebuffer fetch. gpucc refuses the intrinsics of the last three by name, so ALWAYS
    /// is accepted except for a shader that shades per sample; SOMETIMES is refused.
    pub multisample_fbo: u32,
    /// Intel FS, `brw_wm_prog_key::alpha_test_replicate_alpha`: render-target writes after
    /// the first carry colour output 0's alpha. Refused when the program writes a render
    /// target other than 0 (not implemented); nothing changes otherwise.
    pub alpha_test_replicate_alpha: bool,
    /// Intel, `brw_sampler_prog_key_data::swizzles` as a mask of the textures whose swizzle
    /// is not SWIZZLE_NOOP. A NIR field: crocus applies them (`crocus_lower_swizzles`)
    /// before `brw_compile_*`; with [`Key::apply_nir_keys`] not implemented.
    pub tex_swizzle_mask: u32,
    /// etnaviv, `etna_shader_key::has_sample_tex_compare` (with its per-texture compare
    /// functions and swizzles, pre-HALTI2 shadow sampling). A NIR field
    /// (`etna_nir_lower_texture`, before the hand-over); with [`Key::apply_nir_keys`] not
    /// implemented.
    pub sample_tex_compare: bool,
    /// Intel TCS, `brw_tcs_prog_key::input_vertices`: the vertices of the input patch
    /// (crocus: `vertices_per_patch` of the draw). A backend field: Mesa lowers
    /// `load_patch_vertices_in` with it before the hand-over, and on Gen7 the vec4 backend's
    /// thread end releases exactly these input vertices' URB handles (in pairs, the last one
    /// alone when odd). On Gen8/9 (SINGLE_PATCH, where iris passes 0) it changes nothing.
    /// None: taken as the output vertex count on Gen7 (right only when the two are equal).
    pub tcs_input_vertices: Option<u32>,
}

/// Which backend family a key is applied for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Intel,
    Etnaviv,
}

fn unsupported(field: &str, value: impl std::fmt::Display, why: &str) -> CompileError {
    CompileError::Unsupported(format!("compile key {field}={value}: {why}"))
}

impl Key {
    /// Checks the key against the family and stage and returns the shader to compile: the
    /// same one when nothing applies, a rewritten copy otherwise.
    pub fn apply<'a>(
        &self,
        shader: &'a nir::Shader,
        family: Family,
        stage: Stage,
    ) -> Result<Cow<'a, nir::Shader>, CompileError> {
        self.check(family, stage)?;
        if !self.apply_nir_keys {
            self.check_handover(shader)?;
        }
        if self.multisample_fbo == 2 {
            if let Some(what) = per_sample_shading(shader) {
                return Err(unsupported(
                    "multisample_fbo",
                    2,
                    &format!(
                        "the shader shades per sample ({what}), and per-sample dispatch is \
                         not implemented"
                    ),
                ));
            }
        }
        let mut out = Cow::Borrowed(shader);
        if self.apply_nir_keys && self.flat_shade && flat_shade(out.to_mut()) {
            // The barycentrics the colours no longer read must not stay in the payload.
            nir::passes::dce::dce(out.to_mut());
        }
        if let Some(n) = self.nr_color_regions {
            color_regions(out.to_mut(), n)?;
        }
        if self.alpha_test_replicate_alpha {
            if let Some(rt) = later_color_target(&out) {
                return Err(unsupported(
                    "alpha_test_replicate_alpha",
                    1,
                    &format!(
                        "the program writes render target {rt}, whose write would carry \
                         colour output 0's alpha (source-0 alpha), which is not implemented"
                    ),
                ));
            }
        }
        if self.clamp_fragment_color {
            saturate_outputs(out.to_mut(), |slot| {
                slot == "FRAG_RESULT_COLOR" || slot.starts_with("FRAG_RESULT_DATA")
            });
        }
        if self.clamp_vertex_color {
            saturate_outputs(out.to_mut(), |slot| COLOR_SLOTS.contains(&slot));
        }
        if self.apply_nir_keys && self.frag_rb_swap {
            rb_swap(out.to_mut());
        }
        if self.apply_nir_keys && self.sprite_coord_enable != 0 {
            sprite_coord(
                out.to_mut(),
                self.sprite_coord_enable,
                self.sprite_coord_yinvert,
            );
        }
        if let Cow::Owned(s) = &mut out {
            for f in &mut s.functions {
                if let Some(body) = &mut f.body {
                    body.compact();
                }
            }
        }
        Ok(out)
    }

    /// Refuses the fields that do not apply to the family or stage or that gpucc does not
    /// implement, naming the first such field and its value.
    fn check(&self, family: Family, stage: Stage) -> Result<(), CompileError> {
        let fs = stage == Stage::Fragment;
        // A fragment-shader key of `owner`'s family (`what` names it in the message).
        let fs_key = |owner: Family, what: &str, field: &str, value: &dyn std::fmt::Display| {
            if family != owner {
                Err(unsupported(
                    field,
                    value,
                    &format!("{what}, not one for this target"),
                ))
            } else if !fs {
                Err(unsupported(
                    field,
                    value,
                    "a fragment-shader key, not one for this stage",
                ))
            } else {
                Ok(())
            }
        };
        let intel_fs = |field: &str, value: &dyn std::fmt::Display| {
            fs_key(
                Family::Intel,
                "an Intel key (brw_wm_prog_key)",
                field,
                value,
            )
        };
        let etna_fs = |field: &str, value: &dyn std::fmt::Display| {
            fs_key(
                Family::Etnaviv,
                "an etnaviv key (etna_shader_key)",
                field,
                value,
            )
        };
        if let Some(n) = self.nr_color_regions {
            intel_fs("nr_color_regions", &n)?;
            if n > 8 {
                return Err(CompileError::Invalid(format!(
                    "compile key nr_color_regions={n}: at most 8 colour regions"
                )));
            }
        }
        if self.flat_shade {
            intel_fs("flat_shade", &1)?;
        }
        if self.persample_interp {
            intel_fs("persample_interp", &1)?;
            return Err(unsupported(
                "persample_interp",
                1,
                "per-sample dispatch is not implemented",
            ));
        }
        if self.alpha_to_coverage {
            intel_fs("alpha_to_coverage", &1)?;
            return Err(unsupported(
                "alpha_to_coverage",
                1,
                "alpha-to-coverage is not implemented",
            ));
        }
        if let Some(f) = self.alpha_test_func {
            intel_fs("alpha_test_func", &f)?;
            return Err(unsupported(
                "alpha_test_func",
                f,
                "the alpha test lowered into the shader is not implemented",
            ));
        }
        if self.nr_userclip_plane_consts != 0 {
            let n = self.nr_userclip_plane_consts;
            if family != Family::Intel {
                return Err(unsupported(
                    "nr_userclip_plane_consts",
                    n,
                    "an Intel key (brw_vs_prog_key), not one for this target",
                ));
            }
            if stage != Stage::Vertex {
                return Err(unsupported(
                    "nr_userclip_plane_consts",
                    n,
                    "a vertex-shader key, not one for this stage",
                ));
            }
            return Err(unsupported(
                "nr_userclip_plane_consts",
                n,
                "user clip planes are not implemented",
            ));
        }
        if self.clamp_fragment_color {
            intel_fs("clamp_fragment_color", &1)?;
        }
        if self.clamp_vertex_color && (family != Family::Intel || stage != Stage::Vertex) {
            return Err(unsupported(
                "clamp_vertex_color",
                1,
                "an Intel vertex-shader key (brw_vs_prog_key), not one for this target and \
                 stage",
            ));
        }
        if self.force_dual_color_blend {
            intel_fs("force_dual_color_blend", &1)?;
            return Err(unsupported(
                "force_dual_color_blend",
                1,
                "dual-source blending from FRAG_RESULT_DATA1 is not implemented (a shader \
                 that declares its second colour with index 1 blends with two sources)",
            ));
        }
        if self.gather_channel_quirk_mask != 0 {
            let m = format!("{:#x}", self.gather_channel_quirk_mask);
            if family != Family::Intel {
                return Err(unsupported(
                    "gather_channel_quirk_mask",
                    &m,
                    "an Intel key (brw_sampler_prog_key_data), not one for this target",
                ));
            }
            return Err(unsupported(
                "gather_channel_quirk_mask",
                &m,
                "the Gen7 textureGather format fix-up is not implemented",
            ));
        }
        if self.front_ccw {
            etna_fs("front_ccw", &1)?;
            if self.apply_nir_keys {
                return Err(unsupported(
                    "front_ccw",
                    1,
                    "applying it to NIR cut before etna_lower_io is not implemented (at the \
                     hand-over it is already in the NIR)",
                ));
            }
        }
        if self.color_outputs_valid != 0 {
            let m = format!("{:#x}", self.color_outputs_valid);
            intel_fs("color_outputs_valid", &m)?;
            eight_bit_mask(
                "color_outputs_valid",
                self.color_outputs_valid,
                "render targets 0-7",
            )?;
        }
        if let Some(v) = self.input_slots_valid {
            intel_fs("input_slots_valid", &format!("{v:#x}"))?;
        }
        if let Some(n) = self.tcs_input_vertices {
            if family != Family::Intel || stage != Stage::TessCtrl {
                return Err(unsupported(
                    "tcs_input_vertices",
                    n,
                    "an Intel tessellation-control key (brw_tcs_prog_key), not one for this \
                     target and stage",
                ));
            }
            if !(1..=32).contains(&n) {
                return Err(CompileError::Invalid(format!(
                    "compile key tcs_input_vertices={n}: a patch has 1 to 32 vertices"
                )));
            }
        }
        if self.multisample_fbo != 0 {
            let v = self.multisample_fbo;
            intel_fs("multisample_fbo", &v)?;
            match v {
                1 => {
                    return Err(unsupported(
                        "multisample_fbo",
                        1,
                        "BRW_SOMETIMES (dynamic multisampling, decided by a push constant at \
                         draw time) is not implemented; crocus and iris pass 0 or 2",
                    ))
                }
                2 => {}
                _ => {
                    return Err(CompileError::Invalid(format!(
                        "compile key multisample_fbo={v}: Mesa's enum brw_sometimes is 0 \
                         (BRW_NEVER), 1 (BRW_SOMETIMES) or 2 (BRW_ALWAYS)"
                    )))
                }
            }
        }
        if self.alpha_test_replicate_alpha {
            intel_fs("alpha_test_replicate_alpha", &1)?;
        }
        if self.tex_swizzle_mask != 0 {
            let m = format!("{:#x}", self.tex_swizzle_mask);
            if family != Family::Intel {
                return Err(unsupported(
                    "tex_swizzle_mask",
                    &m,
                    "an Intel key (brw_sampler_prog_key_data::swizzles), not one for this \
                     target",
                ));
            }
            if self.apply_nir_keys {
                return Err(unsupported(
                    "tex_swizzle_mask",
                    &m,
                    "applying texture swizzles to NIR cut before crocus_lower_swizzles is not \
                     implemented (at the hand-over they are already in the NIR)",
                ));
            }
        }
        if self.sample_tex_compare {
            if family != Family::Etnaviv {
                return Err(unsupported(
                    "sample_tex_compare",
                    1,
                    "an etnaviv key (etna_shader_key::has_sample_tex_compare), not one for \
                     this target",
                ));
            }
            if self.apply_nir_keys {
                return Err(unsupported(
                    "sample_tex_compare",
                    1,
                    "applying the shadow compare and swizzle to NIR cut before \
                     etna_nir_lower_texture is not implemented (at the hand-over they are \
                     already in the NIR)",
                ));
            }
        }
        if self.frag_rb_swap {
            etna_fs("frag_rb_swap", &1)?;
        }
        if self.sprite_coord_enable != 0 {
            let m = format!("{:#x}", self.sprite_coord_enable);
            etna_fs("sprite_coord_enable", &m)?;
            eight_bit_mask(
                "sprite_coord_enable",
                self.sprite_coord_enable,
                "TEX0..TEX7",
            )?;
        }
        if self.sprite_coord_yinvert {
            etna_fs("sprite_coord_yinvert", &1)?;
            if self.sprite_coord_enable == 0 {
                return Err(CompileError::Invalid(
                    "compile key sprite_coord_yinvert=1 without sprite_coord_enable".into(),
                ));
            }
        }
        Ok(())
    }

    /// The NIR fields at the hand-over point: Mesa has applied them, so the NIR must not
    /// show the state before them. Refuses, naming the field, the slot and the way out, NIR
    /// that still has what Mesa's pass for a field set here would have rewritten.
    fn check_handover(&self, shader: &nir::Shader) -> Result<(), CompileError> {
        let remedy = |point: &str| {
            format!(
                "hand over the NIR where README's \"Getting NIR out of Mesa\" says ({point}), \
                 or set apply_nir_keys=1 for gpucc to apply the key itself"
            )
        };
        if self.flat_shade {
            if let Some(slot) = unspecified_colour(shader) {
                return Err(CompileError::Invalid(format!(
                    "compile key flat_shade=1: fragment input {slot} has no interpolation mode \
                     (INTERP_MODE_NONE or interp_mode=0), so this NIR was taken before Mesa's \
                     brw_nir_lower_fs_inputs, which decides flat shading from the key; {}",
                    remedy("the end of brw_postprocess_nir")
                )));
            }
        }
        if self.sprite_coord_enable != 0 {
            if let Some(slot) = unreplaced_texcoord(shader, self.sprite_coord_enable) {
                return Err(CompileError::Invalid(format!(
                    "compile key sprite_coord_enable={:#x}: the shader reads {slot} and not the \
                     point coordinate (VARYING_SLOT_PNTC), so this NIR was taken before Mesa's \
                     nir_lower_texcoord_replace; {}",
                    self.sprite_coord_enable,
                    remedy("after etna_lower_io in etna_compile_shader")
                )));
            }
        }
        Ok(())
    }

    /// Sets one field from its name and value as the command line spells them
    /// (`flat_shade=1`, `sprite_coord_enable=0x3`).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v = value.trim();
        let wide = if let Some(hex) = v.strip_prefix("0x") {
            u64::from_str_radix(hex, 16)
        } else {
            v.parse::<u64>()
        }
        .map_err(|_| format!("key {name}: {value:?} is not a number"))?;
        if name == "input_slots_valid" {
            self.input_slots_valid = (wide != 0).then_some(wide);
            return Ok(());
        }
        let number = u32::try_from(wide)
            .map_err(|_| format!("key {name}: {value:?} does not fit in 32 bits"))?;
        let flag = || match number {
            0 | 1 => Ok(number == 1),
            _ => Err(format!("key {name}: {number} is not 0 or 1")),
        };
        match name {
            "nr_color_regions" => self.nr_color_regions = Some(number),
            "flat_shade" => self.flat_shade = flag()?,
            "persample_interp" => self.persample_interp = flag()?,
            "alpha_to_coverage" => self.alpha_to_coverage = flag()?,
            "alpha_test_func" => {
                if number > 7 {
                    return Err(format!("key {name}: {number} is no compare function (0-7)"));
                }
                self.alpha_test_func = Some(number)
            }
            "nr_userclip_plane_consts" => self.nr_userclip_plane_consts = number,
            "frag_rb_swap" => self.frag_rb_swap = flag()?,
            "sprite_coord_enable" => self.sprite_coord_enable = number,
            "sprite_coord_yinvert" => self.sprite_coord_yinvert = flag()?,
            "apply_nir_keys" => self.apply_nir_keys = flag()?,
            "clamp_fragment_color" => self.clamp_fragment_color = flag()?,
            "clamp_vertex_color" => self.clamp_vertex_color = flag()?,
            "force_dual_color_blend" => self.force_dual_color_blend = flag()?,
            "gather_channel_quirk_mask" => self.gather_channel_quirk_mask = number,
            "front_ccw" => self.front_ccw = flag()?,
            "color_outputs_valid" => self.color_outputs_valid = number,
            "multisample_fbo" => self.multisample_fbo = number,
            "alpha_test_replicate_alpha" => self.alpha_test_replicate_alpha = flag()?,
            "tex_swizzle_mask" => self.tex_swizzle_mask = number,
            "sample_tex_compare" => self.sample_tex_compare = flag()?,
            "tcs_input_vertices" => self.tcs_input_vertices = (number != 0).then_some(number),
            _ => {
                return Err(format!(
                    "unknown key {name:?} (known: {})",
                    NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }
}

/// What makes a shader shade per sample, which Mesa's backend dispatches per sample on a
/// multisampled framebuffer: `uses_sample_shading` in its info, or a per-sample barycentric.
fn per_sample_shading(shader: &nir::Shader) -> Option<String> {
    if shader.info.field("uses_sample_shading") == Some("true") {
        return Some("uses_sample_shading".into());
    }
    shader
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .flat_map(|b| b.instrs.iter())
        .find_map(|x| match &x.kind {
            InstrKind::Intrinsic(i) if i.intrinsic == Intrinsic::LoadBarycentricSample => {
                Some(i.intrinsic.name().to_string())
            }
            _ => None,
        })
}

/// A render target other than 0 that a colour store writes (FRAG_RESULT_DATAi, i >= 1; with
/// FRAG_RESULT_COLOR, which Mesa writes to every region, only when several regions are
/// bound, and then `nr_color_regions` has already made it DATAi stores).
fn later_color_target(shader: &nir::Shader) -> Option<u32> {
    shader
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .flat_map(|b| b.instrs_in_order())
        .find_map(|(_, x)| match &x.kind {
            InstrKind::Intrinsic(i) => match color_target(i) {
                Some(Some(rt)) if rt > 0 => Some(rt),
                _ => None,
            },
            _ => None,
        })
}

/// The field names [`Key::set`] accepts.
pub const NAMES: [&str; 22] = [
    "nr_color_regions",
    "flat_shade",
    "persample_interp",
    "alpha_to_coverage",
    "alpha_test_func",
    "nr_userclip_plane_consts",
    "frag_rb_swap",
    "sprite_coord_enable",
    "sprite_coord_yinvert",
    "apply_nir_keys",
    "clamp_fragment_color",
    "clamp_vertex_color",
    "force_dual_color_blend",
    "gather_channel_quirk_mask",
    "front_ccw",
    "color_outputs_valid",
    "input_slots_valid",
    "multisample_fbo",
    "alpha_test_replicate_alpha",
    "tex_swizzle_mask",
    "sample_tex_compare",
    "tcs_input_vertices",
];

/// The colour slots `flat_shade` affects. Mesa's brw names COL0 and COL1 only (the back
/// colours never reach a fragment shader there); the back colours are included for NIR that
/// reads them directly.
const COLOR_SLOTS: [&str; 4] = [
    "VARYING_SLOT_COL0",
    "VARYING_SLOT_COL1",
    "VARYING_SLOT_BFC0",
    "VARYING_SLOT_BFC1",
];

/// Whether `vars` declare the input `loc` with INTERP_MODE_NONE.
fn unspecified_var(loc: &str, vars: &[nir::Variable]) -> bool {
    vars.iter().any(|v| {
        v.mode == nir::VarMode::ShaderIn
            && v.location == loc
            && v.interpolation == "INTERP_MODE_NONE"
    })
}

/// The colour slot `i` reads when it is a `load_interpolated_input` of a colour whose
/// interpolation is unspecified: the variable says INTERP_MODE_NONE or the barycentric the
/// load uses says `interp_mode=0`.
fn unspecified_colour_load(
    body: &nir::Impl,
    i: &IntrinsicInstr,
    vars: &[nir::Variable],
) -> Option<String> {
    if i.intrinsic != Intrinsic::LoadInterpolatedInput {
        return None;
    }
    let loc = i.io_location().filter(|l| COLOR_SLOTS.contains(l))?;
    let bary_none = i
        .srcs
        .first()
        .and_then(|&b| body.def_instr(b))
        .is_some_and(|b| {
            matches!(&b.kind, InstrKind::Intrinsic(bi)
            if bi.int_index(IndexKind::InterpMode) == Some(0))
        });
    (bary_none || unspecified_var(loc, vars)).then(|| loc.to_string())
}

/// The first colour input whose interpolation is unspecified: a colour variable declared
/// INTERP_MODE_NONE, or a load of a colour through an `interp_mode=0` barycentric. Mesa's
/// `brw_nir_lower_fs_inputs` gives every input variable a mode, so at the hand-over there is
/// none.
fn unspecified_colour(shader: &nir::Shader) -> Option<String> {
    let vars = &shader.variables;
    if let Some(v) = vars
        .iter()
        .find(|v| COLOR_SLOTS.contains(&v.location.as_str()) && unspecified_var(&v.location, vars))
    {
        return Some(v.location.clone());
    }
    shader
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .find_map(|body| {
            body.instrs_in_order().find_map(|(_, x)| match &x.kind {
                InstrKind::Intrinsic(i) => unspecified_colour_load(body, i, vars),
                _ => None,
            })
        })
}

/// `flat_shade`: each `load_interpolated_input` of a colour slot whose interpolation is
/// unspecified ([`unspecified_colour_load`]) becomes a `load_input` (constant interpolation),
/// and the variable is declared flat, as Mesa's `brw_nir_lower_fs_inputs` decides before it
/// gives INTERP_MODE_NONE its default (smooth). Returns whether a load changed.
fn flat_shade(shader: &mut nir::Shader) -> bool {
    let mut made_flat = Vec::new();
    let vars = shader.variables.clone();
    for f in &mut shader.functions {
        let Some(body) = &mut f.body else { continue };
        for idx in 0..body.instrs.len() {
            let InstrKind::Intrinsic(i) = &body.instrs[idx].kind else {
                continue;
            };
            let Some(loc) = unspecified_colour_load(body, i, &vars) else {
                continue;
            };
            let Some(offset) = i.srcs.get(1).copied() else {
                continue;
            };
            let get = |k| i.index(k).cloned();
            let (Some(base), Some(comp), Some(ty), Some(io)) = (
                get(IndexKind::Base),
                get(IndexKind::Component),
                get(IndexKind::DestType),
                get(IndexKind::IoSemantics),
            ) else {
                continue;
            };
            let load = IntrinsicInstr {
                intrinsic: Intrinsic::LoadInput,
                def: i.def,
                num_components: i.num_components,
                srcs: vec![offset],
                indices: vec![base, IndexValue::Int(1), comp, ty, io],
            };
            body.instrs[idx].kind = InstrKind::Intrinsic(load);
            made_flat.push(loc);
        }
    }
    for v in &mut shader.variables {
        if v.mode == nir::VarMode::ShaderIn && made_flat.contains(&v.location) {
            v.interpolation = "INTERP_MODE_FLAT".to_string();
        }
    }
    !made_flat.is_empty()
}

/// The render target a colour `store_output` writes: Some(None) for FRAG_RESULT_COLOR (all
/// regions), Some(Some(i)) for FRAG_RESULT_DATAi, None for anything else (depth, dual-source
/// second colour, sample mask...).
fn color_target(i: &IntrinsicInstr) -> Option<Option<u32>> {
    if i.intrinsic != Intrinsic::StoreOutput {
        return None;
    }
    if i.io_dual_source() {
        return None;
    }
    match i.io_location()? {
        "FRAG_RESULT_COLOR" => Some(None),
        loc => loc
            .strip_prefix("FRAG_RESULT_DATA")
            .and_then(|n| n.parse().ok())
            .map(Some),
    }
}

/// `nr_color_regions`: broadcast FRAG_RESULT_COLOR to every region, drop writes to regions
/// that are not bound (Mesa's `alloc_frag_output` and `do_emit_fb_writes`). With no region
/// Mesa still sends colour output 0's alpha (for alpha test and alpha-to-coverage) in one
/// write to render target 0, a null surface, its colour undefined: colour output 0 is kept
/// as with one region.
fn color_regions(shader: &mut nir::Shader, n: u32) -> Result<(), CompileError> {
    let dual = shader
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .any(|b| {
            b.instrs
                .iter()
                .any(|x| matches!(&x.kind, InstrKind::Intrinsic(i) if i.io_dual_source()))
        });
    if dual && n != 1 {
        return Err(CompileError::Invalid(format!(
            "compile key nr_color_regions={n}: dual-source blending needs exactly one \
             colour region"
        )));
    }
    for f in &mut shader.functions {
        let Some(body) = &mut f.body else { continue };
        let stores: Vec<_> = body
            .instrs_in_order()
            .filter_map(|(id, x)| match &x.kind {
                InstrKind::Intrinsic(i) => color_target(i).map(|t| (id, x.block, t)),
                _ => None,
            })
            .collect();
        let regions = n.max(1);
        for (id, block, target) in stores {
            match target {
                Some(rt) if rt < regions => {}
                Some(_) => body.remove_instr(id),
                None => {
                    let InstrKind::Intrinsic(store) = body.instr(id).kind.clone() else {
                        continue;
                    };
                    // The per-region copies go where the original was.
                    let pos = body.blocks[block.0 as usize]
                        .instrs
                        .iter()
                        .position(|&x| x == id)
                        .unwrap_or(0);
                    body.remove_instr(id);
                    for rt in (0..regions).rev() {
                        let mut copy = store.clone();
                        let slot = store.intrinsic.index_slot(IndexKind::IoSemantics);
                        if let Some(IndexValue::Text(t)) =
                            slot.and_then(|s| copy.indices.get_mut(s))
                        {
                            *t = t.replacen(
                                "FRAG_RESULT_COLOR",
                                &format!("FRAG_RESULT_DATA{rt}"),
                                1,
                            );
                        }
                        body.insert_instr(block, pos, InstrKind::Intrinsic(copy));
                    }
                }
            }
        }
    }
    Ok(())
}

/// `clamp_fragment_color` / `clamp_vertex_color`: every float `store_output` to a slot
/// `clamped` accepts stores `fsat` of its value, as Mesa's render-target write and VUE
/// write saturate them.
fn saturate_outputs(shader: &mut nir::Shader, clamped: impl Fn(&str) -> bool) {
    for f in &mut shader.functions {
        let Some(body) = &mut f.body else { continue };
        let stores: Vec<_> = body
            .instrs_in_order()
            .filter_map(|(id, x)| match &x.kind {
                InstrKind::Intrinsic(i)
                    if i.intrinsic == Intrinsic::StoreOutput
                        && i.io_location().is_some_and(&clamped)
                        && i.type_index(IndexKind::SrcType)
                            .is_some_and(|t| t.base == nir::BaseType::Float) =>
                {
                    Some((id, x.block, *i.srcs.first()?))
                }
                _ => None,
            })
            .collect();
        for (id, block, value) in stores {
            rewrite_stored(body, (id, block, 0), AluOp::fsat, AluSrc::new(value));
        }
    }
}

/// Puts `op` of `src` before the store `id` (in `block`) and makes the store's source
/// `slot` read its result: how the keys change what a shader stores.
fn rewrite_stored(
    body: &mut nir::Impl,
    (id, block, slot): (nir::InstrId, nir::BlockId, usize),
    op: AluOp,
    src: AluSrc,
) {
    let Some(def) = body.def(src.ssa).copied() else {
        return;
    };
    let result = body.alloc_ssa(def.num_components, def.bit_size);
    if let Some(Some(d)) = body.defs.get_mut(result.0 as usize) {
        d.divergent = def.divergent;
    }
    let pos = body.blocks[block.0 as usize]
        .instrs
        .iter()
        .position(|&x| x == id)
        .unwrap_or(0);
    let alu = AluInstr {
        op,
        def: result,
        srcs: vec![src],
        exact: false,
        no_signed_wrap: false,
        no_unsigned_wrap: false,
    };
    body.insert_instr(block, pos, InstrKind::Alu(alu));
    if let InstrKind::Intrinsic(i) = &mut body.instrs[id.0 as usize].kind {
        i.srcs[slot] = result;
    }
}

/// `frag_rb_swap`: colour output 0 is stored with red and blue swapped, through a `mov`
/// with swizzle zyxw before the store, as etnaviv's NIR lowering does. Etnaviv-form NIR
/// stores outputs with `store_deref` of the output variable.
fn rb_swap(shader: &mut nir::Shader) {
    let color0: Vec<String> = shader
        .variables
        .iter()
        .filter(|v| {
            v.mode == nir::VarMode::ShaderOut
                && (v.location == "FRAG_RESULT_COLOR" || v.location == "FRAG_RESULT_DATA0")
        })
        .map(|v| v.name.clone())
        .collect();
    for f in &mut shader.functions {
        let Some(body) = &mut f.body else { continue };
        let stores: Vec<_> = body
            .instrs_in_order()
            .filter_map(|(id, x)| match &x.kind {
                InstrKind::Intrinsic(i) if i.intrinsic == Intrinsic::StoreDeref => {
                    let deref = body.def_instr(*i.srcs.first()?)?;
                    match &deref.kind {
                        InstrKind::Deref(d) => match &d.kind {
                            DerefKind::Var(name) if color0.contains(name) => {
                                Some((id, x.block, *i.srcs.get(1)?))
                            }
                            _ => None,
                        },
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect();
        for (id, block, value) in stores {
            if body.def(value).is_some_and(|d| d.num_components >= 3) {
                let swap = AluSrc::swizzled(value, &[2, 1, 0, 3]);
                rewrite_stored(body, (id, block, 1), AluOp::mov, swap);
            }
        }
    }
}

/// The TEXi slot in `mask` the shader reads while it reads no point coordinate, if any: NIR
/// on which Mesa's `nir_lower_texcoord_replace` has not run. After it, a read of a TEXi in the
/// mask is gone (constant index) or kept beside a read of PNTC (an indirect index, selected at
/// run time).
fn unreplaced_texcoord(shader: &nir::Shader, mask: u32) -> Option<String> {
    let reads = |pick: &dyn Fn(&str) -> bool| -> Option<String> {
        shader
            .functions
            .iter()
            .filter_map(|f| f.body.as_ref())
            .flat_map(|b| b.instrs_in_order())
            .find_map(|(_, x)| match &x.kind {
                InstrKind::Intrinsic(i) if i.intrinsic == Intrinsic::LoadInput => {
                    i.io_location().filter(|l| pick(l)).map(str::to_string)
                }
                _ => None,
            })
    };
    if reads(&|l| l == "VARYING_SLOT_PNTC").is_some() {
        return None;
    }
    reads(&|l| texcoord_in_mask(l, mask))
}

/// Whether `loc` is a VARYING_SLOT_TEXi with bit i set in `mask`.
fn texcoord_in_mask(loc: &str, mask: u32) -> bool {
    loc.strip_prefix("VARYING_SLOT_TEX")
        .and_then(|n| n.parse::<u32>().ok())
        .is_some_and(|n| n < 8 && mask & (1 << n) != 0)
}

/// `sprite_coord_enable`: every `load_input` of a TEXi varying in `mask` becomes a read of
/// the point coordinate, (PNTC.x, PNTC.y or 1 - PNTC.y, 0, 1), as Mesa's
/// `nir_lower_texcoord_replace` rewrites glTexCoord for point sprites. The point coordinate
/// is a new vec2 input (VARYING_SLOT_PNTC) at the first free driver location.
fn sprite_coord(shader: &mut nir::Shader, mask: u32, yinvert: bool) {
    let replaced = |i: &IntrinsicInstr| {
        i.intrinsic == Intrinsic::LoadInput
            && i.io_location().is_some_and(|l| texcoord_in_mask(l, mask))
    };
    let mut base = shader
        .variables
        .iter()
        .filter(|v| v.mode == nir::VarMode::ShaderIn)
        .map(|v| v.driver_location + 1)
        .max()
        .unwrap_or(0);
    for body in shader.functions.iter().filter_map(|f| f.body.as_ref()) {
        for x in &body.instrs {
            if let InstrKind::Intrinsic(i) = &x.kind {
                if i.intrinsic == Intrinsic::LoadInput {
                    let b = i.int_index(IndexKind::Base).unwrap_or(0);
                    base = base.max(u32::try_from(b + 1).unwrap_or(0));
                }
            }
        }
    }
    let mut used = false;
    for f in &mut shader.functions {
        let Some(body) = &mut f.body else { continue };
        let loads: Vec<_> = body
            .instrs_in_order()
            .filter_map(|(id, x)| match &x.kind {
                InstrKind::Intrinsic(i) if replaced(i) => Some((id, x.block, i.clone())),
                _ => None,
            })
            .collect();
        for (id, block, load) in loads {
            let (Some(def), Some(&offset)) = (load.def, load.srcs.first()) else {
                continue;
            };
            let Some(d) = body.def(def).copied() else {
                continue;
            };
            let first = load
                .int_index(IndexKind::Component)
                .unwrap_or(0)
                .clamp(0, 3) as u8;
            let mut at = body.blocks[block.0 as usize]
                .instrs
                .iter()
                .position(|&x| x == id)
                .unwrap_or(0);
            let mut emit =
                |body: &mut nir::Impl, comps: u8, kind: &dyn Fn(nir::SsaId) -> InstrKind| {
                    let v = body.alloc_ssa(comps, 32);
                    if let Some(Some(vd)) = body.defs.get_mut(v.0 as usize) {
                        vd.divergent = d.divergent;
                    }
                    body.insert_instr(block, at, kind(v));
                    at += 1;
                    v
                };
            let io = match load.index(IndexKind::IoSemantics) {
                Some(IndexValue::Text(t)) => {
                    let loc = load.io_location().unwrap_or("");
                    IndexValue::Text(t.replacen(loc, "VARYING_SLOT_PNTC", 1))
                }
                _ => continue,
            };
            let pntc = emit(body, 2, &|v| {
                InstrKind::Intrinsic(IntrinsicInstr {
                    intrinsic: Intrinsic::LoadInput,
                    def: Some(v),
                    num_components: 2,
                    srcs: vec![offset],
                    indices: vec![
                        IndexValue::Int(i64::from(base)),
                        IndexValue::Int(1),
                        IndexValue::Int(0),
                        IndexValue::Type(nir::AluType::parse("float32").expect("float32")),
                        io.clone(),
                    ],
                })
            });
            let constant = |bits: u64| {
                move |v| {
                    InstrKind::LoadConst(nir::LoadConstInstr {
                        def: v,
                        values: vec![bits],
                    })
                }
            };
            let zero = emit(body, 1, &constant(0));
            let one = emit(body, 1, &constant(0x3f80_0000));
            let alu = |op: AluOp, srcs: Vec<AluSrc>| {
                move |v| {
                    InstrKind::Alu(AluInstr {
                        op,
                        def: v,
                        srcs: srcs.clone(),
                        exact: false,
                        no_signed_wrap: false,
                        no_unsigned_wrap: false,
                    })
                }
            };
            let y = if yinvert {
                // 1 - y as fadd(1, fneg(y)): etnaviv-form NIR has no fsub.
                let neg = alu(AluOp::fneg, vec![AluSrc::swizzled(pntc, &[1])]);
                let neg = emit(body, 1, &neg);
                let f = alu(AluOp::fadd, vec![AluSrc::new(one), AluSrc::new(neg)]);
                (emit(body, 1, &f), 0)
            } else {
                (pntc, 1)
            };
            let v4 = alu(
                AluOp::vec4,
                vec![
                    AluSrc::swizzled(pntc, &[0]),
                    AluSrc::swizzled(y.0, &[y.1]),
                    AluSrc::new(zero),
                    AluSrc::new(one),
                ],
            );
            let vec = emit(body, 4, &v4);
            // The load itself becomes a move of the components it read.
            let swz: Vec<u8> = (first..first + d.num_components)
                .map(|c| c.min(3))
                .collect();
            body.instrs[id.0 as usize].kind = InstrKind::Alu(AluInstr {
                op: AluOp::mov,
                def,
                srcs: vec![AluSrc::swizzled(vec, &swz)],
                exact: false,
                no_signed_wrap: false,
                no_unsigned_wrap: false,
            });
            used = true;
        }
    }
    if used {
        shader.variables.push(nir::Variable {
            mode: nir::VarMode::ShaderIn,
            qualifiers: Vec::new(),
            interpolation: "INTERP_MODE_NONE".to_string(),
            access: Vec::new(),
            image_format: None,
            precision: None,
            ty: nir::GlslType::parse("vec2").expect("vec2"),
            name: "gl_PointCoord".to_string(),
            location: "VARYING_SLOT_PNTC".to_string(),
            components: Some("xy".to_string()),
            driver_location: base,
            binding: 0,
            compact: false,
            initializer: None,
        });
    }
}

/// A key field that is a mask of eight things (`what`): bits past 7 are an error naming it.
fn eight_bit_mask(name: &str, value: u32, what: &str) -> Result<(), CompileError> {
    if value > 0xff {
        return Err(CompileError::Invalid(format!(
            "compile key {name}={value:#x}: a mask of {what} (0-0xff)"
        )));
    }
    Ok(())
}
