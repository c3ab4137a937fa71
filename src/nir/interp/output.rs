//! What an invocation leaves in an output slot: shared by the results of every stage and
//! by the vertices a geometry shader emits.

/// One output slot of one invocation.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputSlot {
    /// The slot's name (`FRAG_RESULT_COLOR`, `VARYING_SLOT_POS`...), when known.
    pub name: String,
    pub bit_size: u8,
    /// Written components (raw bits); None where nothing was written.
    pub comps: [Option<u64>; 8],
}
