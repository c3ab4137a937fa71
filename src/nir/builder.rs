//! A Rust API in the style of Mesa's nir_builder: create a shader, declare variables, append
//! instructions at a cursor that moves through structured control flow.
//!
//! ```
//! use gpucc::nir::{self, Builder, Stage, AluOp};
//! let mut b = Builder::new(Stage::Fragment, "example");
//! let x = b.imm_f32(1.5);
//! let y = b.alu(AluOp::fmul, &[x, x]);
//! let cond = b.alu(AluOp::flt32, &[x, y]);
//! b.push_if(cond);
//! b.push_else();
//! b.pop_if();
//! let shader = b.finish().unwrap();
//! nir::validate(&shader).unwrap();
//! ```

use std::fmt;

use super::ir::*;
use super::opcodes::{AluOp, IndexKind, Intrinsic};
use super::parse::is_text_index;
use super::types::{AluType, GlslType, Stage};

/// Misuse of the builder's control-flow calls (e.g. `pop_if` without `push_if`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError(pub String);

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

enum Frame {
    Root(Vec<CfNode>),
    Then {
        cond: SsaId,
        nodes: Vec<CfNode>,
    },
    Else {
        cond: SsaId,
        then_body: Vec<CfNode>,
        nodes: Vec<CfNode>,
    },
    Loop {
        nodes: Vec<CfNode>,
    },
}

impl Frame {
    fn nodes(&mut self) -> &mut Vec<CfNode> {
        match self {
            Frame::Root(n)
            | Frame::Then { nodes: n, .. }
            | Frame::Else { nodes: n, .. }
            | Frame::Loop { nodes: n } => n,
        }
    }
}

/// Builds one shader with a single `main` function.
pub struct Builder {
    shader: Shader,
    imp: Impl,
    frames: Vec<Frame>,
    current: BlockId,
    errors: Vec<String>,
}

impl Builder {
    /// A shader with Mesa's default header for `stage` and an empty `main`.
    pub fn new(stage: Stage, name: &str) -> Builder {
        let n = stage.number().to_string();
        let fields = vec![
            (
                "source_sha1".to_string(),
                "{0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}".to_string(),
            ),
            ("name".to_string(), name.to_string()),
            ("internal".to_string(), "false".to_string()),
            ("stage".to_string(), n.clone()),
            ("next_stage".to_string(), n),
            ("subgroup_size".to_string(), "1".to_string()),
        ];
        let info = ShaderInfo {
            fields,
            ..ShaderInfo::new(stage)
        };
        let shader = Shader {
            info,
            variables: Vec::new(),
            functions: Vec::new(),
            trailer: "\n".to_string(),
        };
        let imp = Impl {
            locals: Vec::new(),
            instrs: Vec::new(),
            blocks: vec![Block::default()],
            body: Vec::new(),
            defs: Vec::new(),
            ssa_alloc: 0,
        };
        Builder {
            shader,
            imp,
            frames: vec![Frame::Root(vec![CfNode::Block(BlockId(0))])],
            current: BlockId(0),
            errors: Vec::new(),
        }
    }

    pub fn info_mut(&mut self) -> &mut ShaderInfo {
        &mut self.shader.info
    }

    /// Declares a variable (global, or function-local for `FunctionTemp`).
    pub fn add_variable(&mut self, var: Variable) {
        if var.mode == VarMode::FunctionTemp {
            self.imp.locals.push(var);
        } else {
            match var.mode {
                VarMode::ShaderIn => self.shader.info.num_inputs += 1,
                VarMode::ShaderOut => self.shader.info.num_outputs += 1,
                VarMode::Uniform => self.shader.info.num_uniforms += 1,
                _ => {}
            }
            self.shader.variables.push(var);
        }
    }

    /// A variable with the common defaults (no qualifiers, `INTERP_MODE_NONE`, no access).
    pub fn variable(
        mode: VarMode,
        ty: &str,
        name: &str,
        location: &str,
        driver_location: u32,
    ) -> Variable {
        let ty = GlslType::parse(ty).unwrap_or_else(|| GlslType::scalar("float"));
        let components = match mode {
            VarMode::ShaderIn | VarMode::ShaderOut => {
                let n = ty.element_components() as usize;
                let letters = if n > 4 { "abcdefghijklmnop" } else { "xyzw" };
                (1..16).contains(&n).then(|| letters[..n].to_string())
            }
            _ => None,
        };
        Variable {
            mode,
            qualifiers: Vec::new(),
            interpolation: "INTERP_MODE_NONE".into(),
            access: Vec::new(),
            image_format: None,
            precision: None,
            ty,
            name: name.into(),
            location: location.into(),
            components,
            driver_location,
            binding: 0,
            compact: false,
            initializer: None,
        }
    }

    pub fn add_input(&mut self, ty: &str, name: &str, location: &str, driver_location: u32) {
        self.add_variable(Builder::variable(
            VarMode::ShaderIn,
            ty,
            name,
            location,
            driver_location,
        ));
    }
    pub fn add_output(&mut self, ty: &str, name: &str, location: &str, driver_location: u32) {
        self.add_variable(Builder::variable(
            VarMode::ShaderOut,
            ty,
            name,
            location,
            driver_location,
        ));
    }
    pub fn add_uniform(&mut self, ty: &str, name: &str, driver_location: u32) {
        let loc = driver_location.to_string();
        self.add_variable(Builder::variable(
            VarMode::Uniform,
            ty,
            name,
            &loc,
            driver_location,
        ));
    }

    /// The block instructions are appended to.
    pub fn current_block(&self) -> BlockId {
        self.current
    }

    fn new_def(&mut self, num_components: u8, bit_size: u8) -> SsaId {
        let id = SsaId(self.imp.defs.len() as u32);
        let instr = InstrId(self.imp.instrs.len() as u32);
        self.imp.defs.push(Some(Def {
            num_components,
            bit_size,
            divergent: false,
            instr,
        }));
        id
    }

    /// Appends an instruction to the current block.
    pub fn push(&mut self, kind: InstrKind) -> InstrId {
        let id = InstrId(self.imp.instrs.len() as u32);
        self.imp.instrs.push(Instr {
            block: self.current,
            kind,
        });
        self.imp.blocks[self.current.0 as usize].instrs.push(id);
        id
    }

    pub fn load_const(&mut self, bit_size: u8, values: &[u64]) -> SsaId {
        let def = self.new_def(values.len() as u8, bit_size);
        self.push(InstrKind::LoadConst(LoadConstInstr {
            def,
            values: values.to_vec(),
        }));
        def
    }
    pub fn imm_f32(&mut self, v: f32) -> SsaId {
        self.load_const(32, &[v.to_bits() as u64])
    }
    pub fn imm_u32(&mut self, v: u32) -> SsaId {
        self.load_const(32, &[v as u64])
    }
    pub fn imm_vec_f32(&mut self, v: &[f32]) -> SsaId {
        let bits: Vec<u64> = v.iter().map(|x| x.to_bits() as u64).collect();
        self.load_const(32, &bits)
    }
    pub fn undef(&mut self, num_components: u8, bit_size: u8) -> SsaId {
        let def = self.new_def(num_components, bit_size);
        self.push(InstrKind::Undef(def));
        def
    }

    fn size_of(&self, id: SsaId) -> (u8, u8) {
        self.imp
            .def(id)
            .map_or((1, 32), |d| (d.num_components, d.bit_size))
    }

    /// An ALU op on whole sources: the width is the op's output size, or for per-component
    /// ops the widest source; the bit size is the op's fixed output size or the sources'.
    pub fn alu(&mut self, op: AluOp, srcs: &[SsaId]) -> SsaId {
        let info = op.info();
        let width = if info.output_size != 0 {
            info.output_size
        } else {
            srcs.iter()
                .zip(info.input_sizes)
                .filter(|(_, &s)| s == 0)
                .map(|(s, _)| self.size_of(*s).0)
                .max()
                .unwrap_or(1)
        };
        let srcs: Vec<AluSrc> = srcs.iter().map(|s| AluSrc::new(*s)).collect();
        self.alu_src(op, &srcs, width)
    }

    /// An ALU op with explicit swizzles and result width.
    pub fn alu_src(&mut self, op: AluOp, srcs: &[AluSrc], width: u8) -> SsaId {
        let info = op.info();
        let unsized_bits = srcs
            .iter()
            .zip(info.input_types)
            .find(|(_, t)| t.bits == 0)
            .map(|(s, _)| self.size_of(s.ssa).1);
        let bits = match info.output_type.bits {
            0 if info.is_conversion => 32,
            0 => unsized_bits.unwrap_or(32),
            b => b,
        };
        let def = self.new_def(width, bits);
        self.push(InstrKind::Alu(AluInstr {
            op,
            def,
            srcs: srcs.to_vec(),
            exact: false,
            no_signed_wrap: false,
            no_unsigned_wrap: false,
        }));
        def
    }

    /// The default value of an index the caller did not give.
    fn default_index(kind: IndexKind, num_components: u8) -> IndexValue {
        match kind {
            IndexKind::WriteMask => IndexValue::WriteMask((1u32 << num_components.min(16)) - 1),
            IndexKind::SrcType | IndexKind::DestType => IndexValue::Type(AluType::INVALID),
            IndexKind::Access => IndexValue::Text("access=none".into()),
            IndexKind::IoSemantics => IndexValue::Text("io location=0 slots=1".into()),
            IndexKind::IoXfb => IndexValue::Text("xfb()".into()),
            IndexKind::IoXfb2 => IndexValue::Text("xfb2()".into()),
            k if is_text_index(k) => match k.printed_prefix() {
                "" => IndexValue::Text(format!("{}=0", k.name())),
                p => IndexValue::Text(format!("{p}0")),
            },
            _ => IndexValue::Int(0),
        }
    }

    /// An intrinsic. `dest` gives (components, bit size) when it defines a value; for
    /// intrinsics without one, `num_components` is the stored width. Indices not listed take
    /// defaults (0, full write mask, `access=none`...).
    pub fn intrinsic(
        &mut self,
        intrinsic: Intrinsic,
        srcs: &[SsaId],
        dest: Option<(u8, u8)>,
        indices: &[(IndexKind, IndexValue)],
    ) -> Option<SsaId> {
        let info = intrinsic.info();
        let num_components = match dest {
            Some((nc, _)) if info.dest_components == 0 => nc,
            _ => info
                .src_components
                .iter()
                .position(|&c| c == 0)
                .and_then(|p| srcs.get(p))
                .map_or(dest.map_or(0, |d| d.0), |s| self.size_of(*s).0),
        };
        let values = info
            .indices
            .iter()
            .map(|k| {
                indices
                    .iter()
                    .find(|(kk, _)| kk == k)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| Builder::default_index(*k, num_components))
            })
            .collect();
        let def = if info.has_dest() {
            let (nc, bits) = dest.unwrap_or((1, 32));
            Some(self.new_def(nc, bits))
        } else {
            None
        };
        self.push(InstrKind::Intrinsic(IntrinsicInstr {
            intrinsic,
            def,
            num_components,
            srcs: srcs.to_vec(),
            indices: values,
        }));
        def
    }

    /// Looks an intrinsic up by name (for tests and the C API).
    pub fn intrinsic_named(
        &mut self,
        name: &str,
        srcs: &[SsaId],
        dest: Option<(u8, u8)>,
        indices: &[(IndexKind, IndexValue)],
    ) -> Result<Option<SsaId>, BuildError> {
        let intr = Intrinsic::from_name(name)
            .ok_or_else(|| BuildError(format!("unknown intrinsic `{name}`")))?;
        Ok(self.intrinsic(intr, srcs, dest, indices))
    }

    pub fn decl_reg(&mut self, num_components: u8, bit_size: u8) -> SsaId {
        let intr = Intrinsic::DeclReg;
        let idx = [
            (
                IndexKind::NumComponents,
                IndexValue::Int(num_components as i64),
            ),
            (IndexKind::BitSize, IndexValue::Int(bit_size as i64)),
        ];
        self.intrinsic(intr, &[], Some((1, bit_size)), &idx)
            .unwrap_or(SsaId(0))
    }
    pub fn load_reg(&mut self, reg: SsaId) -> SsaId {
        let (nc, bits) = self.reg_size(reg);
        let intr = Intrinsic::LoadReg;
        self.intrinsic(intr, &[reg], Some((nc, bits)), &[])
            .unwrap_or(SsaId(0))
    }
    pub fn store_reg(&mut self, reg: SsaId, value: SsaId, write_mask: u32) {
        let intr = Intrinsic::StoreReg;
        self.intrinsic(
            intr,
            &[value, reg],
            None,
            &[(IndexKind::WriteMask, IndexValue::WriteMask(write_mask))],
        );
    }
    fn reg_size(&self, reg: SsaId) -> (u8, u8) {
        match self.imp.def_instr(reg).map(|i| &i.kind) {
            Some(InstrKind::Intrinsic(d)) => (
                d.int_index(IndexKind::NumComponents).unwrap_or(1) as u8,
                d.int_index(IndexKind::BitSize).unwrap_or(32) as u8,
            ),
            _ => (1, 32),
        }
    }

    /// A texture instruction returning `num_components` values of `dest_type`.
    pub fn tex(
        &mut self,
        op: TexOp,
        dest_type: AluType,
        srcs: &[(TexSrc, SsaId)],
        texture: u32,
        sampler: Option<u32>,
        num_components: u8,
    ) -> SsaId {
        let def = self.new_def(num_components, dest_type.bits.max(1));
        self.push(InstrKind::Tex(TexInstr {
            op,
            def,
            dest_type,
            srcs: srcs.to_vec(),
            texture_index: Some(texture),
            sampler_index: sampler,
            extra: Vec::new(),
        }));
        def
    }

    /// A phi in the current block; `srcs` pairs predecessor blocks with values.
    pub fn phi(&mut self, num_components: u8, bit_size: u8, srcs: &[(BlockId, SsaId)]) -> SsaId {
        let def = self.new_def(num_components, bit_size);
        let phi = InstrKind::Phi(PhiInstr {
            def,
            srcs: srcs.to_vec(),
        });
        // Phis lead their block.
        let id = InstrId(self.imp.instrs.len() as u32);
        self.imp.instrs.push(Instr {
            block: self.current,
            kind: phi,
        });
        let block = &mut self.imp.blocks[self.current.0 as usize].instrs;
        let at = block
            .iter()
            .position(|i| !matches!(self.imp.instrs[i.0 as usize].kind, InstrKind::Phi(_)))
            .unwrap_or(block.len());
        block.insert(at, id);
        def
    }

    pub fn jump(&mut self, kind: JumpKind) {
        self.push(InstrKind::Jump(kind));
    }

    fn start_block(&mut self) {
        let id = BlockId(self.imp.blocks.len() as u32);
        self.imp.blocks.push(Block::default());
        self.current = id;
        if let Some(f) = self.frames.last_mut() {
            f.nodes().push(CfNode::Block(id));
        }
    }

    /// Opens `if cond {`; instructions now go to the then branch.
    pub fn push_if(&mut self, cond: SsaId) {
        self.frames.push(Frame::Then {
            cond,
            nodes: Vec::new(),
        });
        self.start_block();
    }

    /// Switches to the else branch of the innermost if.
    pub fn push_else(&mut self) {
        match self.frames.pop() {
            Some(Frame::Then { cond, nodes }) => {
                self.frames.push(Frame::Else {
                    cond,
                    then_body: nodes,
                    nodes: Vec::new(),
                });
                self.start_block();
            }
            other => {
                if let Some(f) = other {
                    self.frames.push(f);
                }
                self.errors
                    .push("push_else without an open then branch".into());
            }
        }
    }

    /// Closes the innermost if (an empty else branch is added when none was opened).
    pub fn pop_if(&mut self) {
        if matches!(self.frames.last(), Some(Frame::Then { .. })) {
            self.push_else();
        }
        match self.frames.pop() {
            Some(Frame::Else {
                cond,
                then_body,
                nodes,
            }) => {
                let node = CfNode::If(IfNode {
                    condition: cond,
                    control: None,
                    then_body,
                    else_body: nodes,
                });
                if let Some(f) = self.frames.last_mut() {
                    f.nodes().push(node);
                }
                self.start_block();
            }
            other => {
                if let Some(f) = other {
                    self.frames.push(f);
                }
                self.errors.push("pop_if without an open if".into());
            }
        }
    }

    /// Opens `loop {`.
    pub fn push_loop(&mut self) {
        self.frames.push(Frame::Loop { nodes: Vec::new() });
        self.start_block();
    }

    /// Closes the innermost loop.
    pub fn pop_loop(&mut self) {
        match self.frames.pop() {
            Some(Frame::Loop { nodes }) => {
                let node = CfNode::Loop(LoopNode {
                    body: nodes,
                    continue_body: Vec::new(),
                });
                if let Some(f) = self.frames.last_mut() {
                    f.nodes().push(node);
                }
                self.start_block();
            }
            other => {
                if let Some(f) = other {
                    self.frames.push(f);
                }
                self.errors.push("pop_loop without an open loop".into());
            }
        }
    }

    /// Finishes `main` and returns the shader.
    pub fn finish(mut self) -> Result<Shader, BuildError> {
        if let Some(e) = self.errors.first() {
            return Err(BuildError(e.clone()));
        }
        if self.frames.len() != 1 {
            return Err(BuildError("finish with an if or loop still open".into()));
        }
        let Some(Frame::Root(nodes)) = self.frames.pop() else {
            return Err(BuildError("builder lost its root frame".into()));
        };
        self.imp.body = nodes;
        self.imp.blocks.push(Block::default());
        self.imp.ssa_alloc = self.imp.defs.len() as u32;
        self.shader.functions.push(Function {
            name: "main".into(),
            num_params: 0,
            inline_hint: String::new(),
            body: Some(self.imp),
        });
        Ok(self.shader)
    }
}
