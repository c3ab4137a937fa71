//! Byte and word extraction (`extract_u8`, `extract_i8`, `extract_u16`, `extract_i16`): every
//! selector run on the EU simulator against the reference interpreter, and the instruction
//! count of the forms that need only one instruction: a field that starts at bit 0 and is
//! zero-extended is an AND with its mask, and a field that ends at bit 31 is one shift (logical
//! for unsigned, arithmetic for signed). Mesa's NIR hands the ubershaders 17 `extract_u8 x, 0`
//! each, so the one-instruction forms are worth having.

mod common;

use common::intel_fs::{asm, fs_reading_v, passes_everywhere};

/// A shader whose per-pixel dword `%6` has bits set in every byte (the interpolated input
/// scaled, converted and XORed with a constant whose top bit is set, so signed extraction sees
/// negative bytes and words), then extracts every byte and word of it, signed and unsigned,
/// and writes weighted sums so a wrong field in any one place changes the colour.
fn extracts() -> String {
    let mut body = String::from(
        "    32    %3 = load_const (0x4e6e6b28)\n\
         \x20   32    %4 = fmul %2.x, %3\n\
         \x20   32    %5 = f2u32 %4\n\
         \x20   32    %50 = load_const (0x8a5c3e71)\n\
         \x20   32    %6 = ixor %5, %50\n\
         \x20   32    %7 = load_const (0x00000001)\n\
         \x20   32    %8 = load_const (0x00000002)\n\
         \x20   32    %9 = load_const (0x00000003)\n\
         \x20   32    %51 = load_const (0x00000005)\n\
         \x20   32    %52 = load_const (0x00000007)\n",
    );
    let sel = ["%1", "%7", "%8", "%9"];
    let weight = ["%7", "%9", "%51", "%52"];
    let mut sums = Vec::new();
    for (n, (op, count)) in [
        ("extract_u8", 4),
        ("extract_i8", 4),
        ("extract_u16", 2),
        ("extract_i16", 2),
    ]
    .into_iter()
    .enumerate()
    {
        let base = 100 + 20 * n;
        let mut acc = String::new();
        for k in 0..count {
            let e = base + 2 * k;
            body += &format!("    32    %{e} = {op} %6, {}\n", sel[k]);
            body += &format!("    32    %{} = imul %{e}, {}\n", e + 1, weight[k]);
            if acc.is_empty() {
                acc = format!("%{}", e + 1);
            } else {
                let s = base + 10 + k;
                body += &format!("    32    %{s} = iadd {acc}, %{}\n", e + 1);
                acc = format!("%{s}");
            }
        }
        let f = base + 19;
        body += &format!("    32    %{f} = i2f32 {acc}\n");
        sums.push(format!("%{f}"));
    }
    body += &format!(
        "    32x4  %90 = vec4 {}\n\
         \x20   @store_output (%90, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
         \x20   // succs: b1\n    block b1:\n}}\n",
        sums.join(", ")
    );
    fs_reading_v("extracts", "", "", "", &body)
}

#[test]
fn every_byte_and_word_extraction_matches_the_interpreter() {
    passes_everywhere(&extracts());
}

/// One extraction written to the colour, compiled at SIMD8 on ivb: the number of ALU
/// instructions between the input's conversion and the colour's conversion back to float.
fn alu_between(op: &str, sel: u32) -> Vec<String> {
    let body = format!(
        "    32    %3 = load_const (0x4e6e6b28)\n\
         \x20   32    %4 = fmul %2.x, %3\n\
         \x20   32    %5 = f2u32 %4\n\
         \x20   32    %6 = load_const (0x{sel:08x})\n\
         \x20   32    %7 = {op} %5, %6\n\
         \x20   32    %8 = i2f32 %7\n\
         \x20   32x4  %9 = vec4 %8, %8, %8, %8\n\
         \x20   @store_output (%9, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
         \x20   // succs: b1\n    block b1:\n}}\n"
    );
    let text = asm("ivb", &fs_reading_v("one-extract", "", "", "", &body), 8);
    let lines: Vec<&str> = text.lines().collect();
    let from = lines
        .iter()
        .position(|l| l.contains("mov(8)") && l.contains("D ") && l.contains("F "))
        .expect("the float-to-integer conversion");
    lines[from + 1..]
        .iter()
        .take_while(|l| !(l.starts_with("mov(8)") && l.contains("F ") && l.contains("D ")))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn a_field_at_bit_zero_or_bit_31_takes_one_instruction() {
    assert_eq!(alu_between("extract_u8", 0), ["and(8)"]);
    assert_eq!(alu_between("extract_u16", 0), ["and(8)"]);
    assert_eq!(alu_between("extract_u8", 3), ["shr(8)"]);
    assert_eq!(alu_between("extract_u16", 1), ["shr(8)"]);
    assert_eq!(alu_between("extract_i8", 3), ["asr(8)"]);
    assert_eq!(alu_between("extract_i16", 1), ["asr(8)"]);
}

#[test]
fn a_field_in_the_middle_or_signed_at_bit_zero_takes_two() {
    assert_eq!(alu_between("extract_u8", 1), ["shl(8)", "shr(8)"]);
    assert_eq!(alu_between("extract_u8", 2), ["shl(8)", "shr(8)"]);
    assert_eq!(alu_between("extract_i8", 0), ["shl(8)", "asr(8)"]);
    assert_eq!(alu_between("extract_i16", 0), ["shl(8)", "asr(8)"]);
}
