//! Per-instruction semantics.
//!
//! Where neither Mesa nor the vector captures pin down the hardware, the simulator makes one
//! documented choice, chosen to agree with how Mesa's etnaviv backend uses the instruction:
//!
//! - Sources are read as floats when the instruction type is f32/f16 (and for F2I/F2IRND),
//!   otherwise as integers of the type's width; `neg`/`abs` act on that interpretation.
//! - RCP, RSQ, SQRT, EXP, LOG, SIN, COS and DIV are scalar: they read component x of their
//!   (swizzled) source and write the result to every enabled component.
//! - SIN/COS take their argument in units of π/2 on older cores and of π on cores with fast
//!   transcendentals (Mesa pre-multiplies by 2/π or 1/π). On those cores SIN, COS, LOG and DIV
//!   write two parts whose product is the result, as Mesa's following MUL expects: the lowest
//!   enabled component gets the mantissa m and the next one the power of two 2^e
//!   (value = m·2^e, 0.5 ≤ |m| < 1); further enabled components get m as well.
//! - SELECT: `cond(src0, src1) ? src1 : src2`; SET: `cond(src0, src1) ? 1 : 0` (1.0 for float
//!   types); CMP: `cond(src0, src1) ? src2 : 0` (Mesa puts -1 in src2).
//! - BRANCH and TEXKILL with a condition test every component (Mesa broadcasts one);
//!   BRANCH_ANY tests whether any component passes.
//! - MOVAR writes floor(src2) and MOVAI the integer src2 to the enabled components of `a`.
//! - Integer division or remainder by zero gives 0.
//! - The `th` group (the other half of a dual-issued pair) reads the temporaries; `u` bank 1
//!   (group 3) reads uniform 128 + reg, as Mesa 23.3's disassembler numbers it; `.pack`, `.hp` and the thread selectors do not
//!   change results.
//! - DSX/DSY give 0 when one invocation runs alone; [`super::run_quad`] computes them from
//!   the quad's neighbours. TEXLD and TEXLDB get the quad's coordinate differences the same way (`TexRequest::ddx`
//!   and `ddy`); alone, or for other texture instructions, those are empty.
//! - Single-precision denormals are flushed to a zero of the same sign: every float-typed
//!   instruction that computes (arithmetic, transcendentals, comparisons, SELECT/SET/CMP,
//!   branch and kill conditions, MOVAR, F2I, DSX/DSY) reads denormal operands as zero and
//!   writes denormal results as zero, while a plain MOV (no neg, abs or sat), LOAD/STORE, the
//!   texture instructions and integer-typed instructions move bits unchanged. Neither Mesa's
//!   etnaviv driver nor its ISA description documents denormal handling for ALU instructions
//!   (the only `denorm` bit is on LOAD/STORE), so this is an assumption: it is consistent with
//!   Mesa's CI on GC2000, whose expected failures for piglit's `gpu` profile do not include
//!   fs-underflow-mul-compare-zero (a test that needs 2^-149 to compare equal to zero), and it
//!   is the rule Intel EUs follow by default (see `intel::sim`), so the reference interpreter
//!   can use one rule for both families.
//! - LOAD/STORE address bytes at `src0.x + src1.x` and move consecutive little-endian 32-bit
//!   words to or from the enabled components in order: a scalar load into `.w` reads the word
//!   at the address itself, which is what Mesa's load_ubo emission relies on (it ignores the
//!   component the register allocator picked).

use super::sampler::TexRequest;
use super::Machine;
use crate::etnaviv::isa::*;
use crate::nir::TexOp;

fn is_float_source(inst: &Inst) -> bool {
    inst.ty.is_float() || matches!(inst.opcode, Opcode::F2i | Opcode::F2irnd)
}

/// Whether `inst` treats float operands and results as numbers (and so flushes denormals)
/// rather than moving their bits: see the module documentation.
fn flushes_denormals(inst: &Inst) -> bool {
    use Opcode::*;
    let copy = match inst.opcode {
        Mov => {
            let s = &inst.src[2];
            let modified = match s.kind {
                SrcKind::Reg(r) => r.neg || r.abs,
                SrcKind::Imm(_) => false,
            };
            !inst.sat && !modified
        }
        Load | Store | Texld | Texldb | Texldl | Texldd | Txf | Nop | Barrier | Call | Ret => true,
        _ => false,
    };
    !copy && is_float_source(inst)
}

/// A single-precision denormal replaced by the zero of its sign (exponent field zero: keep the
/// sign bit only; zeros map to themselves).
pub(crate) fn flush_denormal(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// The value an instruction writes: denormal float results flushed when the instruction
/// computes on floats.
pub(crate) fn result_value(inst: &Inst, value: [u32; 4]) -> [u32; 4] {
    if flushes_denormals(inst) && inst.ty.is_float() {
        value.map(flush_denormal)
    } else {
        value
    }
}

/// Sign- or zero-extends `bits` from the type's width.
fn int_value(bits: u32, ty: DataType) -> i64 {
    match ty {
        DataType::S32 => i64::from(bits as i32),
        DataType::S16 => i64::from(bits as u16 as i16),
        DataType::S8 => i64::from(bits as u8 as i8),
        DataType::U16 => i64::from(bits as u16),
        DataType::U8 => i64::from(bits as u8),
        _ => i64::from(bits),
    }
}

/// Wraps an integer result to the type's width (sign-extended for signed types).
fn wrap(v: i64, ty: DataType) -> u32 {
    match ty {
        DataType::S16 => v as i16 as i32 as u32,
        DataType::U16 => v as u16 as u32,
        DataType::S8 => v as i8 as i32 as u32,
        DataType::U8 => v as u8 as u32,
        _ => v as u32,
    }
}

fn int_range(ty: DataType) -> (i64, i64) {
    match ty {
        DataType::S32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
        DataType::S16 => (i64::from(i16::MIN), i64::from(i16::MAX)),
        DataType::S8 => (i64::from(i8::MIN), i64::from(i8::MAX)),
        DataType::U16 => (0, i64::from(u16::MAX)),
        DataType::U8 => (0, i64::from(u8::MAX)),
        _ => (0, i64::from(u32::MAX)),
    }
}

fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

fn fb(x: f32) -> u32 {
    x.to_bits()
}

pub(crate) fn read_src(m: &Machine, inst: &Inst, slot: usize) -> Result<[u32; 4], String> {
    let src = &inst.src[slot];
    if !src.use_ {
        return Ok([0; 4]);
    }
    let r = match src.kind {
        SrcKind::Imm(imm) if flushes_denormals(inst) => return Ok([flush_denormal(imm.value()); 4]),
        SrcKind::Imm(imm) => return Ok([imm.value(); 4]),
        SrcKind::Reg(r) => r,
    };
    let offset = r.amode.component().map_or(0, |c| i64::from(m.address[c]));
    let index = i64::from(r.reg) + offset;
    let (file, base): (&[[u32; 4]], i64) = match r.group {
        RegGroup::Temp | RegGroup::Thread => (&m.temps, 0),
        RegGroup::Uniform => (&m.uniforms, 0),
        RegGroup::Uniform1 => (&m.uniforms, 128),
        RegGroup::Internal => (&m.internal, 0),
    };
    let row = match usize::try_from(index + base).ok().and_then(|i| file.get(i)) {
        Some(row) => row,
        None if m.robust_reads => &[0; 4],
        None => {
            return Err(format!(
                "src{slot}: {}{} is out of range",
                r.group.prefix(),
                index
            ))
        }
    };
    let float = is_float_source(inst);
    let flush = flushes_denormals(inst);
    let mut out = [0u32; 4];
    for (c, o) in out.iter_mut().enumerate() {
        let mut v = row[r.swiz.component(c)];
        if float {
            if r.abs {
                v &= 0x7fff_ffff;
            }
            if r.neg {
                v ^= 0x8000_0000;
            }
            if flush {
                v = flush_denormal(v);
            }
        } else {
            let mut x = int_value(v, inst.ty);
            if r.abs {
                x = x.abs();
            }
            if r.neg {
                x = -x;
            }
            v = wrap(x, inst.ty);
        }
        *o = v;
    }
    Ok(out)
}

/// Evaluates a condition on one component pair.
pub fn cond_holds(cond: Cond, a: u32, b: u32, ty: DataType) -> bool {
    if cond == Cond::SelMsb {
        let msb = match ty {
            DataType::S16 | DataType::U16 | DataType::F16 => 15,
            DataType::S8 | DataType::U8 => 7,
            _ => 31,
        };
        return (a >> msb) & 1 == 1;
    }
    if ty.is_float() {
        let (x, y) = (f(a), f(b));
        match cond {
            Cond::True => true,
            Cond::Gt => x > y,
            Cond::Lt => x < y,
            Cond::Ge => x >= y,
            Cond::Le => x <= y,
            Cond::Eq => x == y,
            Cond::Ne => x != y,
            Cond::And => x != 0.0 && y != 0.0,
            Cond::Or => x != 0.0 || y != 0.0,
            Cond::Xor => (x != 0.0) != (y != 0.0),
            Cond::Not => x == 0.0,
            Cond::Nz => x != 0.0,
            Cond::Gez => x >= 0.0,
            Cond::Gz => x > 0.0,
            Cond::Lez => x <= 0.0,
            Cond::Lz => x < 0.0,
            Cond::SelMsb => unreachable!("handled above"),
        }
    } else {
        let (x, y) = (int_value(a, ty), int_value(b, ty));
        match cond {
            Cond::True => true,
            Cond::Gt => x > y,
            Cond::Lt => x < y,
            Cond::Ge => x >= y,
            Cond::Le => x <= y,
            Cond::Eq => x == y,
            Cond::Ne => x != y,
            Cond::And => x != 0 && y != 0,
            Cond::Or => x != 0 || y != 0,
            Cond::Xor => (x != 0) != (y != 0),
            Cond::Not => x == 0,
            Cond::Nz => x != 0,
            Cond::Gez => x >= 0,
            Cond::Gz => x > 0,
            Cond::Lez => x <= 0,
            Cond::Lz => x < 0,
            Cond::SelMsb => unreachable!("handled above"),
        }
    }
}

/// Splits `v` into mantissa and power of two (the two-part transcendental result).
fn split(v: f32) -> (f32, f32) {
    if v == 0.0 || !v.is_finite() {
        return (v, 1.0);
    }
    let mut e = v.abs().log2().floor() as i32 + 1;
    let mut mant = v / 2f32.powi(e);
    // Correct the rare off-by-one of log2 near powers of two.
    if mant.abs() >= 1.0 {
        e += 1;
        mant = v / 2f32.powi(e);
    } else if mant.abs() < 0.5 {
        e -= 1;
        mant = v / 2f32.powi(e);
    }
    (mant, 2f32.powi(e))
}

pub(crate) fn write_dst(m: &mut Machine, inst: &Inst, value: [u32; 4]) -> Result<(), String> {
    if !inst.dst.use_ {
        return Ok(());
    }
    for (c, &v) in value.iter().enumerate() {
        if inst.dst.mask & (1 << c) == 0 {
            continue;
        }
        let offset = inst
            .dst
            .amode
            .component()
            .map_or(0, |k| i64::from(m.address[k]));
        let index = i64::from(inst.dst.reg) + offset;
        let row = usize::try_from(index)
            .ok()
            .filter(|&i| i < m.temps.len())
            .ok_or_else(|| format!("destination t{index} is out of range"))?;
        let mut v = v;
        if inst.sat && inst.ty.is_float() {
            let x = f(v);
            v = fb(if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) });
        }
        m.temps[row][c] = v;
    }
    Ok(())
}

fn per_component(
    a: [u32; 4],
    b: [u32; 4],
    c: [u32; 4],
    op: impl Fn(u32, u32, u32) -> u32,
) -> [u32; 4] {
    [
        op(a[0], b[0], c[0]),
        op(a[1], b[1], c[1]),
        op(a[2], b[2], c[2]),
        op(a[3], b[3], c[3]),
    ]
}

fn float_op(a: [u32; 4], b: [u32; 4], c: [u32; 4], op: impl Fn(f32, f32, f32) -> f32) -> [u32; 4] {
    per_component(a, b, c, |x, y, z| fb(op(f(x), f(y), f(z))))
}

fn int_op(
    ty: DataType,
    a: [u32; 4],
    b: [u32; 4],
    c: [u32; 4],
    op: impl Fn(i64, i64, i64) -> i64,
) -> [u32; 4] {
    per_component(a, b, c, |x, y, z| {
        wrap(op(int_value(x, ty), int_value(y, ty), int_value(z, ty)), ty)
    })
}

/// The value written by a scalar (x-reading, broadcasting) operation; `two_part` writes the
/// mantissa/power-of-two split.
fn scalar_result(inst: &Inst, v: f32, two_part: bool) -> [u32; 4] {
    if !two_part {
        return [fb(v); 4];
    }
    let (mant, scale) = split(v);
    let mut out = [fb(mant); 4];
    let mut enabled = (0..4).filter(|c| inst.dst.mask & (1 << c) != 0);
    let _first = enabled.next();
    if let Some(second) = enabled.next() {
        out[second] = fb(scale);
    }
    out
}

fn f2i(x: f32, ty: DataType, round: bool) -> u32 {
    let (lo, hi) = int_range(ty);
    let r = if x.is_nan() {
        0
    } else {
        let y = if round {
            x.round_ties_even()
        } else {
            x.trunc()
        };
        (y as f64).clamp(lo as f64, hi as f64) as i64
    };
    wrap(r, ty)
}

/// Four bytes at `addr` of the read-only regions, if one holds them.
fn region_word(m: &Machine, addr: u64) -> Option<u32> {
    let i = m
        .regions
        .partition_point(|(base, _)| *base <= addr)
        .checked_sub(1)?;
    let (base, bytes) = &m.regions[i];
    let off = usize::try_from(addr - base).ok()?;
    let b = bytes.get(off..off.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn load_word(m: &Machine, addr: u64) -> Result<u32, String> {
    let a = usize::try_from(addr).map_err(|_| format!("address {addr} out of range"))?;
    if let Some(w) = (a >= m.memory.len())
        .then(|| region_word(m, addr))
        .flatten()
    {
        return Ok(w);
    }
    match m.memory.get(a..a.saturating_add(4)) {
        Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        None if m.robust_reads => Ok(0),
        None => Err(format!(
            "load at byte {a} outside memory of {} bytes",
            m.memory.len()
        )),
    }
}

fn store_word(m: &mut Machine, addr: u64, v: u32) -> Result<(), String> {
    let len = m.memory.len();
    let a = usize::try_from(addr).map_err(|_| format!("address {addr} out of range"))?;
    match m.memory.get_mut(a..a + 4) {
        Some(b) => {
            b.copy_from_slice(&v.to_le_bytes());
            Ok(())
        }
        None => Err(format!("store at byte {a} outside memory of {len} bytes")),
    }
}

fn texture(m: &mut Machine, inst: &Inst) -> Result<[u32; 4], String> {
    let raw = read_src(m, inst, 0)?;
    let s1 = read_src(m, inst, 1)?;
    let s2 = read_src(m, inst, 2)?;
    let unit = u32::from(inst.tex.id);
    let dims = m
        .texture_dims
        .get(unit as usize)
        .copied()
        .unwrap_or(2)
        .clamp(1, 3);
    let lod_arg = if m.specs.tex_lod_bias_in_coord_w() {
        f(raw[3])
    } else {
        f(s1[0])
    };
    let (op, coord, lod, bias) = match inst.opcode {
        // Integer texel coordinates; the level comes as a float in src1 (Mesa converts it).
        Opcode::Txf => {
            let lod = inst.src[1].use_.then(|| f64::from(f(s1[0])));
            (TexOp::Txf, raw.map(|x| f64::from(x as i32)), lod, None)
        }
        Opcode::Texldb => (
            TexOp::Txb,
            raw.map(|x| f64::from(f(x))),
            None,
            Some(f64::from(lod_arg)),
        ),
        Opcode::Texldl => (
            TexOp::Txl,
            raw.map(|x| f64::from(f(x))),
            Some(f64::from(lod_arg)),
            None,
        ),
        Opcode::Texldd => (TexOp::Txd, raw.map(|x| f64::from(f(x))), None, None),
        _ => (TexOp::Tex, raw.map(|x| f64::from(f(x))), None, None),
    };
    let comparator =
        (inst.opcode == Opcode::Texld && inst.src[2].use_).then(|| f64::from(f(s2[0])));
    // Set by run_quad for implicit-LOD instructions only; taken so it never outlives one.
    let (ddx, ddy) = match m.quad_tex_derivatives.take() {
        Some((x, y)) if matches!(inst.opcode, Opcode::Texld | Opcode::Texldb) => {
            (x[..dims].to_vec(), y[..dims].to_vec())
        }
        _ => (Vec::new(), Vec::new()),
    };
    let req = TexRequest {
        op,
        texture: unit,
        sampler: unit,
        coord: coord[..dims].to_vec(),
        lod,
        bias,
        comparator,
        offset: Vec::new(),
        integer: !inst.ty.is_float(),
        ddx,
        ddy,
    };
    let colour = m.sampler().sample(&req)?;
    let bits = |v: f64| {
        if req.integer {
            v as i64 as u32
        } else {
            (v as f32).to_bits()
        }
    };
    let swz = inst.tex.swiz;
    Ok([0, 1, 2, 3].map(|c| bits(colour[swz.component(c)])))
}

/// Executes one instruction.
pub(crate) fn execute(m: &mut Machine, inst: &Inst) -> Result<Flow, String> {
    use Opcode::*;
    let ty = inst.ty;
    let float = ty.is_float();
    let (a, b, c) = (
        read_src(m, inst, 0)?,
        read_src(m, inst, 1)?,
        read_src(m, inst, 2)?,
    );
    let new_tr = m.specs.has_new_transcendentals();
    let value: [u32; 4] = match inst.opcode {
        Nop | Barrier => return Ok(Flow::Next),
        Call => return Ok(Flow::Call(usize::from(inst.target))),
        Ret => return Ok(Flow::Ret),
        Branch | BranchAny => {
            let taken = if inst.format() == Format::CfNoSrc {
                true
            } else {
                let mut comps = (0..4).map(|k| cond_holds(inst.cond, a[k], b[k], ty));
                if inst.opcode == BranchAny {
                    comps.any(|x| x)
                } else {
                    comps.all(|x| x)
                }
            };
            return Ok(if taken {
                Flow::Jump(usize::from(inst.target))
            } else {
                Flow::Next
            });
        }
        Texkill => {
            let kill = inst.format() == Format::KillNoSrc
                || (0..4).all(|k| cond_holds(inst.cond, a[k], b[k], ty));
            return Ok(if kill { Flow::Kill } else { Flow::Next });
        }
        Movar | Movai => {
            for (k, &v) in c.iter().enumerate() {
                if inst.dst.mask & (1 << k) != 0 {
                    m.address[k] = if inst.opcode == Movar && float {
                        f(v).floor() as i32
                    } else {
                        int_value(v, ty) as i32
                    };
                }
            }
            return Ok(Flow::Next);
        }
        Texld | Texldb | Texldl | Texldd | Txf => texture(m, inst)?,
        Load => {
            let base = u64::from(a[0]).wrapping_add(u64::from(b[0]));
            let mut out = [0u32; 4];
            let mut addr = base;
            for (k, o) in out.iter_mut().enumerate() {
                if inst.dst.mask & (1 << k) != 0 {
                    *o = load_word(m, addr)?;
                    addr += 4;
                }
            }
            out
        }
        Store => {
            let base = u64::from(a[0]).wrapping_add(u64::from(b[0]));
            let mut addr = base;
            for (k, &v) in c.iter().enumerate() {
                if inst.dst.mask & (1 << k) != 0 {
                    store_word(m, addr, v)?;
                    addr += 4;
                }
            }
            return Ok(Flow::Next);
        }
        Add if float => float_op(a, b, c, |x, _, z| x + z),
        Add => int_op(ty, a, b, c, |x, _, z| x + z),
        Mad if float => float_op(a, b, c, |x, y, z| x * y + z),
        Mad | Imadlo0 => int_op(ty, a, b, c, |x, y, z| x.wrapping_mul(y).wrapping_add(z)),
        Imadlosat0 => {
            let (lo, hi) = int_range(ty);
            int_op(ty, a, b, c, move |x, y, z| {
                (i128::from(x) * i128::from(y) + i128::from(z)).clamp(lo.into(), hi.into()) as i64
            })
        }
        Mul if float => float_op(a, b, c, |x, y, _| x * y),
        Mul | Imullo0 => int_op(ty, a, b, c, |x, y, _| x.wrapping_mul(y)),
        Imulhi0 => int_op(ty, a, b, c, |x, y, _| {
            ((i128::from(x) * i128::from(y)) >> 32) as i64
        }),
        Idiv0 => int_op(ty, a, b, c, |x, y, _| if y == 0 { 0 } else { x / y }),
        Imod => int_op(ty, a, b, c, |x, y, _| if y == 0 { 0 } else { x % y }),
        Iaddsat => {
            let (lo, hi) = int_range(ty);
            int_op(ty, a, b, c, move |x, _, z| (x + z).clamp(lo, hi))
        }
        Dp2 | Dp3 | Dp4 => {
            let n = match inst.opcode {
                Dp2 => 2,
                Dp3 => 3,
                _ => 4,
            };
            let s: f32 = (0..n).map(|k| f(a[k]) * f(b[k])).sum();
            [fb(s); 4]
        }
        Dsx | Dsy => [fb(0.0); 4],
        Mov => c,
        Rcp => scalar_result(inst, 1.0 / f(c[0]), false),
        Rsq => scalar_result(inst, 1.0 / f(c[0]).sqrt(), false),
        Sqrt => scalar_result(inst, f(c[0]).sqrt(), false),
        Exp => scalar_result(inst, f(c[0]).exp2(), false),
        Log => scalar_result(inst, f(c[0]).log2(), new_tr),
        Sin | Cos => {
            let unit = if new_tr {
                std::f32::consts::PI
            } else {
                std::f32::consts::FRAC_PI_2
            };
            let x = f(c[0]) * unit;
            let v = if inst.opcode == Sin { x.sin() } else { x.cos() };
            scalar_result(inst, v, new_tr)
        }
        Div => scalar_result(inst, f(b[0]) / f(c[0]), new_tr),
        Frc => float_op(a, b, c, |_, _, z| z - z.floor()),
        Floor => float_op(a, b, c, |_, _, z| z.floor()),
        Ceil => float_op(a, b, c, |_, _, z| z.ceil()),
        Sign if float => float_op(a, b, c, |_, _, z| {
            if z > 0.0 {
                1.0
            } else if z < 0.0 {
                -1.0
            } else {
                0.0
            }
        }),
        Sign => int_op(ty, a, b, c, |_, _, z| z.signum()),
        Iabs => int_op(ty, a, b, c, |_, _, z| z.abs()),
        Select => per_component(a, b, c, |x, y, z| {
            if cond_holds(inst.cond, x, y, ty) {
                y
            } else {
                z
            }
        }),
        Set => {
            let one = if float { fb(1.0) } else { 1 };
            per_component(a, b, c, |x, y, _| {
                if cond_holds(inst.cond, x, y, ty) {
                    one
                } else {
                    0
                }
            })
        }
        Cmp => per_component(a, b, c, |x, y, z| {
            if cond_holds(inst.cond, x, y, ty) {
                z
            } else {
                0
            }
        }),
        Clamp0Max => float_op(a, b, c, |x, y, _| x.max(0.0).min(y)),
        I2f => per_component(a, b, c, |x, _, _| fb(int_value(x, ty) as f32)),
        F2i => per_component(a, b, c, |x, _, _| f2i(f(x), ty, false)),
        F2irnd => per_component(a, b, c, |x, _, _| f2i(f(x), ty, true)),
        I2i => per_component(a, b, c, |x, _, _| wrap(i64::from(x as i32), ty)),
        And => per_component(a, b, c, |x, _, z| x & z),
        Or => per_component(a, b, c, |x, _, z| x | z),
        Xor => per_component(a, b, c, |x, _, z| x ^ z),
        Not => per_component(a, b, c, |_, _, z| !z),
        Lshift => per_component(a, b, c, |x, _, z| wrap(i64::from(x << (z & 31)), ty)),
        Rshift => per_component(a, b, c, |x, _, z| {
            if ty.is_signed() {
                wrap(int_value(x, ty) >> (z & 31), ty)
            } else {
                x >> (z & 31)
            }
        }),
        Rotate => per_component(a, b, c, |x, _, z| x.rotate_left(z & 31)),
        Leadzero => per_component(a, b, c, |_, _, z| z.leading_zeros()),
        Popcount => per_component(a, b, c, |_, _, z| z.count_ones()),
        BitRev => per_component(a, b, c, |x, _, _| x.reverse_bits()),
        BitExtract => per_component(a, b, c, |x, y, z| {
            let (off, bits) = (y & 31, z & 31);
            if bits == 0 {
                return 0;
            }
            let v = x >> off;
            let field = v & ((1u64 << bits) - 1) as u32;
            if ty.is_signed() && (field >> (bits - 1)) & 1 == 1 {
                field | !(((1u64 << bits) - 1) as u32)
            } else {
                field
            }
        }),
        BitFindLsb => per_component(
            a,
            b,
            c,
            |x, _, _| if x == 0 { u32::MAX } else { x.trailing_zeros() },
        ),
        BitFindMsb => per_component(a, b, c, |x, _, _| {
            let v = if ty.is_signed() && (x as i32) < 0 {
                !x
            } else {
                x
            };
            if v == 0 {
                u32::MAX
            } else {
                31 - v.leading_zeros()
            }
        }),
        op => return Err(format!("{} is not simulated", op.name())),
    };
    write_dst(m, inst, result_value(inst, value))?;
    Ok(Flow::Next)
}

/// Where execution goes after an instruction.
pub(crate) enum Flow {
    Next,
    Jump(usize),
    Call(usize),
    Ret,
    Kill,
}
