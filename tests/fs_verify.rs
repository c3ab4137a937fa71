//! The verifier itself: a correct kernel passes, a kernel with one wrong constant fails at the
//! first mismatching output, and divergent control flow plus discard run on both sides.

use gpucc::intel::backend::{verify, verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;

const SHADER: &str = r#"shader: MESA_SHADER_FRAGMENT
name: GLSL3
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32x2  %0 = @load_barycentric_pixel () (interp_mode=1)
    32    %1 = load_const (0x00000000)
    32x4  %2 = @load_interpolated_input (%0, %1) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    32    %3 = load_const (0x3f000000)
    32    %12 = load_const (0x3f400000)
    32    %4 = flt32 %2.x, %12
    32    %5 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    // succs: b1 b2
    if %4 {
        block b1:  // preds: b0
        32    %6 = fmul %2.y, %3
        @store_reg (%6, %5) (base=0, wrmask=x, legacy_fsat=0)
        // succs: b3
    } else {
        block b2:  // preds: b0
        32    %7 = fadd %2.x, %2.y
        @store_reg (%7, %5) (base=0, wrmask=x, legacy_fsat=0)
        32    %8 = load_const (0x3f900000)
        32    %9 = flt32 %8, %2.x
        @discard_if (%9) ()
        // succs: b3
    }
    block b3:  // preds: b1 b2
    32    %10 = @load_reg (%5) (base=0, legacy_fabs=0, legacy_fneg=0)
    32x4  %11 = vec4 %10, %2.z, %3, %2.w
    @store_output (%11, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b4
    block b4:
}
"#;

#[test]
fn divergent_shader_with_discard_passes_on_every_platform_and_width() {
    let shader = gpucc::nir::parse(SHADER).unwrap();
    for p in ["ivb", "hsw", "bdw"] {
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

#[test]
fn a_wrong_constant_is_caught() {
    let shader = gpucc::nir::parse(SHADER).unwrap();
    let dev = DevInfo::from_name("ivb").unwrap();
    let ctx = Context::new(dev);
    let mut k = ctx.compile(&shader, &Options::widths(&[8])).unwrap();
    // 0.75 appears as an immediate (0x3f400000) only in the branch condition (input x is
    // 0.5 + x/8 + y/32, so pixels x < 2 take the then branch); make it 0.25: no pixel does.
    let pat = 0x3f40_0000u32.to_le_bytes();
    let at = k
        .code
        .windows(4)
        .position(|w| w == pat)
        .expect("the 0.75 immediate is in the code");
    k.code[at..at + 4].copy_from_slice(&0x3e80_0000u32.to_le_bytes());
    match verify_kernel(&ctx, &shader, &k, 8) {
        VerifyOutcome::Fail { output, .. } => assert!(output.starts_with("FRAG_RESULT_COLOR")),
        other => panic!("tampered kernel was not caught: {other:?}"),
    }
}
