//! Instruction compaction (Gen6+): placeholder until the tables land.

use super::{Encoded, EuError, Inst};
use crate::intel::DevInfo;

/// Compacts a native instruction when the generation's tables allow it.
pub fn compact(_devinfo: &DevInfo, _native: &[u8; 16]) -> Option<[u8; 8]> {
    None
}

/// Expands a compacted instruction to its native form.
pub fn uncompact(_devinfo: &DevInfo, _c: &[u8; 8]) -> Result<[u8; 16], EuError> {
    Err(EuError::new("compaction is not supported yet"))
}

pub(crate) fn compact_program(devinfo: &DevInfo, insts: &[Inst]) -> Result<Vec<Encoded>, EuError> {
    Ok(super::encode_program(devinfo, insts)?
        .into_iter()
        .map(Encoded::Native)
        .collect())
}
