//! Dead-code elimination: an instruction whose only effect is writing a virtual register
//! that nothing reads is removed.

use super::super::ir::{File, Program};

/// Removes writes of registers never read; true when something was removed.
pub fn dead_code(prog: &mut Program) -> bool {
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
    let before = prog.insts.len();
    prog.insts.retain(|i| {
        i.has_side_effects()
            || i.dst.file != File::Vgrf
            || read.get(i.dst.nr as usize).copied().unwrap_or(true)
    });
    prog.insts.len() != before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{CondMod, Opcode, RegType};
    use crate::intel::vec4::ir::{Dst, Inst, Op, Src};

    fn mov(d: u32, s: Src) -> Inst {
        Inst::new(Op::Alu(Opcode::Mov), Dst::vgrf(d, RegType::F, 0xf), vec![s])
    }

    #[test]
    fn unread_writes_go_and_their_sources_follow() {
        let mut p = Program {
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
        assert!(dead_code(&mut p));
        assert!(dead_code(&mut p));
        assert!(!dead_code(&mut p));
        assert_eq!(p.to_string(), "mov v2F, 0x40000000F\nmov g114F, v2F\n");
    }

    #[test]
    fn flag_writes_stay() {
        let mut cmp = Inst::new(
            Op::Alu(Opcode::Cmp),
            Dst::vgrf(0, RegType::D, 0xf),
            vec![Src::imm_f(1.0), Src::imm_f(2.0)],
        );
        cmp.cmod = CondMod::L;
        let mut p = Program {
            insts: vec![cmp],
            num_vgrfs: 1,
        };
        assert!(!dead_code(&mut p));
    }
}
