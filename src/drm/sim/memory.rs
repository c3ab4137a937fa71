//! The simulated node's memory, which the ioctls fill and the simulated GPU reads and writes.

use std::collections::BTreeMap;

/// The node's memory: buffer objects by handle, each at the GPU address the node gave it
/// when it was created (used when a submission neither pins nor relocates it elsewhere).
#[derive(Debug, Default)]
pub struct Memory {
    pub bos: BTreeMap<u32, Vec<u8>>,
    pub home: BTreeMap<u32, u64>,
    pub(super) next_handle: u32,
    pub(super) next_address: u64,
}
