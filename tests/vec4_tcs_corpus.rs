//! Mesa's ivb tessellation-control corpus through the vec4 backend, on Ivy Bridge and
//! Haswell (which compiles the ivb NIR): every `*.tcs.nir` of shared/corpus/stages/ivb
//! (piglit's tessellation tests as crocus received them) compiled with Mesa's binding model,
//! run on the simulator (two output vertices per SIMD4x2 thread, the instance threads of
//! the patch in turn between barriers) over one patch URB entry laid with a poison, against
//! the interpreter, and its statistics compared with Mesa's (shared/corpus/stages/ivb.csv,
//! `tcs` rows; Mesa's ivb figures serve both platforms). What is not built is refused by
//! name (double precision among it). Figures are held exactly in
//! tests/expectations/corpus.txt.

mod common;

use common::stage_corpus::{mesa_stage_stats, Compiled, Record, Tally};
use gpucc::intel::backend::{verify_kernel, BindingModel, Context, Options, VerifyOutcome};
use gpucc::intel::eu::{self, types::sfid, Imm, Src};
use gpucc::intel::kernel::SIMD4X2;
use gpucc::intel::DevInfo;

fn run(platform: &str) {
    let Some(dir) = common::shared_path("corpus/stages/ivb") else {
        return;
    };
    let Some(csv) = common::shared_path("corpus/stages/ivb.csv") else {
        return;
    };
    let mesa = mesa_stage_stats(&csv, "tcs");
    let ctx = Context::new(DevInfo::from_name(platform).unwrap());
    let files = common::files_with_suffix(&dir, ".tcs.nir");
    let mut t = Tally {
        files: files.len(),
        ..Tally::default()
    };
    let list = std::env::var_os("GPUCC_TEST_LIST").is_some();
    let mut options = Options::widths(&[8]).validating();
    options.binding = BindingModel::Mesa;
    for f in &files {
        let Some(Compiled {
            name,
            shader,
            kernel: k,
            ..
        }) = t.compile(&ctx, &options, f)
        else {
            continue;
        };
        let info = k.tess_ctrl.as_ref().expect("a TCS program has TCS facts");
        assert!(
            k.vertex.is_none() && k.geometry.is_none() && k.tess_eval.is_none(),
            "{name}: a TCS program has no other stage's facts"
        );
        assert_eq!(k.simd[0].simd, SIMD4X2, "{name}");
        // Mesa's vec4 instances: two output vertices per thread.
        let out: u32 = shader
            .info
            .field("tcs_vertices_out")
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert_eq!(info.output_vertices, out, "{name}");
        assert_eq!(info.instances, out.div_ceil(2), "{name}");
        // The payload: g0, the ICP handles g1-g4, then the push constants.
        assert_eq!(k.simd[0].dispatch_grf_start, 5, "{name}");
        t.verdict(&name, verify_kernel(&ctx, &shader, &k, 8));
        if let Some(&m) = mesa.get(name.trim_end_matches(".nir")) {
            let s = &k.simd[0].stats;
            t.compare(s, m);
            if list {
                eprintln!("{name}: {} vs Mesa's {}", s.instructions, m.instructions);
            }
        }
    }
    t.check(&format!("{platform}.vec4_tcs.corpus"), Record::MESA);
}

#[test]
fn ivb_vec4_tcs_corpus() {
    run("ivb");
}

#[test]
fn hsw_vec4_tcs_corpus() {
    run("hsw");
}

/// The check is not blind to the patch entry's layout: the ivb program of
/// arb_arrays_of_arrays' tcs-tes-patch (three output vertices: two instance threads, the
/// second with one live half) verifies as compiled, and fails with any one of its URB
/// writes to the patch entry moved one slot up (the right value in the wrong place) or
/// dropped.
#[test]
fn a_vec4_tcs_writing_one_slot_off_or_not_at_all_fails_the_check() {
    let Some((shader, programs)) = common::stage_corpus::verified_stage_programs(
        "ivb",
        "piglit__spec__arb_arrays_of_arrays__execution__tessellation__tcs-tes-patch.tcs.nir",
        &["ivb", "hsw"],
        BindingModel::Mesa,
    ) else {
        return;
    };
    for (dev, ctx, k) in programs {
        let platform = dev.name;
        assert_eq!(k.tess_ctrl.as_ref().unwrap().instances, 2);
        let insts = eu::decode_program(dev, &k.code[..k.simd[0].size as usize]).unwrap();
        // Patch writes: URB OWord writes (opcode 1, bits 2:0) with per-slot offsets (bit 16),
        // not EOT.
        let writes: Vec<usize> = (0..insts.len())
            .filter(|&i| {
                let inst = &insts[i];
                inst.msg.is_some_and(|m| m.sfid == sfid::URB)
                    && !inst.eot
                    && matches!(inst.src.get(1), Some(Src::Imm(d))
                        if d.bits & 0x7 == 1 && d.bits >> 16 & 1 == 1)
            })
            .collect();
        assert_eq!(writes.len(), 7, "{platform}: the patch and vertex writes");
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
                // The global offset, bits 13:3 on Gen7, one slot further.
                e[w].src[1] = Src::Imm(Imm {
                    bits: d.bits + (1 << 3),
                    ..d
                });
            });
            assert!(
                matches!(shifted, VerifyOutcome::Fail { .. }),
                "{platform}: write {w} one slot up: {shifted:?}"
            );
            let dropped = broken(&|e| e[w] = eu::Inst::new(eu::Opcode::Nop));
            assert!(
                matches!(dropped, VerifyOutcome::Fail { .. }),
                "{platform}: write {w} dropped: {dropped:?}"
            );
        }
    }
}
