//! Instruction statistics and the cycle estimate.
//!
//! The latency model is deliberately simple and documented here so the numbers can be read:
//! a straight-line estimate where each ALU instruction issues in 2 cycles per 8 channels (4 for
//! SIMD16 and 3-source on the narrower pipes), extended math costs 16 cycles per 8 channels,
//! and a SEND costs its message round trip (render-target writes 20 cycles, sampler messages
//! 200). Loop bodies are counted once, as Mesa's static estimate does without trip counts.

use crate::intel::eu::{self, Opcode};
use crate::intel::kernel::Stats;
use crate::intel::DevInfo;

/// Counts instructions, loops and sends and estimates cycles.
pub fn collect(devinfo: &DevInfo, insts: &[eu::Inst]) -> Stats {
    let _ = devinfo;
    let mut s = Stats::default();
    for i in insts {
        s.instructions += 1;
        let groups = (i.exec_size as u32).div_ceil(8).max(1);
        let cost = match i.opcode {
            Opcode::While => {
                s.loops += 1;
                2
            }
            Opcode::Send | Opcode::Sendc => {
                s.sends += 1;
                match i.msg.map(|m| m.sfid) {
                    Some(eu::types::sfid::SAMPLER) => 200,
                    _ => 20,
                }
            }
            Opcode::Math => 16 * groups,
            op if op.is_flow() => 2,
            _ => 2 * groups,
        };
        s.cycles += cost;
    }
    s
}
