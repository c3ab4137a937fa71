//! Checking a compiled geometry shader: the primitives of each input set run on the
//! simulator, each object's output URB entry read back (vertex count, every output of every
//! emitted vertex, cut bits) and compared with the interpreter's emitted vertex lists.
//!
//! The input vertices live in URB entries of their own, filled before the thread runs with
//! every slot of the program's input VUE map (small dyadic floats per set, primitive, vertex,
//! slot and component); the pushed part of them is also loaded into the payload where the
//! program expects it, so pushed and pulled reads see the same values. Without instancing a
//! thread runs one primitive per channel (set 1 has three primitives, leaving channels 3–7
//! disabled: they must write nothing); with instancing a thread runs up to eight instances of
//! one primitive, and a primitive takes as many threads as it has groups of eight instances.
//!
//! A Gen7 vec4 program (SIMD4x2, dual-object dispatch) runs two primitives per thread, one
//! per half, with every input slot pushed as a payload element (vertex after vertex) and the
//! primitive ids in g1 when it reads them; its vertex counts come from the header of its
//! last URB write rather than from the entry. In dual-instance dispatch a thread runs two
//! instances of one primitive (each half's instance number beside its URB handle in g0),
//! in single dispatch one primitive; both take the inputs interleaved, two slots per
//! payload register.
//!
//! Each channel's entry is read as the next stage would: the vertex count (dword 0 of the
//! entry, or the program's static count), then vertex k's slot s at 16-byte unit
//! `first vertex + k · vertex size + s`; with a cut-bit header, bit k of the header says
//! whether the strip ends after vertex k (the last vertex's bit is not compared: the strip
//! ends there anyway). Stream-id headers are not compared: vertices of streams other than 0
//! are dropped (no transform feedback), so every written vertex is on stream 0. Components
//! that depend on undefined values are left out, as for vertex shaders.

use std::collections::BTreeMap;

use crate::intel::backend::context::Context;
use crate::intel::geometry::{ControlDataFormat, GeometryInfo};
use crate::intel::kernel::Kernel;
use crate::intel::sim::gs_dispatch::{gs_threads, GsDraw};
use crate::intel::vue;
use crate::nir::{self, interp};
use crate::verify::VerifyOutcome;

use super::world::{
    close, constant_data, run_and_probe, ubo_dword, uniform_buffers, CONSTANT_DATA_ADDRESS,
};

/// Primitives per input set without instancing (set 1 leaves channels 3–7 disabled).
const PRIMITIVES: [usize; 3] = [8, 3, 8];

/// Primitives per input set with instancing (each takes whole threads).
const INSTANCED_PRIMITIVES: [usize; 3] = [2, 1, 2];

/// The output URB handle of lane `l` (16 bits, as the payload carries them).
fn output_handle(l: usize) -> u32 {
    0x100 + 0x20 * l as u32
}

/// The first input vertex handle: apart from every output handle.
const INPUT_HANDLES: u32 = 0x8000;

/// The URB handle of vertex `v` of primitive `p`.
fn input_handle(p: usize, v: usize) -> u32 {
    INPUT_HANDLES + 0x10 * (8 * p + v) as u32
}

/// Component `c` of input slot `s` of vertex `v` of primitive `p` in set `set`.
fn input_value(set: usize, p: usize, v: usize, s: u32, c: usize) -> u32 {
    let n = (p * 11 + v * 7 + s as usize * 13 + c * 3 + set * 5) % 31;
    (n as f32 * 0.25 - 3.5).to_bits()
}

pub(super) fn run_geometry_set(
    ctx: &Context,
    shader: &nir::Shader,
    kernel: &Kernel,
    set: usize,
    inexact: bool,
    interp_steps: u64,
) -> Result<Option<VerifyOutcome>, VerifyOutcome> {
    let info = kernel.geometry.as_ref().expect("checked by the caller");
    let width = if kernel.is_simd4x2() {
        crate::intel::kernel::SIMD4X2
    } else {
        8
    };
    let variant = kernel.variant(width).expect("checked by the caller");
    let (nssbo, _) = super::world::compute_resources(shader)?;
    if nssbo > 0 {
        return Err(VerifyOutcome::Unsupported(
            "storage buffers in a geometry shader (not modelled by the GS check)".into(),
        ));
    }
    let instanced = info.invocations > 1;
    let prims = if instanced {
        INSTANCED_PRIMITIVES[set % 3]
    } else {
        PRIMITIVES[set % 3]
    };
    let slots = info.input_vue_map.num_slots();
    let primitive_id = |p: usize| 10 * set as u32 + p as u32;
    let vertex = |p: usize, v: usize| -> BTreeMap<u32, [u32; 4]> {
        (0..slots)
            .map(|s| (s, [0, 1, 2, 3].map(|c| input_value(set, p, v, s, c))))
            .collect()
    };
    let primitives: Vec<_> = (0..prims)
        .map(|p| {
            let vs = (0..info.vertices_in as usize)
                .map(|v| vertex(p, v))
                .collect();
            (vs, primitive_id(p))
        })
        .collect();
    let lanes = interp::GeometryLane::for_primitives(&primitives, info.invocations);
    let n = lanes.len();
    let ubos = uniform_buffers(kernel, set);
    let mut env = interp::Environment {
        ubos: ubos.clone(),
        constant_data: constant_data(set, kernel.constant_data_size),
        constant_data_address: CONSTANT_DATA_ADDRESS,
        robust_access: true,
        generate_inputs: false,
        geometry: lanes,
        step_limit: interp_steps,
        ..Default::default()
    };
    let (expected, probe) = run_and_probe(shader, &mut env, n)?;

    let push: Vec<u32> = kernel
        .push_constants
        .iter()
        .map(|&(b, o)| ubo_dword(set, b, o / 4))
        .collect();
    let input = |p: usize, v: usize, s: u32| [0, 1, 2, 3].map(|c| input_value(set, p, v, s, c));
    let draw = GsDraw {
        primitives: prims,
        primitive_id: &primitive_id,
        input: &input,
        output_handle: &output_handle,
        input_handle: &input_handle,
        push_constants: &push,
    };
    let constant_data = constant_data(set, kernel.constant_data_size);
    let sim = super::vertex::Simulation {
        ctx,
        kernel,
        variant,
        ubos: &ubos,
        constant_data: &constant_data,
        coordinate_counts: super::world::texture_coordinate_counts(shader),
        ssbos: std::cell::RefCell::new(Vec::new()),
    };
    let (mut urb, mut counts) = (BTreeMap::new(), BTreeMap::new());
    for thread in gs_threads(info, kernel.is_simd4x2(), &draw) {
        let t = sim.run(|t| thread.apply(t))?;
        for (h, entry) in &t.shared().urb {
            if *h >= INPUT_HANDLES {
                continue;
            }
            if !thread.lanes.clone().any(|l| output_handle(l) == *h) {
                return Ok(Some(VerifyOutcome::Fail {
                    invocation: thread.lanes.start,
                    output: format!("URB (set {set})"),
                    expected: format!("writes to the entries of lanes {:?}", thread.lanes),
                    got: format!("a write with handle {h:#x}"),
                }));
            }
            urb.entry(*h).or_insert_with(BTreeMap::new).extend(entry);
        }
        counts.extend(&t.shared().urb_vertex_counts);
    }
    let empty = BTreeMap::new();
    for (l, inv) in expected.invocations.iter().enumerate() {
        let h = output_handle(l);
        let entry = urb.get(&h).unwrap_or(&empty);
        // Gen7 threads pass the count in their last URB write's header.
        let count = match info.static_vertex_count {
            _ if kernel.is_simd4x2() => counts.get(&h).copied(),
            Some(c) => Some(c),
            None => entry.get(&0).copied(),
        };
        let probe = &probe.invocations[l];
        if let Some(fail) = compare_lane(info, inv, probe, entry, count, l, set, inexact) {
            return Ok(Some(fail));
        }
    }
    Ok(None)
}

/// Compares one lane's entry (and the vertex count its thread gave) with what the
/// interpreter says it emitted.
#[allow(clippy::too_many_arguments)]
fn compare_lane(
    info: &GeometryInfo,
    inv: &interp::InvocationResult,
    probe: &interp::InvocationResult,
    entry: &BTreeMap<u32, u32>,
    got_count: Option<u32>,
    lane: usize,
    set: usize,
    inexact: bool,
) -> Option<VerifyOutcome> {
    let g = &inv.geometry;
    let want_count = g.counts[0].map_or(g.streams[0].len() as u32, |c| c.0);
    let probe_count =
        probe.geometry.counts[0].map_or(probe.geometry.streams[0].len() as u32, |c| c.0);
    let fail = |output: String, expected: String, got: String| {
        Some(VerifyOutcome::Fail {
            invocation: lane,
            output,
            expected,
            got,
        })
    };
    if want_count == probe_count && got_count != Some(want_count) {
        return fail(
            format!("vertex count (set {set})"),
            format!("{want_count}"),
            got_count.map_or("nothing written".into(), |c| c.to_string()),
        );
    }
    let count = want_count.min(g.streams[0].len() as u32) as usize;
    let owords = 2 * info.output_vertex_size_hwords;
    let first = info.first_vertex_oword();
    for (k, vertex) in g.streams[0].iter().enumerate().take(count) {
        let probe_vertex = probe.geometry.streams[0].get(k);
        for (varying, out) in &vertex.outputs {
            let place = |c: usize| -> Option<(u32, u32)> {
                match *varying {
                    vue::VARYING_SLOT_PSIZ if c == 0 => Some((0, 3)),
                    vue::VARYING_SLOT_LAYER if c == 0 => Some((0, 1)),
                    vue::VARYING_SLOT_VIEWPORT if c == 0 => Some((0, 2)),
                    vue::VARYING_SLOT_PSIZ
                    | vue::VARYING_SLOT_LAYER
                    | vue::VARYING_SLOT_VIEWPORT => None,
                    _ => info.vue_map.slot_of(*varying).map(|s| (s, c as u32)),
                }
            };
            for (c, want) in out.comps.iter().enumerate().take(4) {
                let Some(want) = *want else {
                    continue;
                };
                let defined = probe_vertex
                    .and_then(|p| p.outputs.get(varying))
                    .and_then(|o| o.comps[c]);
                if defined != Some(want) {
                    continue;
                }
                let want = want as u32;
                let name = format!("{}.{}", out.name, ["x", "y", "z", "w"][c]);
                let Some((slot, d)) = place(c) else {
                    return fail(name, "a place in the VUE map".into(), "none".into());
                };
                let at = 4 * (first + k as u32 * owords + slot) + d;
                let got = entry.get(&at).copied();
                if !got.is_some_and(|g| close(want, g, inexact)) {
                    return fail(
                        format!("vertex {k} {name} (VUE slot {slot}, set {set})"),
                        format!("{want:#010x} ({})", f32::from_bits(want)),
                        got.map_or("nothing written".into(), |g| {
                            format!("{g:#010x} ({})", f32::from_bits(g))
                        }),
                    );
                }
            }
        }
    }
    if info.control_data_format == ControlDataFormat::Cut && info.control_data_bits_per_vertex == 1
    {
        let base = if info.count_in_entry() { 8 } else { 0 };
        for k in 0..count.saturating_sub(1) {
            let want = g.streams[0][k].ends_primitive;
            if probe.geometry.streams[0].get(k).map(|v| v.ends_primitive) != Some(want) {
                continue;
            }
            let word = entry.get(&(base + k as u32 / 32)).copied();
            let got = word.map(|w| w >> (k % 32) & 1 != 0);
            if got != Some(want) {
                return fail(
                    format!("cut bit of vertex {k} (set {set})"),
                    format!("{want}"),
                    got.map_or("no header written".into(), |b| b.to_string()),
                );
            }
        }
    }
    None
}
