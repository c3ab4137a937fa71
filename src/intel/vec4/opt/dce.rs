//! Dead-code elimination: an instruction whose only effect is writing a virtual register
//! that nothing reads is removed; one that also sets the flag, read later, keeps the flag
//! write and writes the null register instead (as Mesa's vec4 `dead_code_eliminate` does),
//! which lets [`cmod_prop`](super::cmod_prop) fold a compare of a value with zero into the
//! instruction that computed it.

use crate::intel::eu::CondMod;

use super::super::ir::{Dst, File, Program};

/// Removes writes of registers never read; true when something was removed.
pub fn dead_code_eliminate(prog: &mut Program) -> bool {
    let mut read = vec![false; prog.num_vgrfs as usize];
    for i in &prog.insts {
        for s in &i.src {
            if s.file == File::Vgrf {
                if let Some(r) = read.get_mut(s.nr as usize) {
                    *r = true;
                }
            }
        }
    }
    let dead: Vec<bool> = (0..prog.insts.len())
        .map(|ip| {
            let i = &prog.insts[ip];
            if i.dst.file != File::Vgrf || read.get(i.dst.nr as usize).copied().unwrap_or(true) {
                return false;
            }
            if i.cmod != CondMod::None {
                return flag_dead_after(prog, ip);
            }
            !i.has_side_effects()
        })
        .collect();
    let mut progress = false;
    for (ip, i) in prog.insts.iter_mut().enumerate() {
        if !dead[ip]
            && i.cmod != CondMod::None
            && i.dst.file == File::Vgrf
            && !read.get(i.dst.nr as usize).copied().unwrap_or(true)
        {
            // The write mask stays: in align16 it also selects the flag channels written.
            i.dst = Dst {
                file: File::Null,
                nr: 0,
                ..i.dst
            };
            progress = true;
        }
    }
    let before = prog.insts.len();
    prog.remove_marked(&dead);
    progress || prog.insts.len() != before
}

/// Whether the flag written at `ip` is overwritten before anything reads it (within the
/// straight-line code that follows; any control flow counts as a read).
fn flag_dead_after(prog: &Program, ip: usize) -> bool {
    for i in &prog.insts[ip + 1..] {
        if i.pred.is_some() || i.op.is_flow() {
            return false;
        }
        if i.cmod != CondMod::None {
            return true;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{Opcode, RegType};
    use crate::intel::vec4::ir::{Inst, Op, Src};

    fn mov(d: u32, s: Src) -> Inst {
        Inst::new(Op::Alu(Opcode::Mov), Dst::vgrf(d, RegType::F, 0xf), vec![s])
    }

    #[test]
    fn unread_writes_go_and_their_sources_follow() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                mov(0, Src::imm_f(1.0)),
                mov(1, Src::vgrf(0, RegType::F)),
                mov(2, Src::imm_f(2.0)),
                Inst::new(
                    Op::Alu(Opcode::Mov),
                    Dst::fixed(114, RegType::F, 0xf),
                    vec![Src::vgrf(2, RegType::F)],
                ),
            ],
            num_vgrfs: 3,
        };
        assert!(dead_code_eliminate(&mut p));
        assert!(dead_code_eliminate(&mut p));
        assert!(!dead_code_eliminate(&mut p));
        assert_eq!(p.to_string(), "mov v2F, 0x40000000F\nmov g114F, v2F\n");
    }

    #[test]
    fn an_unread_compare_whose_flag_is_rewritten_goes() {
        let cmp = |d: u32, c: CondMod| {
            let mut i = Inst::new(
                Op::Alu(Opcode::Cmp),
                if d == u32::MAX {
                    Dst::null(RegType::F)
                } else {
                    Dst::vgrf(d, RegType::D, 0xf)
                },
                vec![Src::reg(File::Attr, 0, RegType::F), Src::imm_f(0.0)],
            );
            i.cmod = c;
            i
        };
        let mut sel = Inst::new(
            Op::Alu(Opcode::Sel),
            Dst::fixed(114, RegType::F, 0xf),
            vec![Src::reg(File::Attr, 0, RegType::F), Src::imm_f(1.0)],
        );
        sel.pred = Some(false);
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![cmp(0, CondMod::L), cmp(u32::MAX, CondMod::L), sel],
            num_vgrfs: 1,
        };
        assert!(dead_code_eliminate(&mut p));
        assert_eq!(p.insts.len(), 2);
        assert_eq!(p.insts[0].dst.file, File::Null);
    }

    #[test]
    fn flag_writes_read_later_stay() {
        let mut cmp = Inst::new(
            Op::Alu(Opcode::Cmp),
            Dst::vgrf(0, RegType::D, 0xf),
            vec![Src::imm_f(1.0), Src::imm_f(2.0)],
        );
        cmp.cmod = CondMod::L;
        let mut sel = Inst::new(
            Op::Alu(Opcode::Sel),
            Dst::fixed(114, RegType::F, 0xf),
            vec![Src::reg(File::Attr, 0, RegType::F), Src::imm_f(1.0)],
        );
        sel.pred = Some(false);
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![cmp, sel],
            num_vgrfs: 1,
        };
        // The compare stays for its flag; its unread value goes to the null register, with
        // the write mask that selects the flag channels kept.
        assert!(dead_code_eliminate(&mut p));
        assert!(!dead_code_eliminate(&mut p));
        assert_eq!(p.insts.len(), 2);
        assert_eq!(p.insts[0].dst.file, File::Null);
        assert_eq!(p.insts[0].dst.writemask, 0xf);
        assert_eq!(p.insts[0].dst.ty, RegType::D);
    }
}
