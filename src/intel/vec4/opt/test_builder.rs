//! Small constructors for the vec4 pass tests, so a test reads as the program it builds
//! (one line per instruction, in the order of Mesa's `vec4_builder` calls) rather than as
//! struct literals.
//!
//! Operands follow Mesa's conventions for GLSL-typed registers: a scalar (`float`, `int`)
//! register is written `.x` and read `.xxxx`, a vector one written `.xyzw` and read `.xyzw`.

use crate::intel::eu::{CondMod, Opcode, RegType};

use super::super::ir::{replicate, Dst, File, Inst, Op, Program, Src};

/// The swizzle reading components `x y z w` (each 0-3) in channels 0-3.
pub(crate) const fn swizzle(x: u8, y: u8, z: u8, w: u8) -> u8 {
    x | y << 2 | z << 4 | w << 6
}

/// A scalar virtual register as a destination: component x.
pub(crate) fn scalar_dst(nr: u32, ty: RegType) -> Dst {
    Dst::vgrf(nr, ty, 0x1)
}

/// A scalar virtual register as a source: component x in every channel.
pub(crate) fn scalar(nr: u32, ty: RegType) -> Src {
    Src::vgrf(nr, ty).swizzled(replicate(0))
}

/// A four-component virtual register as a destination.
pub(crate) fn vec4_dst(nr: u32, ty: RegType) -> Dst {
    Dst::vgrf(nr, ty, 0xf)
}

/// A four-component virtual register as a source, `.xyzw`.
pub(crate) fn vec4(nr: u32, ty: RegType) -> Src {
    Src::vgrf(nr, ty)
}

/// The null destination writing the components in `writemask`.
pub(crate) fn null(ty: RegType, writemask: u8) -> Dst {
    Dst {
        writemask,
        ..Dst::null(ty)
    }
}

/// A push-constant (uniform) source, `.xyzw`.
pub(crate) fn uniform(nr: u32, ty: RegType) -> Src {
    Src::reg(File::Uniform, nr, ty)
}

/// A source read through `swz` (replacing, not composing with, its swizzle).
pub(crate) fn with_swizzle(src: Src, swz: u8) -> Src {
    Src {
        swizzle: swz,
        ..src
    }
}

/// An ALU instruction.
pub(crate) fn alu(op: Opcode, dst: Dst, src: &[Src]) -> Inst {
    Inst::new(Op::Alu(op), dst, src.to_vec())
}

/// `inst` with conditional modifier `cmod` (it writes the flag).
pub(crate) fn with_cmod(mut inst: Inst, cmod: CondMod) -> Inst {
    inst.cmod = cmod;
    inst
}

/// `cmp.cmod dst, a, b`.
pub(crate) fn cmp(dst: Dst, a: Src, b: Src, cmod: CondMod) -> Inst {
    with_cmod(alu(Opcode::Cmp, dst, &[a, b]), cmod)
}

/// `inst` predicated on the flag, per channel (Mesa's `BRW_PREDICATE_NORMAL`).
pub(crate) fn predicated(mut inst: Inst) -> Inst {
    inst.pred = Some(false);
    inst
}

/// A control-flow marker.
pub(crate) fn flow(op: Op) -> Inst {
    Inst::new(op, Dst::null(RegType::F), vec![])
}

/// The program of `insts`, with as many virtual registers as the highest one named needs.
pub(crate) fn program(insts: Vec<Inst>) -> Program {
    let vgrfs = insts
        .iter()
        .flat_map(|i| {
            std::iter::once((i.dst.file, i.dst.nr)).chain(i.src.iter().map(|s| (s.file, s.nr)))
        })
        .filter(|&(file, _)| file == File::Vgrf)
        .map(|(_, nr)| nr + 1)
        .max()
        .unwrap_or(0);
    Program {
        insts,
        num_vgrfs: vgrfs,
        interleaved_attrs: false,
    }
}

/// Each instruction's operation and conditional modifier, the shape most pass tests check.
pub(crate) fn shape(prog: &Program) -> Vec<(Op, CondMod)> {
    prog.insts.iter().map(|i| (i.op, i.cmod)).collect()
}

/// An ALU operation without modifier, for comparing with [`shape`].
pub(crate) fn plain(op: Opcode) -> (Op, CondMod) {
    (Op::Alu(op), CondMod::None)
}

/// An ALU operation with modifier `cmod`, for comparing with [`shape`].
pub(crate) fn flagged(op: Opcode, cmod: CondMod) -> (Op, CondMod) {
    (Op::Alu(op), cmod)
}
