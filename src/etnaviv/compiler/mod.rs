//! The etnaviv backend: NIR in, [`ShaderObject`] out.
//!
//! The passes, in order: [`from_nir::lower`] (target lowering into the value-based IR),
//! [`consts::one_const`] (one uniform register per instruction), trivial-branch cleanup,
//! [`alloc::allocate`] (virtual register classes on the shared [`regs::RegFile`]) and
//! [`emit::emit`] (re-swizzling, constant placement, encoding), then the limit checks.
//! [`verify`] runs the result on the simulator against the NIR interpreter.

pub mod alloc;
pub mod consts;
pub mod dialect;
pub mod emit;
pub mod from_nir;
pub mod ir;
pub mod regs;
pub mod verify;

use std::fmt;
use std::sync::Arc;

use crate::etnaviv::isa;
use crate::etnaviv::shader::{IoReg, SamplerUse, ShaderObject};
use crate::etnaviv::specs::Specs;
use crate::nir::ir::Shader;
use crate::nir::types::Stage;

pub use verify::{verify, VerifyOutcome};

/// Why a shader did not compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// A feature this backend does not handle (named).
    Unsupported(String),
    /// The program exceeds a hardware limit (instructions, temporaries, uniforms).
    Limit(String),
    /// The input is malformed.
    Invalid(String),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Unsupported(m) => write!(f, "UNSUPPORTED: {m}"),
            CompileError::Limit(m) => write!(f, "limit exceeded: {m}"),
            CompileError::Invalid(m) => write!(f, "invalid shader: {m}"),
        }
    }
}

impl std::error::Error for CompileError {}

/// Per-compile options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Print the backend IR after lowering to stderr (GPUCC_DEBUG=etna).
    pub dump_ir: bool,
}

/// A compiler for one core; build once, compile many shaders, from any thread.
#[derive(Clone, Debug)]
pub struct Context {
    specs: &'static Specs,
    regs: Arc<regs::RegFile>,
}

impl Context {
    pub fn new(specs: &'static Specs) -> Context {
        let regs = regs::RegFile::new(specs.temp_count())
            .expect("the virtual register layout is a valid register set");
        Context {
            specs,
            regs: Arc::new(regs),
        }
    }

    pub fn specs(&self) -> &'static Specs {
        self.specs
    }

    /// The shared register file (for tests that check it is built once).
    pub fn reg_file(&self) -> &Arc<regs::RegFile> {
        &self.regs
    }

    pub fn compile(&self, shader: &Shader, opts: &Options) -> Result<ShaderObject, CompileError> {
        let mut lowered = from_nir::lower(self.specs, shader)?;
        if self.specs.has_halti2_instructions() {
            emit::inline_immediates(&mut lowered.program);
        }
        if self.specs.has_one_const_limit() {
            consts::one_const(&mut lowered.program);
        }
        emit::drop_trivial_branches(&mut lowered.program);
        if opts.dump_ir {
            eprintln!("{:#?}", lowered.program.items);
        }
        let stage = shader.stage();
        let alloc = alloc::allocate(&lowered.program, &self.regs, stage)?;
        let mut uniforms = lowered.uniforms.clone();
        let insts = emit::emit(&lowered.program, &alloc, &mut uniforms)?;
        let needs_icache =
            emit::check_limits(self.specs, stage == Stage::Fragment, &insts, &uniforms)?;
        let reg_of = |v: ir::ValueId| alloc.regs[v.index()].map_or(0, |r| r.base);
        let inputs = lowered
            .inputs
            .iter()
            .map(|i| IoReg {
                reg: i.reg,
                slot: i.slot,
                comps: (1u8 << i.comps.min(4)) - 1,
                name: i.name.clone(),
            })
            .collect();
        let outputs: Vec<IoReg> = lowered
            .outputs
            .iter()
            .filter(|o| alloc.regs[o.value.index()].is_some())
            .map(|o| IoReg {
                reg: reg_of(o.value),
                slot: o.slot,
                comps: o.comps,
                name: o.name.clone(),
            })
            .collect();
        let find = |names: &[&str]| {
            outputs
                .iter()
                .find(|o| names.contains(&o.name.as_str()))
                .map(|o| o.reg)
        };
        let fragment = stage == Stage::Fragment;
        Ok(ShaderObject {
            target: self.specs.name,
            stage,
            code: insts.iter().map(isa::encode).collect(),
            insts,
            num_temps: alloc.num_temps,
            num_loops: lowered.program.loops,
            uniforms: uniforms.slots,
            vs_pos_out_reg: (!fragment).then(|| find(&["VARYING_SLOT_POS"])).flatten(),
            vs_pointsize_out_reg: (!fragment).then(|| find(&["VARYING_SLOT_PSIZ"])).flatten(),
            ps_color_out_reg: fragment
                .then(|| find(&["FRAG_RESULT_COLOR", "FRAG_RESULT_DATA0"]))
                .flatten(),
            ps_depth_out_reg: fragment.then(|| find(&["FRAG_RESULT_DEPTH"])).flatten(),
            inputs,
            outputs,
            samplers: lowered
                .textures
                .iter()
                .map(|&(unit, coord_dims, texture)| SamplerUse {
                    unit,
                    texture,
                    coord_dims,
                })
                .collect(),
            uses_discard: lowered.uses_discard,
            needs_icache,
        })
    }
}
