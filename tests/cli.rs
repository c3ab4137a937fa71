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
    let ok = gpucc(&["nir", "check", "examples/gradient.fs.nir"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));

    let bad = tmp("bad.nir", "shader: MESA_SHADER_FRAGMENT\nbogus line\n");
    let out = gpucc(&["nir", "check", &bad]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.starts_with(&format!("{bad}:2:1: ")), "{err}");
}

#[test]
fn nir_print_is_a_fixed_point_on_the_example() {
    let out = gpucc(&["nir", "print", "examples/gradient.fs.nir"]);
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
