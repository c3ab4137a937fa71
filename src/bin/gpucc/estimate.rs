//! `gpucc report --mesa-asm DIR`: Mesa's own assembly measured with our estimator.
//!
//! Mesa's printed cycle counts come from its model applied to its IR, ours from the same model
//! applied to EU code; comparing our programs with Mesa's is only fair when both are measured
//! the same way. This assembles every program of every listing under DIR and writes the
//! report CSV for them, so that `report --compare` puts like next to like.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use gpucc::intel::eu;
use gpucc::intel::fs::stats::{self, listing};
use gpucc::intel::DevInfo;

use crate::cli::{read_text, Failure};

/// Mesa's figures next to ours for the programs that assembled.
#[derive(Default)]
struct Calibration {
    programs: usize,
    failed: usize,
    mesa_cycles: u64,
    our_cycles: u64,
    exact: usize,
    within_5pct: usize,
    instructions_differ: usize,
}

/// Builds the CSV (with the report's header) for every listing under `dir`.
pub fn mesa_asm_csv(devinfo: &DevInfo, dir: &Path, header: &str) -> Result<String, Failure> {
    let files = listing_files(dir);
    if files.is_empty() {
        eprintln!("{}: no .asm listings found", dir.display());
        return Err(Failure::Input);
    }
    let mut csv = String::from(header);
    csv.push('\n');
    let mut cal = Calibration::default();
    for file in &files {
        let text = read_text(file)?;
        let rel = file.strip_prefix(dir).unwrap_or(file).to_string_lossy();
        let shader = rel.strip_suffix(".asm").unwrap_or(&rel).to_string();
        let programs = match listing::parse(&text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}:{}:{}: {}", file.display(), e.line, e.col, e.message);
                cal.failed += 1;
                continue;
            }
        };
        for p in programs {
            let insts = match eu::assemble(devinfo, &p.asm) {
                Ok(i) => i,
                Err(e) => {
                    eprintln!(
                        "{}:{}:{}: {}",
                        file.display(),
                        p.line + e.line,
                        e.col,
                        e.message
                    );
                    cal.failed += 1;
                    continue;
                }
            };
            let s = stats::collect(devinfo, &insts);
            let ours = stats::estimate(devinfo, &insts, p.simd).cycles;
            cal.programs += 1;
            cal.mesa_cycles += p.mesa.cycles as u64;
            cal.our_cycles += ours as u64;
            cal.exact += usize::from(ours == p.mesa.cycles);
            cal.within_5pct += usize::from(ours.abs_diff(p.mesa.cycles) * 20 <= p.mesa.cycles);
            cal.instructions_differ += usize::from(s.instructions != p.mesa.instructions);
            let stage = if shader.ends_with(".cs") { "cs" } else { "fs" };
            let _ = writeln!(
                csv,
                "{shader},{stage},{},{},{ours},{},{},{},,",
                p.simd, s.instructions, p.mesa.spills, p.mesa.fills, s.sends
            );
        }
    }
    let ratio = cal.our_cycles as f64 / cal.mesa_cycles.max(1) as f64;
    eprintln!(
        "{} programs estimated from {} listings, {} not assembled",
        cal.programs,
        files.len(),
        cal.failed
    );
    eprintln!(
        "estimate of Mesa's code vs Mesa's printed cycles: {} vs {} (ratio {ratio:.3}); \
         {} exact, {} within 5%; {} with a different instruction count",
        cal.our_cycles, cal.mesa_cycles, cal.exact, cal.within_5pct, cal.instructions_differ
    );
    Ok(csv)
}

/// Fragment and compute listings (`*.fs.asm`, `*.cs.asm`) under `dir`, sorted; Mesa's vertex
/// shaders on Gen7 are vec4 code, which the scalar estimator does not read.
fn listing_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".fs.asm") || n.ends_with(".cs.asm"))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[derive(clap::Args)]
pub struct EstimateArgs {
    /// Target GPU (an Intel platform, see `gpucc targets`)
    #[arg(long)]
    target: String,
    /// Mesa-syntax assembly: a Mesa listing (one or more `SIMDn shader:` programs) or plain
    /// instructions
    file: PathBuf,
    /// Dispatch width of plain assembly (listings state their own)
    #[arg(long, default_value = "8", value_parser = ["8", "16", "32"])]
    simd: String,
}

/// `gpucc estimate`: each instruction with the front-end clock after it issued and how far
/// that moved, so that the waits the estimate charges (the places a scheduler could fill)
/// stand out.
pub fn estimate(args: EstimateArgs) -> crate::cli::Outcome {
    let gpucc::target::Target::Intel(devinfo) = crate::cli::target(&args.target)? else {
        return Err(Failure::Usage(
            "estimate reads Intel assembly; give an Intel target".into(),
        ));
    };
    let text = read_text(&args.file)?;
    let mut programs = listing::parse(&text).map_err(|e| {
        eprintln!(
            "{}:{}:{}: {}",
            args.file.display(),
            e.line,
            e.col,
            e.message
        );
        Failure::Input
    })?;
    if programs.iter().any(|p| p.simd == listing::VEC4) {
        return Err(Failure::Usage(format!(
            "{}: a vec4 listing; estimate reads scalar (SIMD8/16/32) programs",
            args.file.display()
        )));
    }
    let plain = programs.is_empty();
    if plain {
        programs.push(listing::Program {
            simd: args.simd.parse().unwrap_or(8),
            line: 0,
            mesa: listing::MesaFigures::default(),
            asm: text,
        });
    }
    let mut out = String::new();
    for p in &programs {
        let insts = eu::assemble(devinfo, &p.asm).map_err(|e| {
            eprintln!(
                "{}:{}:{}: {}",
                args.file.display(),
                p.line + e.line,
                e.col,
                e.message
            );
            Failure::Input
        })?;
        let e = stats::estimate(devinfo, &insts, p.simd);
        let _ = write!(
            out,
            "SIMD{}: {} instructions, {} cycles",
            p.simd,
            insts.len(),
            e.cycles
        );
        if !plain {
            let _ = write!(out, " (the listing says {})", p.mesa.cycles);
        }
        let _ = writeln!(out, ", throughput {:.4} channels/cycle", e.throughput);
        let mut before = 0;
        for (inst, clock) in insts.iter().zip(stats::issue_times(devinfo, &insts)) {
            let text = eu::disassemble(devinfo, std::slice::from_ref(inst));
            for (n, line) in text.lines().enumerate() {
                if n == 0 {
                    let _ = writeln!(out, "{clock:>7} {:>+5}  {line}", clock - before);
                } else {
                    let _ = writeln!(out, "{:14}{line}", "");
                }
            }
            before = clock;
        }
    }
    crate::cli::out(out);
    Ok(())
}
