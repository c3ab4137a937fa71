//! The geometry-shader facts of a shader's header (Mesa's `shader_info.gs`), read from the
//! fields nir_print writes for a `MESA_SHADER_GEOMETRY` shader: how many vertices each input
//! primitive has, how many the shader may emit, how many times it runs per primitive, the
//! primitive types and the streams it emits to. The parser keeps every header field as text
//! (so printing stays byte-identical); this is the typed view the interpreter, the backends
//! and the validator share.

use super::ir::ShaderInfo;
use super::types::Stage;

/// Mesa's `mesa_prim` values the geometry stage uses, by nir_print name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    Points,
    Lines,
    LineStrip,
    Triangles,
    TriangleStrip,
    LinesAdjacency,
    TrianglesAdjacency,
    /// A name the table does not know (`UNKNOWN`: what nir_print writes for the adjacency
    /// primitives it has no name for).
    Other,
}

impl Primitive {
    /// The primitive nir_print names `name` (`POINTS`, `TRIANGLE_STRIP`, ...).
    pub fn from_name(name: &str) -> Primitive {
        match name {
            "POINTS" => Primitive::Points,
            "LINES" => Primitive::Lines,
            "LINE_STRIP" => Primitive::LineStrip,
            "TRIANGLES" => Primitive::Triangles,
            "TRIANGLE_STRIP" => Primitive::TriangleStrip,
            "LINES_ADJACENCY" => Primitive::LinesAdjacency,
            "TRIANGLES_ADJACENCY" => Primitive::TrianglesAdjacency,
            _ => Primitive::Other,
        }
    }
}

/// Mesa's `shader_info.gs` as the header gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeometryInfo {
    /// Vertices per input primitive (`vertices_in`).
    pub vertices_in: u32,
    /// The most vertices one invocation emits (`vertices_out`, GLSL's `max_vertices`).
    pub vertices_out: u32,
    /// Invocations per input primitive (`invocations`, GLSL's instancing).
    pub invocations: u32,
    pub input_primitive: Primitive,
    pub output_primitive: Primitive,
    /// Bit n: the shader emits to stream n (`active_stream_mask`).
    pub active_stream_mask: u8,
}

/// The most vertices a geometry shader may emit per invocation (GL's
/// `MAX_GEOMETRY_OUTPUT_VERTICES` on every driver gpucc serves).
pub const MAX_VERTICES_OUT: u32 = 1024;

/// The most vertices an input primitive has (triangles with adjacency).
pub const MAX_VERTICES_IN: u32 = 6;

/// Vertex streams (GL's `MAX_VERTEX_STREAMS`).
pub const MAX_STREAMS: u32 = 4;

impl GeometryInfo {
    /// The facts of a geometry shader's header; `None` for other stages. A missing field
    /// reads as Mesa's default (one invocation, stream 0 only), a malformed one as an error.
    pub fn of(info: &ShaderInfo) -> Option<Result<GeometryInfo, String>> {
        (info.stage == Stage::Geometry).then(|| Self::parse(info))
    }

    fn parse(info: &ShaderInfo) -> Result<GeometryInfo, String> {
        let number = |key: &str, default: Option<u32>| -> Result<u32, String> {
            match info.field(key) {
                None => default.ok_or_else(|| format!("geometry shader without `{key}`")),
                Some(v) => {
                    let v = v.trim();
                    let parsed = match v.strip_prefix("0x") {
                        Some(hex) => u32::from_str_radix(hex, 16),
                        None => v.parse(),
                    };
                    parsed.map_err(|_| format!("`{key}: {v}` is not a number"))
                }
            }
        };
        let g = GeometryInfo {
            vertices_in: number("vertices_in", None)?,
            vertices_out: number("vertices_out", None)?,
            invocations: number("invocations", Some(1))?.max(1),
            input_primitive: Primitive::from_name(info.field("input_primitive").unwrap_or("")),
            output_primitive: Primitive::from_name(info.field("output_primitive").unwrap_or("")),
            active_stream_mask: number("active_stream_mask", Some(1))? as u8,
        };
        if g.vertices_in == 0 || g.vertices_in > MAX_VERTICES_IN {
            return Err(format!(
                "vertices_in {} (input primitives have 1 to {MAX_VERTICES_IN} vertices)",
                g.vertices_in
            ));
        }
        if g.vertices_out > MAX_VERTICES_OUT {
            return Err(format!(
                "vertices_out {} (at most {MAX_VERTICES_OUT})",
                g.vertices_out
            ));
        }
        if g.invocations > 32 {
            return Err(format!("invocations {} (at most 32)", g.invocations));
        }
        if u32::from(g.active_stream_mask) >> MAX_STREAMS != 0 {
            return Err(format!(
                "active_stream_mask {:#x} names streams past {}",
                g.active_stream_mask,
                MAX_STREAMS - 1
            ));
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(fields: &[(&str, &str)]) -> ShaderInfo {
        let mut i = ShaderInfo::new(Stage::Geometry);
        for (k, v) in fields {
            i.set_field(k, v);
        }
        i
    }

    #[test]
    fn reads_the_header_fields() {
        let i = info(&[
            ("output_primitive", "TRIANGLE_STRIP"),
            ("input_primitive", "LINES"),
            ("vertices_out", "3"),
            ("invocations", "4"),
            ("vertices_in", "2"),
            ("active_stream_mask", "0x05"),
        ]);
        let g = GeometryInfo::of(&i).unwrap().unwrap();
        assert_eq!(g.vertices_in, 2);
        assert_eq!(g.vertices_out, 3);
        assert_eq!(g.invocations, 4);
        assert_eq!(g.input_primitive, Primitive::Lines);
        assert_eq!(g.output_primitive, Primitive::TriangleStrip);
        assert_eq!(g.active_stream_mask, 5);
    }

    #[test]
    fn other_stages_have_none_and_bad_fields_are_errors() {
        assert!(GeometryInfo::of(&ShaderInfo::new(Stage::Vertex)).is_none());
        let no_count = info(&[("vertices_out", "3")]);
        assert!(GeometryInfo::of(&no_count).unwrap().is_err());
        let streams = info(&[
            ("vertices_in", "1"),
            ("vertices_out", "1"),
            ("active_stream_mask", "0x10"),
        ]);
        assert!(GeometryInfo::of(&streams).unwrap().is_err());
    }
}
