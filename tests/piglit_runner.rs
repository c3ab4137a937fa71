//! The piglit runner's texture, clipping and vertex-data commands on small hand-written
//! tests: each expectation is worked out by hand from GL's rules and piglit's images (see
//! the comments), not taken from the runner's output.

use std::path::{Path, PathBuf};

use gpucc::piglit::{self, Gap, Mode, Outcome};

/// An Intel-style fragment shader: colour = texture(slot 0, TEX0.xy); texture index 1 is the
/// binding-table entry after the render target.
const FS_TEX: &str = "shader: MESA_SHADER_FRAGMENT
name: t
inputs: 1
outputs: 1
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler2D tex (0, 0, 0)
decl_var shader_in INTERP_MODE_SMOOTH none vec4 tc (VARYING_SLOT_TEX0.xyzw, 4, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    div 32x2  %1 = @load_barycentric_pixel () (interp_mode=1)
    con 32    %2 = load_const (0x00000000)
    div 32x4  %3 = @load_interpolated_input (%1, %2 (0x0)) (base=4, component=0, dest_type=float32, io location=VARYING_SLOT_TEX0 slots=1)
    div 32x2  %4 = vec2 %3.x, %3.y
    div 32x4  %5 = (float32)tex %4 (coord), 1 (texture), 0 (sampler)
                   @store_output (%5, %2 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
                   // succs: b1
    block b1:
}
";

/// shadow2D(tex, TEX0.xyy): the comparison value is the t coordinate.
const FS_SHADOW: &str = "shader: MESA_SHADER_FRAGMENT
name: t
inputs: 1
outputs: 1
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler2DShadow tex (0, 0, 0)
decl_var shader_in INTERP_MODE_SMOOTH none vec4 tc (VARYING_SLOT_TEX0.xyzw, 4, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    div 32x2  %1 = @load_barycentric_pixel () (interp_mode=1)
    con 32    %2 = load_const (0x00000000)
    div 32x4  %3 = @load_interpolated_input (%1, %2 (0x0)) (base=4, component=0, dest_type=float32, io location=VARYING_SLOT_TEX0 slots=1)
    div 32x2  %4 = vec2 %3.x, %3.y
    div 32    %6 = mov %3.y
    div 32x4  %5 = (float32)tex %4 (coord), %6 (comparator), 1 (texture), 0 (sampler)
                   @store_output (%5, %2 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
                   // succs: b1
    block b1:
}
";

/// Opaque white.
const FS_WHITE: &str = "shader: MESA_SHADER_FRAGMENT
name: t
inputs: 0
outputs: 1
uniforms: 0
decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    con 32    %0 = load_const (0x00000000)
    con 32x4  %1 = load_const (0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000)
                   @store_output (%1, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
                   // succs: b1
    block b1:
}
";

/// gl_Position = piglit_vertex.
const VS_PASS: &str = "shader: MESA_SHADER_VERTEX
name: v
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4 piglit_vertex (VERT_ATTRIB_GENERIC0.xyzw, 15, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    con 32     %0 = load_const (0x00000000)
    div 32x4   %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
                    @store_output (%1, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
                    // succs: b1
    block b1:
}
";

/// Writes `<name>.shader_test` and its NIR into a fresh directory; returns the test path.
fn write_test(name: &str, script: &str, fs: &str, vs: Option<&str>) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("gpucc-piglit-runner-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.fs.nir")), fs).unwrap();
    if let Some(vs) = vs {
        std::fs::write(dir.join(format!("{name}.vs.nir")), vs).unwrap();
    }
    let path = dir.join(format!("{name}.shader_test"));
    std::fs::write(&path, script).unwrap();
    path
}

fn run(target: &str, path: &Path, mode: Mode) -> Outcome {
    piglit::run_test(target, path, path.parent().unwrap(), mode)
}

fn assert_pass(o: &Outcome) {
    assert!(matches!(o, Outcome::Pass { .. }), "{o}");
}

/// `texture rgbw 1 (8, 8)` read through a sampler uniform set to unit 1, with texture
/// coordinates 0..1 across the window (`draw rect tex`): pixel x's coordinate is
/// (x + 0.5) / 250, texel floor(8 u). Pixel 124 → 3.98 → texel 3 (left half, red below);
/// pixel 125 → 4.02 → texel 4 (green below). The upper half is blue, then white.
const RGBW: &str = "[require]
GLSL >= 1.10
[fragment shader]
uniform sampler2D tex;
void main() { gl_FragColor = texture2D(tex, gl_TexCoord[0].xy); }
[test]
uniform int tex 1
texture rgbw 1 (8, 8)
draw rect tex -1 -1 2 2 0 0 1 1
probe rgba 124 124 1 0 0 1
probe rgba 125 124 0 1 0 1
probe rgba 124 125 0 0 1 1
probe rgba 125 125 1 1 1 1
probe rgba 0 249 0 0 1 1
";

#[test]
fn rgbw_quadrants_on_the_interpreter_and_the_intel_simulator() {
    let p = write_test("rgbw", RGBW, FS_TEX, None);
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    assert_pass(&run("ivb", &p, Mode::Simulator));
    assert_pass(&run("bdw", &p, Mode::Simulator));
}

/// `texture rgbw 1 (8, 8) GL_RGBA8`: the same 0/1 texels as the default GL_RGBA, so the same
/// quadrant colours at the same pixels.
#[test]
fn rgbw_with_the_rgba8_format_is_the_default_texture() {
    let script = RGBW.replace("texture rgbw 1 (8, 8)", "texture rgbw 1 (8, 8) GL_RGBA8");
    let p = write_test("rgbw8", &script, FS_TEX, None);
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    assert_pass(&run("bdw", &p, Mode::Simulator));
}

#[test]
fn a_wrong_expectation_fails_at_its_pixel() {
    // Texel 3 is red, not green: the probe must fail and name the pixel.
    let script = RGBW.replace("probe rgba 124 124 1 0 0 1", "probe rgba 124 124 0 1 0 1");
    let p = write_test("rgbw-wrong", &script, FS_TEX, None);
    let o = run("ivb", &p, Mode::Interpreter);
    assert!(o.to_string().contains("FAIL: probe at (124,124)"), "{o}");
}

#[test]
fn the_sampler_uniform_picks_the_unit() {
    // The sampler reads unit 0, which has no texture: GL returns opaque black.
    let script = RGBW
        .replace("uniform int tex 1", "uniform int tex 0")
        .replace("probe rgba 124 124 1 0 0 1", "probe rgba 124 124 0 0 0 1")
        .replace("probe rgba 125 124 0 1 0 1", "")
        .replace("probe rgba 124 125 0 0 1 1", "")
        .replace("probe rgba 125 125 1 1 1 1", "")
        .replace("probe rgba 0 249 0 0 1 1", "");
    let p = write_test("unbound", &script, FS_TEX, None);
    assert_pass(&run("ivb", &p, Mode::Interpreter));
}

/// `texture checkerboard 0 0 (8, 8) black white`: 4×4 tiles, black at the lower left;
/// CLAMP_TO_BORDER with piglit's red border. Coordinates u = −0.5 + 2 (x + 0.5) / 250:
/// pixel 10 → −0.416 (border), 100 → 0.304 (texel 2, black tile), 150 → 0.704 (texel 5,
/// white tile); row 10 has v = 0.042 (texel 0).
#[test]
fn checkerboard_tiles_and_border() {
    let script = "[require]
GLSL >= 1.10
[fragment shader]
uniform sampler2D tex;
void main() { gl_FragColor = texture2D(tex, gl_TexCoord[0].xy); }
[test]
texture checkerboard 0 0 (8, 8) (0.0, 0.0, 0.0, 0.0) (0.0, 1.0, 0.0, 0.0)
draw rect tex -1 -1 2 2 -0.5 0 2 1
probe rgba 10 10 1 0 0 1
probe rgba 100 10 0 0 0 0
probe rgba 150 10 0 1 0 0
";
    let p = write_test("checker", script, FS_TEX, None);
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    assert_pass(&run("ivb", &p, Mode::Simulator));
}

/// `texture shadow2D 0 (32, 32)`: depth x / 31 at texel x, compared with GL_GREATER against
/// the t coordinate. Pixel (10, 100): texel 1 (depth 0.032) < r = 0.402 → 1; pixel
/// (200, 10): texel 25 (depth 0.806) > r = 0.042 → 0. The default depth mode (luminance)
/// gives (v, v, v, 1); GL_ALPHA gives (0, 0, 0, v) before GLSL 1.30 and, as Mesa treats it
/// for GLSL 1.30 programs, (v, v, v, v) after.
#[test]
fn shadow_comparison_and_depth_modes() {
    let base = "[require]
GLSL >= 1.10
[fragment shader]
uniform sampler2DShadow tex;
void main() { gl_FragColor = shadow2D(tex, gl_TexCoord[0].xyy); }
[test]
uniform int tex 0
texture shadow2D 0 (32, 32)
draw rect tex -1 -1 2 2 0 0 1 1
probe rgba 10 100 1 1 1 1
probe rgba 200 10 0 0 0 1
texparameter 2D depth_mode alpha
draw rect tex -1 -1 2 2 0 0 1 1
probe rgba 10 100 0 0 0 1
probe rgba 200 10 0 0 0 0
";
    let p = write_test("shadow", base, FS_SHADOW, None);
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    assert_pass(&run("ivb", &p, Mode::Simulator));
    let glsl130 = base
        .replace("GLSL >= 1.10", "GLSL >= 1.30")
        .replace("probe rgba 10 100 0 0 0 1", "probe rgba 10 100 1 1 1 1");
    let p = write_test("shadow130", &glsl130, FS_SHADOW, None);
    assert_pass(&run("ivb", &p, Mode::Interpreter));
}

/// Fixed-function clipping against `clip plane 0 1 0 0 -0.5` (keep x_ndc ≥ 0.5): window
/// x = 187.5 is the boundary, so pixel 186 (x_ndc 0.492) is clipped and 188 kept. Once
/// the plane is disabled, pixel 186 is drawn.
#[test]
fn user_clip_plane_cuts_the_rectangle() {
    let script = "[require]
GLSL >= 1.10
[fragment shader]
void main() { gl_FragColor = vec4(1.0); }
[test]
clip plane 0 1 0 0 -0.5
enable GL_CLIP_PLANE0
clear color 0.0 0.0 0.0 0.0
clear
draw rect -1 -1 2 2
probe rgba 186 100 0 0 0 0
probe rgba 188 100 1 1 1 1
disable GL_CLIP_PLANE0
draw rect -1 -1 2 2
probe rgba 186 100 1 1 1 1
";
    let p = write_test("clip", script, FS_WHITE, None);
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    assert_pass(&run("ivb", &p, Mode::Simulator));
}

/// `[vertex data]` with `draw arrays GL_TRIANGLES 0 3`: the lower-left half of the window
/// (x + y < 250 at pixel centres); pixel (100, 200) lies above the diagonal and keeps the
/// clear colour, (10, 200) does not. A fan
/// over four corners covers everything.
#[test]
fn vertex_data_triangles_and_fans() {
    let script = "[require]
GLSL >= 1.10
[vertex shader]
attribute vec4 piglit_vertex;
void main() { gl_Position = piglit_vertex; }
[fragment shader]
void main() { gl_FragColor = vec4(1.0); }
[vertex data]
piglit_vertex/float/2
-1.0 -1.0
 1.0 -1.0
-1.0  1.0
 1.0  1.0
[test]
clear color 0.0 0.0 0.0 0.0
clear
draw arrays GL_TRIANGLES 0 3
probe rgba 10 10 1 1 1 1
probe rgba 10 200 1 1 1 1
probe rgba 100 200 0 0 0 0
probe rgba 200 10 1 1 1 1
probe rgba 200 200 0 0 0 0
";
    let p = write_test("varrays", script, FS_WHITE, Some(VS_PASS));
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    // On Gen7 the simulator runs the vertex stage as SIMD4x2 when the vec4 backend compiles
    // it; until it does (or for what it does not support), the interpreter runs it and the
    // outcome says why.
    let o = run("ivb", &p, Mode::Simulator);
    assert_pass(&o);
    let Outcome::Pass { stages } = &o else {
        unreachable!()
    };
    assert!(
        stages.starts_with("vs: gpucc on the Intel simulator (SIMD4x2),")
            || stages.starts_with("vs: NIR interpreter (gpucc: unsupported"),
        "{stages}"
    );
    // Rows reordered to go round the square: the fan (0, 1, 2), (0, 2, 3) covers it all.
    let fan = script
        .replace(
            " 1.0 -1.0\n-1.0  1.0\n 1.0  1.0",
            " 1.0 -1.0\n 1.0  1.0\n-1.0  1.0",
        )
        .replace(
            "draw arrays GL_TRIANGLES 0 3",
            "draw arrays GL_TRIANGLE_FAN 0 4",
        )
        .replace("probe rgba 100 200 0 0 0 0", "probe rgba 100 200 1 1 1 1")
        .replace("probe rgba 200 200 0 0 0 0", "probe rgba 200 200 1 1 1 1");
    let p = write_test("vfan", &fan, FS_WHITE, Some(VS_PASS));
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    // piglit-vbo also takes the count as a GLSL type (`float/vec2` is `float/2`), the form
    // most of piglit's generated tests use: the same triangle, the same pixels.
    let typed = script.replace("piglit_vertex/float/2", "piglit_vertex/float/vec2");
    let p = write_test("vtyped", &typed, FS_WHITE, Some(VS_PASS));
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    assert_pass(&run("bdw", &p, Mode::Simulator));
}

/// A command the runner does not model is an error, not a skip: the test fails with the
/// command named (piglit would have run it).
#[test]
fn unmodelled_texture_parameter_fails_as_cannot_run() {
    let script = RGBW.replace(
        "draw rect tex",
        "texparameter 2D lod_bias 1.0\ndraw rect tex",
    );
    let p = write_test("lodbias", &script, FS_TEX, None);
    let o = run("ivb", &p, Mode::Interpreter);
    assert_eq!(
        o.gap(),
        Some(&Gap::Command("texparameter lod_bias".into())),
        "{o}"
    );
    assert!(
        o.to_string()
            .starts_with("FAIL: cannot run: \"texparameter lod_bias\" is not modelled: line 9: "),
        "{o}"
    );
}

/// Every form the runner does not model fails naming the shader_runner command it belongs to
/// (as piglit's shader_runner.c tells its commands apart), with the word that selects the
/// form where the command alone does not say it. Each line is put into the RGBW test before
/// its draw; the expectations are read off shader_runner's command list by hand.
#[test]
fn every_unmodelled_form_names_its_shader_runner_command() {
    let cases = [
        ("texparameter 2D swizzle_r red", "texparameter swizzle_r"),
        (
            "draw instanced rect ortho patch 2 0 0 4 4",
            "draw instanced rect ortho patch",
        ),
        ("draw instanced rect -1 -1 2 2 4", "draw instanced rect"),
        ("texture rgbw 0 (4, 1) GL_R32F", "texture rgbw GL_R32F"),
        ("texture rgbw 2DArray 0 (4, 4, 2)", "texture rgbw 2DArray"),
        ("texture shadowRect 0 (4, 4)", "texture shadowRect"),
        ("uniform int tex[1][0] 0", "uniform (array of arrays)"),
        ("enable GL_DEPTH_TEST", "enable GL_DEPTH_TEST"),
        ("frustum -1 1 -1 1 1 3", "frustum"),
        ("shade model flat", "shade model flat"),
        ("link error", "link error"),
        ("probe depth 0 0 1", "probe depth"),
        ("ssbo 0 1024", "ssbo"),
        ("fb tex 2d 0", "fb tex"),
        ("vertex attrib color 1 0 0 1", "vertex attrib"),
        ("not-a-command 1 2", "not-a-command"),
    ];
    for (line, class) in cases {
        let script = RGBW.replace("draw rect tex", &format!("{line}\ndraw rect tex"));
        let p = write_test("unmodelled", &script, FS_TEX, None);
        let o = run("ivb", &p, Mode::Interpreter);
        assert_eq!(o.gap(), Some(&Gap::Command(class.into())), "{line}: {o}");
    }
    // Sections and [vertex data] column types are named as shader_runner's sections; a
    // control shader needs an evaluation shader after it.
    let tcs = RGBW.replace(
        "[test]",
        "[tessellation control shader]\nvoid main() {}\n[test]",
    );
    let p = write_test("unmodelled", &tcs, FS_TEX, None);
    let o = run("ivb", &p, Mode::Interpreter);
    assert_eq!(
        o.gap(),
        Some(&Gap::Command(
            "[tessellation control shader] without an evaluation shader".into()
        )),
        "{o}"
    );
    let vdata = RGBW.replace(
        "[test]",
        "[vertex data]\npiglit_vertex/float/vec2 value0/uint/uvec4\n0 0 1 2 3 4\n[test]",
    );
    let p = write_test("unmodelled", &vdata, FS_TEX, None);
    let o = run("ivb", &p, Mode::Interpreter);
    assert_eq!(
        o.gap(),
        Some(&Gap::Command("[vertex data] uint/uvec4".into())),
        "{o}"
    );
    // A modelled command with the wrong count of numbers is malformed, not unmodelled.
    let bad = RGBW.replace("probe rgba 0 249 0 0 1 1", "probe rgba 0 249 0 0");
    let p = write_test("unmodelled", &bad, FS_TEX, None);
    let o = run("ivb", &p, Mode::Interpreter);
    assert_eq!(o.gap(), Some(&Gap::Malformed), "{o}");
}

/// A 64-bit uniform initializer (as Mesa prints one for `uniform uint64_t v[2] = ...`) is state
/// no command sets and the runner's default-block model does not take: its own class, not a
/// malformed input and not a command.
#[test]
fn a_64_bit_uniform_initializer_is_named_as_unmodelled_state() {
    let fs = FS_WHITE.replace(
        "decl_var shader_out",
        "decl_var uniform INTERP_MODE_NONE none uint64_t[2] v (0, 0, 0) = { { 0xbaddc0dedeadbeef }, { 0x1 } }\ndecl_var shader_out",
    );
    let script = "[require]\nGLSL >= 1.50\n[fragment shader]\nvoid main() {}\n[test]\n\
                  draw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n";
    let p = write_test("u64init", script, &fs, None);
    let o = run("bdw", &p, Mode::Interpreter);
    assert_eq!(
        o.gap(),
        Some(&Gap::Unmodelled("default uniform block".into())),
        "{o}"
    );
    assert!(
        o.to_string()
            .starts_with("FAIL: not modelled (default uniform block): "),
        "{o}"
    );
}

/// colour = the uniform `c` (read from the default uniform block, UBO 1 on Intel).
const FS_UNIFORM: &str = "shader: MESA_SHADER_FRAGMENT
name: t
inputs: 0
outputs: 1
uniforms: 0
decl_var uniform INTERP_MODE_NONE none vec4 c (0, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_var ubo INTERP_MODE_NONE none vec4[1] uniform_0 (0, 0, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    con 32    %0 = load_const (0x00000000)
    con 32    %1 = load_const (0x00000001)
    con 32x4  %2 = @load_ubo (%1 (0x1), %0 (0x0)) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=16)
                   @store_output (%2, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
                   // succs: b1
    block b1:
}
";

/// A uniform has one storage for the whole program: the initializer the vertex shader
/// declares (`uniform vec4 c = vec4(0.25, 0.5, 0.75, 1.0)`, printed by Mesa in the VS's
/// decl_var) is what the fragment shader reads although its own declaration has none. The
/// colours 0.25, 0.5, 0.75 are 64, 128, 191 in RGBA8, within piglit's tolerance of the probe.
#[test]
fn an_initializer_in_one_stage_sets_the_uniform_for_both() {
    let vs = VS_PASS.replace(
        "decl_var shader_out",
        "decl_var uniform INTERP_MODE_NONE none vec4 c (0, 0, 0) = { 0.250000, 0.500000, 0.750000, 1.000000 }\ndecl_var shader_out",
    );
    let script = "[require]\nGLSL >= 1.20\n[vertex shader]\nvoid main() {}\n\
                  [fragment shader]\nvoid main() {}\n[test]\ndraw rect -1 -1 2 2\n\
                  probe all rgba 0.25 0.5 0.75 1.0\n";
    let p = write_test("shared-init", script, FS_UNIFORM, Some(&vs));
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    assert_pass(&run("ivb", &p, Mode::Simulator));
    // A test's own `uniform` command still wins over the initializer.
    let set = script
        .replace("draw rect", "uniform vec4 c 1 0 0 1\ndraw rect")
        .replace("probe all rgba 0.25 0.5 0.75 1.0", "probe all rgba 1 0 0 1");
    let p = write_test("shared-init-set", &set, FS_UNIFORM, Some(&vs));
    assert_pass(&run("ivb", &p, Mode::Interpreter));
}

/// `link success` checks that the program linked: the NIR Mesa compiled after linking is
/// there, so the test runs on, with the RGBW probes as before.
#[test]
fn link_success_is_the_linked_program() {
    let script = RGBW.replace("[test]\n", "[test]\nlink success\n");
    let p = write_test("linked", &script, FS_TEX, None);
    assert_pass(&run("ivb", &p, Mode::Interpreter));
    assert_pass(&run("bdw", &p, Mode::Simulator));
}

/// The command line sums up the tests it could not run per class, most frequent first.
#[test]
fn cli_counts_what_it_cannot_run_per_command() {
    let lod = RGBW.replace(
        "draw rect tex",
        "texparameter 2D lod_bias 1.0\ndraw rect tex",
    );
    let swz = RGBW.replace(
        "draw rect tex",
        "texparameter 2D swizzle_r red\ndraw rect tex",
    );
    let paths = [
        write_test("cli-lod1", &lod, FS_TEX, None),
        write_test("cli-lod2", &lod, FS_TEX, None),
        write_test("cli-swz", &swz, FS_TEX, None),
        write_test("cli-ok", RGBW, FS_TEX, None),
    ];
    let (out, counts) = piglit::run_cli("ivb", &paths, None, Mode::Interpreter);
    let tail: Vec<&str> = out.lines().skip(4).collect();
    assert_eq!(
        tail,
        [
            "1 passed, 3 failed, 0 skipped",
            "  2 cannot run: texparameter lod_bias",
            "  1 cannot run: texparameter swizzle_r",
        ],
        "{out}"
    );
    assert_eq!(counts.gaps.len(), 2);
}

/// Without NIR for the test, what counts is why: a GLSL version above what Mesa exposes on the
/// platform (etnaviv: 1.20) is a requirement piglit itself would skip on; for a test the
/// platform supports, the missing shader is missing data and fails as "cannot run".
#[test]
fn missing_nir_skips_only_for_an_unmet_glsl_requirement() {
    let script = |version: &str| {
        format!(
            "[require]\nGLSL >= {version}\n[fragment shader]\nvoid main() {{}}\n[test]\n\
             draw rect -1 -1 2 2\nprobe all rgba 1 1 1 1\n"
        )
    };
    let p = write_test("nonir130", &script("1.30"), FS_WHITE, None);
    std::fs::remove_file(p.with_file_name("nonir130.fs.nir")).unwrap();
    let o = run("gc2000", &p, Mode::Interpreter);
    assert!(
        matches!(&o, Outcome::Skip(r) if r.starts_with("GLSL 1.30 required, the platform has 1.20")),
        "{o}"
    );
    // ivb offers GLSL 1.30: the same test without its NIR cannot run there.
    let o = run("ivb", &p, Mode::Interpreter);
    assert_eq!(o.gap(), Some(&Gap::Data("NIR".into())), "{o}");
    assert!(
        matches!(&o, Outcome::Fail { message, .. } if message.starts_with("missing data (NIR): no nonir130.fs.nir")),
        "{o}"
    );
    let p = write_test("nonir110", &script("1.10"), FS_WHITE, None);
    std::fs::remove_file(p.with_file_name("nonir110.fs.nir")).unwrap();
    let o = run("gc2000", &p, Mode::Interpreter);
    assert!(
        matches!(&o, Outcome::Fail { message, .. } if message.starts_with("missing data (NIR): no nonir110.fs.nir")),
        "{o}"
    );
}

/// Errors before anything runs (a NIR file that does not parse, an unknown target) are
/// failures too, so that they count against the pass rate.
#[test]
fn runner_errors_are_failures() {
    let p = write_test("badnir", RGBW, "not NIR at all", None);
    let o = run("ivb", &p, Mode::Interpreter);
    assert!(
        matches!(&o, Outcome::Fail { message, .. } if message.starts_with("invalid input: ")),
        "{o}"
    );
    assert_eq!(o.gap(), Some(&Gap::Malformed));
    // Nothing ran, so the line names no stages.
    assert_eq!(o.to_string(), format!("FAIL: {}", o_message(&o)));
    let p = write_test("badtarget", RGBW, FS_TEX, None);
    let o = run("no-such-gpu", &p, Mode::Interpreter);
    assert!(
        matches!(&o, Outcome::Fail { message, .. } if message.starts_with("invalid input: ")),
        "{o}"
    );
}

fn o_message(o: &Outcome) -> &str {
    match o {
        Outcome::Fail { message, .. } => message,
        _ => "",
    }
}

/// A geometry shader between the vertex and fragment stages: each input triangle comes out
/// with x halved, coloured by its primitive id (0 red, else green), through VARYING_SLOT_VAR0.
const GS_HALVE: &str = "shader: MESA_SHADER_GEOMETRY
name: g
stage: 3
next_stage: 4
output_primitive: TRIANGLE_STRIP
input_primitive: TRIANGLES
vertices_out: 3
invocations: 1
vertices_in: 3
active_stream_mask: 0x01
inputs: 1
outputs: 2
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4[3] gl_in (VARYING_SLOT_POS.xyzw, 1, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 color (VARYING_SLOT_VAR0.xyzw, 32, 0)
decl_function main (0 params)

impl main {
    block b0:   // preds:
    con 32     %0 = load_const (0x00000000)
    con 32     %1 = load_const (0x00000001)
    con 32     %2 = load_const (0x00000002)
    con 32     %3 = load_const (0x00000003)
    con 32x4   %4 = load_const (0x3f000000, 0x3f800000, 0x3f800000, 0x3f800000)
    con 32x4   %5 = load_const (0x3f800000, 0x00000000, 0x00000000, 0x3f800000)
    con 32x4   %6 = load_const (0x00000000, 0x3f800000, 0x00000000, 0x3f800000)
    div 32     %7 = @load_primitive_id () ()
    div 32     %8 = ieq32 %7, %0 (0x0)
    div 32x4   %9 = b32csel %8.xxxx, %5, %6
    div 32x4  %10 = @load_per_vertex_input (%0 (0x0), %0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)
    div 32x4  %11 = @load_per_vertex_input (%1 (0x1), %0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)
    div 32x4  %12 = @load_per_vertex_input (%2 (0x2), %0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)
    div 32x4  %13 = fmul %10, %4
    div 32x4  %14 = fmul %11, %4
    div 32x4  %15 = fmul %12, %4
                @store_output (%13, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1 gs_streams(x=0 y=0 z=0 w=0), xfb(), xfb2())
                @store_output (%9, %0 (0x0)) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1 gs_streams(x=0 y=0 z=0 w=0), xfb(), xfb2())
                @emit_vertex_with_counter (%0 (0x0), %0 (0x0)) (stream_id=0)
                @store_output (%14, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1 gs_streams(x=0 y=0 z=0 w=0), xfb(), xfb2())
                @emit_vertex_with_counter (%1 (0x1), %0 (0x0)) (stream_id=0)
                @store_output (%15, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1 gs_streams(x=0 y=0 z=0 w=0), xfb(), xfb2())
                @emit_vertex_with_counter (%2 (0x2), %0 (0x0)) (stream_id=0)
                @set_vertex_and_primitive_count (%3 (0x3), %1 (0x1)) (stream_id=0)
                // succs: b1
    block b1:
}
";

/// colour = VARYING_SLOT_VAR0, flat.
const FS_VAR0: &str = "shader: MESA_SHADER_FRAGMENT
name: t
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_FLAT none vec4 color (VARYING_SLOT_VAR0.xyzw, 32, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 out_color (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    con 32    %0 = load_const (0x00000000)
    div 32x4  %1 = @load_input (%0 (0x0)) (base=32, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
                   @store_output (%1, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
                   // succs: b1
    block b1:
}
";

/// `draw rect -1 -1 2 2` is a strip of two triangles: (v0, v1, v2) below the diagonal
/// x + y = 0 is primitive 0, (v2, v1, v3) above it primitive 1 (GL hands an odd strip
/// triangle to the geometry shader with its first two vertices swapped). Halving x leaves
/// x in [-0.5, 0.5] drawn: window pixels 63..187 of 250. Pixel (100, 50) is at NDC
/// (-0.196, -0.596), inside the halved lower triangle (2x + y < 0): red. Pixel (150, 200) at
/// (0.204, 0.604) is in the upper one: green. Pixels 10 and 240 stay the clear colour. The
/// geometry shader runs on the interpreter, and compiled on the simulator (SIMD4x2 dual
/// object on ivb, SIMD8 on bdw).
#[test]
fn a_geometry_shader_reshapes_and_colours_the_primitives() {
    let script = "[require]
GLSL >= 1.50
[vertex shader passthrough]
[geometry shader]
void main() {}
[fragment shader]
void main() {}
[test]
clear color 0.0 0.0 1.0 1.0
clear
draw rect -1 -1 2 2
probe rgba 100 50 1.0 0.0 0.0 1.0
probe rgba 150 200 0.0 1.0 0.0 1.0
probe rgba 10 125 0.0 0.0 1.0 1.0
probe rgba 240 125 0.0 0.0 1.0 1.0
";
    let p = write_test("gs", script, FS_VAR0, Some(VS_PASS));
    std::fs::write(p.with_file_name("gs.gs.nir"), GS_HALVE).unwrap();
    for target in ["ivb", "bdw"] {
        for mode in [Mode::Interpreter, Mode::Simulator] {
            let o = run(target, &p, mode);
            assert_pass(&o);
            let Outcome::Pass { stages } = &o else {
                unreachable!()
            };
            let gs = match mode {
                Mode::Interpreter => "gs: NIR interpreter",
                Mode::Simulator => "gs: gpucc on the Intel simulator",
            };
            assert!(stages.contains(gs), "{stages}");
        }
    }
    // Drawing points into a shader that takes triangles is GL's INVALID_OPERATION: a failure.
    let points = script.replace("draw rect -1 -1 2 2", "draw arrays GL_POINTS 0 1");
    let p = write_test("gs_points", &points, FS_VAR0, Some(VS_PASS));
    std::fs::write(p.with_file_name("gs_points.gs.nir"), GS_HALVE).unwrap();
    let o = run("ivb", &p, Mode::Interpreter);
    assert!(
        matches!(&o, Outcome::Fail { message, gap: None, .. } if message.contains("INVALID_OPERATION")),
        "{o}"
    );
}

/// A tessellation control shader in Intel form for the quads domain: four output vertices,
/// each copying its input vertex's position (input VUE slot 1) into the patch entry; every
/// invocation writes the levels (outer 2, 2, 2, 2 into slot 1, reversed; inner 2, 2 into
/// slot 0's z and w) and the patch varying (0, 1, 0, 1). The entry's layout
/// (`brw_compute_tess_vue_map`): inner levels, outer levels, the patch varying in slot 2,
/// then one slot per vertex, the position of vertex v in slot 3 + v.
const TCS_QUADS: &str = "shader: MESA_SHADER_TESS_CTRL
name: c
stage: 1
next_stage: 2
outputs_written: 0,26-27
patch_outputs_written: 0x00000001
primitive_mode: 2
tcs_vertices_out: 4
inputs: 1
outputs: 4
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4[32] gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4[4] gl_Position#0 (VARYING_SLOT_POS.xyzw, 0, 0)
decl_var patch shader_out INTERP_MODE_NONE none vec4 gl_TessLevelOuter (VARYING_SLOT_TESS_LEVEL_OUTER.xyzw, 26, 0)
decl_var patch shader_out INTERP_MODE_NONE none vec2 gl_TessLevelInner (VARYING_SLOT_TESS_LEVEL_INNER.xy, 27, 0)
decl_var patch shader_out INTERP_MODE_NONE none vec4 pcolor (64.xyzw, 64, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    con 32     %0 = load_const (0x00000000)
    con 32x4   %1 = load_const (0x40000000, 0x40000000, 0x40000000, 0x40000000)
    con 32x4   %2 = load_const (0x00000000, 0x3f800000, 0x00000000, 0x3f800000)
    div 32     %3 = @load_invocation_id () ()
    div 32x4   %4 = @load_per_vertex_input (%3, %0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)
                    @store_per_vertex_output (%4, %3, %3) (base=3, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1)
                    @store_output (%1, %0 (0x0)) (base=1, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_TESS_LEVEL_OUTER slots=1, xfb(), xfb2())
                    @store_output (%1, %0 (0x0)) (base=0, range=1, wrmask=zw, component=0, src_type=float32, io location=VARYING_SLOT_TESS_LEVEL_INNER slots=1, xfb(), xfb2())
                    @store_output (%2, %0 (0x0)) (base=2, range=1, wrmask=xyzw, component=0, src_type=float32, io location=64 slots=1, xfb(), xfb2())
                    // succs: b1
    block b1:
}
";

/// The quads-domain evaluation shader over that entry: the position runs from vertex 0's
/// (slot 3) to vertex 3's (slot 6) with (u, v); VARYING_SLOT_VAR0 = (u·v, the patch
/// varying's y, 0, 1).
const TES_QUADS: &str = "shader: MESA_SHADER_TESS_EVAL
name: e
stage: 2
next_stage: 4
inputs_read: 0
outputs_written: 0,32
patch_inputs_read: 0x00000001
primitive_mode: 2
spacing: 1
ccw: true
inputs: 2
outputs: 2
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4[4] gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)
decl_var patch shader_in INTERP_MODE_NONE none vec4 pcolor (64.xyzw, 64, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position#0 (VARYING_SLOT_POS.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 color (VARYING_SLOT_VAR0.xyzw, 32, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    con 32     %0 = load_const (0x00000000)
    con 32     %1 = load_const (0x00000003)
    con 32     %2 = load_const (0x3f800000)
    div 32x3   %3 = @load_tess_coord () ()
    con 32x4   %4 = @load_per_vertex_input (%0 (0x0), %0 (0x0)) (base=3, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)
    con 32x4   %5 = @load_per_vertex_input (%1 (0x3), %0 (0x0)) (base=6, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)
    con 32x4   %6 = @load_input (%0 (0x0)) (base=2, range=1, component=0, dest_type=float32, io location=64 slots=1)
    con 32     %7 = fsub %5.x, %4.x
    con 32     %8 = fsub %5.y, %4.y
    div 32     %9 = ffma %7, %3.x, %4.x
    div 32    %10 = ffma %8, %3.y, %4.y
    div 32x4  %11 = vec4 %9, %10, %4.z, %4.w
    div 32    %12 = fmul %3.x, %3.y
    div 32x4  %13 = vec4 %12, %6.y, %0 (0x0), %2 (0x3f800000)
                    @store_output (%11, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
                    @store_output (%13, %0 (0x0)) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())
                    // succs: b1
    block b1:
}
";

/// colour = VARYING_SLOT_VAR0, smooth.
const FS_VAR0_SMOOTH: &str = "shader: MESA_SHADER_FRAGMENT
name: t
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec4 color (VARYING_SLOT_VAR0.xyzw, 32, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 out_color (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    div 32x2  %1 = @load_barycentric_pixel () (interp_mode=1)
    con 32    %2 = load_const (0x00000000)
    div 32x4  %3 = @load_interpolated_input (%1, %2 (0x0)) (base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
                   @store_output (%3, %2 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
                   // succs: b1
    block b1:
}
";

/// `draw rect patch -1 -1 2 2` through VS → TCS → TES → FS. The patch's vertex 0 is (-1, -1)
/// and vertex 3 (1, 1), so the domain point (u, v) lands at window (250u, 250v), and red is
/// u·v at the tessellation's points, linear in between.
///
/// Quads with all levels 2: the points are u, v ∈ {0, ½, 1}, and the only inner point, the
/// centre, fans out to the eight boundary segments. Pixel (74, 24), (u, v) = (0.298, 0.098),
/// lies in the fan triangle (0, 0), (½, 0), (½, ½) whose u·v values 0, 0, ¼ interpolate to
/// v / 2 = 0.049. Pixel (224, 74), (0.898, 0.298), lies in (1, 0), (1, ½), (½, ½) with values
/// 0, ½, ¼: -½ + u/2 + v = 0.247. With all levels 1 there is one triangle pair, both pixels
/// fall in (0, 0), (1, 0), (1, 1) with values 0, 0, 1, and red is v: 0.098 and 0.298. The
/// patch varying's y (1) is green.
#[test]
fn a_tessellated_patch_is_drawn_through_the_control_and_evaluation_shaders() {
    let script = "[require]
GLSL >= 1.50
GL_ARB_tessellation_shader
[vertex shader passthrough]
[tessellation control shader]
void main() {}
[tessellation evaluation shader]
void main() {}
[fragment shader]
void main() {}
[test]
clear color 0.0 0.0 1.0 1.0
clear
draw rect patch -1 -1 2 2
probe rgba 74 24 0.049 1.0 0.0 1.0
probe rgba 224 74 0.247 1.0 0.0 1.0
";
    let p = write_test("tess", script, FS_VAR0_SMOOTH, Some(VS_PASS));
    std::fs::write(p.with_file_name("tess.tcs.nir"), TCS_QUADS).unwrap();
    std::fs::write(p.with_file_name("tess.tes.nir"), TES_QUADS).unwrap();
    for target in ["ivb", "bdw"] {
        for mode in [Mode::Interpreter, Mode::Simulator] {
            let o = run(target, &p, mode);
            assert_pass(&o);
            let Outcome::Pass { stages } = &o else {
                unreachable!()
            };
            assert!(stages.contains("tcs: NIR interpreter"), "{stages}");
        }
    }
    // Without a control shader the default levels apply; this evaluation shader makes green
    // itself (the patch varying has no writer).
    let tes = TES_QUADS.replace("%6.y,", "%2 (0x3f800000),");
    for (levels, red) in [("2", ["0.049", "0.247"]), ("1", ["0.098", "0.298"])] {
        let script = format!(
            "[require]
GLSL >= 1.50
GL_ARB_tessellation_shader
[vertex shader passthrough]
[tessellation evaluation shader]
void main() {{}}
[fragment shader]
void main() {{}}
[test]
clear color 0.0 0.0 1.0 1.0
clear
patch parameter default level outer {levels} {levels} {levels} {levels}
patch parameter default level inner {levels} {levels}
patch parameter vertices 4
draw arrays GL_PATCHES 0 4
probe rgba 74 24 {} 1.0 0.0 1.0
probe rgba 224 74 {} 1.0 0.0 1.0
",
            red[0], red[1]
        );
        let script = script.replace("[vertex shader passthrough]", "[vertex shader passthrough]\n[vertex data]\npiglit_vertex/float/2\n-1 -1\n1 -1\n-1 1\n1 1");
        let name = format!("tess_default_{levels}");
        let p = write_test(&name, &script, FS_VAR0_SMOOTH, Some(VS_PASS));
        std::fs::write(p.with_file_name(format!("{name}.tes.nir")), &tes).unwrap();
        for target in ["ivb", "bdw"] {
            assert_pass(&run(target, &p, Mode::Simulator));
        }
    }
}
