//! The simulated Vivante GPU draws what Mesa's etnaviv driver asked for, without Mesa.
//!
//! tests/data/etna_gpu/ holds submissions recorded from Mesa 23.3.6's etnaviv driver (on the
//! executing drm-shim, `GPUCC_ETNA_GPU_CAPTURE`) while it ran
//! tests/data/etna_gpu/textured_blended_triangle.c on a GC2000 and a GC7000L: one submission
//! each, holding the texture upload (a linear-to-tiled resolve on GC2000), the clear through
//! tile status, the draw of one textured triangle blended over the clear colour, and the
//! readback into the linear staging buffer glReadPixels maps. The recording carries the buffers
//! as they were before the GPU ran, so everything the test checks was computed by the model.
//!
//! The expected image is derived by hand (the same rule the C program checks on a real run):
//! the triangle (-1,-1), (1,-1), (-1,1) on the 32×32 framebuffer covers the pixels whose
//! centre has x + y < 31 (the hypotenuse is a right edge: centres on it are not drawn); the
//! texture coordinate is the window position / 32 over a 2×2 NEAREST texture whose rows from
//! the bottom are red, green / blue, white; the fragment is (texel.rgb, 0.5), blended with
//! SRC_ALPHA, ONE_MINUS_SRC_ALPHA over the clear colour (0, 1, 0, 1).

use gpucc::etnaviv::gpu::capture::Capture;
use gpucc::etnaviv::gpu::memory::Memory;
use gpucc::etnaviv::gpu::Gpu;
use gpucc::etnaviv::specs::{CoreParams, Specs};

const SIZE: u32 = 32;

/// RS_PIPE_DEST_ADDR(0), RS_DEST_STRIDE and RS_CONFIG (state_3d.xml.h).
const RS_PIPE_DEST_ADDR0: u32 = 0x16e0;
const RS_DEST_STRIDE: u32 = 0x1614;
const RS_CONFIG: u32 = 0x1604;
/// BLT_DEST_ADDR and BLT_DEST_STRIDE (state_blt.xml.h).
const BLT_DEST_ADDR: u32 = 0x14018;
const BLT_DEST_STRIDE: u32 = 0x14024;
/// RS_FORMAT_A8R8G8B8 and BLT_FORMAT_A8R8G8B8. The renderbuffer is GL_RGBA8, which Mesa's
/// etnaviv stores as R8G8B8A8: with this PE format and red and blue swapped in the fragment
/// shader's colour output (the shader key's `frag_rb_swap`). So the surface, and the staging
/// copy glReadPixels reads, hold the bytes R, G, B, A.
const FORMAT_A8R8G8B8: u32 = 6;

/// The hand-derived colour of pixel (x, y), y from the bottom, in 8-bit RGBA.
fn expected(x: u32, y: u32) -> [u8; 4] {
    const CLEAR: [u32; 4] = [0, 255, 0, 255];
    if x + y >= 31 {
        return CLEAR.map(|c| c as u8);
    }
    let texel = if y >= 16 {
        [0, 0, 255] // blue
    } else if x >= 16 {
        [0, 255, 0] // green
    } else {
        [255, 0, 0] // red
    };
    // 0.5 * src + 0.5 * dst; alpha 0.5 * 0.5 + 0.5 * 1.
    [
        ((texel[0] + CLEAR[0]) / 2) as u8,
        ((texel[1] + CLEAR[1]) / 2) as u8,
        ((texel[2] + CLEAR[2]) / 2) as u8,
        191,
    ]
}

/// The GC7000L the noop and executing shims play (Mesa's drm-shim table).
fn gc7000l() -> &'static Specs {
    let p = CoreParams {
        model: 0x7000,
        revision: 0x6214,
        features: [
            0xe0287cad, 0xc1799eff, 0xfefbfad9, 0xeb9d4fbf, 0xedfffced, 0xdb0dafc7, 0xbb5ac333,
            0xfc8ee200, 0, 0, 0, 0, 0,
        ],
        register_max: 0x40,
        instruction_count: 0x200,
        num_constants: 0x140,
        num_varyings: 0x10,
        thread_count: 0x400,
        shader_core_count: 4,
        pixel_pipes: 2,
    };
    Specs::from_params(&p).unwrap()
}

fn gc2000() -> &'static Specs {
    Specs::from_name("gc2000").unwrap()
}

/// Replays a recording and returns the GPU and the memory it left.
fn replay(name: &str, specs: &'static Specs) -> (Gpu, gpucc::etnaviv::gpu::memory::Buffers) {
    let path = format!("{}/tests/data/etna_gpu/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let capture = Capture::read_from(&mut bytes.as_slice()).unwrap();
    let mut mem = capture.memory();
    let mut gpu = Gpu::new(specs);
    let run = gpu.execute(&mut mem, &capture.stream);
    assert!(
        run.is_ok(),
        "{name}: {}\n{}",
        run.unwrap_err(),
        gpu.report_text()
    );
    (gpu, mem)
}

/// Compares the 32×32 R8G8B8A8 image at `address` (rows `stride` bytes apart, row 0 at the
/// bottom as GL reads it back) with the hand-derived one.
fn check_image(name: &str, gpu: &Gpu, mem: &dyn Memory, address: u32, stride: u32) {
    let mut wrong = Vec::new();
    for y in 0..SIZE {
        for x in 0..SIZE {
            let mut got = [0u8; 4];
            mem.read(address + y * stride + 4 * x, &mut got).unwrap();
            let want = expected(x, y);
            if got.iter().zip(want).any(|(g, w)| g.abs_diff(w) > 1) {
                wrong.push(format!("({x}, {y}): got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{name}: {} of {} pixels wrong, first: {:?}\n{}",
        wrong.len(),
        SIZE * SIZE,
        &wrong[..wrong.len().min(8)],
        gpu.report_text()
    );
}

#[test]
fn gc2000_draws_a_textured_blended_triangle() {
    let (gpu, mem) = replay("gc2000-textured-blended-triangle.submit", gc2000());
    let s = &gpu.states;
    // The readback: the last resolve, into the linear staging buffer.
    assert_eq!((s.get(RS_CONFIG) >> 8) & 0x1f, FORMAT_A8R8G8B8);
    let stride = s.get(RS_DEST_STRIDE) & 0x3ffff;
    assert_eq!(stride, 4 * SIZE);
    check_image("gc2000", &gpu, &mem, s.get(RS_PIPE_DEST_ADDR0), stride);
}

#[test]
fn gc7000l_draws_a_textured_blended_triangle() {
    let (gpu, mem) = replay("gc7000l-textured-blended-triangle.submit", gc7000l());
    let s = &gpu.states;
    // The readback: the last BLT copy, into the linear staging buffer.
    let dest_stride = s.get(BLT_DEST_STRIDE);
    assert_eq!((dest_stride >> 21) & 0xff, FORMAT_A8R8G8B8);
    assert_eq!((dest_stride >> 29) & 3, 0, "linear destination");
    let stride = dest_stride & 0xfffff;
    assert_eq!(stride, 4 * SIZE);
    check_image("gc7000l", &gpu, &mem, s.get(BLT_DEST_ADDR), stride);
}
