//! Fragment inputs past 16 (issue 35): Mesa's SBE can rearrange only 16 attributes, so brw's
//! `calculate_urb_setup` lays out a fragment shader reading more as the previous stage's VUE
//! map (the key's `input_slots_valid`) from the first slot it needs
//! (`brw_compute_first_urb_slot_required`), and describes it in the slot-indexed `urb_setup`.
//! The expected layouts below are worked out by hand from those two functions and brw's VUE
//! map rules; each program is verified against the interpreter.

use gpucc::compiler::{CompileError, CompileOptions, Compiler, Key};
use gpucc::program::Program;
use gpucc::verify::VerifyOutcome;

const VAR0: u32 = 32;

/// An Intel-form fragment shader reading the generic varyings `vars` (VAR numbers) with
/// perspective barycentrics and storing the sum of their components, one per varying in
/// turn (x, y, z, w, x, ...), in each colour channel's own way, so a varying read from the
/// wrong slot changes the colour.
fn shader(vars: &[u32], separate: bool) -> String {
    let mut s = String::from("shader: MESA_SHADER_FRAGMENT\nname: many\n");
    if separate {
        s.push_str("separate_shader: true\n");
    }
    s.push_str(&format!(
        "inputs: {}\noutputs: 1\nuniforms: 0\n",
        vars.len()
    ));
    for v in vars {
        s.push_str(&format!(
            "decl_var shader_in INTERP_MODE_SMOOTH none vec4 v{v} (VARYING_SLOT_VAR{v}.xyzw, {}, 0)\n",
            VAR0 + v
        ));
    }
    s.push_str(
        "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n\
         decl_function main (0 params)\n\nimpl main {\n    block b0:      // preds: \n\
         div 32x2  %0 = @load_barycentric_pixel () (interp_mode=1)\n\
         con 32    %1 = load_const (0x00000000)\n",
    );
    let mut n = 2;
    let mut acc: Option<u32> = None;
    for (k, v) in vars.iter().enumerate() {
        let load = n;
        s.push_str(&format!(
            "div 32x4  %{load} = @load_interpolated_input (%0, %1 (0x0)) (base={}, component=0, dest_type=float32, io location=VARYING_SLOT_VAR{v} slots=1)\n",
            VAR0 + v
        ));
        n += 1;
        // Scale each varying differently (k + 1) so that two swapped slots do not cancel.
        let scale = n;
        s.push_str(&format!(
            "con 32    %{scale} = load_const (0x{:08x})\n",
            (k as f32 + 1.0).to_bits()
        ));
        n += 1;
        let scaled = n;
        s.push_str(&format!(
            "div 32x4  %{scaled} = fmul %{load}, %{scale}.xxxx\n"
        ));
        n += 1;
        acc = Some(match acc {
            None => scaled,
            Some(a) => {
                let sum = n;
                s.push_str(&format!("div 32x4  %{sum} = fadd %{a}, %{scaled}\n"));
                n += 1;
                sum
            }
        });
    }
    s.push_str(&format!(
        "@store_output (%{}, %1 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
         // succs: b1 \n    block b1:\n}}\n",
        acc.unwrap()
    ));
    s
}

fn mask(vars: impl IntoIterator<Item = u32>) -> u64 {
    vars.into_iter().fold(1, |m, v| m | 1 << (VAR0 + v)) // with the position
}

fn keyed(valid: Option<u64>) -> Key {
    Key {
        input_slots_valid: valid,
        ..Default::default()
    }
}

fn compile(target: &str, text: &str, valid: Option<u64>) -> Result<Program, CompileError> {
    let options = CompileOptions {
        key: keyed(valid),
        ..Default::default()
    };
    let nir = gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Compiler::new(target).unwrap().compile(&nir, &options)
}

fn verify(target: &str, text: &str, valid: Option<u64>) {
    let nir = gpucc::nir::parse(text).unwrap();
    assert_eq!(
        Compiler::new(target)
            .unwrap()
            .verify_keyed(&nir, &keyed(valid), &[]),
        VerifyOutcome::Pass,
        "{target}"
    );
}

/// (varying or u32::MAX, read) per input slot.
fn slots(p: &Program) -> Vec<(u32, bool)> {
    p.fragment_inputs()
        .iter()
        .map(|i| (i.varying, i.read))
        .collect()
}

#[test]
fn past_16_inputs_follow_the_previous_stages_vue_map() {
    // The vertex shader writes POS and VAR0..VAR19; the fragment shader reads VAR1..VAR18.
    // VUE map (non-SSO): [0] header (PSIZ), [1] POS, then VARk at slot 2 + k. The first
    // varying read, VAR1, is in slot 3: brw starts at the pair, slot 2. So 20 input slots,
    // VUE slots 2..21: VAR0 (not read), VAR1..VAR18 at 1..18, VAR19 (not read).
    let read: Vec<u32> = (1..=18).collect();
    let text = shader(&read, false);
    let valid = mask(0..20);
    for target in ["ivb", "hsw", "bdw", "skl"] {
        let p = compile(target, &text, Some(valid)).unwrap();
        let mut want = vec![(VAR0, false)];
        want.extend(read.iter().map(|v| (VAR0 + v, true)));
        want.push((VAR0 + 19, false));
        assert_eq!(slots(&p), want, "{target}");
        let setup = p.urb_setup();
        assert_eq!(setup.len(), 64);
        for v in 0..64u32 {
            let expected = match v.checked_sub(VAR0) {
                Some(k) if (1..=18).contains(&k) => k as i32,
                _ => -1,
            };
            assert_eq!(setup[v as usize], expected, "{target} varying {v}");
        }
        assert_eq!(p.fragment_info().unwrap().num_varying_inputs, 20);
        verify(target, &text, Some(valid));

        // Without the key gpucc keeps its own layout: the 18 varyings read, in order.
        let dense = compile(target, &text, None).unwrap();
        let want: Vec<(u32, bool)> = read.iter().map(|v| (VAR0 + v, true)).collect();
        assert_eq!(slots(&dense), want, "{target}");
        assert_eq!(dense.urb_setup()[(VAR0 + 1) as usize], 0);
        verify(target, &text, None);
    }
}

#[test]
fn separate_shader_layout_keeps_padding_slots() {
    // SSO: the clip distances always have their slots, and generic varyings sit at fixed
    // distances from the first generic slot: [0] header, [1] POS, [2] CLIP_DIST0,
    // [3] CLIP_DIST1, VARk at 4 + k. The vertex shader writes VAR0..VAR19 but VAR10, whose
    // slot (14) is padding; the fragment shader reads VAR1..VAR9 and VAR11..VAR19 (18).
    // First read: VAR1 in slot 5, so brw starts at slot 4: 20 input slots, VAR0 unread at 0,
    // VAR1..VAR9 at 1..9, padding at 10, VAR11..VAR19 at 11..19.
    let read: Vec<u32> = (1..=19).filter(|&v| v != 10).collect();
    let text = shader(&read, true);
    let valid = mask((0..20).filter(|&v| v != 10));
    for target in ["ivb", "bdw", "skl"] {
        let p = compile(target, &text, Some(valid)).unwrap();
        let mut want = vec![(VAR0, false)];
        want.extend((1..=9).map(|v| (VAR0 + v, true)));
        want.push((u32::MAX, false));
        want.extend((11..=19).map(|v| (VAR0 + v, true)));
        assert_eq!(slots(&p), want, "{target}");
        let setup = p.urb_setup();
        assert_eq!(setup[(VAR0 + 9) as usize], 9);
        assert_eq!(setup[(VAR0 + 10) as usize], -1);
        assert_eq!(setup[(VAR0 + 11) as usize], 11);
        assert_eq!(setup[VAR0 as usize], -1);
        verify(target, &text, Some(valid));
    }
}

#[test]
fn sixteen_inputs_or_fewer_ignore_the_key() {
    // 16 varyings read: the SBE rearranges them, so brw lays them out densely whatever the
    // previous stage wrote.
    let read: Vec<u32> = (2..18).collect();
    let text = shader(&read, false);
    let plain = compile("bdw", &text, None).unwrap();
    let keyed = compile("bdw", &text, Some(mask(0..20))).unwrap();
    assert_eq!(keyed.bytes, plain.bytes);
    assert_eq!(keyed.urb_setup()[(VAR0 + 2) as usize], 0);
}

#[test]
fn a_varying_the_previous_stage_does_not_write_is_refused() {
    let read: Vec<u32> = (1..=18).collect();
    let text = shader(&read, false);
    // VAR7 missing from what the vertex shader writes.
    let valid = mask((0..20).filter(|&v| v != 7));
    let e = compile("skl", &text, Some(valid)).unwrap_err();
    assert!(
        matches!(e, CompileError::Invalid(_))
            && e.to_string().contains("VARYING_SLOT_VAR7")
            && e.to_string().contains("input_slots_valid"),
        "{e}"
    );
}
