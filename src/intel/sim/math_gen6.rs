//! The Gen6 MATH instruction's operand rules.
//!
//! Gen6 moved extended math from a shared-function message into an instruction, with
//! restrictions Gen7 lifted (Mesa's `gfx6_math` asserts them, and its backends lower around
//! them: `get_lowered_simd_width`, `resolve_source_modifiers`, the vec4 generator's switch
//! to align1):
//!
//! - align1 only, at most 8 channels (SIMD16 math is split into halves);
//! - the destination and every source in the GRF (no immediates, no MRF destination), with
//!   a horizontal stride of 1;
//! - no source modifiers (the hardware ignores them, so code relying on them computes
//!   something else);
//! - INT DIV on integer operands only, the other functions on F operands only.
//!
//! A violation is an error naming the rule: the simulator must not run code the hardware
//! would run differently.

use super::thread::Thread;
use crate::intel::eu::{AccessMode, Inst, MathFn, RegFile, RegType, Src};

impl Thread {
    /// Checks a Gen6 MATH instruction against the rules above.
    pub(super) fn check_gen6_math(&self, inst: &Inst) -> Result<(), String> {
        let f = inst.math_fn.ok_or("math without a function")?;
        let bad = |rule: &str| Err(format!("Gen6 math {}: {rule}", f.name()));
        if inst.access_mode != AccessMode::Align1 {
            return bad("align16 math does not exist on Gen6");
        }
        if inst.exec_size > 8 {
            return bad("SIMD16 math does not exist on Gen6 (Mesa splits it into halves)");
        }
        let d = &inst.dst;
        if d.file != RegFile::Grf || d.indirect.is_some() || d.hstride != 1 {
            return bad("the destination must be a direct GRF with a horizontal stride of 1");
        }
        let int_div = matches!(
            f,
            MathFn::IntDivQuotient | MathFn::IntDivRemainder | MathFn::IntDivQuotientAndRemainder
        );
        let nsrc = if f.is_binary() { 2 } else { 1 };
        for (k, s) in inst.src.iter().take(nsrc).enumerate() {
            let r = match s {
                Src::Reg(r) if r.file == RegFile::Grf && r.indirect.is_none() => r,
                _ => return bad(&format!("src{k} must be a direct GRF (no immediates)")),
            };
            if r.region.hstride != 1 {
                return bad(&format!("src{k} must have a horizontal stride of 1"));
            }
            if r.abs || r.negate {
                return bad(&format!(
                    "src{k} has a source modifier, which Gen6 math ignores"
                ));
            }
            if int_div == (r.ty == RegType::F) {
                return bad(&format!(
                    "src{k} of type {} (INT DIV takes integers, the others F)",
                    r.ty.letters()
                ));
            }
        }
        Ok(())
    }
}
