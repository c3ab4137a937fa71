//! The fetch/execute loop and the semantics of ALU and flow-control instructions.

use super::alu::{self, Precision};
use super::flow::Chan;
use super::shared::SharedFunctions;
use super::thread::{Loc, Thread};
use super::value::{f32_to_half, from_bits, half_to_f32, to_bits, Val};
use super::{Diagnostic, RunResult, SimError};
use crate::intel::eu::{self, AccessMode, CondMod, Inst, MathFn, Opcode, RegFile, RegType, Src};

/// What the fetch loop does after an instruction.
pub(super) enum Next {
    /// The following instruction.
    Fall,
    /// The instruction at this byte offset.
    Jump(usize),
    /// End of thread.
    End,
}

/// Size in bytes of an uncompacted instruction.
const INST_SIZE: usize = 16;

impl Thread {
    /// Runs a program of uncompacted instructions (as [`eu::assemble`] returns them), with the
    /// default shared functions.
    pub fn run(&mut self, insts: &[Inst]) -> Result<RunResult, SimError> {
        let offsets: Vec<usize> = (0..insts.len()).map(|i| i * INST_SIZE).collect();
        self.run_at(insts, &offsets)
    }

    /// Decodes program bytes (native or compacted) and runs them with the default shared
    /// functions; jump distances then account for compacted instruction sizes.
    pub fn run_binary(&mut self, bytes: &[u8]) -> Result<RunResult, SimError> {
        let (insts, offsets) = eu::decode_program_at(&self.devinfo, bytes)
            .map_err(|e| SimError::new(format!("decode: {e}")))?;
        self.run_at(&insts, &offsets)
    }

    /// Runs instructions located at the given byte offsets, with the default shared
    /// functions.
    pub fn run_at(&mut self, insts: &[Inst], offsets: &[usize]) -> Result<RunResult, SimError> {
        let mut shared = std::mem::take(&mut self.shared);
        let r = self.run_with(insts, offsets, &mut shared);
        self.shared = shared;
        r
    }

    /// Runs instructions located at the given byte offsets with caller-provided shared
    /// functions.
    pub fn run_with(
        &mut self,
        insts: &[Inst],
        offsets: &[usize],
        shared: &mut dyn SharedFunctions,
    ) -> Result<RunResult, SimError> {
        if offsets.len() != insts.len() {
            return Err(SimError::new(format!(
                "{} instructions but {} offsets",
                insts.len(),
                offsets.len()
            )));
        }
        let mut res = RunResult::default();
        let mut reported = Vec::new();
        let mut pc = 0usize;
        loop {
            let Some(inst) = insts.get(pc) else {
                res.diagnostics.push(Diagnostic {
                    index: pc,
                    offset: offsets.last().map_or(0, |o| o + INST_SIZE),
                    message: "execution ran past the last instruction without EOT".into(),
                });
                return Ok(res);
            };
            res.steps += 1;
            let off = offsets[pc];
            if res.steps > self.step_limit {
                return Err(SimError::at(
                    format!("step limit of {} instructions exceeded", self.step_limit),
                    pc,
                    off,
                ));
            }
            let woken = self.wake(off, inst.opcode == Opcode::While);
            let next_off = offsets.get(pc + 1).copied().unwrap_or(off + INST_SIZE);
            let mut ctx = Ctx {
                pc,
                off,
                next_off,
                res: &mut res,
                reported: &mut reported,
                woken,
            };
            let next = self
                .exec(inst, &mut ctx, shared)
                .map_err(|m| SimError::at(m, pc, off))?;
            match next {
                Next::Fall => pc += 1,
                Next::End => {
                    res.eot = true;
                    return Ok(res);
                }
                Next::Jump(target) if is_end(offsets, target) => pc = insts.len(),
                Next::Jump(target) => {
                    pc = offsets.binary_search(&target).map_err(|_| {
                        SimError::at(
                            format!("jump to byte offset {target:#x}, which is not an instruction"),
                            pc,
                            off,
                        )
                    })?;
                }
            }
        }
    }

    /// Executes the single instruction `insts[pc]` of a program laid out at `offsets` and
    /// returns the index of the next instruction (`None` after EOT). Useful to probe one
    /// instruction in the context of its program, and for debuggers.
    pub fn step(
        &mut self,
        insts: &[Inst],
        offsets: &[usize],
        pc: usize,
    ) -> Result<Option<usize>, SimError> {
        let mut shared = std::mem::take(&mut self.shared);
        let r = self.step_with(insts, offsets, pc, &mut shared);
        self.shared = shared;
        r
    }

    /// [`Thread::step`] with caller-provided shared functions: a device model that runs
    /// several threads of a group in turn (switching at barriers) steps each with the
    /// memory they share.
    pub fn step_with(
        &mut self,
        insts: &[Inst],
        offsets: &[usize],
        pc: usize,
        shared: &mut dyn SharedFunctions,
    ) -> Result<Option<usize>, SimError> {
        let (Some(inst), Some(&off)) = (insts.get(pc), offsets.get(pc)) else {
            return Err(SimError::new(format!("no instruction {pc}")));
        };
        let mut res = RunResult::default();
        let mut reported = Vec::new();
        let woken = self.wake(off, inst.opcode == Opcode::While);
        let mut ctx = Ctx {
            pc,
            off,
            next_off: offsets.get(pc + 1).copied().unwrap_or(off + INST_SIZE),
            res: &mut res,
            reported: &mut reported,
            woken,
        };
        let next = self.exec(inst, &mut ctx, shared);
        match next.map_err(|m| SimError::at(m, pc, off))? {
            Next::Fall => Ok(Some(pc + 1)),
            Next::End => Ok(None),
            Next::Jump(t) if is_end(offsets, t) => Ok(Some(insts.len())),
            Next::Jump(t) => offsets.binary_search(&t).map(Some).map_err(|_| {
                SimError::at(
                    format!("jump to byte offset {t:#x}, which is not an instruction"),
                    pc,
                    off,
                )
            }),
        }
    }

    /// Re-enables the channels waiting for the instruction at `off`; returns them (bit n =
    /// channel n).
    fn wake(&mut self, off: usize, is_while: bool) -> u32 {
        let mut woken = 0;
        for (n, c) in self.chans.iter_mut().enumerate() {
            match *c {
                Chan::Wait(t) if t == off => *c = Chan::Active,
                Chan::Break(t) if t == off && !is_while => *c = Chan::Active,
                _ => continue,
            }
            woken |= 1 << n;
        }
        woken
    }

    /// First channel of the instruction's group (QtrCtrl and NibCtrl).
    pub(super) fn group_base(&self, inst: &Inst) -> u32 {
        if self.devinfo.ver < 60 {
            // Gen4-5 compression control: only `sechalf` (1) starts at channel 8.
            return if inst.qtr_ctrl == 1 { 8 } else { 0 };
        }
        inst.qtr_ctrl as u32 * 8 + if inst.nib_ctrl { 4 } else { 0 }
    }

    pub(super) fn active(&self, ch: u32) -> bool {
        self.chans.get(ch as usize) == Some(&Chan::Active)
    }

    /// Evaluates the predicate for channel `ch` (absolute channel number).
    pub(super) fn predicate(&self, inst: &Inst, ch: u32) -> Result<bool, String> {
        let Some(p) = inst.pred else { return Ok(true) };
        let bit = |c: u32| self.flag_bit(inst.flag_nr, inst.flag_subnr, c);
        let group = |n: u32, all: bool| {
            let g = ch - ch % n;
            let mut it = (g..g + n).map(bit);
            if all {
                it.all(|b| b)
            } else {
                it.any(|b| b)
            }
        };
        let v = match (inst.access_mode, p.control) {
            (_, 1) => bit(ch),
            (AccessMode::Align16, 2..=5) => bit(ch - ch % 4 + (p.control as u32 - 2)),
            (AccessMode::Align16, 6) => group(4, false),
            (AccessMode::Align16, 7) => group(4, true),
            (AccessMode::Align1, 4..=13) => {
                let n = 2u32 << ((p.control as u32 - 4) / 2);
                group(n, p.control % 2 == 1)
            }
            (_, c) => return Err(format!("unsupported: predicate control {c}")),
        };
        Ok(v != p.inverse)
    }

    fn exec(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        shared: &mut dyn SharedFunctions,
    ) -> Result<Next, String> {
        use Opcode::*;
        if inst.src.iter().any(|s| {
            s.as_reg()
                .is_some_and(|r| r.file == RegFile::Arf && r.nr & 0xf0 == 0x40)
        }) {
            self.refresh_channel_enables(inst)?;
        }
        let ver = self.devinfo.ver;
        if ver < 60
            && matches!(
                inst.opcode,
                If | Iff | Else | Endif | While | Break | Continue | Do
            )
        {
            return self.exec_flow_gen4(inst, ctx);
        }
        if ver == 60 && inst.opcode == Math {
            self.check_gen6_math(inst)?;
        }
        match inst.opcode {
            Nop | Wait | Nenop => Ok(Next::Fall),
            If | Else | Endif | While | Break | Continue | Halt => self.exec_flow(inst, ctx),
            Send | Sendc => self.exec_send(inst, ctx, shared),
            Mov | Sel | Not | And | Or | Xor | Shr | Shl | Asr | Cmp | Cmpn | Csel | F32to16
            | F16to32 | Bfrev | Bfe | Bfi1 | Bfi2 | Add | Mul | Avg | Frc | Rndu | Rndd | Rnde
            | Rndz | Mac | Mach | Lzd | Fbh | Fbl | Cbit | Addc | Subb | Dp4 | Dph | Dp3 | Dp2
            | Line | Pln | Mad | Lrp | Math => {
                self.exec_alu(inst, ctx)?;
                Ok(Next::Fall)
            }
            op => Err(format!("unsupported: opcode `{}`", op.name())),
        }
    }

    /// ce0 (mask register 0, dword 0) as an instruction reading it sees it on Gen8+: bit n
    /// set when channel `group base + n` is enabled. Haswell reads all ones under write-mask
    /// all, and earlier generations are not modelled.
    fn refresh_channel_enables(&mut self, inst: &Inst) -> Result<(), String> {
        if self.devinfo.ver < 80 {
            return Err("unsupported: reading the channel-enable register before Gen8".into());
        }
        let base = self.group_base(inst);
        let mask = (0..32 - base).fold(
            0u32,
            |m, n| {
                if self.active(base + n) {
                    m | 1 << n
                } else {
                    m
                }
            },
        );
        self.write_raw(Loc::Arf(super::thread::arf_base(0x40)), 4, mask as u64)
    }

    pub(super) fn exec_flow(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<Next, String> {
        let b = inst
            .branch
            .ok_or_else(|| format!("`{}` without jump targets", inst.opcode.name()))?;
        let target = |d: i32| -> Result<usize, String> {
            let t = ctx.off as i64 + d as i64;
            usize::try_from(t).map_err(|_| format!("jump distance {d} lands before the program"))
        };
        let base = self.group_base(inst);
        let n = inst.exec_size as u32;
        let chans = base..(base + n).min(32);
        let mut preds = [false; 32];
        for (k, ch) in chans.clone().enumerate() {
            preds[k] = self.predicate(inst, ch)?;
        }
        let any_live = |t: &Thread| {
            chans.clone().any(|c| {
                matches!(t.chans[c as usize], Chan::Active)
                    || t.chans[c as usize] == Chan::Wait(ctx.next_off)
            })
        };
        match inst.opcode {
            Opcode::If => {
                let jip = target(b.jip)?;
                for (k, ch) in chans.clone().enumerate() {
                    if self.active(ch) && !preds[k] {
                        self.chans[ch as usize] = Chan::Wait(jip);
                    }
                }
                Ok(if any_live(self) {
                    Next::Fall
                } else {
                    Next::Jump(jip)
                })
            }
            Opcode::Else => {
                let jip = target(b.jip)?;
                for ch in chans.clone() {
                    if self.active(ch) {
                        self.chans[ch as usize] = Chan::Wait(jip);
                    }
                }
                Ok(if any_live(self) {
                    Next::Fall
                } else {
                    Next::Jump(jip)
                })
            }
            Opcode::Endif => {
                let jip = target(b.jip)?;
                Ok(if any_live(self) {
                    Next::Fall
                } else {
                    Next::Jump(jip)
                })
            }
            Opcode::Break | Opcode::Continue | Opcode::Halt => {
                let jip = target(b.jip)?;
                let uip = target(b.uip)?;
                for (k, ch) in chans.clone().enumerate() {
                    if self.active(ch) && preds[k] {
                        self.chans[ch as usize] = if inst.opcode == Opcode::Break {
                            Chan::Break(uip)
                        } else {
                            Chan::Wait(uip)
                        };
                    }
                }
                Ok(if any_live(self) {
                    Next::Fall
                } else {
                    Next::Jump(jip)
                })
            }
            _ => {
                // WHILE
                let jip = target(b.jip)?;
                let mut looping = false;
                for (k, ch) in chans.clone().enumerate() {
                    match self.chans[ch as usize] {
                        Chan::Active if preds[k] => looping = true,
                        Chan::Active => self.chans[ch as usize] = Chan::Wait(ctx.next_off),
                        Chan::Break(t) if t == ctx.off => {
                            self.chans[ch as usize] = Chan::Wait(ctx.next_off)
                        }
                        _ => {}
                    }
                }
                Ok(if looping { Next::Jump(jip) } else { Next::Fall })
            }
        }
    }

    /// The channel whose execution-mask and predicate signals element `i` of `inst` uses.
    /// On Gen8+ (and for `WE_all`, and for instructions writing at most one GRF) that is
    /// simply `base + i`. Pre-Gen8 EUs split a compressed instruction into one part per GRF
    /// written and hand part k the enables of the 8-channel group QtrCtrl+k (4-channel groups,
    /// NibCtrl+k, for a DF execution type on Haswell; Ivy Bridge hands every part the enables
    /// of the first part for DF), whatever the number of channels per GRF (shared/seeds/002).
    /// The group index wraps within the instruction's execution size, so uniform control flow
    /// is unaffected. Returns the channel and whether it differs from the right one.
    fn enable_channel(&self, inst: &Inst, i: u32, dst_span: Option<(u32, u32)>) -> (u32, bool) {
        let base = self.group_base(inst);
        let Some((subnr, stride)) = dst_span else {
            return (base + i, false);
        };
        let k = (subnr + i * stride) / 32;
        if k == 0 {
            return (base + i, false);
        }
        let first = (k * 32 - subnr).div_ceil(stride);
        let j = i - first;
        let df = inst.src.iter().any(|s| s.ty() == RegType::DF);
        let g = if df {
            if self.devinfo.ver == 75 {
                4
            } else {
                0
            }
        } else {
            8
        };
        let n = inst.exec_size as u32;
        let used = if g == 0 { j } else { (k * g + j) % n };
        (base + used, used != i)
    }

    /// `Some((subnr, stride in bytes))` when `inst` is a pre-Gen8 instruction whose
    /// destination spans more than one GRF under the execution mask.
    fn compressed_span(&self, inst: &Inst) -> Option<(u32, u32)> {
        let d = &inst.dst;
        if self.devinfo.ver >= 80 || inst.we_all || d.file != RegFile::Grf || d.indirect.is_some() {
            return None;
        }
        let size = d.ty.size();
        let stride = if inst.access_mode == AccessMode::Align16 {
            size
        } else {
            d.hstride as u32 * size
        };
        if stride == 0 {
            return None;
        }
        let last = d.subnr as u32 + (inst.exec_size as u32 - 1) * stride + size - 1;
        (last >= 32).then_some((d.subnr as u32, stride))
    }

    fn precision(inst: &Inst) -> Precision {
        if inst.src.iter().any(|s| s.ty() == RegType::DF) {
            Precision::Double
        } else if inst.src.iter().any(|s| s.ty().is_float()) {
            Precision::Single
        } else {
            Precision::Int
        }
    }

    fn exec_alu(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), String> {
        use Opcode::*;
        let op = inst.opcode;
        let n = inst.exec_size as u32;
        let base = self.group_base(inst);
        if base + n > 32 {
            return Err(format!(
                "execution size {n} at channel group {base} goes past channel 31"
            ));
        }
        let env = self.float_env();
        let prec = Self::precision(inst);
        let nsrc = match op {
            Mov | Not | F32to16 | F16to32 | Bfrev | Frc | Rndu | Rndd | Rnde | Rndz | Lzd | Fbh
            | Fbl | Cbit => 1,
            Math if inst.math_fn.is_some_and(|f| !f.is_binary()) => 1,
            Csel | Bfe | Bfi2 | Mad | Lrp => 3,
            _ => 2,
        };
        if inst.src.len() < nsrc {
            return Err(format!("`{}` needs {nsrc} sources", op.name()));
        }
        if inst.access_mode == AccessMode::Align16
            && (inst.dst.ty == RegType::DF || inst.src.iter().any(|s| s.ty() == RegType::DF))
        {
            return Err("unsupported: align16 double-precision operands".into());
        }
        // Every source is read before anything is written, as the EU does.
        // Fixed-size storage: no allocation per executed instruction.
        let mut vals = [[Val::Int(0); 32]; 3];
        for (k, s) in inst.src[..nsrc].iter().enumerate() {
            for i in 0..n {
                vals[k][i as usize] = self.read_src(inst, s, i)?;
            }
        }
        let span = self.compressed_span(inst);
        let mut hazard = false;
        let mut affected = false;
        for i in 0..n {
            let (ch, wrong) = self.enable_channel(inst, i, span);
            hazard |= span.is_some() && (wrong || ch != base + i);
            let right_enabled =
                inst.we_all || (self.active(base + i) && self.predicate(inst, base + i)?);
            let exec_on = inst.we_all || self.active(ch);
            let pred_on = self.predicate(inst, ch)?;
            let enabled = exec_on && (pred_on || op == Sel && inst.cond_mod == CondMod::None);
            let enabled_if_right = if op == Sel && inst.cond_mod == CondMod::None {
                inst.we_all || self.active(base + i)
            } else {
                right_enabled
            };
            affected |= enabled != enabled_if_right;
            if !enabled {
                continue;
            }
            let a = vals[0][i as usize];
            let b = vals[1][i as usize];
            let c = vals[2][i as usize];
            let (result, flag) = match op {
                Cmp | Cmpn => {
                    let r = if op == Cmpn && b.f().is_nan() && matches!(b, Val::Float(_)) {
                        true
                    } else if op == Cmpn && a.f().is_nan() && matches!(a, Val::Float(_)) {
                        false
                    } else {
                        alu::compare(inst.cond_mod, a, b).ok_or_else(|| {
                            format!(
                                "unsupported: `{}` with condition {:?}",
                                op.name(),
                                inst.cond_mod
                            )
                        })?
                    };
                    (Val::Int(if r { -1 } else { 0 }), Some(r))
                }
                Sel => {
                    let pick_a = match inst.cond_mod {
                        CondMod::None => pred_on,
                        CondMod::L | CondMod::Ge | CondMod::Le | CondMod::G
                            if a.f().is_nan() || b.f().is_nan() =>
                        {
                            !a.f().is_nan()
                        }
                        cm => alu::compare(cm, a, b)
                            .ok_or_else(|| format!("unsupported: sel with condition {cm:?}"))?,
                    };
                    (if pick_a { a } else { b }, None)
                }
                Addc | Subb => {
                    let (x, y) = (a.i() as u32 as u64, b.i() as u32 as u64);
                    let (v, carry) = if op == Addc {
                        let s = x + y;
                        (s as u32, (s >> 32) as u32)
                    } else {
                        (x.wrapping_sub(y) as u32, (x < y) as u32)
                    };
                    // The carry (borrow) goes to the accumulator, as the PRM specifies.
                    let acc = Loc::Arf(super::thread::arf_base(0x20) + (i * 4) as usize);
                    self.write_raw(acc, 4, carry as u64)?;
                    (Val::Int(v as i128), None)
                }
                Mach => (self.mach(inst, i, a, b)?, None),
                Csel => {
                    let r = alu::compare(inst.cond_mod, c, Val::Float(0.0))
                        .ok_or("csel without a condition")?;
                    (if r { a } else { b }, None)
                }
                _ => (self.alu_value(inst, prec, env, i, &vals, a, b, c)?, None),
            };
            // A MOV whose source and destination types match, without modifiers, is a raw
            // move: the bits are copied, float denormals included (an immediate as much as a
            // register: `mov g126<1>F 0x200000F` keeps the denormal).
            let raw_copy = op == Mov
                && !inst.saturate
                && inst.src[0].ty() == inst.dst.ty
                && !matches!(inst.src[0].as_reg(), Some(r) if r.abs || r.negate);
            if let Some(loc) = self.dst_loc(inst, &inst.dst, i)? {
                if raw_copy {
                    let size = inst.dst.ty.size() as usize;
                    let raw = match (&inst.src[0].as_reg(), inst.src[0].as_imm()) {
                        (Some(s), _) => self.read_src_raw(inst, s, i)?,
                        (None, Some(imm)) => imm.bits,
                        (None, None) => return Err("mov source".into()),
                    };
                    self.write_raw(loc, size, raw)?;
                } else if matches!(op, Cmp | Cmpn) {
                    let bits = if result.i() != 0 { u64::MAX } else { 0 };
                    let size = inst.dst.ty.size() as usize;
                    let bits = if size >= 8 {
                        bits
                    } else {
                        bits & ((1 << (size * 8)) - 1)
                    };
                    self.write_raw(loc, size, bits)?;
                } else {
                    self.write_dst(loc, inst.dst.ty, result, inst.saturate)?;
                }
                if let Some(e) = self.int_acc_element(inst) {
                    // An integer MUL into the accumulator keeps its whole product there.
                    if let Some(slot) = self.acc_full.get_mut(e + i as usize) {
                        *slot = Some(result.i());
                    }
                }
                if inst.acc_wr && inst.dst.file != RegFile::Arf && !matches!(op, Addc | Subb | Mach)
                {
                    let acc =
                        Loc::Arf(super::thread::arf_base(0x20) + (i * inst.dst.ty.size()) as usize);
                    self.write_dst(acc, inst.dst.ty, result, inst.saturate)?;
                }
            }
            if inst.cond_mod != CondMod::None && !matches!(op, Sel | Csel) {
                let f = match flag {
                    Some(f) => f,
                    None => {
                        let env = self.float_env();
                        let written = from_bits(
                            inst.dst.ty,
                            to_bits(inst.dst.ty, result, inst.saturate, env),
                            env,
                        );
                        let zero = if inst.dst.ty.is_float() {
                            Val::Float(0.0)
                        } else {
                            Val::Int(0)
                        };
                        alu::compare(inst.cond_mod, written, zero).ok_or_else(|| {
                            format!("unsupported: conditional modifier {:?}", inst.cond_mod)
                        })?
                    }
                };
                self.set_flag_bit(inst.flag_nr, inst.flag_subnr, base + i, f);
            }
        }
        if hazard && !ctx.reported.contains(&ctx.pc) {
            ctx.reported.push(ctx.pc);
            ctx.res.diagnostics.push(Diagnostic {
                index: ctx.pc,
                offset: ctx.off,
                message: format!(
                    "hazard: compressed `{}` writes several GRFs with {} channels per GRF; \
                     pre-Gen8 EUs apply the execution mask of QtrCtrl+1 (NibCtrl+1 for DF) to \
                     each following GRF write (seed 002){}",
                    op.name(),
                    span.map_or(0, |(_, s)| 32 / s),
                    if affected {
                        ": wrong channel enables were applied in this run"
                    } else {
                        ""
                    }
                ),
            });
        }
        Ok(())
    }

    fn read_src_raw(&self, inst: &Inst, s: &eu::RegSrc, i: u32) -> Result<u64, String> {
        let loc = self.src_loc(inst, s, i)?;
        self.read_raw(loc, s.ty.size() as usize)
    }

    /// Reads the element `extra` elements after element 0 of source `s` (PLN/LINE's plane
    /// coefficients).
    fn coefficient(&self, inst: &Inst, s: &Src, extra: isize) -> Result<Val, String> {
        let r = s.as_reg().ok_or("plane coefficients must be a register")?;
        let loc = self.src_loc(inst, r, 0)?;
        let size = r.ty.size() as usize;
        let loc = match loc {
            Loc::Grf(a) => Loc::Grf((a as isize + extra * size as isize) as usize),
            other => other,
        };
        let raw = self.read_raw(loc, size)?;
        Ok(from_bits(r.ty, raw, self.float_env()))
    }

    #[allow(clippy::too_many_arguments)]
    fn alu_value(
        &self,
        inst: &Inst,
        prec: Precision,
        env: super::value::FloatEnv,
        i: u32,
        vals: &[[Val; 32]; 3],
        a: Val,
        b: Val,
        c: Val,
    ) -> Result<Val, String> {
        use Opcode::*;
        let float = prec != Precision::Int;
        let r = |x: f64| Val::Float(prec.round(x, env));
        let src_bits = |k: usize| inst.src[k].ty().size() * 8;
        Ok(match inst.opcode {
            Mov => a,
            Not => Val::Int(!a.i()),
            And => Val::Int(a.i() & b.i()),
            Or => Val::Int(a.i() | b.i()),
            Xor => Val::Int(a.i() ^ b.i()),
            Shl | Shr | Asr => {
                let bits = src_bits(0).max(32);
                let cnt = (b.i() as u32) & (bits - 1);
                match inst.opcode {
                    Shl => Val::Int(a.i() << cnt),
                    Shr => Val::Int((alu::as_unsigned(a.i(), src_bits(0)) >> cnt) as i128),
                    _ => Val::Int(a.i() >> cnt),
                }
            }
            Add if float => r(a.f() + b.f()),
            Add => Val::Int(a.i() + b.i()),
            Mul if float => r(a.f() * b.f()),
            // Before Gen8 the multiplier is 32x16: into the accumulator only the low word of
            // a dword src1 takes part, and MACH supplies the high word's product (a GRF
            // destination still gets the full low 32 bits).
            Mul if self.devinfo.ver < 80
                && self.int_acc_element(inst).is_some()
                && matches!(inst.src[1].ty(), RegType::D | RegType::UD) =>
            {
                Val::Int(a.i().wrapping_mul(b.i() & 0xffff))
            }
            Mul => Val::Int(a.i().wrapping_mul(b.i())),
            Avg => Val::Int((a.i() + b.i() + 1) >> 1),
            Frc | Rndu | Rndd | Rnde | Rndz => r(alu::round_op(inst.opcode, a.f())),
            Mac => {
                let acc = self.read_acc(inst, i)?;
                if float {
                    r(a.f() * b.f() + acc.f())
                } else {
                    Val::Int(a.i().wrapping_mul(b.i()).wrapping_add(acc.i()))
                }
            }
            Mach => return Err("MACH outside its accumulator model".into()),
            Lzd => Val::Int((a.i() as u32).leading_zeros() as i128),
            Fbh => Val::Int(alu::fbh(a.i(), inst.src[0].ty() == RegType::D)),
            Fbl => Val::Int(alu::fbl(a.i())),
            Cbit => Val::Int((a.i() as u32).count_ones() as i128),
            Bfrev => Val::Int((a.i() as u32).reverse_bits() as i128),
            Bfe => Val::Int(alu::bfe(a.i(), b.i(), c.i(), inst.dst.ty == RegType::D)),
            Bfi1 => Val::Int(alu::bfi1(a.i(), b.i())),
            Bfi2 => Val::Int(alu::bfi2(a.i(), b.i(), c.i())),
            Mad => r(a.f() + b.f() * c.f()),
            Lrp => r(a.f() * b.f() + (1.0 - a.f()) * c.f()),
            F32to16 => Val::Int(f32_to_half(a.f() as f32) as i128),
            F16to32 => Val::Float(half_to_f32(a.i() as u16) as f64),
            Dp4 | Dph | Dp3 | Dp2 => {
                let g = (i - i % 4) as usize;
                let x = |k: usize| vals[0].get(g + k).map_or(0.0, |v| v.f());
                let y = |k: usize| vals[1].get(g + k).map_or(0.0, |v| v.f());
                let s = match inst.opcode {
                    Dp4 => x(0) * y(0) + x(1) * y(1) + x(2) * y(2) + x(3) * y(3),
                    Dph => x(0) * y(0) + x(1) * y(1) + x(2) * y(2) + y(3),
                    Dp3 => x(0) * y(0) + x(1) * y(1) + x(2) * y(2),
                    _ => x(0) * y(0) + x(1) * y(1),
                };
                r(s)
            }
            Line => {
                let p = self.coefficient(inst, &inst.src[0], 0)?;
                let q = self.coefficient(inst, &inst.src[0], 3)?;
                r(p.f() * b.f() + q.f())
            }
            Pln => {
                let p = self.coefficient(inst, &inst.src[0], 0)?;
                let q = self.coefficient(inst, &inst.src[0], 1)?;
                let rr = self.coefficient(inst, &inst.src[0], 3)?;
                // u and v sit in register pairs per 8 channels: u0-7, v0-7, u8-15, v8-15.
                let s1 = inst.src[1].as_reg().ok_or("pln needs a register src1")?;
                if s1.indirect.is_some() || s1.file != RegFile::Grf {
                    return Err("unsupported: pln with an indirect or non-GRF src1".into());
                }
                let at = |extra: u32| {
                    Loc::Grf(
                        (s1.nr as u32 * 32 + s1.subnr as u32 + (i / 8) * 64 + (i % 8) * 4 + extra)
                            as usize,
                    )
                };
                let u = from_bits(s1.ty, self.read_raw(at(0), 4)?, env);
                let v = from_bits(s1.ty, self.read_raw(at(32), 4)?, env);
                r(p.f() * u.f() + q.f() * v.f() + rr.f())
            }
            Math => {
                let f = inst.math_fn.ok_or("math without a function")?;
                if matches!(f, MathFn::IntDivQuotient | MathFn::IntDivRemainder) {
                    Val::Int(alu::int_div(f, a.i(), b.i()).ok_or("integer division")?)
                } else if let Some(v) = alu::math_float(f, a.f(), b.f()) {
                    if float {
                        r(v)
                    } else {
                        return Err(format!("math {} on integer operands", f.name()));
                    }
                } else {
                    return Err(format!("unsupported: math function `{}`", f.name()));
                }
            }
            op => return Err(format!("unsupported: opcode `{}`", op.name())),
        })
    }

    /// The first full-precision accumulator dword an integer MUL writes: `None` for any
    /// other instruction.
    fn int_acc_element(&self, inst: &Inst) -> Option<usize> {
        let d = &inst.dst;
        let acc = d.file == RegFile::Arf && d.nr & 0xf0 == eu::types::arf::ACCUMULATOR;
        (inst.opcode == Opcode::Mul && acc && !d.ty.is_float() && d.indirect.is_none())
            .then(|| (d.nr as usize & 1) * 8 + d.subnr as usize / d.ty.size().max(1) as usize)
    }

    /// MACH, element `i`: adds `a` times the high word of `b` (signed for a D `b`) to the
    /// partial product an integer MUL left in the accumulator and returns the upper 32 bits
    /// of the sum; with AccWrEnable the whole sum stays in the accumulator. The accumulator
    /// is read implicitly, as the quarter control selects it: acc0 for 8 dwords, except on
    /// Ivy Bridge, where a second-quarter MACH reaches acc1, which holds no integers there
    /// (undefined; Haswell and later use acc0).
    fn mach(&mut self, inst: &Inst, i: u32, a: Val, b: Val) -> Result<Val, String> {
        let ty = inst.dst.ty;
        if ty.is_float() || ty.size() != 4 {
            return Err(format!(
                "unsupported: mach with a {} destination",
                ty.letters()
            ));
        }
        if inst.exec_size > 8 {
            return Err(format!(
                "mach({}): the accumulator holds 8 dwords at full precision",
                inst.exec_size
            ));
        }
        if self.devinfo.ver == 70 && inst.qtr_ctrl != 0 {
            return Err(
                "mach with quarter control past 1Q on Ivy Bridge reads acc1, which holds no \
                 integers (undefined)"
                    .into(),
            );
        }
        let e = i as usize;
        let acc = self.acc_full[e].ok_or_else(|| {
            // The hardware reads whatever the accumulator holds; the model keeps only the
            // products integer MULs leave there, so anything else is not modelled.
            format!(
                "unsupported: mach reads accumulator dword {e}, which holds no integer MUL's \
                 partial product"
            )
        })?;
        let full = acc.wrapping_add(a.i().wrapping_mul(b.i() >> 16) << 16);
        if inst.acc_wr {
            let loc = Loc::Arf(super::thread::arf_base(0x20) + e * 4);
            self.write_raw(loc, 4, full as u32 as u64)?;
            self.acc_full[e] = Some(full);
        }
        Ok(Val::Int(full >> 32))
    }

    fn read_acc(&self, inst: &Inst, i: u32) -> Result<Val, String> {
        let ty = inst.dst.ty;
        let loc = Loc::Arf(super::thread::arf_base(0x20) + (i * ty.size()) as usize);
        Ok(from_bits(
            ty,
            self.read_raw(loc, ty.size() as usize)?,
            self.float_env(),
        ))
    }
}

/// Whether `target` is the end of the program (a label after the last instruction, which
/// may be native or compacted).
fn is_end(offsets: &[usize], target: usize) -> bool {
    offsets
        .last()
        .is_some_and(|&l| target == l + INST_SIZE || target == l + INST_SIZE / 2)
}

/// Per-instruction context of the fetch loop.
pub(super) struct Ctx<'a> {
    pub pc: usize,
    pub off: usize,
    pub next_off: usize,
    pub res: &'a mut RunResult,
    pub reported: &'a mut Vec<usize>,
    /// Channels that were waiting for this instruction (bit n = channel n).
    pub woken: u32,
}
