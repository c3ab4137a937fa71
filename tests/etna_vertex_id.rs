//! Vertex and instance ids on etnaviv (Mesa's `vs_id_in_reg`): the front end writes them into
//! the input register after the vertex attributes (`infile.num_reg`), the vertex id in x and the
//! instance id in y, on cores from HALTI2 on; older cores refuse the intrinsics by name.

use gpucc::compiler::{CompileError, CompileOptions, Compiler};
use gpucc::etnaviv::compiler::consts::UniformContent;
use gpucc::etnaviv::shader::ShaderObject;
use gpucc::etnaviv::sim::Machine;
use gpucc::etnaviv::specs::Specs;
use gpucc::program::Code;
use gpucc::verify::VerifyOutcome;

/// Two attributes (driver locations 0 and 1, so the id register is t2); outputs the position
/// and (float(vertex id), float(instance id), float(2 * vertex id + instance id), attr1.y).
const IDS_VS: &str = "shader: MESA_SHADER_VERTEX\nname: ids\ninputs: 2\noutputs: 2\nuniforms: 0\n\
decl_var shader_in INTERP_MODE_NONE none vec4 position (VERT_ATTRIB_GENERIC0.xyzw, 0, 0)\n\
decl_var shader_in INTERP_MODE_NONE none vec4 extra (VERT_ATTRIB_GENERIC1.xyzw, 1, 0)\n\
decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)\n\
decl_var shader_out INTERP_MODE_NONE none vec4 ids (VARYING_SLOT_VAR0.xyzw, 1, 0)\n\
decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)\n\
    32x4  %2 = @load_input (%0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC1 slots=1)\n\
    32    %3 = @load_vertex_id () ()\n\
    32    %4 = @load_instance_id () ()\n\
    32    %5 = iadd %3, %3\n\
    32    %6 = iadd %5, %4\n\
    32    %7 = i2f32 %3\n\
    32    %8 = i2f32 %4\n\
    32    %9 = i2f32 %6\n\
    32x4  %10 = vec4 %7, %8, %9, %2.y\n\
    32    %11 = deref_var &gl_Position (shader_out vec4)\n\
               @store_deref (%11, %1) (wrmask=xyzw, access=none)\n\
    32    %12 = deref_var &ids (shader_out vec4)\n\
               @store_deref (%12, %10) (wrmask=xyzw, access=none)\n\
               // succs: b1 \n    block b1:\n}\n";

fn parse(text: &str) -> gpucc::nir::Shader {
    gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn object(target: &str, text: &str) -> Result<ShaderObject, CompileError> {
    let p = Compiler::new(target)
        .unwrap()
        .compile(&parse(text), &CompileOptions::default())?;
    match p.code {
        Code::Etnaviv(o) => Ok(o),
        Code::Intel(_) => panic!("{target} is a Vivante target"),
    }
}

/// Runs the program once: attribute at driver location s holds `attr(s)`, the id register
/// (vertex id, instance id, 0, 0). Returns output `slot` (VARYING_SLOT driver location).
fn run(core: &str, obj: &ShaderObject, vertex_id: u32, instance_id: u32, slot: u32) -> [f32; 4] {
    let mut m = Machine::new(Specs::from_name(core).unwrap());
    for (i, contents) in obj.uniforms.iter().enumerate() {
        let v = contents.map(|c| match c {
            UniformContent::Const(b) => b,
            UniformContent::Unused => 0,
            other => panic!("uniform {other:?} is not modelled by this test"),
        });
        m.set_uniform_bits(i, v);
    }
    for io in &obj.inputs {
        m.set_temp(usize::from(io.reg), attr(io.slot));
    }
    let reg = obj.vs_id_in_reg.expect("the program reads the ids");
    m.set_temp_bits(usize::from(reg), [vertex_id, instance_id, 0, 0]);
    m.run(&obj.insts).unwrap();
    let out = obj.outputs.iter().find(|o| o.slot == slot).expect("output");
    m.temp(usize::from(out.reg))
}

fn attr(s: u32) -> [f32; 4] {
    let s = s as f32;
    [1.0 + s, 0.25 + s, -0.5, 2.0]
}

#[test]
fn ids_come_from_the_register_after_the_attributes() {
    for core in ["gc3000", "gc7000"] {
        let obj = object(core, IDS_VS).unwrap();
        // Two attribute registers, t0 and t1: the ids are in t2, as Mesa's infile.num_reg.
        assert_eq!(obj.inputs.len(), 2, "{core}");
        assert_eq!(obj.vs_id_in_reg, Some(2), "{core}");
        // Vertex 7 of instance 3: (7, 3, 2 * 7 + 3 = 17, attribute 1's y = 1.25).
        assert_eq!(run(core, &obj, 7, 3, 1), [7.0, 3.0, 17.0, 1.25], "{core}");
        assert_eq!(run(core, &obj, 7, 3, 0), attr(0), "{core}");
        assert_eq!(run(core, &obj, 0, 11, 1), [0.0, 11.0, 11.0, 1.25], "{core}");
        // The interpreter, with vertex ids past a first vertex, agrees on every set.
        assert_eq!(
            Compiler::new(core).unwrap().verify(&parse(IDS_VS), &[]),
            VerifyOutcome::Pass,
            "{core}"
        );
    }
}

#[test]
fn a_shader_without_ids_has_no_id_register() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("examples/etnaviv/transform.vs.nir")).unwrap();
    assert_eq!(object("gc7000", &text).unwrap().vs_id_in_reg, None);
}

#[test]
fn cores_before_halti2_refuse_the_ids_by_name() {
    for core in ["gc400", "gc2000"] {
        let e = object(core, IDS_VS).unwrap_err();
        assert!(
            matches!(e, CompileError::Unsupported(_))
                && e.to_string().contains("load_vertex_id")
                && e.to_string().contains("HALTI2"),
            "{core}: {e}"
        );
    }
}
