//! The Gen8 SIMD8 URB read message (URB opcode 8, Mesa's `GFX8_URB_OPCODE_SIMD8_READ`, as its
//! `lower_urb_read_logical_send` builds it): what tessellation and geometry threads read their
//! input entries with.
//!
//! Payload: a header register of per-channel URB handles (dword c = channel c's entry) and,
//! when descriptor bit 17 says per-slot offsets are present, a second register of per-channel
//! offsets in 16-byte slots added to the descriptor's global offset (bits 14:4). The reply is
//! `rlen` registers: register k holds, for each enabled channel, dword `4 · slot + k` of that
//! channel's entry. Disabled channels leave their reply dwords as they were.

use super::send::Msg;
use super::shared::SharedFunctions;
use super::thread::Thread;
use crate::intel::msg::UrbDesc;

impl Thread {
    pub(super) fn urb_simd8_read(
        &mut self,
        m: &Msg,
        shared: &mut dyn SharedFunctions,
    ) -> Result<(), String> {
        let ver = self.devinfo.ver;
        let urb = UrbDesc::decode(ver, m.desc);
        let per_slot = urb.per_slot_offset;
        if !m.header || m.n != 8 || urb.channel_mask_present {
            return Err(format!("unsupported: {}", m.unknown(ver)));
        }
        if m.mlen != 1 + per_slot as usize {
            return Err(format!(
                "URB read with mlen {} (the header{} only): {}",
                m.mlen,
                if per_slot {
                    " and per-slot offsets"
                } else {
                    ""
                },
                m.unknown(ver)
            ));
        }
        let dst = m.dst.ok_or("URB read without a response register")?;
        if !(1..=8).contains(&m.rlen) {
            return Err(format!(
                "URB read of {} registers (1 to 8 are allowed): {}",
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
}
