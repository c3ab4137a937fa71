//! Uniform components gathered into slots of their own, as Mesa's etnaviv treats uniforms like
//! immediates: a vector built from components of several uniform slots (and constants) is one
//! new slot read with a swizzle instead of a MOV per component, and on cores with the
//! one-const rule an instruction's reads of several slots share one slot instead of being
//! moved into temporaries. The expected listings and uniform layouts are written by hand from
//! those rules; every shader is also run on the simulator against the NIR interpreter (whose
//! uniform values differ per component, so a component gathered from the wrong place fails).

use gpucc::etnaviv::compiler::consts::UniformContent::{self, Const, User};
mod common;

const HEAD: &str = "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 1\noutputs: 1\nuniforms: 3\n\
    decl_var uniform INTERP_MODE_NONE none mat3 m (0, 0, 0)\n\
    decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)\n\
    decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
    decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    \x20   32    %0 = load_const (0x00000000)\n\
    \x20   32x3  %1 = @load_uniform (%0 (0x0)) (base=0, range=3, dest_type=float32)\n\
    \x20   32x3  %2 = @load_uniform (%0 (0x0)) (base=1, range=3, dest_type=float32)\n\
    \x20   32x3  %3 = @load_uniform (%0 (0x0)) (base=2, range=3, dest_type=float32)\n\
    \x20   32x4  %4 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n";

/// A fragment shader with the three columns of `mat3 m` as `%1`..`%3` and the varying `v`
/// as `%4` (in t1; t0, where the fragment position arrives, is free since no shader here
/// reads the position), writing `%98` to gl_FragColor.
fn fs(body: &str) -> gpucc::nir::Shader {
    common::etna::fragment_shader(HEAD, body, 1)
}

/// The program for `core` as disassembly lines with single spaces, and its uniform file,
/// after checking it against the interpreter.
fn compile(core: &str, body: &str) -> (Vec<String>, Vec<[UniformContent; 4]>) {
    let (lines, obj) = common::etna::compile_verified(core, &fs(body));
    (lines, obj.uniforms)
}

/// The application's slot `s`, in place.
fn user(s: u32) -> [UniformContent; 4] {
    [0, 1, 2, 3].map(|c| User(4 * s + c))
}

#[test]
fn a_row_of_the_matrix_is_one_gathered_slot() {
    // transpose(m)[0] * v.xyz: the row (m[0].x, m[1].x, m[2].x) is slot 3, read as u3.xyz.
    let body = "    32x3  %5 = vec3 %1.x, %2.x, %3.x\n\
                \x20   32x3  %6 = fmul %5, %4.xyz\n\
                \x20   32x4  %98 = vec4 %6.x, %6.y, %6.z, %4.w\n";
    for core in ["gc2000", "gc7000"] {
        let (lines, uniforms) = compile(core, body);
        assert_eq!(
            lines,
            [
                "mul.pack t0.xyz_, u3.xyzx, t1.xyzx, void",
                "mov.pack t0.___w, void, void, t1.wwww"
            ],
            "{core}"
        );
        assert_eq!(
            uniforms,
            [
                user(0),
                user(1),
                user(2),
                [User(0), User(4), User(8), UniformContent::Unused]
            ],
            "{core}"
        );
    }
}

#[test]
fn a_vector_of_uniforms_and_constants_is_one_slot() {
    // vec4(m[0].y, 2.0, m[2].z, 2.0) needs no instruction of its own; the sum reads it.
    let body = "    32    %5 = load_const (0x40000000 = 2.000000)\n\
                \x20   32x4  %6 = vec4 %1.y, %5, %3.z, %5\n\
                \x20   32x4  %98 = fadd %6, %4\n";
    for core in ["gc2000", "gc7000"] {
        let (lines, uniforms) = compile(core, body);
        assert_eq!(lines, ["add.pack t0, u3.xyzy, void, t1.xyzw"], "{core}");
        assert_eq!(
            uniforms[3],
            [
                User(1),
                Const(0x4000_0000),
                User(10),
                UniformContent::Unused
            ],
            "{core}"
        );
    }
}

#[test]
fn a_vector_mixing_values_and_uniforms_takes_one_mov_for_the_uniforms() {
    // vec4(v.x * v.y, m[0].x, m[1].y, m[2].z): the product goes straight into the vector,
    // the three uniform components follow in one MOV from their gathered slot.
    let body = "    32    %5 = fmul %4.x, %4.y\n\
                \x20   32x4  %98 = vec4 %5, %1.x, %2.y, %3.z\n";
    let (lines, uniforms) = compile("gc7000", body);
    assert_eq!(
        lines,
        [
            "mul.pack t0.x___, t1.xxxx, t1.yyyy, void",
            "mov.pack t0._yzw, void, void, u3.xxyz"
        ]
    );
    assert_eq!(
        uniforms[3],
        [User(0), User(5), User(10), UniformContent::Unused]
    );
}

#[test]
fn one_const_reads_of_several_slots_share_a_slot() {
    // m[0].x * v.x + m[1].y: two uniform slots in one MAD. Under the one-const rule (gc2000)
    // they share a gathered slot instead of a MOV into a temporary; gc7000 reads both where
    // they are.
    let body = "    32    %5 = ffma %1.x, %4.x, %2.y\n\
                \x20   32x4  %98 = vec4 %5, %5, %5, %5\n";
    let (lines, uniforms) = compile("gc2000", body);
    assert_eq!(lines, ["mad.pack t0, u3.xxxx, t1.xxxx, u3.yyyy"]);
    assert_eq!(
        uniforms[3],
        [
            User(0),
            User(5),
            UniformContent::Unused,
            UniformContent::Unused
        ]
    );
    let (lines, uniforms) = compile("gc7000", body);
    assert_eq!(lines, ["mad.pack t0, u0.xxxx, t1.xxxx, u1.yyyy"]);
    assert_eq!(uniforms.len(), 3);
}

#[test]
fn a_negated_uniform_keeps_its_modifier() {
    // -m[0].x and -m[1].y gathered keep the negation on the read; +m[2].z goes in a MOV of
    // its own (the modifier is per operand, not per component).
    let body = "    32x3  %5 = fneg %1\n\
                \x20   32x3  %6 = fneg %2\n\
                \x20   32x4  %98 = vec4 %5.x, %6.y, %3.z, %4.w\n";
    let (lines, uniforms) = compile("gc7000", body);
    assert_eq!(
        lines,
        [
            "mov.pack t0.__z_, void, void, u2.zzzz",
            "mov.pack t0.___w, void, void, t1.wwww",
            "mov.pack t0.xy__, void, void, -u3.xyxx"
        ]
    );
    assert_eq!(
        uniforms[3],
        [
            User(0),
            User(5),
            UniformContent::Unused,
            UniformContent::Unused
        ]
    );
}
