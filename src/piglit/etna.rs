//! The vertex and fragment stages on the etnaviv simulator. A vertex program runs once per
//! vertex with its attributes in the registers the program names and its outputs read back
//! from the registers it names for them. A fragment program runs per 2×2 quad with the
//! hardware's payload: the fragment position in t0, each varying in the register the
//! shader object names for its input slot, the front-facing bit in i0, and the default
//! uniform block both in the uniform registers and, for LOAD, as uniform buffer 0 in memory.

use std::collections::BTreeMap;

use crate::etnaviv::compiler::verify::UBO_ADDRESS;
use crate::etnaviv::isa;
use crate::etnaviv::sim::{run_quad, Machine};
use crate::etnaviv::specs::Specs;
use crate::program::{BindingKind, EtnaUniform, Program};

use crate::nir::interp::Sampler;

use super::texture::Bindings;

/// One pixel of a quad: what the rasterizer hands the shader.
pub struct Invocation<'a> {
    pub position: [f32; 4],
    pub front_facing: bool,
    /// Each input slot's four components.
    pub inputs: &'a BTreeMap<u32, [u32; 4]>,
}

/// A fragment program as the hardware holds it: the program object and its instructions,
/// decoded once from the program's bytes.
pub struct Loaded {
    program: Box<Program>,
    insts: Vec<isa::Inst>,
}

impl Loaded {
    pub fn new(program: Program) -> Result<Loaded, String> {
        let words = isa::words_from_bytes(&program.bytes).map_err(|e| e.to_string())?;
        let insts = words
            .into_iter()
            .map(isa::decode)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("decode: {e:?}"))?;
        Ok(Loaded {
            program: Box::new(program),
            insts,
        })
    }
}

/// The uniform file as a driver fills it from the program's description; `words` is the
/// default uniform block.
fn uniform_file(program: &Program, words: &[u32], textures: &Bindings) -> Vec<u32> {
    program
        .etna_uniforms()
        .iter()
        .map(|u| match *u {
            EtnaUniform::User { index } => words.get(index as usize).copied().unwrap_or(0),
            EtnaUniform::Constant(b) => b,
            EtnaUniform::UboAddress { .. } => UBO_ADDRESS,
            EtnaUniform::TextureScale { unit, comp } => {
                let size = textures.size(unit, 0);
                (1.0 / size[(comp & 1) as usize].max(1) as f32).to_bits()
            }
            EtnaUniform::TextureSize { unit, comp } => {
                textures.size(unit, 0)[(comp as usize).min(2)]
            }
            EtnaUniform::Unused => 0,
        })
        .collect()
}

/// Why the loaded vertex program cannot run on the simulator's vertex stage here, if it
/// cannot: vertex texture units sit after the fragment ones and the runner's texture
/// bindings are not mapped there.
pub fn vertex_unsupported(loaded: &Loaded) -> Option<String> {
    loaded
        .program
        .bindings()
        .iter()
        .any(|b| b.kind == BindingKind::Texture)
        .then(|| "vertex texture units are not bound on the simulator".to_string())
}

/// Runs the loaded vertex program once per vertex, as the hardware runs a vertex thread:
/// each attribute (by driver location, `inputs`) in the register the program names for it,
/// the uniform file filled from `words` (the default uniform block). Per vertex, each output
/// register's four components by driver location.
pub fn run_vertices(
    specs: &'static Specs,
    loaded: &Loaded,
    inputs: &[BTreeMap<u32, [u32; 4]>],
    words: &[u32],
    textures: &Bindings,
) -> Result<Vec<BTreeMap<u32, [u32; 4]>>, String> {
    let program = &loaded.program;
    let uniforms = uniform_file(program, words, textures);
    let regs_in = program.etna_inputs();
    let regs_out = program.etna_outputs();
    inputs
        .iter()
        .map(|vertex| {
            let mut m = Machine::new(specs);
            m.robust_reads = true;
            for (slot, v) in uniforms.chunks_exact(4).enumerate() {
                m.set_uniform_bits(slot, [v[0], v[1], v[2], v[3]]);
            }
            m.memory = vec![0; UBO_ADDRESS as usize];
            m.memory.extend(words.iter().flat_map(|w| w.to_le_bytes()));
            for io in &regs_in {
                let v = vertex
                    .get(&io.location)
                    .ok_or_else(|| format!("no value for attribute slot {}", io.location))?;
                m.set_temp_bits(io.reg as usize, *v);
            }
            m.run(&loaded.insts).map_err(|e| e.to_string())?;
            Ok(regs_out
                .iter()
                .map(|io| (io.location, m.temp_bits(io.reg as usize)))
                .collect())
        })
        .collect()
}

/// Runs the loaded program on one quad (pixel `i` at `(i & 1, i >> 1)`); `words` is the
/// default uniform block (dword per component of each vec4 slot). Per pixel the colour,
/// `None` when discarded.
pub fn shade_quad(
    specs: &'static Specs,
    loaded: &Loaded,
    words: &[u32],
    quad: &[Invocation],
    textures: &Bindings,
) -> Result<Vec<Option<[f32; 4]>>, String> {
    let program = &loaded.program;
    let info = program.etna_info().ok_or("not a Vivante program")?;
    let reg = info
        .ps_color_out_reg
        .ok_or("the program writes no colour output")?;
    let uniforms = uniform_file(program, words, textures);
    let inputs = program.etna_inputs();
    let mut machines = Vec::with_capacity(quad.len());
    for inv in quad {
        let mut m = Machine::new(specs);
        // piglit's array-bounds tests read out of bounds and only check that the program
        // goes on.
        m.robust_reads = true;
        m.set_sampler(Box::new(textures.clone()));
        // The sampler state's texture type comes from the bound texture, as a driver
        // programs it.
        for b in program.bindings() {
            if b.kind != BindingKind::Texture {
                continue;
            }
            if let (Some(d), Some(dims)) = (
                m.texture_dims.get_mut(b.slot as usize),
                textures.dims(b.slot),
            ) {
                *d = dims;
            }
        }
        for (slot, v) in uniforms.chunks_exact(4).enumerate() {
            m.set_uniform_bits(slot, [v[0], v[1], v[2], v[3]]);
        }
        m.memory = vec![0; UBO_ADDRESS as usize];
        m.memory.extend(words.iter().flat_map(|w| w.to_le_bytes()));
        for io in &inputs {
            let v = inv
                .inputs
                .get(&io.location)
                .ok_or_else(|| format!("no value for input slot {}", io.location))?;
            m.set_temp_bits(io.reg as usize, *v);
        }
        m.set_temp(0, inv.position);
        m.set_front_face(inv.front_facing);
        machines.push(m);
    }
    let outcomes = run_quad(&mut machines, &loaded.insts).map_err(|e| format!("simulator: {e}"))?;
    Ok(machines
        .iter()
        .zip(outcomes)
        .map(|(m, o)| (!o.killed).then(|| m.temp_bits(reg as usize).map(f32::from_bits)))
        .collect())
}
