//! The TES translation's shared URB-read payloads (see `tes.rs`), apart so that the
//! translator's state can hold them without importing the translation.

use super::super::ir::Reg;

/// The payloads of a TES's URB reads, built once where NIR allows it: the patch handle
/// replicated to every channel (made at the top of the program, so it is there for every
/// read), and per NIR block one handle + per-slot offsets pair per offset value, as Mesa's
/// CSE leaves its `LOAD_PAYLOAD`s. A payload is reused only within the block that built it,
/// where it is known to have been written.
#[derive(Debug, Default)]
pub(in crate::intel::fs) struct UrbReadPayloads {
    pub(super) handle: Option<Reg>,
    pub(super) block: u32,
    pub(super) per_slot: std::collections::HashMap<(u32, Reg), Reg>,
}

impl UrbReadPayloads {
    pub(super) fn enter_block(&mut self, block: u32) {
        self.block = block;
    }
}
