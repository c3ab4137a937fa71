//! Mesa 23.3's own Gen6 (snb) and Gen4.5 (g4x) assembly from the corpus
//! (shared/corpus/mesa-asm/{snb,g4x}), run on the simulator: the simulator must be right for
//! these generations before it judges gpucc's code for them.
//!
//! - **Vertex shaders** (Mesa's vec4 backend, SIMD4x2) go through gpucc's vertex-shader check
//!   against the reference interpreter on the NIR Mesa compiled them from, as
//!   `vec4_mesa_code.rs` does for ivb. The kernel facts come from the NIR as crocus derives
//!   them: the VUE map (compared with the one Mesa printed after the NIR), no push constants
//!   on snb (crocus's `can_push_ubo` is false on Gen6, so every UBO read is a pull through
//!   the sampler cache's OWord dual block read), pulled UBO blocks bound at their NIR block
//!   index.
//! - **Fragment shaders** run whole on a synthetic payload (random GRFs, every pixel lit),
//!   as `isim_corpus.rs` does for ivb and bdw: every program must reach EOT or stop with a
//!   named reason. Then they go through gpucc's fragment check against the interpreter
//!   with kernel facts derived from the NIR: on snb the Gen6 payload and input order gpucc
//!   computes for ivb, no push constants; on g4x the Gen4 payload, input order and pushed
//!   UBO ranges of crocus's precompile key ([`fs_kernel_gen4`]). A mismatch must be one of
//!   the differences of the check's world that [`outside_the_check`] names.
//!
//! Figures are held exactly in tests/expectations/corpus.txt (`snb.gen4sim.*`,
//! `g4x.gen4sim.*`).

mod common;

use common::crocus::{mesa_code, mesa_push_ranges, mesa_vec4_kernel, push_layout, ubo_blocks};
use common::mesa_asm::{self, vec4_program};
use common::printed_vue_map;

use std::collections::BTreeMap;

use gpucc::intel::backend::{verify_kernel, Context, VerifyOutcome};
use gpucc::intel::eu;
use gpucc::intel::kernel::{InputSlot, Kernel};
use gpucc::intel::sim::Thread;
use gpucc::intel::vue::VueMap;
use gpucc::intel::DevInfo;
use gpucc::nir::{self, InstrKind, Intrinsic};
use gpucc::util::rng::Rng;

/// Removes the edge flag crocus's `crocus_lower_default_edgeflags` stores on Gen4–5: it is
/// in the VUE map only when the key's `copy_edgeflag` is set (not in the corpus's default
/// key), and brw drops the store otherwise.
fn drop_default_edge_flag(shader: &mut nir::Shader) {
    let Some(imp) = shader.entry_mut() else {
        return;
    };
    let edge: Vec<bool> = imp
        .instrs
        .iter()
        .map(|ins| {
            matches!(&ins.kind, InstrKind::Intrinsic(i)
                if i.intrinsic == Intrinsic::StoreOutput
                    && i.io_location() == Some("VARYING_SLOT_EDGE"))
        })
        .collect();
    for b in imp.blocks.iter_mut() {
        b.instrs.retain(|id| !edge[id.0 as usize]);
    }
}

/// Runs Mesa's vertex programs for `platform` against the interpreter and records the
/// figures.
fn vertex_programs(platform: &str) {
    let (Some(asm_dir), Some(nir_dir)) = (
        common::shared_path(&format!("corpus/mesa-asm/{platform}")),
        common::shared_path(&format!("corpus/nir/{platform}")),
    ) else {
        return;
    };
    let devinfo = DevInfo::from_name(platform).unwrap();
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
        let mut shader = nir::parse(&text).unwrap();
        if devinfo.ver < 60 {
            drop_default_edge_flag(&mut shader);
        }
        let kernel = match mesa_vec4_kernel(devinfo, &asm, &shader, Vec::new()) {
            Ok(mut k) if devinfo.ver < 60 => {
                let info = k.vertex.as_mut().unwrap();
                const EDGE: u64 = 1 << 15;
                info.vue_map = VueMap::gen4(info.vue_map.slots_valid & !EDGE);
                // "The pre-gfx6 VS requires that some push constants get loaded no matter
                // what" (brw_vec4.cpp): one vec4 of parameters, so the vertex elements start
                // at g2.
                k.push_constants = push_layout(&mesa_push_ranges(&shader));
                if k.push_constants.is_empty() {
                    k.push_constants = (0..4).map(|d| (0, 4 * d)).collect();
                }
                k
            }
            Ok(k) => k,
            Err(e) => {
                failures.push(format!("{stem}: {e}"));
                continue;
            }
        };
        let map = &kernel.vertex.as_ref().unwrap().vue_map;
        match printed_vue_map(&text) {
            Some(p) if p == map.to_string() => maps_equal += 1,
            Some(p) => failures.push(format!("{stem}: VUE map\n{map}differs from Mesa's\n{p}")),
            // The snb and g4x dumps print no VUE map: Mesa's URB writes must then cover
            // exactly its slots (padded to whole rows of two slots, interleaved writes).
            None => match mesa_asm::urb_slots_written(&asm) {
                Some(n) if n == map.num_slots().next_multiple_of(2) => maps_equal += 1,
                // Gen4-5 writes pad the last row only when the slot count is odd.
                Some(n) if devinfo.ver < 60 && n == map.num_slots() => maps_equal += 1,
                n => failures.push(format!(
                    "{stem}: VUE map of {} slots, Mesa's URB writes cover {n:?}",
                    map.num_slots()
                )),
            },
        }
        ran += 1;
        match verify_kernel(&ctx, &shader, &kernel, 8) {
            VerifyOutcome::Pass => matched += 1,
            VerifyOutcome::Unsupported(w) => {
                // The innermost reason, without the descriptor's bits.
                let w = w.rsplit("unsupported: ").next().unwrap_or(&w);
                let w = w.split(" descriptor").next().unwrap_or(w).to_string();
                *unsupported.entry(w).or_default() += 1;
            }
            // An array index read from the check's uniform data puts the scratch access
            // past the simulator's scratch space: outside the model, not a mismatch.
            VerifyOutcome::Fail { got, .. } if got.contains("beyond the 16 MiB model") => {
                *unsupported
                    .entry("scratch address beyond the model".into())
                    .or_default() += 1;
            }
            other => failures.push(format!("{stem}: {other:?}")),
        }
    }
    println!(
        "{platform} vec4 Mesa code: {} programs, {ran} ran, {matched} matched, {} unsupported, \
         {} failed; skipped {skipped:?}",
        files.len(),
        unsupported.values().sum::<usize>(),
        failures.len()
    );
    for (w, n) in &unsupported {
        println!("  {n:4} unsupported: {w}");
    }
    for f in failures.iter().take(30) {
        println!("{f}");
    }
    let mut figs = common::expect::Figures::new(&format!("{platform}.gen4sim.vs"));
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

/// Runs every fragment program of `platform` to EOT on a synthetic payload and records the
/// outcomes.
fn fragment_programs(platform: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/mesa-asm/{platform}")) else {
        return;
    };
    let d = DevInfo::from_name(platform).unwrap();
    let files = common::files_with_suffix(&dir, ".fs.asm");
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut rng = Rng::new(7);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (simd, src) in mesa_asm::programs(&text) {
            let insts = match eu::assemble(d, &src) {
                Ok(i) => i,
                Err(e) => {
                    failures.push(format!("{}: assembly: {e}", file.display()));
                    continue;
                }
            };
            let mut t = Thread::new(d, simd).unwrap();
            for r in 2..d.grf_count {
                let w: Vec<u32> = (0..8)
                    .map(|_| (rng.range(-64, 64) as f32 / 16.0).to_bits())
                    .collect();
                t.set_grf(r, 0, &w).unwrap();
            }
            for k in 0..16 {
                t.shared_mut().bind_constants(k, vec![0; 4096]);
            }
            t.set_step_limit(20_000);
            let key = match t.run(&insts) {
                Ok(r) if r.eot && !r.rt_writes.is_empty() => "EOT".to_string(),
                Ok(r) if r.eot => "EOT without a render-target write".to_string(),
                Ok(_) => "ended without EOT".to_string(),
                Err(e) if e.is_unsupported() => e.message.clone(),
                // Loops bounded by uniforms run forever on the synthetic payload.
                Err(e) if e.message.contains("step limit") => {
                    "step limit (loop bound read from the synthetic payload)".to_string()
                }
                Err(e) => {
                    failures.push(format!("{} SIMD{simd}: {e}", file.display()));
                    "error".to_string()
                }
            };
            *outcomes.entry(key).or_default() += 1;
        }
    }
    let total: usize = outcomes.values().sum();
    let eot = outcomes.get("EOT").copied().unwrap_or(0);
    println!("{platform}: {eot} of {total} fragment programs reach EOT");
    let mut figs = common::expect::Figures::new(&format!("{platform}.gen4sim.fs"));
    figs.count("files", files.len());
    figs.count("programs", total);
    figs.count("eot", eot);
    figs.count("errors", failures.len());
    let sum = |f: &dyn Fn(&str) -> bool| -> usize {
        outcomes.iter().filter(|(k, _)| f(k)).map(|(_, v)| v).sum()
    };
    figs.count(
        "unsupported_sampler",
        sum(&|k| k.starts_with("unsupported") && k.contains("(sampler)")),
    );
    figs.count(
        "unsupported_other",
        sum(&|k| k.starts_with("unsupported") && !k.contains("(sampler)")),
    );
    figs.count("step_limit", sum(&|k| k.starts_with("step limit")));
    figs.count("ended_otherwise", sum(&|k| k.contains("without")));
    for (k, v) in &outcomes {
        println!("  {v:5}  {k}");
        figs.note(format!("{v:5}  {k}"));
    }
    for f in failures.iter().take(20) {
        println!("{f}");
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{} programs failed", failures.len());
}

/// The fragment kernel gpucc's checks take: Mesa's code for `platform`, with the payload and
/// binding facts gpucc derives from the same NIR for Ivy Bridge (payload layout as Mesa's
/// `setup_fs_payload_gfx6`, which Gen6 and Gen7 share; inputs in `calc_urb_entry_setup`
/// order), no push constants (crocus pushes nothing on Gen6) and the pulled UBO blocks at
/// their NIR block index.
fn fs_kernel(
    facts_ctx: &Context,
    devinfo: &DevInfo,
    asm: &str,
    simd: u32,
    shader: &nir::Shader,
) -> Result<Kernel, String> {
    let options = gpucc::intel::backend::Options::widths(&[simd]);
    let facts = facts_ctx
        .compile(shader, &options)
        .map_err(|e| format!("facts: {e}"))?;
    let variant = facts
        .variant(simd)
        .ok_or_else(|| format!("facts: no SIMD{simd} variant"))?;
    if devinfo.ver < 60 {
        return fs_kernel_gen4(devinfo, asm, simd, shader, facts);
    }
    let (code, entry) = mesa_code(devinfo, asm, simd, variant.dispatch_grf_start)?;
    Ok(Kernel {
        platform: devinfo.name,
        simd: vec![entry],
        code,
        push_constants: Vec::new(),
        pull_constant_blocks: ubo_blocks(shader),
        ubo_surface_base: 0,
        ubo_ranges: Vec::new(),
        relocs: Vec::new(),
        constant_data_size: 0,
        ..facts
    })
}

/// The Gen4–5 fragment kernel: Mesa's `setup_fs_payload_gfx4` with crocus's precompile key
/// (`iz_lookup` 0: g0 and g1, then two registers of source depth when the shader reads
/// gl_FragCoord), the UBO ranges crocus pushes (as for the g4x vertex shaders), and the
/// attribute setup of `calculate_urb_setup` before Gen6: one slot per varying of the key's
/// `input_slots_valid` (crocus's precompile: the inputs read and the position) in slot
/// order, point size left out, the point coordinate moved to the end. The position's slot
/// is where the shader interpolates z and w from.
fn fs_kernel_gen4(
    devinfo: &DevInfo,
    asm: &str,
    simd: u32,
    shader: &nir::Shader,
    facts: Kernel,
) -> Result<Kernel, String> {
    let frag_coord = shader.entry().is_some_and(|imp| {
        imp.instrs.iter().any(|i| {
            matches!(&i.kind, InstrKind::Intrinsic(i) if i.intrinsic.name() == "load_frag_coord")
        })
    });
    let (code, entry) = mesa_code(devinfo, asm, simd, 2 + 2 * frag_coord as u32)?;
    let number = |s: &InputSlot| nir::slots::slot_number(&s.location).unwrap_or(u32::MAX);
    let mut read: Vec<InputSlot> = facts
        .inputs
        .iter()
        .filter(|s| s.read && s.location != "VARYING_SLOT_PSIZ")
        .cloned()
        .collect();
    read.sort_by_key(|s| (s.location == "VARYING_SLOT_PNTC", number(s)));
    let mut inputs = vec![InputSlot {
        base: u32::MAX,
        location: "VARYING_SLOT_POS".into(),
        flat: false,
        noperspective: false,
        read: false,
    }];
    inputs.extend(read);
    let mut flags = facts.flags.clone();
    flags.uses_src_depth_w = frag_coord;
    Ok(Kernel {
        platform: devinfo.name,
        simd: vec![entry],
        code,
        push_constants: push_layout(&mesa_push_ranges(shader)),
        pull_constant_blocks: ubo_blocks(shader),
        ubo_surface_base: 0,
        ubo_ranges: Vec::new(),
        relocs: Vec::new(),
        constant_data_size: 0,
        inputs,
        flags,
        ..facts
    })
}

/// Checks Mesa's fragment programs for `platform` against the interpreter where gpucc can
/// derive their kernel facts.
fn fragment_matches(platform: &str) {
    let (Some(asm_dir), Some(nir_dir)) = (
        common::shared_path(&format!("corpus/mesa-asm/{platform}")),
        common::shared_path(&format!("corpus/nir/{platform}")),
    ) else {
        return;
    };
    let devinfo = DevInfo::from_name(platform).unwrap();
    let ctx = Context::new(devinfo);
    let facts_ctx = Context::new(DevInfo::from_name("ivb").unwrap());
    let files = common::files_with_suffix(&asm_dir, ".fs.asm");
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut programs = 0;
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let stem = name.trim_end_matches(".asm");
        let Ok(text) = std::fs::read_to_string(nir_dir.join(format!("{stem}.nir"))) else {
            *outcomes.entry("skipped: no NIR".into()).or_default() += 1;
            continue;
        };
        let shader = nir::parse(&text).unwrap();
        for (simd, asm) in mesa_asm::programs(&std::fs::read_to_string(f).unwrap()) {
            programs += 1;
            let kernel = match fs_kernel(&facts_ctx, devinfo, &asm, simd, &shader) {
                Ok(k) => k,
                Err(e) => {
                    let why = e.split(':').take(2).collect::<Vec<_>>().join(":");
                    *outcomes.entry(format!("skipped: {why}")).or_default() += 1;
                    continue;
                }
            };
            let open = open_mismatch(platform, stem);
            let key = match verify_kernel(&ctx, &shader, &kernel, simd) {
                VerifyOutcome::Pass if open.is_some() => {
                    failures.push(format!("{stem} SIMD{simd}: listed as open but matches"));
                    "failed".to_string()
                }
                VerifyOutcome::Pass => "matched".to_string(),
                VerifyOutcome::Unsupported(w) => {
                    format!(
                        "unsupported: {}",
                        w.split(':').take(2).collect::<Vec<_>>().join(":")
                    )
                }
                other => match outside_the_check(&shader, &other) {
                    Some(why) => format!("explained mismatch: {why}"),
                    None if open.is_some() => format!("open: {}", open.unwrap_or("")),
                    None => {
                        failures.push(format!("{stem} SIMD{simd}: {other:?}"));
                        "failed".to_string()
                    }
                },
            };
            *outcomes.entry(key).or_default() += 1;
        }
    }
    println!("{platform} FS Mesa code against the interpreter: {programs} programs");
    for (k, v) in &outcomes {
        println!("  {v:5}  {k}");
    }
    for f in &failures {
        println!("{f}");
    }
    let mut figs = common::expect::Figures::new(&format!("{platform}.gen4sim.fs_match"));
    figs.count("programs", programs);
    figs.count("matched", outcomes.get("matched").copied().unwrap_or(0));
    figs.count("failed", failures.len());
    let explained: usize = outcomes
        .iter()
        .filter(|(k, _)| k.starts_with("explained mismatch"))
        .map(|(_, v)| v)
        .sum();
    figs.count("explained_mismatches", explained);
    if platform == "g4x" {
        let open: usize = outcomes
            .iter()
            .filter(|(k, _)| k.starts_with("open: "))
            .map(|(_, v)| v)
            .sum();
        figs.count("open_mismatches", open);
    }
    for (k, v) in &outcomes {
        figs.note(format!("{v:5}  {k}"));
    }
    for f in failures.iter().take(30) {
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Mesa's g4x fragment programs that still differ from the interpreter, by name, with what
/// is known of the difference (not yet traced to the simulator or to the check's world).
/// A listed program that matches fails the test, so the list only shrinks.
const G4X_OPEN: &[(&str, &str)] = &[
    (
        "piglit__glsl-1.10__execution__builtins__glsl-fs-atan-3.fs",
        ATAN,
    ),
    ("piglit__glsl-1.10__execution__fs-sign-neg-abs.fs", SIGN),
    (
        "piglit__glsl-1.20__execution__matrix-out-of-bounds-access__fs-mat4-out-of-bounds-7.fs",
        NEG_ZERO,
    ),
    ("shader-db__glamor__73.fs", PLAIN_TEX),
    ("shader-db__glamor__74.fs", PLAIN_TEX),
    ("shader-db__tesseract__343.fs", TESSERACT),
    ("shader-db__tesseract__363.fs", TESSERACT),
    ("shader-db__tesseract__371.fs", TESSERACT),
    ("shader-db__tesseract__375.fs", TESSERACT),
    ("shader-db__tesseract__377.fs", TESSERACT),
    ("shader-db__tesseract__379.fs", TESSERACT),
    ("shader-db__tesseract__381.fs", TESSERACT),
    ("shader-db__tesseract__383.fs", TESSERACT),
    ("shader-db__tesseract__391.fs", TESSERACT),
    ("shader-db__tesseract__393.fs", TESSERACT),
    ("shader-db__tesseract__401.fs", TESSERACT),
    ("shader-db__tesseract__403.fs", TESSERACT),
    ("shader-db__tesseract__407.fs", TESSERACT),
    ("shader-db__tesseract__411.fs", TESSERACT),
    ("shader-db__tesseract__415.fs", TESSERACT),
    ("shader-db__tesseract__417.fs", TESSERACT),
    ("shader-db__tesseract__419.fs", TESSERACT),
    ("shader-db__tesseract__423.fs", TESSERACT),
    ("shader-db__tesseract__427.fs", TESSERACT),
    ("shader-db__tesseract__429.fs", TESSERACT),
    ("shader-db__tesseract__435.fs", TESSERACT),
    ("shader-db__tesseract__439.fs", TESSERACT),
    ("shader-db__tesseract__441.fs", TESSERACT),
    ("shader-db__unity__40.fs", TXL),
    ("shader-db__unity__56-PBS_Deferred_MRT.fs", TXL),
    ("shader-db__warzone2100__4.fs", PLAIN_TEX),
    ("shader-db__yofrankie__102.fs", PLAIN_TEX),
    ("shader-db__yofrankie__105.fs", PLAIN_TEX),
    ("shader-db__yofrankie__108.fs", PLAIN_TEX),
    ("shader-db__yofrankie__111.fs", PLAIN_TEX),
    ("shader-db__yofrankie__114.fs", PLAIN_TEX),
    ("shader-db__yofrankie__117.fs", PLAIN_TEX),
    ("shader-db__yofrankie__24.fs", PLAIN_TEX),
    ("shader-db__yofrankie__30.fs", PLAIN_TEX),
    ("shader-db__yofrankie__36.fs", PLAIN_TEX),
    ("shader-db__yofrankie__42.fs", PLAIN_TEX),
    ("shader-db__yofrankie__60.fs", PLAIN_TEX),
    ("shader-db__yofrankie__66.fs", PLAIN_TEX),
    ("shader-db__yofrankie__69.fs", PLAIN_TEX),
    ("shader-db__yofrankie__72.fs", PLAIN_TEX),
    ("shader-db__yofrankie__78.fs", PLAIN_TEX),
    ("shader-db__yofrankie__96.fs", PLAIN_TEX),
    ("shader-db__yofrankie__99.fs", PLAIN_TEX),
];

const TESSERACT: &str = "textureSize (resinfo) and shadow sampling (SIMD16 sample_c, SIMD8 sample_b_c): NaN or other values where the interpreter has finite ones";
const PLAIN_TEX: &str = "plain texture() samples (SIMD16 sample, 1 to 2 coordinates): other values than the interpreter's";
const TXL: &str =
    "textureLod (SIMD16 sample_l) with pow/log2/exp2: other values than the interpreter's";
const ATAN: &str =
    "atan(y, x) of large quotients: the result differs by far more than the math tolerance";
const SIGN: &str = "sign(-abs(x)) of pushed uniforms: 1 where the interpreter has 0";
const NEG_ZERO: &str = "an out-of-bounds matrix column reads -0 where the interpreter has 0";

/// What is known of an open mismatch of `stem` on `platform`.
fn open_mismatch(platform: &str, stem: &str) -> Option<&'static str> {
    if platform != "g4x" {
        return None;
    }
    G4X_OPEN
        .iter()
        .find(|(s, _)| *s == stem)
        .map(|(_, why)| *why)
}

/// Why a mismatch of Mesa's code with the interpreter is a difference of the check's world,
/// not of the simulator, when it is one of the three the snb corpus has:
///
/// - gl_FrontFacing: Mesa's Gen6+ code computes it as `-g0.0:W >> 15`, which relies on
///   g0.0's low 15 bits being non-zero (other fields of the thread header), its Gen4–5 code
///   as `-g1.6:D >> 31` with the same reliance on g1.6; the synthetic payload has zero
///   there.
/// - derivatives: Mesa's Gen6 `dFdx`/`dFdy` are coarse (one difference per subspan), the
///   interpreter's per pixel; piglit's accuracy tests tell them apart.
/// - a loop that outruns the step limit: Mesa tests a boolean uniform with `mov.nz` (any
///   non-zero is true), NIR with `inot` (only ~0 is true); the check's buffers hold values
///   that are neither 0 nor ~0.
fn outside_the_check(shader: &nir::Shader, outcome: &VerifyOutcome) -> Option<&'static str> {
    let imp = shader.entry()?;
    let uses = |f: &dyn Fn(&InstrKind) -> bool| imp.instrs.iter().any(|i| f(&i.kind));
    match outcome {
        VerifyOutcome::Fail { output, got, .. } if output == "(simulator)" => got
            .contains("step limit")
            .then_some("boolean uniform tested as non-zero"),
        VerifyOutcome::Fail { .. } => {
            if uses(
                &|k| matches!(k, InstrKind::Intrinsic(i) if i.intrinsic.name() == "load_front_face"),
            ) {
                Some("front facing from the payload header")
            } else if uses(&|k| matches!(k, InstrKind::Alu(a) if a.op.name().starts_with("fdd"))) {
                Some("coarse derivatives")
            } else {
                None
            }
        }
        _ => None,
    }
}

#[test]
fn snb_mesa_fragment_programs_match_the_interpreter() {
    fragment_matches("snb");
}

#[test]
fn snb_mesa_vertex_programs_match_the_interpreter() {
    vertex_programs("snb");
}

#[test]
fn snb_mesa_fragment_programs_run_to_eot() {
    fragment_programs("snb");
}

#[test]
fn g4x_mesa_vertex_programs_match_the_interpreter() {
    vertex_programs("g4x");
}

#[test]
fn g4x_mesa_fragment_programs_match_the_interpreter() {
    fragment_matches("g4x");
}

#[test]
fn g4x_mesa_fragment_programs_run_to_eot() {
    fragment_programs("g4x");
}

/// An edit of a program's assembly text.
type Edit = dyn Fn(&str) -> String;

/// Mesa's snb program for glsl-vs-clamp-1 (four pulled matrix columns, one URB write),
/// edited by `edit`, checked against the interpreter.
fn check_edited_snb(edit: impl Fn(&str) -> String) -> Option<VerifyOutcome> {
    const CLAMP: &str = "piglit__glsl-1.10__execution__builtins__glsl-vs-clamp-1.vs";
    let asm_dir = common::shared_path("corpus/mesa-asm/snb")?;
    let nir_dir = common::shared_path("corpus/nir/snb")?;
    let devinfo = DevInfo::from_name("snb").unwrap();
    let asm = vec4_program(&std::fs::read_to_string(asm_dir.join(format!("{CLAMP}.asm"))).unwrap());
    let shader =
        nir::parse(&std::fs::read_to_string(nir_dir.join(format!("{CLAMP}.nir"))).unwrap())
            .unwrap();
    let kernel = mesa_vec4_kernel(devinfo, &edit(&asm), &shader, Vec::new()).unwrap();
    Some(verify_kernel(&Context::new(devinfo), &shader, &kernel, 8))
}

#[test]
fn snb_edited_vertex_programs_fail_the_check() {
    if let Some(o) = check_edited_snb(str::to_string) {
        assert_eq!(o, VerifyOutcome::Pass, "the unedited program");
    }
    let edits: [(&str, &Edit); 3] = [
        // The first matrix column pulled from OWord 1 instead of 0.
        ("pull offset", &|a: &str| {
            a.replacen("m18<1>D         0D ", "m18<1>D         1D ", 1)
        }),
        // The URB write one row (two slots) further: descriptor bits 9:4 = 1.
        ("URB offset", &|a: &str| {
            a.replace("0x8a08c400", "0x8a08c410")
                .replace("MsgDesc: offset 0", "MsgDesc: offset 1")
        }),
        // The lone-vertex thread writing its absent second vertex.
        ("lone vertex", &|a: &str| {
            a.replace("{ align16 1Q EOT }", "{ align16 WE_all 1Q EOT }")
        }),
    ];
    for (what, edit) in edits {
        if let Some(o) = check_edited_snb(edit) {
            assert!(
                matches!(o, VerifyOutcome::Fail { .. }),
                "{what}: expected a failed check, got {o:?}"
            );
        }
    }
}
