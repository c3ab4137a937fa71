//! The checks every shader passes before a backend sees it: what its stage may read, and what
//! the target family's NIR form may carry.
//!
//! A backend translates the intrinsics it knows and assumes the rest of Mesa's contract: a
//! fragment-only system value in a vertex shader was once read from whichever register the
//! fragment payload would have had (wrong code, returned with OK), and a `legacy_fneg` on a
//! register load was once dropped. Mesa's own pipeline never hands such NIR to its backends
//! (GLSL forbids the first; brw never runs `nir_legacy`, so the second never happens), so
//! here they are refused by name, with the instruction that carries them, before any backend
//! runs.

use crate::error::CompileError;
use crate::nir::types::Stage;
use crate::nir::{InstrKind, Intrinsic, IntrinsicInstr, Shader};
use crate::target::{Family, Target};

/// The stages that may run `i`, for the intrinsics whose meaning belongs to some stages only
/// (system values, fragment kills, shared memory); `None` for an intrinsic any stage may run.
///
/// The sets follow the GLSL built-ins and Mesa's `gl_system_value` users: fragment inputs of
/// the rasterizer, vertex-fetch counters, compute dispatch ids.
pub fn intrinsic_stages(i: Intrinsic) -> Option<&'static [Stage]> {
    use Intrinsic::*;
    const FS: &[Stage] = &[Stage::Fragment];
    const VS: &[Stage] = &[Stage::Vertex];
    const CS: &[Stage] = &[Stage::Compute, Stage::Kernel, Stage::Task, Stage::Mesh];
    const GS: &[Stage] = &[Stage::Geometry];
    const TES: &[Stage] = &[Stage::TessEval];
    const TESS: &[Stage] = &[Stage::TessCtrl, Stage::TessEval];
    const GRAPHICS: &[Stage] = &[
        Stage::Vertex,
        Stage::TessCtrl,
        Stage::TessEval,
        Stage::Geometry,
        Stage::Fragment,
    ];
    Some(match i {
        LoadFragCoord
        | LoadFragCoordZw
        | LoadFrontFace
        | LoadPointCoord
        | LoadPointCoordMaybeFlipped
        | LoadSampleId
        | LoadSamplePos
        | LoadSampleMaskIn
        | LoadHelperInvocation
        | LoadInterpolatedInput
        | LoadBarycentricPixel
        | LoadBarycentricCentroid
        | LoadBarycentricSample
        | LoadBarycentricAtOffset
        | LoadBarycentricAtSample
        | LoadBarycentricModel
        | Discard
        | DiscardIf
        | Terminate
        | TerminateIf
        | Demote
        | DemoteIf => FS,
        LoadVertexId | LoadVertexIdZeroBase | LoadInstanceId | LoadBaseVertex | LoadFirstVertex
        | LoadBaseInstance | LoadDrawId | LoadIsIndexedDraw => VS,
        LoadLocalInvocationId
        | LoadLocalInvocationIndex
        | LoadWorkgroupId
        | LoadWorkgroupIdZeroBase
        | LoadWorkgroupSize
        | LoadGlobalInvocationIdZeroBase
        | LoadNumWorkgroups
        | LoadSubgroupId
        | LoadNumSubgroups
        | LoadGlobalInvocationId
        | LoadShared
        | StoreShared
        | SharedAtomic => CS,
        EmitVertex
        | EndPrimitive
        | EmitVertexWithCounter
        | EndPrimitiveWithCounter
        | SetVertexAndPrimitiveCount => GS,
        LoadTessCoord | LoadTessCoordXy => TES,
        LoadTessLevelInner | LoadTessLevelOuter | LoadPatchVerticesIn => TESS,
        // Varyings and vertex attributes: a compute shader has no pipeline to read them from.
        LoadInput | LoadPerVertexInput | StoreOutput | StorePerVertexOutput | LoadOutput
        | LoadPerVertexOutput => GRAPHICS,
        _ => return None,
    })
}

/// Where an instruction is, for messages: the form the backends' own errors use.
fn at(block: u32, instr: usize) -> String {
    format!("block b{block}, instruction #{instr}")
}

/// Checks `shader` for `target`: every stage-bound intrinsic in a stage that has it, and, for
/// Intel, the things brw's NIR never carries. The error is `Unsupported` naming the intrinsic,
/// the stage or index, and where it is.
pub fn check(shader: &Shader, target: Target) -> Result<(), CompileError> {
    let stage = shader.stage();
    for body in shader.functions.iter().filter_map(|f| f.body.as_ref()) {
        // Which SSA values are barycentric coordinates (Intel form): they may only be the
        // first source of load_interpolated_input.
        let mut barycentric: Vec<Option<Intrinsic>> = vec![None; body.defs.len()];
        for (n, instr) in body.instrs.iter().enumerate() {
            let InstrKind::Intrinsic(i) = &instr.kind else {
                continue;
            };
            let where_ = || at(instr.block.0, n);
            if let Some(stages) = intrinsic_stages(i.intrinsic) {
                if !stages.contains(&stage) {
                    return Err(CompileError::Unsupported(format!(
                        "`{}` in a {} shader: it belongs to {} ({})",
                        i.intrinsic.name(),
                        stage.mesa_name(),
                        stage_names(stages),
                        where_()
                    )));
                }
            }
            if target.family() == Family::Intel {
                io_offset(body, i)
                    .and_then(|()| vs_output_base(stage, i))
                    .and_then(|()| legacy_modifiers(i))
                    .map_err(|m| CompileError::Unsupported(format!("{m} ({})", where_())))?;
                if is_barycentric(i.intrinsic) {
                    if let Some(seen) = i.def.and_then(|d| barycentric.get_mut(d.0 as usize)) {
                        *seen = Some(i.intrinsic);
                    }
                }
                if i.intrinsic == Intrinsic::LoadInterpolatedInput {
                    let from = i.srcs.first().and_then(|s| body.def_instr(*s));
                    let ok = matches!(from.map(|f| &f.kind),
                        Some(InstrKind::Intrinsic(b)) if is_barycentric(b.intrinsic));
                    if !ok {
                        return Err(CompileError::Unsupported(format!(
                            "`load_interpolated_input` whose barycentric source %{} is not a \
                             load_barycentric_* value ({})",
                            i.srcs.first().map_or(0, |s| s.0),
                            where_()
                        )));
                    }
                }
            }
        }
        if target.family() == Family::Intel {
            barycentric_uses(body, &barycentric)?;
        }
    }
    Ok(())
}

fn stage_names(stages: &[Stage]) -> String {
    let names: Vec<&str> = stages.iter().map(|s| s.mesa_name()).collect();
    names.join(" or ")
}

/// `nir_legacy` folds fneg/fabs/fsat into register loads and stores for backends that use
/// source modifiers; brw does not, so a set flag has no meaning it could be given here.
fn legacy_modifiers(i: &IntrinsicInstr) -> Result<(), String> {
    use crate::nir::IndexKind;
    for kind in [
        IndexKind::LegacyFabs,
        IndexKind::LegacyFneg,
        IndexKind::LegacyFsat,
    ] {
        if i.int_index(kind).is_some_and(|v| v != 0) {
            return Err(format!(
                "`{}` with {}=1: Mesa's brw never receives nir_legacy source modifiers \
                 (apply the fneg/fabs/fsat as ALU instructions)",
                i.intrinsic.name(),
                kind.name()
            ));
        }
    }
    Ok(())
}

/// An I/O intrinsic's constant slot offset lies within the `range` slots it declares (an
/// array such as gl_ClipDistance[8] keeps its element offset, `base` + 1 for CLIP_DIST1).
/// Past the range the slot is one the shader never declared: the backend would write it
/// where no VUE map or input setup expects it, so it is refused.
fn io_offset(body: &crate::nir::Impl, i: &IntrinsicInstr) -> Result<(), String> {
    use crate::nir::IndexKind;
    let k = match i.intrinsic {
        Intrinsic::LoadInput => 0,
        Intrinsic::StoreOutput | Intrinsic::LoadInterpolatedInput => 1,
        _ => return Ok(()),
    };
    let Some(&src) = i.srcs.get(k) else {
        return Ok(());
    };
    let range = i.int_index(IndexKind::Range).unwrap_or(1).max(1) as u64;
    match body.const_value(src).and_then(|v| v.first().copied()) {
        Some(v) if v >= range => Err(format!(
            "`{}` at slot offset {v}, outside the {range} slot(s) it declares",
            i.intrinsic.name()
        )),
        _ => Ok(()),
    }
}

/// brw's vertex outputs are lowered with the varying slot as their `base`
/// (driver_location = location), and the backend writes the VUE slot `base` names. An output
/// whose `base` and io location disagree would land in a slot the VUE map does not give the
/// varying the location names.
fn vs_output_base(stage: Stage, i: &IntrinsicInstr) -> Result<(), String> {
    use crate::nir::IndexKind;
    if stage != Stage::Vertex || i.intrinsic != Intrinsic::StoreOutput {
        return Ok(());
    }
    let (Some(base), Some(name)) = (i.int_index(IndexKind::Base), i.io_location()) else {
        return Ok(());
    };
    match crate::nir::slots::slot_number(name) {
        Some(slot) if i64::from(slot) != base => Err(format!(
            "`store_output` with base={base} for {name} (slot {slot}): brw's vertex outputs \
             have the varying slot as their base"
        )),
        _ => Ok(()),
    }
}

fn is_barycentric(i: Intrinsic) -> bool {
    use Intrinsic::*;
    matches!(
        i,
        LoadBarycentricPixel
            | LoadBarycentricCentroid
            | LoadBarycentricSample
            | LoadBarycentricAtOffset
            | LoadBarycentricAtSample
            | LoadBarycentricModel
    )
}

/// brw keeps a barycentric value as the interpolation setup of `load_interpolated_input`,
/// not as data: any other use (an ALU source, a store, a phi) is refused.
fn barycentric_uses(
    body: &crate::nir::Impl,
    barycentric: &[Option<Intrinsic>],
) -> Result<(), CompileError> {
    if barycentric.iter().all(Option::is_none) {
        return Ok(());
    }
    let bary = |s: crate::nir::SsaId| barycentric.get(s.0 as usize).copied().flatten();
    for (n, instr) in body.instrs.iter().enumerate() {
        let used_as_data = match &instr.kind {
            InstrKind::Intrinsic(i) => i.srcs.iter().enumerate().find_map(|(k, &s)| {
                let interpolation = i.intrinsic == Intrinsic::LoadInterpolatedInput && k == 0;
                bary(s).filter(|_| !interpolation).map(|b| (b, s))
            }),
            InstrKind::Alu(a) => a.srcs.iter().find_map(|s| bary(s.ssa).map(|b| (b, s.ssa))),
            InstrKind::Phi(p) => p.srcs.iter().find_map(|(_, s)| bary(*s).map(|b| (b, *s))),
            InstrKind::Tex(t) => t.srcs.iter().find_map(|(_, s)| bary(*s).map(|b| (b, *s))),
            _ => None,
        };
        if let Some((b, s)) = used_as_data {
            return Err(CompileError::Unsupported(format!(
                "the `{}` value %{} used as data ({}): brw takes barycentrics only as the \
                 first source of load_interpolated_input",
                b.name(),
                s.0,
                at(instr.block.0, n)
            )));
        }
    }
    Ok(())
}
