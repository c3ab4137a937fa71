//! Validator for the operand and region rules the hardware imposes, after the rule families of
//! Mesa's `brw_eu_validate.c`: operand types, region parameters, register alignment, vector
//! immediates, double precision and send restrictions. Both code generators run it on every
//! program they emit, release builds included, and refuse the program with an internal error
//! when a rule is broken (wrong code must not reach the hardware); the assembler does not, so
//! hand-written tests can still express invalid code.

use super::inst::{Inst, RegSrc, Region, Src};
use super::types::{arf, AccessMode, MathFn, Opcode, RegFile, RegType};
use crate::intel::msg::Lengths;
use crate::intel::DevInfo;

/// The family of a broken rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Types an operand may have on this generation and opcode.
    OperandTypes,
    /// Align1 region parameters (vertical stride, width, horizontal stride, exec size).
    RegionParameters,
    /// Subregister alignment to the element size and align16's 16-byte alignment.
    RegisterAlignment,
    /// V/UV/VF immediates and their destination layout.
    VectorImmediates,
    /// 64-bit operand restrictions.
    DoublePrecision,
    /// SEND/SENDC payload and end-of-thread restrictions.
    SendRestrictions,
}

/// A broken hardware rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// Instruction index in the program.
    pub index: usize,
    /// Rule family.
    pub rule: Rule,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "instruction {}: {:?}: {}",
            self.index, self.rule, self.message
        )
    }
}

/// Checks every instruction; an empty result means the program follows the rules checked.
pub fn validate(devinfo: &DevInfo, insts: &[Inst]) -> Vec<ValidationError> {
    let mut out = Vec::new();
    for (index, inst) in insts.iter().enumerate() {
        let mut report = |rule: Rule, message: String| {
            out.push(ValidationError {
                index,
                rule,
                message,
            })
        };
        check_inst(devinfo, inst, &mut report);
    }
    out
}

fn reg_srcs(inst: &Inst) -> impl Iterator<Item = (usize, &RegSrc)> {
    inst.src
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_reg().map(|r| (i, r)))
}

/// Sources that are real data operands (not descriptors or hidden flow-control operands).
fn data_srcs(inst: &Inst) -> usize {
    let op = inst.opcode;
    // Opcodes without printed operands (flow control, the thread-stack and call opcodes,
    // nop) carry only hidden or unused operand fields.
    let operandless = op.desc().nsrc == 0 && op.desc().ndst == 0;
    if op.is_send()
        || op.is_flow()
        || operandless
        || matches!(op, Opcode::Nop | Opcode::Wait | Opcode::Jmpi | Opcode::Do)
    {
        0
    } else {
        inst.src.len()
    }
}

fn check_inst(devinfo: &DevInfo, inst: &Inst, report: &mut dyn FnMut(Rule, String)) {
    let ver = devinfo.ver;
    let op = inst.opcode;
    let n = data_srcs(inst);
    let three = op.is_three_src();
    let align1 = inst.access_mode == AccessMode::Align1;

    // Operand types.
    let dst_ty = inst.dst.ty;
    if n > 0 {
        if dst_ty.reg_hw(ver).is_none() {
            report(
                Rule::OperandTypes,
                format!(
                    "destination type {dst_ty} does not exist on {}",
                    devinfo.name
                ),
            );
        }
        // A unary math function's unused second operand is the null register; any other
        // data source (a math function's first, a binary one's second) is not.
        let unary_math = op == Opcode::Math
            && inst.math_fn.is_some_and(|f| {
                !matches!(
                    f,
                    MathFn::Fdiv
                        | MathFn::Pow
                        | MathFn::IntDivQuotientAndRemainder
                        | MathFn::IntDivQuotient
                        | MathFn::IntDivRemainder
                )
            });
        for (i, s) in inst.src[..n].iter().enumerate() {
            if let Src::Reg(r) = s {
                if r.file == RegFile::Arf && r.nr == arf::NULL && !(unary_math && i == 1) {
                    report(
                        Rule::OperandTypes,
                        "a data source is the null register".into(),
                    );
                }
            }
        }
        if dst_ty.size() == 1
            && inst.dst.hstride == 1
            && inst.dst.file != RegFile::Arf
            && inst.exec_size > 1
        {
            // Packed only as a plain copy: no source modifier, no saturation.
            let packed_mov = op == Opcode::Mov
                && !inst.saturate
                && inst.src.first().is_some_and(|s| {
                    s.ty().size() == 1 && !s.as_reg().is_some_and(|r| r.negate || r.abs)
                });
            if !packed_mov {
                report(
                    Rule::OperandTypes,
                    "byte destinations need a stride of 2 except in a packed byte MOV".into(),
                );
            }
        }
        // No direct conversion between bytes and 64-bit types, in either direction.
        let src_sizes = || inst.src[..n].iter().map(|s| s.ty().size());
        if (dst_ty.size() == 1 && src_sizes().any(|z| z == 8))
            || (dst_ty.size() == 8 && src_sizes().any(|z| z == 1))
        {
            report(
                Rule::OperandTypes,
                "no direct conversion between bytes and 64-bit types".into(),
            );
        }
        if op == Opcode::Math && ver >= 60 {
            let int_fn = inst.math_fn.is_some_and(|f| f.hw() >= 11 && f.hw() <= 13);
            for s in &inst.src[..n] {
                let t = s.ty();
                let allowed = int_fn && matches!(t, RegType::D | RegType::UD)
                    || t == RegType::F
                    || (t == RegType::HF && ver >= 90);
                // The unused second operand of a unary function is null.
                if !allowed && s.file() != RegFile::Arf {
                    report(
                        Rule::OperandTypes,
                        format!("math source type {t} is not allowed"),
                    );
                }
            }
        }
    }

    // Gen7 dropped the message register file; its encoding is invalid there.
    if ver >= 70 && n > 0 {
        let mrf_src = reg_srcs(inst).take(n).any(|(_, r)| r.file == RegFile::Mrf);
        if inst.dst.file == RegFile::Mrf || mrf_src {
            report(
                Rule::OperandTypes,
                format!("there are no message registers on {}", devinfo.name),
            );
        }
    }

    // An align16 destination is written with horizontal stride 1.
    if !align1 && !three && n > 0 && inst.dst.hstride != 1 {
        report(
            Rule::RegionParameters,
            "align16 destination horizontal stride must be 1".into(),
        );
    }

    // Align16 sources step between vec4s by 0 or 4 elements (also 2 from Haswell).
    if !align1 && !three {
        for (i, r) in reg_srcs(inst).take(n) {
            let v = r.region.vstride;
            if !(v == 0 || v == 4 || (v == 2 && ver >= 75)) {
                report(
                    Rule::RegionParameters,
                    format!("align16 src{i} vertical stride {v} is not allowed"),
                );
            }
        }
    }

    // Region parameters (align1, 2-source format).
    if align1 && !three {
        if inst.dst.hstride == 0 && n > 0 {
            report(
                Rule::RegionParameters,
                "destination horizontal stride must not be 0".into(),
            );
        }
        for (i, r) in reg_srcs(inst).take(n) {
            let Region {
                vstride,
                width,
                hstride,
            } = r.region;
            let es = inst.exec_size;
            if width > es {
                report(
                    Rule::RegionParameters,
                    format!("src{i}: width {width} exceeds exec size {es}"),
                );
            }
            if vstride == Region::VXH {
                continue;
            }
            if es == width && hstride != 0 && vstride as u32 != width as u32 * hstride as u32 {
                report(
                    Rule::RegionParameters,
                    format!("src{i}: exec size equals width so vstride must be width*hstride"),
                );
            }
            if width == 1 && hstride != 0 {
                report(
                    Rule::RegionParameters,
                    format!("src{i}: width 1 needs horizontal stride 0"),
                );
            }
            if es == 1 && width == 1 && vstride != 0 {
                report(
                    Rule::RegionParameters,
                    format!("src{i}: scalar exec needs vertical stride 0"),
                );
            }
            if vstride == 0 && hstride == 0 && width != 1 {
                report(
                    Rule::RegionParameters,
                    format!("src{i}: zero strides need width 1"),
                );
            }
        }
    }

    // Register alignment.
    if n > 0 {
        let d = &inst.dst;
        if d.indirect.is_none() && d.file != RegFile::Imm && d.subnr as u32 % dst_ty.size() != 0 {
            report(
                Rule::RegisterAlignment,
                format!(
                    "destination subregister {} is not {dst_ty}-aligned",
                    d.subnr
                ),
            );
        }
        if !align1 && !three && d.subnr % 16 != 0 {
            report(
                Rule::RegisterAlignment,
                "align16 destination must be 16-byte aligned".into(),
            );
        }
        for (i, r) in reg_srcs(inst).take(n) {
            if r.indirect.is_none() && r.subnr as u32 % r.ty.size() != 0 {
                report(
                    Rule::RegisterAlignment,
                    format!("src{i} subregister {} is not {}-aligned", r.subnr, r.ty),
                );
            }
            if !align1 && !three && r.subnr % 16 != 0 {
                report(
                    Rule::RegisterAlignment,
                    format!("align16 src{i} must be 16-byte aligned"),
                );
            }
        }
    }

    // Vector immediates.
    for s in inst.src.iter().take(n) {
        if let Src::Imm(imm) = s {
            if matches!(imm.ty, RegType::V | RegType::UV | RegType::VF) {
                let d = &inst.dst;
                let want = if imm.ty == RegType::VF { 4 } else { 2 };
                let stride_bytes = d.hstride as u32 * dst_ty.size();
                if d.subnr % 16 != 0 || (align1 && stride_bytes != want) {
                    report(
                        Rule::VectorImmediates,
                        format!(
                            "{} immediates need a 16-byte aligned destination with a {}-byte stride",
                            imm.ty, want
                        ),
                    );
                }
            }
        }
    }

    // Double precision and 64-bit integers.
    // The operand types, walked again where needed rather than collected (this runs for
    // every instruction of every program).
    let types = || std::iter::once(dst_ty).chain(inst.src.iter().take(n).map(|s| s.ty()));
    if n > 0 && types().any(|t| t.size() == 8) {
        if ver < 70
            || (types().any(|t| matches!(t, RegType::Q | RegType::UQ)) && !devinfo.has_64bit_int)
        {
            report(
                Rule::DoublePrecision,
                format!("64-bit types are not supported on {}", devinfo.name),
            );
        }
        if ver < 80
            && inst
                .src
                .iter()
                .take(n)
                .any(|s| matches!(s, Src::Imm(i) if i.ty.size() == 8))
        {
            report(Rule::DoublePrecision, "64-bit immediates need Gen8".into());
        }
        if devinfo.is_lp && ver >= 80 {
            // CHV/BXT/GLK: no ARF, no indirect and contiguous regions for 64-bit operands.
            if inst.dst.file == RegFile::Arf && inst.dst.nr != arf::NULL
                || inst.dst.indirect.is_some()
            {
                report(
                    Rule::DoublePrecision,
                    "64-bit destination must be a direct GRF on LP parts".into(),
                );
            }
            for (i, r) in reg_srcs(inst).take(n) {
                if r.file == RegFile::Arf || r.indirect.is_some() {
                    report(
                        Rule::DoublePrecision,
                        format!("64-bit src{i} must be a direct GRF on LP parts"),
                    );
                }
                if align1
                    && r.region.vstride as u32 != r.region.width as u32 * r.region.hstride as u32
                {
                    report(
                        Rule::DoublePrecision,
                        format!("64-bit src{i} region must be contiguous on LP parts"),
                    );
                }
            }
        }
    }

    // Send restrictions.
    if matches!(op, Opcode::Send | Opcode::Sendc) {
        if let Some(Src::Reg(p)) = inst.src.first() {
            if ver >= 70 && p.file != RegFile::Grf {
                report(
                    Rule::SendRestrictions,
                    "send payload must be a GRF from Gen7 on".into(),
                );
            }
            if ver >= 70 && inst.eot && p.nr < 112 {
                report(
                    Rule::SendRestrictions,
                    "send with EOT must read its payload from g112-g127".into(),
                );
            }
            if p.indirect.is_some() {
                report(
                    Rule::SendRestrictions,
                    "send payload cannot be indirect".into(),
                );
            }
        }
        if let Some(desc) = inst.send_desc() {
            if Lengths::decode(ver, desc).mlen == 0 {
                report(
                    Rule::SendRestrictions,
                    "message length must be at least 1".into(),
                );
            }
        }
        if inst.dst.file == RegFile::Grf && ver >= 70 {
            if let Some(Src::Reg(p)) = inst.src.first() {
                let Lengths { mlen, rlen, .. } =
                    Lengths::decode(ver, inst.send_desc().unwrap_or(0));
                let (d0, d1) = (inst.dst.nr as u32, inst.dst.nr as u32 + rlen);
                let (s0, s1) = (p.nr as u32, p.nr as u32 + mlen);
                if inst.eot && rlen > 0 && d0 < s1 && s0 < d1 {
                    report(
                        Rule::SendRestrictions,
                        "EOT send destination overlaps its payload".into(),
                    );
                }
            }
        }
    }
}
