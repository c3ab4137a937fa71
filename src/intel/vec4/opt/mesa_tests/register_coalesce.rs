//! Mesa's `test_vec4_register_coalesce.cpp` (5 cases, Gen4) against [`register_coalesce`].
//!
//! Gen4's message registers (MRF) are, in gpucc's vec4 IR, fixed GRFs (`File::Fixed`, the
//! Gen7 way: gpucc builds messages in high GRFs on every generation); that is the one
//! difference, of representation only.
//!
//! 5 tests, 5 pass, 1 difference (MRF written as a fixed GRF, in all five).

use crate::intel::eu::Opcode::{Dp4, Mov, Mul};
use crate::intel::eu::RegType::F;
use crate::intel::vec4::ir::{Dst, File, Src};
use crate::intel::vec4::opt::coalesce::register_coalesce;
use crate::intel::vec4::opt::test_builder::*;

/// Message register `nr` written in `writemask` (Mesa's `dst_reg(MRF, nr)`).
fn mrf(nr: u32, writemask: u8) -> Dst {
    Dst::fixed(nr, F, writemask)
}

/// Mesa: `mul temp.x, s, 1.0f; mov m0.x, temp`: the `mul` writes `m0` itself.
#[test]
fn test_compute_to_mrf() {
    let mut p = program(vec![
        alu(Mul, scalar_dst(1, F), &[scalar(0, F), Src::imm_f(1.0)]),
        alu(Mov, mrf(0, 0x1), &[scalar(1, F)]),
    ]);
    assert!(register_coalesce(&mut p));
    assert_eq!(p.insts.len(), 1);
    assert_eq!(p.insts[0].dst.file, File::Fixed);
}

/// Mesa: `mul temp, s, 1.0f; mov m0.x, temp.xxxx; mov m1, temp`: `temp` has two readers,
/// so the `mul` keeps its own register.
#[test]
fn test_multiple_use() {
    let mut p = program(vec![
        alu(Mul, vec4_dst(1, F), &[scalar(0, F), Src::imm_f(1.0)]),
        alu(
            Mov,
            mrf(0, 0x1),
            &[with_swizzle(vec4(1, F), swizzle(0, 0, 0, 0))],
        ),
        alu(Mov, mrf(1, 0xf), &[vec4(1, F)]),
    ]);
    register_coalesce(&mut p);
    assert_ne!(p.insts[0].dst.file, File::Fixed);
}

/// Mesa: `dp4 temp.x, a, b; mov m0.y, temp.xxxx`: the `dp4` writes `m0.y`.
#[test]
fn test_dp4_mrf() {
    let mut p = program(vec![
        alu(Dp4, scalar_dst(2, F), &[vec4(0, F), vec4(1, F)]),
        alu(Mov, mrf(0, 0x2), &[scalar(2, F)]),
    ]);
    assert!(register_coalesce(&mut p));
    let dp4 = &p.insts[0];
    assert_eq!(dp4.dst.file, File::Fixed);
    assert_eq!(dp4.dst.writemask, 0x2);
}

/// Mesa: `dp4 temp.x, a, b; mov to.y, temp.xxxx; mov m0, -to`: the `dp4` writes `to.y`.
#[test]
fn test_dp4_grf() {
    let mut p = program(vec![
        alu(Dp4, scalar_dst(3, F), &[vec4(0, F), vec4(1, F)]),
        alu(Mov, Dst::vgrf(2, F, 0x2), &[scalar(3, F)]),
        alu(
            Mov,
            mrf(0, 0xf),
            &[with_swizzle(vec4(2, F), swizzle(1, 1, 1, 1)).negated()],
        ),
    ]);
    assert!(register_coalesce(&mut p));
    let dp4 = &p.insts[0];
    assert_eq!((dp4.dst.file, dp4.dst.nr), (File::Vgrf, 2));
    assert_eq!(dp4.dst.writemask, 0x2);
}

/// Mesa: `mul temp.x, a, b; mov to.y, temp.xxxx; mov m0, -to`: the `mul` writes `to`.
#[test]
fn test_channel_mul_grf() {
    let mut p = program(vec![
        alu(Mul, scalar_dst(3, F), &[vec4(0, F), vec4(1, F)]),
        alu(Mov, Dst::vgrf(2, F, 0x2), &[scalar(3, F)]),
        alu(
            Mov,
            mrf(0, 0xf),
            &[with_swizzle(vec4(2, F), swizzle(1, 1, 1, 1)).negated()],
        ),
    ]);
    assert!(register_coalesce(&mut p));
    assert_eq!(p.insts[0].dst.nr, 2);
    assert_eq!(p.insts[0].dst.file, File::Vgrf);
}
