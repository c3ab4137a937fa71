//! What a driver needs to run a tessellation-evaluation shader: Mesa's `brw_tes_prog_data`
//! (and the `brw_vue_prog_data` it extends), as iris reads it for 3DSTATE_TE and 3DSTATE_DS.
//! Shared by the scalar backend (Gen8+, SIMD8) and, later, the Gen7 vec4 one.

use crate::intel::vue::VueMap;

/// The tessellator's domain (Mesa's `brw_tess_domain`, the 3DSTATE_TE encoding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TessDomainKind {
    /// `BRW_TESS_DOMAIN_QUAD` (0).
    #[default]
    Quad = 0,
    /// `BRW_TESS_DOMAIN_TRI` (1).
    Tri = 1,
    /// `BRW_TESS_DOMAIN_ISOLINE` (2).
    Isoline = 2,
}

/// Spacing of the subdivisions (Mesa's `brw_tess_partitioning`: GL's spacing minus one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TessPartitioning {
    /// `BRW_TESS_PARTITIONING_INTEGER` (0): `equal_spacing`.
    #[default]
    Integer = 0,
    /// `BRW_TESS_PARTITIONING_ODD_FRACTIONAL` (1).
    OddFractional = 1,
    /// `BRW_TESS_PARTITIONING_EVEN_FRACTIONAL` (2).
    EvenFractional = 2,
}

/// The primitives the tessellator emits (Mesa's `brw_tess_output_topology`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TessOutputTopology {
    /// `BRW_TESS_OUTPUT_TOPOLOGY_POINT` (0): `point_mode`.
    #[default]
    Point = 0,
    /// `BRW_TESS_OUTPUT_TOPOLOGY_LINE` (1): isolines.
    Line = 1,
    /// `BRW_TESS_OUTPUT_TOPOLOGY_TRI_CW` (2): GL's counter-clockwise, as the hardware's
    /// winding is the reverse of GL's.
    TriCw = 2,
    /// `BRW_TESS_OUTPUT_TOPOLOGY_TRI_CCW` (3): GL's clockwise.
    TriCcw = 3,
}

/// Gen8+ scalar TES: the patch URB entry's slots that can be pushed (Mesa pushes the inputs
/// of the first 32 vec4 slots, 16 registers; later ones are read with URB read messages).
pub const TES_MAX_PUSH_SLOTS: u32 = 32;

/// The facts of a compiled tessellation-evaluation shader.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TessEvalInfo {
    /// The output VUE layout (`brw_vue_prog_data::vue_map`).
    pub vue_map: VueMap,
    /// Registers of the patch URB entry pushed into the payload, two vec4 slots each, from
    /// slot 0 (`urb_read_length`: 3DSTATE_DS "Patch URB Entry Read Length").
    pub urb_read_length: u32,
    /// The domain (`domain`: 3DSTATE_TE "TE Domain").
    pub domain: TessDomainKind,
    /// The spacing (`partitioning`: 3DSTATE_TE "Partitioning").
    pub partitioning: TessPartitioning,
    /// The output primitives (`output_topology`: 3DSTATE_TE "Output Topology").
    pub output_topology: TessOutputTopology,
    /// The shader reads `gl_PrimitiveID` (`include_primitive_id`: iris sets 3DSTATE_DS
    /// "Primitive ID Not Required" to its negation; the id arrives in g0.1).
    pub include_primitive_id: bool,
    /// `clip_distance_mask`: the low `clip_distance_array_size` bits.
    pub clip_distance_mask: u8,
    /// `cull_distance_mask`: after the clip distances.
    pub cull_distance_mask: u8,
}

impl TessEvalInfo {
    /// 3DSTATE_DS "Patch URB Entry Read Offset": always from the start of the entry.
    pub const URB_READ_OFFSET: u32 = 0;

    /// The output URB entry size in 64-byte units (`urb_entry_size`).
    pub fn urb_entry_size(&self) -> u32 {
        (self.vue_map.num_slots() * 16).div_ceil(64)
    }
}
