//! Mesa's etnaviv NIR in the hardware's terms (`etna_lower_alu`): sine and cosine arguments
//! pre-scaled to the hardware's unit, and two-part LOG/SIN/COS results on cores with fast
//! transcendentals. The backend must compile them to the bare instructions, and
//! `dialect::to_standard` must give the interpreter the same meaning. Expected values are
//! the mathematical ones (sin(π/6) = 0.5, log2(8) = 3, cos(0) = 1).

use gpucc::etnaviv::compiler::consts::UniformContent;
use gpucc::etnaviv::compiler::{dialect, verify, Context, Options, VerifyOutcome};
use gpucc::etnaviv::isa::Opcode;
use gpucc::etnaviv::sim::Machine;
use gpucc::etnaviv::specs::Specs;
use gpucc::nir::ir::InstrKind;

fn ctx(name: &str) -> Context {
    Context::new(Specs::from_name(name).expect("known core"))
}

/// A fragment shader reading `vec4 u` and writing `%98` to gl_FragColor.
fn fs(body: &str) -> gpucc::nir::Shader {
    let text = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 0\noutputs: 1\nuniforms: 1\n\
         decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n\
         decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds: \n\
         \x20   32    %0 = load_const (0x00000000)\n\
         \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
         {body}\
         \x20   32    %99 = deref_var &gl_FragColor (shader_out vec4)\n\
         \x20               @store_deref (%99, %98) (wrmask=xyzw, access=none)\n\
         \x20               // succs: b1 \n    block b1:\n}}\n"
    );
    gpucc::nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Runs the compiled shader with `u` and returns the colour.
fn run(core: &str, s: &gpucc::nir::Shader, u: [f32; 4]) -> ([f32; 4], Vec<Opcode>) {
    let c = ctx(core);
    let obj = c.compile(s, &Options::default()).expect("compiles");
    let mut m = Machine::new(c.specs());
    for (slot, contents) in obj.uniforms.iter().enumerate() {
        let mut v = [0u32; 4];
        for (k, content) in contents.iter().enumerate() {
            v[k] = match *content {
                UniformContent::User(i) => u[i as usize].to_bits(),
                UniformContent::Const(b) => b,
                _ => 0,
            };
        }
        m.set_uniform_bits(slot, v);
    }
    m.run(&obj.insts).expect("runs");
    let reg = usize::from(obj.ps_color_out_reg.expect("colour"));
    match verify(&c, s, 2) {
        VerifyOutcome::Pass => {}
        other => panic!("{core}: {other:?}\n{}", obj.asm_text()),
    }
    (m.temp(reg), obj.insts.iter().map(|i| i.opcode).collect())
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-4
}

/// sin(x) as gc2000's NIR has it: the argument times 2/π, then `fsin`.
fn prescaled_sine_gc2000() -> gpucc::nir::Shader {
    fs("    32    %2 = load_const (0x3f22f983 = 0.636620)\n\
        \x20   32    %3 = fmul %1.x, %2 (0.636620)\n\
        \x20   32    %4 = fsin %3\n\
        \x20   32    %5 = load_const (0x3f800000 = 1.000000)\n\
        \x20   32x4  %98 = vec4 %4, %5, %5, %5\n")
}

#[test]
fn prescaled_sine_is_not_scaled_twice() {
    let s = prescaled_sine_gc2000();
    let (c, ops) = run("gc2000", &s, [std::f32::consts::FRAC_PI_6, 0.0, 0.0, 0.0]);
    assert!(close(c[0], 0.5), "{c:?}");
    // Mesa's own multiply is the only one.
    assert_eq!(
        ops.iter().filter(|&&o| o == Opcode::Mul).count(),
        1,
        "{ops:?}"
    );
}

#[test]
fn to_standard_gives_sine_its_unscaled_argument() {
    let specs = Specs::from_name("gc2000").unwrap();
    let s = dialect::to_standard(specs, &prescaled_sine_gc2000());
    let imp = s.entry().unwrap();
    let sine = imp
        .instrs
        .iter()
        .find_map(|i| match &i.kind {
            InstrKind::Alu(a) if a.op.name() == "fsin" => Some(a.clone()),
            _ => None,
        })
        .expect("fsin");
    // %1.x itself.
    assert_eq!(sine.srcs[0].ssa.0, 1);
    assert_eq!(sine.srcs[0].swizzle[0], 0);
}

#[test]
fn unscaled_sine_still_gets_the_hardware_unit() {
    // A standard shader (no pre-scaling): the backend scales itself.
    let s = fs("    32    %4 = fsin %1.y\n\
                \x20   32x4  %98 = vec4 %4, %4, %4, %4\n");
    for core in ["gc2000", "gc7000"] {
        let (c, _) = run(core, &s, [0.0, std::f32::consts::FRAC_PI_6, 0.0, 0.0]);
        assert!(close(c[0], 0.5), "{core}: {c:?}");
    }
}

#[test]
fn two_part_log_is_the_bare_instruction() {
    let s = fs("    32x2  %2 = flog2 %1.xx\n\
                \x20   32    %3 = fmul %2.x, %2.y\n\
                \x20   32x4  %98 = vec4 %3, %3, %3, %3\n");
    let (c, ops) = run("gc7000", &s, [8.0, 0.0, 0.0, 0.0]);
    assert!(close(c[0], 3.0), "{c:?}");
    assert_eq!(
        ops.iter().filter(|&&o| o == Opcode::Log).count(),
        1,
        "{ops:?}"
    );
    assert_eq!(
        ops.iter().filter(|&&o| o == Opcode::Mul).count(),
        1,
        "{ops:?}"
    );
}

#[test]
fn two_part_prescaled_sine_and_cosine() {
    // gc7000: arguments times 1/π, two-part results.
    let s = fs("    32    %2 = load_const (0x3ea2f983 = 0.318310)\n\
                \x20   32    %3 = fmul %1.x, %2 (0.318310)\n\
                \x20   32x2  %4 = fsin %3.xx\n\
                \x20   32    %5 = fmul %4.x, %4.y\n\
                \x20   32    %6 = fmul %1.y, %2 (0.318310)\n\
                \x20   32x2  %7 = fcos %6.xx\n\
                \x20   32    %8 = fmul %7.x, %7.y\n\
                \x20   32x4  %98 = vec4 %5, %8, %5, %8\n");
    let (c, ops) = run("gc7000", &s, [std::f32::consts::FRAC_PI_6, 0.0, 0.0, 0.0]);
    assert!(close(c[0], 0.5) && close(c[1], 1.0), "{c:?}");
    assert_eq!(
        ops.iter().filter(|&&o| o == Opcode::Mul).count(),
        4,
        "{ops:?}"
    );
}

/// min/max with a NaN operand, as the yofrankie shader meets it (a square root of a negative
/// number feeding `fmin`): `%2 = sqrt(-u.x)` is NaN for the positive uniforms the checker
/// uses, and each NaN sits once in the first and once in the second source.
fn nan_min_max() -> gpucc::nir::Shader {
    fs("    32    %2 = fneg %1.x\n\
        \x20   32    %3 = fsqrt %2\n\
        \x20   32    %4 = fmin %3, %1.y\n\
        \x20   32    %5 = fmax %3, %1.z\n\
        \x20   32    %6 = fmin %1.w, %3\n\
        \x20   32    %7 = fmax %1.w, %3\n\
        \x20   32x4  %98 = vec4 %4, %5, %6, %7\n")
}

/// The colour the interpreter computes for `s` with uniform `u` (first invocation).
fn interpret(s: &gpucc::nir::Shader, u: [f32; 4]) -> [f32; 4] {
    let env = gpucc::nir::interp::Environment {
        uniforms: u.iter().flat_map(|x| x.to_le_bytes()).collect(),
        ..Default::default()
    };
    let r = gpucc::nir::interp::run(s, &env, 4).expect("interprets");
    let out = r.invocations[0].outputs.values().next().expect("colour");
    [0, 1, 2, 3].map(|c| f32::from_bits(out.comps[c].expect("written") as u32))
}

/// GLSL leaves min/max of a NaN undefined. NIR's constant expression is C's `fmin`/`fmax`
/// (a NaN operand yields the other one), but Mesa's etnaviv, and this backend, compile them to
/// `SELECT.GT/LT src0, src1, src0`, which yields src0 whenever the comparison involves a NaN:
/// a NaN in the first source comes out. Mesa's CI lists piglit's fs/vs-nan-builtin-min/max
/// (which need the other operand back) as failing on GC2000 hardware. So the compiled code and
/// the simulator are right; the reference the checker hands the interpreter must read
/// min/max the hardware's way, or every shader that feeds a NaN into the first source of a
/// min/max "fails" verification (corpus shader-db yofrankie/42.fs on gc3000/gc7000).
#[test]
fn nan_in_min_max_follows_the_select_not_c_fmin() {
    let s = nan_min_max();
    let u: [f32; 4] = [1.0, 2.0, 3.0, 4.0];
    for core in ["gc2000", "gc3000", "gc7000"] {
        let c = ctx(core);
        let obj = c.compile(&s, &Options::default()).expect("compiles");
        let selects = obj.insts.iter().filter(|i| i.opcode == Opcode::Select);
        assert_eq!(
            selects.count(),
            4,
            "{core}: one SELECT per min/max\n{}",
            obj.asm_text()
        );
        let mut m = Machine::new(c.specs());
        for (slot, contents) in obj.uniforms.iter().enumerate() {
            let mut v = [0u32; 4];
            for (k, content) in contents.iter().enumerate() {
                if let UniformContent::User(i) = *content {
                    v[k] = u[i as usize].to_bits();
                }
            }
            m.set_uniform_bits(slot, v);
        }
        m.run(&obj.insts).expect("runs");
        let hw = m.temp(usize::from(obj.ps_color_out_reg.expect("colour")));
        assert!(
            hw[0].is_nan() && hw[1].is_nan() && hw[2] == 4.0 && hw[3] == 4.0,
            "{core}: simulator: SELECT keeps a NaN first source, drops a NaN second one: {hw:?}"
        );
        // NIR's own meaning is C's: the interpreter is right to give the other operand...
        assert_eq!(
            interpret(&s, u),
            [2.0, 3.0, 4.0, 4.0],
            "{core}: NIR fmin/fmax"
        );
        // ...and the etnaviv reading of the same NIR gives what the hardware computes.
        let standard = dialect::to_standard(c.specs(), &s);
        gpucc::nir::validate(&standard).expect("the rewrite is valid NIR");
        let std = interpret(&standard, u);
        assert!(
            std[0].is_nan() && std[1].is_nan() && std[2] == 4.0 && std[3] == 4.0,
            "{core}: reference wrong: dialect::to_standard must hand the interpreter \
             min/max with the hardware's NaN rule, got {std:?}"
        );
        match verify(&c, &s, 2) {
            VerifyOutcome::Pass => {}
            other => panic!(
                "{core}: reference wrong (dialect::to_standard), not the backend or the \
                 simulator: {other:?}"
            ),
        }
    }
}
