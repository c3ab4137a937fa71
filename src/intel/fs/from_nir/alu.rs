//! ALU operations. Each component of a NIR ALU result becomes one instruction (or a short
//! sequence) on full-width registers; immediates are moved into registers only where the
//! hardware cannot read them, and comparisons swap their operands (and condition) rather
//! than spend a move on a leading constant.

use crate::intel::eu::{CondMod, MathFn, Opcode, RegType, Region};
use crate::nir::{self, AluOp};

use super::super::ir::{File, Op, Reg};
use super::{unsupported, CompileError, Translator};

impl Translator<'_> {
    pub(super) fn emit_alu(&mut self, a: &nir::AluInstr) -> Result<(), CompileError> {
        let (ncomp, bits) = self.def_info(a.def)?;
        let name = a.op.name();
        if a.op == AluOp::u2u64 {
            return self.emit_u2u64(a);
        }
        if bits == 64
            || a.srcs
                .iter()
                .any(|s| self.def_info(s.ssa).map(|d| d.1 == 64).unwrap_or(false))
        {
            return Err(unsupported(format!("64-bit ALU op {name}")));
        }
        if bits == 16 || bits == 8 {
            return Err(unsupported(format!("{bits}-bit ALU op {name}")));
        }
        let src_at = |t: &Self, i: usize, c: usize| -> Result<Reg, CompileError> {
            let s = a
                .srcs
                .get(i)
                .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {i}")))?;
            t.comp(s.ssa, s.swizzle[c] as usize)
        };
        // Vector constructors and per-component ops.
        if a.op.is_vector_constructor() {
            let mut regs = Vec::new();
            for i in 0..a.srcs.len() {
                let s = src_at(self, i, 0)?;
                let d = self.vgrf(RegType::UD);
                self.alu(Opcode::Mov, d, vec![s.retype(RegType::UD)]);
                regs.push(d);
            }
            self.set(a.def, regs);
            return Ok(());
        }
        let mut out = Vec::with_capacity(ncomp as usize);
        for c in 0..ncomp as usize {
            let nsrc = a.srcs.len();
            let mut s = Vec::with_capacity(nsrc);
            for i in 0..nsrc {
                s.push(src_at(self, i, c)?);
            }
            out.push(self.emit_alu_scalar(a.op, &s)?);
        }
        self.set(a.def, out);
        Ok(())
    }

    fn emit_alu_scalar(&mut self, op: AluOp, s: &[Reg]) -> Result<Reg, CompileError> {
        let name = op.name();
        use RegType::{D, F, UD};
        let f = |r: Reg| r.retype(F);
        let d = |r: Reg| r.retype(D);
        let ud = |r: Reg| r.retype(UD);
        let arg = |i: usize| -> Result<Reg, CompileError> {
            s.get(i)
                .copied()
                .ok_or_else(|| CompileError::Invalid(format!("{name} lacks source {i}")))
        };
        let unary = |t: &mut Self, op: Opcode, ty: RegType, src: Reg| -> Reg {
            let dst = t.vgrf(ty);
            t.alu(op, dst, vec![src]);
            dst
        };
        let binary =
            |t: &mut Self, op: Opcode, ty: RegType, a: Reg, b: Reg, commutes: bool| -> Reg {
                let (a, b) = if a.file == File::Imm && b.file != File::Imm && commutes {
                    (b, a)
                } else {
                    (t.in_grf(a), b)
                };
                let dst = t.vgrf(ty);
                t.alu(op, dst, vec![a, b]);
                dst
            };
        let cmp = |t: &mut Self, ty: RegType, a: Reg, b: Reg, cm: CondMod| -> Reg {
            let (a, b, cm) = if a.file == File::Imm && b.file != File::Imm {
                (b, a, swap_cond(cm))
            } else {
                (t.in_grf(a), b, cm)
            };
            let dst = t.vgrf(ty);
            let i = t.alu(Opcode::Cmp, dst, vec![a.retype(ty), b.retype(ty)]);
            i.cmod = cm;
            dst.retype(D)
        };
        let sel = |t: &mut Self, ty: RegType, a: Reg, b: Reg, cm: CondMod| -> Reg {
            let (a, b) = if a.file == File::Imm && b.file != File::Imm {
                (b, a)
            } else {
                (t.in_grf(a), b)
            };
            let dst = t.vgrf(ty);
            let i = t.alu(Opcode::Sel, dst, vec![a.retype(ty), b.retype(ty)]);
            i.cmod = cm;
            dst
        };
        let math = |t: &mut Self, m: MathFn, ty: RegType, srcs: Vec<Reg>| -> Reg {
            let srcs: Vec<Reg> = srcs.into_iter().map(|r| t.in_grf(r.retype(ty))).collect();
            let dst = t.vgrf(ty);
            t.push(Op::Math(m), dst, srcs);
            dst
        };
        let three = |t: &mut Self, op: Opcode, a: Reg, b: Reg, c: Reg| -> Reg {
            let a = t.in_grf(f(a));
            let b = t.in_grf(f(b));
            let c = t.in_grf(f(c));
            let dst = t.vgrf(F);
            t.alu(op, dst, vec![a, b, c]);
            dst
        };
        let r = match op {
            AluOp::mov => unary(self, Opcode::Mov, UD, ud(arg(0)?)),
            AluOp::fneg => unary(self, Opcode::Mov, F, f(arg(0)?).negate()),
            AluOp::fabs => unary(self, Opcode::Mov, F, f(arg(0)?).absolute()),
            AluOp::fsat => {
                let dst = self.vgrf(F);
                let src = f(arg(0)?);
                self.alu(Opcode::Mov, dst, vec![src]).sat = true;
                dst
            }
            AluOp::ineg => unary(self, Opcode::Mov, D, d(arg(0)?).negate()),
            AluOp::iabs => unary(self, Opcode::Mov, D, d(arg(0)?).absolute()),
            AluOp::inot => unary(self, Opcode::Not, D, d(arg(0)?)),
            AluOp::fadd => binary(self, Opcode::Add, F, f(arg(0)?), f(arg(1)?), true),
            AluOp::fmul => binary(self, Opcode::Mul, F, f(arg(0)?), f(arg(1)?), true),
            AluOp::iadd => binary(self, Opcode::Add, D, d(arg(0)?), d(arg(1)?), true),
            AluOp::isub => {
                let b = d(arg(1)?);
                let neg_b = if b.file == File::Imm {
                    Reg::imm(D, (b.imm as u32).wrapping_neg())
                } else {
                    b.negate()
                };
                binary(self, Opcode::Add, D, d(arg(0)?), neg_b, false)
            }
            AluOp::imul => binary(self, Opcode::Mul, D, d(arg(0)?), d(arg(1)?), true),
            AluOp::imul_32x16 => {
                let b = arg(1)?;
                let lo = if b.file == File::Imm {
                    Reg::imm(RegType::W, (b.imm as u32) & 0xffff)
                } else {
                    Reg {
                        ty: RegType::W,
                        stride: if b.stride == 0 { 0 } else { 2 },
                        ..b
                    }
                };
                let a0 = self.in_grf(d(arg(0)?));
                let dst = self.vgrf(D);
                self.alu(Opcode::Mul, dst, vec![a0, lo]);
                dst
            }
            AluOp::iand => binary(self, Opcode::And, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ior => binary(self, Opcode::Or, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ixor => binary(self, Opcode::Xor, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ishl => binary(self, Opcode::Shl, UD, ud(arg(0)?), ud(arg(1)?), false),
            AluOp::ushr => binary(self, Opcode::Shr, UD, ud(arg(0)?), ud(arg(1)?), false),
            AluOp::ishr => binary(self, Opcode::Asr, D, d(arg(0)?), d(arg(1)?), false),
            AluOp::ffma => three(self, Opcode::Mad, arg(2)?, arg(0)?, arg(1)?),
            AluOp::flrp => three(self, Opcode::Lrp, arg(2)?, arg(1)?, arg(0)?),
            AluOp::fmax => sel(self, F, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::fmin => sel(self, F, arg(0)?, arg(1)?, CondMod::L),
            AluOp::imax => sel(self, D, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::imin => sel(self, D, arg(0)?, arg(1)?, CondMod::L),
            AluOp::umax => sel(self, UD, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::umin => sel(self, UD, arg(0)?, arg(1)?, CondMod::L),
            AluOp::flt32 | AluOp::flt => cmp(self, F, arg(0)?, arg(1)?, CondMod::L),
            AluOp::fge32 | AluOp::fge => cmp(self, F, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::feq32 | AluOp::feq => cmp(self, F, arg(0)?, arg(1)?, CondMod::Z),
            AluOp::fneu32 | AluOp::fneu => cmp(self, F, arg(0)?, arg(1)?, CondMod::Nz),
            AluOp::ilt32 | AluOp::ilt => cmp(self, D, arg(0)?, arg(1)?, CondMod::L),
            AluOp::ige32 | AluOp::ige => cmp(self, D, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::ieq32 | AluOp::ieq => cmp(self, D, arg(0)?, arg(1)?, CondMod::Z),
            AluOp::ine32 | AluOp::ine => cmp(self, D, arg(0)?, arg(1)?, CondMod::Nz),
            AluOp::ult32 | AluOp::ult => cmp(self, UD, arg(0)?, arg(1)?, CondMod::L),
            AluOp::uge32 | AluOp::uge => cmp(self, UD, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::b32csel | AluOp::bcsel => {
                let c = d(arg(0)?);
                let m = self.alu(Opcode::Mov, Reg::null(D), vec![c]);
                m.cmod = CondMod::Nz;
                let (mut a, mut b, mut inv) = (ud(arg(1)?), ud(arg(2)?), false);
                if a.file == File::Imm && b.file != File::Imm {
                    std::mem::swap(&mut a, &mut b);
                    inv = true;
                }
                let a = self.in_grf(a);
                let dst = self.vgrf(UD);
                self.alu(Opcode::Sel, dst, vec![a, b]).pred = Some(inv);
                dst
            }
            AluOp::b2f32 => unary(self, Opcode::Mov, F, d(arg(0)?).negate()),
            AluOp::b2i32 => unary(self, Opcode::Mov, D, d(arg(0)?).negate()),
            AluOp::f2i32 => unary(self, Opcode::Mov, D, f(arg(0)?)),
            AluOp::f2u32 => unary(self, Opcode::Mov, UD, f(arg(0)?)),
            AluOp::i2f32 => unary(self, Opcode::Mov, F, d(arg(0)?)),
            AluOp::u2f32 => unary(self, Opcode::Mov, F, ud(arg(0)?)),
            AluOp::fround_even => {
                let x = self.in_grf(f(arg(0)?));
                unary(self, Opcode::Rnde, F, x)
            }
            AluOp::ffloor => {
                let x = self.in_grf(f(arg(0)?));
                unary(self, Opcode::Rndd, F, x)
            }
            AluOp::ftrunc => {
                let x = self.in_grf(f(arg(0)?));
                unary(self, Opcode::Rndz, F, x)
            }
            AluOp::fceil => {
                let x = self.in_grf(f(arg(0)?));
                let t = unary(self, Opcode::Rndd, F, x.negate());
                unary(self, Opcode::Mov, F, t.negate())
            }
            AluOp::ffract => {
                let x = self.in_grf(f(arg(0)?));
                unary(self, Opcode::Frc, F, x)
            }
            AluOp::fsign => {
                let x = self.in_grf(f(arg(0)?));
                let m = self.alu(Opcode::Cmp, Reg::null(F), vec![x, Reg::imm_f(0.0)]);
                m.cmod = CondMod::Nz;
                let dst = self.vgrf(UD);
                self.alu(Opcode::And, dst, vec![ud(x), Reg::imm(UD, 0x8000_0000)]);
                self.alu(Opcode::Or, dst, vec![dst, Reg::imm(UD, 0x3f80_0000)])
                    .pred = Some(false);
                dst
            }
            AluOp::frcp => math(self, MathFn::Inv, F, vec![arg(0)?]),
            AluOp::frsq => math(self, MathFn::Rsq, F, vec![arg(0)?]),
            AluOp::fsqrt => math(self, MathFn::Sqrt, F, vec![arg(0)?]),
            AluOp::fexp2 => math(self, MathFn::Exp, F, vec![arg(0)?]),
            AluOp::flog2 => math(self, MathFn::Log, F, vec![arg(0)?]),
            AluOp::fsin => math(self, MathFn::Sin, F, vec![arg(0)?]),
            AluOp::fcos => math(self, MathFn::Cos, F, vec![arg(0)?]),
            AluOp::fpow => math(self, MathFn::Pow, F, vec![arg(0)?, arg(1)?]),
            AluOp::idiv => math(self, MathFn::IntDivQuotient, D, vec![arg(0)?, arg(1)?]),
            AluOp::bitfield_reverse => {
                let x = self.in_grf(ud(arg(0)?));
                unary(self, Opcode::Bfrev, UD, x)
            }
            AluOp::extract_u8 | AluOp::extract_i8 | AluOp::extract_u16 | AluOp::extract_i16 => {
                let sel = arg(1)?;
                if sel.file != File::Imm {
                    return Err(unsupported(format!("{name} with a non-constant selector")));
                }
                let x = self.in_grf(ud(arg(0)?));
                let (bytes, signed) = match op {
                    AluOp::extract_u8 => (1, false),
                    AluOp::extract_i8 => (1, true),
                    AluOp::extract_u16 => (2, false),
                    _ => (2, true),
                };
                let shift = 32 - 8 * bytes * (sel.imm as u32 + 1);
                let t = binary(self, Opcode::Shl, UD, x, Reg::imm(UD, shift), false);
                let op = if signed { Opcode::Asr } else { Opcode::Shr };
                let ty = if signed { D } else { UD };
                binary(
                    self,
                    op,
                    ty,
                    t.retype(ty),
                    Reg::imm(UD, 32 - 8 * bytes),
                    false,
                )
            }
            AluOp::fddx_coarse | AluOp::fddy_coarse => {
                // Coarse: every pixel of a 2x2 subspan gets the top-left pair's difference
                // (x: pixel 1 - pixel 0, y: pixel 2 - pixel 0).
                let x = self.in_grf(f(arg(0)?));
                let second = if op == AluOp::fddx_coarse { 1 } else { 2 };
                let quad = Some(Region::new(4, 4, 0));
                let a = Reg {
                    region: quad,
                    ..x.horiz_offset(second)
                };
                let b = Reg { region: quad, ..x };
                let dst = self.vgrf(F);
                self.push(Op::Alu(Opcode::Add), dst, vec![a, b.negate()]);
                dst
            }
            AluOp::fddx | AluOp::fddx_fine => {
                // Fine x: each pixel pair (0,1), (2,3) differences its own row.
                let x = self.in_grf(f(arg(0)?));
                let pair = Some(Region::new(2, 2, 0));
                let a = Reg {
                    region: pair,
                    ..x.horiz_offset(1)
                };
                let b = Reg { region: pair, ..x };
                let dst = self.vgrf(F);
                self.push(Op::Alu(Opcode::Add), dst, vec![a, b.negate()]);
                dst
            }
            AluOp::fddy | AluOp::fddy_fine => {
                // Fine y: pixels (2,3) minus (0,1) of each subspan, which only align16
                // swizzles can say (.zwzw - .xyxy per subspan).
                let x = self.in_grf(f(arg(0)?));
                let dst = self.vgrf(F);
                self.push(Op::DdyFine, dst, vec![x, x.negate()]);
                dst
            }
            _ => return Err(unsupported(format!("ALU op {name}"))),
        };
        Ok(r)
    }

    /// `u2u64` of a 32-bit value, the one 64-bit operation implemented: the zero-extended
    /// addresses A64 messages take, one `mov(8) UQ <- UD` per 8 channels (as brw splits it,
    /// each half writing two registers).
    fn emit_u2u64(&mut self, a: &nir::AluInstr) -> Result<(), CompileError> {
        if self.devinfo.ver < 80 {
            return Err(unsupported(format!(
                "64-bit ALU op u2u64 on {} (64-bit integer types exist from Gen8 on)",
                self.devinfo.name
            )));
        }
        let (n, _) = self.def_info(a.def)?;
        let s = a
            .srcs
            .first()
            .ok_or_else(|| CompileError::Invalid("u2u64 lacks source 0".into()))?;
        if self.def_info(s.ssa)?.1 != 32 {
            return Err(unsupported("u2u64 of a value that is not 32-bit"));
        }
        let mut out = Vec::with_capacity(n as usize);
        for c in 0..n as usize {
            let v = self.comp(s.ssa, s.swizzle[c] as usize)?.retype(RegType::UD);
            let dst = Reg::vgrf(self.prog.alloc(2 * self.per()), RegType::UQ);
            for h in 0..self.width as u32 / 8 {
                let mut src = v.horiz_offset(8 * h);
                if src.file != File::Imm && src.stride != 0 {
                    // brw's region for a half that writes two registers: <4,4,1>.
                    src.region = Some(Region::new(4, 4, 1));
                }
                let m = self.alu(Opcode::Mov, dst.reg_offset(2 * h), vec![src]);
                m.exec_size = 8;
                m.group = 8 * h as u8;
            }
            out.push(dst);
        }
        self.set(a.def, out);
        Ok(())
    }
}

fn swap_cond(c: CondMod) -> CondMod {
    match c {
        CondMod::L => CondMod::G,
        CondMod::G => CondMod::L,
        CondMod::Le => CondMod::Ge,
        CondMod::Ge => CondMod::Le,
        other => other,
    }
}
