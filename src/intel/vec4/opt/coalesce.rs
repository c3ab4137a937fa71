//! Register coalescing: `v = op …; mov r.mask, v.swz` becomes `op r.mask, …` when the mov is
//! `v`'s only use. The defining instruction writes `r` directly, its sources re-swizzled so
//! that channel c computes what the mov would have taken from channel `swz[c]`.
//!
//! Safe when nothing between the two reads or writes `r` (its write moves earlier), no
//! control flow lies between them (same block), and the definition is per-channel; a
//! definition that also writes the flag or is predicated keeps its channels exactly
//! (identity swizzle, same write mask), since its flag bits and predicate are per channel.

use crate::intel::eu::{CondMod, Opcode};

use super::super::ir::{swz_compose, swz_get, File, Op, Program, XYZW};

/// Per-channel operations: channel c of the result depends on channel c of the sources.
fn per_channel(op: Op) -> bool {
    match op {
        Op::Alu(o) => !matches!(
            o,
            Opcode::Dp2 | Opcode::Dp3 | Opcode::Dp4 | Opcode::Dph | Opcode::Send
        ),
        Op::Math(_) => true,
        _ => false,
    }
}

/// Coalesces copies into their definitions; true on progress.
pub fn coalesce(prog: &mut Program) -> bool {
    let n = prog.num_vgrfs as usize;
    let mut writes = vec![0u32; n];
    let mut uses = vec![0u32; n];
    let mut def_at = vec![usize::MAX; n];
    for (ip, i) in prog.insts.iter().enumerate() {
        if i.dst.file == File::Vgrf {
            if let Some(w) = writes.get_mut(i.dst.nr as usize) {
                *w += 1;
                def_at[i.dst.nr as usize] = ip;
            }
        }
        for s in &i.src {
            if s.file == File::Vgrf {
                if let Some(u) = uses.get_mut(s.nr as usize) {
                    *u += 1;
                }
            }
        }
    }
    let mut progress = false;
    let mut removed = vec![false; prog.insts.len()];
    for q in 0..prog.insts.len() {
        let mov = &prog.insts[q];
        if !mov.is_raw_mov() || mov.src[0].file != File::Vgrf {
            continue;
        }
        let a = mov.src[0].nr as usize;
        if writes[a] != 1 || uses[a] != 1 || def_at[a] >= q || removed[def_at[a]] {
            continue;
        }
        let (dst, swz) = (mov.dst, mov.src[0].swizzle);
        if dst.file != File::Vgrf && dst.file != File::Fixed {
            continue;
        }
        let p = def_at[a];
        let def = &prog.insts[p];
        if !per_channel(def.op) || def.sat && def.dst.ty != mov.src[0].ty {
            continue;
        }
        let m = dst.writemask;
        let identity = (0..4u8).all(|c| m >> c & 1 == 0 || swz_get(swz, c) == c);
        let needed = (0..4u8)
            .filter(|c| m >> c & 1 != 0)
            .fold(0u8, |acc, c| acc | 1 << swz_get(swz, c));
        if needed & !def.dst.writemask != 0 {
            continue;
        }
        let exact = def.cmod != CondMod::None || def.pred.is_some();
        if exact && !(identity && m == def.dst.writemask) {
            continue;
        }
        let touched = prog.insts[p + 1..q].iter().enumerate().any(|(k, i)| {
            !removed[p + 1 + k]
                && (i.op.is_flow()
                    || matches!(
                        i.op,
                        Op::UrbWrite { .. } | Op::UrbHeader | Op::PullLoad { .. }
                    )
                    || (i.dst.file == dst.file && i.dst.nr == dst.nr)
                    || i.src.iter().any(|s| s.file == dst.file && s.nr == dst.nr))
        });
        if touched {
            continue;
        }
        let def = &mut prog.insts[p];
        if !identity {
            for s in def.src.iter_mut() {
                if s.file != File::Imm {
                    s.swizzle = swz_compose(s.swizzle, swz);
                }
            }
        }
        def.dst.file = dst.file;
        def.dst.nr = dst.nr;
        def.dst.writemask = m;
        removed[q] = true;
        progress = true;
    }
    if progress {
        let mut k = 0;
        prog.insts.retain(|_| {
            k += 1;
            !removed[k - 1]
        });
    }
    let _ = XYZW;
    progress
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::RegType::{F, UD};
    use crate::intel::vec4::ir::{Dst, Inst, Src};

    fn alu(op: Opcode, dst: Dst, src: Vec<Src>) -> Inst {
        Inst::new(Op::Alu(op), dst, src)
    }

    #[test]
    fn a_result_moves_into_its_register_reswizzled() {
        // v1 = a * b; r0.y = v1.x  →  r0.y = a.x * b.x (channel y computes old channel x).
        let mut p = Program {
            insts: vec![
                alu(
                    Opcode::Mul,
                    Dst::vgrf(1, F, 0x1),
                    vec![Src::reg(File::Attr, 0, F), Src::reg(File::Attr, 1, F)],
                ),
                alu(
                    Opcode::Mov,
                    Dst::vgrf(0, UD, 0x2),
                    vec![Src {
                        swizzle: 0,
                        ..Src::vgrf(1, UD)
                    }],
                ),
            ],
            num_vgrfs: 2,
        };
        assert!(coalesce(&mut p));
        assert_eq!(p.to_string(), "mul v0.yF, attr0.xxxxF, attr1.xxxxF\n");
    }

    #[test]
    fn an_intervening_read_of_the_register_blocks_it() {
        let mut p = Program {
            insts: vec![
                alu(
                    Opcode::Add,
                    Dst::vgrf(1, F, 0xf),
                    vec![Src::reg(File::Attr, 0, F), Src::imm_f(1.0)],
                ),
                alu(Opcode::Mov, Dst::vgrf(2, F, 0xf), vec![Src::vgrf(0, F)]),
                alu(Opcode::Mov, Dst::vgrf(0, UD, 0xf), vec![Src::vgrf(1, UD)]),
            ],
            num_vgrfs: 3,
        };
        assert!(!coalesce(&mut p));
    }

    #[test]
    fn flag_writers_keep_their_channels() {
        let mut cmp = alu(
            Opcode::Cmp,
            Dst::vgrf(1, UD, 0xf),
            vec![Src::reg(File::Attr, 0, F), Src::imm_f(0.0)],
        );
        cmp.cmod = CondMod::L;
        let mut p = Program {
            insts: vec![
                cmp,
                alu(Opcode::Mov, Dst::vgrf(0, UD, 0x1), vec![Src::vgrf(1, UD)]),
            ],
            num_vgrfs: 2,
        };
        assert!(!coalesce(&mut p));
    }
}
