//! What a driver needs to run a tessellation-control shader: Mesa's `brw_tcs_prog_data` (and
//! the `brw_vue_prog_data` it extends), as iris reads it for 3DSTATE_HS and the URB setup.
//! Gen8/9 only run the scalar SINGLE_PATCH dispatch: one patch per thread, one output vertex
//! per channel, `instances` threads per patch.

/// Mesa's `VARYING_SLOT_TESS_LEVEL_OUTER` / `_INNER` and `VARYING_SLOT_PATCH0`.
pub const VARYING_SLOT_TESS_LEVEL_OUTER: u32 = 26;
pub const VARYING_SLOT_TESS_LEVEL_INNER: u32 = 27;
pub const VARYING_SLOT_PATCH0: u32 = 64;

/// How the hardware dispatches TCS threads (Mesa's `DISPATCH_MODE_TCS_*`, 3DSTATE_HS
/// "Dispatch Mode").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TcsDispatchMode {
    /// `DISPATCH_MODE_TCS_SINGLE_PATCH` (0): what Gen8/9 use, and what Mesa records for
    /// Gen7's vec4 TCS too (Gen7's 3DSTATE_HS has no dispatch mode: its threads are SIMD4x2,
    /// two output vertices each).
    #[default]
    SinglePatch = 0,
    /// `DISPATCH_MODE_TCS_MULTI_PATCH` (2): Gen12+, not built.
    MultiPatch = 2,
}

/// The patch URB entry's layout (`brw_compute_tess_vue_map`): the two header slots (inner
/// then outer tess levels, laid out within the eight header dwords as the domain wants),
/// the patch varyings, then each output vertex's varyings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TessVueMap {
    /// Varying per slot of the patch part then of one vertex (`slot_to_varying`):
    /// `VARYING_SLOT_*`, patch varyings as `VARYING_SLOT_PATCH0 + n`.
    pub slots: Vec<u32>,
    /// Slots before the first vertex, header included (`num_per_patch_slots`).
    pub num_per_patch_slots: u32,
    /// Slots of each vertex (`num_per_vertex_slots`).
    pub num_per_vertex_slots: u32,
}

impl TessVueMap {
    /// The layout for the per-vertex varyings `vertex_slots` and the patch varyings
    /// `patch_slots` (bit n: `VARYING_SLOT_PATCH0 + n`) a TCS writes.
    pub fn new(vertex_slots: u64, patch_slots: u32) -> TessVueMap {
        let mut slots = vec![VARYING_SLOT_TESS_LEVEL_INNER, VARYING_SLOT_TESS_LEVEL_OUTER];
        slots.extend(
            (0..32)
                .filter(|b| patch_slots >> b & 1 != 0)
                .map(|b| VARYING_SLOT_PATCH0 + b),
        );
        let num_per_patch_slots = slots.len() as u32;
        let levels = 1u64 << VARYING_SLOT_TESS_LEVEL_OUTER | 1u64 << VARYING_SLOT_TESS_LEVEL_INNER;
        let vertex = vertex_slots & !levels;
        slots.extend((0..64).filter(|b| vertex >> b & 1 != 0));
        let num_per_vertex_slots = slots.len() as u32 - num_per_patch_slots;
        TessVueMap {
            slots,
            num_per_patch_slots,
            num_per_vertex_slots,
        }
    }

    /// Slots of the whole entry for `vertices` output vertices.
    pub fn entry_slots(&self, vertices: u32) -> u32 {
        self.num_per_patch_slots + vertices * self.num_per_vertex_slots
    }
}

/// The facts of a compiled tessellation-control shader.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TessCtrlInfo {
    /// The patch URB entry's layout (`brw_vue_prog_data::vue_map`).
    pub vue_map: TessVueMap,
    /// Output vertices per patch (`nir->info.tess.tcs_vertices_out`; iris programs the
    /// tessellator's input patch size from it through the TES).
    pub output_vertices: u32,
    /// Threads per patch, eight output vertices each on Gen8/9 and two on Gen7 (`instances`:
    /// 3DSTATE_HS "Instance Count" is one less).
    pub instances: u32,
    /// The dispatch mode (`brw_vue_prog_data::dispatch_mode`).
    pub dispatch_mode: TcsDispatchMode,
    /// The primitive id in the MULTI_PATCH payload (`include_primitive_id`: 3DSTATE_HS
    /// "Include Primitive ID"); false in SINGLE_PATCH, where the id is g0.1 anyway.
    pub include_primitive_id: bool,
    /// Gen7: the input patch's vertex count the program assumes (Mesa's
    /// `key->input_vertices`): the vertices whose URB handles the first instance releases
    /// at the end of the patch. gpucc's key has no such field; it is the output vertex
    /// count. 0 on Gen8/9, where the program releases nothing.
    pub input_vertices: u32,
}

impl TessCtrlInfo {
    /// 3DSTATE_HS "Include Vertex Handles": iris always sets it (the ICP handles in g1-g4).
    pub const INCLUDE_VERTEX_HANDLES: bool = true;

    /// The patch URB entry size in 64-byte units (`urb_entry_size`): the patch slots
    /// (header included) and every vertex's, 16 bytes each.
    pub fn urb_entry_size(&self) -> u32 {
        (self.vue_map.entry_slots(self.output_vertices) * 16).div_ceil(64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// arb_arrays_of_arrays tcs-tes-patch as iris compiled it on bdw: outputs_written
    /// POS and both levels, patch varyings 1, 2, 4 and 5, three vertices. Its NIR stores the
    /// patch varyings at bases 2-5 and the position at base 6 + vertex.
    #[test]
    fn tess_vue_map_as_mesa_lays_out_tcs_tes_patch() {
        let levels = 1u64 << 26 | 1u64 << 27;
        let map = TessVueMap::new(1 | levels, 0x36);
        assert_eq!(map.slots, vec![27, 26, 65, 66, 68, 69, 0]);
        assert_eq!((map.num_per_patch_slots, map.num_per_vertex_slots), (6, 1));
        let info = TessCtrlInfo {
            vue_map: map,
            output_vertices: 3,
            instances: 1,
            ..Default::default()
        };
        // (6 + 3) slots of 16 bytes = 144 bytes, three 64-byte units.
        assert_eq!(info.urb_entry_size(), 3);
    }
}
