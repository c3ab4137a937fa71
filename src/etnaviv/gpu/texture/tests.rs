//! Texture unit tests: states set by hand, small textures placed in memory by hand, and
//! expectations worked out from the texel values (comments show the arithmetic).

use super::*;
use crate::etnaviv::gpu::memory::Buffers;
use crate::etnaviv::specs::Specs;
use crate::nir::TexOp;

const TEX: u32 = 0x10_0000;

fn gpu(core: &str) -> Gpu {
    Gpu::new(Specs::from_name(core).unwrap())
}

fn req(op: TexOp, sampler: u32, coord: &[f64]) -> TexRequest {
    TexRequest {
        op,
        texture: sampler,
        sampler,
        coord: coord.to_vec(),
        ..TexRequest::default()
    }
}

/// Texel (x, y) of the test pattern: R = 16x, G = 16y, B = 0x80, A = 0xff.
fn pattern(x: u32, y: u32) -> [u8; 4] {
    [(16 * x) as u8, (16 * y) as u8, 0x80, 0xff]
}

fn unorm(c: [u8; 4]) -> [f64; 4] {
    c.map(|v| f64::from(v) / 255.0)
}

/// An RGBA8 image of `w`×`h` in 4×4 tiles, `pw` texels per padded row: tile (tx, ty) starts
/// at `(ty * pw / 4 + tx) * 64` bytes and holds its 16 texels row by row (Mesa's
/// etna_texture_tile).
fn tiled_rgba8(w: u32, h: u32, pw: u32, texel: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let ph = h.next_multiple_of(4);
    let mut out = vec![0; (pw * ph * 4) as usize];
    for y in 0..h {
        for x in 0..w {
            let tile = (y / 4) * (pw / 4) + x / 4;
            let at = (tile * 64 + ((y % 4) * 4 + x % 4) * 4) as usize;
            out[at..at + 4].copy_from_slice(&texel(x, y));
        }
    }
    out
}

/// TE (GC2000) sampler `i`: 2D A8B8G8R8, tiled with HALIGN FOUR, the given CONFIG0
/// wrap/filter bits, size, LOD_CONFIG and level addresses.
fn te_sampler(g: &mut Gpu, i: u32, filters: u32, size: (u32, u32), lod: u32, addrs: &[u32]) {
    // TYPE 2D, FORMAT 9 (A8B8G8R8) at bit 13.
    g.states.set(0x2000 + 4 * i, 2 | (9 << 13) | filters);
    g.states.set(0x2040 + 4 * i, size.0 | (size.1 << 16));
    g.states.set(0x20c0 + 4 * i, lod);
    g.states.set(0x2180 + 4 * i, 1);
    // Identity swizzle R G B A (0, 1, 2, 3), HALIGN FOUR.
    g.states.set(0x21c0 + 4 * i, 0x0032_1000);
    for (l, a) in addrs.iter().enumerate() {
        g.states.set(0x2400 + 4 * i + 0x40 * l as u32, *a);
    }
}

const NEAREST: u32 = (1 << 7) | (1 << 11);
const LINEAR: u32 = (2 << 7) | (2 << 11);
/// Wrap fields: U at bit 3, V at bit 5.
const REPEAT: u32 = 0;
const MIRROR: u32 = (1 << 3) | (1 << 5);
const CLAMP: u32 = (2 << 3) | (2 << 5);

#[test]
fn a_tiled_texture_reads_back_its_texels_at_their_centres() {
    let mut g = gpu("gc2000");
    let mut mem = Buffers::new();
    let image = tiled_rgba8(8, 8, 8, pattern);
    // Hand check of the tiling: texel (5, 6) is in tile (1, 1) = tile 3, row 2, column 1:
    // byte 3 * 64 + (2 * 4 + 1) * 4 = 228.
    assert_eq!(image[228..232], pattern(5, 6));
    mem.map(TEX, image);
    te_sampler(&mut g, 0, NEAREST | CLAMP, (8, 8), 0, &[TEX]);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    assert_eq!(unit.dims(0), 2);
    for (x, y) in [(0, 0), (5, 6), (7, 7), (3, 4), (4, 3)] {
        let c = [(f64::from(x) + 0.5) / 8.0, (f64::from(y) + 0.5) / 8.0];
        assert_eq!(
            unit.sample(&req(TexOp::Tex, 0, &c)).unwrap(),
            unorm(pattern(x, y)),
            "texel ({x}, {y})"
        );
    }
    // Sampler 1 is off.
    assert!(unit.sample(&req(TexOp::Tex, 1, &[0.5, 0.5])).is_err());
}

#[test]
fn bilinear_filtering_blends_the_four_nearest_texels() {
    let mut g = gpu("gc2000");
    let mut mem = Buffers::new();
    mem.map(TEX, tiled_rgba8(8, 8, 8, pattern));
    te_sampler(&mut g, 0, LINEAR | CLAMP, (8, 8), 0, &[TEX]);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    // u·8 = 2.75, v·8 = 5.0: texels x 2 (weight 0.75) and 3 (0.25), y 4 and 5 (0.5 each).
    // R = 16·(0.75·2 + 0.25·3) = 36; G = 16·(0.5·4 + 0.5·5) = 72; B 0x80, A 0xff.
    let v = unit
        .sample(&req(TexOp::Tex, 0, &[2.75 / 8.0, 5.0 / 8.0]))
        .unwrap();
    let want = [36.0 / 255.0, 72.0 / 255.0, 128.0 / 255.0, 1.0];
    for c in 0..4 {
        assert!((v[c] - want[c]).abs() < 1e-12, "{v:?} vs {want:?}");
    }
}

#[test]
fn wrap_modes_at_the_edges() {
    let mut mem = Buffers::new();
    mem.map(TEX, tiled_rgba8(8, 8, 8, pattern));
    let at = |wrap: u32, u: f64| {
        let mut g = gpu("gc2000");
        te_sampler(&mut g, 0, NEAREST | wrap, (8, 8), 0, &[TEX]);
        let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
        unit.sample(&req(TexOp::Tex, 0, &[u, 0.5 / 8.0])).unwrap()
    };
    // u = 9.5 / 8: texel 9. Repeat: 9 mod 8 = 1; mirrored: 8 - 1 - 1 = 6 (texel 8 mirrors
    // to 7, 9 to 6); clamp: 7.
    assert_eq!(at(REPEAT, 9.5 / 8.0), unorm(pattern(1, 0)));
    assert_eq!(at(MIRROR, 9.5 / 8.0), unorm(pattern(6, 0)));
    assert_eq!(at(CLAMP, 9.5 / 8.0), unorm(pattern(7, 0)));
    // u = -0.5 / 8: texel -1. Repeat: 7; mirrored: 0; clamp: 0.
    assert_eq!(at(REPEAT, -0.5 / 8.0), unorm(pattern(7, 0)));
    assert_eq!(at(MIRROR, -0.5 / 8.0), unorm(pattern(0, 0)));
    assert_eq!(at(CLAMP, -0.5 / 8.0), unorm(pattern(0, 0)));
}

/// Three levels, 8×8, 4×4 and 2×2, solid red, green and blue (padded to 4×4 tiles).
fn miptree(mem: &mut Buffers) -> [u32; 3] {
    let colours = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]];
    let addrs = [TEX, TEX + 0x1000, TEX + 0x2000];
    for l in 0..3 {
        let s = 8 >> l;
        let c = colours[l];
        mem.map(addrs[l], tiled_rgba8(s, s, s.max(4), move |_, _| c));
    }
    addrs
}

#[test]
fn the_level_of_detail_follows_the_quad_derivatives() {
    let mut g = gpu("gc2000");
    let mut mem = Buffers::new();
    let addrs = miptree(&mut mem);
    // MIP nearest (1 at bit 9); LOD_CONFIG MAX 2.0 (64 in 5.5 at bit 1), MIN 0.
    te_sampler(
        &mut g,
        0,
        NEAREST | CLAMP | (1 << 9),
        (8, 8),
        64 << 1,
        &addrs,
    );
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    let sample = |d: f64, op: TexOp, bias: Option<f64>| {
        let mut r = req(op, 0, &[0.5, 0.5]);
        r.ddx = vec![d / 8.0, 0.0];
        r.ddy = vec![0.0, d / 8.0];
        r.bias = bias;
        unit.sample(&r).unwrap()
    };
    let (red, green, blue) = (
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
    );
    // One texel per pixel: λ = 0, level 0. Two: λ = 1, level 1. 1.4: λ ≈ 0.49, level 0;
    // 1.5: λ ≈ 0.58, level 1 (nearest rounds at 0.5). Eight: λ = 3, clamped to MAX 2.
    assert_eq!(sample(1.0, TexOp::Tex, None), red);
    assert_eq!(sample(2.0, TexOp::Tex, None), green);
    assert_eq!(sample(1.4, TexOp::Tex, None), red);
    assert_eq!(sample(1.5, TexOp::Tex, None), green);
    assert_eq!(sample(8.0, TexOp::Tex, None), blue);
    // TEXLDB adds its bias: λ = 0 + 2.
    assert_eq!(sample(1.0, TexOp::Txb, Some(2.0)), blue);
    // TEXLDL ignores the derivatives.
    let mut l = req(TexOp::Txl, 0, &[0.5, 0.5]);
    l.lod = Some(1.0);
    assert_eq!(unit.sample(&l).unwrap(), green);
    // Linear between levels (MIP 2): λ = log2(2.8284) = 1.5 is half green, half blue.
    let mut g = gpu("gc2000");
    te_sampler(
        &mut g,
        0,
        NEAREST | CLAMP | (2 << 9),
        (8, 8),
        64 << 1,
        &addrs,
    );
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    let mut r = req(TexOp::Tex, 0, &[0.5, 0.5]);
    let d = 2f64.powf(1.5) / 8.0;
    r.ddx = vec![d, 0.0];
    r.ddy = vec![0.0, d];
    let v = unit.sample(&r).unwrap();
    assert!(
        (v[1] - 0.5).abs() < 1e-9 && (v[2] - 0.5).abs() < 1e-9,
        "{v:?}"
    );
}

#[test]
fn lod_clamps_and_the_unmipmapped_level() {
    let mut mem = Buffers::new();
    let addrs = miptree(&mut mem);
    // MIN LOD 1.0 (32 at bit 11), MAX 2.0: a magnified lookup still reads level 1.
    let mut g = gpu("gc2000");
    te_sampler(
        &mut g,
        0,
        NEAREST | (1 << 9),
        (8, 8),
        (32 << 11) | (64 << 1),
        &addrs,
    );
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    assert_eq!(
        unit.sample(&req(TexOp::Tex, 0, &[0.5, 0.5])).unwrap(),
        [0.0, 1.0, 0.0, 1.0]
    );
    // No mip filter, MIN = MAX = 0 (as Mesa programs it): level 0 whatever the derivatives.
    let mut g = gpu("gc2000");
    te_sampler(&mut g, 0, NEAREST, (8, 8), 0, &addrs);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    let mut r = req(TexOp::Tex, 0, &[0.5, 0.5]);
    r.ddx = vec![1.0, 0.0];
    r.ddy = vec![0.0, 1.0];
    assert_eq!(unit.sample(&r).unwrap(), [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn vertex_samplers_follow_the_fragment_ones() {
    // GC2000: 8 fragment samplers, vertex sampler 0 is sampler 8 (tex.id 8 in a vertex
    // shader).
    let mut g = gpu("gc2000");
    let mut mem = Buffers::new();
    mem.map(TEX, tiled_rgba8(8, 8, 8, pattern));
    te_sampler(&mut g, 8, NEAREST, (8, 8), 0, &[TEX]);
    let frag = g.texture_unit(&mem, Stage::Fragment).unwrap();
    assert_eq!(frag.units().count(), 0);
    let vert = g.texture_unit(&mem, Stage::Vertex).unwrap();
    assert_eq!(vert.units().collect::<Vec<_>>(), [8]);
    assert_eq!(
        vert.sample(&req(TexOp::Tex, 8, &[1.5 / 8.0, 2.5 / 8.0]))
            .unwrap(),
        unorm(pattern(1, 2))
    );
}

#[test]
fn formats_and_swizzles_through_the_sampler() {
    // A 4×4 R5G6B5 texture (format 0x0b), every texel 0xf800 (red), swizzled B G R 1:
    // R reads blue (0), G green (0), B red (1), A one.
    let mut g = gpu("gc2000");
    let mut mem = Buffers::new();
    mem.map(TEX, 0xf800u16.to_le_bytes().repeat(16));
    g.states.set(0x2000, 2 | (0x0b << 13) | NEAREST);
    g.states.set(0x2040, 4 | (4 << 16));
    g.states.set(0x21c0, 2 << 8 | 1 << 12 | 5 << 20);
    g.states.set(0x2400, TEX);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    assert_eq!(
        unit.sample(&req(TexOp::Tex, 0, &[0.3, 0.6])).unwrap(),
        [0.0, 0.0, 1.0, 1.0]
    );
}

#[test]
fn what_the_model_does_not_know_is_refused_by_name() {
    let mut mem = Buffers::new();
    mem.map(TEX, vec![0; 256]);
    let err = |config0: u32| {
        let mut g = gpu("gc2000");
        g.states.set(0x2000, config0);
        g.states.set(0x2040, 4 | (4 << 16));
        g.states.set(0x2400, TEX);
        g.texture_unit(&mem, Stage::Fragment).unwrap_err()
    };
    let named = |e: GpuError, what: &str| match e {
        GpuError::Unmodelled(s) => assert!(s.contains(what), "{s}"),
        e => panic!("{e}"),
    };
    // Clamp to border (3) on U; DXT1 (0x13); anisotropy.
    named(err(2 | (9 << 13) | NEAREST | (3 << 3)), "clamp-to-border");
    named(err(2 | (0x13 << 13) | NEAREST), "DXT");
    named(err(2 | (9 << 13) | NEAREST | (1 << 24)), "anisotropy");
}

#[test]
fn nte_samplers_compare_for_shadow_lookups() {
    // GC3000 (HALTI2): NTE registers. A 4×4 D16 texture (format 0x10), depth x / 4 + 0.1 in
    // column x; linear layout with a 8-byte stride. BASELOD: compare on, GREATER (3).
    let mut g = gpu("gc3000");
    let mut mem = Buffers::new();
    let mut image = Vec::new();
    for _y in 0..4 {
        for x in 0..4u32 {
            let d = ((f64::from(x) / 4.0 + 0.1) * 65535.0).round() as u16;
            image.extend(d.to_le_bytes());
        }
    }
    mem.map(TEX, image);
    g.states
        .set(0x10000, 2 | (0x10 << 13) | NEAREST | (3 << 20));
    g.states.set(0x10080, 4 | (4 << 16));
    g.states.set(0x10280, 8);
    g.states.set(0x10380, 0x0032_1000);
    g.states.set(0x10700, (1 << 16) | (3 << 20));
    g.states.set(0x10800, TEX);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    let at = |u: f64, reference: f64| {
        let mut r = req(TexOp::Tex, 0, &[u, 0.5]);
        r.comparator = Some(reference);
        unit.sample(&r).unwrap()
    };
    // Column 1 holds 0.35: 0.5 > 0.35 passes, 0.3 > 0.35 fails.
    assert_eq!(at(1.5 / 4.0, 0.5), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(at(1.5 / 4.0, 0.3), [0.0, 0.0, 0.0, 1.0]);
    // Without a reference a shadow sampler is an error, not a guess.
    assert!(unit.sample(&req(TexOp::Tex, 0, &[0.5, 0.5])).is_err());
}

/// A HALTI5 descriptor for a 2D A8B8G8R8 texture of `size`, supertiled, levels at `addrs`,
/// base level `base` and last level `max`.
fn descriptor(size: (u32, u32), addrs: &[u32], base: u32, max: u32) -> Vec<u8> {
    let mut d = vec![0u32; 0x40];
    d[..addrs.len()].copy_from_slice(addrs);
    d[0x40 / 4] = 2 | (9 << 13);
    d[0x44 / 4] = size.0 | (size.1 << 16);
    // Identity swizzle, HALIGN SUPER_TILED (2 at bit 26).
    d[0x4c / 4] = 0x0032_1000 | (2 << 26);
    d[0x68 / 4] = base | (max << 8);
    d.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn gc7000_descriptors_with_a_base_level() {
    // Levels 0 (8×8, red) and 1 (4×4, the pattern), supertiled: one 64×64 supertile each.
    // The view starts at level 1, so the descriptor gives level 1's size (4×4) and BASELOD 1.
    let mut g = gpu("gc7000");
    let mut mem = Buffers::new();
    let (l0, l1, desc) = (TEX, TEX + 0x4000, TEX + 0x8000);
    let supertile = |w: u32, h: u32, texel: &dyn Fn(u32, u32) -> [u8; 4]| {
        let mut out = vec![0u8; 64 * 64 * 4];
        for y in 0..h {
            for x in 0..w {
                let at = tiling::texel_offset(tiling::Layout::SuperTiled, x, y, 4, 64 * 4);
                out[at..at + 4].copy_from_slice(&texel(x, y));
            }
        }
        out
    };
    mem.map(l0, supertile(8, 8, &|_, _| [255, 0, 0, 255]));
    mem.map(l1, supertile(4, 4, &pattern));
    mem.map(desc, descriptor((4, 4), &[l0, l1], 1, 1));
    g.states.set(0x08a8, 0x20);
    g.states.set(0x15c00, desc);
    // SAMP_CTRL0: wrap clamp (2) on U and V, MIN nearest (1 at bit 9), MAG nearest (bit 13).
    g.states.set(0x16c00, 2 | (2 << 3) | (1 << 9) | (1 << 13));
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    assert_eq!(
        unit.sample(&req(TexOp::Tex, 0, &[2.5 / 4.0, 1.5 / 4.0]))
            .unwrap(),
        unorm(pattern(2, 1))
    );
    assert_eq!(unit.size(0, 0), [4, 4, 1]);
    // A sampler-base value other than Mesa's is refused where the stage samples (the vertex
    // stage has no enabled sampler here, so its base does not matter).
    g.states.set(0x08a8, 0x10);
    assert!(g.texture_unit(&mem, Stage::Vertex).is_ok());
    g.states.set(0x1058, 0x10);
    assert!(g.texture_unit(&mem, Stage::Fragment).is_err());
}

#[test]
fn cube_faces_by_major_axis() {
    // GC3000 cube map (TYPE 5), 4×4 faces of A8B8G8R8, tiled HALIGN FOUR: one face is 64
    // bytes; face f is solid (40·f, 0, 0, 255).
    let mut g = gpu("gc3000");
    let mut mem = Buffers::new();
    let mut faces = Vec::new();
    for f in 0..6u8 {
        faces.extend([40 * f, 0, 0, 255].repeat(16));
    }
    mem.map(TEX, faces);
    g.states.set(0x10000, 5 | (9 << 13) | NEAREST);
    g.states.set(0x10080, 4 | (4 << 16));
    g.states.set(0x10300, 1);
    g.states.set(0x10380, 0x0032_1000);
    g.states.set(0x10800, TEX);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    assert_eq!(unit.dims(0), 3);
    let face =
        |r: [f64; 3]| (unit.sample(&req(TexOp::Tex, 0, &r)).unwrap()[0] * 255.0).round() / 40.0;
    assert_eq!(face([1.0, 0.2, -0.3]), 0.0);
    assert_eq!(face([-1.0, 0.2, 0.3]), 1.0);
    assert_eq!(face([0.1, 2.0, 0.3]), 2.0);
    assert_eq!(face([0.1, -2.0, 0.3]), 3.0);
    assert_eq!(face([0.1, 0.2, 0.5]), 4.0);
    assert_eq!(face([0.1, 0.2, -0.5]), 5.0);
}

#[test]
fn a_3d_texture_reads_its_slices() {
    // GC3000 3D texture (TYPE 3), 4×4×2 L8 (format 2), linear with stride 4: slice z, row y,
    // column x holds 100·z + 10·y + x; slices are a level's layer stride (4 × 4 bytes) apart.
    let mut g = gpu("gc3000");
    let mut mem = Buffers::new();
    let mut image = Vec::new();
    for z in 0..2u8 {
        for y in 0..4u8 {
            for x in 0..4u8 {
                image.push(100 * z + 10 * y + x);
            }
        }
    }
    mem.map(TEX, image.clone());
    g.states.set(0x10000, 3 | (2 << 13) | NEAREST | (3 << 20));
    g.states.set(0x10080, 4 | (4 << 16));
    g.states.set(0x10280, 4);
    g.states.set(0x10300, 2);
    g.states.set(0x10380, 0x0032_1000);
    g.states.set(0x10800, TEX);
    let err = g.texture_unit(&mem, Stage::Fragment).unwrap_err();
    // A linear texture of several slices has no known slice pitch on the state-based cores.
    assert!(
        matches!(err, GpuError::Unmodelled(ref s) if s.contains("several layers")),
        "{err}"
    );
    // Tiled instead (HALIGN FOUR): each slice is one 4×4 tile of 16 bytes, which for a
    // 4-texel-wide image holds the rows in the same order.
    let tiled = image;
    let mut mem = Buffers::new();
    mem.map(TEX, tiled);
    g.states.set(0x10000, 3 | (2 << 13) | NEAREST);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    // (2.5, 1.5, 1.5) / (4, 4, 2): x 2, y 1, z 1 → 112.
    let v = unit
        .sample(&req(TexOp::Tex, 0, &[2.5 / 4.0, 1.5 / 4.0, 0.75]))
        .unwrap();
    assert_eq!((v[0] * 255.0).round(), 112.0);
}

#[test]
fn srgb_textures_are_linearised() {
    // One 4×4 tile of A8B8G8R8 (0x80, 0x80, 0x80, 0x80) with LOG_SIZE SRGB (bit 31): R, G, B
    // go through the sRGB curve, ((128/255 + 0.055) / 1.055)^2.4 = 0.21586; alpha stays
    // 128/255.
    let mut g = gpu("gc2000");
    let mut mem = Buffers::new();
    mem.map(TEX, vec![0x80; 64]);
    te_sampler(&mut g, 0, NEAREST, (4, 4), 0, &[TEX]);
    g.states.set(0x2080, 1 << 31);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    let v = unit.sample(&req(TexOp::Tex, 0, &[0.5, 0.5])).unwrap();
    for c in &v[..3] {
        assert!((c - 0.21586).abs() < 1e-4, "{v:?}");
    }
    assert_eq!(v[3], 128.0 / 255.0);
}

#[test]
fn integer_textures_are_not_filtered() {
    // GC3000, EXT A8B8G8R8I (CONFIG0 FORMAT 0, CONFIG1 FORMAT_EXT 0x17), one 4×4 tile with
    // texel (x, y) = (10x, 10y, 7, 200), LINEAR min and mag programmed. u·4 = 2.0 would blend
    // texels 1 and 2 half and half; an integer texture reads texel 2 alone: (20, 10, 7, 200).
    let mut g = gpu("gc3000");
    let mut mem = Buffers::new();
    let mut tile = Vec::new();
    for y in 0..4u8 {
        for x in 0..4u8 {
            tile.extend([10 * x, 10 * y, 7, 200]);
        }
    }
    mem.map(TEX, tile);
    g.states.set(0x10000, 2 | LINEAR);
    g.states.set(0x10080, 4 | (4 << 16));
    g.states.set(0x10380, 0x17 | 0x0032_1000);
    g.states.set(0x10800, TEX);
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    let mut r = req(TexOp::Tex, 0, &[2.0 / 4.0, 1.5 / 4.0]);
    r.integer = true;
    assert_eq!(unit.sample(&r).unwrap(), [20.0, 10.0, 7.0, 200.0]);
}

#[test]
fn descriptor_lod_clamps_and_bias_are_8_8_fixed_point() {
    // The red/green/blue miptree (tiled, HALIGN FOUR) through a GC7000 descriptor: MIP
    // nearest (1 at bit 11), SAMP_LOD_MINMAX MAX 2.0 (0x200), SAMP_LOD_BIAS 1.0 (0x100) with
    // ENABLE (bit 16). One texel per pixel: λ = 0 + 1 → green; two: λ = 1 + 1 → blue; eight:
    // 3 + 1, clamped to 2 → blue.
    let mut g = gpu("gc7000");
    let mut mem = Buffers::new();
    let addrs = miptree(&mut mem);
    let mut desc = descriptor((8, 8), &addrs, 0, 2);
    // HALIGN FOUR instead of supertiled.
    desc[0x4c..0x50].copy_from_slice(&0x0032_1000u32.to_le_bytes());
    mem.map(TEX + 0x8000, desc);
    g.states.set(0x15c00, TEX + 0x8000);
    g.states
        .set(0x16c00, 2 | (2 << 3) | (1 << 9) | (1 << 11) | (1 << 13));
    g.states.set(0x17000, 0x200);
    g.states.set(0x17200, 0x100 | (1 << 16));
    let unit = g.texture_unit(&mem, Stage::Fragment).unwrap();
    let at = |d: f64| {
        let mut r = req(TexOp::Tex, 0, &[0.5, 0.5]);
        r.ddx = vec![d / 8.0, 0.0];
        r.ddy = vec![0.0, d / 8.0];
        unit.sample(&r).unwrap()
    };
    assert_eq!(at(1.0), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(at(2.0), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(at(8.0), [0.0, 0.0, 1.0, 1.0]);
}
