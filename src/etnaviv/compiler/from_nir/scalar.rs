//! The ops the hardware computes on `.x` only (RCP, RSQ, EXP, LOG, SIN, COS, SQRT), and the
//! `fdiv`/`fpow`/`fsqrt` sequences built from them: one instruction or short sequence per
//! NIR component. On fast-transcendental cores LOG/SIN/COS write a mantissa and a power of
//! two that must be multiplied, unless Mesa's NIR already does it (the two-part form).

use super::{unsupported, Binding, Tr, R};
use crate::etnaviv::compiler::dialect;
use crate::etnaviv::compiler::ir::{Operand, Shape, ValueId, ValueKind};
use crate::etnaviv::isa::{Cond, DataType, Opcode};
use crate::nir::ir::AluInstr;
use crate::nir::opcodes::AluOp;

impl Tr<'_> {
    /// The `.x`-only ops, one instruction (or short sequence) per component.
    pub(super) fn scalar_op(&mut self, a: &AluInstr, n: u8) -> R<()> {
        use Opcode as O;
        let name = a.op.name();
        if dialect::is_two_part(self.specs, self.imp, a) {
            return self.two_part_def(a);
        }
        // Sine and cosine arguments Mesa already scaled to the hardware's unit.
        let prescaled = matches!(a.op, AluOp::fsin | AluOp::fcos)
            && dialect::prescaled_operand(self.specs, self.imp, &a.srcs[0], n as usize).is_some();
        let d = self.new_def(a.def)?;
        let f = DataType::F32;
        for j in 0..n {
            let src = |t: &Self, i: usize| -> R<Operand> {
                t.operand(a.srcs[i].ssa, [a.srcs[i].swizzle[j as usize]; 4])
            };
            let x = src(self, 0)?;
            let dst = (d, 1u8 << j);
            match a.op {
                AluOp::frcp => self.unary(O::Rcp, dst, x),
                AluOp::frsq => self.unary(O::Rsq, dst, x),
                AluOp::fexp2 => self.unary(O::Exp, dst, x),
                AluOp::fsqrt if self.specs.has_sin_cos_sqrt() => self.unary(O::Sqrt, dst, x),
                AluOp::fsqrt => {
                    let tmp = self.temp(1);
                    self.unary(O::Rsq, (tmp, 1), x);
                    self.unary(O::Rcp, dst, Operand::value(tmp, [0; 4]));
                }
                AluOp::flog2 => self.two_part(O::Log, dst, x),
                AluOp::fsin | AluOp::fcos => {
                    if !self.specs.has_sin_cos_sqrt() {
                        return unsupported(format!("{name} on a core without SIN/COS"));
                    }
                    let op = if a.op == AluOp::fsin { O::Sin } else { O::Cos };
                    if prescaled {
                        self.two_part(op, dst, x);
                        continue;
                    }
                    let x = self.trig_prescale(x);
                    self.two_part(op, dst, x);
                }
                AluOp::fpow => {
                    let y = src(self, 1)?;
                    let l = self.temp(1);
                    self.two_part(O::Log, (l, 1), x);
                    let m = self.temp(1);
                    self.emit(
                        O::Mul,
                        f,
                        Cond::True,
                        (m, 1),
                        [Some(Operand::value(l, [0; 4])), Some(y), None],
                        Shape::Aligned,
                    );
                    self.unary(O::Exp, dst, Operand::value(m, [0; 4]));
                }
                AluOp::fdiv => {
                    let y = src(self, 1)?;
                    let r = self.temp(1);
                    self.unary(O::Rcp, (r, 1), y);
                    self.emit(
                        O::Mul,
                        f,
                        Cond::True,
                        dst,
                        [Some(x), Some(Operand::value(r, [0; 4])), None],
                        Shape::Aligned,
                    );
                }
                _ => return unsupported(format!("ALU op {name}")),
            }
        }
        Ok(())
    }

    /// A two-part `flog2`/`fsin`/`fcos` of Mesa's lowering (see [`dialect`]): the bare
    /// hardware instruction writing mantissa and power of two to a contiguous pair, which the
    /// NIR's own `fmul %t.x, %t.y` then combines.
    fn two_part_def(&mut self, a: &AluInstr) -> R<()> {
        use Opcode as O;
        let src = &a.srcs[0];
        let mut x = self.operand(src.ssa, [src.swizzle[0]; 4])?;
        if matches!(a.op, AluOp::fsin | AluOp::fcos)
            && dialect::prescaled_operand(self.specs, self.imp, src, 2).is_none()
        {
            x = self.trig_prescale(x);
        }
        let op = match a.op {
            AluOp::flog2 => O::Log,
            AluOp::fsin => O::Sin,
            _ => O::Cos,
        };
        let pair = self.p.new_value(2, ValueKind::Pair);
        self.bind[a.def.0 as usize] = Some(Binding::value(pair, 0));
        self.unary(op, (pair, 0b11), x);
        Ok(())
    }

    /// `x` scaled into a temporary for the core's SIN/COS input range, for NIR that did not
    /// scale it itself (see [`dialect::trig_prescale`]).
    fn trig_prescale(&mut self, x: Operand) -> Operand {
        let tmp = self.temp(1);
        self.emit(
            Opcode::Mul,
            DataType::F32,
            Cond::True,
            (tmp, 1),
            [
                Some(x),
                Some(Operand::splat(dialect::trig_prescale(self.specs))),
                None,
            ],
            Shape::Aligned,
        );
        Operand::value(tmp, [0; 4])
    }

    fn unary(&mut self, op: Opcode, dst: (ValueId, u8), x: Operand) {
        self.emit(
            op,
            DataType::F32,
            Cond::True,
            dst,
            [None, None, Some(x)],
            Shape::Broadcast(1),
        );
    }

    /// LOG/SIN/COS: on fast-transcendental cores the result comes as a mantissa and a power
    /// of two in a contiguous pair, multiplied together afterwards.
    fn two_part(&mut self, op: Opcode, dst: (ValueId, u8), x: Operand) {
        if !self.specs.has_new_transcendentals() {
            self.unary(op, dst, x);
            return;
        }
        let pair = self.p.new_value(2, ValueKind::Pair);
        self.unary(op, (pair, 0b11), x);
        let m = Operand::value(pair, [0; 4]);
        let e = Operand::value(pair, [1; 4]);
        self.emit(
            Opcode::Mul,
            DataType::F32,
            Cond::True,
            dst,
            [Some(m), Some(e), None],
            Shape::Aligned,
        );
    }
}
