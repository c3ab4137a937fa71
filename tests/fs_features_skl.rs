//! The scalar backend on Gen9 (skl): Mesa's bdw fragment-shader corpus re-targeted to skl,
//! every file compiled at SIMD8 and SIMD16 and run on the simulator against the reference
//! interpreter, plus the Gen9-specific message facts brw uses (texel-fetch parameters
//! `u v lod r`, committed fences).

mod common;

use std::collections::BTreeMap;

use gpucc::intel::fs::CompileError;

use gpucc::intel::backend::{verify, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;
use gpucc::nir;

fn skl() -> Context {
    Context::new(DevInfo::from_name("skl").unwrap())
}

#[test]
fn bdw_corpus_retargeted_to_skl_compiles_and_matches_the_interpreter() {
    let Some(dir) = common::shared_path("corpus/nir/bdw") else {
        return;
    };
    let ctx = skl();
    let files = common::files_with_suffix(&dir, ".fs.nir");
    let (mut compiled, mut pass) = (0, [0usize; 2]);
    let mut fails = Vec::new();
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let shader = nir::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
        match ctx.compile(&shader, &Options::widths(&[8, 16])) {
            Ok(k) => {
                compiled += 1;
                let again = ctx.compile(&shader, &Options::widths(&[8, 16])).unwrap();
                assert_eq!(k.code, again.code, "{}: nondeterministic", f.display());
            }
            Err(CompileError::Unsupported(w)) => {
                *unsupported.entry(w.chars().take(60).collect()).or_default() += 1;
                continue;
            }
            Err(e) => panic!("{}: {e}", f.display()),
        }
        for (i, simd) in [8, 16].into_iter().enumerate() {
            match verify(&ctx, &shader, simd) {
                VerifyOutcome::Pass => pass[i] += 1,
                VerifyOutcome::Unsupported(_) => {}
                fail => fails.push(format!("{} SIMD{simd}: {fail:?}", f.display())),
            }
        }
    }
    println!(
        "skl (corpus bdw): {compiled}/{} compiled; verified SIMD8 {}, SIMD16 {}",
        files.len(),
        pass[0],
        pass[1]
    );
    let mut figs = common::expect::Figures::new("skl.fs.bdw_corpus");
    figs.count("files", files.len());
    figs.count("compiled", compiled);
    figs.count("unsupported", unsupported.values().sum());
    figs.count("verified_simd8", pass[0]);
    figs.count("verified_simd16", pass[1]);
    figs.count("verify_failed", fails.len());
    for (w, n) in &unsupported {
        println!("  {n:4} unsupported: {w}");
        figs.note(format!("{n:4} unsupported: {w}"));
    }
    fails.iter().take(20).for_each(|f| figs.note(f.clone()));
    figs.check();
    assert!(fails.is_empty(), "{} mismatches: {fails:#?}", fails.len());
}

#[test]
fn gen9_texel_fetch_puts_the_level_after_v() {
    // ld of a 1D coordinate: brw sends u, a zero v, then the level (Gen7/8: u, lod).
    let text = r#"shader: MESA_SHADER_FRAGMENT
name: txf-1d
inputs: 0
outputs: 1
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler1D tex (0, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000003)
    32    %2 = load_const (0x00000001)
    32x4  %3 = (float32)txf %1 (coord), %2 (lod), 0 (texture), 0 (sampler)
    @store_output (%3, %0) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#;
    let shader = nir::parse(text).unwrap();
    for simd in [8, 16] {
        assert_eq!(
            verify(&skl(), &shader, simd),
            VerifyOutcome::Pass,
            "SIMD{simd}"
        );
    }
    let dev = DevInfo::from_name("skl").unwrap();
    let k = skl().compile(&shader, &Options::widths(&[8])).unwrap();
    let asm = k.disassemble(dev);
    let ld = asm
        .lines()
        .filter(|l| l.contains("send"))
        .filter_map(|l| l.split_whitespace().last())
        .filter_map(|d| u32::from_str_radix(d.trim_start_matches("0x"), 16).ok())
        .find(|d| d >> 12 & 0x1f == 7)
        .expect("an ld message");
    // Three parameters of one register each: u, v, lod.
    assert_eq!(ld >> 25 & 0xf, 3, "{asm}");
}

#[test]
fn gen9_fences_ask_for_a_commit() {
    let text = "shader: MESA_SHADER_COMPUTE\nname: cs\nworkgroup_size: 8, 1, 1\nshared_size: 0\n\
                inputs: 0\noutputs: 0\nuniforms: 0\ndecl_function main (0 params)\n\nimpl main {\n    \
                block b0:  // preds:\n    32    %0 = @load_local_invocation_index () ()\n    \
                32    %1 = load_const (0x00000004)\n    32    %2 = imul %0, %1\n    \
                @store_ssbo (%0, %1, %2) (wrmask=x, access=none, align_mul=4, align_offset=0)\n    \
                @barrier () (execution_scope=NONE, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=ssbo)\n    \
                32    %3 = load_const (0x00000000)\n    \
                @store_ssbo (%2, %3, %2) (wrmask=x, access=none, align_mul=4, align_offset=0)\n    \
                // succs: b1\n    block b1:\n}\n";
    let shader = nir::parse(text).unwrap();
    for simd in [8, 16] {
        assert_eq!(
            verify(&skl(), &shader, simd),
            VerifyOutcome::Pass,
            "SIMD{simd}"
        );
    }
    let dev = DevInfo::from_name("skl").unwrap();
    let asm = skl()
        .compile(&shader, &Options::widths(&[8]))
        .unwrap()
        .disassemble(dev);
    let fences: Vec<u32> = asm
        .lines()
        .filter(|l| l.contains("send"))
        .filter_map(|l| l.split_whitespace().last())
        .filter_map(|d| u32::from_str_radix(d.trim_start_matches("0x"), 16).ok())
        .filter(|d| d >> 14 & 0xf == 7 && d >> 25 & 0xf == 1)
        .collect();
    // One data-cache fence, commit bit 13 with its one-register reply.
    assert_eq!(fences.len(), 1, "{asm}");
    assert_eq!(
        (fences[0] >> 13 & 1, fences[0] >> 20 & 0x1f),
        (1, 1),
        "{asm}"
    );
}

/// The descriptors of a program's sends, from the disassembly (the last word of each
/// `send` line).
fn send_descriptors(asm: &str) -> Vec<u32> {
    asm.lines()
        .filter(|l| l.trim_start().starts_with("send"))
        .filter_map(|l| l.split_whitespace().last())
        .filter_map(|d| u32::from_str_radix(d.trim_start_matches("0x"), 16).ok())
        .collect()
}

/// A fragment shader whose colour reads UBO block 1 at offsets computed from a pushed
/// dword of block 0 (the same in every pixel, not known at compile time): a vec4 at a
/// dword-aligned offset `o + 4` and a vec8 at `o`, `o` = ((block 0 dword 0) >> 16) & 0xf0.
const UBO_BLOCK_DYNAMIC: &str = r#"shader: MESA_SHADER_FRAGMENT
name: ubo-block-dynamic
inputs: 0
outputs: 1
uniforms: 0
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    con 32     %0 = load_const (0x00000000)
    con 32     %1 = load_const (0x00000001)
    con 32     %2 = @load_ubo (%0 (0x0), %0 (0x0)) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=4)
    con 32     %3 = load_const (0x00000010)
    con 32     %4 = ushr %2, %3 (0x10)
    con 32     %5 = load_const (0x000000f0)
    con 32     %6 = iand %4, %5 (0xf0)
    con 32     %7 = load_const (0x00000004)
    con 32     %8 = iadd %6, %7 (0x4)
    con 32x4   %9 = @load_ubo_uniform_block_intel (%1 (0x1), %8) (access=none, align_mul=4, align_offset=0, range_base=0, range=512)
    con 32x8   %10 = @load_ubo_uniform_block_intel (%1 (0x1), %6) (access=none, align_mul=16, align_offset=0, range_base=0, range=512)
    con 32     %11 = fadd %9.x, %10.h
    con 32     %12 = fmul %9.y, %10.a
    con 32     %13 = fadd %9.z, %10.e
    con 32     %14 = fmax %9.w, %10.b
    con 32x4   %15 = vec4 %11, %12, %13, %14
    @store_output (%15, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#;

#[test]
fn gen9_ubo_block_load_at_a_uniform_offset_is_an_unaligned_oword_block_read() {
    let shader = nir::parse(UBO_BLOCK_DYNAMIC).unwrap();
    for simd in [8, 16] {
        assert_eq!(
            verify(&skl(), &shader, simd),
            VerifyOutcome::Pass,
            "SIMD{simd}"
        );
    }
    let dev = DevInfo::from_name("skl").unwrap();
    for simd in [8, 16] {
        let k = skl().compile(&shader, &Options::widths(&[simd])).unwrap();
        let asm = k.disassemble(dev);
        // Data cache (SFID 10, "data"), mlen 1 (header only), rlen 1, header present,
        // message type 1 (unaligned OWord block read, bits 18:14), two OWords (block size
        // 2, bits 10:8), binding-table index 64 + block 1 = 65:
        // (1 << 25) | (1 << 20) | (1 << 19) | (1 << 14) | (2 << 8) | 65.
        let want = 0x0218_4241;
        let blocks: Vec<&str> = asm
            .lines()
            .filter(|l| l.trim_start().starts_with("send"))
            .filter(|l| l.ends_with(&format!("{want:#010x}")))
            .collect();
        assert_eq!(blocks.len(), 2, "SIMD{simd}: one per load\n{asm}");
        // Eight dwords are one SIMD8 message whatever the dispatch width, and nothing
        // goes to the sampler (the per-channel pull load).
        assert!(blocks.iter().all(|l| l.contains("send(8)")), "{asm}");
        assert!(!asm.contains("sampler"), "{asm}");
        assert_eq!(
            send_descriptors(&asm).len(),
            3,
            "two loads and the RT write\n{asm}"
        );
    }
}

#[test]
fn gen9_ubo_block_load_of_sixteen_dwords_is_one_four_oword_message() {
    // A vec16 at a uniform offset: one block of 16 dwords (four OWords, block size 3, two
    // reply registers, a SIMD16 message), as Mesa's choose_oword_block_size_dwords picks.
    let text = UBO_BLOCK_DYNAMIC
        .replace(
            "    con 32x4   %9 = @load_ubo_uniform_block_intel (%1 (0x1), %8) (access=none, align_mul=4, align_offset=0, range_base=0, range=512)\n",
            "",
        )
        .replace(
            "con 32x8   %10 = @load_ubo_uniform_block_intel",
            "con 32x16  %10 = @load_ubo_uniform_block_intel",
        )
        .replace("fadd %9.x, %10.h", "fadd %10.a, %10.p")
        .replace("fmul %9.y, %10.a", "fmul %10.b, %10.i")
        .replace("fadd %9.z, %10.e", "fadd %10.c, %10.n")
        .replace("fmax %9.w, %10.b", "fmax %10.j, %10.g");
    let shader = nir::parse(&text).unwrap();
    for simd in [8, 16] {
        assert_eq!(
            verify(&skl(), &shader, simd),
            VerifyOutcome::Pass,
            "SIMD{simd}"
        );
    }
    let dev = DevInfo::from_name("skl").unwrap();
    let asm = skl()
        .compile(&shader, &Options::widths(&[8]))
        .unwrap()
        .disassemble(dev);
    // (1 << 25) | (2 << 20) | (1 << 19) | (1 << 14) | (3 << 8) | 65.
    let want = 0x0228_4341;
    let line = asm
        .lines()
        .find(|l| l.ends_with(&format!("{want:#010x}")))
        .unwrap_or_else(|| panic!("no four-OWord block read\n{asm}"));
    assert!(line.trim_start().starts_with("send(16)"), "{asm}");
    assert_eq!(send_descriptors(&asm).len(), 2, "{asm}");
}

#[test]
fn bdw_keeps_the_per_channel_pull_load_for_the_same_shader() {
    // iris never hands Gen8 the block intrinsic (brw_nir_blockify_uniform_loads requires
    // Gen9); given it anyway, bdw reads the same bytes with its sampler pull loads.
    let shader = nir::parse(UBO_BLOCK_DYNAMIC).unwrap();
    let ctx = Context::new(DevInfo::from_name("bdw").unwrap());
    for simd in [8, 16] {
        assert_eq!(
            verify(&ctx, &shader, simd),
            VerifyOutcome::Pass,
            "SIMD{simd}"
        );
    }
    let dev = DevInfo::from_name("bdw").unwrap();
    let asm = ctx
        .compile(&shader, &Options::widths(&[8]))
        .unwrap()
        .disassemble(dev);
    assert!(asm.contains("sampler"), "{asm}");
    assert!(
        send_descriptors(&asm).iter().all(|d| d >> 14 & 0x1f != 1),
        "no unaligned block read on Gen8\n{asm}"
    );
}

#[test]
fn gen9_global_constant_block_load_is_an_a64_oword_block_read() {
    // An element of a constant array, as iris lowers it: the relocated constant-data
    // address plus a clamped, dynamically uniform byte offset, zero-extended.
    let text = r#"shader: MESA_SHADER_FRAGMENT
name: const-block
inputs: 0
outputs: 1
uniforms: 0
constants: 96
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    con 32     %0 = load_const (0x00000000)
    con 32     %1 = @load_ubo (%0 (0x0), %0 (0x0)) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=4)
    con 32     %2 = load_const (0x00000010)
    con 32     %3 = ushr %1, %2 (0x10)
    con 32     %4 = load_const (0x00000030)
    con 32     %5 = iand %3, %4 (0x30)
    con 32     %6 = load_const (0x00000004)
    con 32     %7 = iadd %5, %6 (0x4)
    con 32     %8 = @load_reloc_const_intel () (param_idx=0)
    con 32     %9 = iadd %8, %7
    con 64     %10 = u2u64 %9
    con 32x4   %11 = @load_global_constant_uniform_block_intel (%10) (access=none, align_mul=4, align_offset=0)
    @store_output (%11, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#;
    let shader = nir::parse(text).unwrap();
    for simd in [8, 16] {
        assert_eq!(
            verify(&skl(), &shader, simd),
            VerifyOutcome::Pass,
            "SIMD{simd}"
        );
    }
    let dev = DevInfo::from_name("skl").unwrap();
    for simd in [8, 16] {
        let asm = skl()
            .compile(&shader, &Options::widths(&[simd]))
            .unwrap()
            .disassemble(dev);
        // Data cache 1 ("dp data 1"), mlen 1, rlen 1, header present, message type 0x14
        // (A64 OWord block read, bits 18:14), function control bit 3 (descriptor bit 11:
        // the address need only be dword aligned), two OWords (2 in bits 10:8), stateless
        // BTI 253: (1 << 25) | (1 << 20) | (1 << 19) | (0x14 << 14) | (1 << 11) | (2 << 8)
        // | 253.
        let want = 0x021d_0afd;
        let line = asm
            .lines()
            .position(|l| l.ends_with(&format!("{want:#010x}")))
            .unwrap_or_else(|| panic!("SIMD{simd}: no A64 block read\n{asm}"));
        let lines: Vec<&str> = asm.lines().collect();
        assert!(lines[line].trim_start().starts_with("send(8)"), "{asm}");
        assert!(lines[line + 1].contains("dp data 1"), "{asm}");
        // One message for the whole thread: no per-channel A64 untyped reads (type 0x11).
        let descs = send_descriptors(&asm);
        assert_eq!(descs.len(), 2, "{asm}");
        assert!(descs.iter().all(|d| d >> 14 & 0x1f != 0x11), "{asm}");
    }
}
