//! The program object the Intel backend returns: machine code for each compiled SIMD width and
//! everything a driver needs to bind it (Mesa's `brw_wm_prog_data` facts), plus statistics
//! printed with Mesa's wording so results compare line by line.

use std::fmt;

use crate::intel::eu;
use crate::intel::vue::VueMap;
use crate::intel::DevInfo;

/// The dispatch "width" of a SIMD4x2 (vec4) kernel, in [`SimdKernel::simd`] and
/// [`Stats::simd`]: Gen7 vertex threads run two vertices of four components each, every
/// instruction align16 with swizzles and write masks (Mesa's vec4 backend). A harness that
/// runs such a kernel loads vertex 0's attributes in channels 0-3 and vertex 1's in 4-7 of
/// each attribute register.
pub const SIMD4X2: u32 = 4;

/// Statistics of one SIMD variant, as Mesa's `brw_compile_stats`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Dispatch width, or [`SIMD4X2`].
    pub simd: u32,
    /// Hardware instructions.
    pub instructions: u32,
    /// Loops (WHILE instructions).
    pub loops: u32,
    /// Estimated cycles from the latency model in `fs::stats`.
    pub cycles: u32,
    /// Spill instructions.
    pub spills: u32,
    /// Fill instructions.
    pub fills: u32,
    /// SEND instructions.
    pub sends: u32,
    /// Bytes before compaction.
    pub bytes_uncompacted: u32,
    /// Bytes after compaction.
    pub bytes: u32,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = (100 * self.bytes_uncompacted.saturating_sub(self.bytes))
            .checked_div(self.bytes_uncompacted)
            .unwrap_or(0);
        // Mesa's vec4 generator (brw_vec4_generator.cpp; only vertex shaders reach the vec4
        // backend here) words its line like the scalar one without the scheduling part.
        let (head, sched) = if self.simd == SIMD4X2 {
            ("VS vec4 shader".to_string(), "")
        } else {
            (
                format!("SIMD{} shader", self.simd),
                ", scheduled with mode none. Promoted 0 constants",
            )
        };
        write!(
            f,
            "{head}: {} instructions. {} loops. {} cycles. {}:{} spills:fills, {} sends{sched}. \
             Compacted {} to {} bytes ({}%)",
            self.instructions,
            self.loops,
            self.cycles,
            self.spills,
            self.fills,
            self.sends,
            self.bytes_uncompacted,
            self.bytes,
            pct
        )
    }
}

/// One compiled dispatch width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimdKernel {
    /// 8, 16 or 32; [`SIMD4X2`] for a vec4 kernel.
    pub simd: u32,
    /// Byte offset of this variant's first instruction in [`Kernel::code`].
    pub offset: u32,
    /// Size of this variant in bytes.
    pub size: u32,
    /// First GRF after the fixed thread payload (where push constants start).
    pub dispatch_grf_start: u32,
    /// GRFs used (one past the highest register touched).
    pub grfs_used: u32,
    /// Statistics.
    pub stats: Stats,
    /// Scratch bytes per thread this variant's spills use.
    pub scratch_size: u32,
}

/// One input the shader reads, in attribute setup order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputSlot {
    /// NIR driver location (`base`).
    pub base: u32,
    /// Varying slot name (`VARYING_SLOT_VAR0`, ...).
    pub location: String,
    /// Constant (flat) interpolation.
    pub flat: bool,
    /// Interpolated without perspective correction (`noperspective`).
    pub noperspective: bool,
    /// The program reads the slot. Past 16 inputs the slots follow the previous stage's VUE
    /// map and can hold varyings the program ignores, or padding (`base` u32::MAX).
    pub read: bool,
}

/// Binding-table entries (and sampler states) a program's messages address, besides render
/// targets (0 .. `num_render_targets`) and pulled UBO blocks (`pull_constant_blocks`).
///
/// Texture indices are binding-table indices already: the NIR's `texture_index` is what the
/// driver assigned (as brw receives it from iris or crocus, after their binding-table setup).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SurfaceUse {
    /// Binding-table indices of sampled surfaces (each element of an indexed sampler array).
    pub textures: std::collections::BTreeSet<u32>,
    /// Sampler state indices.
    pub samplers: std::collections::BTreeSet<u32>,
    /// SSBO blocks, at binding-table index `SSBO_SURFACE_BASE + block`.
    pub ssbo_blocks: std::collections::BTreeSet<u32>,
}

/// Compute-shader dispatch facts (Mesa's `brw_cs_prog_data`); the push layout and the CURBE
/// contents that follow from them are in `intel::cs_dispatch`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComputeInfo {
    /// Dispatch width: the widest variant compiled, the one a dispatch runs.
    pub simd: u32,
    /// Workgroup size.
    pub local_size: [u32; 3],
    /// Shared memory bytes.
    pub shared_size: u32,
    /// The kernel synchronises its workgroup with gateway barriers: the interface
    /// descriptor must enable the barrier (Mesa's `uses_barrier`).
    pub uses_barrier: bool,
    /// How the push data (CURBE) is laid out: which binding model the kernel was built for.
    pub push_layout: CsPushLayout,
}

/// The two compute push layouts (`intel::cs_dispatch` builds the bytes of each).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CsPushLayout {
    /// gpucc's own binding model: each thread's block holds its local invocation ids (one
    /// register each of x, y and z per 8 channels), then the pushed uniform dwords; nothing
    /// is cross-thread.
    #[default]
    LocalIds,
    /// Mesa's binding model, as brw lays it out before Gen12.5: the params are the pushed
    /// uniform dwords then the subgroup id (`BRW_PARAM_BUILTIN_SUBGROUP_ID`, last); the
    /// shader computes its local ids from the subgroup id and its channel. With
    /// `cross_thread` (Gen7.5 and later) every whole register before the subgroup id's is
    /// cross-thread data and the subgroup id's register is per-thread; without it (Gen7)
    /// every param is per-thread (brw's `cs_fill_push_const_info`).
    SubgroupId { cross_thread: bool },
}

/// What one dword of a compute kernel's params holds (an entry of Mesa's
/// `brw_stage_prog_data::param`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsParam {
    /// Dword `offset / 4` of UBO `block` (the block operand of the shader's `load_ubo`).
    Uniform { block: u32, offset: u32 },
    /// The thread's index in its workgroup (`BRW_PARAM_BUILTIN_SUBGROUP_ID`): thread t of a
    /// workgroup gets t.
    SubgroupId,
}

/// What a driver needs to run a vertex shader (Mesa's `brw_vs_prog_data` and
/// `brw_vue_prog_data`): 3DSTATE_VS, the vertex elements and the SBE setup of the next stage.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VertexInfo {
    /// The output layout.
    pub vue_map: VueMap,
    /// `VERT_ATTRIB` bits of the attributes read (Mesa's `inputs_read`).
    pub inputs_read: u64,
    /// The draw-parameter element is pushed; which of its components are read.
    pub uses_first_vertex: bool,
    /// See `uses_first_vertex`.
    pub uses_base_instance: bool,
    /// See `uses_first_vertex`.
    pub uses_vertex_id: bool,
    /// See `uses_first_vertex`.
    pub uses_instance_id: bool,
    /// The draw-id element is pushed (draw id in x, is-indexed-draw in y).
    pub uses_draw_id: bool,
    /// Vertex elements pushed (Mesa's `nr_attribute_slots`).
    pub nr_attribute_slots: u32,
    /// `gl_ClipDistance` elements written, as a mask (`clip_distance_mask`: the low
    /// `clip_distance_array_size` bits).
    pub clip_distance_mask: u8,
    /// `gl_CullDistance` elements written (`cull_distance_mask`: after the clip distances).
    pub cull_distance_mask: u8,
}

impl VertexInfo {
    /// 3DSTATE_VS "Vertex URB Entry Read Length": pairs of pushed elements, at least one
    /// (Mesa's `urb_read_length`).
    pub fn urb_read_length(&self) -> u32 {
        self.nr_attribute_slots.max(1).div_ceil(2)
    }

    /// URB entry size in 64-byte units: the entry holds the pushed elements first and the
    /// outputs after the shader overwrites them, so it is the larger of the two (Mesa's
    /// `urb_entry_size` on Gen7+).
    pub fn urb_entry_size(&self) -> u32 {
        self.nr_attribute_slots
            .max(self.vue_map.num_slots())
            .div_ceil(4)
    }

    /// Index of the draw-parameter element, if pushed.
    pub fn draw_params_element(&self) -> Option<u32> {
        let any = self.uses_first_vertex
            || self.uses_base_instance
            || self.uses_vertex_id
            || self.uses_instance_id;
        any.then(|| self.inputs_read.count_ones())
    }

    /// Index of the draw-id element, if pushed.
    pub fn draw_id_element(&self) -> Option<u32> {
        self.uses_draw_id
            .then(|| self.inputs_read.count_ones() + self.draw_params_element().is_some() as u32)
    }
}

/// Program flags the driver programs into WM state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags {
    /// The shader can discard pixels.
    pub uses_kill: bool,
    /// The shader writes depth.
    pub computes_depth: bool,
    /// The shader writes the sample mask.
    pub uses_omask: bool,
    /// Perspective pixel barycentrics are in the payload.
    pub bary_perspective_pixel: bool,
    /// Barycentric modes in the payload, bit n = Mesa's `brw_barycentric_mode` n
    /// (perspective pixel, centroid, sample, non-perspective pixel, centroid, sample), each
    /// taking two registers per 8 channels in that order (Mesa's `barycentric_interp_modes`).
    pub barycentric_modes: u8,
    /// Source depth and W are in the payload.
    pub uses_src_depth_w: bool,
    /// Bit per input slot that is flat shaded.
    pub flat_inputs: u64,
    /// Render target 0 blends with two source colours (Mesa's `dual_src_blend`): the driver
    /// must enable dual-source blending in the blend state.
    pub dual_source_blend: bool,
    /// The shader writes memory (SSBO, image or global stores and atomics; NIR's
    /// `writes_memory`, Mesa's `has_side_effects`): the driver must not skip it for pixels
    /// that write no colour.
    pub has_side_effects: bool,
    /// The shader asks for early depth and stencil tests (`early_fragment_tests`).
    pub early_fragment_tests: bool,
}

/// Relocation id of the low 32 bits of the constant data's GPU address (Mesa's
/// `BRW_SHADER_RELOC_CONST_DATA_ADDR_LOW`).
pub const RELOC_CONST_DATA_ADDR_LOW: u32 = 0;
/// Relocation id of the high 32 bits of the constant data's GPU address.
pub const RELOC_CONST_DATA_ADDR_HIGH: u32 = 1;

/// A 32-bit value in [`Kernel::code`] the driver must write before the code runs (Mesa's
/// `brw_shader_reloc`), such as the address where it placed the shader's constant data.
///
/// Every relocation is of Mesa's 32-bit kind: `offset` is the byte offset of the dword
/// itself (for a relocated MOV, the immediate in bytes 12..16 of the uncompacted
/// instruction), so patching needs no knowledge of the instruction set: store
/// `value + delta` there, little-endian.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reloc {
    /// What value goes there ([`RELOC_CONST_DATA_ADDR_LOW`], ...).
    pub id: u32,
    /// Byte offset of the dword in [`Kernel::code`].
    pub offset: u32,
    /// Added to the value before it is written.
    pub delta: u32,
}

/// A compiled shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    /// Platform it was compiled for.
    pub platform: &'static str,
    /// All variants' code, one after the other.
    pub code: Vec<u8>,
    /// The variants, narrowest first.
    pub simd: Vec<SimdKernel>,
    /// Push constants, one dword each in payload order: (UBO block, byte offset).
    pub push_constants: Vec<(u32, u32)>,
    /// Inputs in attribute setup order (2 GRFs of plane coefficients each).
    pub inputs: Vec<InputSlot>,
    /// Render targets written.
    pub num_render_targets: u32,
    /// UBO blocks read with pull-constant (sampler `ld`) messages. Each is bound at
    /// `ubo_surface_base + block` as an RGBA32 buffer surface with a one-byte pitch (as i965
    /// binds them), so an `ld` coordinate is a byte offset and returns the 16 bytes from there.
    pub pull_constant_blocks: Vec<u32>,
    /// Binding-table index of UBO block 0 for pull-constant messages.
    pub ubo_surface_base: u32,
    /// Binding-table index of SSBO block 0 (SSBO block b is at `ssbo_surface_base + b`).
    pub ssbo_surface_base: u32,
    /// Mesa's binding model: the pushed UBO ranges (`brw_ubo_range`), whose dwords
    /// `push_constants` lists in order; empty in gpucc's own model.
    pub ubo_ranges: Vec<crate::intel::ubo_ranges::UboRange>,
    /// Textures, samplers and SSBOs the messages address.
    pub surfaces: SurfaceUse,
    /// WM flags.
    pub flags: Flags,
    /// Scratch bytes per thread.
    pub scratch_size: u32,
    /// Compute facts (None for other stages).
    pub compute: Option<ComputeInfo>,
    /// Vertex-shader facts (None for other stages).
    pub vertex: Option<VertexInfo>,
    /// Geometry-shader facts (`brw_gs_prog_data`), for geometry programs.
    pub geometry: Option<crate::intel::geometry::GeometryInfo>,
    /// Tessellation-evaluation facts (None for other stages).
    pub tess_eval: Option<crate::intel::tess::TessEvalInfo>,
    /// Tessellation-control facts (`brw_tcs_prog_data`; None for other stages).
    pub tess_ctrl: Option<crate::intel::tcs::TessCtrlInfo>,
    /// Values the driver patches into [`Kernel::code`], in code order.
    pub relocs: Vec<Reloc>,
    /// Bytes of constant data (the NIR's `constants:`) the driver must upload and point the
    /// [`RELOC_CONST_DATA_ADDR_LOW`]/[`RELOC_CONST_DATA_ADDR_HIGH`] relocations at. The
    /// bytes themselves come with the driver's NIR, not with the program.
    pub constant_data_size: u32,
}

impl Kernel {
    /// The variant of width `simd`.
    pub fn variant(&self, simd: u32) -> Option<&SimdKernel> {
        self.simd.iter().find(|k| k.simd == simd)
    }

    /// The kernel runs SIMD4x2 (two vertices per thread, align16): see [`SIMD4X2`].
    pub fn is_simd4x2(&self) -> bool {
        self.simd.iter().any(|k| k.simd == SIMD4X2)
    }

    /// The code of one variant.
    pub fn code_of(&self, k: &SimdKernel) -> &[u8] {
        &self.code[k.offset as usize..(k.offset + k.size) as usize]
    }

    /// A copy of the code with every relocation patched: `values` gives (id, value) pairs;
    /// a relocation whose id has no value is an error naming it.
    pub fn relocated_code(&self, values: &[(u32, u32)]) -> Result<Vec<u8>, String> {
        let mut code = self.code.clone();
        for r in &self.relocs {
            let v = values
                .iter()
                .find(|(id, _)| *id == r.id)
                .map(|(_, v)| v.wrapping_add(r.delta))
                .ok_or_else(|| {
                    format!("no value for relocation id {} at byte {}", r.id, r.offset)
                })?;
            let at = r.offset as usize;
            let dst = code.get_mut(at..at + 4).ok_or_else(|| {
                format!(
                    "relocation id {} at byte {} is outside the code",
                    r.id, r.offset
                )
            })?;
            dst.copy_from_slice(&v.to_le_bytes());
        }
        Ok(code)
    }

    /// How the program connects to the stages around it, for `gpucc compile --stats`: a
    /// vertex program's VUE map (as brw prints it) and vertex facts; a fragment program's
    /// input slots in attribute-setup order with their interpolation.
    pub fn binding_text(&self) -> String {
        let mut s = String::new();
        if let Some(v) = &self.vertex {
            s.push_str(&v.vue_map.to_string());
            s.push_str(&format!(
                "VS inputs_read {:#x}, {} vertex elements, URB read length {}, URB entry size \
                 {}, dispatch GRF start {}",
                v.inputs_read,
                v.nr_attribute_slots,
                v.urb_read_length(),
                v.urb_entry_size(),
                self.simd.first().map_or(0, |k| k.dispatch_grf_start)
            ));
            for (used, name) in [
                (v.uses_vertex_id, "vertex id"),
                (v.uses_instance_id, "instance id"),
                (v.uses_first_vertex, "first vertex"),
                (v.uses_base_instance, "base instance"),
                (v.uses_draw_id, "draw id"),
            ] {
                if used {
                    s.push_str(", ");
                    s.push_str(name);
                }
            }
            s.push('\n');
        } else if self.compute.is_none() && !self.inputs.is_empty() {
            s.push_str(&format!("FS inputs ({} slots)\n", self.inputs.len()));
            for (i, inp) in self.inputs.iter().enumerate() {
                let mode = match (inp.read, inp.flat, inp.noperspective) {
                    (false, _, _) => "not read",
                    (_, true, _) => "flat",
                    (_, false, true) => "noperspective",
                    _ => "smooth",
                };
                s.push_str(&format!("  [{i}] {} {mode}\n", inp.location));
            }
        }
        // Mesa's binding model: the pushed ranges, as 3DSTATE_CONSTANT_* takes them (a
        // compute program's are its first params).
        for (i, r) in self.ubo_ranges.iter().enumerate() {
            s.push_str(&format!(
                "UBO range {i}: block {}, start {}, length {}\n",
                r.block, r.start, r.length
            ));
        }
        // A compute program's push layout, in `brw_cs_prog_data.push` terms.
        if let Some(p) = self.cs_push() {
            s.push_str(&format!(
                "CS push: {} params, cross-thread {} dwords ({} regs), per-thread {} dwords \
                 ({} regs, {} of local ids)",
                p.params,
                p.cross_thread.dwords,
                p.cross_thread.regs,
                p.per_thread.dwords,
                p.per_thread.regs,
                p.local_id_regs
            ));
            if let Some(i) = p.subgroup_id_param {
                s.push_str(&format!(", subgroup id param {i}"));
            }
            s.push('\n');
        }
        s
    }

    /// Mesa-style assembly of every variant, each preceded by its statistics line.
    pub fn disassemble(&self, devinfo: &DevInfo) -> String {
        let mut s = String::new();
        for k in &self.simd {
            s.push_str(&format!("{}\n", k.stats));
            match eu::disassemble_program(devinfo, self.code_of(k)) {
                Ok(t) => s.push_str(&t),
                Err(e) => s.push_str(&format!("(cannot disassemble: {e})\n")),
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod simd4x2_tests {
    use super::*;

    /// The header line of Mesa's assembly of shader-db tesseract 133 (mesa-asm/ivb).
    #[test]
    fn vec4_statistics_use_mesas_vec4_wording() {
        let s = Stats {
            simd: SIMD4X2,
            instructions: 5,
            loops: 0,
            cycles: 20,
            spills: 0,
            fills: 0,
            sends: 1,
            bytes_uncompacted: 80,
            bytes: 80,
        };
        assert_eq!(
            s.to_string(),
            "VS vec4 shader: 5 instructions. 0 loops. 20 cycles. 0:0 spills:fills, 1 sends. \
             Compacted 80 to 80 bytes (0%)"
        );
    }
}
