//! How the GS unit packs the primitives of a draw into geometry threads, for a compiled
//! program: which lanes (primitive × instance, primitive-major, as the interpreter numbers
//! them) each thread runs, its payload, and the input vertices' URB entries a Gen8+ thread
//! pulls from. The corpus check and the piglit runner both dispatch this way, so the code
//! that lays inputs and handles is written once.
//!
//! Gen8+ (SIMD8): without instancing up to eight primitives per thread, one per channel,
//! with the first `urb_read_length` slot pairs of each vertex pushed; with instancing the
//! channels are up to eight instances of one primitive, whose inputs are all pulled. Gen7
//! (SIMD4x2): two primitives per thread in dual-object dispatch, every input slot pushed
//! vertex after vertex per half; in dual-instance dispatch two instances of one primitive,
//! in single dispatch one, with the inputs interleaved (see [`super::gs_payload`]).

use std::ops::Range;

use super::gs_payload::{GsPayload, Vec4GsInterleavedPayload};
use super::payload::{Layout, Vec4VsPayload};
use super::thread::Thread;
use super::SimError;
use crate::intel::geometry::{DispatchMode, GeometryInfo};

/// One thread's payload, by dispatch mode.
#[derive(Debug, Clone)]
pub enum GsThreadPayload {
    /// Gen8+ SIMD8.
    Simd8(GsPayload),
    /// Gen7 dual-object: the vertex shader's SIMD4x2 layout.
    DualObject(Vec4VsPayload),
    /// Gen7 dual-instance or single.
    Interleaved(Vec4GsInterleavedPayload),
}

/// One geometry thread to run.
#[derive(Debug, Clone)]
pub struct GsThread {
    /// The lanes it runs, in channel (or half) order.
    pub lanes: Range<usize>,
    pub payload: GsThreadPayload,
    /// Input vertices' URB entries (handle, slots) the thread may pull from.
    pub input_entries: Vec<(u32, Vec<[u32; 4]>)>,
}

impl GsThread {
    /// Loads the payload and the input entries into `t` (eight channels).
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        let layout = match &self.payload {
            GsThreadPayload::Simd8(p) => p.apply(t)?,
            GsThreadPayload::DualObject(p) => p.apply(t)?,
            GsThreadPayload::Interleaved(p) => p.apply(t)?,
        };
        for (handle, slots) in &self.input_entries {
            let entry = t.shared_mut().urb.entry(*handle).or_default();
            for (s, value) in slots.iter().enumerate() {
                for (c, v) in value.iter().enumerate() {
                    entry.insert(4 * s as u32 + c as u32, *v);
                }
            }
        }
        Ok(layout)
    }
}

/// What a draw hands the GS unit, beside the program's facts.
pub struct GsDraw<'a> {
    /// Primitives drawn.
    pub primitives: usize,
    /// `gl_PrimitiveIDIn` of primitive p.
    pub primitive_id: &'a dyn Fn(usize) -> u32,
    /// Slot s (of the program's input VUE map) of vertex v of primitive p.
    pub input: &'a dyn Fn(usize, usize, u32) -> [u32; 4],
    /// The output URB handle of lane l (16 bits).
    pub output_handle: &'a dyn Fn(usize) -> u32,
    /// The URB handle of vertex v of primitive p (Gen8+, where inputs may be pulled).
    pub input_handle: &'a dyn Fn(usize, usize) -> u32,
    /// Push constants, in payload order from the dispatch GRF start.
    pub push_constants: &'a [u32],
}

/// The threads that run every lane of `draw` with a program of facts `info` (SIMD4x2 when
/// `simd4x2`, the Gen7 vec4 program).
pub fn gs_threads(info: &GeometryInfo, simd4x2: bool, draw: &GsDraw) -> Vec<GsThread> {
    let inv = info.invocations.max(1) as usize;
    let slots = info.input_vue_map.num_slots();
    let vertices = info.vertices_in as usize;
    let handle = |l: usize| (draw.output_handle)(l) | ((l % inv) as u32) << 27;
    // Per vertex, `per_vertex` pushed elements: the VUE slots, zeros past the map.
    let elements = |p: usize, per_vertex: u32| -> Vec<[u32; 4]> {
        (0..per_vertex * info.vertices_in)
            .map(|e| {
                let (v, s) = ((e / per_vertex) as usize, e % per_vertex);
                if s < slots {
                    (draw.input)(p, v, s)
                } else {
                    [0; 4]
                }
            })
            .collect()
    };
    let mut threads = Vec::new();
    if simd4x2 {
        let stride = 2 * info.urb_read_length;
        if info.interleaved_inputs() {
            let per_thread = if info.dispatch_mode == DispatchMode::DualInstance {
                2
            } else {
                1
            };
            for p in 0..draw.primitives {
                let inputs = elements(p, stride);
                for first in (p * inv..(p + 1) * inv).step_by(per_thread) {
                    let lanes = first..(first + per_thread).min((p + 1) * inv);
                    threads.push(GsThread {
                        payload: GsThreadPayload::Interleaved(Vec4GsInterleavedPayload {
                            urb_handles: lanes.clone().map(handle).collect(),
                            primitive_id: info.include_primitive_id.then(|| (draw.primitive_id)(p)),
                            push_constants: draw.push_constants.to_vec(),
                            elements: inputs.clone(),
                        }),
                        lanes,
                        input_entries: Vec::new(),
                    });
                }
            }
        } else {
            for first in (0..draw.primitives).step_by(2) {
                let objects = first..(first + 2).min(draw.primitives);
                let per_object: Vec<_> = objects.clone().map(|p| elements(p, stride)).collect();
                threads.push(GsThread {
                    payload: GsThreadPayload::DualObject(Vec4VsPayload {
                        urb_handles: objects.clone().map(draw.output_handle).collect(),
                        primitive_ids: info
                            .include_primitive_id
                            .then(|| objects.clone().map(draw.primitive_id).collect()),
                        push_constants: draw.push_constants.to_vec(),
                        elements: (0..stride * info.vertices_in)
                            .map(|e| per_object.iter().map(|o| o[e as usize]).collect())
                            .collect(),
                    }),
                    lanes: objects,
                    input_entries: Vec::new(),
                });
            }
        }
        return threads;
    }
    let entries = |prims: &mut dyn Iterator<Item = usize>| -> Vec<(u32, Vec<[u32; 4]>)> {
        prims
            .flat_map(|p| {
                (0..vertices).map(move |v| {
                    let slots = (0..slots).map(|s| (draw.input)(p, v, s)).collect();
                    ((draw.input_handle)(p, v), slots)
                })
            })
            .collect()
    };
    if inv > 1 {
        for p in 0..draw.primitives {
            for first in (p * inv..(p + 1) * inv).step_by(8) {
                let lanes = first..(first + 8).min((p + 1) * inv);
                threads.push(GsThread {
                    payload: GsThreadPayload::Simd8(GsPayload {
                        urb_handles: lanes.clone().map(handle).collect(),
                        primitive_ids: info
                            .include_primitive_id
                            .then(|| vec![(draw.primitive_id)(p); lanes.len()]),
                        vertex_handles: (0..vertices)
                            .map(|v| vec![(draw.input_handle)(p, v); lanes.len()])
                            .collect(),
                        instanced: true,
                        push_constants: draw.push_constants.to_vec(),
                        pushed: vec![vec![0; 8]; (8 * info.urb_read_length) as usize * vertices],
                    }),
                    lanes,
                    input_entries: entries(&mut std::iter::once(p)),
                });
            }
        }
        return threads;
    }
    let push_regs = 8 * info.urb_read_length;
    for first in (0..draw.primitives).step_by(8) {
        let lanes = first..(first + 8).min(draw.primitives);
        let pushed = (0..vertices)
            .flat_map(|v| {
                let lanes = lanes.clone();
                (0..push_regs).map(move |k| {
                    let (s, c) = (k / 4, (k % 4) as usize);
                    lanes
                        .clone()
                        .map(|p| {
                            if s < slots {
                                (draw.input)(p, v, s)[c]
                            } else {
                                0
                            }
                        })
                        .collect()
                })
            })
            .collect();
        threads.push(GsThread {
            payload: GsThreadPayload::Simd8(GsPayload {
                urb_handles: lanes.clone().map(handle).collect(),
                primitive_ids: info
                    .include_primitive_id
                    .then(|| lanes.clone().map(draw.primitive_id).collect()),
                vertex_handles: (0..vertices)
                    .map(|v| lanes.clone().map(|p| (draw.input_handle)(p, v)).collect())
                    .collect(),
                instanced: false,
                push_constants: draw.push_constants.to_vec(),
                pushed,
            }),
            input_entries: entries(&mut lanes.clone()),
            lanes,
        });
    }
    threads
}
