//! Tessellation-evaluation thread payloads.
//!
//! Gen8+ SIMD8 ([`TesPayload`]), in the layout Mesa's `tes_thread_payload` expects (one
//! domain point of one patch per channel):
//!
//! | register | contents |
//! |---|---|
//! | g0 | thread header: dword 0 = the patch URB entry's handle, dword 1 = the primitive id |
//! | g1, g2, g3 | the domain coordinates u, v, w: dword c = channel c's |
//! | g4 | output URB handles, dword c = channel c's entry |
//! | next | push constants, 8 dwords per register (the dispatch GRF start) |
//! | next | the first registers of the patch URB entry: two vec4 slots each, slot 2k in dwords 0–3 and 2k + 1 in 4–7 (3DSTATE_DS "Patch URB Entry Read Length", from offset 0) |

//!
//! Gen7 SIMD4x2 ([`Vec4TesPayload`]), as Mesa's `vec4_tes_visitor` expects it (two domain
//! points of one patch per thread, point 0 in channels 0–3, point 1 in 4–7):
//!
//! | register | contents |
//! |---|---|
//! | g0 | thread header: dword 0 = point 0's output URB handle, dword 1 = point 1's (copied whole into the URB write header, as for a Gen7 vertex shader) |
//! | g1 | point 0's u v w in dwords 0–2, the patch URB entry's handle in dword 3, point 1's u v w in 4–6, the primitive id in 7 |
//! | g2 … | push constants, 8 dwords per register (the dispatch GRF start is 2) |
//! | next | the first registers of the patch URB entry, two vec4 slots each, as for SIMD8 |
//!
//! A thread with one point has channels 4–7 disabled in its dispatch mask.

use super::payload::Layout;
use super::thread::Thread;
use super::SimError;

/// A TES thread payload.
#[derive(Debug, Clone, Default)]
pub struct TesPayload {
    /// The patch URB entry's handle (what URB reads of the inputs address).
    pub patch_handle: u32,
    pub primitive_id: u32,
    /// Domain point of each channel; their number is the dispatch mask.
    pub coords: Vec<[f32; 3]>,
    /// Output URB handle of each channel.
    pub urb_handles: Vec<u32>,
    pub push_constants: Vec<u32>,
    /// The pushed registers of the patch entry, eight dwords each.
    pub patch_regs: Vec<[u32; 8]>,
}

impl TesPayload {
    /// Loads the payload into a SIMD8 thread and sets its dispatch mask.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        let n = self.coords.len();
        if t.simd() != 8 || n == 0 || n > 8 || self.urb_handles.len() != n {
            return Err(SimError::new(format!(
                "TES payloads are SIMD8 with 1 to 8 points and a handle each, not SIMD{} with \
                 {n} points and {} handles",
                t.simd(),
                self.urb_handles.len()
            )));
        }
        t.set_grf(0, 0, &[self.patch_handle, self.primitive_id])?;
        for (c, p) in self.coords.iter().enumerate() {
            for (k, &v) in p.iter().enumerate() {
                t.set_grf_f32(1 + k as u32, c as u32, &[v])?;
            }
        }
        t.set_grf(4, 0, &self.urb_handles)?;
        t.set_dispatch_mask((1u32 << n) - 1);
        let push = 5;
        t.set_grf(push, 0, &self.push_constants)?;
        let start = push + self.push_constants.len().div_ceil(8) as u32;
        for (k, reg) in self.patch_regs.iter().enumerate() {
            t.set_grf(start + k as u32, 0, reg)?;
        }
        Ok(Layout {
            barycentric: None,
            push_constants: push,
            attributes: start,
            end: start + self.patch_regs.len() as u32,
        })
    }
}

/// A Gen7 SIMD4x2 TES thread payload (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct Vec4TesPayload {
    /// The patch URB entry's handle.
    pub patch_handle: u32,
    pub primitive_id: u32,
    /// Domain point of each of the one or two points.
    pub coords: Vec<[f32; 3]>,
    /// Output URB handle of each point.
    pub urb_handles: Vec<u32>,
    pub push_constants: Vec<u32>,
    /// The pushed registers of the patch entry, eight dwords each.
    pub patch_regs: Vec<[u32; 8]>,
}

impl Vec4TesPayload {
    /// Loads the payload into a thread of eight channels and sets its dispatch mask.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        let n = self.coords.len();
        if t.simd() != 8 || !(1..=2).contains(&n) || self.urb_handles.len() != n {
            return Err(SimError::new(format!(
                "SIMD4x2 TES payloads are 8 channels with 1 or 2 points and a handle each, not \
                 SIMD{} with {n} points and {} handles",
                t.simd(),
                self.urb_handles.len()
            )));
        }
        t.set_grf(0, 0, &self.urb_handles)?;
        for (p, c) in self.coords.iter().enumerate() {
            t.set_grf_f32(1, 4 * p as u32, c)?;
        }
        t.set_grf(1, 3, &[self.patch_handle])?;
        t.set_grf(1, 7, &[self.primitive_id])?;
        t.set_dispatch_mask(if n == 2 { 0xff } else { 0x0f });
        let push = 2;
        t.set_grf(push, 0, &self.push_constants)?;
        let start = push + self.push_constants.len().div_ceil(8) as u32;
        for (k, reg) in self.patch_regs.iter().enumerate() {
            t.set_grf(start + k as u32, 0, reg)?;
        }
        Ok(Layout {
            barycentric: None,
            push_constants: push,
            attributes: start,
            end: start + self.patch_regs.len() as u32,
        })
    }
}
