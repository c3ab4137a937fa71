//! Text → instruction model: the inverse of [`super::disasm`].
//!
//! Accepts exactly the disassembler's syntax (spacing is free; modifiers may come in any
//! order), plus `;`/`#` comments and blank lines. A trailing `; dontcare bits in NAME: HEX`
//! note, as the disassembler prints it, restores those bits, so even the blob's words with
//! stray bits in "don't care" positions re-assemble exactly.

use super::bits;
use super::float::f32_to_f16;
use super::inst::*;
use super::opcode::{Class, Format, Opcode, Slot};

/// An assembly error at a 1-based line and column.
pub type AsmError = crate::util::SourceError;

/// Assembles a program, one instruction per non-blank line. `specs` is accepted so that the
/// command line can pass its target; the syntax itself does not depend on the core (use
/// [`super::validate_program`] for per-core rules).
pub fn assemble(_specs: &crate::etnaviv::specs::Specs, text: &str) -> Result<Vec<Inst>, AsmError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(inst) = assemble_line(line).map_err(|(col, message)| AsmError {
            line: n + 1,
            col,
            message,
        })? {
            out.push(inst);
        }
    }
    Ok(out)
}

/// Assembles one instruction (line number 1 in errors).
pub fn assemble_inst(text: &str) -> Result<Inst, AsmError> {
    match assemble_line(text) {
        Ok(Some(i)) => Ok(i),
        Ok(None) => Err(AsmError {
            line: 1,
            col: 1,
            message: "empty instruction".into(),
        }),
        Err((col, message)) => Err(AsmError {
            line: 1,
            col,
            message,
        }),
    }
}

type PResult<T> = Result<T, (usize, String)>;

/// A token with its 1-based column.
#[derive(Clone, Copy)]
struct Tok<'a> {
    text: &'a str,
    col: usize,
}

fn err<T>(tok: Tok<'_>, msg: impl Into<String>) -> PResult<T> {
    Err((tok.col, msg.into()))
}

fn assemble_line(line: &str) -> PResult<Option<Inst>> {
    // Split off the dontcare note (tab/semicolon) and comments.
    let (body, note) = match line.find(';') {
        Some(p) => (&line[..p], Some((&line[p + 1..], p + 2))),
        None => (line, None),
    };
    let body = body.split('#').next().unwrap_or("");
    let trimmed = body.trim_start();
    if trimmed.trim().is_empty() {
        return Ok(None);
    }
    let start = body.len() - trimmed.len();
    let mnem_len = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    let mnem = Tok {
        text: &trimmed[..mnem_len],
        col: start + 1,
    };
    let rest_off = start + mnem_len;
    let operands = split_operands(&body[rest_off..], rest_off);

    let mut parts = mnem.text.split('.');
    let name = parts.next().unwrap_or("");
    let opcode = Opcode::from_name(name)
        .ok_or_else(|| (mnem.col, format!("unknown instruction '{name}'")))?;
    let mut inst = Inst::new(opcode);
    // The text shows ".pack" whenever the PMODE bit is clear, so its absence means set.
    inst.pack = false;
    let mut cond = None;
    for m in parts {
        apply_modifier(&mut inst, &mut cond, m).map_err(|msg| (mnem.col, msg))?;
    }

    let is_tex = opcode.formats().iter().any(|f| f.class() == Class::Tex);
    let is_cf = opcode.formats().iter().any(|f| f.class() == Class::Cf);
    let is_store = opcode.formats().iter().any(|f| f.class() == Class::Store);
    let expected = if is_tex { 5 } else { 4 };
    if operands.len() != expected {
        let col = operands.first().map_or(rest_off + 1, |t| t.col);
        return Err((
            col,
            format!("{name} takes {expected} operands, found {}", operands.len()),
        ));
    }

    let srcs: &[Tok<'_>] = if is_tex {
        &operands[2..5]
    } else {
        &operands[1..4]
    };
    if is_cf {
        if operands[0].text != "void" {
            return err(
                operands[0],
                "control flow has no destination; expected 'void'",
            );
        }
        for (slot, tok) in operands[1..3].iter().enumerate() {
            inst.src[slot] = parse_src(*tok)?;
        }
        let t = operands[3];
        inst.target = t
            .text
            .parse::<u16>()
            .ok()
            .filter(|&v| v < 0x8000)
            .ok_or_else(|| {
                (
                    t.col,
                    format!("'{}' is not a branch target (0..32767)", t.text),
                )
            })?;
    } else {
        if is_store {
            inst.dst.mask = parse_mem(operands[0])?;
        } else {
            let (d, hp) = parse_dst(operands[0], opcode)?;
            inst.dst = d;
            inst.dst_full |= hp;
        }
        if is_tex {
            inst.tex = parse_tex(operands[1])?;
        }
        for (slot, tok) in srcs.iter().enumerate() {
            inst.src[slot] = parse_src(*tok)?;
        }
    }

    if let Some(c) = cond {
        inst.cond = c;
    }
    let format = inst.format();
    if format == Format::AluNoSrc || matches!(format.class(), Class::Tex | Class::Cf) {
        // NOP, RET and BARRIER print no modifiers (the blob leaves PMODE clear); texture and
        // control-flow formats have no PMODE field.
        inst.pack = Inst::new(opcode).pack;
    }
    if cond.is_some() && !format.has_cond() {
        return Err((mnem.col, format!("{name} takes no condition in this form")));
    }
    if opcode == Opcode::Texkill && format == Format::KillCond && !inst.src[0].use_ {
        return err(srcs[0], "a conditional texkill needs src0");
    }
    if format == Format::ExtSrc0 && inst.src[2].use_ {
        return err(srcs[2], format!("{name} has no src2"));
    }
    for (slot, rule) in format.slots().iter().enumerate() {
        let tok = srcs[slot];
        match rule {
            Slot::Absent if inst.src[slot].use_ => {
                return err(tok, format!("{name} takes no src{slot}"));
            }
            Slot::Present if !inst.src[slot].use_ => {
                return err(tok, format!("{name} needs src{slot}"));
            }
            _ => {}
        }
    }
    if let Some((text, col)) = note {
        inst.dontcare = parse_dontcare(text, col, format)?;
    }
    Ok(Some(inst))
}

/// Operands separated by commas, with their columns.
fn split_operands(s: &str, offset: usize) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    if s.trim().is_empty() {
        return out;
    }
    let mut pos = 0;
    for piece in s.split(',') {
        let lead = piece.len() - piece.trim_start().len();
        out.push(Tok {
            text: piece.trim(),
            col: offset + pos + lead + 1,
        });
        pos += piece.len() + 1;
    }
    out
}

fn apply_modifier(inst: &mut Inst, cond: &mut Option<Cond>, m: &str) -> Result<(), String> {
    if let Some(c) = Cond::ALL.iter().find(|c| c.suffix().get(1..) == Some(m)) {
        if cond.replace(*c).is_some() {
            return Err(format!("second condition '.{m}'"));
        }
        return Ok(());
    }
    if m == "f32" {
        inst.ty = DataType::F32;
        return Ok(());
    }
    if let Some(t) = DataType::ALL
        .iter()
        .find(|t| t.suffix().get(1..) == Some(m))
    {
        inst.ty = *t;
        return Ok(());
    }
    if let Some(r) = Rounding::ALL
        .iter()
        .find(|r| r.suffix().get(1..) == Some(m))
    {
        inst.rounding = *r;
        return Ok(());
    }
    if let Some(n) = m.strip_prefix("ls") {
        match n.parse::<u8>() {
            Ok(v @ 1..=7) => {
                inst.left_shift = v;
                return Ok(());
            }
            _ => return Err(format!("bad left shift '.{m}' (ls1..ls7)")),
        }
    }
    match m {
        "hp" => inst.dst_full = true,
        "sat" => inst.sat = true,
        "skpHp" => inst.skphp = true,
        "unk" => inst.unk = true,
        "pack" => inst.pack = true,
        "t0" => inst.thread = Thread::T0,
        "t1" => inst.thread = Thread::T1,
        "denorm" => inst.denorm = true,
        "local" => inst.local = true,
        _ => return Err(format!("unknown modifier '.{m}'")),
    }
    Ok(())
}

fn parse_number(tok: Tok<'_>, s: &str, max: u32, what: &str) -> PResult<u32> {
    match s.parse::<u32>() {
        Ok(v) if v <= max && !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => Ok(v),
        _ => err(tok, format!("'{s}' is not a {what} number (0..{max})")),
    }
}

/// `[a.x]` etc. at the start of `s`; returns the mode and the rest.
fn parse_amode(s: &str) -> (AddrMode, &str) {
    for m in &AddrMode::ALL[1..] {
        if let Some(rest) = s.strip_prefix(m.suffix()) {
            return (*m, rest);
        }
    }
    (AddrMode::Direct, s)
}

fn parse_mask(tok: Tok<'_>, s: &str) -> PResult<u8> {
    if s.is_empty() {
        return Ok(15);
    }
    let Some(letters) = s.strip_prefix('.') else {
        return err(tok, format!("expected a write mask, found '{s}'"));
    };
    let mut mask = 0u8;
    for ch in letters.chars() {
        match ch {
            'x' => mask |= 1,
            'y' => mask |= 2,
            'z' => mask |= 4,
            'w' => mask |= 8,
            '_' => {}
            _ => return err(tok, format!("bad write mask '{s}'")),
        }
    }
    Ok(mask)
}

fn parse_swizzle(tok: Tok<'_>, s: &str) -> PResult<Swizzle> {
    let Some(letters) = s.strip_prefix('.') else {
        return err(tok, format!("expected a swizzle, found '{s}'"));
    };
    let mut comps = Vec::new();
    for ch in letters.chars() {
        comps.push(match ch {
            'x' => 0,
            'y' => 1,
            'z' => 2,
            'w' => 3,
            _ => return err(tok, format!("bad swizzle '{s}'")),
        });
    }
    if comps.is_empty() || comps.len() > 4 {
        return err(tok, format!("bad swizzle '{s}'"));
    }
    while comps.len() < 4 {
        let last = comps[comps.len() - 1];
        comps.push(last);
    }
    Ok(Swizzle::from_components([
        comps[0], comps[1], comps[2], comps[3],
    ]))
}

fn parse_dst(tok: Tok<'_>, opcode: Opcode) -> PResult<(Dst, bool)> {
    // NOP-style instructions print the ".hp" flag after the destination.
    let (text, hp) = match tok.text.strip_suffix(".hp") {
        Some(t) if opcode.formats().contains(&Format::AluNoSrc) => (t, true),
        _ => (tok.text, false),
    };
    if text == "void" {
        return Ok((Dst::default(), hp));
    }
    // MOVAR/MOVAI write the address register: the destination field holds only a write mask,
    // which isaspec prints as `void`. Mesa 23.3's disassembler syntax `a0.x___` sets it.
    if let (Some(rest), Opcode::Movar | Opcode::Movai) = (text.strip_prefix('a'), opcode) {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let reg = if digits == 0 {
            0
        } else {
            parse_number(tok, &rest[..digits], 127, "register")?
        };
        let mask = parse_mask(tok, &rest[digits..])?;
        return Ok((
            Dst {
                use_: false,
                reg: reg as u8,
                amode: AddrMode::Direct,
                mask,
            },
            hp,
        ));
    }
    let Some(rest) = text.strip_prefix('t') else {
        return err(
            tok,
            format!("expected a temporary register or 'void', found '{text}'"),
        );
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let reg = parse_number(tok, &rest[..digits], 127, "destination register")?;
    let (amode, rest) = parse_amode(&rest[digits..]);
    let mask = parse_mask(tok, rest)?;
    Ok((
        Dst {
            use_: true,
            reg: reg as u8,
            amode,
            mask,
        },
        hp,
    ))
}

fn parse_mem(tok: Tok<'_>) -> PResult<u8> {
    match tok.text.strip_prefix("mem") {
        Some(rest) => parse_mask(tok, rest),
        None => err(tok, format!("expected 'mem', found '{}'", tok.text)),
    }
}

fn parse_tex(tok: Tok<'_>) -> PResult<Tex> {
    let Some(rest) = tok.text.strip_prefix("tex") else {
        return err(
            tok,
            format!(
                "expected a texture operand 'texN.swiz', found '{}'",
                tok.text
            ),
        );
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let id = parse_number(tok, &rest[..digits], 31, "sampler")?;
    let (amode, rest) = parse_amode(&rest[digits..]);
    let swiz = if rest.is_empty() {
        Swizzle::IDENTITY
    } else {
        parse_swizzle(tok, rest)?
    };
    Ok(Tex {
        id: id as u8,
        amode,
        swiz,
    })
}

fn parse_src(tok: Tok<'_>) -> PResult<Src> {
    let s = tok.text;
    if s == "void" {
        return Ok(Src::default());
    }
    if let Some((value, ty)) = s.rsplit_once(':') {
        return Ok(Src::imm(parse_imm(tok, value, ty)?));
    }
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (abs, s) = match s.strip_prefix('|') {
        Some(r) => match r.strip_suffix('|') {
            Some(inner) => (true, inner),
            None => return err(tok, "unbalanced '|'"),
        },
        None => (false, s),
    };
    let (group, rest) = if let Some(r) = s.strip_prefix("th") {
        (RegGroup::Thread, r)
    } else if let Some(r) = s.strip_prefix('t') {
        (RegGroup::Temp, r)
    } else if let Some(r) = s.strip_prefix('u') {
        (RegGroup::Uniform, r)
    } else if let Some(r) = s.strip_prefix('i') {
        (RegGroup::Internal, r)
    } else {
        return err(
            tok,
            format!("expected a source operand, found '{}'", tok.text),
        );
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let reg = parse_number(tok, &rest[..digits], 511, "source register")?;
    let (amode, rest) = parse_amode(&rest[digits..]);
    let swiz = if rest.is_empty() {
        Swizzle::IDENTITY
    } else {
        parse_swizzle(tok, rest)?
    };
    Ok(Src {
        use_: true,
        kind: SrcKind::Reg(RegSrc {
            group,
            reg: reg as u16,
            amode,
            swiz,
            neg,
            abs,
        }),
    })
}

fn parse_imm(tok: Tok<'_>, value: &str, ty: &str) -> PResult<Imm> {
    let bad = |what: &str| {
        (
            tok.col,
            format!("'{value}' is not a valid {what} immediate"),
        )
    };
    match ty {
        "s20" => {
            let v: i64 = value.parse().map_err(|_| bad("s20"))?;
            if !(-(1 << 19)..(1 << 19)).contains(&v) {
                return Err(bad("s20 (range -524288..524287)"));
            }
            Ok(Imm::s20(v as i32))
        }
        "u20" => {
            let v: u32 = value.parse().map_err(|_| bad("u20"))?;
            if v >= 1 << 20 {
                return Err(bad("u20 (range 0..1048575)"));
            }
            Ok(Imm::u20(v))
        }
        "f20" => {
            let bits = match value {
                "nan" => 0x7fc0_0000,
                "-nan" => 0xffc0_0000,
                _ => value.parse::<f32>().map_err(|_| bad("f20"))?.to_bits(),
            };
            if bits & 0xfff != 0 {
                return Err(bad("f20 (low 12 mantissa bits must be zero)"));
            }
            Ok(Imm {
                ty: ImmType::F20,
                bits: bits >> 12,
            })
        }
        "f16" => {
            let h = match value {
                "nan" => 0x7fff,
                "-nan" => 0xffff,
                _ => {
                    let x: f64 = value.parse().map_err(|_| bad("f16"))?;
                    f32_to_f16(x as f32)
                }
            };
            Ok(Imm {
                ty: ImmType::F16,
                bits: h.into(),
            })
        }
        _ => err(
            tok,
            format!("unknown immediate type ':{ty}' (f20, s20, u20, f16)"),
        ),
    }
}

fn parse_dontcare(text: &str, col: usize, format: Format) -> PResult<[u32; 4]> {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("dontcare bits in ") else {
        // An ordinary comment.
        return Ok([0; 4]);
    };
    let hex = rest.rsplit(':').next().unwrap_or("").trim();
    if hex.len() != 32 || !hex.is_ascii() {
        return Err((
            col,
            format!("expected 32 hex digits of dontcare bits, found '{hex}'"),
        ));
    }
    let mut w = [0u32; 4];
    for i in 0..4 {
        w[3 - i] = u32::from_str_radix(&hex[8 * i..8 * i + 8], 16)
            .map_err(|_| (col, format!("'{hex}' is not hex")))?;
    }
    let v = bits::to_u128(w);
    let allowed = bits::dontcare_mask(format);
    if v & !allowed != 0 {
        return Err((
            col,
            format!(
                "bits {:032x} are not don't-care bits of this instruction",
                v & !allowed
            ),
        ));
    }
    Ok(w)
}
