//! The fixed-function tessellator: GL 4.0's "Tessellation Primitive Generation" (section
//! 2.12.2) turning a patch's tessellation levels into domain points and the triangles, lines
//! or points between them.
//!
//! What the spec fixes is followed: which levels a domain reads (triangles: outer 0-2 and
//! inner 0; quads: outer 0-3 and inner 0-1; isolines: outer 0-1), the patch discarded when
//! one of its outer levels is ≤ 0 or NaN, the clamping and rounding per spacing (equal:
//! [1, 64] up to an integer; fractional_even: [2, 64] up to an even one; fractional_odd:
//! [1, 63] up to an odd one; a NaN inner level clamps to the lower bound), the all-ones
//! single triangle (pair), an inner level of one treated as 1 + ε when an outer level is
//! greater, the concentric rings (triangles: each inner ring two segments shorter, ending in
//! a triangle or the centre point; quads: the same per direction, ending in a strip of cells,
//! a line or the centre point), the outer ring re-subdivided by the outer levels, isolines'
//! first level always equally spaced and their lines at v = i / n short of v = 1, and the
//! winding of every triangle in (u, v) as `cw` / `ccw` asks.
//!
//! What the spec leaves to the implementation is chosen here: a fractional edge's two short
//! segments sit at its two ends (they must be symmetric; their length is `(f - (n - 2)) / 2f`
//! for the clamped level f rounded to n, the others `1 / f`), an inner triangle ring's corners
//! sit where the spec's perpendicular construction puts them on an equilateral domain (the
//! corner of ring k at `1 - 4x/3` with `x` the position of subdivision point k), and the
//! triangles between two rings walk both edges, advancing along the edge whose next point
//! lies first.

/// `layout(triangles|quads|isolines)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Triangles,
    Quads,
    Isolines,
}

/// `layout(equal_spacing|fractional_even_spacing|fractional_odd_spacing)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spacing {
    Equal,
    FractionalEven,
    FractionalOdd,
}

/// The tessellation evaluation shader's input layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub domain: Domain,
    pub spacing: Spacing,
    /// `ccw` (GL's default) rather than `cw`.
    pub ccw: bool,
    pub point_mode: bool,
}

/// GL_MAX_TESS_GEN_LEVEL on every platform here.
pub const MAX_LEVEL: f32 = 64.0;

/// What the tessellator made of one patch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tessellation {
    /// Domain points (u, v, w); w is 0 outside the triangle domain.
    pub coords: Vec<[f32; 3]>,
    /// Triangles (point indices), wound as the layout asks; empty for isolines and points.
    pub triangles: Vec<[usize; 3]>,
    /// Isoline segments (point indices).
    pub lines: Vec<[usize; 2]>,
    /// `point_mode`: every point once.
    pub points: Vec<usize>,
}

/// One subdivided edge: `n` segments of a level clamped to `f`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Edge {
    n: usize,
    f: f32,
    fractional: bool,
}

impl Edge {
    /// Clamps and rounds `level` for `spacing` (a NaN clamps to the lower bound).
    fn new(level: f32, spacing: Spacing) -> Edge {
        let (lo, hi) = match spacing {
            Spacing::Equal => (1.0, MAX_LEVEL),
            Spacing::FractionalEven => (2.0, MAX_LEVEL),
            Spacing::FractionalOdd => (1.0, MAX_LEVEL - 1.0),
        };
        let f = if level >= lo { level.min(hi) } else { lo };
        let up = f.ceil() as usize;
        let n = match spacing {
            Spacing::Equal => up,
            Spacing::FractionalEven => up + up % 2,
            Spacing::FractionalOdd => up + (1 - up % 2),
        };
        Edge {
            n,
            f,
            fractional: spacing != Spacing::Equal,
        }
    }

    /// An inner level of one taken as 1 + ε: two segments (equal), three (fractional odd).
    fn one_plus_epsilon(spacing: Spacing) -> Edge {
        let n = match spacing {
            Spacing::FractionalOdd => 3,
            _ => 2,
        };
        Edge {
            n,
            f: 1.0,
            fractional: spacing != Spacing::Equal,
        }
    }

    /// The position of subdivision point `q` (0..=n) along the edge, in [0, 1].
    fn at(&self, q: usize) -> f32 {
        if q == 0 {
            return 0.0;
        }
        if q >= self.n {
            return 1.0;
        }
        if !self.fractional || self.n as f32 == self.f || self.n < 2 {
            return q as f32 / self.n as f32;
        }
        // Two short segments at the ends, n - 2 of length 1/f between them.
        let short = (self.f - (self.n as f32 - 2.0)) / (2.0 * self.f);
        short + (q - 1) as f32 / self.f
    }
}

/// Tessellates one patch with the levels its TCS (or the default levels) gave.
pub fn tessellate(layout: Layout, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    let used = match layout.domain {
        Domain::Triangles => 3,
        Domain::Quads => 4,
        Domain::Isolines => 2,
    };
    // A NaN level discards the patch too.
    if outer[..used].iter().any(|&l| l.is_nan() || l <= 0.0) {
        return Tessellation::default();
    }
    let mut t = match layout.domain {
        Domain::Triangles => triangles(layout.spacing, outer, inner[0]),
        Domain::Quads => quads(layout.spacing, outer, inner),
        Domain::Isolines => isolines(layout.spacing, outer),
    };
    if layout.point_mode {
        t.triangles.clear();
        t.lines.clear();
        t.points = (0..t.coords.len()).collect();
        return t;
    }
    for tri in &mut t.triangles {
        let [a, b, c] = tri.map(|i| t.coords[i]);
        let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
        if (area < 0.0 && layout.ccw) || (area > 0.0 && !layout.ccw) {
            tri.swap(1, 2);
        }
    }
    t
}

/// A ring's edges, each its points from one corner to the next (the next edge starts with
/// the last), and each point's position along its edge.
type Ring = Vec<Vec<(usize, f32)>>;

fn point(t: &mut Tessellation, c: [f32; 3]) -> usize {
    t.coords.push(c);
    t.coords.len() - 1
}

/// Triangles between an outer and an inner ring with as many edges.
fn stitch(t: &mut Tessellation, outer: &Ring, inner: &Ring) {
    for (a, b) in outer.iter().zip(inner) {
        let (mut i, mut j) = (0, 0);
        while i + 1 < a.len() || j + 1 < b.len() {
            let along_outer = j + 1 == b.len() || (i + 1 < a.len() && a[i + 1].1 <= b[j + 1].1);
            if along_outer {
                t.triangles.push([a[i].0, a[i + 1].0, b[j].0]);
                i += 1;
            } else {
                t.triangles.push([a[i].0, b[j + 1].0, b[j].0]);
                j += 1;
            }
        }
    }
}

/// The points of an edge from `from` to `to` at positions `s` (shared corners reused).
fn edge_points(
    t: &mut Tessellation,
    from: (usize, [f32; 3]),
    to: (usize, [f32; 3]),
    s: &[f32],
) -> Vec<(usize, f32)> {
    let last = s.len() - 1;
    s.iter()
        .enumerate()
        .map(|(k, &x)| {
            let id = match k {
                0 => from.0,
                k if k == last => to.0,
                _ => point(t, [0, 1, 2].map(|c| from.1[c] + (to.1[c] - from.1[c]) * x)),
            };
            (id, x)
        })
        .collect()
}

/// Positions along an edge of `e`'s points `first..=last`, rescaled to [0, 1].
fn span(e: &Edge, first: usize, last: usize) -> Vec<f32> {
    let (x0, x1) = (e.at(first), e.at(last));
    (first..=last)
        .map(|q| {
            if x1 > x0 {
                (e.at(q) - x0) / (x1 - x0)
            } else {
                0.5
            }
        })
        .collect()
}

/// A closed ring through `corners` whose edge `k` has positions `s[k]`.
fn ring(t: &mut Tessellation, corners: &[[f32; 3]], s: &[Vec<f32>]) -> Ring {
    let ids: Vec<usize> = corners.iter().map(|&c| point(t, c)).collect();
    (0..corners.len())
        .map(|k| {
            let next = (k + 1) % corners.len();
            edge_points(t, (ids[k], corners[k]), (ids[next], corners[next]), &s[k])
        })
        .collect()
}

fn triangles(spacing: Spacing, outer: [f32; 4], inner: f32) -> Tessellation {
    let mut t = Tessellation::default();
    let edges = [0, 1, 2].map(|k| Edge::new(outer[k], spacing));
    let mut inside = Edge::new(inner, spacing);
    if inside.n == 1 {
        if edges.iter().all(|e| e.n == 1) {
            t.coords = vec![[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
            t.triangles = vec![[0, 1, 2]];
            return t;
        }
        inside = Edge::one_plus_epsilon(spacing);
    }
    let n = inside.n;
    // Corners walked counter-clockwise in (u, v): U, V, W; edge U→V is w = 0 (outer[2]),
    // V→W is u = 0 (outer[0]), W→U is v = 0 (outer[1]).
    let corners = |x: f32| {
        let (big, small) = (1.0 - 2.0 * x, x);
        [
            [big, small, small],
            [small, big, small],
            [small, small, big],
        ]
    };
    let outer_s: Vec<Vec<f32>> = [edges[2], edges[0], edges[1]]
        .iter()
        .map(|e| span(e, 0, e.n))
        .collect();
    let mut prev = ring(&mut t, &corners(0.0), &outer_s);
    let mut k = 1;
    while n >= 2 * k {
        let x = 2.0 / 3.0 * inside.at(k);
        if n == 2 * k {
            let c = point(&mut t, [1.0 / 3.0; 3]);
            let centre: Ring = vec![vec![(c, 0.5)]; 3];
            stitch(&mut t, &prev, &centre);
            return t;
        }
        let s = span(&inside, k, n - k);
        let next = ring(&mut t, &corners(x), &[s.clone(), s.clone(), s]);
        stitch(&mut t, &prev, &next);
        if n == 2 * k + 1 {
            let ids = [next[0][0].0, next[1][0].0, next[2][0].0];
            t.triangles.push(ids);
            return t;
        }
        prev = next;
        k += 1;
    }
    t
}

fn quads(spacing: Spacing, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    let mut t = Tessellation::default();
    let edges = [0, 1, 2, 3].map(|k| Edge::new(outer[k], spacing));
    let mut inside = [0, 1].map(|k| Edge::new(inner[k], spacing));
    if inside.iter().all(|e| e.n == 1) && edges.iter().all(|e| e.n == 1) {
        t.coords = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ];
        t.triangles = vec![[0, 1, 2], [0, 2, 3]];
        return t;
    }
    for e in &mut inside {
        if e.n == 1 {
            *e = Edge::one_plus_epsilon(spacing);
        }
    }
    let [iu, iv] = inside;
    let (n, m) = (iu.n, iv.n);
    // Counter-clockwise from (0, 0): v = 0 (outer[1]), u = 1 (outer[2]), v = 1 (outer[3]),
    // u = 0 (outer[0]); the last two run against their parameter.
    let rect = |u0: f32, v0: f32, u1: f32, v1: f32| {
        [[u0, v0, 0.0], [u1, v0, 0.0], [u1, v1, 0.0], [u0, v1, 0.0]]
    };
    let outer_s: Vec<Vec<f32>> = [edges[1], edges[2], edges[3], edges[0]]
        .iter()
        .map(|e| span(e, 0, e.n))
        .collect();
    let mut prev = ring(&mut t, &rect(0.0, 0.0, 1.0, 1.0), &outer_s);
    let mut k = 1;
    loop {
        let (u0, u1, v0, v1) = (iu.at(k), iu.at(n - k), iv.at(k), iv.at(m - k));
        if n == 2 * k || m == 2 * k {
            // The innermost ring is a line along the longer direction, or the centre point.
            let first = point(&mut t, [u0, v0, 0.0]);
            let line = if n > 2 * k {
                let last = point(&mut t, [u1, v0, 0.0]);
                let s = span(&iu, k, n - k);
                edge_points(&mut t, (first, [u0, v0, 0.0]), (last, [u1, v0, 0.0]), &s)
            } else if m > 2 * k {
                let last = point(&mut t, [u0, v1, 0.0]);
                let s = span(&iv, k, m - k);
                edge_points(&mut t, (first, [u0, v0, 0.0]), (last, [u0, v1, 0.0]), &s)
            } else {
                vec![(first, 0.5)]
            };
            let rev: Vec<(usize, f32)> = line.iter().rev().map(|&(i, s)| (i, 1.0 - s)).collect();
            let start = vec![(line[0].0, 0.5)];
            let end = vec![(line[line.len() - 1].0, 0.5)];
            let inner_ring: Ring = if n > 2 * k {
                vec![line, end, rev, start]
            } else {
                vec![start, line, end, rev]
            };
            stitch(&mut t, &prev, &inner_ring);
            return t;
        }
        let s_u = span(&iu, k, n - k);
        let s_v = span(&iv, k, m - k);
        let next = ring(
            &mut t,
            &rect(u0, v0, u1, v1),
            &[s_u.clone(), s_v.clone(), s_u, s_v],
        );
        stitch(&mut t, &prev, &next);
        if n == 2 * k + 1 || m == 2 * k + 1 {
            // A strip of cells between the ring's two long edges.
            let (a, b) = if n == 2 * k + 1 {
                (&next[1], &next[3])
            } else {
                (&next[0], &next[2])
            };
            let b: Vec<usize> = b.iter().rev().map(|p| p.0).collect();
            for c in 0..a.len() - 1 {
                t.triangles.push([a[c].0, a[c + 1].0, b[c + 1]]);
                t.triangles.push([a[c].0, b[c + 1], b[c]]);
            }
            return t;
        }
        prev = next;
        k += 1;
    }
}

fn isolines(spacing: Spacing, outer: [f32; 4]) -> Tessellation {
    let mut t = Tessellation::default();
    let lines = Edge::new(outer[0], Spacing::Equal).n;
    let segments = Edge::new(outer[1], spacing);
    for l in 0..lines {
        let v = l as f32 / lines as f32;
        let first = t.coords.len();
        for q in 0..=segments.n {
            t.coords.push([segments.at(q), v, 0.0]);
        }
        t.lines
            .extend((0..segments.n).map(|q| [first + q, first + q + 1]));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(domain: Domain, spacing: Spacing) -> Layout {
        Layout {
            domain,
            spacing,
            ccw: true,
            point_mode: false,
        }
    }

    /// Twice the signed area in (u, v).
    fn area2(t: &Tessellation, tri: [usize; 3]) -> f32 {
        let [a, b, c] = tri.map(|i| t.coords[i]);
        (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
    }

    /// The triangles cover the domain once: their areas add up to the domain's and all are
    /// wound counter-clockwise.
    fn covers(t: &Tessellation, domain_area2: f32) {
        let total: f32 = t.triangles.iter().map(|&tri| area2(t, tri)).sum();
        assert!((total - domain_area2).abs() < 1e-5, "area {total}");
        assert!(t.triangles.iter().all(|&tri| area2(t, tri) >= 0.0));
    }

    fn has(t: &Tessellation, c: [f32; 3]) -> bool {
        t.coords
            .iter()
            .any(|p| (0..3).all(|k| (p[k] - c[k]).abs() < 1e-6))
    }

    #[test]
    fn levels_round_per_spacing() {
        let n = |l: f32, s| Edge::new(l, s).n;
        assert_eq!(n(2.3, Spacing::Equal), 3);
        assert_eq!(n(0.2, Spacing::Equal), 1);
        assert_eq!(n(100.0, Spacing::Equal), 64);
        assert_eq!(n(2.3, Spacing::FractionalEven), 4);
        assert_eq!(n(1.0, Spacing::FractionalEven), 2);
        assert_eq!(n(2.3, Spacing::FractionalOdd), 3);
        assert_eq!(n(3.5, Spacing::FractionalOdd), 5);
        assert_eq!(n(64.0, Spacing::FractionalOdd), 63);
        assert_eq!(n(f32::NAN, Spacing::FractionalEven), 2);
    }

    /// fractional_odd at 2: three segments, the middle one 1/2 long, the two at the ends
    /// (2 - 1) / 4 = 1/4 each.
    #[test]
    fn a_fractional_edge_has_two_short_symmetric_segments() {
        let e = Edge::new(2.0, Spacing::FractionalOdd);
        assert_eq!(e.n, 3);
        assert_eq!([0, 1, 2, 3].map(|q| e.at(q)), [0.0, 0.25, 0.75, 1.0]);
        // fractional_even at 3: four segments, 1/3 long in the middle, 1/6 at the ends.
        let e = Edge::new(3.0, Spacing::FractionalEven);
        let x = [0, 1, 2, 3, 4].map(|q| e.at(q));
        let want = [0.0, 1.0 / 6.0, 0.5, 5.0 / 6.0, 1.0];
        assert!(
            x.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-6),
            "{x:?}"
        );
    }

    /// All levels one: the single triangle (0, 0, 1), (1, 0, 0), (0, 1, 0).
    #[test]
    fn triangles_at_level_one_are_one_triangle() {
        let t = tessellate(
            layout(Domain::Triangles, Spacing::Equal),
            [1.0; 4],
            [1.0; 2],
        );
        assert_eq!(t.coords.len(), 3);
        assert_eq!(t.triangles.len(), 1);
        covers(&t, 1.0);
    }

    /// Inner 1 with an outer level of 2 is inner 2: outer ring of 2 + 1 + 1 segments around
    /// the centre point, one triangle per segment: 4 triangles, 5 points.
    #[test]
    fn an_inner_level_of_one_becomes_two() {
        let t = tessellate(
            layout(Domain::Triangles, Spacing::Equal),
            [2.0, 1.0, 1.0, 0.0],
            [1.0, 0.0],
        );
        assert_eq!(t.triangles.len(), 4);
        assert_eq!(t.coords.len(), 5);
        assert!(has(&t, [1.0 / 3.0; 3]));
        assert!(has(&t, [0.0, 0.5, 0.5]), "outer[0] halves the u = 0 edge");
        covers(&t, 1.0);
    }

    /// Inner 3, outer 3: the outer ring's 9 segments, an inner triangle with one segment per
    /// edge, its corners at 1 - 4/9 = 5/9 and 2/9: 9 + 3 ring triangles + the inner one.
    #[test]
    fn triangles_inner_three_have_an_inner_triangle() {
        let t = tessellate(
            layout(Domain::Triangles, Spacing::Equal),
            [3.0; 4],
            [3.0; 2],
        );
        assert_eq!(t.triangles.len(), 13);
        assert_eq!(t.coords.len(), 12);
        assert!(has(&t, [5.0 / 9.0, 2.0 / 9.0, 2.0 / 9.0]));
        covers(&t, 1.0);
    }

    /// Quads inner 2, 2, outer 2, 2, 2, 2: eight boundary segments around the centre point
    /// (0.5, 0.5): 8 triangles, 9 points.
    #[test]
    fn quads_level_two_are_eight_triangles() {
        let t = tessellate(layout(Domain::Quads, Spacing::Equal), [2.0; 4], [2.0; 2]);
        assert_eq!(t.triangles.len(), 8);
        assert_eq!(t.coords.len(), 9);
        assert!(has(&t, [0.5, 0.5, 0.0]));
        covers(&t, 2.0);
    }

    /// Quads all ones: one triangle pair. Inner (3, 2), outer 1: the inner ring degenerates
    /// into the line v = 1/2 from u = 1/3 to 2/3 (one segment), stitched to the four outer
    /// segments: 4 + 2 (the line's two sides) = 6 triangles.
    #[test]
    fn quads_single_pair_and_a_degenerate_inner_line() {
        let t = tessellate(layout(Domain::Quads, Spacing::Equal), [1.0; 4], [1.0; 2]);
        assert_eq!(t.triangles.len(), 2);
        covers(&t, 2.0);
        let t = tessellate(layout(Domain::Quads, Spacing::Equal), [1.0; 4], [3.0, 2.0]);
        assert_eq!(t.triangles.len(), 6);
        assert!(has(&t, [1.0 / 3.0, 0.5, 0.0]) && has(&t, [2.0 / 3.0, 0.5, 0.0]));
        covers(&t, 2.0);
    }

    /// Quads inner 3, 3, outer 3: 12 outer segments and the 1×1 inner ring (4 segments)
    /// stitched into 16 triangles, plus the inner cell's 2.
    #[test]
    fn quads_inner_three_have_an_inner_cell() {
        let t = tessellate(layout(Domain::Quads, Spacing::Equal), [3.0; 4], [3.0; 2]);
        assert_eq!(t.triangles.len(), 18);
        assert_eq!(t.coords.len(), 16);
        covers(&t, 2.0);
    }

    /// Isolines with outer (2, 3): lines at v = 0 and 1/2, three segments each.
    #[test]
    fn isolines_two_lines_of_three_segments() {
        let t = tessellate(
            layout(Domain::Isolines, Spacing::Equal),
            [2.0, 3.0, 0.0, 0.0],
            [0.0; 2],
        );
        assert_eq!(t.lines.len(), 6);
        assert_eq!(t.coords.len(), 8);
        assert!(has(&t, [1.0 / 3.0, 0.5, 0.0]));
        assert!(!t.coords.iter().any(|c| c[1] == 1.0));
    }

    #[test]
    fn an_outer_level_at_or_below_zero_or_nan_discards_the_patch() {
        let l = layout(Domain::Triangles, Spacing::Equal);
        assert!(tessellate(l, [1.0, 0.0, 1.0, 0.0], [1.0; 2])
            .coords
            .is_empty());
        assert!(tessellate(l, [1.0, 1.0, f32::NAN, 0.0], [1.0; 2])
            .coords
            .is_empty());
        // outer[3] is not a triangle's: ignored.
        assert!(!tessellate(l, [1.0, 1.0, 1.0, -1.0], [1.0; 2])
            .coords
            .is_empty());
    }

    #[test]
    fn cw_reverses_the_winding_and_point_mode_keeps_points() {
        let mut l = layout(Domain::Quads, Spacing::Equal);
        l.ccw = false;
        let t = tessellate(l, [2.0; 4], [2.0; 2]);
        assert!(t.triangles.iter().all(|&tri| area2(&t, tri) < 0.0));
        l.point_mode = true;
        let t = tessellate(l, [2.0; 4], [2.0; 2]);
        assert_eq!(t.points.len(), 9);
        assert!(t.triangles.is_empty());
    }

    /// piglit's tessinner-tessouter-inputs-tris levels: outer (2, 4, 7), inner 5.
    #[test]
    fn uneven_outer_levels_cover_the_triangle() {
        let t = tessellate(
            layout(Domain::Triangles, Spacing::Equal),
            [2.0, 4.0, 7.0, 6.0],
            [5.0, 3.0],
        );
        covers(&t, 1.0);
    }

    /// Fractional spacings still cover the domain.
    #[test]
    fn fractional_tessellations_cover_the_domain() {
        for spacing in [Spacing::FractionalEven, Spacing::FractionalOdd] {
            let t = tessellate(
                layout(Domain::Triangles, spacing),
                [2.5, 3.2, 1.5, 0.0],
                [4.3, 0.0],
            );
            covers(&t, 1.0);
            let t = tessellate(
                layout(Domain::Quads, spacing),
                [2.5, 3.2, 1.5, 5.0],
                [4.3, 2.2],
            );
            covers(&t, 2.0);
        }
    }
}
