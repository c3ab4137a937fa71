//! Lowering passes the hardware requires, each a plain function over a [`Program`] that
//! reports whether it changed anything.

use crate::intel::eu::types::sfid;
use crate::intel::eu::{CondMod, MathFn, Opcode, RegType};
use crate::intel::msg::{
    Lengths, RenderTargetWriteDesc, RtSubtype, SamplerDesc, SamplerMsg, SimdMode,
};
use crate::intel::DevInfo;

use super::ir::{File, Inst, Op, Program, Reg, TexKind, REG_SIZE};

/// Turns FB_WRITE and TEX into a LOAD_PAYLOAD of their message and a SEND.
///
/// Render-target writes go headerless (Gen6+ allows it for a single write of RT0..n with no
/// per-sample mask) except dual-source ones, and samples use the headerless SIMD8/SIMD16
/// messages unless they carry texel offsets (a TEX whose `header_size` is 1 has the header as
/// its first source).
///
/// A SIMD32 sampler or render-target instruction becomes two SIMD16 messages first (see
/// [`split_simd32_send`]): no message on these generations takes 32 channels.
pub fn lower_logical_sends(devinfo: &DevInfo, prog: &mut Program) -> bool {
    let mut progress = false;
    let old = std::mem::take(&mut prog.insts);
    let mut tail = Vec::new();
    for inst in old {
        if inst.exec_size > 16 && matches!(inst.op, Op::FbWrite { .. } | Op::Tex { .. }) {
            for (h, half) in split_simd32_send(prog, inst, &mut tail)
                .into_iter()
                .enumerate()
            {
                match half.op {
                    Op::FbWrite { target, last } if is_dual_source(&half) => {
                        lower_dual_source_write(devinfo, prog, &half, target, last && h == 1)
                    }
                    Op::FbWrite { target, last } => {
                        lower_fb_write(devinfo, prog, &half, target, last, last && h == 1)
                    }
                    _ => {
                        lower_logical_send(devinfo, prog, half);
                    }
                }
            }
            prog.insts.append(&mut tail);
            progress = true;
        } else {
            progress |= lower_logical_send(devinfo, prog, inst);
        }
    }
    progress
}

/// Splits a SIMD32 FB_WRITE or TEX into its two SIMD16 halves (Mesa's `lower_simd_width`
/// for logical sends). Sources move 16 channels on for the second half (header and scalar
/// sources stay). A render-target write's halves both carry "last render target" (as
/// Mesa's split copies keep `last_rt`), and only the second ends the thread; the halves'
/// group selects the slot group in the descriptor. A sample's halves reply into registers
/// of their own, which the moves left in `tail` interleave into the 32-channel result.
fn split_simd32_send(prog: &mut Program, inst: Inst, tail: &mut Vec<Inst>) -> [Inst; 2] {
    let width = inst.exec_size as u32 / 2;
    let header = inst.header_size as usize;
    let half = |h: u32, prog: &mut Program, tail: &mut Vec<Inst>| {
        let mut part = inst.clone();
        part.exec_size = width as u8;
        part.group = inst.group + (h * width) as u8;
        for s in part.src.iter_mut().skip(header) {
            *s = split_operand(*s, h * width);
        }
        if let Op::Tex { .. } = inst.op {
            // Four components of `per` registers each, at both widths.
            let per = (width * 4).div_ceil(REG_SIZE);
            let tmp = prog.alloc(4 * per);
            part.dst = Reg::vgrf(tmp, inst.dst.ty);
            for c in 0..4 {
                let mut mov = Inst::new(
                    Op::Alu(Opcode::Mov),
                    width as u8,
                    inst.dst
                        .reg_offset(2 * per * c + per * h)
                        .retype(RegType::UD),
                    vec![Reg::vgrf(tmp, RegType::UD).reg_offset(per * c)],
                );
                mov.group = part.group;
                mov.pred = inst.pred;
                mov.flag_subnr = inst.flag_subnr;
                tail.push(mov);
            }
        }
        part
    };
    [half(0, prog, tail), half(1, prog, tail)]
}

/// Lowers one logical send (at most 16 channels); returns whether it was one.
fn lower_logical_send(devinfo: &DevInfo, prog: &mut Program, inst: Inst) -> bool {
    match inst.op {
        Op::FbWrite { target, last } if is_dual_source(&inst) => {
            lower_dual_source_write(devinfo, prog, &inst, target, last);
        }
        Op::FbWrite { target, last } => {
            lower_fb_write(devinfo, prog, &inst, target, last, last);
        }
        Op::Tex {
            kind,
            surface,
            sampler,
            indexed,
        } => {
            let per = regs_per_component(&inst);
            let mut params = inst.src.clone();
            // An array index goes to the descriptor, not the payload.
            let index = if indexed { params.pop() } else { None };
            // A header (texel offsets) is one register ahead of the parameters.
            let header = inst.header_size.min(1) as u32;
            let n = params.len() as u32 - header;
            let payload = prog.alloc(header + n * per);
            let mut lp = Inst::new(
                Op::LoadPayload,
                inst.exec_size,
                Reg::vgrf(payload, RegType::F),
                params,
            );
            lp.group = inst.group;
            lp.header_size = header as u8;
            prog.insts.push(lp);
            let msg_type = match kind {
                TexKind::Sample => SamplerMsg::SAMPLE,
                TexKind::SampleB => SamplerMsg::SAMPLE_B,
                TexKind::SampleL => SamplerMsg::SAMPLE_L,
                TexKind::SampleC => SamplerMsg::SAMPLE_C,
                TexKind::SampleD => SamplerMsg::SAMPLE_D,
                TexKind::SampleLC => SamplerMsg::SAMPLE_L_C,
                TexKind::Ld => SamplerMsg::LD,
                TexKind::Resinfo => SamplerMsg::RESINFO,
            };
            let mlen = header + n * per;
            let rlen = 4 * per;
            let desc = SamplerDesc {
                len: Lengths::new(mlen, rlen, header != 0),
                binding_table_index: surface as u32,
                sampler: sampler as u32,
                msg_type,
                simd_mode: if inst.exec_size == 16 {
                    SimdMode::SIMD16
                } else {
                    SimdMode::SIMD8
                },
                return_format: 0,
            }
            .encode(devinfo.ver);
            let mut send = Inst::new(
                Op::Send,
                inst.exec_size,
                inst.dst,
                std::iter::once(Reg::vgrf(payload, RegType::UD))
                    .chain(index)
                    .collect(),
            );
            send.mlen = mlen as u8;
            send.rlen = rlen as u8;
            send.desc = desc;
            send.sfid = sfid::SAMPLER;
            send.group = inst.group;
            send.pred = inst.pred;
            send.flag_subnr = inst.flag_subnr;
            prog.insts.push(send);
        }
        _ => {
            prog.insts.push(inst);
            return false;
        }
    }
    true
}

/// A single-source render-target write of at most 16 channels: its payload (the colour,
/// then optional depth) and the SEND. `last_rt` sets the last-render-target bit, `eot` ends
/// the thread; a write for channels 16-31 of a SIMD32 thread selects slot group 1 (bit 11).
fn lower_fb_write(
    devinfo: &DevInfo,
    prog: &mut Program,
    inst: &Inst,
    target: u8,
    last_rt: bool,
    eot: bool,
) {
    let per = regs_per_component(inst);
    let n = inst.src.len() as u32;
    let payload = prog.alloc(n * per);
    let mut lp = Inst::new(
        Op::LoadPayload,
        inst.exec_size,
        Reg::vgrf(payload, RegType::F),
        inst.src.clone(),
    );
    lp.group = inst.group;
    prog.insts.push(lp);
    let mlen = n * per;
    let desc = RenderTargetWriteDesc {
        len: Lengths::new(mlen, 0, false),
        binding_table_index: target as u32,
        subtype: RtSubtype::single(inst.exec_size),
        slot_group_high: inst.group >= 16,
        last_render_target: last_rt,
        write_commit: false,
    }
    .encode(devinfo.ver);
    let mut send = Inst::new(
        Op::Send,
        inst.exec_size,
        Reg::null(RegType::UW),
        vec![Reg::vgrf(payload, RegType::UD)],
    );
    send.mlen = mlen as u8;
    send.desc = desc;
    send.sfid = sfid::RENDER_CACHE;
    send.eot = eot;
    send.group = inst.group;
    send.pred = inst.pred;
    send.flag_subnr = inst.flag_subnr;
    prog.insts.push(send);
}

/// A render-target write carrying two colours (eight colour sources, then optional depth):
/// dual-source blending.
fn is_dual_source(inst: &Inst) -> bool {
    matches!(inst.src.len(), 8 | 9)
}

/// Dual-source render-target writes exist only as SIMD8 messages (subtype 2 covers subspans
/// 0-1, subtype 3 subspans 2-3), so a SIMD16 write becomes two, the second with the
/// second-half controls and reading the upper register of every source; only that one ends
/// the thread. The PRM requires the two-register header (g0, g1: dispatched pixel enables)
/// on every dual-source message.
fn lower_dual_source_write(
    devinfo: &DevInfo,
    prog: &mut Program,
    inst: &Inst,
    target: u8,
    last: bool,
) {
    let halves = (inst.exec_size as u32).div_ceil(8);
    for h in 0..halves {
        let srcs: Vec<Reg> = [
            Reg::fixed(0, 0, RegType::UD, 1),
            Reg::fixed(1, 0, RegType::UD, 1),
        ]
        .into_iter()
        .chain(inst.src.iter().map(|s| {
            if h > 0 && s.stride != 0 && matches!(s.file, File::Vgrf | File::Fixed) {
                s.reg_offset(h)
            } else {
                *s
            }
        }))
        .collect();
        let mlen = srcs.len() as u32;
        let payload = prog.alloc(mlen);
        let group = inst.group + 8 * h as u8;
        let mut lp = Inst::new(Op::LoadPayload, 8, Reg::vgrf(payload, RegType::F), srcs);
        lp.header_size = 2;
        lp.group = group;
        prog.insts.push(lp);
        let end = last && h + 1 == halves;
        let desc = RenderTargetWriteDesc {
            len: Lengths::new(mlen, 0, true),
            binding_table_index: target as u32,
            subtype: RtSubtype::dual(group),
            slot_group_high: group >= 16,
            last_render_target: end,
            write_commit: false,
        }
        .encode(devinfo.ver);
        let mut send = Inst::new(
            Op::Send,
            8,
            Reg::null(RegType::UW),
            vec![Reg::vgrf(payload, RegType::UD)],
        );
        send.mlen = mlen as u8;
        send.desc = desc;
        send.sfid = sfid::RENDER_CACHE;
        send.eot = end;
        send.group = group;
        send.pred = inst.pred;
        send.flag_subnr = inst.flag_subnr;
        prog.insts.push(send);
    }
}

fn regs_per_component(inst: &Inst) -> u32 {
    (inst.exec_size as u32 * 4).div_ceil(REG_SIZE)
}

/// Expands LOAD_PAYLOAD into moves, as shared/seeds/000 settles it.
///
/// A header source is one physical register that applies to every channel, so it is copied as
/// one register with write-mask-all whatever the instruction's width. Every other source is a
/// full-width value and is copied with the instruction's own execution controls and saturate,
/// so that a payload built inside control flow only touches the enabled channels. A COMPR4
/// destination (Gen4/5 render-target writes) interleaves the first four colour sources as
/// r0 g0 b0 a0 r1 g1 b1 a1: one COMPR4 move each where the platform has COMPR4, otherwise
/// two SIMD8 moves, the second with the second-half controls, to m+4.
pub fn lower_load_payload(devinfo: &DevInfo, prog: &mut Program) -> bool {
    let mut progress = false;
    let old = std::mem::take(&mut prog.insts);
    for inst in old {
        if inst.op != Op::LoadPayload {
            prog.insts.push(inst);
            continue;
        }
        progress = true;
        let mut dst = inst.dst;
        for src in &inst.src[..inst.header_size as usize] {
            if src.file != File::Bad {
                let mut mov = Inst::new(
                    Op::Alu(Opcode::Mov),
                    8,
                    dst.retype(RegType::UD),
                    vec![src.retype(RegType::UD)],
                );
                mov.we_all = true;
                prog.insts.push(mov);
            }
            dst = dst.reg_offset(1);
        }
        let copy = |prog: &mut Program, dst: Reg, src: Reg, exec: u8, group: u8| {
            let mut mov = Inst::new(Op::Alu(Opcode::Mov), exec, dst.retype(src.ty), vec![src]);
            mov.we_all = inst.we_all;
            mov.sat = inst.sat;
            mov.group = group;
            prog.insts.push(mov);
        };
        let mut rest = &inst.src[inst.header_size as usize..];
        if inst.compr4 && inst.exec_size > 8 {
            for (i, src) in rest.iter().take(4).enumerate() {
                if src.file == File::Bad {
                    continue;
                }
                let d = dst.reg_offset(i as u32);
                if devinfo.has_compr4 {
                    copy(prog, d, *src, inst.exec_size, inst.group);
                    prog.insts.last_mut().unwrap().compr4 = true;
                } else {
                    copy(prog, d, *src, 8, inst.group);
                    copy(
                        prog,
                        d.reg_offset(4),
                        src.horiz_offset(8),
                        8,
                        inst.group + 8,
                    );
                }
            }
            rest = &rest[rest.len().min(4)..];
            dst = dst.reg_offset(8);
        }
        for src in rest {
            let size = (inst.exec_size as u32 * src.ty.size()).div_ceil(REG_SIZE);
            if src.file != File::Bad {
                copy(prog, dst, *src, inst.exec_size, inst.group);
            }
            dst = dst.reg_offset(size);
        }
    }
    progress
}

/// The execution type the hardware uses to decide how an instruction decompresses: the
/// widest source type (the destination does not take part).
fn exec_type_size(inst: &Inst) -> u32 {
    inst.src
        .iter()
        .filter(|s| s.file != File::Bad)
        .map(|s| s.ty.size())
        .max()
        .unwrap_or(4)
}

/// The widest width `inst` may run at on `devinfo`: the minimum over every applicable limit.
pub fn max_simd_width(devinfo: &DevInfo, inst: &Inst) -> u8 {
    // No instruction on Gen7-Gen9 runs more than 16 channels (a SIMD32 program is made of
    // SIMD16 halves, as Mesa's `get_lowered_simd_width` splits it).
    // Uniformize reads the whole execution mask and is generated per half (see codegen).
    if inst.op == Op::Uniformize {
        return inst.exec_size;
    }
    let mut width = inst.exec_size.min(16);
    // Pre-Gen8 EUs apply QtrCtrl+1 (NibCtrl+1 for double-precision execution) to the second
    // GRF written by a compressed instruction, which is only right when each GRF holds exactly
    // 8 channels (4 for DF); otherwise split so every part writes one GRF (seed 002).
    let written = inst.regs_written();
    if devinfo.ver < 80 && !inst.we_all && written > 1 && !inst.op.is_send() {
        let channels_per_grf = (inst.exec_size as u32 / written).max(1);
        let want = if exec_type_size(inst) == 8 { 4 } else { 8 };
        if channels_per_grf != want {
            width = width.min(channels_per_grf as u8);
        }
    }
    match inst.op {
        Op::Alu(o) if o.is_three_src() && !devinfo.supports_simd16_3src => width = width.min(8),
        Op::Math(MathFn::IntDivQuotient | MathFn::IntDivRemainder) => width = width.min(8),
        Op::DdyFine => width = width.min(8),
        // The MUL/MACH pair works on the accumulator, which holds 8 dwords.
        Op::MulHigh => width = width.min(8),
        Op::Math(_) if devinfo.ver < 70 => width = width.min(8),
        Op::Alu(Opcode::Mul)
            if devinfo.ver < 80
                && inst
                    .src
                    .iter()
                    .all(|s| matches!(s.ty, RegType::D | RegType::UD)) =>
        {
            width = width.min(8)
        }
        _ => {}
    }
    width
}

/// Splits what must be split before optimization; an instruction of the program's full
/// width (16 or 32 channels) that the hardware takes only in narrower parts (SIMD32 in SIMD16
/// halves; on ivb three-source instructions in SIMD8 parts) stays whole until after register
/// allocation ([`split_to_hardware_width`]).
///
/// The parts are exactly the instructions an early split makes (the same operands, offset by
/// the part's channels), so keeping them whole changes nothing the hardware sees, but the
/// optimizer, the scheduler, liveness and the allocator walk far fewer instructions (about
/// half for a SIMD32 program), and passes that match whole instructions (copy propagation,
/// conditional-modifier propagation) see one where they saw parts. The allocator keeps the
/// parts' registers apart as it would an early split's: a value whose last read is the
/// instruction and the instruction's destination interfere, so no part overwrites what a later
/// part reads.
pub fn lower_simd_width(devinfo: &DevInfo, prog: &mut Program) -> bool {
    let widths = widths_before_allocation(devinfo, prog);
    split_to(prog, &widths)
}

/// The width each instruction is split to before optimization: its own (it stays whole)
/// unless it is split early. Split early are all that [`lower_simd_width`] cannot defer;
/// those that read or write a VGRF some narrower instruction already accesses by parts (the
/// payloads and replies of SIMD32's split messages), so that the value splits into VGRFs per
/// part (`split_virtual_grfs`) and each can be coalesced with its message; and those reading
/// their own destination's VGRF at another offset, where an earlier part's write could land
/// on what a later part still has to read. A copy split for the second reason passes it on
/// to the other VGRFs it touches, so chains of copies (phi moves into a payload) split whole.
fn widths_before_allocation(devinfo: &DevInfo, prog: &Program) -> Vec<u8> {
    let vgrf = |r: &Reg| (r.file == File::Vgrf).then_some(r.nr as usize);
    let width = prog
        .insts
        .iter()
        .filter(|i| !i.we_all)
        .map(|i| i.exec_size)
        .max()
        .unwrap_or(8)
        .max(16);
    let hardware: Vec<u8> = prog
        .insts
        .iter()
        .map(|inst| max_simd_width(devinfo, inst))
        .collect();
    let mut halved = vec![false; prog.vgrf_sizes.len()];
    let mut early: Vec<bool> = prog
        .insts
        .iter()
        .zip(&hardware)
        .map(|(inst, &hw)| {
            let deferrable =
                inst.exec_size == width && !inst.op.is_send() && !inst.op.is_flow() && hw < width;
            if !deferrable && inst.exec_size < width && !inst.we_all && !inst.op.is_flow() {
                for r in std::iter::once(&inst.dst).chain(&inst.src) {
                    if let Some(h) = vgrf(r).and_then(|n| halved.get_mut(n)) {
                        *h = true;
                    }
                }
            }
            !deferrable || overlaps_own_source(inst)
        })
        .collect();
    loop {
        let mut changed = false;
        for (inst, early) in prog.insts.iter().zip(&mut early) {
            if *early {
                continue;
            }
            let operands = || std::iter::once(&inst.dst).chain(&inst.src).filter_map(vgrf);
            if !operands().any(|n| halved[n]) {
                continue;
            }
            *early = true;
            changed = true;
            if inst.is_unmodified_mov() {
                for n in operands() {
                    halved[n] = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let kept = prog.insts.iter().map(|inst| inst.exec_size);
    (early.iter().zip(hardware).zip(kept))
        .map(|((&early, hw), own)| if early { hw } else { own })
        .collect()
}

/// After register allocation: splits what [`lower_simd_width`] kept whole (and anything else
/// still wider than the hardware allows) into the parts the hardware runs.
pub fn split_to_hardware_width(devinfo: &DevInfo, prog: &mut Program) -> bool {
    let widths: Vec<u8> = prog
        .insts
        .iter()
        .map(|inst| max_simd_width(devinfo, inst))
        .collect();
    split_to(prog, &widths)
}

/// Whether a source reads the destination's VGRF at another offset: there an earlier part's
/// write could land on what a later part still has to read, so such an instruction is split
/// before allocation, where each part gets its own live range.
fn overlaps_own_source(inst: &Inst) -> bool {
    inst.dst.file == File::Vgrf
        && inst
            .src
            .iter()
            .any(|s| s.file == File::Vgrf && s.nr == inst.dst.nr && s.offset != inst.dst.offset)
}

/// Splits each instruction into consecutive parts of its entry in `widths` channels.
pub(super) fn split_to(prog: &mut Program, widths: &[u8]) -> bool {
    let mut progress = false;
    let old = std::mem::take(&mut prog.insts);
    for (inst, &w) in old.into_iter().zip(widths) {
        if w >= inst.exec_size || inst.op.is_flow() {
            prog.insts.push(inst);
            continue;
        }
        progress = true;
        for i in 0..(inst.exec_size / w) {
            let ch = i as u32 * w as u32;
            let mut part = inst.clone();
            part.exec_size = w;
            part.group = inst.group + ch as u8;
            part.dst = split_operand(inst.dst, ch);
            for s in &mut part.src {
                *s = split_operand(*s, ch);
            }
            prog.insts.push(part);
        }
    }
    progress
}

fn split_operand(r: Reg, channels: u32) -> Reg {
    match r.file {
        File::Vgrf | File::Fixed | File::Mrf if r.stride != 0 => r.horiz_offset(channels),
        _ => r,
    }
}

/// Replaces 32×32-bit integer multiplies the platform cannot do in one instruction.
///
/// Gen7 and Gen8 multiply dwords natively (low 32 bits); the LP parts do not, and there the
/// product is built from 32×16 partial products.
pub fn lower_integer_multiplication(devinfo: &DevInfo, prog: &mut Program) -> bool {
    if devinfo.has_integer_dword_mul {
        return false;
    }
    let mut progress = false;
    let old = std::mem::take(&mut prog.insts);
    for inst in old {
        let is_dword_mul = inst.op == Op::Alu(Opcode::Mul)
            && matches!(inst.dst.ty, RegType::D | RegType::UD)
            && inst
                .src
                .iter()
                .all(|s| matches!(s.ty, RegType::D | RegType::UD));
        if !is_dword_mul {
            prog.insts.push(inst);
            continue;
        }
        progress = true;
        let regs = (inst.exec_size as u32 * 4).div_ceil(REG_SIZE);
        let lo = prog.alloc(regs);
        let hi = prog.alloc(regs);
        let (a, b) = (inst.src[0], inst.src[1]);
        // The two 16-bit halves of `b`: words of the register, or of the immediate's value
        // (a register's word view at byte offset 2 means nothing for an immediate, whose
        // high half once came out equal to its low half).
        let (low_half, high_half) = if b.file == File::Imm {
            let v = b.imm as u32;
            (
                Reg::imm(RegType::UW, v & 0xffff),
                Reg::imm(RegType::UW, v >> 16),
            )
        } else {
            let low = Reg {
                ty: RegType::UW,
                stride: if b.stride == 0 { 0 } else { b.stride * 2 },
                ..b
            };
            (
                low,
                Reg {
                    offset: b.offset + 2,
                    ..low
                },
            )
        };
        let mk = |op, dst, src: Vec<Reg>| {
            let mut i = inst.clone();
            i.op = op;
            i.dst = dst;
            i.src = src;
            i.cmod = CondMod::None;
            i.sat = false;
            i
        };
        prog.insts.push(mk(
            Op::Alu(Opcode::Mul),
            Reg::vgrf(lo, RegType::UD),
            vec![a.retype(RegType::UD), low_half],
        ));
        prog.insts.push(mk(
            Op::Alu(Opcode::Mul),
            Reg::vgrf(hi, RegType::UD),
            vec![a.retype(RegType::UD), high_half],
        ));
        prog.insts.push(mk(
            Op::Alu(Opcode::Shl),
            Reg::vgrf(hi, RegType::UD),
            vec![Reg::vgrf(hi, RegType::UD), Reg::imm(RegType::UD, 16)],
        ));
        let mut add = mk(
            Op::Alu(Opcode::Add),
            inst.dst,
            vec![Reg::vgrf(lo, RegType::UD), Reg::vgrf(hi, RegType::UD)],
        );
        add.cmod = inst.cmod;
        prog.insts.push(add);
    }
    progress
}

/// Gen6's MATH reads only GRFs through plain `<8;8,1>` regions and ignores source
/// modifiers (Mesa's `gfx6_math` asserts as much; Gen7 lifted both rules): every other
/// source (a negated or absolute value, a scalar such as a push constant, an immediate) is
/// first moved into a register of its own, and a destination that is not a whole register
/// of stride 1 is computed into one and moved from there.
///
/// It runs after the optimizer, which would otherwise propagate the modifiers and scalars
/// straight back into the MATH.
pub fn lower_math_gen6(devinfo: &DevInfo, prog: &mut Program) -> bool {
    if devinfo.ver >= 70 {
        return false;
    }
    let plain = |r: &Reg| {
        matches!(r.file, File::Vgrf | File::Fixed)
            && r.stride == 1
            && r.region.is_none()
            && !r.neg
            && !r.abs
    };
    if !prog.insts.iter().any(|i| {
        matches!(i.op, Op::Math(_)) && (i.src.iter().any(|s| !plain(s)) || i.dst.stride != 1)
    }) {
        return false;
    }
    let old = std::mem::take(&mut prog.insts);
    for mut inst in old {
        if !matches!(inst.op, Op::Math(_)) {
            prog.insts.push(inst);
            continue;
        }
        let per = (inst.exec_size as u32 * 4).div_ceil(REG_SIZE);
        for k in 0..inst.src.len() {
            let s = inst.src[k];
            if plain(&s) {
                continue;
            }
            let tmp = Reg::vgrf(prog.alloc(per), s.ty);
            let mut mov = Inst::new(Op::Alu(Opcode::Mov), inst.exec_size, tmp, vec![s]);
            mov.group = inst.group;
            mov.we_all = inst.we_all;
            prog.insts.push(mov);
            inst.src[k] = tmp;
        }
        if inst.dst.stride != 1 {
            let tmp = Reg::vgrf(prog.alloc(per), inst.dst.ty);
            let mut mov = Inst::new(Op::Alu(Opcode::Mov), inst.exec_size, inst.dst, vec![tmp]);
            mov.group = inst.group;
            mov.we_all = inst.we_all;
            mov.pred = inst.pred;
            mov.flag_subnr = inst.flag_subnr;
            mov.sat = std::mem::take(&mut inst.sat);
            mov.cmod = std::mem::replace(&mut inst.cmod, CondMod::None);
            inst.dst = tmp;
            inst.pred = None;
            prog.insts.push(inst);
            prog.insts.push(mov);
        } else {
            prog.insts.push(inst);
        }
    }
    true
}
