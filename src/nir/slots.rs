//! Mesa's I/O slot enums (`gl_vert_attrib`, `gl_varying_slot`, `gl_frag_result`,
//! `gl_system_value` of shader_enums.h, Mesa 23.3): the names nir_print writes for variable
//! locations and `io location=` indices, with their numbers.

/// (name, number) for every slot; the prefix says which enum a name belongs to.
pub static SLOTS: [(&str, u32); 250] = [
    ("VERT_ATTRIB_POS", 0),
    ("VERT_ATTRIB_NORMAL", 1),
    ("VERT_ATTRIB_COLOR0", 2),
    ("VERT_ATTRIB_COLOR1", 3),
    ("VERT_ATTRIB_FOG", 4),
    ("VERT_ATTRIB_COLOR_INDEX", 5),
    ("VERT_ATTRIB_TEX0", 6),
    ("VERT_ATTRIB_TEX1", 7),
    ("VERT_ATTRIB_TEX2", 8),
    ("VERT_ATTRIB_TEX3", 9),
    ("VERT_ATTRIB_TEX4", 10),
    ("VERT_ATTRIB_TEX5", 11),
    ("VERT_ATTRIB_TEX6", 12),
    ("VERT_ATTRIB_TEX7", 13),
    ("VERT_ATTRIB_POINT_SIZE", 14),
    ("VERT_ATTRIB_GENERIC0", 15),
    ("VERT_ATTRIB_GENERIC1", 16),
    ("VERT_ATTRIB_GENERIC2", 17),
    ("VERT_ATTRIB_GENERIC3", 18),
    ("VERT_ATTRIB_GENERIC4", 19),
    ("VERT_ATTRIB_GENERIC5", 20),
    ("VERT_ATTRIB_GENERIC6", 21),
    ("VERT_ATTRIB_GENERIC7", 22),
    ("VERT_ATTRIB_GENERIC8", 23),
    ("VERT_ATTRIB_GENERIC9", 24),
    ("VERT_ATTRIB_GENERIC10", 25),
    ("VERT_ATTRIB_GENERIC11", 26),
    ("VERT_ATTRIB_GENERIC12", 27),
    ("VERT_ATTRIB_GENERIC13", 28),
    ("VERT_ATTRIB_GENERIC14", 29),
    ("VERT_ATTRIB_GENERIC15", 30),
    ("VERT_ATTRIB_EDGEFLAG", 31),
    ("VARYING_SLOT_POS", 0),
    ("VARYING_SLOT_COL0", 1),
    ("VARYING_SLOT_COL1", 2),
    ("VARYING_SLOT_FOGC", 3),
    ("VARYING_SLOT_TEX0", 4),
    ("VARYING_SLOT_TEX1", 5),
    ("VARYING_SLOT_TEX2", 6),
    ("VARYING_SLOT_TEX3", 7),
    ("VARYING_SLOT_TEX4", 8),
    ("VARYING_SLOT_TEX5", 9),
    ("VARYING_SLOT_TEX6", 10),
    ("VARYING_SLOT_TEX7", 11),
    ("VARYING_SLOT_PSIZ", 12),
    ("VARYING_SLOT_BFC0", 13),
    ("VARYING_SLOT_BFC1", 14),
    ("VARYING_SLOT_EDGE", 15),
    ("VARYING_SLOT_CLIP_VERTEX", 16),
    ("VARYING_SLOT_CLIP_DIST0", 17),
    ("VARYING_SLOT_CLIP_DIST1", 18),
    ("VARYING_SLOT_CULL_DIST0", 19),
    ("VARYING_SLOT_CULL_DIST1", 20),
    ("VARYING_SLOT_PRIMITIVE_ID", 21),
    ("VARYING_SLOT_LAYER", 22),
    ("VARYING_SLOT_VIEWPORT", 23),
    ("VARYING_SLOT_FACE", 24),
    ("VARYING_SLOT_PNTC", 25),
    ("VARYING_SLOT_TESS_LEVEL_OUTER", 26),
    ("VARYING_SLOT_TESS_LEVEL_INNER", 27),
    ("VARYING_SLOT_BOUNDING_BOX0", 28),
    ("VARYING_SLOT_BOUNDING_BOX1", 29),
    ("VARYING_SLOT_VIEW_INDEX", 30),
    ("VARYING_SLOT_VIEWPORT_MASK", 31),
    ("VARYING_SLOT_PRIMITIVE_SHADING_RATE", 24),
    ("VARYING_SLOT_PRIMITIVE_COUNT", 26),
    ("VARYING_SLOT_PRIMITIVE_INDICES", 27),
    ("VARYING_SLOT_TASK_COUNT", 28),
    ("VARYING_SLOT_CULL_PRIMITIVE", 28),
    ("VARYING_SLOT_VAR0", 32),
    ("VARYING_SLOT_VAR1", 33),
    ("VARYING_SLOT_VAR2", 34),
    ("VARYING_SLOT_VAR3", 35),
    ("VARYING_SLOT_VAR4", 36),
    ("VARYING_SLOT_VAR5", 37),
    ("VARYING_SLOT_VAR6", 38),
    ("VARYING_SLOT_VAR7", 39),
    ("VARYING_SLOT_VAR8", 40),
    ("VARYING_SLOT_VAR9", 41),
    ("VARYING_SLOT_VAR10", 42),
    ("VARYING_SLOT_VAR11", 43),
    ("VARYING_SLOT_VAR12", 44),
    ("VARYING_SLOT_VAR13", 45),
    ("VARYING_SLOT_VAR14", 46),
    ("VARYING_SLOT_VAR15", 47),
    ("VARYING_SLOT_VAR16", 48),
    ("VARYING_SLOT_VAR17", 49),
    ("VARYING_SLOT_VAR18", 50),
    ("VARYING_SLOT_VAR19", 51),
    ("VARYING_SLOT_VAR20", 52),
    ("VARYING_SLOT_VAR21", 53),
    ("VARYING_SLOT_VAR22", 54),
    ("VARYING_SLOT_VAR23", 55),
    ("VARYING_SLOT_VAR24", 56),
    ("VARYING_SLOT_VAR25", 57),
    ("VARYING_SLOT_VAR26", 58),
    ("VARYING_SLOT_VAR27", 59),
    ("VARYING_SLOT_VAR28", 60),
    ("VARYING_SLOT_VAR29", 61),
    ("VARYING_SLOT_VAR30", 62),
    ("VARYING_SLOT_VAR31", 63),
    ("VARYING_SLOT_PATCH0", 64),
    ("VARYING_SLOT_PATCH1", 65),
    ("VARYING_SLOT_PATCH2", 66),
    ("VARYING_SLOT_PATCH3", 67),
    ("VARYING_SLOT_PATCH4", 68),
    ("VARYING_SLOT_PATCH5", 69),
    ("VARYING_SLOT_PATCH6", 70),
    ("VARYING_SLOT_PATCH7", 71),
    ("VARYING_SLOT_PATCH8", 72),
    ("VARYING_SLOT_PATCH9", 73),
    ("VARYING_SLOT_PATCH10", 74),
    ("VARYING_SLOT_PATCH11", 75),
    ("VARYING_SLOT_PATCH12", 76),
    ("VARYING_SLOT_PATCH13", 77),
    ("VARYING_SLOT_PATCH14", 78),
    ("VARYING_SLOT_PATCH15", 79),
    ("VARYING_SLOT_PATCH16", 80),
    ("VARYING_SLOT_PATCH17", 81),
    ("VARYING_SLOT_PATCH18", 82),
    ("VARYING_SLOT_PATCH19", 83),
    ("VARYING_SLOT_PATCH20", 84),
    ("VARYING_SLOT_PATCH21", 85),
    ("VARYING_SLOT_PATCH22", 86),
    ("VARYING_SLOT_PATCH23", 87),
    ("VARYING_SLOT_PATCH24", 88),
    ("VARYING_SLOT_PATCH25", 89),
    ("VARYING_SLOT_PATCH26", 90),
    ("VARYING_SLOT_PATCH27", 91),
    ("VARYING_SLOT_PATCH28", 92),
    ("VARYING_SLOT_PATCH29", 93),
    ("VARYING_SLOT_PATCH30", 94),
    ("VARYING_SLOT_PATCH31", 95),
    ("VARYING_SLOT_VAR0_16BIT", 96),
    ("VARYING_SLOT_VAR1_16BIT", 97),
    ("VARYING_SLOT_VAR2_16BIT", 98),
    ("VARYING_SLOT_VAR3_16BIT", 99),
    ("VARYING_SLOT_VAR4_16BIT", 100),
    ("VARYING_SLOT_VAR5_16BIT", 101),
    ("VARYING_SLOT_VAR6_16BIT", 102),
    ("VARYING_SLOT_VAR7_16BIT", 103),
    ("VARYING_SLOT_VAR8_16BIT", 104),
    ("VARYING_SLOT_VAR9_16BIT", 105),
    ("VARYING_SLOT_VAR10_16BIT", 106),
    ("VARYING_SLOT_VAR11_16BIT", 107),
    ("VARYING_SLOT_VAR12_16BIT", 108),
    ("VARYING_SLOT_VAR13_16BIT", 109),
    ("VARYING_SLOT_VAR14_16BIT", 110),
    ("VARYING_SLOT_VAR15_16BIT", 111),
    ("FRAG_RESULT_DEPTH", 0),
    ("FRAG_RESULT_STENCIL", 1),
    ("FRAG_RESULT_COLOR", 2),
    ("FRAG_RESULT_SAMPLE_MASK", 3),
    ("FRAG_RESULT_DATA0", 4),
    ("FRAG_RESULT_DATA1", 5),
    ("FRAG_RESULT_DATA2", 6),
    ("FRAG_RESULT_DATA3", 7),
    ("FRAG_RESULT_DATA4", 8),
    ("FRAG_RESULT_DATA5", 9),
    ("FRAG_RESULT_DATA6", 10),
    ("FRAG_RESULT_DATA7", 11),
    ("SYSTEM_VALUE_SUBGROUP_SIZE", 0),
    ("SYSTEM_VALUE_SUBGROUP_INVOCATION", 1),
    ("SYSTEM_VALUE_SUBGROUP_EQ_MASK", 2),
    ("SYSTEM_VALUE_SUBGROUP_GE_MASK", 3),
    ("SYSTEM_VALUE_SUBGROUP_GT_MASK", 4),
    ("SYSTEM_VALUE_SUBGROUP_LE_MASK", 5),
    ("SYSTEM_VALUE_SUBGROUP_LT_MASK", 6),
    ("SYSTEM_VALUE_NUM_SUBGROUPS", 7),
    ("SYSTEM_VALUE_SUBGROUP_ID", 8),
    ("SYSTEM_VALUE_VERTEX_ID", 9),
    ("SYSTEM_VALUE_INSTANCE_ID", 10),
    ("SYSTEM_VALUE_INSTANCE_INDEX", 11),
    ("SYSTEM_VALUE_VERTEX_ID_ZERO_BASE", 12),
    ("SYSTEM_VALUE_BASE_VERTEX", 13),
    ("SYSTEM_VALUE_FIRST_VERTEX", 14),
    ("SYSTEM_VALUE_IS_INDEXED_DRAW", 15),
    ("SYSTEM_VALUE_BASE_INSTANCE", 16),
    ("SYSTEM_VALUE_DRAW_ID", 17),
    ("SYSTEM_VALUE_INVOCATION_ID", 18),
    ("SYSTEM_VALUE_FRAG_COORD", 19),
    ("SYSTEM_VALUE_POINT_COORD", 20),
    ("SYSTEM_VALUE_LINE_COORD", 21),
    ("SYSTEM_VALUE_FRONT_FACE", 22),
    ("SYSTEM_VALUE_SAMPLE_ID", 23),
    ("SYSTEM_VALUE_SAMPLE_POS", 24),
    ("SYSTEM_VALUE_SAMPLE_POS_OR_CENTER", 25),
    ("SYSTEM_VALUE_SAMPLE_MASK_IN", 26),
    ("SYSTEM_VALUE_HELPER_INVOCATION", 27),
    ("SYSTEM_VALUE_COLOR0", 28),
    ("SYSTEM_VALUE_COLOR1", 29),
    ("SYSTEM_VALUE_TESS_COORD", 30),
    ("SYSTEM_VALUE_VERTICES_IN", 31),
    ("SYSTEM_VALUE_PRIMITIVE_ID", 32),
    ("SYSTEM_VALUE_TESS_LEVEL_OUTER", 33),
    ("SYSTEM_VALUE_TESS_LEVEL_INNER", 34),
    ("SYSTEM_VALUE_TESS_LEVEL_OUTER_DEFAULT", 35),
    ("SYSTEM_VALUE_TESS_LEVEL_INNER_DEFAULT", 36),
    ("SYSTEM_VALUE_LOCAL_INVOCATION_ID", 37),
    ("SYSTEM_VALUE_LOCAL_INVOCATION_INDEX", 38),
    ("SYSTEM_VALUE_GLOBAL_INVOCATION_ID", 39),
    ("SYSTEM_VALUE_BASE_GLOBAL_INVOCATION_ID", 40),
    ("SYSTEM_VALUE_GLOBAL_INVOCATION_INDEX", 41),
    ("SYSTEM_VALUE_WORKGROUP_ID", 42),
    ("SYSTEM_VALUE_WORKGROUP_INDEX", 43),
    ("SYSTEM_VALUE_NUM_WORKGROUPS", 44),
    ("SYSTEM_VALUE_WORKGROUP_SIZE", 45),
    ("SYSTEM_VALUE_GLOBAL_GROUP_SIZE", 46),
    ("SYSTEM_VALUE_WORK_DIM", 47),
    ("SYSTEM_VALUE_USER_DATA_AMD", 48),
    ("SYSTEM_VALUE_DEVICE_INDEX", 49),
    ("SYSTEM_VALUE_VIEW_INDEX", 50),
    ("SYSTEM_VALUE_VERTEX_CNT", 51),
    ("SYSTEM_VALUE_BARYCENTRIC_PERSP_PIXEL", 52),
    ("SYSTEM_VALUE_BARYCENTRIC_PERSP_SAMPLE", 53),
    ("SYSTEM_VALUE_BARYCENTRIC_PERSP_CENTROID", 54),
    ("SYSTEM_VALUE_BARYCENTRIC_PERSP_CENTER_RHW", 55),
    ("SYSTEM_VALUE_BARYCENTRIC_LINEAR_PIXEL", 56),
    ("SYSTEM_VALUE_BARYCENTRIC_LINEAR_CENTROID", 57),
    ("SYSTEM_VALUE_BARYCENTRIC_LINEAR_SAMPLE", 58),
    ("SYSTEM_VALUE_BARYCENTRIC_PULL_MODEL", 59),
    ("SYSTEM_VALUE_BARYCENTRIC_PERSP_COORD", 60),
    ("SYSTEM_VALUE_BARYCENTRIC_LINEAR_COORD", 61),
    ("SYSTEM_VALUE_RAY_LAUNCH_ID", 62),
    ("SYSTEM_VALUE_RAY_LAUNCH_SIZE", 63),
    ("SYSTEM_VALUE_RAY_LAUNCH_SIZE_ADDR_AMD", 64),
    ("SYSTEM_VALUE_RAY_WORLD_ORIGIN", 65),
    ("SYSTEM_VALUE_RAY_WORLD_DIRECTION", 66),
    ("SYSTEM_VALUE_RAY_OBJECT_ORIGIN", 67),
    ("SYSTEM_VALUE_RAY_OBJECT_DIRECTION", 68),
    ("SYSTEM_VALUE_RAY_T_MIN", 69),
    ("SYSTEM_VALUE_RAY_OBJECT_TO_WORLD", 71),
    ("SYSTEM_VALUE_RAY_WORLD_TO_OBJECT", 72),
    ("SYSTEM_VALUE_RAY_HIT_KIND", 73),
    ("SYSTEM_VALUE_RAY_FLAGS", 74),
    ("SYSTEM_VALUE_RAY_GEOMETRY_INDEX", 75),
    ("SYSTEM_VALUE_RAY_INSTANCE_CUSTOM_INDEX", 76),
    ("SYSTEM_VALUE_CULL_MASK", 77),
    ("SYSTEM_VALUE_RAY_TRIANGLE_VERTEX_POSITIONS", 78),
    ("SYSTEM_VALUE_MESH_VIEW_COUNT", 79),
    ("SYSTEM_VALUE_MESH_VIEW_INDICES", 80),
    ("SYSTEM_VALUE_GS_HEADER_IR3", 81),
    ("SYSTEM_VALUE_TCS_HEADER_IR3", 82),
    ("SYSTEM_VALUE_REL_PATCH_ID_IR3", 83),
    ("SYSTEM_VALUE_FRAG_SHADING_RATE", 84),
    ("SYSTEM_VALUE_FULLY_COVERED", 85),
    ("SYSTEM_VALUE_FRAG_SIZE", 86),
    ("SYSTEM_VALUE_FRAG_INVOCATION_COUNT", 87),
    ("SYSTEM_VALUE_SHADER_INDEX", 88),
    ("SYSTEM_VALUE_COALESCED_INPUT_COUNT", 89),
];

/// The number of a slot name (`VARYING_SLOT_VAR0` is 32), a decimal location, or `~0`.
pub fn slot_number(name: &str) -> Option<u32> {
    if name == "~0" {
        return Some(u32::MAX);
    }
    if let Ok(n) = name.parse() {
        return Some(n);
    }
    SLOTS.iter().find(|(n, _)| *n == name).map(|p| p.1)
}

/// The name of varying slot `n` (`VARYING_SLOT_VAR0` for 32): the first name Mesa gives the
/// number, so aliases (`VARYING_SLOT_PRIMITIVE_SHADING_RATE` is `VARYING_SLOT_FACE`) print as
/// the slot's original meaning.
pub fn varying_slot_name(n: u32) -> Option<&'static str> {
    SLOTS
        .iter()
        .find(|(name, v)| *v == n && name.starts_with("VARYING_SLOT_"))
        .map(|p| p.0)
}

/// The name nir_print gives location `location` of a `stage` shader for memory of `mode`
/// (`get_location_str`): vertex inputs name attributes, fragment outputs results, other
/// shader inputs and outputs varyings, system values theirs; anything else (and a number
/// no name has) prints as the number, `~0` for none.
pub fn location_name(
    location: u32,
    stage: super::types::Stage,
    mode: Option<super::types::VarMode>,
) -> String {
    use super::types::Stage::*;
    use super::types::VarMode::{ShaderIn, ShaderOut, System};
    let named = |prefix: &str| {
        SLOTS
            .iter()
            .find(|(n, v)| *v == location && n.starts_with(prefix))
            .map(|p| p.0.to_string())
    };
    let io = matches!(mode, Some(ShaderIn | ShaderOut));
    let name = match (stage, mode) {
        (Vertex, Some(ShaderIn)) => named("VERT_ATTRIB_"),
        (Fragment, Some(ShaderOut)) => named("FRAG_RESULT_"),
        // Tessellation patch slots past the varyings have no name there.
        (TessCtrl | TessEval, _) if location >= 96 => None,
        (Vertex | TessCtrl | TessEval | Geometry | Task | Mesh | Fragment, _) if io => {
            varying_slot_name(location).map(str::to_string)
        }
        _ => None,
    };
    match name {
        Some(n) => n,
        None if mode == Some(System) => named("SYSTEM_VALUE_").unwrap_or(location.to_string()),
        None if location == u32::MAX => "~0".to_string(),
        None => location.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_numbers_match_shader_enums() {
        assert_eq!(slot_number("VARYING_SLOT_POS"), Some(0));
        assert_eq!(slot_number("VARYING_SLOT_VAR0"), Some(32));
        assert_eq!(slot_number("VARYING_SLOT_TEX0"), Some(4));
        assert_eq!(slot_number("FRAG_RESULT_COLOR"), Some(2));
        assert_eq!(slot_number("FRAG_RESULT_DATA0"), Some(4));
        assert_eq!(slot_number("VERT_ATTRIB_GENERIC0"), Some(15));
        assert_eq!(slot_number("7"), Some(7));
        assert_eq!(slot_number("~0"), Some(u32::MAX));
        assert_eq!(slot_number("NOT_A_SLOT"), None);
        assert_eq!(varying_slot_name(32), Some("VARYING_SLOT_VAR0"));
        assert_eq!(varying_slot_name(24), Some("VARYING_SLOT_FACE"));
        assert_eq!(varying_slot_name(17), Some("VARYING_SLOT_CLIP_DIST0"));
        assert_eq!(varying_slot_name(64), Some("VARYING_SLOT_PATCH0"));
    }
}
