//! The native 128-bit instruction format of Gen4–Gen9: encoder and decoder.
//!
//! Bit positions follow Mesa's `brw_inst.h`. Gen8 moved the register files and types into the
//! second dword and widened them; everything else keeps its place from Gen4 on. Flow-control
//! jump fields and the SEND descriptor overlay operand fields: the encoder writes the operands
//! first and the overlay last, and the decoder clears the overlay before reading operands, so
//! the two stay exact inverses.

use super::inst::{Branch, Dst, Imm, Indirect, Inst, Message, Predicate, RegSrc, Region, Src};
use super::types::{AccessMode, CondMod, MathFn, Opcode, RegFile, RegType, ThreadCtrl};
use super::EuError;
use crate::intel::DevInfo;

/// A 128-bit instruction word with Mesa's bit numbering (bit 0 = LSB of byte 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Word(pub u128);

impl Word {
    pub(crate) fn get(&self, hi: u32, lo: u32) -> u64 {
        let n = hi - lo + 1;
        ((self.0 >> lo) & ((1u128 << n) - 1)) as u64
    }

    pub(crate) fn set(&mut self, hi: u32, lo: u32, v: u64) {
        let n = hi - lo + 1;
        let mask = ((1u128 << n) - 1) << lo;
        self.0 = (self.0 & !mask) | (((v as u128) << lo) & mask);
    }

    pub(crate) fn from_bytes(b: &[u8; 16]) -> Word {
        Word(u128::from_le_bytes(*b))
    }

    pub(crate) fn to_bytes(self) -> [u8; 16] {
        self.0.to_le_bytes()
    }
}

/// Bytes per unit of a jump field on `ver` (Mesa's `16 / brw_jump_scale`).
pub fn jump_unit(ver: u32) -> i32 {
    if ver >= 80 {
        1
    } else if ver >= 50 {
        8
    } else {
        16
    }
}

/// Where the jump fields of `op` live on `ver`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JumpLayout {
    /// No jump fields.
    None,
    /// Gen4/5: jump count in 96–111, pop count in 112–115.
    Gen4,
    /// Gen6 IF/ELSE/ENDIF/WHILE: jump count in the destination, 48–63.
    Gen6Dst,
    /// Gen6/7: JIP 96–111, UIP 112–127.
    Gen6,
    /// Gen8+: JIP 96–127, UIP 64–95.
    Gen8,
}

pub(crate) fn jump_layout(ver: u32, op: Opcode) -> JumpLayout {
    use Opcode::*;
    let flow = matches!(
        op,
        If | Iff | Else | Endif | While | Break | Continue | Halt
    );
    if !flow {
        return JumpLayout::None;
    }
    if ver < 60 {
        JumpLayout::Gen4
    } else if ver < 70 {
        if matches!(op, If | Else | Endif | While) {
            JumpLayout::Gen6Dst
        } else {
            JumpLayout::Gen6
        }
    } else if ver < 80 {
        JumpLayout::Gen6
    } else {
        JumpLayout::Gen8
    }
}

/// Gen7+ has JIP; these opcodes also have UIP (Mesa's `brw_has_uip`).
pub fn has_uip(ver: u32, op: Opcode) -> bool {
    ver >= 60
        && ((ver >= 70 && op == Opcode::If)
            || (ver >= 80 && op == Opcode::Else)
            || matches!(op, Opcode::Break | Opcode::Continue | Opcode::Halt))
}

/// Mesa's `brw_has_jip`.
pub fn has_jip(ver: u32, op: Opcode) -> bool {
    ver >= 60
        && matches!(
            op,
            Opcode::If
                | Opcode::Else
                | Opcode::Endif
                | Opcode::While
                | Opcode::Break
                | Opcode::Continue
                | Opcode::Halt
        )
}

struct Layout {
    ver: u32,
}

impl Layout {
    fn gen8(&self) -> bool {
        self.ver >= 80
    }
    fn mask_ctrl(&self) -> (u32, u32) {
        if self.gen8() {
            (34, 34)
        } else {
            (9, 9)
        }
    }
    fn no_dd_clear(&self) -> (u32, u32) {
        if self.gen8() {
            (9, 9)
        } else {
            (10, 10)
        }
    }
    fn no_dd_check(&self) -> (u32, u32) {
        if self.gen8() {
            (10, 10)
        } else {
            (11, 11)
        }
    }
    fn nib_ctrl(&self) -> Option<(u32, u32)> {
        if self.gen8() {
            Some((11, 11))
        } else if self.ver >= 70 {
            Some((47, 47))
        } else {
            None
        }
    }
    fn flag_subnr(&self, three: bool) -> (u32, u32) {
        match (self.gen8(), three) {
            (true, _) => (32, 32),
            (false, true) => (33, 33),
            (false, false) => (89, 89),
        }
    }
    fn flag_nr(&self, three: bool) -> Option<(u32, u32)> {
        match (self.ver, three) {
            (v, _) if v >= 80 => Some((33, 33)),
            (v, true) if v >= 70 => Some((34, 34)),
            (v, false) if v >= 70 => Some((90, 90)),
            _ => None,
        }
    }
    fn dst_file(&self) -> (u32, u32) {
        if self.gen8() {
            (36, 35)
        } else {
            (33, 32)
        }
    }
    fn dst_type(&self) -> (u32, u32) {
        if self.gen8() {
            (40, 37)
        } else {
            (36, 34)
        }
    }
    fn src_file(&self, i: usize) -> (u32, u32) {
        match (self.gen8(), i) {
            (true, 0) => (42, 41),
            (true, _) => (90, 89),
            (false, 0) => (38, 37),
            (false, _) => (43, 42),
        }
    }
    fn src_type(&self, i: usize) -> (u32, u32) {
        match (self.gen8(), i) {
            (true, 0) => (46, 43),
            (true, _) => (94, 91),
            (false, 0) => (41, 39),
            (false, _) => (46, 44),
        }
    }
}

fn err(msg: impl Into<String>) -> EuError {
    EuError::new(msg)
}

fn exec_size_hw(n: u8) -> Result<u64, EuError> {
    Ok(match n {
        1 => 0,
        2 => 1,
        4 => 2,
        8 => 3,
        16 => 4,
        32 => 5,
        _ => return Err(err(format!("invalid execution size {n}"))),
    })
}

fn reg_type_hw(ver: u32, file: RegFile, ty: RegType) -> Result<u64, EuError> {
    let v = if file == RegFile::Imm {
        ty.imm_hw(ver)
    } else {
        ty.reg_hw(ver)
    };
    v.ok_or_else(|| {
        err(format!(
            "type {} is not available for {} operands on this generation",
            ty,
            if file == RegFile::Imm {
                "immediate"
            } else {
                "register"
            }
        ))
    })
}

/// Encodes one instruction into its native 16 bytes.
pub fn encode(devinfo: &DevInfo, inst: &Inst) -> Result<[u8; 16], EuError> {
    let ver = devinfo.ver;
    let op = inst.opcode;
    if !op.exists_on(ver) {
        return Err(err(format!(
            "opcode {} does not exist on {}",
            op.name(),
            devinfo.name
        )));
    }
    let l = Layout { ver };
    let three = op.is_three_src();
    let mut w = Word::default();
    w.set(6, 0, op.desc().hw as u64);
    w.set(8, 8, (inst.access_mode == AccessMode::Align16) as u64);
    let (h, lo) = l.mask_ctrl();
    w.set(h, lo, inst.we_all as u64);
    let (h, lo) = l.no_dd_clear();
    w.set(h, lo, inst.no_dd_clear as u64);
    let (h, lo) = l.no_dd_check();
    w.set(h, lo, inst.no_dd_check as u64);
    if inst.qtr_ctrl > 3 {
        return Err(err(format!(
            "quarter control {} out of range",
            inst.qtr_ctrl
        )));
    }
    w.set(13, 12, inst.qtr_ctrl as u64);
    match l.nib_ctrl() {
        Some((h, lo)) => w.set(h, lo, inst.nib_ctrl as u64),
        None if inst.nib_ctrl => return Err(err("nibble control needs Gen7 or later")),
        None => {}
    }
    w.set(15, 14, inst.thread_ctrl.hw());
    if let Some(p) = inst.pred {
        if p.control == 0 || p.control > 15 {
            return Err(err(format!("invalid predicate control {}", p.control)));
        }
        w.set(19, 16, p.control as u64);
        w.set(20, 20, p.inverse as u64);
    }
    w.set(23, 21, exec_size_hw(inst.exec_size)?);
    // Bits 24-27 hold the conditional modifier, or the math function (Gen6+ MATH), the SFID
    // (Gen6+ SEND) or the base MRF (Gen4/5 SEND).
    let field24 = if op == Opcode::Math {
        inst.math_fn
            .ok_or_else(|| err("math instruction without a function"))?
            .hw() as u64
    } else if op.is_send() {
        let m = inst
            .msg
            .ok_or_else(|| err("send without message information"))?;
        if ver >= 60 {
            m.sfid as u64
        } else {
            m.base_mrf as u64
        }
    } else {
        inst.cond_mod.hw() as u64
    };
    if field24 > 15 {
        return Err(err("base MRF or SFID out of range"));
    }
    w.set(27, 24, field24);
    w.set(28, 28, inst.acc_wr as u64);
    w.set(30, 30, inst.debug as u64);
    w.set(31, 31, inst.saturate as u64);
    if op == Opcode::Dim
        && (inst.flag_nr | inst.flag_subnr) != 0
        && inst.src.first().is_some_and(|s| s.as_imm().is_some())
    {
        return Err(err(
            "DIM's 64-bit immediate leaves no room for a flag register",
        ));
    }
    if inst.flag_nr > 1 || inst.flag_subnr > 1 {
        return Err(err("flag register must be f0.0 … f1.1"));
    }
    let (h, lo) = l.flag_subnr(three);
    w.set(h, lo, inst.flag_subnr as u64);
    match l.flag_nr(three) {
        Some((h, lo)) => w.set(h, lo, inst.flag_nr as u64),
        None if inst.flag_nr != 0 => return Err(err("flag register f1 needs Gen7 or later")),
        None => {}
    }

    if three {
        encode_three_src(&l, inst, &mut w)?;
    } else if matches!(op, Opcode::Sends | Opcode::Sendsc) {
        encode_split_send(inst, &mut w)?;
    } else {
        encode_two_src(&l, inst, &mut w)?;
    }

    if ver >= 90 && matches!(op, Opcode::Send | Opcode::Sendc) {
        let ex = inst.msg.map_or(0, |m| m.ex_desc) as u64;
        if ex & 0xffff != 0 {
            return Err(err("SEND extended descriptor bits 15:0 must be zero"));
        }
        if ex != 0 {
            w.set(94, 91, ex >> 28);
            w.set(88, 85, (ex >> 24) & 0xf);
            w.set(83, 80, (ex >> 20) & 0xf);
            w.set(67, 64, (ex >> 16) & 0xf);
        }
    } else if inst.msg.is_some_and(|m| m.ex_desc != 0) {
        return Err(err("an extended descriptor needs a Gen9 SEND"));
    }

    if op.is_send() {
        let m = inst.msg.unwrap_or_default();
        if m.sfid > 15 {
            return Err(err("SFID out of range"));
        }
        if ver < 50 {
            w.set(123, 120, m.sfid as u64);
        } else if ver < 60 {
            w.set(95, 92, m.sfid as u64);
        }
        w.set(127, 127, inst.eot as u64);
    } else if inst.eot {
        return Err(err("EOT is only valid on send instructions"));
    }

    encode_jumps(ver, inst, &mut w)?;
    Ok(w.to_bytes())
}

fn encode_jumps(ver: u32, inst: &Inst, w: &mut Word) -> Result<(), EuError> {
    let layout = jump_layout(ver, inst.opcode);
    let b = match (layout, inst.branch) {
        (JumpLayout::None, None) => return Ok(()),
        (JumpLayout::None, Some(_)) => return Err(err("jump targets on a non-branch instruction")),
        (_, None) => return Err(err(format!("{} needs jump targets", inst.opcode.name()))),
        (_, Some(b)) => b,
    };
    let unit = jump_unit(ver);
    let scale = |bytes: i32, bits: u32| -> Result<u64, EuError> {
        if bytes % unit != 0 {
            return Err(err(format!(
                "jump distance {bytes} is not a multiple of {unit} bytes"
            )));
        }
        let v = bytes / unit;
        let lim = 1i64 << (bits - 1);
        if (v as i64) < -lim || (v as i64) >= lim {
            return Err(err(format!(
                "jump distance {bytes} does not fit in {bits} bits"
            )));
        }
        Ok((v as i64 as u64) & ((1u64 << bits) - 1))
    };
    match layout {
        JumpLayout::None => {}
        JumpLayout::Gen4 => {
            w.set(111, 96, scale(b.jip, 16)?);
            if b.pop > 15 {
                return Err(err("pop count out of range"));
            }
            w.set(115, 112, b.pop as u64);
            if b.uip != 0 {
                return Err(err("UIP does not exist before Gen6"));
            }
        }
        JumpLayout::Gen6Dst => {
            w.set(63, 48, scale(b.jip, 16)?);
            if b.uip != 0 || b.pop != 0 {
                return Err(err("this Gen6 instruction has only a jump count"));
            }
        }
        JumpLayout::Gen6 => {
            w.set(111, 96, scale(b.jip, 16)?);
            w.set(127, 112, scale(b.uip, 16)?);
        }
        JumpLayout::Gen8 => {
            w.set(127, 96, scale(b.jip, 32)?);
            if has_uip(ver, inst.opcode) {
                w.set(95, 64, scale(b.uip, 32)?);
            } else if b.uip != 0 {
                return Err(err(format!("{} has no UIP", inst.opcode.name())));
            }
        }
    }
    if layout != JumpLayout::Gen4 && b.pop != 0 {
        return Err(err("pop count exists only before Gen6"));
    }
    Ok(())
}

fn check_reg_nr(file: RegFile, nr: u8) -> Result<(), EuError> {
    if file == RegFile::Grf && nr >= 128 {
        return Err(err(format!("g{nr} is beyond the 128 general registers")));
    }
    Ok(())
}

fn encode_dst(l: &Layout, inst: &Inst, w: &mut Word) -> Result<(), EuError> {
    let d = &inst.dst;
    let (h, lo) = l.dst_file();
    w.set(h, lo, d.file.hw());
    let (h, lo) = l.dst_type();
    w.set(h, lo, reg_type_hw(l.ver, d.file, d.ty)?);
    check_reg_nr(d.file, d.nr)?;
    let align16 = inst.access_mode == AccessMode::Align16;
    match d.indirect {
        None => {
            w.set(63, 63, 0);
            w.set(60, 53, d.nr as u64);
            if align16 {
                if d.subnr % 16 != 0 {
                    return Err(err(
                        "align16 destination subregister must be 16-byte aligned",
                    ));
                }
                w.set(52, 52, (d.subnr / 16) as u64);
                w.set(51, 48, d.writemask as u64 & 0xf);
            } else {
                if d.subnr >= 32 {
                    return Err(err("destination subregister beyond 32 bytes"));
                }
                w.set(52, 48, d.subnr as u64);
            }
        }
        Some(ind) => {
            w.set(63, 63, 1);
            encode_indirect(l, w, ind, align16, 48, if l.gen8() { 47 } else { 0 })?;
            if align16 {
                w.set(51, 48, d.writemask as u64 & 0xf);
            }
        }
    }
    w.set(
        62,
        61,
        Region::hstride_hw(d.hstride).ok_or_else(|| err("invalid destination stride"))?,
    );
    Ok(())
}

/// Writes indirect address fields of an operand whose field block starts at bit `base`
/// (48 for dst, 64 for src0, 96 for src1); `bit9` is the Gen8 position of offset bit 9.
fn encode_indirect(
    l: &Layout,
    w: &mut Word,
    ind: Indirect,
    align16: bool,
    base: u32,
    bit9: u32,
) -> Result<(), EuError> {
    let off = ind.offset as i32;
    if !(-512..512).contains(&off) {
        return Err(err(format!("indirect offset {off} out of range")));
    }
    if align16 && off % 16 != 0 {
        return Err(err(format!(
            "align16 indirect offset {off} is not a multiple of 16"
        )));
    }
    let v = (off as u32 & 0x3ff) as u64;
    if l.gen8() {
        if ind.addr_subnr > 15 {
            return Err(err("address subregister out of range"));
        }
        w.set(base + 12, base + 9, ind.addr_subnr as u64);
        if align16 {
            w.set(base + 8, base + 4, (v >> 4) & 0x1f);
        } else {
            w.set(base + 8, base, v & 0x1ff);
        }
        w.set(bit9, bit9, v >> 9);
    } else {
        if ind.addr_subnr > 7 {
            return Err(err("address subregister out of range"));
        }
        w.set(base + 12, base + 10, ind.addr_subnr as u64);
        if align16 {
            w.set(base + 9, base + 4, v >> 4);
        } else {
            w.set(base + 9, base, v);
        }
    }
    Ok(())
}

fn decode_indirect(l: &Layout, w: &Word, align16: bool, base: u32, bit9: u32) -> Indirect {
    let (sub, raw) = if l.gen8() {
        let low = if align16 {
            w.get(base + 8, base + 4) << 4
        } else {
            w.get(base + 8, base)
        };
        (w.get(base + 12, base + 9), low | (w.get(bit9, bit9) << 9))
    } else {
        let raw = if align16 {
            w.get(base + 9, base + 4) << 4
        } else {
            w.get(base + 9, base)
        };
        (w.get(base + 12, base + 10), raw)
    };
    let off = ((raw as i32) << 22) >> 22;
    Indirect {
        addr_subnr: sub as u8,
        offset: off as i16,
    }
}

fn encode_src(l: &Layout, inst: &Inst, i: usize, s: &Src, w: &mut Word) -> Result<(), EuError> {
    let base = if i == 0 { 64 } else { 96 };
    let (fh, fl) = l.src_file(i);
    let (th, tl) = l.src_type(i);
    w.set(fh, fl, s.file().hw());
    w.set(th, tl, reg_type_hw(l.ver, s.file(), s.ty())?);
    match s {
        Src::Imm(imm) => {
            if imm.ty.size() == 8 || inst.opcode == Opcode::Dim {
                if i != 0 {
                    return Err(err("64-bit immediates must be source 0"));
                }
                w.set(127, 64, imm.bits);
            } else {
                if imm.bits >> 32 != 0 {
                    return Err(err("immediate does not fit in 32 bits"));
                }
                w.set(127, 96, imm.bits);
            }
            // The PRM's "Non-present Operands" rule: an absent src1 after an immediate src0
            // is an ARF of src0's type. It follows the type's size, not the immediate's: HSW's
            // DIM carries 64 bits typed F, so it mirrors F (its src1 fields lie in dword 1,
            // clear of the immediate); a 64-bit type's src1 fields would overlap the immediate.
            if i == 0 && inst.src.len() < 2 && imm.ty.size() < 8 {
                let (fh, fl) = l.src_file(1);
                let (th, tl) = l.src_type(1);
                w.set(fh, fl, RegFile::Arf.hw());
                w.set(th, tl, reg_type_hw(l.ver, RegFile::Imm, imm.ty)?);
            }
        }
        Src::Reg(r) => {
            check_reg_nr(r.file, r.nr)?;
            let align16 = inst.access_mode == AccessMode::Align16;
            w.set(base + 13, base + 13, r.abs as u64);
            w.set(base + 14, base + 14, r.negate as u64);
            match r.indirect {
                None => {
                    w.set(base + 12, base + 5, r.nr as u64);
                    if align16 {
                        if r.subnr % 16 != 0 {
                            return Err(err("align16 source subregister must be 16-byte aligned"));
                        }
                        w.set(base + 4, base + 4, (r.subnr / 16) as u64);
                    } else {
                        if r.subnr >= 32 {
                            return Err(err("source subregister beyond 32 bytes"));
                        }
                        w.set(base + 4, base, r.subnr as u64);
                    }
                }
                Some(ind) => {
                    w.set(base + 15, base + 15, 1);
                    let bit9 = if i == 0 { 95 } else { 121 };
                    encode_indirect(l, w, ind, align16, base, bit9)?;
                }
            }
            let vs = Region::vstride_hw(r.region.vstride)
                .ok_or_else(|| err("invalid vertical stride"))?;
            w.set(base + 24, base + 21, vs);
            if align16 {
                w.set(base + 1, base, (r.swizzle & 3) as u64);
                w.set(base + 3, base + 2, ((r.swizzle >> 2) & 3) as u64);
                w.set(base + 17, base + 16, ((r.swizzle >> 4) & 3) as u64);
                w.set(base + 19, base + 18, ((r.swizzle >> 6) & 3) as u64);
            } else {
                w.set(
                    base + 20,
                    base + 18,
                    Region::width_hw(r.region.width).ok_or_else(|| err("invalid width"))?,
                );
                w.set(
                    base + 17,
                    base + 16,
                    Region::hstride_hw(r.region.hstride)
                        .ok_or_else(|| err("invalid horizontal stride"))?,
                );
            }
        }
    }
    Ok(())
}

fn encode_two_src(l: &Layout, inst: &Inst, w: &mut Word) -> Result<(), EuError> {
    if inst.src.len() > 2 {
        return Err(err(format!(
            "{} takes at most two sources",
            inst.opcode.name()
        )));
    }
    encode_dst(l, inst, w)?;
    for (i, s) in inst.src.iter().enumerate() {
        if i == 0 {
            if let Src::Imm(imm) = s {
                if inst.src.len() == 2
                    && imm.ty.size() < 8
                    && jump_layout(l.ver, inst.opcode) == JumpLayout::None
                {
                    return Err(err("only the last source may be an immediate"));
                }
            }
        }
        encode_src(l, inst, i, s, w)?;
    }
    Ok(())
}

fn encode_three_src(l: &Layout, inst: &Inst, w: &mut Word) -> Result<(), EuError> {
    if inst.access_mode != AccessMode::Align16 {
        return Err(err("3-source instructions are align16 before Gen10"));
    }
    if inst.src.len() != 3 {
        return Err(err(format!("{} takes three sources", inst.opcode.name())));
    }
    let d = &inst.dst;
    if d.indirect.is_some() {
        return Err(err("3-source destination cannot be indirect"));
    }
    match d.file {
        RegFile::Grf => {}
        RegFile::Mrf if l.ver == 60 => w.set(32, 32, 1),
        _ => return Err(err("3-source destination must be a GRF")),
    }
    check_reg_nr(RegFile::Grf, d.nr)?;
    if d.subnr % 4 != 0 {
        return Err(err(
            "3-source destination subregister must be dword aligned",
        ));
    }
    w.set(63, 56, d.nr as u64);
    w.set(55, 53, (d.subnr / 4) as u64);
    w.set(52, 49, d.writemask as u64 & 0xf);
    let src_ty = inst.src[0].ty();
    if l.ver >= 70 {
        let dt =
            d.ty.three_src_hw(l.ver)
                .ok_or_else(|| err("invalid 3-source destination type"))?;
        let st = src_ty
            .three_src_hw(l.ver)
            .ok_or_else(|| err("invalid 3-source source type"))?;
        if l.gen8() {
            w.set(48, 46, dt);
            w.set(45, 43, st);
        } else {
            w.set(45, 44, dt);
            w.set(43, 42, st);
        }
    } else if d.ty != RegType::F || src_ty != RegType::F {
        return Err(err("Gen6 3-source instructions operate on F only"));
    }
    let mods: [(u32, u32); 3] = if l.gen8() {
        [(37, 38), (39, 40), (41, 42)]
    } else {
        [(36, 37), (38, 39), (40, 41)]
    };
    let bases = [64u32, 85, 106];
    for (i, s) in inst.src.iter().enumerate() {
        let r = match s {
            Src::Reg(r) => r,
            Src::Imm(_) => return Err(err("3-source operands cannot be immediates")),
        };
        if r.ty != src_ty {
            return Err(err("3-source operands share one type"));
        }
        if r.file != RegFile::Grf || r.indirect.is_some() {
            return Err(err("3-source operands must be direct GRFs"));
        }
        check_reg_nr(r.file, r.nr)?;
        if r.subnr % 4 != 0 {
            return Err(err("3-source subregister must be dword aligned"));
        }
        let b = bases[i];
        let rep = r.region == Region::SCALAR;
        if !rep && r.region != Region::new(4, 4, 1) {
            return Err(err("3-source regions are <4,4,1> or <0,1,0>"));
        }
        w.set(b, b, rep as u64);
        w.set(b + 8, b + 1, r.swizzle as u64);
        w.set(b + 11, b + 9, (r.subnr / 4) as u64);
        w.set(b + 19, b + 12, r.nr as u64);
        w.set(mods[i].0, mods[i].0, r.abs as u64);
        w.set(mods[i].1, mods[i].1, r.negate as u64);
    }
    Ok(())
}

/// Decodes one native (uncompacted) instruction.
pub fn decode(devinfo: &DevInfo, bytes: &[u8; 16]) -> Result<Inst, EuError> {
    let ver = devinfo.ver;
    let mut w = Word::from_bytes(bytes);
    if w.get(29, 29) != 0 {
        return Err(err("compacted instruction in a native slot"));
    }
    let hw = w.get(6, 0) as u8;
    let op = Opcode::from_hw(ver, hw).ok_or_else(|| err(format!("invalid opcode {hw}")))?;
    let l = Layout { ver };
    let three = op.is_three_src();
    let mut inst = Inst::new(op);

    // Peel the overlays off first.
    let layout = jump_layout(ver, op);
    let unit = jump_unit(ver);
    let sx16 = |v: u64| (v as u16 as i16) as i32;
    match layout {
        JumpLayout::None => {}
        JumpLayout::Gen4 => {
            inst.branch = Some(Branch {
                jip: sx16(w.get(111, 96)) * unit,
                uip: 0,
                pop: w.get(115, 112) as u8,
            });
            w.set(115, 96, 0);
        }
        JumpLayout::Gen6Dst => {
            inst.branch = Some(Branch {
                jip: sx16(w.get(63, 48)) * unit,
                uip: 0,
                pop: 0,
            });
            w.set(63, 48, 0);
        }
        JumpLayout::Gen6 => {
            inst.branch = Some(Branch {
                jip: sx16(w.get(111, 96)) * unit,
                uip: sx16(w.get(127, 112)) * unit,
                pop: 0,
            });
            w.set(127, 96, 0);
        }
        JumpLayout::Gen8 => {
            let jip = w.get(127, 96) as u32 as i32;
            let mut uip = 0;
            w.set(127, 96, 0);
            if has_uip(ver, op) {
                uip = w.get(95, 64) as u32 as i32;
                w.set(95, 64, 0);
            }
            inst.branch = Some(Branch { jip, uip, pop: 0 });
        }
    }
    if op.is_send() {
        let mut m = Message::default();
        if ver < 50 {
            m.sfid = w.get(123, 120) as u8;
            w.set(123, 120, 0);
        } else if ver < 60 {
            m.sfid = w.get(95, 92) as u8;
            w.set(95, 92, 0);
        } else {
            m.sfid = w.get(27, 24) as u8;
        }
        if ver < 60 {
            m.base_mrf = w.get(27, 24) as u8;
        }
        inst.eot = w.get(127, 127) != 0;
        w.set(127, 127, 0);
        inst.msg = Some(m);
    }

    inst.access_mode = if w.get(8, 8) != 0 {
        AccessMode::Align16
    } else {
        AccessMode::Align1
    };
    let (h, lo) = l.mask_ctrl();
    inst.we_all = w.get(h, lo) != 0;
    let (h, lo) = l.no_dd_clear();
    inst.no_dd_clear = w.get(h, lo) != 0;
    let (h, lo) = l.no_dd_check();
    inst.no_dd_check = w.get(h, lo) != 0;
    inst.qtr_ctrl = w.get(13, 12) as u8;
    if let Some((h, lo)) = l.nib_ctrl() {
        inst.nib_ctrl = w.get(h, lo) != 0;
    }
    inst.thread_ctrl = ThreadCtrl::from_hw(w.get(15, 14));
    let pc = w.get(19, 16) as u8;
    if pc != 0 {
        inst.pred = Some(Predicate {
            control: pc,
            inverse: w.get(20, 20) != 0,
        });
    } else if w.get(20, 20) != 0 {
        return Err(err("predicate inverse without predication"));
    }
    let es = w.get(23, 21);
    if es > 5 {
        return Err(err(format!("invalid execution size encoding {es}")));
    }
    inst.exec_size = 1 << es;
    let f24 = w.get(27, 24) as u8;
    if op == Opcode::Math {
        inst.math_fn =
            Some(MathFn::from_hw(f24).ok_or_else(|| err(format!("invalid math function {f24}")))?);
    } else if op.is_send() {
        // Taken above.
    } else {
        inst.cond_mod = CondMod::from_hw(f24)
            .ok_or_else(|| err(format!("invalid conditional modifier {f24}")))?;
    }
    inst.acc_wr = w.get(28, 28) != 0;
    inst.debug = w.get(30, 30) != 0;
    inst.saturate = w.get(31, 31) != 0;
    let (h, lo) = l.flag_subnr(three);
    // HSW's DIM spreads its 64-bit immediate over the pre-Gen8 flag fields.
    let dim_imm = op == Opcode::Dim && w.get(38, 37) == RegFile::Imm.hw();
    if !dim_imm {
        inst.flag_subnr = w.get(h, lo) as u8;
        if let Some((h, lo)) = l.flag_nr(three) {
            inst.flag_nr = w.get(h, lo) as u8;
        }
    }

    if three {
        decode_three_src(&l, &w, &mut inst)?;
    } else if matches!(op, Opcode::Sends | Opcode::Sendsc) {
        decode_split_send(&w, &mut inst);
    } else {
        decode_two_src(&l, &w, &mut inst)?;
    }
    Ok(inst)
}

/// The a0 register that holds an indirect descriptor.
fn a0(subnr: u8) -> Src {
    Src::Reg(RegSrc::new(
        RegFile::Arf,
        super::types::arf::ADDRESS,
        subnr,
        RegType::UD,
        Region::SCALAR,
    ))
}

/// Whether a source names the address register directly (what SENDS descriptors may use).
fn is_a0(r: &RegSrc) -> bool {
    r.file == RegFile::Arf && r.nr == super::types::arf::ADDRESS && r.indirect.is_none()
}

fn split_send_payload(file: RegFile, nr: u8, subnr: u8) -> Src {
    Src::Reg(RegSrc::new(file, nr, subnr, RegType::UD, Region::SCALAR))
}

/// Gen9 SENDS/SENDSC: two payload registers and two descriptors, with fixed UD types.
fn encode_split_send(inst: &Inst, w: &mut Word) -> Result<(), EuError> {
    if inst.src.len() != 4 {
        return Err(err(
            "sends takes two payloads, a descriptor and an extended descriptor",
        ));
    }
    let d = &inst.dst;
    if d.indirect.is_some() || !matches!(d.file, RegFile::Grf | RegFile::Arf) || d.subnr % 16 != 0 {
        return Err(err(
            "sends destination must be a direct GRF or null, 16-byte aligned",
        ));
    }
    check_reg_nr(d.file, d.nr)?;
    w.set(35, 35, (d.file == RegFile::Grf) as u64);
    w.set(60, 53, d.nr as u64);
    w.set(52, 52, (d.subnr / 16) as u64);
    let reg = |s: &Src, what: &str| -> Result<RegSrc, EuError> {
        match s {
            Src::Reg(r) if r.indirect.is_none() => Ok(*r),
            _ => Err(err(format!("sends {what} must be a direct register"))),
        }
    };
    let s0 = reg(&inst.src[0], "payload 0")?;
    if s0.file != RegFile::Grf || s0.subnr % 16 != 0 {
        return Err(err("sends payload 0 must be a 16-byte aligned GRF"));
    }
    check_reg_nr(s0.file, s0.nr)?;
    w.set(76, 69, s0.nr as u64);
    w.set(68, 68, (s0.subnr / 16) as u64);
    let s1 = reg(&inst.src[1], "payload 1")?;
    if !matches!(s1.file, RegFile::Grf | RegFile::Arf) {
        return Err(err("sends payload 1 must be a GRF or null"));
    }
    check_reg_nr(s1.file, s1.nr)?;
    w.set(51, 44, s1.nr as u64);
    w.set(36, 36, (s1.file == RegFile::Grf) as u64);
    match &inst.src[2] {
        Src::Imm(i) => {
            if i.bits >> 31 != 0 {
                return Err(err("sends descriptor has 31 bits"));
            }
            w.set(126, 96, i.bits);
        }
        // Bit 77 makes the hardware read a0.0; any other register would be silently a0.0.
        Src::Reg(r) if is_a0(r) && r.subnr == 0 => w.set(77, 77, 1),
        Src::Reg(_) => return Err(err("sends register descriptor must be a0.0")),
    }
    match &inst.src[3] {
        Src::Imm(i) => {
            let ex = i.bits;
            if ex & 0xfc3f != 0 || ex >> 32 != 0 {
                return Err(err(
                    "sends extended descriptor bits 15:10 and 5:0 must be zero",
                ));
            }
            w.set(95, 80, ex >> 16);
            w.set(67, 64, (ex >> 6) & 0xf);
        }
        Src::Reg(r) => {
            if !is_a0(r) {
                return Err(err("sends register extended descriptor must be in a0"));
            }
            w.set(61, 61, 1);
            if r.subnr > 7 {
                return Err(err("extended descriptor address subregister out of range"));
            }
            w.set(82, 80, r.subnr as u64);
        }
    }
    Ok(())
}

fn decode_split_send(w: &Word, inst: &mut Inst) {
    let dfile = if w.get(35, 35) != 0 {
        RegFile::Grf
    } else {
        RegFile::Arf
    };
    inst.dst = Dst::reg(
        dfile,
        w.get(60, 53) as u8,
        (w.get(52, 52) * 16) as u8,
        RegType::UD,
    );
    let s1file = if w.get(36, 36) != 0 {
        RegFile::Grf
    } else {
        RegFile::Arf
    };
    let desc = if w.get(77, 77) != 0 {
        a0(0)
    } else {
        Src::Imm(Imm {
            ty: RegType::UD,
            bits: w.get(126, 96),
        })
    };
    let ex = if w.get(61, 61) != 0 {
        a0(w.get(82, 80) as u8)
    } else {
        Src::Imm(Imm {
            ty: RegType::UD,
            bits: (w.get(95, 80) << 16) | (w.get(67, 64) << 6),
        })
    };
    inst.src = vec![
        split_send_payload(
            RegFile::Grf,
            w.get(76, 69) as u8,
            (w.get(68, 68) * 16) as u8,
        ),
        split_send_payload(s1file, w.get(51, 44) as u8, 0),
        desc,
        ex,
    ];
}

fn decode_type(ver: u32, file: RegFile, hw: u64) -> Result<RegType, EuError> {
    RegType::from_hw(ver, file, hw)
        .ok_or_else(|| err(format!("invalid register type encoding {hw}")))
}

/// How many sources [`Inst::src`] holds for `op`: three for the 3-source format; for the
/// 2-source format two, except one for unary operations (their unused src1 slot is not part
/// of the model) and none for NOP.
pub fn source_count(ver: u32, op: Opcode) -> usize {
    use Opcode::*;
    if op.is_three_src() {
        return 3;
    }
    match op {
        Nop | Nenop => 0,
        Mov | Not | Frc | Rndu | Rndd | Rnde | Rndz | Lzd | Fbh | Fbl | Cbit | Bfrev | F32to16
        | F16to32 | Dim => 1,
        Movi if ver < 80 => 2,
        Wait => 1,
        _ => 2,
    }
}

fn decode_two_src(l: &Layout, w: &Word, inst: &mut Inst) -> Result<(), EuError> {
    let ver = l.ver;
    let align16 = inst.access_mode == AccessMode::Align16;
    let (h, lo) = l.dst_file();
    let dfile = RegFile::from_hw(w.get(h, lo));
    let (h, lo) = l.dst_type();
    let dty = decode_type(ver, dfile, w.get(h, lo))?;
    let mut dst = Dst {
        file: dfile,
        nr: 0,
        subnr: 0,
        ty: dty,
        hstride: Region::hstride_from_hw(w.get(62, 61)),
        writemask: 0xf,
        indirect: None,
    };
    if w.get(63, 63) == 0 {
        dst.nr = w.get(60, 53) as u8;
        if align16 {
            dst.subnr = (w.get(52, 52) * 16) as u8;
            dst.writemask = w.get(51, 48) as u8;
        } else {
            dst.subnr = w.get(52, 48) as u8;
        }
    } else {
        dst.indirect = Some(decode_indirect(
            l,
            w,
            align16,
            48,
            if l.gen8() { 47 } else { 0 },
        ));
        if align16 {
            dst.writemask = w.get(51, 48) as u8;
        }
    }
    inst.dst = dst;
    let n = source_count(ver, inst.opcode);
    let mut srcs = Vec::with_capacity(n);
    for i in 0..n {
        let base = if i == 0 { 64 } else { 96 };
        let (fh, fl) = l.src_file(i);
        let (th, tl) = l.src_type(i);
        let file = RegFile::from_hw(w.get(fh, fl));
        let ty = decode_type(ver, file, w.get(th, tl))?;
        if file == RegFile::Imm {
            let bits = if ty.size() == 8 || inst.opcode == Opcode::Dim {
                w.get(127, 64)
            } else {
                w.get(127, 96)
            };
            srcs.push(Src::Imm(Imm { ty, bits }));
            continue;
        }
        let mut r = RegSrc::new(file, 0, 0, ty, Region::new(0, 1, 0));
        r.abs = w.get(base + 13, base + 13) != 0;
        r.negate = w.get(base + 14, base + 14) != 0;
        if w.get(base + 15, base + 15) == 0 {
            r.nr = w.get(base + 12, base + 5) as u8;
            r.subnr = if align16 {
                (w.get(base + 4, base + 4) * 16) as u8
            } else {
                w.get(base + 4, base) as u8
            };
        } else {
            let bit9 = if i == 0 { 95 } else { 121 };
            r.indirect = Some(decode_indirect(l, w, align16, base, bit9));
        }
        let vs = w.get(base + 24, base + 21);
        let vstride = Region::vstride_from_hw(vs)
            .ok_or_else(|| err(format!("invalid vertical stride encoding {vs}")))?;
        if align16 {
            r.region = Region::new(vstride, 4, 1);
            r.swizzle = (w.get(base + 1, base)
                | (w.get(base + 3, base + 2) << 2)
                | (w.get(base + 17, base + 16) << 4)
                | (w.get(base + 19, base + 18) << 6)) as u8;
        } else {
            let wh = w.get(base + 20, base + 18);
            let width = Region::width_from_hw(wh)
                .ok_or_else(|| err(format!("invalid width encoding {wh}")))?;
            r.region = Region::new(
                vstride,
                width,
                Region::hstride_from_hw(w.get(base + 17, base + 16)),
            );
        }
        srcs.push(Src::Reg(r));
    }
    inst.src = srcs;
    Ok(())
}

fn decode_three_src(l: &Layout, w: &Word, inst: &mut Inst) -> Result<(), EuError> {
    let ver = l.ver;
    if inst.access_mode != AccessMode::Align16 {
        return Err(err(
            "align1 3-source instructions do not exist before Gen10",
        ));
    }
    let (dty, sty) = if ver >= 80 {
        (
            RegType::from_three_src_hw(ver, w.get(48, 46)),
            RegType::from_three_src_hw(ver, w.get(45, 43)),
        )
    } else if ver >= 70 {
        (
            RegType::from_three_src_hw(ver, w.get(45, 44)),
            RegType::from_three_src_hw(ver, w.get(43, 42)),
        )
    } else {
        (Some(RegType::F), Some(RegType::F))
    };
    let dty = dty.ok_or_else(|| err("invalid 3-source destination type"))?;
    let sty = sty.ok_or_else(|| err("invalid 3-source source type"))?;
    let dfile = if ver == 60 && w.get(32, 32) != 0 {
        RegFile::Mrf
    } else {
        RegFile::Grf
    };
    inst.dst = Dst {
        file: dfile,
        nr: w.get(63, 56) as u8,
        subnr: (w.get(55, 53) * 4) as u8,
        ty: dty,
        hstride: 1,
        writemask: w.get(52, 49) as u8,
        indirect: None,
    };
    let mods: [(u32, u32); 3] = if l.gen8() {
        [(37, 38), (39, 40), (41, 42)]
    } else {
        [(36, 37), (38, 39), (40, 41)]
    };
    let bases = [64u32, 85, 106];
    inst.src = (0..3)
        .map(|i| {
            let b = bases[i];
            let rep = w.get(b, b) != 0;
            let mut r = RegSrc::new(
                RegFile::Grf,
                w.get(b + 19, b + 12) as u8,
                (w.get(b + 11, b + 9) * 4) as u8,
                sty,
                if rep {
                    Region::SCALAR
                } else {
                    Region::new(4, 4, 1)
                },
            );
            r.swizzle = w.get(b + 8, b + 1) as u8;
            r.abs = w.get(mods[i].0, mods[i].0) != 0;
            r.negate = w.get(mods[i].1, mods[i].1) != 0;
            Src::Reg(r)
        })
        .collect();
    Ok(())
}
