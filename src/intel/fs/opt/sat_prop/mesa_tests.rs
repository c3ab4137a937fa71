//! Mesa 23.3's `test_fs_saturate_propagation.cpp`, case by case, restated in gpucc's IR and
//! run against [`saturate_propagation`]: one test per Mesa `TEST_F`, with the same name. Each
//! test's doc line gives Mesa's case (input program, expected result); the body builds the
//! same program (SIMD16 as in Mesa's fixture, virtual registers numbered in Mesa's
//! declaration order) and asserts gpucc's whole output program.
//!
//! All 19 cases have Mesa's outcome, with one deliberate narrowing that no case exercises:
//! a negated copy of an already clamped value keeps its clamp (`sat(-x)` of `x` in [0, 1] is
//! 0, not `-x`), where Mesa's pass would drop it.

use super::saturate_propagation;
use crate::intel::eu::{Opcode, RegType};
use crate::intel::fs::ir::{Inst, Op, Reg, TexKind};
use crate::intel::fs::opt::testing;

/// VGRF size of the programs (registers), as Mesa's fixture allocates them.
const VGRF_SIZE: u32 = 8;

/// Mesa's and gpucc's outcome: progress, and exactly `after`.
fn propagates(before: Vec<Inst>, after: Vec<Inst>) {
    testing::changes_to(saturate_propagation, VGRF_SIZE, before, after);
}

/// Mesa's and gpucc's outcome: no progress, the program as it was.
fn unchanged(before: Vec<Inst>) {
    testing::unchanged_sized(saturate_propagation, VGRF_SIZE, before);
}

fn vf(nr: u32) -> Reg {
    Reg::vgrf(nr, RegType::F)
}

/// A SIMD16 ALU instruction.
fn alu(op: Opcode, dst: Reg, src: Vec<Reg>) -> Inst {
    Inst::new(Op::Alu(op), 16, dst, src)
}

fn add(dst: Reg, a: Reg, b: Reg) -> Inst {
    alu(Opcode::Add, dst, vec![a, b])
}

fn mul(dst: Reg, a: Reg, b: Reg) -> Inst {
    alu(Opcode::Mul, dst, vec![a, b])
}

fn mad(dst: Reg, a: Reg, b: Reg, c: Reg) -> Inst {
    alu(Opcode::Mad, dst, vec![a, b, c])
}

fn mov(dst: Reg, src: Reg) -> Inst {
    alu(Opcode::Mov, dst, vec![src])
}

fn sat(mut i: Inst) -> Inst {
    i.sat = true;
    i
}

fn with_exec(mut i: Inst, exec_size: u8) -> Inst {
    i.exec_size = exec_size;
    i
}

/// Mesa: `add v0, v2, v3; mov.sat v1, v0` becomes `add.sat v0, v2, v3; mov v1, v0`.
#[test]
fn basic() {
    let a = add(vf(0), vf(2), vf(3));
    let m = mov(vf(1), vf(0));
    propagates(vec![a.clone(), sat(m.clone())], vec![sat(a), m]);
}

/// Mesa: `add v0, v3, v4; mov.sat v1, v0; add v2, v0, v3` is left (the second ADD needs the
/// unclamped value).
#[test]
fn other_non_saturated_use() {
    unchanged(vec![
        add(vf(0), vf(3), vf(4)),
        sat(mov(vf(1), vf(0))),
        add(vf(2), vf(0), vf(3)),
    ]);
}

/// Mesa: `(+f0) add v0, v2, v3; mov.sat v1, v0` is left (the ADD writes only some
/// channels).
#[test]
fn predicated_instruction() {
    let mut a = add(vf(0), vf(2), vf(3));
    a.pred = Some(false);
    unchanged(vec![a, sat(mov(vf(1), vf(0)))]);
}

/// Mesa: `rndu v0, v2; mov.sat v1, -v0` is left (RNDU cannot negate its result).
#[test]
fn neg_mov_sat() {
    unchanged(vec![
        alu(Opcode::Rndu, vf(0), vec![vf(2)]),
        sat(mov(vf(1), vf(0).negate())),
    ]);
}

/// Mesa: `add v0, v2, v3; mov.sat v1, -v0` becomes `add.sat v0, -v2, -v3; mov v1, v0`.
#[test]
fn add_neg_mov_sat() {
    propagates(
        vec![add(vf(0), vf(2), vf(3)), sat(mov(vf(1), vf(0).negate()))],
        vec![
            sat(add(vf(0), vf(2).negate(), vf(3).negate())),
            mov(vf(1), vf(0)),
        ],
    );
}

/// Mesa: `add v0, v2, 1.0; mov.sat v1, -v0` becomes `add.sat v0, -v2, -1.0; mov v1, v0`.
#[test]
fn add_imm_float_neg_mov_sat() {
    propagates(
        vec![
            add(vf(0), vf(2), Reg::imm_f(1.0)),
            sat(mov(vf(1), vf(0).negate())),
        ],
        vec![
            sat(add(vf(0), vf(2).negate(), Reg::imm_f(-1.0))),
            mov(vf(1), vf(0)),
        ],
    );
}

/// Mesa: `mul v0, v2, v3; mov.sat v1, -v0` becomes `mul.sat v0, -v2, v3; mov v1, v0`.
#[test]
fn mul_neg_mov_sat() {
    propagates(
        vec![mul(vf(0), vf(2), vf(3)), sat(mov(vf(1), vf(0).negate()))],
        vec![sat(mul(vf(0), vf(2).negate(), vf(3))), mov(vf(1), vf(0))],
    );
}

/// Mesa: `mad v0, v2, v3, v4; mov.sat v1, -v0` becomes `mad.sat v0, -v2, -v3, v4; mov v1,
/// v0` (MAD adds its first source to the product of the other two).
#[test]
fn mad_neg_mov_sat() {
    propagates(
        vec![
            mad(vf(0), vf(2), vf(3), vf(4)),
            sat(mov(vf(1), vf(0).negate())),
        ],
        vec![
            sat(mad(vf(0), vf(2).negate(), vf(3).negate(), vf(4))),
            mov(vf(1), vf(0)),
        ],
    );
}

/// Mesa: `mad v0, 1.0, -2.0, v2; mov.sat v1, -v0` becomes `mad.sat v0, -1.0, 2.0, v2; mov
/// v1, v0`.
#[test]
fn mad_imm_float_neg_mov_sat() {
    propagates(
        vec![
            mad(vf(0), Reg::imm_f(1.0), Reg::imm_f(-2.0), vf(2)),
            sat(mov(vf(1), vf(0).negate())),
        ],
        vec![
            sat(mad(vf(0), Reg::imm_f(-1.0), Reg::imm_f(2.0), vf(2))),
            mov(vf(1), vf(0)),
        ],
    );
}

/// Mesa: `mul v0, v3, v4; mov.sat v1, v0; mov.sat v2, -v0` is left (the clamps differ).
#[test]
fn mul_mov_sat_neg_mov_sat() {
    unchanged(vec![
        mul(vf(0), vf(3), vf(4)),
        sat(mov(vf(1), vf(0))),
        sat(mov(vf(2), vf(0).negate())),
    ]);
}

/// Mesa: `mul v0, v3, v4; mov.sat v1, -v0; mov.sat v2, -v0` is left.
#[test]
fn mul_neg_mov_sat_neg_mov_sat() {
    unchanged(vec![
        mul(vf(0), vf(3), vf(4)),
        sat(mov(vf(1), vf(0).negate())),
        sat(mov(vf(2), vf(0).negate())),
    ]);
}

/// Mesa: `add v0, v2, v3; mov.sat v1, |v0|` is left (no writer takes an absolute value).
#[test]
fn abs_mov_sat() {
    unchanged(vec![
        add(vf(0), vf(2), vf(3)),
        sat(mov(vf(1), vf(0).absolute())),
    ]);
}

/// Mesa: `add.sat v0, v3, v4; mov.sat v1, v0; mov v2, v0` becomes `add.sat ...; mov v1, v0;
/// mov v2, v0` (the value is clamped already).
#[test]
fn producer_saturates() {
    let a = sat(add(vf(0), vf(3), vf(4)));
    let m1 = mov(vf(1), vf(0));
    let m2 = mov(vf(2), vf(0));
    propagates(
        vec![a.clone(), sat(m1.clone()), m2.clone()],
        vec![a, m1, m2],
    );
}

/// Mesa: `add v0, v3, v4; mov.sat v1, v0; mov.sat v2, v0` becomes `add.sat ...; mov v1, v0;
/// mov v2, v0`.
#[test]
fn intervening_saturating_copy() {
    let a = add(vf(0), vf(3), vf(4));
    let m1 = mov(vf(1), vf(0));
    let m2 = mov(vf(2), vf(0));
    propagates(
        vec![a.clone(), sat(m1.clone()), sat(m2.clone())],
        vec![sat(a), m1, m2],
    );
}

/// Mesa: `add v0+4, v2, v3; tex(rlen 8) v0, v4; mov.sat v1, v0+4` is left (the TEX
/// overwrites the sum).
#[test]
fn intervening_dest_write() {
    let mut tex = Inst::new(
        Op::Tex {
            kind: TexKind::Sample,
            surface: 0,
            sampler: 0,
            indexed: false,
        },
        16,
        vf(0),
        vec![vf(4)],
    );
    tex.rlen = 8;
    unchanged(vec![
        add(vf(0).reg_offset(4), vf(2), vf(3)),
        tex,
        sat(mov(vf(1), vf(0).reg_offset(4))),
    ]);
}

/// Mesa: `mul v0, v3, v4; mov.sat v1, -v0; mov.sat v2, v0` is left.
#[test]
fn mul_neg_mov_sat_mov_sat() {
    unchanged(vec![
        mul(vf(0), vf(3), vf(4)),
        sat(mov(vf(1), vf(0).negate())),
        sat(mov(vf(2), vf(0))),
    ]);
}

/// Mesa: `add(16) v0, v2, v3; mov.sat(8) v1, v0` is left (the MOV reads half the channels
/// the ADD writes).
#[test]
fn smaller_exec_size_consumer() {
    unchanged(vec![
        add(vf(0), vf(2), vf(3)),
        with_exec(sat(mov(vf(1), vf(0))), 8),
    ]);
}

/// Mesa: `add(8) v0, v2, v3; mov.sat(16) v1, v0` is left.
#[test]
fn larger_exec_size_consumer() {
    unchanged(vec![
        with_exec(add(vf(0), vf(2), vf(3)), 8),
        sat(mov(vf(1), vf(0))),
    ]);
}

/// Mesa: `add(16) v0, v3, v4; add(1) v1, v0.8<0>, 1.0; mov.sat(16) v2, v0` is left (channel
/// 8 is read unclamped).
#[test]
fn offset_source_barrier() {
    let mut channel8 = vf(0);
    channel8.stride = 0;
    channel8.offset = 8 * 4;
    unchanged(vec![
        add(vf(0), vf(3), vf(4)),
        with_exec(add(vf(1), channel8, Reg::imm_f(1.0)), 1),
        sat(mov(vf(2), vf(0))),
    ]);
}
