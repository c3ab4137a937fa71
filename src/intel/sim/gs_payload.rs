//! The thread payload of a Gen8+ SIMD8 geometry thread, as the GS unit dispatches it and
//! brw's `gs_thread_payload` expects it: g0 header, g1 the output URB handles (bits 15:0)
//! with each channel's instance number (bits 31:27), g2 the primitive ids (when included),
//! then one register per input vertex holding the vertices' URB handles. Without instancing
//! every channel is a primitive of its own and register v holds each channel's vertex v;
//! with instancing the channels are instances of one primitive and vertex v's handle is dword
//! v of the first of those registers. Push constants start after them (the dispatch GRF
//! start), then the pushed part of the input vertices.

//!
//! A Gen7 geometry thread in single or dual-instance dispatch ([`Vec4GsInterleavedPayload`],
//! SIMD4x2) carries one primitive: g0 dword h = half h's output URB handle with its instance
//! number in bits 31:27 (one half only in single dispatch, channels 4–7 then disabled), g1
//! the primitive id in dwords 0 and 4 (when included), the push constants, then the input
//! elements interleaved: element e in dwords 4·(e % 2).. of register e / 2, read by both
//! halves (brw's `attributes_per_reg` of 2). Dual-object threads take the vertex layout
//! ([`super::payload::Vec4VsPayload`]).

use super::payload::Layout;
use super::thread::Thread;
use super::SimError;

/// A geometry-shader thread payload (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct GsPayload {
    /// Per enabled channel: its output URB handle, with its instance number in bits 31:27.
    pub urb_handles: Vec<u32>,
    /// Per channel primitive ids, when the program includes them.
    pub primitive_ids: Option<Vec<u32>>,
    /// The input vertices' URB handles: `vertex_handles[v][c]` is channel c's vertex v, or,
    /// with `instanced`, `vertex_handles[v][0]` is the one primitive's vertex v.
    pub vertex_handles: Vec<Vec<u32>>,
    /// The channels are instances of one primitive.
    pub instanced: bool,
    /// Push constants, in payload order from the dispatch GRF start.
    pub push_constants: Vec<u32>,
    /// The pushed input registers after the constants, per channel.
    pub pushed: Vec<Vec<u32>>,
}

impl GsPayload {
    /// Loads the payload into a SIMD8 thread and sets its dispatch mask.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        if t.simd() != 8 || self.urb_handles.is_empty() || self.urb_handles.len() > 8 {
            return Err(SimError::new(format!(
                "geometry payloads are SIMD8 with 1 to 8 objects, not SIMD{} with {}",
                t.simd(),
                self.urb_handles.len()
            )));
        }
        t.set_grf(1, 0, &self.urb_handles)?;
        t.set_dispatch_mask((1u32 << self.urb_handles.len()) - 1);
        let mut r = 2;
        if let Some(ids) = &self.primitive_ids {
            t.set_grf(r, 0, ids)?;
            r += 1;
        }
        for (v, handles) in self.vertex_handles.iter().enumerate() {
            if self.instanced {
                let h = handles.first().copied().unwrap_or(0);
                t.set_grf(r + v as u32 / 8, v as u32 % 8, &[h])?;
            } else {
                t.set_grf(r + v as u32, 0, handles)?;
            }
        }
        let push = r + self.vertex_handles.len() as u32;
        t.set_grf(push, 0, &self.push_constants)?;
        let start = push + self.push_constants.len().div_ceil(8) as u32;
        for (k, per_channel) in self.pushed.iter().enumerate() {
            t.set_grf(start + k as u32, 0, per_channel)?;
        }
        Ok(Layout {
            barycentric: None,
            push_constants: push,
            attributes: start,
            end: start + self.pushed.len() as u32,
        })
    }
}

/// A Gen7 single or dual-instance geometry payload (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct Vec4GsInterleavedPayload {
    /// Per half (one or two): its output URB handle, its instance number in bits 31:27.
    pub urb_handles: Vec<u32>,
    /// The primitive's id, when the program includes it.
    pub primitive_id: Option<u32>,
    /// Push constants, in payload order from g1 (g2 after the primitive ids).
    pub push_constants: Vec<u32>,
    /// The primitive's input elements (vertex after vertex, each of its pushed slots).
    pub elements: Vec<[u32; 4]>,
}

impl Vec4GsInterleavedPayload {
    /// Loads the payload into a thread of eight channels and sets its dispatch mask.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        let halves = self.urb_handles.len();
        if t.simd() != 8 || !(1..=2).contains(&halves) {
            return Err(SimError::new(format!(
                "SIMD4x2 geometry payloads are 8 channels with 1 or 2 halves, not SIMD{} with \
                 {halves}",
                t.simd()
            )));
        }
        t.set_grf(0, 0, &self.urb_handles)?;
        t.set_dispatch_mask(if halves == 2 { 0xff } else { 0x0f });
        let mut push = 1;
        if let Some(id) = self.primitive_id {
            t.set_grf(1, 0, &[id])?;
            t.set_grf(1, 4, &[id])?;
            push += 1;
        }
        t.set_grf(push, 0, &self.push_constants)?;
        let start = push + self.push_constants.len().div_ceil(8) as u32;
        for (e, comps) in self.elements.iter().enumerate() {
            t.set_grf(start + e as u32 / 2, 4 * (e as u32 % 2), comps)?;
        }
        Ok(Layout {
            barycentric: None,
            push_constants: push,
            attributes: start,
            end: start + self.elements.len().div_ceil(2) as u32,
        })
    }
}
