//! Flag-register clean-ups: conditional-modifier propagation (Mesa's
//! `opt_cmod_propagation`) and repeated compares.
//!
//! NIR booleans become a value and then a `mov.nz null, value` to set the flag an `if` or a
//! predicated `sel` reads. When the instruction that computed the value can set the flag
//! itself, the `mov` goes; when a compare only repeats the last flag write (the same
//! operation on unchanged sources), it goes too.
//!
//! The flag is per channel in align16. Both rewrites leave the flag unchanged in the
//! channels that are read before the next full flag write ([`channels_read_after`]), and
//! only there; an `if` reads channel x of each vertex. A folded `cmp` must in addition find
//! every channel it writes in the writer's own channel, read or not, as Mesa requires.

use crate::intel::eu::{CondMod, Opcode, RegType};

use super::super::ir::{swz_get, File, Inst, Op, Program};

/// The flag channels (bit 0 = x) read after `ip` before a full, unconditional flag write
/// overwrites them; `None` when the flag may flow somewhere this cannot follow (out of the
/// enclosing block structure, through a break or continue).
fn channels_read_after(prog: &Program, ip: usize) -> Option<u8> {
    let mut need = 0u8;
    let mut depth = 0u32;
    for inst in &prog.insts[ip + 1..] {
        if inst.pred.is_some() {
            need |= match inst.op {
                Op::If if inst.pred_ctrl == 1 => 0x1,
                _ if inst.op.is_flow() || inst.pred_ctrl != 1 => 0xf,
                _ => inst.dst.writemask,
            };
        }
        match inst.op {
            Op::If | Op::Do => depth += 1,
            Op::Else if depth == 0 => return None,
            Op::EndIf | Op::While => depth = depth.checked_sub(1)?,
            Op::Break | Op::Continue => return None,
            _ => {}
        }
        if inst.cmod != CondMod::None
            && inst.pred.is_none()
            && depth == 0
            && inst.dst.writemask == 0xf
        {
            return Some(need);
        }
    }
    Some(need)
}

/// Whether a flag test of a value of type `a` means the same on a value of type `b`.
fn same_test(cmod: CondMod, a: RegType, b: RegType) -> bool {
    a == b
        || (matches!(cmod, CondMod::Z | CondMod::Nz)
            && matches!(a, RegType::D | RegType::UD)
            && matches!(b, RegType::D | RegType::UD))
}

/// The conditional modifier `inst` tests its first source with, when it only sets the flag
/// from that register compared with zero: `mov.cmod null, r` or `cmp.cmod null, r, 0` (an
/// integer zero, or the float +0.0, of the register's type).
fn flag_test(inst: &Inst) -> Option<CondMod> {
    if inst.dst.file != File::Null || inst.pred.is_some() || inst.sat {
        return None;
    }
    let s = inst.src.first()?;
    if s.file != File::Vgrf || s.negate || s.abs {
        return None;
    }
    match inst.op {
        Op::Alu(Opcode::Mov)
            if matches!(
                inst.cmod,
                CondMod::Z | CondMod::Nz | CondMod::G | CondMod::Ge | CondMod::L | CondMod::Le
            ) =>
        {
            Some(inst.cmod)
        }
        Op::Alu(Opcode::Cmp)
            if matches!(
                inst.cmod,
                CondMod::Z | CondMod::Nz | CondMod::G | CondMod::Ge | CondMod::L | CondMod::Le
            ) && matches!(s.ty, RegType::D | RegType::UD | RegType::F)
                && inst.src[1].file == File::Imm
                && inst.src[1].imm == 0
                && inst.src[1].ty == s.ty =>
        {
            Some(inst.cmod)
        }
        _ => None,
    }
}

/// Whether `op` can take a conditional modifier in place of a separate test of its result.
fn takes_cmod(op: Op) -> bool {
    matches!(
        op,
        Op::Alu(
            Opcode::Mov
                | Opcode::Add
                | Opcode::Mul
                | Opcode::And
                | Opcode::Or
                | Opcode::Xor
                | Opcode::Not
                | Opcode::Shl
                | Opcode::Shr
                | Opcode::Asr
                | Opcode::Frc
                | Opcode::Rndd
                | Opcode::Rnde
                | Opcode::Rndz
                | Opcode::Dp2
                | Opcode::Dp3
                | Opcode::Dp4
                | Opcode::Dph
        )
    )
}

/// Moves flag tests into the instruction computing the tested value, or drops them when that
/// instruction already set the same flag; true on progress.
pub fn cmod_propagation(prog: &mut Program) -> bool {
    let mut remove = vec![false; prog.insts.len()];
    let mut progress = false;
    for ip in 0..prog.insts.len() {
        let Some(cmod) = flag_test(&prog.insts[ip]) else {
            continue;
        };
        let src = prog.insts[ip].src[0];
        // The instruction writing the tested register, with nothing in between that reads or
        // writes the flag or leaves the block.
        let mut writer = None;
        for j in (0..ip).rev() {
            let p = &prog.insts[j];
            if remove[j] {
                continue;
            }
            if p.dst.file == File::Vgrf && p.dst.nr == src.nr {
                writer = Some(j);
                break;
            }
            if p.op.is_flow() || p.pred.is_some() || p.cmod != CondMod::None {
                break;
            }
        }
        let Some(j) = writer else { continue };
        let Some(read) = channels_read_after(prog, ip) else {
            continue;
        };
        // A compare's flag channels must all come from the writer's own channels, read or
        // not, as Mesa requires of a compare it folds (`writemasks_incompatible`): a writer
        // with a narrower mask would leave the others as they were.
        let test = &prog.insts[ip];
        let need = match test.op {
            Op::Alu(Opcode::Cmp) => read | (test.dst.writemask & 0xf),
            _ => read,
        };
        let p = &prog.insts[j];
        let lines_up = (0..4u8).all(|c| {
            need >> c & 1 == 0 || (p.dst.writemask >> c & 1 != 0 && swz_get(src.swizzle, c) == c)
        });
        if !lines_up || p.pred.is_some() || p.sat {
            continue;
        }
        let already = cmod == CondMod::Nz
            && ((p.op == Op::Alu(Opcode::Cmp)
                && matches!(p.dst.ty, RegType::D | RegType::UD)
                && matches!(src.ty, RegType::D | RegType::UD))
                || (p.cmod == CondMod::Nz && same_test(cmod, p.dst.ty, src.ty)));
        if already {
            remove[ip] = true;
            progress = true;
        } else if p.cmod == CondMod::None && takes_cmod(p.op) && same_test(cmod, p.dst.ty, src.ty) {
            prog.insts[j].cmod = cmod;
            remove[ip] = true;
            progress = true;
        }
    }
    // A flag-only instruction that repeats the last flag write, whose sources nothing wrote
    // since, leaves the flag as it was.
    let mut last: Option<usize> = None;
    for (ip, inst) in prog.insts.iter().enumerate() {
        if remove[ip] {
            continue;
        }
        if inst.op.is_flow() {
            last = None;
            continue;
        }
        if inst.cmod != CondMod::None {
            if let Some(l) = last {
                let p = &prog.insts[l];
                if inst.dst.file == File::Null
                    && inst.pred.is_none()
                    && p.pred.is_none()
                    && inst.op == p.op
                    && inst.cmod == p.cmod
                    && inst.src == p.src
                    && inst.dst.writemask & !p.dst.writemask == 0
                    && inst.dst.ty == p.dst.ty
                {
                    remove[ip] = true;
                    progress = true;
                    continue;
                }
            }
            last = Some(ip);
            continue;
        }
        // A write of a register the last flag write read makes its repeat differ.
        if let Some(l) = last {
            let w = inst.dst;
            if w.file == File::Vgrf
                && prog.insts[l]
                    .src
                    .iter()
                    .any(|s| s.file == File::Vgrf && s.nr == w.nr)
            {
                last = None;
            }
        }
    }
    if progress {
        prog.remove_marked(&remove);
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::RegType::{D, F};
    use crate::intel::vec4::ir::{replicate, Dst, Src};
    use crate::intel::vec4::opt::test_builder::{flow, predicated as pred, with_cmod};

    fn alu(op: Opcode, dst: Dst, src: Vec<Src>, cmod: CondMod) -> Inst {
        with_cmod(
            crate::intel::vec4::opt::test_builder::alu(op, dst, &src),
            cmod,
        )
    }

    /// `dp3 v1.x, v0, v0` followed by `rest`: the value the tests below test.
    fn after_dp3(rest: Vec<Inst>, num_vgrfs: u32) -> Program {
        let dp3 = alu(
            Opcode::Dp3,
            Dst::vgrf(1, F, 0x1),
            vec![Src::vgrf(0, F), Src::vgrf(0, F)],
            CondMod::None,
        );
        Program {
            interleaved_attrs: false,
            insts: std::iter::once(dp3).chain(rest).collect(),
            num_vgrfs,
        }
    }

    #[test]
    fn a_test_of_a_compare_result_read_by_an_if_goes() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                alu(
                    Opcode::Cmp,
                    Dst::vgrf(1, D, 0x7),
                    vec![Src::vgrf(0, F), Src::imm_f(0.0)],
                    CondMod::Nz,
                ),
                alu(
                    Opcode::Mov,
                    Dst::null(D),
                    vec![Src::vgrf(1, D).swizzled(replicate(0))],
                    CondMod::Nz,
                ),
                pred(flow(Op::If)),
                flow(Op::EndIf),
            ],
            num_vgrfs: 2,
        };
        assert!(cmod_propagation(&mut p));
        assert_eq!(p.insts.len(), 3);
        assert_eq!(p.insts[0].cmod, CondMod::Nz);
    }

    /// `dp3 v1.x; cmp.ge null.x, v1.x, 0.0F; if` is Mesa's `dp3.ge null.x` once the
    /// dot product's value is unread (dead-code elimination then nulls it): the compare of a
    /// float with +0.0 is the dot product's own conditional modifier.
    #[test]
    fn a_float_compare_with_zero_moves_into_the_dot_product() {
        let mut p = after_dp3(
            vec![
                alu(
                    Opcode::Cmp,
                    Dst {
                        writemask: 0x1,
                        ..Dst::null(D)
                    },
                    vec![Src::vgrf(1, F).swizzled(replicate(0)), Src::imm_f(0.0)],
                    CondMod::Ge,
                ),
                pred(flow(Op::If)),
                flow(Op::EndIf),
            ],
            2,
        );
        assert!(cmod_propagation(&mut p));
        assert_eq!(p.insts.len(), 3);
        assert_eq!(p.insts[0].op, Op::Alu(Opcode::Dp3));
        assert_eq!(p.insts[0].cmod, CondMod::Ge);
        assert!(super::super::dce::dead_code_eliminate(&mut p));
        assert_eq!(p.insts[0].dst.file, File::Null);
        assert_eq!(p.insts[0].dst.writemask, 0x1);
    }

    /// A compare with a value other than zero is not a test of the sign of the source.
    #[test]
    fn a_compare_with_a_nonzero_float_stays() {
        let mut p = after_dp3(
            vec![
                alu(
                    Opcode::Cmp,
                    Dst::null(D),
                    vec![Src::vgrf(1, F).swizzled(replicate(0)), Src::imm_f(1.0)],
                    CondMod::Ge,
                ),
                pred(flow(Op::If)),
                flow(Op::EndIf),
            ],
            2,
        );
        assert!(!cmod_propagation(&mut p));
    }

    #[test]
    fn a_test_moves_into_the_instruction_that_computed_the_value() {
        let mut p = after_dp3(
            vec![
                alu(
                    Opcode::Mov,
                    Dst::null(F),
                    vec![Src::vgrf(1, F).swizzled(replicate(0))],
                    CondMod::Ge,
                ),
                pred(flow(Op::If)),
                flow(Op::EndIf),
            ],
            2,
        );
        assert!(cmod_propagation(&mut p));
        assert_eq!(p.insts.len(), 3);
        assert_eq!(p.insts[0].op, Op::Alu(Opcode::Dp3));
        assert_eq!(p.insts[0].cmod, CondMod::Ge);
    }

    #[test]
    fn a_per_channel_reader_of_other_channels_keeps_the_test() {
        // The predicated sel reads the flag in x, y and z, but the dp3 would set only x.
        let mut p = after_dp3(
            vec![
                alu(
                    Opcode::Mov,
                    Dst::null(F),
                    vec![Src::vgrf(1, F).swizzled(replicate(0))],
                    CondMod::Nz,
                ),
                pred(alu(
                    Opcode::Sel,
                    Dst::vgrf(2, F, 0x7),
                    vec![Src::vgrf(0, F), Src::imm_f(1.0)],
                    CondMod::None,
                )),
            ],
            3,
        );
        assert!(!cmod_propagation(&mut p));
        assert_eq!(p.insts.len(), 3);
    }

    #[test]
    fn a_flag_read_in_between_or_a_conversion_keeps_the_test() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                alu(
                    Opcode::Add,
                    Dst::vgrf(1, F, 0xf),
                    vec![Src::vgrf(0, F), Src::imm_f(1.0)],
                    CondMod::None,
                ),
                // Reads the float as an integer: not the same test.
                alu(
                    Opcode::Mov,
                    Dst::null(D),
                    vec![Src::vgrf(1, D).swizzled(replicate(0))],
                    CondMod::Nz,
                ),
                pred(flow(Op::If)),
                flow(Op::EndIf),
            ],
            num_vgrfs: 2,
        };
        assert!(!cmod_propagation(&mut p));
    }

    #[test]
    fn a_repeated_compare_goes_until_its_source_changes() {
        let cmp = || {
            alu(
                Opcode::Cmp,
                Dst::null(D),
                vec![Src::vgrf(0, D).swizzled(replicate(3)), Src::imm(D, 0)],
                CondMod::Z,
            )
        };
        let sel = |d| {
            pred(alu(
                Opcode::Sel,
                Dst::vgrf(d, F, 0x7),
                vec![Src::vgrf(1, F), Src::imm_f(1.0)],
                CondMod::None,
            ))
        };
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                cmp(),
                sel(2),
                cmp(), // repeat: goes
                sel(3),
                alu(
                    Opcode::Mov,
                    Dst::vgrf(0, D, 0x8),
                    vec![Src::imm(D, 5)],
                    CondMod::None,
                ),
                cmp(), // source rewritten: stays
                sel(4),
            ],
            num_vgrfs: 5,
        };
        assert!(cmod_propagation(&mut p));
        assert_eq!(p.insts.len(), 6);
        assert_eq!(
            p.insts
                .iter()
                .filter(|i| i.op == Op::Alu(Opcode::Cmp))
                .count(),
            2
        );
    }
}
