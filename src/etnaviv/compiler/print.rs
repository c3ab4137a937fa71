//! Text form of the backend IR, for `GPUCC_DEBUG=etna` and test failures.
//!
//! Before allocation an operand names a value and the value components each channel reads,
//! so the printout uses value space throughout: `v3.xy` is components 0 and 1 of value 3,
//! whatever register type the allocator later picks for it. Fixed, internal and uniform
//! registers are physical and print as the disassembler does (`t0`, `i0`, `u4`). Constants
//! and user uniform components not yet placed in a uniform slot print as `c(...)`, one cell
//! per channel (or one when every channel reads the same; a word, or `u4.y` for a component
//! of the application's uniforms), inline immediates as `imm.TYPE(bits)`.
//!
//! ```text
//! values: v0 vec4 input(t1), v1 vec2, v2 vec4 output
//!    0: mul.sat v1.xy, v0.xyyy, c(0x3f000000)
//!    1: L0:
//!    2: branch.lt L1, v1.xxxx, u0.xxxx
//! ```

use std::fmt;

use super::consts::UniformContent;
use super::ir::{Instr, Item, Operand, OperandKind, Program, Shape, ValueKind};

const LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

fn swizzle(f: &mut fmt::Formatter<'_>, swz: [u8; 4]) -> fmt::Result {
    f.write_str(".")?;
    for c in swz {
        write!(f, "{}", LETTERS.get(c as usize).copied().unwrap_or('?'))?;
    }
    Ok(())
}

fn mask(f: &mut fmt::Formatter<'_>, m: u8) -> fmt::Result {
    f.write_str(".")?;
    for (c, letter) in LETTERS.iter().enumerate() {
        if m & (1 << c) != 0 {
            write!(f, "{letter}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            f.write_str("-")?;
        }
        if self.abs {
            f.write_str("|")?;
        }
        match self.kind {
            OperandKind::Value(v) => {
                write!(f, "v{}", v.0)?;
                swizzle(f, self.swz)?;
            }
            OperandKind::Fixed(r) => {
                write!(f, "t{r}")?;
                swizzle(f, self.swz)?;
            }
            OperandKind::Internal(r) => {
                write!(f, "i{r}")?;
                swizzle(f, self.swz)?;
            }
            OperandKind::Uniform(u) => {
                write!(f, "u{u}")?;
                swizzle(f, self.swz)?;
            }
            OperandKind::UniformRel(u) => {
                write!(f, "u{u}[a.x]")?;
                swizzle(f, self.swz)?;
            }
            OperandKind::Imm(imm) => write!(f, "imm.{}({:#x})", imm.ty.name(), imm.bits)?,
            OperandKind::Const(vals) if vals.iter().all(|v| *v == vals[0]) => {
                write!(f, "c({})", Cell(vals[0]))?
            }
            OperandKind::Const(vals) => write!(
                f,
                "c({}, {}, {}, {})",
                Cell(vals[0]),
                Cell(vals[1]),
                Cell(vals[2]),
                Cell(vals[3])
            )?,
        }
        if self.abs {
            f.write_str("|")?;
        }
        Ok(())
    }
}

/// One channel of a placed operand: constant bits in hex, a user uniform component as
/// `u<slot>.<component>`.
struct Cell(UniformContent);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            UniformContent::Const(b) => write!(f, "{b:#x}"),
            UniformContent::User(i) => {
                write!(f, "u{}.{}", i / 4, ["x", "y", "z", "w"][i as usize % 4])
            }
            other => write!(f, "{other:?}"),
        }
    }
}

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}{}",
            self.op.name(),
            self.cond.suffix(),
            if self.sat { ".sat" } else { "" },
            self.ty.suffix()
        )?;
        let mut sep = " ";
        if let Some(t) = self.target {
            write!(f, "{sep}L{}", t.0)?;
            sep = ", ";
        }
        if self.addr_mask != 0 {
            f.write_str(sep)?;
            f.write_str("a")?;
            mask(f, self.addr_mask)?;
            sep = ", ";
        }
        if let Some((v, m)) = self.dst {
            write!(f, "{sep}v{}", v.0)?;
            mask(f, m)?;
            sep = ", ";
        }
        for src in self.src.iter().flatten() {
            write!(f, "{sep}{src}")?;
            sep = ", ";
        }
        match self.shape {
            Shape::Aligned => {}
            Shape::Broadcast(n) => write!(f, "  [reads {n}, broadcast]")?,
            Shape::Texture if self.tex_swz != [0, 1, 2, 3] => {
                write!(f, "  [sampler {}, colour ", self.sampler)?;
                for c in self.tex_swz {
                    f.write_str(["x", "y", "z", "w"][c as usize & 3])?;
                }
                f.write_str("]")?
            }
            Shape::Texture => write!(f, "  [sampler {}]", self.sampler)?,
        }
        Ok(())
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("values:")?;
        for (i, v) in self.values.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}v{i} vec{}", v.width)?;
            match v.kind {
                ValueKind::Temp => {}
                ValueKind::Input { reg } => write!(f, " input(t{reg})")?,
                ValueKind::Output => f.write_str(" output")?,
                ValueKind::Pair => f.write_str(" pair")?,
            }
        }
        writeln!(f)?;
        for (ip, item) in self.items.iter().enumerate() {
            match item {
                Item::Instr(i) => writeln!(f, "{ip:4}: {i}")?,
                Item::Label(l) => writeln!(f, "{ip:4}: L{}:", l.0)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::ir::{Label, ValueId};
    use super::*;
    use crate::etnaviv::isa::{Cond, Opcode};

    #[test]
    fn prints_values_operands_and_labels_in_value_space() {
        let mut p = Program::default();
        let input = p.new_value(4, ValueKind::Input { reg: 1 });
        let t = p.new_value(2, ValueKind::Temp);
        let mut mul = Instr::new(Opcode::Mul, Shape::Aligned);
        mul.sat = true;
        mul.dst = Some((t, 0b11));
        mul.src[0] = Some(Operand::value(input, [0, 1, 1, 1]));
        mul.src[1] = Some(Operand::splat(0x3f00_0000).negated());
        p.push(mul);
        let l = p.new_label();
        p.place(l);
        let mut branch = Instr::new(Opcode::Branch, Shape::Broadcast(1));
        branch.cond = Cond::Lt;
        branch.target = Some(Label(0));
        branch.src[0] = Some(Operand::value(ValueId(1), [0; 4]));
        branch.src[1] = Some(Operand {
            kind: OperandKind::Uniform(3),
            swz: [2; 4],
            neg: false,
            abs: true,
        });
        p.push(branch);
        assert_eq!(
            p.to_string(),
            "values: v0 vec4 input(t1), v1 vec2\n\
             \x20  0: mul.sat v1.xy, v0.xyyy, -c(0x3f000000)\n\
             \x20  1: L0:\n\
             \x20  2: branch.lt L0, v1.xxxx, |u3.zzzz|  [reads 1, broadcast]\n"
        );
    }
}
