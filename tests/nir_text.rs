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

/// Every texture op nir_print (Mesa 23.3, `print_tex_instr`) writes, in `nir_texop` order,
/// and whether the op reads a sampler (`nir_tex_instr_need_sampler`), which decides whether
/// nir_print writes the `(sampler)` index.
const MESA_TEX_OPS: [(&str, bool); 22] = [
    ("tex", true),
    ("txb", true),
    ("txl", true),
    ("txd", true),
    ("txf", false),
    ("txf_ms", false),
    ("txf_ms_fb", true),
    ("txf_ms_mcs_intel", true),
    ("txs", false),
    ("lod", true),
    ("tg4", true),
    ("query_levels", false),
    ("texture_samples", false),
    ("samples_identical", false),
    ("tex (pre-dispatchable)", true),
    ("fragment_fetch_amd", true),
    ("fragment_mask_fetch_amd", true),
    ("descriptor_amd", false),
    ("sampler_descriptor_amd", true),
    ("lod_bias_agx", true),
    ("hdr_dim_nv", true),
    ("tex_type_nv", true),
];

/// Every texture source kind nir_print (Mesa 23.3) writes, in `nir_tex_src_type` order.
const MESA_TEX_SRCS: [&str; 20] = [
    "coord",
    "projector",
    "comparator",
    "offset",
    "bias",
    "lod",
    "min_lod",
    "ms_index",
    "ms_mcs_intel",
    "ddx",
    "ddy",
    "texture_deref",
    "sampler_deref",
    "texture_offset",
    "sampler_offset",
    "texture_handle",
    "sampler_handle",
    "plane",
    "backend1",
    "backend2",
];

/// `tex_deref.nir` with its texture instruction replaced by `line`: parses, prints back byte
/// for byte, rebuilds through the C builder unchanged, and holds the one texture instruction.
fn tex_round_trip(line: &str) -> nir::TexInstr {
    let from = "(float32)tex %1 (coord), 0 (texture), 0 (sampler)";
    let base = data("tex_deref.nir");
    assert!(base.contains(from));
    let text = base.replace(from, line);
    let shader = nir::parse(&text).unwrap_or_else(|e| panic!("`{line}`: {e}"));
    nir::validate(&shader).unwrap_or_else(|e| panic!("`{line}`: {e}"));
    assert_eq!(nir::print(&shader), text, "`{line}` does not print back");
    // The builder takes the NIR only, not the text that follows it.
    let mut nir_only = shader.clone();
    nir_only.trailer.clear();
    let rebuilt = gpucc::capi::replay(&nir_only).unwrap_or_else(|e| panic!("`{line}`: {e}"));
    assert_eq!(
        nir::print(&rebuilt),
        nir::print(&nir_only),
        "`{line}` changes through the C builder"
    );
    assert_eq!(rebuilt, nir_only, "`{line}` changes through the C builder");
    match &shader.entry().unwrap().def_instr(SsaId(2)).unwrap().kind {
        InstrKind::Tex(t) => t.clone(),
        other => panic!("`{line}` read as {other:?}"),
    }
}

#[test]
fn every_mesa_texture_op_round_trips() {
    let mut ops = Vec::new();
    for (spelling, needs_sampler) in MESA_TEX_OPS {
        // nir_print's fields: the sources, the gather component of tg4, the texture index
        // (not for txf_ms_fb) and the sampler index when the op reads a sampler.
        let mut line = format!("(float32){spelling} %1 (coord)");
        if spelling == "tg4" {
            line += ", 2 (gather_component)";
        }
        if spelling != "txf_ms_fb" {
            line += ", 0 (texture)";
        }
        if needs_sampler {
            line += ", 0 (sampler)";
        }
        let t = tex_round_trip(&line);
        assert_eq!(t.op.needs_sampler(), needs_sampler, "{spelling}");
        assert_eq!(t.sampler_index.is_some(), needs_sampler, "{spelling}");
        ops.push(t.op);
    }
    // Each spelling is its own op, and there is no op Mesa does not print.
    let distinct: std::collections::HashSet<_> = ops.iter().collect();
    assert_eq!(distinct.len(), MESA_TEX_OPS.len());
    assert_eq!(nir::TexOp::ALL, &ops[..]);
}

#[test]
fn every_mesa_texture_source_round_trips() {
    let mut kinds = Vec::new();
    for spelling in MESA_TEX_SRCS {
        // With a deref source nir_print writes no index for the object it names.
        let mut line = format!("(float32)tex %1 ({spelling})");
        if spelling != "texture_deref" {
            line += ", 0 (texture)";
        }
        if spelling != "sampler_deref" {
            line += ", 0 (sampler)";
        }
        let t = tex_round_trip(&line);
        assert_eq!(t.srcs.len(), 1);
        kinds.push(t.srcs[0].0);
    }
    assert_eq!(nir::TexSrc::ALL, &kinds[..]);
}

/// A constant texture source shows its value as nir_print reads the source
/// (`nir_tex_instr_src_type`): 1.0f as a sampling level is a float, the same bits as a
/// fetch's level an integer; and the `load_const` shows the reading its uses agree on.
#[test]
fn constant_texture_sources_print_in_their_type() {
    let base = data("tex_deref.nir");
    let tex = "    32x4  %2 = (float32)tex %1 (coord), 0 (texture), 0 (sampler)";
    for (load_const, tex_with_lod) in [
        (
            "(0x3f800000 = 1.000000)",
            "(float32)txl %1 (coord), %6 (1.000000) (lod), 0 (texture), 0 (sampler)",
        ),
        (
            "(0x3f800000 = 1065353216)",
            "(float32)txf %1 (coord), %6 (0x3f800000) (lod), 0 (texture)",
        ),
    ] {
        let text = base.replace(
            tex,
            &format!("    32    %6 = load_const {load_const}\n    32x4  %2 = {tex_with_lod}"),
        );
        let shader = nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(nir::print(&shader), text);
    }
}
