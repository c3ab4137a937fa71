//! Rebuilding a shader through the C builder's entry points, as a driver adapter walking
//! Mesa's `nir_shader` would: every piece goes through the `extern "C"` functions with C
//! structs and NUL-terminated strings, indices as Mesa's packed words wherever gpucc decodes
//! them. The corpus test compares the result with the parsed shader; that equality is the
//! proof the builder covers what the text import reads.

use std::ffi::{c_char, CString};

use super::*;
use crate::nir::{CfNode, Impl, Instr};

/// Keeps the C strings of one call alive while the call runs.
#[derive(Default)]
struct Strings(Vec<CString>);

impl Strings {
    fn c(&mut self, s: &str) -> *const c_char {
        let c = CString::new(s.replace('\0', "")).unwrap_or_default();
        let p = c.as_ptr();
        self.0.push(c);
        p
    }
    fn opt(&mut self, s: Option<&str>) -> *const c_char {
        s.map_or(std::ptr::null(), |s| self.c(s))
    }
}

fn check(status: Status, what: &str) -> Result<(), String> {
    if status == Status::Ok {
        return Ok(());
    }
    // SAFETY: gpucc_last_error returns a NUL-terminated string owned by this thread's
    // error slot, valid until the next gpucc call on this thread; it is copied at once.
    let message = unsafe { CStr::from_ptr(crate::capi::gpucc_last_error()) }
        .to_string_lossy()
        .into_owned();
    Err(format!("{what}: {status:?}: {message}"))
}

/// Rebuilds `shader` through the C builder and returns what `gpucc_builder_finish` made of
/// it. Everything the text import reads is passed except the trailer (backend text after
/// the shader, not NIR).
pub fn replay(shader: &nir::Shader) -> Result<nir::Shader, String> {
    let mut b: *mut Builder = std::ptr::null_mut();
    check(
        gpucc_builder_create(shader.info.stage.number(), &mut b),
        "gpucc_builder_create",
    )?;
    let result = walk(shader, b);
    let built = result.and_then(|()| {
        let mut out: *mut Shader = std::ptr::null_mut();
        check(gpucc_builder_finish(b, &mut out), "gpucc_builder_finish")?;
        // SAFETY: gpucc_builder_finish succeeded, so `out` is a fresh handle from
        // Box::into_raw that nothing else owns; taking it back ends its C lifetime.
        let shader = unsafe { Box::from_raw(out) };
        Ok(shader.nir)
    });
    gpucc_builder_destroy(b);
    built
}

fn walk(shader: &nir::Shader, b: *mut Builder) -> Result<(), String> {
    let info = &shader.info;
    for (k, v) in &info.fields {
        let mut s = Strings::default();
        check(
            gpucc_builder_set_info(b, s.c(k), s.c(v)),
            "gpucc_builder_set_info",
        )?;
    }
    check(
        gpucc_builder_set_sizes(
            b,
            info.num_inputs,
            info.num_outputs,
            info.num_uniforms,
            info.scratch_size,
        ),
        "gpucc_builder_set_sizes",
    )?;
    let data = if info.constant_data.is_empty() {
        std::ptr::null()
    } else {
        info.constant_data.as_ptr()
    };
    check(
        gpucc_builder_set_constant_data(b, data, info.constant_data_size),
        "gpucc_builder_set_constant_data",
    )?;
    for v in &shader.variables {
        add_variable(b, v)?;
    }
    for f in &shader.functions {
        let mut s = Strings::default();
        check(
            gpucc_builder_begin_function(b, s.c(&f.name), f.num_params, f.body.is_some() as u32),
            "gpucc_builder_begin_function",
        )?;
        let Some(imp) = &f.body else { continue };
        for v in &imp.locals {
            add_variable(b, v)?;
        }
        cf_list(b, imp, &imp.body)?;
        check(
            gpucc_builder_end_function(b, imp.end_block().0, imp.ssa_alloc),
            "gpucc_builder_end_function",
        )?;
    }
    Ok(())
}

fn add_variable(b: *mut Builder, v: &nir::Variable) -> Result<(), String> {
    let mut s = Strings::default();
    let access = if v.access.is_empty() {
        0
    } else {
        let text = IndexValue::Text(format!("access={}", v.access.join("|")));
        raw_index::to_raw(nir::IndexKind::Access, &text)
            .ok_or_else(|| format!("variable {}: access {:?}", v.name, v.access))?
    };
    let mut flags = 0;
    for q in &v.qualifiers {
        flags |= super::QUALIFIER_BITS
            .iter()
            .find(|p| p.1 == q)
            .ok_or_else(|| format!("variable {}: qualifier {q}", v.name))?
            .0;
    }
    if v.compact {
        flags |= VAR_COMPACT;
    }
    let var = BuilderVariable {
        mode: s.c(v.mode.name()),
        type_name: s.c(&v.ty.to_string()),
        name: s.c(&v.name),
        location: v.location_number().unwrap_or(0) as i32,
        location_frac: v.location_frac(),
        driver_location: v.driver_location,
        binding: v.binding,
        interpolation: super::INTERP_MODES
            .iter()
            .position(|m| *m == v.interpolation)
            .ok_or_else(|| format!("variable {}: {}", v.name, v.interpolation))?
            as u32,
        access,
        precision: match v.precision.as_deref() {
            Some("highp") => 1,
            Some("mediump") => 2,
            Some("lowp") => 3,
            _ => 0,
        },
        flags,
        image_format: s.opt(v.image_format.as_deref()),
        initializer: s.opt(v.initializer.as_deref()),
    };
    check(
        gpucc_builder_add_variable(b, &var),
        "gpucc_builder_add_variable",
    )
}

fn cf_list(b: *mut Builder, imp: &Impl, nodes: &[CfNode]) -> Result<(), String> {
    crate::util::stack::grow(|| {
        for node in nodes {
            match node {
                CfNode::Block(id) => {
                    check(gpucc_builder_block(b, id.0), "gpucc_builder_block")?;
                    for &i in &imp.blocks[id.0 as usize].instrs {
                        instr(b, imp, imp.instr(i))?;
                    }
                }
                CfNode::If(n) => {
                    let control = match n.control.as_deref() {
                        None => BuilderIfControl::None,
                        Some("flatten") => BuilderIfControl::Flatten,
                        Some("don't flatten") => BuilderIfControl::DontFlatten,
                        Some(other) => return Err(format!("if control `{other}`")),
                    };
                    check(
                        gpucc_builder_begin_if(b, n.condition.0, control),
                        "gpucc_builder_begin_if",
                    )?;
                    cf_list(b, imp, &n.then_body)?;
                    check(gpucc_builder_begin_else(b), "gpucc_builder_begin_else")?;
                    cf_list(b, imp, &n.else_body)?;
                    check(gpucc_builder_end_if(b), "gpucc_builder_end_if")?;
                }
                CfNode::Loop(n) => {
                    check(gpucc_builder_begin_loop(b), "gpucc_builder_begin_loop")?;
                    cf_list(b, imp, &n.body)?;
                    if !n.continue_body.is_empty() {
                        check(
                            gpucc_builder_begin_continue(b),
                            "gpucc_builder_begin_continue",
                        )?;
                        cf_list(b, imp, &n.continue_body)?;
                    }
                    check(gpucc_builder_end_loop(b), "gpucc_builder_end_loop")?;
                }
            }
        }
        Ok(())
    })
}

fn def_of(imp: &Impl, id: SsaId) -> Result<BuilderDef, String> {
    let d = imp
        .def(id)
        .ok_or_else(|| format!("%{} has no definition", id.0))?;
    Ok(BuilderDef {
        index: id.0,
        num_components: d.num_components as u32,
        bit_size: d.bit_size as u32,
        divergent: d.divergent as u32,
    })
}

fn instr(b: *mut Builder, imp: &Impl, instr: &Instr) -> Result<(), String> {
    let mut s = Strings::default();
    match &instr.kind {
        InstrKind::Alu(a) => {
            let srcs: Vec<BuilderAluSrc> = a
                .srcs
                .iter()
                .map(|x| BuilderAluSrc {
                    value: x.ssa.0,
                    swizzle: x.swizzle,
                })
                .collect();
            let alu = BuilderAlu {
                op: s.c(a.op.name()),
                def: def_of(imp, a.def)?,
                srcs: srcs.as_ptr(),
                num_srcs: srcs.len() as u32,
                flags: [
                    (a.exact, ALU_EXACT),
                    (a.no_signed_wrap, ALU_NO_SIGNED_WRAP),
                    (a.no_unsigned_wrap, ALU_NO_UNSIGNED_WRAP),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .fold(0, |acc, (_, bit)| acc | bit),
            };
            check(gpucc_builder_add_alu(b, &alu), "gpucc_builder_add_alu")
        }
        InstrKind::LoadConst(c) => {
            let mut def = def_of(imp, c.def)?;
            def.num_components = c.values.len() as u32;
            check(
                gpucc_builder_add_load_const(b, def, c.values.as_ptr()),
                "gpucc_builder_add_load_const",
            )
        }
        InstrKind::Undef(d) => check(
            gpucc_builder_add_undef(b, def_of(imp, *d)?),
            "gpucc_builder_add_undef",
        ),
        InstrKind::Phi(p) => {
            let srcs: Vec<BuilderPhiSrc> = p
                .srcs
                .iter()
                .map(|(blk, v)| BuilderPhiSrc {
                    block: blk.0,
                    value: v.0,
                })
                .collect();
            check(
                gpucc_builder_add_phi(b, def_of(imp, p.def)?, srcs.as_ptr(), srcs.len() as u32),
                "gpucc_builder_add_phi",
            )
        }
        InstrKind::Jump(j) => {
            let kind = match j {
                JumpKind::Return => BuilderJump::Return,
                JumpKind::Halt => BuilderJump::Halt,
                JumpKind::Break => BuilderJump::Break,
                JumpKind::Continue => BuilderJump::Continue,
            };
            check(gpucc_builder_add_jump(b, kind), "gpucc_builder_add_jump")
        }
        InstrKind::Intrinsic(x) => {
            let info = x.intrinsic.info();
            let mut indices = Vec::new();
            for (&kind, value) in info.indices.iter().zip(&x.indices) {
                let raw = raw_index::raw_supported(kind)
                    .then(|| raw_index::to_raw(kind, value))
                    .flatten();
                let (word, text) = match (raw, value) {
                    (Some(w), _) => (w, std::ptr::null()),
                    (None, IndexValue::Text(t)) => (0, s.c(t)),
                    (None, v) => return Err(format!("{}: index {v:?}", x.intrinsic.name())),
                };
                indices.push(BuilderIndex {
                    name: s.c(kind.name()),
                    value: word,
                    text,
                });
            }
            let srcs: Vec<u32> = x.srcs.iter().map(|v| v.0).collect();
            let intr = BuilderIntrinsic {
                name: s.c(x.intrinsic.name()),
                has_def: x.def.is_some() as u32,
                def: match x.def {
                    Some(d) => def_of(imp, d)?,
                    None => BuilderDef::default(),
                },
                srcs: srcs.as_ptr(),
                num_srcs: srcs.len() as u32,
                indices: indices.as_ptr(),
                num_indices: indices.len() as u32,
            };
            check(
                gpucc_builder_add_intrinsic(b, &intr),
                "gpucc_builder_add_intrinsic",
            )
        }
        InstrKind::Tex(t) => {
            let srcs: Vec<BuilderTexSrc> = t
                .srcs
                .iter()
                .map(|(k, v)| BuilderTexSrc {
                    kind: s.c(k.name()),
                    value: v.0,
                })
                .collect();
            let mut component = 0;
            let mut tg4_offsets = [[0i8; 2]; 4];
            let mut flags = 0;
            for e in &t.extra {
                if let Some(n) = e.strip_suffix(" (gather_component)") {
                    component = n.parse().map_err(|_| format!("tex field {e}"))?;
                } else if let Some(o) = e.strip_suffix(" (offsets)") {
                    let nums: Vec<i8> = o
                        .split(|c: char| !(c.is_ascii_digit() || c == '-'))
                        .filter(|w| !w.is_empty())
                        .map(|w| w.parse().map_err(|_| format!("tex field {e}")))
                        .collect::<Result<_, _>>()?;
                    for (i, n) in nums.iter().take(8).enumerate() {
                        tg4_offsets[i / 2][i % 2] = *n;
                    }
                } else {
                    flags |= match e.as_str() {
                        "texture non-uniform" => TEX_TEXTURE_NON_UNIFORM,
                        "sampler non-uniform" => TEX_SAMPLER_NON_UNIFORM,
                        "sparse" => TEX_SPARSE,
                        _ => return Err(format!("tex field `{e}` has no builder form")),
                    };
                }
            }
            let dest_type =
                raw_index::to_raw(nir::IndexKind::DestType, &IndexValue::Type(t.dest_type))
                    .ok_or("tex dest_type")?;
            let tex = BuilderTex {
                op: s.c(t.op.name()),
                def: def_of(imp, t.def)?,
                dest_type,
                srcs: srcs.as_ptr(),
                num_srcs: srcs.len() as u32,
                texture_index: t.texture_index.unwrap_or(0),
                sampler_index: t.sampler_index.unwrap_or(0),
                component,
                tg4_offsets,
                flags,
            };
            check(gpucc_builder_add_tex(b, &tex), "gpucc_builder_add_tex")
        }
        InstrKind::Deref(d) => {
            let modes: Vec<&str> = d.modes.iter().map(|m| m.name()).collect();
            let (var_name, parent, array_index) = match &d.kind {
                DerefKind::Var(n) => (s.c(n), 0, 0),
                DerefKind::Array { parent, index } => (std::ptr::null(), parent.0, index.0),
            };
            let deref = BuilderDeref {
                def: def_of(imp, d.def)?,
                var_name,
                parent,
                array_index,
                modes: s.c(&modes.join("|")),
                type_name: s.c(&d.ty.to_string()),
            };
            check(
                gpucc_builder_add_deref(b, &deref),
                "gpucc_builder_add_deref",
            )
        }
    }
}
