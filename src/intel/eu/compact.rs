//! Instruction compaction (Gen6+): the 8-byte forms whose control, type, subregister and
//! region fields are indices into per-generation tables (Mesa's `brw_eu_compact.c`), and the
//! program-level pass that compacts what it can and re-targets jumps.
//!
//! [`compact`] only returns a compacted form when expanding it gives back exactly the same 16
//! bytes, so compaction never changes what an instruction means.

use super::compact_tables::*;
use super::inst::Inst;
use super::native::{jump_layout, JumpLayout, Word};
use super::types::{Opcode, RegFile, RegType};
use super::{encode, Encoded, EuError};
use crate::intel::DevInfo;

#[derive(Clone, Copy, Default)]
struct CWord(u64);

impl CWord {
    fn get(&self, hi: u32, lo: u32) -> u64 {
        (self.0 >> lo) & ((1u64 << (hi - lo + 1)) - 1)
    }
    fn set(&mut self, hi: u32, lo: u32, v: u64) {
        let mask = ((1u64 << (hi - lo + 1)) - 1) << lo;
        self.0 = (self.0 & !mask) | ((v << lo) & mask);
    }
}

struct Tables {
    control: &'static [u32; 32],
    datatype: &'static [u32; 32],
    subreg: &'static [u16; 32],
    src: &'static [u16; 32],
}

fn tables(ver: u32) -> Option<Tables> {
    match ver {
        60 => Some(Tables {
            control: &GFX6_CONTROL_INDEX_TABLE,
            datatype: &GFX6_DATATYPE_TABLE,
            subreg: &GFX6_SUBREG_TABLE,
            src: &GFX6_SRC_INDEX_TABLE,
        }),
        70 | 75 => Some(Tables {
            control: &GFX7_CONTROL_INDEX_TABLE,
            datatype: &GFX7_DATATYPE_TABLE,
            subreg: &GFX7_SUBREG_TABLE,
            src: &GFX7_SRC_INDEX_TABLE,
        }),
        80 | 90 => Some(Tables {
            control: &GFX8_CONTROL_INDEX_TABLE,
            datatype: &GFX8_DATATYPE_TABLE,
            subreg: &GFX8_SUBREG_TABLE,
            src: &GFX8_SRC_INDEX_TABLE,
        }),
        _ => None,
    }
}

/// CHV and Gen9 widened the 3-source compaction fields.
fn wide_3src(devinfo: &DevInfo) -> bool {
    devinfo.ver >= 90 || devinfo.name == "chv"
}

fn find<T: Copy + PartialEq>(table: &[T], v: T) -> Option<u64> {
    table.iter().position(|&e| e == v).map(|p| p as u64)
}

/// The 13-bit compacted immediate (Gen6–Gen11): the low 12 bits, with bit 12 replicated
/// through the top.
fn compact_immediate(imm: u32) -> Option<u64> {
    let s = imm as i32 >> 12;
    (s == 0 || s == -1).then_some((imm & 0x1fff) as u64)
}

fn uncompact_immediate(c: u64) -> u32 {
    (((c as u32) << 19) as i32 >> 19) as u32
}

/// Register files of the two sources, which also tell whether an immediate is present.
fn src_files(ver: u32, w: &Word) -> (RegFile, RegFile) {
    if ver >= 80 {
        (
            RegFile::from_hw(w.get(42, 41)),
            RegFile::from_hw(w.get(90, 89)),
        )
    } else {
        (
            RegFile::from_hw(w.get(38, 37)),
            RegFile::from_hw(w.get(43, 42)),
        )
    }
}

fn imm_type(ver: u32, w: &Word) -> Option<Option<RegType>> {
    let (f0, f1) = src_files(ver, w);
    let hw = if f0 == RegFile::Imm {
        if ver >= 80 {
            w.get(46, 43)
        } else {
            w.get(41, 39)
        }
    } else if f1 == RegFile::Imm {
        if ver >= 80 {
            w.get(94, 91)
        } else {
            w.get(46, 44)
        }
    } else {
        return None;
    };
    Some(RegType::from_hw(ver, RegFile::Imm, hw))
}

fn control_bits(ver: u32, w: &Word) -> u32 {
    (if ver >= 80 {
        (w.get(33, 31) << 16)
            | (w.get(23, 12) << 4)
            | (w.get(10, 9) << 2)
            | (w.get(34, 34) << 1)
            | w.get(8, 8)
    } else {
        let mut v = (w.get(31, 31) << 16) | w.get(23, 8);
        if ver / 10 == 7 {
            v |= w.get(90, 89) << 17;
        }
        v
    }) as u32
}

fn set_control_bits(ver: u32, w: &mut Word, v: u32) {
    let v = v as u64;
    if ver >= 80 {
        w.set(33, 31, v >> 16);
        w.set(23, 12, (v >> 4) & 0xfff);
        w.set(10, 9, (v >> 2) & 3);
        w.set(34, 34, (v >> 1) & 1);
        w.set(8, 8, v & 1);
    } else {
        w.set(31, 31, (v >> 16) & 1);
        w.set(23, 8, v & 0xffff);
        if ver / 10 == 7 {
            w.set(90, 89, v >> 17);
        }
    }
}

fn datatype_bits(ver: u32, w: &Word) -> u32 {
    (if ver >= 80 {
        (w.get(63, 61) << 18) | (w.get(94, 89) << 12) | w.get(46, 35)
    } else {
        (w.get(63, 61) << 15) | w.get(46, 32)
    }) as u32
}

fn set_datatype_bits(ver: u32, w: &mut Word, v: u32) {
    let v = v as u64;
    if ver >= 80 {
        w.set(63, 61, v >> 18);
        w.set(94, 89, (v >> 12) & 0x3f);
        w.set(46, 35, v & 0xfff);
    } else {
        w.set(63, 61, v >> 15);
        w.set(46, 32, v & 0x7fff);
    }
}

/// Compacts a native instruction, if the generation's tables can express it exactly.
pub fn compact(devinfo: &DevInfo, native: &[u8; 16]) -> Option<[u8; 8]> {
    let c = try_compact(devinfo, native)?;
    // Only accept forms that expand back to the very same bits.
    let back = uncompact(devinfo, &c).ok()?;
    (back == *native).then_some(c)
}

fn try_compact(devinfo: &DevInfo, native: &[u8; 16]) -> Option<[u8; 8]> {
    let ver = devinfo.ver;
    let t = tables(ver)?;
    let w = Word::from_bytes(native);
    if w.get(29, 29) != 0 || w.get(7, 7) != 0 {
        return None;
    }
    let op = Opcode::from_hw(ver, w.get(6, 0) as u8)?;
    if op.is_three_src() {
        return if ver >= 80 {
            compact_3src(devinfo, &w)
        } else {
            None
        };
    }
    if op.is_send() && w.get(127, 127) != 0 {
        return None;
    }
    let imm = match imm_type(ver, &w) {
        None => None,
        Some(None) => return None,
        Some(Some(ty)) if ty.size() == 8 => return None,
        Some(Some(_)) => Some(compact_immediate(w.get(127, 96) as u32)?),
    };
    let unmapped = if ver >= 80 {
        w.get(95, 95) != 0 || w.get(47, 47) != 0 || w.get(11, 11) != 0
    } else {
        w.get(95, 91) != 0 || w.get(47, 47) != 0 || (ver == 60 && w.get(90, 90) != 0)
    };
    if unmapped || (imm.is_none() && w.get(127, 121) != 0) {
        return None;
    }
    let mut c = CWord(0);
    c.set(6, 0, w.get(6, 0));
    c.set(7, 7, w.get(30, 30));
    c.set(12, 8, find(t.control, control_bits(ver, &w))?);
    c.set(17, 13, find(t.datatype, datatype_bits(ver, &w))?);
    let mut sub = w.get(52, 48) | (w.get(68, 64) << 5);
    if imm.is_none() {
        sub |= w.get(100, 96) << 10;
    }
    c.set(22, 18, find(t.subreg, sub as u16)?);
    c.set(34, 30, find(t.src, w.get(88, 77) as u16)?);
    match imm {
        Some(v) => {
            c.set(39, 35, v >> 8);
            c.set(63, 56, v & 0xff);
        }
        None => {
            c.set(39, 35, find(t.src, w.get(120, 109) as u16)?);
            c.set(63, 56, w.get(108, 101));
        }
    }
    c.set(23, 23, w.get(28, 28));
    if ver == 60 {
        c.set(28, 28, w.get(89, 89));
    }
    c.set(27, 24, w.get(27, 24));
    c.set(47, 40, w.get(60, 53));
    c.set(55, 48, w.get(76, 69));
    c.set(29, 29, 1);
    Some(c.0.to_le_bytes())
}

fn three_src_control(devinfo: &DevInfo, w: &Word) -> u32 {
    let mut v = (w.get(34, 32) << 21) | w.get(28, 8);
    if wide_3src(devinfo) {
        v |= w.get(36, 35) << 24;
    }
    v as u32
}

fn three_src_source(devinfo: &DevInfo, w: &Word) -> u64 {
    let mut v = (w.get(83, 83) << 43)
        | (w.get(114, 107) << 35)
        | (w.get(93, 86) << 27)
        | (w.get(72, 65) << 19)
        | w.get(55, 37);
    if wide_3src(devinfo) {
        v |= (w.get(126, 125) << 47) | (w.get(105, 104) << 45) | (w.get(84, 84) << 44);
    } else {
        v |= (w.get(125, 125) << 45) | (w.get(104, 104) << 44);
    }
    v
}

fn compact_3src(devinfo: &DevInfo, w: &Word) -> Option<[u8; 8]> {
    let unmapped = if wide_3src(devinfo) {
        w.get(127, 127) != 0
    } else {
        w.get(127, 126) != 0 || w.get(105, 105) != 0 || w.get(84, 84) != 0 || w.get(36, 35) != 0
    };
    if unmapped {
        return None;
    }
    let mut c = CWord(0);
    c.set(6, 0, w.get(6, 0));
    c.set(
        9,
        8,
        find(
            &GFX8_3SRC_CONTROL_INDEX_TABLE,
            three_src_control(devinfo, w),
        )?,
    );
    c.set(
        11,
        10,
        find(&GFX8_3SRC_SOURCE_INDEX_TABLE, three_src_source(devinfo, w))?,
    );
    c.set(18, 12, w.get(63, 56));
    c.set(28, 28, w.get(64, 64));
    c.set(29, 29, 1);
    c.set(30, 30, w.get(30, 30));
    c.set(31, 31, w.get(31, 31));
    c.set(32, 32, w.get(85, 85));
    c.set(33, 33, w.get(106, 106));
    c.set(36, 34, w.get(75, 73));
    c.set(39, 37, w.get(96, 94));
    c.set(42, 40, w.get(117, 115));
    c.set(49, 43, w.get(82, 76));
    c.set(56, 50, w.get(103, 97));
    c.set(63, 57, w.get(124, 118));
    Some(c.0.to_le_bytes())
}

/// Expands a compacted instruction to its native 16 bytes.
pub fn uncompact(devinfo: &DevInfo, bytes: &[u8; 8]) -> Result<[u8; 16], EuError> {
    let ver = devinfo.ver;
    let t = tables(ver)
        .ok_or_else(|| EuError::new(format!("{} has no compacted instructions", devinfo.name)))?;
    let c = CWord(u64::from_le_bytes(*bytes));
    if c.get(29, 29) == 0 {
        return Err(EuError::new("compaction bit not set"));
    }
    let hw = c.get(6, 0) as u8;
    let op =
        Opcode::from_hw(ver, hw).ok_or_else(|| EuError::new(format!("invalid opcode {hw}")))?;
    let mut w = Word::default();
    if op.is_three_src() {
        if ver < 80 {
            return Err(EuError::new(
                "3-source instructions are not compacted before Gen8",
            ));
        }
        w.set(6, 0, hw as u64);
        let ctrl = GFX8_3SRC_CONTROL_INDEX_TABLE[c.get(9, 8) as usize] as u64;
        w.set(34, 32, (ctrl >> 21) & 7);
        w.set(28, 8, ctrl & 0x1f_ffff);
        if wide_3src(devinfo) {
            w.set(36, 35, (ctrl >> 24) & 3);
        }
        let src = GFX8_3SRC_SOURCE_INDEX_TABLE[c.get(11, 10) as usize];
        w.set(83, 83, (src >> 43) & 1);
        w.set(114, 107, (src >> 35) & 0xff);
        w.set(93, 86, (src >> 27) & 0xff);
        w.set(72, 65, (src >> 19) & 0xff);
        w.set(55, 37, src & 0x7ffff);
        if wide_3src(devinfo) {
            w.set(126, 125, (src >> 47) & 3);
            w.set(105, 104, (src >> 45) & 3);
            w.set(84, 84, (src >> 44) & 1);
        } else {
            w.set(125, 125, (src >> 45) & 1);
            w.set(104, 104, (src >> 44) & 1);
        }
        w.set(62, 56, c.get(18, 12));
        w.set(64, 64, c.get(28, 28));
        w.set(30, 30, c.get(30, 30));
        w.set(31, 31, c.get(31, 31));
        w.set(85, 85, c.get(32, 32));
        w.set(106, 106, c.get(33, 33));
        w.set(75, 73, c.get(36, 34));
        w.set(96, 94, c.get(39, 37));
        w.set(117, 115, c.get(42, 40));
        w.set(82, 76, c.get(49, 43));
        w.set(103, 97, c.get(56, 50));
        w.set(124, 118, c.get(63, 57));
        return Ok(w.to_bytes());
    }
    w.set(6, 0, hw as u64);
    w.set(30, 30, c.get(7, 7));
    set_control_bits(ver, &mut w, t.control[c.get(12, 8) as usize]);
    set_datatype_bits(ver, &mut w, t.datatype[c.get(17, 13) as usize]);
    let sub = t.subreg[c.get(22, 18) as usize] as u64;
    w.set(100, 96, sub >> 10);
    w.set(68, 64, (sub >> 5) & 0x1f);
    w.set(52, 48, sub & 0x1f);
    w.set(88, 77, t.src[c.get(34, 30) as usize] as u64);
    match imm_type(ver, &w) {
        Some(Some(ty)) if ty.size() < 8 => {
            let v = (c.get(39, 35) << 8) | c.get(63, 56);
            w.set(127, 96, uncompact_immediate(v) as u64);
        }
        Some(_) => {
            return Err(EuError::new(
                "compacted instruction with an invalid immediate type",
            ))
        }
        None => {
            w.set(120, 109, t.src[c.get(39, 35) as usize] as u64);
            w.set(108, 101, c.get(63, 56));
        }
    }
    w.set(28, 28, c.get(23, 23));
    w.set(27, 24, c.get(27, 24));
    if ver == 60 {
        w.set(89, 89, c.get(28, 28));
    }
    w.set(60, 53, c.get(47, 40));
    w.set(76, 69, c.get(55, 48));
    Ok(w.to_bytes())
}

/// Mesa's `precompact`: equivalent re-encodings that the compaction tables can express. With an
/// immediate src0, the unused src1 type becomes UD, a 0.0 float immediate becomes the VF
/// vector 0, and small dword immediates move D to UD (sign-extension makes them equal).
fn precompact(devinfo: &DevInfo, native: &[u8; 16]) -> [u8; 16] {
    let ver = devinfo.ver;
    let mut w = Word::from_bytes(native);
    let Some(op) = Opcode::from_hw(ver, w.get(6, 0) as u8) else {
        return *native;
    };
    if op.is_three_src() || ver < 60 {
        return *native;
    }
    let (f0, _) = src_files(ver, &w);
    if f0 != RegFile::Imm {
        return *native;
    }
    let (s0t, s1t, dt) = if ver >= 80 {
        ((46, 43), (94, 91), (40, 37))
    } else {
        ((41, 39), (46, 44), (36, 34))
    };
    let src0_ty = RegType::from_hw(ver, RegFile::Imm, w.get(s0t.0, s0t.1));
    let dst_ty = RegType::from_hw(ver, RegFile::Grf, w.get(dt.0, dt.1));
    let wide = matches!(src0_ty, Some(RegType::DF | RegType::UQ | RegType::Q));
    let keep_src1_type = (ver == 75 && op == Opcode::Dim) || (ver >= 80 && wide);
    if !keep_src1_type {
        w.set(s1t.0, s1t.1, 0);
    }
    let imm = w.get(127, 96) as u32;
    if imm == 0 && src0_ty == Some(RegType::F) && dst_ty == Some(RegType::F) && w.get(62, 61) == 1 {
        w.set(s0t.0, s0t.1, RegType::VF.imm_hw(ver).unwrap_or(5));
    }
    if compact_immediate(imm).is_some()
        && w.get(27, 24) == 0
        && src0_ty == Some(RegType::D)
        && dst_ty == Some(RegType::D)
    {
        w.set(s0t.0, s0t.1, 0);
        w.set(dt.0, dt.1, 0);
    }
    w.to_bytes()
}

/// A non-jump instruction's native encoding and, once tried, its compacted form (if any).
type Settled = ([u8; 16], Option<Option<[u8; 8]>>);

/// Encodes a program, compacting every instruction it can (after Mesa's `precompact`, so the
/// bytes match Mesa's compacted output), and re-targets jumps for the new instruction sizes. Jump fields of the input are byte distances in the uncompacted layout.
pub(crate) fn compact_program(devinfo: &DevInfo, insts: &[Inst]) -> Result<Vec<Encoded>, EuError> {
    let n = insts.len();
    // Jump targets as instruction indices (None when a jump does not land on an instruction).
    let target = |i: usize, dist: i32| -> Option<usize> {
        let t = i as i64 * 16 + dist as i64;
        (t >= 0 && t % 16 == 0 && (t / 16) as usize <= n).then_some((t / 16) as usize)
    };
    let mut compactable: Vec<bool> = vec![devinfo.ver >= 60; n];
    // Only jumps change with the layout: every other instruction is encoded, and its
    // compaction tried, once across the rounds.
    let mut settled: Vec<Option<Settled>> = vec![None; n];
    for _round in 0..8 {
        // Offsets under the current choice.
        let mut offsets = Vec::with_capacity(n + 1);
        let mut off = 0usize;
        let mut out = Vec::with_capacity(n);
        for c in &compactable {
            offsets.push(off);
            off += if *c { 8 } else { 16 };
        }
        offsets.push(off);
        let mut changed = false;
        for (i, inst) in insts.iter().enumerate() {
            let jumps =
                inst.branch.is_some() && jump_layout(devinfo.ver, inst.opcode) != JumpLayout::None;
            let encode_at = |inst: &Inst| {
                encode(devinfo, inst).map_err(|e| EuError {
                    index: Some(i),
                    offset: Some(offsets[i]),
                    ..e
                })
            };
            let mut fresh = None;
            let (bytes, cached) = if jumps {
                let mut inst = inst.clone();
                if let Some(b) = inst.branch.as_mut() {
                    let remap = |d: i32| -> i32 {
                        match target(i, d) {
                            Some(t) => offsets[t] as i32 - offsets[i] as i32,
                            None => d,
                        }
                    };
                    b.jip = remap(b.jip);
                    b.uip = remap(b.uip);
                }
                (encode_at(&inst)?, &mut fresh)
            } else {
                if settled[i].is_none() {
                    settled[i] = Some((encode_at(inst)?, None));
                }
                let (bytes, cached) = settled[i].as_mut().expect("just settled");
                (*bytes, cached)
            };
            // Gen6 counts jumps of IF/ELSE/ENDIF/WHILE in compacted units but never compacts them.
            let allowed =
                compactable[i] && jump_layout(devinfo.ver, inst.opcode) != JumpLayout::Gen6Dst;
            let candidate = if allowed {
                *cached.get_or_insert_with(|| compact(devinfo, &precompact(devinfo, &bytes)))
            } else {
                None
            };
            match candidate {
                Some(c) => out.push(Encoded::Compact(c)),
                None => {
                    if compactable[i] {
                        compactable[i] = false;
                        changed = true;
                    }
                    out.push(Encoded::Native(bytes));
                }
            }
        }
        if !changed {
            return Ok(out);
        }
    }
    // Fall back to the native program if the layout does not settle.
    Ok(super::encode_program(devinfo, insts)?
        .into_iter()
        .map(Encoded::Native)
        .collect())
}
