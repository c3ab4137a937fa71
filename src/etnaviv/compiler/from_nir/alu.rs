//! ALU ops: the component-wise ops that are one instruction, and the ones the core lacks,
//! lowered to short vector sequences. The `.x`-only ops go to [`super::scalar`], and moves
//! and modifiers first try [`super::source_mods`], which costs no instruction.
//!
//! [`Tr::alu`] dispatches: the one-instruction ops come from a table ([`Tr::direct`]), each
//! lowering that needs more than that has its own method below.

use super::{aligned, fbits, unsupported, Binding, Tr, R};
use crate::etnaviv::compiler::consts::UniformContent;
use crate::etnaviv::compiler::ir::{Instr, Operand, OperandKind, Shape};
use crate::etnaviv::compiler::CompileError;
use crate::etnaviv::isa::{Cond, DataType, Opcode};
use crate::nir::ir::AluInstr;
use crate::nir::opcodes::AluOp;

/// A component-wise NIR op that maps onto one hardware instruction.
struct Direct {
    op: Opcode,
    ty: DataType,
    cond: Cond,
    /// Which NIR source feeds each hardware source slot.
    slots: [Option<usize>; 3],
}

/// The ops that need integer instructions: rejected on cores without them rather than
/// silently computed in floating point.
fn is_integer_op(op: AluOp) -> bool {
    matches!(
        op,
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
    )
}

/// The write mask of all `n` components.
fn full_mask(n: u8) -> u8 {
    (1u8 << n) - 1
}

impl Tr<'_> {
    pub(super) fn alu(&mut self, a: &AluInstr) -> R<()> {
        let n = self.def(a.def)?.num_components;
        if matches!(a.op, AluOp::mov | AluOp::fneg | AluOp::fabs) && self.fold_modifier(a, n)? {
            return Ok(());
        }
        if is_integer_op(a.op) && !self.specs.has_integers() {
            return unsupported(format!("integer op {} on {}", a.op.name(), self.specs.name));
        }
        if let Some(direct) = self.direct(a.op) {
            return self.emit_direct(a, n, direct);
        }
        match a.op {
            AluOp::fneg | AluOp::fabs | AluOp::fsat => self.modified_mov(a, n),
            AluOp::ineg | AluOp::isub => self.int_negate(a, n),
            op if op.is_comparison32() => self.compare(a, n),
            AluOp::b2f32 | AluOp::b2i32 => self.bool_to_number(a, n),
            AluOp::ffloor | AluOp::fceil => self.floor_ceil(a, n),
            AluOp::fsign => self.sign(a, n),
            AluOp::fdot2 | AluOp::fdot3 | AluOp::fdot4 => self.dot(a, n),
            AluOp::vec2 | AluOp::vec3 | AluOp::vec4 => self.vec(a, n),
            AluOp::frcp
            | AluOp::frsq
            | AluOp::fexp2
            | AluOp::flog2
            | AluOp::fsqrt
            | AluOp::fsin
            | AluOp::fcos
            | AluOp::fpow
            | AluOp::fdiv => self.scalar_op(a, n),
            _ => unsupported(format!("ALU op {}", a.op.name())),
        }
    }

    /// NIR source `i` of `a` as an operand of an aligned op over `n` components.
    fn alu_src(&self, a: &AluInstr, i: usize, n: u8) -> R<Operand> {
        let src = a
            .srcs
            .get(i)
            .ok_or_else(|| CompileError::Invalid(format!("{} lacks source {i}", a.op.name())))?;
        self.operand(src.ssa, aligned(&src.swizzle, n))
    }

    /// The single instruction computing `op`, if there is one on this core (FLOOR, CEIL and
    /// SIGN exist only on some).
    fn direct(&self, op: AluOp) -> Option<Direct> {
        use Opcode as O;
        let f = DataType::F32;
        let t = Cond::True;
        let simple = |op: Opcode, ty: DataType, cond: Cond, slots: [Option<usize>; 3]| Direct {
            op,
            ty,
            cond,
            slots,
        };
        match op {
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
        }
    }

    fn emit_direct(&mut self, a: &AluInstr, n: u8, direct: Direct) -> R<()> {
        let mut src = [None; 3];
        for (k, slot) in direct.slots.iter().enumerate() {
            if let Some(i) = slot {
                src[k] = Some(self.alu_src(a, *i, n)?);
            }
        }
        let d = self.new_def(a.def)?;
        self.emit(
            direct.op,
            direct.ty,
            direct.cond,
            (d, full_mask(n)),
            src,
            Shape::Aligned,
        );
        Ok(())
    }

    /// `fneg`/`fabs` that could not be aliases, and `fsat`: a MOV with the modifier.
    fn modified_mov(&mut self, a: &AluInstr, n: u8) -> R<()> {
        let mut x = self.alu_src(a, 0, n)?;
        let d = self.new_def(a.def)?;
        match a.op {
            AluOp::fneg => x = x.negated(),
            AluOp::fabs => {
                x.abs = true;
                x.neg = false;
            }
            _ => {}
        }
        let mut i = Instr::new(Opcode::Mov, Shape::Aligned);
        i.sat = a.op == AluOp::fsat;
        i.dst = Some((d, full_mask(n)));
        i.src[2] = Some(x);
        self.p.push(i);
        Ok(())
    }

    /// `ineg` and `isub`: an integer ADD with the negate modifier on the second operand,
    /// which an integer instruction applies as integer negation. Float modifiers folded
    /// into the operands are computed first, and the ADD is pushed as it is.
    fn int_negate(&mut self, a: &AluInstr, n: u8) -> R<()> {
        let (x, y) = if a.op == AluOp::ineg {
            (Operand::splat(0), self.alu_src(a, 0, n)?)
        } else {
            (self.alu_src(a, 0, n)?, self.alu_src(a, 1, n)?)
        };
        let (x, y) = (self.plain(x), self.plain(y).negated());
        let d = self.new_def(a.def)?;
        self.push_instr(
            Opcode::Add,
            DataType::S32,
            Cond::True,
            (d, full_mask(n)),
            [Some(x), None, Some(y)],
            Shape::Aligned,
        );
        Ok(())
    }

    /// The 32-bit boolean compares: CMP selecting ~0 where the condition holds.
    fn compare(&mut self, a: &AluInstr, n: u8) -> R<()> {
        use AluOp::*;
        let cond = match a.op {
            flt32 | ilt32 | ult32 => Cond::Lt,
            fge32 | ige32 | uge32 => Cond::Ge,
            feq32 | ieq32 => Cond::Eq,
            _ => Cond::Ne,
        };
        let ty = match a.op {
            flt32 | fge32 | feq32 | fneu32 => DataType::F32,
            ilt32 | ige32 | ieq32 | ine32 => DataType::S32,
            _ => DataType::U32,
        };
        let (x, y) = (self.alu_src(a, 0, n)?, self.alu_src(a, 1, n)?);
        let d = self.new_def(a.def)?;
        self.emit(
            Opcode::Cmp,
            ty,
            cond,
            (d, full_mask(n)),
            [Some(x), Some(y), Some(Operand::splat(u32::MAX))],
            Shape::Aligned,
        );
        Ok(())
    }

    /// `b2f32`/`b2i32` of a 0/~0 boolean: an AND with the bits of 1.0 or 1.
    fn bool_to_number(&mut self, a: &AluInstr, n: u8) -> R<()> {
        let one = if a.op == AluOp::b2f32 { fbits(1.0) } else { 1 };
        let x = self.alu_src(a, 0, n)?;
        let d = self.new_def(a.def)?;
        self.emit(
            Opcode::And,
            DataType::U32,
            Cond::True,
            (d, full_mask(n)),
            [Some(x), None, Some(Operand::splat(one))],
            Shape::Aligned,
        );
        Ok(())
    }

    /// `ffloor`/`fceil` on cores without FLOOR/CEIL, from FRC:
    /// floor(x) = x - frc(x); ceil(x) = x + frc(-x).
    fn floor_ceil(&mut self, a: &AluInstr, n: u8) -> R<()> {
        use Opcode as O;
        let (f, t, al) = (DataType::F32, Cond::True, Shape::Aligned);
        let full = full_mask(n);
        let x = self.alu_src(a, 0, n)?;
        let tmp = self.temp(n);
        let fx = if a.op == AluOp::fceil { x.negated() } else { x };
        self.emit(O::Frc, f, t, (tmp, full), [None, None, Some(fx)], al);
        let d = self.new_def(a.def)?;
        let mut tv = Operand::value(tmp, [0, 1, 2, 3]);
        if a.op == AluOp::ffloor {
            tv = tv.negated();
        }
        self.emit(O::Add, f, t, (d, full), [Some(x), None, Some(tv)], al);
        Ok(())
    }

    /// `fsign` on cores without SIGN: (x > 0) - (x < 0), each a SET giving 1.0 or 0.0.
    fn sign(&mut self, a: &AluInstr, n: u8) -> R<()> {
        use Opcode as O;
        let (f, al) = (DataType::F32, Shape::Aligned);
        let full = full_mask(n);
        let x = self.alu_src(a, 0, n)?;
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
        self.emit(
            O::Add,
            f,
            Cond::True,
            (d, full),
            [Some(pv), None, Some(mv)],
            al,
        );
        Ok(())
    }

    /// Dot products: DP2/DP3/DP4, except `fdot2` on cores before HALTI2 (no DP2), which
    /// becomes MUL then MAD.
    fn dot(&mut self, a: &AluInstr, n: u8) -> R<()> {
        use Opcode as O;
        let (f, t, al) = (DataType::F32, Cond::True, Shape::Aligned);
        let full = full_mask(n);
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
        Ok(())
    }

    /// `vec2`/`vec3`/`vec4`: the channels that read constants and user uniforms gathered
    /// into one placed operand (as Mesa gathers them into one uniform slot), which is the
    /// vector itself when it reads nothing else; otherwise one MOV per distinct source,
    /// writing all the channels it feeds, unless [`Tr::write_into`] can have the source
    /// computed in place.
    fn vec(&mut self, a: &AluInstr, n: u8) -> R<()> {
        // Placed channels, grouped by the modifiers they carry (a constant has them in its
        // bits already): (neg, abs, mask, cells).
        let mut groups: Vec<(bool, bool, u8, [UniformContent; 4])> = Vec::new();
        for (c, src) in a.srcs.iter().enumerate().take(n as usize) {
            let op = self.operand(src.ssa, [src.swizzle[0]; 4])?;
            let OperandKind::Const(cells) = op.kind else {
                continue;
            };
            match groups.iter_mut().find(|g| (g.0, g.1) == (op.neg, op.abs)) {
                Some(g) => {
                    g.2 |= 1 << c;
                    g.3[c] = cells[0];
                }
                None => groups.push((op.neg, op.abs, 1 << c, [cells[0]; 4])),
            }
        }
        if let [(neg, abs, mask, cells)] = groups[..] {
            if mask == (1u8 << n) - 1 {
                self.bind[a.def.0 as usize] = Some(Binding::Src {
                    kind: OperandKind::Const(cells),
                    swz: [0, 1, 2, 3],
                    neg,
                    abs,
                });
                return Ok(());
            }
        }
        let d = self.new_def(a.def)?;
        // The gathered MOVs come last: they read nothing that is live, so the vector's
        // other sources (an input taken over in place, say) go first.
        groups.retain(|g| g.2.count_ones() >= 2);
        let mut done = groups.iter().fold(0u8, |m, g| m | g.2);
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
            if self.write_into(ssa, mask.count_ones(), d, mask, comps, true) {
                continue;
            }
            let op = self.operand(ssa, comps)?;
            self.mov((d, mask), op);
        }
        for (neg, abs, mask, cells) in groups {
            let op = Operand {
                kind: OperandKind::Const(cells),
                swz: [0, 1, 2, 3],
                neg,
                abs,
            };
            self.mov((d, mask), op);
        }
        Ok(())
    }
}
