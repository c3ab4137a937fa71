//! The reference interpreter on a tessellation-evaluation shader in Intel form (the bundled
//! examples/intel/patch.tes.nir): patch slots as every invocation's inputs, the domain point
//! per invocation, the primitive id per patch. Results derived by hand.

use std::collections::BTreeMap;

use gpucc::nir::interp::{self, Environment, TessDomain};

fn f(v: f32) -> u32 {
    v.to_bits()
}

#[test]
fn patch_inputs_domain_point_and_primitive_id() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/intel/patch.tes.nir"),
    )
    .unwrap();
    let shader = gpucc::nir::parse(&text).unwrap();
    // Slots of the patch URB entry: per-vertex positions in 3, 4, 5 (vertex folded into the
    // base), the tint in 2, a far patch slot in 40.
    let patch: BTreeMap<u32, [u32; 4]> = [
        (2, [f(2.0), f(4.0), f(8.0), f(0.5)]),
        (3, [f(4.0), f(0.0), f(0.0), f(1.0)]),
        (4, [f(0.0), f(8.0), f(0.0), f(1.0)]),
        (5, [f(0.0), f(0.0), f(16.0), f(1.0)]),
        (40, [f(0.0), f(3.0), f(5.0), f(0.0)]),
    ]
    .into_iter()
    .collect();
    let env = Environment {
        inputs: vec![patch; 2],
        generate_inputs: false,
        tess: TessDomain {
            coords: vec![[0.25, 0.25, 0.5], [1.0, 0.0, 0.0]],
            primitive_id: 7,
        },
        ..Default::default()
    };
    let r = interp::run(&shader, &env, 2).unwrap();
    let out = |inv: usize, slot: u32| -> Vec<f32> {
        r.invocations[inv].outputs[&slot].comps[..4]
            .iter()
            .map(|c| f32::from_bits(c.unwrap() as u32))
            .collect()
    };
    // Position = u·p0 + v·p1 + w·p2.
    assert_eq!(out(0, 0), [1.0, 2.0, 8.0, 1.0]);
    assert_eq!(out(1, 0), [4.0, 0.0, 0.0, 1.0]);
    // Colour = tint · (u, v, w, u) + (far.y, far.z, primitive id, tint.w).
    assert_eq!(out(0, 32), [3.5, 6.0, 11.0, 0.625]);
    assert_eq!(out(1, 32), [5.0, 5.0, 7.0, 1.0]);
}
