//! Mesa 23.3's `test_fs_copy_propagation.cpp`, case by case, restated in gpucc's IR and run
//! against [`copy_propagation`]: one test per Mesa `TEST_F`, with the same name, each with
//! Mesa's case (input program, expected result) in its doc line. SIMD8 as in Mesa's fixture,
//! virtual registers numbered in Mesa's declaration order.
//!
//! 2 cases, both with Mesa's outcome; no differences. (In `maxmax_sat_imm` the outcome is
//! the same for a broader reason: gpucc never treats a saturating MOV as a copy, while Mesa
//! considers one and then rejects each of these SELs.)

use super::copy_propagation;
use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::intel::fs::ir::{Inst, Program, Reg};
use crate::intel::fs::opt::testing::{alu, binary, mov};

fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
    let mut p = Program {
        insts,
        vgrf_sizes: vec![1; 4],
        ..Default::default()
    };
    let progress = copy_propagation(&mut p);
    (progress, p.insts)
}

fn vf(nr: u32) -> Reg {
    Reg::vgrf(nr, RegType::F)
}

/// Mesa: `mov v0, v2; add v1, v0, v3` becomes `mov v0, v2; add v1, v2, v3`.
#[test]
fn basic() {
    let copy = mov(vf(0), vf(2));
    let (p, out) = run(vec![copy.clone(), binary(Opcode::Add, vf(1), vf(0), vf(3))]);
    assert!(p);
    assert_eq!(out, vec![copy, binary(Opcode::Add, vf(1), vf(2), vf(3))]);
}

/// Mesa: `mov.sat v0, v1; sel.cond v2, v0, imm` is left, for each of eighteen conditions
/// and immediates (`.ge`/`.l` with 0.1, 0.5, 0.9, -1.5 and 1.5; none, `.z`, `.nz`, `.g`,
/// `.le`, `.r`, `.o` and `.u` with 0.5): the SEL must not read v1 unclamped, nor take the
/// saturation itself.
#[test]
fn maxmax_sat_imm() {
    use CondMod::*;
    let cases = [
        (Ge, 0.1f32),
        (L, 0.1),
        (Ge, 0.5),
        (L, 0.5),
        (Ge, 0.9),
        (L, 0.9),
        (Ge, -1.5),
        (L, -1.5),
        (Ge, 1.5),
        (L, 1.5),
        (None, 0.5),
        (Z, 0.5),
        (Nz, 0.5),
        (G, 0.5),
        (Le, 0.5),
        (R, 0.5),
        (O, 0.5),
        (U, 0.5),
    ];
    for (cond, imm) in cases {
        let mut copy = mov(vf(0), vf(1));
        copy.sat = true;
        let mut sel = alu(Opcode::Sel, vf(2), vec![vf(0), Reg::imm_f(imm)]);
        sel.cmod = cond;
        let before = vec![copy, sel];
        let (p, out) = run(before.clone());
        assert!(!p, "sel.{cond:?} {imm}: progress reported");
        assert_eq!(out, before, "sel.{cond:?} {imm}");
    }
}
