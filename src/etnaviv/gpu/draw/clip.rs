//! Clipping in clip space, before the perspective divide.
//!
//! The core clips what the driver relies on: w at PA_W_CLIP_LIMIT (the driver sets a tiny
//! positive float, so nothing reaches the divide with w ≤ 0), and depth. Unless PA_FLAGS
//! has ZCONVERT_BYPASS (bit 30; Mesa 23.3 leaves it clear), the core first maps GL's clip z
//! in [-w, w] to [0, w] (z' = (z + w) / 2), which is why the driver programs the viewport's
//! z as a 0..1 → 0..1 transform (etnaviv_state.c); the depth planes are then 0 ≤ z' ≤ w.
//! Mesa leaves PA_ZFARCLIPPING at 0 and GL always clips at the far plane, so the model
//! clips at both and counts any other PA_ZFARCLIPPING value as unmodelled.
//!
//! x and y are not clipped to the view volume: the scissor bounds what the rasterizer
//! visits. To keep window coordinates in the range where the rasterizer's arithmetic is
//! exact, primitives are clipped to a guard band of ±[`GUARD`] pixels around the window
//! origin, which no render target reaches (the CPU never sees the difference).

/// Half-size of the guard band in window pixels.
pub const GUARD: f32 = 32768.0;

/// A vertex in clip space with the values the rasterizer interpolates.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipVertex {
    /// x, y, z' (already depth-converted) and w.
    pub pos: [f32; 4],
    /// One entry per varying, four components each (raw bits reinterpreted as floats for
    /// interpolation).
    pub vars: Vec<[f32; 4]>,
    /// Point size in pixels (points only).
    pub point_size: f32,
}

/// The window transform's x and y parts (scale, offset), for the guard band planes.
#[derive(Clone, Copy, Debug)]
pub struct Planes {
    pub w_limit: f32,
    pub scale: [f32; 2],
    pub offset: [f32; 2],
}

impl Planes {
    /// Signed distances of `p` to every clip plane, non-negative inside.
    fn distances(&self, p: &[f32; 4]) -> [f32; 7] {
        let [x, y, z, w] = *p;
        let wx = x * self.scale[0] + self.offset[0] * w;
        let wy = y * self.scale[1] + self.offset[1] * w;
        [
            w - self.w_limit,
            z,
            w - z,
            GUARD * w - wx,
            GUARD * w + wx,
            GUARD * w - wy,
            GUARD * w + wy,
        ]
    }

    /// Whether a point is inside every plane.
    pub fn inside(&self, v: &ClipVertex) -> bool {
        self.distances(&v.pos).iter().all(|d| *d >= 0.0)
    }

    /// The part of segment a–b inside every plane.
    pub fn line(&self, a: &ClipVertex, b: &ClipVertex) -> Option<(ClipVertex, ClipVertex)> {
        let (da, db) = (self.distances(&a.pos), self.distances(&b.pos));
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for k in 0..da.len() {
            match (da[k] >= 0.0, db[k] >= 0.0) {
                (true, true) => {}
                (false, false) => return None,
                (true, false) => t1 = t1.min(da[k] / (da[k] - db[k])),
                (false, true) => t0 = t0.max(da[k] / (da[k] - db[k])),
            }
        }
        if t0 > t1 {
            return None;
        }
        let a2 = if t0 > 0.0 { lerp(a, b, t0) } else { a.clone() };
        let b2 = if t1 < 1.0 { lerp(a, b, t1) } else { b.clone() };
        Some((a2, b2))
    }

    /// The polygon of triangle `tri` inside every plane (Sutherland–Hodgman), in the
    /// triangle's winding; empty when nothing is left.
    pub fn polygon(&self, tri: [&ClipVertex; 3]) -> Vec<ClipVertex> {
        let mut poly: Vec<ClipVertex> = tri.iter().map(|v| (*v).clone()).collect();
        if tri.iter().all(|v| self.inside(v)) {
            return poly;
        }
        for k in 0..7 {
            if poly.is_empty() {
                break;
            }
            let d: Vec<f32> = poly.iter().map(|v| self.distances(&v.pos)[k]).collect();
            let mut out = Vec::with_capacity(poly.len() + 1);
            for i in 0..poly.len() {
                let j = (i + 1) % poly.len();
                if d[i] >= 0.0 {
                    out.push(poly[i].clone());
                }
                if (d[i] >= 0.0) != (d[j] >= 0.0) {
                    out.push(lerp(&poly[i], &poly[j], d[i] / (d[i] - d[j])));
                }
            }
            poly = out;
        }
        if poly.len() < 3 {
            poly.clear();
        }
        poly
    }
}

/// The vertex at `t` along a–b; everything is linear in clip space.
fn lerp(a: &ClipVertex, b: &ClipVertex, t: f32) -> ClipVertex {
    let mix = |x: f32, y: f32| x + t * (y - x);
    ClipVertex {
        pos: [0, 1, 2, 3].map(|c| mix(a.pos[c], b.pos[c])),
        vars: a
            .vars
            .iter()
            .zip(&b.vars)
            .map(|(x, y)| [0, 1, 2, 3].map(|c| mix(x[c], y[c])))
            .collect(),
        point_size: mix(a.point_size, b.point_size),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, z: f32, w: f32, var: f32) -> ClipVertex {
        ClipVertex {
            pos: [x, 0.0, z, w],
            vars: vec![[var; 4]],
            point_size: 1.0,
        }
    }

    const PLANES: Planes = Planes {
        w_limit: 1e-7,
        scale: [4.0, 4.0],
        offset: [4.0, 4.0],
    };

    #[test]
    fn the_near_plane_cuts_where_z_crosses_zero() {
        // z' from -1 to 3 with w = 1: the near plane is a quarter of the way along.
        let (a, b) = PLANES
            .line(&v(0.0, -1.0, 1.0, 0.0), &v(0.0, 3.0, 1.0, 8.0))
            .unwrap();
        assert_eq!(a.pos[2], 0.0);
        assert_eq!(a.vars[0][0], 2.0);
        // ... and the far plane (z' = w) at three quarters.
        assert_eq!(b.pos[2], 1.0);
        assert_eq!(b.vars[0][0], 4.0);
        assert!(PLANES
            .line(&v(0.0, -2.0, 1.0, 0.0), &v(0.0, -1.0, 1.0, 0.0))
            .is_none());
    }

    #[test]
    fn a_triangle_behind_the_eye_is_cut_at_the_w_limit() {
        let tri = [
            v(0.0, 0.5, 1.0, 0.0),
            v(1.0, 0.5, 1.0, 0.0),
            v(0.0, 0.5, -1.0, 0.0),
        ];
        let p = PLANES.polygon([&tri[0], &tri[1], &tri[2]]);
        // One corner cut off: four corners, every w at least the limit; the far plane
        // (z' ≤ w) also cuts, so every vertex satisfies both.
        assert!(p.len() >= 4, "{p:?}");
        assert!(p
            .iter()
            .all(|c| c.pos[3] >= 1e-7 && c.pos[2] <= c.pos[3] + 1e-6));
    }
}
