//! Source modifiers in the etnaviv backend: NIR with explicit `fneg`/`fabs` in, assembly out.
//! The negations and absolute values must ride on the float sources that read them (chains
//! composed: `-(-x)` is `x`, `|-x|` is `|x|`, `-|-x|` is `-|x|`), and a MOV computing the
//! modified value must remain only for sources that cannot carry modifiers: texture
//! coordinates, integer instructions, and vector builds that negate some components only.
//! The expected listings are written by hand from those rules; every shader is also run on
//! the simulator against the NIR interpreter.

mod common;

const HEAD: &str = "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 0\noutputs: 1\nuniforms: 1\n\
    decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n\
    decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
    decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    \x20   32    %0 = load_const (0x00000000)\n\
    \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n";

/// A fragment shader reading `vec4 u` as `%1` and writing `%98` to gl_FragColor; `body`
/// may open blocks up to b8.
fn fs(body: &str) -> gpucc::nir::Shader {
    common::etna::fragment_shader(HEAD, body, 9)
}

/// The program for `core` as disassembly lines with single spaces, after checking it
/// against the interpreter.
fn asm(core: &str, body: &str) -> Vec<String> {
    common::etna::compile_verified(core, &fs(body)).0
}

#[test]
fn negation_rides_on_the_add() {
    assert_eq!(
        asm(
            "gc7000",
            "    32x4  %2 = fneg %1.yzwx\n    32x4  %98 = fadd %1, %2\n"
        ),
        ["add.pack t0, u0.xyzw, void, -u0.yzwx"]
    );
}

#[test]
fn chains_compose_into_one_modifier_pair() {
    // %3 = |x|, %4 = -|x|, %5 = |x| again, %2 = -x.
    let body = "    32x4  %2 = fneg %1\n\
                \x20   32x4  %3 = fabs %2\n\
                \x20   32x4  %4 = fneg %3\n\
                \x20   32x4  %5 = fneg %4\n\
                \x20   32x4  %6 = fmul %3, %4\n\
                \x20   32x4  %98 = ffma %6, %5, %2\n";
    let want = [
        "mul.pack t0, |u0.xyzw|, -|u0.xyzw|, void",
        "mad.pack t0, t0.xyzw, |u0.xyzw|, -u0.xyzw",
    ];
    assert_eq!(asm("gc7000", body), want);
    assert_eq!(asm("gc2000", body), want);
}

#[test]
fn negated_phi_is_folded_into_its_user() {
    let body = "    32    %2 = load_const (0x3f800000 = 1.000000)\n\
                \x20   32    %3 = flt32 %1.x, %1.y\n\
                \x20               // succs: b1 b2\n\
                \x20   if %3 {\n\
                \x20       block b1:  // preds: b0\n\
                \x20       32    %4 = fmul %1.z, %1.z\n\
                \x20                   // succs: b3\n\
                \x20   } else {\n\
                \x20       block b2:  // preds: b0\n\
                \x20       32    %5 = fadd %1.z, %1.w\n\
                \x20                   // succs: b3\n\
                \x20   }\n\
                \x20   block b3:    // preds: b1 b2\n\
                \x20   32    %6 = phi b1: %4, b2: %5\n\
                \x20   32    %7 = fneg %6\n\
                \x20   32    %8 = fadd %2 (1.0), %7\n\
                \x20   32x4  %98 = vec4 %8, %8, %8, %8\n";
    let lines = asm("gc7000", body);
    assert!(
        lines.contains(&"add.pack t0, 1.0:f20, void, -t0.xxxx".to_string()),
        "{lines:#?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("mov") && l.contains('-')),
        "no MOV computes the negation: {lines:#?}"
    );
}

#[test]
fn phi_reassigned_with_its_own_negation_in_a_loop() {
    // p starts as u + u.yzwx and is negated on each of three iterations: the back-edge copy
    // p = -p reads and writes the same variable, with the identity swizzle, and must not be
    // dropped as a self-copy.
    let body = "    32    %2 = load_const (0x00000001)\n\
                \x20   32    %3 = load_const (0x00000003)\n\
                \x20   32x4  %9 = fadd %1, %1.yzwx\n\
                \x20               // succs: b1\n\
                \x20   loop {\n\
                \x20       block b1:   // preds: b0 b4\n\
                \x20       32     %4 = phi b0: %0 (0x0), b4: %7\n\
                \x20       32x4   %5 = phi b0: %9, b4: %8\n\
                \x20       32     %6 = ige32 %4, %3 (0x3)\n\
                \x20                   // succs: b2 b3\n\
                \x20       if %6 {\n\
                \x20           block b2:// preds: b1\n\
                \x20           break\n\
                \x20           // succs: b5\n\
                \x20       } else {\n\
                \x20           block b3:  // preds: b1, succs: b4\n\
                \x20       }\n\
                \x20       block b4:  // preds: b3\n\
                \x20       32     %7 = iadd %4, %2 (0x1)\n\
                \x20       32x4   %8 = fneg %5\n\
                \x20                   // succs: b1\n\
                \x20   }\n\
                \x20   block b5:  // preds: b2\n\
                \x20   32x4  %98 = fmul %5, %1\n";
    let lines = asm("gc7000", body);
    let negations = lines
        .iter()
        .filter(|l| l.starts_with("mov.pack") && l.contains(", -t"))
        .count();
    assert_eq!(negations, 1, "{lines:#?}");
}

#[test]
fn texture_coordinates_take_no_modifiers() {
    // The coordinate gets a MOV; the multiply still reads -u directly.
    assert_eq!(
        asm(
            "gc7000",
            "    32x2  %2 = fneg %1.xy\n\
             \x20   32x4  %3 = (float32)tex %2 (coord), 0 (texture), 0 (sampler)\n\
             \x20   32x4  %98 = fmul %3, %2.xyxy\n"
        ),
        [
            "mov.pack t0, void, void, -u0.xyyy",
            "texld t0, tex0.xyzw, t0.xyzw, void, void",
            "mul.pack t0, t0.xyzw, -u0.xyxy, void",
        ]
    );
}

#[test]
fn integer_select_gets_the_negation_from_a_mov() {
    // b32csel moves bits (SELECT.u32): its sources would negate as integers.
    assert_eq!(
        asm(
            "gc7000",
            "    32    %2 = fneg %1.x\n\
             \x20   32    %3 = load_const (0x00000000)\n\
             \x20   32    %4 = flt32 %1.y, %3 (0.0)\n\
             \x20   32    %5 = b32csel %4, %2, %1.z\n\
             \x20   32x4  %98 = vec4 %5, %5, %5, %2\n"
        ),
        [
            "cmp.lt.pack t0._y__, u0.yyyy, 0.0:f20, u1.xxxx",
            "mov.pack t0.x___, void, void, -u0.xxxx",
            "select.nz.u32.pack t0.xyz_, t0.yyyy, t0.xxxx, u0.zzzz",
            "mov.pack t0.___w, void, void, -u0.xxxx",
        ]
    );
}

#[test]
fn f2i_reads_a_float_and_ineg_negates_an_integer() {
    // F2I takes the float negation on its source; ineg is the integer ADD 0 + -x, whose
    // negate bit is integer negation and must not become a float MOV (which would flip
    // the sign bit of an integer).
    assert_eq!(
        asm(
            "gc7000",
            "    32    %2 = f2i32 %1.x\n\
             \x20   32    %3 = ineg %2\n\
             \x20   32    %4 = i2f32 %3\n\
             \x20   32    %5 = fneg %1.y\n\
             \x20   32    %6 = f2i32 %5\n\
             \x20   32    %7 = i2f32 %6\n\
             \x20   32x4  %98 = vec4 %4, %7, %4, %4\n"
        ),
        [
            "f2i.s32.pack t0.x___, u0.xxxx, void, void",
            "add.s32.pack t0.x___, 0:s20, void, -t0.xxxx",
            "i2f.s32.pack t0.x_zw, t0.xxxx, void, void",
            "f2i.s32.pack t1.x___, -u0.yyyy, void, void",
            "i2f.s32.pack t0._y__, t1.xxxx, void, void",
        ]
    );
}
