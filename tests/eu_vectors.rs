//! Mesa's assembler test vectors (shared/vectors/intel/PLATFORM/NAME.{asm,expected}):
//! assembling each `.asm` must give the `.expected` bytes, and disassembling the bytes must give
//! the `.asm` text back (whitespace normalised, labels compared by position).

mod common;

use std::collections::HashMap;
use std::path::Path;

use gpucc::intel::eu;
use gpucc::intel::DevInfo;

/// Splits assembly into instructions (each normalised) with label references replaced by the
/// index of the instruction the label precedes.
fn normalise(text: &str) -> Vec<String> {
    let text: String = {
        // Drop comments: they only restate immediates.
        let mut s = String::new();
        let mut rest = text;
        while let Some(i) = rest.find("/*") {
            s.push_str(&rest[..i]);
            rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
        }
        s.push_str(rest);
        s
    };
    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut insts: Vec<String> = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.ends_with(':') && !t.contains(' ') && cur.trim().is_empty() {
            labels.insert(t.trim_end_matches(':').to_string(), insts.len());
            continue;
        }
        cur.push(' ');
        cur.push_str(t);
        while let Some(i) = cur.find(';') {
            insts.push(cur[..=i].to_string());
            cur = cur[i + 1..].to_string();
        }
    }
    insts
        .into_iter()
        .map(|s| {
            s.split_whitespace()
                .map(|w| match labels.get(w) {
                    Some(p) => format!("@{p}"),
                    None => w.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

struct Tally {
    total: usize,
    asm_ok: usize,
    dis_ok: usize,
    failures: Vec<String>,
}

fn check_file(devinfo: &DevInfo, asm_path: &Path, t: &mut Tally) {
    let asm_text = std::fs::read_to_string(asm_path).unwrap();
    let exp_text = std::fs::read_to_string(asm_path.with_extension("expected")).unwrap();
    let expected = eu::hex::parse(&exp_text).unwrap();
    let want = normalise(&asm_text);
    assert_eq!(
        want.len(),
        expected.len(),
        "{}: instruction count differs from .expected",
        asm_path.display()
    );
    t.total += expected.len();
    let name = asm_path.file_name().unwrap().to_string_lossy().to_string();

    match eu::assemble(devinfo, &asm_text) {
        Err(e) => t.failures.push(format!("{name}: assemble error {e}")),
        Ok(insts) => {
            for (i, inst) in insts.iter().enumerate() {
                match eu::encode(devinfo, inst) {
                    Ok(b) if i < expected.len() && b.as_slice() == expected[i].as_slice() => {
                        t.asm_ok += 1
                    }
                    Ok(b) => t.failures.push(format!(
                        "{name}:{i}: asm {}\n   got  {}\n   want {}",
                        want.get(i).map_or("", |s| s.as_str()),
                        eu::hex::format([b.as_slice()]).trim(),
                        expected
                            .get(i)
                            .map_or(String::new(), |e| eu::hex::format([e.as_slice()])
                                .trim()
                                .to_string())
                    )),
                    Err(e) => t
                        .failures
                        .push(format!("{name}:{i}: encode error {e} for {}", want[i])),
                }
            }
        }
    }

    let bytes: Vec<u8> = expected.iter().flatten().copied().collect();
    match eu::decode_program(devinfo, &bytes) {
        Err(e) => t.failures.push(format!("{name}: decode error {e}")),
        Ok(insts) => {
            let got = normalise(&eu::disassemble(devinfo, &insts));
            for (i, w) in want.iter().enumerate() {
                if got.get(i) == Some(w) {
                    t.dis_ok += 1;
                } else {
                    t.failures.push(format!(
                        "{name}:{i}: disasm\n   got  {}\n   want {}",
                        got.get(i).map_or("", |s| s.as_str()),
                        w
                    ));
                }
            }
        }
    }
}

#[test]
fn mesa_vectors_assemble_and_disassemble_exactly() {
    let Some(dir) = common::shared_path("vectors/intel") else {
        return;
    };
    let mut all_ok = true;
    let mut figures = Vec::new();
    let show: usize = std::env::var("EU_SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    for platform in ["ivb", "bdw", "snb", "ilk", "g4x", "brw"] {
        let devinfo = DevInfo::from_name(platform).unwrap();
        let mut t = Tally {
            total: 0,
            asm_ok: 0,
            dis_ok: 0,
            failures: Vec::new(),
        };
        for f in common::files_with_suffix(&dir.join(platform), ".asm") {
            check_file(devinfo, &f, &mut t);
        }
        println!(
            "{platform}: {} instructions, assemble+encode {}/{}, decode+disassemble {}/{}",
            t.total, t.asm_ok, t.total, t.dis_ok, t.total
        );
        let mut figs = common::expect::Figures::new(&format!("{platform}.eu.vectors"));
        figs.count("instructions", t.total);
        figs.count("assembled", t.asm_ok);
        figs.count("disassembled", t.dis_ok);
        figs.count("failures", t.failures.len());
        for f in t.failures.iter().take(show) {
            println!("  {f}");
            figs.note(f.clone());
        }
        figures.push(figs);
        all_ok &= t.failures.is_empty() && t.total > 0;
    }
    figures.into_iter().for_each(common::expect::Figures::check);
    assert!(
        all_ok,
        "some vectors do not round-trip (see the output above)"
    );
}
