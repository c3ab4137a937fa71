//! The program object: statistics agree with the code they describe, Mesa's wording, variant
//! offsets, payload facts.

use gpucc::intel::backend::{Context, Options};
use gpucc::intel::eu;
use gpucc::intel::DevInfo;

const SHADER: &str = r#"shader: MESA_SHADER_FRAGMENT
name: GLSL4
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32x2  %0 = @load_barycentric_pixel () (interp_mode=1)
    32    %1 = load_const (0x00000000)
    32x4  %2 = @load_interpolated_input (%0, %1) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    32    %3 = load_const (0x00000010)
    32    %4 = @load_ubo (%1, %3) (access=none, align_mul=1073741824, align_offset=16, range_base=0, range=32)
    32    %5 = fmul %2.x, %4
    32    %6 = frcp %5
    32x4  %7 = vec4 %5, %6, %2.z, %2.w
    @store_output (%7, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#;

#[test]
fn statistics_describe_the_code_in_mesa_wording() {
    let shader = gpucc::nir::parse(SHADER).unwrap();
    for p in ["ivb", "hsw", "bdw"] {
        let dev = DevInfo::from_name(p).unwrap();
        let k = Context::new(dev)
            .compile(&shader, &Options::widths(&[8, 16]))
            .unwrap();
        assert_eq!(k.simd.len(), 2, "{p}: SIMD8 and SIMD16");
        for v in &k.simd {
            assert_eq!(v.offset % 64, 0, "kernel start offsets are 64-byte aligned");
            let insts = eu::decode_program(dev, k.code_of(v)).unwrap();
            let s = &v.stats;
            assert_eq!(s.instructions as usize, insts.len());
            let sends = insts.iter().filter(|i| i.opcode.is_send()).count();
            assert_eq!(s.sends as usize, sends);
            assert_eq!(sends, 1, "one render-target write");
            assert!(insts.last().unwrap().eot, "the thread ends with EOT");
            assert_eq!(s.bytes as usize, k.code_of(v).len());
            let line = s.to_string();
            let want = format!(
                "SIMD{} shader: {} instructions. 0 loops. {} cycles. 0:0 spills:fills, 1 sends, ",
                v.simd, s.instructions, s.cycles
            );
            assert!(line.starts_with(&want), "{line}");
            // Payload: g0-g1, barycentrics (2 GRFs per 8 channels), then push constants.
            assert_eq!(v.dispatch_grf_start, 2 + 2 * v.simd / 8);
        }
        // One pushed dword: UBO 0, byte 16; one interpolated input slot.
        assert_eq!(k.push_constants, vec![(0, 16)]);
        assert_eq!(k.inputs.len(), 1);
        assert_eq!(k.inputs[0].location, "VARYING_SLOT_VAR0");
        assert!(k.flags.bary_perspective_pixel && !k.flags.uses_kill);
        assert!(k.disassemble(dev).contains("pln("));
    }
}

#[test]
fn unsupported_features_are_named() {
    let text = SHADER.replace("MESA_SHADER_FRAGMENT", "MESA_SHADER_VERTEX");
    let shader = gpucc::nir::parse(&text);
    if let Ok(shader) = shader {
        let ctx = Context::new(DevInfo::from_name("ivb").unwrap());
        match ctx.compile(&shader, &Options::default()) {
            // Gen7 runs vertex shaders SIMD4x2, in the vec4 backend, which names the
            // fragment-only intrinsic it cannot translate.
            Err(gpucc::intel::fs::CompileError::Unsupported(w)) => {
                assert!(
                    w.contains("load_barycentric_pixel") && w.contains("vec4"),
                    "{w}"
                )
            }
            other => panic!("vertex shader: {other:?}"),
        }
    }
    // Gen6 builds this fragment shader (SIMD8 and SIMD16, no SIMD32); Gen5 and older are
    // outside the backend.
    let shader = gpucc::nir::parse(SHADER).unwrap();
    let ctx = Context::new(DevInfo::from_name("snb").unwrap());
    let k = ctx.compile(&shader, &Options::default()).unwrap();
    assert!(k.variant(8).is_some() && k.variant(16).is_some() && k.variant(32).is_none());
    let ctx = Context::new(DevInfo::from_name("ilk").unwrap());
    match ctx.compile(&shader, &Options::default()) {
        Err(gpucc::intel::fs::CompileError::Unsupported(w)) => assert!(w.contains("ilk"), "{w}"),
        other => panic!("ilk: {other:?}"),
    }
}

#[test]
fn context_is_shared_between_threads() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    let ctx = Context::new(DevInfo::from_name("bdw").unwrap());
    send_sync(&ctx);
    let shader = gpucc::nir::parse(SHADER).unwrap();
    let opts = Options::widths(&[8, 16]);
    let a = std::thread::scope(|s| {
        let h = s.spawn(|| ctx.compile(&shader, &opts).unwrap().code);
        let mine = ctx.compile(&shader, &opts).unwrap().code;
        (h.join().unwrap(), mine)
    });
    assert_eq!(a.0, a.1, "same bytes from two threads");
}
