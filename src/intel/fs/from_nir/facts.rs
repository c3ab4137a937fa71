//! What translation learns about a shader that the stages after it and the program object
//! need: the payload layout, push constants, inputs, surfaces, and the compute and vertex
//! facts. The translator fills them; lowering, allocation and the Intel layer read them.

/// What the translation found that the program object must describe.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShaderFacts {
    /// Payload layout.
    pub payload: PayloadLayout,
    /// Push-constant dwords in layout order: (UBO block, byte offset).
    pub push: Vec<(u32, u32)>,
    /// Input slots in setup order: (NIR base, io location name, flat).
    pub inputs: Vec<(u32, String, bool)>,
    /// Input slots the shader does not read: past 16 inputs the attribute setup follows the
    /// previous stage's VUE map (brw's `calculate_urb_setup`), whose slots between the first
    /// and last read can hold varyings the shader ignores (base = that varying) and padding
    /// (base = `u32::MAX`, location `BRW_VARYING_SLOT_PAD`).
    pub unread_inputs: Vec<usize>,
    /// NIR bases of the inputs interpolated without perspective correction.
    pub noperspective_inputs: Vec<u32>,
    /// Render targets written.
    pub num_render_targets: u32,
    /// The shader writes depth.
    pub computes_depth: bool,
    /// The shader can discard pixels (live-pixel mask kept in f0.1).
    pub uses_kill: bool,
    /// UBO blocks read with pull-constant messages (at `ubo_surface_base + block`).
    pub pull_blocks: Vec<u32>,
    /// Binding-table slot of UBO block 0 and of SSBO block 0: 64 and 128 in gpucc's own
    /// binding model, 0 in Mesa's (the NIR's block indices are the slots).
    pub ubo_surface_base: u32,
    pub ssbo_surface_base: u32,
    /// Mesa's binding model: the pushed UBO ranges, whose dwords `push` lists in order.
    pub ubo_ranges: Vec<crate::intel::ubo_ranges::UboRange>,
    /// Compute-shader facts (None for other stages).
    pub compute: Option<ComputeFacts>,
    /// Vertex-shader facts (None for other stages).
    pub vertex: Option<crate::intel::kernel::VertexInfo>,
    /// Geometry-shader facts (None for other stages).
    pub geometry: Option<crate::intel::geometry::GeometryInfo>,
    /// Tessellation-evaluation facts (None for other stages).
    pub tess_eval: Option<crate::intel::tess::TessEvalInfo>,
    /// Tessellation-control facts (None for other stages).
    pub tess_ctrl: Option<crate::intel::tcs::TessCtrlInfo>,
    /// Scratch bytes per thread the NIR's `load_scratch`/`store_scratch` address (register
    /// spills go after them).
    pub scratch_bytes: u32,
    /// Scratch write and read messages from NIR scratch accesses (Mesa counts them as
    /// spills and fills).
    pub scratch_writes: u32,
    /// See `scratch_writes`.
    pub scratch_reads: u32,
    /// Render target 0 blends with two source colours (Mesa's `dual_src_blend`).
    pub dual_source_blend: bool,
    /// Texture, sampler and SSBO binding-table entries the messages address.
    pub surfaces: crate::intel::kernel::SurfaceUse,
}

impl ShaderFacts {
    /// Dwords of push data: the pushed uniform dwords and, in a compute program of Mesa's
    /// binding model, the subgroup id after them (Mesa's `nr_params`).
    pub fn push_dwords(&self) -> u32 {
        let subgroup_id = self
            .compute
            .as_ref()
            .is_some_and(|c| c.subgroup_id_param.is_some());
        self.push.len() as u32 + u32::from(subgroup_id)
    }
}

/// Where the fragment thread payload puts what the shader reads (Gen6+ layout: R0 header,
/// R1 pixel coordinates, then barycentrics, source depth and W; push constants follow, then
/// attribute setup data).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayloadLayout {
    /// First register of the perspective pixel barycentrics, when enabled.
    pub bary_pixel: Option<u32>,
    /// First register of each barycentric mode the shader uses, indexed as Mesa's
    /// `brw_barycentric_mode` (perspective pixel, centroid, sample, then the same three
    /// without perspective); the hardware packs the enabled ones in that order.
    pub barycentric: [Option<u32>; 6],
    /// Interpolated source depth.
    pub source_depth: Option<u32>,
    /// Interpolated source W.
    pub source_w: Option<u32>,
    /// SIMD32: the same registers for channels 16-31, which the hardware lays out after
    /// the whole first set (Mesa's `setup_fs_payload_gfx6`: R1 and R2 pixel info, then per
    /// 16 channels the barycentrics, source depth and W). All `None` at SIMD8 and SIMD16.
    pub upper: UpperHalf,
    /// Registers the hardware fills before push constants.
    pub num_regs: u32,
}

/// The second 16 channels' payload registers of a SIMD32 thread (see [`PayloadLayout`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpperHalf {
    /// Each barycentric mode's registers for channels 16-31.
    pub barycentric: [Option<u32>; 6],
    /// Source depth of channels 16-31.
    pub source_depth: Option<u32>,
    /// Source W of channels 16-31.
    pub source_w: Option<u32>,
}

/// What a compute shader's dispatch needs to know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComputeFacts {
    /// Workgroup size (`workgroup_size` of the shader info).
    pub local_size: [u32; 3],
    /// Workgroup-shared memory in bytes (`shared_size`).
    pub shared_size: u32,
    /// The shader synchronises its workgroup with gateway barriers.
    pub uses_barrier: bool,
    /// Mesa's binding model: the push slot of the subgroup id, after the pushed uniform
    /// dwords (brw's last param); None in gpucc's, whose payload holds the local ids.
    pub subgroup_id_param: Option<u32>,
}
