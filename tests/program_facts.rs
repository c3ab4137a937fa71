//! Program facts a driver reads that come straight from the shader: memory writes
//! (`has_side_effects`), the early-fragment-tests qualifier, and the clip and cull distance
//! masks, each checked against what the shader text says.

mod common;

use gpucc::compiler::Compiler;
use gpucc::nir;

/// An Intel fragment shader writing its colour, and with `ssbo` also a dword to SSBO 0.
fn fs(ssbo: bool, header: &str) -> nir::Shader {
    let store = if ssbo {
        "    @store_ssbo (%1, %0, %0) (wrmask=x, access=none, align_mul=4, align_offset=0)\n"
    } else {
        ""
    };
    let text = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: facts\n{header}inputs: 0\noutputs: 1\nuniforms: 0\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:\n\
         \x20   32     %0 = load_const (0x00000000)\n\
         \x20   32     %1 = load_const (0x3f800000)\n{store}\
         \x20   32x4   %2 = vec4 %1, %1, %1, %1\n\
         \x20   @store_output (%2, %0) (base=4, range=1, wrmask=xyzw, component=0, \
         src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
         \x20   block b1:\n}}\n"
    );
    nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn memory_writes_and_early_tests_reach_the_fragment_facts() {
    for target in ["ivb", "bdw", "skl"] {
        let c = Compiler::new(target).unwrap();
        let facts = |s: &nir::Shader| {
            c.compile(s, &Default::default())
                .unwrap_or_else(|e| panic!("{target}: {e}"))
                .fragment_info()
                .unwrap()
        };
        let plain = facts(&fs(false, ""));
        assert!(
            !plain.has_side_effects && !plain.early_fragment_tests,
            "{target}"
        );
        assert!(facts(&fs(true, "")).has_side_effects, "{target}");
        let early = facts(&fs(false, "early_fragment_tests: true\n"));
        assert!(
            early.early_fragment_tests && !early.has_side_effects,
            "{target}"
        );
    }
}

/// Every ivb and bdw corpus vertex shader that declares clip distances: the mask has the
/// header's `clip_distance_array_size` low bits set (and the cull distances after them).
#[test]
fn clip_distance_masks_follow_the_header() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    for platform in ["ivb", "bdw"] {
        let c = Compiler::new(platform).unwrap();
        let mut seen = 0;
        for path in common::files_with_suffix(&dir.join(platform), ".vs.nir") {
            let shader = nir::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let size = |k: &str| {
                shader
                    .info
                    .field(k)
                    .map_or(0, |v| v.trim().parse::<u32>().unwrap())
            };
            let (clip, cull) = (
                size("clip_distance_array_size"),
                size("cull_distance_array_size"),
            );
            if clip + cull == 0 {
                continue;
            }
            seen += 1;
            let p = c.compile(&shader, &Default::default()).unwrap();
            let v = p.vertex_info().unwrap();
            assert_eq!(v.clip_distance_mask as u32, (1 << clip) - 1, "{path:?}");
            assert_eq!(
                v.cull_distance_mask as u32,
                ((1 << cull) - 1) << clip,
                "{path:?}"
            );
        }
        // grep -l 'clip_distance_array_size: [1-9]' corpus/nir/<platform>/*.vs.nir
        assert_eq!(seen, 19, "{platform}");
    }
}
