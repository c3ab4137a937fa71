//! The builder makes valid shaders whose text is what nir_print would write.

use gpucc::nir::{
    self, cfg::Cfg, AluOp, AluType, BlockId, Builder, IndexKind, IndexValue, InstrKind, JumpKind,
    Stage, TexOp, TexSrc,
};

#[test]
fn built_shader_prints_as_nir_print_would() {
    let mut b = Builder::new(Stage::Fragment, "built");
    b.add_output("vec4", "color", "FRAG_RESULT_DATA0", 8);
    let zero = b.imm_u32(0);
    let half = b.imm_f32(0.5);
    let v = b.alu(AluOp::vec4, &[half, half, half, half]);
    b.intrinsic_named(
        "store_output",
        &[v, zero],
        None,
        &[
            (IndexKind::Base, IndexValue::Int(8)),
            (IndexKind::SrcType, IndexValue::Type(AluType::F32)),
            (
                IndexKind::IoSemantics,
                IndexValue::Text("io location=FRAG_RESULT_DATA0 slots=1".into()),
            ),
        ],
    )
    .unwrap();
    let s = b.finish().unwrap();
    nir::validate(&s).unwrap();
    // Written by hand from nir_print's rules: one-digit SSA ids, no divergence column, the
    // constant 0.5 shown as float (it flows into a float32 store) and as hex beside vec4's
    // untyped sources, the output variable named after store_output.
    let expected = "\
shader: MESA_SHADER_FRAGMENT
source_sha1: {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}
name: built
internal: false
stage: 4
next_stage: 4
subgroup_size: 1
inputs: 0
outputs: 1
uniforms: 0
decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_DATA0.xyzw, 8, 0)
decl_function main (0 params) 

impl main {
    block b0:  // preds: 
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x3f000000 = 0.500000)
    32x4  %2 = vec4 %1 (0x3f000000), %1 (0x3f000000), %1 (0x3f000000), %1 (0x3f000000)
               @store_output (%2, %0 (0x0)) (base=8, range=0, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())  // color
               // succs: b1 
    block b1:
}

";
    assert_eq!(nir::print(&s), expected);
    assert_eq!(nir::parse(expected).unwrap(), s);
}

#[test]
fn loops_ifs_registers_and_textures_build_valid_shaders() {
    let mut b = Builder::new(Stage::Fragment, "loop");
    b.add_uniform("sampler2D", "tex", 0);
    let counter = b.decl_reg(1, 32);
    let acc = b.decl_reg(4, 32);
    let zero = b.imm_u32(0);
    let limit = b.imm_u32(4);
    let one = b.imm_u32(1);
    let coord = b.imm_vec_f32(&[0.25, 0.75]);
    let init = b.imm_vec_f32(&[0.0; 4]);
    b.store_reg(counter, zero, 1);
    b.store_reg(acc, init, 0xf);
    b.push_loop();
    let header = b.current_block();
    let i = b.load_reg(counter);
    let done = b.alu(AluOp::ige32, &[i, limit]);
    b.push_if(done);
    b.jump(JumpKind::Break);
    b.pop_if();
    let texel = b.tex(
        TexOp::Tex,
        AluType::F32,
        &[(TexSrc::Coord, coord)],
        0,
        Some(0),
        4,
    );
    let a = b.load_reg(acc);
    let sum = b.alu(AluOp::fadd, &[a, texel]);
    b.store_reg(acc, sum, 0xf);
    let next = b.alu(AluOp::iadd, &[i, one]);
    b.store_reg(counter, next, 1);
    b.pop_loop();
    let after = b.current_block();
    let result = b.load_reg(acc);
    b.alu(AluOp::fsat, &[result]);
    let s = b.finish().unwrap();
    nir::validate(&s).unwrap_or_else(|e| panic!("{e}\n{}", nir::print(&s)));

    let imp = s.entry().unwrap();
    let cfg = Cfg::compute(imp);
    // b0 | loop { b1 if { b2: break } else { b3 } b4 } | b5 | end b6
    assert_eq!((header, after), (BlockId(1), BlockId(5)));
    assert_eq!(cfg.preds[1], vec![BlockId(0), BlockId(4)]);
    assert_eq!(cfg.succs[2], vec![BlockId(5)]);
    assert_eq!(cfg.preds[5], vec![BlockId(2)]);
    assert_eq!(imp.blocks.len(), 7);
    let printed = nir::print(&s);
    let again = nir::parse(&printed).unwrap();
    assert_eq!(again, s);
    assert_eq!(nir::print(&again), printed);
    assert!(
        printed
            .contains("= (float32)tex %5 (0.250000, 0.750000) (coord), 0 (texture), 0 (sampler)"),
        "{printed}"
    );
    assert!(
        printed.contains("@store_reg (%2 (0x0), %0) (base=0, wrmask=x, legacy_fsat=0)"),
        "{printed}"
    );
    let loads = imp
        .instrs
        .iter()
        .filter(|i| matches!(&i.kind, InstrKind::Intrinsic(x) if x.intrinsic.name() == "load_reg"))
        .count();
    assert_eq!(loads, 3);
}

#[test]
fn phis_lead_their_block() {
    let mut b = Builder::new(Stage::Vertex, "phi");
    let x = b.imm_f32(1.0);
    let c = b.alu(AluOp::flt, &[x, x]);
    b.push_if(c);
    let t = b.alu(AluOp::fneg, &[x]);
    let tb = b.current_block();
    b.push_else();
    let eb = b.current_block();
    b.pop_if();
    b.alu(AluOp::fabs, &[x]);
    let p = b.phi(1, 32, &[(tb, t), (eb, x)]);
    let s = b.finish().unwrap();
    nir::validate(&s).unwrap();
    let imp = s.entry().unwrap();
    let first = imp.blocks[3].instrs[0];
    assert_eq!(imp.instr(first).kind.def(), Some(p));
}

#[test]
fn builder_misuse_is_an_error() {
    let mut b = Builder::new(Stage::Fragment, "bad");
    b.pop_if();
    assert!(b
        .finish()
        .unwrap_err()
        .0
        .contains("pop_if without an open if"));
    let mut b = Builder::new(Stage::Fragment, "bad");
    b.push_loop();
    assert!(b.finish().unwrap_err().0.contains("still open"));
    let mut b = Builder::new(Stage::Fragment, "bad");
    assert!(b.intrinsic_named("no_such_thing", &[], None, &[]).is_err());
}

#[test]
fn jumps_link_to_their_targets() {
    // b0 | loop { b1 | if { b2: continue } else { b3 } | b4 | if { b5: halt } else { b6 } | b7: break } | b8 | end b9
    let mut b = Builder::new(Stage::Fragment, "jumps");
    let x = b.imm_f32(1.0);
    let c = b.alu(AluOp::flt, &[x, x]);
    b.push_loop();
    b.push_if(c);
    b.jump(JumpKind::Continue);
    b.pop_if();
    b.push_if(c);
    b.jump(JumpKind::Halt);
    b.pop_if();
    b.jump(JumpKind::Break);
    b.pop_loop();
    let s = b.finish().unwrap();
    nir::validate(&s).unwrap();
    let cfg = Cfg::compute(s.entry().unwrap());
    assert_eq!(
        cfg.succs[2],
        vec![BlockId(1)],
        "continue goes to the loop header"
    );
    assert_eq!(cfg.succs[5], vec![BlockId(9)], "halt goes to the end block");
    assert_eq!(cfg.succs[7], vec![BlockId(8)], "break leaves the loop");
    assert_eq!(cfg.preds[1], vec![BlockId(0), BlockId(2)]);
    assert_eq!(cfg.preds[9], vec![BlockId(5), BlockId(8)]);
    let printed = nir::print(&s);
    assert_eq!(nir::parse(&printed).unwrap(), s);
}

#[test]
fn deref_chains_round_trip() {
    use nir::{DerefInstr, DerefKind, GlslType, VarMode};
    let mut b = Builder::new(Stage::Fragment, "deref");
    let mut var = Builder::variable(VarMode::FunctionTemp, "vec2[4]", "arr", "", 0);
    var.components = None;
    b.add_variable(var);
    let idx = b.imm_u32(2);
    // The builder has no deref helpers: reserve a value with a placeholder, then swap in the
    // deref instruction defining it.
    let push_deref = |b: &mut Builder, kind: DerefKind, ty: &str| {
        let def = b.undef(1, 32);
        let instr = InstrKind::Deref(DerefInstr {
            def,
            kind,
            modes: vec![VarMode::FunctionTemp],
            ty: GlslType::parse(ty).unwrap(),
        });
        (def, instr)
    };
    let (base, base_instr) = push_deref(&mut b, DerefKind::Var("arr".into()), "vec2[4]");
    let (elem, elem_instr) = push_deref(
        &mut b,
        DerefKind::Array {
            parent: base,
            index: idx,
        },
        "vec2",
    );
    let mut s = b.finish().unwrap();
    let imp = s.entry_mut().unwrap();
    imp.instrs[1].kind = base_instr;
    imp.instrs[2].kind = elem_instr;
    nir::validate(&s).unwrap();
    let printed = nir::print(&s);
    assert!(
        printed.contains("    decl_var  INTERP_MODE_NONE none vec2[4] arr\n"),
        "{printed}"
    );
    assert!(
        printed.contains(&format!(
            "%{} = deref_var &arr (function_temp vec2[4])",
            base.0
        )),
        "{printed}"
    );
    assert!(
        printed.contains(&format!(
            "%{} = deref_array &(*%{})[%0] (function_temp vec2)  // &arr[2]",
            elem.0, base.0
        )),
        "{printed}"
    );
    assert_eq!(nir::parse(&printed).unwrap(), s);
}

#[test]
fn slot_masks_read_nir_print_ranges() {
    // nir_print writes 64-bit slot masks as runs of set bits: "0,15-17" is bits 0, 15, 16, 17.
    let mut b = Builder::new(Stage::Vertex, "mask");
    b.info_mut().set_field("inputs_read", "0,15-17");
    b.info_mut().set_field("outputs_written", "0-1,63");
    b.info_mut().set_field("dual_slot_inputs", "3-1");
    let s = b.finish().unwrap();
    assert_eq!(s.info.slot_mask("inputs_read"), Some(0b111 << 15 | 1));
    assert_eq!(s.info.slot_mask("outputs_written"), Some(0b11 | 1 << 63));
    assert_eq!(s.info.slot_mask("dual_slot_inputs"), None);
    assert_eq!(s.info.slot_mask("outputs_read"), Some(0));
}
