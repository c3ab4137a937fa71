//! Register spilling: programs that need more than the 128 GRFs compile at SIMD8 with
//! scratch fills and spills and still match the reference interpreter; SIMD16 is dropped
//! rather than spilled, as Mesa does.

mod common;

use gpucc::intel::backend::{verify, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;

const PLATFORMS: [&str; 3] = ["ivb", "hsw", "bdw"];

const HEADER: &str = r#"shader: MESA_SHADER_FRAGMENT
name: spill
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32x2  %0 = @load_barycentric_pixel () (interp_mode=1)
    32    %1 = load_const (0x00000000)
    32x4  %2 = @load_interpolated_input (%0, %1) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
"#;

/// `n` values, each the previous one plus a constant (the first a product of the input), then
/// summed from the last to the first (and, with `in_loop`, the sum repeated in a loop whose
/// trip count the input decides). The last value needs every earlier one computed and the sum
/// needs them all again afterwards, so whatever the schedule, more values are live than the
/// register file holds.
fn pressure_shader(n: u32, in_loop: bool) -> String {
    let mut s = String::from(HEADER);
    let mut id = 3;
    let mut vals = Vec::new();
    for i in 0..n {
        let c = 1.0f32 + i as f32 / 64.0;
        s += &format!("    32    %{id} = load_const (0x{:08x})\n", c.to_bits());
        match vals.last() {
            None => s += &format!("    32    %{} = fmul %2.x, %{id}\n", id + 1),
            Some(prev) => s += &format!("    32    %{} = fadd %{prev}, %{id}\n", id + 1),
        }
        vals.push(id + 1);
        id += 2;
    }
    let acc = id;
    s += &format!(
        "    32    %{acc} = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)\n"
    );
    s += &format!("    @store_reg (%1, %{acc}) (base=0, wrmask=x, legacy_fsat=0)\n");
    id += 1;
    let sum_into = |s: &mut String, id: &mut u32| {
        for &v in vals.iter().rev() {
            *s += &format!(
                "    32    %{} = @load_reg (%{acc}) (base=0, legacy_fabs=0, legacy_fneg=0)\n",
                *id
            );
            *s += &format!("    32    %{} = fadd %{}, %{v}\n", *id + 1, *id);
            *s += &format!(
                "    @store_reg (%{}, %{acc}) (base=0, wrmask=x, legacy_fsat=0)\n",
                *id + 1
            );
            *id += 2;
        }
    };
    if in_loop {
        let (ctr, init, c, lim, cond, step, next) =
            (id, id + 1, id + 2, id + 3, id + 4, id + 5, id + 6);
        id += 7;
        s += &format!(
            "    32    %{ctr} = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)\n"
        );
        s += &format!("    32    %{init} = mov %2.x\n");
        s += &format!("    @store_reg (%{init}, %{ctr}) (base=0, wrmask=x, legacy_fsat=0)\n");
        s += "    // succs: b1\n    loop {\n        block b1:  // preds: b0 b4\n";
        s += &format!(
            "    32    %{c} = @load_reg (%{ctr}) (base=0, legacy_fabs=0, legacy_fneg=0)\n"
        );
        s += &format!(
            "    32    %{lim} = load_const (0x{:08x})\n",
            1.0f32.to_bits()
        );
        s += &format!("    32    %{cond} = fge32 %{c}, %{lim}\n");
        s += &format!("        // succs: b2 b3\n        if %{cond} {{\n            block b2:  // preds: b1\n            break\n            // succs: b5\n        }} else {{\n            block b3:  // preds: b1\n            // succs: b4\n        }}\n        block b4:  // preds: b3\n");
        s += &format!(
            "    32    %{step} = load_const (0x{:08x})\n",
            0.25f32.to_bits()
        );
        s += &format!("    32    %{next} = fadd %{c}, %{step}\n");
        s += &format!("    @store_reg (%{next}, %{ctr}) (base=0, wrmask=x, legacy_fsat=0)\n");
        sum_into(&mut s, &mut id);
        s += "        // succs: b1\n    }\n    block b5:  // preds: b2\n";
    } else {
        sum_into(&mut s, &mut id);
    }
    s += &format!("    32    %{id} = @load_reg (%{acc}) (base=0, legacy_fabs=0, legacy_fneg=0)\n");
    s += &format!(
        "    32x4  %{} = vec4 %{id}, %{}, %{}, %{id}\n",
        id + 1,
        vals[0],
        vals[vals.len() - 1]
    );
    s += &format!(
        "    @store_output (%{}, %1) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n",
        id + 1
    );
    s += "    // succs: b6\n    block b6:\n}\n";
    s
}

fn check_spills(text: &str) {
    let shader = gpucc::nir::parse(text).expect("generated shader parses");
    for p in PLATFORMS {
        let ctx = Context::new(DevInfo::from_name(p).unwrap());
        let k = ctx
            .compile(&shader, &Options::widths(&[8, 16]))
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        let v8 = k.variant(8).expect("SIMD8 compiled");
        assert!(
            v8.stats.spills > 0 && v8.stats.fills > 0,
            "{p}: {:?}",
            v8.stats
        );
        assert!(
            k.variant(16).is_none(),
            "{p}: SIMD16 is dropped, not spilled"
        );
        assert!(
            k.scratch_size >= 32 * v8.stats.spills.min(1),
            "{p}: scratch size"
        );
        assert!(v8.grfs_used <= 128);
        let again = ctx.compile(&shader, &Options::widths(&[8, 16])).unwrap();
        assert_eq!(k.code, again.code, "{p}: deterministic");
        match verify(&ctx, &shader, 8) {
            VerifyOutcome::Pass => {}
            other => panic!("{p}: {other:?}"),
        }
    }
}

#[test]
fn straight_line_pressure_spills_and_matches() {
    check_spills(&pressure_shader(160, false));
}

#[test]
fn pressure_across_a_loop_spills_and_matches() {
    check_spills(&pressure_shader(150, true));
}

/// A program that fits does not spill and keeps its SIMD16 variant.
#[test]
fn small_programs_do_not_spill() {
    let shader = gpucc::nir::parse(&pressure_shader(20, false)).unwrap();
    let ctx = Context::new(DevInfo::from_name("ivb").unwrap());
    let k = ctx.compile(&shader, &Options::widths(&[8, 16])).unwrap();
    for v in &k.simd {
        assert_eq!((v.stats.spills, v.stats.fills), (0, 0), "SIMD{}", v.simd);
    }
    assert_eq!(k.scratch_size, 0);
    assert!(k.variant(16).is_some());
}

/// The corpus shaders under the most register pressure: the dolphin ubershaders that spilled
/// at SIMD8 while payload registers stayed reserved for the whole program (Mesa 23.3 compiles
/// them without spilling).
const PRESSURE_SHADERS: [u32; 10] = [111, 120, 129, 138, 165, 174, 183, 192, 228, 237];

/// Every corpus shader that spills at SIMD8 matches the interpreter on every platform, and the
/// ten under the most pressure compile without spilling (as Mesa's do) and match it too.
#[test]
fn corpus_shaders_under_pressure_verify() {
    let Some(dir) = common::shared_path("corpus/nir/ivb") else {
        return;
    };
    for p in PLATFORMS {
        let ctx = Context::new(DevInfo::from_name(p).unwrap());
        let mut spilled = 0;
        let mut passed = 0;
        for f in common::files_with_suffix(&dir, ".fs.nir") {
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            let pressure = PRESSURE_SHADERS
                .iter()
                .any(|n| name == format!("shader-db__dolphin__ubershaders__{n}.fs.nir"));
            let shader = gpucc::nir::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
            let Ok(k) = ctx.compile(&shader, &Options::widths(&[8])) else {
                assert!(!pressure, "{p} {name} does not compile");
                continue;
            };
            let st = &k.variant(8).unwrap().stats;
            if pressure {
                assert_eq!((st.spills, st.fills), (0, 0), "{p} {name} spills");
            } else if st.spills == 0 {
                continue;
            }
            spilled += (st.spills > 0) as u32;
            println!(
                "{p} {name}: {}:{} spills:fills, {} instructions, {} scratch bytes",
                st.spills, st.fills, st.instructions, k.scratch_size
            );
            match verify(&ctx, &shader, 8) {
                VerifyOutcome::Pass => passed += 1,
                // The interpreter's step limit, say: nothing to compare.
                VerifyOutcome::Unsupported(why) => println!("  not compared: {why}"),
                other => panic!("{p} {}: {other:?}", f.display()),
            }
        }
        println!("{p}: {spilled} corpus shaders spill at SIMD8, {passed} shaders verified");
        let mut figs = common::expect::Figures::new(&format!("{p}.fs.pressure_ivb_corpus"));
        figs.count("spilling_simd8", spilled as usize);
        figs.count("verified", passed);
        figs.check();
    }
}
