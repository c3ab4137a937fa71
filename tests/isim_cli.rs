//! The `gpucc sim` library entry point.

use gpucc::intel::sim::cli;
use gpucc::intel::DevInfo;

#[test]
fn assembles_sets_runs_and_dumps() {
    let d = DevInfo::from_name("ivb").unwrap();
    let src = "
add(8)          g10<1>F         g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };
mul(8)          g11<1>D         g4<8,8,1>D      0x00000003UD    { align1 1Q };
";
    let out = cli::run(
        d,
        src,
        8,
        &[
            "g2=1.0,2.5,-1.0".to_string(),
            "g3=0.5,0.5,0.5".to_string(),
            "g4=7,-2,0x10".to_string(),
        ],
        &["g10-g11".to_string()],
    )
    .unwrap();
    // 1.5 = 0x3fc00000, 3.0 = 0x40400000, -0.5 = 0xbf000000; 21, -6, 48.
    assert!(out.contains("g10  3fc00000 40400000 bf000000"), "{out}");
    assert!(out.contains("g11  00000015 fffffffa 00000030"), "{out}");
    assert!(out.contains("[1.5, 3, -0.5"), "{out}");
    assert!(out.contains("no EOT"));
}

#[test]
fn bad_arguments_are_errors() {
    let d = DevInfo::from_name("bdw").unwrap();
    let nop = "nop                                                             ;";
    assert!(cli::run(d, nop, 8, &["x2=1".into()], &[])
        .unwrap_err()
        .contains("GRF"));
    assert!(cli::run(d, nop, 8, &["g2=abc".into()], &[])
        .unwrap_err()
        .contains("abc"));
    assert!(cli::run(d, nop, 8, &[], &["g5-g3".into()])
        .unwrap_err()
        .contains("empty"));
    assert!(cli::run(d, nop, 64, &[], &[]).unwrap_err().contains("SIMD"));
    assert!(cli::run(d, "bogus(8) g2<1>F", 8, &[], &[])
        .unwrap_err()
        .contains("assembly"));
    // Gen4-Gen6 are in the model since the MRF file and their messages were added.
    let old = DevInfo::from_name("snb").unwrap();
    assert!(cli::run(old, nop, 8, &[], &[]).is_ok());
}
