//! Scalar-backend features beyond the corpus basics, each compiled from hand-written NIR and
//! run on the EU simulator against the reference interpreter (ivb, hsw, bdw; SIMD8 and
//! SIMD16), plus the encoding facts Mesa 23.3's brw emits for them:
//!
//! - NIR scratch (`load_scratch`/`store_scratch`): DWORD scattered messages to the stateless
//!   surface (BTI 255 on Gen7, 253 on Gen8), swizzled so each channel has its own dword;
//! - dual-source blending: SIMD8 dual-source render-target writes (a SIMD16 thread sends two);
//! - memory fences: one data-cache fence message per barrier with memory scope, the Ivybridge
//!   render-cache fence for images with commits waited on, none where brw leaves it out;
//! - compute-shader verification through `intel::backend::verify` (what `gpucc verify` runs).

use gpucc::intel::fs::CompileError;

use gpucc::intel::backend::{verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;
use gpucc::nir;

mod common;

use common::intel_fs::{asm, fs_reading_v, passes_everywhere, PLATFORMS};

fn ctx(p: &str) -> Context {
    Context::new(DevInfo::from_name(p).unwrap())
}

/// An array of eight floats in scratch: filled with 1..8, then one element at a per-pixel
/// index overwritten, another overwritten only by pixels that take a branch, and three
/// elements read back at per-pixel and constant indices. The indices come from the
/// interpolated input, so neighbouring channels address different elements: a layout that
/// let channels share dwords would mix their arrays up.
fn scratch() -> String {
    fs_reading_v(
        "scratch-array",
        "",
        r#"scratch: 32
"#,
        "",
        r#"    32    %10 = load_const (0x3f800000)
    32    %11 = load_const (0x40000000)
    32    %12 = load_const (0x40400000)
    32    %13 = load_const (0x40800000)
    32    %14 = load_const (0x40a00000)
    32    %15 = load_const (0x40c00000)
    32    %16 = load_const (0x40e00000)
    32    %17 = load_const (0x41000000)
    32    %20 = load_const (0x00000004)
    32    %21 = load_const (0x00000008)
    32    %22 = load_const (0x0000000c)
    32    %23 = load_const (0x00000010)
    32    %24 = load_const (0x00000014)
    32    %25 = load_const (0x00000018)
    32    %26 = load_const (0x0000001c)
    @store_scratch (%10, %1) (align_mul=4, align_offset=0, wrmask=x)
    @store_scratch (%11, %20) (align_mul=4, align_offset=0, wrmask=x)
    @store_scratch (%12, %21) (align_mul=4, align_offset=0, wrmask=x)
    @store_scratch (%13, %22) (align_mul=4, align_offset=0, wrmask=x)
    @store_scratch (%14, %23) (align_mul=4, align_offset=0, wrmask=x)
    @store_scratch (%15, %24) (align_mul=4, align_offset=0, wrmask=x)
    @store_scratch (%16, %25) (align_mul=4, align_offset=0, wrmask=x)
    @store_scratch (%17, %26) (align_mul=4, align_offset=0, wrmask=x)
    32    %30 = load_const (0x41000000)
    32    %31 = fmul %2.x, %30
    32    %32 = f2u32 %31
    32    %33 = load_const (0x00000007)
    32    %34 = iand %32, %33
    32    %35 = load_const (0x00000002)
    32    %36 = ishl %34, %35
    32    %37 = load_const (0x41800000)
    32    %38 = fmul %2.y, %37
    32    %39 = f2u32 %38
    32    %40 = iand %39, %33
    32    %41 = ishl %40, %35
    32    %42 = load_const (0x40400000)
    32    %43 = fmul %2.z, %42
    @store_scratch (%43, %36) (align_mul=4, align_offset=0, wrmask=x)
    32    %44 = load_const (0x3f666666)
    32    %45 = flt32 %2.x, %44
    // succs: b1 b2
    if %45 {
        block b1:  // preds: b0
        32    %46 = load_const (0x42c60000)
        @store_scratch (%46, %41) (align_mul=4, align_offset=0, wrmask=x)
        // succs: b3
    } else {
        block b2:  // preds: b0
        // succs: b3
    }
    block b3:  // preds: b1 b2
    32    %47 = @load_scratch (%41) (align_mul=4, align_offset=0)
    32    %48 = @load_scratch (%36) (align_mul=4, align_offset=0)
    32    %49 = @load_scratch (%26) (align_mul=256, align_offset=28)
    32x4  %50 = vec4 %47, %48, %49, %2.w
    @store_output (%50, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b4
    block b4:
}
"#,
    )
}

#[test]
fn scratch_array_with_per_pixel_indices_matches_the_interpreter() {
    passes_everywhere(&scratch());
}

#[test]
fn scratch_uses_dword_scattered_messages_to_the_stateless_surface() {
    // brw: BTI_STATELESS (255) on Gen7, GFX8_BTI_STATELESS_NON_COHERENT (253) on Gen8; type 11
    // (write) and 3 (read); function control bit 1 (legacy SIMD mode) with bit 0 = SIMD16.
    for (p, bti) in [("ivb", 255u32), ("hsw", 255), ("bdw", 253)] {
        for simd in [8u32, 16] {
            let a = asm(p, &scratch(), simd);
            let descs: Vec<u32> = a
                .lines()
                .filter(|l| l.starts_with("send"))
                .filter_map(|l| l.split_whitespace().last())
                .filter_map(|d| u32::from_str_radix(d.trim_start_matches("0x"), 16).ok())
                .filter(|d| d & 0xff == bti)
                .collect();
            let control = 2 | (simd == 16) as u32;
            let writes = descs
                .iter()
                .filter(|d| *d >> 14 & 0xf == 11 && *d >> 8 & 3 == control)
                .count();
            let reads = descs
                .iter()
                .filter(|d| *d >> 14 & 0xf == 3 && *d >> 8 & 3 == control)
                .count();
            assert_eq!((writes, reads), (10, 3), "{p} SIMD{simd}:\n{a}");
            // Header present (bit 19) on every one: the stateless surface needs the
            // scratch base from g0.5.
            assert!(descs.iter().all(|d| d >> 19 & 1 == 1), "{p} SIMD{simd}");
        }
    }
}

#[test]
fn scratch_size_and_statistics_count_the_nir_scratch() {
    let shader = nir::parse(&scratch()).unwrap();
    let k = ctx("bdw")
        .compile(&shader, &Options::widths(&[8, 16]))
        .unwrap();
    for simd in [8u32, 16] {
        let v = k.variant(simd).unwrap();
        // 32 bytes per invocation, swizzled: 32 * width bytes per thread.
        assert!(
            v.scratch_size >= 32 * simd,
            "SIMD{simd}: {}",
            v.scratch_size
        );
        // Mesa counts each scratch write as a spill and each read as a fill.
        assert!(
            v.stats.spills >= 10,
            "SIMD{simd}: {} spills",
            v.stats.spills
        );
        assert!(v.stats.fills >= 3, "SIMD{simd}: {} fills", v.stats.fills);
    }
    assert_eq!(
        k.scratch_size,
        k.simd.iter().map(|v| v.scratch_size).max().unwrap()
    );
}

#[test]
fn scratch_of_sub_dword_data_is_named_unsupported() {
    let text = scratch().replace(
        "%48 = @load_scratch (%36) (align_mul=4, align_offset=0)",
        "%48 = @load_scratch (%36) (align_mul=2, align_offset=0)",
    );
    let shader = nir::parse(&text).unwrap();
    match ctx("bdw").compile(&shader, &Options::widths(&[8])) {
        Err(CompileError::Unsupported(f)) => assert!(f.contains("load_scratch"), "{f}"),
        other => panic!("expected unsupported, got {other:?}"),
    }
}

/// Dual-source blending: colour 0 and the blend-factor colour, with a discard, so the
/// write's pixel mask matters too.
const DUAL: &str = r#"shader: MESA_SHADER_FRAGMENT
name: dual-source
color_is_dual_source: true
inputs: 1
outputs: 2
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 ocol0 (FRAG_RESULT_DATA0.xyzw, 8, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 ocol1 (FRAG_RESULT_DATA0.xyzw, 9, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32x2  %0 = @load_barycentric_pixel () (interp_mode=1)
    32    %1 = load_const (0x00000000)
    32x4  %2 = @load_interpolated_input (%0, %1) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    32    %3 = load_const (0x40000000)
    32    %4 = fmul %2.x, %3
    32    %5 = fadd %2.y, %2.z
    32    %6 = load_const (0x3fa00000)
    32    %7 = flt32 %6, %2.x
    @discard_if (%7) ()
    32x4  %8 = vec4 %2.x, %2.y, %2.z, %2.w
    32    %9 = SCALE
    32x4  %10 = vec4 %4, %5, %9, %3
    @store_output (%8, %1) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    @store_output (%10, %1) (base=9, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1 dualsrc, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#;

fn dual(scale: &str) -> String {
    DUAL.replace("SCALE", scale)
}

#[test]
fn dual_source_blending_matches_the_interpreter() {
    passes_everywhere(&dual("fmul %2.w, %3"));
}

#[test]
fn dual_source_writes_are_simd8_messages_with_a_header() {
    for p in PLATFORMS {
        let shader = nir::parse(&dual("fmul %2.w, %3")).unwrap();
        let k = ctx(p).compile(&shader, &Options::widths(&[8, 16])).unwrap();
        assert!(k.flags.dual_source_blend, "{p}");
        assert_eq!(k.num_render_targets, 1, "{p}");
        // SIMD8: one write for subspans 0-1; SIMD16: that plus one for subspans 2-3 (brw's
        // message subtypes 2 and 3), only the second the last (and the end of the thread).
        for (simd, want) in [(8, vec![2]), (16, vec![2, 3])] {
            let a = asm(p, &dual("fmul %2.w, %3"), simd);
            let writes: Vec<(u32, bool)> = a
                .lines()
                .filter(|l| {
                    l.contains("null<1>UW") && (l.contains("send(") || l.contains("sendc("))
                })
                .filter_map(|l| {
                    let d = l.split_whitespace().last()?;
                    let d = u32::from_str_radix(d.trim_start_matches("0x"), 16).ok()?;
                    (d >> 14 & 0xf == 12).then_some((d, d >> 12 & 1 == 1))
                })
                .map(|(d, eot)| {
                    // Header present, mlen 2 + 8 colour registers.
                    assert_eq!(d >> 19 & 1, 1, "{p} SIMD{simd}: {d:#x}");
                    assert_eq!(d >> 25 & 0xf, 10, "{p} SIMD{simd}: {d:#x}");
                    (d >> 8 & 7, eot)
                })
                .collect();
            let subtypes: Vec<u32> = writes.iter().map(|w| w.0).collect();
            assert_eq!(subtypes, want, "{p} SIMD{simd}:\n{a}");
            let eots: Vec<bool> = writes.iter().map(|w| w.1).collect();
            let mut want_eot = vec![false; want.len()];
            *want_eot.last_mut().unwrap() = true;
            assert_eq!(eots, want_eot, "{p} SIMD{simd}");
        }
    }
}

#[test]
fn a_wrong_second_colour_is_caught() {
    // The kernel computes z of the second colour as 2w; checked against a shader that says
    // 4x, only the second colour differs.
    let good = nir::parse(&dual("fmul %2.w, %3")).unwrap();
    let other = nir::parse(&dual("fmul %4, %3")).unwrap();
    for p in PLATFORMS {
        let ctx = ctx(p);
        for simd in [8, 16] {
            let k = ctx.compile(&good, &Options::widths(&[simd])).unwrap();
            match verify_kernel(&ctx, &other, &k, simd) {
                VerifyOutcome::Fail { output, .. } => {
                    assert!(output.starts_with("FRAG_RESULT_DATA0.z"), "{p}: {output}")
                }
                o => panic!("{p} SIMD{simd}: expected a mismatch, got {o:?}"),
            }
        }
    }
}

fn compute(size: [u32; 3], shared: u32, body: &str) -> String {
    format!(
        "shader: MESA_SHADER_COMPUTE\nname: cs\nworkgroup_size: {}, {}, {}\nshared_size: {shared}\n\
         inputs: 0\noutputs: 0\nuniforms: 0\ndecl_function main (0 params)\n\nimpl main {{\n    \
         block b0:  // preds:\n{body}    // succs: b1\n    block b1:\n}}\n",
        size[0], size[1], size[2]
    )
}

/// Each invocation stores its index to SSBO 0, fences, then stores its index times `mul` to
/// SSBO 0 at 256 + 4 * index.
fn fenced(modes: &str, scope: &str, mul: u32) -> String {
    compute(
        [8, 1, 1],
        64,
        &format!(
            "    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000004)
    32    %2 = imul %0, %1
    32    %3 = load_const (0x00000000)
    @store_ssbo (%0, %3, %2) (wrmask=x, access=none, align_mul=4, align_offset=0)
    @barrier () (execution_scope=NONE, memory_scope={scope}, memory_semantics=ACQ|REL, memory_modes={modes})
    32    %4 = load_const (0x{mul:08x})
    32    %5 = imul %0, %4
    32    %6 = load_const (0x00000100)
    32    %7 = iadd %2, %6
    @store_ssbo (%5, %3, %7) (wrmask=x, access=none, align_mul=4, align_offset=0)
"
        ),
    )
}

/// (fence messages, of which with commit, stalling reads of their replies) in `asm`.
fn fences(asm: &str) -> (usize, usize, usize) {
    let sends: Vec<u32> = asm
        .lines()
        .filter(|l| l.starts_with("send"))
        .filter_map(|l| l.split_whitespace().last())
        .filter_map(|d| u32::from_str_radix(d.trim_start_matches("0x"), 16).ok())
        .filter(|d| d >> 14 & 0xf == 7 && d >> 25 & 0xf == 1)
        .collect();
    let commits = sends.iter().filter(|d| **d >> 13 & 1 == 1).count();
    let stalls = asm
        .lines()
        .filter(|l| l.starts_with("mov(1)") && l.contains("null<1>UW"))
        .count();
    (sends.len(), commits, stalls)
}

#[test]
fn fences_follow_brw_on_gen7_and_gen8() {
    // SSBO: one data-cache fence, no commit (commits only for Ivybridge's two-fence case).
    for p in PLATFORMS {
        for simd in [8, 16] {
            assert_eq!(
                fences(&asm(p, &fenced("ssbo", "WORKGROUP", 3), simd)),
                (1, 0, 0),
                "{p}"
            );
        }
    }
    // Images on Ivybridge: data-cache and render-cache fences, both committed and waited for.
    let a = asm("ivb", &fenced("ssbo|image", "WORKGROUP", 3), 8);
    assert_eq!(fences(&a), (2, 2, 2), "{a}");
    assert_eq!(
        fences(&asm("hsw", &fenced("image", "WORKGROUP", 3), 8)),
        (1, 0, 0)
    );
    // Shared memory of a workgroup that one thread runs: ordered already, no fence.
    assert_eq!(
        fences(&asm("bdw", &fenced("shared", "WORKGROUP", 3), 8)),
        (0, 0, 0)
    );
    // No memory scope: no fence.
    assert_eq!(
        fences(&asm("bdw", &fenced("ssbo", "NONE", 3), 8)),
        (0, 0, 0)
    );
}

#[test]
fn shared_memory_fence_when_the_workgroup_spans_threads() {
    let text = compute(
        [32, 1, 1],
        256,
        "    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000004)
    32    %2 = imul %0, %1
    @store_shared (%0, %2) (base=0, wrmask=x, align_mul=4, align_offset=0)
    @barrier () (execution_scope=NONE, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=shared)
    32    %3 = load_const (0x00000000)
    @store_ssbo (%0, %3, %2) (wrmask=x, access=none, align_mul=4, align_offset=0)
",
    );
    for p in PLATFORMS {
        assert_eq!(fences(&asm(p, &text, 8)), (1, 0, 0), "{p}");
        assert_eq!(fences(&asm(p, &text, 16)), (1, 0, 0), "{p}");
    }
}

#[test]
fn fenced_compute_shaders_verify() {
    passes_everywhere(&fenced("ssbo", "WORKGROUP", 3));
    passes_everywhere(&fenced("ssbo|image", "WORKGROUP", 5));
}

#[test]
fn compute_verification_catches_a_wrong_store() {
    // Compiled with a multiplier of 3, checked against the shader that says 5.
    let built = nir::parse(&fenced("ssbo", "WORKGROUP", 3)).unwrap();
    let other = nir::parse(&fenced("ssbo", "WORKGROUP", 5)).unwrap();
    for p in PLATFORMS {
        let ctx = ctx(p);
        let k = ctx.compile(&built, &Options::widths(&[8])).unwrap();
        match verify_kernel(&ctx, &other, &k, 8) {
            // Invocation 1 is the first whose store differs: dword 64 + 1.
            VerifyOutcome::Fail {
                output,
                expected,
                got,
                ..
            } => {
                assert!(output.starts_with("SSBO 0 dword 65 "), "{p}: {output}");
                assert_eq!(
                    (expected.as_str(), got.as_str()),
                    ("0x00000005", "0x00000003")
                );
            }
            o => panic!("{p}: expected a mismatch, got {o:?}"),
        }
    }
}

#[test]
fn compute_workgroups_over_several_threads_verify() {
    // 40 invocations: five SIMD8 threads, or two SIMD16 threads and a partial third.
    let text = compute(
        [10, 4, 1],
        0,
        "    32    %0 = @load_local_invocation_index () ()
    32x3  %1 = @load_workgroup_id () ()
    32x3  %2 = @load_local_invocation_id () ()
    32    %3 = load_const (0x00000004)
    32    %4 = imul %0, %3
    32    %5 = imul %1.x, %2.y
    32    %6 = iadd %5, %1.z
    32    %7 = load_const (0x00000000)
    @store_ssbo (%6, %7, %4) (wrmask=x, access=none, align_mul=4, align_offset=0)
",
    );
    passes_everywhere(&text);
}

/// The constant-data address is a relocated immediate on Gen8 (the driver patches it; the
/// checks patch it with the address the interpreter returns, so the output, the address
/// itself, must match); Gen7 has no A64 messages to read constant data with and says so.
#[test]
fn constant_data_address_is_relocated_on_gen8_only() {
    let text = r#"shader: MESA_SHADER_FRAGMENT
name: reloc
inputs: 0
outputs: 1
uniforms: 0
constants: 64
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_reloc_const_intel () (param_idx=0)
    32x4  %2 = vec4 %1, %1, %1, %1
    @store_output (%2, %0) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#;
    let shader = nir::parse(text).unwrap();
    let bdw = ctx("bdw");
    let k = bdw.compile(&shader, &Options::widths(&[8, 16])).unwrap();
    assert_eq!(k.constant_data_size, 64);
    let ids: Vec<u32> = k.relocs.iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        [0, 0],
        "one CONST_DATA_ADDR_LOW relocation per variant"
    );
    for simd in [8, 16] {
        assert_eq!(
            verify_kernel(&bdw, &shader, &k, simd),
            VerifyOutcome::Pass,
            "SIMD{simd}"
        );
    }
    match ctx("ivb").compile(&shader, &Options::widths(&[8])) {
        Err(CompileError::Unsupported(f)) => {
            assert!(
                f.contains("load_reloc_const_intel") && f.contains("Gen8"),
                "{f}"
            )
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
}

/// Centroid and sample barycentrics, and a non-perspective input: three barycentric modes in
/// the payload, packed in Mesa's `brw_barycentric_mode` order.
const BARYCENTRICS: &str = r#"shader: MESA_SHADER_FRAGMENT
name: barycentric-modes
inputs: 3
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec4 a (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_var shader_in INTERP_MODE_NOPERSPECTIVE none vec4 b (VARYING_SLOT_VAR1.xyzw, 1, 0)
decl_var shader_in INTERP_MODE_SMOOTH none vec4 c (VARYING_SLOT_VAR2.xyzw, 2, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32x2  %0 = @load_barycentric_centroid () (interp_mode=1)
    32x2  %1 = @load_barycentric_pixel () (interp_mode=3)
    32x2  %2 = @load_barycentric_sample () (interp_mode=1)
    32    %3 = load_const (0x00000000)
    32x4  %4 = @load_interpolated_input (%0, %3) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    32x4  %5 = @load_interpolated_input (%1, %3) (base=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR1 slots=1)
    32x4  %6 = @load_interpolated_input (%2, %3) (base=2, component=0, dest_type=float32, io location=VARYING_SLOT_VAR2 slots=1)
    32x4  %7 = vec4 %4.x, %5.y, %6.z, %4.w
    @store_output (%7, %3) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#;

#[test]
fn centroid_sample_and_noperspective_barycentrics_match_the_interpreter() {
    passes_everywhere(BARYCENTRICS);
}

#[test]
fn barycentric_modes_are_packed_in_brw_order() {
    let shader = nir::parse(BARYCENTRICS).unwrap();
    for p in PLATFORMS {
        let k = ctx(p).compile(&shader, &Options::widths(&[8, 16])).unwrap();
        // Perspective centroid (1), perspective sample (2), non-perspective pixel (3).
        assert_eq!(k.flags.barycentric_modes, 0b1110, "{p}");
        assert!(!k.flags.bary_perspective_pixel, "{p}");
        for (simd, start) in [(8u32, 2 + 3 * 2), (16, 2 + 3 * 4)] {
            assert_eq!(k.variant(simd).unwrap().dispatch_grf_start, start, "{p}");
            // Centroid at g2, sample next, non-perspective pixel last: what each PLN reads.
            let per = 2 * simd / 8;
            let a = asm(p, BARYCENTRICS, simd);
            let mut read: Vec<u32> = a
                .lines()
                .filter(|l| l.starts_with("pln"))
                .filter_map(|l| l.split_whitespace().nth(3))
                .filter_map(|r| r.trim_start_matches('g').split('<').next()?.parse().ok())
                .collect();
            read.sort_unstable();
            read.dedup();
            assert_eq!(read, vec![2, 2 + per, 2 + 2 * per], "{p} SIMD{simd}:\n{a}");
        }
    }
}

const LEVELS: &str = r#"shader: MESA_SHADER_FRAGMENT
name: query-levels
inputs: 0
outputs: 1
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler2D tex (0, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32    %0 = load_const (0x00000000)
    32    %1 = (int32)query_levels 0 (texture), 0 (sampler)
    32x2  %2 = (int32)txs %0 (lod), 0 (texture), 0 (sampler)
    32    %3 = i2f32 %1
    32    %4 = i2f32 %2.x
    32    %5 = load_const (0x3f800000)
    32x4  %6 = vec4 %3, %4, %0, %5
    @store_output (%6, %0) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#;

#[test]
fn query_levels_is_the_fourth_resinfo_component() {
    passes_everywhere(LEVELS);
}

/// Texel offsets on a sample, an explicit-LOD sample and a texel fetch, at per-pixel
/// coordinates.
fn offsets() -> String {
    fs_reading_v(
        "texel-offsets",
        "",
        "",
        r#"decl_var uniform INTERP_MODE_NONE none sampler2D tex (0, 0, 0)
"#,
        r#"    32x2  %3 = vec2 %2.x, %2.y
    32x2  %4 = load_const (0xffffffff, 0x00000002)
    32x4  %5 = (float32)tex %3 (coord), %4 (offset), 0 (texture), 0 (sampler)
    32    %6 = load_const (0x3f800000)
    32x2  %7 = load_const (0x00000007, 0xfffffff8)
    32x4  %8 = (float32)txl %3 (coord), %6 (lod), %7 (offset), 0 (texture), 0 (sampler)
    32    %9 = load_const (0x41000000)
    32    %10 = fmul %2.x, %9
    32    %11 = f2i32 %10
    32x2  %12 = vec2 %11, %11
    32x4  %13 = (float32)txf %12 (coord), %1 (lod), %4 (offset), 0 (texture), 0 (sampler)
    32x4  %14 = vec4 %5.x, %5.y, %8.x, %13.y
    @store_output (%14, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#,
    )
}

#[test]
fn texel_offsets_match_the_interpreter() {
    passes_everywhere(&offsets());
}

#[test]
fn texel_offsets_travel_in_the_sampler_header() {
    // (-1, 2) -> u 0xf at 11:8, v 0x2 at 7:4; (7, -8) -> 0x7, 0x8.
    for p in PLATFORMS {
        let a = asm(p, &offsets(), 8);
        for bits in ["0x00000f20UD", "0x00000780UD"] {
            assert!(
                a.lines()
                    .any(|l| l.starts_with("mov(1)") && l.contains(".2<1>UD") && l.contains(bits)),
                "{p}: no header dword 2 = {bits}:\n{a}"
            );
        }
        let headed = a
            .lines()
            .filter(|l| l.contains("send"))
            .filter_map(|l| l.split_whitespace().last())
            .filter_map(|d| u32::from_str_radix(d.trim_start_matches("0x"), 16).ok())
            .filter(|d| d >> 19 & 1 == 1 && d & 0xff == 0)
            .count();
        // The two sampling messages carry a header; the fetch has its offsets added.
        assert_eq!(headed, 2, "{p}:\n{a}");
    }
}
