//! `gpucc report --mesa-asm`: Mesa's listings measured with gpucc's estimator, in the report
//! CSV format, so that `report --compare` compares like with like.

use std::path::PathBuf;
use std::process::{Command, Output};

fn gpucc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args(args)
        .output()
        .expect("run gpucc")
}

/// A fresh directory under the system temp dir for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpucc-cycles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Mesa's listing of piglit glsl-algebraic-add-sub-1 on Ivy Bridge, both widths.
const LISTING: &str = "\
Native code for unnamed fragment shader GLSL447 (src_hash 0x00000000) (sha1 3919)
SIMD8 shader: 5 instructions. 0 loops. 24 cycles. 0:0 spills:fills, 1 sends, scheduled with mode top-down. Promoted 0 constants. Compacted 80 to 64 bytes (20%)
   START B0 (24 cycles)
add(8)          g124<1>F        g2<0,1,0>F      0xbf000000F  /* -0.5F */ { align1 1Q };
mov(8)          g125<1>F        g2.1<0,1,0>F                    { align1 1Q compacted };
mov(8)          g126<1>F        g2.2<0,1,0>F                    { align1 1Q compacted };
mov(8)          g127<1>F        g2.3<0,1,0>F                    { align1 1Q compacted };
sendc(8)        null<1>UW       g124<8,8,1>UD   0x88031400
                            render MsgDesc: RT write SIMD8 LastRT Surface = 0  mlen 4 rlen 0 { align1 1Q EOT };
   END B0

Native code for unnamed fragment shader GLSL447 (src_hash 0x00000000) (sha1 9483)
SIMD16 shader: 5 instructions. 0 loops. 32 cycles. 0:0 spills:fills, 1 sends, scheduled with mode top-down. Promoted 0 constants. Compacted 80 to 64 bytes (20%)
   START B0 (32 cycles)
add(16)         g120<1>F        g2<0,1,0>F      0xbf000000F  /* -0.5F */ { align1 1H };
mov(16)         g122<1>F        g2.1<0,1,0>F                    { align1 1H compacted };
mov(16)         g124<1>F        g2.2<0,1,0>F                    { align1 1H compacted };
mov(16)         g126<1>F        g2.3<0,1,0>F                    { align1 1H compacted };
sendc(16)       null<1>UW       g120<8,8,1>UD   0x90031000
                            render MsgDesc: RT write SIMD16 LastRT Surface = 0  mlen 8 rlen 0 { align1 1H EOT };
   END B0
";

/// The rows carry the estimate (24 and 32 cycles, derived by hand in the estimator's unit
/// tests and equal to Mesa's printed figures), the instruction and send counts of the
/// assembled code, and Mesa's spill counts; vertex-shader listings are not read.
#[test]
fn report_mesa_asm_writes_estimates_in_the_report_format() {
    let dir = scratch("rows");
    let asm_dir = dir.join("asm");
    std::fs::create_dir_all(asm_dir.join("sub")).unwrap();
    std::fs::write(asm_dir.join("sub/add.fs.asm"), LISTING).unwrap();
    std::fs::write(
        asm_dir.join("add.vs.asm"),
        "VS vec4 shader: 1 instructions.\n",
    )
    .unwrap();
    let csv = dir.join("mesa.csv");
    let out = gpucc(&[
        "report",
        "--target",
        "ivb",
        "--mesa-asm",
        asm_dir.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(
        text,
        "shader,stage,simd,instructions,cycles,spills,fills,sends,grfs,compile_us\n\
         sub/add.fs,fs,8,5,24,0,0,1,,\n\
         sub/add.fs,fs,16,5,32,0,0,1,,\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2 programs estimated from 1 listings, 0 not assembled"),
        "{stderr}"
    );
    assert!(stderr.contains("2 exact"), "{stderr}");

    // Comparing the file with itself: equal totals, nothing helped or hurt.
    let c = csv.to_str().unwrap();
    let out = gpucc(&["report", "--compare", c, c]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "total cycles in shared programs: 56 -> 56 (+0.00%, ratio 1.000); helped: 0, HURT: 0"
        ),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A listing that does not assemble is named with its line (the listing's, not the
/// program's) and the others are still measured; the command then succeeds with fewer rows.
#[test]
fn report_mesa_asm_names_programs_that_do_not_assemble() {
    let dir = scratch("bad");
    let broken = LISTING.replace("mov(16)         g122<1>F", "frob(16)        g122<1>F");
    std::fs::write(dir.join("x.fs.asm"), broken).unwrap();
    let out = gpucc(&[
        "report",
        "--target",
        "ivb",
        "--mesa-asm",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("x.fs.asm:16:"), "{stderr}");
    assert!(
        stderr.contains("1 programs estimated from 1 listings, 1 not assembled"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_mesa_asm_needs_an_intel_target() {
    let dir = scratch("target");
    let out = gpucc(&[
        "report",
        "--target",
        "gc2000",
        "--mesa-asm",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gpucc estimate` on plain assembly: the clock after each instruction and its step. Ivy
/// Bridge float add: issue 2, result after 14, so the dependent add issues at 16 and ends at
/// 18 (+16); the independent one follows at 20.
#[test]
fn estimate_prints_the_clock_of_each_instruction() {
    let dir = scratch("estimate");
    let file = dir.join("chain.asm");
    std::fs::write(
        &file,
        "add(8) g10<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };\n\
         add(8) g11<1>F g10<8,8,1>F g3<8,8,1>F { align1 1Q };\n\
         add(8) g12<1>F g4<8,8,1>F g5<8,8,1>F { align1 1Q };\n",
    )
    .unwrap();
    let out = gpucc(&["estimate", "--target", "ivb", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("SIMD8: 3 instructions, 20 cycles, throughput "),
        "{text}"
    );
    let steps: Vec<Vec<&str>> = lines[1..]
        .iter()
        .map(|l| l.split_whitespace().take(3).collect())
        .collect();
    assert_eq!(
        steps,
        vec![
            vec!["2", "+2", "add(8)"],
            vec!["18", "+16", "add(8)"],
            vec!["20", "+2", "add(8)"]
        ]
    );

    // A listing states its width and the figure it printed.
    let listing = dir.join("mesa.fs.asm");
    std::fs::write(&listing, LISTING).unwrap();
    let out = gpucc(&["estimate", "--target", "ivb", listing.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("SIMD8: 5 instructions, 24 cycles (the listing says 24)"),
        "{text}"
    );
    assert!(
        text.contains("SIMD16: 5 instructions, 32 cycles (the listing says 32)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
