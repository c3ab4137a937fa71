//! Every system value of the NIR intrinsic table in every stage of every target: each either
//! compiles and then verifies against the interpreter, or is refused with a message that
//! names it. Wrong code with a success status (a fragment-only value read in a vertex shader
//! from whatever register the fragment payload would have had) is what this looks for.
//!
//! A shader per case reads the value and writes it, as bits, to the stage's output (the
//! colour, the position, or an SSBO for compute), in the target family's NIR form.

use gpucc::compiler::{CompileError, CompileOptions, Compiler};
use gpucc::nir::opcodes::INTRINSICS;
use gpucc::nir::{IndexKind, Intrinsic, Stage};
use gpucc::target::{all_targets, Family, Target};
use gpucc::verify::VerifyOutcome;

/// The text of one index at its default value, as nir_print spells it.
fn index_text(k: IndexKind) -> String {
    match k {
        IndexKind::SrcType | IndexKind::DestType => format!("{}=float32", k.name()),
        IndexKind::WriteMask => "wrmask=x".into(),
        IndexKind::IoSemantics => "io location=VARYING_SLOT_VAR0 slots=1".into(),
        IndexKind::IoXfb => "xfb()".into(),
        IndexKind::IoXfb2 => "xfb2()".into(),
        IndexKind::AtomicOp => "atomic_op=iadd".into(),
        IndexKind::Access => "access=none".into(),
        _ => format!("{}=0", k.name()),
    }
}

/// The shader reading `i` in `stage` for `family`, or None when the value's shape is not one
/// the harness writes out (more than four components, or 8/16-bit values).
fn shader(i: Intrinsic, family: Family, stage: Stage, float_bools: bool) -> Option<String> {
    let info = i.info();
    // Each source a constant of its declared width (one component where the width is the
    // instruction's own or any): zero, which is a valid offset, index, value and address
    // for every intrinsic that takes one. Sources that must be derefs or registers get a
    // constant too, and the validator has to say so.
    let mut srcs = String::new();
    let mut operands = Vec::new();
    for (k, &n) in info.src_components.iter().enumerate() {
        let n = if n > 0 { n as usize } else { 1 };
        let zeros = vec!["0x00000000"; n].join(", ");
        let ty = if n == 1 {
            "32".to_string()
        } else {
            format!("32x{n}")
        };
        let ssa = 20 + k;
        if n == 1 {
            srcs.push_str(&format!("    {ty:<6} %{ssa} = load_const ({zeros})\n"));
        } else {
            srcs.push_str(&format!(
                "    {ty:<6} %{ssa} = load_const ({zeros}) = ({})\n",
                vec!["0.000000"; n].join(", ")
            ));
        }
        operands.push(format!("%{ssa}"));
    }
    let operands = operands.join(", ");
    if !info.has_dest() {
        // A store or barrier: the stage's output gets a constant, the intrinsic runs first.
        let indices: Vec<String> = info.indices.iter().map(|&k| index_text(k)).collect();
        let body = format!(
            "    32     %0 = load_const (0x00000000)\n{srcs}                @{} ({operands}) ({})\n    32x4   %2 = load_const (0x00000000, 0x00000000, 0x00000000, 0x00000000) = (0.000000, 0.000000, 0.000000, 0.000000)\n",
            info.name,
            indices.join(", ")
        );
        return wrap(family, stage, body);
    }
    let comps = match info.dest_components {
        0 => 1,
        c if (1..=4).contains(&c) => c as usize,
        _ => return None,
    };
    let mut bits = *info.bit_sizes.first().unwrap_or(&32);
    // Vivante cores before HALTI2 get booleans as 32-bit floats (etnaviv's NIR for them has
    // `32 %1 = @load_front_face`), which the shader writes out as they are.
    if bits == 1 && float_bools {
        bits = 32;
    }
    if !matches!(bits, 1 | 32) {
        return None;
    }
    let indices: Vec<String> = info.indices.iter().map(|&k| index_text(k)).collect();
    let ty = if comps == 1 {
        format!("{bits}")
    } else {
        format!("{bits}x{comps}")
    };
    let mut body = format!(
        "    32     %0 = load_const (0x00000000)\n{srcs}    {ty:<6} %1 = @{} ({operands}) ({})\n",
        info.name,
        indices.join(", ")
    );
    // The value as 32-bit words (1-bit booleans through b2i32), widened to four by a
    // swizzled mov: the form every backend takes (Gen7's vec4 one has no vecN operations).
    let letter = |c: usize| ["x", "y", "z", "w"][c.min(comps - 1)];
    if bits == 1 {
        body.push_str("    32     %9 = b2i32 %1.x\n");
        body.push_str("    32x4   %2 = mov %9.xxxx\n");
    } else {
        body.push_str(&format!(
            "    32x4   %2 = mov %1.{}{}{}{}\n",
            letter(0),
            letter(1),
            letter(2),
            letter(3)
        ));
    }
    wrap(family, stage, body)
}

/// The whole shader around `body`, which leaves the value to write out in `%2` (a vec4).
fn wrap(family: Family, stage: Stage, body: String) -> Option<String> {
    let (head, decls, store) = match (family, stage) {
        (Family::Intel, Stage::Fragment) => (
            "inputs: 0\noutputs: 1\nuniforms: 0\n",
            String::new(),
            "                @store_output (%2, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n".to_string(),
        ),
        (Family::Intel, Stage::Vertex) => (
            "inputs: 0\noutputs: 1\nuniforms: 0\n",
            String::new(),
            "                @store_output (%2, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n".to_string(),
        ),
        (_, Stage::Compute) => (
            "workgroup_size: 8, 1, 1\nshared_size: 0\ninputs: 0\noutputs: 0\nuniforms: 0\n",
            String::new(),
            "    32     %3 = @load_local_invocation_index () ()\n    32     %4 = load_const (0x00000004)\n    32     %5 = imul %3, %4\n    32     %6 = imul %5, %4\n                @store_ssbo (%2, %0 (0x0), %6) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)\n".to_string(),
        ),
        // One uniform slot: the default uniform block is also UBO 0, so a `load_ubo` at
        // offset 0 reads declared data.
        (Family::Etnaviv, Stage::Fragment) => (
            "inputs: 0\noutputs: 1\nuniforms: 1\n",
            "decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 0, 0)\n".to_string(),
            "    32     %7 = deref_var &color (shader_out vec4)\n                @store_deref (%7, %2) (wrmask=xyzw, access=none)\n".to_string(),
        ),
        (Family::Etnaviv, Stage::Vertex) => (
            "inputs: 0\noutputs: 1\nuniforms: 1\n",
            "decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)\n".to_string(),
            "    32     %7 = deref_var &gl_Position (shader_out vec4)\n                @store_deref (%7, %2) (wrmask=xyzw, access=none)\n".to_string(),
        ),
        _ => return None,
    };
    Some(format!(
        "shader: {}\nname: sysval\n{head}{decls}decl_function main (0 params)\n\nimpl main {{\n    block b0:\n{body}{store}    block b1:\n}}\n",
        stage.mesa_name()
    ))
}

/// What feeding a set of intrinsics to every stage of every target gave.
#[derive(Default)]
struct Sweep {
    compiled: usize,
    refused: usize,
    skipped: usize,
    wrong: Vec<String>,
}

fn sweep(pick: impl Fn(&gpucc::nir::opcodes::IntrinsicInfo) -> bool) -> Sweep {
    let mut out = Sweep::default();
    for t in all_targets().filter(|t| !t.stages().is_empty()) {
        let compiler = Compiler::for_target(t);
        let float_bools = matches!(t, Target::Etnaviv(s) if !s.has_integers());
        for &stage in t.stages() {
            for info in INTRINSICS.iter().filter(|i| pick(i)) {
                let i = Intrinsic::from_name(info.name).unwrap();
                let Some(text) = shader(i, t.family(), stage, float_bools) else {
                    out.skipped += 1;
                    continue;
                };
                let case = format!("{t} {} {}", stage.short_name(), info.name);
                let nir = match gpucc::nir::parse(&text) {
                    Ok(n) => n,
                    Err(e) => panic!("{case}: the harness wrote bad NIR: {e}\n{text}"),
                };
                // As the C API and the command line take a shader: validated, then compiled.
                if let Err(e) = gpucc::nir::validate(&nir) {
                    let e = format!("{e:?}");
                    if e.contains(info.name) {
                        out.refused += 1;
                    } else {
                        out.wrong
                            .push(format!("{case}: invalid without naming it: {e}"));
                    }
                    continue;
                }
                match compiler.compile(&nir, &CompileOptions::default()) {
                    Ok(_) => match compiler.verify(&nir, &[]) {
                        VerifyOutcome::Pass => out.compiled += 1,
                        other => out
                            .wrong
                            .push(format!("{case}: compiled, but verify: {other:?}")),
                    },
                    Err(CompileError::Unsupported(m) | CompileError::Invalid(m))
                        if m.contains(info.name) =>
                    {
                        out.refused += 1
                    }
                    Err(e) => out
                        .wrong
                        .push(format!("{case}: refused without naming it: {e}")),
                }
            }
        }
    }
    out
}

/// Runs the sweep over the intrinsics `pick` keeps, prints its counts, and fails listing every
/// case that neither verified nor was refused by name.
fn assert_sweep(pick: impl Fn(&gpucc::nir::opcodes::IntrinsicInfo) -> bool) {
    let s = sweep(pick);
    println!(
        "{} compiled and verified, {} refused by name, {} not written",
        s.compiled, s.refused, s.skipped
    );
    assert!(
        s.wrong.is_empty(),
        "{} cases:\n{}",
        s.wrong.len(),
        s.wrong.join("\n")
    );
}

#[test]
fn every_system_value_compiles_and_verifies_or_is_refused_by_name() {
    assert_sweep(|i| i.sysval && i.src_components.is_empty());
}

#[test]
fn every_other_intrinsic_compiles_and_verifies_or_is_refused_by_name() {
    // Everything the system-value test leaves: intrinsics with sources (loads, stores,
    // atomics, register access, barycentrics), stores and barriers without a destination.
    assert_sweep(|i| !(i.sysval && i.src_components.is_empty()));
}

/// Cherryview, Broxton and Gemini Lake multiply dwords from 32×16-bit partial products; the
/// lowering read an immediate's "high word" as the immediate again, so `x * 4` came out as
/// `x * 4 + (x * 4 << 16)`, with status OK (found by the test above, in compute shaders'
/// address arithmetic). Constants with a zero and a non-zero high half, on all three.
#[test]
fn lp_parts_multiply_by_constants() {
    let base = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/intel/double.cs.nir"),
    )
    .unwrap();
    for k in ["0x00000003", "0x00012345", "0xfffffffd"] {
        let text = base.replace(
            "    32    %5 = iadd %4, %4\n",
            &format!("    32    %9 = load_const ({k})\n    32    %5 = imul %4, %9\n"),
        );
        assert_ne!(text, base);
        let shader = gpucc::nir::parse(&text).unwrap();
        for target in ["chv", "bxt", "glk", "bdw"] {
            assert_eq!(
                Compiler::new(target).unwrap().verify(&shader, &[]),
                VerifyOutcome::Pass,
                "{target} x * {k}"
            );
        }
    }
}
