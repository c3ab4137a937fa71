//! The compile key (crate::key) end to end: each implemented field against an expectation
//! worked out from Mesa's definition of it, and each unimplemented or misplaced field refused
//! by name. The NIR fields (flat_shade, frag_rb_swap, sprite_coord_*) twice: on NIR at Mesa's
//! hand-over point, real corpus NIR and real Mesa captures included, where Mesa has applied
//! them and gpucc must not apply them again; and with `apply_nir_keys=1` on NIR cut before
//! Mesa's key lowering, where gpucc applies them.

mod common;

use gpucc::compiler::{CompileError, CompileOptions, Compiler, Key};
use gpucc::etnaviv::compiler::consts::UniformContent;
use gpucc::etnaviv::shader::ShaderObject;
use gpucc::etnaviv::sim::Machine;
use gpucc::etnaviv::specs::Specs;
use gpucc::program::{Code, Program};
use gpucc::verify::VerifyOutcome;

/// An Intel-form fragment shader copying the colour input COL0 to gl_FragColor, with the
/// interpolation of gl_Color left unspecified (INTERP_MODE_NONE, as GLSL leaves it).
const INTEL_COLOR_FS: &str = include_str!("data/nir/color_interp_none.fs.nir");

/// An Intel-form fragment shader writing constant colours to FRAG_RESULT_DATA0 and DATA1.
const INTEL_MRT_FS: &str = "shader: MESA_SHADER_FRAGMENT\nname: mrt\ninputs: 0\noutputs: 2\n\
uniforms: 0\n\
decl_var shader_out INTERP_MODE_NONE none vec4 out0 (FRAG_RESULT_DATA0.xyzw, 8, 0)\n\
decl_var shader_out INTERP_MODE_NONE none vec4 out1 (FRAG_RESULT_DATA1.xyzw, 10, 0)\n\
decl_function main (0 params)\n\nimpl main {\n    block b0:      // preds: \n\
    con 32    %0 = load_const (0x00000000)\n\
    con 32x4  %1 = load_const (0x3f800000, 0x00000000, 0x00000000, 0x3f800000)\n\
    con 32x4  %2 = load_const (0x00000000, 0x3f800000, 0x00000000, 0x3f800000)\n\
                   @store_output (%1, %0 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())\n\
                   @store_output (%2, %0 (0x0)) (base=10, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA1 slots=1, xfb(), xfb2())\n\
                   // succs: b1 \n    block b1:\n}\n";

/// An etnaviv-form fragment shader copying the varying in t1 (COL0) to gl_FragColor.
const ETNA_COLOR_FS: &str = "shader: MESA_SHADER_FRAGMENT\nname: color\ninputs: 1\noutputs: 1\n\
uniforms: 0\n\
decl_var shader_in INTERP_MODE_NONE none vec4 gl_Color (VARYING_SLOT_COL0.xyzw, 0, 0)\n\
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_COL0 slots=1)\n\
    32    %2 = deref_var &gl_FragColor (shader_out vec4)\n\
               @store_deref (%2, %1) (wrmask=xyzw, access=none)\n\
               // succs: b1 \n    block b1:\n}\n";

fn parse(text: &str) -> gpucc::nir::Shader {
    gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn compile(target: &str, text: &str, key: Key) -> Result<Program, CompileError> {
    let options = CompileOptions {
        simd: vec![8],
        key,
        ..Default::default()
    };
    Compiler::new(target)
        .unwrap()
        .compile(&parse(text), &options)
}

/// Compiled at the backend's default widths (Intel: every width that fits).
fn compile_all_widths(target: &str, text: &str, key: Key) -> Result<Program, CompileError> {
    let options = CompileOptions {
        key,
        ..Default::default()
    };
    Compiler::new(target)
        .unwrap()
        .compile(&parse(text), &options)
}

fn key(fields: &[(&str, &str)]) -> Key {
    let mut k = Key::default();
    for (n, v) in fields {
        k.set(n, v).unwrap();
    }
    k
}

/// The render targets of the program's RT writes in order, from the disassembly
/// ("RT write SIMD8 Surface = n"), and whether the last one ends the thread.
fn rt_writes(p: &Program) -> (Vec<u32>, bool) {
    let asm = p.asm_text();
    let lines: Vec<&str> = asm.lines().filter(|l| l.contains("RT write")).collect();
    let targets = lines
        .iter()
        .map(|l| {
            let s = l.split("Surface = ").nth(1).unwrap();
            s.split(' ').next().unwrap().parse().unwrap()
        })
        .collect();
    let eot_last = lines.last().is_some_and(|l| l.contains("EOT"));
    (targets, eot_last)
}

fn intel_inputs(p: &Program) -> Vec<(String, bool)> {
    match &p.code {
        Code::Intel(k) => k
            .inputs
            .iter()
            .map(|i| (i.location.clone(), i.flat))
            .collect(),
        Code::Etnaviv(_) => panic!("not an Intel program"),
    }
}

/// [`INTEL_COLOR_FS`] as Mesa hands it over with `flat_shade` set: `brw_nir_lower_fs_inputs`
/// declared gl_Color flat, and `nir_lower_io` then reads a flat input with `load_input` (no
/// barycentric), the form the corpus has for `flat` inputs (fs-int-interpolation).
const INTEL_FLAT_COLOR_FS: &str = "shader: MESA_SHADER_FRAGMENT\nname: color\ninputs: 1\n\
outputs: 1\nuniforms: 0\n\
decl_var shader_in INTERP_MODE_FLAT none vec4 gl_Color (VARYING_SLOT_COL0.xyzw, 1, 0)\n\
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n\
decl_function main (0 params)\n\nimpl main {\n    block b0:      // preds: \n\
    con 32    %1 = load_const (0x00000000)\n\
    div 32x4  %2 = @load_input (%1 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_COL0 slots=1)\n\
                   @store_output (%2, %1 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
                   // succs: b1 \n    block b1:\n}\n";

/// The barycentric modes the program's payload holds.
fn barycentric_modes(p: &Program) -> u8 {
    match &p.code {
        Code::Intel(k) => k.flags.barycentric_modes,
        Code::Etnaviv(_) => panic!("not an Intel program"),
    }
}

#[test]
fn flat_shade_before_the_handover_is_applied_only_when_asked() {
    // No key: the unspecified colour is interpolated (Mesa's default for INTERP_MODE_NONE
    // without flat_shade is smooth).
    let smooth = compile("ivb", INTEL_COLOR_FS, Key::default()).unwrap();
    assert_eq!(
        intel_inputs(&smooth),
        [("VARYING_SLOT_COL0".to_string(), false)]
    );
    // flat_shade=1 on NIR whose colour has no mode yet: this is not hand-over NIR (Mesa's
    // brw_nir_lower_fs_inputs would have given it one), and gpucc does not guess.
    match compile("ivb", INTEL_COLOR_FS, key(&[("flat_shade", "1")])) {
        Err(CompileError::Invalid(m)) => {
            for needle in [
                "flat_shade=1",
                "VARYING_SLOT_COL0",
                "INTERP_MODE_NONE",
                "apply_nir_keys=1",
            ] {
                assert!(m.contains(needle), "{needle}: {m}");
            }
        }
        other => panic!("{other:?}"),
    }
    // The same with only the barycentric saying interp_mode=0.
    let bary_only = INTEL_COLOR_FS.replace(
        "INTERP_MODE_NONE none vec4 gl_Color",
        "INTERP_MODE_SMOOTH none vec4 gl_Color",
    );
    match compile("ivb", &bary_only, key(&[("flat_shade", "1")])) {
        Err(CompileError::Invalid(m)) => assert!(m.contains("VARYING_SLOT_COL0"), "{m}"),
        other => panic!("{other:?}"),
    }
    // apply_nir_keys=1: gpucc applies flat_shade as brw_nir_lower_fs_inputs would.
    let applied = key(&[("flat_shade", "1"), ("apply_nir_keys", "1")]);
    let flat = compile("ivb", INTEL_COLOR_FS, applied.clone()).unwrap();
    assert_eq!(
        intel_inputs(&flat),
        [("VARYING_SLOT_COL0".to_string(), true)]
    );
    // A flat input needs no barycentric coordinates: the payload holds none (Mesa's
    // barycentric_interp_modes is 0 when every input is flat).
    assert_eq!(barycentric_modes(&flat), 0);
    // What gpucc made of it is what Mesa's own result compiles to: the NIR Mesa hands over
    // with flat_shade set, compiled at the hand-over with the same key.
    let mesa_form = compile("ivb", INTEL_FLAT_COLOR_FS, key(&[("flat_shade", "1")])).unwrap();
    assert_eq!(flat.bytes, mesa_form.bytes);
    assert_eq!(intel_inputs(&mesa_form), intel_inputs(&flat));
    // The keyed shader still means what the interpreter says it means.
    let c = Compiler::new("ivb").unwrap();
    let shader = parse(INTEL_COLOR_FS);
    let keyed = c.keyed(&shader, &applied).unwrap();
    assert!(matches!(c.verify(&keyed, &[8, 16]), VerifyOutcome::Pass));
}

#[test]
fn flat_shade_leaves_colours_the_shader_declared_smooth() {
    // `smooth in vec4 gl_Color` (INTERP_MODE_SMOOTH, interp_mode=1) is not the driver's to
    // change: Mesa's brw applies flat_shade only to INTERP_MODE_NONE. At the hand-over this is
    // also what every colour Mesa left smooth looks like.
    let text = INTEL_COLOR_FS
        .replace(
            "INTERP_MODE_NONE none vec4 gl_Color",
            "INTERP_MODE_SMOOTH none vec4 gl_Color",
        )
        .replace("interp_mode=0", "interp_mode=1");
    for fields in [
        &[("flat_shade", "1")][..],
        &[("flat_shade", "1"), ("apply_nir_keys", "1")][..],
    ] {
        let p = compile("ivb", &text, key(fields)).unwrap();
        assert_eq!(
            intel_inputs(&p),
            [("VARYING_SLOT_COL0".to_string(), false)],
            "{fields:?}"
        );
    }
}

/// The interpolation Mesa's NIR gives the input variable at `slot`, read from the text
/// (`decl_var shader_in INTERP_MODE_X ... (SLOT.`).
fn declared_interpolation(text: &str, slot: &str) -> Option<String> {
    text.lines()
        .filter(|l| l.starts_with("decl_var shader_in "))
        .find(|l| l.contains(&format!("({slot}.")))
        .and_then(|l| l.split_whitespace().nth(2))
        .map(str::to_string)
}

#[test]
fn flat_shade_on_final_form_corpus_nir_compiles_the_modes_mesa_chose() {
    // Every ivb and bdw fragment shader of the corpus that reads gl_Color, as crocus and iris
    // handed it over ("NIR (final form)"): brw_nir_lower_fs_inputs has already decided each
    // colour's interpolation, so flat_shade=1 must change nothing, and the program must report
    // the mode the NIR declares.
    for platform in ["ivb", "bdw"] {
        let Some(dir) = common::shared_path(&format!("corpus/nir/{platform}")) else {
            return;
        };
        let files: Vec<_> = common::files_with_suffix(&dir, ".fs.nir")
            .into_iter()
            .filter(|p| {
                let t = std::fs::read_to_string(p).unwrap();
                declared_interpolation(&t, "VARYING_SLOT_COL0").is_some()
            })
            .collect();
        // A real game shader among them (textures, uniforms, gl_Color).
        assert!(
            files
                .iter()
                .any(|p| p.ends_with("shader-db__warzone2100__4.fs.nir")),
            "{platform}: {files:?}"
        );
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let name = path.display();
            let plain = compile_all_widths(platform, &text, Key::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let keyed = compile_all_widths(platform, &text, key(&[("flat_shade", "1")]))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(plain.bytes, keyed.bytes, "{name}");
            assert_eq!(plain, keyed, "{name}: program data");
            let want_flat =
                declared_interpolation(&text, "VARYING_SLOT_COL0").unwrap() == "INTERP_MODE_FLAT";
            let col0: Vec<bool> = intel_inputs(&keyed)
                .into_iter()
                .filter(|(l, _)| l == "VARYING_SLOT_COL0")
                .map(|(_, f)| f)
                .collect();
            assert_eq!(col0, [want_flat], "{name}");
        }
        // The game shader cut before brw_nir_lower_fs_inputs (gl_Color back to
        // INTERP_MODE_NONE): refused at the hand-over, flat with apply_nir_keys.
        let game = std::fs::read_to_string(dir.join("shader-db__warzone2100__4.fs.nir")).unwrap();
        let early = game.replace(
            "INTERP_MODE_SMOOTH none vec4 gl_Color",
            "INTERP_MODE_NONE none vec4 gl_Color",
        );
        assert_ne!(early, game);
        match compile_all_widths(platform, &early, key(&[("flat_shade", "1")])) {
            Err(CompileError::Invalid(m)) => {
                assert!(
                    m.contains("flat_shade=1") && m.contains("VARYING_SLOT_COL0"),
                    "{m}"
                )
            }
            other => panic!("{platform}: {other:?}"),
        }
        let applied = key(&[("flat_shade", "1"), ("apply_nir_keys", "1")]);
        let p = compile_all_widths(platform, &early, applied).unwrap();
        assert!(intel_inputs(&p).contains(&("VARYING_SLOT_COL0".to_string(), true)));
    }
}

#[test]
fn nr_color_regions_broadcasts_frag_color_and_drops_unbound_targets() {
    // gl_FragColor goes to every region (Mesa's alloc_frag_output), last write ends the thread.
    let p = compile("ivb", INTEL_COLOR_FS, key(&[("nr_color_regions", "3")])).unwrap();
    assert_eq!(rt_writes(&p), (vec![0, 1, 2], true));
    // Without a key: one render target for the one colour output.
    let p = compile("ivb", INTEL_COLOR_FS, Key::default()).unwrap();
    assert_eq!(rt_writes(&p), (vec![0], true));
    // DATA1 with one region bound is not written (do_emit_fb_writes stops at the count).
    let p = compile("ivb", INTEL_MRT_FS, key(&[("nr_color_regions", "1")])).unwrap();
    assert_eq!(rt_writes(&p), (vec![0], true));
    let p = compile("ivb", INTEL_MRT_FS, key(&[("nr_color_regions", "2")])).unwrap();
    assert_eq!(rt_writes(&p), (vec![0, 1], true));
    // No colour buffer: one write to render target 0 still ends the thread.
    let p = compile("ivb", INTEL_MRT_FS, key(&[("nr_color_regions", "0")])).unwrap();
    assert_eq!(rt_writes(&p), (vec![0], true));
    // Mesa still sends colour 0's alpha to the null render target (for alpha test and
    // alpha-to-coverage), so the colour is still interpolated.
    let p = compile("ivb", INTEL_COLOR_FS, key(&[("nr_color_regions", "0")])).unwrap();
    assert_eq!(rt_writes(&p), (vec![0], true));
    assert!(p.asm_text().contains("pln"), "{}", p.asm_text());
    // The broadcast shader still verifies.
    let c = Compiler::new("ivb").unwrap();
    let shader = parse(INTEL_COLOR_FS);
    let keyed = c
        .keyed(&shader, &key(&[("nr_color_regions", "3")]))
        .unwrap();
    assert!(matches!(c.verify(&keyed, &[8]), VerifyOutcome::Pass));
}

#[test]
fn frag_rb_swap_swaps_red_and_blue_on_the_simulator() {
    let colour = [0.125f32, 0.25, 0.75, 0.5];
    let swapped = [colour[2], colour[1], colour[0], colour[3]];
    for (fields, expected) in [
        (&[][..], colour),
        // At the hand-over etna_lower_io has made the swap: gpucc does not make it again.
        (&[("frag_rb_swap", "1")][..], colour),
        (
            &[("frag_rb_swap", "1"), ("apply_nir_keys", "1")][..],
            swapped,
        ),
    ] {
        let p = compile("gc2000", ETNA_COLOR_FS, key(fields)).unwrap();
        let Code::Etnaviv(obj) = &p.code else {
            panic!("not an etnaviv program")
        };
        let mut m = Machine::new(Specs::from_name("gc2000").unwrap());
        m.run_fragment(&obj.insts, [0.0; 4], &[colour]).unwrap();
        let out = m.temp(usize::from(obj.ps_color_out_reg.unwrap()));
        assert_eq!(out, expected, "{fields:?}");
    }
}

/// Colour output 0 of an etnaviv fragment program, run once on the simulator: user uniform
/// component i (`4 * slot + component`) holds `user(i)`, the input at driver location s holds
/// `input(s)`.
fn simulate_colour0(
    core: &str,
    obj: &ShaderObject,
    user: impl Fn(u32) -> f32,
    input: impl Fn(u32) -> [f32; 4],
) -> [f32; 4] {
    let mut m = Machine::new(Specs::from_name(core).unwrap());
    for (slot, contents) in obj.uniforms.iter().enumerate() {
        let v = contents.map(|c| match c {
            UniformContent::User(i) => user(i).to_bits(),
            UniformContent::Const(b) => b,
            UniformContent::Unused => 0,
            other => panic!("uniform {other:?} is not modelled by this test"),
        });
        m.set_uniform_bits(slot, v);
    }
    m.set_temp(0, [0.5, 0.5, 0.5, 1.0]);
    for io in &obj.inputs {
        m.set_temp(usize::from(io.reg), input(io.slot));
    }
    let outcome = m.run(&obj.insts).unwrap();
    assert!(!outcome.killed);
    m.temp(usize::from(obj.ps_color_out_reg.expect("writes colour 0")))
}

/// Red and blue exchanged.
fn rb(c: [f32; 4]) -> [f32; 4] {
    [c[2], c[1], c[0], c[3]]
}

/// Deterministic, distinct values: user uniform component i, input s.
fn user_value(i: u32) -> f32 {
    [0.8, 0.45, 0.1, 0.6, 0.3, 0.7, 2.0, 0.25][i as usize % 8]
}
fn input_value(s: u32) -> [f32; 4] {
    let s = s as f32;
    [0.15 + 0.1 * s, 0.5, 0.9 - 0.1 * s, 0.35]
}

#[test]
fn frag_rb_swap_on_final_form_corpus_nir_is_not_applied_twice() {
    // A real game shader (sauerbraten's fog: gl_Color mixed with the fog colour by
    // gl_FogFragCoord) as etnaviv handed it over for gc2000 and gc7000.
    for core in ["gc2000", "gc7000"] {
        let Some(path) = common::shared_path(&format!(
            "corpus/nir/{core}/shader-db__sauerbraten__8.fs.nir"
        )) else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("gl_FragColor (FRAG_RESULT_COLOR"));
        let plain = compile(core, &text, Key::default()).unwrap();
        // At the hand-over: the key is the variant's, the NIR already has (or lacks) the swap.
        let handover = compile(core, &text, key(&[("frag_rb_swap", "1")])).unwrap();
        assert_eq!(plain.bytes, handover.bytes, "{core}");
        assert_eq!(plain, handover, "{core}: program data");
        // Cut before etna_lower_io: gpucc adds the swap.
        let applied_key = key(&[("frag_rb_swap", "1"), ("apply_nir_keys", "1")]);
        let applied = compile(core, &text, applied_key.clone()).unwrap();
        assert_ne!(plain.bytes, applied.bytes, "{core}");
        // The simulator, on the same inputs: red and blue of colour 0 exchanged, nothing else.
        let (Code::Etnaviv(p), Code::Etnaviv(a)) = (&plain.code, &applied.code) else {
            panic!("not etnaviv programs")
        };
        let out_plain = simulate_colour0(core, p, user_value, input_value);
        let out_applied = simulate_colour0(core, a, user_value, input_value);
        assert_ne!(
            out_plain[0], out_plain[2],
            "{core}: a test that could not see a swap"
        );
        assert_eq!(out_applied, rb(out_plain), "{core}");
        // And the swapped program agrees with the interpreter running the swapped NIR.
        let c = Compiler::new(core).unwrap();
        let shader = parse(&text);
        assert!(
            matches!(
                c.verify_keyed(&shader, &applied_key, &[]),
                VerifyOutcome::Pass
            ),
            "{core}"
        );
        assert!(matches!(
            c.verify_keyed(&shader, &key(&[("frag_rb_swap", "1")]), &[]),
            VerifyOutcome::Pass
        ));
    }
}

/// A file of tests/data/mesa-etnaviv (real Mesa captures, see its README).
fn mesa_capture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/mesa-etnaviv")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn frag_rb_swap_matches_mesas_own_swapped_variant() {
    // The same shader as Mesa's etnaviv compiler hands it over without and with frag_rb_swap.
    let unswapped = mesa_capture("ffma.fs.nir");
    let swapped = mesa_capture("ffma-rb-swap.fs.nir");
    assert_ne!(unswapped, swapped);
    let swap = key(&[("frag_rb_swap", "1")]);
    let applied_key = key(&[("frag_rb_swap", "1"), ("apply_nir_keys", "1")]);
    let plain = compile("gc2000", &unswapped, Key::default()).unwrap();
    let mesa_swapped = compile("gc2000", &swapped, swap.clone()).unwrap();
    let gpucc_swapped = compile("gc2000", &unswapped, applied_key.clone()).unwrap();
    // The variant's own key with Mesa's swapped NIR changes nothing in gpucc.
    assert_eq!(
        mesa_swapped.bytes,
        compile("gc2000", &swapped, Key::default()).unwrap().bytes
    );
    let run = |p: &Program| {
        let Code::Etnaviv(o) = &p.code else {
            panic!("not an etnaviv program")
        };
        simulate_colour0("gc2000", o, user_value, input_value)
    };
    let out_plain = run(&plain);
    assert_ne!(out_plain[0], out_plain[2]);
    // Swapped once, whichever of Mesa or gpucc swapped.
    assert_eq!(run(&mesa_swapped), rb(out_plain));
    assert_eq!(run(&gpucc_swapped), rb(out_plain));
    let c = Compiler::new("gc2000").unwrap();
    for (text, k) in [
        (&unswapped, Key::default()),
        (&swapped, swap),
        (&unswapped, applied_key),
    ] {
        assert!(matches!(
            c.verify_keyed(&parse(text), &k, &[]),
            VerifyOutcome::Pass
        ));
    }
}

#[test]
fn unimplemented_and_misplaced_keys_are_refused_by_name() {
    /// (target, shader, key fields, text the error must contain)
    type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], &'a str);
    let cases: &[Case] = &[
        (
            "ivb",
            INTEL_COLOR_FS,
            &[("alpha_to_coverage", "1")],
            "alpha_to_coverage=1",
        ),
        (
            "ivb",
            INTEL_COLOR_FS,
            &[("persample_interp", "1")],
            "persample_interp=1",
        ),
        (
            "ivb",
            INTEL_COLOR_FS,
            &[("alpha_test_func", "3")],
            "alpha_test_func=3",
        ),
        (
            "ivb",
            INTEL_COLOR_FS,
            &[("frag_rb_swap", "1")],
            "frag_rb_swap=1",
        ),
        (
            "ivb",
            INTEL_COLOR_FS,
            &[("nr_userclip_plane_consts", "2")],
            "nr_userclip_plane_consts=2",
        ),
        (
            "gc2000",
            ETNA_COLOR_FS,
            &[("flat_shade", "1")],
            "flat_shade=1",
        ),
        (
            "gc2000",
            ETNA_COLOR_FS,
            &[("nr_color_regions", "2")],
            "nr_color_regions=2",
        ),
        (
            "ivb",
            INTEL_COLOR_FS,
            &[("sprite_coord_enable", "0x3")],
            "sprite_coord_enable=0x3",
        ),
    ];
    for (target, text, fields, needle) in cases {
        // Where the NIR was taken changes nothing here: a key of the other family or an
        // unimplemented one is refused either way.
        for apply in ["0", "1"] {
            let mut fields = fields.to_vec();
            fields.push(("apply_nir_keys", apply));
            match compile(target, text, key(&fields)) {
                Err(CompileError::Unsupported(m)) => assert!(m.contains(needle), "{m}"),
                other => panic!("{target} {fields:?}: {other:?}"),
            }
        }
    }
    // Values that are no key at all are invalid, not unsupported.
    for fields in [
        &[("sprite_coord_yinvert", "1")][..],
        &[("sprite_coord_enable", "0x100")][..],
        &[("nr_color_regions", "9")][..],
    ] {
        let target = if fields[0].0 == "nr_color_regions" {
            "ivb"
        } else {
            "gc2000"
        };
        let text = if target == "ivb" {
            INTEL_COLOR_FS
        } else {
            ETNA_COLOR_FS
        };
        match compile(target, text, key(fields)) {
            Err(CompileError::Invalid(m)) => assert!(m.contains(fields[0].0), "{m}"),
            other => panic!("{fields:?}: {other:?}"),
        }
    }
    let mut k = Key::default();
    assert!(k.set("flat_shade", "2").is_err());
    assert!(k.set("apply_nir_keys", "2").is_err());
    assert!(k.set("apply_nir_keys", "1").is_ok() && k.apply_nir_keys);
    assert!(k
        .set("no_such_key", "1")
        .unwrap_err()
        .contains("no_such_key"));
}

/// An etnaviv-form fragment shader copying the texture coordinate TEX0 to gl_FragColor.
const ETNA_TEXCOORD_FS: &str = "shader: MESA_SHADER_FRAGMENT\nname: sprite\ninputs: 1\n\
outputs: 1\nuniforms: 0\n\
decl_var shader_in INTERP_MODE_NONE none vec4 gl_TexCoord0 (VARYING_SLOT_TEX0.xyzw, 0, 0)\n\
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_TEX0 slots=1)\n\
    32    %2 = deref_var &gl_FragColor (shader_out vec4)\n\
               @store_deref (%2, %1) (wrmask=xyzw, access=none)\n\
               // succs: b1 \n    block b1:\n}\n";

/// [`ETNA_TEXCOORD_FS`] as Mesa hands it over with sprite_coord_enable=0x1:
/// `nir_lower_texcoord_replace` has replaced the TEX0 read with (PNTC.x, PNTC.y, 0, 1), the
/// point coordinate a new input after the others; the TEX0 variable is left declared.
const ETNA_SPRITE_FS: &str = "shader: MESA_SHADER_FRAGMENT\nname: sprite\ninputs: 2\n\
outputs: 1\nuniforms: 0\n\
decl_var shader_in INTERP_MODE_NONE none vec4 gl_TexCoord0 (VARYING_SLOT_TEX0.xyzw, 0, 0)\n\
decl_var shader_in INTERP_MODE_NONE none vec2 gl_PointCoord (VARYING_SLOT_PNTC.xy, 1, 0)\n\
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    32    %0 = load_const (0x00000000)\n\
    32    %1 = load_const (0x3f800000)\n\
    32x2  %2 = @load_input (%0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_PNTC slots=1)\n\
    32x4  %3 = vec4 %2.x, %2.y, %0 (0x0), %1 (0x3f800000)\n\
    32    %4 = deref_var &gl_FragColor (shader_out vec4)\n\
               @store_deref (%4, %3) (wrmask=xyzw, access=none)\n\
               // succs: b1 \n    block b1:\n}\n";

#[test]
fn sprite_coord_enable_at_the_handover_is_in_the_nir() {
    // Mesa's replaced shader with the variant's key: compiled as it is.
    let plain = compile("gc2000", ETNA_SPRITE_FS, Key::default()).unwrap();
    let keyed = compile(
        "gc2000",
        ETNA_SPRITE_FS,
        key(&[("sprite_coord_enable", "0x1")]),
    )
    .unwrap();
    assert_eq!(plain, keyed);
    // The shader before the replacement, with the key at the hand-over: it still reads TEX0
    // and no point coordinate, which no NIR after nir_lower_texcoord_replace does.
    match compile(
        "gc2000",
        ETNA_TEXCOORD_FS,
        key(&[("sprite_coord_enable", "0x1")]),
    ) {
        Err(CompileError::Invalid(m)) => {
            for needle in [
                "sprite_coord_enable=0x1",
                "VARYING_SLOT_TEX0",
                "apply_nir_keys=1",
            ] {
                assert!(m.contains(needle), "{needle}: {m}");
            }
        }
        other => panic!("{other:?}"),
    }
    // A mask without the texture coordinate the shader reads is no contradiction.
    let p = compile(
        "gc2000",
        ETNA_TEXCOORD_FS,
        key(&[("sprite_coord_enable", "0x2")]),
    )
    .unwrap();
    assert_eq!(
        p,
        compile("gc2000", ETNA_TEXCOORD_FS, Key::default()).unwrap()
    );
}

#[test]
fn sprite_coord_enable_replaces_the_texcoord_with_the_point_coordinate() {
    let (px, py) = (0.25f32, 0.125f32);
    for (yinvert, expected) in [
        (false, [px, py, 0.0, 1.0]),
        (true, [px, 1.0 - py, 0.0, 1.0]),
    ] {
        let mut fields = vec![("sprite_coord_enable", "0x1"), ("apply_nir_keys", "1")];
        if yinvert {
            fields.push(("sprite_coord_yinvert", "1"));
        }
        let p = compile("gc2000", ETNA_TEXCOORD_FS, key(&fields)).unwrap();
        let Code::Etnaviv(obj) = &p.code else {
            panic!("not an etnaviv program")
        };
        // TEX0 is no longer read but stays declared, so it keeps its entry, as in Mesa's
        // infile after nir_lower_texcoord_replace (etna_link_shader skips it); the point
        // coordinate is the new input at the first free driver location (1), register t2.
        let inputs: Vec<(&str, u32, u8)> = obj
            .inputs
            .iter()
            .map(|i| (i.name.as_str(), i.slot, i.reg))
            .collect();
        assert_eq!(
            inputs,
            [("VARYING_SLOT_TEX0", 0, 1), ("VARYING_SLOT_PNTC", 1, 2)]
        );
        let mut m = Machine::new(Specs::from_name("gc2000").unwrap());
        // The constants the compiler placed in the uniform file (the driver uploads them).
        for (slot, contents) in obj.uniforms.iter().enumerate() {
            let v = contents.map(|k| match k {
                UniformContent::Const(b) => b,
                _ => 0,
            });
            m.set_uniform_bits(slot, v);
        }
        m.set_temp(usize::from(obj.inputs[1].reg), [px, py, 0.5, 0.5]);
        m.run_fragment(&obj.insts, [0.0; 4], &[]).unwrap();
        let out = m.temp(usize::from(obj.ps_color_out_reg.unwrap()));
        assert_eq!(out, expected, "yinvert={yinvert}");
        let c = Compiler::new("gc2000").unwrap();
        let shader = parse(ETNA_TEXCOORD_FS);
        let keyed = c.keyed(&shader, &key(&fields)).unwrap();
        assert!(matches!(c.verify(&keyed, &[]), VerifyOutcome::Pass));
    }
    // A mask without TEX0 leaves the shader alone.
    let p = compile(
        "gc2000",
        ETNA_TEXCOORD_FS,
        key(&[("sprite_coord_enable", "0x2"), ("apply_nir_keys", "1")]),
    )
    .unwrap();
    let Code::Etnaviv(obj) = &p.code else {
        panic!("not an etnaviv program")
    };
    assert_eq!(obj.inputs.len(), 1);
    assert_eq!(obj.inputs[0].slot, 0);
}

// ---- clamp_fragment_color, clamp_vertex_color and the refused Intel and etnaviv keys ----

/// A shader storing the constant vec4 (2.0, -1.0, 0.5, 1.5) to `slot`, and for a vertex shader
/// the same value to the position too.
fn out_of_range(stage: &str, slot: &str, base: u32) -> String {
    let pos = if stage == "VERTEX" {
        "    @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, \
         io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n"
    } else {
        ""
    };
    format!(
        "shader: MESA_SHADER_{stage}\nname: clamp\ninputs: 0\noutputs: 2\nuniforms: 0\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:\n\
         \x20   32     %0 = load_const (0x00000000)\n\
         \x20   32x4   %1 = load_const (0x40000000, 0xbf800000, 0x3f000000, 0x3fc00000)\n{pos}\
         \x20   @store_output (%1, %0) (base={base}, range=1, wrmask=xyzw, component=0, \
         src_type=float32, io location={slot} slots=1, xfb(), xfb2())\n\
         \x20   block b1:\n}}\n"
    )
}

/// The interpreter's value of output `slot` of the keyed shader, as floats.
fn keyed_output(
    text: &str,
    key: &Key,
    family: gpucc::key::Family,
    stage: gpucc::nir::Stage,
    slot: &str,
) -> [f32; 4] {
    let shader = parse(text);
    let keyed = key.apply(&shader, family, stage).unwrap();
    let env = gpucc::nir::interp::Environment::default();
    let run = gpucc::nir::interp::run(&keyed, &env, 1).unwrap();
    let out = run.invocations[0]
        .outputs
        .values()
        .find(|o| o.name == slot)
        .unwrap_or_else(|| panic!("{slot} not written"));
    std::array::from_fn(|c| f32::from_bits(out.comps[c].unwrap() as u32))
}

#[test]
fn clamp_fragment_color_saturates_the_colour_outputs() {
    use gpucc::key::Family;
    use gpucc::nir::Stage;
    let fs = out_of_range("FRAGMENT", "FRAG_RESULT_COLOR", 4);
    let clamp = key(&[("clamp_fragment_color", "1")]);
    assert_eq!(
        keyed_output(
            &fs,
            &clamp,
            Family::Intel,
            Stage::Fragment,
            "FRAG_RESULT_COLOR"
        ),
        [1.0, 0.0, 0.5, 1.0]
    );
    assert_eq!(
        keyed_output(
            &fs,
            &Key::default(),
            Family::Intel,
            Stage::Fragment,
            "FRAG_RESULT_COLOR"
        ),
        [2.0, -1.0, 0.5, 1.5]
    );
    for target in ["ivb", "bdw", "skl"] {
        let c = Compiler::new(target).unwrap();
        assert_eq!(
            c.verify_keyed(&parse(&fs), &clamp, &[]),
            gpucc::verify::VerifyOutcome::Pass,
            "{target}"
        );
        // The saturate costs the program code: the keyed one differs.
        let plain = compile(target, &fs, Key::default()).unwrap();
        let keyed = compile(target, &fs, clamp.clone()).unwrap();
        assert_ne!(plain.bytes, keyed.bytes, "{target}");
    }
    // Not for vertex shaders, not for etnaviv.
    let vs = out_of_range("VERTEX", "VARYING_SLOT_COL0", 1);
    let e = compile("bdw", &vs, clamp.clone()).unwrap_err();
    assert!(e.to_string().contains("clamp_fragment_color"), "{e}");
    let e = compile("gc7000", &fs, clamp).unwrap_err();
    assert!(e.to_string().contains("clamp_fragment_color"), "{e}");
}

#[test]
fn clamp_vertex_color_saturates_colours_not_the_position() {
    use gpucc::key::Family;
    use gpucc::nir::Stage;
    let vs = out_of_range("VERTEX", "VARYING_SLOT_COL0", 1);
    let clamp = key(&[("clamp_vertex_color", "1")]);
    assert_eq!(
        keyed_output(
            &vs,
            &clamp,
            Family::Intel,
            Stage::Vertex,
            "VARYING_SLOT_COL0"
        ),
        [1.0, 0.0, 0.5, 1.0]
    );
    assert_eq!(
        keyed_output(
            &vs,
            &clamp,
            Family::Intel,
            Stage::Vertex,
            "VARYING_SLOT_POS"
        ),
        [2.0, -1.0, 0.5, 1.5]
    );
    for target in ["ivb", "hsw", "bdw", "skl"] {
        let c = Compiler::new(target).unwrap();
        assert_eq!(
            c.verify_keyed(&parse(&vs), &clamp, &[]),
            gpucc::verify::VerifyOutcome::Pass,
            "{target}"
        );
    }
}

#[test]
fn unimplemented_driver_keys_are_refused_by_name() {
    let fs = out_of_range("FRAGMENT", "FRAG_RESULT_COLOR", 4);
    for (fields, target, words) in [
        (
            &[("force_dual_color_blend", "1")][..],
            "bdw",
            "dual-source blending from FRAG_RESULT_DATA1",
        ),
        (
            &[("gather_channel_quirk_mask", "0x2")][..],
            "ivb",
            "textureGather format fix-up",
        ),
        (
            &[("front_ccw", "1"), ("apply_nir_keys", "1")][..],
            "gc7000",
            "front_ccw=1",
        ),
        (&[("front_ccw", "1")][..], "bdw", "an etnaviv key"),
    ] {
        let e = compile(target, &fs, key(fields)).unwrap_err();
        assert!(
            matches!(e, CompileError::Unsupported(_)) && e.to_string().contains(words),
            "{fields:?} on {target}: {e}"
        );
    }
}

/// The keys Mesa has applied in NIR by the hand-over, or whose backend effect the program
/// cannot show (README's key table): each leaves the program byte for byte as it is without
/// the key. Mesa's reasons, from brw and etnaviv 23.3: `color_outputs_valid` is only copied
/// into `color_outputs_written`; `input_slots_valid` is read only past 16 input attributes;
/// `multisample_fbo=2` changes per-sample dispatch and sample-id, interpolateAtSample and
/// framebuffer-fetch code, none of which these shaders have; `alpha_test_replicate_alpha`
/// changes only writes to render targets 1 and up; crocus applies texture swizzles
/// (`crocus_lower_swizzles`) and etnaviv the pre-HALTI2 shadow compare
/// (`etna_nir_lower_texture`) before the hand-over.
#[test]
fn keys_applied_before_the_handover_or_without_effect_change_nothing() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let intel = [
        INTEL_COLOR_FS.to_string(),
        read("examples/intel/gradient.fs.nir"),
    ];
    let intel_keys: &[&[(&str, &str)]] = &[
        &[("color_outputs_valid", "0x1")],
        &[("color_outputs_valid", "0xff"), ("nr_color_regions", "1")],
        &[("input_slots_valid", "0x3f0000000f")],
        &[("multisample_fbo", "2")],
        &[("alpha_test_replicate_alpha", "1")],
        &[
            ("alpha_test_replicate_alpha", "1"),
            ("nr_color_regions", "1"),
        ],
        &[("tex_swizzle_mask", "0x3")],
    ];
    for target in ["ivb", "hsw", "bdw", "skl"] {
        for text in &intel {
            let plain = compile_all_widths(target, text, Key::default()).unwrap();
            for fields in intel_keys {
                let keyed = compile_all_widths(target, text, key(fields))
                    .unwrap_or_else(|e| panic!("{fields:?} on {target}: {e}"));
                assert_eq!(keyed.bytes, plain.bytes, "{fields:?} on {target}");
            }
        }
    }
    let etna = [
        ETNA_COLOR_FS.to_string(),
        read("examples/etnaviv/gradient.fs.nir"),
    ];
    for target in ["gc3000", "gc7000"] {
        for text in &etna {
            let plain = compile(target, text, Key::default()).unwrap();
            let keyed = compile(target, text, key(&[("sample_tex_compare", "1")])).unwrap();
            assert_eq!(keyed.bytes, plain.bytes, "sample_tex_compare on {target}");
        }
    }
}

/// Key fields as `--key` spells them.
type Fields<'a> = &'a [(&'a str, &'a str)];

/// Where those keys would change code gpucc does not build, or were to be applied by gpucc
/// itself, they are refused by name with the reason.
#[test]
fn keys_whose_effect_gpucc_lacks_are_refused_by_name() {
    // uses_sample_shading in the info: Mesa dispatches it per sample on a multisampled
    // framebuffer.
    let sample_shading =
        INTEL_COLOR_FS.replace("name: color\n", "name: color\nuses_sample_shading: true\n");
    let sample_bary = INTEL_COLOR_FS.replace(
        "@load_barycentric_pixel () (interp_mode=0)",
        "@load_barycentric_sample () (interp_mode=1)",
    );
    let fs = out_of_range("FRAGMENT", "FRAG_RESULT_COLOR", 4);
    let cases: &[(&str, &str, Fields, &str)] = &[
        (&fs, "bdw", &[("multisample_fbo", "1")], "BRW_SOMETIMES"),
        (
            &sample_shading,
            "ivb",
            &[("multisample_fbo", "2")],
            "uses_sample_shading",
        ),
        (
            &sample_bary,
            "bdw",
            &[("multisample_fbo", "2")],
            "load_barycentric_sample",
        ),
        (
            INTEL_MRT_FS,
            "skl",
            &[("alpha_test_replicate_alpha", "1")],
            "writes render target 1",
        ),
        (
            INTEL_MRT_FS,
            "ivb",
            &[
                ("alpha_test_replicate_alpha", "1"),
                ("nr_color_regions", "2"),
            ],
            "source-0 alpha",
        ),
        (
            &fs,
            "ivb",
            &[("tex_swizzle_mask", "0x1"), ("apply_nir_keys", "1")],
            "crocus_lower_swizzles",
        ),
        (
            &fs,
            "gc7000",
            &[("tex_swizzle_mask", "0x1")],
            "an Intel key",
        ),
        (
            ETNA_COLOR_FS,
            "gc2000",
            &[("sample_tex_compare", "1"), ("apply_nir_keys", "1")],
            "etna_nir_lower_texture",
        ),
        (&fs, "bdw", &[("sample_tex_compare", "1")], "an etnaviv key"),
        (
            ETNA_COLOR_FS,
            "gc7000",
            &[("multisample_fbo", "2")],
            "an Intel key",
        ),
        (
            ETNA_COLOR_FS,
            "gc7000",
            &[("color_outputs_valid", "1")],
            "an Intel key",
        ),
    ];
    for (text, target, fields, words) in cases {
        let e = compile(target, text, key(fields)).unwrap_err();
        assert!(
            matches!(e, CompileError::Unsupported(_)) && e.to_string().contains(words),
            "{fields:?} on {target}: {e}"
        );
    }
    // The same shaders without the key, or the MRT shader with one region, compile.
    compile("ivb", &sample_shading, Key::default()).unwrap();
    compile("bdw", &sample_bary, key(&[("multisample_fbo", "0")])).unwrap();
    compile(
        "skl",
        INTEL_MRT_FS,
        key(&[
            ("alpha_test_replicate_alpha", "1"),
            ("nr_color_regions", "1"),
        ]),
    )
    .unwrap();
    // Values that are no value of the field.
    let e = compile("bdw", &fs, key(&[("multisample_fbo", "3")])).unwrap_err();
    assert!(
        matches!(e, CompileError::Invalid(_)) && e.to_string().contains("brw_sometimes"),
        "{e}"
    );
    let e = compile("bdw", &fs, key(&[("color_outputs_valid", "0x100")])).unwrap_err();
    assert!(
        matches!(e, CompileError::Invalid(_)) && e.to_string().contains("0-0xff"),
        "{e}"
    );
}

/// The same on real final-form NIR: every tenth ivb, bdw and skl corpus fragment shader, as
/// crocus and iris handed it over, compiles to the same program under the keys a driver sets
/// that change nothing at the hand-over (one colour buffer, so alpha_test_replicate_alpha has
/// no later render target to change; the corpus has no per-sample shading, which
/// multisample_fbo would change).
#[test]
fn no_effect_keys_on_final_form_corpus_nir_change_nothing() {
    let fields: &[(&str, &str)] = &[
        ("color_outputs_valid", "0x1"),
        ("multisample_fbo", "2"),
        ("alpha_test_replicate_alpha", "1"),
        ("nr_color_regions", "1"),
        ("tex_swizzle_mask", "0xffff"),
        ("input_slots_valid", "0xffffffff00007fff"),
    ];
    for platform in ["ivb", "bdw", "skl"] {
        let Some(dir) = common::shared_path(&format!("corpus/nir/{platform}")) else {
            return;
        };
        let files = common::files_with_suffix(&dir, ".fs.nir");
        let mut compared = 0;
        for path in files.iter().step_by(10) {
            let text = std::fs::read_to_string(path).unwrap();
            let name = path.display();
            let Ok(plain) = compile_all_widths(platform, &text, key(&[("nr_color_regions", "1")]))
            else {
                continue;
            };
            let keyed = compile_all_widths(platform, &text, key(fields))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(plain.bytes, keyed.bytes, "{name}");
            compared += 1;
        }
        assert!(compared > 20, "{platform}: {compared} shaders compared");
    }
}

/// A Gen7 TCS of three output vertices (examples/intel/relay.tcs.nir).
const RELAY_TCS: &str = include_str!("../examples/intel/relay.tcs.nir");

/// The input-release messages of a Gen7 TCS, from its disassembly: URB reads marked complete
/// with no reply, (interleaved: a pair of vertices, single: one vertex).
fn releases(p: &Program) -> (usize, usize) {
    let asm = p.asm_text();
    let names: Vec<&str> = asm
        .lines()
        .filter(|l| l.contains("urb MsgDesc") && l.contains("read OWord") && l.contains("complete"))
        .filter(|l| l.contains("rlen 0"))
        .collect();
    let paired = names.iter().filter(|l| l.contains("interleave")).count();
    (paired, names.len() - paired)
}

#[test]
fn tcs_input_vertices_decides_the_input_vertices_a_gen7_tcs_releases() {
    for target in ["ivb", "hsw"] {
        // Mesa's rule (`TCS_OPCODE_RELEASE_INPUT` in vec4_tcs_visitor::emit_thread_end): the
        // input vertices in pairs, the last one alone when their number is odd.
        for n in [1u32, 2, 3, 4, 5, 8, 31, 32] {
            let k = key(&[("tcs_input_vertices", &n.to_string())]);
            let p = compile(target, RELAY_TCS, k.clone())
                .unwrap_or_else(|e| panic!("{target} input_vertices={n}: {e}"));
            assert_eq!(
                releases(&p),
                (n as usize / 2, n as usize % 2),
                "{target} input_vertices={n}"
            );
            let Code::Intel(kernel) = &p.code else {
                panic!("{target}: not an Intel program")
            };
            assert_eq!(kernel.tess_ctrl.as_ref().unwrap().input_vertices, n);
            // The simulator records each release: the check requires vertices 0..n once each.
            let c = Compiler::new(target).unwrap();
            assert_eq!(
                c.verify_keyed(&parse(RELAY_TCS), &k, &[8]),
                VerifyOutcome::Pass,
                "{target} input_vertices={n}"
            );
        }
        // Without the key the program releases as many as it outputs (3: a pair, then one).
        let p = compile(target, RELAY_TCS, Key::default()).unwrap();
        assert_eq!(releases(&p), (1, 1), "{target} without the key");
    }
}

#[test]
fn tcs_input_vertices_changes_nothing_on_gen8_single_patch() {
    // iris passes 0 for a SINGLE_PATCH TCS, and brw's scalar TCS does not read the field
    // there: the program is the same with or without it, and releases nothing.
    for target in ["bdw", "skl"] {
        let with = compile(target, RELAY_TCS, key(&[("tcs_input_vertices", "5")])).unwrap();
        let without = compile(target, RELAY_TCS, Key::default()).unwrap();
        assert_eq!(with.bytes, without.bytes, "{target}");
        assert_eq!(releases(&with), (0, 0), "{target}");
    }
}

#[test]
fn tcs_input_vertices_outside_a_tcs_or_a_patch_is_refused() {
    let e = compile("ivb", INTEL_COLOR_FS, key(&[("tcs_input_vertices", "3")])).unwrap_err();
    assert!(
        matches!(&e, CompileError::Unsupported(m) if m.contains("tcs_input_vertices=3")),
        "{e}"
    );
    let e = compile("ivb", RELAY_TCS, key(&[("tcs_input_vertices", "33")])).unwrap_err();
    assert!(
        matches!(&e, CompileError::Invalid(m) if m.contains("tcs_input_vertices=33")),
        "{e}"
    );
    let e = compile("gc2000", ETNA_COLOR_FS, key(&[("tcs_input_vertices", "3")])).unwrap_err();
    assert!(e.to_string().contains("tcs_input_vertices=3"), "{e}");
}
