//! The header steps on small hand-built programs, each expectation derived from what the
//! header register or a read header holds on every path (including both branches of an
//! `if` running, `then` first, when the two halves diverge).

use crate::intel::eu::{Opcode, RegType};

use super::super::ir::{
    Dst, File, Inst, Op, Program, Src, HEADER_BASE, HEADER_MASK, HEADER_OFFSETS,
};
use super::super::urb::HEADER;
use super::{reuse_write_header, share_read_headers};

const ALL: u8 = HEADER_BASE | HEADER_MASK | HEADER_OFFSETS;

fn prog(insts: Vec<Inst>) -> Program {
    Program {
        insts,
        num_vgrfs: 16,
        interleaved_attrs: false,
    }
}

/// A write header into the header register, per-slot offsets from x of `offset`.
fn write_header(mask: u8, offset: Option<u32>) -> Inst {
    Inst::new(
        Op::TcsOutputHeader { mask, held: 0 },
        Dst::fixed(HEADER, RegType::UD, 0xf),
        offset
            .map(|r| Src::vgrf(r, RegType::UD))
            .into_iter()
            .collect(),
    )
}

fn flow(op: Op) -> Inst {
    Inst::new(op, Dst::null(RegType::UD), vec![])
}

fn write_to(nr: u32) -> Inst {
    Inst::new(
        Op::Alu(Opcode::Add),
        Dst::vgrf(nr, RegType::UD, 0xf),
        vec![Src::vgrf(nr, RegType::UD), Src::imm(RegType::UD, 1)],
    )
}

/// The `held` of each write header left, in order.
fn helds(p: &Program) -> Vec<u8> {
    p.insts
        .iter()
        .filter_map(|i| match i.op {
            Op::TcsOutputHeader { held, .. } if i.dst.file == File::Fixed => Some(held),
            _ => None,
        })
        .collect()
}

#[test]
fn a_repeated_write_header_goes_and_a_new_mask_is_all_that_is_written() {
    let mut p = prog(vec![
        write_header(0xf, None),
        write_header(0xf, None),
        write_header(0x3, None),
        write_header(0x3, Some(2)),
        write_header(0x3, Some(2)),
        write_to(2),
        write_header(0x3, Some(2)),
        write_header(0x3, None),
    ]);
    assert!(reuse_write_header(&mut p));
    assert_eq!(
        helds(&p),
        vec![
            0,
            HEADER_BASE | HEADER_OFFSETS,
            HEADER_BASE | HEADER_MASK,
            // The offsets register was written since: its new x copied again.
            HEADER_BASE | HEADER_MASK,
            // Back to no offsets: dwords 3 and 4 cleared.
            HEADER_BASE | HEADER_MASK,
        ]
    );
    // The second header and the one repeating offsets 2 unchanged are gone.
    assert_eq!(p.insts.len(), 6);
}

#[test]
fn an_else_sees_what_its_then_wrote_and_an_endif_what_either_did() {
    const BO: u8 = HEADER_BASE | HEADER_OFFSETS;
    let mut p = prog(vec![
        write_header(0xf, None),
        flow(Op::If),
        write_header(0x1, None),
        flow(Op::Else),
        // The then branch may have run first (diverging halves): its mask may be there.
        write_header(0xf, None),
        flow(Op::EndIf),
        // Mask 0x1 when only the then ran, 0xf otherwise.
        write_header(0xf, None),
        flow(Op::If),
        write_header(0x1, None),
        flow(Op::Else),
        write_header(0x1, None),
        flow(Op::EndIf),
        // Mask 0x1 whichever ran: nothing left to write.
        write_header(0x1, None),
    ]);
    let before = p.insts.len();
    assert!(reuse_write_header(&mut p));
    assert_eq!(helds(&p), vec![0, BO, BO, BO, BO, BO]);
    assert_eq!(p.insts.len(), before - 1);
    assert!(!p.insts.iter().any(|i| matches!(
        i.op,
        Op::TcsOutputHeader { held, .. } if held == ALL
    )));
}

#[test]
fn a_loop_or_another_message_in_the_header_register_forgets_the_header() {
    let mut p = prog(vec![
        write_header(0xf, None),
        flow(Op::Do),
        write_header(0xf, None),
        flow(Op::While),
        write_header(0xf, None),
        Inst::new(
            Op::TcsBarrierHeader { instances: 2 },
            Dst::fixed(HEADER, RegType::UD, 0xf),
            vec![],
        ),
        write_header(0xf, None),
    ]);
    assert!(!reuse_write_header(&mut p));
    assert_eq!(helds(&p), vec![0, 0, 0, 0]);
}

fn input_header(vertex: Src, offset: Option<u32>, dst: u32) -> Inst {
    let mut src = vec![vertex];
    src.extend(offset.map(|r| Src::vgrf(r, RegType::UD)));
    Inst::new(Op::TcsInputHeader, Dst::vgrf(dst, RegType::UD, 0xf), src)
}

fn read(header: u32, dst: u32) -> Inst {
    Inst::new(
        Op::UrbRead { offset: 1 },
        Dst::vgrf(dst, RegType::D, 0xf),
        vec![Src::vgrf(header, RegType::UD)],
    )
}

/// The header register each read reads.
fn read_headers(p: &Program) -> Vec<u32> {
    p.insts
        .iter()
        .filter(|i| matches!(i.op, Op::UrbRead { .. }))
        .map(|i| i.src[0].nr)
        .collect()
}

#[test]
fn an_input_header_built_again_is_shared_until_its_sources_change() {
    let v0 = Src::imm(RegType::UD, 0);
    let mut p = prog(vec![
        input_header(v0, None, 1),
        read(1, 10),
        input_header(v0, None, 3),
        read(3, 11),
        input_header(v0, Some(5), 4),
        read(4, 12),
        input_header(v0, Some(5), 6),
        read(6, 13),
        write_to(5),
        input_header(v0, Some(5), 7),
        read(7, 14),
    ]);
    assert!(share_read_headers(&mut p));
    assert_eq!(read_headers(&p), vec![1, 1, 4, 4, 7]);
    assert_eq!(p.insts.len(), 9);
}

#[test]
fn headers_of_a_branch_or_a_loop_body_are_not_shared_outside_it() {
    let v0 = Src::imm(RegType::UD, 0);
    let mut p = prog(vec![
        flow(Op::If),
        input_header(v0, None, 1),
        read(1, 10),
        flow(Op::Else),
        input_header(v0, None, 2),
        read(2, 11),
        flow(Op::EndIf),
        input_header(v0, None, 3),
        read(3, 12),
        input_header(v0, Some(5), 4),
        read(4, 13),
        flow(Op::Do),
        // The offsets may differ on the back edge; the header without any does not.
        input_header(v0, Some(5), 6),
        read(6, 14),
        input_header(v0, None, 7),
        read(7, 15),
        write_to(5),
        flow(Op::While),
    ]);
    assert!(share_read_headers(&mut p));
    assert_eq!(read_headers(&p), vec![1, 2, 3, 4, 6, 3]);
}
