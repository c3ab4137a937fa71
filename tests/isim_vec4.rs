//! The Gen7 SIMD4x2 vertex payload and interleaved URB write of the simulator, on small
//! programs in the shape of Mesa's vec4 vertex shaders, with every expected URB dword derived
//! by hand from the message layout (header g0 copy with the channel mask in dword 5 bits
//! 15:8, one slot of each vertex per data register).

use std::collections::BTreeMap;

use gpucc::intel::eu;
use gpucc::intel::sim::payload::Vec4VsPayload;
use gpucc::intel::sim::Thread;
use gpucc::intel::DevInfo;

/// out slot 0 = 0, slot 1 = element 0 + push constants 4..7 (g1.4<0>: the second vec4 of
/// g1, for both vertices), written with `desc`.
fn program(desc: &str) -> String {
    format!(
        "mov(8)          g114<1>UD       0x00000000UD                    {{ align16 1Q }};
add(8)          g115<1>F        g2<4>F          g1.4<0>F        {{ align16 1Q }};
mov(8)          g113<1>UD       g0<4>UD                         {{ align16 WE_all 1Q }};
or(1)           g113.5<1>UD     g0.5<0,1,0>UD   0x0000ff00UD    {{ align1 WE_all 1N }};
send(8)         null<1>F        g113<4>F        {desc}
                            urb MsgDesc: write HWord interleave complete {{ align16 1Q EOT }};
"
    )
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Runs `asm` with vertices `elements[v]` (element 0 only) at handles 0x40, 0x50; returns the
/// URB contents.
fn run(asm: &str, elements: &[[f32; 4]]) -> BTreeMap<u32, BTreeMap<u32, u32>> {
    let d = DevInfo::from_name("ivb").unwrap();
    let insts = eu::assemble(d, asm).unwrap();
    let mut t = Thread::new(d, 8).unwrap();
    let payload = Vec4VsPayload {
        urb_handles: [0x40, 0x50][..elements.len()].to_vec(),
        primitive_ids: None,
        push_constants: (0..8).map(|i| f(100.0 * i as f32)).collect(),
        elements: vec![elements.iter().map(|e| e.map(f)).collect()],
    };
    let layout = payload.apply(&mut t).unwrap();
    assert_eq!(
        (layout.push_constants, layout.attributes, layout.end),
        (1, 2, 3)
    );
    let r = t.run(&insts).unwrap();
    assert!(r.eot);
    t.shared().urb.clone()
}

fn entry(pairs: &[(u32, f32)]) -> BTreeMap<u32, u32> {
    pairs.iter().map(|&(d, v)| (d, f(v))).collect()
}

const V0: [f32; 4] = [1.0, 2.0, 3.0, 4.0];
const V1: [f32; 4] = [5.0, 6.0, 7.0, 8.0];

/// mlen 3, header present, interleave + complete (bits 15:14), global offset 0.
const DESC: &str = "0x0608c000";

#[test]
fn two_vertices_write_their_slots_interleaved() {
    let urb = run(&program(DESC), &[V0, V1]);
    let want = |v: [f32; 4]| {
        entry(&[
            (0, 0.0),
            (1, 0.0),
            (2, 0.0),
            (3, 0.0),
            (4, v[0] + 400.0),
            (5, v[1] + 500.0),
            (6, v[2] + 600.0),
            (7, v[3] + 700.0),
        ])
    };
    assert_eq!(urb.len(), 2);
    assert_eq!(urb[&0x40], want(V0));
    assert_eq!(urb[&0x50], want(V1));
}

#[test]
fn a_lone_vertex_writes_only_its_own_entry() {
    let urb = run(&program(DESC), &[V0]);
    assert_eq!(urb.keys().copied().collect::<Vec<_>>(), [0x40]);
    assert_eq!(urb[&0x40][&4], f(401.0));
}

#[test]
fn the_global_offset_counts_rows_of_two_slots() {
    // Offset 1 in bits 13:3: slot k of the message lands in slot 2 + k.
    let urb = run(&program("0x0608c008"), &[V0, V1]);
    let got: Vec<u32> = urb[&0x50].keys().copied().collect();
    assert_eq!(got, (8..16).collect::<Vec<_>>());
    assert_eq!(urb[&0x50][&12], f(405.0));
}

#[test]
fn the_header_channel_mask_selects_components() {
    // 0x3500: bits 11:8 = 0101 (vertex 0: x, z), bits 15:12 = 0011 (vertex 1: x, y).
    let asm = program(DESC).replace("0x0000ff00UD", "0x00003500UD");
    let urb = run(&asm, &[V0, V1]);
    assert_eq!(
        urb[&0x40],
        entry(&[(0, 0.0), (2, 0.0), (4, 401.0), (6, 603.0)])
    );
    assert_eq!(
        urb[&0x50],
        entry(&[(0, 0.0), (1, 0.0), (4, 405.0), (5, 506.0)])
    );
}

#[test]
fn other_gen7_urb_messages_are_unsupported() {
    // A URB atomic (opcode 5, atomic inc) is not modelled: the simulator says so rather
    // than treating it as a write.
    let d = DevInfo::from_name("ivb").unwrap();
    let insts = eu::assemble(d, &program("0x0608c005")).unwrap();
    let mut t = Thread::new(d, 8).unwrap();
    let e = t.run(&insts).unwrap_err();
    assert!(e.is_unsupported(), "{e}");
}

/// Mesa's vec4 pull-constant load: a SIMD4x2 `ld` from a buffer, lane h's byte offset in
/// dword 4h of the payload register, its 16 bytes in dwords 4h..4h + 3 of the response.
fn pull(dispatch: u32) -> [u32; 8] {
    let d = DevInfo::from_name("ivb").unwrap();
    let asm = "send(8)         g4<1>F          g2<4>.xUD       0x02107000
                            sampler MsgDesc: ld SIMD4x2 Surface = 0 Sampler = 0  mlen 1 rlen 1 { align16 1Q };
";
    let insts = eu::assemble(d, asm).unwrap();
    let mut t = Thread::new(d, 8).unwrap();
    t.set_dispatch_mask(dispatch);
    // Dword i of the buffer holds 100 + i.
    let buffer: Vec<u8> = (0..64u32).flat_map(|i| (100 + i).to_le_bytes()).collect();
    t.shared_mut().bind_constants(0, buffer);
    t.set_grf(2, 0, &[16, 0, 0, 0, 40, 0, 0, 0]).unwrap();
    t.run(&insts).unwrap();
    t.grf_ud(4)
}

#[test]
fn a_simd4x2_buffer_ld_reads_one_texel_per_vertex() {
    // Byte 16 = dword 4, byte 40 = dword 10.
    assert_eq!(pull(0xff), [104, 105, 106, 107, 110, 111, 112, 113]);
}

#[test]
fn a_simd4x2_buffer_ld_of_a_lone_vertex_leaves_the_second_lane() {
    assert_eq!(pull(0x0f), [104, 105, 106, 107, 0, 0, 0, 0]);
}

/// Mesa's vec4 scratch: OWord dual block write then read (header g0, offsets in OWords at
/// dwords 0 and 4 of the next register, data in the one after). The write's destination
/// mask .xy limits it to components x and y of each vertex; the read returns both blocks.
#[test]
fn oword_dual_blocks_honour_the_align16_write_mask() {
    let d = DevInfo::from_name("ivb").unwrap();
    let asm = "mov(8)          g125<1>UD       g0<4>UD                         { align16 WE_all 1Q };
mov(1)          g126<1>UD       0x00000002UD                    { align1 WE_all 1N compacted };
mov(1)          g126.4<1>UD     0x00000003UD                    { align1 WE_all 1N compacted };
send(8)         g0<1>F          g125<4>F        0x060a80ff
                            data MsgDesc: (DC OWORD dual block write, bti 255, 0)  mlen 3 rlen 0 { align16 1Q };
mov(8)          g127<1>D        g10<4>D                         { align16 1Q };
send(8)         g0<1>.xyF       g125<4>F        0x060a80ff
                            data MsgDesc: (DC OWORD dual block write, bti 255, 0)  mlen 3 rlen 0 { align16 1Q };
send(8)         g20<1>F         g125<4>F        0x041880ff
                            data MsgDesc: (DC OWORD dual block read, bti 255, 0)  mlen 2 rlen 1 { align16 1Q };
";
    let insts = eu::assemble(d, asm).unwrap();
    let mut t = Thread::new(d, 8).unwrap();
    // First write: g127 = 1..8 to OWords 2 (vertex 0) and 3 (vertex 1); second: g10 =
    // 11..18, x and y only.
    t.set_grf(127, 0, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    t.set_grf(10, 0, &[11, 12, 13, 14, 15, 16, 17, 18]).unwrap();
    t.run(&insts).unwrap();
    assert_eq!(t.grf_ud(20), [11, 12, 3, 4, 15, 16, 7, 8]);
}

/// Mesa's vec4 texturing messages on the default texture model (texel of texture t, level l
/// at (x, y, z) = ((x + 1) / 32, (y + 1) / 32, (t + 1) / 8 + z / 64, 1 - l / 8), 16x16 at
/// level 0): an `ld` from texture 2 with integer u v r and the level in w, then a
/// `sample_l` from texture 0 behind a header whose dword 2 holds the offsets (1, -2).
#[test]
fn simd4x2_ld_takes_the_level_in_w_and_sample_l_the_header_offsets() {
    let d = DevInfo::from_name("ivb").unwrap();
    let asm = "send(8)         g4<1>F          g114<4>F        0x02107002
                            sampler MsgDesc: ld SIMD4x2 Surface = 2 Sampler = 0  mlen 1 rlen 1 { align16 1Q };
mov(8)          g116<1>UD       g0<4>UD                         { align16 WE_all 1Q };
mov(1)          g116.2<1>UD     0x000001e0UD                    { align1 WE_all 1N };
send(8)         g5<1>F          g116<4>F        0x06182000
                            sampler MsgDesc: sample_l SIMD4x2 Surface = 0 Sampler = 0  mlen 3 rlen 1 { align16 1Q };
";
    let insts = eu::assemble(d, asm).unwrap();
    let mut t = Thread::new(d, 8).unwrap();
    // Vertex 0: (3, 5, 0) at level 1; vertex 1: (1, 2, 1) at level 0.
    t.set_grf(114, 0, &[3, 5, 0, 1, 1, 2, 1, 0]).unwrap();
    // Texel centres (3.5 / 16, 5.5 / 16) and (0.5 / 16, 8.5 / 16) at level 0.
    let u = |x: f32| f(x / 16.0);
    t.set_grf(117, 0, &[u(3.5), u(5.5), 0, 0, u(0.5), u(8.5), 0, 0])
        .unwrap();
    t.set_grf(118, 0, &[0; 8]).unwrap();
    t.run(&insts).unwrap();
    let texel = |v: [f32; 4]| v.map(f);
    let ld = t.grf_ud(4);
    assert_eq!(
        ld[..4],
        texel([4.0 / 32.0, 6.0 / 32.0, 3.0 / 8.0, 7.0 / 8.0])
    );
    assert_eq!(
        ld[4..],
        texel([2.0 / 32.0, 3.0 / 32.0, 3.0 / 8.0 + 1.0 / 64.0, 1.0])
    );
    // Offsets (1, -2): texels (4, 3) and (1, 6) of texture 0.
    let s = t.grf_ud(5);
    assert_eq!(s[..4], texel([5.0 / 32.0, 4.0 / 32.0, 1.0 / 8.0, 1.0]));
    assert_eq!(s[4..], texel([2.0 / 32.0, 7.0 / 32.0, 1.0 / 8.0, 1.0]));
}
