//! Texturing in Gen7 vertex shaders (the vec4 backend's SIMD4x2 sampler messages): each form
//! a vertex shader can use — `txl` and `tex` (`sample_l`), `txl` with a reference value
//! (`sample_l_c`), texel offsets (the message header), `txf` (`ld`), `txs` and
//! `query_levels` (`resinfo`) — hand-written with coordinates, levels and references taken
//! from each vertex's own attributes, run two vertices per thread on the simulator against
//! the interpreter on Ivy Bridge and Haswell. The message descriptors are derived by hand
//! from the Gen7 sampler descriptor layout (mlen 28:25, rlen 24:20, header 19, SIMD4x2 mode 0
//! in 18:17, type 16:12, sampler 11:8, binding table 7:0); the layouts follow Mesa's
//! `nir_emit_texture` (brw_vec4_nir.cpp).

use gpucc::intel::fs::CompileError;

use gpucc::intel::backend::{verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::kernel::Kernel;
use gpucc::intel::DevInfo;
use gpucc::nir;

fn ctx(p: &str) -> Context {
    Context::new(DevInfo::from_name(p).unwrap())
}

/// A vertex shader whose body (block b0) follows the position read from attribute 0 (`%1`,
/// with `%0` the constant 0).
fn vs(body: &str) -> String {
    format!(
        "shader: MESA_SHADER_VERTEX\nname: test\ninputs_read: 0\ninputs: 0\noutputs: 0\n\
         uniforms: 0\ndecl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds:\n\
         32    %0 = load_const (0x00000000)\n\
         32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
         @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
         {body}    // succs: b1\n    block b1:\n}}\n"
    )
}

/// `@store_output` of `value` to VAR`n` as `ty`.
fn out(value: u32, n: u32, ty: &str, mask: &str) -> String {
    format!(
        "@store_output (%{value}, %0) (base={}, range=1, wrmask={mask}, component=0, \
         src_type={ty}, io location=VARYING_SLOT_VAR{n} slots=1, xfb(), xfb2())\n",
        32 + n
    )
}

/// Compiles `text` on ivb and hsw, checks each kernel against the interpreter and returns
/// the ivb kernel with its disassembly.
fn compile_and_verify(text: &str) -> (Kernel, String) {
    let shader = nir::parse(text).expect("shader parses");
    let mut first = None;
    for p in ["ivb", "hsw"] {
        let c = ctx(p);
        let k = c
            .compile(&shader, &Options::widths(&[8]).validating())
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(k.is_simd4x2(), "{p}");
        assert_eq!(
            verify_kernel(&c, &shader, &k, 8),
            VerifyOutcome::Pass,
            "{p}"
        );
        if first.is_none() {
            let asm = k.disassemble(DevInfo::from_name(p).unwrap());
            first = Some((k, asm));
        }
    }
    first.unwrap()
}

/// The sampler message descriptors of `asm`, in code order.
fn sampler_descs(asm: &str) -> Vec<u32> {
    let lines: Vec<&str> = asm.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0].starts_with("send") && w[1].contains("sampler MsgDesc"))
        .filter_map(|w| w[0].split_whitespace().last())
        .filter_map(|d| u32::from_str_radix(d.trim_start_matches("0x"), 16).ok())
        .collect()
}

/// Coordinates (x*z, y*w) and level |w| differ per vertex (the verifier's attributes are
/// small dyadic floats in -3.5..3.5, so the level spans 0..3.5 and rounds to every level).
const COORD_AND_LEVEL: &str = "32x2  %2 = fmul %1.xy, %1.zw\n\
    32    %3 = fabs %1.w\n";

#[test]
fn txl_and_tex_send_sample_l_with_the_level_in_the_second_register() {
    let body = format!(
        "{COORD_AND_LEVEL}\
         32x4  %4 = (float32)txl %2 (coord), %3 (lod), 1 (texture), 2 (sampler)\n\
         32x4  %5 = (float32)tex %2 (coord), 0 (texture), 0 (sampler)\n{}{}",
        out(4, 0, "float32", "xyzw"),
        out(5, 1, "float32", "xyzw")
    );
    let (k, asm) = compile_and_verify(&vs(&body));
    // sample_l (2), mlen 2 (coordinates, level), no header; texture 1 with sampler 2, then
    // texture 0 with sampler 0.
    assert_eq!(sampler_descs(&asm), [0x0410_2201, 0x0410_2000], "{asm}");
    assert_eq!(
        k.surfaces.textures.iter().copied().collect::<Vec<_>>(),
        [0, 1]
    );
    assert_eq!(
        k.surfaces.samplers.iter().copied().collect::<Vec<_>>(),
        [0, 2]
    );
}

#[test]
fn the_check_sees_a_level_the_message_does_not_carry() {
    // The kernel of a `txl` at level |w| checked against the same shader at level 0: the
    // texel's w is 1 - level / 8, so vertices whose level rounds above 0 differ. (The check
    // is what the other tests rely on to catch a misplaced level.)
    let txl = |lod: &str| {
        vs(&format!(
            "{COORD_AND_LEVEL}\
             32x4  %4 = (float32)txl %2 (coord), {lod} (lod), 0 (texture), 0 (sampler)\n{}",
            out(4, 0, "float32", "xyzw")
        ))
    };
    let c = ctx("ivb");
    let at_w = nir::parse(&txl("%3")).unwrap();
    let at_zero = nir::parse(&txl("%0")).unwrap();
    let k = c.compile(&at_w, &Options::widths(&[8])).unwrap();
    assert_eq!(verify_kernel(&c, &at_w, &k, 8), VerifyOutcome::Pass);
    assert!(matches!(
        verify_kernel(&c, &at_zero, &k, 8),
        VerifyOutcome::Fail { .. }
    ));
}

#[test]
fn a_reference_value_sends_sample_l_c() {
    let body = format!(
        "{COORD_AND_LEVEL}\
         32    %6 = fmul %1.z, %1.x\n\
         32    %7 = (float32)txl %2 (coord), %6 (comparator), %3 (lod), 0 (texture), 1 (sampler)\n\
         32    %8 = (float32)tex %2 (coord), %6 (comparator), 0 (texture), 1 (sampler)\n{}{}",
        out(7, 0, "float32", "x"),
        out(8, 1, "float32", "x")
    );
    let (_, asm) = compile_and_verify(&vs(&body));
    // sample_l_c (6): the reference in x and the level in y of the second register.
    assert_eq!(sampler_descs(&asm), [0x0410_6100, 0x0410_6100], "{asm}");
}

#[test]
fn texel_offsets_go_in_a_header_and_only_then() {
    let body = format!(
        "{COORD_AND_LEVEL}\
         32x2  %9 = load_const (0x00000001, 0xfffffffe)\n\
         32x4  %10 = (float32)txl %2 (coord), %3 (lod), %9 (offset), 0 (texture), 0 (sampler)\n\
         32x4  %11 = (float32)txl %2 (coord), %3 (lod), 0 (texture), 0 (sampler)\n{}{}",
        out(10, 0, "float32", "xyzw"),
        out(11, 1, "float32", "xyzw")
    );
    let (_, asm) = compile_and_verify(&vs(&body));
    // With offsets (1, -2): header present (bit 19), mlen 3; u = 1 in bits 11:8, v = -2
    // (0xe) in 7:4 of the header's dword 2. Without: no header, mlen 2.
    assert_eq!(sampler_descs(&asm), [0x0618_2000, 0x0410_2000], "{asm}");
    assert!(asm.contains("0x000001e0UD"), "{asm}");
}

#[test]
fn txf_sends_ld_with_the_level_in_w() {
    let body = format!(
        "32x4  %2 = f2i32 %1\n\
         32    %3 = load_const (0x0000000f)\n\
         32    %4 = load_const (0x00000003)\n\
         32x2  %5 = iand %2.xy, %3.xx\n\
         32    %6 = iand %2.z, %4\n\
         32x4  %7 = (float32)txf %5 (coord), %6 (lod), 2 (texture)\n{}",
        out(7, 0, "float32", "xyzw")
    );
    let (k, asm) = compile_and_verify(&vs(&body));
    // ld (7), mlen 1, texture 2; no sampler state is used.
    assert_eq!(sampler_descs(&asm), [0x0210_7002], "{asm}");
    assert_eq!(k.surfaces.textures.iter().copied().collect::<Vec<_>>(), [2]);
    assert!(k.surfaces.samplers.is_empty());
}

#[test]
fn txs_and_query_levels_send_resinfo() {
    let body = format!(
        "32x4  %2 = f2i32 %1\n\
         32    %3 = load_const (0x00000003)\n\
         32    %4 = iand %2.w, %3\n\
         32x2  %5 = (int32)txs %4 (lod), 1 (texture)\n\
         32    %6 = (int32)query_levels 1 (texture)\n{}{}",
        out(5, 0, "int32", "xy"),
        out(6, 1, "int32", "x")
    );
    let (_, asm) = compile_and_verify(&vs(&body));
    // resinfo (10), mlen 1, texture 1: one for the size, one for the level count.
    assert_eq!(sampler_descs(&asm), [0x0210_a001, 0x0210_a001], "{asm}");
}

#[test]
fn a_level_bias_is_not_a_vertex_shader_operation() {
    let body = format!(
        "{COORD_AND_LEVEL}\
         32x4  %4 = (float32)txb %2 (coord), %3 (bias), 0 (texture), 0 (sampler)\n{}",
        out(4, 0, "float32", "xyzw")
    );
    let shader = nir::parse(&vs(&body)).unwrap();
    let e = ctx("ivb").compile(&shader, &Options::widths(&[8]));
    assert!(matches!(e, Err(CompileError::Invalid(_))), "{e:?}");
}
