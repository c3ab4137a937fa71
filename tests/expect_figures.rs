//! The exact-figures machinery of the corpus tests (tests/common/expect.rs): what a changed,
//! new or vanished figure reports, that blessing touches only the owner's lines, and that the
//! checked-in file is in the form blessing writes.

mod common;

use std::collections::BTreeMap;

use common::expect::{diff, merge, read, render};

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The file of a run where fmin broke: 14 ivb SIMD8 shaders fail verification.
fn file() -> BTreeMap<String, String> {
    map(&[
        ("ivb.fs.verify_simd8.failed", "0"),
        ("ivb.fs.verify_simd8.passed", "577"),
        ("ivb.fs.verify_simd8.unsupported", "3"),
        // Another owner whose name starts with the first one's: never read as its lines.
        ("ivb.fs.verify_simd8_extra.failed", "5"),
        ("ivb.fs.verify.failed", "7"),
    ])
}

#[test]
fn a_changed_figure_is_named_with_its_old_and_new_value() {
    let got = map(&[("failed", "14"), ("passed", "563"), ("unsupported", "3")]);
    assert_eq!(
        diff(&file(), "ivb.fs.verify_simd8", &got),
        [
            "ivb.fs.verify_simd8.failed: 0 -> 14",
            "ivb.fs.verify_simd8.passed: 577 -> 563"
        ]
    );
}

#[test]
fn new_and_vanished_figures_are_differences_too() {
    let got = map(&[("failed", "0"), ("passed", "577"), ("timeouts", "0")]);
    assert_eq!(
        diff(&file(), "ivb.fs.verify_simd8", &got),
        [
            "ivb.fs.verify_simd8.timeouts: (no expectation) -> 0",
            "ivb.fs.verify_simd8.unsupported: 3 -> (not measured)"
        ]
    );
    // An owner the file does not know yet: every figure is new.
    assert_eq!(
        diff(&file(), "bdw.fs.verify_simd8", &map(&[("failed", "0")])),
        ["bdw.fs.verify_simd8.failed: (no expectation) -> 0"]
    );
}

#[test]
fn the_same_figures_give_no_difference() {
    let got = map(&[("failed", "0"), ("passed", "577"), ("unsupported", "3")]);
    assert!(diff(&file(), "ivb.fs.verify_simd8", &got).is_empty());
}

#[test]
fn blessing_replaces_only_the_owners_lines() {
    let mut f = file();
    let got = map(&[("failed", "14"), ("passed", "563")]);
    let changes = merge(&mut f, "ivb.fs.verify_simd8", &got);
    assert_eq!(
        changes,
        [
            "ivb.fs.verify_simd8.failed: 0 -> 14",
            "ivb.fs.verify_simd8.passed: 577 -> 563",
            "ivb.fs.verify_simd8.unsupported: 3 -> (not measured)"
        ]
    );
    assert_eq!(
        f,
        map(&[
            ("ivb.fs.verify_simd8.failed", "14"),
            ("ivb.fs.verify_simd8.passed", "563"),
            ("ivb.fs.verify_simd8_extra.failed", "5"),
            ("ivb.fs.verify.failed", "7"),
        ])
    );
}

#[test]
fn the_file_renders_sorted_and_grouped_by_platform_and_reads_back() {
    let f = map(&[("ivb.a.x", "1"), ("bdw.a.y", "0.950"), ("bdw.a.x", "2")]);
    let text = render(&f);
    let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        body,
        ["", "bdw.a.x = 2", "bdw.a.y = 0.950", "", "ivb.a.x = 1"]
    );
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("expect-figures-{}.txt", std::process::id()));
    std::fs::write(&p, &text).unwrap();
    assert_eq!(read(&p), f);
    std::fs::remove_file(&p).unwrap();
}

/// The checked-in expectations are in exactly the form blessing writes (so a hand edit that
/// breaks the order or the format shows), and every key is `<platform>.<area>...<figure>`.
#[test]
fn checked_in_expectations_are_in_blessed_form() {
    let p = common::expect::path();
    let text = std::fs::read_to_string(&p).unwrap();
    let f = read(&p);
    assert!(!f.is_empty(), "{} holds no figures", p.display());
    assert_eq!(render(&f), text, "{} is not in blessed form", p.display());
    for k in f.keys() {
        assert!(
            k.split('.').count() >= 3,
            "{k}: not <platform>.<area>.<figure>"
        );
    }
}
