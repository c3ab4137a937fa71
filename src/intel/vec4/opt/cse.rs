//! Local common-subexpression elimination (in the spirit of Mesa's `brw_vec4_cse.cpp`):
//! within one block of straight-line code, an expression computed again — same operation,
//! the same sources with the same swizzles and modifiers, the same destination type and
//! saturation — whose channels the earlier computation wrote becomes a `mov` from the earlier
//! destination, which copy propagation and coalescing then usually remove.
//!
//! The earlier result is read where it lies, so it must still hold the value: nothing
//! between the two may write its destination or any of its sources (a write kills the
//! entry). Blocks end at every control-flow instruction (a loop's back edge or a branch could
//! bring other values). Only pure per-vertex computations take part: ALU operations without a
//! predicate or a flag write (a `sel` with a conditional modifier writes no flag and is
//! taken), extended math, and `mov`s of vector-float immediates (a register copy or a
//! scalar immediate is copy propagation's business); messages never do.
//!
//! The pass stays local: a version whose results flowed into the branches of an `if`, past
//! its `endif` and into loops that do not write their registers found nothing more on the
//! ivb corpus, whose NIR arrives with its common subexpressions already eliminated.

use crate::intel::eu::{CondMod, Opcode, RegType};

use super::super::ir::{Dst, File, Inst, Op, Program, Src};

/// Whether `inst` computes a value from its sources alone.
fn is_expression(inst: &Inst) -> bool {
    let pure = match inst.op {
        // A scalar immediate copy propagation puts straight into the reads; a vector one it
        // cannot (it differs per channel), so a copy of the register that holds it is what
        // lets the second go.
        Op::Alu(Opcode::Mov) => inst
            .src
            .first()
            .is_some_and(|s| s.file == File::Imm && s.ty == RegType::VF),
        Op::Alu(o) => matches!(
            o,
            Opcode::Sel
                | Opcode::Not
                | Opcode::And
                | Opcode::Or
                | Opcode::Xor
                | Opcode::Shr
                | Opcode::Shl
                | Opcode::Asr
                | Opcode::Add
                | Opcode::Mul
                | Opcode::Frc
                | Opcode::Rndu
                | Opcode::Rndd
                | Opcode::Rnde
                | Opcode::Rndz
                | Opcode::Mad
                | Opcode::Lrp
                | Opcode::Dp2
                | Opcode::Dp3
                | Opcode::Dp4
                | Opcode::Dph
                | Opcode::Bfrev
                | Opcode::Bfe
                | Opcode::Bfi1
                | Opcode::Lzd
                | Opcode::Fbh
                | Opcode::Fbl
                | Opcode::Cbit
        ),
        Op::Math(_) => true,
        _ => false,
    };
    let flag_ok = inst.cmod == CondMod::None || inst.op == Op::Alu(Opcode::Sel);
    pure && flag_ok && inst.pred.is_none() && matches!(inst.dst.file, File::Vgrf | File::Fixed)
}

/// Whether two operands read the same value; for a vector-float immediate only the bytes of
/// the channels in `mask` matter.
fn same_src(a: &Src, b: &Src, mask: u8) -> bool {
    if a.file == File::Imm && b.file == File::Imm && a.ty == RegType::VF && b.ty == RegType::VF {
        let keep = (0..4).fold(0u32, |m, c| {
            m | if mask >> c & 1 != 0 {
                0xff << (8 * c)
            } else {
                0
            }
        });
        return a.imm & keep == b.imm & keep;
    }
    a == b
}

/// Whether `later` computes, in its channels, what `earlier` computed.
fn same_expression(earlier: &Inst, later: &Inst) -> bool {
    let mask = later.dst.writemask;
    if earlier.op != later.op
        || earlier.sat != later.sat
        || earlier.cmod != later.cmod
        || earlier.dst.ty != later.dst.ty
        || mask & !earlier.dst.writemask != 0
        || earlier.src.len() != later.src.len()
    {
        return false;
    }
    let (x, y) = (&earlier.src, &later.src);
    let eq = |i: usize, j: usize| same_src(&x[i], &y[j], mask);
    let in_order = (0..x.len()).all(|k| eq(k, k));
    let commutative = matches!(
        later.op,
        Op::Alu(Opcode::Add | Opcode::Mul | Opcode::And | Opcode::Or | Opcode::Xor)
    );
    in_order
        || (commutative && x.len() == 2 && eq(0, 1) && eq(1, 0))
        // mad computes src0 + src1 * src2.
        || (later.op == Op::Alu(Opcode::Mad) && eq(0, 0) && eq(1, 2) && eq(2, 1))
}

/// Whether `r` (a register source or destination) is `d`'s register.
fn same_reg(file: File, nr: u32, d: &Dst) -> bool {
    file == d.file && nr == d.nr && matches!(file, File::Vgrf | File::Fixed)
}

/// Eliminates repeated expressions; true on progress.
pub fn cse(prog: &mut Program) -> bool {
    let mut progress = false;
    // Indices of the instructions whose results are still available.
    let mut avail: Vec<usize> = Vec::new();
    // Recomputations into the register that already holds the value.
    let mut gone: Vec<usize> = Vec::new();
    for ip in 0..prog.insts.len() {
        if prog.insts[ip].op.is_flow() {
            avail.clear();
            continue;
        }
        if is_expression(&prog.insts[ip]) {
            let found = avail
                .iter()
                .copied()
                .find(|&a| same_expression(&prog.insts[a], &prog.insts[ip]));
            if let Some(a) = found {
                let from = prog.insts[a].dst;
                let inst = &mut prog.insts[ip];
                if from.file == inst.dst.file && from.nr == inst.dst.nr {
                    // The register already holds the value in these channels.
                    gone.push(ip);
                }
                *inst = Inst::new(
                    Op::Alu(Opcode::Mov),
                    inst.dst,
                    vec![Src::reg(from.file, from.nr, from.ty)],
                );
                progress = true;
            } else {
                let i = &prog.insts[ip];
                // An expression that overwrites one of its own sources is not available
                // after itself.
                if !i.src.iter().any(|s| same_reg(s.file, s.nr, &i.dst)) {
                    avail.push(ip);
                }
            }
        }
        // The write of this instruction kills what read or computed into its register.
        let d = prog.insts[ip].dst;
        if matches!(d.file, File::Vgrf | File::Fixed) {
            avail.retain(|&a| {
                a == ip || {
                    let e = &prog.insts[a];
                    !same_reg(d.file, d.nr, &e.dst)
                        && !e.src.iter().any(|s| same_reg(s.file, s.nr, &d))
                }
            });
        }
    }
    if !gone.is_empty() {
        let mut ip = 0;
        prog.insts.retain(|_| {
            ip += 1;
            !gone.contains(&(ip - 1))
        });
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::RegType::{D, F, UD};
    use crate::intel::vec4::ir::{replicate, Dst, Src};

    fn alu(op: Opcode, dst: Dst, src: Vec<Src>) -> Inst {
        Inst::new(Op::Alu(op), dst, src)
    }

    fn attr(n: u32) -> Src {
        Src::reg(File::Attr, n, F)
    }

    fn run(insts: Vec<Inst>, num_vgrfs: u32) -> (bool, String) {
        let mut p = Program {
            insts,
            num_vgrfs,
            interleaved_attrs: false,
        };
        let progress = cse(&mut p);
        (progress, p.to_string())
    }

    #[test]
    fn a_repeated_expression_becomes_a_copy_of_the_first() {
        let (progress, ir) = run(
            vec![
                alu(Opcode::Add, Dst::vgrf(0, F, 0xf), vec![attr(0), attr(1)]),
                // Commuted, and fewer channels: still the same value.
                alu(Opcode::Add, Dst::vgrf(1, F, 0x3), vec![attr(1), attr(0)]),
            ],
            2,
        );
        assert!(progress);
        assert_eq!(ir, "add v0F, attr0F, attr1F\nmov v1.xyF, v0F\n");
    }

    #[test]
    fn different_swizzles_modifiers_types_or_missing_channels_differ() {
        let insts = vec![
            alu(Opcode::Mul, Dst::vgrf(0, F, 0x3), vec![attr(0), attr(1)]),
            // Other swizzle.
            alu(
                Opcode::Mul,
                Dst::vgrf(1, F, 0x3),
                vec![attr(0).swizzled(replicate(1)), attr(1)],
            ),
            // Negated source.
            alu(
                Opcode::Mul,
                Dst::vgrf(2, F, 0x3),
                vec![attr(0).negated(), attr(1)],
            ),
            // Channels the first did not write.
            alu(Opcode::Mul, Dst::vgrf(3, F, 0x7), vec![attr(0), attr(1)]),
            // Saturated.
            {
                let mut i = alu(Opcode::Mul, Dst::vgrf(4, F, 0x3), vec![attr(0), attr(1)]);
                i.sat = true;
                i
            },
            // A shift does not commute.
            alu(
                Opcode::Shl,
                Dst::vgrf(5, D, 0x1),
                vec![Src::vgrf(9, D), Src::vgrf(8, D)],
            ),
            alu(
                Opcode::Shl,
                Dst::vgrf(6, D, 0x1),
                vec![Src::vgrf(8, D), Src::vgrf(9, D)],
            ),
        ];
        let before = Program {
            interleaved_attrs: false,
            insts: insts.clone(),
            num_vgrfs: 10,
        }
        .to_string();
        let (progress, ir) = run(insts, 10);
        assert!(!progress);
        assert_eq!(ir, before);
    }

    #[test]
    fn a_write_to_a_source_or_the_result_in_between_kills_it() {
        let (progress, ir) = run(
            vec![
                alu(
                    Opcode::Add,
                    Dst::vgrf(0, F, 0xf),
                    vec![Src::vgrf(5, F), attr(1)],
                ),
                alu(Opcode::Mov, Dst::vgrf(5, F, 0x1), vec![attr(2)]),
                alu(
                    Opcode::Add,
                    Dst::vgrf(1, F, 0xf),
                    vec![Src::vgrf(5, F), attr(1)],
                ),
                alu(Opcode::Mul, Dst::vgrf(2, F, 0xf), vec![attr(0), attr(1)]),
                alu(Opcode::Mov, Dst::vgrf(2, F, 0x8), vec![attr(3)]),
                alu(Opcode::Mul, Dst::vgrf(3, F, 0xf), vec![attr(0), attr(1)]),
            ],
            6,
        );
        assert!(!progress, "{ir}");
    }

    #[test]
    fn a_recomputation_into_the_same_register_goes() {
        let (progress, ir) = run(
            vec![
                alu(Opcode::Mul, Dst::vgrf(0, F, 0xf), vec![attr(0), attr(1)]),
                alu(Opcode::Mul, Dst::vgrf(0, F, 0x2), vec![attr(0), attr(1)]),
                alu(
                    Opcode::Add,
                    Dst::vgrf(1, F, 0xf),
                    vec![Src::vgrf(0, F), attr(1)],
                ),
            ],
            2,
        );
        assert!(progress);
        assert_eq!(ir, "mul v0F, attr0F, attr1F\nadd v1F, v0F, attr1F\n");
    }

    #[test]
    fn control_flow_ends_the_block() {
        let flow = |op| Inst::new(op, Dst::null(UD), vec![]);
        let (progress, _) = run(
            vec![
                alu(Opcode::Add, Dst::vgrf(0, F, 0xf), vec![attr(0), attr(1)]),
                flow(Op::Do),
                alu(Opcode::Add, Dst::vgrf(1, F, 0xf), vec![attr(0), attr(1)]),
                flow(Op::While),
            ],
            2,
        );
        assert!(!progress);
    }

    #[test]
    fn flags_predicates_messages_copies_and_scalar_immediates_stay() {
        let mut cmp = alu(Opcode::Cmp, Dst::vgrf(0, D, 0xf), vec![attr(0), attr(1)]);
        cmp.cmod = CondMod::L;
        let mut pred = alu(Opcode::Add, Dst::vgrf(2, F, 0xf), vec![attr(0), attr(1)]);
        pred.pred = Some(false);
        let pull = |d| {
            Inst::new(
                Op::PullLoad {
                    surface: 1,
                    indexed: false,
                },
                Dst::vgrf(d, F, 0xf),
                vec![Src::vgrf(9, UD)],
            )
        };
        let insts = vec![
            cmp.clone(),
            Inst {
                dst: Dst::vgrf(1, D, 0xf),
                ..cmp
            },
            pred.clone(),
            Inst {
                dst: Dst::vgrf(3, F, 0xf),
                ..pred
            },
            pull(4),
            pull(5),
            alu(Opcode::Mov, Dst::vgrf(6, F, 0xf), vec![attr(0)]),
            alu(Opcode::Mov, Dst::vgrf(7, F, 0xf), vec![attr(0)]),
            alu(Opcode::Mov, Dst::vgrf(8, F, 0xf), vec![Src::imm_f(2.0)]),
            alu(Opcode::Mov, Dst::vgrf(9, F, 0xf), vec![Src::imm_f(2.0)]),
        ];
        let (progress, _) = run(insts, 10);
        assert!(!progress);
    }

    #[test]
    fn vector_immediates_compare_in_the_written_channels_only() {
        // [1, 2, 0.5, 0]VF then .xy of [1, 2, 4, 8]VF: the same in x and y.
        let (progress, ir) = run(
            vec![
                alu(
                    Opcode::Mov,
                    Dst::vgrf(0, F, 0xf),
                    vec![Src::imm(RegType::VF, 0x0020_4030)],
                ),
                alu(
                    Opcode::Mov,
                    Dst::vgrf(1, F, 0x3),
                    vec![Src::imm(RegType::VF, 0x6050_4030)],
                ),
                alu(
                    Opcode::Mov,
                    Dst::vgrf(2, F, 0x7),
                    vec![Src::imm(RegType::VF, 0x6050_4030)],
                ),
            ],
            3,
        );
        assert!(progress);
        assert_eq!(
            ir,
            "mov v0F, 0x204030VF\nmov v1.xyF, v0F\nmov v2.xyzF, 0x60504030VF\n"
        );
    }

    #[test]
    fn math_and_message_register_results_are_reused() {
        let (progress, ir) = run(
            vec![
                Inst::new(
                    Op::Math(crate::intel::eu::MathFn::Inv),
                    Dst::fixed(116, F, 0xf),
                    vec![attr(0)],
                ),
                Inst::new(
                    Op::Math(crate::intel::eu::MathFn::Inv),
                    Dst::vgrf(0, F, 0x1),
                    vec![attr(0)],
                ),
            ],
            1,
        );
        assert!(progress);
        assert_eq!(ir, "math inv g116F, attr0F\nmov v0.xF, g116F\n");
    }
}
