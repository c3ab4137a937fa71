//! Every instruction Mesa 23.3 emitted for the corpus shaders (shared/corpus/mesa-asm/gc2000
//! and gc7000, captured through drm-shim) must decode, re-encode to the same words, print
//! text that assembles back to the same words, and pass the validator for its core.

mod common;

use gpucc::etnaviv::isa::*;
use gpucc::etnaviv::sim::Machine;
use gpucc::etnaviv::specs::Specs;

/// The `NNNN: w0 w1 w2 w3  TEXT` lines of one Mesa assembly dump.
fn instruction_words(text: &str) -> Vec<[u32; 4]> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((idx, rest)) = line.split_once(": ") else {
            continue;
        };
        if idx.len() != 4 || !idx.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let words: Vec<u32> = rest
            .split_whitespace()
            .take(4)
            .filter_map(|w| u32::from_str_radix(w, 16).ok())
            .collect();
        if words.len() == 4 {
            out.push([words[0], words[1], words[2], words[3]]);
        }
    }
    out
}

fn mask_text(mask: u8) -> String {
    let mut s = String::from(".");
    for (i, c) in ['x', 'y', 'z', 'w'].iter().enumerate() {
        s.push(if mask & (1 << i) != 0 { *c } else { '_' });
    }
    s
}

fn check_platform(platform: &str, core: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/mesa-asm/{platform}")) else {
        return;
    };
    let specs = Specs::from_name(core).unwrap();
    let files = common::files_with_suffix(&dir, ".asm");
    let (mut total, mut programs, mut lossy_address_writes, mut ran) =
        (0usize, 0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let words = instruction_words(&text);
        if words.is_empty() {
            continue;
        }
        programs += 1;
        let mut program = Vec::new();
        for w in &words {
            total += 1;
            match decode(*w) {
                Ok(inst) => {
                    assert_eq!(encode(&inst), *w);
                    let line = disassemble_inst(&inst);
                    if matches!(inst.opcode, Opcode::Movar | Opcode::Movai) && !inst.dst.use_ {
                        // isaspec prints the address-register mask as `void`; the text is
                        // lossy there, so check the a0 syntax instead.
                        let dst = format!("a{}{}", inst.dst.reg, mask_text(inst.dst.mask));
                        let alt = line.replacen("void", &dst, 1);
                        let again = assemble_inst(&alt).unwrap();
                        assert_eq!(encode(&again), *w, "{alt}");
                        lossy_address_writes += 1;
                        program.push(inst);
                        continue;
                    }
                    match assemble_inst(&line) {
                        Ok(again) if encode(&again) == *w => {}
                        Ok(again) => failures.push(format!(
                            "{}: {line}: re-assembles to {:08x?}",
                            f.display(),
                            encode(&again)
                        )),
                        Err(e) => failures.push(format!("{}: {line}: {e}", f.display())),
                    }
                    program.push(inst);
                }
                Err(e) => failures.push(format!("{}: {e}", f.display())),
            }
        }
        if program.len() == words.len() {
            if let Err(e) = validate_program(specs, &program) {
                failures.push(format!("{}: {e}", f.display()));
            }
            // Every emitted instruction is something the simulator executes.
            let mut m = Machine::new(specs);
            m.max_steps = 100_000;
            m.memory = vec![0; 4096];
            for (i, u) in m.uniforms.iter_mut().enumerate() {
                *u = [(i as f32 * 0.25).to_bits(); 4];
            }
            let inputs: Vec<[f32; 4]> = (0..16).map(|i| [0.5, 0.25, i as f32, 1.0]).collect();
            let fragment = f.to_string_lossy().ends_with(".fs.asm");
            let r = if fragment {
                m.run_fragment(&program, [8.5, 4.5, 0.5, 1.0], &inputs)
            } else {
                m.run_vertex(&program, &inputs)
            };
            match r {
                Ok(_) => ran += 1,
                // Input-dependent ends: loops bounded by uniforms and buffer addresses taken
                // from uniforms the test fills with arbitrary values.
                Err(e)
                    if e.message.contains("no end after")
                        || e.message.contains("outside memory") =>
                {
                    ran += 1
                }
                Err(e) => failures.push(format!("{}: simulate: {e}", f.display())),
            }
        }
    }
    println!(
        "{platform}: {total} instructions in {programs} programs, {} failures \
         ({lossy_address_writes} MOVAR/MOVAI checked through the a0 syntax); {ran} simulated",
        failures.len()
    );
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    assert!(failures.is_empty());
    assert!(total > 1000, "the corpus was read");
}

#[test]
fn gc2000_corpus_round_trips() {
    check_platform("gc2000", "gc2000");
}

#[test]
fn gc7000_corpus_round_trips() {
    check_platform("gc7000", "gc7000");
}
