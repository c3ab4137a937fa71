//! Mesa's binding model (`BindingModel::Mesa`, `GPUCC_BINDING_MODEL_MESA`): the NIR's surface
//! indices are the final binding-table slots, uniform data is pushed as up to four UBO ranges
//! and pulled past them. Every program here is checked on the simulator against the
//! interpreter, with its buffers bound where the model puts them.

mod common;

use gpucc::compiler::{BindingModel, CompileOptions, Compiler};
use gpucc::intel::ubo_ranges::UboRange;
use gpucc::nir::{self, Shader};
use gpucc::program::Code;
use gpucc::verify::VerifyOutcome;

fn mesa() -> CompileOptions {
    CompileOptions {
        binding: BindingModel::Mesa,
        ..Default::default()
    }
}

/// A shader of `stage` summing one vec4 from the start of each of `regs` 32-byte registers
/// of UBO `block` (read at constant offsets) into its colour (fragment) or position (vertex).
fn ubo_sum(stage: &str, block: u32, regs: u32) -> Shader {
    let mut body = format!(
        "    32     %0 = load_const (0x00000000)\n    32     %1 = load_const ({block:#010x})\n"
    );
    let mut next = 2;
    let mut acc = None;
    for r in 0..regs {
        let (off, val) = (next, next + 1);
        body.push_str(&format!(
            "    32     %{off} = load_const ({:#010x})\n    32x4   %{val} = @load_ubo (%1, %{off}) \
             (access=none, align_mul=16, align_offset=0, range_base=0, range=16)\n",
            32 * r
        ));
        next += 2;
        acc = Some(match acc {
            None => val,
            Some(a) => {
                body.push_str(&format!("    32x4   %{next} = fadd %{a}, %{val}\n"));
                next += 1;
                next - 1
            }
        });
    }
    let a = acc.unwrap();
    let (name, slot, base) = match stage {
        "FRAGMENT" => ("fs", "FRAG_RESULT_COLOR", 4),
        _ => ("vs", "VARYING_SLOT_POS", 0),
    };
    let text = format!(
        "shader: MESA_SHADER_{stage}\nname: ubo-sum-{name}\ninputs: 0\noutputs: 1\nuniforms: 0\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:\n{body}\
         \x20               @store_output (%{a}, %0) (base={base}, range=1, wrmask=xyzw, \
         component=0, src_type=float32, io location={slot} slots=1, xfb(), xfb2())\n\
         \x20   block b1:\n}}\n"
    );
    nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn kernel(program: &gpucc::program::Program) -> &gpucc::intel::kernel::Kernel {
    match &program.code {
        Code::Intel(k) => k,
        Code::Etnaviv(_) => panic!("not an Intel program"),
    }
}

/// 70 registers read at constant offsets: brw's analysis sees the first 64 chunks, so one
/// range of 64 registers is pushed (32 in a Gen7 vec4 vertex shader, brw's vec4 limit) and
/// the loads past it are pulled from the UBO's own slot; the sum of all 70 is right.
#[test]
fn uniform_data_past_the_push_block_is_pulled() {
    for (stage, target, pushed) in [
        ("FRAGMENT", "ivb", 64),
        ("FRAGMENT", "hsw", 64),
        ("FRAGMENT", "bdw", 64),
        ("FRAGMENT", "skl", 64),
        ("VERTEX", "ivb", 32),
        ("VERTEX", "hsw", 32),
        ("VERTEX", "bdw", 64),
        ("VERTEX", "skl", 64),
    ] {
        let shader = ubo_sum(stage, 3, 70);
        let compiler = Compiler::new(target).unwrap();
        let program = compiler
            .compile(&shader, &mesa())
            .unwrap_or_else(|e| panic!("{target} {stage}: {e}"));
        let k = kernel(&program);
        let what = format!("{target} {stage}");
        assert_eq!(
            k.ubo_ranges,
            vec![UboRange {
                block: 3,
                start: 0,
                length: pushed
            }],
            "{what}"
        );
        assert_eq!(k.push_constants.len() as u32, pushed * 8, "{what}");
        assert_eq!(k.pull_constant_blocks, vec![3], "{what}");
        // No surface base: block 3 is binding-table slot 3.
        assert_eq!(k.ubo_surface_base, 0, "{what}");
        assert_eq!(
            compiler.verify_options(&shader, &mesa()),
            VerifyOutcome::Pass,
            "{what}"
        );
    }
}

/// Under gpucc's own model the same shader pushes 32 registers in order of first use and
/// reads its pulls through slot 64 + block: the default is unchanged.
#[test]
fn gpucc_model_is_the_default() {
    let shader = ubo_sum("FRAGMENT", 3, 70);
    let compiler = Compiler::new("bdw").unwrap();
    let program = compiler.compile(&shader, &Default::default()).unwrap();
    let k = kernel(&program);
    assert!(k.ubo_ranges.is_empty());
    assert_eq!(k.ubo_surface_base, 64);
    assert_eq!(k.push_constants.len(), 256);
    assert_eq!(compiler.verify(&shader, &[]), VerifyOutcome::Pass);
}

/// Every ivb, bdw and skl corpus shader under Mesa's binding model: compiled and checked on the
/// simulator as under gpucc's own (figures held exactly; the pulls are the programs whose
/// ranges did not hold every constant-offset load).
#[test]
fn corpus_verifies_under_mesa_binding_model() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    for platform in ["ivb", "bdw", "skl"] {
        let compiler = Compiler::new(platform).unwrap();
        let (mut files, mut passed, mut unsupported, mut with_ranges, mut with_pulls) =
            (0, 0, 0, 0, 0);
        let mut failures = Vec::new();
        for path in common::files_with_suffix(&dir.join(platform), ".nir") {
            files += 1;
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let shader = nir::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let options = CompileOptions {
                simd: vec![8],
                ..mesa()
            };
            if let Ok(p) = compiler.compile(&shader, &options) {
                let k = kernel(&p);
                with_ranges += !k.ubo_ranges.is_empty() as usize;
                with_pulls += !k.pull_constant_blocks.is_empty() as usize;
            }
            match compiler.verify_options(&shader, &options) {
                VerifyOutcome::Pass => passed += 1,
                VerifyOutcome::Unsupported(_) => unsupported += 1,
                other => failures.push(format!("{name}: {other:?}")),
            }
        }
        let mut figs = common::expect::Figures::new(&format!("{platform}.binding_model.mesa"));
        figs.count("files", files);
        figs.count("verified", passed);
        figs.count("unsupported", unsupported);
        figs.count("failed", failures.len());
        figs.count("with_ranges", with_ranges);
        figs.count("with_pulls", with_pulls);
        for f in &failures {
            figs.note(format!("FAIL {f}"));
        }
        figs.check();
        assert!(failures.is_empty(), "{platform}: {failures:#?}");
    }
}
