//! The interpreter's denormal handling at the shader level: single-precision denormals flush
//! unless the shader's float controls (the `float_controls_execution_mode` header nir_print
//! writes) ask for them to be preserved. Bit patterns come from the binary32 format.

use gpucc::nir;
use gpucc::nir::interp::{self, Environment};

/// 2^-121 * 2^-28 = 2^-149 (piglit fs-underflow-mul-compare-zero), then `0 < product` and a
/// raw `mov` of the denormal pattern 0x00000001.
const BODY: &str = "impl main {
    block b0:   // preds:
    32     %0 = load_const (0x03000000)
    32     %1 = load_const (0x31800000)
    32     %2 = load_const (0x00000000)
    32     %3 = fmul %0, %1
    32     %4 = flt32 %2, %3
    32     %5 = load_const (0x00000001)
    32     %6 = mov %5
    32x4   %7 = vec4 %3, %4, %6, %2
                @store_output (%7, %2) (base=0, range=1, wrmask=xyzw, component=0, \
src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
                // succs: b1
    block b1:
}
";

fn shader(extra_header: &str) -> nir::Shader {
    let text = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: t\nstage: 4\n{extra_header}inputs: 0\noutputs: 1\n\
         uniforms: 0\ndecl_var shader_out INTERP_MODE_NONE none vec4 color \
         (FRAG_RESULT_DATA0.xyzw, 0, 0)\ndecl_function main (0 params)\n\n{BODY}"
    );
    let s = nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    nir::validate(&s).unwrap_or_else(|e| panic!("{e:?}"));
    s
}

fn outputs(s: &nir::Shader) -> Vec<u32> {
    let r = interp::run(s, &Environment::default(), 1).unwrap_or_else(|e| panic!("{e}"));
    r.invocations[0].outputs[&0]
        .comps
        .iter()
        .flatten()
        .map(|&v| v as u32)
        .collect()
}

#[test]
fn without_float_controls_single_precision_denormals_flush() {
    // The product flushes to +0, so `0 < product` is false; the mov keeps 0x00000001.
    assert_eq!(outputs(&shader("")), [0, 0, 1, 0]);
}

#[test]
fn denorm_preserve_fp32_keeps_them() {
    // FLOAT_CONTROLS_DENORM_PRESERVE_FP32 = bit 1: the product is 2^-149 and compares above
    // zero (true is all ones).
    let s = shader("float_controls_execution_mode: 0x00000002\n");
    assert_eq!(outputs(&s), [1, 0xffff_ffff, 1, 0]);
    // FLUSH_TO_ZERO_FP32 (bit 4) is the default behaviour.
    let s = shader("float_controls_execution_mode: 0x00000010\n");
    assert_eq!(outputs(&s), [0, 0, 1, 0]);
}

#[test]
fn a_malformed_float_controls_field_is_an_error() {
    let s = shader("float_controls_execution_mode: banana\n");
    let e = interp::run(&s, &Environment::default(), 1).unwrap_err();
    assert!(
        e.message.contains("float_controls_execution_mode: banana"),
        "{e}"
    );
}
