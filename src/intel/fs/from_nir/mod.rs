//! NIR → backend IR for fragment and compute shaders, at one dispatch width.
//!
//! Compute threads read their workgroup id from the header (g0) and their local ids from the
//! payload registers after it (gpucc's binding model), or compute them from the pushed
//! subgroup id and their channel index (Mesa's, `compute`); SSBOs and shared memory are untyped surfaces
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

use crate::intel::backend::binding::{BindingModel, SSBO_SURFACE_BASE, UBO_SURFACE_BASE};
use crate::intel::backend::tess::tess_eval_facts;
use crate::intel::backend::vertex::vertex_facts;
use std::collections::BTreeMap;

use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::intel::DevInfo;
use crate::nir::{
    self, CfNode, IndexKind, InstrKind, Intrinsic, IntrinsicInstr, JumpKind, SsaId, Stage,
};

use super::ir::{File, Inst, Op, Program, Reg};
use super::CompileError;

mod alu;
mod boolean;
mod compute;
mod facts;
mod gs;
mod gs_state;
mod io;
mod memory;
mod subgroup;
mod tcs;
mod tes;
mod tes_reads;
mod texture;
mod translator;
mod vertex;

pub(in crate::intel) use compute::compute_facts;
pub use facts::{ComputeFacts, PayloadLayout, ShaderFacts, UpperHalf};
pub use gs::gs_payload_regs;
pub use io::writes_dual_source;
pub use memory::{a64_untyped_read_desc, SLM_SURFACE};
pub use tcs::TCS_PAYLOAD_REGS;
pub use tes::{urb_simd8_read_desc, TES_PAYLOAD_REGS};
pub use vertex::{urb_simd8_write_desc, VS_PAYLOAD_REGS};

use translator::{intrinsic_def, intrinsic_src, unsupported, Translator};

/// Flag subregister holding the live-pixel mask of shaders that discard (f0.1).
pub const KILL_FLAG: u8 = 1;

/// The live-pixel flag of SIMD32 programs: f1.0 (flag subregisters count 16 bits, f0.0 = 0,
/// f0.1 = 1, f1.0 = 2), since a 32-channel compare fills all of f0 (its second half's bits
/// are f0.1), as Mesa's `sample_mask_flag_subreg` puts it there.
pub const KILL_FLAG_SIMD32: u8 = 2;

/// The largest push-constant block (in registers) of gpucc's binding model: what does not
/// fit is pulled.
const MAX_PUSH_REGS: u32 = 32;

/// The largest push-constant block of Mesa's binding model (brw's `max_push_length` on
/// Gen6 and later).
const MESA_MAX_PUSH_REGS: u32 = 64;

/// Translates the entry point of a fragment, compute or (Gen8+, SIMD8) vertex shader at
/// `width` channels.
pub fn from_nir(
    devinfo: &'static DevInfo,
    shader: &nir::Shader,
    width: u8,
    binding: BindingModel,
    input_slots_valid: Option<u64>,
) -> Result<(Program, ShaderFacts), CompileError> {
    let stage = shader.stage();
    let compute = match stage {
        Stage::Fragment | Stage::Vertex | Stage::Geometry | Stage::TessEval | Stage::TessCtrl => {
            false
        }
        Stage::Compute => true,
        other => return Err(unsupported(format!("{} stage", other.mesa_name()))),
    };
    if stage == Stage::Geometry && (devinfo.ver < 80 || width != 8) {
        return Err(unsupported(format!(
            "SIMD{width} geometry shaders on {} (the scalar backend runs them SIMD8 on Gen8+)",
            devinfo.name
        )));
    }
    if stage == Stage::TessEval && (devinfo.ver < 80 || width != 8) {
        return Err(unsupported(format!(
            "SIMD{width} tessellation-evaluation shaders on {} (the scalar backend runs them \
             SIMD8 on Gen8+)",
            devinfo.name
        )));
    }
    if stage == Stage::TessCtrl && (devinfo.ver < 80 || width != 8) {
        return Err(unsupported(format!(
            "SIMD{width} tessellation-control shaders on {} (the scalar backend runs them \
             SIMD8 on Gen8+)",
            devinfo.name
        )));
    }
    if stage == Stage::Vertex {
        if devinfo.ver < 80 {
            return Err(unsupported(format!(
                "vertex shaders on {} (Gen7 runs them SIMD4x2, in the vec4 backend)",
                devinfo.name
            )));
        }
        if width != 8 {
            return Err(unsupported(format!(
                "SIMD{width} vertex shaders (vertex threads are SIMD8)"
            )));
        }
    }
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
    let num_ubos = shader
        .info
        .field("num_ubos")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut t = Translator {
        devinfo,
        sampler_array_len,
        num_ubos,
        imp,
        width,
        prog: Program::default(),
        values: vec![None; imp.defs.len()],
        facts: ShaderFacts::default(),
        push_index: BTreeMap::new(),
        push_fixed: binding.is_mesa(),
        max_push_regs: MAX_PUSH_REGS,
        input_index: BTreeMap::new(),
        outputs: BTreeMap::new(),
        vs_outputs: BTreeMap::new(),
        dual_src: None,
        depth: None,
        chan_index: None,
        local_ids: None,
        gs: None,
        tes_reads: Default::default(),
        tcs_invocation: None,
    };
    match binding {
        BindingModel::Gpucc => {
            t.facts.ubo_surface_base = UBO_SURFACE_BASE;
            t.facts.ssbo_surface_base = SSBO_SURFACE_BASE;
        }
        BindingModel::Mesa | BindingModel::MesaDriverRanges(_) => {
            t.max_push_regs = MESA_MAX_PUSH_REGS;
            // Compute programs push their subgroup id after the ranges, as brw's last param,
            // in a register of its own: brw's analysis keeps one range less for it
            // (`uses_regular_uniforms`) and its push limit counts that register.
            let (ranges, regs) = if compute {
                (
                    crate::intel::ubo_ranges::mesa_max_ranges(devinfo) - 1,
                    MESA_MAX_PUSH_REGS - 1,
                )
            } else {
                (
                    crate::intel::ubo_ranges::mesa_max_ranges(devinfo),
                    MESA_MAX_PUSH_REGS,
                )
            };
            let ranges =
                crate::intel::ubo_ranges::plan(shader, binding.driver_ranges(), ranges, regs);
            for key in ranges.iter().flat_map(|r| r.pieces(4)) {
                t.push_index.insert(key, t.facts.push.len() as u32);
                t.facts.push.push(key);
            }
            t.facts.ubo_ranges = ranges;
        }
    }
    if compute {
        let mut facts = compute_facts(shader)?;
        if binding.is_mesa() {
            // Mesa's layout: g0, then the params (the ranges, then the subgroup id); the
            // local ids are computed from the subgroup id, not pushed.
            facts.subgroup_id_param = Some(t.facts.push.len() as u32);
            t.facts.payload.num_regs = 1;
        } else {
            t.facts.payload.num_regs = 1 + 3 * t.per();
        }
        t.facts.compute = Some(facts);
    } else if stage == Stage::Vertex {
        t.facts.vertex = Some(vertex_facts(shader)?);
        t.facts.payload.num_regs = VS_PAYLOAD_REGS;
        t.prog.packed_dispatch = true;
    } else if stage == Stage::Geometry {
        let info = crate::intel::geometry::geometry_facts(shader)?;
        t.facts.payload.num_regs = gs_payload_regs(&info);
        t.facts.geometry = Some(info.clone());
        t.prog.packed_dispatch = true;
        t.begin_gs(info)?;
    } else if stage == Stage::TessCtrl {
        t.facts.tess_ctrl = Some(crate::intel::backend::tcs::tess_ctrl_facts(shader)?);
        t.facts.payload.num_regs = TCS_PAYLOAD_REGS;
        t.prog.packed_dispatch = true;
        t.start_patch_reads();
        t.begin_tcs()?;
    } else if stage == Stage::TessEval {
        t.facts.tess_eval = Some(tess_eval_facts(shader)?);
        t.facts.payload.num_regs = TES_PAYLOAD_REGS;
        t.prog.packed_dispatch = true;
        t.start_patch_reads();
    } else {
        t.plan_payload();
        let separate = shader.info.field("separate_shader") == Some("true");
        t.number_inputs(input_slots_valid.map(|v| (v, separate)))?;
    }
    if t.facts.uses_kill {
        // f0.1 holds the live pixels: every dispatched channel starts live (g0 == g0).
        let g0 = Reg::fixed(0, 0, RegType::UD, 0);
        let flag = t.kill_flag();
        let init = t.alu(Opcode::Cmp, Reg::null(RegType::UD), vec![g0, g0]);
        init.cmod = CondMod::Z;
        init.flag_subnr = flag;
    }
    if imp.instrs.iter().any(|ins| {
        matches!(&ins.kind, InstrKind::Intrinsic(i)
            if matches!(i.intrinsic, Intrinsic::LoadScratch | Intrinsic::StoreScratch))
    }) {
        // Scratch memory is laid out one dword per channel (see `emit_scratch`), sized by the
        // NIR's `scratch` bytes per invocation.
        t.facts.scratch_bytes = shader.info.scratch_size.next_multiple_of(4) * width as u32;
        t.chan_index = Some(t.emit_channel_index());
    } else if compute::reads_subgroup_invocation(imp) {
        // At the top: a value made under control flow is not there for later blocks.
        t.chan_index = Some(t.emit_channel_index());
    }
    if t.facts
        .compute
        .as_ref()
        .is_some_and(|c| c.subgroup_id_param.is_some())
        && compute::reads_local_ids(imp)
    {
        t.local_ids = Some(t.emit_local_ids_from_subgroup_id(shader)?);
    }
    t.emit_list(&imp.body)?;
    if compute {
        t.emit_cs_terminate();
    } else if stage == Stage::Vertex || stage == Stage::TessEval {
        t.emit_urb_writes()?;
    } else if stage == Stage::Geometry {
        t.end_gs()?;
    } else if stage == Stage::TessCtrl {
        t.end_tcs()?;
    } else {
        t.emit_fb_writes();
        t.header_only_workaround();
    }
    if t.facts.push_dwords() > t.max_push_regs * 8 {
        // `emit_load_ubo` pulls what does not fit.
        return Err(CompileError::Internal(format!(
            "{} pushed dwords, past the {}-register push block",
            t.facts.push_dwords(),
            t.max_push_regs
        )));
    }
    if width == 32 {
        check_simd32(&t.prog, &t.facts)?;
    }
    Ok((t.prog, t.facts))
}

/// What SIMD32 programs do not do yet: messages built here rather than from the logical
/// sampler and render-target instructions (data-port, scratch, URB) go out at the thread's
/// width, and the data port takes at most 16 channels; and the uniformizing of a sampler
/// array index uses f1, which SIMD32 keeps the live pixels of discarding shaders in.
fn check_simd32(prog: &Program, facts: &ShaderFacts) -> Result<(), CompileError> {
    for inst in &prog.insts {
        if inst.op == Op::Send && inst.exec_size > 16 {
            return Err(unsupported(format!(
                "SIMD32 data-port messages (shared function {})",
                inst.sfid
            )));
        }
        if inst.op == Op::Uniformize && facts.uses_kill {
            return Err(unsupported(
                "SIMD32 sampler-array indexing in a shader that discards (both need f1)",
            ));
        }
    }
    Ok(())
}

impl<'a> Translator<'a> {
    fn per(&self) -> u32 {
        (self.width as u32 * 4).div_ceil(32)
    }

    /// Runs of 16 channels the fragment payload is laid out in (2 at SIMD32, else 1).
    fn halves(&self) -> u32 {
        (self.width as u32).div_ceil(16)
    }

    /// The live-pixel flag subregister of a shader that discards, for this width.
    fn kill_flag(&self) -> u8 {
        if self.width == 32 {
            KILL_FLAG_SIMD32
        } else {
            KILL_FLAG
        }
    }

    /// A 16-channel `op` for half `h` of a SIMD32 program (channels 16h..16h+15).
    fn half(&mut self, op: Opcode, h: u32, dst: Reg, src: Vec<Reg>) -> &mut Inst {
        let inst = self.alu(op, dst, src);
        inst.exec_size = 16;
        inst.group = 16 * h as u8;
        inst
    }

    /// The register holding for channels 16-31 what payload register `lower` holds for
    /// channels 0-15 (a barycentric set's first register).
    fn upper_payload_reg(&self, lower: Reg) -> Result<Reg, CompileError> {
        let p = &self.facts.payload;
        let mode = (lower.file == File::Fixed)
            .then(|| p.barycentric.iter().position(|b| *b == Some(lower.nr)))
            .flatten();
        let hi = mode.and_then(|m| p.upper.barycentric[m]).ok_or_else(|| {
            unsupported(format!(
                "SIMD32 interpolation with barycentrics other than the payload's ({lower})"
            ))
        })?;
        Ok(Reg { nr: hi, ..lower })
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
        crate::util::stack::grow(|| {
            for node in list {
                match node {
                    CfNode::Block(b) => {
                        let block = self.imp.blocks.get(b.0 as usize).ok_or_else(|| {
                            CompileError::Invalid(format!("block b{} does not exist", b.0))
                        })?;
                        self.tes_reads.enter_block(b.0);
                        let order = match self.gs {
                            Some(_) => gs::sink_input_loads(self.imp, &block.instrs),
                            None => block.instrs.clone(),
                        };
                        for id in order {
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
        })
    }

    /// The register an IF tests and whether its predicate is inverted. Booleans are 0 or
    /// ~0, so `inot b` is non-zero exactly where `b` is zero and the IF can test `b` itself.
    fn if_condition(&self, cond: SsaId) -> Result<(Reg, bool), CompileError> {
        if let Some(s) = self.inot_of_boolean(cond) {
            return Ok((self.comp(s.ssa, s.swizzle[0] as usize)?, true));
        }
        Ok((self.comp(cond, 0)?, false))
    }

    fn emit_instr(&mut self, id: nir::InstrId) -> Result<(), CompileError> {
        let before = self.prog.insts.len();
        self.emit_instr_at_any_gen(id)?;
        // Gen6 builds less than Gen7: what it does not is refused with the NIR instruction
        // that asked for it.
        if self.devinfo.ver < 70 {
            if let Some(why) = super::gen6::first_unbuilt(&self.prog.insts[before..]) {
                let what = match &self.imp.instr(id).kind {
                    InstrKind::Alu(a) => a.op.name().to_string(),
                    InstrKind::Intrinsic(i) => i.intrinsic.name().to_string(),
                    InstrKind::Tex(t) => t.op.to_string(),
                    _ => "an instruction".to_string(),
                };
                return Err(unsupported(format!("{what} on Gen6: {why}")));
            }
        }
        Ok(())
    }

    fn emit_instr_at_any_gen(&mut self, id: nir::InstrId) -> Result<(), CompileError> {
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

    /// Sends each intrinsic to its family's method (see the module doc for which file holds
    /// which family).
    fn emit_intrinsic(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        match i.intrinsic {
            Intrinsic::DeclReg => self.emit_decl_reg(i),
            Intrinsic::LoadReg => self.emit_load_reg(i),
            Intrinsic::StoreReg => self.emit_store_reg(i),
            // Patch inputs and outputs, ids and barriers of a TCS (tcs.rs).
            Intrinsic::LoadPerVertexInput
            | Intrinsic::LoadOutput
            | Intrinsic::LoadPerVertexOutput
            | Intrinsic::StoreOutput
            | Intrinsic::StorePerVertexOutput
            | Intrinsic::LoadPrimitiveId
            | Intrinsic::LoadInvocationId
            | Intrinsic::Barrier
                if self.facts.tess_ctrl.is_some() =>
            {
                self.emit_tcs_intrinsic(i)
            }
            // Fragment payload, inputs, constants and outputs (io.rs).
            Intrinsic::LoadBarycentricPixel
            | Intrinsic::LoadBarycentricCentroid
            | Intrinsic::LoadBarycentricSample => self.emit_barycentric(i),
            Intrinsic::LoadInterpolatedInput => self.emit_interpolated_input(i),
            // Geometry inputs, ids, outputs and emitted vertices (gs.rs).
            Intrinsic::LoadPerVertexInput
            | Intrinsic::StoreOutput
            | Intrinsic::LoadPrimitiveId
            | Intrinsic::LoadInvocationId
            | Intrinsic::EmitVertexWithCounter
            | Intrinsic::EndPrimitiveWithCounter
            | Intrinsic::SetVertexAndPrimitiveCount
                if self.gs.is_some() =>
            {
                self.emit_gs_intrinsic(i)
            }
            // Vertex attributes, draw parameters and outputs (vertex.rs).
            Intrinsic::LoadInput if self.facts.vertex.is_some() => self.emit_vs_input(i),
            Intrinsic::StoreOutput if self.facts.vertex.is_some() => self.emit_vs_output(i),
            Intrinsic::LoadVertexId
            | Intrinsic::LoadVertexIdZeroBase
            | Intrinsic::LoadInstanceId
            | Intrinsic::LoadFirstVertex
            | Intrinsic::LoadBaseVertex
            | Intrinsic::LoadBaseInstance
            | Intrinsic::LoadDrawId
            | Intrinsic::LoadIsIndexedDraw
                if self.facts.vertex.is_some() =>
            {
                self.emit_vs_system_value(i)
            }
            // Patch inputs, domain point and primitive id of a TES (tes.rs).
            Intrinsic::LoadInput | Intrinsic::LoadPerVertexInput
                if self.facts.tess_eval.is_some() =>
            {
                self.emit_tes_input(i)
            }
            Intrinsic::StoreOutput if self.facts.tess_eval.is_some() => self.emit_vs_output(i),
            Intrinsic::LoadTessCoord => self.emit_tess_coord(i),
            Intrinsic::LoadPrimitiveId if self.facts.tess_eval.is_some() => {
                self.emit_tes_primitive_id(i)
            }
            Intrinsic::LoadInput => self.emit_flat_input(i),
            Intrinsic::LoadFragCoord => self.emit_frag_coord(i),
            Intrinsic::LoadFrontFace => self.emit_front_face(i),
            Intrinsic::LoadUbo | Intrinsic::LoadUboUniformBlockIntel => self.emit_load_ubo(i),
            Intrinsic::StoreOutput => self.emit_store_output(i),
            Intrinsic::Discard | Intrinsic::Terminate | Intrinsic::Demote => {
                self.emit_discard();
                Ok(())
            }
            Intrinsic::DiscardIf | Intrinsic::TerminateIf | Intrinsic::DemoteIf => {
                self.emit_discard_if(i)
            }
            // Compute system values and barriers (compute.rs).
            Intrinsic::LoadLocalInvocationId => self.emit_local_invocation_id(i),
            Intrinsic::LoadWorkgroupId | Intrinsic::LoadWorkgroupIdZeroBase => {
                self.emit_workgroup_id(i)
            }
            Intrinsic::LoadWorkgroupSize => self.emit_workgroup_size(i),
            Intrinsic::LoadLocalInvocationIndex => self.emit_local_invocation_index(i),
            Intrinsic::LoadGlobalInvocationId | Intrinsic::LoadGlobalInvocationIdZeroBase => {
                self.emit_global_invocation_id(i)
            }
            Intrinsic::LoadSubgroupId => self.emit_subgroup_id(i),
            Intrinsic::LoadSubgroupInvocation => self.emit_subgroup_invocation(i),
            // Subgroup operations over the thread's channels (subgroup.rs).
            Intrinsic::Reduce => self.emit_reduce(i),
            Intrinsic::FirstInvocation => self.emit_first_invocation(i),
            Intrinsic::ReadFirstInvocation | Intrinsic::ReadInvocation => {
                self.emit_read_invocation(i)
            }
            Intrinsic::LoadNumSubgroups => {
                let [sx, sy, sz] = self.compute_only(i.intrinsic.name())?.local_size;
                let n = (sx * sy * sz).div_ceil(self.width as u32);
                self.set(intrinsic_def(i)?, vec![Reg::imm(RegType::UD, n)]);
                Ok(())
            }
            Intrinsic::LoadSimdWidthIntel => {
                // Only compute hand-overs carry it (brw_nir_lower_cs_intrinsics); the
                // interpreter knows a width only for compute dispatches.
                self.compute_only(i.intrinsic.name())?;
                let width = Reg::imm(RegType::UD, self.width as u32);
                self.set(intrinsic_def(i)?, vec![width]);
                Ok(())
            }
            Intrinsic::Barrier => self.emit_barrier(i),
            // Memory (memory.rs).
            Intrinsic::LoadSsbo | Intrinsic::LoadShared => self.emit_surface_load(i),
            Intrinsic::StoreSsbo | Intrinsic::StoreShared => self.emit_surface_store(i),
            Intrinsic::SsboAtomic
            | Intrinsic::SsboAtomicSwap
            | Intrinsic::SharedAtomic
            | Intrinsic::SharedAtomicSwap => self.emit_surface_atomic(i),
            Intrinsic::LoadScratch | Intrinsic::StoreScratch => {
                self.emit_scratch(i, i.intrinsic == Intrinsic::StoreScratch)
            }
            Intrinsic::LoadRelocConstIntel => self.emit_reloc_const(i),
            Intrinsic::LoadGlobalConstant | Intrinsic::LoadGlobalConstantUniformBlockIntel => {
                self.emit_global_constant(i)
            }
            _ => Err(unsupported(format!("intrinsic {}", i.intrinsic.name()))),
        }
    }

    /// `decl_reg`: a NIR register (what is left of phis) becomes one virtual register per
    /// component, written by `store_reg` and copied out by `load_reg`.
    fn emit_decl_reg(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
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
        self.set(intrinsic_def(i)?, regs);
        Ok(())
    }

    /// `load_reg`: a copy, so that a later `store_reg` does not change the value read.
    fn emit_load_reg(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if i.int_index(IndexKind::Base).unwrap_or(0) != 0 || i.srcs.len() > 1 {
            return Err(unsupported("indirect register access"));
        }
        let reg = self.value(intrinsic_src(i, 0)?)?.clone();
        let (n, _) = self.def_info(intrinsic_def(i)?)?;
        let mut out = Vec::new();
        for r in reg.iter().take(n as usize) {
            let d = self.vgrf(RegType::UD);
            self.alu(Opcode::Mov, d, vec![*r]);
            out.push(d);
        }
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `store_reg` of the components its write mask names.
    fn emit_store_reg(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if i.int_index(IndexKind::Base).unwrap_or(0) != 0 || i.srcs.len() > 2 {
            return Err(unsupported("indirect register access"));
        }
        let val = self.value(intrinsic_src(i, 0)?)?.clone();
        let reg = self.value(intrinsic_src(i, 1)?)?.clone();
        let mask = i.int_index(IndexKind::WriteMask).unwrap_or(1) as u32;
        for (c, r) in reg.iter().enumerate() {
            if mask & (1 << c) != 0 {
                let v = val.get(c).copied().ok_or_else(|| {
                    CompileError::Invalid(format!("store_reg writes missing component {c}"))
                })?;
                self.alu(Opcode::Mov, *r, vec![v.retype(RegType::UD)]);
            }
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
