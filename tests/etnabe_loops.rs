//! Loops whose exit a boolean uniform decides, and shaders defined only on some inputs.
//!
//! piglit's `fs-swap-problem` (`do { c.xy = c.yx; } while (f);`) and `fs-if-def-else-break`
//! once failed `gpucc verify` on gc2000 with the interpreter's step limit, while gc7000's NIR
//! of the same tests verified. The cause was neither Mesa's NIR, nor the interpreter, nor the
//! float-boolean lowering: the loop is endless in GLSL itself whenever `f` is true, and the
//! verifier fed `bool` uniforms the numbers 0..3. On gc2000 (`seq f, 0.0` decides the break)
//! 1.0, 2.0 and 3.0 are all true, so three sets in four never end. gc7000's NIR breaks on
//! `inot f`, which only GL's canonical true `~0` makes false: 1, 2 and 3 broke out at once,
//! and its "pass" only ever ran the `f == false` path. The tests below show each half with
//! hand-written NIR of the same shape: both dialects end for false and loop for canonical
//! true, on the interpreter; and the verifier now gives `bool` uniforms GL's values and skips
//! (replaces) input sets that never end, as it skips undefined ones. Last, a loop with a NIR
//! continue construct, which `continue` must run before the next iteration.

use gpucc::etnaviv::compiler::{verify, Context, VerifyOutcome};
use gpucc::etnaviv::specs::Specs;
use gpucc::nir::interp::{self, Environment};

/// The swap loop; `exit` computes `%5`, the break condition, from the uniform `%4`.
fn swap_loop(load_type: &str, exit: &str) -> gpucc::nir::Shader {
    let text = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: swap\ninputs: 0\noutputs: 1\nuniforms: 1\n\
         decl_var uniform INTERP_MODE_NONE none bool f (0, 0, 0)\n\
         decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds: \n\
         \x20   32x4  %0 = load_const (0x3f800000, 0x00000000, 0x00000000, 0x3f800000)\n\
         \x20   32    %1 = load_const (0x00000000)\n\
         \x20               // succs: b1 \n\
         \x20   loop {{\n\
         \x20       block b1:  // preds: b0 b4\n\
         \x20       32x4  %2 = phi b0: %0, b4: %3\n\
         \x20       32x4  %3 = mov %2.yxzw\n\
         \x20       32    %4 = @load_uniform (%1 (0x0)) (base=0, range=1, dest_type={load_type})\n\
         \x20       32    %5 = {exit}\n\
         \x20                   // succs: b2 b3 \n\
         \x20       if %5 {{\n\
         \x20           block b2:  // preds: b1\n\
         \x20           break\n\
         \x20           // succs: b5 \n\
         \x20       }} else {{\n\
         \x20           block b3:  // preds: b1, succs: b4 \n\
         \x20       }}\n\
         \x20       block b4:  // preds: b3, succs: b1 \n\
         \x20   }}\n\
         \x20   block b5:  // preds: b2\n\
         \x20   32    %6 = deref_var &gl_FragColor (shader_out vec4)\n\
         \x20               @store_deref (%6, %3) (wrmask=xyzw, access=none)\n\
         \x20               // succs: b6 \n\
         \x20   block b6:\n}}\n"
    );
    gpucc::nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// gc2000 has no integers: booleans are 0.0/1.0 and `seq f, 0.0` is "not f".
fn float_dialect() -> gpucc::nir::Shader {
    swap_loop("bool32", "seq %4, %1 (0.0)")
}

/// gc7000 has integers: booleans are 0/~0 and `inot f` is "not f".
fn integer_dialect() -> gpucc::nir::Shader {
    swap_loop("float32", "inot %4")
}

/// gl_FragColor after one run with `f` holding `bits`, or the interpreter's error.
fn run(
    shader: &gpucc::nir::Shader,
    bits: u32,
    float_offsets: bool,
) -> Result<[f32; 4], interp::InterpError> {
    let mut uniforms = vec![0u8; 16];
    uniforms[..4].copy_from_slice(&bits.to_le_bytes());
    let env = Environment {
        uniforms,
        float_uniform_offsets: float_offsets,
        step_limit: 10_000,
        ..Environment::default()
    };
    let r = interp::run(shader, &env, 1)?;
    let out = r.invocations[0]
        .outputs
        .values()
        .next()
        .expect("gl_FragColor written");
    Ok([0, 1, 2, 3].map(|c| f32::from_bits(out.comps[c].expect("component written") as u32)))
}

const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];

#[test]
fn float_boolean_loop_ends_for_false_and_never_for_true() {
    let s = float_dialect();
    assert_eq!(run(&s, 0.0f32.to_bits(), true), Ok(GREEN));
    for t in [1.0f32, 2.0, 3.0] {
        let e = run(&s, t.to_bits(), true).expect_err("while (true) never ends");
        assert!(e.endless && !e.undefined, "{e}");
    }
}

#[test]
fn integer_boolean_loop_ends_for_false_and_never_for_canonical_true() {
    let s = integer_dialect();
    assert_eq!(run(&s, 0, false), Ok(GREEN));
    let e = run(&s, !0, false).expect_err("while (true) never ends");
    assert!(e.endless && !e.undefined, "{e}");
    // 1 is no GL boolean on this core: `inot 1` is non-zero, so the loop breaks at once.
    // These were the values behind gc7000's old pass.
    assert_eq!(run(&s, 1, false), Ok(GREEN));
}

#[test]
fn verify_checks_the_sets_that_end_on_both_cores() {
    for (core, s) in [("gc2000", float_dialect()), ("gc7000", integer_dialect())] {
        let c = Context::new(Specs::from_name(core).expect("known core"));
        assert_eq!(verify(&c, &s, 3), VerifyOutcome::Pass, "{core}");
    }
}

/// A fragment shader for gc2000 writing uniform slot `1 + %off` where `%off` is computed from
/// the uniform `s` (slot 0) by `off`; slot 1 is the last one, so a negative offset is out of
/// range (undefined).
fn indexed_by(off: &str) -> gpucc::nir::Shader {
    let text = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: idx\ninputs: 0\noutputs: 1\nuniforms: 2\n\
         decl_var uniform INTERP_MODE_NONE none float s (0, 0, 0)\n\
         decl_var uniform INTERP_MODE_NONE none vec4 v (1, 1, 0)\n\
         decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds: \n\
         \x20   32    %0 = load_const (0x00000000)\n\
         \x20   32    %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
         {off}\
         \x20   32x4  %3 = @load_uniform (%2) (base=1, range=1, dest_type=float32)\n\
         \x20   32    %4 = deref_var &gl_FragColor (shader_out vec4)\n\
         \x20               @store_deref (%4, %3) (wrmask=xyzw, access=none)\n\
         \x20               // succs: b1 \n\
         \x20   block b1:\n}}\n"
    );
    gpucc::nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn replacement_sets_find_inputs_below_a_sentinel() {
    // Defined only for s < 0, like glamor's gradient shader (shader-db glamor 82), which
    // reads `stops[i - 1]` and is defined because the driver puts -INT_MAX in `stops[0]`.
    // The first sets hold positive floats only; the replacements take either sign.
    let s = indexed_by(
        "\x20   32    %5 = sge %1, %0 (0.0)\n\
         \x20   32    %2 = fneg %5\n",
    );
    let c = Context::new(Specs::from_name("gc2000").expect("known core"));
    assert_eq!(verify(&c, &s, 3), VerifyOutcome::Pass);
}

#[test]
fn a_shader_undefined_on_every_input_is_reported_so() {
    let s = indexed_by("\x20   32    %2 = load_const (0xbf800000)\n");
    let c = Context::new(Specs::from_name("gc2000").expect("known core"));
    match verify(&c, &s, 3) {
        VerifyOutcome::Unsupported(m) => assert!(
            m.starts_with("every one of 32 input sets is undefined or endless")
                && m.contains("out of range"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
}

/// `for (i = 0; i < 4; i++) { if (i == 1) continue; acc += u; }` with `acc = u` first, the
/// increment in NIR's continue construct (as NIR has it before
/// `nir_lower_continue_constructs`): `continue` must still run the increment, so the loop
/// adds `u` for i = 0, 2, 3 and the result is `4u`.
fn continue_construct() -> gpucc::nir::Shader {
    let text = "shader: MESA_SHADER_FRAGMENT\nname: cont\ninputs: 0\noutputs: 1\nuniforms: 1\n\
        decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n\
        decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
        decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
        \x20   32    %0 = load_const (0x00000000)\n\
        \x20   32    %1 = load_const (0x00000001)\n\
        \x20   32    %2 = load_const (0x00000004)\n\
        \x20   32x4  %3 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
        \x20               // succs: b1 \n\
        \x20   loop {\n\
        \x20       block b1:  // preds: b0 b8\n\
        \x20       32    %4 = phi b0: %0, b8: %10\n\
        \x20       32x4  %5 = phi b0: %3, b8: %11\n\
        \x20       32    %6 = ige32 %4, %2 (0x4)\n\
        \x20                   // succs: b2 b3 \n\
        \x20       if %6 {\n\
        \x20           block b2:  // preds: b1\n\
        \x20           break\n\
        \x20           // succs: b9 \n\
        \x20       } else {\n\
        \x20           block b3:  // preds: b1, succs: b4 \n\
        \x20       }\n\
        \x20       block b4:  // preds: b3\n\
        \x20       32    %7 = ieq32 %4, %1 (0x1)\n\
        \x20                   // succs: b5 b6 \n\
        \x20       if %7 {\n\
        \x20           block b5:  // preds: b4\n\
        \x20           continue\n\
        \x20           // succs: b8 \n\
        \x20       } else {\n\
        \x20           block b6:  // preds: b4, succs: b7 \n\
        \x20       }\n\
        \x20       block b7:  // preds: b6\n\
        \x20       32x4  %8 = fadd %5, %3\n\
        \x20                   // succs: b8 \n\
        \x20   } continue {\n\
        \x20       block b8:  // preds: b5 b7\n\
        \x20       32x4  %11 = phi b5: %5, b7: %8\n\
        \x20       32    %10 = iadd %4, %1 (0x1)\n\
        \x20                   // succs: b1 \n\
        \x20   }\n\
        \x20   block b9:  // preds: b2\n\
        \x20   32    %12 = deref_var &gl_FragColor (shader_out vec4)\n\
        \x20               @store_deref (%12, %5) (wrmask=xyzw, access=none)\n\
        \x20               // succs: b10 \n\
        \x20   block b10:\n}\n";
    gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn continue_construct_runs_on_continue_and_verifies() {
    let s = continue_construct();
    let u = [0.25f32, 0.5, 1.5, 3.0];
    let env = Environment {
        uniforms: u.iter().flat_map(|f| f.to_bits().to_le_bytes()).collect(),
        ..Environment::default()
    };
    let r = interp::run(&s, &env, 1).expect("runs");
    let out = r.invocations[0].outputs.values().next().expect("written");
    let got = [0, 1, 2, 3].map(|c| f32::from_bits(out.comps[c].expect("component") as u32));
    assert_eq!(got, u.map(|x| 4.0 * x), "hand-derived: u + 3u");
    let c = Context::new(Specs::from_name("gc7000").expect("known core"));
    assert_eq!(verify(&c, &s, 3), VerifyOutcome::Pass);
}
