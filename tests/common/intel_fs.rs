//! Intel scalar-backend helpers for tests that compile hand-written NIR.

use gpucc::intel::backend::{verify, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;
use gpucc::nir;

/// The platforms the backend is verified on.
pub const PLATFORMS: [&str; 3] = ["ivb", "hsw", "bdw"];

/// The text of a fragment shader that reads one smooth vec4 input `v` and writes
/// gl_FragColor, in the form Mesa hands the Intel backend: block b0 starts with `%1 = 0` and
/// `%2 = v` (pixel barycentrics), and `body` continues from there to the end of `main`.
/// `info` lines go before `inputs:` (`num_ubos: 2`), `late_info` after `uniforms:`
/// (`scratch: 32`), as nir_print orders them; `decls` are declarations after the input's.
pub fn fs_reading_v(name: &str, info: &str, late_info: &str, decls: &str, body: &str) -> String {
    format!(
        "shader: MESA_SHADER_FRAGMENT\nname: {name}\n{info}inputs: 1\noutputs: 1\nuniforms: 0\n\
         {late_info}decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)\n\
         {decls}decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds:\n\
         \x20   32x2  %0 = @load_barycentric_pixel () (interp_mode=1)\n\
         \x20   32    %1 = load_const (0x00000000)\n\
         \x20   32x4  %2 = @load_interpolated_input (%0, %1) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n\
         {body}"
    )
}

/// Compiles `text` for platform `p` at one SIMD width and returns Mesa-syntax assembly.
pub fn asm(p: &str, text: &str, simd: u32) -> String {
    let shader = nir::parse(text).expect("shader parses");
    let dev = DevInfo::from_name(p).unwrap();
    let k = Context::new(dev)
        .compile(&shader, &Options::widths(&[simd]))
        .unwrap_or_else(|e| panic!("{p}: {e}"));
    k.disassemble(dev)
}

/// Asserts that `text` runs on the simulator as on the reference interpreter on every
/// platform of [`PLATFORMS`], SIMD8 and SIMD16.
pub fn passes_everywhere(text: &str) {
    let shader = nir::parse(text).expect("shader parses");
    for p in PLATFORMS {
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
