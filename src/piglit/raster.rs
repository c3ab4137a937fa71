//! Triangle setup and per-pixel attribute evaluation for `draw rect`.
//!
//! piglit draws a rectangle as a triangle strip of its corners (x, y), (x+w, y), (x, y+h),
//! (x+w, y+h): triangles (0, 1, 2) and (2, 1, 3), the second with its winding restored, and
//! GL's provoking vertex for flat varyings is each triangle's last (2 and 3). A pixel belongs to
//! a triangle when its centre is inside, with a tie rule so a centre on the shared diagonal is
//! drawn once. Varyings are interpolated perspective-correctly (or linearly in window space for
//! `noperspective`); the window position is what gl_FragCoord reads: pixel centre, linear z,
//! and 1/w.

use std::collections::BTreeMap;

/// A vertex after the vertex stage: clip position and every output by varying slot name
/// (raw 32-bit components).
#[derive(Clone, Debug, PartialEq)]
pub struct Vertex {
    pub clip: [f32; 4],
    pub outputs: BTreeMap<String, [u32; 4]>,
    /// Signed distances to the enabled user clip planes; the primitive keeps the part where
    /// all are non-negative.
    pub clip_distances: Vec<f32>,
}

/// A set-up triangle in window coordinates.
#[derive(Clone, Debug)]
pub struct Triangle {
    /// Window x, y, z and 1/w of the three vertices.
    win: [[f32; 4]; 3],
    verts: [usize; 3],
    provoking: usize,
    area: f32,
    pub front_facing: bool,
}

/// How a fragment input is interpolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interp {
    Smooth,
    NoPerspective,
    Flat,
}

/// Sub-pixel precision of window x and y: 8 bits, as Intel's rasterizer snaps vertices.
pub const SUBPIXEL_STEPS: f32 = 256.0;

/// The window position of a clip-space position (viewport = the whole window, depth 0..1),
/// x and y snapped to the sub-pixel grid ([`SUBPIXEL_STEPS`]). Snapping is what keeps a
/// tessellated edge's T-junctions closed: a vertex on a ±45° edge between grid points stays
/// exactly on it, where float error would leave a crack a pixel centre can fall into.
pub fn window(clip: [f32; 4], size: [u32; 2]) -> [f32; 4] {
    let inv_w = 1.0 / clip[3];
    let snap = |v: f32| (v * SUBPIXEL_STEPS).round() / SUBPIXEL_STEPS;
    [
        snap((clip[0] * inv_w + 1.0) * 0.5 * size[0] as f32),
        snap((clip[1] * inv_w + 1.0) * 0.5 * size[1] as f32),
        (clip[2] * inv_w + 1.0) * 0.5,
        inv_w,
    ]
}

/// The triangles of a GL_TRIANGLE_STRIP of `n` vertices: odd triangles swap their first two
/// vertices to keep the strip's winding; the provoking vertex is each triangle's last.
pub fn strip_triangles(n: usize) -> Vec<([usize; 3], usize)> {
    (0..n.saturating_sub(2))
        .map(|i| {
            let t = if i % 2 == 0 {
                [i, i + 1, i + 2]
            } else {
                [i + 1, i, i + 2]
            };
            (t, i + 2)
        })
        .collect()
}

/// GL_TRIANGLES: independent triangles of three vertices.
pub fn list_triangles(n: usize) -> Vec<([usize; 3], usize)> {
    (0..n / 3)
        .map(|i| ([3 * i, 3 * i + 1, 3 * i + 2], 3 * i + 2))
        .collect()
}

/// GL_TRIANGLE_FAN: every triangle shares vertex 0; the provoking vertex is the last.
pub fn fan_triangles(n: usize) -> Vec<([usize; 3], usize)> {
    (0..n.saturating_sub(2))
        .map(|i| ([0, i + 1, i + 2], i + 2))
        .collect()
}

/// Sets up triangles (vertex indices and provoking vertex); degenerate ones are dropped.
pub fn setup(verts: &[Vertex], tris: &[([usize; 3], usize)], size: [u32; 2]) -> Vec<Triangle> {
    let mut out = Vec::new();
    for &(tri, provoking) in tris {
        if tri.iter().any(|&i| i >= verts.len()) {
            continue;
        }
        let win = tri.map(|i| window(verts[i].clip, size));
        let [a, b, c] = win;
        let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
        if area == 0.0 || !area.is_finite() {
            continue;
        }
        out.push(Triangle {
            win,
            verts: tri,
            provoking,
            area,
            // Counter-clockwise in GL's lower-left window coordinates is front-facing.
            front_facing: area > 0.0,
        });
    }
    out
}

impl Triangle {
    /// Screen-space barycentric weights of point `p` (may be negative outside).
    pub fn barycentric(&self, p: [f32; 2]) -> [f32; 3] {
        let [a, b, c] = self.win;
        let l1 = ((p[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (p[1] - a[1])) / self.area;
        let l2 = ((b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1])) / self.area;
        [1.0 - l1 - l2, l1, l2]
    }

    /// Whether the centre of pixel (x, y) is covered.
    pub fn covers(&self, x: u32, y: u32) -> bool {
        let p = [x as f32 + 0.5, y as f32 + 0.5];
        let sign = self.area.signum();
        (0..3).all(|k| {
            let (s, e) = (self.win[(k + 1) % 3], self.win[(k + 2) % 3]);
            // Edge function of the edge opposite vertex k, positive inside.
            let f = ((e[0] - s[0]) * (p[1] - s[1]) - (e[1] - s[1]) * (p[0] - s[0])) * sign;
            if f != 0.0 {
                return f > 0.0;
            }
            // On the edge: owned by "top" or "left" edges only.
            let (dx, dy) = ((e[0] - s[0]) * sign, (e[1] - s[1]) * sign);
            dy < 0.0 || (dy == 0.0 && dx > 0.0)
        })
    }

    /// Whether the centre of pixel (x, y) is covered and not clipped away by a user clip
    /// plane. Clip distances are linear in clip space, so interpolating them perspective-
    /// correctly and keeping the non-negative side is the same as clipping the triangle.
    pub fn inside(&self, verts: &[Vertex], x: u32, y: u32) -> bool {
        if !self.covers(x, y) {
            return false;
        }
        let w = self.weights(x, y, Interp::Smooth);
        let n = self
            .verts
            .iter()
            .map(|&i| verts[i].clip_distances.len())
            .min()
            .unwrap_or(0);
        (0..n).all(|p| {
            let d = self.verts.map(|i| verts[i].clip_distances[p]);
            d[0] + w[1] * (d[1] - d[0]) + w[2] * (d[2] - d[0]) >= 0.0
        })
    }

    /// The fragment position register at pixel (x, y): x and y plus `center` (0.5 where the
    /// hardware gives the pixel centre, 0 where it gives the pixel's integer corner and the
    /// shader adds the half itself, as on Intel), interpolated depth and 1/w at the centre.
    pub fn frag_coord(&self, x: u32, y: u32, center: f32) -> [f32; 4] {
        let l = self.barycentric([x as f32 + 0.5, y as f32 + 0.5]);
        let z = (0..3).map(|k| l[k] * self.win[k][2]).sum();
        let w = (0..3).map(|k| l[k] * self.win[k][3]).sum();
        [x as f32 + center, y as f32 + center, z, w]
    }

    /// Interpolation weights of the three vertices at the centre of pixel (x, y): screen
    /// space for `noperspective`, divided by each vertex's w otherwise.
    pub fn weights(&self, x: u32, y: u32, mode: Interp) -> [f32; 3] {
        let l = self.barycentric([x as f32 + 0.5, y as f32 + 0.5]);
        match mode {
            Interp::NoPerspective => l,
            _ => {
                let pw = [0, 1, 2].map(|k| l[k] * self.win[k][3]);
                let sum: f32 = pw.iter().sum();
                pw.map(|v| v / sum)
            }
        }
    }

    /// The outputs of the triangle's vertices for slot `name`, in triangle order, and the
    /// provoking vertex's; `None` when a vertex did not write the slot.
    pub fn slot_values(&self, verts: &[Vertex], name: &str) -> Option<([[u32; 4]; 3], [u32; 4])> {
        let [a, b, c] = self.verts.map(|i| verts[i].outputs.get(name).copied());
        Some((
            [a?, b?, c?],
            verts[self.provoking].outputs.get(name).copied()?,
        ))
    }

    /// Slot `name` of the vertices' outputs at pixel (x, y); `None` when no vertex wrote it.
    pub fn varying(
        &self,
        verts: &[Vertex],
        name: &str,
        mode: Interp,
        x: u32,
        y: u32,
    ) -> Option<[u32; 4]> {
        let [a, b, c] = self.verts.map(|i| verts[i].outputs.get(name).copied());
        let vals = [a?, b?, c?];
        if mode == Interp::Flat {
            return verts[self.provoking].outputs.get(name).copied();
        }
        let weights = self.weights(x, y, mode);
        // Plane form, as the hardware evaluates it: v0 + w1·(v1 − v0) + w2·(v2 − v0), so a
        // value equal at all three vertices comes out exactly.
        Some([0, 1, 2, 3].map(|c| {
            let v = vals.map(|b| f32::from_bits(b[c]));
            (v[0] + weights[1] * (v[1] - v[0]) + weights[2] * (v[2] - v[0])).to_bits()
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f32, y: f32, w: f32, h: f32, ws: [f32; 4]) -> Vec<Vertex> {
        [[x, y], [x + w, y], [x, y + h], [x + w, y + h]]
            .iter()
            .zip(ws)
            .enumerate()
            .map(|(i, (p, w))| Vertex {
                clip: [p[0] * w, p[1] * w, 0.0, w],
                outputs: [("V".to_string(), [(i as f32).to_bits(); 4])].into(),
                clip_distances: vec![p[0] - 0.25],
            })
            .collect()
    }

    #[test]
    fn full_window_rect_covers_every_pixel_once() {
        let verts = rect(-1.0, -1.0, 2.0, 2.0, [1.0; 4]);
        let tris = setup(&verts, &strip_triangles(4), [8, 8]);
        assert_eq!(tris.len(), 2);
        assert!(tris.iter().all(|t| t.front_facing));
        for y in 0..8 {
            for x in 0..8 {
                let n = tris.iter().filter(|t| t.covers(x, y)).count();
                assert_eq!(n, 1, "pixel ({x}, {y})");
            }
        }
    }

    #[test]
    fn interpolation_is_perspective_correct() {
        // Vertex values 0, 1, 2, 3 at the corners; corner 1 (right, bottom) has w = 3.
        let verts = rect(-1.0, -1.0, 2.0, 2.0, [1.0, 3.0, 1.0, 1.0]);
        let tris = setup(&verts, &strip_triangles(4), [4, 4]);
        let t = tris.iter().find(|t| t.covers(0, 0)).unwrap();
        // At pixel (0, 0) the screen weights of vertices 0, 1, 2 are 0.75, 0.125, 0.125;
        // divided by w: 0.75, 0.041667, 0.125; value = (0·0.75 + 1·0.041667 + 2·0.125) / 0.916667.
        let v = f32::from_bits(t.varying(&verts, "V", Interp::Smooth, 0, 0).unwrap()[0]);
        assert!((v - 0.318_181_8).abs() < 1e-5, "{v}");
        let lin = f32::from_bits(t.varying(&verts, "V", Interp::NoPerspective, 0, 0).unwrap()[0]);
        assert!((lin - 0.375).abs() < 1e-6, "{lin}");
        // Flat takes the provoking (last) vertex: 2 for the first triangle.
        let flat = f32::from_bits(t.varying(&verts, "V", Interp::Flat, 0, 0).unwrap()[0]);
        assert_eq!(flat, 2.0);
        assert_eq!(t.frag_coord(0, 0, 0.5)[..2], [0.5, 0.5]);
        assert_eq!(t.frag_coord(1, 0, 0.0)[..2], [1.0, 0.0]);
    }

    #[test]
    fn clip_distance_keeps_the_non_negative_half() {
        // Distance x_ndc − 0.25 on an 8-pixel-wide window: NDC 0.25 is window x 5, so
        // pixel centres 5.5, 6.5, 7.5 stay and 4.5 (NDC 0.125) goes.
        let verts = rect(-1.0, -1.0, 2.0, 2.0, [1.0; 4]);
        let tris = setup(&verts, &strip_triangles(4), [8, 8]);
        let kept = |x: u32| tris.iter().any(|t| t.inside(&verts, x, 3));
        assert!(!kept(4));
        assert!(kept(5) && kept(7));
    }

    #[test]
    fn strips_fans_and_lists() {
        assert_eq!(strip_triangles(4), vec![([0, 1, 2], 2), ([2, 1, 3], 3)]);
        assert_eq!(fan_triangles(4), vec![([0, 1, 2], 2), ([0, 2, 3], 3)]);
        assert_eq!(list_triangles(7), vec![([0, 1, 2], 2), ([3, 4, 5], 5)]);
    }

    #[test]
    fn negative_width_is_back_facing() {
        let verts = rect(1.0, -1.0, -2.0, 2.0, [1.0; 4]);
        assert!(setup(&verts, &strip_triangles(4), [4, 4])
            .iter()
            .all(|t| !t.front_facing));
    }
}
