//! Tessellation-control semantics: one patch, one invocation per output vertex, and the
//! patch URB entry they all share.
//!
//! Intel-form NIR (what Mesa's brw hands its backend) has already laid the TCS outputs out as
//! slots of the patch URB entry (`brw_nir_lower_tcs_outputs` over `brw_compute_tess_vue_map`):
//! `store_output` / `load_output` address slot `base + offset` (the tess levels in the two
//! header slots, in the domain's layout, then the patch varyings), and
//! `store_per_vertex_output` / `load_per_vertex_output` address slot `base + offset` too,
//! the vertex index already folded into the offset (vertex × per-vertex slots). So a run
//! keeps one flat entry, slot to components, that every invocation writes and reads back
//! ([`Environment::tess_ctrl`](super::Environment::tess_ctrl); the result is
//! [`RunResult::patch`](super::RunResult::patch)). A component nobody wrote reads as the
//! environment's undefined bits.
//!
//! Inputs are per vertex of the input patch (`load_per_vertex_input`, vertex index then slot
//! of the input VUE), as a geometry shader's are: each invocation is a
//! [`GeometryLane`] whose vertices are the patch's, with its invocation id ([`tcs_lanes`]).
//!
//! Barriers need no work: the executor runs the invocations in lockstep, so every invocation
//! has made every write before the barrier when any goes past it, which is what a TCS
//! barrier promises (GLSL allows it only in the shader's uniform control flow).

use super::gs::{GeometryLane, VertexInputs};

/// The lanes of a run of one patch: invocation `i` of `output_vertices` reads the patch's
/// `vertices` and has invocation id `i`.
pub fn tcs_lanes(
    vertices: &[VertexInputs],
    primitive_id: u32,
    output_vertices: u32,
) -> Vec<GeometryLane> {
    (0..output_vertices)
        .map(|i| GeometryLane {
            vertices: vertices.to_vec(),
            primitive_id,
            invocation_id: i,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nir::interp::{run, Environment};

    fn f(v: f32) -> u64 {
        v.to_bits() as u64
    }

    /// The bundled examples/intel/barrier.tcs.nir on a three-vertex patch. Its tess VUE map
    /// (header slots 0-1, one patch varying in 2, then per vertex POS and VAR0): vertex i's
    /// position at slot 3 + 2i, its ring value at 4 + 2i. Invocation i copies input vertex
    /// i's position, writes i to ring.x, then after the barrier reads vertex (i + 1) % 3's
    /// ring.x into its ring.y; every invocation writes the outer levels (1, 2, 3, 4), and
    /// invocation 0 copies its position to the patch varying.
    #[test]
    fn barrier_example_leaves_the_patch_entry_worked_out_by_hand() {
        let shader = crate::nir::parse(include_str!("../../../examples/intel/barrier.tcs.nir"))
            .expect("the example parses");
        let vertex = |v: u32| -> VertexInputs {
            [(
                1,
                [v as f32 + 1.0, 2.0 * v as f32, 0.5, 1.0].map(f32::to_bits),
            )]
            .into_iter()
            .collect()
        };
        let vertices: Vec<VertexInputs> = (0..4).map(vertex).collect();
        let env = Environment {
            geometry: tcs_lanes(&vertices, 9, 3),
            tess_ctrl: true,
            generate_inputs: false,
            ..Default::default()
        };
        let r = run(&shader, &env, 3).expect("the example runs");
        let comps = |s: u32| r.patch.get(&s).map(|o| o.comps).unwrap_or([None; 8]);
        assert_eq!(
            comps(1)[..4],
            [Some(f(1.0)), Some(f(2.0)), Some(f(3.0)), Some(f(4.0))]
        );
        // Invocation 0's position: input vertex 0's (1, 0, 0.5, 1).
        assert_eq!(
            comps(2)[..4],
            [Some(f(1.0)), Some(f(0.0)), Some(f(0.5)), Some(f(1.0))]
        );
        for i in 0..3u32 {
            let p = [i as f32 + 1.0, 2.0 * i as f32, 0.5, 1.0].map(|x| Some(f(x)));
            assert_eq!(comps(3 + 2 * i)[..4], p, "vertex {i} position");
            let ring = [Some(i as u64), Some(((i + 1) % 3) as u64), None, None];
            assert_eq!(comps(4 + 2 * i)[..4], ring, "vertex {i} ring");
        }
        assert_eq!(r.patch.len(), 8, "slots 1-8 only: {:?}", r.patch.keys());
        assert!(r.invocations.iter().all(|i| i.outputs.is_empty()));
    }

    /// A component read before anything wrote it holds the undefined bits: reading slot
    /// 5 + 2k for k = (i + 1) % 3 reads vertex k + 1's position, which vertex 3 (past the
    /// three-vertex patch) never got.
    #[test]
    fn unwritten_patch_components_read_as_undefined_bits() {
        let text = include_str!("../../../examples/intel/barrier.tcs.nir")
            .replace("(%8, %9) (base=4", "(%8, %9) (base=5");
        let shader = crate::nir::parse(&text).expect("the edited example parses");
        let vertex = |v: u32| -> VertexInputs {
            [(1, [v as f32 + 1.0, 0.0, 0.0, 1.0].map(f32::to_bits))]
                .into_iter()
                .collect()
        };
        let vertices: Vec<VertexInputs> = (0..3).map(vertex).collect();
        let env = Environment {
            geometry: tcs_lanes(&vertices, 0, 3),
            tess_ctrl: true,
            generate_inputs: false,
            undefined_bits: 0x1234_5678,
            ..Default::default()
        };
        let r = run(&shader, &env, 3).expect("runs");
        let ring_y = |i: u32| r.patch[&(4 + 2 * i)].comps[1];
        assert_eq!(ring_y(0), Some(f(3.0)), "slot 7: vertex 2's position x");
        assert_eq!(ring_y(1), Some(0x1234_5678), "slot 9: nothing there");
        assert_eq!(ring_y(2), Some(f(2.0)), "slot 5: vertex 1's position x");
    }
}
