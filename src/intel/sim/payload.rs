//! Thread payloads: what the hardware (and the driver's push constants) put in the GRFs
//! before the first instruction, in the layout Mesa's backend expects on Gen7–Gen9
//! (`brw_fs.cpp` payload setup, `brw_compiler.h`). The backend allocates its registers after
//! these.
//!
//! **Fragment shaders** ([`FsPayload`]), SIMD8/16 (SIMD32 adds a second pixel-info register):
//!
//! | register | contents |
//! |---|---|
//! | g0 | thread header (copied into render-target write headers); zero here |
//! | g1 | pixel info for channels 0–15: dwords 2–5 = subspan k's upper-left pixel, X in the low word and Y in the high word; word 14 (dword 7, low half) = pixel mask |
//! | g2 (SIMD32) | pixel info for channels 16–31, same layout |
//! | next | perspective pixel barycentrics, per 8 channels one register of i then one of j (SIMD8: 2 registers, SIMD16: 4, SIMD32: 8), when requested; the hardware lays SIMD32 out per 16 channels (each run's barycentric sets, source depth and W, then the next run's), which is this same order when the barycentrics are all the payload carries |
//! | next | push constants, one dword each, 8 per register: this is the dispatch GRF start |
//! | next | attribute setup: per varying slot two registers, component c at register c / 2, dwords 4·(c % 2) + {0, 1, 3} = the plane coefficients (a, b, c) of `a·i + b·j + c`, what PLN reads |
//!
//! Channel c covers subspan c / 4 and pixel c % 4 of it (x + (c & 1), y + ((c >> 1) & 1)).
//!
//! **Compute shaders** ([`CsPayload`]):
//!
//! | register | contents |
//! |---|---|
//! | g0 | header: dword 1 = workgroup id x, dword 6 = y, dword 7 = z |
//! | g1 … | local invocation ids: per 8 channels one register of x, one of y, one of z (UD) |
//! | next | push constants, 8 dwords per register (dispatch GRF start) |
//!
//! That is gpucc's own binding model. Under Mesa's, a compute thread's payload is g0 and then
//! its CURBE data as the hardware loads it ([`CsCurbePayload`]): from g1 the cross-thread
//! block, then the thread's own block, whose last param is its subgroup id (the shader
//! computes its local ids from it). Both layouts are what `Kernel::cs_curbe_at` builds, and
//! [`CsCurbePayload`] loads either.
//!
//! **Vertex shaders** ([`VsPayload`], Gen8+, SIMD8: one vertex per channel):
//!
//! | register | contents |
//! |---|---|
//! | g0 | thread header; zero here |
//! | g1 | URB handles, dword c = vertex c's entry |
//! | next | push constants, 8 dwords per register (dispatch GRF start) |
//! | next | vertex elements: per element four registers (x, y, z, w), dword c = vertex c |
//!
//! **Gen7 vertex shaders** ([`Vec4VsPayload`], SIMD4x2: two vertices per thread, channels 0–3
//! are vertex 0's x y z w and channels 4–7 vertex 1's), as Mesa's vec4 backend expects them
//! (`vec4_vs_visitor::setup_payload`, `setup_uniforms`, `setup_attributes`):
//!
//! | register | contents |
//! |---|---|
//! | g0 | thread header: dword 0 = vertex 0's URB handle, dword 1 = vertex 1's. The backend copies g0 whole into its URB write header (Mesa's `VEC4_VS_OPCODE_URB_WRITE` takes g0 as the implied header), where dwords 0 and 1 are the handles the write addresses (Mesa's header setup for the other vec4 stages writes them there: "m0.0-0.1: URB handles") |
//! | g1 … | push constants, 8 dwords per register: two vec4 slots, slot 2k in dwords 0–3 and 2k + 1 in 4–7 (the dispatch GRF start is always 1) |
//! | next | vertex elements: one register per element, vertex 0's x y z w in dwords 0–3, vertex 1's in 4–7 |
//!
//! A thread with one vertex has channels 4–7 disabled in its dispatch mask.

use super::thread::Thread;
use super::SimError;

/// Register numbers a payload occupies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Layout {
    /// First barycentric register (fragment shaders), if any.
    pub barycentric: Option<u32>,
    /// First push-constant register: the dispatch GRF start.
    pub push_constants: u32,
    /// First attribute-setup register (fragment shaders).
    pub attributes: u32,
    /// First register after the payload.
    pub end: u32,
}

/// A fragment-shader thread payload.
#[derive(Debug, Clone, Default)]
pub struct FsPayload {
    /// Upper-left pixel of each 2×2 subspan (SIMD8: 2, SIMD16: 4, SIMD32: 8).
    pub subspans: Vec<(u16, u16)>,
    /// Pixels covered (bit n = channel n); also the dispatch mask.
    pub pixel_mask: u32,
    /// Perspective pixel barycentrics (i, j) per channel; empty when not requested.
    pub barycentric: Vec<(f32, f32)>,
    /// Push constants.
    pub push_constants: Vec<u32>,
    /// Plane coefficients per varying slot and component: (a, b, c) of `a·i + b·j + c`.
    pub attributes: Vec<[[f32; 3]; 4]>,
}

fn regs_for_dwords(n: usize) -> u32 {
    n.div_ceil(8) as u32
}

impl FsPayload {
    /// Loads the payload into `t` (which fixes the SIMD width) and sets its dispatch mask.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        let simd = t.simd();
        if !matches!(simd, 8 | 16 | 32) {
            return Err(SimError::new(format!(
                "fragment payloads are SIMD8/16/32, not SIMD{simd}"
            )));
        }
        let info_regs = if simd == 32 { 2 } else { 1 };
        for (k, &(x, y)) in self.subspans.iter().enumerate().take(simd as usize / 4) {
            let reg = 1 + (k / 4) as u32;
            t.set_grf(reg, 2 + (k % 4) as u32, &[x as u32 | (y as u32) << 16])?;
        }
        for r in 0..info_regs {
            let mask = (self.pixel_mask >> (16 * r)) & 0xffff;
            t.set_grf(1 + r, 7, &[mask])?;
        }
        t.set_dispatch_mask(self.pixel_mask);
        let mut next = 1 + info_regs;
        let mut layout = Layout::default();
        if !self.barycentric.is_empty() {
            if self.barycentric.len() < simd as usize {
                return Err(SimError::new(format!(
                    "{} barycentric pairs for SIMD{simd}",
                    self.barycentric.len()
                )));
            }
            layout.barycentric = Some(next);
            for (c, &(i, j)) in self.barycentric.iter().enumerate().take(simd as usize) {
                let reg = next + 2 * (c / 8) as u32;
                t.set_grf_f32(reg, (c % 8) as u32, &[i])?;
                t.set_grf_f32(reg + 1, (c % 8) as u32, &[j])?;
            }
            next += 2 * simd / 8;
        }
        layout.push_constants = next;
        t.set_grf(next, 0, &self.push_constants)?;
        next += regs_for_dwords(self.push_constants.len());
        layout.attributes = next;
        for (slot, comps) in self.attributes.iter().enumerate() {
            for (c, abc) in comps.iter().enumerate() {
                let reg = next + 2 * slot as u32 + (c / 2) as u32;
                let d = 4 * (c % 2) as u32;
                t.set_grf_f32(reg, d, &[abc[0], abc[1]])?;
                t.set_grf_f32(reg, d + 3, &[abc[2]])?;
            }
        }
        next += 2 * self.attributes.len() as u32;
        layout.end = next;
        Ok(layout)
    }

    /// The pixel position of channel `c`.
    pub fn pixel(&self, c: usize) -> Option<(u16, u16)> {
        let (x, y) = *self.subspans.get(c / 4)?;
        Some((x + (c & 1) as u16, y + ((c >> 1) & 1) as u16))
    }
}

/// A compute-shader thread payload.
#[derive(Debug, Clone, Default)]
pub struct CsPayload {
    /// Workgroup id.
    pub workgroup_id: [u32; 3],
    /// Local invocation id per channel.
    pub local_ids: Vec<[u32; 3]>,
    /// Push constants.
    pub push_constants: Vec<u32>,
}

impl CsPayload {
    /// Loads the payload into `t`; the dispatch mask covers the channels with a local id.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        let simd = t.simd() as usize;
        if self.local_ids.len() > simd {
            return Err(SimError::new(format!(
                "{} local ids for SIMD{simd}",
                self.local_ids.len()
            )));
        }
        t.set_grf(0, 1, &[self.workgroup_id[0]])?;
        t.set_grf(0, 6, &[self.workgroup_id[1], self.workgroup_id[2]])?;
        let groups = simd.div_ceil(8) as u32;
        for (c, id) in self.local_ids.iter().enumerate() {
            for (k, v) in id.iter().enumerate() {
                let reg = 1 + (c / 8) as u32 * 3 + k as u32;
                t.set_grf(reg, (c % 8) as u32, &[*v])?;
            }
        }
        let mask = if self.local_ids.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.local_ids.len()) - 1
        };
        t.set_dispatch_mask(mask);
        let push = 1 + 3 * groups;
        t.set_grf(push, 0, &self.push_constants)?;
        let end = push + regs_for_dwords(self.push_constants.len());
        Ok(Layout {
            barycentric: None,
            push_constants: push,
            attributes: end,
            end,
        })
    }
}

/// A compute thread as the hardware dispatches it from a CURBE: the header (workgroup id),
/// then from g1 the bytes the thread reads (the workgroup's cross-thread block followed by the
/// thread's own block, 32 bytes per register), with the first `channels` channels enabled.
#[derive(Debug, Clone, Default)]
pub struct CsCurbePayload {
    /// Workgroup id.
    pub workgroup_id: [u32; 3],
    /// The thread's push data: cross-thread block, then its own block.
    pub data: Vec<u8>,
    /// Channels that run (the invocations left in the workgroup, at most the width).
    pub channels: u32,
}

impl CsCurbePayload {
    /// Loads the payload into `t`; the returned layout's `push_constants` is g1 and its
    /// `end` the first register after the data.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        let simd = t.simd();
        if self.channels == 0 || self.channels > simd {
            return Err(SimError::new(format!(
                "{} channels for SIMD{simd}",
                self.channels
            )));
        }
        t.set_grf(0, 1, &[self.workgroup_id[0]])?;
        t.set_grf(0, 6, &[self.workgroup_id[1], self.workgroup_id[2]])?;
        let words: Vec<u32> = self
            .data
            .chunks(4)
            .map(|b| {
                let mut w = [0u8; 4];
                w[..b.len()].copy_from_slice(b);
                u32::from_le_bytes(w)
            })
            .collect();
        t.set_grf(1, 0, &words)?;
        t.set_dispatch_mask(u32::MAX >> (32 - self.channels));
        let end = 1 + regs_for_dwords(words.len());
        Ok(Layout {
            barycentric: None,
            push_constants: 1,
            attributes: end,
            end,
        })
    }
}

/// A vertex-shader thread payload (Gen8+ SIMD8).
#[derive(Debug, Clone, Default)]
pub struct VsPayload {
    /// URB handle of each vertex; the dispatch mask covers exactly these channels.
    pub urb_handles: Vec<u32>,
    /// Push constants.
    pub push_constants: Vec<u32>,
    /// Vertex elements the vertex fetcher pushes: `elements[e][v]` is element e of vertex v.
    pub elements: Vec<Vec<[u32; 4]>>,
}

impl VsPayload {
    /// Loads the payload into a SIMD8 thread and sets its dispatch mask.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        if t.simd() != 8 || self.urb_handles.len() > 8 {
            return Err(SimError::new(format!(
                "vertex payloads are SIMD8 with up to 8 vertices, not SIMD{} with {}",
                t.simd(),
                self.urb_handles.len()
            )));
        }
        t.set_grf(1, 0, &self.urb_handles)?;
        t.set_dispatch_mask((1u32 << self.urb_handles.len()) - 1);
        let push = 2;
        t.set_grf(push, 0, &self.push_constants)?;
        let start = push + regs_for_dwords(self.push_constants.len());
        for (e, per_vertex) in self.elements.iter().enumerate() {
            for (v, comps) in per_vertex.iter().enumerate().take(8) {
                for (c, bits) in comps.iter().enumerate() {
                    t.set_grf(start + 4 * e as u32 + c as u32, v as u32, &[*bits])?;
                }
            }
        }
        let end = start + 4 * self.elements.len() as u32;
        Ok(Layout {
            barycentric: None,
            push_constants: push,
            attributes: start,
            end,
        })
    }
}

/// A Gen7 vertex-shader thread payload (SIMD4x2: one or two vertices, four channels each).
/// A Gen7 geometry thread in dual-object dispatch has the same layout with objects (input
/// primitives) for vertices, their output URB handles in g0, and, when the program includes
/// them, the objects' primitive ids in g1 (dword 4o for object o) ahead of the push
/// constants (Mesa's `vec4_gs_visitor::setup_payload`); its elements are the input
/// vertices' pushed slots, vertex after vertex.
#[derive(Debug, Clone, Default)]
pub struct Vec4VsPayload {
    /// URB handle of each vertex (one or two); a lone vertex leaves channels 4–7 disabled.
    pub urb_handles: Vec<u32>,
    /// A geometry thread's primitive id of each object, when the program reads them.
    pub primitive_ids: Option<Vec<u32>>,
    /// Push constants, in payload order from g1.
    pub push_constants: Vec<u32>,
    /// Vertex elements the vertex fetcher pushes: `elements[e][v]` is element e of vertex v.
    pub elements: Vec<Vec<[u32; 4]>>,
}

impl Vec4VsPayload {
    /// Loads the payload into a thread of eight channels and sets its dispatch mask.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        let vertices = self.urb_handles.len();
        if t.simd() != 8 || !(1..=2).contains(&vertices) {
            return Err(SimError::new(format!(
                "SIMD4x2 vertex payloads are 8 channels with 1 or 2 vertices, not SIMD{} with {}",
                t.simd(),
                vertices
            )));
        }
        t.set_grf(0, 0, &self.urb_handles)?;
        t.set_dispatch_mask(if vertices == 2 { 0xff } else { 0x0f });
        let mut push = 1;
        if let Some(ids) = &self.primitive_ids {
            for (o, id) in ids.iter().enumerate().take(vertices) {
                t.set_grf(1, 4 * o as u32, &[*id])?;
            }
            push += 1;
        }
        t.set_grf(push, 0, &self.push_constants)?;
        let start = push + regs_for_dwords(self.push_constants.len());
        for (e, per_vertex) in self.elements.iter().enumerate() {
            for (v, comps) in per_vertex.iter().enumerate().take(vertices) {
                t.set_grf(start + e as u32, 4 * v as u32, comps)?;
            }
        }
        let end = start + self.elements.len() as u32;
        Ok(Layout {
            barycentric: None,
            push_constants: push,
            attributes: start,
            end,
        })
    }
}
