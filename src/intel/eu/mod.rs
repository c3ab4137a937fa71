//! The Intel EU ISA layer: instruction model, native encoder/decoder, compaction, Mesa-syntax
//! disassembler and assembler, and the region/operand validator.
//!
//! Everything is parameterised by a [`DevInfo`]; generations are compared as `ver` (×10, so
//! Haswell is 75). Entry points:
//! - [`assemble`] text → [`Inst`]s, [`encode`] / [`encode_program`] /
//!   [`encode_program_compacted`] → bytes,
//! - [`decode`] / [`decode_program`] bytes (native or compacted) → [`Inst`]s,
//!   [`disassemble`] / [`disassemble_program`] → Mesa's text,
//! - [`compact()`] / [`uncompact`] for the 8-byte forms, [`validate()`] for hardware rules,
//! - [`hex::parse`] / [`hex::format`] for the `.expected` text format.
//!
//! Units in [`Inst`], chosen so a simulator can read it without knowing the encoding: register
//! and subregister offsets in bytes, regions in elements, jump distances ([`Branch`]) in bytes
//! from the start of the jumping instruction whatever the generation's hardware unit (16 bytes
//! on Gen4, 8 on Gen5–Gen7, 1 from Gen8).

pub mod asm;
pub mod compact;
mod compact_tables;
pub mod disasm;
mod encoded;
mod error;
pub mod hex;
pub mod inst;
pub mod native;
pub mod types;
pub mod validate;

pub use asm::{assemble, AsmError};
pub use compact::{compact, uncompact};
pub use disasm::disassemble;
pub use encoded::{encode_program, Encoded};
pub use error::EuError;
pub use inst::{Branch, Dst, Imm, Indirect, Inst, Message, Predicate, RegSrc, Region, Src};
pub use native::{decode, encode};
pub use types::{AccessMode, CondMod, MathFn, Opcode, RegFile, RegType, ThreadCtrl};
pub use validate::{validate, Rule, ValidationError};

use crate::intel::DevInfo;

/// Encodes a program, compacting every instruction the generation's tables allow, and fixes up
/// jump distances for the changed instruction sizes.
pub fn encode_program_compacted(
    devinfo: &DevInfo,
    insts: &[Inst],
) -> Result<Vec<Encoded>, EuError> {
    compact::compact_program(devinfo, insts)
}

/// Splits raw program bytes into instructions: bit 29 of the first dword marks an 8-byte
/// compacted instruction (Gen6+).
pub fn split_program(devinfo: &DevInfo, bytes: &[u8]) -> Result<Vec<Encoded>, EuError> {
    let mut out = Vec::new();
    let mut off = 0;
    while off < bytes.len() {
        let compacted = devinfo.ver >= 60 && bytes.get(off + 3).is_some_and(|b| b & 0x20 != 0);
        if compacted {
            let chunk: [u8; 8] = bytes
                .get(off..off + 8)
                .and_then(|s| s.try_into().ok())
                .ok_or_else(|| {
                    EuError::new("truncated compacted instruction").at(out.len(), off)
                })?;
            out.push(Encoded::Compact(chunk));
            off += 8;
        } else {
            let chunk: [u8; 16] = bytes
                .get(off..off + 16)
                .and_then(|s| s.try_into().ok())
                .ok_or_else(|| EuError::new("truncated instruction").at(out.len(), off))?;
            out.push(Encoded::Native(chunk));
            off += 16;
        }
    }
    Ok(out)
}

/// Decodes a program of native and compacted instructions. Jump distances of the result are
/// kept in bytes as encoded (they already account for compacted sizes).
pub fn decode_program(devinfo: &DevInfo, bytes: &[u8]) -> Result<Vec<Inst>, EuError> {
    decode_program_at(devinfo, bytes).map(|(insts, _)| insts)
}

/// Disassembles raw program bytes (native or compacted) with labels at jump targets.
pub fn disassemble_program(devinfo: &DevInfo, bytes: &[u8]) -> Result<String, EuError> {
    let (insts, offsets) = decode_program_at(devinfo, bytes)?;
    Ok(disasm::disassemble_at(
        devinfo,
        &insts,
        &offsets,
        bytes.len(),
    ))
}

/// Like [`decode_program`], also returning each instruction's byte offset.
pub fn decode_program_at(
    devinfo: &DevInfo,
    bytes: &[u8],
) -> Result<(Vec<Inst>, Vec<usize>), EuError> {
    let mut off = 0;
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for (i, e) in split_program(devinfo, bytes)?.into_iter().enumerate() {
        let inst = match e {
            Encoded::Native(b) => decode(devinfo, &b),
            Encoded::Compact(c) => uncompact(devinfo, &c).and_then(|b| decode(devinfo, &b)),
        }
        .map_err(|e| e.at(i, off))?;
        offsets.push(off);
        off += e.bytes().len();
        out.push(inst);
    }
    Ok((out, offsets))
}
