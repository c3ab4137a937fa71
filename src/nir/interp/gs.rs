//! Geometry-shader semantics: what one invocation reads from its input primitive and the
//! vertices it emits.
//!
//! A run of a geometry shader has one lane per (input primitive, invocation): lane
//! `p * invocations + i` is invocation `i` of primitive `p` ([`GeometryLane::for_primitives`]).
//! Each lane reads the per-vertex inputs of its primitive's `vertices_in` vertices
//! (`load_per_vertex_input`, vertex index then slot), its primitive id and invocation id.
//!
//! What a lane leaves behind is its [`GeometryOutput`]: per stream, the vertices it emitted in
//! order, each holding the output values current at `emit_vertex_with_counter` (outputs keep
//! their values across an emit, as the registers holding them do), and which vertices end a
//! strip (`end_primitive_with_counter` after them). `set_vertex_and_primitive_count` records
//! the counts the shader declares at its end. Backend-neutral: a scalar backend writes these
//! vertices into one URB entry per lane, a vec4 backend into one per object; both are checked
//! against this list.

use std::collections::BTreeMap;

use super::output::OutputSlot;
use crate::nir::geometry::MAX_STREAMS;

/// One input vertex: input slot (driver location) to its four components' raw bits.
pub type VertexInputs = BTreeMap<u32, [u32; 4]>;

/// What one lane of a geometry run reads from outside.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GeometryLane {
    /// Per vertex of the input primitive: input slot (driver location, `base + offset`) to
    /// its four components' raw bits.
    pub vertices: Vec<VertexInputs>,
    /// `gl_PrimitiveIDIn`.
    pub primitive_id: u32,
    /// `gl_InvocationID`.
    pub invocation_id: u32,
}

impl GeometryLane {
    /// The lanes of a run over `primitives` (each: its vertices and primitive id) with
    /// `invocations` invocations each, in primitive-major order.
    pub fn for_primitives(
        primitives: &[(Vec<VertexInputs>, u32)],
        invocations: u32,
    ) -> Vec<GeometryLane> {
        primitives
            .iter()
            .flat_map(|(vertices, id)| {
                (0..invocations.max(1)).map(move |i| GeometryLane {
                    vertices: vertices.clone(),
                    primitive_id: *id,
                    invocation_id: i,
                })
            })
            .collect()
    }
}

/// One emitted vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct EmittedVertex {
    /// Every output written so far, with the value it held at the emit.
    pub outputs: BTreeMap<u32, OutputSlot>,
    /// The vertex count the shader passed with the emit (its own counter).
    pub counter: u32,
    /// `end_primitive_with_counter` came after this vertex and before the next one: the
    /// strip ends here (Mesa's cut bit of this vertex).
    pub ends_primitive: bool,
}

/// What one geometry-shader invocation emitted, per stream.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GeometryOutput {
    pub streams: [Vec<EmittedVertex>; MAX_STREAMS as usize],
    /// The vertex and primitive counts `set_vertex_and_primitive_count` gave, per stream.
    pub counts: [Option<(u32, u32)>; MAX_STREAMS as usize],
}

impl GeometryOutput {
    /// `emit_vertex_with_counter`: the current outputs become the next vertex of `stream`.
    pub(super) fn emit(
        &mut self,
        stream: usize,
        counter: u32,
        outputs: &BTreeMap<u32, OutputSlot>,
    ) -> Result<(), String> {
        let list = self.stream_mut(stream)?;
        list.push(EmittedVertex {
            outputs: outputs.clone(),
            counter,
            ends_primitive: false,
        });
        Ok(())
    }

    /// `end_primitive_with_counter`: the strip of `stream` ends after its last vertex (a
    /// no-op before the first vertex).
    pub(super) fn end_primitive(&mut self, stream: usize) -> Result<(), String> {
        if let Some(last) = self.stream_mut(stream)?.last_mut() {
            last.ends_primitive = true;
        }
        Ok(())
    }

    /// `set_vertex_and_primitive_count`.
    pub(super) fn set_counts(
        &mut self,
        stream: usize,
        vertices: u32,
        primitives: u32,
    ) -> Result<(), String> {
        self.stream_mut(stream)?;
        self.counts[stream] = Some((vertices, primitives));
        Ok(())
    }

    fn stream_mut(&mut self, stream: usize) -> Result<&mut Vec<EmittedVertex>, String> {
        self.streams
            .get_mut(stream)
            .ok_or_else(|| format!("vertex stream {stream} (there are {MAX_STREAMS})"))
    }

    /// The strips of `stream`: runs of vertex indices, each ended by a cut or by the last
    /// vertex.
    pub fn strips(&self, stream: usize) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        let vertices = &self.streams[stream];
        for (k, v) in vertices.iter().enumerate() {
            if v.ends_primitive {
                out.push(start..k + 1);
                start = k + 1;
            }
        }
        if start < vertices.len() {
            out.push(start..vertices.len());
        }
        out
    }
}
