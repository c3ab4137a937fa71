//! Mesa 23.3's `test_fs_cmod_propagation.cpp`, case by case, restated in gpucc's IR and run
//! against [`cmod_propagation`]: one test per Mesa `TEST_F`, with the same name. Each test's
//! doc line gives Mesa's case (input program, expected result); the body builds the same
//! program (virtual registers numbered in Mesa's declaration order, SIMD8 as in Mesa's
//! fixture) and asserts gpucc's whole output program.
//!
//! 114 cases: 109 have Mesa's outcome; 5 differ, all of one kind, where gpucc's pass does
//! less than Mesa's (it leaves the test instruction where Mesa removes it): each names
//! [`Difference::NotTest`], which says why.

use super::cmod_propagation;
use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::intel::fs::ir::{Inst, Op, Reg, TexKind};
use crate::intel::fs::opt::testing::{self, alu};

/// Why gpucc's cmod propagation leaves a test that Mesa's removes.
#[derive(Debug, Clone, Copy)]
enum Difference {
    /// Mesa turns `not.nz null, x` into `.z` on the OR or AND that wrote `x`, which is
    /// right only when `x` is a boolean: `not.nz` tests `~x != 0`, that is `x != ~0`, and
    /// `or.z` tests `x == 0` (they differ on `x = 5`). gpucc's IR does not mark booleans,
    /// and an `inot` of an integer followed by a test reaches the pass as the same NOT, so
    /// the rewrite would be wrong there; gpucc leaves NOT tests alone.
    NotTest,
}

/// VGRF size of the programs (registers), as Mesa's fixture allocates them.
const VGRF_SIZE: u32 = 4;

/// Mesa's and gpucc's outcome: progress, and exactly `after`.
fn propagates(before: Vec<Inst>, after: Vec<Inst>) {
    testing::changes_to(cmod_propagation, VGRF_SIZE, before, after);
}

/// Mesa's and gpucc's outcome: no progress, the program as it was.
fn unchanged(before: Vec<Inst>) {
    testing::unchanged_sized(cmod_propagation, VGRF_SIZE, before);
}

/// Mesa turns `before` into `mesa_after`; gpucc, for the reason `why`, leaves it.
fn leaves(why: Difference, before: Vec<Inst>, mesa_after: Vec<Inst>) {
    assert_ne!(before, mesa_after, "{why:?}: not a difference");
    let (p, out) = testing::run_sized(cmod_propagation, VGRF_SIZE, before.clone());
    assert!(
        !p,
        "{why:?}: gpucc now does what Mesa does; make the test `propagates`"
    );
    assert_eq!(out, before, "{why:?}");
}

fn vf(nr: u32) -> Reg {
    Reg::vgrf(nr, RegType::F)
}

fn vd(nr: u32) -> Reg {
    Reg::vgrf(nr, RegType::D)
}

fn vud(nr: u32) -> Reg {
    Reg::vgrf(nr, RegType::UD)
}

fn v(nr: u32, ty: RegType) -> Reg {
    Reg::vgrf(nr, ty)
}

fn null(ty: RegType) -> Reg {
    Reg::null(ty)
}

fn imm_f(x: f32) -> Reg {
    Reg::imm_f(x)
}

fn imm_d(x: i32) -> Reg {
    Reg::imm(RegType::D, x as u32)
}

fn imm_ud(x: u32) -> Reg {
    Reg::imm(RegType::UD, x)
}

fn op2(op: Opcode, dst: Reg, a: Reg, b: Reg) -> Inst {
    alu(op, dst, vec![a, b])
}

fn add(dst: Reg, a: Reg, b: Reg) -> Inst {
    op2(Opcode::Add, dst, a, b)
}

fn mov(dst: Reg, src: Reg) -> Inst {
    alu(Opcode::Mov, dst, vec![src])
}

fn cmp(dst: Reg, a: Reg, b: Reg, c: CondMod) -> Inst {
    cond(op2(Opcode::Cmp, dst, a, b), c)
}

/// `(+f0) sel dst, a, b`.
fn psel(dst: Reg, a: Reg, b: Reg) -> Inst {
    pred(op2(Opcode::Sel, dst, a, b))
}

fn cond(mut i: Inst, c: CondMod) -> Inst {
    i.cmod = c;
    i
}

/// On flag subregister f0.1.
fn f01(mut i: Inst) -> Inst {
    i.flag_subnr = 1;
    i
}

fn pred(mut i: Inst) -> Inst {
    i.pred = Some(false);
    i
}

fn sat(mut i: Inst) -> Inst {
    i.sat = true;
    i
}

use CondMod::{Ge, Le, Nz, G, L, Z};
use Difference::*;

/// Mesa: `add v0, v1, v2; cmp.ge null, v0, 0.0` becomes `add.ge v0, v1, v2`.
#[test]
fn basic() {
    let a = add(vf(0), vf(1), vf(2));
    propagates(
        vec![a.clone(), cmp(null(RegType::F), vf(0), imm_f(0.0), Ge)],
        vec![cond(a, Ge)],
    );
}

/// Mesa: as `basic` with the CMP on f0.1; the ADD takes `.ge` on f0.1.
#[test]
fn basic_other_flag() {
    let a = add(vf(0), vf(1), vf(2));
    propagates(
        vec![a.clone(), f01(cmp(null(RegType::F), vf(0), imm_f(0.0), Ge))],
        vec![f01(cond(a, Ge))],
    );
}

/// Mesa: `add v0, v1, v2; cmp.ge null, v0, 1.0` is left (not a test against zero).
#[test]
fn cmp_nonzero() {
    unchanged(vec![
        add(vf(0), vf(1), vf(2)),
        cmp(null(RegType::F), vf(0), imm_f(1.0), Ge),
    ]);
}

/// Mesa: `fbl v0:UD, v1; cmp.ge null, v0, 0u` is left (FBL takes no condition).
#[test]
fn non_cmod_instruction() {
    unchanged(vec![
        alu(Opcode::Fbl, vud(0), vec![vud(1)]),
        cmp(null(RegType::UD), vud(0), imm_ud(0), Ge),
    ]);
}

/// Mesa: `find_live_channel(32) v0; cmp.z(32) null, v0, 0d` is left. gpucc's
/// FIND_LIVE_CHANNEL is [`Op::Uniformize`] (it also broadcasts the value); at SIMD8 here.
#[test]
fn non_cmod_livechannel() {
    unchanged(vec![
        Inst::new(Op::Uniformize, 8, vud(0), vec![vud(1)]),
        cmp(null(RegType::D), vd(0), imm_d(0), Z),
    ]);
}

/// Mesa: `add v0, v1, v2; cmp.ge null, v3, 0; cmp.ge null, v0, 0` is left (the middle CMP
/// writes the same flag).
#[test]
fn intervening_flag_write() {
    unchanged(vec![
        add(vf(0), vf(1), vf(2)),
        cmp(null(RegType::F), vf(3), imm_f(0.0), Ge),
        cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
    ]);
}

/// Mesa: as above with the middle CMP on f0.1: the ADD takes `.ge` on f0, the f0.1 CMP
/// stays.
#[test]
fn intervening_mismatch_flag_write() {
    let a = add(vf(0), vf(1), vf(2));
    let other = f01(cmp(null(RegType::F), vf(3), imm_f(0.0), Ge));
    propagates(
        vec![
            a.clone(),
            other.clone(),
            cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
        ],
        vec![cond(a, Ge), other],
    );
}

/// Mesa: `add v0, v2, v3; (+f0) sel v1, v4, 0; cmp.ge null, v0, 0` is left (the SEL reads
/// the flag the ADD would change).
#[test]
fn intervening_flag_read() {
    unchanged(vec![
        add(vf(0), vf(2), vf(3)),
        psel(vf(1), vf(4), imm_f(0.0)),
        cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
    ]);
}

/// Mesa: as above with the SEL predicated on f0.1: the ADD takes `.ge`, the SEL stays.
#[test]
fn intervening_mismatch_flag_read() {
    let a = add(vf(0), vf(2), vf(3));
    let s = f01(psel(vf(1), vf(4), imm_f(0.0)));
    propagates(
        vec![
            a.clone(),
            s.clone(),
            cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
        ],
        vec![cond(a, Ge), s],
    );
}

/// Mesa: `add v0+2, v1, v2; tex(rlen 4) v0, v3; cmp.ge null, v0+2, 0` is left (the TEX
/// overwrites the ADD's result).
#[test]
fn intervening_dest_write() {
    let mut tex = Inst::new(
        Op::Tex {
            kind: TexKind::Sample,
            surface: 0,
            sampler: 0,
            indexed: false,
        },
        8,
        vf(0),
        vec![vf(3)],
    );
    tex.rlen = 4;
    unchanged(vec![
        add(vf(0).reg_offset(2), vf(1), vf(2)),
        tex,
        cmp(null(RegType::F), vf(0).reg_offset(2), imm_f(0.0), Ge),
    ]);
}

/// Mesa: `add.ge v0, v2, v3; (+f0) sel v1, v4, 0; cmp.ge null, v0, 0` loses the CMP (the
/// flag already holds that test).
#[test]
fn intervening_flag_read_same_value() {
    let a = cond(add(vf(0), vf(2), vf(3)), Ge);
    let s = psel(vf(1), vf(4), imm_f(0.0));
    propagates(
        vec![
            a.clone(),
            s.clone(),
            cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
        ],
        vec![a, s],
    );
}

/// Mesa: `add v0, v1, v2; cmp.ge null, -v0, 0` becomes `add.le v0, v1, v2`.
#[test]
fn negate() {
    let a = add(vf(0), vf(1), vf(2));
    propagates(
        vec![
            a.clone(),
            cmp(null(RegType::F), vf(0).negate(), imm_f(0.0), Ge),
        ],
        vec![cond(a, Le)],
    );
}

/// Mesa: `cmp.ge v0, v1, v2; mov.nz null:F, v0:F` loses the MOV.
#[test]
fn movnz() {
    let c = cmp(vf(0), vf(1), vf(2), Ge);
    propagates(
        vec![c.clone(), cond(mov(null(RegType::F), vf(0)), Nz)],
        vec![c],
    );
}

/// Mesa: `add v0:D, v1:D, v2:D; cmp.ge null:F, v0:F, 0.0` is left (an integer result read
/// as float).
#[test]
fn different_types_cmod_with_zero() {
    unchanged(vec![
        add(vd(0), vd(1), vd(2)),
        cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
    ]);
}

/// Mesa: `cmp.l v0:F, v1:F, 0; and.nz null:D, v0:D, 1` loses the AND.
#[test]
fn andnz_one() {
    let c = cmp(vf(0), vf(1), imm_f(0.0), L);
    propagates(
        vec![
            c.clone(),
            cond(op2(Opcode::And, null(RegType::D), vd(0), imm_d(1)), Nz),
        ],
        vec![c],
    );
}

/// Mesa: `cmp.l v0:F, v1:F, 0; and.nz null:D, v0:D, 38` is left (not a boolean test).
#[test]
fn andnz_non_one() {
    unchanged(vec![
        cmp(vf(0), vf(1), imm_f(0.0), L),
        cond(op2(Opcode::And, null(RegType::D), vd(0), imm_d(38)), Nz),
    ]);
}

/// Mesa: `cmp.nz v0:F, v1:F, 0; cmp.nz null:F, v0:F, 0` loses the second CMP.
#[test]
fn cmp_cmpnz() {
    let c = cmp(vf(0), vf(1), imm_f(0.0), Nz);
    propagates(
        vec![c.clone(), cmp(null(RegType::F), vf(0), imm_f(0.0), Nz)],
        vec![c],
    );
}

/// Mesa: `cmp.nz v0:F, v1:F, 0; cmp.g null:F, v0:F, 0` is left.
#[test]
fn cmp_cmpg() {
    unchanged(vec![
        cmp(vf(0), vf(1), imm_f(0.0), Nz),
        cmp(null(RegType::F), vf(0), imm_f(0.0), G),
    ]);
}

/// Mesa: `pln.nz v0, v1, 0; cmp.nz null, v0, 0` loses the CMP.
#[test]
fn plnnz_cmpnz() {
    let p = cond(op2(Opcode::Pln, vf(0), vf(1), imm_f(0.0)), Nz);
    propagates(
        vec![p.clone(), cmp(null(RegType::F), vf(0), imm_f(0.0), Nz)],
        vec![p],
    );
}

/// Mesa: `pln.nz v0, v1, 0; cmp.z null, v0, 0` becomes `pln.z v0, v1, 0`.
#[test]
fn plnnz_cmpz() {
    let p = op2(Opcode::Pln, vf(0), vf(1), imm_f(0.0));
    propagates(
        vec![
            cond(p.clone(), Nz),
            cmp(null(RegType::F), vf(0), imm_f(0.0), Z),
        ],
        vec![cond(p, Z)],
    );
}

/// Mesa: `pln.nz v0, v2, 0; (+f0) sel v1, v2, 0; cmp.z null, v0, 0` is left (the SEL reads
/// the `.nz` flag).
#[test]
fn plnnz_sel_cmpz() {
    unchanged(vec![
        cond(op2(Opcode::Pln, vf(0), vf(2), imm_f(0.0)), Nz),
        psel(vf(1), vf(2), imm_f(0.0)),
        cmp(null(RegType::F), vf(0), imm_f(0.0), Z),
    ]);
}

/// Mesa: `cmp.nz v0:D, v1:D, 0; cmp.g null:D, v0:D, 0` is left (~0 is negative as D).
#[test]
#[allow(non_snake_case)]
fn cmp_cmpg_D() {
    unchanged(vec![
        cmp(vd(0), vd(1), imm_d(0), Nz),
        cmp(null(RegType::D), vd(0), imm_d(0), G),
    ]);
}

/// Mesa: `cmp.nz v0:UD, v1:UD, 0; cmp.g null:UD, v0:UD, 0` loses the second CMP (on 0/~0,
/// unsigned `> 0` is `!= 0`).
#[test]
#[allow(non_snake_case)]
fn cmp_cmpg_UD() {
    let c = cmp(vud(0), vud(1), imm_ud(0), Nz);
    propagates(
        vec![c.clone(), cmp(null(RegType::UD), vud(0), imm_ud(0), G)],
        vec![c],
    );
}

/// Mesa: `cmp.nz v0:D, v1:D, 0; cmp.l null:D, v0:D, 0` loses the second CMP (on 0/~0,
/// signed `< 0` is `!= 0`).
#[test]
#[allow(non_snake_case)]
fn cmp_cmpl_D() {
    let c = cmp(vd(0), vd(1), imm_d(0), Nz);
    propagates(
        vec![c.clone(), cmp(null(RegType::D), vd(0), imm_d(0), L)],
        vec![c],
    );
}

/// Mesa: `cmp.nz v0:UD, v1:UD, 0; cmp.l null:UD, v0:UD, 0` is left.
#[test]
#[allow(non_snake_case)]
fn cmp_cmpl_UD() {
    unchanged(vec![
        cmp(vud(0), vud(1), imm_ud(0), Nz),
        cmp(null(RegType::UD), vud(0), imm_ud(0), L),
    ]);
}

/// Mesa: `cmp.l v0:F, v1:F, 0; and.z null:D, v0:D, 1` is left (`.z` inverts the CMP).
#[test]
fn andz_one() {
    unchanged(vec![
        cmp(vf(0), vf(1), imm_f(0.0), L),
        cond(op2(Opcode::And, null(RegType::D), vd(0), imm_d(1)), Z),
    ]);
}

/// Mesa: `add v0, v1, v2; cmp.l null, v1, v2` is left (a sum is not the compared
/// difference).
#[test]
fn add_not_merge_with_compare() {
    unchanged(vec![
        add(vf(0), vf(1), vf(2)),
        cmp(null(RegType::F), vf(1), vf(2), L),
    ]);
}

/// Mesa: `add v0, v1, -v2; cmp.l null, v1, v2` becomes `add.l v0, v1, -v2`.
#[test]
fn subtract_merge_with_compare() {
    let a = add(vf(0), vf(1), vf(2).negate());
    propagates(
        vec![a.clone(), cmp(null(RegType::F), vf(1), vf(2), L)],
        vec![cond(a, L)],
    );
}

/// Mesa: `add v0, v1, -1.0; cmp.nz null, v1, 1.0` becomes `add.nz v0, v1, -1.0`.
#[test]
fn subtract_immediate_merge_with_compare() {
    let a = add(vf(0), vf(1), imm_f(-1.0));
    propagates(
        vec![a.clone(), cmp(null(RegType::F), vf(1), imm_f(1.0), Nz)],
        vec![cond(a, Nz)],
    );
}

/// Mesa: `add v0, v2, -v3; add v1, v2, v3; cmp.l null, v2, v3` becomes `add.l v0, ...;
/// add v1, ...`.
#[test]
fn subtract_merge_with_compare_intervening_add() {
    let a = add(vf(0), vf(2), vf(3).negate());
    let b = add(vf(1), vf(2), vf(3));
    propagates(
        vec![a.clone(), b.clone(), cmp(null(RegType::F), vf(2), vf(3), L)],
        vec![cond(a, L), b],
    );
}

/// Mesa: `add v0, v2, -v3; (+f0) add v1, v2, -v3; cmp.l null, v2, v3` is left (the
/// predicated ADD reads the flag).
#[test]
fn subtract_not_merge_with_compare_intervening_partial_write() {
    unchanged(vec![
        add(vf(0), vf(2), vf(3).negate()),
        pred(add(vf(1), vf(2), vf(3).negate())),
        cmp(null(RegType::F), vf(2), vf(3), L),
    ]);
}

/// Mesa: `add v0, v2, -v3; add.z v1, v2, v3; cmp.l null, v2, v3` is left (the second ADD
/// writes the flag).
#[test]
fn subtract_not_merge_with_compare_intervening_add() {
    unchanged(vec![
        add(vf(0), vf(2), vf(3).negate()),
        cond(add(vf(1), vf(2), vf(3)), Z),
        cmp(null(RegType::F), vf(2), vf(3), L),
    ]);
}

/// Mesa: `add v0, v1, v2; cmp.l null, v1, -v2` becomes `add.l v0, v1, v2`.
#[test]
fn add_merge_with_compare() {
    let a = add(vf(0), vf(1), vf(2));
    propagates(
        vec![a.clone(), cmp(null(RegType::F), vf(1), vf(2).negate(), L)],
        vec![cond(a, L)],
    );
}

/// Mesa: `add v0, v2, -v1; cmp.l null, v1, v2` becomes `add.g v0, v2, -v1` (the ADD
/// computes the negated difference).
#[test]
fn negative_subtract_merge_with_compare() {
    let a = add(vf(0), vf(2), vf(1).negate());
    propagates(
        vec![a.clone(), cmp(null(RegType::F), vf(1), vf(2), L)],
        vec![cond(a, G)],
    );
}

/// Mesa: `add.l v0, v2, -v3; (+f0) mov v1, v4; cmp.l null, v2, v3` loses the CMP.
#[test]
fn subtract_delete_compare() {
    let a = cond(add(vf(0), vf(2), vf(3).negate()), L);
    let m = pred(mov(vf(1), vf(4)));
    propagates(
        vec![a.clone(), m.clone(), cmp(null(RegType::F), vf(2), vf(3), L)],
        vec![a, m],
    );
}

/// Mesa: as `subtract_delete_compare` with the ADD and the CMP on f0.1: the CMP goes.
#[test]
fn subtract_delete_compare_other_flag() {
    let a = f01(cond(add(vf(0), vf(2), vf(3).negate()), L));
    let m = pred(mov(vf(1), vf(4)));
    propagates(
        vec![
            a.clone(),
            m.clone(),
            f01(cmp(null(RegType::F), vf(2), vf(3), L)),
        ],
        vec![a, m],
    );
}

/// Mesa: `add.l.f0 v0, v1, -v2; cmp.l.f0.1 null, v1, v2` is left (different flags).
#[test]
fn subtract_to_mismatch_flag() {
    unchanged(vec![
        cond(add(vf(0), vf(1), vf(2).negate()), L),
        f01(cmp(null(RegType::F), vf(1), vf(2), L)),
    ]);
}

/// Mesa: `add v0, v1, -v2; cmp.l.f0.1 null, v1, v2; cmp.l.f0 null, v1, v2` becomes
/// `add.l.f0 v0, v1, -v2; cmp.l.f0.1 null, v1, v2`.
#[test]
fn subtract_merge_with_compare_intervening_mismatch_flag_write() {
    let a = add(vf(0), vf(1), vf(2).negate());
    let c1 = f01(cmp(null(RegType::F), vf(1), vf(2), L));
    propagates(
        vec![
            a.clone(),
            c1.clone(),
            cmp(null(RegType::F), vf(1), vf(2), L),
        ],
        vec![cond(a, L), c1],
    );
}

/// Mesa: `add v0, v2, -v3; (+f0.1) sel v1, v4, 0; cmp.l null, v2, v3` becomes `add.l v0,
/// ...; (+f0.1) sel ...`.
#[test]
fn subtract_merge_with_compare_intervening_mismatch_flag_read() {
    let a = add(vf(0), vf(2), vf(3).negate());
    let s = f01(psel(vf(1), vf(4), imm_f(0.0)));
    propagates(
        vec![a.clone(), s.clone(), cmp(null(RegType::F), vf(2), vf(3), L)],
        vec![cond(a, L), s],
    );
}

/// Mesa: `add.l v0, v2, -v3; (+f0) add v1, -v2, v3; cmp.l null, v2, v3` loses the CMP.
#[test]
fn subtract_delete_compare_derp() {
    let a = cond(add(vf(0), vf(2), vf(3).negate()), L);
    let b = pred(add(vf(1), vf(2).negate(), vf(3)));
    propagates(
        vec![a.clone(), b.clone(), cmp(null(RegType::F), vf(2), vf(3), L)],
        vec![a, b],
    );
}

/// Mesa: `asr v0:D, -v1:W, 15; cmp.le null:UD, v0:UD, 0u` is left (signed result, unsigned
/// test).
#[test]
fn signed_unsigned_comparison_mismatch() {
    unchanged(vec![
        op2(Opcode::Asr, vd(0), v(1, RegType::W).negate(), imm_d(15)),
        cmp(null(RegType::UD), vud(0), imm_ud(0), Le),
    ]);
}

/// Mesa: `or v0:D, v1, v2; mov.nz null:D, v0:F` is left (0x3f000000 is non-zero bits but
/// converts to integer 0).
#[test]
fn ior_f2i_nz() {
    unchanged(vec![
        op2(Opcode::Or, vd(0), vd(1), vd(2)),
        cond(mov(null(RegType::D), vf(0)), Nz),
    ]);
}

/// Mesa's `test_mov_prop`: `add v0:ty, v1, v2; mov.cond null:mov_ty, v0`; the program and
/// what Mesa makes of it (the ADD with the condition when it propagates).
fn mov_prop(c: CondMod, ty: RegType, mov_ty: RegType) -> (Vec<Inst>, Vec<Inst>) {
    let a = add(v(0, ty), v(1, ty), v(2, ty));
    (
        vec![a.clone(), cond(mov(null(mov_ty), v(0, ty)), c)],
        vec![cond(a, c)],
    )
}

fn mov_prop_propagates(c: CondMod, ty: RegType, mov_ty: RegType) {
    let (before, after) = mov_prop(c, ty, mov_ty);
    propagates(before, after);
}

fn mov_prop_unchanged(c: CondMod, ty: RegType, mov_ty: RegType) {
    unchanged(mov_prop(c, ty, mov_ty).0);
}

/// Mesa: `add v0:F; mov.nz null:F, v0` becomes `add.nz`.
#[test]
fn fadd_fmov_nz() {
    mov_prop_propagates(Nz, RegType::F, RegType::F);
}

/// Mesa: `add v0:F; mov.z null:F, v0` becomes `add.z`.
#[test]
fn fadd_fmov_z() {
    mov_prop_propagates(Z, RegType::F, RegType::F);
}

/// Mesa: `add v0:F; mov.l null:F, v0` becomes `add.l`.
#[test]
fn fadd_fmov_l() {
    mov_prop_propagates(L, RegType::F, RegType::F);
}

/// Mesa: `add v0:F; mov.g null:F, v0` becomes `add.g`.
#[test]
fn fadd_fmov_g() {
    mov_prop_propagates(G, RegType::F, RegType::F);
}

/// Mesa: `add v0:F; mov.le null:F, v0` becomes `add.le`.
#[test]
fn fadd_fmov_le() {
    mov_prop_propagates(Le, RegType::F, RegType::F);
}

/// Mesa: `add v0:F; mov.ge null:F, v0` becomes `add.ge`.
#[test]
fn fadd_fmov_ge() {
    mov_prop_propagates(Ge, RegType::F, RegType::F);
}

/// Mesa: `add v0:D; mov.nz null:D, v0` becomes `add.nz`.
#[test]
fn iadd_imov_nz() {
    mov_prop_propagates(Nz, RegType::D, RegType::D);
}

/// Mesa: `add v0:D; mov.z null:D, v0` becomes `add.z`.
#[test]
fn iadd_imov_z() {
    mov_prop_propagates(Z, RegType::D, RegType::D);
}

/// Mesa: `add v0:D; mov.l null:D, v0` becomes `add.l`.
#[test]
fn iadd_imov_l() {
    mov_prop_propagates(L, RegType::D, RegType::D);
}

/// Mesa: `add v0:D; mov.g null:D, v0` becomes `add.g`.
#[test]
fn iadd_imov_g() {
    mov_prop_propagates(G, RegType::D, RegType::D);
}

/// Mesa: `add v0:D; mov.le null:D, v0` becomes `add.le`.
#[test]
fn iadd_imov_le() {
    mov_prop_propagates(Le, RegType::D, RegType::D);
}

/// Mesa: `add v0:D; mov.ge null:D, v0` becomes `add.ge`.
#[test]
fn iadd_imov_ge() {
    mov_prop_propagates(Ge, RegType::D, RegType::D);
}

/// Mesa: `add v0:D; mov.nz null:UD, v0` becomes `add.nz` (zero-ness survives the sign
/// change).
#[test]
fn iadd_umov_nz() {
    mov_prop_propagates(Nz, RegType::D, RegType::UD);
}

/// Mesa: `add v0:D; mov.z null:UD, v0` becomes `add.z`.
#[test]
fn iadd_umov_z() {
    mov_prop_propagates(Z, RegType::D, RegType::UD);
}

/// Mesa: `add v0:D; mov.l null:UD, v0` is left (order changes with the sign).
#[test]
fn iadd_umov_l() {
    mov_prop_unchanged(L, RegType::D, RegType::UD);
}

/// Mesa: `add v0:D; mov.g null:UD, v0` is left.
#[test]
fn iadd_umov_g() {
    mov_prop_unchanged(G, RegType::D, RegType::UD);
}

/// Mesa: `add v0:D; mov.le null:UD, v0` is left.
#[test]
fn iadd_umov_le() {
    mov_prop_unchanged(Le, RegType::D, RegType::UD);
}

/// Mesa: `add v0:D; mov.ge null:UD, v0` is left.
#[test]
fn iadd_umov_ge() {
    mov_prop_unchanged(Ge, RegType::D, RegType::UD);
}

/// Mesa: `add v0:F; mov.nz null:UD, v0` is left (float to unsigned clamps [-inf, 1) and
/// NaN to 0).
#[test]
fn fadd_f2u_nz() {
    mov_prop_unchanged(Nz, RegType::F, RegType::UD);
}

/// Mesa: `add v0:F; mov.z null:UD, v0` is left.
#[test]
fn fadd_f2u_z() {
    mov_prop_unchanged(Z, RegType::F, RegType::UD);
}

/// Mesa: `add v0:F; mov.l null:UD, v0` is left.
#[test]
fn fadd_f2u_l() {
    mov_prop_unchanged(L, RegType::F, RegType::UD);
}

/// Mesa: `add v0:F; mov.g null:UD, v0` is left.
#[test]
fn fadd_f2u_g() {
    mov_prop_unchanged(G, RegType::F, RegType::UD);
}

/// Mesa: `add v0:F; mov.le null:UD, v0` is left.
#[test]
fn fadd_f2u_le() {
    mov_prop_unchanged(Le, RegType::F, RegType::UD);
}

/// Mesa: `add v0:F; mov.ge null:UD, v0` is left.
#[test]
fn fadd_f2u_ge() {
    mov_prop_unchanged(Ge, RegType::F, RegType::UD);
}

/// Mesa: `add v0:F; mov.nz null:D, v0` is left (float to signed truncates (-1, 1) and NaN
/// to 0).
#[test]
fn fadd_f2i_nz() {
    mov_prop_unchanged(Nz, RegType::F, RegType::D);
}

/// Mesa: `add v0:F; mov.z null:D, v0` is left.
#[test]
fn fadd_f2i_z() {
    mov_prop_unchanged(Z, RegType::F, RegType::D);
}

/// Mesa: `add v0:F; mov.l null:D, v0` is left.
#[test]
fn fadd_f2i_l() {
    mov_prop_unchanged(L, RegType::F, RegType::D);
}

/// Mesa: `add v0:F; mov.g null:D, v0` is left.
#[test]
fn fadd_f2i_g() {
    mov_prop_unchanged(G, RegType::F, RegType::D);
}

/// Mesa: `add v0:F; mov.le null:D, v0` is left.
#[test]
fn fadd_f2i_le() {
    mov_prop_unchanged(Le, RegType::F, RegType::D);
}

/// Mesa: `add v0:F; mov.ge null:D, v0` is left.
#[test]
fn fadd_f2i_ge() {
    mov_prop_unchanged(Ge, RegType::F, RegType::D);
}

/// Mesa's `test_saturate_prop`: `add.sat v0:ty, v1, v2` then `cmp.cond v3:op_ty, v0, 0` (or
/// `mov.cond v3:op_ty, v0`), v3 unread. Mesa puts the condition on the saturating ADD and
/// removes the test in every case; gpucc leaves them all ([`Difference::SaturatedWriter`]).
fn saturate_prop(c: CondMod, op: Opcode, ty: RegType, op_ty: RegType) {
    let a = sat(add(v(0, ty), v(1, ty), v(2, ty)));
    let test = match op {
        Opcode::Cmp => cmp(v(3, op_ty), v(0, op_ty), Reg::imm(op_ty, 0), c),
        _ => cond(mov(v(3, op_ty), v(0, op_ty)), c),
    };
    propagates(vec![a.clone(), test], vec![cond(a, c)]);
}

/// Mesa: `add.sat v0:F; cmp.nz v3, v0, 0` becomes `add.sat.nz` (the test sees the clamped
/// value).
#[test]
fn float_saturate_nz_cmp() {
    saturate_prop(Nz, Opcode::Cmp, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; mov.nz v3, v0` becomes `add.sat.nz`.
#[test]
fn float_saturate_nz_mov() {
    saturate_prop(Nz, Opcode::Mov, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; cmp.z v3, v0, 0` becomes `add.sat.z`.
#[test]
fn float_saturate_z_cmp() {
    saturate_prop(Z, Opcode::Cmp, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; mov.z v3, v0` becomes `add.sat.z`.
#[test]
fn float_saturate_z_mov() {
    saturate_prop(Z, Opcode::Mov, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; cmp.g v3, v0, 0` becomes `add.sat.g`.
#[test]
fn float_saturate_g_cmp() {
    saturate_prop(G, Opcode::Cmp, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; mov.g v3, v0` becomes `add.sat.g`.
#[test]
fn float_saturate_g_mov() {
    saturate_prop(G, Opcode::Mov, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; cmp.le v3, v0, 0` becomes `add.sat.le`.
#[test]
fn float_saturate_le_cmp() {
    saturate_prop(Le, Opcode::Cmp, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; mov.le v3, v0` becomes `add.sat.le`.
#[test]
fn float_saturate_le_mov() {
    saturate_prop(Le, Opcode::Mov, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; cmp.l v3, v0, 0` becomes `add.sat.l`.
#[test]
fn float_saturate_l_cmp() {
    saturate_prop(L, Opcode::Cmp, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; mov.l v3, v0` becomes `add.sat.l`.
#[test]
fn float_saturate_l_mov() {
    saturate_prop(L, Opcode::Mov, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; cmp.ge v3, v0, 0` becomes `add.sat.ge`.
#[test]
fn float_saturate_ge_cmp() {
    saturate_prop(Ge, Opcode::Cmp, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:F; mov.ge v3, v0` becomes `add.sat.ge`.
#[test]
fn float_saturate_ge_mov() {
    saturate_prop(Ge, Opcode::Mov, RegType::F, RegType::F);
}

/// Mesa: `add.sat v0:D; cmp.nz v3:D, v0, 0` becomes `add.sat.nz`.
#[test]
fn int_saturate_nz_cmp() {
    saturate_prop(Nz, Opcode::Cmp, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:UD; cmp.nz v3:D, v0:D, 0` becomes `add.sat.nz`.
#[test]
fn uint_saturate_nz_cmp() {
    saturate_prop(Nz, Opcode::Cmp, RegType::UD, RegType::D);
}

/// Mesa: `add.sat v0:D; mov.nz v3:D, v0` becomes `add.sat.nz`.
#[test]
fn int_saturate_nz_mov() {
    saturate_prop(Nz, Opcode::Mov, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; cmp.z v3:D, v0, 0` becomes `add.sat.z`.
#[test]
fn int_saturate_z_cmp() {
    saturate_prop(Z, Opcode::Cmp, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:UD; cmp.z v3:D, v0:D, 0` becomes `add.sat.z`.
#[test]
fn uint_saturate_z_cmp() {
    saturate_prop(Z, Opcode::Cmp, RegType::UD, RegType::D);
}

/// Mesa: `add.sat v0:D; mov.z v3:D, v0` becomes `add.sat.z`.
#[test]
fn int_saturate_z_mov() {
    saturate_prop(Z, Opcode::Mov, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; cmp.g v3:D, v0, 0` becomes `add.sat.g`.
#[test]
fn int_saturate_g_cmp() {
    saturate_prop(G, Opcode::Cmp, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; mov.g v3:D, v0` becomes `add.sat.g`.
#[test]
fn int_saturate_g_mov() {
    saturate_prop(G, Opcode::Mov, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; cmp.le v3:D, v0, 0` becomes `add.sat.le`.
#[test]
fn int_saturate_le_cmp() {
    saturate_prop(Le, Opcode::Cmp, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; mov.le v3:D, v0` becomes `add.sat.le`.
#[test]
fn int_saturate_le_mov() {
    saturate_prop(Le, Opcode::Mov, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; cmp.l v3:D, v0, 0` becomes `add.sat.l`.
#[test]
fn int_saturate_l_cmp() {
    saturate_prop(L, Opcode::Cmp, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; mov.l v3:D, v0` becomes `add.sat.l`.
#[test]
fn int_saturate_l_mov() {
    saturate_prop(L, Opcode::Mov, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; cmp.ge v3:D, v0, 0` becomes `add.sat.ge`.
#[test]
fn int_saturate_ge_cmp() {
    saturate_prop(Ge, Opcode::Cmp, RegType::D, RegType::D);
}

/// Mesa: `add.sat v0:D; mov.ge v3:D, v0` becomes `add.sat.ge`.
#[test]
fn int_saturate_ge_mov() {
    saturate_prop(Ge, Opcode::Mov, RegType::D, RegType::D);
}

fn not_nz(src: Reg) -> Inst {
    cond(alu(Opcode::Not, null(RegType::UD), vec![src]), Nz)
}

/// Mesa: `or v0:UD, v1, v2; not.nz null, v0` becomes `or.z v0, v1, v2`.
#[test]
fn not_to_or() {
    let o = op2(Opcode::Or, vud(0), vud(1), vud(2));
    leaves(NotTest, vec![o.clone(), not_nz(vud(0))], vec![cond(o, Z)]);
}

/// Mesa: `and v0:UD, v1, v2; not.nz null, v0` becomes `and.z v0, v1, v2`.
#[test]
fn not_to_and() {
    let a = op2(Opcode::And, vud(0), vud(1), vud(2));
    leaves(NotTest, vec![a.clone(), not_nz(vud(0))], vec![cond(a, Z)]);
}

/// Mesa: `add v0:UD, v1, v2; not.nz null, v0` is left (Mesa only inverts into OR and AND).
#[test]
fn not_to_uadd() {
    unchanged(vec![add(vud(0), vud(1), vud(2)), not_nz(vud(0))]);
}

/// Mesa: `add v0:UD, v1:F, v2:F; not.nz null, v0` is left.
#[test]
fn not_to_fadd_to_ud() {
    unchanged(vec![add(vud(0), vf(1), vf(2)), not_nz(vud(0))]);
}

/// Mesa: `add v0:F, v1, v2; not.nz null, v0:UD` is left.
#[test]
fn not_to_fadd() {
    unchanged(vec![add(vf(0), vf(1), vf(2)), not_nz(vud(0))]);
}

/// Mesa: `or.z v0:UD, v2, v3; (+f0) sel v1, v4, 0; not.nz null, v0` loses the NOT (the flag
/// already holds `v0 == 0`).
#[test]
fn not_to_or_intervening_flag_read_compatible_value() {
    let o = cond(op2(Opcode::Or, vud(0), vud(2), vud(3)), Z);
    let s = psel(vf(1), vf(4), imm_f(0.0));
    leaves(
        NotTest,
        vec![o.clone(), s.clone(), not_nz(vud(0))],
        vec![o, s],
    );
}

/// Mesa: as above with the OR on f0.1: left (the flag the NOT writes is not the OR's).
#[test]
fn not_to_or_intervening_flag_read_compatible_value_mismatch_flag() {
    unchanged(vec![
        f01(cond(op2(Opcode::Or, vud(0), vud(2), vud(3)), Z)),
        psel(vf(1), vf(4), imm_f(0.0)),
        not_nz(vud(0)),
    ]);
}

/// Mesa: `or.nz v0:UD, v2, v3; (+f0) sel v1, v4, 0; not.nz null, v0` is left (the flag
/// holds the opposite test, and the SEL reads it).
#[test]
fn not_to_or_intervening_flag_read_incompatible_value() {
    unchanged(vec![
        cond(op2(Opcode::Or, vud(0), vud(2), vud(3)), Nz),
        psel(vf(1), vf(4), imm_f(0.0)),
        not_nz(vud(0)),
    ]);
}

/// Mesa: `or v0:UD, v2, v3; or.z.f0.1 v1, v2, v3; not.nz null, v0` becomes `or.z.f0 v0,
/// ...; or.z.f0.1 v1, ...`.
#[test]
fn not_to_or_intervening_mismatch_flag_write() {
    let o = op2(Opcode::Or, vud(0), vud(2), vud(3));
    let o1 = f01(cond(op2(Opcode::Or, vud(1), vud(2), vud(3)), Z));
    leaves(
        NotTest,
        vec![o.clone(), o1.clone(), not_nz(vud(0))],
        vec![cond(o, Z), o1],
    );
}

/// Mesa: `or v0:UD, v2, v3; (+f0.1) sel v1, v4, 0; not.nz null, v0` becomes `or.z v0, ...;
/// (+f0.1) sel ...`.
#[test]
fn not_to_or_intervening_mismatch_flag_read() {
    let o = op2(Opcode::Or, vud(0), vud(2), vud(3));
    let s = f01(psel(vf(1), vf(4), imm_f(0.0)));
    leaves(
        NotTest,
        vec![o.clone(), s.clone(), not_nz(vud(0))],
        vec![cond(o, Z), s],
    );
}

/// Mesa: `add.sat v0, v1, -10.0; cmp.z null, v1, 10.0` is left (saturation can make a
/// non-zero difference zero).
#[test]
fn cmp_to_add_float_e() {
    unchanged(vec![
        sat(add(vf(0), vf(1), imm_f(-10.0))),
        cmp(null(RegType::F), vf(1), imm_f(10.0), Z),
    ]);
}

/// Mesa: `add.sat v0, v1, -10.0; cmp.g null, v1, 10.0` becomes `add.sat.g v0, v1, -10.0`.
#[test]
fn cmp_to_add_float_g() {
    let a = sat(add(vf(0), vf(1), imm_f(-10.0)));
    propagates(
        vec![a.clone(), cmp(null(RegType::F), vf(1), imm_f(10.0), G)],
        vec![cond(a, G)],
    );
}

/// Mesa: `add.sat v0, v1, -10.0; cmp.le null, v1, 10.0` becomes `add.sat.le v0, v1, -10.0`.
#[test]
fn cmp_to_add_float_le() {
    let a = sat(add(vf(0), vf(1), imm_f(-10.0)));
    propagates(
        vec![a.clone(), cmp(null(RegType::F), vf(1), imm_f(10.0), Le)],
        vec![cond(a, Le)],
    );
}

/// Mesa (Gen7): `add v0, v2, v3; sel.ge v1, v4, v5; cmp.ge null, v0, 0` becomes `add.ge v0,
/// ...; sel.ge v1, ...` (a Gen6+ `sel.ge` is a maximum and writes no flag).
#[test]
fn prop_across_sel_gfx7() {
    let a = add(vf(0), vf(2), vf(3));
    let s = cond(op2(Opcode::Sel, vf(1), vf(4), vf(5)), Ge);
    propagates(
        vec![
            a.clone(),
            s.clone(),
            cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
        ],
        vec![cond(a, Ge), s],
    );
}

/// Mesa (Gen5): the same program is left (there `sel.ge` becomes CMPN + SEL later, writing
/// the flag). gpucc differs on purpose: its fs backend starts at Gen7, where `sel.cond`
/// writes no flag, so its pass propagates across the SEL as Mesa does on Gen7.
#[test]
fn prop_across_sel_gfx5() {
    let a = add(vf(0), vf(2), vf(3));
    let s = cond(op2(Opcode::Sel, vf(1), vf(4), vf(5)), Ge);
    propagates(
        vec![
            a.clone(),
            s.clone(),
            cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
        ],
        vec![cond(a, Ge), s],
    );
}

/// Mesa (Gen5): `sel.ge v0, v1, v2; cmp.ge null, v0, 0` is left (SEL's condition compares
/// its sources, not its result).
#[test]
fn prop_into_sel_gfx5() {
    unchanged(vec![
        cond(op2(Opcode::Sel, vf(0), vf(1), vf(2)), Ge),
        cmp(null(RegType::F), vf(0), imm_f(0.0), Ge),
    ]);
}
