//! NIR → backend IR for fragment and compute shaders, at one dispatch width.
//!
//! Compute threads read their workgroup id from the header (g0) and their local ids from the
//! payload registers after it; SSBOs and shared memory are untyped surfaces
//! ([`SSBO_SURFACE_BASE`] + block, [`SLM_SURFACE`]), and the thread ends with a message to the
//! thread spawner.
//!
//! Fragment shaders may also use NIR scratch (DWORD scattered messages to the stateless
//! surface, one dword per channel), dual-source blending (a second colour in the render
//! target 0 write), centroid/sample/non-perspective barycentrics (packed in the payload in
//! Mesa's `brw_barycentric_mode` order) and texel offsets (sampler header); barriers with a
//! memory scope send brw's fence messages.
//!
//! Every NIR value becomes one operand per component: a full-width virtual register, or, when
//! the value is the same for every channel and the hardware can read it in place, an immediate
//! (load_const) or a push-constant slot (load_ubo at a constant offset). Values that sit in the
//! thread payload (barycentrics, pixel coordinates) are read from fixed registers whose numbers
//! the [`PayloadLayout`] settles before translation starts.
//!
//! The `Translator` walks the control-flow tree here (blocks, ifs, loops, jumps) and hands
//! each instruction to the file of its family, each adding an `impl Translator` block:
//!
//! - `alu`: ALU operations, one backend instruction (or a short sequence) per component;
//! - `io`: the fragment payload (barycentrics, pixel position, front face), inputs, push
//!   and pull constants, outputs, discards and the render-target writes that end the thread;
//! - `memory`: SSBO, shared, scratch and global (A64) memory, atomics and fences;
//! - `texture`: sampler messages;
//! - `compute`: the workgroup size, local and workgroup ids, barriers and the end of a
//!   compute thread.

use std::collections::BTreeMap;

use crate::intel::eu::{CondMod, MathFn, Opcode, RegType, Region};
use crate::intel::DevInfo;
use crate::nir::{
    self, AluOp, CfNode, IndexKind, InstrKind, Intrinsic, IntrinsicInstr, JumpKind, SsaId, Stage,
};

use super::ir::{File, Inst, Op, Program, Reg};
use super::CompileError;

mod alu;
mod compute;
mod io;
mod memory;
mod texture;

pub(super) use compute::compute_facts;
use compute::workgroup_id;
pub use compute::ComputeFacts;
use io::barycentric_mode;
pub use io::{PayloadLayout, UBO_SURFACE_BASE};
use memory::MemoryModes;
pub use memory::{a64_untyped_read_desc, SLM_SURFACE, SSBO_SURFACE_BASE};

/// What the translation found that the program object must describe.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShaderFacts {
    /// Payload layout.
    pub payload: PayloadLayout,
    /// Push-constant dwords in layout order: (UBO block, byte offset).
    pub push: Vec<(u32, u32)>,
    /// Input slots in setup order: (NIR base, io location name, flat).
    pub inputs: Vec<(u32, String, bool)>,
    /// Render targets written.
    pub num_render_targets: u32,
    /// The shader writes depth.
    pub computes_depth: bool,
    /// The shader can discard pixels (live-pixel mask kept in f0.1).
    pub uses_kill: bool,
    /// UBO blocks read with pull-constant messages (at `UBO_SURFACE_BASE + block`).
    pub pull_blocks: Vec<u32>,
    /// Compute-shader facts (None for fragment shaders).
    pub compute: Option<ComputeFacts>,
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
}

/// Flag subregister holding the live-pixel mask of shaders that discard (f0.1).
pub const KILL_FLAG: u8 = 1;

/// The largest push-constant block handled (in registers); more needs pull constants.
const MAX_PUSH_REGS: u32 = 32;

struct Translator<'a> {
    devinfo: &'static DevInfo,
    /// Longest sampler array the shader declares (texture_offset candidates).
    sampler_array_len: u32,
    imp: &'a nir::Impl,
    width: u8,
    prog: Program,
    values: Vec<Option<Vec<Reg>>>,
    facts: ShaderFacts,
    push_index: BTreeMap<(u32, u32), u32>,
    input_index: BTreeMap<u32, u32>,
    outputs: BTreeMap<u32, Vec<Reg>>,
    /// Second colour of dual-source blending (render target 0).
    dual_src: Option<Vec<Reg>>,
    depth: Option<Reg>,
    /// Each channel's index within the thread (0..width), computed at the top of shaders
    /// that address NIR scratch memory.
    chan_index: Option<Reg>,
}

fn unsupported(what: impl Into<String>) -> CompileError {
    CompileError::Unsupported(what.into())
}

/// Translates the entry point of a fragment or compute shader at `width` channels.
pub fn from_nir(
    devinfo: &'static DevInfo,
    shader: &nir::Shader,
    width: u8,
) -> Result<(Program, ShaderFacts), CompileError> {
    let compute = match shader.stage() {
        Stage::Fragment => false,
        Stage::Compute => true,
        other => return Err(unsupported(format!("{} stage", other.mesa_name()))),
    };
    let imp = shader
        .entry()
        .ok_or_else(|| CompileError::Invalid("shader has no entry point".into()))?;
    let sampler_array_len = shader
        .variables
        .iter()
        .filter(|v| v.ty.base.contains("sampler") || v.ty.base.contains("texture"))
        .map(|v| v.ty.arrays.iter().product::<u32>())
        .max()
        .unwrap_or(1);
    let mut t = Translator {
        devinfo,
        sampler_array_len,
        imp,
        width,
        prog: Program::default(),
        values: vec![None; imp.defs.len()],
        facts: ShaderFacts::default(),
        push_index: BTreeMap::new(),
        input_index: BTreeMap::new(),
        outputs: BTreeMap::new(),
        dual_src: None,
        depth: None,
        chan_index: None,
    };
    if compute {
        t.facts.compute = Some(compute_facts(shader)?);
        t.facts.payload.num_regs = 1 + 3 * t.per();
    } else {
        t.plan_payload();
    }
    if t.facts.uses_kill {
        // f0.1 holds the live pixels: every dispatched channel starts live (g0 == g0).
        let g0 = Reg::fixed(0, 0, RegType::UD, 0);
        let init = t.alu(Opcode::Cmp, Reg::null(RegType::UD), vec![g0, g0]);
        init.cmod = CondMod::Z;
        init.flag_subnr = KILL_FLAG;
    }
    if imp.instrs.iter().any(|ins| {
        matches!(&ins.kind, InstrKind::Intrinsic(i)
            if matches!(i.intrinsic, Intrinsic::LoadScratch | Intrinsic::StoreScratch))
    }) {
        // Scratch memory is laid out one dword per channel (see `emit_scratch`), sized by the
        // NIR's `scratch` bytes per invocation.
        t.facts.scratch_bytes = shader.info.scratch_size.next_multiple_of(4) * width as u32;
        t.chan_index = Some(t.emit_channel_index());
    }
    t.emit_list(&imp.body)?;
    if compute {
        t.emit_cs_terminate();
    } else {
        t.emit_fb_writes();
    }
    if t.facts.push.len() as u32 > MAX_PUSH_REGS * 8 {
        return Err(unsupported("pull constants (push block over 32 registers)"));
    }
    Ok((t.prog, t.facts))
}

impl<'a> Translator<'a> {
    fn per(&self) -> u32 {
        (self.width as u32 * 4).div_ceil(32)
    }

    fn vgrf(&mut self, ty: RegType) -> Reg {
        let nr = self.prog.alloc(self.per());
        Reg::vgrf(nr, ty)
    }

    fn push(&mut self, op: Op, dst: Reg, src: Vec<Reg>) -> &mut Inst {
        self.prog.insts.push(Inst::new(op, self.width, dst, src));
        self.prog.insts.last_mut().unwrap()
    }

    fn alu(&mut self, op: Opcode, dst: Reg, src: Vec<Reg>) -> &mut Inst {
        self.push(Op::Alu(op), dst, src)
    }

    fn value(&self, id: SsaId) -> Result<&Vec<Reg>, CompileError> {
        self.values
            .get(id.0 as usize)
            .and_then(|v| v.as_ref())
            .ok_or_else(|| CompileError::Invalid(format!("%{} used before its definition", id.0)))
    }

    fn comp(&self, id: SsaId, c: usize) -> Result<Reg, CompileError> {
        self.value(id)?
            .get(c)
            .copied()
            .ok_or_else(|| CompileError::Invalid(format!("%{} has no component {c}", id.0)))
    }

    fn def_info(&self, id: SsaId) -> Result<(u8, u8), CompileError> {
        let d = self
            .imp
            .def(id)
            .ok_or_else(|| CompileError::Invalid(format!("%{} has no definition", id.0)))?;
        Ok((d.num_components, d.bit_size))
    }

    fn set(&mut self, id: SsaId, regs: Vec<Reg>) {
        if let Some(slot) = self.values.get_mut(id.0 as usize) {
            *slot = Some(regs);
        }
    }

    /// A register copy of `r` when the instruction cannot take it as it is (immediates in
    /// 3-source, math and first-source positions).
    fn in_grf(&mut self, r: Reg) -> Reg {
        if r.file != File::Imm {
            return r;
        }
        let t = self.vgrf(r.ty);
        self.alu(Opcode::Mov, t, vec![r]);
        t
    }

    fn emit_list(&mut self, list: &[CfNode]) -> Result<(), CompileError> {
        for node in list {
            match node {
                CfNode::Block(b) => {
                    let block = self.imp.blocks.get(b.0 as usize).ok_or_else(|| {
                        CompileError::Invalid(format!("block b{} does not exist", b.0))
                    })?;
                    for &id in &block.instrs {
                        self.emit_instr(id)?;
                    }
                }
                CfNode::If(n) => {
                    // `if (!b)` tests b and inverts the IF's predicate, as Mesa does: the
                    // `not` then has no reader left and dead-code elimination drops it.
                    let (cond, invert) = self.if_condition(n.condition)?;
                    let mov = self.alu(
                        Opcode::Mov,
                        Reg::null(RegType::D),
                        vec![cond.retype(RegType::D)],
                    );
                    mov.cmod = CondMod::Nz;
                    let i = self.push(Op::If, Reg::BAD, vec![]);
                    i.pred = Some(invert);
                    self.emit_list(&n.then_body)?;
                    if !is_empty_list(self.imp, &n.else_body) {
                        self.push(Op::Else, Reg::BAD, vec![]);
                        self.emit_list(&n.else_body)?;
                    }
                    self.push(Op::EndIf, Reg::BAD, vec![]);
                }
                CfNode::Loop(l) => {
                    if !is_empty_list(self.imp, &l.continue_body) {
                        return Err(unsupported("loop continue construct"));
                    }
                    self.push(Op::Do, Reg::BAD, vec![]);
                    self.emit_list(&l.body)?;
                    self.push(Op::While, Reg::BAD, vec![]);
                }
            }
        }
        Ok(())
    }

    /// The register an IF tests and whether its predicate is inverted. Booleans are 0 or
    /// ~0, so `inot b` is non-zero exactly where `b` is zero and the IF can test `b` itself.
    fn if_condition(&self, cond: SsaId) -> Result<(Reg, bool), CompileError> {
        if let Some(nir::Instr {
            kind: nir::InstrKind::Alu(a),
            ..
        }) = self.imp.def_instr(cond)
        {
            if a.op == AluOp::inot {
                if let Some(s) = a.srcs.first() {
                    if self.def_info(s.ssa).map(|d| d.1) == Ok(1) {
                        return Ok((self.comp(s.ssa, s.swizzle[0] as usize)?, true));
                    }
                }
            }
        }
        Ok((self.comp(cond, 0)?, false))
    }

    fn emit_instr(&mut self, id: nir::InstrId) -> Result<(), CompileError> {
        let ins = self.imp.instr(id);
        match &ins.kind {
            InstrKind::LoadConst(c) => {
                let (_, bits) = self.def_info(c.def)?;
                if bits == 64 {
                    return Err(unsupported("64-bit constants"));
                }
                let ty = if bits == 1 { RegType::D } else { RegType::UD };
                let regs = c
                    .values
                    .iter()
                    .map(|&v| {
                        let v = if bits == 1 && v != 0 {
                            u32::MAX as u64
                        } else {
                            v
                        };
                        Reg::imm(ty, v as u32)
                    })
                    .collect();
                self.set(c.def, regs);
            }
            InstrKind::Undef(d) => {
                let (n, _) = self.def_info(*d)?;
                self.set(*d, vec![Reg::imm(RegType::UD, 0); n as usize]);
            }
            InstrKind::Alu(a) => self.emit_alu(a)?,
            InstrKind::Intrinsic(i) => self.emit_intrinsic(i)?,
            InstrKind::Tex(t) => self.emit_tex(t)?,
            InstrKind::Jump(JumpKind::Break) => {
                self.push(Op::Break, Reg::BAD, vec![]);
            }
            InstrKind::Jump(JumpKind::Continue) => {
                self.push(Op::Continue, Reg::BAD, vec![]);
            }
            InstrKind::Jump(k) => return Err(unsupported(format!("jump {}", k.name()))),
            InstrKind::Phi(_) => return Err(unsupported("phi (expected registers)")),
            InstrKind::Deref(_) => return Err(unsupported("deref instructions")),
        }
        Ok(())
    }

    fn emit_intrinsic(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let src = |k: usize| -> Result<SsaId, CompileError> {
            i.srcs
                .get(k)
                .copied()
                .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {k}")))
        };
        let def = || {
            i.def
                .ok_or_else(|| CompileError::Invalid(format!("{name} has no result")))
        };
        match i.intrinsic {
            Intrinsic::DeclReg => {
                let n = i.int_index(IndexKind::NumComponents).unwrap_or(1);
                let arr = i.int_index(IndexKind::NumArrayElems).unwrap_or(0);
                let bits = i.int_index(IndexKind::BitSize).unwrap_or(32);
                if arr != 0 {
                    return Err(unsupported("register arrays"));
                }
                if bits != 32 && bits != 1 {
                    return Err(unsupported(format!("{bits}-bit registers")));
                }
                let regs = (0..n).map(|_| self.vgrf(RegType::UD)).collect();
                self.set(def()?, regs);
            }
            Intrinsic::LoadReg => {
                if i.int_index(IndexKind::Base).unwrap_or(0) != 0 || i.srcs.len() > 1 {
                    return Err(unsupported("indirect register access"));
                }
                let reg = self.value(src(0)?)?.clone();
                let (n, _) = self.def_info(def()?)?;
                let mut out = Vec::new();
                for r in reg.iter().take(n as usize) {
                    let d = self.vgrf(RegType::UD);
                    self.alu(Opcode::Mov, d, vec![*r]);
                    out.push(d);
                }
                self.set(def()?, out);
            }
            Intrinsic::StoreReg => {
                if i.int_index(IndexKind::Base).unwrap_or(0) != 0 || i.srcs.len() > 2 {
                    return Err(unsupported("indirect register access"));
                }
                let val = self.value(src(0)?)?.clone();
                let reg = self.value(src(1)?)?.clone();
                let mask = i.int_index(IndexKind::WriteMask).unwrap_or(1) as u32;
                for (c, r) in reg.iter().enumerate() {
                    if mask & (1 << c) != 0 {
                        let v = val.get(c).copied().ok_or_else(|| {
                            CompileError::Invalid(format!("store_reg writes missing component {c}"))
                        })?;
                        self.alu(Opcode::Mov, *r, vec![v.retype(RegType::UD)]);
                    }
                }
            }
            Intrinsic::LoadBarycentricPixel
            | Intrinsic::LoadBarycentricCentroid
            | Intrinsic::LoadBarycentricSample => {
                let mode = barycentric_mode(i.intrinsic, i);
                let base = self.facts.payload.barycentric[mode]
                    .ok_or_else(|| unsupported(format!("{name} outside a fragment shader")))?;
                self.set(def()?, vec![Reg::fixed(base, 0, RegType::F, 1); 2]);
            }
            Intrinsic::LoadInterpolatedInput => {
                let bary = self.comp(src(0)?, 0)?;
                let mut out = Vec::new();
                for attr in self.input_attrs(i, src(1)?, def()?, false)? {
                    let d = self.vgrf(RegType::F);
                    self.alu(Opcode::Pln, d, vec![attr, bary]);
                    out.push(d);
                }
                self.set(def()?, out);
            }
            Intrinsic::LoadInput => {
                let mut out = Vec::new();
                for attr in self.input_attrs(i, src(0)?, def()?, true)? {
                    let d = self.vgrf(RegType::UD);
                    self.alu(Opcode::Mov, d, vec![attr]);
                    out.push(d);
                }
                self.set(def()?, out);
            }
            Intrinsic::LoadFragCoord => {
                let mut out = Vec::new();
                for (sub, pattern) in [(4u32, 0x1010_1010u32), (5, 0x1100_1100)] {
                    let t = self.vgrf(RegType::UW);
                    let src = Reg {
                        region: Some(Region::new(2, 4, 0)),
                        ..Reg::fixed(1, sub * 2, RegType::UW, 1)
                    };
                    self.alu(Opcode::Add, t, vec![src, Reg::imm(RegType::V, pattern)]);
                    // The integer pixel position, as Mesa's brw returns it: the NIR Mesa hands
                    // the Intel backend adds the half-pixel offset itself after the load (see
                    // the corpus' `fadd %frag_coord.x, 0.5` and Mesa's own ivb assembly).
                    let d = self.vgrf(RegType::F);
                    self.alu(Opcode::Mov, d, vec![t]);
                    out.push(d);
                }
                let p = self.facts.payload.clone();
                let z = self.vgrf(RegType::F);
                let zsrc = Reg::fixed(p.source_depth.unwrap_or(0), 0, RegType::F, 1);
                self.alu(Opcode::Mov, z, vec![zsrc]);
                out.push(z);
                let w = self.vgrf(RegType::F);
                let wsrc = Reg::fixed(p.source_w.unwrap_or(0), 0, RegType::F, 1);
                self.push(Op::Math(MathFn::Inv), w, vec![wsrc]);
                out.push(w);
                self.set(def()?, out);
            }
            Intrinsic::LoadFrontFace => {
                let t = self.vgrf(RegType::D);
                self.alu(
                    Opcode::Asr,
                    t,
                    vec![Reg::fixed(0, 0, RegType::W, 0), Reg::imm(RegType::D, 15)],
                );
                let d = self.vgrf(RegType::D);
                self.alu(Opcode::Not, d, vec![t]);
                self.set(def()?, vec![d]);
            }
            Intrinsic::LoadUbo => {
                let block = self
                    .imp
                    .const_value(src(0)?)
                    .and_then(|v| v.first().copied());
                let offset = self
                    .imp
                    .const_value(src(1)?)
                    .and_then(|v| v.first().copied());
                let Some(block) = block else {
                    return Err(unsupported("load_ubo with a non-constant block index"));
                };
                let Some(offset) = offset else {
                    return self.emit_pull_constant(i, block as u32, src(1)?);
                };
                let (n, bits) = self.def_info(def()?)?;
                if bits != 32 || offset % 4 != 0 {
                    return Err(unsupported("load_ubo of non-dword data"));
                }
                let mut out = Vec::new();
                for c in 0..n as u32 {
                    let key = (block as u32, offset as u32 + 4 * c);
                    let next = self.facts.push.len() as u32;
                    let slot = *self.push_index.entry(key).or_insert(next);
                    if slot == next {
                        self.facts.push.push(key);
                    }
                    out.push(Reg {
                        file: File::Uniform,
                        nr: slot,
                        ty: RegType::UD,
                        stride: 0,
                        ..Reg::BAD
                    });
                }
                self.set(def()?, out);
            }
            Intrinsic::StoreOutput => {
                let loc = i.io_location().unwrap_or("").to_string();
                let dual = matches!(
                    i.index(IndexKind::IoSemantics),
                    Some(nir::IndexValue::Text(t)) if t.split(' ').any(|w| w == "dualsrc")
                );
                let first = i.int_index(IndexKind::Component).unwrap_or(0) as usize;
                let mask = i.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u32;
                let val = self.value(src(0)?)?.clone();
                if dual {
                    // The second colour of dual-source blending: blend factors for render
                    // target 0, sent in the same message as the first.
                    if loc != "FRAG_RESULT_DATA0" && loc != "FRAG_RESULT_COLOR" {
                        return Err(unsupported(format!(
                            "dual-source blending into {loc} (only render target 0 blends \
                             with two sources)"
                        )));
                    }
                    if self.dual_src.is_none() {
                        let regs = (0..4).map(|_| self.vgrf(RegType::UD)).collect();
                        self.dual_src = Some(regs);
                    }
                    let regs = self.dual_src.clone().unwrap_or_default();
                    for (c, v) in val.iter().enumerate() {
                        if mask & (1 << c) != 0 && first + c < 4 {
                            self.alu(Opcode::Mov, regs[first + c], vec![v.retype(RegType::UD)]);
                        }
                    }
                    return Ok(());
                }
                if loc == "FRAG_RESULT_DEPTH" {
                    let d = self.vgrf(RegType::F);
                    self.alu(Opcode::Mov, d, vec![val[0].retype(RegType::F)]);
                    self.depth = Some(d);
                    self.facts.computes_depth = true;
                    return Ok(());
                }
                let rt = if loc == "FRAG_RESULT_COLOR" {
                    0
                } else if let Some(n) = loc.strip_prefix("FRAG_RESULT_DATA") {
                    n.parse::<u32>()
                        .map_err(|_| unsupported(format!("output {loc}")))?
                } else {
                    return Err(unsupported(format!("fragment output {loc}")));
                };
                if !self.outputs.contains_key(&rt) {
                    let regs = (0..4).map(|_| self.vgrf(RegType::UD)).collect();
                    self.outputs.insert(rt, regs);
                }
                let regs = self.outputs[&rt].clone();
                for (c, v) in val.iter().enumerate() {
                    if mask & (1 << c) != 0 && first + c < 4 {
                        self.alu(Opcode::Mov, regs[first + c], vec![v.retype(RegType::UD)]);
                    }
                }
            }
            Intrinsic::Discard | Intrinsic::Terminate | Intrinsic::Demote => {
                // Clear the live bit of every channel running this.
                let g0 = Reg::fixed(0, 0, RegType::UD, 0);
                let k = self.alu(Opcode::Cmp, Reg::null(RegType::UD), vec![g0, g0]);
                k.cmod = CondMod::Nz;
                k.flag_subnr = KILL_FLAG;
                k.pred = Some(false);
            }
            Intrinsic::DiscardIf | Intrinsic::TerminateIf | Intrinsic::DemoteIf => {
                // Live pixels stay live where the condition is false.
                let c = self.in_grf(self.comp(src(0)?, 0)?.retype(RegType::D));
                let k = self.alu(
                    Opcode::Cmp,
                    Reg::null(RegType::D),
                    vec![c, Reg::imm(RegType::D, 0)],
                );
                k.cmod = CondMod::Z;
                k.flag_subnr = KILL_FLAG;
                k.pred = Some(false);
            }
            Intrinsic::LoadLocalInvocationId => {
                let (n, _) = self.def_info(def()?)?;
                let out = (0..n as u32).map(|k| self.local_id(k)).collect();
                self.set(def()?, out);
            }
            Intrinsic::LoadWorkgroupId | Intrinsic::LoadWorkgroupIdZeroBase => {
                self.compute_only(name)?;
                let (n, _) = self.def_info(def()?)?;
                let out = (0..n as usize).map(|k| workgroup_id(k.min(2))).collect();
                self.set(def()?, out);
            }
            Intrinsic::LoadWorkgroupSize => {
                let size = self.compute_only(name)?.local_size;
                let (n, _) = self.def_info(def()?)?;
                let out = (0..n as usize)
                    .map(|k| Reg::imm(RegType::UD, size[k.min(2)]))
                    .collect();
                self.set(def()?, out);
            }
            Intrinsic::LoadLocalInvocationIndex => {
                let [sx, sy, sz] = self.compute_only(name)?.local_size;
                let x = self.local_id(0);
                let index = if sy * sz == 1 {
                    x
                } else {
                    // ((z * sy) + y) * sx + x
                    let (y, z) = (self.local_id(1), self.local_id(2));
                    let t = self.vgrf(RegType::UD);
                    self.alu(Opcode::Mul, t, vec![z, Reg::imm(RegType::UD, sy)]);
                    self.alu(Opcode::Add, t, vec![t, y]);
                    self.alu(Opcode::Mul, t, vec![t, Reg::imm(RegType::UD, sx)]);
                    self.alu(Opcode::Add, t, vec![t, x]);
                    t
                };
                self.set(def()?, vec![index]);
            }
            Intrinsic::LoadGlobalInvocationId | Intrinsic::LoadGlobalInvocationIdZeroBase => {
                let size = self.compute_only(name)?.local_size;
                let (n, _) = self.def_info(def()?)?;
                let mut out = Vec::new();
                for k in 0..n as usize {
                    let k = k.min(2);
                    let local = self.local_id(k as u32);
                    let t = self.vgrf(RegType::UD);
                    self.alu(
                        Opcode::Mul,
                        t,
                        vec![workgroup_id(k), Reg::imm(RegType::UD, size[k])],
                    );
                    self.alu(Opcode::Add, t, vec![t, local]);
                    out.push(t);
                }
                self.set(def()?, out);
            }
            Intrinsic::LoadSsbo | Intrinsic::LoadShared => {
                let (n, bits) = self.def_info(def()?)?;
                if bits != 32 {
                    return Err(unsupported(format!("{name} of {bits}-bit data")));
                }
                let (surface, offset) = if i.intrinsic == Intrinsic::LoadSsbo {
                    (self.ssbo_surface(src(0)?)?, self.comp(src(1)?, 0)?)
                } else {
                    self.compute_only(name)?;
                    (SLM_SURFACE, self.comp(src(0)?, 0)?)
                };
                let base = if i.intrinsic == Intrinsic::LoadShared {
                    i.int_index(IndexKind::Base).unwrap_or(0) as u32
                } else {
                    0
                };
                let addr = self.address(offset, base);
                let out = self.untyped_read(surface, addr, n as u32)?;
                self.set(def()?, out);
            }
            Intrinsic::StoreSsbo | Intrinsic::StoreShared => {
                let (_, bits) = self.def_info(src(0)?)?;
                if bits != 32 {
                    return Err(unsupported(format!("{name} of {bits}-bit data")));
                }
                let (surface, offset) = if i.intrinsic == Intrinsic::StoreSsbo {
                    (self.ssbo_surface(src(1)?)?, self.comp(src(2)?, 0)?)
                } else {
                    self.compute_only(name)?;
                    (SLM_SURFACE, self.comp(src(1)?, 0)?)
                };
                let base = if i.intrinsic == Intrinsic::StoreShared {
                    i.int_index(IndexKind::Base).unwrap_or(0) as u32
                } else {
                    0
                };
                let value = self.value(src(0)?)?.clone();
                let mask = i.int_index(IndexKind::WriteMask).unwrap_or(1) as u32;
                // One message per run of consecutive written components.
                let mut c = 0;
                while c < value.len() as u32 {
                    if mask & (1 << c) == 0 {
                        c += 1;
                        continue;
                    }
                    let start = c;
                    while c < value.len() as u32 && mask & (1 << c) != 0 && c - start < 4 {
                        c += 1;
                    }
                    let addr = self.address(offset, base + 4 * start);
                    self.untyped_write(surface, addr, &value[start as usize..c as usize])?;
                }
            }
            Intrinsic::SsboAtomic
            | Intrinsic::SsboAtomicSwap
            | Intrinsic::SharedAtomic
            | Intrinsic::SharedAtomicSwap => {
                let ssbo = matches!(
                    i.intrinsic,
                    Intrinsic::SsboAtomic | Intrinsic::SsboAtomicSwap
                );
                let (surface, first) = if ssbo {
                    (self.ssbo_surface(src(0)?)?, 1)
                } else {
                    self.compute_only(name)?;
                    (SLM_SURFACE, 0)
                };
                let base = if ssbo {
                    0
                } else {
                    i.int_index(IndexKind::Base).unwrap_or(0) as u32
                };
                let op = match i.index(IndexKind::AtomicOp) {
                    // Structured indices keep their spelling (`atomic_op=iadd`).
                    Some(nir::IndexValue::Text(t)) => {
                        t.strip_prefix("atomic_op=").unwrap_or(t).to_string()
                    }
                    _ => return Err(CompileError::Invalid(format!("{name} without atomic_op"))),
                };
                let swap = matches!(
                    i.intrinsic,
                    Intrinsic::SsboAtomicSwap | Intrinsic::SharedAtomicSwap
                );
                let aop = match (op.as_str(), swap) {
                    ("iadd", false) => 7,
                    ("imin", false) => 11,
                    ("umin", false) => 13,
                    ("imax", false) => 10,
                    ("umax", false) => 12,
                    ("iand", false) => 1,
                    ("ior", false) => 2,
                    ("ixor", false) => 3,
                    ("xchg", false) => 4,
                    ("cmpxchg", true) => 14,
                    (other, _) => {
                        return Err(unsupported(format!("{name} with atomic_op={other}")))
                    }
                };
                let offset = self.comp(src(first)?, 0)?;
                let mut data = vec![self.comp(src(first + 1)?, 0)?];
                if swap {
                    data.push(self.comp(src(first + 2)?, 0)?);
                }
                let addr = self.address(offset, base);
                let old = self.untyped_atomic(surface, aop, addr, &data, i.def.is_some());
                if let Some(d) = i.def {
                    self.set(d, vec![old]);
                }
            }
            Intrinsic::Barrier => {
                let scope = |k: IndexKind, key: &str, default: bool| match i.index(k) {
                    Some(nir::IndexValue::Text(t)) => !t
                        .strip_prefix(key)
                        .unwrap_or(t)
                        .eq_ignore_ascii_case("none"),
                    Some(nir::IndexValue::Int(v)) => *v != 0,
                    _ => default,
                };
                let execution = scope(IndexKind::ExecutionScope, "execution_scope=", false);
                // As brw: the memory part first (a fence), then the workgroup meets.
                if scope(IndexKind::MemoryScope, "memory_scope=", false) {
                    let modes = match i.index(IndexKind::MemoryModes) {
                        Some(nir::IndexValue::Text(t)) => {
                            MemoryModes::parse(t.strip_prefix("memory_modes=").unwrap_or(t))
                        }
                        _ => MemoryModes::ALL,
                    };
                    self.emit_memory_fence(modes);
                }
                if execution {
                    self.emit_gateway_barrier()?;
                }
            }
            Intrinsic::LoadScratch | Intrinsic::StoreScratch => {
                self.emit_scratch(i, i.intrinsic == Intrinsic::StoreScratch)?
            }
            Intrinsic::LoadRelocConstIntel => {
                let id = i.int_index(IndexKind::ParamIdx).unwrap_or(0) as u32;
                let v = self.reloc_const(id)?;
                self.set(def()?, vec![v]);
            }
            Intrinsic::LoadGlobalConstant => {
                let (n, bits) = self.def_info(def()?)?;
                let addr = self.comp(src(0)?, 0)?;
                let out = self.a64_read(addr, n as u32, bits)?;
                self.set(def()?, out);
            }
            _ => return Err(unsupported(format!("intrinsic {name}"))),
        }
        Ok(())
    }
}

fn is_empty_list(imp: &nir::Impl, list: &[CfNode]) -> bool {
    list.iter().all(|n| match n {
        CfNode::Block(b) => imp
            .blocks
            .get(b.0 as usize)
            .map_or(true, |b| b.instrs.is_empty()),
        _ => false,
    })
}
