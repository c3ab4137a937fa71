//! What a compile tells the driver's logs, through the `log` crate: Mesa's shader-db
//! statistics line for every program (and every SIMD width), and performance warnings.
//!
//! Mesa's drivers receive both through callbacks: brw's `brw_compiler::shader_debug_log` (the
//! statistics lines, which shader-db's `run` reads back through GL's debug output) and
//! `shader_perf_log` (a width dropped, a spill), etnaviv's `util_debug_message(SHADER_INFO)`
//! under `ETNA_MESA_DEBUG=shaderdb`. gpucc emits them as `log` records with the targets
//! [`STATS`] and [`PERF`]; a Rust host reads them with any logger, a C driver through
//! `gpucc_compiler_set_log_callback` (src/capi/log.rs). The lines are only formatted when a
//! logger wants them.

use std::fmt::Write as _;

use crate::intel::kernel::SIMD4X2;
use crate::program::{Code, Program};

/// `log` target of the statistics lines (Mesa's `shader_debug_log`), at level `Info`.
pub const STATS: &str = "gpucc::stats";

/// `log` target of performance warnings (Mesa's `shader_perf_log`), at level `Warn`.
pub const PERF: &str = "gpucc::perf";

/// A performance warning: something the driver's user pays for at run time (a SIMD width
/// not built, code that spills).
pub fn perf(args: std::fmt::Arguments<'_>) {
    log::warn!(target: PERF, "{args}");
}

/// Emits `program`'s statistics lines (see [`stats_lines`]) when a logger wants them, and
/// brw's spilling warning for a program that spills.
pub fn log_stats(program: &Program) {
    if log::log_enabled!(target: STATS, log::Level::Info) {
        for line in stats_lines(program) {
            log::info!(target: STATS, "{line}");
        }
    }
    if let Code::Intel(k) = &program.code {
        if let Some(v) = k.simd.iter().find(|v| v.stats.spills > 0) {
            let values = if v.simd == SIMD4X2 { "vec4" } else { "scalar" };
            perf(format_args!(
                "{} shader triggered register spilling.  Try reducing the number of live \
                 {values} values to improve performance.",
                stage_string(program)
            ));
        }
    }
}

/// Mesa's `_mesa_shader_stage_to_string`.
fn stage_string(program: &Program) -> &'static str {
    use crate::nir::types::Stage;
    match program.stage {
        Stage::Vertex => "vertex",
        Stage::TessCtrl => "tessellation control",
        Stage::TessEval => "tessellation evaluation",
        Stage::Geometry => "geometry",
        Stage::Fragment => "fragment",
        Stage::Compute => "compute",
        Stage::Task => "task",
        Stage::Mesh => "mesh",
        Stage::Kernel => "kernel",
    }
}

/// Mesa 23.3's shader-db lines for `program`, worded as its backends word them:
///
/// - Intel scalar (brw_fs_generator): `FS SIMD8 shader: 12 inst, 0 loops, 136 cycles,
///   0:0 spills:fills, 1 sends, scheduled with mode top-down, Promoted 0 constants,
///   compacted 192 to 144 bytes.`, one per SIMD width;
/// - Intel vec4 (brw_vec4_generator): `VS vec4 shader: 9 inst, 0 loops, 40 cycles, 0:0
///   spills:fills, 1 sends, compacted 144 to 128 bytes.`;
/// - etnaviv (etnaviv_shader.c): `FRAG shader: 5 instructions, 2 temps, 1 immediates,
///   0 loops`.
///
/// gpucc's scheduler is not one of brw's modes, and its constant handling is not brw's
/// promotion pass: those two fields read `top-down` (the mode brw most often keeps) and `0`,
/// so that shader-db's report parses the lines; the counts are gpucc's own.
pub fn stats_lines(program: &Program) -> Vec<String> {
    match &program.code {
        Code::Intel(k) => k
            .simd
            .iter()
            .map(|v| {
                let s = &v.stats;
                let mut line = if v.simd == SIMD4X2 {
                    format!("{} vec4 shader: ", abbrev(program))
                } else {
                    format!("{} SIMD{} shader: ", abbrev(program), v.simd)
                };
                let _ = write!(
                    line,
                    "{} inst, {} loops, {} cycles, {}:{} spills:fills, {} sends, ",
                    s.instructions, s.loops, s.cycles, s.spills, s.fills, s.sends
                );
                if v.simd != SIMD4X2 {
                    line.push_str("scheduled with mode top-down, Promoted 0 constants, ");
                }
                let _ = write!(
                    line,
                    "compacted {} to {} bytes.",
                    s.bytes_uncompacted, s.bytes
                );
                line
            })
            .collect(),
        Code::Etnaviv(o) => vec![o.stats_text().trim_end().to_string()],
    }
}

/// Mesa's `_mesa_shader_stage_to_abbrev`.
fn abbrev(program: &Program) -> &'static str {
    use crate::nir::types::Stage;
    match program.stage {
        Stage::Vertex => "VS",
        Stage::TessCtrl => "TCS",
        Stage::TessEval => "TES",
        Stage::Geometry => "GS",
        Stage::Fragment => "FS",
        Stage::Compute => "CS",
        Stage::Task => "TASK",
        Stage::Mesh => "MESH",
        Stage::Kernel => "CL",
    }
}
