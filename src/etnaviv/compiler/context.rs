//! The compiler for one Vivante core: its options, the per-core state built once, and the
//! order of a compile (lowering, passes, allocation, emission, limits).

use std::sync::Arc;

use crate::debug;
use crate::etnaviv::isa;
use crate::etnaviv::shader::{IoReg, SamplerUse, ShaderObject};
use crate::etnaviv::specs::Specs;
use crate::nir::ir::Shader;
use crate::nir::types::Stage;
use crate::pipeline::Runner;

use super::{alloc, alloc_check, emit, from_nir, ir, pipeline, regs, validate};

use crate::error::CompileError;

/// Per-compile options.
#[derive(Clone, Debug)]
pub struct Options {
    /// What to print while compiling (`GPUCC_DEBUG` by default).
    pub debug: debug::Flags,
    /// Validate the IR after every pass (on in debug builds and with `GPUCC_DEBUG=validate`).
    pub validate: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            debug: debug::flags(),
            validate: debug::validate_by_default(),
        }
    }
}

impl Options {
    /// The same options with the IR validated after every pass (what tests ask for).
    pub fn validating(mut self) -> Options {
        self.validate = true;
        self
    }
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
        let stage = shader.stage();
        if opts.debug.contains(debug::Flags::NIR) {
            eprintln!("=== NIR as received\n{}", crate::nir::print(shader));
        }
        let mut runner = Runner::new(
            format!("{} {}", self.specs.name, stage.mesa_name()),
            opts.debug,
            debug::Flags::ETNA,
            opts.validate,
            validate::validate,
        );
        let lowered = pipeline::lower(self.specs, shader, &mut runner)?;
        let alloc = runner.time_step("register_allocation", || {
            alloc::allocate(&lowered.program, &self.regs)
        })?;
        if opts.debug.contains(debug::Flags::RA) {
            eprintln!("{}", alloc::describe(&lowered.program, &alloc));
        }
        let mut uniforms = lowered.uniforms.clone();
        let insts = runner.time_step("emit", || {
            emit::emit_with(
                &lowered.program,
                &alloc,
                &mut uniforms,
                self.specs.has_one_const_limit(),
            )
        })?;
        // With the validators (debug builds, tests, GPUCC_DEBUG=validate): on compiles this
        // small the check would add about 5% to a release build's cost.
        if opts.validate {
            let outputs: Vec<ir::ValueId> = lowered.outputs.iter().map(|o| o.value).collect();
            alloc_check::check(&lowered.program, &alloc, &insts, &outputs, self.regs.temps)?;
        }
        runner.report();
        let limits = emit::check_limits(self.specs, stage == Stage::Fragment, &insts, &uniforms);
        if limits.is_err() && opts.debug.contains(debug::Flags::ASM) {
            // A program over the core's limits is exactly the one worth reading.
            eprintln!("=== {} assembly (over the limits)", self.specs.name);
            for (i, inst) in insts.iter().enumerate() {
                eprintln!("{i:04}: {}", isa::disassemble_inst(inst));
            }
        }
        let needs_icache = limits?;
        let reg_of = |v: ir::ValueId| alloc.regs[v.index()].map_or(0, |r| r.base);
        let inputs = infile(shader, &lowered.inputs);
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
        let object = ShaderObject {
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
            vs_id_in_reg: lowered.vs_id_reg,
        };
        if opts.debug.contains(debug::Flags::ASM) {
            eprint!("=== {} assembly\n{}", self.specs.name, object.asm_text());
        }
        if opts.debug.contains(debug::Flags::STATS) {
            eprint!("{}", object.stats_text());
        }
        Ok(object)
    }
}

/// The input registers as Mesa's etnaviv reports them (`etna_shader_variant::infile`, which
/// `etna_compile_shader` fills from the shader's input variables before its backend runs): one
/// per declared `shader_in` variable, in driver-location order, register = driver location
/// (+1 in a fragment shader, where t0 holds the position), components those of the declared
/// type. The driver links varyings and vertex elements by these, so a variable the shader no
/// longer reads keeps its entry and a vec4 read as .xy still counts four components. A shader
/// that declares no inputs (hand-written NIR) reports what it reads.
fn infile(shader: &Shader, read: &[from_nir::InputInfo]) -> Vec<IoReg> {
    use crate::nir::VarMode;
    let stage = shader.stage();
    let mut declared: Vec<&crate::nir::Variable> = shader
        .variables
        .iter()
        .filter(|v| v.mode == VarMode::ShaderIn)
        .collect();
    if declared.is_empty() {
        return read
            .iter()
            .map(|i| IoReg {
                reg: i.reg,
                slot: i.slot,
                comps: (1u8 << i.comps.min(4)) - 1,
                name: i.name.clone(),
            })
            .collect();
    }
    declared.sort_by_key(|v| v.driver_location);
    let first_reg = u32::from(stage == Stage::Fragment);
    declared
        .iter()
        .map(|v| {
            let location = v.location_number().unwrap_or(u32::MAX);
            IoReg {
                reg: (v.driver_location + first_reg).min(255) as u8,
                slot: v.driver_location,
                comps: ((1u32 << v.ty.components().min(4)) - 1) as u8,
                name: crate::nir::slots::location_name(location, stage, Some(VarMode::ShaderIn)),
            }
        })
        .collect()
}
