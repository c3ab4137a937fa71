//! The `gpucc` command line: exit statuses, error format and the verbs' outputs on small
//! hand-written inputs.

use std::path::Path;
use std::process::{Command, Output};

fn gpucc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gpucc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn tmp(name: &str, contents: &str) -> String {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&p, contents).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn nir_check_accepts_the_example_and_reports_errors_with_location() {
    let ok = gpucc(&["nir", "check", "examples/intel/gradient.fs.nir"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));

    let bad = tmp("bad.nir", "shader: MESA_SHADER_FRAGMENT\nbogus line\n");
    let out = gpucc(&["nir", "check", &bad]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.starts_with(&format!("{bad}:2:1: ")), "{err}");
}

#[test]
fn nir_print_is_a_fixed_point_on_the_example() {
    let out = gpucc(&["nir", "print", "examples/intel/gradient.fs.nir"]);
    assert_eq!(out.status.code(), Some(0));
    let printed = tmp("printed.nir", &text(&out.stdout));
    let again = gpucc(&["nir", "print", &printed]);
    assert_eq!(text(&again.stdout), text(&out.stdout));
}

#[test]
fn usage_errors_exit_with_2() {
    assert_eq!(gpucc(&["nir", "bogus"]).status.code(), Some(2));
    let out = gpucc(&["asm", "--target", "gen12", "x.asm"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("unknown target 'gen12'") && err.contains("ivb"),
        "{err}"
    );
}

#[test]
fn intel_asm_and_disasm_round_trip() {
    // The encodings themselves are checked against Mesa's vectors in tests/eu_vectors.rs; this
    // checks the verbs' plumbing: assembled text disassembles to the same instruction.
    let src = tmp(
        "mov.asm",
        "mov(8)          g10<1>UD        g2<8,8,1>UD     { align1 1Q };\n",
    );
    let asm = gpucc(&["asm", "--target", "ivb", &src]);
    assert_eq!(asm.status.code(), Some(0), "{}", text(&asm.stderr));
    let hex = tmp("mov.hex", &text(&asm.stdout));
    let dis = gpucc(&["disasm", "--target", "ivb", &hex]);
    assert_eq!(dis.status.code(), Some(0), "{}", text(&dis.stderr));
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(
        squash(&text(&dis.stdout)),
        squash("mov(8) g10<1>UD g2<8,8,1>UD { align1 1Q };")
    );
}

#[test]
fn device_reports_absence_cleanly() {
    let out = gpucc(&["device"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let has_nodes = std::fs::read_dir("/dev/dri")
        .map(|rd| {
            rd.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
        })
        .unwrap_or(false);
    if !has_nodes {
        assert_eq!(text(&out.stdout), "no render nodes\n");
    }
}

#[test]
fn targets_lists_every_design_name() {
    let out = text(&gpucc(&["targets"]).stdout);
    for name in [
        "brw", "g4x", "ilk", "snb", "ivb", "hsw", "bdw", "skl", "gc2000", "gc3000", "gc7000",
    ] {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "{name}: {out}"
        );
    }
}

#[test]
fn compile_prints_mesa_worded_stats() {
    let out = gpucc(&[
        "compile",
        "--target",
        "ivb",
        "examples/intel/gradient.fs.nir",
        "--stats",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stats = text(&out.stdout);
    assert!(stats.starts_with("SIMD8 shader: "), "{stats}");
    assert!(
        stats.contains(" instructions. ") && stats.contains(" spills:fills, "),
        "{stats}"
    );

    let out = gpucc(&[
        "compile",
        "--target",
        "gc3000",
        "examples/etnaviv/gradient.fs.nir",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("FRAG shader: "));

    // Gen4 has no scalar backend: an input error naming the reason.
    let out = gpucc(&[
        "compile",
        "--target",
        "brw",
        "examples/intel/gradient.fs.nir",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unsupported"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn verify_output_format() {
    let out = gpucc(&[
        "verify",
        "--target",
        "bdw",
        "examples/intel/gradient.fs.nir",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout),
        "PASS examples/intel/gradient.fs.nir\n1 passed, 0 failed, 0 unsupported\n"
    );
    // GC2000 has no integer comparisons: unsupported, which is not a failure.
    let out = gpucc(&[
        "verify",
        "--target",
        "gc2000",
        "examples/etnaviv/gradient.fs.nir",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let lines = text(&out.stdout);
    assert!(
        lines.starts_with("UNSUPPORTED examples/etnaviv/gradient.fs.nir: "),
        "{lines}"
    );
    assert!(
        lines.ends_with("0 passed, 0 failed, 1 unsupported\n"),
        "{lines}"
    );
}

#[test]
fn report_writes_the_mesa_stats_columns_and_compares() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-in");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::copy(
        "examples/intel/gradient.fs.nir",
        dir.join("sub/gradient.fs.nir"),
    )
    .unwrap();
    let csv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ours.csv");
    let out = gpucc(&[
        "report",
        "--target",
        "ivb",
        &dir.to_string_lossy(),
        "--csv",
        &csv.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ours = std::fs::read_to_string(&csv).unwrap();
    let mut lines = ours.lines();
    assert_eq!(
        lines.next(),
        Some("shader,stage,simd,instructions,cycles,spills,fills,sends,grfs,compile_us")
    );
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&row[..3], &["sub/gradient.fs", "fs", "8"]);
    assert_eq!(row.len(), 10);

    // A hand-written "Mesa" file with one more instruction for the SIMD8 program: ours helps it.
    let simd8 = ours.lines().nth(1).unwrap();
    let n: u64 = row[3].parse().unwrap();
    let mesa_row = simd8.replacen(&format!(",8,{n},"), &format!(",8,{},", n + 1), 1);
    let mesa = tmp(
        "mesa.csv",
        &format!("shader,stage,simd,instructions,cycles,spills,fills,sends,grfs,compile_us\n{mesa_row}\n"),
    );
    let cmp = gpucc(&["report", "--compare", &mesa, &csv.to_string_lossy()]);
    assert_eq!(cmp.status.code(), Some(0), "{}", text(&cmp.stderr));
    let report = text(&cmp.stdout);
    let expected = format!("total instructions in shared programs: {} -> {n} ", n + 1);
    assert!(report.contains(&expected), "{report}");
    assert!(report.contains("helped: 1, HURT: 0"), "{report}");
    assert!(!report.contains("most HURT"), "{report}");

    // Three hand-written programs against Mesa's: `b` loses 5 instructions, `a` loses 2, `c`
    // wins; `--worst 1` names only `b`, `--worst 5` both losers, largest first.
    let header = "shader,stage,simd,instructions,cycles,spills,fills,sends,grfs,compile_us\n";
    let mesa = tmp(
        "mesa3.csv",
        &format!("{header}a,fs,8,10,,,,,,\nb,fs,16,20,,,,,,\nc,fs,8,30,,,,,,\n"),
    );
    let ours = tmp(
        "ours3.csv",
        &format!("{header}a,fs,8,12,,,,,,\nb,fs,16,25,,,,,,\nc,fs,8,29,,,,,,\n"),
    );
    let worst = |n: &str| {
        let out = gpucc(&["report", "--compare", &mesa, &ours, "--worst", n]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let one = worst("1");
    assert!(
        one.ends_with("most HURT instructions:\n  b SIMD16: 20 -> 25 (+5)\n"),
        "{one}"
    );
    let five = worst("5");
    assert!(
        five.ends_with(
            "most HURT instructions:\n  b SIMD16: 20 -> 25 (+5)\n  a SIMD8: 10 -> 12 (+2)\n"
        ),
        "{five}"
    );
}

/// Output into a pipe nobody reads (`gpucc ... | head` after head exits) ends the program
/// quietly with status 0, as for other command-line tools, instead of a panic (exit 101).
#[test]
fn a_closed_output_pipe_ends_quietly() {
    for args in [
        &[
            "compile",
            "--target",
            "bdw",
            "examples/intel/gradient.fs.nir",
            "--asm",
        ][..],
        &[
            "verify",
            "--target",
            "gc7000",
            "examples/etnaviv/gradient.fs.nir",
        ][..],
        &["report", "--target", "bdw", "examples/intel"][..],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("gpucc runs");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A report over a directory that is not there, or holds no shaders, is an input error,
/// not an empty success.
#[test]
fn report_on_a_missing_or_empty_directory_fails() {
    let out = gpucc(&["report", "--target", "ivb", "no/such/dir"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no/such/dir: not a directory"),
        "{}",
        text(&out.stderr)
    );
    let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-report-dir");
    std::fs::create_dir_all(&empty).unwrap();
    let out = gpucc(&["report", "--target", "ivb", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no .nir files"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bench_compile_once_compiles_each_file_once() {
    // Two files: the example compiles for ivb; the geometry shader does not (no backend
    // compiles that stage), so exactly one of two compiles.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-once");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy("examples/intel/gradient.fs.nir", dir.join("a.fs.nir")).unwrap();
    std::fs::write(
        dir.join("b.gs.nir"),
        "shader: MESA_SHADER_GEOMETRY\nname: gs\ninputs: 0\noutputs: 0\nuniforms: 0\n\
         decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds:\n\
         // succs: b1\n    block b1:\n}\n",
    )
    .unwrap();
    let out = gpucc(&[
        "bench",
        "compile",
        "--once",
        "--target",
        "ivb",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "2 files, 1 compile (each compiled once)\n"
    );
}

/// `--key name=value`: with `apply_nir_keys=1` (the example is hand-written, cut before
/// Mesa's key lowering) the Vivante example's colour comes out with red and blue swapped (red,
/// computed in the branches, goes to the output's z rather than x, and blue's constant to
/// x); without it `frag_rb_swap=1` is taken as already in the NIR, as at Mesa's hand-over, and
/// changes nothing. An unknown key is a usage error naming it, a key of the other family is an
/// input error naming the field, and so is a key the NIR contradicts.
#[test]
fn compile_key_flags() {
    let file = "examples/etnaviv/gradient.fs.nir";
    let plain = gpucc(&["compile", "--target", "gc3000", file, "--asm"]);
    assert_eq!(plain.status.code(), Some(0), "{}", text(&plain.stderr));
    let handover = gpucc(&[
        "compile",
        "--target",
        "gc3000",
        file,
        "--asm",
        "--key",
        "frag_rb_swap=1",
    ]);
    assert_eq!(
        handover.status.code(),
        Some(0),
        "{}",
        text(&handover.stderr)
    );
    assert_eq!(text(&plain.stdout), text(&handover.stdout));
    let swapped = gpucc(&[
        "compile",
        "--target",
        "gc3000",
        file,
        "--asm",
        "--key",
        "frag_rb_swap=1",
        "--key",
        "apply_nir_keys=1",
    ]);
    assert_eq!(swapped.status.code(), Some(0), "{}", text(&swapped.stderr));
    assert_ne!(text(&plain.stdout), text(&swapped.stdout));
    // The output register is t0; red is the only channel read from a temporary.
    let red_from_temp = |asm: &str, mask: &str| {
        asm.lines()
            .any(|l| l.contains(&format!("t0.{mask},")) && l.contains("mov") && l.contains(", t"))
    };
    let swapped_asm = text(&swapped.stdout);
    assert!(red_from_temp(&swapped_asm, "__z_"), "{swapped_asm}");
    assert!(!red_from_temp(&text(&plain.stdout), "__z_"));
    let verified = gpucc(&[
        "verify",
        "--target",
        "gc3000",
        file,
        "--key",
        "frag_rb_swap=1",
        "--key",
        "apply_nir_keys=1",
    ]);
    assert_eq!(
        verified.status.code(),
        Some(0),
        "{}",
        text(&verified.stdout)
    );

    let unknown = gpucc(&["compile", "--target", "gc3000", file, "--key", "rb_swap=1"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("unknown key \"rb_swap\""));

    let wrong = gpucc(&[
        "compile",
        "--target",
        "gc3000",
        file,
        "--key",
        "flat_shade=1",
    ]);
    assert_eq!(wrong.status.code(), Some(1));
    let err = text(&wrong.stderr);
    assert!(
        err.contains("flat_shade=1") && err.contains("Intel key"),
        "{err}"
    );

    // A gl_Color left INTERP_MODE_NONE is NIR from before brw_nir_lower_fs_inputs: with
    // flat_shade=1 the message names the key, the slot and apply_nir_keys.
    let early = tmp("early-color.fs.nir", EARLY_COLOR_FS);
    let early = early.as_str();
    let refused = gpucc(&["compile", "--target", "ivb", early, "--key", "flat_shade=1"]);
    assert_eq!(refused.status.code(), Some(1));
    let err = text(&refused.stderr);
    for needle in ["flat_shade=1", "VARYING_SLOT_COL0", "apply_nir_keys=1"] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    let applied = gpucc(&[
        "verify",
        "--target",
        "ivb",
        early,
        "--key",
        "flat_shade=1",
        "--key",
        "apply_nir_keys=1",
    ]);
    assert_eq!(applied.status.code(), Some(0), "{}", text(&applied.stdout));
}

/// gl_Color copied to gl_FragColor, its interpolation not yet decided (INTERP_MODE_NONE).
const EARLY_COLOR_FS: &str = include_str!("data/nir/color_interp_none.fs.nir");

/// `--asm --stats`: the listing opens each width with its statistics line, so the statistics
/// that follow it do not repeat those lines (they once came twice).
#[test]
fn asm_and_stats_print_each_statistics_line_once() {
    let out = gpucc(&[
        "compile",
        "--target",
        "ivb",
        "examples/intel/gradient.fs.nir",
        "--asm",
        "--stats",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for width in ["SIMD8 shader: ", "SIMD16 shader: "] {
        assert_eq!(
            stdout.lines().filter(|l| l.starts_with(width)).count(),
            1,
            "{width}\n{stdout}"
        );
    }
}
