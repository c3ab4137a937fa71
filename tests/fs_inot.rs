//! `inot` of a 32-bit boolean (NIR's `flt32`, `ieq32`, ... give 0 or ~0, as the 1-bit ones
//! do once in registers) is left out where its consumer only asks whether it is zero: an IF
//! takes the inverted predicate, `b2f32`/`b2i32` become `b + 1`, and `discard_if` keeps the
//! pixels where `b` is true. Each shader runs on the simulator against the interpreter, and
//! its SIMD8 code on ivb has no NOT left.

mod common;

use common::intel_fs::{asm, fs_reading_v, passes_everywhere};

const OUT: &str = "    @store_output (%90, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n    // succs: bEND\n    block bEND:\n}\n";

/// The end of a shader: the colour `%90` written and the end block, numbered `end`.
fn out(end: u32) -> String {
    OUT.replace("END", &end.to_string())
}

/// `b2f32` and `b2i32` of `inot` of comparisons and of logic on comparisons.
fn b2f_of_inot() -> String {
    let body = format!(
        "    32    %3 = load_const (0x3f000000)\n\
         \x20   32    %4 = flt32 %2.x, %3\n\
         \x20   32    %5 = inot %4\n\
         \x20   32    %6 = b2f32 %5\n\
         \x20   32    %7 = fge32 %2.y, %3\n\
         \x20   32    %8 = ior %4, %7\n\
         \x20   32    %9 = inot %8\n\
         \x20   32    %10 = b2i32 %9\n\
         \x20   32    %11 = i2f32 %10\n\
         \x20   32    %12 = fadd %6, %2.z\n\
         \x20   32x4  %90 = vec4 %6, %11, %12, %2.w\n{}",
        out(1)
    );
    fs_reading_v("b2f-of-inot", "", "", "", &body)
}

/// An IF on `inot` of a comparison whose result is also used as a value.
fn if_on_inot() -> String {
    let body = format!(
        "    32    %3 = load_const (0x3f000000)\n\
         \x20   32    %4 = flt32 %2.x, %3\n\
         \x20   32    %5 = inot %4\n\
         \x20   // succs: b1 b2\n\
         \x20   if %5 {{\n\
         \x20       block b1:  // preds: b0\n\
         \x20       32    %6 = fmul %2.y, %3\n\
         \x20       // succs: b3\n\
         \x20   }} else {{\n\
         \x20       block b2:  // preds: b0\n\
         \x20       32    %7 = fadd %2.y, %3\n\
         \x20       // succs: b3\n\
         \x20   }}\n\
         \x20   block b3:  // preds: b1 b2\n\
         \x20   32    %8 = phi b1: %6, b2: %7\n\
         \x20   32x4  %90 = vec4 %8, %2.z, %2.w, %3\n{}",
        out(4)
    );
    fs_reading_v("if-on-inot", "", "", "", &body)
}

/// `discard_if` of `inot` of logic on comparisons.
fn discard_if_inot() -> String {
    let body = format!(
        "    32    %3 = load_const (0x3f000000)\n\
         \x20   32    %4 = flt32 %2.x, %3\n\
         \x20   32    %5 = flt32 %2.y, %3\n\
         \x20   32    %6 = iand %4, %5\n\
         \x20   32    %7 = inot %6\n\
         \x20   @discard_if (%7) ()\n\
         \x20   32x4  %90 = vec4 %2.x, %2.y, %2.z, %2.w\n{}",
        out(1)
    );
    fs_reading_v("discard-if-inot", "", "", "", &body)
}

fn nots(text: &str) -> usize {
    asm("ivb", text, 8)
        .lines()
        .filter(|l| l.split_whitespace().any(|w| w.starts_with("not")))
        .count()
}

#[test]
fn b2f_of_inot_matches_the_interpreter_without_a_not() {
    let text = b2f_of_inot();
    passes_everywhere(&text);
    assert_eq!(nots(&text), 0);
}

#[test]
fn if_on_inot_matches_the_interpreter_without_a_not() {
    let text = if_on_inot();
    passes_everywhere(&text);
    assert_eq!(nots(&text), 0);
}

#[test]
fn discard_if_inot_matches_the_interpreter_without_a_not() {
    let text = discard_if_inot();
    passes_everywhere(&text);
    assert_eq!(nots(&text), 0);
}

/// `inot` of something that is not a boolean keeps its NOT: `b2f32` of it would not be 0 or 1
/// otherwise, and an IF on it tests the NOT's own result.
#[test]
fn inot_of_a_non_boolean_keeps_the_not() {
    let body = format!(
        "    32    %3 = load_const (0x3f000000)\n\
         \x20   32    %4 = f2i32 %2.x\n\
         \x20   32    %5 = inot %4\n\
         \x20   32    %6 = i2f32 %5\n\
         \x20   32x4  %90 = vec4 %6, %2.y, %2.z, %3\n{}",
        out(1)
    );
    let text = fs_reading_v("inot-int", "", "", "", &body);
    passes_everywhere(&text);
    assert_eq!(nots(&text), 1);
}
