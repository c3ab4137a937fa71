//! What a shader run sees from outside (the [`Environment`]) and what it leaves behind
//! ([`RunResult`]).

pub use super::output::OutputSlot;
use super::sampler::{DefaultSampler, Sampler};
use std::collections::BTreeMap;

/// Inputs, buffers and system values for a run of N invocations.
///
/// Invocations are laid out as 2×2 quads in a row of quads: invocation `i` is pixel
/// `(2 * (i / 4) + (i & 1), (i >> 1) & 1)` (see [`pixel`]), so invocations `4q..4q+3` form a
/// quad for derivatives. For compute shaders the invocations are one workgroup, and invocation
/// `i` has local id `(i, 0, 0)`.
pub struct Environment {
    /// Push constants (`load_uniform`, `load_push_constant`).
    pub uniforms: Vec<u8>,
    /// Bytes per unit of `load_uniform`'s base and offset: 16 for the vec4 slots of Gallium's
    /// etnaviv path (the default), 1 for byte-addressed drivers.
    pub uniform_unit: u32,
    /// `load_uniform` offsets are floats (Vivante cores without integer support, like GC2000).
    pub float_uniform_offsets: bool,
    /// Boolean system values wider than one bit are 1.0 / 0.0 floats, as on Vivante cores:
    /// Mesa's etnaviv reads a 32-bit `load_front_face`, the register the core fills with 1.0
    /// or 0.0, and compares it with zero itself. Otherwise they are ~0 / 0 integers
    /// (`nir_lower_bool_to_int32`).
    pub float_booleans: bool,
    /// Uniform buffers by block index (`load_ubo`, byte offsets).
    pub ubos: Vec<Vec<u8>>,
    /// Storage buffers by block index; written back into [`RunResult::ssbos`].
    pub ssbos: Vec<Vec<u8>>,
    /// Workgroup-shared memory (one workgroup).
    pub shared: Vec<u8>,
    /// The shader's constant data, at global address [`Environment::constant_data_address`]
    /// (`load_global_constant`; `load_constant` offsets are relative to its start).
    pub constant_data: Vec<u8>,
    /// Where the constant data sits in the global address space: what
    /// `load_reloc_const_intel` returns for param_idx 0 (low 32 bits) and 1 (high 32 bits),
    /// as a driver patches the relocations of an Intel program.
    pub constant_data_address: u64,
    /// Per invocation: input slot (driver location, `base + offset`) to 4 components of raw
    /// 32-bit values. Missing slots use [`generated_input`] when `generate_inputs` is set and
    /// are an error otherwise.
    pub inputs: Vec<BTreeMap<u32, [u32; 4]>>,
    pub generate_inputs: bool,
    /// Per-invocation `gl_FragCoord`; defaults to the pixel centre `(x + .5, y + .5, .5, 1)`.
    pub frag_coord: Option<Vec<[f32; 4]>>,
    /// Per-invocation front-facing flag; defaults to true.
    pub front_face: Option<Vec<bool>>,
    /// The bits every component of an undefined value (`undef`, a register read before any
    /// write, an integer division by zero when not 0) holds. Running twice with different bits shows which results depend on
    /// undefined values: the hardware leaves whatever the register held.
    pub undefined_bits: u64,
    /// Per-invocation draw parameters of a vertex shader; when empty, vertex ids are the
    /// invocation index and every other parameter is zero.
    pub draw_parameters: Vec<DrawParameters>,
    /// Per invocation of a geometry shader: its primitive's vertices, primitive id and
    /// invocation id (see [`super::gs`]); empty for other stages.
    pub geometry: Vec<super::gs::GeometryLane>,
    pub workgroup_id: [u32; 3],
    /// Tessellation-evaluation runs: each invocation's domain point and the patch's
    /// primitive id (see [`super::tess`]).
    pub tess: super::tess::TessDomain,
    /// A tessellation-control run: the invocations are one patch's, and their outputs are
    /// one patch URB entry they all write and read back (see [`super::tcs`]), returned in
    /// [`RunResult::patch`] rather than per invocation. Per-vertex inputs, the primitive id
    /// and the invocation ids come from [`Environment::geometry`], one lane per invocation.
    pub tess_ctrl: bool,
    pub workgroup_size: [u32; 3],
    /// Channels per hardware thread of the program being checked (0: not known). Intel's
    /// compute hand-over reads it (`load_simd_width_intel`), with `load_subgroup_id` and
    /// `load_subgroup_invocation`: invocation `i` runs in subgroup `i / width`, channel
    /// `i % width`, as a driver dispatches a workgroup's threads.
    pub simd_width: u32,
    /// The invocations the hardware starts (empty: all of them). A fragment thread whose
    /// dispatch leaves pixels out runs subgroup operations over the others only; the
    /// invocations left out produce nothing.
    pub dispatched: Vec<bool>,
    pub sampler: Box<dyn Sampler>,
    /// Out-of-bounds buffer, uniform and register accesses read zero and drop writes (as with
    /// robust buffer access) instead of failing the run. Meant for runs on synthetic data,
    /// where indices computed from made-up uniforms cannot respect the application's bounds.
    pub robust_access: bool,
    /// Instructions executed (per lockstep step) before the run is abandoned as looping.
    pub step_limit: u64,
    /// Error added to every inexact operation (none by default): how a check finds the
    /// results that the hardware's rounding decides (see [`super::math_error`]).
    pub math_error: Option<super::MathError>,
}

impl Default for Environment {
    fn default() -> Self {
        Environment {
            uniforms: Vec::new(),
            uniform_unit: 16,
            float_uniform_offsets: false,
            float_booleans: false,
            ubos: Vec::new(),
            ssbos: Vec::new(),
            shared: Vec::new(),
            constant_data: Vec::new(),
            constant_data_address: 0,
            inputs: Vec::new(),
            generate_inputs: true,
            frag_coord: None,
            front_face: None,
            draw_parameters: Vec::new(),
            geometry: Vec::new(),
            undefined_bits: 0,
            workgroup_id: [0; 3],
            tess: Default::default(),
            tess_ctrl: false,
            workgroup_size: [1; 3],
            simd_width: 0,
            dispatched: Vec::new(),
            sampler: Box::new(DefaultSampler),
            robust_access: false,
            step_limit: 1_000_000,
            math_error: None,
        }
    }
}

/// What a vertex shader invocation knows about its draw (GL's draw parameters and ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawParameters {
    /// `gl_BaseVertex` / the first vertex of the draw (`load_first_vertex`,
    /// `load_base_vertex`).
    pub first_vertex: u32,
    /// `gl_BaseInstance`.
    pub base_instance: u32,
    /// The vertex index counted from the first vertex (`load_vertex_id_zero_base`);
    /// `gl_VertexID` is `first_vertex` plus this.
    pub vertex_id_zero_base: u32,
    /// `gl_InstanceID`.
    pub instance_id: u32,
    /// `gl_DrawID`.
    pub draw_id: u32,
    /// The draw is indexed (`load_is_indexed_draw`: ~0 or 0).
    pub is_indexed_draw: bool,
}

/// Pixel coordinates of invocation `i` (2×2 quads side by side).
pub fn pixel(i: usize) -> (u32, u32) {
    (2 * (i / 4) as u32 + (i & 1) as u32, ((i >> 1) & 1) as u32)
}

/// The default value of a missing input: component `c` of slot `s` at pixel `(x, y)` is the
/// float `0.5 + s / 4 + c / 16 + x / 8 + y / 32`, linear in x and y so that derivatives of
/// inputs are the constants 1/8 and 1/32. Inputs read as integers get `(x + y + c) % 2`
/// instead, small enough to be a valid index.
pub fn generated_input(inv: usize, slot: u32, comp: u32, integer: bool) -> u32 {
    let (x, y) = pixel(inv);
    if integer {
        return (x + y + comp) % 2;
    }
    let v = 0.5 + slot as f32 / 4.0 + comp as f32 / 16.0 + x as f32 / 8.0 + y as f32 / 32.0;
    v.to_bits()
}

/// Results of one invocation.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct InvocationResult {
    /// Output slot (driver location) to its components.
    pub outputs: BTreeMap<u32, OutputSlot>,
    /// The invocation was discarded / terminated (fragment shaders).
    pub discarded: bool,
    /// What a geometry-shader invocation emitted (empty for other stages).
    pub geometry: super::gs::GeometryOutput,
}

/// Everything a run produced.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RunResult {
    pub invocations: Vec<InvocationResult>,
    pub ssbos: Vec<Vec<u8>>,
    pub shared: Vec<u8>,
    /// Lockstep instruction steps executed.
    pub steps: u64,
    /// A tessellation-control run's patch URB entry: slot (`base + offset`) to what the
    /// invocations left in it (see [`Environment::tess_ctrl`]); empty for other stages.
    pub patch: BTreeMap<u32, OutputSlot>,
}
