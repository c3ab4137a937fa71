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

use std::collections::BTreeMap;

use crate::intel::eu::types::sfid;
use crate::intel::eu::{CondMod, MathFn, Opcode, RegType, Region};
use crate::intel::DevInfo;
use crate::nir::{
    self, AluOp, CfNode, IndexKind, InstrKind, Intrinsic, IntrinsicInstr, JumpKind, SsaId, Stage,
    TexOp, TexSrc,
};

use super::ir::{File, Inst, Op, Program, Reg, TexKind};
use super::CompileError;

/// Where the fragment thread payload puts what the shader reads (Gen6+ layout: R0 header,
/// R1 pixel coordinates, then barycentrics, source depth and W; push constants follow, then
/// attribute setup data).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayloadLayout {
    /// First register of the perspective pixel barycentrics, when enabled.
    pub bary_pixel: Option<u32>,
    /// First register of each barycentric mode the shader uses, indexed as Mesa's
    /// `brw_barycentric_mode` (perspective pixel, centroid, sample, then the same three
    /// without perspective); the hardware packs the enabled ones in that order.
    pub barycentric: [Option<u32>; 6],
    /// Interpolated source depth.
    pub source_depth: Option<u32>,
    /// Interpolated source W.
    pub source_w: Option<u32>,
    /// Registers the hardware fills before push constants.
    pub num_regs: u32,
}

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

/// The memory a fence orders, from a barrier's `memory_modes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MemoryModes {
    /// SSBOs and global memory (untyped data-cache messages).
    global: bool,
    /// Workgroup-shared memory (SLM).
    shared: bool,
    /// Storage images (typed messages: the render cache on Ivybridge).
    image: bool,
}

impl MemoryModes {
    const NONE: MemoryModes = MemoryModes {
        global: false,
        shared: false,
        image: false,
    };
    const ALL: MemoryModes = MemoryModes {
        global: true,
        shared: true,
        image: true,
    };

    /// Reads nir_print's `ssbo|shared|image|global` list (other modes order nothing the
    /// fragment and compute stages write).
    fn parse(text: &str) -> MemoryModes {
        let mut m = MemoryModes::NONE;
        for w in text.split('|').map(str::trim) {
            match w {
                "ssbo" | "global" => m.global = true,
                "shared" => m.shared = true,
                "image" => m.image = true,
                _ => {}
            }
        }
        m
    }
}

/// What a compute shader's dispatch needs to know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComputeFacts {
    /// Workgroup size (`workgroup_size` of the shader info).
    pub local_size: [u32; 3],
    /// Workgroup-shared memory in bytes (`shared_size`).
    pub shared_size: u32,
    /// The shader synchronises its workgroup with gateway barriers.
    pub uses_barrier: bool,
}

/// Binding-table index of SSBO block 0 (untyped surface messages).
pub const SSBO_SURFACE_BASE: u32 = 128;

/// Binding-table index of shared local memory (Mesa's `BRW_SLM_SURFACE_INDEX`).
pub const SLM_SURFACE: u32 = 254;

/// Descriptor of a SIMD8 A64 untyped surface read of `n` dwords per channel (Gen8 data
/// cache 1 message 0x11; BTI 253, the stateless surface; SIMD mode 2 = SIMD8; bits 11:8 the
/// disabled components): two registers of 64-bit addresses in, `n` registers back. For
/// `n` = 4 this is Mesa's 0x044460fd.
pub fn a64_untyped_read_desc(n: u32) -> u32 {
    let disabled = (0xf << n) & 0xf;
    (2 << 25) | (n << 20) | (0x11 << 14) | (2 << 12) | (disabled << 8) | 253
}

/// Flag subregister holding the live-pixel mask of shaders that discard (f0.1).
pub const KILL_FLAG: u8 = 1;

/// Binding-table index of UBO block 0 for pull-constant loads.
pub const UBO_SURFACE_BASE: u32 = 64;

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

/// Reads the workgroup and shared-memory sizes of a compute shader's info block
/// (`workgroup_size: 8, 1, 1`, `shared_size: 64`).
pub(super) fn compute_facts(shader: &nir::Shader) -> Result<ComputeFacts, CompileError> {
    let info = &shader.info;
    let size = info
        .field("workgroup_size")
        .ok_or_else(|| unsupported("compute shader without a fixed workgroup_size"))?;
    let dims: Vec<u32> = size
        .split(',')
        .map(|d| d.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            CompileError::Invalid(format!("workgroup_size `{size}` is not three integers"))
        })?;
    let [x, y, z] = dims[..] else {
        return Err(CompileError::Invalid(format!(
            "workgroup_size `{size}` is not three integers"
        )));
    };
    if x == 0 || y == 0 || z == 0 || x * y * z > 1024 {
        return Err(CompileError::Invalid(format!(
            "workgroup_size {x}x{y}x{z} is outside 1..=1024 invocations"
        )));
    }
    let shared_size = match info.field("shared_size") {
        Some(s) => s
            .trim()
            .parse::<u32>()
            .map_err(|_| CompileError::Invalid(format!("shared_size `{s}` is not an integer")))?,
        None => 0,
    };
    if shared_size > 64 * 1024 {
        return Err(unsupported(format!(
            "{shared_size} bytes of shared memory (64 KiB per workgroup)"
        )));
    }
    Ok(ComputeFacts {
        local_size: [x, y, z],
        shared_size,
        uses_barrier: false,
    })
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

    fn plan_payload(&mut self) {
        let mut modes = [false; 6];
        let mut frag_coord = false;
        for ins in &self.imp.instrs {
            if let InstrKind::Intrinsic(i) = &ins.kind {
                match i.intrinsic {
                    intr @ (Intrinsic::LoadBarycentricPixel
                    | Intrinsic::LoadBarycentricCentroid
                    | Intrinsic::LoadBarycentricSample) => modes[barycentric_mode(intr, i)] = true,
                    Intrinsic::LoadFragCoord => frag_coord = true,
                    Intrinsic::Discard
                    | Intrinsic::DiscardIf
                    | Intrinsic::Terminate
                    | Intrinsic::TerminateIf
                    | Intrinsic::Demote
                    | Intrinsic::DemoteIf => self.facts.uses_kill = true,
                    _ => {}
                }
            }
        }
        let per_bary = 2 * self.per();
        let mut n = 2;
        let p = &mut self.facts.payload;
        for (mode, used) in modes.iter().enumerate() {
            if *used {
                p.barycentric[mode] = Some(n);
                n += per_bary;
            }
        }
        p.bary_pixel = p.barycentric[0];
        if frag_coord {
            p.source_depth = Some(n);
            n += self.width as u32 / 8;
            p.source_w = Some(n);
            n += self.width as u32 / 8;
        }
        p.num_regs = n;
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

    fn emit_alu(&mut self, a: &nir::AluInstr) -> Result<(), CompileError> {
        let (ncomp, bits) = self.def_info(a.def)?;
        let name = a.op.name();
        if a.op == AluOp::u2u64 {
            return self.emit_u2u64(a);
        }
        if bits == 64
            || a.srcs
                .iter()
                .any(|s| self.def_info(s.ssa).map(|d| d.1 == 64).unwrap_or(false))
        {
            return Err(unsupported(format!("64-bit ALU op {name}")));
        }
        if bits == 16 || bits == 8 {
            return Err(unsupported(format!("{bits}-bit ALU op {name}")));
        }
        let src_at = |t: &Self, i: usize, c: usize| -> Result<Reg, CompileError> {
            let s = a
                .srcs
                .get(i)
                .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {i}")))?;
            t.comp(s.ssa, s.swizzle[c] as usize)
        };
        // Vector constructors and per-component ops.
        if a.op.is_vector_constructor() {
            let mut regs = Vec::new();
            for i in 0..a.srcs.len() {
                let s = src_at(self, i, 0)?;
                let d = self.vgrf(RegType::UD);
                self.alu(Opcode::Mov, d, vec![s.retype(RegType::UD)]);
                regs.push(d);
            }
            self.set(a.def, regs);
            return Ok(());
        }
        let mut out = Vec::with_capacity(ncomp as usize);
        for c in 0..ncomp as usize {
            let nsrc = a.srcs.len();
            let mut s = Vec::with_capacity(nsrc);
            for i in 0..nsrc {
                s.push(src_at(self, i, c)?);
            }
            out.push(self.emit_alu_scalar(a.op, &s)?);
        }
        self.set(a.def, out);
        Ok(())
    }

    fn emit_alu_scalar(&mut self, op: AluOp, s: &[Reg]) -> Result<Reg, CompileError> {
        let name = op.name();
        use RegType::{D, F, UD};
        let f = |r: Reg| r.retype(F);
        let d = |r: Reg| r.retype(D);
        let ud = |r: Reg| r.retype(UD);
        let arg = |i: usize| -> Result<Reg, CompileError> {
            s.get(i)
                .copied()
                .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {i}")))
        };
        let unary = |t: &mut Self, op: Opcode, ty: RegType, src: Reg| -> Reg {
            let dst = t.vgrf(ty);
            t.alu(op, dst, vec![src]);
            dst
        };
        let binary =
            |t: &mut Self, op: Opcode, ty: RegType, a: Reg, b: Reg, commutes: bool| -> Reg {
                let (a, b) = if a.file == File::Imm && b.file != File::Imm && commutes {
                    (b, a)
                } else {
                    (t.in_grf(a), b)
                };
                let dst = t.vgrf(ty);
                t.alu(op, dst, vec![a, b]);
                dst
            };
        let cmp = |t: &mut Self, ty: RegType, a: Reg, b: Reg, cm: CondMod| -> Reg {
            let (a, b, cm) = if a.file == File::Imm && b.file != File::Imm {
                (b, a, swap_cond(cm))
            } else {
                (t.in_grf(a), b, cm)
            };
            let dst = t.vgrf(ty);
            let i = t.alu(Opcode::Cmp, dst, vec![a.retype(ty), b.retype(ty)]);
            i.cmod = cm;
            dst.retype(D)
        };
        let sel = |t: &mut Self, ty: RegType, a: Reg, b: Reg, cm: CondMod| -> Reg {
            let (a, b) = if a.file == File::Imm && b.file != File::Imm {
                (b, a)
            } else {
                (t.in_grf(a), b)
            };
            let dst = t.vgrf(ty);
            let i = t.alu(Opcode::Sel, dst, vec![a.retype(ty), b.retype(ty)]);
            i.cmod = cm;
            dst
        };
        let math = |t: &mut Self, m: MathFn, ty: RegType, srcs: Vec<Reg>| -> Reg {
            let srcs: Vec<Reg> = srcs.into_iter().map(|r| t.in_grf(r.retype(ty))).collect();
            let dst = t.vgrf(ty);
            t.push(Op::Math(m), dst, srcs);
            dst
        };
        let three = |t: &mut Self, op: Opcode, a: Reg, b: Reg, c: Reg| -> Reg {
            let a = t.in_grf(f(a));
            let b = t.in_grf(f(b));
            let c = t.in_grf(f(c));
            let dst = t.vgrf(F);
            t.alu(op, dst, vec![a, b, c]);
            dst
        };
        let r = match op {
            AluOp::mov => unary(self, Opcode::Mov, UD, ud(arg(0)?)),
            AluOp::fneg => unary(self, Opcode::Mov, F, f(arg(0)?).negate()),
            AluOp::fabs => unary(self, Opcode::Mov, F, f(arg(0)?).absolute()),
            AluOp::fsat => {
                let dst = self.vgrf(F);
                let src = f(arg(0)?);
                self.alu(Opcode::Mov, dst, vec![src]).sat = true;
                dst
            }
            AluOp::ineg => unary(self, Opcode::Mov, D, d(arg(0)?).negate()),
            AluOp::iabs => unary(self, Opcode::Mov, D, d(arg(0)?).absolute()),
            AluOp::inot => unary(self, Opcode::Not, D, d(arg(0)?)),
            AluOp::fadd => binary(self, Opcode::Add, F, f(arg(0)?), f(arg(1)?), true),
            AluOp::fmul => binary(self, Opcode::Mul, F, f(arg(0)?), f(arg(1)?), true),
            AluOp::iadd => binary(self, Opcode::Add, D, d(arg(0)?), d(arg(1)?), true),
            AluOp::isub => {
                let b = d(arg(1)?);
                let neg_b = if b.file == File::Imm {
                    Reg::imm(D, (b.imm as u32).wrapping_neg())
                } else {
                    b.negate()
                };
                binary(self, Opcode::Add, D, d(arg(0)?), neg_b, false)
            }
            AluOp::imul => binary(self, Opcode::Mul, D, d(arg(0)?), d(arg(1)?), true),
            AluOp::imul_32x16 => {
                let b = arg(1)?;
                let lo = if b.file == File::Imm {
                    Reg::imm(RegType::W, (b.imm as u32) & 0xffff)
                } else {
                    Reg {
                        ty: RegType::W,
                        stride: if b.stride == 0 { 0 } else { 2 },
                        ..b
                    }
                };
                let a0 = self.in_grf(d(arg(0)?));
                let dst = self.vgrf(D);
                self.alu(Opcode::Mul, dst, vec![a0, lo]);
                dst
            }
            AluOp::iand => binary(self, Opcode::And, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ior => binary(self, Opcode::Or, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ixor => binary(self, Opcode::Xor, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ishl => binary(self, Opcode::Shl, UD, ud(arg(0)?), ud(arg(1)?), false),
            AluOp::ushr => binary(self, Opcode::Shr, UD, ud(arg(0)?), ud(arg(1)?), false),
            AluOp::ishr => binary(self, Opcode::Asr, D, d(arg(0)?), d(arg(1)?), false),
            AluOp::ffma => three(self, Opcode::Mad, arg(2)?, arg(0)?, arg(1)?),
            AluOp::flrp => three(self, Opcode::Lrp, arg(2)?, arg(1)?, arg(0)?),
            AluOp::fmax => sel(self, F, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::fmin => sel(self, F, arg(0)?, arg(1)?, CondMod::L),
            AluOp::imax => sel(self, D, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::imin => sel(self, D, arg(0)?, arg(1)?, CondMod::L),
            AluOp::umax => sel(self, UD, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::umin => sel(self, UD, arg(0)?, arg(1)?, CondMod::L),
            AluOp::flt32 | AluOp::flt => cmp(self, F, arg(0)?, arg(1)?, CondMod::L),
            AluOp::fge32 | AluOp::fge => cmp(self, F, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::feq32 | AluOp::feq => cmp(self, F, arg(0)?, arg(1)?, CondMod::Z),
            AluOp::fneu32 | AluOp::fneu => cmp(self, F, arg(0)?, arg(1)?, CondMod::Nz),
            AluOp::ilt32 | AluOp::ilt => cmp(self, D, arg(0)?, arg(1)?, CondMod::L),
            AluOp::ige32 | AluOp::ige => cmp(self, D, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::ieq32 | AluOp::ieq => cmp(self, D, arg(0)?, arg(1)?, CondMod::Z),
            AluOp::ine32 | AluOp::ine => cmp(self, D, arg(0)?, arg(1)?, CondMod::Nz),
            AluOp::ult32 | AluOp::ult => cmp(self, UD, arg(0)?, arg(1)?, CondMod::L),
            AluOp::uge32 | AluOp::uge => cmp(self, UD, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::b32csel | AluOp::bcsel => {
                let c = d(arg(0)?);
                let m = self.alu(Opcode::Mov, Reg::null(D), vec![c]);
                m.cmod = CondMod::Nz;
                let (mut a, mut b, mut inv) = (ud(arg(1)?), ud(arg(2)?), false);
                if a.file == File::Imm && b.file != File::Imm {
                    std::mem::swap(&mut a, &mut b);
                    inv = true;
                }
                let a = self.in_grf(a);
                let dst = self.vgrf(UD);
                self.alu(Opcode::Sel, dst, vec![a, b]).pred = Some(inv);
                dst
            }
            AluOp::b2f32 => unary(self, Opcode::Mov, F, d(arg(0)?).negate()),
            AluOp::b2i32 => unary(self, Opcode::Mov, D, d(arg(0)?).negate()),
            AluOp::f2i32 => unary(self, Opcode::Mov, D, f(arg(0)?)),
            AluOp::f2u32 => unary(self, Opcode::Mov, UD, f(arg(0)?)),
            AluOp::i2f32 => unary(self, Opcode::Mov, F, d(arg(0)?)),
            AluOp::u2f32 => unary(self, Opcode::Mov, F, ud(arg(0)?)),
            AluOp::fround_even => {
                let x = self.in_grf(f(arg(0)?));
                unary(self, Opcode::Rnde, F, x)
            }
            AluOp::ffloor => {
                let x = self.in_grf(f(arg(0)?));
                unary(self, Opcode::Rndd, F, x)
            }
            AluOp::ftrunc => {
                let x = self.in_grf(f(arg(0)?));
                unary(self, Opcode::Rndz, F, x)
            }
            AluOp::fceil => {
                let x = self.in_grf(f(arg(0)?));
                let t = unary(self, Opcode::Rndd, F, x.negate());
                unary(self, Opcode::Mov, F, t.negate())
            }
            AluOp::ffract => {
                let x = self.in_grf(f(arg(0)?));
                unary(self, Opcode::Frc, F, x)
            }
            AluOp::fsign => {
                let x = self.in_grf(f(arg(0)?));
                let m = self.alu(Opcode::Cmp, Reg::null(F), vec![x, Reg::imm_f(0.0)]);
                m.cmod = CondMod::Nz;
                let dst = self.vgrf(UD);
                self.alu(Opcode::And, dst, vec![ud(x), Reg::imm(UD, 0x8000_0000)]);
                self.alu(Opcode::Or, dst, vec![dst, Reg::imm(UD, 0x3f80_0000)])
                    .pred = Some(false);
                dst
            }
            AluOp::frcp => math(self, MathFn::Inv, F, vec![arg(0)?]),
            AluOp::frsq => math(self, MathFn::Rsq, F, vec![arg(0)?]),
            AluOp::fsqrt => math(self, MathFn::Sqrt, F, vec![arg(0)?]),
            AluOp::fexp2 => math(self, MathFn::Exp, F, vec![arg(0)?]),
            AluOp::flog2 => math(self, MathFn::Log, F, vec![arg(0)?]),
            AluOp::fsin => math(self, MathFn::Sin, F, vec![arg(0)?]),
            AluOp::fcos => math(self, MathFn::Cos, F, vec![arg(0)?]),
            AluOp::fpow => math(self, MathFn::Pow, F, vec![arg(0)?, arg(1)?]),
            AluOp::idiv => math(self, MathFn::IntDivQuotient, D, vec![arg(0)?, arg(1)?]),
            AluOp::bitfield_reverse => {
                let x = self.in_grf(ud(arg(0)?));
                unary(self, Opcode::Bfrev, UD, x)
            }
            AluOp::extract_u8 | AluOp::extract_i8 | AluOp::extract_u16 | AluOp::extract_i16 => {
                let sel = arg(1)?;
                if sel.file != File::Imm {
                    return Err(unsupported(format!("{name} with a non-constant selector")));
                }
                let x = self.in_grf(ud(arg(0)?));
                let (bytes, signed) = match op {
                    AluOp::extract_u8 => (1, false),
                    AluOp::extract_i8 => (1, true),
                    AluOp::extract_u16 => (2, false),
                    _ => (2, true),
                };
                let shift = 32 - 8 * bytes * (sel.imm as u32 + 1);
                let t = binary(self, Opcode::Shl, UD, x, Reg::imm(UD, shift), false);
                let op = if signed { Opcode::Asr } else { Opcode::Shr };
                let ty = if signed { D } else { UD };
                binary(
                    self,
                    op,
                    ty,
                    t.retype(ty),
                    Reg::imm(UD, 32 - 8 * bytes),
                    false,
                )
            }
            AluOp::fddx_coarse | AluOp::fddy_coarse => {
                // Coarse: every pixel of a 2x2 subspan gets the top-left pair's difference
                // (x: pixel 1 - pixel 0, y: pixel 2 - pixel 0).
                let x = self.in_grf(f(arg(0)?));
                let second = if op == AluOp::fddx_coarse { 1 } else { 2 };
                let quad = Some(Region::new(4, 4, 0));
                let a = Reg {
                    region: quad,
                    ..x.horiz_offset(second)
                };
                let b = Reg { region: quad, ..x };
                let dst = self.vgrf(F);
                self.push(Op::Alu(Opcode::Add), dst, vec![a, b.negate()]);
                dst
            }
            AluOp::fddx | AluOp::fddx_fine => {
                // Fine x: each pixel pair (0,1), (2,3) differences its own row.
                let x = self.in_grf(f(arg(0)?));
                let pair = Some(Region::new(2, 2, 0));
                let a = Reg {
                    region: pair,
                    ..x.horiz_offset(1)
                };
                let b = Reg { region: pair, ..x };
                let dst = self.vgrf(F);
                self.push(Op::Alu(Opcode::Add), dst, vec![a, b.negate()]);
                dst
            }
            AluOp::fddy | AluOp::fddy_fine => {
                // Fine y: pixels (2,3) minus (0,1) of each subspan, which only align16
                // swizzles can say (.zwzw - .xyxy per subspan).
                let x = self.in_grf(f(arg(0)?));
                let dst = self.vgrf(F);
                self.push(Op::DdyFine, dst, vec![x, x.negate()]);
                dst
            }
            _ => return Err(unsupported(format!("ALU op {name}"))),
        };
        Ok(r)
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

    /// A 32-bit value the driver writes into the code after compilation (Mesa's
    /// MOV_RELOC_IMM, relocation `id`), moved once with write-mask-all and read as a scalar.
    /// Only Gen8+ reads constant data through such addresses (with A64 messages).
    fn reloc_const(&mut self, id: u32) -> Result<Reg, CompileError> {
        if self.devinfo.ver < 80 {
            return Err(unsupported(format!(
                "load_reloc_const_intel on {} (relocated constant-data addresses are read \
                 with A64 messages, which exist from Gen8 on)",
                self.devinfo.name
            )));
        }
        let small = Reg::vgrf(self.prog.alloc(1), RegType::UD);
        let m = self.push(Op::MovRelocImm { id }, small, vec![]);
        m.exec_size = 1;
        m.we_all = true;
        Ok(Reg { stride: 0, ..small })
    }

    /// `u2u64` of a 32-bit value, the one 64-bit operation implemented: the zero-extended
    /// addresses A64 messages take, one `mov(8) UQ <- UD` per 8 channels (as brw splits it,
    /// each half writing two registers).
    fn emit_u2u64(&mut self, a: &nir::AluInstr) -> Result<(), CompileError> {
        if self.devinfo.ver < 80 {
            return Err(unsupported(format!(
                "64-bit ALU op u2u64 on {} (64-bit integer types exist from Gen8 on)",
                self.devinfo.name
            )));
        }
        let (n, _) = self.def_info(a.def)?;
        let s = a
            .srcs
            .first()
            .ok_or_else(|| CompileError::Invalid("u2u64 lacks source 0".into()))?;
        if self.def_info(s.ssa)?.1 != 32 {
            return Err(unsupported("u2u64 of a value that is not 32-bit"));
        }
        let mut out = Vec::with_capacity(n as usize);
        for c in 0..n as usize {
            let v = self.comp(s.ssa, s.swizzle[c] as usize)?.retype(RegType::UD);
            let dst = Reg::vgrf(self.prog.alloc(2 * self.per()), RegType::UQ);
            for h in 0..self.width as u32 / 8 {
                let mut src = v.horiz_offset(8 * h);
                if src.file != File::Imm && src.stride != 0 {
                    // brw's region for a half that writes two registers: <4,4,1>.
                    src.region = Some(Region::new(4, 4, 1));
                }
                let m = self.alu(Opcode::Mov, dst.reg_offset(2 * h), vec![src]);
                m.exec_size = 8;
                m.group = 8 * h as u8;
            }
            out.push(dst);
        }
        self.set(a.def, out);
        Ok(())
    }

    /// `load_global_constant` of `n` dwords per channel from the 64-bit addresses in `addr`
    /// (from `u2u64`): A64 untyped surface reads on data cache 1, SIMD8 only as brw sends
    /// them (a SIMD16 thread sends one per half), whose halves are then gathered into
    /// full-width values.
    fn a64_read(&mut self, addr: Reg, n: u32, bits: u8) -> Result<Vec<Reg>, CompileError> {
        if self.devinfo.ver < 80 {
            return Err(unsupported(format!(
                "load_global_constant on {} (A64 messages exist from Gen8 on)",
                self.devinfo.name
            )));
        }
        if bits != 32 || !(1..=4).contains(&n) {
            return Err(unsupported(format!(
                "load_global_constant of {n}x{bits}-bit data (1 to 4 dwords are implemented)"
            )));
        }
        if addr.ty != RegType::UQ || addr.file != File::Vgrf {
            return Err(unsupported(
                "load_global_constant from an address that is not a zero-extended 32-bit value",
            ));
        }
        let halves = self.width as u32 / 8;
        let mut parts = Vec::with_capacity(halves as usize);
        for h in 0..halves {
            let dst = Reg::vgrf(self.prog.alloc(n), RegType::UD);
            let send = self.push(Op::Send, dst, vec![addr.reg_offset(2 * h)]);
            send.exec_size = 8;
            send.group = 8 * h as u8;
            send.mlen = 2;
            send.rlen = n as u8;
            send.sfid = sfid::DATA_CACHE_1;
            send.desc = a64_untyped_read_desc(n);
            parts.push(dst);
        }
        if halves == 1 {
            return Ok((0..n).map(|c| parts[0].reg_offset(c)).collect());
        }
        let mut out = Vec::with_capacity(n as usize);
        for c in 0..n {
            let d = self.vgrf(RegType::UD);
            for (h, part) in parts.iter().enumerate() {
                let m = self.alu(
                    Opcode::Mov,
                    d.reg_offset(h as u32),
                    vec![part.reg_offset(c)],
                );
                m.exec_size = 8;
                m.group = 8 * h as u8;
            }
            out.push(d);
        }
        Ok(out)
    }

    fn compute_only(&self, what: &str) -> Result<&ComputeFacts, CompileError> {
        self.facts
            .compute
            .as_ref()
            .ok_or_else(|| unsupported(format!("{what} outside a compute shader")))
    }

    /// Local invocation id component `k`: the payload holds one register per 8 channels for
    /// each of x, y and z, so wider threads gather their halves into one value.
    fn local_id(&mut self, k: u32) -> Reg {
        let d = self.vgrf(RegType::UD);
        for h in 0..self.width as u32 / 8 {
            let m = self.alu(
                Opcode::Mov,
                d.reg_offset(h),
                vec![Reg::fixed(1 + 3 * h + k, 0, RegType::UD, 1)],
            );
            m.exec_size = 8;
            m.group = 8 * h as u8;
        }
        d
    }

    /// The binding-table index of the SSBO block `block` names (a constant).
    fn ssbo_surface(&self, block: SsaId) -> Result<u32, CompileError> {
        let b = self
            .imp
            .const_value(block)
            .and_then(|v| v.first().copied())
            .ok_or_else(|| unsupported("SSBO access with a non-constant block index"))?;
        if b >= (SLM_SURFACE - SSBO_SURFACE_BASE) as u64 {
            return Err(unsupported(format!(
                "SSBO block {b} (at most {})",
                SLM_SURFACE - SSBO_SURFACE_BASE - 1
            )));
        }
        Ok(SSBO_SURFACE_BASE + b as u32)
    }

    /// Per-channel byte addresses `offset + base` in a register of their own (a message
    /// payload cannot point at immediates or push constants).
    fn address(&mut self, offset: Reg, base: u32) -> Reg {
        let a = self.vgrf(RegType::UD);
        if base == 0 {
            self.alu(Opcode::Mov, a, vec![offset.retype(RegType::UD)]);
        } else {
            let off = self.in_grf(offset.retype(RegType::UD));
            self.alu(Opcode::Add, a, vec![off, Reg::imm(RegType::UD, base)]);
        }
        a
    }

    /// Shared function and message type of an untyped surface read, write (Gen7: data cache;
    /// Haswell and later: data cache 1, with its own numbering).
    fn untyped_msg(&self, write: bool) -> (u8, u32) {
        match (self.devinfo.ver >= 75, write) {
            (false, false) => (sfid::DATA_CACHE, 5),
            (false, true) => (sfid::DATA_CACHE, 13),
            (true, false) => (sfid::DATA_CACHE_1, 1),
            (true, true) => (sfid::DATA_CACHE_1, 9),
        }
    }

    fn untyped_desc(&self, write: bool, mlen: u32, rlen: u32, comps: u32, surface: u32) -> u32 {
        let (_, ty) = self.untyped_msg(write);
        let simd_mode: u32 = if self.width == 16 { 1 } else { 2 };
        let disabled = (0xf << comps) & 0xf;
        (mlen << 25) | (rlen << 20) | (ty << 14) | (simd_mode << 12) | (disabled << 8) | surface
    }

    /// Reads `n` consecutive dwords per channel from `addr` on `surface`.
    fn untyped_read(&mut self, surface: u32, addr: Reg, n: u32) -> Result<Vec<Reg>, CompileError> {
        if !(1..=4).contains(&n) {
            return Err(unsupported(format!("{n}-component untyped read")));
        }
        let per = self.per();
        let dst = Reg::vgrf(self.prog.alloc(n * per), RegType::UD);
        let desc = self.untyped_desc(false, per, n * per, n, surface);
        let (sfid, _) = self.untyped_msg(false);
        let send = self.push(Op::Send, dst, vec![addr]);
        send.mlen = per as u8;
        send.rlen = (n * per) as u8;
        send.desc = desc;
        send.sfid = sfid;
        Ok((0..n).map(|c| dst.reg_offset(c * per)).collect())
    }

    /// Writes `vals` as consecutive dwords per channel at `addr` on `surface`.
    fn untyped_write(&mut self, surface: u32, addr: Reg, vals: &[Reg]) -> Result<(), CompileError> {
        let n = vals.len() as u32;
        let per = self.per();
        let payload = Reg::vgrf(self.prog.alloc((1 + n) * per), RegType::UD);
        let mut srcs = vec![addr];
        srcs.extend(vals.iter().map(|v| v.retype(RegType::UD)));
        self.push(Op::LoadPayload, payload, srcs);
        let desc = self.untyped_desc(true, (1 + n) * per, 0, n, surface);
        let (sfid, _) = self.untyped_msg(true);
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.mlen = ((1 + n) * per) as u8;
        send.desc = desc;
        send.sfid = sfid;
        Ok(())
    }

    /// An untyped atomic (Mesa's `BRW_AOP_*` operation `aop`) on the dword at `addr`,
    /// returning the old value when `ret` is set.
    fn untyped_atomic(
        &mut self,
        surface: u32,
        aop: u32,
        addr: Reg,
        data: &[Reg],
        ret: bool,
    ) -> Reg {
        let per = self.per();
        let n = 1 + data.len() as u32;
        let payload = Reg::vgrf(self.prog.alloc(n * per), RegType::UD);
        let mut srcs = vec![addr];
        srcs.extend(data.iter().map(|v| v.retype(RegType::UD)));
        self.push(Op::LoadPayload, payload, srcs);
        let (sfid, ty) = if self.devinfo.ver >= 75 {
            (sfid::DATA_CACHE_1, 2)
        } else {
            (sfid::DATA_CACHE, 6)
        };
        let simd8 = (self.width == 8) as u32;
        let rlen = if ret { per } else { 0 };
        let dst = if ret {
            self.vgrf(RegType::UD)
        } else {
            Reg::null(RegType::UW)
        };
        let send = self.push(Op::Send, dst, vec![payload]);
        send.mlen = (n * per) as u8;
        send.rlen = rlen as u8;
        send.desc = ((n * per) << 25)
            | (rlen << 20)
            | (ty << 14)
            | ((ret as u32) << 13)
            | (simd8 << 12)
            | (aop << 8)
            | surface;
        send.sfid = sfid;
        dst
    }

    /// A memory fence as brw emits it before Icelake: one data-cache fence message for SSBO,
    /// shared and image memory, plus on Ivybridge a render-cache fence for images (typed
    /// messages go through the render cache there). Only that two-fence case (and Gen9)
    /// asks for commits; with two fences the thread waits for both replies by reading them.
    ///
    /// Shared memory needs no fence when the shader has none, or when the whole workgroup runs
    /// in this one thread: its messages are processed in order.
    fn emit_memory_fence(&mut self, modes: MemoryModes) {
        let shared = modes.shared
            && self.facts.compute.as_ref().is_some_and(|c| {
                c.shared_size > 0 && c.local_size.iter().product::<u32>() > self.width as u32
            });
        let render = modes.image && self.devinfo.ver == 70;
        // brw also asks for the commit on Gen9 (its simulator requires it there).
        let commit = render || self.devinfo.ver == 90;
        let mut replies = Vec::new();
        if modes.global || shared || modes.image {
            replies.extend(self.fence(sfid::DATA_CACHE, commit));
        }
        if render {
            replies.extend(self.fence(sfid::RENDER_CACHE, commit));
        }
        if replies.len() > 1 {
            for r in replies {
                // A read of the commit reply stalls until that fence has completed.
                let m = self.alu(Opcode::Mov, Reg::null(RegType::UW), vec![r]);
                m.exec_size = 1;
                m.we_all = true;
            }
        }
    }

    /// One fence message (data-port message type 7 on both caches): the thread header as
    /// payload, header present, and with `commit` a one-register reply (function control
    /// bit 5) written when the fence has completed. Returns the reply register.
    fn fence(&mut self, sfid: u8, commit: bool) -> Option<Reg> {
        let dst = commit.then(|| Reg::vgrf(self.prog.alloc(1), RegType::UW));
        let send = self.push(
            Op::Send,
            dst.unwrap_or(Reg::null(RegType::UW)),
            vec![Reg::fixed(0, 0, RegType::UD, 1)],
        );
        send.exec_size = 1;
        send.we_all = true;
        send.mlen = 1;
        send.rlen = commit as u8;
        send.desc =
            (1 << 25) | ((commit as u32) << 20) | (1 << 19) | (7 << 14) | ((commit as u32) << 13);
        send.sfid = sfid;
        dst.map(|d| Reg { stride: 0, ..d })
    }

    /// Each channel's index in the thread as a dword: the 0..7 vector immediate, plus 8 for
    /// the second half of a SIMD16 thread, widened. Written with write-mask-all so that it
    /// is whole wherever it is read.
    fn emit_channel_index(&mut self) -> Reg {
        use RegType::{UD, UW};
        let words = Reg::vgrf(self.prog.alloc(1), UW);
        let m = self.alu(Opcode::Mov, words, vec![Reg::imm(RegType::V, 0x7654_3210)]);
        m.exec_size = 8;
        m.we_all = true;
        if self.width == 16 {
            let hi = Reg {
                offset: 16,
                ..words
            };
            let a = self.alu(Opcode::Add, hi, vec![words, Reg::imm(UW, 8)]);
            a.exec_size = 8;
            a.we_all = true;
        }
        let idx = self.vgrf(UD);
        let m = self.alu(Opcode::Mov, idx, vec![words]);
        m.we_all = true;
        idx
    }

    /// `load_scratch` / `store_scratch` of one dword, as brw does before Gen12.5: a DWORD
    /// scattered message to the stateless surface (BTI 255 on Gen7, 253 on Gen8) with a
    /// scratch header. Scratch is swizzled so that the channels' copies of one NIR dword are
    /// consecutive: NIR byte offset `a` of channel `c` is dword `(a / 4) * width + c`.
    fn emit_scratch(&mut self, i: &IntrinsicInstr, store: bool) -> Result<(), CompileError> {
        use RegType::UD;
        let name = i.intrinsic.name();
        let src = |k: usize| -> Result<SsaId, CompileError> {
            i.srcs
                .get(k)
                .copied()
                .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {k}")))
        };
        let data_def = if store {
            src(0)?
        } else {
            i.def
                .ok_or_else(|| CompileError::Invalid(format!("{name} has no result")))?
        };
        let (n, bits) = self.def_info(data_def)?;
        if n != 1 || bits != 32 {
            return Err(unsupported(format!(
                "{name} of {n}x{bits}-bit data (one dword per access is implemented)"
            )));
        }
        let align_mul = i.int_index(IndexKind::AlignMul).unwrap_or(4) as u32;
        let align_off = i.int_index(IndexKind::AlignOffset).unwrap_or(0) as u32;
        let align = if align_off != 0 {
            1 << align_off.trailing_zeros()
        } else {
            align_mul
        };
        if align < 4 {
            return Err(unsupported(format!(
                "{name} at a {align}-byte alignment (byte scattered messages)"
            )));
        }
        if store && i.int_index(IndexKind::WriteMask).unwrap_or(1) & 1 == 0 {
            return Ok(());
        }
        let chan = self.chan_index.ok_or_else(|| {
            CompileError::Internal("scratch access without a channel index".into())
        })?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0) as u32;
        let offset = self.comp(src(if store { 1 } else { 0 })?, 0)?;
        let nir_addr = self.address(offset, base);
        let addr = self.vgrf(UD);
        let shift = (self.width as u32).trailing_zeros() - 2;
        self.alu(Opcode::Shl, addr, vec![nir_addr, Reg::imm(UD, shift)]);
        self.alu(Opcode::Or, addr, vec![addr, chan]);
        // Scratch header: the per-thread scratch size (g0.3 bits 3:0) and base (g0.5 bits
        // 31:10) the hardware adds to the offsets.
        let header = Reg::vgrf(self.prog.alloc(1), UD);
        let clear = self.alu(Opcode::Mov, header, vec![Reg::imm(UD, 0)]);
        clear.exec_size = 8;
        clear.we_all = true;
        for (dword, mask) in [(3u32, 0xfu32), (5, 0xffff_fc00)] {
            let and = self.alu(
                Opcode::And,
                Reg {
                    offset: 4 * dword,
                    ..header
                },
                vec![Reg::fixed(0, 4 * dword, UD, 0), Reg::imm(UD, mask)],
            );
            and.exec_size = 1;
            and.we_all = true;
        }
        let per = self.per();
        let mut srcs = vec![header, addr];
        if store {
            srcs.push(self.comp(data_def, 0)?.retype(UD));
        }
        let mlen = 1 + per * (srcs.len() as u32 - 1);
        let payload = Reg::vgrf(self.prog.alloc(mlen), UD);
        self.push(Op::LoadPayload, payload, srcs).header_size = 1;
        let bti = if self.devinfo.ver >= 80 { 253 } else { 255 };
        let (msg_type, rlen) = if store { (11, 0) } else { (3, per) };
        // Function control: bit 1 legacy SIMD mode, bit 0 SIMD16.
        let control = 2 | (self.width == 16) as u32;
        let dst = if store {
            Reg::null(RegType::UW)
        } else {
            self.vgrf(UD)
        };
        let send = self.push(Op::Send, dst, vec![payload]);
        send.mlen = mlen as u8;
        send.rlen = rlen as u8;
        send.desc =
            (mlen << 25) | (rlen << 20) | (1 << 19) | (msg_type << 14) | (control << 8) | bti;
        send.sfid = sfid::DATA_CACHE;
        if store {
            self.facts.scratch_writes += 1;
        } else {
            self.facts.scratch_reads += 1;
            self.set(data_def, vec![dst]);
        }
        Ok(())
    }

    /// A workgroup barrier: a gateway message carrying the barrier id from the thread header
    /// (g0.2 bits 27:24 on Gen7 and Gen8), then a wait on the notification register until
    /// every thread of the workgroup has sent its own.
    fn emit_gateway_barrier(&mut self) -> Result<(), CompileError> {
        use RegType::UD;
        let facts = self
            .facts
            .compute
            .as_mut()
            .ok_or_else(|| unsupported("barrier outside a compute shader"))?;
        facts.uses_barrier = true;
        let payload = Reg::vgrf(self.prog.alloc(1), UD);
        let clear = self.alu(Opcode::Mov, payload, vec![Reg::imm(UD, 0)]);
        clear.exec_size = 8;
        clear.we_all = true;
        let id = Reg {
            offset: 8,
            ..payload
        };
        let and = self.alu(
            Opcode::And,
            id,
            vec![Reg::fixed(0, 8, UD, 0), Reg::imm(UD, 0x0f00_0000)],
        );
        and.exec_size = 1;
        and.we_all = true;
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.exec_size = 8;
        send.we_all = true;
        send.mlen = 1;
        send.desc = (1 << 25) | 4;
        send.sfid = sfid::GATEWAY;
        let wait = self.alu(Opcode::Wait, Reg::BAD, vec![]);
        wait.exec_size = 1;
        wait.we_all = true;
        Ok(())
    }

    /// Ends a compute thread: a thread-spawner message with the thread header (root thread,
    /// no URB dereference), as the end-of-thread send.
    fn emit_cs_terminate(&mut self) {
        use RegType::UD;
        let payload = Reg::vgrf(self.prog.alloc(1), UD);
        let copy = self.alu(Opcode::Mov, payload, vec![Reg::fixed(0, 0, UD, 1)]);
        copy.exec_size = 8;
        copy.we_all = true;
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.exec_size = 8;
        send.we_all = true;
        send.mlen = 1;
        send.desc = (1 << 25) | (1 << 4);
        send.sfid = sfid::THREAD_SPAWNER;
        send.eot = true;
    }

    /// A UBO load at a run-time offset: sampler `ld` messages from the buffer surface
    /// (`UBO_SURFACE_BASE + block`), one per four components. The surface has a one-byte
    /// pitch (see `Kernel::pull_constant_blocks`), so the coordinate is the byte offset
    /// itself and each reply holds the four dwords from there, whatever the offset's
    /// alignment: the message is one register per eight channels, with no row index to
    /// compute, no level source and no per-component select, as Mesa's
    /// VARYING_PULL_CONSTANT_LOAD emits it on Gen7 and Gen8.
    fn emit_pull_constant(
        &mut self,
        i: &IntrinsicInstr,
        block: u32,
        offset: SsaId,
    ) -> Result<(), CompileError> {
        use RegType::UD;
        let def = i
            .def
            .ok_or_else(|| CompileError::Invalid("load_ubo has no result".into()))?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported("load_ubo of non-dword data"));
        }
        let surface = UBO_SURFACE_BASE + block;
        if surface > 255 {
            return Err(unsupported("UBO block index over 191"));
        }
        if !self.facts.pull_blocks.contains(&block) {
            self.facts.pull_blocks.push(block);
        }
        let off = self.comp(offset, 0)?.retype(UD);
        let off = self.in_grf(off);
        let per = self.per();
        let n = n as u32;
        let mut out = Vec::with_capacity(n as usize);
        for group in 0..n.div_ceil(4) {
            let addr = if group == 0 {
                off
            } else {
                let b = self.vgrf(UD);
                self.alu(Opcode::Add, b, vec![off, Reg::imm(UD, 16 * group)]);
                b
            };
            let dst = Reg::vgrf(self.prog.alloc(4 * per), UD);
            self.push(
                Op::Tex {
                    kind: TexKind::Ld,
                    surface: surface as u8,
                    sampler: 0,
                    indexed: false,
                },
                dst,
                vec![addr],
            );
            // Copies out of the reply let its unused and dead components be reused early
            // (register coalescing removes the copies that cost nothing to keep).
            for k in 0..(n - 4 * group).min(4) {
                let d = self.vgrf(UD);
                self.alu(Opcode::Mov, d, vec![dst.reg_offset(k * per)]);
                out.push(d);
            }
        }
        self.set(def, out);
        Ok(())
    }

    /// The attribute-setup registers of an input load's components. An interpolated input
    /// reads each component's plane (a, b, c coefficients) for PLN; a flat one reads the
    /// constant term, the fourth dword of the plane.
    fn input_attrs(
        &mut self,
        i: &IntrinsicInstr,
        offset: SsaId,
        def: SsaId,
        flat: bool,
    ) -> Result<Vec<Reg>, CompileError> {
        let off = self
            .imp
            .const_value(offset)
            .and_then(|v| v.first().copied());
        if off != Some(0) {
            return Err(unsupported("indirect input offset"));
        }
        let base = i.int_index(IndexKind::Base).unwrap_or(0) as u32;
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        let slot = self.input_slot(base, i, flat);
        let (n, _) = self.def_info(def)?;
        let (extra, ty) = if flat {
            (12, RegType::UD)
        } else {
            (0, RegType::F)
        };
        Ok((0..n as u32)
            .map(|c| Reg {
                file: File::Attr,
                nr: slot,
                offset: (first + c) * 16 + extra,
                ty,
                stride: 0,
                ..Reg::BAD
            })
            .collect())
    }

    fn input_slot(&mut self, base: u32, i: &IntrinsicInstr, flat: bool) -> u32 {
        let next = self.facts.inputs.len() as u32;
        let slot = *self.input_index.entry(base).or_insert(next);
        if slot == next {
            let loc = i.io_location().unwrap_or("").to_string();
            self.facts.inputs.push((base, loc, flat));
        }
        slot
    }

    fn emit_tex(&mut self, t: &nir::TexInstr) -> Result<(), CompileError> {
        let op = t.op.name();
        let get = |k: TexSrc| t.srcs.iter().find(|s| s.0 == k).map(|s| s.1);
        for (k, _) in &t.srcs {
            if !matches!(
                k.name(),
                "coord"
                    | "comparator"
                    | "lod"
                    | "bias"
                    | "ddx"
                    | "ddy"
                    | "texture_offset"
                    | "sampler_offset"
                    | "offset"
            ) {
                return Err(unsupported(format!("texture source {}", k.name())));
            }
        }
        let comps = |s: &Self, id: Option<SsaId>| -> Result<Vec<Reg>, CompileError> {
            match id {
                Some(id) => Ok(s.value(id)?.clone()),
                None => Ok(Vec::new()),
            }
        };
        let mut coord = comps(self, get(TexSrc::COORD))?;
        // Texel offsets (constants in -8..=7, as GLSL requires of textureOffset): texel
        // fetches add them to the integer coordinates (brw has NIR do the same); sampling
        // messages take them in the header, 4 bits each at u 11:8, v 7:4, r 3:0 of dword 2.
        let mut offset_bits = None;
        if let Some(&(_, id)) = t.srcs.iter().find(|s| s.0.name() == "offset") {
            let offs = self
                .imp
                .const_value(id)
                .ok_or_else(|| unsupported("texture offset that is not a constant"))?;
            let offs: Vec<i32> = offs.iter().map(|&v| v as u32 as i32).collect();
            if op == "txf" {
                for (c, o) in offs.iter().enumerate() {
                    if let Some(r) = coord.get_mut(c) {
                        let sum = self.vgrf(RegType::D);
                        let base = self.in_grf(r.retype(RegType::D));
                        self.alu(
                            Opcode::Add,
                            sum,
                            vec![base, Reg::imm(RegType::D, *o as u32)],
                        );
                        *r = sum;
                    }
                }
            } else {
                let mut bits = 0u32;
                for (c, &o) in offs.iter().enumerate().take(3) {
                    if !(-8..=7).contains(&o) {
                        return Err(unsupported(format!("texel offset {o} outside -8..=7")));
                    }
                    let shift = 4 * (2 - c as u32);
                    bits |= ((o as u32) << shift) & (0xf << shift);
                }
                offset_bits = Some(bits);
            }
        }
        let shadow = comps(self, get(TexSrc::COMPARATOR))?;
        let lod = comps(self, get(TexSrc::LOD))?;
        let bias = comps(self, get(TexSrc::BIAS))?;
        let mut params: Vec<Reg> = Vec::new();
        let kind = match (op, shadow.is_empty()) {
            ("tex", true) => {
                params.extend(&coord);
                TexKind::Sample
            }
            ("tex", false) => {
                params.extend(&shadow);
                params.extend(&coord);
                TexKind::SampleC
            }
            ("txb", true) => {
                params.extend(&bias);
                params.extend(&coord);
                TexKind::SampleB
            }
            ("txl", true) => {
                params.extend(&lod);
                params.extend(&coord);
                TexKind::SampleL
            }
            ("txl", false) => {
                params.extend(&shadow);
                params.extend(&lod);
                params.extend(&coord);
                TexKind::SampleLC
            }
            ("txd", true) => {
                let ddx = comps(self, get(TexSrc::DDX))?;
                let ddy = comps(self, get(TexSrc::DDY))?;
                for (c, &co) in coord.iter().enumerate() {
                    params.push(co);
                    if let (Some(x), Some(y)) = (ddx.get(c), ddy.get(c)) {
                        params.push(*x);
                        params.push(*y);
                    }
                }
                TexKind::SampleD
            }
            ("txf", true) => {
                // Gen7/8 `ld` interleaves the level after u (u lod v r); Gen9 puts it after
                // the 2D coordinates (u v lod r).
                let l = lod.first().copied().unwrap_or(Reg::imm(RegType::D, 0));
                params.extend(&coord);
                if self.devinfo.ver >= 90 {
                    if params.len() < 2 {
                        params.push(Reg::imm(RegType::D, 0));
                    }
                    params.insert(2, l);
                } else {
                    params.insert(1.min(params.len()), l);
                }
                TexKind::Ld
            }
            ("txs" | "query_levels", true) => {
                params.push(lod.first().copied().unwrap_or(Reg::imm(RegType::D, 0)));
                TexKind::Resinfo
            }
            (other, sh) => {
                return Err(unsupported(format!(
                    "texture op {other}{}",
                    if sh { "" } else { " with shadow compare" }
                )))
            }
        };
        let _ = TexOp::TEX;
        let per = self.per();
        let dst_nr = self.prog.alloc(4 * per);
        let dst = Reg::vgrf(dst_nr, RegType::UD);
        let mut params: Vec<Reg> = params.into_iter().map(|r| r.retype(RegType::UD)).collect();
        let header = offset_bits.map(|bits| {
            // The sampler header: g0 with the offsets in dword 2.
            let h = Reg::vgrf(self.prog.alloc(1), RegType::UD);
            let m = self.alu(Opcode::Mov, h, vec![Reg::fixed(0, 0, RegType::UD, 1)]);
            m.exec_size = 8;
            m.we_all = true;
            let m = self.alu(
                Opcode::Mov,
                Reg { offset: 8, ..h },
                vec![Reg::imm(RegType::UD, bits)],
            );
            m.exec_size = 1;
            m.we_all = true;
            h
        });
        if let Some(h) = header {
            params.insert(0, h);
        }
        let surface = t.texture_index.unwrap_or(0);
        let sampler = t.sampler_index.unwrap_or(0);
        let dynamic = t
            .srcs
            .iter()
            .find(|s| s.0.name() == "texture_offset")
            .map(|s| s.1);
        let candidates = if dynamic.is_some() {
            self.sampler_array_len.max(1)
        } else {
            1
        };
        if surface + candidates > 256 || sampler + candidates > 16 {
            return Err(unsupported("texture or sampler index out of range"));
        }
        // A run-time texture index (an element of a sampler array) is dynamically uniform, as
        // GLSL requires of sampler-array indexing: the first enabled channel's value picks
        // the surface and sampler for the whole message, as brw does, instead of one
        // predicated message per array element.
        if let Some(id) = dynamic {
            let idx = self.in_grf(self.comp(id, 0)?.retype(RegType::UD));
            let uniform = Reg::vgrf(self.prog.alloc(1), RegType::UD);
            self.push(Op::Uniformize, uniform, vec![idx]);
            params.push(Reg {
                stride: 0,
                ..uniform
            });
        }
        let inst = self.push(
            Op::Tex {
                kind,
                surface: surface as u8,
                sampler: sampler as u8,
                indexed: dynamic.is_some(),
            },
            dst,
            params,
        );
        // A leading one-register header source (texel offsets).
        inst.header_size = header.is_some() as u8;
        let (n, _) = self.def_info(t.def)?;
        // resinfo replies width, height, depth, levels: query_levels is the fourth.
        let first = if op == "query_levels" { 3 } else { 0 };
        let out = (0..n as u32)
            .map(|c| dst.reg_offset((first + c) * per))
            .collect();
        self.set(t.def, out);
        Ok(())
    }

    fn emit_fb_writes(&mut self) {
        let mut targets: Vec<(u32, Vec<Reg>)> =
            self.outputs.iter().map(|(k, v)| (*k, v.clone())).collect();
        if targets.is_empty() {
            let regs = (0..4).map(|_| Reg::imm(RegType::UD, 0)).collect();
            targets.push((0, regs));
        }
        self.facts.num_render_targets = targets.iter().map(|t| t.0 + 1).max().unwrap_or(1);
        if let Some(second) = self.dual_src.clone() {
            // Dual-source blending writes render target 0 only, with both colours in one
            // message (eight colour sources; `lower_logical_sends` picks the message).
            targets.retain(|t| t.0 == 0);
            if targets.is_empty() {
                let regs = (0..4).map(|_| Reg::imm(RegType::UD, 0)).collect();
                targets.push((0, regs));
            }
            targets[0].1.extend(second);
            self.facts.num_render_targets = 1;
            self.facts.dual_source_blend = true;
        }
        let n = targets.len();
        for (k, (rt, regs)) in targets.into_iter().enumerate() {
            let mut src: Vec<Reg> = regs.iter().map(|r| r.retype(RegType::F)).collect();
            if let Some(d) = self.depth {
                src.push(d);
            }
            let uses_kill = self.facts.uses_kill;
            let w = self.push(
                Op::FbWrite {
                    target: rt as u8,
                    last: k + 1 == n,
                },
                Reg::null(RegType::UW),
                src,
            );
            if uses_kill {
                // Discarded pixels are left out of the write by predicating it on f0.1.
                w.pred = Some(false);
                w.flag_subnr = KILL_FLAG;
            }
        }
    }
}

/// Mesa's `brw_barycentric_mode` of a barycentric load: pixel, centroid or sample, plus 3
/// for `noperspective` inputs (`INTERP_MODE_NOPERSPECTIVE` = 3).
fn barycentric_mode(intr: Intrinsic, i: &IntrinsicInstr) -> usize {
    let at = match intr {
        Intrinsic::LoadBarycentricCentroid => 1,
        Intrinsic::LoadBarycentricSample => 2,
        _ => 0,
    };
    let noperspective = i.int_index(IndexKind::InterpMode) == Some(3);
    at + 3 * noperspective as usize
}

/// Workgroup id component `k` from the thread header (g0.1, g0.6, g0.7).
fn workgroup_id(k: usize) -> Reg {
    Reg::fixed(0, [4, 24, 28][k], RegType::UD, 0)
}

fn swap_cond(c: CondMod) -> CondMod {
    match c {
        CondMod::L => CondMod::G,
        CondMod::G => CondMod::L,
        CondMod::Le => CondMod::Ge,
        CondMod::Ge => CondMod::Le,
        other => other,
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
