//! What translation keeps of a tessellation-control shader (see `tcs.rs`), apart from the
//! translator so that the translator's state can hold it.

use crate::intel::tcs::TessCtrlInfo;

/// Registers of the TCS payload before the push constants: g0 and the ICP handles g1–g4.
pub const TCS_PAYLOAD_REGS: u32 = 5;

/// A TCS's facts and the register of its invocation ids.
#[derive(Debug, Clone)]
pub struct TcsState {
    /// The facts (patch entry layout, instances).
    pub info: TessCtrlInfo,
    /// The register whose x holds each half's invocation id.
    pub invocation: u32,
}
