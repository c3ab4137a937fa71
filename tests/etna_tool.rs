//! The command-line entry points for etnaviv: asm, disasm (text and binary) and sim.

use gpucc::etnaviv::specs::Specs;
use gpucc::etnaviv::tool;

#[test]
fn asm_prints_hex_words_and_disasm_reads_them_back() {
    let gc3000 = Specs::from_name("gc3000").unwrap();
    // Two vectors from Mesa's disassembler tests.
    let src = "texld             t1, tex0.xyzw, t1.xyyy, void, void\n\
               add.rtz           t0.x___, 0.5:f20, void, |t0.xxxx|\n";
    let hex = tool::asm(gc3000, src).unwrap();
    assert_eq!(
        hex,
        "07811018 15001f20 00000000 00000000\n00801001 7e000805 00000038 00800008\n"
    );
    assert_eq!(tool::disasm_text(&hex).unwrap(), src);
    let mut bytes = Vec::new();
    for w in [0x0781_1018u32, 0x1500_1f20, 0, 0] {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    assert_eq!(
        tool::disasm_binary(&bytes).unwrap(),
        "texld             t1, tex0.xyzw, t1.xyyy, void, void\n"
    );
    assert!(tool::disasm_binary(&bytes[..10]).is_err());
    let e = tool::asm(gc3000, "mov t1, void, void, t2.xyzw\nbogus t1\n").unwrap_err();
    assert!(e.starts_with("2:1:"), "{e}");
    assert!(tool::disasm_text("ffffffff ffffffff ffffffff ffffffff").is_err());
}

#[test]
fn sim_sets_runs_and_dumps() {
    let gc3000 = Specs::from_name("gc3000").unwrap();
    let out = tool::sim(
        gc3000,
        "add t2, t1.xyzw, void, t1.xyzw",
        &["t1=1,2,3,4".to_string()],
        Some("t1-t2"),
    )
    .unwrap();
    assert_eq!(
        out,
        "t1: 1 2 3 4  [3f800000 40000000 40400000 40800000]\n\
         t2: 2 4 6 8  [40000000 40800000 40c00000 41000000]\n\
         1 instructions executed\n"
    );
    // Validation runs first: two uniforms in one instruction on a one-const core.
    assert!(tool::sim(gc3000, "add t2, u0.xxxx, void, u1.xxxx", &[], None).is_err());
}
