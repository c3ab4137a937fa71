//! Optimizations that let more programs fit a GC2000's 256-instruction memory (issue 23):
//! each test gives NIR in and the assembly out, written by hand from the rule the
//! optimization follows, and runs the program on the simulator against the NIR interpreter.

mod common;

const HEAD: &str = "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 1\noutputs: 1\nuniforms: 0\n\
    decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)\n\
    decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
    decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    \x20   32    %0 = load_const (0x00000000)\n\
    \x20   32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n";

/// The program for `core` as disassembly lines with single spaces, after checking it
/// against the interpreter. The varying `v` is `%1` in t1 (t0 is free: nothing reads the
/// position); `%98` goes to gl_FragColor in block `b{end}`.
fn asm(core: &str, body: &str, end: u32) -> Vec<String> {
    common::etna::compile_verified(core, &common::etna::fragment_shader(HEAD, body, end)).0
}

#[test]
fn no_jump_over_an_else_whose_copy_allocation_removed() {
    // r = v.x * v.y; if (v.x < v.y) r = v.z + v.w. The else arm's only work is the phi
    // copy of the product, which allocation makes a copy of t0.x onto itself; once it is
    // gone the then arm's jump over the else lands on the next instruction and goes too.
    let body = "    32    %2 = fmul %1.x, %1.y\n\
                \x20   32    %3 = slt %1.x, %1.y\n\
                \x20   if %3 {\n\
                \x20       block b1:  // preds: b0\n\
                \x20       32    %4 = fadd %1.z, %1.w\n\
                \x20   } else {\n\
                \x20       block b2:  // preds: b0\n\
                \x20   }\n\
                \x20   block b3:    // preds: b1 b2\n\
                \x20   32    %5 = phi b1: %4, b2: %2\n\
                \x20   32x4  %98 = vec4 %5, %5, %5, %5\n";
    // The not-taken branch now targets the final MOV directly (4, where it was 5).
    assert_eq!(
        asm("gc2000", body, 4),
        [
            "mul.pack t0.x___, t1.xxxx, t1.yyyy, void",
            "set.lt.pack t0._y__, t1.xxxx, t1.yyyy, void",
            "branch.not void, t0.yyyy, void, 4",
            "add.pack t0.x___, t1.zzzz, void, t1.wwww",
            "mov.pack t0, void, void, t0.xxxx"
        ]
    );
    for core in ["gc2000", "gc7000"] {
        let lines = asm(core, body, 4);
        assert!(
            !lines.iter().any(|l| l.starts_with("branch void")),
            "{core}: no unconditional branch is left: {lines:#?}"
        );
    }
}

#[test]
fn a_saturate_is_the_saturate_bit_of_the_instruction_computing_its_source() {
    // clamp(v.x * v.y, 0, 1): the MUL saturates its own result; no MOV.SAT follows.
    let body = "    32    %2 = fmul %1.x, %1.y\n\
                \x20   32    %3 = fsat %2\n\
                \x20   32x4  %98 = vec4 %3, %3, %3, %3\n";
    for core in ["gc2000", "gc7000"] {
        assert_eq!(
            asm(core, body, 1),
            ["mul.sat.pack t0, t1.xxxx, t1.yyyy, void"],
            "{core}"
        );
    }
}

#[test]
fn a_saturate_of_a_value_read_elsewhere_stays_a_move() {
    // The product is also added unclamped: the MUL must keep writing it as it is.
    let body = "    32    %2 = fmul %1.x, %1.y\n\
                \x20   32    %3 = fsat %2\n\
                \x20   32    %4 = fadd %2, %3\n\
                \x20   32x4  %98 = vec4 %4, %4, %4, %4\n";
    let lines = asm("gc2000", body, 1);
    assert!(
        lines.iter().any(|l| l.starts_with("mov.sat")),
        "the clamp stays a MOV.SAT: {lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("mul.sat")),
        "{lines:#?}"
    );
}

#[test]
fn vectors_sharing_their_sources_are_swizzles_of_one_register() {
    // Bilinear weights: f = fract(v.xy), a = f + 1, b = 2 - f, and the products of
    // vec2(b.x, a.x).xyxy and vec2(b.y, a.y).xxyy. a and b (two components each, a
    // computed first) go side by side into one register w = (a.x, a.y, b.x, b.y); the
    // two vectors are w.zx and w.wy, so the MUL reads w.zxzx and w.wwyy and no MOV builds
    // them.
    let body = "    32    %2 = load_const (0x3f800000 = 1.000000)\n\
                \x20   32    %3 = load_const (0x40000000 = 2.000000)\n\
                \x20   32x2  %4 = ffract %1.xy\n\
                \x20   32x2  %5 = fadd %4, %2.xx\n\
                \x20   32x2  %6 = fneg %4\n\
                \x20   32x2  %7 = fadd %3.xx, %6\n\
                \x20   32x2  %8 = vec2 %7.x, %5.x\n\
                \x20   32x2  %9 = vec2 %7.y, %5.y\n\
                \x20   32x4  %98 = fmul %8.xyxy, %9.xxyy\n";
    let expect = |one: &str, two: &str| {
        vec![
            "frc.pack t1.xy__, void, void, t1.xyxx".to_string(),
            format!("add.pack t0.xy__, t1.xyxx, void, {one}"),
            format!("add.pack t0.__zw, {two}, void, -t1.xxxy"),
            "mul.pack t0, t0.zxzx, t0.wwyy, void".to_string(),
        ]
    };
    assert_eq!(asm("gc2000", body, 1), expect("u0.xxxx", "u0.yyyy"));
    assert_eq!(asm("gc7000", body, 1), expect("1.0:f20", "2.0:f20"));
}

#[test]
fn a_select_between_built_vectors_reads_their_sources() {
    // fcsel(v.y < v.x, vec4(v.zyx, 0), vec4(v.xzy, 1)): channels x, y and z select between
    // two swizzles of v, channel w between two constants. Two SELECTs, no MOV.
    let body = "    32    %2 = load_const (0x00000000 = 0.000000)\n\
                \x20   32    %3 = load_const (0x3f800000 = 1.000000)\n\
                \x20   32    %4 = slt %1.y, %1.x\n\
                \x20   32x4  %5 = vec4 %1.z, %1.y, %1.x, %2\n\
                \x20   32x4  %6 = vec4 %1.x, %1.z, %1.y, %3\n\
                \x20   32x4  %98 = fcsel %4.xxxx, %5, %6\n";
    let expect = |zero: &str, one: &str| {
        vec![
            "set.lt.pack t0.x___, t1.yyyy, t1.xxxx, void".to_string(),
            "select.nz.pack t1.xyz_, t0.xxxx, t1.zyxz, t1.xzyx".to_string(),
            format!("select.nz.pack t1.___w, t0.xxxx, {zero}, {one}"),
        ]
    };
    assert_eq!(asm("gc2000", body, 1), expect("u0.xxxx", "u0.yyyy"));
    assert_eq!(asm("gc7000", body, 1), expect("0.0:f20", "1.0:f20"));
}

#[test]
fn a_select_between_a_built_vector_and_a_computed_one_is_split_too() {
    // A second fcsel between vec4(v.xyz, 2.0) and the first one's result (as a cube-face
    // pick does): its x, y and z read v and the first result, its w the constant and the
    // first result. The first SELECTs write t2, the second ones the output (t1, where v
    // dies).
    let body = "    32    %2 = load_const (0x00000000 = 0.000000)\n\
                \x20   32    %3 = load_const (0x3f800000 = 1.000000)\n\
                \x20   32    %10 = load_const (0x40000000 = 2.000000)\n\
                \x20   32    %4 = slt %1.y, %1.x\n\
                \x20   32x4  %5 = vec4 %1.z, %1.y, %1.x, %2\n\
                \x20   32x4  %6 = vec4 %1.x, %1.z, %1.y, %3\n\
                \x20   32x4  %7 = fcsel %4.xxxx, %5, %6\n\
                \x20   32    %8 = slt %1.z, %1.w\n\
                \x20   32x4  %9 = vec4 %1.x, %1.y, %1.z, %10\n\
                \x20   32x4  %98 = fcsel %8.xxxx, %9, %7\n";
    let expect = |two: &str| {
        vec![
            "set.lt.pack t0.x___, t1.yyyy, t1.xxxx, void".to_string(),
            "select.nz.pack t2.xyz_, t0.xxxx, t1.zyxz, t1.xzyx".to_string(),
            "select.nz.pack t2.___w, t0.xxxx, u0.xxxx, u0.yyyy".to_string(),
            "set.lt.pack t0.x___, t1.zzzz, t1.wwww, void".to_string(),
            "select.nz.pack t1.xyz_, t0.xxxx, t1.xyzx, t2.xyzx".to_string(),
            format!("select.nz.pack t1.___w, t0.xxxx, {two}, t2.wwww"),
        ]
    };
    assert_eq!(asm("gc2000", body, 1), expect("u0.zzzz"));
    let gc7000 = asm("gc7000", body, 1);
    assert_eq!(
        gc7000[2], "select.nz.pack t2.___w, t0.xxxx, 0.0:f20, 1.0:f20",
        "{gc7000:#?}"
    );
    assert_eq!(
        gc7000[5],
        "select.nz.pack t1.___w, t0.xxxx, 2.0:f20, t2.wwww"
    );
}

#[test]
fn a_comparison_with_zero_is_the_condition_of_the_select_reading_it() {
    // faceforward-like: fcsel(dot(v.xy, v.zw) < 0, v.xyz, -v.xyz). The SELECT compares the
    // dot product with zero itself (LZ); no SET computes the flag. On gc7000 the flag would
    // be a CMP giving ~0, folded the same way.
    let body = "    32    %2 = load_const (0x00000000 = 0.000000)\n\
                \x20   32    %3 = fdot2 %1.xy, %1.zw\n\
                \x20   32    %4 = slt %3, %2\n\
                \x20   32x3  %5 = fneg %1.xyz\n\
                \x20   32x3  %6 = fcsel %4.xxx, %1.xyz, %5\n\
                \x20   32x4  %98 = vec4 %6.x, %6.y, %6.z, %3\n";
    let lines = asm("gc2000", body, 1);
    assert!(!lines.iter().any(|l| l.starts_with("set")), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("select.lz") && l.contains("t1.xyzx, -t1.xyzx")),
        "{lines:#?}"
    );
}

#[test]
fn zero_on_the_left_turns_the_condition_around() {
    // fcsel(0 < v.x, v.y, v.z) is v.x > 0: SELECT.GZ on v.x. A NaN in v.x takes v.z both
    // ways (the interpreter check covers the inputs it draws).
    let body = "    32    %2 = load_const (0x00000000 = 0.000000)\n\
                \x20   32    %3 = slt %2, %1.x\n\
                \x20   32    %4 = fcsel %3, %1.y, %1.z\n\
                \x20   32x4  %98 = vec4 %4, %4, %4, %4\n";
    assert_eq!(
        asm("gc2000", body, 1),
        ["select.gz.pack t0, t1.xxxx, t1.yyyy, t1.zzzz"]
    );
}

#[test]
fn an_integer_select_keeps_its_comparison() {
    // gc7000 has integers: flt32 is a CMP giving ~0 and b32csel an integer SELECT on it,
    // which moves bits. A float SELECT.LZ would flush the selected values that look like
    // denormals (small integers do), so the two instructions stay.
    let body = "    32    %2 = load_const (0x00000000 = 0.000000)\n\
                \x20   32    %3 = flt32 %1.x, %2\n\
                \x20   32    %4 = b32csel %3, %1.y, %1.z\n\
                \x20   32x4  %98 = vec4 %4, %4, %4, %4\n";
    let lines = asm("gc7000", body, 1);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(lines[0].starts_with("cmp.lt"), "{lines:#?}");
    assert!(lines[1].starts_with("select.nz.u32"), "{lines:#?}");
}
