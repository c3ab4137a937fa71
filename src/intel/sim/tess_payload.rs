//! The Gen8+ SIMD8 tessellation-evaluation thread payload, in the layout Mesa's
//! `tes_thread_payload` expects (one domain point of one patch per channel):
//!
//! | register | contents |
//! |---|---|
//! | g0 | thread header: dword 0 = the patch URB entry's handle, dword 1 = the primitive id |
//! | g1, g2, g3 | the domain coordinates u, v, w: dword c = channel c's |
//! | g4 | output URB handles, dword c = channel c's entry |
//! | next | push constants, 8 dwords per register (the dispatch GRF start) |
//! | next | the first registers of the patch URB entry: two vec4 slots each, slot 2k in dwords 0–3 and 2k + 1 in 4–7 (3DSTATE_DS "Patch URB Entry Read Length", from offset 0) |

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
