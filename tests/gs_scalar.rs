//! Scalar geometry shaders on Gen8/Gen9 without the shared corpus: the hand-written examples
//! compile and verify on bdw and skl, their `brw_gs_prog_data` facts are the ones worked out
//! by hand from Mesa's rules (brw_compile_gs, gs_thread_payload), Gen7 refuses them by name,
//! and the check fails a program run against another shader's vertex list.

use gpucc::intel::backend::{verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::geometry::ControlDataFormat;
use gpucc::intel::DevInfo;
use gpucc::nir;

fn load(name: &str) -> nir::Shader {
    let path = format!("{}/examples/intel/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let s = nir::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    nir::validate(&s).unwrap_or_else(|e| panic!("{path}: {e}"));
    s
}

const EXAMPLES: [&str; 4] = [
    "passthrough.gs.nir",
    "strips.gs.nir",
    "strips-long.gs.nir",
    "instanced.gs.nir",
];

#[test]
fn every_example_compiles_and_verifies_on_bdw_and_skl() {
    for platform in ["bdw", "skl"] {
        let ctx = Context::new(DevInfo::from_name(platform).unwrap());
        for name in EXAMPLES {
            let s = load(name);
            let k = ctx
                .compile(&s, &Options::widths(&[8]).validating())
                .unwrap_or_else(|e| panic!("{platform} {name}: {e}"));
            assert_eq!(
                verify_kernel(&ctx, &s, &k, 8),
                VerifyOutcome::Pass,
                "{platform} {name}"
            );
        }
    }
}

#[test]
fn the_facts_are_mesas() {
    let ctx = Context::new(DevInfo::from_name("bdw").unwrap());
    let facts = |name: &str| {
        let k = ctx.compile(&load(name), &Options::widths(&[8])).unwrap();
        (k.geometry.clone().unwrap(), k.simd[0].dispatch_grf_start)
    };
    // passthrough: inputs POS and VAR0 -> input VUE map (header, POS, VAR0) = 3 slots, read
    // length ceil(3/2) = 2; 8 * 2 * 3 vertices = 48 > 24 registers, so 24 / 3 = 8 -> 1.
    // Outputs (header, POS, VAR0) = 48 bytes -> 2 hwords. No EndPrimitive: no header.
    // Entry: 2 * 32 * 3 vertices + 0 + 32 (vertex count) = 224 bytes -> 4 x 64.
    let (g, grf) = facts("passthrough.gs.nir");
    assert_eq!(g.input_vue_map.num_slots(), 3);
    assert_eq!(g.urb_read_length, 1);
    assert_eq!(g.output_vertex_size_hwords, 2);
    assert_eq!(g.control_data_format, ControlDataFormat::Cut);
    assert_eq!(g.control_data_bits_per_vertex, 0);
    assert_eq!(g.control_data_header_size_hwords, 0);
    assert_eq!(g.static_vertex_count, Some(3));
    assert_eq!(g.output_topology, 5); // _3DPRIM_TRISTRIP
    assert_eq!(g.urb_entry_size, 4);
    assert_eq!((g.vertices_in, g.invocations), (3, 1));
    assert!(!g.include_primitive_id);
    // g0, g1, then one register of handles per vertex: push constants at g5.
    assert_eq!(grf, 5);
    // strips: 40 vertices with cut bits -> 40 bits -> 1 hword; the count is dynamic; the
    // primitive id adds g2. Entry: 2 * 32 * 40 + 32 + 32 = 2624 bytes -> 41 x 64.
    let (g, grf) = facts("strips.gs.nir");
    assert_eq!(g.control_data_bits_per_vertex, 1);
    assert_eq!(g.control_data_header_size_hwords, 1);
    assert_eq!(g.static_vertex_count, None);
    assert!(g.include_primitive_id);
    assert_eq!(g.urb_entry_size, 41);
    assert_eq!(g.first_vertex_oword(), 4);
    assert_eq!(grf, 6);
    // strips-long: 160 bits -> 1 hword still (256 bits each).
    let (g, _) = facts("strips-long.gs.nir");
    assert_eq!(g.control_data_header_size_hwords, 1);
    // instanced: two invocations; three static vertices.
    let (g, _) = facts("instanced.gs.nir");
    assert_eq!(g.invocations, 2);
    assert_eq!(g.static_vertex_count, Some(3));
}

/// Gen7 builds geometry shaders with the vec4 backend (Mesa's `vec4_gs_visitor`): one
/// SIMD4x2 program, two primitives a thread, checked against the interpreter.
#[test]
fn gen7_builds_geometry_shaders_as_vec4() {
    let s = load("cut.gs.nir");
    let ctx = Context::new(DevInfo::from_name("ivb").unwrap());
    let k = ctx.compile(&s, &Options::widths(&[8])).unwrap();
    assert_eq!(k.simd.len(), 1);
    assert_eq!(k.simd[0].simd, gpucc::intel::kernel::SIMD4X2);
    assert!(matches!(
        verify_kernel(&ctx, &s, &k, 8),
        VerifyOutcome::Pass
    ));
}

/// A program checked against a shader that differs from its own must fail, naming what
/// differs: a vertex's output, a cut bit, the vertex count.
#[test]
fn the_check_fails_a_program_run_against_another_shader() {
    let ctx = Context::new(DevInfo::from_name("bdw").unwrap());
    let check = |name: &str, from: &str, to: &str| {
        let real = load(name);
        let text = nir::print(&real).replacen(from, to, 1);
        assert_ne!(text, nir::print(&real), "{from}");
        let other = nir::parse(&text).unwrap();
        let k = ctx.compile(&real, &Options::widths(&[8])).unwrap();
        match verify_kernel(&ctx, &other, &k, 8) {
            VerifyOutcome::Fail { output, .. } => output,
            v => panic!("{name} with {to}: {v:?}"),
        }
    };
    // The second vertex's position from in[2] instead of in[1].
    let out = check(
        "passthrough.gs.nir",
        "@load_per_vertex_input (%1 (0x1), %0 (0x0)) (base=1",
        "@load_per_vertex_input (%2 (0x2), %0 (0x0)) (base=1",
    );
    assert!(
        out.contains("vertex 1") && out.contains("VARYING_SLOT_POS"),
        "{out}"
    );
    // Strips cut after vertices 3, 7, ... instead of 2, 6, ...
    let out = check("strips.gs.nir", "%5 (0x2)", "%3 (0x3)");
    assert!(out.contains("cut bit of vertex 2"), "{out}");
    // One vertex fewer per primitive.
    let out = check(
        "strips.gs.nir",
        "%9 = iadd %8, %6 (0x1f)",
        "%9 = iadd %8, %3 (0x3)",
    );
    assert!(out.contains("vertex count"), "{out}");
}
