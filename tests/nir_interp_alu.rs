//! ALU semantics of the reference interpreter, one test per op family.
//!
//! Every expectation is derived by hand from the op's definition in Mesa's `nir_opcodes.py`
//! and from IEEE-754 binary32/binary64/binary16 rounding (bit patterns written out), never from
//! the interpreter's own output. Each case runs as a tiny NIR text shader: constant sources,
//! the op, and a `store_output` of the result, through `interp::run`.
//!
//! The shaders declare `float_controls_execution_mode: 0x00000002` (Mesa's
//! FLOAT_CONTROLS_DENORM_PRESERVE_FP32), so single-precision denormals are kept and the results
//! are the IEEE arithmetic nir_opcodes.py defines; the default flushing of the GPUs has its own
//! tests in nir_interp_denorm.rs.

mod common;

use gpucc::nir::interp::{self, Environment};
use gpucc::nir::{self, InstrKind};
use std::collections::BTreeSet;

/// A constant source: bit size and raw component bits.
#[derive(Clone)]
struct Src(u8, Vec<u64>);

fn f(v: &[f32]) -> Src {
    Src(32, v.iter().map(|x| x.to_bits() as u64).collect())
}
fn d(v: &[f64]) -> Src {
    Src(64, v.iter().map(|x| x.to_bits()).collect())
}
fn u(v: &[u32]) -> Src {
    Src(32, v.iter().map(|&x| x as u64).collect())
}
fn i(v: &[i32]) -> Src {
    Src(32, v.iter().map(|&x| x as u32 as u64).collect())
}
fn h(v: &[u16]) -> Src {
    Src(16, v.iter().map(|&x| x as u64).collect())
}
fn b1(v: &[bool]) -> Src {
    Src(1, v.iter().map(|&x| x as u64).collect())
}

fn ty(bits: u8, n: usize) -> String {
    if n == 1 {
        format!("{bits}")
    } else {
        format!("{bits}x{n}")
    }
}

fn konst(bits: u8, v: u64) -> String {
    match bits {
        1 => (if v != 0 { "true" } else { "false" }).to_string(),
        64 => format!("0x{v:016x}"),
        16 => format!("0x{v:04x}"),
        8 => format!("0x{v:02x}"),
        _ => format!("0x{v:08x}"),
    }
}

/// The NIR text of a fragment shader computing `op` on constant sources and storing the
/// `dst_n`-component result of `dst_bits` bits to output slot 0.
fn shader_text(op: &str, dst_bits: u8, dst_n: usize, srcs: &[Src]) -> String {
    let mut body = String::new();
    for (k, Src(bits, vals)) in srcs.iter().enumerate() {
        let vals: Vec<String> = vals.iter().map(|&v| konst(*bits, v)).collect();
        body += &format!(
            "    {} %{k} = load_const ({})\n",
            ty(*bits, vals.len()),
            vals.join(", ")
        );
    }
    let n = srcs.len();
    let args: Vec<String> = (0..n).map(|k| format!("%{k}")).collect();
    body += &format!(
        "    {} %{n} = {op} {}\n",
        ty(dst_bits, dst_n),
        args.join(", ")
    );
    body += &format!("    32 %{} = load_const (0x00000000)\n", n + 1);
    let mask = &"xyzw"[..dst_n.min(4)];
    let src_type = if dst_bits == 1 {
        "bool1".to_string()
    } else {
        format!("uint{dst_bits}")
    };
    body += &format!(
        "    @store_output (%{n}, %{}) (base=0, range=1, wrmask={mask}, component=0, \
         src_type={src_type}, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())\n",
        n + 1
    );
    format!(
        "shader: MESA_SHADER_FRAGMENT\nname: alu\nstage: 4\n\
         float_controls_execution_mode: 0x00000002\ninputs: 0\noutputs: 1\nuniforms: 0\n\
         decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_DATA0.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:   // preds:\n{body}\
         \x20   // succs: b1\n    block b1:\n}}\n"
    )
}

/// Runs `op` and returns the raw result components of invocation 0.
fn eval(op: &str, dst_bits: u8, dst_n: usize, srcs: &[Src]) -> Vec<u64> {
    let text = shader_text(op, dst_bits, dst_n, srcs);
    let shader = nir::parse(&text).unwrap_or_else(|e| panic!("{op}: {e}\n{text}"));
    nir::validate(&shader).unwrap_or_else(|e| panic!("{op}: {e:?}"));
    let r =
        interp::run(&shader, &Environment::default(), 4).unwrap_or_else(|e| panic!("{op}: {e}"));
    let out = &r.invocations[0].outputs[&0];
    out.comps[..dst_n]
        .iter()
        .map(|c| c.expect("written"))
        .collect()
}

fn check(op: &str, dst_bits: u8, srcs: &[Src], expect: &[u64]) {
    let got = eval(op, dst_bits, expect.len(), srcs);
    assert_eq!(
        got,
        expect,
        "{op} {:?}: got {:x?}, expected {:x?}",
        srcs.iter().map(|s| &s.1).collect::<Vec<_>>(),
        got,
        expect
    );
}

fn check_f(op: &str, srcs: &[Src], expect: &[f32]) {
    let e: Vec<u64> = expect.iter().map(|x| x.to_bits() as u64).collect();
    check(op, 32, srcs, &e);
}

fn is_nan32(v: u64) -> bool {
    f32::from_bits(v as u32).is_nan()
}

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;
const T: u64 = 0xffff_ffff;
const T32: u32 = 0xffff_ffff;

/// The ops this file tests; the corpus check below requires every corpus op to be here.
const TESTED: &[&str] = &[
    "b2f32",
    "b2i32",
    "b32all_iequal4",
    "b32any_fnequal3",
    "b32any_fnequal4",
    "b32any_inequal4",
    "b32csel",
    "bitfield_reverse",
    "extract_u16",
    "extract_u8",
    "f2i32",
    "f2u32",
    "fabs",
    "fadd",
    "fcos",
    "fcsel",
    "fddx",
    "fddy",
    "fdot2",
    "fdot2_replicated",
    "fdot3",
    "fdot3_replicated",
    "fdot4",
    "fdot4_replicated",
    "fdph_replicated",
    "feq32",
    "fexp2",
    "ffloor",
    "ffma",
    "ffract",
    "fge32",
    "flog2",
    "flrp",
    "flt32",
    "fmax",
    "fmin",
    "fmul",
    "fneg",
    "fneu32",
    "fpow",
    "frcp",
    "fround_even",
    "frsq",
    "fsat",
    "fsign",
    "fsin",
    "fsqrt",
    "ftrunc",
    "i2f32",
    "iabs",
    "iadd",
    "iand",
    "idiv",
    "ieq32",
    "ige32",
    "ilt32",
    "imax",
    "imin",
    "imul",
    "imul_32x16",
    "ine32",
    "ineg",
    "inot",
    "ior",
    "ishl",
    "ishr",
    "ixor",
    "mov",
    "seq",
    "sge",
    "slt",
    "sne",
    "u2f32",
    "u2u64",
    "ubfe",
    "uge32",
    "ult32",
    "umax",
    "umin",
    "ushr",
    "vec2",
    "vec3",
    "vec4",
    // Required by the definition list beyond the corpus.
    "fceil",
    "fsub",
    "fdiv",
    "bfi",
    "ibfe",
    "bit_count",
    "find_lsb",
    "ufind_msb",
    "ifind_msb",
    "pack_half_2x16",
    "unpack_half_2x16",
    "pack_snorm_2x16",
    "unpack_snorm_2x16",
    "pack_unorm_4x8",
    "unpack_unorm_4x8",
    "pack_unorm_2x16",
    "unpack_snorm_4x8",
    "f2f16",
    "f2f16_rtz",
    "f2f32",
    "f2f64",
    "umod",
    "irem",
    "imod",
    "udiv",
    "b2f16",
    "umul_high",
    "imul_high",
    "uadd_sat",
    "iadd_sat",
    "usub_sat",
    "isub_sat",
];

#[test]
fn every_corpus_alu_op_is_tested_here() {
    let Some(dir) = common::shared_path("corpus/nir") else {
        return;
    };
    let tested: BTreeSet<&str> = TESTED.iter().copied().collect();
    let mut missing = BTreeSet::new();
    for path in common::files_with_suffix(&dir, ".nir") {
        let Ok(shader) = nir::parse(&std::fs::read_to_string(&path).unwrap()) else {
            continue;
        };
        for func in &shader.functions {
            for ins in func.body.iter().flat_map(|b| b.instrs.iter()) {
                if let InstrKind::Alu(a) = &ins.kind {
                    if !tested.contains(a.op.name()) {
                        missing.insert(a.op.name());
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "corpus ops without a test: {missing:?}");
}

#[test]
fn fadd_fsub_rounding_signed_zero_inf_nan_denormals() {
    check_f("fadd", &[f(&[1.5]), f(&[2.25])], &[3.75]);
    // 1 + 2^-24 is half an ulp above 1: ties to even gives 1.0.
    check(
        "fadd",
        32,
        &[u(&[0x3f80_0000]), u(&[0x3380_0000])],
        &[0x3f80_0000],
    );
    // 1 + 3 * 2^-24 = 1 + 1.5 ulp: tie between mantissa 1 and 2 -> 2 (even).
    check(
        "fadd",
        32,
        &[u(&[0x3f80_0000]), u(&[0x3440_0000])],
        &[0x3f80_0002],
    );
    check(
        "fadd",
        32,
        &[u(&[0x8000_0000]), u(&[0x8000_0000])],
        &[0x8000_0000],
    );
    check("fadd", 32, &[u(&[0x8000_0000]), u(&[0])], &[0]);
    // Smallest denormals add exactly (no flush to zero).
    check("fadd", 32, &[u(&[1]), u(&[1])], &[2]);
    check(
        "fadd",
        32,
        &[f(&[f32::MAX]), f(&[f32::MAX])],
        &[0x7f80_0000],
    );
    assert!(is_nan32(eval("fadd", 32, 1, &[f(&[INF]), f(&[-INF])])[0]));
    check_f("fsub", &[f(&[1.0]), f(&[1.0])], &[0.0]);
    check("fsub", 32, &[u(&[0x8000_0000]), u(&[0])], &[0x8000_0000]);
    // binary64: 0.1 + 0.2 = 0x3fd3333333333334.
    check(
        "fadd",
        64,
        &[d(&[0.1]), d(&[0.2])],
        &[0x3fd3_3333_3333_3334],
    );
    // binary16: 1 + 2^-11 ties to 1.0; 65504 + 16 = 65520 ties to even, i.e. infinity.
    check("fadd", 16, &[h(&[0x3c00]), h(&[0x1000])], &[0x3c00]);
    check("fadd", 16, &[h(&[0x7bff]), h(&[0x4c00])], &[0x7c00]);
}

#[test]
fn fmul_ffma_fdiv() {
    check_f("fmul", &[f(&[3.0, -0.0]), f(&[-2.0, 5.0])], &[-6.0, -0.0]);
    // 2^-75 * 2^-75 = 2^-150, exactly half the smallest denormal: ties to even -> +0.
    check("fmul", 32, &[u(&[0x1a00_0000]), u(&[0x1a00_0000])], &[0]);
    // 2^-74 * 2^-75 = 2^-149, the smallest denormal.
    check("fmul", 32, &[u(&[0x1a80_0000]), u(&[0x1a00_0000])], &[1]);
    check("fmul", 32, &[f(&[f32::MAX]), f(&[2.0])], &[0x7f80_0000]);
    assert!(is_nan32(eval("fmul", 32, 1, &[f(&[0.0]), f(&[INF])])[0]));
    // x = 1 + 2^-12: x*x = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 (tie, even), so the fused
    // x*x - (1 + 2^-11) is exactly 2^-24 (0x33800000) where an unfused one gives 0.
    check(
        "ffma",
        32,
        &[u(&[0x3f80_0800]), u(&[0x3f80_0800]), u(&[0xbf80_1000])],
        &[0x3380_0000],
    );
    check_f("ffma", &[f(&[2.0]), f(&[3.0]), f(&[1.0])], &[7.0]);
    check("ffma", 64, &[d(&[2.0]), d(&[3.0]), d(&[-6.0])], &[0]);
    check_f("fdiv", &[f(&[1.0, -1.0]), f(&[0.0, 0.0])], &[INF, -INF]);
    // 1/3 in binary32 is 0x3eaaaaab.
    check("fdiv", 32, &[f(&[1.0]), f(&[3.0])], &[0x3eaa_aaab]);
}

#[test]
fn fneg_fabs_are_sign_bit_operations() {
    check(
        "fneg",
        32,
        &[u(&[0, 0x7fc0_0000, 0x3f80_0000])],
        &[0x8000_0000, 0xffc0_0000, 0xbf80_0000],
    );
    check(
        "fabs",
        32,
        &[u(&[0x8000_0000, 0xff80_0000, 0xbf80_0000])],
        &[0, 0x7f80_0000, 0x3f80_0000],
    );
}

#[test]
fn fmin_fmax_fsat_nan_handling() {
    // C fmin/fmax: a NaN operand yields the other operand.
    check_f(
        "fmin",
        &[f(&[NAN, 1.0, -INF]), f(&[1.0, NAN, 3.0])],
        &[1.0, 1.0, -INF],
    );
    check_f(
        "fmax",
        &[f(&[NAN, 1.0, -INF]), f(&[1.0, NAN, 3.0])],
        &[1.0, 1.0, 3.0],
    );
    assert!(is_nan32(eval("fmax", 32, 1, &[f(&[NAN]), f(&[NAN])])[0]));
    // Signed zeros (documented choice: -0 < +0).
    check(
        "fmin",
        32,
        &[u(&[0x8000_0000, 0]), u(&[0, 0x8000_0000])],
        &[0x8000_0000, 0x8000_0000],
    );
    check(
        "fmax",
        32,
        &[u(&[0x8000_0000, 0]), u(&[0, 0x8000_0000])],
        &[0, 0],
    );
    // fsat = fmin(fmax(x, 0), 1): NaN -> fmax gives 0 -> 0.
    check_f(
        "fsat",
        &[f(&[NAN, -0.5, 1.5, 0.25])],
        &[0.0, 0.0, 1.0, 0.25],
    );
    check_f("fsat", &[f(&[INF, -INF])], &[1.0, 0.0]);
}

#[test]
fn fsign_ffract_rounding_ops() {
    // fsign: NaN -> +0, zero -> itself (sign kept), else +-1.
    check(
        "fsign",
        32,
        &[f(&[-3.0, 2.0, -0.0, NAN])],
        &[0xbf80_0000, 0x3f80_0000, 0x8000_0000, 0],
    );
    check(
        "fsign",
        32,
        &[u(&[1, 0xff80_0000])],
        &[0x3f80_0000, 0xbf80_0000],
    );
    // ffract = x - floor(x), rounded: -1e-30 - (-1) = 1 - 1e-30 rounds to 1.0 in binary32.
    check_f(
        "ffract",
        &[f(&[2.75, -0.25, -1e-30, -0.0])],
        &[0.75, 0.75, 1.0, 0.0],
    );
    assert!(is_nan32(eval("ffract", 32, 1, &[f(&[INF])])[0]));
    check_f("ftrunc", &[f(&[-2.5, 2.7, -0.3])], &[-2.0, 2.0, -0.0]);
    check("ftrunc", 32, &[f(&[-0.3])], &[0x8000_0000]);
    check_f("ffloor", &[f(&[-2.5, 2.5, -0.0])], &[-3.0, 2.0, -0.0]);
    check("ffloor", 32, &[f(&[-0.0])], &[0x8000_0000]);
    check("fceil", 32, &[f(&[-0.5, 1.2])], &[0x8000_0000, 0x4000_0000]);
    check_f(
        "fround_even",
        &[f(&[2.5, 3.5, -2.5, 1.5])],
        &[2.0, 4.0, -2.0, 2.0],
    );
    check("fround_even", 32, &[f(&[0.5, -0.5])], &[0, 0x8000_0000]);
}

#[test]
fn reciprocal_roots_and_transcendentals() {
    check_f(
        "frcp",
        &[f(&[0.0, -0.0, 4.0, INF])],
        &[INF, -INF, 0.25, 0.0],
    );
    check_f("frsq", &[f(&[4.0, 0.0, -0.0])], &[0.5, INF, -INF]);
    assert!(is_nan32(eval("frsq", 32, 1, &[f(&[-1.0])])[0]));
    // sqrt(2) rounded to binary32 is 0x3fb504f3; sqrt(-0) = -0.
    check(
        "fsqrt",
        32,
        &[f(&[2.0, -0.0, INF])],
        &[0x3fb5_04f3, 0x8000_0000, 0x7f80_0000],
    );
    assert!(is_nan32(eval("fsqrt", 32, 1, &[f(&[-1.0])])[0]));
    check(
        "fexp2",
        32,
        &[f(&[3.0, -INF, 128.0, -149.0])],
        &[0x4100_0000, 0, 0x7f80_0000, 1],
    );
    check("fexp2", 32, &[f(&[0.5])], &[0x3fb5_04f3]);
    check_f("flog2", &[f(&[8.0, 0.0])], &[3.0, -INF]);
    check("flog2", 32, &[u(&[1])], &[(-149.0f32).to_bits() as u64]);
    assert!(is_nan32(eval("flog2", 32, 1, &[f(&[-1.0])])[0]));
    // pow(x, 0) = 1 even for NaN; pow(1, NaN) = 1; pow(0, -1) = inf; pow(-8, 1/3) = NaN.
    check_f(
        "fpow",
        &[f(&[2.0, NAN, 1.0, 0.0]), f(&[10.0, 0.0, NAN, -1.0])],
        &[1024.0, 1.0, 1.0, INF],
    );
    assert!(is_nan32(
        eval("fpow", 32, 1, &[f(&[-8.0]), f(&[1.0 / 3.0])])[0]
    ));
    check("fsin", 32, &[f(&[0.0, -0.0])], &[0, 0x8000_0000]);
    check_f("fcos", &[f(&[0.0])], &[1.0]);
    // float32(pi) = pi + 8.742278000372e-8 (0x40490fdb), so sin(float32(pi)) is
    // -8.742278000372e-8 to full precision: rounded once to binary32.
    check_f(
        "fsin",
        &[u(&[0x4049_0fdb])],
        &[(-8.742_278_000_372e-8f64) as f32],
    );
    assert!(is_nan32(eval("fcos", 32, 1, &[f(&[INF])])[0]));
}

#[test]
fn flrp_dot_products_and_selects() {
    // flrp(a, b, t) = a * (1 - t) + b * t.
    check_f("flrp", &[f(&[2.0]), f(&[4.0]), f(&[0.25])], &[2.5]);
    // With a = inf and t = 1: inf * 0 = NaN, as the definition says.
    assert!(is_nan32(
        eval("flrp", 32, 1, &[f(&[INF]), f(&[1.0]), f(&[1.0])])[0]
    ));
    check_f("fdot2", &[f(&[1.0, 2.0]), f(&[3.0, 4.0])], &[11.0]);
    check_f(
        "fdot3",
        &[f(&[1.0, 2.0, 3.0]), f(&[4.0, 5.0, 6.0])],
        &[32.0],
    );
    check_f(
        "fdot4",
        &[f(&[1.0, 2.0, 3.0, 4.0]), f(&[1.0, 1.0, 1.0, -1.0])],
        &[2.0],
    );
    // fdot3 sums (z + y) + x: (-2^24 + 2^24) + 1 = 1, where left to right would give
    // (1 + 2^24 -> 2^24 by ties-to-even) - 2^24 = 0.
    check_f(
        "fdot3",
        &[f(&[1.0, 16_777_216.0, -16_777_216.0]), f(&[1.0, 1.0, 1.0])],
        &[1.0],
    );
    check_f(
        "fdot3_replicated",
        &[f(&[1.0, 2.0, 3.0]), f(&[4.0, 5.0, 6.0])],
        &[32.0; 4],
    );
    check_f(
        "fdot2_replicated",
        &[f(&[1.0, 2.0]), f(&[3.0, 4.0])],
        &[11.0; 3],
    );
    check_f("fdot4_replicated", &[f(&[1.0; 4]), f(&[2.0; 4])], &[8.0; 4]);
    check_f(
        "fdph_replicated",
        &[f(&[1.0, 2.0, 3.0]), f(&[4.0, 5.0, 6.0, 7.0])],
        &[39.0; 4],
    );
    assert!(is_nan32(
        eval("fdot2", 32, 1, &[f(&[INF, 1.0]), f(&[0.0, 1.0])])[0]
    ));
    // fcsel selects src1 when src0 != 0.0: -0 is zero, NaN is not.
    check_f(
        "fcsel",
        &[f(&[0.0, -0.0, NAN, 2.0]), f(&[1.0; 4]), f(&[5.0; 4])],
        &[5.0, 5.0, 1.0, 1.0],
    );
    check(
        "b32csel",
        32,
        &[u(&[T32, 0, 1]), u(&[7, 7, 7]), u(&[9, 9, 9])],
        &[7, 9, 7],
    );
    check(
        "b32csel",
        32,
        &[u(&[T32]), f(&[1.5]), f(&[2.5])],
        &[0x3fc0_0000],
    );
}

#[test]
fn set_on_and_float_comparisons() {
    check_f(
        "slt",
        &[f(&[1.0, NAN, 2.0]), f(&[2.0, 1.0, 1.0])],
        &[1.0, 0.0, 0.0],
    );
    check_f(
        "sge",
        &[f(&[NAN, 2.0, -0.0]), f(&[NAN, 2.0, 0.0])],
        &[0.0, 1.0, 1.0],
    );
    check_f("seq", &[f(&[-0.0, NAN]), f(&[0.0, NAN])], &[1.0, 0.0]);
    check_f("sne", &[f(&[NAN, 1.0]), f(&[NAN, 1.0])], &[1.0, 0.0]);
    check(
        "flt32",
        32,
        &[f(&[-INF, 1.0, NAN]), u(&[1, 1.0f32.to_bits(), 0])],
        &[T, 0, 0],
    );
    check(
        "fge32",
        32,
        &[f(&[NAN, 1.0, 0.0]), f(&[0.0, 1.0, -0.0])],
        &[0, T, T],
    );
    check(
        "feq32",
        32,
        &[f(&[-0.0, NAN, 1.0]), f(&[0.0, NAN, 2.0])],
        &[T, 0, 0],
    );
    check(
        "fneu32",
        32,
        &[f(&[NAN, 1.0, -0.0]), f(&[NAN, 1.0, 0.0])],
        &[T, 0, 0],
    );
    check(
        "b32any_fnequal3",
        32,
        &[f(&[1.0, 2.0, 3.0]), f(&[1.0, 2.0, 3.0])],
        &[0],
    );
    check(
        "b32any_fnequal3",
        32,
        &[f(&[1.0, 2.0, NAN]), f(&[1.0, 2.0, NAN])],
        &[T],
    );
    check(
        "b32any_fnequal4",
        32,
        &[f(&[0.0, 1.0, 2.0, 3.0]), f(&[-0.0, 1.0, 2.0, 3.0])],
        &[0],
    );
    check(
        "b32any_inequal4",
        32,
        &[u(&[1, 2, 3, 4]), u(&[1, 2, 3, 5])],
        &[T],
    );
    check(
        "b32all_iequal4",
        32,
        &[u(&[1, 2, 3, 4]), u(&[1, 2, 3, 4])],
        &[T],
    );
    check(
        "b32all_iequal4",
        32,
        &[u(&[1, 2, 3, 4]), u(&[1, 2, 0, 4])],
        &[0],
    );
}

/// A 32-bit boolean is 0 or ~0; converting anything else is undefined (the etnaviv
/// backend ANDs with 1.0, a `!= 0` reading gives 1.0): the interpreter refuses it, naming the
/// op and the value (shared/fuzz-repro verify/gc7000-10259-13).
#[test]
fn converting_a_non_boolean_is_refused() {
    for (op, bits) in [("b2f32", 32), ("b2i32", 32)] {
        let text = shader_text(op, bits, 1, &[u(&[0x3f00_0000])]);
        let shader = nir::parse(&text).unwrap();
        let err = interp::run(&shader, &Environment::default(), 1).unwrap_err();
        assert!(
            err.message.contains(&format!(
                "`{op}` reads 0x3f000000, which is not a 32-bit boolean"
            )),
            "{op}: {err}"
        );
    }
    // 1-bit booleans have no other values; 0 and ~0 convert.
    check("b2f32", 32, &[u(&[T32, 0])], &[0x3f80_0000, 0]);
}

#[test]
fn conversions_round_and_saturate() {
    check("b2f32", 32, &[u(&[T32, 0])], &[0x3f80_0000, 0]);
    check("b2f32", 32, &[b1(&[true, false])], &[0x3f80_0000, 0]);
    check("b2f16", 16, &[b1(&[true])], &[0x3c00]);
    check("b2i32", 32, &[u(&[T32, 0])], &[1, 0]);
    // f2i32 truncates toward zero and saturates, NaN -> 0 (documented choice).
    check(
        "f2i32",
        32,
        &[f(&[2.9, -2.9, 3e9, -3e9])],
        &[2, 0xffff_fffe, 0x7fff_ffff, 0x8000_0000],
    );
    check("f2i32", 32, &[f(&[NAN, -0.5])], &[0, 0]);
    check("f2u32", 32, &[f(&[-1.0, 5e9, 3.99, NAN])], &[0, T, 3, 0]);
    // 2^24 + 1 ties to 2^24 (even); 2^24 + 3 ties to 2^24 + 4.
    check(
        "i2f32",
        32,
        &[i(&[16_777_217, 16_777_219, -1, i32::MIN])],
        &[0x4b80_0000, 0x4b80_0002, 0xbf80_0000, 0xcf00_0000],
    );
    check(
        "u2f32",
        32,
        &[u(&[T32, 16_777_217])],
        &[0x4f80_0000, 0x4b80_0000],
    );
    check("u2u64", 64, &[u(&[T32])], &[0x0000_0000_ffff_ffff]);
    // 1/3 to binary16 is 0x3555; 65520 rounds to inf to nearest, to 65504 toward zero.
    check(
        "f2f16",
        16,
        &[f(&[1.0 / 3.0, 65520.0, -0.0])],
        &[0x3555, 0x7c00, 0x8000],
    );
    check(
        "f2f16_rtz",
        16,
        &[f(&[65520.0, 1.0 / 3.0])],
        &[0x7bff, 0x3555],
    );
    // The smallest binary16 denormal is 2^-24 = 0x33800000 in binary32.
    check(
        "f2f32",
        32,
        &[h(&[0x0001, 0xfc00])],
        &[0x3380_0000, 0xff80_0000],
    );
    check("f2f32", 32, &[d(&[0.1])], &[0x3dcc_cccd]);
    check("f2f64", 64, &[f(&[0.5])], &[0x3fe0_0000_0000_0000]);
}

#[test]
fn integer_arithmetic_wraps() {
    check(
        "iadd",
        32,
        &[u(&[0x7fff_ffff, T32]), u(&[1, 1])],
        &[0x8000_0000, 0],
    );
    check("imul", 32, &[u(&[0x1_0000]), u(&[0x1_0000])], &[0]);
    check("imul", 32, &[i(&[-3]), i(&[5])], &[(-15i32) as u32 as u64]);
    // imul_32x16 multiplies by the sign-extended low 16 bits of src1.
    check(
        "imul_32x16",
        32,
        &[i(&[7, 3]), u(&[0x0001_ffff, 0x0001_8000])],
        &[(-7i32) as u32 as u64, (-98304i32) as u32 as u64],
    );
    check(
        "ineg",
        32,
        &[i(&[i32::MIN, 5])],
        &[0x8000_0000, (-5i32) as u32 as u64],
    );
    check("iabs", 32, &[i(&[i32::MIN, -5, 0])], &[0x8000_0000, 5, 0]);
    check("inot", 32, &[u(&[0, 0xf0f0_f0f0])], &[T, 0x0f0f_0f0f]);
    check("iand", 32, &[u(&[0xff00]), u(&[0x0ff0])], &[0x0f00]);
    check("ior", 32, &[u(&[0xff00]), u(&[0x0ff0])], &[0xfff0]);
    check("ixor", 32, &[u(&[0xff00]), u(&[0x0ff0])], &[0xf0f0]);
    check(
        "imin",
        32,
        &[i(&[-1, i32::MIN]), i(&[1, 0])],
        &[T, 0x8000_0000],
    );
    check("imax", 32, &[i(&[-1, i32::MIN]), i(&[1, 0])], &[1, 0]);
    check("umin", 32, &[u(&[T32]), u(&[1])], &[1]);
    check("umax", 32, &[u(&[T32]), u(&[1])], &[T]);
}

#[test]
fn shifts_take_the_count_modulo_the_bit_size() {
    check(
        "ishl",
        32,
        &[u(&[1, 1, 3]), u(&[33, 32, 31])],
        &[2, 1, 0x8000_0000],
    );
    check(
        "ishr",
        32,
        &[
            u(&[0x8000_0000, 0x8000_0000, 0x4000_0000]),
            u(&[31, 32, 33]),
        ],
        &[T, 0x8000_0000, 0x2000_0000],
    );
    check(
        "ushr",
        32,
        &[u(&[0x8000_0000, 0x8000_0000]), u(&[31, 35])],
        &[1, 0x1000_0000],
    );
    check("ishl", 64, &[Src(64, vec![1]), u(&[65])], &[2]);
}

#[test]
fn division_by_zero_is_zero() {
    check(
        "idiv",
        32,
        &[i(&[7, -7, 7]), i(&[2, 2, 0])],
        &[3, (-3i32) as u32 as u64, 0],
    );
    // INT_MIN / -1 overflows in C; it wraps to INT_MIN here (documented).
    check("idiv", 32, &[i(&[i32::MIN]), i(&[-1])], &[0x8000_0000]);
    check("udiv", 32, &[u(&[7, 7]), u(&[2, 0])], &[3, 0]);
    check("umod", 32, &[u(&[7, 7]), u(&[3, 0])], &[1, 0]);
    // irem takes the dividend's sign, imod the divisor's.
    check(
        "irem",
        32,
        &[i(&[-7, 7, 5]), i(&[3, -3, 0])],
        &[(-1i32) as u32 as u64, 1, 0],
    );
    check(
        "imod",
        32,
        &[i(&[-7, 7, 6, 5]), i(&[3, -3, -3, 0])],
        &[2, (-2i32) as u32 as u64, 0, 0],
    );
}

/// The high half of the 64-bit product, unsigned and signed, and additions clamped to the
/// type's range (NIR: `umul_high`, `imul_high`, `uadd_sat`, `iadd_sat`, `usub_sat`,
/// `isub_sat`).
#[test]
fn high_products_and_saturating_adds() {
    // (2^32-1)^2 = 0xfffffffe_00000001; 2 * (2^32-1) = 0x1_fffffffe; 2^31 * 2^31 = 2^62.
    check(
        "umul_high",
        32,
        &[
            u(&[0xffff_ffff, 0xffff_ffff, 0x8000_0000, 0x1_0000]),
            u(&[0xffff_ffff, 2, 0x8000_0000, 0x1_0000]),
        ],
        &[0xffff_fffe, 1, 0x4000_0000, 1],
    );
    // x / 5 = umul_high(x, 0xcccccccd) >> 2: 0xcccccccd = (2^34 + 1) / 5, so for 12345 the
    // product is 2469 * (2^34 + 1) and the high half 2469 * 4.
    check("umul_high", 32, &[u(&[12345]), u(&[0xcccc_cccd])], &[9876]);
    // -1 * 1 = -1 (high half all ones); (2^31-1)^2 = 2^62 - 2^32 + 1; -2 * (2^31-1) =
    // -2^32 + 2, whose floor over 2^32 is -1.
    check(
        "imul_high",
        32,
        &[i(&[-1, i32::MAX, -2, -1]), i(&[1, i32::MAX, i32::MAX, -1])],
        &[0xffff_ffff, 0x3fff_ffff, 0xffff_ffff, 0],
    );
    check(
        "uadd_sat",
        32,
        &[
            u(&[0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 5]),
            u(&[1, 0x8000_0000, 0x7fff_ffff, 0xffff_fffa]),
        ],
        &[0xffff_ffff, 0xffff_ffff, 0xffff_fffe, 0xffff_ffff],
    );
    check(
        "iadd_sat",
        32,
        &[
            i(&[i32::MAX, i32::MIN, i32::MAX, 0x4000_0000]),
            i(&[1, -1, i32::MIN, 0x4000_0000]),
        ],
        &[0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x7fff_ffff],
    );
    check(
        "usub_sat",
        32,
        &[u(&[5, 3, 0xffff_ffff, 0]), u(&[3, 5, 1, 0xffff_ffff])],
        &[2, 0, 0xffff_fffe, 0],
    );
    // 0 - -2^31 = 2^31 clamps to MAX; MIN - 1 to MIN; -1 - MAX is exactly MIN.
    check(
        "isub_sat",
        32,
        &[i(&[0, 0, i32::MIN, -1]), i(&[-2, i32::MIN, 1, i32::MAX])],
        &[2, 0x7fff_ffff, 0x8000_0000, 0x8000_0000],
    );
}

#[test]
fn integer_comparisons() {
    check("ieq32", 32, &[u(&[1, 2]), u(&[1, 3])], &[T, 0]);
    check("ine32", 32, &[u(&[1, 2]), u(&[1, 3])], &[0, T]);
    check("ilt32", 32, &[i(&[-1, 0]), i(&[0, -1])], &[T, 0]);
    check("ige32", 32, &[i(&[-1, 0, 5]), i(&[0, -1, 5])], &[0, T, T]);
    check("ult32", 32, &[u(&[T32, 0]), u(&[0, T32])], &[0, T]);
    check("uge32", 32, &[u(&[T32, 0, 5]), u(&[0, T32, 5])], &[T, 0, T]);
}

#[test]
fn bitfield_ops() {
    // ubfe(base, offset, bits): offset and bits use their low 5 bits; bits == 0 gives 0;
    // offset + bits >= 32 gives base >> offset.
    check(
        "ubfe",
        32,
        &[u(&[0xdead_beef; 4]), u(&[8, 28, 0, 36]), u(&[8, 8, 32, 4])],
        &[0xbe, 0xd, 0, 0xe],
    );
    // ibfe sign-extends the field: 0b1111 -> -1, 0b1000 -> -8, 0b0100 -> 4.
    check(
        "ibfe",
        32,
        &[
            u(&[0xf000, 0x8000, 0x4000]),
            u(&[12, 12, 12]),
            u(&[4, 4, 4]),
        ],
        &[T, 0xffff_fff8, 4],
    );
    check(
        "extract_u8",
        32,
        &[u(&[0xdead_beef, 0xdead_beef]), u(&[1, 3])],
        &[0xbe, 0xde],
    );
    // extract_u16(x, n): the n-th 16-bit half of x, zero-extended.
    check(
        "extract_u16",
        32,
        &[u(&[0xdead_beef, 0xdead_beef, 0x8000_0001]), u(&[0, 1, 1])],
        &[0xbeef, 0xdead, 0x8000],
    );
    check(
        "bitfield_reverse",
        32,
        &[u(&[1, 0xf, 0x1234_5678])],
        &[0x8000_0000, 0xf000_0000, 0x1e6a_2c48],
    );
    // bfi(mask, insert, base): insert shifted to the mask's lowest set bit.
    check(
        "bfi",
        32,
        &[
            u(&[0xff00, 0]),
            u(&[0xab, 0xab]),
            u(&[0x1234_5678, 0x1234_5678]),
        ],
        &[0x1234_ab78, 0x1234_5678],
    );
    check("bit_count", 32, &[u(&[0xf0f0, 0, T32])], &[8, 0, 32]);
    check("find_lsb", 32, &[u(&[0, 0x8000_0000, 12])], &[T, 31, 2]);
    check("ufind_msb", 32, &[u(&[0, 0x8000_0000, 1])], &[T, 31, 0]);
    // ifind_msb finds the highest bit differing from the sign bit.
    check(
        "ifind_msb",
        32,
        &[i(&[-1, 0, -2, i32::MAX])],
        &[T, T, 0, 30],
    );
    check("ifind_msb", 32, &[i(&[i32::MIN])], &[30]);
}

#[test]
fn pack_and_unpack() {
    check("pack_half_2x16", 32, &[f(&[1.0, -2.0])], &[0xc000_3c00]);
    check_f("unpack_half_2x16", &[u(&[0xc000_3c00])], &[1.0, -2.0]);
    // snorm: round_even(clamp(x, -1, 1) * 32767); 0.5 * 32767 = 16383.5 -> 16384.
    check("pack_snorm_2x16", 32, &[f(&[1.0, -1.0])], &[0x8001_7fff]);
    check("pack_snorm_2x16", 32, &[f(&[0.5, NAN])], &[0x4000]);
    check("pack_unorm_2x16", 32, &[f(&[1.0, -3.0])], &[0xffff]);
    // unorm: 0.5 * 255 = 127.5 -> 128 (even), 2.0 clamps to 1.0.
    check(
        "pack_unorm_4x8",
        32,
        &[f(&[1.0, 0.0, 0.5, 2.0])],
        &[0xff80_00ff],
    );
    check_f(
        "unpack_unorm_4x8",
        &[u(&[0xff80_00ff])],
        &[1.0, 0.0, 128.0 / 255.0, 1.0],
    );
    // -32768 / 32767 clamps to -1.
    check_f("unpack_snorm_2x16", &[u(&[0x8000_7fff])], &[1.0, -1.0]);
    check_f(
        "unpack_snorm_4x8",
        &[u(&[0x0080_817f])],
        &[1.0, -1.0, -1.0, 0.0],
    );
}

#[test]
fn vector_construction_and_mov() {
    check("vec2", 32, &[u(&[1]), u(&[2])], &[1, 2]);
    check("vec3", 32, &[u(&[1]), u(&[2]), u(&[3])], &[1, 2, 3]);
    check(
        "vec4",
        32,
        &[u(&[1]), u(&[2]), u(&[3]), u(&[4])],
        &[1, 2, 3, 4],
    );
    check("mov", 32, &[u(&[5, 6, 7])], &[5, 6, 7]);
}

#[test]
fn float64_and_float16_widths() {
    // binary64: sqrt(2) = 0x3ff6a09e667f3bcd, 1/3 = 0x3fd5555555555555.
    check("fsqrt", 64, &[d(&[2.0])], &[0x3ff6_a09e_667f_3bcd]);
    check("frcp", 64, &[d(&[3.0])], &[0x3fd5_5555_5555_5555]);
    // 2^-1074 * 0.5 ties to even (+0); * 1.5 is 1.5 ulp, ties to 2 ulp.
    check("fmul", 64, &[Src(64, vec![1, 1]), d(&[0.5, 1.5])], &[0, 2]);
    check("ffloor", 64, &[d(&[-0.5])], &[0xbff0_0000_0000_0000]);
    check(
        "fmax",
        64,
        &[d(&[f64::NAN]), d(&[-2.0])],
        &[(-2.0f64).to_bits()],
    );
    // binary16: sqrt(2) = 1 + 424/1024 (0.41421 * 1024 = 424.15) -> 0x3da8; 256 * 256
    // overflows to inf; the smallest denormals add exactly; fneg flips the sign bit.
    check("fsqrt", 16, &[h(&[0x4000])], &[0x3da8]);
    check("fmul", 16, &[h(&[0x5c00]), h(&[0x5c00])], &[0x7c00]);
    check("fadd", 16, &[h(&[0x0001]), h(&[0x0001])], &[0x0002]);
    check("fneg", 16, &[h(&[0x3c00])], &[0xbc00]);
    check(
        "flt32",
        32,
        &[h(&[0x3c00, 0x7e00]), h(&[0x4000, 0x4000])],
        &[T, 0],
    );
}
