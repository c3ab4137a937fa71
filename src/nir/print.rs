//! The printer: Mesa 23.3's nir_print text, byte for byte where the data model allows.
//!
//! Everything nir_print derives rather than stores is recomputed here: block predecessors and
//! successors (from [`Cfg`]), column padding (from the SSA id width), the constant values shown
//! beside sources, the variable named after I/O intrinsics, and the int/float guess Mesa makes
//! for constants (`nir_gather_types`).

use std::fmt::Write;

use super::cfg::Cfg;
use super::ir::*;
use super::opcodes::IndexKind;
use super::types::BaseType;

/// Prints a shader as nir_print would.
pub fn print(shader: &Shader) -> String {
    let mut out = String::new();
    print_header(shader, &mut out);
    for v in &shader.variables {
        print_var(v, &mut out);
    }
    for (n, f) in shader.functions.iter().enumerate() {
        if n != 0 && shader.functions[n - 1].body.is_some() {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "decl_function {} ({} params) {}",
            f.name, f.num_params, f.inline_hint
        );
        if let Some(imp) = &f.body {
            ImplPrinter::new(shader, imp, &mut out).print(&f.name);
        }
    }
    out.push_str(&shader.trailer);
    out
}

impl std::fmt::Display for Shader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print(self))
    }
}

fn print_header(shader: &Shader, out: &mut String) {
    let info = &shader.info;
    let _ = writeln!(out, "shader: {}", info.stage.mesa_name());
    for (k, v) in &info.fields {
        let _ = writeln!(out, "{k}: {v}");
    }
    let _ = writeln!(out, "inputs: {}", info.num_inputs);
    let _ = writeln!(out, "outputs: {}", info.num_outputs);
    let _ = writeln!(out, "uniforms: {}", info.num_uniforms);
    if info.scratch_size != 0 {
        let _ = writeln!(out, "scratch: {}", info.scratch_size);
    }
    if info.constant_data_size != 0 {
        let _ = writeln!(out, "constants: {}", info.constant_data_size);
    }
}

fn print_var(v: &Variable, out: &mut String) {
    out.push_str("decl_var ");
    for q in &v.qualifiers {
        out.push_str(q);
        out.push(' ');
    }
    let mode = match v.mode {
        VarMode::ShaderTemp | VarMode::FunctionTemp => "",
        m => m.name(),
    };
    let _ = write!(out, "{mode} {} ", v.interpolation);
    if v.access.is_empty() {
        out.push_str("none");
    } else {
        out.push_str(&v.access.join(" "));
    }
    out.push(' ');
    if let Some(f) = &v.image_format {
        let _ = write!(out, "{f} ");
    }
    if let Some(p) = &v.precision {
        let _ = write!(out, "{p} ");
    }
    let _ = write!(out, "{} {}", v.ty, v.name);
    if v.mode.has_location() {
        let comps = v
            .components
            .as_ref()
            .map(|c| format!(".{c}"))
            .unwrap_or_default();
        if v.mode == VarMode::System {
            let _ = write!(out, " ({}{comps})", v.location);
        } else {
            let _ = write!(
                out,
                " ({}{comps}, {}, {})",
                v.location, v.driver_location, v.binding
            );
            if v.compact {
                out.push_str(" compact");
            }
        }
    }
    if let Some(init) = &v.initializer {
        let _ = write!(out, " = {init}");
    }
    out.push('\n');
}

/// `%u` digit count, as nir_print's `count_digits`.
pub(crate) fn count_digits(n: u32) -> usize {
    if n == 0 {
        1
    } else {
        n.ilog10() as usize + 1
    }
}

const SIZES: [&str; 17] = [
    "x??", "   ", "x2 ", "x3 ", "x4 ", "x5 ", "x??", "x??", "x8 ", "x??", "x??", "x??", "x??",
    "x??", "x??", "x??", "x16",
];

fn comp_mask_string(num_components: usize) -> &'static [u8] {
    if num_components > 4 {
        b"abcdefghijklmnop"
    } else {
        b"xyzw"
    }
}

/// Type inference used only to pick how constants print (Mesa's `nir_gather_types`).
pub(crate) struct TypeGuess {
    pub float: Vec<bool>,
    pub int: Vec<bool>,
}

impl TypeGuess {
    pub fn gather(imp: &Impl) -> TypeGuess {
        let n = imp.defs.len().max(imp.ssa_alloc as usize);
        let mut g = TypeGuess {
            float: vec![false; n],
            int: vec![false; n],
        };
        loop {
            let mut progress = false;
            for instr in &imp.instrs {
                g.visit(imp, &instr.kind, &mut progress);
            }
            if !progress {
                break;
            }
        }
        g
    }

    fn set(&mut self, id: SsaId, base: BaseType, progress: &mut bool) {
        let i = id.0 as usize;
        let slot = match base {
            BaseType::Bool | BaseType::Int | BaseType::Uint => self.int.get_mut(i),
            BaseType::Float => self.float.get_mut(i),
            BaseType::Invalid => None,
        };
        if let Some(s) = slot {
            if !*s {
                *s = true;
                *progress = true;
            }
        }
    }

    fn copy(&mut self, imp: &Impl, src: SsaId, dst: SsaId, progress: &mut bool) {
        let sink = matches!(
            imp.def_instr(src).map(|i| &i.kind),
            Some(InstrKind::LoadConst(_)) | Some(InstrKind::Undef(_))
        );
        let (s, d) = (src.0 as usize, dst.0 as usize);
        for types in [&mut self.float, &mut self.int] {
            if s >= types.len() || d >= types.len() {
                continue;
            }
            if types[d] {
                if !types[s] {
                    types[s] = true;
                    *progress = true;
                }
            } else if types[s] && !sink {
                types[d] = true;
                *progress = true;
            }
        }
    }

    fn visit(&mut self, imp: &Impl, kind: &InstrKind, progress: &mut bool) {
        match kind {
            InstrKind::Alu(a) => {
                let info = a.op.info();
                if info.name == "mov" || info.name.starts_with("vec") {
                    for s in &a.srcs {
                        self.copy(imp, s.ssa, a.def, progress);
                    }
                } else if info.name == "bcsel" || info.name == "b32csel" {
                    if let Some(c) = a.srcs.first() {
                        self.set(c.ssa, BaseType::Bool, progress);
                    }
                    for s in a.srcs.iter().skip(1) {
                        self.copy(imp, s.ssa, a.def, progress);
                    }
                } else {
                    for (s, t) in a.srcs.iter().zip(info.input_types) {
                        self.set(s.ssa, t.base, progress);
                    }
                    self.set(a.def, info.output_type.base, progress);
                }
            }
            InstrKind::Tex(t) => {
                for (kind, s) in &t.srcs {
                    self.set(*s, t.op.src_type(*kind), progress);
                }
                self.set(t.def, t.dest_type.base, progress);
            }
            InstrKind::Intrinsic(i) => {
                if let Some(d) = i.def {
                    self.set(d, intrinsic_dest_type(imp, i), progress);
                }
                for (n, s) in i.srcs.iter().enumerate() {
                    self.set(*s, intrinsic_src_type(imp, i, n), progress);
                }
            }
            InstrKind::Phi(p) => {
                for (_, s) in &p.srcs {
                    self.copy(imp, *s, p.def, progress);
                }
            }
            _ => {}
        }
    }
}

/// Source number of an I/O intrinsic's offset (`nir_get_io_offset_src_number`).
pub(crate) fn io_offset_src(name: &str) -> Option<usize> {
    match name {
        "load_input"
        | "load_output"
        | "load_shared"
        | "load_task_payload"
        | "load_uniform"
        | "load_kernel_input"
        | "load_global"
        | "load_global_2x32"
        | "load_global_constant"
        | "load_scratch"
        | "load_fs_input_interp_deltas"
        | "shared_atomic"
        | "shared_atomic_swap"
        | "task_payload_atomic"
        | "task_payload_atomic_swap"
        | "global_atomic"
        | "global_atomic_swap" => Some(0),
        "load_ubo"
        | "load_ssbo"
        | "load_input_vertex"
        | "load_per_vertex_input"
        | "load_per_vertex_output"
        | "load_per_primitive_output"
        | "load_interpolated_input"
        | "store_output"
        | "store_shared"
        | "store_task_payload"
        | "store_global"
        | "store_global_2x32"
        | "store_scratch"
        | "ssbo_atomic"
        | "ssbo_atomic_swap" => Some(1),
        "store_ssbo" | "store_per_vertex_output" | "store_per_primitive_output" => Some(2),
        _ => None,
    }
}

fn deref_type_base(imp: &Impl, id: SsaId) -> BaseType {
    match imp.def_instr(id).map(|i| &i.kind) {
        Some(InstrKind::Deref(d)) => d.ty.alu_base(),
        _ => BaseType::Invalid,
    }
}

pub(crate) fn intrinsic_src_type(imp: &Impl, i: &IntrinsicInstr, n: usize) -> BaseType {
    let name = i.intrinsic.name();
    match (name, n) {
        ("store_deref", 1) => {
            return i
                .srcs
                .first()
                .map_or(BaseType::Invalid, |d| deref_type_base(imp, *d));
        }
        ("store_output", 0) => {
            return i
                .type_index(IndexKind::SrcType)
                .map_or(BaseType::Invalid, |t| t.base);
        }
        _ => {}
    }
    if io_offset_src(name) == Some(n) {
        BaseType::Int
    } else {
        BaseType::Invalid
    }
}

pub(crate) fn intrinsic_dest_type(imp: &Impl, i: &IntrinsicInstr) -> BaseType {
    match i.intrinsic.name() {
        "load_deref" => i
            .srcs
            .first()
            .map_or(BaseType::Invalid, |d| deref_type_base(imp, *d)),
        "load_input" | "load_uniform" => i
            .type_index(IndexKind::DestType)
            .map_or(BaseType::Invalid, |t| t.base),
        _ => BaseType::Invalid,
    }
}

/// The variable's own name: nir_print appends `#N` to repeated names in declarations, but names
/// the variable without it in I/O comments.
fn raw_var_name(printed: &str) -> &str {
    match printed.rsplit_once('#') {
        Some((base, n))
            if !base.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) =>
        {
            base
        }
        _ => printed,
    }
}

/// IEEE half to single precision.
pub(crate) fn half_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = if exp == 0x1f {
        sign | 0x7f80_0000 | (man << 13)
    } else if exp == 0 {
        if man == 0 {
            sign
        } else {
            // Subnormal: the value is man * 2^-24, exact in f32.
            let v = man as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
    } else {
        sign | ((exp + 112) << 23) | (man << 13)
    };
    f32::from_bits(bits)
}

/// C's `%f` for a double.
pub(crate) fn c_float(v: f64) -> String {
    if v.is_nan() {
        if v.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        }
    } else if v.is_infinite() {
        if v < 0.0 {
            "-inf".into()
        } else {
            "inf".into()
        }
    } else {
        format!("{v:.6}")
    }
}

fn float_of(bits: u64, bit_size: u8) -> f64 {
    match bit_size {
        64 => f64::from_bits(bits),
        32 => f32::from_bits(bits as u32) as f64,
        _ => half_to_f32(bits as u16) as f64,
    }
}

fn signed_of(bits: u64, bit_size: u8) -> i64 {
    let shift = 64 - bit_size as u32;
    ((bits << shift) as i64) >> shift
}

/// nir_print's source annotation / load_const body.
pub(crate) fn const_text(
    values: &[u64],
    bit_size: u8,
    ty: BaseType,
    guess: Option<(bool, bool)>,
) -> String {
    let mut s = String::from("(");
    let list = |s: &mut String, f: &dyn Fn(u64) -> String| {
        for (i, v) in values.iter().enumerate() {
            if i != 0 {
                s.push_str(", ");
            }
            s.push_str(&f(*v));
        }
    };
    if bit_size == 1 {
        list(&mut s, &|v| {
            if v != 0 {
                "true".into()
            } else {
                "false".into()
            }
        });
        s.push(')');
        return s;
    }
    match ty {
        BaseType::Float => list(&mut s, &|v| c_float(float_of(v, bit_size))),
        BaseType::Int | BaseType::Uint | BaseType::Bool => list(&mut s, &|v| format!("{v:#x}")),
        BaseType::Invalid => {
            let width = bit_size as usize / 4;
            let mut needs_float = bit_size > 8;
            let mut needs_signed = values.iter().any(|v| signed_of(*v, bit_size) < 0);
            let mut needs_decimal = values.iter().any(|v| *v >= 10);
            if let Some((is_int, is_float)) = guess {
                if is_int && !is_float {
                    needs_float = false;
                } else if is_float && !is_int {
                    needs_signed = false;
                    needs_decimal = false;
                }
            }
            list(&mut s, &|v| format!("0x{v:0width$x}"));
            let sep = |s: &mut String| s.push_str(if values.len() > 1 { ") = (" } else { " = " });
            if needs_float {
                sep(&mut s);
                list(&mut s, &|v| c_float(float_of(v, bit_size)));
            }
            if needs_signed {
                sep(&mut s);
                list(&mut s, &|v| format!("{:+}", signed_of(v, bit_size)));
            }
            if needs_decimal {
                sep(&mut s);
                list(&mut s, &|v| v.to_string());
            }
        }
    }
    s.push(')');
    s
}

struct ImplPrinter<'a> {
    shader: &'a Shader,
    imp: &'a Impl,
    out: &'a mut String,
    cfg: Cfg,
    guess: TypeGuess,
    divergence: bool,
    max_index: u32,
    no_dest_pad: usize,
}

impl<'a> ImplPrinter<'a> {
    fn new(shader: &'a Shader, imp: &'a Impl, out: &'a mut String) -> ImplPrinter<'a> {
        ImplPrinter {
            shader,
            imp,
            out,
            cfg: Cfg::compute(imp),
            guess: TypeGuess::gather(imp),
            divergence: shader.info.divergence_analysis_run(),
            max_index: imp.ssa_alloc,
            no_dest_pad: 0,
        }
    }

    fn print(mut self, name: &str) {
        let _ = write!(self.out, "\nimpl {name} {{\n");
        for v in &self.imp.locals {
            self.out.push_str("    ");
            print_var(v, self.out);
        }
        let imp = self.imp;
        for node in &imp.body {
            self.cf_node(node, 1);
        }
        let _ = write!(
            self.out,
            "    block b{}:\n}}\n",
            imp.blocks.len().saturating_sub(1)
        );
    }

    fn indent(&mut self, tabs: usize) {
        for _ in 0..tabs {
            self.out.push_str("    ");
        }
    }

    fn cf_node(&mut self, node: &CfNode, tabs: usize) {
        crate::util::stack::grow(|| match node {
            CfNode::Block(b) => self.block(*b, tabs),
            CfNode::If(f) => {
                self.indent(tabs);
                self.out.push_str("if ");
                self.src(f.condition, BaseType::Invalid);
                if let Some(c) = &f.control {
                    let _ = write!(self.out, "  // {c}");
                }
                self.out.push_str(" {\n");
                for n in &f.then_body {
                    self.cf_node(n, tabs + 1);
                }
                self.indent(tabs);
                self.out.push_str("} else {\n");
                for n in &f.else_body {
                    self.cf_node(n, tabs + 1);
                }
                self.indent(tabs);
                self.out.push_str("}\n");
            }
            CfNode::Loop(l) => {
                self.indent(tabs);
                self.out.push_str("loop {\n");
                for n in &l.body {
                    self.cf_node(n, tabs + 1);
                }
                self.indent(tabs);
                if !l.continue_body.is_empty() {
                    self.out.push_str("} continue {\n");
                    for n in &l.continue_body {
                        self.cf_node(n, tabs + 1);
                    }
                    self.indent(tabs);
                }
                self.out.push_str("}\n");
            }
        })
    }

    fn block(&mut self, b: BlockId, tabs: usize) {
        let imp = self.imp;
        let Some(block) = imp.blocks.get(b.0 as usize) else {
            return;
        };
        // Damaged IR (ids out of range) prints what exists rather than panicking.
        let instrs: Vec<&Instr> = block
            .instrs
            .iter()
            .filter_map(|i| imp.instrs.get(i.0 as usize))
            .collect();
        let has_dest = instrs.iter().any(|i| i.kind.def().is_some());
        self.no_dest_pad = if has_dest {
            let div = if self.divergence { 4 } else { 0 };
            5 + 1 + div + 1 + count_digits(self.max_index) + 1 + 1 + 1
        } else {
            0
        };
        self.indent(tabs);
        let _ = write!(self.out, "block b{}:", b.0);
        let edges = |v: &Vec<Vec<BlockId>>| v.get(b.0 as usize).cloned().unwrap_or_default();
        let preds = edges(&self.cfg.preds)
            .iter()
            .map(|p| format!("b{}", p.0))
            .collect::<Vec<_>>();
        let succs: String = edges(&self.cfg.succs)
            .iter()
            .map(|s| format!("b{} ", s.0))
            .collect();
        if block.instrs.is_empty() {
            let _ = writeln!(
                self.out,
                "  // preds: {}, succs: {}",
                preds.join(" "),
                succs
            );
            return;
        }
        let block_len = 7 + count_digits(b.0) + 1;
        let pad = self.no_dest_pad.saturating_sub(block_len);
        let _ = writeln!(self.out, "{:pad$}// preds: {}", "", preds.join(" "));
        for i in instrs {
            self.indent(tabs);
            self.instr(&i.kind);
            self.out.push('\n');
        }
        self.indent(tabs);
        let _ = writeln!(
            self.out,
            "{:w$}// succs: {}",
            "",
            succs,
            w = self.no_dest_pad
        );
    }

    fn def(&mut self, id: SsaId) {
        let (nc, bits, div) = match self.imp.def(id) {
            Some(d) => (d.num_components, d.bit_size, d.divergent),
            None => (1, 32, false),
        };
        if self.divergence {
            self.out.push_str(if div { "div " } else { "con " });
        }
        let ssa_pad = if self.max_index != 0 {
            count_digits(self.max_index).saturating_sub(count_digits(id.0))
        } else {
            0
        };
        let pad = (bits == 1) as usize + 1 + ssa_pad;
        let size = SIZES.get(nc as usize).copied().unwrap_or("x??");
        let _ = write!(self.out, "{bits}{size}{:pad$}%{}", "", id.0);
    }

    fn src(&mut self, id: SsaId, ty: BaseType) {
        let _ = write!(self.out, "%{}", id.0);
        let imp = self.imp;
        let Some(def) = imp.def(id) else { return };
        if let Some(InstrKind::LoadConst(c)) = imp.instrs.get(def.instr.0 as usize).map(|i| &i.kind)
        {
            let i = id.0 as usize;
            let mut ty = ty;
            let guessed = |v: &Vec<bool>| v.get(i).copied().unwrap_or(false);
            if ty == BaseType::Invalid && guessed(&self.guess.float) && !guessed(&self.guess.int) {
                ty = BaseType::Float;
            }
            if ty == BaseType::Invalid {
                ty = BaseType::Uint;
            }
            self.out.push(' ');
            self.out
                .push_str(&const_text(&c.values, def.bit_size, ty, None));
        }
    }

    fn instr(&mut self, kind: &InstrKind) {
        match kind {
            InstrKind::Alu(a) => self.alu(a),
            InstrKind::LoadConst(c) => {
                self.def(c.def);
                let bits = self.imp.def(c.def).map_or(32, |d| d.bit_size);
                let i = c.def.0 as usize;
                let guess = (
                    self.guess.int.get(i).copied().unwrap_or(false),
                    self.guess.float.get(i).copied().unwrap_or(false),
                );
                let _ = write!(
                    self.out,
                    " = load_const {}",
                    const_text(&c.values, bits, BaseType::Invalid, Some(guess))
                );
            }
            InstrKind::Undef(d) => {
                self.def(*d);
                self.out.push_str(" = undefined");
            }
            InstrKind::Phi(p) => {
                self.def(p.def);
                self.out.push_str(" = phi ");
                for (n, (b, s)) in p.srcs.iter().enumerate() {
                    if n != 0 {
                        self.out.push_str(", ");
                    }
                    let _ = write!(self.out, "b{}: ", b.0);
                    self.src(*s, BaseType::Invalid);
                }
            }
            InstrKind::Jump(j) => {
                let _ = write!(self.out, "{:w$}{}", "", j.name(), w = self.no_dest_pad);
            }
            InstrKind::Intrinsic(i) => self.intrinsic(i),
            InstrKind::Tex(t) => self.tex(t),
            InstrKind::Deref(d) => self.deref(d),
        }
    }

    fn alu(&mut self, a: &AluInstr) {
        self.def(a.def);
        let info = a.op.info();
        let _ = write!(self.out, " = {}", info.name);
        if a.exact {
            self.out.push('!');
        }
        if a.no_signed_wrap {
            self.out.push_str(".nsw");
        }
        if a.no_unsigned_wrap {
            self.out.push_str(".nuw");
        }
        self.out.push(' ');
        let width = self.imp.def(a.def).map_or(1, |d| d.num_components as usize);
        for (n, s) in a.srcs.iter().enumerate() {
            if n != 0 {
                self.out.push_str(", ");
            }
            let ty = info
                .input_types
                .get(n)
                .map_or(BaseType::Invalid, |t| t.base);
            self.src(s.ssa, ty);
            let used = match info.input_sizes.get(n) {
                Some(&sz) if sz > 0 => sz as usize,
                _ => width,
            }
            .min(16);
            let live = self
                .imp
                .def(s.ssa)
                .map_or(used, |d| d.num_components as usize);
            let needs = used != live || (0..used).any(|c| s.swizzle[c] as usize != c);
            if needs {
                self.out.push('.');
                // Out-of-range components (invalid, but parseable) still print as letters.
                let wide = live > 4 || s.swizzle[..used].iter().any(|&c| c >= 4);
                let letters = comp_mask_string(if wide { 16 } else { live });
                for &c in &s.swizzle[..used] {
                    self.out
                        .push(letters.get(c as usize).copied().unwrap_or(b'?') as char);
                }
            }
        }
    }

    fn intrinsic(&mut self, i: &IntrinsicInstr) {
        let info = i.intrinsic.info();
        match i.def {
            Some(d) => {
                self.def(d);
                self.out.push_str(" = ");
            }
            None => {
                let _ = write!(self.out, "{:w$}", "", w = self.no_dest_pad);
            }
        }
        let _ = write!(self.out, "@{} (", info.name);
        for (n, s) in i.srcs.iter().enumerate() {
            if n != 0 {
                self.out.push_str(", ");
            }
            let ty = intrinsic_src_type(self.imp, i, n);
            self.src(*s, ty);
        }
        self.out.push_str(") (");
        for (n, (kind, value)) in info.indices.iter().zip(&i.indices).enumerate() {
            if n != 0 {
                self.out.push_str(", ");
            }
            match value {
                IndexValue::Int(v) => {
                    let _ = write!(self.out, "{}={}", kind.name(), v);
                }
                IndexValue::WriteMask(m) => {
                    self.out.push_str("wrmask=");
                    let nc = i.num_components as usize;
                    // Bits beyond num_components are invalid but still printed, so the text
                    // says what the instruction holds.
                    let letters = comp_mask_string(if *m >> 4 != 0 { 16 } else { nc });
                    for (c, &l) in letters.iter().enumerate() {
                        if m >> c & 1 != 0 {
                            self.out.push(l as char);
                        }
                    }
                }
                IndexValue::Type(t) => {
                    let _ = write!(self.out, "{}={}", kind.name(), t);
                }
                IndexValue::Text(t) => self.out.push_str(t),
            }
        }
        self.out.push(')');
        if let Some(name) = self.io_var_name(i) {
            let _ = write!(self.out, "  // {name}");
        }
    }

    /// The variable nir_print names after an I/O intrinsic.
    fn io_var_name(&self, i: &IntrinsicInstr) -> Option<&'a str> {
        let name = i.intrinsic.name();
        let mode = match name {
            "load_uniform" => VarMode::Uniform,
            "load_input" | "load_interpolated_input" | "load_per_vertex_input" => VarMode::ShaderIn,
            "load_output" | "store_output" | "store_per_vertex_output" => VarMode::ShaderOut,
            _ => return None,
        };
        let base = i.int_index(IndexKind::Base)?;
        let component = i.int_index(IndexKind::Component).unwrap_or(0);
        let shader: &'a Shader = self.shader;
        shader
            .variables
            .iter()
            .find(|v| {
                v.mode == mode
                    && v.driver_location as i64 == base
                    && (name == "load_uniform"
                        || (component >= v.location_frac() as i64
                            && component < (v.location_frac() + v.ty.components()) as i64))
                    && !v.name.starts_with('#')
            })
            .map(|v| raw_var_name(&v.name))
    }

    fn tex(&mut self, t: &TexInstr) {
        self.def(t.def);
        let _ = write!(self.out, " = ({}){} ", t.dest_type, t.op);
        // Fields are separated by ", ", with none before the first: an op with no sources
        // (a size or level query) starts with its texture index.
        let mut first = true;
        let mut sep = |out: &mut String| {
            if !std::mem::take(&mut first) {
                out.push_str(", ");
            }
        };
        for (kind, s) in &t.srcs {
            sep(self.out);
            self.src(*s, t.op.src_type(*kind));
            let _ = write!(self.out, " ({kind})");
        }
        // nir_print writes gather fields before the texture index and flags after the sampler.
        let leading = |e: &&String| {
            e.as_str() == "implicit lod"
                || e.ends_with("(gather_component)")
                || e.ends_with("(offsets)")
        };
        for e in t.extra.iter().filter(leading) {
            sep(self.out);
            self.out.push_str(e);
        }
        if let Some(ti) = t.texture_index {
            sep(self.out);
            let _ = write!(self.out, "{ti} (texture)");
        }
        if let Some(si) = t.sampler_index {
            sep(self.out);
            let _ = write!(self.out, "{si} (sampler)");
        }
        for e in t.extra.iter().filter(|e| !leading(e)) {
            sep(self.out);
            self.out.push_str(e);
        }
    }

    fn deref(&mut self, d: &DerefInstr) {
        self.def(d.def);
        match &d.kind {
            DerefKind::Var(name) => {
                let _ = write!(self.out, " = deref_var &{name}");
            }
            DerefKind::Array { parent, index } => {
                // nir_print shows a constant index by value, which loses the SSA value that
                // holds it; the instruction always names the value so the text reads back,
                // and the comment shows the chain with constants as nir_print does.
                let _ = write!(self.out, " = deref_array &(*%{})[%{}]", parent.0, index.0);
            }
        }
        let modes: Vec<&str> = d.modes.iter().map(|m| m.name()).collect();
        let _ = write!(self.out, " ({} {})", modes.join("|"), d.ty);
        if let DerefKind::Array { .. } = &d.kind {
            let chain = self.deref_chain(d.def, 0);
            let _ = write!(self.out, "  // &{chain}");
        }
    }

    fn array_index(&self, index: SsaId) -> String {
        match (self.imp.const_value(index), self.imp.def(index)) {
            (Some(v), Some(def)) if !v.is_empty() => {
                format!("[{}]", signed_of(v[0], def.bit_size.max(1)))
            }
            _ => format!("[%{}]", index.0),
        }
    }

    fn deref_chain(&self, id: SsaId, depth: usize) -> String {
        match self.imp.def_instr(id).map(|i| &i.kind) {
            Some(InstrKind::Deref(d)) if depth < 64 => match &d.kind {
                DerefKind::Var(name) => name.clone(),
                DerefKind::Array { parent, index } => {
                    format!(
                        "{}{}",
                        self.deref_chain(*parent, depth + 1),
                        self.array_index(*index)
                    )
                }
            },
            _ => format!("%{}", id.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_floats_convert_exactly() {
        // IEEE binary16: 0x3c00 = 1.0, 0xc000 = -2.0, 0x7bff = 65504 (largest normal),
        // 0x0001 = 2^-24 (smallest subnormal), 0x7c00 = +inf, 0x8000 = -0.0.
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x7bff), 65504.0);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(half_to_f32(0x7c00), f32::INFINITY);
        assert!(half_to_f32(0x8000).is_sign_negative());
        assert!(half_to_f32(0x7e00).is_nan());
    }

    #[test]
    fn floats_print_like_c_percent_f() {
        assert_eq!(c_float(0.5), "0.500000");
        assert_eq!(c_float(-0.0), "-0.000000");
        assert_eq!(c_float(f64::INFINITY), "inf");
        assert_eq!(c_float(f64::NEG_INFINITY), "-inf");
        assert_eq!(c_float(f64::NAN), "nan");
        assert_eq!(c_float(-f64::NAN), "-nan");
        assert_eq!(
            c_float(f32::MAX as f64),
            "340282346638528859811704183484516925440.000000"
        );
        assert_eq!(count_digits(0), 1);
        assert_eq!(count_digits(9), 1);
        assert_eq!(count_digits(10), 2);
    }

    #[test]
    fn load_const_shows_every_reading_of_the_bits() {
        // nir_print's rules: hex always; float for sizes above 8 bits; signed when negative;
        // decimal when 10 or more; a guess of "only int" drops the float reading.
        assert_eq!(
            const_text(&[0xbf00_0000], 32, BaseType::Invalid, None),
            "(0xbf000000 = -0.500000 = -1090519040 = 3204448256)"
        );
        assert_eq!(
            const_text(&[0x1], 32, BaseType::Invalid, Some((true, false))),
            "(0x00000001)"
        );
        assert_eq!(
            const_text(&[0x10, 0x2], 32, BaseType::Invalid, Some((true, false))),
            "(0x00000010, 0x00000002) = (16, 2)"
        );
        assert_eq!(
            const_text(&[1, 0], 1, BaseType::Invalid, None),
            "(true, false)"
        );
        assert_eq!(
            const_text(&[0x3f80_0000], 32, BaseType::Float, None),
            "(1.000000)"
        );
        assert_eq!(
            const_text(&[0xff], 8, BaseType::Invalid, None),
            "(0xff = -1 = 255)"
        );
    }
}
