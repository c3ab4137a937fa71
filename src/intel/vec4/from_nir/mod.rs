//! NIR (vector form, out of SSA with `decl_reg`/`load_reg`/`store_reg`, as Mesa hands Gen7
//! vertex shaders to brw's vec4 backend) to the vec4 IR.
//!
//! Every SSA value is one virtual register whose first `n` components hold the value (or,
//! for pushed data, a payload register read through a swizzle); NIR swizzles become align16
//! swizzles; each NIR register array element is one virtual register written through a
//! write mask. Constants that are the same in every channel an instruction reads become
//! immediates in the one source slot the hardware allows (the last of a two-source
//! instruction); any other constant is built once in a register.

mod alu;
mod gs;
mod gs_state;
mod io;
mod ssbo;
mod tcs;
mod tcs_state;
mod tes;
mod tex;

pub use gs_state::{GsEnd, GsState};

use std::collections::BTreeMap;

use crate::intel::backend::binding::{BindingModel, SSBO_SURFACE_BASE, UBO_SURFACE_BASE};
use crate::intel::backend::vertex::vertex_facts;
use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::intel::kernel::VertexInfo;
use crate::nir::{self, AluSrc, BaseType, CfNode, InstrKind, JumpKind, SsaId};

use super::ir::{replicate, Inst, Op, Program, Src};
use super::CompileError;

/// Push-constant vec4s pushed at most (32 GRFs, two per register); constants read after
/// that many distinct vec4s are pulled.
pub const MAX_PUSH_VEC4S: u32 = 64;

/// What translation found besides the program.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// The vertex facts shared with the scalar backend (VUE map, attributes).
    pub vertex: VertexInfo,
    /// Pushed vec4s: (UBO block, byte offset of the vec4), in payload order.
    pub push: Vec<(u32, u32)>,
    /// Output virtual register per varying slot.
    pub outputs: BTreeMap<u32, u32>,
    /// Components the shader writes of each varying slot (the union of its stores' masks):
    /// the URB message copies only those, so the last computation of a partly written
    /// output can write the message register itself.
    pub output_masks: BTreeMap<u32, u8>,
    /// UBO blocks read with pull-constant loads (at `ubo_surface_base + block`).
    pub pull_blocks: Vec<u32>,
    /// Binding-table slot of UBO block 0: 64 in gpucc's binding model, 0 in Mesa's.
    pub ubo_surface_base: u32,
    /// Binding-table slot of SSBO block 0: 128 in gpucc's binding model, 0 in Mesa's (the
    /// block index is the driver's slot).
    pub ssbo_surface_base: u32,
    /// Mesa's binding model: the pushed UBO ranges, whose vec4s `push` lists in order.
    pub ubo_ranges: Vec<crate::intel::ubo_ranges::UboRange>,
    /// Textures and samplers the sampler messages address.
    pub surfaces: crate::intel::kernel::SurfaceUse,
    /// A geometry shader's facts (`vertex` then holds its output VUE map and pushed
    /// elements).
    pub geometry: Option<crate::intel::geometry::GeometryInfo>,
    /// What a geometry thread's end writes.
    pub gs_end: Option<GsEnd>,
    /// A tessellation-evaluation shader's facts (`vertex` then holds its output VUE map and
    /// its pushed patch registers).
    pub tess_eval: Option<crate::intel::tess::TessEvalInfo>,
    /// A tessellation-control shader's facts (its thread end is part of the program).
    pub tess_ctrl: Option<crate::intel::tcs::TessCtrlInfo>,
}

impl Facts {
    /// The first push-constant register: g1, after a geometry thread's primitive ids g2,
    /// after a tessellation-evaluation thread's domain points g2.
    pub fn uniform_base(&self) -> u32 {
        if self.tess_ctrl.is_some() {
            return tcs_state::TCS_PAYLOAD_REGS;
        }
        if self.tess_eval.is_some() {
            return 2;
        }
        1 + u32::from(
            self.geometry
                .as_ref()
                .is_some_and(|g| g.include_primitive_id),
        )
    }
}

fn unsupported(what: impl Into<String>) -> CompileError {
    CompileError::Unsupported(what.into())
}

fn invalid(what: impl Into<String>) -> CompileError {
    CompileError::Invalid(what.into())
}

/// How an SSA value is held.
#[derive(Debug, Clone)]
enum Val {
    /// A register operand (swizzle included).
    Reg(Src),
    /// A constant not yet placed in a register.
    Const(Vec<u32>),
}

struct Tr<'a> {
    imp: &'a nir::Impl,
    prog: Program,
    vals: Vec<Option<Val>>,
    /// NIR register (its decl_reg def) → first virtual register of its array elements.
    regs: BTreeMap<u32, (u32, u32)>,
    facts: Facts,
    push_index: BTreeMap<(u32, u32), u32>,
    /// Mesa's binding model: the pushed vec4s are those of the UBO ranges.
    push_fixed: bool,
    /// Materialized constants.
    consts: BTreeMap<Vec<u32>, u32>,
    /// Control-flow nesting depth (constants built at depth 0 are reused).
    depth: u32,
    /// Push-constant vec4 → the register a top-level copy of it was made in.
    uniform_copies: BTreeMap<u32, u32>,
    /// Constants first read inside control flow, built at the start of the program (when
    /// [`Tr::hoist_consts`]).
    prelude: Vec<Inst>,
    /// Whether constants first read inside control flow go to the [`Tr::prelude`]; if not,
    /// they are built in their block and reused until its next control-flow instruction.
    hoist_consts: bool,
    /// Constants built inside control flow (without hoisting), for the rest of their block.
    block_consts: BTreeMap<Vec<u32>, u32>,
    /// Push-constant copies made inside control flow, reused until the next control-flow
    /// instruction (the rest of their block, which they dominate).
    block_uniform_copies: BTreeMap<u32, u32>,
    /// A geometry shader's state.
    gs: Option<GsState>,
    /// A tessellation-evaluation shader's facts, its pushed patch registers counted as
    /// translation finds the reads.
    tes: Option<crate::intel::tess::TessEvalInfo>,
    /// The header of a TES's patch URB reads, once built.
    tes_header: Option<u32>,
    /// A tessellation-control shader's state.
    tcs: Option<tcs_state::TcsState>,
    /// Elements of the longest sampler array the shader declares: the textures and
    /// samplers a run-time index may reach from its base.
    sampler_array_len: u32,
    /// UBO blocks the shader declares (`num_ubos`): those a run-time block index may reach.
    num_ubos: u32,
}

/// Mesa's vec4 push block (`setup_push_ranges`): 32 registers.
const MESA_MAX_PUSH_REGS: u32 = 32;

/// Translates a vertex shader (of the options, the binding model and a TCS's input patch
/// size matter here); `hoist_consts` builds the constants first read inside control
/// flow once at the start of the program (fewer instructions, longer live ranges) rather
/// than in each block that reads them. `single` compiles a geometry shader without
/// instancing for single dispatch (Mesa's fallback when dual-object code would spill).
pub fn from_nir(
    shader: &nir::Shader,
    opts: &crate::intel::backend::Options,
    hoist_consts: bool,
    single: bool,
) -> Result<(Program, Facts), CompileError> {
    let binding = opts.binding;
    let imp = shader
        .entry()
        .ok_or_else(|| invalid("shader has no entry point"))?;
    let (vertex, gs) = if shader.stage() == nir::Stage::Geometry {
        let mut info = crate::intel::geometry::gen7_geometry_facts(shader)?;
        if single && info.dispatch_mode == crate::intel::geometry::DispatchMode::DualObject {
            info.dispatch_mode = crate::intel::geometry::DispatchMode::Single;
        }
        let elements = 2 * info.urb_read_length * info.vertices_in;
        let vertex = VertexInfo {
            vue_map: info.vue_map.clone(),
            // Payload registers of inputs: two elements per register when interleaved.
            nr_attribute_slots: if info.interleaved_inputs() {
                elements.div_ceil(2)
            } else {
                elements
            },
            clip_distance_mask: info.clip_distance_mask,
            cull_distance_mask: info.cull_distance_mask,
            ..VertexInfo::default()
        };
        (vertex, Some(GsState::new(info)?))
    } else if matches!(shader.stage(), nir::Stage::TessEval | nir::Stage::TessCtrl) {
        (VertexInfo::default(), None)
    } else {
        (vertex_facts(shader)?, None)
    };
    let interleaved_attrs = gs.as_ref().is_some_and(|g| g.info.interleaved_inputs());
    let tes = if shader.stage() == nir::Stage::TessEval {
        let mut info = crate::intel::backend::tess::tess_eval_facts(shader)?;
        // Counted again from the reads this backend pushes (fewer than the scalar one).
        info.urb_read_length = 0;
        Some(info)
    } else {
        None
    };
    let vertex = match &tes {
        Some(info) => VertexInfo {
            vue_map: info.vue_map.clone(),
            clip_distance_mask: info.clip_distance_mask,
            cull_distance_mask: info.cull_distance_mask,
            ..VertexInfo::default()
        },
        None => vertex,
    };
    let mut t = Tr {
        imp,
        prog: Program {
            interleaved_attrs,
            ..Program::default()
        },
        vals: vec![None; imp.defs.len()],
        regs: BTreeMap::new(),
        facts: Facts {
            vertex,
            ..Facts::default()
        },
        push_index: BTreeMap::new(),
        push_fixed: binding.is_mesa(),
        consts: BTreeMap::new(),
        depth: 0,
        uniform_copies: BTreeMap::new(),
        prelude: Vec::new(),
        hoist_consts,
        block_consts: BTreeMap::new(),
        block_uniform_copies: BTreeMap::new(),
        gs,
        num_ubos: shader
            .info
            .field("num_ubos")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0),
        tes,
        tes_header: None,
        tcs: None,
        sampler_array_len: shader
            .variables
            .iter()
            .filter(|v| v.ty.base.contains("sampler") || v.ty.base.contains("texture"))
            .map(|v| v.ty.arrays.iter().product::<u32>())
            .max()
            .unwrap_or(1),
    };
    match binding {
        BindingModel::Gpucc => {
            t.facts.ubo_surface_base = UBO_SURFACE_BASE;
            t.facts.ssbo_surface_base = SSBO_SURFACE_BASE;
        }
        BindingModel::Mesa | BindingModel::MesaDriverRanges(_) => {
            // The vec4 backend serves Gen7 only, crocus's GPUs: three ranges, as brw's
            // analysis keeps them there (see `ubo_ranges::mesa_max_ranges`).
            let ranges = crate::intel::ubo_ranges::plan(
                shader,
                binding.driver_ranges(),
                3,
                MESA_MAX_PUSH_REGS,
            );
            for key in ranges.iter().flat_map(|r| r.pieces(16)) {
                t.push_index.insert(key, t.facts.push.len() as u32);
                t.facts.push.push(key);
            }
            t.facts.ubo_ranges = ranges;
        }
    }
    if t.gs.is_some() {
        t.gs_prolog()?;
    }
    if shader.stage() == nir::Stage::TessCtrl {
        let info =
            crate::intel::backend::tcs::tess_ctrl_facts_simd4x2(shader, opts.tcs_input_vertices)?;
        let invocation = t.prog.vgrf();
        t.tcs = Some(tcs_state::TcsState { info, invocation });
        t.tcs_prolog()?;
    }
    t.emit_list(&imp.body)?;
    if let Some(st) = &t.tcs {
        let info = st.info.clone();
        t.tcs_end()?;
        t.facts.tess_ctrl = Some(info);
    }
    if let Some(gs) = &t.gs {
        t.facts.gs_end = Some(gs.end()?);
        t.facts.geometry = Some(gs.info.clone());
    }
    if let Some(info) = t.tes.take() {
        t.facts.vertex.nr_attribute_slots = info.urb_read_length;
        t.facts.tess_eval = Some(info);
    }
    let mut prog = t.prog;
    prog.insts.splice(0..0, t.prelude);
    Ok((prog, t.facts))
}

/// The restricted 8-bit float (VF) encoding of the float with bits `f`, if it has one.
fn vf_of(f: u32) -> Option<u32> {
    (0..=255u32).find(|&b| crate::intel::eu::disasm::vf_to_f32(b as u8).to_bits() == f)
}

/// Four dwords as one VF immediate (byte c holds component c), when every one is a float
/// VF can hold; a constant with differing components only (one value needs one mov).
pub fn vf_pack(values: &[u32]) -> Option<u32> {
    if values.len() != 4 || values.windows(2).all(|w| w[0] == w[1]) {
        return None;
    }
    values
        .iter()
        .enumerate()
        .try_fold(0u32, |acc, (c, &v)| Some(acc | vf_of(v)? << (8 * c)))
}

/// The `mov`s that build constant `key` (four components) in register `r`: four small floats
/// of at least two values in one vector-float immediate (as Mesa's constant combining emits
/// them); otherwise the channels with small floats, when they hold at least two different
/// values, share one VF `mov`, and the others take one `mov` per value.
fn const_movs(r: u32, key: &[u32]) -> Vec<Inst> {
    let mov = |mask: u8, ty: RegType, imm: Src| {
        Inst::new(
            Op::Alu(Opcode::Mov),
            super::ir::Dst::vgrf(r, ty, mask),
            vec![imm],
        )
    };
    if let Some(vf) = vf_pack(key) {
        return vec![mov(0xf, RegType::F, Src::imm(RegType::VF, vf))];
    }
    let mut movs = Vec::new();
    let vf_lanes: Vec<Option<u32>> = key.iter().map(|&v| vf_of(v)).collect();
    let vf_mask = (0..4).fold(0u8, |m, c| m | (vf_lanes[c].is_some() as u8) << c);
    let vf_values: Vec<u32> = (0..4)
        .filter(|&c| vf_mask >> c & 1 != 0)
        .map(|c| key[c])
        .collect();
    let mut done = 0u8;
    if vf_values.len() >= 2 && vf_values.windows(2).any(|w| w[0] != w[1]) {
        let vf = (0..4).fold(0u32, |v, c| v | vf_lanes[c].unwrap_or(0) << (8 * c));
        movs.push(mov(vf_mask, RegType::F, Src::imm(RegType::VF, vf)));
        done = vf_mask;
    }
    for c in 0..4 {
        if done >> c & 1 != 0 {
            continue;
        }
        let mask = (0..4)
            .filter(|&k| key[k] == key[c] && done >> k & 1 == 0)
            .fold(0u8, |m, k| m | 1 << k);
        done |= mask;
        movs.push(mov(mask, RegType::UD, Src::imm(RegType::UD, key[c])));
    }
    movs
}

fn ty_of(base: BaseType) -> RegType {
    match base {
        BaseType::Float => RegType::F,
        BaseType::Uint => RegType::UD,
        _ => RegType::D,
    }
}

impl Tr<'_> {
    fn push(&mut self, op: Op, dst: super::ir::Dst, src: Vec<Src>) -> &mut Inst {
        if op.is_flow() {
            // A new block: what the last one built does not dominate it.
            self.block_consts.clear();
            self.block_uniform_copies.clear();
        }
        self.prog.insts.push(Inst::new(op, dst, src));
        self.prog.insts.last_mut().expect("just pushed")
    }

    fn def_info(&self, id: SsaId) -> Result<(u8, u8), CompileError> {
        let d = self
            .imp
            .def(id)
            .ok_or_else(|| invalid(format!("%{} is not defined", id.0)))?;
        Ok((d.num_components, d.bit_size))
    }

    fn set(&mut self, id: SsaId, v: Val) -> Result<(), CompileError> {
        let slot = self
            .vals
            .get_mut(id.0 as usize)
            .ok_or_else(|| invalid(format!("%{} out of range", id.0)))?;
        *slot = Some(v);
        Ok(())
    }

    fn val(&self, id: SsaId) -> Result<&Val, CompileError> {
        self.vals
            .get(id.0 as usize)
            .and_then(|v| v.as_ref())
            .ok_or_else(|| invalid(format!("%{} used before it is defined", id.0)))
    }

    /// A register holding constant `values` (components beyond the last repeat it).
    ///
    /// A constant is a value of no position: built once, the register serves every later
    /// read. Read first at the top level, it is built there (everything after it is
    /// dominated by it); read first inside control flow, it is built in the [`Tr::prelude`]
    /// at the start of the program rather than in the block, so that the other blocks, the
    /// later iterations of a loop and the code after the block read the same register
    /// instead of building it again (Mesa emits a `load_const` once where NIR has it, which
    /// is usually the top level).
    fn const_reg(&mut self, values: &[u32]) -> u32 {
        let mut key: Vec<u32> = values.iter().copied().take(4).collect();
        while key.len() < 4 {
            key.push(*key.last().unwrap_or(&0));
        }
        if let Some(&r) = self.consts.get(&key).or(self.block_consts.get(&key)) {
            return r;
        }
        let r = self.prog.vgrf();
        let movs = const_movs(r, &key);
        if self.depth == 0 {
            self.prog.insts.extend(movs);
            self.consts.insert(key, r);
        } else if self.hoist_consts {
            self.prelude.extend(movs);
            self.consts.insert(key, r);
        } else {
            self.prog.insts.extend(movs);
            self.block_consts.insert(key, r);
        }
        r
    }

    /// The operand for NIR source `s` read in the channels of `mask`, as type `ty`; a
    /// constant that is the same in all of them is an immediate when `imm_ok`.
    fn operand(
        &mut self,
        s: &AluSrc,
        mask: u8,
        ty: RegType,
        imm_ok: bool,
    ) -> Result<Src, CompileError> {
        let nswz = (0..4).fold(0u8, |z, ch| z | (s.swizzle[ch] & 3) << (2 * ch));
        match self.val(s.ssa)?.clone() {
            Val::Reg(r) => Ok(Src {
                ty,
                ..r.swizzled(nswz)
            }),
            Val::Const(v) => {
                let comp = |ch: usize| v.get(s.swizzle[ch] as usize).copied().unwrap_or(0);
                let used: Vec<u32> = (0..4).filter(|ch| mask >> ch & 1 != 0).map(comp).collect();
                if imm_ok && used.windows(2).all(|w| w[0] == w[1]) {
                    return Ok(Src::imm(ty, used.first().copied().unwrap_or(0)));
                }
                let r = self.const_reg(&v);
                Ok(Src {
                    ty,
                    ..Src::vgrf(r, ty).swizzled(nswz)
                })
            }
        }
    }

    /// The whole value of `id` as a register source (`.xyzw` of its components).
    fn value_src(&mut self, id: SsaId, ty: RegType) -> Result<Src, CompileError> {
        let s = AluSrc::new(id);
        let mut s = s;
        for (ch, c) in s.swizzle.iter_mut().enumerate().take(4) {
            *c = ch as u8;
        }
        let (n, _) = self.def_info(id)?;
        // Channels past the value's size repeat its last component.
        for ch in n as usize..4 {
            s.swizzle[ch] = n.saturating_sub(1);
        }
        self.operand(&s, 0xf, ty, false)
    }

    /// A fresh register as the destination of `def`, written in its components.
    fn def_dst(&mut self, id: SsaId, ty: RegType) -> Result<super::ir::Dst, CompileError> {
        let (n, bits) = self.def_info(id)?;
        if bits != 32 && bits != 1 {
            return Err(unsupported(format!("{bits}-bit values")));
        }
        let r = self.prog.vgrf();
        let mask = ((1u32 << n.min(4)) - 1) as u8;
        self.set(id, Val::Reg(Src::vgrf(r, ty)))?;
        Ok(super::ir::Dst::vgrf(r, ty, mask))
    }

    fn emit_list(&mut self, list: &[CfNode]) -> Result<(), CompileError> {
        for node in list {
            match node {
                CfNode::Block(b) => {
                    let block = self
                        .imp
                        .blocks
                        .get(b.0 as usize)
                        .ok_or_else(|| invalid(format!("block b{} does not exist", b.0)))?;
                    for &id in &block.instrs {
                        self.emit_instr(&self.imp.instr(id).kind)?;
                    }
                }
                CfNode::If(n) => {
                    let c = self.value_src(n.condition, RegType::D)?;
                    let c = Src {
                        swizzle: replicate(super::ir::swz_get(c.swizzle, 0)),
                        ..c
                    };
                    let m = self.push(
                        Op::Alu(Opcode::Mov),
                        super::ir::Dst::null(RegType::D),
                        vec![c],
                    );
                    m.cmod = CondMod::Nz;
                    self.push(Op::If, super::ir::Dst::null(RegType::UD), vec![])
                        .pred = Some(false);
                    self.depth += 1;
                    self.emit_list(&n.then_body)?;
                    if !n.else_body.is_empty() {
                        self.push(Op::Else, super::ir::Dst::null(RegType::UD), vec![]);
                        self.emit_list(&n.else_body)?;
                    }
                    self.depth -= 1;
                    self.push(Op::EndIf, super::ir::Dst::null(RegType::UD), vec![]);
                }
                CfNode::Loop(l) => {
                    if !l.continue_body.is_empty() {
                        return Err(unsupported("loop continue construct"));
                    }
                    self.push(Op::Do, super::ir::Dst::null(RegType::UD), vec![]);
                    self.depth += 1;
                    self.emit_list(&l.body)?;
                    self.depth -= 1;
                    self.push(Op::While, super::ir::Dst::null(RegType::UD), vec![]);
                }
            }
        }
        Ok(())
    }

    fn emit_instr(&mut self, kind: &InstrKind) -> Result<(), CompileError> {
        match kind {
            InstrKind::LoadConst(c) => {
                let (_, bits) = self.def_info(c.def)?;
                if bits != 32 && bits != 1 {
                    return Err(unsupported(format!("{bits}-bit constants")));
                }
                let v = c.values.iter().map(|&x| x as u32).collect();
                self.set(c.def, Val::Const(v))
            }
            InstrKind::Undef(d) => self.set(*d, Val::Const(vec![0])),
            InstrKind::Alu(a) => self.emit_alu(a),
            InstrKind::Intrinsic(i) => self.emit_intrinsic(i),
            InstrKind::Jump(JumpKind::Break) => {
                self.push(Op::Break, super::ir::Dst::null(RegType::UD), vec![]);
                Ok(())
            }
            InstrKind::Jump(JumpKind::Continue) => {
                self.push(Op::Continue, super::ir::Dst::null(RegType::UD), vec![]);
                Ok(())
            }
            InstrKind::Jump(k) => Err(unsupported(format!("jump {}", k.name()))),
            InstrKind::Phi(_) => Err(unsupported("phi in a vec4 shader (expected registers)")),
            InstrKind::Tex(t) => self.emit_tex(t),
            InstrKind::Deref(_) => Err(unsupported("deref instructions")),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn vector_float_immediates_pack_like_mesa() {
        // Mesa's ivb assembly: `mov(8) g116<1>F 0x306a40VF /* [2F, 13F, 1F, 0F]VF */`.
        let v = [2.0f32, 13.0, 1.0, 0.0].map(f32::to_bits);
        assert_eq!(super::vf_pack(&v), Some(0x0030_6a40));
        // 0.1 has no VF form.
        assert_eq!(super::vf_pack(&[0, 0x3dcc_cccd, 0, 0]), None);
    }
}

#[cfg(test)]
mod const_tests {
    /// gl_Position = attribute; VAR0 = (38.2, 2.0, 0.0, 1.0): Mesa's ivb code for
    /// fs-notEqual-of-expression builds that constant with `mov .x 1108921549D` and one
    /// `mov .yzw [2F, 0F, 1F]VF`.
    #[test]
    fn small_float_channels_share_one_vf_mov() {
        let text = "shader: MESA_SHADER_VERTEX\nname: t\ninputs_read: 0\noutputs_written: 0\n\
            inputs: 0\noutputs: 0\nuniforms: 0\ndecl_function main (0 params)\n\n\
            impl main {\n    block b0:  // preds:\n\
            32    %0 = load_const (0x00000000)\n\
            32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
            32x4  %2 = load_const (0x4218cccd, 0x40000000, 0x00000000, 0x3f800000)\n\
            @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
            @store_output (%2, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n\
            // succs: b1\n    block b1:\n}\n";
        let shader = crate::nir::parse(text).unwrap();
        let (prog, _) = crate::intel::vec4::lower(&shader, true, Default::default()).unwrap();
        let ir = prog.to_string();
        assert!(ir.contains("mov g116.yzwF, 0x30004000VF\n"), "{ir}");
        assert!(ir.contains("mov g116.xUD, 0x4218cccdUD\n"), "{ir}");
    }

    /// A constant read first inside an `if` (twice) and again after the `endif` is built
    /// once, at the start of the program, before the `if`: that build dominates all three
    /// reads.
    #[test]
    fn constants_read_inside_control_flow_are_built_once_at_the_start() {
        let text = "shader: MESA_SHADER_VERTEX\nname: t\ninputs_read: 0\noutputs_written: 0\n\
            inputs: 0\noutputs: 0\nuniforms: 0\ndecl_function main (0 params)\n\n\
            impl main {\n    block b0:  // preds:\n\
            32    %0 = load_const (0x00000000)\n\
            32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
            32    %2 = flt32 %1.x, %1.y\n\
            32x4  %3 = load_const (0x3dcccccd, 0x3e4ccccd, 0x3e99999a, 0x3ecccccd)\n\
            @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
            // succs: b1 b2\n\
            if %2 {\n        block b1:  // preds: b0\n\
            @store_output (%3, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n\
            @store_output (%3, %0) (base=33, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR1 slots=1, xfb(), xfb2())\n\
            // succs: b3\n    } else {\n        block b2:  // preds: b0, succs: b3\n    }\n\
            block b3:  // preds: b1 b2\n\
            @store_output (%3, %0) (base=34, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR2 slots=1, xfb(), xfb2())\n\
            // succs: b4\n    block b4:\n}\n";
        let shader = crate::nir::parse(text).unwrap();
        let (prog, _) = crate::intel::vec4::lower(&shader, false, Default::default()).unwrap();
        let ir = prog.to_string();
        let builds = |s: &str| s.matches("0x3dcccccdUD\n").count();
        let (before, rest) = ir.split_at(ir.find(") if").unwrap());
        assert_eq!((builds(before), builds(rest)), (1, 0), "{ir}");
    }
}
