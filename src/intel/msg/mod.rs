//! Message descriptors of SEND: the one place that knows where each field of a descriptor
//! sits on each generation.
//!
//! A SEND names a shared function (its SFID) and carries a 32-bit descriptor: a common part
//! ([`Lengths`]: message length, response length, header present) and function-control bits
//! whose layout depends on the shared function and moved between Gen4 and Gen9. Each shared
//! function has a typed descriptor here with `encode(ver)` and `decode(ver, desc)`, where
//! `ver` is [`DevInfo::ver`](crate::intel::DevInfo::ver) (generation ×10). Code generation
//! builds descriptors with them, and the simulator, the disassembler, the validator and the
//! performance model read them back through them, so a bit position is written once.
//!
//! The layouts are Mesa 23.3's (`brw_eu.h` descriptor helpers, `brw_inst.h` function-control
//! fields, `brw_eu_defines.h` message numbers, `brw_disasm.c`); the submodules say which
//! message each holds. Decoding never fails: a field keeps whatever bits the descriptor has,
//! so the disassembler can print a descriptor no backend would build. Encoding asserts (in
//! debug builds) that every field fits its bits.

mod dataport;
mod misc;
mod render;
mod sampler;
mod scratch;
mod urb;

#[cfg(test)]
mod tests;

pub use dataport::{
    a64_oword_block_read, a64_untyped_read, dc, dword_scattered, fence, oword_block,
    oword_block_dwords_code, oword_block_size, untyped_atomic, untyped_surface, DataPortDesc,
    DpControl, Gen4DpReadDesc, Gen4DpWriteDesc, OwordBlock,
};
pub use misc::{
    ex_mlen, split_dword3, with_dword3, GatewayDesc, MathDesc, PixelInterpDesc, SpawnerDesc,
};
pub use render::{RenderTargetWriteDesc, RtSubtype};
pub use sampler::{SamplerDesc, SamplerMsg, SimdMode};
pub use scratch::ScratchDesc;
pub use urb::UrbDesc;

/// Bits `hi..=lo` of `v`.
const fn get(v: u32, hi: u32, lo: u32) -> u32 {
    (v >> lo) & mask(hi - lo + 1)
}

/// Bit `at` of `v`.
const fn flag(v: u32, at: u32) -> bool {
    get(v, at, at) != 0
}

/// `field` placed at bits `hi..=lo`; debug builds check that it fits, as Mesa's `SET_BITS`
/// asserts.
fn set(field: u32, hi: u32, lo: u32) -> u32 {
    debug_assert!(
        field <= mask(hi - lo + 1),
        "descriptor field {field:#x} does not fit bits {hi}:{lo}"
    );
    (field & mask(hi - lo + 1)) << lo
}

const fn mask(width: u32) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    }
}

/// The part of every descriptor that is not function control (Mesa's `brw_message_desc`):
/// the payload and reply sizes in registers and, from Gen5, whether the payload starts with
/// a header. Gen4 keeps the lengths lower (23:20, 19:16) and has no header bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Lengths {
    /// Message (payload) length in registers.
    pub mlen: u32,
    /// Response length in registers.
    pub rlen: u32,
    /// The payload starts with a header (Gen5+).
    pub header: bool,
}

impl Lengths {
    /// Lengths `mlen` and `rlen` with or without a header.
    pub fn new(mlen: u32, rlen: u32, header: bool) -> Lengths {
        Lengths { mlen, rlen, header }
    }

    /// The common bits on generation `ver`.
    pub fn encode(&self, ver: u32) -> u32 {
        if ver >= 50 {
            set(self.mlen, 28, 25) | set(self.rlen, 24, 20) | set(self.header as u32, 19, 19)
        } else {
            debug_assert!(!self.header, "Gen4 descriptors have no header bit");
            set(self.mlen, 23, 20) | set(self.rlen, 19, 16)
        }
    }

    /// The common bits of `desc` on generation `ver`.
    pub fn decode(ver: u32, desc: u32) -> Lengths {
        if ver >= 50 {
            Lengths {
                mlen: get(desc, 28, 25),
                rlen: get(desc, 24, 20),
                header: flag(desc, 19),
            }
        } else {
            Lengths {
                mlen: get(desc, 23, 20),
                rlen: get(desc, 19, 16),
                header: false,
            }
        }
    }
}
