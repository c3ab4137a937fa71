//! The fragment payload beyond position and varyings, end to end through the etnaviv backend
//! and simulator: the front-facing bit (i0), loads from uniform buffers (LOAD on HALTI2+
//! cores) and derivatives (DSX/DSY over a 2×2 quad). Expected colours are worked out by hand
//! from the shaders; each case also goes through the simulator-versus-interpreter check.

use gpucc::etnaviv::compiler::consts::UniformContent;
use gpucc::etnaviv::compiler::{verify, CompileError, Context, Options, VerifyOutcome};
use gpucc::etnaviv::isa::{Opcode, RegGroup, SrcKind};
use gpucc::etnaviv::shader::ShaderObject;
use gpucc::etnaviv::sim::{run_quad, Machine};
use gpucc::etnaviv::specs::Specs;

fn ctx(name: &str) -> Context {
    Context::new(Specs::from_name(name).expect("known core"))
}

/// A fragment shader writing `%98` to gl_FragColor.
fn fs(uniforms: u32, decls: &str, body: &str) -> gpucc::nir::Shader {
    let text = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 0\noutputs: 1\nuniforms: {uniforms}\n\
         {decls}decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds: \n{body}\
         \x20   32    %99 = deref_var &gl_FragColor (shader_out vec4)\n\
         \x20               @store_deref (%99, %98) (wrmask=xyzw, access=none)\n\
         \x20               // succs: b1 \n    block b1:\n}}\n"
    );
    gpucc::nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn colour(m: &Machine, obj: &ShaderObject) -> [f32; 4] {
    m.temp(usize::from(obj.ps_color_out_reg.expect("colour output")))
}

fn assert_verifies(c: &Context, s: &gpucc::nir::Shader) {
    match verify(c, s, 3) {
        VerifyOutcome::Pass => {}
        other => panic!("{}: {other:?}", c.specs().name),
    }
}

// ---- gl_FrontFacing ----

/// gl_FrontFacing ? green : red, as Mesa's etnaviv NIR has it on a core without integers
/// (the hardware's 0.0/1.0 compared with 0.0).
fn front_face_float() -> gpucc::nir::Shader {
    fs(
        0,
        "",
        "    32    %0 = @load_front_face () ()\n\
         \x20   32    %1 = load_const (0x00000000 = 0.000000)\n\
         \x20   32    %2 = sne %0, %1 (0.000000)\n\
         \x20   32x4  %3 = load_const (0x00000000, 0x3f800000, 0x00000000, 0x3f800000)\n\
         \x20   32x4  %4 = load_const (0x3f800000, 0x00000000, 0x00000000, 0x3f800000)\n\
         \x20   32x4  %98 = fcsel %2.xxxx, %3, %4\n",
    )
}

/// The same on a core with integers: `ine32` on the register's bits, then `b32csel`.
fn front_face_int() -> gpucc::nir::Shader {
    fs(
        0,
        "",
        "    32    %0 = @load_front_face () ()\n\
         \x20   32    %1 = load_const (0x00000000)\n\
         \x20   32    %2 = ine32 %0, %1 (0x0)\n\
         \x20   32x4  %3 = load_const (0x00000000, 0x3f800000, 0x00000000, 0x3f800000)\n\
         \x20   32x4  %4 = load_const (0x3f800000, 0x00000000, 0x00000000, 0x3f800000)\n\
         \x20   32x4  %98 = b32csel %2.xxxx, %3, %4\n",
    )
}

fn check_front_face(core: &str, s: &gpucc::nir::Shader) {
    let c = ctx(core);
    let obj = c.compile(s, &Options::default()).expect("compiles");
    // The bit is read straight from i0.x, as Mesa's backend reads it.
    let reads_i0 = obj.insts.iter().any(|i| {
        i.src.iter().any(|src| {
            matches!(src.kind, SrcKind::Reg(r)
                if src.use_ && r.group == RegGroup::Internal && r.reg == 0
                    && r.swiz.component(0) == 0)
        })
    });
    assert!(reads_i0, "{}", obj.asm_text());
    for (front, want) in [(true, [0.0, 1.0, 0.0, 1.0]), (false, [1.0, 0.0, 0.0, 1.0])] {
        let mut m = Machine::new(c.specs());
        for (slot, contents) in obj.uniforms.iter().enumerate() {
            let v = contents.map(|k| match k {
                UniformContent::Const(b) => b,
                _ => 0,
            });
            m.set_uniform_bits(slot, v);
        }
        m.set_front_face(front);
        m.run(&obj.insts).expect("runs");
        assert_eq!(colour(&m, &obj), want, "front={front}\n{}", obj.asm_text());
    }
    assert_verifies(&c, s);
}

#[test]
fn front_face_on_a_float_core() {
    check_front_face("gc2000", &front_face_float());
}

#[test]
fn front_face_on_an_integer_core() {
    check_front_face("gc7000", &front_face_int());
}

// ---- uniform buffer loads ----

/// `idx` selects a vec4 of the default uniform block (UBO 0) after `idx` itself; the
/// second load reads the z and w words of the same element and swaps them.
fn ubo_shader() -> gpucc::nir::Shader {
    fs(
        3,
        "decl_var uniform INTERP_MODE_NONE none int idx (0, 0, 0)\n\
         decl_var ubo INTERP_MODE_NONE none vec4[3] uniform_0 (0, 0, 0)\n",
        "    32    %0 = load_const (0x00000000)\n\
         \x20   32    %1 = load_const (0x00000010 = 16)\n\
         \x20   32    %2 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=int32)\n\
         \x20   32    %3 = imul %2, %1 (0x10)\n\
         \x20   32    %4 = iadd %3, %1 (0x10)\n\
         \x20   32x4  %5 = @load_ubo (%0 (0x0), %4) (access=none, align_mul=16, align_offset=0, range_base=16, range=32)\n\
         \x20   32    %6 = load_const (0x00000008 = 8)\n\
         \x20   32    %7 = iadd %4, %6 (0x8)\n\
         \x20   32x2  %8 = @load_ubo (%0 (0x0), %7) (access=none, align_mul=8, align_offset=0, range_base=16, range=32)\n\
         \x20   32x4  %98 = fadd %5, %8.yxyx\n",
    )
}

#[test]
fn ubo_loads_read_the_buffer_at_the_uniform_address() {
    let c = ctx("gc7000");
    let s = ubo_shader();
    let obj = c.compile(&s, &Options::default()).expect("compiles");
    let loads = obj
        .insts
        .iter()
        .filter(|i| i.opcode == Opcode::Load)
        .count();
    assert_eq!(loads, 2, "{}", obj.asm_text());
    // Block: idx, then elements 0 and 1. The buffer sits at byte 0x40 of memory.
    let block: [[f32; 4]; 3] = [[0.0; 4], [1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0]];
    for (idx, want) in [
        // element 0 + (w, z, w, z) of element 0
        (0, [1.0 + 4.0, 2.0 + 3.0, 3.0 + 4.0, 4.0 + 3.0]),
        (1, [10.0 + 40.0, 20.0 + 30.0, 30.0 + 40.0, 40.0 + 30.0]),
    ] {
        let mut words: Vec<u32> = block.iter().flatten().map(|f| f.to_bits()).collect();
        words[0] = idx;
        let mut m = Machine::new(c.specs());
        for (slot, contents) in obj.uniforms.iter().enumerate() {
            let mut v = [0u32; 4];
            for (k, content) in contents.iter().enumerate() {
                v[k] = match *content {
                    UniformContent::User(i) => words[i as usize],
                    UniformContent::Const(b) => b,
                    UniformContent::UboAddress(0) => 0x40,
                    UniformContent::Unused => 0,
                    other => panic!("unexpected uniform {other:?}"),
                };
            }
            m.set_uniform_bits(slot, v);
        }
        m.memory = vec![0xff; 0x40];
        m.memory.extend(words.iter().flat_map(|w| w.to_le_bytes()));
        m.run(&obj.insts).expect("runs");
        assert_eq!(colour(&m, &obj), want, "idx={idx}\n{}", obj.asm_text());
    }
    assert_verifies(&c, &s);
}

#[test]
fn ubo_loads_need_the_load_instruction() {
    let s = fs(
        1,
        "decl_var ubo INTERP_MODE_NONE none vec4[2] uniform_0 (0, 0, 0)\n",
        "    32    %0 = load_const (0x00000000)\n\
         \x20   32    %1 = load_const (0x00000010 = 16)\n\
         \x20   32x4  %98 = @load_ubo (%0 (0x0), %1 (0x10)) (access=none, align_mul=16, align_offset=0, range_base=16, range=16)\n",
    );
    match ctx("gc2000").compile(&s, &Options::default()) {
        Err(CompileError::Unsupported(m)) => assert!(m.contains("LOAD"), "{m}"),
        other => panic!("{other:?}"),
    }
}

// ---- derivatives ----

/// (dFdx(x²), dFdy(x·y), dFdx(y), dFdy(y)) of the fragment position.
fn derivative_shader() -> gpucc::nir::Shader {
    fs(
        0,
        "",
        "    32x4  %0 = @load_frag_coord () ()\n\
         \x20   32    %1 = fmul %0.x, %0.x\n\
         \x20   32    %2 = fddx %1\n\
         \x20   32    %3 = fmul %0.y, %0.x\n\
         \x20   32    %4 = fddy %3\n\
         \x20   32    %5 = fddx %0.y\n\
         \x20   32    %6 = fddy %0.y\n\
         \x20   32x4  %98 = vec4 %2, %4, %5, %6\n",
    )
}

#[test]
fn derivatives_difference_the_quad_neighbours() {
    for core in ["gc2000", "gc7000"] {
        let c = ctx(core);
        let s = derivative_shader();
        let obj = c.compile(&s, &Options::default()).expect("compiles");
        // A quad at window (4, 6): pixel centres x ∈ {4.5, 5.5}, y ∈ {6.5, 7.5}.
        let mut quad: Vec<Machine> = (0..4)
            .map(|i| {
                let mut m = Machine::new(c.specs());
                for (slot, contents) in obj.uniforms.iter().enumerate() {
                    m.set_uniform_bits(
                        slot,
                        contents.map(|k| match k {
                            UniformContent::Const(b) => b,
                            _ => 0,
                        }),
                    );
                }
                let (x, y) = (4.5 + (i & 1) as f32, 6.5 + (i >> 1) as f32);
                m.set_temp(0, [x, y, 0.5, 1.0]);
                m
            })
            .collect();
        run_quad(&mut quad, &obj.insts).expect("runs");
        for (i, m) in quad.iter().enumerate() {
            let x = 4.5 + (i & 1) as f32;
            // 5.5² − 4.5² = 10; (y+1)·x − y·x = x; y is constant along a row and grows by
            // one per row.
            assert_eq!(
                colour(m, &obj),
                [10.0, x, 0.0, 1.0],
                "{core} pixel {i}\n{}",
                obj.asm_text()
            );
        }
        assert_verifies(&c, &s);
    }
}

#[test]
fn a_lone_invocation_sees_no_neighbours() {
    let c = ctx("gc2000");
    let obj = c
        .compile(&derivative_shader(), &Options::default())
        .expect("compiles");
    let mut m = Machine::new(c.specs());
    m.set_temp(0, [4.5, 6.5, 0.5, 1.0]);
    m.run(&obj.insts).expect("runs");
    assert_eq!(colour(&m, &obj), [0.0; 4]);
}

#[test]
fn a_quad_is_four_invocations() {
    let c = ctx("gc2000");
    let mut three: Vec<Machine> = (0..3).map(|_| Machine::new(c.specs())).collect();
    let err = run_quad(&mut three, &[]).unwrap_err();
    assert!(err.message.contains("4 invocations"), "{err}");
}

// ---- out-of-range reads ----

#[test]
fn robust_reads_give_zero_instead_of_an_error() {
    let c = ctx("gc7000");
    let obj = c
        .compile(&ubo_shader(), &Options::default())
        .expect("compiles");
    let mut m = Machine::new(c.specs());
    // idx = 1000: far past the (empty) memory.
    m.set_uniform_bits(0, [1000, 0, 0, 0]);
    let err = m.run(&obj.insts).unwrap_err();
    assert!(err.message.contains("outside memory"), "{err}");
    let mut m = Machine::new(c.specs());
    m.robust_reads = true;
    m.set_uniform_bits(0, [1000, 0, 0, 0]);
    m.run(&obj.insts).expect("runs");
    assert_eq!(colour(&m, &obj), [0.0; 4]);
}
