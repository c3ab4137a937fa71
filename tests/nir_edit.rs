//! The editing helpers passes use keep the IR valid: rewrite uses, detach, compact, insert.

use gpucc::nir::{self, AluOp, BlockId, Builder, InstrKind, LoadConstInstr, Stage};

#[test]
fn copy_propagation_then_compaction_is_valid() {
    let mut b = Builder::new(Stage::Fragment, "edit");
    let x = b.imm_f32(3.0);
    let y = b.alu(AluOp::mov, &[x]);
    let z = b.alu(AluOp::fadd, &[y, y]);
    let cond = b.alu(AluOp::fneu32, &[z, z]);
    b.push_if(cond);
    b.pop_if();
    let mut s = b.finish().unwrap();
    let imp = s.entry_mut().unwrap();
    assert_eq!(imp.use_counts()[y.0 as usize], 2);

    imp.rewrite_uses(y, x);
    let mov = imp.def(y).unwrap().instr;
    imp.remove_instr(mov);
    // Detached but not yet compacted: the validator insists on compaction.
    let e = nir::validate(&s).unwrap_err();
    assert!(e.to_string().contains("not listed in its block"), "{e}");

    let imp = s.entry_mut().unwrap();
    imp.compact();
    assert!(imp.def(y).is_none());
    assert_eq!(imp.use_counts()[x.0 as usize], 2);
    nir::validate(&s).unwrap();
    let printed = nir::print(&s);
    assert!(
        printed.contains(&format!("= fadd %{0} (3.000000), %{0} (3.000000)", x.0)),
        "{printed}"
    );
    assert!(!printed.contains("mov"));
    assert_eq!(nir::parse(&printed).unwrap(), s);
}

#[test]
fn inserted_instructions_define_their_values() {
    let mut b = Builder::new(Stage::Fragment, "insert");
    let x = b.imm_f32(1.0);
    let y = b.alu(AluOp::fneg, &[x]);
    let mut s = b.finish().unwrap();
    let imp = s.entry_mut().unwrap();
    // Insert a constant before everything and make the negation read it.
    let c = imp.alloc_ssa(1, 32);
    imp.insert_instr(
        BlockId(0),
        0,
        InstrKind::LoadConst(LoadConstInstr {
            def: c,
            values: vec![0x4000_0000],
        }),
    );
    let neg = imp.def(y).unwrap().instr.0 as usize;
    if let InstrKind::Alu(a) = &mut imp.instrs[neg].kind {
        a.srcs[0].ssa = c;
    }
    let mut counts = imp.use_counts();
    assert_eq!((counts[x.0 as usize], counts[c.0 as usize]), (0, 1));
    // Dead-code-eliminate x.
    imp.remove_instr(imp.def(x).unwrap().instr);
    imp.compact();
    counts = imp.use_counts();
    assert_eq!(counts.len(), 3);
    assert_eq!(imp.instrs.len(), 2);
    // Program order after compaction: the constant, then the negation.
    assert_eq!(imp.instrs[0].kind.def(), Some(c));
    assert_eq!(imp.instrs[1].kind.def(), Some(y));
    nir::validate(&s).unwrap();
    let printed = nir::print(&s);
    assert!(
        printed.contains("%2 = load_const (0x40000000 = 2.000000)"),
        "{printed}"
    );
    assert!(printed.contains("%1 = fneg %2 (2.000000)"), "{printed}");
    assert_eq!(nir::parse(&printed).unwrap(), s);
}
