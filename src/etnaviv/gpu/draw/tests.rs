//! Draw-path tests: hand-built command streams with hand-assembled shaders, and results
//! derived by hand.

use super::super::capture::Capture;
use super::super::Gpu;
use crate::etnaviv::specs::Specs;

/// Replays the capture named by GPUCC_ETNA_REPLAY (a development aid: captures stay outside
/// the repository) and prints what the draws produced.
#[test]
fn replay_a_capture_from_the_environment() {
    let Ok(path) = std::env::var("GPUCC_ETNA_REPLAY") else {
        return;
    };
    let core = std::env::var("GPUCC_ETNA_CORE").unwrap_or_else(|_| "gc2000".into());
    let cap = Capture::read_from(&mut std::fs::File::open(&path).unwrap()).unwrap();
    let mut mem = cap.memory();
    let mut gpu = Gpu::new(Specs::from_name(&core).unwrap());
    gpu.fragment_log = Some(Vec::new());
    let r = gpu.execute(&mut mem, &cap.stream);
    let log = gpu.fragment_log.take().unwrap();
    println!("{r:?}\n{}", gpu.report_text());
    println!("{} fragments", log.len());
    let mut colors = std::collections::BTreeMap::new();
    for f in &log {
        *colors.entry((f.colors[0], f.z.to_bits())).or_insert(0) += 1;
    }
    for ((c, z), n) in colors.iter().take(20) {
        println!(
            "{n} x colour {:?} z {}",
            c.map(f32::from_bits),
            f32::from_bits(*z)
        );
    }
    let (xs, ys): (Vec<u32>, Vec<u32>) = log.iter().map(|f| (f.x, f.y)).unzip();
    println!(
        "x {:?}..{:?} y {:?}..{:?}",
        xs.iter().min(),
        xs.iter().max(),
        ys.iter().min(),
        ys.iter().max()
    );
}

use std::collections::BTreeMap;

use super::super::memory::Buffers;
use super::Fragment;
use crate::drm::etnaviv::shader::{emit_shader, ShaderImage, Stage};
use crate::drm::etnaviv::CmdStream;
use crate::etnaviv::isa;

/// Each drawn pixel's colours, one per fragment.
type Pixels = BTreeMap<(u32, u32), Vec<[f32; 4]>>;

/// Where the hand-built scenes put their buffers.
const VERTEX_BUFFER: u32 = 0x1000_0000;
const INDEX_BUFFER: u32 = 0x1001_0000;
const VS_CODE: u32 = 0x1002_0000;
const PS_CODE: u32 = 0x1003_0000;

fn code(text: &str) -> Vec<u32> {
    let specs = Specs::from_name("gc3000").unwrap();
    isa::assemble(specs, text)
        .unwrap()
        .iter()
        .flat_map(isa::encode)
        .collect()
}

/// A draw on an `size`×`size` target: vertices of (clip position, one vec4 varying), a
/// pass-through vertex shader (attribute 0 → t0 position, attribute 1 → t1, output as each
/// of the `varyings` vec4 varyings) and the given fragment shader, whose colour is in
/// t`ps_out` (t2 unless changed).
struct Scene {
    core: &'static str,
    size: u32,
    verts: Vec<([f32; 4], [f32; 4])>,
    ps: &'static str,
    ps_uniforms: Vec<u32>,
    /// PA_CONFIG (smooth, solid, no culling unless changed).
    pa_config: u32,
    /// Varying 0 flat (PA_SHADER_ATTRIBUTES without the bypass bit).
    flat: bool,
    indices: Option<Vec<u16>>,
    /// How many vec4 varyings the VS passes (all copies of t1); the PS finds them in t1...
    varyings: usize,
    /// The PS colour register.
    ps_out: u8,
    /// Extra states written last.
    extra: Vec<(u32, u32)>,
}

impl Scene {
    fn new(core: &'static str, verts: Vec<([f32; 4], [f32; 4])>) -> Scene {
        Scene {
            core,
            size: 8,
            verts,
            ps: "mov.pack t2, void, void, t1.xyzw",
            ps_uniforms: Vec::new(),
            pa_config: 0x0001_2000,
            flat: false,
            indices: None,
            varyings: 1,
            ps_out: 2,
            extra: Vec::new(),
        }
    }

    /// Runs a draw of `primitive` over `count` vertices (or indices), returning the
    /// fragments by pixel with their colour and the report's unmodelled features.
    fn run(&self, primitive: u32, count: u32) -> (Pixels, Gpu) {
        let specs = Specs::from_name(self.core).unwrap();
        let halti = specs.halti();
        let mut mem = Buffers::new();
        let vb: Vec<u8> = self
            .verts
            .iter()
            .flat_map(|(p, v)| p.iter().chain(v).flat_map(|f| f.to_le_bytes()))
            .collect();
        mem.map(VERTEX_BUFFER, vb);
        let vs_code = code("mov.pack t0, void, void, t0.xyzw");
        let ps_code = code(self.ps);
        let bytes = |c: &[u32]| c.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        mem.map(VS_CODE, bytes(&vs_code));
        mem.map(PS_CODE, bytes(&ps_code));
        let mut cs = CmdStream::new();
        let n = self.varyings;
        let vs_outputs: Vec<u8> = [0].into_iter().chain([1].repeat(n)).collect();
        let vs = ShaderImage {
            stage: Stage::Vertex,
            code: &vs_code,
            temps: 2,
            inputs: &[0, 1],
            outputs: &vs_outputs,
            uniforms: &[],
            input_count_unk8: 1,
        };
        let ps = ShaderImage {
            stage: Stage::Fragment,
            code: &ps_code,
            temps: 3.max(u32::from(self.ps_out) + 1),
            inputs: &[1].repeat(n),
            outputs: &[self.ps_out],
            uniforms: &self.ps_uniforms,
            input_count_unk8: 31,
        };
        emit_shader(&mut cs, specs, &vs, 0, u64::from(VS_CODE)).unwrap();
        emit_shader(&mut cs, specs, &ps, 1, u64::from(PS_CODE)).unwrap();
        // Two float4 elements in one stream of stride 32.
        let element = |offset: u32| 8 | (4 << 12) | (offset << 16);
        if halti >= 5 {
            cs.set_states(reg::NFE_GENERIC_ATTRIB_CONFIG0, &[element(0), element(16)]);
            cs.set_states(reg::NFE_GENERIC_ATTRIB_SCALE, &[0x3f80_0000; 2]);
            cs.set_states(0x17a80, &[16, 0x800 | 32]);
        } else {
            cs.set_states(
                reg::FE_VERTEX_ELEMENT_CONFIG,
                &[element(0), 0x80 | element(16)],
            );
            if halti >= 2 {
                cs.set_states(reg::FE_GENERIC_ATTRIB_SCALE, &[0x3f80_0000; 2]);
            }
        }
        if halti >= 2 {
            cs.set_state(reg::NFE_VERTEX_STREAMS_BASE_ADDR, VERTEX_BUFFER);
            cs.set_state(reg::NFE_VERTEX_STREAMS_CONTROL, 32);
        } else {
            cs.set_state(reg::FE_VERTEX_STREAMS_BASE_ADDR, VERTEX_BUFFER);
            cs.set_state(reg::FE_VERTEX_STREAMS_CONTROL, 32);
        }
        if let Some(ix) = &self.indices {
            mem.map(
                INDEX_BUFFER,
                ix.iter().flat_map(|i| i.to_le_bytes()).collect(),
            );
            cs.set_state(reg::FE_INDEX_STREAM_BASE_ADDR, INDEX_BUFFER);
            cs.set_state(reg::FE_INDEX_STREAM_CONTROL, 1 | 0x100);
            cs.set_state(reg::FE_PRIMITIVE_RESTART_INDEX, 0xffff);
        }
        // Varyings of four components each (a nibble per varying, eight to a word); the VS
        // outputs the position and them.
        cs.set_state(reg::PA_ATTRIBUTE_ELEMENT_COUNT, (n as u32) << 8);
        let nibbles = |words: std::ops::Range<usize>| {
            words
                .map(|w| (0..8).filter(|i| w * 8 + i < n).map(|i| 4 << (4 * i)).sum())
                .collect::<Vec<u32>>()
        };
        if halti >= 5 {
            cs.set_states(reg::PS_VARYING_NUM_COMPONENTS, &nibbles(0..n.div_ceil(8)));
            cs.set_state(reg::GL_HALTI5_SH_SPECIALS, 0x7f7f_7f00);
        } else {
            let [first, second] = nibbles(0..2)[..] else {
                unreachable!()
            };
            cs.set_state(reg::GL_VARYING_NUM_COMPONENTS, first);
            cs.set_state(reg::GL_VARYING_NUM_COMPONENTS2, second);
            let attributes = if self.flat { 0x200 } else { 0x2f1 };
            cs.set_states(reg::PA_SHADER_ATTRIBUTES, &vec![attributes; n]);
        }
        // Viewport and scissor (the float values the front end makes of the driver's FIXP).
        let half = self.size as f32 / 2.0;
        cs.set_states(
            reg::PA_VIEWPORT_SCALE_X,
            &[half.to_bits(), half.to_bits(), 1.0f32.to_bits()],
        );
        cs.set_states(
            reg::PA_VIEWPORT_OFFSET_X,
            &[half.to_bits(), half.to_bits(), 0],
        );
        cs.set_state(reg::PA_SYSTEM_MODE, 0x11);
        cs.set_state(reg::PA_W_CLIP_LIMIT, 0x3400_0001);
        cs.set_state(reg::PA_CONFIG, self.pa_config);
        let edge = |m: f32| (self.size as f32 + m).to_bits();
        cs.set_states(reg::SE_SCISSOR_LEFT, &[0, 0, edge(0.0668), edge(0.0667)]);
        cs.set_states(reg::SE_CLIP_RIGHT, &[edge(0.99998), edge(0.99998)]);
        for &(a, v) in &self.extra {
            cs.set_state(a, v);
        }
        let mut words = cs.words().to_vec();
        let prim_count = match primitive {
            1 => count,
            2 => count / 2,
            4 => count / 3,
            5 => count - 2,
            _ => unreachable!(),
        };
        match (halti >= 2, self.indices.is_some()) {
            (false, false) => words.extend([5 << 27, primitive, 0, prim_count]),
            (false, true) => words.extend([6 << 27, primitive, 0, prim_count, 0, 0]),
            (true, indexed) => words.extend([
                12 << 27 | u32::from(indexed) << 20 | primitive << 16 | 1,
                count,
                0,
                0,
            ]),
        }
        words.extend([2 << 27, 0]);
        let mut gpu = Gpu::new(specs);
        gpu.fragment_log = Some(Vec::new());
        gpu.execute(&mut mem, &words).unwrap();
        let mut by_pixel = Pixels::new();
        for f in gpu.fragment_log.take().unwrap() {
            let Fragment { x, y, colors, .. } = f;
            by_pixel
                .entry((x, y))
                .or_default()
                .push(colors[0].map(f32::from_bits));
        }
        (by_pixel, gpu)
    }
}

use super::reg;

/// Window (x, y) on the 8×8 target as a clip position with w.
fn at(x: f32, y: f32, w: f32) -> [f32; 4] {
    [(x / 4.0 - 1.0) * w, (y / 4.0 - 1.0) * w, 0.0, w]
}

#[test]
fn a_strip_splits_a_square_by_the_top_left_rule() {
    // The square (0.5, 0.5)–(4.5, 4.5) as a strip A B C D: triangles (A, B, C) and (C, B, D)
    // share the diagonal B–C, which passes through the centres of pixels with x + y = 4; so
    // do the square's edges through its outer pixel centres. Top and left edges own their
    // centres: triangle 1 gets x + y < 4 with row 0 and column 0, triangle 2 the diagonal
    // (its left edge) and the rest, except row 4 and column 4 (bottom and right edges).
    // Flat shading from the provoking (last) vertex tells the triangles apart.
    let v = |x, y, id: f32| (at(x, y, 1.0), [id; 4]);
    let mut scene = Scene::new(
        "gc2000",
        vec![
            v(0.5, 0.5, 0.0),
            v(4.5, 0.5, 0.0),
            v(0.5, 4.5, 1.0),
            v(4.5, 4.5, 2.0),
        ],
    );
    scene.flat = true;
    scene.pa_config = 0x2000; // flat shade model, solid, no culling
    let (pixels, gpu) = scene.run(5, 4);
    for y in 0..8 {
        for x in 0..8 {
            let want = match (x < 4 && y < 4, x + y < 4) {
                (false, _) => None,
                (true, true) => Some(1.0),
                (true, false) => Some(2.0),
            };
            let got = pixels.get(&(x, y)).map(|c| {
                assert_eq!(c.len(), 1, "pixel ({x}, {y}) drawn {} times", c.len());
                c[0][0]
            });
            assert_eq!(got, want, "pixel ({x}, {y}); {}", gpu.report_text());
        }
    }
}

#[test]
fn varyings_are_perspective_correct_and_t0_holds_the_position() {
    // A = (0.5, 0.5) w 1, B = (4.5, 0.5) w 2, C = (0.5, 4.5) w 1; the varying is 1 at B.
    // At the centre (2.5, 1.5) the screen weights are A ¼, B ½, C ¼; divided by w they are
    // equal, so the varying is ⅓, and 1/w interpolates linearly to ¼ + ¼ + ¼ = ¾.
    let verts = vec![
        (at(0.5, 0.5, 1.0), [0.0; 4]),
        (at(4.5, 0.5, 2.0), [1.0; 4]),
        (at(0.5, 4.5, 1.0), [0.0; 4]),
    ];
    for core in ["gc3000", "gc7000l"] {
        let (pixels, _) = Scene::new(core, verts.clone()).run(4, 3);
        let c = pixels[&(2, 1)][0];
        assert!((c[0] - 1.0 / 3.0).abs() < 1e-6, "{core}: {c:?}");
        let mut s = Scene::new(core, verts.clone());
        s.ps = "mov.pack t2, void, void, t0.xyzw";
        let (pixels, _) = s.run(4, 3);
        let p = pixels[&(2, 1)][0];
        assert_eq!(p[..2], [2.5, 1.5], "{core}");
        assert!((p[3] - 0.75).abs() < 1e-6, "{core}: {p:?}");
        // z: clip z 0 is NDC 0, window depth ½ through the driver's 0..1 → 0..1 transform.
        assert_eq!(p[2], 0.5, "{core}");
    }
}

#[test]
fn culling_drops_clockwise_triangles_and_uniforms_reach_the_fragment_shader() {
    // Two triangles: the first counter-clockwise with y up, which is clockwise on the surface
    // as the core walks it (rows going down), the second the other way. With
    // CULL_FACE_MODE_CW only the second is drawn, in the PS uniform's colour. (The core's
    // sense of clockwise is the one real GC2000 piglit results need: see Triangle::clockwise.)
    let v = |x, y| (at(x, y, 1.0), [0.0; 4]);
    let verts = vec![
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(0.0, 4.0),
        v(8.0, 8.0),
        v(8.0, 4.0),
        v(4.0, 8.0),
    ];
    for core in ["gc2000", "gc3000", "gc7000l"] {
        let mut s = Scene::new(core, verts.clone());
        s.ps = "mov.pack t2, void, void, u0.xyzw";
        s.ps_uniforms = [0.25f32, 0.5, 0.75, 1.0].map(f32::to_bits).to_vec();
        let (all, _) = s.run(4, 6);
        // The hypotenuses pass through pixel centres (x + y = 3 and x + y = 11). The first
        // triangle's is a bottom-right edge: it keeps x + y < 3, 6 pixels; the second's is
        // a top-left edge: it keeps x + y ≥ 11 inside the target, 4 + 3 + 2 + 1 pixels.
        assert_eq!(all.len(), 16, "{core}");
        s.pa_config |= 0x100;
        let (pixels, _) = s.run(4, 6);
        assert_eq!(pixels.len(), 10, "{core}");
        assert!(
            pixels.keys().all(|&(x, y)| x + y >= 11),
            "{core}: {pixels:?}"
        );
        assert!(pixels.values().all(|c| c == &vec![[0.25, 0.5, 0.75, 1.0]]));
    }
}

#[test]
fn an_indexed_strip_restarts_at_the_restart_index() {
    // Vertices 0–3: the lower-left 4×4 square; 4–7: the upper-right one. Indices
    // 0 1 2 3 restart 4 5 6 7: two strips, no triangle joining them.
    let v = |x, y| (at(x, y, 1.0), [x; 4]);
    let verts = vec![
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(0.0, 4.0),
        v(4.0, 4.0),
        v(4.0, 4.0),
        v(8.0, 4.0),
        v(4.0, 8.0),
        v(8.0, 8.0),
    ];
    for core in ["gc2000", "gc3000"] {
        let mut s = Scene::new(core, verts.clone());
        s.indices = Some(vec![0, 1, 2, 3, 0xffff, 4, 5, 6, 7]);
        let (pixels, gpu) = s.run(5, 9);
        let want: Vec<(u32, u32)> = (0..8)
            .flat_map(|x| (0..8).map(move |y| (x, y)))
            .filter(|&(x, y)| (x < 4) == (y < 4))
            .collect();
        assert_eq!(
            pixels.keys().copied().collect::<Vec<_>>(),
            want,
            "{core}: {}",
            gpu.report_text()
        );
        // The varying is the window x: at pixel centre 5.5 it is 5.5.
        assert_eq!(pixels[&(5, 6)][0][0], 5.5, "{core}");
    }
}

#[test]
fn points_cover_their_square_and_give_point_coordinates() {
    // A point at window (4, 4) of size 2 (PA_POINT_SIZE holds half the size) covers the
    // centres in [3, 5)²: pixels 3 and 4 each way. Varying components x and y are the
    // point coordinate (GL_VARYING_COMPONENT_USE 2 and 3): at pixel (4, 3), centre
    // (4.5, 3.5), that is ((4.5 − 3) / 2, (3.5 − 3) / 2) = (0.75, 0.25).
    let mut s = Scene::new("gc2000", vec![(at(4.0, 4.0, 1.0), [9.0; 4])]);
    s.extra = vec![
        (reg::PA_POINT_SIZE, 1.0f32.to_bits()),
        (reg::GL_VARYING_COMPONENT_USE, 2 | 3 << 2),
    ];
    let (pixels, _) = s.run(1, 1);
    assert_eq!(
        pixels.keys().copied().collect::<Vec<_>>(),
        vec![(3, 3), (3, 4), (4, 3), (4, 4)]
    );
    assert_eq!(pixels[&(4, 3)][0], [0.75, 0.25, 9.0, 9.0]);
}

#[test]
fn a_line_covers_the_columns_of_its_half_open_span() {
    // From window (1, 2.5) to (6, 2.5), width 1 (PA_LINE_WIDTH holds half): the columns
    // whose centres lie in [1, 6), x = 1..5, on the row whose centre is within ½ of y = 2.5
    // from below-inclusive: row 2. The varying runs 0 → 5 with x, so the centre 3.5 gets 2.5.
    let v = |x: f32| (at(x, 2.5, 1.0), [x - 1.0; 4]);
    let mut s = Scene::new("gc3000", vec![v(1.0), v(6.0)]);
    s.extra = vec![(reg::PA_LINE_WIDTH, 0.5f32.to_bits())];
    let (pixels, _) = s.run(2, 2);
    assert_eq!(
        pixels.keys().copied().collect::<Vec<_>>(),
        (1..6).map(|x| (x, 2)).collect::<Vec<_>>()
    );
    assert_eq!(pixels[&(3, 2)][0][0], 2.5);
}

#[test]
fn a_gc2000_interpolates_eleven_varyings_and_no_twelfth() {
    // Twelve vec4 varyings, each the vertices' (0.25, 0.5, 0.75, 1.0), over a triangle covering
    // pixel (1, 1). The kernel reports 11 varyings for GC2000 r5108 (etnaviv_gpu.c: its
    // position takes two interpolator slots); piglit's fs-varying-array-mat4-index-col-rd
    // fails on GC2000 hardware exactly where it reads the 12th (etnaviv-gc2000-fails.txt). So
    // the 11th (t11) arrives, the 12th (t12) does not (the model's stand-in is zero, and the
    // report says so); GC3000's kernel reports 16, so there t12 arrives too.
    let value = [0.25, 0.5, 0.75, 1.0];
    let verts = vec![
        (at(0.5, 0.5, 1.0), value),
        (at(6.5, 0.5, 1.0), value),
        (at(0.5, 6.5, 1.0), value),
    ];
    let read = |core, input: u32| {
        let mut s = Scene::new(core, verts.clone());
        s.varyings = 12;
        s.ps_out = 13;
        s.ps = match input {
            11 => "mov.pack t13, void, void, t11.xyzw",
            _ => "mov.pack t13, void, void, t12.xyzw",
        };
        let (pixels, gpu) = s.run(4, 3);
        (pixels[&(1, 1)][0], gpu.report_text())
    };
    let near = |c: [f32; 4], want: [f32; 4]| c.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-6);
    let (c, report) = read("gc2000", 11);
    assert!(near(c, value), "gc2000 t11: {c:?}; {report}");
    let (c, report) = read("gc2000", 12);
    assert_eq!(c, [0.0; 4], "gc2000 t12; {report}");
    assert!(
        report.contains("12 varyings, the core interpolates 11"),
        "{report}"
    );
    let (c, report) = read("gc3000", 12);
    assert!(near(c, value), "gc3000 t12: {c:?}; {report}");
}
