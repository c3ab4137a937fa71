//! The common part of every descriptor ([`Lengths`]) and the bit-field helpers the
//! per-function descriptors are written with.

/// Bits `hi..=lo` of `v`.
pub(super) const fn get(v: u32, hi: u32, lo: u32) -> u32 {
    (v >> lo) & mask(hi - lo + 1)
}

/// Bit `at` of `v`.
pub(super) const fn flag(v: u32, at: u32) -> bool {
    get(v, at, at) != 0
}

/// `field` placed at bits `hi..=lo`; debug builds check that it fits, as Mesa's `SET_BITS`
/// asserts.
pub(super) fn set(field: u32, hi: u32, lo: u32) -> u32 {
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
