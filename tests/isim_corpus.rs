//! Mesa 23.3's own fragment-shader assembly for ivb and bdw (shared/corpus/mesa-asm), run
//! whole on the simulator with a synthetic payload: every program must run to EOT or stop
//! with an "unsupported" error, an unknown-message error, or the step limit (loops bounded by
//! uniforms, which here hold arbitrary values); at least 95% must reach EOT. Outcome counts are
//! printed with `--nocapture`.

mod common;

use common::mesa_asm::programs;

use gpucc::intel::eu;
use gpucc::intel::sim::Thread;
use gpucc::intel::DevInfo;
use gpucc::util::rng::Rng;
use std::collections::BTreeMap;

#[test]
fn mesa_fragment_programs_run_to_eot() {
    let Some(dir) = common::shared_path("corpus/mesa-asm") else {
        return;
    };
    let mut failures = Vec::new();
    // Mesa splits every instruction that would meet the seed-002 hazard, so its code must
    // never trigger the diagnostic: a check on the hazard detector itself.
    let mut hazards = Vec::new();
    let mut figures = Vec::new();
    for platform in ["ivb", "bdw"] {
        let (failed_before, hazards_before) = (failures.len(), hazards.len());
        let d = DevInfo::from_name(platform).unwrap();
        let mut files: Vec<_> = std::fs::read_dir(dir.join(platform))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".fs.asm"))
            .collect();
        files.sort();
        let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
        let mut rng = Rng::new(7);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (simd, src) in programs(&text) {
                let insts = match eu::assemble(d, &src) {
                    Ok(i) => i,
                    Err(_) => {
                        *outcomes
                            .entry("not assembled (eu layer)".into())
                            .or_default() += 1;
                        continue;
                    }
                };
                let mut t = Thread::new(d, simd).unwrap();
                for r in 2..128u32 {
                    let w: Vec<u32> = (0..8)
                        .map(|_| (rng.range(-64, 64) as f32 / 16.0).to_bits())
                        .collect();
                    t.set_grf(r, 0, &w).unwrap();
                }
                t.set_grf(1, 7, &[0xffff]).unwrap();
                for k in 0..16 {
                    t.shared_mut().bind_constants(k, vec![0; 4096]);
                    t.shared_mut().bind_buffer(k, vec![0; 4096]);
                }
                // Mesa's assembly keeps its relocations unpatched: constant data is read
                // (A64) at the placeholder immediate (brw's DEFAULT_PATCH_IMM) plus an offset.
                t.shared_mut().map_global(0x4a7c_c000, vec![0; 1 << 16]);
                t.set_step_limit(20_000);
                let key = match t.run(&insts) {
                    Ok(r) if r.eot => {
                        for diag in r
                            .diagnostics
                            .iter()
                            .filter(|x| x.message.contains("hazard"))
                        {
                            hazards.push(format!("{platform} {}: {diag}", file.display()));
                        }
                        "EOT".to_string()
                    }
                    Ok(_) => "ended without EOT".to_string(),
                    Err(e) if e.is_unsupported() => e.message.clone(),
                    // Loops bounded by uniforms run forever on the synthetic payload.
                    Err(e) if e.message.contains("step limit") => {
                        "step limit (loop bound read from the synthetic payload)".to_string()
                    }
                    // Array indices computed from arbitrary uniforms leave the scratch model.
                    Err(e) if e.message.contains("beyond the 16 MiB model") => {
                        "scratch address computed from the synthetic payload".to_string()
                    }
                    Err(e) if e.message.contains("unknown message") => {
                        let m = e.message.clone();
                        m[..m.find("descriptor").unwrap_or(m.len())].to_string()
                    }
                    Err(e) => {
                        failures.push(format!("{}: {e}", file.display()));
                        "error".to_string()
                    }
                };
                *outcomes.entry(key).or_default() += 1;
            }
        }
        let total: usize = outcomes.values().sum();
        let eot = outcomes.get("EOT").copied().unwrap_or(0);
        println!("{platform}: {eot} of {total} programs reach EOT");
        let mut figs = common::expect::Figures::new(&format!("{platform}.isim.mesa_code"));
        figs.count("programs", total);
        figs.count("eot", eot);
        figs.count("errors", failures.len() - failed_before);
        figs.count("hazards", hazards.len() - hazards_before);
        for (k, v) in &outcomes {
            println!("  {v:5}  {k}");
            figs.note(format!("{v:5}  {k}"));
        }
        figures.push(figs);
    }
    figures.into_iter().for_each(common::expect::Figures::check);
    for f in failures.iter().take(20) {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} programs failed", failures.len());
    assert!(hazards.is_empty(), "{}", hazards.join("\n"));
}
