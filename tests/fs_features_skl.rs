//! The scalar backend on Gen9 (skl): Mesa's bdw fragment-shader corpus re-targeted to skl,
//! every file compiled at SIMD8 and SIMD16 and run on the simulator against the reference
//! interpreter, plus the Gen9-specific message facts brw uses (texel-fetch parameters
//! `u v lod r`, committed fences).

mod common;

use std::collections::BTreeMap;

use gpucc::intel::fs::{verify, CompileError, Context, Options, VerifyOutcome};
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
