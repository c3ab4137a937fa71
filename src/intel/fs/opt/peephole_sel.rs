//! Peephole select: an IF/ELSE whose arms begin by moving into the same registers becomes
//! SELs before the IF, predicated like it, and arms left empty go (Mesa's
//! `opt_peephole_sel` and the empty-block part of `opt_dead_control_flow_eliminate`).
//!
//! ```text
//! (+f0) if                         (+f0) sel a, x, y
//!       mov a, x                   (+f0) sel b, u, v
//!       mov b, u          =>       (+f0) if
//! else                                   ...rest of then
//!       mov a, y                   else
//!       mov b, v                         ...rest of else
//!       ...rest of else            endif
//! endif
//! ```
//!
//! Every channel enabled at the IF runs exactly one of the two moves, and a predicated SEL
//! writes each of them the source its flag bit picks, so the SEL computes what the moves did.
//! The moves read nothing the arms compute (they come first), and pairs are taken in order, so
//! a later move reading an earlier pair's destination sees the selected value, as it saw the
//! value its own arm wrote.

use crate::intel::eu::{CondMod, Opcode};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg};

/// Pairs of moves matched per IF (Mesa's limit).
const MAX_MOVS: usize = 8;

/// An IF with its ELSE (if any) and ENDIF, as instruction indices.
#[derive(Debug, Clone, Copy)]
struct IfElse {
    if_: usize,
    else_: Option<usize>,
    endif: usize,
}

/// Every IF construct, innermost first within each nest; `None` when flow does not nest.
fn if_constructs(insts: &[Inst]) -> Option<Vec<IfElse>> {
    let mut open: Vec<(usize, Option<usize>)> = Vec::new();
    let mut loops = 0usize;
    let mut out = Vec::new();
    for (ip, inst) in insts.iter().enumerate() {
        match inst.op {
            Op::If => open.push((ip, None)),
            Op::Else => {
                let top = open.last_mut()?;
                if top.1.is_some() {
                    return None;
                }
                top.1 = Some(ip);
            }
            Op::EndIf => {
                let (if_, else_) = open.pop()?;
                out.push(IfElse {
                    if_,
                    else_,
                    endif: ip,
                });
            }
            Op::Do => loops += 1,
            Op::While => loops = loops.checked_sub(1)?,
            _ => {}
        }
    }
    (open.is_empty() && loops == 0).then_some(out)
}

/// A MOV that may become half of a SEL: it writes its whole destination for every channel
/// and touches no flag.
fn selectable_mov(inst: &Inst) -> bool {
    inst.op == Op::Alu(Opcode::Mov)
        && inst.src.len() == 1
        && inst.cmod == CondMod::None
        && inst.is_full_write()
        && matches!(inst.dst.file, File::Vgrf)
        && inst.src[0].region.is_none()
}

/// Whether two moves write the same destination the same way from sources of one type.
fn pairs(a: &Inst, b: &Inst) -> bool {
    a.dst == b.dst
        && a.exec_size == b.exec_size
        && a.group == b.group
        && a.we_all == b.we_all
        && a.sat == b.sat
        && a.src[0].ty == b.src[0].ty
}

/// Turns leading move pairs of IF/ELSE arms into SELs and removes empty arms; returns whether
/// anything changed.
pub fn peephole_select(prog: &mut Program) -> bool {
    let selected = select_leading_moves(prog);
    let cleaned = remove_empty_arms(prog);
    selected || cleaned
}

fn select_leading_moves(prog: &mut Program) -> bool {
    let Some(constructs) = if_constructs(&prog.insts) else {
        return false;
    };
    let n = prog.insts.len();
    let mut remove = vec![false; n];
    let mut before: Vec<Vec<Inst>> = vec![Vec::new(); n];
    let mut progress = false;
    for c in constructs {
        let Some(else_) = c.else_ else {
            continue;
        };
        let iff = &prog.insts[c.if_];
        let Some(inv) = iff.pred else {
            continue;
        };
        let flag = iff.flag_subnr;
        let then_arm = c.if_ + 1..else_;
        let else_arm = else_ + 1..c.endif;
        let count = then_arm
            .clone()
            .zip(else_arm.clone())
            .take(MAX_MOVS)
            .take_while(|&(t, e)| {
                let (t, e) = (&prog.insts[t], &prog.insts[e]);
                selectable_mov(t) && selectable_mov(e) && pairs(t, e)
            })
            .count();
        for k in 0..count {
            let (t, e) = (c.if_ + 1 + k, else_ + 1 + k);
            let (tm, em) = (prog.insts[t].clone(), prog.insts[e].clone());
            let mut emitted = Vec::new();
            if tm.src[0] == em.src[0] {
                emitted.push(tm.clone());
            } else {
                // Only the second source may be an immediate: swap the sources and invert the
                // predicate when the then-value is one, or load it when both are.
                let (mut first, second, pred) = if tm.src[0].file == File::Imm {
                    if em.src[0].file == File::Imm {
                        (tm.src[0], em.src[0], inv)
                    } else {
                        (em.src[0], tm.src[0], !inv)
                    }
                } else {
                    (tm.src[0], em.src[0], inv)
                };
                if first.file == File::Imm {
                    let tmp = prog.alloc(tm.regs_written());
                    let reg = Reg::vgrf(tmp, first.ty);
                    let mut load = Inst::new(Op::Alu(Opcode::Mov), tm.exec_size, reg, vec![first]);
                    load.group = tm.group;
                    load.we_all = tm.we_all;
                    emitted.push(load);
                    first = reg;
                }
                let mut sel = Inst::new(
                    Op::Alu(Opcode::Sel),
                    tm.exec_size,
                    tm.dst,
                    vec![first, second],
                );
                sel.group = tm.group;
                sel.we_all = tm.we_all;
                sel.sat = tm.sat;
                sel.pred = Some(pred);
                sel.flag_subnr = flag;
                emitted.push(sel);
            }
            before[c.if_].extend(emitted);
            remove[t] = true;
            remove[e] = true;
            progress = true;
        }
    }
    if progress {
        let old = std::mem::take(&mut prog.insts);
        for (ip, (inst, pre)) in old.into_iter().zip(before).enumerate() {
            prog.insts.extend(pre);
            if !remove[ip] {
                prog.insts.push(inst);
            }
        }
    }
    progress
}

/// Removes IF/ELSE/ENDIF around arms with nothing in them: both empty, the whole construct
/// goes; an empty else-arm loses its ELSE; an empty then-arm with an else-arm becomes an IF
/// of the inverted condition around the else-arm.
fn remove_empty_arms(prog: &mut Program) -> bool {
    let Some(constructs) = if_constructs(&prog.insts) else {
        return false;
    };
    let mut remove = vec![false; prog.insts.len()];
    let mut progress = false;
    for c in constructs {
        let then_end = c.else_.unwrap_or(c.endif);
        let then_empty = then_end == c.if_ + 1;
        let else_empty = match c.else_ {
            Some(e) => e + 1 == c.endif,
            None => true,
        };
        // An inner construct removed this round leaves its arm looking non-empty until the
        // next round; that is only a missed step, never a wrong one.
        match (then_empty, else_empty, c.else_) {
            (true, true, _) => {
                remove[c.if_] = true;
                remove[c.endif] = true;
                if let Some(e) = c.else_ {
                    remove[e] = true;
                }
            }
            (false, true, Some(e)) => remove[e] = true,
            (true, false, Some(e)) => {
                let Some(inv) = prog.insts[c.if_].pred else {
                    continue;
                };
                prog.insts[c.if_].pred = Some(!inv);
                remove[e] = true;
            }
            _ => continue,
        }
        progress = true;
    }
    if progress {
        let mut ip = 0;
        prog.insts.retain(|_| {
            ip += 1;
            !remove[ip - 1]
        });
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::super::testing::{f, flow, mov};
    use super::*;
    use crate::intel::eu::RegType;

    fn add(dst: Reg, a: Reg, b: Reg) -> Inst {
        Inst::new(Op::Alu(Opcode::Add), 8, dst, vec![a, b])
    }

    fn iff(inv: bool) -> Inst {
        let mut i = flow(Op::If);
        i.pred = Some(inv);
        i
    }

    fn sel(dst: Reg, a: Reg, b: Reg, inv: bool) -> Inst {
        let mut s = Inst::new(Op::Alu(Opcode::Sel), 8, dst, vec![a, b]);
        s.pred = Some(inv);
        s
    }

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        let mut p = Program {
            insts,
            vgrf_sizes: vec![1; 10],
            ..Default::default()
        };
        let progress = peephole_select(&mut p);
        (progress, p.insts)
    }

    #[test]
    fn arms_of_moves_become_sels_and_the_if_goes() {
        let (p, out) = run(vec![
            iff(false),
            mov(f(0), f(1)),
            mov(f(2), f(3)),
            flow(Op::Else),
            mov(f(0), f(4)),
            mov(f(2), f(5)),
            flow(Op::EndIf),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![sel(f(0), f(1), f(4), false), sel(f(2), f(3), f(5), false)]
        );
    }

    #[test]
    fn remaining_instructions_keep_their_arms() {
        let (p, out) = run(vec![
            iff(true),
            mov(f(0), f(1)),
            add(f(6), f(0), f(1)),
            flow(Op::Else),
            mov(f(0), f(4)),
            flow(Op::EndIf),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![
                sel(f(0), f(1), f(4), true),
                iff(true),
                add(f(6), f(0), f(1)),
                flow(Op::EndIf),
            ]
        );
    }

    #[test]
    fn immediate_then_value_swaps_sources_and_inverts() {
        let (_, out) = run(vec![
            iff(false),
            mov(f(0), Reg::imm_f(1.0)),
            flow(Op::Else),
            mov(f(0), f(4)),
            flow(Op::EndIf),
        ]);
        assert_eq!(out, vec![sel(f(0), f(4), Reg::imm_f(1.0), true)]);
    }

    #[test]
    fn two_immediates_load_the_first() {
        let (_, out) = run(vec![
            iff(false),
            mov(f(0), Reg::imm_f(1.0)),
            flow(Op::Else),
            mov(f(0), Reg::imm_f(-1.0)),
            flow(Op::EndIf),
        ]);
        assert_eq!(
            out,
            vec![
                mov(f(10), Reg::imm_f(1.0)),
                sel(f(0), f(10), Reg::imm_f(-1.0), false)
            ]
        );
    }

    #[test]
    fn equal_sources_are_one_move() {
        let (_, out) = run(vec![
            iff(false),
            mov(f(0), f(1)),
            flow(Op::Else),
            mov(f(0), f(1)),
            flow(Op::EndIf),
        ]);
        assert_eq!(out, vec![mov(f(0), f(1))]);
    }

    #[test]
    fn mismatched_predicated_or_flag_writing_moves_stay() {
        let mut pred = mov(f(0), f(1));
        pred.pred = Some(false);
        let mut cmod = mov(f(0), f(1));
        cmod.cmod = CondMod::Nz;
        let typed = mov(f(0), Reg::vgrf(4, RegType::D));
        for then_mov in [mov(f(2), f(1)), pred, cmod, typed] {
            let insts = vec![
                iff(false),
                then_mov,
                flow(Op::Else),
                mov(f(0), f(4)),
                flow(Op::EndIf),
            ];
            let (p, out) = run(insts.clone());
            assert!(!p, "{}", insts[1]);
            assert_eq!(out, insts);
        }
    }

    #[test]
    fn if_without_else_is_not_a_select() {
        let insts = vec![iff(false), mov(f(0), f(1)), flow(Op::EndIf)];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
    }

    #[test]
    fn empty_then_arm_inverts_the_if() {
        let (p, out) = run(vec![
            iff(false),
            flow(Op::Else),
            add(f(6), f(0), f(1)),
            flow(Op::EndIf),
        ]);
        assert!(p);
        assert_eq!(out, vec![iff(true), add(f(6), f(0), f(1)), flow(Op::EndIf)]);
    }

    #[test]
    fn empty_else_arm_loses_its_else() {
        let (p, out) = run(vec![
            iff(false),
            add(f(6), f(0), f(1)),
            flow(Op::Else),
            flow(Op::EndIf),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![iff(false), add(f(6), f(0), f(1)), flow(Op::EndIf)]
        );
    }

    #[test]
    fn nested_empty_ifs_go_over_rounds() {
        let mut p = Program {
            insts: vec![iff(false), iff(true), flow(Op::EndIf), flow(Op::EndIf)],
            vgrf_sizes: vec![1; 2],
            ..Default::default()
        };
        assert!(peephole_select(&mut p));
        assert_eq!(p.insts, vec![iff(false), flow(Op::EndIf)]);
        assert!(peephole_select(&mut p));
        assert!(p.insts.is_empty());
        assert!(!peephole_select(&mut p));
    }

    #[test]
    fn loops_are_left_alone() {
        let insts = vec![
            flow(Op::Do),
            iff(false),
            Inst::new(Op::Break, 8, Reg::BAD, vec![]),
            flow(Op::EndIf),
            flow(Op::While),
        ];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
    }
}
