//! The parser for Mesa 23.3's nir_print text.
//!
//! It reads what nir_print writes and ignores what nir_print derives: the constant values shown
//! beside sources, the `// preds:`/`// succs:` comments, the variable named after I/O
//! intrinsics and the alternative spellings of `load_const` values are recomputed by the
//! printer. Every error carries the 1-based line and column and says what was expected.

use std::collections::HashMap;

use super::ir::*;
use super::opcodes::{AluOp, IndexKind, Intrinsic};
use super::print::count_digits;
use super::types::{AluType, GlslType, Stage};

/// Where and why the text could not be read.
pub type ParseError = crate::util::SourceError;

type PResult<T> = Result<T, ParseError>;

/// Largest SSA id accepted: keeps hostile input from allocating gigabytes.
pub(crate) const MAX_SSA_ID: u32 = 1 << 22;

/// Parses one shader in nir_print syntax.
pub fn parse(text: &str) -> Result<Shader, ParseError> {
    Parser::new(text).shader()
}

/// A cursor over one line.
struct Cur<'a> {
    s: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Cur<'a> {
    fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err(self.error(msg))
    }
    fn error(&self, msg: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            col: self.pos + 1,
            message: msg.into(),
        }
    }
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }
    fn at_end(&self) -> bool {
        self.rest().trim().is_empty()
    }
    fn ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }
    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        if self.rest().starts_with(t) {
            self.pos += t.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str, what: &str) -> PResult<()> {
        if self.eat(t) {
            Ok(())
        } else {
            self.err(format!("expected `{t}` {what}, found {}", self.found()))
        }
    }
    fn found(&self) -> String {
        match self.rest().split_whitespace().next() {
            Some(w) => format!("`{}`", w.chars().take(24).collect::<String>()),
            None => "end of line".into(),
        }
    }
    /// An identifier-like word: letters, digits, `_`.
    fn word(&mut self) -> &'a str {
        self.ws();
        let r = self.rest();
        let n = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        self.pos += n;
        &r[..n]
    }
    fn uint(&mut self, what: &str) -> PResult<u64> {
        self.ws();
        let r = self.rest();
        let n = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        if n == 0 {
            return self.err(format!("expected {what}, found {}", self.found()));
        }
        match r[..n].parse() {
            Ok(v) => {
                self.pos += n;
                Ok(v)
            }
            Err(_) => self.err(format!("{what} out of range")),
        }
    }
    /// A count or size NIR keeps in 32 bits (`shader_info`'s counts and sizes): a wider value
    /// is an error here, never a silent wrap past the limits checked later.
    fn uint32(&mut self, what: &str) -> PResult<u32> {
        self.ws();
        let col = self.pos;
        let v = self.uint(what)?;
        u32::try_from(v).map_err(|_| ParseError {
            line: self.line,
            col: col + 1,
            message: format!("{what} {v} does not fit 32 bits (at most {})", u32::MAX),
        })
    }
    fn ssa(&mut self) -> PResult<SsaId> {
        self.ws();
        if !self.rest().starts_with('%') {
            return self.err(format!(
                "expected an SSA value `%N`, found {}",
                self.found()
            ));
        }
        self.pos += 1;
        let v = self.uint("an SSA index after `%`")?;
        if v > MAX_SSA_ID as u64 {
            return self.err(format!("SSA index {v} is too large"));
        }
        Ok(SsaId(v as u32))
    }
    /// Skips a printed constant annotation `(...)` after a source, if one follows.
    fn skip_annotation(&mut self) -> PResult<()> {
        self.ws();
        let r = self.rest();
        if !r.starts_with('(') {
            return Ok(());
        }
        let inner = r[1..].trim_start();
        let is_value = inner.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+')
            || ["true", "false", "inf", "nan"]
                .iter()
                .any(|w| inner.starts_with(w));
        if !is_value {
            return Ok(());
        }
        match r.find(')') {
            Some(n) => {
                self.pos += n + 1;
                Ok(())
            }
            None => self.err("unterminated constant annotation: expected `)`"),
        }
    }
    /// The text up to the parenthesis matching the one just consumed.
    fn balanced(&mut self) -> PResult<&'a str> {
        let r = self.rest();
        let mut depth = 1;
        for (i, c) in r.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += i + 1;
                        return Ok(&r[..i]);
                    }
                }
                _ => {}
            }
        }
        self.err("expected `)` before the end of the line")
    }
}

/// Splits at top-level `, ` (outside parentheses and braces).
fn split_top(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let b = s.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push((start, &s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() || !out.is_empty() {
        out.push((start, &s[start..]));
    }
    out.into_iter()
        .map(|(o, t)| (o + (t.len() - t.trim_start().len()), t.trim()))
        .collect()
}

struct PendingPhi {
    instr: InstrId,
    src: usize,
    block_number: u64,
    line: usize,
    col: usize,
}

struct Parser<'a> {
    lines: Vec<&'a str>,
    /// Byte offset of each line in the text (for the trailer).
    offsets: Vec<usize>,
    text: &'a str,
    next: usize,
}

/// State while reading one function body.
struct ImplBuilder {
    imp: Impl,
    block_numbers: HashMap<u64, BlockId>,
    phis: Vec<PendingPhi>,
    uses: Vec<(SsaId, usize, usize)>,
    digits: usize,
    current: BlockId,
    divergence: bool,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        let mut lines = Vec::new();
        let mut offsets = Vec::new();
        let mut off = 0;
        for l in text.split_inclusive('\n') {
            offsets.push(off);
            off += l.len();
            lines.push(l.trim_end_matches('\n').trim_end_matches('\r'));
        }
        Parser {
            lines,
            offsets,
            text,
            next: 0,
        }
    }

    fn line_no(&self) -> usize {
        self.next + 1
    }

    fn eof_error<T>(&self, what: &str) -> PResult<T> {
        Err(ParseError {
            line: self.lines.len().max(1),
            col: self.lines.last().map_or(0, |l| l.len()) + 1,
            message: format!("unexpected end of input: expected {what}"),
        })
    }

    fn peek_line(&self) -> Option<&'a str> {
        self.lines.get(self.next).copied()
    }

    fn take_line(&mut self, what: &str) -> PResult<Cur<'a>> {
        match self.lines.get(self.next) {
            Some(l) => {
                self.next += 1;
                Ok(Cur {
                    s: l,
                    pos: 0,
                    line: self.next,
                })
            }
            None => self.eof_error(what),
        }
    }

    fn shader(&mut self) -> PResult<Shader> {
        let mut c = self.take_line("`shader:` line")?;
        c.expect("shader:", "at the start of a NIR shader")?;
        c.ws();
        let stage_name = c.rest().trim();
        let Some(stage) = Stage::from_mesa_name(stage_name) else {
            return c.err(format!("unknown shader stage `{stage_name}`"));
        };
        let mut info = ShaderInfo::new(stage);
        loop {
            let mut c = self.take_line("header field or `inputs:`")?;
            if c.eat("inputs:") {
                info.num_inputs = c.uint32("input count")?;
                break;
            }
            let Some((k, v)) = c.s.split_once(": ") else {
                return c.err(format!(
                    "expected a `key: value` header line, found {}",
                    c.found()
                ));
            };
            if k.is_empty() || k.starts_with(' ') {
                return c.err("expected a header key");
            }
            info.fields.push((k.to_string(), v.to_string()));
        }
        let mut c = self.take_line("`outputs:`")?;
        c.expect("outputs:", "after `inputs:`")?;
        info.num_outputs = c.uint32("output count")?;
        let mut c = self.take_line("`uniforms:`")?;
        c.expect("uniforms:", "after `outputs:`")?;
        info.num_uniforms = c.uint32("uniform count")?;
        for (key, slot) in [("scratch:", 0), ("constants:", 1)] {
            if self.peek_line().is_some_and(|l| l.starts_with(key)) {
                let mut c = self.take_line(key)?;
                c.expect(key, "")?;
                let v = c.uint32(if slot == 0 {
                    "scratch size"
                } else {
                    "constant data size"
                })?;
                if slot == 0 {
                    info.scratch_size = v;
                } else {
                    info.constant_data_size = v;
                }
            }
        }
        let mut variables = Vec::new();
        while self.peek_line().is_some_and(|l| l.starts_with("decl_var ")) {
            let c = self.take_line("decl_var")?;
            let mut var = parse_var(c)?;
            // nir_print leaves the mode empty for both kinds of temporaries; outside a
            // function it is a shader temporary.
            if var.mode == VarMode::FunctionTemp {
                var.mode = VarMode::ShaderTemp;
            }
            variables.push(var);
        }
        let mut functions = Vec::new();
        while self
            .peek_line()
            .is_some_and(|l| l.starts_with("decl_function "))
        {
            functions.push(self.function(info.divergence_analysis_run())?);
            // nir_print separates functions with a blank line; after the last one the blank
            // line belongs to the trailer.
            let mut look = self.next;
            while self.lines.get(look).is_some_and(|l| l.is_empty()) {
                look += 1;
            }
            if self
                .lines
                .get(look)
                .is_some_and(|l| l.starts_with("decl_function "))
            {
                self.next = look;
            }
        }
        if functions.is_empty() {
            return match self.peek_line() {
                Some(l) => Err(ParseError {
                    line: self.line_no(),
                    col: 1,
                    message: format!(
                        "expected `decl_var` or `decl_function`, found `{}`",
                        l.chars().take(32).collect::<String>()
                    ),
                }),
                None => self.eof_error("`decl_function`"),
            };
        }
        let trailer = match self.offsets.get(self.next) {
            Some(&o) => self.text[o..].to_string(),
            None => String::new(),
        };
        Ok(Shader {
            info,
            variables,
            functions,
            trailer,
        })
    }

    fn function(&mut self, divergence: bool) -> PResult<Function> {
        let mut c = self.take_line("decl_function")?;
        c.expect("decl_function", "")?;
        let name = c.word().to_string();
        if name.is_empty() {
            return c.err("expected a function name");
        }
        c.expect("(", "before the parameter count")?;
        let num_params = c.uint32("parameter count")?;
        c.expect("params)", "after the parameter count")?;
        c.ws();
        let inline_hint = c.rest().trim_end().to_string();
        let mut func = Function {
            name,
            num_params,
            inline_hint,
            body: None,
        };
        // An implementation follows after a blank line when the function has one.
        let mut look = self.next;
        while self.lines.get(look).is_some_and(|l| l.trim().is_empty()) {
            look += 1;
        }
        if self.lines.get(look).is_some_and(|l| l.starts_with("impl ")) {
            self.next = look;
            func.body = Some(self.impl_body(&func.name, divergence)?);
        }
        Ok(func)
    }

    fn impl_body(&mut self, fname: &str, divergence: bool) -> PResult<Impl> {
        let mut c = self.take_line("impl")?;
        c.expect("impl", "")?;
        let name = c.word();
        if name != fname {
            return c.err(format!("impl `{name}` does not match function `{fname}`"));
        }
        c.expect("{", "after the impl name")?;
        let mut b = ImplBuilder {
            imp: Impl {
                locals: Vec::new(),
                instrs: Vec::new(),
                blocks: Vec::new(),
                body: Vec::new(),
                defs: Vec::new(),
                ssa_alloc: 0,
            },
            block_numbers: HashMap::new(),
            phis: Vec::new(),
            uses: Vec::new(),
            digits: 0,
            current: BlockId(0),
            divergence,
        };
        while self
            .peek_line()
            .is_some_and(|l| l.trim_start().starts_with("decl_var "))
        {
            let l = self.take_line("decl_var")?;
            let indent = l.s.len() - l.s.trim_start().len();
            b.imp.locals.push(parse_var(Cur {
                s: l.s,
                pos: indent,
                line: l.line,
            })?);
        }
        let (body, end) = self.cf_list(&mut b, 0)?;
        let Stop::EndBlock(number, line) = end else {
            return Err(ParseError {
                line: self.line_no().saturating_sub(1).max(1),
                col: 1,
                message: "expected the end block `block bN:` before the impl's `}`".into(),
            });
        };
        b.imp.body = body;
        let end_id = BlockId(b.imp.blocks.len() as u32);
        b.imp.blocks.push(Block::default());
        if b.block_numbers.insert(number, end_id).is_some() {
            return Err(ParseError {
                line,
                col: 5,
                message: format!("block b{number} defined twice"),
            });
        }
        let mut c = self.take_line("`}` closing the impl")?;
        c.expect("}", "closing the impl")?;
        self.finish(b)
    }

    fn finish(&mut self, mut b: ImplBuilder) -> PResult<Impl> {
        for p in &b.phis {
            let Some(&blk) = b.block_numbers.get(&p.block_number) else {
                return Err(ParseError {
                    line: p.line,
                    col: p.col,
                    message: format!("phi source names undefined block b{}", p.block_number),
                });
            };
            if let InstrKind::Phi(phi) = &mut b.imp.instrs[p.instr.0 as usize].kind {
                phi.srcs[p.src].0 = blk;
            }
        }
        // A stored width is only known once every value is: recompute it for intrinsics
        // without a destination (the stored value's width).
        let widths: Vec<Option<u8>> = b
            .imp
            .instrs
            .iter()
            .map(|instr| match &instr.kind {
                InstrKind::Intrinsic(i) if i.def.is_none() => {
                    let p = i
                        .intrinsic
                        .info()
                        .src_components
                        .iter()
                        .position(|&n| n == 0)?;
                    Some(
                        i.srcs
                            .get(p)
                            .and_then(|s| b.imp.def(*s))
                            .map_or(0, |d| d.num_components),
                    )
                }
                _ => None,
            })
            .collect();
        for (instr, w) in b.imp.instrs.iter_mut().zip(widths) {
            if let (InstrKind::Intrinsic(i), Some(w)) = (&mut instr.kind, w) {
                i.num_components = w;
            }
        }
        // Divergence flags mean nothing unless the analysis ran (and nir_print omits them).
        if !b.divergence {
            for d in b.imp.defs.iter_mut().flatten() {
                d.divergent = false;
            }
        }
        for &(id, line, col) in &b.uses {
            if b.imp.def(id).is_none() {
                return Err(ParseError {
                    line,
                    col,
                    message: format!("use of undefined value %{}", id.0),
                });
            }
        }
        let max = b.imp.defs.len() as u32;
        let mut alloc = max;
        if b.digits > count_digits(max) && b.digits <= 9 {
            alloc = 10u32.pow(b.digits as u32 - 1);
        }
        b.imp.ssa_alloc = alloc.max(max);
        Ok(b.imp)
    }

    /// Reads control-flow nodes until a closing line; returns them and what stopped the list.
    fn cf_list(&mut self, b: &mut ImplBuilder, depth: usize) -> PResult<(Vec<CfNode>, Stop)> {
        crate::util::stack::grow(|| {
            if depth > 200 {
                return Err(ParseError {
                    line: self.line_no(),
                    col: 1,
                    message: "control flow nested too deeply".into(),
                });
            }
            let mut nodes = Vec::new();
            loop {
                let Some(raw) = self.peek_line() else {
                    return self.eof_error("`}` closing a control-flow list");
                };
                let t = raw.trim();
                let line = self.line_no();
                let col = raw.len() - raw.trim_start().len() + 1;
                if t.is_empty() {
                    self.next += 1;
                    continue;
                }
                if t == "}" {
                    return Ok((nodes, Stop::Close));
                }
                if t == "} else {" {
                    return Ok((nodes, Stop::Else));
                }
                if t == "} continue {" {
                    return Ok((nodes, Stop::Continue));
                }
                if t.starts_with("block ") {
                    let mut c = self.take_line("block")?;
                    c.ws();
                    c.expect("block b", "")?;
                    let number = c.uint("a block number")?;
                    c.expect(":", "after the block name")?;
                    // nir_print prints the end block bare, and every other block with a
                    // `// preds:` comment; the comments carry nothing the parser needs (the CFG
                    // follows from the structure), so a block without one is the end block only
                    // when the impl's `}` follows it.
                    let empty = if c.at_end() {
                        let next = self.lines[self.next.min(self.lines.len())..]
                            .iter()
                            .map(|l| l.trim())
                            .find(|l| !l.is_empty());
                        if depth == 0 && next == Some("}") {
                            return Ok((nodes, Stop::EndBlock(number, line)));
                        }
                        false
                    } else {
                        c.expect("//", "before the predecessor comment")?;
                        c.rest().contains(", succs:")
                    };
                    let id = BlockId(b.imp.blocks.len() as u32);
                    b.imp.blocks.push(Block::default());
                    if b.block_numbers.insert(number, id).is_some() {
                        return c.err(format!("block b{number} defined twice"));
                    }
                    b.current = id;
                    nodes.push(CfNode::Block(id));
                    if !empty {
                        self.block_body(b)?;
                    }
                } else if t.starts_with("if ") {
                    let mut c = self.take_line("if")?;
                    c.expect("if", "")?;
                    let cond = c.ssa()?;
                    b.uses.push((cond, line, col + 3));
                    c.skip_annotation()?;
                    let mut control = None;
                    if c.eat("//") {
                        let r = c.rest().trim_end();
                        let Some(ctl) = r.strip_suffix('{') else {
                            return c.err("expected `{` after the if condition");
                        };
                        control = Some(ctl.trim().to_string());
                    } else {
                        c.expect("{", "after the if condition")?;
                    }
                    let (then_body, stop) = self.cf_list(b, depth + 1)?;
                    if stop != Stop::Else {
                        return Err(ParseError {
                            line,
                            col,
                            message: "expected `} else {` for this if".into(),
                        });
                    }
                    self.next += 1;
                    let (else_body, stop) = self.cf_list(b, depth + 1)?;
                    if stop != Stop::Close {
                        return Err(ParseError {
                            line,
                            col,
                            message: "expected `}` closing this if".into(),
                        });
                    }
                    self.next += 1;
                    nodes.push(CfNode::If(IfNode {
                        condition: cond,
                        control,
                        then_body,
                        else_body,
                    }));
                } else if t == "loop {" {
                    self.next += 1;
                    let (body, stop) = self.cf_list(b, depth + 1)?;
                    let mut continue_body = Vec::new();
                    match stop {
                        Stop::Close => {}
                        Stop::Continue => {
                            self.next += 1;
                            let (cont, stop) = self.cf_list(b, depth + 1)?;
                            if stop != Stop::Close {
                                return Err(ParseError {
                                    line,
                                    col,
                                    message: "expected `}` closing this loop".into(),
                                });
                            }
                            continue_body = cont;
                        }
                        _ => {
                            return Err(ParseError {
                                line,
                                col,
                                message: "expected `}` closing this loop".into(),
                            })
                        }
                    }
                    self.next += 1;
                    nodes.push(CfNode::Loop(LoopNode {
                        body,
                        continue_body,
                    }));
                } else {
                    return Err(ParseError {
                        line,
                        col,
                        message: format!(
                            "expected `block`, `if`, `loop` or `}}`, found `{}`",
                            t.chars().take(32).collect::<String>()
                        ),
                    });
                }
            }
        })
    }

    fn block_body(&mut self, b: &mut ImplBuilder) -> PResult<()> {
        loop {
            let Some(raw) = self.peek_line() else {
                return self.eof_error("the end of the block");
            };
            if raw.trim_start().starts_with("// succs:") {
                self.next += 1;
                return Ok(());
            }
            let t = raw.trim();
            if t.is_empty() {
                self.next += 1;
                continue;
            }
            // The `// succs:` comment is optional too: the next control-flow line ends the
            // block as well.
            if t.starts_with("block ")
                || t == "}"
                || t.starts_with("if ")
                || t == "loop {"
                || t.starts_with("} ")
            {
                return Ok(());
            }
            let mut c = self.take_line("instruction")?;
            c.ws();
            let kind = instruction(&mut c, b)?;
            let id = InstrId(b.imp.instrs.len() as u32);
            if let Some(d) = kind.def() {
                if let Some(Some(def)) = b.imp.defs.get_mut(d.0 as usize) {
                    def.instr = id;
                }
            }
            b.imp.instrs.push(Instr {
                block: b.current,
                kind,
            });
            b.imp.blocks[b.current.0 as usize].instrs.push(id);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Close,
    Else,
    Continue,
    EndBlock(u64, usize),
}

fn instruction(c: &mut Cur, b: &mut ImplBuilder) -> PResult<InstrKind> {
    let r = c.rest();
    if r.starts_with('@') {
        return intrinsic(c, b, None);
    }
    for (word, kind) in [
        ("break", JumpKind::Break),
        ("continue", JumpKind::Continue),
        ("return", JumpKind::Return),
        ("halt", JumpKind::Halt),
    ] {
        if r.trim_end() == word {
            return Ok(InstrKind::Jump(kind));
        }
    }
    // A definition: [con|div] BITS[xN] %N = ...
    let mut divergent = false;
    if c.rest().starts_with("div ") {
        divergent = true;
        c.pos += 4;
    } else if c.rest().starts_with("con ") {
        c.pos += 4;
    }
    c.ws();
    let bits = c.uint("a bit size")?;
    if !matches!(bits, 1 | 8 | 16 | 32 | 64) {
        return c.err(format!(
            "invalid bit size {bits}: expected 1, 8, 16, 32 or 64"
        ));
    }
    let mut comps = 1;
    if c.rest().starts_with('x') {
        c.pos += 1;
        comps = c.uint("a component count after `x`")?;
        if !matches!(comps, 2..=5 | 8 | 16) {
            return c.err(format!(
                "invalid component count {comps}: expected 2, 3, 4, 5, 8 or 16"
            ));
        }
    }
    let before = c.pos;
    c.ws();
    let spaces = c.pos - before;
    let def_col = c.pos + 1;
    let id = c.ssa()?;
    // Recover the column width nir_print used (it depends on the impl's SSA count).
    let size_spaces = match comps {
        1 => 3,
        16 => 0,
        _ => 1,
    };
    let pad = spaces.saturating_sub(size_spaces);
    let digits = (pad + count_digits(id.0)).saturating_sub(1 + (bits == 1) as usize);
    b.digits = b.digits.max(digits);
    let slot = id.0 as usize;
    if b.imp.defs.len() <= slot {
        b.imp.defs.resize(slot + 1, None);
    }
    if b.imp.defs[slot].is_some() {
        return Err(ParseError {
            line: c.line,
            col: def_col,
            message: format!("%{} is defined twice", id.0),
        });
    }
    b.imp.defs[slot] = Some(Def {
        num_components: comps as u8,
        bit_size: bits as u8,
        divergent,
        instr: InstrId(u32::MAX),
    });
    c.expect("=", "after the defined value")?;
    c.ws();
    let r = c.rest();
    if r.starts_with('@') {
        return intrinsic(c, b, Some(id));
    }
    if r.starts_with('(') {
        return tex(c, b, id);
    }
    let op_col = c.pos;
    let word = c.word();
    match word {
        "load_const" => load_const(c, id, bits as u8, comps as usize),
        "undefined" => Ok(InstrKind::Undef(id)),
        "phi" => phi(c, b, id),
        "deref_var" => {
            c.expect("&", "before the variable name")?;
            c.ws();
            let r = c.rest();
            let n = r.find(" (").unwrap_or(r.len());
            let name = r[..n].to_string();
            c.pos += n;
            deref_tail(c, id, DerefKind::Var(name))
        }
        "deref_array" => {
            c.expect("&(*", "before the parent deref")?;
            let parent = c.ssa()?;
            b.uses.push((parent, c.line, c.pos));
            c.expect(")[", "after the parent deref")?;
            c.ws();
            let index = if c.rest().starts_with('%') {
                let i = c.ssa()?;
                b.uses.push((i, c.line, c.pos));
                i
            } else {
                return c
                    .err("constant array indices in deref_array are not supported; expected `%N`");
            };
            c.expect("]", "after the array index")?;
            deref_tail(c, id, DerefKind::Array { parent, index })
        }
        _ => {
            let Some(op) = AluOp::from_name(word) else {
                c.pos = op_col;
                return c.err(format!("unknown ALU opcode or instruction `{word}`"));
            };
            alu(c, b, id, op, comps as usize)
        }
    }
}

fn deref_tail(c: &mut Cur, id: SsaId, kind: DerefKind) -> PResult<InstrKind> {
    c.expect("(", "before the deref modes and type")?;
    let inner = c.balanced()?;
    let Some((modes, ty)) = inner.split_once(' ') else {
        return c.err("expected `(modes type)` after the deref");
    };
    let mut mode_list = Vec::new();
    for m in modes.split('|') {
        match VarMode::from_name(m) {
            Some(v) => mode_list.push(v),
            None => return c.err(format!("unknown variable mode `{m}`")),
        }
    }
    let Some(ty) = GlslType::parse(ty.trim()) else {
        return c.err(format!("bad type `{ty}`"));
    };
    Ok(InstrKind::Deref(DerefInstr {
        def: id,
        kind,
        modes: mode_list,
        ty,
    }))
}

fn load_const(c: &mut Cur, id: SsaId, bits: u8, comps: usize) -> PResult<InstrKind> {
    c.expect("(", "before the constant values")?;
    let mut values = Vec::new();
    loop {
        c.ws();
        if bits == 1 {
            let w = c.word();
            match w {
                "true" => values.push(1),
                "false" => values.push(0),
                _ => return c.err(format!("expected `true` or `false`, found `{w}`")),
            }
        } else {
            if !c.eat("0x") {
                return c.err(format!(
                    "expected a hexadecimal constant `0x...`, found {}",
                    c.found()
                ));
            }
            let r = c.rest();
            let n = r
                .find(|ch: char| !ch.is_ascii_hexdigit())
                .unwrap_or(r.len());
            let Ok(v) = u64::from_str_radix(&r[..n], 16) else {
                return c.err("expected hexadecimal digits");
            };
            if bits < 64 && v >> bits != 0 {
                return c.err(format!("constant 0x{v:x} does not fit in {bits} bits"));
            }
            c.pos += n;
            values.push(v);
        }
        if c.eat(",") {
            continue;
        }
        if c.eat(")") {
            break;
        }
        c.ws();
        if c.rest().starts_with('=') && comps == 1 && values.len() == 1 {
            break;
        }
        return c.err(format!(
            "expected `,` or `)` in the constant list, found {}",
            c.found()
        ));
    }
    if values.len() != comps {
        return c.err(format!(
            "load_const has {} values for {comps} components",
            values.len()
        ));
    }
    Ok(InstrKind::LoadConst(LoadConstInstr { def: id, values }))
}

fn phi(c: &mut Cur, b: &mut ImplBuilder, id: SsaId) -> PResult<InstrKind> {
    let instr = InstrId(b.imp.instrs.len() as u32);
    let mut srcs = Vec::new();
    while !c.at_end() {
        if !srcs.is_empty() {
            c.expect(",", "between phi sources")?;
        }
        c.ws();
        let col = c.pos + 1;
        c.expect("b", "naming a predecessor block")?;
        let number = c.uint("a block number")?;
        c.expect(":", "after the predecessor block")?;
        c.ws();
        let use_col = c.pos + 1;
        let v = c.ssa()?;
        b.uses.push((v, c.line, use_col));
        c.skip_annotation()?;
        b.phis.push(PendingPhi {
            instr,
            src: srcs.len(),
            block_number: number,
            line: c.line,
            col,
        });
        srcs.push((BlockId(u32::MAX), v));
    }
    Ok(InstrKind::Phi(PhiInstr { def: id, srcs }))
}

fn swizzle_letter(ch: char) -> Option<u8> {
    match ch {
        'x' => Some(0),
        'y' => Some(1),
        'z' => Some(2),
        'w' => Some(3),
        'a'..='p' => Some(ch as u8 - b'a'),
        _ => None,
    }
}

fn alu(c: &mut Cur, b: &mut ImplBuilder, id: SsaId, op: AluOp, width: usize) -> PResult<InstrKind> {
    let info = op.info();
    let mut instr = AluInstr {
        op,
        def: id,
        srcs: Vec::new(),
        exact: false,
        no_signed_wrap: false,
        no_unsigned_wrap: false,
    };
    if c.rest().starts_with('!') {
        c.pos += 1;
        instr.exact = true;
    }
    if c.rest().starts_with(".nsw") {
        c.pos += 4;
        instr.no_signed_wrap = true;
    }
    if c.rest().starts_with(".nuw") {
        c.pos += 4;
        instr.no_unsigned_wrap = true;
    }
    for n in 0..info.num_inputs() {
        if n != 0 && !c.eat(",") {
            return c.err(format!(
                "`{}` takes {} sources, found {n}: expected `,`",
                info.name,
                info.num_inputs()
            ));
        }
        c.ws();
        if c.at_end() {
            return c.err(format!(
                "`{}` takes {} sources, found {n}",
                info.name,
                info.num_inputs()
            ));
        }
        let col = c.pos + 1;
        let v = c.ssa()?;
        b.uses.push((v, c.line, col));
        c.skip_annotation()?;
        let used = match info.input_sizes[n] {
            0 => width,
            s => s as usize,
        };
        let mut src = AluSrc::new(v);
        if c.rest().starts_with('.') {
            c.pos += 1;
            let r = c.rest();
            let n_letters = r
                .find(|ch: char| !ch.is_ascii_alphabetic())
                .unwrap_or(r.len());
            let letters = &r[..n_letters];
            if letters.len() != used {
                return c.err(format!(
                    "bad swizzle `.{letters}`: source {n} of `{}` reads {used} components",
                    info.name
                ));
            }
            for (i, ch) in letters.chars().enumerate() {
                let Some(comp) = swizzle_letter(ch) else {
                    return Err(ParseError {
                        line: c.line,
                        col: c.pos + i + 1,
                        message: format!(
                            "bad swizzle letter `{ch}`: expected x, y, z, w or a to p"
                        ),
                    });
                };
                src.swizzle[i] = comp;
            }
            c.pos += n_letters;
        }
        instr.srcs.push(src);
    }
    if !c.at_end() {
        return c.err(format!(
            "`{}` takes {} sources; unexpected {} after them",
            info.name,
            info.num_inputs(),
            c.found()
        ));
    }
    Ok(InstrKind::Alu(instr))
}

fn intrinsic(c: &mut Cur, b: &mut ImplBuilder, def: Option<SsaId>) -> PResult<InstrKind> {
    c.expect("@", "")?;
    let name_col = c.pos;
    let name = c.word();
    let Some(intr) = Intrinsic::from_name(name) else {
        c.pos = name_col;
        return c.err(format!("unknown intrinsic `{name}`"));
    };
    let info = intr.info();
    if info.has_dest() != def.is_some() {
        c.pos = name_col;
        return c.err(if info.has_dest() {
            format!("intrinsic `{name}` defines a value: expected `%N = @{name}`")
        } else {
            format!("intrinsic `{name}` has no destination")
        });
    }
    c.expect("(", "before the intrinsic sources")?;
    let mut srcs = Vec::new();
    c.ws();
    if !c.eat(")") {
        loop {
            c.ws();
            let col = c.pos + 1;
            let v = c.ssa()?;
            b.uses.push((v, c.line, col));
            c.skip_annotation()?;
            srcs.push(v);
            if c.eat(")") {
                break;
            }
            c.expect(",", "or `)` after an intrinsic source")?;
        }
    }
    if srcs.len() != info.num_srcs() {
        return Err(ParseError {
            line: c.line,
            col: name_col + 1,
            message: format!(
                "intrinsic `{name}` takes {} sources, found {}",
                info.num_srcs(),
                srcs.len()
            ),
        });
    }
    c.expect("(", "before the constant indices")?;
    let idx_start = c.pos;
    let inner = c.balanced()?;
    let items = split_top(inner);
    if items.len() != info.indices.len() {
        return Err(ParseError {
            line: c.line,
            col: idx_start + 1,
            message: format!(
                "intrinsic `{name}` takes {} constant indices ({}), found {}",
                info.indices.len(),
                info.indices
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", "),
                items.len()
            ),
        });
    }
    // num_components: the destination width; for intrinsics without a destination it is the
    // stored value's width, filled in once every value is known (see `finish`).
    let num_components = def
        .and_then(|d| b.imp.def(d))
        .map_or(0, |d| d.num_components);
    let mut indices = Vec::new();
    for (&kind, (off, item)) in info.indices.iter().zip(items) {
        let col = idx_start + off + 1;
        let bad = |msg: String| ParseError {
            line: c.line,
            col,
            message: msg,
        };
        let value = match kind {
            IndexKind::WriteMask => {
                let Some(letters) = item.strip_prefix("wrmask=") else {
                    return Err(bad(format!("expected `wrmask=` index, found `{item}`")));
                };
                let mut m = 0u32;
                for ch in letters.chars() {
                    match swizzle_letter(ch) {
                        Some(i) => m |= 1 << i,
                        None => return Err(bad(format!("bad write mask letter `{ch}`"))),
                    }
                }
                IndexValue::WriteMask(m)
            }
            IndexKind::SrcType | IndexKind::DestType => {
                let Some(t) = item
                    .strip_prefix(kind.name())
                    .and_then(|r| r.strip_prefix('='))
                else {
                    return Err(bad(format!(
                        "expected `{}=` index, found `{item}`",
                        kind.name()
                    )));
                };
                match AluType::parse(t) {
                    Some(t) => IndexValue::Type(t),
                    None => return Err(bad(format!("bad ALU type `{t}`"))),
                }
            }
            k if is_text_index(k) => {
                let prefix = match k.printed_prefix() {
                    "" => format!("{}=", k.name()),
                    p => p.to_string(),
                };
                // gpucc's own texts once spelled these two by their index names; read
                // them as nir_print's spelling.
                let legacy = format!("{}=", k.name());
                let item = match item.strip_prefix(legacy.as_str()) {
                    Some(rest) if prefix != legacy => format!("{prefix}{rest}"),
                    _ => item.to_string(),
                };
                if !item.starts_with(&prefix) {
                    return Err(bad(format!("expected `{prefix}` index, found `{item}`")));
                }
                IndexValue::Text(item)
            }
            k => {
                let Some(v) = item
                    .strip_prefix(k.name())
                    .and_then(|r| r.strip_prefix('='))
                else {
                    return Err(bad(format!(
                        "expected `{}=` index, found `{item}`",
                        k.name()
                    )));
                };
                match v.parse::<i64>() {
                    // NIR keeps every index in a 32-bit `const_index` slot, printed signed
                    // or unsigned by kind: either reading fits, nothing wider does.
                    Ok(v) if (i32::MIN as i64..=u32::MAX as i64).contains(&v) => IndexValue::Int(v),
                    Ok(v) => {
                        return Err(bad(format!(
                            "`{}` index {v} does not fit NIR's 32-bit index",
                            k.name()
                        )))
                    }
                    Err(_) => {
                        return Err(bad(format!(
                            "expected an integer for `{}`, found `{v}`",
                            k.name()
                        )))
                    }
                }
            }
        };
        indices.push(value);
    }
    c.ws();
    if !c.at_end() && !c.rest().starts_with("//") {
        return c.err(format!("unexpected {} after the intrinsic", c.found()));
    }
    Ok(InstrKind::Intrinsic(IntrinsicInstr {
        intrinsic: intr,
        def,
        num_components,
        srcs,
        indices,
    }))
}

/// Indices nir_print spells in their own way; kept as text.
pub(crate) fn is_text_index(k: IndexKind) -> bool {
    use IndexKind::*;
    matches!(
        k,
        ReductionOp
            | AtomicOp
            | ImageDim
            | ImageArray
            | Format
            | DescType
            | SwizzleMask
            | MemorySemantics
            | MemoryModes
            | MemoryScope
            | ExecutionScope
            | IoSemantics
            | IoXfb
            | IoXfb2
            | RoundingMode
            | RayQueryValue
            | ResourceAccessIntel
            | Access
            | MatrixLayout
            | CmatDesc
            | CmatSignedMask
            | AluOp
    )
}

fn tex(c: &mut Cur, b: &mut ImplBuilder, id: SsaId) -> PResult<InstrKind> {
    c.expect("(", "")?;
    let t = c.balanced()?;
    let Some(dest_type) = AluType::parse(t) else {
        return c.err(format!("bad texture destination type `{t}`"));
    };
    c.ws();
    let op_col = c.pos;
    let Some(op) = tex_op_prefix(c.rest()) else {
        let name = c.word();
        c.pos = op_col;
        return c.err(format!("unknown texture op `{name}`"));
    };
    c.pos += op.name().len();
    let start = c.pos;
    let items = split_top(c.rest());
    let mut instr = TexInstr {
        op,
        def: id,
        dest_type,
        srcs: Vec::new(),
        texture_index: None,
        sampler_index: None,
        extra: Vec::new(),
    };
    for (off, item) in items {
        let col = start + off + 1;
        let bad = |msg: String| ParseError {
            line: c.line,
            col,
            message: msg,
        };
        if matches!(
            item,
            "implicit lod" | "texture non-uniform" | "sampler non-uniform" | "sparse"
        ) {
            instr.extra.push(item.to_string());
            continue;
        }
        let (value, label) = match (item.rfind(" ("), item.ends_with(')')) {
            (Some(p), true) => (&item[..p], &item[p + 2..item.len() - 1]),
            _ => return Err(bad(format!("unexpected texture field `{item}`"))),
        };
        if let Some(v) = value.strip_prefix('%') {
            let digits = v.split(' ').next().unwrap_or("");
            let Ok(n) = digits.parse::<u32>() else {
                return Err(bad(format!(
                    "expected an SSA value in texture source `{item}`"
                )));
            };
            if n > MAX_SSA_ID {
                return Err(bad(format!("SSA index {n} is too large")));
            }
            let Some(kind) = TexSrc::from_name(label) else {
                return Err(bad(format!("unknown texture source kind `{label}`")));
            };
            b.uses.push((SsaId(n), c.line, col));
            instr.srcs.push((kind, SsaId(n)));
        } else if label == "texture" || label == "sampler" {
            let Ok(n) = value.parse::<u32>() else {
                return Err(bad(format!("expected a {label} index, found `{value}`")));
            };
            if label == "texture" {
                instr.texture_index = Some(n);
            } else {
                instr.sampler_index = Some(n);
            }
        } else if (label == "gather_component" && value.parse::<u32>().is_ok())
            || (label == "offsets" && value.starts_with('{') && value.ends_with('}'))
        {
            instr.extra.push(item.to_string());
        } else {
            return Err(bad(format!("unexpected texture field `{item}`")));
        }
    }
    Ok(InstrKind::Tex(instr))
}

/// The texture op `text` starts with. Spellings are words except `tex (pre-dispatchable)`,
/// which begins like `tex`: the longest spelling that ends at a space or the line's end wins.
fn tex_op_prefix(text: &str) -> Option<TexOp> {
    TexOp::ALL
        .iter()
        .copied()
        .filter(|op| {
            // The spelling ends where an identifier would: `tex%3` (fuzzed or hand-edited
            // text) reads as `tex`, `txf_ms` never as `txf`.
            text.strip_prefix(op.name()).is_some_and(|after| {
                !after
                    .chars()
                    .next()
                    .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            })
        })
        .max_by_key(|op| op.name().len())
}

const QUALIFIERS: [&str; 8] = [
    "bindless",
    "centroid",
    "sample",
    "patch",
    "invariant",
    "per_view",
    "per_primitive",
    "ray_query",
];
const ACCESS_WORDS: [&str; 9] = [
    "coherent",
    "volatile",
    "restrict",
    "readonly",
    "writeonly",
    "reorderable",
    "speculatable",
    "non-temporal",
    "include-helpers",
];

fn parse_var(mut c: Cur) -> PResult<Variable> {
    c.expect("decl_var ", "")?;
    let mut qualifiers = Vec::new();
    loop {
        let r = c.rest();
        match QUALIFIERS.iter().find(|q| r.starts_with(&format!("{q} "))) {
            Some(q) => {
                qualifiers.push(q.to_string());
                c.pos += q.len() + 1;
            }
            None => break,
        }
    }
    let r = c.rest();
    let Some(sp) = r.find(' ') else {
        return c.err("expected `mode INTERP_MODE_... access type name` after decl_var");
    };
    let mode_word = &r[..sp];
    let mode = if mode_word.is_empty() {
        VarMode::FunctionTemp
    } else {
        match VarMode::from_name(mode_word) {
            Some(m) => m,
            None => return c.err(format!("unknown variable mode `{mode_word}`")),
        }
    };
    c.pos += sp + 1;
    let interp = c.rest().split(' ').next().unwrap_or("");
    if !interp.starts_with("INTERP_MODE_") {
        return c.err(format!(
            "expected an interpolation mode `INTERP_MODE_...`, found `{interp}`"
        ));
    }
    c.pos += interp.len();
    let interpolation = interp.to_string();
    let mut access = Vec::new();
    c.ws();
    if !c.eat("none ") {
        loop {
            let w = c.rest().split(' ').next().unwrap_or("");
            if ACCESS_WORDS.contains(&w) {
                access.push(w.to_string());
                c.pos += w.len();
                c.ws();
            } else {
                break;
            }
        }
        if access.is_empty() {
            return c.err(format!(
                "expected an access qualifier or `none`, found {}",
                c.found()
            ));
        }
    }
    let mut rest = c.rest();
    let mut initializer = None;
    if let Some(p) = rest.find(" = ") {
        initializer = Some(rest[p + 3..].to_string());
        rest = &rest[..p];
    }
    let mut tuple = None;
    let mut compact = false;
    if mode.has_location() {
        let body = match rest.strip_suffix(" compact") {
            Some(b) => {
                compact = true;
                b
            }
            None => rest,
        };
        if let (Some(p), true) = (body.rfind(" ("), body.ends_with(')')) {
            tuple = Some(&body[p + 2..body.len() - 1]);
            rest = &body[..p];
        } else {
            return c.err("expected a location tuple `(location, driver_location, binding)`");
        }
    }
    let words: Vec<&str> = rest.split(' ').collect();
    if words.len() < 2 || words.len() > 4 || words.iter().any(|w| w.is_empty()) {
        return c.err(format!(
            "expected `[format] [precision] type name`, found `{rest}`"
        ));
    }
    let name = words[words.len() - 1].to_string();
    let ty_word = words[words.len() - 2];
    let Some(ty) = GlslType::parse(ty_word) else {
        return c.err(format!("bad type `{ty_word}`"));
    };
    let mut image_format = None;
    let mut precision = None;
    for w in &words[..words.len() - 2] {
        if matches!(*w, "highp" | "mediump" | "lowp") {
            precision = Some(w.to_string());
        } else if image_format.is_none() && precision.is_none() {
            image_format = Some(w.to_string());
        } else {
            return c.err(format!("unexpected `{w}` before the variable type"));
        }
    }
    let mut var = Variable {
        mode,
        qualifiers,
        interpolation,
        access,
        image_format,
        precision,
        ty,
        name,
        location: String::new(),
        components: None,
        driver_location: 0,
        binding: 0,
        compact,
        initializer,
    };
    if let Some(t) = tuple {
        let parts: Vec<&str> = t.split(", ").collect();
        let loc = parts[0];
        let (loc, comps) = match loc.rsplit_once('.') {
            Some((l, cmp))
                if !cmp.is_empty() && cmp.chars().all(|ch| swizzle_letter(ch).is_some()) =>
            {
                (l, Some(cmp))
            }
            _ => (loc, None),
        };
        var.location = loc.to_string();
        var.components = comps.map(str::to_string);
        if mode == VarMode::System {
            if parts.len() != 1 {
                return c.err("expected `(location)` for a system value");
            }
        } else {
            if parts.len() != 3 {
                return c.err("expected `(location, driver_location, binding)`");
            }
            match (parts[1].parse(), parts[2].parse()) {
                (Ok(d), Ok(b)) => {
                    var.driver_location = d;
                    var.binding = b;
                }
                _ => return c.err("expected numbers for driver_location and binding"),
            }
        }
    }
    Ok(var)
}

#[cfg(test)]
mod tests {
    use super::tex_op_prefix;
    use crate::nir::TexOp;

    #[test]
    fn a_texture_op_ends_where_an_identifier_would() {
        assert_eq!(tex_op_prefix("tex %3 (coord)"), Some(TexOp::Tex));
        assert_eq!(tex_op_prefix("tex%3 (coord)"), Some(TexOp::Tex));
        assert_eq!(tex_op_prefix("txf_ms %3 (coord)"), Some(TexOp::TxfMs));
        assert_eq!(tex_op_prefix("txf %3"), Some(TexOp::Txf));
        assert_eq!(tex_op_prefix("texx %3"), None);
        assert_eq!(tex_op_prefix("txl_ms %3"), None);
    }
}
