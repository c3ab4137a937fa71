//! The vertex stage: one vertex shader thread per vertex, its inputs fetched by the front end
//! and its outputs collected in the order the primitive assembly reads them.
//!
//! Facts (Mesa 23.3 etnaviv_shader.c, etnaviv_emit.c, hw/state_3d.xml.h): VS_INPUT_COUNT
//! holds the input count in bits 3:0 and, in bit 31, that one more input after the vertex
//! elements carries the vertex id (x) and instance id (y); VS_INPUT (VS_HALTI5_INPUT on
//! HALTI5) names each input's temporary, a byte each. HALTI5 places the ids through
//! FE_HALTI5_ID_CONFIG instead: enables in bits 0 and 1 and each id's register component
//! (register × 4 + component) in bits 15:8 and 23:16. VS_OUTPUT_COUNT (VS_HALTI5_OUTPUT_COUNT
//! on HALTI5) counts the outputs and VS_OUTPUT (VS_HALTI5_OUTPUT) names their temporaries:
//! the position first, then one per varying, then the point size when the draw has one.
//! Mesa's vertex id is zero-based (`vertex_id_zero_based`): the model gives the index as
//! fetched for indexed draws and the vertex's position in the draw otherwise.

use crate::etnaviv::isa::Inst;
use crate::etnaviv::sim::Machine;

use super::super::memory::Memory;
use super::super::{Gpu, GpuError};
use super::fetch::{fetch_element, Element, Stream};
use super::program::Stage;
use super::reg;

/// A vertex after the vertex shader: every output register's four components, by output
/// index (0 is the position).
#[derive(Clone, Debug, PartialEq)]
pub struct ShadedVertex {
    pub outputs: Vec<[u32; 4]>,
}

impl ShadedVertex {
    pub fn position(&self) -> [f32; 4] {
        self.outputs
            .first()
            .copied()
            .unwrap_or_default()
            .map(f32::from_bits)
    }
}

/// What the vertex stage runs with for one draw.
pub struct VertexStage {
    insts: Vec<Inst>,
    /// Holds the uniform file between vertices (a shader cannot write it).
    machine: Machine,
    elements: Vec<Element>,
    streams: Vec<Stream>,
    /// Temporary of each input, elements first.
    input_regs: Vec<usize>,
    /// Component (register × 4 + component) of the vertex id and instance id.
    ids: Option<(usize, usize)>,
    output_regs: Vec<usize>,
}

/// Bytes 0.. of consecutive 32-bit states, four to a word.
fn byte_map(gpu: &Gpu, base: u32, n: usize) -> Vec<usize> {
    (0..n)
        .map(|i| ((gpu.states.at(base, i / 4) >> (8 * (i % 4))) & 0xff) as usize)
        .collect()
}

impl Gpu {
    pub(super) fn vertex_stage(&mut self, mem: &dyn Memory) -> Result<VertexStage, GpuError> {
        let halti5 = self.specs.halti() >= 5;
        let insts = self.program(mem, Stage::Vertex)?;
        let uniforms = self.uniform_file(Stage::Vertex);
        let input_count = self.states.get(reg::VS_INPUT_COUNT);
        let inputs = match input_count & 0xf {
            0 => 16,
            n => n as usize,
        };
        let id_input = input_count & (1 << 31) != 0;
        let input_regs = byte_map(
            self,
            if halti5 {
                reg::VS_HALTI5_INPUT
            } else {
                reg::VS_INPUT
            },
            inputs,
        );
        let element_count = inputs - usize::from(id_input);
        let ids = if halti5 {
            let c = self.states.get(reg::FE_HALTI5_ID_CONFIG);
            match c & 3 {
                0 => None,
                3 => Some((((c >> 8) & 0xff) as usize, ((c >> 16) & 0xff) as usize)),
                _ => {
                    self.unmodelled("only one of vertex id and instance id enabled");
                    Some((((c >> 8) & 0xff) as usize, ((c >> 16) & 0xff) as usize))
                }
            }
        } else if id_input {
            let r = input_regs[inputs - 1];
            Some((4 * r, 4 * r + 1))
        } else {
            None
        };
        let elements = self.vertex_elements(element_count);
        let streams = (0..8).map(|i| self.vertex_stream(i)).collect();
        let outputs = if halti5 {
            (self.states.get(reg::VS_HALTI5_OUTPUT_COUNT) & 0xff) as usize
        } else {
            (self.states.get(reg::VS_OUTPUT_COUNT) & 0xff) as usize
        };
        if outputs == 0 {
            return Err(GpuError::Unmodelled("vertex shader without outputs".into()));
        }
        let output_regs = byte_map(
            self,
            if halti5 {
                reg::VS_HALTI5_OUTPUT
            } else {
                reg::VS_OUTPUT
            },
            outputs,
        );
        let mut machine = Machine::new(self.specs);
        machine.regions = super::program::load_regions(&insts, mem);
        // What the hardware reads out of range is undefined; zero keeps a stray read from
        // stopping the draw.
        machine.robust_reads = true;
        for (slot, u) in machine.uniforms.iter_mut().zip(uniforms) {
            *slot = u;
        }
        let textures = self.texture_unit(mem, crate::etnaviv::gpu::texture::Stage::Vertex)?;
        super::shade::install_textures(&mut machine, &textures);
        Ok(VertexStage {
            insts,
            machine,
            elements,
            streams,
            input_regs,
            ids,
            output_regs,
        })
    }
}

impl VertexStage {
    /// Runs the shader for vertex `index` of instance `instance`; `vertex_id` is what the
    /// vertex id input receives.
    pub fn shade(
        &mut self,
        mem: &dyn Memory,
        index: u32,
        vertex_id: u32,
        instance: u32,
    ) -> Result<ShadedVertex, GpuError> {
        let m = &mut self.machine;
        for t in m.temps.iter_mut() {
            *t = [0; 4];
        }
        for i in m.internal.iter_mut() {
            *i = [0; 4];
        }
        m.address = [0; 4];
        for (e, &r) in self.elements.iter().zip(&self.input_regs) {
            let stream = &self.streams[e.stream];
            let at = instance.checked_div(stream.divisor).unwrap_or(index);
            let v = fetch_element(mem, e, stream, at)?;
            if let Some(t) = m.temps.get_mut(r) {
                *t = v;
            }
        }
        if let Some((vid, iid)) = self.ids {
            for (c, v) in [(vid, vertex_id), (iid, instance)] {
                if let Some(t) = m.temps.get_mut(c / 4) {
                    t[c % 4] = v;
                }
            }
        }
        m.run(&self.insts)
            .map_err(|e| GpuError::Unmodelled(format!("vertex shader: {e}")))?;
        Ok(ShadedVertex {
            outputs: self
                .output_regs
                .iter()
                .map(|&r| m.temps.get(r).copied().unwrap_or_default())
                .collect(),
        })
    }
}
