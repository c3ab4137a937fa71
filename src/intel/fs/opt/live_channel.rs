//! The first live channel of a thread whose channels are packed from channel 0 is channel 0,
//! outside control flow: a [`Op::Uniformize`] there is a copy of the value's first channel
//! (Mesa's `eliminate_find_live_channel`, whose FIND_LIVE_CHANNEL becomes 0 and whose
//! BROADCAST then a scalar-region MOV).
//!
//! ```text
//! uniformize v1, v0          =>      mov(8) v1, v0<0,1,0>   (write-all)
//! ```
//!
//! A vertex, geometry or tessellation thread is dispatched with its enabled channels packed
//! from channel 0 up ([`Program::packed_dispatch`]). Only control flow can disable channel 0
//! afterwards (an IF's other side, a loop a channel has left), so a Uniformize before any
//! IF or DO opens, or after every one has closed, reads channel 0. The copy is written in
//! all eight channels regardless of the mask, so the one-register scalar the Uniformize
//! defines is a whole-register definition like before; copy propagation can then read the
//! source's first channel in its place.

use crate::intel::eu::{Opcode, RegType};
use crate::intel::fs::ir::{File, Op, Program, Reg};

/// Rewrites the Uniformizes outside control flow of a packed-dispatch program as copies of
/// channel 0; returns whether any changed.
pub fn eliminate_find_live_channel(prog: &mut Program) -> bool {
    if !prog.packed_dispatch {
        return false;
    }
    let mut depth = 0u32;
    let mut progress = false;
    for inst in &mut prog.insts {
        match inst.op {
            Op::If | Op::Do => depth += 1,
            Op::EndIf | Op::While => depth = depth.saturating_sub(1),
            Op::Uniformize if depth == 0 && inst.pred.is_none() => {
                let Some(src) = inst.src.first().copied() else {
                    continue;
                };
                if src.region.is_some() {
                    continue;
                }
                let src = src.retype(RegType::UD);
                inst.op = Op::Alu(Opcode::Mov);
                inst.src = vec![if src.file == File::Imm {
                    src
                } else {
                    Reg { stride: 0, ..src }
                }];
                inst.dst = inst.dst.retype(RegType::UD);
                inst.exec_size = 8;
                inst.group = 0;
                inst.we_all = true;
                progress = true;
            }
            _ => {}
        }
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::super::testing::{flow, ud};
    use super::*;
    use crate::intel::fs::ir::Inst;

    fn uniformize(dst: u32, src: u32) -> Inst {
        Inst::new(Op::Uniformize, 8, ud(dst), vec![ud(src)])
    }

    /// `mov(8) v<dst>:UD, v<src>.0<0,1,0>:UD` with write-all: channel 0 of `src` everywhere.
    fn first_channel(dst: u32, src: u32) -> Inst {
        let mut m = Inst::new(
            Op::Alu(Opcode::Mov),
            8,
            ud(dst),
            vec![Reg {
                stride: 0,
                ..ud(src)
            }],
        );
        m.we_all = true;
        m
    }

    fn run(packed: bool, insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        let mut p = Program {
            insts,
            vgrf_sizes: vec![1; 16],
            packed_dispatch: packed,
        };
        let progress = eliminate_find_live_channel(&mut p);
        (progress, p.insts)
    }

    #[test]
    fn top_level_uniformize_of_a_vertex_thread_reads_channel_zero() {
        let (p, out) = run(true, vec![uniformize(1, 0)]);
        assert!(p);
        assert_eq!(out, vec![first_channel(1, 0)]);
    }

    #[test]
    fn sparse_dispatch_keeps_the_search() {
        // A fragment thread may have channel 0 disabled from the start.
        let (p, out) = run(false, vec![uniformize(1, 0)]);
        assert!(!p);
        assert_eq!(out, vec![uniformize(1, 0)]);
    }

    #[test]
    fn inside_an_if_or_a_loop_channel_zero_may_be_off() {
        let before = vec![
            flow(Op::If),
            uniformize(1, 0),
            flow(Op::Else),
            uniformize(2, 0),
            flow(Op::EndIf),
            flow(Op::Do),
            uniformize(3, 0),
            flow(Op::While),
        ];
        let (p, out) = run(true, before.clone());
        assert!(!p);
        assert_eq!(out, before);
    }

    #[test]
    fn after_control_flow_closes_channel_zero_is_back() {
        let before = vec![
            flow(Op::Do),
            flow(Op::If),
            uniformize(1, 0),
            flow(Op::EndIf),
            flow(Op::While),
            uniformize(2, 0),
        ];
        let (p, out) = run(true, before.clone());
        assert!(p);
        let mut after = before;
        after[5] = first_channel(2, 0);
        assert_eq!(out, after);
    }
}
