//! Four 32-bit words → instruction model.
//!
//! Decoding extracts the fields of each format the opcode can have and accepts the first whose
//! re-encoding reproduces every bit that is not "don't care": a word with a stray bit in a
//! reserved position is rejected rather than silently losing that bit.

use std::fmt;

use super::bits::{self, *};
use super::encode::encode_u128;
use super::inst::*;
use super::opcode::{Class, Format, Opcode, Slot, EXTENDED};

/// Why four words are not an instruction gpucc knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub words: [u32; 4],
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.words;
        write!(
            f,
            "{:08x} {:08x} {:08x} {:08x}: {}",
            w[0], w[1], w[2], w[3], self.message
        )
    }
}

impl std::error::Error for DecodeError {}

/// Decodes one instruction.
pub fn decode(words: [u32; 4]) -> Result<Inst, DecodeError> {
    let v = bits::to_u128(words);
    let err = |message: String| DecodeError { words, message };
    let opc = get(v, OPCODE) | (u32::from(bit(v, OPCODE_BIT6)) << 6);
    let opcode = if opc == EXTENDED {
        let ext = get(v, (SRC[2].reg, 9));
        Opcode::from_ext_bits(ext).ok_or_else(|| err(format!("unknown extended opcode {ext}")))?
    } else {
        Opcode::from_bits(opc).ok_or_else(|| err(format!("unknown opcode 0x{opc:02x}")))?
    };
    let mut first_error = None;
    for &format in opcode.formats() {
        match decode_as(v, opcode, format) {
            Ok(inst) => return Ok(inst),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(err(first_error.unwrap_or_else(|| {
        format!("no encoding of {}", opcode.name())
    })))
}

fn thread(v: u128) -> Result<Thread, String> {
    match (bit(v, HIGH_HALF), bit(v, LOW_HALF)) {
        (false, false) => Ok(Thread::Both),
        (false, true) => Ok(Thread::T0),
        (true, false) => Ok(Thread::T1),
        (true, true) => Err("both thread bits set".to_string()),
    }
}

fn amode(x: u32, what: &str) -> Result<AddrMode, String> {
    AddrMode::from_bits(x).ok_or_else(|| format!("invalid addressing mode {x} in {what}"))
}

fn dst(v: u128) -> Result<Dst, String> {
    Ok(Dst {
        use_: bit(v, DST_USE),
        reg: get(v, DST_REG) as u8,
        amode: amode(get(v, DST_AMODE), "dst")?,
        mask: get(v, DST_MASK) as u8,
    })
}

fn src(v: u128, slot: usize) -> Result<Src, String> {
    let b = &SRC[slot];
    let reg = get(v, (b.reg, 9));
    let swiz = get(v, (b.swiz, 8));
    let neg = bit(v, b.neg);
    let abs = bit(v, b.abs);
    let am = get(v, (b.amode, 3));
    let group = get(v, (b.group, 3));
    let kind = if group == GROUP_IMMEDIATE {
        let bits =
            ((am & 1) << 19) | (u32::from(abs) << 18) | (u32::from(neg) << 17) | (swiz << 9) | reg;
        SrcKind::Imm(Imm {
            ty: ImmType::ALL[(am >> 1) as usize],
            bits,
        })
    } else {
        let group = RegGroup::from_bits(group)
            .ok_or_else(|| format!("invalid register group {group} in src{slot}"))?;
        SrcKind::Reg(RegSrc {
            group,
            reg: reg as u16,
            amode: amode(am, &format!("src{slot}"))?,
            swiz: Swizzle(swiz as u8),
            neg,
            abs,
        })
    };
    Ok(Src {
        use_: bit(v, b.use_),
        kind,
    })
}

fn decode_as(v: u128, opcode: Opcode, format: Format) -> Result<Inst, String> {
    let mut inst = Inst::new(opcode);
    if format.has_cond() {
        let c = get(v, COND);
        inst.cond = Cond::from_bits(c).ok_or_else(|| format!("invalid condition {c}"))?;
    }
    inst.sat = bit(v, SAT);
    inst.ty = DataType::from_bits((u32::from(bit(v, TYPE_BIT2)) << 2) | get(v, TYPE_BIT01));
    match format.class() {
        Class::Alu => {
            inst.dst = dst(v)?;
            inst.unk = bit(v, UNK);
            inst.rounding = Rounding::ALL[get(v, RMODE) as usize];
            inst.pack = !bit(v, PMODE);
            inst.skphp = bit(v, SKPHP);
            inst.thread = thread(v)?;
            inst.dst_full = bit(v, DST_FULL);
        }
        Class::Tex => {
            inst.dst = dst(v)?;
            inst.tex = Tex {
                id: get(v, TEX_ID) as u8,
                amode: amode(get(v, TEX_AMODE), "texture")?,
                swiz: Swizzle(get(v, TEX_SWIZ) as u8),
            };
            inst.thread = thread(v)?;
        }
        Class::Cf => inst.target = get(v, TARGET) as u16,
        Class::Load | Class::Store => {
            if format.class() == Class::Load {
                inst.dst = dst(v)?;
            } else {
                inst.dst.mask = get(v, DST_MASK) as u8;
            }
            inst.pack = !bit(v, PMODE);
            inst.left_shift = get(v, LEFT_SHIFT) as u8;
            inst.skphp = bit(v, SKPHP);
            inst.local = bit(v, LOCAL);
            inst.denorm = bit(v, DENORM);
            inst.thread = thread(v)?;
            inst.dst_full = bit(v, DST_FULL);
        }
    }
    for (slot, rule) in format.slots().iter().enumerate() {
        match rule {
            Slot::Absent => {}
            Slot::Present | Slot::Optional => {
                let s = src(v, slot)?;
                if *rule == Slot::Present && !s.use_ {
                    return Err(format!("{} needs src{slot}", opcode.name()));
                }
                inst.src[slot] = s;
            }
        }
    }
    let dc = dontcare_mask(format);
    inst.dontcare = bits::to_words(v & dc);
    if inst.format() != format {
        return Err(format!(
            "source use does not fit {} ({format:?})",
            opcode.name()
        ));
    }
    let re = encode_u128(&inst);
    if re & !dc != v & !dc {
        let stray = (re ^ v) & !dc;
        return Err(format!(
            "reserved bits set for {} ({format:?}): {:032x}",
            opcode.name(),
            stray
        ));
    }
    Ok(inst)
}
