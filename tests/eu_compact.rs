//! Compaction: on every Gen6+ vector instruction, compacting then expanding is the identity
//! and decodes the same; a program with flow control keeps its jump targets when compacted.

mod common;

use gpucc::intel::eu::{self, Encoded};
use gpucc::intel::DevInfo;

#[test]
fn vector_instructions_compact_losslessly() {
    let Some(dir) = common::shared_path("vectors/intel") else {
        return;
    };
    for platform in ["snb", "ivb", "bdw"] {
        let devinfo = DevInfo::from_name(platform).unwrap();
        let (mut total, mut compacted) = (0, 0);
        for f in common::files_with_suffix(&dir.join(platform), ".expected") {
            for bytes in eu::hex::parse(&std::fs::read_to_string(&f).unwrap()).unwrap() {
                let native: [u8; 16] = bytes.as_slice().try_into().unwrap();
                total += 1;
                let Some(c) = eu::compact(devinfo, &native) else {
                    continue;
                };
                compacted += 1;
                assert_eq!(c[3] & 0x20, 0x20, "compaction bit must be set");
                let back = eu::uncompact(devinfo, &c).unwrap();
                assert_eq!(
                    back,
                    native,
                    "{}: compact/uncompact changed {:02x?}",
                    f.display(),
                    native
                );
                let a = eu::decode(devinfo, &native).unwrap();
                let b = eu::decode_program(devinfo, &c).unwrap();
                assert_eq!(
                    b,
                    vec![a],
                    "{}: compacted form decodes differently",
                    f.display()
                );
            }
        }
        println!("{platform}: {compacted} of {total} vector instructions compact");
        let mut figs = common::expect::Figures::new(&format!("{platform}.eu.compaction"));
        figs.count("instructions", total);
        figs.count("compacted", compacted);
        figs.check();
    }
}

#[test]
fn older_generations_have_no_compaction() {
    let brw = DevInfo::from_name("brw").unwrap();
    let bytes = eu::encode(
        brw,
        &eu::assemble(brw, "mov(8) g2<1>F g3<8,8,1>F { align1 };").unwrap()[0],
    )
    .unwrap();
    assert!(eu::compact(brw, &bytes).is_none());
    assert!(eu::uncompact(brw, &[0x01, 0, 0, 0x20, 0, 0, 0, 0]).is_err());
}

#[test]
fn compacted_layout_follows_the_prm() {
    // IVB: mov(8) g126<1>F g4<8,8,1>D: compacted opcode in bits 0-6, CmptCtrl bit 29,
    // destination register in bits 40-47 and src0 register in bits 48-55 (PRM Vol 4 part 3,
    // "Compacted Instruction Formats").
    let ivb = DevInfo::from_name("ivb").unwrap();
    let inst = eu::assemble(ivb, "mov(8) g126<1>F g4<8,8,1>D { align1 1Q };").unwrap();
    let native = eu::encode(ivb, &inst[0]).unwrap();
    let c = eu::compact(ivb, &native).expect("a plain SIMD8 mov compacts");
    assert_eq!(c[0] & 0x7f, 0x01);
    assert_eq!(c[3] & 0x20, 0x20);
    assert_eq!(c[5], 126);
    assert_eq!(c[6], 4);
    // Immediates compact when they fit in 13 bits sign-extended, and not otherwise.
    let small = eu::assemble(ivb, "add(8) g2<1>D g3<8,8,1>D -5D { align1 1Q };").unwrap();
    let big = eu::assemble(ivb, "add(8) g2<1>D g3<8,8,1>D 100000D { align1 1Q };").unwrap();
    let small_c = eu::compact(ivb, &eu::encode(ivb, &small[0]).unwrap());
    assert!(eu::compact(ivb, &eu::encode(ivb, &big[0]).unwrap()).is_none());
    if let Some(c) = small_c {
        assert_eq!(
            eu::uncompact(ivb, &c).unwrap(),
            eu::encode(ivb, &small[0]).unwrap()
        );
    }
}

const FLOW_IVB: &str = "
(+f0.0) if(8)   JIP: LABEL0         UIP: LABEL1                 { align1 1Q };
mov(8)          g2<1>F          g3<8,8,1>F                      { align1 1Q };
add(8)          g4<1>F          g2<8,8,1>F      g5<8,8,1>F      { align1 1Q };
LABEL0:
else(8)         JIP: LABEL1                                     { align1 1Q };
mov(8)          g2<1>F          g6<8,8,1>F                      { align1 1Q };
LABEL1:
endif(8)        JIP: LABEL2                                     { align1 1Q };
LABEL2:
mul(8)          g7<1>F          g2<8,8,1>F      g2<8,8,1>F      { align1 1Q };
";

const FLOW_BDW: &str = "
LABEL0:
mov(8)          g2<1>F          g3<8,8,1>F                      { align1 1Q };
(+f0.0) if(8)   JIP: LABEL1       UIP: LABEL2                   { align1 1Q };
add(8)          g4<1>F          g2<8,8,1>F      g5<8,8,1>F      { align1 1Q };
LABEL1:
else(8)         JIP: LABEL2       UIP: LABEL2                   { align1 1Q };
mov(8)          g2<1>F          g6<8,8,1>F                      { align1 1Q };
LABEL2:
endif(8)        JIP: LABEL3                                     { align1 1Q };
LABEL3:
(-f0.0) while(8) JIP: LABEL0                                    { align1 1Q };
";

#[test]
fn compacted_programs_keep_their_jump_targets() {
    for (platform, text) in [
        ("ivb", FLOW_IVB),
        ("bdw", FLOW_BDW),
        ("hsw", FLOW_IVB),
        ("skl", FLOW_BDW),
    ] {
        let devinfo = DevInfo::from_name(platform).unwrap();
        let insts = eu::assemble(devinfo, text).unwrap();
        let plain = eu::disassemble(devinfo, &insts);
        let encoded = eu::encode_program_compacted(devinfo, &insts).unwrap();
        let n_compact = encoded
            .iter()
            .filter(|e| matches!(e, Encoded::Compact(_)))
            .count();
        assert!(
            n_compact >= 3,
            "{platform}: the plain ALU instructions should compact"
        );
        let bytes: Vec<u8> = encoded.iter().flat_map(|e| e.bytes().to_vec()).collect();
        assert!(bytes.len() < insts.len() * 16);
        let again = eu::disassemble_program(devinfo, &bytes).unwrap();
        assert_eq!(again, plain, "{platform}: labels moved after compaction");
    }
}

#[test]
fn programs_use_mesas_equivalent_forms_to_compact_more() {
    // A 0.0F immediate has no compacted F form, but the VF vector 0 has one; D immediates that
    // fit 12 bits move to UD. The decoded meaning must not change.
    let ivb = DevInfo::from_name("ivb").unwrap();
    let text = "mov(8) g2<1>F 0x0F { align1 1Q };\nmov(8) g3<1>D 5D { align1 1Q };\n";
    let insts = eu::assemble(ivb, text).unwrap();
    let program = eu::encode_program_compacted(ivb, &insts).unwrap();
    assert!(
        program.iter().all(|e| matches!(e, Encoded::Compact(_))),
        "{program:?}"
    );
    let bytes: Vec<u8> = program.iter().flat_map(|e| e.bytes().to_vec()).collect();
    let back = eu::decode_program(ivb, &bytes).unwrap();
    let vf = back[0].src[0].as_imm().unwrap();
    assert_eq!((vf.ty, vf.bits), (eu::RegType::VF, 0));
    let ud = back[1].src[0].as_imm().unwrap();
    assert_eq!((ud.ty, ud.bits), (eu::RegType::UD, 5));
}
