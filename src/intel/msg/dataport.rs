//! Data-port messages: the Gen6+ common layout (Mesa's `brw_dp_desc`), the Gen4/5 read and
//! write layouts (`brw_dp_read_desc`, `brw_dp_write_desc`), and the message-control fields
//! of the Gen7+ data-cache messages gpucc sends (`brw_dp_untyped_surface_rw_desc`,
//! `brw_dp_untyped_atomic_desc`, `brw_dp_dword_scattered_rw_desc`,
//! `brw_dp_oword_block_rw_desc`, the A64 variants, and the memory fence).

use super::fields::{flag, get, set, Lengths};
use crate::intel::eu::types::sfid;

/// Data-cache message types (`GFX7_DATAPORT_DC_*`, `HSW_DATAPORT_DC_PORT1_*`,
/// `GFX8_`/`GFX9_DATAPORT_DC_PORT1_A64_*`). Port 0 is SFID 10; port 1 (Haswell+) SFID 12.
pub mod dc {
    /// OWord block read (port 0).
    pub const OWORD_BLOCK_READ: u32 = 0;
    /// Unaligned OWord block read: the offset is in bytes, dword aligned (port 0).
    pub const UNALIGNED_OWORD_BLOCK_READ: u32 = 1;
    /// OWord dual block read (port 0).
    pub const OWORD_DUAL_BLOCK_READ: u32 = 2;
    /// DWord scattered read (port 0).
    pub const DWORD_SCATTERED_READ: u32 = 3;
    /// Ivy Bridge untyped surface read (port 0).
    pub const UNTYPED_SURFACE_READ: u32 = 5;
    /// Ivy Bridge untyped atomic (port 0).
    pub const UNTYPED_ATOMIC: u32 = 6;
    /// Memory fence (port 0, and the render cache).
    pub const MEMORY_FENCE: u32 = 7;
    /// OWord block write (port 0).
    pub const OWORD_BLOCK_WRITE: u32 = 8;
    /// OWord dual block write (port 0).
    pub const OWORD_DUAL_BLOCK_WRITE: u32 = 10;
    /// DWord scattered write (port 0).
    pub const DWORD_SCATTERED_WRITE: u32 = 11;
    /// Ivy Bridge untyped surface write (port 0).
    pub const UNTYPED_SURFACE_WRITE: u32 = 13;
    /// Haswell+ untyped surface read (port 1).
    pub const P1_UNTYPED_SURFACE_READ: u32 = 1;
    /// Haswell+ untyped atomic (port 1).
    pub const P1_UNTYPED_ATOMIC: u32 = 2;
    /// Haswell+ SIMD4x2 untyped atomic (port 1).
    pub const P1_UNTYPED_ATOMIC_SIMD4X2: u32 = 3;
    /// Haswell+ typed atomic (port 1).
    pub const P1_TYPED_ATOMIC: u32 = 6;
    /// Haswell+ SIMD4x2 typed atomic (port 1).
    pub const P1_TYPED_ATOMIC_SIMD4X2: u32 = 7;
    /// Haswell+ untyped surface write (port 1).
    pub const P1_UNTYPED_SURFACE_WRITE: u32 = 9;
    /// Gen8+ A64 untyped surface read (port 1).
    pub const A64_UNTYPED_SURFACE_READ: u32 = 0x11;
    /// Gen9 A64 OWord block read (port 1).
    pub const A64_OWORD_BLOCK_READ: u32 = 0x14;
    /// The stateless binding-table index of A64 messages
    /// (`GFX8_BTI_STATELESS_NON_COHERENT`).
    pub const BTI_STATELESS: u32 = 253;
}

/// A Gen6+ data-port descriptor: binding-table index (7:0), message control and message
/// type. Gen6 has control 12:8, type 16:13 and send-write-commit 17; Gen7 control 13:8,
/// type 17:14; Gen8+ control 13:8, type 18:14. The render cache, the sampler cache, the
/// constant cache and both data-cache ports share it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DataPortDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// Binding-table index (or a stateless / SLM index).
    pub binding_table_index: u32,
    /// Message type (for the data caches, [`dc`]).
    pub msg_type: u32,
    /// Message control; its meaning depends on the type (see the accessors).
    pub msg_control: u32,
    /// Gen6: send write commit.
    pub send_commit: bool,
}

impl DataPortDesc {
    /// A descriptor of `msg_type` with `msg_control`.
    pub fn new(len: Lengths, binding_table_index: u32, msg_type: u32, msg_control: u32) -> Self {
        DataPortDesc {
            len,
            binding_table_index,
            msg_type,
            msg_control,
            send_commit: false,
        }
    }

    /// The descriptor on generation `ver` (6 or later).
    pub fn encode(&self, ver: u32) -> u32 {
        debug_assert!(
            ver >= 60,
            "Gen4/5 data-port descriptors have their own layouts"
        );
        let d = self.len.encode(ver) | set(self.binding_table_index, 7, 0);
        d | if ver >= 80 {
            set(self.msg_control, 13, 8) | set(self.msg_type, 18, 14)
        } else if ver >= 70 {
            set(self.msg_control, 13, 8) | set(self.msg_type, 17, 14)
        } else {
            set(self.msg_control, 12, 8)
                | set(self.msg_type, 16, 13)
                | set(self.send_commit as u32, 17, 17)
        }
    }

    /// The fields of `desc` on generation `ver` (6 or later).
    pub fn decode(ver: u32, desc: u32) -> DataPortDesc {
        let (msg_control, msg_type) = if ver >= 80 {
            (get(desc, 13, 8), get(desc, 18, 14))
        } else if ver >= 70 {
            (get(desc, 13, 8), get(desc, 17, 14))
        } else {
            (get(desc, 12, 8), get(desc, 16, 13))
        };
        DataPortDesc {
            len: Lengths::decode(ver, desc),
            binding_table_index: get(desc, 7, 0),
            msg_type,
            msg_control,
            send_commit: ver < 70 && flag(desc, 17),
        }
    }

    /// Untyped surface reads and writes (also A64): disabled channels, bit c for component
    /// c (MDC_CMASK, control 3:0).
    pub fn disabled_channels(&self) -> u32 {
        get(self.msg_control, 3, 0)
    }

    /// Untyped surface reads and writes (also A64): the SIMD mode (MDC_SM3, control 5:4:
    /// 0 = SIMD4x2, 1 = SIMD16, 2 = SIMD8).
    pub fn surface_simd_mode(&self) -> u32 {
        get(self.msg_control, 5, 4)
    }

    /// Untyped surface reads and writes: the channels read or written per address.
    pub fn channels(&self) -> u32 {
        4 - self.disabled_channels().count_ones()
    }

    /// Atomics: the operation (`BRW_AOP_*`, control 3:0).
    pub fn atomic_op(&self) -> u32 {
        get(self.msg_control, 3, 0)
    }

    /// Atomics (and SIMD8/16 messages of the same control layout): SIMD8 (control bit 4).
    pub fn simd8(&self) -> bool {
        flag(self.msg_control, 4)
    }

    /// Atomics: the old value is returned (control bit 5).
    pub fn atomic_returns(&self) -> bool {
        flag(self.msg_control, 5)
    }

    /// OWord block messages: the block-size code (control 2:0, `BRW_DATAPORT_OWORD_BLOCK_*`;
    /// the dual block messages use the same bits).
    pub fn block_size_code(&self) -> u32 {
        get(self.msg_control, 2, 0)
    }

    /// A64 OWord block read: the address need only be dword aligned (control bit 3).
    pub fn a64_unaligned(&self) -> bool {
        flag(self.msg_control, 3)
    }

    /// A64 OWord block read: control bits 5:4, which must be zero.
    pub fn a64_block_reserved(&self) -> u32 {
        get(self.msg_control, 5, 4)
    }

    /// DWord scattered messages: SIMD16 (control bit 0).
    pub fn scattered_simd16(&self) -> bool {
        flag(self.msg_control, 0)
    }

    /// Memory fence: commit enable, a one-register reply (control bit 5).
    pub fn fence_commit(&self) -> bool {
        flag(self.msg_control, 5)
    }
}

/// Message-control constructors of the data-cache messages.
pub struct DpControl;

impl DpControl {
    /// Untyped surface read/write (and A64 untyped) of `channels` components per address,
    /// SIMD16 or SIMD8.
    pub fn untyped(channels: u32, simd16: bool) -> u32 {
        let disabled = (0xf << channels) & 0xf;
        let simd_mode = if simd16 { 1 } else { 2 };
        set(disabled, 3, 0) | set(simd_mode, 5, 4)
    }

    /// Untyped atomic `op` (`BRW_AOP_*`), SIMD8 or SIMD16, returning the old value or not.
    pub fn atomic(op: u32, simd8: bool, returns: bool) -> u32 {
        set(op, 3, 0) | set(simd8 as u32, 4, 4) | set(returns as u32, 5, 5)
    }

    /// Memory fence, with or without the commit reply.
    pub fn fence(commit: bool) -> u32 {
        set(commit as u32, 5, 5)
    }

    /// DWord scattered: legacy SIMD mode (bit 1) and SIMD16 (bit 0).
    pub fn dword_scattered(simd16: bool) -> u32 {
        set(1, 1, 1) | set(simd16 as u32, 0, 0)
    }

    /// OWord block of `dwords` dwords (4, 8, 16 or 32); `unaligned` sets the A64 bit that
    /// allows dword-aligned addresses.
    pub fn oword_block(dwords: u32, unaligned: bool) -> u32 {
        set(unaligned as u32, 3, 3) | set(oword_block_dwords_code(dwords), 2, 0)
    }
}

/// The block-size code of an OWord block message of `dwords` dwords (4, 8, 16 or 32):
/// 0 = one OWord (low half), 2 = two, 3 = four, 4 = eight (`BRW_DATAPORT_OWORD_BLOCK_DWORDS`).
pub fn oword_block_dwords_code(dwords: u32) -> u32 {
    match dwords {
        4 => 0,
        8 => 2,
        16 => 3,
        _ => 4,
    }
}

/// OWords per block and whether a single OWord goes to the high half of the register, from
/// a block-size code (`BRW_DATAPORT_OWORD_BLOCK_*`); `None` for the reserved codes.
pub fn oword_block_size(code: u32) -> Option<(usize, bool)> {
    Some(match code {
        0 => (1, false),
        1 => (1, true),
        2 => (2, false),
        3 => (4, false),
        4 => (8, false),
        _ => return None,
    })
}

/// The OWord block messages of the data cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OwordBlock {
    /// Aligned read: the header's offset counts OWords.
    Read,
    /// Unaligned read: the header's offset counts bytes (dword aligned).
    UnalignedRead,
    /// Write.
    Write,
}

/// An untyped surface read or write on `ver`: the SFID (data cache on Ivy Bridge, data cache
/// 1 from Haswell, with their own type numbers) and the descriptor.
pub fn untyped_surface(
    ver: u32,
    len: Lengths,
    bti: u32,
    write: bool,
    channels: u32,
    simd16: bool,
) -> (u8, DataPortDesc) {
    let (sf, ty) = match (ver >= 75, write) {
        (false, false) => (sfid::DATA_CACHE, dc::UNTYPED_SURFACE_READ),
        (false, true) => (sfid::DATA_CACHE, dc::UNTYPED_SURFACE_WRITE),
        (true, false) => (sfid::DATA_CACHE_1, dc::P1_UNTYPED_SURFACE_READ),
        (true, true) => (sfid::DATA_CACHE_1, dc::P1_UNTYPED_SURFACE_WRITE),
    };
    (
        sf,
        DataPortDesc::new(len, bti, ty, DpControl::untyped(channels, simd16)),
    )
}

/// An untyped atomic on `ver`: the SFID and the descriptor (see [`untyped_surface`]).
pub fn untyped_atomic(
    ver: u32,
    len: Lengths,
    bti: u32,
    op: u32,
    simd8: bool,
    returns: bool,
) -> (u8, DataPortDesc) {
    let (sf, ty) = if ver >= 75 {
        (sfid::DATA_CACHE_1, dc::P1_UNTYPED_ATOMIC)
    } else {
        (sfid::DATA_CACHE, dc::UNTYPED_ATOMIC)
    };
    (
        sf,
        DataPortDesc::new(len, bti, ty, DpControl::atomic(op, simd8, returns)),
    )
}

/// A SIMD4x2 untyped atomic on `ver`, as the vec4 backend sends it in align16: Haswell's
/// own SIMD4x2 message on data cache 1 (x of each half of the payload registers is one
/// vertex's address and operands); Ivy Bridge has none and sends the SIMD8 message, whose
/// channels the destination's write mask (.x) narrows to dwords 0 and 4 (Mesa's
/// `brw_untyped_atomic` in align16).
pub fn untyped_atomic_simd4x2(
    ver: u32,
    len: Lengths,
    bti: u32,
    op: u32,
    returns: bool,
) -> (u8, DataPortDesc) {
    if ver >= 75 {
        (
            sfid::DATA_CACHE_1,
            DataPortDesc::new(
                len,
                bti,
                dc::P1_UNTYPED_ATOMIC_SIMD4X2,
                DpControl::atomic(op, false, returns),
            ),
        )
    } else {
        untyped_atomic(ver, len, bti, op, true, returns)
    }
}

/// A memory fence (type 7 on the data cache and the render cache): the thread header as
/// payload, and with `commit` a one-register reply.
pub fn fence(commit: bool) -> DataPortDesc {
    DataPortDesc::new(
        Lengths::new(1, commit as u32, true),
        0,
        dc::MEMORY_FENCE,
        DpControl::fence(commit),
    )
}

/// A DWord scattered read or write (data cache).
pub fn dword_scattered(len: Lengths, bti: u32, write: bool, simd16: bool) -> DataPortDesc {
    let ty = if write {
        dc::DWORD_SCATTERED_WRITE
    } else {
        dc::DWORD_SCATTERED_READ
    };
    DataPortDesc::new(len, bti, ty, DpControl::dword_scattered(simd16))
}

/// An OWord block message of `dwords` dwords (data cache).
pub fn oword_block(len: Lengths, bti: u32, kind: OwordBlock, dwords: u32) -> DataPortDesc {
    let ty = match kind {
        OwordBlock::Read => dc::OWORD_BLOCK_READ,
        OwordBlock::UnalignedRead => dc::UNALIGNED_OWORD_BLOCK_READ,
        OwordBlock::Write => dc::OWORD_BLOCK_WRITE,
    };
    DataPortDesc::new(len, bti, ty, DpControl::oword_block(dwords, false))
}

/// An A64 untyped surface read of `channels` dwords per channel (Gen8+, data cache 1).
pub fn a64_untyped_read(len: Lengths, channels: u32, simd16: bool) -> DataPortDesc {
    DataPortDesc::new(
        len,
        dc::BTI_STATELESS,
        dc::A64_UNTYPED_SURFACE_READ,
        DpControl::untyped(channels, simd16),
    )
}

/// A Gen9 A64 OWord block read of `dwords` dwords (data cache 1); `unaligned` allows a
/// dword-aligned address.
pub fn a64_oword_block_read(len: Lengths, dwords: u32, unaligned: bool) -> DataPortDesc {
    DataPortDesc::new(
        len,
        dc::BTI_STATELESS,
        dc::A64_OWORD_BLOCK_READ,
        DpControl::oword_block(dwords, unaligned),
    )
}

/// A Gen4/5 data-port read descriptor (Mesa's `brw_dp_read_desc`): binding-table index 7:0,
/// message control 10:8 (Gen4: 11:8), message type 13:11 (Gen4: 13:12), target cache 15:14.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Gen4DpReadDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// Binding-table index.
    pub binding_table_index: u32,
    /// Message control.
    pub msg_control: u32,
    /// Message type.
    pub msg_type: u32,
    /// Target cache.
    pub target_cache: u32,
}

impl Gen4DpReadDesc {
    /// The descriptor on generation `ver` (before 6).
    pub fn encode(&self, ver: u32) -> u32 {
        let d = self.len.encode(ver)
            | set(self.binding_table_index, 7, 0)
            | set(self.target_cache, 15, 14);
        d | if ver >= 45 {
            set(self.msg_control, 10, 8) | set(self.msg_type, 13, 11)
        } else {
            set(self.msg_control, 11, 8) | set(self.msg_type, 13, 12)
        }
    }

    /// The fields of `desc` on generation `ver` (before 6).
    pub fn decode(ver: u32, desc: u32) -> Gen4DpReadDesc {
        let (msg_control, msg_type) = if ver >= 45 {
            (get(desc, 10, 8), get(desc, 13, 11))
        } else {
            (get(desc, 11, 8), get(desc, 13, 12))
        };
        Gen4DpReadDesc {
            len: Lengths::decode(ver, desc),
            binding_table_index: get(desc, 7, 0),
            msg_control,
            msg_type,
            target_cache: get(desc, 15, 14),
        }
    }
}

/// A Gen4/5 data-port write descriptor (Mesa's `brw_dp_write_desc`): binding-table index
/// 7:0, message control 11:8, message type 14:12, send write commit 15.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Gen4DpWriteDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// Binding-table index.
    pub binding_table_index: u32,
    /// Message control.
    pub msg_control: u32,
    /// Message type.
    pub msg_type: u32,
    /// Send write commit.
    pub send_commit: bool,
}

impl Gen4DpWriteDesc {
    /// The descriptor on generation `ver` (before 6).
    pub fn encode(&self, ver: u32) -> u32 {
        self.len.encode(ver)
            | set(self.binding_table_index, 7, 0)
            | set(self.msg_control, 11, 8)
            | set(self.msg_type, 14, 12)
            | set(self.send_commit as u32, 15, 15)
    }

    /// The fields of `desc` on generation `ver` (before 6).
    pub fn decode(ver: u32, desc: u32) -> Gen4DpWriteDesc {
        Gen4DpWriteDesc {
            len: Lengths::decode(ver, desc),
            binding_table_index: get(desc, 7, 0),
            msg_control: get(desc, 11, 8),
            msg_type: get(desc, 14, 12),
            send_commit: flag(desc, 15),
        }
    }
}
