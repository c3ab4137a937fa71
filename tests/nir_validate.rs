//! Every validator rule rejects a shader that breaks it (the corpus test shows the accepting
//! side on 3,440 real shaders).

use gpucc::nir::{
    self, AluOp, AluSrc, BlockId, Builder, CfNode, IndexKind, IndexValue, InstrKind, JumpKind,
    Shader, SsaId, Stage,
};

fn expect_rule(shader: &Shader, needle: &str) {
    match nir::validate(shader) {
        Ok(()) => panic!(
            "validator accepted a shader that breaks `{needle}`:\n{}",
            nir::print(shader)
        ),
        Err(e) => assert!(
            e.to_string().contains(needle),
            "expected `{needle}`, got:\n{e}"
        ),
    }
}

fn builder() -> Builder {
    Builder::new(Stage::Fragment, "validate-test")
}

#[test]
fn a_well_formed_built_shader_passes() {
    let mut b = builder();
    let x = b.imm_f32(2.0);
    let y = b.alu(AluOp::fadd, &[x, x]);
    let c = b.alu(AluOp::flt, &[x, y]);
    let before = b.current_block();
    b.push_if(c);
    let t = b.alu(AluOp::fmul, &[y, y]);
    let then_end = b.current_block();
    b.push_else();
    let e = b.alu(AluOp::fneg, &[y]);
    let else_end = b.current_block();
    b.pop_if();
    let p = b.phi(1, 32, &[(then_end, t), (else_end, e)]);
    b.alu(AluOp::fabs, &[p]);
    let s = b.finish().unwrap();
    assert_eq!(before, BlockId(0));
    nir::validate(&s).unwrap();
}

#[test]
fn ssa_dominance() {
    // A value defined in the then branch is used in the else branch.
    let mut b = builder();
    let x = b.imm_f32(1.0);
    let c = b.alu(AluOp::flt, &[x, x]);
    b.push_if(c);
    let t = b.alu(AluOp::fneg, &[x]);
    b.push_else();
    b.alu(AluOp::fabs, &[t]);
    b.pop_if();
    expect_rule(&b.finish().unwrap(), "does not dominate this use");

    // A use before its definition in the same block.
    let mut b = builder();
    let x = b.imm_f32(1.0);
    b.alu(AluOp::fneg, &[x]);
    let mut s = b.finish().unwrap();
    let imp = s.entry_mut().unwrap();
    imp.blocks[0].instrs.reverse();
    expect_rule(&s, "does not dominate this use");
}

#[test]
fn phi_sources_one_per_predecessor() {
    let mut b = builder();
    let x = b.imm_f32(1.0);
    let c = b.alu(AluOp::flt, &[x, x]);
    b.push_if(c);
    let then_end = b.current_block();
    b.push_else();
    b.pop_if();
    b.phi(1, 32, &[(then_end, x)]);
    expect_rule(
        &b.finish().unwrap(),
        "phi needs one source per predecessor (b1 b2), has (b1)",
    );

    let mut b = builder();
    let x = b.imm_f32(1.0);
    let c = b.alu(AluOp::flt, &[x, x]);
    b.push_if(c);
    let then_end = b.current_block();
    b.push_else();
    b.pop_if();
    b.phi(1, 32, &[(then_end, x), (then_end, x)]);
    expect_rule(&b.finish().unwrap(), "phi needs one source per predecessor");
}

#[test]
fn component_counts_per_signature() {
    // vec4 makes 4 components; a 3-wide result breaks its signature.
    let mut b = builder();
    let x = b.imm_f32(1.0);
    b.alu_src(AluOp::vec4, &[AluSrc::new(x); 4], 3);
    expect_rule(&b.finish().unwrap(), "produces 4 components, result has 3");

    // store_output of a 4-wide value whose num_components says 2.
    let mut b = builder();
    let v = b.imm_vec_f32(&[1.0, 2.0, 3.0, 4.0]);
    let off = b.imm_u32(0);
    b.intrinsic_named("store_output", &[v, off], None, &[])
        .unwrap();
    let mut s = b.finish().unwrap();
    for i in &mut s.entry_mut().unwrap().instrs {
        if let InstrKind::Intrinsic(x) = &mut i.kind {
            x.num_components = 2;
        }
    }
    expect_rule(&s, "source 0 must have 2 components");

    // load_const with fewer values than components.
    let mut b = builder();
    b.imm_vec_f32(&[1.0, 2.0]);
    let mut s = b.finish().unwrap();
    if let InstrKind::LoadConst(l) = &mut s.entry_mut().unwrap().instrs[0].kind {
        l.values.pop();
    }
    expect_rule(&s, "1 values for 2 components");
}

#[test]
fn bit_sizes_per_signature() {
    let mut b = builder();
    let x = b.imm_f32(1.0);
    let h = b.load_const(16, &[0x3c00]);
    b.alu(AluOp::fadd, &[x, h]);
    expect_rule(
        &b.finish().unwrap(),
        "sources have different bit sizes (32 and 16)",
    );

    // flt32 yields 32-bit booleans.
    let mut b = builder();
    let x = b.imm_f32(1.0);
    let r = b.alu(AluOp::flt32, &[x, x]);
    let mut s = b.finish().unwrap();
    s.entry_mut().unwrap().defs[r.0 as usize]
        .as_mut()
        .unwrap()
        .bit_size = 1;
    expect_rule(&s, "produces 32-bit values, result is 1-bit");

    // bcsel selects on a 1-bit boolean.
    let mut b = builder();
    let x = b.imm_u32(1);
    b.alu(AluOp::bcsel, &[x, x, x]);
    expect_rule(&b.finish().unwrap(), "source 0 must be 1-bit, %0 is 32-bit");
}

#[test]
fn swizzles_in_range() {
    let mut b = builder();
    let v = b.imm_vec_f32(&[1.0, 2.0]);
    b.alu_src(AluOp::fneg, &[AluSrc::swizzled(v, &[3])], 1);
    expect_rule(&b.finish().unwrap(), "reads component 3 of %0 which has 2");

    // fdot3 reads three components of each source.
    let mut b = builder();
    let v = b.imm_vec_f32(&[1.0, 2.0]);
    b.alu(AluOp::fdot3, &[v, v]);
    expect_rule(&b.finish().unwrap(), "reads component 2");
}

#[test]
fn required_indices_per_intrinsic() {
    let mut b = builder();
    let off = b.imm_u32(0);
    b.intrinsic_named("load_uniform", &[off], Some((1, 32)), &[])
        .unwrap();
    let mut s = b.finish().unwrap();
    let instrs = &mut s.entry_mut().unwrap().instrs;
    if let InstrKind::Intrinsic(x) = &mut instrs[1].kind {
        x.indices.pop();
    }
    expect_rule(&s, "needs 3 constant indices, has 2");

    let mut b = builder();
    let v = b.imm_vec_f32(&[1.0, 2.0]);
    let off = b.imm_u32(0);
    b.intrinsic_named(
        "store_output",
        &[v, off],
        None,
        &[(IndexKind::WriteMask, IndexValue::Int(3))],
    )
    .unwrap();
    expect_rule(
        &b.finish().unwrap(),
        "index `write_mask` has a value of the wrong kind",
    );

    let mut b = builder();
    let v = b.imm_vec_f32(&[1.0, 2.0]);
    let off = b.imm_u32(0);
    b.intrinsic_named(
        "store_output",
        &[v, off],
        None,
        &[(IndexKind::WriteMask, IndexValue::WriteMask(0b1100))],
    )
    .unwrap();
    expect_rule(
        &b.finish().unwrap(),
        "write mask names components beyond num_components",
    );

    // Destination bit sizes: load_front_face yields a 1- or 32-bit boolean.
    let mut b = builder();
    b.intrinsic_named("load_front_face", &[], Some((1, 16)), &[])
        .unwrap();
    expect_rule(
        &b.finish().unwrap(),
        "destination is 16-bit, allowed: [1, 32]",
    );

    // Source count.
    let mut b = builder();
    let off = b.imm_u32(0);
    b.intrinsic_named("load_ubo", &[off], Some((1, 32)), &[])
        .unwrap();
    expect_rule(&b.finish().unwrap(), "takes 2 sources, has 1");
}

#[test]
fn register_intrinsic_use() {
    // load_reg of something that is not a decl_reg.
    let mut b = builder();
    let x = b.imm_u32(0);
    b.intrinsic_named("load_reg", &[x], Some((1, 32)), &[])
        .unwrap();
    expect_rule(&b.finish().unwrap(), "register source %0 is not a decl_reg");

    // Storing a vec2 into a vec4 register.
    let mut b = builder();
    let r = b.decl_reg(4, 32);
    let v = b.imm_vec_f32(&[1.0, 2.0]);
    b.store_reg(r, v, 0b11);
    expect_rule(
        &b.finish().unwrap(),
        "value has 2 components, register %0 has 4",
    );

    // A register handle read directly by an ALU op.
    let mut b = builder();
    let r = b.decl_reg(1, 32);
    b.alu(AluOp::fneg, &[r]);
    expect_rule(&b.finish().unwrap(), "reads register %0 directly");

    // decl_reg outside the first block.
    let mut b = builder();
    let x = b.imm_f32(1.0);
    let c = b.alu(AluOp::flt, &[x, x]);
    b.push_if(c);
    b.decl_reg(1, 32);
    b.pop_if();
    expect_rule(&b.finish().unwrap(), "decl_reg must be in the first block");
}

#[test]
fn control_flow_shape() {
    // break outside a loop.
    let mut b = builder();
    b.jump(JumpKind::Break);
    expect_rule(&b.finish().unwrap(), "`break` outside of a loop");

    // A jump that is not the last instruction.
    let mut b = builder();
    b.push_loop();
    b.jump(JumpKind::Break);
    b.imm_f32(1.0);
    b.pop_loop();
    expect_rule(
        &b.finish().unwrap(),
        "a jump must be the last instruction of its block",
    );

    // A phi after another instruction.
    let mut b = builder();
    b.imm_f32(1.0);
    let mut s = b.finish().unwrap();
    let imp = s.entry_mut().unwrap();
    let id = nir::InstrId(imp.instrs.len() as u32);
    imp.defs.push(Some(nir::Def {
        num_components: 1,
        bit_size: 32,
        divergent: false,
        instr: id,
    }));
    imp.instrs.push(nir::Instr {
        block: BlockId(0),
        kind: InstrKind::Phi(nir::PhiInstr {
            def: SsaId(1),
            srcs: vec![],
        }),
    });
    imp.blocks[0].instrs.push(id);
    expect_rule(&s, "phis must come before all other instructions");

    // Two blocks in a row, and a list that does not end with a block.
    let mut b = builder();
    b.imm_f32(1.0);
    let mut s = b.finish().unwrap();
    let imp = s.entry_mut().unwrap();
    let extra = BlockId(imp.blocks.len() as u32 - 1);
    imp.blocks.push(Default::default());
    imp.body.push(CfNode::Block(extra));
    expect_rule(&s, "must alternate blocks and if/loop nodes");

    // The end block must be empty.
    let mut b = builder();
    b.imm_f32(1.0);
    let mut s = b.finish().unwrap();
    let imp = s.entry_mut().unwrap();
    let end = imp.end_block();
    imp.instrs[0].block = end;
    let moved = imp.blocks[0].instrs.pop().unwrap();
    imp.blocks[end.0 as usize].instrs.push(moved);
    expect_rule(&s, "the end block must be empty");

    // An if condition must be a single component.
    let mut b = builder();
    let v = b.imm_vec_f32(&[1.0, 0.0]);
    b.push_if(v);
    b.pop_if();
    expect_rule(
        &b.finish().unwrap(),
        "the condition must have one component",
    );
}

#[test]
fn errors_name_the_instruction_and_block() {
    let mut b = builder();
    let x = b.imm_f32(1.0);
    let h = b.load_const(16, &[0x3c00]);
    b.alu(AluOp::fadd, &[x, h]);
    let e = nir::validate(&b.finish().unwrap()).unwrap_err();
    assert_eq!(e.issues.len(), 1);
    assert_eq!(e.issues[0].location, "block b0, %2 = fadd");
    assert_eq!(
        e.to_string(),
        format!("block b0, %2 = fadd: {}", e.issues[0].rule)
    );
}

#[test]
fn an_instruction_listed_only_by_another_block() {
    // The membership check is one pass over the blocks: an instruction whose `block` says b1
    // while only b0 lists it is as wrong as one no block lists.
    let mut b = builder();
    let x = b.imm_f32(2.0);
    let y = b.alu(AluOp::fadd, &[x, x]);
    let c = b.alu(AluOp::flt, &[x, y]);
    b.push_if(c);
    let then_block = b.current_block();
    b.alu(AluOp::fmul, &[y, y]);
    b.pop_if();
    let mut s = b.finish().unwrap();
    nir::validate(&s).unwrap();
    let imp = s.entry_mut().unwrap();
    let add = imp.def(y).unwrap().instr;
    imp.instrs[add.0 as usize].block = then_block;
    expect_rule(&s, &format!("not listed in its block b{}", then_block.0));
}
