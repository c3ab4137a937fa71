//! Haswell (Gen7.5) and Skylake (Gen9): no Mesa vectors exist here for them, so these tests
//! check encodings derived by hand from the bit layouts of Mesa's `brw_inst.h` /
//! `brw_eu_defines.h` and the PRMs, and that disassembly reproduces the assembly text.

use gpucc::intel::eu;
use gpucc::intel::DevInfo;

fn dev(name: &str) -> &'static DevInfo {
    DevInfo::from_name(name).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    eu::hex::format([bytes]).trim().to_string()
}

fn asm1(d: &DevInfo, text: &str) -> [u8; 16] {
    let insts = eu::assemble(d, text).unwrap_or_else(|e| panic!("{}: {e}", d.name));
    assert_eq!(insts.len(), 1);
    eu::encode(d, &insts[0]).unwrap_or_else(|e| panic!("{}: {e}", d.name))
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// Assembling then disassembling gives the same text (whitespace aside).
fn round_trip(d: &DevInfo, text: &str) {
    let insts = eu::assemble(d, text).unwrap_or_else(|e| panic!("{}: {e}", d.name));
    let bytes = eu::encode_program(d, &insts).unwrap();
    let flat: Vec<u8> = bytes.iter().flatten().copied().collect();
    let back = eu::disassemble_program(d, &flat).unwrap();
    assert_eq!(words(&back), words(text), "{}", d.name);
}

#[test]
fn gen75_alu_encoding_matches_the_gen7_layout() {
    // dst GRF:F = file 1 | type 7 << 2 in bits 32-36, src0 GRF:F in bits 37-41,
    // dst g2 in bits 53-60 with HorzStride 1 in 61-62, src0 g3 in 69-76, <8;8,1> in 80-88.
    let b = asm1(dev("hsw"), "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };");
    assert_eq!(hex(&b), "01 00 60 00 bd 03 40 20 60 00 8d 00 00 00 00 00");
    // Flag f1.1 in bits 90 (register) and 89 (subregister), predicate normal in 16-19.
    let b = asm1(
        dev("hsw"),
        "(+f1.1) add(16) g4<1>D g6<8,8,1>D 3D { align1 1H };",
    );
    assert_eq!(b[2] & 0x0f, 1);
    assert_eq!((b[11] >> 1) & 3, 3);
    assert_eq!(u32::from_le_bytes([b[12], b[13], b[14], b[15]]), 3);
}

#[test]
fn gen75_three_source_simd16() {
    // HSW allows SIMD16 3-source instructions (exec size 16 in bits 21-23); dst register in
    // bits 56-63, src0 register in 76-83 with its swizzle in 65-72.
    let d = dev("hsw");
    assert!(d.supports_simd16_3src);
    let b = asm1(
        d,
        "mad(16) g10<1>F g2<4,4,1>F g4<4,4,1>F g6<4,4,1>F { align16 1H };",
    );
    assert_eq!(b[0], 0x5b);
    assert_eq!(b[1] & 1, 1, "align16");
    assert_eq!(b[2] >> 5, 4, "SIMD16");
    assert_eq!(b[7], 10);
    assert_eq!(((u16::from_le_bytes([b[9], b[10]]) >> 4) & 0xff) as u8, 2);
    assert_eq!(((u16::from_le_bytes([b[8], b[9]]) >> 1) & 0xff) as u8, 0xe4);
    round_trip(
        d,
        "mad(16) g10<1>F g2<4,4,1>F g4.1<0,1,0>F -g6<4,4,1>.xF { align16 1H };",
    );
}

#[test]
fn gen75_data_port_1_messages() {
    // SFID 12 (HSW data cache 1) in bits 24-27. Descriptor: mlen 2 (28:25), rlen 1 (24:20),
    // message type 2 = untyped atomic (17:14), control 0x17 = SIMD8 | ADD (13:8), BTI 1.
    let d = dev("hsw");
    let text = "send(8) g2<1>UD g4<8,8,1>UD 0x04109701
                dp data 1 MsgDesc: ( DC untyped atomic op, Surface = 1, SIMD8, add) mlen 2 rlen 1 { align1 1Q };";
    let b = asm1(d, text);
    assert_eq!(b[0], 0x31);
    assert_eq!(b[3] & 0x0f, 12);
    assert_eq!(
        u32::from_le_bytes([b[12], b[13], b[14], b[15]]),
        0x0410_9701
    );
    round_trip(d, text);
    // HSW's sample_d_c is sampler message 20 in bits 16-12.
    // 0x0a434001 = mlen 5 | rlen 4 | SIMD8 (1 << 17) | message 20 << 12 | BTI 1.
    round_trip(
        d,
        "send(8) g10<1>UW g2<8,8,1>UD 0x0a434001
         sampler MsgDesc: sample_d_c SIMD8 Surface = 1 Sampler = 0 mlen 5 rlen 4 { align1 1Q };",
    );
}

#[test]
fn gen75_flow_control_units_are_eight_bytes() {
    // JIP/UIP in bits 96-111 / 112-127 count 8-byte units on Gen7.5, as on Gen7.
    let d = dev("hsw");
    let text = "(+f0.0) if(8) JIP: LABEL0 UIP: LABEL1 { align1 1Q };
                mov(8) g2<1>F g3<8,8,1>F { align1 1Q };
                LABEL0:
                else(8) JIP: LABEL1 { align1 1Q };
                LABEL1:
                endif(8) JIP: LABEL2 { align1 1Q };
                LABEL2:
                nop ;";
    let insts = eu::assemble(d, text).unwrap();
    let b = eu::encode(d, &insts[0]).unwrap();
    assert_eq!(u16::from_le_bytes([b[12], b[13]]), 4); // 2 instructions = 32 bytes
    assert_eq!(u16::from_le_bytes([b[14], b[15]]), 6);
    round_trip(d, text);
}

#[test]
fn gen9_alu_encoding_matches_the_gen8_layout() {
    // Gen8+: dst file in 35-36, dst type in 37-40, src0 file in 41-42, src0 type in 43-46.
    let b = asm1(dev("skl"), "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };");
    assert_eq!(hex(&b), "01 00 60 00 e8 3a 40 20 60 00 8d 00 00 00 00 00");
    // Gen8+ flag register/subregister in bits 33/32; 64-bit immediates fill bits 64-127.
    let b = asm1(
        dev("skl"),
        "mov(8) g62<1>Q 0xbff0000000000000Q { align1 1Q };",
    );
    assert_eq!(
        u64::from_le_bytes(b[8..16].try_into().unwrap()),
        0xbff0_0000_0000_0000
    );
    let b = asm1(
        dev("skl"),
        "(+f1.1) mov(8) g2<1>F g3<8,8,1>F { align1 1Q };",
    );
    assert_eq!(b[4] & 3, 3);
}

#[test]
fn gen9_send_descriptors() {
    let d = dev("skl");
    // Gen9 descriptors have 31 bits (96-126): bit 30 is the sampler's 16-bit return format.
    let text = "send(8) g10<1>UW g2<0,1,0>UD 0x44420001
                sampler MsgDesc: sample SIMD8 HP Surface = 1 Sampler = 0 mlen 2 rlen 4 { align1 1Q };";
    let b = asm1(d, text);
    assert_eq!(
        u32::from_le_bytes([b[12], b[13], b[14], b[15]]),
        0x4442_0001
    );
    round_trip(d, text);
    // Gen9-only sampler messages: sample_lz is 24.
    // 0x04438001 = mlen 2 | rlen 4 | SIMD8 (1 << 17) | message 24 << 12 | BTI 1.
    round_trip(
        d,
        "send(8) g10<1>UW g2<0,1,0>UD 0x04438001
         sampler MsgDesc: sample_lz SIMD8 Surface = 1 Sampler = 0 mlen 2 rlen 4 { align1 1Q };",
    );
}

#[test]
fn gen9_send_extended_descriptor_shares_src0_region_bits() {
    // brw_inst_set_send_ex_desc (Gen9): ex_desc[31:28] -> bits 94-91, [27:24] -> 88-85,
    // [23:20] -> 83-80, [19:16] -> 67-64.
    let d = dev("skl");
    let text = "send(8) g10<1>UW g2<0,1,0>UD 0x04420001
                sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0 mlen 2 rlen 4 { align1 1Q };";
    let mut insts = eu::assemble(d, text).unwrap();
    let plain = eu::encode(d, &insts[0]).unwrap();
    insts[0].msg.as_mut().unwrap().ex_desc = 0x1234_0000;
    let b = eu::encode(d, &insts[0]).unwrap();
    let w = u128::from_le_bytes(b);
    let bits = |hi: u32, lo: u32| ((w >> lo) & ((1u128 << (hi - lo + 1)) - 1)) as u64;
    assert_eq!(
        (bits(94, 91), bits(88, 85), bits(83, 80), bits(67, 64)),
        (1, 2, 3, 4)
    );
    assert_eq!(
        u128::from_le_bytes(plain) & !(0xf_u128 << 91 | 0xf << 85 | 0xf << 80 | 0xf << 64),
        w & !(0xf_u128 << 91 | 0xf << 85 | 0xf << 80 | 0xf << 64)
    );
    insts[0].msg.as_mut().unwrap().ex_desc = 0x1234_0001;
    assert!(
        eu::encode(d, &insts[0]).is_err(),
        "low bits of ex_desc are not encodable"
    );
    let bdw = dev("bdw");
    let mut on_bdw = eu::assemble(bdw, text).unwrap();
    on_bdw[0].msg.as_mut().unwrap().ex_desc = 0x1000_0000;
    assert!(
        eu::encode(bdw, &on_bdw[0]).is_err(),
        "Gen8 SEND has no extended descriptor"
    );
}

#[test]
fn gen9_split_sends() {
    let d = dev("skl");
    // SENDS: opcode 51; dst file bit 35, dst register 53-60; src0 register 69-76; src1
    // register 44-51 and file bit 36; descriptor 96-126; extended descriptor bits 31:16 in
    // 80-95 and 9:6 (ex_mlen) in 64-67.
    let text = "sends(8) g10UD g2UD g4UD 0x02480028 0x00000080
                urb MsgDesc: 2 SIMD8 read mlen 1 ex_mlen 2 rlen 4 { align1 1Q };";
    let b = asm1(d, text);
    let w = u128::from_le_bytes(b);
    let bits = |hi: u32, lo: u32| ((w >> lo) & ((1u128 << (hi - lo + 1)) - 1)) as u64;
    assert_eq!(bits(6, 0), 51);
    assert_eq!(bits(27, 24), 6, "URB SFID");
    assert_eq!(bits(35, 35), 1);
    assert_eq!(bits(36, 36), 1);
    assert_eq!(bits(60, 53), 10);
    assert_eq!(bits(76, 69), 2);
    assert_eq!(bits(51, 44), 4);
    assert_eq!(bits(126, 96), 0x0248_0028);
    assert_eq!(bits(67, 64), 2);
    assert_eq!(bits(95, 80), 0);
    round_trip(d, text);
    // Indirect descriptors select a0 through bits 77 and 61.
    let text = "sends(8) nullUD g2UD g4UD g[a0]UD a0.2<0>UD
                render MsgDesc: indirect { align1 1Q EOT };";
    let b = asm1(d, text);
    let w = u128::from_le_bytes(b);
    assert_eq!((w >> 77) & 1, 1);
    assert_eq!((w >> 61) & 1, 1);
    assert_eq!((w >> 80) & 7, 2);
    assert_eq!(w >> 127, 1, "EOT");
    round_trip(d, text);
}

#[test]
fn gen9_compaction_uses_the_wide_three_source_tables() {
    let d = dev("skl");
    for text in [
        "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };",
        "add(16) g4<1>F g6<8,8,1>F g8<8,8,1>F { align1 1H };",
        "mad(8) g10<1>F g2<4,4,1>F g4<4,4,1>F g6<4,4,1>F { align16 1Q };",
    ] {
        let b = asm1(d, text);
        if let Some(c) = eu::compact(d, &b) {
            assert_eq!(eu::uncompact(d, &c).unwrap(), b, "{text}");
        }
    }
    // A plain SIMD8 float move is in every Gen8+ table.
    assert!(eu::compact(d, &asm1(d, "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };")).is_some());
}

/// Bits `hi..=lo` of a native instruction.
fn field(b: [u8; 16], hi: u32, lo: u32) -> u64 {
    let w = u128::from_le_bytes(b);
    ((w >> lo) & ((1u128 << (hi - lo + 1)) - 1)) as u64
}

#[test]
fn gen75_dim_mirrors_its_immediate_type_into_src1() {
    // HSW's DIM carries a 64-bit double in bits 64-127 but types it F. The PRM's
    // "Non-present Operands" rule (an absent src1 after an immediate src0 is an ARF of src0's
    // type) follows the type, so src1 is ARF:F like any one-source F immediate. Gen7 layout
    // (brw_inst.h, pre-Gen8): dst file 33-32, dst type 36-34, src0 file 38-37, src0 type
    // 41-39, src1 file 43-42, src1 type 46-44; hardware types DF = 6, F = 7; files ARF 0,
    // GRF 1, IMM 3; mask control (WE_all) bit 9; dst register 60-53, HorzStride 62-61.
    let d = dev("hsw");
    let text = "dim(1) g4<1>DF 0x4018000000000000F /* 6F */ { align1 WE_all 1N };";
    let b = asm1(d, text);
    assert_eq!(field(b, 6, 0), 0x0a, "DIM opcode");
    assert_eq!(field(b, 9, 9), 1, "WE_all");
    assert_eq!(field(b, 33, 32), 1, "dst GRF");
    assert_eq!(field(b, 36, 34), 6, "dst DF");
    assert_eq!(field(b, 38, 37), 3, "src0 immediate");
    assert_eq!(field(b, 41, 39), 7, "src0 F");
    assert_eq!(field(b, 43, 42), 0, "src1 ARF");
    assert_eq!(field(b, 46, 44), 7, "src1 mirrors src0's F");
    assert_eq!(field(b, 60, 53), 4);
    assert_eq!(field(b, 62, 61), 1);
    assert_eq!(field(b, 127, 64), 0x4018_0000_0000_0000, "6.0 as a double");
    // Dword 1 in full: 1 | 6 << 2 | 3 << 5 | 7 << 7 | 7 << 12 | 4 << 21 | 1 << 29.
    assert_eq!(field(b, 63, 32), 0x2080_73f9);
    round_trip(d, text);
    // The align16 form (dst subregister in 52, write mask 51-48) mirrors the same way.
    let text = "dim(4) g2<1>.xDF 0x3ff0000000000000F /* 1F */ { align16 WE_all 1N };";
    let b = asm1(d, text);
    assert_eq!(field(b, 46, 44), 7);
    assert_eq!(field(b, 51, 48), 1, "write mask .x");
    assert_eq!(field(b, 127, 64), 1.0f64.to_bits());
    round_trip(d, text);
    // A 32-bit F immediate mirrors too (the long-standing case, for contrast).
    let b = asm1(d, "mov(8) g2<1>F 1.0F { align1 1Q };");
    assert_eq!((field(b, 43, 42), field(b, 46, 44)), (0, 7));
}

#[test]
fn gen9_sends_descriptor_from_a0_reads_and_prints_as_mesa_writes_it() {
    // Mesa's Gen9 sends vector writes a register descriptor as `g[a0]UD` with an immediate
    // extended descriptor whose ex_mlen (bits 9:6) it prints after `indirect`. Gen9 SENDS
    // (brw_inst.h): opcode 51 in 6-0, predicate control 19-16, exec size 23-21 (SIMD8 = 3),
    // SFID 27-24 (dp data 1 = 12), flag register 33 / subregister 32, dst file 35 (null = 0),
    // src1 file 36 (GRF = 1), src1 register 51-44, ex_desc 9:6 in 67-64, src0 register 76-69,
    // bit 77 descriptor from a0.0 (then 126-96 stay zero), bit 61 extended descriptor from a0.
    let d = dev("skl");
    let text = "(+f1.0) sends(8) nullUD g2UD g13UD g[a0]UD 0x00000100
                dp data 1 MsgDesc: indirect ex_mlen 4 { align1 1Q };";
    let b = asm1(d, text);
    assert_eq!(field(b, 6, 0), 51);
    assert_eq!(field(b, 19, 16), 1, "(+f…) normal predicate");
    assert_eq!(field(b, 23, 21), 3, "SIMD8");
    assert_eq!(field(b, 27, 24), 12, "dp data 1");
    assert_eq!((field(b, 33, 33), field(b, 32, 32)), (1, 0), "f1.0");
    assert_eq!((field(b, 35, 35), field(b, 36, 36)), (0, 1));
    assert_eq!(field(b, 51, 44), 13);
    assert_eq!(field(b, 76, 69), 2);
    assert_eq!(field(b, 67, 64), 4, "ex_mlen 4 = 0x100 >> 6");
    assert_eq!(field(b, 95, 80), 0);
    assert_eq!(field(b, 77, 77), 1, "descriptor in a0.0");
    assert_eq!(field(b, 61, 61), 0, "immediate extended descriptor");
    assert_eq!(field(b, 126, 96), 0);
    // Those fields are all the instruction has: the whole 128 bits.
    assert_eq!(hex(&b), "33 00 61 0c 12 d0 00 00 44 20 00 00 00 00 00 00");
    round_trip(d, text);
    // Mesa's disassembler spells the same register `a0<0>UD`: same bytes.
    let mesa_disasm = text.replace("g[a0]UD", "a0<0>UD");
    assert_eq!(asm1(d, &mesa_disasm), b);
    // The hardware reads a0.0 whatever register is named: anything else is refused rather
    // than silently becoming a0.0.
    for bad in ["g5UD", "a0.1<0>UD", "g[a0.1]UD", "g[a0 16]UD"] {
        let t = text.replace("g[a0]UD", bad);
        let e = eu::assemble(d, &t).expect_err(bad);
        assert!(e.to_string().contains("descriptor"), "{bad}: {e}");
    }
}
