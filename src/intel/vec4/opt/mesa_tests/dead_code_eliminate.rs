//! Mesa's `test_vec4_dead_code_eliminate.cpp` (1 case, Gen4). Mesa's vec4
//! `dead_code_eliminate` both removes dead instructions and narrows write masks to live
//! channels; gpucc splits that job between [`dead_code_eliminate`] and [`dead_channels`],
//! so the case runs both.
//!
//! 1 test, 1 passes, 1 difference (the IR has no scratch write of two registers).

use crate::intel::eu::CondMod::L;
use crate::intel::eu::Opcode::{Mov, Sel};
use crate::intel::eu::RegType::{F, UD};
use crate::intel::vec4::ir::{Inst, Op};
use crate::intel::vec4::opt::dce::dead_code_eliminate;
use crate::intel::vec4::opt::dead_channels::dead_channels;
use crate::intel::vec4::opt::test_builder::*;

/// Mesa: `cmp.l r4, r2.wwww, r1.xxxx; mov r5.x, r4.xxxx; (+f0) sel r6, r3, r6`, with r5
/// and r6 read later: the compare keeps write mask `.xyzw`, because the `sel` reads all
/// four flag channels it writes, although only `r4.x` is read.
#[test]
fn some_dead_channels_all_flags_used() {
    let scratch = |slot, src| Inst::new(Op::ScratchWrite { slot }, null(F, 0xf), vec![src]);
    // Difference (IR): Mesa keeps r5 and r6 live with one scratch write reading both; a
    // gpucc scratch write stores one register, so there are two.
    let mut p = program(vec![
        cmp(
            vec4_dst(4, F),
            with_swizzle(vec4(2, F), swizzle(3, 3, 3, 3)),
            with_swizzle(vec4(1, F), swizzle(0, 0, 0, 0)),
            L,
        ),
        alu(Mov, scalar_dst(5, F), &[scalar(4, F)]),
        predicated(alu(Sel, vec4_dst(6, UD), &[vec4(3, UD), vec4(6, UD)])),
        scratch(0, vec4(6, F)),
        scratch(1, vec4(5, F)),
    ]);
    dead_code_eliminate(&mut p);
    dead_channels(&mut p);
    let cmp = p
        .insts
        .iter()
        .find(|i| i.cmod == L)
        .expect("the compare stays");
    assert_eq!(cmp.dst.writemask, 0xf);
}
