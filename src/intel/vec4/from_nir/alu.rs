//! NIR ALU instructions as align16 instructions: one per NIR instruction wherever the
//! hardware has the operation, with the operand rules of Gen7 applied here (an immediate only
//! in the last source of a two-source instruction, three-source and math operands in plain
//! registers).

use crate::intel::eu::{CondMod, MathFn, Opcode, RegType};
use crate::nir::{self, AluInstr, AluOp, AluSrc};

use super::super::ir::{Dst, File, Inst, Op, Src};
use super::{unsupported, CompileError, Tr};

use RegType::{D, F, UD};

/// The operand type and condition of a 32-bit boolean comparison.
fn compare_of(op: AluOp) -> Option<(RegType, CondMod)> {
    Some(match op {
        AluOp::flt32 => (F, CondMod::L),
        AluOp::fge32 => (F, CondMod::Ge),
        AluOp::feq32 => (F, CondMod::Z),
        AluOp::fneu32 => (F, CondMod::Nz),
        AluOp::ilt32 => (D, CondMod::L),
        AluOp::ige32 => (D, CondMod::Ge),
        AluOp::ieq32 => (D, CondMod::Z),
        AluOp::ine32 => (D, CondMod::Nz),
        AluOp::ult32 => (UD, CondMod::L),
        AluOp::uge32 => (UD, CondMod::Ge),
        _ => return None,
    })
}

/// The condition that holds with the operands swapped.
fn swapped(c: CondMod) -> CondMod {
    match c {
        CondMod::L => CondMod::G,
        CondMod::G => CondMod::L,
        CondMod::Le => CondMod::Ge,
        CondMod::Ge => CondMod::Le,
        other => other,
    }
}

impl Tr<'_> {
    /// Source `k` of `a` as type `ty`, read in the channels of `mask`.
    fn arg(
        &mut self,
        a: &AluInstr,
        k: usize,
        mask: u8,
        ty: RegType,
        imm_ok: bool,
    ) -> Result<Src, CompileError> {
        let s = a.srcs.get(k).ok_or_else(|| {
            CompileError::Invalid(format!("{} is missing source {k}", a.op.name()))
        })?;
        self.operand(s, mask, ty, imm_ok)
    }

    /// `src` in a register a three-source or math instruction can read (a virtual register
    /// or an attribute), copied there when it is not.
    pub(super) fn in_grf(&mut self, src: Src) -> Src {
        // Interleaved attributes are read with a zero vertical stride, which three-source
        // instructions cannot encode: they are copied as push constants are.
        if src.file == File::Vgrf || (src.file == File::Attr && !self.prog.interleaved_attrs) {
            return src;
        }
        if src.file == File::Uniform {
            // Push constants never change: one copy of the whole vec4 serves every later
            // read (a copy made inside control flow serves only the rest of its block).
            let known = self
                .uniform_copies
                .get(&src.nr)
                .or(self.block_uniform_copies.get(&src.nr));
            let r = match known {
                Some(&r) => r,
                None => {
                    let r = self.prog.vgrf();
                    self.push(
                        Op::Alu(Opcode::Mov),
                        Dst::vgrf(r, RegType::UD, 0xf),
                        vec![Src::reg(File::Uniform, src.nr, RegType::UD)],
                    );
                    if self.depth == 0 {
                        self.uniform_copies.insert(src.nr, r);
                    } else {
                        self.block_uniform_copies.insert(src.nr, r);
                    }
                    r
                }
            };
            return Src {
                file: File::Vgrf,
                nr: r,
                ..src
            };
        }
        let r = self.prog.vgrf();
        let raw = Src {
            negate: false,
            abs: false,
            ..src
        };
        self.push(Op::Alu(Opcode::Mov), Dst::vgrf(r, src.ty, 0xf), vec![raw]);
        Src {
            negate: src.negate,
            abs: src.abs,
            ..Src::vgrf(r, src.ty)
        }
    }

    fn emit_to(&mut self, op: Op, dst: Dst, src: Vec<Src>) -> &mut Inst {
        self.push(op, dst, src)
    }

    /// A two-source instruction: an immediate first source moves to the second slot when
    /// the operation allows (`commutes`), else into a register.
    fn binary(&mut self, op: Opcode, dst: Dst, a: Src, b: Src, commutes: bool) -> &mut Inst {
        let (a, b) = match (a.file, b.file) {
            (File::Imm, f) if f != File::Imm && commutes => (b, a),
            (File::Imm, _) => (self.in_grf(a), b),
            _ => (a, b),
        };
        self.emit_to(Op::Alu(op), dst, vec![a, b])
    }

    /// Sets the flag for a select on `cond` read in the channels of `mask` straight from
    /// the comparison that computed it (its sources read through `cond`'s swizzle), as
    /// Mesa fuses them; false when `cond` is not a comparison.
    fn flag_from_compare(&mut self, cond: &AluSrc, mask: u8) -> Result<bool, CompileError> {
        let Some(nir::Instr {
            kind: nir::InstrKind::Alu(c),
            ..
        }) = self.imp.def_instr(cond.ssa)
        else {
            return Ok(false);
        };
        let Some((ty, cm)) = compare_of(c.op) else {
            return Ok(false);
        };
        let through = |s: &AluSrc| {
            let mut t = *s;
            for ch in 0..4 {
                t.swizzle[ch] = s.swizzle[cond.swizzle[ch] as usize & 15];
            }
            t
        };
        let (s0, s1) = match (c.srcs.first(), c.srcs.get(1)) {
            (Some(x), Some(y)) => (through(x), through(y)),
            _ => return Ok(false),
        };
        let mut x = self.operand(&s0, mask, ty, true)?;
        let mut y = self.operand(&s1, mask, ty, true)?;
        let mut cm = cm;
        if x.file == File::Imm && y.file != File::Imm {
            std::mem::swap(&mut x, &mut y);
            cm = swapped(cm);
        }
        let x = if x.file == File::Imm {
            self.in_grf(x)
        } else {
            x
        };
        self.emit_to(Op::Alu(Opcode::Cmp), Dst::null(ty), vec![x, y])
            .cmod = cm;
        Ok(true)
    }

    pub(super) fn emit_alu(&mut self, a: &AluInstr) -> Result<(), CompileError> {
        let info = a.op.info();
        let n_out = info.output_size;
        let name = a.op.name();
        let (n, _) = self.def_info(a.def)?;
        let mask = ((1u32 << n.min(4)) - 1) as u8;
        // The channels a per-component source is read in; horizontal operations (dot
        // products) read their own sizes whatever the destination.
        let rmask = |k: usize| -> u8 {
            match info.input_sizes.get(k).copied().unwrap_or(0) {
                0 => mask,
                s => ((1u32 << s.min(4)) - 1) as u8,
            }
        };
        let _ = n_out;
        macro_rules! arg {
            ($k:expr, $ty:expr) => {
                self.arg(a, $k, rmask($k), $ty, true)?
            };
        }
        macro_rules! reg_arg {
            ($k:expr, $ty:expr) => {{
                let s = self.arg(a, $k, rmask($k), $ty, false)?;
                self.in_grf(s)
            }};
        }
        match a.op {
            AluOp::mov => {
                let s = arg!(0, UD);
                let d = self.def_dst(a.def, UD)?;
                self.emit_to(Op::Alu(Opcode::Mov), d, vec![s]);
            }
            AluOp::vec2 | AluOp::vec3 | AluOp::vec4 => {
                // One move per component: channel k reads source k's one component (scalar
                // form NIR, as the Gen8+ TES example is written, builds vectors this way).
                let d = self.def_dst(a.def, UD)?;
                for k in 0..n.min(4) as usize {
                    let mut src = a.srcs.get(k).cloned().ok_or_else(|| {
                        CompileError::Invalid(format!("{name} is missing source {k}"))
                    })?;
                    src.swizzle = [src.swizzle[0]; 16];
                    let s = self.operand(&src, 1 << k, UD, true)?;
                    let dk = Dst {
                        writemask: 1 << k,
                        ..d
                    };
                    self.emit_to(Op::Alu(Opcode::Mov), dk, vec![s]);
                }
            }
            AluOp::fneg | AluOp::fabs | AluOp::fsat => {
                let s = arg!(0, F);
                let s = match a.op {
                    AluOp::fneg => s.negated(),
                    AluOp::fabs if s.file == File::Imm => Src::imm(F, s.imm & 0x7fff_ffff),
                    AluOp::fabs => Src {
                        abs: true,
                        negate: false,
                        ..s
                    },
                    _ => s,
                };
                let s = if s.file == File::Imm && s.negate {
                    Src::imm(F, s.imm ^ 0x8000_0000)
                } else {
                    s
                };
                let d = self.def_dst(a.def, F)?;
                self.emit_to(Op::Alu(Opcode::Mov), d, vec![s]).sat = a.op == AluOp::fsat;
            }
            AluOp::ineg => {
                let s = arg!(0, D);
                let s = if s.file == File::Imm {
                    Src::imm(D, s.imm.wrapping_neg())
                } else {
                    s.negated()
                };
                let d = self.def_dst(a.def, D)?;
                self.emit_to(Op::Alu(Opcode::Mov), d, vec![s]);
            }
            AluOp::iabs => {
                let s = arg!(0, D);
                let s = if s.file == File::Imm {
                    Src::imm(D, (s.imm as i32).unsigned_abs())
                } else {
                    Src {
                        abs: true,
                        negate: false,
                        ..s
                    }
                };
                let d = self.def_dst(a.def, D)?;
                self.emit_to(Op::Alu(Opcode::Mov), d, vec![s]);
            }
            AluOp::inot => {
                let s = reg_arg!(0, D);
                let d = self.def_dst(a.def, D)?;
                self.emit_to(Op::Alu(Opcode::Not), d, vec![s]);
            }
            AluOp::b2f32
            | AluOp::b2i32
            | AluOp::f2i32
            | AluOp::f2u32
            | AluOp::i2f32
            | AluOp::u2f32 => {
                let (sty, dty, neg) = match a.op {
                    AluOp::b2f32 => (D, F, true),
                    AluOp::b2i32 => (D, D, true),
                    AluOp::f2i32 => (F, D, false),
                    AluOp::f2u32 => (F, UD, false),
                    AluOp::i2f32 => (D, F, false),
                    _ => (UD, F, false),
                };
                let s = reg_arg!(0, sty);
                let s = if neg { s.negated() } else { s };
                let d = self.def_dst(a.def, dty)?;
                self.emit_to(Op::Alu(Opcode::Mov), d, vec![s]);
            }
            AluOp::fadd | AluOp::fmul | AluOp::iadd | AluOp::iand | AluOp::ior | AluOp::ixor => {
                let (op, ty) = match a.op {
                    AluOp::fadd => (Opcode::Add, F),
                    AluOp::fmul => (Opcode::Mul, F),
                    AluOp::iadd => (Opcode::Add, D),
                    AluOp::iand => (Opcode::And, UD),
                    AluOp::ior => (Opcode::Or, UD),
                    _ => (Opcode::Xor, UD),
                };
                let (x, y) = (arg!(0, ty), arg!(1, ty));
                let d = self.def_dst(a.def, ty)?;
                self.binary(op, d, x, y, true);
            }
            AluOp::isub => {
                let (x, y) = (arg!(0, D), arg!(1, D));
                let y = if y.file == File::Imm {
                    Src::imm(D, y.imm.wrapping_neg())
                } else {
                    y.negated()
                };
                let d = self.def_dst(a.def, D)?;
                self.binary(Opcode::Add, d, x, y, true);
            }
            AluOp::imul => {
                // Gen7 multiplies dwords natively, keeping the low 32 bits of the product
                // (devinfo's `has_integer_dword_mul`, as the scalar backend relies on);
                // Mesa's vec4 backend, written for Gen4-6 as well, spends MUL/MACH/MOV.
                let (x, y) = (arg!(0, D), arg!(1, D));
                let d = self.def_dst(a.def, D)?;
                self.binary(Opcode::Mul, d, x, y, true);
            }
            AluOp::ishl | AluOp::ishr | AluOp::ushr => {
                let (op, ty) = match a.op {
                    AluOp::ishl => (Opcode::Shl, UD),
                    AluOp::ishr => (Opcode::Asr, D),
                    _ => (Opcode::Shr, UD),
                };
                let (x, y) = (arg!(0, ty), arg!(1, UD));
                let d = self.def_dst(a.def, ty)?;
                self.binary(op, d, x, y, false);
            }
            AluOp::fmax | AluOp::fmin | AluOp::imax | AluOp::imin | AluOp::umax | AluOp::umin => {
                let (ty, c) = match a.op {
                    AluOp::fmax => (F, CondMod::Ge),
                    AluOp::fmin => (F, CondMod::L),
                    AluOp::imax => (D, CondMod::Ge),
                    AluOp::imin => (D, CondMod::L),
                    AluOp::umax => (UD, CondMod::Ge),
                    _ => (UD, CondMod::L),
                };
                let (x, y) = (arg!(0, ty), arg!(1, ty));
                let d = self.def_dst(a.def, ty)?;
                self.binary(Opcode::Sel, d, x, y, true).cmod = c;
            }
            op if op.is_comparison32() => {
                let Some((ty, mut c)) = compare_of(a.op) else {
                    return Err(CompileError::Internal(format!(
                        "{:?} is not a comparison",
                        a.op
                    )));
                };
                let (mut x, mut y) = (arg!(0, ty), arg!(1, ty));
                if x.file == File::Imm && y.file != File::Imm {
                    std::mem::swap(&mut x, &mut y);
                    c = swapped(c);
                }
                let x = if x.file == File::Imm {
                    self.in_grf(x)
                } else {
                    x
                };
                let d = self.def_dst(a.def, D)?;
                self.emit_to(Op::Alu(Opcode::Cmp), d, vec![x, y]).cmod = c;
            }
            AluOp::b32csel => {
                if !self.flag_from_compare(&a.srcs[0], mask)? {
                    let c = arg!(0, D);
                    let c = if c.file == File::Imm {
                        self.in_grf(c)
                    } else {
                        c
                    };
                    self.emit_to(Op::Alu(Opcode::Mov), Dst::null(D), vec![c])
                        .cmod = CondMod::Nz;
                }
                let (mut x, mut y) = (arg!(1, UD), arg!(2, UD));
                let mut inv = false;
                if x.file == File::Imm && y.file != File::Imm {
                    std::mem::swap(&mut x, &mut y);
                    inv = true;
                }
                let x = if x.file == File::Imm {
                    self.in_grf(x)
                } else {
                    x
                };
                let d = self.def_dst(a.def, UD)?;
                self.emit_to(Op::Alu(Opcode::Sel), d, vec![x, y]).pred = Some(inv);
            }
            AluOp::b32any_fnequal2
            | AluOp::b32any_fnequal3
            | AluOp::b32any_fnequal4
            | AluOp::b32any_inequal2
            | AluOp::b32any_inequal3
            | AluOp::b32any_inequal4
            | AluOp::b32all_fequal2
            | AluOp::b32all_fequal3
            | AluOp::b32all_fequal4
            | AluOp::b32all_iequal2
            | AluOp::b32all_iequal3
            | AluOp::b32all_iequal4 => {
                // Compare the components the operation reads, then set the result where
                // any (all) of the vertex's four flag bits are set; the channels outside
                // the size compare a value with itself (equal), which neither `any !=`
                // nor `all ==` is changed by.
                let size = info.input_sizes.first().copied().unwrap_or(4).min(4);
                let is_any = name.contains("any");
                let ty = if name.contains("fequal") || name.contains("fnequal") {
                    F
                } else {
                    D
                };
                let smask = ((1u32 << size) - 1) as u8;
                let (x, y) = (
                    self.arg(a, 0, smask, ty, false)?,
                    self.arg(a, 1, smask, ty, true)?,
                );
                // Channels past the size repeat the last component of both operands.
                let pad = |s: Src| {
                    let last = super::super::ir::swz_get(s.swizzle, size - 1);
                    let swz = (0..4u8).fold(0u8, |z, ch| {
                        let c = if ch < size {
                            super::super::ir::swz_get(s.swizzle, ch)
                        } else {
                            last
                        };
                        z | c << (2 * ch)
                    });
                    Src { swizzle: swz, ..s }
                };
                let (x, y) = (pad(x), if y.file == File::Imm { y } else { pad(y) });
                let x = self.in_grf(x);
                let c = if is_any { CondMod::Nz } else { CondMod::Z };
                self.emit_to(Op::Alu(Opcode::Cmp), Dst::null(ty), vec![x, y])
                    .cmod = c;
                let d = self.def_dst(a.def, D)?;
                self.emit_to(Op::Alu(Opcode::Mov), d, vec![Src::imm(D, 0)]);
                let m = self.emit_to(Op::Alu(Opcode::Mov), d, vec![Src::imm(D, !0)]);
                m.pred = Some(false);
                m.pred_ctrl = if is_any { 6 } else { 7 };
            }
            AluOp::ffma => {
                let (x, y, z) = (reg_arg!(0, F), reg_arg!(1, F), reg_arg!(2, F));
                let d = self.def_dst(a.def, F)?;
                self.emit_to(Op::Alu(Opcode::Mad), d, vec![z, y, x]);
            }
            AluOp::flrp => {
                let (x, y, t) = (reg_arg!(0, F), reg_arg!(1, F), reg_arg!(2, F));
                let d = self.def_dst(a.def, F)?;
                self.emit_to(Op::Alu(Opcode::Lrp), d, vec![t, y, x]);
            }
            AluOp::ubfe | AluOp::ibfe => {
                let ty = if a.op == AluOp::ubfe { UD } else { D };
                let (x, off, bits) = (reg_arg!(0, ty), reg_arg!(1, UD), reg_arg!(2, UD));
                let d = self.def_dst(a.def, ty)?;
                self.emit_to(Op::Alu(Opcode::Bfe), d, vec![bits, off, x]);
            }
            AluOp::fdot2
            | AluOp::fdot3
            | AluOp::fdot4
            | AluOp::fdph
            | AluOp::fdot2_replicated
            | AluOp::fdot3_replicated
            | AluOp::fdot4_replicated
            | AluOp::fdph_replicated => {
                let op = match a.op {
                    AluOp::fdot2 | AluOp::fdot2_replicated => Opcode::Dp2,
                    AluOp::fdot3 | AluOp::fdot3_replicated => Opcode::Dp3,
                    AluOp::fdot4 | AluOp::fdot4_replicated => Opcode::Dp4,
                    _ => Opcode::Dph,
                };
                let (x, y) = (arg!(0, F), arg!(1, F));
                let d = self.def_dst(a.def, F)?;
                // Not commutative for DPH (its first source's w is taken as 1).
                self.binary(op, d, x, y, op != Opcode::Dph);
            }
            AluOp::fround_even | AluOp::ffloor | AluOp::ftrunc | AluOp::ffract => {
                let op = match a.op {
                    AluOp::fround_even => Opcode::Rnde,
                    AluOp::ffloor => Opcode::Rndd,
                    AluOp::ftrunc => Opcode::Rndz,
                    _ => Opcode::Frc,
                };
                let x = reg_arg!(0, F);
                let d = self.def_dst(a.def, F)?;
                self.emit_to(Op::Alu(op), d, vec![x]);
            }
            AluOp::fceil => {
                let x = reg_arg!(0, F);
                let t = self.prog.vgrf();
                self.emit_to(
                    Op::Alu(Opcode::Rndd),
                    Dst::vgrf(t, F, mask),
                    vec![x.negated()],
                );
                let d = self.def_dst(a.def, F)?;
                self.emit_to(Op::Alu(Opcode::Mov), d, vec![Src::vgrf(t, F).negated()]);
            }
            AluOp::fsign => {
                let x = reg_arg!(0, F);
                self.emit_to(Op::Alu(Opcode::Cmp), Dst::null(F), vec![x, Src::imm_f(0.0)])
                    .cmod = CondMod::Nz;
                let d = self.def_dst(a.def, UD)?;
                self.emit_to(
                    Op::Alu(Opcode::And),
                    d,
                    vec![x.retype(UD), Src::imm(UD, 0x8000_0000)],
                );
                self.emit_to(
                    Op::Alu(Opcode::Or),
                    d,
                    vec![d.as_src(), Src::imm(UD, 0x3f80_0000)],
                )
                .pred = Some(false);
            }
            AluOp::frcp
            | AluOp::frsq
            | AluOp::fsqrt
            | AluOp::fexp2
            | AluOp::flog2
            | AluOp::fsin
            | AluOp::fcos => {
                let f = match a.op {
                    AluOp::frcp => MathFn::Inv,
                    AluOp::frsq => MathFn::Rsq,
                    AluOp::fsqrt => MathFn::Sqrt,
                    AluOp::fexp2 => MathFn::Exp,
                    AluOp::flog2 => MathFn::Log,
                    AluOp::fsin => MathFn::Sin,
                    _ => MathFn::Cos,
                };
                let x = reg_arg!(0, F);
                let d = self.def_dst(a.def, F)?;
                self.emit_to(Op::Math(f), d, vec![x]);
            }
            AluOp::udiv | AluOp::umod => {
                // The math unit's unsigned integer division (Mesa's INT_QUOTIENT and
                // INT_REMAINDER with UD operands).
                let f = if a.op == AluOp::udiv {
                    MathFn::IntDivQuotient
                } else {
                    MathFn::IntDivRemainder
                };
                let (x, y) = (reg_arg!(0, UD), reg_arg!(1, UD));
                let d = self.def_dst(a.def, UD)?;
                self.emit_to(Op::Math(f), d, vec![x, y]);
            }
            AluOp::umul_high | AluOp::imul_high => {
                // MUL into the accumulator, MACH for the high dword (Mesa's vec4 code).
                let ty = if a.op == AluOp::umul_high { UD } else { D };
                let (x, y) = (reg_arg!(0, ty), reg_arg!(1, ty));
                let d = self.def_dst(a.def, ty)?;
                self.emit_to(Op::MulHigh, d, vec![x, y]);
            }
            AluOp::fpow => {
                let (x, y) = (reg_arg!(0, F), reg_arg!(1, F));
                let d = self.def_dst(a.def, F)?;
                self.emit_to(Op::Math(MathFn::Pow), d, vec![x, y]);
            }
            _ => {
                return Err(unsupported(format!(
                    "ALU operation {name} in the vec4 backend"
                )))
            }
        }
        Ok(())
    }
}
