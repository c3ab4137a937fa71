//! Round trips over the fields, and descriptors checked against values Mesa's compiler
//! emitted (its assembly in the shared corpus) or derived by hand from the bit layouts in
//! Mesa's `brw_eu.h` / `brw_inst.h`.

use super::*;
use crate::intel::eu::types::sfid;
use crate::util::rng::Rng;

const VERS: [u32; 8] = [40, 45, 50, 60, 70, 75, 80, 90];

/// A random value of `bits` bits.
fn field(r: &mut Rng, bits: u32) -> u32 {
    r.next_u32() & ((1u64 << bits) - 1) as u32
}

fn lengths(r: &mut Rng, ver: u32) -> Lengths {
    Lengths {
        mlen: field(r, 4),
        rlen: field(r, if ver >= 50 { 5 } else { 4 }),
        header: ver >= 50 && r.bool(),
    }
}

#[test]
fn every_descriptor_round_trips_on_every_generation() {
    let mut r = Rng::new(38);
    for ver in VERS {
        for _ in 0..2000 {
            let len = lengths(&mut r, ver);
            assert_eq!(Lengths::decode(ver, len.encode(ver)), len, "ver {ver}");

            let s = SamplerDesc {
                len,
                binding_table_index: field(&mut r, 8),
                sampler: field(&mut r, 4),
                msg_type: match ver {
                    70.. => field(&mut r, 5),
                    45.. => field(&mut r, 4),
                    _ => field(&mut r, 2),
                },
                simd_mode: match ver {
                    80.. => field(&mut r, 3),
                    50.. => field(&mut r, 2),
                    _ => 0,
                },
                return_format: match ver {
                    80.. => field(&mut r, 1),
                    45.. => 0,
                    _ => field(&mut r, 2),
                },
            };
            assert_eq!(SamplerDesc::decode(ver, s.encode(ver)), s, "ver {ver}");

            let rt = RenderTargetWriteDesc {
                len,
                binding_table_index: field(&mut r, 8),
                subtype: RtSubtype::from_bits(field(&mut r, 3)),
                slot_group_high: ver >= 60 && r.bool(),
                last_render_target: r.bool(),
                write_commit: ver < 70 && r.bool(),
            };
            assert_eq!(
                RenderTargetWriteDesc::decode(ver, rt.encode(ver)),
                rt,
                "ver {ver}"
            );

            let u = UrbDesc {
                len,
                opcode: field(&mut r, if ver >= 80 { 4 } else { 3 }),
                global_offset: field(
                    &mut r,
                    match ver {
                        80.. => 11,
                        70.. => 11,
                        _ => 6,
                    },
                ),
                ..UrbDesc::default()
            };
            let masked = ver >= 80 && matches!(u.opcode, 7 | 8);
            let u = UrbDesc {
                swizzle: match ver {
                    _ if masked => 0,
                    70.. => field(&mut r, 1),
                    _ => field(&mut r, 2),
                },
                channel_mask_present: masked && r.bool(),
                per_slot_offset: ver >= 70 && r.bool(),
                complete: ver < 80 && r.bool(),
                allocate: ver < 70 && r.bool(),
                used: ver < 70 && r.bool(),
                ..u
            };
            assert_eq!(UrbDesc::decode(ver, u.encode(ver)), u, "ver {ver}");

            let g = GatewayDesc {
                len,
                subfunction: field(&mut r, if ver >= 60 { 3 } else { 2 }),
            };
            assert_eq!(GatewayDesc::decode(ver, g.encode(ver)), g);

            let t = SpawnerDesc {
                len,
                opcode: field(&mut r, 1),
                request_type: field(&mut r, 1),
                resource_select: field(&mut r, 1),
            };
            assert_eq!(SpawnerDesc::decode(ver, t.encode(ver)), t);

            if ver < 60 {
                let m = MathDesc {
                    len,
                    function: field(&mut r, 4),
                    signed: r.bool(),
                    partial_precision: r.bool(),
                    saturate: r.bool(),
                    scalar: r.bool(),
                };
                assert_eq!(MathDesc::decode(ver, m.encode(ver)), m);
                let rd = Gen4DpReadDesc {
                    len,
                    binding_table_index: field(&mut r, 8),
                    msg_control: field(&mut r, if ver >= 45 { 3 } else { 4 }),
                    msg_type: field(&mut r, if ver >= 45 { 3 } else { 2 }),
                    target_cache: field(&mut r, 2),
                };
                assert_eq!(Gen4DpReadDesc::decode(ver, rd.encode(ver)), rd);
                let wr = Gen4DpWriteDesc {
                    len,
                    binding_table_index: field(&mut r, 8),
                    msg_control: field(&mut r, 4),
                    msg_type: field(&mut r, 3),
                    send_commit: r.bool(),
                };
                assert_eq!(Gen4DpWriteDesc::decode(ver, wr.encode(ver)), wr);
            } else {
                let dp = DataPortDesc {
                    len,
                    binding_table_index: field(&mut r, 8),
                    msg_type: field(
                        &mut r,
                        match ver {
                            80.. => 5,
                            _ => 4,
                        },
                    ),
                    msg_control: field(&mut r, if ver >= 70 { 6 } else { 5 }),
                    send_commit: ver < 70 && r.bool(),
                };
                assert_eq!(DataPortDesc::decode(ver, dp.encode(ver)), dp, "ver {ver}");
            }

            if ver >= 70 {
                let regs = *r.pick(if ver >= 80 { &[1, 2, 4, 8] } else { &[1, 2, 4] });
                let sc = ScratchDesc {
                    len,
                    write: r.bool(),
                    dword: r.bool(),
                    invalidate_after_read: r.bool(),
                    regs,
                    offset: field(&mut r, 12),
                };
                let d = sc.encode(ver);
                assert!(ScratchDesc::is_scratch(ver, sfid::DATA_CACHE, d));
                assert_eq!(ScratchDesc::decode(ver, d), sc, "ver {ver}");

                let pi = PixelInterpDesc {
                    len,
                    data: field(&mut r, 8),
                    slot_group_high: r.bool(),
                    msg_type: field(&mut r, 2),
                    noperspective: r.bool(),
                    simd16: r.bool(),
                };
                assert_eq!(PixelInterpDesc::decode(ver, pi.encode(ver)), pi);
            }
        }
    }
}

#[test]
fn message_control_fields_read_back() {
    for channels in 1..=4 {
        for simd16 in [false, true] {
            let d = DataPortDesc::new(
                Lengths::default(),
                0,
                0,
                DpControl::untyped(channels, simd16),
            );
            assert_eq!(d.channels(), channels);
            assert_eq!(d.surface_simd_mode(), if simd16 { 1 } else { 2 });
        }
    }
    for op in 0..16 {
        for (simd8, ret) in [(false, false), (true, false), (false, true), (true, true)] {
            let d = DataPortDesc::new(Lengths::default(), 0, 6, DpControl::atomic(op, simd8, ret));
            assert_eq!(
                (d.atomic_op(), d.simd8(), d.atomic_returns()),
                (op, simd8, ret)
            );
        }
    }
    for dwords in [4, 8, 16, 32] {
        let d = DataPortDesc::new(
            Lengths::default(),
            0,
            0,
            DpControl::oword_block(dwords, true),
        );
        let (owords, high) = oword_block_size(d.block_size_code()).unwrap();
        assert_eq!((owords * 4, high), (dwords as usize, false));
        assert!(d.a64_unaligned());
    }
    assert!(fence(true).fence_commit());
    assert!(!fence(false).fence_commit());
    assert!(
        DataPortDesc::new(Lengths::default(), 0, 3, DpControl::dword_scattered(true))
            .scattered_simd16()
    );
}

#[test]
fn descriptors_match_mesa_assembly() {
    // ivb: `send(8) g14<1>UW g43<8,8,1>UD 0x04420001 sampler MsgDesc: sample SIMD8
    // Surface = 1 Sampler = 0 mlen 2 rlen 4`.
    let sample = SamplerDesc {
        len: Lengths::new(2, 4, false),
        binding_table_index: 1,
        sampler: 0,
        msg_type: SamplerMsg::SAMPLE,
        simd_mode: SimdMode::SIMD8,
        return_format: 0,
    };
    assert_eq!(sample.encode(70), 0x0442_0001);
    // ivb: `0x06423304 sampler MsgDesc: sample_c SIMD8 Surface = 4 Sampler = 3 mlen 3 rlen 4`.
    let c = SamplerDesc {
        len: Lengths::new(3, 4, false),
        binding_table_index: 4,
        sampler: 3,
        msg_type: SamplerMsg::SAMPLE_C,
        ..sample
    };
    assert_eq!(c.encode(70), 0x0642_3304);
    assert_eq!(SamplerDesc::decode(70, 0x0642_3304), c);
    // ivb vec4: `0x02107000 sampler MsgDesc: ld SIMD4x2 Surface = 0 Sampler = 0 mlen 1 rlen 1`.
    let ld = SamplerDesc {
        len: Lengths::new(1, 1, false),
        msg_type: SamplerMsg::LD,
        simd_mode: SimdMode::SIMD4X2,
        ..SamplerDesc::default()
    };
    assert_eq!(ld.encode(70), 0x0210_7000);

    // ivb: `sendc(16) null g120 0x90031800 render MsgDesc: RT write SIMD16 Hi LastRT
    // Surface = 0 mlen 8 rlen 0 { 2H EOT }` (bit 31 is EOT).
    let rt = RenderTargetWriteDesc {
        len: Lengths::new(8, 0, false),
        binding_table_index: 0,
        subtype: RtSubtype::Simd16,
        slot_group_high: true,
        last_render_target: true,
        write_commit: false,
    };
    assert_eq!(
        with_dword3(70, rt.encode(70), sfid::RENDER_CACHE, true),
        0x9003_1800
    );
    // bdw: `0x940b1200 render MsgDesc: RT write SIMD8/DualSrcLow LastRT Surface = 0 mlen 10
    // rlen 0 { EOT }`: the two-register header is present.
    let dual = RenderTargetWriteDesc::decode(80, 0x140b_1200);
    assert_eq!(dual.subtype, RtSubtype::Simd8DualLow);
    assert!(dual.subtype.is_dual_source());
    assert!(dual.last_render_target && dual.len.header && !dual.slot_group_high);
    assert_eq!(dual.len.mlen, 10);
    // snb: `0x88019400 render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 { EOT }`:
    // Gen6 puts the message type in 16:13.
    let snb = RenderTargetWriteDesc {
        len: Lengths::new(4, 0, false),
        subtype: RtSubtype::Simd8,
        last_render_target: true,
        ..RenderTargetWriteDesc::default()
    };
    assert_eq!(snb.encode(60) | 1 << 31, 0x8801_9400);

    // ivb vec4: `0x8608c000 urb MsgDesc: offset 0 write HWord interleave complete mlen 3
    // rlen 0 { EOT }`.
    let urb7 = UrbDesc {
        len: Lengths::new(3, 0, true),
        opcode: UrbDesc::WRITE_HWORD,
        swizzle: UrbDesc::SWIZZLE_INTERLEAVE,
        complete: true,
        ..UrbDesc::default()
    };
    assert_eq!(urb7.encode(70) | 1 << 31, 0x8608_c000);
    // bdw: `0x8a080017 urb MsgDesc: offset 1 SIMD8 write mlen 5 rlen 0 { EOT }`.
    let urb8 = UrbDesc {
        len: Lengths::new(5, 0, true),
        opcode: UrbDesc::SIMD8_WRITE,
        global_offset: 1,
        ..UrbDesc::default()
    };
    assert_eq!(urb8.encode(80) | 1 << 31, 0x8a08_0017);
    // g4x: `0x8680c400 urb MsgDesc: offset 0 urb_write interleave used complete mlen 8
    // rlen 0 { EOT }`: Gen4 lengths in 23:20 / 19:16 and the SFID in 27:24 of the dword.
    let urb4 = UrbDesc {
        len: Lengths::new(8, 0, false),
        swizzle: UrbDesc::SWIZZLE_INTERLEAVE,
        used: true,
        complete: true,
        ..UrbDesc::default()
    };
    assert_eq!(
        with_dword3(45, urb4.encode(45), sfid::URB, true),
        0x8680_c400
    );
    assert_eq!(
        split_dword3(45, 0x8680_c400),
        (urb4.encode(45), Some(sfid::URB), true)
    );
    // g4x: `0x01110001 math MsgDesc: inv mlen 1 rlen 1`.
    let inv = MathDesc {
        len: Lengths::new(1, 1, false),
        function: 1,
        ..MathDesc::default()
    };
    assert_eq!(
        with_dword3(45, inv.encode(45), sfid::MATH, false),
        0x0111_0001
    );

    // ivb vec4 scratch: `0x041880ff data MsgDesc: (DC OWORD dual block read, bti 255, 0)
    // mlen 2 rlen 1` and the write `0x060a80ff ... mlen 3 rlen 0`.
    let read = DataPortDesc::new(Lengths::new(2, 1, true), 255, dc::OWORD_DUAL_BLOCK_READ, 0);
    assert_eq!(read.encode(70), 0x0418_80ff);
    let write = DataPortDesc::new(Lengths::new(3, 0, true), 255, dc::OWORD_DUAL_BLOCK_WRITE, 0);
    assert_eq!(write.encode(70), 0x060a_80ff);
    // bdw: `0x044460fd dp data 1 MsgDesc: (DC A64 untyped surface read, Surface = 253,
    // SIMD8, Mask = 0x0) mlen 2 rlen 4`.
    assert_eq!(
        a64_untyped_read(Lengths::new(2, 4, false), 4, false).encode(80),
        0x0444_60fd
    );
    // snb: `0x02280301 const MsgDesc: (bti 1, msg_ctrl 3, msg_type 0, write_commit 0)`.
    let snb_const = DataPortDesc::decode(60, 0x0228_0301);
    assert_eq!(
        (
            snb_const.binding_table_index,
            snb_const.msg_control,
            snb_const.msg_type
        ),
        (1, 3, 0)
    );
    assert_eq!(snb_const.len, Lengths::new(1, 2, true));
}

#[test]
fn hand_derived_descriptors() {
    // Gen7 scratch read of two registers at register 3 (brw_inst.h: category 18, write 17,
    // block size 13:12 = registers − 1, offset 11:0): 1 << 25 | 2 << 20 | 1 << 19 | 1 << 18
    // | 1 << 12 | 3.
    assert_eq!(ScratchDesc::read(2, 3).encode(70), 0x022c_1003);
    // Gen8 writes of four registers encode log2(4) = 2 in 13:12.
    assert_eq!(ScratchDesc::write(4, 0).encode(80), 0x0a0e_2000);
    // The Gen9 A64 unaligned OWord block read of 8 dwords: mlen 1, rlen 1, header, type
    // 0x14 in 18:14, control bit 3 (descriptor bit 11), block size 2, BTI 253.
    assert_eq!(
        a64_oword_block_read(Lengths::new(1, 1, true), 8, true).encode(90),
        0x021d_0afd
    );
    // A gateway barrier, one register: 1 << 25 | 4.
    let barrier = GatewayDesc {
        len: Lengths::new(1, 0, false),
        subfunction: GatewayDesc::BARRIER,
    };
    assert_eq!(barrier.encode(70), 0x0200_0004);
    // Extended descriptor of a Gen9 split send: the second payload's length in 9:6.
    assert_eq!(ex_mlen(0x0000_00c0), 3);
}
