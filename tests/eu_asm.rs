//! Assembler diagnostics: errors carry the line and column of the problem, and no input makes
//! the assembler panic.

mod common;

use gpucc::intel::eu;
use gpucc::intel::DevInfo;
use gpucc::util::rng::Rng;

#[test]
fn errors_name_line_and_column() {
    let d = DevInfo::from_name("ivb").unwrap();
    let text =
        "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\n   frob(8) g2<1>F g3<8,8,1>F { align1 1Q };\n";
    let e = eu::assemble(d, text).unwrap_err();
    assert_eq!((e.line, e.col), (2, 4), "{e}");
    assert!(e.message.contains("frob"), "{e}");

    let e = eu::assemble(d, "mov(8) g2<1>F g3<8,8,1>XF { align1 1Q };").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.contains("type"), "{e}");

    let e = eu::assemble(d, "mov(8) g2<1>F g3<8,8,1>F { align1 1Q }").unwrap_err();
    assert!(e.message.contains(";"), "{e}");

    let e = eu::assemble(d, "(+f0.0) if(8) JIP: NOWHERE UIP: NOWHERE { align1 1Q };").unwrap_err();
    assert!(e.message.contains("NOWHERE"), "{e}");
    assert_eq!(e.col, 20);

    // Gen-specific checks: f1 needs Gen7, opcodes exist per generation.
    let snb = DevInfo::from_name("snb").unwrap();
    assert!(eu::assemble(snb, "(+f1.0) mov(8) g2<1>F g3<8,8,1>F { align1 1Q };").is_err());
    assert!(eu::assemble(snb, "bfrev(8) g2<1>UD g3<8,8,1>UD { align1 1Q };").is_err());
}

#[test]
fn mutated_vectors_never_panic() {
    let Some(dir) = common::shared_path("vectors/intel") else {
        return;
    };
    let mut rng = Rng::new(0xa55e_b1e5);
    let alphabet: Vec<char> = "0123456789abcdefxgmUDWFBVQ<>,.:;{}()[]-+~ \n\tJIPUOHLABEL_"
        .chars()
        .collect();
    for platform in ["brw", "snb", "ivb", "bdw", "hsw", "skl"] {
        let d = DevInfo::from_name(platform).unwrap();
        let src = if platform == "hsw" {
            "ivb"
        } else if platform == "skl" {
            "bdw"
        } else {
            platform
        };
        for f in common::files_with_suffix(&dir.join(src), ".asm")
            .into_iter()
            .take(12)
        {
            let text: Vec<char> = std::fs::read_to_string(&f).unwrap().chars().collect();
            for _ in 0..40 {
                let mut t = text.clone();
                for _ in 0..1 + rng.below(4) {
                    let pos = rng.below(t.len() as u64 + 1) as usize;
                    match rng.below(3) {
                        0 if pos < t.len() => {
                            t.remove(pos);
                        }
                        1 => t.insert(pos, *rng.pick(&alphabet)),
                        _ if pos < t.len() => t[pos] = *rng.pick(&alphabet),
                        _ => {}
                    }
                }
                let t: String = t.into_iter().collect();
                if let Ok(insts) = eu::assemble(d, &t) {
                    for i in &insts {
                        let _ = eu::encode(d, i);
                    }
                    let _ = eu::validate(d, &insts);
                    let _ = eu::encode_program_compacted(d, &insts);
                }
            }
        }
    }
}
