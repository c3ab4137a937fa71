//! URB messages (SFID 6; Mesa's `brw_urb_desc`, and `brw_disasm.c` for Gen4–6).

use super::fields::{flag, get, set, Lengths};

/// A URB message descriptor.
///
/// | gen | opcode | global offset | swizzle | other |
/// |---|---|---|---|---|
/// | 4–6 | 3:0 | 9:4 | 11:10 | allocate 13, used 14, complete 15 |
/// | 7 | 2:0 | 13:3 (256-bit rows) | 14 (interleave) | complete 15, per-slot offsets 16 |
/// | 8, 9 | 3:0 | 14:4 (16-byte slots) | 15, except SIMD8 reads/writes | channel masks present 15 (SIMD8 reads/writes), per-slot offsets 17 |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct UrbDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// The URB opcode ([`UrbDesc::WRITE_HWORD`], [`UrbDesc::SIMD8_WRITE`], …).
    pub opcode: u32,
    /// Global offset (units by generation, see the table).
    pub global_offset: u32,
    /// Swizzle (0 none, 1 interleave, 2 transpose; Gen7+ has only interleave).
    pub swizzle: u32,
    /// Gen8+ SIMD8 reads and writes: per-channel masks follow the handles.
    pub channel_mask_present: bool,
    /// Gen7+: per-slot offsets follow the handles.
    pub per_slot_offset: bool,
    /// Gen4–7: the last write of the entry.
    pub complete: bool,
    /// Gen4–6: allocate a new entry.
    pub allocate: bool,
    /// Gen4–6: the entry is used.
    pub used: bool,
}

impl UrbDesc {
    /// HWord write (`BRW_URB_OPCODE_WRITE_HWORD`).
    pub const WRITE_HWORD: u32 = 0;
    /// OWord write (`BRW_URB_OPCODE_WRITE_OWORD`): one 128-bit slot per object.
    pub const WRITE_OWORD: u32 = 1;
    /// HWord read, Gen7+ (`BRW_URB_OPCODE_READ_HWORD`).
    pub const READ_HWORD: u32 = 2;
    /// OWord read, Gen7+ (`BRW_URB_OPCODE_READ_OWORD`).
    pub const READ_OWORD: u32 = 3;
    /// Gen8 SIMD8 write (`GFX8_URB_OPCODE_SIMD8_WRITE`).
    pub const SIMD8_WRITE: u32 = 7;
    /// Gen8 SIMD8 read (`GFX8_URB_OPCODE_SIMD8_READ`).
    pub const SIMD8_READ: u32 = 8;
    /// Interleaved swizzle (`BRW_URB_SWIZZLE_INTERLEAVE`).
    pub const SWIZZLE_INTERLEAVE: u32 = 1;

    /// Whether the message only reads the URB (Gen8's SIMD8 read, the Gen7+ HWord and OWord
    /// reads) rather than writing it, updating it atomically or synchronising with the fixed
    /// function. Gen4–6 have no read opcode.
    pub fn reads(&self) -> bool {
        matches!(
            self.opcode,
            Self::SIMD8_READ | Self::READ_HWORD | Self::READ_OWORD
        )
    }

    /// Whether opcode `op` on `ver` uses bit 15 for channel masks rather than the swizzle.
    fn masked_opcode(ver: u32, op: u32) -> bool {
        ver >= 80 && (op == Self::SIMD8_WRITE || op == Self::SIMD8_READ)
    }

    /// The descriptor on generation `ver`.
    pub fn encode(&self, ver: u32) -> u32 {
        let d = self.len.encode(ver);
        d | if ver >= 80 {
            let bit15 = if Self::masked_opcode(ver, self.opcode) {
                debug_assert_eq!(self.swizzle, 0);
                self.channel_mask_present as u32
            } else {
                debug_assert!(!self.channel_mask_present);
                self.swizzle
            };
            set(self.opcode, 3, 0)
                | set(self.global_offset, 14, 4)
                | set(bit15, 15, 15)
                | set(self.per_slot_offset as u32, 17, 17)
        } else if ver >= 70 {
            set(self.opcode, 2, 0)
                | set(self.global_offset, 13, 3)
                | set(self.swizzle, 14, 14)
                | set(self.complete as u32, 15, 15)
                | set(self.per_slot_offset as u32, 16, 16)
        } else {
            set(self.opcode, 3, 0)
                | set(self.global_offset, 9, 4)
                | set(self.swizzle, 11, 10)
                | set(self.allocate as u32, 13, 13)
                | set(self.used as u32, 14, 14)
                | set(self.complete as u32, 15, 15)
        }
    }

    /// The fields of `desc` on generation `ver`.
    pub fn decode(ver: u32, desc: u32) -> UrbDesc {
        let len = Lengths::decode(ver, desc);
        if ver >= 80 {
            let opcode = get(desc, 3, 0);
            let masked = Self::masked_opcode(ver, opcode);
            UrbDesc {
                len,
                opcode,
                global_offset: get(desc, 14, 4),
                swizzle: if masked { 0 } else { get(desc, 15, 15) },
                channel_mask_present: masked && flag(desc, 15),
                per_slot_offset: flag(desc, 17),
                ..UrbDesc::default()
            }
        } else if ver >= 70 {
            UrbDesc {
                len,
                opcode: get(desc, 2, 0),
                global_offset: get(desc, 13, 3),
                swizzle: get(desc, 14, 14),
                complete: flag(desc, 15),
                per_slot_offset: flag(desc, 16),
                ..UrbDesc::default()
            }
        } else {
            UrbDesc {
                len,
                opcode: get(desc, 3, 0),
                global_offset: get(desc, 9, 4),
                swizzle: get(desc, 11, 10),
                allocate: flag(desc, 13),
                used: flag(desc, 14),
                complete: flag(desc, 15),
                ..UrbDesc::default()
            }
        }
    }
}
