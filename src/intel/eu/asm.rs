//! Assembler for Mesa's EU assembly syntax (what [`super::disasm`] prints and what Mesa's
//! `i965_asm` reads), producing [`Inst`]s with the hidden operands Mesa's emitter would use.

use std::collections::HashMap;

use super::disasm::pred_control_from_suffix;
use super::inst::{Branch, Dst, Imm, Indirect, Inst, Message, Predicate, RegSrc, Region, Src};
use super::native::{has_jip, has_uip, jump_layout, jump_unit, JumpLayout};
use super::types::{arf, sfid, AccessMode, CondMod, MathFn, Opcode, RegFile, RegType, ThreadCtrl};
use crate::intel::msg;
use crate::intel::DevInfo;

/// A syntax or semantic error in assembly text, with its 1-based line and column.
pub type AsmError = crate::util::SourceError;

/// Assembles a program. Labels (`NAME:`) take no space; jump operands may name a label or give
/// a distance in the generation's jump units.
pub fn assemble(devinfo: &DevInfo, text: &str) -> Result<Vec<Inst>, AsmError> {
    let clean = strip_comments(text);
    let chars: Vec<char> = clean.chars().collect();
    let line_of = |pos: usize| -> (usize, usize) {
        let mut line = 1;
        let mut col = 1;
        for &c in &chars[..pos.min(chars.len())] {
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        (line, col)
    };
    let mk_err = |pos: usize, msg: String| {
        let (line, col) = line_of(pos);
        AsmError {
            line,
            col,
            message: msg,
        }
    };

    // First pass: split into label definitions and instruction statements.
    let mut stmts: Vec<(usize, usize)> = Vec::new(); // char ranges of instructions
    let mut labels: HashMap<String, usize> = HashMap::new(); // label -> instruction index
    let mut pos = 0;
    while pos < chars.len() {
        while pos < chars.len() && chars[pos].is_whitespace() {
            pos += 1;
        }
        if pos >= chars.len() {
            break;
        }
        // A label: identifier followed by ':' (and not "JIP:" inside an instruction).
        let mut q = pos;
        while q < chars.len() && (chars[q].is_ascii_alphanumeric() || chars[q] == '_') {
            q += 1;
        }
        if q > pos && q < chars.len() && chars[q] == ':' {
            let name: String = chars[pos..q].iter().collect();
            if labels.insert(name.clone(), stmts.len()).is_some() {
                return Err(mk_err(pos, format!("label `{name}` defined twice")));
            }
            pos = q + 1;
            continue;
        }
        let start = pos;
        while pos < chars.len() && chars[pos] != ';' {
            pos += 1;
        }
        if pos >= chars.len() {
            return Err(mk_err(start, "instruction without terminating `;`".into()));
        }
        stmts.push((start, pos));
        pos += 1;
    }

    let mut out = Vec::with_capacity(stmts.len());
    for (idx, &(s, e)) in stmts.iter().enumerate() {
        let mut p = Parser {
            c: &chars[..e],
            pos: s,
            ver: devinfo.ver,
        };
        let inst = p
            .statement(devinfo, idx, &labels, stmts.len())
            .map_err(|(at, m)| mk_err(at, m))?;
        // Every instruction must also encode: the simulator runs the returned instructions
        // without encoding them, so a field the hardware cannot hold (a stride, a register,
        // a jump distance) is reported here, at the instruction's line, not later or never.
        super::native::encode(devinfo, &inst).map_err(|e| mk_err(s, e.message))?;
        out.push(inst);
    }
    Ok(out)
}

fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        match rest[i..].find("*/") {
            Some(j) => {
                for c in rest[i..i + j + 2].chars() {
                    out.push(if c == '\n' { '\n' } else { ' ' });
                }
                rest = &rest[i + j + 2..];
            }
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    // `//` line comments too.
    out.lines()
        .map(|l| match l.find("//") {
            Some(i) => format!("{}{}", &l[..i], " ".repeat(l.len() - i)),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

type PResult<T> = Result<T, (usize, String)>;

struct Parser<'a> {
    c: &'a [char],
    pos: usize,
    ver: u32,
}

/// Operand as written, before the instruction's access mode and type resolve it.
struct RawReg {
    /// Where the operand starts in the text, for errors found when it is resolved.
    pos: usize,
    file: RegFile,
    nr: u8,
    sub: Option<u32>,
    region: Vec<RegionPart>,
    swizzle: Option<String>,
    ty: RegType,
    negate: bool,
    abs: bool,
    indirect: Option<Indirect>,
}

#[derive(Clone, Copy)]
enum RegionPart {
    Num(u8),
    Vxh,
}

enum RawOperand {
    Reg(RawReg),
    Imm(Imm),
}

impl<'a> Parser<'a> {
    fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err((self.pos, msg.into()))
    }

    fn peek(&self) -> Option<char> {
        self.c.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, ch: char) -> bool {
        if self.peek() == Some(ch) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, ch: char) -> PResult<()> {
        if self.eat(ch) {
            Ok(())
        } else {
            self.err(format!("expected `{ch}`"))
        }
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(k, ch)| self.c.get(self.pos + k) == Some(&ch))
    }

    fn eat_str(&mut self, s: &str) -> bool {
        if self.starts_with(s) {
            self.pos += s.chars().count();
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                s.push(c);
                self.pos += 1;
            } else {
                break;
            }
        }
        s
    }

    fn uint(&mut self) -> PResult<u64> {
        let start = self.pos;
        let mut v: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(d as u64))
                .ok_or((start, "number too large".to_string()))?;
            self.pos += 1;
        }
        if self.pos == start {
            return self.err("expected a number");
        }
        Ok(v)
    }

    fn int(&mut self) -> PResult<i64> {
        let start = self.pos;
        let neg = self.eat('-');
        let v = i64::try_from(self.uint()?).map_err(|_| (start, "number too large".to_string()))?;
        Ok(if neg { -v } else { v })
    }

    /// A number that must be at most `max`: the fields it lands in are narrow, and a larger
    /// value must be an error rather than wrap into another register or count.
    fn uint_max(&mut self, max: u64, what: &str) -> PResult<u64> {
        let start = self.pos;
        let v = self.uint()?;
        if v > max {
            return Err((start, format!("{what} {v} out of range (at most {max})")));
        }
        Ok(v)
    }

    /// `N.M` of a flag register `fN.M` (after the `f`): f0.0 … f1.1.
    fn flag_reg(&mut self) -> PResult<(u8, u8)> {
        let start = self.pos;
        let nr = self.uint()?;
        self.expect('.')?;
        let sub = self.uint()?;
        if nr > 1 || sub > 1 {
            return Err((
                start,
                format!("flag register f{nr}.{sub} does not exist (f0.0 … f1.1)"),
            ));
        }
        Ok((nr as u8, sub as u8))
    }

    fn type_letters(&mut self) -> PResult<RegType> {
        let start = self.pos;
        let mut s = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_ascii_uppercase()) {
            s.push(c);
            self.pos += 1;
        }
        RegType::from_letters(&s).ok_or((start, format!("unknown type `{s}`")))
    }

    fn statement(
        &mut self,
        devinfo: &DevInfo,
        idx: usize,
        labels: &HashMap<String, usize>,
        count: usize,
    ) -> PResult<Inst> {
        let ver = self.ver;
        self.skip_ws();
        let mut pred: Option<(bool, u8, u8, String)> = None;
        if self.eat('(') {
            let inverse = if self.eat('-') {
                true
            } else {
                self.eat('+');
                false
            };
            if !self.eat('f') {
                return self.err("expected a flag register in the predicate");
            }
            let (nr, sub) = self.flag_reg()?;
            let mut suffix = String::new();
            if self.eat('.') {
                suffix = format!(".{}", self.ident());
            }
            self.expect(')')?;
            pred = Some((inverse, nr, sub, suffix));
            self.skip_ws();
        }
        let op_pos = self.pos;
        let name = self.ident();
        let op = Opcode::from_name(ver, &name).ok_or((
            op_pos,
            format!("unknown opcode `{name}` on {}", devinfo.name),
        ))?;
        let mut inst = Inst::new(op);
        let mut flag: Option<(u8, u8)> = None;
        while self.eat('.') {
            let mpos = self.pos;
            if self.peek() == Some('f')
                && self.c.get(self.pos + 1).is_some_and(|c| c.is_ascii_digit())
            {
                self.pos += 1;
                flag = Some(self.flag_reg()?);
                continue;
            }
            let m = self.ident();
            match m.as_str() {
                "sat" => inst.saturate = true,
                "breakpoint" => inst.debug = true,
                _ => {
                    inst.cond_mod = CondMod::from_suffix(&m)
                        .ok_or((mpos, format!("unknown modifier `.{m}`")))?;
                }
            }
        }
        if op == Opcode::Math {
            self.skip_ws();
            let fpos = self.pos;
            let f = self.ident();
            inst.math_fn =
                Some(MathFn::from_name(&f).ok_or((fpos, format!("unknown math function `{f}`")))?);
        }
        self.skip_ws();
        if op != Opcode::Nop && op != Opcode::Nenop {
            self.expect('(')?;
            let es = self.uint()?;
            if ![1, 2, 4, 8, 16, 32].contains(&es) {
                return self.err(format!("invalid execution size {es}"));
            }
            inst.exec_size = es as u8;
            self.expect(')')?;
        }
        let mut base_mrf = 0u8;
        if op == Opcode::Send && ver < 60 {
            self.skip_ws();
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                base_mrf = self.uint_max(15, "base message register")? as u8;
            }
        }

        // Operands, read as text first; their encoding depends on the options after them.
        let mut dst: Option<RawReg> = None;
        let mut srcs: Vec<RawOperand> = Vec::new();
        let mut jip: Option<(usize, String)> = None;
        let mut uip: Option<(usize, String)> = None;
        let mut pop: Option<u8> = None;
        let mut hexes: Vec<u32> = Vec::new();
        let mut sfid_name: Option<(usize, String)> = None;
        loop {
            self.skip_ws();
            match self.peek() {
                None if matches!(op, Opcode::Nop | Opcode::Nenop) => break,
                None => return self.err("unexpected end of instruction"),
                Some('{') => break,
                _ => {}
            }
            if self.eat_str("JIP:") {
                self.skip_ws();
                let p = self.pos;
                jip = Some((p, self.label_or_int()?));
            } else if self.eat_str("UIP:") {
                self.skip_ws();
                let p = self.pos;
                uip = Some((p, self.label_or_int()?));
            } else if self.eat_str("Jump:") {
                self.skip_ws();
                let p = self.pos;
                jip = Some((p, self.int()?.to_string()));
            } else if self.eat_str("Pop:") {
                self.skip_ws();
                pop = Some(self.uint_max(u8::MAX.into(), "pop count")? as u8);
            } else if op.is_send() && self.at_sfid_comment() {
                // The descriptor commentary: the SFID name, then text up to the options.
                let p = self.pos;
                let mut name = String::new();
                while !self.starts_with("MsgDesc:") {
                    match self.peek() {
                        None | Some('{') => {
                            return self.err("expected `MsgDesc:` after the descriptor")
                        }
                        Some(c) => name.push(c),
                    }
                    self.pos += 1;
                }
                sfid_name = Some((p, name.split_whitespace().collect::<Vec<_>>().join(" ")));
                while self.peek().is_some_and(|c| c != '{') {
                    self.pos += 1;
                }
            } else if op.is_send() && !srcs.is_empty() && self.starts_with("0x") {
                self.pos += 2;
                let p = self.pos;
                let mut h = String::new();
                while let Some(c) = self.peek().filter(|c| c.is_ascii_hexdigit()) {
                    h.push(c);
                    self.pos += 1;
                }
                hexes.push(
                    u32::from_str_radix(&h, 16).map_err(|_| (p, "bad descriptor".to_string()))?,
                );
            } else {
                let want_dst = op.desc().ndst > 0 && dst.is_none() && !(op == Opcode::Jmpi);
                if want_dst {
                    let d = self.operand()?;
                    match d {
                        RawOperand::Reg(r) => dst = Some(r),
                        RawOperand::Imm(_) => {
                            return self.err("destination cannot be an immediate")
                        }
                    }
                } else {
                    srcs.push(self.operand()?);
                }
            }
        }
        let mut opts: Vec<(usize, String)> = Vec::new();
        let has_opts = self.eat('{');
        if !has_opts && !matches!(op, Opcode::Nop | Opcode::Nenop) {
            return self.err("expected `{` before the instruction options");
        }
        let mut in_opts = has_opts;
        while in_opts {
            self.skip_ws();
            if self.eat('}') {
                in_opts = false;
                continue;
            }
            if self.eat(',') {
                continue;
            }
            let p = self.pos;
            let w = self.ident();
            if w.is_empty() {
                return self.err("unexpected character in options");
            }
            opts.push((p, w));
        }
        self.skip_ws();
        if self.pos < self.c.len() {
            return self.err("unexpected text after the options");
        }

        for (p, o) in &opts {
            match o.as_str() {
                "align1" => inst.access_mode = AccessMode::Align1,
                "align16" => inst.access_mode = AccessMode::Align16,
                "WE_all" | "nomask" => inst.we_all = true,
                "NoDDClr" => inst.no_dd_clear = true,
                "NoDDChk" => inst.no_dd_check = true,
                "sechalf" if ver < 60 => inst.qtr_ctrl = 1,
                "compr" if ver < 60 => inst.qtr_ctrl = 2,
                "compr4" if ver < 60 => inst.qtr_ctrl = 3,
                "atomic" => inst.thread_ctrl = ThreadCtrl::Atomic,
                "switch" => inst.thread_ctrl = ThreadCtrl::Switch,
                "AccWrEnable" | "BranchCtrl" => inst.acc_wr = true,
                "EOT" => inst.eot = true,
                "compacted" => {}
                "1Q" | "2Q" | "3Q" | "4Q" if ver >= 60 => {
                    inst.qtr_ctrl = o.as_bytes()[0] - b'1';
                }
                "1H" if ver >= 60 => inst.qtr_ctrl = 0,
                "2H" if ver >= 60 => inst.qtr_ctrl = 2,
                n if ver >= 60
                    && n.len() == 2
                    && n.ends_with('N')
                    && n.as_bytes()[0].is_ascii_digit() =>
                {
                    let k = n.as_bytes()[0].wrapping_sub(b'1');
                    if k > 7 || (k & 1 == 1 && ver < 70) {
                        return Err((*p, format!("invalid channel group `{n}`")));
                    }
                    inst.qtr_ctrl = k / 2;
                    inst.nib_ctrl = k & 1 == 1;
                }
                _ => return Err((*p, format!("unknown option `{o}`"))),
            }
        }

        if let Some((inv, nr, sub, suffix)) = &pred {
            let control = pred_control_from_suffix(inst.access_mode, suffix)
                .ok_or((op_pos, format!("unknown predicate suffix `{suffix}`")))?;
            inst.pred = Some(Predicate {
                control,
                inverse: *inv,
            });
            inst.flag_nr = *nr;
            inst.flag_subnr = *sub;
        }
        if let Some((nr, sub)) = flag {
            inst.flag_nr = nr;
            inst.flag_subnr = sub;
        }
        if ver < 70 && inst.flag_nr != 0 {
            return Err((op_pos, "flag register f1 needs Gen7 or later".into()));
        }

        // Resolve operands.
        let given = srcs.len();
        if op.is_three_src() {
            let d = dst.ok_or((op_pos, "missing destination".to_string()))?;
            inst.dst = self.resolve_dst(&inst, d, true)?;
            if srcs.len() != 3 {
                return Err((op_pos, format!("{} takes three sources", op.name())));
            }
            inst.src = srcs
                .into_iter()
                .map(|s| self.resolve_src(&inst, s, true))
                .collect::<PResult<Vec<_>>>()?;
        } else {
            if let Some(d) = dst {
                inst.dst = self.resolve_dst(&inst, d, false)?;
            }
            let mut resolved = Vec::new();
            for s in srcs {
                resolved.push(self.resolve_src(&inst, s, false)?);
            }
            inst.src = resolved;
        }

        // Missing or extra sources would leave the encoder's fields for them to whatever the
        // other operands put there (`dp4 g124<1>D 1065353216D` encoded its immediate as a
        // garbage src1 region).
        let nsrc = op.desc().nsrc as usize;
        if !op.is_send() && !op.is_three_src() && nsrc > 0 && given != nsrc {
            return Err((
                op_pos,
                format!(
                    "{} takes {nsrc} source{}, {} given",
                    op.name(),
                    if nsrc == 1 { "" } else { "s" },
                    given
                ),
            ));
        }

        // `compr4` is printed for a compressed write to an MRF with bit 7 set.
        if ver < 60 && inst.qtr_ctrl == 3 && inst.dst.file == RegFile::Mrf {
            inst.qtr_ctrl = 2;
            inst.dst.nr |= 0x80;
        }

        // Jumps.
        let layout = jump_layout(ver, op);
        if layout != JumpLayout::None {
            let unit = jump_unit(ver);
            let here = idx as i64 * 16;
            let resolve = |j: &Option<(usize, String)>| -> PResult<i32> {
                match j {
                    None => Ok(0),
                    Some((p, t)) => {
                        if let Ok(v) = t.parse::<i64>() {
                            return v
                                .checked_mul(unit as i64)
                                .and_then(|b| i32::try_from(b).ok())
                                .ok_or((
                                    *p,
                                    format!(
                                        "jump distance {v} ({unit}-byte units) does not fit in 32 bits"
                                    ),
                                ));
                        }
                        let target = labels
                            .get(t)
                            .ok_or((*p, format!("undefined label `{t}`")))?;
                        if *target > count {
                            return Err((*p, "label beyond the program".into()));
                        }
                        Ok((*target as i64 * 16 - here) as i32)
                    }
                }
            };
            let mut b = Branch {
                jip: resolve(&jip)?,
                uip: resolve(&uip)?,
                pop: pop.unwrap_or(0),
            };
            if !has_jip(ver, op) && ver >= 60 {
                b.jip = 0;
            }
            if !has_uip(ver, op) {
                b.uip = 0;
            }
            inst.branch = Some(b);
        } else if jip.is_some() || uip.is_some() {
            return Err((op_pos, format!("{} has no jump targets", op.name())));
        }

        if op.is_send() {
            let split = matches!(op, Opcode::Sends | Opcode::Sendsc);
            let d = match hexes.first() {
                Some(d) => *d,
                None if split => 0,
                None => return Err((op_pos, "send without a message descriptor".to_string())),
            };
            let (p, name) = sfid_name.ok_or((op_pos, "send without `MsgDesc:`".to_string()))?;
            let id = sfid::from_name(ver, &name)
                .ok_or((p, format!("unknown shared function `{name}`")))?;
            let (bits, in_desc, eot) = msg::split_dword3(ver, d);
            if eot && !split {
                inst.eot = true;
            }
            if let Some(in_desc) = in_desc.filter(|&s| s != id) {
                return Err((
                    p,
                    format!("descriptor names SFID {in_desc} but the text says `{name}`"),
                ));
            }
            inst.msg = Some(Message {
                sfid: id,
                base_mrf,
                ex_desc: 0,
            });
            if matches!(op, Opcode::Sends | Opcode::Sendsc) {
                // Payloads print without regions; a subregister means the second half (16 B).
                inst.dst.subnr = if inst.dst.subnr != 0 { 16 } else { 0 };
                inst.dst.hstride = 1;
                for s in inst.src.iter_mut() {
                    if let Src::Reg(r) = s {
                        r.region = Region::SCALAR;
                        if r.nr & 0xf0 != arf::ADDRESS || r.file != RegFile::Arf {
                            r.subnr = if r.subnr != 0 { 16 } else { 0 };
                        } else {
                            r.subnr /= 4;
                        }
                    }
                }
                // Register descriptors: the descriptor is a0.0, written `a0<0>UD` (Mesa's
                // disassembler) or `g[a0]UD` (Mesa's vectors); the extended one `a0.N<0>UD`.
                // Both are kept as the a0 register the decoder gives back.
                for (k, what) in [(2, "descriptor"), (3, "extended descriptor")] {
                    let Some(Src::Reg(r)) = inst.src.get(k) else {
                        continue;
                    };
                    let a0_sub = match r.indirect {
                        None if r.file == RegFile::Arf && r.nr == arf::ADDRESS => Some(r.subnr),
                        Some(i) if r.file == RegFile::Grf && i.offset == 0 => Some(i.addr_subnr),
                        _ => None,
                    };
                    let sub = match a0_sub {
                        Some(0) => 0,
                        Some(n) if k == 3 && n < 8 => n,
                        _ => {
                            let form = if k == 2 {
                                "`a0<0>UD` or `g[a0]UD`"
                            } else {
                                "`a0.N<0>UD` (N < 8)"
                            };
                            return Err((
                                op_pos,
                                format!("sends {what} must be an immediate or {form}"),
                            ));
                        }
                    };
                    inst.src[k] = Src::Reg(RegSrc::new(
                        RegFile::Arf,
                        arf::ADDRESS,
                        sub,
                        RegType::UD,
                        Region::SCALAR,
                    ));
                }
                let mut hex = hexes.iter();
                while inst.src.len() < 4 {
                    let h = *hex.next().ok_or((
                        op_pos,
                        "sends needs a descriptor and an extended descriptor".to_string(),
                    ))?;
                    let bits = if inst.src.len() == 2 {
                        h & 0x7fff_ffff
                    } else {
                        h
                    };
                    inst.src.push(Src::Imm(Imm {
                        ty: RegType::UD,
                        bits: bits as u64,
                    }));
                }
            } else if inst.src.len() < 2 {
                // The descriptor is src1 unless an indirect a0 register was given.
                inst.src.push(Src::Imm(Imm {
                    ty: RegType::UD,
                    bits: bits as u64,
                }));
            }
        }
        fill_hidden(ver, &mut inst);
        Ok(inst)
    }

    /// At `<sfid name> MsgDesc:`, the descriptor commentary of a send.
    fn at_sfid_comment(&self) -> bool {
        let mut i = self.pos;
        while i < self.c.len() && self.c[i] != '{' {
            if self.c[i..].starts_with(&['M', 's', 'g', 'D', 'e', 's', 'c', ':']) {
                let name: String = self.c[self.pos..i].iter().collect();
                let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
                return (0..16).any(|id| sfid::name(self.ver, id) == Some(name.as_str()));
            }
            i += 1;
        }
        false
    }

    /// A register name: lowercase letters and digits (the type suffix that may follow is
    /// uppercase), or `ARF<n>`.
    fn reg_ident(&mut self) -> String {
        let mut s = String::new();
        if self.eat_str("ARF") {
            s.push_str("ARF");
        }
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            s.push(c);
            self.pos += 1;
        }
        s
    }

    fn label_or_int(&mut self) -> PResult<String> {
        if self.peek().is_some_and(|c| c == '-' || c.is_ascii_digit()) {
            return Ok(self.int()?.to_string());
        }
        let s = self.ident();
        if s.is_empty() {
            return self.err("expected a label");
        }
        Ok(s)
    }

    fn operand(&mut self) -> PResult<RawOperand> {
        let mut negate = false;
        let mut abs = false;
        loop {
            let minus = self.peek() == Some('-')
                && !self.c.get(self.pos + 1).is_some_and(|c| c.is_ascii_digit());
            if minus || self.peek() == Some('~') {
                self.pos += 1;
                negate = true;
            } else if self.eat_str("(abs)") {
                abs = true;
            } else {
                break;
            }
        }
        if self.peek().is_some_and(|c| c == '-' || c.is_ascii_digit()) {
            if negate || abs {
                return self.err("source modifiers on an immediate");
            }
            return self.immediate().map(RawOperand::Imm);
        }
        let start = self.pos;
        let (file, nr, bare, indirect) = if self.eat_str("g[a0") {
            let mut sub = 0u8;
            let mut off = 0i64;
            if self.eat('.') {
                sub = self.uint_max(15, "address subregister")? as u8;
            }
            self.skip_ws();
            if !self.eat(']') {
                let p = self.pos;
                off = self.int()?;
                if !(-512..512).contains(&off) {
                    return Err((
                        p,
                        format!("indirect offset {off} out of range (-512 … 511)"),
                    ));
                }
                self.skip_ws();
                self.expect(']')?;
            }
            (
                RegFile::Grf,
                0,
                false,
                Some(Indirect {
                    addr_subnr: sub,
                    offset: off as i16,
                }),
            )
        } else {
            let name = self.reg_ident();
            let (file, nr, bare) =
                parse_reg_name(&name).ok_or((start, format!("unknown register `{name}`")))?;
            (file, nr, bare, None)
        };
        let mut r = RawReg {
            pos: start,
            file,
            nr,
            sub: None,
            region: Vec::new(),
            swizzle: None,
            ty: RegType::UD,
            negate,
            abs,
            indirect,
        };
        if bare {
            return Ok(RawOperand::Reg(r));
        }
        if indirect.is_none()
            && self.peek() == Some('.')
            && self.c.get(self.pos + 1).is_some_and(|c| c.is_ascii_digit())
        {
            self.pos += 1;
            // Bounded here so the byte offset (subregister × type size) cannot overflow; the
            // 32-byte register bound is checked once the type is known.
            r.sub = Some(self.uint_max(u32::MAX.into(), "subregister")? as u32);
        }
        if self.eat('<') {
            loop {
                if self.eat_str("VxH") {
                    r.region.push(RegionPart::Vxh);
                } else {
                    // 32 is the largest stride or width any field holds (and 255 would
                    // read as VxH).
                    let v = self.uint_max(32, "region value")?;
                    r.region.push(RegionPart::Num(v as u8));
                }
                if self.eat('>') {
                    break;
                }
                if !self.eat(',') && !self.eat(';') {
                    return self.err("expected `,` or `>` in region");
                }
            }
        }
        if self.eat('.') {
            let mut s = String::new();
            while let Some(c) = self.peek().filter(|c| matches!(c, 'x' | 'y' | 'z' | 'w')) {
                s.push(c);
                self.pos += 1;
            }
            r.swizzle = Some(s);
        }
        r.ty = self.type_letters()?;
        Ok(RawOperand::Reg(r))
    }

    fn immediate(&mut self) -> PResult<Imm> {
        let start = self.pos;
        if self.eat_str("0x") {
            let mut h = String::new();
            while let Some(c) = self
                .peek()
                .filter(|c| c.is_ascii_digit() || ('a'..='f').contains(c))
            {
                h.push(c);
                self.pos += 1;
            }
            let v = u64::from_str_radix(&h, 16)
                .map_err(|_| (start, "bad hex immediate".to_string()))?;
            let ty = self.type_letters()?;
            // F is the one 32-bit type allowed 64 bits: HSW's DIM carries a double in it.
            if ty.size() < 8 && ty != RegType::F && v >> 32 != 0 {
                return Err((start, "immediate does not fit in 32 bits".into()));
            }
            // Mesa replicates 16-bit immediates into both halves of the dword.
            let v = if matches!(ty, RegType::UW | RegType::W) && v <= 0xffff {
                v * 0x1_0001
            } else {
                v
            };
            return Ok(Imm { ty, bits: v });
        }
        let mut s = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_digit() || matches!(c, '-' | '.' | 'e' | '+'))
        {
            s.push(c);
            self.pos += 1;
        }
        let ty = self.type_letters()?;
        let bad = |_| (start, format!("bad immediate `{s}`"));
        let bits = match ty {
            RegType::F => (s
                .parse::<f32>()
                .map_err(|_| (start, format!("bad float `{s}`")))?)
            .to_bits() as u64,
            RegType::DF => (s
                .parse::<f64>()
                .map_err(|_| (start, format!("bad float `{s}`")))?)
            .to_bits(),
            RegType::D | RegType::W | RegType::Q | RegType::B => {
                let v: i64 = s.parse().map_err(bad)?;
                let bits = imm_bits(ty);
                if bits < 64 && !(-(1i64 << (bits - 1))..1i64 << (bits - 1)).contains(&v) {
                    return Err((
                        start,
                        format!("immediate {v} does not fit in a {bits}-bit signed {ty}"),
                    ));
                }
                match ty.size() {
                    8 => v as u64,
                    4 => v as i32 as u32 as u64,
                    _ => (v as i16 as u16 as u64) * 0x1_0001,
                }
            }
            _ => {
                let v: u64 = s.parse().map_err(bad)?;
                let bits = imm_bits(ty);
                if bits < 64 && v >> bits != 0 {
                    return Err((
                        start,
                        format!("immediate {v} does not fit in a {bits}-bit {ty}"),
                    ));
                }
                match ty.size() {
                    8 => v,
                    4 => v & 0xffff_ffff,
                    _ => (v & 0xffff) * 0x1_0001,
                }
            }
        };
        Ok(Imm { ty, bits })
    }

    fn resolve_dst(&self, inst: &Inst, r: RawReg, three: bool) -> PResult<Dst> {
        let align16 = inst.access_mode == AccessMode::Align16;
        let mut d = Dst {
            file: r.file,
            nr: r.nr,
            subnr: 0,
            ty: r.ty,
            hstride: 1,
            writemask: 0xf,
            indirect: r.indirect,
        };
        let sub = r.sub.unwrap_or(0);
        let byte = subreg_byte(&r)?;
        d.subnr = if align16 && !three {
            if sub != 0 {
                16
            } else {
                0
            }
        } else {
            byte
        };
        match r.region.first() {
            Some(RegionPart::Num(h)) if Region::hstride_hw(*h).is_none() => {
                return Err((
                    r.pos,
                    format!("destination stride {h} is not one of 0, 1, 2, 4"),
                ))
            }
            Some(RegionPart::Num(h)) => d.hstride = *h,
            Some(RegionPart::Vxh) => {
                return Err((self.pos, "VxH is not a destination stride".into()))
            }
            None => {}
        }
        if align16 {
            d.hstride = 1;
        }
        if let Some(m) = &r.swizzle {
            if !align16 {
                return Err((self.pos, "write masks need align16".into()));
            }
            let mut wm = 0u8;
            for c in m.chars() {
                wm |= 1 << "xyzw".find(c).unwrap_or(0);
            }
            d.writemask = wm;
        }
        Ok(d)
    }

    fn resolve_src(&self, inst: &Inst, s: RawOperand, three: bool) -> PResult<Src> {
        let r = match s {
            RawOperand::Imm(i) => return Ok(Src::Imm(i)),
            RawOperand::Reg(r) => r,
        };
        let align16 = inst.access_mode == AccessMode::Align16;
        let mut out = RegSrc::new(r.file, r.nr, 0, r.ty, Region::new(0, 1, 0));
        out.negate = r.negate;
        out.abs = r.abs;
        out.indirect = r.indirect;
        let sub = r.sub.unwrap_or(0);
        let byte = subreg_byte(&r)?;
        out.subnr = if align16 && !three {
            if sub != 0 {
                16
            } else {
                0
            }
        } else {
            byte
        };
        let num = |p: &RegionPart| match p {
            RegionPart::Num(n) => *n,
            RegionPart::Vxh => Region::VXH,
        };
        match r.region.len() {
            0 => {}
            1 => {
                out.region = Region::new(num(&r.region[0]), 4, 1);
            }
            3 => {
                out.region = Region::new(num(&r.region[0]), num(&r.region[1]), num(&r.region[2]));
            }
            _ => return Err((self.pos, "a region has one or three parts".into())),
        }
        if align16 && !three {
            out.region.width = 4;
            out.region.hstride = 1;
        }
        let Region {
            vstride,
            width,
            hstride,
        } = out.region;
        if Region::vstride_hw(vstride).is_none() {
            return Err((
                r.pos,
                format!("vertical stride {vstride} is not one of 0, 1, 2, 4, 8, 16, 32"),
            ));
        }
        if Region::width_hw(width).is_none() {
            return Err((r.pos, format!("width {width} is not one of 1, 2, 4, 8, 16")));
        }
        if Region::hstride_hw(hstride).is_none() {
            return Err((
                r.pos,
                format!("horizontal stride {hstride} is not one of 0, 1, 2, 4"),
            ));
        }
        if three && out.region == Region::SCALAR && r.swizzle.is_none() {
            out.swizzle = 0;
        }
        if let Some(sw) = &r.swizzle {
            let ch: Vec<u8> = sw
                .chars()
                .map(|c| "xyzw".find(c).unwrap_or(0) as u8)
                .collect();
            if ch.is_empty() {
                return Err((self.pos, "empty swizzle".into()));
            }
            let get = |i: usize| ch.get(i).copied().unwrap_or(*ch.last().unwrap_or(&0));
            out.swizzle = get(0) | get(1) << 2 | get(2) << 4 | get(3) << 6;
        }
        Ok(Src::Reg(out))
    }
}

/// Bits a decimal immediate of type `ty` keeps: 16-bit ones (and the byte types, encoded the
/// same way) are replicated into both halves of the dword, so they must fit in 16.
fn imm_bits(ty: RegType) -> u32 {
    match ty.size() {
        8 => 64,
        4 => 32,
        _ => 16,
    }
}

/// The byte offset of a written subregister (`g2.3<1>F` is byte 12): it must lie inside the
/// 32-byte register, where the old `as u8` made `g2.65<1>F` silently g2.1.
fn subreg_byte(r: &RawReg) -> PResult<u8> {
    let sub = r.sub.unwrap_or(0);
    let byte = sub as u64 * r.ty.size() as u64;
    if byte >= 32 {
        return Err((
            r.pos,
            format!(
                "subregister .{sub} of a {} operand is byte {byte}, past the 32-byte register",
                r.ty.letters()
            ),
        ));
    }
    Ok(byte as u8)
}

/// Register names: `g12`, `m3`, `null`, `a0`, `acc1`, `f0`, `sr0`, `cr0`, `n0`, `ip`, `tdr0`,
/// `tm0`, `mask0`, `ms0`, `msd0`, `ARF<n>`. Returns the file, number and whether the name is
/// printed bare (no region or type).
fn parse_reg_name(name: &str) -> Option<(RegFile, u8, bool)> {
    let num = |s: &str| s.parse::<u32>().ok();
    if name == "null" {
        return Some((RegFile::Arf, arf::NULL, false));
    }
    if name == "ip" {
        return Some((RegFile::Arf, arf::IP, true));
    }
    if name == "tdr0" {
        return Some((RegFile::Arf, arf::TDR, true));
    }
    if let Some(n) = name.strip_prefix("ARF").and_then(num) {
        return Some((RegFile::Arf, n as u8, false));
    }
    let prefixes: [(&str, RegFile, u8, u32); 12] = [
        ("acc", RegFile::Arf, arf::ACCUMULATOR, 15),
        ("mask", RegFile::Arf, arf::MASK, 15),
        ("msd", RegFile::Arf, arf::MASK_STACK_DEPTH, 15),
        ("ms", RegFile::Arf, arf::MASK_STACK, 15),
        ("sr", RegFile::Arf, arf::STATE, 15),
        ("cr", RegFile::Arf, arf::CONTROL, 15),
        ("tm", RegFile::Arf, arf::TIMESTAMP, 15),
        ("g", RegFile::Grf, 0, 255),
        ("m", RegFile::Mrf, 0, 255),
        ("a", RegFile::Arf, arf::ADDRESS, 15),
        ("f", RegFile::Arf, arf::FLAG, 15),
        ("n", RegFile::Arf, arf::NOTIFICATION_COUNT, 15),
    ];
    for (p, file, base, max) in prefixes {
        if let Some(n) = name.strip_prefix(p).and_then(num) {
            if n > max {
                return None;
            }
            return Some((file, base + n as u8, false));
        }
    }
    None
}

/// Operands the syntax does not show, set the way Mesa's emitter and assembler set them: the
/// null/IP operands of flow control, WAIT's notification register, JMPI's IP operands and
/// NOP's empty fields. Code generators call this too, so their output matches Mesa's bytes.
pub fn fill_hidden(ver: u32, inst: &mut Inst) {
    let a16 = inst.access_mode == AccessMode::Align16;
    let region = |r: Region| if a16 { Region::new(r.vstride, 4, 1) } else { r };
    let reg =
        |nr: u8, ty: RegType, r: Region| Src::Reg(RegSrc::new(RegFile::Arf, nr, 0, ty, region(r)));
    let vec8 = Region::new(8, 8, 1);
    let vec8_a16 = if a16 { Region::new(4, 4, 1) } else { vec8 };
    let vec1 = Region::SCALAR;
    let ip_region = Region::new(4, 1, 0);
    let dst = |file: RegFile, nr: u8, ty: RegType, h: u8| Dst {
        file,
        nr,
        subnr: 0,
        ty,
        hstride: h,
        writemask: 0xf,
        indirect: None,
    };
    let imm = |ty: RegType| Src::Imm(Imm { ty, bits: 0 });
    use Opcode::*;
    let op = inst.opcode;
    match op {
        If | Iff | Else | Endif | While | Break | Continue | Halt => {
            let (d, s0, s1) = if ver < 60 {
                match op {
                    Endif => (
                        dst(RegFile::Arf, 0, RegType::D, 1),
                        reg(0, RegType::D, vec8_a16),
                        imm(RegType::D),
                    ),
                    _ => (
                        dst(RegFile::Arf, arf::IP, RegType::UD, 1),
                        reg(arf::IP, RegType::UD, ip_region),
                        imm(RegType::D),
                    ),
                }
            } else if ver < 70 {
                match op {
                    If => (
                        dst(RegFile::Imm, 0, RegType::W, 0),
                        reg(0, RegType::D, vec1),
                        reg(0, RegType::D, vec1),
                    ),
                    Else | Endif | While => (
                        dst(RegFile::Imm, 0, RegType::W, 0),
                        reg(0, RegType::D, vec8_a16),
                        reg(0, RegType::D, vec8_a16),
                    ),
                    Continue => (
                        dst(RegFile::Arf, arf::IP, RegType::UD, 1),
                        reg(arf::IP, RegType::UD, ip_region),
                        imm(RegType::D),
                    ),
                    _ => (
                        dst(RegFile::Arf, 0, RegType::D, 1),
                        reg(0, RegType::D, vec8_a16),
                        imm(RegType::D),
                    ),
                }
            } else if ver < 80 {
                match op {
                    If => (
                        dst(RegFile::Arf, 0, RegType::D, 1),
                        reg(0, RegType::D, vec1),
                        imm(RegType::W),
                    ),
                    Else | Endif | While => (
                        dst(RegFile::Arf, 0, RegType::D, 1),
                        reg(0, RegType::D, vec8_a16),
                        imm(RegType::W),
                    ),
                    Continue => (
                        dst(RegFile::Arf, arf::IP, RegType::UD, 1),
                        reg(arf::IP, RegType::UD, ip_region),
                        imm(RegType::D),
                    ),
                    _ => (
                        dst(RegFile::Arf, 0, RegType::D, 1),
                        reg(0, RegType::D, vec8_a16),
                        imm(RegType::D),
                    ),
                }
            } else {
                let d = match op {
                    Continue => dst(RegFile::Arf, arf::IP, RegType::UD, 1),
                    Endif => dst(RegFile::Arf, 0, RegType::UD, 0),
                    _ => dst(RegFile::Arf, 0, RegType::D, 1),
                };
                let s1_ty = if has_uip(ver, op) {
                    RegType::UD
                } else {
                    RegType::D
                };
                // JIP covers src1's region bits, so its align16 swizzle reads back as zero.
                let mut s1 = RegSrc::new(RegFile::Arf, 0, 0, s1_ty, region(vec1));
                if a16 {
                    s1.swizzle = 0;
                }
                (d, imm(RegType::D), Src::Reg(s1))
            };
            let mut d = d;
            if a16 && matches!(jump_layout(ver, op), JumpLayout::Gen6Dst) {
                d.writemask = 0;
            }
            inst.dst = d;
            inst.src = vec![s0, s1];
        }
        Nop | Nenop => {
            inst.exec_size = 1;
            inst.dst = dst(RegFile::Arf, 0, RegType::UD, 0);
            inst.src.clear();
        }
        Do => {
            inst.dst = dst(RegFile::Arf, 0, RegType::F, 1);
            inst.src = vec![reg(0, RegType::F, vec8_a16), reg(0, RegType::F, vec8_a16)];
        }
        Jmpi => {
            inst.dst = dst(RegFile::Arf, arf::IP, RegType::UD, 1);
            let s1 = inst.src.pop().unwrap_or(imm(RegType::D));
            inst.src = vec![reg(arf::IP, RegType::UD, vec1), s1];
        }
        Wait => {
            // The source repeats the destination; in align16 its swizzle selects the enabled
            // channel.
            let ch = (0..4)
                .find(|c| inst.dst.writemask & (1 << c) != 0)
                .unwrap_or(0) as u8;
            let n0 = RegSrc {
                swizzle: if a16 { ch * 0x55 } else { 0 },
                ..RegSrc::new(
                    inst.dst.file,
                    inst.dst.nr,
                    inst.dst.subnr,
                    inst.dst.ty,
                    region(vec1),
                )
            };
            inst.src = vec![Src::Reg(n0), reg(0, RegType::F, vec8_a16)];
        }
        _ => {}
    }
}
