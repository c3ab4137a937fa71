//! Mesa 23.3's own vec4 (SIMD4x2) assembly of the ivb corpus vertex shaders
//! (shared/corpus/mesa-asm/ivb/*.vs.asm), run through gpucc's vertex-shader check against the
//! reference interpreter on the NIR Mesa compiled it from (shared/corpus/nir/ivb/*.vs.nir).
//!
//! This proves the checking side of the Gen7 vertex backend on code known to be right: the
//! SIMD4x2 payload, the interleaved URB writes and the VUE read-back must agree with the
//! interpreter on Mesa's code before they judge gpucc's.
//!
//! The kernel facts come from the NIR, as crocus and brw derive them:
//!
//! - vertex elements and the VUE map: gpucc's `vertex_facts` (the same as for Gen8); its VUE
//!   map is compared with the "VS Output VUE map" Mesa printed after the NIR.
//! - push constants: crocus lowers every uniform to UBO 0 and pushes nothing else (its
//!   system values live in a constant buffer too, `nir->num_uniforms = 0`, so brw's
//!   `nr_params` is 0); `brw_nir_analyze_ubo_ranges` picks the pushed ranges from the NIR's
//!   constant-offset `load_ubo`s ([`mesa_push_ranges`]) and the vec4 backend lays them out from
//!   g1 in order, 32 bytes per register, capped at 32 registers (`setup_push_ranges`). The
//!   analysis runs in crocus before brw's own NIR passes, so it sees the NIR a little earlier
//!   than the printed one; a program that reads a register past the layout derived here is
//!   reported as a mismatch, not hidden.
//!
//! - pull constants: Mesa's SIMD4x2 sampler `ld` reads binding-table entry b for NIR block b
//!   ([`ubo_blocks`]), bound as gpucc's checks bind every pulled block.
//!
//! - scratch: Mesa's OWord dual block messages on the scratch surface, one thread's private
//!   space as the simulator models it.
//!
//! - textures: both sides sample the default sampler model (Mesa's vec4 texturing is
//!   SIMD4x2 `sample_l` and `resinfo` here).
//!
//! Programs that send any other message would be skipped, with their reason.

mod common;

use common::crocus::{mesa_push_ranges, mesa_vec4_kernel, push_layout};
use common::mesa_asm::vec4_program;
use common::printed_vue_map;

use std::collections::BTreeMap;

use gpucc::intel::backend::{verify_kernel, Context, VerifyOutcome};
use gpucc::intel::kernel::Kernel;
use gpucc::intel::DevInfo;
use gpucc::nir;

/// Why a program's messages put it outside the simulator, if they do.
fn outside_the_simulator(asm: &str) -> Option<&'static str> {
    if asm.lines().any(|l| {
        l.contains("MsgDesc")
            && !l.contains("urb MsgDesc")
            && !l.contains("sampler MsgDesc")
            && !l.contains("DC OWORD dual block")
    }) {
        Some("other_messages")
    } else {
        None
    }
}

/// The kernel gpucc's checks take for Mesa's program, with the push layout crocus gives it.
fn kernel_of(devinfo: &DevInfo, asm: &str, shader: &nir::Shader) -> Result<Kernel, String> {
    mesa_vec4_kernel(devinfo, asm, shader, push_layout(&mesa_push_ranges(shader)))
}

#[test]
fn mesa_vec4_vertex_programs_match_the_interpreter() {
    let (Some(asm_dir), Some(nir_dir)) = (
        common::shared_path("corpus/mesa-asm/ivb"),
        common::shared_path("corpus/nir/ivb"),
    ) else {
        return;
    };
    let devinfo = DevInfo::from_name("ivb").unwrap();
    let ctx = Context::new(devinfo);
    let files = common::files_with_suffix(&asm_dir, ".vs.asm");
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let (mut ran, mut matched, mut maps_equal) = (0, 0, 0);
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let stem = name.trim_end_matches(".asm");
        let asm = vec4_program(&std::fs::read_to_string(f).unwrap());
        let Ok(text) = std::fs::read_to_string(nir_dir.join(format!("{stem}.nir"))) else {
            *skipped.entry("no_nir".into()).or_default() += 1;
            continue;
        };
        let shader = nir::parse(&text).unwrap();
        let kernel = match kernel_of(devinfo, &asm, &shader) {
            Ok(k) => k,
            Err(e) => {
                failures.push(format!("{stem}: {e}"));
                continue;
            }
        };
        let map = &kernel.vertex.as_ref().unwrap().vue_map;
        match printed_vue_map(&text) {
            Some(p) if p == map.to_string() => maps_equal += 1,
            p => failures.push(format!("{stem}: VUE map\n{map}differs from Mesa's\n{p:?}")),
        }
        if let Some(why) = outside_the_simulator(&asm) {
            *skipped.entry(why.into()).or_default() += 1;
            continue;
        }
        ran += 1;
        match verify_kernel(&ctx, &shader, &kernel, 8) {
            VerifyOutcome::Pass => matched += 1,
            VerifyOutcome::Unsupported(w) => {
                let w = w.split(':').take(2).collect::<Vec<_>>().join(":");
                *unsupported.entry(w).or_default() += 1;
            }
            other => failures.push(format!("{stem}: {other:?}")),
        }
    }
    println!(
        "ivb vec4 Mesa code: {} programs, {ran} ran, {matched} matched, {} unsupported, \
         {} failed; skipped {skipped:?}",
        files.len(),
        unsupported.values().sum::<usize>(),
        failures.len()
    );
    let mut figs = common::expect::Figures::new("ivb.vec4.mesa_code");
    figs.count("programs", files.len());
    figs.count("ran", ran);
    figs.count("matched", matched);
    figs.count("unsupported", unsupported.values().sum());
    figs.count("failed", failures.len());
    figs.count("vue_maps_equal_to_mesa", maps_equal);
    figs.count("skipped", skipped.values().sum());
    for (why, n) in &skipped {
        figs.count(&format!("skipped_{why}"), *n);
    }
    for (w, n) in &unsupported {
        figs.note(format!("{n:4} unsupported: {w}"));
    }
    for f in failures.iter().take(30) {
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Mesa's program for corpus shader `stem`, edited by `edit`, checked with the kernel facts
/// edited by `facts`.
fn check_edited(
    stem: &str,
    edit: impl Fn(&str) -> String,
    facts: impl Fn(&mut Kernel),
) -> Option<VerifyOutcome> {
    let asm_dir = common::shared_path("corpus/mesa-asm/ivb")?;
    let nir_dir = common::shared_path("corpus/nir/ivb")?;
    let devinfo = DevInfo::from_name("ivb").unwrap();
    let asm = vec4_program(&std::fs::read_to_string(asm_dir.join(format!("{stem}.asm"))).unwrap());
    let edited = edit(&asm);
    let shader =
        nir::parse(&std::fs::read_to_string(nir_dir.join(format!("{stem}.nir"))).unwrap()).unwrap();
    let mut kernel = kernel_of(devinfo, &edited, &shader).unwrap();
    facts(&mut kernel);
    Some(verify_kernel(&Context::new(devinfo), &shader, &kernel, 8))
}

/// gl_Position = ModelViewProjectionMatrix * gl_Vertex, color from gl_Vertex: two pushed
/// registers (the matrix) and one vertex element.
const CLAMP: &str = "piglit__glsl-1.10__execution__builtins__glsl-vs-clamp-1.vs";

fn assert_fails(outcome: Option<VerifyOutcome>, what: &str) {
    if let Some(o) = outcome {
        assert!(
            matches!(o, VerifyOutcome::Fail { .. }),
            "{what}: expected a failed check, got {o:?}"
        );
    }
}

#[test]
fn the_unedited_program_passes() {
    if let Some(o) = check_edited(CLAMP, str::to_string, |_| {}) {
        assert_eq!(o, VerifyOutcome::Pass);
    }
}

#[test]
fn a_urb_write_without_the_channel_mask_fails() {
    // Without `or(1) g113.5 g0.5 0xff00` the header's channel mask is zero: nothing is
    // written.
    let outcome = check_edited(
        CLAMP,
        |a| {
            a.lines()
                .filter(|l| !l.contains("0x0000ff00UD"))
                .map(|l| format!("{l}\n"))
                .collect()
        },
        |_| {},
    );
    assert_fails(outcome, "no channel mask");
}

#[test]
fn a_urb_write_ignoring_the_lone_vertex_fails() {
    // With WE_all the lone-vertex thread also writes its absent second vertex, at the
    // handle g0.1 holds (none).
    let outcome = check_edited(
        CLAMP,
        |a| a.replace("{ align16 1Q EOT }", "{ align16 WE_all 1Q EOT }"),
        |_| {},
    );
    assert_fails(outcome, "lone vertex written");
}

#[test]
fn a_push_layout_off_by_one_register_fails() {
    let outcome = check_edited(CLAMP, str::to_string, |k| {
        let first: Vec<(u32, u32)> = k.push_constants.drain(..8).collect();
        k.push_constants.extend(first);
    });
    assert_fails(outcome, "push registers swapped");
}

#[test]
fn a_write_at_the_wrong_global_offset_fails() {
    // Descriptor bits 13:3 = 1: every slot lands two slots further.
    let outcome = check_edited(
        CLAMP,
        |a| {
            a.replace("0x8a08c000", "0x8a08c008")
                .replace("MsgDesc: offset 0", "MsgDesc: offset 1")
        },
        |_| {},
    );
    assert_fails(outcome, "global offset 1");
}

/// The piglit runner's vertex stage runs a SIMD4x2 program two vertices per thread: Mesa's
/// code for glsl-vs-clamp-1 on three vertices (the third alone in its thread), outputs
/// derived by hand. The matrix (UBO 0 dwords 0-15, column-major) is diag(2, 3, 4) with
/// translation column (1, 1, 1, 1), so gl_Position = (2x + w, 3y + w, 4z + w, w); the colour
/// output is saturate(x - 2, x + 2, y + 2, y - 2).
#[test]
fn the_piglit_vertex_stage_runs_simd4x2_programs() {
    use gpucc::piglit::texture::Bindings;
    use gpucc::program::Program;
    use gpucc::target::Target;
    let (Some(asm_dir), Some(nir_dir)) = (
        common::shared_path("corpus/mesa-asm/ivb"),
        common::shared_path("corpus/nir/ivb"),
    ) else {
        return;
    };
    let devinfo = DevInfo::from_name("ivb").unwrap();
    let asm = vec4_program(&std::fs::read_to_string(asm_dir.join(format!("{CLAMP}.asm"))).unwrap());
    let shader =
        nir::parse(&std::fs::read_to_string(nir_dir.join(format!("{CLAMP}.nir"))).unwrap())
            .unwrap();
    let kernel = kernel_of(devinfo, &asm, &shader).unwrap();
    let program = Program::intel(
        Target::from_name("ivb").unwrap(),
        nir::Stage::Vertex,
        kernel,
    );
    let matrix: [f32; 16] = [
        2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 1.0, 1.0, 1.0, 1.0,
    ];
    let ubo: Vec<u8> = matrix.iter().flat_map(|x| x.to_le_bytes()).collect();
    let vertices = [
        [0.5, 0.25, 1.0, 1.0],
        [-1.75, -1.5, 0.5, 2.0],
        [2.5, -2.25, 0.0, 1.0],
    ];
    let elements: Vec<BTreeMap<u32, [u32; 4]>> = vertices
        .iter()
        .map(|v: &[f32; 4]| BTreeMap::from([(0, v.map(f32::to_bits))]))
        .collect();
    let out = gpucc::piglit::intel::run_vertices(
        devinfo,
        &program,
        &elements,
        &ubo,
        &Bindings::default(),
    )
    .unwrap();
    let want = [
        ([2.0, 1.75, 5.0, 1.0], [0.0, 1.0, 1.0, 0.0]),
        ([-1.5, -2.5, 4.0, 2.0], [0.0, 0.25, 0.5, 0.0]),
        ([6.0, -5.75, 1.0, 1.0], [0.5, 1.0, 0.0, 0.0]),
    ];
    assert_eq!(out.len(), 3);
    for (v, (pos, color)) in want.iter().enumerate() {
        let got = |name: &str| out[v][name].map(f32::from_bits);
        assert_eq!(got("VARYING_SLOT_POS"), *pos, "vertex {v}");
        assert_eq!(got("VARYING_SLOT_VAR0"), *color, "vertex {v}");
    }
}

#[test]
fn a_pull_constant_load_at_the_wrong_offset_fails() {
    // tesseract 266 pulls a matrix column from byte 0xc10 of UBO 0 with SIMD4x2 `ld`; reading
    // the next column instead must change gl_Position.
    let outcome = check_edited(
        "shader-db__tesseract__266.vs",
        |a| a.replace("0x00000c10UD", "0x00000c20UD"),
        |_| {},
    );
    assert_fails(outcome, "pull from 0xc20");
}

#[test]
fn a_texture_sampled_at_the_wrong_level_fails() {
    // tesseract 136 samples texture 0 at (0.5, 0.5) with sample_l, level 0 (g115.x = 0.0);
    // level 1 (VF 0x30 = 1.0) returns another texel.
    let outcome = check_edited(
        "shader-db__tesseract__136.vs",
        |a| a.replacen("0x0VF ", "0x30VF ", 1),
        |_| {},
    );
    assert_fails(outcome, "sample_l at level 1");
}
