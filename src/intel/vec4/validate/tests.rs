//! Each rule of the validator: a valid program passes, and the same program with one
//! invariant broken is rejected with a message naming what broke.

use super::validate;
use crate::intel::eu::{CondMod, MathFn, Opcode, RegType};
use crate::intel::vec4::ir::{replicate, Dst, File, Inst, Op, Program, Src, TexMsg, UrbKind};

const F: RegType = RegType::F;

fn alu(op: Opcode, dst: Dst, src: Vec<Src>) -> Inst {
    Inst::new(Op::Alu(op), dst, src)
}

fn flow(op: Op) -> Inst {
    Inst::new(op, Dst::null(F), vec![])
}

/// Indices of the instructions the tests break.
const MOV: usize = 0;
const CMP: usize = 1;
const IF: usize = 2;
const ADD: usize = 3;
const ELSE: usize = 4;
const ENDIF: usize = 6;
const BREAK: usize = 8;
const MATH: usize = 10;
const PULL: usize = 11;
const HEADER: usize = 12;
const TEX: usize = 15;
const URB_HEADER: usize = 16;
const URB_WRITE: usize = 18;

/// Something of every kind the translator emits: ALU, a flag write, IF/ELSE, a loop with a
/// predicated BREAK, math, a pull load, a sampler message and the URB write that ends it.
fn valid() -> Program {
    let v = |nr| Src::vgrf(nr, F);
    let insts = vec![
        alu(
            Opcode::Mov,
            Dst::vgrf(0, F, 0xf),
            vec![Src::reg(File::Attr, 0, F)],
        ),
        Inst {
            cmod: CondMod::Nz,
            ..alu(Opcode::Cmp, Dst::null(F), vec![v(0), Src::imm_f(0.0)])
        },
        Inst {
            pred: Some(false),
            ..flow(Op::If)
        },
        alu(
            Opcode::Add,
            Dst::vgrf(1, F, 0xf),
            vec![v(0), Src::imm_f(1.0)],
        ),
        flow(Op::Else),
        alu(
            Opcode::Mov,
            Dst::vgrf(1, F, 0xf),
            vec![Src::reg(File::Uniform, 0, F)],
        ),
        flow(Op::EndIf),
        flow(Op::Do),
        Inst {
            pred: Some(true),
            ..flow(Op::Break)
        },
        flow(Op::While),
        Inst::new(Op::Math(MathFn::Rsq), Dst::vgrf(2, F, 0x3), vec![v(1)]),
        Inst::new(
            Op::PullLoad {
                surface: 1,
                indexed: false,
            },
            Dst::vgrf(3, F, 0xf),
            vec![v(2).swizzled(replicate(0))],
        ),
        Inst::new(
            Op::SamplerHeader { offset_bits: 0x100 },
            Dst::fixed(114, RegType::UD, 0xf),
            vec![Src::reg(File::Fixed, 0, RegType::UD)],
        ),
        alu(Opcode::Mov, Dst::fixed(115, F, 0xf), vec![v(3)]),
        alu(
            Opcode::Mad,
            Dst::fixed(116, F, 0x1),
            vec![v(3), v(1), Src::reg(File::Attr, 0, F)],
        ),
        Inst::new(
            Op::Tex {
                msg: TexMsg::SampleL,
                surface: 0,
                sampler: 0,
                header: true,
                indexed: false,
            },
            Dst::vgrf(4, F, 0xf),
            (114..117).map(|nr| Src::reg(File::Fixed, nr, F)).collect(),
        ),
        Inst::new(
            Op::UrbHeader,
            Dst::fixed(113, RegType::UD, 0xf),
            vec![Src::reg(File::Fixed, 0, RegType::UD)],
        ),
        alu(Opcode::Mov, Dst::fixed(114, F, 0xf), vec![v(4)]),
        Inst::new(
            Op::UrbWrite {
                offset: 0,
                mlen: 3,
                eot: true,
                kind: UrbKind::Vertex,
            },
            Dst::null(F),
            vec![Src::reg(File::Fixed, 113, F)],
        ),
    ];
    Program {
        insts,
        num_vgrfs: 5,
        interleaved_attrs: false,
    }
}

/// `valid()` changed by `f` fails validation with a message containing `what`.
fn rejects(what: &str, f: impl FnOnce(&mut Program)) {
    let mut p = valid();
    f(&mut p);
    match validate(&p) {
        Ok(()) => panic!("accepted a program with {what}:\n{p}"),
        Err(e) => assert!(e.contains(what), "expected '{what}', got '{e}'"),
    }
}

#[test]
fn the_example_is_valid() {
    validate(&valid()).unwrap();
    // Before the URB writes are appended a program has no end of thread, and that is valid.
    let mut p = valid();
    p.insts.truncate(URB_HEADER);
    validate(&p).unwrap();
}

#[test]
fn registers_lie_within_their_files() {
    rejects("Vgrf register 5 of 5", |p| p.insts[MOV].dst.nr = 5);
    rejects("source 0: Vgrf register 9 of 5", |p| {
        p.insts[ADD].src[0].nr = 9
    });
    rejects("Fixed register 128 of 128", |p| {
        p.insts[URB_HEADER + 1].dst.nr = 128
    });
    rejects("Attr register 112 of 112", |p| p.insts[MOV].src[0].nr = 112);
    rejects("Uniform register 64 of 64", |p| {
        p.insts[ELSE + 1].src[0].nr = 64
    });
}

#[test]
fn operands_are_of_kinds_the_instruction_can_have() {
    rejects("a destination in Attr", |p| {
        p.insts[MOV].dst.file = File::Attr
    });
    rejects("a null source", |p| {
        p.insts[ADD].src[1] = Src::reg(File::Null, 0, F)
    });
    rejects("a modifier on an immediate", |p| {
        p.insts[ADD].src[1] = Src::imm_f(1.0).negated()
    });
    rejects("a swizzle on a vector immediate", |p| {
        p.insts[MOV].src[0] = Src::imm(RegType::VF, 0x3830_2000).swizzled(replicate(1))
    });
}

#[test]
fn write_masks_are_four_bits_and_not_empty() {
    rejects("write mask 0x0", |p| p.insts[MOV].dst.writemask = 0);
    rejects("write mask 0x1f", |p| p.insts[MOV].dst.writemask = 0x1f);
}

#[test]
fn alu_instructions_have_their_sources_and_immediates_where_encodable() {
    rejects("1 sources, not 2", |p| {
        p.insts[ADD].src.pop();
    });
    rejects("source 0 in Imm not encodable", |p| {
        p.insts[CMP].src.swap(0, 1)
    });
    rejects("source 1 in Uniform not encodable", |p| {
        p.insts[TEX - 1].src[1] = Src::reg(File::Uniform, 0, F)
    });
    rejects("send as a plain ALU instruction", |p| {
        p.insts[ADD].op = Op::Alu(Opcode::Send)
    });
    rejects("2 sources, not 1", |p| {
        p.insts[MATH].src.push(Src::vgrf(0, F))
    });
    rejects("1 sources, not 2", |p| {
        p.insts[MATH].op = Op::Math(MathFn::Pow)
    });
    rejects("an immediate in a math instruction", |p| {
        p.insts[MATH].src[0] = Src::imm_f(2.0)
    });
}

#[test]
fn predicates_and_modifiers_only_where_they_are_honoured() {
    rejects("predicate control 3", |p| p.insts[BREAK].pred_ctrl = 3);
    rejects("a predicate it cannot have", |p| {
        p.insts[URB_HEADER].pred = Some(false)
    });
    rejects("a predicate it cannot have", |p| {
        p.insts[ENDIF].pred = Some(false)
    });
    rejects("a conditional modifier or saturate", |p| {
        p.insts[URB_WRITE].cmod = CondMod::Z
    });
    rejects("a conditional modifier or saturate", |p| {
        p.insts[PULL].sat = true
    });
}

#[test]
fn messages_are_whole_registers_laid_out_as_sent() {
    rejects("message length 2", |p| {
        p.insts[URB_WRITE].op = Op::UrbWrite {
            offset: 0,
            mlen: 2,
            eot: true,
            kind: UrbKind::Vertex,
        }
    });
    rejects("a message not in fixed registers", |p| {
        p.insts[URB_WRITE].src[0] = Src::vgrf(0, F)
    });
    rejects("a swizzle or modifier on a message register", |p| {
        p.insts[URB_WRITE].src[0].swizzle = replicate(0)
    });
    rejects("a destination on a write message", |p| {
        p.insts[URB_WRITE].dst = Dst::vgrf(0, F, 0xf)
    });
    rejects(
        "an end-of-thread URB write before the last instruction",
        |p| {
            let last = p.insts.pop().unwrap();
            p.insts.insert(URB_HEADER, last);
        },
    );
    rejects("message registers not consecutive", |p| {
        p.insts[TEX].src.swap(1, 2)
    });
    rejects("4 message registers", |p| {
        p.insts[TEX].src.push(Src::reg(File::Fixed, 117, F))
    });
    rejects("without a reply register", |p| {
        p.insts[TEX].dst = Dst::null(F)
    });
    rejects("an offset swizzle whose first channel is not x", |p| {
        p.insts[PULL].src[0] = Src::vgrf(2, F).swizzled(replicate(1))
    });
    rejects("g0 is not its source", |p| {
        p.insts[HEADER].src[0] = Src::vgrf(0, F)
    });
    rejects("a header outside the fixed registers", |p| {
        p.insts[HEADER].dst = Dst::vgrf(0, RegType::UD, 0xf)
    });
}

#[test]
fn spill_messages_move_whole_virtual_registers() {
    let fill = |p: &mut Program, dst| {
        p.insts
            .insert(PULL, Inst::new(Op::ScratchRead { slot: 0 }, dst, vec![]))
    };
    let mut ok = valid();
    fill(&mut ok, Dst::vgrf(2, F, 0xf));
    validate(&ok).unwrap();
    rejects("a fill not of a whole virtual register", |p| {
        fill(p, Dst::vgrf(2, F, 0x1))
    });
    rejects("a spill of something other than a virtual register", |p| {
        p.insts.insert(
            PULL,
            Inst::new(
                Op::ScratchWrite { slot: 0 },
                Dst::null(F),
                vec![Src::reg(File::Attr, 0, F)],
            ),
        )
    });
}

#[test]
fn control_flow_nests() {
    rejects("ELSE outside an IF", |p| {
        p.insts.remove(IF);
    });
    rejects("a second ELSE for one IF", |p| {
        p.insts.insert(ELSE + 1, flow(Op::Else))
    });
    rejects("ENDIF without its IF", |p| {
        p.insts[BREAK + 1] = flow(Op::EndIf)
    });
    rejects("WHILE without its DO", |p| p.insts[ENDIF] = flow(Op::While));
    rejects("BREAK or CONTINUE outside a loop", |p| {
        p.insts.insert(MOV + 1, flow(Op::Continue))
    });
    rejects("If never closed", |p| {
        p.insts.remove(ENDIF);
    });
    rejects("1 sources, not 0", |p| {
        p.insts[IF].src.push(Src::vgrf(0, F))
    });
}
