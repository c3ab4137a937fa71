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
//! Inputs are placed as the hardware does: a fragment shader finds the fragment position in t0,
//! its varyings from t1 on and the front-facing bit in i0 ([`Machine::set_front_face`]); a
//! vertex shader finds its attributes from t0 on. Outputs are read back from whatever registers
//! the shader object names. Fragment shaders with derivatives run as 2×2 quads ([`run_quad`]).

pub mod alu;
mod machine;
pub mod sampler;

pub use machine::{Machine, INTERNAL_COUNT, TEMP_COUNT, UNIFORM_COUNT};

use std::fmt;

use crate::etnaviv::isa::{Inst, Opcode};
use alu::Flow;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// A TEXKILL discarded the fragment (execution stops there).
    pub killed: bool,
    /// Instructions executed.
    pub steps: usize,
}

/// Maximum CALL nesting.
const MAX_CALL_DEPTH: usize = 64;

impl Machine {
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
    /// caller, or a TEXKILL. DSX/DSY give 0 here: a lone invocation has no neighbours (see
    /// [`run_quad`]).
    pub fn run(&mut self, program: &[Inst]) -> Result<Outcome, SimError> {
        let mut t = Thread::default();
        loop {
            if let Some(out) = self.step(program, &mut t)? {
                return Ok(out);
            }
        }
    }

    /// Executes the instruction at `t.pc`; `Some` once the invocation has ended.
    fn step(&mut self, program: &[Inst], t: &mut Thread) -> Result<Option<Outcome>, SimError> {
        let Some(inst) = program.get(t.pc) else {
            return Ok(Some(t.outcome(false)));
        };
        t.count(self.max_steps)?;
        let pc = t.pc;
        let flow = alu::execute(self, inst).map_err(|message| SimError { pc, message })?;
        t.pc = match flow {
            Flow::Next => pc + 1,
            Flow::Jump(target) => target,
            Flow::Call(target) => {
                if t.stack.len() >= MAX_CALL_DEPTH {
                    return Err(SimError {
                        pc,
                        message: "call stack overflow".into(),
                    });
                }
                t.stack.push(pc + 1);
                target
            }
            Flow::Ret => match t.stack.pop() {
                Some(r) => r,
                None => return Ok(Some(t.outcome(false))),
            },
            Flow::Kill => return Ok(Some(t.outcome(true))),
        };
        if t.pc > program.len() {
            return Err(SimError {
                pc,
                message: format!("jump outside the program of {} instructions", program.len()),
            });
        }
        Ok(None)
    }

    /// Sets the front-facing bit the rasterizer hands a fragment shader: `i0`, which Mesa's
    /// etnaviv backend reads as `i0.xxxx`, holding 1.0 for a front-facing primitive and 0.0
    /// otherwise (etnaviv_nir.c: "HW front_face is 0.0/1.0"; its NIR compares it with 0).
    pub fn set_front_face(&mut self, front: bool) {
        let v = if front { 1.0f32 } else { 0.0 };
        self.internal[0] = [v.to_bits(); 4];
    }
}

/// Where one invocation is: program counter, call stack, instructions executed.
#[derive(Clone, Debug, Default)]
struct Thread {
    pc: usize,
    steps: usize,
    stack: Vec<usize>,
}

impl Thread {
    fn count(&mut self, max_steps: usize) -> Result<(), SimError> {
        self.steps += 1;
        if self.steps > max_steps {
            return Err(SimError {
                pc: self.pc,
                message: format!("no end after {max_steps} instructions"),
            });
        }
        Ok(())
    }

    fn outcome(&self, killed: bool) -> Outcome {
        Outcome {
            killed,
            steps: self.steps,
        }
    }
}

fn is_derivative(op: Opcode) -> bool {
    matches!(op, Opcode::Dsx | Opcode::Dsy)
}

/// Texture instructions whose level of detail comes from the quad's derivatives (TEXLD, and
/// TEXLDB which adds a bias to it); TEXLDL, TEXLDD and TXF carry their own.
fn is_implicit_lod(op: Opcode) -> bool {
    matches!(op, Opcode::Texld | Opcode::Texldb)
}

/// Runs a 2×2 quad of fragment invocations: `quad[i]` is the pixel at (i & 1, i >> 1) of the
/// quad, y growing with the fragment position's y. Each invocation runs on its own until it
/// reaches a DSX or DSY; when every live one has, each gets its row's (DSX) or column's (DSY)
/// difference of the source, upper pixel minus lower (fine derivatives, like the NIR
/// interpreter's `fddx`/`fddy`). A neighbour that has ended, or waits at another instruction
/// (derivatives in divergent control flow are undefined in GLSL), contributes the
/// invocation's own value, which gives 0.
///
/// Implicit-LOD texture instructions (TEXLD, TEXLDB) meet the same way: each invocation gets
/// the row and column differences of its coordinate source, computed like DSX and DSY, in
/// `TexRequest::ddx`/`ddy`, from which a sampler derives the level of detail.
pub fn run_quad(quad: &mut [Machine], program: &[Inst]) -> Result<Vec<Outcome>, SimError> {
    if quad.len() != 4 {
        return Err(SimError {
            pc: 0,
            message: format!("a quad has 4 invocations, not {}", quad.len()),
        });
    }
    let mut threads = vec![Thread::default(); 4];
    let mut done: Vec<Option<Outcome>> = vec![None; 4];
    loop {
        for i in 0..4 {
            while done[i].is_none() {
                let t = &mut threads[i];
                if program
                    .get(t.pc)
                    .is_some_and(|ins| is_derivative(ins.opcode) || is_implicit_lod(ins.opcode))
                {
                    break;
                }
                done[i] = quad[i].step(program, t)?;
            }
        }
        let waiting: Vec<usize> = (0..4).filter(|&i| done[i].is_none()).collect();
        if waiting.is_empty() {
            break;
        }
        let mut values: Vec<Option<(usize, [u32; 4])>> = vec![None; 4];
        for &i in &waiting {
            let pc = threads[i].pc;
            let v = alu::read_src(&quad[i], &program[pc], 0)
                .map_err(|message| SimError { pc, message })?;
            values[i] = Some((pc, v));
        }
        for &i in &waiting {
            let pc = threads[i].pc;
            let inst = &program[pc];
            let (lo, hi) = if inst.opcode == Opcode::Dsx {
                (i & !1, i | 1)
            } else {
                (i & !2, i | 2)
            };
            let own = values[i].map_or([0; 4], |v| v.1);
            let at = |l: usize| values[l].filter(|v| v.0 == pc).map_or(own, |v| v.1);
            if is_implicit_lod(inst.opcode) {
                let diff = |lo: usize, hi: usize| {
                    let (a, b) = (at(lo), at(hi));
                    [0, 1, 2, 3].map(|c| f64::from(f32::from_bits(b[c]) - f32::from_bits(a[c])))
                };
                quad[i].quad_tex_derivatives = Some((diff(i & !1, i | 1), diff(i & !2, i | 2)));
                done[i] = quad[i].step(program, &mut threads[i])?;
                continue;
            }
            let (a, b) = (at(lo), at(hi));
            let d = [0, 1, 2, 3].map(|c| (f32::from_bits(b[c]) - f32::from_bits(a[c])).to_bits());
            threads[i].count(quad[i].max_steps)?;
            let d = alu::result_value(inst, d);
            alu::write_dst(&mut quad[i], inst, d).map_err(|message| SimError { pc, message })?;
            threads[i].pc += 1;
        }
    }
    Ok(done.into_iter().map(|d| d.unwrap_or_default()).collect())
}

impl Machine {
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
