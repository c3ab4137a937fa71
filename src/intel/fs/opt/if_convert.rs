//! If-conversion of short arithmetic arms: an IF (and ELSE) whose arms hold only a few plain
//! ALU instructions becomes those instructions predicated on the IF's flag, and the IF, ELSE
//! and ENDIF go.
//!
//! ```text
//! (+f0) if                           (+f0) add v3, v1, v2
//!       add v3, v1, v2       =>      (-f0) mul v3, v1, v4
//! else
//!       mul v3, v1, v4
//! endif
//! ```
//!
//! An IF only masks channels: an instruction in the THEN arm writes the channels whose flag
//! bit passes, one in the ELSE arm the others, and a predicate on the instruction selects the
//! same channels as long as the flag does not change in between, so the arms may not write
//! any flag (no conditional modifiers, no CMP) or be predicated already, and hold no sends,
//! math, jumps or write-mask-all instructions. A register written and read only inside one
//! arm, whose first access there overwrites it completely, is a temporary: its value in the
//! other channels is never read, so its instructions run unpredicated (which keeps it a full
//! definition for liveness, rather than a partial one live from the program's start). Mesa's
//! `opt_peephole_sel` does the MOV-only form of this; arms are limited to [`MAX_ARM`]
//! instructions in all, because the converted code runs both arms whatever the flag says.

use crate::intel::eu::{CondMod, Opcode};

use crate::intel::fs::ir::{File, Inst, Op, Program, REG_SIZE};

/// The most instructions, both arms together, that a converted IF may hold.
pub const MAX_ARM: usize = 16;

/// Whether `inst` may stand in a converted arm.
fn convertible(inst: &Inst, iff: &Inst) -> bool {
    let Op::Alu(op) = inst.op else {
        return false;
    };
    let channels_inside = inst.group >= iff.group
        && inst.group + inst.exec_size <= iff.group + iff.exec_size
        && inst.exec_size <= iff.exec_size;
    !matches!(op, Opcode::Cmp | Opcode::Cmpn)
        && inst.pred.is_none()
        && inst.cmod == CondMod::None
        && !inst.we_all
        && inst.dst.file == File::Vgrf
        && channels_inside
}

/// Reads and writes of each VGRF in `insts`.
fn accesses(insts: &[Inst], n: usize) -> Vec<u32> {
    let mut count = vec![0u32; n];
    for inst in insts {
        for r in inst.src.iter().chain(std::iter::once(&inst.dst)) {
            if r.file == File::Vgrf {
                if let Some(c) = count.get_mut(r.nr as usize) {
                    *c += 1;
                }
            }
        }
    }
    count
}

/// Whether `inst` overwrites all of VGRF `inst.dst.nr` (of `size` registers).
fn writes_whole(inst: &Inst, size: u32) -> bool {
    let d = &inst.dst;
    d.offset == 0
        && d.stride == 1
        && d.region.is_none()
        && inst.regs_written() == size
        && inst.exec_size as u32 * d.ty.size() >= size * REG_SIZE
}

/// Predicates the arm `arm` (positions in `prog.insts`) with `pred` on `flag`, leaving the
/// temporaries of the arm unpredicated.
fn predicate_arm(
    prog: &mut Program,
    arm: std::ops::Range<usize>,
    pred: bool,
    flag: u8,
    all: &[u32],
) {
    let local = accesses(&prog.insts[arm.clone()], prog.vgrf_sizes.len());
    let mut seen = vec![false; prog.vgrf_sizes.len()];
    let mut temp = vec![false; prog.vgrf_sizes.len()];
    for ip in arm.clone() {
        let inst = &prog.insts[ip];
        for s in &inst.src {
            if s.file == File::Vgrf {
                seen[s.nr as usize] = true;
            }
        }
        let d = inst.dst.nr as usize;
        if !seen[d] {
            seen[d] = true;
            temp[d] = local[d] == all[d] && writes_whole(inst, prog.vgrf_sizes[d]);
        }
    }
    for ip in arm {
        let inst = &mut prog.insts[ip];
        if !temp[inst.dst.nr as usize] {
            inst.pred = Some(pred);
            inst.flag_subnr = flag;
        }
    }
}

/// Converts short IF/ELSE/ENDIF arms as described in the module documentation; returns
/// whether any IF went.
pub fn if_convert(prog: &mut Program) -> bool {
    let mut all: Option<Vec<u32>> = None;
    let mut progress = false;
    let mut ip = 0;
    while ip < prog.insts.len() {
        let iff = &prog.insts[ip];
        if iff.op != Op::If || iff.pred.is_none() {
            ip += 1;
            continue;
        }
        // The arms: up to ELSE (if any) and ENDIF, with no other control flow inside.
        let mut else_at = None;
        let mut end = None;
        for (k, inst) in prog.insts[ip + 1..].iter().enumerate().take(MAX_ARM + 2) {
            let at = ip + 1 + k;
            match inst.op {
                Op::Else if else_at.is_none() => else_at = Some(at),
                Op::EndIf => {
                    end = Some(at);
                    break;
                }
                _ if inst.op.is_flow() || !convertible(inst, iff) => break,
                _ => {}
            }
        }
        let Some(end) = end else {
            ip += 1;
            continue;
        };
        let body = end - ip - 1 - else_at.is_some() as usize;
        if body > MAX_ARM {
            ip += 1;
            continue;
        }
        let (inv, flag) = (iff.pred.unwrap_or(false), iff.flag_subnr);
        let all = all.get_or_insert_with(|| accesses(&prog.insts, prog.vgrf_sizes.len()));
        let then_end = else_at.unwrap_or(end);
        predicate_arm(prog, ip + 1..then_end, inv, flag, all);
        if let Some(e) = else_at {
            predicate_arm(prog, e + 1..end, !inv, flag, all);
            prog.insts.remove(end);
            prog.insts.remove(e);
        } else {
            prog.insts.remove(end);
        }
        prog.insts.remove(ip);
        progress = true;
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, alu, f, flow};
    use super::*;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(if_convert, insts)
    }

    fn unchanged(insts: Vec<Inst>) {
        testing::unchanged(if_convert, insts)
    }

    fn pred(mut i: Inst, inv: bool, flag: u8) -> Inst {
        i.pred = Some(inv);
        i.flag_subnr = flag;
        i
    }

    fn add(d: u32, a: u32, b: u32) -> Inst {
        alu(Opcode::Add, f(d), vec![f(a), f(b)])
    }

    fn mul(d: u32, a: u32, b: u32) -> Inst {
        alu(Opcode::Mul, f(d), vec![f(a), f(b)])
    }

    fn read(d: u32) -> Inst {
        alu(Opcode::Mov, f(15), vec![f(d)])
    }

    #[test]
    fn both_arms_become_predicated_on_the_if_flag() {
        let (p, out) = run(vec![
            pred(flow(Op::If), false, 1),
            add(3, 1, 2),
            flow(Op::Else),
            mul(3, 1, 4),
            flow(Op::EndIf),
            read(3),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![
                pred(add(3, 1, 2), false, 1),
                pred(mul(3, 1, 4), true, 1),
                read(3)
            ]
        );
    }

    #[test]
    fn an_inverted_if_without_else_predicates_inverted() {
        let (p, out) = run(vec![
            pred(flow(Op::If), true, 0),
            add(3, 1, 2),
            flow(Op::EndIf),
            read(3),
        ]);
        assert!(p);
        assert_eq!(out, vec![pred(add(3, 1, 2), true, 0), read(3)]);
    }

    #[test]
    fn temporaries_of_an_arm_stay_unpredicated() {
        // v5 is written first and read only inside the THEN arm.
        let (p, out) = run(vec![
            pred(flow(Op::If), false, 0),
            mul(5, 1, 2),
            add(3, 5, 2),
            flow(Op::EndIf),
            read(3),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![mul(5, 1, 2), pred(add(3, 5, 2), false, 0), read(3)]
        );
    }

    #[test]
    fn flag_writes_predicates_and_write_mask_all_keep_the_if() {
        let mut cmod = add(3, 1, 2);
        cmod.cmod = CondMod::Nz;
        let mut we_all = add(3, 1, 2);
        we_all.we_all = true;
        for inner in [
            cmod,
            pred(add(3, 1, 2), false, 0),
            we_all,
            alu(Opcode::Cmp, f(3), vec![f(1), f(2)]),
        ] {
            unchanged(vec![
                pred(flow(Op::If), false, 0),
                inner,
                flow(Op::EndIf),
                read(3),
            ]);
        }
        // Nested: the inner IF goes, the outer one (now holding a predicated instruction)
        // stays.
        let (p, out) = run(vec![
            pred(flow(Op::If), false, 0),
            pred(flow(Op::If), false, 1),
            add(3, 1, 2),
            flow(Op::EndIf),
            flow(Op::EndIf),
            read(3),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![
                pred(flow(Op::If), false, 0),
                pred(add(3, 1, 2), false, 1),
                flow(Op::EndIf),
                read(3)
            ]
        );
    }

    #[test]
    fn long_arms_keep_the_if() {
        let mut insts = vec![pred(flow(Op::If), false, 0)];
        insts.extend((0..MAX_ARM as u32 + 1).map(|_| add(3, 1, 2)));
        insts.push(flow(Op::EndIf));
        insts.push(read(3));
        unchanged(insts);
    }
}
