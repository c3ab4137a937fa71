//! One shader invocation's state: the register files, memory and sampler that instructions
//! read and write. Execution ([`super::alu`] per instruction, the run loop in [`super`])
//! works on it.

use super::sampler::{DefaultSampler, Sampler};
use crate::etnaviv::specs::Specs;

/// Temporaries addressable by the 7-bit destination field.
pub const TEMP_COUNT: usize = 128;
/// Uniform slots the simulator holds (the 9-bit register field reaches 511; bank 1 starts at
/// 128, as Mesa 23.3's disassembler numbers it).
pub const UNIFORM_COUNT: usize = 1024;
/// Internal registers (`i` group) the simulator models.
pub const INTERNAL_COUNT: usize = 16;

/// One shader invocation's state.
pub struct Machine {
    pub specs: &'static Specs,
    pub temps: Vec<[u32; 4]>,
    pub uniforms: Vec<[u32; 4]>,
    pub internal: Vec<[u32; 4]>,
    /// The address register `a` (integer components).
    pub address: [i32; 4],
    /// Byte-addressed memory for LOAD/STORE, from address 0.
    pub memory: Vec<u8>,
    /// Read-only memory beyond `memory`: buffers at their GPU addresses, sorted by address
    /// (the simulated GPU gives a draw's shaders a snapshot of the submission's buffers, which
    /// a shader reaches through addresses the driver put in its uniforms). Shared by the
    /// machines of one draw.
    pub regions: std::sync::Arc<Vec<(u64, Vec<u8>)>>,
    /// Instructions after which a run gives up (guards against endless loops).
    pub max_steps: usize,
    /// Coordinates each texture unit takes (1–3; cube maps and arrays use 3).
    pub texture_dims: Vec<usize>,
    /// Out-of-range register reads and LOADs outside memory give zero instead of an error.
    /// What the hardware returns there is undefined (GLSL leaves out-of-bounds array reads
    /// undefined too); zero is what the NIR interpreter's robust access returns, and what a
    /// test that only checks such a read does not stop the program (piglit's array-bounds
    /// tests) needs.
    pub robust_reads: bool,
    sampler: Box<dyn Sampler>,
    /// The quad's coordinate differences (right minus left, upper minus lower) for the
    /// implicit-LOD texture instruction about to execute; set by [`run_quad`] and taken by that
    /// instruction, so a lone invocation samples with none (the sampler then uses LOD 0).
    pub(crate) quad_tex_derivatives: Option<([f64; 4], [f64; 4])>,
}

impl Machine {
    pub fn new(specs: &'static Specs) -> Machine {
        Machine {
            specs,
            temps: vec![[0; 4]; TEMP_COUNT],
            uniforms: vec![[0; 4]; UNIFORM_COUNT],
            internal: vec![[0; 4]; INTERNAL_COUNT],
            address: [0; 4],
            memory: Vec::new(),
            regions: Default::default(),
            max_steps: 1_000_000,
            texture_dims: vec![2; 32],
            robust_reads: false,
            sampler: Box::new(DefaultSampler),
            quad_tex_derivatives: None,
        }
    }

    pub fn set_sampler(&mut self, sampler: Box<dyn Sampler>) {
        self.sampler = sampler;
    }

    pub fn sampler(&self) -> &dyn Sampler {
        self.sampler.as_ref()
    }

    pub fn set_temp(&mut self, reg: usize, v: [f32; 4]) {
        self.temps[reg] = v.map(f32::to_bits);
    }

    pub fn set_temp_bits(&mut self, reg: usize, v: [u32; 4]) {
        self.temps[reg] = v;
    }

    pub fn set_temp_int(&mut self, reg: usize, v: [i32; 4]) {
        self.temps[reg] = v.map(|x| x as u32);
    }

    pub fn temp(&self, reg: usize) -> [f32; 4] {
        self.temps[reg].map(f32::from_bits)
    }

    pub fn temp_bits(&self, reg: usize) -> [u32; 4] {
        self.temps[reg]
    }

    pub fn temp_int(&self, reg: usize) -> [i32; 4] {
        self.temps[reg].map(|x| x as i32)
    }

    pub fn set_uniform(&mut self, index: usize, v: [f32; 4]) {
        self.uniforms[index] = v.map(f32::to_bits);
    }

    pub fn set_uniform_bits(&mut self, index: usize, v: [u32; 4]) {
        self.uniforms[index] = v;
    }
}
