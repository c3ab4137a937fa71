//! The interpreter's geometry-shader semantics: one lane per (primitive, invocation),
//! per-vertex inputs, primitive and invocation ids, emitted vertices with their strip
//! boundaries and the declared counts. Expected vertex lists are worked out by hand in the
//! comments.

use std::collections::BTreeMap;

use gpucc::nir;
use gpucc::nir::geometry::{GeometryInfo, Primitive};
use gpucc::nir::interp::{self, Environment, GeometryLane};

/// A triangle-in, strip-out shader with two invocations:
///
/// ```text
/// pos = in[0].pos; var0.x = gl_PrimitiveIDIn; EmitVertex(); EndPrimitive();
/// pos = in[2].pos;                            EmitVertex();
/// var0.x = gl_InvocationID;                   EmitVertex();
/// ```
const SHADER: &str = "shader: MESA_SHADER_GEOMETRY
name: gs
stage: 3
next_stage: 4
inputs_read: 0
outputs_written: 0,32
output_primitive: TRIANGLE_STRIP
input_primitive: TRIANGLES
vertices_out: 4
invocations: 2
vertices_in: 3
active_stream_mask: 0x01
inputs: 1
outputs: 2
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4[3] gl_in (VARYING_SLOT_POS.xyzw, 1, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_FLAT none int v (VARYING_SLOT_VAR0.x, 32, 0)
decl_function main (0 params)

impl main {
    block b0:      // preds: 
    con 32     %0 = load_const (0x00000000)
    con 32     %1 = load_const (0x00000001)
    con 32     %2 = load_const (0x00000002)
    con 32     %3 = load_const (0x00000003)
    div 32x4   %4 = @load_per_vertex_input (%0 (0x0), %0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)
    div 32x4   %5 = @load_per_vertex_input (%2 (0x2), %0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)
    div 32     %6 = @load_primitive_id () ()
    div 32     %7 = @load_invocation_id () ()
                    @store_output (%4, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1 gs_streams(x=0 y=0 z=0 w=0), xfb(), xfb2())  // gl_Position
                    @store_output (%6, %0 (0x0)) (base=32, range=1, wrmask=x, component=0, src_type=int32, io location=VARYING_SLOT_VAR0 slots=1 gs_streams(x=0), xfb(), xfb2())  // v
                    @emit_vertex_with_counter (%0 (0x0), %0 (0x0)) (stream_id=0)
                    @end_primitive_with_counter (%1 (0x1), %1 (0x1)) (stream_id=0)
                    @store_output (%5, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1 gs_streams(x=0 y=0 z=0 w=0), xfb(), xfb2())  // gl_Position
                    @emit_vertex_with_counter (%1 (0x1), %1 (0x1)) (stream_id=0)
                    @store_output (%7, %0 (0x0)) (base=32, range=1, wrmask=x, component=0, src_type=int32, io location=VARYING_SLOT_VAR0 slots=1 gs_streams(x=0), xfb(), xfb2())  // v
                    @emit_vertex_with_counter (%2 (0x2), %1 (0x1)) (stream_id=0)
                    @set_vertex_and_primitive_count (%3 (0x3), %2 (0x2)) (stream_id=0)
                    // succs: b1 
    block b1:
}
";

fn shader(text: &str) -> nir::Shader {
    let s = nir::parse(text).unwrap_or_else(|e| panic!("{e}"));
    nir::validate(&s).unwrap_or_else(|e| panic!("{e}"));
    s
}

/// Vertex `v` of primitive `p`: position slot 1 holds (10p + v, 1, 2, 3) as floats.
fn primitive(p: u32) -> (Vec<BTreeMap<u32, [u32; 4]>>, u32) {
    let vertices = (0..3)
        .map(|v| {
            let pos = [(10 * p + v) as f32, 1.0, 2.0, 3.0].map(f32::to_bits);
            BTreeMap::from([(1, pos)])
        })
        .collect();
    (vertices, 100 + p)
}

#[test]
fn the_header_gives_the_geometry_facts() {
    let s = shader(SHADER);
    let g = GeometryInfo::of(&s.info).unwrap().unwrap();
    assert_eq!((g.vertices_in, g.vertices_out, g.invocations), (3, 4, 2));
    assert_eq!(g.input_primitive, Primitive::Triangles);
    assert_eq!(g.output_primitive, Primitive::TriangleStrip);
    assert_eq!(g.active_stream_mask, 1);
    // The fields and the new intrinsics print back, and the printed text reads the same.
    let printed = nir::print(&s);
    for line in [
        "vertices_in: 3",
        "invocations: 2",
        "active_stream_mask: 0x01",
    ] {
        assert!(printed.contains(line), "{line}");
    }
    assert!(printed.contains("@end_primitive_with_counter (%1 (0x1), %1 (0x1)) (stream_id=0)"));
    assert_eq!(nir::print(&shader(&printed)), printed);
}

#[test]
fn each_lane_emits_its_vertices_with_strip_ends() {
    let s = shader(SHADER);
    let lanes = GeometryLane::for_primitives(&[primitive(0), primitive(1)], 2);
    assert_eq!(lanes.len(), 4);
    let env = Environment {
        geometry: lanes,
        generate_inputs: false,
        ..Default::default()
    };
    let r = interp::run(&s, &env, 4).unwrap_or_else(|e| panic!("{e}"));
    for (lane, inv) in r.invocations.iter().enumerate() {
        let (p, i) = (lane as u32 / 2, lane as u32 % 2);
        let g = &inv.geometry;
        // Only stream 0, three vertices, counts (3, 2) as the shader declares them.
        assert!(g.streams[1..].iter().all(Vec::is_empty));
        assert_eq!(g.counts[0], Some((3, 2)));
        let verts = &g.streams[0];
        assert_eq!(verts.len(), 3, "lane {lane}");
        let pos = |k: usize| {
            verts[k].outputs[&0]
                .comps
                .iter()
                .take(4)
                .map(|c| f32::from_bits(c.unwrap() as u32))
                .collect::<Vec<_>>()
        };
        let var0 = |k: usize| verts[k].outputs[&32].comps[0].unwrap() as u32;
        // Vertex 0: in[0].pos = (10p, 1, 2, 3), primitive id 100 + p, then the cut.
        assert_eq!(pos(0), vec![(10 * p) as f32, 1.0, 2.0, 3.0]);
        assert_eq!(var0(0), 100 + p);
        // Vertex 1: in[2].pos = (10p + 2, ...), var0 still the primitive id.
        assert_eq!(pos(1), vec![(10 * p + 2) as f32, 1.0, 2.0, 3.0]);
        assert_eq!(var0(1), 100 + p);
        // Vertex 2: the same position, var0 now the invocation id.
        assert_eq!(pos(2), vec![(10 * p + 2) as f32, 1.0, 2.0, 3.0]);
        assert_eq!(var0(2), i);
        assert_eq!(
            verts.iter().map(|v| v.ends_primitive).collect::<Vec<_>>(),
            vec![true, false, false]
        );
        assert_eq!(
            verts.iter().map(|v| v.counter).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        // Two strips: [v0] and [v1, v2].
        assert_eq!(g.strips(0), vec![0..1, 1..3]);
    }
}

#[test]
fn a_vertex_past_the_primitive_is_an_error_unless_robust() {
    let text = SHADER.replace(
        "@load_per_vertex_input (%2 (0x2)",
        "@load_per_vertex_input (%3 (0x3)",
    );
    let s = shader(&text);
    let mut env = Environment {
        geometry: GeometryLane::for_primitives(&[primitive(0)], 2),
        generate_inputs: false,
        ..Default::default()
    };
    let e = interp::run(&s, &env, 2).unwrap_err();
    assert!(e.to_string().contains("vertex 3 of a 3-vertex"), "{e}");
    env.robust_access = true;
    let r = interp::run(&s, &env, 2).unwrap();
    assert_eq!(
        r.invocations[0].geometry.streams[0][1].outputs[&0].comps[0],
        Some(0)
    );
}

#[test]
fn end_primitive_before_any_vertex_cuts_nothing() {
    // EndPrimitive first: no vertex to end; the cut after vertex 0 stays as the shader has it.
    let text = SHADER.replace(
        "                    @store_output (%4",
        "                    @end_primitive_with_counter (%0 (0x0), %0 (0x0)) (stream_id=0)\n                    @store_output (%4",
    );
    let s = shader(&text);
    let env = Environment {
        geometry: GeometryLane::for_primitives(&[primitive(0)], 1),
        generate_inputs: false,
        ..Default::default()
    };
    let r = interp::run(&s, &env, 1).unwrap();
    assert_eq!(r.invocations[0].geometry.strips(0), vec![0..1, 1..3]);
}
