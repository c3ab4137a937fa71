//! Copy propagation with swizzle composition: a use of a register that a raw `mov` filled
//! reads the mov's source instead, its swizzle composed with the mov's (`mov a, b.yzwx`
//! then `add c, a.xxyy, …` becomes `add c, b.yyzz, …`).
//!
//! The copy must be the register's only write, and the source must hold the same value at
//! every use: payload registers (attributes, push constants) and immediates never change;
//! a virtual register must not be written between the copy and the last use, and that
//! stretch must not contain loop boundaries or jumps (a back edge could bring another
//! value). Operand rules decide where a source may go: immediates only as the last source
//! of a two-source ALU instruction (or a `mov`), push constants not into three-source
//! instructions, nothing into message payloads.

use crate::intel::eu::{Opcode, RegType};

use super::super::ir::{swz_compose, File, Op, Program, Src};

/// Whether `src` may stand as source `k` of an instruction of `op` with `n` sources.
fn fits(op: Op, n: usize, k: usize, src: &Src, interleaved: bool) -> bool {
    match op {
        Op::Alu(o) if o.is_three_src() => {
            src.file == File::Vgrf || (src.file == File::Attr && !interleaved)
        }
        Op::Alu(Opcode::Mov) => true,
        Op::Alu(_) => src.file != File::Imm || (n == 2 && k == 1),
        Op::Math(_) => src.file != File::Imm,
        _ => false,
    }
}

/// Whether a float source of `op` takes negate and abs as arithmetic modifiers.
fn takes_modifiers(op: Op) -> bool {
    match op {
        Op::Alu(o) => matches!(
            o,
            Opcode::Mov
                | Opcode::Add
                | Opcode::Mul
                | Opcode::Mad
                | Opcode::Lrp
                | Opcode::Sel
                | Opcode::Cmp
                | Opcode::Dp2
                | Opcode::Dp3
                | Opcode::Dp4
                | Opcode::Dph
                | Opcode::Frc
                | Opcode::Rndd
                | Opcode::Rnde
                | Opcode::Rndz
        ),
        Op::Math(_) => true,
        _ => false,
    }
}

/// Propagates copies; true when a source changed.
pub fn copy_propagation(prog: &mut Program) -> bool {
    let interleaved = prog.interleaved_attrs;
    let n = prog.num_vgrfs as usize;
    let mut writes = vec![0u32; n];
    let mut def_at = vec![usize::MAX; n];
    let mut last_use = vec![0usize; n];
    for (ip, i) in prog.insts.iter().enumerate() {
        if i.dst.file == File::Vgrf {
            if let Some(w) = writes.get_mut(i.dst.nr as usize) {
                *w += 1;
                def_at[i.dst.nr as usize] = ip;
            }
        }
        for s in &i.src {
            if s.file == File::Vgrf {
                if let Some(u) = last_use.get_mut(s.nr as usize) {
                    *u = ip;
                }
            }
        }
    }
    let mut progress = false;
    for a in 0..n {
        if writes[a] != 1 {
            continue;
        }
        let p = def_at[a];
        let copy = &prog.insts[p];
        // A float mov with a negate or abs is a copy too, for float reads.
        let float_modified = copy.op == Op::Alu(Opcode::Mov)
            && copy.pred.is_none()
            && copy.cmod == crate::intel::eu::CondMod::None
            && !copy.sat
            && copy.dst.ty == RegType::F
            && copy.src[0].ty == RegType::F
            && copy.src[0].file != File::Imm
            && (copy.src[0].negate || copy.src[0].abs);
        if !(copy.is_raw_mov() || float_modified) || copy.src[0].file == File::Fixed {
            continue;
        }
        let s = copy.src[0];
        // A vector immediate differs per channel: a swizzled read cannot take it.
        if matches!(s.ty, RegType::VF | RegType::V | RegType::UV) {
            continue;
        }
        let last = last_use[a];
        if last <= p {
            continue;
        }
        if s.file == File::Vgrf {
            let b = s.nr;
            if b as usize == a {
                continue;
            }
            let clobbered = prog.insts[p + 1..=last].iter().any(|i| {
                (i.dst.file == File::Vgrf && i.dst.nr == b)
                    || matches!(i.op, Op::Do | Op::While | Op::Break | Op::Continue)
            });
            if clobbered {
                continue;
            }
        }
        for ip in p + 1..=last {
            let inst = &mut prog.insts[ip];
            let (op, count) = (inst.op, inst.src.len());
            for k in 0..count {
                let u = inst.src[k];
                if u.file != File::Vgrf || u.nr as usize != a {
                    continue;
                }
                if s.file == File::Imm && (u.negate || u.abs) {
                    continue;
                }
                if float_modified && (u.ty != RegType::F || !takes_modifiers(op)) {
                    continue;
                }
                // -|x| stays; |−x| is |x|; −(−x) is x.
                let (negate, abs) = if u.abs {
                    (u.negate, true)
                } else {
                    (u.negate ^ s.negate, s.abs)
                };
                let new = Src {
                    swizzle: swz_compose(s.swizzle, u.swizzle),
                    ty: u.ty,
                    negate,
                    abs,
                    ..s
                };
                let new = if s.file == File::Imm {
                    Src::imm(u.ty, s.imm)
                } else {
                    new
                };
                if fits(op, count, k, &new, interleaved) {
                    inst.src[k] = new;
                    progress = true;
                }
            }
        }
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::RegType::{D, F, UD};
    use crate::intel::vec4::ir::{Dst, Inst};

    fn inst(op: Opcode, dst: Dst, src: Vec<Src>) -> Inst {
        Inst::new(Op::Alu(op), dst, src)
    }

    #[test]
    fn swizzles_compose_through_a_copy() {
        let attr = Src {
            swizzle: 0x39, // .yzwx
            ..Src::reg(File::Attr, 0, UD)
        };
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                inst(Opcode::Mov, Dst::vgrf(0, UD, 0xf), vec![attr]),
                inst(
                    Opcode::Add,
                    Dst::vgrf(1, F, 0xf),
                    vec![
                        Src {
                            swizzle: 0x50, // .xxyy
                            ..Src::vgrf(0, F)
                        },
                        Src::imm_f(1.0),
                    ],
                ),
            ],
            num_vgrfs: 2,
        };
        assert!(copy_propagation(&mut p));
        assert_eq!(p.insts[1].to_string(), "add v1F, attr0.yyzzF, 0x3f800000F");
    }

    #[test]
    fn immediates_go_only_where_the_encoding_allows() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                inst(Opcode::Mov, Dst::vgrf(0, UD, 0xf), vec![Src::imm(UD, 7)]),
                inst(
                    Opcode::Add,
                    Dst::vgrf(1, UD, 0xf),
                    vec![Src::vgrf(0, UD), Src::vgrf(0, UD)],
                ),
                inst(
                    Opcode::Mad,
                    Dst::vgrf(2, F, 0xf),
                    vec![Src::vgrf(0, F), Src::vgrf(1, F), Src::vgrf(1, F)],
                ),
            ],
            num_vgrfs: 3,
        };
        assert!(copy_propagation(&mut p));
        assert_eq!(p.insts[1].to_string(), "add v1UD, v0UD, 0x7UD");
        assert_eq!(p.insts[2].to_string(), "mad v2F, v0F, v1F, v1F");
    }

    #[test]
    fn a_source_written_before_the_use_is_not_propagated() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                inst(
                    Opcode::Mov,
                    Dst::vgrf(0, UD, 0xf),
                    vec![Src::reg(File::Attr, 0, UD)],
                ),
                inst(Opcode::Mov, Dst::vgrf(1, UD, 0xf), vec![Src::vgrf(0, UD)]),
                inst(Opcode::Mov, Dst::vgrf(0, UD, 1), vec![Src::imm(UD, 3)]),
                inst(
                    Opcode::Add,
                    Dst::vgrf(2, UD, 0xf),
                    vec![Src::vgrf(1, UD), Src::vgrf(0, UD)],
                ),
            ],
            num_vgrfs: 3,
        };
        assert!(!copy_propagation(&mut p));
        assert_eq!(p.insts[3].to_string(), "add v2UD, v1UD, v0UD");
    }

    #[test]
    fn conversions_are_not_copies() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                inst(
                    Opcode::Mov,
                    Dst::vgrf(0, F, 0xf),
                    vec![Src::reg(File::Attr, 0, D)],
                ),
                inst(Opcode::Mov, Dst::vgrf(1, UD, 0xf), vec![Src::vgrf(0, UD)]),
            ],
            num_vgrfs: 2,
        };
        assert!(!copy_propagation(&mut p));
    }

    #[test]
    fn vector_immediates_stay_in_their_register() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                inst(
                    Opcode::Mov,
                    Dst::vgrf(0, F, 0xf),
                    vec![Src::imm(RegType::VF, 0x3030_3000)],
                ),
                inst(
                    Opcode::Mov,
                    Dst::vgrf(1, UD, 0xc),
                    vec![Src {
                        swizzle: 0x40, // .xxxy
                        ..Src::vgrf(0, UD)
                    }],
                ),
            ],
            num_vgrfs: 2,
        };
        assert!(!copy_propagation(&mut p));
    }

    #[test]
    fn negate_and_abs_fold_into_float_reads() {
        let neg_attr = Src::reg(File::Attr, 0, F).negated();
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                inst(Opcode::Mov, Dst::vgrf(0, F, 0xf), vec![neg_attr]),
                inst(
                    Opcode::Add,
                    Dst::vgrf(1, F, 0xf),
                    vec![Src::vgrf(0, F).negated(), Src::vgrf(0, F)],
                ),
                inst(
                    Opcode::Mul,
                    Dst::vgrf(2, F, 0xf),
                    vec![
                        Src {
                            abs: true,
                            ..Src::vgrf(0, F)
                        },
                        Src::imm_f(2.0),
                    ],
                ),
                // An integer read of the negated float stays on the copy.
                inst(
                    Opcode::And,
                    Dst::vgrf(3, UD, 0xf),
                    vec![Src::vgrf(0, UD), Src::imm(UD, 1)],
                ),
            ],
            num_vgrfs: 4,
        };
        assert!(copy_propagation(&mut p));
        assert_eq!(p.insts[1].to_string(), "add v1F, attr0F, -attr0F");
        assert_eq!(p.insts[2].to_string(), "mul v2F, |attr0F|, 0x40000000F");
        assert_eq!(p.insts[3].to_string(), "and v3UD, v0UD, 0x1UD");
    }

    #[test]
    fn loop_boundaries_stop_propagation_of_registers() {
        let flow = |op| Inst::new(op, Dst::null(UD), vec![]);
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                inst(Opcode::Mov, Dst::vgrf(1, UD, 0xf), vec![Src::vgrf(0, UD)]),
                flow(Op::Do),
                inst(
                    Opcode::Add,
                    Dst::vgrf(2, UD, 0xf),
                    vec![Src::vgrf(1, UD), Src::imm(UD, 1)],
                ),
                flow(Op::While),
            ],
            num_vgrfs: 3,
        };
        assert!(!copy_propagation(&mut p));
    }
}
