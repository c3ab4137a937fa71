//! Mesa's etnaviv disassembler vectors (blob-captured words with their isaspec disassembly):
//! every vector must decode and print exactly, and every vector Mesa's own assembler could
//! re-encode (no FLAG_FAILING_ASM) must assemble back to the same four words.

mod common;

use gpucc::etnaviv::isa::{assemble_inst, decode, disassemble_inst, encode, parse_words};

struct Vector {
    line: usize,
    words: [u32; 4],
    text: String,
    failing_asm: bool,
}

fn load() -> Option<Vec<Vector>> {
    let path = common::shared_path("vectors/etnaviv/disasm-vectors.txt")?;
    let data = std::fs::read_to_string(&path).expect("read vectors");
    let mut out = Vec::new();
    for (n, line) in data.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 4, "line {}: {line}", n + 1);
        let words = parse_words(fields[1]).expect("words")[0];
        out.push(Vector {
            line: n + 1,
            words,
            text: fields[2].to_string(),
            failing_asm: fields[3].contains("FLAG_FAILING_ASM"),
        });
    }
    Some(out)
}

#[test]
fn every_vector_disassembles_exactly() {
    let Some(vectors) = load() else { return };
    let mut bad = Vec::new();
    for v in &vectors {
        match decode(v.words) {
            Ok(inst) => {
                let text = disassemble_inst(&inst);
                if text != v.text {
                    bad.push(format!(
                        "line {}: got\n  {text:?}\nwant\n  {:?}",
                        v.line, v.text
                    ));
                }
                assert_eq!(
                    encode(&inst),
                    v.words,
                    "line {}: decode/encode round trip",
                    v.line
                );
            }
            Err(e) => bad.push(format!("line {}: {e}", v.line)),
        }
    }
    println!(
        "disassembly: {} of {} vectors exact",
        vectors.len() - bad.len(),
        vectors.len()
    );
    let mut figs = common::expect::Figures::new("etnaviv.vectors.disassembly");
    figs.count("vectors", vectors.len());
    figs.count("exact", vectors.len() - bad.len());
    bad.iter().take(20).for_each(|b| figs.note(b.clone()));
    figs.check();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_vector_assembles_exactly() {
    let Some(vectors) = load() else { return };
    let mut bad = Vec::new();
    let (mut required, mut bonus, mut bonus_ok) = (0, 0, 0);
    for v in &vectors {
        let got = assemble_inst(&v.text).map(|i| encode(&i));
        if v.failing_asm {
            bonus += 1;
            if got.as_ref().ok() == Some(&v.words) {
                bonus_ok += 1;
            } else {
                println!(
                    "not re-encoded (Mesa cannot either): line {}: {}",
                    v.line, v.text
                );
            }
            continue;
        }
        required += 1;
        match got {
            Ok(w) if w == v.words => {}
            Ok(w) => bad.push(format!(
                "line {}: {:08x?} want {:08x?} ({})",
                v.line, w, v.words, v.text
            )),
            Err(e) => bad.push(format!("line {}: {e} ({})", v.line, v.text)),
        }
    }
    println!(
        "assembly: {} of {required} required vectors exact; {bonus_ok} of {bonus} FLAG_FAILING_ASM vectors exact too",
        required - bad.len()
    );
    let mut figs = common::expect::Figures::new("etnaviv.vectors.assembly");
    figs.count("required", required);
    figs.count("required_exact", required - bad.len());
    figs.count("failing_asm", bonus);
    figs.count("failing_asm_exact", bonus_ok);
    bad.iter().take(20).for_each(|b| figs.note(b.clone()));
    figs.check();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
