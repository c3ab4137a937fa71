//! Simulator tests per opcode family. Every expectation is worked out by hand from the
//! operands (comments show the arithmetic), not taken from the simulator's own output.

use gpucc::etnaviv::isa::{assemble, Cond, Inst};
use gpucc::etnaviv::sim::{run_quad, Machine, SimError};
use gpucc::etnaviv::specs::Specs;

fn specs(name: &str) -> &'static Specs {
    Specs::from_name(name).unwrap()
}

fn program(core: &str, text: &str) -> Vec<Inst> {
    assemble(specs(core), text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn run(core: &str, text: &str, setup: impl FnOnce(&mut Machine)) -> Machine {
    let mut m = Machine::new(specs(core));
    setup(&mut m);
    let p = program(core, text);
    m.run(&p).unwrap_or_else(|e| panic!("{e}"));
    m
}

fn close(a: [f32; 4], b: [f32; 4]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (x - y).abs() <= 1e-6 * y.abs().max(1.0))
}

#[test]
fn float_arithmetic() {
    let m = run(
        "gc3000",
        "add t3, t1.xyzw, void, t2.xyzw
         mad t4, t1.xyzw, t2.xyzw, t1.xyzw
         mul t5, -t1.xyzw, |t2.xyzw|, void
         dp3 t6.x___, t1.xyzw, t2.xyzw, void
         dp4 t6._y__, t1.xyzw, t2.xyzw, void
         dp2 t6.__z_, t1.xyzw, t2.xyzw, void
         mov.sat t7, void, void, t2.xyzw
         mov t8.x_z_, void, void, t1.wzyx
         frc t9, void, void, t10.xyzw
         floor t11, void, void, t10.xyzw
         ceil t12, void, void, t10.xyzw
         sign t13, void, void, t10.xyzw
         clamp0_max t14, t10.xyzw, u0.xxxx, void",
        |m| {
            m.set_temp(1, [1.0, 2.0, 3.0, 4.0]);
            m.set_temp(2, [0.5, -1.0, 2.0, 0.25]);
            m.set_temp(8, [9.0; 4]);
            m.set_temp(10, [1.25, -1.25, 0.0, 3.0]);
            m.set_uniform(0, [2.0; 4]);
        },
    );
    assert_eq!(m.temp(3), [1.5, 1.0, 5.0, 4.25]);
    // 1*.5+1, 2*-1+2, 3*2+3, 4*.25+4
    assert_eq!(m.temp(4), [1.5, 0.0, 9.0, 5.0]);
    assert_eq!(m.temp(5), [-0.5, -2.0, -6.0, -1.0]);
    // dp3 = .5 - 2 + 6; dp4 adds 4*.25; dp2 = .5 - 2
    assert_eq!(m.temp(6)[..3], [4.5, 5.5, -1.5]);
    assert_eq!(m.temp(7), [0.5, 0.0, 1.0, 0.25]);
    // x ← t1.w, z ← t1.y, y/w untouched
    assert_eq!(m.temp(8), [4.0, 9.0, 2.0, 9.0]);
    assert_eq!(m.temp(9), [0.25, 0.75, 0.0, 0.0]);
    assert_eq!(m.temp(11), [1.0, -2.0, 0.0, 3.0]);
    assert_eq!(m.temp(12), [2.0, -1.0, 0.0, 3.0]);
    assert_eq!(m.temp(13), [1.0, -1.0, 0.0, 1.0]);
    // clamp(x, 0, 2)
    assert_eq!(m.temp(14), [1.25, 0.0, 0.0, 2.0]);
}

#[test]
fn scalar_float_ops() {
    let m = run(
        "gc3000",
        "rcp t2, void, void, t1.xxxx
         rsq t3, void, void, t1.yyyy
         sqrt t4, void, void, t1.yyyy
         exp t5, void, void, t1.zzzz",
        |m| m.set_temp(1, [4.0, 16.0, -2.0, 0.0]),
    );
    assert_eq!(m.temp(2), [0.25; 4]);
    assert_eq!(m.temp(3), [0.25; 4]);
    assert_eq!(m.temp(4), [4.0; 4]);
    assert_eq!(m.temp(5), [0.25; 4]);
}

/// Lanes: a = (1, 2, 0, -3), b = (2, 1, 0, 0); the truth of each condition per lane.
const A: [f32; 4] = [1.0, 2.0, 0.0, -3.0];
const B: [f32; 4] = [2.0, 1.0, 0.0, 0.0];
const TRUTH: [(&str, Cond, [bool; 4]); 17] = [
    ("", Cond::True, [true, true, true, true]),
    (".gt", Cond::Gt, [false, true, false, false]),
    (".lt", Cond::Lt, [true, false, false, true]),
    (".ge", Cond::Ge, [false, true, true, false]),
    (".le", Cond::Le, [true, false, true, true]),
    (".eq", Cond::Eq, [false, false, true, false]),
    (".ne", Cond::Ne, [true, true, false, true]),
    (".and", Cond::And, [true, true, false, false]),
    (".or", Cond::Or, [true, true, false, true]),
    (".xor", Cond::Xor, [false, false, false, true]),
    (".not", Cond::Not, [false, false, true, false]),
    (".nz", Cond::Nz, [true, true, false, true]),
    (".gez", Cond::Gez, [true, true, true, false]),
    (".gz", Cond::Gz, [true, true, false, false]),
    (".lez", Cond::Lez, [false, false, true, true]),
    (".lz", Cond::Lz, [false, false, false, true]),
    // Sign bit of a: only -3 has it.
    (".selmsb", Cond::SelMsb, [false, false, false, true]),
];

fn run_cond(op: &str, suffix: &str, ty: &str, a: [u32; 4], b: [u32; 4], c: [u32; 4]) -> [u32; 4] {
    let text = format!("{op}{suffix}{ty} t4, t1.xyzw, t2.xyzw, t3.xyzw");
    let m = run("gc3000", &text, |m| {
        m.set_temp_bits(1, a);
        m.set_temp_bits(2, b);
        m.set_temp_bits(3, c);
    });
    m.temp_bits(4)
}

#[test]
fn every_select_condition() {
    let c = [10.0f32, 20.0, 30.0, 40.0];
    for (suffix, cond, truth) in TRUTH {
        let got = run_cond(
            "select",
            suffix,
            "",
            A.map(f32::to_bits),
            B.map(f32::to_bits),
            c.map(f32::to_bits),
        );
        let want: Vec<u32> = (0..4)
            .map(|k| if truth[k] { B[k] } else { c[k] }.to_bits())
            .collect();
        assert_eq!(got.to_vec(), want, "select{suffix} ({cond:?})");
    }
}

#[test]
fn every_set_condition() {
    for (suffix, cond, truth) in TRUTH {
        let text = format!("set{suffix} t4, t1.xyzw, t2.xyzw, void");
        let m = run("gc3000", &text, |m| {
            m.set_temp(1, A);
            m.set_temp(2, B);
        });
        let want = truth.map(|t| if t { 1.0 } else { 0.0 });
        assert_eq!(m.temp(4), want, "set{suffix} ({cond:?})");
    }
}

#[test]
fn every_cmp_condition() {
    let t = [u32::MAX; 4];
    for (suffix, cond, truth) in TRUTH {
        let got = run_cond(
            "cmp",
            suffix,
            "",
            A.map(f32::to_bits),
            B.map(f32::to_bits),
            t,
        );
        let want = truth.map(|x| if x { u32::MAX } else { 0 });
        assert_eq!(got, want, "cmp{suffix} ({cond:?})");
    }
}

#[test]
fn integer_conditions() {
    let a = [1i32, 2, 0, -3].map(|x| x as u32);
    let b = [2i32, 1, 0, 0].map(|x| x as u32);
    let ones = [u32::MAX; 4];
    for (suffix, cond, truth) in TRUTH {
        // As s32 the lanes compare like the float ones (and the sign bit is the msb).
        let got = run_cond("cmp", suffix, ".s32", a, b, ones);
        assert_eq!(
            got,
            truth.map(|x| if x { u32::MAX } else { 0 }),
            "cmp{suffix}.s32 ({cond:?})"
        );
    }
    // As u32, -3 is 0xfffffffd: not less than 0, greater than or equal to it.
    assert_eq!(
        run_cond("cmp", ".lt", ".u32", a, b, ones),
        [u32::MAX, 0, 0, 0]
    );
    assert_eq!(
        run_cond("cmp", ".ge", ".u32", a, b, ones),
        [0, u32::MAX, u32::MAX, u32::MAX]
    );
    assert_eq!(run_cond("cmp", ".lz", ".u32", a, b, ones), [0; 4]);
    // select.lt.s32 = imax-style selection: a < b ? b : c
    assert_eq!(
        run_cond("select", ".lt", ".s32", a, b, [7; 4]),
        [2, 7, 7, 0]
    );
}

#[test]
fn branches_and_loops() {
    // sum = 0; i = 0; do { sum += i; i += 1 } while (i < 5)  →  sum 0+1+2+3+4 = 10
    let text = "mov t1.x___, void, void, u0.xxxx
                mov t2.x___, void, void, u0.yyyy
                add t1.x___, t1.xxxx, void, t2.xxxx
                add t2.x___, t2.xxxx, void, u0.zzzz
                branch.lt void, t2.xxxx, u0.wwww, 2";
    let p = program("gc3000", text);
    let mut m = Machine::new(specs("gc3000"));
    m.set_uniform(0, [0.0, 0.0, 1.0, 5.0]);
    let out = m.run(&p).unwrap();
    assert_eq!(m.temp(1)[0], 10.0);
    assert_eq!(m.temp(2)[0], 5.0);
    // 2 set-up instructions + 5 iterations of 3.
    assert_eq!(out.steps, 17);
    assert!(!out.killed);

    // Unconditional branch over an instruction; call/ret into a subroutine at the end.
    let text = "branch void, void, void, 2
                mov t1, void, void, u0.xxxx
                call void, void, void, 5
                add t2, t2.xxxx, void, u0.yyyy
                ret void, void, void, void
                mov t2, void, void, u0.zzzz
                ret void, void, void, void";
    let m = run("gc3000", text, |m| {
        m.set_temp(1, [7.0; 4]);
        m.set_uniform(0, [1.0, 2.0, 3.0, 0.0]);
    });
    assert_eq!(m.temp(1), [7.0; 4], "skipped");
    // subroutine sets 3, then 3 + 2
    assert_eq!(m.temp(2), [5.0; 4]);

    // Conditional branch tests every component; branch_any any component.
    for (op, taken) in [("branch.gt", false), ("branch_any.gt", true)] {
        let text = format!(
            "{op} void, t1.xyzw, u0.xxxx, 2
             mov t2, void, void, u0.yyyy"
        );
        let m = run("gc3000", &text, |m| {
            m.set_temp(1, [1.0, 5.0, 1.0, 1.0]);
            m.set_uniform(0, [2.0, 9.0, 0.0, 0.0]);
        });
        assert_eq!(m.temp(2)[0] == 0.0, taken, "{op}");
    }
}

#[test]
fn endless_loop_is_an_error() {
    let p = program("gc3000", "branch void, void, void, 0");
    let mut m = Machine::new(specs("gc3000"));
    m.max_steps = 1000;
    let e: SimError = m.run(&p).unwrap_err();
    assert_eq!(e.pc, 0);
}

#[test]
fn texkill() {
    let p = program(
        "gc3000",
        "mov t2, void, void, u0.xxxx\ntexkill void, void, void, void\nmov t3, void, void, u0.xxxx",
    );
    let mut m = Machine::new(specs("gc3000"));
    let out = m.run_fragment(&p, [0.0; 4], &[]).unwrap();
    assert!(out.killed);
    assert_eq!(out.steps, 2);
    // Conditional: kill when t1.x < 0.
    for (x, killed) in [(-1.0f32, true), (0.5, false)] {
        let p = program("gc3000", "texkill.lt void, t1.xxxx, u0.xxxx, void");
        let mut m = Machine::new(specs("gc3000"));
        m.set_uniform(0, [0.0; 4]);
        let out = m.run_fragment(&p, [0.0; 4], &[[x, 0.0, 0.0, 0.0]]).unwrap();
        assert_eq!(out.killed, killed, "x = {x}");
    }
}

#[test]
fn old_style_transcendentals() {
    // GC2000: SIN/COS take quarter turns (x·π/2), one result component.
    let m = run(
        "gc2000",
        "sin t2, void, void, t1.xxxx
         cos t3, void, void, t1.yyyy
         log t4, void, void, t1.zzzz",
        |m| m.set_temp(1, [1.0, 2.0, 8.0, 0.0]),
    );
    assert!(close(m.temp(2), [1.0; 4]), "sin(π/2) {:?}", m.temp(2));
    assert!(close(m.temp(3), [-1.0; 4]), "cos(π) {:?}", m.temp(3));
    assert_eq!(m.temp(4), [3.0; 4]);
}

#[test]
fn new_style_transcendentals_combine_with_mul() {
    // GC3000: SIN/COS take half turns (x·π); SIN, COS, LOG and DIV write value parts to
    // two components that the following MUL multiplies, as Mesa emits them.
    let m = run(
        "gc3000",
        "sin.rtz t2.xy__, void, void, t1.xxxx
         mul t3.x___, t2.xxxx, t2.yyyy, void
         cos.rtz t2.xy__, void, void, t1.xxxx
         mul t3._y__, t2.xxxx, t2.yyyy, void
         log.rtz t2.xy__, void, void, t1.zzzz
         mul t3.__z_, t2.xxxx, t2.yyyy, void
         div.rtz t2.xy__, void, t1.wwww, t1.zzzz
         mul t3.___w, t2.xxxx, t2.yyyy, void",
        |m| m.set_temp(1, [0.5, 0.0, 8.0, 2.0]),
    );
    // sin(π/2) = 1, cos(π/2) = 0, log2 8 = 3, 2 / 8 = 0.25
    assert!(close(m.temp(3), [1.0, 0.0, 3.0, 0.25]), "{:?}", m.temp(3));
    // The parts alone are not the result: 3 = 0.75 · 4, 0.25 = 0.5 · 0.5 (last DIV).
    assert_eq!(m.temp(2)[..2], [0.5, 0.5]);
}

#[test]
fn conversions() {
    let m = run(
        "gc3000",
        "i2f.s32 t2, t1.xyzw, void, void
         f2i.s32 t3, t4.xyzw, void, void
         f2irnd.s32.rtne t5, t4.xyzw, void, void
         i2i.s16 t6, t7.xyzw, 16:s20, void
         f2i.u8 t8, t4.xyzw, void, void",
        |m| {
            m.set_temp_int(1, [-7, 0, 16_777_217, 3]);
            m.set_temp(4, [-2.7, 2.5, 3.5, 1000.0]);
            m.set_temp_int(7, [0x12345, -1, 0x8000, 5]);
        },
    );
    // 16777217 is not a float: nearest is 16777216.
    assert_eq!(m.temp(2), [-7.0, 0.0, 16_777_216.0, 3.0]);
    assert_eq!(m.temp_int(3), [-2, 2, 3, 1000]);
    // Ties to even: 2.5 → 2, 3.5 → 4; -2.7 → -3.
    assert_eq!(m.temp_int(5), [-3, 2, 4, 1000]);
    // Low 16 bits sign-extended: 0x2345, -1, 0x8000 → -32768.
    assert_eq!(m.temp_int(6), [0x2345, -1, -32768, 5]);
    // Saturating to u8: -2.7 → 0, 1000 → 255.
    assert_eq!(m.temp_int(8), [0, 2, 3, 255]);
}

#[test]
fn integer_arithmetic() {
    let m = run(
        "gc3000",
        "add.s32 t3, t1.xyzw, void, t2.xyzw
         imullo0.s32 t4, t1.xyzw, t2.xyzw, void
         imulhi0.u32 t5, t6.xyzw, t2.xyzw, void
         idiv0.s32 t7, t1.xyzw, t2.xyzw, void
         imod.s32 t8, t1.xyzw, t2.xyzw, void
         iaddsat.s32 t9, t10.xyzw, void, t2.xyzw
         iabs.s32 t11, void, void, t1.xyzw
         imadlo0.s32 t12, t1.xyzw, t2.xyzw, t1.xyzw
         add.s32 t13, t1.xyzw, void, -t2.xyzw",
        |m| {
            m.set_temp_int(1, [-7, 6, 100, i32::MIN]);
            m.set_temp_int(2, [2, -4, 0, 1]);
            m.set_temp_bits(6, [0x8000_0000, 0xffff_ffff, 3, 0]);
            m.set_temp_int(10, [i32::MAX, i32::MIN, 5, 0]);
        },
    );
    assert_eq!(m.temp_int(3), [-5, 2, 100, i32::MIN + 1]);
    assert_eq!(m.temp_int(4), [-14, -24, 0, i32::MIN]);
    // 0x80000000·2 = 2^32 → hi 1; 0xffffffff·0xfffffffc → hi 0xfffffffb; 3·0; 0·1.
    assert_eq!(m.temp_bits(5), [1, 0xffff_fffb, 0, 0]);
    // Truncating division; by zero gives 0.
    assert_eq!(m.temp_int(7), [-3, -1, 0, i32::MIN]);
    assert_eq!(m.temp_int(8), [-1, 2, 0, 0]);
    // MAX + 2 saturates; MIN - 4 saturates; 5 + 0; 0 + 1.
    assert_eq!(m.temp_int(9), [i32::MAX, i32::MIN, 5, 1]);
    // |MIN| wraps to MIN in 32 bits.
    assert_eq!(m.temp_int(11), [7, 6, 100, i32::MIN]);
    assert_eq!(m.temp_int(12), [-21, -18, 100, 0]);
    assert_eq!(m.temp_int(13), [-9, 10, 100, i32::MAX]);
}

#[test]
fn bit_operations() {
    let m = run(
        "gc3000",
        "and.u32 t3, t1.xyzw, void, t2.xyzw
         or.u32 t4, t1.xyzw, void, t2.xyzw
         xor.u32 t5, t1.xyzw, void, t2.xyzw
         not.u32 t6, void, void, t1.xyzw
         lshift.u32 t7, t1.xyzw, void, 4:u20
         rshift.s32 t8, t9.xyzw, void, 1:u20
         rshift.u32 t10, t9.xyzw, void, 1:u20
         rotate.u32 t11, t1.xyzw, void, 8:u20
         leadzero.u32 t12, void, void, t1.xyzw
         popcount.u32 t13, void, void, t1.xyzw
         bit_rev.u32 t14, t1.xyzw, void, void
         bit_findlsb.u32 t15, t1.xyzw, void, void
         bit_findmsb.s32 t16, t9.xyzw, void, void
         bit_extract.s32 t17, t18.xyzw, t19.xyzw, t20.xyzw
         bit_extract.u32 t21, t18.xyzw, t19.xyzw, t20.xyzw",
        |m| {
            m.set_temp_bits(1, [0xf0, 1, 0x8000_0001, 0]);
            m.set_temp_bits(2, [0x3c, 2, 1, 0]);
            m.set_temp_int(9, [-8, 8, 1, -1]);
            m.set_temp_bits(18, [0xf0, 0xf0, 0x1234_5678, 0xff]);
            m.set_temp_bits(19, [4, 3, 8, 0]);
            m.set_temp_bits(20, [4, 4, 8, 0]);
        },
    );
    assert_eq!(m.temp_bits(3), [0x30, 0, 1, 0]);
    assert_eq!(m.temp_bits(4), [0xfc, 3, 0x8000_0001, 0]);
    assert_eq!(m.temp_bits(5), [0xcc, 3, 0x8000_0000, 0]);
    assert_eq!(
        m.temp_bits(6),
        [0xffff_ff0f, 0xffff_fffe, 0x7fff_fffe, 0xffff_ffff]
    );
    assert_eq!(m.temp_bits(7), [0xf00, 0x10, 0x10, 0]);
    assert_eq!(m.temp_int(8), [-4, 4, 0, -1]);
    assert_eq!(m.temp_bits(10), [0x7fff_fffc, 4, 0, 0x7fff_ffff]);
    assert_eq!(m.temp_bits(11), [0xf000, 0x100, 0x0000_0180, 0]);
    assert_eq!(m.temp_bits(12), [24, 31, 0, 32]);
    assert_eq!(m.temp_bits(13), [4, 1, 2, 0]);
    assert_eq!(m.temp_bits(14), [0x0f00_0000, 0x8000_0000, 0x8000_0001, 0]);
    assert_eq!(m.temp_int(15), [4, 0, 0, -1]);
    // -8 → highest clear... !(-8) = 7 → bit 2; 8 → 3; 1 → 0; -1 → !(-1) = 0 → -1.
    assert_eq!(m.temp_int(16), [2, 3, 0, -1]);
    // 0xf0 bits 4..7 = 0xf → -1 signed; bits 3..6 = 0b1110 → -2; 0x12345678 bits 8..15 = 0x56;
    // zero width → 0.
    assert_eq!(m.temp_int(17), [-1, -2, 0x56, 0]);
    assert_eq!(m.temp_int(21), [15, 14, 0x56, 0]);
}

#[test]
fn address_register() {
    let m = run(
        "gc3000",
        "movar t0.x___, void, void, t1.xxxx
         mov t2, void, void, t4[a.x].xyzw
         mov t3[a.x].x___, void, void, t1.yyyy
         movai.s32 void, void, void, t9.xxxx",
        |m| {
            m.set_temp(1, [2.7, 9.0, 0.0, 0.0]);
            m.set_temp(6, [6.0; 4]);
            m.set_temp_int(9, [11, 0, 0, 0]);
        },
    );
    // a.x = floor(2.7) = 2: t4[a.x] is t6, t3[a.x] is t5.
    assert_eq!(m.temp(2), [6.0; 4]);
    assert_eq!(m.temp(5)[0], 9.0);
    // movai with no write mask bits (void dst) leaves `a` alone.
    assert_eq!(m.address, [2, 0, 0, 0]);
}

#[test]
fn load_and_store_bytes() {
    let mut m = Machine::new(specs("gc7000"));
    m.memory = vec![0; 32];
    m.set_temp_bits(1, [0x1122_3344, 0x5566_7788, 7, 8]);
    m.set_uniform_bits(0, [8, 0, 0, 0]);
    let p = program(
        "gc7000",
        "store.u32 mem.xy__, u0.xxxx, 4:s20, t1.xyzw
         load.u32 t2.xy__, u0.xxxx, 4:s20, void",
    );
    m.run(&p).unwrap();
    // Base 8 + 4 = byte 12: 44 33 22 11 88 77 66 55.
    assert_eq!(
        m.memory[12..20],
        [0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55]
    );
    assert_eq!(m.temp_bits(2)[..2], [0x1122_3344, 0x5566_7788]);
    // Enabled components take consecutive words: a scalar load into .z reads byte 12 itself,
    // and a store from .yw writes t1.y then t1.w.
    let p = program(
        "gc7000",
        "load.u32 t3.__z_, u0.xxxx, 4:s20, void
         store.u32 mem._y_w, u0.xxxx, 12:s20, t1.xyzw",
    );
    m.run(&p).unwrap();
    assert_eq!(m.temp_bits(3)[2], 0x1122_3344);
    assert_eq!(m.memory[20..28], [0x88, 0x77, 0x66, 0x55, 8, 0, 0, 0]);
    let bad = program("gc7000", "load.u32 t2, u0.xxxx, 100:s20, void");
    assert!(m.run(&bad).is_err());
}

/// LOAD reaches buffers at their GPU addresses through the read-only regions (what the
/// simulated GPU gives a draw's shaders); an address between regions is outside memory.
#[test]
fn loads_read_regions_at_their_gpu_addresses() {
    let mut m = Machine::new(specs("gc7000"));
    let words = |ws: &[u32]| ws.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    m.regions = std::sync::Arc::new(vec![
        (0x0040_0000, words(&[1, 2, 3, 4])),
        (0xfff0_0000, words(&[10, 20, 30, 40, 50])),
    ]);
    m.set_uniform_bits(0, [0xfff0_0000, 0x0040_0000, 0x0050_0000, 0]);
    let p = program(
        "gc7000",
        "load.u32 t2.xyz_, u0.xxxx, 4:s20, void
         load.u32 t3.x___, u0.yyyy, 12:s20, void",
    );
    m.run(&p).unwrap();
    assert_eq!(m.temp_bits(2)[..3], [20, 30, 40]);
    assert_eq!(m.temp_bits(3)[0], 4);
    let between = program("gc7000", "load.u32 t2.x___, u0.zzzz, 0:s20, void");
    assert!(m.run(&between).is_err());
}

#[test]
fn fragment_and_vertex_inputs() {
    let p = program("gc3000", "add t5, t0.xyzw, void, t1.xyzw");
    let mut m = Machine::new(specs("gc3000"));
    m.run_fragment(&p, [10.0, 20.0, 0.5, 1.0], &[[1.0, 2.0, 3.0, 4.0]])
        .unwrap();
    assert_eq!(m.temp(5), [11.0, 22.0, 3.5, 5.0]);
    let mut m = Machine::new(specs("gc3000"));
    m.run_vertex(&p, &[[1.0; 4], [2.0; 4]]).unwrap();
    assert_eq!(m.temp(5), [3.0; 4]);
}

#[test]
fn command_line_set_and_dump() {
    let mut m = Machine::new(specs("gc3000"));
    m.apply_set("t1=1,2,3,4").unwrap();
    m.apply_set("u2=0.5").unwrap();
    m.apply_set("t2=0x3f800000,2").unwrap();
    assert_eq!(m.temp(1), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(m.uniforms[2], [0.5f32.to_bits(); 4]);
    assert_eq!(m.temp(2), [1.0, 2.0, 2.0, 2.0]);
    assert!(m.apply_set("t1").is_err());
    assert!(m.apply_set("q1=1").is_err());
    assert!(m.apply_set("t999=1").is_err());
    let d = m.dump("t1-t2").unwrap();
    assert_eq!(
        d.lines().next().unwrap(),
        "t1: 1 2 3 4  [3f800000 40000000 40400000 40800000]"
    );
    assert_eq!(d.lines().count(), 2);
    assert!(m.dump("t3-t1").is_err());
}

#[test]
fn every_opcode_either_runs_or_says_it_is_not_simulated() {
    use gpucc::etnaviv::isa::{Dst, Opcode, Slot, Src, Swizzle};
    for &op in Opcode::ALL {
        let format = op.formats()[0];
        let mut inst = Inst::new(op);
        for (slot, rule) in format.slots().iter().enumerate() {
            if *rule == Slot::Present {
                inst.src[slot] = Src::temp(0, Swizzle::IDENTITY);
            }
        }
        inst.dst = Dst::temp(1, 15);
        inst.target = 1;
        let mut m = Machine::new(specs("gc7000"));
        m.memory = vec![0; 64];
        let r = m.run(&[inst]);
        let unsupported = matches!(&r, Err(e) if e.message.contains("not simulated"));
        assert_eq!(
            unsupported,
            !gpucc::etnaviv::sim::is_simulated(op),
            "{}: {r:?}",
            op.name()
        );
        if !unsupported {
            assert!(r.is_ok(), "{}: {r:?}", op.name());
        }
    }
}

/// Texel of the shared default model (nir::interp::sampler): unit t, level l, texel (x, y):
/// ((x + 1) / 32, (y + 1) / 32, (t + 1) / 8, 1 - l / 8); level l is 16 >> l texels wide,
/// nearest filtering, repeat wrapping.
fn texel(t: u32, l: u32, x: u32, y: u32) -> [f32; 4] {
    [
        (x + 1) as f32 / 32.0,
        (y + 1) as f32 / 32.0,
        (t + 1) as f32 / 8.0,
        1.0 - l as f32 / 8.0,
    ]
}

#[test]
fn texture_sampling_through_the_shared_model() {
    // texld: (0.5, 0.25) on 16×16 → texel (8, 4) of level 0; tex3 with a .wzyx swizzle.
    let m = run(
        "gc3000",
        "texld t2, tex0.xyzw, t1.xyzw, void, void
         texld t3, tex3.wzyx, t1.xyzw, void, void",
        |m| m.set_temp(1, [0.5, 0.25, 0.0, 2.0]),
    );
    assert_eq!(m.temp(2), texel(0, 0, 8, 4));
    let t = texel(3, 0, 8, 4);
    assert_eq!(m.temp(3), [t[3], t[2], t[1], t[0]]);
    // Repeat wrapping: s = 1.25 → texel 4, t = -0.25 → texel 12.
    let m = run("gc3000", "texld t2, tex0.xyzw, t1.xyzw, void, void", |m| {
        m.set_temp(1, [1.25, -0.25, 0.0, 0.0])
    });
    assert_eq!(m.temp(2), texel(0, 0, 4, 12));
    // texldl: pre-HALTI5 the lod comes from coord.w (2 → 4×4, texel (2, 1)); HALTI5 from src1.
    let m = run("gc3000", "texldl t2, tex0.xyzw, t1.xyzw, void, void", |m| {
        m.set_temp(1, [0.5, 0.25, 0.0, 2.0])
    });
    assert_eq!(m.temp(2), texel(0, 2, 2, 1));
    let m = run(
        "gc7000",
        "texldl t2, tex0.xyzw, t1.xyzw, t5.xxxx, void",
        |m| {
            m.set_temp(1, [0.5, 0.25, 0.0, 2.0]);
            m.set_temp(5, [1.0; 4]);
        },
    );
    // level 1 is 8×8: texel (4, 2)
    assert_eq!(m.temp(2), texel(0, 1, 4, 2));
}

#[test]
fn texture_bias_gradients_shadow_and_fetch() {
    // texldb on GC3000: bias in coord.w; 1 → level 1 (8×8): (0.5, 0.25) → texel (4, 2).
    let m = run("gc3000", "texldb t2, tex0.xyzw, t1.xyzw, void, void", |m| {
        m.set_temp(1, [0.5, 0.25, 0.0, 1.0])
    });
    assert_eq!(m.temp(2), texel(0, 1, 4, 2));
    // On GC7000 the bias is src1.x; coord.w is ignored.
    let m = run(
        "gc7000",
        "texldb t2, tex1.xyzw, t1.xyzw, t3.xxxx, void",
        |m| {
            m.set_temp(1, [0.5, 0.25, 0.0, 3.0]);
            m.set_temp(3, [1.0; 4]);
        },
    );
    assert_eq!(m.temp(2), texel(1, 1, 4, 2));
    // texldd: the shared model samples level 0 whatever the gradients.
    let m = run(
        "gc3000",
        "texldd t2, tex0.xyzw, t1.xyzw, t3.xyzw, t4.xyzw",
        |m| {
            m.set_temp(1, [0.5, 0.25, 0.0, 0.0]);
            m.set_temp(3, [0.25, 0.0, 0.0, 0.0]);
        },
    );
    assert_eq!(m.temp(2), texel(0, 0, 8, 4));
    // Shadow compare in src2: red at s = 0.5 is 9/32.
    for (reference, lit) in [(0.25f32, 1.0f32), (0.3, 0.0)] {
        let m = run(
            "gc3000",
            "texld t2.x___, tex0.xxxx, t1.xyyy, void, t3.xxxx",
            |m| {
                m.set_temp(1, [0.5, 0.0, 0.0, 0.0]);
                m.set_temp(3, [reference; 4]);
            },
        );
        assert_eq!(m.temp(2)[0], lit, "reference {reference}");
    }
    // txf: integer texel (3, 5) at lod 0.0 (a float, as Mesa converts it).
    let m = run(
        "gc7000",
        "txf t2, tex2.xyzw, t1.xyyy, t3.xxxx, 0:u20",
        |m| {
            m.set_temp_int(1, [3, 5, 0, 0]);
            m.set_temp(3, [0.0; 4]);
        },
    );
    assert_eq!(m.temp(2), texel(2, 0, 3, 5));
    // An integer-typed sample returns the model's values times 1024, truncated.
    let m = run(
        "gc7000",
        "texld.s32 t2, tex0.xyzw, t1.xyzw, void, void",
        |m| m.set_temp(1, [0.5, 0.25, 0.0, 0.0]),
    );
    assert_eq!(m.temp_int(2), [288, 160, 128, 1024]);
}

/// A 2×2 quad where pixel i (x = i & 1, y = i >> 1) holds t1 = (i, i², 10·i, 0).
fn quad_with_values(core: &str) -> Vec<Machine> {
    (0..4)
        .map(|i| {
            let mut m = Machine::new(specs(core));
            let f = i as f32;
            m.set_temp(1, [f, f * f, 10.0 * f, 0.0]);
            m
        })
        .collect()
}

#[test]
fn derivatives_over_a_quad() {
    let p = program(
        "gc3000",
        "dsx t2, t1.xyzw, void, t1.xyzw
         dsy t3, t1.xyzw, void, t1.xyzw",
    );
    let mut quad = quad_with_values("gc3000");
    let out = run_quad(&mut quad, &p).unwrap();
    assert!(out.iter().all(|o| !o.killed && o.steps == 2), "{out:?}");
    // DSX: row 0 is pixel 1 − pixel 0 = (1, 1, 10, 0); row 1 is pixel 3 − pixel 2 =
    // (3 − 2, 9 − 4, 30 − 20, 0) = (1, 5, 10, 0).
    // DSY: column 0 is pixel 2 − pixel 0 = (2, 4, 20, 0); column 1 is pixel 3 − pixel 1 =
    // (2, 8, 20, 0).
    let dsx = [[1.0, 1.0, 10.0, 0.0], [1.0, 5.0, 10.0, 0.0]];
    let dsy = [[2.0, 4.0, 20.0, 0.0], [2.0, 8.0, 20.0, 0.0]];
    for (i, m) in quad.iter().enumerate() {
        assert_eq!(m.temp(2), dsx[i >> 1], "dsx at pixel {i}");
        assert_eq!(m.temp(3), dsy[i & 1], "dsy at pixel {i}");
    }
}

/// A sampler that returns the request's first two coordinate derivatives as (ddx.x, ddx.y,
/// ddy.x, ddy.y), or -1 in all four when the request carries none.
struct EchoDerivatives;

impl gpucc::nir::interp::Sampler for EchoDerivatives {
    fn sample(&self, req: &gpucc::nir::interp::sampler::TexRequest) -> Result<[f64; 4], String> {
        if req.ddx.is_empty() {
            return Ok([-1.0; 4]);
        }
        Ok([req.ddx[0], req.ddx[1], req.ddy[0], req.ddy[1]])
    }
    fn size(&self, _: u32, _: u32) -> [u32; 3] {
        [1; 3]
    }
    fn levels(&self, _: u32) -> u32 {
        1
    }
}

#[test]
fn implicit_lod_texture_reads_see_the_quad_derivatives() {
    // t1 = (i, i², 10·i, 0) as in derivatives_over_a_quad: the coordinate differences are the
    // DSX/DSY values worked out there. TEXLD and TEXLDB get them; TEXLDL (explicit LOD) and a
    // lone invocation get none.
    let p = program(
        "gc3000",
        "texld t2, tex0.xyzw, t1.xyzw, void, void
         texldb t3, tex0.xyzw, t1.xyzw, void, void
         texldl t4, tex0.xyzw, t1.xyzw, void, void",
    );
    let mut quad = quad_with_values("gc3000");
    for m in &mut quad {
        m.set_sampler(Box::new(EchoDerivatives));
    }
    let out = run_quad(&mut quad, &p).unwrap();
    assert!(out.iter().all(|o| o.steps == 3), "{out:?}");
    // Pixel 0: ddx = (1, 1), ddy = (2, 4). Pixel 3: ddx = (1, 5) (row 1), ddy = (2, 8).
    assert_eq!(quad[0].temp(2), [1.0, 1.0, 2.0, 4.0]);
    assert_eq!(quad[0].temp(3), [1.0, 1.0, 2.0, 4.0]);
    assert_eq!(quad[3].temp(2), [1.0, 5.0, 2.0, 8.0]);
    assert_eq!(quad[0].temp(4), [-1.0; 4]);
    let mut lone = Machine::new(specs("gc3000"));
    lone.set_sampler(Box::new(EchoDerivatives));
    lone.set_temp(1, [3.0, 9.0, 30.0, 0.0]);
    lone.run(&p).unwrap();
    assert_eq!(lone.temp(2), [-1.0; 4]);
}

#[test]
fn a_killed_neighbour_leaves_a_zero_derivative() {
    // Pixel 3 (t1.x = 3 > 2.5) is discarded before the DSX; pixel 2 then differences
    // itself: 0. Row 0 is untouched: (1, 1, 10, 0).
    let p = program(
        "gc3000",
        "texkill.gt void, t1.xxxx, u0.xxxx, void
         dsx t2, t1.xyzw, void, t1.xyzw",
    );
    let mut quad = quad_with_values("gc3000");
    for m in &mut quad {
        m.set_uniform(0, [2.5; 4]);
    }
    let out = run_quad(&mut quad, &p).unwrap();
    assert_eq!(
        out.iter().map(|o| o.killed).collect::<Vec<_>>(),
        [false, false, false, true]
    );
    assert_eq!(quad[0].temp(2), [1.0, 1.0, 10.0, 0.0]);
    assert_eq!(quad[1].temp(2), [1.0, 1.0, 10.0, 0.0]);
    assert_eq!(quad[2].temp(2), [0.0; 4]);
}

#[test]
fn front_face_is_in_i0() {
    // 1.0 for a front-facing primitive, 0.0 otherwise, in every component of i0.
    let p = program("gc3000", "mov t2, void, void, i0.xxxx");
    for (front, want) in [(true, 1.0), (false, 0.0)] {
        let mut m = Machine::new(specs("gc3000"));
        m.set_front_face(front);
        m.run(&p).unwrap();
        assert_eq!(m.temp(2), [want; 4]);
    }
}

#[test]
fn robust_reads_turn_out_of_range_into_zero() {
    // u-5 through a negative address register: an error unless reads are robust.
    let p = program("gc3000", "mov t2, void, void, u0[a.x].xyzw");
    let mut m = Machine::new(specs("gc3000"));
    m.address = [-5, 0, 0, 0];
    assert!(m.run(&p).unwrap_err().message.contains("out of range"));
    let mut m = Machine::new(specs("gc3000"));
    m.address = [-5, 0, 0, 0];
    m.set_temp(2, [7.0; 4]);
    m.robust_reads = true;
    m.run(&p).unwrap();
    assert_eq!(m.temp(2), [0.0; 4]);
}
