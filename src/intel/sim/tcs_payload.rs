//! The tessellation-control thread payload: Gen8/9 SIMD8 SINGLE_PATCH, in the layout Mesa's
//! `tcs_thread_payload` expects (one patch, output vertex c in channel c), and Gen7's
//! SIMD4x2 one (output vertices `2i` and `2i + 1` of instance `i` in the two halves), the
//! same registers with the instance number in g0.2 bits 22:16 on Ivy Bridge:
//!
//! | register | contents |
//! |---|---|
//! | g0 | thread header: dword 0 = the patch URB entry's handle, dword 1 = the primitive id, dword 2 bits 23:17 = the instance number (Ivy Bridge: bits 22:16; the barrier id, bits 15:12 or 16:13 on Gen7, is 0) |
//! | g1–g4 | the input patch's vertex (ICP) URB handles: dword v of g1 + v / 8 = vertex v's |
//! | next | push constants, 8 dwords per register (the dispatch GRF start) |
//!
//! The hardware dispatches all eight channels of an instance; the program disables those
//! past the output vertex count itself.

use super::payload::Layout;
use super::thread::Thread;
use super::SimError;

/// A TCS thread payload.
#[derive(Debug, Clone, Default)]
pub struct TcsPayload {
    /// The patch URB entry's handle (what the outputs are written to and read from).
    pub patch_handle: u32,
    pub primitive_id: u32,
    /// The instance number (0 for the first eight output vertices).
    pub instance: u32,
    /// URB handle of each input vertex, at most 32.
    pub icp_handles: Vec<u32>,
    pub push_constants: Vec<u32>,
}

impl TcsPayload {
    /// Loads the payload into a SIMD8 thread and enables all eight channels.
    pub fn apply(&self, t: &mut Thread) -> Result<Layout, SimError> {
        if t.simd() != 8 || self.icp_handles.len() > 32 || self.instance > 0x7f {
            return Err(SimError::new(format!(
                "TCS payloads are SIMD8 with at most 32 vertex handles and instance < 128, not \
                 SIMD{} with {} handles and instance {}",
                t.simd(),
                self.icp_handles.len(),
                self.instance
            )));
        }
        let shift = if t.devinfo().ver == 70 { 16 } else { 17 };
        t.set_grf(
            0,
            0,
            &[self.patch_handle, self.primitive_id, self.instance << shift],
        )?;
        for (k, chunk) in self.icp_handles.chunks(8).enumerate() {
            t.set_grf(1 + k as u32, 0, chunk)?;
        }
        t.set_dispatch_mask(0xff);
        let push = 5;
        t.set_grf(push, 0, &self.push_constants)?;
        let end = push + self.push_constants.len().div_ceil(8) as u32;
        Ok(Layout {
            barycentric: None,
            push_constants: push,
            attributes: end,
            end,
        })
    }
}
