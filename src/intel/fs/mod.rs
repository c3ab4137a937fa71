//! The scalar ("FS") backend: NIR fragment and compute shaders in, [`Kernel`]s out, for
//! Gen7–Gen9 (Gen9 as Gen8 plus its sampler `ld` parameter order and committed fences).
//!
//! The pipeline, run once per dispatch width by [`Context::compile`]:
//!
//! 1. [`from_nir`] translates the shader at the width (8, 16 or, for fragment shaders, 32
//!    channels: a SIMD32 program is made of SIMD16 halves, its sampler and render-target
//!    messages split in two, as Mesa builds it on Gen7-Gen9);
//! 2. [`lower`] turns logical sends into payload loads and SENDs, expands LOAD_PAYLOAD, splits
//!    multiplies and instructions the hardware cannot run at the width;
//! 3. push constants and attribute setup data are given their payload registers;
//! 4. [`opt`] removes copies (copy propagation, dead code, register coalescing);
//! 5. [`sched`] orders each block for register pressure, trying Mesa's heuristics in turn,
//!    and [`liveness`] and [`regalloc`] place the virtual registers with the first order that
//!    fits; when none does, a SIMD8 program spills registers to scratch (from the order with
//!    the least pressure), a SIMD16 or SIMD32 one is dropped (as Mesa does);
//! 6. [`sched`] reorders the allocated program to hide latency;
//! 7. [`codegen`] emits EU instructions, which the EU validator checks before they are
//!    encoded and compacted.
//!
//! SIMD32 is tried as Mesa's `brw_compile_fs` tries it (no narrower program spilled, SIMD16
//! did not fail) and kept only when the cycle model's throughput beats the narrower
//! programs'.
//!
//! The order is written once, in [`pipeline`]; `GPUCC_DEBUG` (see [`crate::debug`]) prints
//! the IR after each step that changed it (`fs`), the allocator's work (`ra`), the final
//! assembly (`asm`), statistics (`stats`) and per-pass times (`time`) through
//! [`Options::debug`].

pub mod alloc_check;
pub mod codegen;
pub mod from_nir;
pub mod ir;
pub mod limits;
pub mod liveness;
pub mod lower;
pub mod opt;
pub mod pipeline;
pub mod regalloc;
pub mod sched;
pub mod stats;
pub mod validate;
pub mod verify;

use std::sync::Arc;

use crate::debug;
use crate::intel::eu;
use crate::intel::flow::FlowTemplates;
use crate::intel::kernel::{
    ComputeInfo, CsPushLayout, Flags, InputSlot, Kernel, Reloc, SimdKernel,
};
use crate::intel::msg::ScratchDesc;
use crate::intel::DevInfo;
use crate::nir;

use ir::{File, Program, Reg, REG_SIZE};

/// Why a compile failed: the one error type of every backend (see [`crate::compiler`]).
pub use crate::compiler::CompileError;

/// Compile options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Dispatch widths to try (8, 16, 32); a width not listed is never built. SIMD32
    /// (fragment shaders only) is tried and kept as Mesa's `brw_compile_fs` decides.
    pub simd: Vec<u32>,
    /// What to print while compiling (`GPUCC_DEBUG` by default).
    pub debug: debug::Flags,
    /// Validate the IR after every pass (on in debug builds and with `GPUCC_DEBUG=validate`).
    pub validate: bool,
    /// Run the [`opt`] passes (off only to measure what they gain).
    pub optimize: bool,
    /// Where surfaces sit and how uniform data is pushed.
    pub binding: crate::compiler::BindingModel,
    /// Fragment: the previous stage's VUE map `slots_valid` (the key's `input_slots_valid`),
    /// which lays out more than 16 inputs as brw's `calculate_urb_setup` does.
    pub input_slots_valid: Option<u64>,
}

impl Default for Options {
    fn default() -> Options {
        Options::widths(&[8, 16, 32])
    }
}

impl Options {
    /// Options compiling exactly the given widths, with the process's `GPUCC_DEBUG` flags.
    pub fn widths(simd: &[u32]) -> Options {
        Options {
            simd: simd.to_vec(),
            debug: debug::flags(),
            validate: debug::validate_by_default(),
            optimize: true,
            binding: Default::default(),
            input_slots_valid: None,
        }
    }

    /// The same options with the IR validated after every pass (what tests ask for).
    pub fn validating(mut self) -> Options {
        self.validate = true;
        self
    }
}

/// Per-device state shared by every compile: the register classes and flow templates.
#[derive(Debug, Clone)]
pub struct Context {
    devinfo: &'static DevInfo,
    regs: Arc<regalloc::RegFile>,
    flow: Option<FlowTemplates>,
    /// The vec4 backend's align16 templates (Gen7 vertex shaders).
    flow16: Option<FlowTemplates>,
}

impl Context {
    /// Builds the context for `devinfo` (expensive: do it once per compiler object).
    pub fn new(devinfo: &'static DevInfo) -> Context {
        let flow = if devinfo.ver >= 70 {
            FlowTemplates::new(devinfo, false).ok()
        } else {
            None
        };
        let flow16 = if devinfo.ver == 70 || devinfo.ver == 75 {
            FlowTemplates::new(devinfo, true).ok()
        } else {
            None
        };
        Context {
            devinfo,
            regs: Arc::new(regalloc::RegFile::new(devinfo.grf_count as usize)),
            flow,
            flow16,
        }
    }

    /// The device.
    pub fn devinfo(&self) -> &'static DevInfo {
        self.devinfo
    }

    /// Compiles a fragment or compute shader for every width in `opts` that fits.
    pub fn compile(&self, shader: &nir::Shader, opts: &Options) -> Result<Kernel, CompileError> {
        limits::check_header(shader)?;
        let shader = pipeline::prepare_nir(shader, opts.debug);
        // Before Gen8 vertex threads run SIMD4x2: the vec4 backend compiles them.
        let kernel = if shader.stage() == nir::Stage::Vertex && self.devinfo.ver < 80 {
            let flow = self.flow16.as_ref().ok_or_else(|| {
                CompileError::Unsupported(format!(
                    "vec4 vertex shaders on {} (the vec4 backend targets Gen7)",
                    self.devinfo.name
                ))
            })?;
            crate::intel::vec4::compile(self.devinfo, flow, &shader, opts)?
        } else {
            self.compile_prepared(&shader, opts)?
        };
        if opts.debug.contains(debug::Flags::ASM) {
            eprint!(
                "=== {} assembly\n{}",
                self.devinfo.name,
                kernel.disassemble(self.devinfo)
            );
        }
        if opts.debug.contains(debug::Flags::STATS) {
            for v in &kernel.simd {
                eprintln!("{}", v.stats);
            }
            eprint!("{}", kernel.binding_text());
        }
        Ok(kernel)
    }

    /// [`Context::compile`] of a shader already out of SSA form.
    fn compile_prepared(
        &self,
        shader: &nir::Shader,
        opts: &Options,
    ) -> Result<Kernel, CompileError> {
        let dev = self.devinfo;
        let Some(flow) = self.flow.as_ref().filter(|_| (70..=90).contains(&dev.ver)) else {
            return Err(CompileError::Unsupported(format!(
                "{} (the scalar backend targets Gen7-Gen9)",
                dev.name
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
        if shader.stage() == nir::Stage::Vertex {
            widths.retain(|w| *w == 8);
        }
        // SIMD32 is built for fragment shaders only.
        if shader.stage() != nir::Stage::Fragment {
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
                if !compute_width_wanted(dev, size, w, variants.last().map(|k: &SimdKernel| k.simd))
                {
                    continue;
                }
            }
            if w == 32 {
                let why =
                    simd32_excluded(dev, shader, any_spilled, simd16_failed, simd16_unit_bound);
                if let Some(why) = why {
                    simd32_skipped = Some(why);
                    continue;
                }
            }
            // Mesa keeps SIMD32 only when its estimated throughput beats the narrower
            // programs' (brw_compile_fs: "SIMD32 shader inefficient"); one that does not is
            // dropped before it is encoded.
            let floor = (w == 32).then_some(best_throughput);
            let outcome = match pipeline::compile_width(self, shader, w as u8, flow, opts, floor) {
                // A SIMD32 program that cannot be built (a message or feature the SIMD32
                // translation does not do, a payload past the register file) is dropped
                // like one that does not fit.
                Err(CompileError::Unsupported(why) | CompileError::Limit(why)) if w == 32 => {
                    crate::shader_log::perf(format_args!("SIMD32 shader failed to compile: {why}"));
                    simd32_skipped = Some(why);
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
            relocs,
            constant_data_size: shader.info.constant_data_size,
        })
    }
}

/// The relocations of one variant, at the byte offsets of their immediates in its compacted
/// code: a relocated MOV is never compacted (its placeholder fits no table), and a full
/// instruction keeps its 32-bit immediate in bytes 12..16.
fn reloc_offsets(sites: &[(usize, u32)], code: &[eu::Encoded]) -> Result<Vec<Reloc>, CompileError> {
    let mut relocs = Vec::with_capacity(sites.len());
    for &(index, id) in sites {
        let inst = code.get(index).ok_or_else(|| {
            CompileError::Internal(format!("relocated instruction {index} was not emitted"))
        })?;
        if inst.bytes().len() != 16 {
            return Err(CompileError::Internal(format!(
                "relocated instruction {index} was compacted"
            )));
        }
        let start: usize = code[..index].iter().map(|e| e.bytes().len()).sum();
        relocs.push(Reloc {
            id,
            offset: start as u32 + 12,
            delta: 0,
        });
    }
    Ok(relocs)
}

/// Puts register spills after the scratch the NIR addresses itself (as Mesa does): the
/// allocator numbers its scratch blocks from zero, so every scratch block message moves up by
/// the NIR's per-thread scratch bytes, and the thread's scratch grows by as much.
fn place_spills_after_nir_scratch(
    ver: u32,
    prog: &mut Program,
    spilled: &mut regalloc::SpillStats,
    nir_bytes: u32,
) -> Result<(), CompileError> {
    if nir_bytes == 0 {
        return Ok(());
    }
    let base = nir_bytes.next_multiple_of(REG_SIZE);
    for inst in &mut prog.insts {
        if inst.op == ir::Op::Send && ScratchDesc::is_scratch(ver, inst.sfid, inst.desc) {
            let mut scratch = ScratchDesc::decode(ver, inst.desc);
            scratch.offset += base / REG_SIZE;
            if scratch.offset > ScratchDesc::MAX_OFFSET {
                return Err(CompileError::Unsupported(format!(
                    "register spills beyond {} bytes of NIR scratch (block offsets are 12 bits)",
                    nir_bytes
                )));
            }
            inst.desc = scratch.encode(ver);
        }
    }
    spilled.scratch_bytes += base;
    Ok(())
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

/// Gives push constants and attribute setup data their payload registers and returns the
/// number of registers the payload occupies (none of which the allocator may use).
/// GRFs the thread payload takes: the fixed part, the push constants, then the attribute
/// setup (fragment) or the pushed vertex elements (vertex), which [`assign_payload_files`]
/// lays out in that order.
fn payload_regs(facts: &from_nir::ShaderFacts) -> u32 {
    let urb_start = facts.payload.num_regs + facts.push_dwords().div_ceil(8);
    match &facts.vertex {
        Some(v) => urb_start + 4 * v.nr_attribute_slots,
        None => urb_start + 2 * facts.inputs.len() as u32,
    }
}

/// The payload must leave registers for the program: a payload past the file (a vertex
/// shader pushing 32 elements of 4 GRFs each) is a limit of the shader, named, not an
/// internal error of the passes that place it.
fn check_payload(dev: &DevInfo, facts: &from_nir::ShaderFacts) -> Result<(), CompileError> {
    let regs = payload_regs(facts);
    if regs >= dev.grf_count {
        let what = match &facts.vertex {
            Some(v) => format!(
                "{} pushed vertex elements of 4 GRFs each",
                v.nr_attribute_slots
            ),
            None => format!("{} input slots of 2 GRFs each", facts.inputs.len()),
        };
        return Err(CompileError::Limit(format!(
            "the thread payload ({what}, {} push-constant dwords) takes {regs} GRFs, leaving none \
             of the {} for the program",
            facts.push_dwords(),
            dev.grf_count
        )));
    }
    Ok(())
}

fn assign_payload_files(prog: &mut Program, facts: &from_nir::ShaderFacts) -> u32 {
    let curb_start = facts.payload.num_regs;
    let curb_regs = facts.push_dwords().div_ceil(8);
    let urb_start = curb_start + curb_regs;
    let vertex = facts.vertex.as_ref();
    let fix = |r: &mut Reg| match r.file {
        // A vertex element component: a whole register of eight vertices' values.
        File::Attr if vertex.is_some() => {
            r.file = File::Fixed;
            r.nr += urb_start;
        }
        File::Uniform => {
            let slot = r.nr;
            r.file = File::Fixed;
            r.nr = curb_start + slot / 8;
            r.offset = (slot % 8) * 4;
            r.stride = 0;
        }
        File::Attr => {
            let comp = r.offset / 16;
            let within = r.offset % 16;
            r.file = File::Fixed;
            r.nr = urb_start + 2 * r.nr + comp / 2;
            r.offset = (comp % 2) * 16 + within;
            r.stride = 0;
        }
        _ => {}
    };
    for inst in &mut prog.insts {
        fix(&mut inst.dst);
        for s in &mut inst.src {
            fix(s);
        }
    }
    payload_regs(facts)
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

/// The verdict of running a compiled shader against the interpreter, shared with etnaviv.
pub use crate::verify::VerifyOutcome;

pub use verify::{
    verify, verify_bound, verify_kernel, verify_kernel_with, verify_laid_out, verify_with, Layout,
    SetMemo,
};

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
