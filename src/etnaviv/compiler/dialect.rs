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
//! - on cores before HALTI5, a `txb`/`txl` reads its bias or LOD from the coordinate's `w`:
//!   Mesa's `etna_lower_io` builds a vec4 of the coordinate's components followed by the
//!   bias/LOD (repeated), removes the bias/LOD source and declares 4 coordinate components.
//!   The coordinate's own width is the sampler's (2 for `sampler2D`, 3 for `samplerCube` and
//!   `sampler3D`), found from the sampler variable ([`packed_lod_coord_dims`]).
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
use crate::nir::ir::{
    AluInstr, AluSrc, Impl, InstrId, InstrKind, Shader, SsaId, TexInstr, TexOp, TexSrc, VarMode,
};
use crate::nir::opcodes::AluOp;
use crate::nir::types::TypeClass;

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

/// Coordinate components of the sampler variable bound to texture `index`: 1, 2 or 3 for the
/// 1D, 2D (rectangle, external) and 3D or cube samplers; `None` for shadow and array samplers
/// (whose packing would also hold the comparator or layer) and for an unknown binding.
pub fn sampler_coord_dims(shader: &Shader, index: u32) -> Option<usize> {
    let v = shader.variables.iter().find(|v| {
        let n = v.ty.array_elements();
        v.mode == VarMode::Uniform
            && v.ty.class() == TypeClass::Sampler
            && (v.driver_location..v.driver_location + n).contains(&index)
    })?;
    let name = v.ty.base.trim_start_matches(['i', 'u']);
    let kind = name.strip_prefix("sampler")?;
    if kind.contains("Shadow") || kind.contains("Array") {
        return None;
    }
    match kind {
        "1D" => Some(1),
        "2D" | "2DRect" | "External" | "ExternalOES" => Some(2),
        "3D" | "Cube" => Some(3),
        _ => None,
    }
}

/// For a `txb`/`txl` in the packed form of cores that read the bias or LOD from the
/// coordinate's `w` (a 4-component coordinate and no bias/LOD source, see the module
/// documentation): the coordinate's own width. `None` for any other texture instruction.
pub fn packed_lod_coord_dims(
    specs: &Specs,
    shader: &Shader,
    t: &TexInstr,
    coord_components: u8,
) -> Option<usize> {
    let lod_op = matches!(t.op, TexOp::Txb | TexOp::Txl);
    let separate = t
        .srcs
        .iter()
        .any(|&(k, _)| k == TexSrc::Bias || k == TexSrc::Lod);
    if !specs.tex_lod_bias_in_coord_w() || !lod_op || separate || coord_components != 4 {
        return None;
    }
    sampler_coord_dims(shader, t.texture_index.unwrap_or(0))
}

/// Each packed `txb`/`txl` ([`packed_lod_coord_dims`]) with its coordinate and bias/LOD as
/// separate sources again: `%c = mov coord.xy(z)`, `%l = mov coord.w`.
fn unpack_lod_coords(specs: &Specs, shader: &Shader, imp: &mut Impl) {
    let packed: Vec<(InstrId, usize)> = imp
        .instrs_in_order()
        .filter_map(|(id, ins)| {
            let InstrKind::Tex(t) = &ins.kind else {
                return None;
            };
            let &(_, coord) = t.srcs.iter().find(|(k, _)| *k == TexSrc::Coord)?;
            let n = imp.def(coord)?.num_components;
            Some((id, packed_lod_coord_dims(specs, shader, t, n)?))
        })
        .collect();
    for (id, dims) in packed {
        let ins = imp.instr(id).clone();
        let InstrKind::Tex(mut t) = ins.kind else {
            continue;
        };
        let Some(at) = imp
            .blocks
            .get(ins.block.0 as usize)
            .and_then(|b| b.instrs.iter().position(|&i| i == id))
        else {
            continue;
        };
        let Some(slot) = t.srcs.iter().position(|(k, _)| *k == TexSrc::Coord) else {
            continue;
        };
        let packed = t.srcs[slot].1;
        let mov = |def: SsaId, swizzle: &[u8]| {
            let mut src = AluSrc::new(packed);
            src.swizzle[..swizzle.len()].copy_from_slice(swizzle);
            InstrKind::Alu(AluInstr {
                op: AluOp::mov,
                def,
                srcs: vec![src],
                exact: false,
                no_signed_wrap: false,
                no_unsigned_wrap: false,
            })
        };
        let coord = imp.alloc_ssa(dims as u8, 32);
        let lod = imp.alloc_ssa(1, 32);
        imp.insert_instr(ins.block, at, mov(coord, &[0, 1, 2][..dims]));
        imp.insert_instr(ins.block, at + 1, mov(lod, &[3]));
        t.srcs[slot].1 = coord;
        let kind = if t.op == TexOp::Txb {
            TexSrc::Bias
        } else {
            TexSrc::Lod
        };
        t.srcs.push((kind, lod));
        imp.instrs[id.0 as usize].kind = InstrKind::Tex(t);
    }
}

/// Whether `alu` is a two-part transcendental: two components whose product is the result.
pub fn is_two_part(specs: &Specs, imp: &Impl, alu: &AluInstr) -> bool {
    specs.has_new_transcendentals()
        && matches!(alu.op, AluOp::flog2 | AluOp::fsin | AluOp::fcos)
        && imp.def(alu.def).is_some_and(|d| d.num_components == 2)
}

/// The first two-part transcendental (see [`is_two_part`]) whose parts are read other than
/// through `fmul %t.x, %t.y`, named with its place. Its parts are a mantissa and a power of two
/// of the hardware's choosing, so no standard meaning can be given to such a read: the
/// compiled code computes what the hardware does, but the interpreter cannot say what that is.
pub fn parts_read_alone(specs: &Specs, shader: &Shader) -> Option<String> {
    let imp = shader.entry()?;
    for (id, ins) in imp.instrs_in_order() {
        let paired = match &ins.kind {
            InstrKind::Alu(a) if a.op == AluOp::fmul && a.srcs.len() == 2 => {
                let n = imp.def(a.def).map_or(1, |d| d.num_components as usize);
                a.srcs[0].ssa == a.srcs[1].ssa
                    && (0..n).all(|c| a.srcs[0].swizzle[c] == 0 && a.srcs[1].swizzle[c] == 1)
            }
            _ => false,
        };
        if paired {
            continue;
        }
        for s in ins.kind.srcs() {
            let two_part = matches!(
                imp.def_instr(s).map(|d| &d.kind),
                Some(InstrKind::Alu(t)) if is_two_part(specs, imp, t)
            );
            if two_part {
                return Some(format!(
                    "the two-part result %{} is read other than as `fmul %{0}.x, %{0}.y` \
                     (instruction #{})",
                    s.0, id.0
                ));
            }
        }
    }
    None
}

/// `shader` with the hardware-term operations above rewritten to standard NIR: sine and
/// cosine read their unscaled argument, and each `fmul %t.x, %t.y` of a two-part result
/// becomes `mov %t.x` (the operation itself then yields its standard value in `.x`); `fmin`
/// and `fmax` get the hardware's NaN rule ([`min_max_keep_first_nan`]).
pub fn to_standard(specs: &Specs, shader: &Shader) -> Shader {
    rewrite(specs, shader, true)
}

/// [`to_standard`] with NIR's own `fmin`/`fmax` (C's rule: a NaN operand yields the other
/// one) instead of the hardware's: what a test that depends on NaN handling would see on a
/// core whose min/max followed NIR.
pub fn to_standard_with_nir_min_max(specs: &Specs, shader: &Shader) -> Shader {
    rewrite(specs, shader, false)
}

fn rewrite(specs: &Specs, shader: &Shader, hardware_min_max: bool) -> Shader {
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
        if hardware_min_max {
            min_max_keep_first_nan(imp);
        }
        unpack_lod_coords(specs, shader, imp);
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
