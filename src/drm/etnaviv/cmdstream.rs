//! The Vivante front-end command stream: LOAD_STATE packets and the 64-bit alignment rule.
//!
//! Facts (Mesa's hw/cmdstream.xml.h, libdrm's etna_cmd_stream, the kernel's
//! etnaviv_cmd_parser.c): a LOAD_STATE header is opcode 1 in bits 31:27, FIXP in bit 26, the
//! value count in bits 25:16 and the state address divided by four in bits 15:0; the values
//! follow. The front end fetches 64 bits at a time, so every packet is padded to an even
//! number of dwords.

/// `LOAD_STATE` opcode in bits 31:27.
pub const OP_LOAD_STATE: u32 = 1 << 27;
/// `END` opcode.
pub const OP_END: u32 = 2 << 27;
/// `NOP` opcode.
pub const OP_NOP: u32 = 3 << 27;
/// Values are 16.16 fixed point converted by the front end.
pub const FIXP: u32 = 1 << 26;
/// Largest count of one LOAD_STATE (the 10-bit field; 0 would mean 1024 and is avoided).
pub const MAX_COUNT: usize = 1023;

/// A LOAD_STATE header for `count` values starting at byte address `address`.
pub const fn load_state_header(address: u32, count: u32, fixp: bool) -> u32 {
    OP_LOAD_STATE
        | if fixp { FIXP } else { 0 }
        | ((count & 0x3ff) << 16)
        | ((address >> 2) & 0xffff)
}

/// A value in the stream that holds a buffer address, for GEM_SUBMIT's relocation list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// Byte offset of the address value in the stream.
    pub submit_offset: u32,
    /// Index of the buffer in the submit's bo list.
    pub bo_index: u32,
    /// Offset added to the buffer's address.
    pub bo_offset: u64,
}

/// A command stream under construction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CmdStream {
    words: Vec<u32>,
    relocs: Vec<Reloc>,
}

impl CmdStream {
    pub fn new() -> CmdStream {
        CmdStream::default()
    }

    pub fn words(&self) -> &[u32] {
        &self.words
    }

    pub fn relocs(&self) -> &[Reloc] {
        &self.relocs
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn pad(&mut self) {
        if self.words.len() % 2 == 1 {
            self.words.push(0);
        }
    }

    /// One state.
    pub fn set_state(&mut self, address: u32, value: u32) {
        self.words.push(load_state_header(address, 1, false));
        self.words.push(value);
    }

    /// Consecutive states from `address`, split into packets of at most [`MAX_COUNT`].
    pub fn set_states(&mut self, address: u32, values: &[u32]) {
        for (i, chunk) in values.chunks(MAX_COUNT).enumerate() {
            let at = address + (i * MAX_COUNT * 4) as u32;
            self.words
                .push(load_state_header(at, chunk.len() as u32, false));
            self.words.extend_from_slice(chunk);
            self.pad();
        }
    }

    /// One state holding the address of `bo_offset` in buffer `bo_index`; the value written
    /// is the presumed address, and a relocation lets the kernel patch it.
    pub fn set_state_reloc(&mut self, address: u32, bo_index: u32, bo_offset: u64, presumed: u64) {
        self.words.push(load_state_header(address, 1, false));
        self.relocs.push(Reloc {
            submit_offset: (self.words.len() * 4) as u32,
            bo_index,
            bo_offset,
        });
        self.words.push((presumed + bo_offset) as u32);
    }

    /// `END`: stops the front end (the kernel appends its own link/wait, but a stream that
    /// stands alone must end).
    pub fn end(&mut self) {
        self.words.push(OP_END);
        self.words.push(0);
    }

    pub fn nop(&mut self) {
        self.words.push(OP_NOP);
        self.words.push(0);
    }
}
