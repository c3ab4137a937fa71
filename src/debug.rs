//! `GPUCC_DEBUG`: what the compiler prints while it works, as Mesa's `INTEL_DEBUG` and
//! `ETNA_MESA_DEBUG` do for its backends.
//!
//! The variable is a comma (or space) separated list of flags, read once per process, the
//! first time any compile asks for it. It serves the library inside a driver and the `gpucc`
//! command alike; everything goes to standard error so that it never mixes with a command's
//! output. `GPUCC_DEBUG=help` lists the flags; an unknown flag is reported (and otherwise
//! ignored) rather than silently dropped, because a misspelt flag that prints nothing is
//! indistinguishable from a pass that did nothing.
//!
//! Printing is driven by [`Flags`] carried in each backend's options, not by reading the
//! environment in the passes: a test can ask for a dump without touching process state, and
//! the passes stay pure functions of their input.

use std::fmt::Write as _;
use std::sync::OnceLock;
use std::time::Duration;

bitflags::bitflags! {
    /// The debug flags; see [`FLAGS`] for their names and meaning.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct Flags: u32 {
        /// NIR as the backend receives it, and after each NIR pass that changed it.
        const NIR = 1 << 0;
        /// Intel scalar IR after translation and after each pass that changed it.
        const FS = 1 << 1;
        /// etnaviv IR after translation and after each pass that changed it.
        const ETNA = 1 << 2;
        /// Register allocation: classes, interference graph size, spills.
        const RA = 1 << 3;
        /// The final program in Mesa's disassembler syntax.
        const ASM = 1 << 4;
        /// Shader statistics in Mesa's wording.
        const STATS = 1 << 5;
        /// Time spent in each pass.
        const TIME = 1 << 6;
        /// Run the backend IR validators after every pass (always on in debug builds).
        const VALIDATE = 1 << 7;
        /// Allocate vec4 programs in a register file of [`SPILL_VEC4_GRFS`] registers after
        /// the payload, so that they spill (Mesa's `INTEL_DEBUG=spill_vec4`); changes the
        /// code, so `all` leaves it out.
        const SPILL_VEC4 = 1 << 8;
    }
}

/// Every flag with its name and what it prints, in the order `help` lists them.
pub const FLAGS: &[(&str, Flags, &str)] = &[
    (
        "nir",
        Flags::NIR,
        "NIR as the backend receives it and after each NIR pass that changed it",
    ),
    (
        "fs",
        Flags::FS,
        "Intel scalar IR after translation and after each backend pass that changed it",
    ),
    (
        "etna",
        Flags::ETNA,
        "etnaviv IR after translation and after each backend pass that changed it",
    ),
    (
        "ra",
        Flags::RA,
        "register allocation: register classes, interference graph size, spills and fills",
    ),
    (
        "asm",
        Flags::ASM,
        "final program in Mesa's disassembler syntax",
    ),
    ("stats", Flags::STATS, "shader statistics in Mesa's wording"),
    ("time", Flags::TIME, "time spent in each pass, per compile"),
    (
        "validate",
        Flags::VALIDATE,
        "validate the backend IR after every pass (always on in debug builds)",
    ),
    (
        "spill_vec4",
        Flags::SPILL_VEC4,
        "force register spilling in the Gen7 vec4 backend (8 GRFs after the payload)",
    ),
];

/// The registers [`Flags::SPILL_VEC4`] leaves the vec4 allocator after the payload.
pub const SPILL_VEC4_GRFS: u32 = 8;

/// What a `GPUCC_DEBUG` value asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The recognised flags.
    pub flags: Flags,
    /// Whether `help` was given.
    pub help: bool,
    /// Words that name no flag, as written.
    pub unknown: Vec<String>,
}

/// Parses a `GPUCC_DEBUG` value: flags separated by commas or white space, case-insensitive;
/// `all` turns every flag on, `help` asks for the list.
pub fn parse(value: &str) -> Parsed {
    let mut parsed = Parsed::default();
    for word in value
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "help" => parsed.help = true,
            "all" => parsed.flags |= Flags::all() - Flags::SPILL_VEC4,
            name => match FLAGS.iter().find(|(n, _, _)| *n == name) {
                Some((_, f, _)) => parsed.flags |= *f,
                None => parsed.unknown.push(word.to_string()),
            },
        }
    }
    parsed
}

/// The text `GPUCC_DEBUG=help` prints.
pub fn help_text() -> String {
    let mut s = String::from("GPUCC_DEBUG flags (comma separated):\n");
    for (name, _, what) in FLAGS {
        let _ = writeln!(s, "  {name:<9} {what}");
    }
    let _ = writeln!(s, "  {:<9} every flag above but spill_vec4", "all");
    let _ = writeln!(s, "  {:<9} this list", "help");
    s
}

/// The process's flags: `GPUCC_DEBUG` parsed on first use. The help text and the warnings
/// for unknown flags are printed then, once.
pub fn flags() -> Flags {
    static FLAGS_FROM_ENV: OnceLock<Flags> = OnceLock::new();
    *FLAGS_FROM_ENV.get_or_init(|| {
        let Some(value) = std::env::var_os("GPUCC_DEBUG") else {
            return Flags::empty();
        };
        let parsed = parse(&value.to_string_lossy());
        if parsed.help {
            eprint!("{}", help_text());
        }
        for word in &parsed.unknown {
            eprintln!(
                "gpucc: GPUCC_DEBUG: unknown flag '{word}' ignored (GPUCC_DEBUG=help lists them)"
            );
        }
        parsed.flags
    })
}

/// Whether the IR validators run between passes: always in debug builds, and when asked for.
pub fn validate_by_default() -> bool {
    cfg!(debug_assertions) || flags().contains(Flags::VALIDATE)
}

/// Time spent per named pass over one compile, in first-run order (for `GPUCC_DEBUG=time`).
#[derive(Debug, Clone, Default)]
pub struct PassTimes {
    entries: Vec<(&'static str, u32, Duration)>,
}

impl PassTimes {
    /// Adds one run of `pass`.
    pub fn add(&mut self, pass: &'static str, took: Duration) {
        match self.entries.iter_mut().find(|(n, _, _)| *n == pass) {
            Some((_, runs, total)) => {
                *runs += 1;
                *total += took;
            }
            None => self.entries.push((pass, 1, took)),
        }
    }

    /// One line per pass: total time, runs, and its share of the whole.
    pub fn report(&self, title: &str) -> String {
        let whole: Duration = self.entries.iter().map(|e| e.2).sum();
        let mut s = format!(
            "=== {title}: pass times ({} us in all)\n",
            whole.as_micros()
        );
        for (name, runs, total) in &self.entries {
            let share = if whole.is_zero() {
                0.0
            } else {
                100.0 * total.as_secs_f64() / whole.as_secs_f64()
            };
            let _ = writeln!(
                s,
                "  {name:<28} {:>8} us {runs:>4} runs {share:5.1}%",
                total.as_micros()
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_parses_by_its_listed_name() {
        for (name, flag, _) in FLAGS {
            assert_eq!(parse(name).flags, *flag, "{name}");
            assert_eq!(
                parse(&name.to_uppercase()).flags,
                *flag,
                "{name} in capitals"
            );
        }
    }

    #[test]
    fn lists_combine_and_unknown_words_are_kept_for_the_warning() {
        let p = parse("fs, ra asm,,bogus");
        assert_eq!(p.flags, Flags::FS | Flags::RA | Flags::ASM);
        assert_eq!(p.unknown, vec!["bogus".to_string()]);
        assert!(!p.help);
        let p = parse("help,all");
        assert!(p.help);
        assert_eq!(p.flags, Flags::all() - Flags::SPILL_VEC4);
    }

    #[test]
    fn help_names_every_flag() {
        let text = help_text();
        for (name, _, what) in FLAGS {
            assert!(text.contains(name) && text.contains(what), "{name} missing");
        }
    }

    #[test]
    fn pass_times_sum_runs_of_one_pass() {
        let mut t = PassTimes::default();
        t.add("a", Duration::from_micros(10));
        t.add("b", Duration::from_micros(30));
        t.add("a", Duration::from_micros(20));
        let r = t.report("x");
        assert!(r.contains("60 us in all"), "{r}");
        let a = r
            .lines()
            .find(|l| l.trim_start().starts_with("a "))
            .unwrap();
        assert!(
            a.contains("30 us") && a.contains("2 runs") && a.contains("50.0%"),
            "{a}"
        );
    }
}
