//! The vec4 backend: Gen7 (Ivy Bridge, Haswell) vertex shaders, which the hardware runs
//! SIMD4x2 — two vertices per thread, four components each, every instruction align16 with
//! swizzles and write masks (Mesa's `brw_vec4*` backend).
//!
//! The pipeline ([`compile`]):
//!
//! 1. [`from_nir`] translates the vector NIR (out of SSA) to the [`ir`];
//! 2. [`urb`] appends the VUE's URB writes;
//! 3. [`opt`] removes copies, repeated expressions and dead code;
//! 4. [`regalloc`] gives every virtual register one GRF after the payload (g0, push
//!    constants two vec4s per register from g1, one register per vertex element);
//! 5. [`codegen`] emits align16 EU instructions, encoded (and compacted) by [`crate::intel::eu`].
//!
//! The program object is the same [`Kernel`] the scalar backend returns, with the same
//! [`VertexInfo`](crate::intel::kernel::VertexInfo) (from the shared `vertex_facts`) and one
//! variant whose width is [`SIMD4X2`].

pub mod alloc_check;
pub mod codegen;
pub mod from_nir;
pub mod ir;
pub mod liveness;
pub mod opt;
pub mod regalloc;
pub mod spill;
pub mod urb;
pub mod validate;

use crate::debug;
use crate::intel::eu;
use crate::intel::flow::FlowTemplates;
use crate::intel::kernel::{Flags, Kernel, SimdKernel, Stats, SIMD4X2};
use crate::intel::DevInfo;
use crate::nir;

pub use crate::compiler::CompileError;

/// Registers before the push constants: g0 (the thread header).
pub const DISPATCH_GRF_START: u32 = 1;

/// The program after translation, URB writes and optimization, before allocation.
pub fn lower(
    shader: &nir::Shader,
    optimize: bool,
    binding: crate::compiler::BindingModel,
) -> Result<(ir::Program, from_nir::Facts), CompileError> {
    let (mut prog, facts) = from_nir::from_nir(shader, binding)?;
    urb::emit_vertex(
        &mut prog,
        &facts.vertex.vue_map,
        &facts.outputs,
        &facts.output_masks,
    );
    if optimize {
        opt::optimize(&mut prog);
    }
    Ok((prog, facts))
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
            ir::Op::PullLoad { .. } | ir::Op::Tex { .. } | ir::Op::ScratchRead { .. } => 200,
            ir::Op::ScratchWrite { .. } => 8,
            ir::Op::SamplerHeader { offset_bits: 0 } => 4,
            ir::Op::SamplerHeader { .. } => 8,
            ir::Op::UrbHeader => 8,
            _ => 4,
        })
        .sum()
}

/// Compiles a Gen7 vertex shader.
pub fn compile(
    devinfo: &'static DevInfo,
    flow: &FlowTemplates,
    shader: &nir::Shader,
    flags: debug::Flags,
    optimize: bool,
    binding: crate::compiler::BindingModel,
) -> Result<Kernel, CompileError> {
    if devinfo.ver != 70 && devinfo.ver != 75 {
        return Err(CompileError::Unsupported(format!(
            "vec4 vertex shaders on {} (the vec4 backend targets Gen7)",
            devinfo.name
        )));
    }
    let (mut prog, facts) = lower(shader, optimize, binding)?;
    if flags.contains(debug::Flags::FS) {
        eprint!("=== vec4 IR\n{prog}");
    }
    let curb_regs = (facts.push.len() as u32).div_ceil(2);
    let attr_base = DISPATCH_GRF_START + curb_regs;
    let first_free = attr_base + facts.vertex.nr_attribute_slots;
    let limit = if flags.contains(debug::Flags::SPILL_VEC4) {
        (first_free + debug::SPILL_VEC4_GRFS).min(urb::MSG_BASE)
    } else {
        urb::MSG_BASE
    };
    let (alloc, spilled) =
        spill::allocate_spilling(&mut prog, first_free, limit)?.ok_or_else(|| {
            CompileError::Unsupported(
                "vec4 register allocation (does not fit even with spilling)".into(),
            )
        })?;
    let layout = codegen::Layout { attr_base };
    let gen = codegen::generate(devinfo, flow, &prog, &alloc.regs, &layout)?;
    let errors = eu::validate::validate(devinfo, &gen.insts);
    if let Some(e) = errors.first() {
        return Err(CompileError::Internal(format!(
            "vec4 code fails EU validation: {e}"
        )));
    }
    let encoded = eu::encode_program_compacted(devinfo, &gen.insts)
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
            dispatch_grf_start: DISPATCH_GRF_START,
            grfs_used,
            stats,
            scratch_size: spilled.scratch_bytes,
        }],
        push_constants,
        inputs: Vec::new(),
        num_render_targets: 0,
        pull_constant_blocks: facts.pull_blocks.clone(),
        ubo_surface_base: facts.ubo_surface_base,
        ssbo_surface_base: crate::intel::fs::from_nir::SSBO_SURFACE_BASE,
        ubo_ranges: facts.ubo_ranges.clone(),
        surfaces: facts.surfaces.clone(),
        flags: Flags::default(),
        scratch_size: spilled.scratch_bytes,
        compute: None,
        vertex: Some(facts.vertex),
        relocs: Vec::new(),
        constant_data_size: shader.info.constant_data_size,
    };
    Ok(kernel)
}
