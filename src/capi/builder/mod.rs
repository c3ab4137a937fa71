//! `gpucc_builder`: a shader built by walking a `nir_shader`, without text.
//!
//! A driver adapter at the handover point walks Mesa's IR once and makes one call per piece:
//! header fields, variables, then the entry point's blocks, control flow and instructions in
//! program order. It passes Mesa's own numbers (`def->index`, `block->index`, the
//! `const_index` words of intrinsics) and Mesa's names for opcodes, intrinsics, texture ops
//! and sources: names are the identity that stays stable across Mesa versions, where the
//! enum values do not. The result is the same [`nir::Shader`] the text import gives for the
//! nir_print text of that shader (the corpus test rebuilds every corpus shader through these
//! entry points and compares; [`replay`] is that walk).
//!
//! Errors are sticky: the first failing call records its message (naming the call and the
//! value), every later call returns the same status without doing anything, and
//! `gpucc_builder_finish` reports it. An adapter may therefore check only the finish.

pub(super) mod replay;

use std::ffi::{c_char, CStr};

use super::shader::Shader;
use super::status::{guard, write_out, Error, Status};
use crate::nir::{
    self, import::NewDef, raw_index, AluInstr, AluSrc, DerefInstr, DerefKind, GlslType, IndexValue,
    InstrKind, IntrinsicInstr, JumpKind, LoadConstInstr, PhiInstr, SsaId, TexInstr, TexOp, TexSrc,
    VarMode, Variable,
};

/// A shader under construction (opaque to C). Created by gpucc_builder_create, turned into a
/// gpucc_shader by gpucc_builder_finish, destroyed by gpucc_builder_destroy.
pub struct Builder {
    import: Option<nir::Import>,
    /// The first error: its status and message, returned by every later call.
    failed: Option<(Status, String)>,
}

/// A value an instruction defines (Mesa's `nir_def`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct BuilderDef {
    /// `def->index`: the caller's number for the value, below 2^22. Sources name values by
    /// this number; a value may be used before its definition only by a phi.
    pub index: u32,
    /// `def->num_components`: 1-16.
    pub num_components: u32,
    /// `def->bit_size`: 1, 8, 16, 32 or 64.
    pub bit_size: u32,
    /// `def->divergent` (kept only when the header says `divergence_analysis_run: true`).
    pub divergent: u32,
}

/// An ALU source (`nir_alu_src`): the value and the component read for each channel.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct BuilderAluSrc {
    /// `src.ssa->index`.
    pub value: u32,
    /// `swizzle[16]`: the component of the value read for channel i.
    pub swizzle: [u8; 16],
}

/// Bits of `gpucc_builder_alu.flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluFlag {
    /// `nir_alu_instr::exact`.
    Exact = 1,
    /// `nir_alu_instr::no_signed_wrap`.
    NoSignedWrap = 2,
    /// `nir_alu_instr::no_unsigned_wrap`.
    NoUnsignedWrap = 4,
}

/// An ALU instruction (`nir_alu_instr`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BuilderAlu {
    /// `nir_op_infos[op].name` ("fadd", "vec4", ...).
    pub op: *const c_char,
    pub def: BuilderDef,
    /// `nir_op_infos[op].num_inputs` sources.
    pub srcs: *const BuilderAluSrc,
    pub num_srcs: u32,
    /// GPUCC_ALU_FLAG_* bits.
    pub flags: u32,
}

/// One constant index of an intrinsic.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BuilderIndex {
    /// `nir_intrinsic_index_names[i]` ("base", "io_semantics", "write_mask", ...).
    pub name: *const c_char,
    /// The `const_index` word as Mesa 23.3 packs it (`nir_io_semantics`, `nir_io_xfb`,
    /// `gl_access_qualifier`, `nir_alu_type`, `mesa_scope`, `nir_memory_semantics`,
    /// `nir_variable_mode`, `nir_atomic_op`, or the plain integer). Read when `text` is NULL.
    pub value: u32,
    /// NULL, or the index in nir_print's spelling ("format=r32_float"): required for the
    /// indices gpucc does not decode from a word (format, image_dim, image_array,
    /// reduction_op, swizzle_mask, rounding_mode, desc_type and vendor indices).
    pub text: *const c_char,
}

/// An intrinsic (`nir_intrinsic_instr`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BuilderIntrinsic {
    /// `nir_intrinsic_infos[op].name` ("load_input", "store_output", ...).
    pub name: *const c_char,
    /// 1 when the intrinsic defines `def` (`info->has_dest`), else 0.
    pub has_def: u32,
    pub def: BuilderDef,
    /// `src[i].ssa->index` for each of the intrinsic's sources.
    pub srcs: *const u32,
    pub num_srcs: u32,
    /// Every index the intrinsic has (`info->num_indices`), in any order.
    pub indices: *const BuilderIndex,
    pub num_indices: u32,
}

/// A texture source (`nir_tex_src`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BuilderTexSrc {
    /// The source kind as nir_print names it ("coord", "lod", "comparator", ...).
    pub kind: *const c_char,
    pub value: u32,
}

/// Bits of `gpucc_builder_tex.flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexFlag {
    /// `nir_tex_instr::texture_non_uniform`.
    TextureNonUniform = 1,
    /// `nir_tex_instr::sampler_non_uniform`.
    SamplerNonUniform = 2,
    /// `nir_tex_instr::is_sparse`.
    Sparse = 4,
}

/// A texture instruction (`nir_tex_instr`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BuilderTex {
    /// The op as nir_print names it ("tex", "txl", "txf", "txs", "tg4", ...).
    pub op: *const c_char,
    pub def: BuilderDef,
    /// `dest_type`, a `nir_alu_type` (nir_type_float32 = 160, ...).
    pub dest_type: u32,
    pub srcs: *const BuilderTexSrc,
    pub num_srcs: u32,
    /// `texture_index` and `sampler_index` (Intel: binding-table slots after the driver's
    /// rewrite). Read as NIR does: the texture unless a texture_deref source is given (or the
    /// op is txf_ms_fb), the sampler when the op samples and no sampler_deref source is given.
    pub texture_index: u32,
    pub sampler_index: u32,
    /// `component`, for tg4.
    pub component: u32,
    /// `tg4_offsets`.
    pub tg4_offsets: [[i8; 2]; 4],
    /// GPUCC_TEX_FLAG_* bits.
    pub flags: u32,
}

/// A phi source: the predecessor block's number and the value from it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct BuilderPhiSrc {
    /// `pred->index`.
    pub block: u32,
    pub value: u32,
}

/// A deref (`nir_deref_instr` of type var or array).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BuilderDeref {
    pub def: BuilderDef,
    /// Non-NULL: a `deref_var` of the variable with this name (declared before).
    /// NULL: a `deref_array` of `parent` indexed by `array_index`.
    pub var_name: *const c_char,
    pub parent: u32,
    pub array_index: u32,
    /// The deref's modes, `|`-separated short names ("shader_out", "function_temp").
    pub modes: *const c_char,
    /// `glsl_get_type_name(deref->type)`.
    pub type_name: *const c_char,
}

/// Bits of `gpucc_builder_variable.flags`: `nir_variable::data`'s qualifier bits.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarFlag {
    Centroid = 1,
    Sample = 2,
    Patch = 4,
    Invariant = 8,
    PerView = 16,
    PerPrimitive = 32,
    Bindless = 64,
    RayQuery = 128,
    Compact = 256,
}

const VAR_CENTROID: u32 = VarFlag::Centroid as u32;
const VAR_SAMPLE: u32 = VarFlag::Sample as u32;
const VAR_PATCH: u32 = VarFlag::Patch as u32;
const VAR_INVARIANT: u32 = VarFlag::Invariant as u32;
const VAR_PER_VIEW: u32 = VarFlag::PerView as u32;
const VAR_PER_PRIMITIVE: u32 = VarFlag::PerPrimitive as u32;
const VAR_BINDLESS: u32 = VarFlag::Bindless as u32;
const VAR_RAY_QUERY: u32 = VarFlag::RayQuery as u32;
const VAR_COMPACT: u32 = VarFlag::Compact as u32;
const ALU_EXACT: u32 = AluFlag::Exact as u32;
const ALU_NO_SIGNED_WRAP: u32 = AluFlag::NoSignedWrap as u32;
const ALU_NO_UNSIGNED_WRAP: u32 = AluFlag::NoUnsignedWrap as u32;
const TEX_TEXTURE_NON_UNIFORM: u32 = TexFlag::TextureNonUniform as u32;
const TEX_SAMPLER_NON_UNIFORM: u32 = TexFlag::SamplerNonUniform as u32;
const TEX_SPARSE: u32 = TexFlag::Sparse as u32;

/// A variable (`nir_variable`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BuilderVariable {
    /// The mode's short name: "shader_in", "shader_out", "uniform", "ubo", "ssbo", "system",
    /// "shared", "global", "push_const", "constant", "image", "shader_temp", "function_temp"
    /// (the last goes to the open function's locals).
    pub mode: *const c_char,
    /// `glsl_get_type_name(var->type)` ("vec4", "sampler2D", "vec4[4]", ...).
    pub type_name: *const c_char,
    pub name: *const c_char,
    /// `data.location` (-1: none).
    pub location: i32,
    /// `data.location_frac`.
    pub location_frac: u32,
    /// `data.driver_location`, `data.binding`.
    pub driver_location: u32,
    pub binding: u32,
    /// `data.interpolation`: INTERP_MODE_NONE 0, SMOOTH 1, FLAT 2, NOPERSPECTIVE 3,
    /// EXPLICIT 4, COLOR 5.
    pub interpolation: u32,
    /// `data.access`, `gl_access_qualifier` bits.
    pub access: u32,
    /// `data.precision`: 0 none, 1 highp, 2 mediump, 3 lowp.
    pub precision: u32,
    /// GPUCC_VAR_FLAG_* bits.
    pub flags: u32,
    /// NULL, or `util_format_short_name(data.image.format)` for image variables.
    pub image_format: *const c_char,
    /// NULL, or the constant initializer in nir_print's spelling ("{ 0.000000 }").
    pub initializer: *const c_char,
}

/// `nir_jump_type` as nir_print names it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuilderJump {
    Return = 0,
    Halt = 1,
    Break = 2,
    Continue = 3,
}

/// `nir_selection_control` of an if.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuilderIfControl {
    None = 0,
    Flatten = 1,
    DontFlatten = 2,
}

fn cstr<'a>(p: *const c_char, what: &str) -> Result<&'a str, String> {
    if p.is_null() {
        return Err(format!("{what} is NULL"));
    }
    // SAFETY: non-NULL strings are NUL-terminated and live for the call (the header's
    // contract); the borrow does not outlive it.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| format!("{what} is not UTF-8"))
}

fn opt_cstr<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>, String> {
    if p.is_null() {
        Ok(None)
    } else {
        cstr(p, what).map(Some)
    }
}

fn slice<'a, T>(p: *const T, n: u32, what: &str) -> Result<&'a [T], String> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(format!("{what} is NULL with a count of {n}"));
    }
    // SAFETY: non-NULL with a count: the caller provides `n` initialised elements there for
    // the duration of the call (the header's contract).
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) })
}

fn new_def(d: &BuilderDef) -> Result<NewDef, String> {
    let small = |v: u32, what: &str| {
        u8::try_from(v).map_err(|_| format!("value %{}: {what} {v} is out of range", d.index))
    };
    Ok(NewDef {
        id: SsaId(d.index),
        num_components: small(d.num_components, "component count")?,
        bit_size: small(d.bit_size, "bit size")?,
        divergent: d.divergent != 0,
    })
}

/// Runs one builder call: NULL checks, the sticky error, and the recording of a new one.
fn call(
    entry: &'static str,
    b: *mut Builder,
    body: impl FnOnce(&mut nir::Import) -> Result<(), String>,
) -> Status {
    let mut status = Status::Ok;
    let guarded = guard(entry, || {
        // SAFETY: a non-NULL builder is a live handle from gpucc_builder_create, used by one
        // thread at a time (the header's contract).
        let b = unsafe { b.as_mut() }
            .ok_or_else(|| Error::invalid(format!("{entry}: builder is NULL")))?;
        if let Some((s, m)) = &b.failed {
            return Err(Error::new(*s, m.clone()));
        }
        let Some(import) = b.import.as_mut() else {
            return Err(Error::invalid(format!("{entry}: the builder was finished")));
        };
        if let Err(m) = body(import) {
            let m = format!("{entry}: {m}");
            b.failed = Some((Status::InvalidArgument, m.clone()));
            status = Status::InvalidArgument;
            return Err(Error::invalid(m));
        }
        Ok(())
    });
    if guarded == Status::Internal {
        // A panic inside a call leaves the shader half-built: later calls must not go on.
        // SAFETY: as above; the handle is still live.
        if let Some(b) = unsafe { b.as_mut() } {
            b.failed
                .get_or_insert((Status::Internal, format!("{entry}: internal error")));
        }
    }
    if status != Status::Ok {
        status
    } else {
        guarded
    }
}

/// Starts a shader of `stage` (Mesa's `gl_shader_stage`: MESA_SHADER_VERTEX 0 ... FRAGMENT 4,
/// COMPUTE 5).
///
/// Thread safety: a builder is used by one thread at a time.
#[no_mangle]
pub extern "C" fn gpucc_builder_create(stage: u32, out: *mut *mut Builder) -> Status {
    guard("gpucc_builder_create", || {
        let stage = [
            nir::Stage::Vertex,
            nir::Stage::TessCtrl,
            nir::Stage::TessEval,
            nir::Stage::Geometry,
            nir::Stage::Fragment,
            nir::Stage::Compute,
            nir::Stage::Task,
            nir::Stage::Mesh,
            nir::Stage::Kernel,
        ]
        .into_iter()
        .find(|s| s.number() == stage)
        .ok_or_else(|| {
            Error::invalid(format!(
                "gpucc_builder_create: {stage} is no gl_shader_stage"
            ))
        })?;
        let b = Builder {
            import: Some(nir::Import::new(stage)),
            failed: None,
        };
        write_out(out, Box::into_raw(Box::new(b)), "gpucc_builder_create: out")
    })
}

/// Destroys a builder (finished or not). NULL is accepted.
#[no_mangle]
pub extern "C" fn gpucc_builder_destroy(b: *mut Builder) {
    guard("gpucc_builder_destroy", || {
        if !b.is_null() {
            // SAFETY: non-NULL builders come from Box::into_raw in gpucc_builder_create and
            // the caller gives the handle up here.
            drop(unsafe { Box::from_raw(b) });
        }
        Ok(())
    });
}

/// Sets one shader_info line as nir_print writes it (key "name", value "GLSL3"; key
/// "inputs_read", value "0,32-33"), in the order nir_print writes them. The fields gpucc
/// reads are listed in README ("The C builder").
#[no_mangle]
pub extern "C" fn gpucc_builder_set_info(
    b: *mut Builder,
    key: *const c_char,
    value: *const c_char,
) -> Status {
    call("gpucc_builder_set_info", b, |im| {
        let k = cstr(key, "key")?;
        let v = cstr(value, "value")?;
        im.info_field(k, v)
    })
}

/// Sets `num_inputs`, `num_outputs`, `num_uniforms` and `scratch_size` of the nir_shader.
#[no_mangle]
pub extern "C" fn gpucc_builder_set_sizes(
    b: *mut Builder,
    num_inputs: u32,
    num_outputs: u32,
    num_uniforms: u32,
    scratch_size: u32,
) -> Status {
    call("gpucc_builder_set_sizes", b, |im| {
        im.counts(num_inputs, num_outputs, num_uniforms);
        im.scratch_size(scratch_size);
        Ok(())
    })
}

/// Sets the constant data (`constant_data`, `constant_data_size`): `size` bytes at `data`,
/// or only the size when `data` is NULL.
#[no_mangle]
pub extern "C" fn gpucc_builder_set_constant_data(
    b: *mut Builder,
    data: *const u8,
    size: u32,
) -> Status {
    call("gpucc_builder_set_constant_data", b, |im| {
        let bytes = if data.is_null() {
            None
        } else {
            Some(slice(data, size, "data")?)
        };
        im.constant_data(size, bytes)
    })
}

/// Declares a variable. Shader variables come before the first function; function_temp
/// variables after gpucc_builder_begin_function, before its first block.
#[no_mangle]
pub extern "C" fn gpucc_builder_add_variable(
    b: *mut Builder,
    var: *const BuilderVariable,
) -> Status {
    call("gpucc_builder_add_variable", b, |im| {
        // SAFETY: a non-NULL pointer to one caller-owned struct (the header's contract).
        let v = unsafe { var.as_ref() }.ok_or("var is NULL")?;
        let var = variable(v, im.stage())?;
        im.variable(var)
    })
}

/// Mesa's interpolation mode names, by `INTERP_MODE_*` value.
const INTERP_MODES: [&str; 6] = [
    "INTERP_MODE_NONE",
    "INTERP_MODE_SMOOTH",
    "INTERP_MODE_FLAT",
    "INTERP_MODE_NOPERSPECTIVE",
    "INTERP_MODE_EXPLICIT",
    "INTERP_MODE_COLOR",
];

/// The qualifier words nir_print writes before the mode, in its order, with their bits.
const QUALIFIER_BITS: [(u32, &str); 8] = [
    (VAR_BINDLESS, "bindless"),
    (VAR_CENTROID, "centroid"),
    (VAR_SAMPLE, "sample"),
    (VAR_PATCH, "patch"),
    (VAR_INVARIANT, "invariant"),
    (VAR_PER_VIEW, "per_view"),
    (VAR_PER_PRIMITIVE, "per_primitive"),
    (VAR_RAY_QUERY, "ray_query"),
];

fn variable(v: &BuilderVariable, stage: nir::Stage) -> Result<Variable, String> {
    let name = cstr(v.name, "name")?;
    let mode_name = cstr(v.mode, "mode")?;
    let mode = VarMode::from_name(mode_name)
        .ok_or_else(|| format!("variable `{name}`: unknown mode `{mode_name}`"))?;
    let type_name = cstr(v.type_name, "type_name")?;
    let ty = GlslType::parse(type_name)
        .ok_or_else(|| format!("variable `{name}`: bad type `{type_name}`"))?;
    let interpolation = INTERP_MODES
        .get(v.interpolation as usize)
        .ok_or_else(|| {
            format!(
                "variable `{name}`: interpolation {} is no INTERP_MODE",
                v.interpolation
            )
        })?
        .to_string();
    let access = match raw_index::from_raw(
        nir::IndexKind::Access,
        v.access,
        nir::Intrinsic::LoadDeref,
        stage,
    )? {
        IndexValue::Text(t) => match t.strip_prefix("access=") {
            Some("none") | None => Vec::new(),
            Some(words) => words.split('|').map(str::to_string).collect(),
        },
        _ => Vec::new(),
    };
    let precision = match v.precision {
        0 => None,
        1 => Some("highp".to_string()),
        2 => Some("mediump".to_string()),
        3 => Some("lowp".to_string()),
        p => {
            return Err(format!(
                "variable `{name}`: precision {p} is no GLSL_PRECISION"
            ))
        }
    };
    if v.flags & !(VAR_COMPACT * 2 - 1) != 0 {
        return Err(format!(
            "variable `{name}`: unknown flag bits {:#x}",
            v.flags
        ));
    }
    let qualifiers = QUALIFIER_BITS
        .iter()
        .filter(|(bit, _)| v.flags & bit != 0)
        .map(|p| p.1.to_string())
        .collect();
    let (location, components) = if mode.has_location() {
        let loc = v.location as u32;
        let location = nir::slots::location_name(loc, stage, Some(mode));
        let n = ty.element_components();
        let components =
            if matches!(mode, VarMode::ShaderIn | VarMode::ShaderOut) && (1..16).contains(&n) {
                let letters: &[u8] = if n <= 4 { b"xyzw" } else { b"abcdefghijklmnop" };
                let from = (v.location_frac as usize).min(letters.len());
                let to = (from + n as usize).min(letters.len());
                Some(String::from_utf8_lossy(&letters[from..to]).into_owned())
            } else {
                None
            };
        (location, components)
    } else {
        (String::new(), None)
    };
    let (driver_location, binding) = if mode.has_location() && mode != VarMode::System {
        (v.driver_location, v.binding)
    } else {
        (0, 0)
    };
    Ok(Variable {
        mode,
        qualifiers,
        interpolation,
        access,
        image_format: opt_cstr(v.image_format, "image_format")?.map(str::to_string),
        precision,
        ty,
        name: name.to_string(),
        location,
        components,
        driver_location,
        binding,
        compact: v.flags & VAR_COMPACT != 0 && mode.has_location() && mode != VarMode::System,
        initializer: opt_cstr(v.initializer, "initializer")?.map(str::to_string),
    })
}

/// Declares a function and, with `has_body` 1, opens its implementation: blocks and
/// instructions follow until gpucc_builder_end_function. Mesa's final-form shaders have one,
/// "main".
#[no_mangle]
pub extern "C" fn gpucc_builder_begin_function(
    b: *mut Builder,
    name: *const c_char,
    num_params: u32,
    has_body: u32,
) -> Status {
    call("gpucc_builder_begin_function", b, |im| {
        im.function(cstr(name, "name")?, num_params, has_body != 0)
    })
}

/// Starts block `index` (`block->index` after nir_index_blocks): every control-flow list
/// starts with a block, and a block follows every if and loop, as in NIR.
#[no_mangle]
pub extern "C" fn gpucc_builder_block(b: *mut Builder, index: u32) -> Status {
    call("gpucc_builder_block", b, |im| im.block(index))
}

/// Opens `if condition`: its then list follows, starting with a block.
#[no_mangle]
pub extern "C" fn gpucc_builder_begin_if(
    b: *mut Builder,
    condition: u32,
    control: BuilderIfControl,
) -> Status {
    call("gpucc_builder_begin_if", b, |im| {
        let control = match control {
            BuilderIfControl::None => None,
            BuilderIfControl::Flatten => Some("flatten".to_string()),
            BuilderIfControl::DontFlatten => Some("don't flatten".to_string()),
        };
        im.push_if(SsaId(condition), control)
    })
}

/// Ends the then list and opens the else list (NIR ifs always have one, maybe one empty
/// block).
#[no_mangle]
pub extern "C" fn gpucc_builder_begin_else(b: *mut Builder) -> Status {
    call("gpucc_builder_begin_else", b, |im| im.push_else())
}

/// Closes the innermost if; a block follows.
#[no_mangle]
pub extern "C" fn gpucc_builder_end_if(b: *mut Builder) -> Status {
    call("gpucc_builder_end_if", b, |im| im.pop_if())
}

/// Opens a loop: its body follows, starting with a block.
#[no_mangle]
pub extern "C" fn gpucc_builder_begin_loop(b: *mut Builder) -> Status {
    call("gpucc_builder_begin_loop", b, |im| im.push_loop())
}

/// Ends the loop body and opens its continue construct.
#[no_mangle]
pub extern "C" fn gpucc_builder_begin_continue(b: *mut Builder) -> Status {
    call("gpucc_builder_begin_continue", b, |im| im.push_continue())
}

/// Closes the innermost loop; a block follows.
#[no_mangle]
pub extern "C" fn gpucc_builder_end_loop(b: *mut Builder) -> Status {
    call("gpucc_builder_end_loop", b, |im| im.pop_loop())
}

/// Closes the open function body: `end_block` is the end block's index, `ssa_alloc` Mesa's
/// `impl->ssa_alloc` (0: one past the largest value index).
#[no_mangle]
pub extern "C" fn gpucc_builder_end_function(
    b: *mut Builder,
    end_block: u32,
    ssa_alloc: u32,
) -> Status {
    call("gpucc_builder_end_function", b, |im| {
        im.end_function(end_block, ssa_alloc)
    })
}

/// Appends an ALU instruction to the current block.
#[no_mangle]
pub extern "C" fn gpucc_builder_add_alu(b: *mut Builder, alu: *const BuilderAlu) -> Status {
    call("gpucc_builder_add_alu", b, |im| {
        // SAFETY: a non-NULL pointer to one caller-owned struct (the header's contract).
        let a = unsafe { alu.as_ref() }.ok_or("alu is NULL")?;
        let name = cstr(a.op, "op")?;
        let op = nir::AluOp::from_name(name).ok_or_else(|| format!("unknown ALU op `{name}`"))?;
        let def = new_def(&a.def)?;
        let info = op.info();
        let given = slice(a.srcs, a.num_srcs, "srcs")?;
        if given.len() != info.num_inputs() {
            return Err(format!(
                "{name} takes {} sources, {} given",
                info.num_inputs(),
                given.len()
            ));
        }
        let mut srcs = Vec::with_capacity(given.len());
        for (n, s) in given.iter().enumerate() {
            // The channels an op does not read carry no meaning: they are kept as identity,
            // as nir_alu_instr_create leaves them, so equal instructions compare equal.
            let used = match info.input_sizes[n] {
                0 => def.num_components as usize,
                size => size as usize,
            };
            let mut swizzle = AluSrc::IDENTITY;
            for (i, &c) in s.swizzle.iter().enumerate().take(used) {
                if c >= 16 {
                    return Err(format!(
                        "{name}: source {n} swizzle component {c} is past 15"
                    ));
                }
                swizzle[i] = c;
            }
            srcs.push(AluSrc {
                ssa: SsaId(s.value),
                swizzle,
            });
        }
        if a.flags & !7 != 0 {
            return Err(format!("{name}: unknown flag bits {:#x}", a.flags));
        }
        let instr = AluInstr {
            op,
            def: def.id,
            srcs,
            exact: a.flags & ALU_EXACT != 0,
            no_signed_wrap: a.flags & ALU_NO_SIGNED_WRAP != 0,
            no_unsigned_wrap: a.flags & ALU_NO_UNSIGNED_WRAP != 0,
        };
        im.instr(InstrKind::Alu(instr), Some(def))
    })
}

/// Appends a `load_const`: `def.num_components` values, each the raw bits of one
/// component zero-extended to 64 bits (booleans 0 or 1).
#[no_mangle]
pub extern "C" fn gpucc_builder_add_load_const(
    b: *mut Builder,
    def: BuilderDef,
    values: *const u64,
) -> Status {
    call("gpucc_builder_add_load_const", b, |im| {
        let d = new_def(&def)?;
        let values = slice(values, def.num_components, "values")?.to_vec();
        im.instr(
            InstrKind::LoadConst(LoadConstInstr { def: d.id, values }),
            Some(d),
        )
    })
}

/// Appends an `undef`.
#[no_mangle]
pub extern "C" fn gpucc_builder_add_undef(b: *mut Builder, def: BuilderDef) -> Status {
    call("gpucc_builder_add_undef", b, |im| {
        let d = new_def(&def)?;
        im.instr(InstrKind::Undef(d.id), Some(d))
    })
}

/// Appends a phi (phis lead their block). Sources name predecessor blocks by index; both
/// blocks and values may come later in the walk.
#[no_mangle]
pub extern "C" fn gpucc_builder_add_phi(
    b: *mut Builder,
    def: BuilderDef,
    srcs: *const BuilderPhiSrc,
    num_srcs: u32,
) -> Status {
    call("gpucc_builder_add_phi", b, |im| {
        let d = new_def(&def)?;
        let srcs = slice(srcs, num_srcs, "srcs")?
            .iter()
            .map(|s| (nir::BlockId(s.block), SsaId(s.value)))
            .collect();
        im.instr(InstrKind::Phi(PhiInstr { def: d.id, srcs }), Some(d))
    })
}

/// Appends a jump.
#[no_mangle]
pub extern "C" fn gpucc_builder_add_jump(b: *mut Builder, kind: BuilderJump) -> Status {
    call("gpucc_builder_add_jump", b, |im| {
        let k = match kind {
            BuilderJump::Return => JumpKind::Return,
            BuilderJump::Halt => JumpKind::Halt,
            BuilderJump::Break => JumpKind::Break,
            BuilderJump::Continue => JumpKind::Continue,
        };
        im.instr(InstrKind::Jump(k), None)
    })
}

/// Appends an intrinsic. Every index of the intrinsic must be given, by name.
#[no_mangle]
pub extern "C" fn gpucc_builder_add_intrinsic(
    b: *mut Builder,
    intr: *const BuilderIntrinsic,
) -> Status {
    call("gpucc_builder_add_intrinsic", b, |im| {
        // SAFETY: a non-NULL pointer to one caller-owned struct (the header's contract).
        let x = unsafe { intr.as_ref() }.ok_or("intrinsic is NULL")?;
        let name = cstr(x.name, "name")?;
        let intrinsic =
            nir::Intrinsic::from_name(name).ok_or_else(|| format!("unknown intrinsic `{name}`"))?;
        let info = intrinsic.info();
        let srcs: Vec<SsaId> = slice(x.srcs, x.num_srcs, "srcs")?
            .iter()
            .map(|&s| SsaId(s))
            .collect();
        let given = slice(x.indices, x.num_indices, "indices")?;
        let mut indices = Vec::with_capacity(info.indices.len());
        for &kind in info.indices.iter() {
            let mut found = None;
            for g in given {
                if cstr(g.name, "index name")? == kind.name() {
                    found = Some(g);
                }
            }
            let g = found.ok_or_else(|| format!("{name}: index `{}` not given", kind.name()))?;
            let value = match opt_cstr(g.text, "index text")? {
                Some(t) => text_index(kind, t).map_err(|e| format!("{name}: {e}"))?,
                None => raw_index::from_raw(kind, g.value, intrinsic, im.stage())
                    .map_err(|e| format!("{name}: index `{}`: {e}", kind.name()))?,
            };
            indices.push(value);
        }
        for g in given {
            let n = cstr(g.name, "index name")?;
            if !info.indices.iter().any(|k| k.name() == n) {
                return Err(format!("{name} has no index `{n}`"));
            }
        }
        let def = if x.has_def != 0 {
            Some(new_def(&x.def)?)
        } else {
            None
        };
        if def.is_some() != info.has_dest() {
            return Err(format!(
                "{name} {} a destination",
                if info.has_dest() { "needs" } else { "has no" }
            ));
        }
        let instr = IntrinsicInstr {
            intrinsic,
            def: def.map(|d| d.id),
            num_components: def.map_or(0, |d| d.num_components),
            srcs,
            indices,
        };
        im.instr(InstrKind::Intrinsic(instr), def)
    })
}

/// An index given in nir_print's spelling, kept as the parser keeps it.
fn text_index(kind: nir::IndexKind, text: &str) -> Result<IndexValue, String> {
    if !crate::nir::parse::is_text_index(kind) {
        return Err(format!(
            "index `{}`: give it as a word, not text",
            kind.name()
        ));
    }
    let prefix = match kind.printed_prefix() {
        "" => format!("{}=", kind.name()),
        p => p.to_string(),
    };
    if !text.starts_with(&prefix) || text.contains('\n') {
        return Err(format!(
            "index `{}`: expected `{prefix}...`, found `{text}`",
            kind.name()
        ));
    }
    Ok(IndexValue::Text(text.to_string()))
}

/// Appends a texture instruction.
#[no_mangle]
pub extern "C" fn gpucc_builder_add_tex(b: *mut Builder, tex: *const BuilderTex) -> Status {
    call("gpucc_builder_add_tex", b, |im| {
        // SAFETY: a non-NULL pointer to one caller-owned struct (the header's contract).
        let t = unsafe { tex.as_ref() }.ok_or("tex is NULL")?;
        let op_name = cstr(t.op, "op")?;
        let op =
            TexOp::from_name(op_name).ok_or_else(|| format!("unknown texture op `{op_name}`"))?;
        let mut srcs = Vec::new();
        for s in slice(t.srcs, t.num_srcs, "srcs")? {
            let k = cstr(s.kind, "source kind")?;
            let kind = TexSrc::from_name(k)
                .ok_or_else(|| format!("{op_name}: unknown texture source `{k}`"))?;
            srcs.push((kind, SsaId(s.value)));
        }
        let has = |kind: TexSrc| srcs.iter().any(|&(k, _)| k == kind);
        let texture_index =
            (op != TexOp::TxfMsFb && !has(TexSrc::TextureDeref)).then_some(t.texture_index);
        let sampler_index =
            (op.needs_sampler() && !has(TexSrc::SamplerDeref)).then_some(t.sampler_index);
        if t.flags & !7 != 0 {
            return Err(format!("{op_name}: unknown flag bits {:#x}", t.flags));
        }
        let mut extra = Vec::new();
        if op == TexOp::Tg4 {
            extra.push(format!("{} (gather_component)", t.component));
            if t.tg4_offsets.iter().flatten().any(|&o| o != 0) {
                let pairs: Vec<String> = t
                    .tg4_offsets
                    .iter()
                    .map(|p| format!("({}, {})", p[0], p[1]))
                    .collect();
                extra.push(format!("{{ {} }} (offsets)", pairs.join(", ")));
            }
        }
        for (bit, word) in [
            (TEX_TEXTURE_NON_UNIFORM, "texture non-uniform"),
            (TEX_SAMPLER_NON_UNIFORM, "sampler non-uniform"),
            (TEX_SPARSE, "sparse"),
        ] {
            if t.flags & bit != 0 {
                extra.push(word.to_string());
            }
        }
        let d = new_def(&t.def)?;
        let dest_type = match raw_index::from_raw(
            nir::IndexKind::DestType,
            t.dest_type,
            nir::Intrinsic::LoadDeref,
            im.stage(),
        )? {
            IndexValue::Type(ty) => ty,
            _ => return Err("dest_type".into()),
        };
        let instr = TexInstr {
            op,
            def: d.id,
            dest_type,
            srcs,
            texture_index,
            sampler_index,
            extra,
        };
        im.instr(InstrKind::Tex(instr), Some(d))
    })
}

/// Appends a deref (var or array).
#[no_mangle]
pub extern "C" fn gpucc_builder_add_deref(b: *mut Builder, deref: *const BuilderDeref) -> Status {
    call("gpucc_builder_add_deref", b, |im| {
        // SAFETY: a non-NULL pointer to one caller-owned struct (the header's contract).
        let d = unsafe { deref.as_ref() }.ok_or("deref is NULL")?;
        let kind = match opt_cstr(d.var_name, "var_name")? {
            Some(n) => DerefKind::Var(n.to_string()),
            None => DerefKind::Array {
                parent: SsaId(d.parent),
                index: SsaId(d.array_index),
            },
        };
        let modes_text = cstr(d.modes, "modes")?;
        let modes = modes_text
            .split('|')
            .map(|m| VarMode::from_name(m).ok_or_else(|| format!("unknown deref mode `{m}`")))
            .collect::<Result<Vec<_>, _>>()?;
        let type_name = cstr(d.type_name, "type_name")?;
        let ty = GlslType::parse(type_name).ok_or_else(|| format!("bad type `{type_name}`"))?;
        let def = new_def(&d.def)?;
        im.instr(
            InstrKind::Deref(DerefInstr {
                def: def.id,
                kind,
                modes,
                ty,
            }),
            Some(def),
        )
    })
}

/// Finishes the shader: checks it as gpucc_shader_from_nir_text checks parsed text and hands
/// it over as a gpucc_shader (compile it, print it, destroy it with gpucc_shader_destroy).
/// The first error of any earlier call is returned here if the caller did not stop at it.
/// The builder is spent either way: destroy it.
#[no_mangle]
pub extern "C" fn gpucc_builder_finish(b: *mut Builder, out: *mut *mut Shader) -> Status {
    guard("gpucc_builder_finish", || {
        if out.is_null() {
            return Err(Error::invalid("gpucc_builder_finish: out is NULL"));
        }
        // SAFETY: a non-NULL builder is a live handle used by one thread at a time.
        let b = unsafe { b.as_mut() }
            .ok_or_else(|| Error::invalid("gpucc_builder_finish: builder is NULL"))?;
        if let Some((s, m)) = &b.failed {
            return Err(Error::new(*s, m.clone()));
        }
        let import = b
            .import
            .take()
            .ok_or_else(|| Error::invalid("gpucc_builder_finish: the builder was finished"))?;
        let shader = import
            .finish()
            .map_err(|m| Error::new(Status::ParseError, format!("gpucc_builder_finish: {m}")))?;
        write_out(
            out,
            Box::into_raw(Box::new(Shader { nir: shader })),
            "gpucc_builder_finish: out",
        )
    })
}
