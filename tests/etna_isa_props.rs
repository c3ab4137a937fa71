//! Property tests of the etnaviv ISA layer with fixed seeds: encoding then decoding a random
//! valid instruction gives it back; arbitrary words never panic the decoder, and whatever
//! decodes re-encodes to the same words and prints text that assembles to the same text.

use gpucc::etnaviv::isa::*;
use gpucc::util::rng::Rng;

fn random_src(r: &mut Rng, use_: bool) -> Src {
    let kind = if r.below(4) == 0 {
        SrcKind::Imm(Imm {
            ty: *r.pick(&ImmType::ALL),
            bits: r.next_u32() & 0xf_ffff,
        })
    } else {
        let group = RegGroup::from_bits(r.below(5) as u32).unwrap();
        SrcKind::Reg(RegSrc {
            group,
            reg: r.below(512) as u16,
            amode: *r.pick(&AddrMode::ALL),
            swiz: Swizzle(r.next_u32() as u8),
            neg: r.bool(),
            abs: r.bool(),
        })
    };
    Src { use_, kind }
}

fn random_dst(r: &mut Rng) -> Dst {
    Dst {
        use_: r.bool(),
        reg: r.below(128) as u8,
        amode: *r.pick(&AddrMode::ALL),
        mask: r.below(16) as u8,
    }
}

fn random_thread(r: &mut Rng) -> Thread {
    *r.pick(&[Thread::Both, Thread::T0, Thread::T1])
}

/// A random instruction whose unused fields are at their defaults.
fn random_inst(r: &mut Rng) -> Inst {
    let op = *r.pick(Opcode::ALL);
    let format = *r.pick(op.formats());
    let mut i = Inst::new(op);
    for (slot, rule) in format.slots().iter().enumerate() {
        i.src[slot] = match rule {
            Slot::Absent => Src::default(),
            Slot::Present => random_src(r, true),
            Slot::Optional => {
                let u = r.bool();
                random_src(r, u)
            }
        };
    }
    assert_eq!(i.format(), format);
    if format.has_cond() {
        i.cond = *r.pick(&Cond::ALL);
    }
    i.sat = r.bool();
    i.ty = *r.pick(&DataType::ALL);
    match format.class() {
        Class::Alu => {
            i.dst = random_dst(r);
            i.unk = r.bool();
            i.rounding = *r.pick(&Rounding::ALL);
            i.pack = r.bool();
            i.skphp = r.bool();
            i.thread = random_thread(r);
            i.dst_full = r.bool();
        }
        Class::Tex => {
            i.dst = random_dst(r);
            i.tex = Tex {
                id: r.below(32) as u8,
                amode: *r.pick(&AddrMode::ALL),
                swiz: Swizzle(r.next_u32() as u8),
            };
            i.thread = random_thread(r);
        }
        Class::Cf => i.target = r.below(0x8000) as u16,
        Class::Load | Class::Store => {
            if format.class() == Class::Load {
                i.dst = random_dst(r);
            } else {
                i.dst.mask = r.below(16) as u8;
            }
            i.pack = r.bool();
            i.left_shift = r.below(8) as u8;
            i.skphp = r.bool();
            i.local = r.bool();
            i.denorm = r.bool();
            i.thread = random_thread(r);
            i.dst_full = r.bool();
        }
    }
    let dc = dontcare_mask(format);
    for (w, m) in i.dontcare.iter_mut().zip(dc) {
        *w = r.next_u32() & m & if r.bool() { !0 } else { 0 };
    }
    i
}

#[test]
fn decode_inverts_encode_for_random_valid_instructions() {
    let mut r = Rng::new(0x9e7a_0001);
    let mut per_opcode = std::collections::HashMap::new();
    for n in 0..200_000 {
        let i = random_inst(&mut r);
        let w = encode(&i);
        match decode(w) {
            Ok(d) => assert_eq!(d, i, "case {n}: {w:08x?}"),
            Err(e) => panic!("case {n}: {i:?} encoded to {w:08x?} does not decode: {e}"),
        }
        *per_opcode.entry(i.opcode).or_insert(0) += 1;
    }
    assert_eq!(
        per_opcode.len(),
        Opcode::ALL.len(),
        "every opcode exercised"
    );
}

/// Decoded words: encode back exactly, print, and the printed text is a fixed point of
/// assemble-then-print.
fn check_decoded(w: [u32; 4]) -> bool {
    let Ok(inst) = decode(w) else { return false };
    assert_eq!(encode(&inst), w, "{w:08x?}");
    let text = disassemble_inst(&inst);
    let again = assemble_inst(&text).unwrap_or_else(|e| panic!("{w:08x?}: '{text}': {e}"));
    assert_eq!(disassemble_inst(&again), text, "{w:08x?}");
    true
}

#[test]
fn random_words_never_panic() {
    let mut r = Rng::new(0x9e7a_0002);
    let mut decoded = 0;
    for _ in 0..200_000 {
        let w = [r.next_u32(), r.next_u32(), r.next_u32(), r.next_u32()];
        decoded += check_decoded(w) as u32;
    }
    // Words one bit away from valid instructions: mostly reserved-bit violations.
    let mut near = 0;
    for _ in 0..200_000 {
        let mut w = encode(&random_inst(&mut r));
        let b = r.below(128) as usize;
        w[b / 32] ^= 1 << (b % 32);
        near += check_decoded(w) as u32;
    }
    println!("random words decoded: {decoded}; one-bit flips decoded: {near}");
    assert!(
        near > 10_000,
        "the flipped-bit set exercises the decoder's accept path"
    );
}

#[test]
fn assembled_text_round_trips_for_random_instructions() {
    let mut r = Rng::new(0x9e7a_0003);
    for _ in 0..50_000 {
        let w = encode(&random_inst(&mut r));
        assert!(check_decoded(w));
    }
}

#[test]
fn default_instruction_is_what_mesa_emits() {
    assert_eq!(encode(&Inst::new(Opcode::Nop)), [0; 4]);
    // Mesa 23.3's `MOV t1, void, void, u0` (corpus gc7000 add-sub-1).
    let mut mov = Inst::new(Opcode::Mov);
    mov.dst = Dst::temp(1, 15);
    mov.src[2] = Src::uniform(0, Swizzle::IDENTITY);
    assert_eq!(encode(&mov), [0x0781_1009, 0, 0, 0x2039_0008]);
}

#[test]
fn assembler_reports_line_and_column() {
    let specs = gpucc::etnaviv::specs::Specs::from_name("gc3000").unwrap();
    let e = assemble(
        specs,
        "mov t1, void, void, t2.xyzw\nadd t0, t1.xxxx, void, q3.xxxx\n",
    )
    .unwrap_err();
    assert_eq!((e.line, e.col), (2, 24), "{e}");
    let e = assemble(specs, "  frob t0, void, void, void").unwrap_err();
    assert_eq!((e.line, e.col), (1, 3));
    let e = assemble(specs, "mov t1, t2.xxxx, void, t2.xyzw").unwrap_err();
    assert!(e.message.contains("no src0"), "{e}");
    let e = assemble(specs, "mov t1, void, void, 1.1:f20").unwrap_err();
    assert!(e.message.contains("f20"), "{e}");
    let e = assemble(specs, "add t200, t1.xxxx, void, t2.xxxx").unwrap_err();
    assert!(e.message.contains("0..127"), "{e}");
    let p = assemble(
        specs,
        "; comment\n\nmov t1, void, void, t2 # identity swizzle\n",
    )
    .unwrap();
    assert_eq!(p.len(), 1);
    assert_eq!(
        disassemble_inst(&p[0]),
        "mov               t1, void, void, t2.xyzw"
    );
}

#[test]
fn mangled_assembly_never_panics() {
    let mut r = Rng::new(0x9e7a_0004);
    let junk = [
        '.', ',', ':', '|', '-', '[', ']', ';', ' ', '\t', 'x', 'w', '_', '0', '9', 'é', '€', 't',
        'u', 'a',
    ];
    let mut accepted = 0;
    for _ in 0..50_000 {
        let text = disassemble_inst(&random_inst(&mut r));
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..=r.below(3) {
            let at = r.below(chars.len() as u64) as usize;
            match r.below(3) {
                0 => {
                    chars.remove(at);
                }
                1 => chars.insert(at, *r.pick(&junk)),
                _ => chars[at] = *r.pick(&junk),
            }
        }
        let mangled: String = chars.into_iter().collect();
        if let Ok(i) = assemble_inst(&mangled) {
            accepted += 1;
            // Whatever is accepted encodes and decodes again.
            assert!(decode(encode(&i)).is_ok(), "{mangled}");
        }
    }
    assert!(accepted < 50_000);
    let note = format!(
        "store mem, t1.xxxx, u0.zzzz, t2.xyzw\t; dontcare bits in store: {}",
        "é".repeat(16)
    );
    assert!(assemble_inst(&note).is_err(), "{note}");
}
