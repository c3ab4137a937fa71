//! Functional simulator of Vivante shader cores: runs decoded instructions for one vertex or
//! one fragment.
//!
//! Registers hold raw 32-bit components; each instruction reads them as floats or integers
//! according to its type field. 16-bit and 8-bit integer types compute in 32 bits and wrap the
//! result to their width; f16 is computed as f32. The per-opcode rules, and the choices made
//! where the hardware is not documented, are in [`alu`]. Texture sampling goes through a
//! [`sampler::Sampler`], the NIR interpreter's trait, with its deterministic default model, so
//! both run the same textures. A binary does not say how many coordinates a texture takes, so
//! [`Machine::texture_dims`] holds that per unit (2 unless set).
//!
//! Inputs are placed as the hardware does: a fragment shader finds the fragment position in t0
//! and its varyings from t1 on; a vertex shader finds its attributes from t0 on. Outputs are
//! read back from whatever registers the shader object names.

pub mod alu;
pub mod sampler;

use std::fmt;

use crate::etnaviv::isa::{Inst, Opcode};
use crate::etnaviv::specs::Specs;
use sampler::{DefaultSampler, Sampler};

/// Temporaries addressable by the 7-bit destination field.
pub const TEMP_COUNT: usize = 128;
/// Uniform slots the simulator holds (the 9-bit register field reaches 511; bank 1 starts at
/// 128, as Mesa 23.3's disassembler numbers it).
pub const UNIFORM_COUNT: usize = 1024;
/// Internal registers (`i` group) the simulator models.
pub const INTERNAL_COUNT: usize = 16;

/// A run-time error: what went wrong and at which instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimError {
    pub pc: usize,
    pub message: String,
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "instruction {}: {}", self.pc, self.message)
    }
}

impl std::error::Error for SimError {}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// A TEXKILL discarded the fragment (execution stops there).
    pub killed: bool,
    /// Instructions executed.
    pub steps: usize,
}

/// One shader invocation's state.
pub struct Machine {
    pub specs: &'static Specs,
    pub temps: Vec<[u32; 4]>,
    pub uniforms: Vec<[u32; 4]>,
    pub internal: Vec<[u32; 4]>,
    /// The address register `a` (integer components).
    pub address: [i32; 4],
    /// Byte-addressed memory for LOAD/STORE.
    pub memory: Vec<u8>,
    /// Instructions after which a run gives up (guards against endless loops).
    pub max_steps: usize,
    /// Coordinates each texture unit takes (1–3; cube maps and arrays use 3).
    pub texture_dims: Vec<usize>,
    sampler: Box<dyn Sampler>,
}

/// Maximum CALL nesting.
const MAX_CALL_DEPTH: usize = 64;

pub(crate) enum Flow {
    Next,
    Jump(usize),
    Call(usize),
    Ret,
    Kill,
}

impl Machine {
    pub fn new(specs: &'static Specs) -> Machine {
        Machine {
            specs,
            temps: vec![[0; 4]; TEMP_COUNT],
            uniforms: vec![[0; 4]; UNIFORM_COUNT],
            internal: vec![[0; 4]; INTERNAL_COUNT],
            address: [0; 4],
            memory: Vec::new(),
            max_steps: 1_000_000,
            texture_dims: vec![2; 32],
            sampler: Box::new(DefaultSampler),
        }
    }

    pub fn set_sampler(&mut self, sampler: Box<dyn Sampler>) {
        self.sampler = sampler;
    }

    pub fn sampler(&self) -> &dyn Sampler {
        self.sampler.as_ref()
    }

    pub fn set_temp(&mut self, reg: usize, v: [f32; 4]) {
        self.temps[reg] = v.map(f32::to_bits);
    }

    pub fn set_temp_bits(&mut self, reg: usize, v: [u32; 4]) {
        self.temps[reg] = v;
    }

    pub fn set_temp_int(&mut self, reg: usize, v: [i32; 4]) {
        self.temps[reg] = v.map(|x| x as u32);
    }

    pub fn temp(&self, reg: usize) -> [f32; 4] {
        self.temps[reg].map(f32::from_bits)
    }

    pub fn temp_bits(&self, reg: usize) -> [u32; 4] {
        self.temps[reg]
    }

    pub fn temp_int(&self, reg: usize) -> [i32; 4] {
        self.temps[reg].map(|x| x as i32)
    }

    pub fn set_uniform(&mut self, index: usize, v: [f32; 4]) {
        self.uniforms[index] = v.map(f32::to_bits);
    }

    pub fn set_uniform_bits(&mut self, index: usize, v: [u32; 4]) {
        self.uniforms[index] = v;
    }

    /// Runs a vertex shader: attributes go to t0, t1, ….
    pub fn run_vertex(
        &mut self,
        program: &[Inst],
        attributes: &[[f32; 4]],
    ) -> Result<Outcome, SimError> {
        for (i, a) in attributes.iter().enumerate() {
            self.set_temp(i, *a);
        }
        self.run(program)
    }

    /// Runs a fragment shader: the fragment position goes to t0 and varyings to t1, t2, ….
    pub fn run_fragment(
        &mut self,
        program: &[Inst],
        position: [f32; 4],
        varyings: &[[f32; 4]],
    ) -> Result<Outcome, SimError> {
        self.set_temp(0, position);
        for (i, v) in varyings.iter().enumerate() {
            self.set_temp(i + 1, *v);
        }
        self.run(program)
    }

    /// Runs from instruction 0 until control leaves the end of the program, a RET with no
    /// caller, or a TEXKILL.
    pub fn run(&mut self, program: &[Inst]) -> Result<Outcome, SimError> {
        let mut pc = 0usize;
        let mut steps = 0usize;
        let mut stack: Vec<usize> = Vec::new();
        while pc < program.len() {
            steps += 1;
            if steps > self.max_steps {
                return Err(SimError {
                    pc,
                    message: format!("no end after {} instructions", self.max_steps),
                });
            }
            let flow =
                alu::execute(self, &program[pc]).map_err(|message| SimError { pc, message })?;
            pc = match flow {
                Flow::Next => pc + 1,
                Flow::Jump(t) => t,
                Flow::Call(t) => {
                    if stack.len() >= MAX_CALL_DEPTH {
                        return Err(SimError {
                            pc,
                            message: "call stack overflow".into(),
                        });
                    }
                    stack.push(pc + 1);
                    t
                }
                Flow::Ret => match stack.pop() {
                    Some(r) => r,
                    None => break,
                },
                Flow::Kill => {
                    return Ok(Outcome {
                        killed: true,
                        steps,
                    })
                }
            };
            if pc > program.len() {
                return Err(SimError {
                    pc,
                    message: format!("jump outside the program of {} instructions", program.len()),
                });
            }
        }
        Ok(Outcome {
            killed: false,
            steps,
        })
    }

    /// Applies a command-line style assignment `t1=1,2,3,4` (also `u3=…`, `a=…`); values are
    /// floats, or raw bits when written `0x…`. Fewer than four values repeat the last.
    pub fn apply_set(&mut self, spec: &str) -> Result<(), String> {
        let (name, values) = spec
            .split_once('=')
            .ok_or_else(|| format!("'{spec}': expected REG=v0,v1,v2,v3"))?;
        let mut bits = Vec::new();
        for v in values.split(',') {
            let v = v.trim();
            let b = if let Some(hex) = v.strip_prefix("0x") {
                u32::from_str_radix(hex, 16).map_err(|_| format!("'{v}' is not hex"))?
            } else {
                v.parse::<f32>()
                    .map_err(|_| format!("'{v}' is not a number"))?
                    .to_bits()
            };
            bits.push(b);
        }
        if bits.is_empty() || bits.len() > 4 {
            return Err(format!("'{spec}': give one to four values"));
        }
        while bits.len() < 4 {
            bits.push(bits[bits.len() - 1]);
        }
        let v = [bits[0], bits[1], bits[2], bits[3]];
        let name = name.trim();
        if name == "a" {
            self.address = v.map(|x| f32::from_bits(x) as i32);
            return Ok(());
        }
        let (file, index) = parse_reg_name(name)?;
        let slot = match file {
            'u' => self.uniforms.get_mut(index),
            'i' => self.internal.get_mut(index),
            _ => self.temps.get_mut(index),
        }
        .ok_or_else(|| format!("'{name}' is out of range"))?;
        *slot = v;
        Ok(())
    }

    /// Formats registers for `--dump t0-t3` (also single registers and `u` ranges).
    pub fn dump(&self, spec: &str) -> Result<String, String> {
        let mut out = String::new();
        for part in spec.split(',') {
            let part = part.trim();
            let (first, last) = match part.split_once('-') {
                Some((a, b)) => (a, b),
                None => (part, part),
            };
            let (fa, ia) = parse_reg_name(first)?;
            let (fb, ib) = parse_reg_name(last)?;
            if fa != fb || ib < ia {
                return Err(format!("'{part}' is not a register range"));
            }
            for i in ia..=ib {
                let v = match fa {
                    'u' => self.uniforms.get(i),
                    'i' => self.internal.get(i),
                    _ => self.temps.get(i),
                }
                .ok_or_else(|| format!("{fa}{i} is out of range"))?;
                let f = v.map(f32::from_bits);
                out += &format!(
                    "{fa}{i}: {} {} {} {}  [{:08x} {:08x} {:08x} {:08x}]\n",
                    f[0], f[1], f[2], f[3], v[0], v[1], v[2], v[3]
                );
            }
        }
        Ok(out)
    }
}

fn parse_reg_name(name: &str) -> Result<(char, usize), String> {
    let mut chars = name.chars();
    let file = chars.next().ok_or("empty register name")?;
    if !matches!(file, 't' | 'u' | 'i') {
        return Err(format!("'{name}': registers are tN, uN or iN"));
    }
    let index = chars
        .as_str()
        .parse::<usize>()
        .map_err(|_| format!("'{name}' is not a register"))?;
    Ok((file, index))
}

/// Whether `op` is something the simulator executes (all but atomics, image access and the
/// normalisation helpers, which the compiler does not emit).
pub fn is_simulated(op: Opcode) -> bool {
    use Opcode::*;
    !matches!(
        op,
        AtomicAdd
            | AtomicXchg
            | AtomicCmpXchg
            | AtomicMin
            | AtomicMax
            | AtomicOr
            | AtomicAnd
            | AtomicXor
            | ImgLoad
            | ImgStore
            | NormDp2
            | NormDp3
            | NormDp4
            | NormMul
            | Texldlpcf
            | Texldgpcf
            | Tg4
            | Swizzle
            | Conv
    )
}
