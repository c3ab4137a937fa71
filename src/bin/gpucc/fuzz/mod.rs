//! `gpucc fuzz` and `gpucc fuzz-diff`: the in-process fuzzing harness (issue 24).
//!
//! No nightly toolchain or cargo-fuzz is needed: `fuzz` mutates seed inputs with a
//! deterministic, seedable mutator ([`mutate`]) and runs them through a target ([`targets`])
//! under `catch_unwind`, with a panic hook that records every panic (also the ones the C ABI's
//! guard turns into a status), a per-input bound on CPU time, and a watchdog that saves the
//! input and aborts when one input runs ten times past the bound (a hang no unwinding can end). Inputs
//! that panic, run too long or show a finding are written to the artifacts directory. The
//! same seed gives the same inputs, so a run can be repeated exactly.
//!
//! `fuzz-diff` generates random valid NIR shaders ([`gen`]) and checks the compiled code on
//! the simulator against the reference interpreter ([`diff`]).

mod diff;
mod gen;
mod mutate;
mod targets;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use gpucc::util::rng::Rng;

use crate::cli::{Failure, Outcome};
pub use diff::{fuzz_diff, FuzzDiffArgs};
use targets::Verdict;

#[derive(Args)]
pub struct FuzzArgs {
    /// Target to fuzz, or `all`; may be repeated (`--list` names them)
    #[arg(long, default_value = "all")]
    target: Vec<String>,
    /// Executions per target
    #[arg(long, default_value_t = 1000)]
    execs: u64,
    /// Stop each target after this many seconds (wall clock), even before `--execs`
    #[arg(long)]
    seconds: Option<u64>,
    /// Seed of the mutator (the same seed gives the same inputs)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Shared data directory whose corpus seeds the targets (default: $GPUCC_SHARED)
    #[arg(long)]
    shared: Option<PathBuf>,
    /// An input that runs longer than this (CPU time) counts as a hang
    #[arg(long, default_value_t = 5000)]
    time_limit_ms: u64,
    /// Where inputs that panic, hang or show a finding are written
    #[arg(long, default_value = "fuzz-artifacts")]
    artifacts: PathBuf,
    /// List the targets and exit
    #[arg(long)]
    list: bool,
    /// Write each target's seeds to DIR/<target>/ and exit (a starting corpus for libFuzzer,
    /// see scripts/fuzz-coverage.sh)
    #[arg(long, value_name = "DIR")]
    write_seeds: Option<PathBuf>,
}

/// What a target's run found.
#[derive(Default)]
struct Tally {
    execs: u64,
    panics: u64,
    hangs: u64,
    findings: u64,
    max: Duration,
}

/// The last panic's message and place, recorded by the hook.
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());
static PANICS: AtomicU64 = AtomicU64::new(0);

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let place = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = format!("{place}: {msg}");
        }
    }));
}

/// CPU time a thread has run, in nanoseconds, from Linux's schedstat (`None` elsewhere).
/// The time bound is on CPU time, not wall time: a long run shares the machine, and an
/// input that waited for a core has not run any longer.
fn cpu_ns(schedstat: Option<&std::fs::File>) -> Option<u64> {
    use std::os::unix::fs::FileExt;
    // One open file, re-read from its start: opening it per input would cost more than
    // the cheapest targets' inputs.
    let mut buf = [0u8; 64];
    let n = schedstat?.read_at(&mut buf, 0).ok()?;
    let text = std::str::from_utf8(&buf[..n]).ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The schedstat file of the calling thread, readable from other threads too.
fn this_thread_schedstat() -> PathBuf {
    std::fs::read_link("/proc/thread-self")
        .map(|p| Path::new("/proc").join(p).join("schedstat"))
        .unwrap_or_else(|_| PathBuf::from("/proc/thread-self/schedstat"))
}

/// The input in flight, for the watchdog: the fuzzing thread's CPU time when it started
/// (plus one; 0 when idle), its target and its bytes.
struct InFlight {
    started_ns: AtomicU64,
    schedstat: PathBuf,
    what: Mutex<(String, Vec<u8>)>,
}

fn spawn_watchdog(flight: Arc<InFlight>, origin: Instant, limit: Duration, artifacts: PathBuf) {
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(250));
        let s = flight.started_ns.load(Ordering::SeqCst);
        if s == 0 {
            continue;
        }
        let file = std::fs::File::open(&flight.schedstat).ok();
        let now = cpu_ns(file.as_ref()).unwrap_or_else(|| origin.elapsed().as_nanos() as u64);
        if now.saturating_sub(s) > 10 * limit.as_nanos() as u64 {
            let (name, input) = flight.what.lock().map(|g| g.clone()).unwrap_or_default();
            let path = save(&artifacts, &name, "hang", &input);
            eprintln!(
                "gpucc fuzz: {name}: an input has run {} ms (bound {} ms); saved to {}; aborting",
                (now - s) / 1_000_000,
                limit.as_millis(),
                path.display()
            );
            std::process::abort();
        }
    });
}

fn save(dir: &Path, target: &str, kind: &str, input: &[u8]) -> PathBuf {
    let _ = std::fs::create_dir_all(dir);
    let hash = input.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let path = dir.join(format!("{target}-{kind}-{hash:016x}"));
    let _ = std::fs::write(&path, input);
    path
}

pub fn fuzz(args: FuzzArgs) -> Outcome {
    let all = targets::names();
    if args.list {
        for n in &all {
            crate::cli::out(format_args!("{n}\n"));
        }
        return Ok(());
    }
    let mut names = Vec::new();
    for t in &args.target {
        if t == "all" {
            names.extend(all.iter().cloned());
        } else if all.contains(t) {
            names.push(t.clone());
        } else {
            return Err(Failure::Usage(format!(
                "unknown fuzz target `{t}` (see `gpucc fuzz --list`)"
            )));
        }
    }
    let shared = args
        .shared
        .clone()
        .or_else(|| std::env::var_os("GPUCC_SHARED").map(PathBuf::from))
        .filter(|p| p.is_dir());
    if let Some(dir) = &args.write_seeds {
        return write_seeds(dir, &names, shared.as_deref());
    }
    let limit = Duration::from_millis(args.time_limit_ms.max(1));
    let origin = Instant::now();
    let flight = Arc::new(InFlight {
        started_ns: AtomicU64::new(0),
        schedstat: this_thread_schedstat(),
        what: Mutex::new((String::new(), Vec::new())),
    });
    spawn_watchdog(flight.clone(), origin, limit, args.artifacts.clone());
    install_panic_hook();
    let mut bad = false;
    for name in &names {
        let Some(target) = targets::build(name, shared.as_deref()) else {
            return Err(Failure::Usage(format!("cannot build fuzz target {name}")));
        };
        let start = Instant::now();
        let tally = run_target(&target, &args, &flight, origin, limit);
        bad |= tally.panics > 0 || tally.hangs > 0;
        crate::cli::out(format_args!(
            "{:16} {:>10} execs {:>3} seeds {:>3} panics {:>3} hangs {:>4} findings  max {:>6.1} ms  {:>7.1} s\n",
            name,
            tally.execs,
            target.seeds.len(),
            tally.panics,
            tally.hangs,
            tally.findings,
            tally.max.as_secs_f64() * 1e3,
            start.elapsed().as_secs_f64()
        ));
    }
    let _ = std::panic::take_hook();
    if bad {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}

fn write_seeds(dir: &Path, names: &[String], shared: Option<&Path>) -> Outcome {
    for name in names {
        let Some(target) = targets::build(name, shared) else {
            return Err(Failure::Usage(format!("cannot build fuzz target {name}")));
        };
        let out = dir.join(name);
        let io = |e: std::io::Error| {
            eprintln!("gpucc fuzz: {}: {e}", out.display());
            Failure::Input
        };
        std::fs::create_dir_all(&out).map_err(io)?;
        for (i, seed) in target.seeds.iter().enumerate() {
            std::fs::write(out.join(format!("seed-{i:04}")), seed).map_err(io)?;
        }
        crate::cli::out(format_args!(
            "{name}: {} seeds in {}\n",
            target.seeds.len(),
            out.display()
        ));
    }
    Ok(())
}

fn run_target(
    target: &targets::FuzzTarget,
    args: &FuzzArgs,
    flight: &InFlight,
    origin: Instant,
    limit: Duration,
) -> Tally {
    // Each target has its own stream, so adding a target does not change another's inputs.
    let salt = target.name.bytes().fold(0u64, |h, b| {
        h.rotate_left(5) ^ u64::from(b).wrapping_mul(0x9e37_79b9)
    });
    let mut rng = Rng::new(args.seed ^ salt);
    let mut tally = Tally::default();
    let mut reported = 0;
    let schedstat = std::fs::File::open(&flight.schedstat).ok();
    let started = Instant::now();
    let deadline = args.seconds.map(Duration::from_secs);
    for _ in 0..args.execs {
        if deadline.is_some_and(|d| started.elapsed() >= d) {
            break;
        }
        let input = if target.seeds.is_empty() || rng.below(32) == 0 {
            // Bytes with no seed behind them.
            let n = rng.below(256) as usize;
            (0..n).map(|_| rng.below(256) as u8).collect()
        } else {
            let seed = rng.pick(&target.seeds);
            if rng.below(16) == 0 {
                seed.clone()
            } else {
                mutate::mutate(&mut rng, seed, target.dict, &target.seeds)
            }
        };
        if let Ok(mut w) = flight.what.lock() {
            w.0.clone_from(&target.name);
            w.1.clone_from(&input);
        }
        let clock =
            || cpu_ns(schedstat.as_ref()).unwrap_or_else(|| origin.elapsed().as_nanos() as u64);
        let t0 = clock();
        flight.started_ns.store(t0 + 1, Ordering::SeqCst);
        let before = PANICS.load(Ordering::SeqCst);
        let result = catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
        let took = Duration::from_nanos(clock().saturating_sub(t0));
        flight.started_ns.store(0, Ordering::SeqCst);
        tally.execs += 1;
        tally.max = tally.max.max(took);
        let panicked = result.is_err() || PANICS.load(Ordering::SeqCst) != before;
        let (kind, detail) = if panicked {
            tally.panics += 1;
            (
                "panic",
                LAST_PANIC.lock().map(|s| s.clone()).unwrap_or_default(),
            )
        } else if took > limit {
            tally.hangs += 1;
            ("slow", format!("{} ms", took.as_millis()))
        } else if let Ok(Verdict::Finding(f)) = result {
            tally.findings += 1;
            ("finding", f)
        } else {
            continue;
        };
        let path = save(&args.artifacts, &target.name, kind, &input);
        if reported < 10 {
            reported += 1;
            let detail: String = detail.chars().take(300).collect();
            eprintln!("{}: {kind}: {detail} ({})", target.name, path.display());
        }
    }
    tally
}
