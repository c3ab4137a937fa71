//! Intel EU simulator: divergent structured control flow in SIMD8 and SIMD16, with jump
//! targets placed as Mesa's `brw_set_uip_jip` places them. Expected values are worked out by
//! hand per channel from the program's meaning.

use gpucc::intel::eu;
use gpucc::intel::sim::{RunResult, Thread};
use gpucc::intel::DevInfo;

fn run(name: &str, simd: u32, src: &str, setup: impl FnOnce(&mut Thread)) -> (Thread, RunResult) {
    let d = DevInfo::from_name(name).unwrap();
    let insts = eu::assemble(d, src).unwrap_or_else(|e| panic!("assemble on {name}: {e}"));
    let mut t = Thread::new(d, simd).unwrap();
    setup(&mut t);
    let r = t
        .run(&insts)
        .unwrap_or_else(|e| panic!("run on {name}: {e}"));
    (t, r)
}

/// Instantiates a SIMD8 (`1Q`) or SIMD16 (`1H`) version of a program template.
fn simd(template: &str, n: u32) -> String {
    template
        .replace("(N)", &format!("({n})"))
        .replace("QC", if n == 8 { "1Q" } else { "1H" })
}

const PLATFORMS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

/// if (x < 0) { if (x < -10) r = 2; else r = 1; } else { r = 3; if (x > 5) r = 4; }
/// then r + 10 in every channel.
const NESTED_IF: &str = "
mov(N)          g10<1>F         0x0F                            { align1 QC };
cmp.l.f0.0(N)   null<1>F        g2<8,8,1>F      0x0F            { align1 QC };
(+f0.0) if(N)   JIP: LABEL1         UIP: LABEL5                 { align1 QC };
cmp.l.f0.0(N)   null<1>F        g2<8,8,1>F      0xc1200000F     { align1 QC };
(+f0.0) if(N)   JIP: LABEL2         UIP: LABEL3                 { align1 QC };
mov(N)          g10<1>F         0x40000000F                     { align1 QC };
else(N)         JIP: LABEL3         UIP: LABEL3                 { align1 QC };
LABEL2:
mov(N)          g10<1>F         0x3f800000F                     { align1 QC };
LABEL3:
endif(N)        JIP: LABEL4                                     { align1 QC };
LABEL4:
else(N)         JIP: LABEL5         UIP: LABEL5                 { align1 QC };
LABEL1:
mov(N)          g10<1>F         0x40400000F                     { align1 QC };
cmp.g.f0.0(N)   null<1>F        g2<8,8,1>F      0x40a00000F     { align1 QC };
(+f0.0) if(N)   JIP: LABEL6         UIP: LABEL6                 { align1 QC };
mov(N)          g10<1>F         0x40800000F                     { align1 QC };
LABEL6:
endif(N)        JIP: LABEL5                                     { align1 QC };
LABEL5:
endif(N)        JIP: LABEL7                                     { align1 QC };
LABEL7:
add(N)          g12<1>F         g10<8,8,1>F     0x41200000F     { align1 QC };
";

fn nested_expect(x: f32) -> f32 {
    if x < 0.0 {
        if x < -10.0 {
            2.0
        } else {
            1.0
        }
    } else if x > 5.0 {
        4.0
    } else {
        3.0
    }
}

#[test]
fn nested_if_else_simd8_and_simd16() {
    let xs: [f32; 16] = [
        -20.0, -5.0, 0.0, 3.0, 7.0, -10.0, -10.5, 100.0, 6.0, 5.0, -11.0, -1.0, 0.5, -0.0, 1000.0,
        -1000.0,
    ];
    // By hand: 2 1 3 3 4 1 2 4 | 4 3 2 1 3 3 4 2
    let hand: [f32; 16] = [
        2.0, 1.0, 3.0, 3.0, 4.0, 1.0, 2.0, 4.0, 4.0, 3.0, 2.0, 1.0, 3.0, 3.0, 4.0, 2.0,
    ];
    for (k, x) in xs.iter().enumerate() {
        assert_eq!(nested_expect(*x), hand[k]);
    }
    for p in PLATFORMS {
        for n in [8u32, 16] {
            let (t, r) = run(p, n, &simd(NESTED_IF, n), |t| {
                t.set_grf_f32(2, 0, &xs[..n as usize]).unwrap();
            });
            let mut got = t.grf_f(10).to_vec();
            let mut sum = t.grf_f(12).to_vec();
            if n == 16 {
                got.extend(t.grf_f(11));
                sum.extend(t.grf_f(13));
            }
            assert_eq!(got, hand[..n as usize], "{p} SIMD{n}");
            let plus: Vec<f32> = hand[..n as usize].iter().map(|v| v + 10.0).collect();
            assert_eq!(
                sum, plus,
                "{p} SIMD{n}: every channel runs again after the ENDIF"
            );
            assert!(r.diagnostics.iter().all(|d| !d.message.contains("hazard")));
        }
    }
}

/// i = 0; sum = 0;
/// do { i++; lc = i < 8; if (i == skip) continue; sum += i; if (i >= limit) break; } while (lc)
const LOOP: &str = "
mov(N)          g10<1>D         0D                              { align1 QC };
mov(N)          g12<1>D         0D                              { align1 QC };
LABEL0:
add(N)          g10<1>D         g10<8,8,1>D     1D              { align1 QC };
cmp.l.f1.0(N)   null<1>D        g10<8,8,1>D     8D              { align1 QC };
cmp.z.f0.0(N)   null<1>D        g10<8,8,1>D     g4<8,8,1>D      { align1 QC };
(+f0.0) cont(N) JIP: LABEL1          UIP: LABEL1                { align1 QC };
add(N)          g12<1>D         g12<8,8,1>D     g10<8,8,1>D     { align1 QC };
cmp.ge.f0.0(N)  null<1>D        g10<8,8,1>D     g2<8,8,1>D      { align1 QC };
(+f0.0) break(N) JIP: LABEL1         UIP: LABEL1                { align1 QC };
LABEL1:
(+f1.0) while(N) JIP: LABEL0                                    { align1 QC };
add(N)          g14<1>D         g12<8,8,1>D     1000D           { align1 QC };
";

#[test]
fn loop_with_per_channel_break_and_continue() {
    // (limit, skip) per channel and the sums worked out by hand.
    let cases: [(i32, i32, i32); 16] = [
        (3, 0, 6),
        (3, 2, 4),
        (3, 3, 7),
        (100, 0, 36),
        (100, 8, 28),
        (1, 5, 1),
        (0, 1, 2),
        (5, 5, 16),
        (2, 0, 3),
        (8, 0, 36),
        (4, 1, 9),
        (7, 7, 29),
        (6, 3, 18),
        (1, 1, 2),
        (100, 100, 36),
        (9, 9, 36),
    ];
    for p in PLATFORMS {
        for n in [8u32, 16] {
            let lim: Vec<u32> = cases.iter().map(|c| c.0 as u32).collect();
            let skip: Vec<u32> = cases.iter().map(|c| c.1 as u32).collect();
            let (t, r) = run(p, n, &simd(LOOP, n), |t| {
                t.set_grf(2, 0, &lim[..n as usize]).unwrap();
                t.set_grf(4, 0, &skip[..n as usize]).unwrap();
            });
            let mut sums = t.grf_ud(12).to_vec();
            let mut after = t.grf_ud(14).to_vec();
            if n == 16 {
                sums.extend(t.grf_ud(13));
                after.extend(t.grf_ud(15));
            }
            let hand: Vec<u32> = cases[..n as usize].iter().map(|c| c.2 as u32).collect();
            assert_eq!(sums, hand, "{p} SIMD{n}");
            let plus: Vec<u32> = hand.iter().map(|s| s + 1000).collect();
            assert_eq!(
                after, plus,
                "{p} SIMD{n}: broken channels rejoin after the WHILE"
            );
            assert!(r.steps > 8, "the loop ran");
        }
    }
}

/// Discard-style HALT: channels with x < 0 stop until the halt target; a `WE_all` move in the
/// skipped region runs only while some channel is still live.
const HALT: &str = "
mov(N)          g10<1>F         0x0F                            { align1 QC };
cmp.l.f1.0(N)   null<1>F        g2<8,8,1>F      0x0F            { align1 QC };
(+f1.0) halt(N) JIP: LABEL1          UIP: LABEL1                { align1 QC };
mov(N)          g10<1>F         0x3f800000F                     { align1 QC };
mov(8)          g20<1>F         0x40a00000F                     { align1 WE_all 1Q };
LABEL1:
halt(N)         JIP: LABEL2          UIP: LABEL2                { align1 QC };
LABEL2:
add(N)          g12<1>F         g10<8,8,1>F     0x40000000F     { align1 QC };
";

#[test]
fn halt_simd8_and_simd16() {
    for p in PLATFORMS {
        for n in [8u32, 16] {
            let xs: Vec<f32> = (0..n)
                .map(|c| if c % 3 == 0 { -1.0 } else { 1.0 })
                .collect();
            let (t, _) = run(p, n, &simd(HALT, n), |t| {
                t.set_grf_f32(2, 0, &xs).unwrap();
            });
            let mut g10 = t.grf_f(10).to_vec();
            let mut g12 = t.grf_f(12).to_vec();
            if n == 16 {
                g10.extend(t.grf_f(11));
                g12.extend(t.grf_f(13));
            }
            let hand: Vec<f32> = xs
                .iter()
                .map(|x| if *x < 0.0 { 0.0 } else { 1.0 })
                .collect();
            assert_eq!(g10, hand, "{p} SIMD{n}");
            let plus: Vec<f32> = hand.iter().map(|v| v + 2.0).collect();
            assert_eq!(
                g12, plus,
                "{p} SIMD{n}: halted channels rejoin at the target"
            );
            assert_eq!(
                t.grf_f(20),
                [5.0; 8],
                "live channels remain: the block runs"
            );

            // Every channel halts: the hardware jumps over the block, WE_all move included.
            let (t, _) = run(p, n, &simd(HALT, n), |t| {
                t.set_grf_f32(2, 0, &vec![-1.0; n as usize]).unwrap();
            });
            assert_eq!(t.grf_f(20), [0.0; 8], "{p} SIMD{n}: skipped");
            assert_eq!(t.grf_f(12), [2.0; 8]);
        }
    }
}

#[test]
fn fully_false_if_skips_its_block_including_we_all() {
    let src = "
cmp.l.f0.0(8)   null<1>F        g2<8,8,1>F      0x0F            { align1 1Q };
(+f0.0) if(8)   JIP: LABEL1          UIP: LABEL1                { align1 1Q };
mov(8)          g20<1>F         0x40a00000F                     { align1 WE_all 1Q };
LABEL1:
endif(8)        JIP: LABEL2                                     { align1 1Q };
LABEL2:
mov(8)          g21<1>F         0x3f800000F                     { align1 1Q };
";
    for p in PLATFORMS {
        let (t, _) = run(p, 8, src, |t| t.set_grf_f32(2, 0, &[1.0; 8]).unwrap());
        assert_eq!(t.grf_f(20), [0.0; 8], "{p}");
        assert_eq!(t.grf_f(21), [1.0; 8], "{p}");
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf_f32(2, 0, &[1.0, 1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
                .unwrap()
        });
        assert_eq!(t.grf_f(20), [5.0; 8], "{p}");
    }
}

#[test]
fn infinite_loop_hits_the_step_limit() {
    let src = "
LABEL0:
add(8)          g10<1>D         g10<8,8,1>D     1D              { align1 1Q };
while(8)        JIP: LABEL0                                     { align1 1Q };
";
    let d = DevInfo::from_name("bdw").unwrap();
    let insts = eu::assemble(d, src).unwrap();
    let mut t = Thread::new(d, 8).unwrap();
    t.set_step_limit(1000);
    let e = t.run(&insts).unwrap_err();
    assert!(e.message.contains("step limit"), "{e}");
    assert!(e.index.is_some());
}
