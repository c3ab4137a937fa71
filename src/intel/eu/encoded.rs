//! Instructions as they sit in a program's bytes ([`Encoded`]: native or compacted), and a
//! whole program in native form. Compaction ([`super::compact`]) builds on both.

use super::error::EuError;
use super::inst::Inst;
use super::native::encode;
use crate::intel::DevInfo;

/// Encodes a whole program into native 16-byte instructions.
pub fn encode_program(devinfo: &DevInfo, insts: &[Inst]) -> Result<Vec<[u8; 16]>, EuError> {
    insts
        .iter()
        .enumerate()
        .map(|(i, inst)| encode(devinfo, inst).map_err(|e| e.at(i, i * 16)))
        .collect()
}

/// One instruction as it sits in a program: 16 native bytes or 8 compacted ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoded {
    /// Native form.
    Native([u8; 16]),
    /// Compacted form.
    Compact([u8; 8]),
}

impl Encoded {
    /// The bytes in memory order.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Encoded::Native(b) => b,
            Encoded::Compact(b) => b,
        }
    }
}
