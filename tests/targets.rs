//! The targets and the stages each compiles: README's table is `gpucc targets`, and each
//! stage a target lists compiles and verifies on a bundled example, while every other stage
//! is refused by name before a backend runs (a compute shader once compiled for a Vivante
//! core as if it were a vertex shader).

use std::process::Command;

use gpucc::compiler::{CompileError, CompileOptions, Compiler};
use gpucc::nir::types::Stage;
use gpucc::target::{all_targets, Family};
use gpucc::verify::VerifyOutcome;

fn root() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `gpucc targets` as (name, stages, description) rows.
fn listed() -> Vec<(String, String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .arg("targets")
        .output()
        .expect("gpucc runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            // Fixed columns: the name in 8, the stages in 20, then the description.
            let (name, rest) = l.split_at(9);
            let (stages, desc) = rest.split_at(21);
            (name.trim().into(), stages.trim().into(), desc.trim().into())
        })
        .collect()
}

/// The rows of README's "## Targets" table.
fn readme_table() -> Vec<(String, String, String)> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("\n## Targets\n")
        .nth(1)
        .expect("README has a Targets section");
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            let cells: Vec<String> = l
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().trim_matches('`').to_string())
                .collect();
            assert_eq!(cells.len(), 3, "README row `{l}`");
            (cells[0].clone(), cells[1].clone(), cells[2].clone())
        })
        .collect()
}

#[test]
fn readme_target_table_is_the_listing() {
    let listed = listed();
    assert_eq!(listed.len(), all_targets().count());
    assert_eq!(
        readme_table(),
        listed,
        "README's table differs from `gpucc targets`"
    );
}

#[test]
fn listing_names_the_stages_of_each_target() {
    for (name, stages, _) in listed() {
        let t = gpucc::target::Target::from_name(&name).unwrap();
        assert_eq!(stages, t.stage_list(), "{name}");
    }
}

/// A bundled example of `stage` for `family`, or a small float-only one.
fn example(family: Family, stage: Stage) -> String {
    let file = match (family, stage) {
        (Family::Intel, Stage::Fragment) => "examples/intel/gradient.fs.nir",
        (Family::Intel, Stage::Vertex) => "examples/intel/transform.vs.nir",
        (Family::Intel, Stage::Compute) => "examples/intel/double.cs.nir",
        (_, Stage::TessCtrl) => "examples/intel/barrier.tcs.nir",
        (_, Stage::TessEval) => "examples/intel/patch.tes.nir",
        // Gen7 takes vector-form NIR, which the scalar backend compiles too.
        (_, Stage::Geometry) => "examples/intel/cut.gs.nir",
        (Family::Etnaviv, Stage::Vertex) => "examples/etnaviv/transform.vs.nir",
        // The bundled etnaviv fragment shader compares integers, which pre-HALTI2 cores lack.
        (Family::Etnaviv, Stage::Fragment) => return ETNA_FLAT_FS.to_string(),
        (_, Stage::Compute) => "examples/intel/double.cs.nir",
        (_, s) => panic!("no example of {s:?}"),
    };
    std::fs::read_to_string(root().join(file)).unwrap()
}

const ETNA_FLAT_FS: &str = "shader: MESA_SHADER_FRAGMENT
name: flat
internal: false
stage: 4
next_stage: 4
subgroup_size: 1
inputs: 0
outputs: 1
uniforms: 1
decl_var uniform INTERP_MODE_NONE none vec4 tint (0, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 0, 0)
decl_function main (0 params) 

impl main {
    block b0:  // preds: 
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x3f000000 = 0.500000)
    32x4  %2 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)  // tint
    32x4  %3 = fmul %2, %1.xxxx
    32    %4 = deref_var &color (shader_out vec4)
               @store_deref (%4, %3) (wrmask=xyzw, access=none)
               // succs: b1 
    block b1:
}
";

/// Every listed stage compiles and verifies; every other stage of the same examples (and a
/// mesh-stage header on any of them) is UNSUPPORTED naming the stage and the target.
#[test]
fn each_target_compiles_exactly_its_stages() {
    for t in all_targets() {
        let compiler = Compiler::for_target(t);
        for stage in [
            Stage::Vertex,
            Stage::TessCtrl,
            Stage::TessEval,
            Stage::Geometry,
            Stage::Fragment,
            Stage::Compute,
        ] {
            let text = example(t.family(), stage);
            let shader = gpucc::nir::parse(&text).unwrap();
            let result = compiler.compile(&shader, &CompileOptions::default());
            if t.stages().contains(&stage) {
                assert!(result.is_ok(), "{t} {stage:?}: {:?}", result.err());
                assert_eq!(
                    compiler.verify(&shader, &[]),
                    VerifyOutcome::Pass,
                    "{t} {stage:?}"
                );
            } else {
                match result {
                    Err(CompileError::Unsupported(m)) => assert!(
                        m.contains(stage.mesa_name()) && m.contains(t.name()),
                        "{t} {stage:?}: {m}"
                    ),
                    other => panic!("{t} {stage:?}: not refused: {:?}", other.map(|_| ())),
                }
                assert!(
                    matches!(compiler.verify(&shader, &[]), VerifyOutcome::Unsupported(_)),
                    "{t} {stage:?}"
                );
            }
        }
        // A stage no target compiles yet: the header alone decides.
        let mesh = example(t.family(), Stage::Vertex).replacen(
            "MESA_SHADER_VERTEX",
            "MESA_SHADER_MESH",
            1,
        );
        let shader = gpucc::nir::parse(&mesh).unwrap();
        match compiler.compile(&shader, &CompileOptions::default()) {
            Err(CompileError::Unsupported(m)) => {
                assert!(m.starts_with("MESA_SHADER_MESH shaders on "), "{t}: {m}")
            }
            other => panic!("{t}: mesh not refused: {:?}", other.map(|_| ())),
        }
    }
}
