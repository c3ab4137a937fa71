//! The fragment stage on the etnaviv simulator: our backend's program, run per pixel with the
//! hardware's payload: the fragment position in t0 and each varying in the register the
//! shader object names for its input slot. The simulator runs one pixel at a time, so
//! programs with derivatives are reported rather than run.

use crate::etnaviv::compiler::consts::UniformContent;
use crate::etnaviv::isa::Opcode;
use crate::etnaviv::shader::ShaderObject;
use crate::etnaviv::sim::Machine;
use crate::etnaviv::specs::Specs;
use crate::nir::interp::Sampler;

use super::texture::Bindings;

/// Runs `obj` for one pixel: `inputs` gives each input slot's four components, `words` the
/// default uniform block (dword per component of each vec4 slot). `None` when discarded.
pub fn shade(
    specs: &'static Specs,
    obj: &ShaderObject,
    words: &[u32],
    position: [f32; 4],
    input: impl Fn(u32) -> Option<[u32; 4]>,
    textures: &Bindings,
) -> Result<Option<[f32; 4]>, String> {
    if obj
        .insts
        .iter()
        .any(|i| matches!(i.opcode, Opcode::Dsx | Opcode::Dsy))
    {
        return Err(
            "derivatives need neighbouring pixels, which the simulator does not run".into(),
        );
    }
    let mut m = Machine::new(specs);
    m.set_sampler(Box::new(textures.clone()));
    for s in &obj.samplers {
        if let Some(d) = m.texture_dims.get_mut(s.unit as usize) {
            *d = usize::from(s.coord_dims);
        }
    }
    for (slot, contents) in obj.uniforms.iter().enumerate() {
        let mut v = [0u32; 4];
        for (c, content) in contents.iter().enumerate() {
            v[c] = match *content {
                UniformContent::User => words.get(4 * slot + c).copied().unwrap_or(0),
                UniformContent::Const(b) => b,
                UniformContent::TextureScale { unit, comp } => {
                    let size = textures.size(unit, 0);
                    (1.0 / size[usize::from(comp & 1)].max(1) as f32).to_bits()
                }
                UniformContent::Unused => 0,
            };
        }
        m.set_uniform_bits(slot, v);
    }
    for io in &obj.inputs {
        let v = input(io.slot).ok_or_else(|| format!("no value for input slot {}", io.slot))?;
        m.set_temp_bits(usize::from(io.reg), v);
    }
    m.set_temp(0, position);
    let out = m.run(&obj.insts).map_err(|e| format!("simulator: {e}"))?;
    if out.killed {
        return Ok(None);
    }
    let reg = obj
        .ps_color_out_reg
        .ok_or("the program writes no colour output")?;
    Ok(Some(m.temp_bits(usize::from(reg)).map(f32::from_bits)))
}
