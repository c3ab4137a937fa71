//! The geometry-shader translation's state (see `gs.rs`), apart so that the translator's
//! state can hold it without importing the translation.

use crate::intel::geometry::GeometryInfo;

use super::super::ir::Reg;

/// What the translation of a geometry shader carries from instruction to instruction.
#[derive(Debug, Clone)]
pub(super) struct GsState {
    pub(super) info: GeometryInfo,
    /// The output URB handles (g1 & 0xffff).
    pub(super) urb_handles: Reg,
    /// First register of the input vertices' URB handles.
    pub(super) icp_start: u32,
    /// The primitive id register (g2), when the payload has it.
    pub(super) primitive_id: Option<Reg>,
    /// Accumulated control-data bits (32 per channel), when there is a header.
    pub(super) control_bits: Option<Reg>,
    /// The vertex count `set_vertex_and_primitive_count` gave.
    pub(super) final_vertex_count: Reg,
    /// Each varying the shader writes, with its four component registers.
    pub(super) outputs: std::collections::BTreeMap<u32, [Reg; 4]>,
    /// `gl_InvocationID`, computed once.
    pub(super) invocation_id: Option<Reg>,
}
