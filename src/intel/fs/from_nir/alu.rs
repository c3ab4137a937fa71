//! ALU operations. Each component of a NIR ALU result becomes one instruction (or a short
//! sequence) on full-width registers; immediates are moved into registers only where the
//! hardware cannot read them, and comparisons swap their operands (and condition) rather
//! than spend a move on a leading constant.

use crate::intel::eu::RegType::{D, F, UD};
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
        if let (AluOp::b2f32 | AluOp::b2i32, Some(src)) = (a.op, a.srcs.first()) {
            if let Some(b) = self.inot_of_boolean(src.ssa).cloned() {
                // b2f(inot b) with b 0 or -1 is 1 + b: one ADD instead of NOT and a move.
                let ty = if a.op == AluOp::b2f32 { F } else { D };
                let mut out = Vec::with_capacity(ncomp as usize);
                for c in 0..ncomp as usize {
                    let v = self.comp(b.ssa, b.swizzle[src.swizzle[c] as usize] as usize)?;
                    let dst = self.vgrf(ty);
                    let v = self.in_grf(d(v));
                    self.alu(Opcode::Add, dst, vec![v, Reg::imm(D, 1)]);
                    out.push(dst);
                }
                self.set(a.def, out);
                return Ok(());
            }
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

    /// One component of an ALU operation, on the components `s` of its sources. Each family
    /// below emits the operations it knows and answers `None` for the others.
    fn emit_alu_scalar(&mut self, op: AluOp, s: &[Reg]) -> Result<Reg, CompileError> {
        type Family<'t> =
            fn(&mut Translator<'t>, AluOp, &[Reg]) -> Result<Option<Reg>, CompileError>;
        let families: [Family; 6] = [
            Self::alu_move_arith,
            Self::alu_compare_select,
            Self::alu_conversion,
            Self::alu_float_fn,
            Self::alu_bits,
            Self::alu_derivative,
        ];
        for family in families {
            if let Some(r) = family(self, op, s)? {
                return Ok(r);
            }
        }
        Err(unsupported(format!("ALU op {}", op.name())))
    }

    /// Moves, negation, absolute value and saturation, and the two- and three-source
    /// arithmetic and logic operations.
    fn alu_move_arith(&mut self, op: AluOp, s: &[Reg]) -> Result<Option<Reg>, CompileError> {
        let arg = |i: usize| alu_arg(op, s, i);
        let r = match op {
            AluOp::mov => self.unary(Opcode::Mov, UD, ud(arg(0)?)),
            AluOp::fneg => self.unary(Opcode::Mov, F, f(arg(0)?).negate()),
            AluOp::fabs => self.unary(Opcode::Mov, F, f(arg(0)?).absolute()),
            AluOp::fsat => {
                let dst = self.vgrf(F);
                let src = f(arg(0)?);
                self.alu(Opcode::Mov, dst, vec![src]).sat = true;
                dst
            }
            AluOp::ineg => self.unary(Opcode::Mov, D, d(arg(0)?).negate()),
            AluOp::iabs => self.unary(Opcode::Mov, D, d(arg(0)?).absolute()),
            AluOp::inot => self.unary(Opcode::Not, D, d(arg(0)?)),
            AluOp::fadd => self.binary(Opcode::Add, F, f(arg(0)?), f(arg(1)?), true),
            AluOp::fmul => self.binary(Opcode::Mul, F, f(arg(0)?), f(arg(1)?), true),
            AluOp::iadd => self.binary(Opcode::Add, D, d(arg(0)?), d(arg(1)?), true),
            AluOp::isub => {
                let b = d(arg(1)?);
                let neg_b = if b.file == File::Imm {
                    Reg::imm(D, (b.imm as u32).wrapping_neg())
                } else {
                    b.negate()
                };
                self.binary(Opcode::Add, D, d(arg(0)?), neg_b, false)
            }
            AluOp::imul => self.binary(Opcode::Mul, D, d(arg(0)?), d(arg(1)?), true),
            // The adder's result is wider than 32 bits and .sat clamps it to the destination
            // type's range: unsigned for UD, signed for D.
            AluOp::uadd_sat => self.saturated_add(UD, arg(0)?, arg(1)?),
            AluOp::iadd_sat => self.saturated_add(D, arg(0)?, arg(1)?),
            AluOp::usub_sat => self.usub_sat(arg(0)?, arg(1)?),
            AluOp::isub_sat => self.isub_sat(arg(0)?, arg(1)?),
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
            AluOp::umul_high => self.mul_high(UD, arg(0)?, arg(1)?),
            AluOp::imul_high => self.mul_high(D, arg(0)?, arg(1)?),
            AluOp::iand => self.binary(Opcode::And, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ior => self.binary(Opcode::Or, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ixor => self.binary(Opcode::Xor, UD, ud(arg(0)?), ud(arg(1)?), true),
            AluOp::ishl => self.binary(Opcode::Shl, UD, ud(arg(0)?), ud(arg(1)?), false),
            AluOp::ushr => self.binary(Opcode::Shr, UD, ud(arg(0)?), ud(arg(1)?), false),
            AluOp::ishr => self.binary(Opcode::Asr, D, d(arg(0)?), d(arg(1)?), false),
            AluOp::ffma => self.three_src(Opcode::Mad, arg(2)?, arg(0)?, arg(1)?),
            AluOp::flrp => self.three_src(Opcode::Lrp, arg(2)?, arg(1)?, arg(0)?),
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    /// Minimum and maximum (SEL with a condition), comparisons (CMP writing 0 or ~0) and
    /// `bcsel` (a predicated SEL).
    fn alu_compare_select(&mut self, op: AluOp, s: &[Reg]) -> Result<Option<Reg>, CompileError> {
        let arg = |i: usize| alu_arg(op, s, i);
        let r = match op {
            AluOp::fmax => self.select(F, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::fmin => self.select(F, arg(0)?, arg(1)?, CondMod::L),
            AluOp::imax => self.select(D, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::imin => self.select(D, arg(0)?, arg(1)?, CondMod::L),
            AluOp::umax => self.select(UD, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::umin => self.select(UD, arg(0)?, arg(1)?, CondMod::L),
            AluOp::flt32 | AluOp::flt => self.compare(F, arg(0)?, arg(1)?, CondMod::L),
            AluOp::fge32 | AluOp::fge => self.compare(F, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::feq32 | AluOp::feq => self.compare(F, arg(0)?, arg(1)?, CondMod::Z),
            AluOp::fneu32 | AluOp::fneu => self.compare(F, arg(0)?, arg(1)?, CondMod::Nz),
            AluOp::ilt32 | AluOp::ilt => self.compare(D, arg(0)?, arg(1)?, CondMod::L),
            AluOp::ige32 | AluOp::ige => self.compare(D, arg(0)?, arg(1)?, CondMod::Ge),
            AluOp::ieq32 | AluOp::ieq => self.compare(D, arg(0)?, arg(1)?, CondMod::Z),
            AluOp::ine32 | AluOp::ine => self.compare(D, arg(0)?, arg(1)?, CondMod::Nz),
            AluOp::ult32 | AluOp::ult => self.compare(UD, arg(0)?, arg(1)?, CondMod::L),
            AluOp::uge32 | AluOp::uge => self.compare(UD, arg(0)?, arg(1)?, CondMod::Ge),
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
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    /// Conversions between booleans, integers and floats: MOVs between types (a boolean is
    /// 0 or ~0, so its negation is 0 or 1).
    fn alu_conversion(&mut self, op: AluOp, s: &[Reg]) -> Result<Option<Reg>, CompileError> {
        let arg = |i: usize| alu_arg(op, s, i);
        let r = match op {
            AluOp::b2f32 => self.unary(Opcode::Mov, F, d(arg(0)?).negate()),
            AluOp::b2i32 => self.unary(Opcode::Mov, D, d(arg(0)?).negate()),
            AluOp::f2i32 => self.unary(Opcode::Mov, D, f(arg(0)?)),
            AluOp::f2u32 => self.unary(Opcode::Mov, UD, f(arg(0)?)),
            AluOp::i2f32 => self.unary(Opcode::Mov, F, d(arg(0)?)),
            AluOp::u2f32 => self.unary(Opcode::Mov, F, ud(arg(0)?)),
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    /// Rounding (RND*, FRC), the sign, and the functions of the extended-math unit.
    fn alu_float_fn(&mut self, op: AluOp, s: &[Reg]) -> Result<Option<Reg>, CompileError> {
        let arg = |i: usize| alu_arg(op, s, i);
        let r = match op {
            AluOp::fround_even => {
                let x = self.in_grf(f(arg(0)?));
                self.unary(Opcode::Rnde, F, x)
            }
            AluOp::ffloor => {
                let x = self.in_grf(f(arg(0)?));
                self.unary(Opcode::Rndd, F, x)
            }
            AluOp::ftrunc => {
                let x = self.in_grf(f(arg(0)?));
                self.unary(Opcode::Rndz, F, x)
            }
            AluOp::fceil => {
                let x = self.in_grf(f(arg(0)?));
                let t = self.unary(Opcode::Rndd, F, x.negate());
                self.unary(Opcode::Mov, F, t.negate())
            }
            AluOp::ffract => {
                let x = self.in_grf(f(arg(0)?));
                self.unary(Opcode::Frc, F, x)
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
            AluOp::frcp => self.math(MathFn::Inv, F, vec![arg(0)?]),
            AluOp::frsq => self.math(MathFn::Rsq, F, vec![arg(0)?]),
            AluOp::fsqrt => self.math(MathFn::Sqrt, F, vec![arg(0)?]),
            AluOp::fexp2 => self.math(MathFn::Exp, F, vec![arg(0)?]),
            AluOp::flog2 => self.math(MathFn::Log, F, vec![arg(0)?]),
            AluOp::fsin => self.math(MathFn::Sin, F, vec![arg(0)?]),
            AluOp::fcos => self.math(MathFn::Cos, F, vec![arg(0)?]),
            AluOp::fpow => self.math(MathFn::Pow, F, vec![arg(0)?, arg(1)?]),
            // The divider truncates toward zero and its remainder takes the dividend's sign:
            // NIR's `idiv` and `irem` as they are (the PRM's sign table), and for unsigned
            // operands `udiv` and `umod`. SIMD8 only (see `lower::max_simd_width`).
            AluOp::idiv => self.math(MathFn::IntDivQuotient, D, vec![arg(0)?, arg(1)?]),
            AluOp::udiv => self.math(MathFn::IntDivQuotient, UD, vec![arg(0)?, arg(1)?]),
            AluOp::umod => self.math(MathFn::IntDivRemainder, UD, vec![arg(0)?, arg(1)?]),
            AluOp::irem => self.math(MathFn::IntDivRemainder, D, vec![arg(0)?, arg(1)?]),
            AluOp::imod => self.imod(arg(0)?, arg(1)?),
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    /// Bit reversal and byte or word extraction: one AND or shift when the field touches bit 0
    /// (unsigned) or bit 31, otherwise a shift left then right.
    fn alu_bits(&mut self, op: AluOp, s: &[Reg]) -> Result<Option<Reg>, CompileError> {
        let name = op.name();
        let arg = |i: usize| alu_arg(op, s, i);
        let r = match op {
            AluOp::bitfield_reverse => {
                let x = self.in_grf(ud(arg(0)?));
                self.unary(Opcode::Bfrev, UD, x)
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
                let bits = 8 * bytes;
                let low = bits * sel.imm as u32;
                if low >= 32 {
                    return Err(unsupported(format!("{name} selecting past bit 31")));
                }
                let (op, ty) = if signed {
                    (Opcode::Asr, D)
                } else {
                    (Opcode::Shr, UD)
                };
                if low + bits == 32 {
                    // The field reaches bit 31: one shift brings it down and extends it.
                    self.binary(op, ty, x.retype(ty), Reg::imm(UD, low), false)
                } else if low == 0 && !signed {
                    // The field starts at bit 0: zero-extending it is a mask.
                    self.binary(Opcode::And, UD, x, Reg::imm(UD, (1 << bits) - 1), true)
                } else {
                    // Shift the field to the top, then back down with the extension.
                    let shift = 32 - bits - low;
                    let t = self.binary(Opcode::Shl, UD, x, Reg::imm(UD, shift), false);
                    self.binary(op, ty, t.retype(ty), Reg::imm(UD, 32 - bits), false)
                }
            }
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    /// Screen-space derivatives: differences between the pixels of each 2x2 subspan.
    fn alu_derivative(&mut self, op: AluOp, s: &[Reg]) -> Result<Option<Reg>, CompileError> {
        let arg = |i: usize| alu_arg(op, s, i);
        let r = match op {
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
            _ => return Ok(None),
        };
        Ok(Some(r))
    }

    fn unary(&mut self, op: Opcode, ty: RegType, src: Reg) -> Reg {
        let dst = self.vgrf(ty);
        self.alu(op, dst, vec![src]);
        dst
    }

    /// A two-source operation; an immediate first source is swapped into second place when
    /// the operation `commutes`, and copied into a register otherwise.
    fn binary(&mut self, op: Opcode, ty: RegType, a: Reg, b: Reg, commutes: bool) -> Reg {
        let (a, b) = if a.file == File::Imm && b.file != File::Imm && commutes {
            (b, a)
        } else {
            (self.in_grf(a), b)
        };
        let dst = self.vgrf(ty);
        self.alu(op, dst, vec![a, b]);
        dst
    }

    /// CMP of `a` and `b` as `ty`, the condition swapped when an immediate `a` changes places.
    fn compare(&mut self, ty: RegType, a: Reg, b: Reg, cm: CondMod) -> Reg {
        let (a, b, cm) = if a.file == File::Imm && b.file != File::Imm {
            (b, a, swap_cond(cm))
        } else {
            (self.in_grf(a), b, cm)
        };
        let dst = self.vgrf(ty);
        let i = self.alu(Opcode::Cmp, dst, vec![a.retype(ty), b.retype(ty)]);
        i.cmod = cm;
        dst.retype(D)
    }

    /// SEL with condition `cm` (minimum and maximum, which commute).
    fn select(&mut self, ty: RegType, a: Reg, b: Reg, cm: CondMod) -> Reg {
        let (a, b) = if a.file == File::Imm && b.file != File::Imm {
            (b, a)
        } else {
            (self.in_grf(a), b)
        };
        let dst = self.vgrf(ty);
        let i = self.alu(Opcode::Sel, dst, vec![a.retype(ty), b.retype(ty)]);
        i.cmod = cm;
        dst
    }

    /// `umul_high` (`ty` UD) or `imul_high` (D): one [`Op::MulHigh`], which commutes, so a
    /// leading immediate changes places (its first source must be a register). On Ivy
    /// Bridge the MUL/MACH pair of a channel group past the first would have its MACH read
    /// the nonexistent integer acc1, so, as brw does, each such group of 8 channels is
    /// computed at group 0 with write-enable-all into a temporary and then moved into place
    /// under the group's own execution mask.
    fn mul_high(&mut self, ty: RegType, a: Reg, b: Reg) -> Reg {
        let (a, b) = if a.file == File::Imm && b.file != File::Imm {
            (b, a)
        } else {
            (a, b)
        };
        let plain = |t: &mut Self, r: Reg| {
            let r = r.retype(ty);
            if r.neg || r.abs {
                t.unary(Opcode::Mov, ty, r)
            } else {
                r
            }
        };
        let a = plain(self, a);
        let a = self.in_grf(a);
        let b = plain(self, b);
        let dst = self.vgrf(ty);
        if self.devinfo.ver != 70 || self.width <= 8 {
            self.push(Op::MulHigh, dst, vec![a, b]);
            return dst;
        }
        let part = |r: Reg, ch: u32| match r.file {
            File::Vgrf | File::Fixed if r.stride != 0 => r.horiz_offset(ch),
            _ => r,
        };
        for g in (0..self.width as u32).step_by(8) {
            let srcs = vec![part(a, g), part(b, g)];
            if g == 0 {
                self.push(Op::MulHigh, dst, srcs).exec_size = 8;
                continue;
            }
            let tmp = Reg::vgrf(self.prog.alloc(1), ty);
            let m = self.push(Op::MulHigh, tmp, srcs);
            m.exec_size = 8;
            m.we_all = true;
            let mov = self.alu(Opcode::Mov, part(dst, g), vec![tmp]);
            mov.exec_size = 8;
            mov.group = g as u8;
        }
        dst
    }

    /// ADD with saturation as `ty`.
    fn saturated_add(&mut self, ty: RegType, a: Reg, b: Reg) -> Reg {
        let dst = self.binary(Opcode::Add, ty, a.retype(ty), b.retype(ty), true);
        if let Some(add) = self.prog.insts.last_mut() {
            add.sat = true;
        }
        dst
    }

    /// `usub_sat`: a - b where a > b, else 0 (brw's form for widths other than 8: CMP.G,
    /// ADD of the negated subtrahend, SEL of 0 where the compare failed). A saturating ADD
    /// of a negated source cannot do it, as the hardware negates a source within its own 32
    /// bits.
    fn usub_sat(&mut self, a: Reg, b: Reg) -> Reg {
        let (a, b) = (self.in_grf(ud(a)), ud(b));
        self.alu(Opcode::Cmp, Reg::null(UD), vec![a, b]).cmod = CondMod::G;
        let neg_b = if b.file == File::Imm {
            Reg::imm(UD, (b.imm as u32).wrapping_neg())
        } else {
            b.negate()
        };
        let diff = self.vgrf(UD);
        self.alu(Opcode::Add, diff, vec![a, neg_b]);
        let dst = self.vgrf(UD);
        self.alu(Opcode::Sel, dst, vec![diff, Reg::imm(UD, 0)]).pred = Some(false);
        dst
    }

    /// `isub_sat` in two saturating steps that never negate -2^31 (which the hardware's
    /// 32-bit source negation would leave as it is): with h = b >> 1 (arithmetic) and
    /// r = b - h, both of magnitude at most 2^30 and of b's sign, a - b is
    /// sat(sat(a - h) - r), the first clamp only ever pushing the way the second goes.
    /// (brw's version of this shifts logically, which for a negative b gives h near 2^31.)
    fn isub_sat(&mut self, a: Reg, b: Reg) -> Reg {
        let (a, b) = (self.in_grf(d(a)), self.in_grf(d(b)));
        let h = self.binary(Opcode::Asr, D, b, Reg::imm(UD, 1), false);
        let r = self.vgrf(D);
        self.alu(Opcode::Add, r, vec![b, h.negate()]);
        let t = self.vgrf(D);
        self.alu(Opcode::Add, t, vec![a, h.negate()]).sat = true;
        let dst = self.vgrf(D);
        self.alu(Opcode::Add, dst, vec![t, r.negate()]).sat = true;
        dst
    }

    /// `imod`, whose result takes the divisor's sign, from the divider's remainder (which
    /// takes the dividend's) as brw builds it: where the remainder is not zero
    /// (`mov.nz`; MATH takes no conditional modifier) and the operands' signs differ (their
    /// XOR is negative: `xor.l` under that predicate, so the other channels keep the false
    /// flag), the divisor is added to the remainder.
    fn imod(&mut self, a: Reg, b: Reg) -> Reg {
        let (a, b) = (d(a), d(b));
        let rem = self.math(MathFn::IntDivRemainder, D, vec![a, b]);
        self.alu(Opcode::Mov, Reg::null(D), vec![rem]).cmod = CondMod::Nz;
        let x = self.in_grf(a);
        let tmp = self.vgrf(D);
        let xor = self.alu(Opcode::Xor, tmp, vec![x, b]);
        xor.pred = Some(false);
        xor.cmod = CondMod::L;
        self.alu(Opcode::Add, rem, vec![rem, b]).pred = Some(false);
        rem
    }

    /// An extended-math function; its sources must be registers.
    pub(super) fn math(&mut self, m: MathFn, ty: RegType, srcs: Vec<Reg>) -> Reg {
        let srcs: Vec<Reg> = srcs
            .into_iter()
            .map(|r| self.in_grf(r.retype(ty)))
            .collect();
        let dst = self.vgrf(ty);
        self.push(Op::Math(m), dst, srcs);
        dst
    }

    /// A three-source float operation (MAD, LRP), which takes no immediates.
    fn three_src(&mut self, op: Opcode, a: Reg, b: Reg, c: Reg) -> Reg {
        let a = self.in_grf(f(a));
        let b = self.in_grf(f(b));
        let c = self.in_grf(f(c));
        let dst = self.vgrf(F);
        self.alu(op, dst, vec![a, b, c]);
        dst
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

/// Source `i` of `op`.
fn alu_arg(op: AluOp, s: &[Reg], i: usize) -> Result<Reg, CompileError> {
    s.get(i)
        .copied()
        .ok_or_else(|| CompileError::Invalid(format!("{} lacks source {i}", op.name())))
}

fn f(r: Reg) -> Reg {
    r.retype(F)
}

fn d(r: Reg) -> Reg {
    r.retype(D)
}

fn ud(r: Reg) -> Reg {
    r.retype(UD)
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
