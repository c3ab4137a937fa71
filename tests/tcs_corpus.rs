//! Piglit's tessellation-control shaders as Mesa 23.3's iris compiled them on bdw
//! (shared/corpus/stages/bdw, `*.tcs.nir`): every one compiled for Gen8 (bdw) and Gen9 (skl),
//! run on the simulator against the interpreter, and on bdw its statistics compared with
//! Mesa's (shared/corpus/stages/bdw.csv, `tcs` rows). Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{mesa_stage_stats, Compiled, Record, Tally};
use gpucc::intel::backend::{verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::eu::{self, types::sfid, Imm, Src};
use gpucc::intel::DevInfo;

fn run(platform: &str) {
    let Some(dir) = common::shared_path("corpus/stages/bdw") else {
        return;
    };
    let Some(csv) = common::shared_path("corpus/stages/bdw.csv") else {
        return;
    };
    let mesa = mesa_stage_stats(&csv, "tcs");
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".tcs.nir");
    let mut t = Tally {
        files: files.len(),
        ..Tally::default()
    };
    for f in &files {
        let Some(Compiled {
            name,
            shader,
            kernel: k,
            ..
        }) = t.compile(&ctx, &Options::widths(&[8]), f)
        else {
            continue;
        };
        let info = k.tess_ctrl.as_ref().expect("a TCS has its facts");
        // Mesa's SINGLE_PATCH instances: eight output vertices per thread.
        let out = shader.info.field("tcs_vertices_out").unwrap().trim();
        let out: u32 = out.parse().unwrap();
        assert_eq!(info.output_vertices, out, "{name}");
        assert_eq!(info.instances, out.div_ceil(8), "{name}");
        t.verdict(&name, verify_kernel(&ctx, &shader, &k, 8));
        // Mesa's statistics are bdw's; skl's programs are only compiled and verified.
        if let (Some(&m), "bdw") = (mesa.get(name.trim_end_matches(".nir")), platform) {
            t.compare(&k.simd[0].stats, m);
        }
    }
    t.check(&format!("{platform}.tcs.corpus"), Record::MESA);
    assert!(
        t.ours <= t.theirs,
        "more instructions than Mesa: {} > {}",
        t.ours,
        t.theirs
    );
}

#[test]
fn bdw_tessellation_control_shaders_compile_verify_and_match_mesa() {
    run("bdw");
}

#[test]
fn skl_tessellation_control_shaders_compile_and_verify() {
    run("skl");
}

/// The check is not blind to the patch entry's layout: the program of arb_arrays_of_arrays'
/// tcs-tes-patch verifies as compiled, and fails with any one of its URB writes moved one
/// slot up (a write of the right value to the wrong place) or dropped.
#[test]
fn a_tcs_writing_one_slot_off_or_not_at_all_fails_the_check() {
    let Some((shader, programs)) = common::stage_corpus::verified_stage_programs(
        "bdw",
        "piglit__spec__arb_arrays_of_arrays__execution__tessellation__tcs-tes-patch.tcs.nir",
        &["bdw", "skl"],
        Default::default(),
    ) else {
        return;
    };
    for (dev, ctx, k) in programs {
        let platform = dev.name;
        let insts = eu::decode_program(dev, &k.code[..k.simd[0].size as usize]).unwrap();
        // SIMD8 URB writes: opcode 7 (masked or not) in the descriptor's low bits.
        let writes: Vec<usize> = (0..insts.len())
            .filter(|&i| {
                let inst = &insts[i];
                inst.msg.is_some_and(|m| m.sfid == sfid::URB)
                    && matches!(inst.src.get(1), Some(Src::Imm(d)) if d.bits & 0xf == 7)
            })
            .collect();
        assert!(writes.len() >= 2, "{platform}: the patch and vertex writes");
        let broken = |edit: &dyn Fn(&mut Vec<eu::Inst>)| {
            let mut edited = insts.clone();
            edit(&mut edited);
            let code: Vec<u8> = eu::encode_program(dev, &edited).unwrap().concat();
            let mut b = k.clone();
            b.simd[0].size = code.len() as u32;
            b.code = code;
            verify_kernel(&ctx, &shader, &b, 8)
        };
        for &w in &writes {
            let shifted = broken(&|e| {
                let Some(Src::Imm(d)) = e[w].src.get(1).copied() else {
                    unreachable!()
                };
                // The global offset, bits 14:4, one slot further.
                e[w].src[1] = Src::Imm(Imm {
                    bits: d.bits + (1 << 4),
                    ..d
                });
            });
            assert!(
                matches!(shifted, VerifyOutcome::Fail { .. }),
                "{platform}: write {w} one slot up: {shifted:?}"
            );
            if !insts[w].eot {
                let dropped = broken(&|e| e[w] = eu::Inst::new(eu::Opcode::Nop));
                assert!(
                    matches!(dropped, VerifyOutcome::Fail { .. }),
                    "{platform}: write {w} dropped: {dropped:?}"
                );
            }
        }
    }
}
