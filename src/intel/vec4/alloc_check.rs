//! The vec4 program as the value check sees it ([`crate::ra::values`]).
//!
//! [`ra::check`](crate::ra::check) proves that the allocator coloured its graph correctly,
//! which is only as good as the graph: an edge left out while building it (a liveness bug)
//! passes. This check runs on the program as code generation takes it, after spilling and
//! with the allocation applied (one IR instruction is one hardware instruction, and codegen
//! puts virtual register `v` in GRF `regs[v]`), and looks at neither graph nor liveness.
//!
//! A unit is one component of a GRF (both vertices' copies of it: a SIMD4x2 write mask
//! covers the component for both); a value is one component of a virtual register, or what
//! a payload or message register holds (the registers below `first_free` hold theirs on
//! entry). Writes under a predicate (but SEL's) are partial. The paths are those of SIMD
//! execution ([`build_simd_cfg`](crate::intel::flow::build_simd_cfg)): the two vertices of a
//! thread may take different branches.

use crate::intel::eu::Opcode;
use crate::intel::flow::value_check_blocks;
use crate::ra::values::{self, Block, Read, Write};

use super::ir::{File, Op, Program};

/// GRFs of the register file.
const GRFS: u32 = 128;

/// The program with virtual register `v` in GRF `regs[v]`.
pub struct FinalCode<'a> {
    prog: &'a Program,
    regs: &'a [u32],
    attr_base: u32,
    first_free: u32,
    uniform_base: u32,
}

impl<'a> FinalCode<'a> {
    /// `prog` with virtual register `v` in GRF `regs[v]`, vertex elements from GRF
    /// `attr_base`; the payload occupies the GRFs below `first_free`.
    pub fn new(
        prog: &'a Program,
        regs: &'a [u32],
        attr_base: u32,
        first_free: u32,
    ) -> FinalCode<'a> {
        FinalCode {
            prog,
            regs,
            attr_base,
            first_free,
            uniform_base: 1,
        }
    }

    /// The same with push constants from GRF `base` (a geometry thread's primitive ids
    /// come first).
    pub fn with_uniform_base(self, base: u32) -> FinalCode<'a> {
        FinalCode {
            uniform_base: base,
            ..self
        }
    }

    /// The value number of what GRF component `unit` holds by number (payload, message
    /// registers).
    fn fixed(&self, unit: u32) -> u32 {
        4 * self.prog.num_vgrfs + unit
    }

    /// The first unit and value of register `nr` of `file`, for the files the check follows
    /// (a push-constant vec4 is half a GRF; both halves of its components count).
    fn place(&self, file: File, nr: u32) -> Option<(u32, u32)> {
        match file {
            File::Vgrf => {
                let grf = *self.regs.get(nr as usize)?;
                Some((4 * grf, 4 * nr))
            }
            File::Fixed => Some((4 * nr, self.fixed(4 * nr))),
            File::Attr => Some((
                4 * (self.attr_base + nr),
                self.fixed(4 * (self.attr_base + nr)),
            )),
            File::Uniform => {
                let grf = self.uniform_base + nr / 2;
                Some((4 * grf, self.fixed(4 * grf)))
            }
            File::Patch => {
                let grf = self.attr_base + nr / 2;
                Some((4 * grf, self.fixed(4 * grf)))
            }
            File::Imm | File::Null => None,
        }
    }
}

impl values::FinalCode for FinalCode<'_> {
    fn units(&self) -> u32 {
        4 * GRFS
    }

    fn values(&self) -> u32 {
        self.fixed(4 * GRFS)
    }

    fn blocks(&self) -> Vec<Block> {
        value_check_blocks(&self.prog.insts)
    }

    fn entry(&self, out: &mut Vec<(u32, u32)>) {
        out.extend((0..4 * self.first_free.min(GRFS)).map(|u| (u, self.fixed(u))));
    }

    fn reads(&self, ip: usize, out: &mut Vec<Read>) {
        let inst = &self.prog.insts[ip];
        for (i, s) in inst.src.iter().enumerate() {
            let Some((unit, value)) = self.place(s.file, s.nr) else {
                continue;
            };
            let read = inst.components_read(i);
            for c in (0..4).filter(|c| read >> c & 1 != 0) {
                out.push(Read {
                    unit: unit + c,
                    value: value + c,
                    operand: i as u32,
                });
            }
        }
    }

    fn writes(&self, ip: usize, out: &mut Vec<Write>) {
        let inst = &self.prog.insts[ip];
        let Some((unit, value)) = self.place(inst.dst.file, inst.dst.nr) else {
            return;
        };
        let partial = inst.pred.is_some() && inst.op != Op::Alu(Opcode::Sel);
        for c in (0..4).filter(|c| inst.dst.writemask & (1 << c) != 0) {
            out.push(Write {
                unit: unit + c,
                value: value + c,
                partial,
            });
        }
    }

    fn describe_inst(&self, ip: usize) -> String {
        self.prog.insts[ip].to_string()
    }

    fn describe_value(&self, value: u32) -> String {
        let xyzw = |c: u32| ['x', 'y', 'z', 'w'][c as usize % 4];
        if value >= self.fixed(0) {
            let u = value - self.fixed(0);
            return format!("g{}.{}", u / 4, xyzw(u));
        }
        format!("v{}.{}", value / 4, xyzw(value))
    }

    fn describe_unit(&self, unit: u32) -> String {
        format!("g{}.{}", unit / 4, ['x', 'y', 'z', 'w'][unit as usize % 4])
    }
}

/// Checks `prog` with virtual register `v` in GRF `regs[v]`, vertex elements from GRF
/// `attr_base` and the payload below `first_free` with the value check.
pub fn check(
    prog: &Program,
    regs: &[u32],
    (uniform_base, attr_base): (u32, u32),
    first_free: u32,
) -> Result<(), values::ValueError> {
    if regs.len() < prog.num_vgrfs as usize {
        return Err(values::ValueError::OutOfFile {
            ip: None,
            unit: 4 * GRFS,
        });
    }
    values::check(
        &FinalCode::new(prog, regs, attr_base, first_free).with_uniform_base(uniform_base),
    )
}
