//! One libFuzzer binary for every target of `gpucc fuzz` (`gpucc fuzz --list` names them),
//! chosen with `GPUCC_FUZZ_TARGET` (default `compile-ivb`).
//!
//! The targets are the very ones the in-tree mutation fuzzer runs (the file is included, not
//! copied), so a finding here replays with `gpucc fuzz` and the reverse. libFuzzer adds what
//! the in-tree fuzzer lacks: coverage feedback. Panics abort (libfuzzer-sys's hook), also the
//! ones the C ABI's guard would have turned into an INTERNAL status. Findings that are not
//! panics (a verify mismatch, an internal compile error) are written to `GPUCC_FUZZ_FINDINGS`
//! (default `fuzz/findings/<target>/`), one file per distinct input, so one finding does not
//! end the campaign.
#![no_main]

#[path = "../../src/bin/gpucc/fuzz/targets.rs"]
#[allow(dead_code)]
mod targets;

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

struct Setup {
    target: targets::FuzzTarget,
    findings: PathBuf,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let name = std::env::var("GPUCC_FUZZ_TARGET").unwrap_or_else(|_| "compile-ivb".into());
        // Seeds come from the corpus directory libFuzzer is given; none are needed here.
        let target = targets::build(&name, None)
            .unwrap_or_else(|| panic!("GPUCC_FUZZ_TARGET={name}: not a target of gpucc fuzz"));
        let findings = std::env::var_os("GPUCC_FUZZ_FINDINGS")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("fuzz/findings").join(&name));
        std::fs::create_dir_all(&findings).expect("cannot create the findings directory");
        Setup { target, findings }
    })
}

fuzz_target!(|data: &[u8]| {
    let s = setup();
    if let targets::Verdict::Finding(what) = (s.target.run)(data) {
        let name = format!("finding-{:016x}", fnv(data));
        let path = s.findings.join(&name);
        if !path.exists() {
            let _ = std::fs::write(&path, data);
            let _ = std::fs::write(path.with_extension("txt"), what.as_bytes());
            eprintln!("gpucc-fuzz: finding {name}: {}", what.lines().next().unwrap_or(""));
        }
    }
});

/// FNV-1a: a stable name for an input.
fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
