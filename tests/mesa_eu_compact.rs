//! Mesa 23.3's `test_eu_compact.cpp` restated against gpucc's compaction: each of its 9
//! `TEST_P`s is one test of the same name, run for each of Mesa's parameters gpucc supports
//! (Gen5, Gen6, Gen7, Gen7.5, Gen8, Gen9, each in align1 and align16; Mesa's Gen11+
//! parameters are outside gpucc's range).
//!
//! Mesa's property, for the instruction and for every variant of it with two bits flipped
//! (bits that are padding or compaction control skipped, pad bits cleared) that still
//! decodes and validates: when compaction succeeds, expanding the compact form gives back
//! the same 16 bytes. gpucc's [`eu::compact`] returns `None` instead of a partly written
//! form, so Mesa's second clause ("a failed compaction leaves the output alone") holds by
//! the type.
//!
//! Difference: gpucc has no compaction tables before Gen6, so on Gen5 nothing compacts and
//! the property holds trivially (Mesa compacts G45 and Ironlake code).
//!
//! 9 tests, 9 pass, 1 difference (Gen5 compaction, in every test).

#![allow(non_snake_case)] // Mesa's test names.

use gpucc::intel::eu::{self, Opcode};
use gpucc::intel::DevInfo;

/// Mesa's `Instructions` parameters in gpucc's range: platform and generation ×10.
const ALL: &[(&str, u32)] = &[
    ("ilk", 50),
    ("snb", 60),
    ("ivb", 70),
    ("hsw", 75),
    ("bdw", 80),
    ("skl", 90),
];

/// Mesa's `InstructionsBeforeIvyBridge` parameters (message registers exist).
const BEFORE_IVB: &[(&str, u32)] = &[("ilk", 50), ("snb", 60)];

fn get_bit(inst: &[u8; 16], bit: usize) -> bool {
    inst[bit / 8] >> (bit % 8) & 1 != 0
}

fn flip_bit(inst: &mut [u8; 16], bit: usize) {
    inst[bit / 8] ^= 1 << (bit % 8);
}

fn clear_bits(inst: &mut [u8; 16], hi: usize, lo: usize) {
    for bit in lo..=hi {
        if get_bit(inst, bit) {
            flip_bit(inst, bit);
        }
    }
}

/// The facts the fuzzing needs from the native encoding: opcode and whether a source is an
/// immediate (fields as the PRM lays them out; the files moved on Gen8).
struct Shape {
    send: bool,
    three_src: bool,
    has_imm: bool,
}

fn shape(devinfo: &DevInfo, native: &[u8; 16]) -> Option<Shape> {
    let inst = eu::decode(devinfo, native).ok()?;
    Some(Shape {
        send: matches!(inst.opcode, Opcode::Send | Opcode::Sendc),
        three_src: inst.opcode.is_three_src(),
        has_imm: inst.src.iter().any(|s| s.as_imm().is_some()),
    })
}

/// Mesa's `clear_pad_bits`: bits that stop meaning anything once a related bit is flipped.
fn clear_pad_bits(devinfo: &DevInfo, s: &Shape, inst: &mut [u8; 16]) {
    if !s.send && !s.has_imm {
        clear_bits(inst, 127, 111);
    }
    if devinfo.ver == 80 && devinfo.name != "chv" && s.three_src {
        clear_bits(inst, 105, 105);
        clear_bits(inst, 84, 84);
        clear_bits(inst, 36, 35);
    }
}

/// Mesa's `skip_bit`: padding, the compaction-control bit and fields compaction ignores.
fn skip_bit(devinfo: &DevInfo, s: &Shape, bit: usize) -> bool {
    if bit == 7 || bit == 29 {
        return true;
    }
    if s.three_src {
        if devinfo.ver >= 90 || devinfo.name == "chv" {
            if bit == 127 {
                return true;
            }
        } else if (126..=127).contains(&bit) || bit == 105 || bit == 84 || (35..=36).contains(&bit)
        {
            return true;
        }
    } else {
        if bit == 47 {
            return true;
        }
        if devinfo.ver >= 80 {
            if bit == 11 || bit == 95 {
                return true;
            }
        } else if (devinfo.ver < 70 && bit == 90) || (91..=95).contains(&bit) {
            return true;
        }
    }
    !s.send && !s.has_imm && bit >= 121
}

/// Mesa's `test_compact_instruction`: a compacted form expands to the same bytes. True
/// when the instruction compacted.
fn round_trips(devinfo: &DevInfo, native: &[u8; 16]) -> Result<bool, String> {
    let Some(c) = eu::compact(devinfo, native) else {
        return Ok(false);
    };
    if c[3] & 0x20 == 0 {
        return Err("compacted form without the compaction bit".into());
    }
    match eu::uncompact(devinfo, &c) {
        Ok(back) if &back == native => Ok(true),
        Ok(back) => Err(format!("{native:02x?} came back as {back:02x?}")),
        Err(e) => Err(format!(
            "{native:02x?} compacted to a form that does not expand: {e}"
        )),
    }
}

/// Mesa's `test_fuzz_compact_instruction`: every two-bit variant that decodes and
/// validates round-trips too. Returns how many variants were valid and how many of those
/// compacted.
fn fuzz(devinfo: &DevInfo, native: &[u8; 16]) -> Result<(usize, usize), String> {
    let s = shape(devinfo, native).expect("the original decodes");
    let (mut valid, mut compacted) = (0, 0);
    for bit0 in (0..128).filter(|&b| !skip_bit(devinfo, &s, b)) {
        for bit1 in (0..128).filter(|&b| !skip_bit(devinfo, &s, b)) {
            let mut inst = *native;
            flip_bit(&mut inst, bit0);
            flip_bit(&mut inst, bit1);
            clear_pad_bits(devinfo, &s, &mut inst);
            let Ok(decoded) = eu::decode(devinfo, &inst) else {
                continue;
            };
            if !eu::validate(devinfo, &[decoded]).is_empty() {
                continue;
            }
            valid += 1;
            if round_trips(devinfo, &inst).map_err(|e| format!("bits {bit0}, {bit1}: {e}"))? {
                compacted += 1;
            }
        }
    }
    Ok((valid, compacted))
}

/// Runs Mesa's fixture for one instruction: `align1` and `align16` are its text in each
/// access mode (`None` where Mesa has no such parameter).
fn check(params: &[(&str, u32)], align1: &str, align16: Option<&str>) {
    for &(platform, verx10) in params {
        let devinfo = DevInfo::from_name(platform).unwrap();
        assert_eq!(devinfo.ver, verx10);
        for text in std::iter::once(align1).chain(align16) {
            // Gen5 has no quarter control to name.
            let text = &if verx10 < 60 {
                text.replace(" 1Q", "").replace(" 1N", "")
            } else {
                text.to_string()
            };
            let insts = eu::assemble(devinfo, text).unwrap_or_else(|e| panic!("{platform}: {e}"));
            assert_eq!(insts.len(), 1, "Mesa's fixture emits one instruction");
            let native = eu::encode(devinfo, &insts[0]).unwrap();
            if verx10 < 60 {
                // Difference: no compaction before Gen6 in gpucc.
                assert!(eu::compact(devinfo, &native).is_none());
            }
            round_trips(devinfo, &native).unwrap_or_else(|e| panic!("{platform}: {text}: {e}"));
            let (valid, compacted) =
                fuzz(devinfo, &native).unwrap_or_else(|e| panic!("{platform}: {text}: {e}"));
            println!("{platform}: {text}: {valid} valid variants, {compacted} compacted");
            assert!(valid > 0, "{platform}: {text}: no fuzzed variant was valid");
        }
    }
}

/// Mesa: `add(8) g0, g2, g4` (float, full registers).
#[test]
fn ADD_GRF_GRF_GRF() {
    check(
        ALL,
        "add(8) g0<1>F g2<8,8,1>F g4<8,8,1>F { align1 1Q };",
        Some("add(8) g0<1>F g2<4,4,1>F g4<4,4,1>F { align16 1Q };"),
    );
}

/// Mesa: `add(8) g0, g2, 1.0f`.
#[test]
fn ADD_GRF_GRF_IMM() {
    check(
        ALL,
        "add(8) g0<1>F g2<8,8,1>F 0x3f800000F { align1 1Q };",
        Some("add(8) g0<1>F g2<4,4,1>F 0x3f800000F { align16 1Q };"),
    );
}

/// Mesa: `add(8) g0:D, g2:D, 1D`.
#[test]
fn ADD_GRF_GRF_IMM_d() {
    check(
        ALL,
        "add(8) g0<1>D g2<8,8,1>D 1D { align1 1Q };",
        Some("add(8) g0<1>D g2<4,4,1>D 1D { align16 1Q };"),
    );
}

/// Mesa: `mov(8) g0, g2`.
#[test]
fn MOV_GRF_GRF() {
    check(
        ALL,
        "mov(8) g0<1>F g2<8,8,1>F { align1 1Q };",
        Some("mov(8) g0<1>F g2<4,4,1>F { align16 1Q };"),
    );
}

/// Mesa (Gen5, Gen6): `add(8) m6, g2, g4`, a message-register destination.
#[test]
fn ADD_MRF_GRF_GRF() {
    check(
        BEFORE_IVB,
        "add(8) m6<1>F g2<8,8,1>F g4<8,8,1>F { align1 1Q };",
        Some("add(8) m6<1>F g2<4,4,1>F g4<4,4,1>F { align16 1Q };"),
    );
}

/// Mesa: `add(1) g0, g2.0<0,1,0>, g4.0<0,1,0>`, scalar registers.
#[test]
fn ADD_vec1_GRF_GRF_GRF() {
    check(
        ALL,
        "add(1) g0<1>F g2<0,1,0>F g4<0,1,0>F { align1 1N };",
        Some("add(1) g0<1>.xF g2<0>.xF g4<0>.xF { align16 1N };"),
    );
}

/// Mesa (Gen5, Gen6): `pln(8) m6, g2.0<0,1,0>, g4`.
#[test]
fn PLN_MRF_GRF_GRF() {
    check(
        BEFORE_IVB,
        "pln(8) m6<1>F g2<0,1,0>F g4<8,8,1>F { align1 1Q };",
        Some("pln(8) m6<1>F g2<0>.xF g4<4,4,1>F { align16 1Q };"),
    );
}

/// Mesa: `(+f0.0) mov(8) g0, g2`.
#[test]
fn f0_0_MOV_GRF_GRF() {
    check(
        ALL,
        "(+f0.0) mov(8) g0<1>F g2<8,8,1>F { align1 1Q };",
        Some("(+f0.0) mov(8) g0<1>F g2<4,4,1>F { align16 1Q };"),
    );
}

/// Mesa: `(+f0.1) mov(8) g0, g2`: the flag subregister field moved between Gen6 and Gen7.
#[test]
fn f0_1_MOV_GRF_GRF() {
    check(
        ALL,
        "(+f0.1) mov(8) g0<1>F g2<8,8,1>F { align1 1Q };",
        Some("(+f0.1) mov(8) g0<1>F g2<4,4,1>F { align16 1Q };"),
    );
}
