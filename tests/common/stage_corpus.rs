//! The tally the per-stage corpus tests (vertex, geometry and tessellation shaders, scalar
//! and vec4) keep: what compiled, what was refused and why, what verified against the
//! interpreter, the VUE maps beside those Mesa printed, and each program's statistics beside
//! Mesa's row, recorded as the figures held in tests/expectations/corpus.txt.

use gpucc::intel::backend::{Context, Options, VerifyOutcome};
use gpucc::intel::fs::CompileError;
use gpucc::intel::kernel::{Kernel, Stats};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// A corpus file that compiled: its name, text, shader and kernel.
pub struct Compiled {
    pub name: String,
    pub text: String,
    pub shader: gpucc::nir::Shader,
    pub kernel: Kernel,
}

/// Mesa's figures of one program (a row of `shared/corpus/stages/<platform>.csv`).
#[derive(Debug, Clone, Copy)]
pub struct MesaRow {
    pub instructions: u64,
    pub spills_fills: u64,
    pub cycles: u64,
}

impl From<&super::MesaStats> for MesaRow {
    fn from(m: &super::MesaStats) -> MesaRow {
        MesaRow {
            instructions: m.instructions,
            spills_fills: m.spills + m.fills,
            cycles: m.cycles,
        }
    }
}

/// Which figures beyond the counts of compiled, refused and verified programs a test holds.
#[derive(Debug, Clone, Copy)]
pub struct Record {
    /// The comparison with Mesa's statistics (a platform without Mesa's figures leaves it out).
    pub mesa: bool,
    /// Estimated cycles beside Mesa's.
    pub cycles: bool,
    /// The VUE maps compared with the ones Mesa printed after the shader.
    pub vue_maps: bool,
}

impl Record {
    pub const MESA: Record = Record {
        mesa: true,
        cycles: false,
        vue_maps: false,
    };
}

/// Mesa's rows of `stage` (`gs`, `tes`, ...) in a stages CSV, by shader name.
pub fn mesa_stage_stats(path: &std::path::Path, stage: &str) -> HashMap<String, MesaRow> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect(n);
    let [name, stage_col, ins, cyc, sp, fi] = [
        "shader",
        "stage",
        "instructions",
        "cycles",
        "spills",
        "fills",
    ]
    .map(col);
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f.get(stage_col) == Some(&stage))
        .map(|f| {
            let num = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            let row = MesaRow {
                instructions: num(ins),
                spills_fills: num(sp) + num(fi),
                cycles: num(cyc),
            };
            (f[name].to_string(), row)
        })
        .collect()
}

/// Whether corpus file `name` with NIR `text` is a double-precision test: piglit names them
/// by `fp64`, `double` or `dvec` (the arb_tessellation_shader double tests do not say `fp64`),
/// and a program with 64-bit values is one whatever its name.
pub fn is_double_precision(name: &str, text: &str) -> bool {
    ["fp64", "double", "dvec"].iter().any(|w| name.contains(w))
        || text.contains("con 64 ")
        || text.contains("div 64 ")
}

#[derive(Debug, Default)]
pub struct Tally {
    pub files: usize,
    pub compiled: usize,
    /// Compile refusals by their message.
    pub unsupported: BTreeMap<String, usize>,
    /// Refusals of programs that are not double precision (which may be refused by name; see
    /// [`is_double_precision`]).
    pub refused_beyond_fp64: usize,
    pub verified: usize,
    /// Programs compiled that the check could not run, by its message.
    pub verify_unsupported: BTreeMap<String, usize>,
    pub failures: Vec<String>,
    pub compared: usize,
    pub ours: u64,
    pub theirs: u64,
    pub ours_spills: u64,
    pub theirs_spills: u64,
    pub ours_cycles: u64,
    pub theirs_cycles: u64,
    pub helped: usize,
    pub hurt: usize,
    pub vue_maps_printed: usize,
    pub vue_maps_equal: usize,
}

impl Tally {
    /// Reads, parses and compiles corpus file `path`: the program when it compiled; a parse
    /// or compile error is a failure and a refusal is tallied by its message (printed under
    /// `GPUCC_TEST_LIST`).
    pub fn compile(&mut self, ctx: &Context, options: &Options, path: &Path) -> Option<Compiled> {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let shader = match gpucc::nir::parse(&text) {
            Ok(s) => s,
            Err(e) => {
                self.failures.push(format!("{name}: {e}"));
                return None;
            }
        };
        match ctx.compile(&shader, options) {
            Ok(kernel) => {
                self.compiled += 1;
                Some(Compiled {
                    name,
                    text,
                    shader,
                    kernel,
                })
            }
            Err(CompileError::Unsupported(w)) => {
                if std::env::var_os("GPUCC_TEST_LIST").is_some() {
                    eprintln!("unsupported {name}: {w}");
                }
                self.refused(is_double_precision(&name, &text), w);
                None
            }
            Err(e) => {
                self.failures.push(format!("{name}: {e}"));
                None
            }
        }
    }

    /// A compile refusal, of a double-precision program or not.
    pub fn refused(&mut self, double_precision: bool, why: String) {
        if !double_precision {
            self.refused_beyond_fp64 += 1;
        }
        *self.unsupported.entry(why).or_default() += 1;
    }

    /// The check's verdict on file `name`.
    pub fn verdict(&mut self, name: &str, outcome: VerifyOutcome) {
        match outcome {
            VerifyOutcome::Pass => self.verified += 1,
            VerifyOutcome::Unsupported(w) => *self.verify_unsupported.entry(w).or_default() += 1,
            other => self.failures.push(format!("{name}: {other:?}")),
        }
    }

    /// A compiled program's statistics beside Mesa's.
    pub fn compare(&mut self, s: &Stats, mesa: MesaRow) {
        let ours = s.instructions as u64;
        self.compared += 1;
        self.ours += ours;
        self.theirs += mesa.instructions;
        self.ours_spills += (s.spills + s.fills) as u64;
        self.theirs_spills += mesa.spills_fills;
        self.ours_cycles += s.cycles as u64;
        self.theirs_cycles += mesa.cycles;
        self.helped += usize::from(ours < mesa.instructions);
        self.hurt += usize::from(ours > mesa.instructions);
    }

    /// Compares the VUE map of a compiled vertex shader with the one Mesa printed after the
    /// shader's text (when it did); a difference is a failure.
    pub fn vue_map(&mut self, name: &str, text: &str, ours: String) {
        let Some(printed) = super::printed_vue_map(text) else {
            return;
        };
        self.vue_maps_printed += 1;
        if printed == ours {
            self.vue_maps_equal += 1;
        } else {
            self.failures.push(format!(
                "{name}: VUE map\n{ours}differs from Mesa's\n{printed}"
            ));
        }
    }

    /// Prints the summary, records the figures `record` names under `prefix`, and fails on a
    /// changed figure or any failure.
    pub fn check(&self, prefix: &str, record: Record) {
        let ratio = self.ours as f64 / self.theirs.max(1) as f64;
        println!(
            "{prefix}: {}/{} compiled, {} verified, VUE maps {}/{}; instructions {} vs Mesa's \
             {} ({ratio:.3}), helped {}, hurt {}; spills+fills {} vs {}",
            self.compiled,
            self.files,
            self.verified,
            self.vue_maps_equal,
            self.vue_maps_printed,
            self.ours,
            self.theirs,
            self.helped,
            self.hurt,
            self.ours_spills,
            self.theirs_spills
        );
        let mut figs = super::expect::Figures::new(prefix);
        figs.count("files", self.files);
        figs.count("compiled", self.compiled);
        figs.count("unsupported", self.unsupported.values().sum());
        figs.count("verified", self.verified);
        figs.count("verify_unsupported", self.verify_unsupported.values().sum());
        figs.count("refused_beyond_fp64", self.refused_beyond_fp64);
        figs.count("failures", self.failures.len());
        if record.vue_maps {
            figs.count("vue_maps_equal_to_mesa", self.vue_maps_equal);
            figs.count("vue_maps_printed", self.vue_maps_printed);
        }
        if record.mesa {
            figs.count("compared_with_mesa", self.compared);
            figs.count("instructions", self.ours as usize);
            figs.count("mesa_instructions", self.theirs as usize);
            figs.ratio("instructions_vs_mesa", ratio);
            figs.count("helped", self.helped);
            figs.count("hurt", self.hurt);
            figs.count("spills_fills", self.ours_spills as usize);
            figs.count("mesa_spills_fills", self.theirs_spills as usize);
        }
        if record.mesa && record.cycles {
            figs.count("cycles", self.ours_cycles as usize);
            figs.count("mesa_cycles", self.theirs_cycles as usize);
            let cycles = self.ours_cycles as f64 / self.theirs_cycles.max(1) as f64;
            figs.ratio("cycles_vs_mesa", cycles);
        }
        for (w, n) in &self.unsupported {
            figs.note(format!("{n:4} unsupported: {w}"));
        }
        for (w, n) in &self.verify_unsupported {
            figs.note(format!("{n:4} not checked: {w}"));
        }
        for f in self.failures.iter().take(20) {
            figs.note(f.clone());
        }
        figs.check();
        assert!(self.failures.is_empty(), "{:#?}", self.failures);
    }
}

/// One platform's compile of a corpus program: its device, context and kernel.
pub type PlatformProgram = (&'static gpucc::intel::DevInfo, Context, Kernel);

/// A program of the stage corpus of `corpus_platform` (`ivb` or `bdw`) compiled for each of
/// `platforms` at SIMD8 under `binding`, after checking it verifies as compiled: what the
/// tests that break one instruction of a real program start from. `None` (reported) without
/// the shared data.
pub fn verified_stage_programs(
    corpus_platform: &str,
    file: &str,
    platforms: &[&str],
    binding: gpucc::intel::backend::BindingModel,
) -> Option<(gpucc::nir::Shader, Vec<PlatformProgram>)> {
    let dir = super::shared_path(&format!("corpus/stages/{corpus_platform}"))?;
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let shader = gpucc::nir::parse(&text).unwrap();
    let programs = platforms
        .iter()
        .map(|platform| {
            let dev = gpucc::intel::DevInfo::from_name(platform).unwrap();
            let ctx = Context::new(dev);
            let mut options = Options::widths(&[8]);
            options.binding = binding;
            let k = ctx.compile(&shader, &options).unwrap();
            assert_eq!(
                gpucc::intel::backend::verify_kernel(&ctx, &shader, &k, 8),
                VerifyOutcome::Pass,
                "{platform}: {file} as compiled"
            );
            (dev, ctx, k)
        })
        .collect();
    Some((shader, programs))
}
