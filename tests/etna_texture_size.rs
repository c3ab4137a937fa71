//! `load_texture_size_etna`, which Mesa's etnaviv makes of `txs` before the hand-over
//! (`etna_nir_lower_texture`): the texture's width, height and depth as integers in a uniform
//! slot the driver fills (`ETNA_UNIFORM_TEXTURE_WIDTH`, `_HEIGHT`, `_DEPTH`). Cores without
//! integers refuse it by name.

use gpucc::compiler::{CompileError, CompileOptions, Compiler};
use gpucc::etnaviv::compiler::consts::UniformContent;
use gpucc::etnaviv::shader::ShaderObject;
use gpucc::etnaviv::sim::Machine;
use gpucc::etnaviv::specs::Specs;
use gpucc::program::{Code, EtnaUniform};
use gpucc::verify::VerifyOutcome;

/// gl_FragColor = vec4(textureSize(tex 1)) with w = 1.0: the x, y, z of the size converted to
/// floats.
const SIZE_FS: &str =
    "shader: MESA_SHADER_FRAGMENT\nname: size\ninputs: 0\noutputs: 1\nuniforms: 0\n\
decl_var uniform INTERP_MODE_NONE none sampler2DArray tex (0, 0, 1)\n\
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
    32    %0 = load_const (0x00000001)\n\
    32x3  %1 = @load_texture_size_etna (%0 (0x1)) ()\n\
    32    %2 = i2f32 %1.x\n\
    32    %3 = i2f32 %1.y\n\
    32    %4 = i2f32 %1.z\n\
    32    %5 = load_const (0x3f800000)\n\
    32x4  %6 = vec4 %2, %3, %4, %5\n\
    32    %7 = deref_var &gl_FragColor (shader_out vec4)\n\
               @store_deref (%7, %6) (wrmask=xyzw, access=none)\n\
               // succs: b1 \n    block b1:\n}\n";

fn parse(text: &str) -> gpucc::nir::Shader {
    gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn object(target: &str) -> Result<(gpucc::program::Program, ShaderObject), CompileError> {
    let p = Compiler::new(target)
        .unwrap()
        .compile(&parse(SIZE_FS), &CompileOptions::default())?;
    let o = match &p.code {
        Code::Etnaviv(o) => o.clone(),
        Code::Intel(_) => panic!("{target} is a Vivante target"),
    };
    Ok((p, o))
}

#[test]
fn texture_size_comes_from_driver_uniforms() {
    for core in ["gc3000", "gc7000"] {
        let (program, obj) = object(core).unwrap();
        // The program describes one slot with the three sizes of unit 1 in x, y, z.
        let sizes: Vec<(usize, EtnaUniform)> = program
            .etna_uniforms()
            .into_iter()
            .enumerate()
            .filter(|(_, u)| matches!(u, EtnaUniform::TextureSize { .. }))
            .collect();
        assert_eq!(sizes.len(), 3, "{core}: {sizes:?}");
        let slot = sizes[0].0 / 4;
        for (k, (i, u)) in sizes.iter().enumerate() {
            assert_eq!(*i, 4 * slot + k, "{core}");
            assert_eq!(
                *u,
                EtnaUniform::TextureSize {
                    unit: 1,
                    comp: k as u32
                },
                "{core}"
            );
        }
        // A 64 x 32 texture of 6 layers, as the driver would fill the slot: the colour is
        // (64.0, 32.0, 6.0, 1.0).
        let mut m = Machine::new(Specs::from_name(core).unwrap());
        for (i, contents) in obj.uniforms.iter().enumerate() {
            let v = contents.map(|c| match c {
                UniformContent::Const(b) => b,
                UniformContent::TextureSize { unit: 1, comp } => [64, 32, 6][comp as usize],
                UniformContent::Unused => 0,
                other => panic!("uniform {other:?} is not modelled by this test"),
            });
            m.set_uniform_bits(i, v);
        }
        m.set_temp(0, [0.5, 0.5, 0.5, 1.0]);
        assert!(!m.run(&obj.insts).unwrap().killed);
        let colour = m.temp(usize::from(obj.ps_color_out_reg.expect("writes colour")));
        assert_eq!(colour, [64.0, 32.0, 6.0, 1.0], "{core}");
        // The interpreter's textures (16 x 16 x 4) on every verify set agree.
        assert_eq!(
            Compiler::new(core).unwrap().verify(&parse(SIZE_FS), &[]),
            VerifyOutcome::Pass,
            "{core}"
        );
    }
}

#[test]
fn cores_without_integers_refuse_texture_sizes_by_name() {
    for core in ["gc400", "gc2000"] {
        let e = object(core).map(|_| ()).unwrap_err();
        assert!(
            matches!(e, CompileError::Unsupported(_))
                && e.to_string().contains("load_texture_size_etna"),
            "{core}: {e}"
        );
    }
}
