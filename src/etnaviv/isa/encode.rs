//! Instruction model → four 32-bit words.

use super::bits::{self, *};
use super::inst::{Imm, Inst, Src, SrcKind};
use super::opcode::{Class, Format, Slot};

/// Encodes `inst`. Fields its format does not use are ignored, so any [`Inst`] encodes; use
/// [`super::validate()`] to check that it is meaningful for a core.
pub fn encode(inst: &Inst) -> [u32; 4] {
    to_words(encode_u128(inst))
}

fn imm_fields(imm: Imm) -> (u32, u32, bool, bool, u32) {
    let v = imm.bits & 0xf_ffff;
    let reg = v & 0x1ff;
    let swiz = (v >> 9) & 0xff;
    let neg = (v >> 17) & 1 == 1;
    let abs = (v >> 18) & 1 == 1;
    let amode = ((imm.ty as u32) << 1) | (v >> 19);
    (reg, swiz, neg, abs, amode)
}

fn put_src(v: &mut u128, slot: usize, src: &Src) {
    let b = &SRC[slot];
    put_bit(v, b.use_, src.use_);
    match src.kind {
        SrcKind::Reg(r) => {
            put(v, (b.reg, 9), r.reg.into());
            put(v, (b.swiz, 8), r.swiz.0.into());
            put_bit(v, b.neg, r.neg);
            put_bit(v, b.abs, r.abs);
            put(v, (b.amode, 3), r.amode as u32);
            put(v, (b.group, 3), r.group.bits());
        }
        SrcKind::Imm(imm) => {
            let (reg, swiz, neg, abs, amode) = imm_fields(imm);
            put(v, (b.reg, 9), reg);
            put(v, (b.swiz, 8), swiz);
            put_bit(v, b.neg, neg);
            put_bit(v, b.abs, abs);
            put(v, (b.amode, 3), amode);
            put(v, (b.group, 3), GROUP_IMMEDIATE);
        }
    }
}

fn put_dst(v: &mut u128, inst: &Inst) {
    put_bit(v, DST_USE, inst.dst.use_);
    put(v, DST_AMODE, inst.dst.amode as u32);
    put(v, DST_REG, inst.dst.reg.into());
    put(v, DST_MASK, inst.dst.mask.into());
}

fn put_thread(v: &mut u128, inst: &Inst) {
    let t = inst.thread as u32;
    put_bit(v, LOW_HALF, t & 1 == 1);
    put_bit(v, HIGH_HALF, t & 2 == 2);
}

pub(crate) fn encode_u128(inst: &Inst) -> u128 {
    let format = inst.format();
    let mut v = 0u128;
    let opc = inst.opcode.bits();
    put(&mut v, OPCODE, opc & 0x3f);
    put_bit(&mut v, OPCODE_BIT6, opc & 0x40 != 0);
    if format.has_cond() {
        put(&mut v, COND, inst.cond.bits());
    }
    put_bit(&mut v, SAT, inst.sat);
    let ty = inst.ty.bits();
    put_bit(&mut v, TYPE_BIT2, ty & 4 != 0);
    put(&mut v, TYPE_BIT01, ty & 3);

    match format.class() {
        Class::Alu => {
            put_dst(&mut v, inst);
            put_bit(&mut v, UNK, inst.unk);
            put(&mut v, RMODE, inst.rounding as u32);
            put_bit(&mut v, PMODE, !inst.pack);
            put_bit(&mut v, SKPHP, inst.skphp);
            put_thread(&mut v, inst);
            put_bit(&mut v, DST_FULL, inst.dst_full);
        }
        Class::Tex => {
            put_dst(&mut v, inst);
            put(&mut v, TEX_ID, inst.tex.id.into());
            put(&mut v, TEX_AMODE, inst.tex.amode as u32);
            put(&mut v, TEX_SWIZ, inst.tex.swiz.0.into());
            put_thread(&mut v, inst);
        }
        Class::Cf => {
            put(&mut v, TARGET, inst.target.into());
        }
        Class::Load | Class::Store => {
            if format.class() == Class::Load {
                put_dst(&mut v, inst);
            } else {
                put(&mut v, DST_MASK, inst.dst.mask.into());
            }
            put_bit(&mut v, PMODE, !inst.pack);
            put(&mut v, LEFT_SHIFT, inst.left_shift.into());
            put_bit(&mut v, SKPHP, inst.skphp);
            put_bit(&mut v, LOCAL, inst.local);
            put_bit(&mut v, DENORM, inst.denorm);
            put_thread(&mut v, inst);
            put_bit(&mut v, DST_FULL, inst.dst_full);
        }
    }

    for (slot, rule) in format.slots().iter().enumerate() {
        if *rule != Slot::Absent {
            put_src(&mut v, slot, &inst.src[slot]);
        }
    }
    if format == Format::ExtSrc0 {
        let b = &SRC[2];
        put_bit(&mut v, b.use_, true);
        put(&mut v, (b.reg, 9), inst.opcode.ext_bits().unwrap_or(0));
        put(&mut v, (b.amode, 3), 4);
        put(&mut v, (b.group, 3), GROUP_IMMEDIATE);
    }
    v | (bits::to_u128(inst.dontcare) & dontcare_mask(format))
}
