//! The geometry-shader facts of an Intel program (Mesa's `brw_gs_prog_data` and the
//! `brw_gs_compile` fields its backends share), as `brw_compile_gs` computes them on Gen7+
//! before either backend runs: the input and output VUE maps, the control-data header (cut
//! bits, or stream ids when several streams are used), the output vertex size, the static
//! vertex count, the URB entry size and read length. The scalar backend (Gen8+, SIMD8) lays
//! out its payload and URB writes from these; 3DSTATE_GS is programmed from them (iris's
//! `iris_store_gs_state`).

use crate::error::CompileError;
use crate::intel::vue::VueMap;
use crate::nir::geometry::{GeometryInfo as NirGeometry, Primitive};
use crate::nir::{InstrKind, Intrinsic, Shader};

/// How the control-data header is read (3DSTATE_GS "Control Data Format").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ControlDataFormat {
    /// One cut bit per vertex: the strip ends after the vertex
    /// (`GFX7_GS_CONTROL_DATA_FORMAT_GSCTL_CUT`, 0).
    #[default]
    Cut = 0,
    /// Two bits of stream id per vertex (`GFX7_GS_CONTROL_DATA_FORMAT_GSCTL_SID`, 1).
    StreamId = 1,
}

/// How the GS unit packs objects into a thread (`brw_vue_prog_data.dispatch_mode`; the
/// discriminants are Mesa's `DISPATCH_MODE_*` values, 3DSTATE_GS "Dispatch Mode").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DispatchMode {
    /// Gen8+ scalar: eight objects per SIMD8 thread (`DISPATCH_MODE_SIMD8`).
    #[default]
    Simd8 = 3,
    /// Gen7 vec4: two objects per SIMD4x2 thread, one per half
    /// (`DISPATCH_MODE_4X2_DUAL_OBJECT`); Mesa's first choice without instancing.
    DualObject = 2,
    /// Gen7 vec4: one object per thread (`DISPATCH_MODE_4X1_SINGLE`), Mesa's fallback when
    /// dual-object code would spill.
    Single = 0,
    /// Gen7 vec4: two instances of one object per thread
    /// (`DISPATCH_MODE_4X2_DUAL_INSTANCE`), Mesa's choice with instancing.
    DualInstance = 1,
}

/// Mesa's `_3DPRIM_*` topology of each output primitive (`gl_prim_to_hw_prim`).
pub fn hw_topology(p: Primitive) -> u32 {
    match p {
        Primitive::Points => 0x01,
        Primitive::Lines => 0x02,
        Primitive::LineStrip => 0x03,
        Primitive::Triangles => 0x04,
        Primitive::TriangleStrip => 0x05,
        Primitive::LinesAdjacency => 0x09,
        Primitive::TrianglesAdjacency => 0x0b,
        Primitive::Other => 0,
    }
}

/// Largest GS URB entry of Gen7+ (`GFX7_MAX_GS_URB_ENTRY_SIZE_BYTES`).
const MAX_URB_ENTRY_BYTES: u32 = 64 * 1024;

/// Largest output vertex (`GFX7_MAX_GS_OUTPUT_VERTEX_SIZE_BYTES`).
const MAX_OUTPUT_VERTEX_BYTES: u32 = 62 * 16;

/// Registers of pushed per-vertex inputs a scalar GS takes at most (brw's
/// `max_push_components` of `gs_thread_payload`): beyond it the URB read length shrinks and
/// the rest is pulled.
const MAX_PUSH_REGS: u32 = 24;

/// What a driver needs to run a geometry shader (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GeometryInfo {
    /// The layout of the previous stage's vertices (`brw_gs_compile.input_vue_map`): load
    /// bases are its slots.
    pub input_vue_map: VueMap,
    /// The layout of each emitted vertex (`brw_vue_prog_data.vue_map`).
    pub vue_map: VueMap,
    /// Vertices per input primitive (`vertices_in`, 3DSTATE_GS "Expected Vertex Count").
    pub vertices_in: u32,
    /// Most vertices emitted per invocation (`shader_info.gs.vertices_out`).
    pub vertices_out: u32,
    /// Invocations per primitive (`invocations`; "Instance Control" is this minus one).
    pub invocations: u32,
    /// `control_data_format`.
    pub control_data_format: ControlDataFormat,
    /// Control bits per vertex: 1 (cut), 2 (stream id) or 0 (no header)
    /// (`brw_gs_compile.control_data_bits_per_vertex`).
    pub control_data_bits_per_vertex: u32,
    /// `control_data_header_size_hwords` (32-byte units; "Control Data Header Size").
    pub control_data_header_size_hwords: u32,
    /// `output_vertex_size_hwords` ("Output Vertex Size" is twice this minus one).
    pub output_vertex_size_hwords: u32,
    /// `output_topology` (`_3DPRIM_*`).
    pub output_topology: u32,
    /// `static_vertex_count`: the vertex count when every path emits the same constant
    /// number ("Static Output" and "Static Output Vertex Count"); `None` is Mesa's -1, the
    /// thread writes the count into its URB entry.
    pub static_vertex_count: Option<u32>,
    /// `include_primitive_id`: the payload holds the primitive ids (g2).
    pub include_primitive_id: bool,
    /// `urb_read_length`: 32-byte units of each input vertex pushed into the payload.
    pub urb_read_length: u32,
    /// `urb_entry_size` in 64-byte units.
    pub urb_entry_size: u32,
    /// `clip_distance_mask` and `cull_distance_mask` (as for vertex shaders).
    pub clip_distance_mask: u8,
    pub cull_distance_mask: u8,
    /// How objects are packed into threads (3DSTATE_GS "Dispatch Mode").
    pub dispatch_mode: DispatchMode,
}

impl GeometryInfo {
    /// 2 × the control-data header: where the first vertex starts, in 16-byte units,
    /// after the vertex count (one 32-byte unit, only when the count is not static).
    pub fn first_vertex_oword(&self) -> u32 {
        2 * self.control_data_header_size_hwords + 2 * u32::from(self.count_in_entry())
    }

    /// Whether the vertex count is dword 0 of the URB entry (Gen8+ without a static count);
    /// Gen7 threads pass it in the header of their last URB write instead.
    pub fn count_in_entry(&self) -> bool {
        self.dispatch_mode == DispatchMode::Simd8 && self.static_vertex_count.is_none()
    }

    /// Whether a vec4 thread's pushed inputs are interleaved, two elements per register
    /// (element 2n in dwords 0–3 of register n, 2n + 1 in dwords 4–7, both halves reading
    /// the same copy): single and dual-instance dispatch, where the halves share one
    /// primitive or one is idle (Mesa's `attributes_per_reg` of 2).
    pub fn interleaved_inputs(&self) -> bool {
        matches!(
            self.dispatch_mode,
            DispatchMode::Single | DispatchMode::DualInstance
        )
    }

    /// Bits of control data per thread (`control_data_header_size_bits`).
    pub fn control_data_header_bits(&self) -> u32 {
        self.vertices_out * self.control_data_bits_per_vertex
    }

    /// 3DSTATE_GS "Vertex URB Entry Output Length" iris programs (slots after the header,
    /// in pairs, at least one).
    pub fn urb_entry_output_length(&self) -> u32 {
        (self.vue_map.num_slots().div_ceil(2).saturating_sub(1)).max(1)
    }
}

/// The facts of a geometry shader, as `brw_compile_gs` computes them on Gen8+ (where the
/// static vertex count is looked for).
pub fn geometry_facts(shader: &Shader) -> Result<GeometryInfo, CompileError> {
    facts(shader, true)
}

/// The facts as `brw_compile_gs` computes them on Gen7 for the vec4 backend: no static
/// vertex count and no count in the URB entry, every input slot pushed, and the dispatch
/// mode Mesa tries first (dual object without instancing, dual instance with it).
pub fn gen7_geometry_facts(shader: &Shader) -> Result<GeometryInfo, CompileError> {
    facts(shader, false)
}

fn facts(shader: &Shader, gen8: bool) -> Result<GeometryInfo, CompileError> {
    let g = NirGeometry::of(&shader.info)
        .ok_or_else(|| CompileError::Invalid("geometry facts of a non-geometry shader".into()))?
        .map_err(CompileError::Invalid)?;
    let imp = shader
        .entry()
        .ok_or_else(|| CompileError::Invalid("shader has no entry point".into()))?;
    let separate = shader.info.field("separate_shader") == Some("true");
    let slots = |key: &str| {
        shader.info.slot_mask(key).ok_or_else(|| {
            CompileError::Invalid(format!(
                "{key}: cannot read '{}'",
                shader.info.field(key).unwrap_or("")
            ))
        })
    };
    let input_vue_map = VueMap::new(slots("inputs_read")?, separate);
    let mut written = slots("outputs_written")?;
    let mut uses_end_primitive = shader.info.field("uses_end_primitive") == Some("true");
    let mut counts = Vec::new();
    let mut uses_primitive_id = false;
    for ins in &imp.instrs {
        let InstrKind::Intrinsic(i) = &ins.kind else {
            continue;
        };
        match i.intrinsic {
            Intrinsic::StoreOutput => {
                let base = i.int_index(crate::nir::IndexKind::Base).unwrap_or(0).max(0) as u32;
                let offset = i
                    .srcs
                    .get(1)
                    .and_then(|s| imp.const_value(*s))
                    .and_then(|v| v.first().copied())
                    .ok_or_else(|| {
                        CompileError::Unsupported("store_output with an indirect slot".into())
                    })?;
                let v = base.saturating_add(offset as u32);
                if v >= 64 {
                    return Err(CompileError::Unsupported(format!(
                        "geometry output in varying slot {v}"
                    )));
                }
                written |= 1 << v;
            }
            Intrinsic::EndPrimitiveWithCounter => uses_end_primitive = true,
            Intrinsic::LoadPrimitiveId => uses_primitive_id = true,
            Intrinsic::SetVertexAndPrimitiveCount
                if i.int_index(crate::nir::IndexKind::StreamId).unwrap_or(0) == 0 =>
            {
                let count = i
                    .srcs
                    .first()
                    .and_then(|s| imp.const_value(*s))
                    .and_then(|v| v.first().copied());
                counts.push(count);
            }
            _ => {}
        }
    }
    // nir_gs_count_vertices_and_primitives: a constant count every path agrees on.
    let static_vertex_count = match counts.split_first() {
        Some((Some(c), rest)) if gen8 && rest.iter().all(|r| *r == Some(*c)) => Some(*c as u32),
        _ => None,
    };
    let vue_map = VueMap::new(written, separate);
    let (control_data_format, bits) = if g.output_primitive == Primitive::Points {
        // Points: EndPrimitive does nothing, the header holds stream ids when a stream
        // other than 0 is used.
        (
            ControlDataFormat::StreamId,
            if g.active_stream_mask != 1 { 2 } else { 0 },
        )
    } else {
        (ControlDataFormat::Cut, u32::from(uses_end_primitive))
    };
    let header_bits = g.vertices_out * bits;
    let output_vertex_bytes = vue_map.num_slots() * 16;
    if output_vertex_bytes > MAX_OUTPUT_VERTEX_BYTES {
        return Err(CompileError::Limit(format!(
            "{output_vertex_bytes}-byte output vertices (at most {MAX_OUTPUT_VERTEX_BYTES})"
        )));
    }
    let output_vertex_size_hwords = output_vertex_bytes.div_ceil(32);
    let header_hwords = header_bits.div_ceil(256);
    // Gen8 keeps the vertex count in a 32-byte unit ahead of the header.
    let mut entry_bytes = output_vertex_size_hwords * 32 * g.vertices_out
        + 32 * header_hwords
        + if gen8 { 32 } else { 0 };
    if entry_bytes > MAX_URB_ENTRY_BYTES {
        return Err(CompileError::Limit(format!(
            "a {entry_bytes}-byte geometry URB entry (at most {MAX_URB_ENTRY_BYTES})"
        )));
    }
    entry_bytes = entry_bytes.max(1);
    let size = |key: &str| {
        shader
            .info
            .field(key)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(0)
            .min(8)
    };
    let (clip, cull) = (
        size("clip_distance_array_size"),
        size("cull_distance_array_size"),
    );
    let mut urb_read_length = input_vue_map.num_slots().div_ceil(2);
    // gs_thread_payload: at most 24 registers of pushed inputs over all vertices (the vec4
    // backend pushes them all).
    if gen8 && 8 * urb_read_length * g.vertices_in > MAX_PUSH_REGS {
        urb_read_length = (MAX_PUSH_REGS / g.vertices_in) / 8;
    }
    Ok(GeometryInfo {
        input_vue_map,
        vue_map,
        vertices_in: g.vertices_in,
        vertices_out: g.vertices_out,
        invocations: g.invocations,
        control_data_format,
        control_data_bits_per_vertex: bits,
        control_data_header_size_hwords: header_hwords,
        output_vertex_size_hwords,
        output_topology: hw_topology(g.output_primitive),
        static_vertex_count,
        include_primitive_id: uses_primitive_id,
        urb_read_length,
        urb_entry_size: entry_bytes.div_ceil(64),
        clip_distance_mask: ((1u32 << clip) - 1) as u8,
        cull_distance_mask: ((((1u32 << cull) - 1) << clip) & 0xff) as u8,
        dispatch_mode: match (gen8, g.invocations > 1) {
            (true, _) => DispatchMode::Simd8,
            (false, false) => DispatchMode::DualObject,
            (false, true) => DispatchMode::DualInstance,
        },
    })
}
