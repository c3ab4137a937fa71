use super::*;
use crate::etnaviv::gpu::memory::Buffers;
use crate::etnaviv::specs::Specs;

const RT: u32 = 0x10_0000;
const ZS: u32 = 0x20_0000;
const TS: u32 = 0x30_0000;
const OUT: u32 = 0x40_0000;

fn fragment(x: u32, y: u32, color: [f32; 4]) -> Fragment {
    let mut colors = [[0; 4]; 8];
    colors[0] = color.map(f32::to_bits);
    Fragment {
        x,
        y,
        z: 0.5,
        front_facing: true,
        colors,
        color_count: 1,
    }
}

/// A GC3000 (single-buffer) 16×16 tiled A8R8G8B8 target at RT, every channel written.
fn gc3000_target(mem: &mut Buffers, fill: u32) -> Gpu {
    let mut gpu = Gpu::new(Specs::from_name("gc3000").unwrap());
    mem.map(RT, fill.to_le_bytes().repeat(16 * 16));
    let s = &mut gpu.states;
    s.set(PE_COLOR_FORMAT, 6 | (0xf << 8));
    s.set(PE_PIPE_COLOR_ADDR, RT);
    s.set(PE_PIPE_COLOR_ADDR + 4, RT);
    s.set(PE_COLOR_STRIDE, 64);
    s.set(PE_LOGIC_OP, 0xc | (2 << 8));
    s.set(PE_DITHER, u32::MAX);
    s.set(PE_DITHER + 4, u32::MAX);
    gpu
}

/// The pixel at (x, y) of a 16-pixel-wide 32bpp 4×4-tiled surface, addressed by hand.
fn tiled_pixel(mem: &Buffers, base: u32, x: u32, y: u32) -> u32 {
    let e = ((y / 4) * 4 + x / 4) * 16 + (y % 4) * 4 + x % 4;
    mem.read_u32(base + 4 * e).unwrap()
}

#[test]
fn a_fragment_is_written_where_the_cpu_tiling_puts_it() {
    let mut mem = Buffers::new();
    let mut gpu = gc3000_target(&mut mem, 0);
    gpu.pe_fragment(&mut mem, &fragment(5, 6, [1.0, 0.0, 0.0, 1.0]))
        .unwrap();
    assert_eq!(tiled_pixel(&mem, RT, 5, 6), 0xffff_0000);
    let written = mem.get(RT).unwrap().iter().filter(|b| **b != 0).count();
    assert_eq!(written, 2, "only that pixel's red and alpha bytes");
}

#[test]
fn blending_with_src_alpha_and_the_colour_mask() {
    let mut mem = Buffers::new();
    // Destination: opaque blue.
    let mut gpu = gc3000_target(&mut mem, 0xff00_00ff);
    // SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD for colour and alpha.
    gpu.states.set(PE_ALPHA_CONFIG, 1 | (4 << 4) | (5 << 8));
    gpu.pe_fragment(&mut mem, &fragment(0, 0, [1.0, 1.0, 0.0, 0.2]))
        .unwrap();
    // R = G = 0.2 * 255 = 51, B = 0.8 * 255 = 204, A = 0.04 + 0.8 = 0.84 -> 214.
    assert_eq!(
        tiled_pixel(&mem, RT, 0, 0),
        (214 << 24) | (51 << 16) | (51 << 8) | 204
    );
    // With only green enabled in the mask, a second pixel keeps its blue and alpha.
    gpu.states.set(PE_COLOR_FORMAT, 6 | (0x2 << 8));
    gpu.states.set(PE_ALPHA_CONFIG, 0);
    gpu.pe_fragment(&mut mem, &fragment(1, 0, [1.0, 1.0, 0.0, 0.0]))
        .unwrap();
    assert_eq!(tiled_pixel(&mem, RT, 1, 0), 0xff00_ffff);
}

#[test]
fn a_constant_colour_and_a_logic_op() {
    let mut mem = Buffers::new();
    let mut gpu = gc3000_target(&mut mem, 0x0f0f_0f0f);
    // CONSTANT_COLOR, ZERO with constant (R, G, B, A) = (0x80, 0x40, 0x20, 0xff).
    gpu.states.set(PE_ALPHA_CONFIG, 1 | (13 << 4));
    gpu.states.set(PE_ALPHA_BLEND_COLOR, 0xff80_4020);
    gpu.pe_fragment(&mut mem, &fragment(2, 0, [1.0; 4]))
        .unwrap();
    assert_eq!(tiled_pixel(&mem, RT, 2, 0), 0xff80_4020);
    // XOR with the destination, no blending.
    gpu.states.set(PE_ALPHA_CONFIG, 0);
    gpu.states.set(PE_LOGIC_OP, 6 | (2 << 8));
    gpu.pe_fragment(&mut mem, &fragment(3, 0, [1.0, 0.0, 1.0, 0.0]))
        .unwrap();
    assert_eq!(tiled_pixel(&mem, RT, 3, 0), 0x0ff0_0ff0);
}

#[test]
fn the_alpha_test_discards_before_anything_is_written() {
    let mut mem = Buffers::new();
    let mut gpu = gc3000_target(&mut mem, 0);
    // GREATER than 128.
    gpu.states.set(PE_ALPHA_OP, 1 | (4 << 4) | (128 << 8));
    gpu.pe_fragment(&mut mem, &fragment(0, 0, [1.0, 0.0, 0.0, 0.5]))
        .unwrap();
    gpu.pe_fragment(&mut mem, &fragment(1, 0, [1.0, 0.0, 0.0, 0.6]))
        .unwrap();
    assert_eq!(tiled_pixel(&mem, RT, 0, 0), 0, "0.5 -> 128 is not greater");
    assert_eq!(tiled_pixel(&mem, RT, 1, 0), 0x99ff_0000);
}

/// Adds a 16×16 tiled D24S8 buffer of `fill` at ZS to `gpu`.
fn d24s8(gpu: &mut Gpu, mem: &mut Buffers, fill: u32, config: u32) {
    mem.map(ZS, fill.to_le_bytes().repeat(16 * 16));
    let s = &mut gpu.states;
    s.set(PE_DEPTH_CONFIG, 1 | (1 << 4) | config);
    s.set(PE_PIPE_DEPTH_ADDR, ZS);
    s.set(PE_PIPE_DEPTH_ADDR + 4, ZS);
    s.set(PE_DEPTH_STRIDE, 64);
    s.set(PE_DEPTH_NORMALIZE, 16_777_215f32.to_bits());
}

#[test]
fn depth_less_with_write_keeps_the_nearest_fragment() {
    let mut mem = Buffers::new();
    let mut gpu = gc3000_target(&mut mem, 0);
    // Cleared to depth 1.0, stencil 7; LESS, write enabled.
    d24s8(&mut gpu, &mut mem, 0xffff_ff07, (1 << 8) | (1 << 12));
    let mut near = fragment(0, 0, [1.0, 0.0, 0.0, 1.0]);
    near.z = 0.25;
    let mut far = fragment(0, 0, [0.0, 1.0, 0.0, 1.0]);
    far.z = 0.75;
    gpu.pe_fragment(&mut mem, &near).unwrap();
    gpu.pe_fragment(&mut mem, &far).unwrap();
    assert_eq!(tiled_pixel(&mem, RT, 0, 0), 0xffff_0000);
    // round(0.25 * 0xffffff) = 0x400000; the stencil byte is kept.
    assert_eq!(tiled_pixel(&mem, ZS, 0, 0), 0x4000_0007);
}

#[test]
fn two_sided_stencil_uses_the_back_states_for_back_facing_fragments() {
    let mut mem = Buffers::new();
    let mut gpu = gc3000_target(&mut mem, 0);
    // Depth ALWAYS, no depth write; stencil buffer 5 everywhere.
    d24s8(&mut gpu, &mut mem, 0x0000_0005, 7 << 8);
    // Front: EQUAL 5, pass -> INCR. Back: EQUAL with ref 9 (fails on 5), fail -> REPLACE.
    gpu.states
        .set(PE_STENCIL_OP, 2 | (3 << 4) | ((2 | (2 << 8)) << 16));
    gpu.states.set(
        PE_STENCIL_CONFIG,
        2 | (5 << 8) | (0xff << 16) | (0xff << 24),
    );
    gpu.states.set(PE_STENCIL_CONFIG_EXT, 9);
    gpu.states.set(PE_STENCIL_CONFIG_EXT2, 0xff | (0x0f << 8));
    gpu.pe_fragment(&mut mem, &fragment(0, 0, [1.0; 4]))
        .unwrap();
    let mut back = fragment(1, 0, [1.0; 4]);
    back.front_facing = false;
    gpu.pe_fragment(&mut mem, &back).unwrap();
    assert_eq!(
        tiled_pixel(&mem, ZS, 0, 0),
        6,
        "front passed and incremented"
    );
    assert_eq!(tiled_pixel(&mem, RT, 0, 0), 0xffff_ffff);
    // 9 through write mask 0x0f over 5: (5 & !0xf) | (9 & 0xf) = 9.
    assert_eq!(tiled_pixel(&mem, ZS, 1, 0), 9, "back failed and replaced");
    assert_eq!(
        tiled_pixel(&mem, RT, 1, 0),
        0,
        "a failed fragment writes no colour"
    );
}

#[test]
fn halti_formats_and_integer_outputs() {
    let mut mem = Buffers::new();
    let mut gpu = gc3000_target(&mut mem, 0);
    // G16R16F through FORMAT_EXT.
    gpu.states
        .set(PE_COLOR_FORMAT, (1 << 4) | (0xf << 8) | (0x12 << 24));
    gpu.pe_fragment(&mut mem, &fragment(0, 0, [1.0, -2.0, 0.0, 0.0]))
        .unwrap();
    assert_eq!(tiled_pixel(&mem, RT, 0, 0), 0xc000_3c00);
    // A8B8G8R8I takes raw bits, red in the low byte.
    gpu.states
        .set(PE_COLOR_FORMAT, (1 << 4) | (0xf << 8) | (0x19 << 24));
    let mut f = fragment(1, 0, [0.0; 4]);
    f.colors[0] = [0x101, 0xff, 3, 0xffff_fff0];
    gpu.pe_fragment(&mut mem, &f).unwrap();
    assert_eq!(tiled_pixel(&mem, RT, 1, 0), 0xf003_ff01);
}

/// GC2000: the driver's fast clear (an RS clear of the tile status), fragments written into a
/// multi-supertiled target through it, then the driver's readback resolve of the whole target
/// into a linear buffer in dual-pipe mode: every pixel must come back where it was drawn, and
/// the undrawn ones as the clear colour.
#[test]
fn multi_supertiled_rendering_resolves_back_to_linear() {
    use crate::drm::etnaviv::CmdStream;
    const W: u32 = 128;
    const H: u32 = 128;
    let stride = W * 4;
    let half = stride * H / 2;
    let mut mem = Buffers::new();
    mem.map(RT, vec![0xee; (stride * H) as usize]);
    // 64 KiB of target in 64-byte tiles is 1024 tiles; at 2 status bits each, 256 bytes.
    mem.map(TS, vec![0; 256]);
    mem.map(OUT, vec![0; (stride * H) as usize]);
    let mut gpu = Gpu::new(Specs::from_name("gc2000").unwrap());

    // The TS clear: RS fill of the status buffer with 0x55555555, 16 wide, tiled, stride 64.
    let mut cs = CmdStream::new();
    cs.set_state(0x1604, 6 | (6 << 8) | (1 << 14));
    cs.set_state(0x1614, 0x40 << 2);
    cs.set_states(0x16e0, &[TS, TS]);
    cs.set_states(0x1700, &[0, 2 << 16]);
    cs.set_state(0x1620, (2 << 16) | 16);
    cs.set_states(0x1630, &[u32::MAX, u32::MAX]);
    cs.set_state(0x163c, (1 << 16) | 0xffff);
    cs.set_states(0x1640, &[0x5555_5555; 4]);
    cs.set_state(0x16a0, 0);
    cs.set_state(0x1600, 0xbeeb_beeb);
    // The framebuffer: multi-supertiled A8R8G8B8 with colour TS, clear colour opaque grey.
    cs.set_state(PE_COLOR_FORMAT, 6 | (0xf << 8) | (1 << 20));
    cs.set_states(PE_PIPE_COLOR_ADDR, &[RT, RT + half]);
    cs.set_state(PE_COLOR_STRIDE, stride);
    cs.set_state(PE_LOGIC_OP, 0xc);
    cs.set_states(PE_DITHER, &[u32::MAX, u32::MAX]);
    cs.set_state(TS_MEM_CONFIG, TS_COLOR_FAST_CLEAR);
    cs.set_state(TS_COLOR_STATUS_BASE, TS);
    cs.set_state(TS_COLOR_SURFACE_BASE, RT);
    cs.set_state(TS_COLOR_CLEAR_VALUE, 0xff80_8080);
    cs.set_state(TS_COLOR_CLEAR_VALUE_EXT, 0xff80_8080);
    gpu.execute(&mut mem, cs.words()).unwrap();
    assert_eq!(
        mem.read_u32(TS + 252).unwrap(),
        0x5555_5555,
        "TS fully cleared"
    );

    // Draw every pixel with x + y odd as (x, y, 0x5a, 0xff).
    let drawn = |x: u32, y: u32| (x + y) % 2 == 1;
    for y in 0..H {
        for x in 0..W {
            if drawn(x, y) {
                let c = [x as f32 / 255.0, y as f32 / 255.0, 90.0 / 255.0, 1.0];
                gpu.pe_fragment(&mut mem, &fragment(x, y, c)).unwrap();
            }
        }
    }

    // The readback: multi-supertiled source through TS, linear dest, dual-pipe windows.
    let mut cs = CmdStream::new();
    cs.set_state(0x1604, 6 | (1 << 7) | (6 << 8));
    cs.set_state(0x160c, (stride << 2) | (1 << 31) | (1 << 30));
    cs.set_state(0x1614, stride);
    cs.set_states(0x16c0, &[RT, RT + half]);
    cs.set_state(0x16e0, OUT);
    cs.set_states(0x1700, &[0, (H / 2) << 16]);
    cs.set_state(0x1620, ((H / 2) << 16) | W);
    cs.set_state(0x163c, 0);
    cs.set_state(0x1600, 0xbeeb_beeb);
    gpu.execute(&mut mem, cs.words()).unwrap();

    let out = mem.get(OUT).unwrap();
    for y in 0..H {
        for x in 0..W {
            let at = ((y * W + x) * 4) as usize;
            let v = u32::from_le_bytes(out[at..at + 4].try_into().unwrap());
            let want = if drawn(x, y) {
                0xff00_005a | (x << 16) | (y << 8)
            } else {
                0xff80_8080
            };
            assert_eq!(v, want, "pixel ({x}, {y})");
        }
    }
    // Both pipes' halves were written to.
    let rt = mem.get(RT).unwrap();
    assert!(rt[..half as usize].iter().any(|b| *b != 0xee));
    assert!(rt[half as usize..].iter().any(|b| *b != 0xee));
}
