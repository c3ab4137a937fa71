//! ALU ops: the component-wise ops that are one instruction, and the ones the core lacks,
//! lowered to short vector sequences. The `.x`-only ops go to [`super::scalar`], and moves
//! and modifiers first try [`super::coalesce`], which costs no instruction.

use super::{aligned, fbits, unsupported, Tr, R};
use crate::etnaviv::compiler::ir::{Instr, Operand, Shape};
use crate::etnaviv::compiler::CompileError;
use crate::etnaviv::isa::{Cond, DataType, Opcode};
use crate::nir::ir::AluInstr;
use crate::nir::opcodes::AluOp;

impl Tr<'_> {
    pub(super) fn alu(&mut self, a: &AluInstr) -> R<()> {
        use Opcode as O;
        let name = a.op.name();
        let n = self.def(a.def)?.num_components;
        let full = (1u8 << n) - 1;
        let s = |t: &Self, i: usize| -> R<Operand> {
            let src = a
                .srcs
                .get(i)
                .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {i}")))?;
            t.operand(src.ssa, aligned(&src.swizzle, n))
        };
        let int_op = matches!(
            a.op,
            AluOp::iadd
                | AluOp::isub
                | AluOp::imul
                | AluOp::iand
                | AluOp::ior
                | AluOp::ixor
                | AluOp::inot
                | AluOp::ineg
                | AluOp::ieq32
                | AluOp::ine32
                | AluOp::ilt32
                | AluOp::ige32
                | AluOp::ult32
                | AluOp::uge32
                | AluOp::flt32
                | AluOp::fge32
                | AluOp::feq32
                | AluOp::fneu32
                | AluOp::f2i32
                | AluOp::f2u32
                | AluOp::i2f32
                | AluOp::u2f32
                | AluOp::b2f32
                | AluOp::b2i32
                | AluOp::imax
                | AluOp::imin
                | AluOp::umax
                | AluOp::umin
                | AluOp::ishl
                | AluOp::ishr
                | AluOp::ushr
                | AluOp::b32csel
        );
        if matches!(a.op, AluOp::mov | AluOp::fneg | AluOp::fabs) && self.alias(a, n)? {
            return Ok(());
        }
        if int_op && !self.specs.has_integers() {
            return unsupported(format!("integer op {name} on {}", self.specs.name));
        }
        let f = DataType::F32;
        let t = Cond::True;
        let al = Shape::Aligned;
        let simple =
            |op: Opcode, ty: DataType, cond: Cond, slots: [Option<usize>; 3]| (op, ty, cond, slots);
        // Component-wise ops that map onto one instruction: (opcode, type, condition, which
        // NIR source feeds each hardware slot).
        let one = match a.op {
            AluOp::fmul => Some(simple(O::Mul, f, t, [Some(0), Some(1), None])),
            AluOp::fadd => Some(simple(O::Add, f, t, [Some(0), None, Some(1)])),
            AluOp::ffma => Some(simple(O::Mad, f, t, [Some(0), Some(1), Some(2)])),
            AluOp::mov => Some(simple(O::Mov, f, t, [None, None, Some(0)])),
            AluOp::fmax => Some(simple(O::Select, f, Cond::Lt, [Some(0), Some(1), Some(0)])),
            AluOp::fmin => Some(simple(O::Select, f, Cond::Gt, [Some(0), Some(1), Some(0)])),
            AluOp::imax => Some(simple(
                O::Select,
                DataType::S32,
                Cond::Lt,
                [Some(0), Some(1), Some(0)],
            )),
            AluOp::imin => Some(simple(
                O::Select,
                DataType::S32,
                Cond::Gt,
                [Some(0), Some(1), Some(0)],
            )),
            AluOp::umax => Some(simple(
                O::Select,
                DataType::U32,
                Cond::Lt,
                [Some(0), Some(1), Some(0)],
            )),
            AluOp::umin => Some(simple(
                O::Select,
                DataType::U32,
                Cond::Gt,
                [Some(0), Some(1), Some(0)],
            )),
            AluOp::slt => Some(simple(O::Set, f, Cond::Lt, [Some(0), Some(1), None])),
            AluOp::sge => Some(simple(O::Set, f, Cond::Ge, [Some(0), Some(1), None])),
            AluOp::seq => Some(simple(O::Set, f, Cond::Eq, [Some(0), Some(1), None])),
            AluOp::sne => Some(simple(O::Set, f, Cond::Ne, [Some(0), Some(1), None])),
            AluOp::fcsel => Some(simple(O::Select, f, Cond::Nz, [Some(0), Some(1), Some(2)])),
            AluOp::b32csel => Some(simple(
                O::Select,
                DataType::U32,
                Cond::Nz,
                [Some(0), Some(1), Some(2)],
            )),
            AluOp::ffract => Some(simple(O::Frc, f, t, [None, None, Some(0)])),
            AluOp::ffloor if self.specs.has_sign_floor_ceil() => {
                Some(simple(O::Floor, f, t, [None, None, Some(0)]))
            }
            AluOp::fceil if self.specs.has_sign_floor_ceil() => {
                Some(simple(O::Ceil, f, t, [None, None, Some(0)]))
            }
            AluOp::fsign if self.specs.has_sign_floor_ceil() => {
                Some(simple(O::Sign, f, t, [None, None, Some(0)]))
            }
            AluOp::fddx => Some(simple(O::Dsx, f, t, [Some(0), None, Some(0)])),
            AluOp::fddy => Some(simple(O::Dsy, f, t, [Some(0), None, Some(0)])),
            AluOp::iadd => Some(simple(O::Add, DataType::S32, t, [Some(0), None, Some(1)])),
            AluOp::imul => Some(simple(
                O::Imullo0,
                DataType::S32,
                t,
                [Some(0), Some(1), None],
            )),
            AluOp::iand => Some(simple(O::And, DataType::U32, t, [Some(0), None, Some(1)])),
            AluOp::ior => Some(simple(O::Or, DataType::U32, t, [Some(0), None, Some(1)])),
            AluOp::ixor => Some(simple(O::Xor, DataType::U32, t, [Some(0), None, Some(1)])),
            AluOp::inot => Some(simple(O::Not, DataType::U32, t, [None, None, Some(0)])),
            AluOp::ishl => Some(simple(
                O::Lshift,
                DataType::U32,
                t,
                [Some(0), None, Some(1)],
            )),
            AluOp::ishr => Some(simple(
                O::Rshift,
                DataType::S32,
                t,
                [Some(0), None, Some(1)],
            )),
            AluOp::ushr => Some(simple(
                O::Rshift,
                DataType::U32,
                t,
                [Some(0), None, Some(1)],
            )),
            AluOp::f2i32 => Some(simple(O::F2i, DataType::S32, t, [Some(0), None, None])),
            AluOp::f2u32 => Some(simple(O::F2i, DataType::U32, t, [Some(0), None, None])),
            AluOp::i2f32 => Some(simple(O::I2f, DataType::S32, t, [Some(0), None, None])),
            AluOp::u2f32 => Some(simple(O::I2f, DataType::U32, t, [Some(0), None, None])),
            _ => None,
        };
        if let Some((op, ty, cond, slots)) = one {
            let mut src = [None; 3];
            for (k, slot) in slots.iter().enumerate() {
                if let Some(i) = slot {
                    src[k] = Some(s(self, *i)?);
                }
            }
            let d = self.new_def(a.def)?;
            self.emit(op, ty, cond, (d, full), src, al);
            return Ok(());
        }
        let minus_one = Operand::splat(u32::MAX);
        match a.op {
            AluOp::fneg | AluOp::fabs | AluOp::fsat => {
                let mut x = s(self, 0)?;
                let d = self.new_def(a.def)?;
                match a.op {
                    AluOp::fneg => x = x.negated(),
                    AluOp::fabs => {
                        x.abs = true;
                        x.neg = false;
                    }
                    _ => {}
                }
                let mut i = Instr::new(O::Mov, al);
                i.sat = a.op == AluOp::fsat;
                i.dst = Some((d, full));
                i.src[2] = Some(x);
                self.p.push(i);
            }
            AluOp::ineg => {
                let x = s(self, 0)?.negated();
                let d = self.new_def(a.def)?;
                self.emit(
                    O::Add,
                    DataType::S32,
                    t,
                    (d, full),
                    [Some(Operand::splat(0)), None, Some(x)],
                    al,
                );
            }
            AluOp::isub => {
                let (x, y) = (s(self, 0)?, s(self, 1)?.negated());
                let d = self.new_def(a.def)?;
                self.emit(
                    O::Add,
                    DataType::S32,
                    t,
                    (d, full),
                    [Some(x), None, Some(y)],
                    al,
                );
            }
            AluOp::flt32
            | AluOp::fge32
            | AluOp::feq32
            | AluOp::fneu32
            | AluOp::ilt32
            | AluOp::ige32
            | AluOp::ieq32
            | AluOp::ine32
            | AluOp::ult32
            | AluOp::uge32 => {
                use AluOp::*;
                let cond = match a.op {
                    flt32 | ilt32 | ult32 => Cond::Lt,
                    fge32 | ige32 | uge32 => Cond::Ge,
                    feq32 | ieq32 => Cond::Eq,
                    _ => Cond::Ne,
                };
                let ty = match a.op {
                    flt32 | fge32 | feq32 | fneu32 => f,
                    ilt32 | ige32 | ieq32 | ine32 => DataType::S32,
                    _ => DataType::U32,
                };
                let (x, y) = (s(self, 0)?, s(self, 1)?);
                let d = self.new_def(a.def)?;
                self.emit(
                    O::Cmp,
                    ty,
                    cond,
                    (d, full),
                    [Some(x), Some(y), Some(minus_one)],
                    al,
                );
            }
            AluOp::b2f32 | AluOp::b2i32 => {
                let one = if a.op == AluOp::b2f32 { fbits(1.0) } else { 1 };
                let x = s(self, 0)?;
                let d = self.new_def(a.def)?;
                self.emit(
                    O::And,
                    DataType::U32,
                    t,
                    (d, full),
                    [Some(x), None, Some(Operand::splat(one))],
                    al,
                );
            }
            AluOp::ffloor | AluOp::fceil => {
                // floor(x) = x - frc(x); ceil(x) = x + frc(-x).
                let x = s(self, 0)?;
                let tmp = self.temp(n);
                let fx = if a.op == AluOp::fceil { x.negated() } else { x };
                self.emit(O::Frc, f, t, (tmp, full), [None, None, Some(fx)], al);
                let d = self.new_def(a.def)?;
                let mut tv = Operand::value(tmp, [0, 1, 2, 3]);
                if a.op == AluOp::ffloor {
                    tv = tv.negated();
                }
                self.emit(O::Add, f, t, (d, full), [Some(x), None, Some(tv)], al);
            }
            AluOp::fsign => {
                let x = s(self, 0)?;
                let zero = Operand::splat(0);
                let (p, m) = (self.temp(n), self.temp(n));
                self.emit(
                    O::Set,
                    f,
                    Cond::Gt,
                    (p, full),
                    [Some(x), Some(zero), None],
                    al,
                );
                self.emit(
                    O::Set,
                    f,
                    Cond::Lt,
                    (m, full),
                    [Some(x), Some(zero), None],
                    al,
                );
                let d = self.new_def(a.def)?;
                let pv = Operand::value(p, [0, 1, 2, 3]);
                let mv = Operand::value(m, [0, 1, 2, 3]).negated();
                self.emit(O::Add, f, t, (d, full), [Some(pv), None, Some(mv)], al);
            }
            AluOp::fdot2 | AluOp::fdot3 | AluOp::fdot4 => {
                let k = a.op.info().input_sizes[0];
                let src = |t: &Self, i: usize| -> R<Operand> {
                    let sw = a.srcs[i].swizzle;
                    t.operand(a.srcs[i].ssa, [sw[0], sw[1], sw[2], sw[3]])
                };
                let (x, y) = (src(self, 0)?, src(self, 1)?);
                if k == 2 && !self.specs.has_halti2_instructions() {
                    let tmp = self.temp(1);
                    let (x0, y0) = (x.remap([0; 4]), y.remap([0; 4]));
                    let (x1, y1) = (x.remap([1; 4]), y.remap([1; 4]));
                    self.emit(O::Mul, f, t, (tmp, 1), [Some(x0), Some(y0), None], al);
                    let d = self.new_def(a.def)?;
                    let tv = Operand::value(tmp, [0; 4]);
                    self.emit(O::Mad, f, t, (d, full), [Some(x1), Some(y1), Some(tv)], al);
                } else {
                    let op = match k {
                        2 => O::Dp2,
                        3 => O::Dp3,
                        _ => O::Dp4,
                    };
                    let d = self.new_def(a.def)?;
                    self.emit(
                        op,
                        f,
                        t,
                        (d, full),
                        [Some(x), Some(y), None],
                        Shape::Broadcast(k),
                    );
                }
            }
            AluOp::vec2 | AluOp::vec3 | AluOp::vec4 => {
                let d = self.new_def(a.def)?;
                let mut done = 0u8;
                for c in 0..n as usize {
                    if done & (1 << c) != 0 {
                        continue;
                    }
                    let ssa = a.srcs[c].ssa;
                    let mut mask = 0u8;
                    let mut comps = [a.srcs[c].swizzle[0]; 4];
                    for (k, src) in a.srcs.iter().enumerate().take(n as usize) {
                        if src.ssa == ssa {
                            mask |= 1 << k;
                            comps[k] = src.swizzle[0];
                        }
                    }
                    done |= mask;
                    if self.write_into(ssa, d, mask, comps) {
                        continue;
                    }
                    let op = self.operand(ssa, comps)?;
                    self.mov((d, mask), op);
                }
            }
            AluOp::frcp
            | AluOp::frsq
            | AluOp::fexp2
            | AluOp::flog2
            | AluOp::fsqrt
            | AluOp::fsin
            | AluOp::fcos
            | AluOp::fpow
            | AluOp::fdiv => self.scalar_op(a, n)?,
            _ => return unsupported(format!("ALU op {name}")),
        }
        Ok(())
    }
}
