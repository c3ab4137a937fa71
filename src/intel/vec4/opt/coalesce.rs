//! Register coalescing: `v = op …; mov r.mask, v.swz` becomes `op r.mask, …` when the mov is
//! `v`'s only use. The defining instruction writes `r` directly, its sources re-swizzled so
//! that channel c computes what the mov would have taken from channel `swz[c]`.
//!
//! Safe when nothing between the two reads or writes `r` (its write moves earlier), no
//! control flow lies between them (same block), and the definition is per-channel or a dot
//! product (whose written channels all hold the sum, so its sources stay as they are); a
//! definition that also writes the flag or is predicated keeps its channels exactly
//! (identity swizzle, same write mask), since its flag bits and predicate are per channel.

use crate::intel::eu::{CondMod, Opcode, RegType};

use super::super::ir::{swz_compose, swz_get, File, Op, Program};

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

/// Dot products: every channel they write holds the same sum, whatever channel reads it.
fn reduces(op: Op) -> bool {
    matches!(
        op,
        Op::Alu(Opcode::Dp2 | Opcode::Dp3 | Opcode::Dp4 | Opcode::Dph)
    )
}

/// A register written several times (each write in its own channels) and read once, by the
/// identity copy at `q`: every write goes to the copy's destination instead, when all of
/// them lie in the copy's block before it, each inside the copy's write mask, and nothing
/// else between the first write and the copy touches the destination.
fn rename_all(prog: &mut Program, removed: &[bool], a: u32, q: usize) -> bool {
    let mov = &prog.insts[q];
    let (dst, swz) = (mov.dst, mov.src[0].swizzle);
    if dst.file != File::Vgrf && dst.file != File::Fixed {
        return false;
    }
    let m = dst.writemask;
    if (0..4u8).any(|c| m >> c & 1 != 0 && swz_get(swz, c) != c) {
        return false;
    }
    let writes_a = |i: &super::super::ir::Inst| i.dst.file == File::Vgrf && i.dst.nr == a;
    let Some(first) = prog.insts[..q].iter().position(writes_a) else {
        return false;
    };
    for (k, i) in prog.insts[first..q].iter().enumerate() {
        if removed[first + k] {
            continue;
        }
        if writes_a(i)
            && (i.dst.writemask & !m != 0
                || matches!(
                    i.op,
                    Op::PullLoad { .. }
                        | Op::UrbWrite { .. }
                        | Op::UrbHeader
                        | Op::Tex { .. }
                        | Op::SamplerHeader { .. }
                        | Op::TesInputHeader
                        | Op::TesIndirectOffset
                        | Op::UrbRead { .. }
                        | Op::TesPrimitiveId
                        | Op::TcsInstanceId
                        | Op::TcsPrimitiveId
                        | Op::TcsInputHeader
                        | Op::TcsOutputHeader { .. }
                        | Op::UntypedAtomic { .. }
                )
                || i.src.iter().any(|s| s.file == File::Vgrf && s.nr == a))
        {
            return false;
        }
        if i.op.is_flow()
            || matches!(
                i.op,
                Op::UrbWrite { .. }
                    | Op::PullLoad { .. }
                    | Op::TcsReleaseInput { .. }
                    | Op::TcsThreadEnd
                    | Op::UntypedAtomic { .. }
            )
            || (i.dst.file == dst.file && i.dst.nr == dst.nr)
            || i.src.iter().any(|s| s.file == dst.file && s.nr == dst.nr)
        {
            return false;
        }
    }
    for i in prog.insts[first..q].iter_mut() {
        if i.dst.file == File::Vgrf && i.dst.nr == a {
            i.dst.file = dst.file;
            i.dst.nr = dst.nr;
        }
    }
    true
}

/// Coalesces copies into their definitions; true on progress.
pub fn register_coalesce(prog: &mut Program) -> bool {
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
        if uses[a] != 1 || def_at[a] >= q || removed[def_at[a]] {
            continue;
        }
        if writes[a] > 1 {
            if rename_all(prog, &removed, a as u32, q) {
                removed[q] = true;
                progress = true;
            }
            continue;
        }
        let (dst, swz) = (mov.dst, mov.src[0].swizzle);
        if dst.file != File::Vgrf && dst.file != File::Fixed {
            continue;
        }
        let p = def_at[a];
        let def = &prog.insts[p];
        let dot = reduces(def.op);
        if !(per_channel(def.op) || dot) || def.sat && def.dst.ty != mov.src[0].ty {
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
                        Op::UrbWrite { .. }
                            | Op::PullLoad { .. }
                            | Op::TcsReleaseInput { .. }
                            | Op::TcsThreadEnd
                            | Op::UntypedAtomic { .. }
                    )
                    || (i.dst.file == dst.file && i.dst.nr == dst.nr)
                    || i.src.iter().any(|s| s.file == dst.file && s.nr == dst.nr))
        });
        if touched {
            continue;
        }
        let def = &mut prog.insts[p];
        // A dot product's sources are read across channels and stay as they are: the
        // channels the copy writes receive the same sum the channels it read held.
        if !identity && !dot {
            for s in def.src.iter_mut() {
                if s.file != File::Imm {
                    s.swizzle = swz_compose(s.swizzle, swz);
                } else if matches!(s.ty, RegType::VF | RegType::V | RegType::UV) {
                    // A vector immediate's channels are its bytes (VF) or nibbles.
                    let bits = if s.ty == RegType::VF { 8 } else { 4 };
                    let lane = |c: u8| s.imm >> (bits * c as u32) & ((1 << bits) - 1);
                    let permuted =
                        (0..4u8).fold(0u32, |v, c| v | lane(swz_get(swz, c)) << (bits * c as u32));
                    s.imm = if bits == 4 {
                        permuted | (s.imm & 0xffff_0000)
                    } else {
                        permuted
                    };
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
        prog.remove_marked(&removed);
    }
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
    fn a_dot_product_moves_into_one_channel_with_its_sources_unchanged() {
        // v1.x = dot(a.xyz, b.xyz); r0.z = v1.xxxx  →  r0.z = dot(a.xyz, b.xyz): re-swizzling
        // the sources would change the sum.
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                alu(
                    Opcode::Dp3,
                    Dst::vgrf(1, F, 0x1),
                    vec![Src::reg(File::Attr, 0, F), Src::reg(File::Attr, 1, F)],
                ),
                alu(
                    Opcode::Mov,
                    Dst::fixed(116, UD, 0x4),
                    vec![Src {
                        swizzle: 0,
                        ..Src::vgrf(1, UD)
                    }],
                ),
            ],
            num_vgrfs: 2,
        };
        assert!(register_coalesce(&mut p));
        assert_eq!(p.to_string(), "dp3 g116.zF, attr0F, attr1F\n");
    }

    #[test]
    fn a_result_moves_into_its_register_reswizzled() {
        // v1 = a * b; r0.y = v1.x  →  r0.y = a.x * b.x (channel y computes old channel x).
        let mut p = Program {
            interleaved_attrs: false,
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
        assert!(register_coalesce(&mut p));
        assert_eq!(p.to_string(), "mul v0.yF, attr0.xxxxF, attr1.xxxxF\n");
    }

    #[test]
    fn partial_writes_all_move_into_the_message_register() {
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                alu(Opcode::Mov, Dst::vgrf(0, UD, 0xd), vec![Src::imm(UD, 0)]),
                alu(
                    Opcode::Mov,
                    Dst::vgrf(0, UD, 0x2),
                    vec![Src::imm(UD, 0x3f80_0000)],
                ),
                alu(
                    Opcode::Mov,
                    Dst::fixed(116, UD, 0xf),
                    vec![Src::vgrf(0, UD)],
                ),
            ],
            num_vgrfs: 1,
        };
        assert!(register_coalesce(&mut p));
        assert_eq!(
            p.to_string(),
            "mov g116.xzwUD, 0x0UD\nmov g116.yUD, 0x3f800000UD\n"
        );
    }

    #[test]
    fn a_vector_immediate_is_permuted_with_its_channels() {
        // v1 = [0, 1, 1, 1]VF; v0.zw = v1.xxxy  →  v0.zw = [_, _, 0, 1]VF.
        let mut p = Program {
            interleaved_attrs: false,
            insts: vec![
                alu(
                    Opcode::Mov,
                    Dst::vgrf(1, F, 0xf),
                    vec![Src::imm(RegType::VF, 0x3030_3000)],
                ),
                alu(
                    Opcode::Mov,
                    Dst::vgrf(0, UD, 0xc),
                    vec![Src {
                        swizzle: 0x40,
                        ..Src::vgrf(1, UD)
                    }],
                ),
            ],
            num_vgrfs: 2,
        };
        assert!(register_coalesce(&mut p));
        assert_eq!(p.to_string(), "mov v0.zwF, 0x30000000VF\n");
    }

    #[test]
    fn an_intervening_read_of_the_register_blocks_it() {
        let mut p = Program {
            interleaved_attrs: false,
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
        assert!(!register_coalesce(&mut p));
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
            interleaved_attrs: false,
            insts: vec![
                cmp,
                alu(Opcode::Mov, Dst::vgrf(0, UD, 0x1), vec![Src::vgrf(1, UD)]),
            ],
            num_vgrfs: 2,
        };
        assert!(!register_coalesce(&mut p));
    }
}
