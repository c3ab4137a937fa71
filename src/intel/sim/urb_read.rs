//! URB reads: how a thread pulls the inputs that were not pushed into its payload.
//!
//! Gen8 SIMD8 reads (message type 8, `GFX8_URB_OPCODE_SIMD8_READ`), as a scalar geometry
//! (or tessellation) thread sends them:
//!
//! Payload: the header register holds each channel's URB handle (dword c = channel c's
//! entry); with bit 17 set, a second register holds per-channel offsets in 16-byte slots,
//! added to the descriptor's global offset (bits 14:4). The response is `rlen` registers:
//! register k holds, for each enabled channel, dword `4 · offset + k` of that channel's
//! entry (so four registers are one slot's x, y, z, w; eight are two slots).

//!
//! Gen7 SIMD4x2 reads (OWord read, opcode 3, interleaved), as a vec4 tessellation-evaluation
//! thread sends them: one header register, dwords 0 and 1 the two objects' URB handles and,
//! with per-slot offsets (bit 16), dwords 3 and 4 their offsets in 128-bit slots, added to
//! the descriptor's global offset (bits 13:3, 128-bit slots). The one reply register holds
//! object 0's slot in dwords 0–3 and object 1's in 4–7; an object with none of its four
//! channels enabled reads nothing. The same read marked complete with no reply releases
//! entries instead (header dwords 0 and 1 interleaved, dword 0 alone otherwise).

use super::send::Msg;
use super::shared::SharedFunctions;
use super::thread::Thread;
use crate::intel::msg::UrbDesc;

impl Thread {
    /// A SIMD8 URB read (see the module documentation).
    pub(super) fn urb_simd8_read(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo().ver;
        let urb = UrbDesc::decode(ver, m.desc);
        let per_slot = urb.per_slot_offset;
        if !m.header || m.n != 8 || urb.channel_mask_present {
            return Err(format!("unsupported: {}", m.unknown(ver)));
        }
        if m.mlen != 1 + per_slot as usize {
            return Err(format!(
                "URB read of {} payload registers (the handles{} only): {}",
                m.mlen,
                if per_slot { " and offsets" } else { "" },
                m.unknown(ver)
            ));
        }
        let dst = m
            .dst
            .ok_or_else(|| format!("URB read without a GRF response: {}", m.unknown(ver)))?;
        if !(1..=8).contains(&m.rlen) {
            return Err(format!(
                "URB read of {} response registers (1 to 8): {}",
                m.rlen,
                m.unknown(ver)
            ));
        }
        for c in 0..8 {
            if m.mask & 1 << c == 0 {
                continue;
            }
            let handle = self.grf_dword(m.payload, c)?;
            let mut at = urb.global_offset * 4;
            if per_slot {
                at = at.wrapping_add(4 * self.grf_dword(m.payload + 1, c)?);
            }
            for k in 0..m.rlen {
                let v = shared.urb_read(handle, at.wrapping_add(k as u32))?;
                self.set_grf_dword(dst + k, c, v)?;
            }
        }
        Ok(())
    }

    /// A Gen7 SIMD4x2 URB read (see the module documentation).
    pub(super) fn urb_simd4x2_read(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo().ver;
        let urb = UrbDesc::decode(ver, m.desc);
        if urb.complete && m.rlen == 0 && m.header && m.mlen == 1 && m.n == 8 {
            // A read marked complete without a reply releases the entries it names (a
            // Gen7 TCS's input vertices, Mesa's `TCS_OPCODE_RELEASE_INPUT`): nothing is
            // read. Interleaved, header dwords 0 and 1 name two entries; otherwise dword 0
            // names one.
            let named = if urb.swizzle == UrbDesc::SWIZZLE_INTERLEAVE {
                2
            } else {
                1
            };
            for k in 0..named {
                shared.urb_release(self.grf_dword(m.payload, k)?)?;
            }
            return Ok(());
        }
        if !m.header || m.n != 8 || m.mlen != 1 || m.rlen != 1 {
            return Err(format!(
                "Gen7 URB read other than a header-only message with one reply register: {}",
                m.unknown(ver)
            ));
        }
        if urb.swizzle != UrbDesc::SWIZZLE_INTERLEAVE {
            return Err(format!(
                "unsupported: {} (Gen7 URB reads other than interleaved)",
                m.unknown(ver)
            ));
        }
        let dst = m
            .dst
            .ok_or_else(|| format!("URB read without a GRF response: {}", m.unknown(ver)))?;
        for v in 0..2usize {
            if m.mask >> (4 * v) & 0xf == 0 {
                continue;
            }
            let handle = self.grf_dword(m.payload, v)?;
            let mut slot = urb.global_offset;
            if urb.per_slot_offset {
                slot = slot.wrapping_add(self.grf_dword(m.payload, 3 + v)?);
            }
            for c in 0..4u32 {
                let value = shared.urb_read(handle, slot.wrapping_mul(4).wrapping_add(c))?;
                self.set_grf_dword(dst, 4 * v + c as usize, value)?;
            }
        }
        Ok(())
    }
}
