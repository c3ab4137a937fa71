//! The geometry stage of a draw: the draw's vertices assembled into the input primitives a
//! geometry shader sees, the shader run over them, and the strips it emits on stream 0 turned
//! back into triangles for the rasterizer.
//!
//! Primitive assembly follows GL 3.2's rules for what a geometry shader receives: a triangle
//! strip's odd triangles swap their first two vertices (as [`raster::strip_triangles`]
//! orders them), a fan shares vertex 0, lines and points come in draw order, and the
//! adjacency forms bring their extra vertices in the positions GL lists. The draw's mode must
//! match the shader's input primitive (GL raises INVALID_OPERATION otherwise). Only the
//! primitives the rasterizer draws come out: triangle strips. Points and line strips leave
//! the draw unmodelled, named.

use std::collections::BTreeMap;

use super::io;
use super::raster::{self, Vertex};
use crate::nir::geometry::{GeometryInfo, Primitive};
use crate::nir::interp::{self, Environment, GeometryLane, GeometryOutput};
use crate::nir::ir::Shader;
use crate::nir::opcodes::Intrinsic;

/// Why the geometry stage of a draw did not produce triangles.
#[derive(Debug, PartialEq, Eq)]
pub enum GeometryError {
    /// A draw mode, input or output primitive the runner does not model (its name).
    Unmodelled(String),
    /// The draw itself is wrong for the shader (GL would raise an error), or the shader
    /// failed to run.
    Fail(String),
}

/// The primitives of a draw of `count` vertices in `mode` (GL's name), as vertex indices in
/// the order the geometry shader's `gl_in[]` holds them.
pub fn input_primitives(
    mode: &str,
    count: usize,
    input: Primitive,
) -> Result<Vec<Vec<usize>>, GeometryError> {
    let tris = |t: Vec<([usize; 3], usize)>| t.into_iter().map(|(v, _)| v.to_vec()).collect();
    let (class, prims): (Primitive, Vec<Vec<usize>>) = match mode {
        "GL_POINTS" => (Primitive::Points, (0..count).map(|i| vec![i]).collect()),
        "GL_LINES" => (
            Primitive::Lines,
            (0..count / 2).map(|i| vec![2 * i, 2 * i + 1]).collect(),
        ),
        "GL_LINE_STRIP" => (
            Primitive::Lines,
            (0..count.saturating_sub(1))
                .map(|i| vec![i, i + 1])
                .collect(),
        ),
        "GL_LINE_LOOP" => (
            Primitive::Lines,
            (0..if count >= 2 { count } else { 0 })
                .map(|i| vec![i, (i + 1) % count])
                .collect(),
        ),
        "GL_TRIANGLES" => (Primitive::Triangles, tris(raster::list_triangles(count))),
        "GL_TRIANGLE_STRIP" => (Primitive::Triangles, tris(raster::strip_triangles(count))),
        "GL_TRIANGLE_FAN" => (Primitive::Triangles, tris(raster::fan_triangles(count))),
        "GL_LINES_ADJACENCY" => (
            Primitive::LinesAdjacency,
            (0..count / 4)
                .map(|i| (4 * i..4 * i + 4).collect())
                .collect(),
        ),
        "GL_LINE_STRIP_ADJACENCY" => (
            Primitive::LinesAdjacency,
            (0..count.saturating_sub(3))
                .map(|i| (i..i + 4).collect())
                .collect(),
        ),
        "GL_TRIANGLES_ADJACENCY" => (
            Primitive::TrianglesAdjacency,
            (0..count / 6)
                .map(|i| (6 * i..6 * i + 6).collect())
                .collect(),
        ),
        other => {
            return Err(GeometryError::Unmodelled(format!(
                "draw {other} with a geometry shader"
            )))
        }
    };
    if input == Primitive::Other {
        return Err(GeometryError::Unmodelled(
            "geometry shader input primitive the NIR does not name".into(),
        ));
    }
    if class != input {
        return Err(GeometryError::Fail(format!(
            "draw {mode} into a geometry shader taking {input:?} (GL: INVALID_OPERATION)"
        )));
    }
    Ok(prims)
}

/// Runs the geometry shader on the interpreter over `prims` of `verts` (outputs of the
/// previous stage by slot name), and returns the emitted vertices of stream 0 with the
/// triangles of their strips.
#[allow(clippy::type_complexity)]
pub fn run_interp(
    gs: &Shader,
    mut env: Environment,
    verts: &[Vertex],
    prims: &[Vec<usize>],
    vue_header: bool,
) -> Result<(Vec<Vertex>, Vec<([usize; 3], usize)>), GeometryError> {
    let info = match GeometryInfo::of(&gs.info) {
        Some(Ok(i)) => i,
        Some(Err(e)) => return Err(GeometryError::Fail(format!("geometry shader header: {e}"))),
        None => return Err(GeometryError::Fail("not a geometry shader".into())),
    };
    let inputs = per_vertex_inputs(gs, verts, vue_header);
    let primitives: Vec<_> = prims
        .iter()
        .enumerate()
        .map(|(id, p)| (p.iter().map(|&v| inputs[v].clone()).collect(), id as u32))
        .collect();
    env.geometry = GeometryLane::for_primitives(&primitives, info.invocations);
    let lanes = env.geometry.len();
    if lanes == 0 {
        return Ok((Vec::new(), Vec::new()));
    }
    let result = interp::run(gs, &env, lanes)
        .map_err(|e| GeometryError::Fail(format!("geometry shader (NIR interpreter): {e}")))?;
    let outputs: Vec<&GeometryOutput> = result.invocations.iter().map(|i| &i.geometry).collect();
    strips_to_triangles(gs, info.output_primitive, &outputs)
}

/// Each vertex's values for the geometry shader's per-vertex inputs, by driver location.
///
/// Two slots are laid out as the hardware's input VUE holds them rather than as the previous
/// stage's outputs name them: the clip-distance array (compact: eight floats in two slots,
/// read through one range) and, with `vue_header` (Intel), the VUE header that
/// `VARYING_SLOT_PSIZ` names (point size in w, layer in y, viewport index in z).
pub(super) fn per_vertex_inputs(
    gs: &Shader,
    verts: &[Vertex],
    vue_header: bool,
) -> Vec<BTreeMap<u32, [u32; 4]>> {
    let ranges = io::ranges(gs, &[Intrinsic::LoadPerVertexInput, Intrinsic::LoadInput]);
    verts
        .iter()
        .map(|v| {
            // A slot the previous stage does not write reads as zero (GL leaves it undefined).
            let slot = |name: &str| v.outputs.get(name).copied().unwrap_or([0; 4]);
            let mut map = BTreeMap::new();
            for r in &ranges {
                let slots = match r.location.as_str() {
                    "VARYING_SLOT_CLIP_DIST0" => r.slots.max(2),
                    _ => r.slots.max(1),
                };
                for k in 0..slots {
                    let name = io::offset_location(&r.location, k);
                    let value = match name.as_str() {
                        "VARYING_SLOT_PSIZ" if vue_header => [
                            0,
                            slot("VARYING_SLOT_LAYER")[0],
                            slot("VARYING_SLOT_VIEWPORT")[0],
                            slot("VARYING_SLOT_PSIZ")[0],
                        ],
                        _ => slot(&name),
                    };
                    map.insert(r.base + k, value);
                }
            }
            map
        })
        .collect()
}

/// The emitted vertices of stream 0 of every lane, in lane order, and the triangles of their
/// strips.
#[allow(clippy::type_complexity)]
fn strips_to_triangles(
    gs: &Shader,
    output: Primitive,
    lanes: &[&GeometryOutput],
) -> Result<(Vec<Vertex>, Vec<([usize; 3], usize)>), GeometryError> {
    triangle_strips(output)?;
    let ranges = io::ranges(gs, &[Intrinsic::StoreOutput]);
    let strips = lanes.iter().flat_map(|lane| {
        lane.strips(0).into_iter().map(|strip| {
            lane.streams[0][strip]
                .iter()
                .map(|e| io::named_outputs(&ranges, &e.outputs))
                .collect()
        })
    });
    triangles_of_strips(strips)
}

/// Whether the runner can draw what a geometry shader with output primitive `output` emits.
pub fn triangle_strips(output: Primitive) -> Result<(), GeometryError> {
    if output != Primitive::TriangleStrip {
        return Err(GeometryError::Unmodelled(format!(
            "geometry shader output {output:?} (the runner draws triangles)"
        )));
    }
    Ok(())
}

/// The vertices of `strips` (each vertex: its outputs by varying name) and the triangles of
/// each strip with their provoking vertex.
#[allow(clippy::type_complexity)]
pub fn triangles_of_strips(
    strips: impl Iterator<Item = Vec<BTreeMap<String, [u32; 4]>>>,
) -> Result<(Vec<Vertex>, Vec<([usize; 3], usize)>), GeometryError> {
    let mut verts = Vec::new();
    let mut tris = Vec::new();
    for strip in strips {
        let first = verts.len();
        let len = strip.len();
        for outputs in strip {
            let clip = outputs
                .get("VARYING_SLOT_POS")
                .ok_or_else(|| {
                    GeometryError::Fail(
                        "the geometry shader emitted a vertex without a position".into(),
                    )
                })?
                .map(f32::from_bits);
            verts.push(Vertex {
                clip,
                outputs,
                clip_distances: Vec::new(),
            });
        }
        tris.extend(
            raster::strip_triangles(len)
                .into_iter()
                .map(|(t, p)| (t.map(|i| first + i), first + p)),
        );
    }
    Ok((verts, tris))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_hand_the_shader_gl_order() {
        let p = input_primitives("GL_TRIANGLE_STRIP", 5, Primitive::Triangles).unwrap();
        assert_eq!(p, vec![vec![0, 1, 2], vec![2, 1, 3], vec![2, 3, 4]]);
        let p = input_primitives("GL_TRIANGLE_FAN", 4, Primitive::Triangles).unwrap();
        assert_eq!(p, vec![vec![0, 1, 2], vec![0, 2, 3]]);
        let p = input_primitives("GL_LINE_LOOP", 3, Primitive::Lines).unwrap();
        assert_eq!(p, vec![vec![0, 1], vec![1, 2], vec![2, 0]]);
        let p = input_primitives("GL_LINE_STRIP_ADJACENCY", 5, Primitive::LinesAdjacency);
        assert_eq!(p.unwrap(), vec![vec![0, 1, 2, 3], vec![1, 2, 3, 4]]);
    }

    #[test]
    fn a_mode_of_another_class_is_a_gl_error() {
        let e = input_primitives("GL_POINTS", 3, Primitive::Triangles).unwrap_err();
        assert!(matches!(e, GeometryError::Fail(m) if m.contains("INVALID_OPERATION")));
        let e = input_primitives("GL_QUADS", 4, Primitive::Triangles).unwrap_err();
        assert!(matches!(e, GeometryError::Unmodelled(_)));
    }
}
