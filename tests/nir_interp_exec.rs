//! The interpreter's execution model: control flow with phis and with registers, 2×2 quad
//! derivatives, discard, texturing through the default sampler, buffers, and the errors a run
//! can end with. Expected values are worked out by hand in the comments.

use gpucc::nir;
use gpucc::nir::interp::{self, Environment, RunResult};

const HEADER: &str = "shader: MESA_SHADER_FRAGMENT\nname: t\nstage: 4\ninputs: 1\noutputs: 1\n\
uniforms: 0\ndecl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_DATA0.xyzw, 0, 0)\n\
decl_function main (0 params)\n\nimpl main {\n";

fn store(value: &str, zero: &str, mask: &str) -> String {
    format!(
        "                @store_output ({value}, {zero}) (base=0, range=1, wrmask={mask}, \
         component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())\n"
    )
}

fn shader(body: &str) -> nir::Shader {
    let text = format!("{HEADER}{body}}}\n");
    let s = nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    nir::validate(&s).unwrap_or_else(|e| panic!("{e:?}"));
    s
}

fn run(s: &nir::Shader, env: &Environment, n: usize) -> RunResult {
    interp::run(s, env, n).unwrap_or_else(|e| panic!("{e}"))
}

/// Components of output slot 0 of invocation `inv`, as raw u32.
fn out(r: &RunResult, inv: usize) -> Vec<u32> {
    r.invocations[inv].outputs[&0]
        .comps
        .iter()
        .flatten()
        .map(|&v| v as u32)
        .collect()
}

fn outf(r: &RunResult, inv: usize) -> Vec<f32> {
    out(r, inv).into_iter().map(f32::from_bits).collect()
}

/// A counting loop (sum of 0..5 = 10, exit counter 5) followed by an `if` on gl_FragCoord.x,
/// which differs between the quad's columns (x = 0.5 or 1.5), merged with a phi.
const LOOP_AND_IF_SSA: &str = "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32     %1 = load_const (0x00000001)
    32     %2 = load_const (0x00000005)
                // succs: b1
    loop {
        block b1:   // preds: b0 b4
        32     %3 = phi b0: %0, b4: %6
        32     %4 = phi b0: %0, b4: %7
        32     %5 = ige32 %3, %2
                    // succs: b2 b3
        if %5 {
            block b2:// preds: b1
            break
            // succs: b5
        } else {
            block b3:  // preds: b1, succs: b4
        }
        block b4:  // preds: b3
        32     %6 = iadd %3, %1
        32     %7 = iadd %4, %3
                    // succs: b1
    }
    block b5:  // preds: b2
    32x4   %8 = @load_frag_coord () ()
    32     %9 = load_const (0x3f800000)
    32    %10 = flt32 %8.x, %9
                // succs: b6 b7
    if %10 {
        block b6:  // preds: b5
        32    %11 = load_const (0x00000064)
                    // succs: b8
    } else {
        block b7:  // preds: b5
        32    %12 = load_const (0x000000c8)
                    // succs: b8
    }
    block b8:  // preds: b6 b7
    32    %13 = phi b6: %11, b7: %12
    32x3  %14 = vec3 %4, %3, %13
";

#[test]
fn loops_ifs_and_phis_run_per_lane() {
    let body = format!(
        "{LOOP_AND_IF_SSA}{}                // succs: b9\n    block b9:\n",
        store("%14", "%0", "xyz")
    );
    let r = run(&shader(&body), &Environment::default(), 4);
    // Lanes 0 and 2 are in column x = 0.5 (< 1: then-branch, 100); lanes 1 and 3 take 200.
    assert_eq!(out(&r, 0), vec![10, 5, 100]);
    assert_eq!(out(&r, 1), vec![10, 5, 200]);
    assert_eq!(out(&r, 2), vec![10, 5, 100]);
    assert_eq!(out(&r, 3), vec![10, 5, 200]);
}

#[test]
fn registers_replace_phis() {
    // The same program out of SSA: the loop counter and the sum live in registers.
    let body = format!(
        "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32     %1 = load_const (0x00000001)
    32     %2 = load_const (0x00000005)
    32    %20 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %21 = @decl_reg () (num_components=2, num_array_elems=3, bit_size=32, divergent=1)
                @store_reg (%0, %20) (base=0, wrmask=x, legacy_fsat=0)
    32x2  %22 = vec2 %0, %0
                @store_reg (%22, %21) (base=2, wrmask=xy, legacy_fsat=0)
                // succs: b1
    loop {{
        block b1:   // preds: b0 b4
        32     %3 = @load_reg (%20) (base=0, legacy_fabs=0, legacy_fneg=0)
        32     %5 = ige32 %3, %2
                    // succs: b2 b3
        if %5 {{
            block b2:// preds: b1
            break
            // succs: b5
        }} else {{
            block b3:  // preds: b1, succs: b4
        }}
        block b4:  // preds: b3
        32     %6 = iadd %3, %1
                    @store_reg (%6, %20) (base=0, wrmask=x, legacy_fsat=0)
        32x2   %7 = @load_reg (%21) (base=2, legacy_fabs=0, legacy_fneg=0)
        32     %8 = iadd %7.y, %3
        32x2  %12 = vec2 %8, %8
                    @store_reg (%12, %21) (base=2, wrmask=y, legacy_fsat=0)
                    // succs: b1
    }}
    block b5:  // preds: b2
    32     %9 = @load_reg (%20) (base=0, legacy_fabs=0, legacy_fneg=0)
    32x2  %10 = @load_reg_indirect (%21, %1) (base=1, legacy_fabs=0, legacy_fneg=0)
    32x2  %11 = vec2 %10.y, %9
{}                // succs: b6
    block b6:
",
        store("%11", "%0", "xy")
    );
    let r = run(&shader(&body), &Environment::default(), 2);
    // The indirect load reads element base 1 + 1 = 2, whose .y accumulated 0+1+2+3+4 = 10;
    // the counter register ends at 5.
    assert_eq!(out(&r, 0), vec![10, 5]);
    assert_eq!(out(&r, 1), vec![10, 5]);
}

#[test]
fn derivatives_use_the_quad() {
    // Inputs are generated as 0.5 + slot/4 + c/16 + x/8 + y/32 (env docs): d/dx = 1/8,
    // d/dy = 1/32. For gl_FragCoord.x * gl_FragCoord.y on the quad (x, y in {0.5, 1.5}):
    // pixel values 0.25, 0.75 (top row), 0.75, 2.25 (bottom row). Coarse ddy uses the left
    // column everywhere: 0.75 - 0.25 = 0.5; fine ddy in the right column: 2.25 - 0.75 = 1.5.
    let body = format!(
        "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32x4   %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    32     %2 = fddx %1.x
    32     %3 = fddy %1.y
    32x4   %4 = @load_frag_coord () ()
    32     %5 = fmul %4.x, %4.y
    32     %6 = fddy_coarse %5
    32     %7 = fddy_fine %5
    32     %8 = fddx_coarse %5
    32x4   %9 = vec4 %2, %3, %6, %7
{}                // succs: b1
    block b1:
",
        store("%9", "%0", "xyzw")
    );
    let r = run(&shader(&body), &Environment::default(), 4);
    assert_eq!(outf(&r, 0), vec![0.125, 0.03125, 0.5, 0.5]);
    assert_eq!(outf(&r, 1), vec![0.125, 0.03125, 0.5, 1.5]);
    assert_eq!(outf(&r, 3), vec![0.125, 0.03125, 0.5, 1.5]);
}

#[test]
fn discard_is_per_invocation() {
    let body = format!(
        "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32x4   %1 = @load_frag_coord () ()
    32     %2 = load_const (0x3f800000)
    32     %3 = flt32 %2, %1.x
                @discard_if (%3) ()
{}                // succs: b1
    block b1:
",
        store("%1", "%0", "xyzw")
    );
    let r = run(&shader(&body), &Environment::default(), 4);
    // Column x = 1.5 (lanes 1, 3) is discarded.
    assert!(!r.invocations[0].discarded && !r.invocations[2].discarded);
    assert!(r.invocations[1].discarded && r.invocations[3].discarded);
    assert!(r.invocations[1].outputs.is_empty());
    assert_eq!(outf(&r, 2), vec![0.5, 1.5, 0.5, 1.0]);
}

#[test]
fn default_sampler_model() {
    // coord (0.5, 0.25) on a 16x16 texture: texel (8, 4) of texture 2 at level 0 is
    // ((8+1)/32, (4+1)/32, (2+1)/8, 1) = (0.28125, 0.15625, 0.375, 1). txl at lod 1 (8x8):
    // texel (4, 2): (5/32, 3/32, 3/8, 1 - 1/8). txf (3, 5) lod 0: (4/32, 6/32, 3/8, 1).
    let body = format!(
        "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32x2   %1 = load_const (0x3f000000, 0x3e800000)
    32x4   %2 = (float32)tex %1 (coord), 2 (texture), 0 (sampler)
    32     %3 = load_const (0x3f800000)
    32x4   %4 = (float32)txl %1 (coord), %3 (lod), 2 (texture), 0 (sampler)
    32x2   %5 = load_const (0x00000003, 0x00000005)
    32x4   %6 = (float32)txf %5 (coord), %0 (lod), 2 (texture)
    32x2   %7 = (int32)txs %0 (lod), 2 (texture)
    32x4   %8 = vec4 %2.x, %4.y, %6.x, %4.w
    32x4   %9 = vec4 %7.x, %7.y, %2.z, %2.w
{}{}                // succs: b1
    block b1:
",
        store("%8", "%0", "xyzw"),
        store("%9", "%0", "xyzw").replace("base=0", "base=1")
    );
    let s = shader(&body);
    let r = run(&s, &Environment::default(), 1);
    assert_eq!(outf(&r, 0), vec![0.28125, 3.0 / 32.0, 4.0 / 32.0, 0.875]);
    let slot1: Vec<u32> = r.invocations[0].outputs[&1]
        .comps
        .iter()
        .flatten()
        .map(|&v| v as u32)
        .collect();
    assert_eq!(slot1, vec![16, 16, 0.375f32.to_bits(), 1.0f32.to_bits()]);
}

#[test]
fn buffers_and_their_bounds() {
    let body = format!(
        "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32     %1 = load_const (0x00000004)
    32x2   %2 = @load_ubo (%0, %1) (access=none, align_mul=4, align_offset=0, range_base=0, range=16)
    32     %3 = @load_uniform (%1) (base=0, range=4, dest_type=float32)
    32x3   %4 = vec3 %2.x, %2.y, %3
{}                // succs: b1
    block b1:
",
        store("%4", "%0", "xyz")
    );
    let s = shader(&body);
    let words = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let mut uniforms = vec![0u32; 20];
    uniforms[16] = 77; // vec4 slot 4 (uniform_unit 16 bytes), component x.
    let env = Environment {
        ubos: vec![words(&[1, 2, 3, 4])],
        uniforms: words(&uniforms),
        ..Environment::default()
    };
    let r = run(&s, &env, 1);
    assert_eq!(out(&r, 0), vec![2, 3, 77]);
    // Two words at offset 4 need 12 bytes; an 8-byte UBO is too small.
    let small = Environment {
        ubos: vec![words(&[1, 2])],
        uniforms: words(&uniforms),
        ..Environment::default()
    };
    let e = interp::run(&s, &small, 1).unwrap_err();
    assert!(e.message.contains("out of bounds"), "{e}");
    assert!(e.block.is_some() && e.instr.is_some());
    // Robust access reads zeros instead.
    let robust = Environment {
        robust_access: true,
        ..small
    };
    assert_eq!(out(&run(&s, &robust, 1), 0), vec![0, 0, 77]);
}

#[test]
fn infinite_loops_hit_the_step_limit() {
    let body = "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
                // succs: b1
    loop {
        block b1:   // preds: b0 b1
        32     %1 = iadd %0, %0
                    // succs: b1
    }
    block b2:  // preds:
                // succs: b3
    block b3:
";
    let s = shader(body);
    let env = Environment {
        step_limit: 10_000,
        ..Environment::default()
    };
    let e = interp::run(&s, &env, 4).unwrap_err();
    assert!(e.message.contains("step limit"), "{e}");
}

#[test]
fn missing_inputs_and_bad_counts_are_errors() {
    let body = format!(
        "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32x4   %1 = @load_input (%0) (base=3, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
{}                // succs: b1
    block b1:
",
        store("%1", "%0", "xyzw")
    );
    let s = shader(&body);
    let env = Environment {
        generate_inputs: false,
        ..Environment::default()
    };
    let e = interp::run(&s, &env, 1).unwrap_err();
    assert!(e.message.contains("input slot 3"), "{e}");
    assert!(interp::run(&s, &Environment::default(), 0).is_err());
}

#[test]
fn run_cli_formats_outputs() {
    let body = format!(
        "{LOOP_AND_IF_SSA}    32x4  %15 = vec4 %9, %9, %9, %9\n{}                // succs: b9\n    block b9:\n",
        store("%15", "%0", "xyzw")
    );
    let text = format!("{HEADER}{body}}}\n");
    let s = interp::run_cli(&text, 2, &[]).unwrap();
    assert_eq!(
        s,
        "inv 0 FRAG_RESULT_DATA0[0] = (1, 1, 1, 1)\ninv 1 FRAG_RESULT_DATA0[0] = (1, 1, 1, 1)\n"
    );
    assert!(interp::run_cli("not nir", 1, &[]).is_err());
}

/// An I/O offset is a signed 32-bit integer added to the base, as Mesa's `nir_lower_io`
/// leaves `index - 2` with the 2 folded into the base and brw adds the two in the URB
/// message: base 3 + offset 0xfffffffe reads slot 1, the same value as base 1 + offset 0; a
/// sum below slot 0 is an error, not a wrap.
#[test]
fn io_offsets_are_signed() {
    let read = |base: u32, off: &str| {
        format!(
            "    block b0:   // preds:
    32     %0 = load_const (0x00000000)
    32     %1 = load_const ({off})
    32x4   %2 = @load_input (%1) (base={base}, range=4, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=4)
{}                // succs: b1
    block b1:
",
            store("%2", "%0", "xyzw")
        )
    };
    let env = Environment::default();
    let folded = run(&shader(&read(3, "0xfffffffe")), &env, 4);
    let direct = run(&shader(&read(1, "0x00000000")), &env, 4);
    let other = run(&shader(&read(3, "0x00000000")), &env, 4);
    for inv in 0..4 {
        assert_eq!(out(&folded, inv), out(&direct, inv));
    }
    assert_ne!(
        out(&folded, 0),
        out(&other, 0),
        "slot 3's inputs differ from slot 1's"
    );
    let e = interp::run(&shader(&read(1, "0xfffffffe")), &env, 1).unwrap_err();
    assert!(e.message.contains("out of range"), "{e}");
}
