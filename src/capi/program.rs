//! `gpucc_compile` and `gpucc_program`: compiled shaders as a driver loads them.

use std::ffi::c_char;

use super::compiler::{Compiler, Family};
use super::options::{read_options, CompileOptionsC};
use super::shader::{into_c_string, Shader};
use super::sized::write_sized;
use super::status::{guard, write_out, Error, Status};
use crate::compiler::CompileError;
use crate::program::{Code, Program};

/// Shader stages as programs report them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    #[default]
    Vertex = 0,
    Fragment = 1,
    Compute = 2,
    Other = 3,
    /// A geometry program (Intel Gen7+); facts from gpucc_program_gs_info.
    Geometry = 4,
    /// A tessellation-control program (Intel Gen8+); facts from gpucc_program_tcs_info.
    /// Before these two values existed such programs reported `GPUCC_STAGE_OTHER`.
    TessCtrl = 5,
    /// A tessellation-evaluation program (Intel Gen7+); facts from gpucc_program_tes_info.
    TessEval = 6,
}

/// What a driver needs to bind a program, for both families (the parts of Mesa's
/// `brw_stage_prog_data` and `etna_shader_variant` every stage has). Fields that do not apply
/// to the program's family are 0 (or false). Stage facts come from gpucc_program_vs_info,
/// gpucc_program_gs_info, gpucc_program_fs_info, gpucc_program_cs_info and gpucc_program_etna_info.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct ProgramInfo {
    /// Set by the caller: `sizeof(gpucc_program_info)`. The library fills only the fields
    /// that fit, so a driver built against an older header keeps working.
    pub struct_size: u32,
    pub family: Family,
    pub stage: Stage,
    /// Bytes of machine code (gpucc_program_code; Mesa's `program_size`).
    pub code_size: usize,
    /// Intel: byte offsets of the SIMD8/16/32 kernels in the code; UINT32_MAX where absent
    /// (Mesa's `prog_offset_*` with `dispatch_*`).
    pub simd8_offset: u32,
    pub simd16_offset: u32,
    pub simd32_offset: u32,
    /// Intel: first GRF after the thread payload (push constants start here) of the
    /// narrowest kernel (`dispatch_grf_start_reg`); see gpucc_fs_info for each width.
    pub dispatch_grf_start: u32,
    /// Intel: one past the highest GRF the widest kernel touches (Mesa's `grf_used`). On
    /// Gen7 a fragment program ends with its message in g112-g127, as the hardware requires
    /// of EOT sends, so this is 128 there, as in Mesa. Vivante: temporaries (`num_temps`).
    pub registers: u32,
    /// Intel: scratch bytes per thread (`total_scratch`).
    pub scratch_size: u32,
    /// Intel: pushed dwords (`nr_params` plus pushed UBO dwords); see
    /// gpucc_program_push_param. A compute program's push data holds more (local ids, or
    /// the subgroup id in Mesa's layout): gpucc_cs_info and gpucc_program_cs_param describe
    /// all of it. Vivante: uniform slots of four components
    /// (`uniforms.count / 4`); see gpucc_program_etna_uniform.
    pub uniforms: u32,
    /// Inputs read: fragment input slots (`num_varying_inputs`), vertex elements
    /// (`nr_attribute_slots`), Vivante input registers (`infile.num_reg`).
    pub inputs: u32,
    /// The program can discard pixels (`uses_kill`).
    pub uses_discard: bool,
    /// Intel: the program writes depth (`computed_depth_mode` != OFF).
    pub computes_depth: bool,
    /// Intel: the render-target write carries two colours (dual-source blending); the
    /// driver enables dual-source blend state (Mesa's `dual_src_blend`).
    pub dual_source_blend: bool,
    /// Intel: barycentric sets the thread payload holds, as a mask of Mesa's
    /// `brw_barycentric_mode` (bit 0 perspective pixel, 1 centroid, 2 sample, 3-5 the same
    /// without perspective); the driver programs the WM barycentric-mode field from it
    /// (`barycentric_interp_modes`).
    pub barycentric_modes: u32,
    /// Vivante: the program must run from memory through the instruction cache
    /// (`needs_icache`).
    pub needs_icache: bool,
    /// Statistics of the widest variant (Mesa's `brw_compile_stats` meanings).
    pub instructions: u32,
    pub loops: u32,
    pub cycles: u32,
    pub spills: u32,
    pub fills: u32,
    pub sends: u32,
    /// Intel: relocations the driver must patch before the code runs
    /// (gpucc_program_reloc; Mesa's `num_relocs`), 0 when the code is ready as it is.
    pub num_relocs: u32,
    /// Intel: bytes of constant data the driver uploads and points the constant-data
    /// relocations at (the NIR's `constants:`; Mesa's `const_data_size`; the bytes come
    /// with the driver's NIR).
    pub constant_data_size: u32,
    /// Binding-table entries and sampler states the program addresses; see
    /// gpucc_program_binding (Mesa's `binding_table` groups).
    pub num_bindings: u32,
    /// Intel, Mesa's binding model: pushed UBO ranges, 0-4 (gpucc_program_ubo_range; Mesa's
    /// `ubo_ranges` entries with a length). 0 under gpucc's own binding model.
    pub num_ubo_ranges: u32,
    /// Compiled variants, each with its own statistics (gpucc_program_width_stats): the
    /// SIMD widths of an Intel program, narrowest first; 1 for a SIMD4x2 vertex program and
    /// for a Vivante program.
    pub num_widths: u32,
    /// Intel: the program wants the ALT floating-point mode (Mesa's
    /// `brw_stage_prog_data::use_alt_mode`; 3DSTATE_VS/PS "Floating Point Mode"). Always 0:
    /// gpucc builds and verifies every program for IEEE mode, as brw itself does (crocus and
    /// iris set Mesa's field afterwards from `nir->info.use_legacy_math_rules`, for ARB
    /// assembly programs, which Mesa 23.3's nir_print does not show; a driver that keeps
    /// doing so runs gpucc's code in a mode it was not checked in). Vivante: 0.
    pub use_alt_mode: u32,
}

/// The statistics of one compiled variant (Mesa's `brw_compile_stats` per dispatch width;
/// the numbers of the shader-db line the log callback receives for it).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct WidthStats {
    /// Set by the caller: `sizeof(gpucc_width_stats)`.
    pub struct_size: u32,
    /// Intel: the dispatch width (8, 16, 32; 4 for SIMD4x2 vertex programs,
    /// `dispatch_width`); Vivante: 0.
    pub simd: u32,
    /// `instructions`, `loops`, `cycles`, `spills`, `fills`, `sends` (Vivante: instructions
    /// and loops; the rest 0).
    pub instructions: u32,
    pub loops: u32,
    pub cycles: u32,
    pub spills: u32,
    pub fills: u32,
    pub sends: u32,
    /// Intel: GRFs this variant touches (`grf_used`); Vivante: temporaries.
    pub registers: u32,
}

/// Statistics of variant `index` (0 .. `num_widths` of gpucc_program_info, narrowest first)
/// into `*stats` (its `struct_size` set by the caller).
#[no_mangle]
pub extern "C" fn gpucc_program_width_stats(
    program: *const Program,
    index: u32,
    stats: *mut WidthStats,
) -> Status {
    guard("gpucc_program_width_stats", || {
        const ENTRY: &str = "gpucc_program_width_stats";
        // SAFETY: a non-NULL program is a live handle from gpucc_compile.
        let p = unsafe { program.as_ref() }
            .ok_or_else(|| Error::invalid(format!("{ENTRY}: program is NULL")))?;
        let rows = p.stats();
        let row = rows.get(index as usize).ok_or_else(|| {
            Error::invalid(format!("{ENTRY}: index {index} of {} widths", rows.len()))
        })?;
        let loops = match &p.code {
            Code::Intel(k) => k.simd.get(index as usize).map_or(0, |v| v.stats.loops),
            Code::Etnaviv(o) => o.num_loops,
        };
        let value = WidthStats {
            struct_size: std::mem::size_of::<WidthStats>() as u32,
            simd: row.simd.unwrap_or(0),
            instructions: row.instructions,
            loops,
            cycles: row.cycles.unwrap_or(0),
            spills: row.spills.unwrap_or(0),
            fills: row.fills.unwrap_or(0),
            sends: row.sends.unwrap_or(0),
            registers: row.grfs,
        };
        write_sized!(
            stats,
            value,
            WidthStats,
            [
                struct_size,
                simd,
                instructions,
                loops,
                cycles,
                spills,
                fills,
                sends,
                registers
            ]
        )
    })
}

/// One relocation of an Intel program (Mesa's `brw_shader_reloc` of type U32): before the
/// code runs, the driver stores `value + delta` as a little-endian dword at byte `offset` of
/// the code, where `value` is what relocation `id` names: 0 = low and 1 = high 32 bits of
/// the GPU address of the program's constant data (Mesa's
/// `BRW_SHADER_RELOC_CONST_DATA_ADDR_LOW` / `_HIGH`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// What value goes there (`brw_shader_reloc::id`).
    pub id: u32,
    /// Byte offset of the dword in the code (`brw_shader_reloc::offset`).
    pub offset: u32,
    /// Added to the value before it is stored (`brw_shader_reloc::delta`).
    pub delta: u32,
}

/// Compiles a shader for the compiler's target. `options` may be NULL. On failure returns
/// GPUCC_STATUS_UNSUPPORTED (the message names the feature), GPUCC_STATUS_INVALID_ARGUMENT
/// (limits exceeded or a shader the backend cannot accept) or GPUCC_STATUS_INTERNAL. The
/// limits (README, "Limits on input"): Intel `constants:` at most 1 GiB and `uniforms:` at
/// most 64 KiB (uniform data past the 32 pushed registers is pulled, not refused); a thread
/// payload that leaves the program registers; SIMD8
/// spills of at most 4096 registers; a Vivante core's uniform slots and temporaries. Each
/// failure names its bound; none allocates past it. Before any backend runs, a stage the
/// target does not compile (`gpucc targets`), a system value of another stage, and on Intel
/// NIR that brw never receives (nir_legacy modifiers, barycentrics used as data) are
/// GPUCC_STATUS_UNSUPPORTED naming the intrinsic and its block and instruction.
///
/// Thread safety: any number of threads may compile with one compiler at once.
#[no_mangle]
pub extern "C" fn gpucc_compile(
    compiler: *const Compiler,
    shader: *const Shader,
    options: *const CompileOptionsC,
    out: *mut *mut Program,
) -> Status {
    guard("gpucc_compile", || {
        if out.is_null() {
            return Err(Error::invalid("gpucc_compile: out is NULL"));
        }
        // SAFETY: non-NULL handles are live objects from their constructors.
        let (compiler, shader) = unsafe { (compiler.as_ref(), shader.as_ref()) };
        let compiler = compiler.ok_or_else(|| Error::invalid("gpucc_compile: compiler is NULL"))?;
        let shader = shader.ok_or_else(|| Error::invalid("gpucc_compile: shader is NULL"))?;
        // SAFETY: options, when non-NULL, points to a caller-owned struct of `struct_size`
        // bytes (the header's contract).
        let read = unsafe { read_options(options) }?;
        let sink = compiler
            .log
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .map(|s| s.with_user_data(read.log_data));
        let opts = read.options;
        let compiled = super::log::with_sink(sink, || compiler.inner.compile(&shader.nir, &opts));
        let program = compiled.map_err(|e| {
            let status = match e {
                CompileError::Unsupported(_) => Status::Unsupported,
                CompileError::Limit(_) | CompileError::Invalid(_) => Status::InvalidArgument,
                CompileError::Internal(_) => Status::Internal,
            };
            Error::new(status, e.to_string())
        })?;
        write_out(out, Box::into_raw(Box::new(program)), "out")
    })
}

pub(super) fn program_ref<'a>(program: *const Program, entry: &str) -> Result<&'a Program, Error> {
    // SAFETY: a non-NULL program is a live handle from gpucc_compile.
    unsafe { program.as_ref() }.ok_or_else(|| Error::invalid(format!("{entry}: program is NULL")))
}

/// The machine code: `*code` points into the program (valid until it is destroyed) and `*size`
/// receives its length in bytes.
#[no_mangle]
pub extern "C" fn gpucc_program_code(
    program: *const Program,
    code: *mut *const u8,
    size: *mut usize,
) -> Status {
    guard("gpucc_program_code", || {
        let p = program_ref(program, "gpucc_program_code")?;
        if size.is_null() {
            return Err(Error::invalid("gpucc_program_code: size is NULL"));
        }
        write_out(code, p.bytes.as_ptr(), "code")?;
        write_out(size, p.bytes.len(), "size")
    })
}

/// Fills `*info` (its `struct_size` set by the caller) with the program's binding facts and
/// statistics.
#[no_mangle]
pub extern "C" fn gpucc_program_get_info(
    program: *const Program,
    info: *mut ProgramInfo,
) -> Status {
    guard("gpucc_program_get_info", || {
        let p = program_ref(program, "gpucc_program_get_info")?;
        write_sized!(
            info,
            program_info(p),
            ProgramInfo,
            [
                struct_size,
                family,
                stage,
                code_size,
                simd8_offset,
                simd16_offset,
                simd32_offset,
                dispatch_grf_start,
                registers,
                scratch_size,
                uniforms,
                inputs,
                uses_discard,
                computes_depth,
                dual_source_blend,
                barycentric_modes,
                needs_icache,
                instructions,
                loops,
                cycles,
                spills,
                fills,
                sends,
                num_relocs,
                constant_data_size,
                num_bindings,
                num_ubo_ranges,
                num_widths,
                use_alt_mode,
            ]
        )
    })
}

fn program_info(p: &Program) -> ProgramInfo {
    let stage = match p.stage {
        crate::nir::types::Stage::Vertex => Stage::Vertex,
        crate::nir::types::Stage::Fragment => Stage::Fragment,
        crate::nir::types::Stage::Compute => Stage::Compute,
        crate::nir::types::Stage::Geometry => Stage::Geometry,
        crate::nir::types::Stage::TessCtrl => Stage::TessCtrl,
        crate::nir::types::Stage::TessEval => Stage::TessEval,
        _ => Stage::Other,
    };
    let family = match p.code {
        Code::Intel(_) => Family::Intel,
        Code::Etnaviv(_) => Family::Etnaviv,
    };
    let mut info = ProgramInfo {
        struct_size: std::mem::size_of::<ProgramInfo>() as u32,
        family,
        stage,
        code_size: p.bytes.len(),
        simd8_offset: u32::MAX,
        simd16_offset: u32::MAX,
        simd32_offset: u32::MAX,
        dispatch_grf_start: 0,
        registers: 0,
        scratch_size: 0,
        uniforms: 0,
        inputs: 0,
        uses_discard: false,
        computes_depth: false,
        dual_source_blend: false,
        barycentric_modes: 0,
        needs_icache: false,
        instructions: 0,
        loops: 0,
        cycles: 0,
        spills: 0,
        fills: 0,
        sends: 0,
        num_relocs: 0,
        constant_data_size: 0,
        num_bindings: p.bindings().len() as u32,
        num_ubo_ranges: p.ubo_ranges().len() as u32,
        num_widths: p.stats().len() as u32,
        use_alt_mode: 0,
    };
    if let Some(widest) = p.stats().last() {
        info.instructions = widest.instructions;
        info.cycles = widest.cycles.unwrap_or(0);
        info.spills = widest.spills.unwrap_or(0);
        info.fills = widest.fills.unwrap_or(0);
        info.sends = widest.sends.unwrap_or(0);
        info.registers = widest.grfs;
    }
    match &p.code {
        Code::Intel(k) => {
            let offset = |w| k.variant(w).map_or(u32::MAX, |v| v.offset);
            info.simd8_offset = offset(8);
            info.simd16_offset = offset(16);
            info.simd32_offset = offset(32);
            info.dispatch_grf_start = k.simd.first().map_or(0, |v| v.dispatch_grf_start);
            info.loops = k.simd.last().map_or(0, |v| v.stats.loops);
            info.scratch_size = k.scratch_size;
            info.uniforms = k.push_constants.len() as u32;
            info.inputs = k
                .vertex
                .as_ref()
                .map_or(k.inputs.len() as u32, |v| v.nr_attribute_slots);
            info.uses_discard = k.flags.uses_kill;
            info.computes_depth = k.flags.computes_depth;
            info.dual_source_blend = k.flags.dual_source_blend;
            info.barycentric_modes = k.flags.barycentric_modes as u32;
            info.num_relocs = k.relocs.len() as u32;
            info.constant_data_size = k.constant_data_size;
        }
        Code::Etnaviv(o) => {
            info.loops = o.num_loops;
            info.uniforms = o.uniforms.len() as u32;
            info.registers = o.num_temps;
            info.inputs = o.inputs.len() as u32;
            info.uses_discard = o.uses_discard;
            info.needs_icache = o.needs_icache;
        }
    }
    info
}

/// Relocation `index` (0 .. num_relocs of gpucc_program_info) into `*reloc`. An index out of
/// range is GPUCC_STATUS_INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn gpucc_program_reloc(
    program: *const Program,
    index: u32,
    reloc: *mut Reloc,
) -> Status {
    guard("gpucc_program_reloc", || {
        let p = program_ref(program, "gpucc_program_reloc")?;
        let relocs: &[crate::intel::kernel::Reloc] = match &p.code {
            Code::Intel(k) => &k.relocs,
            Code::Etnaviv(_) => &[],
        };
        let r = relocs.get(index as usize).ok_or_else(|| {
            Error::invalid(format!(
                "gpucc_program_reloc: index {index} out of range (the program has {} \
                 relocations)",
                relocs.len()
            ))
        })?;
        let out = Reloc {
            id: r.id,
            offset: r.offset,
            delta: r.delta,
        };
        write_out(reloc, out, "reloc")
    })
}

/// The program's statistics in Mesa's wording, one line per variant. Free with
/// gpucc_string_free.
#[no_mangle]
pub extern "C" fn gpucc_program_stats(program: *const Program, out: *mut *mut c_char) -> Status {
    guard("gpucc_program_stats", || {
        let p = program_ref(program, "gpucc_program_stats")?;
        if out.is_null() {
            return Err(Error::invalid("gpucc_program_stats: out is NULL"));
        }
        write_out(out, into_c_string(p.stats_text()), "out")
    })
}

/// The program's assembly in Mesa's disassembler syntax. Free with gpucc_string_free.
#[no_mangle]
pub extern "C" fn gpucc_program_disassemble(
    program: *const Program,
    out: *mut *mut c_char,
) -> Status {
    guard("gpucc_program_disassemble", || {
        let p = program_ref(program, "gpucc_program_disassemble")?;
        if out.is_null() {
            return Err(Error::invalid("gpucc_program_disassemble: out is NULL"));
        }
        write_out(out, into_c_string(p.asm_text()), "out")
    })
}

/// Destroys a program. NULL is accepted and ignored.
#[no_mangle]
pub extern "C" fn gpucc_program_destroy(program: *mut Program) {
    guard("gpucc_program_destroy", || {
        if !program.is_null() {
            // SAFETY: non-NULL programs only come from Box::into_raw in gpucc_compile, and the
            // caller gives up the handle by destroying it.
            drop(unsafe { Box::from_raw(program) });
        }
        Ok(())
    });
}
