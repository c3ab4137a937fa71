//! Every shader of the Mesa 23.3 corpus parses, validates and round-trips through the printer.

mod common;

use std::time::{Duration, Instant};

use gpucc::nir;

/// First differing line of two texts, for failure reports.
fn first_diff(a: &str, b: &str) -> Option<(usize, String, String)> {
    let (mut la, mut lb) = (a.lines(), b.lines());
    let mut n = 0;
    loop {
        n += 1;
        match (la.next(), lb.next()) {
            (None, None) => return None,
            (x, y) if x == y => continue,
            (x, y) => {
                return Some((
                    n,
                    x.unwrap_or("<eof>").to_string(),
                    y.unwrap_or("<eof>").to_string(),
                ))
            }
        }
    }
}

#[test]
fn corpus_parses_validates_and_round_trips() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let files = common::files_with_suffix(&dir, ".nir");
    let (mut ok, mut identical) = (0, 0);
    let mut failures = Vec::new();
    let mut diffs = Vec::new();
    let (mut tex, mut tex_with_var) = (0, 0);
    let (mut bytes, mut t_parse, mut t_validate, mut t_print) =
        (0, Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        bytes += text.len();
        let start = Instant::now();
        let parsed = nir::parse(&text);
        t_parse += start.elapsed();
        let shader = match parsed {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: parse: {e}"));
                continue;
            }
        };
        if let Some(v) = shader
            .variables
            .iter()
            .find(|v| v.mode.has_location() && v.location_number().is_none())
        {
            failures.push(format!(
                "{name}: unknown location `{}` of `{}`",
                v.location, v.name
            ));
            continue;
        }
        let start = Instant::now();
        let valid = nir::validate(&shader);
        t_validate += start.elapsed();
        if let Err(e) = valid {
            failures.push(format!("{name}: validate: {e}"));
            continue;
        }
        for instr in &shader.entry().unwrap().instrs {
            if let nir::InstrKind::Tex(t) = &instr.kind {
                tex += 1;
                let index = t.sampler_index.or(t.texture_index);
                tex_with_var += index.and_then(|i| shader.sampler_variable(i)).is_some() as usize;
            }
        }
        let start = Instant::now();
        let printed = nir::print(&shader);
        t_print += start.elapsed();
        let reparsed = match nir::parse(&printed) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: reparse of printed text: {e}"));
                continue;
            }
        };
        if reparsed != shader {
            failures.push(format!("{name}: printed text parses to a different shader"));
            continue;
        }
        if nir::print(&reparsed) != printed {
            failures.push(format!("{name}: printing is not a fixed point"));
            continue;
        }
        ok += 1;
        if printed == text {
            identical += 1;
        } else if diffs.len() < 8 {
            diffs.push((name, first_diff(&text, &printed)));
        }
    }
    println!(
        "nir corpus: {} files, {ok} parse+validate+round-trip, {identical} print byte-identical",
        files.len()
    );
    println!(
        "  {:.1} MB: parse {:.0} ms, validate {:.0} ms, print {:.0} ms",
        bytes as f64 / 1e6,
        t_parse.as_secs_f64() * 1e3,
        t_validate.as_secs_f64() * 1e3,
        t_print.as_secs_f64() * 1e3
    );
    println!("  texture instructions: {tex}, bound to a declared sampler: {tex_with_var}");
    for d in &diffs {
        println!("  differs: {d:?}");
    }
    let mut figs = common::expect::Figures::new("all.nir.corpus");
    figs.count("files", files.len());
    figs.count("round_trip", ok);
    figs.count("byte_identical", identical);
    figs.count("failures", failures.len());
    figs.count("tex_instructions", tex);
    figs.count("tex_with_sampler_variable", tex_with_var);
    for f in failures.iter().take(20) {
        println!("  FAIL {f}");
        figs.note(format!("FAIL {f}"));
    }
    figs.check();
    assert!(
        failures.is_empty(),
        "{} of {} corpus files failed",
        failures.len(),
        files.len()
    );
}
