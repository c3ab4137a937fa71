//! The rasterizer: which pixels a point, line or triangle covers, and what the fragment
//! shader receives at each of them.
//!
//! Window coordinates are snapped to 1/256 pixel and edge functions are evaluated in f64,
//! where they are exact, so shared edges never leave gaps or double pixels. Coverage samples
//! the pixel centre (x + ½, y + ½) when PA_SYSTEM_MODE has HALF_PIXEL_CENTER, the pixel's
//! corner (x, y) otherwise. A sample exactly on an edge belongs to the triangle when the
//! edge is a top edge (horizontal, the triangle below it in memory order) or a left edge —
//! GL leaves the rule to the implementation, as long as adjacent triangles agree.
//!
//! Attributes are interpolated perspective-correctly from the vertices' 1/w, in the plane
//! form v0 + w1·(v1 − v0) + w2·(v2 − v0) so that a value equal at all vertices comes out
//! exactly. Pixels of a 2×2 quad outside the primitive are evaluated at their own positions
//! (extrapolated) so that derivatives see a plane.
//!
//! Lines: a pixel column (row, for y-major lines) is covered when its centre lies in the
//! half-open span from the first endpoint (the last one too with SE_CONFIG's
//! LAST_PIXEL_ENABLE), and within half the line width of the line across the minor axis.
//! Points: the square of the point size around the vertex, half-open like the triangles;
//! gl_PointCoord runs from 0 at the square's left and top (memory order) to 1.

use super::clip::ClipVertex;

/// The pixel rectangle [x0, x1) × [y0, y1) the scissor and clip rectangle leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub x0: i64,
    pub y0: i64,
    pub x1: i64,
    pub y1: i64,
}

/// A vertex in window coordinates.
#[derive(Clone, Debug)]
pub struct WinVertex {
    /// Snapped x and y, window z, 1/w.
    pub x: f64,
    pub y: f64,
    pub z: f64,
    pub inv_w: f64,
    pub vars: Vec<[f32; 4]>,
    pub point_size: f32,
}

/// The viewport: window = ndc × scale + offset per axis.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    pub scale: [f32; 3],
    pub offset: [f32; 3],
}

impl Viewport {
    pub fn window(&self, v: &ClipVertex) -> WinVertex {
        let inv_w = 1.0 / v.pos[3];
        let snap = |x: f32| (f64::from(x) * 256.0).round() / 256.0;
        WinVertex {
            x: snap(v.pos[0] * inv_w * self.scale[0] + self.offset[0]),
            y: snap(v.pos[1] * inv_w * self.scale[1] + self.offset[1]),
            z: f64::from(v.pos[2] * inv_w * self.scale[2] + self.offset[2]),
            inv_w: f64::from(inv_w),
            vars: v.vars.clone(),
            point_size: v.point_size,
        }
    }
}

/// What the fragment shader receives at one pixel, before the fixed inputs are placed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PixelInputs {
    /// Sample x, y, window z and 1/w (the shader's t0).
    pub position: [f32; 4],
    /// Each varying's four components.
    pub vars: Vec<[f32; 4]>,
    /// gl_PointCoord (points only).
    pub point_coord: [f32; 2],
}

/// A primitive ready to rasterize.
pub enum Shape {
    Triangle(Triangle),
    Line(Line),
    Point(Point),
}

pub struct Triangle {
    v: [WinVertex; 3],
    /// Twice the signed area in window coordinates.
    area: f64,
    /// Constant added to every depth (polygon offset).
    z_offset: f64,
    /// Varyings taken from the provoking vertex, with whether each is flat.
    flat_values: Vec<[f32; 4]>,
    flat: Vec<bool>,
}

pub struct Line {
    a: WinVertex,
    b: WinVertex,
    width: f64,
    last_pixel: bool,
    flat_values: Vec<[f32; 4]>,
    flat: Vec<bool>,
}

pub struct Point {
    v: WinVertex,
    size: f64,
}

/// Twice the signed area of a, b, c.
fn cross(a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)
}

impl Triangle {
    /// Sets up a triangle; `None` when it has no area.
    pub fn new(v: [WinVertex; 3], flat_values: Vec<[f32; 4]>, flat: Vec<bool>) -> Option<Triangle> {
        let area = cross((v[0].x, v[0].y), (v[1].x, v[1].y), (v[2].x, v[2].y));
        (area != 0.0 && area.is_finite()).then_some(Triangle {
            v,
            area,
            z_offset: 0.0,
            flat_values,
            flat,
        })
    }

    /// Clockwise as the core means it: on the surface as it lies in memory, rows going
    /// down. Window y here is the memory row (the driver's viewport maps GL's y up onto rows
    /// for framebuffer objects), so a triangle counter-clockwise in GL's y-up sense is
    /// clockwise to the core. The state tracker accounts for this by flipping the front face
    /// for such framebuffers, so the face bit the shader reads (1 for the core's clockwise)
    /// and the cull modes both use this sense. Real GC2000 runs of piglit's
    /// fs-frontfacing-ternary tests pass only with it.
    pub fn clockwise(&self) -> bool {
        self.area > 0.0
    }

    /// Polygon offset: `factor` × the larger depth slope + `units`.
    pub fn set_depth_offset(&mut self, factor: f32, units: f32) {
        let [a, b, c] = &self.v;
        let dzdx = ((b.z - a.z) * (c.y - a.y) - (c.z - a.z) * (b.y - a.y)) / self.area;
        let dzdy = ((c.z - a.z) * (b.x - a.x) - (b.z - a.z) * (c.x - a.x)) / self.area;
        self.z_offset = f64::from(factor) * dzdx.abs().max(dzdy.abs()) + f64::from(units);
    }

    /// Screen-space barycentric weights of sample (x, y).
    fn barycentric(&self, x: f64, y: f64) -> [f64; 3] {
        let p = (x, y);
        let [a, b, c] = &self.v;
        let (a, b, c) = ((a.x, a.y), (b.x, b.y), (c.x, c.y));
        let l1 = cross(c, a, p) / self.area;
        let l2 = cross(a, b, p) / self.area;
        [1.0 - l1 - l2, l1, l2]
    }

    fn covers(&self, x: f64, y: f64) -> bool {
        let s = self.area.signum();
        (0..3).all(|k| {
            let (p, q) = (&self.v[(k + 1) % 3], &self.v[(k + 2) % 3]);
            let e = cross((p.x, p.y), (q.x, q.y), (x, y)) * s;
            if e != 0.0 {
                return e > 0.0;
            }
            let (dx, dy) = ((q.x - p.x) * s, (q.y - p.y) * s);
            dy < 0.0 || (dy == 0.0 && dx > 0.0)
        })
    }

    fn inputs(&self, x: f64, y: f64, out: &mut PixelInputs) {
        let l = self.barycentric(x, y);
        let z: f64 = (0..3).map(|k| l[k] * self.v[k].z).sum::<f64>() + self.z_offset;
        let inv_w: f64 = (0..3).map(|k| l[k] * self.v[k].inv_w).sum();
        out.position = [x as f32, y as f32, z as f32, inv_w as f32];
        let pw = [0, 1, 2].map(|k| l[k] * self.v[k].inv_w / inv_w);
        let (w1, w2) = (pw[1] as f32, pw[2] as f32);
        out.vars.clear();
        for (i, v0) in self.v[0].vars.iter().enumerate() {
            if self.flat[i] {
                out.vars.push(self.flat_values[i]);
                continue;
            }
            let (v1, v2) = (self.v[1].vars[i], self.v[2].vars[i]);
            out.vars
                .push([0, 1, 2, 3].map(|c| v0[c] + w1 * (v1[c] - v0[c]) + w2 * (v2[c] - v0[c])));
        }
    }

    fn bbox(&self) -> [f64; 4] {
        let xs = self.v.iter().map(|v| v.x);
        let ys = self.v.iter().map(|v| v.y);
        [
            xs.clone().fold(f64::INFINITY, f64::min),
            ys.clone().fold(f64::INFINITY, f64::min),
            xs.fold(f64::NEG_INFINITY, f64::max),
            ys.fold(f64::NEG_INFINITY, f64::max),
        ]
    }
}

impl Line {
    pub fn new(
        a: WinVertex,
        b: WinVertex,
        width: f32,
        last_pixel: bool,
        flat_values: Vec<[f32; 4]>,
        flat: Vec<bool>,
    ) -> Line {
        Line {
            a,
            b,
            width: f64::from(width.max(1.0)),
            last_pixel,
            flat_values,
            flat,
        }
    }

    fn x_major(&self) -> bool {
        (self.b.x - self.a.x).abs() >= (self.b.y - self.a.y).abs()
    }

    /// Position along the line (0 at a, 1 at b) of sample (x, y), by the major axis.
    fn t(&self, x: f64, y: f64) -> f64 {
        if self.x_major() {
            (x - self.a.x) / (self.b.x - self.a.x)
        } else {
            (y - self.a.y) / (self.b.y - self.a.y)
        }
    }

    fn covers(&self, x: f64, y: f64) -> bool {
        if self.a.x == self.b.x && self.a.y == self.b.y {
            return false;
        }
        let (major, minor, a0, a1, b0, b1) = if self.x_major() {
            (x, y, self.a.x, self.b.x, self.a.y, self.b.y)
        } else {
            (y, x, self.a.y, self.b.y, self.a.x, self.b.x)
        };
        let forward = a1 > a0;
        let in_span = if forward {
            major >= a0 && (major < a1 || (self.last_pixel && major < a1 + 1.0))
        } else {
            major <= a0 && (major > a1 || (self.last_pixel && major > a1 - 1.0))
        };
        if !in_span {
            return false;
        }
        let at = b0 + (major - a0) / (a1 - a0) * (b1 - b0);
        let h = self.width / 2.0;
        minor >= at - h && minor < at + h
    }

    fn inputs(&self, x: f64, y: f64, out: &mut PixelInputs) {
        let t = self.t(x, y).clamp(0.0, 1.0);
        let z = self.a.z + t * (self.b.z - self.a.z);
        let inv_w = self.a.inv_w + t * (self.b.inv_w - self.a.inv_w);
        out.position = [x as f32, y as f32, z as f32, inv_w as f32];
        let w1 = (t * self.b.inv_w / inv_w) as f32;
        out.vars.clear();
        for (i, (va, vb)) in self.a.vars.iter().zip(&self.b.vars).enumerate() {
            if self.flat[i] {
                out.vars.push(self.flat_values[i]);
            } else {
                out.vars
                    .push([0, 1, 2, 3].map(|c| va[c] + w1 * (vb[c] - va[c])));
            }
        }
    }

    fn bbox(&self) -> [f64; 4] {
        let h = self.width / 2.0 + 1.0;
        [
            self.a.x.min(self.b.x) - h,
            self.a.y.min(self.b.y) - h,
            self.a.x.max(self.b.x) + h,
            self.a.y.max(self.b.y) + h,
        ]
    }
}

impl Point {
    pub fn new(v: WinVertex, size: f32) -> Point {
        Point {
            v,
            size: f64::from(size.max(1.0)),
        }
    }

    fn covers(&self, x: f64, y: f64) -> bool {
        let h = self.size / 2.0;
        x >= self.v.x - h && x < self.v.x + h && y >= self.v.y - h && y < self.v.y + h
    }

    fn inputs(&self, x: f64, y: f64, out: &mut PixelInputs) {
        out.position = [x as f32, y as f32, self.v.z as f32, self.v.inv_w as f32];
        out.vars.clear();
        out.vars.extend_from_slice(&self.v.vars);
        let h = self.size / 2.0;
        out.point_coord = [
            ((x - (self.v.x - h)) / self.size) as f32,
            ((y - (self.v.y - h)) / self.size) as f32,
        ];
    }

    fn bbox(&self) -> [f64; 4] {
        let h = self.size / 2.0 + 1.0;
        [self.v.x - h, self.v.y - h, self.v.x + h, self.v.y + h]
    }
}

impl Shape {
    pub fn covers(&self, x: f64, y: f64) -> bool {
        match self {
            Shape::Triangle(t) => t.covers(x, y),
            Shape::Line(l) => l.covers(x, y),
            Shape::Point(p) => p.covers(x, y),
        }
    }

    pub fn inputs(&self, x: f64, y: f64, out: &mut PixelInputs) {
        match self {
            Shape::Triangle(t) => t.inputs(x, y, out),
            Shape::Line(l) => l.inputs(x, y, out),
            Shape::Point(p) => p.inputs(x, y, out),
        }
    }

    /// The 2×2 quads (their top-left pixel) that may hold covered pixels inside `bounds`.
    pub fn quads(&self, bounds: &Bounds) -> impl Iterator<Item = (i64, i64)> {
        let [x0, y0, x1, y1] = match self {
            Shape::Triangle(t) => t.bbox(),
            Shape::Line(l) => l.bbox(),
            Shape::Point(p) => p.bbox(),
        };
        // One pixel of slack either way covers both sample conventions.
        let qx0 = ((x0.floor() as i64 - 1).max(bounds.x0)) & !1;
        let qy0 = ((y0.floor() as i64 - 1).max(bounds.y0)) & !1;
        let qx1 = (x1.ceil() as i64 + 1).min(bounds.x1);
        let qy1 = (y1.ceil() as i64 + 1).min(bounds.y1);
        (qy0..qy1)
            .step_by(2)
            .flat_map(move |y| (qx0..qx1).step_by(2).map(move |x| (x, y)))
    }
}
