//! Property tests of the native encoding: every valid instruction survives encode → decode
//! unchanged, on every generation; arbitrary bytes never make the decoder or disassembler
//! panic.

use gpucc::intel::eu::{
    self, asm::fill_hidden, native::source_count, AccessMode, Branch, CondMod, Dst, Imm, Indirect,
    Inst, MathFn, Message, Opcode, Predicate, RegFile, RegSrc, RegType, Region, Src, ThreadCtrl,
};
use gpucc::intel::DevInfo;
use gpucc::util::rng::Rng;

const PLATFORMS: [&str; 8] = ["brw", "g4x", "ilk", "snb", "ivb", "hsw", "bdw", "skl"];

fn reg_types(ver: u32) -> Vec<RegType> {
    RegType::ALL
        .iter()
        .copied()
        .filter(|t| t.reg_hw(ver).is_some())
        .collect()
}

fn imm_types(ver: u32) -> Vec<RegType> {
    RegType::ALL
        .iter()
        .copied()
        .filter(|t| t.imm_hw(ver).is_some())
        .collect()
}

fn random_dst(rng: &mut Rng, ver: u32, a16: bool) -> Dst {
    let files: &[RegFile] = if ver < 70 {
        &[RegFile::Grf, RegFile::Mrf, RegFile::Arf]
    } else {
        &[RegFile::Grf, RegFile::Arf]
    };
    let file = *rng.pick(files);
    let nr = match file {
        RegFile::Grf => rng.below(128) as u8,
        RegFile::Mrf => rng.below(16) as u8,
        _ => *rng.pick(&[0x00u8, 0x10, 0x20, 0x21, 0x30, 0x31, 0x90]),
    };
    let mut d = Dst::reg(file, nr, 0, *rng.pick(&reg_types(ver)));
    d.hstride = *rng.pick(&[0u8, 1, 2, 4]);
    if a16 {
        d.subnr = *rng.pick(&[0u8, 16]);
        d.writemask = rng.below(16) as u8;
    } else {
        d.subnr = rng.below(32) as u8;
        if rng.below(8) == 0 {
            d.indirect = Some(random_indirect(rng, ver));
            d.subnr = 0;
            d.nr = 0;
            d.file = RegFile::Grf;
        }
    }
    d
}

fn random_indirect(rng: &mut Rng, ver: u32) -> Indirect {
    Indirect {
        addr_subnr: rng.below(if ver >= 80 { 16 } else { 8 }) as u8,
        offset: rng.range(-512, 511) as i16,
    }
}

fn random_reg_src(rng: &mut Rng, ver: u32, a16: bool) -> RegSrc {
    let file = *rng.pick(&[RegFile::Grf, RegFile::Grf, RegFile::Grf, RegFile::Arf]);
    let nr = if file == RegFile::Grf {
        rng.below(128) as u8
    } else {
        *rng.pick(&[0u8, 0x20, 0x30, 0x70, 0x90])
    };
    let ty = *rng.pick(&reg_types(ver));
    let mut r = RegSrc::new(file, nr, 0, ty, Region::SCALAR);
    r.negate = rng.bool();
    r.abs = rng.bool();
    let vstrides = [0u8, 1, 2, 4, 8, 16, 32];
    if a16 {
        r.subnr = *rng.pick(&[0u8, 16]);
        r.region = Region::new(*rng.pick(&vstrides), 4, 1);
        r.swizzle = rng.below(256) as u8;
    } else {
        r.subnr = rng.below(32) as u8;
        r.region = Region::new(
            *rng.pick(&vstrides),
            *rng.pick(&[1u8, 2, 4, 8, 16]),
            *rng.pick(&[0u8, 1, 2, 4]),
        );
        if rng.below(8) == 0 {
            r.indirect = Some(random_indirect(rng, ver));
            r.nr = 0;
            r.subnr = 0;
            r.file = RegFile::Grf;
            if rng.bool() {
                r.region.vstride = Region::VXH;
            }
        }
    }
    r
}

fn random_imm(rng: &mut Rng, ver: u32, allow64: bool) -> Imm {
    let types: Vec<RegType> = imm_types(ver)
        .into_iter()
        .filter(|t| allow64 || t.size() < 8)
        .collect();
    let ty = *rng.pick(&types);
    let bits = if ty.size() == 8 {
        rng.next_u64()
    } else {
        rng.next_u32() as u64
    };
    Imm { ty, bits }
}

/// A random instruction in the canonical form the decoder produces.
fn random_inst(rng: &mut Rng, devinfo: &DevInfo) -> Inst {
    let ver = devinfo.ver;
    let ops: Vec<Opcode> = eu::types::OPCODES
        .iter()
        .map(|d| d.op)
        .filter(|o| {
            o.exists_on(ver) && !matches!(o, Opcode::Illegal | Opcode::Sends | Opcode::Sendsc)
        })
        .collect();
    let op = *rng.pick(&ops);
    let mut inst = Inst::new(op);
    inst.exec_size = *rng.pick(&[1u8, 2, 4, 8, 16, 32]);
    inst.access_mode = if rng.bool() {
        AccessMode::Align16
    } else {
        AccessMode::Align1
    };
    if op.is_three_src() {
        inst.access_mode = AccessMode::Align16;
    }
    let a16 = inst.access_mode == AccessMode::Align16;
    inst.qtr_ctrl = rng.below(4) as u8;
    inst.nib_ctrl = ver >= 70 && rng.bool();
    inst.we_all = rng.bool();
    inst.no_dd_clear = rng.bool();
    inst.no_dd_check = rng.bool();
    inst.thread_ctrl = ThreadCtrl::from_hw(rng.below(4));
    if rng.bool() {
        inst.pred = Some(Predicate {
            control: rng.range(1, 15) as u8,
            inverse: rng.bool(),
        });
    }
    inst.flag_nr = if ver >= 70 { rng.below(2) as u8 } else { 0 };
    if op.is_three_src() && ver < 70 {
        inst.flag_nr = 0;
    }
    inst.flag_subnr = rng.below(2) as u8;
    inst.saturate = rng.bool();
    inst.debug = rng.below(4) == 0;
    inst.acc_wr = rng.bool();
    if op == Opcode::Math {
        inst.math_fn = Some(MathFn::TABLE[rng.below(MathFn::TABLE.len() as u64) as usize].0);
    } else if !op.is_send() {
        inst.cond_mod = CondMod::TABLE[rng.below(10) as usize].0;
    }

    if op.is_three_src() {
        let types: &[RegType] = match ver {
            60 => &[RegType::F],
            70 | 75 => &[RegType::F, RegType::D, RegType::UD, RegType::DF],
            _ => &[
                RegType::F,
                RegType::D,
                RegType::UD,
                RegType::DF,
                RegType::HF,
            ],
        };
        let sty = *rng.pick(types);
        let dfile = if ver == 60 && rng.bool() {
            RegFile::Mrf
        } else {
            RegFile::Grf
        };
        inst.dst = Dst::reg(
            dfile,
            rng.below(128) as u8,
            rng.below(8) as u8 * 4,
            *rng.pick(types),
        );
        inst.dst.writemask = rng.below(16) as u8;
        if ver == 60 {
            inst.dst.ty = RegType::F;
        }
        inst.src = (0..3)
            .map(|_| {
                let region = if rng.bool() {
                    Region::SCALAR
                } else {
                    Region::new(4, 4, 1)
                };
                let mut r = RegSrc::new(
                    RegFile::Grf,
                    rng.below(128) as u8,
                    rng.below(8) as u8 * 4,
                    sty,
                    region,
                );
                r.swizzle = rng.below(256) as u8;
                r.negate = rng.bool();
                r.abs = rng.bool();
                Src::Reg(r)
            })
            .collect();
        return inst;
    }

    if matches!(op, Opcode::Sends | Opcode::Sendsc) {
        let file = if rng.bool() {
            RegFile::Grf
        } else {
            RegFile::Arf
        };
        inst.dst = Dst::reg(
            file,
            rng.below(128) as u8,
            *rng.pick(&[0u8, 16]),
            RegType::UD,
        );
        let payload = |rng: &mut Rng, file: RegFile, sub: u8| {
            Src::Reg(RegSrc::new(
                file,
                rng.below(128) as u8,
                sub,
                RegType::UD,
                Region::SCALAR,
            ))
        };
        let a0 = |sub: u8| {
            Src::Reg(RegSrc::new(
                RegFile::Arf,
                0x10,
                sub,
                RegType::UD,
                Region::SCALAR,
            ))
        };
        let sub0 = *rng.pick(&[0u8, 16]);
        let s1file = if rng.bool() {
            RegFile::Grf
        } else {
            RegFile::Arf
        };
        let desc = if rng.below(4) == 0 {
            a0(0)
        } else {
            Src::Imm(Imm {
                ty: RegType::UD,
                bits: (rng.next_u32() & 0x7fff_ffff) as u64,
            })
        };
        let ex = if rng.below(4) == 0 {
            a0(rng.below(8) as u8)
        } else {
            Src::Imm(Imm {
                ty: RegType::UD,
                bits: (rng.next_u32() & !0xfc3f) as u64,
            })
        };
        inst.src = vec![
            payload(rng, RegFile::Grf, sub0),
            payload(rng, s1file, 0),
            desc,
            ex,
        ];
        inst.msg = Some(Message {
            sfid: rng.below(16) as u8,
            base_mrf: 0,
            ex_desc: 0,
        });
        inst.eot = rng.bool();
        inst.cond_mod = CondMod::None;
        return inst;
    }
    inst.dst = random_dst(rng, ver, a16);
    let n = source_count(ver, op);
    let unary = n == 1;
    inst.src = (0..n)
        .map(|i| {
            let last = i + 1 == n;
            if last && rng.below(3) == 0 {
                if op == Opcode::Dim {
                    inst.flag_nr = 0;
                    inst.flag_subnr = 0;
                    return Src::Imm(Imm {
                        ty: RegType::F,
                        bits: rng.next_u64(),
                    });
                }
                Src::Imm(random_imm(rng, ver, unary && ver >= 80))
            } else {
                Src::Reg(random_reg_src(rng, ver, a16))
            }
        })
        .collect();

    if op.is_send() {
        let desc_mask: u32 = if ver < 50 { 0x70ff_ffff } else { 0x7fff_ffff };
        inst.src[1] = Src::Imm(Imm {
            ty: RegType::UD,
            bits: (rng.next_u32() & desc_mask) as u64,
        });
        inst.msg = Some(Message {
            sfid: rng.below(16) as u8,
            base_mrf: if ver < 60 { rng.below(16) as u8 } else { 0 },
            ex_desc: 0,
        });
        inst.eot = rng.bool();
        inst.cond_mod = CondMod::None;
    }
    if let Some(layout) = flow_layout(ver, op) {
        let unit = eu::native::jump_unit(ver);
        let j = |rng: &mut Rng| rng.range(-1000, 1000) as i32 * unit;
        let mut b = Branch {
            jip: j(rng),
            uip: 0,
            pop: 0,
        };
        match layout {
            0 => b.pop = rng.below(16) as u8,
            1 => {}
            2 => b.uip = j(rng),
            _ => {
                if eu::native::has_uip(ver, op) {
                    b.uip = j(rng);
                }
            }
        }
        inst.branch = Some(b);
        fill_hidden(ver, &mut inst);
    }
    inst
}

/// 0: Gen4/5 jump+pop, 1: Gen6 jump count in dst, 2: Gen6/7 JIP+UIP, 3: Gen8 JIP (+UIP).
fn flow_layout(ver: u32, op: Opcode) -> Option<u8> {
    use Opcode::*;
    if !matches!(
        op,
        If | Iff | Else | Endif | While | Break | Continue | Halt
    ) {
        return None;
    }
    Some(if ver < 60 {
        0
    } else if ver < 70 && matches!(op, If | Else | Endif | While) {
        1
    } else if ver < 80 {
        2
    } else {
        3
    })
}

#[test]
fn decode_inverts_encode_on_every_generation() {
    for (k, name) in PLATFORMS.iter().enumerate() {
        let devinfo = DevInfo::from_name(name).unwrap();
        let mut rng = Rng::new(0x5eed_0000 + k as u64);
        let mut checked = 0;
        for _ in 0..20_000 {
            let inst = random_inst(&mut rng, devinfo);
            let bytes = match eu::encode(devinfo, &inst) {
                Ok(b) => b,
                Err(e) => panic!("{name}: valid instruction rejected: {e}\n{inst:?}"),
            };
            let back =
                eu::decode(devinfo, &bytes).unwrap_or_else(|e| panic!("{name}: {e}\n{inst:?}"));
            assert_eq!(back, inst, "{name}: round trip changed the instruction");
            // The text form must survive too.
            let text = eu::disassemble(devinfo, std::slice::from_ref(&back));
            assert!(!text.is_empty());
            checked += 1;
        }
        assert_eq!(checked, 20_000);
    }
}

#[test]
fn random_bytes_never_panic() {
    for (k, name) in PLATFORMS.iter().enumerate() {
        let devinfo = DevInfo::from_name(name).unwrap();
        let mut rng = Rng::new(0xbad_b17e5 + k as u64);
        let mut decoded = 0;
        for _ in 0..50_000 {
            let mut b = [0u8; 16];
            for chunk in b.chunks_mut(8) {
                chunk.copy_from_slice(&rng.next_u64().to_le_bytes()[..chunk.len()]);
            }
            b[3] &= !0x20; // native form; compacted bytes are covered separately
            if let Ok(inst) = eu::decode(devinfo, &b) {
                decoded += 1;
                let _ = eu::disassemble(devinfo, std::slice::from_ref(&inst));
                let _ = eu::encode(devinfo, &inst);
            }
            // Whole programs of random bytes, compacted or not.
            let k = rng.below(17) as usize;
            let _ = eu::decode_program(devinfo, &b[..k]);
            let _ = eu::disassemble_program(devinfo, &b[..k]);
            let mut c = [0u8; 8];
            c.copy_from_slice(&b[..8]);
            if let Ok(native) = eu::uncompact(devinfo, &c) {
                let _ = eu::decode(devinfo, &native);
            }
        }
        assert!(decoded > 0, "{name}: nothing decoded at all");
    }
}

/// Restricts a random instruction to what the text syntax expresses without loss (Mesa's
/// syntax hides a few encodings, e.g. quarter 2 of a SIMD16 instruction or non-replicated
/// 16-bit immediates), so that disassembling and reassembling must give the same bytes.
fn printable(inst: &mut Inst, ver: u32) -> bool {
    use Opcode::*;
    let op = inst.opcode;
    if op.is_send() {
        let sfid = inst.msg.map_or(0, |m| m.sfid);
        if eu::types::sfid::name(ver, sfid).is_none() {
            return false;
        }
        inst.saturate = false; // not printed for sends
        if op == Sendc && ver < 60 {
            // Mesa prints the base MRF for SEND only.
            inst.msg = Some(Message {
                sfid,
                base_mrf: 0,
                ex_desc: 0,
            });
        }
        if matches!(op, Sends | Sendsc) {
            if inst.dst.file == RegFile::Arf {
                inst.dst.nr = 0;
            }
            if let Some(Src::Reg(r)) = inst.src.get_mut(1) {
                if r.file == RegFile::Arf {
                    r.nr = 0;
                }
            }
        } else if inst.src.get(1).and_then(|s| s.as_imm()).is_none() {
            return false;
        }
    }
    if op.is_flow() || matches!(op, Nop | Nenop | Wait | Jmpi | Do | Illegal) {
        return false;
    }
    if matches!(
        op,
        Call | Ret | Calla | Brc | Brd | Goto | Fork | Push | Pop | Msave | Mrest | Case | Smov
    ) {
        return false;
    }
    if inst.thread_ctrl == ThreadCtrl::Reserved {
        inst.thread_ctrl = ThreadCtrl::Normal;
    }
    if let Some(p) = inst.pred {
        let max = if inst.access_mode == AccessMode::Align16 {
            7
        } else {
            13
        };
        if p.control > max {
            inst.pred = None;
        }
    }
    let flag_printed = inst.pred.is_some()
        || (inst.cond_mod != CondMod::None
            && op != Opcode::Math
            && (ver < 60 || !matches!(op, Sel | Csel | If | While)));
    if !flag_printed {
        inst.flag_nr = 0;
        inst.flag_subnr = 0;
    }
    if ver < 60 {
        inst.acc_wr = false;
        if inst.qtr_ctrl == 3 && inst.dst.file == RegFile::Mrf {
            inst.qtr_ctrl = 2;
        }
    } else if !inst.nib_ctrl {
        match inst.exec_size {
            16 => inst.qtr_ctrl &= 2,
            32 => inst.qtr_ctrl = 0,
            _ => {}
        }
    }
    let size = inst.dst.ty.size() as u8;
    inst.dst.subnr -= inst.dst.subnr % size.max(1);
    if inst.access_mode == AccessMode::Align16 {
        inst.dst.hstride = 1;
    }
    if let Some(ind) = inst.dst.indirect.as_mut() {
        ind.addr_subnr = 0;
    }
    if inst.dst.file == RegFile::Arf && inst.dst.nr & 0xf0 == 0xa0 {
        return false;
    }
    for s in inst.src.iter_mut() {
        match s {
            Src::Reg(r) => {
                if !op.is_three_src() && inst.access_mode == AccessMode::Align1 {
                    r.subnr -= r.subnr % (r.ty.size() as u8).max(1);
                }
                if op.is_three_src() && r.region == Region::SCALAR {
                    r.swizzle = 0;
                }
            }
            Src::Imm(i) => {
                if matches!(i.ty, RegType::UW | RegType::W) {
                    i.bits = (i.bits & 0xffff) * 0x1_0001;
                }
                if matches!(i.ty, RegType::HF) {
                    return false;
                }
            }
        }
    }
    if op.is_three_src() {
        let s = inst.dst.ty.size() as u8;
        inst.dst.subnr -= inst.dst.subnr % s.max(1);
        for s in inst.src.iter_mut() {
            if let Src::Reg(r) = s {
                let z = r.ty.size() as u8;
                r.subnr -= r.subnr % z.max(1);
            }
        }
    }
    true
}

#[test]
fn disassembly_reassembles_to_the_same_bytes() {
    for (k, name) in PLATFORMS.iter().enumerate() {
        let devinfo = DevInfo::from_name(name).unwrap();
        let mut rng = Rng::new(0x7e47_0000 + k as u64);
        let mut checked = 0;
        while checked < 3000 {
            let mut inst = random_inst(&mut rng, devinfo);
            if !printable(&mut inst, devinfo.ver) {
                continue;
            }
            let Ok(bytes) = eu::encode(devinfo, &inst) else {
                continue;
            };
            let text = eu::disassemble(devinfo, std::slice::from_ref(&inst));
            let again =
                eu::assemble(devinfo, &text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            let bytes2 =
                eu::encode(devinfo, &again[0]).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            assert_eq!(bytes2, bytes, "{name}: {text}");
            checked += 1;
        }
    }
}
