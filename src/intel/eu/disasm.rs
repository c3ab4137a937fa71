//! Disassembler printing Mesa's syntax (`brw_disasm.c`), including its message-descriptor
//! commentary for SEND and labels for jump targets.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::inst::{Dst, Imm, Inst, RegSrc, Region, Src};
use super::native::{has_jip, has_uip, jump_unit};
use super::types::{arf, sfid, AccessMode, Opcode, RegFile, RegType};
use crate::intel::msg;
use crate::intel::DevInfo;

/// Prints a program, one instruction per line, with `LABELn:` lines before jump targets.
/// Instructions are assumed to be 16 bytes each (see [`disassemble_at`] for compacted code).
pub fn disassemble(devinfo: &DevInfo, insts: &[Inst]) -> String {
    let offsets: Vec<usize> = (0..insts.len()).map(|i| i * 16).collect();
    disassemble_at(devinfo, insts, &offsets, insts.len() * 16)
}

/// Prints a program whose instructions start at `offsets` (bytes) and end at `end`.
pub fn disassemble_at(devinfo: &DevInfo, insts: &[Inst], offsets: &[usize], end: usize) -> String {
    let labels = collect_labels(devinfo, insts, offsets, end);
    let mut out = String::new();
    for (i, inst) in insts.iter().enumerate() {
        let off = offsets.get(i).copied().unwrap_or(i * 16);
        if let Some(n) = labels.get(&off) {
            let _ = writeln!(out, "LABEL{n}:");
        }
        out.push_str(&format_inst(devinfo, inst, off, &labels));
    }
    if let Some(n) = labels.get(&end) {
        let _ = writeln!(out, "LABEL{n}:");
    }
    out
}

fn collect_labels(
    devinfo: &DevInfo,
    insts: &[Inst],
    offsets: &[usize],
    end: usize,
) -> BTreeMap<usize, usize> {
    let valid: std::collections::HashSet<usize> = offsets
        .iter()
        .copied()
        .chain(std::iter::once(end))
        .collect();
    let mut targets = std::collections::BTreeSet::new();
    for (i, inst) in insts.iter().enumerate() {
        let off = offsets.get(i).copied().unwrap_or(i * 16) as i64;
        if let Some(b) = inst.branch {
            if has_jip(devinfo.ver, inst.opcode) {
                let t = off + b.jip as i64;
                if t >= 0 && valid.contains(&(t as usize)) {
                    targets.insert(t as usize);
                }
            }
            if has_uip(devinfo.ver, inst.opcode) {
                let t = off + b.uip as i64;
                if t >= 0 && valid.contains(&(t as usize)) {
                    targets.insert(t as usize);
                }
            }
        }
    }
    targets
        .into_iter()
        .enumerate()
        .map(|(n, t)| (t, n))
        .collect()
}

/// Text sink that tracks the column like Mesa's disassembler, for its padding.
struct Out {
    s: String,
    col: usize,
}

impl Out {
    fn str(&mut self, t: &str) {
        self.s.push_str(t);
        match t.rfind('\n') {
            Some(p) => self.col = t.len() - p - 1,
            None => self.col += t.len(),
        }
    }
    /// Appends text without moving the column (see the SEND descriptor line).
    fn raw(&mut self, t: &str) {
        self.s.push_str(t);
    }

    fn pad(&mut self, c: usize) {
        loop {
            self.str(" ");
            if self.col >= c {
                break;
            }
        }
    }
    /// Mesa's `control()`: prints a table entry, or the invalid-value note.
    fn control(&mut self, what: &str, table: &[Option<&str>], id: u64, space: Option<&mut bool>) {
        match table.get(id as usize).copied().flatten() {
            // Mesa prints this note around its column counter too.
            None => self.raw(&format!("*** invalid {what} value {id} ")),
            Some(name) => {
                if !name.is_empty() {
                    let mut sp = false;
                    if let Some(s) = space {
                        sp = *s;
                        *s = true;
                    }
                    if sp {
                        self.str(" ");
                    }
                    self.str(name);
                }
            }
        }
    }
}

/// C's `%g` for a double.
pub fn fmt_g(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let sci = format!("{:.5e}", v);
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..6).contains(&x) {
        let m = strip(mant);
        format!("{}e{}{:02}", m, if x < 0 { '-' } else { '+' }, x.abs())
    } else {
        let prec = (5 - x).max(0) as usize;
        strip(&format!("{:.*}", prec, v))
    }
}

/// Mesa's `brw_vf_to_float`: the 8-bit restricted float of a VF immediate.
pub fn vf_to_f32(vf: u8) -> f32 {
    if vf == 0x00 || vf == 0x80 {
        return f32::from_bits((vf as u32) << 24);
    }
    let sign = ((vf as u32) & 0x80) << 24;
    let exp = (((vf as u32) & 0x70) >> 4) + 124;
    let mant = ((vf as u32) & 0x0f) << 19;
    f32::from_bits(sign | (exp << 23) | mant)
}

const PRED_ALIGN16: [Option<&str>; 16] = [
    None,
    Some(""),
    Some(".x"),
    Some(".y"),
    Some(".z"),
    Some(".w"),
    Some(".any4h"),
    Some(".all4h"),
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    None,
];

const PRED_ALIGN1: [Option<&str>; 16] = [
    None,
    Some(""),
    Some(".anyv"),
    Some(".allv"),
    Some(".any2h"),
    Some(".all2h"),
    Some(".any4h"),
    Some(".all4h"),
    Some(".any8h"),
    Some(".all8h"),
    Some(".any16h"),
    Some(".all16h"),
    Some(".any32h"),
    Some(".all32h"),
    None,
    None,
];

/// Suffix of predicate control `c` in `mode`, if defined.
pub fn pred_suffix(mode: AccessMode, c: u8) -> Option<&'static str> {
    let t = if mode == AccessMode::Align16 {
        &PRED_ALIGN16
    } else {
        &PRED_ALIGN1
    };
    t.get(c as usize).copied().flatten()
}

/// Table of predicate suffixes for the assembler.
pub fn pred_control_from_suffix(mode: AccessMode, s: &str) -> Option<u8> {
    let t = if mode == AccessMode::Align16 {
        &PRED_ALIGN16
    } else {
        &PRED_ALIGN1
    };
    t.iter().position(|e| *e == Some(s)).map(|p| p as u8)
}

const WRITEMASK: [&str; 16] = [
    ".", ".x", ".y", ".xy", ".z", ".xz", ".yz", ".xyz", ".w", ".xw", ".yw", ".xyw", ".zw", ".xzw",
    ".yzw", "",
];

const CHAN: [&str; 4] = ["x", "y", "z", "w"];

/// Name of a register without subregister: `g12`, `m3`, `null`, `acc0`, `f1`, …; `None` for
/// `ip` and `tdr0`, after which Mesa prints nothing more.
fn reg_name(file: RegFile, nr: u8) -> (String, bool) {
    match file {
        RegFile::Grf => (format!("g{nr}"), true),
        RegFile::Mrf => (format!("m{}", nr & 0x7f), true),
        RegFile::Imm => (format!("imm{nr}"), true),
        RegFile::Arf => {
            let n = nr & 0x0f;
            match nr & 0xf0 {
                arf::NULL => ("null".into(), true),
                arf::ADDRESS => (format!("a{n}"), true),
                arf::ACCUMULATOR => (format!("acc{n}"), true),
                arf::FLAG => (format!("f{n}"), true),
                arf::MASK => (format!("mask{n}"), true),
                arf::MASK_STACK => (format!("ms{n}"), true),
                arf::MASK_STACK_DEPTH => (format!("msd{n}"), true),
                arf::STATE => (format!("sr{n}"), true),
                arf::CONTROL => (format!("cr{n}"), true),
                arf::NOTIFICATION_COUNT => (format!("n{n}"), true),
                arf::IP => ("ip".into(), false),
                arf::TDR => ("tdr0".into(), false),
                arf::TIMESTAMP => (format!("tm{n}"), true),
                _ => (format!("ARF{nr}"), true),
            }
        }
    }
}

fn vstride_str(v: u8) -> String {
    if v == Region::VXH {
        "VxH".into()
    } else {
        v.to_string()
    }
}

fn region_str(r: &Region) -> String {
    format!("<{},{},{}>", vstride_str(r.vstride), r.width, r.hstride)
}

fn swizzle_str(swz: u8) -> String {
    let c = |i: u32| ((swz >> (2 * i)) & 3) as usize;
    if c(0) == c(1) && c(0) == c(2) && c(0) == c(3) {
        format!(".{}", CHAN[c(0)])
    } else if swz != 0xe4 {
        format!(".{}{}{}{}", CHAN[c(0)], CHAN[c(1)], CHAN[c(2)], CHAN[c(3)])
    } else {
        String::new()
    }
}

fn dst_str(inst: &Inst) -> String {
    let d: &Dst = &inst.dst;
    let size = d.ty.size();
    let mut s = String::new();
    let align16 = inst.access_mode == AccessMode::Align16;
    match d.indirect {
        None => {
            let (name, more) = reg_name(d.file, d.nr);
            s.push_str(&name);
            if !more {
                return s;
            }
            if align16 {
                if d.subnr != 0 {
                    let _ = write!(s, ".{}", 16 / size);
                }
                s.push_str("<1>");
                s.push_str(WRITEMASK[(d.writemask & 0xf) as usize]);
            } else {
                if d.subnr != 0 {
                    let _ = write!(s, ".{}", d.subnr as u32 / size);
                }
                let _ = write!(s, "<{}>", d.hstride);
            }
            s.push_str(d.ty.letters());
        }
        Some(ind) => {
            if align16 {
                return "Indirect align16 address mode not supported".into();
            }
            s.push_str("g[a0");
            if ind.addr_subnr != 0 {
                let _ = write!(s, ".{}", ind.addr_subnr as u32 / size);
            }
            if ind.offset != 0 {
                let _ = write!(s, " {}", ind.offset);
            }
            let _ = write!(s, "]<{}>{}", d.hstride, d.ty.letters());
        }
    }
    s
}

fn mods_str(ver: u32, op: Opcode, negate: bool, abs: bool) -> String {
    let mut s = String::new();
    if negate {
        s.push(if ver >= 80 && op.is_logic() { '~' } else { '-' });
    }
    if abs {
        s.push_str("(abs)");
    }
    s
}

fn imm_str(out: &mut Out, op: Opcode, imm: &Imm) {
    let lo = imm.bits as u32;
    if op == Opcode::Dim && imm.ty == RegType::F {
        // DIM carries a 64-bit float in an F-typed slot.
        out.str(&format!("0x{:x}F", imm.bits));
        out.pad(48);
        out.str(&format!("/* {}F */", fmt_g(f64::from_bits(imm.bits))));
        return;
    }
    match imm.ty {
        RegType::UQ => out.str(&format!("0x{:016x}UQ", imm.bits)),
        RegType::Q => out.str(&format!("0x{:016x}Q", imm.bits)),
        RegType::UD => out.str(&format!("0x{lo:08x}UD")),
        RegType::D => out.str(&format!("{}D", lo as i32)),
        RegType::UW => out.str(&format!("0x{:04x}UW", lo as u16)),
        RegType::W => out.str(&format!("{}W", lo as i16)),
        RegType::UV => out.str(&format!("0x{lo:08x}UV")),
        RegType::V => out.str(&format!("0x{lo:08x}V")),
        RegType::VF => {
            out.str(&format!("0x{lo:x}VF"));
            out.pad(48);
            let f = |k: u32| fmt_g(vf_to_f32((lo >> k) as u8) as f64);
            out.str(&format!(
                "/* [{}F, {}F, {}F, {}F]VF */",
                f(0),
                f(8),
                f(16),
                f(24)
            ));
        }
        RegType::F => {
            out.str(&format!("0x{lo:x}F"));
            out.pad(48);
            out.str(&format!(" /* {}F */", fmt_g(f32::from_bits(lo) as f64)));
        }
        RegType::DF => {
            out.str(&format!("0x{:016x}DF", imm.bits));
            out.pad(48);
            out.str(&format!("/* {}DF */", fmt_g(f64::from_bits(imm.bits))));
        }
        RegType::HF => out.str("Half Float IMM"),
        RegType::UB | RegType::B => out.str(&format!("*** invalid immediate type {} ", imm.ty)),
    }
}

fn src_str(out: &mut Out, ver: u32, inst: &Inst, s: &Src) {
    let r: &RegSrc = match s {
        Src::Imm(imm) => return imm_str(out, inst.opcode, imm),
        Src::Reg(r) => r,
    };
    let mut t = mods_str(ver, inst.opcode, r.negate, r.abs);
    let size = r.ty.size();
    let align16 = inst.access_mode == AccessMode::Align16;
    match r.indirect {
        None => {
            let (name, more) = reg_name(r.file, r.nr);
            t.push_str(&name);
            if more {
                if align16 {
                    if r.subnr != 0 {
                        let _ = write!(t, ".{}", 16 / size);
                    }
                    let _ = write!(t, "<{}>", vstride_str(r.region.vstride));
                    t.push_str(&swizzle_str(r.swizzle));
                } else {
                    if r.subnr != 0 {
                        let _ = write!(t, ".{}", r.subnr as u32 / size);
                    }
                    t.push_str(&region_str(&r.region));
                }
                t.push_str(r.ty.letters());
            }
        }
        Some(ind) => {
            if align16 {
                out.str("Indirect align16 address mode not supported");
                return;
            }
            t.push_str("g[a0");
            if ind.addr_subnr != 0 {
                let _ = write!(t, ".{}", ind.addr_subnr);
            }
            if ind.offset != 0 {
                let _ = write!(t, " {}", ind.offset);
            }
            t.push(']');
            t.push_str(&region_str(&r.region));
            t.push_str(r.ty.letters());
        }
    }
    out.str(&t);
}

fn three_src_dst(inst: &Inst) -> String {
    let d = &inst.dst;
    let (name, _) = reg_name(d.file, d.nr);
    let mut s = name;
    let sub = d.subnr as u32 / d.ty.size();
    if sub != 0 {
        let _ = write!(s, ".{sub}");
    }
    s.push_str("<1>");
    s.push_str(WRITEMASK[(d.writemask & 0xf) as usize]);
    s.push_str(d.ty.letters());
    s
}

fn three_src_src(s: &Src) -> String {
    let r = match s {
        Src::Reg(r) => r,
        Src::Imm(i) => return format!("0x{:x}{}", i.bits, i.ty),
    };
    let scalar = r.region == Region::SCALAR;
    let mut t = mods_str(0, Opcode::Mad, r.negate, r.abs);
    t.push_str(&reg_name(r.file, r.nr).0);
    let sub = r.subnr as u32 / r.ty.size();
    if sub != 0 || scalar {
        let _ = write!(t, ".{sub}");
    }
    t.push_str(&region_str(&r.region));
    if !scalar {
        t.push_str(&swizzle_str(r.swizzle));
    }
    t.push_str(r.ty.letters());
    t
}

fn write_label(out: &mut Out, labels: &BTreeMap<usize, usize>, offset: usize, jump: i32, ver: u32) {
    let t = offset as i64 + jump as i64;
    match (t >= 0).then(|| labels.get(&(t as usize))).flatten() {
        Some(n) => out.str(&format!("LABEL{n}")),
        // No instruction there: print the distance in hardware units so it still assembles.
        None => out.str(&format!("{}", jump / jump_unit(ver))),
    }
}

/// Formats one instruction (with its trailing newline) as Mesa prints it at byte `offset`.
pub fn format_inst(
    devinfo: &DevInfo,
    inst: &Inst,
    offset: usize,
    labels: &BTreeMap<usize, usize>,
) -> String {
    let ver = devinfo.ver;
    let op = inst.opcode;
    let mut o = Out {
        s: String::new(),
        col: 0,
    };
    let flag_nr = if ver >= 70 { inst.flag_nr } else { 0 };
    if let Some(p) = inst.pred {
        o.str("(");
        o.str(if p.inverse { "-" } else { "+" });
        o.str(&format!("f{}.{}", flag_nr, inst.flag_subnr));
        let (what, t) = if inst.access_mode == AccessMode::Align1 {
            ("predicate control align1", &PRED_ALIGN1)
        } else {
            ("predicate control align16", &PRED_ALIGN16)
        };
        o.control(what, t, p.control as u64, None);
        o.str(") ");
    }
    o.str(op.name());
    if !op.is_send() && inst.saturate {
        o.str(".sat");
    }
    if inst.debug {
        o.str(".breakpoint");
    }
    if op == Opcode::Math {
        o.str(" ");
        o.str(inst.math_fn.map_or("", |f| f.name()));
    } else if !op.is_send() {
        let cm = inst.cond_mod;
        if cm.hw() != 0 {
            o.str(".");
            o.str(cm.suffix());
            if ver < 60 || !matches!(op, Opcode::Sel | Opcode::Csel | Opcode::If | Opcode::While) {
                o.str(&format!(".f{}.{}", flag_nr, inst.flag_subnr));
            }
        }
    }
    if op != Opcode::Nop && op != Opcode::Nenop {
        o.str(&format!("({})", inst.exec_size));
    }
    if op == Opcode::Send && ver < 60 {
        o.str(&format!(" {}", inst.msg.map_or(0, |m| m.base_mrf)));
    }
    let b = inst.branch.unwrap_or_default();
    if has_uip(ver, op) {
        o.pad(16);
        o.str("JIP: ");
        write_label(&mut o, labels, offset, b.jip, ver);
        o.pad(38);
        o.str("UIP: ");
        write_label(&mut o, labels, offset, b.uip, ver);
    } else if has_jip(ver, op) {
        o.pad(16);
        o.str("JIP: ");
        write_label(&mut o, labels, offset, b.jip, ver);
    } else if ver < 60 && matches!(op, Opcode::Break | Opcode::Continue | Opcode::Else) {
        o.pad(16);
        o.str(&format!("Jump: {}", b.jip / jump_unit(ver)));
        o.pad(32);
        o.str(&format!("Pop: {}", b.pop));
    } else if ver < 60 && matches!(op, Opcode::If | Opcode::Iff | Opcode::Halt | Opcode::While) {
        o.pad(16);
        o.str(&format!("Jump: {}", b.jip / jump_unit(ver)));
    } else if ver < 60 && op == Opcode::Endif {
        o.pad(16);
        o.str(&format!("Pop: {}", b.pop));
    } else if op == Opcode::Jmpi {
        o.pad(16);
        if let Some(s) = inst.src.get(1) {
            src_str(&mut o, ver, inst, s);
        }
    } else if matches!(op, Opcode::Sends | Opcode::Sendsc) {
        let sub = |subnr: u8| if subnr != 0 { ".1" } else { "" };
        o.pad(16);
        let d = &inst.dst;
        o.str(&format!("{}{}UD", reg_name(d.file, d.nr).0, sub(d.subnr)));
        if let Some(Src::Reg(r)) = inst.src.first() {
            o.pad(32);
            o.str(&format!("g{}{}UD", r.nr, sub(r.subnr)));
        }
        if let Some(Src::Reg(r)) = inst.src.get(1) {
            o.pad(48);
            o.str(&format!("{}UD", reg_name(r.file, r.nr).0));
        }
    } else if op.is_three_src() {
        o.pad(16);
        o.str(&three_src_dst(inst));
        for (i, s) in inst.src.iter().enumerate().take(3) {
            o.pad(32 + 16 * i);
            o.str(&three_src_src(s));
        }
    } else {
        let d = op.desc();
        if d.ndst > 0 {
            o.pad(16);
            o.str(&dst_str(inst));
        }
        if d.nsrc > 0 {
            if let Some(s) = inst.src.first() {
                o.pad(32);
                src_str(&mut o, ver, inst, s);
            }
        }
        if d.nsrc > 1 {
            if let Some(s) = inst.src.get(1) {
                o.pad(48);
                src_str(&mut o, ver, inst, s);
            }
        }
    }

    if op.is_send() {
        send_desc(&mut o, devinfo, inst);
    }

    o.pad(64);
    if op != Opcode::Nop && op != Opcode::Nenop {
        o.str("{");
        let mut space = true;
        let am = if inst.access_mode == AccessMode::Align16 {
            1
        } else {
            0
        };
        o.control(
            "access mode",
            &[Some("align1"), Some("align16")],
            am,
            Some(&mut space),
        );
        if ver >= 60 {
            o.control(
                "write enable control",
                &[Some(""), Some("WE_all")],
                inst.we_all as u64,
                Some(&mut space),
            );
        } else {
            o.control(
                "mask control",
                &[Some(""), Some("nomask")],
                inst.we_all as u64,
                Some(&mut space),
            );
        }
        let dep = ((inst.no_dd_check as u64) << 1) | inst.no_dd_clear as u64;
        o.control(
            "dependency control",
            &[
                Some(""),
                Some("NoDDClr"),
                Some("NoDDChk"),
                Some("NoDDClr,NoDDChk"),
            ],
            dep,
            Some(&mut space),
        );
        if ver >= 60 {
            let nib = if ver >= 70 { inst.nib_ctrl as u32 } else { 0 };
            let q = inst.qtr_ctrl as u32;
            if inst.exec_size < 8 || nib != 0 {
                o.str(&format!(" {}N", q * 2 + nib + 1));
            } else if inst.exec_size == 8 {
                o.str(&format!(" {}Q", q + 1));
            } else if inst.exec_size == 16 {
                o.str(if q < 2 { " 1H" } else { " 2H" });
            }
        } else if inst.qtr_ctrl == 2
            && op.desc().ndst > 0
            && inst.dst.file == RegFile::Mrf
            && inst.dst.nr & 0x80 != 0
        {
            o.str(" compr4");
        } else {
            o.control(
                "compression control",
                &[Some(""), Some("sechalf"), Some("compr"), Some("compr4")],
                inst.qtr_ctrl as u64,
                Some(&mut space),
            );
        }
        o.control(
            "thread control",
            &[Some(""), Some("atomic"), Some("switch"), None],
            inst.thread_ctrl.hw(),
            Some(&mut space),
        );
        if ver >= 80 && matches!(op, Opcode::If | Opcode::Else) {
            o.control(
                "branch ctrl",
                &[Some(""), Some("BranchCtrl")],
                inst.acc_wr as u64,
                Some(&mut space),
            );
        } else if ver >= 60 {
            o.control(
                "acc write control",
                &[Some(""), Some("AccWrEnable")],
                inst.acc_wr as u64,
                Some(&mut space),
            );
        }
        if op.is_send() {
            o.control(
                "end of thread",
                &[Some(""), Some("EOT")],
                inst.eot as u64,
                Some(&mut space),
            );
        }
        if space {
            o.str(" ");
        }
        o.str("}");
    }
    o.str(";\n");
    o.s
}

/// The dword Mesa prints as a SEND's descriptor: bits 96–127 of the native encoding.
pub fn send_dword3(ver: u32, inst: &Inst) -> u32 {
    let desc = inst
        .src
        .get(1)
        .and_then(|s| s.as_imm())
        .map_or(0, |i| i.bits as u32);
    msg::with_dword3(ver, desc, inst.msg.map_or(0, |m| m.sfid), inst.eot)
}

fn send_desc(o: &mut Out, devinfo: &DevInfo, inst: &Inst) {
    let ver = devinfo.ver;
    let sf = inst.msg.map_or(0, |m| m.sfid);
    let split = matches!(inst.opcode, Opcode::Sends | Opcode::Sendsc);
    let imm = inst
        .src
        .get(if split { 2 } else { 1 })
        .and_then(|s| s.as_imm());
    let ex_imm = if split {
        inst.src.get(3).and_then(|s| s.as_imm())
    } else {
        None
    };
    if split {
        o.pad(64);
        // A register descriptor is always a0.0 (bit 77 selects it). Mesa's Gen9 vectors,
        // the text its assembler reads, write it `g[a0]UD`; its 23.3 disassembler prints
        // `a0<0>UD`. The vectors' form is printed so that disassembly reassembles with either
        // assembler; ours reads both.
        match imm {
            Some(i) => o.str(&format!("0x{:08x}", i.bits as u32)),
            None => o.str("g[a0]UD"),
        }
        o.pad(80);
        match (ex_imm, inst.src.get(3)) {
            (Some(i), _) => o.str(&format!("0x{:08x}", i.bits as u32)),
            (None, Some(Src::Reg(r))) if r.subnr != 0 => o.str(&format!("a0.{}<0>UD", r.subnr)),
            _ => o.str("a0<0>UD"),
        }
    } else if imm.is_none() {
        o.pad(48);
        if let Some(s) = inst.src.get(1) {
            src_str(o, ver, inst, s);
        }
        o.pad(64);
    } else {
        o.pad(48);
    }
    if !split {
        let dword3 = super::native::encode(devinfo, inst)
            .map(|b| u32::from_le_bytes([b[12], b[13], b[14], b[15]]))
            .unwrap_or_else(|_| send_dword3(ver, inst));
        o.str(&format!("0x{dword3:08x}"));
    }
    o.str("\n");
    o.pad(16);
    // Mesa writes this indent around its column counter, so later padding ignores it.
    o.raw("            ");
    let mut space = false;
    let names: Vec<Option<&str>> = (0..16).map(|i| sfid::name(ver, i)).collect();
    o.control("SFID", &names, sf as u64, Some(&mut space));
    o.str(" MsgDesc:");
    let Some(imm) = imm else {
        // Only the descriptor is in a0: an immediate extended descriptor still gives the
        // second payload's length, as Mesa prints it.
        o.str(" indirect");
        if let Some(ex) = ex_imm {
            o.str(&format!(" ex_mlen {}", msg::ex_mlen(ex.bits as u32)));
        }
        return;
    };
    let d = imm.bits as u32;
    let mut unsupported = false;
    match sf {
        sfid::MATH => {
            let m = msg::MathDesc::decode(ver, d);
            let fns: Vec<Option<&str>> = (0..16u8)
                .map(|i| super::types::MathFn::from_hw(i).map(|f| f.name()))
                .collect();
            o.control("math function", &fns, m.function as u64, Some(&mut space));
            o.control(
                "math saturate",
                &[Some(""), Some("sat")],
                m.saturate as u64,
                Some(&mut space),
            );
            o.control(
                "math signed",
                &[Some(""), Some("signed")],
                m.signed as u64,
                Some(&mut space),
            );
            o.control(
                "math scalar",
                &[Some(""), Some("scalar")],
                m.scalar as u64,
                Some(&mut space),
            );
            o.control(
                "math precision",
                &[Some(""), Some("partial_precision")],
                m.partial_precision as u64,
                Some(&mut space),
            );
        }
        sfid::SAMPLER => {
            let sd = msg::SamplerDesc::decode(ver, d);
            if ver >= 50 {
                o.control(
                    "sampler message",
                    &SAMPLER_MSG,
                    sd.msg_type as u64,
                    Some(&mut space),
                );
                o.control(
                    "sampler simd mode",
                    &[
                        Some("SIMD4x2"),
                        Some("SIMD8"),
                        Some("SIMD16"),
                        Some("SIMD32/64"),
                        Some("SIMD8H"),
                        Some("SIMD16H"),
                        None,
                    ],
                    sd.simd_mode as u64,
                    Some(&mut space),
                );
                if sd.return_format != 0 {
                    o.str(" HP");
                }
                o.str(&format!(
                    " Surface = {} Sampler = {}",
                    sd.binding_table_index, sd.sampler
                ));
            } else {
                o.str(&format!(
                    " ({}, {}, {}, ",
                    sd.binding_table_index, sd.sampler, sd.msg_type
                ));
                if ver != 45 {
                    o.control(
                        "sampler target format",
                        &[Some("F"), None, Some("UD"), Some("D")],
                        sd.return_format as u64,
                        None,
                    );
                }
                o.str(")");
            }
        }
        sfid::DATAPORT_READ | sfid::CONSTANT_CACHE => {
            if ver >= 60 {
                let dp = msg::DataPortDesc::decode(ver, d);
                o.str(&format!(
                    " ({}, {}, {}, {})",
                    dp.binding_table_index, dp.msg_control, dp.msg_type, dp.send_commit as u32
                ));
            } else {
                let dp = msg::Gen4DpReadDesc::decode(ver, d);
                let table: &[Option<&str>] = if ver == 40 {
                    &[
                        Some("OWord Block Read"),
                        Some("OWord Dual Block Read"),
                        Some("Media Block Read"),
                        Some("DWord Scattered Read"),
                    ]
                } else {
                    &[
                        Some("OWord Block Read"),
                        Some("Render Target UNORM Read"),
                        Some("OWord Dual Block Read"),
                        Some("AVC Loop Filter Read"),
                        Some("Media Block Read"),
                        None,
                        Some("DWord Scattered Read"),
                        None,
                    ]
                };
                o.control(
                    "DP read message type",
                    table,
                    dp.msg_type as u64,
                    Some(&mut space),
                );
                o.str(&format!(" MsgCtrl = 0x{}", dp.msg_control));
                o.str(&format!(" Surface = {}", dp.binding_table_index));
            }
        }
        sfid::DATAPORT_WRITE => {
            let (ty, ctrl, bti) = if ver >= 60 {
                let dp = msg::DataPortDesc::decode(ver, d);
                // Mesa's table of Gen8+ render-cache messages has sixteen entries.
                let ty = if ver >= 80 {
                    dp.msg_type & 0xf
                } else {
                    dp.msg_type
                };
                (ty, dp.msg_control, dp.binding_table_index)
            } else {
                let dp = msg::Gen4DpWriteDesc::decode(ver, d);
                (dp.msg_type, dp.msg_control, dp.binding_table_index)
            };
            let table: &[Option<&str>] = if ver >= 90 {
                &RC_GFX9
            } else if ver >= 70 {
                &RC_GFX7
            } else if ver >= 60 {
                &RC_GFX6
            } else {
                &DP_WRITE_GFX4
            };
            o.control("DP rc message type", table, ty as u64, Some(&mut space));
            if ty == msg::RenderTargetWriteDesc::msg_type(ver) {
                let rt = msg::RenderTargetWriteDesc::decode(ver, d);
                o.control(
                    "RT message type",
                    &[
                        Some("SIMD16"),
                        Some("SIMD16/RepData"),
                        Some("SIMD8/DualSrcLow"),
                        Some("SIMD8/DualSrcHigh"),
                        Some("SIMD8"),
                        Some("SIMD8/ImageWrite"),
                        None,
                        Some("SIMD16/RepData-111"),
                    ],
                    rt.subtype.bits() as u64,
                    Some(&mut space),
                );
                if rt.slot_group_high {
                    o.str(" Hi");
                }
                if rt.last_render_target {
                    o.str(" LastRT");
                }
                if rt.write_commit {
                    o.str(" WriteCommit");
                }
            } else {
                o.str(&format!(" MsgCtrl = 0x{ctrl}"));
            }
            o.str(&format!(" Surface = {bti}"));
        }
        sfid::URB => {
            let u = msg::UrbDesc::decode(ver, d);
            o.str(&format!(" {}", u.global_offset));
            space = true;
            let table: &[Option<&str>] = if ver >= 70 {
                &URB_GFX7
            } else {
                &[Some("urb_write"), Some("ff_sync")]
            };
            o.control("urb opcode", table, u.opcode as u64, Some(&mut space));
            if u.per_slot_offset {
                o.str(" per-slot");
            }
            if ver >= 80
                && (u.opcode == msg::UrbDesc::SIMD8_WRITE || u.opcode == msg::UrbDesc::SIMD8_READ)
            {
                if u.channel_mask_present {
                    o.str(" masked");
                }
            } else {
                o.control(
                    "urb swizzle",
                    &[Some(""), Some("interleave"), Some("transpose"), None],
                    u.swizzle as u64,
                    Some(&mut space),
                );
            }
            if ver < 70 {
                o.control(
                    "urb allocate",
                    &[Some(""), Some("allocate")],
                    u.allocate as u64,
                    Some(&mut space),
                );
                o.control(
                    "urb used",
                    &[Some(""), Some("used")],
                    u.used as u64,
                    Some(&mut space),
                );
            }
            if ver < 80 {
                o.control(
                    "urb complete",
                    &[Some(""), Some("complete")],
                    u.complete as u64,
                    Some(&mut space),
                );
            }
        }
        sfid::THREAD_SPAWNER => {}
        sfid::GATEWAY => {
            let names = [
                "open",
                "close",
                "forward msg",
                "get timestamp",
                "barrier msg",
                "update state",
                "mmio read/write",
                "(null)",
            ];
            let sub = msg::GatewayDesc::decode(ver, d).subfunction;
            o.str(&format!(" ({})", names[sub as usize]));
        }
        sfid::DATA_CACHE if ver >= 70 => {
            o.str(" (");
            let dp = msg::DataPortDesc::decode(ver, d);
            o.control(
                "DP DC0 message type",
                &DC0_GFX7,
                dp.msg_type as u64,
                Some(&mut space),
            );
            o.str(&format!(", {}, ", dp.binding_table_index));
            if dp.msg_type == msg::dc::UNTYPED_ATOMIC {
                o.control("atomic op", &AOP, dp.atomic_op() as u64, Some(&mut space));
            } else {
                o.str(&format!("{}", dp.msg_control));
            }
            o.str(")");
        }
        sfid::DATA_CACHE_1 if ver >= 70 => {
            o.str(" (");
            let dp = msg::DataPortDesc::decode(ver, d);
            o.control(
                "DP DC1 message type",
                &DC1_HSW,
                dp.msg_type as u64,
                Some(&mut space),
            );
            o.str(&format!(", Surface = {}, ", dp.binding_table_index));
            let simd8_or_16 = if dp.simd8() { 8 } else { 16 };
            match dp.msg_type {
                2 | 6 | 11 => {
                    o.str(&format!("SIMD{simd8_or_16},"));
                    o.control("atomic op", &AOP, dp.atomic_op() as u64, Some(&mut space));
                }
                3 | 7 | 12 | 0x12 => {
                    o.control("atomic op", &AOP, dp.atomic_op() as u64, Some(&mut space))
                }
                1 | 9 | 5 | 13 | 0x19 | 0x11 => {
                    let modes = ["4x2", "16", "8", "(null)"];
                    o.str(&format!(
                        "SIMD{}, Mask = 0x{:x}",
                        modes[dp.surface_simd_mode() as usize],
                        dp.disabled_channels()
                    ));
                }
                0x1b | 0x1d => {
                    o.str(&format!("SIMD{simd8_or_16},"));
                    o.control(
                        "atomic float op",
                        &[
                            None,
                            Some("fmax"),
                            Some("fmin"),
                            Some("fcmpwr"),
                            Some("fadd"),
                        ],
                        dp.atomic_op() as u64,
                        Some(&mut space),
                    );
                }
                _ => o.str(&format!("0x{:x}", dp.msg_control)),
            }
            o.str(")");
        }
        sfid::PIXEL_INTERPOLATOR if ver >= 70 => {
            let pi = msg::PixelInterpDesc::decode(ver, d);
            let types = [
                "per_message_offset",
                "sample_position",
                "centroid",
                "per_slot_offset",
            ];
            o.str(&format!(
                " ({}, {}, 0x{:02x})",
                if pi.noperspective { "linear" } else { "persp" },
                types[pi.msg_type as usize],
                pi.data
            ));
        }
        _ => unsupported = true,
    }
    if unsupported {
        o.str(&format!("unsupported shared function ID {sf}"));
    }
    let len = msg::Lengths::decode(ver, d);
    o.str(&format!(" mlen {}", len.mlen));
    if let Some(ex) = ex_imm {
        o.str(&format!(" ex_mlen {}", msg::ex_mlen(ex.bits as u32)));
    }
    o.str(&format!(" rlen {}", len.rlen));
}

const fn table32(entries: &[(usize, &'static str)]) -> [Option<&'static str>; 32] {
    let mut t = [None; 32];
    let mut i = 0;
    while i < entries.len() {
        t[entries[i].0] = Some(entries[i].1);
        i += 1;
    }
    t
}

static SAMPLER_MSG: [Option<&str>; 32] = table32(&[
    (0, "sample"),
    (1, "sample_b"),
    (2, "sample_l"),
    (3, "sample_c"),
    (4, "sample_d"),
    (5, "sample_b_c"),
    (6, "sample_l_c"),
    (7, "ld"),
    (8, "gather4"),
    (9, "lod"),
    (10, "resinfo"),
    (11, "sampleinfo"),
    (16, "gather4_c"),
    (17, "gather4_po"),
    (18, "gather4_po_c"),
    (20, "sample_d_c"),
    (24, "sample_lz"),
    (25, "sample_c_lz"),
    (26, "ld_lz"),
    (28, "ld2dms_w"),
    (29, "ld_mcs"),
    (30, "ld2dms"),
    (31, "ld2dss"),
]);

static DP_WRITE_GFX4: [Option<&str>; 32] = table32(&[
    (0, "OWord block write"),
    (1, "OWord dual block write"),
    (2, "media block write"),
    (3, "DWord scattered write"),
    (4, "RT write"),
    (5, "streamed VB write"),
    (6, "RT UNORM write"),
    (7, "flush render cache"),
]);

static RC_GFX6: [Option<&str>; 32] = table32(&[
    (0, "OWORD block read"),
    (1, "RT UNORM read"),
    (2, "OWORD dual block read"),
    (4, "media block read"),
    (5, "OWORD unaligned block read"),
    (6, "DWORD scattered read"),
    (7, "DWORD atomic write"),
    (8, "OWORD block write"),
    (9, "OWORD dual block write"),
    (10, "media block write"),
    (11, "DWORD scattered write"),
    (12, "RT write"),
    (13, "streamed VB write"),
    (14, "RT UNORM write"),
]);

static RC_GFX7: [Option<&str>; 32] = table32(&[
    (4, "media block read"),
    (5, "typed surface read"),
    (6, "typed atomic op"),
    (7, "memory fence"),
    (10, "media block write"),
    (12, "RT write"),
    (13, "typed surface write"),
]);

static RC_GFX9: [Option<&str>; 32] = table32(&[(12, "RT write"), (13, "RT read")]);

static URB_GFX7: [Option<&str>; 32] = table32(&[
    (0, "write HWord"),
    (1, "write OWord"),
    (2, "read HWord"),
    (3, "read OWord"),
    (4, "atomic mov"),
    (5, "atomic inc"),
    (6, "atomic add"),
    (7, "SIMD8 write"),
    (8, "SIMD8 read"),
]);

static DC0_GFX7: [Option<&str>; 32] = table32(&[
    (0, "DC OWORD block read"),
    (1, "DC unaligned OWORD block read"),
    (2, "DC OWORD dual block read"),
    (3, "DC DWORD scattered read"),
    (4, "DC byte scattered read"),
    (5, "DC untyped surface read"),
    (6, "DC untyped atomic"),
    (7, "DC mfence"),
    (8, "DC OWORD block write"),
    (10, "DC OWORD dual block write"),
    (11, "DC DWORD scatterd write"),
    (12, "DC byte scattered write"),
    (13, "DC untyped surface write"),
]);

static DC1_HSW: [Option<&str>; 32] = table32(&[
    (1, "untyped surface read"),
    (2, "DC untyped atomic op"),
    (3, "DC untyped 4x2 atomic op"),
    (4, "DC media block read"),
    (5, "DC typed surface read"),
    (6, "DC typed atomic"),
    (7, "DC typed 4x2 atomic op"),
    (9, "DC untyped surface write"),
    (10, "DC media block write"),
    (11, "DC atomic counter op"),
    (12, "DC 4x2 atomic counter op"),
    (13, "DC typed surface write"),
    (0x10, "DC A64 scattered read"),
    (0x11, "DC A64 untyped surface read"),
    (0x12, "DC A64 untyped atomic op"),
    (0x14, "DC A64 oword block read"),
    (0x15, "DC A64 oword block write"),
    (0x19, "DC A64 untyped surface write"),
    (0x1a, "DC A64 scattered write"),
    (0x1b, "DC untyped atomic float op"),
    (0x1d, "DC A64 untyped atomic float op"),
]);

static AOP: [Option<&str>; 16] = [
    None,
    Some("and"),
    Some("or"),
    Some("xor"),
    Some("mov"),
    Some("inc"),
    Some("dec"),
    Some("add"),
    Some("sub"),
    Some("revsub"),
    Some("imax"),
    Some("imin"),
    Some("umax"),
    Some("umin"),
    Some("cmpwr"),
    Some("predec"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_format_matches_c() {
        // Values and printf("%g") output checked against glibc.
        assert_eq!(fmt_g(17.0), "17");
        assert_eq!(fmt_g(0.9f32 as f64), "0.9");
        assert_eq!(fmt_g(4e-9f32 as f64), "4e-09");
        assert_eq!(fmt_g(1e6), "1e+06");
        assert_eq!(fmt_g(123456.0), "123456");
        assert_eq!(fmt_g(0.0001), "0.0001");
        assert_eq!(fmt_g(-2.5), "-2.5");
        assert_eq!(fmt_g(0.0), "0");
    }

    #[test]
    fn vf_decodes_like_the_prm_table() {
        // PRM "Restricted 8-bit float": 0x30 = 1.0, 0x40 = 2.0, 0x48 = 3.0, 0x70 = 16.0,
        // 0x20 = 0.5, 0xb0 = -1.0.
        for (b, f) in [
            (0x30u8, 1.0f32),
            (0x40, 2.0),
            (0x48, 3.0),
            (0x70, 16.0),
            (0x20, 0.5),
            (0xb0, -1.0),
            (0, 0.0),
        ] {
            assert_eq!(vf_to_f32(b), f, "{b:#x}");
        }
    }
}
