//! Intel EU simulator on Gen4.5 (g4x) and Gen6 (snb): MRFs, the implied move, compr4, Gen4
//! jump counts, the Gen4 math message, Gen6 MATH's operand rules and Gen6 messages sent from
//! MRFs. Expected values are worked out by hand from the PRM rules as Mesa encodes them
//! (`brw_eu_emit.c`: `patch_IF_ELSE`, `brw_patch_break_cont`, `brw_WHILE`, `gfx6_math`;
//! `BRW_MRF_COMPR4`), not from the simulator.

use gpucc::intel::eu;
use gpucc::intel::sim::{RunResult, SimError, Thread};
use gpucc::intel::DevInfo;

fn run(
    name: &str,
    simd: u32,
    src: &str,
    setup: impl FnOnce(&mut Thread),
) -> Result<(Thread, RunResult), SimError> {
    let d = DevInfo::from_name(name).unwrap();
    let insts = eu::assemble(d, src).unwrap_or_else(|e| panic!("assemble on {name}: {e}"));
    let mut t = Thread::new(d, simd).unwrap();
    setup(&mut t);
    let r = t.run(&insts)?;
    Ok((t, r))
}

/// r = x < 0 ? 1 : 2, then r + 10. Gen4 IF jumps to its ELSE (jump count ELSE − IF), ELSE
/// past its ENDIF (ENDIF − ELSE + 1), as `patch_IF_ELSE` sets them before Gen6.
const GEN4_IF_ELSE: &str = "
mov(8)          g10<1>F         0x0F                            { align1 };
cmp.l.f0.0(8)   null<1>F        g2<8,8,1>F      0x0F            { align1 };
(+f0.0) if(8)   Jump: 2                                         { align1 };
mov(8)          g10<1>F         0x3f800000F                     { align1 };
else(8)         Jump: 3         Pop: 1                          { align1 };
mov(8)          g10<1>F         0x40000000F                     { align1 };
endif(8)        Pop: 1                                          { align1 };
add(8)          g11<1>F         g10<8,8,1>F     0x41200000F     { align1 };
";

#[test]
fn gen4_if_else_follows_its_jump_counts() {
    let x = [-1.0, 1.0, -2.0, 2.0, -3.0, 3.0, 0.0, -0.5];
    let (t, _) = run("g4x", 8, GEN4_IF_ELSE, |t| t.set_grf_f32(2, 0, &x).unwrap()).unwrap();
    assert_eq!(
        t.grf_f(11),
        [11.0, 12.0, 11.0, 12.0, 11.0, 12.0, 12.0, 11.0]
    );
    // No channel takes the IF: the hardware jumps to the ELSE, which runs every channel.
    let (t, _) = run("g4x", 8, GEN4_IF_ELSE, |t| {
        t.set_grf_f32(2, 0, &[5.0; 8]).unwrap()
    })
    .unwrap();
    assert_eq!(t.grf_f(11), [12.0; 8]);
    // Every channel takes it: the ELSE jumps past the ENDIF.
    let (t, _) = run("g4x", 8, GEN4_IF_ELSE, |t| {
        t.set_grf_f32(2, 0, &[-5.0; 8]).unwrap()
    })
    .unwrap();
    assert_eq!(t.grf_f(11), [11.0; 8]);
}

/// Count up to x per channel: BREAK jumps past the WHILE (WHILE − BREAK + 1), WHILE back to
/// the instruction after DO (DO − WHILE + 1).
#[test]
fn gen4_loop_breaks_per_channel() {
    let src = "
mov(8)          g10<1>D         0D                              { align1 };
do(8)                                                           { align1 };
add(8)          g10<1>D         g10<8,8,1>D     1D              { align1 };
cmp.ge.f0.0(8)  null<1>D        g10<8,8,1>D     g2<8,8,1>D      { align1 };
(+f0.0) break(8) Jump: 2        Pop: 0                          { align1 };
while(8)        Jump: -3                                        { align1 };
add(8)          g11<1>D         g10<8,8,1>D     100D            { align1 };
";
    let x = [3u32, 1, 5, 2, 8, 4, 7, 6];
    let (t, _) = run("g4x", 8, src, |t| t.set_grf(2, 0, &x).unwrap()).unwrap();
    assert_eq!(t.grf_ud(11), x.map(|v| v + 100));
}

/// A Gen4 SEND with a GRF src0 first moves it, with the SEND's region, into its base MRF
/// (m1 here); the math unit then answers 1/x in the destination.
#[test]
fn gen4_implied_move_feeds_the_math_message() {
    let src = "
send(8) 1       g3<1>F          g2<8,8,1>F      0x01110001
                            math MsgDesc: inv  mlen 1 rlen 1                { align1 };
";
    let x = [2.0, 4.0, 0.5, -8.0, 1.0, 0.25, 16.0, -1.0];
    let (t, _) = run("g4x", 8, src, |t| t.set_grf_f32(2, 0, &x).unwrap()).unwrap();
    assert_eq!(t.mrf_ud(1).unwrap(), x.map(|v: f32| v.to_bits()));
    assert_eq!(t.grf_f(3), [0.5, 0.25, 2.0, -0.125, 1.0, 4.0, 0.0625, -1.0]);
}

/// The implied move takes src0's region: a scalar region replicates one element.
#[test]
fn gen4_implied_move_uses_the_source_region() {
    let src = "
send(8) 1       g3<1>F          g2.1<0,1,0>F    0x01110001
                            math MsgDesc: inv  mlen 1 rlen 1                { align1 };
";
    let x = [2.0, 4.0, 0.5, -8.0, 1.0, 0.25, 16.0, -1.0];
    let (t, _) = run("g4x", 8, src, |t| t.set_grf_f32(2, 0, &x).unwrap()).unwrap();
    assert_eq!(t.grf_f(3), [0.25; 8]);
}

/// compr4: a SIMD16 write to m3 with bit 7 of the MRF number puts channels 8-15 in m7, not
/// m4 (Gen4.5 render-target payloads: r g b a of the low half, then of the high half).
#[test]
fn gen4_compr4_writes_the_second_half_four_registers_on() {
    let src = "mov(16)         m3<1>F          g4<8,8,1>F                      { align1 compr4 };";
    let lo: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let hi: Vec<f32> = (8..16).map(|i| i as f32).collect();
    let (t, _) = run("g4x", 16, src, |t| {
        t.set_grf_f32(4, 0, &lo).unwrap();
        t.set_grf_f32(5, 0, &hi).unwrap();
    })
    .unwrap();
    let bits = |v: &[f32]| -> Vec<u32> { v.iter().map(|f| f.to_bits()).collect() };
    assert_eq!(t.mrf_ud(3).unwrap().to_vec(), bits(&lo));
    assert_eq!(t.mrf_ud(7).unwrap().to_vec(), bits(&hi));
    assert_eq!(t.mrf_ud(4).unwrap(), [0; 8]);
}

/// Without compr4 the same SIMD16 write fills m3 and m4.
#[test]
fn gen4_compressed_mrf_write_fills_consecutive_registers() {
    let src = "mov(16)         m3<1>F          g4<8,8,1>F                      { align1 compr };";
    let (t, _) = run("g4x", 16, src, |t| {
        t.set_grf_f32(4, 0, &[1.0; 8]).unwrap();
        t.set_grf_f32(5, 0, &[2.0; 8]).unwrap();
    })
    .unwrap();
    assert_eq!(t.mrf_ud(4).unwrap(), [2.0f32.to_bits(); 8]);
    assert_eq!(t.mrf_ud(7).unwrap(), [0; 8]);
}

/// Gen6 MATH: a plain GRF operand runs; a source modifier (ignored by the hardware), a
/// SIMD16 execution size and an immediate operand are errors naming the rule.
#[test]
fn gen6_math_operand_rules() {
    let ok = "math inv(8)     g3<1>F          g2<8,8,1>F      null<8,8,1>F    { align1 1Q };";
    let (t, _) = run("snb", 8, ok, |t| t.set_grf_f32(2, 0, &[4.0; 8]).unwrap()).unwrap();
    assert_eq!(t.grf_f(3), [0.25; 8]);
    let cases = [
        (
            "math inv(8)     g3<1>F          -g2<8,8,1>F     null<8,8,1>F    { align1 1Q };",
            "source modifier",
        ),
        (
            "math inv(16)    g3<1>F          g4<8,8,1>F      null<8,8,1>F    { align1 1H };",
            "SIMD16",
        ),
        (
            "math pow(8)     g3<1>F          g2<8,8,1>F      0x40000000F     { align1 1Q };",
            "src1 must be a direct GRF",
        ),
    ];
    for (src, rule) in cases {
        let err = run("snb", 16, src, |_| {})
            .err()
            .unwrap_or_else(|| panic!("{src} ran"));
        assert!(err.message.contains(rule), "{src}: {err}");
    }
    // Gen7 lifted the rules: the modifier is honoured there.
    let (t, _) = run("ivb", 8, cases[0].0, |t| {
        t.set_grf_f32(2, 0, &[4.0; 8]).unwrap()
    })
    .unwrap();
    assert_eq!(t.grf_f(3), [-0.25; 8]);
}

/// A Gen6 render-target write reads its payload from the MRFs SEND names: r g b a in m1-m4.
#[test]
fn gen6_render_target_write_from_mrfs() {
    let src = "
mov(8)          m1<1>F          g2<8,8,1>F                      { align1 1Q };
mov(8)          m2<1>F          0x3f000000F                     { align1 1Q };
mov(8)          m3<1>F          0x0F                            { align1 1Q };
mov(8)          m4<1>F          0x3f800000F                     { align1 1Q };
sendc(8)        null<1>UW       m1<8,8,1>F      0x88019400
                            render MsgDesc: RT write SIMD8 LastRT Surface = 0  mlen 4 rlen 0 { align1 1Q EOT };
";
    let x = [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875];
    let (_, r) = run("snb", 8, src, |t| {
        t.set_grf_f32(2, 0, &x).unwrap();
        t.set_dispatch_mask(0x7f);
    })
    .unwrap();
    assert!(r.eot);
    let w = &r.rt_writes[0];
    assert_eq!((w.simd, w.pixel_mask, w.target, w.last), (8, 0x7f, 0, true));
    // Channel 7 is not dispatched: its MRF dwords are not written, nor compared.
    for (c, px) in w.color.iter().enumerate().take(7) {
        assert_eq!(*px, [x[c], 0.5, 0.0, 1.0], "channel {c}");
    }
}

/// MRFs exist only before Gen7, and their count is the generation's: 24 on Gen6, 16 on
/// Gen4-5.
#[test]
fn mrf_files_per_generation() {
    let m20 = "mov(8)          m20<1>F         0x3f800000F                     { align1 1Q };";
    assert!(run("snb", 8, m20, |_| {}).is_ok());
    let m20_g4x = "mov(8)          m20<1>F         0x3f800000F                     { align1 };";
    assert!(run("g4x", 8, m20_g4x, |_| {}).is_err());
}
