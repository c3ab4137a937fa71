//! Subgroup operations: a subgroup is the channels of one thread.
//!
//! - `reduce`: the source goes into a temporary through [`Op::SelExec`] (the channels the
//!   execution mask leaves out hold the operation's identity), then a tree of write-all
//!   operations folds the upper half of the channels into the lower one until channel 0
//!   holds the result, which every channel reads as a scalar. The interpreter folds in the
//!   same order (`nir::interp::subgroup`), so float sums compare exactly.
//! - `first_invocation`: the channel index of the first enabled channel, the
//!   find-live-channel idiom of [`Op::Uniformize`] applied to the channel indices.
//! - `read_first_invocation`: [`Op::Uniformize`] of each component.
//! - `read_invocation` with a constant channel: that channel of the value, as a scalar.

use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::nir::interp::subgroup::reduction;
use crate::nir::{IndexKind, IndexValue, IntrinsicInstr};

use super::super::ir::{File, Op, Reg, REG_SIZE};
use super::{intrinsic_def, intrinsic_src, unsupported, CompileError, Translator};

impl<'a> Translator<'a> {
    /// `reduce` of 32-bit values over the whole thread.
    pub(super) fn emit_reduce(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let def = intrinsic_def(i)?;
        let (nc, bits) = self.def_info(def)?;
        let name = match i.index(IndexKind::ReductionOp) {
            Some(IndexValue::Text(t)) => t.strip_prefix("reduction_op=").unwrap_or(t),
            _ => return Err(CompileError::Invalid("reduce without reduction_op".into())),
        };
        if bits != 32 {
            return Err(unsupported(format!("reduce of {bits}-bit values")));
        }
        let width = self.width as usize;
        let cluster = i.int_index(IndexKind::ClusterSize).unwrap_or(0);
        if cluster > 0 && (cluster as usize) < width {
            return Err(unsupported(format!(
                "clustered reduce (cluster_size={cluster} in SIMD{width})"
            )));
        }
        use Opcode::{Add, And, Mul, Or, Sel, Xor};
        use RegType::{D, F, UD};
        let (opcode, cmod, ty) = match name {
            "iadd" => (Add, CondMod::None, D),
            "fadd" => (Add, CondMod::None, F),
            "fmul" => (Mul, CondMod::None, F),
            "imin" => (Sel, CondMod::L, D),
            "imax" => (Sel, CondMod::Ge, D),
            "umin" => (Sel, CondMod::L, UD),
            "umax" => (Sel, CondMod::Ge, UD),
            "fmin" => (Sel, CondMod::L, F),
            "fmax" => (Sel, CondMod::Ge, F),
            "iand" => (And, CondMod::None, UD),
            "ior" => (Or, CondMod::None, UD),
            "ixor" => (Xor, CondMod::None, UD),
            _ => return Err(unsupported(format!("reduce with reduction_op={name}"))),
        };
        let (_, identity) = reduction(name, 32)
            .ok_or_else(|| unsupported(format!("reduce with reduction_op={name}")))?;
        let src = intrinsic_src(i, 0)?;
        let mut out = Vec::with_capacity(nc as usize);
        for c in 0..nc as usize {
            let v = self.comp(src, c)?.retype(ty);
            let regs = (width as u32 * 4).div_ceil(REG_SIZE);
            let t = Reg::vgrf(self.prog.alloc(regs), ty);
            self.push(Op::SelExec, t, vec![v, Reg::imm(ty, identity as u32)]);
            let mut n = width;
            while n > 1 {
                let h = n / 2;
                let upper = Reg {
                    offset: t.offset + 4 * h as u32,
                    ..t
                };
                let fold = self.alu(opcode, t, vec![t, upper]);
                fold.exec_size = h as u8;
                fold.we_all = true;
                fold.cmod = cmod;
                n = h;
            }
            out.push(Reg { stride: 0, ..t });
        }
        self.set(def, out);
        Ok(())
    }

    /// `first_invocation`: the index of the first enabled channel, for every channel.
    pub(super) fn emit_first_invocation(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let chan = self.chan_index.ok_or_else(|| {
            CompileError::Internal("first_invocation without a channel index".into())
        })?;
        let first = self.uniform_dword(chan);
        self.set(intrinsic_def(i)?, vec![first]);
        Ok(())
    }

    /// `read_first_invocation` and `read_invocation` (the latter with a constant channel).
    pub(super) fn emit_read_invocation(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let def = intrinsic_def(i)?;
        let (nc, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!(
                "{} of {bits}-bit values",
                i.intrinsic.name()
            )));
        }
        let src = intrinsic_src(i, 0)?;
        let channel = if i.srcs.len() > 1 {
            let idx = intrinsic_src(i, 1)?;
            let c = self
                .imp
                .const_value(idx)
                .and_then(|v| v.first().copied())
                .ok_or_else(|| {
                    unsupported("read_invocation of a channel not known at compile time")
                })?;
            if c >= u64::from(self.width) {
                return Err(unsupported(format!(
                    "read_invocation of channel {c} in SIMD{}",
                    self.width
                )));
            }
            Some(c as u32)
        } else {
            None
        };
        let mut out = Vec::with_capacity(nc as usize);
        for c in 0..nc as usize {
            let v = self.comp(src, c)?.retype(RegType::UD);
            out.push(match channel {
                None => self.uniform_dword(v),
                Some(_) if v.file == File::Imm || v.stride == 0 => v,
                Some(k) if v.region.is_none() => Reg {
                    offset: v.offset + 4 * k * u32::from(v.stride),
                    stride: 0,
                    ..v
                },
                Some(_) => return Err(unsupported("read_invocation of a value with a region")),
            });
        }
        self.set(def, out);
        Ok(())
    }
}
