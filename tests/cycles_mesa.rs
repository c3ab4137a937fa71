//! The cycle estimator against Mesa's own figures: every program of Mesa's listings in the
//! corpus is assembled and estimated, and the estimate is compared with the cycle count Mesa
//! printed for it. Mesa's figure comes from the same model run on its IR rather than on the
//! final code (a few generator-only instructions differ), so agreement is expected to be
//! exact for most programs and close in total, not exact everywhere. The counts are held
//! exactly in tests/expectations/corpus.txt.

mod common;

use gpucc::intel::eu;
use gpucc::intel::fs::stats::{self, listing};
use gpucc::intel::DevInfo;

struct Tally {
    programs: usize,
    exact: usize,
    within_5pct: usize,
    mesa: u64,
    ours: u64,
}

fn measure(platform: &str) -> Option<Tally> {
    let dir = common::shared_path(&format!("corpus/mesa-asm/{platform}"))?;
    let dev = DevInfo::from_name(platform).unwrap();
    let mut t = Tally {
        programs: 0,
        exact: 0,
        within_5pct: 0,
        mesa: 0,
        ours: 0,
    };
    for file in common::files_with_suffix(&dir, ".fs.asm") {
        let text = std::fs::read_to_string(&file).unwrap();
        let programs = listing::parse(&text)
            .unwrap_or_else(|e| panic!("{}:{}: {}", file.display(), e.line, e.message));
        for p in programs {
            let insts = eu::assemble(dev, &p.asm).unwrap_or_else(|e| {
                panic!(
                    "{}:{}:{}: {}",
                    file.display(),
                    p.line + e.line,
                    e.col,
                    e.message
                )
            });
            let s = stats::collect(dev, &insts);
            // (Mesa's send count leaves out some scratch messages, so it is not compared.)
            assert_eq!(
                (s.instructions, s.loops),
                (p.mesa.instructions, p.mesa.loops),
                "{}:{}: instruction and loop counts",
                file.display(),
                p.line
            );
            let ours = stats::estimate(dev, &insts, p.simd).cycles;
            t.programs += 1;
            t.exact += usize::from(ours == p.mesa.cycles);
            t.within_5pct += usize::from(ours.abs_diff(p.mesa.cycles) * 20 <= p.mesa.cycles);
            t.mesa += p.mesa.cycles as u64;
            t.ours += ours as u64;
        }
    }
    eprintln!(
        "{platform}: {} programs, {} exact, {} within 5%, total {} (Mesa {})",
        t.programs, t.exact, t.within_5pct, t.ours, t.mesa
    );
    Some(t)
}

/// The tally of `platform` against the expectations (at the time of writing ivb 97.4% exact,
/// 99.4% within 5%, total -2.1%; bdw 97.6%, 100%, -2.1%: the remaining gap is mostly in the
/// large loops of Dolphin's ubershaders).
fn check(platform: &str) {
    let Some(t) = measure(platform) else { return };
    let mut figs = common::expect::Figures::new(&format!("{platform}.cycles.mesa_code"));
    figs.count("programs", t.programs);
    figs.count("exact", t.exact);
    figs.count("within_5pct", t.within_5pct);
    figs.count("cycles", t.ours as usize);
    figs.count("mesa_cycles", t.mesa as usize);
    figs.ratio("cycles_vs_mesa", t.ours as f64 / t.mesa.max(1) as f64);
    figs.check();
}

#[test]
fn ivb_estimates_of_mesas_code_match_mesas_printed_cycles() {
    check("ivb");
}

#[test]
fn bdw_estimates_of_mesas_code_match_mesas_printed_cycles() {
    check("bdw");
}

/// Every generation's encoding vectors (Gen4 to Gen8, all instruction kinds): the estimate
/// runs without failing, the clock never goes back, and without loops the estimate is the
/// clock after the last instruction.
#[test]
fn estimate_runs_on_every_generations_vectors() {
    let Some(dir) = common::shared_path("vectors/intel") else {
        return;
    };
    let mut figures = Vec::new();
    for platform in ["brw", "g4x", "ilk", "snb", "ivb", "bdw"] {
        let dev = DevInfo::from_name(platform).unwrap();
        let mut programs = 0;
        for file in common::files_with_suffix(&dir.join(platform), ".asm") {
            let text = std::fs::read_to_string(&file).unwrap();
            let Ok(insts) = eu::assemble(dev, &text) else {
                continue;
            };
            let times = stats::issue_times(dev, &insts);
            assert_eq!(times.len(), insts.len());
            assert!(
                times.windows(2).all(|w| w[0] <= w[1]),
                "{}: clock went back: {times:?}",
                file.display()
            );
            let cycles = stats::estimate(dev, &insts, 8).cycles;
            if !insts.iter().any(|i| i.opcode == eu::Opcode::While) {
                assert_eq!(
                    cycles as u64,
                    times.last().copied().unwrap_or(0),
                    "{}",
                    file.display()
                );
            }
            programs += 1;
        }
        let mut figs = common::expect::Figures::new(&format!("{platform}.cycles.vectors"));
        figs.count("programs_estimated", programs);
        figures.push(figs);
    }
    figures.into_iter().for_each(common::expect::Figures::check);
}
