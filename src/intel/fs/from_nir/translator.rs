//! The translator's state, which every family of the translation (`alu`, `io`, `memory`,
//! `texture`, `compute`, `vertex`, ...) extends with its own `impl Translator` block, and the
//! small helpers they all use.

use std::collections::BTreeMap;

use crate::intel::DevInfo;
use crate::nir::{self, IntrinsicInstr, SsaId};

use super::super::ir::{Program, Reg};
use super::facts::ShaderFacts;
use super::CompileError;

pub(super) struct Translator<'a> {
    pub(super) devinfo: &'static DevInfo,
    /// Longest sampler array the shader declares (texture_offset candidates).
    pub(super) sampler_array_len: u32,
    /// The UBO blocks the shader declares (`num_ubos`): those a load with a run-time block
    /// index can read.
    pub(super) num_ubos: u32,
    pub(super) imp: &'a nir::Impl,
    pub(super) width: u8,
    pub(super) prog: Program,
    pub(super) values: Vec<Option<Vec<Reg>>>,
    pub(super) facts: ShaderFacts,
    pub(super) push_index: BTreeMap<(u32, u32), u32>,
    /// Mesa's binding model: the pushed dwords are fixed by the UBO ranges before
    /// translation; a load outside them is pulled.
    pub(super) push_fixed: bool,
    /// The push block's size in registers.
    pub(super) max_push_regs: u32,
    pub(super) input_index: BTreeMap<u32, u32>,
    pub(super) outputs: BTreeMap<u32, Vec<Reg>>,
    /// Vertex-shader outputs by varying slot.
    pub(super) vs_outputs: VsOutputs,
    /// Second colour of dual-source blending (render target 0).
    pub(super) dual_src: Option<Vec<Reg>>,
    pub(super) depth: Option<Reg>,
    /// Each channel's index within the thread (0..width), computed at the top of shaders
    /// that address NIR scratch memory.
    pub(super) chan_index: Option<Reg>,
    /// Mesa's binding model: each channel's local invocation id and index, computed at the
    /// top of compute shaders that read them (from the subgroup id and the channel index).
    pub(super) local_ids: Option<LocalIds>,
    /// Geometry-shader state (gs.rs); None for other stages.
    pub(super) gs: Option<super::gs_state::GsState>,
    /// A TES's URB-read payloads, shared by the reads that can share them (tes.rs).
    pub(super) tes_reads: super::tes_reads::UrbReadPayloads,
    /// A TCS's `gl_InvocationID` (the channel number), made at the top (tcs.rs).
    pub(super) tcs_invocation: Option<Reg>,
}

pub(super) fn unsupported(what: impl Into<String>) -> CompileError {
    CompileError::Unsupported(what.into())
}

/// The varyings a vertex shader writes, with their four component registers (unwritten
/// components keep an undefined register).
pub(super) type VsOutputs = BTreeMap<u32, [Reg; 4]>;

/// Each channel's local invocation id (x, y, z) and index, computed once at the top of the
/// shader (Mesa's binding model).
#[derive(Debug, Clone, Copy)]
pub(super) struct LocalIds {
    pub(super) id: [Reg; 3],
    pub(super) index: Reg,
}

/// Source `k` of intrinsic `i`.
pub(super) fn intrinsic_src(i: &IntrinsicInstr, k: usize) -> Result<SsaId, CompileError> {
    let name = i.intrinsic.name();
    i.srcs
        .get(k)
        .copied()
        .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {k}")))
}

/// The value intrinsic `i` defines.
pub(super) fn intrinsic_def(i: &IntrinsicInstr) -> Result<SsaId, CompileError> {
    let name = i.intrinsic.name();
    i.def
        .ok_or_else(|| CompileError::Invalid(format!("{name} has no result")))
}
