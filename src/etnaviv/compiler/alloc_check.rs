//! The emitted hardware code as the value check sees it ([`crate::ra::values`]).
//!
//! [`alloc::allocate`](super::alloc::allocate) checks its colouring with `ra::check`, which
//! trusts the liveness the graph came from and sees nothing of emission: re-swizzling to
//! physical components, self-moves left out, jumps to the next instruction dropped. This
//! check runs on the instructions emission produced, each paired with the IR instruction it
//! came from ([`emit::kept_instrs`]): the hardware instruction says which temporary
//! components are read and written (its register, write mask and swizzles), the IR
//! instruction which value component is meant. A unit is one component of a temporary; a
//! value is one component of an IR value, or what a unit held when the shader started
//! (inputs hold their input values). The output registers are read after the program ends.
//!
//! Every invocation runs its own control flow (the simulator's model, see
//! [`crate::etnaviv::sim`]), so the paths are the branches' own.

use super::alloc::Allocation;
use super::emit;
use super::ir::{Instr, Item, OperandKind, Program, ValueId, ValueKind};
use super::CompileError;
use crate::etnaviv::isa::{self, RegGroup, SrcKind};
use crate::ra::values::{self, Block, Read, Write};

/// One step of the checked code: a hardware instruction with the IR instruction it was
/// emitted from, or an IR instruction emission left out: a MOV allocation made a self-move,
/// or a jump over nothing but such MOVs. A self-move copies nothing but renames: the unit
/// holds the copy's value from there on (a phi variable taking the value of its source at
/// the end of a predecessor), and the check also proves the unit did hold the source. The
/// jumps keep the paths as the IR has them, so no path runs a self-move of another.
#[derive(Clone, Copy, Debug)]
struct Step<'a> {
    ins: &'a Instr,
    /// Index into the emitted instructions; `None` for a self-move.
    hw: Option<usize>,
}

/// Emitted code paired with the IR instructions it came from.
pub struct FinalCode<'a> {
    prog: &'a Program,
    alloc: &'a Allocation,
    steps: Vec<Step<'a>>,
    /// The step each label stands before.
    label_at: Vec<usize>,
    insts: &'a [isa::Inst],
    outputs: &'a [ValueId],
    temps: u32,
    /// The input value in each temporary on entry.
    inputs: Vec<Option<ValueId>>,
}

impl<'a> FinalCode<'a> {
    /// `insts` as emitted from `prog` with `alloc`, on a core of `temps` temporaries;
    /// `outputs` are read from their registers after the program.
    pub fn new(
        prog: &'a Program,
        alloc: &'a Allocation,
        insts: &'a [isa::Inst],
        outputs: &'a [ValueId],
        temps: u32,
    ) -> Result<FinalCode<'a>, CompileError> {
        let (kept, _) = emit::kept_instrs(prog, alloc)?;
        let mut steps = Vec::with_capacity(prog.items.len());
        let mut label_at = vec![0; prog.labels as usize];
        let mut next = 0;
        for item in &prog.items {
            match item {
                Item::Label(l) => label_at[l.0 as usize] = steps.len(),
                Item::Instr(ins) => {
                    if kept.get(next).is_some_and(|k| std::ptr::eq(*k, ins)) {
                        steps.push(Step {
                            ins,
                            hw: Some(next),
                        });
                        next += 1;
                    } else {
                        // A self-move, or a jump over self-moves only: both left out.
                        steps.push(Step { ins, hw: None });
                    }
                }
            }
        }
        // An empty program is emitted as one NOP.
        if next != insts.len() && !(next == 0 && insts.len() == 1) {
            return Err(CompileError::Internal(format!(
                "{} instructions emitted from {next} kept",
                insts.len()
            )));
        }
        let mut inputs = vec![None; temps as usize];
        for (v, val) in prog.values.iter().enumerate() {
            if let ValueKind::Input { reg } = val.kind {
                if let (Some(slot), Some(_)) = (inputs.get_mut(usize::from(reg)), alloc.regs[v]) {
                    *slot = Some(ValueId(v as u32));
                }
            }
        }
        Ok(FinalCode {
            prog,
            alloc,
            steps,
            label_at,
            insts,
            outputs,
            temps,
            inputs,
        })
    }

    /// The first value number past the IR values' components: the entry contents of unit
    /// `u` is `entry_base() + u`.
    fn entry_base(&self) -> u32 {
        4 * self.prog.values.len() as u32
    }

    /// What unit `u` holds on entry, as a value number: a component of the input whose
    /// register it is, or its own entry contents.
    fn entry_value(&self, u: u32) -> u32 {
        match self.inputs.get(u as usize / 4) {
            Some(&Some(v)) => 4 * v.0 + u % 4,
            _ => self.entry_base() + u,
        }
    }

    /// The unit holding component `c` of value `v` under the allocation.
    fn unit_of(&self, v: ValueId, c: u8) -> Option<u32> {
        let r = self.alloc.regs.get(v.index()).copied().flatten()?;
        let pc = *r.comps().get(c as usize)?;
        Some(4 * u32::from(r.base) + u32::from(pc))
    }
}

fn is_unconditional_jump(ins: &Instr) -> bool {
    ins.target.is_some() && ins.src[0].is_none()
}

impl values::FinalCode for FinalCode<'_> {
    fn units(&self) -> u32 {
        4 * self.temps
    }

    fn values(&self) -> u32 {
        self.entry_base() + 4 * self.temps
    }

    fn blocks(&self) -> Vec<Block> {
        let n = self.steps.len();
        let mut starts = vec![0usize];
        starts.extend(self.label_at.iter().copied());
        for (k, s) in self.steps.iter().enumerate() {
            if s.ins.target.is_some() {
                starts.push(k + 1);
            }
        }
        starts.retain(|&s| s < n);
        starts.sort_unstable();
        starts.dedup();
        let block_of = |k: usize| starts.partition_point(|&s| s <= k) - 1;
        (0..starts.len())
            .map(|b| {
                let end = starts.get(b + 1).copied().unwrap_or(n);
                let last = self.steps[end - 1].ins;
                let mut succs = Vec::new();
                let mut exits = false;
                if !is_unconditional_jump(last) {
                    match b + 1 < starts.len() {
                        true => succs.push(b + 1),
                        false => exits = true,
                    }
                }
                if let Some(t) = last.target {
                    let at = self.label_at[t.0 as usize];
                    match at < n {
                        true => succs.push(block_of(at)),
                        false => exits = true,
                    }
                }
                Block {
                    insts: starts[b]..end,
                    succs,
                    exits,
                }
            })
            .collect()
    }

    fn entry(&self, out: &mut Vec<(u32, u32)>) {
        out.extend((0..4 * self.temps).map(|u| (u, self.entry_value(u))));
    }

    fn reads(&self, ip: usize, out: &mut Vec<Read>) {
        let Step { ins, hw } = self.steps[ip];
        let Some(hw) = hw.map(|k| &self.insts[k]) else {
            // A self-move: its one source, through the allocation.
            let (Some((_, mask)), Some(op)) = (ins.dst, ins.src[2]) else {
                return;
            };
            let OperandKind::Value(v) = op.kind else {
                return;
            };
            for j in (0..4).filter(|j| mask & (1 << j) != 0) {
                let c = op.swz[j] & 3;
                if let Some(unit) = self.unit_of(v, c) {
                    out.push(Read {
                        unit,
                        value: 4 * v.0 + u32::from(c),
                        operand: 2,
                    });
                }
            }
            return;
        };
        for slot in 0..3 {
            let Some(op) = ins.src[slot] else { continue };
            let SrcKind::Reg(r) = hw.src[slot].kind else {
                continue;
            };
            if r.group != RegGroup::Temp {
                continue;
            }
            let Ok(map) = emit::channel_sources(ins, slot, self.alloc) else {
                continue;
            };
            for (pc, j) in map.iter().enumerate() {
                let Some(j) = *j else { continue };
                let unit = 4 * u32::from(r.reg) + r.swiz.component(pc) as u32;
                let value = match op.kind {
                    OperandKind::Value(v) => 4 * v.0 + u32::from(op.swz[j] & 3),
                    OperandKind::Fixed(_) => self.entry_value(unit),
                    _ => continue,
                };
                out.push(Read {
                    unit,
                    value,
                    operand: slot as u32,
                });
            }
        }
    }

    fn writes(&self, ip: usize, out: &mut Vec<Write>) {
        let Step { ins, hw } = self.steps[ip];
        let Some((d, mask)) = ins.dst else { return };
        let components = (0..4u8).filter(|j| mask & (1 << j) != 0);
        match hw.map(|k| &self.insts[k]) {
            // Value components in order land in the physical components in order (a
            // register type's component set is ascending).
            Some(hw) => {
                let physical = (0..4).filter(|c| hw.dst.mask & (1 << c) != 0);
                for (pc, j) in physical.zip(components) {
                    out.push(Write {
                        unit: 4 * u32::from(hw.dst.reg) + pc,
                        value: 4 * d.0 + u32::from(j),
                        partial: false,
                    });
                }
            }
            None => {
                for j in components {
                    if let Some(unit) = self.unit_of(d, j) {
                        out.push(Write {
                            unit,
                            value: 4 * d.0 + u32::from(j),
                            partial: false,
                        });
                    }
                }
            }
        }
    }

    fn exit_reads(&self, out: &mut Vec<Read>) {
        for (k, &o) in self.outputs.iter().enumerate() {
            let Some(reg) = self.alloc.regs[o.index()] else {
                continue;
            };
            for (j, pc) in reg.comps().into_iter().enumerate() {
                out.push(Read {
                    unit: 4 * u32::from(reg.base) + u32::from(pc),
                    value: 4 * o.0 + j as u32,
                    operand: k as u32,
                });
            }
        }
    }

    fn describe_inst(&self, ip: usize) -> String {
        match self.steps[ip].hw {
            Some(k) => format!("#{k} {}", isa::disassemble_inst(&self.insts[k])),
            None if self.steps[ip].ins.target.is_some() => "a jump left out".into(),
            None => "a self-move left out".into(),
        }
    }

    fn describe_value(&self, value: u32) -> String {
        if value >= self.entry_base() {
            let u = value - self.entry_base();
            return format!("{} on entry", self.describe_unit(u));
        }
        format!("v{}.{}", value / 4, XYZW[value as usize % 4])
    }

    fn describe_unit(&self, unit: u32) -> String {
        format!("t{}.{}", unit / 4, XYZW[unit as usize % 4])
    }
}

const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

/// Checks `insts`, emitted from `prog` with `alloc`, with the value check; `outputs` are
/// read after the program, and the core has `temps` temporaries. Instruction numbers in the
/// message count the self-moves left out too; `#k` is the emitted instruction.
pub fn check(
    prog: &Program,
    alloc: &Allocation,
    insts: &[isa::Inst],
    outputs: &[ValueId],
    temps: u32,
) -> Result<(), CompileError> {
    values::check(&FinalCode::new(prog, alloc, insts, outputs, temps)?)
        .map_err(|e| CompileError::Internal(format!("register allocation lost a value: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::etnaviv::compiler::{alloc, pipeline, regs::RegFile};
    use crate::etnaviv::specs::Specs;

    /// A fragment shader of a few arithmetic steps whose values die early, so its code
    /// reuses temporaries.
    const SHADER: &str = "shader: MESA_SHADER_FRAGMENT\ninputs: 1\noutputs: 1\nuniforms: 0\n\
        decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
        decl_function main (0 params)\n\n\
        impl main {\n    block b0:\n\
        32     %0 = load_const (0x00000000)\n\
        32x4   %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_COL0 slots=1)\n\
        32     %2 = fadd %1.x, %1.y\n\
        32     %3 = fmul %1.z, %1.w\n\
        32     %4 = fadd %2, %3\n\
        32     %5 = fmul %4, %1.x\n\
        32     %6 = fadd %5, %4\n\
        32     %7 = fmul %6, %6\n\
        32     %8 = deref_var &gl_FragColor (shader_out vec4)\n\
        32     %10 = load_const (0x3f800000)\n\
        32x4   %9 = vec4 %7, %6, %5, %10\n\
        @store_deref (%8, %9) (wrmask=xyzw, access=none)\n    block b1:\n}\n";

    /// The allocation of the emitted code passes the colouring check (as `allocate` runs
    /// it); moving an instruction above the last read of the temporary component it
    /// overwrites, as a post-allocation scheduler ignoring a write-after-read dependency
    /// would, changes no register of that allocation, so the colouring check has nothing new
    /// to look at. The value check names the read that lost its value.
    #[test]
    fn a_write_moved_above_a_read_of_its_component_is_rejected() {
        let specs = Specs::from_name("gc3000").unwrap();
        let shader = crate::nir::parse(SHADER).unwrap();
        let last = pipeline::PASSES.last().unwrap().name;
        let lowered = pipeline::prepare(specs, &shader, last).unwrap();
        let file = RegFile::new(specs.temp_count()).unwrap();
        let a = alloc::allocate(&lowered.program, &file).unwrap();
        let mut uniforms = lowered.uniforms.clone();
        let insts = emit::emit(&lowered.program, &a, &mut uniforms).unwrap();
        let outputs: Vec<ValueId> = lowered.outputs.iter().map(|o| o.value).collect();
        let p = &lowered.program;
        assert!(check(p, &a, &insts, &outputs, file.temps).is_ok());

        let good = FinalCode::new(p, &a, &insts, &outputs, file.temps).unwrap();
        let (mut rd, mut wr) = (Vec::new(), Vec::new());
        // The first read `r` of a unit that a later instruction `w` overwrites. Moved above
        // `r`, `w` reads its own sources before they are written, which the check lets
        // pass (a value not yet written on every path may be anything), so the first
        // complaint is `r`'s.
        let mut found = None;
        'search: for r in 0..good.steps.len() {
            rd.clear();
            values::FinalCode::reads(&good, r, &mut rd);
            for w in r + 1..good.steps.len() {
                wr.clear();
                values::FinalCode::writes(&good, w, &mut wr);
                if wr.iter().any(|x| rd.iter().any(|y| y.unit == x.unit)) {
                    found = Some((r, w));
                    break 'search;
                }
            }
        }
        let (r, w) = found.expect("the code reuses a temporary component");
        let mut steps = good.steps.clone();
        let moved = steps.remove(w);
        steps.insert(r, moved);
        let bad = FinalCode { steps, ..good };
        let Err(values::ValueError::Lost(lost)) = values::check(&bad) else {
            panic!("the moved write went unnoticed");
        };
        assert_eq!(lost.ip, Some(r + 1), "{}", lost.message);
        assert!(
            matches!(lost.found, values::Holds::Value { writer: Some(x), .. } if x == r),
            "{}",
            lost.message
        );
    }

    /// Emission writing an output's last components into another temporary: the driver
    /// reads the output register after the program and finds something else there.
    #[test]
    fn an_output_written_to_the_wrong_register_is_rejected() {
        let specs = Specs::from_name("gc3000").unwrap();
        let shader = crate::nir::parse(SHADER).unwrap();
        let last = pipeline::PASSES.last().unwrap().name;
        let lowered = pipeline::prepare(specs, &shader, last).unwrap();
        let file = RegFile::new(specs.temp_count()).unwrap();
        let a = alloc::allocate(&lowered.program, &file).unwrap();
        let mut uniforms = lowered.uniforms.clone();
        let mut insts = emit::emit(&lowered.program, &a, &mut uniforms).unwrap();
        let outputs: Vec<ValueId> = lowered.outputs.iter().map(|o| o.value).collect();
        let out_reg = a.regs[outputs[0].index()].unwrap().base;
        let last_out = insts
            .iter()
            .rposition(|i| i.dst.use_ && i.dst.reg == out_reg)
            .expect("the output is written");
        insts[last_out].dst.reg = (file.temps - 1) as u8;
        let err = check(&lowered.program, &a, &insts, &outputs, file.temps).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("the end of the program (output 0)")
                && msg.contains(&format!("from t{out_reg}.")),
            "{msg}"
        );
    }
}
