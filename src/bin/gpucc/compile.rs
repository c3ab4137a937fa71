//! `gpucc compile`, `gpucc verify` and `gpucc report`: the backends from the command line.

use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use gpucc::compiler::{BindingModel, CompileOptions, Compiler, Key};
use gpucc::intel::ubo_ranges::{DriverRanges, UboRange};
use gpucc::program::StatsRow;
use gpucc::verify::VerifyOutcome;

use crate::cli::{self, input_error, target, write_output, Failure, Outcome};
use crate::nir::load;

#[derive(Args)]
pub struct CompileArgs {
    /// Target GPU (see `gpucc targets`), or a Vivante preset with values changed
    /// (`gc2000:instruction_count=128,features4=0x8`)
    #[arg(long)]
    target: String,
    /// Shader in Mesa's nir_print syntax
    file: PathBuf,
    /// Intel: compile only this SIMD width (8, 16 or 32); may be repeated
    #[arg(long, value_parser = ["8", "16", "32"])]
    simd: Vec<String>,
    /// Compile key field, `name=value` (see README: nr_color_regions, flat_shade,
    /// frag_rb_swap, ...); may be repeated. The NIR fields (flat_shade, frag_rb_swap,
    /// sprite_coord_*) are taken as applied by Mesa, as NIR at the hand-over point has them;
    /// `apply_nir_keys=1` makes gpucc apply them (NIR cut before Mesa's key lowering)
    #[arg(long = "key", value_name = "NAME=VALUE")]
    keys: Vec<String>,
    /// Intel binding model: `gpucc` (its own layout) or `mesa` (the NIR's surface indices
    /// are final binding-table slots; UBO data pushed as Mesa's up-to-four ranges; compute
    /// push data as Mesa lays it, the subgroup id last, cross-thread then per-thread)
    /// `mesa:ranges=B/S/L,...` is Mesa's with the UBO ranges the driver chose itself (block,
    /// start, length in 32-byte registers; `mesa:ranges=` for none, as iris and crocus give
    /// compute shaders)
    #[arg(long, value_parser = crate::compile::parse_binding, default_value = "gpucc")]
    binding: BindingModel,
    /// Print the program's assembly in Mesa's syntax
    #[arg(long)]
    asm: bool,
    /// Print the statistics in Mesa's wording
    #[arg(long)]
    stats: bool,
    /// Write the machine code (raw bytes, memory order) to this file
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Target GPU (see `gpucc targets`), or a Vivante preset with values changed
    /// (`gc2000:instruction_count=128,features4=0x8`)
    #[arg(long)]
    target: String,
    /// Shaders in Mesa's nir_print syntax
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Intel: check only this SIMD width (default: 8, 16 and 32); may be repeated
    #[arg(long, value_parser = ["8", "16", "32"])]
    simd: Vec<String>,
    /// Compile key field, `name=value`, applied before the check as `compile` applies it
    /// (`apply_nir_keys=1` for the NIR fields); may be repeated
    #[arg(long = "key", value_name = "NAME=VALUE")]
    keys: Vec<String>,
    /// Intel binding model: `gpucc` (its own layout) or `mesa` (the NIR's surface indices
    /// are final binding-table slots; UBO data pushed as Mesa's up-to-four ranges; compute
    /// push data as Mesa lays it, the subgroup id last, cross-thread then per-thread)
    /// `mesa:ranges=B/S/L,...` is Mesa's with the UBO ranges the driver chose itself (block,
    /// start, length in 32-byte registers; `mesa:ranges=` for none, as iris and crocus give
    /// compute shaders)
    #[arg(long, value_parser = crate::compile::parse_binding, default_value = "gpucc")]
    binding: BindingModel,
}

#[derive(Args)]
pub struct ReportArgs {
    /// Target GPU (see `gpucc targets`); not needed with --compare
    #[arg(long, required_unless_present = "compare")]
    target: Option<String>,
    /// Directory of .nir files (searched recursively)
    #[arg(required_unless_present_any = ["compare", "mesa_asm"])]
    dir: Option<PathBuf>,
    /// Instead of compiling, assemble Mesa's listings (*.fs.asm) under this directory and
    /// estimate them with gpucc's cycle model, so that --compare measures both alike
    #[arg(long, value_name = "ASMDIR", conflicts_with_all = ["dir", "compare"])]
    mesa_asm: Option<PathBuf>,
    /// Write the CSV here instead of standard output
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Intel binding model of every shader (as `compile --binding`). A `NAME.nir.key` file
    /// beside a shader (a Mesa driver's GPUCC_MESA_DUMP writes one) gives that shader's key,
    /// one `NAME=VALUE` a line, and may replace the binding model with `binding=...`
    #[arg(long, value_parser = crate::compile::parse_binding, default_value = "gpucc")]
    binding: BindingModel,
    /// Compare two CSV files (Mesa's, then ours) and print totals and helped/hurt counts
    #[arg(long, num_args = 2, value_names = ["MESA_CSV", "OURS_CSV"])]
    compare: Option<Vec<PathBuf>>,
    /// With --compare: also list, per column, the N programs ours hurts most (largest
    /// increase over Mesa's, ties by name), the shaders a helped/HURT summary must explain
    #[arg(long, value_name = "N", requires = "compare", default_value_t = 0)]
    worst: usize,
}

fn widths(simd: &[String]) -> Vec<u32> {
    simd.iter().filter_map(|s| s.parse().ok()).collect()
}

/// The compile key of `--key name=value` arguments.
fn key(args: &[String]) -> Result<Key, Failure> {
    let mut key = Key::default();
    for a in args {
        let (name, value) = a
            .split_once('=')
            .ok_or_else(|| Failure::Usage(format!("--key {a}: expected name=value")))?;
        key.set(name.trim(), value).map_err(Failure::Usage)?;
    }
    Ok(key)
}

/// The `--binding` argument: `gpucc`, `mesa`, or `mesa:ranges=B/S/L,...` (the driver's own
/// UBO ranges, at most Mesa's four).
pub fn parse_binding(arg: &str) -> Result<BindingModel, String> {
    match arg {
        "gpucc" => return Ok(BindingModel::Gpucc),
        "mesa" => return Ok(BindingModel::Mesa),
        _ => {}
    }
    let list = arg.strip_prefix("mesa:ranges=").ok_or_else(|| {
        format!("`{arg}` is not gpucc, mesa or mesa:ranges=BLOCK/START/LENGTH,...")
    })?;
    let ranges = list
        .split(',')
        .filter(|r| !r.is_empty())
        .map(|r| {
            let n: Vec<u32> = r
                .split('/')
                .map(|v| v.parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("UBO range `{r}` is not BLOCK/START/LENGTH"))?;
            match n[..] {
                [block, start, length] if start + length <= 64 => Ok(UboRange {
                    block,
                    start,
                    length,
                }),
                [_, _, _] => Err(format!("UBO range `{r}` reaches past register 64")),
                _ => Err(format!("UBO range `{r}` is not BLOCK/START/LENGTH")),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    DriverRanges::new(&ranges)
        .map(BindingModel::MesaDriverRanges)
        .ok_or_else(|| format!("{} UBO ranges (Mesa has four)", ranges.len()))
}

fn compiler(name: &str) -> Result<Compiler, Failure> {
    Ok(Compiler::for_target(target(name)?))
}

pub fn compile(args: CompileArgs) -> Outcome {
    let compiler = compiler(&args.target)?;
    let shader = load(&args.file)?;
    let options = CompileOptions {
        simd: widths(&args.simd),
        key: key(&args.keys)?,
        binding: args.binding,
    };
    let program = compiler
        .compile(&shader, &options)
        .map_err(|e| input_error(&args.file, format_args!(" {e}")))?;
    let asm = args.asm.then(|| program.asm_text());
    if let Some(asm) = &asm {
        cli::out(asm);
    }
    if args.stats || (!args.asm && args.output.is_none()) {
        let stats = program.stats_text();
        match &asm {
            // The listing already opens each width with its statistics line, as Mesa's does:
            // print only what follows them (VUE map, input slots, facts).
            Some(asm) => {
                let shown: std::collections::HashSet<&str> = asm.lines().collect();
                let rest: String = stats
                    .lines()
                    .filter(|l| !shown.contains(l))
                    .map(|l| format!("{l}\n"))
                    .collect();
                cli::out(rest);
            }
            None => cli::out(stats),
        }
    }
    if let Some(out) = &args.output {
        write_output(out, &program.bytes)?;
    }
    Ok(())
}

pub fn verify(args: VerifyArgs) -> Outcome {
    let compiler = compiler(&args.target)?;
    let options = CompileOptions {
        simd: widths(&args.simd),
        key: key(&args.keys)?,
        binding: args.binding,
    };
    let (mut passed, mut failed, mut unsupported) = (0, 0, 0);
    for file in &args.files {
        let name = file.display().to_string();
        let outcome = match load(file) {
            Ok(shader) => compiler.verify_options(&shader, &options),
            Err(_) => VerifyOutcome::Error("cannot be read or parsed".into()),
        };
        match outcome {
            VerifyOutcome::Pass => passed += 1,
            VerifyOutcome::Unsupported(_) => unsupported += 1,
            _ => failed += 1,
        }
        cli::out(format_args!("{}\n", outcome.line(&name)));
    }
    cli::out(format_args!(
        "{passed} passed, {failed} failed, {unsupported} unsupported\n"
    ));
    if failed > 0 {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}

/// The CSV columns, the same as shared/corpus/mesa-stats/*.csv.
const CSV_HEADER: &str = "shader,stage,simd,instructions,cycles,spills,fills,sends,grfs,compile_us";

pub fn report(args: ReportArgs) -> Outcome {
    if let Some(files) = &args.compare {
        return compare(&files[0], &files[1], args.worst);
    }
    if let (Some(asm_dir), Some(name)) = (&args.mesa_asm, args.target.as_deref()) {
        let gpucc::target::Target::Intel(devinfo) = target(name)? else {
            return Err(Failure::Usage(
                "--mesa-asm reads Intel listings; give an Intel target".into(),
            ));
        };
        let csv = crate::estimate::mesa_asm_csv(devinfo, asm_dir, CSV_HEADER)?;
        return match &args.csv {
            Some(out) => write_output(out, csv.as_bytes()),
            None => {
                cli::out(csv);
                Ok(())
            }
        };
    }
    let (Some(name), Some(dir)) = (args.target.as_deref(), args.dir.as_deref()) else {
        return Err(Failure::Usage(
            "report needs --target and a directory".into(),
        ));
    };
    let compiler = compiler(name)?;
    if !dir.is_dir() {
        eprintln!("{}: not a directory", dir.display());
        return Err(Failure::Input);
    }
    let files = nir_files(dir);
    if files.is_empty() {
        eprintln!("{}: no .nir files", dir.display());
        return Err(Failure::Input);
    }
    let progress = std::io::stderr().is_terminal();
    let mut csv = String::from(CSV_HEADER);
    csv.push('\n');
    let (mut compiled, mut skipped) = (0, 0);
    for (i, file) in files.iter().enumerate() {
        if progress {
            eprint!("\r[{}/{}] {}\x1b[K", i + 1, files.len(), file.display());
        }
        let rel = file.strip_prefix(dir).unwrap_or(file).to_string_lossy();
        let shader_name = rel.strip_suffix(".nir").unwrap_or(&rel).to_string();
        let Ok(shader) = load(file) else {
            skipped += 1;
            continue;
        };
        let options = match sidecar_options(file, args.binding) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{shader_name}: {e}");
                skipped += 1;
                continue;
            }
        };
        let start = Instant::now();
        let result = compiler.compile(&shader, &options);
        let micros = start.elapsed().as_micros();
        let program = match result {
            Ok(p) => p,
            Err(e) => {
                if !progress {
                    eprintln!("{shader_name}: {e}");
                }
                skipped += 1;
                continue;
            }
        };
        compiled += 1;
        let stage = stage_name(&shader);
        for row in program.stats() {
            csv.push_str(&csv_row(&shader_name, stage, &row, micros));
        }
    }
    if progress {
        eprintln!();
    }
    eprintln!(
        "{compiled} compiled, {skipped} not compiled, of {} files",
        files.len()
    );
    match &args.csv {
        Some(out) => write_output(out, csv.as_bytes()),
        None => {
            cli::out(csv);
            Ok(())
        }
    }
}

fn stage_name(shader: &gpucc::nir::Shader) -> &'static str {
    match shader.stage() {
        gpucc::nir::Stage::Vertex => "vs",
        gpucc::nir::Stage::Compute => "cs",
        gpucc::nir::Stage::Geometry => "gs",
        _ => "fs",
    }
}

/// The options of one shader of a report: `binding` and no key, or what its `FILE.key`
/// says (key fields `NAME=VALUE`, and `binding=...` for its binding model).
fn sidecar_options(file: &Path, binding: BindingModel) -> Result<CompileOptions, String> {
    let mut options = CompileOptions {
        binding,
        ..Default::default()
    };
    let mut path = file.as_os_str().to_owned();
    path.push(".key");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(options);
    };
    for field in text.split_whitespace() {
        let (name, value) = field
            .split_once('=')
            .ok_or_else(|| format!("{}: `{field}` is not NAME=VALUE", path.to_string_lossy()))?;
        if name == "binding" {
            options.binding = parse_binding(value)?;
        } else {
            options.key.set(name, value)?;
        }
    }
    Ok(options)
}

fn csv_row(shader: &str, stage: &str, r: &StatsRow, micros: u128) -> String {
    let opt = |v: Option<u32>| v.map_or(String::new(), |v| v.to_string());
    // Mesa's stats files name SIMD4x2 rows `vec4`.
    let simd = match r.simd {
        Some(gpucc::intel::kernel::SIMD4X2) => "vec4".to_string(),
        other => opt(other),
    };
    format!(
        "{shader},{stage},{simd},{},{},{},{},{},{},{micros}\n",
        r.instructions,
        opt(r.cycles),
        opt(r.spills),
        opt(r.fills),
        opt(r.sends),
        r.grfs,
    )
}

pub fn nir_files(dir: &Path) -> Vec<PathBuf> {
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
            } else if p.extension().is_some_and(|x| x == "nir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// One row of a stats CSV, keyed by shader and SIMD width.
struct CsvRow {
    key: (String, String),
    values: [Option<u64>; 6],
}

const COLUMNS: [&str; 6] = ["instructions", "cycles", "spills", "fills", "sends", "grfs"];

fn read_csv(path: &Path) -> Result<Vec<CsvRow>, Failure> {
    let text = crate::cli::read_text(path)?;
    let mut lines = text.lines();
    if lines.next() != Some(CSV_HEADER) {
        return Err(input_error(
            path,
            format_args!("1:1: expected the header `{CSV_HEADER}`"),
        ));
    }
    let mut rows = Vec::new();
    for (n, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 10 {
            return Err(input_error(
                path,
                format_args!("{}:1: expected 10 columns", n + 2),
            ));
        }
        let mut values = [None; 6];
        for (v, s) in values.iter_mut().zip(&f[3..9]) {
            *v = s.parse().ok();
        }
        rows.push(CsvRow {
            key: (f[0].to_string(), f[2].to_string()),
            values,
        });
    }
    Ok(rows)
}

/// Prints shader-db style totals over the (shader, SIMD) pairs both files have, with
/// helped/hurt counts per column, the count of SIMD16 programs in each, and then the `worst`
/// most hurt programs of each column.
fn compare(mesa: &Path, ours: &Path, worst: usize) -> Outcome {
    let mesa_rows = read_csv(mesa)?;
    let our_rows = read_csv(ours)?;
    let ours_by_key: std::collections::HashMap<_, _> =
        our_rows.iter().map(|r| (&r.key, r)).collect();
    let pairs: Vec<(&CsvRow, &CsvRow)> = mesa_rows
        .iter()
        .filter_map(|m| ours_by_key.get(&m.key).map(|o| (m, *o)))
        .collect();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{} programs in both ({} in Mesa's, {} in ours)",
        pairs.len(),
        mesa_rows.len(),
        our_rows.len()
    );
    for (c, name) in COLUMNS.iter().enumerate() {
        let both: Vec<(u64, u64)> = pairs
            .iter()
            .filter_map(|(m, o)| Some((m.values[c]?, o.values[c]?)))
            .collect();
        if both.is_empty() {
            continue;
        }
        let (tm, to): (u64, u64) = both.iter().fold((0, 0), |(a, b), (m, o)| (a + m, b + o));
        let helped = both.iter().filter(|(m, o)| o < m).count();
        let hurt = both.iter().filter(|(m, o)| o > m).count();
        let pct = if tm > 0 {
            100.0 * (to as f64 - tm as f64) / tm as f64
        } else {
            0.0
        };
        let ratio = if tm > 0 { to as f64 / tm as f64 } else { 1.0 };
        let _ = writeln!(
            out,
            "total {name} in shared programs: {tm} -> {to} ({pct:+.2}%, ratio {ratio:.3}); helped: {helped}, HURT: {hurt}"
        );
    }
    let simd16 = |rows: &[CsvRow]| rows.iter().filter(|r| r.key.1 == "16").count();
    let _ = writeln!(
        out,
        "SIMD16 programs: Mesa {}, ours {}",
        simd16(&mesa_rows),
        simd16(&our_rows)
    );
    if worst > 0 {
        for (c, name) in COLUMNS.iter().enumerate() {
            let mut hurt: Vec<(u64, &str, &str, u64, u64)> = pairs
                .iter()
                .filter_map(|(m, o)| {
                    let (mv, ov) = (m.values[c]?, o.values[c]?);
                    (ov > mv).then(|| (ov - mv, m.key.0.as_str(), m.key.1.as_str(), mv, ov))
                })
                .collect();
            if hurt.is_empty() {
                continue;
            }
            hurt.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)).then(a.2.cmp(b.2)));
            let _ = writeln!(out, "most HURT {name}:");
            for (d, shader, simd, m, o) in hurt.iter().take(worst) {
                let _ = writeln!(out, "  {shader} SIMD{simd}: {m} -> {o} (+{d})");
            }
        }
    }
    Ok(())
}
