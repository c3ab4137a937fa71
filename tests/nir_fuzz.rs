//! Bounded, deterministic fuzzing of the NIR text reader: corpus shaders (or the hand-written
//! ones when the corpus is absent) go through thousands of mutations; parsing, validating and
//! printing must never panic, and whatever parses must print to text that parses again.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use gpucc::nir;
use gpucc::util::rng::Rng;

fn inputs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nir");
    for p in common::files_with_suffix(&data, ".nir") {
        out.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    if let Some(dir) = common::shared_path("corpus/nir") {
        // A spread of small and medium corpus files keeps the run to a few seconds.
        let files = common::files_with_suffix(&dir, ".nir");
        for p in files.iter().step_by(53) {
            let text = std::fs::read_to_string(p).unwrap();
            if text.len() < 24_000 {
                out.push((p.display().to_string(), text));
            }
        }
    }
    out
}

const TOKENS: [&str; 24] = [
    "%0",
    "%99999999",
    "block b1:",
    "if %1 {",
    "} else {",
    "loop {",
    "}",
    "break",
    "@store_reg",
    "fadd",
    "phi b0: %1",
    "(",
    ")",
    ".xyzw",
    ".q",
    "0xffffffffffffffffff",
    "x16",
    "32x0",
    "div",
    "= ",
    "// succs: b9 ",
    "decl_var ",
    "-",
    "\u{e9}",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        return String::new();
    }
    let n = lines.len() as u64;
    match rng.below(8) {
        0 => {
            lines.remove(rng.below(n) as usize);
        }
        1 => {
            let i = rng.below(n) as usize;
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        2 => {
            let (a, b) = (rng.below(n) as usize, rng.below(n) as usize);
            lines.swap(a, b);
        }
        3 => {
            // Flip characters of one line.
            let i = rng.below(n) as usize;
            let mut chars: Vec<char> = lines[i].chars().collect();
            for _ in 0..1 + rng.below(3) {
                if chars.is_empty() {
                    break;
                }
                let at = rng.below(chars.len() as u64) as usize;
                chars[at] = *rng.pick(&[
                    '%', '(', ')', ',', ' ', '.', 'x', '0', '9', '{', '}', '=', '@', 'b', '#', '\t',
                ]);
            }
            lines[i] = chars.into_iter().collect();
        }
        4 => {
            // Truncate the whole text at a character boundary.
            let joined = lines.join("\n");
            let mut cut = rng.below(joined.len() as u64 + 1) as usize;
            while !joined.is_char_boundary(cut) {
                cut -= 1;
            }
            return joined[..cut].to_string();
        }
        5 => {
            // Replace a number with another (small, big, or absurd).
            let i = rng.below(n) as usize;
            let line = &lines[i];
            let starts: Vec<usize> = line
                .char_indices()
                .filter(|(p, c)| {
                    c.is_ascii_digit() && (*p == 0 || !line.as_bytes()[p - 1].is_ascii_digit())
                })
                .map(|(p, _)| p)
                .collect();
            if !starts.is_empty() {
                let s = starts[rng.below(starts.len() as u64) as usize];
                let e = line[s..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(line.len(), |x| s + x);
                let new = match rng.below(4) {
                    0 => rng.below(8).to_string(),
                    1 => rng.below(100).to_string(),
                    2 => "4294967296".to_string(),
                    _ => "99999999999999999999999".to_string(),
                };
                lines[i] = format!("{}{}{}", &line[..s], new, &line[e..]);
            }
        }
        6 => {
            // Replace a word with a word from elsewhere in the text.
            let (a, b) = (rng.below(n) as usize, rng.below(n) as usize);
            let words_b: Vec<&str> = lines[b].split_whitespace().collect();
            let words_a: Vec<String> = lines[a].split_whitespace().map(str::to_string).collect();
            if !words_a.is_empty() && !words_b.is_empty() {
                let from = &words_a[rng.below(words_a.len() as u64) as usize];
                let to = words_b[rng.below(words_b.len() as u64) as usize].to_string();
                lines[a] = lines[a].replacen(from.as_str(), &to, 1);
            }
        }
        _ => {
            // Insert a syntax token somewhere in a line.
            let i = rng.below(n) as usize;
            let tok = rng.pick(&TOKENS);
            let mut at = rng.below(lines[i].len() as u64 + 1) as usize;
            while !lines[i].is_char_boundary(at) {
                at -= 1;
            }
            lines[i].insert_str(at, tok);
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Parse, validate, print, re-parse: none of it may panic; printed text must parse.
fn exercise(text: &str) -> Result<bool, String> {
    match nir::parse(text) {
        Err(e) => {
            if e.line == 0 || e.col == 0 || e.message.is_empty() {
                return Err(format!("malformed error {e:?}"));
            }
            Ok(false)
        }
        Ok(shader) => {
            let _ = nir::validate(&shader);
            let printed = nir::print(&shader);
            match nir::parse(&printed) {
                Ok(again) if again == shader => Ok(true),
                Ok(again) => {
                    let reprinted = nir::print(&again);
                    let diff = printed.lines().zip(reprinted.lines()).find(|(a, b)| a != b);
                    Err(format!("printed text parses to a different shader; first print/reprint difference: {diff:?}"))
                }
                Err(e) => Err(format!("printed text does not parse: {e}")),
            }
        }
    }
}

#[test]
fn mutated_nir_never_panics() {
    let inputs = inputs();
    let per_input = (12_000 / inputs.len().max(1)).clamp(40, 2_000);
    let mut rng = Rng::new(0x6e69_7266_757a_7a01);
    let (mut runs, mut parsed) = (0usize, 0usize);
    let mut problems = Vec::new();
    for (name, text) in &inputs {
        for k in 0..per_input {
            let mut m = mutate(&mut rng, text);
            if k % 4 == 3 {
                m = mutate(&mut rng, &m);
            }
            runs += 1;
            match catch_unwind(AssertUnwindSafe(|| exercise(&m))) {
                Ok(Ok(p)) => parsed += p as usize,
                Ok(Err(e)) => problems.push(format!("{name} mutation {k}: {e}")),
                Err(_) => problems.push(format!("{name} mutation {k}: PANIC\n{m}")),
            }
            if problems.len() > 5 {
                break;
            }
        }
    }
    println!(
        "nir fuzz: {runs} mutations of {} inputs, {parsed} still parsed",
        inputs.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n---\n"));
}

/// Random damage to the in-memory IR (what a buggy pass could leave behind).
fn damage(rng: &mut Rng, shader: &mut nir::Shader) {
    use nir::{BlockId, CfNode, InstrKind, SsaId};
    let Some(imp) = shader.entry_mut() else {
        return;
    };
    let n_defs = imp.defs.len() as u64 + 3;
    let n_blocks = imp.blocks.len() as u64 + 2;
    let n_instrs = imp.instrs.len() as u64;
    if n_instrs == 0 {
        return;
    }
    let i = rng.below(n_instrs) as usize;
    match rng.below(7) {
        0 => match &mut imp.instrs[i].kind {
            InstrKind::Alu(a) if !a.srcs.is_empty() => {
                let k = rng.below(a.srcs.len() as u64) as usize;
                a.srcs[k].ssa = SsaId(rng.below(n_defs) as u32);
                a.srcs[k].swizzle[0] = rng.below(20) as u8;
            }
            InstrKind::Intrinsic(x) if !x.srcs.is_empty() => {
                let k = rng.below(x.srcs.len() as u64) as usize;
                x.srcs[k] = SsaId(rng.below(n_defs) as u32);
            }
            InstrKind::Phi(p) if !p.srcs.is_empty() => {
                p.srcs[0].0 = BlockId(rng.below(n_blocks) as u32);
            }
            _ => {}
        },
        1 => imp.instrs[i].block = BlockId(rng.below(n_blocks) as u32),
        2 if !imp.blocks.is_empty() => {
            let b = rng.below(imp.blocks.len() as u64) as usize;
            imp.blocks[b]
                .instrs
                .push(nir::InstrId(rng.below(n_instrs + 2) as u32));
        }
        3 => {
            if let Some(Some(d)) = imp.defs.get_mut(rng.below(n_defs) as usize) {
                d.instr = nir::InstrId(rng.below(n_instrs + 2) as u32);
                d.num_components = rng.below(18) as u8;
            }
        }
        4 => {
            let len = rng.below(imp.defs.len() as u64 + 1) as usize;
            imp.defs.truncate(len);
        }
        5 => {
            if let Some(CfNode::Block(b)) = imp.body.first_mut() {
                *b = BlockId(rng.below(n_blocks) as u32);
            }
        }
        _ => {
            if rng.bool() {
                imp.blocks.pop();
            } else {
                imp.body.pop();
            }
        }
    }
}

#[test]
fn damaged_ir_never_panics_the_validator_or_printer() {
    let inputs = inputs();
    let mut rng = Rng::new(0x6461_6d61_6765_0001);
    let mut problems = Vec::new();
    let mut rejected = 0;
    let mut runs = 0;
    for (name, text) in inputs.iter().take(30) {
        let Ok(base) = nir::parse(text) else { continue };
        for k in 0..100 {
            let mut s = base.clone();
            for _ in 0..1 + rng.below(3) {
                damage(&mut rng, &mut s);
            }
            runs += 1;
            let r = catch_unwind(AssertUnwindSafe(|| {
                let v = nir::validate(&s).is_err();
                let _ = nir::print(&s);
                v
            }));
            match r {
                Ok(v) => rejected += v as usize,
                Err(_) => problems.push(format!("{name} damage {k}: PANIC")),
            }
            if problems.len() > 5 {
                break;
            }
        }
    }
    println!("nir damage: {runs} damaged shaders, {rejected} rejected by the validator");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
