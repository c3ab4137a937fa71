//! The integer ALU operations of the scalar backend that go beyond one plain instruction:
//! `umul_high`/`imul_high` (brw's MUL/MACH pair through the accumulator), `udiv`, `umod`,
//! `idiv`, `irem`, `imod` (the extended-math divider), `uadd_sat`/`iadd_sat` (ADD.sat) and
//! `usub_sat`/`isub_sat` (short sequences that never negate -2^31).
//!
//! Every expected value below is worked out by hand from NIR's definition of the operation
//! (the comments show the arithmetic). A compute shader picks its operands from those tables
//! by local invocation index (index % 8, so every channel group of every width sees every
//! entry): the reference interpreter must produce the hand values, and the compiled program
//! must match the interpreter on the simulator on ivb, hsw, bdw and skl at SIMD8, 16 and 32
//! (4, 2 and 1 threads of a 32-invocation workgroup). A fragment shader runs the same
//! operations on interpolated inputs' bits, and the generated assembly is checked for the
//! instruction forms brw emits.

mod common;

use common::compute::header;
use common::intel_fs::{asm, fs_reading_v};
use gpucc::compiler::{CompileOptions, Compiler};
use gpucc::nir::{self, interp};
use gpucc::verify::VerifyOutcome;

const PLATFORMS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

/// Workgroup size: 4 SIMD8 threads, 2 SIMD16 or 1 SIMD32.
const INVOCATIONS: u32 = 32;

const MIN: u32 = i32::MIN as u32;
const MAX: u32 = i32::MAX as u32;

/// Two's complement bits of a negative number.
const fn neg(x: u32) -> u32 {
    x.wrapping_neg()
}

/// An operand: one value per table row, or one constant for all (an immediate in the code).
#[derive(Clone, Copy)]
enum Operand {
    Table([u32; 8]),
    Const(u32),
}
use Operand::{Const, Table};

/// A row of results: `op(a[i], b[i])`, then shifted right by `shift` when it is nonzero.
struct Case {
    op: &'static str,
    a: Operand,
    b: Operand,
    shift: u32,
    want: [u32; 8],
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            op: "umul_high",
            a: Table([
                0xffff_ffff,
                0xffff_ffff,
                0x8000_0000,
                0x1_0000,
                12345,
                0,
                0xdead_beef,
                7,
            ]),
            b: Table([
                0xffff_ffff,
                2,
                0x8000_0000,
                0x1_0000,
                0xcccc_cccd,
                0xffff_ffff,
                1,
                0x9249_2493,
            ]),
            shift: 0,
            want: [
                // (2^32-1)^2 = 0xfffffffe_00000001.
                0xffff_fffe,
                // 0x1_fffffffe.
                1,
                // 2^62.
                0x4000_0000,
                // 2^32.
                1,
                // 0xcccccccd = (2^34+1)/5: 12345 * it = 2469 * (2^34+1), high half 2469*4.
                9876,
                0,
                0,
                // 0x92492493 = (2^34+5)/7: 7 * it = 2^34 + 5.
                4,
            ],
        },
        Case {
            op: "imul_high",
            a: Table([neg(1), neg(1), MIN, MAX, neg(12345), 3, 0x4000_0000, neg(2)]),
            b: Table([neg(1), 1, MIN, MAX, 0x6666_6667, neg(3), 4, MAX]),
            shift: 0,
            want: [
                // 1.
                0,
                // -1: the high half is all ones.
                0xffff_ffff,
                // (-2^31)^2 = 2^62.
                0x4000_0000,
                // (2^31-1)^2 = 2^62 - 2^32 + 1.
                0x3fff_ffff,
                // 0x66666667 = (2^33+3)/5: -12345 * it = -2469*2^33 - 7407, whose floor over
                // 2^32 is -4938 - 1.
                neg(4939),
                // -9.
                0xffff_ffff,
                // 2^32.
                1,
                // -2^32 + 2: floor is -1.
                0xffff_ffff,
            ],
        },
        Case {
            // x / 5 as nir_opt_idiv_const writes it: umul_high(x, 0xcccccccd) >> 2, the
            // magic number an immediate second source.
            op: "umul_high",
            a: Table([0, 4, 5, 12345, 0xffff_ffff, 1_000_000_007, 0x8000_0000, 99]),
            b: Const(0xcccc_cccd),
            shift: 2,
            want: [0, 0, 1, 2469, 858_993_459, 200_000_001, 429_496_729, 19],
        },
        Case {
            // A constant first source changes places with the register.
            op: "imul_high",
            a: Const(0x6666_6667),
            b: Table([10, neg(10), 12345, neg(12345), 0, 4, neg(4), MAX]),
            shift: 1,
            // Signed x / 5 before the sign correction: (0x66666667 * x) >> 33, floored.
            // MAX: 0x66666667 * (2^31-1) = 0x33333333_19999999 → >> 33 = 0x19999999.
            want: [2, neg(3), 2469, neg(2470), 0, 0, neg(1), 0x1999_9999],
        },
        Case {
            op: "udiv",
            a: Table([100, 0xffff_ffff, 7, 0, 0x8000_0000, 12345, 1, 0xffff_fffe]),
            b: Table([7, 1, 100, 5, 3, 5, 0xffff_ffff, 0xffff_ffff]),
            shift: 0,
            // 2^31 / 3 = 715827882.67.
            want: [14, 0xffff_ffff, 0, 0, 0x2aaa_aaaa, 2469, 0, 0],
        },
        Case {
            op: "umod",
            a: Table([100, 0xffff_ffff, 7, 0, 0x8000_0000, 12345, 1, 0xffff_fffe]),
            b: Table([7, 1, 100, 5, 3, 5, 0xffff_ffff, 0xffff_ffff]),
            shift: 0,
            // 2^31 - 3 * 715827882 = 2.
            want: [2, 0, 7, 0, 2, 0, 1, 0xffff_fffe],
        },
        Case {
            op: "idiv",
            a: Table([7, neg(7), 7, neg(7), MIN, MIN, 100, neg(1)]),
            b: Table([2, 2, neg(2), neg(2), 2, 1, 7, 5]),
            shift: 0,
            // Truncation toward zero.
            want: [3, neg(3), neg(3), 3, 0xc000_0000, MIN, 14, 0],
        },
        Case {
            op: "irem",
            a: Table([7, neg(7), 7, neg(7), MIN, MIN, 100, neg(1)]),
            b: Table([2, 2, neg(2), neg(2), 2, 1, 7, 5]),
            shift: 0,
            // The dividend's sign.
            want: [1, neg(1), 1, neg(1), 0, 0, 2, neg(1)],
        },
        Case {
            op: "imod",
            a: Table([7, neg(7), 7, neg(7), MIN, MIN, 100, neg(1)]),
            b: Table([2, 2, neg(2), neg(2), 2, 1, 7, 5]),
            shift: 0,
            // The divisor's sign: -7 mod 2 = 1, 7 mod -2 = -1, -1 mod 5 = 4.
            want: [1, 1, neg(1), neg(1), 0, 0, 2, 4],
        },
        Case {
            op: "imod",
            a: Table([neg(7), 7, 0, neg(6), 6, neg(1), MAX, MIN]),
            b: Const(3),
            shift: 0,
            // An immediate divisor: -7 mod 3 = 2, -6 mod 3 = 0, -1 mod 3 = 2,
            // 2^31-1 = 3 * 715827882 + 1, -2^31 = 3 * -715827883 + 1.
            want: [2, 1, 0, 0, 0, 2, 1, 1],
        },
        Case {
            op: "uadd_sat",
            a: Table([
                0xffff_ffff,
                0xffff_ffff,
                0x8000_0000,
                0x8000_0000,
                1,
                0,
                MAX,
                5,
            ]),
            b: Table([0xffff_ffff, 1, 0x8000_0000, MAX, 2, 0, MAX, 0xffff_fffa]),
            shift: 0,
            // Sums past 2^32-1 clamp there; MAX + MAX = 0xfffffffe and 5 + 0xfffffffa =
            // 0xffffffff fit.
            want: [
                0xffff_ffff,
                0xffff_ffff,
                0xffff_ffff,
                0xffff_ffff,
                3,
                0,
                0xffff_fffe,
                0xffff_ffff,
            ],
        },
        Case {
            op: "iadd_sat",
            a: Table([MAX, MIN, MAX, neg(1), 0x4000_0000, neg(0x4000_0000), MIN, 5]),
            b: Table([
                1,
                neg(1),
                MIN,
                neg(1),
                0x4000_0000,
                neg(0x4000_0001),
                0,
                neg(7),
            ]),
            shift: 0,
            // 2^31 clamps to MAX, -2^31-1 to MIN.
            want: [MAX, MIN, neg(1), neg(2), MAX, MIN, MIN, neg(2)],
        },
        Case {
            op: "usub_sat",
            a: Table([5, 3, 0, 0xffff_ffff, 0x8000_0000, 7, 0, 100]),
            b: Table([3, 5, 0, 1, 0xffff_ffff, 7, 0xffff_ffff, 0x8000_0000]),
            shift: 0,
            // Differences below zero clamp to 0.
            want: [2, 0, 0, 0xffff_fffe, 0, 0, 0, 0],
        },
        Case {
            op: "isub_sat",
            a: Table([0, 0, MIN, MAX, neg(1), 5, MIN, 0x4000_0000]),
            b: Table([neg(2), MIN, 1, neg(1), MAX, 7, MIN, neg(0x4000_0000)]),
            shift: 0,
            // 0 - -2^31 = 2^31 and 2^30 + 2^30 clamp to MAX, MIN - 1 to MIN; -1 - MAX is
            // exactly MIN.
            want: [2, MAX, MIN, MAX, MIN, neg(2), 0, MAX],
        },
    ]
}

/// Writes NIR defs with increasing numbers.
struct Text {
    body: String,
    next: u32,
}

impl Text {
    fn def(&mut self, bits: u32, rhs: &str) -> u32 {
        let n = self.next;
        self.next += 1;
        self.body += &format!("    {bits:<5} %{n} = {rhs}\n");
        n
    }

    fn constant(&mut self, v: u32) -> u32 {
        self.def(32, &format!("load_const (0x{v:08x})"))
    }

    /// `table[row]` by a chain of selects on the row number `%row`.
    fn pick(&mut self, row: u32, op: Operand) -> u32 {
        match op {
            Const(v) => self.constant(v),
            Table(t) => {
                let mut acc = self.constant(t[7]);
                for k in (0..7).rev() {
                    let kc = self.constant(k as u32);
                    let is = self.def(1, &format!("ieq %{row}, %{kc}"));
                    let v = self.constant(t[k]);
                    acc = self.def(32, &format!("bcsel %{is}, %{v}, %{acc}"));
                }
                acc
            }
        }
    }
}

/// The compute shader: invocation i stores case k's result for row i % 8 at dword
/// `i * cases + k` of SSBO 0.
fn compute_shader(cases: &[Case]) -> String {
    let mut t = Text {
        body: String::new(),
        next: 0,
    };
    let index = t.def(32, "@load_local_invocation_index () ()");
    let seven = t.constant(7);
    let row = t.def(32, &format!("iand %{index}, %{seven}"));
    let stride = t.constant(4 * cases.len() as u32);
    let base = t.def(32, &format!("imul %{index}, %{stride}"));
    let zero = t.constant(0);
    for (k, c) in cases.iter().enumerate() {
        let a = t.pick(row, c.a);
        let b = t.pick(row, c.b);
        let mut r = t.def(32, &format!("{} %{a}, %{b}", c.op));
        if c.shift != 0 {
            let s = t.constant(c.shift);
            let shr = if c.op.starts_with('i') {
                "ishr"
            } else {
                "ushr"
            };
            r = t.def(32, &format!("{shr} %{r}, %{s}"));
        }
        let off = t.constant(4 * k as u32);
        let at = t.def(32, &format!("iadd %{base}, %{off}"));
        t.body += &format!(
            "    @store_ssbo (%{r}, %{zero}, %{at}) (wrmask=x, access=none, align_mul=4, \
             align_offset=0)\n"
        );
    }
    header("int-alu", [INVOCATIONS, 1, 1], 0)
        + "impl main {\n    block b0:  // preds:\n"
        + &t.body
        + "    // succs: b1\n    block b1:\n}\n"
}

fn parse(text: &str) -> nir::Shader {
    nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn verify(target: &str, text: &str) -> VerifyOutcome {
    Compiler::new(target)
        .unwrap()
        .verify_options(&parse(text), &CompileOptions::default())
}

/// The interpreter computes the hand values.
#[test]
fn interpreter_gives_the_hand_values() {
    let cases = cases();
    let shader = parse(&compute_shader(&cases));
    let env = interp::Environment {
        ssbos: vec![vec![0; 4 * (INVOCATIONS as usize) * cases.len()]],
        workgroup_size: [INVOCATIONS, 1, 1],
        ..Default::default()
    };
    let out = interp::run(&shader, &env, INVOCATIONS as usize).unwrap();
    let word = |d: usize| u32::from_le_bytes(out.ssbos[0][4 * d..4 * d + 4].try_into().unwrap());
    for i in 0..INVOCATIONS as usize {
        for (k, c) in cases.iter().enumerate() {
            assert_eq!(
                word(i * cases.len() + k),
                c.want[i % 8],
                "invocation {i}: case {k} ({}) row {}",
                c.op,
                i % 8
            );
        }
    }
}

/// The compiled program matches the interpreter on the simulator everywhere, at every width.
#[test]
fn compute_shader_verifies_everywhere() {
    let text = compute_shader(&cases());
    for p in PLATFORMS {
        assert_eq!(verify(p, &text), VerifyOutcome::Pass, "{p}");
    }
}

/// One op per case in separate shaders, so that a failure names the operation.
#[test]
fn each_op_alone_verifies_everywhere() {
    for c in cases() {
        let text = compute_shader(std::slice::from_ref(&c));
        for p in PLATFORMS {
            assert_eq!(verify(p, &text), VerifyOutcome::Pass, "{p} {}", c.op);
        }
    }
}

/// A fragment shader applying the operations to the bits of interpolated inputs (signs and
/// large magnitudes from the float encodings), folded into four non-NaN outputs.
fn fragment_shader() -> String {
    let body = "\
    32    %3 = umul_high %2.x, %2.y\n\
    32    %4 = imul_high %2.z, %2.w\n\
    32    %5 = udiv %2.x, %2.w\n\
    32    %6 = umod %2.y, %2.z\n\
    32    %7 = imod %2.z, %2.x\n\
    32    %8 = irem %2.w, %2.y\n\
    32    %9 = uadd_sat %2.x, %2.y\n\
    32    %10 = iadd_sat %2.z, %2.w\n\
    32    %11 = load_const (0x00000002)\n\
    32    %12 = load_const (0x3fffffff)\n\
    32    %13 = ushr %4, %11\n\
    32    %14 = ixor %3, %13\n\
    32    %15 = iand %14, %12\n\
    32    %16 = ushr %6, %11\n\
    32    %17 = ixor %5, %16\n\
    32    %18 = iand %17, %12\n\
    32    %19 = ushr %8, %11\n\
    32    %20 = ixor %7, %19\n\
    32    %21 = iand %20, %12\n\
    32    %22 = ushr %10, %11\n\
    32    %23 = ixor %9, %22\n\
    32    %24 = iand %23, %12\n\
    32x4  %25 = vec4 %15, %18, %21, %24\n\
    @store_output (%25, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
    // succs: b1\n    block b1:\n}\n";
    fs_reading_v("int-alu-fs", "", "", "", body)
}

#[test]
fn fragment_shader_verifies_everywhere() {
    let text = fragment_shader();
    for p in PLATFORMS {
        assert_eq!(verify(p, &text), VerifyOutcome::Pass, "{p}");
    }
}

/// Register numbers out of the way: `g12` becomes `gN`, runs of spaces one space.
fn normalised(listing: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    listing
        .lines()
        .filter(|l| keep(l))
        .map(|l| {
            let mut out = String::new();
            let mut chars = l.split_whitespace().collect::<Vec<_>>().join(" ");
            while let Some(at) = chars.find('g') {
                let digits = chars[at + 1..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .count();
                out += &chars[..at + 1];
                if digits > 0 {
                    out.push('N');
                }
                chars = chars[at + 1 + digits..].to_string();
            }
            out + &chars
        })
        .collect()
}

/// umul_high of two inputs in a SIMD16 fragment shader, and x / 5 of one.
fn mulh_fragment_shader() -> String {
    let body = "\
    32    %3 = umul_high %2.x, %2.y\n\
    32    %4 = load_const (0xcccccccd)\n\
    32    %5 = umul_high %2.z, %4\n\
    32    %6 = load_const (0x00000002)\n\
    32    %7 = ushr %5, %6\n\
    32x4  %8 = vec4 %3, %7, %3, %7\n\
    @store_output (%8, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
    // succs: b1\n    block b1:\n}\n";
    fs_reading_v("mulh-fs", "", "", "", body)
}

/// The pairs brw emits: per 8 channels `mul acc0` then `mach` (no AccWrEnable, as brw
/// leaves it off). Gen8+ reads the MUL's src1 as words at twice the stride and an immediate
/// as its low word; Haswell keeps dwords and second-quarter pairs; Ivy Bridge runs the
/// second quarter at 1Q with WE_all (into a temporary register allocation may merge with
/// the result).
#[test]
fn mul_high_assembly_has_brw_forms() {
    let text = mulh_fragment_shader();
    let pairs = |p: &str| {
        normalised(&asm(p, &text, 16), |l| {
            l.starts_with("mul(") || l.starts_with("mach(")
        })
    };
    let form = |src1: &str, imm: &str, q2: &str| {
        let mut v = Vec::new();
        for (b, q) in [(src1, "1Q"), (src1, q2)] {
            v.push(format!(
                "mul(8) acc0<1>UD gN<8,8,1>UD {b} {{ align1 {q} }};"
            ));
            v.push(format!(
                "mach(8) gN<1>UD gN<8,8,1>UD gN<8,8,1>UD {{ align1 {q} }};"
            ));
        }
        for q in ["1Q", q2] {
            v.push(format!(
                "mul(8) acc0<1>UD gN<8,8,1>UD {imm} {{ align1 {q} }};"
            ));
            v.push(format!(
                "mach(8) gN<1>UD gN<8,8,1>UD 0xcccccccdUD {{ align1 {q} }};"
            ));
        }
        v
    };
    let mut got = pairs("bdw");
    got.sort();
    let mut want = form("gN<16,8,2>UW", "0xcccdUW", "2Q");
    want.sort();
    assert_eq!(got, want, "bdw");
    let mut got = pairs("skl");
    got.sort();
    assert_eq!(got, want, "skl");
    let mut got = pairs("hsw");
    got.sort();
    let mut want = form("gN<8,8,1>UD", "0xcccccccdUD", "2Q");
    want.sort();
    assert_eq!(got, want, "hsw");
    let mut got = pairs("ivb");
    got.sort();
    let mut want = form("gN<8,8,1>UD", "0xcccccccdUD", "WE_all 1Q");
    want.sort();
    assert_eq!(got, want, "ivb");
}

/// The instruction forms above encode as Mesa's assembler (i965_asm -g bdw / -g ivb)
/// encodes them, and disassemble back to the same text.
#[test]
fn mul_high_and_division_encodings_match_mesa() {
    use gpucc::intel::eu;
    use gpucc::intel::DevInfo;
    let bdw = "\
mul(8)          acc0<1>UD       g24<8,8,1>UD    g8<16,8,2>UW    { align1 1Q };
mach(8)         g20<1>UD        g24<8,8,1>UD    g8<8,8,1>UD     { align1 1Q };
mul(8)          acc0<1>UD       g25<8,8,1>UD    g9<16,8,2>UW    { align1 2Q };
mach(8)         g21<1>UD        g25<8,8,1>UD    g9<8,8,1>UD     { align1 2Q };
mul(8)          acc0<1>UD       g9<8,8,1>UD     0xcccdUW        { align1 1Q };
mach(8)         g7<1>UD         g9<8,8,1>UD     0xcccccccdUD    { align1 1Q };
mul(8)          acc0<1>D        g22<8,8,1>D     g12<16,8,2>UW   { align1 1Q };
mach(8)         g18<1>D         g22<8,8,1>D     g12<8,8,1>D     { align1 1Q };
math intdiv(8)  g10<1>UD        g24<8,8,1>UD    g12<8,8,1>UD    { align1 1Q };
math intmod(8)  g5<1>D          g13<8,8,1>D     g9<8,8,1>D      { align1 2Q };
add.sat(16)     g8<1>D          g22<8,8,1>D     g12<8,8,1>D     { align1 1H };
";
    let bdw_hex = "\
41 00 60 00 00 02 00 24 00 03 8d 12 00 01 ae 00
49 00 60 00 08 02 80 22 00 03 8d 02 00 01 8d 00
41 10 60 00 00 02 00 24 20 03 8d 12 20 01 ae 00
49 10 60 00 08 02 a0 22 20 03 8d 02 20 01 8d 00
41 00 60 00 00 02 00 24 20 01 8d 16 cd cc cd cc
49 00 60 00 08 02 e0 20 20 01 8d 06 cd cc cc cc
41 00 60 00 20 0a 00 24 c0 02 8d 12 80 01 ae 00
49 00 60 00 28 0a 40 22 c0 02 8d 0a 80 01 8d 00
38 00 60 0c 08 02 40 21 00 03 8d 02 80 01 8d 00
38 10 60 0d 28 0a a0 20 a0 01 8d 0a 20 01 8d 00
40 00 80 80 28 0a 00 21 c0 02 8d 0a 80 01 8d 00
";
    let ivb = "\
mul(8)          acc0<1>UD       g25<8,8,1>UD    g9<8,8,1>UD     { align1 WE_all 1Q };
mach(8)         g21<1>UD        g25<8,8,1>UD    g9<8,8,1>UD     { align1 WE_all 1Q };
mul(8)          acc0<1>UD       g9<8,8,1>UD     0xcccccccdUD    { align1 1Q };
mach(8)         g2<1>UD         g9<8,8,1>UD     0xcccccccdUD    { align1 1Q };
";
    let ivb_hex = "\
41 02 60 00 20 04 00 24 20 03 8d 00 20 01 8d 00
49 02 60 00 21 04 a0 22 20 03 8d 00 20 01 8d 00
41 00 60 00 20 0c 00 24 20 01 8d 00 cd cc cc cc
49 00 60 00 21 0c 40 20 20 01 8d 00 cd cc cc cc
";
    for (p, text, hex) in [("bdw", bdw, bdw_hex), ("ivb", ivb, ivb_hex)] {
        let dev = DevInfo::from_name(p).unwrap();
        let insts = eu::assemble(dev, text).unwrap_or_else(|e| panic!("{p}: {e}"));
        let bytes: Vec<Vec<u8>> = eu::encode_program(dev, &insts)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
            .iter()
            .map(|b| b.to_vec())
            .collect();
        assert_eq!(eu::hex::parse(hex).unwrap(), bytes, "{p}");
        let back = eu::disassemble_program(dev, &bytes.concat()).unwrap();
        let words = |t: &str| -> Vec<String> {
            t.lines()
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|l| !l.is_empty())
                .collect()
        };
        assert_eq!(words(&back), words(text), "{p}");
    }
}
