//! Which backend's NIR a shader is: Mesa lowers NIR differently for brw and for etnaviv before
//! the backend sees it, and gpucc reads each family's form, not the other's.
//!
//! - Intel form (what brw receives): I/O lowered to intrinsics (`store_output`, fragment
//!   inputs through `load_barycentric_*` + `load_interpolated_input`), out of SSA with
//!   registers (`decl_reg`, `load_reg`, `store_reg`), `fdot*_replicated`.
//! - etnaviv form (what etnaviv's backend receives): outputs stored through derefs of their
//!   variables (`deref_var` + `store_deref`), uniforms as `load_uniform`, texture sizes as
//!   `load_texture_scale` (and `load_texture_size_etna`, etnaviv's own intrinsic for
//!   `txs`), float comparisons `slt`/`sge`/`seq`/`sne` and `fdot2/3/4`.
//!
//! The markers were chosen from the corpus (shared/corpus/nir): each occurs in one family's
//! dumps and never in the other's. A compile that fails on a shader of the other form gets
//! [`wrong_form`]'s message instead of the name of the first construct the backend lacked.

use crate::error::CompileError;
use crate::nir::{AluOp, InstrKind, Intrinsic, Shader};
use crate::target::{Family, Target};

/// The markers of each form found in a shader, as their NIR names.
#[derive(Debug, Default)]
pub struct Markers {
    pub intel: Vec<&'static str>,
    pub etnaviv: Vec<&'static str>,
}

fn intel_intrinsic(i: Intrinsic) -> Option<&'static str> {
    use Intrinsic::*;
    Some(match i {
        StoreOutput => "store_output",
        LoadInterpolatedInput => "load_interpolated_input",
        LoadBarycentricPixel => "load_barycentric_pixel",
        LoadBarycentricCentroid => "load_barycentric_centroid",
        LoadBarycentricSample => "load_barycentric_sample",
        LoadBarycentricAtOffset => "load_barycentric_at_offset",
        LoadBarycentricAtSample => "load_barycentric_at_sample",
        DeclReg => "decl_reg",
        LoadReg => "load_reg",
        StoreReg => "store_reg",
        _ => return None,
    })
}

fn etnaviv_intrinsic(i: Intrinsic) -> Option<&'static str> {
    use Intrinsic::*;
    Some(match i {
        StoreDeref => "store_deref",
        LoadDeref => "load_deref",
        LoadUniform => "load_uniform",
        LoadTextureScale => "load_texture_scale",
        LoadTextureSizeEtna => "load_texture_size_etna",
        _ => return None,
    })
}

fn intel_alu(op: AluOp) -> Option<&'static str> {
    use AluOp::*;
    Some(match op {
        fdot2_replicated => "fdot2_replicated",
        fdot3_replicated => "fdot3_replicated",
        fdot4_replicated => "fdot4_replicated",
        fdph_replicated => "fdph_replicated",
        _ => return None,
    })
}

fn etnaviv_alu(op: AluOp) -> Option<&'static str> {
    use AluOp::*;
    Some(match op {
        slt => "slt",
        sge => "sge",
        seq => "seq",
        sne => "sne",
        fdot2 => "fdot2",
        fdot3 => "fdot3",
        fdot4 => "fdot4",
        _ => return None,
    })
}

/// The form markers of `shader`, each name once, in program order.
pub fn markers(shader: &Shader) -> Markers {
    let mut m = Markers::default();
    let add = |list: &mut Vec<&'static str>, name: Option<&'static str>| {
        if let Some(n) = name {
            if !list.contains(&n) {
                list.push(n);
            }
        }
    };
    for body in shader.functions.iter().filter_map(|f| f.body.as_ref()) {
        for instr in &body.instrs {
            match &instr.kind {
                InstrKind::Intrinsic(i) => {
                    add(&mut m.intel, intel_intrinsic(i.intrinsic));
                    add(&mut m.etnaviv, etnaviv_intrinsic(i.intrinsic));
                }
                InstrKind::Alu(a) => {
                    add(&mut m.intel, intel_alu(a.op));
                    add(&mut m.etnaviv, etnaviv_alu(a.op));
                }
                InstrKind::Deref(_) => add(&mut m.etnaviv, Some("deref_var")),
                _ => {}
            }
        }
    }
    m
}

/// The family whose form the shader is in, when its markers are all of one family.
pub fn form(shader: &Shader) -> Option<Family> {
    let m = markers(shader);
    match (m.intel.is_empty(), m.etnaviv.is_empty()) {
        (false, true) => Some(Family::Intel),
        (true, false) => Some(Family::Etnaviv),
        _ => None,
    }
}

/// What each family expects, for messages.
fn expects(family: Family) -> &'static str {
    match family {
        Family::Intel => {
            "NIR as Mesa's brw receives it (I/O as store_output and \
             load_barycentric_*/load_interpolated_input, out of SSA with decl_reg)"
        }
        Family::Etnaviv => {
            "NIR as Mesa's etnaviv receives it (outputs through deref_var/store_deref, \
             uniforms as load_uniform)"
        }
    }
}

fn form_name(family: Family) -> &'static str {
    match family {
        Family::Intel => "Intel-form",
        Family::Etnaviv => "etnaviv-form",
    }
}

/// Replaces a failed compile's error by "this is X-form NIR; target T expects ..." when the
/// shader is in the other family's form; any other error is returned as it was. Only called
/// after the backend failed, so it never turns a compile that works into an error.
pub fn wrong_form(shader: &Shader, target: Target, error: CompileError) -> CompileError {
    let want = target.family();
    let Some(have) = form(shader) else {
        return error;
    };
    if have == want || !matches!(error, CompileError::Unsupported(_)) {
        return error;
    }
    let m = markers(shader);
    let evidence = match have {
        Family::Intel => m.intel,
        Family::Etnaviv => m.etnaviv,
    };
    CompileError::Unsupported(format!(
        "this is {} NIR (it has {}); target {} expects {} (the backend stopped at: {})",
        form_name(have),
        evidence.join(", "),
        target.name(),
        expects(want),
        error.to_string().trim_start_matches("unsupported: "),
    ))
}
