//! What the differential check may judge (issue 34: checkers that judge wrongly).
//!
//! The in-tree fuzzer's ten-minute runs on hsw, ivb and gc7000 reported mismatches that were not
//! miscompiles: outputs decided by the hardware's rounding of inexact math (a shift by a
//! reciprocal's bits, long multiply-add and reciprocal-square-root chains, a normalised
//! difference that cancels to zero), by an integer division by zero (undefined), and by reading a
//! two-part Vivante transcendental's parts on their own (no standard meaning). Each is a small
//! hand-written shader here, checked two ways: the check no longer claims a mismatch, and the
//! mechanism behind that is shown directly on the interpreter, so the test fails if the mechanism
//! stops working rather than passing by luck of the input values. A wrong program for a
//! well-conditioned shader that uses inexact math still fails.

use gpucc::compiler::Compiler;
use gpucc::nir::interp::{self, Environment, MathError};
use gpucc::nir::Shader;
use gpucc::verify::VerifyOutcome;

fn parse(text: &str) -> Shader {
    gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

// ---- A shift by a reciprocal's bits (fuzz finding compile-gc7000-0b6a…) ----

const VS_SHIFT_BY_RECIPROCAL: &str = "shader: MESA_SHADER_VERTEX
name: shift-by-reciprocal
inputs: 1
outputs: 2
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4 p (VERT_ATTRIB_GENERIC0.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 v (VARYING_SLOT_VAR0.xyzw, 1, 0)
decl_function main (0 params)

impl main {
    block b0:
    32     %0 = load_const (0x00000000)
    32x4   %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    32     %6 = ffma %1.x, %1.y, %1.z
    32     %2 = frcp %6
    32x4   %3 = ishl %1, %2.xxxx
    32     %4 = deref_var &gl_Position (shader_out vec4)
                @store_deref (%4, %1) (wrmask=xyzw, access=none)
    32     %5 = deref_var &v (shader_out vec4)
                @store_deref (%5, %3) (wrmask=xyzw, access=none)
    block b1:
}
";

/// Output `slot` of every invocation of a 4-invocation run of `shader` with `error`.
fn outputs(shader: &Shader, slot: u32, error: Option<MathError>) -> Vec<[Option<u64>; 8]> {
    let env = Environment {
        math_error: error,
        ..Environment::default()
    };
    let run = interp::run(shader, &env, 4).unwrap();
    run.invocations
        .iter()
        .map(|i| i.outputs.get(&slot).map_or([None; 8], |o| o.comps))
        .collect()
}

#[test]
fn a_shift_by_a_reciprocals_bits_is_not_judged() {
    let shader = parse(VS_SHIFT_BY_RECIPROCAL);
    // The mechanism: a unit of error in the multiply-add or two in the reciprocal change the
    // shifted value entirely (the shift count is the reciprocal's low five bits), while the
    // position, read straight from the input, does not move. (Vivante's MAD does not fuse, so
    // the simulator's reciprocal differs from the interpreter's in its low bits.)
    let exact = outputs(&shader, 1, None);
    let moved = MathError::PROBES
        .iter()
        .filter(|&&e| outputs(&shader, 1, Some(e)) != exact)
        .count();
    assert!(
        moved >= 2,
        "only {moved} of the probes moved the shifted output"
    );
    for e in MathError::PROBES {
        assert_eq!(outputs(&shader, 0, Some(e)), outputs(&shader, 0, None));
    }
    for target in ["gc3000", "gc7000"] {
        let verdict = Compiler::new(target).unwrap().verify(&shader, &[]);
        assert_eq!(verdict, VerifyOutcome::Pass, "{target}");
    }
}

// ---- A wrong program for a well-conditioned shader with inexact math still fails ----

const FS_RECIPROCAL: &str = "shader: MESA_SHADER_FRAGMENT
name: reciprocal-of-position
inputs: 0
outputs: 1
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    32     %0 = load_const (0x00000000)
    32     %1 = load_const (0x3f800000 = 1.000000)
    32x4   %2 = @load_frag_coord () ()
    32     %3 = fadd %2.x, %1 (1.000000)
    32     %4 = frcp %3
    32x4   %5 = vec4 %4, %1, %1, %1
                @store_output (%5, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    block b1:
}
";

#[test]
fn a_wrong_program_with_inexact_math_still_fails() {
    let shader = parse(FS_RECIPROCAL);
    let ctx = gpucc::intel::backend::Context::new(gpucc::intel::DevInfo::from_name("ivb").unwrap());
    let options = gpucc::intel::backend::Options::widths(&[8]);
    let right = ctx.compile(&shader, &options).unwrap();
    assert_eq!(
        gpucc::intel::backend::verify_kernel(&ctx, &shader, &right, 8),
        VerifyOutcome::Pass
    );
    // 1/sqrt(x + 1) instead of 1/(x + 1): the probes move 1/(x + 1) by two units, far inside
    // the tolerance, so the mismatch stands.
    let wrong = parse(&FS_RECIPROCAL.replace("frcp %3", "frsq %3"));
    let wrong = ctx.compile(&wrong, &options).unwrap();
    assert!(
        matches!(
            gpucc::intel::backend::verify_kernel(&ctx, &shader, &wrong, 8),
            VerifyOutcome::Fail { .. }
        ),
        "1/sqrt(x + 1) checked against 1/(x + 1) must fail"
    );
}

// ---- Integer division by zero (fuzz finding compile-ivb-83a3…) ----

/// `0 / (x & 1)` is 0 / 0 on every other pixel column; a branch on it decides the output.
const FS_DIVISION_BY_ZERO: &str = "shader: MESA_SHADER_FRAGMENT
name: division-by-zero
inputs: 0
outputs: 1
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    32     %0 = load_const (0x00000000)
    32     %1 = load_const (0x00000001)
    32     %2 = load_const (0x3f800000 = 1.000000)
    32x4   %3 = @load_frag_coord () ()
    32     %4 = f2i32 %3.x
    32     %5 = iand %4, %1 (0x1)
    32     %6 = idiv %0 (0x0), %5
    32     %7 = ine32 %6, %0 (0x0)
    32     %8 = b2f32 %7
    32x4   %9 = vec4 %8, %2, %2, %2
                @store_output (%9, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    block b1:
}
";

#[test]
fn a_result_of_division_by_zero_is_not_judged() {
    let shader = parse(FS_DIVISION_BY_ZERO);
    // The mechanism: with other bits for undefined values, the pixels that divide by zero
    // (even x: 0 & 1 = 0) change and the others do not.
    let run = |bits| {
        let env = Environment {
            undefined_bits: bits,
            ..Environment::default()
        };
        interp::run(&shader, &env, 4).unwrap().invocations[..]
            .iter()
            .map(|i| i.outputs[&4].comps[0])
            .collect::<Vec<_>>()
    };
    let (zero, probe) = (run(0), run(0x3e80_0000));
    // Invocations 0 and 2 sit at x = 0, 1 and 3 at x = 1 (2x2 quad).
    assert_eq!(zero, vec![Some(0), Some(0), Some(0), Some(0)]);
    let one = Some(u64::from(1.0f32.to_bits()));
    assert_eq!(probe, vec![one, Some(0), one, Some(0)]);
    for target in ["ivb", "hsw", "bdw", "skl"] {
        assert_eq!(
            Compiler::new(target).unwrap().verify(&shader, &[]),
            VerifyOutcome::Pass,
            "{target}"
        );
    }
}

// ---- A two-part transcendental read part by part (fuzz findings compile-gc7000-47be…) ----

const FS_LOG_PARTS_COMPARED: &str = "shader: MESA_SHADER_FRAGMENT
name: log-parts-compared
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4 t (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)
decl_function main (0 params)

impl main {
    block b0:
    32     %0 = load_const (0x00000000)
    32     %1 = load_const (0x3f800000 = 1.000000)
    32x4   %2 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    32x2   %3 = flog2 %2.xx
    32     %4 = flt32 %3.x, %3.y
    32     %5 = b2f32 %4
    32x4   %6 = vec4 %5, %1, %1, %1
    32     %7 = deref_var &gl_FragColor (shader_out vec4)
                @store_deref (%7, %6) (wrmask=xyzw, access=none)
    block b1:
}
";

#[test]
fn two_part_results_read_alone_cannot_be_judged() {
    let shader = parse(FS_LOG_PARTS_COMPARED);
    // Compiled as the hardware's bare LOG (it is valid input), but the interpreter has no
    // meaning for the parts on their own: the check says so instead of comparing.
    match Compiler::new("gc7000").unwrap().verify(&shader, &[]) {
        VerifyOutcome::Unsupported(m) => {
            assert!(m.contains("two-part result %3"), "{m}");
            assert!(m.contains("fmul %3.x, %3.y"), "{m}");
        }
        other => panic!("expected UNSUPPORTED, got {other:?}"),
    }
    // The paired form is checked as usual.
    let paired = FS_LOG_PARTS_COMPARED.replace("flt32 %3.x, %3.y", "fmul %3.x, %3.y");
    let paired = parse(&paired.replace("b2f32 %4", "mov %4"));
    assert_eq!(
        Compiler::new("gc7000").unwrap().verify(&paired, &[]),
        VerifyOutcome::Pass
    );
}
