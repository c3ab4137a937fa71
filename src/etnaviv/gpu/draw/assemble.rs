//! Primitive assembly: which vertices of a draw form each point, line and triangle, and
//! which of them is the provoking vertex, following GL's rules for each primitive type
//! (GL 4.6 §10.1 and table 10.2's first- and last-vertex conventions).
//!
//! PRIMITIVE_TYPE values (Mesa 23.3 hw/cmdstream.xml.h): 1 points, 2 lines, 3 line strip,
//! 4 triangles, 5 triangle strip, 6 triangle fan, 7 line loop, 8 quads.

/// One primitive: positions in the draw's vertex sequence (one, two or three of them, in
/// winding order) and which of those is the provoking vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prim {
    pub verts: [usize; 3],
    pub len: usize,
    pub provoking: usize,
}

impl Prim {
    fn new(verts: &[usize], provoking: usize) -> Prim {
        let mut v = [0; 3];
        v[..verts.len()].copy_from_slice(verts);
        Prim {
            verts: v,
            len: verts.len(),
            provoking,
        }
    }

    pub fn verts(&self) -> &[usize] {
        &self.verts[..self.len]
    }
}

pub const POINTS: u32 = 1;
pub const LINES: u32 = 2;
pub const LINE_STRIP: u32 = 3;
pub const TRIANGLES: u32 = 4;
pub const TRIANGLE_STRIP: u32 = 5;
pub const TRIANGLE_FAN: u32 = 6;
pub const LINE_LOOP: u32 = 7;
pub const QUADS: u32 = 8;

/// Vertices `primitives` primitives of `primitive` take (the count DRAW_PRIMITIVES and
/// DRAW_INDEXED_PRIMITIVES give).
pub fn vertices_for(primitive: u32, primitives: u32) -> Option<u32> {
    let n = primitives;
    Some(match primitive {
        POINTS | LINE_LOOP => n,
        LINES => 2 * n,
        LINE_STRIP => n + 1,
        TRIANGLES => 3 * n,
        TRIANGLE_STRIP | TRIANGLE_FAN => n + 2,
        QUADS => 4 * n,
        _ => return None,
    })
}

/// The primitives of one run of `n` vertices starting at position `at` of the sequence;
/// `last` is PA_SYSTEM_MODE's provoking-vertex-last bit. `None` for an unknown type.
pub fn assemble(primitive: u32, at: usize, n: usize, last: bool) -> Option<Vec<Prim>> {
    let p = |v: &[usize], first: usize, lst: usize| {
        let v: Vec<usize> = v.iter().map(|i| at + i).collect();
        Prim::new(&v, at + if last { lst } else { first })
    };
    let mut out = Vec::new();
    match primitive {
        POINTS => out.extend((0..n).map(|i| p(&[i], i, i))),
        LINES => out.extend((0..n / 2).map(|i| p(&[2 * i, 2 * i + 1], 2 * i, 2 * i + 1))),
        LINE_STRIP => out.extend((1..n).map(|i| p(&[i - 1, i], i - 1, i))),
        LINE_LOOP => {
            out.extend((1..n).map(|i| p(&[i - 1, i], i - 1, i)));
            if n >= 2 {
                out.push(p(&[n - 1, 0], n - 1, 0));
            }
        }
        TRIANGLES => {
            out.extend((0..n / 3).map(|i| p(&[3 * i, 3 * i + 1, 3 * i + 2], 3 * i, 3 * i + 2)))
        }
        TRIANGLE_STRIP => out.extend((0..n.saturating_sub(2)).map(|i| {
            // Odd triangles swap their first two vertices to keep the strip's winding.
            let v = if i % 2 == 0 {
                [i, i + 1, i + 2]
            } else {
                [i + 1, i, i + 2]
            };
            p(&v, i, i + 2)
        })),
        TRIANGLE_FAN => {
            out.extend((0..n.saturating_sub(2)).map(|i| p(&[0, i + 1, i + 2], i + 1, i + 2)))
        }
        QUADS => {
            for q in 0..n / 4 {
                let b = 4 * q;
                out.push(p(&[b, b + 1, b + 2], b, b + 3));
                out.push(p(&[b, b + 2, b + 3], b, b + 3));
            }
        }
        _ => return None,
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tris(v: Vec<Prim>) -> Vec<(Vec<usize>, usize)> {
        v.iter()
            .map(|p| (p.verts().to_vec(), p.provoking))
            .collect()
    }

    #[test]
    fn strips_fans_and_loops_follow_gl() {
        assert_eq!(
            tris(assemble(TRIANGLE_STRIP, 0, 5, true).unwrap()),
            vec![(vec![0, 1, 2], 2), (vec![2, 1, 3], 3), (vec![2, 3, 4], 4)]
        );
        // First-vertex convention: strip triangle i provokes with vertex i, fan with i + 1.
        assert_eq!(
            tris(assemble(TRIANGLE_STRIP, 0, 4, false).unwrap()),
            vec![(vec![0, 1, 2], 0), (vec![2, 1, 3], 1)]
        );
        assert_eq!(
            tris(assemble(TRIANGLE_FAN, 10, 4, false).unwrap()),
            vec![(vec![10, 11, 12], 11), (vec![10, 12, 13], 12)]
        );
        assert_eq!(
            tris(assemble(LINE_LOOP, 0, 3, true).unwrap()),
            vec![(vec![0, 1], 1), (vec![1, 2], 2), (vec![2, 0], 0)]
        );
        assert_eq!(
            tris(assemble(QUADS, 0, 5, true).unwrap()),
            vec![(vec![0, 1, 2], 3), (vec![0, 2, 3], 3)]
        );
        assert_eq!(assemble(9, 0, 3, true), None);
        assert_eq!(vertices_for(TRIANGLE_FAN, 3), Some(5));
        assert_eq!(vertices_for(LINE_LOOP, 3), Some(3));
    }
}
