//! Mesa's `test_vec4_copy_propagation.cpp` (2 cases, Gen4) against [`copy_propagation`].
//!
//! 2 tests, 2 pass, no differences.

use crate::intel::eu::Opcode::{Add, Mov};
use crate::intel::eu::RegType::F;
use crate::intel::vec4::ir::Dst;
use crate::intel::vec4::opt::copy_prop::copy_propagation;
use crate::intel::vec4::opt::test_builder::*;

/// Mesa: `add a, a, a; mov b, a.yzwx; mov c, b.yzwx`: the last `mov` reads `a.zwxy`
/// (the two swizzles composed).
#[test]
fn test_swizzle_swizzle() {
    let yzwx = swizzle(1, 2, 3, 0);
    let mut p = program(vec![
        alu(Add, vec4_dst(0, F), &[vec4(0, F), vec4(0, F)]),
        alu(Mov, vec4_dst(1, F), &[with_swizzle(vec4(0, F), yzwx)]),
        alu(Mov, vec4_dst(2, F), &[with_swizzle(vec4(1, F), yzwx)]),
    ]);
    assert!(copy_propagation(&mut p));
    let test_mov = &p.insts[2].src[0];
    assert_eq!(test_mov.nr, 0);
    assert_eq!(test_mov.swizzle, swizzle(2, 3, 0, 1));
}

/// Mesa: `mov b, a.xyxz; mov a.xyz, 1.0f; mov c, b.wwww`: not propagated, `a` changed
/// between the copy and the use; the last `mov` still reads `b.wwww`.
#[test]
fn test_swizzle_writemask() {
    let mut p = program(vec![
        alu(
            Mov,
            vec4_dst(1, F),
            &[with_swizzle(vec4(0, F), swizzle(0, 1, 0, 2))],
        ),
        alu(
            Mov,
            Dst::vgrf(0, F, 0x7),
            &[crate::intel::vec4::ir::Src::imm_f(1.0)],
        ),
        alu(
            Mov,
            vec4_dst(2, F),
            &[with_swizzle(vec4(1, F), swizzle(3, 3, 3, 3))],
        ),
    ]);
    assert!(!copy_propagation(&mut p));
    let test_mov = &p.insts[2].src[0];
    assert_eq!(test_mov.nr, 1);
    assert_eq!(test_mov.swizzle, swizzle(3, 3, 3, 3));
}
