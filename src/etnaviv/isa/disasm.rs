//! Instruction model → text, in the syntax of Mesa's isaspec-based etnaviv disassembler.
//!
//! The mnemonic and its modifiers are followed by a space and padded to column 18; then come
//! the destination and the three sources (`void` when unused), the texture operand for sampling
//! instructions, and the branch target for control flow. The modifier order differs between
//! instruction families; it is reproduced exactly so that the output matches Mesa's.

use std::fmt::Write;

use super::bits;
use super::float::{f16_to_f32, format_imm_float};
use super::inst::*;
use super::opcode::{Class, Format};

const COLUMN: usize = 18;

const MASK_NAMES: [&str; 16] = [
    ".____", ".x___", "._y__", ".xy__", ".__z_", ".zx", ".zy", ".xyz_", ".___w", ".x__w", "._y_w",
    ".xy_w", ".__zw", ".x_zw", "._yzw", "",
];

pub(crate) fn mask_name(mask: u8) -> &'static str {
    MASK_NAMES[(mask & 15) as usize]
}

fn swizzle_name(s: Swizzle) -> String {
    let mut out = String::from(".");
    for i in 0..4 {
        out.push(['x', 'y', 'z', 'w'][s.component(i)]);
    }
    out
}

fn flag(on: bool, text: &'static str) -> &'static str {
    if on {
        text
    } else {
        ""
    }
}

fn alu_mnemonic(inst: &Inst, with_cond: bool) -> String {
    let mut m = String::from(inst.opcode.name());
    m += flag(inst.dst_full, ".hp");
    m += flag(inst.sat, ".sat");
    if with_cond {
        m += inst.cond.suffix();
    }
    m += flag(inst.skphp, ".skpHp");
    m += flag(inst.unk, ".unk");
    m += inst.ty.suffix();
    m += flag(inst.pack, ".pack");
    m += inst.thread.suffix();
    m += inst.rounding.suffix();
    m
}

fn load_store_mnemonic(inst: &Inst) -> String {
    let mut m = String::from(inst.opcode.name());
    m += flag(inst.sat, ".sat");
    m += flag(inst.skphp, ".skpHp");
    m += flag(inst.denorm, ".denorm");
    m += flag(inst.local, ".local");
    m += inst.ty.suffix();
    if inst.left_shift != 0 {
        let _ = write!(m, ".ls{}", inst.left_shift);
    }
    m += flag(inst.pack, ".pack");
    m
}

fn dst_text(dst: &Dst) -> String {
    if !dst.use_ {
        return "void".into();
    }
    format!("t{}{}{}", dst.reg, dst.amode.suffix(), mask_name(dst.mask))
}

/// One source operand as printed (immediates as `value:type`).
pub fn src_text(src: &Src) -> String {
    match src.kind {
        SrcKind::Reg(r) => {
            let bar = flag(r.abs, "|");
            format!(
                "{}{bar}{}{}{}{}{bar}",
                flag(r.neg, "-"),
                r.group.prefix(),
                r.reg,
                r.amode.suffix(),
                swizzle_name(r.swiz)
            )
        }
        SrcKind::Imm(imm) => {
            let value = match imm.ty {
                ImmType::F20 => {
                    let f = f32::from_bits(imm.bits << 12);
                    format_imm_float(f, imm.bits >> 19 & 1 == 1, false)
                }
                ImmType::S20 => ((((imm.bits << 12) as i32) >> 12) as i64).to_string(),
                ImmType::U20 => imm.bits.to_string(),
                ImmType::F16 => {
                    let f = f16_to_f32(imm.bits as u16);
                    format_imm_float(f, imm.bits >> 15 & 1 == 1, true)
                }
            };
            format!("{value}:{}", imm.ty.name())
        }
    }
}

fn opt(src: &Src) -> String {
    if src.use_ {
        src_text(src)
    } else {
        "void".into()
    }
}

/// Disassembles one instruction (without a trailing newline).
pub fn disassemble_inst(inst: &Inst) -> String {
    let format = inst.format();
    let [s0, s1, s2] = &inst.src;
    let (mnemonic, operands): (String, Vec<String>) = match format.class() {
        Class::Alu => {
            let dst = dst_text(&inst.dst);
            let v = || "void".to_string();
            match format {
                Format::AluNoSrc => (
                    inst.opcode.name().to_string(),
                    vec![
                        format!("{dst}{}", flag(inst.dst_full, ".hp")),
                        v(),
                        v(),
                        v(),
                    ],
                ),
                Format::KillNoSrc => (alu_mnemonic(inst, false), vec![dst, v(), v(), v()]),
                Format::KillCond => (alu_mnemonic(inst, true), vec![dst, opt(s0), opt(s1), v()]),
                Format::AluSrc0 | Format::ExtSrc0 => {
                    (alu_mnemonic(inst, false), vec![dst, src_text(s0), v(), v()])
                }
                Format::AluSrc2 => (alu_mnemonic(inst, false), vec![dst, v(), v(), src_text(s2)]),
                Format::AluSrc01 | Format::AluCondSrc01 => (
                    alu_mnemonic(inst, format.has_cond()),
                    vec![dst, src_text(s0), src_text(s1), v()],
                ),
                Format::AluSrc02 => (
                    alu_mnemonic(inst, false),
                    vec![dst, src_text(s0), v(), src_text(s2)],
                ),
                Format::AluSrc12 => (
                    alu_mnemonic(inst, false),
                    vec![dst, v(), src_text(s1), src_text(s2)],
                ),
                _ => (
                    alu_mnemonic(inst, format.has_cond()),
                    vec![dst, src_text(s0), src_text(s1), src_text(s2)],
                ),
            }
        }
        Class::Tex => {
            let mnemonic = format!("{}{}", inst.opcode.name(), inst.thread.suffix());
            let tex = format!("tex{}{}", inst.tex.id, swizzle_name(inst.tex.swiz));
            let v = || "void".to_string();
            let srcs = match format {
                Format::TexSrc0MaybeSrc2 => vec![src_text(s0), v(), opt(s2)],
                Format::TexSrc01 => vec![src_text(s0), src_text(s1), v()],
                Format::TexSrc0MaybeSrc12 => {
                    if s0.use_ && !s1.use_ {
                        vec![src_text(s0), v(), v()]
                    } else if s0.use_ && s1.use_ && s2.use_ {
                        vec![src_text(s0), src_text(s1), src_text(s2)]
                    } else {
                        vec![src_text(s0), src_text(s1), v()]
                    }
                }
                _ => vec![src_text(s0), src_text(s1), src_text(s2)],
            };
            let mut ops = vec![dst_text(&inst.dst), tex];
            ops.extend(srcs);
            (mnemonic, ops)
        }
        Class::Cf => {
            let mut m = String::from(inst.opcode.name());
            if format.has_cond() {
                m += inst.cond.suffix();
            }
            m += inst.ty.suffix();
            let target = inst.target.to_string();
            let ops = match format {
                Format::CfNoSrc => vec!["void".into(), "void".into(), "void".into(), target],
                Format::CfSrc0 => vec!["void".into(), src_text(s0), "void".into(), target],
                _ => vec!["void".into(), src_text(s0), src_text(s1), target],
            };
            (m, ops)
        }
        Class::Load => (
            load_store_mnemonic(inst),
            vec![
                dst_text(&inst.dst),
                src_text(s0),
                src_text(s1),
                "void".into(),
            ],
        ),
        Class::Store => (
            load_store_mnemonic(inst),
            vec![
                format!("mem{}", mask_name(inst.dst.mask)),
                src_text(s0),
                src_text(s1),
                src_text(s2),
            ],
        ),
    };
    let mut line = mnemonic;
    line.push(' ');
    while line.len() < COLUMN {
        line.push(' ');
    }
    line += &operands.join(", ");
    if inst.dontcare.iter().any(|&w| w != 0) {
        let d = bits::to_words(bits::to_u128(inst.dontcare));
        let _ = write!(
            line,
            "\t; dontcare bits in {}: {:08x}{:08x}{:08x}{:08x}",
            inst.opcode.name(),
            d[3],
            d[2],
            d[1],
            d[0]
        );
    }
    line
}

/// Disassembles a program, one instruction per line.
pub fn disassemble(program: &[Inst]) -> String {
    let mut out = String::new();
    for inst in program {
        out += &disassemble_inst(inst);
        out.push('\n');
    }
    out
}
