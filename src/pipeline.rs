//! Running a backend's passes: the one place where a pass is timed, its result printed and the
//! IR validated.
//!
//! Each backend writes its pass order once, as a list of named [`Pass`]es (see
//! `intel::fs::pipeline` and `etnaviv::compiler::pipeline`), and runs every entry through a
//! [`Runner`]. The runner is what `GPUCC_DEBUG` hooks into: after a pass that made progress it
//! prints the IR (the backend's flag), it adds the pass's time to the compile's table (`time`),
//! and, in debug builds, in tests and with `validate`, it runs the backend's IR validator so
//! that a pass that breaks an invariant is named at once rather than showing up as wrong code
//! several passes later.

use std::fmt;
use std::time::Instant;

use crate::debug::{Flags, PassTimes};

/// A named pass over an IR: `run(env, ir)` rewrites `ir` and reports whether it changed
/// anything. `env` is what the pass needs besides the IR (the device, an optimization level).
pub struct Pass<E: ?Sized, IR> {
    /// The name printed in dumps and timing tables, and used to run a pipeline up to a pass.
    pub name: &'static str,
    /// The pass.
    pub run: fn(&E, &mut IR) -> bool,
}

impl<E: ?Sized, IR> Clone for Pass<E, IR> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: ?Sized, IR> Copy for Pass<E, IR> {}

impl<E: ?Sized, IR> fmt::Debug for Pass<E, IR> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A validator's complaint after a pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidIr {
    /// The pass after which the IR was invalid ("translation" for the translator itself).
    pub after: &'static str,
    /// What is wrong, and where.
    pub message: String,
}

impl fmt::Display for InvalidIr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IR invalid after {}: {}", self.after, self.message)
    }
}

/// A backend IR validator: Err says what is wrong.
pub type Validator<IR> = fn(&IR) -> Result<(), String>;

/// Runs passes over one IR for one compile (one dispatch width, one shader).
pub struct Runner<IR> {
    /// Printed in every dump header: which compile this is ("SIMD8", "gc2000 FS").
    label: String,
    /// Print the IR after each pass that made progress.
    print: bool,
    /// Checks the IR after every pass, when validation is on.
    validate: Option<Validator<IR>>,
    /// Record per-pass times.
    time: bool,
    times: PassTimes,
}

impl<IR: fmt::Display> Runner<IR> {
    /// A runner printing with `print_flag` (the backend's IR flag) when `flags` has it.
    /// `validator` runs after each pass when `validate` is set.
    pub fn new(
        label: impl Into<String>,
        flags: Flags,
        print_flag: Flags,
        validate: bool,
        validator: Validator<IR>,
    ) -> Runner<IR> {
        Runner {
            label: label.into(),
            print: flags.contains(print_flag),
            validate: validate.then_some(validator),
            time: flags.contains(Flags::TIME),
            times: PassTimes::default(),
        }
    }

    /// A runner that neither prints, times nor validates (for tools that only want the
    /// pipeline's result).
    pub fn quiet(validator: Validator<IR>) -> Runner<IR> {
        Runner::new("", Flags::empty(), Flags::empty(), false, validator)
    }

    /// Runs one pass; prints and validates after it as configured.
    pub fn run<E: ?Sized>(
        &mut self,
        pass: &Pass<E, IR>,
        env: &E,
        ir: &mut IR,
    ) -> Result<bool, InvalidIr> {
        self.step(pass.name, ir, |ir| (pass.run)(env, ir))
    }

    /// Runs every pass of `passes` once, in order; returns whether any made progress.
    pub fn run_all<E: ?Sized>(
        &mut self,
        passes: &[Pass<E, IR>],
        env: &E,
        ir: &mut IR,
    ) -> Result<bool, InvalidIr> {
        let mut progress = false;
        for pass in passes {
            progress |= self.run(pass, env, ir)?;
        }
        Ok(progress)
    }

    /// Runs a step that is not a listed [`Pass`] because it needs more than the pass
    /// environment (a scheduling mode, the translation's facts), with the same timing,
    /// printing and validation as a pass.
    pub fn step(
        &mut self,
        name: &'static str,
        ir: &mut IR,
        f: impl FnOnce(&mut IR) -> bool,
    ) -> Result<bool, InvalidIr> {
        let start = self.time.then(Instant::now);
        let progress = f(ir);
        if let Some(start) = start {
            self.times.add(name, start.elapsed());
        }
        if progress {
            self.show(name, ir);
        }
        self.check(name, ir)?;
        Ok(progress)
    }

    /// Prints `ir` under the heading "after `step`" when the backend's flag is on.
    pub fn show(&self, step: &str, ir: &IR) {
        if self.print {
            eprintln!("=== {} after {step}\n{ir}", self.label);
        }
    }

    /// Validates `ir` (when validation is on), blaming `step`.
    pub fn check(&self, step: &'static str, ir: &IR) -> Result<(), InvalidIr> {
        match self.validate {
            Some(validator) => validator(ir).map_err(|message| InvalidIr {
                after: step,
                message,
            }),
            None => Ok(()),
        }
    }

    /// Adds the time of a step that is not a [`Pass`] (allocation, code generation).
    pub fn time_step<T>(&mut self, step: &'static str, f: impl FnOnce() -> T) -> T {
        if !self.time {
            return f();
        }
        let start = Instant::now();
        let out = f();
        self.times.add(step, start.elapsed());
        out
    }

    /// Whether this runner prints the IR.
    pub fn prints(&self) -> bool {
        self.print
    }

    /// The label given at construction.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The per-pass times gathered so far (empty unless `time` is on).
    pub fn times(&self) -> &PassTimes {
        &self.times
    }

    /// Prints the time table when `time` is on.
    pub fn report_times(&self) {
        if self.time {
            eprint!("{}", self.times.report(&self.label));
        }
    }
}

/// The names of `passes`, in order (for "run up to pass X" look-ups and error messages).
pub fn names<E: ?Sized, IR>(passes: &[Pass<E, IR>]) -> Vec<&'static str> {
    passes.iter().map(|p| p.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy IR: a list of numbers; its invariant is that none is negative.
    struct Nums(Vec<i32>);

    impl fmt::Display for Nums {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{:?}", self.0)
        }
    }

    fn non_negative(n: &Nums) -> Result<(), String> {
        match n.0.iter().position(|&x| x < 0) {
            Some(i) => Err(format!("element {i} is negative")),
            None => Ok(()),
        }
    }

    const PASSES: &[Pass<i32, Nums>] = &[
        Pass {
            name: "add",
            run: |k, n| {
                n.0.iter_mut().for_each(|x| *x += k);
                *k != 0
            },
        },
        Pass {
            name: "drop_zeros",
            run: |_, n| {
                let before = n.0.len();
                n.0.retain(|&x| x != 0);
                n.0.len() != before
            },
        },
    ];

    #[test]
    fn progress_is_the_or_of_the_passes() {
        let mut r = Runner::quiet(non_negative);
        let mut n = Nums(vec![0, 1]);
        assert!(
            r.run_all(PASSES, &0, &mut n).unwrap(),
            "drop_zeros removed the 0"
        );
        assert_eq!(n.0, vec![1]);
        assert!(!r.run_all(PASSES, &0, &mut n).unwrap());
    }

    #[test]
    fn the_validator_names_the_pass_that_broke_the_invariant() {
        let mut r = Runner::new("t", Flags::empty(), Flags::FS, true, non_negative);
        let mut n = Nums(vec![1, 2]);
        let err = r.run_all(PASSES, &-2, &mut n).unwrap_err();
        assert_eq!(err.after, "add");
        assert_eq!(
            err.message, "element 0 is negative",
            "1 - 2 = -1 at index 0"
        );
        // Without validation the same run goes through.
        let mut quiet = Runner::quiet(non_negative);
        let mut n = Nums(vec![1, 2]);
        assert!(quiet.run_all(PASSES, &-2, &mut n).is_ok());
    }

    #[test]
    fn times_are_recorded_per_pass_only_when_asked() {
        let mut r = Runner::new("t", Flags::TIME, Flags::FS, false, non_negative);
        let mut n = Nums(vec![1]);
        r.run_all(PASSES, &1, &mut n).unwrap();
        r.run_all(PASSES, &1, &mut n).unwrap();
        let report = r.times().report("t");
        assert!(
            report.contains("add") && report.contains("2 runs"),
            "{report}"
        );
        let mut quiet = Runner::quiet(non_negative);
        quiet.run_all(PASSES, &1, &mut n).unwrap();
        assert!(!quiet.times().report("q").contains("add"));
    }
}
