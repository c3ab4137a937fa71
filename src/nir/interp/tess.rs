//! What a tessellation-evaluation run sees of its patch and domain.
//!
//! Intel-form NIR (what Mesa's brw hands its backend) has already turned every TES input into
//! a slot of the patch URB entry: `load_per_vertex_input` and `load_input` address slot
//! `base + offset`, with the vertex index folded into them (`brw_nir_lower_tes_inputs`), and
//! the tess levels sit in the two header slots. So the interpreter needs no per-vertex
//! structure for a TES: the invocations of one patch each get the same input slots (the
//! patch entry) in [`Environment::inputs`](super::Environment::inputs), and only the domain
//! point differs from one invocation to the next. What those values are lives here, shared
//! by the executor and the checkers that build environments.

/// The domain points and primitive of a run of tessellation-evaluation invocations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TessDomain {
    /// `gl_TessCoord` of each invocation (u, v, w); missing ones use [`default_tess_coord`].
    pub coords: Vec<[f32; 3]>,
    /// `gl_PrimitiveID`: the patch's number within the draw.
    pub primitive_id: u32,
}

impl TessDomain {
    /// The domain point of invocation `lane`.
    pub fn coord(&self, lane: usize) -> [f32; 3] {
        self.coords
            .get(lane)
            .copied()
            .unwrap_or_else(|| default_tess_coord(lane))
    }
}

/// A domain point for invocation `i` when the environment names none: barycentric
/// coordinates in sixteenths (exact in every float format), different per invocation and
/// summing to one, as a triangle domain's do (a quad domain ignores w).
pub fn default_tess_coord(i: usize) -> [f32; 3] {
    let u = (i * 5 % 17) as f32 / 16.0;
    let v = ((i * 3 + 1) % 16) as f32 / 16.0 * (1.0 - u);
    [u, v, 1.0 - u - v]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_points_lie_in_the_triangle_domain() {
        for i in 0..64 {
            let [u, v, w] = default_tess_coord(i);
            assert!((0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v) && w >= 0.0);
            assert_eq!(u + v + w, 1.0, "invocation {i}");
        }
        assert_ne!(default_tess_coord(0), default_tess_coord(1));
    }
}
