//! Each class of malformed NIR text is rejected with its line, column and what was expected.

use gpucc::nir::{self, ParseError};

fn base() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nir/if_phi.nir");
    std::fs::read_to_string(path).unwrap()
}

/// Replaces the first occurrence of `from` (which must exist) and returns the text with the
/// 1-based line and column where `from` started.
fn mutate(from: &str, to: &str) -> (String, usize, usize) {
    let text = base();
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("`{from}` not in the base text"));
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |p| p + 1) + 1;
    (text.replacen(from, to, 1), line, col)
}

fn error(text: &str) -> ParseError {
    match nir::parse(text) {
        Ok(_) => panic!("expected a parse error"),
        Err(e) => e,
    }
}

#[test]
fn base_text_parses() {
    nir::parse(&base()).unwrap();
}

#[test]
fn unknown_alu_opcode() {
    let (text, line, col) = mutate("fneg %2", "fnegate %2");
    let e = error(&text);
    assert_eq!((e.line, e.col), (line, col));
    assert!(
        e.message.contains("unknown ALU opcode") && e.message.contains("fnegate"),
        "{e}"
    );
    assert_eq!(e.to_string(), format!("{line}:{col}: {}", e.message));
}

#[test]
fn unknown_intrinsic() {
    let (text, line, col) = mutate("@load_barycentric_pixel", "@load_barycentric_pixle");
    let e = error(&text);
    assert_eq!((e.line, e.col), (line, col + 1));
    assert!(
        e.message
            .contains("unknown intrinsic `load_barycentric_pixle`"),
        "{e}"
    );
}

#[test]
fn unknown_texture_op_and_stage() {
    let e = error(&base().replace("MESA_SHADER_FRAGMENT", "MESA_SHADER_PIXEL"));
    assert_eq!(e.line, 1);
    assert!(e.message.contains("unknown shader stage"), "{e}");
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nir/tex_deref.nir");
    let tex = std::fs::read_to_string(path).unwrap();
    // Line and column of the first `from` in the texture text.
    let at = |from: &str| {
        let at = tex.find(from).unwrap();
        let line = tex[..at].matches('\n').count() + 1;
        (line, at - tex[..at].rfind('\n').map_or(0, |p| p + 1) + 1)
    };
    let (line, col) = at("tex %1");
    // A misspelt op, and a word that only starts like one.
    for op in ["texx", "txl_ms"] {
        let e = error(&tex.replace("(float32)tex %1", &format!("(float32){op} %1")));
        assert_eq!((e.line, e.col), (line, col), "{e}");
        assert!(
            e.message.contains(&format!("unknown texture op `{op}`")),
            "{e}"
        );
    }
    let e = error(&tex.replace("%1 (coord)", "%1 (coordinate)"));
    assert_eq!((e.line, e.col), at("%1 (coord)"), "{e}");
    assert!(
        e.message
            .contains("unknown texture source kind `coordinate`"),
        "{e}"
    );
    // A spelling later Mesa prints, which 23.3 does not have.
    let e = error(&tex.replace("%1 (coord)", "%1 (sampler_deref_intrinsic)"));
    assert!(
        e.message
            .contains("unknown texture source kind `sampler_deref_intrinsic`"),
        "{e}"
    );
}

#[test]
fn wrong_alu_source_count() {
    let (text, line, _) = mutate("flt %2.x, %3 (0.500000)", "flt %2.x");
    let e = error(&text);
    assert_eq!(e.line, line);
    assert!(e.message.contains("takes 2 sources, found 1"), "{e}");
    let (text, line, _) = mutate("fneg %2", "fneg %2, %2");
    let e = error(&text);
    assert_eq!(e.line, line);
    assert!(e.message.contains("takes 1 sources"), "{e}");
}

#[test]
fn wrong_intrinsic_source_count() {
    let (text, line, col) = mutate(
        "@load_interpolated_input (%1, %0 (0x0))",
        "@load_interpolated_input (%1)",
    );
    let e = error(&text);
    assert_eq!((e.line, e.col), (line, col + 1));
    assert!(e.message.contains("takes 2 sources, found 1"), "{e}");
}

#[test]
fn wrong_intrinsic_index_count() {
    let (text, line, _) = mutate("(interp_mode=1)", "(interp_mode=1, base=0)");
    let e = error(&text);
    assert_eq!(e.line, line);
    assert!(e.message.contains("takes 1 constant indices"), "{e}");
    let (text, _, _) = mutate("(interp_mode=1)", "(base=1)");
    assert!(error(&text).message.contains("expected `interp_mode=`"));
}

#[test]
fn bad_swizzles() {
    // A letter outside x y z w / a..p.
    let (text, line, col) = mutate("%2.wzyx", "%2.wzyq");
    let e = error(&text);
    assert_eq!((e.line, e.col), (line, col + 6));
    assert!(e.message.contains("bad swizzle letter `q`"), "{e}");
    // Too few letters for a 4-wide instruction.
    let (text, line, _) = mutate("%2.wzyx", "%2.wz");
    let e = error(&text);
    assert_eq!(e.line, line);
    assert!(
        e.message.contains("bad swizzle `.wz`") && e.message.contains("reads 4 components"),
        "{e}"
    );
}

#[test]
fn undefined_values() {
    let (text, line, col) = mutate("fneg %2", "fneg %9");
    let e = error(&text);
    assert_eq!((e.line, e.col), (line, col + 5));
    assert!(e.message.contains("undefined value %9"), "{e}");
    let (text, _, _) = mutate("phi b1: %5", "phi b7: %5");
    assert!(error(&text).message.contains("undefined block b7"));
}

#[test]
fn values_defined_twice() {
    let (text, line, _) = mutate("%6 = fneg", "%5 = fneg");
    let e = error(&text);
    assert_eq!(e.line, line);
    assert!(e.message.contains("%5 is defined twice"), "{e}");
}

#[test]
fn bad_def_sizes_and_constants() {
    let (text, _, _) = mutate("div 1     %4", "div 7     %4");
    assert!(error(&text).message.contains("invalid bit size 7"));
    let (text, _, _) = mutate("div 32x2  %1", "div 32x17 %1");
    assert!(error(&text).message.contains("invalid component count 17"));
    let (text, _, _) = mutate("(0x3f000000 = 0.500000)", "(0x13f000000)");
    assert!(error(&text).message.contains("does not fit in 32 bits"));
    let (text, _, _) = mutate("(0x3f000000 = 0.500000)", "(0x3f000000, 0x0)");
    assert!(error(&text).message.contains("2 values for 1 components"));
}

#[test]
fn truncated_input() {
    let text = base();
    // Cut in the middle of the header, of a declaration, of an instruction, and before the
    // closing brace: every cut is an error at the end of what remains, never a panic.
    for cut in [
        20,
        text.find("decl_var").unwrap() + 12,
        text.find("fmul").unwrap() + 2,
        text.len() - 3,
    ] {
        let part = &text[..cut];
        let e = error(part);
        let lines = part.lines().count();
        assert!(
            e.line >= lines.saturating_sub(1) && e.line <= lines,
            "cut {cut}: {e}"
        );
    }
    let e = error("");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("unexpected end of input"), "{e}");
    let e = error(&text[..text.find("    block b4:").unwrap()]);
    assert!(e.message.contains("unexpected end of input"), "{e}");
}

#[test]
fn structure_errors() {
    let (text, line, _) = mutate("    } else {\n", "");
    let e = error(&text);
    assert!(
        e.message.contains("expected `} else {`") || e.message.contains("expected"),
        "{e}"
    );
    assert!(e.line <= line);
    let (text, line, _) = mutate("    block b3:", "    blok b3:");
    let e = error(&text);
    assert_eq!(e.line, line);
    assert!(
        e.message.contains("expected `block`, `if`, `loop` or `}`"),
        "{e}"
    );
}

/// Header counts and sizes are 32-bit in NIR: a wider value is an error at its line, not a
/// value wrapped below the limits checked later (4294967296 once parsed as 0).
#[test]
fn header_counts_past_32_bits() {
    for (from, to, what) in [
        (
            "uniforms: 0",
            "uniforms: 4294967296",
            "uniform count 4294967296",
        ),
        ("inputs: 1", "inputs: 4294967297", "input count 4294967297"),
        (
            "outputs: 1",
            "outputs: 18446744073709551615",
            "output count",
        ),
        (
            "uniforms: 0",
            "uniforms: 0\nconstants: 4294967312",
            "constant data size 4294967312",
        ),
        (
            "uniforms: 0",
            "uniforms: 0\nscratch: 4294967300",
            "scratch size 4294967300",
        ),
        (
            "(0 params)",
            "(4294967296 params)",
            "parameter count 4294967296",
        ),
    ] {
        let (text, line, _) = mutate(from, to);
        let e = error(&text);
        let line = if to.contains('\n') { line + 1 } else { line };
        assert_eq!(e.line, line, "{to}: {e}");
        assert!(e.message.contains(what), "{to}: {e}");
        assert!(
            e.message.contains("does not fit 32 bits") || e.message.contains("out of range"),
            "{to}: {e}"
        );
    }
    // The largest 32-bit value still parses (the compiler's own limits judge it later).
    let (text, _, _) = mutate("inputs: 1", "inputs: 4294967295");
    assert_eq!(nir::parse(&text).unwrap().info.num_inputs, u32::MAX);
}

/// Intrinsic indices live in NIR's 32-bit `const_index` slots, printed signed or unsigned.
#[test]
fn intrinsic_index_past_32_bits() {
    let (text, line, _) = mutate("(base=32, component=0", "(base=4294967328, component=0");
    let e = error(&text);
    assert_eq!(e.line, line, "{e}");
    assert!(
        e.message.contains("`base` index 4294967328 does not fit"),
        "{e}"
    );
    let (text, _, _) = mutate("(base=32, component=0", "(base=-2147483649, component=0");
    assert!(error(&text).message.contains("does not fit"));
    // Both ends of the range parse.
    for v in ["4294967295", "-2147483648"] {
        let (text, _, _) = mutate("(base=32, component=0", &format!("(base={v}, component=0"));
        nir::parse(&text).unwrap();
    }
}
