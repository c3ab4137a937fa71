//! Checking a compiled vertex shader: the vertices of each input set run on the simulator,
//! their URB entries compared slot by slot with the interpreter's outputs.
//!
//! Two dispatch modes share everything but the thread layout:
//!
//! - **SIMD8** (Gen8+ scalar kernels): one thread per input set, a vertex per channel.
//! - **SIMD4x2** (Gen7 vec4 kernels, [`Kernel::is_simd4x2`]): two vertices per thread,
//!   vertex 0 in channels 0–3 and vertex 1 in 4–7; the vertices of a set run as consecutive
//!   threads, and a set with an odd number of vertices ends with a lone-vertex thread
//!   (channels 4–7 disabled), as the vertex fetcher dispatches the last vertex of a draw.
//!
//! Both sides see the same vertices: every pushed element (attribute or draw-parameter
//! element) gets per-set values — small dyadic floats for attributes, small integers for the
//! draw parameters, which the interpreter also sees through its system-value intrinsics.
//! Set 1 has three vertices only, so disabled channels must write nothing (SIMD8: channels
//! 3–7 of its thread; SIMD4x2: the second half of its lone-vertex thread). The entries are
//! read back through the kernel's VUE map, as the next stage would: every component the
//! interpreter wrote must be in its slot (header: layer in dword 1, viewport index in dword 2,
//! point size in dword 3). Components that depend on undefined values (the interpreter gives
//! different results when undefined values hold different bits) are not compared: the
//! hardware leaves whatever the register held.

use std::collections::BTreeMap;

use crate::intel::backend::context::Context;
use crate::intel::kernel::{Kernel, SimdKernel, VertexInfo, SIMD4X2};
use crate::intel::sim::payload::{Layout, Vec4VsPayload, VsPayload};
use crate::intel::sim::Thread;
use crate::intel::vue;
use crate::nir::{self, interp};
use crate::verify::{MathProbes, VerifyOutcome};

use super::world::{
    close, constant_data, relocated_variant, run_and_probe, sim_error, ubo_dword, uniform_buffers,
    CONSTANT_DATA_ADDRESS,
};

/// `VARYING_SLOT_EDGE`.
const VARYING_SLOT_EDGE: u32 = 15;

/// Vertices per input set (set 1 leaves channels 3–7 of a SIMD8 thread disabled, and ends
/// with a lone vertex in SIMD4x2).
const VERTICES: [usize; 3] = [8, 3, 8];

/// The URB handle of vertex `v`: distinct, non-zero, in 64-byte units as the hardware's are.
fn urb_handle(v: usize) -> u32 {
    0x40 + 0x10 * v as u32
}

/// The draw parameters of vertex `v` in set `set`.
fn draw_parameters(set: usize, v: usize) -> interp::DrawParameters {
    let s = set as u32;
    interp::DrawParameters {
        first_vertex: 3 * s + 1,
        base_instance: 2 * s,
        vertex_id_zero_base: (v as u32 * 5 + s) % 11,
        instance_id: s + v as u32 / 4,
        draw_id: s,
        is_indexed_draw: set % 2 == 1,
    }
}

/// Component `c` of attribute element `e` of vertex `v` in set `set`: a small dyadic float,
/// exact in every format, different per set, vertex, element and component.
fn attribute(set: usize, e: usize, v: usize, c: usize) -> u32 {
    let n = (e * 13 + v * 7 + c * 3 + set * 5) % 29;
    (n as f32 * 0.25 - 3.5).to_bits()
}

/// Every pushed element of every vertex, as the vertex fetcher would push it.
fn elements(info: &VertexInfo, set: usize, n: usize) -> Vec<Vec<[u32; 4]>> {
    (0..info.nr_attribute_slots as usize)
        .map(|e| {
            (0..n)
                .map(|v| {
                    let d = draw_parameters(set, v);
                    if Some(e as u32) == info.draw_params_element() {
                        [
                            d.first_vertex,
                            d.base_instance,
                            d.vertex_id_zero_base,
                            d.instance_id,
                        ]
                    } else if Some(e as u32) == info.draw_id_element() {
                        [d.draw_id, if d.is_indexed_draw { !0 } else { 0 }, 0, 0]
                    } else {
                        [0, 1, 2, 3].map(|c| attribute(set, e, v, c))
                    }
                })
                .collect()
        })
        .collect()
}

pub(super) fn run_vertex_set(
    ctx: &Context,
    shader: &nir::Shader,
    kernel: &Kernel,
    set: usize,
    inexact: bool,
    interp_steps: u64,
) -> Result<Option<VerifyOutcome>, VerifyOutcome> {
    let info = kernel.vertex.as_ref().expect("checked by the caller");
    let width = if kernel.is_simd4x2() { SIMD4X2 } else { 8 };
    let variant = kernel.variant(width).expect("checked by the caller");
    let n = VERTICES[set % VERTICES.len()];
    let elements = elements(info, set, n);
    let ubos = uniform_buffers(kernel, set);
    // SSBOs start alike on both sides; the threads share them in vertex order.
    let (nssbo, _) = super::world::compute_resources(shader)?;
    let ssbos: Vec<Vec<u8>> = (0..nssbo)
        .map(|b| super::world::ssbo_init(set, b))
        .collect();
    let env = interp::Environment {
        ubos: ubos.clone(),
        ssbos: ssbos.clone(),
        constant_data: constant_data(set, kernel.constant_data_size),
        constant_data_address: CONSTANT_DATA_ADDRESS,
        robust_access: true,
        inputs: (0..n)
            .map(|v| {
                elements
                    .iter()
                    .enumerate()
                    .map(|(e, per)| (e as u32, per[v]))
                    .collect()
            })
            .collect(),
        generate_inputs: false,
        draw_parameters: (0..n).map(|v| draw_parameters(set, v)).collect(),
        // A SIMD8 thread's vertices are one subgroup (SIMD4x2 refuses subgroup operations).
        simd_width: if width == 8 { 8 } else { 0 },
        step_limit: interp_steps,
        ..Default::default()
    };
    let mut env = env;
    let (expected, probe) = run_and_probe(shader, &mut env, n)?;

    let push: Vec<u32> = kernel
        .push_constants
        .iter()
        .map(|&(b, o)| ubo_dword(set, b, o / 4))
        .collect();
    let mut probes = MathProbes::rerunning(shader, env, n);
    let constant_data = constant_data(set, kernel.constant_data_size);
    let sim = Simulation {
        ctx,
        kernel,
        variant,
        ubos: &ubos,
        constant_data: &constant_data,
        coordinate_counts: super::world::texture_coordinate_counts(shader),
        ssbos: std::cell::RefCell::new(ssbos),
    };
    let urb = if kernel.is_simd4x2() {
        let mut urb = BTreeMap::new();
        // Vertices 2k and 2k + 1 share thread k.
        for first in (0..n).step_by(2) {
            let count = (n - first).min(2);
            let payload = Vec4VsPayload {
                urb_handles: (first..first + count).map(urb_handle).collect(),
                primitive_ids: None,
                push_constants: push.clone(),
                elements: elements
                    .iter()
                    .map(|per| per[first..first + count].to_vec())
                    .collect(),
            };
            let t = sim.run(|t| payload.apply(t))?;
            for (h, entry) in &t.shared().urb {
                let merged: &mut BTreeMap<u32, u32> = urb.entry(*h).or_default();
                merged.extend(entry);
            }
        }
        urb
    } else {
        let payload = VsPayload {
            urb_handles: (0..n).map(urb_handle).collect(),
            push_constants: push,
            elements,
        };
        sim.run(|t| payload.apply(t))?.shared().urb.clone()
    };
    let urb = &urb;
    if let Some(h) = urb.keys().find(|h| !(0..n).any(|v| urb_handle(v) == **h)) {
        return Ok(Some(VerifyOutcome::Fail {
            invocation: 0,
            output: format!("URB (set {set})"),
            expected: format!("writes to the entries of {n} vertices only"),
            got: format!("a write with handle {h:#x}"),
        }));
    }
    for (b, (want, got)) in expected
        .ssbos
        .iter()
        .zip(sim.ssbos.borrow().iter())
        .enumerate()
    {
        let word = |v: &[u8], d: usize| {
            v.get(4 * d..4 * d + 4)
                .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        };
        if let Some(d) = (0..want.len() / 4).find(|&d| word(want, d) != word(got, d)) {
            return Ok(Some(VerifyOutcome::Fail {
                invocation: 0,
                output: format!("SSBO {b} dword {d} (set {set})"),
                expected: format!("{:#010x}", word(want, d)),
                got: format!("{:#010x}", word(got, d)),
            }));
        }
    }
    check_vues(
        &expected,
        &probe,
        n,
        urb,
        urb_handle,
        &info.vue_map,
        inexact,
        set,
        &mut probes,
    )
}

/// Compares every output component the interpreter wrote for each of the `n` invocations
/// with the URB entry at `handle(v)`, read through `vue_map` as the next stage would (header:
/// layer in dword 1, viewport index in dword 2, point size in dword 3). Shared by the stages
/// that write a VUE (vertex, tessellation evaluation).
#[allow(clippy::too_many_arguments)]
pub(super) fn check_vues(
    expected: &interp::RunResult,
    probe: &interp::RunResult,
    n: usize,
    urb: &BTreeMap<u32, BTreeMap<u32, u32>>,
    handle: impl Fn(usize) -> u32,
    vue_map: &vue::VueMap,
    inexact: bool,
    set: usize,
    probes: &mut MathProbes,
) -> Result<Option<VerifyOutcome>, VerifyOutcome> {
    let empty = BTreeMap::new();
    for (v, inv) in expected.invocations.iter().enumerate().take(n) {
        let entry = urb.get(&handle(v)).unwrap_or(&empty);
        for (varying, out) in &inv.outputs {
            // The edge flag crocus stores on Gen4-5 is in the VUE only when the driver asks
            // to copy it (brw drops the store otherwise): a map without it does not hold it.
            if *varying == VARYING_SLOT_EDGE && vue_map.slots_valid >> VARYING_SLOT_EDGE & 1 == 0 {
                continue;
            }
            // Where the component lands: (slot, dword within the slot) per component.
            let place = |c: usize| -> Option<(u32, usize)> {
                match *varying {
                    vue::VARYING_SLOT_PSIZ if c == 0 => Some((0, 3)),
                    vue::VARYING_SLOT_LAYER if c == 0 => Some((0, 1)),
                    vue::VARYING_SLOT_VIEWPORT if c == 0 => Some((0, 2)),
                    vue::VARYING_SLOT_PSIZ
                    | vue::VARYING_SLOT_LAYER
                    | vue::VARYING_SLOT_VIEWPORT => None,
                    _ => vue_map.slot_of(*varying).map(|s| (s, c)),
                }
            };
            for (c, want) in out.comps.iter().enumerate().take(4) {
                let Some(want) = want else {
                    continue;
                };
                let defined = probe
                    .invocations
                    .get(v)
                    .and_then(|p| p.outputs.get(varying));
                if defined.and_then(|o| o.comps[c]) != Some(*want) {
                    continue;
                }
                let want = *want as u32;
                let Some((slot, d)) = place(c) else {
                    return Ok(Some(VerifyOutcome::Fail {
                        invocation: v,
                        output: format!("{}.{}", out.name, ["x", "y", "z", "w"][c]),
                        expected: "a place in the VUE map".into(),
                        got: "none".into(),
                    }));
                };
                let got = entry.get(&(4 * slot + d as u32)).copied();
                if !got.is_some_and(|g| close(want, g, inexact))
                    && !probes.ill_conditioned(v, *varying, c, u64::from(want), |a, b| {
                        close(a as u32, b as u32, inexact)
                    })
                {
                    return Ok(Some(VerifyOutcome::Fail {
                        invocation: v,
                        output: format!(
                            "{}.{} (VUE slot {slot}, set {set})",
                            out.name,
                            ["x", "y", "z", "w"][c]
                        ),
                        expected: format!("{want:#010x} ({})", f32::from_bits(want)),
                        got: got.map_or("nothing written".into(), |g| {
                            format!("{g:#010x} ({})", f32::from_bits(g))
                        }),
                    }));
                }
            }
        }
    }
    Ok(None)
}

/// What every vertex thread of one input set shares.
pub(super) struct Simulation<'a> {
    pub(super) ctx: &'a Context,
    pub(super) kernel: &'a Kernel,
    pub(super) variant: &'a SimdKernel,
    pub(super) ubos: &'a [Vec<u8>],
    pub(super) constant_data: &'a [u8],
    /// Coordinates per texture (see `world::texture_coordinate_counts`).
    pub(super) coordinate_counts: BTreeMap<u32, usize>,
    /// SSBO contents, carried from one thread to the next.
    pub(super) ssbos: std::cell::RefCell<Vec<Vec<u8>>>,
}

impl Simulation<'_> {
    /// Runs one thread of eight channels whose payload `load` puts in place, after checking
    /// that the payload's push constants start where the kernel expects them.
    pub(super) fn run(
        &self,
        load: impl FnOnce(&mut Thread) -> Result<Layout, crate::intel::sim::SimError>,
    ) -> Result<Thread, VerifyOutcome> {
        let mut t = self.run_prepared(load)?;
        t.set_step_limit(2_000_000);
        t.run_binary(&relocated_variant(self.kernel, self.variant)?)
            .map_err(sim_error)?;
        self.keep_ssbos(&t);
        Ok(t)
    }

    /// The SSBO contents a run left, kept for the next thread.
    fn keep_ssbos(&self, t: &Thread) {
        let base = self.kernel.ssbo_surface_base;
        for (b, bytes) in self.ssbos.borrow_mut().iter_mut().enumerate() {
            if let Some(now) = t.shared().buffers.get(&(base + b as u32)) {
                bytes.clone_from(now);
            }
        }
    }

    /// A thread with its payload loaded by `load` and the shared functions bound (buffers,
    /// constants), after checking that the payload's push constants start where the kernel
    /// expects them; not yet run.
    fn run_prepared(
        &self,
        load: impl FnOnce(&mut Thread) -> Result<Layout, crate::intel::sim::SimError>,
    ) -> Result<Thread, VerifyOutcome> {
        let mut t = Thread::new(self.ctx.devinfo(), 8)
            .map_err(|e| VerifyOutcome::Unsupported(format!("simulator: {e}")))?;
        let layout = load(&mut t).map_err(sim_error)?;
        t.shared_mut().coordinate_counts = self.coordinate_counts.clone();
        if layout.push_constants != self.variant.dispatch_grf_start {
            return Err(VerifyOutcome::Fail {
                invocation: 0,
                output: "(payload)".into(),
                expected: format!("dispatch GRF start {}", layout.push_constants),
                got: format!("{}", self.variant.dispatch_grf_start),
            });
        }
        for &b in &self.kernel.pull_constant_blocks {
            t.shared_mut().bind_constants(
                self.kernel.ubo_surface_base + b,
                self.ubos[b as usize].clone(),
            );
        }
        t.shared_mut()
            .map_global(CONSTANT_DATA_ADDRESS, self.constant_data.to_vec());
        let base = self.kernel.ssbo_surface_base;
        for (b, bytes) in self.ssbos.borrow().iter().enumerate() {
            t.shared_mut().bind_buffer(base + b as u32, bytes.clone());
        }
        Ok(t)
    }

    /// Runs `n` threads of one patch that share the shared functions (the URB, buffers),
    /// each loaded by `load` with its index: the first runs until it ends or sends a barrier
    /// message, then the next, round after round, so that every thread reaches a barrier
    /// before any passes it. Returns the first thread, holding the shared state.
    pub(super) fn run_instances(
        &self,
        n: usize,
        load: impl Fn(&mut Thread, usize) -> Result<Layout, crate::intel::sim::SimError>,
    ) -> Result<Thread, VerifyOutcome> {
        const STEP_LIMIT: u64 = 2_000_000;
        if n == 1 {
            return self.run(|t| load(t, 0));
        }
        let first = self.run_prepared(|t| load(t, 0))?;
        let mut threads = vec![first];
        for k in 1..n {
            let mut t = Thread::new(self.ctx.devinfo(), 8)
                .map_err(|e| VerifyOutcome::Unsupported(format!("simulator: {e}")))?;
            load(&mut t, k).map_err(sim_error)?;
            threads.push(t);
        }
        let bytes = relocated_variant(self.kernel, self.variant)?;
        let (insts, offsets) = crate::intel::eu::decode_program_at(self.ctx.devinfo(), &bytes)
            .map_err(|e| VerifyOutcome::Unsupported(format!("simulator: decode: {e}")))?;
        let mut shared = std::mem::take(threads[0].shared_mut());
        let mut pcs: Vec<Option<usize>> = vec![Some(0); n];
        let mut steps = 0u64;
        loop {
            let alive = pcs.iter().filter(|p| p.is_some()).count();
            if alive == 0 {
                break;
            }
            let mut waiting = 0;
            for (k, t) in threads.iter_mut().enumerate() {
                while let Some(pc) = pcs[k] {
                    if pc >= insts.len() {
                        return Err(sim_error(crate::intel::sim::SimError::new(format!(
                            "instance thread {k} ran past its end without EOT"
                        ))));
                    }
                    let barriers = shared.barriers;
                    pcs[k] = t
                        .step_with(&insts, &offsets, pc, &mut shared)
                        .map_err(sim_error)?;
                    steps += 1;
                    if steps > STEP_LIMIT {
                        return Err(VerifyOutcome::Unsupported(format!(
                            "the instance threads outrun the step limit ({STEP_LIMIT})"
                        )));
                    }
                    if shared.barriers != barriers {
                        waiting += 1;
                        break;
                    }
                }
            }
            if waiting > 0 && waiting < alive {
                return Err(VerifyOutcome::Fail {
                    invocation: 0,
                    output: "(barrier)".into(),
                    expected: "every instance thread at each barrier".into(),
                    got: format!("{waiting} of {alive} threads wait at a barrier"),
                });
            }
        }
        *threads[0].shared_mut() = shared;
        let t = threads.swap_remove(0);
        self.keep_ssbos(&t);
        Ok(t)
    }
}
