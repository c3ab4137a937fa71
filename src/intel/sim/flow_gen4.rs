//! Gen4–5 control flow: jump counts instead of JIP/UIP.
//!
//! Gen4 and Gen5 keep a per-thread mask stack; the simulator keeps the per-channel
//! resume-IP model of [`super::flow`] instead, which gives the same channel enables for the
//! structured code Mesa emits, and uses the Gen4–5 fields as Mesa's `patch_IF_ELSE` and
//! `brw_patch_break_cont` set them (a single jump count, already in bytes from the
//! decoder):
//!
//! - IF: channels whose predicate fails wait at the target (the ELSE, or the ENDIF). IFF
//!   (an IF without ELSE, Mesa's `patch_IF_ELSE`) targets the instruction after the ENDIF
//!   and is otherwise the same.
//! - ELSE: the channels that waited for it run its block; the channels that ran the IF's
//!   block wait at the target (the instruction after the ENDIF).
//! - ENDIF: jump count 0; nothing beyond re-enabling the channels waiting for it.
//! - BREAK: predicated channels wait at the target, the instruction after the loop's WHILE,
//!   which execution only reaches when the loop exits.
//! - CONT: predicated channels wait at the target, the WHILE, which re-enables them.
//! - WHILE: running channels whose predicate holds loop back to the target (the DO); the
//!   rest wait for the instruction after the WHILE.
//! - DO: a marker without effect.
//!
//! The hardware jumps when no channel is left enabled. The model jumps when no channel runs
//! and none waits for an instruction the jump would skip, so a jump never strands a channel.

use super::exec::{Ctx, Next};
use super::flow::Chan;
use super::thread::Thread;
use crate::intel::eu::{Inst, Opcode};

impl Thread {
    /// Executes a Gen4–5 flow-control instruction (IF, IFF, ELSE, ENDIF, WHILE, BREAK, CONT, DO).
    pub(super) fn exec_flow_gen4(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<Next, String> {
        let op = inst.opcode;
        if op == Opcode::Do || op == Opcode::Endif {
            return Ok(Next::Fall);
        }
        if op == Opcode::While {
            // The Gen6+ WHILE semantics with the jump count as JIP.
            return self.exec_flow(inst, ctx);
        }
        let b = inst
            .branch
            .ok_or_else(|| format!("`{}` without a jump count", op.name()))?;
        let target = usize::try_from(ctx.off as i64 + b.jip as i64)
            .map_err(|_| format!("jump count {} lands before the program", b.jip))?;
        let base = self.group_base(inst);
        let n = inst.exec_size as u32;
        for ch in base..(base + n).min(32) {
            if !self.active(ch) {
                continue;
            }
            let leaves = match op {
                Opcode::If | Opcode::Iff => !self.predicate(inst, ch)?,
                // The channels the IF disabled were waiting for this ELSE: they run its
                // block, the others leave.
                Opcode::Else => ctx.woken >> ch & 1 == 0,
                Opcode::Break | Opcode::Continue => self.predicate(inst, ch)?,
                _ => return Err(format!("unsupported: `{}` on Gen4-5", op.name())),
            };
            if leaves {
                self.chans[ch as usize] = Chan::Wait(target);
            }
        }
        let stranded = self.chans.iter().any(|c| match *c {
            Chan::Active => true,
            Chan::Wait(t) | Chan::Break(t) => t > ctx.off && t < target,
            Chan::Off => false,
        });
        Ok(if stranded || target <= ctx.off {
            Next::Fall
        } else {
            Next::Jump(target)
        })
    }
}
