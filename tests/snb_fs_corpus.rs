//! The scalar backend on Gen6 (snb) over Mesa's snb fragment-shader corpus (as crocus
//! received them): every `*.fs.nir` compiled at SIMD8 and SIMD16, every program verified on
//! the Gen6 simulator (MRF messages, Gen6 MATH and flow) against the reference interpreter,
//! and the code compared with Mesa's own snb statistics.
//!
//! What must hold: a compile succeeds or fails with `Unsupported` naming the feature (each
//! reason is counted), compiling twice gives the same bytes, no verified program mismatches
//! the interpreter, and no program spills more than Mesa's. The figures (compiled,
//! unsupported per reason, verified per width, instructions and spills against Mesa's) are
//! held exactly in tests/expectations/corpus.txt under `snb.fs.*`.
//!
//! Hand-written checks of what differs on Gen6 sit at the end: a render-target write sent
//! from the message registers (and caught by the check when its colour is not copied
//! there), and MATH operands the hardware would ignore modifiers on, moved into plain
//! registers first.

mod common;

use std::collections::BTreeMap;

use gpucc::intel::backend::{verify, verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::eu::{self, Opcode, RegFile};
use gpucc::intel::fs::CompileError;
use gpucc::intel::DevInfo;

fn snb() -> Context {
    Context::new(DevInfo::from_name("snb").unwrap())
}

/// The feature an Unsupported message names, without the details after it.
fn reason(why: &str) -> String {
    why.split(" (").next().unwrap_or(why).to_string()
}

/// The figure name counting one refusal reason: `unsupported_` and its words, lower case,
/// joined by underscores.
fn reason_figure(why: &str) -> String {
    let words: Vec<String> = why
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    format!("unsupported_{}", words.join("_"))
}

#[test]
fn snb_fragment_corpus_compiles_or_names_the_feature() {
    let Some(dir) = common::shared_path("corpus/nir/snb") else {
        return;
    };
    let Some(stats) = common::mesa_stats("snb") else {
        return;
    };
    let mesa: BTreeMap<(String, u32), (u64, u64)> = stats
        .into_iter()
        .filter(|r| r.stage == "fs" && r.simd != 0)
        .map(|r| ((r.shader, r.simd), (r.instructions, r.spills + r.fills)))
        .collect();
    let ctx = snb();
    let opts = Options::widths(&[8, 16]);
    let files = common::files_with_suffix(&dir, ".fs.nir");
    let mut compiled = 0;
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut errors = Vec::new();
    // Per width: programs both compiled, Mesa's instructions, ours, Mesa's spills+fills, ours.
    let mut vs_mesa = [[0u64; 5]; 2];
    let mut more_spills = Vec::new();
    for f in &files {
        let shader = gpucc::nir::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
        let name = f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".nir")
            .to_string();
        let k = match ctx.compile(&shader, &opts) {
            Ok(k) => k,
            Err(CompileError::Unsupported(why)) => {
                *unsupported.entry(reason(&why)).or_default() += 1;
                continue;
            }
            Err(e) => {
                errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        compiled += 1;
        assert!(k.variant(8).is_some(), "{name}: no SIMD8 program");
        assert_eq!(
            k.code,
            ctx.compile(&shader, &opts).unwrap().code,
            "{name}: nondeterministic code"
        );
        for (i, w) in [8u32, 16].into_iter().enumerate() {
            let (Some(v), Some(&(mi, ms))) = (k.variant(w), mesa.get(&(name.clone(), w))) else {
                continue;
            };
            let ours = (v.stats.spills + v.stats.fills) as u64;
            if ours > ms {
                more_spills.push(format!("{name} SIMD{w}: {ours} spills+fills, Mesa {ms}"));
            }
            let row = &mut vs_mesa[i];
            row[0] += 1;
            row[1] += mi;
            row[2] += v.stats.instructions as u64;
            row[3] += ms;
            row[4] += ours;
        }
    }
    println!("snb FS: {compiled}/{} compiled", files.len());
    let mut figs = common::expect::Figures::new("snb.fs.compile");
    figs.count("files", files.len());
    figs.count("compiled", compiled);
    figs.count("unsupported", unsupported.values().sum());
    figs.count("errors", errors.len());
    for (why, n) in &unsupported {
        println!("  {n:4} unsupported: {why}");
        figs.count(&reason_figure(why), *n);
    }
    for e in errors.iter().take(20) {
        figs.note(format!("error: {e}"));
    }
    figs.check();
    for (i, w) in [8, 16].into_iter().enumerate() {
        let [n, mi, oi, ms, os] = vs_mesa[i];
        let ratio = oi as f64 / mi.max(1) as f64;
        println!(
            "snb SIMD{w}: {n} programs; instructions Mesa {mi}, gpucc {oi} ({ratio:.3}x); \
             spills+fills Mesa {ms}, gpucc {os}"
        );
        let mut figs = common::expect::Figures::new(&format!("snb.fs.vs_mesa_simd{w}"));
        figs.count("programs", n as usize);
        figs.count("mesa_instructions", mi as usize);
        figs.count("instructions", oi as usize);
        figs.ratio("instructions_vs_mesa", ratio);
        figs.count("mesa_spills_fills", ms as usize);
        figs.count("spills_fills", os as usize);
        figs.check();
    }
    assert!(
        errors.is_empty(),
        "errors other than Unsupported: {errors:#?}"
    );
    assert!(more_spills.is_empty(), "{more_spills:#?}");
}

fn verify_width(simd: u32) {
    let Some(dir) = common::shared_path("corpus/nir/snb") else {
        return;
    };
    let ctx = snb();
    let files = common::files_with_suffix(&dir, ".fs.nir");
    let mut passed = 0;
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut fails = Vec::new();
    for f in &files {
        let shader = gpucc::nir::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        match verify(&ctx, &shader, simd) {
            VerifyOutcome::Pass => passed += 1,
            VerifyOutcome::Unsupported(why) => {
                *unsupported.entry(reason(&why)).or_default() += 1;
            }
            other => fails.push(format!("{name}: {other:?}")),
        }
    }
    println!(
        "verify snb SIMD{simd}: {passed} passed, {} failed, {} unsupported",
        fails.len(),
        unsupported.values().sum::<usize>()
    );
    let mut figs = common::expect::Figures::new(&format!("snb.fs.verify_simd{simd}"));
    figs.count("passed", passed);
    figs.count("failed", fails.len());
    figs.count("unsupported", unsupported.values().sum());
    for (why, n) in &unsupported {
        println!("  {n:4} unsupported: {why}");
        figs.count(&reason_figure(why), *n);
    }
    for f in fails.iter().take(30) {
        figs.note(format!("FAIL {f}"));
    }
    figs.check();
    assert!(fails.is_empty(), "{fails:#?}");
}

#[test]
fn snb_simd8_matches_the_interpreter() {
    verify_width(8);
}

#[test]
fn snb_simd16_matches_the_interpreter() {
    verify_width(16);
}

/// A fragment shader writing `vec4(a, 2a, rsq(-b), 1)` from two interpolated inputs.
const RT_WRITE: &str = r#"shader: MESA_SHADER_FRAGMENT
name: hand
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec2 v (VARYING_SLOT_VAR0.xy, 32, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 c (FRAG_RESULT_DATA0.xyzw, 8, 0)
decl_function main (0 params)

impl main {
    block b0:
    con 32      %0 = load_const (0x00000000 = 0.000000)
    con 32      %1 = load_const (0x3f800000 = 1.000000)
    div 32x2    %2 = @load_barycentric_pixel () (interp_mode=1)
    div 32x2    %3 = @load_interpolated_input (%2, %0 (0x0)) (base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    div 32      %4 = fadd %3.x, %3.x
    div 32      %5 = fneg %3.y
    div 32      %6 = frsq %5
    div 32x4    %7 = vec4 %3.x, %4, %6, %1 (1.000000)
                     @store_output (%7, %0 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
"#;

fn hand_kernel(ctx: &Context) -> gpucc::intel::kernel::Kernel {
    let shader = gpucc::nir::parse(RT_WRITE).expect("hand-written NIR parses");
    ctx.compile(&shader, &Options::widths(&[8]))
        .expect("the hand-written shader compiles for snb")
}

fn hand_insts(k: &gpucc::intel::kernel::Kernel) -> Vec<eu::Inst> {
    let dev = DevInfo::from_name("snb").unwrap();
    eu::decode_program(dev, &k.code[..k.simd[0].size as usize]).expect("decodes")
}

/// The render-target write leaves from m1 with the four colour registers (mlen 4), every
/// one of them written into a message register first, and the program matches the
/// interpreter; dropping the move of the last colour register into its MRF makes the check
/// fail (the simulator reads what the message registers hold, not the GRFs).
#[test]
fn snb_render_target_write_leaves_from_the_message_registers() {
    let ctx = snb();
    let k = hand_kernel(&ctx);
    let shader = gpucc::nir::parse(RT_WRITE).unwrap();
    assert_eq!(verify_kernel(&ctx, &shader, &k, 8), VerifyOutcome::Pass);
    let insts = hand_insts(&k);
    let send = insts.last().expect("a program");
    assert!(send.opcode.is_send() && send.eot, "ends with the EOT write");
    let eu::Src::Reg(m) = send.src[0] else {
        panic!("send payload is a register")
    };
    assert_eq!((m.file, m.nr), (RegFile::Mrf, 1), "message from m1");
    let mrfs_written: u32 = insts
        .iter()
        .filter(|i| i.dst.file == RegFile::Mrf)
        .map(|i| i.exec_size as u32 / 8)
        .sum();
    assert_eq!(mrfs_written, 4, "m1..m4 written");
    // Without the move filling the last MRFs, the write sends stale registers.
    let dev = DevInfo::from_name("snb").unwrap();
    let at = insts
        .iter()
        .rposition(|i| i.dst.file == RegFile::Mrf)
        .unwrap();
    let mut edited = insts.clone();
    edited[at] = eu::Inst::new(Opcode::Nop);
    let code: Vec<u8> = eu::encode_program(dev, &edited).unwrap().concat();
    let mut broken = k.clone();
    broken.simd[0].size = code.len() as u32;
    broken.code = code;
    assert_ne!(
        verify_kernel(&ctx, &shader, &broken, 8),
        VerifyOutcome::Pass
    );
}

/// `rsq(-b)`: Gen6 MATH ignores source modifiers, so the negation is applied by a move
/// first and the MATH reads a plain register (Gen7 folds it into the MATH's source).
#[test]
fn snb_math_takes_no_source_modifiers() {
    let insts = hand_insts(&hand_kernel(&snb()));
    let math: Vec<&eu::Inst> = insts.iter().filter(|i| i.opcode == Opcode::Math).collect();
    assert_eq!(math.len(), 1);
    for s in &math[0].src {
        if let eu::Src::Reg(r) = s {
            if r.file == RegFile::Grf {
                assert!(!r.negate && !r.abs, "modifier on a Gen6 MATH source");
                assert_eq!(r.region.hstride, 1, "Gen6 MATH reads <8;8,1> regions");
            }
        }
    }
    // Gen7 takes the negation on the MATH itself.
    let ivb = Context::new(DevInfo::from_name("ivb").unwrap());
    let shader = gpucc::nir::parse(RT_WRITE).unwrap();
    let k = ivb.compile(&shader, &Options::widths(&[8])).unwrap();
    let dev = DevInfo::from_name("ivb").unwrap();
    let ivb_insts = eu::decode_program(dev, &k.code[..k.simd[0].size as usize]).unwrap();
    let negated = ivb_insts.iter().any(|i| {
        i.opcode == Opcode::Math
            && i.src
                .iter()
                .any(|s| matches!(s, eu::Src::Reg(r) if r.negate))
    });
    assert!(negated, "ivb folds the negation into the MATH");
}

/// Fragment and vertex shaders are built on Gen6; a tessellation shader is refused by name.
#[test]
fn snb_refuses_other_stages_by_name() {
    let tes = "shader: MESA_SHADER_TESS_EVAL\nname: t\ninputs: 0\noutputs: 0\nuniforms: 0\n\
              decl_function main (0 params)\n\nimpl main {\n    block b0:\n    block b1:\n}\n";
    let shader = gpucc::nir::parse(tes).unwrap();
    match snb().compile(&shader, &Options::widths(&[8])) {
        Err(CompileError::Unsupported(why)) => assert!(why.contains("snb"), "{why}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}
