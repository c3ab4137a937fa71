//! What an EU instruction reads and writes, as the dependency slots the estimator tracks.
//!
//! The slots follow Mesa's performance model: one per GRF, one per Gen4-6 MRF, the address
//! register, the accumulators (per GRF-sized half) and the flag registers (per byte, i.e. per
//! 8 channels of a flag subregister). Register footprints are computed from the encoded
//! regions, which is what Mesa's `regs_read()`/`regs_written()` amount to after register
//! allocation.

use crate::intel::eu::types::{arf, AccessMode, CondMod, Opcode, RegFile, RegType};
use crate::intel::eu::{Inst, Src};
use crate::intel::msg::{self, Lengths};

use super::timing::Sizes;

/// Dependency slot layout.
pub(super) const GRF0: usize = 0;
pub(super) const MRF0: usize = GRF0 + 128;
pub(super) const ADDR0: usize = MRF0 + 24;
pub(super) const ACC0: usize = ADDR0 + 1;
pub(super) const FLAG0: usize = ACC0 + 12;
pub(super) const SLOTS: usize = FLAG0 + 8;

/// A contiguous run of slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Span {
    pub first: usize,
    pub count: usize,
}

impl Span {
    fn new(first: usize, count: usize) -> Span {
        // Registers past the end of their file (malformed input) are not tracked.
        let end = (first + count).min(SLOTS);
        Span {
            first: first.min(SLOTS),
            count: end.saturating_sub(first.min(SLOTS)),
        }
    }

    pub fn slots(self) -> std::ops::Range<usize> {
        self.first..self.first + self.count
    }
}

/// Everything about an instruction the estimator needs besides its opcode.
#[derive(Debug)]
pub(super) struct Footprint {
    /// Slots read by the sources (register regions, accumulator, MRF payload, flags).
    pub reads: Vec<Span>,
    /// Slots written (destination, reply, accumulator, flags), split by latency class.
    pub writes_grf: Vec<Span>,
    pub writes_acc: Vec<Span>,
    pub writes_flag: Vec<Span>,
    /// Message payload slots, busy until the payload has been read.
    pub payload: Vec<Span>,
    /// The sizes the timings scale with.
    pub sizes: Sizes,
    /// The execution type.
    pub exec_ty: RegType,
    /// The message descriptor (0 when not a SEND or when indirect).
    pub desc: u32,
}

const GRF_BYTES: u32 = 32;

/// Mesa's execution type: the largest source type (floats win ties), byte types counting as
/// words and the packed-vector immediates as their element types; the destination type when
/// no source has one.
fn exec_type(inst: &Inst) -> RegType {
    let norm = |t: RegType| match t {
        RegType::B => RegType::W,
        RegType::UB | RegType::UV => RegType::UW,
        RegType::V => RegType::W,
        RegType::VF => RegType::F,
        t => t,
    };
    let sources: &[Src] = if inst.opcode.is_send() {
        // The descriptors are control sources.
        &inst.src[..inst.src.len().min(1)]
    } else {
        &inst.src
    };
    let mut best: Option<RegType> = None;
    for s in sources {
        if let Src::Reg(r) = s {
            if r.file == RegFile::Arf && r.nr == arf::NULL {
                continue;
            }
        }
        let t = norm(s.ty());
        best = match best {
            None => Some(t),
            Some(b) if t.size() > b.size() || (t.size() == b.size() && t.is_float()) => Some(t),
            b => b,
        };
    }
    let t = best.unwrap_or(norm(inst.dst.ty));
    if t == RegType::HF || inst.dst.ty == RegType::HF {
        RegType::F
    } else {
        t
    }
}

/// The first channel of the instruction within its SIMD32 dispatch.
fn group(inst: &Inst, ver: u32) -> u32 {
    if ver < 60 {
        // Gen4/5 compression control: only sechalf (1) moves the group.
        return if inst.qtr_ctrl == 1 { 8 } else { 0 };
    }
    inst.qtr_ctrl as u32 * 8 + if inst.nib_ctrl { 4 } else { 0 }
}

/// Flag bytes covered by the instruction's channels in its flag subregister.
fn flag_span(inst: &Inst, ver: u32) -> Span {
    let sub = inst.flag_nr as u32 * 2 + inst.flag_subnr as u32;
    let start = sub * 16 + group(inst, ver);
    let end = start + inst.exec_size.max(1) as u32;
    let first = start / 8;
    let last = end.div_ceil(8);
    Span::new(FLAG0 + first as usize, (last - first) as usize)
}

/// Bytes a source region covers from its first byte.
fn region_bytes(inst: &Inst, r: &crate::intel::eu::RegSrc) -> u32 {
    let t = r.ty.size();
    let exec = inst.exec_size.max(1) as u32;
    if inst.access_mode == AccessMode::Align16 {
        // A zero vertical stride is a replicated scalar (3-source) or one 16-byte-aligned
        // vec4: either way within one register, which is all the footprint needs.
        return if r.region.vstride == 0 { t } else { exec * t };
    }
    let reg = r.region;
    if reg.vstride == crate::intel::eu::Region::VXH {
        return exec * t;
    }
    let w = (reg.width.max(1) as u32).min(exec);
    let rows = exec.div_ceil(w).max(1);
    ((rows - 1) * reg.vstride as u32 + (w - 1) * reg.hstride as u32 + 1) * t
}

/// The slots an operand in `file` at register `nr`, byte `subnr`, covering `bytes` occupies,
/// or `None` for registers the model does not track (null, state, immediates).
fn operand_span(file: RegFile, nr: u8, subnr: u8, bytes: u32) -> Option<Span> {
    let regs = (subnr as u32 + bytes.max(1)).div_ceil(GRF_BYTES) as usize;
    match file {
        RegFile::Grf => Some(Span::new(GRF0 + nr as usize, regs)),
        RegFile::Mrf => Some(Span::new(MRF0 + (nr & 0x0f) as usize, regs)),
        RegFile::Arf => match nr & 0xf0 {
            arf::ADDRESS => Some(Span::new(ADDR0, 1)),
            arf::ACCUMULATOR => Some(Span::new(ACC0 + (nr & 0x0f) as usize, regs)),
            arf::FLAG => {
                let first = (nr & 0x0f) as u32 * 4 + subnr as u32;
                let last = (first + bytes.max(1)).min(8);
                Some(Span::new(
                    FLAG0 + first as usize,
                    last.saturating_sub(first) as usize,
                ))
            }
            _ => None,
        },
        RegFile::Imm => None,
    }
}

/// Register bank of a GRF for 3-source operand fetch (Mesa's `bank_of`).
fn bank(nr: u8) -> u8 {
    ((nr & 0x40) >> 5) | (nr & 1)
}

impl Footprint {
    /// A footprint of nothing, to [`compute`](Self::compute) into.
    pub fn empty() -> Footprint {
        Footprint {
            reads: Vec::new(),
            writes_grf: Vec::new(),
            writes_acc: Vec::new(),
            writes_flag: Vec::new(),
            payload: Vec::new(),
            sizes: Sizes::default(),
            exec_ty: RegType::UD,
            desc: 0,
        }
    }

    /// Computes the footprint of `inst` on generation `ver` (×10) into `self`, reusing its
    /// lists' storage: the estimator asks for the footprint of every instruction it issues.
    pub fn compute(&mut self, inst: &Inst, ver: u32) {
        self.reads.clear();
        self.writes_grf.clear();
        self.writes_acc.clear();
        self.writes_flag.clear();
        self.payload.clear();
        self.sizes = Sizes::default();
        self.exec_ty = exec_type(inst);
        self.desc = 0;
        let f = self;
        let exec = inst.exec_size.max(1) as u32;
        f.sizes.sx = (exec * f.exec_ty.size()).div_ceil(GRF_BYTES) as i64;

        if inst.opcode.is_send() {
            f.send(inst, ver);
        } else {
            f.alu(inst, ver, exec);
        }

        if inst.pred.is_some() {
            f.reads.push(flag_span(inst, ver));
        }
        let writes_flag = inst.cond_mod != CondMod::None
            && !matches!(
                inst.opcode,
                Opcode::Sel | Opcode::Csel | Opcode::If | Opcode::While
            );
        if writes_flag {
            f.writes_flag.push(flag_span(inst, ver));
        }
    }

    fn alu(&mut self, inst: &Inst, ver: u32, exec: u32) {
        for s in &inst.src {
            let Src::Reg(r) = s else { continue };
            if r.indirect.is_some() {
                self.reads.push(Span::new(ADDR0, 1));
                continue;
            }
            if let Some(sp) = operand_span(r.file, r.nr, r.subnr, region_bytes(inst, r)) {
                self.reads.push(sp);
            }
        }
        // Implicit accumulator use: MAC, MACH and SADA2 accumulate; AccWrEnable writes it.
        let acc_regs = {
            let wide = ver >= 70 && !self.exec_ty.is_float();
            let per = self.exec_ty.size() * if wide { 2 } else { 1 };
            let first = group(inst, ver) * per / GRF_BYTES % 2;
            let last = (group(inst, ver) + exec - 1) * per / GRF_BYTES % 2;
            Span::new(
                ACC0 + first as usize,
                (last.max(first) - first + 1) as usize,
            )
        };
        if matches!(inst.opcode, Opcode::Mac | Opcode::Mach | Opcode::Sada2) {
            self.reads.push(acc_regs);
        }
        let branch_ctrl = ver >= 80 && inst.opcode.is_flow();
        if inst.acc_wr && !branch_ctrl && ver >= 60 {
            self.writes_acc.push(acc_regs);
        }

        let d = &inst.dst;
        let dst_bytes = if inst.access_mode == AccessMode::Align16 {
            exec * d.ty.size()
        } else {
            (exec * d.hstride as u32).max(1) * d.ty.size()
        };
        self.sizes.sd = dst_bytes.div_ceil(GRF_BYTES) as i64;
        if !inst.opcode.is_flow() {
            if d.indirect.is_some() {
                self.reads.push(Span::new(ADDR0, 1));
            } else if let Some(sp) = operand_span(d.file, d.nr, d.subnr, dst_bytes) {
                if d.file == RegFile::Arf && d.nr & 0xf0 == arf::ACCUMULATOR {
                    self.writes_acc.push(sp);
                } else if d.file == RegFile::Arf && d.nr & 0xf0 == arf::FLAG {
                    self.writes_flag.push(sp);
                } else {
                    self.writes_grf.push(sp);
                }
            }
        }
        self.sizes.ss = inst
            .src
            .iter()
            .filter_map(|s| s.as_reg().map(|r| r.subnr as u32 + region_bytes(inst, r)))
            .map(|b| b.div_ceil(GRF_BYTES) as i64)
            .max()
            .unwrap_or(1);

        // A 3-source instruction whose second and third sources share a bank reads them in
        // two cycles; Gen9 hides it when two of the three sources are the same register.
        if inst.opcode.is_three_src() && inst.src.len() == 3 {
            if let (Some(a), Some(b), Some(c)) = (
                inst.src[0].as_reg(),
                inst.src[1].as_reg(),
                inst.src[2].as_reg(),
            ) {
                let grf = |r: &crate::intel::eu::RegSrc| r.file == RegFile::Grf;
                if grf(b) && grf(c) && bank(b.nr) == bank(c.nr) {
                    let optimized =
                        ver >= 90 && ((grf(a) && (a.nr == b.nr || a.nr == c.nr)) || b.nr == c.nr);
                    if !optimized {
                        self.sizes.sc = self.sizes.sd;
                    }
                }
            }
        }
        // 32x32-bit integer multiplication runs at half rate: Mesa prices it as 64-bit.
        if matches!(inst.opcode, Opcode::Mul | Opcode::Mad)
            && !self.exec_ty.is_float()
            && self.exec_ty.size() == 4
            && inst.src.len() >= 2
            && inst.src[0].ty().size() == inst.src[1].ty().size()
        {
            self.exec_ty = if self.exec_ty.is_signed() {
                RegType::Q
            } else {
                RegType::UQ
            };
        }
    }

    fn send(&mut self, inst: &Inst, ver: u32) {
        let split = matches!(inst.opcode, Opcode::Sends | Opcode::Sendsc);
        let desc_src = inst.src.get(if split { 2 } else { 1 });
        self.desc = desc_src
            .and_then(|s| s.as_imm())
            .map_or(0, |i| i.bits as u32);
        let desc = self.desc;
        let Lengths { mlen, rlen, .. } = Lengths::decode(ver, desc);
        // Gen9 split sends carry the second payload's length in the extended descriptor.
        let ex_mlen = match inst.src.get(3).and_then(|s| s.as_imm()) {
            Some(ex) if split => msg::ex_mlen(ex.bits as u32),
            _ => 0,
        };
        self.sizes.ss = (mlen + ex_mlen) as i64;
        self.sizes.sd = rlen as i64;

        if ver < 70 {
            if let Some(m) = inst.msg {
                let sp = Span::new(MRF0 + (m.base_mrf & 0x0f) as usize, mlen as usize);
                self.reads.push(sp);
                self.payload.push(sp);
            }
            // The implied header move reads src0 as well.
            if let Some(Src::Reg(r)) = inst.src.first() {
                if let Some(sp) = operand_span(r.file, r.nr, r.subnr, GRF_BYTES) {
                    self.reads.push(sp);
                }
            }
        } else {
            let mut payload = |s: Option<&Src>, len: u32| {
                if let Some(Src::Reg(r)) = s {
                    if r.file == RegFile::Grf && len > 0 {
                        let sp = Span::new(GRF0 + r.nr as usize, len as usize);
                        self.reads.push(sp);
                        self.payload.push(sp);
                    }
                }
            };
            payload(inst.src.first(), mlen);
            if split {
                payload(inst.src.get(1), ex_mlen);
            }
        }
        // An indirect descriptor is read from a0.
        if desc_src.is_some_and(|s| s.as_reg().is_some()) {
            self.reads.push(Span::new(ADDR0, 1));
        }
        let d = &inst.dst;
        if rlen > 0 {
            if let Some(sp) = operand_span(d.file, d.nr, 0, rlen * GRF_BYTES) {
                self.writes_grf.push(sp);
            }
        }
    }
}
