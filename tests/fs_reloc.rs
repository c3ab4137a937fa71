//! Constant data through relocations on Gen8 (`load_reloc_const_intel`, `u2u64`,
//! `load_global_constant`), checked against facts from Mesa 23.3: the A64 untyped surface
//! read descriptor and instruction counts of its bdw assembly, and the placeholder immediate
//! of its relocated MOV (`DEFAULT_PATCH_IMM` in brw_eu_emit.c), and against the reference
//! interpreter on the simulator.

mod common;

use gpucc::intel::backend::{verify, verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::fs::from_nir::a64_untyped_read_desc;
use gpucc::intel::fs::CompileError;
use gpucc::intel::kernel::{Kernel, RELOC_CONST_DATA_ADDR_LOW};
use gpucc::intel::DevInfo;
use gpucc::nir::{self, interp};

/// A vec4 array in constant data indexed by the pixel's x (clamped to the 4 elements), read
/// the way Mesa's NIR for Gen8 reads it: relocated base + offset, zero-extended, A64 load.
const SHADER: &str = "shader: MESA_SHADER_FRAGMENT
name: reloc
stage: 4
inputs: 0
outputs: 1
uniforms: 0
constants: 64
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:   // preds:
    con 32     %0 = load_const (0x00000000)
    div 32x4   %1 = @load_frag_coord () ()
    div 32     %2 = f2u32 %1.x
    con 32     %3 = load_const (0x00000004)
    div 32     %4 = ishl %2, %3 (0x4)
    con 32     %5 = load_const (0x00000030 = 48)
    div 32     %6 = umin %4, %5 (0x30)
    con 32     %7 = @load_reloc_const_intel () (param_idx=0)
    div 32     %8 = iadd %7, %6
    div 64     %9 = u2u64 %8
    div 32x4  %10 = @load_global_constant (%9) (access=none, align_mul=4, align_offset=0)
                    @store_output (%10, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())  // gl_FragColor
                    // succs: b1
    block b1:
}
";

/// Mesa's placeholder for a relocated immediate (brw_eu_emit.c, DEFAULT_PATCH_IMM).
const MESA_PATCH_IMM: u32 = 0x4a7c_c037;

fn bdw() -> (&'static DevInfo, Context) {
    let dev = DevInfo::from_name("bdw").unwrap();
    (dev, Context::new(dev))
}

fn compile(ctx: &Context) -> (nir::Shader, Kernel) {
    let shader = nir::parse(SHADER).expect("shader parses");
    let k = ctx
        .compile(&shader, &Options::widths(&[8, 16]))
        .expect("compiles on bdw");
    (shader, k)
}

fn dword(code: &[u8], at: u32) -> u32 {
    let a = at as usize;
    u32::from_le_bytes(code[a..a + 4].try_into().unwrap())
}

#[test]
fn a64_read_descriptor_is_mesas() {
    // Mesa's bdw assembly of a vec4 load_global_constant: send(8) ... 0x044460fd, "DC A64
    // untyped surface read, Surface = 253, SIMD8, Mask = 0x0" mlen 2 rlen 4.
    assert_eq!(a64_untyped_read_desc(4), 0x0444_60fd);
}

#[test]
fn every_variant_has_one_relocation_at_the_placeholder_immediate() {
    let (_, ctx) = bdw();
    let (_, k) = compile(&ctx);
    assert_eq!(k.constant_data_size, 64);
    assert_eq!(k.relocs.len(), 2, "{:?}", k.relocs);
    let (v8, v16) = (k.variant(8).unwrap(), k.variant(16).unwrap());
    for (r, v) in k.relocs.iter().zip([v8, v16]) {
        assert_eq!((r.id, r.delta), (RELOC_CONST_DATA_ADDR_LOW, 0));
        assert!(r.offset >= v.offset + 12 && r.offset + 4 <= v.offset + v.size);
        assert_eq!(dword(&k.code, r.offset), MESA_PATCH_IMM);
        // An uncompacted MOV (opcode 0x01, compaction bit 29 clear) starts 12 bytes before.
        let inst = dword(&k.code, r.offset - 12);
        assert_eq!(inst & 0x7f, 0x01, "{inst:#x}");
        assert_eq!(inst >> 29 & 1, 0, "{inst:#x}");
    }
}

#[test]
fn patched_code_moves_the_constant_data_address() {
    let (dev, ctx) = bdw();
    let (_, k) = compile(&ctx);
    let code = k
        .relocated_code(&[(RELOC_CONST_DATA_ADDR_LOW, 0x1234_5000)])
        .unwrap();
    for v in &k.simd {
        let text = gpucc::intel::eu::disassemble_program(
            dev,
            &code[v.offset as usize..(v.offset + v.size) as usize],
        )
        .unwrap();
        let mov = text.lines().find(|l| l.starts_with("mov(1)")).unwrap_or("");
        assert!(
            mov.contains("0x12345000UD") && mov.contains("WE_all"),
            "{text}"
        );
    }
    let err = k.relocated_code(&[]).unwrap_err();
    assert!(err.contains("relocation id 0"), "{err}");
}

#[test]
fn assembly_has_mesas_shape() {
    let (dev, ctx) = bdw();
    let (_, k) = compile(&ctx);
    let text = k.disassemble(dev);
    let lines: Vec<&str> = text.lines().collect();
    // Each send prints its descriptor text and controls on the line after it.
    let sends: Vec<(&str, &str)> = lines
        .windows(2)
        .filter(|w| w[0].contains("0x044460fd"))
        .map(|w| (w[0], w[1]))
        .collect();
    // One SIMD8 A64 read in SIMD8, one per half in SIMD16.
    assert_eq!(sends.len(), 3, "{text}");
    assert!(
        sends.iter().all(|(l, _)| l.starts_with("send(8)")),
        "{text}"
    );
    for ((_, controls), q) in sends.iter().zip(["1Q", "1Q", "2Q"]) {
        assert!(
            controls.contains("mlen 2 rlen 4") && controls.contains(q),
            "{text}"
        );
    }
    let widen: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("mov(8)") && l.contains("UQ") && l.contains("<4,4,1>UD"))
        .collect();
    assert_eq!(widen.len(), 3, "{text}");
    assert!(widen[2].contains("2Q"), "{text}");
    assert!(text.contains("DC A64 untyped surface read, Surface = 253, SIMD8, Mask = 0x0"));
}

#[test]
fn interpreter_reads_the_element_the_pixel_indexes() {
    let shader = nir::parse(SHADER).unwrap();
    let data: Vec<u8> = (0..16u32)
        .flat_map(|d| (d as f32 + 0.5).to_bits().to_le_bytes())
        .collect();
    let env = interp::Environment {
        constant_data: data,
        constant_data_address: 0x1234_5000,
        ..Default::default()
    };
    let r = interp::run(&shader, &env, 16).unwrap();
    for (i, inv) in r.invocations.iter().enumerate() {
        let (x, _) = interp::env::pixel(i);
        let element = x.min(3);
        let out = inv.outputs.values().next().unwrap();
        for c in 0..4 {
            let want = (4 * element + c) as f32 + 0.5;
            assert_eq!(
                out.comps[c as usize],
                Some(want.to_bits() as u64),
                "pixel {i}.{c}"
            );
        }
    }
}

#[test]
fn simulator_matches_the_interpreter() {
    let (_, ctx) = bdw();
    let shader = nir::parse(SHADER).unwrap();
    for simd in [8, 16] {
        assert_eq!(
            verify(&ctx, &shader, simd),
            VerifyOutcome::Pass,
            "SIMD{simd}"
        );
    }
}

#[test]
fn wrong_or_missing_relocations_are_caught() {
    let (_, ctx) = bdw();
    let (shader, k) = compile(&ctx);
    let mut unpatched = k.clone();
    unpatched.relocs.clear();
    let mut shifted = k.clone();
    for r in &mut shifted.relocs {
        r.offset -= 4;
    }
    for bad in [&unpatched, &shifted] {
        for simd in [8, 16] {
            let got = verify_kernel(&ctx, &shader, bad, simd);
            assert!(
                matches!(got, VerifyOutcome::Fail { .. }),
                "SIMD{simd}: {got:?}"
            );
        }
    }
}

#[test]
fn ivb_names_the_missing_generation() {
    let dev = DevInfo::from_name("ivb").unwrap();
    let shader = nir::parse(SHADER).unwrap();
    match Context::new(dev).compile(&shader, &Options::widths(&[8])) {
        Err(CompileError::Unsupported(what)) => {
            assert!(
                what.contains("load_reloc_const_intel") && what.contains("Gen8"),
                "{what}"
            )
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
}

#[test]
fn corpus_shaders_match_mesas_instruction_counts() {
    let Some(dir) = common::shared_path("corpus/nir/bdw") else {
        return;
    };
    let Some(stats) = common::shared_path("corpus/mesa-stats/bdw.csv") else {
        return;
    };
    let stats = std::fs::read_to_string(stats).unwrap();
    let (_, ctx) = bdw();
    let mut seen = 0;
    for f in common::files_with_suffix(&dir, ".fs.nir") {
        let text = std::fs::read_to_string(&f).unwrap();
        if !text.contains("load_reloc_const_intel") {
            continue;
        }
        seen += 1;
        let name = f.file_name().unwrap().to_string_lossy().replace(".nir", "");
        let k = ctx
            .compile(&nir::parse(&text).unwrap(), &Options::widths(&[8, 16]))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for simd in [8u32, 16] {
            let mesa: u32 = stats
                .lines()
                .map(|l| l.split(',').collect::<Vec<_>>())
                .find(|c| c[0] == name && c[2] == simd.to_string())
                .map(|c| c[3].parse().unwrap())
                .unwrap_or_else(|| panic!("{name} SIMD{simd} not in Mesa's stats"));
            let ours = k.variant(simd).unwrap().stats.instructions;
            assert!(
                ours <= mesa,
                "{name} SIMD{simd}: {ours} instructions, Mesa {mesa}"
            );
        }
    }
    assert_eq!(seen, 7);
}

/// Mesa's own bdw code for a 48-element constant array (its A64 reads, SIMD16 as two SIMD8
/// halves), with the relocated MOV patched the way a driver does, returns on the simulator the
/// element its uniform index names: the simulator's A64 model agrees with Mesa's encoding.
#[test]
fn mesa_assembly_reads_the_indexed_element() {
    use gpucc::intel::eu::{self, Src};
    use gpucc::intel::sim::Thread;
    let name = "piglit__glsl-1.20__execution__fs-vec4-const-array-indirect-access-048-elements.fs";
    let Some(path) = common::shared_path(&format!("corpus/mesa-asm/bdw/{name}.asm")) else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let dev = DevInfo::from_name("bdw").unwrap();
    let address = 0x1234_5000u64;
    let data: Vec<u8> = (0..192u32)
        .flat_map(|d| (d as f32 + 0.25).to_bits().to_le_bytes())
        .collect();
    let mut programs = 0;
    for block in text.split("Native code for").skip(1) {
        let simd: u32 = block.split("SIMD").nth(1).unwrap()[..2]
            .trim()
            .parse()
            .unwrap();
        let asm: String = block
            .lines()
            .skip(2)
            .filter(|l| !l.trim_start().starts_with("START") && !l.trim_start().starts_with("END"))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut insts = eu::assemble(dev, &asm).unwrap();
        let mut patched = 0;
        for inst in &mut insts {
            if let Some(Src::Imm(imm)) = inst.src.first_mut() {
                if imm.bits == MESA_PATCH_IMM as u64 {
                    imm.bits = address;
                    patched += 1;
                }
            }
        }
        assert_eq!(patched, 1, "SIMD{simd}");
        for index in [0u32, 5, 47] {
            let mut t = Thread::new(dev, simd).unwrap();
            t.set_grf(1, 7, &[0xffff]).unwrap();
            // The `zero` uniform (push constant in g2.0) is the array index.
            t.set_grf(2, 0, &[index]).unwrap();
            t.shared_mut().map_global(address, data.clone());
            let run = t.run(&insts).unwrap();
            assert_eq!(run.rt_writes.len(), 1);
            for (c, px) in run.rt_writes[0].color.iter().enumerate() {
                let want = [0, 1, 2, 3].map(|k| (4 * index + k) as f32 + 0.25);
                assert_eq!(*px, want, "SIMD{simd} index {index} channel {c}");
            }
        }
        programs += 1;
    }
    assert_eq!(programs, 2);
}

#[test]
fn c_program_reads_the_relocations() {
    let exe = common::build_c_program("reloc");
    let out = std::process::Command::new(&exe).output().unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A fake Broadwell kernel: GEM objects get consecutive handles.
fn fake_bdw() -> gpucc::drm::fake::FakeIoctl {
    use gpucc::drm::uapi::{i915, Pod};
    let next = std::cell::Cell::new(1u32);
    gpucc::drm::fake::FakeIoctl::new("i915", move |name, arg| {
        if name == "DRM_IOCTL_I915_GEM_CREATE" {
            let mut a = i915::DrmI915GemCreate::from_bytes(arg);
            a.handle = next.get();
            next.set(a.handle + 1);
            arg.copy_from_slice(a.as_bytes());
        }
        Ok(())
    })
    .with_i915_param(i915::param::CHIPSET_ID, 0x1616)
}

#[test]
fn program_upload_refuses_code_that_needs_patching() {
    use gpucc::capi::*;
    use std::ptr;
    let dev = gpucc::drm::Device::from_ioctl(
        Box::new(fake_bdw()),
        std::path::Path::new("/dev/dri/renderD128"),
    )
    .unwrap();
    let dev = Device::into_handle(dev);
    let mut compiler = ptr::null_mut();
    let target = std::ffi::CString::new("bdw").unwrap();
    assert_eq!(
        gpucc_compiler_create(target.as_ptr(), &mut compiler),
        Status::Ok
    );
    let plain = SHADER.replace("constants: 64\n", "").replace(
        "@load_reloc_const_intel () (param_idx=0)",
        "load_const (0x00010000)",
    );
    for (text, want) in [
        (SHADER.to_string(), Status::InvalidArgument),
        (plain, Status::Ok),
    ] {
        let mut shader = ptr::null_mut();
        let c = std::ffi::CString::new(text.clone()).unwrap();
        assert_eq!(
            gpucc_shader_from_nir_text(c.as_ptr(), text.len(), &mut shader),
            Status::Ok
        );
        let mut program = ptr::null_mut();
        assert_eq!(
            gpucc_compile(compiler, shader, ptr::null(), &mut program),
            Status::Ok
        );
        let mut bo = ptr::null_mut();
        assert_eq!(gpucc_program_upload(dev, program, &mut bo), want);
        assert_eq!(bo.is_null(), want != Status::Ok);
        if !bo.is_null() {
            assert_eq!(gpucc_bo_destroy(dev, bo), Status::Ok);
        }
        gpucc_program_destroy(program);
        gpucc_shader_destroy(shader);
    }
    gpucc_compiler_destroy(compiler);
    gpucc_device_destroy(dev);
}
