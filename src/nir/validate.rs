//! The validator: the invariants every pass must keep, checked after parsing and, in tests,
//! after every pass. Each problem names where it is (block, value, opcode) and the rule broken.

use std::fmt;

use super::cfg::{block_jump, Cfg};
use super::ir::*;
use super::opcodes::{IndexKind, Intrinsic};
use super::types::BaseType;

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// Where: `block b3, %7 = fadd` or `control flow`.
    pub location: String,
    pub rule: String,
}

/// Every rule a shader breaks (never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    pub issues: Vec<Issue>,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, i) in self.issues.iter().enumerate() {
            if n != 0 {
                writeln!(f)?;
            }
            write!(f, "{}: {}", i.location, i.rule)?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationError {}

/// Checks every function body of `shader`.
pub fn validate(shader: &Shader) -> Result<(), ValidationError> {
    let mut issues = Vec::new();
    for f in &shader.functions {
        if let Some(imp) = &f.body {
            Checker {
                shader,
                imp,
                issues: &mut issues,
                cfg: Cfg::compute(imp),
                idom: Vec::new(),
                positions: Vec::new(),
            }
            .run();
        }
    }
    if let Some(Err(rule)) = super::geometry::GeometryInfo::of(&shader.info) {
        issues.push(Issue {
            location: "shader info".into(),
            rule,
        });
    }
    if issues.is_empty() {
        Ok(())
    } else {
        Err(ValidationError { issues })
    }
}

struct Checker<'a> {
    shader: &'a Shader,
    imp: &'a Impl,
    issues: &'a mut Vec<Issue>,
    cfg: Cfg,
    /// Immediate dominator per block (None: unreachable).
    idom: Vec<Option<u32>>,
    /// Index of each instruction within its block.
    positions: Vec<usize>,
}

impl Checker<'_> {
    fn fail(&mut self, location: String, rule: impl Into<String>) {
        if self.issues.len() < 100 {
            self.issues.push(Issue {
                location,
                rule: rule.into(),
            });
        }
    }

    fn where_instr(&self, id: InstrId) -> String {
        let instr = self.imp.instr(id);
        let what = match &instr.kind {
            InstrKind::Alu(a) => format!("%{} = {}", a.def.0, a.op.name()),
            InstrKind::LoadConst(c) => format!("%{} = load_const", c.def.0),
            InstrKind::Undef(d) => format!("%{} = undefined", d.0),
            InstrKind::Phi(p) => format!("%{} = phi", p.def.0),
            InstrKind::Jump(j) => j.name().to_string(),
            InstrKind::Intrinsic(i) => match i.def {
                Some(d) => format!("%{} = @{}", d.0, i.intrinsic.name()),
                None => format!("@{}", i.intrinsic.name()),
            },
            InstrKind::Tex(t) => format!("%{} = {}", t.def.0, t.op.name()),
            InstrKind::Deref(d) => format!("%{} = deref", d.def.0),
        };
        format!("block b{}, {what}", instr.block.0)
    }

    fn run(&mut self) {
        let imp = self.imp;
        if imp.blocks.is_empty() {
            self.fail(
                "impl".into(),
                "a function body needs at least the end block",
            );
            return;
        }
        self.check_structure();
        if !self.issues.is_empty() {
            return;
        }
        self.check_defs();
        if !self.issues.is_empty() {
            return;
        }
        self.positions = vec![0; imp.instrs.len()];
        for block in &imp.blocks {
            for (k, i) in block.instrs.iter().enumerate() {
                self.positions[i.0 as usize] = k;
            }
        }
        self.compute_dominators();
        for (n, instr) in imp.instrs.iter().enumerate() {
            self.check_instr(InstrId(n as u32), instr);
        }
        self.check_if_conditions(&imp.body, None);
    }

    /// Control-flow shape: every block once in the tree, lists alternate blocks and if/loop
    /// and start and end with a block, jumps end their block, break/continue sit in loops,
    /// phis lead their block, the end block is empty.
    fn check_structure(&mut self) {
        let imp = self.imp;
        let mut seen = vec![0u32; imp.blocks.len()];
        self.check_list(&imp.body, 0, &mut seen, "function body");
        let end = imp.end_block();
        // Which instructions their own block lists, in one pass over the blocks (a search of
        // the block per instruction made validation quadratic in the block's length).
        let mut listed = vec![false; imp.instrs.len()];
        for (b, block) in imp.blocks.iter().enumerate() {
            for id in &block.instrs {
                if let Some(instr) = imp.instrs.get(id.0 as usize) {
                    if instr.block.0 as usize == b {
                        listed[id.0 as usize] = true;
                    }
                }
            }
        }
        for (n, instr) in imp.instrs.iter().enumerate() {
            if !listed[n] {
                self.fail(
                    format!("instruction {n}"),
                    format!("not listed in its block b{}", instr.block.0),
                );
            }
        }
        for (b, n) in seen.iter().enumerate() {
            let expected = if b == end.0 as usize { 0 } else { 1 };
            if *n != expected {
                let rule = if b == end.0 as usize {
                    "the end block must not appear in the control-flow tree".to_string()
                } else {
                    format!("block appears {n} times in the control-flow tree (expected once)")
                };
                self.fail(format!("block b{b}"), rule);
            }
        }
        if !imp.blocks[end.0 as usize].instrs.is_empty() {
            self.fail(format!("block b{}", end.0), "the end block must be empty");
        }
        for (b, block) in imp.blocks.iter().enumerate() {
            let mut phis_done = false;
            for (k, &i) in block.instrs.iter().enumerate() {
                let Some(instr) = imp.instrs.get(i.0 as usize) else {
                    self.fail(
                        format!("block b{b}"),
                        format!("instruction {} does not exist", i.0),
                    );
                    continue;
                };
                if instr.block.0 as usize != b {
                    self.fail(
                        self.where_instr(i),
                        format!("instruction records block b{}", instr.block.0),
                    );
                }
                match instr.kind {
                    InstrKind::Phi(_) if phis_done => self.fail(
                        self.where_instr(i),
                        "phis must come before all other instructions of a block",
                    ),
                    InstrKind::Phi(_) => {}
                    _ => phis_done = true,
                }
                if matches!(instr.kind, InstrKind::Jump(_)) && k + 1 != block.instrs.len() {
                    self.fail(
                        self.where_instr(i),
                        "a jump must be the last instruction of its block",
                    );
                }
            }
        }
    }

    fn check_list(&mut self, list: &[CfNode], loop_depth: usize, seen: &mut [u32], what: &str) {
        crate::util::stack::grow(|| {
            if !matches!(list.first(), Some(CfNode::Block(_)))
                || !matches!(list.last(), Some(CfNode::Block(_)))
            {
                self.fail(
                    "control flow".into(),
                    format!("a {what} must start and end with a block"),
                );
            }
            for w in list.windows(2) {
                let adjacent_blocks =
                    matches!((&w[0], &w[1]), (CfNode::Block(_), CfNode::Block(_)));
                let adjacent_cf =
                    !matches!(w[0], CfNode::Block(_)) && !matches!(w[1], CfNode::Block(_));
                if adjacent_blocks || adjacent_cf {
                    self.fail(
                        "control flow".into(),
                        format!("a {what} must alternate blocks and if/loop nodes"),
                    );
                }
            }
            for node in list {
                match node {
                    CfNode::Block(b) => {
                        match seen.get_mut(b.0 as usize) {
                            Some(n) => *n += 1,
                            None => {
                                self.fail(
                                    "control flow".into(),
                                    format!("block b{} does not exist", b.0),
                                );
                                continue;
                            }
                        }
                        if loop_depth == 0 {
                            if let Some(j @ (JumpKind::Break | JumpKind::Continue)) =
                                block_jump(self.imp, *b)
                            {
                                self.fail(
                                    format!("block b{}", b.0),
                                    format!("`{}` outside of a loop", j.name()),
                                );
                            }
                        }
                    }
                    CfNode::If(f) => {
                        self.check_list(&f.then_body, loop_depth, seen, "then branch");
                        self.check_list(&f.else_body, loop_depth, seen, "else branch");
                    }
                    CfNode::Loop(l) => {
                        self.check_list(&l.body, loop_depth + 1, seen, "loop body");
                        if !l.continue_body.is_empty() {
                            self.check_list(
                                &l.continue_body,
                                loop_depth + 1,
                                seen,
                                "continue construct",
                            );
                        }
                    }
                }
            }
        })
    }

    /// Immediate dominators (Cooper, Harvey and Kennedy), visiting blocks in program order,
    /// which for structured control flow is a reverse postorder of the forward edges.
    fn compute_dominators(&mut self) {
        let n = self.imp.blocks.len();
        let mut idom: Vec<Option<u32>> = vec![None; n];
        idom[0] = Some(0);
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..n {
                let mut new: Option<u32> = None;
                for p in &self.cfg.preds[b] {
                    if idom[p.0 as usize].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p.0,
                        Some(cur) => intersect(&idom, cur, p.0),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        self.idom = idom;
    }

    fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        let mut cur = b.0;
        let mut steps = 0;
        loop {
            if cur == a.0 {
                return true;
            }
            match self.idom.get(cur as usize).copied().flatten() {
                Some(next) if next != cur && steps < self.idom.len() => {
                    cur = next;
                    steps += 1;
                }
                _ => return false,
            }
        }
    }

    fn reachable(&self, b: BlockId) -> bool {
        self.idom.get(b.0 as usize).is_some_and(|d| d.is_some())
    }

    fn check_defs(&mut self) {
        let imp = self.imp;
        for (n, def) in imp.defs.iter().enumerate() {
            let Some(def) = def else { continue };
            let ok = imp
                .instrs
                .get(def.instr.0 as usize)
                .and_then(|i| i.kind.def())
                == Some(SsaId(n as u32));
            if !ok {
                self.fail(
                    format!("%{n}"),
                    "the value's defining instruction does not define it",
                );
            }
            if !matches!(def.num_components, 1..=5 | 8 | 16) {
                self.fail(
                    format!("%{n}"),
                    format!("{} components (expected 1-5, 8 or 16)", def.num_components),
                );
            }
            if !matches!(def.bit_size, 1 | 8 | 16 | 32 | 64) {
                self.fail(
                    format!("%{n}"),
                    format!("bit size {} (expected 1, 8, 16, 32 or 64)", def.bit_size),
                );
            }
        }
        for (n, instr) in imp.instrs.iter().enumerate() {
            if let Some(d) = instr.kind.def() {
                if imp.def(d).map(|x| x.instr) != Some(InstrId(n as u32)) {
                    self.fail(
                        self.where_instr(InstrId(n as u32)),
                        format!("%{} has no matching def entry", d.0),
                    );
                }
            }
        }
    }

    /// The position of an instruction within its block.
    fn position(&self, id: InstrId) -> usize {
        self.positions.get(id.0 as usize).copied().unwrap_or(0)
    }

    /// `src` must be defined, and its definition must dominate the use at `id`.
    fn check_use(&mut self, id: InstrId, src: SsaId) -> Option<Def> {
        let Some(def) = self.imp.def(src).copied() else {
            self.fail(
                self.where_instr(id),
                format!("uses undefined value %{}", src.0),
            );
            return None;
        };
        let use_block = self.imp.instr(id).block;
        let def_block = self.imp.instr(def.instr).block;
        if !self.reachable(use_block) {
            return Some(def);
        }
        let ok = if def_block == use_block {
            self.position(def.instr) < self.position(id)
        } else {
            self.dominates(def_block, use_block)
        };
        if !ok {
            self.fail(
                self.where_instr(id),
                format!("%{} does not dominate this use", src.0),
            );
        }
        Some(def)
    }

    fn check_if_conditions(&mut self, list: &[CfNode], _prev: Option<BlockId>) {
        crate::util::stack::grow(|| {
            let mut prev = None;
            for node in list {
                match node {
                    CfNode::Block(b) => prev = Some(*b),
                    CfNode::If(f) => {
                        match (self.imp.def(f.condition).copied(), prev) {
                            (None, _) => self.fail(
                                "if".into(),
                                format!("condition %{} is undefined", f.condition.0),
                            ),
                            (Some(d), Some(p)) => {
                                let db = self.imp.instr(d.instr).block;
                                if self.reachable(p) && !self.dominates(db, p) {
                                    self.fail(
                                        format!("if after block b{}", p.0),
                                        format!(
                                            "condition %{} does not dominate the if",
                                            f.condition.0
                                        ),
                                    );
                                }
                                if d.num_components != 1 {
                                    self.fail(
                                        format!("if after block b{}", p.0),
                                        "the condition must have one component",
                                    );
                                }
                            }
                            _ => {}
                        }
                        self.check_if_conditions(&f.then_body, None);
                        self.check_if_conditions(&f.else_body, None);
                    }
                    CfNode::Loop(l) => {
                        self.check_if_conditions(&l.body, None);
                        self.check_if_conditions(&l.continue_body, None);
                    }
                }
            }
        })
    }

    fn check_instr(&mut self, id: InstrId, instr: &Instr) {
        let imp = self.imp;
        let def = instr.kind.def().and_then(|d| imp.def(d).copied());
        // Only the register intrinsics may name a register handle.
        let reg_operand = match &instr.kind {
            InstrKind::Intrinsic(i) => i.intrinsic.register_src(),
            _ => None,
        };
        for (n, s) in instr.kind.srcs().into_iter().enumerate() {
            let is_reg = matches!(imp.def_instr(s).map(|x| &x.kind),
                Some(InstrKind::Intrinsic(d)) if d.intrinsic == Intrinsic::DeclReg);
            if is_reg && reg_operand != Some(n) {
                self.fail(
                    self.where_instr(id),
                    format!("source {n} reads register %{} directly; use load_reg", s.0),
                );
            }
        }
        match &instr.kind {
            InstrKind::Alu(a) => self.check_alu(id, a),
            InstrKind::LoadConst(c) => {
                if let Some(d) = def {
                    if c.values.len() != d.num_components as usize {
                        self.fail(
                            self.where_instr(id),
                            format!(
                                "{} values for {} components",
                                c.values.len(),
                                d.num_components
                            ),
                        );
                    }
                    if d.bit_size < 64 && c.values.iter().any(|v| v >> d.bit_size != 0) {
                        self.fail(
                            self.where_instr(id),
                            format!("a value does not fit in {} bits", d.bit_size),
                        );
                    }
                }
            }
            InstrKind::Phi(p) => {
                let preds = self.cfg.preds[instr.block.0 as usize].clone();
                let mut blocks: Vec<BlockId> = p.srcs.iter().map(|s| s.0).collect();
                blocks.sort();
                let dup = blocks.windows(2).any(|w| w[0] == w[1]);
                if dup || blocks != preds {
                    let names = |v: &[BlockId]| {
                        v.iter()
                            .map(|b| format!("b{}", b.0))
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    self.fail(
                        self.where_instr(id),
                        format!(
                            "phi needs one source per predecessor ({}), has ({})",
                            names(&preds),
                            names(&blocks)
                        ),
                    );
                }
                for &(pred, src) in &p.srcs {
                    let Some(sd) = imp.def(src).copied() else {
                        self.fail(
                            self.where_instr(id),
                            format!("uses undefined value %{}", src.0),
                        );
                        continue;
                    };
                    let db = imp.instr(sd.instr).block;
                    if self.reachable(pred)
                        && (pred.0 as usize) < imp.blocks.len()
                        && !self.dominates(db, pred)
                    {
                        self.fail(
                            self.where_instr(id),
                            format!(
                                "%{} does not dominate the end of predecessor b{}",
                                src.0, pred.0
                            ),
                        );
                    }
                    if let Some(d) = def {
                        if (sd.num_components, sd.bit_size) != (d.num_components, d.bit_size) {
                            self.fail(
                                self.where_instr(id),
                                format!("source %{} has a different size than the phi", src.0),
                            );
                        }
                    }
                }
            }
            InstrKind::Intrinsic(i) => self.check_intrinsic(id, i),
            InstrKind::Tex(t) => {
                for &(_, s) in &t.srcs {
                    self.check_use(id, s);
                }
            }
            InstrKind::Deref(d) => match &d.kind {
                DerefKind::Var(name) => {
                    let known = self
                        .shader
                        .variables
                        .iter()
                        .chain(&imp.locals)
                        .any(|v| &v.name == name);
                    if !known {
                        self.fail(
                            self.where_instr(id),
                            format!("deref of undeclared variable `{name}`"),
                        );
                    }
                }
                DerefKind::Array { parent, index } => {
                    self.check_use(id, *parent);
                    self.check_use(id, *index);
                }
            },
            InstrKind::Undef(_) | InstrKind::Jump(_) => {}
        }
    }

    fn check_alu(&mut self, id: InstrId, a: &AluInstr) {
        let info = a.op.info();
        let Some(def) = self.imp.def(a.def).copied() else {
            return;
        };
        if a.srcs.len() != info.num_inputs() {
            self.fail(
                self.where_instr(id),
                format!("takes {} sources, has {}", info.num_inputs(), a.srcs.len()),
            );
            return;
        }
        if info.output_size != 0 && def.num_components != info.output_size {
            self.fail(
                self.where_instr(id),
                format!(
                    "produces {} components, result has {}",
                    info.output_size, def.num_components
                ),
            );
        }
        if info.output_type.bits != 0 && def.bit_size != info.output_type.bits {
            self.fail(
                self.where_instr(id),
                format!(
                    "produces {}-bit values, result is {}-bit",
                    info.output_type.bits, def.bit_size
                ),
            );
        }
        let mut unsized_bits: Option<u8> = None;
        for (n, src) in a.srcs.iter().enumerate() {
            let Some(sd) = self.check_use(id, src.ssa) else {
                continue;
            };
            let used = match info.input_sizes[n] {
                0 => def.num_components as usize,
                s => s as usize,
            };
            if let Some(&c) = src.swizzle[..used.min(16)]
                .iter()
                .find(|&&c| c >= sd.num_components)
            {
                self.fail(
                    self.where_instr(id),
                    format!(
                        "swizzle of source {n} reads component {c} of %{} which has {}",
                        src.ssa.0, sd.num_components
                    ),
                );
            }
            let ty = info.input_types[n];
            if ty.bits != 0 {
                if sd.bit_size != ty.bits {
                    self.fail(
                        self.where_instr(id),
                        format!(
                            "source {n} must be {}-bit, %{} is {}-bit",
                            ty.bits, src.ssa.0, sd.bit_size
                        ),
                    );
                }
            } else {
                match unsized_bits {
                    None => unsized_bits = Some(sd.bit_size),
                    Some(b) if b != sd.bit_size => {
                        self.fail(
                            self.where_instr(id),
                            format!("sources have different bit sizes ({b} and {})", sd.bit_size),
                        );
                    }
                    _ => {}
                }
                if ty.base == BaseType::Bool && sd.bit_size != 1 && !info.name.starts_with('b') {
                    self.fail(
                        self.where_instr(id),
                        format!("source {n} must be a 1-bit boolean"),
                    );
                }
            }
        }
        if info.output_type.bits == 0 && !info.is_conversion {
            if let Some(b) = unsized_bits {
                if b != def.bit_size {
                    self.fail(
                        self.where_instr(id),
                        format!("result is {}-bit but the sources are {b}-bit", def.bit_size),
                    );
                }
            }
        }
    }

    /// An I/O intrinsic's value must fit its slot after `component` and have the bit size its
    /// `dest_type` / `src_type` names, as Mesa's validator requires: the backends and the
    /// interpreter read such values differently otherwise (found by gpucc fuzz: `32x4
    /// load_input` with `component=2`, a 1-bit `load_interpolated_input` of `float32`).
    fn check_io_value(
        &mut self,
        id: InstrId,
        i: &IntrinsicInstr,
        def: Option<crate::nir::ir::Def>,
        first_src: Option<crate::nir::ir::Def>,
    ) {
        let (value, type_kind) = match (def, i.index(IndexKind::DestType)) {
            (Some(d), Some(_)) => (Some(d), IndexKind::DestType),
            _ if i.index(IndexKind::SrcType).is_some() => (first_src, IndexKind::SrcType),
            _ => (def.or(first_src), IndexKind::DestType),
        };
        let Some(v) = value else { return };
        if let Some(IndexValue::Type(t)) = i.index(type_kind) {
            if t.bits != 0 && t.bits != v.bit_size {
                self.fail(
                    self.where_instr(id),
                    format!(
                        "the value is {}-bit but `{}` is {}-bit",
                        v.bit_size,
                        type_kind.name(),
                        t.bits
                    ),
                );
            }
        }
        if let Some(c) = i.int_index(IndexKind::Component) {
            if v.bit_size <= 32 && c + i64::from(v.num_components) > 4 {
                self.fail(
                    self.where_instr(id),
                    format!(
                        "component {c} with {} components runs past the vec4 slot",
                        v.num_components
                    ),
                );
            }
        }
    }

    fn check_intrinsic(&mut self, id: InstrId, i: &IntrinsicInstr) {
        let info = i.intrinsic.info();
        if i.srcs.len() != info.num_srcs() {
            self.fail(
                self.where_instr(id),
                format!("takes {} sources, has {}", info.num_srcs(), i.srcs.len()),
            );
            return;
        }
        if i.indices.len() != info.indices.len() {
            self.fail(
                self.where_instr(id),
                format!(
                    "needs {} constant indices, has {}",
                    info.indices.len(),
                    i.indices.len()
                ),
            );
            return;
        }
        if info.has_dest() != i.def.is_some() {
            self.fail(
                self.where_instr(id),
                if info.has_dest() {
                    "needs a destination"
                } else {
                    "must not have a destination"
                },
            );
        }
        let def = i.def.and_then(|d| self.imp.def(d).copied());
        if let Some(d) = def {
            if info.dest_components > 0 && d.num_components as i8 != info.dest_components {
                self.fail(
                    self.where_instr(id),
                    format!("destination must have {} components", info.dest_components),
                );
            }
            if info.dest_components == 0 && d.num_components != i.num_components {
                self.fail(
                    self.where_instr(id),
                    format!(
                        "destination has {} components, num_components is {}",
                        d.num_components, i.num_components
                    ),
                );
            }
            // Allowed destination bit sizes, or the source whose size it must match.
            if !info.bit_sizes.is_empty() && !info.bit_sizes.contains(&d.bit_size) {
                self.fail(
                    self.where_instr(id),
                    format!(
                        "destination is {}-bit, allowed: {:?}",
                        d.bit_size, info.bit_sizes
                    ),
                );
            }
            let matched = usize::try_from(info.bit_size_src)
                .ok()
                .and_then(|n| i.srcs.get(n));
            if let Some(sd) = matched.and_then(|s| self.imp.def(*s)) {
                if sd.bit_size != d.bit_size {
                    self.fail(
                        self.where_instr(id),
                        format!(
                            "destination is {}-bit but source {} is {}-bit",
                            d.bit_size, info.bit_size_src, sd.bit_size
                        ),
                    );
                }
            }
        }
        let mut src_defs = Vec::new();
        for (n, &s) in i.srcs.iter().enumerate() {
            let sd = self.check_use(id, s);
            if let Some(sd) = sd {
                let want = info.src_components[n];
                if want > 0 && sd.num_components as i8 != want {
                    self.fail(
                        self.where_instr(id),
                        format!(
                            "source {n} must have {want} components, %{} has {}",
                            s.0, sd.num_components
                        ),
                    );
                }
                if want == 0 && i.num_components != 0 && sd.num_components != i.num_components {
                    self.fail(
                        self.where_instr(id),
                        format!(
                            "source {n} must have {} components, %{} has {}",
                            i.num_components, s.0, sd.num_components
                        ),
                    );
                }
            }
            src_defs.push(sd);
        }
        for (kind, value) in info.indices.iter().zip(&i.indices) {
            let ok = match (kind, value) {
                (IndexKind::WriteMask, IndexValue::WriteMask(m)) => {
                    if i.num_components > 0 && *m >> i.num_components != 0 {
                        self.fail(
                            self.where_instr(id),
                            "write mask names components beyond num_components",
                        );
                    }
                    true
                }
                (IndexKind::WriteMask, _) => false,
                (IndexKind::SrcType | IndexKind::DestType, v) => matches!(v, IndexValue::Type(_)),
                (k, IndexValue::Text(_)) => super::parse::is_text_index(*k),
                (k, IndexValue::Int(_)) => !super::parse::is_text_index(*k),
                _ => false,
            };
            if !ok {
                self.fail(
                    self.where_instr(id),
                    format!("index `{}` has a value of the wrong kind", kind.name()),
                );
            }
        }
        self.check_io_value(id, i, def, src_defs.first().copied().flatten());
        // Register intrinsics: the register operand must be a decl_reg, sizes must agree.
        let reg_src = i.intrinsic.register_src();
        if i.intrinsic == Intrinsic::DeclReg {
            if let Some(d) = def {
                // The def is a one-component handle: 32-bit, as Mesa's `nir_decl_reg` makes
                // it whatever the register's size (a 64-bit register prints `32 %r =
                // @decl_reg (bit_size=64)`), or of the register's own size.
                let nc = i.int_index(IndexKind::NumComponents).unwrap_or(0);
                if d.bit_size != 32 && i.int_index(IndexKind::BitSize) != Some(d.bit_size as i64) {
                    self.fail(
                        self.where_instr(id),
                        "the register handle must be 32-bit or of the bit_size index",
                    );
                }
                if !(1..=16).contains(&nc) {
                    self.fail(
                        self.where_instr(id),
                        format!("register has {nc} components (expected 1 to 16)"),
                    );
                }
            }
            if self.imp.instr(id).block != BlockId(0) {
                self.fail(self.where_instr(id), "decl_reg must be in the first block");
            }
        }
        if let Some(r) = reg_src {
            let reg = i.srcs[r];
            let decl = self.imp.def_instr(reg).and_then(|ins| match &ins.kind {
                InstrKind::Intrinsic(d) if d.intrinsic == Intrinsic::DeclReg => Some(d),
                _ => None,
            });
            match decl {
                None => self.fail(
                    self.where_instr(id),
                    format!("register source %{} is not a decl_reg", reg.0),
                ),
                Some(d) => {
                    let reg_nc = d.int_index(IndexKind::NumComponents).unwrap_or(0);
                    let reg_bits = d.int_index(IndexKind::BitSize).unwrap_or(0);
                    let value = if r == 0 { def } else { src_defs[0] };
                    if let Some(v) = value {
                        if v.bit_size as i64 != reg_bits {
                            self.fail(
                                self.where_instr(id),
                                format!(
                                    "value is {}-bit, register %{} is {reg_bits}-bit",
                                    v.bit_size, reg.0
                                ),
                            );
                        }
                        if v.num_components as i64 != reg_nc {
                            self.fail(
                                self.where_instr(id),
                                format!(
                                    "value has {} components, register %{} has {reg_nc}",
                                    v.num_components, reg.0
                                ),
                            );
                        }
                    }
                }
            }
        } else {
            for (n, s) in i.srcs.iter().enumerate() {
                let is_reg = matches!(self.imp.def_instr(*s).map(|x| &x.kind), Some(InstrKind::Intrinsic(d)) if d.intrinsic == Intrinsic::DeclReg);
                if is_reg {
                    self.fail(
                        self.where_instr(id),
                        format!("source {n} reads register %{} directly; use load_reg", s.0),
                    );
                }
            }
        }
    }
}

fn intersect(idom: &[Option<u32>], mut a: u32, mut b: u32) -> u32 {
    let mut guard = 0;
    while a != b && guard < 4 * idom.len() + 4 {
        while a > b {
            a = idom[a as usize].unwrap_or(0);
        }
        while b > a {
            b = idom[b as usize].unwrap_or(0);
        }
        guard += 1;
    }
    a
}
