//! What the scalar backend builds for Gen6 (Sandy Bridge) fragment shaders, and what it
//! refuses there.
//!
//! Gen6 runs the same program as Gen7 with four differences the backend handles: messages
//! leave from the message registers (a payload register's last writer writes its message
//! register directly where [`plan_mrfs`] finds that safe, and codegen copies the rest there
//! before the SEND),
//! MATH takes plain GRF regions without source modifiers (`lower::lower_math_gen6`),
//! sampler parameters sit in fixed slots (`from_nir::texture`), and IF/ELSE carry one jump
//! count, BREAK's second one pointing past the WHILE (`flow`, `codegen`).
//!
//! What is not built is refused here, by name, before lowering: the instructions Gen7 added
//! (bit-field operations, half-float conversion, carry and borrow, integer three-source
//! operations), messages other than the sampler and the render-target write (data-port
//! surface, scratch and fence messages are Gen7's), and dynamically uniform sampler-array
//! indices (their first-live-channel search uses f1, which Gen6 lacks). Register spilling is
//! not built either: a SIMD8 program that does not fit is refused by `backend::simd`.

use crate::intel::eu::types::sfid;
use crate::intel::eu::Opcode;

use super::ir::{File, Inst, Op, Program, REG_SIZE};
use crate::error::CompileError;

/// Refuses, naming it, the first instruction of `prog` (freshly translated) that the Gen6
/// path does not build.
pub fn check_program(prog: &Program) -> Result<(), CompileError> {
    match first_unbuilt(&prog.insts) {
        Some(why) => Err(CompileError::Unsupported(format!(
            "Gen6 fragment shader: {why}"
        ))),
        None => Ok(()),
    }
}

/// What the Gen6 path does not build among `insts`, in words, for the first one found.
pub fn first_unbuilt(insts: &[Inst]) -> Option<String> {
    insts.iter().find_map(|inst| match inst.op {
        Op::Alu(o) => o.missing_on_gen6(inst.dst.ty),
        Op::Send => Some(format!(
            "{} messages (only the sampler and render-target writes are built)",
            sfid_name(inst.sfid)
        )),
        Op::Uniformize | Op::Tex { indexed: true, .. } => {
            Some("a dynamically uniform sampler-array index".to_string())
        }
        _ => None,
    })
}

/// The shared function a message goes to, in words.
fn sfid_name(id: u8) -> &'static str {
    match id {
        sfid::SAMPLER => "sampler",
        sfid::GATEWAY => "message gateway",
        sfid::DATAPORT_READ => "sampler-cache data port",
        sfid::DATAPORT_WRITE => "render-cache data port",
        sfid::CONSTANT_CACHE => "constant cache",
        sfid::DATA_CACHE => "data cache",
        sfid::PIXEL_INTERPOLATOR => "pixel interpolator",
        _ => "other shared-function",
    }
}

/// The first message register of every Gen6 message.
pub const MESSAGE_MRF: u32 = 1;

/// Where a Gen6 program's messages are built, decided on the allocated program: which
/// instructions write their result straight into a message register rather than into the
/// GRF the allocator gave the payload (Mesa's `compute_to_mrf`), and, per SEND, which of its
/// payload registers are then already in place (bit k: register k of the message), so that
/// codegen copies only the others.
#[derive(Debug, Default)]
pub struct MrfPlan {
    /// Per IR instruction: the message register its destination moves to.
    pub dst_mrf: Vec<Option<u32>>,
    /// Per IR instruction (SENDs): the payload registers written in place.
    pub in_place: Vec<u32>,
}

/// The GRF ranges (first register, count) `inst` reads, over-estimated where a region says
/// more than its stride (PLN's delta pair, explicit regions).
fn reads(inst: &Inst) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (i, s) in inst.src.iter().enumerate() {
        if s.file != File::Fixed {
            continue;
        }
        let first = s.nr + s.offset / REG_SIZE;
        let mut n = s.regs_read(inst.exec_size as u32).max(1);
        if inst.op == Op::Send && i == 0 {
            n = n.max(inst.mlen as u32);
        }
        if inst.op == Op::Alu(Opcode::Pln) && i == 1 {
            n = n.max(2 * (inst.exec_size as u32).div_ceil(8));
        }
        if s.region.is_some() {
            n += 1;
        }
        out.push((first, n));
    }
    out
}

/// The GRFs `inst` writes (first register, count).
fn writes(inst: &Inst) -> Option<(u32, u32)> {
    (inst.dst.file == File::Fixed).then(|| {
        (
            inst.dst.nr + inst.dst.offset / REG_SIZE,
            inst.regs_written().max(1),
        )
    })
}

fn overlaps(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 < b.0 + b.1 && b.0 < a.0 + a.1
}

/// An instruction whose destination can be a message register: plain ALU operations
/// writing whole registers of dwords, every enabled channel (Gen6 MATH, three-source
/// operations and SENDs write GRFs only).
fn may_write_mrf(inst: &Inst) -> bool {
    let alu = matches!(
        inst.op,
        Op::Alu(
            Opcode::Mov
                | Opcode::Add
                | Opcode::Mul
                | Opcode::Sel
                | Opcode::Pln
                | Opcode::Frc
                | Opcode::Rndd
                | Opcode::Rnde
                | Opcode::Rndz
                | Opcode::And
                | Opcode::Or
                | Opcode::Xor
                | Opcode::Not
                | Opcode::Shl
                | Opcode::Shr
                | Opcode::Asr
        )
    );
    alu && inst.dst.file == File::Fixed
        && inst.dst.offset % REG_SIZE == 0
        && inst.dst.stride == 1
        && inst.dst.ty.size() == 4
        && inst.pred.is_none()
        && (inst.exec_size as u32 * 4) % REG_SIZE == 0
}

/// Plans the message registers of `prog` (allocated: every operand a fixed register). A
/// payload register's last writer goes to the message register directly when it writes the
/// whole register, in the SEND's own block (no flow instruction or other message between
/// them, so the same channels run both), nothing between reads or writes it, and nothing
/// after the SEND reads it; a SEND inside a loop is left alone (a later iteration could read
/// the register again).
pub fn plan_mrfs(prog: &Program) -> MrfPlan {
    let n = prog.insts.len();
    let mut plan = MrfPlan {
        dst_mrf: vec![None; n],
        in_place: vec![0; n],
    };
    let mut depth = 0u32;
    for s in 0..n {
        let send = &prog.insts[s];
        match send.op {
            Op::Do => depth += 1,
            Op::While => depth = depth.saturating_sub(1),
            _ => {}
        }
        if send.op != Op::Send || depth > 0 || send.src.len() != 1 {
            continue;
        }
        let p = send.src[0];
        if p.file != File::Fixed || p.offset % REG_SIZE != 0 {
            continue;
        }
        let payload = (p.nr, send.mlen as u32);
        let read_later: Vec<(u32, u32)> = prog.insts[s + 1..].iter().flat_map(reads).collect();
        // Registers read or written between the candidate and the SEND.
        let mut touched: Vec<(u32, u32)> = Vec::new();
        for w in (0..s).rev() {
            let inst = &prog.insts[w];
            if inst.op.is_flow() || inst.op.is_send() {
                break;
            }
            if let Some(d) = writes(inst) {
                let inside = d.0 >= payload.0 && d.0 + d.1 <= payload.0 + payload.1;
                if inside
                    && may_write_mrf(inst)
                    && !touched.iter().any(|t| overlaps(*t, d))
                    && !read_later.iter().any(|r| overlaps(*r, d))
                {
                    let k = d.0 - payload.0;
                    plan.dst_mrf[w] = Some(MESSAGE_MRF + k);
                    plan.in_place[s] |= ((1u32 << d.1) - 1) << k;
                }
                touched.push(d);
            }
            touched.extend(reads(inst));
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::types::sfid;
    use crate::intel::eu::RegType;

    fn mov(dst: u32, src: u32) -> Inst {
        Inst::new(
            Op::Alu(Opcode::Mov),
            8,
            Reg::fixed(dst, 0, RegType::F, 1),
            vec![Reg::fixed(src, 0, RegType::F, 1)],
        )
    }

    fn send(payload: u32, mlen: u8) -> Inst {
        let mut s = Inst::new(
            Op::Send,
            8,
            Reg::null(RegType::UW),
            vec![Reg::fixed(payload, 0, RegType::UD, 1)],
        );
        s.mlen = mlen;
        s.sfid = sfid::DATAPORT_WRITE;
        s
    }

    use super::super::ir::Reg;

    /// g10 and g11 are the payload: g10's writer goes to m1; g11's writer does not, as g11
    /// is read after the message.
    #[test]
    fn last_writers_go_to_the_message_registers_unless_read_later() {
        let prog = Program {
            insts: vec![mov(10, 2), mov(11, 3), send(10, 2), mov(4, 11)],
            vgrf_sizes: vec![],
            packed_dispatch: false,
        };
        let plan = plan_mrfs(&prog);
        assert_eq!(plan.dst_mrf, vec![Some(MESSAGE_MRF), None, None, None]);
        assert_eq!(plan.in_place[2], 0b01);
    }

    /// A writer read again before the message, one before an earlier message, and one
    /// before an IF stay in their GRFs.
    #[test]
    fn writers_read_in_between_or_behind_a_message_or_flow_stay() {
        let mut prog = Program {
            insts: vec![mov(10, 2), mov(5, 10), send(10, 1)],
            vgrf_sizes: vec![],
            packed_dispatch: false,
        };
        assert_eq!(plan_mrfs(&prog).dst_mrf, vec![None; 3]);
        prog.insts = vec![mov(10, 2), send(20, 1), send(10, 1)];
        assert_eq!(plan_mrfs(&prog).dst_mrf, vec![None; 3]);
        let mut endif = Inst::new(Op::EndIf, 8, Reg::BAD, vec![]);
        endif.exec_size = 8;
        prog.insts = vec![mov(10, 2), endif, send(10, 1)];
        assert_eq!(plan_mrfs(&prog).dst_mrf, vec![None; 3]);
    }

    /// A message inside a loop keeps its payload in GRFs: the next iteration may read them.
    #[test]
    fn messages_in_loops_are_left_alone() {
        let prog = Program {
            insts: vec![
                Inst::new(Op::Do, 8, Reg::BAD, vec![]),
                mov(10, 2),
                send(10, 1),
                Inst::new(Op::While, 8, Reg::BAD, vec![]),
            ],
            vgrf_sizes: vec![],
            packed_dispatch: false,
        };
        assert_eq!(plan_mrfs(&prog).dst_mrf, vec![None; 4]);
    }
}
