//! Checking a compiled tessellation-control shader: one patch's thread runs on the
//! simulator, and the patch URB entry it leaves is compared with the interpreter's (see
//! `nir::interp::tcs`).
//!
//! Both sides see the same input patch: 32 vertices (the most a patch has; the handles of
//! all of them are in the payload), each with [`INPUT_SLOTS`] slots of small dyadic floats,
//! different per set, vertex, slot and component. The patch entry starts filled with
//! [`PATCH_POISON`] on the simulator, and the interpreter reads a component nobody wrote as
//! its undefined bits, the same pattern; a second interpreter run with other undefined bits
//! finds the components that depend on them, which are not compared. Every component the
//! interpreter wrote must hold its value (within the math tolerance when the shader uses
//! inexact math) and every other one must still hold the poison, so that a write of zero
//! (or of anything) to a wrong place shows; only header dword 0 may also be zero, the
//! thread-end write Mesa makes there (Broadwell's "TR DS Cache Disable"; Gen7's thread end).
//! A Gen7 (SIMD4x2) TCS runs its instance threads, two output vertices each, over the one
//! patch entry, in turn between barriers: each runs until it ends or reaches a barrier.
//! SSBOs must end byte-identical, and a Gen7 program must have released the URB handles of
//! the input patch's vertices (the key's count) once each. The hardware dispatches all eight channels: the check also
//! covers the program's own disabling of the channels past the output vertex count.

use std::collections::BTreeMap;

use crate::intel::backend::context::Context;
use crate::intel::kernel::Kernel;
use crate::intel::sim::tcs_payload::TcsPayload;
use crate::nir::{self, interp};
use crate::verify::VerifyOutcome;

use super::vertex::Simulation;
use super::world::{
    close, constant_data, run_and_probe, ubo_dword, uniform_buffers, CONSTANT_DATA_ADDRESS,
};

/// Vertices of the input patch.
const INPUT_VERTICES: u32 = 32;

/// Slots of each input vertex laid in.
const INPUT_SLOTS: u32 = 64;

/// Slots of the patch URB entry laid in (the poison): past the entry itself, what a read at a
/// vertex index up to 31 reaches, as a shader indexing by a uniform may do on a path whose
/// result it does not use (the interpreter reads undefined bits there).
const PATCH_LAID_SLOTS: u32 = 1024;

/// What the patch URB entry holds before the thread runs, and what the interpreter reads
/// where no invocation wrote: no value a test shader computes (a float near 1.5e16).
const PATCH_POISON: u32 = 0x5a5a_5a5a;

/// The patch URB entry's handle.
const PATCH_HANDLE: u32 = 0x20;

/// The URB handle of input vertex `v`.
fn icp_handle(v: u32) -> u32 {
    0x1000 + 0x100 * v
}

/// Component `c` of slot `s` of input vertex `v` in set `set`: a small dyadic float.
fn input_dword(set: usize, v: u32, s: u32, c: u32) -> u32 {
    let n = (v as usize * 5 + s as usize * 11 + c as usize * 3 + set * 7) % 41;
    (n as f32 * 0.25 - 4.0).to_bits()
}

/// A uniform dword as the TCS check lays it: on the small-integer sets (the retries of
/// `verify_kernel_with`, 0-4) one more, 1-5. Those sets exist for uniforms used as indices,
/// and variable-indexing's TCS take the index modulo a uniform patch size: a zero there is
/// an undefined division whose result addresses a URB slot far past any entry.
fn small_integer(set: usize, dword: u32) -> u32 {
    if set >= super::world::INPUT_SETS {
        dword + 1
    } else {
        dword
    }
}

pub(super) fn run_tcs_set(
    ctx: &Context,
    shader: &nir::Shader,
    kernel: &Kernel,
    set: usize,
    inexact: bool,
    interp_steps: u64,
) -> Result<Option<VerifyOutcome>, VerifyOutcome> {
    let info = kernel.tess_ctrl.as_ref().expect("checked by the caller");
    let simd4x2 = kernel.is_simd4x2();
    let width = if simd4x2 {
        crate::intel::kernel::SIMD4X2
    } else {
        8
    };
    let variant = kernel.variant(width).expect("checked by the caller");
    if info.instances != 1 && !simd4x2 {
        return Err(VerifyOutcome::Unsupported(format!(
            "a SIMD8 TCS of {} instance threads",
            info.instances
        )));
    }
    let n = info.output_vertices as usize;
    let vertices: Vec<interp::gs::VertexInputs> = (0..INPUT_VERTICES)
        .map(|v| {
            (0..INPUT_SLOTS)
                .map(|s| (s, [0, 1, 2, 3].map(|c| input_dword(set, v, s, c))))
                .collect()
        })
        .collect();
    let primitive_id = 5 + 3 * set as u32;
    let ubos: Vec<Vec<u8>> = uniform_buffers(kernel, set)
        .iter()
        .map(|b| {
            b.chunks(4)
                .flat_map(|d| {
                    small_integer(set, u32::from_le_bytes([d[0], d[1], d[2], d[3]])).to_le_bytes()
                })
                .collect()
        })
        .collect();
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
        generate_inputs: false,
        geometry: interp::tcs::tcs_lanes(&vertices, primitive_id, n as u32),
        tess_ctrl: true,
        simd_width: 8,
        step_limit: interp_steps,
        undefined_bits: u64::from(PATCH_POISON) << 32 | u64::from(PATCH_POISON),
        ..Default::default()
    };
    let (expected, probe) = run_and_probe(shader, &mut env, n)?;

    let push: Vec<u32> = kernel
        .push_constants
        .iter()
        .map(|&(b, o)| small_integer(set, ubo_dword(set, b, o / 4)))
        .collect();
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
    let payload = |instance: u32| TcsPayload {
        patch_handle: PATCH_HANDLE,
        primitive_id,
        instance,
        icp_handles: (0..INPUT_VERTICES).map(icp_handle).collect(),
        push_constants: push.clone(),
    };
    let entry_dwords = 4 * info.vue_map.entry_slots(info.output_vertices);
    // An output slot indexed by a uniform integer holding a float's bits lies far past the
    // entry: the set reruns with small integers (see `verify_kernel_with`).
    if let Some(s) = expected.patch.keys().find(|&&s| 4 * s >= entry_dwords) {
        return Err(VerifyOutcome::Unsupported(format!(
            "TCS output slot {s}, past the patch entry, is not provided"
        )));
    }
    let far = |e: VerifyOutcome| match e {
        VerifyOutcome::Fail { got, .. } if got.contains("never written") => {
            VerifyOutcome::Unsupported(format!(
                "a URB read past the laid-in entries is not provided: {got}"
            ))
        }
        e => e,
    };
    let t = sim
        .run_instances(info.instances as usize, |t, instance| {
            if instance > 0 {
                return payload(instance as u32).apply(t);
            }
            let urb = &mut t.shared_mut().urb;
            let laid = entry_dwords.max(4 * PATCH_LAID_SLOTS);
            urb.insert(PATCH_HANDLE, (0..laid).map(|d| (d, PATCH_POISON)).collect());
            for (v, comps) in vertices.iter().enumerate() {
                let entry: BTreeMap<u32, u32> = comps
                    .iter()
                    .flat_map(|(s, c)| (0..4).map(move |k| (4 * s + k, c[k as usize])))
                    .collect();
                urb.insert(icp_handle(v as u32), entry);
            }
            payload(0).apply(t)
        })
        .map_err(far)?;
    let urb = &t.shared().urb;
    let fail = |output: String, expected: String, got: String| {
        Ok(Some(VerifyOutcome::Fail {
            invocation: 0,
            output,
            expected,
            got,
        }))
    };
    if let Some(h) = urb
        .keys()
        .find(|&&h| h != PATCH_HANDLE && !(0..INPUT_VERTICES).any(|v| icp_handle(v) == h))
    {
        return fail(
            format!("URB (set {set})"),
            "writes to the patch entry only".into(),
            format!("an entry with handle {h:#x}"),
        );
    }
    // A Gen7 thread releases each input vertex of the patch once (the key's input vertex
    // count, Mesa's `key->input_vertices`); a Gen8+ thread releases none (the hardware does).
    let mut released = t.shared().urb_released.clone();
    released.sort_unstable();
    let want: Vec<u32> = (0..info.input_vertices).map(icp_handle).collect();
    if released != want {
        let show = |h: &[u32]| {
            let names: Vec<String> = h
                .iter()
                .map(
                    |&h| match (0..INPUT_VERTICES).find(|&v| icp_handle(v) == h) {
                        Some(v) => format!("vertex {v}"),
                        None => format!("handle {h:#x}"),
                    },
                )
                .collect();
            format!("[{}]", names.join(", "))
        };
        return fail(
            format!("input URB handles released (set {set})"),
            show(&want),
            show(&released),
        );
    }
    for v in 0..INPUT_VERTICES {
        let now = &urb[&icp_handle(v)];
        let laid = &vertices[v as usize];
        if now
            .iter()
            .any(|(d, x)| laid[&(d / 4)][(d % 4) as usize] != *x)
        {
            return fail(
                format!("input vertex {v} (set {set})"),
                "left as the VS wrote it".into(),
                "written by the TCS".into(),
            );
        }
    }
    let patch = &urb[&PATCH_HANDLE];
    if let Some(d) = patch
        .iter()
        .find(|&(&d, &v)| d >= entry_dwords && v != PATCH_POISON)
        .map(|(d, _)| d)
    {
        return fail(
            format!("patch URB entry (set {set})"),
            format!("writes within its {entry_dwords} dwords"),
            format!("a write to dword {d}"),
        );
    }
    let slot_name = |s: u32| {
        expected
            .patch
            .get(&s)
            .map_or_else(|| format!("slot {s}"), |o| format!("slot {s} ({})", o.name))
    };
    for d in 0..entry_dwords {
        let (s, c) = (d / 4, (d % 4) as usize);
        let got = patch.get(&d).copied().unwrap_or(PATCH_POISON);
        let want = expected.patch.get(&s).and_then(|o| o.comps[c]);
        let defined = probe.patch.get(&s).and_then(|o| o.comps[c]);
        match want {
            Some(w) if defined == Some(w) && !close(w as u32, got, inexact) => {
                return fail(
                    format!("{}.{} (set {set})", slot_name(s), ["x", "y", "z", "w"][c]),
                    format!("{:#010x} ({})", w as u32, f32::from_bits(w as u32)),
                    format!("{got:#010x} ({})", f32::from_bits(got)),
                );
            }
            // A value held, or one made of undefined bits (whatever the program left).
            Some(_) => {}
            None if got != PATCH_POISON && !(d == 0 && got == 0) => {
                return fail(
                    format!("{}.{} (set {set})", slot_name(s), ["x", "y", "z", "w"][c]),
                    "nothing written".into(),
                    format!("{got:#010x}"),
                );
            }
            None => {}
        }
    }
    let ssbos = sim.ssbos.borrow();
    for (b, (want, got)) in expected.ssbos.iter().zip(ssbos.iter()).enumerate() {
        if let Some(k) = (0..want.len().min(got.len()) / 4)
            .find(|&k| want[4 * k..4 * k + 4] != got[4 * k..4 * k + 4])
        {
            let dw =
                |x: &[u8]| u32::from_le_bytes([x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]]);
            return fail(
                format!("SSBO {b} dword {k} (set {set})"),
                format!("{:#010x}", dw(want)),
                format!("{:#010x}", dw(got)),
            );
        }
    }
    Ok(None)
}
