//! The fragment stage on the etnaviv simulator: our backend's program, run per 2×2 quad with
//! the hardware's payload: the fragment position in t0, each varying in the register the
//! shader object names for its input slot, the front-facing bit in i0, and the default
//! uniform block both in the uniform registers and, for LOAD, as uniform buffer 0 in memory.

use std::collections::BTreeMap;

use crate::etnaviv::compiler::consts::UniformContent;
use crate::etnaviv::compiler::verify::UBO_ADDRESS;
use crate::etnaviv::shader::ShaderObject;
use crate::etnaviv::sim::{run_quad, Machine};
use crate::etnaviv::specs::Specs;

use crate::nir::interp::Sampler;

use super::texture::Bindings;

/// One pixel of a quad: what the rasterizer hands the shader.
pub struct Invocation<'a> {
    pub position: [f32; 4],
    pub front_facing: bool,
    /// Each input slot's four components.
    pub inputs: &'a BTreeMap<u32, [u32; 4]>,
}

/// Runs `obj` on one quad (pixel `i` at `(i & 1, i >> 1)`); `words` is the default uniform
/// block (dword per component of each vec4 slot). Per pixel the colour, `None` when
/// discarded.
pub fn shade_quad(
    specs: &'static Specs,
    obj: &ShaderObject,
    words: &[u32],
    quad: &[Invocation],
    textures: &Bindings,
) -> Result<Vec<Option<[f32; 4]>>, String> {
    let reg = obj
        .ps_color_out_reg
        .ok_or("the program writes no colour output")?;
    let mut machines = Vec::with_capacity(quad.len());
    for inv in quad {
        let mut m = Machine::new(specs);
        // piglit's array-bounds tests read out of bounds and only check that the program
        // goes on.
        m.robust_reads = true;
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
                    UniformContent::UboAddress(_) => UBO_ADDRESS,
                    UniformContent::TextureScale { unit, comp } => {
                        let size = textures.size(unit, 0);
                        (1.0 / size[usize::from(comp & 1)].max(1) as f32).to_bits()
                    }
                    UniformContent::Unused => 0,
                };
            }
            m.set_uniform_bits(slot, v);
        }
        m.memory = vec![0; UBO_ADDRESS as usize];
        m.memory.extend(words.iter().flat_map(|w| w.to_le_bytes()));
        for io in &obj.inputs {
            let v = inv
                .inputs
                .get(&io.slot)
                .ok_or_else(|| format!("no value for input slot {}", io.slot))?;
            m.set_temp_bits(usize::from(io.reg), *v);
        }
        m.set_temp(0, inv.position);
        m.set_front_face(inv.front_facing);
        machines.push(m);
    }
    let outcomes = run_quad(&mut machines, &obj.insts).map_err(|e| format!("simulator: {e}"))?;
    Ok(machines
        .iter()
        .zip(outcomes)
        .map(|(m, o)| (!o.killed).then(|| m.temp_bits(usize::from(reg)).map(f32::from_bits)))
        .collect())
}
