//! The tessellation stages of a draw: the draw's vertices cut into patches, each patch's
//! control shader run on the interpreter (or, without one, the patch passed through with the
//! default levels), the tessellator run on the levels it left, and the evaluation shader run
//! on every domain point, its primitives then going to the geometry stage or the rasterizer.
//!
//! The NIR is in Intel form (what Mesa's brw compiles), so the patch is what the hardware
//! keeps of it: one URB entry whose layout (`brw_compute_tess_vue_map`, here
//! [`TessVueMap`]) both shaders address by slot. The control shader's invocations (one per
//! output vertex, in lockstep, so `barrier()` orders them) write that entry
//! ([`interp::tcs`]); the evaluation shader reads the same entry at the same slots. The tess
//! levels sit in the entry's two header slots, laid out per domain as `remap_tess_levels`
//! (brw_nir.c) puts them: quads keep inner[0..1] in dwords 3-2 and outer[0..3] in dwords
//! 7-4, triangles inner[0] in dword 4 and outer[0..2] in dwords 7-5, isolines outer[0..1] in
//! dwords 6-7. Without a control shader, iris runs a pass-through one over the layout of what
//! the evaluation shader reads: each input vertex's varyings copied to its output vertex, the
//! levels from `patch parameter default level`.

use std::collections::BTreeMap;

use super::geometry;
use super::io;
use super::raster::Vertex;
use super::tessellator::{self, Domain, Layout, Spacing, Tessellation};
use crate::intel::tcs::TessVueMap;
use crate::nir::interp::{self, tcs::tcs_lanes, Environment, TessDomain};
use crate::nir::ir::Shader;
use crate::nir::opcodes::Intrinsic;

/// Why the tessellation stages of a draw did not produce primitives.
#[derive(Debug, PartialEq, Eq)]
pub enum TessError {
    /// Something the runner does not model (its name).
    Unmodelled(String),
    /// The draw is wrong for the program (GL would raise an error), or a shader failed.
    Fail(String),
    /// The corpus lacks what running the draw needs: the class as [`super::Gap::Data`]
    /// names it, and the detail.
    Data(String, String),
}

/// The patch state `patch parameter` sets (GL's defaults: three vertices, levels one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatchState {
    pub vertices: usize,
    pub default_outer: [f32; 4],
    pub default_inner: [f32; 2],
}

impl Default for PatchState {
    fn default() -> Self {
        PatchState {
            vertices: 3,
            default_outer: [1.0; 4],
            default_inner: [1.0; 2],
        }
    }
}

/// The primitives the evaluation shader's vertices make.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Primitives {
    pub vertices: Vec<Vertex>,
    /// Triangles with their provoking (last) vertex.
    pub triangles: Vec<([usize; 3], usize)>,
    pub lines: Vec<[usize; 2]>,
    pub points: Vec<usize>,
}

/// The evaluation shader's `layout(...) in` from its NIR header (`primitive_mode`: 1
/// triangles, 2 quads, 3 isolines; `spacing`: 1 equal, 2 fractional odd, 3 fractional even).
pub fn layout(tes: &Shader) -> Result<Layout, TessError> {
    let field = |k: &str| tes.info.field(k).map(str::trim);
    let domain = match field("primitive_mode") {
        Some("1") => Domain::Triangles,
        Some("2") => Domain::Quads,
        Some("3") => Domain::Isolines,
        other => {
            return Err(TessError::Fail(format!(
                "evaluation shader primitive_mode {other:?}"
            )))
        }
    };
    let spacing = match field("spacing") {
        Some("1") => Spacing::Equal,
        Some("2") => Spacing::FractionalOdd,
        Some("3") => Spacing::FractionalEven,
        other => {
            return Err(TessError::Fail(format!(
                "evaluation shader spacing {other:?}"
            )))
        }
    };
    Ok(Layout {
        domain,
        spacing,
        ccw: field("ccw") == Some("true"),
        point_mode: field("point_mode") == Some("true"),
    })
}

/// The header dwords (slot × 4 + component) of outer levels 0-3 and inner levels 0-1.
fn level_dwords(domain: Domain) -> ([Option<u32>; 4], [Option<u32>; 2]) {
    match domain {
        Domain::Quads => ([Some(7), Some(6), Some(5), Some(4)], [Some(3), Some(2)]),
        Domain::Triangles => ([Some(7), Some(6), Some(5), None], [Some(4), None]),
        Domain::Isolines => ([Some(6), Some(7), None, None], [None, None]),
    }
}

/// The levels a patch entry holds.
fn levels(entry: &BTreeMap<u32, [u32; 4]>, domain: Domain) -> ([f32; 4], [f32; 2]) {
    let (o, i) = level_dwords(domain);
    let read = |d: Option<u32>| {
        d.and_then(|d| {
            entry
                .get(&(d / 4))
                .map(|s| f32::from_bits(s[(d % 4) as usize]))
        })
        .unwrap_or(0.0)
    };
    (o.map(read), i.map(read))
}

/// A patch mask as nir_print writes it (`0x0000007f`).
fn hex_mask(shader: &Shader, key: &str) -> u32 {
    shader
        .info
        .field(key)
        .and_then(|v| u32::from_str_radix(v.trim().trim_start_matches("0x"), 16).ok())
        .unwrap_or(0)
}

/// The patch entry layout a shader's NIR addresses: `brw_compute_tess_vue_map` over the
/// per-vertex and patch varyings in its header (`outputs_written` / `patch_outputs_written`
/// for a control shader, `inputs_read` / `patch_inputs_read` for an evaluation shader).
///
/// The corpus holds what iris and crocus compile when a shader is created: each stage over
/// its own varyings, not the unified set a draw-time compile uses, so the two stages' layouts
/// can differ (a varying one side has and the other lacks); the runner carries each varying
/// from the control shader's slot to the evaluation shader's.
fn vue_map(shader: &Shader, vertex_key: &str, patch_key: &str) -> Result<TessVueMap, TessError> {
    let vertex = shader.info.slot_mask(vertex_key).ok_or_else(|| {
        TessError::Fail(format!(
            "{} header: unreadable {vertex_key}",
            shader.stage().mesa_name()
        ))
    })?;
    Ok(TessVueMap::new(vertex, hex_mask(shader, patch_key)))
}

/// The domain whose level layout a control shader's NIR writes: the one in its header, or,
/// when the header names none, triangles (iris's and crocus's guess when they compile a
/// control shader before any evaluation shader is bound).
fn tcs_domain(tcs: &Shader) -> Domain {
    match tcs.info.field("primitive_mode").map(str::trim) {
        Some("2") => Domain::Quads,
        Some("3") => Domain::Isolines,
        _ => Domain::Triangles,
    }
}

/// GL's name of a domain.
fn domain_name(domain: Domain) -> &'static str {
    match domain {
        Domain::Triangles => "triangles",
        Domain::Quads => "quads",
        Domain::Isolines => "isolines",
    }
}

/// The levels (GL's outer 0-3, inner 0-1) a control shader's patch entry holds, or the
/// name of a level `domain` needs that its NIR does not write in any layout.
fn tcs_levels(
    entry: &BTreeMap<u32, [u32; 4]>,
    written_as: Domain,
    domain: Domain,
) -> Result<([f32; 4], [f32; 2]), TessError> {
    let (have_o, have_i) = level_dwords(written_as);
    let (need_o, need_i) = level_dwords(domain);
    let missing = need_o
        .iter()
        .zip(have_o)
        .enumerate()
        .find(|(_, (n, h))| n.is_some() && h.is_none())
        .map(|(k, _)| format!("gl_TessLevelOuter[{k}]"))
        .or_else(|| {
            need_i
                .iter()
                .zip(have_i)
                .enumerate()
                .find(|(_, (n, h))| n.is_some() && h.is_none())
                .map(|(k, _)| format!("gl_TessLevelInner[{k}]"))
        });
    if let Some(level) = missing {
        return Err(TessError::Data(
            format!("control shader NIR for the {} domain", domain_name(domain)),
            format!(
                "the control shader's NIR was compiled for the {} domain (the driver's \
             guess before an evaluation shader is bound), which drops its writes of {level}; \
             the evaluation shader tessellates {}",
                domain_name(written_as),
                domain_name(domain)
            ),
        ));
    }
    Ok(levels(entry, written_as))
}

/// The patch entry the evaluation shader reads, in its own layout `map`: the levels laid out
/// for its domain, each patch varying from `patch_value`, and each of `vertices` output
/// vertices' varyings from `vertex_value` (varying numbers as Mesa's `VARYING_SLOT_*`).
fn tes_entry(
    map: &TessVueMap,
    domain: Domain,
    (outer, inner): ([f32; 4], [f32; 2]),
    vertices: usize,
    patch_value: &dyn Fn(u32) -> [u32; 4],
    vertex_value: &dyn Fn(usize, u32) -> [u32; 4],
) -> BTreeMap<u32, [u32; 4]> {
    let mut entry: BTreeMap<u32, [u32; 4]> = BTreeMap::new();
    let (o, i) = level_dwords(domain);
    for (d, v) in o.iter().zip(outer).chain(i.iter().zip(inner)) {
        if let Some(d) = d {
            entry.entry(d / 4).or_default()[(d % 4) as usize] = v.to_bits();
        }
    }
    let per_patch = map.num_per_patch_slots as usize;
    for (slot, &varying) in map.slots.iter().enumerate().take(per_patch).skip(2) {
        entry.insert(slot as u32, patch_value(varying));
    }
    for v in 0..vertices {
        for (j, &varying) in map.slots[per_patch..].iter().enumerate() {
            let slot = per_patch + v * map.num_per_vertex_slots as usize + j;
            entry.insert(slot as u32, vertex_value(v, varying));
        }
    }
    entry
}

/// The evaluation shader's entry from a control shader's (laid out as `from`, its levels
/// as `written_as`).
fn translate(
    entry: &BTreeMap<u32, [u32; 4]>,
    from: &TessVueMap,
    written_as: Domain,
    tes_map: &TessVueMap,
    domain: Domain,
    vertices: usize,
) -> Result<BTreeMap<u32, [u32; 4]>, TessError> {
    let levels = tcs_levels(entry, written_as, domain)?;
    let per_patch = from.num_per_patch_slots as usize;
    let find = |range: &[u32], varying: u32| range.iter().position(|&x| x == varying);
    let get = |slot: usize| entry.get(&(slot as u32)).copied().unwrap_or([0; 4]);
    let patch_value = |varying: u32| {
        find(&from.slots[2.min(per_patch)..per_patch], varying).map_or([0; 4], |k| get(2 + k))
    };
    let vertex_value = |v: usize, varying: u32| {
        find(&from.slots[per_patch..], varying).map_or([0; 4], |j| {
            get(per_patch + v * from.num_per_vertex_slots as usize + j)
        })
    };
    Ok(tes_entry(
        tes_map,
        domain,
        levels,
        vertices,
        &patch_value,
        &vertex_value,
    ))
}

/// The patch entry iris's pass-through control shader leaves for `patch` (the vertex
/// stage's vertices): the default levels and each vertex's varyings.
fn passthrough_entry(
    tes_map: &TessVueMap,
    domain: Domain,
    patch: &[Vertex],
    state: &PatchState,
) -> BTreeMap<u32, [u32; 4]> {
    let vertex_value = |v: usize, varying: u32| {
        let name = crate::nir::slots::varying_slot_name(varying)
            .map(str::to_string)
            .unwrap_or_else(|| varying.to_string());
        patch[v].outputs.get(&name).copied().unwrap_or([0; 4])
    };
    tes_entry(
        tes_map,
        domain,
        (state.default_outer, state.default_inner),
        patch.len(),
        &|_| [0; 4],
        &vertex_value,
    )
}

/// Runs the control shader over one patch on the interpreter and returns the patch entry
/// its invocations left (a component nobody wrote reads as zero).
fn run_tcs(
    tcs: &Shader,
    mut env: Environment,
    patch: &[Vertex],
    primitive_id: u32,
    vue_header: bool,
) -> Result<BTreeMap<u32, [u32; 4]>, TessError> {
    let out_vertices = output_vertices(tcs)?;
    let inputs = geometry::per_vertex_inputs(tcs, patch, vue_header);
    env.geometry = tcs_lanes(&inputs, primitive_id, out_vertices);
    env.tess_ctrl = true;
    env.tess = TessDomain {
        coords: Vec::new(),
        primitive_id,
    };
    let result = interp::run(tcs, &env, out_vertices as usize).map_err(|e| {
        TessError::Fail(format!(
            "tessellation control shader (NIR interpreter): {e}"
        ))
    })?;
    Ok(result
        .patch
        .iter()
        .map(|(&slot, o)| {
            let mut v = [0u32; 4];
            for (c, x) in o.comps.iter().take(4).enumerate() {
                v[c] = x.unwrap_or(0) as u32;
            }
            (slot, v)
        })
        .collect())
}

/// A control shader's output vertices per patch (`layout(vertices = N) out`).
fn output_vertices(tcs: &Shader) -> Result<u32, TessError> {
    tcs.info
        .field("tcs_vertices_out")
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| TessError::Fail("control shader without tcs_vertices_out".into()))
}

/// Runs the evaluation shader over one tessellated patch and returns its vertices.
fn run_tes(
    tes: &Shader,
    mut env: Environment,
    entry: &BTreeMap<u32, [u32; 4]>,
    t: &Tessellation,
    primitive_id: u32,
    rasterized: bool,
) -> Result<Vec<Vertex>, TessError> {
    let n = t.coords.len();
    env.inputs = vec![entry.clone(); n];
    env.generate_inputs = false;
    env.tess = TessDomain {
        coords: t.coords.clone(),
        primitive_id,
    };
    let result = interp::run(tes, &env, n).map_err(|e| {
        TessError::Fail(format!(
            "tessellation evaluation shader (NIR interpreter): {e}"
        ))
    })?;
    let ranges = io::ranges(tes, &[Intrinsic::StoreOutput]);
    result
        .invocations
        .iter()
        .map(|inv| {
            let outputs = io::named_outputs(&ranges, &inv.outputs);
            let clip = match outputs.get("VARYING_SLOT_POS") {
                Some(p) => p.map(f32::from_bits),
                None if !rasterized => [0.0, 0.0, 0.0, 1.0],
                None => {
                    return Err(TessError::Fail(
                        "the tessellation evaluation shader wrote no position".into(),
                    ))
                }
            };
            Ok(Vertex {
                clip,
                outputs,
                clip_distances: Vec::new(),
            })
        })
        .collect()
}

/// The shaders of the tessellation stages with what runs them: `env(stage)` makes a fresh
/// environment (uniforms, textures) for the control (`false`) or evaluation (`true`) shader.
pub struct Stages<'a> {
    pub tcs: Option<&'a Shader>,
    pub tes: &'a Shader,
    pub env: &'a dyn Fn(bool) -> Environment,
    /// Intel: the previous stage's outputs reach the control shader as a VUE, its header
    /// in `VARYING_SLOT_PSIZ`'s slot.
    pub vue_header: bool,
    /// No geometry shader follows: the evaluation shader must write a position.
    pub rasterized: bool,
}

/// Runs the tessellation stages of a draw of `verts` (the vertex stage's) in `mode`.
pub fn run(
    stages: &Stages,
    state: &PatchState,
    verts: &[Vertex],
    mode: &str,
) -> Result<Primitives, TessError> {
    if mode != "GL_PATCHES" {
        return Err(TessError::Fail(format!(
            "draw {mode} with a tessellation evaluation shader (GL: INVALID_OPERATION)"
        )));
    }
    let layout = layout(stages.tes)?;
    let tes_map = vue_map(stages.tes, "inputs_read", "patch_inputs_read")?;
    let tcs_map = match stages.tcs {
        Some(tcs) => Some(vue_map(tcs, "outputs_written", "patch_outputs_written")?),
        None => None,
    };
    let mut out = Primitives::default();
    let pv = state.vertices.max(1);
    for (id, patch) in verts.chunks_exact(pv).enumerate() {
        let id = id as u32;
        let entry = match (stages.tcs, &tcs_map) {
            (Some(tcs), Some(map)) => translate(
                &run_tcs(tcs, (stages.env)(false), patch, id, stages.vue_header)?,
                map,
                tcs_domain(tcs),
                &tes_map,
                layout.domain,
                output_vertices(tcs)? as usize,
            )?,
            _ => passthrough_entry(&tes_map, layout.domain, patch, state),
        };
        let (outer, inner) = levels(&entry, layout.domain);
        let t = tessellator::tessellate(layout, outer, inner);
        if t.coords.is_empty() {
            continue;
        }
        let vs = run_tes(
            stages.tes,
            (stages.env)(true),
            &entry,
            &t,
            id,
            stages.rasterized,
        )?;
        let base = out.vertices.len();
        out.vertices.extend(vs);
        out.triangles.extend(
            t.triangles
                .iter()
                .map(|tri| (tri.map(|i| base + i), base + tri[2])),
        );
        out.lines
            .extend(t.lines.iter().map(|l| l.map(|i| base + i)));
        out.points.extend(t.points.iter().map(|&i| base + i));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header layout `remap_tess_levels` gives: quads' outer levels reversed in slot 1,
    /// their inner ones reversed in slot 0's last two dwords.
    #[test]
    fn quad_levels_read_back_from_the_reversed_header() {
        let mut entry = BTreeMap::new();
        entry.insert(0, [0.0, 0.0, 6.0, 5.0].map(f32::to_bits));
        entry.insert(1, [4.0, 3.0, 2.0, 1.0].map(f32::to_bits));
        assert_eq!(
            levels(&entry, Domain::Quads),
            ([1.0, 2.0, 3.0, 4.0], [5.0, 6.0])
        );
        assert_eq!(
            levels(&entry, Domain::Triangles),
            ([1.0, 2.0, 3.0, 0.0], [4.0, 0.0])
        );
        assert_eq!(
            levels(&entry, Domain::Isolines),
            ([2.0, 1.0, 0.0, 0.0], [0.0, 0.0])
        );
    }
}
