//! The tessellation-control facts known before translation, as Mesa's `brw_compile_tcs`
//! computes them on Gen8/9 (scalar, SINGLE_PATCH, eight output vertices per thread) and on
//! Gen7 (vec4, two per thread): the patch URB entry's layout from the outputs the TES reads
//! (the driver puts them in the key, and `brw_compile_tcs` copies them into the shader's
//! info, which is where the printed NIR has them), the output vertex count and the
//! instances.

use crate::error::CompileError;
use crate::intel::tcs::{TcsDispatchMode, TessCtrlInfo, TessVueMap};
use crate::nir::Shader;

/// The facts of a tessellation-control shader in Intel form for the scalar backend (one
/// instance thread of eight output vertices).
pub fn tess_ctrl_facts(shader: &Shader) -> Result<TessCtrlInfo, CompileError> {
    let info = facts(shader, 8)?;
    if info.instances > 1 {
        return Err(CompileError::Unsupported(format!(
            "tessellation-control shaders with {} output vertices ({} instance threads per \
             patch and the barrier messages between them)",
            info.output_vertices, info.instances
        )));
    }
    Ok(info)
}

/// The facts of a tessellation-control shader in Intel form for the Gen7 vec4 backend: two
/// output vertices per SIMD4x2 thread, `ceil(vertices / 2)` instances. The input vertex
/// count (Mesa's `key->input_vertices`, the handles the program releases) is not in the
/// NIR: it comes from the key, and without one is taken as the output vertex count.
pub fn tess_ctrl_facts_simd4x2(
    shader: &Shader,
    input_vertices: Option<u32>,
) -> Result<TessCtrlInfo, CompileError> {
    let mut info = facts(shader, 2)?;
    info.input_vertices = input_vertices.unwrap_or(info.output_vertices);
    Ok(info)
}

fn facts(shader: &Shader, verts_per_thread: u32) -> Result<TessCtrlInfo, CompileError> {
    let output_vertices = shader
        .info
        .field("tcs_vertices_out")
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|v| (1..=32).contains(v))
        .ok_or_else(|| {
            CompileError::Invalid("a TCS without tcs_vertices_out between 1 and 32".into())
        })?;
    let vertex_slots = shader.info.slot_mask("outputs_written").unwrap_or(0);
    let patch_slots = match shader.info.field("patch_outputs_written") {
        None => 0,
        Some(v) => {
            let v = v.trim();
            let digits = v.strip_prefix("0x").unwrap_or(v);
            u32::from_str_radix(digits, 16).map_err(|_| {
                CompileError::Invalid(format!("patch_outputs_written `{v}` is not a hex mask"))
            })?
        }
    };
    let instances = output_vertices.div_ceil(verts_per_thread);
    Ok(TessCtrlInfo {
        vue_map: TessVueMap::new(vertex_slots, patch_slots),
        output_vertices,
        instances,
        dispatch_mode: TcsDispatchMode::SinglePatch,
        include_primitive_id: false,
        input_vertices: 0,
    })
}
