//! Validator: one accepting and one rejecting case per rule family of Mesa's
//! `brw_eu_validate.c`, plus Mesa's own assembler vectors, which must pass.

mod common;

use gpucc::intel::eu::{self, Rule};
use gpucc::intel::DevInfo;

fn check(platform: &str, text: &str) -> Vec<Rule> {
    let d = DevInfo::from_name(platform).unwrap();
    let insts = eu::assemble(d, text).unwrap_or_else(|e| panic!("{e}"));
    eu::validate(d, &insts)
        .into_iter()
        .map(|e| e.rule)
        .collect()
}

fn accepts(platform: &str, text: &str) {
    assert_eq!(check(platform, text), vec![], "{platform}: {text}");
}

fn rejects(platform: &str, text: &str, rule: Rule) {
    let rules = check(platform, text);
    assert!(
        rules.contains(&rule),
        "{platform}: expected {rule:?} for {text}, got {rules:?}"
    );
}

#[test]
fn operand_types() {
    accepts("ivb", "mov(8) g2<2>B g3<8,8,1>D { align1 1Q };");
    rejects(
        "ivb",
        "add(8) g2<1>B g3<8,8,1>B g4<8,8,1>B { align1 1Q };",
        Rule::OperandTypes,
    );
    accepts(
        "ivb",
        "math intdiv(8) g2<1>D g3<8,8,1>D g4<8,8,1>D { align1 1Q };",
    );
    rejects(
        "ivb",
        "math inv(8) g2<1>F g3<8,8,1>W null<8,8,1>F { align1 1Q };",
        Rule::OperandTypes,
    );
}

#[test]
fn region_parameters() {
    accepts("bdw", "add(8) g2<1>F g3<8,8,1>F g4<0,1,0>F { align1 1Q };");
    rejects(
        "bdw",
        "add(8) g2<1>F g3<4,8,1>F g4<0,1,0>F { align1 1Q };",
        Rule::RegionParameters,
    );
    rejects(
        "bdw",
        "mov(8) g2<1>F g3<16,1,2>F { align1 1Q };",
        Rule::RegionParameters,
    );
    rejects(
        "bdw",
        "mov(8) g2<0>F g3<8,8,1>F { align1 1Q };",
        Rule::RegionParameters,
    );
}

#[test]
fn register_alignment() {
    accepts("ivb", "mov(8) g2.4<1>UW g3.2<8,8,1>UW { align1 1Q };");
    // Hand-built: a dword operand at byte 2 of a register.
    let d = DevInfo::from_name("ivb").unwrap();
    let mut inst = eu::assemble(d, "mov(8) g2<1>D g3<8,8,1>D { align1 1Q };").unwrap();
    inst[0].dst.subnr = 2;
    let rules: Vec<Rule> = eu::validate(d, &inst).into_iter().map(|e| e.rule).collect();
    assert!(rules.contains(&Rule::RegisterAlignment), "{rules:?}");
}

#[test]
fn vector_immediates() {
    accepts("ivb", "mov(8) g8<1>UW 0x32103210V { align1 WE_all 1Q };");
    accepts("ivb", "mov(8) g12<1>F 0x30003000VF { align1 1Q };");
    rejects(
        "ivb",
        "mov(8) g8<1>UD 0x32103210V { align1 WE_all 1Q };",
        Rule::VectorImmediates,
    );
    rejects(
        "ivb",
        "mov(8) g12<2>F 0x30003000VF { align1 1Q };",
        Rule::VectorImmediates,
    );
}

#[test]
fn double_precision() {
    accepts("bdw", "mov(8) g74<1>DF g5<0,1,0>DF { align1 1Q };");
    // Gen6 has no DF encoding, so its assembler refuses the text; the validator still rules on
    // instructions built in memory, here assembled for Gen7 and validated for Gen6.
    let snb = DevInfo::from_name("snb").unwrap();
    assert!(eu::assemble(snb, "mov(8) g74<1>F g5<0,1,0>DF { align1 1Q };").is_err());
    let ivb = DevInfo::from_name("ivb").unwrap();
    let insts = eu::assemble(ivb, "mov(8) g74<1>F g5<0,1,0>DF { align1 1Q };").unwrap();
    assert!(eu::validate(snb, &insts)
        .iter()
        .any(|e| e.rule == Rule::DoublePrecision));
    accepts("bdw", "mov(8) g62<1>Q 0xbff0000000000000Q { align1 1Q };");
    accepts("chv", "mov(4) g74<1>DF g5<4,4,1>DF { align1 1N };");
    rejects(
        "chv",
        "mov(4) g74<1>DF g5<8,2,2>DF { align1 1N };",
        Rule::DoublePrecision,
    );
}

#[test]
fn send_restrictions() {
    let ok = "send(8) null<1>F g113<8,8,1>F 0x8a080017
              urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0 { align1 1Q EOT };";
    accepts("bdw", ok);
    let low = "send(8) null<1>F g13<8,8,1>F 0x8a080017
               urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0 { align1 1Q EOT };";
    rejects("bdw", low, Rule::SendRestrictions);
    let no_payload = "send(8) g2<1>UD g13<8,8,1>F 0x00100017
                      urb MsgDesc: 1 SIMD8 write mlen 0 rlen 1 { align1 1Q };";
    rejects("bdw", no_payload, Rule::SendRestrictions);
}

#[test]
fn mesa_vectors_validate() {
    let Some(dir) = common::shared_path("vectors/intel") else {
        return;
    };
    for platform in ["brw", "g4x", "ilk", "snb", "ivb", "bdw"] {
        let d = DevInfo::from_name(platform).unwrap();
        let mut total = 0;
        let mut flagged = Vec::new();
        for f in common::files_with_suffix(&dir.join(platform), ".asm") {
            let insts = eu::assemble(d, &std::fs::read_to_string(&f).unwrap()).unwrap();
            total += insts.len();
            for e in eu::validate(d, &insts) {
                flagged.push(format!("{}: {e}", f.file_name().unwrap().to_string_lossy()));
            }
        }
        println!(
            "{platform}: {} of {total} instructions flagged",
            flagged.len()
        );
        let mut figs = common::expect::Figures::new(&format!("{platform}.eu.validate_vectors"));
        figs.count("instructions", total);
        figs.count("flagged", flagged.len());
        flagged.iter().take(20).for_each(|f| figs.note(f.clone()));
        figs.check();
        // Mesa generated and checked these: a flag here is a false positive.
        assert!(flagged.is_empty(), "{platform}: {flagged:#?}");
    }
}
