//! Dead components (Mesa's per-channel `dead_code_eliminate`): a write mask keeps only the
//! components something reads later, and an instruction none of whose written components is
//! read goes.
//!
//! NIR often computes a vec3 or vec4 where only one component is used (a `bcsel` with a
//! replicated condition, a swizzled multiply); the narrower write lets register coalescing
//! move the result straight into the register the copy after it fills, and shortens the
//! other components' live ranges.

use crate::intel::eu::{CondMod, Opcode};
use crate::util::bitset::BitSet;

use super::super::ir::{File, Inst, Op, Program};
use super::super::liveness;

/// Whether `inst`'s write mask may shrink: an ALU or math operation without a flag write
/// (the flag is written per component too) whose other effects do not depend on it.
fn shrinkable(inst: &Inst) -> bool {
    matches!(inst.op, Op::Alu(o) if o != Opcode::Send) || matches!(inst.op, Op::Math(_))
}

/// Shrinks write masks to live components and removes writes of dead ones; true on progress.
pub fn dead_channels(prog: &mut Program) -> bool {
    let live = liveness::solve(prog);
    let mut remove = vec![false; prog.insts.len()];
    let mut progress = false;
    let mut now = BitSet::new(prog.num_vgrfs as usize * 4);
    for (b, blk) in live.blocks.iter().enumerate() {
        now.assign_words(live.liveout.row(b));
        for ip in (blk.start..blk.end).rev() {
            let inst = &mut prog.insts[ip];
            if inst.dst.file == File::Vgrf && inst.cmod == CondMod::None && shrinkable(inst) {
                let base = inst.dst.nr as usize * 4;
                let used = (0..4u8)
                    .filter(|&c| now.contains(base + c as usize))
                    .fold(0u8, |m, c| m | 1 << c);
                let kept = inst.dst.writemask & used;
                if kept == 0 {
                    remove[ip] = true;
                    progress = true;
                    continue;
                }
                if kept != inst.dst.writemask {
                    inst.dst.writemask = kept;
                    progress = true;
                }
            }
            if inst.dst.file == File::Vgrf
                && (inst.pred.is_none() || inst.op == Op::Alu(Opcode::Sel))
            {
                let base = inst.dst.nr as usize * 4;
                for c in (0..4).filter(|c| inst.dst.writemask >> c & 1 != 0) {
                    now.remove(base + c);
                }
            }
            for i in 0..inst.src.len() {
                if inst.src[i].file == File::Vgrf {
                    let base = inst.src[i].nr as usize * 4;
                    let read = inst.components_read(i);
                    for c in (0..4).filter(|c| read >> c & 1 != 0) {
                        now.insert(base + c);
                    }
                }
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
    use crate::intel::eu::RegType::F;
    use crate::intel::vec4::ir::{replicate, Dst, Src};

    fn alu(op: Opcode, d: u32, mask: u8, src: Vec<Src>) -> Inst {
        Inst::new(Op::Alu(op), Dst::vgrf(d, F, mask), src)
    }

    fn out(s: Src) -> Inst {
        Inst::new(Op::Alu(Opcode::Mov), Dst::fixed(114, F, 0xf), vec![s])
    }

    #[test]
    fn a_write_keeps_only_the_components_read_after_it() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                alu(Opcode::Mul, 1, 0x7, vec![Src::vgrf(0, F), Src::imm_f(2.0)]),
                // Reads only v1.x (write mask x, swizzle .xyzz).
                alu(Opcode::Mov, 2, 0x1, vec![Src::vgrf(1, F).swizzled(0xa4)]),
                out(Src::vgrf(2, F).swizzled(replicate(0))),
            ],
            num_vgrfs: 3,
        };
        assert!(dead_channels(&mut p));
        assert_eq!(p.insts[0].dst.writemask, 0x1);
        assert_eq!(p.insts.len(), 3);
        assert!(!dead_channels(&mut p));
    }

    #[test]
    fn unread_components_go_but_flag_writes_and_dot_products_reads_stay() {
        let mut cmp = alu(Opcode::Cmp, 3, 0xf, vec![Src::vgrf(0, F), Src::imm_f(0.0)]);
        cmp.cmod = CondMod::Nz;
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                alu(Opcode::Add, 1, 0xf, vec![Src::vgrf(0, F), Src::imm_f(1.0)]),
                alu(Opcode::Mov, 4, 0x8, vec![Src::imm_f(3.0)]), // never read
                cmp,                                             // flag kept
                // dp3 reads x, y and z of v1 whatever it writes.
                alu(Opcode::Dp3, 2, 0x1, vec![Src::vgrf(1, F), Src::vgrf(1, F)]),
                out(Src::vgrf(2, F).swizzled(replicate(0))),
            ],
            num_vgrfs: 5,
        };
        assert!(dead_channels(&mut p));
        assert_eq!(p.insts.len(), 4);
        assert_eq!(p.insts[0].dst.writemask, 0x7);
        assert_eq!(p.insts[1].cmod, CondMod::Nz);
        assert_eq!(p.insts[1].dst.writemask, 0xf);
    }

    #[test]
    fn components_live_around_a_loop_stay() {
        let flow = |op| Inst::new(op, Dst::null(F), vec![]);
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                alu(Opcode::Mov, 1, 0xf, vec![Src::imm_f(0.0)]),
                flow(Op::Do),
                // Read back next iteration through .y: y must stay.
                out(Src::vgrf(1, F).swizzled(replicate(1))),
                alu(Opcode::Add, 1, 0x3, vec![Src::vgrf(1, F), Src::imm_f(1.0)]),
                flow(Op::While),
            ],
            num_vgrfs: 2,
        };
        assert!(dead_channels(&mut p));
        // The add reads its own x around the loop, so x and y stay live into it; only the
        // first mov's z and w go.
        assert_eq!(p.insts[0].dst.writemask, 0x3);
        assert_eq!(p.insts[3].dst.writemask, 0x3);
        assert!(!dead_channels(&mut p));
    }
}
