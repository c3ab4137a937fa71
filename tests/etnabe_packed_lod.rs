//! Texture coordinates with the bias or LOD packed into `w`, as Mesa's etnaviv hands them to
//! the backend on cores before HALTI5 (GC2000): a `txb`/`txl` whose coordinate has 4
//! components and no bias/LOD source. TEXLDB/TEXLDL read the bias or LOD from `w`, so the
//! vec4 goes to the instruction as it is; the interpreter is given the standard form back
//! (coordinate of the sampler's width, separate bias/LOD). The references are independent:
//! the same shader written with a separate LOD source, run on the interpreter.

mod common;

use gpucc::etnaviv::compiler::{dialect, verify, Context, Options, VerifyOutcome};
use gpucc::etnaviv::specs::Specs;
use gpucc::nir::interp::{self, Environment};

/// A fragment shader sampling `sampler` (unit 0) with `%5` and writing the texel.
fn fs(sampler: &str, body: &str) -> gpucc::nir::Shader {
    let text = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 0\noutputs: 1\nuniforms: 1\n\
         decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n\
         decl_var uniform INTERP_MODE_NONE none {sampler} s (1, 0, 0)\n\
         decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds: \n\
         \x20   32    %0 = load_const (0x00000000)\n\
         \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
         {body}\
         \x20   32    %9 = deref_var &gl_FragColor (shader_out vec4)\n\
         \x20               @store_deref (%9, %5) (wrmask=xyzw, access=none)\n\
         \x20               // succs: b1 \n    block b1:\n}}\n"
    );
    gpucc::nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// 2D texture, LOD 2 packed as GC2000 NIR has it: vec4(x, y, lod, lod).
fn packed_txl() -> gpucc::nir::Shader {
    fs(
        "sampler2D",
        "\x20   32    %2 = load_const (0x40000000)\n\
         \x20   32x4  %3 = vec4 %1.x, %1.y, %2, %2\n\
         \x20   32x4  %5 = (float32)txl %3 (coord), 0 (texture), 0 (sampler)\n",
    )
}

/// The same sampling written the standard way: vec2 coordinate and a LOD source.
fn standard_txl(lod_bits: &str) -> gpucc::nir::Shader {
    fs(
        "sampler2D",
        &format!(
            "\x20   32    %2 = load_const ({lod_bits})\n\
             \x20   32x2  %3 = vec2 %1.x, %1.y\n\
             \x20   32x4  %5 = (float32)txl %3 (coord), %2 (lod), 0 (texture), 0 (sampler)\n"
        ),
    )
}

fn gc2000() -> &'static Specs {
    Specs::from_name("gc2000").expect("known core")
}

/// The texel the interpreter computes, with `u = (0.3, 0.7, 0.2, 0.9)`.
fn texel(s: &gpucc::nir::Shader) -> Vec<Option<u64>> {
    let u: Vec<u8> = [0.3f32, 0.7, 0.2, 0.9]
        .iter()
        .flat_map(|f| f.to_bits().to_le_bytes())
        .collect();
    let env = Environment {
        uniforms: u,
        float_uniform_offsets: true,
        ..Environment::default()
    };
    let r = interp::run(s, &env, 1).expect("runs");
    r.invocations[0]
        .outputs
        .values()
        .next()
        .expect("output")
        .comps[..4]
        .to_vec()
}

#[test]
fn interpreter_reads_the_packed_lod_from_w() {
    let unpacked = dialect::to_standard(gc2000(), &packed_txl());
    assert_eq!(texel(&unpacked), texel(&standard_txl("0x40000000")));
    // The level matters: LOD 0 samples another texel, so a LOD lost in unpacking would show.
    assert_ne!(texel(&unpacked), texel(&standard_txl("0x00000000")));
}

#[test]
fn texldl_reads_the_packed_vec4_and_verifies() {
    let s = packed_txl();
    let c = Context::new(gc2000());
    let obj = c.compile(&s, &Options::default()).expect("compiles");
    let tex: Vec<String> = common::etna::listing(&obj.insts)
        .into_iter()
        .filter(|l| l.starts_with("texld"))
        .collect();
    assert_eq!(tex.len(), 1, "{tex:?}");
    assert!(
        tex[0].starts_with("texldl") && tex[0].contains("tex0.xyzw,"),
        "the whole vec4 (LOD in w) is the coordinate: {tex:?}"
    );
    assert_eq!(obj.samplers[0].coord_dims, 2, "a 2D sampler");
    assert_eq!(verify(&c, &s, 3), VerifyOutcome::Pass);
}

#[test]
fn cube_bias_packed_after_three_components_verifies() {
    let s = fs(
        "samplerCube",
        "\x20   32x4  %3 = vec4 %1.x, %1.y, %1.z, %1.w\n\
         \x20   32x4  %5 = (float32)txb %3 (coord), 0 (texture), 0 (sampler)\n",
    );
    let c = Context::new(gc2000());
    let obj = c.compile(&s, &Options::default()).expect("compiles");
    assert_eq!(obj.samplers[0].coord_dims, 3, "a cube sampler");
    assert_eq!(verify(&c, &s, 3), VerifyOutcome::Pass);
}

#[test]
fn cores_with_a_separate_lod_source_do_not_unpack() {
    // HALTI5 cores take the LOD as its own source: a 4-component coordinate there is no
    // packed form, and a shadow sampler's packing is not handled either.
    let gc7000 = Specs::from_name("gc7000").expect("known core");
    let c = Context::new(gc7000);
    assert!(c.compile(&packed_txl(), &Options::default()).is_err());
    let shadow = fs(
        "sampler2DShadow",
        "\x20   32x4  %3 = vec4 %1.x, %1.y, %1.z, %1.w\n\
         \x20   32x4  %5 = (float32)txl %3 (coord), 0 (texture), 0 (sampler)\n",
    );
    let c = Context::new(gc2000());
    match c.compile(&shadow, &Options::default()) {
        Err(e) => assert!(
            e.to_string().contains("4-component texture coordinates"),
            "{e}"
        ),
        Ok(_) => panic!("a packed shadow coordinate compiled"),
    }
}
