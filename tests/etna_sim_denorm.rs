//! Single-precision denormals on the Vivante simulator: float-typed instructions that compute
//! read denormal operands as zero and write denormal results as zero; plain moves and integer
//! instructions keep the bits. Bit patterns are worked out from the binary32 format (bias 127,
//! 23 fraction bits): an exponent field of 0 with a non-zero fraction is a denormal.

use gpucc::etnaviv::isa::{assemble, Inst};
use gpucc::etnaviv::sim::{run_quad, Machine};
use gpucc::etnaviv::specs::Specs;

/// 2^-149, the smallest denormal.
const MIN_DENORM: u32 = 0x0000_0001;
/// The largest denormal, (1 - 2^-23) * 2^-126.
const MAX_DENORM: u32 = 0x007f_ffff;
/// 2^-126, the smallest normal.
const MIN_NORMAL: u32 = 0x0080_0000;
const SIGN: u32 = 0x8000_0000;
const ONE: u32 = 0x3f80_0000;
/// 2^-121 (exponent field 6), 2^-28 (99), 2^-63 (64).
const P2_M121: u32 = 6 << 23;
const P2_M28: u32 = 99 << 23;
const P2_M63: u32 = 64 << 23;

fn program(core: &str, text: &str) -> Vec<Inst> {
    let specs = Specs::from_name(core).unwrap();
    assemble(specs, text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn run(core: &str, text: &str, setup: impl FnOnce(&mut Machine)) -> Machine {
    let mut m = Machine::new(Specs::from_name(core).unwrap());
    setup(&mut m);
    m.run(&program(core, text))
        .unwrap_or_else(|e| panic!("{e}"));
    m
}

#[test]
fn float_results_that_are_denormal_flush_to_signed_zero() {
    for core in ["gc2000", "gc7000"] {
        let m = run(core, "mul t3, t1.xyzw, t2.xyzw, void", |m| {
            // x: piglit fs-underflow-mul-compare-zero, 2^-121 * 2^-28 = 2^-149 → +0.
            // y: 2^-63 * 2^-63 = 2^-126, normal, kept.
            // z: 2^-149 * 1.0 → +0; w: -2^-121 * 2^-28 → -0.
            m.set_temp_bits(1, [P2_M121, P2_M63, MIN_DENORM, P2_M121 | SIGN]);
            m.set_temp_bits(2, [P2_M28, P2_M63, ONE, P2_M28]);
        });
        assert_eq!(m.temp_bits(3), [0, MIN_NORMAL, 0, SIGN], "{core}");
    }
}

#[test]
fn float_operands_that_are_denormal_read_as_zero() {
    let m = run(
        "gc7000",
        "add t3, t1.xyzw, void, t2.xyzw
         set.eq t4, t1.xyzw, t5.xyzw, void
         select.gt t6, t1.xyzw, t2.xyzw, t1.xyzw
         mad t7, t1.xyzw, t8.xyzw, t2.xyzw",
        |m| {
            m.set_temp_bits(1, [MIN_DENORM, MAX_DENORM, SIGN | MIN_DENORM, ONE]);
            m.set_temp_bits(2, [MIN_NORMAL, MIN_NORMAL, MIN_NORMAL, ONE]);
            m.set_temp_bits(5, [0; 4]);
            // 2^100: a denormal times 2^100 would be normal (2^-49) if it were kept.
            m.set_temp_bits(8, [(127 + 100) << 23; 4]);
        },
    );
    // Kept, 2^-149 + 2^-126 would be 0x00800001; flushed, it is 2^-126; 1 + 1 = 2.
    assert_eq!(
        m.temp_bits(3),
        [MIN_NORMAL, MIN_NORMAL, MIN_NORMAL, 0x4000_0000]
    );
    // A denormal equals zero (1.0 for true with a float type).
    assert_eq!(m.temp(4), [1.0, 1.0, 1.0, 0.0]);
    // select.gt (Mesa's fmin): x > y ? y : x with both read as numbers, so the denormal
    // lanes give the flushed x (0, 0, -0) and lane w gives 1.0.
    assert_eq!(m.temp_bits(6), [0, 0, SIGN, ONE]);
    // denormal * 2^100 + 2^-126 = 0 + 2^-126; 1 * 2^100 + 1 = 2^100 + 1 rounds to 2^100.
    assert_eq!(
        m.temp_bits(7),
        [MIN_NORMAL, MIN_NORMAL, MIN_NORMAL, (127 + 100) << 23]
    );
}

#[test]
fn moves_and_integer_instructions_keep_denormal_patterns() {
    let m = run(
        "gc7000",
        "mov t3, void, void, t1.xyzw
         add.s32 t4, t1.xyzw, void, t1.xyzw
         or.u32 t5, t1.xyzw, void, t2.xyzw
         select.nz.u32 t6, t2.xyzw, t1.xyzw, t2.xyzw
         mov t7, void, void, -t1.xyzw",
        |m| {
            m.set_temp_bits(1, [MIN_DENORM, MAX_DENORM, 2, SIGN | 3]);
            m.set_temp_bits(2, [0x0040_0000, 0, 1, 1]);
        },
    );
    assert_eq!(m.temp_bits(3), [MIN_DENORM, MAX_DENORM, 2, SIGN | 3]);
    // As integers: 1 + 1, 0x7fffff * 2, 2 + 2, (-2^31 + 3) * 2 wraps to 6.
    assert_eq!(m.temp_bits(4), [2, 0x00ff_fffe, 4, 6]);
    assert_eq!(m.temp_bits(5), [0x0040_0001, MAX_DENORM, 3, SIGN | 3]);
    // Integer select on src0 != 0: lanes x, z, w pick src1, lane y picks src2 (0).
    assert_eq!(m.temp_bits(6), [MIN_DENORM, 0, 2, SIGN | 3]);
    // A MOV with a negate computes on floats (fneg): the denormals become signed zeros.
    assert_eq!(m.temp_bits(7), [SIGN, SIGN, SIGN, 0]);
}

#[test]
fn derivatives_flush_a_denormal_difference() {
    // DSX of x across the quad's rows: row 0 is 1.5 * 2^-126 - 2^-126 = 2^-127 (a denormal,
    // 0x00400000 if kept) → 0; row 1 is 2^-125 - 2^-126 = 2^-126, normal.
    let p = program("gc3000", "dsx t2, t1.xxxx, void, t1.xxxx");
    let core = Specs::from_name("gc3000").unwrap();
    let mut quad: Vec<Machine> = (0..4).map(|_| Machine::new(core)).collect();
    let xs = [MIN_NORMAL, MIN_NORMAL | 0x0040_0000, MIN_NORMAL, 2 << 23];
    for (m, x) in quad.iter_mut().zip(xs) {
        m.set_temp_bits(1, [x; 4]);
    }
    run_quad(&mut quad, &p).unwrap();
    assert_eq!(quad[0].temp_bits(2), [0; 4]);
    assert_eq!(quad[1].temp_bits(2), [0; 4]);
    assert_eq!(quad[2].temp_bits(2), [MIN_NORMAL; 4]);
    assert_eq!(quad[3].temp_bits(2), [MIN_NORMAL; 4]);
}
