//! The vec4 backend: Gen7 (Ivy Bridge, Haswell) and Gen6 (Sandy Bridge, see [`gen6`]) vertex
//! shaders and Gen7 geometry and tessellation shaders, which the hardware runs
//! SIMD4x2 — two vertices per thread, four components each, every instruction align16 with
//! swizzles and write masks (Mesa's `brw_vec4*` backend).
//!
//! The pipeline ([`compile`]), run step by step through a [`Runner`] as the scalar backend's
//! is, so that `GPUCC_DEBUG=fs` prints the IR after every step that changed it, `time` times
//! each step and the [`validate`] checks run after each:
//!
//! 1. [`from_nir`] translates the vector NIR (out of SSA) to the [`ir`] ([`TRANSLATE`]);
//! 2. [`urb`] appends the VUE's URB writes ([`EMIT_VERTEX`]);
//! 3. [`opt`] removes copies, repeated expressions and dead code (the passes of
//!    [`opt::ROUND`], to a fixed point); on Gen6, [`gen6`] then refuses what it does not
//!    build and legalises MATH ([`GEN6_MATH`]) and pull-constant offsets ([`GEN6_PULL`]);
//!    for a tessellation-control shader, [`tcs_headers`] then drops the URB headers built
//!    again ([`TCS_READ_HEADERS`], [`TCS_WRITE_HEADER`]);
//! 4. [`regalloc`] gives every virtual register one GRF after the payload (g0, push
//!    constants two vec4s per register from g1, one register per vertex element), with
//!    [`spill`] sending registers to scratch when they do not fit ([`REGISTER_ALLOCATION`]);
//!    every allocation is checked by `ra::check`, and the allocated program by
//!    [`alloc_check`], which follows the values through the registers;
//! 5. [`codegen`] emits align16 EU instructions, encoded (and compacted) by [`crate::intel::eu`].
//!
//! The program object is the same [`Kernel`] the scalar backend returns, with the same
//! [`VertexInfo`](crate::intel::kernel::VertexInfo) (from the Intel layer's `vertex_facts`,
//! which the scalar backend uses too) and one variant whose width is [`SIMD4X2`].

pub mod alloc_check;
pub mod codegen;
pub mod from_nir;
pub mod gen4;
pub mod gen6;
pub mod ir;
pub mod liveness;
pub mod opt;
pub mod regalloc;
pub mod spill;
pub mod tcs_headers;
pub mod urb;
pub mod validate;

use crate::debug;
use crate::intel::backend::binding::BindingModel;
use crate::intel::backend::options::Options;
use crate::intel::eu;
use crate::intel::flow::FlowTemplates;
use crate::intel::kernel::{Flags, Kernel, SimdKernel, Stats, SIMD4X2};
use crate::intel::DevInfo;
use crate::nir;
use crate::pipeline::Runner;

pub use crate::error::CompileError;

/// Registers before the push constants: g0 (the thread header).
pub const DISPATCH_GRF_START: u32 = 1;

/// The label of the backend's dumps, timings and validation line.
pub const LABEL: &str = "vec4";
/// The step that translates NIR into the vec4 IR.
pub const TRANSLATE: &str = "from_nir";
/// The step that appends the URB writes of the VUE.
pub const EMIT_VERTEX: &str = "emit_vertex";
/// Register allocation, spilling included (the scalar backend's name for its step).
pub const REGISTER_ALLOCATION: &str = "register_allocation";
/// Gen6: MATH operands and destinations made plain GRFs ([`gen6::lower_math`]).
pub const GEN6_MATH: &str = "lower_math_gen6";
/// Gen4.5: math messages' operands and destinations legalised ([`gen4::lower_math`]).
pub const GEN4_MATH: &str = "lower_math_gen4";
/// Gen6: compile-time pull-constant offsets into the loads ([`gen6::fold_pull_offsets`]).
pub const GEN6_PULL: &str = "fold_pull_offsets_gen6";
/// Tessellation control: read headers built again dropped ([`tcs_headers`]).
pub const TCS_READ_HEADERS: &str = "tcs_share_read_headers";
/// Tessellation control: write headers reduced to what changed ([`tcs_headers`]).
pub const TCS_WRITE_HEADER: &str = "tcs_reuse_write_header";
/// The IR once spilling has added its scratch reads and writes.
pub const SPILL: &str = "spill_reg";

/// The program after translation, URB writes and optimization, before allocation.
pub fn lower(
    shader: &nir::Shader,
    optimize: bool,
    binding: BindingModel,
) -> Result<(ir::Program, from_nir::Facts), CompileError> {
    let opts = Options {
        optimize,
        binding,
        ..Options::default()
    };
    lower_with(
        &mut Runner::quiet(validate::validate),
        shader,
        &opts,
        true,
        false,
        false,
    )
}

/// [`lower`] through `runner`, which prints, times and validates each step as asked.
fn lower_with(
    runner: &mut Runner<ir::Program>,
    shader: &nir::Shader,
    opts: &Options,
    hoist_consts: bool,
    single: bool,
    gen4: bool,
) -> Result<(ir::Program, from_nir::Facts), CompileError> {
    let (mut prog, mut facts) = runner.time_step(TRANSLATE, || {
        from_nir::from_nir(shader, opts, hoist_consts, single)
    })?;
    if gen4 {
        gen4_vue(&mut facts)?;
    }
    runner.show(TRANSLATE, &prog);
    runner.check(TRANSLATE, &prog)?;
    runner.step(EMIT_VERTEX, &mut prog, |p| {
        if facts.tess_ctrl.is_some() {
            // The thread end of a TCS is part of the translation.
            return false;
        }
        match facts.gs_end {
            Some(end) => urb::emit_gs_end(&mut p.insts, end.control, end.control_dword, end.count),
            None => urb::emit_vertex(
                p,
                &facts.vertex.vue_map,
                &facts.outputs,
                &facts.output_masks,
                gen4,
            ),
        }
        true
    })?;
    if opts.optimize {
        opt::optimize_with(runner, &mut prog)?;
        if facts.tess_ctrl.is_some() {
            runner.step(TCS_READ_HEADERS, &mut prog, tcs_headers::share_read_headers)?;
            runner.step(TCS_WRITE_HEADER, &mut prog, tcs_headers::reuse_write_header)?;
        }
    }
    Ok((prog, facts))
}

/// The Gen4–5 VUE of a vertex shader ([`gen4`]): Mesa's pre-Gen6 layout of the varyings
/// written, without the edge flag (crocus stores one by default; it is in the VUE only when
/// the key asks to copy the vertex's edge flag, and brw drops the store otherwise). Point
/// size, layer, viewport and clip distances are refused: their Gen4–5 header fields are not
/// built.
fn gen4_vue(facts: &mut from_nir::Facts) -> Result<(), CompileError> {
    use crate::intel::vue::{self, VueMap};
    const EDGE: u32 = 15;
    let written = facts.vertex.vue_map.slots_valid & !(1u64 << EDGE);
    for (v, what) in [
        (vue::VARYING_SLOT_PSIZ, "point size"),
        (vue::VARYING_SLOT_LAYER, "layer"),
        (vue::VARYING_SLOT_VIEWPORT, "viewport index"),
        (vue::VARYING_SLOT_CLIP_DIST0, "clip distances"),
        (vue::VARYING_SLOT_CLIP_DIST1, "clip distances"),
    ] {
        if written & 1u64 << v != 0 {
            return Err(CompileError::Unsupported(format!(
                "Gen4-5 vec4 vertex shader: {what} (the Gen4-5 VUE header fields)"
            )));
        }
    }
    facts.vertex.vue_map = VueMap::gen4(written);
    facts.outputs.remove(&EDGE);
    Ok(())
}

/// A rough cycle estimate in the spirit of Mesa's: issue cost per instruction, with the
/// extended-math unit and messages weighted by their latency.
fn estimate_cycles(prog: &ir::Program) -> u32 {
    prog.insts
        .iter()
        .map(|i| match i.op {
            ir::Op::Do => 0,
            ir::Op::Math(_) => 22,
            ir::Op::UrbWrite { .. } => 4,
            ir::Op::PullLoad { .. }
            | ir::Op::Tex { .. }
            | ir::Op::ScratchRead { .. }
            | ir::Op::UrbRead { .. }
            | ir::Op::UntypedAtomic { .. } => 200,
            ir::Op::TesInputHeader => 6,
            ir::Op::TesIndirectOffset => 4,
            ir::Op::TcsInputHeader | ir::Op::TcsOutputHeader { .. } => 6,
            ir::Op::Barrier => 50,
            ir::Op::TcsReleaseInput { .. } | ir::Op::TcsThreadEnd => 12,
            ir::Op::ScratchWrite { .. } => 8,
            ir::Op::SamplerHeader { offset_bits: 0 } => 4,
            ir::Op::SamplerHeader { .. } => 8,
            ir::Op::UrbHeader => 8,
            ir::Op::GsWriteOffset { .. } | ir::Op::GsVertexCount | ir::Op::GsClearR0Dword2 => 2,
            _ => 4,
        })
        .sum()
}

/// Compiles a Gen7 vertex shader with the Intel layer's options (what to print, whether to
/// validate and optimize, the binding model; the widths do not apply).
pub fn compile(
    devinfo: &'static DevInfo,
    flow: &FlowTemplates,
    shader: &nir::Shader,
    opts: &Options,
) -> Result<Kernel, CompileError> {
    let gen6 = devinfo.ver == 60;
    let gen4 = devinfo.ver == 45;
    if devinfo.ver != 70 && devinfo.ver != 75 && !gen6 && !gen4 {
        return Err(CompileError::Unsupported(format!(
            "vec4 vertex, geometry and tessellation shaders on {} (the vec4 backend \
             targets G4x, Gen6 and Gen7)",
            devinfo.name
        )));
    }
    if (gen6 || gen4) && shader.stage() != nir::Stage::Vertex {
        return Err(CompileError::Unsupported(format!(
            "{} shaders on {} (the Gen4.5 and Gen6 vec4 paths build vertex shaders)",
            shader.stage().short_name(),
            devinfo.name
        )));
    }
    let flags = opts.debug;
    let mut runner = Runner::new(
        LABEL,
        flags,
        debug::Flags::FS,
        opts.validate,
        validate::validate,
    );
    // Constants read inside control flow are built once at the start of the program; when
    // that makes the program spill, it is translated again with them built in their blocks.
    let mut hoist_consts = true;
    // A geometry shader whose dual-object code would spill is compiled again for single
    // dispatch, where spilling is allowed (Mesa's `brw_compile_gs`).
    let mut single = false;
    let (prog, facts, first_free, limit, virtual_regs, alloc, spilled) = loop {
        let (mut prog, facts) = lower_with(&mut runner, shader, opts, hoist_consts, single, gen4)?;
        if gen4 {
            gen4::check_program(&prog, devinfo.ver)?;
            runner.step(GEN4_MATH, &mut prog, gen4::lower_math)?;
            runner.step(GEN6_PULL, &mut prog, gen6::fold_pull_offsets)?;
        }
        if gen6 {
            gen6::check_program(&prog)?;
            runner.step(GEN6_MATH, &mut prog, gen6::lower_math)?;
            runner.step(GEN6_PULL, &mut prog, gen6::fold_pull_offsets)?;
        }
        let curb_regs = (facts.push.len() as u32).div_ceil(2);
        let attr_base = facts.uniform_base() + curb_regs;
        let first_free = attr_base + facts.vertex.nr_attribute_slots;
        if first_free >= urb::MSG_BASE {
            return Err(CompileError::Unsupported(format!(
                "a vec4 payload of {first_free} registers (pushed inputs reach the message \
                 registers)"
            )));
        }
        let limit = if flags.contains(debug::Flags::SPILL_VEC4) {
            (first_free + debug::SPILL_VEC4_GRFS).min(urb::MSG_BASE)
        } else {
            urb::MSG_BASE
        };
        let virtual_regs = prog.num_vgrfs;
        let (alloc, spilled) = runner
            .time_step(REGISTER_ALLOCATION, || {
                spill::allocate_spilling(&mut prog, first_free, limit)
            })?
            .ok_or_else(|| {
                CompileError::Unsupported(
                    "vec4 register allocation (does not fit even with spilling)".into(),
                )
            })?;
        if hoist_consts && !spilled.spilled.is_empty() {
            hoist_consts = false;
            continue;
        }
        if (gen6 || gen4) && !spilled.spilled.is_empty() {
            return Err(CompileError::Unsupported(format!(
                "Gen{} vec4 register spilling (scratch messages from MRFs)",
                if gen4 { "4-5" } else { "6" }
            )));
        }
        let dual_object = facts
            .geometry
            .as_ref()
            .is_some_and(|g| g.dispatch_mode == crate::intel::geometry::DispatchMode::DualObject);
        if dual_object && !spilled.spilled.is_empty() {
            // Mesa compiles dual-object geometry code without spilling and falls back to
            // single dispatch when it would spill.
            single = true;
            hoist_consts = true;
            continue;
        }
        break (prog, facts, first_free, limit, virtual_regs, alloc, spilled);
    };
    let curb_regs = (facts.push.len() as u32).div_ceil(2);
    let uniform_base = facts.uniform_base();
    let attr_base = uniform_base + curb_regs;
    if !spilled.spilled.is_empty() {
        runner.show(SPILL, &prog);
        runner.check(SPILL, &prog)?;
    }
    alloc_check::check(&prog, &alloc.regs, (uniform_base, attr_base), first_free).map_err(|e| {
        CompileError::Internal(format!("vec4 register allocation lost a value: {e}"))
    })?;
    let layout = codegen::Layout {
        uniform_base,
        attr_base,
        mrfs: gen6 || gen4,
        interleaved: facts
            .geometry
            .as_ref()
            .is_some_and(|g| g.interleaved_inputs()),
    };
    let gen = runner.time_step("codegen", || {
        codegen::generate(devinfo, flow, &prog, &alloc.regs, &layout)
    })?;
    let errors = eu::validate::validate(devinfo, &gen.insts);
    if let Some(e) = errors.first() {
        return Err(CompileError::Internal(format!(
            "vec4 code fails EU validation: {e}"
        )));
    }
    let encoded = runner
        .time_step("encode", || {
            eu::encode_program_compacted(devinfo, &gen.insts)
        })
        .map_err(|e| CompileError::Internal(format!("vec4 encoding: {e}")))?;
    let code: Vec<u8> = encoded.iter().flat_map(|e| e.bytes().to_vec()).collect();
    let used_vgrfs = liveness::intervals(&prog);
    let top_vgrf = used_vgrfs
        .iter()
        .zip(&alloc.regs)
        .filter(|(iv, _)| iv.is_some())
        .map(|(_, &r)| r + 1)
        .max()
        .unwrap_or(0);
    // The message registers in use count too (Mesa's GRF count includes its MRF range).
    let top_msg = prog
        .insts
        .iter()
        .filter(|i| i.dst.file == ir::File::Fixed)
        .map(|i| i.dst.nr + 1)
        .max()
        .unwrap_or(0);
    // Spill and fill messages are built in the three registers from SCRATCH_MSG.
    let top_msg = if spilled.scratch_bytes > 0 {
        top_msg.max(ir::SCRATCH_MSG + 3)
    } else {
        top_msg
    };
    let grfs_used = top_vgrf.max(top_msg).max(first_free);
    if flags.contains(debug::Flags::RA) {
        report_allocation(&RaReport {
            prog: &prog,
            virtual_regs,
            live: &used_vgrfs,
            push_regs: curb_regs,
            attr_regs: facts.vertex.nr_attribute_slots,
            first_free,
            limit,
            alloc: &alloc,
            spilled: &spilled,
            grfs_used,
        });
    }
    runner.report();
    let stats = Stats {
        simd: SIMD4X2,
        instructions: gen.insts.len() as u32,
        loops: prog.insts.iter().filter(|i| i.op == ir::Op::While).count() as u32,
        cycles: estimate_cycles(&prog),
        spills: spilled.spills,
        fills: spilled.fills,
        sends: prog.insts.iter().filter(|i| i.op.is_send()).count() as u32,
        bytes_uncompacted: 16 * gen.insts.len() as u32,
        bytes: code.len() as u32,
    };
    let size = code.len() as u32;
    let mut code = code;
    while code.len() % 64 != 0 {
        code.push(0);
    }
    let push_constants = facts
        .push
        .iter()
        .flat_map(|&(block, off)| (0..4).map(move |c| (block, off + 4 * c)))
        .collect();
    let kernel = Kernel {
        platform: devinfo.name,
        code,
        simd: vec![SimdKernel {
            simd: SIMD4X2,
            offset: 0,
            size,
            dispatch_grf_start: uniform_base,
            grfs_used,
            stats,
            scratch_size: spilled.scratch_bytes,
        }],
        push_constants,
        inputs: Vec::new(),
        num_render_targets: 0,
        pull_constant_blocks: facts.pull_blocks.clone(),
        ubo_surface_base: facts.ubo_surface_base,
        ssbo_surface_base: facts.ssbo_surface_base,
        ubo_ranges: facts.ubo_ranges.clone(),
        surfaces: facts.surfaces.clone(),
        flags: Flags::default(),
        scratch_size: spilled.scratch_bytes,
        compute: None,
        tess_eval: facts.tess_eval.clone(),
        tess_ctrl: facts.tess_ctrl.clone(),
        vertex: (facts.geometry.is_none()
            && facts.tess_eval.is_none()
            && facts.tess_ctrl.is_none())
        .then_some(facts.vertex),
        geometry: facts.geometry,
        relocs: Vec::new(),
        constant_data_size: shader.info.constant_data_size,
    };
    Ok(kernel)
}

/// What `GPUCC_DEBUG=ra` reports of a vec4 allocation.
struct RaReport<'a> {
    /// The program as allocated (spill code included).
    prog: &'a ir::Program,
    /// Virtual registers before spilling added its temporaries.
    virtual_regs: u32,
    /// Each register's live interval.
    live: &'a [Option<(usize, usize)>],
    /// Payload registers of push constants and of vertex elements.
    push_regs: u32,
    attr_regs: u32,
    /// The allocatable range.
    first_free: u32,
    limit: u32,
    alloc: &'a regalloc::Allocation,
    spilled: &'a spill::SpillStats,
    grfs_used: u32,
}

/// `GPUCC_DEBUG=ra`: the register file as the allocator saw it (payload, allocatable range,
/// interference graph), what it cost (GRFs, spills and fills, scratch), and where each live
/// register went — the scalar backend's report, with the placement added because one GRF per
/// register makes it short enough to read.
fn report_allocation(r: &RaReport) {
    let live = r.live.iter().filter(|iv| iv.is_some()).count();
    let temps = r.prog.num_vgrfs - r.virtual_regs;
    let spill_temps = if temps > 0 {
        format!(" and {temps} spill temporaries")
    } else {
        String::new()
    };
    eprintln!(
        "=== {LABEL} register allocation: {} virtual registers{spill_temps}, {live} live; \
         payload g0..g{} (g0, {} push-constant and {} vertex-element registers); allocatable \
         g{}..g{}; interference graph {} nodes, {} edges; {} GRFs used; {}:{} spills:fills, {} \
         scratch bytes",
        r.virtual_regs,
        r.first_free.saturating_sub(1),
        r.push_regs,
        r.attr_regs,
        r.first_free,
        r.limit.saturating_sub(1),
        r.alloc.graph_nodes,
        r.alloc.graph_edges,
        r.grfs_used,
        r.spilled.spills,
        r.spilled.fills,
        r.spilled.scratch_bytes
    );
    let placed: Vec<String> = r
        .live
        .iter()
        .zip(&r.alloc.regs)
        .enumerate()
        .filter(|(_, (iv, _))| iv.is_some())
        .map(|(v, (_, g))| format!("v{v}:g{g}"))
        .collect();
    let placed = if placed.is_empty() {
        "(none live)".to_string()
    } else {
        placed.join(" ")
    };
    eprintln!("=== {LABEL} registers: {placed}");
    if !r.spilled.spilled.is_empty() {
        let slots: Vec<String> = r
            .spilled
            .spilled
            .iter()
            .enumerate()
            .map(|(slot, v)| format!("v{v}:slot{slot}"))
            .collect();
        eprintln!("=== {LABEL} spilled to scratch: {}", slots.join(" "));
    }
}
