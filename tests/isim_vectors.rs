//! Every non-send instruction of Mesa's ivb and bdw encoding vectors, decoded from the
//! `.expected` bytes and executed once in its program (fresh SIMD32 thread, pseudo-random
//! registers): it must either execute or be rejected with an "unsupported" error. The counts
//! are printed (`cargo test --release --test isim_vectors -- --nocapture`).

mod common;

use gpucc::intel::eu::{self, hex};
use gpucc::intel::sim::Thread;
use gpucc::intel::DevInfo;
use gpucc::util::rng::Rng;

fn fill(t: &mut Thread, rng: &mut Rng) {
    for r in 0..128u32 {
        let words: Vec<u32> = (0..8)
            .map(|_| {
                // Mix small integers, ordinary floats and raw bits.
                match rng.below(3) {
                    0 => rng.below(64) as u32,
                    1 => (rng.range(-1000, 1000) as f32 / 8.0).to_bits(),
                    _ => rng.next_u32(),
                }
            })
            .collect();
        t.set_grf(r, 0, &words).unwrap();
    }
    for n in 0..16 {
        // Valid GRF byte addresses for register-indirect operands.
        t.set_a0(n, (rng.below(64) * 32 + 4 * rng.below(4)) as u16);
    }
    t.set_flag(0, rng.next_u32());
    t.set_flag(1, rng.next_u32());
}

#[test]
fn every_non_send_vector_instruction_executes_or_is_unsupported() {
    let Some(dir) = common::shared_path("vectors/intel") else {
        return;
    };
    let mut total_failures = Vec::new();
    let mut figures = Vec::new();
    for platform in ["ivb", "bdw"] {
        let failed_before = total_failures.len();
        let d = DevInfo::from_name(platform).unwrap();
        let mut files: Vec<_> = std::fs::read_dir(dir.join(platform))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "expected"))
            .collect();
        files.sort();
        let (mut executed, mut unsupported, mut sends) = (0, 0, 0);
        let mut reasons: Vec<String> = Vec::new();
        let mut rng = Rng::new(0x15_1a);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let bytes: Vec<u8> = hex::parse(&text).unwrap().concat();
            let (insts, offsets) = eu::decode_program_at(d, &bytes).unwrap();
            for (pc, inst) in insts.iter().enumerate() {
                if inst.opcode.is_send() {
                    sends += 1;
                    continue;
                }
                let mut t = Thread::new(d, 32).unwrap();
                fill(&mut t, &mut rng);
                match t.step(&insts, &offsets, pc) {
                    Ok(_) => executed += 1,
                    Err(e) if e.is_unsupported() => {
                        unsupported += 1;
                        if !reasons.contains(&e.message) {
                            reasons.push(e.message.clone());
                        }
                    }
                    Err(e) => total_failures.push(format!(
                        "{platform} {}: {e}",
                        file.file_name().unwrap().to_string_lossy()
                    )),
                }
            }
        }
        println!(
            "{platform}: {executed} executed, {unsupported} unsupported, {sends} sends skipped"
        );
        let mut figs = common::expect::Figures::new(&format!("{platform}.isim.vectors"));
        figs.count("executed", executed);
        figs.count("unsupported", unsupported);
        figs.count("sends_skipped", sends);
        figs.count("failed", total_failures.len() - failed_before);
        for r in &reasons {
            println!("  {r}");
            figs.note(format!("unsupported: {r}"));
        }
        for f in &total_failures[failed_before..] {
            figs.note(f.clone());
        }
        figures.push(figs);
    }
    figures.into_iter().for_each(common::expect::Figures::check);
    assert!(total_failures.is_empty(), "{}", total_failures.join("\n"));
}

/// Random instruction words that decode are executed once on a thread with random registers:
/// the simulator may reject them, but must never panic.
#[test]
fn random_instructions_never_panic() {
    for platform in ["ivb", "hsw", "bdw", "skl"] {
        let d = DevInfo::from_name(platform).unwrap();
        let mut rng = Rng::new(0x5eed ^ d.ver as u64);
        let mut decoded = 0;
        for _ in 0..40_000 {
            let mut bytes = [0u8; 16];
            for b in bytes.iter_mut() {
                *b = rng.next_u32() as u8;
            }
            // Clear the compaction bit so the word is read as a native instruction.
            bytes[3] &= !0x20;
            let Ok(inst) = eu::decode(d, &bytes) else {
                continue;
            };
            decoded += 1;
            let mut t = Thread::new(d, 32).unwrap();
            fill(&mut t, &mut rng);
            t.set_step_limit(10);
            let _ = t.step(&[inst], &[0], 0);
        }
        assert!(decoded > 500, "{platform}: only {decoded} decoded");
    }
}
