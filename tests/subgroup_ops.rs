//! Subgroup operations (`reduce`, `first_invocation`, `read_first_invocation`) under
//! divergent control flow: hand-written fragment and compute shaders whose results are
//! worked out by hand for each thread width, checked first on the reference interpreter
//! (told the width, as the Intel checks tell it) and then on the simulator against the
//! interpreter for every platform and width (`verify`: outputs and SSBO contents).
//!
//! Only the even channels of each thread take the branch, so a reduction sees half the
//! channels and the first enabled channel is 0; on the other side it is 1.

use gpucc::intel::backend::{verify, Context, VerifyOutcome};
use gpucc::intel::DevInfo;
use gpucc::nir::{self, interp};

const PLATFORMS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

/// A fragment shader: even channels write (count, max channel, sum of channels, first
/// channel) and bump SSBO dword 0 by the count once per thread; odd channels write (min
/// channel, first channel, the read-first of the channel index, 1.0).
const FS: &str = r#"shader: MESA_SHADER_FRAGMENT
name: subgroup
inputs: 0
outputs: 1
uniforms: 0
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = @load_subgroup_invocation () ()
    32    %3 = iand %2, %1
    32    %4 = ieq32 %3, %0
    32    %5 = @decl_reg () (num_components=4, num_array_elems=0, bit_size=32, divergent=1)
    // succs: b1 b5
    if %4 {
        block b1:  // preds: b0
        32    %6 = @reduce (%1) (reduction_op=iadd, cluster_size=0, include_helpers=0)
        32    %7 = @reduce (%2) (reduction_op=imax, cluster_size=0, include_helpers=0)
        32    %8 = u2f32 %2
        32    %9 = @reduce (%8) (reduction_op=fadd, cluster_size=0, include_helpers=0)
        32    %10 = @first_invocation () ()
        32    %11 = ieq32 %2, %10
        // succs: b2 b3
        if %11 {
            block b2:  // preds: b1
            32    %12 = @ssbo_atomic (%0, %0, %6) (access=none, atomic_op=iadd)
            // succs: b4
        } else {
            block b3:  // preds: b1
            // succs: b4
        }
        block b4:  // preds: b2 b3
        32    %13 = u2f32 %6
        32    %14 = u2f32 %7
        32    %15 = u2f32 %10
        32x4  %16 = vec4 %13, %14, %9, %15
        @store_reg (%16, %5) (base=0, wrmask=xyzw, legacy_fsat=0)
        // succs: b6
    } else {
        block b5:  // preds: b0
        32    %17 = @reduce (%2) (reduction_op=umin, cluster_size=0, include_helpers=0)
        32    %18 = @first_invocation () ()
        32    %19 = @read_first_invocation (%2) ()
        32    %20 = u2f32 %17
        32    %21 = u2f32 %18
        32    %22 = u2f32 %19
        32    %23 = load_const (0x3f800000)
        32x4  %24 = vec4 %20, %21, %22, %23
        @store_reg (%24, %5) (base=0, wrmask=xyzw, legacy_fsat=0)
        // succs: b6
    }
    block b6:  // preds: b4 b5
    32x4  %25 = @load_reg (%5) (base=0, legacy_fabs=0, legacy_fneg=0)
    @store_output (%25, %0) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b7
    block b7:
}
"#;

/// A compute shader of 32 invocations: the even channels of each thread bump SSBO dword 0
/// by their count once per thread, and each stores, at dword 4 + 4 × its local index, the
/// thread's (max channel, min local index, sum of local indices as a float, OR of
/// 1 << channel), and at dword 132 + local index the AND of ~(1 << channel) XOR'd with
/// the XOR of the channels.
fn cs() -> String {
    r#"shader: MESA_SHADER_COMPUTE
name: subgroup
workgroup_size: 32, 1, 1
shared_size: 0
inputs: 0
outputs: 0
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = @load_subgroup_invocation () ()
    32    %3 = @load_local_invocation_index () ()
    32    %4 = iand %2, %1
    32    %5 = ieq32 %4, %0
    // succs: b1 b5
    if %5 {
        block b1:  // preds: b0
        32    %6 = @reduce (%1) (reduction_op=iadd, cluster_size=0, include_helpers=0)
        32    %7 = @first_invocation () ()
        32    %8 = ieq32 %2, %7
        // succs: b2 b3
        if %8 {
            block b2:  // preds: b1
            32    %9 = @ssbo_atomic (%0, %0, %6) (access=none, atomic_op=iadd)
            // succs: b4
        } else {
            block b3:  // preds: b1
            // succs: b4
        }
        block b4:  // preds: b2 b3
        32    %10 = @reduce (%2) (reduction_op=imax, cluster_size=0, include_helpers=0)
        32    %11 = @reduce (%3) (reduction_op=umin, cluster_size=0, include_helpers=0)
        32    %12 = u2f32 %3
        32    %13 = @reduce (%12) (reduction_op=fadd, cluster_size=0, include_helpers=0)
        32    %14 = ishl %1, %2
        32    %15 = @reduce (%14) (reduction_op=ior, cluster_size=0, include_helpers=0)
        32    %16 = inot %14
        32    %17 = @reduce (%16) (reduction_op=iand, cluster_size=0, include_helpers=0)
        32    %18 = @reduce (%2) (reduction_op=ixor, cluster_size=0, include_helpers=0)
        32    %19 = ixor %17, %18
        32    %20 = load_const (0x00000010)
        32    %21 = imul %3, %20
        32    %22 = iadd %21, %20
        32x4  %23 = vec4 %10, %11, %13, %15
        @store_ssbo (%23, %0, %22) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
        32    %24 = load_const (0x00000004)
        32    %25 = imul %3, %24
        32    %26 = load_const (0x00000210)
        32    %27 = iadd %25, %26
        @store_ssbo (%19, %0, %27) (wrmask=x, access=none, align_mul=4, align_offset=0)
        // succs: b6
    } else {
        block b5:  // preds: b0
        // succs: b6
    }
    block b6:  // preds: b4 b5
    // succs: b7
    block b7:
}
"#
    .to_string()
}

/// [`FS`] without its SSBO atomic (SIMD32 fragment shaders take no data-port messages).
fn fs_without_counter() -> String {
    let atomic = "@ssbo_atomic (%0, %0, %6) (access=none, atomic_op=iadd)";
    assert!(FS.contains(atomic));
    FS.replace(atomic, "iadd %6, %1")
}

fn f(v: u32) -> u64 {
    u64::from((v as f32).to_bits())
}

#[test]
fn fragment_reductions_worked_out_by_hand_on_the_interpreter() {
    let shader = nir::parse(FS).expect("parses");
    for w in [8u32, 16, 32] {
        let env = interp::Environment {
            simd_width: w,
            ssbos: vec![vec![0; 16]],
            ..Default::default()
        };
        let r = interp::run(&shader, &env, w as usize).expect("runs");
        let half = w / 2;
        for (c, inv) in r.invocations.iter().enumerate() {
            let out = inv.outputs.values().next().expect("a colour");
            let got: Vec<u64> = out.comps[..4].iter().map(|v| v.unwrap()).collect();
            let want = if c % 2 == 0 {
                // Count, max even channel, sum of the even channels, first channel 0.
                vec![f(half), f(w - 2), f(half * (half - 1)), f(0)]
            } else {
                // Min odd channel 1, first channel 1, channel 1's index, 1.0.
                vec![f(1), f(1), f(1), f(1)]
            };
            assert_eq!(got, want, "SIMD{w} channel {c}");
        }
        assert_eq!(r.ssbos[0][..4], half.to_le_bytes(), "SIMD{w} counter");
    }
}

#[test]
fn compute_reductions_worked_out_by_hand_on_the_interpreter() {
    let shader = nir::parse(&cs()).expect("parses");
    for w in [8u32, 16] {
        let env = interp::Environment {
            simd_width: w,
            workgroup_size: [32, 1, 1],
            ssbos: vec![vec![0; 4 * (132 + 32)]],
            ..Default::default()
        };
        let r = interp::run(&shader, &env, 32).expect("runs");
        let dword = |d: usize| u32::from_le_bytes(r.ssbos[0][4 * d..4 * d + 4].try_into().unwrap());
        // 16 of the 32 invocations are even channels, whatever the width.
        assert_eq!(dword(0), 16, "SIMD{w} counter");
        let half = w / 2;
        let evens = (0..w).step_by(2).fold(0u32, |m, c| m | 1 << c);
        let xor = (0..w).step_by(2).fold(0u32, |m, c| m ^ c);
        for li in 0..32u32 {
            let (t, c) = (li / w, li % w);
            let at = 4 + 4 * li as usize;
            if c % 2 == 1 {
                assert_eq!(dword(at), 0, "SIMD{w} invocation {li} stores nothing");
                continue;
            }
            let sum = half * t * w + half * (half - 1);
            assert_eq!(dword(at), w - 2, "SIMD{w} {li} imax");
            assert_eq!(dword(at + 1), t * w, "SIMD{w} {li} umin");
            assert_eq!(dword(at + 2), (sum as f32).to_bits(), "SIMD{w} {li} fadd");
            assert_eq!(dword(at + 3), evens, "SIMD{w} {li} ior");
            assert_eq!(
                dword(132 + li as usize),
                !evens ^ xor,
                "SIMD{w} {li} iand ^ ixor"
            );
        }
    }
}

#[test]
fn fragment_reductions_verify_on_every_platform_and_width() {
    let shader = nir::parse(FS).expect("parses");
    let simd32 = nir::parse(&fs_without_counter()).expect("parses");
    for p in PLATFORMS {
        let ctx = Context::new(DevInfo::from_name(p).unwrap());
        for simd in [8, 16] {
            assert_eq!(
                verify(&ctx, &shader, simd),
                VerifyOutcome::Pass,
                "{p} SIMD{simd}"
            );
        }
        assert_eq!(verify(&ctx, &simd32, 32), VerifyOutcome::Pass, "{p} SIMD32");
    }
}

#[test]
fn compute_reductions_verify_on_every_platform_and_width() {
    let shader = nir::parse(&cs()).expect("parses");
    for p in PLATFORMS {
        let ctx = Context::new(DevInfo::from_name(p).unwrap());
        for simd in [8, 16] {
            assert_eq!(
                verify(&ctx, &shader, simd),
                VerifyOutcome::Pass,
                "{p} SIMD{simd}"
            );
        }
    }
}
