//! Building a shader from a walk over another compiler's NIR, the way a driver adapter walks
//! Mesa's `nir_shader`: the caller numbers values and blocks itself (Mesa's `def->index` and
//! `block->index`), opens and closes control flow as it meets it, and may refer to a value
//! or block before it is defined (loop-header phis).
//!
//! This is the engine under the C builder (`gpucc_builder_*`). Unlike [`super::Builder`], which
//! allocates ids for Rust callers writing shaders by hand, an import reproduces the caller's
//! numbering exactly, so a shader imported from a walk over Mesa's IR is equal to the one the
//! parser reads from nir_print's text of the same shader.
//!
//! Structure rules, checked as the calls arrive (each error names the call): every
//! control-flow list starts with a block and a block follows every `if` and loop, as in NIR;
//! `else` and the loop's continue construct open only inside their node; values are defined
//! once. Uses of values are checked when the function ends, and the finished shader goes
//! through [`super::validate`].

use std::collections::HashMap;

use super::ir::*;
use super::types::Stage;

/// A control-flow list being filled.
enum Frame {
    Root(Vec<CfNode>),
    Then {
        cond: SsaId,
        control: Option<String>,
        nodes: Vec<CfNode>,
    },
    Else {
        cond: SsaId,
        control: Option<String>,
        then_body: Vec<CfNode>,
        nodes: Vec<CfNode>,
    },
    Loop {
        nodes: Vec<CfNode>,
    },
    Continue {
        body: Vec<CfNode>,
        nodes: Vec<CfNode>,
    },
}

impl Frame {
    fn nodes(&mut self) -> &mut Vec<CfNode> {
        match self {
            Frame::Root(n)
            | Frame::Then { nodes: n, .. }
            | Frame::Else { nodes: n, .. }
            | Frame::Loop { nodes: n }
            | Frame::Continue { nodes: n, .. } => n,
        }
    }
}

/// The body being built.
struct Body {
    imp: Impl,
    frames: Vec<Frame>,
    /// Caller block number to block id.
    block_numbers: HashMap<u32, BlockId>,
    /// Phi sources still naming caller block numbers: (instr, source, number).
    pending_phis: Vec<(InstrId, usize, u32)>,
    /// The block instructions go to; None until the current list's first block.
    current: Option<BlockId>,
}

/// A shader under construction from caller-numbered pieces.
pub struct Import {
    shader: Shader,
    body: Option<Body>,
}

/// The value an instruction defines: the caller's index, width, bit size, divergence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewDef {
    pub id: SsaId,
    pub num_components: u8,
    pub bit_size: u8,
    pub divergent: bool,
}

type R = Result<(), String>;

impl Import {
    /// An empty `stage` shader: no header fields, variables or functions yet.
    pub fn new(stage: Stage) -> Import {
        Import {
            shader: Shader {
                info: ShaderInfo::new(stage),
                variables: Vec::new(),
                functions: Vec::new(),
                trailer: String::new(),
            },
            body: None,
        }
    }

    pub fn stage(&self) -> Stage {
        self.shader.info.stage
    }

    /// Sets a shader_info field, in nir_print's spelling; fields keep their first-set order.
    pub fn info_field(&mut self, key: &str, value: &str) -> R {
        if key.is_empty() || key.contains(": ") || key.contains('\n') || value.contains('\n') {
            return Err(format!("bad shader_info field `{key}`: `{value}`"));
        }
        self.shader.info.set_field(key, value);
        Ok(())
    }

    /// Mesa's `num_inputs`, `num_outputs` and `num_uniforms`.
    pub fn counts(&mut self, inputs: u32, outputs: u32, uniforms: u32) {
        self.shader.info.num_inputs = inputs;
        self.shader.info.num_outputs = outputs;
        self.shader.info.num_uniforms = uniforms;
    }

    pub fn scratch_size(&mut self, bytes: u32) {
        self.shader.info.scratch_size = bytes;
    }

    /// The constant data: its size, and its bytes when the caller has them.
    pub fn constant_data(&mut self, size: u32, bytes: Option<&[u8]>) -> R {
        if let Some(b) = bytes {
            if b.len() != size as usize {
                return Err(format!(
                    "constant data: {} bytes given for size {size}",
                    b.len()
                ));
            }
            self.shader.info.constant_data = b.to_vec();
        }
        self.shader.info.constant_data_size = size;
        Ok(())
    }

    /// Declares a shader variable (a function-temporary one goes to the open function).
    pub fn variable(&mut self, var: Variable) -> R {
        if self.shader.variables.iter().any(|v| v.name == var.name) && !var.name.is_empty() {
            // Mesa allows repeated names (nir_print disambiguates with @N); gpucc names
            // variables in derefs, so a repeat would be ambiguous.
            if var.mode != VarMode::FunctionTemp {
                return Err(format!("variable `{}` declared twice", var.name));
            }
        }
        if var.mode == VarMode::FunctionTemp {
            let body = self
                .body
                .as_mut()
                .ok_or("a function_temp variable outside a function body")?;
            body.imp.locals.push(var);
        } else {
            self.shader.variables.push(var);
        }
        Ok(())
    }

    /// Declares a function; `with_body` opens its implementation (the entry point has one).
    pub fn function(&mut self, name: &str, num_params: u32, with_body: bool) -> R {
        if self.body.is_some() {
            return Err(format!(
                "function `{name}` declared while another function's body is open"
            ));
        }
        if name.is_empty() {
            return Err("a function needs a name".into());
        }
        self.shader.functions.push(Function {
            name: name.to_string(),
            num_params,
            inline_hint: String::new(),
            body: None,
        });
        if with_body {
            self.body = Some(Body {
                imp: Impl {
                    locals: Vec::new(),
                    instrs: Vec::new(),
                    blocks: Vec::new(),
                    body: Vec::new(),
                    defs: Vec::new(),
                    ssa_alloc: 0,
                },
                frames: vec![Frame::Root(Vec::new())],
                block_numbers: HashMap::new(),
                pending_phis: Vec::new(),
                current: None,
            });
        }
        Ok(())
    }

    fn body(&mut self, call: &str) -> Result<&mut Body, String> {
        self.body
            .as_mut()
            .ok_or_else(|| format!("{call} outside a function body"))
    }

    /// Starts block `number` (the caller's block index) in the current list.
    pub fn block(&mut self, number: u32) -> R {
        let body = self.body("block")?;
        let id = BlockId(body.imp.blocks.len() as u32);
        if body.block_numbers.insert(number, id).is_some() {
            return Err(format!("block b{number} started twice"));
        }
        let nodes = body.frames.last_mut().ok_or("no open list")?.nodes();
        if matches!(nodes.last(), Some(CfNode::Block(_))) {
            return Err(format!(
                "block b{number} directly after another block: NIR merges them"
            ));
        }
        body.imp.blocks.push(Block::default());
        body.current = Some(id);
        body.frames
            .last_mut()
            .ok_or("no open control-flow list")?
            .nodes()
            .push(CfNode::Block(id));
        Ok(())
    }

    /// Checks that the current list may take a control-flow node now (after a block).
    fn after_block(body: &mut Body, what: &str) -> R {
        let nodes = body.frames.last_mut().ok_or("no open list")?.nodes();
        if !matches!(nodes.last(), Some(CfNode::Block(_))) {
            return Err(format!("{what} must follow a block"));
        }
        body.current = None;
        Ok(())
    }

    /// Opens `if cond` (its then list).
    pub fn push_if(&mut self, cond: SsaId, control: Option<String>) -> R {
        let body = self.body("if")?;
        Self::after_block(body, "an if")?;
        body.frames.push(Frame::Then {
            cond,
            control,
            nodes: Vec::new(),
        });
        Ok(())
    }

    /// Switches to the else list of the innermost if.
    pub fn push_else(&mut self) -> R {
        let body = self.body("else")?;
        match body.frames.pop() {
            Some(Frame::Then {
                cond,
                control,
                nodes,
            }) => {
                Self::list_ends(&nodes, "the then list")?;
                body.frames.push(Frame::Else {
                    cond,
                    control,
                    then_body: nodes,
                    nodes: Vec::new(),
                });
                body.current = None;
                Ok(())
            }
            other => {
                body.frames.extend(other);
                Err("else without an open then list".into())
            }
        }
    }

    /// Closes the innermost if; a block must follow.
    pub fn pop_if(&mut self) -> R {
        let body = self.body("end of if")?;
        match body.frames.pop() {
            Some(Frame::Else {
                cond,
                control,
                then_body,
                nodes,
            }) => {
                Self::list_ends(&nodes, "the else list")?;
                let node = CfNode::If(IfNode {
                    condition: cond,
                    control,
                    then_body,
                    else_body: nodes,
                });
                body.frames
                    .last_mut()
                    .ok_or("no open list")?
                    .nodes()
                    .push(node);
                body.current = None;
                Ok(())
            }
            other => {
                body.frames.extend(other);
                Err("end of if without an open else list (NIR ifs always have one)".into())
            }
        }
    }

    /// Opens a loop (its body list).
    pub fn push_loop(&mut self) -> R {
        let body = self.body("loop")?;
        Self::after_block(body, "a loop")?;
        body.frames.push(Frame::Loop { nodes: Vec::new() });
        Ok(())
    }

    /// Switches to the continue construct of the innermost loop.
    pub fn push_continue(&mut self) -> R {
        let body = self.body("continue construct")?;
        match body.frames.pop() {
            Some(Frame::Loop { nodes }) => {
                Self::list_ends(&nodes, "the loop body")?;
                body.frames.push(Frame::Continue {
                    body: nodes,
                    nodes: Vec::new(),
                });
                body.current = None;
                Ok(())
            }
            other => {
                body.frames.extend(other);
                Err("continue construct outside a loop body".into())
            }
        }
    }

    /// Closes the innermost loop; a block must follow.
    pub fn pop_loop(&mut self) -> R {
        let b = self.body("end of loop")?;
        let node = match b.frames.pop() {
            Some(Frame::Loop { nodes }) => {
                Self::list_ends(&nodes, "the loop body")?;
                LoopNode {
                    body: nodes,
                    continue_body: Vec::new(),
                }
            }
            Some(Frame::Continue { body, nodes }) => {
                Self::list_ends(&nodes, "the continue construct")?;
                LoopNode {
                    body,
                    continue_body: nodes,
                }
            }
            other => {
                b.frames.extend(other);
                return Err("end of loop without an open loop".into());
            }
        };
        b.frames
            .last_mut()
            .ok_or("no open list")?
            .nodes()
            .push(CfNode::Loop(node));
        b.current = None;
        Ok(())
    }

    /// A list ends with a block, as every NIR control-flow list does.
    fn list_ends(nodes: &[CfNode], what: &str) -> R {
        match nodes.last() {
            Some(CfNode::Block(_)) => Ok(()),
            None => Err(format!("{what} has no block")),
            _ => Err(format!("{what} ends with an if or loop, not a block")),
        }
    }

    /// Appends an instruction to the current block, defining `def` if given. Phi sources
    /// name caller block numbers (resolved when the function ends).
    pub fn instr(&mut self, kind: InstrKind, def: Option<NewDef>) -> R {
        let body = self.body("instruction")?;
        let block = body
            .current
            .ok_or("instruction outside a block (start one with its number first)")?;
        let id = InstrId(body.imp.instrs.len() as u32);
        if kind.def() != def.map(|d| d.id) {
            return Err("instruction and definition disagree".into());
        }
        if let Some(d) = def {
            if d.num_components == 0 || !matches!(d.bit_size, 1 | 8 | 16 | 32 | 64) {
                return Err(format!(
                    "%{}: {} components of {} bits is no NIR value",
                    d.id.0, d.num_components, d.bit_size
                ));
            }
            let slot = d.id.0 as usize;
            if slot > super::parse::MAX_SSA_ID as usize {
                return Err(format!("%{}: index too large", d.id.0));
            }
            if body.imp.defs.len() <= slot {
                body.imp.defs.resize(slot + 1, None);
            }
            if body.imp.defs[slot].is_some() {
                return Err(format!("%{} defined twice", d.id.0));
            }
            body.imp.defs[slot] = Some(Def {
                num_components: d.num_components,
                bit_size: d.bit_size,
                divergent: d.divergent,
                instr: id,
            });
        }
        if let InstrKind::Phi(p) = &kind {
            if body.imp.blocks[block.0 as usize]
                .instrs
                .iter()
                .any(|i| !matches!(body.imp.instrs[i.0 as usize].kind, InstrKind::Phi(_)))
            {
                return Err("a phi after a non-phi instruction of its block".into());
            }
            for (n, (pred, _)) in p.srcs.iter().enumerate() {
                body.pending_phis.push((id, n, pred.0));
            }
        }
        body.imp.instrs.push(Instr { block, kind });
        body.imp.blocks[block.0 as usize].instrs.push(id);
        Ok(())
    }

    /// Ends the open function body with its end block (the caller's number for it) and
    /// Mesa's `ssa_alloc` (at least one past the largest index).
    pub fn end_function(&mut self, end_block: u32, ssa_alloc: u32) -> R {
        let mut body = self.body.take().ok_or("end of function without a body")?;
        let nodes = match body.frames.pop() {
            Some(Frame::Root(nodes)) if body.frames.is_empty() => nodes,
            _ => return Err("end of function with an if or loop still open".into()),
        };
        Self::list_ends(&nodes, "the function body")?;
        body.imp.body = nodes;
        let end = BlockId(body.imp.blocks.len() as u32);
        body.imp.blocks.push(Block::default());
        if body.block_numbers.insert(end_block, end).is_some() {
            return Err(format!(
                "end block b{end_block} is also a block of the body"
            ));
        }
        for &(instr, src, number) in &body.pending_phis {
            let Some(&blk) = body.block_numbers.get(&number) else {
                return Err(format!(
                    "phi source names block b{number}, which was never started"
                ));
            };
            if let InstrKind::Phi(p) = &mut body.imp.instrs[instr.0 as usize].kind {
                p.srcs[src].0 = blk;
            }
        }
        let imp = &mut body.imp;
        // Intrinsics without a destination record the stored value's width.
        for i in 0..imp.instrs.len() {
            let width = match &imp.instrs[i].kind {
                InstrKind::Intrinsic(x) if x.def.is_none() => x
                    .intrinsic
                    .info()
                    .src_components
                    .iter()
                    .position(|&n| n == 0)
                    .map(|p| {
                        x.srcs
                            .get(p)
                            .and_then(|s| imp.def(*s))
                            .map_or(0, |d| d.num_components)
                    }),
                _ => None,
            };
            if let (InstrKind::Intrinsic(x), Some(w)) = (&mut imp.instrs[i].kind, width) {
                x.num_components = w;
            }
        }
        for (id, instr) in imp.instrs_in_order() {
            for s in instr.kind.srcs() {
                if imp.def(s).is_none() {
                    return Err(format!(
                        "instruction {} in block b{} uses %{}, which nothing defines",
                        id.0, instr.block.0, s.0
                    ));
                }
            }
        }
        imp.ssa_alloc = ssa_alloc.max(imp.defs.len() as u32);
        let f = self
            .shader
            .functions
            .last_mut()
            .ok_or("no function for the body")?;
        f.body = Some(body.imp);
        Ok(())
    }

    /// The finished shader, validated.
    pub fn finish(mut self) -> Result<Shader, String> {
        if self.body.is_some() {
            return Err("finish with a function body still open".into());
        }
        if self.shader.entry().is_none() {
            return Err("the shader has no function with a body".into());
        }
        if !self.shader.info.divergence_analysis_run() {
            // As the parser: divergence flags mean nothing unless the analysis ran.
            for f in &mut self.shader.functions {
                if let Some(b) = &mut f.body {
                    for d in b.defs.iter_mut().flatten() {
                        d.divergent = false;
                    }
                }
            }
        }
        super::validate(&self.shader).map_err(|e| format!("invalid shader: {e}"))?;
        Ok(self.shader)
    }
}
