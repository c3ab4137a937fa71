//! Intel EU simulator: shared functions through SEND, with descriptors built by hand from the
//! layouts in Mesa's brw_eu_defines.h / brw_eu.h (documented in `intel::sim::send`), and the
//! expected results from each default model's documentation.

use gpucc::intel::eu;
use gpucc::intel::sim::payload::{CsPayload, FsPayload};
use gpucc::intel::sim::{RunResult, Thread};
use gpucc::intel::DevInfo;

fn dev(p: &str) -> &'static DevInfo {
    DevInfo::from_name(p).unwrap()
}

fn run(t: &mut Thread, src: &str) -> RunResult {
    let insts = eu::assemble(t.devinfo(), src).unwrap_or_else(|e| panic!("{e}"));
    t.run(&insts).unwrap_or_else(|e| panic!("{e}"))
}

/// The default texture model's texel at level 0 of a 16×16 texture (see
/// `nir::interp::sampler`): ((x + 1) / 32, (y + 1) / 32, (t + 1) / 8, 1 - level / 8).
fn texel(t: u32, level: u32, x: u32, y: u32) -> [f32; 4] {
    [
        (x + 1) as f32 / 32.0,
        (y + 1) as f32 / 32.0,
        (t + 1) as f32 / 8.0,
        1.0 - level as f32 / 8.0,
    ]
}

#[test]
fn render_target_write_simd8_captures_colour_and_pixel_mask() {
    for p in ["ivb", "hsw", "bdw", "skl"] {
        let mut t = Thread::new(dev(p), 8).unwrap();
        t.set_dispatch_mask(0b1011_1111);
        for c in 0..4u32 {
            let v: Vec<f32> = (0..8).map(|ch| ch as f32 + c as f32 / 10.0).collect();
            t.set_grf_f32(10 + c, 0, &v).unwrap();
        }
        // mlen 4, RT write (type 12), SIMD8 single source + last RT (0x14), BTI 0, EOT.
        let r = run(
            &mut t,
            "send(8) null<1>UW g10<8,8,1>UD 0x88031400 render MsgDesc: RT write { align1 1Q EOT };",
        );
        assert!(r.eot, "{p}");
        assert_eq!(r.rt_writes.len(), 1);
        let w = &r.rt_writes[0];
        assert_eq!((w.simd, w.pixel_mask, w.last, w.target), (8, 0xbf, true, 0));
        assert_eq!(w.color[3], [3.0, 3.1, 3.2, 3.3]);
        assert!(w.depth.is_none());
        assert_eq!(t.shared().rt_writes.len(), 1);
    }
}

#[test]
fn render_target_write_simd16_with_depth() {
    let mut t = Thread::new(dev("bdw"), 16).unwrap();
    for k in 0..10u32 {
        let v: Vec<f32> = (0..8)
            .map(|ch| (k / 2 * 100 + (k % 2) * 8 + ch) as f32)
            .collect();
        t.set_grf_f32(20 + k, 0, &v).unwrap();
    }
    // mlen 10 (4 colours + depth, 2 registers each), SIMD16 single source (0) + last (0x10).
    let r = run(
        &mut t,
        "send(16) null<1>UW g20<8,8,1>UD 0x94031000 render MsgDesc: RT write { align1 1H EOT };",
    );
    let w = &r.rt_writes[0];
    assert_eq!((w.simd, w.pixel_mask), (16, 0xffff));
    // Channel 11: component k is in register 20 + 2k + 1, dword 3.
    assert_eq!(w.color[11], [11.0, 111.0, 211.0, 311.0]);
    assert_eq!(w.depth.as_ref().unwrap()[11], 411.0);
}

#[test]
fn sampler_messages_follow_the_interpreter_texture_model() {
    for p in ["ivb", "bdw"] {
        let mut t = Thread::new(dev(p), 8).unwrap();
        let us = [0.5f32, 0.0, 0.99, 1.25, -0.25, 0.03125, 0.5, 0.5];
        let vs = [0.25f32, 0.0, 0.99, 0.5, 0.0, 0.0, 0.5, 0.5];
        t.set_grf_f32(2, 0, &us).unwrap();
        t.set_grf_f32(3, 0, &vs).unwrap();
        // sample: mlen 2 rlen 4, SIMD8 (1 << 17), type 0, texture 2.
        run(
            &mut t,
            "send(8) g20<1>UW g2<8,8,1>UD 0x04420002 sampler MsgDesc: sample { align1 1Q };",
        );
        // x = floor(u * 16) mod 16 (repeat): 8, 0, 15, 4, 12, 0, 8, 8
        let xs = [8, 0, 15, 4, 12, 0, 8, 8];
        let ys = [4, 0, 15, 8, 0, 0, 8, 8];
        for c in 0..8 {
            let e = texel(2, 0, xs[c], ys[c]);
            for (k, ek) in e.iter().enumerate() {
                assert_eq!(
                    t.grf_f(20 + k as u32)[c],
                    *ek,
                    "{p} channel {c} component {k}"
                );
            }
        }
        // ld: u, lod, v (Gen7/8 order) as integers: (3, 1, 5) -> level 1 texel (3, 5).
        t.set_grf(4, 0, &[3; 8]).unwrap();
        t.set_grf(5, 0, &[1; 8]).unwrap();
        t.set_grf(6, 0, &[5; 8]).unwrap();
        run(
            &mut t,
            "send(8) g30<1>UW g4<8,8,1>UD 0x06427000 sampler MsgDesc: ld { align1 1Q };",
        );
        let e = texel(0, 1, 3, 5);
        assert_eq!(
            [
                t.grf_f(30)[0],
                t.grf_f(31)[0],
                t.grf_f(32)[0],
                t.grf_f(33)[0]
            ],
            e
        );
        // resinfo at lod 2: 4×4, depth 4, 5 levels.
        t.set_grf(7, 0, &[2; 8]).unwrap();
        run(
            &mut t,
            "send(8) g40<1>UW g7<8,8,1>UD 0x0242a000 sampler MsgDesc: resinfo { align1 1Q };",
        );
        assert_eq!(
            [
                t.grf_ud(40)[5],
                t.grf_ud(41)[5],
                t.grf_ud(42)[5],
                t.grf_ud(43)[5]
            ],
            [4, 4, 4, 5]
        );
    }
}

#[test]
fn sampler_simd16_sample_l() {
    let mut t = Thread::new(dev("hsw"), 16).unwrap();
    t.set_grf_f32(2, 0, &[1.0; 16]).unwrap(); // lod
    let us: Vec<f32> = (0..16).map(|c| c as f32 / 16.0).collect();
    t.set_grf_f32(4, 0, &us).unwrap();
    t.set_grf_f32(6, 0, &[0.5; 16]).unwrap();
    // sample_l: lod, u, v; mlen 6, rlen 8, SIMD16 (2 << 17), type 2, texture 1.
    run(
        &mut t,
        "send(16) g20<1>UW g2<8,8,1>UD 0x0c842001 sampler MsgDesc: sample_l { align1 1H };",
    );
    // Level 1 is 8 wide: x = floor(c / 16 * 8) = c / 2; y = 4.
    for c in 0..16u32 {
        let e = texel(1, 1, c / 2, 4);
        let reg = 20 + c / 8;
        assert_eq!(t.grf_f(reg)[(c % 8) as usize], e[0], "channel {c}");
        assert_eq!(t.grf_f(reg + 2)[(c % 8) as usize], e[1]);
        assert_eq!(t.grf_f(reg + 6)[(c % 8) as usize], e[3]);
    }
}

#[test]
fn scratch_write_then_read() {
    let mut t = Thread::new(dev("ivb"), 8).unwrap();
    t.set_grf(11, 0, &[10, 11, 12, 13, 14, 15, 16, 17]).unwrap();
    // write: scratch (1 << 18) | write (1 << 17), header, mlen 2, offset 2 HWords;
    // read: mlen 1, rlen 1, offset 2.
    run(
        &mut t,
        "
send(8) null<1>UW g10<8,8,1>UD 0x040e0002 data MsgDesc: scratch write { align1 1Q };
send(8) g20<1>UW g10<8,8,1>UD 0x021c0002 data MsgDesc: scratch read { align1 1Q };
",
    );
    assert_eq!(t.grf_ud(20), [10, 11, 12, 13, 14, 15, 16, 17]);
    let s = &t.shared().scratch;
    assert_eq!(&s[64..68], &10u32.to_le_bytes());
    assert_eq!(&s[92..96], &17u32.to_le_bytes());
}

#[test]
fn untyped_atomic_add_and_surface_read_write() {
    // Ivy Bridge: data cache, atomic op type 6; ADD (7) | SIMD8 (1 << 4) | return (1 << 5).
    let mut t = Thread::new(dev("ivb"), 8).unwrap();
    t.shared_mut().bind_buffer(3, vec![0; 64]);
    t.set_grf(2, 0, &[0, 4, 0, 4, 0, 4, 0, 4]).unwrap();
    t.set_grf(3, 0, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    run(
        &mut t,
        "send(8) g10<1>UD g2<8,8,1>UD 0x0411b703 data MsgDesc: atomic add { align1 1Q };",
    );
    let buf = &t.shared().buffers[&3];
    assert_eq!(&buf[0..4], &16u32.to_le_bytes());
    assert_eq!(&buf[4..8], &20u32.to_le_bytes());
    // Channels in order: each returns the value before its own add.
    assert_eq!(t.grf_ud(10), [0, 0, 1, 2, 4, 6, 9, 12]);

    // Haswell: data port 1, write type 9 / read type 1, SIMD8 (2 << 4), two components
    // (disabled mask 0xc).
    let mut t = Thread::new(dev("hsw"), 8).unwrap();
    t.shared_mut().bind_buffer(1, vec![0; 128]);
    t.set_grf(2, 0, &[0, 8, 16, 24, 32, 40, 48, 56]).unwrap();
    t.set_grf(3, 0, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    t.set_grf(4, 0, &[11, 12, 13, 14, 15, 16, 17, 18]).unwrap();
    t.set_dispatch_mask(0b0111_1111);
    run(
        &mut t,
        "
send(8) null<1>UD g2<8,8,1>UD 0x06026c01 dp data 1 MsgDesc: untyped write { align1 1Q };
send(8) g20<1>UD g2<8,8,1>UD 0x02206c01 dp data 1 MsgDesc: untyped read { align1 1Q };
",
    );
    let buf = &t.shared().buffers[&1];
    assert_eq!(&buf[8..16], &[2, 0, 0, 0, 12, 0, 0, 0]);
    // Channel 7 is not dispatched: nothing written at 56.
    assert_eq!(&buf[56..64], &[0; 8]);
    assert_eq!(t.grf_ud(20)[..7], [1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(t.grf_ud(21)[..7], [11, 12, 13, 14, 15, 16, 17]);
}

#[test]
fn constant_block_read_and_barrier() {
    let mut t = Thread::new(dev("bdw"), 8).unwrap();
    let consts: Vec<u8> = (0..64u32).flat_map(|k| (k * 3).to_le_bytes()).collect();
    t.shared_mut().bind_constants(4, consts);
    // Header dword 2 = offset in OWords.
    t.set_grf(2, 2, &[1]).unwrap();
    run(
        &mut t,
        "
send(8) g10<1>UD g2<8,8,1>UD 0x02180204 const MsgDesc: oword read { align1 WE_all 1Q };
send(8) null<1>UD g2<8,8,1>UD 0x02000004 gateway MsgDesc: barrier { align1 WE_all 1Q };
",
    );
    // Two OWords from byte 16: dwords 4..11 of the buffer, each k * 3.
    assert_eq!(t.grf_ud(10), [12, 15, 18, 21, 24, 27, 30, 33]);
    assert_eq!(t.shared().barriers, 1);
}

#[test]
fn unknown_messages_are_errors_naming_the_descriptor() {
    let d = dev("bdw");
    for (text, needle) in [
        (
            "send(8) g10<1>UD g2<8,8,1>UD 0x02129000 sampler MsgDesc: x { align1 1Q };",
            "0x02129000",
        ),
        (
            "send(8) g10<1>UD g2<8,8,1>UD 0x02100000 vme MsgDesc: x { align1 1Q };",
            "0x02100000",
        ),
    ] {
        let insts = eu::assemble(d, text).unwrap();
        let mut t = Thread::new(d, 8).unwrap();
        let e = t.run(&insts).unwrap_err();
        assert!(e.message.contains("unknown message"), "{e}");
        assert!(e.message.contains(needle), "{e}");
        assert_eq!(e.index, Some(0));
    }
    // No buffer bound: an error naming the binding-table index.
    let insts = eu::assemble(
        dev("ivb"),
        "send(8) g10<1>UD g2<8,8,1>UD 0x0411b703 data MsgDesc: atomic add { align1 1Q };",
    )
    .unwrap();
    let mut t = Thread::new(dev("ivb"), 8).unwrap();
    let e = t.run(&insts).unwrap_err();
    assert!(e.message.contains("binding-table index 3"), "{e}");
}

#[test]
fn fragment_payload_layout_feeds_pln_and_the_pixel_mask() {
    let d = dev("bdw");
    let mut t = Thread::new(d, 16).unwrap();
    let payload = FsPayload {
        subspans: vec![(10, 20), (12, 20), (10, 22), (12, 22)],
        pixel_mask: 0x7fff,
        barycentric: (0..16).map(|c| (c as f32 * 0.5, 1.0)).collect(),
        push_constants: vec![7, 8, 9],
        attributes: vec![
            [[2.0, 3.0, 0.25]; 4],
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 5.0], [0.0; 3]],
        ],
    };
    let l = payload.apply(&mut t).unwrap();
    // g0 header, g1 pixel info, g2-g5 barycentrics, g6 push constants, g7.. attributes.
    assert_eq!(l.barycentric, Some(2));
    assert_eq!(l.push_constants, 6);
    assert_eq!(l.attributes, 7);
    assert_eq!(l.end, 11);
    assert_eq!(t.grf_ud(1)[2], 10 | 20 << 16);
    assert_eq!(t.grf_ud(1)[7], 0x7fff);
    assert_eq!(t.grf_ud(6)[..3], [7, 8, 9]);
    assert_eq!(payload.pixel(5), Some((13, 20)));
    // Slot 1 component z = plane (0, 0, 5) and slot 0 x = 2i + 3j + 0.25, through PLN.
    let r = {
        let insts = eu::assemble(
            d,
            "
pln(16)         g20<1>F         g7<0,1,0>F      g2<8,8,1>F      { align1 1H };
pln(16)         g22<1>F         g10<0,1,0>F     g2<8,8,1>F      { align1 1H };
",
        )
        .unwrap();
        t.run(&insts).unwrap()
    };
    assert!(!r.eot);
    for c in 0..15usize {
        let i = c as f32 * 0.5;
        assert_eq!(
            t.grf_f(20 + c as u32 / 8)[c % 8],
            2.0 * i + 3.0 + 0.25,
            "channel {c}"
        );
        assert_eq!(t.grf_f(22 + c as u32 / 8)[c % 8], 5.0);
    }
    // Channel 15 is not covered: untouched.
    assert_eq!(t.grf_f(21)[7], 0.0);
}

#[test]
fn compute_payload_layout() {
    let mut t = Thread::new(dev("skl"), 16).unwrap();
    let payload = CsPayload {
        workgroup_id: [3, 4, 5],
        local_ids: (0..12).map(|c| [c % 4, c / 4, 0]).collect(),
        push_constants: vec![42],
    };
    let l = payload.apply(&mut t).unwrap();
    assert_eq!(t.grf_ud(0)[1], 3);
    assert_eq!(t.grf_ud(0)[6..], [4, 5]);
    // x ids of channels 8-11 in g4, y ids in g5.
    assert_eq!(t.grf_ud(4)[..4], [0, 1, 2, 3]);
    assert_eq!(t.grf_ud(5)[..4], [2, 2, 2, 2]);
    assert_eq!(l.push_constants, 7);
    assert_eq!(t.grf_ud(7)[0], 42);
}

#[test]
fn gen9_oword_spill_and_dword_scattered_scratch() {
    // Skylake spill/fill: OWord block write (8) / read (0) of 2 OWords at BTI 253, header
    // dword 2 = offset in OWords (3 -> byte 48).
    let mut t = Thread::new(dev("skl"), 8).unwrap();
    t.set_grf(10, 2, &[3]).unwrap();
    t.set_grf(11, 0, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    run(
        &mut t,
        "
send(8) null<1>UD g10<8,8,1>UD 0x040a02fd data MsgDesc: oword write { align1 WE_all 1Q };
send(8) g20<1>UD g10<8,8,1>UD 0x021802fd data MsgDesc: oword read { align1 WE_all 1Q };
",
    );
    assert_eq!(t.grf_ud(20), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(&t.shared().scratch[48..52], &1u32.to_le_bytes());

    // Broadwell load/store_scratch: DWORD scattered write/read, descriptors as Mesa emits them
    // (0x060ac2fd / 0x0418c2fd), offsets in dwords.
    let mut t = Thread::new(dev("bdw"), 8).unwrap();
    t.set_grf(11, 0, &[7, 6, 5, 4, 3, 2, 1, 0]).unwrap();
    t.set_grf(12, 0, &[100, 101, 102, 103, 104, 105, 106, 107])
        .unwrap();
    run(
        &mut t,
        "
send(8) null<1>UD g10<8,8,1>UD 0x060ac2fd data MsgDesc: scattered write { align1 1Q };
send(8) g20<1>UD g10<8,8,1>UD 0x0418c2fd data MsgDesc: scattered read { align1 1Q };
",
    );
    // Channel c stored 100 + c at dword 7 - c and reads it back.
    assert_eq!(t.grf_ud(20), [100, 101, 102, 103, 104, 105, 106, 107]);
    assert_eq!(&t.shared().scratch[0..4], &107u32.to_le_bytes());
}

/// A Skylake thread with the 256 dwords 1000 + k bound as uniform buffer 65 (bound with
/// `bind_constants`, the way the checks bind UBOs) and mapped at GPU address 0x1000_0000.
fn gen9_block_read_thread() -> Thread {
    let mut t = Thread::new(dev("skl"), 8).unwrap();
    let bytes: Vec<u8> = (0..256u32).flat_map(|k| (1000 + k).to_le_bytes()).collect();
    t.shared_mut().bind_constants(65, bytes.clone());
    t.shared_mut().map_global(0x1000_0000, bytes);
    t
}

#[test]
fn gen9_unaligned_oword_block_read_reads_the_ubo_at_a_byte_offset() {
    // Data cache (SFID 10), message type 1 (GFX7_DATAPORT_DC_UNALIGNED_OWORD_BLOCK_READ) in
    // bits 18:14, block size 2 (two OWords = 8 dwords) in 10:8, BTI 65; mlen 1, rlen 1,
    // header present: (1 << 25) | (1 << 20) | (1 << 19) | (1 << 14) | (2 << 8) | 65.
    let desc = (1u32 << 25) | (1 << 20) | (1 << 19) | (1 << 14) | (2 << 8) | 65;
    assert_eq!(desc, 0x0218_4241);
    let mut t = gen9_block_read_thread();
    // Header dword 2 = byte offset 20 (dword aligned, not OWord aligned): dwords 5..12.
    t.set_grf(2, 0, &[0, 0, 20, 0, 0, 0, 0, 0]).unwrap();
    run(
        &mut t,
        &format!("send(8) g10<1>UD g2<8,8,1>UD {desc:#010x} data MsgDesc: oword read {{ align1 WE_all 1Q }};"),
    );
    assert_eq!(
        t.grf_ud(10),
        [1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012]
    );

    // Four OWords (block size 3), two reply registers, at byte 1020: dwords 255 and then
    // zeros past the end of the 1 KiB buffer (out-of-bounds reads return zero).
    let desc4 = (1u32 << 25) | (2 << 20) | (1 << 19) | (1 << 14) | (3 << 8) | 65;
    t.set_grf(2, 2, &[1020]).unwrap();
    run(
        &mut t,
        &format!("send(16) g12<1>UD g2<8,8,1>UD {desc4:#010x} data MsgDesc: oword read {{ align1 WE_all 1H }};"),
    );
    assert_eq!(t.grf_ud(12), [1255, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(t.grf_ud(13), [0; 8]);

    // The aligned read (type 0) of the same entry counts its offset in OWords: 2 -> byte 32.
    let aligned = (1u32 << 25) | (1 << 20) | (1 << 19) | (2 << 8) | 65;
    t.set_grf(2, 2, &[2]).unwrap();
    run(
        &mut t,
        &format!("send(8) g14<1>UD g2<8,8,1>UD {aligned:#010x} data MsgDesc: oword read {{ align1 WE_all 1Q }};"),
    );
    assert_eq!(
        t.grf_ud(14),
        [1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015]
    );

    // A block that runs past the 32-bit offset range reads zeros there (out of bounds),
    // not the start of the buffer.
    t.set_grf(2, 2, &[0xffff_fff0]).unwrap();
    run(
        &mut t,
        &format!("send(8) g10<1>UD g2<8,8,1>UD {desc:#010x} data MsgDesc: oword read {{ align1 WE_all 1Q }};"),
    );
    assert_eq!(t.grf_ud(10), [0; 8]);
}

#[test]
fn gen9_unaligned_oword_block_read_rejects_what_the_hardware_does_not_define() {
    let desc = (1u32 << 25) | (1 << 20) | (1 << 19) | (1 << 14) | (2 << 8) | 65;
    for (offset, rlen, needle) in [
        // A byte offset that is not dword aligned.
        (6u32, 1u32, "dword aligned"),
        // Two OWords need one reply register, not two.
        (8, 2, "response length"),
    ] {
        let mut t = gen9_block_read_thread();
        t.set_grf(2, 2, &[offset]).unwrap();
        let d = desc & !(0x1f << 20) | rlen << 20;
        let insts = eu::assemble(
            t.devinfo(),
            &format!("send(8) g10<1>UD g2<8,8,1>UD {d:#010x} data MsgDesc: oword read {{ align1 WE_all 1Q }};"),
        )
        .unwrap();
        let e = t.run(&insts).unwrap_err().to_string();
        assert!(e.contains(needle), "{e}");
    }
}

#[test]
fn gen9_a64_oword_block_read_reads_from_the_header_address() {
    // Data cache 1 (SFID 12), message type 0x14 (GFX9_DATAPORT_DC_PORT1_A64_OWORD_BLOCK_READ)
    // in bits 18:14, function control bit 3 (descriptor bit 11) = dword-aligned address,
    // block size 2 in 10:8, stateless BTI 253; mlen 1, rlen 1, header present.
    let desc = (1u32 << 25) | (1 << 20) | (1 << 19) | (0x14 << 14) | (1 << 11) | (2 << 8) | 253;
    assert_eq!(desc, 0x021d_0afd);
    let mut t = gen9_block_read_thread();
    // Header dwords 1:0 = the 64-bit address 0x1000_0004; dword 2 is not part of it.
    t.set_grf(2, 0, &[0x1000_0004, 0, 99, 0, 0, 0, 0, 0])
        .unwrap();
    run(
        &mut t,
        &format!("send(8) g10<1>UD g2<8,8,1>UD {desc:#010x} dp data 1 MsgDesc: a64 oword read {{ align1 WE_all 1Q }};"),
    );
    assert_eq!(
        t.grf_ud(10),
        [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008]
    );

    // Without bit 11 the address must be OWord aligned: 0x1000_0004 is an error, 0x1000_0010
    // reads dwords 4..11.
    let aligned = desc & !(1 << 11);
    let text = format!("send(8) g12<1>UD g2<8,8,1>UD {aligned:#010x} dp data 1 MsgDesc: a64 oword read {{ align1 WE_all 1Q }};");
    let insts = eu::assemble(t.devinfo(), &text).unwrap();
    let e = t.run(&insts).unwrap_err().to_string();
    assert!(e.contains("16-byte aligned"), "{e}");
    let mut t = gen9_block_read_thread();
    t.set_grf(2, 0, &[0x1000_0010, 0]).unwrap();
    run(&mut t, &text);
    assert_eq!(
        t.grf_ud(12),
        [1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011]
    );

    // The message is Gen9's: on Broadwell message type 0x14 of data cache 1 is unknown.
    let mut t = Thread::new(dev("bdw"), 8).unwrap();
    t.shared_mut().map_global(0x1000_0000, vec![0; 64]);
    t.set_grf(2, 0, &[0x1000_0000, 0]).unwrap();
    let insts = eu::assemble(
        t.devinfo(),
        &format!("send(8) g10<1>UD g2<8,8,1>UD {desc:#010x} dp data 1 MsgDesc: a64 oword read {{ align1 WE_all 1Q }};"),
    )
    .unwrap();
    let e = t.run(&insts).unwrap_err().to_string();
    assert!(e.contains("unknown message"), "{e}");
}

#[test]
fn a_binding_table_entry_is_one_surface_for_every_cache() {
    // Bound once as a uniform buffer, index 65 is read by the constant cache (OWord block
    // read, SFID 9), the data cache (untyped read, SFID 12 on Gen8+) and written by the
    // data cache; every one sees the same bytes.
    let mut t = gen9_block_read_thread();
    t.set_grf(2, 0, &[0, 0, 1, 0, 0, 0, 0, 0]).unwrap();
    t.set_grf(3, 0, &[0, 4, 8, 12, 16, 20, 24, 28]).unwrap();
    t.set_grf(4, 0, &[7; 8]).unwrap();
    run(
        &mut t,
        "
send(8) g10<1>UD g2<8,8,1>UD 0x02180241 const MsgDesc: oword read { align1 WE_all 1Q };
send(8) g11<1>UD g3<8,8,1>UD 0x02106e41 dp data 1 MsgDesc: untyped read { align1 1Q };
send(8) null<1>UD g3<8,8,1>UD 0x04026e41 dp data 1 MsgDesc: untyped write { align1 1Q };
",
    );
    // Constant cache: OWord 1 = dwords 4..11.
    assert_eq!(
        t.grf_ud(10),
        [1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011]
    );
    // Data cache: one dword per channel at its byte address.
    assert_eq!(
        t.grf_ud(11),
        [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007]
    );
    // The write landed in the same buffer.
    assert_eq!(&t.shared().buffers[&65][..8], &[7, 0, 0, 0, 7, 0, 0, 0]);
}
