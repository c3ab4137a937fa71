//! Vectors built in place: the instructions that compute a `vecN` source used nowhere else
//! write straight into the vector's channels instead of a MOV per source, also when the
//! vector takes only some of the source's components (the others are dead and no longer
//! computed), takes one component into several channels, or takes a texture sample's
//! components (routed by the texture swizzle). The expected listings are written by hand
//! from those rules; every shader is also run on the simulator against the NIR interpreter.

mod common;

const HEAD: &str = "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 1\noutputs: 1\nuniforms: 0\n\
    decl_var uniform INTERP_MODE_NONE none sampler2D s (0, 0, 0)\n\
    decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)\n\
    decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
    decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    \x20   32    %0 = load_const (0x00000000)\n\
    \x20   32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n";

/// A fragment shader with the varying `v` as `%1` (in t1; t0, where the fragment position
/// arrives, is free since no shader here reads the position),
/// writing `%98` to gl_FragColor.
fn fs(body: &str) -> gpucc::nir::Shader {
    common::etna::fragment_shader(HEAD, body, 1)
}

/// The program for `core` as disassembly lines with single spaces, after checking it
/// against the interpreter.
fn asm(core: &str, body: &str) -> Vec<String> {
    common::etna::compile_verified(core, &fs(body)).0
}

#[test]
fn texture_samples_write_their_used_component_into_the_vector() {
    // Four samples (as a shadow filter takes them), of which the vector keeps .x, .y, .x
    // and .w: each TEXLD writes one channel of the vector, picking its colour component by
    // the texture swizzle; no MOV gathers them.
    let body = "    32x2  %2 = fadd %1.xy, %1.zw\n\
                \x20   32x2  %3 = fmul %1.xy, %1.zw\n\
                \x20   32x2  %4 = fadd %1.xy, %1.xy\n\
                \x20   32x2  %5 = fmul %1.xy, %1.xy\n\
                \x20   32x4  %6 = (float32)tex %2 (coord), 0 (texture), 0 (sampler)\n\
                \x20   32x4  %7 = (float32)tex %3 (coord), 0 (texture), 0 (sampler)\n\
                \x20   32x4  %8 = (float32)tex %4 (coord), 0 (texture), 0 (sampler)\n\
                \x20   32x4  %9 = (float32)tex %5 (coord), 0 (texture), 0 (sampler)\n\
                \x20   32x4  %10 = vec4 %6.x, %7.y, %8.x, %9.w\n\
                \x20   32    %11 = fdot4 %10, %1\n\
                \x20   32x4  %98 = vec4 %11, %11, %11, %11\n";
    for core in ["gc2000", "gc7000"] {
        let lines = asm(core, body);
        let tex: Vec<&String> = lines.iter().filter(|l| l.starts_with("texld")).collect();
        assert_eq!(tex.len(), 4, "{core}: {lines:#?}");
        // One channel each, in the order of the vector, with its colour component.
        for (k, (mask, swz)) in [
            ("x___", "xxxx"),
            ("_y__", "yyyy"),
            ("__z_", "xxxx"),
            ("___w", "wwww"),
        ]
        .iter()
        .enumerate()
        {
            assert!(
                tex[k].contains(&format!(".{mask}, tex0.{swz},")),
                "{core}: sample {k} writes .{mask} from colour .{swz}: {lines:#?}"
            );
        }
        assert!(
            !lines.iter().any(|l| l.starts_with("mov")),
            "{core}: no MOV, the DP4 writes the broadcast output too: {lines:#?}"
        );
    }
}

#[test]
fn dead_components_of_the_source_are_not_computed() {
    // %2 is a vec4 sum of which the vector keeps .y and .w only (swapped): the ADD computes
    // those two components, into the vector's x and y.
    let body = "    32x4  %2 = fadd %1, %1.wzyx\n\
                \x20   32x4  %98 = vec4 %2.w, %2.y, %1.z, %1.z\n";
    assert_eq!(
        asm("gc7000", body),
        [
            "add.pack t0.xy__, t1.wyww, void, t1.xzxx",
            "mov.pack t0.__zw, void, void, t1.zzzz"
        ]
    );
}

#[test]
fn a_scalar_taken_into_every_channel_is_computed_in_each() {
    // x * y broadcast: the MUL writes all four channels of the output itself.
    let body = "    32    %2 = fmul %1.x, %1.y\n\
                \x20   32x4  %98 = vec4 %2, %2, %2, %2\n";
    assert_eq!(asm("gc7000", body), ["mul.pack t0, t1.xxxx, t1.yyyy, void"]);
}

#[test]
fn an_instruction_computing_only_dead_components_is_dropped() {
    // The reciprocal of a vec2 is one RCP per component; the vector takes .y only, in two
    // channels, so the RCP of .x goes and the RCP of .y writes both channels.
    let body = "    32x2  %2 = frcp %1.xy\n\
                \x20   32x4  %98 = vec4 %2.y, %2.y, %1.z, %1.w\n";
    assert_eq!(
        asm("gc7000", body),
        [
            "rcp.pack t0.xy__, void, void, t1.yyyy",
            "mov.pack t0.__zw, void, void, t1.zzzw"
        ]
    );
}

#[test]
fn a_vector_over_its_dying_source_takes_the_sources_register() {
    // The varying's x and y go to the output's x and y, and the varying dies there: the
    // allocator's copy hint gives the output the varying's register t1, so that MOV copies
    // t1.xy onto itself and is not emitted; only the constants (one uniform slot) remain.
    let body = "    32    %2 = load_const (0x3f800000 = 1.000000)\n\
                \x20   32    %3 = load_const (0x40000000 = 2.000000)\n\
                \x20   32x4  %98 = vec4 %1.x, %1.y, %2, %3\n";
    for core in ["gc2000", "gc7000"] {
        assert_eq!(
            asm(core, body),
            ["mov.pack t1.__zw, void, void, u0.xxxy"],
            "{core}"
        );
    }
}

#[test]
fn a_stored_value_read_again_is_the_output_register_itself() {
    // gl_Position = a * a, and the varying reads that product again: the product is
    // computed straight into the position's register, and the varying reads it there; no
    // MOV copies it into a separate output.
    let text = "shader: MESA_SHADER_VERTEX\nname: t\ninputs: 1\noutputs: 2\nuniforms: 0\n\
        decl_var shader_in INTERP_MODE_NONE none vec4 a (VERT_ATTRIB_GENERIC0.xyzw, 0, 0)\n\
        decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)\n\
        decl_var shader_out INTERP_MODE_NONE none vec4 v (VARYING_SLOT_VAR0.xyzw, 1, 0)\n\
        decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
        \x20   32    %0 = load_const (0x00000000)\n\
        \x20   32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)\n\
        \x20   32x4  %2 = fmul %1, %1\n\
        \x20   32    %3 = deref_var &gl_Position (shader_out vec4)\n\
        \x20               @store_deref (%3, %2) (wrmask=xyzw, access=none)\n\
        \x20   32x4  %4 = fmul %2, %2\n\
        \x20   32    %5 = deref_var &v (shader_out vec4)\n\
        \x20               @store_deref (%5, %4) (wrmask=xyzw, access=none)\n\
        \x20               // succs: b1 \n    block b1:\n}\n";
    let s = gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    for core in ["gc2000", "gc7000"] {
        let (lines, obj) = common::etna::compile_verified(core, &s);
        // Which of t0 and t1 holds which output is the allocator's choice.
        let pos = obj.vs_pos_out_reg.expect("position output");
        let other = 1 - pos;
        assert_eq!(
            lines,
            [
                format!("mul.pack t{pos}, t0.xyzw, t0.xyzw, void"),
                format!("mul.pack t{other}, t{pos}.xyzw, t{pos}.xyzw, void")
            ],
            "{core}"
        );
    }
}

#[test]
fn loop_variable_is_updated_in_place() {
    // s starts at v.x * v.z and is multiplied by v.y three times, counted by i: the ADD and
    // the MUL write their loop variables themselves (each reads its variable last), so the
    // back edge needs no copy. What remains are the copy of 0.0 into i before the loop (the
    // first product is computed into s directly) and the final broadcast.
    let body = "    32    %2 = load_const (0x3f800000 = 1.000000)\n\
                \x20   32    %3 = load_const (0x40400000 = 3.000000)\n\
                \x20   32    %20 = load_const (0x00000000 = 0.000000)\n\
                \x20   32    %9 = fmul %1.x, %1.z\n\
                \x20               // succs: b1\n\
                \x20   loop {\n\
                \x20       block b1:   // preds: b0 b4\n\
                \x20       32     %4 = phi b0: %20 (0.0), b4: %7\n\
                \x20       32     %5 = phi b0: %9, b4: %8\n\
                \x20       32     %6 = fge32 %4, %3 (3.0)\n\
                \x20                   // succs: b2 b3\n\
                \x20       if %6 {\n\
                \x20           block b2:// preds: b1\n\
                \x20           break\n\
                \x20           // succs: b5\n\
                \x20       } else {\n\
                \x20           block b3:  // preds: b1, succs: b4\n\
                \x20       }\n\
                \x20       block b4:  // preds: b3\n\
                \x20       32     %7 = fadd %4, %2 (1.0)\n\
                \x20       32     %8 = fmul %5, %1.y\n\
                \x20                   // succs: b1\n\
                \x20   }\n\
                \x20   block b5:  // preds: b2\n\
                \x20   32x4  %98 = vec4 %5, %5, %5, %5\n";
    let s = common::etna::fragment_shader(HEAD, body, 6);
    // fge32 gives an integer boolean: a core with integers.
    for core in ["gc7000"] {
        let (lines, _) = common::etna::compile_verified(core, &s);
        let movs = lines.iter().filter(|l| l.starts_with("mov")).count();
        assert_eq!(movs, 2, "{core}: {lines:#?}");
        let add = lines
            .iter()
            .find(|l| l.starts_with("add"))
            .expect("the counter's ADD");
        let mul = lines
            .iter()
            .rfind(|l| l.starts_with("mul"))
            .expect("the product's MUL in the loop");
        // Each writes the register it reads its variable from.
        for l in [add, mul] {
            let dst = l
                .split_whitespace()
                .nth(1)
                .unwrap()
                .split('.')
                .next()
                .unwrap();
            let src = l
                .split_whitespace()
                .nth(2)
                .unwrap()
                .split('.')
                .next()
                .unwrap();
            assert_eq!(dst, src, "{core}: {l}\n{lines:#?}");
        }
    }
}

#[test]
fn a_source_read_elsewhere_too_is_computed_in_the_vector_and_read_there() {
    // x * y goes to the output's x and z and is read again by the sum in y and w: the MUL
    // writes the output's x and z, and the ADD reads the product from the output's x
    // instead of a MOV copying a separate product into the output. (Mesa's disassembler,
    // whose text gpucc's matches, names the write mask x_z_ ".zx".)
    let body = "    32    %2 = fmul %1.x, %1.y\n\
                \x20   32    %3 = fadd %2, %1.z\n\
                \x20   32x4  %98 = vec4 %2, %3, %2, %3\n";
    for core in ["gc2000", "gc7000"] {
        assert_eq!(
            asm(core, body),
            [
                "mul.pack t0.zx, t1.xxxx, t1.yyyy, void",
                "add.pack t0._y_w, t0.xxxx, void, t1.zzzz"
            ],
            "{core}"
        );
    }
}

#[test]
fn a_source_the_vector_takes_only_in_part_keeps_its_move() {
    // The vector takes only .x of the vec2 product, whose .y the sum reads: the product
    // cannot live in the vector (its .y would have no channel), so it is copied.
    let body = "    32x2  %2 = fmul %1.xy, %1.zw\n\
                \x20   32    %3 = fadd %2.y, %1.z\n\
                \x20   32x4  %98 = vec4 %2.x, %3, %3, %3\n";
    let lines = asm("gc7000", body);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("mov")).count(),
        1,
        "{lines:#?}"
    );
}
