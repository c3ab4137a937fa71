//! Invariants of the vec4 IR that every pass must keep, checked between passes by the
//! pipeline (debug builds, tests, `GPUCC_DEBUG=validate`), as the scalar backend's
//! `fs::validate` checks its IR.
//!
//! The rules are those the later stages rely on without checking, so that a pass breaking
//! one is named at once instead of showing up as wrong code: code generation reads message
//! payloads as whole registers (ignoring their swizzles and modifiers), takes a pull load's
//! offset from each vertex's x, drops the predicate and modifiers of the instructions it
//! expands by hand, and computes jump targets from the nesting of IF/ELSE/ENDIF and
//! DO/WHILE; the allocator sizes its tables by `num_vgrfs`; the hardware takes an immediate
//! only as the last of two sources and none in a three-source or math instruction (the rules
//! copy propagation keeps). One walk of the program with a nesting stack checks them all.

use crate::intel::eu::{CondMod, MathFn, Opcode, RegType};
use crate::intel::flow::{FlowInst, Nesting};

use super::from_nir::MAX_PUSH_VEC4S;
use super::ir::{swz_get, Dst, File, Inst, Op, Program, Src, UrbKind, XYZW};

/// GRFs on Gen7; fixed-register operands (message registers, g0) lie below.
const GRF_COUNT: u32 = 128;

/// Pushed elements at most: a geometry shader's input vertices' slots, below the message
/// registers (a vertex shader's facts accept 33).
const MAX_ATTR_SLOTS: u32 = super::urb::MSG_BASE;

/// Message registers a SIMD4x2 sampler message takes at most: a header and two parameter
/// registers.
const MAX_TEX_MLEN: usize = 3;

/// Checks `prog`; the error names the first offending instruction and what is wrong.
pub fn validate(prog: &Program) -> Result<(), String> {
    let mut nesting = Nesting::default();
    let last = prog.insts.len().saturating_sub(1);
    for (ip, inst) in prog.insts.iter().enumerate() {
        let fail = |what: String| Err(format!("instruction {ip} ({inst}): {what}"));
        if let Some(what) = check_operands(prog, inst) {
            return fail(what);
        }
        if let Some(what) = check_op(inst) {
            return fail(what);
        }
        if matches!(inst.op, Op::UrbWrite { eot: true, .. }) && ip != last {
            return fail("an end-of-thread URB write before the last instruction".into());
        }
        if let Err(what) = nesting.step(inst.flow()) {
            return fail(what.into());
        }
    }
    nesting.finish()
}

/// Register numbers within their files, write masks and predicate controls well-formed.
fn check_operands(prog: &Program, inst: &Inst) -> Option<String> {
    if !inst.op.is_flow() {
        if let Some(what) = check_dst(prog, &inst.dst) {
            return Some(format!("destination: {what}"));
        }
    }
    for (i, s) in inst.src.iter().enumerate() {
        if let Some(what) = check_src(prog, s) {
            return Some(format!("source {i}: {what}"));
        }
    }
    // Per channel (1) or any/all of a vertex's four (align16 any4h/all4h).
    if inst.pred.is_some() && !matches!(inst.pred_ctrl, 1 | 6 | 7) {
        return Some(format!("predicate control {}", inst.pred_ctrl));
    }
    None
}

fn check_dst(prog: &Program, d: &Dst) -> Option<String> {
    if d.writemask & !0xf != 0 || (d.writemask == 0 && d.file != File::Null) {
        return Some(format!("write mask {:#x}", d.writemask));
    }
    match d.file {
        File::Null => None,
        File::Vgrf | File::Fixed => check_nr(prog, d.file, d.nr),
        other => Some(format!("a destination in {other:?}")),
    }
}

fn check_src(prog: &Program, s: &Src) -> Option<String> {
    match s.file {
        File::Imm if s.negate || s.abs => Some("a modifier on an immediate".into()),
        // The encoding has no swizzle for an immediate: a vector-float one is read as it is.
        File::Imm if s.ty == RegType::VF && s.swizzle != XYZW => {
            Some("a swizzle on a vector immediate".into())
        }
        File::Imm => None,
        // Null is what a one-source math's unused second operand reads, in codegen only.
        File::Null => Some("a null source".into()),
        file => check_nr(prog, file, s.nr),
    }
}

/// Whether register `nr` exists in `file`.
fn check_nr(prog: &Program, file: File, nr: u32) -> Option<String> {
    let size = match file {
        File::Vgrf => prog.num_vgrfs,
        File::Fixed => GRF_COUNT,
        File::Attr => MAX_ATTR_SLOTS,
        File::Uniform => MAX_PUSH_VEC4S,
        File::Patch => super::ir::MAX_PATCH_PUSH_SLOTS,
        File::Null | File::Imm => return None,
    };
    (nr >= size).then(|| format!("{file:?} register {nr} of {size}"))
}

/// Sources and destination of the kinds and counts the operation takes.
fn check_op(inst: &Inst) -> Option<String> {
    let n = inst.src.len();
    let count = |want: usize| (n != want).then(|| format!("{n} sources, not {want}"));
    // Instructions codegen expands by hand: their predicate, flag write and saturate would
    // be dropped silently.
    let expanded = matches!(
        inst.op,
        Op::UrbHeader
            | Op::SamplerHeader { .. }
            | Op::UrbWrite { .. }
            | Op::GsWriteOffset { .. }
            | Op::GsVertexCount
            | Op::GsClearR0Dword2
            | Op::GsInstanceId
            | Op::UrbChannelMask { .. }
            | Op::FindLiveChannel
            | Op::Broadcast
            | Op::TesInputHeader
            | Op::TesIndirectOffset
            | Op::UrbRead { .. }
            | Op::TesPrimitiveId
            | Op::TcsInstanceId
            | Op::TcsPrimitiveId
            | Op::TcsInputHeader
            | Op::TcsOutputHeader { .. }
            | Op::TcsBarrierHeader { .. }
            | Op::Barrier
            | Op::TcsReleaseInput { .. }
            | Op::TcsThreadEnd
            | Op::MulHigh
    );
    if (expanded || matches!(inst.op, Op::Else | Op::EndIf | Op::Do)) && inst.pred.is_some() {
        return Some("a predicate it cannot have".into());
    }
    if !matches!(inst.op, Op::Alu(_) | Op::Math(_)) && (inst.cmod != CondMod::None || inst.sat) {
        return Some("a conditional modifier or saturate on a message or flow".into());
    }
    match inst.op {
        Op::Alu(o) => check_alu(inst, o),
        Op::Math(f) => {
            let want = if two_source_math(f) { 2 } else { 1 };
            count(want).or_else(|| {
                inst.src
                    .iter()
                    .any(|s| s.file == File::Imm)
                    .then(|| "an immediate in a math instruction".into())
            })
        }
        Op::UrbHeader | Op::SamplerHeader { .. } => count(1)
            .or_else(|| fixed_dst(inst))
            .or_else(|| (inst.src[0].file != File::Fixed).then(|| "g0 is not its source".into())),
        Op::GsWriteOffset { .. } | Op::GsVertexCount => {
            count(1).or_else(|| fixed_dst(inst)).or_else(|| {
                let s = &inst.src[0];
                (!matches!(s.file, File::Vgrf | File::Imm)
                    || s.negate
                    || s.abs
                    || swz_get(s.swizzle, 0) != 0)
                    .then(|| "a count not in x of a register or an immediate".into())
            })
        }
        Op::GsClearR0Dword2 => count(0).or_else(|| null_dst(inst)),
        Op::UrbChannelMask { .. } => count(0).or_else(|| fixed_dst(inst)),
        Op::TesInputHeader | Op::TesPrimitiveId => count(0).or_else(|| vgrf_dst(inst)),
        Op::TesIndirectOffset | Op::UrbRead { .. } => {
            let want = if inst.op == Op::TesIndirectOffset {
                2
            } else {
                1
            };
            count(want).or_else(|| vgrf_dst(inst)).or_else(|| {
                inst.src
                    .iter()
                    .any(|s| s.file != File::Vgrf || s.negate || s.abs)
                    .then(|| "a URB read header or offset not a plain virtual register".into())
            })
        }
        Op::TcsInstanceId | Op::TcsPrimitiveId => count(0).or_else(|| vgrf_dst(inst)),
        Op::MulHigh => count(2).or_else(|| vgrf_dst(inst)).or_else(|| {
            inst.src
                .iter()
                .any(|s| {
                    !matches!(
                        s.file,
                        File::Vgrf | File::Attr | File::Uniform | File::Patch
                    ) || s.ty != inst.dst.ty
                        || !matches!(s.ty, RegType::D | RegType::UD)
                })
                .then(|| "a high multiply of other than D or UD registers".into())
        }),
        Op::TcsInputHeader | Op::TcsOutputHeader { .. } => {
            let (lo, hi) = if inst.op == Op::TcsInputHeader {
                (1, 2)
            } else {
                (0, 1)
            };
            if n < lo || n > hi {
                return Some(format!("{n} sources, not {lo} to {hi}"));
            }
            if !matches!(inst.dst.file, File::Vgrf | File::Fixed) || inst.dst.writemask != 0xf {
                return Some("a header not written whole to a register".into());
            }
            inst.src.iter().enumerate().find_map(|(k, s)| {
                let imm_ok = inst.op == Op::TcsInputHeader && k == 0;
                (!(s.file == File::Vgrf || (imm_ok && s.file == File::Imm)) || s.negate || s.abs)
                    .then(|| "a vertex or offset not a plain virtual register".into())
            })
        }
        Op::TcsBarrierHeader { .. } | Op::TcsReleaseInput { .. } | Op::TcsThreadEnd => {
            count(0).or_else(|| fixed_dst(inst))
        }
        Op::Barrier => count(1).or_else(|| null_dst(inst)).or_else(|| {
            (inst.src[0].file != File::Fixed)
                .then(|| "a barrier header not in a fixed register".into())
        }),
        Op::UrbWrite {
            mlen,
            kind: UrbKind::GsControl | UrbKind::TcsOutput,
            ..
        } if mlen != 2 => Some(format!("OWord write of {mlen} registers, not 2")),
        Op::UrbWrite { mlen, kind, .. } => count(1).or_else(|| null_dst(inst)).or_else(|| {
            let s = &inst.src[0];
            if s.file != File::Fixed {
                Some("a message not in fixed registers".into())
            } else if !matches!(kind, UrbKind::GsControl | UrbKind::TcsOutput)
                && (mlen == 0 || (mlen % 2 == 0 && kind != UrbKind::Gen4Vertex))
            {
                Some(format!(
                    "message length {mlen} (header and whole rows: odd)"
                ))
            } else if s.nr + mlen > GRF_COUNT {
                Some(format!("message g{}..g{} past the file", s.nr, s.nr + mlen))
            } else {
                whole_register(s)
            }
        }),
        Op::Tex { indexed, .. } => {
            let msg = &inst.src[..n.saturating_sub(indexed as usize)];
            let m = msg.len();
            if m == 0 || m > MAX_TEX_MLEN {
                return Some(format!("{m} message registers"));
            }
            if inst.dst.file == File::Null {
                return Some("a sampler message without a reply register".into());
            }
            if indexed && inst.src[n - 1].file != File::Vgrf {
                return Some("a sampler index outside the virtual registers".into());
            }
            let first = msg[0].nr;
            msg.iter().enumerate().find_map(|(k, s)| {
                if s.file != File::Fixed || s.nr != first + k as u32 {
                    Some("message registers not consecutive fixed registers".into())
                } else {
                    whole_register(s)
                }
            })
        }
        Op::UntypedAtomic { aop, .. } => {
            // The address, and the operand of all but increment and decrement.
            let want = 1 + usize::from(!matches!(aop, 5 | 6 | 15));
            count(want)
                .or_else(|| {
                    (!matches!(inst.dst.file, File::Null | File::Vgrf) || inst.dst.writemask != 1)
                        .then(|| "an atomic's old value not to x of a register or null".into())
                })
                .or_else(|| {
                    let first = inst.src[0].nr;
                    inst.src.iter().enumerate().find_map(|(k, s)| {
                        (s.file != File::Fixed || s.nr != first + k as u32)
                            .then(|| "message registers not consecutive fixed registers".into())
                    })
                })
        }
        Op::FindLiveChannel | Op::GsInstanceId => count(0).or_else(|| vgrf_dst(inst)),
        Op::Broadcast => count(2).or_else(|| vgrf_dst(inst)).or_else(|| {
            inst.src
                .iter()
                .any(|s| !matches!(s.file, File::Vgrf | File::Attr) || s.negate || s.abs)
                .then(|| "a broadcast source not a plain register".into())
        }),
        Op::PullLoad { indexed, .. } => count(1 + indexed as usize)
            .or_else(|| {
                (indexed && inst.src[1].file != File::Vgrf)
                    .then(|| "a surface index outside the virtual registers".into())
            })
            .or_else(|| (inst.dst.file == File::Null).then(|| "no reply register".into()))
            .or_else(|| {
                let s = &inst.src[0];
                if !matches!(s.file, File::Vgrf | File::Fixed) {
                    Some(format!("an offset in {:?}", s.file))
                } else if s.negate || s.abs {
                    Some("a modifier on the offset".into())
                } else if swz_get(s.swizzle, 0) != 0 {
                    // The send reads each vertex's x whatever the swizzle says.
                    Some("an offset swizzle whose first channel is not x".into())
                } else {
                    None
                }
            }),
        Op::ScratchWrite { .. } => count(1).or_else(|| null_dst(inst)).or_else(|| {
            let s = &inst.src[0];
            (s.file != File::Vgrf)
                .then(|| "a spill of something other than a virtual register".into())
                .or_else(|| whole_register(s))
        }),
        Op::ScratchRead { .. } => count(0).or_else(|| {
            (inst.dst.file != File::Vgrf || inst.dst.writemask != 0xf)
                .then(|| "a fill not of a whole virtual register".into())
        }),
        Op::If | Op::Else | Op::EndIf | Op::Do | Op::While | Op::Break | Op::Continue => count(0),
    }
}

/// An ALU instruction: a plain opcode, as many sources as it has, immediates only where the
/// encoding has room for one.
fn check_alu(inst: &Inst, o: Opcode) -> Option<String> {
    if o.is_flow() || o.is_send() || o == Opcode::Math {
        return Some(format!("{} as a plain ALU instruction", o.name()));
    }
    let n = inst.src.len();
    let want = usize::from(o.desc().nsrc);
    if n != want {
        return Some(format!("{n} sources, not {want}"));
    }
    for (k, s) in inst.src.iter().enumerate() {
        let ok = if o.is_three_src() {
            matches!(s.file, File::Vgrf | File::Attr)
        } else if s.file == File::Imm {
            o == Opcode::Mov || (n == 2 && k == 1)
        } else {
            true
        };
        if !ok {
            return Some(format!("source {k} in {:?} not encodable", s.file));
        }
    }
    None
}

/// Math functions of two operands.
fn two_source_math(f: MathFn) -> bool {
    matches!(
        f,
        MathFn::Pow
            | MathFn::Fdiv
            | MathFn::IntDivQuotientAndRemainder
            | MathFn::IntDivQuotient
            | MathFn::IntDivRemainder
    )
}

fn fixed_dst(inst: &Inst) -> Option<String> {
    (inst.dst.file != File::Fixed).then(|| "a header outside the fixed registers".into())
}

fn vgrf_dst(inst: &Inst) -> Option<String> {
    (inst.dst.file != File::Vgrf).then(|| "a destination outside the virtual registers".into())
}

fn null_dst(inst: &Inst) -> Option<String> {
    (inst.dst.file != File::Null).then(|| "a destination on a write message".into())
}

/// Message payloads are sent whole: a swizzle or modifier on one would be ignored.
fn whole_register(s: &Src) -> Option<String> {
    (s.swizzle != XYZW || s.negate || s.abs)
        .then(|| "a swizzle or modifier on a message register".into())
}

#[cfg(test)]
mod tests;
