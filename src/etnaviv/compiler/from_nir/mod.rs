//! NIR to the backend IR, with the target lowering done on the way.
//!
//! The corpus NIR arrives as Mesa's etnaviv driver hands it over: vec4-shaped SSA with phis,
//! structured control flow, `load_uniform`/`load_input`/`store_deref` I/O. What the core lacks
//! is lowered here, driven by [`Specs`]: the ops the hardware computes only on `.x` are
//! scalarized, fast-transcendental cores get their two-part results recombined, `fdiv`/`fpow`
//! become RCP/LOG/EXP sequences, bias/LOD move into `coord.w` where the core wants them, and
//! booleans are 1.0/0.0 floats or 0/~0 integers depending on whether the core has integers.
//! Phis become copies at the end of each predecessor, so allocation sees ordinary values.

use std::collections::HashMap;

use super::consts::Uniforms;
use super::dialect;
use super::ir::*;
use super::CompileError;
use crate::etnaviv::isa::{Cond, DataType, Opcode};
use crate::etnaviv::specs::Specs;
use crate::nir::ir::{
    AluInstr, AluSrc, BlockId, CfNode, Def, DerefInstr, DerefKind, IfNode, Impl, IndexValue,
    InstrKind, IntrinsicInstr, JumpKind, LoopNode, Shader, SsaId, TexInstr, TexSrc, VarMode,
};
use crate::nir::opcodes::{AluOp, IndexKind, Intrinsic};
use crate::nir::types::{BaseType, Stage};

/// How a NIR def is read by operands.
#[derive(Clone, Debug)]
enum Binding {
    /// An operand pattern: NIR component `c` of the def is operand component `swz[c]` of
    /// `kind`, with the modifiers applied. Moves, negations and absolute values of
    /// non-phi values become such aliases instead of instructions.
    Src {
        kind: OperandKind,
        swz: [u8; 4],
        neg: bool,
        abs: bool,
    },
    Const(Vec<u32>),
    /// A deref of an output variable at a slot offset.
    Deref(String, u32),
}

impl Binding {
    fn value(v: ValueId, off: u8) -> Binding {
        Binding::Src {
            kind: OperandKind::Value(v),
            swz: [0, 1, 2, 3].map(|c: u8| (c + off).min(3)),
            neg: false,
            abs: false,
        }
    }
    fn plain(kind: OperandKind) -> Binding {
        Binding::Src {
            kind,
            swz: [0, 1, 2, 3],
            neg: false,
            abs: false,
        }
    }
}

/// An input as the shader object reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputInfo {
    pub slot: u32,
    pub value: ValueId,
    pub reg: u8,
    pub comps: u8,
    pub integer: bool,
    pub name: String,
}

/// An output slot and the value holding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputInfo {
    pub slot: u32,
    pub value: ValueId,
    pub comps: u8,
    pub name: String,
}

/// Everything the translation produced.
pub struct Lowered {
    pub program: Program,
    pub uniforms: Uniforms,
    pub inputs: Vec<InputInfo>,
    pub outputs: Vec<OutputInfo>,
    pub uses_discard: bool,
    /// (hardware unit, coordinate components, NIR texture index) per sampler used.
    pub textures: Vec<(u32, u8, u32)>,
}

type R<T> = Result<T, CompileError>;

fn unsupported<T>(what: impl Into<String>) -> R<T> {
    Err(CompileError::Unsupported(what.into()))
}

struct Tr<'a> {
    specs: &'static Specs,
    shader: &'a Shader,
    imp: &'a Impl,
    stage: Stage,
    p: Program,
    bind: Vec<Option<Binding>>,
    uniforms: Uniforms,
    inputs: Vec<InputInfo>,
    outputs: Vec<OutputInfo>,
    /// Per predecessor block: (phi variable, source def) copies to make at its end.
    phi_copies: HashMap<BlockId, Vec<(ValueId, SsaId)>>,
    /// NIR uses per def (sources and if conditions).
    uses: Vec<u32>,
    /// Stores per output slot.
    stores: HashMap<u32, u32>,
    /// Phi variables: reassigned on loop back edges, so never aliased.
    phi_values: Vec<ValueId>,
    /// (continue target, break target) of the enclosing loops.
    loops: Vec<(Label, Label)>,
    uses_discard: bool,
    textures: Vec<(u32, u8, u32)>,
    /// Booleans are integers 0/~0 (cores with integers) rather than floats 1.0/0.0.
    int_bools: bool,
}

/// Lowers `shader` for `specs`.
pub fn lower(specs: &'static Specs, shader: &Shader) -> R<Lowered> {
    let stage = shader.stage();
    if !matches!(stage, Stage::Vertex | Stage::Fragment) {
        return unsupported(format!("{} shaders", stage.mesa_name()));
    }
    let imp = shader
        .entry()
        .ok_or_else(|| CompileError::Invalid("the shader has no function body".into()))?;
    let mut t = Tr {
        specs,
        shader,
        imp,
        stage,
        p: Program::default(),
        bind: vec![None; imp.defs.len()],
        uniforms: Uniforms::new(user_uniform_slots(shader, imp)),
        inputs: Vec::new(),
        outputs: Vec::new(),
        phi_copies: HashMap::new(),
        phi_values: Vec::new(),
        uses: vec![0; imp.defs.len()],
        stores: HashMap::new(),
        loops: Vec::new(),
        uses_discard: false,
        textures: Vec::new(),
        int_bools: specs.has_integers(),
    };
    t.prepare_phis()?;
    t.count_uses();
    t.list(&imp.body)?;
    Ok(Lowered {
        program: t.p,
        uniforms: t.uniforms,
        inputs: t.inputs,
        outputs: t.outputs,
        uses_discard: t.uses_discard,
        textures: t.textures,
    })
}

/// The uniform slots that belong to the application. Normally the header's count; when the
/// shader reads the default uniform block through UBO loads (Mesa leaves the indirectly
/// indexed arrays there on HALTI2+ cores), only the slots its `load_uniform`s name, which
/// [`Uniforms::note_user`] adds as they come: the rest stay in memory and take no register.
fn user_uniform_slots(shader: &Shader, imp: &Impl) -> u32 {
    let reads_ubo = imp.instrs.iter().any(
        |ins| matches!(&ins.kind, InstrKind::Intrinsic(ii) if ii.intrinsic == Intrinsic::LoadUbo),
    );
    if reads_ubo {
        0
    } else {
        shader.info.num_uniforms
    }
}

/// Channel `c` of an aligned op over `n` components reads NIR component `swizzle[c]`
/// (channels past the width repeat the last one, which keeps unused channels harmless).
fn aligned(swizzle: &[u8; 16], n: u8) -> [u8; 4] {
    let last = n.clamp(1, 4) as usize - 1;
    [0, 1, 2, 3].map(|c: usize| swizzle[c.min(last)])
}

fn fbits(x: f32) -> u32 {
    x.to_bits()
}

impl<'a> Tr<'a> {
    fn prepare_phis(&mut self) -> R<()> {
        for ins in &self.imp.instrs {
            if let InstrKind::Phi(phi) = &ins.kind {
                let d = self.def(phi.def)?;
                let v = self.p.new_value(d.num_components, ValueKind::Temp);
                self.phi_values.push(v);
                self.bind[phi.def.0 as usize] = Some(Binding::value(v, 0));
                for &(pred, src) in &phi.srcs {
                    self.phi_copies.entry(pred).or_default().push((v, src));
                }
            }
        }
        Ok(())
    }

    fn count_uses(&mut self) {
        let imp = self.imp;
        for ins in &imp.instrs {
            for s in ins.kind.srcs() {
                if let Some(u) = self.uses.get_mut(s.0 as usize) {
                    *u += 1;
                }
            }
        }
        fn walk(nodes: &[CfNode], uses: &mut [u32]) {
            for n in nodes {
                match n {
                    CfNode::If(i) => {
                        if let Some(u) = uses.get_mut(i.condition.0 as usize) {
                            *u += 1;
                        }
                        walk(&i.then_body, uses);
                        walk(&i.else_body, uses);
                    }
                    CfNode::Loop(l) => walk(&l.body, uses),
                    CfNode::Block(_) => {}
                }
            }
        }
        walk(&imp.body, &mut self.uses);
        // Stores per output slot, to know which outputs have a single writer.
        let mut derefs: HashMap<u32, (String, u32)> = HashMap::new();
        for ins in &imp.instrs {
            match &ins.kind {
                InstrKind::Deref(d) => {
                    let b = match &d.kind {
                        DerefKind::Var(n) => Some((n.clone(), 0)),
                        DerefKind::Array { parent, index } => derefs
                            .get(&parent.0)
                            .cloned()
                            .zip(imp.const_value(*index))
                            .map(|((n, o), v)| (n, o + v[0] as u32)),
                    };
                    if let Some(b) = b {
                        derefs.insert(d.def.0, b);
                    }
                }
                InstrKind::Intrinsic(ii) if ii.intrinsic == Intrinsic::StoreDeref => {
                    if let Some((name, idx)) = ii.srcs.first().and_then(|p| derefs.get(&p.0)) {
                        if let Some(v) = self.shader.variables.iter().find(|v| &v.name == name) {
                            *self.stores.entry(v.driver_location + idx).or_default() += 1;
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The value `val` itself when a store of it to output `slot` can simply make it the
    /// output register: its only use, the slot's only store, all components from x on.
    fn coalescible_output(&self, val: SsaId, slot: u32, frac: u8, wrmask: u8) -> Option<ValueId> {
        let width = self.imp.def(val)?.num_components;
        if frac != 0
            || wrmask != (1 << width) - 1
            || self.uses.get(val.0 as usize) != Some(&1)
            || self.stores.get(&slot) != Some(&1)
        {
            return None;
        }
        match self.bind.get(val.0 as usize)?.as_ref()? {
            Binding::Src {
                kind: OperandKind::Value(v),
                swz: [0, 1, 2, 3],
                neg: false,
                abs: false,
            } if self.p.values[v.index()].kind == ValueKind::Temp
                && !self.phi_values.contains(v) =>
            {
                Some(*v)
            }
            _ => None,
        }
    }

    fn def(&self, id: SsaId) -> R<Def> {
        self.imp
            .def(id)
            .copied()
            .ok_or_else(|| CompileError::Invalid(format!("%{} is not defined", id.0)))
    }

    fn binding(&self, id: SsaId) -> R<&Binding> {
        self.bind
            .get(id.0 as usize)
            .and_then(|b| b.as_ref())
            .ok_or_else(|| {
                CompileError::Invalid(format!("%{} is used before its definition", id.0))
            })
    }

    /// The operand reading NIR components `comps[c]` of `id` in channel `c`.
    fn operand(&self, id: SsaId, comps: [u8; 4]) -> R<Operand> {
        Ok(match self.binding(id)? {
            Binding::Src {
                kind,
                swz,
                neg,
                abs,
            } => Operand {
                kind: *kind,
                swz: comps.map(|c| swz[c as usize & 3]),
                neg: *neg,
                abs: *abs,
            },
            Binding::Const(vals) => {
                Operand::konst(comps.map(|c| vals.get(c as usize).copied().unwrap_or(0)))
            }
            Binding::Deref(..) => {
                return Err(CompileError::Invalid(format!(
                    "%{} is a deref used as a value",
                    id.0
                )))
            }
        })
    }

    fn new_def(&mut self, id: SsaId) -> R<ValueId> {
        let d = self.def(id)?;
        if d.bit_size != 32 {
            return unsupported(format!("{}-bit values (%{})", d.bit_size, id.0));
        }
        if d.num_components > 4 {
            return unsupported(format!("{}-component values (%{})", d.num_components, id.0));
        }
        let v = self.p.new_value(d.num_components, ValueKind::Temp);
        self.bind[id.0 as usize] = Some(Binding::value(v, 0));
        Ok(v)
    }

    fn temp(&mut self, width: u8) -> ValueId {
        self.p.new_value(width, ValueKind::Temp)
    }

    /// Emits `op` writing `dst.mask` with the given sources.
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        op: Opcode,
        ty: DataType,
        cond: Cond,
        dst: (ValueId, u8),
        src: [Option<Operand>; 3],
        shape: Shape,
    ) {
        let mut src = src;
        if !ty.is_float() {
            // Integer instructions would apply the modifiers as integer negation and
            // absolute value: float modifiers folded from fneg/fabs go through a MOV first.
            for s in src.iter_mut().flatten() {
                if (s.neg || s.abs) && !matches!(s.kind, OperandKind::Const(_)) {
                    // A broadcast (the usual case) needs only a scalar.
                    let splat = s.swz.iter().all(|&c| c == s.swz[0]);
                    let t = self.temp(if splat { 1 } else { 4 });
                    let mut i = Instr::new(Opcode::Mov, Shape::Aligned);
                    i.dst = Some((t, if splat { 1 } else { 0xf }));
                    i.src[2] = Some(*s);
                    self.p.push(i);
                    *s = Operand::value(t, if splat { [0; 4] } else { [0, 1, 2, 3] });
                }
            }
        }
        let mut i = Instr::new(op, shape);
        i.ty = ty;
        i.cond = cond;
        i.dst = Some(dst);
        i.src = src;
        self.p.push(i);
    }

    fn mov(&mut self, dst: (ValueId, u8), src: Operand) {
        self.emit(
            Opcode::Mov,
            DataType::F32,
            Cond::True,
            dst,
            [None, None, Some(src)],
            Shape::Aligned,
        );
    }

    fn list(&mut self, nodes: &[CfNode]) -> R<()> {
        for n in nodes {
            match n {
                CfNode::Block(b) => self.block(*b)?,
                CfNode::If(i) => self.if_node(i)?,
                CfNode::Loop(l) => self.loop_node(l)?,
            }
        }
        Ok(())
    }

    fn if_node(&mut self, node: &IfNode) -> R<()> {
        let cond = self.operand(node.condition, [0; 4])?;
        let else_l = self.p.new_label();
        let end_l = self.p.new_label();
        let mut br = Instr::new(Opcode::Branch, Shape::Broadcast(4));
        br.cond = Cond::Not;
        br.ty = self.bool_type();
        br.src[0] = Some(cond);
        br.target = Some(else_l);
        self.p.push(br);
        self.list(&node.then_body)?;
        let mut j = Instr::new(Opcode::Branch, Shape::Broadcast(0));
        j.target = Some(end_l);
        self.p.push(j);
        self.p.place(else_l);
        self.list(&node.else_body)?;
        self.p.place(end_l);
        Ok(())
    }

    fn loop_node(&mut self, node: &LoopNode) -> R<()> {
        if !node.continue_body.is_empty() {
            return unsupported("loops with a continue construct");
        }
        let head = self.p.new_label();
        let exit = self.p.new_label();
        self.p.loops += 1;
        self.p.place(head);
        self.loops.push((head, exit));
        self.list(&node.body)?;
        self.loops.pop();
        self.jump(head);
        self.p.place(exit);
        Ok(())
    }

    fn jump(&mut self, l: Label) {
        let mut j = Instr::new(Opcode::Branch, Shape::Broadcast(0));
        j.target = Some(l);
        self.p.push(j);
    }

    fn bool_type(&self) -> DataType {
        if self.int_bools {
            DataType::U32
        } else {
            DataType::F32
        }
    }

    fn block(&mut self, b: BlockId) -> R<()> {
        let imp = self.imp;
        let mut copied = false;
        for &id in &imp.blocks[b.0 as usize].instrs {
            let ins = imp.instr(id);
            if let InstrKind::Jump(j) = &ins.kind {
                self.phi_moves(b)?;
                copied = true;
                let (head, exit) = match self.loops.last() {
                    Some(&l) => l,
                    None => return unsupported(format!("`{}` outside a loop", j.name())),
                };
                match j {
                    JumpKind::Break => self.jump(exit),
                    JumpKind::Continue => self.jump(head),
                    _ => return unsupported(format!("`{}` jumps", j.name())),
                }
                continue;
            }
            self.instr(&ins.kind).map_err(|e| match e {
                CompileError::Unsupported(m) => CompileError::Unsupported(format!(
                    "{m} (block b{}, instruction #{})",
                    b.0, id.0
                )),
                e => e,
            })?;
        }
        if !copied {
            self.phi_moves(b)?;
        }
        Ok(())
    }

    /// The copies into the phis of `b`'s successors, as one parallel copy: sources that are
    /// themselves copy destinations are saved first.
    fn phi_moves(&mut self, b: BlockId) -> R<()> {
        let Some(copies) = self.phi_copies.get(&b).cloned() else {
            return Ok(());
        };
        let dests: Vec<ValueId> = copies.iter().map(|c| c.0).collect();
        let mut ops = Vec::new();
        for &(dst, src) in &copies {
            let w = self.p.values[dst.index()].width;
            let comps = aligned(&AluSrc::IDENTITY, w);
            let mut op = self.operand(src, comps)?;
            if let OperandKind::Value(v) = op.kind {
                if dests.contains(&v) && v != dst {
                    let t = self.temp(self.p.values[v.index()].width);
                    let tw = self.p.values[t.index()].width;
                    self.mov((t, (1 << tw) - 1), Operand::value(v, [0, 1, 2, 3]));
                    op.kind = OperandKind::Value(t);
                }
            }
            ops.push((dst, w, op));
        }
        for (dst, w, op) in ops {
            if op.kind == OperandKind::Value(dst) && op.swz == [0, 1, 2, 3] {
                continue;
            }
            self.mov((dst, (1 << w) - 1), op);
        }
        Ok(())
    }

    fn instr(&mut self, kind: &InstrKind) -> R<()> {
        match kind {
            InstrKind::LoadConst(c) => {
                let d = self.def(c.def)?;
                let vals = c
                    .values
                    .iter()
                    .map(|&v| match d.bit_size {
                        1 if v != 0 => {
                            if self.int_bools {
                                u32::MAX
                            } else {
                                fbits(1.0)
                            }
                        }
                        _ => v as u32,
                    })
                    .collect();
                if d.bit_size != 32 && d.bit_size != 1 {
                    return unsupported(format!("{}-bit constants", d.bit_size));
                }
                self.bind[c.def.0 as usize] = Some(Binding::Const(vals));
            }
            InstrKind::Undef(d) => {
                let n = self.def(*d)?.num_components as usize;
                self.bind[d.0 as usize] = Some(Binding::Const(vec![0; n]));
            }
            InstrKind::Phi(_) => {}
            InstrKind::Jump(_) => {}
            InstrKind::Alu(a) => self.alu(a)?,
            InstrKind::Intrinsic(i) => self.intrinsic(i)?,
            InstrKind::Tex(t) => self.tex(t)?,
            InstrKind::Deref(d) => self.deref(d)?,
        }
        Ok(())
    }

    fn deref(&mut self, d: &DerefInstr) -> R<()> {
        let b = match &d.kind {
            DerefKind::Var(name) => Binding::Deref(name.clone(), 0),
            DerefKind::Array { parent, index } => {
                let (name, base) = match self.binding(*parent)? {
                    Binding::Deref(n, o) => (n.clone(), *o),
                    _ => return unsupported("deref of a non-variable"),
                };
                let idx = match self.imp.const_value(*index) {
                    Some(v) => v[0] as u32,
                    None => return unsupported("indirect array indexing of variables"),
                };
                Binding::Deref(name, base + idx)
            }
        };
        self.bind[d.def.0 as usize] = Some(b);
        Ok(())
    }

    fn const_src(&self, id: SsaId) -> Option<u32> {
        self.imp.const_value(id).map(|v| v[0] as u32)
    }

    fn intrinsic(&mut self, ii: &IntrinsicInstr) -> R<()> {
        match ii.intrinsic {
            Intrinsic::LoadUniform => {
                let base = ii.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
                let def = ii
                    .def
                    .ok_or_else(|| CompileError::Invalid("load without def".into()))?;
                let off = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
                    Some(o) if self.int_bools => o,
                    Some(o) => f32::from_bits(o) as u32,
                    None => return self.indirect_uniform(ii, base, def),
                };
                self.bind[def.0 as usize] = Some(Binding::plain(OperandKind::Uniform(base + off)));
                self.uniforms.note_user(base + off);
            }
            Intrinsic::LoadInput => {
                let off = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
                    Some(o) => o,
                    None => return unsupported("indirect input loads"),
                };
                let slot = ii.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32 + off;
                let comp = ii.int_index(IndexKind::Component).unwrap_or(0) as u8;
                let integer = ii
                    .type_index(IndexKind::DestType)
                    .is_some_and(|t| t.base != BaseType::Float);
                let def = ii
                    .def
                    .ok_or_else(|| CompileError::Invalid("load without def".into()))?;
                let n = self.def(def)?.num_components;
                let v = self.input(slot, integer, comp + n, ii)?;
                self.bind[def.0 as usize] = Some(Binding::value(v, comp));
            }
            Intrinsic::LoadFragCoord => {
                let def = ii
                    .def
                    .ok_or_else(|| CompileError::Invalid("load without def".into()))?;
                self.bind[def.0 as usize] = Some(Binding::plain(OperandKind::Fixed(0)));
            }
            Intrinsic::LoadTextureScale => {
                let unit = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
                    Some(u) => u,
                    None => return unsupported("indirect texture scale"),
                };
                let def = ii
                    .def
                    .ok_or_else(|| CompileError::Invalid("load without def".into()))?;
                let slot = self.uniforms.texture_scale(unit);
                self.bind[def.0 as usize] = Some(Binding::plain(OperandKind::Uniform(slot)));
            }
            Intrinsic::StoreDeref => self.store(ii)?,
            Intrinsic::Discard | Intrinsic::Terminate => {
                self.uses_discard = true;
                self.p
                    .push(Instr::new(Opcode::Texkill, Shape::Broadcast(0)));
            }
            Intrinsic::DiscardIf | Intrinsic::TerminateIf => {
                self.uses_discard = true;
                let c = self.operand(ii.srcs[0], [0; 4])?;
                let mut k = Instr::new(Opcode::Texkill, Shape::Broadcast(4));
                k.cond = Cond::Nz;
                k.ty = self.bool_type();
                k.src[0] = Some(c);
                self.p.push(k);
            }
            Intrinsic::LoadFrontFace => {
                // The rasterizer leaves 1.0 (front) or 0.0 in i0; Mesa's NIR already
                // compares it with zero, so the load is just that register.
                let def = ii
                    .def
                    .ok_or_else(|| CompileError::Invalid("load without def".into()))?;
                self.bind[def.0 as usize] = Some(Binding::Src {
                    kind: OperandKind::Internal(0),
                    swz: [0; 4],
                    neg: false,
                    abs: false,
                });
            }
            Intrinsic::LoadUbo => self.load_ubo(ii)?,
            other => return unsupported(format!("intrinsic {}", other.name())),
        }
        Ok(())
    }

    /// A load from a uniform buffer, as Mesa emits it on HALTI2+ cores: LOAD.u32 reads
    /// consecutive words from the byte address `src0.x + src1.x` into the enabled
    /// components, src0 being the offset and src1 a uniform the driver fills with the
    /// buffer's address. The words land in the destination's components in order, which the
    /// register classes' ascending component sets preserve.
    fn load_ubo(&mut self, ii: &IntrinsicInstr) -> R<()> {
        if !self.specs.has_halti2_instructions() {
            return unsupported(format!(
                "UBO loads on {}, which has no LOAD",
                self.specs.name
            ));
        }
        let index = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
            Some(i) => i,
            None => return unsupported("UBO loads from a non-constant buffer index"),
        };
        let offset = ii
            .srcs
            .get(1)
            .ok_or_else(|| CompileError::Invalid("load_ubo without an offset".into()))?;
        let def = ii
            .def
            .ok_or_else(|| CompileError::Invalid("load without def".into()))?;
        let off = self.operand(*offset, [0; 4])?;
        let slot = self.uniforms.ubo_address(index);
        let d = self.new_def(def)?;
        let n = self.p.values[d.index()].width;
        let addr = Operand {
            kind: OperandKind::Uniform(slot),
            swz: [0; 4],
            neg: false,
            abs: false,
        };
        self.emit(
            Opcode::Load,
            DataType::U32,
            Cond::True,
            (d, (1 << n) - 1),
            [Some(off), Some(addr), None],
            Shape::Broadcast(1),
        );
        Ok(())
    }

    /// `u[base + offset]`: the offset goes to the address register (MOVAR floors a float
    /// offset on cores without integers, MOVAI takes an integer), and a MOV reads the slot
    /// relative to it right away, before anything else can change `a.x`.
    fn indirect_uniform(&mut self, ii: &IntrinsicInstr, base: u32, def: SsaId) -> R<()> {
        let range = ii.int_index(IndexKind::Range).unwrap_or(1).max(1) as u32;
        for k in 0..range.min(1024) {
            self.uniforms.note_user(base + k);
        }
        let off = self.operand(ii.srcs[0], [0; 4])?;
        let mut mova = Instr::new(
            if self.int_bools {
                Opcode::Movai
            } else {
                Opcode::Movar
            },
            Shape::Broadcast(1),
        );
        mova.ty = if self.int_bools {
            DataType::S32
        } else {
            DataType::F32
        };
        mova.addr_mask = 1;
        mova.src[2] = Some(off);
        self.p.push(mova);
        let v = self.new_def(def)?;
        let n = self.p.values[v.index()].width;
        let src = Operand {
            kind: OperandKind::UniformRel(base),
            swz: [0, 1, 2, 3].map(|c: u8| c.min(n - 1)),
            neg: false,
            abs: false,
        };
        self.mov((v, (1 << n) - 1), src);
        Ok(())
    }

    fn input(&mut self, slot: u32, integer: bool, comps: u8, ii: &IntrinsicInstr) -> R<ValueId> {
        if let Some(i) = self.inputs.iter_mut().find(|i| i.slot == slot) {
            i.comps = i.comps.max(comps);
            return Ok(i.value);
        }
        let reg = match self.stage {
            Stage::Fragment => slot + 1,
            _ => slot,
        };
        if reg >= self.specs.temp_count() {
            return Err(CompileError::Limit(format!(
                "input slot {slot} has no register"
            )));
        }
        let v = self.p.new_value(4, ValueKind::Input { reg: reg as u8 });
        let name = match ii.index(IndexKind::IoSemantics) {
            Some(IndexValue::Text(t)) => t.split_whitespace().next().unwrap_or("").to_string(),
            _ => String::new(),
        };
        self.inputs.push(InputInfo {
            slot,
            value: v,
            reg: reg as u8,
            comps,
            integer,
            name,
        });
        Ok(v)
    }

    fn store(&mut self, ii: &IntrinsicInstr) -> R<()> {
        let (var_name, idx) = match self.binding(ii.srcs[0])? {
            Binding::Deref(n, i) => (n.clone(), *i),
            _ => return unsupported("stores through non-variable derefs"),
        };
        let var = self
            .shader
            .variables
            .iter()
            .find(|v| v.name == var_name)
            .ok_or_else(|| {
                CompileError::Invalid(format!("variable `{var_name}` is not declared"))
            })?;
        if var.mode != VarMode::ShaderOut {
            return unsupported(format!("stores to {} variables", var.mode.name()));
        }
        let slot = var.driver_location + idx;
        let frac = var.location_frac() as u8;
        let val = ii.srcs[1];
        let width = self.def(val)?.num_components;
        let wrmask = ii.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u8 & ((1 << width) - 1);
        if frac as u32 + width as u32 > 4 {
            return unsupported("outputs crossing a vec4 slot");
        }
        if let Some(v) = self.coalescible_output(val, slot, frac, wrmask) {
            self.p.values[v.index()] = Value {
                width: 4,
                kind: ValueKind::Output,
            };
            self.outputs.push(OutputInfo {
                slot,
                value: v,
                comps: wrmask,
                name: var.location.split('.').next().unwrap_or("").to_string(),
            });
            return Ok(());
        }
        let out = match self.outputs.iter_mut().find(|o| o.slot == slot) {
            Some(o) => {
                o.comps |= wrmask << frac;
                o.value
            }
            None => {
                let v = self.p.new_value(4, ValueKind::Output);
                self.outputs.push(OutputInfo {
                    slot,
                    value: v,
                    comps: wrmask << frac,
                    name: var.location.split('.').next().unwrap_or("").to_string(),
                });
                v
            }
        };
        let comps = [0u8, 1, 2, 3].map(|c| c.saturating_sub(frac).min(width - 1));
        let op = self.operand(val, comps)?;
        if wrmask != 0 {
            self.mov((out, wrmask << frac), op);
        }
        Ok(())
    }

    fn tex(&mut self, t: &TexInstr) -> R<()> {
        let op = t.op.name();
        let opcode = match op {
            "tex" => Opcode::Texld,
            "txb" => Opcode::Texldb,
            "txl" => Opcode::Texldl,
            other => return unsupported(format!("texture op {other}")),
        };
        let mut coord = None;
        let mut lod = None;
        let mut comparator = None;
        for &(kind, id) in &t.srcs {
            match kind {
                TexSrc::COORD => coord = Some(id),
                TexSrc::BIAS | TexSrc::LOD => lod = Some(id),
                TexSrc::COMPARATOR if opcode == Opcode::Texld => comparator = Some(id),
                k => return unsupported(format!("texture source {}", k.name())),
            }
        }
        let coord = coord.ok_or_else(|| CompileError::Invalid("texture without coord".into()))?;
        let dims = self.def(coord)?.num_components;
        if !(1..=3).contains(&dims) {
            return unsupported(format!("{dims}-component texture coordinates"));
        }
        let cc = [0, 1.min(dims - 1), 2.min(dims - 1), dims - 1];
        let unit = t.texture_index.unwrap_or(0);
        let limits = self.specs.sampler_limits();
        let id = match self.stage {
            Stage::Vertex => {
                if unit >= limits.vertex_count {
                    return unsupported("vertex texture units beyond the core's");
                }
                unit + limits.vertex_offset
            }
            _ => {
                if unit >= limits.fragment_count {
                    return unsupported("fragment texture units beyond the core's");
                }
                unit
            }
        };
        match self.textures.iter().find(|b| b.0 == id) {
            Some(b) if b.1 != dims => {
                return unsupported("one sampler used with different coordinate widths")
            }
            Some(_) => {}
            None => self.textures.push((id, dims, unit)),
        }
        let dst = self.new_def(t.def)?;
        let mut i = Instr::new(opcode, Shape::Texture);
        if let Some(c) = comparator {
            i.src[2] = Some(self.operand(c, [0; 4])?);
        }
        i.sampler = id as u8;
        i.dst = Some((dst, 0xf));
        match lod {
            Some(l) if self.specs.tex_lod_bias_in_coord_w() => {
                let tmp = self.temp(4);
                let c = self.operand(coord, cc)?;
                self.mov((tmp, 0b0111), c);
                let l = self.operand(l, [0; 4])?;
                self.mov((tmp, 0b1000), l);
                i.src[0] = Some(Operand::value(tmp, [0, 1, 2, 3]));
            }
            Some(l) => {
                i.src[0] = Some(self.operand(coord, cc)?);
                i.src[1] = Some(self.operand(l, [0; 4])?);
            }
            None => i.src[0] = Some(self.operand(coord, cc)?),
        }
        self.p.push(i);
        Ok(())
    }

    fn alu(&mut self, a: &AluInstr) -> R<()> {
        use Opcode as O;
        let name = a.op.name();
        let n = self.def(a.def)?.num_components;
        let full = (1u8 << n) - 1;
        let s = |t: &Self, i: usize| -> R<Operand> {
            let src = a
                .srcs
                .get(i)
                .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {i}")))?;
            t.operand(src.ssa, aligned(&src.swizzle, n))
        };
        let int_op = matches!(
            a.op,
            AluOp::iadd
                | AluOp::isub
                | AluOp::imul
                | AluOp::iand
                | AluOp::ior
                | AluOp::ixor
                | AluOp::inot
                | AluOp::ineg
                | AluOp::ieq32
                | AluOp::ine32
                | AluOp::ilt32
                | AluOp::ige32
                | AluOp::ult32
                | AluOp::uge32
                | AluOp::flt32
                | AluOp::fge32
                | AluOp::feq32
                | AluOp::fneu32
                | AluOp::f2i32
                | AluOp::f2u32
                | AluOp::i2f32
                | AluOp::u2f32
                | AluOp::b2f32
                | AluOp::b2i32
                | AluOp::imax
                | AluOp::imin
                | AluOp::umax
                | AluOp::umin
                | AluOp::ishl
                | AluOp::ishr
                | AluOp::ushr
                | AluOp::b32csel
        );
        if matches!(a.op, AluOp::mov | AluOp::fneg | AluOp::fabs) && self.alias(a, n)? {
            return Ok(());
        }
        if int_op && !self.specs.has_integers() {
            return unsupported(format!("integer op {name} on {}", self.specs.name));
        }
        let f = DataType::F32;
        let t = Cond::True;
        let al = Shape::Aligned;
        let simple =
            |op: Opcode, ty: DataType, cond: Cond, slots: [Option<usize>; 3]| (op, ty, cond, slots);
        // Component-wise ops that map onto one instruction: (opcode, type, condition, which
        // NIR source feeds each hardware slot).
        let one = match a.op {
            AluOp::fmul => Some(simple(O::Mul, f, t, [Some(0), Some(1), None])),
            AluOp::fadd => Some(simple(O::Add, f, t, [Some(0), None, Some(1)])),
            AluOp::ffma => Some(simple(O::Mad, f, t, [Some(0), Some(1), Some(2)])),
            AluOp::mov => Some(simple(O::Mov, f, t, [None, None, Some(0)])),
            AluOp::fmax => Some(simple(O::Select, f, Cond::Lt, [Some(0), Some(1), Some(0)])),
            AluOp::fmin => Some(simple(O::Select, f, Cond::Gt, [Some(0), Some(1), Some(0)])),
            AluOp::imax => Some(simple(
                O::Select,
                DataType::S32,
                Cond::Lt,
                [Some(0), Some(1), Some(0)],
            )),
            AluOp::imin => Some(simple(
                O::Select,
                DataType::S32,
                Cond::Gt,
                [Some(0), Some(1), Some(0)],
            )),
            AluOp::umax => Some(simple(
                O::Select,
                DataType::U32,
                Cond::Lt,
                [Some(0), Some(1), Some(0)],
            )),
            AluOp::umin => Some(simple(
                O::Select,
                DataType::U32,
                Cond::Gt,
                [Some(0), Some(1), Some(0)],
            )),
            AluOp::slt => Some(simple(O::Set, f, Cond::Lt, [Some(0), Some(1), None])),
            AluOp::sge => Some(simple(O::Set, f, Cond::Ge, [Some(0), Some(1), None])),
            AluOp::seq => Some(simple(O::Set, f, Cond::Eq, [Some(0), Some(1), None])),
            AluOp::sne => Some(simple(O::Set, f, Cond::Ne, [Some(0), Some(1), None])),
            AluOp::fcsel => Some(simple(O::Select, f, Cond::Nz, [Some(0), Some(1), Some(2)])),
            AluOp::b32csel => Some(simple(
                O::Select,
                DataType::U32,
                Cond::Nz,
                [Some(0), Some(1), Some(2)],
            )),
            AluOp::ffract => Some(simple(O::Frc, f, t, [None, None, Some(0)])),
            AluOp::ffloor if self.specs.has_sign_floor_ceil() => {
                Some(simple(O::Floor, f, t, [None, None, Some(0)]))
            }
            AluOp::fceil if self.specs.has_sign_floor_ceil() => {
                Some(simple(O::Ceil, f, t, [None, None, Some(0)]))
            }
            AluOp::fsign if self.specs.has_sign_floor_ceil() => {
                Some(simple(O::Sign, f, t, [None, None, Some(0)]))
            }
            AluOp::fddx => Some(simple(O::Dsx, f, t, [Some(0), None, Some(0)])),
            AluOp::fddy => Some(simple(O::Dsy, f, t, [Some(0), None, Some(0)])),
            AluOp::iadd => Some(simple(O::Add, DataType::S32, t, [Some(0), None, Some(1)])),
            AluOp::imul => Some(simple(
                O::Imullo0,
                DataType::S32,
                t,
                [Some(0), Some(1), None],
            )),
            AluOp::iand => Some(simple(O::And, DataType::U32, t, [Some(0), None, Some(1)])),
            AluOp::ior => Some(simple(O::Or, DataType::U32, t, [Some(0), None, Some(1)])),
            AluOp::ixor => Some(simple(O::Xor, DataType::U32, t, [Some(0), None, Some(1)])),
            AluOp::inot => Some(simple(O::Not, DataType::U32, t, [None, None, Some(0)])),
            AluOp::ishl => Some(simple(
                O::Lshift,
                DataType::U32,
                t,
                [Some(0), None, Some(1)],
            )),
            AluOp::ishr => Some(simple(
                O::Rshift,
                DataType::S32,
                t,
                [Some(0), None, Some(1)],
            )),
            AluOp::ushr => Some(simple(
                O::Rshift,
                DataType::U32,
                t,
                [Some(0), None, Some(1)],
            )),
            AluOp::f2i32 => Some(simple(O::F2i, DataType::S32, t, [Some(0), None, None])),
            AluOp::f2u32 => Some(simple(O::F2i, DataType::U32, t, [Some(0), None, None])),
            AluOp::i2f32 => Some(simple(O::I2f, DataType::S32, t, [Some(0), None, None])),
            AluOp::u2f32 => Some(simple(O::I2f, DataType::U32, t, [Some(0), None, None])),
            _ => None,
        };
        if let Some((op, ty, cond, slots)) = one {
            let mut src = [None; 3];
            for (k, slot) in slots.iter().enumerate() {
                if let Some(i) = slot {
                    src[k] = Some(s(self, *i)?);
                }
            }
            let d = self.new_def(a.def)?;
            self.emit(op, ty, cond, (d, full), src, al);
            return Ok(());
        }
        let minus_one = Operand::splat(u32::MAX);
        match a.op {
            AluOp::fneg | AluOp::fabs | AluOp::fsat => {
                let mut x = s(self, 0)?;
                let d = self.new_def(a.def)?;
                match a.op {
                    AluOp::fneg => x = x.negated(),
                    AluOp::fabs => {
                        x.abs = true;
                        x.neg = false;
                    }
                    _ => {}
                }
                let mut i = Instr::new(O::Mov, al);
                i.sat = a.op == AluOp::fsat;
                i.dst = Some((d, full));
                i.src[2] = Some(x);
                self.p.push(i);
            }
            AluOp::ineg => {
                let x = s(self, 0)?.negated();
                let d = self.new_def(a.def)?;
                self.emit(
                    O::Add,
                    DataType::S32,
                    t,
                    (d, full),
                    [Some(Operand::splat(0)), None, Some(x)],
                    al,
                );
            }
            AluOp::isub => {
                let (x, y) = (s(self, 0)?, s(self, 1)?.negated());
                let d = self.new_def(a.def)?;
                self.emit(
                    O::Add,
                    DataType::S32,
                    t,
                    (d, full),
                    [Some(x), None, Some(y)],
                    al,
                );
            }
            AluOp::flt32
            | AluOp::fge32
            | AluOp::feq32
            | AluOp::fneu32
            | AluOp::ilt32
            | AluOp::ige32
            | AluOp::ieq32
            | AluOp::ine32
            | AluOp::ult32
            | AluOp::uge32 => {
                use AluOp::*;
                let cond = match a.op {
                    flt32 | ilt32 | ult32 => Cond::Lt,
                    fge32 | ige32 | uge32 => Cond::Ge,
                    feq32 | ieq32 => Cond::Eq,
                    _ => Cond::Ne,
                };
                let ty = match a.op {
                    flt32 | fge32 | feq32 | fneu32 => f,
                    ilt32 | ige32 | ieq32 | ine32 => DataType::S32,
                    _ => DataType::U32,
                };
                let (x, y) = (s(self, 0)?, s(self, 1)?);
                let d = self.new_def(a.def)?;
                self.emit(
                    O::Cmp,
                    ty,
                    cond,
                    (d, full),
                    [Some(x), Some(y), Some(minus_one)],
                    al,
                );
            }
            AluOp::b2f32 | AluOp::b2i32 => {
                let one = if a.op == AluOp::b2f32 { fbits(1.0) } else { 1 };
                let x = s(self, 0)?;
                let d = self.new_def(a.def)?;
                self.emit(
                    O::And,
                    DataType::U32,
                    t,
                    (d, full),
                    [Some(x), None, Some(Operand::splat(one))],
                    al,
                );
            }
            AluOp::ffloor | AluOp::fceil => {
                // floor(x) = x - frc(x); ceil(x) = x + frc(-x).
                let x = s(self, 0)?;
                let tmp = self.temp(n);
                let fx = if a.op == AluOp::fceil { x.negated() } else { x };
                self.emit(O::Frc, f, t, (tmp, full), [None, None, Some(fx)], al);
                let d = self.new_def(a.def)?;
                let mut tv = Operand::value(tmp, [0, 1, 2, 3]);
                if a.op == AluOp::ffloor {
                    tv = tv.negated();
                }
                self.emit(O::Add, f, t, (d, full), [Some(x), None, Some(tv)], al);
            }
            AluOp::fsign => {
                let x = s(self, 0)?;
                let zero = Operand::splat(0);
                let (p, m) = (self.temp(n), self.temp(n));
                self.emit(
                    O::Set,
                    f,
                    Cond::Gt,
                    (p, full),
                    [Some(x), Some(zero), None],
                    al,
                );
                self.emit(
                    O::Set,
                    f,
                    Cond::Lt,
                    (m, full),
                    [Some(x), Some(zero), None],
                    al,
                );
                let d = self.new_def(a.def)?;
                let pv = Operand::value(p, [0, 1, 2, 3]);
                let mv = Operand::value(m, [0, 1, 2, 3]).negated();
                self.emit(O::Add, f, t, (d, full), [Some(pv), None, Some(mv)], al);
            }
            AluOp::fdot2 | AluOp::fdot3 | AluOp::fdot4 => {
                let k = a.op.info().input_sizes[0];
                let src = |t: &Self, i: usize| -> R<Operand> {
                    let sw = a.srcs[i].swizzle;
                    t.operand(a.srcs[i].ssa, [sw[0], sw[1], sw[2], sw[3]])
                };
                let (x, y) = (src(self, 0)?, src(self, 1)?);
                if k == 2 && !self.specs.has_halti2_instructions() {
                    let tmp = self.temp(1);
                    let (x0, y0) = (x.remap([0; 4]), y.remap([0; 4]));
                    let (x1, y1) = (x.remap([1; 4]), y.remap([1; 4]));
                    self.emit(O::Mul, f, t, (tmp, 1), [Some(x0), Some(y0), None], al);
                    let d = self.new_def(a.def)?;
                    let tv = Operand::value(tmp, [0; 4]);
                    self.emit(O::Mad, f, t, (d, full), [Some(x1), Some(y1), Some(tv)], al);
                } else {
                    let op = match k {
                        2 => O::Dp2,
                        3 => O::Dp3,
                        _ => O::Dp4,
                    };
                    let d = self.new_def(a.def)?;
                    self.emit(
                        op,
                        f,
                        t,
                        (d, full),
                        [Some(x), Some(y), None],
                        Shape::Broadcast(k),
                    );
                }
            }
            AluOp::vec2 | AluOp::vec3 | AluOp::vec4 => {
                let d = self.new_def(a.def)?;
                let mut done = 0u8;
                for c in 0..n as usize {
                    if done & (1 << c) != 0 {
                        continue;
                    }
                    let ssa = a.srcs[c].ssa;
                    let mut mask = 0u8;
                    let mut comps = [a.srcs[c].swizzle[0]; 4];
                    for (k, src) in a.srcs.iter().enumerate().take(n as usize) {
                        if src.ssa == ssa {
                            mask |= 1 << k;
                            comps[k] = src.swizzle[0];
                        }
                    }
                    done |= mask;
                    if self.write_into(ssa, d, mask, comps) {
                        continue;
                    }
                    let op = self.operand(ssa, comps)?;
                    self.mov((d, mask), op);
                }
            }
            AluOp::frcp
            | AluOp::frsq
            | AluOp::fexp2
            | AluOp::flog2
            | AluOp::fsqrt
            | AluOp::fsin
            | AluOp::fcos
            | AluOp::fpow
            | AluOp::fdiv => self.scalar_op(a, n)?,
            _ => return unsupported(format!("ALU op {name}")),
        }
        Ok(())
    }

    /// Binds a `mov`, `fneg` or `fabs` to its source with the swizzle and modifier composed,
    /// when the source is not a phi variable (whose later reassignment would change what
    /// the alias reads). Returns whether it did.
    fn alias(&mut self, a: &AluInstr, n: u8) -> R<bool> {
        let src = &a.srcs[0];
        let comps = aligned(&src.swizzle, n);
        let b = match self.binding(src.ssa)?.clone() {
            Binding::Const(vals) => {
                let mut out: Vec<u32> = comps[..n as usize]
                    .iter()
                    .map(|&c| vals.get(c as usize).copied().unwrap_or(0))
                    .collect();
                for v in &mut out {
                    match a.op {
                        AluOp::fneg => *v ^= 0x8000_0000,
                        AluOp::fabs => *v &= 0x7fff_ffff,
                        _ => {}
                    }
                }
                Binding::Const(out)
            }
            Binding::Src {
                kind,
                swz,
                mut neg,
                mut abs,
            } => {
                if let OperandKind::Value(v) = kind {
                    if self.phi_values.contains(&v) {
                        return Ok(false);
                    }
                }
                match a.op {
                    AluOp::fneg => neg = !neg,
                    AluOp::fabs => {
                        abs = true;
                        neg = false;
                    }
                    _ => {}
                }
                Binding::Src {
                    kind,
                    swz: comps.map(|c| swz[c as usize & 3]),
                    neg,
                    abs,
                }
            }
            Binding::Deref(..) => return Ok(false),
        };
        self.bind[a.def.0 as usize] = Some(b);
        Ok(true)
    }

    /// Makes the instructions that compute `src` write straight into the components `mask`
    /// of `d` (channel `k` of the vector reading `src.comps[k]`), instead of a MOV per
    /// source, when `src` is an ordinary value used only here, computed in the current
    /// straight-line stretch, each of its components going to exactly one channel.
    fn write_into(&mut self, src: SsaId, d: ValueId, mask: u8, comps: [u8; 4]) -> bool {
        let Some(Some(Binding::Src {
            kind: OperandKind::Value(v),
            swz: [0, 1, 2, 3],
            neg: false,
            abs: false,
        })) = self.bind.get(src.0 as usize).cloned()
        else {
            return false;
        };
        let width = self.p.values[v.index()].width;
        if self.uses.get(src.0 as usize) != Some(&1)
            || self.phi_values.contains(&v)
            || self.p.values[v.index()].kind != ValueKind::Temp
        {
            return false;
        }
        // map[j]: the vector channel value component j goes to.
        let mut map = [None::<usize>; 4];
        for k in (0..4).filter(|k| mask & (1 << k) != 0) {
            let j = comps[k] as usize;
            if j >= width as usize || map[j].is_some() {
                return false;
            }
            map[j] = Some(k);
        }
        if map[..width as usize].iter().any(|m| m.is_none()) {
            return false;
        }
        // The definitions must all follow the last label or branch.
        let tail_start = self
            .p
            .items
            .iter()
            .rposition(|it| match it {
                Item::Label(_) => true,
                Item::Instr(i) => i.target.is_some() || i.op == Opcode::Texkill,
            })
            .map_or(0, |i| i + 1);
        let defines = |it: &Item| matches!(it, Item::Instr(i) if i.dst.is_some_and(|x| x.0 == v));
        let reads = |it: &Item| matches!(it, Item::Instr(i) if i.src.iter().flatten().any(|o| o.kind == OperandKind::Value(v)));
        if self.p.items[..tail_start]
            .iter()
            .any(|it| defines(it) || reads(it))
            || self.p.items[tail_start..].iter().any(|it| {
                reads(it)
                    || matches!(it, Item::Instr(i) if defines(it)
                        && (i.shape == Shape::Texture || i.op == Opcode::Load))
            })
        {
            return false;
        }
        for it in &mut self.p.items[tail_start..] {
            let Item::Instr(ins) = it else { continue };
            let Some((dv, m)) = ins.dst else { continue };
            if dv != v {
                continue;
            }
            let mut nm = 0u8;
            for j in (0..4).filter(|j| m & (1 << j) != 0) {
                if let Some(k) = map[j] {
                    nm |= 1 << k;
                }
            }
            if ins.shape == Shape::Aligned {
                for op in ins.src.iter_mut().flatten() {
                    let old = *op;
                    let first = (0..4).find(|j| m & (1 << j) != 0).unwrap_or(0);
                    for c in 0..4 {
                        // Channel c of the vector takes what value channel j read.
                        let j = (0..4)
                            .find(|&j| m & (1 << j) != 0 && map[j] == Some(c))
                            .unwrap_or(first);
                        op.swz[c] = old.swz[j];
                        if let (OperandKind::Const(nv), OperandKind::Const(ov)) =
                            (&mut op.kind, old.kind)
                        {
                            nv[c] = ov[j];
                        }
                    }
                }
            }
            ins.dst = Some((d, nm));
        }
        true
    }

    /// The `.x`-only ops, one instruction (or short sequence) per component.
    fn scalar_op(&mut self, a: &AluInstr, n: u8) -> R<()> {
        use Opcode as O;
        let name = a.op.name();
        if dialect::is_two_part(self.specs, self.imp, a) {
            return self.two_part_def(a);
        }
        // Sine and cosine arguments Mesa already scaled to the hardware's unit.
        let prescaled = matches!(a.op, AluOp::fsin | AluOp::fcos)
            && dialect::prescaled_operand(self.specs, self.imp, &a.srcs[0], n as usize).is_some();
        let d = self.new_def(a.def)?;
        let f = DataType::F32;
        for j in 0..n {
            let src = |t: &Self, i: usize| -> R<Operand> {
                t.operand(a.srcs[i].ssa, [a.srcs[i].swizzle[j as usize]; 4])
            };
            let x = src(self, 0)?;
            let dst = (d, 1u8 << j);
            match a.op {
                AluOp::frcp => self.unary(O::Rcp, dst, x),
                AluOp::frsq => self.unary(O::Rsq, dst, x),
                AluOp::fexp2 => self.unary(O::Exp, dst, x),
                AluOp::fsqrt if self.specs.has_sin_cos_sqrt() => self.unary(O::Sqrt, dst, x),
                AluOp::fsqrt => {
                    let tmp = self.temp(1);
                    self.unary(O::Rsq, (tmp, 1), x);
                    self.unary(O::Rcp, dst, Operand::value(tmp, [0; 4]));
                }
                AluOp::flog2 => self.two_part(O::Log, dst, x),
                AluOp::fsin | AluOp::fcos => {
                    if !self.specs.has_sin_cos_sqrt() {
                        return unsupported(format!("{name} on a core without SIN/COS"));
                    }
                    let op = if a.op == AluOp::fsin { O::Sin } else { O::Cos };
                    if prescaled {
                        self.two_part(op, dst, x);
                        continue;
                    }
                    let tmp = self.temp(1);
                    self.emit(
                        O::Mul,
                        f,
                        Cond::True,
                        (tmp, 1),
                        [
                            Some(x),
                            Some(Operand::splat(dialect::trig_prescale(self.specs))),
                            None,
                        ],
                        Shape::Aligned,
                    );
                    self.two_part(op, dst, Operand::value(tmp, [0; 4]));
                }
                AluOp::fpow => {
                    let y = src(self, 1)?;
                    let l = self.temp(1);
                    self.two_part(O::Log, (l, 1), x);
                    let m = self.temp(1);
                    self.emit(
                        O::Mul,
                        f,
                        Cond::True,
                        (m, 1),
                        [Some(Operand::value(l, [0; 4])), Some(y), None],
                        Shape::Aligned,
                    );
                    self.unary(O::Exp, dst, Operand::value(m, [0; 4]));
                }
                AluOp::fdiv => {
                    let y = src(self, 1)?;
                    let r = self.temp(1);
                    self.unary(O::Rcp, (r, 1), y);
                    self.emit(
                        O::Mul,
                        f,
                        Cond::True,
                        dst,
                        [Some(x), Some(Operand::value(r, [0; 4])), None],
                        Shape::Aligned,
                    );
                }
                _ => return unsupported(format!("ALU op {name}")),
            }
        }
        Ok(())
    }

    /// A two-part `flog2`/`fsin`/`fcos` of Mesa's lowering (see [`dialect`]): the bare
    /// hardware instruction writing mantissa and power of two to a contiguous pair, which the
    /// NIR's own `fmul %t.x, %t.y` then combines.
    fn two_part_def(&mut self, a: &AluInstr) -> R<()> {
        use Opcode as O;
        let src = &a.srcs[0];
        let mut x = self.operand(src.ssa, [src.swizzle[0]; 4])?;
        if matches!(a.op, AluOp::fsin | AluOp::fcos)
            && dialect::prescaled_operand(self.specs, self.imp, src, 2).is_none()
        {
            let tmp = self.temp(1);
            self.emit(
                O::Mul,
                DataType::F32,
                Cond::True,
                (tmp, 1),
                [
                    Some(x),
                    Some(Operand::splat(dialect::trig_prescale(self.specs))),
                    None,
                ],
                Shape::Aligned,
            );
            x = Operand::value(tmp, [0; 4]);
        }
        let op = match a.op {
            AluOp::flog2 => O::Log,
            AluOp::fsin => O::Sin,
            _ => O::Cos,
        };
        let pair = self.p.new_value(2, ValueKind::Pair);
        self.bind[a.def.0 as usize] = Some(Binding::value(pair, 0));
        self.unary(op, (pair, 0b11), x);
        Ok(())
    }

    fn unary(&mut self, op: Opcode, dst: (ValueId, u8), x: Operand) {
        self.emit(
            op,
            DataType::F32,
            Cond::True,
            dst,
            [None, None, Some(x)],
            Shape::Broadcast(1),
        );
    }

    /// LOG/SIN/COS: on fast-transcendental cores the result comes as a mantissa and a power
    /// of two in a contiguous pair, multiplied together afterwards.
    fn two_part(&mut self, op: Opcode, dst: (ValueId, u8), x: Operand) {
        if !self.specs.has_new_transcendentals() {
            self.unary(op, dst, x);
            return;
        }
        let pair = self.p.new_value(2, ValueKind::Pair);
        self.unary(op, (pair, 0b11), x);
        let m = Operand::value(pair, [0; 4]);
        let e = Operand::value(pair, [1; 4]);
        self.emit(
            Opcode::Mul,
            DataType::F32,
            Cond::True,
            dst,
            [Some(m), Some(e), None],
            Shape::Aligned,
        );
    }
}
