//! The hardware terms Mesa's etnaviv NIR is written in.
//!
//! Mesa's driver hands its backend NIR after `etna_lower_alu`, which rewrites two kinds of
//! operation into what the hardware computes rather than what NIR's opcodes mean:
//!
//! - `fsin`/`fcos` read an argument already multiplied by 2/π (older cores: SIN and COS take
//!   units of π/2) or by 1/π (cores with fast transcendentals: units of π);
//! - on cores with fast transcendentals, `flog2`, `fsin`, `fcos` and `fdiv` produce two
//!   components, a mantissa and a power of two, and a following `fmul %t.x, %t.y` multiplies
//!   them into the result. (`fdiv` never gets there: Mesa lowers it to a reciprocal first on
//!   these cores, so it is left to its standard meaning here.)
//!
//! The backend compiles such NIR to the bare hardware instructions (no second scaling, no
//! recombination of its own). The NIR interpreter, which gives every opcode its standard
//! meaning, is handed [`to_standard`]'s rewrite instead, so that both sides agree on what the
//! shader computes. A standard shader that happens to multiply by exactly 2/π (1/π) right
//! before a sine would be read as pre-scaled; Mesa's GLSL front end does not produce one.
//!
//! One more difference is not Mesa's rewrite but a freedom GLSL leaves the hardware: `fmin`
//! and `fmax` of a NaN. NIR's constant expression is C's `fmin`/`fmax` (a NaN operand yields
//! the other one); Mesa's etnaviv, like this backend, compiles them to `SELECT.GT`/`SELECT.LT
//! src0, src1, src0`, which yields src0 whenever the comparison involves a NaN, so a NaN first
//! operand comes out. Mesa's CI lists piglit's `fs-`/`vs-nan-builtin-min`/`max` (which want the
//! other operand) as failing on GC2000 hardware. [`to_standard`] therefore gives the
//! interpreter min/max with the hardware's rule; without it a shader whose made-up inputs
//! produce a NaN (the square root of `1 - |dot|` for a dot product of unnormalised vectors)
//! "fails" verification although the compiled code computes what the hardware does.

use crate::etnaviv::specs::Specs;
use crate::nir::ir::{AluInstr, AluSrc, Impl, InstrId, InstrKind, Shader, SsaId};
use crate::nir::opcodes::AluOp;

/// The factor `etna_lower_alu` multiplies sine and cosine arguments by, as f32 bits.
pub fn trig_prescale(specs: &Specs) -> u32 {
    let k = if specs.has_new_transcendentals() {
        std::f64::consts::FRAC_1_PI
    } else {
        std::f64::consts::FRAC_2_PI
    };
    (k as f32).to_bits()
}

/// When `src` (read by an `fsin`/`fcos` over `n` components) is an `fmul` by the hardware's
/// scale factor, the unscaled operand: the standard argument in radians.
pub fn prescaled_operand(specs: &Specs, imp: &Impl, src: &AluSrc, n: usize) -> Option<AluSrc> {
    let InstrKind::Alu(mul) = &imp.def_instr(src.ssa)?.kind else {
        return None;
    };
    if mul.op != AluOp::fmul || mul.srcs.len() != 2 {
        return None;
    }
    let k = trig_prescale(specs);
    for (ks, xs) in [(1, 0), (0, 1)] {
        let Some(vals) = imp.const_value(mul.srcs[ks].ssa) else {
            continue;
        };
        let scaled = (0..n.max(1)).all(|c| {
            let comp = src.swizzle[c] as usize;
            let idx = mul.srcs[ks].swizzle[comp.min(15)] as usize;
            vals.get(idx).is_some_and(|&v| v as u32 == k)
        });
        if scaled {
            let x = &mul.srcs[xs];
            let mut swizzle = src.swizzle;
            for (c, s) in swizzle.iter_mut().enumerate().take(n.max(1)) {
                *s = x.swizzle[src.swizzle[c] as usize & 15];
            }
            return Some(AluSrc {
                ssa: x.ssa,
                swizzle,
            });
        }
    }
    None
}

/// Whether `alu` is a two-part transcendental: two components whose product is the result.
pub fn is_two_part(specs: &Specs, imp: &Impl, alu: &AluInstr) -> bool {
    specs.has_new_transcendentals()
        && matches!(alu.op, AluOp::flog2 | AluOp::fsin | AluOp::fcos)
        && imp.def(alu.def).is_some_and(|d| d.num_components == 2)
}

/// `shader` with the hardware-term operations above rewritten to standard NIR: sine and
/// cosine read their unscaled argument, and each `fmul %t.x, %t.y` of a two-part result
/// becomes `mov %t.x` (the operation itself then yields its standard value in `.x`); `fmin`
/// and `fmax` get the hardware's NaN rule ([`min_max_keep_first_nan`]).
pub fn to_standard(specs: &Specs, shader: &Shader) -> Shader {
    let mut out = shader.clone();
    let Some(imp) = shader.entry() else {
        return out;
    };
    let mut edits: Vec<(usize, AluInstr)> = Vec::new();
    for (i, ins) in imp.instrs.iter().enumerate() {
        let InstrKind::Alu(a) = &ins.kind else {
            continue;
        };
        match a.op {
            AluOp::fsin | AluOp::fcos => {
                let n = imp.def(a.def).map_or(1, |d| d.num_components as usize);
                if let Some(x) = a
                    .srcs
                    .first()
                    .and_then(|s| prescaled_operand(specs, imp, s, n))
                {
                    let mut b = a.clone();
                    b.srcs[0] = x;
                    edits.push((i, b));
                }
            }
            AluOp::fmul if a.srcs.len() == 2 && a.srcs[0].ssa == a.srcs[1].ssa => {
                let (s0, s1) = (&a.srcs[0], &a.srcs[1]);
                let pair = matches!(
                    imp.def_instr(s0.ssa).map(|d| &d.kind),
                    Some(InstrKind::Alu(t)) if is_two_part(specs, imp, t)
                );
                let n = imp.def(a.def).map_or(1, |d| d.num_components as usize);
                if pair && (0..n).all(|c| s0.swizzle[c] == 0 && s1.swizzle[c] == 1) {
                    let mut b = a.clone();
                    b.op = AluOp::mov;
                    b.srcs.truncate(1);
                    edits.push((i, b));
                }
            }
            _ => {}
        }
    }
    if let Some(imp) = out.entry_mut() {
        for (i, b) in edits {
            imp.instrs[i].kind = InstrKind::Alu(b);
        }
        min_max_keep_first_nan(imp);
    }
    out
}

/// Rewrites each `%d = fmin/fmax a, b` to the hardware's NaN rule (see the module
/// documentation): `%d = b32csel (fneu32 a, a), a, (fmin/fmax a, b)`. Only a NaN first operand
/// changes the result (with a NaN second operand C's rule already yields `a`), so ordinary
/// values keep the interpreter's exact min/max, signed zeros and denormals included.
fn min_max_keep_first_nan(imp: &mut Impl) {
    let targets: Vec<InstrId> = imp
        .instrs_in_order()
        .filter(|(_, ins)| {
            matches!(&ins.kind, InstrKind::Alu(a) if matches!(a.op.name(), "fmin" | "fmax"))
        })
        .map(|(id, _)| id)
        .collect();
    for id in targets {
        let ins = imp.instr(id).clone();
        let InstrKind::Alu(a) = ins.kind else {
            continue;
        };
        let (Some(def), Some(&first)) = (imp.def(a.def).copied(), a.srcs.first()) else {
            continue;
        };
        let Some(at) = imp
            .blocks
            .get(ins.block.0 as usize)
            .and_then(|b| b.instrs.iter().position(|&i| i == id))
        else {
            continue;
        };
        let alu = |op: AluOp, def: SsaId, srcs: Vec<AluSrc>| {
            InstrKind::Alu(AluInstr {
                op,
                def,
                srcs,
                exact: a.exact,
                no_signed_wrap: false,
                no_unsigned_wrap: false,
            })
        };
        let min_max = imp.alloc_ssa(def.num_components, def.bit_size);
        let is_nan = imp.alloc_ssa(def.num_components, 32);
        imp.insert_instr(ins.block, at, alu(a.op, min_max, a.srcs.clone()));
        imp.insert_instr(
            ins.block,
            at + 1,
            alu(AluOp::fneu32, is_nan, vec![first, first]),
        );
        imp.instrs[id.0 as usize].kind = alu(
            AluOp::b32csel,
            a.def,
            vec![AluSrc::new(is_nan), first, AluSrc::new(min_max)],
        );
    }
}
