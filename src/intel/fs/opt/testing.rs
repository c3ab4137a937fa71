//! Builders shared by the passes' IR-in/IR-out tests: one-register VGRFs, SIMD8 ALU
//! instructions and control-flow markers, and a runner that applies a pass to an instruction
//! list.

use super::super::ir::{Inst, Op, Program, Reg};
use crate::intel::eu::{Opcode, RegType};

/// VGRF `nr` read as float.
pub fn f(nr: u32) -> Reg {
    Reg::vgrf(nr, RegType::F)
}

/// VGRF `nr` read as unsigned dword.
pub fn ud(nr: u32) -> Reg {
    Reg::vgrf(nr, RegType::UD)
}

/// A SIMD8 ALU instruction.
pub fn alu(op: Opcode, dst: Reg, src: Vec<Reg>) -> Inst {
    Inst::new(Op::Alu(op), 8, dst, src)
}

/// A SIMD8 two-source ALU instruction.
pub fn binary(op: Opcode, dst: Reg, a: Reg, b: Reg) -> Inst {
    alu(op, dst, vec![a, b])
}

/// A SIMD8 MOV.
pub fn mov(dst: Reg, src: Reg) -> Inst {
    alu(Opcode::Mov, dst, vec![src])
}

/// A control-flow marker (IF, ELSE, DO, ...) without operands.
pub fn flow(op: Op) -> Inst {
    Inst::new(op, 8, Reg::BAD, vec![])
}

/// `mov(8) v<dst>:UD, v<src>:UD`.
pub fn copy(dst: u32, src: u32) -> Inst {
    alu(Opcode::Mov, ud(dst), vec![ud(src)])
}

/// Runs `pass` on `insts` (sixteen one-register VGRFs); its progress flag and the result.
pub fn run(pass: fn(&mut Program) -> bool, insts: Vec<Inst>) -> (bool, Vec<Inst>) {
    run_sized(pass, 1, insts)
}

/// [`run`] with sixteen VGRFs of `size` registers each (Mesa's pass tests use wide ones).
pub fn run_sized(pass: fn(&mut Program) -> bool, size: u32, insts: Vec<Inst>) -> (bool, Vec<Inst>) {
    let mut p = Program {
        insts,
        vgrf_sizes: vec![size; 16],
        ..Default::default()
    };
    let progress = pass(&mut p);
    (progress, p.insts)
}

/// Asserts that `pass` reports no progress and leaves `insts` as they are.
pub fn unchanged(pass: fn(&mut Program) -> bool, insts: Vec<Inst>) {
    unchanged_sized(pass, 1, insts);
}

/// [`unchanged`] over VGRFs of `size` registers.
pub fn unchanged_sized(pass: fn(&mut Program) -> bool, size: u32, insts: Vec<Inst>) {
    let (p, out) = run_sized(pass, size, insts.clone());
    assert!(!p, "the pass reported progress");
    assert_eq!(out, insts);
}

/// Asserts that `pass`, over VGRFs of `size` registers, reports progress and makes exactly
/// `after` of `before`.
pub fn changes_to(pass: fn(&mut Program) -> bool, size: u32, before: Vec<Inst>, after: Vec<Inst>) {
    let (p, out) = run_sized(pass, size, before);
    assert!(p, "the pass reported no progress");
    assert_eq!(out, after);
}
