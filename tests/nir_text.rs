//! Hand-written NIR text (tests/data/nir, written for these tests following nir_print's
//! format rules) parses, validates, prints back byte for byte and means what it says.

use gpucc::nir::{self, cfg::Cfg, AluOp, BlockId, InstrKind, SsaId, Stage};

fn data(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/nir")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

fn round_trip(name: &str) -> nir::Shader {
    let text = data(name);
    let shader = nir::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    nir::validate(&shader).unwrap_or_else(|e| panic!("{name}: {e}"));
    let printed = nir::print(&shader);
    if printed != text {
        let line = printed.lines().zip(text.lines()).position(|(a, b)| a != b);
        panic!(
            "{name}: printed text differs at line {:?}:\n{printed}",
            line.map(|l| l + 1)
        );
    }
    assert_eq!(nir::parse(&printed).unwrap(), shader);
    assert_eq!(shader.to_string(), printed);
    shader
}

#[test]
fn if_phi_round_trips_and_has_its_structure() {
    let s = round_trip("if_phi.nir");
    assert_eq!(s.stage(), Stage::Fragment);
    assert_eq!(s.name(), Some("hand-if-phi"));
    let imp = s.entry().unwrap();
    assert_eq!(imp.blocks.len(), 5);
    let cfg = Cfg::compute(imp);
    assert_eq!(cfg.succs[0], vec![BlockId(1), BlockId(2)]);
    assert_eq!(cfg.preds[3], vec![BlockId(1), BlockId(2)]);
    assert_eq!(cfg.succs[3], vec![BlockId(4)]);
    let d4 = imp.def(SsaId(4)).unwrap();
    assert_eq!((d4.bit_size, d4.num_components, d4.divergent), (1, 1, true));
    assert!(!imp.def(SsaId(0)).unwrap().divergent);
    match &imp.def_instr(SsaId(5)).unwrap().kind {
        InstrKind::Alu(a) => {
            assert_eq!(a.op, AluOp::fmul);
            assert_eq!(&a.srcs[0].swizzle[..4], &[3, 2, 1, 0]);
            assert_eq!(&a.srcs[1].swizzle[..4], &[0, 0, 0, 0]);
        }
        other => panic!("%5 should be fmul, is {other:?}"),
    }
    match &imp.def_instr(SsaId(7)).unwrap().kind {
        InstrKind::Phi(p) => {
            assert_eq!(p.srcs, vec![(BlockId(1), SsaId(5)), (BlockId(2), SsaId(6))])
        }
        other => panic!("%7 should be a phi, is {other:?}"),
    }
    assert_eq!(imp.const_value(SsaId(3)), Some(&[0x3f00_0000u64][..]));
}

#[test]
fn register_loop_round_trips_and_links_the_loop() {
    let s = round_trip("reg_loop.nir");
    assert_eq!(s.stage(), Stage::Vertex);
    // "inputs_read: 15" is bit 15 (VERT_ATTRIB_GENERIC0); absent fields read as empty.
    assert_eq!(s.info.slot_mask("inputs_read"), Some(1 << 15));
    assert_eq!(s.info.slot_mask("outputs_written"), Some(1));
    assert_eq!(s.info.slot_mask("system_values_read"), Some(0));
    assert_eq!(s.variables[1].location_number(), Some(15));
    let imp = s.entry().unwrap();
    let cfg = Cfg::compute(imp);
    // b1 is the loop header: entered from b0 and from the end of the body (b4).
    assert_eq!(cfg.preds[1], vec![BlockId(0), BlockId(4)]);
    // The break leaves the loop to b5; the empty else block falls through to b4.
    assert_eq!(cfg.succs[2], vec![BlockId(5)]);
    assert_eq!(cfg.succs[3], vec![BlockId(4)]);
    assert_eq!(cfg.succs[4], vec![BlockId(1)]);
    assert_eq!(cfg.succs[5], vec![BlockId(6)]);
    assert_eq!(imp.ssa_alloc, 13);
    let regs = imp
        .instrs
        .iter()
        .filter(|i| matches!(&i.kind, InstrKind::Intrinsic(x) if x.intrinsic.name() == "decl_reg"))
        .count();
    assert_eq!(regs, 2);
}

#[test]
fn texture_and_deref_round_trip() {
    let s = round_trip("tex_deref.nir");
    let imp = s.entry().unwrap();
    match &imp.def_instr(SsaId(2)).unwrap().kind {
        InstrKind::Tex(t) => {
            assert_eq!(t.op, nir::TexOp::Tex);
            assert_eq!(t.srcs, vec![(nir::TexSrc::Coord, SsaId(1))]);
            assert_eq!((t.texture_index, t.sampler_index), (Some(0), Some(0)));
        }
        other => panic!("%2 should be tex, is {other:?}"),
    }
    assert!(matches!(
        imp.def_instr(SsaId(3)).unwrap().kind,
        InstrKind::Undef(_)
    ));
    assert_eq!(s.variables.len(), 3);
    assert_eq!(s.variables[1].location_frac(), 0);
    assert_eq!(s.variables[1].components.as_deref(), Some("xy"));
}
