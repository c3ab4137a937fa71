//! The end of a vertex thread: the VUE written to the URB with SIMD4x2 interleaved writes
//! (Mesa's `emit_vertex` for Gen7).
//!
//! The message sits in the registers from [`MSG_BASE`] up, as Mesa places its message
//! registers on Gen7 (MRF n is GRF 112 + n, the header in MRF 1): the header (g0 with the
//! channel-enable byte set, `or(1) g.5 g0.5 0xff00`), then one register per VUE slot holding
//! both vertices' slot (interleaved). One write carries at most 12 slots; the message length
//! (header included) is kept odd so the data is whole 256-bit rows; the last write ends the
//! thread.

use std::collections::BTreeMap;

use crate::intel::eu::{Opcode, RegType};
use crate::intel::msg::{Lengths, UrbDesc};
use crate::intel::vue::{self, VueMap};

use super::ir::{replicate, Dst, File, Inst, Op, Program, Src, UrbKind};

/// First register of the message area (Mesa's `GFX7_MRF_HACK_START`).
pub const MSG_BASE: u32 = 112;
/// The header register (MRF 1).
pub const HEADER: u32 = MSG_BASE + 1;
/// Slots one URB write carries at most (MRFs 2..13, Mesa's `FIRST_SPILL_MRF(7)`).
pub const SLOTS_PER_WRITE: u32 = 12;

/// Descriptor of a Gen7 SIMD4x2 URB write: an interleaved HWord write with a header at
/// `offset` 256-bit rows (Mesa's `urb_global_offset` on Gen7), `complete` on the last write;
/// the encoder adds EOT from the instruction.
pub fn urb_write_desc(ver: u32, offset: u32, mlen: u32, complete: bool) -> u32 {
    urb_desc(ver, offset, mlen, complete, UrbKind::Vertex)
}

/// Descriptor of a URB write of `kind` (see [`urb_write_desc`]): geometry vertices take
/// per-slot offsets from the header, control data is an OWord write, and no geometry write
/// marks its entry complete (Mesa's `brw_urb_WRITE` with the GS flags).
pub fn urb_desc(ver: u32, offset: u32, mlen: u32, complete: bool, kind: UrbKind) -> u32 {
    UrbDesc {
        len: Lengths::new(mlen, 0, true),
        opcode: if matches!(kind, UrbKind::GsControl | UrbKind::TcsOutput) {
            UrbDesc::WRITE_OWORD
        } else {
            UrbDesc::WRITE_HWORD
        },
        global_offset: offset,
        swizzle: UrbDesc::SWIZZLE_INTERLEAVE,
        complete: complete && matches!(kind, UrbKind::Vertex | UrbKind::Gen4Vertex),
        per_slot_offset: matches!(kind, UrbKind::GsVertex | UrbKind::TcsOutput),
        // Gen6 marks the entry used (Mesa's gfx6 URB writes all do; Gen7 has no such bit).
        used: ver < 70,
        ..UrbDesc::default()
    }
    .encode(ver)
}

/// Message length of `data` slot registers plus the header, rounded to an odd number.
fn mlen_for(data: u32) -> u32 {
    let m = data + 1;
    if m % 2 == 1 {
        m
    } else {
        m + 1
    }
}

fn mov(dst: Dst, src: Src) -> Inst {
    Inst::new(Op::Alu(Opcode::Mov), dst, vec![src])
}

/// Appends the header and the URB writes of `map`'s slots, reading each varying from its
/// output register in `outputs`, the components in `masks` (all four when absent); the
/// others are undefined outputs and keep whatever the message register held.
///
/// `gen4`: the Gen4–5 VUE (`map` from [`VueMap::gen4`]): the header slot is zero (no point
/// size or clip flags are built), slot 1 gets the NDC position computed from the position
/// (Mesa's `emit_ndc_computation`: `1/w` by the math unit, then `xyz × 1/w`), and the
/// messages are not padded to whole rows.
pub fn emit_vertex(
    prog: &mut Program,
    map: &VueMap,
    outputs: &BTreeMap<u32, u32>,
    masks: &BTreeMap<u32, u8>,
    gen4: bool,
) {
    let ndc = if gen4 {
        outputs.get(&vue::VARYING_SLOT_POS).map(|&pos| {
            let ndc = prog.vgrf();
            let pos = Src::vgrf(pos, RegType::F);
            prog.insts.push(Inst::new(
                Op::Math(crate::intel::eu::MathFn::Inv),
                Dst::vgrf(ndc, RegType::F, 0x8),
                vec![pos.swizzled(replicate(3))],
            ));
            prog.insts.push(Inst::new(
                Op::Alu(Opcode::Mul),
                Dst::vgrf(ndc, RegType::F, 0x7),
                vec![pos, Src::vgrf(ndc, RegType::F).swizzled(replicate(3))],
            ));
            ndc
        })
    } else {
        None
    };
    prog.insts.push(header());
    let (kind, gen4) = if gen4 {
        (UrbKind::Gen4Vertex, Some(Gen4Vue { ndc }))
    } else {
        (UrbKind::Vertex, None)
    };
    emit_slots(&mut prog.insts, map, outputs, masks, 0, kind, gen4);
}

/// What a Gen4–5 VUE adds: the register holding the NDC position (slot 1), if the
/// position is written.
#[derive(Debug, Clone, Copy)]
struct Gen4Vue {
    ndc: Option<u32>,
}

/// The message header: g0 with the channel enables.
fn header() -> Inst {
    Inst::new(
        Op::UrbHeader,
        Dst::fixed(HEADER, RegType::UD, 0xf),
        vec![Src::reg(File::Fixed, 0, RegType::UD)],
    )
}

/// One geometry-shader vertex (Mesa's `emit_vertex` in a `vec4_gs_visitor`): the header with
/// each object's per-slot offset `counter × vertex size` (its vertex's place after the
/// control-data header, whose size is the global offset), then the slots as for a vertex
/// shader. `counter` holds each object's count of vertices emitted before this one in x.
#[allow(clippy::too_many_arguments)]
pub fn emit_gs_vertex(
    out: &mut Vec<Inst>,
    map: &VueMap,
    outputs: &BTreeMap<u32, u32>,
    masks: &BTreeMap<u32, u8>,
    counter: Src,
    vertex_hwords: u32,
    header_hwords: u32,
) {
    out.push(header());
    out.push(Inst::new(
        Op::GsWriteOffset {
            hwords: vertex_hwords,
        },
        Dst::fixed(HEADER, RegType::UD, 0xf),
        vec![counter],
    ));
    emit_slots(
        out,
        map,
        outputs,
        masks,
        header_hwords,
        UrbKind::GsVertex,
        None,
    );
}

/// The end of a geometry thread: the control-data dword (`control`, x of each object's
/// half; cut bits or stream ids) written to the start of the entry when there is one, then
/// the header alone with each object's vertex count from x of `count`, ending the thread.
pub fn emit_gs_end(out: &mut Vec<Inst>, control: Option<Src>, dword: Option<u32>, count: Src) {
    if let Some(bits) = control {
        emit_gs_control(out, bits, dword);
    }
    out.push(header());
    out.push(Inst::new(
        Op::GsVertexCount,
        Dst::fixed(HEADER, RegType::UD, 0xf),
        vec![count],
    ));
    out.push(Inst::new(
        Op::UrbWrite {
            offset: 0,
            mlen: 1,
            eot: true,
            kind: UrbKind::GsEnd,
        },
        Dst::null(RegType::F),
        vec![Src::reg(File::Fixed, HEADER, RegType::F)],
    ));
}

/// A control-data write (x of each object's half of `bits`): an OWord write of the
/// replicated dword to the start of the entry, or, with `dword` (headers of more than 32
/// bits, written 32 bits at a time), to that dword of the header alone: the OWord `dword /
/// 4` with only channel `dword % 4` of each object enabled in the header's channel mask
/// (Mesa's `emit_control_data_bits` with `BRW_URB_WRITE_USE_CHANNEL_MASKS`, at a constant
/// dword).
pub fn emit_gs_control(out: &mut Vec<Inst>, bits: Src, dword: Option<u32>) {
    out.push(header());
    if let Some(d) = dword {
        out.push(Inst::new(
            Op::UrbChannelMask {
                mask: 0x11 << (d % 4),
            },
            Dst::fixed(HEADER, RegType::UD, 0xf),
            vec![],
        ));
    }
    out.push(mov(
        Dst::fixed(HEADER + 1, RegType::UD, 0xf),
        Src {
            swizzle: replicate(super::ir::swz_get(bits.swizzle, 0)),
            ..bits
        },
    ));
    out.push(Inst::new(
        Op::UrbWrite {
            offset: dword.map_or(0, |d| d / 4),
            mlen: 2,
            eot: false,
            kind: UrbKind::GsControl,
        },
        Dst::null(RegType::F),
        vec![Src::reg(File::Fixed, HEADER, RegType::F)],
    ));
}

/// The data registers and writes of `map`'s slots from row `base` on; the last write ends
/// the thread when `kind` is a vertex shader's.
fn emit_slots(
    out: &mut Vec<Inst>,
    map: &VueMap,
    outputs: &BTreeMap<u32, u32>,
    masks: &BTreeMap<u32, u8>,
    base: u32,
    kind: UrbKind,
    gen4: Option<Gen4Vue>,
) {
    let src_of = |v: u32| outputs.get(&v).map(|&r| Src::vgrf(r, RegType::UD));
    let n = map.num_slots().max(1);
    let mut slot = 0;
    while slot < n {
        let first = slot;
        let mut used = 0;
        while slot < n && used < SLOTS_PER_WRITE {
            let reg = HEADER + 1 + used;
            match map.slots.get(slot as usize).copied().flatten() {
                Some(vue::VARYING_SLOT_PSIZ) => {
                    // Header dwords: layer in y, viewport in z, point size in w; zero
                    // otherwise.
                    out.push(mov(
                        Dst::fixed(reg, RegType::D, 0xf),
                        Src::imm(RegType::D, 0),
                    ));
                    for (v, ch) in [
                        (vue::VARYING_SLOT_PSIZ, 3u8),
                        (vue::VARYING_SLOT_LAYER, 1),
                        (vue::VARYING_SLOT_VIEWPORT, 2),
                    ] {
                        if let Some(s) = src_of(v) {
                            out.push(mov(
                                Dst::fixed(reg, RegType::UD, 1 << ch),
                                Src {
                                    swizzle: replicate(0),
                                    ..s
                                },
                            ));
                        }
                    }
                }
                Some(v) => {
                    let mask = masks.get(&v).copied().unwrap_or(0xf);
                    if let (Some(s), true) = (src_of(v), mask != 0) {
                        out.push(mov(Dst::fixed(reg, RegType::UD, mask), s));
                    }
                }
                // Gen4-5: slot 1 is the NDC position.
                None if slot == 1 => {
                    if let Some(ndc) = gen4.and_then(|g| g.ndc) {
                        out.push(mov(
                            Dst::fixed(reg, RegType::F, 0xf),
                            Src::vgrf(ndc, RegType::F),
                        ));
                    }
                }
                None => {}
            }
            used += 1;
            slot += 1;
        }
        let eot = slot >= n && matches!(kind, UrbKind::Vertex | UrbKind::Gen4Vertex);
        out.push(Inst::new(
            Op::UrbWrite {
                offset: base + first / 2,
                mlen: if gen4.is_some() {
                    used + 1
                } else {
                    mlen_for(used)
                },
                eot,
                kind,
            },
            Dst::null(RegType::F),
            vec![Src::reg(File::Fixed, HEADER, RegType::F)],
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::types::sfid;
    use crate::intel::msg;

    #[test]
    fn descriptors_match_mesa_assembly() {
        // Mesa's ivb assembly: `send(8) null<1>F g113<4>F 0x8608c000 urb MsgDesc: offset 0
        // write HWord interleave complete mlen 3 rlen 0 { align16 1Q EOT }`, and the same
        // with mlen 5 (0x8a08c000) and 7 (0x8e08c000); bit 31 is EOT.
        let eot = |d: u32| msg::with_dword3(70, d, sfid::URB, true);
        assert_eq!(eot(urb_write_desc(70, 0, 3, true)), 0x8608_c000);
        assert_eq!(eot(urb_write_desc(70, 0, 5, true)), 0x8a08_c000);
        assert_eq!(eot(urb_write_desc(70, 0, 7, true)), 0x8e08_c000);
        // A second write at row 6 (slot 12): 6 in bits 13:3, no complete bit, no EOT.
        assert_eq!(urb_write_desc(70, 6, 3, false), 0x0608_4030);
    }

    #[test]
    fn gen6_descriptors_match_mesa_assembly() {
        // Mesa's snb assembly: `send(8) null<1>F m1<4>F 0x8608c400 urb MsgDesc: offset 0
        // urb_write interleave used complete mlen 3 rlen 0 { align16 1Q EOT }`, and mlen 5
        // (0x8a08c400).
        let eot = |d: u32| msg::with_dword3(60, d, sfid::URB, true);
        assert_eq!(eot(urb_write_desc(60, 0, 3, true)), 0x8608_c400);
        assert_eq!(eot(urb_write_desc(60, 0, 5, true)), 0x8a08_c400);
    }

    #[test]
    fn geometry_descriptors_match_mesa_assembly() {
        // Mesa's ivb GS assembly: `0x06094000 urb MsgDesc: offset 0 write HWord per-slot
        // interleave mlen 3`, `0x0a094008 ... offset 1 ... per-slot ... mlen 5` (after a
        // one-row cut-bit header), `0x04084001 ... write OWord interleave mlen 2` (the cut
        // bits) and `0x82084000 ... write HWord interleave mlen 1 { EOT }` (the thread end).
        let eot = |d: u32| msg::with_dword3(70, d, sfid::URB, true);
        assert_eq!(urb_desc(70, 0, 3, false, UrbKind::GsVertex), 0x0609_4000);
        assert_eq!(urb_desc(70, 1, 5, false, UrbKind::GsVertex), 0x0a09_4008);
        assert_eq!(urb_desc(70, 0, 2, false, UrbKind::GsControl), 0x0408_4001);
        assert_eq!(eot(urb_desc(70, 0, 1, true, UrbKind::GsEnd)), 0x8208_4000);
    }

    #[test]
    fn tcs_output_descriptors_match_mesa_assembly() {
        // Mesa's ivb TCS assembly (tcs-tes-patch): `0x04094031 urb MsgDesc: offset 6 write
        // OWord per-slot interleave mlen 2 rlen 0` and `0x04094009 ... offset 1 ...`.
        assert_eq!(urb_desc(70, 6, 2, false, UrbKind::TcsOutput), 0x0409_4031);
        assert_eq!(urb_desc(70, 1, 2, false, UrbKind::TcsOutput), 0x0409_4009);
    }

    #[test]
    fn message_lengths_are_odd() {
        assert_eq!(mlen_for(2), 3);
        assert_eq!(mlen_for(3), 5);
        assert_eq!(mlen_for(12), 13);
    }

    #[test]
    fn a_partly_written_varying_copies_only_its_components() {
        // POS whole, VAR0 .xy only: the message gets VAR0's x and y; z and w are undefined
        // outputs.
        let written = 1u64 << vue::VARYING_SLOT_POS | 1u64 << vue::VARYING_SLOT_VAR0;
        let map = VueMap::new(written, false);
        let outputs = BTreeMap::from([(vue::VARYING_SLOT_POS, 0), (vue::VARYING_SLOT_VAR0, 1)]);
        let masks = BTreeMap::from([(vue::VARYING_SLOT_VAR0, 0x3)]);
        let mut p = Program::default();
        emit_vertex(&mut p, &map, &outputs, &masks, false);
        let ir = p.to_string();
        assert!(ir.contains("mov g115UD, v0UD\n"), "{ir}");
        assert!(ir.contains("mov g116.xyUD, v1UD\n"), "{ir}");
    }

    #[test]
    fn fourteen_slots_take_two_writes_the_second_at_row_six() {
        let mut written = 1u64 << vue::VARYING_SLOT_POS;
        for v in 0..12 {
            written |= 1 << (vue::VARYING_SLOT_VAR0 + v);
        }
        let map = VueMap::new(written, false);
        assert_eq!(map.num_slots(), 14);
        let mut p = Program::default();
        emit_vertex(&mut p, &map, &BTreeMap::new(), &BTreeMap::new(), false);
        let writes: Vec<Op> = p
            .insts
            .iter()
            .filter(|i| matches!(i.op, Op::UrbWrite { .. }))
            .map(|i| i.op)
            .collect();
        assert_eq!(
            writes,
            vec![
                Op::UrbWrite {
                    offset: 0,
                    mlen: 13,
                    eot: false,
                    kind: UrbKind::Vertex,
                },
                Op::UrbWrite {
                    offset: 6,
                    mlen: 3,
                    eot: true,
                    kind: UrbKind::Vertex,
                }
            ]
        );
    }
}
