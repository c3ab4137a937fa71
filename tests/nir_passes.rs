//! The shared NIR passes: exact results on small hand-written shaders (the expected text is
//! written by hand and only normalised through parse + print), and interpreter equivalence
//! before/after on the whole corpus. The validator runs after every pass.

mod common;

use gpucc::nir::interp::{self, Environment, InvocationResult};
use gpucc::nir::{self, passes, AluOp, Shader};

const HEADER: &str = "shader: MESA_SHADER_FRAGMENT\nname: t\nstage: 4\ninputs: 1\noutputs: 1\n\
uniforms: 0\ndecl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_DATA0.xyzw, 0, 0)\n\
decl_function main (0 params)\n\nimpl main {\n";

const STORE: &str = "(base=0, range=1, wrmask=xyzw, component=0, src_type=float32, \
io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())";

fn parse(body: &str) -> Shader {
    let text = format!("{HEADER}{body}}}\n").replace("STORE", STORE);
    let mut s = nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    nir::validate(&s).unwrap_or_else(|e| panic!("{e:?}"));
    // New values take ids from `ssa_alloc`, which the parser infers from the printed column
    // width; pin it to "one past the highest id" so that new ids are predictable by hand.
    let imp = s.entry_mut().unwrap();
    imp.ssa_alloc = imp.defs.len() as u32;
    s
}

/// Applies `pass`, validates, and checks the result prints like `expected`.
fn check(input: &str, pass: impl Fn(&mut Shader) -> bool, expected: &str, progress: bool) {
    let mut s = parse(input);
    assert_eq!(pass(&mut s), progress, "progress");
    nir::validate(&s).unwrap_or_else(|e| panic!("invalid after pass: {e:?}\n{}", nir::print(&s)));
    let want = nir::print(&parse(expected));
    let got = nir::print(&s);
    assert_eq!(got, want, "\n--- got ---\n{got}\n--- expected ---\n{want}");
}

#[test]
fn constant_folding_then_dce() {
    let input = "    block b0:   // preds:
    32     %0 = load_const (0x3f800000)
    32     %1 = load_const (0x40000000)
    32     %2 = fadd %0, %1
    32x4   %3 = vec4 %2, %0, %1, %2
    32     %4 = load_const (0x00000000)
                @store_output (%3, %4) STORE
                // succs: b1
    block b1:
";
    // 1 + 2 = 3 (0x40400000); the vec4 of constants folds too.
    let folded = "    block b0:   // preds:
    32     %0 = load_const (0x3f800000)
    32     %1 = load_const (0x40000000)
    32     %2 = load_const (0x40400000)
    32x4   %3 = load_const (0x40400000, 0x3f800000, 0x40000000, 0x40400000)
    32     %4 = load_const (0x00000000)
                @store_output (%3, %4) STORE
                // succs: b1
    block b1:
";
    check(input, passes::constant_folding, folded, true);
    let clean = "    block b0:   // preds:
    32x4   %3 = load_const (0x40400000, 0x3f800000, 0x40000000, 0x40400000)
    32     %4 = load_const (0x00000000)
                @store_output (%3, %4) STORE
                // succs: b1
    block b1:
";
    check(
        input,
        |s| passes::constant_folding(s) & passes::dce(s),
        clean,
        true,
    );
    check(clean, passes::constant_folding, clean, false);
}

#[test]
fn copy_propagation_composes_swizzles() {
    let input = "    block b0:   // preds:
    32x4   %0 = @load_frag_coord () ()
    32x2   %1 = mov %0.wz
    32x2   %2 = mov %1.yx
    32     %3 = fadd %2.y, %1.y
    32x4   %4 = mov %0
    32x4   %5 = fmul %4, %3.xxxx
    32     %6 = load_const (0x00000000)
                @store_output (%5, %6) STORE
                // succs: b1
    block b1:
";
    // %2.y = %1.x = %0.w; %1.y = %0.z; %4 is a whole copy of %0.
    let expected = "    block b0:   // preds:
    32x4   %0 = @load_frag_coord () ()
    32     %3 = fadd %0.w, %0.z
    32x4   %5 = fmul %0, %3.xxxx
    32     %6 = load_const (0x00000000)
                @store_output (%5, %6) STORE
                // succs: b1
    block b1:
";
    check(
        input,
        |s| passes::copy_prop(s) & passes::dce(s),
        expected,
        true,
    );
}

#[test]
fn copy_propagation_keeps_partial_copies_for_non_alu_users() {
    let input = "    block b0:   // preds:
    32x4   %0 = @load_frag_coord () ()
    32x4   %1 = mov %0.yxzw
    32     %2 = load_const (0x00000000)
                @store_output (%1, %2) STORE
                // succs: b1
    block b1:
";
    check(input, passes::copy_prop, input, false);
}

#[test]
fn dce_removes_unused_values_and_unread_registers() {
    let input = "    block b0:   // preds:
    32x4   %0 = @load_frag_coord () ()
    32     %1 = fmul %0.x, %0.y
    32     %2 = fsqrt %1
    32     %3 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
                @store_reg (%2, %3) (base=0, wrmask=x, legacy_fsat=0)
    32     %4 = load_const (0x00000000)
                @store_output (%0, %4) STORE
                // succs: b1
    block b1:
";
    let expected = "    block b0:   // preds:
    32x4   %0 = @load_frag_coord () ()
    32     %4 = load_const (0x00000000)
                @store_output (%0, %4) STORE
                // succs: b1
    block b1:
";
    check(input, passes::dce, expected, true);
    check(expected, passes::dce, expected, false);
}

#[test]
fn scalarize_splits_per_component_ops_under_a_filter() {
    let input = "    block b0:   // preds:
    32x4   %0 = @load_frag_coord () ()
    32x2   %1 = fadd %0.xy, %0.wz
    32x2   %2 = fmul %1, %1.yx
    32     %3 = fdot2 %2, %1
    32x4   %4 = vec4 %2.x, %2.y, %3, %3
    32     %5 = load_const (0x00000000)
                @store_output (%4, %5) STORE
                // succs: b1
    block b1:
";
    // Only fadd passes the filter; fdot2 is horizontal and never split.
    let expected = "    block b0:   // preds:
    32x4   %0 = @load_frag_coord () ()
    32     %6 = fadd %0.x, %0.w
    32     %7 = fadd %0.y, %0.z
    32x2   %1 = vec2 %6, %7
    32x2   %2 = fmul %1, %1.yx
    32     %3 = fdot2 %2, %1
    32x4   %4 = vec4 %2.x, %2.y, %3, %3
    32     %5 = load_const (0x00000000)
                @store_output (%4, %5) STORE
                // succs: b1
    block b1:
";
    check(
        input,
        |s| passes::scalarize_alu(s, &|a, _| a.op == AluOp::fadd),
        expected,
        true,
    );
}

const IF_PHI: &str = "    block b0:   // preds:
    32x4   %0 = @load_frag_coord () ()
    32     %1 = load_const (0x3f800000)
    32     %2 = flt32 %0.x, %1
                // succs: b1 b2
    if %2 {
        block b1:  // preds: b0
        32     %3 = load_const (0x42c80000)
                    // succs: b3
    } else {
        block b2:  // preds: b0
        32     %4 = load_const (0x43480000)
                    // succs: b3
    }
    block b3:  // preds: b1 b2
    32     %5 = phi b1: %3, b2: %4
    32x4   %6 = vec4 %5, %5, %5, %5
    32     %7 = load_const (0x00000000)
                @store_output (%6, %7) STORE
                // succs: b4
    block b4:
";

const IF_REGS: &str = "    block b0:   // preds:
    32     %8 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
    32x4   %0 = @load_frag_coord () ()
    32     %1 = load_const (0x3f800000)
    32     %2 = flt32 %0.x, %1
                // succs: b1 b2
    if %2 {
        block b1:  // preds: b0
        32     %3 = load_const (0x42c80000)
                    @store_reg (%3, %8) (base=0, wrmask=x, legacy_fsat=0)
                    // succs: b3
    } else {
        block b2:  // preds: b0
        32     %4 = load_const (0x43480000)
                    @store_reg (%4, %8) (base=0, wrmask=x, legacy_fsat=0)
                    // succs: b3
    }
    block b3:  // preds: b1 b2
    32     %5 = @load_reg (%8) (base=0, legacy_fabs=0, legacy_fneg=0)
    32x4   %6 = vec4 %5, %5, %5, %5
    32     %7 = load_const (0x00000000)
                @store_output (%6, %7) STORE
                // succs: b4
    block b4:
";

#[test]
fn phis_become_registers() {
    check(IF_PHI, passes::phis_to_regs, IF_REGS, true);
    check(IF_REGS, passes::phis_to_regs, IF_REGS, false);
}

#[test]
fn registers_become_phis() {
    // The register's value at b3 merges the two stores: a phi (new value %9).
    let expected = IF_PHI
        .replace("%5 = phi b1: %3, b2: %4", "%9 = phi b1: %3, b2: %4")
        .replace("vec4 %5, %5, %5, %5", "vec4 %9, %9, %9, %9");
    check(IF_REGS, passes::regs_to_ssa, &expected, true);
}

#[test]
fn registers_in_loops_and_partial_writes() {
    // r = (0, 0); loop { if r.x >= 5 break; r.x += 1; r.y = r.y + r.x } -> r = (5, 15).
    let input = "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32     %1 = load_const (0x00000001)
    32     %2 = load_const (0x00000005)
    32     %3 = @decl_reg () (num_components=2, num_array_elems=0, bit_size=32, divergent=0)
    32x2   %4 = vec2 %0, %0
                @store_reg (%4, %3) (base=0, wrmask=xy, legacy_fsat=0)
                // succs: b1
    loop {
        block b1:   // preds: b0 b4
        32x2   %5 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
        32     %6 = ige32 %5.x, %2
                    // succs: b2 b3
        if %6 {
            block b2:// preds: b1
            break
            // succs: b5
        } else {
            block b3:  // preds: b1, succs: b4
        }
        block b4:  // preds: b3
        32     %7 = iadd %5.x, %1
        32x2   %8 = vec2 %7, %7
                    @store_reg (%8, %3) (base=0, wrmask=x, legacy_fsat=0)
        32x2   %9 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
        32    %10 = iadd %9.y, %9.x
        32x2  %11 = vec2 %10, %10
                    @store_reg (%11, %3) (base=0, wrmask=y, legacy_fsat=0)
                    // succs: b1
    }
    block b5:  // preds: b2
    32x2  %12 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
    32x4  %13 = vec4 %12.x, %12.y, %0, %0
                @store_output (%13, %0) STORE
                // succs: b6
    block b6:
";
    let mut s = parse(input);
    let before = interp::run(&s, &Environment::default(), 1).unwrap();
    let out = &before.invocations[0].outputs[&0];
    assert_eq!(out.comps[0], Some(5));
    assert_eq!(out.comps[1], Some(15));
    assert!(passes::regs_to_ssa(&mut s));
    nir::validate(&s).unwrap();
    let text = nir::print(&s);
    assert!(!text.contains("_reg"), "{text}");
    assert_eq!(
        text.matches(" phi ").count(),
        1,
        "one loop-header phi:\n{text}"
    );
    let after = interp::run(&s, &Environment::default(), 1).unwrap();
    assert_eq!(before.invocations, after.invocations);
}

/// The corpus environment of `nir_interp_corpus.rs`.
fn corpus_env(shader: &Shader, platform: &str) -> Environment {
    let mut bytes = vec![0u8; 65536];
    for (i, chunk) in bytes.chunks_mut(4).enumerate() {
        chunk.copy_from_slice(&((i % 3) as u32).to_le_bytes());
    }
    Environment {
        uniforms: bytes.clone(),
        float_uniform_offsets: platform == "gc2000",
        ubos: vec![bytes; 16],
        robust_access: true,
        constant_data: vec![0; (shader.info.constant_data_size as usize).max(4096)],
        ..Environment::default()
    }
}

fn outputs(s: &Shader, platform: &str) -> Result<Vec<InvocationResult>, String> {
    interp::run(s, &corpus_env(s, platform), 4)
        .map(|r| r.invocations)
        .map_err(|e| e.to_string())
}

/// Runs `pass` on every corpus shader: the result validates and computes the same outputs.
fn corpus_equivalence(name: &str, pass: impl Fn(&mut Shader) -> bool) {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let files = common::files_with_suffix(&dir, ".nir");
    let (mut changed, mut failures) = (0, Vec::new());
    for path in &files {
        let file = path.strip_prefix(&dir).unwrap().display().to_string();
        let platform = file.split('/').next().unwrap_or("").to_string();
        let Ok(mut s) = nir::parse(&std::fs::read_to_string(path).unwrap()) else {
            continue;
        };
        let before = outputs(&s, &platform);
        if pass(&mut s) {
            changed += 1;
        }
        if let Err(e) = nir::validate(&s) {
            failures.push(format!("{file}: invalid after {name}: {e:?}"));
            continue;
        }
        if let Err(e) = nir::parse(&nir::print(&s)) {
            failures.push(format!("{file}: output of {name} does not parse: {e}"));
            continue;
        }
        let after = outputs(&s, &platform);
        if before != after {
            failures.push(format!("{file}: outputs differ after {name}"));
        }
    }
    println!(
        "{name}: {} shaders, {changed} changed, {} failures",
        files.len(),
        failures.len()
    );
    let mut figs =
        common::expect::Figures::new(&format!("all.nir_passes.{}", name.replace('+', "_and_")));
    figs.count("shaders", files.len());
    figs.count("changed", changed);
    figs.count("failures", failures.len());
    for f in failures.iter().take(20) {
        println!("  {f}");
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{name}: {} failures", failures.len());
}

#[test]
fn corpus_constant_folding_and_dce() {
    corpus_equivalence("constant_folding+dce", |s| {
        passes::constant_folding(s) | passes::dce(s)
    });
}

#[test]
fn corpus_copy_prop() {
    corpus_equivalence("copy_prop+dce", |s| passes::copy_prop(s) | passes::dce(s));
}

#[test]
fn corpus_scalarize() {
    corpus_equivalence("scalarize", |s| passes::scalarize_alu(s, &|_, _| true));
}

#[test]
fn corpus_regs_round_trip() {
    corpus_equivalence("regs_to_ssa+phis_to_regs", |s| {
        let a = passes::regs_to_ssa(s);
        let b = passes::phis_to_regs(s);
        a | b
    });
}

#[test]
fn corpus_regs_to_ssa() {
    corpus_equivalence("regs_to_ssa", passes::regs_to_ssa);
}
