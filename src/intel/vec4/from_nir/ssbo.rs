//! SSBO atomics (`ssbo_atomic`) as Mesa's vec4 backend sends them on Gen7: one untyped
//! atomic message per thread, each vertex half its own address and operand in x of the
//! message registers (`brw_vec4_surface_builder.cpp`'s `emit_untyped_atomic` with one
//! address dimension), the old value back in x.
//!
//! The operation comes from the shared mapping in [`crate::intel::msg`] with Mesa's
//! refinement of an addition of 1 or -1 into an increment or decrement, which has no operand
//! register. The compare-and-swap form (`ssbo_atomic_swap`) needs its two operands laid out
//! per device (x and y of one register on Haswell, a register each on Ivy Bridge) and is
//! not built.

use crate::intel::backend::binding::ssbo_binding_table_index;
use crate::intel::eu::{Opcode, RegType};
use crate::intel::msg::{aop, aop_for_nir_constant};
use crate::nir::{self, AluSrc, IndexKind, IntrinsicInstr};

use super::super::ir::{Dst, File, Op, Src};
use super::super::urb::MSG_BASE;
use super::{invalid, unsupported, CompileError, Tr};

/// The first message register of an atomic (as a sampler message's: each is built just
/// before its send).
const ATOMIC_MSG: u32 = MSG_BASE + 2;

impl Tr<'_> {
    /// `ssbo_atomic`: the address and operand moved to x of consecutive message registers,
    /// then the untyped atomic, its old value in x of the destination.
    pub(super) fn emit_ssbo_atomic(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let src = |k: usize| {
            i.srcs
                .get(k)
                .copied()
                .ok_or_else(|| invalid(format!("{name} is missing source {k}")))
        };
        let block = self
            .imp
            .const_value(src(0)?)
            .and_then(|v| v.first().copied())
            .ok_or_else(|| unsupported("SSBO access with a non-constant block index"))?;
        let surface =
            ssbo_binding_table_index(self.facts.ssbo_surface_base, block).map_err(unsupported)?;
        let op = match i.index(IndexKind::AtomicOp) {
            Some(nir::IndexValue::Text(t)) => t.strip_prefix("atomic_op=").unwrap_or(t).to_string(),
            _ => return Err(invalid(format!("{name} without atomic_op"))),
        };
        for k in 1..=2 {
            let (n, bits) = self.def_info(src(k)?)?;
            if bits != 32 || n != 1 {
                return Err(unsupported(format!("{name} of {n}x{bits}-bit operands")));
            }
        }
        let constant = self
            .imp
            .const_value(src(2)?)
            .and_then(|v| v.first().copied())
            .map(|v| v as u32);
        let aop = aop_for_nir_constant(&op, false, constant)
            .ok_or_else(|| unsupported(format!("{name} with atomic_op={op}")))?;
        let mut operands = vec![src(1)?];
        if !matches!(aop, aop::INC | aop::DEC) {
            operands.push(src(2)?);
        }
        let mut regs = Vec::new();
        for (k, &id) in operands.iter().enumerate() {
            let v = self.operand(&AluSrc::swizzled(id, &[0, 0, 0, 0]), 0x1, RegType::UD, true)?;
            let nr = ATOMIC_MSG + k as u32;
            self.push(
                Op::Alu(Opcode::Mov),
                Dst::fixed(nr, RegType::UD, 0x1),
                vec![v],
            );
            regs.push(Src::reg(File::Fixed, nr, RegType::UD));
        }
        let dst = match i.def {
            Some(d) => {
                let (n, bits) = self.def_info(d)?;
                if n != 1 || bits != 32 {
                    return Err(unsupported(format!("{name} of a {n}x{bits}-bit value")));
                }
                self.def_dst(d, RegType::UD)?
            }
            None => Dst {
                writemask: 0x1,
                ..Dst::null(RegType::UD)
            },
        };
        self.push(Op::UntypedAtomic { surface, aop }, dst, regs);
        self.facts.surfaces.ssbo_blocks.insert(block as u32);
        Ok(())
    }
}
