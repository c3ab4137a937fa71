//! The vertex-shader facts both Intel backends share: which attributes and draw parameters
//! the vertex fetcher pushes, the clip and cull masks, and the VUE map of the outputs. The
//! scalar backend (Gen8+, SIMD8) and the vec4 backend (Gen7, SIMD4x2) lay out the same
//! payload elements and URB entry from these, as Mesa's `brw_compile_vs` computes them once
//! for either visitor.

use crate::error::CompileError;
use crate::intel::kernel::VertexInfo;
use crate::intel::vue::VueMap;
use crate::nir::{IndexKind, InstrKind, Intrinsic, IntrinsicInstr, Shader};

fn unsupported(what: impl Into<String>) -> CompileError {
    CompileError::Unsupported(what.into())
}

/// Mesa's `gl_system_value` numbers of the draw parameters (shader_enums.h).
mod sysval {
    pub const INSTANCE_ID: u32 = 10;
    pub const VERTEX_ID_ZERO_BASE: u32 = 12;
    pub const FIRST_VERTEX: u32 = 14;
    pub const IS_INDEXED_DRAW: u32 = 15;
    pub const BASE_INSTANCE: u32 = 16;
    pub const DRAW_ID: u32 = 17;
}

/// The `system_values_read` bit set nir_print writes as hex words (`0x00000000'00005000`),
/// most significant first.
pub(crate) fn system_values_read(shader: &Shader) -> u128 {
    let Some(text) = shader.info.field("system_values_read") else {
        return 0;
    };
    let hex: String = text
        .trim()
        .trim_start_matches("0x")
        .chars()
        .filter(char::is_ascii_hexdigit)
        .collect();
    u128::from_str_radix(&hex, 16).unwrap_or(0)
}

/// The facts of `shader` known before translation: attributes, draw parameters, the VUE map.
pub fn vertex_facts(shader: &Shader) -> Result<VertexInfo, CompileError> {
    let imp = shader
        .entry()
        .ok_or_else(|| CompileError::Invalid("shader has no entry point".into()))?;
    let inputs_read = shader.info.slot_mask("inputs_read").ok_or_else(|| {
        CompileError::Invalid(format!(
            "inputs_read: cannot read '{}'",
            shader.info.field("inputs_read").unwrap_or("")
        ))
    })?;
    let sv = system_values_read(shader);
    let has = |bit: u32| sv >> bit & 1 != 0;
    let mut f = VertexInfo {
        inputs_read,
        uses_first_vertex: has(sysval::FIRST_VERTEX),
        uses_base_instance: has(sysval::BASE_INSTANCE),
        uses_vertex_id: has(sysval::VERTEX_ID_ZERO_BASE),
        uses_instance_id: has(sysval::INSTANCE_ID),
        uses_draw_id: has(sysval::DRAW_ID) || has(sysval::IS_INDEXED_DRAW),
        ..VertexInfo::default()
    };
    // brw_compile_vs's masks: the clip distances first, the cull distances after them.
    let size = |key: &str| {
        shader
            .info
            .field(key)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(0)
            .min(8)
    };
    let (clip, cull) = (
        size("clip_distance_array_size"),
        size("cull_distance_array_size"),
    );
    f.clip_distance_mask = ((1u32 << clip) - 1) as u8;
    f.cull_distance_mask = ((((1u32 << cull) - 1) << clip) & 0xff) as u8;
    let mut written = 0u64;
    let mut highest_element = 0;
    for ins in &imp.instrs {
        let InstrKind::Intrinsic(i) = &ins.kind else {
            continue;
        };
        match i.intrinsic {
            Intrinsic::LoadVertexIdZeroBase => f.uses_vertex_id = true,
            Intrinsic::LoadVertexId => {
                f.uses_vertex_id = true;
                f.uses_first_vertex = true;
            }
            Intrinsic::LoadFirstVertex | Intrinsic::LoadBaseVertex => f.uses_first_vertex = true,
            Intrinsic::LoadBaseInstance => f.uses_base_instance = true,
            Intrinsic::LoadInstanceId => f.uses_instance_id = true,
            Intrinsic::LoadDrawId | Intrinsic::LoadIsIndexedDraw => f.uses_draw_id = true,
            Intrinsic::LoadInput => {
                let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
                let off = const_offset(imp, i, 0)?;
                highest_element = highest_element.max(base.saturating_add(off) + 1);
            }
            Intrinsic::StoreOutput => {
                let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
                let v = base.saturating_add(const_offset(imp, i, 1)?);
                if v >= 64 {
                    return Err(unsupported(format!("vertex output in varying slot {v}")));
                }
                written |= 1 << v;
            }
            _ => {}
        }
    }
    let pushed =
        inputs_read.count_ones() + f.draw_params_element().is_some() as u32 + f.uses_draw_id as u32;
    // Vertex elements are at most 33 (32 attributes and the system-value element); an
    // element read beyond what the header declares is pushed too.
    f.nr_attribute_slots = pushed.max(highest_element);
    if f.nr_attribute_slots > 33 {
        return Err(unsupported(format!(
            "{} vertex elements (the vertex fetcher pushes at most 33)",
            f.nr_attribute_slots
        )));
    }
    let separate = shader.info.field("separate_shader") == Some("true");
    let declared = shader.info.slot_mask("outputs_written").unwrap_or(0);
    f.vue_map = VueMap::new(declared | written, separate);
    Ok(f)
}

/// The constant value of source `k` of `i` (the indirect slot offset of an I/O intrinsic).
pub(crate) fn const_offset(
    imp: &crate::nir::Impl,
    i: &IntrinsicInstr,
    k: usize,
) -> Result<u32, CompileError> {
    let id =
        i.srcs.get(k).copied().ok_or_else(|| {
            CompileError::Invalid(format!("{} lacks source {k}", i.intrinsic.name()))
        })?;
    imp.const_value(id)
        .and_then(|v| v.first().copied())
        .map(|v| v as u32)
        .ok_or_else(|| unsupported(format!("{} with an indirect slot", i.intrinsic.name())))
}
