//! The tessellation-evaluation facts known before translation, as Mesa's `brw_compile_tes`
//! computes them for either visitor: the domain, spacing and output topology from the
//! shader's info, the output VUE map, and how much of the patch URB entry is pushed.

use crate::error::CompileError;
use crate::intel::backend::vertex::const_offset;
use crate::intel::tess::{
    TessDomainKind, TessEvalInfo, TessOutputTopology, TessPartitioning, TES_MAX_PUSH_SLOTS,
};
use crate::intel::vue::VueMap;
use crate::nir::{IndexKind, InstrKind, Intrinsic, Shader};

fn unsupported(what: impl Into<String>) -> CompileError {
    CompileError::Unsupported(what.into())
}

/// Mesa's `gl_system_value` number of the primitive id (shader_enums.h).
const SYSTEM_VALUE_PRIMITIVE_ID: u32 = 32;

fn number(shader: &Shader, key: &str) -> u32 {
    shader
        .info
        .field(key)
        .and_then(|v| v.trim().parse::<u32>().ok())
        .unwrap_or(0)
}

/// The facts of a tessellation-evaluation shader in Intel form.
pub fn tess_eval_facts(shader: &Shader) -> Result<TessEvalInfo, CompileError> {
    let imp = shader
        .entry()
        .ok_or_else(|| CompileError::Invalid("shader has no entry point".into()))?;
    // nir_print's numbers: `tess_primitive_mode` (1 triangles, 2 quads, 3 isolines) and
    // `gl_tess_spacing` (1 equal, 2 fractional odd, 3 fractional even).
    let domain = match number(shader, "primitive_mode") {
        1 => TessDomainKind::Tri,
        2 => TessDomainKind::Quad,
        3 => TessDomainKind::Isoline,
        m => return Err(CompileError::Invalid(format!("TES primitive_mode {m}"))),
    };
    let partitioning = match number(shader, "spacing") {
        1 => TessPartitioning::Integer,
        2 => TessPartitioning::OddFractional,
        3 => TessPartitioning::EvenFractional,
        s => return Err(CompileError::Invalid(format!("TES spacing {s}"))),
    };
    let output_topology = if shader.info.field("point_mode") == Some("true") {
        TessOutputTopology::Point
    } else if domain == TessDomainKind::Isoline {
        TessOutputTopology::Line
    } else if shader.info.field("ccw") == Some("true") {
        // The hardware's winding is the reverse of GL's.
        TessOutputTopology::TriCw
    } else {
        TessOutputTopology::TriCcw
    };
    let sv = crate::intel::backend::vertex::system_values_read(shader);
    let mut info = TessEvalInfo {
        domain,
        partitioning,
        output_topology,
        include_primitive_id: sv >> SYSTEM_VALUE_PRIMITIVE_ID & 1 != 0,
        ..TessEvalInfo::default()
    };
    let (clip, cull) = (
        number(shader, "clip_distance_array_size").min(8),
        number(shader, "cull_distance_array_size").min(8),
    );
    info.clip_distance_mask = ((1u32 << clip) - 1) as u8;
    info.cull_distance_mask = ((((1u32 << cull) - 1) << clip) & 0xff) as u8;
    let mut written = 0u64;
    for ins in &imp.instrs {
        let InstrKind::Intrinsic(i) = &ins.kind else {
            continue;
        };
        match i.intrinsic {
            Intrinsic::LoadInput | Intrinsic::LoadPerVertexInput => {
                let off_src = if i.intrinsic == Intrinsic::LoadInput {
                    0
                } else {
                    1
                };
                let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
                // Inputs at a constant slot below the push limit are pushed (the pair of
                // slots they share), as Mesa's `nir_emit_tes_intrinsic` pushes them.
                if base < TES_MAX_PUSH_SLOTS && const_offset(imp, i, off_src).is_ok() {
                    info.urb_read_length = info.urb_read_length.max(base / 2 + 1);
                }
            }
            Intrinsic::LoadPrimitiveId => info.include_primitive_id = true,
            Intrinsic::StoreOutput => {
                let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
                let v = base.saturating_add(const_offset(imp, i, 1)?);
                if v >= 64 {
                    return Err(unsupported(format!("TES output in varying slot {v}")));
                }
                written |= 1 << v;
            }
            _ => {}
        }
    }
    let separate = shader.info.field("separate_shader") == Some("true");
    let declared = shader.info.slot_mask("outputs_written").unwrap_or(0);
    info.vue_map = VueMap::new(declared | written, separate);
    Ok(info)
}
