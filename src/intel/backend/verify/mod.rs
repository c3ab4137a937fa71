//! Checking compiled fragment and compute shaders against the reference interpreter on the
//! EU simulator.
//!
//! A compute shader runs one workgroup per input set (workgroup ids differ per set), as
//! consecutive threads of `simd` invocations in local-index order, over SSBOs both sides get
//! with the same per-set contents ([`SSBO_BYTES`] each); the SSBOs must end up byte-identical.
//! The simulator runs one thread at a time, so a workgroup barrier is only checked when the
//! whole workgroup fits in one thread.
//!
//! Each input set runs one thread of `simd` pixels: subspan k covers pixels (2k, 0)–(2k+1, 1),
//! the interpreter's invocation layout. Both sides see the same world:
//!
//! - interpolated inputs: the interpreter's generated value `0.5 + s/4 + c/16 + x/8 + y/32` is
//!   linear in the pixel position, so the simulator gets barycentrics (i, j) = (x, y) and plane
//!   coefficients (1/8, 1/32, 0.5 + s/4 + c/16) — exact in binary, so PLN reproduces it exactly;
//!   on Gen4-5, where the shader interpolates itself from pixel deltas to an origin and
//!   divides by an interpolated w, the origin is (0, 0) and the input slot named
//!   `VARYING_SLOT_POS` gives z = 0.5 and w = 1;
//! - flat inputs: one value per slot component for every pixel, given to both;
//! - push constants: the UBO dwords the kernel's push layout names, from per-set patterns;
//! - constant data (read through the `CONST_DATA_ADDR` relocations): a synthetic pattern of
//!   the NIR's declared size ([`constant_data`]) at [`CONSTANT_DATA_ADDRESS`], the relocations
//!   patched to point there;
//! - textures: both use the default sampler model; `load_frag_coord` is the integer pixel
//!   position with z = 0.5, w = 1 (Intel's NIR adds the half-pixel offset itself).
//!
//! The sets differ in their uniform data and dispatch masks (set 1 disables every other subspan);
//! control flow diverges wherever the shader branches on inputs. Outputs compare bit-exact,
//! except when the shader uses hardware math (rcp, rsq, sqrt, exp2, log2, sin, cos, pow) or a
//! fused multiply-add/lerp, where results may differ by [`MATH_ULPS`] units in the last place
//! (or 1e-6 absolute near zero), the tolerance Mesa's CTS runs accept for these.

use std::collections::BTreeMap;

use crate::intel::backend::binding::BindingModel;
use crate::intel::backend::context::Context;
use crate::intel::backend::options::Options;
use crate::intel::kernel::Kernel;
use crate::intel::sim::payload::FsPayload;
use crate::intel::sim::Thread;
use crate::nir::{self, interp, Intrinsic};

use crate::error::CompileError;
use crate::verify::MathProbes;
use crate::verify::VerifyOutcome;

mod gs;
mod tcs;
mod tess;
mod vertex;
mod world;

use world::{
    close, compute_resources, constant_data_mapping, may_read_undefined, relocated_variant,
    sim_error, ssbo_init, too_large_to_check, ubo_dword, uniform_buffers, UNDEFINED_PROBE,
};
pub use world::{
    constant_data, CONSTANT_DATA_ADDRESS, CONSTANT_DATA_TAIL, INPUT_SETS, MATH_ULPS,
    MAX_CHECKED_DATA_BYTES, PULL_UBO_BYTES, SSBO_BYTES,
};

/// One workgroup of a compute shader on both sides; compares every SSBO dword. The
/// simulator's threads start from the CURBE the program's push layout describes (built by
/// `Kernel::cs_curbe_at`, as a driver builds it: gpucc's local-id layout or Mesa's
/// cross-thread/per-thread split with the subgroup id), over the same uniform buffers the
/// interpreter reads; pulled blocks are bound where the binding model puts them.
fn run_compute_set(
    ctx: &Context,
    shader: &nir::Shader,
    kernel: &Kernel,
    simd: u32,
    set: usize,
    interp_steps: u64,
) -> Result<Option<VerifyOutcome>, VerifyOutcome> {
    use crate::intel::fs::from_nir::SLM_SURFACE;
    use crate::intel::sim::payload::CsCurbePayload;
    let variant = kernel.variant(simd).expect("checked by the caller");
    let info = kernel.compute.as_ref().expect("checked by the caller");
    let size = info.local_size;
    let n = (size[0] * size[1] * size[2]) as usize;
    let (nssbo, barrier) = compute_resources(shader)?;
    if barrier && n > simd as usize {
        return Err(VerifyOutcome::Unsupported(format!(
            "a barrier across a workgroup of {n} invocations in SIMD{simd} threads (the \
             simulator runs one thread at a time)"
        )));
    }
    // The NIR's block numbers are the slots in Mesa's binding model: a pulled UBO and an
    // SSBO of the same number would be one surface, which the interpreter cannot model.
    if let Some(&b) = kernel.pull_constant_blocks.iter().find(|&&b| {
        let slot = kernel.ubo_surface_base + b;
        slot >= kernel.ssbo_surface_base && ((slot - kernel.ssbo_surface_base) as usize) < nssbo
    }) {
        return Err(VerifyOutcome::Unsupported(format!(
            "pulled UBO {b} and an SSBO share binding-table slot {}",
            kernel.ubo_surface_base + b
        )));
    }
    let group = [[0, 0, 0], [1, 2, 0], [3, 0, 1]][set % 3];
    let ubos = uniform_buffers(kernel, set);
    let start: Vec<Vec<u8>> = (0..nssbo).map(|b| ssbo_init(set, b)).collect();
    let shared_bytes = (info.shared_size as usize).max(4);
    let env = interp::Environment {
        ssbos: start.clone(),
        shared: vec![0; shared_bytes],
        ubos: ubos.clone(),
        constant_data: constant_data(set, kernel.constant_data_size),
        constant_data_address: CONSTANT_DATA_ADDRESS,
        workgroup_id: group,
        workgroup_size: size,
        simd_width: simd,
        robust_access: true,
        step_limit: interp_steps,
        ..Default::default()
    };
    let code = relocated_variant(kernel, variant)?;
    let expected = interp::run(shader, &env, n)
        .map_err(|e| VerifyOutcome::Unsupported(format!("interpreter: {e}")))?;
    let push = kernel.cs_push_at(simd).expect("checked by the caller");
    // The payload the hardware loads is g0 and the CURBE data; the uniforms start after
    // the local ids (gpucc's layout) or at g1 (Mesa's).
    if variant.dispatch_grf_start != 1 + push.local_id_regs {
        return Err(VerifyOutcome::Fail {
            invocation: 0,
            output: "(payload)".into(),
            expected: format!("dispatch GRF start {}", 1 + push.local_id_regs),
            got: format!("{}", variant.dispatch_grf_start),
        });
    }
    let curbe = kernel
        .cs_curbe_at(simd, |_, block, offset| {
            let bytes = ubos.get(block as usize).map_or(&[][..], |b| &b[..]);
            let at = offset as usize;
            Ok(bytes
                .get(at..at + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        })
        .map_err(|e| VerifyOutcome::Error(format!("CURBE: {e}")))?;
    let cross = push.cross_thread.size as usize;
    let per = push.per_thread.size as usize;
    let mut ssbos = start;
    let mut slm = vec![0u8; shared_bytes];
    for (thread, first) in (0..n).step_by(simd as usize).enumerate() {
        let mut data = curbe[..cross].to_vec();
        let own = cross + thread * per;
        data.extend_from_slice(&curbe[own..own + per]);
        let mut t = Thread::new(ctx.devinfo(), simd)
            .map_err(|e| VerifyOutcome::Unsupported(format!("simulator: {e}")))?;
        CsCurbePayload {
            workgroup_id: group,
            data,
            channels: (n - first).min(simd as usize) as u32,
        }
        .apply(&mut t)
        .map_err(sim_error)?;
        for &b in &kernel.pull_constant_blocks {
            t.shared_mut()
                .bind_constants(kernel.ubo_surface_base + b, ubos[b as usize].clone());
        }
        for (b, bytes) in ssbos.iter().enumerate() {
            t.shared_mut()
                .bind_buffer(kernel.ssbo_surface_base + b as u32, bytes.clone());
        }
        t.shared_mut().bind_buffer(SLM_SURFACE, slm.clone());
        t.shared_mut().map_global(
            CONSTANT_DATA_ADDRESS,
            constant_data_mapping(&env.constant_data),
        );
        t.set_step_limit(2_000_000);
        t.run_binary(&code).map_err(sim_error)?;
        for (b, bytes) in ssbos.iter_mut().enumerate() {
            if let Some(now) = t
                .shared()
                .buffers
                .get(&(kernel.ssbo_surface_base + b as u32))
            {
                bytes.clone_from(now);
            }
        }
        if let Some(now) = t.shared().buffers.get(&SLM_SURFACE) {
            slm.clone_from(now);
        }
    }
    for (b, (want, got)) in expected.ssbos.iter().zip(&ssbos).enumerate() {
        let dword = |v: &[u8], d: usize| {
            v.get(4 * d..4 * d + 4)
                .map_or(0, |x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        };
        if let Some(d) =
            (0..want.len().max(got.len()).div_ceil(4)).find(|&d| dword(want, d) != dword(got, d))
        {
            return Ok(Some(VerifyOutcome::Fail {
                invocation: 0,
                output: format!("SSBO {b} dword {d} (set {set}, workgroup {group:?})"),
                expected: format!("{:#010x}", dword(want, d)),
                got: format!("{:#010x}", dword(got, d)),
            }));
        }
    }
    Ok(None)
}

/// The interpreter's step budget for a set's first run: well above what the corpus's loops
/// take with small-integer uniforms, far below a loop counted by a float's bits.
const SHORT_STEP_BUDGET: u64 = 100_000;

/// The budget for the small-integer retry of a set whose short run ran out: the interpreter's
/// default.
const FULL_STEP_BUDGET: u64 = 1_000_000;

/// What one width's check learnt about the input sets that the next width can use: which
/// sets ran into the step limit (a loop bounded by a uniform integer that holds a float's
/// bits) and so go straight to their small-integer retry. Without it every width of such a
/// shader spent the interpreter's whole step limit on every set again (seconds of CPU on one
/// real glamor shader, fuzz-repro/unseen F1).
#[derive(Clone, Debug, Default)]
pub struct SetMemo {
    small_integers: [bool; INPUT_SETS],
}

impl SetMemo {
    /// How many input sets have gone over to their small-integer retry.
    pub fn small_integer_sets(&self) -> usize {
        self.small_integers.iter().filter(|&&b| b).count()
    }
}

/// Compiles `shader` at `simd` and compares the simulator with the interpreter. Verification
/// is a test: the IR is validated after every pass, in release builds too.
pub fn verify(ctx: &Context, shader: &nir::Shader, simd: u32) -> VerifyOutcome {
    verify_with(ctx, shader, simd, &mut SetMemo::default())
}

/// [`verify`], sharing what earlier widths learnt about the input sets through `memo`.
pub fn verify_with(
    ctx: &Context,
    shader: &nir::Shader,
    simd: u32,
    memo: &mut SetMemo,
) -> VerifyOutcome {
    verify_bound(ctx, shader, simd, BindingModel::Gpucc, memo)
}

/// [`verify_with`] of the program compiled for `binding`: the simulator binds its buffers
/// where that model puts them, and pushes what its ranges push.
pub fn verify_bound(
    ctx: &Context,
    shader: &nir::Shader,
    simd: u32,
    binding: BindingModel,
    memo: &mut SetMemo,
) -> VerifyOutcome {
    let layout = Layout {
        binding,
        ..Layout::default()
    };
    verify_laid_out(ctx, shader, simd, layout, memo)
}

/// Where a program's bindings and inputs go: the binding model, the previous stage's
/// varyings that lay out more than 16 fragment inputs (the key's `input_slots_valid`), and a
/// tessellation-control shader's input patch size (the key's `tcs_input_vertices`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    pub binding: BindingModel,
    pub input_slots_valid: Option<u64>,
    pub tcs_input_vertices: Option<u32>,
}

/// [`verify_bound`] with the fragment inputs laid out by `layout.input_slots_valid` too.
pub fn verify_laid_out(
    ctx: &Context,
    shader: &nir::Shader,
    simd: u32,
    layout: Layout,
    memo: &mut SetMemo,
) -> VerifyOutcome {
    let mut options = Options::widths(&[simd]).validating();
    options.binding = layout.binding;
    options.input_slots_valid = layout.input_slots_valid;
    options.tcs_input_vertices = layout.tcs_input_vertices;
    let kernel = match ctx.compile(shader, &options) {
        Ok(k) => k,
        Err(CompileError::Unsupported(f)) => return VerifyOutcome::Unsupported(f),
        Err(e) => return VerifyOutcome::Error(e.to_string()),
    };
    // A SIMD4x2 kernel has one dispatch mode whatever width was asked for: it is checked
    // once, with the first width (SIMD8, the width of its thread).
    if kernel.is_simd4x2() && simd != 8 {
        return VerifyOutcome::Unsupported(format!(
            "SIMD{simd}: the kernel is SIMD4x2, checked with SIMD8"
        ));
    }
    verify_kernel_with(ctx, shader, &kernel, simd, memo)
}

/// Runs an already compiled `kernel` (its SIMD`simd` variant; a SIMD4x2 kernel's only
/// variant whatever `simd` says) against the interpreter.
pub fn verify_kernel(
    ctx: &Context,
    shader: &nir::Shader,
    kernel: &Kernel,
    simd: u32,
) -> VerifyOutcome {
    verify_kernel_with(ctx, shader, kernel, simd, &mut SetMemo::default())
}

/// [`verify_kernel`] with the input-set facts of earlier widths.
pub fn verify_kernel_with(
    ctx: &Context,
    shader: &nir::Shader,
    kernel: &Kernel,
    simd: u32,
    memo: &mut SetMemo,
) -> VerifyOutcome {
    let simd = if kernel.is_simd4x2() {
        crate::intel::kernel::SIMD4X2
    } else {
        simd
    };
    if kernel.variant(simd).is_none() {
        return VerifyOutcome::Unsupported(format!("SIMD{simd} does not fit without spilling"));
    }
    if let Some(why) = too_large_to_check(kernel) {
        return VerifyOutcome::Unsupported(why);
    }
    let inexact = crate::verify::uses_inexact_math(shader);
    let run_with = |set: usize, steps: u64| {
        if kernel.compute.is_some() {
            run_compute_set(ctx, shader, kernel, simd, set, steps)
        } else if kernel.tess_ctrl.is_some() {
            tcs::run_tcs_set(ctx, shader, kernel, set, inexact, steps)
        } else if kernel.geometry.is_some() {
            gs::run_geometry_set(ctx, shader, kernel, set, inexact, steps)
        } else if kernel.vertex.is_some() {
            vertex::run_vertex_set(ctx, shader, kernel, set, inexact, steps)
        } else if kernel.tess_eval.is_some() {
            tess::run_tes_set(ctx, shader, kernel, set, inexact, steps)
        } else {
            run_set(ctx, shader, kernel, simd, set, inexact, steps)
        }
    };
    let hit_limit = |run: &Result<Option<VerifyOutcome>, VerifyOutcome>| matches!(run, Err(VerifyOutcome::Unsupported(w)) if w.contains("step limit"));
    // A set first runs with a short step budget; a loop that outruns it is usually bounded
    // by a uniform integer that holds a float's bits, so the set's small-integer twin runs
    // next, and only that one gets the interpreter's whole budget if it needs it. The cost of
    // a runaway loop is then the short budget, not the whole one (seconds of CPU on dolphin's
    // vertex ubershaders).
    let run_one = |set: usize| {
        let run = run_with(set, SHORT_STEP_BUDGET);
        if set >= INPUT_SETS && hit_limit(&run) {
            return run_with(set, FULL_STEP_BUDGET);
        }
        run
    };
    for set in 0..INPUT_SETS {
        // A loop bounded by a uniform integer runs for as many iterations as a float's bits
        // say: the set is run again with small integers in its uniform buffers.
        let mut run = if memo.small_integers[set] {
            run_one(set + INPUT_SETS)
        } else {
            run_one(set)
        };
        // Likewise a TES or TCS input or output indexed by a uniform integer holding a
        // float's bits reads far past the patch entry, or (added to a negative offset,
        // `index - 16`) at no slot.
        let tess = kernel.tess_eval.is_some() || kernel.tess_ctrl.is_some();
        let reads_far =
            |w: &str| tess && (w.contains("is not provided") || w.contains("is out of range"));
        if !memo.small_integers[set]
            && matches!(&run, Err(VerifyOutcome::Unsupported(w)) if w.contains("step limit") || reads_far(w))
        {
            memo.small_integers[set] = true;
            run = run_one(set + INPUT_SETS);
        }
        match run {
            Ok(None) => {}
            Ok(Some(fail)) => return fail,
            Err(e) => return e,
        }
    }
    VerifyOutcome::Pass
}

fn run_set(
    ctx: &Context,
    shader: &nir::Shader,
    kernel: &Kernel,
    simd: u32,
    set: usize,
    inexact: bool,
    interp_steps: u64,
) -> Result<Option<VerifyOutcome>, VerifyOutcome> {
    let n = simd as usize;
    let dev = ctx.devinfo();
    let variant = kernel.variant(simd).expect("checked by the caller");
    let ubos = uniform_buffers(kernel, set);
    let flat_value = |base: u32, c: u32| interp::env::generated_input(0, base, c, false);
    let frag_coord = (0..n)
        .map(|i| {
            let (x, y) = interp::env::pixel(i);
            [x as f32, y as f32, 0.5, 1.0]
        })
        .collect();
    // SSBOs (GL 4.3 fragment shaders may read and write them) start alike on both sides.
    let (nssbo, _) = compute_resources(shader)?;
    let ssbos: Vec<Vec<u8>> = (0..nssbo).map(|b| ssbo_init(set, b)).collect();
    let mut env = interp::Environment {
        ubos: ubos.clone(),
        ssbos: ssbos.clone(),
        constant_data: constant_data(set, kernel.constant_data_size),
        constant_data_address: CONSTANT_DATA_ADDRESS,
        robust_access: true,
        frag_coord: Some(frag_coord),
        step_limit: interp_steps,
        simd_width: simd,
        ..Default::default()
    };
    let mask: u32 = match set % INPUT_SETS {
        // Whole subspans off, as the hardware dispatches them (a partly covered subspan
        // still runs its helper pixels).
        1 => 0x0f0f_0f0f & ((1u64 << n) - 1) as u32,
        _ => ((1u64 << n) - 1) as u32,
    };
    // The pixels left out do not run: subgroup operations see the others only.
    env.dispatched = (0..n).map(|c| mask & (1 << c) != 0).collect();
    let flat: Vec<&crate::intel::kernel::InputSlot> =
        kernel.inputs.iter().filter(|i| i.flat).collect();
    if !flat.is_empty() {
        let mut m = BTreeMap::new();
        for inp in &flat {
            m.insert(inp.base, [0, 1, 2, 3].map(|c| flat_value(inp.base, c)));
        }
        env.inputs = vec![m; n];
    }
    let expected = interp::run(shader, &env, n)
        .map_err(|e| VerifyOutcome::Unsupported(format!("interpreter: {e}")))?;
    // What depends on undefined values comes out differently with other bits in them.
    let probe = if may_read_undefined(shader) {
        env.undefined_bits = UNDEFINED_PROBE;
        Some(
            interp::run(shader, &env, n)
                .map_err(|e| VerifyOutcome::Unsupported(format!("interpreter: {e}")))?,
        )
    } else {
        None
    };
    let defined = |c: usize, slot: u32, comp: usize, bits: u64| match &probe {
        None => true,
        Some(p) => {
            p.invocations
                .get(c)
                .and_then(|inv| inv.outputs.get(&slot))
                .and_then(|o| o.comps[comp])
                == Some(bits)
        }
    };

    let mut t = Thread::new(dev, simd)
        .map_err(|e| VerifyOutcome::Unsupported(format!("simulator: {e}")))?;
    let payload = FsPayload {
        subspans: (0..n / 4).map(|q| (2 * q as u16, 0)).collect(),
        pixel_mask: mask,
        // Every barycentric mode is written below: one sample per pixel puts the pixel,
        // centroid and sample positions all at the pixel's centre.
        barycentric: Vec::new(),
        push_constants: Vec::new(),
        attributes: Vec::new(),
    };
    payload.apply(&mut t).map_err(sim_error)?;
    t.shared_mut().coordinate_counts = world::texture_coordinate_counts(shader);
    for &b in &kernel.pull_constant_blocks {
        t.shared_mut()
            .bind_constants(kernel.ubo_surface_base + b, ubos[b as usize].clone());
    }
    let gen4 = dev.ver < 60;
    // Gen4-5 (Mesa's setup_fs_payload_gfx4): g1 dwords 0 and 1 hold the x and y of the
    // attributes' origin (the shader interpolates from pixel - origin: 0 here, so the
    // deltas are the pixel positions), then two registers of source depth when the shader reads
    // gl_FragCoord; no barycentrics.
    if gen4 {
        t.set_grf_f32(1, 0, &[0.0, 0.0]).map_err(sim_error)?;
        // g0 dword 0 bits 15:0: the dispatch mask (Mesa's discard starts from it, and the
        // render-target write takes its pixel mask from there).
        t.set_grf(0, 0, &[mask & 0xffff]).map_err(sim_error)?;
    }
    // The payload comes in runs of 16 channels (Mesa's setup_fs_payload_gfx6): after g0
    // and one pixel-info register per run, each run's barycentric sets, source depth and W.
    let runs = if gen4 { 0 } else { simd.div_ceil(16) };
    let run_width = simd.min(16);
    let mut next = 1 + simd.div_ceil(16);
    if gen4 && kernel.flags.uses_src_depth_w {
        for r in 0..2 {
            t.set_grf_f32(next + r, 0, &[0.5; 8]).map_err(sim_error)?;
        }
        next += 2;
    }
    for run in 0..runs {
        for _ in 0..kernel.flags.barycentric_modes.count_ones() {
            for k in 0..run_width as usize {
                let (x, y) = interp::env::pixel(16 * run as usize + k);
                let reg = next + 2 * (k / 8) as u32;
                t.set_grf_f32(reg, (k % 8) as u32, &[x as f32])
                    .map_err(sim_error)?;
                t.set_grf_f32(reg + 1, (k % 8) as u32, &[y as f32])
                    .map_err(sim_error)?;
            }
            next += 2 * run_width / 8;
        }
        if kernel.flags.uses_src_depth_w {
            for r in 0..run_width / 8 {
                t.set_grf_f32(next + r, 0, &[0.5; 8]).map_err(sim_error)?;
                t.set_grf_f32(next + run_width / 8 + r, 0, &[1.0; 8])
                    .map_err(sim_error)?;
            }
            next += 2 * run_width / 8;
        }
    }
    if next != variant.dispatch_grf_start {
        return Err(VerifyOutcome::Fail {
            invocation: 0,
            output: "(payload)".into(),
            expected: format!("dispatch GRF start {next}"),
            got: format!("{}", variant.dispatch_grf_start),
        });
    }
    let push: Vec<u32> = kernel
        .push_constants
        .iter()
        .map(|&(b, o)| ubo_dword(set, b, o / 4))
        .collect();
    t.set_grf(next, 0, &push).map_err(sim_error)?;
    let attr_start = next + (push.len() as u32).div_ceil(8);
    for (slot, inp) in kernel.inputs.iter().enumerate() {
        for c in 0..4u32 {
            let reg = attr_start + 2 * slot as u32 + c / 2;
            let d = 4 * (c % 2);
            let base = f32::from_bits(flat_value(inp.base, c));
            if gen4 && inp.location == "VARYING_SLOT_POS" {
                // Gen4-5 interpolate z and w from the position: constant 0.5 and 1, so
                // that 1/w, which perspective inputs are multiplied by, is 1.
                let v = [0.0, 0.0, 0.5, 1.0][c as usize];
                t.set_grf_f32(reg, d, &[0.0, 0.0]).map_err(sim_error)?;
                t.set_grf_f32(reg, d + 3, &[v]).map_err(sim_error)?;
            } else if inp.flat {
                t.set_grf(reg, d + 3, &[flat_value(inp.base, c)])
                    .map_err(sim_error)?;
            } else {
                t.set_grf_f32(reg, d, &[0.125, 1.0 / 32.0])
                    .map_err(sim_error)?;
                t.set_grf_f32(reg, d + 3, &[base]).map_err(sim_error)?;
            }
        }
    }
    t.shared_mut().map_global(
        CONSTANT_DATA_ADDRESS,
        constant_data_mapping(&env.constant_data),
    );
    for (b, bytes) in ssbos.iter().enumerate() {
        t.shared_mut()
            .bind_buffer(kernel.ssbo_surface_base + b as u32, bytes.clone());
    }
    let mut probes = MathProbes::rerunning(shader, env, n);
    t.set_step_limit(2_000_000);
    let got = t
        .run_binary(&relocated_variant(kernel, variant)?)
        .map_err(sim_error)?;

    let dual_base = dual_source_base(shader);
    for w in &got.rt_writes {
        for c in 0..n {
            if w.pixel_mask & (1 << c) == 0 || mask & (1 << c) == 0 {
                continue;
            }
            let Some(inv) = expected.invocations.get(c) else {
                continue;
            };
            if inv.discarded {
                continue;
            }
            let want = format!("FRAG_RESULT_DATA{}", w.target);
            let Some((&key, slot)) = inv.outputs.iter().find(|(k, o)| {
                Some(**k) != dual_base && (o.name == want || o.name == "FRAG_RESULT_COLOR")
            }) else {
                continue;
            };
            let second = match (&w.color1, dual_base) {
                (Some(c1), Some(b)) => inv.outputs.get(&b).map(|o| (b, o, c1)),
                _ => None,
            };
            let pairs = std::iter::once((key, slot, &w.color)).chain(second);
            for (key, slot, colors) in pairs {
                for comp in 0..4 {
                    let Some(bits) = slot.comps[comp] else {
                        continue;
                    };
                    if !defined(c, key, comp, bits) {
                        continue;
                    }
                    let g = colors.get(c).map(|v| v[comp].to_bits()).unwrap_or(0);
                    if !close(bits as u32, g, inexact)
                        && !probes.ill_conditioned(c, key, comp, bits, |a, b| {
                            close(a as u32, b as u32, inexact)
                        })
                    {
                        return Ok(Some(VerifyOutcome::Fail {
                            invocation: c,
                            output: format!(
                                "{}.{} (set {set})",
                                slot.name,
                                ["x", "y", "z", "w"][comp]
                            ),
                            expected: format!(
                                "{:#010x} ({})",
                                bits as u32,
                                f32::from_bits(bits as u32)
                            ),
                            got: format!("{g:#010x} ({})", f32::from_bits(g)),
                        }));
                    }
                }
            }
        }
    }
    // What the pixels wrote to SSBOs, where every pixel ran (the interpreter runs them all;
    // the hardware drops the writes of pixels the dispatch mask leaves out).
    let all = ((1u64 << n) - 1) as u32;
    for (b, want) in expected.ssbos.iter().enumerate().filter(|_| mask == all) {
        let surface = kernel.ssbo_surface_base + b as u32;
        let Some(now) = t.shared().buffers.get(&surface) else {
            continue;
        };
        if let Some(d) = (0..want.len().min(now.len()) / 4)
            .find(|d| want[4 * d..4 * d + 4] != now[4 * d..4 * d + 4])
        {
            let word =
                |v: &[u8]| u32::from_le_bytes([v[4 * d], v[4 * d + 1], v[4 * d + 2], v[4 * d + 3]]);
            return Ok(Some(VerifyOutcome::Fail {
                invocation: 0,
                output: format!("SSBO {b} dword {d} (set {set})"),
                expected: format!("{:#010x}", word(want)),
                got: format!("{:#010x}", word(now)),
            }));
        }
    }
    if got.rt_writes.is_empty() {
        return Ok(Some(VerifyOutcome::Fail {
            invocation: 0,
            output: "(render target)".into(),
            expected: "a render-target write".into(),
            got: "none".into(),
        }));
    }
    Ok(None)
}

/// The output slot (driver location) of a dual-source blending shader's second colour: the
/// `store_output` whose I/O semantics say `dualsrc`.
fn dual_source_base(shader: &nir::Shader) -> Option<u32> {
    let imp = shader.entry()?;
    imp.instrs.iter().find_map(|ins| match &ins.kind {
        nir::InstrKind::Intrinsic(i)
            if i.intrinsic == Intrinsic::StoreOutput && i.io_dual_source() =>
        {
            Some(i.int_index(nir::IndexKind::Base).unwrap_or(0) as u32)
        }
        _ => None,
    })
}
