//! SIMD32 fragment programs (issue 21): a hand-written shader that samples a texture,
//! interpolates an input, reads the pixel position, discards pixels in both 16-channel halves
//! and runs divergent flow control (a loop whose trip count differs per pixel, an if/else),
//! compiled at SIMD32 and run on the EU simulator against the reference interpreter on every
//! Gen7-Gen9 platform; the shapes Mesa 23.3 gives such a program (no instruction wider than
//! 16 channels but control flow, two SIMD16 sampler messages, two SIMD16 render-target
//! writes of which only the second ends the thread, the payload of setup_fs_payload_gfx6);
//! and `simd_mask` through the C ABI: a width not in the mask is never built.

use std::ffi::{c_char, CString};
use std::ptr;

use gpucc::capi::*;
use gpucc::intel::backend::{verify, verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;
use gpucc::nir;

mod common;

/// The Gen7-Gen9 platforms SIMD32 is built for.
const PLATFORMS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

/// The shader, with `scale` the factor of the else branch's blue (so that a variant can
/// differ from it in one constant).
fn shader(scale: &str) -> String {
    format!(
        r#"shader: MESA_SHADER_FRAGMENT
name: simd32-mix
inputs: 1
outputs: 1
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler2D tex (0, 0, 0)
decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {{
    block b0:  // preds:
    32    %20 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %21 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %22 = @decl_reg () (num_components=4, num_array_elems=0, bit_size=32, divergent=1)
    32x2  %0 = @load_barycentric_pixel () (interp_mode=1)
    32    %1 = load_const (0x00000000)
    32x4  %2 = @load_interpolated_input (%0, %1) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    32x2  %3 = vec2 %2.x, %2.y
    32x4  %4 = (float32)tex %3 (coord), 0 (texture), 0 (sampler)
    32x4  %5 = @load_frag_coord () ()
    32    %6 = load_const (0x40a00000)
    32    %7 = load_const (0x41500000)
    32    %8 = feq32 %5.x, %6
    32    %9 = feq32 %5.x, %7
    32    %10 = ior %8, %9
    @discard_if (%10) ()
    32    %11 = f2u32 %5.x
    32    %12 = load_const (0x00000003)
    32    %13 = iand %11, %12
    32    %14 = load_const (0x00000001)
    32    %15 = mov %2.w
    @store_reg (%1, %20) (base=0, wrmask=x, legacy_fsat=0)
    @store_reg (%15, %21) (base=0, wrmask=x, legacy_fsat=0)
    // succs: b1
    loop {{
        block b1:  // preds: b0 b4
        32    %30 = @load_reg (%20) (base=0, legacy_fabs=0, legacy_fneg=0)
        32    %31 = uge32 %30, %13
        // succs: b2 b3
        if %31 {{
            block b2:  // preds: b1
            break
            // succs: b6
        }} else {{
            block b3:  // preds: b1, succs: b4
        }}
        block b4:  // preds: b3
        32    %32 = @load_reg (%21) (base=0, legacy_fabs=0, legacy_fneg=0)
        32    %33 = fadd %32, %4.x
        @store_reg (%33, %21) (base=0, wrmask=x, legacy_fsat=0)
        32    %34 = iadd %30, %14
        @store_reg (%34, %20) (base=0, wrmask=x, legacy_fsat=0)
        // succs: b1
    }}
    block b6:  // preds: b2
    32    %40 = @load_reg (%21) (base=0, legacy_fabs=0, legacy_fneg=0)
    32    %41 = load_const (0x3f800000)
    32    %42 = feq32 %5.y, %1
    // succs: b7 b8
    if %42 {{
        block b7:  // preds: b6
        32x4  %43 = vec4 %40, %4.y, %2.z, %41
        @store_reg (%43, %22) (base=0, wrmask=xyzw, legacy_fsat=0)
        // succs: b9
    }} else {{
        block b8:  // preds: b6
        32    %44 = load_const ({scale})
        32    %45 = fmul %5.x, %44
        32x4  %46 = vec4 %4.z, %40, %45, %2.x
        @store_reg (%46, %22) (base=0, wrmask=xyzw, legacy_fsat=0)
        // succs: b9
    }}
    block b9:  // preds: b7 b8
    32x4  %50 = @load_reg (%22) (base=0, legacy_fabs=0, legacy_fneg=0)
    @store_output (%50, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b10
    block b10:
}}
"#
    )
}

fn parse(text: &str) -> nir::Shader {
    nir::parse(text).expect("shader parses")
}

#[test]
fn texture_discard_loop_and_interpolation_match_the_interpreter_at_simd32() {
    let s = parse(&shader("0x3dcccccd"));
    for p in PLATFORMS {
        let ctx = Context::new(DevInfo::from_name(p).unwrap());
        for simd in [8, 16, 32] {
            assert_eq!(
                verify(&ctx, &s, simd),
                VerifyOutcome::Pass,
                "{p} SIMD{simd}"
            );
        }
    }
}

/// The check can fail: the SIMD32 program of the shader does not pass for a shader whose
/// else branch scales by another constant (only pixels of the second row, in both halves,
/// take it).
#[test]
fn a_wrong_simd32_program_is_caught() {
    let ctx = Context::new(DevInfo::from_name("ivb").unwrap());
    let k = ctx
        .compile(&parse(&shader("0x3dcccccd")), &Options::widths(&[32]))
        .unwrap();
    let other = parse(&shader("0x3e4ccccd"));
    match verify_kernel(&ctx, &other, &k, 32) {
        VerifyOutcome::Fail { output, .. } => assert!(
            output.contains("gl_FragColor.z") || output.contains("FRAG_RESULT"),
            "{output}"
        ),
        v => panic!("a wrong SIMD32 program passed: {v:?}"),
    }
}

/// What Mesa 23.3 gives a SIMD32 program on these generations: every instruction at most
/// 16 channels wide but control flow (IF/ELSE/ENDIF/WHILE/BREAK run at the dispatch width),
/// the sample as two SIMD16 sampler messages (SIMD mode 2), the colour as two SIMD16
/// render-target writes (subtype 0), the second for slot group 1 (descriptor bit 11) and
/// the only one with EOT, both marked last render target.
#[test]
fn simd32_is_made_of_simd16_halves_and_split_messages() {
    for p in PLATFORMS {
        let dev = DevInfo::from_name(p).unwrap();
        let k = Context::new(dev)
            .compile(&parse(&shader("0x3dcccccd")), &Options::widths(&[32]))
            .unwrap();
        let v = k.variant(32).expect("a SIMD32 variant");
        let code = &k.code[v.offset as usize..(v.offset + v.size) as usize];
        let insts = gpucc::intel::eu::decode_program(dev, code).unwrap();
        let flow = [
            gpucc::intel::eu::Opcode::If,
            gpucc::intel::eu::Opcode::Else,
            gpucc::intel::eu::Opcode::Endif,
            gpucc::intel::eu::Opcode::While,
            gpucc::intel::eu::Opcode::Break,
        ];
        for i in &insts {
            if flow.contains(&i.opcode) {
                assert_eq!(i.exec_size, 32, "{p}: {:?}", i.opcode);
            } else {
                assert!(
                    i.exec_size <= 16,
                    "{p}: {:?} of {} channels",
                    i.opcode,
                    i.exec_size
                );
            }
        }
        let sends: Vec<_> = insts.iter().filter(|i| i.opcode.is_send()).collect();
        let desc = |i: &gpucc::intel::eu::Inst| i.send_desc().unwrap();
        let samples: Vec<_> = sends
            .iter()
            .filter(|i| i.msg.map(|m| m.sfid) == Some(gpucc::intel::eu::types::sfid::SAMPLER))
            .collect();
        assert_eq!(samples.len(), 2, "{p}: sampler messages");
        for (h, s) in samples.iter().enumerate() {
            assert_eq!(s.exec_size, 16);
            assert_eq!(desc(s) >> 17 & 3, 2, "{p}: SIMD16 sampler mode");
            assert_eq!(s.qtr_ctrl, 2 * h as u8, "{p}: half {h} channel group");
        }
        let writes: Vec<_> = sends
            .iter()
            .filter(|i| i.msg.map(|m| m.sfid) == Some(gpucc::intel::eu::types::sfid::RENDER_CACHE))
            .collect();
        assert_eq!(writes.len(), 2, "{p}: render-target writes");
        for (h, w) in writes.iter().enumerate() {
            let d = desc(w);
            assert_eq!(d >> 8 & 7, 0, "{p}: SIMD16 single-source subtype");
            assert_eq!(d >> 11 & 1, h as u32, "{p}: slot group of half {h}");
            assert_eq!(d >> 12 & 1, 1, "{p}: last render target");
            assert_eq!(w.eot, h == 1, "{p}: EOT on half {h}");
            assert_eq!(w.qtr_ctrl, 2 * h as u8, "{p}: half {h} channel group");
        }
    }
}

/// The payload of setup_fs_payload_gfx6, counted by hand for this shader (perspective pixel
/// barycentrics and source depth/W for the pixel position): SIMD16 g0, g1, four
/// barycentric registers, two of depth and two of W = 10; SIMD32 g0, g1, g2, then that run
/// of 8 twice = 19.
#[test]
fn simd32_payload_has_two_runs_of_sixteen_channels() {
    let dev = DevInfo::from_name("bdw").unwrap();
    let k = Context::new(dev)
        .compile(&parse(&shader("0x3dcccccd")), &Options::widths(&[16, 32]))
        .unwrap();
    assert_eq!(k.variant(16).unwrap().dispatch_grf_start, 10);
    if let Some(v) = k.variant(32) {
        assert_eq!(v.dispatch_grf_start, 19);
    }
    let only32 = Context::new(dev)
        .compile(&parse(&shader("0x3dcccccd")), &Options::widths(&[32]))
        .unwrap();
    assert_eq!(only32.variant(32).unwrap().dispatch_grf_start, 19);
    assert!(k.flags.uses_kill && k.flags.uses_src_depth_w);
}

/// Compiles `text` for `target` through the C ABI with `simd_mask`; the program, or the
/// status and last error.
fn compile_masked(
    target: &str,
    text: &str,
    mask: u32,
) -> Result<*mut gpucc::program::Program, (Status, String)> {
    let target = CString::new(target).unwrap();
    let (mut compiler, mut shader, mut program) =
        (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    assert_eq!(
        gpucc_compiler_create(target.as_ptr(), &mut compiler),
        Status::Ok
    );
    assert_eq!(
        gpucc_shader_from_nir_text(text.as_ptr() as *const c_char, text.len(), &mut shader),
        Status::Ok
    );
    let opts = CompileOptionsC {
        struct_size: std::mem::size_of::<CompileOptionsC>() as u32,
        simd_mask: mask,
        ..Default::default()
    };
    let status = gpucc_compile(compiler, shader, &opts, &mut program);
    let error = common::capi::last_error();
    gpucc_shader_destroy(shader);
    gpucc_compiler_destroy(compiler);
    if status == Status::Ok {
        Ok(program)
    } else {
        Err((status, error))
    }
}

fn fs_info(program: *mut gpucc::program::Program) -> FsInfo {
    let mut info = FsInfo {
        struct_size: std::mem::size_of::<FsInfo>() as u32,
        ..Default::default()
    };
    assert_eq!(gpucc_program_fs_info(program, &mut info), Status::Ok);
    info
}

#[test]
fn simd_mask_of_simd32_alone_builds_only_simd32() {
    let text = shader("0x3dcccccd");
    for p in PLATFORMS {
        let prog = compile_masked(p, &text, 4).unwrap_or_else(|e| panic!("{p}: {e:?}"));
        let info = fs_info(prog);
        assert_eq!(
            (info.dispatch_8, info.dispatch_16, info.dispatch_32),
            (0, 0, 1),
            "{p}"
        );
        assert_eq!(
            info.prog_offset_32, 0,
            "{p}: the only kernel starts the code"
        );
        assert_eq!(info.dispatch_grf_start_reg_32, 19, "{p}");
        gpucc_program_destroy(prog);
    }
}

/// SIMD32 alone for a shader SIMD32 is not built for (NIR scratch goes through data-port
/// messages the SIMD32 translation does not split yet): an error that says why.
#[test]
fn simd_mask_of_simd32_alone_names_why_it_cannot_be_built() {
    // A private array indexed by a uniform: it lives in scratch (store_scratch/load_scratch).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/nir/scratch_array.fs.nir");
    let text = std::fs::read_to_string(path).unwrap();
    match compile_masked("bdw", &text, 4) {
        Err((Status::Unsupported, e)) => assert!(e.contains("SIMD32"), "{e}"),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("built a SIMD32 program with scratch messages"),
    }
    // With SIMD8 allowed as well, the shader compiles at SIMD8 only.
    let prog = compile_masked("bdw", &text, 1 | 4).unwrap();
    let info = fs_info(prog);
    assert_eq!(
        (info.dispatch_8, info.dispatch_16, info.dispatch_32),
        (1, 0, 0)
    );
    gpucc_program_destroy(prog);
}

#[test]
fn simd_mask_of_simd8_and_simd16_builds_no_simd32() {
    let text = shader("0x3dcccccd");
    for p in PLATFORMS {
        let prog = compile_masked(p, &text, 1 | 2).unwrap();
        let info = fs_info(prog);
        assert_eq!(info.dispatch_32, 0, "{p}");
        assert_eq!(info.dispatch_grf_start_reg_32, 0, "{p}");
        let mut pi = ProgramInfo {
            struct_size: std::mem::size_of::<ProgramInfo>() as u32,
            ..Default::default()
        };
        assert_eq!(gpucc_program_get_info(prog, &mut pi), Status::Ok);
        assert_eq!(pi.simd32_offset, u32::MAX, "{p}");
        gpucc_program_destroy(prog);
    }
}

/// Mesa's choice (brw_compile_fs): SIMD32 is kept exactly when its estimated throughput
/// beats the SIMD8 and SIMD16 programs', with the estimate recomputed here from the decoded
/// code of each width compiled alone; the narrower programs are the same bytes with or
/// without SIMD32 tried. Over the first ivb corpus shaders both outcomes occur. Shaders
/// with loops are left out: the model finds a loop by its WHILE's jump distance, which
/// compaction shortens in the decoded code (the compiler estimates before compacting).
///
/// gpucc does not even compile SIMD32 when the SIMD16 program's busiest unit outlasts its
/// thread by more than 1% (`simd32_excluded`): the test counts those shaders and, through
/// the exact comparison above, holds that none of them would have kept a SIMD32 program.
#[test]
fn simd32_is_kept_exactly_when_its_estimated_throughput_is_higher() {
    use gpucc::intel::fs::stats::estimate;
    let Some(dir) = common::shared_path("corpus/nir/ivb") else {
        return;
    };
    let dev = DevInfo::from_name("ivb").unwrap();
    let ctx = Context::new(dev);
    let throughput = |k: &gpucc::intel::kernel::Kernel, w: u32| {
        let v = k.variant(w)?;
        let insts = gpucc::intel::eu::decode_program(dev, k.code_of(v)).unwrap();
        Some(estimate(dev, &insts, w).throughput)
    };
    let (mut kept, mut dropped, mut unit_bound) = (0, 0, 0);
    for f in common::files_with_suffix(&dir, ".fs.nir").iter().take(120) {
        let s = parse(&std::fs::read_to_string(f).unwrap());
        let name = f.display();
        let Ok(all) = ctx.compile(&s, &Options::widths(&[8, 16, 32])) else {
            continue;
        };
        let narrow = ctx.compile(&s, &Options::widths(&[8, 16])).unwrap();
        if narrow.simd.iter().any(|v| v.stats.loops > 0) {
            continue;
        }
        for w in [8, 16] {
            assert_eq!(
                all.variant(w).map(|v| all.code_of(v)),
                narrow.variant(w).map(|v| narrow.code_of(v)),
                "{name}: SIMD{w} changed by trying SIMD32"
            );
        }
        let Ok(alone) = ctx.compile(&s, &Options::widths(&[32])) else {
            assert!(all.variant(32).is_none(), "{name}");
            continue;
        };
        let t32 = throughput(&alone, 32).unwrap();
        let best = [8, 16]
            .iter()
            .filter_map(|&w| throughput(&narrow, w))
            .fold(0f64, f64::max);
        let spilled = narrow.simd.iter().any(|v| v.stats.spills > 0);
        let want = t32 > best && !spilled;
        if let Some(v) = narrow.variant(16) {
            let insts = gpucc::intel::eu::decode_program(dev, narrow.code_of(v)).unwrap();
            let e = estimate(dev, &insts, 16);
            if 16.0 / e.throughput > 1.01 * f64::from(e.cycles) {
                assert!(
                    !want,
                    "{name}: SIMD32 would win although SIMD16 is unit-bound"
                );
                unit_bound += 1;
            }
        }
        assert_eq!(all.variant(32).is_some(), want, "{name}: {t32} vs {best}");
        if let Some(v) = all.variant(32) {
            assert_eq!(
                all.code_of(v),
                alone.code_of(alone.variant(32).unwrap()),
                "{name}"
            );
            kept += 1;
        } else {
            dropped += 1;
        }
    }
    assert!(
        kept > 0 && dropped > unit_bound && unit_bound > 0,
        "kept {kept}, dropped {dropped}, unit-bound {unit_bound}"
    );
}

/// Instructions the hardware runs in parts (SIMD32 in SIMD16 halves, ivb's three-source
/// instructions in SIMD8 parts) are split after register allocation rather than before
/// optimization, to shorten what the passes walk; the split itself must be the one an early
/// split makes. Splitting a lowered program's instructions after the deferral gives exactly
/// the parts splitting them at once gives, at SIMD16 and SIMD32 on every platform, and the
/// messages of a SIMD32 program are split early with their payload copies.
#[test]
fn wide_instructions_split_after_allocation_into_the_same_parts() {
    use gpucc::intel::eu::{Opcode, RegType};
    use gpucc::intel::fs::ir::{Inst, Op, Program, Reg};
    use gpucc::intel::fs::{lower, pipeline};
    let text = shader("0x3dcccccd");
    let s = parse(&text);
    for p in PLATFORMS {
        let dev = DevInfo::from_name(p).unwrap();
        for width in [16u8, 32] {
            let before = pipeline::prepare(dev, &s, width, "lower_integer_multiplication")
                .unwrap()
                .prog;
            let mut early = before.clone();
            lower::split_to_hardware_width(dev, &mut early);
            let mut late = before.clone();
            lower::lower_simd_width(dev, &mut late);
            if width == 32 {
                let whole = late.insts.iter().filter(|i| i.exec_size == 32);
                assert!(
                    whole.filter(|i| !i.op.is_flow()).count() > 0,
                    "{p}: no SIMD32 instruction kept whole"
                );
                assert!(late
                    .insts
                    .iter()
                    .filter(|i| i.op.is_send())
                    .all(|i| i.exec_size == 16));
            }
            lower::split_to_hardware_width(dev, &mut late);
            assert_eq!(late.insts, early.insts, "{p} SIMD{width}");
            assert!(late
                .insts
                .iter()
                .all(|i| i.op.is_flow() || i.exec_size <= lower::max_simd_width(dev, i)));
        }
    }
    // ivb runs three-source instructions at SIMD8 only: a SIMD16 MAD stays whole and becomes
    // the two SIMD8 parts after allocation.
    let ivb = DevInfo::from_name("ivb").unwrap();
    let mut prog = Program::default();
    let regs: Vec<Reg> = (0..4)
        .map(|_| Reg::vgrf(prog.alloc(2), RegType::F))
        .collect();
    prog.insts.push(Inst::new(
        Op::Alu(Opcode::Mad),
        16,
        regs[0],
        regs[1..].to_vec(),
    ));
    let mut early = prog.clone();
    lower::split_to_hardware_width(ivb, &mut early);
    assert_eq!(early.insts.len(), 2);
    assert!(!lower::lower_simd_width(ivb, &mut prog));
    assert_eq!(prog.insts.len(), 1);
    lower::split_to_hardware_width(ivb, &mut prog);
    assert_eq!(prog.insts, early.insts);
    assert_eq!((prog.insts[1].exec_size, prog.insts[1].group), (8, 8));
}
