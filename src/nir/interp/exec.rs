//! The lockstep executor: all invocations walk the structured control flow together under an
//! execution mask, the way a SIMD machine does.
//!
//! Why lockstep rather than one invocation at a time: derivatives read the other lanes of a
//! 2×2 quad at the same instruction, and barriers need every invocation of the workgroup to
//! arrive. Structured control flow makes the masks simple: an `if` splits the mask, a loop
//! repeats while any lane is still inside, `break`/`continue` park lanes until the loop's exit
//! or next iteration. Each lane remembers the last block it ran, which selects its phi sources.
//!
//! Derivatives in divergent control flow read whatever the partner lane last computed for
//! that value (zero if never): undefined in GLSL, deterministic here.

use super::alu::{self, Comps, DenormMode};
use super::env::{generated_input, pixel, Environment, InvocationResult, OutputSlot, RunResult};
use super::sampler::TexRequest;
use super::value::{bool_bits, from_f64, mask, sext, to_f64};
use super::InterpError;
use crate::nir::ir::*;
use crate::nir::opcodes::{AluOp, IndexKind, Intrinsic};
use crate::nir::types::BaseType;
use std::collections::HashMap;

/// Where a jump sends lanes: collected per loop level.
#[derive(Default)]
struct LoopExits {
    brk: Vec<bool>,
    cont: Vec<bool>,
}

struct RegInfo {
    off: usize,
    comps: usize,
    elems: usize,
}

pub(super) struct Machine<'a> {
    shader: &'a Shader,
    imp: &'a Impl,
    env: &'a Environment,
    n: usize,
    offs: Vec<usize>,
    stride: usize,
    vals: Vec<u64>,
    regs: HashMap<u32, RegInfo>,
    reg_stride: usize,
    reg_vals: Vec<u64>,
    temps: HashMap<String, Vec<Vec<u64>>>,
    prev: Vec<BlockId>,
    results: Vec<InvocationResult>,
    /// The patch URB entry of a tessellation-control run (`Environment::tess_ctrl`).
    patch: std::collections::BTreeMap<u32, OutputSlot>,
    scratch: Vec<Vec<u8>>,
    ssbos: Vec<Vec<u8>>,
    shared: Vec<u8>,
    steps: u64,
    cur: Option<InstrId>,
    /// The shader's denormal handling, from its float controls.
    denorms: DenormMode,
}

type R<T> = Result<T, InterpError>;

impl<'a> Machine<'a> {
    pub(super) fn new(shader: &'a Shader, env: &'a Environment, n: usize) -> R<Machine<'a>> {
        let imp = shader
            .entry()
            .ok_or_else(|| InterpError::new("the shader has no function body"))?;
        let mut offs = Vec::with_capacity(imp.defs.len());
        let mut stride = 0;
        for d in &imp.defs {
            offs.push(stride);
            stride += d.map_or(0, |d| d.num_components as usize);
        }
        let mut regs = HashMap::new();
        let mut reg_stride = 0;
        for ins in &imp.instrs {
            if let InstrKind::Intrinsic(ii) = &ins.kind {
                if ii.intrinsic == Intrinsic::DeclReg {
                    if let Some(d) = ii.def {
                        let comps = ii.int_index(IndexKind::NumComponents).unwrap_or(1).max(1);
                        let elems = ii.int_index(IndexKind::NumArrayElems).unwrap_or(0).max(1);
                        let info = RegInfo {
                            off: reg_stride,
                            comps: comps.min(16) as usize,
                            elems: elems.min(1 << 16) as usize,
                        };
                        reg_stride += info.comps * info.elems;
                        regs.insert(d.0, info);
                    }
                }
            }
        }
        let scratch_size = (shader.info.scratch_size as usize).max(64);
        let denorms = DenormMode::of_shader(&shader.info).map_err(InterpError::new)?;
        Ok(Machine {
            shader,
            imp,
            env,
            n,
            offs,
            stride,
            vals: vec![0; stride * n],
            regs,
            reg_stride,
            reg_vals: vec![env.undefined_bits; reg_stride * n],
            temps: HashMap::new(),
            prev: vec![BlockId(0); n],
            results: vec![InvocationResult::default(); n],
            patch: Default::default(),
            scratch: vec![vec![0; scratch_size]; n],
            ssbos: env.ssbos.clone(),
            shared: env.shared.clone(),
            steps: 0,
            cur: None,
            denorms,
        })
    }

    pub(super) fn run(mut self) -> R<RunResult> {
        let mut mask = vec![true; self.n];
        if !self.env.dispatched.is_empty() {
            for (m, &on) in mask.iter_mut().zip(&self.env.dispatched) {
                *m = on;
            }
        }
        let imp = self.imp;
        self.list(&imp.body, &mut mask, None)?;
        Ok(RunResult {
            invocations: self.results,
            ssbos: self.ssbos,
            shared: self.shared,
            steps: self.steps,
            patch: self.patch,
        })
    }

    fn err(&self, msg: impl Into<String>) -> InterpError {
        let mut e = InterpError::new(msg);
        if let Some(id) = self.cur {
            e.instr = Some(id);
            e.block = self.imp.instrs.get(id.0 as usize).map(|i| i.block);
        }
        e
    }

    /// An error meaning the shader is undefined on this input (see [`InterpError::undefined`]).
    fn undefined(&self, msg: impl Into<String>) -> InterpError {
        InterpError {
            undefined: true,
            ..self.err(msg)
        }
    }

    // ---- control flow ----------------------------------------------------------------

    fn list(
        &mut self,
        list: &[CfNode],
        mask: &mut [bool],
        mut lp: Option<&mut LoopExits>,
    ) -> R<()> {
        crate::util::stack::grow(|| {
            for node in list {
                if !mask.iter().any(|&m| m) {
                    return Ok(());
                }
                match node {
                    CfNode::Block(b) => self.block(*b, mask, lp.as_deref_mut())?,
                    CfNode::If(f) => {
                        let cond = self.bools(f.condition, mask)?;
                        let mut then_mask: Vec<bool> =
                            mask.iter().zip(&cond).map(|(&m, &c)| m && c).collect();
                        let mut else_mask: Vec<bool> =
                            mask.iter().zip(&cond).map(|(&m, &c)| m && !c).collect();
                        self.list(&f.then_body, &mut then_mask, lp.as_deref_mut())?;
                        self.list(&f.else_body, &mut else_mask, lp.as_deref_mut())?;
                        for (i, m) in mask.iter_mut().enumerate() {
                            *m = then_mask[i] || else_mask[i];
                        }
                    }
                    CfNode::Loop(l) => {
                        let mut active = mask.to_vec();
                        let mut exited = vec![false; self.n];
                        while active.iter().any(|&m| m) {
                            self.tick()?;
                            let mut exits = LoopExits {
                                brk: vec![false; self.n],
                                cont: vec![false; self.n],
                            };
                            self.list(&l.body, &mut active, Some(&mut exits))?;
                            for i in 0..self.n {
                                active[i] |= exits.cont[i];
                                exited[i] |= exits.brk[i];
                            }
                            if !l.continue_body.is_empty() {
                                let mut exits2 = LoopExits {
                                    brk: vec![false; self.n],
                                    cont: vec![false; self.n],
                                };
                                self.list(&l.continue_body, &mut active, Some(&mut exits2))?;
                                for i in 0..self.n {
                                    active[i] |= exits2.cont[i];
                                    exited[i] |= exits2.brk[i];
                                }
                            }
                        }
                        mask.copy_from_slice(&exited);
                    }
                }
            }
            Ok(())
        })
    }

    /// A boolean system value in the bit size the shader reads it at (see
    /// [`Environment::float_booleans`]).
    fn sysval_bool(&self, b: bool, bits: u8) -> u64 {
        if self.env.float_booleans && bits == 32 {
            if b {
                u64::from(1.0f32.to_bits())
            } else {
                0
            }
        } else {
            bool_bits(b, bits)
        }
    }

    fn tick(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps > self.env.step_limit {
            return Err(InterpError {
                endless: true,
                ..self.err(format!(
                    "step limit of {} exceeded (infinite loop?)",
                    self.env.step_limit
                ))
            });
        }
        Ok(())
    }

    fn block(&mut self, b: BlockId, mask: &mut [bool], lp: Option<&mut LoopExits>) -> R<()> {
        let imp = self.imp;
        let block = imp
            .blocks
            .get(b.0 as usize)
            .ok_or_else(|| self.err(format!("block b{} does not exist", b.0)))?;
        // Phis read their sources in parallel, before any of them is written.
        let mut phi_writes = Vec::new();
        let mut first_other = 0;
        for (k, &id) in block.instrs.iter().enumerate() {
            let InstrKind::Phi(phi) = &imp.instrs[id.0 as usize].kind else {
                first_other = k;
                break;
            };
            first_other = k + 1;
            self.cur = Some(id);
            let nc = self.ncomp(phi.def)?;
            for lane in (0..self.n).filter(|&l| mask[l]) {
                let from = self.prev[lane];
                let Some(&(_, src)) = phi.srcs.iter().find(|(pb, _)| *pb == from) else {
                    return Err(self.err(format!(
                        "phi %{} has no source for predecessor b{}",
                        phi.def.0, from.0
                    )));
                };
                let v = self.get(src, lane)?;
                phi_writes.push((phi.def, lane, v, nc));
            }
        }
        for (def, lane, v, nc) in phi_writes {
            self.set(def, lane, &v[..nc]);
        }
        let mut jump = None;
        for &id in &block.instrs[first_other..] {
            self.cur = Some(id);
            self.tick()?;
            let instr = &imp.instrs[id.0 as usize];
            match &instr.kind {
                InstrKind::Jump(j) => jump = Some(*j),
                kind => self.instr(kind, mask)?,
            }
            if !mask.iter().any(|&m| m) {
                return Ok(());
            }
        }
        for (prev, &m) in self.prev.iter_mut().zip(mask.iter()) {
            if m {
                *prev = b;
            }
        }
        match jump {
            None => {}
            Some(JumpKind::Break) | Some(JumpKind::Continue) => {
                let Some(lp) = lp else {
                    return Err(self.err("break or continue outside a loop"));
                };
                let to = if jump == Some(JumpKind::Break) {
                    &mut lp.brk
                } else {
                    &mut lp.cont
                };
                for lane in 0..self.n {
                    if mask[lane] {
                        to[lane] = true;
                        mask[lane] = false;
                    }
                }
            }
            Some(JumpKind::Return) | Some(JumpKind::Halt) => {
                for (m, result) in mask.iter_mut().zip(self.results.iter_mut()) {
                    if *m {
                        *m = false;
                        if jump == Some(JumpKind::Halt) {
                            result.discarded = true;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    // ---- values ------------------------------------------------------------------------

    fn defn(&self, id: SsaId) -> R<Def> {
        self.imp
            .def(id)
            .copied()
            .ok_or_else(|| self.err(format!("%{} is not defined", id.0)))
    }

    fn ncomp(&self, id: SsaId) -> R<usize> {
        Ok(self.defn(id)?.num_components as usize)
    }

    fn get(&self, id: SsaId, lane: usize) -> R<Comps> {
        let d = self.defn(id)?;
        let base = lane * self.stride + self.offs[id.0 as usize];
        let mut out = [0u64; 16];
        let nc = d.num_components as usize;
        out[..nc].copy_from_slice(&self.vals[base..base + nc]);
        Ok(out)
    }

    fn set(&mut self, id: SsaId, lane: usize, v: &[u64]) {
        let Some(Some(d)) = self.imp.defs.get(id.0 as usize) else {
            return;
        };
        let nc = (d.num_components as usize).min(v.len());
        let base = lane * self.stride + self.offs[id.0 as usize];
        let m = mask(d.bit_size);
        for (dst, &src) in self.vals[base..base + nc].iter_mut().zip(v) {
            *dst = src & m;
        }
    }

    fn scalar(&self, id: SsaId, lane: usize) -> R<u64> {
        Ok(self.get(id, lane)?[0])
    }

    fn bools(&self, id: SsaId, mask: &[bool]) -> R<Vec<bool>> {
        (0..self.n)
            .map(|l| Ok(mask[l] && self.scalar(id, l)? != 0))
            .collect()
    }

    fn lanes(&self, mask: &[bool]) -> Vec<usize> {
        (0..self.n).filter(|&l| mask[l]).collect()
    }

    // ---- instructions --------------------------------------------------------------

    fn instr(&mut self, kind: &InstrKind, mask: &mut [bool]) -> R<()> {
        match kind {
            InstrKind::Alu(a) => self.alu(a, mask),
            InstrKind::LoadConst(c) => {
                for lane in self.lanes(mask) {
                    self.set(c.def, lane, &c.values);
                }
                Ok(())
            }
            InstrKind::Undef(d) => {
                let bits = [self.env.undefined_bits; 16];
                for lane in self.lanes(mask) {
                    self.set(*d, lane, &bits);
                }
                Ok(())
            }
            // Derefs are resolved when a load or store uses them.
            InstrKind::Deref(_) => Ok(()),
            InstrKind::Intrinsic(ii) => self.intrinsic(ii, mask),
            InstrKind::Tex(t) => self.tex(t, mask),
            InstrKind::Phi(_) => Err(self.err("phi after a non-phi instruction")),
            InstrKind::Jump(_) => Ok(()),
        }
    }

    /// SSBO `block`, or the workgroup's shared memory, for writing.
    fn buffer_mut(&mut self, ssbo: bool, block: usize) -> R<&mut Vec<u8>> {
        if !ssbo {
            return Ok(&mut self.shared);
        }
        if block >= self.ssbos.len() {
            return Err(self.err(format!("SSBO {block} is not bound")));
        }
        Ok(&mut self.ssbos[block])
    }

    fn alu(&mut self, a: &AluInstr, mask: &[bool]) -> R<()> {
        let info = a.op.info();
        let d = self.defn(a.def)?;
        let nc = d.num_components as usize;
        let mut src_bits = [0u8; 16];
        for (i, s) in a.srcs.iter().enumerate().take(16) {
            src_bits[i] = self.defn(s.ssa)?.bit_size;
        }
        let ns = a.srcs.len().min(16);
        let deriv = derivative_axis(a.op).is_some();
        for lane in self.lanes(mask) {
            let mut srcs = [[0u64; 16]; 16];
            for (i, s) in a.srcs.iter().enumerate().take(16) {
                let v = self.get(s.ssa, lane)?;
                let width = match info.input_sizes.get(i) {
                    Some(&0) | None => nc,
                    Some(&n) => n as usize,
                };
                for c in 0..width.min(16) {
                    srcs[i][c] = v[(s.swizzle[c] & 15) as usize];
                }
            }
            let out = if deriv {
                self.derivative(a, lane, nc, d.bit_size)?
            } else {
                alu::eval_in(
                    self.denorms,
                    a.op,
                    nc,
                    d.bit_size,
                    &srcs[..ns],
                    &src_bits[..ns],
                )
                .map_err(|e| match e {
                    alu::AluError::NotBoolean { .. } => self.undefined(e.to_string()),
                    _ => self.err(e.to_string()),
                })?
            };
            let mut out = out;
            if is_division(a.op) && self.env.undefined_bits != 0 {
                // Integer division by zero is undefined in GLSL and NIR; the hardware returns
                // what its divider does. The result is the undefined value's bits, so the run
                // with other undefined bits shows what depends on it.
                let m = super::value::mask(d.bit_size);
                for (c, v) in out.iter_mut().enumerate().take(nc) {
                    if srcs[1][c] & m == 0 {
                        *v = self.env.undefined_bits & m;
                    }
                }
            }
            if let Some(err) = self.env.math_error {
                if d.bit_size == 32 && super::is_inexact(a.op) {
                    for (c, v) in out.iter_mut().enumerate().take(nc) {
                        let x = [0, 1, 2].map(|i| f32::from_bits(srcs[i][c] as u32));
                        let site = (u64::from(a.def.0) << 24) ^ ((lane as u64) << 4) ^ c as u64;
                        *v = u64::from(err.apply(a.op, *v as u32, x, site));
                    }
                }
            }
            self.set(a.def, lane, &out[..nc.max(info.output_size as usize)]);
        }
        Ok(())
    }

    /// `fddx`/`fddy` across the lane's quad: fine derivatives difference the lane's own row
    /// (column), coarse ones the quad's top-left pixel pair; the unsuffixed ops are fine.
    /// A float subtraction like any other: denormal operands and results flush.
    fn derivative(&self, a: &AluInstr, lane: usize, nc: usize, bits: u8) -> R<Comps> {
        let name = a.op.name();
        let coarse = matches!(a.op, AluOp::fddx_coarse | AluOp::fddy_coarse);
        let q = lane & !3;
        let (lo, hi) = match (derivative_axis(a.op) == Some(Axis::X), coarse) {
            (true, false) => (lane & !1, lane | 1),
            (true, true) => (q, q + 1),
            (false, false) => (lane & !2, lane | 2),
            (false, true) => (q, q + 2),
        };
        let s = a
            .srcs
            .first()
            .ok_or_else(|| self.err(format!("{name} needs a source")))?;
        let pick = |l: usize| -> R<Comps> { self.get(s.ssa, if l < self.n { l } else { lane }) };
        let (vlo, vhi) = (pick(lo)?, pick(hi)?);
        let mut out = [0u64; 16];
        for (o, &k) in out.iter_mut().zip(&s.swizzle).take(nc) {
            let k = (k & 15) as usize;
            let x = |v: u64| to_f64(self.denorms.apply(v, bits), bits);
            *o = self
                .denorms
                .apply(from_f64(x(vhi[k]) - x(vlo[k]), bits), bits);
        }
        Ok(out)
    }

    fn index(&self, ii: &IntrinsicInstr, kind: IndexKind) -> i64 {
        ii.int_index(kind).unwrap_or(0)
    }

    /// The slot `base + offset` an input or output intrinsic addresses in `lane`. The offset
    /// is a 32-bit NIR integer and signed: `nir_lower_io` leaves `index - k` with `k` folded
    /// into the base (base 19, offset -16 for element `index` of an array at slot 19 - 16), and
    /// brw adds the two in the URB message (global offset plus per-slot offset), so the slot
    /// is their sum. Slots are varying locations: a sum below 0 or past `u32` is an error
    /// naming them, not a wrap into some other slot.
    fn io_slot(&self, ii: &IntrinsicInstr, off_src: usize, lane: usize) -> R<u32> {
        let base = self.index(ii, IndexKind::Base);
        let off = self.scalar(self.src(ii, off_src)?, lane)? as u32 as i32;
        let slot = base
            .checked_add(i64::from(off))
            .and_then(|slot| u32::try_from(slot).ok());
        // A TCS checked on synthetic data may compute an offset out of range for a load
        // whose result it then does not use (both sides of a select hoisted): there the
        // 32-bit sum wraps, as the URB message's slot arithmetic does.
        if slot.is_none() && self.env.tess_ctrl && self.env.robust_access {
            if let Ok(b) = u32::try_from(base) {
                return Ok(b.wrapping_add(off as u32));
            }
        }
        slot.ok_or_else(|| {
            self.undefined(format!(
                "{} slot base {base} + offset {off} is out of range",
                ii.intrinsic.name()
            ))
        })
    }

    /// The `component` index of an input or output intrinsic: the first channel, 0-3, of
    /// its vec4 slot.
    fn io_component(&self, ii: &IntrinsicInstr) -> R<u32> {
        let c = self.index(ii, IndexKind::Component);
        u32::try_from(c).ok().filter(|&c| c < 4).ok_or_else(|| {
            self.err(format!(
                "{} component {c} (a slot has components 0-3)",
                ii.intrinsic.name()
            ))
        })
    }

    fn io_name(ii: &IntrinsicInstr) -> String {
        match ii.index(IndexKind::IoSemantics) {
            Some(IndexValue::Text(t)) => t
                .split("location=")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .unwrap_or("")
                .to_string(),
            _ => String::new(),
        }
    }

    fn src(&self, ii: &IntrinsicInstr, i: usize) -> R<SsaId> {
        ii.srcs
            .get(i)
            .copied()
            .ok_or_else(|| self.err(format!("{} is missing source {i}", ii.intrinsic.name())))
    }

    fn intrinsic(&mut self, ii: &IntrinsicInstr, mask: &mut [bool]) -> R<()> {
        let name = ii.intrinsic.name();
        let lanes = self.lanes(mask);
        let def = ii.def;
        let (nc, bits) = match def {
            Some(d) => {
                let d = self.defn(d)?;
                (d.num_components as usize, d.bit_size)
            }
            None => (ii.num_components as usize, 32),
        };
        let bytes = (bits as usize / 8).max(1);
        let intr = ii.intrinsic;
        match intr {
            Intrinsic::DeclReg => {}
            // Geometry shaders (gs.rs): per-vertex inputs, ids and emitted vertices.
            Intrinsic::LoadPerVertexInput if !self.env.geometry.is_empty() => {
                let comp = self.io_component(ii)?;
                for lane in lanes {
                    let vertex = self.scalar(self.src(ii, 0)?, lane)?;
                    let slot = self.io_slot(ii, 1, lane)?;
                    let mut v = [0u64; 16];
                    for (c, out) in v.iter_mut().enumerate().take(nc) {
                        *out = self.vertex_input(lane, vertex, slot, comp + c as u32)? as u64;
                    }
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::LoadPrimitiveId | Intrinsic::LoadInvocationId
                if !self.env.geometry.is_empty() =>
            {
                for lane in lanes {
                    let g = self.env.geometry.get(lane).ok_or_else(|| {
                        self.err(format!("no input primitive for invocation {lane}"))
                    })?;
                    let v = if intr == Intrinsic::LoadPrimitiveId {
                        g.primitive_id
                    } else {
                        g.invocation_id
                    };
                    self.set_def(def, lane, &[v as u64])?;
                }
            }
            Intrinsic::EmitVertexWithCounter
            | Intrinsic::EndPrimitiveWithCounter
            | Intrinsic::SetVertexAndPrimitiveCount => {
                let stream = self.index(ii, IndexKind::StreamId).max(0) as usize;
                for lane in lanes {
                    let first = self.scalar(self.src(ii, 0)?, lane)? as u32;
                    let second = match intr {
                        Intrinsic::SetVertexAndPrimitiveCount => {
                            self.scalar(self.src(ii, 1)?, lane)? as u32
                        }
                        _ => 0,
                    };
                    let result = &mut self.results[lane];
                    let done = match intr {
                        Intrinsic::EmitVertexWithCounter => {
                            result.geometry.emit(stream, first, &result.outputs)
                        }
                        Intrinsic::EndPrimitiveWithCounter => result.geometry.end_primitive(stream),
                        _ => result.geometry.set_counts(stream, first, second),
                    };
                    done.map_err(|e| self.err(e))?;
                }
            }
            Intrinsic::LoadReg | Intrinsic::LoadRegIndirect => {
                let reg = self.src(ii, 0)?;
                let base = self.index(ii, IndexKind::Base);
                let fabs = self.index(ii, IndexKind::LegacyFabs) != 0;
                let fneg = self.index(ii, IndexKind::LegacyFneg) != 0;
                for lane in lanes {
                    let idx =
                        base + self.indirect(ii, intr == Intrinsic::LoadRegIndirect, 1, lane)?;
                    let mut v = self.reg_read(reg, idx, lane)?;
                    for c in v.iter_mut().take(nc) {
                        if fabs {
                            *c &= !(1u64 << (bits - 1));
                        }
                        if fneg {
                            *c ^= 1u64 << (bits - 1);
                        }
                    }
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::StoreReg | Intrinsic::StoreRegIndirect => {
                let (val, reg) = (self.src(ii, 0)?, self.src(ii, 1)?);
                let base = self.index(ii, IndexKind::Base);
                let wrmask = ii.int_index(IndexKind::WriteMask).unwrap_or(0xffff) as u32;
                let fsat = self.index(ii, IndexKind::LegacyFsat) != 0;
                let vbits = self.defn(val)?.bit_size;
                for lane in lanes {
                    let idx =
                        base + self.indirect(ii, intr == Intrinsic::StoreRegIndirect, 2, lane)?;
                    let mut v = self.get(val, lane)?;
                    if fsat {
                        // A clamp on floats (the legacy fsat of a register store): flushes
                        // denormals as `fsat` itself does.
                        for c in v.iter_mut() {
                            let x = to_f64(self.denorms.apply(*c, vbits), vbits);
                            *c = from_f64(
                                super::alu::float::fmin(super::alu::float::fmax(x, 0.0), 1.0),
                                vbits,
                            );
                        }
                    }
                    self.reg_write(reg, idx, lane, &v, wrmask)?;
                }
            }
            // The Intel block loads read the same bytes as their plain forms; "uniform block"
            // only promises the backend that every invocation reads the same address.
            Intrinsic::LoadUbo | Intrinsic::LoadUboVec4 | Intrinsic::LoadUboUniformBlockIntel => {
                let unit = if intr == Intrinsic::LoadUboVec4 {
                    16
                } else {
                    1
                };
                for lane in lanes {
                    let block = self.scalar(self.src(ii, 0)?, lane)? as usize;
                    let off = self.scalar(self.src(ii, 1)?, lane)? as u32 as usize * unit
                        + self.index(ii, IndexKind::Base).max(0) as usize * unit;
                    let buf = self
                        .env
                        .ubos
                        .get(block)
                        .ok_or_else(|| self.err(format!("UBO {block} is not bound")))?;
                    let v = robust_read(self.env.robust_access, buf, off, nc, bytes).ok_or_else(
                        || self.undefined(oob("UBO", block, off, nc * bytes, buf.len())),
                    )?;
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::LoadUniform | Intrinsic::LoadPushConstant => {
                let unit = if intr == Intrinsic::LoadUniform {
                    self.env.uniform_unit as usize
                } else {
                    1
                };
                for lane in lanes {
                    let raw = self.scalar(self.src(ii, 0)?, lane)?;
                    let off = if self.env.float_uniform_offsets && intr == Intrinsic::LoadUniform {
                        let f = f32::from_bits(raw as u32);
                        if !(0.0..1e9).contains(&f) && !self.env.robust_access {
                            return Err(self.undefined(format!("uniform offset {f} out of range")));
                        }
                        if (0.0..1e9).contains(&f) {
                            f as usize
                        } else {
                            usize::MAX / 2
                        }
                    } else {
                        raw as u32 as usize
                    };
                    let base = self.index(ii, IndexKind::Base).max(0) as usize;
                    let at = base.saturating_add(off).saturating_mul(unit);
                    let buf = &self.env.uniforms;
                    let v = robust_read(self.env.robust_access, buf, at, nc, bytes).ok_or_else(
                        || self.undefined(oob("uniform", 0, at, nc * bytes, buf.len())),
                    )?;
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::LoadInput
            | Intrinsic::LoadInterpolatedInput
            | Intrinsic::LoadPerVertexInput => {
                let off_src = if intr == Intrinsic::LoadInput { 0 } else { 1 };
                let comp = self.io_component(ii)?;
                let integer = ii
                    .type_index(IndexKind::DestType)
                    .is_some_and(|t| t.base != BaseType::Float);
                for lane in lanes {
                    let slot = self.io_slot(ii, off_src, lane)?;
                    let mut v = [0u64; 16];
                    for (c, out) in v.iter_mut().enumerate().take(nc) {
                        *out = self.input(lane, slot, comp + c as u32, integer)? as u64;
                    }
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::LoadBarycentricPixel
            | Intrinsic::LoadBarycentricCentroid
            | Intrinsic::LoadBarycentricSample
            | Intrinsic::LoadBarycentricAtOffset
            | Intrinsic::LoadBarycentricAtSample => {
                // Inputs come already interpolated; the barycentrics are only a handle.
                for lane in lanes {
                    self.set_def(def, lane, &[0; 16])?;
                }
            }
            Intrinsic::LoadFragCoord => {
                for lane in lanes {
                    let fc = match &self.env.frag_coord {
                        Some(v) => *v.get(lane).ok_or_else(|| {
                            self.err(format!("no frag coord for invocation {lane}"))
                        })?,
                        None => {
                            let (x, y) = pixel(lane);
                            [x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0]
                        }
                    };
                    let v: Vec<u64> = fc.iter().map(|f| f.to_bits() as u64).collect();
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::LoadFrontFace => {
                for lane in lanes {
                    let ff = self
                        .env
                        .front_face
                        .as_ref()
                        .map_or(true, |v| v.get(lane).copied().unwrap_or(true));
                    self.set_def(def, lane, &[self.sysval_bool(ff, bits)])?;
                }
            }
            Intrinsic::LoadHelperInvocation => {
                for lane in lanes {
                    self.set_def(def, lane, &[self.sysval_bool(false, bits)])?;
                }
            }
            Intrinsic::LoadSubgroupInvocation if self.env.simd_width == 0 => {
                // Without a thread width, each invocation is its own channel number.
                for lane in lanes {
                    self.set_def(def, lane, &[lane as u64])?;
                }
            }
            Intrinsic::LoadSubgroupInvocation
            | Intrinsic::LoadSubgroupId
            | Intrinsic::LoadSimdWidthIntel
            | Intrinsic::LoadNumSubgroups => {
                let width = self.env.simd_width as u64;
                if width == 0 {
                    return Err(self.err(format!(
                        "`{}` needs the SIMD width of the program being checked",
                        intr.name()
                    )));
                }
                let n = self
                    .env
                    .workgroup_size
                    .iter()
                    .map(|&s| s as u64)
                    .product::<u64>();
                for lane in lanes {
                    let l = lane as u64;
                    let v = match intr {
                        Intrinsic::LoadSubgroupInvocation => l % width,
                        Intrinsic::LoadSubgroupId => l / width,
                        Intrinsic::LoadSimdWidthIntel => width,
                        _ => n.div_ceil(width),
                    };
                    self.set_def(def, lane, &[v])?;
                }
            }
            Intrinsic::LoadLocalInvocationId
            | Intrinsic::LoadGlobalInvocationId
            | Intrinsic::LoadGlobalInvocationIdZeroBase
            | Intrinsic::LoadWorkgroupId
            | Intrinsic::LoadWorkgroupIdZeroBase
            | Intrinsic::LoadNumWorkgroups
            | Intrinsic::LoadWorkgroupSize
            | Intrinsic::LoadLocalInvocationIndex
            | Intrinsic::LoadVertexId
            | Intrinsic::LoadVertexIdZeroBase
            | Intrinsic::LoadInstanceId
            | Intrinsic::LoadInvocationId
            | Intrinsic::LoadSampleId
            | Intrinsic::LoadFirstVertex
            | Intrinsic::LoadBaseVertex
            | Intrinsic::LoadBaseInstance
            | Intrinsic::LoadDrawId
            | Intrinsic::LoadIsIndexedDraw => {
                let ws = self.env.workgroup_size;
                let wg = self.env.workgroup_id;
                for lane in lanes {
                    let l = lane as u64;
                    let local = [
                        l % ws[0].max(1) as u64,
                        (l / ws[0].max(1) as u64) % ws[1].max(1) as u64,
                        l / (ws[0].max(1) as u64 * ws[1].max(1) as u64),
                    ];
                    let v: [u64; 3] = match intr {
                        Intrinsic::LoadLocalInvocationId => local,
                        // GL dispatches have no base workgroup (Vulkan's vkCmdDispatchBase
                        // does): the zero-based ids are the ids.
                        Intrinsic::LoadGlobalInvocationId
                        | Intrinsic::LoadGlobalInvocationIdZeroBase => {
                            [0, 1, 2].map(|i| wg[i] as u64 * ws[i] as u64 + local[i])
                        }
                        Intrinsic::LoadWorkgroupId | Intrinsic::LoadWorkgroupIdZeroBase => {
                            wg.map(|x| x as u64)
                        }
                        Intrinsic::LoadNumWorkgroups => [1; 3],
                        Intrinsic::LoadWorkgroupSize => ws.map(|x| x as u64),
                        Intrinsic::LoadFirstVertex
                        | Intrinsic::LoadBaseVertex
                        | Intrinsic::LoadBaseInstance
                        | Intrinsic::LoadInstanceId
                        | Intrinsic::LoadVertexId
                        | Intrinsic::LoadVertexIdZeroBase
                            if !self.env.draw_parameters.is_empty() =>
                        {
                            let d = self.env.draw_parameters.get(lane).ok_or_else(|| {
                                self.err(format!("no draw parameters for invocation {lane}"))
                            })?;
                            let v = match intr {
                                Intrinsic::LoadFirstVertex | Intrinsic::LoadBaseVertex => {
                                    d.first_vertex
                                }
                                Intrinsic::LoadBaseInstance => d.base_instance,
                                Intrinsic::LoadInstanceId => d.instance_id,
                                Intrinsic::LoadVertexId => {
                                    d.first_vertex.wrapping_add(d.vertex_id_zero_base)
                                }
                                _ => d.vertex_id_zero_base,
                            };
                            [v as u64, 0, 0]
                        }
                        Intrinsic::LoadDrawId => [
                            self.env.draw_parameters.get(lane).map_or(0, |d| d.draw_id) as u64,
                            0,
                            0,
                        ],
                        Intrinsic::LoadIsIndexedDraw => {
                            let on = self
                                .env
                                .draw_parameters
                                .get(lane)
                                .is_some_and(|d| d.is_indexed_draw);
                            [if on { u32::MAX as u64 } else { 0 }, 0, 0]
                        }
                        Intrinsic::LoadFirstVertex
                        | Intrinsic::LoadBaseVertex
                        | Intrinsic::LoadBaseInstance => [0; 3],
                        Intrinsic::LoadInstanceId => [0; 3],
                        _ => [l, 0, 0],
                    };
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::StoreOutput | Intrinsic::StorePerVertexOutput => {
                let val = self.src(ii, 0)?;
                let off_src = if intr == Intrinsic::StoreOutput { 1 } else { 2 };
                let wrmask = ii.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u32;
                let comp = self.io_component(ii)? as usize;
                let vbits = self.defn(val)?.bit_size;
                let io = Self::io_name(ii);
                for lane in lanes {
                    let slot = self.io_slot(ii, off_src, lane)?;
                    let v = self.get(val, lane)?;
                    self.output(lane, slot, &io, vbits, comp, &v, wrmask);
                }
            }
            // A TCS reads back the patch entry: what any invocation wrote there, or the
            // undefined bits where nothing was written.
            Intrinsic::LoadOutput | Intrinsic::LoadPerVertexOutput if self.env.tess_ctrl => {
                let off_src = if intr == Intrinsic::LoadOutput { 0 } else { 1 };
                let comp = self.io_component(ii)? as usize;
                for lane in lanes {
                    let slot = self.io_slot(ii, off_src, lane)?;
                    let held = self.patch.get(&slot);
                    let mut v = [0u64; 16];
                    for (c, out) in v.iter_mut().enumerate().take(nc) {
                        *out = held
                            .and_then(|s| s.comps.get(comp + c).copied().flatten())
                            .unwrap_or(self.env.undefined_bits)
                            & super::value::mask(bits);
                    }
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::StoreDeref | Intrinsic::LoadDeref => self.deref_access(ii, &lanes)?,
            Intrinsic::LoadScratch | Intrinsic::StoreScratch => {
                let store = intr == Intrinsic::StoreScratch;
                let addr_src = if store { 1 } else { 0 };
                for lane in lanes {
                    let off = self.scalar(self.src(ii, addr_src)?, lane)? as u32 as usize
                        + self.index(ii, IndexKind::Base).max(0) as usize;
                    if store {
                        let val = self.src(ii, 0)?;
                        let vb = (self.defn(val)?.bit_size as usize / 8).max(1);
                        let wrmask = ii.int_index(IndexKind::WriteMask).unwrap_or(0xffff) as u32;
                        let v = self.get(val, lane)?;
                        let len = self.scratch[lane].len();
                        if write(&mut self.scratch[lane], off, &v, nc, vb, wrmask).is_none()
                            && !self.env.robust_access
                        {
                            return Err(self.undefined(oob("scratch", 0, off, nc * vb, len)));
                        }
                    } else {
                        let buf = &self.scratch[lane];
                        let v = robust_read(self.env.robust_access, buf, off, nc, bytes)
                            .ok_or_else(|| {
                                self.undefined(oob("scratch", 0, off, nc * bytes, buf.len()))
                            })?;
                        self.set_def(def, lane, &v)?;
                    }
                }
            }
            Intrinsic::LoadRelocConstIntel => {
                let base = self.env.constant_data_address;
                let v = match self.index(ii, IndexKind::ParamIdx) {
                    0 => base & 0xffff_ffff,
                    1 => base >> 32,
                    id => {
                        return Err(self.err(format!(
                            "load_reloc_const_intel of relocation {id} (only the constant \
                             data address, 0 and 1, has a value)"
                        )))
                    }
                };
                for lane in lanes {
                    self.set_def(def, lane, &[v])?;
                }
            }
            Intrinsic::LoadGlobalConstant
            | Intrinsic::LoadGlobalConstantUniformBlockIntel
            | Intrinsic::LoadGlobal
            | Intrinsic::LoadConstant => {
                for lane in lanes {
                    let addr = self.scalar(self.src(ii, 0)?, lane)?;
                    let off = if intr == Intrinsic::LoadConstant {
                        addr as usize + self.index(ii, IndexKind::Base).max(0) as usize
                    } else {
                        // Below the constant data reads as out of bounds.
                        addr.checked_sub(self.env.constant_data_address)
                            .and_then(|o| usize::try_from(o).ok())
                            .unwrap_or(usize::MAX)
                    };
                    let buf = &self.env.constant_data;
                    let v = robust_read(self.env.robust_access, buf, off, nc, bytes).ok_or_else(
                        || self.undefined(oob("constant data", 0, off, nc * bytes, buf.len())),
                    )?;
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::LoadSsbo
            | Intrinsic::StoreSsbo
            | Intrinsic::LoadShared
            | Intrinsic::StoreShared => {
                let store = matches!(intr, Intrinsic::StoreSsbo | Intrinsic::StoreShared);
                let ssbo = matches!(intr, Intrinsic::LoadSsbo | Intrinsic::StoreSsbo);
                for lane in lanes {
                    let (block, off) = match (ssbo, store) {
                        (true, false) => (
                            self.scalar(self.src(ii, 0)?, lane)?,
                            self.scalar(self.src(ii, 1)?, lane)?,
                        ),
                        (true, true) => (
                            self.scalar(self.src(ii, 1)?, lane)?,
                            self.scalar(self.src(ii, 2)?, lane)?,
                        ),
                        (false, false) => (0, self.scalar(self.src(ii, 0)?, lane)?),
                        (false, true) => (0, self.scalar(self.src(ii, 1)?, lane)?),
                    };
                    let off = off as u32 as usize
                        + if ssbo {
                            0
                        } else {
                            self.index(ii, IndexKind::Base).max(0) as usize
                        };
                    let block = block as usize;
                    let what = if ssbo { "SSBO" } else { "shared memory" };
                    if store {
                        let val = self.src(ii, 0)?;
                        let vb = (self.defn(val)?.bit_size as usize / 8).max(1);
                        let wrmask = ii.int_index(IndexKind::WriteMask).unwrap_or(0xffff) as u32;
                        let v = self.get(val, lane)?;
                        let robust = self.env.robust_access;
                        let buf = self.buffer_mut(ssbo, block)?;
                        let len = buf.len();
                        if write(buf, off, &v, nc, vb, wrmask).is_none() && !robust {
                            return Err(self.undefined(oob(what, block, off, nc * vb, len)));
                        }
                    } else {
                        let buf = if ssbo {
                            self.ssbos
                                .get(block)
                                .ok_or_else(|| self.err(format!("SSBO {block} is not bound")))?
                        } else {
                            &self.shared
                        };
                        let v = robust_read(self.env.robust_access, buf, off, nc, bytes)
                            .ok_or_else(|| {
                                self.undefined(oob(what, block, off, nc * bytes, buf.len()))
                            })?;
                        self.set_def(def, lane, &v)?;
                    }
                }
            }
            Intrinsic::SsboAtomic
            | Intrinsic::SsboAtomicSwap
            | Intrinsic::SharedAtomic
            | Intrinsic::SharedAtomicSwap => {
                let ssbo = matches!(intr, Intrinsic::SsboAtomic | Intrinsic::SsboAtomicSwap);
                let swap = matches!(
                    intr,
                    Intrinsic::SsboAtomicSwap | Intrinsic::SharedAtomicSwap
                );
                let op = match ii.index(IndexKind::AtomicOp) {
                    Some(IndexValue::Text(t)) => t.strip_prefix("atomic_op=").unwrap_or(t),
                    _ => return Err(self.err(format!("{} without atomic_op", intr.name()))),
                };
                let first = usize::from(ssbo);
                let base = if ssbo {
                    0
                } else {
                    self.index(ii, IndexKind::Base).max(0) as usize
                };
                // Lanes in order, as the data port applies a message's channels.
                for lane in lanes {
                    let block = if ssbo {
                        self.scalar(self.src(ii, 0)?, lane)? as usize
                    } else {
                        0
                    };
                    let off = self.scalar(self.src(ii, first)?, lane)? as u32 as usize + base;
                    let data = self.scalar(self.src(ii, first + 1)?, lane)? as u32;
                    let data2 = if swap {
                        self.scalar(self.src(ii, first + 2)?, lane)? as u32
                    } else {
                        0
                    };
                    let what = if ssbo { "SSBO" } else { "shared memory" };
                    let robust = self.env.robust_access;
                    let buf = self.buffer_mut(ssbo, block)?;
                    let len = buf.len();
                    let Some(word) = buf.get_mut(off..off + 4) else {
                        if robust {
                            self.set_def(def, lane, &[0])?;
                            continue;
                        }
                        return Err(self.undefined(oob(what, block, off, 4, len)));
                    };
                    let old = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
                    let Some(new) = atomic(op, swap, old, data, data2) else {
                        let msg = format!("{} with atomic_op={op}", intr.name());
                        return Err(self.err(msg));
                    };
                    word.copy_from_slice(&new.to_le_bytes());
                    if ii.def.is_some() {
                        self.set_def(def, lane, &[u64::from(old)])?;
                    }
                }
            }
            Intrinsic::LoadTextureScale => {
                for lane in lanes {
                    let t = self.scalar(self.src(ii, 0)?, lane)? as u32;
                    let s = self.env.sampler.size(t, 0);
                    let v = [
                        (1.0 / s[0] as f32).to_bits() as u64,
                        (1.0 / s[1] as f32).to_bits() as u64,
                    ];
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::LoadTextureSizeEtna => {
                for lane in lanes {
                    let t = self.scalar(self.src(ii, 0)?, lane)? as u32;
                    let s = self.env.sampler.size(t, 0);
                    self.set_def(def, lane, &s.map(u64::from))?;
                }
            }
            Intrinsic::Discard
            | Intrinsic::Terminate
            | Intrinsic::Demote
            | Intrinsic::DiscardIf
            | Intrinsic::TerminateIf
            | Intrinsic::DemoteIf => {
                let cond = matches!(
                    intr,
                    Intrinsic::DiscardIf | Intrinsic::TerminateIf | Intrinsic::DemoteIf
                );
                for lane in lanes {
                    if !cond || self.scalar(self.src(ii, 0)?, lane)? != 0 {
                        self.results[lane].discarded = true;
                        if !matches!(intr, Intrinsic::Demote | Intrinsic::DemoteIf) {
                            mask[lane] = false;
                        }
                    }
                }
            }
            Intrinsic::LoadTessCoord => {
                for lane in lanes {
                    let v = self.env.tess.coord(lane).map(|f| f.to_bits() as u64);
                    self.set_def(def, lane, &v)?;
                }
            }
            Intrinsic::LoadPrimitiveId => {
                for lane in lanes {
                    self.set_def(def, lane, &[self.env.tess.primitive_id as u64])?;
                }
            }
            Intrinsic::Reduce
            | Intrinsic::FirstInvocation
            | Intrinsic::ReadFirstInvocation
            | Intrinsic::ReadInvocation => self.subgroup_op(ii, mask)?,
            Intrinsic::Barrier
            | Intrinsic::BeginInvocationInterlock
            | Intrinsic::EndInvocationInterlock => {
                // Lockstep execution already orders every lane's memory accesses.
            }
            _ => {
                return Err(self.err(format!("intrinsic `{name}` is not supported")));
            }
        }
        Ok(())
    }

    /// `reduce`, `first_invocation`, `read_first_invocation`, `read_invocation` over the
    /// running lanes of each subgroup (see [`super::subgroup`]).
    fn subgroup_op(&mut self, ii: &IntrinsicInstr, mask: &[bool]) -> R<()> {
        let def = ii.def;
        let Some(d) = def else {
            return Ok(());
        };
        let d = self.defn(d)?;
        let (nc, bits) = (d.num_components as usize, d.bit_size);
        let width = match self.env.simd_width as usize {
            0 => self.n.next_power_of_two(),
            w => w,
        };
        for sg in 0..self.n.div_ceil(width) {
            let base = sg * width;
            let live: Vec<usize> = (base..(base + width).min(self.n))
                .filter(|&l| mask[l])
                .collect();
            let Some(&first) = live.first() else {
                continue;
            };
            match ii.intrinsic {
                Intrinsic::FirstInvocation => {
                    for &l in &live {
                        self.set_def(def, l, &[(first - base) as u64])?;
                    }
                }
                Intrinsic::ReadFirstInvocation | Intrinsic::ReadInvocation => {
                    let from = if ii.intrinsic == Intrinsic::ReadInvocation {
                        let at = self.src(ii, 1)?;
                        let idx = self.scalar(at, first)? as usize;
                        if live
                            .iter()
                            .any(|&l| self.scalar(at, l).ok() != Some(idx as u64))
                        {
                            return Err(self.undefined(
                                "read_invocation with an index that \
                                                       is not dynamically uniform",
                            ));
                        }
                        if idx >= width || !mask.get(base + idx).copied().unwrap_or(false) {
                            return Err(self.undefined(format!(
                                "read_invocation of channel {idx}, which does not run"
                            )));
                        }
                        base + idx
                    } else {
                        first
                    };
                    let v = self.get(self.src(ii, 0)?, from)?;
                    for &l in &live {
                        self.set_def(def, l, &v[..nc])?;
                    }
                }
                _ => {
                    let name = match ii.index(IndexKind::ReductionOp) {
                        Some(IndexValue::Text(t)) => t.strip_prefix("reduction_op=").unwrap_or(t),
                        _ => return Err(self.err("reduce without reduction_op")),
                    };
                    let (op, identity) =
                        super::subgroup::reduction(name, bits).ok_or_else(|| {
                            self.err(format!(
                                "reduce with reduction_op={name} on {bits}-bit values"
                            ))
                        })?;
                    let cluster = match self.index(ii, IndexKind::ClusterSize) {
                        c if c <= 0 || c as usize >= width => width,
                        c if (c as usize).is_power_of_two() => c as usize,
                        c => return Err(self.err(format!("reduce with cluster_size={c}"))),
                    };
                    let src = self.src(ii, 0)?;
                    let mut vals = vec![[identity; 16]; width];
                    for &l in &live {
                        vals[l - base] = self.get(src, l)?;
                    }
                    let mut out = vec![[0u64; 16]; width / cluster];
                    for (k, o) in out.iter_mut().enumerate() {
                        for (c, oc) in o.iter_mut().enumerate().take(nc) {
                            let part: Vec<u64> =
                                (0..cluster).map(|i| vals[k * cluster + i][c]).collect();
                            *oc = super::subgroup::fold(self.denorms, op, bits, &part)
                                .map_err(|e| self.err(e))?;
                        }
                    }
                    for &l in &live {
                        self.set_def(def, l, &out[(l - base) / cluster][..nc])?;
                    }
                }
            }
        }
        Ok(())
    }

    fn set_def(&mut self, def: Option<SsaId>, lane: usize, v: &[u64]) -> R<()> {
        match def {
            Some(d) => {
                self.set(d, lane, v);
                Ok(())
            }
            None => Err(self.err("intrinsic has no destination")),
        }
    }

    fn indirect(&self, ii: &IntrinsicInstr, on: bool, src: usize, lane: usize) -> R<i64> {
        if !on {
            return Ok(0);
        }
        Ok(self.scalar(self.src(ii, src)?, lane)? as u32 as i32 as i64)
    }

    fn reg_slot(&self, reg: SsaId, idx: i64) -> R<(usize, usize)> {
        let info = self
            .regs
            .get(&reg.0)
            .ok_or_else(|| self.err(format!("%{} is not a decl_reg", reg.0)))?;
        if idx < 0 || idx as usize >= info.elems {
            return Err(self.undefined(format!(
                "register %{} index {idx} out of bounds ({} elements)",
                reg.0, info.elems
            )));
        }
        Ok((info.off + idx as usize * info.comps, info.comps))
    }

    fn reg_read(&self, reg: SsaId, idx: i64, lane: usize) -> R<Comps> {
        let (off, comps) = match self.reg_slot(reg, idx) {
            Err(_) if self.env.robust_access && self.regs.contains_key(&reg.0) => {
                return Ok([0; 16])
            }
            r => r?,
        };
        let base = lane * self.reg_stride + off;
        let mut v = [0u64; 16];
        v[..comps].copy_from_slice(&self.reg_vals[base..base + comps]);
        Ok(v)
    }

    fn reg_write(&mut self, reg: SsaId, idx: i64, lane: usize, v: &Comps, wrmask: u32) -> R<()> {
        let (off, comps) = match self.reg_slot(reg, idx) {
            Err(_) if self.env.robust_access && self.regs.contains_key(&reg.0) => return Ok(()),
            r => r?,
        };
        let base = lane * self.reg_stride + off;
        for (c, dst) in self.reg_vals[base..base + comps].iter_mut().enumerate() {
            if wrmask & (1 << c) != 0 {
                *dst = v[c];
            }
        }
        Ok(())
    }

    fn input(&self, lane: usize, slot: u32, comp: u32, integer: bool) -> R<u32> {
        let given = self
            .env
            .inputs
            .get(lane)
            .and_then(|m| m.get(&slot.checked_add(comp / 4)?))
            .map(|v| v[(comp % 4) as usize]);
        match given {
            Some(v) => Ok(v),
            None if self.env.generate_inputs => Ok(generated_input(lane, slot, comp, integer)),
            None => Err(self.err(format!(
                "input slot {slot} component {comp} of invocation {lane} is not provided"
            ))),
        }
    }

    /// Component `comp` of input `slot` of vertex `vertex` of a geometry lane's primitive.
    fn vertex_input(&self, lane: usize, vertex: u64, slot: u32, comp: u32) -> R<u32> {
        let g = self
            .env
            .geometry
            .get(lane)
            .ok_or_else(|| self.err(format!("no input primitive for invocation {lane}")))?;
        let Some(v) = usize::try_from(vertex).ok().and_then(|v| g.vertices.get(v)) else {
            if self.env.robust_access {
                return Ok(0);
            }
            return Err(self.undefined(format!(
                "vertex {vertex} of a {}-vertex input primitive",
                g.vertices.len()
            )));
        };
        let given = v
            .get(&slot.saturating_add(comp / 4))
            .map(|c| c[(comp % 4) as usize]);
        match given {
            Some(x) => Ok(x),
            None if self.env.robust_access => Ok(0),
            None => Err(self.err(format!(
                "input slot {slot} component {comp} of vertex {vertex} is not provided"
            ))),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn output(
        &mut self,
        lane: usize,
        slot: u32,
        io: &str,
        bits: u8,
        comp: usize,
        v: &Comps,
        wrmask: u32,
    ) {
        // A TCS's invocations share one patch entry; other stages write their own outputs.
        let outputs = if self.env.tess_ctrl {
            &mut self.patch
        } else {
            &mut self.results[lane].outputs
        };
        let entry = outputs.entry(slot).or_insert_with(|| OutputSlot {
            name: io.to_string(),
            bit_size: bits,
            comps: [None; 8],
        });
        for (c, &val) in v.iter().enumerate().take(8) {
            if wrmask & (1 << c) != 0 && comp + c < 8 {
                entry.comps[comp + c] = Some(val);
            }
        }
    }

    /// Follows a deref chain to its variable and flat element index.
    fn resolve(&self, id: SsaId, lane: usize) -> R<(String, i64)> {
        let instr = self
            .imp
            .def_instr(id)
            .ok_or_else(|| self.err(format!("%{} is not defined", id.0)))?;
        match &instr.kind {
            InstrKind::Deref(d) => match &d.kind {
                DerefKind::Var(name) => Ok((name.clone(), 0)),
                DerefKind::Array { parent, index } => {
                    let (name, base) = self.resolve(*parent, lane)?;
                    let i = sext(self.scalar(*index, lane)?, self.defn(*index)?.bit_size);
                    Ok((name, base + i))
                }
            },
            _ => Err(self.err(format!("%{} is not a deref", id.0))),
        }
    }

    fn deref_access(&mut self, ii: &IntrinsicInstr, lanes: &[usize]) -> R<()> {
        let store = ii.intrinsic == Intrinsic::StoreDeref;
        let ptr = self.src(ii, 0)?;
        for &lane in lanes {
            let (name, idx) = self.resolve(ptr, lane)?;
            let var = self
                .shader
                .variables
                .iter()
                .chain(self.imp.locals.iter())
                .find(|v| v.name == name)
                .ok_or_else(|| self.err(format!("variable `{name}` is not declared")))?;
            let elem = var.ty.element_components().max(1) as usize;
            match (var.mode, store) {
                (VarMode::ShaderOut, true) => {
                    let val = self.src(ii, 1)?;
                    let vbits = self.defn(val)?.bit_size;
                    let wrmask = ii.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u32;
                    let v = self.get(val, lane)?;
                    let slot = var.driver_location + idx.max(0) as u32;
                    let (loc, frac) = (var.location.clone(), var.location_frac() as usize);
                    self.output(lane, slot, &loc, vbits, frac, &v, wrmask);
                }
                (VarMode::ShaderIn, false) => {
                    let slot = var.driver_location + idx.max(0) as u32;
                    let frac = var.location_frac();
                    let integer = var.ty.alu_base() != BaseType::Float
                        && var.ty.alu_base() != BaseType::Invalid;
                    let nc = ii.num_components as usize;
                    let mut v = [0u64; 16];
                    for (c, o) in v.iter_mut().enumerate().take(nc) {
                        *o = self.input(lane, slot, frac + c as u32, integer)? as u64;
                    }
                    self.set_def(ii.def, lane, &v)?;
                }
                (VarMode::ShaderTemp | VarMode::FunctionTemp, _) => {
                    let len = var
                        .ty
                        .arrays
                        .iter()
                        .map(|&n| n.max(1) as usize)
                        .product::<usize>();
                    let n = self.n;
                    let storage = self
                        .temps
                        .entry(name.clone())
                        .or_insert_with(|| vec![vec![0; elem * len]; n]);
                    if idx < 0 || idx as usize >= len {
                        return Err(self.undefined(format!("`{name}[{idx}]` is out of bounds")));
                    }
                    let at = idx as usize * elem;
                    if store {
                        let val = self.src(ii, 1)?;
                        let wrmask = ii.int_index(IndexKind::WriteMask).unwrap_or(0xffff) as u32;
                        let v = self.get(val, lane)?;
                        let slot = &mut self.temps.get_mut(&name).expect("inserted above")[lane];
                        for c in 0..elem.min(16) {
                            if wrmask & (1 << c) != 0 {
                                slot[at + c] = v[c];
                            }
                        }
                    } else {
                        let mut v = [0u64; 16];
                        let src = &storage[lane];
                        v[..elem.min(16)].copy_from_slice(&src[at..at + elem.min(16)]);
                        self.set_def(ii.def, lane, &v)?;
                    }
                }
                (mode, _) => {
                    return Err(self.err(format!(
                        "{} through a deref of a {} variable is not supported",
                        ii.intrinsic.name(),
                        mode.name()
                    )))
                }
            }
        }
        Ok(())
    }

    fn tex(&mut self, t: &TexInstr, mask: &[bool]) -> R<()> {
        let op = t.op;
        let d = self.defn(t.def)?;
        let integer = t.dest_type.base != BaseType::Float;
        for lane in self.lanes(mask) {
            let mut texture = t.texture_index.unwrap_or(0);
            let mut sampler = t.sampler_index.unwrap_or(0);
            let mut req = TexRequest {
                op,
                texture,
                sampler,
                coord: Vec::new(),
                lod: None,
                bias: None,
                comparator: None,
                offset: Vec::new(),
                integer,
                ddx: Vec::new(),
                ddy: Vec::new(),
            };
            for &(kind, ssa) in &t.srcs {
                let sd = self.defn(ssa)?;
                let v = self.get(ssa, lane)?;
                let nc = sd.num_components as usize;
                let float_src = |k: usize| to_f64(v[k], sd.bit_size);
                let int_src = |k: usize| sext(v[k], sd.bit_size);
                match kind {
                    TexSrc::Coord => {
                        req.coord = (0..nc)
                            .map(|k| {
                                if op.integer_coords() {
                                    int_src(k) as f64
                                } else {
                                    float_src(k)
                                }
                            })
                            .collect()
                    }
                    TexSrc::Lod => {
                        req.lod = Some(if op.integer_coords() || op == TexOp::Txs {
                            int_src(0) as f64
                        } else {
                            float_src(0)
                        })
                    }
                    TexSrc::Bias => req.bias = Some(float_src(0)),
                    TexSrc::Comparator => req.comparator = Some(float_src(0)),
                    TexSrc::Offset => req.offset = (0..nc).map(int_src).collect(),
                    TexSrc::Ddx => req.ddx = (0..nc).map(float_src).collect(),
                    TexSrc::Ddy => req.ddy = (0..nc).map(float_src).collect(),
                    TexSrc::TextureOffset => texture = texture.wrapping_add(v[0] as u32),
                    TexSrc::SamplerOffset => sampler = sampler.wrapping_add(v[0] as u32),
                    TexSrc::Projector => {
                        let p = float_src(0);
                        for c in &mut req.coord {
                            *c /= p;
                        }
                    }
                    // Not modelled: the request has no field for them and the samplers
                    // no multisampling, planes, handles or level clamp.
                    TexSrc::MinLod
                    | TexSrc::MsIndex
                    | TexSrc::MsMcsIntel
                    | TexSrc::TextureDeref
                    | TexSrc::SamplerDeref
                    | TexSrc::TextureHandle
                    | TexSrc::SamplerHandle
                    | TexSrc::Plane
                    | TexSrc::Backend1
                    | TexSrc::Backend2 => {}
                }
            }
            req.texture = texture;
            req.sampler = sampler;
            let bits = d.bit_size;
            let mut out = [0u64; 16];
            match op {
                TexOp::Txs => {
                    let lod = req.lod.unwrap_or(0.0).max(0.0) as u32;
                    let s = self.env.sampler.size(texture, lod);
                    for c in 0..(d.num_components as usize).min(3) {
                        out[c] = s[c] as u64;
                    }
                }
                TexOp::QueryLevels => out[0] = self.env.sampler.levels(texture) as u64,
                TexOp::TextureSamples => out[0] = 1,
                TexOp::Lod => {}
                _ => {
                    let v = self
                        .env
                        .sampler
                        .sample(&req)
                        .map_err(|e| self.err(format!("{op}: {e}")))?;
                    for c in 0..(d.num_components as usize).min(4) {
                        out[c] = if integer {
                            v[c] as i64 as u64
                        } else {
                            from_f64(v[c], bits)
                        };
                    }
                }
            }
            self.set(t.def, lane, &out);
        }
        Ok(())
    }
}

/// A read that yields zeros out of bounds when robust access is on.
fn robust_read(robust: bool, buf: &[u8], off: usize, nc: usize, bytes: usize) -> Option<[u64; 16]> {
    read(buf, off, nc, bytes).or(if robust { Some([0; 16]) } else { None })
}

fn oob(what: &str, block: usize, off: usize, len: usize, size: usize) -> String {
    format!("{what} {block}: access of {len} bytes at offset {off} is out of bounds (size {size})")
}

/// Little-endian components of `bytes` bytes each.
fn read(buf: &[u8], off: usize, nc: usize, bytes: usize) -> Option<[u64; 16]> {
    let end = off.checked_add(nc.checked_mul(bytes)?)?;
    let data = buf.get(off..end)?;
    let mut out = [0u64; 16];
    for (c, chunk) in data.chunks(bytes).enumerate().take(16) {
        out[c] = chunk
            .iter()
            .rev()
            .fold(0u64, |acc, &b| (acc << 8) | b as u64);
    }
    Some(out)
}

fn write(
    buf: &mut [u8],
    off: usize,
    v: &[u64; 16],
    nc: usize,
    bytes: usize,
    wrmask: u32,
) -> Option<()> {
    let end = off.checked_add(nc.checked_mul(bytes)?)?;
    let data = buf.get_mut(off..end)?;
    for (c, chunk) in data.chunks_mut(bytes).enumerate().take(16) {
        if wrmask & (1 << c) != 0 {
            for (k, b) in chunk.iter_mut().enumerate() {
                *b = (v[c] >> (8 * k)) as u8;
            }
        }
    }
    Some(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    X,
    Y,
}

/// The screen axis a derivative op differences along, None for other ops. Mali's
/// `_must_abs` forms (whose sign the consumer ignores) are plain fine derivatives here.
fn derivative_axis(op: AluOp) -> Option<Axis> {
    use AluOp::*;
    match op {
        fddx | fddx_fine | fddx_coarse | fddx_must_abs_mali => Some(Axis::X),
        fddy | fddy_fine | fddy_coarse | fddy_must_abs_mali => Some(Axis::Y),
        _ => None,
    }
}

/// Integer divisions and remainders: their result for a zero divisor is undefined.
pub fn is_division(op: AluOp) -> bool {
    matches!(
        op,
        AluOp::idiv | AluOp::udiv | AluOp::umod | AluOp::imod | AluOp::irem
    )
}

/// The value an atomic leaves in memory: `old` combined with `data` (and `data2`, the
/// new value of a compare-and-swap whose `data` is the comparison) by NIR's `atomic_op`.
fn atomic(op: &str, swap: bool, old: u32, data: u32, data2: u32) -> Option<u32> {
    let f = f32::from_bits;
    Some(match (op, swap) {
        ("iadd", false) => old.wrapping_add(data),
        ("imin", false) => (old as i32).min(data as i32) as u32,
        ("umin", false) => old.min(data),
        ("imax", false) => (old as i32).max(data as i32) as u32,
        ("umax", false) => old.max(data),
        ("iand", false) => old & data,
        ("ior", false) => old | data,
        ("ixor", false) => old ^ data,
        ("xchg", false) => data,
        ("cmpxchg", true) => {
            if old == data {
                data2
            } else {
                old
            }
        }
        ("fadd", false) => (f(old) + f(data)).to_bits(),
        ("fmin", false) => f(old).min(f(data)).to_bits(),
        ("fmax", false) => f(old).max(f(data)).to_bits(),
        ("inc_wrap", false) => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        ("dec_wrap", false) => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
        _ => return None,
    })
}

/// Runs `shader` for `invocations` invocations (at least 1, at most 4096).
pub fn run(
    shader: &Shader,
    env: &Environment,
    invocations: usize,
) -> Result<RunResult, InterpError> {
    if invocations == 0 || invocations > 4096 {
        return Err(InterpError::new(format!(
            "invocation count {invocations} is outside 1..=4096"
        )));
    }
    barycentrics_are_handles(shader)?;
    Machine::new(shader, env, invocations)?.run()
}

/// The interpreter's inputs come already interpolated, so a `load_barycentric_*` result is
/// only a handle for `load_interpolated_input`: a shader that computes with it (legal NIR:
/// the hardware gives the real barycentric coordinates) is refused rather than given
/// made-up values, which once read as miscompiles (shared/fuzz-repro verify/ivb-*, bdw-*).
fn barycentrics_are_handles(shader: &Shader) -> Result<(), InterpError> {
    use crate::nir::ir::InstrKind;
    use crate::nir::Intrinsic;
    let Some(imp) = shader.entry() else {
        return Ok(());
    };
    let is_bary = |i: Intrinsic| {
        matches!(
            i,
            Intrinsic::LoadBarycentricPixel
                | Intrinsic::LoadBarycentricCentroid
                | Intrinsic::LoadBarycentricSample
                | Intrinsic::LoadBarycentricAtOffset
                | Intrinsic::LoadBarycentricAtSample
        )
    };
    let handles: std::collections::HashSet<_> = imp
        .instrs
        .iter()
        .filter_map(|ins| match &ins.kind {
            InstrKind::Intrinsic(ii) if is_bary(ii.intrinsic) => ii.def,
            _ => None,
        })
        .collect();
    if handles.is_empty() {
        return Ok(());
    }
    for ins in &imp.instrs {
        let srcs = ins.kind.srcs();
        let allowed = match &ins.kind {
            InstrKind::Intrinsic(ii) if ii.intrinsic == Intrinsic::LoadInterpolatedInput => 1,
            _ => 0,
        };
        if let Some(id) = srcs.iter().skip(allowed).find(|s| handles.contains(s)) {
            return Err(InterpError::new(format!(
                "barycentrics %{} used as data (the interpreter models them only as \
                 load_interpolated_input's handle)",
                id.0
            )));
        }
    }
    Ok(())
}
