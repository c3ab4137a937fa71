//! Draws: vertex fetch ([`fetch`]), the vertex shader ([`vertex`]), primitive assembly
//! ([`assemble`]), clipping ([`clip`]), the viewport and the rasterizer ([`raster`]) and the
//! fragment shader ([`shade`]), handing each fragment to the pixel engine ([`super::pe`]).
//!
//! Facts about the states come from Mesa 23.3's hw/*.xml.h and from how its etnaviv driver
//! programs them (etnaviv_emit.c, etnaviv_state.c, etnaviv_shader.c, etnaviv_rasterizer.c,
//! etnaviv_context.c); each module names what it relies on. The draw commands: DRAW_PRIMITIVES
//! gives a first vertex and a primitive count; DRAW_INDEXED_PRIMITIVES a first index, a
//! primitive count and a bias added to every index (the driver puts the start into the index
//! stream's address); DRAW_INSTANCED (HALTI2 and later) a vertex count and an instance count,
//! its start being the first vertex, or for indexed draws the index bias.

pub mod assemble;
pub mod clip;
pub mod fetch;
pub mod program;
pub mod raster;
pub mod reg;
pub mod shade;
pub mod vertex;

#[cfg(test)]
mod tests;

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::ops::Range;

use super::memory::Memory;
use super::{Draw, Gpu, GpuError};
use clip::{ClipVertex, Planes};
pub use program::canonical_state;
use raster::{Bounds, Line, PixelInputs, Point, Shape, Triangle, Viewport, WinVertex};
use shade::{FragmentStage, PointCoordMap};
use vertex::ShadedVertex;

pub use super::pe::Fragment;

/// States the draw path interprets. Some only order or cache work in the core (uniform and
/// instruction cache flushes and prefetches, load balancing, temporary register counts, the
/// vertex reuse hint, the varying totals the core derives its buffers from, early depth,
/// which the driver enables only where testing late gives the same pixels): the model
/// reads everything at draw time with unlimited registers, so for it they are no-ops.
pub const STATES: &[Range<u32>] = &[
    // FE vertex elements, index and vertex streams, generic attribute scale, HALTI5 ids.
    0x0600..0x0640,
    0x0644..0x0654,
    0x0674..0x0678,
    0x0680..0x06c0,
    0x0780..0x07c0,
    0x07c4..0x07c8,
    0x14600..0x146c0,
    0x17800..0x17880,
    0x17a00..0x17b00,
    // VS program, inputs, outputs, ranges, caches and the HALTI5 variants.
    0x0800..0x0834,
    0x0838..0x083c,
    0x085c..0x0880,
    0x088c..0x0890,
    0x08b0..0x08b4,
    0x08bc..0x0900,
    0x4000..0x8000,
    0xc000..0x10000,
    0x30000..0x32000,
    0x36000..0x38000,
    0x15600..0x15608,
    // PA: viewport, line and point size, system mode, clipping, attributes.
    0x0a00..0x0a20,
    0x0a28..0x0a40,
    0x0a40..0x0a80,
    0x0a88..0x0a90,
    0x0a90..0x0aa0,
    // SE: scissor, depth offset, last pixel, clip rectangle.
    0x0c00..0x0c1c,
    0x0c20..0x0c28,
    // RA: varying control and early depth.
    0x0e00..0x0e04,
    0x0e08..0x0e0c,
    // PS program, inputs, output, control, ranges and caches.
    0x1000..0x1014,
    0x1018..0x1020,
    0x1024..0x102c,
    0x1048..0x104c,
    0x1080..0x1098,
    // Vertex reuse hint, multisampling, varying layout, HALTI5 shader specials.
    0x3814..0x3820,
    0x3820..0x3838,
    0x3888..0x388c,
];

/// Where the fragments of a draw go: the pixel engine, or a test's list.
pub type FragmentSink<'a> =
    dyn FnMut(&mut Gpu, &mut dyn Memory, &Fragment) -> Result<(), GpuError> + 'a;

/// How the varyings reach the fragment shader.
struct Varyings {
    /// Components of each varying.
    comps: Vec<usize>,
    /// Whether each takes the provoking vertex's value.
    flat: Vec<bool>,
    /// How many of them the core interpolates (see [`Gpu::varyings`]); the PS inputs of the
    /// rest hold zero here.
    delivered: usize,
    point_coord: PointCoordMap,
    /// VS output holding the point size (component), if per vertex.
    point_size: Option<(usize, usize)>,
    fixed_point_size: f32,
}

impl Gpu {
    pub(crate) fn draw(&mut self, mem: &mut dyn Memory, draw: &Draw) -> Result<(), GpuError> {
        self.report.draws += 1;
        self.run_draw(mem, draw, &mut |gpu, mem, f| {
            if let Some(log) = &mut gpu.fragment_log {
                log.push(*f);
            }
            gpu.pe_fragment(mem, f)
        })
    }

    /// Executes `draw`, handing every fragment that survives the fragment shader to `sink`.
    pub fn run_draw(
        &mut self,
        mem: &mut dyn Memory,
        draw: &Draw,
        sink: &mut FragmentSink,
    ) -> Result<(), GpuError> {
        let count = match (draw.vertices, draw.primitives) {
            (Some(n), _) => n,
            (None, Some(p)) => assemble::vertices_for(draw.primitive, p).ok_or_else(|| {
                GpuError::Unmodelled(format!("primitive type {}", draw.primitive))
            })?,
            (None, None) => 0,
        } as usize;
        if count == 0 || draw.instances == 0 {
            return Ok(());
        }
        self.check_unmodelled_modes();
        // (vertex index to fetch, vertex id) per position of the draw; None = restart.
        let sequence: Vec<Option<(u32, u32)>> = if draw.indexed {
            let (first, bias) = if draw.vertices.is_some() {
                (0, draw.start)
            } else {
                (draw.start, draw.index_offset)
            };
            self.fetch_indices(mem, first, count)?
                .into_iter()
                .map(|i| i.map(|i| (i.wrapping_add(bias), i)))
                .collect()
        } else {
            (0..count as u32)
                .map(|k| Some((draw.start + k, draw.start + k)))
                .collect()
        };
        let mut vs = self.vertex_stage(mem)?;
        let varyings = self.varyings()?;
        let mut fs =
            self.fragment_stage(mem, varyings.comps.clone(), varyings.point_coord.clone())?;
        let last = self.states.get(reg::PA_SYSTEM_MODE) & 1 != 0;
        let mut prims = Vec::new();
        let mut run_start = 0;
        for (k, slot) in sequence.iter().enumerate().chain([(sequence.len(), &None)]) {
            if slot.is_none() {
                let n = k - run_start;
                prims.extend(
                    assemble::assemble(draw.primitive, run_start, n, last).ok_or_else(|| {
                        GpuError::Unmodelled(format!("primitive type {}", draw.primitive))
                    })?,
                );
                run_start = k + 1;
            }
        }
        for instance in 0..draw.instances {
            let mut cache: HashMap<u32, ClipVertex> = HashMap::new();
            for prim in &prims {
                let mut verts = Vec::with_capacity(3);
                for &p in prim.verts() {
                    let (index, id) = sequence[p].expect("primitives hold no restart");
                    let cv = match cache.entry(index) {
                        Entry::Occupied(e) => e.get().clone(),
                        Entry::Vacant(e) => {
                            let v = vs.shade(mem, index, id, instance)?;
                            e.insert(self.clip_vertex(&v, &varyings)?).clone()
                        }
                    };
                    verts.push(cv);
                }
                let (pindex, _) = sequence[prim.provoking].expect("no restart");
                let provoking = cache[&pindex].vars.clone();
                self.rasterize(mem, &verts, provoking, &varyings, &mut fs, sink)?;
            }
        }
        Ok(())
    }

    /// Counts state combinations the draw path does not model.
    fn check_unmodelled_modes(&mut self) {
        let config = self.states.get(reg::PA_CONFIG);
        if config & 0x0084_4428 != 0 {
            self.unmodelled(format!("PA_CONFIG mask bits 0x{config:08x}"));
        }
        match (config >> 12) & 3 {
            2 => {}
            m => self.unmodelled(format!("polygon fill mode {m}")),
        }
        if self.states.get(reg::GL_MULTI_SAMPLE_CONFIG) & 3 != 0 {
            self.unmodelled("multisampling");
        }
        let far = self.states.get(reg::PA_ZFARCLIPPING);
        if far != 0 {
            self.unmodelled(format!("PA_ZFARCLIPPING 0x{far:08x}"));
        }
        let sh = self.states.get(reg::SH_CONFIG);
        if sh & !2 != 0 {
            self.unmodelled(format!("SH_CONFIG 0x{sh:08x}"));
        }
    }

    /// The varying layout from the PA, PS and GL states.
    fn varyings(&mut self) -> Result<Varyings, GpuError> {
        let halti5 = self.specs.halti() >= 5;
        let s = &self.states;
        let count = ((s.get(reg::PS_INPUT_COUNT) & 0x1f) as usize).saturating_sub(1);
        let pa_count = ((s.get(reg::PA_ATTRIBUTE_ELEMENT_COUNT) >> 8) & 0xff) as usize;
        let nibble = |v: usize| -> usize {
            let word = if halti5 {
                s.at(reg::PS_VARYING_NUM_COMPONENTS, v / 8)
            } else if v < 8 {
                s.get(reg::GL_VARYING_NUM_COMPONENTS)
            } else {
                s.get(reg::GL_VARYING_NUM_COMPONENTS2)
            };
            ((word >> (4 * (v % 8))) & 0xf) as usize
        };
        let comps: Vec<usize> = (0..count).map(nibble).collect();
        let config = s.get(reg::PA_CONFIG);
        let shade_flat = (config >> 16) & 3 == 0;
        let flat: Vec<bool> = (0..count)
            .map(|v| !halti5 && shade_flat && s.at(reg::PA_SHADER_ATTRIBUTES, v) & 1 == 0)
            .collect();
        // Point coordinate components, by running component number.
        let mut point_coord: PointCoordMap = vec![[None; 4]; count];
        let specials = s.get(reg::GL_HALTI5_SH_SPECIALS);
        let mut k = 0;
        for (v, n) in comps.iter().enumerate() {
            for slot in point_coord[v].iter_mut().take(*n) {
                let which = if halti5 {
                    let at = ((specials >> 8) & 0x7f) as usize;
                    (at != 0x7f && (k == at || k == at + 1)).then(|| (k - at) as u8)
                } else {
                    match (s.at(reg::GL_VARYING_COMPONENT_USE, k / 16) >> (2 * (k % 16))) & 3 {
                        2 => Some(0),
                        3 => Some(1),
                        _ => None,
                    }
                };
                *slot = which;
                k += 1;
            }
        }
        let per_vertex_size = config & 4 != 0;
        let outputs = if halti5 {
            s.get(reg::VS_HALTI5_OUTPUT_COUNT) & 0xff
        } else {
            s.get(reg::VS_OUTPUT_COUNT) & 0xff
        } as usize;
        let point_size = per_vertex_size.then(|| {
            if halti5 {
                let c = (specials & 0x7f) as usize;
                (c / 4, c % 4)
            } else {
                (outputs.saturating_sub(1), 0)
            }
        });
        let fixed_point_size = s.get_f32(reg::PA_POINT_SIZE) * 2.0;
        if halti5 && shade_flat {
            self.unmodelled("flat shading on HALTI5");
        }
        if pa_count != count {
            self.unmodelled(format!(
                "PA has {pa_count} varyings, the PS {count} inputs after the position"
            ));
        }
        // The core interpolates as many varyings as the kernel reports for it (NUM_VARYINGS):
        // on GC2000 r5108 the position takes two of the interpolator's slots, so the kernel
        // reports one less than the chip specs register (etnaviv_gpu.c, etnaviv_hw_specs:
        // "two varyings are consumed for position"), 11. Mesa 23.3 advertises
        // MAX2(NUM_VARYINGS, 16) (etnaviv_screen.c), so a program can link more. On a real
        // GC2000 such a program reads the 12th wrongly: piglit's fs-varying-array-mat4-*
        // tests all link 12 vec4 varyings, and only the two that read m[2][3], the 12th
        // (index-col-rd, index-col-row-rd), fail (Mesa's etnaviv-gc2000-fails.txt). What the
        // hardware delivers there is not known; the model gives zero and says so.
        let delivered = count.min(self.specs.num_varyings as usize);
        if delivered < count {
            self.unmodelled(format!(
                "{count} varyings, the core interpolates {delivered}: \
                 PS inputs from t{} undefined (zero here)",
                delivered + 1
            ));
        }
        Ok(Varyings {
            comps,
            flat,
            delivered,
            point_coord,
            point_size,
            fixed_point_size,
        })
    }

    /// A shaded vertex in the clipper's form: depth converted, varyings by PS input order.
    fn clip_vertex(&mut self, v: &ShadedVertex, var: &Varyings) -> Result<ClipVertex, GpuError> {
        let mut pos = v.position();
        if self.states.get(reg::PA_FLAGS) & (1 << 30) == 0 {
            pos[2] = (pos[2] + pos[3]) * 0.5;
        }
        if var.comps.len() + 1 > v.outputs.len() {
            return Err(GpuError::Unmodelled(format!(
                "{} varyings but {} vertex shader outputs",
                var.comps.len(),
                v.outputs.len()
            )));
        }
        let vars = (0..var.comps.len())
            .map(|i| match i < var.delivered {
                true => v.outputs[i + 1].map(f32::from_bits),
                false => [0.0; 4],
            })
            .collect();
        let point_size = match var.point_size {
            Some((o, c)) => v
                .outputs
                .get(o)
                .map_or(var.fixed_point_size, |r| f32::from_bits(r[c])),
            None => var.fixed_point_size,
        };
        Ok(ClipVertex {
            pos,
            vars,
            point_size,
        })
    }

    fn viewport(&self) -> Viewport {
        let s = &self.states;
        Viewport {
            scale: [0, 1, 2]
                .map(|i| s.at(reg::PA_VIEWPORT_SCALE_X, i))
                .map(f32::from_bits),
            offset: [0, 1, 2]
                .map(|i| s.at(reg::PA_VIEWPORT_OFFSET_X, i))
                .map(f32::from_bits),
        }
    }

    /// The pixels the scissor and the clip rectangle leave: a pixel's centre must be inside
    /// [left, right) × [top, bottom) of the scissor, and its far corner (x + 1, y + 1)
    /// at most SE_CLIP_RIGHT/BOTTOM. (The driver adds a margin just above zero to the
    /// scissor's right and bottom and just below one to the clip rectangle's, which makes
    /// both end at the same pixel.)
    fn bounds(&self) -> Bounds {
        let s = &self.states;
        // The driver loads these 16.16 values with LOAD_STATE's FIXP flag, which the front
        // end turns into floats.
        let f = |i: usize| f64::from(f32::from_bits(s.at(reg::SE_SCISSOR_LEFT, i)));
        let c = |i: usize| f64::from(f32::from_bits(s.at(reg::SE_CLIP_RIGHT, i)));
        let max = 8192;
        Bounds {
            x0: ((f(0) - 0.5).ceil() as i64).clamp(0, max),
            y0: ((f(1) - 0.5).ceil() as i64).clamp(0, max),
            x1: ((f(2) - 0.5).ceil() as i64)
                .min(c(0).floor() as i64)
                .clamp(0, max),
            y1: ((f(3) - 0.5).ceil() as i64)
                .min(c(1).floor() as i64)
                .clamp(0, max),
        }
    }

    /// Clips one primitive, sets it up and shades what it covers.
    #[allow(clippy::too_many_arguments)]
    fn rasterize(
        &mut self,
        mem: &mut dyn Memory,
        verts: &[ClipVertex],
        provoking: Vec<[f32; 4]>,
        var: &Varyings,
        fs: &mut FragmentStage,
        sink: &mut FragmentSink,
    ) -> Result<(), GpuError> {
        let vp = self.viewport();
        let planes = Planes {
            w_limit: self.states.get_f32(reg::PA_W_CLIP_LIMIT),
            scale: [vp.scale[0], vp.scale[1]],
            offset: [vp.offset[0], vp.offset[1]],
        };
        let mut shapes = Vec::new();
        match verts {
            [p] => {
                if planes.inside(p) {
                    shapes.push((Shape::Point(Point::new(vp.window(p), p.point_size)), false));
                }
            }
            [a, b] => {
                if let Some((a, b)) = planes.line(a, b) {
                    let width = self.states.get_f32(reg::PA_LINE_WIDTH) * 2.0;
                    let last = self.states.get(reg::SE_CONFIG) & 1 != 0;
                    let line = Line::new(
                        vp.window(&a),
                        vp.window(&b),
                        width,
                        last,
                        provoking,
                        var.flat.clone(),
                    );
                    shapes.push((Shape::Line(line), false));
                }
            }
            [a, b, c] => {
                let poly = planes.polygon([a, b, c]);
                let win: Vec<WinVertex> = poly.iter().map(|v| vp.window(v)).collect();
                let cull = (self.states.get(reg::PA_CONFIG) >> 8) & 3;
                let factor = self.states.get_f32(reg::SE_DEPTH_SCALE);
                let units = self.states.get_f32(reg::SE_DEPTH_BIAS);
                for i in 1..win.len().saturating_sub(1) {
                    let tri = [win[0].clone(), win[i].clone(), win[i + 1].clone()];
                    let Some(mut t) = Triangle::new(tri, provoking.clone(), var.flat.clone())
                    else {
                        continue;
                    };
                    let cw = t.clockwise();
                    if (cull == 1 && cw) || (cull == 2 && !cw) {
                        continue;
                    }
                    if factor != 0.0 || units != 0.0 {
                        t.set_depth_offset(factor, units);
                    }
                    shapes.push((Shape::Triangle(t), cw));
                }
            }
            _ => unreachable!("primitives have one to three vertices"),
        }
        let bounds = self.bounds();
        let half = self.states.get(reg::PA_SYSTEM_MODE) & 0x10 != 0;
        let centre = if half { 0.5 } else { 0.0 };
        let mut pixels: [PixelInputs; 4] = Default::default();
        for (shape, cw) in &shapes {
            let triangle = matches!(shape, Shape::Triangle(_));
            for (qx, qy) in shape.quads(&bounds) {
                let mut covered = [false; 4];
                for (i, px) in pixels.iter_mut().enumerate() {
                    let (x, y) = (qx + (i as i64 & 1), qy + (i as i64 >> 1));
                    let (sx, sy) = (x as f64 + centre, y as f64 + centre);
                    covered[i] = x >= bounds.x0
                        && x < bounds.x1
                        && y >= bounds.y0
                        && y < bounds.y1
                        && shape.covers(sx, sy);
                    shape.inputs(sx, sy, px);
                }
                if !covered.contains(&true) {
                    continue;
                }
                let results = fs.shade(&pixels, *cw)?;
                for (i, r) in results.iter().enumerate() {
                    let (Some(r), true) = (r, covered[i]) else {
                        continue;
                    };
                    let mut colors = [[0; 4]; 8];
                    colors[0] = r.color;
                    let f = Fragment {
                        x: (qx + (i as i64 & 1)) as u32,
                        y: (qy + (i as i64 >> 1)) as u32,
                        z: r.z,
                        front_facing: !triangle || !cw,
                        colors,
                        color_count: 1,
                    };
                    sink(self, mem, &f)?;
                }
            }
        }
        Ok(())
    }
}
