//! The data model: shader, variables, functions, the control-flow tree and the instruction arena.

use super::opcodes::{AluOp, IndexKind, Intrinsic};
/// Variable modes are vocabulary of the whole IR, defined with its types.
pub use super::types::VarMode;
use super::types::{AluType, GlslType, Stage};

pub use super::tex::{TexOp, TexSrc};

/// Dense SSA value id: the `N` of `%N`. Indexes [`Impl::defs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SsaId(pub u32);

/// Index into [`Impl::blocks`]; equals the printed `bN` because blocks are kept in program order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// Index into [`Impl::instrs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstrId(pub u32);

/// A whole shader: header info, global variables, functions, and any backend text that followed
/// the NIR in the dump (kept so a dump prints back unchanged).
#[derive(Clone, Debug, PartialEq)]
pub struct Shader {
    pub info: ShaderInfo,
    pub variables: Vec<Variable>,
    pub functions: Vec<Function>,
    /// Lines after the last function (e.g. Intel's "VS Output VUE map" report), verbatim.
    pub trailer: String,
}

impl Shader {
    pub fn stage(&self) -> Stage {
        self.info.stage
    }
    pub fn name(&self) -> Option<&str> {
        self.info.field("name")
    }
    /// The sampler uniform a texture instruction's `sampler_index` refers to: the one whose
    /// binding range (`binding` .. `binding + array length`) holds it. It tells the texture's
    /// dimensionality and arrayness, which nir_print does not write on `tex`. (Backends may
    /// offset `texture_index` into their binding tables; the sampler index stays the binding.)
    pub fn sampler_variable(&self, sampler_index: u32) -> Option<&Variable> {
        self.variables.iter().find(|v| {
            let len = v.ty.arrays.iter().product::<u32>().max(1);
            v.mode == VarMode::Uniform
                && v.ty.class() == super::types::TypeClass::Sampler
                && (v.binding..v.binding.saturating_add(len)).contains(&sampler_index)
        })
    }

    /// The implementation of the entry point (the first function with a body).
    pub fn entry(&self) -> Option<&Impl> {
        self.functions.iter().find_map(|f| f.body.as_ref())
    }
    pub fn entry_mut(&mut self) -> Option<&mut Impl> {
        self.functions.iter_mut().find_map(|f| f.body.as_mut())
    }
}

/// The shader_info block Mesa prints before the variables.
///
/// Every header line between `shader:` and `inputs:` is kept as a (key, value) pair in order,
/// so that headers of any stage print back exactly; typed accessors read the few fields the
/// compiler needs. `stage` comes from the `shader:` line; the numeric `stage:` line is one of
/// the fields (the builder writes both).
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderInfo {
    pub stage: Stage,
    pub fields: Vec<(String, String)>,
    pub num_inputs: u32,
    pub num_outputs: u32,
    pub num_uniforms: u32,
    pub scratch_size: u32,
    pub constant_data_size: u32,
    /// The constant data's bytes, when the shader came with them (the C builder); empty when
    /// it did not (nir_print writes only the size).
    pub constant_data: Vec<u8>,
}

impl ShaderInfo {
    /// The header of a `stage` shader with no fields, sizes or constant data yet.
    pub fn new(stage: Stage) -> ShaderInfo {
        ShaderInfo {
            stage,
            fields: Vec::new(),
            num_inputs: 0,
            num_outputs: 0,
            num_uniforms: 0,
            scratch_size: 0,
            constant_data_size: 0,
            constant_data: Vec::new(),
        }
    }

    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    pub fn set_field(&mut self, key: &str, value: &str) {
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some(f) => f.1 = value.to_string(),
            None => self.fields.push((key.to_string(), value.to_string())),
        }
    }
    /// A 64-bit slot mask printed as bit ranges (`inputs_read: 0,15-17`); 0 when absent.
    pub fn slot_mask(&self, key: &str) -> Option<u64> {
        let Some(v) = self.field(key) else {
            return Some(0);
        };
        let mut mask = 0u64;
        for part in v.split(',') {
            let (lo, hi) = match part.split_once('-') {
                Some((a, b)) => (a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?),
                None => {
                    let n = part.trim().parse::<u32>().ok()?;
                    (n, n)
                }
            };
            if lo > hi || hi > 63 {
                return None;
            }
            for bit in lo..=hi {
                mask |= 1 << bit;
            }
        }
        Some(mask)
    }

    /// Whether defs carry a `con`/`div` divergence flag in the text.
    pub fn divergence_analysis_run(&self) -> bool {
        self.field("divergence_analysis_run") == Some("true")
    }
}

/// A `decl_var`.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    pub mode: VarMode,
    /// Qualifier words printed before the mode (`centroid`, `sample`, `patch`, `invariant`...).
    pub qualifiers: Vec<String>,
    /// `INTERP_MODE_NONE`, `INTERP_MODE_SMOOTH`, ...
    pub interpolation: String,
    /// Access qualifiers (`coherent`, `readonly`...); empty prints `none`.
    pub access: Vec<String>,
    /// Image format short name for image variables.
    pub image_format: Option<String>,
    /// `highp`, `mediump`, `lowp`, or None.
    pub precision: Option<String>,
    pub ty: GlslType,
    pub name: String,
    /// Location as printed: a slot name (`VARYING_SLOT_POS`), a number, or `~0`.
    pub location: String,
    /// Component suffix of I/O variables (`xyzw`, `zw` ...): gives location_frac.
    pub components: Option<String>,
    pub driver_location: u32,
    pub binding: u32,
    pub compact: bool,
    /// Initializer text after ` = ` (constant values, `null`, sampler state), verbatim.
    pub initializer: Option<String>,
}

impl Variable {
    /// The location as a number (Mesa's `data.location`): slot names map through
    /// [`super::slots`], `~0` is `u32::MAX`.
    pub fn location_number(&self) -> Option<u32> {
        super::slots::slot_number(&self.location)
    }

    /// First component within the slot (Mesa's `location_frac`).
    pub fn location_frac(&self) -> u32 {
        match self.components.as_deref().and_then(|c| c.chars().next()) {
            Some(c @ 'x'..='z') => c as u32 - 'x' as u32,
            Some('w') => 3,
            Some(c @ 'a'..='p') => c as u32 - 'a' as u32,
            _ => 0,
        }
    }
}

/// A `decl_function`, with its implementation when it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub num_params: u32,
    /// `(noinline)` / `(inline)` marker, verbatim.
    pub inline_hint: String,
    pub body: Option<Impl>,
}

/// Description of one SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Def {
    pub num_components: u8,
    pub bit_size: u8,
    pub divergent: bool,
    /// The instruction that defines the value.
    pub instr: InstrId,
}

/// A function body.
///
/// Storage: every instruction lives in the `instrs` arena and is referred to by [`InstrId`];
/// every basic block lives in `blocks` (in program order, the last one being the end block);
/// the structured control flow is the tree `body` of [`CfNode`]s whose leaves are blocks; SSA
/// values are dense [`SsaId`]s indexing `defs` (None for ids no instruction defines).
#[derive(Clone, Debug, PartialEq)]
pub struct Impl {
    /// `decl_var`s of function-temporary variables.
    pub locals: Vec<Variable>,
    pub instrs: Vec<Instr>,
    pub blocks: Vec<Block>,
    pub body: Vec<CfNode>,
    pub defs: Vec<Option<Def>>,
    /// Number of SSA ids allocated (Mesa's `ssa_alloc`): at least `defs.len()`. It only sets
    /// the printed column width, but is kept so that text prints back unchanged.
    pub ssa_alloc: u32,
}

/// A basic block: instructions in order. Its CFG edges are derived from the tree (see `cfg`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Block {
    pub instrs: Vec<InstrId>,
}

/// A node of the structured control-flow tree.
#[derive(Clone, Debug, PartialEq)]
pub enum CfNode {
    Block(BlockId),
    If(IfNode),
    Loop(LoopNode),
}

#[derive(Clone, Debug, PartialEq)]
pub struct IfNode {
    pub condition: SsaId,
    /// nir_print's control comment (`flatten`, `don't flatten`...), if any.
    pub control: Option<String>,
    pub then_body: Vec<CfNode>,
    pub else_body: Vec<CfNode>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LoopNode {
    pub body: Vec<CfNode>,
    /// The `continue { }` construct; empty when the loop has none.
    pub continue_body: Vec<CfNode>,
}

/// An instruction and the block it sits in.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub block: BlockId,
    pub kind: InstrKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum InstrKind {
    Alu(AluInstr),
    LoadConst(LoadConstInstr),
    Undef(SsaId),
    Phi(PhiInstr),
    Jump(JumpKind),
    Intrinsic(IntrinsicInstr),
    Tex(TexInstr),
    Deref(DerefInstr),
}

impl InstrKind {
    /// The value this instruction defines, if any.
    pub fn def(&self) -> Option<SsaId> {
        match self {
            InstrKind::Alu(a) => Some(a.def),
            InstrKind::LoadConst(c) => Some(c.def),
            InstrKind::Undef(d) => Some(*d),
            InstrKind::Phi(p) => Some(p.def),
            InstrKind::Jump(_) => None,
            InstrKind::Intrinsic(i) => i.def,
            InstrKind::Tex(t) => Some(t.def),
            InstrKind::Deref(d) => Some(d.def),
        }
    }

    /// Every SSA value this instruction reads, in source order.
    pub fn srcs(&self) -> Vec<SsaId> {
        match self {
            InstrKind::Alu(a) => a.srcs.iter().map(|s| s.ssa).collect(),
            InstrKind::Phi(p) => p.srcs.iter().map(|s| s.1).collect(),
            InstrKind::Intrinsic(i) => i.srcs.clone(),
            InstrKind::Tex(t) => t.srcs.iter().map(|s| s.1).collect(),
            InstrKind::Deref(d) => match &d.kind {
                DerefKind::Array { parent, index } => {
                    vec![*parent, *index]
                }
                DerefKind::Var(_) => Vec::new(),
            },
            InstrKind::LoadConst(_) | InstrKind::Undef(_) | InstrKind::Jump(_) => Vec::new(),
        }
    }
}

/// An ALU source: a value and the component read for each channel of the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AluSrc {
    pub ssa: SsaId,
    pub swizzle: [u8; 16],
}

impl AluSrc {
    pub const IDENTITY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

    pub fn new(ssa: SsaId) -> AluSrc {
        AluSrc {
            ssa,
            swizzle: AluSrc::IDENTITY,
        }
    }
    pub fn swizzled(ssa: SsaId, comps: &[u8]) -> AluSrc {
        let mut swizzle = AluSrc::IDENTITY;
        swizzle[..comps.len()].copy_from_slice(comps);
        AluSrc { ssa, swizzle }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct AluInstr {
    pub op: AluOp,
    pub def: SsaId,
    pub srcs: Vec<AluSrc>,
    /// `!`: the result must not be changed by algebraic rewrites.
    pub exact: bool,
    pub no_signed_wrap: bool,
    pub no_unsigned_wrap: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LoadConstInstr {
    pub def: SsaId,
    /// Raw bits per component (booleans are 0/1), zero-extended to 64 bits.
    pub values: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PhiInstr {
    pub def: SsaId,
    /// (predecessor block, value) pairs in printed order.
    pub srcs: Vec<(BlockId, SsaId)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpKind {
    Break,
    Continue,
    Return,
    Halt,
}

impl JumpKind {
    pub fn name(self) -> &'static str {
        match self {
            JumpKind::Break => "break",
            JumpKind::Continue => "continue",
            JumpKind::Return => "return",
            JumpKind::Halt => "halt",
        }
    }
}

/// A constant index value.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexValue {
    /// Plain integer indices (`base=4`).
    Int(i64),
    /// `wrmask=xz`: bit i set when component i is written.
    WriteMask(u32),
    /// `src_type=float32`, `dest_type=...`.
    Type(AluType),
    /// Indices with structured spellings (access, io semantics, xfb, scopes...), verbatim.
    Text(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct IntrinsicInstr {
    pub intrinsic: Intrinsic,
    pub def: Option<SsaId>,
    /// `num_components` of the instruction: the destination's width when it has one,
    /// otherwise the width of the value stored (used to print write masks).
    pub num_components: u8,
    pub srcs: Vec<SsaId>,
    /// One value per entry of the intrinsic's index list, in table order.
    pub indices: Vec<IndexValue>,
}

impl IntrinsicInstr {
    pub fn index(&self, kind: IndexKind) -> Option<&IndexValue> {
        let slot = self.intrinsic.index_slot(kind)?;
        self.indices.get(slot)
    }
    pub fn int_index(&self, kind: IndexKind) -> Option<i64> {
        match self.index(kind)? {
            IndexValue::Int(v) => Some(*v),
            IndexValue::WriteMask(m) => Some(*m as i64),
            _ => None,
        }
    }
    /// The slot name of the `io location=` index (`VARYING_SLOT_POS`, `FRAG_RESULT_COLOR`...).
    pub fn io_location(&self) -> Option<&str> {
        match self.index(IndexKind::IoSemantics)? {
            IndexValue::Text(t) => t.strip_prefix("io location=")?.split(' ').next(),
            _ => None,
        }
    }

    /// Whether the `io` semantics mark the second colour of dual-source blending
    /// (`nir_io_semantics::dual_source_blend_index`, printed `dualsrc`).
    pub fn io_dual_source(&self) -> bool {
        matches!(self.index(IndexKind::IoSemantics),
            Some(IndexValue::Text(t)) if t.split(' ').any(|w| w == IO_DUAL_SOURCE))
    }

    pub fn type_index(&self, kind: IndexKind) -> Option<AluType> {
        match self.index(kind)? {
            IndexValue::Type(t) => Some(*t),
            _ => None,
        }
    }
}

/// nir_print's word for the dual-source blend flag of `nir_io_semantics`.
pub const IO_DUAL_SOURCE: &str = "dualsrc";

#[derive(Clone, Debug, PartialEq)]
pub struct TexInstr {
    pub op: TexOp,
    pub def: SsaId,
    pub dest_type: AluType,
    pub srcs: Vec<(TexSrc, SsaId)>,
    pub texture_index: Option<u32>,
    pub sampler_index: Option<u32>,
    /// Less common trailing fields (`texture non-uniform`, `N (gather_component)`...), verbatim.
    pub extra: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DerefKind {
    /// `deref_var &name`: the variable's name.
    Var(String),
    /// `deref_array &(*%parent)[%index]`.
    Array { parent: SsaId, index: SsaId },
}

#[derive(Clone, Debug, PartialEq)]
pub struct DerefInstr {
    pub def: SsaId,
    pub kind: DerefKind,
    pub modes: Vec<VarMode>,
    pub ty: GlslType,
}

impl Impl {
    pub fn def(&self, id: SsaId) -> Option<&Def> {
        self.defs.get(id.0 as usize).and_then(|d| d.as_ref())
    }
    pub fn instr(&self, id: InstrId) -> &Instr {
        &self.instrs[id.0 as usize]
    }
    /// The end block (always the last block, never holding instructions).
    pub fn end_block(&self) -> BlockId {
        BlockId((self.blocks.len() as u32).saturating_sub(1))
    }
    /// The instruction defining `id`, if it is defined.
    pub fn def_instr(&self, id: SsaId) -> Option<&Instr> {
        self.def(id)
            .and_then(|d| self.instrs.get(d.instr.0 as usize))
    }
    /// Every instruction in program order (blocks in order, instructions in block order).
    pub fn instrs_in_order(&self) -> impl Iterator<Item = (InstrId, &Instr)> + '_ {
        self.blocks
            .iter()
            .flat_map(|b| b.instrs.iter())
            .filter_map(move |&id| self.instrs.get(id.0 as usize).map(|i| (id, i)))
    }

    /// The constant components of `id` when a `load_const` defines it.
    pub fn const_value(&self, id: SsaId) -> Option<&[u64]> {
        match &self.def_instr(id)?.kind {
            InstrKind::LoadConst(c) => Some(&c.values),
            _ => None,
        }
    }
}
