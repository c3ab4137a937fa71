//! The scalar backend's order of work for one dispatch width, written once.
//!
//! NIR out of SSA ([`NIR_PASSES`]), translation, the [`LOWERING`] passes, payload placement,
//! the optimizer's lists (`opt::BEFORE_ROUNDS`, `opt::ROUND`, `opt::AFTER_ROUNDS`), then
//! scheduling and allocation (tried per pre-allocation mode and optimization level until one
//! fits), post-allocation scheduling and code generation. Everything runs through one
//! [`Runner`], so `GPUCC_DEBUG=fs` prints the IR after every step that changed it, `time`
//! times each step, and validation checks the IR after each. Tests that need the program at
//! some point of the pipeline call [`prepare`] with the name of the last step to run instead
//! of repeating the order.

use std::borrow::Cow;

use crate::debug::Flags;
use crate::intel::eu;
use crate::intel::kernel::{Reloc, SimdKernel};
use crate::intel::DevInfo;
use crate::nir;
use crate::pipeline::{Pass, Runner};

use super::ir::Program;
use super::liveness::{self, Liveness};
use super::{
    assign_payload_files, codegen, from_nir, lower, opt, place_spills_after_nir_scratch, regalloc,
    reloc_offsets, sched, stats, validate, CompileError, Device,
};
use crate::intel::backend::options::Options;

/// NIR passes before translation. The scalar backend, like Mesa's, takes NIR out of SSA
/// form: phis become register intrinsics.
pub const NIR_PASSES: &[Pass<(), nir::Shader>] = &[Pass {
    name: "phis_to_regs",
    run: |_, s| nir::passes::phis_to_regs(s),
}];

/// Lowering after translation: logical sends to payloads and SENDs, LOAD_PAYLOAD to moves,
/// multiplies the hardware lacks, instructions too wide for the hardware split.
pub const LOWERING: &[Pass<DevInfo, Program>] = &[
    Pass {
        name: "lower_logical_sends",
        run: lower::lower_logical_sends,
    },
    Pass {
        name: "lower_load_payload",
        run: lower::lower_load_payload,
    },
    Pass {
        name: "lower_integer_multiplication",
        run: lower::lower_integer_multiplication,
    },
    Pass {
        name: "lower_simd_width",
        run: lower::lower_simd_width,
    },
];

/// The step that gives push constants and attribute setup data their payload registers.
pub const ASSIGN_PAYLOAD: &str = "assign_payload_files";
/// The step that runs the optimizer (at full level) in [`prepare`].
pub const OPTIMIZE: &str = "optimize";
/// The step that translates NIR into the scalar IR.
pub const TRANSLATE: &str = "from_nir";

/// The shader as the translator takes it: out of SSA form (see [`NIR_PASSES`]), printed
/// before and after when `GPUCC_DEBUG=nir` asks. A shader without phis, as Mesa hands them
/// over, is used as it is, without a copy.
pub fn prepare_nir<'a>(shader: &'a nir::Shader, flags: Flags) -> Cow<'a, nir::Shader> {
    let print = flags.contains(Flags::NIR);
    if print {
        eprintln!("=== NIR as received\n{}", nir::print(shader));
    }
    let has_phis = shader
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .any(|body| {
            body.instrs_in_order()
                .any(|(_, i)| matches!(i.kind, nir::InstrKind::Phi(_)))
        });
    if !has_phis {
        return Cow::Borrowed(shader);
    }
    let mut copy = shader.clone();
    for pass in NIR_PASSES {
        if (pass.run)(&(), &mut copy) && print {
            eprintln!("=== NIR after {}\n{}", pass.name, nir::print(&copy));
        }
    }
    Cow::Owned(copy)
}

/// A program part of the way through the pipeline (see [`prepare`]).
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The program after the last step run.
    pub prog: Program,
    /// What translation found.
    pub facts: from_nir::ShaderFacts,
    /// Registers the payload occupies, once [`ASSIGN_PAYLOAD`] has run.
    pub reserved: Option<u32>,
}

/// Runs the pipeline for `width` from translation up to and including the step named
/// `last`: [`TRANSLATE`], a [`LOWERING`] pass, [`ASSIGN_PAYLOAD`] or [`OPTIMIZE`]. The IR is
/// validated after every step.
pub fn prepare(
    dev: &'static DevInfo,
    shader: &nir::Shader,
    width: u8,
    last: &str,
) -> Result<Prepared, CompileError> {
    let steps: Vec<&str> = std::iter::once(TRANSLATE)
        .chain(LOWERING.iter().map(|p| p.name))
        .chain([ASSIGN_PAYLOAD, OPTIMIZE])
        .collect();
    let Some(stop) = steps.iter().position(|s| *s == last) else {
        return Err(CompileError::Invalid(format!(
            "no step named '{last}' in the scalar pipeline ({})",
            steps.join(", ")
        )));
    };
    let shader = prepare_nir(shader, Flags::empty());
    let mut runner = Runner::new("", Flags::empty(), Flags::FS, true, validate::validate);
    let (prog, facts) = from_nir::from_nir(dev, &shader, width, Default::default(), None)?;
    runner.check(TRANSLATE, &prog)?;
    let mut prepared = Prepared {
        prog,
        facts,
        reserved: None,
    };
    for pass in LOWERING.iter().take(stop) {
        runner.run(pass, dev, &mut prepared.prog)?;
    }
    if stop > LOWERING.len() {
        let mut reserved = 0;
        let facts = &prepared.facts;
        runner.step(ASSIGN_PAYLOAD, &mut prepared.prog, |p| {
            reserved = assign_payload_files(p, facts);
            true
        })?;
        prepared.reserved = Some(reserved);
    }
    if stop > LOWERING.len() + 1 {
        opt::optimize_with(&mut runner, &mut prepared.prog, opt::Level::Full)?;
    }
    Ok(prepared)
}

/// One compiled width: its code, kernel description, translation facts and relocations,
/// with what choosing between widths needs to know of it.
pub struct Compiled {
    /// Compacted code.
    pub bytes: Vec<u8>,
    /// The variant's description (offset and size filled in by the caller).
    pub kernel: SimdKernel,
    /// What translation found.
    pub facts: from_nir::ShaderFacts,
    /// Relocations, at offsets within `bytes`.
    pub relocs: Vec<Reloc>,
    /// The register allocator spilled (Mesa's `spilled_any_registers`; NIR scratch does
    /// not count).
    pub spilled: bool,
    /// Estimated channels per cycle (Mesa's `performance::throughput`).
    pub throughput: f64,
}

impl Compiled {
    /// How much longer the busiest unit is busy than the thread runs, by the cycle model: 1
    /// when the thread's own cycles limit the throughput (`Estimate::throughput` takes the
    /// larger of the two).
    pub fn unit_bound(&self) -> f64 {
        let elapsed = f64::from(self.kernel.stats.cycles.max(1));
        (f64::from(self.kernel.simd) / self.throughput / elapsed).max(1.0)
    }
}

/// The short name of a scheduling mode in step names and dumps (Mesa's names).
fn mode_step(mode: sched::Mode) -> &'static str {
    match mode {
        sched::Mode::Pre => "schedule_pre_ra (top-down)",
        sched::Mode::PreNonLifo => "schedule_pre_ra (non-lifo)",
        sched::Mode::KeepOrder => "schedule_pre_ra (none)",
        sched::Mode::PreLifo => "schedule_pre_ra (lifo)",
        sched::Mode::Post => "schedule_post_ra",
    }
}

/// What [`compile_width`] made of one width.
pub enum Outcome {
    /// The program.
    Compiled(Box<Compiled>),
    /// It does not fit in the register file (without spilling, where it may not spill).
    DoesNotFit,
    /// Its estimated throughput (given) is not above the floor it was asked to beat; it was
    /// not encoded.
    Slower(f64),
}

/// Compiles `shader` (already out of SSA) at `width`. A program whose estimated
/// throughput is not above `floor` is dropped before encoding (Mesa's SIMD32 choice: the
/// estimate needs only the generated instructions).
pub fn compile_width(
    device: &Device,
    shader: &nir::Shader,
    width: u8,
    flow: &crate::intel::flow::FlowTemplates,
    opts: &Options,
    floor: Option<f64>,
) -> Result<Outcome, CompileError> {
    let dev = device.devinfo;
    let mut runner = Runner::new(
        format!("SIMD{width}"),
        opts.debug,
        Flags::FS,
        opts.validate,
        validate::validate,
    );
    let (mut prog, facts) = runner.time_step(TRANSLATE, || {
        from_nir::from_nir(dev, shader, width, opts.binding, opts.input_slots_valid)
    })?;
    runner.show(TRANSLATE, &prog);
    runner.check(TRANSLATE, &prog)?;
    super::check_payload(dev, &facts)?;
    if dev.ver < 70 {
        super::gen6::check_program(&prog)?;
    }
    runner.run_all(LOWERING, dev, &mut prog)?;
    let mut reserved = 0;
    runner.step(ASSIGN_PAYLOAD, &mut prog, |p| {
        reserved = assign_payload_files(p, &facts);
        true
    })?;
    // Coalescing values into message payloads lengthens the payloads' live ranges; when
    // that keeps a width from fitting, the program is optimized again without it. Only
    // then does SIMD8 spill to scratch; wider programs are dropped instead.
    let levels: &[opt::Level] = if opts.optimize {
        &[opt::Level::Full, opt::Level::NoPayloadCoalescing]
    } else {
        &[opt::Level::None]
    };
    let ra_debug = opts.debug.contains(Flags::RA);
    let lowered = prog;
    let mut fitted = None;
    // A fit only in the original order or the last-ready pressure order, kept while the next
    // level tries the two schedules that look at the critical path.
    let mut weak_fit = None;
    'levels: for (i, &level) in levels.iter().enumerate() {
        let mut p = lowered.clone();
        opt::optimize_with(&mut runner, &mut p, level)?;
        if dev.ver < 70 {
            runner.step("lower_math_gen6", &mut p, |p| {
                lower::lower_math_gen6(dev, p)
            })?;
        }
        // Mesa's order: each pre-allocation schedule in turn, keeping the first that
        // allocates without spilling; if none does, spill from the least pressure. Unlike
        // Mesa, a fit only in the original order or the last-ready order does not end the
        // search: the next level's top-down and longest-path schedules come first when one of
        // them fits. Whether the top-down schedule fits at all can turn on a register or two;
        // on the corpus the original order costs a dozen loop-heavy vertex shaders a third
        // more cycles than the next level's top-down schedule, for a few MOVs.
        // Gen6 spills are not built (its scratch messages are OWord blocks from MRFs).
        let may_spill = width == 8 && i + 1 == levels.len() && dev.ver >= 70;
        // One allocation attempt of a schedule, timed and, under GPUCC_DEBUG=ra, described.
        let allocate = |runner: &mut Runner<Program>,
                        q: &mut Program,
                        live: Option<&Liveness>,
                        mode,
                        spill| {
            let outcome = runner.time_step("register_allocation", || {
                regalloc::allocate_spilling_with(dev, &device.regs, q, reserved, spill, live)
            })?;
            if ra_debug {
                report_allocation(width, level, mode, q, reserved, outcome.as_ref());
            }
            Ok::<_, CompileError>(outcome)
        };
        let mut least: Option<(u32, Program, Liveness, sched::Mode)> = None;
        // Whether any schedule's pressure came within the register file at this level.
        let mut within_file = false;
        // Every mode starts from `p`: its liveness is computed once, for the modes that
        // schedule by pressure and for any schedule that leaves the order as it was.
        let mut p_live: Option<Liveness> = None;
        let mut q = Program::default();
        for mode in sched::PRE_RA_MODES {
            let weak = matches!(mode, sched::Mode::KeepOrder | sched::Mode::PreLifo);
            if weak && weak_fit.is_some() {
                break;
            }
            q.clone_from(&p);
            if sched::needs_liveness(mode) && p_live.is_none() {
                p_live = Some(liveness::compute(&p));
            }
            let given = p_live.as_ref().filter(|_| sched::needs_liveness(mode));
            let moved = runner.step(mode_step(mode), &mut q, |q| {
                sched::schedule_with(dev, q, mode, given)
            })?;
            let q_live = match (&p_live, moved) {
                (Some(l), false) => l.clone(),
                _ => liveness::compute(&q),
            };
            // More GRFs live at once than there are (g0 and g1 always taken): no need to
            // try the allocator.
            let pressure = sched::pressure_of(&q_live, q.insts.len());
            if pressure + 2 <= dev.grf_count {
                within_file = true;
                if let Some((alloc, spilled)) =
                    allocate(&mut runner, &mut q, Some(&q_live), mode, false)?
                {
                    if weak && i + 1 < levels.len() {
                        weak_fit = Some((std::mem::take(&mut q), alloc, spilled));
                        continue 'levels;
                    }
                    fitted = Some((std::mem::take(&mut q), alloc, spilled));
                    break 'levels;
                }
            } else if ra_debug {
                eprintln!(
                    "=== SIMD{width} register allocation ({level:?}, {}): {pressure} GRFs live \
                     at once, more than {} can hold; not tried",
                    mode_step(mode),
                    dev.grf_count - 2
                );
            }
            if may_spill && !least.as_ref().is_some_and(|(best, ..)| *best <= pressure) {
                least = Some((pressure, std::mem::take(&mut q), q_live, mode));
            }
        }
        // Optimizing without payload coalescing shortens a few payload live ranges; it does
        // not bring a program back within the register file when no schedule of the fuller
        // optimization came near it (on the corpus, pressures differ by a few GRFs between the
        // levels). A width that may not spill is then given up without the second level.
        if !within_file && width > 8 || weak_fit.is_some() {
            break;
        }
        if let Some((_, mut q, q_live, mode)) = least {
            if let Some((alloc, spilled)) =
                allocate(&mut runner, &mut q, Some(&q_live), mode, true)?
            {
                fitted = Some((q, alloc, spilled));
                break;
            }
        }
    }
    let Some((mut prog, alloc, mut spilled)) = fitted.or(weak_fit) else {
        runner.report();
        return Ok(Outcome::DoesNotFit);
    };
    place_spills_after_nir_scratch(dev.ver, &mut prog, &mut spilled, facts.scratch_bytes)?;
    runner.step("split_to_hardware_width", &mut prog, |p| {
        lower::split_to_hardware_width(dev, p)
    })?;
    // The value check pairs the final code with the program as it is before assignment.
    let virt = prog.clone();
    runner.step("assign_registers", &mut prog, |p| {
        regalloc::assign(p, &alloc);
        true
    })?;
    let mut order = None;
    runner.step(mode_step(sched::Mode::Post), &mut prog, |p| {
        order = sched::schedule_tracked(dev, p, sched::Mode::Post, None);
        order.is_some()
    })?;
    let grfs = device.regs.set.num_units() as u32;
    super::alloc_check::check(&virt, &prog, order.as_deref(), reserved, grfs)
        .map_err(|e| CompileError::Internal(format!("register allocation lost a value: {e}")))?;
    let codegen::Generated { insts, start } =
        runner.time_step("codegen", || codegen::generate(dev, flow, &prog))?;
    let errors = eu::validate(dev, &insts);
    if let Some(e) = errors.first() {
        return Err(CompileError::Internal(format!(
            "EU validation failed ({} errors), first: {e:?}",
            errors.len()
        )));
    }
    let (mut s, estimate) = stats::collect_estimated(dev, &insts, width as u32);
    if floor.is_some_and(|f| f >= estimate.throughput) {
        runner.report();
        return Ok(Outcome::Slower(estimate.throughput));
    }
    // Compaction encodes every instruction natively first (a native form that fails to encode
    // fails here too), so the uncompacted size needs no second encoding: 16 bytes each.
    let compacted = runner.time_step("encode", || eu::encode_program_compacted(dev, &insts));
    let compacted = compacted.map_err(|e| CompileError::Internal(format!("encoding: {e}")))?;
    runner.report();
    let mut bytes = Vec::with_capacity(compacted.len() * 16);
    for e in &compacted {
        bytes.extend_from_slice(e.bytes());
    }
    let relocs = reloc_offsets(&codegen::reloc_sites(&prog, &start), &compacted)?;
    s.simd = width as u32;
    let regalloc_spilled = spilled.spills > 0 || spilled.fills > 0;
    // As Mesa counts them: NIR scratch writes and reads are spills and fills too.
    s.spills = spilled.spills + facts.scratch_writes;
    s.fills = spilled.fills + facts.scratch_reads;
    s.bytes_uncompacted = (insts.len() * 16) as u32;
    s.bytes = bytes.len() as u32;
    Ok(Outcome::Compiled(Box::new(Compiled {
        bytes,
        kernel: SimdKernel {
            simd: width as u32,
            offset: 0,
            size: 0,
            dispatch_grf_start: facts.payload.num_regs,
            grfs_used: alloc.grfs_used,
            stats: s,
            scratch_size: spilled.scratch_bytes,
        },
        facts,
        relocs,
        spilled: regalloc_spilled,
        throughput: estimate.throughput,
    })))
}

/// `GPUCC_DEBUG=ra`: one allocation attempt — the register classes in use (VGRFs per size),
/// the interference graph, and what it cost in GRFs or spills.
fn report_allocation(
    width: u8,
    level: opt::Level,
    mode: sched::Mode,
    prog: &Program,
    reserved: u32,
    outcome: Option<&(regalloc::Allocation, regalloc::SpillStats)>,
) {
    let mut classes = std::collections::BTreeMap::new();
    for &size in &prog.vgrf_sizes {
        *classes.entry(size).or_insert(0u32) += 1;
    }
    let classes: Vec<String> = classes
        .iter()
        .map(|(size, n)| format!("{n}x{size}"))
        .collect();
    let head = format!(
        "=== SIMD{width} register allocation ({level:?}, {}): {} VGRFs by size [{}], {reserved} \
         payload GRFs",
        mode_step(mode),
        prog.vgrf_sizes.len(),
        classes.join(" ")
    );
    match outcome {
        Some((alloc, spilled)) => eprintln!(
            "{head}; interference graph {} nodes, {} edges; {} GRFs used; {}:{} spills:fills, \
             {} scratch bytes",
            alloc.graph_nodes,
            alloc.graph_edges,
            alloc.grfs_used,
            spilled.spills,
            spilled.fills,
            spilled.scratch_bytes
        ),
        None => eprintln!("{head}; does not fit"),
    }
}
