//! NIR to the backend IR, with the target lowering done on the way.
//!
//! The corpus NIR arrives as Mesa's etnaviv driver hands it over: vec4-shaped SSA with phis,
//! structured control flow, `load_uniform`/`load_input`/`store_deref` I/O. What the core lacks
//! is lowered here, driven by [`Specs`]: the ops the hardware computes only on `.x` are
//! scalarized, fast-transcendental cores get their two-part results recombined, `fdiv`/`fpow`
//! become RCP/LOG/EXP sequences, bias/LOD move into `coord.w` where the core wants them, and
//! booleans are 1.0/0.0 floats or 0/~0 integers depending on whether the core has integers.
//! Phis become copies at the end of each predecessor, so allocation sees ordinary values.
//!
//! One translator, `Tr`, walks the NIR once; its methods are spread over files by
//! instruction family so that each family's lowering can be read (and changed) alone:
//!
//! - this file: the translator's state, [`lower`], the helpers every family uses (operands,
//!   new values, `Tr::emit`), and control flow: blocks, `if`, loops, `break`/`continue`
//!   and the phi copies at block ends;
//! - `alu.rs`: ALU ops, those that are one instruction and the short vector sequences (compares,
//!   floor/ceil/sign without the instructions, dot products, `vecN`);
//! - `scalar.rs`: the ops the hardware computes on `.x` only (RCP, RSQ, EXP, LOG, SIN, COS,
//!   SQRT and the `fdiv`/`fpow` sequences), one component at a time, and the two-part
//!   results of the fast-transcendental cores;
//! - `source_mods.rs`: `mov`/`fneg`/`fabs` as aliases of their source, folded into the
//!   negate and absolute-value modifiers of the float sources that read them, and computed
//!   by a MOV only for the sources that cannot carry modifiers;
//! - `coalesce.rs`: `vecN` sources computed straight into the vector;
//! - `io.rs`: intrinsics: inputs, output stores through derefs, uniforms (direct, indirect
//!   and UBO loads), the fragment payload (position, front face) and discards;
//! - `texture.rs`: texture sampling.

use std::collections::HashMap;

use super::consts::Uniforms;
use super::ir::*;
use super::CompileError;
use crate::etnaviv::isa::{carries_float_modifiers, Cond, DataType, Opcode};
use crate::etnaviv::specs::Specs;
use crate::nir::ir::{
    AluSrc, BlockId, CfNode, Def, DerefKind, IfNode, Impl, InstrKind, JumpKind, LoopNode, Shader,
    SsaId,
};
use crate::nir::opcodes::{IndexKind, Intrinsic};
use crate::nir::types::Stage;

mod alu;
mod coalesce;
mod io;
mod scalar;
mod source_mods;
mod texture;

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
    /// Vertex: the input register holding the vertex id (x) and instance id (y), when the
    /// shader reads one (Mesa's `vs_id_in_reg`).
    pub vs_id_reg: Option<u8>,
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
    /// Phi variables (reassigned by the copies at their predecessors' ends).
    phi_values: Vec<ValueId>,
    /// (continue target, break target) of the enclosing loops.
    loops: Vec<(Label, Label)>,
    uses_discard: bool,
    textures: Vec<(u32, u8, u32)>,
    /// Booleans are integers 0/~0 (cores with integers) rather than floats 1.0/0.0.
    int_bools: bool,
    /// The vertex-id register, once a vertex or instance id is read.
    vs_id_reg: Option<u8>,
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
        uniforms: Uniforms::new(user_uniform_slots(specs, shader, imp)?),
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
        vs_id_reg: None,
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
        vs_id_reg: t.vs_id_reg,
    })
}

/// The uniform slots that belong to the application. Normally the header's count; when the
/// shader reads the default uniform block through UBO loads (Mesa leaves the indirectly
/// indexed arrays there on HALTI2+ cores), the slots up to the last one its `load_uniform`s
/// name: the arrays past them stay in memory and take no register. Every application slot
/// is reserved before translation places anything else (a UBO address, constants), because
/// an application slot must sit at its own index: reserving them as the loads came let a
/// later `load_uniform` of slot 1 overwrite the UBO address already placed there (found by
/// piglit's fs-uniform-array tests on a simulated GC7000L through Mesa's etnaviv).
/// A header asking for more slots than the stage's uniform file holds is a limit of the
/// core (checked here, before a file of that size is built).
fn user_uniform_slots(specs: &Specs, shader: &Shader, imp: &Impl) -> R<u32> {
    let reads_ubo = imp.instrs.iter().any(
        |ins| matches!(&ins.kind, InstrKind::Intrinsic(ii) if ii.intrinsic == Intrinsic::LoadUbo),
    );
    if reads_ubo {
        let end = imp
            .instrs
            .iter()
            .filter_map(|ins| match &ins.kind {
                InstrKind::Intrinsic(ii) if ii.intrinsic == Intrinsic::LoadUniform => {
                    let base = ii.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
                    let range = ii.int_index(IndexKind::Range).unwrap_or(1).max(1) as u32;
                    Some(base.saturating_add(range))
                }
                _ => None,
            })
            .max()
            .unwrap_or(0);
        return Ok(end);
    }
    let n = shader.info.num_uniforms;
    let max = specs
        .uniform_limits()
        .max_for(shader.stage() == Stage::Fragment);
    if n > max {
        return Err(CompileError::Limit(format!(
            "{n} uniform slots exceed the {max} {} allows",
            specs.name
        )));
    }
    Ok(n)
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
            crate::util::stack::grow(|| {
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
            })
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
            // Cells to place carry their components themselves.
            Binding::Src {
                kind: OperandKind::Const(cells),
                swz,
                neg,
                abs,
            } => Operand {
                kind: OperandKind::Const(comps.map(|c| cells[swz[c as usize & 3] as usize & 3])),
                swz: [0, 1, 2, 3],
                neg: *neg,
                abs: *abs,
            },
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

    /// Emits `op` writing `dst.mask` with the given sources, each carrying its modifiers
    /// where `op` reads floats and computed without them first otherwise (see
    /// [`source_mods`]).
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
        if !carries_float_modifiers(op, ty) {
            // Float modifiers folded from fneg/fabs go through a MOV first.
            for s in src.iter_mut().flatten() {
                *s = self.plain(*s);
            }
        }
        self.push_instr(op, ty, cond, dst, src, shape);
    }

    /// Pushes `op` exactly as given: its sources' modifiers are meant for it (the integer
    /// negation of `ineg`, say), where [`Tr::emit`] would first compute float modifiers
    /// that `op` cannot carry.
    fn push_instr(
        &mut self,
        op: Opcode,
        ty: DataType,
        cond: Cond,
        dst: (ValueId, u8),
        src: [Option<Operand>; 3],
        shape: Shape,
    ) {
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
        crate::util::stack::grow(|| {
            for n in nodes {
                match n {
                    CfNode::Block(b) => self.block(*b)?,
                    CfNode::If(i) => self.if_node(i)?,
                    CfNode::Loop(l) => self.loop_node(l)?,
                }
            }
            Ok(())
        })
    }

    fn if_node(&mut self, node: &IfNode) -> R<()> {
        let cond = self.operand(node.condition, [0; 4])?;
        let cond = self.plain(cond);
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

    /// A loop: the body, then the continue construct when there is one (NIR before
    /// `nir_lower_continue_constructs`), then a jump back to the head. `continue` goes to the
    /// continue construct, which the body's end falls into; `break` to the exit.
    fn loop_node(&mut self, node: &LoopNode) -> R<()> {
        let head = self.p.new_label();
        let exit = self.p.new_label();
        let cont = if node.continue_body.is_empty() {
            head
        } else {
            self.p.new_label()
        };
        self.p.loops += 1;
        self.p.place(head);
        self.loops.push((cont, exit));
        self.list(&node.body)?;
        if cont != head {
            self.p.place(cont);
            self.list(&node.continue_body)?;
        }
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
                let (cont, exit) = match self.loops.last() {
                    Some(&l) => l,
                    None => return unsupported(format!("`{}` outside a loop", j.name())),
                };
                match j {
                    JumpKind::Break => self.jump(exit),
                    JumpKind::Continue => self.jump(cont),
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
            if self.phi_computed_in_place(dst, src, &copies) {
                continue;
            }
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
            // A copy of the variable onto itself is nothing, unless it carries a folded
            // modifier (`p = -p` on a loop's back edge).
            let same = op.kind == OperandKind::Value(dst) && op.swz == [0, 1, 2, 3];
            if same && !op.neg && !op.abs {
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
}
