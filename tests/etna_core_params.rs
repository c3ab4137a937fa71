//! Vivante targets made from a core's values (`Specs::from_params`), as Mesa's etnaviv knows a
//! core only by what the kernel reports. The expected values here are not read back from the
//! preset table: the GC2000/GC3000/GC400 values are typed in from Mesa 23.3's drm-shim
//! (src/etnaviv/drm-shim/etnaviv_noop.c), the bits from rnndb common.xml, and the limits from
//! Mesa's etna_get_specs rules; the name's fingerprint is recomputed here from its definition.

mod common;

use std::path::Path;

use gpucc::compiler::{CompileError, CompileOptions, Compiler};
use gpucc::etnaviv::specs::*;
use gpucc::program::Code;
use gpucc::target::Target;

/// GC2000 r5108 as Mesa's drm-shim reports it.
fn gc2000_published() -> CoreParams {
    CoreParams {
        model: 0x2000,
        revision: 0x5108,
        features: [
            0xe0296cad, 0xc9799eff, 0x2efbf2d9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ],
        register_max: 0x40,
        instruction_count: 0x200,
        num_constants: 0xa8,
        num_varyings: 0xb,
        thread_count: 0x400,
        shader_core_count: 0x4,
        pixel_pipes: 0x2,
    }
}

/// GC3000 r5450 as Mesa's drm-shim reports it.
fn gc3000_published() -> CoreParams {
    CoreParams {
        model: 0x3000,
        revision: 0x5450,
        features: [
            0xe0287cad, 0xc9799efb, 0xfefbfadb, 0xeb9d4bbf, 0xedffdced, 0x930d2f47, 0x10000133, 0,
            0, 0, 0, 0, 0,
        ],
        register_max: 0x40,
        instruction_count: 0x100,
        num_constants: 0x140,
        num_varyings: 0x10,
        thread_count: 0x400,
        shader_core_count: 0x4,
        pixel_pipes: 0x2,
    }
}

/// GC400 r4652 as Mesa's drm-shim reports it.
fn gc400_published() -> CoreParams {
    CoreParams {
        model: 0x400,
        revision: 0x4652,
        features: [
            0xa0e9e004, 0xe1299fff, 0xbe13b219, 0xce110010, 0x8000001, 0x20102, 0x120000, 0, 0, 0,
            0, 0, 0,
        ],
        register_max: 0x40,
        instruction_count: 0x100,
        num_constants: 0x140,
        num_varyings: 0x8,
        thread_count: 0x80,
        shader_core_count: 0x1,
        pixel_pipes: 0x1,
    }
}

fn target(p: &CoreParams) -> Target {
    Target::Etnaviv(Specs::from_params(p).unwrap_or_else(|e| panic!("{e}")))
}

fn compile(target: Target, text: &str) -> Result<gpucc::program::Program, CompileError> {
    let shader = gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}"));
    Compiler::for_target(target).compile(&shader, &CompileOptions::default())
}

fn limit_message(r: Result<gpucc::program::Program, CompileError>) -> String {
    match r {
        Err(CompileError::Limit(m)) => m,
        Err(e) => panic!("expected a limit, got {e}"),
        Ok(_) => panic!("expected a limit, compiled"),
    }
}

/// A fragment shader of `n` dependent ffma (one MAD each, nothing to fold), on two inputs.
fn ffma_chain(n: usize) -> String {
    let mut t = String::from(
        "shader: MESA_SHADER_FRAGMENT\nname: chain\ninputs: 1\noutputs: 1\nuniforms: 0\n\
         decl_var shader_in INTERP_MODE_NONE none vec2 uv (VARYING_SLOT_VAR0.xy, 0, 0)\n\
         decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
         \x20   32    %0 = load_const (0x00000000 = 0.000000)\n\
         \x20   32x2  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, \
         dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n",
    );
    let mut prev = "%1.x".to_string();
    for i in 0..n {
        t += &format!("    32    %{} = ffma {prev}, %1.y, %1.x\n", i + 2);
        prev = format!("%{}", i + 2);
    }
    let v = n + 2;
    t += &format!(
        "    32x4  %{v} = vec4 {prev}, %1.y, %1.x, %1.y\n\
         \x20   32    %{} = deref_var &color (shader_out vec4)\n\
         \x20              @store_deref (%{}, %{v}) (wrmask=xyzw, access=none)\n\
         \x20              // succs: b1 \n    block b1:\n}}\n",
        v + 1,
        v + 1
    );
    t
}

/// A fragment shader with `n` uniform slots that reads the last one.
fn uniform_reader(n: u32) -> String {
    format!(
        "shader: MESA_SHADER_FRAGMENT\nname: uniforms\ninputs: 0\noutputs: 1\nuniforms: {n}\n\
         decl_var uniform INTERP_MODE_NONE none vec4 u[{n}] (0, 0, 0)\n\
         decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds: \n\
         \x20   32    %0 = load_const (0x00000000 = 0.000000)\n\
         \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base={}, range=1, dest_type=float32)\n\
         \x20   32    %2 = deref_var &color (shader_out vec4)\n\
         \x20              @store_deref (%2, %1) (wrmask=xyzw, access=none)\n\
         \x20              // succs: b1 \n    block b1:\n}}\n",
        n - 1
    )
}

/// FNV-1a, 32-bit, over the values as little-endian u32s: the fingerprint as README defines it.
fn fnv1a(words: &[u32]) -> u32 {
    let mut h = 2_166_136_261u32;
    for b in words.iter().flat_map(|w| w.to_le_bytes()) {
        h = (h ^ u32::from(b)).wrapping_mul(16_777_619);
    }
    h
}

fn expected_name(p: &CoreParams) -> String {
    let mut words = vec![p.model, p.revision];
    words.extend_from_slice(&p.features);
    words.extend_from_slice(&[
        p.register_max,
        p.instruction_count,
        p.num_constants,
        p.num_varyings,
        p.thread_count,
        p.shader_core_count,
        p.pixel_pipes,
    ]);
    format!("gc{:x}-r{:x}-{:08x}", p.model, p.revision, fnv1a(&words))
}

#[test]
fn published_values_resolve_to_the_presets() {
    for (values, name) in [
        (gc2000_published(), "gc2000"),
        (gc3000_published(), "gc3000"),
        (gc400_published(), "gc400"),
    ] {
        let s = Specs::from_params(&values).unwrap();
        assert_eq!(s.name, name);
        assert!(std::ptr::eq(s, Specs::from_name(name).unwrap()), "{name}");
        assert!(s.is_preset());
    }
    // gc7000's words come from the kernel's hwdb (thirteen words): its own values round-trip.
    let gc7000 = Specs::from_name("gc7000").unwrap();
    assert!(std::ptr::eq(
        Specs::from_params(&gc7000.params()).unwrap(),
        gc7000
    ));
}

/// The corpus shaders of gc2000, or the hand-written ones without the shared data.
fn gc2000_shaders() -> Vec<(String, String)> {
    let hand = vec![
        ("chain150".to_string(), ffma_chain(150)),
        ("uniforms".to_string(), uniform_reader(60)),
    ];
    let Some(dir) = common::shared_path("corpus/nir/gc2000") else {
        return hand;
    };
    let files = common::files_with_suffix(&dir, ".nir");
    assert!(files.len() > 100, "{} gc2000 corpus files", files.len());
    files
        .iter()
        .map(|f| (f.display().to_string(), std::fs::read_to_string(f).unwrap()))
        .chain(hand)
        .collect()
}

/// The code for the published GC2000 values is gc2000's; so is the code for a core that
/// differs only in a value no compiler fact depends on (thread_count), though that core is
/// another target with its own name: every fact is derived from the values, not the name.
#[test]
fn gc2000_values_compile_to_gc2000_code() {
    let preset = Target::from_name("gc2000").unwrap();
    let published = target(&gc2000_published());
    let mut more_threads = gc2000_published();
    more_threads.thread_count = 512;
    let other = target(&more_threads);
    assert_eq!(published.name(), "gc2000");
    assert_eq!(other.name(), expected_name(&more_threads));
    assert_ne!(other, preset);

    let (mut compiled, mut refused) = (0, 0);
    for (file, text) in gc2000_shaders() {
        let want = compile(preset, &text);
        let got = compile(published, &text);
        let via_values = compile(other, &text);
        match (&want, &got, &via_values) {
            (Ok(a), Ok(b), Ok(c)) => {
                assert_eq!(a.bytes, b.bytes, "{file}");
                assert_eq!(a.bytes, c.bytes, "{file}");
                compiled += 1;
            }
            (Err(a), Err(b), Err(c)) => {
                assert_eq!(a, b, "{file}");
                // The message names the target; otherwise the same refusal.
                assert_eq!(
                    a.to_string(),
                    c.to_string().replace(other.name(), "gc2000"),
                    "{file}"
                );
                refused += 1;
            }
            _ => panic!("{file}: gc2000 {want:?}, published {got:?}, values {via_values:?}"),
        }
    }
    eprintln!("{compiled} compiled, {refused} refused, by all three alike");
    assert!(compiled > 0, "{compiled} compiled, {refused} refused");
}

/// The instruction limit follows instruction_count as Mesa's etna_get_specs rules say: without
/// an instruction cache, up to 256 the core runs that many; above 256 the memory is unified
/// and each stage has a window of 256 (GC2000's 512 is that case, so a larger count changes
/// nothing); with the INSTRUCTION_CACHE bit (chipMinorFeatures3, features[4] bit 0x8) longer
/// programs run from memory.
#[test]
fn instruction_count_and_cache_bit_move_the_instruction_limit() {
    let gc2000 = Target::from_name("gc2000").unwrap();
    let chain150 = ffma_chain(150);
    let chain300 = ffma_chain(300);
    assert!(compile(gc2000, &chain150).is_ok());
    assert_eq!(
        limit_message(compile(gc2000, &chain300)),
        "301 instructions exceed the 256 of gc2000's instruction memory"
    );

    let mut small = gc2000_published();
    small.instruction_count = 128;
    let small_target = target(&small);
    assert_eq!(small_target.name(), expected_name(&small));
    assert_eq!(small_target.name(), "gc2000-r5108-23675626");
    assert_eq!(
        limit_message(compile(small_target, &chain150)),
        "151 instructions exceed the 128 of gc2000-r5108-23675626's instruction memory"
    );
    let Target::Etnaviv(s) = small_target else {
        unreachable!()
    };
    assert_eq!(
        s.instruction_memory(),
        InstructionMemory {
            has_icache: false,
            max_instructions: 128,
            vs_offset: 0x4000,
            ps_offset: 0x6000
        }
    );

    let mut large = gc2000_published();
    large.instruction_count = 1024;
    let large_target = target(&large);
    assert_eq!(
        limit_message(compile(large_target, &chain300)),
        format!(
            "301 instructions exceed the 256 of {}'s instruction memory",
            large_target.name()
        )
    );

    let mut cached = gc2000_published();
    cached.features[4] |= 0x8;
    let cached_target = target(&cached);
    let program = compile(cached_target, &chain300).expect("runs from memory");
    let Code::Etnaviv(obj) = &program.code else {
        unreachable!()
    };
    assert!(obj.needs_icache);
    assert_eq!(obj.target, cached_target.name());
    assert_eq!(program.bytes.len(), 16 * 301);
}

/// The corpus shader the brief names: 266 instructions, refused by gc2000, compiled once the
/// core has an instruction cache.
#[test]
fn corpus_shader_over_the_gc2000_window() {
    let Some(path) = common::shared_path("corpus/nir/gc2000/shader-db__unity__50.fs.nir") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let gc2000 = Target::from_name("gc2000").unwrap();
    assert_eq!(
        limit_message(compile(gc2000, &text)),
        "266 instructions exceed the 256 of gc2000's instruction memory"
    );
    let mut bigger = gc2000_published();
    bigger.instruction_count = 512 * 2;
    assert!(compile(target(&bigger), &text).is_err());
    let mut cached = gc2000_published();
    cached.features[4] |= 0x8;
    let program = compile(target(&cached), &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(program.bytes.len(), 16 * 266);
}

/// num_constants sets the fragment uniform file as etna_determine_uniform_limits does: 168 (and
/// 0, taken as 168) give 64 slots, 320 gives 64, 256 or more otherwise 256.
#[test]
fn num_constants_moves_the_uniform_limit() {
    let gc2000 = Target::from_name("gc2000").unwrap();
    let hundred = uniform_reader(100);
    assert!(compile(gc2000, &uniform_reader(64)).is_ok());
    assert_eq!(
        limit_message(compile(gc2000, &hundred)),
        "100 uniform slots exceed the 64 gc2000 allows"
    );
    for (num_constants, fragment_slots) in [(0, 64), (168, 64), (256, 256), (320, 64), (512, 256)] {
        let mut core = gc2000_published();
        core.num_constants = num_constants;
        let t = target(&core);
        let Target::Etnaviv(s) = t else {
            unreachable!()
        };
        assert_eq!(s.uniform_limits().max_ps_uniforms, fragment_slots);
        let r = compile(t, &hundred);
        if fragment_slots >= 100 {
            assert!(r.is_ok(), "num_constants {num_constants}: {r:?}");
        } else {
            assert_eq!(
                limit_message(r),
                format!("100 uniform slots exceed the 64 {} allows", t.name())
            );
        }
    }
}

/// Clearing HALTI bits lowers the dialect as the bits say (rnndb: HALTI0 chipMinorFeatures1
/// 0x00800000 = features[2]; HALTI1 chipMinorFeatures2 0x800 = features[3]; HALTI2
/// chipMinorFeatures4 0x10000 = features[5]; HALTI5 chipMinorFeatures5 0x20000000 = features[6]).
#[test]
fn halti_bits_decide_the_dialect() {
    // GC3000: minor4 (features[5]) 0x930d2f47 has HALTI2.
    let gc3000 = gc3000_published();
    let s = Specs::from_params(&gc3000).unwrap();
    assert_eq!(s.halti(), 2);
    assert!(s.has_integers() && s.has_halti2_instructions());

    // Without HALTI2, minor2 (features[3]) 0xeb9d4bbf still has HALTI1: no integers, unified
    // uniforms at 0x30000.
    let mut no_halti2 = gc3000;
    no_halti2.features[5] &= !0x0001_0000;
    let s = Specs::from_params(&no_halti2).unwrap();
    assert_eq!(s.name, expected_name(&no_halti2));
    assert_eq!(s.halti(), 1);
    assert!(!s.has_integers() && !s.has_halti2_instructions());
    assert_eq!(
        s.uniform_limits(),
        UniformLimits {
            max_vs_uniforms: 256,
            max_ps_uniforms: 64,
            unified: true,
            vs_offset: 0x30000,
            ps_offset: 0x30000 + 16 * 256
        }
    );
    // The bundled example compares with flt32 (a 32-bit boolean): gc3000 compiles it, the
    // core without HALTI2 refuses it by name, as gc2000 does.
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/etnaviv/gradient.fs.nir"),
    )
    .unwrap();
    assert!(compile(target(&gc3000), &example).is_ok());
    let refused = compile(target(&no_halti2), &example)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("flt32") && refused.contains(s.name),
        "{refused}"
    );

    // Without HALTI1 and HALTI0 too: pre-HALTI, separate uniform banks at 0x5000/0x7000, eight
    // fragment and four vertex samplers from 8.
    let mut pre_halti = no_halti2;
    pre_halti.features[3] &= !0x800;
    pre_halti.features[2] &= !0x0080_0000;
    let s = Specs::from_params(&pre_halti).unwrap();
    assert_eq!(s.halti(), -1);
    let u = s.uniform_limits();
    assert!(!u.unified);
    assert_eq!((u.vs_offset, u.ps_offset), (0x5000, 0x7000));
    assert_eq!(
        s.sampler_limits(),
        SamplerLimits {
            fragment_count: 8,
            vertex_count: 4,
            vertex_offset: 8
        }
    );

    // GC7000 without HALTI5: minor5 (features[6]) 0xbb5ac333 still has HALTI4 (0x4000); the
    // core then runs shaders from the register window, through the cache its minor3
    // (features[4]) 0xedfffced has (INSTRUCTION_CACHE 0x8), and texldb/texldl take their bias
    // in coord.w.
    let gc7000 = Specs::from_name("gc7000").unwrap();
    assert!(!gc7000.tex_lod_bias_in_coord_w());
    let mut no_halti5 = gc7000.params();
    no_halti5.features[6] &= !0x2000_0000;
    let s = Specs::from_params(&no_halti5).unwrap();
    assert_eq!(s.halti(), 4);
    assert!(s.tex_lod_bias_in_coord_w());
    assert_eq!(
        s.instruction_memory(),
        InstructionMemory {
            has_icache: true,
            max_instructions: 256,
            vs_offset: 0xC000,
            ps_offset: 0x9000
        }
    );
}

/// Values the compiler cannot target are refused naming the field; others are taken.
#[test]
fn invalid_values_are_named() {
    type Change = fn(&mut CoreParams);
    let cases: [(&str, Change); 4] = [
        ("model is 0", |p| p.model = 0),
        (
            "features[0] (chipFeatures) is 0xe0296ca9, without PIPE_3D",
            |p| p.features[0] &= !0x4,
        ),
        ("register_max is 0", |p| p.register_max = 0),
        ("instruction_count is 0", |p| p.instruction_count = 0),
    ];
    for (needle, change) in cases {
        let mut p = gc2000_published();
        change(&mut p);
        let e = Specs::from_params(&p).unwrap_err();
        assert!(matches!(e, CoreError::Invalid { .. }), "{e:?}");
        assert!(e.to_string().starts_with(needle), "{e}");
    }
    // More registers than any core has: allowed, and capped at Mesa's 64.
    let mut many = gc2000_published();
    many.register_max = 128;
    assert_eq!(Specs::from_params(&many).unwrap().temp_count(), 64);
    let mut few = gc2000_published();
    few.register_max = 16;
    assert_eq!(Specs::from_params(&few).unwrap().temp_count(), 16);
}

/// Equal values share one entry (pointer and name), from any thread; a custom name resolves
/// in this process.
#[test]
fn equal_values_share_one_core() {
    let mut p = gc2000_published();
    p.model = 0x880;
    p.revision = 0x5106;
    let first = Specs::from_params(&p).unwrap();
    assert!(!first.is_preset());
    assert_eq!(first.name, expected_name(&p));
    assert!(first.name.starts_with("gc880-r5106-"), "{}", first.name);
    let again = Specs::from_params(&p).unwrap();
    assert!(std::ptr::eq(first, again));
    assert!(std::ptr::eq(Specs::from_name(first.name).unwrap(), first));
    assert_eq!(
        Target::from_name(first.name).unwrap(),
        Target::Etnaviv(first)
    );
    let from_threads: Vec<usize> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| s.spawn(|| Specs::from_params(&p).unwrap() as *const Specs as usize))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(from_threads
        .iter()
        .all(|&a| a == first as *const Specs as usize));
    // Presets are not in the table and not listed with the custom cores.
    assert_eq!(Specs::names(), vec!["gc400", "gc2000", "gc3000", "gc7000"]);
}

/// `--target` takes a preset with values changed; the verbs and their output stay as they are.
#[test]
fn command_line_core_description() {
    let dir = std::env::temp_dir().join(format!("gpucc-core-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chain150.fs.nir");
    std::fs::write(&file, ffma_chain(150)).unwrap();
    let run = |target: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpucc"))
            .args(["compile", "--target", target])
            .arg(&file)
            .arg("--stats")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, _) = run("gc2000");
    assert_eq!(code, Some(0));
    assert!(
        stdout.starts_with("FRAG shader: 151 instructions"),
        "{stdout}"
    );
    // The same values as gc2000 written as a description: the same output.
    assert_eq!(run("gc2000:instruction_count=512").1, stdout);
    let (code, _, stderr) = run("gc2000:instruction_count=128");
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("151 instructions exceed the 128 of gc2000-r5108-23675626's"),
        "{stderr}"
    );
    let (code, _, stderr) = run("gc2000:register_max=0");
    assert_eq!(code, Some(2));
    assert!(stderr.contains("register_max is 0"), "{stderr}");
    let (code, _, stderr) = run("gc2000:minor3=8");
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("'minor3'") && stderr.contains("features4"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
