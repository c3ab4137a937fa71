//! The Gen7 compressed-instruction execution-mask hazard of shared/seeds/002.
//!
//! Pre-Gen8 EUs hand the second GRF write of a compressed instruction the execution-mask
//! signals of QtrCtrl+1 (channels 8 and up) even when a GRF holds only 4 channels, so
//! `mov(16) g2<2>:UD g4<2>:UD` writes channels 4–7 under the enables of channels 8–11. Split
//! into SIMD4 parts that each write one GRF, every part gets its own channels' enables.

use gpucc::intel::eu;
use gpucc::intel::sim::{RunResult, Thread};
use gpucc::intel::DevInfo;

/// Channels 0–5 take the branch (x < 0), channels 6–15 do not.
fn xs() -> Vec<f32> {
    (0..16).map(|c| if c < 6 { -1.0 } else { 1.0 }).collect()
}

fn program(body: &str) -> String {
    format!(
        "
cmp.l.f0.0(16)  null<1>F        g20<8,8,1>F     0x0F            {{ align1 1H }};
(+f0.0) if(16)  JIP: LABEL1          UIP: LABEL1                {{ align1 1H }};
{body}
LABEL1:
endif(16)       JIP: LABEL2                                     {{ align1 1H }};
LABEL2:
mov(8)          g30<1>UD        0x00000001UD                    {{ align1 WE_all 1Q }};
"
    )
}

const COMPRESSED: &str =
    "mov(16)         g2<2>UD         g4<8,4,2>UD                     { align1 1H };";

const SPLIT: &str = "
mov(4)          g2<2>UD         g4<8,4,2>UD                     { align1 1N };
mov(4)          g3<2>UD         g5<8,4,2>UD                     { align1 2N };
mov(4)          g4<2>UD         g6<8,4,2>UD                     { align1 3N };
mov(4)          g5<2>UD         g7<8,4,2>UD                     { align1 4N };
";

fn run(p: &str, body: &str) -> (Thread, RunResult) {
    let d = DevInfo::from_name(p).unwrap();
    let insts = eu::assemble(d, &program(body)).unwrap();
    let mut t = Thread::new(d, 16).unwrap();
    t.set_grf_f32(20, 0, &xs()).unwrap();
    for r in 2..8u32 {
        // Destination registers hold 0xdd; source dword k of register r holds 100 * r + k.
        let v: Vec<u32> = (0..8)
            .map(|k| if r < 4 { 0xdd } else { 100 * r + k })
            .collect();
        t.set_grf(r, 0, &v).unwrap();
    }
    let res = t.run(&insts).unwrap();
    (t, res)
}

/// Channel c of the move writes dword 2·(c % 4) of register 2 + c / 4, from dword 2·(c % 4)
/// of register 4 + c / 4 (as the registers were before the instruction).
fn written(t: &Thread, before: &[[u32; 8]]) -> Vec<bool> {
    (0..16)
        .map(|c| {
            let reg = 2 + c / 4;
            let dw = 2 * (c % 4);
            let src = 100 * (4 + c / 4) as u32 + dw as u32;
            let now = t.grf_ud(reg as u32)[dw];
            assert!(
                now == src || now == before[reg - 2][dw],
                "channel {c}: {now}"
            );
            now == src && now != before[reg - 2][dw]
        })
        .collect()
}

fn before() -> Vec<[u32; 8]> {
    (2..6u32)
        .map(|r| {
            let mut a = [0u32; 8];
            for (k, v) in a.iter_mut().enumerate() {
                *v = if r < 4 { 0xdd } else { 100 * r + k as u32 };
            }
            a
        })
        .collect()
}

#[test]
fn right_enables() {
    let right: Vec<bool> = (0..16).map(|c| c < 6).collect();
    // Split form: right everywhere, no hazard.
    for p in ["ivb", "hsw", "bdw", "skl"] {
        let (t, r) = run(p, SPLIT);
        assert_eq!(written(&t, &before()), right, "{p} split");
        assert!(!r.has_diagnostic("hazard"), "{p}: {:?}", r.diagnostics);
        assert_eq!(t.grf_ud(30)[0], 1);
    }
    // Gen8+: the compressed form is right too.
    for p in ["bdw", "skl"] {
        let (t, r) = run(p, COMPRESSED);
        assert_eq!(written(&t, &before()), right, "{p} compressed");
        assert!(!r.has_diagnostic("hazard"));
    }
}

#[test]
fn gen7_compressed_move_gets_the_wrong_enables_and_a_diagnostic() {
    for p in ["ivb", "hsw"] {
        let (t, r) = run(p, COMPRESSED);
        let w = written(&t, &before());
        // First GRF (channels 0–3): its own enables, written.
        assert_eq!(w[..4], [true; 4], "{p}");
        // Second GRF (channels 4–7) uses QtrCtrl+1's enables, channels 8–11: all off, so
        // channels 4 and 5, which should be written, are not.
        assert_eq!(w[4..8], [false; 4], "{p}");
        // The model's continuation (the group index wraps in the 16-channel instruction):
        // channels 8–11 take channels 0–3's enables and are wrongly written.
        assert_eq!(w[8..12], [true; 4], "{p}");
        assert_eq!(w[12..16], [false; 4], "{p}");
        assert!(r.has_diagnostic("hazard"), "{p}: {:?}", r.diagnostics);
        assert!(r.has_diagnostic("wrong channel enables were applied"));
    }
}

#[test]
fn uniform_control_flow_hides_the_hazard_but_it_is_still_reported() {
    let d = DevInfo::from_name("hsw").unwrap();
    let insts = eu::assemble(d, COMPRESSED).unwrap();
    let mut t = Thread::new(d, 16).unwrap();
    t.set_grf(4, 0, &[1, 0, 2, 0, 3, 0, 4, 0]).unwrap();
    t.set_grf(5, 0, &[5, 0, 6, 0, 7, 0, 8, 0]).unwrap();
    t.set_grf(6, 0, &[9, 0, 10, 0, 11, 0, 12, 0]).unwrap();
    t.set_grf(7, 0, &[13, 0, 14, 0, 15, 0, 16, 0]).unwrap();
    let r = t.run(&insts).unwrap();
    assert_eq!(t.grf_ud(2), [1, 0, 2, 0, 3, 0, 4, 0]);
    assert_eq!(t.grf_ud(3), [5, 0, 6, 0, 7, 0, 8, 0]);
    assert!(r.has_diagnostic("hazard"));
    assert!(!r.has_diagnostic("wrong channel enables were applied"));
}

/// DF execution type: Haswell steps by 4 channels (NibCtrl+1), which is right for 4 DF
/// channels per GRF; Ivy Bridge hands both halves the first half's enables.
#[test]
fn double_precision_moves_differ_between_ivb_and_hsw() {
    let src = "
cmp.l.f0.0(8)   null<1>F        g20<8,8,1>F     0x0F            { align1 1Q };
(+f0.0) if(8)   JIP: LABEL1          UIP: LABEL1                { align1 1Q };
mov(8)          g2<1>DF         g4<4,4,1>DF                     { align1 1Q };
LABEL1:
endif(8)        JIP: LABEL2                                     { align1 1Q };
LABEL2:
";
    let xs = [-1.0f32, 1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0];
    let exp = |p: &str| {
        let d = DevInfo::from_name(p).unwrap();
        let insts = eu::assemble(d, src).unwrap();
        let mut t = Thread::new(d, 8).unwrap();
        t.set_grf_f32(20, 0, &xs).unwrap();
        let vals: Vec<u32> = (0..16).map(|k| 1000 + k).collect();
        t.set_grf(4, 0, &vals).unwrap();
        let r = t.run(&insts).unwrap();
        let mut out = t.grf_ud(2).to_vec();
        out.extend(t.grf_ud(3));
        let chans: Vec<bool> = (0..8).map(|c| out[2 * c] == 1000 + 2 * c as u32).collect();
        (chans, r)
    };
    let (hsw, r) = exp("hsw");
    assert_eq!(hsw, [true, false, false, false, true, true, false, false]);
    assert!(!r.has_diagnostic("hazard"));
    // Ivy Bridge: channels 4-7 use channels 0-3's enables.
    let (ivb, r) = exp("ivb");
    assert_eq!(ivb, [true, false, false, false, true, false, false, false]);
    assert!(r.has_diagnostic("hazard"));
}
