//! Checking a compiled tessellation-evaluation shader: the domain points of one patch run on
//! the simulator, their output VUEs compared with the interpreter's outputs.
//!
//! Both sides see the same patch. Its URB entry (every slot the shader can address: the
//! pushed ones and those read with URB read messages, indirect ones included) holds small
//! dyadic floats, different per set, slot and component; the interpreter sees that entry as
//! the input slots of every invocation, since Intel-form NIR addresses TES inputs as slots of
//! the patch entry (see `nir::interp::tess`). The points are distinct barycentric
//! coordinates; set 1 has three points only, so disabled channels must write nothing.
//!
//! A Gen7 vec4 program (SIMD4x2) runs two points per thread, the points of a set as
//! consecutive threads and a lone last point in the first half of its thread (set 1), every
//! thread over the same patch entry.

use std::collections::BTreeMap;

use crate::intel::backend::context::Context;
use crate::intel::kernel::Kernel;
use crate::intel::sim::tess_payload::{TesPayload, Vec4TesPayload};
use crate::nir::{self, interp};
use crate::verify::{MathProbes, VerifyOutcome};

use super::vertex::{check_vues, Simulation};
use super::world::{
    constant_data, run_and_probe, ubo_dword, uniform_buffers, CONSTANT_DATA_ADDRESS,
};

/// Domain points per input set (set 1 leaves channels 3–7 disabled).
const POINTS: [usize; 3] = [8, 3, 8];

/// Slots of the patch URB entry laid in: what any slot or per-slot offset the corpus reads
/// stays within (a shader reading past it fails on both sides alike, by name).
const PATCH_SLOTS: u32 = 256;

/// Where a Gen7 URB read's per-slot offset is clamped (Mesa's vec4 TES: at most
/// `0x0fffffff`, the hardware's range).
const CLAMPED_SLOT_OFFSET: u32 = 0x0fff_ffff;

/// The patch URB entry's handle, apart from the output handles.
const PATCH_HANDLE: u32 = 0x20;

/// The output URB handle of point `v`.
fn urb_handle(v: usize) -> u32 {
    0x400 + 0x10 * v as u32
}

/// Component `c` of patch slot `s` in set `set`: a small dyadic float, exact in every format.
fn patch_dword(set: usize, s: u32, c: u32) -> u32 {
    let n = (s as usize * 11 + c as usize * 3 + set * 7) % 37;
    (n as f32 * 0.125 - 2.0).to_bits()
}

/// Domain point `v` of set `set`: barycentric sixteenths summing to one.
fn coord(set: usize, v: usize) -> [f32; 3] {
    let u = ((v * 5 + set * 3) % 17) as f32 / 16.0;
    let w = ((v * 3 + set + 1) % 16) as f32 / 16.0 * (1.0 - u);
    [u, 1.0 - u - w, w]
}

pub(super) fn run_tes_set(
    ctx: &Context,
    shader: &nir::Shader,
    kernel: &Kernel,
    set: usize,
    inexact: bool,
    interp_steps: u64,
) -> Result<Option<VerifyOutcome>, VerifyOutcome> {
    let info = kernel.tess_eval.as_ref().expect("checked by the caller");
    let width = if kernel.is_simd4x2() {
        crate::intel::kernel::SIMD4X2
    } else {
        8
    };
    let variant = kernel.variant(width).expect("checked by the caller");
    let n = POINTS[set % POINTS.len()];
    let patch: BTreeMap<u32, [u32; 4]> = (0..PATCH_SLOTS)
        .map(|s| (s, [0, 1, 2, 3].map(|c| patch_dword(set, s, c))))
        .collect();
    let primitive_id = 3 + 2 * set as u32;
    let coords: Vec<[f32; 3]> = (0..n).map(|v| coord(set, v)).collect();
    let ubos = uniform_buffers(kernel, set);
    let (nssbo, _) = super::world::compute_resources(shader)?;
    let ssbos: Vec<Vec<u8>> = (0..nssbo)
        .map(|b| super::world::ssbo_init(set, b))
        .collect();
    let mut env = interp::Environment {
        ubos: ubos.clone(),
        ssbos: ssbos.clone(),
        constant_data: constant_data(set, kernel.constant_data_size),
        constant_data_address: CONSTANT_DATA_ADDRESS,
        robust_access: true,
        inputs: vec![patch.clone(); n],
        generate_inputs: false,
        tess: interp::TessDomain {
            coords: coords.clone(),
            primitive_id,
        },
        step_limit: interp_steps,
        // A SIMD8 thread's domain points are one subgroup (SIMD4x2 refuses subgroup
        // operations).
        simd_width: if width == 8 { 8 } else { 0 },
        ..Default::default()
    };
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
    let slot = |s: u32| patch.get(&s).copied().unwrap_or_default();
    let patch_regs: Vec<[u32; 8]> = (0..info.urb_read_length)
        .map(|r| {
            let (lo, hi) = (slot(2 * r), slot(2 * r + 1));
            [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]]
        })
        .collect();
    let mut entry: BTreeMap<u32, u32> = patch
        .iter()
        .flat_map(|(s, comps)| (0..4).map(move |c| (4 * s + c, comps[c as usize])))
        .collect();
    if kernel.is_simd4x2() {
        // A Gen7 read clamps each point's run-time slot offset to the URB's range, so an
        // index the interpreter finds at no slot (a negative sum: its value undefined, not
        // compared) reads the slot past the clamp on the hardware: something is there.
        for s in 0..PATCH_SLOTS {
            for c in 0..4 {
                let slot = CLAMPED_SLOT_OFFSET + s;
                entry.insert(4 * slot + c, patch_dword(set + 1, s, c));
            }
        }
    }
    let mut urb: BTreeMap<u32, BTreeMap<u32, u32>> = BTreeMap::new();
    if kernel.is_simd4x2() {
        // Points 2k and 2k + 1 share thread k; a lone last point runs in the first half.
        for first in (0..n).step_by(2) {
            let count = (n - first).min(2);
            let payload = Vec4TesPayload {
                patch_handle: PATCH_HANDLE,
                primitive_id,
                coords: coords[first..first + count].to_vec(),
                urb_handles: (first..first + count).map(urb_handle).collect(),
                push_constants: push.clone(),
                patch_regs: patch_regs.clone(),
            };
            let t = sim.run(|t| {
                t.shared_mut().urb.insert(PATCH_HANDLE, entry.clone());
                payload.apply(t)
            })?;
            for (h, e) in &t.shared().urb {
                urb.entry(*h).or_default().extend(e);
            }
        }
    } else {
        let payload = TesPayload {
            patch_handle: PATCH_HANDLE,
            primitive_id,
            coords,
            urb_handles: (0..n).map(urb_handle).collect(),
            push_constants: push,
            patch_regs,
        };
        let t = sim.run(|t| {
            t.shared_mut().urb.insert(PATCH_HANDLE, entry.clone());
            payload.apply(t)
        })?;
        urb = t.shared().urb.clone();
    }
    // What the shader wrote into the patch entry is not its output: a TES only reads it.
    if urb
        .remove(&PATCH_HANDLE)
        .is_some_and(|e| e.iter().any(|(d, v)| Some(v) != entry.get(d)))
    {
        return Ok(Some(VerifyOutcome::Fail {
            invocation: 0,
            output: format!("patch URB entry (set {set})"),
            expected: "left as the TCS wrote it".into(),
            got: "written by the TES".into(),
        }));
    }
    if let Some(h) = urb.keys().find(|h| !(0..n).any(|v| urb_handle(v) == **h)) {
        return Ok(Some(VerifyOutcome::Fail {
            invocation: 0,
            output: format!("URB (set {set})"),
            expected: format!("writes to the entries of {n} domain points only"),
            got: format!("a write with handle {h:#x}"),
        }));
    }
    if let Some(fail) = super::world::compare_ssbos(&expected.ssbos, &sim.ssbos.borrow(), set) {
        return Ok(Some(fail));
    }
    check_vues(
        &expected,
        &probe,
        n,
        &urb,
        urb_handle,
        &info.vue_map,
        inexact,
        set,
        &mut probes,
    )
}
