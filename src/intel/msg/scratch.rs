//! Scratch block reads and writes (Gen7+ data cache, SFID 10, category bit 18; Mesa's
//! `gfx7_set_dp_scratch_message`).

use super::fields::{flag, get, set, Lengths};
use crate::intel::eu::types::sfid;

/// A scratch block read or write: category 18 (set: scratch rather than a data-cache
/// message type), write 17, DWord rather than HWord blocks 16, invalidate after read 15,
/// block size 13:12 (Gen7: registers − 1; Gen8+: log2 of the registers), and the offset
/// into the thread's scratch space in registers (HWords) in 11:0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ScratchDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// A write (the data follows the header).
    pub write: bool,
    /// DWord rather than HWord blocks.
    pub dword: bool,
    /// Invalidate after read.
    pub invalidate_after_read: bool,
    /// Registers read or written: 1, 2 or 4 (Gen8+ also 8).
    pub regs: u32,
    /// Offset in registers.
    pub offset: u32,
}

impl ScratchDesc {
    /// The highest offset the 12-bit field holds.
    pub const MAX_OFFSET: u32 = 0xfff;

    /// A read of `regs` registers at register `offset` (the header alone as payload).
    pub fn read(regs: u32, offset: u32) -> ScratchDesc {
        ScratchDesc {
            len: Lengths::new(1, regs, true),
            write: false,
            dword: false,
            invalidate_after_read: false,
            regs,
            offset,
        }
    }

    /// A write of `regs` registers at register `offset` (header, then the data).
    pub fn write(regs: u32, offset: u32) -> ScratchDesc {
        ScratchDesc {
            len: Lengths::new(1 + regs, 0, true),
            write: true,
            ..ScratchDesc::read(regs, offset)
        }
    }

    /// Whether `desc`, sent to `sf` on generation `ver`, is a scratch block message.
    pub fn is_scratch(ver: u32, sf: u8, desc: u32) -> bool {
        ver >= 70 && sf == sfid::DATA_CACHE && flag(desc, 18)
    }

    /// The descriptor on generation `ver` (7 or later).
    pub fn encode(&self, ver: u32) -> u32 {
        let block = if ver >= 80 {
            self.regs.max(1).ilog2()
        } else {
            self.regs.saturating_sub(1)
        };
        self.len.encode(ver)
            | set(1, 18, 18)
            | set(self.write as u32, 17, 17)
            | set(self.dword as u32, 16, 16)
            | set(self.invalidate_after_read as u32, 15, 15)
            | set(block, 13, 12)
            | set(self.offset, 11, 0)
    }

    /// The fields of `desc` read as a scratch message on generation `ver` (7 or later).
    pub fn decode(ver: u32, desc: u32) -> ScratchDesc {
        let block = get(desc, 13, 12);
        ScratchDesc {
            len: Lengths::decode(ver, desc),
            write: flag(desc, 17),
            dword: flag(desc, 16),
            invalidate_after_read: flag(desc, 15),
            regs: if ver >= 80 { 1 << block } else { block + 1 },
            offset: get(desc, 11, 0),
        }
    }
}
