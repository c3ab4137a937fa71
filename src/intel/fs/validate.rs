//! Invariants of the scalar IR that every pass must keep, checked between passes by the
//! pipeline (debug builds, tests, `GPUCC_DEBUG=validate`).
//!
//! The checks are the ones a broken pass violates first and that later stages cannot detect
//! themselves: a VGRF operand outside its register (the allocator would place a neighbour
//! there), structured control flow that no longer nests (codegen would compute jump targets
//! into the wrong block), and execution sizes or sends the hardware cannot run. They look at
//! one instruction at a time plus a nesting stack, so they cost one walk of the program.

use crate::intel::flow::{FlowInst, Nesting};

use super::ir::{File, Inst, Op, Program, Reg, REG_SIZE};
use super::regalloc::regs_read;

/// Highest fixed GRF number plus one on every Gen7–Gen9 part.
const GRF_COUNT: u32 = 128;

/// Checks `prog`; the error names the first offending instruction and what is wrong.
pub fn validate(prog: &Program) -> Result<(), String> {
    let mut nesting = Nesting::default();
    for (ip, inst) in prog.insts.iter().enumerate() {
        let fail = |what: String| Err(format!("instruction {ip} ({inst}): {what}"));
        if !matches!(inst.exec_size, 1 | 2 | 4 | 8 | 16 | 32) {
            return fail(format!("execution size {}", inst.exec_size));
        }
        if let Some(what) = check_dst(prog, inst) {
            return fail(what);
        }
        for (i, s) in inst.src.iter().enumerate() {
            // A header source (of LOAD_PAYLOAD or a logical texture message) is one
            // physical register whatever the width (shared/seeds/000).
            let regs = if i < inst.header_size as usize {
                1
            } else {
                regs_read(inst, i)
            };
            if let Some(what) = check_operand(prog, s, regs) {
                return fail(format!("source {i}: {what}"));
            }
        }
        if inst.op == Op::Send && (inst.src.is_empty() || inst.mlen == 0) {
            return fail("a send without a payload".into());
        }
        if inst.op == Op::MulHigh {
            if let Some(what) = check_mul_high(inst) {
                return fail(what);
            }
        }
        if let Err(what) = nesting.step(inst.flow()) {
            return fail(what.into());
        }
    }
    nesting.finish()
}

/// What codegen's MUL/MACH pair needs of a MULH: two D or UD sources of the destination's
/// type, a register first, no source modifier (the MUL rereads the second source as words),
/// no saturate or condition.
fn check_mul_high(inst: &Inst) -> Option<String> {
    use crate::intel::eu::{CondMod, RegType};
    let ty = inst.dst.ty;
    let ok = matches!(ty, RegType::D | RegType::UD)
        && inst.src.len() == 2
        && inst.src.iter().all(|s| s.ty == ty && !s.neg && !s.abs)
        && inst.src[0].file != File::Imm
        && !inst.sat
        && inst.cmod == CondMod::None;
    (!ok).then(|| "a MULH other than D or UD registers (an immediate second source)".into())
}

fn check_dst(prog: &Program, inst: &Inst) -> Option<String> {
    let regs = inst.regs_written();
    check_operand(prog, &inst.dst, regs).map(|what| format!("destination: {what}"))
}

/// Whether `regs` registers of `r` from its offset lie inside its file (and, for a VGRF,
/// inside that VGRF).
fn check_operand(prog: &Program, r: &Reg, regs: u32) -> Option<String> {
    let first = r.offset / REG_SIZE;
    match r.file {
        File::Vgrf => match prog.vgrf_sizes.get(r.nr as usize) {
            None => Some(format!(
                "vgrf{} does not exist ({} VGRFs)",
                r.nr,
                prog.vgrf_sizes.len()
            )),
            Some(&size) if first + regs > size => Some(format!(
                "registers {first}..{} of vgrf{}, which has {size}",
                first + regs,
                r.nr
            )),
            Some(_) => None,
        },
        File::Fixed if r.nr + first + regs > GRF_COUNT => Some(format!(
            "g{} and {regs} registers from byte {} run past g{}",
            r.nr,
            r.offset,
            GRF_COUNT - 1
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{Opcode, RegType};

    fn mov(dst: Reg, src: Reg) -> Inst {
        Inst::new(Op::Alu(Opcode::Mov), 8, dst, vec![src])
    }

    fn flow(op: Op) -> Inst {
        Inst::new(op, 8, Reg::BAD, vec![])
    }

    fn program(vgrfs: &[u32], insts: Vec<Inst>) -> Program {
        Program {
            insts,
            vgrf_sizes: vgrfs.to_vec(),
            ..Default::default()
        }
    }

    #[test]
    fn a_mulh_takes_plain_d_or_ud_registers_and_a_second_immediate() {
        let ud = |n| Reg::vgrf(n, RegType::UD);
        let mulh = |a: Reg, b: Reg| Inst::new(Op::MulHigh, 8, a.retype(b.ty), vec![a, b]);
        let ok = [
            mulh(ud(0), ud(1)),
            mulh(ud(0), Reg::imm(RegType::UD, 0xcccc_cccd)),
            mulh(ud(0).retype(RegType::D), ud(1).retype(RegType::D)),
        ];
        for inst in ok {
            assert!(validate(&program(&[1, 1], vec![inst])).is_ok());
        }
        let bad = [
            mulh(Reg::imm(RegType::UD, 5), ud(1)),
            mulh(ud(0), ud(1).negate()),
            mulh(ud(0).retype(RegType::F), ud(1).retype(RegType::F)),
            Inst::new(Op::MulHigh, 8, ud(0), vec![ud(0), ud(1).retype(RegType::D)]),
        ];
        for inst in bad {
            let err = validate(&program(&[1, 1], vec![inst])).unwrap_err();
            assert!(err.contains("MULH"), "{err}");
        }
    }

    #[test]
    fn a_simd16_float_write_needs_two_registers() {
        let mut wide = mov(Reg::vgrf(0, RegType::F), Reg::imm_f(1.0));
        wide.exec_size = 16;
        assert!(validate(&program(&[2], vec![wide.clone()])).is_ok());
        let err = validate(&program(&[1], vec![wide])).unwrap_err();
        assert!(
            err.contains("registers 0..2 of vgrf0, which has 1"),
            "{err}"
        );
    }

    #[test]
    fn an_operand_past_its_vgrf_or_naming_none_is_rejected() {
        let past = mov(
            Reg::vgrf(0, RegType::F),
            Reg::vgrf(1, RegType::F).reg_offset(1),
        );
        let err = validate(&program(&[1, 1], vec![past])).unwrap_err();
        assert!(
            err.starts_with("instruction 0") && err.contains("source 0"),
            "{err}"
        );
        let missing = mov(Reg::vgrf(5, RegType::F), Reg::imm_f(0.0));
        let err = validate(&program(&[1], vec![missing])).unwrap_err();
        assert!(err.contains("vgrf5 does not exist"), "{err}");
        let high = mov(Reg::fixed(127, 4, RegType::F, 1), Reg::imm_f(0.0));
        assert!(validate(&program(&[], vec![high])).is_err());
    }

    /// The header of a SIMD16 LOAD_PAYLOAD is one register; its other sources are two.
    #[test]
    fn a_load_payload_header_is_one_register_at_any_width() {
        let mut lp = Inst::new(
            Op::LoadPayload,
            16,
            Reg::vgrf(0, RegType::UD),
            vec![Reg::vgrf(1, RegType::UD), Reg::vgrf(2, RegType::UD)],
        );
        lp.header_size = 1;
        assert_eq!(validate(&program(&[3, 1, 2], vec![lp.clone()])), Ok(()));
        let err = validate(&program(&[3, 1, 1], vec![lp])).unwrap_err();
        assert!(
            err.contains("source 1: registers 0..2 of vgrf2, which has 1"),
            "{err}"
        );
    }

    #[test]
    fn control_flow_must_nest() {
        let ok = vec![
            flow(Op::Do),
            flow(Op::If),
            flow(Op::Break),
            flow(Op::Else),
            flow(Op::EndIf),
            flow(Op::While),
        ];
        assert!(validate(&program(&[], ok)).is_ok());
        let crossed = vec![flow(Op::Do), flow(Op::If), flow(Op::While), flow(Op::EndIf)];
        assert!(validate(&program(&[], crossed))
            .unwrap_err()
            .contains("WHILE without its DO"));
        let two_elses = vec![
            flow(Op::If),
            flow(Op::Else),
            flow(Op::Else),
            flow(Op::EndIf),
        ];
        assert!(validate(&program(&[], two_elses))
            .unwrap_err()
            .contains("second ELSE"));
        let stray_break = vec![flow(Op::If), flow(Op::Break), flow(Op::EndIf)];
        assert!(validate(&program(&[], stray_break))
            .unwrap_err()
            .contains("outside a loop"));
        let open = vec![flow(Op::Do)];
        assert!(validate(&program(&[], open))
            .unwrap_err()
            .contains("never closed"));
    }

    #[test]
    fn odd_execution_sizes_are_rejected() {
        let mut m = mov(Reg::vgrf(0, RegType::F), Reg::imm_f(0.0));
        m.exec_size = 12;
        assert!(validate(&program(&[2], vec![m]))
            .unwrap_err()
            .contains("execution size 12"));
    }
}
