//! Intel EU simulator: one test per opcode family, hand-written assembly, expected register
//! contents worked out by hand from the PRM's description of each operation.

use gpucc::intel::eu;
use gpucc::intel::sim::{RunResult, Thread};
use gpucc::intel::DevInfo;

fn dev(name: &str) -> &'static DevInfo {
    DevInfo::from_name(name).expect("known platform")
}

fn run(name: &str, simd: u32, src: &str, setup: impl FnOnce(&mut Thread)) -> (Thread, RunResult) {
    let d = dev(name);
    let insts = eu::assemble(d, src).unwrap_or_else(|e| panic!("assemble on {name}: {e}"));
    let mut t = Thread::new(d, simd).unwrap();
    setup(&mut t);
    let r = t
        .run(&insts)
        .unwrap_or_else(|e| panic!("run on {name}: {e}"));
    (t, r)
}

fn i(v: &[i32]) -> Vec<u32> {
    v.iter().map(|x| *x as u32).collect()
}

const BOTH: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

#[test]
fn mov_converts_between_types() {
    for p in BOTH {
        let src = "
mov(8)          g3<1>F          g2<8,8,1>D                      { align1 1Q };
mov(8)          g4<1>D          g5<8,8,1>F                      { align1 1Q };
mov.sat(8)      g6<1>F          g5<8,8,1>F                      { align1 1Q };
mov(8)          g7<1>UD         g2<8,8,1>D                      { align1 1Q };
mov.sat(8)      g8<1>UD         g2<8,8,1>D                      { align1 1Q };
";
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf(2, 0, &i(&[-3, 0, 7, i32::MAX, 16777217, -1, 1, 2]))
                .unwrap();
            t.set_grf_f32(5, 0, &[1.9, -1.9, 3e9, -3e9, f32::NAN, 0.5, -0.5, 100.25])
                .unwrap();
        });
        // int -> float rounds to nearest even: 2^31-1 -> 2^31, 2^24+1 -> 2^24.
        assert_eq!(
            t.grf_f(3),
            [-3.0, 0.0, 7.0, 2147483648.0, 16777216.0, -1.0, 1.0, 2.0],
            "{p}"
        );
        // float -> int truncates toward zero, clamps to the range, NaN -> 0.
        assert_eq!(
            t.grf_ud(4).to_vec(),
            i(&[1, -1, i32::MAX, i32::MIN, 0, 0, 0, 100]),
            "{p}"
        );
        // .sat clamps floats to [0, 1] and NaN to 0.
        assert_eq!(t.grf_f(6), [1.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.0, 1.0], "{p}");
        // D -> UD keeps the bits; with .sat negative values clamp to 0.
        assert_eq!(
            t.grf_ud(7).to_vec(),
            i(&[-3, 0, 7, i32::MAX, 16777217, -1, 1, 2])
        );
        assert_eq!(
            t.grf_ud(8).to_vec(),
            i(&[0, 0, 7, i32::MAX, 16777217, 0, 1, 2])
        );
    }
}

#[test]
fn regions_strides_scalars_and_indirect() {
    for p in BOTH {
        let src = "
mov(8)          g10<1>UD        g2<4,2,2>UD                     { align1 1Q };
mov(8)          g11<1>UD        g2.3<0,1,0>UD                   { align1 1Q };
mov(4)          g12<2>UD        g3<4,4,1>UD                     { align1 1N };
mov(1)          g13<1>UD        g[a0]<0,1,0>UD                  { align1 WE_all 1N };
mov(8)          g14<1>UW        g2<16,8,2>UW                    { align1 1Q };
";
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf(2, 0, &(0..16).collect::<Vec<u32>>()).unwrap();
            t.set_grf(12, 0, &[0xdead; 8]).unwrap();
            t.set_grf(14, 0, &[0xffff_ffff; 8]).unwrap();
            t.set_a0(0, 2 * 32 + 5 * 4);
        });
        // <4;2,2>: rows of 2 elements 2 apart, rows 4 apart: 0 2 4 6 8 10 12 14.
        assert_eq!(t.grf_ud(10), [0, 2, 4, 6, 8, 10, 12, 14], "{p}");
        assert_eq!(t.grf_ud(11), [3; 8], "{p}");
        // Destination stride 2: every other dword, the rest untouched.
        assert_eq!(t.grf_ud(12), [8, 0xdead, 9, 0xdead, 10, 0xdead, 11, 0xdead]);
        // g[a0] with a0.0 = byte address of g2.5.
        assert_eq!(t.grf_ud(13)[0], 5);
        // <16;8,2>:UW picks the low words of the dwords 0..7; packed into 4 dwords.
        assert_eq!(
            t.grf_ud(14)[..4],
            [1 << 16, 2 | 3 << 16, 4 | 5 << 16, 6 | 7 << 16]
        );
        assert_eq!(t.grf_ud(14)[4], 0xffff_ffff);
    }
}

#[test]
fn align16_swizzle_and_writemask() {
    for p in ["ivb", "bdw"] {
        let src = "
mov(8)          g13<1>.xyF      g2<4>.wzyxF                     { align16 1Q };
mov(8)          g14<1>.wF       g2<0>.yF                        { align16 1Q };
";
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf_f32(2, 0, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
                .unwrap();
            t.set_grf_f32(13, 0, &[-1.0; 8]).unwrap();
        });
        assert_eq!(
            t.grf_f(13),
            [3.0, 2.0, -1.0, -1.0, 7.0, 6.0, -1.0, -1.0],
            "{p}"
        );
        // <0> vertical stride: both vec4s read the first vec4's y.
        assert_eq!(t.grf_f(14), [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], "{p}");
    }
}

#[test]
fn integer_arithmetic_logic_and_shifts() {
    for p in BOTH {
        let src = "
add(8)          g10<1>D         g2<8,8,1>D      g3<8,8,1>D      { align1 1Q };
mul(8)          g11<1>D         g2<8,8,1>D      -3D                { align1 1Q };
avg(8)          g12<1>D         g2<8,8,1>D      g3<8,8,1>D      { align1 1Q };
and(8)          g13<1>UD        g2<8,8,1>UD     0x0000000fUD    { align1 1Q };
or(8)           g14<1>UD        g2<8,8,1>UD     0x00000100UD    { align1 1Q };
xor(8)          g15<1>UD        g2<8,8,1>UD     g3<8,8,1>UD     { align1 1Q };
not(8)          g16<1>UD        g2<8,8,1>UD                     { align1 1Q };
shl(8)          g17<1>UD        g2<8,8,1>UD     0x00000004UD    { align1 1Q };
shr(8)          g18<1>UD        g2<8,8,1>UD     0x00000021UD    { align1 1Q };
asr(8)          g19<1>D         g2<8,8,1>D      0x00000001UD    { align1 1Q };
add.sat(8)      g20<1>UW        g2<8,8,1>D      g3<8,8,1>D      { align1 1Q };
";
        let a = [5, -7, 0x7fff_ffff, -1, 100, 3, -8, 0x1234];
        let b = [1, 2, 1, -1, -300, 4, 8, 0x10000];
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf(2, 0, &i(&a)).unwrap();
            t.set_grf(3, 0, &i(&b)).unwrap();
        });
        // 0x7fffffff + 1 wraps in a D destination.
        assert_eq!(
            t.grf_ud(10).to_vec(),
            i(&[6, -5, i32::MIN, -2, -200, 7, 0, 0x11234])
        );
        assert_eq!(
            t.grf_ud(11).to_vec(),
            i(&[-15, 21, -0x7fff_fffd, 3, -300, -9, 24, -0x369c])
        );
        // avg = (a + b + 1) >> 1 on the wide intermediate.
        assert_eq!(
            t.grf_ud(12).to_vec(),
            i(&[3, -2, 0x4000_0000, -1, -100, 4, 0, 0x891a])
        );
        assert_eq!(t.grf_ud(13), [5, 9, 15, 15, 4, 3, 8, 4]);
        assert_eq!(
            t.grf_ud(14).to_vec(),
            i(&[0x105, -7 | 0x100, 0x7fff_ffff, -1, 0x164, 0x103, -8, 0x1334])
        );
        assert_eq!(
            t.grf_ud(15).to_vec(),
            i(&[4, -7 ^ 2, 0x7fff_fffe, 0, 100 ^ -300, 7, -16, 0x11234])
        );
        assert_eq!(
            t.grf_ud(16).to_vec(),
            i(&[!5, 6, i32::MIN, 0, !100, !3, 7, !0x1234])
        );
        assert_eq!(
            t.grf_ud(17).to_vec(),
            i(&[80, -112, -16, -16, 1600, 48, -128, 0x12340])
        );
        // The shift count uses its low 5 bits: 0x21 shifts by 1 (logically for UD).
        assert_eq!(
            t.grf_ud(18).to_vec(),
            i(&[
                2,
                0x7fff_fffc,
                0x3fff_ffff,
                0x7fff_ffff,
                50,
                1,
                0x7fff_fffc,
                0x91a
            ])
        );
        assert_eq!(
            t.grf_ud(19).to_vec(),
            i(&[2, -4, 0x3fff_ffff, -1, 50, 1, -4, 0x91a])
        );
        // Saturating into UW: 6, 0 (negative), 65535 (too big), 0, 0, 7, 0, 65535.
        let w = t.grf_ud(20);
        assert_eq!(w[..4], [6, 0xffff, 0x7_0000, 0xffff_0000]);
    }
}

#[test]
fn bit_operations() {
    for p in BOTH {
        let src = "
bfrev(8)        g10<1>UD        g2<8,8,1>UD                     { align1 1Q };
cbit(8)         g11<1>UD        g2<8,8,1>UD                     { align1 1Q };
fbh(8)          g12<1>UD        g2<8,8,1>UD                     { align1 1Q };
fbh(8)          g13<1>D         g2<8,8,1>D                      { align1 1Q };
fbl(8)          g14<1>UD        g2<8,8,1>UD                     { align1 1Q };
lzd(8)          g15<1>UD        g2<8,8,1>UD                     { align1 1Q };
bfi1(8)         g16<1>UD        g3<8,8,1>UD     g4<8,8,1>UD     { align1 1Q };
";
        let a: [u32; 8] = [
            0,
            1,
            0x8000_0000,
            0xffff_ffff,
            0x0f0,
            0xffff_fff0,
            0x1234_5678,
            6,
        ];
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf(2, 0, &a).unwrap();
            t.set_grf(3, 0, &[0, 1, 4, 8, 31, 3, 16, 2]).unwrap();
            t.set_grf(4, 0, &[5, 0, 4, 24, 1, 30, 16, 1]).unwrap();
        });
        assert_eq!(
            t.grf_ud(10),
            [
                0,
                0x8000_0000,
                1,
                0xffff_ffff,
                0x0f00_0000,
                0x0fff_ffff,
                0x1e6a_2c48,
                0x6000_0000
            ]
        );
        assert_eq!(t.grf_ud(11), [0, 1, 1, 32, 4, 28, 13, 2]);
        // From the MSB: index of the first 1; all ones for 0.
        assert_eq!(t.grf_ud(12), [0xffff_ffff, 31, 0, 0, 24, 0, 3, 29]);
        // Signed: first bit differing from the sign; 0 and -1 have none.
        assert_eq!(
            t.grf_ud(13),
            [0xffff_ffff, 31, 1, 0xffff_ffff, 24, 28, 3, 29]
        );
        assert_eq!(t.grf_ud(14), [0xffff_ffff, 0, 31, 0, 4, 4, 3, 1]);
        assert_eq!(t.grf_ud(15), [32, 31, 0, 0, 24, 0, 3, 29]);
        // bfi1(width, offset) = ((1 << width) - 1) << offset.
        assert_eq!(
            t.grf_ud(16),
            [
                0,
                1,
                0xf0,
                0xff00_0000,
                0xffff_fffe,
                0xc000_0000,
                0xffff_0000,
                6
            ]
        );
    }
}

#[test]
fn three_source_bitfields_mad_lrp() {
    for p in BOTH {
        let src = "
bfe(8)          g10<1>UD        g2<4,4,1>UD     g3<4,4,1>UD     g4<4,4,1>UD { align16 1Q };
bfe(8)          g11<1>D         g2<4,4,1>D      g3<4,4,1>D      g4<4,4,1>D { align16 1Q };
bfi2(8)         g12<1>UD        g5<4,4,1>UD     g6<4,4,1>UD     g7<4,4,1>UD { align16 1Q };
mad(8)          g13<1>F         g8<4,4,1>F      g9<4,4,1>F      g20<4,4,1>F { align16 1Q };
lrp(8)          g14<1>F         g8<4,4,1>F      g9<4,4,1>F      g20<4,4,1>F { align16 1Q };
";
        let (t, _) = run(p, 8, src, |t| {
            // bfe(width, offset, value)
            t.set_grf(2, 0, &[4, 8, 0, 16, 1, 4, 31, 12]).unwrap();
            t.set_grf(3, 0, &[0, 4, 5, 16, 31, 28, 1, 20]).unwrap();
            t.set_grf(
                4,
                0,
                &[
                    0xabcd,
                    0xabcd,
                    0xffff,
                    0x8765_4321,
                    0x8000_0000,
                    0xf000_0000,
                    0xffff_ffff,
                    0xfff0_0000,
                ],
            )
            .unwrap();
            t.set_grf(5, 0, &[0xff00, 0, 0xffff_ffff, 0x0f0f_0f0f, 0, 0, 0, 0])
                .unwrap();
            t.set_grf(6, 0, &[0x1234, 0x1234, 0x1234, 0xaaaa_aaaa, 0, 0, 0, 0])
                .unwrap();
            t.set_grf(7, 0, &[0xabcd, 0xabcd, 0xabcd, 0x5555_5555, 0, 0, 0, 0])
                .unwrap();
            t.set_grf_f32(8, 0, &[1.0, 2.0, 0.5, 0.25, -1.0, 0.0, 3.0, 10.0])
                .unwrap();
            t.set_grf_f32(9, 0, &[2.0, 3.0, 4.0, 8.0, 2.0, 5.0, 0.5, 0.1])
                .unwrap();
            t.set_grf_f32(20, 0, &[3.0, 4.0, 8.0, 4.0, 1.0, 7.0, 2.0, 1.0])
                .unwrap();
        });
        assert_eq!(
            t.grf_ud(10),
            [0xd, 0xbc, 0, 0x8765, 1, 0xf, 0x7fff_ffff, 0xfff]
        );
        assert_eq!(
            t.grf_ud(11).to_vec(),
            i(&[-3, -68, 0, -30875, -1, -1, -1, -1])
        );
        assert_eq!(
            t.grf_ud(12),
            [0x12cd, 0xabcd, 0x1234, 0x5a5a_5a5a, 0, 0, 0, 0]
        );
        // mad = src0 + src1 * src2
        assert_eq!(t.grf_f(13), [7.0, 14.0, 32.5, 32.25, 1.0, 35.0, 4.0, 10.1]);
        // lrp = src0 * src1 + (1 - src0) * src2
        assert_eq!(t.grf_f(14), [2.0, 2.0, 6.0, 5.0, 0.0, 7.0, -2.5, -8.0]);
    }
}

#[test]
fn float_rounding_ops_math_and_cr0() {
    for p in BOTH {
        let src = "
frc(8)          g10<1>F         g2<8,8,1>F                      { align1 1Q };
rndd(8)         g11<1>F         g2<8,8,1>F                      { align1 1Q };
rnde(8)         g12<1>F         g2<8,8,1>F                      { align1 1Q };
rndz(8)         g13<1>F         g2<8,8,1>F                      { align1 1Q };
math inv(8)     g14<1>F         g3<8,8,1>F      null<8,8,1>F    { align1 1Q };
math sqrt(8)    g15<1>F         g3<8,8,1>F      null<8,8,1>F    { align1 1Q };
math pow(8)     g16<1>F         g3<8,8,1>F      g4<8,8,1>F      { align1 1Q };
math intdiv(8)  g17<1>D         g5<8,8,1>D      g6<8,8,1>D      { align1 1Q };
math intmod(8)  g18<1>D         g5<8,8,1>D      g6<8,8,1>D      { align1 1Q };
add(8)          g19<1>F         g7<8,8,1>F      g8<8,8,1>F      { align1 1Q };
";
        let tiny = 3.0 * 2f32.powi(-24);
        let setup = |t: &mut Thread| {
            t.set_grf_f32(2, 0, &[1.25, -1.25, 2.5, 3.5, -2.5, -0.5, 0.75, 7.0])
                .unwrap();
            t.set_grf_f32(3, 0, &[1.0, 4.0, 0.25, 16.0, 2.0, 64.0, 0.0, 9.0])
                .unwrap();
            t.set_grf_f32(4, 0, &[3.0, 0.5, 2.0, 0.25, 10.0, -0.5, 1.0, 2.0])
                .unwrap();
            t.set_grf(5, 0, &i(&[7, -7, 7, -7, 100, 0, 1, 5])).unwrap();
            t.set_grf(6, 0, &i(&[2, 2, -2, -2, 7, 3, 1, 10])).unwrap();
            t.set_grf_f32(7, 0, &[1.0, -1.0, 1.0, -1.0, 1.0, 1.0, 1.0, 1.0])
                .unwrap();
            t.set_grf_f32(8, 0, &[tiny, -tiny, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
                .unwrap();
        };
        let (t, _) = run(p, 8, src, setup);
        assert_eq!(t.grf_f(10), [0.25, 0.75, 0.5, 0.5, 0.5, 0.5, 0.75, 0.0]);
        assert_eq!(t.grf_f(11), [1.0, -2.0, 2.0, 3.0, -3.0, -1.0, 0.0, 7.0]);
        assert_eq!(t.grf_f(12), [1.0, -1.0, 2.0, 4.0, -2.0, -0.0, 1.0, 7.0]);
        assert_eq!(t.grf_f(13), [1.0, -1.0, 2.0, 3.0, -2.0, -0.0, 0.0, 7.0]);
        assert_eq!(
            t.grf_f(14),
            [
                1.0,
                0.25,
                4.0,
                0.0625,
                0.5,
                0.015625,
                f32::INFINITY,
                1.0 / 9.0
            ]
        );
        assert_eq!(
            t.grf_f(15),
            [1.0, 2.0, 0.5, 4.0, 2f32.sqrt(), 8.0, 0.0, 3.0]
        );
        assert_eq!(t.grf_f(16)[..6], [1.0, 2.0, 0.0625, 2.0, 1024.0, 0.125]);
        // C-style truncating division.
        assert_eq!(t.grf_ud(17).to_vec(), i(&[3, -3, -3, 3, 14, 0, 1, 0]));
        assert_eq!(t.grf_ud(18).to_vec(), i(&[1, -1, 1, -1, 2, 0, 0, 5]));
        // 1 + 1.5 ulp rounds to nearest even: 1 + 2 ulp.
        assert_eq!(t.grf_f(19)[0], 1.0 + 2.0 * 2f32.powi(-23));
        assert_eq!(t.grf_f(19)[1], -(1.0 + 2.0 * 2f32.powi(-23)));

        // cr0 bits 5:4 = 3: round toward zero; = 1: toward +inf; = 2: toward -inf.
        for (mode, pos, neg) in [(3u32, 1.0, -1.0), (1, 2.0, -1.0), (2, 1.0, -2.0)] {
            let (t, _) = run(p, 8, src, |t| {
                setup(t);
                t.set_cr0(mode << 4);
            });
            let ulp = 2f32.powi(-23);
            assert_eq!(t.grf_f(19)[0], 1.0 + pos * ulp, "{p} mode {mode}");
            assert_eq!(t.grf_f(19)[1], -(1.0 - neg * ulp), "{p} mode {mode}");
        }
    }
}

#[test]
fn single_precision_denormals_follow_cr0() {
    let src = "add(8)          g10<1>F         g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };";
    let den = f32::from_bits(0x0000_0100);
    for (cr0, expect) in [(0u32, 0.0f32), (1 << 7, den * 2.0)] {
        let (t, _) = run("bdw", 8, src, |t| {
            t.set_grf_f32(2, 0, &[den; 8]).unwrap();
            t.set_grf_f32(3, 0, &[den; 8]).unwrap();
            t.set_cr0(cr0);
        });
        assert_eq!(t.grf_f(10)[0], expect, "cr0 {cr0:#x}");
    }
}

#[test]
fn compare_select_predicate_flags() {
    for p in BOTH {
        let src = "
cmp.l.f0.0(8)   g10<1>F         g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };
(+f0.0) sel(8)  g11<1>F         g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };
sel.ge(8)       g12<1>F         g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };
(-f0.0) mov(8)  g13<1>F         0x3f800000F                     { align1 1Q };
cmp.z.f1.0(8)   null<1>D        g4<8,8,1>D      0D              { align1 1Q };
add.g.f0.1(8)   g14<1>D         g4<8,8,1>D      -2D             { align1 1Q };
";
        let nan = f32::NAN;
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf_f32(2, 0, &[1.0, 5.0, -2.0, 3.0, nan, 0.0, 2.0, -1.0])
                .unwrap();
            t.set_grf_f32(3, 0, &[2.0, 4.0, -2.0, nan, 1.0, -0.0, 3.0, -3.0])
                .unwrap();
            t.set_grf(4, 0, &i(&[0, 1, 2, 3, 0, -5, 0, 7])).unwrap();
            t.set_grf_f32(13, 0, &[9.0; 8]).unwrap();
        });
        // Unordered compares are false; -0 == 0.
        let lt = [true, false, false, false, false, false, true, false];
        let flag: u32 = lt.iter().enumerate().map(|(k, b)| (*b as u32) << k).sum();
        assert_eq!(t.flag(0) & 0xffff, flag, "{p}");
        assert_eq!(
            t.grf_ud(10).to_vec(),
            lt.iter()
                .map(|b| if *b { u32::MAX } else { 0 })
                .collect::<Vec<_>>()
        );
        // Predicated sel picks src0 where the flag is set, src1 elsewhere (all channels written).
        assert_eq!(t.grf_f(11)[..3], [1.0, 4.0, -2.0]);
        assert!(t.grf_f(11)[3].is_nan());
        // sel.ge is max; a NaN operand yields the other one.
        assert_eq!(t.grf_f(12), [2.0, 5.0, -2.0, 3.0, 1.0, 0.0, 3.0, -1.0]);
        // -f0.0: channels where the compare failed.
        assert_eq!(t.grf_f(13), [9.0, 1.0, 1.0, 1.0, 1.0, 1.0, 9.0, 1.0]);
        assert_eq!(t.flag(1) & 0xff, 0b0101_0001);
        // add.g writes its result and sets f0.1 where result > 0: 3-2, 7-2.
        assert_eq!((t.flag(0) >> 16) & 0xff, 0b1000_1000);
        assert_eq!(t.grf_ud(14).to_vec(), i(&[-2, -1, 0, 1, -2, -7, -2, 5]));
    }
}

#[test]
fn dot_products_and_plane_interpolation() {
    for p in BOTH {
        let src = "
dp4(8)          g10<1>F         g2<4>F          g3<4>F          { align16 1Q };
dp3(8)          g11<1>.xF       g2<4>F          g3<4>F          { align16 1Q };
dph(8)          g12<1>F         g2<4>F          g3<4>F          { align16 1Q };
dp2(8)          g13<1>F         g2<4>F          g3<4>F          { align16 1Q };
pln(8)          g14<1>F         g4<0,1,0>F      g5<8,8,1>F      { align1 1Q };
pln(16)         g16<1>F         g4<0,1,0>F      g20<8,8,1>F     { align1 1H };
line(8)         g18<1>F         g4<0,1,0>F      g5<8,8,1>F      { align1 1Q };
";
        let (t, _) = run(p, 16, src, |t| {
            t.set_grf_f32(2, 0, &[1.0, 2.0, 3.0, 4.0, -1.0, 0.5, 2.0, 1.0])
                .unwrap();
            t.set_grf_f32(3, 0, &[5.0, 6.0, 7.0, 8.0, 2.0, 4.0, 1.0, 10.0])
                .unwrap();
            t.set_grf_f32(11, 0, &[-9.0; 8]).unwrap();
            // plane a, b, (unused), c
            t.set_grf_f32(4, 0, &[2.0, 3.0, 99.0, 0.5]).unwrap();
            // SIMD8: u in g5, v in g6
            t.set_grf_f32(5, 0, &[0.0, 1.0, 0.0, 1.0, 0.5, 0.25, 2.0, -1.0])
                .unwrap();
            t.set_grf_f32(6, 0, &[0.0, 0.0, 1.0, 1.0, 0.5, 0.75, 1.0, 1.0])
                .unwrap();
            // SIMD16: u0-7 g20, v0-7 g21, u8-15 g22, v8-15 g23
            t.set_grf_f32(20, 0, &[1.0; 8]).unwrap();
            t.set_grf_f32(21, 0, &[0.0; 8]).unwrap();
            t.set_grf_f32(22, 0, &[0.0; 8]).unwrap();
            t.set_grf_f32(23, 0, &[1.0; 8]).unwrap();
        });
        assert_eq!(
            t.grf_f(10),
            [70.0, 70.0, 70.0, 70.0, 12.0, 12.0, 12.0, 12.0],
            "{p}"
        );
        assert_eq!(t.grf_f(11), [38.0, -9.0, -9.0, -9.0, 2.0, -9.0, -9.0, -9.0]);
        assert_eq!(
            t.grf_f(12),
            [46.0; 4]
                .iter()
                .chain([12.0; 4].iter())
                .copied()
                .collect::<Vec<_>>()[..]
        );
        assert_eq!(t.grf_f(13), [17.0, 17.0, 17.0, 17.0, 0.0, 0.0, 0.0, 0.0]);
        // 2u + 3v + 0.5
        assert_eq!(t.grf_f(14), [0.5, 2.5, 3.5, 5.5, 3.0, 3.25, 7.5, 1.5]);
        assert_eq!(t.grf_f(16), [2.5; 8]);
        assert_eq!(t.grf_f(17), [3.5; 8]);
        // line: a * u + c
        assert_eq!(t.grf_f(18), [0.5, 2.5, 0.5, 2.5, 1.5, 1.0, 4.5, -1.5]);
    }
}

#[test]
fn half_float_conversions() {
    let src = "
f32to16(8)      g10<2>W         g2<8,8,1>F                      { align1 1Q };
f16to32(8)      g11<1>F         g10<16,8,2>UW                   { align1 1Q };
";
    for p in ["ivb", "hsw"] {
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf_f32(2, 0, &[1.0, -2.0, 0.5, 65504.0, 1e6, 0.1, 0.0, -0.0])
                .unwrap();
        });
        let halves: Vec<u32> = t.grf_ud(10).iter().map(|d| d & 0xffff).collect();
        // IEEE half bit patterns: 1.0 = 0x3c00, -2 = 0xc000, 0.5 = 0x3800, max = 0x7bff,
        // overflow = inf 0x7c00, 0.1 ≈ 0x2e66.
        assert_eq!(
            halves,
            [0x3c00, 0xc000, 0x3800, 0x7bff, 0x7c00, 0x2e66, 0, 0x8000]
        );
        let back = t.grf_f(11);
        assert_eq!(back[..5], [1.0, -2.0, 0.5, 65504.0, f32::INFINITY]);
        assert_eq!(back[5], 0.099975586);
    }
}

#[test]
fn vector_immediates() {
    let src = "
mov(8)          g10<1>W         0x76543210V                     { align1 1Q };
mov(8)          g11<1>F         0x30003000VF                    { align16 1Q };
add(8)          g12<1>D         g2<8,8,1>D      0xfedc3210V     { align1 1Q };
";
    let (t, _) = run("bdw", 8, src, |t| {
        t.set_grf(2, 0, &[100; 8]).unwrap();
    });
    assert_eq!(
        t.grf_ud(10)[..4],
        [0x0001_0000, 0x0003_0002, 0x0005_0004, 0x0007_0006]
    );
    assert_eq!(t.grf_f(11), [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]);
    // Signed nibbles: 0 1 2 3 c=-4 d=-3 e=-2 f=-1.
    assert_eq!(
        t.grf_ud(12).to_vec(),
        i(&[100, 101, 102, 103, 96, 97, 98, 99])
    );
}

/// MUL into the accumulator then MACH: the 64-bit product's high half, in the form each
/// generation needs. Gen7's multiplier is 32x16, so the MUL takes a dword src1's low word by
/// itself; Gen8+ multiplies all 32 bits, so the MUL reads src1 as words at twice the stride
/// (as brw writes it).
#[test]
fn mul_mach_addc_and_accumulator() {
    let gen7 = "
mul(8)          acc0<1>D        g2<8,8,1>D      g3<8,8,1>D      { align1 1Q };
mach(8)         g10<1>D         g2<8,8,1>D      g3<8,8,1>D      { align1 1Q AccWrEnable };
addc(8)         g11<1>UD        g4<8,8,1>UD     g5<8,8,1>UD     { align1 1Q AccWrEnable };
mov(8)          g12<1>UD        acc0<8,8,1>UD                   { align1 1Q };
";
    let gen8 = gen7.replace(
        "g3<8,8,1>D      { align1 1Q };",
        "g3<16,8,2>UW     { align1 1Q };",
    );
    for p in BOTH {
        let src = if p == "ivb" || p == "hsw" {
            gen7
        } else {
            &gen8
        };
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf(2, 0, &i(&[0x4000_0000, -1, 3, i32::MIN, 0x10000, 7, -3, 1]))
                .unwrap();
            t.set_grf(3, 0, &i(&[8, 5, 4, i32::MIN, 0x10000, -7, -3, 1]))
                .unwrap();
            t.set_grf(4, 0, &[0xffff_ffff, 1, 0x8000_0000, 0, 5, 6, 7, 8])
                .unwrap();
            t.set_grf(5, 0, &[1, 1, 0x8000_0000, 0, 5, 6, 7, 8])
                .unwrap();
        });
        // High 32 bits of the 64-bit products: 2^33, -5, 12, 2^62, 2^32, -49, 9, 1.
        assert_eq!(
            t.grf_ud(10).to_vec(),
            i(&[2, -1, 0, 0x4000_0000, 1, -1, 0, 0]),
            "{p}"
        );
        assert_eq!(t.grf_ud(11), [0, 2, 0, 0, 10, 12, 14, 16]);
        // The carries.
        assert_eq!(t.grf_ud(12), [1, 0, 1, 0, 0, 0, 0, 0]);
    }
}

/// The Gen7 form on Gen8+ puts the whole 32x32 product in the accumulator, and MACH adds the
/// high word's product a second time: 0x10000 * 0x10001 = 0x1_0001_0000 (high half 1)
/// comes out as (0x1_0001_0000 + 0x10000 * 1 << 16) >> 32 = 2.
#[test]
fn gen7_mul_form_on_gen8_counts_the_high_word_twice() {
    let src = "
mul(8)          acc0<1>UD       g2<8,8,1>UD     g3<8,8,1>UD     { align1 1Q };
mach(8)         g10<1>UD        g2<8,8,1>UD     g3<8,8,1>UD     { align1 1Q };
";
    for (p, want) in [("ivb", 1), ("hsw", 1), ("bdw", 2), ("skl", 2)] {
        let (t, _) = run(p, 8, src, |t| {
            t.set_grf(2, 0, &[0x10000; 8]).unwrap();
            t.set_grf(3, 0, &[0x10001; 8]).unwrap();
        });
        assert_eq!(t.grf_ud(10), [want; 8], "{p}");
    }
}

/// MACH builds on the partial product a MUL left in the accumulator: without one (nothing
/// written, or the accumulator overwritten by a MOV since) there is nothing to build on.
/// SIMD16 MACH needs more than the 8 full-precision dwords, and an Ivy Bridge MACH with
/// second-quarter control reads acc1, which holds no integers there (brw computes those
/// channels at 1Q with WE_all); Haswell's reads acc0.
#[test]
fn mach_needs_the_mul_partial_product_in_acc0() {
    let fails = |p: &str, simd: u32, src: &str, needle: &str| {
        let d = dev(p);
        let insts = eu::assemble(d, src).unwrap();
        let mut t = Thread::new(d, simd).unwrap();
        let err = t.run(&insts).unwrap_err().to_string();
        assert!(err.contains(needle), "{p}: {err}");
    };
    let mach = "mach(8)         g10<1>UD        g2<8,8,1>UD     g3<8,8,1>UD     { align1 1Q };
";
    fails("bdw", 8, mach, "no integer MUL");
    let overwritten = "
mul(8)          acc0<1>UD       g2<8,8,1>UD     g3<16,8,2>UW    { align1 1Q };
mov(8)          acc0<1>UD       g2<8,8,1>UD                     { align1 1Q };
"
    .to_string()
        + mach;
    fails("skl", 8, &overwritten, "no integer MUL");
    let wide = "
mul(16)         acc0<1>UD       g2<8,8,1>UD     g4<8,8,1>UD     { align1 1H };
mach(16)        g10<1>UD        g2<8,8,1>UD     g4<8,8,1>UD     { align1 1H };
";
    fails("hsw", 16, wide, "8 dwords");
    let second = "
mul(8)          acc0<1>UD       g2<8,8,1>UD     g3<8,8,1>UD     { align1 2Q };
mach(8)         g10<1>UD        g2<8,8,1>UD     g3<8,8,1>UD     { align1 2Q };
";
    fails("ivb", 16, second, "acc1");
    let (t, _) = run("hsw", 16, second, |t| {
        t.set_grf(2, 0, &[0xffff_ffff; 8]).unwrap();
        t.set_grf(3, 0, &[0xffff_ffff; 8]).unwrap();
    });
    assert_eq!(t.grf_ud(10), [0xffff_fffe; 8]);
}

#[test]
fn csel_min_and_cmpn() {
    let src = "
csel.l(8)       g10<1>F         g2<4,4,1>F      g3<4,4,1>F      g4<4,4,1>F { align16 1Q };
sel.l(8)        g11<1>F         g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };
cmpn.l.f0.0(8)  null<1>F        g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };
";
    let nan = f32::NAN;
    let (t, _) = run("bdw", 8, src, |t| {
        t.set_grf_f32(2, 0, &[1.0, 2.0, nan, 4.0, 5.0, 6.0, 7.0, 8.0])
            .unwrap();
        t.set_grf_f32(3, 0, &[9.0, 1.0, 3.0, nan, 5.0, 0.0, 7.5, -8.0])
            .unwrap();
        t.set_grf_f32(4, 0, &[-1.0, 1.0, -0.5, 0.0, -2.0, 2.0, -3.0, 3.0])
            .unwrap();
    });
    // csel: src2 < 0 ? src0 : src1.
    let c = t.grf_f(10);
    assert_eq!(
        [c[0], c[1], c[4], c[5], c[6], c[7]],
        [1.0, 1.0, 5.0, 0.0, 7.0, -8.0]
    );
    assert!(c[2].is_nan() && c[3].is_nan());
    // sel.l is min; a NaN operand yields the other.
    assert_eq!(t.grf_f(11), [1.0, 1.0, 3.0, 4.0, 5.0, 0.0, 7.0, -8.0]);
    // cmpn: a NaN src1 compares true, a NaN src0 false.
    assert_eq!(t.flag(0) & 0xff, 0b0100_1001);
}

#[test]
fn predicate_groups_and_channel_groups() {
    let src = "
(+f0.0.any4h) mov(8) g10<1>UD   0x00000001UD                    { align1 1Q };
(+f0.0.all4h) mov(8) g11<1>UD   0x00000001UD                    { align1 1Q };
(+f0.0.x) mov(8) g12<1>UD       0x00000001UD                    { align16 1Q };
(-f0.0) mov(8)  g13<1>UD        0x00000001UD                    { align1 2Q };
mov(4)          g14<1>UD        0x00000001UD                    { align1 2N };
";
    for p in ["ivb", "bdw"] {
        let (t, _) = run(p, 16, src, |t| {
            // Channels 0-7: 0b1111_0010; channels 8-15: 0b0000_1111.
            t.set_flag(0, 0x0ff2);
            t.set_dispatch_mask(0b1101_1111_1111_1111);
        });
        // any4h: groups 0-3 (one set) and 4-7 (all set).
        assert_eq!(t.grf_ud(10), [1; 8], "{p}");
        assert_eq!(t.grf_ud(11), [0, 0, 0, 0, 1, 1, 1, 1], "{p}");
        // .x replicates the first flag bit of each group of four.
        assert_eq!(t.grf_ud(12), [0, 0, 0, 0, 1, 1, 1, 1], "{p}");
        // 2Q covers channels 8-15: inverted flags 8-11 set -> 12-15 run, but 13 is not dispatched.
        assert_eq!(t.grf_ud(13), [0, 0, 0, 0, 1, 0, 1, 1], "{p}");
        // 2N: channels 4-7.
        assert_eq!(t.grf_ud(14)[..4], [1; 4], "{p}");
    }
}
