//! The scalar backend's dispatch widths, chosen as Mesa's `brw_compile_fs` and
//! `brw_compile_cs` choose them: which widths to build (the stage's widths, a compute
//! workgroup's fit in the subslice's threads, SIMD32 only after SIMD16 fit without spilling),
//! which to keep (SIMD32 only when the cycle model says it is faster), and the one [`Kernel`]
//! holding every kept variant, each 64-byte aligned.

use crate::error::CompileError;
use crate::intel::backend::options::Options;
use crate::intel::fs::{self, from_nir, pipeline};
use crate::intel::kernel::{
    ComputeInfo, CsPushLayout, Flags, InputSlot, Kernel, Reloc, SimdKernel,
};
use crate::intel::DevInfo;
use crate::nir;

/// Compiles `shader` (already out of SSA form) with the scalar backend at every width in
/// `opts` that Mesa would build and keep, into one kernel of all of them.
pub fn compile_scalar(
    device: &fs::Device,
    shader: &nir::Shader,
    opts: &Options,
) -> Result<Kernel, CompileError> {
    let dev = device.devinfo;
    // Gen6 (snb): fragment shaders only, at SIMD8 and SIMD16 (see `fs::gen6`).
    let gen6_fs = dev.ver == 60 && shader.stage() == nir::Stage::Fragment;
    let Some(flow) = device
        .flow
        .as_ref()
        .filter(|_| (70..=90).contains(&dev.ver) || gen6_fs)
    else {
        return Err(CompileError::Unsupported(format!(
            "{} {:?} shaders (the scalar backend targets Gen7-Gen9, and Gen6 fragment shaders)",
            dev.name,
            shader.stage()
        )));
    };
    let mut code = Vec::new();
    let mut variants = Vec::new();
    let mut relocs = Vec::new();
    let mut facts = None;
    let mut widths: Vec<u32> = opts
        .simd
        .iter()
        .copied()
        .filter(|w| matches!(w, 8 | 16 | 32))
        .collect();
    widths.sort_unstable();
    widths.dedup();
    // Vertex threads are SIMD8 (eight vertices); wider widths asked for are not tried.
    if matches!(
        shader.stage(),
        nir::Stage::Vertex | nir::Stage::TessEval | nir::Stage::TessCtrl | nir::Stage::Geometry
    ) {
        widths.retain(|w| *w == 8);
    }
    // SIMD32 is built for fragment shaders only, from Gen7 (Gen6 dispatches 8 or 16 pixels).
    if shader.stage() != nir::Stage::Fragment || dev.ver < 70 {
        widths.retain(|w| *w != 32);
    }
    if widths.is_empty() {
        return Err(CompileError::Unsupported(format!(
            "SIMD widths {:?} (8 and 16 are implemented, and 32 for fragment shaders)",
            opts.simd
        )));
    }
    // Why SIMD32 was not built or not kept, for an error when it was the only width.
    let mut simd32_skipped = None;
    // Mesa's brw_compile_fs: the best estimated throughput of the widths kept so far,
    // whether any of them spilled, and whether SIMD16 was tried and did not fit.
    let mut best_throughput = 0f64;
    let mut any_spilled = false;
    let mut simd16_failed = false;
    // Widths built and dropped for not fitting the register file, for the error when none is
    // left (a compute shader may not fall back to SIMD8 when the caller forbids it).
    let mut unfit = Vec::new();
    // How far the SIMD16 program's busiest unit outlasts its thread (see `simd32_excluded`).
    let mut simd16_unit_bound = None;
    // Compute: the workgroup size picks the widths (Mesa's brw_simd_should_compile).
    let workgroup = match shader.stage() {
        nir::Stage::Compute => {
            let [x, y, z] = from_nir::compute_facts(shader)?.local_size;
            Some(x * y * z)
        }
        _ => None,
    };
    for &w in &widths {
        if let Some(size) = workgroup {
            if !compute_width_wanted(dev, size, w, variants.last().map(|k: &SimdKernel| k.simd)) {
                continue;
            }
        }
        if w == 32 {
            let why = simd32_excluded(dev, shader, any_spilled, simd16_failed, simd16_unit_bound);
            if let Some(why) = why {
                simd32_skipped = Some(why);
                continue;
            }
        }
        // Mesa keeps SIMD32 only when its estimated throughput beats the narrower
        // programs' (brw_compile_fs: "SIMD32 shader inefficient"); one that does not is
        // dropped before it is encoded.
        let floor = (w == 32).then_some(best_throughput);
        let outcome = match pipeline::compile_width(device, shader, w as u8, flow, opts, floor) {
            // A SIMD32 program that cannot be built (a message or feature the SIMD32
            // translation does not do, a payload past the register file) is dropped
            // like one that does not fit.
            Err(CompileError::Unsupported(why) | CompileError::Limit(why)) if w == 32 => {
                crate::shader_log::perf(format_args!("SIMD32 shader failed to compile: {why}"));
                simd32_skipped = Some(why);
                continue;
            }
            // Gen6: a message SIMD16 cannot send (a sampler payload past its 11 registers)
            // leaves the SIMD8 program alone, as Mesa's SIMD16 failures do.
            Err(CompileError::Unsupported(why))
                if w == 16 && dev.ver < 70 && !variants.is_empty() =>
            {
                crate::shader_log::perf(format_args!("SIMD16 shader failed to compile: {why}"));
                simd16_failed = true;
                continue;
            }
            other => other?,
        };
        let compiled = match outcome {
            pipeline::Outcome::Compiled(c) => {
                best_throughput = best_throughput.max(c.throughput);
                any_spilled |= c.spilled;
                if w == 16 {
                    simd16_unit_bound = Some(c.unit_bound());
                }
                Some(c)
            }
            pipeline::Outcome::Slower(t) => {
                crate::shader_log::perf(format_args!("SIMD32 shader inefficient"));
                simd32_skipped = Some(format!(
                    "SIMD32 is estimated slower ({t:.4} channels per cycle) than the \
                     narrower programs ({best_throughput:.4})"
                ));
                continue;
            }
            pipeline::Outcome::DoesNotFit => {
                unfit.push(w);
                if w != 8 {
                    crate::shader_log::perf(format_args!(
                        "SIMD{w} shader failed to compile: does not fit in 128 GRFs \
                         without spilling"
                    ));
                }
                if w == 16 {
                    simd16_failed = true;
                } else if w == 32 {
                    simd32_skipped =
                        Some("SIMD32 does not fit in 128 GRFs without spilling".into());
                }
                None
            }
        };
        match compiled.map(|c| *c) {
            Some(pipeline::Compiled {
                bytes,
                kernel: k,
                facts: f,
                relocs: sites,
                ..
            }) => {
                let mut k = k;
                k.offset = code.len() as u32;
                relocs.extend(sites.into_iter().map(|mut r: Reloc| {
                    r.offset += k.offset;
                    r
                }));
                k.size = bytes.len() as u32;
                code.extend_from_slice(&bytes);
                // Kernel start offsets must be 64-byte aligned.
                while code.len() % 64 != 0 {
                    code.push(0);
                }
                variants.push(k);
                facts.get_or_insert(f);
            }
            None if w == 8 && workgroup.is_none() => {
                return Err(CompileError::Unsupported(
                    "register spilling (SIMD8 does not fit in 128 GRFs)".into(),
                ))
            }
            None => {}
        }
    }
    if let (None, Some(_), Some(&w)) = (&facts, workgroup, unfit.last()) {
        return Err(CompileError::Unsupported(format!(
            "register spilling (SIMD{w} does not fit in 128 GRFs; a compute program spills \
             only at SIMD8, and the widths allowed were SIMD{widths:?})"
        )));
    }
    if let (None, Some(size)) = (&facts, workgroup) {
        return Err(CompileError::Unsupported(format!(
            "a workgroup of {size} invocations needs more than the {} compute threads of \
             {} at SIMD{:?}",
            dev.max_cs_threads, dev.name, widths
        )));
    }
    let facts = facts.ok_or_else(|| match simd32_skipped {
        Some(why) if widths == [32] => CompileError::Unsupported(why),
        _ => CompileError::Unsupported(format!(
            "register spilling (SIMD{} does not fit in 128 GRFs)",
            widths[0]
        )),
    })?;
    let mut flat_inputs = 0u64;
    for (i, inp) in facts.inputs.iter().enumerate() {
        if inp.2 && i < 64 {
            flat_inputs |= 1 << i;
        }
    }
    let scratch_size = variants.iter().map(|k| k.scratch_size).max().unwrap_or(0);
    // Compute dispatch uses one width: the widest that compiled.
    let widest = variants.last().map_or(8, |k| k.simd);
    Ok(Kernel {
        platform: dev.name,
        code,
        simd: variants,
        push_constants: facts.push.clone(),
        inputs: facts
            .inputs
            .iter()
            .enumerate()
            .map(|(i, (b, l, f))| InputSlot {
                base: *b,
                location: l.clone(),
                flat: *f,
                noperspective: facts.noperspective_inputs.contains(b),
                read: !facts.unread_inputs.contains(&i),
            })
            .collect(),
        num_render_targets: facts.num_render_targets,
        pull_constant_blocks: facts.pull_blocks.clone(),
        ubo_surface_base: facts.ubo_surface_base,
        ssbo_surface_base: facts.ssbo_surface_base,
        ubo_ranges: facts.ubo_ranges.clone(),
        surfaces: facts.surfaces.clone(),
        flags: Flags {
            uses_kill: facts.uses_kill,
            computes_depth: facts.computes_depth,
            uses_omask: false,
            bary_perspective_pixel: facts.payload.bary_pixel.is_some(),
            barycentric_modes: facts
                .payload
                .barycentric
                .iter()
                .enumerate()
                .filter(|(_, r)| r.is_some())
                .fold(0, |m, (k, _)| m | 1 << k),
            uses_src_depth_w: facts.payload.source_depth.is_some(),
            flat_inputs,
            dual_source_blend: facts.dual_source_blend,
            has_side_effects: writes_memory(shader),
            early_fragment_tests: shader.info.field("early_fragment_tests") == Some("true"),
        },
        scratch_size,
        compute: facts.compute.as_ref().map(|c| ComputeInfo {
            simd: widest,
            local_size: c.local_size,
            shared_size: c.shared_size,
            uses_barrier: c.uses_barrier,
            push_layout: match c.subgroup_id_param {
                None => CsPushLayout::LocalIds,
                // Cross-thread constant data exists from Haswell on.
                Some(_) => CsPushLayout::SubgroupId {
                    cross_thread: dev.ver >= 75,
                },
            },
        }),
        vertex: facts.vertex.clone(),
        geometry: facts.geometry.clone(),
        tess_eval: facts.tess_eval.clone(),
        tess_ctrl: facts.tess_ctrl.clone(),
        relocs,
        constant_data_size: shader.info.constant_data_size,
    })
}

/// Whether `shader` writes memory: what NIR's `writes_memory` records (stores and atomics
/// on SSBOs, images and global memory), which Mesa passes on as `has_side_effects`.
fn writes_memory(shader: &nir::Shader) -> bool {
    shader.entry().is_some_and(|imp| {
        imp.instrs.iter().any(|ins| match &ins.kind {
            nir::InstrKind::Intrinsic(i) => {
                let name = i.intrinsic.name();
                name.starts_with("store_ssbo")
                    || name.starts_with("ssbo_atomic")
                    || name.starts_with("store_global")
                    || name.starts_with("global_atomic")
                    || (name.contains("image")
                        && (name.contains("store") || name.contains("atomic")))
            }
            _ => false,
        })
    })
}

/// Why SIMD32 is not tried for `shader`, as Mesa's `brw_compile_fs` decides before
/// compiling it: a narrower program spilled, SIMD16 was tried and did not fit, or the
/// shader limits its dispatch width (Gen8 dual-source blending runs SIMD8 only).
///
/// One more reason is gpucc's own: the cycle model says SIMD32 cannot win. Throughput is the
/// width over the longer of the thread's time and its busiest unit's busy time. SIMD32 issues
/// every instruction as two SIMD16 halves, so each unit's busy time doubles while the
/// thread's time grows by less (the halves hide each other's latency). A SIMD16 program whose
/// busiest unit already outlasts its thread (`simd16_unit_bound` above 1) therefore gives a
/// SIMD32 program no faster than itself, which Mesa would compile and then drop as
/// "inefficient". The 1% margin keeps SIMD32 for programs whose unit and thread times are
/// balanced, where SIMD32's different schedule can still tip the comparison.
fn simd32_excluded(
    dev: &DevInfo,
    shader: &nir::Shader,
    any_spilled: bool,
    simd16_failed: bool,
    simd16_unit_bound: Option<f64>,
) -> Option<String> {
    if any_spilled {
        return Some("SIMD32 is not tried: a narrower program spilled registers".into());
    }
    if simd16_failed {
        return Some("SIMD32 is not tried: SIMD16 does not fit in 128 GRFs".into());
    }
    if dev.ver == 80 && from_nir::writes_dual_source(shader) {
        return Some("SIMD32 is not tried: Gen8 dual-source blending runs SIMD8".into());
    }
    if let Some(bound) = simd16_unit_bound.filter(|b| *b > SIMD32_UNIT_BOUND_LIMIT) {
        return Some(format!(
            "SIMD32 is not tried: the SIMD16 program's busiest unit is busy {bound:.3}x its \
             thread's cycles, so SIMD32 would not raise the throughput"
        ));
    }
    None
}

/// See [`simd32_excluded`].
const SIMD32_UNIT_BOUND_LIMIT: f64 = 1.01;

/// Whether a compute shader of `size` invocations per workgroup should be compiled at
/// `width`, given the widest width already compiled: a wider program is not wanted when the
/// workgroup already fits in one thread of the narrower one (it would only leave channels
/// idle), and a width is impossible when the workgroup would need more threads than a
/// subslice runs at once (the workgroup's threads must be resident together for barriers
/// and shared memory).
pub fn compute_width_wanted(dev: &DevInfo, size: u32, width: u32, compiled: Option<u32>) -> bool {
    if compiled.is_some_and(|narrower| size <= narrower) {
        return false;
    }
    dev.max_cs_threads == 0 || size.div_ceil(width) <= dev.max_cs_threads
}
