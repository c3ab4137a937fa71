//! Every instruction Mesa 23.3 emitted for the corpus shaders (shared/corpus/mesa-asm/gc2000
//! and gc7000, captured through drm-shim) must decode, re-encode to the same words, print
//! text that assembles back to the same words, and pass the validator for its core.

mod common;

use gpucc::etnaviv::isa::Swizzle as Swz;
use gpucc::etnaviv::isa::*;
use gpucc::etnaviv::sim::Machine;
use gpucc::etnaviv::specs::Specs;

/// The `NNNN: w0 w1 w2 w3  TEXT` lines of one Mesa assembly dump: words and Mesa's text.
fn instruction_words(text: &str) -> Vec<([u32; 4], String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((idx, rest)) = line.split_once(": ") else {
            continue;
        };
        if idx.len() != 4 || !idx.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let words: Vec<u32> = rest
            .split_whitespace()
            .take(4)
            .filter_map(|w| u32::from_str_radix(w, 16).ok())
            .collect();
        if words.len() == 4 {
            let mesa = rest.get(37..).unwrap_or("").to_string();
            out.push(([words[0], words[1], words[2], words[3]], mesa));
        }
    }
    out
}

/// Our decoded fields printed with the rules of Mesa 23.3's `etnaviv_disasm.c` (which reads
/// the words through its own bitfield layout), so that comparing with the corpus text checks
/// our field extraction against an independent decoder. `None` for opcodes it did not know.
fn mesa_23_3_text(inst: &Inst, w: [u32; 4]) -> Option<String> {
    use Opcode::*;
    let known = [
        Nop, Add, Mad, Mul, Dp3, Dp4, Dsx, Dsy, Mov, Movar, Movai, Rcp, Rsq, Select, Set, Exp, Log,
        Frc, Call, Ret, Branch, Texkill, Texld, Texldb, Texldd, Texldl, Texldlpcf, Texldgpcf, Sqrt,
        Sin, Cos, Floor, Ceil, Sign, I2i, I2f, F2i, Cmp, Load, Store, Imullo0, Imulhi0, Imadlo0,
        Leadzero, Lshift, Rshift, Rotate, Or, And, Xor, Not, Dp2, Div, Iabs,
    ];
    if !known.contains(&inst.opcode) {
        return None;
    }
    let mut t = inst.opcode.name().to_uppercase();
    t += inst.ty.suffix();
    if inst.sat {
        t += ".SAT";
    }
    t += &inst.cond.suffix().to_uppercase();
    t.push(' ');
    // Mesa 23.3 reads these bits whatever the instruction (for branches they are part of the
    // target field), so take them from the words.
    if (w[3] >> 13) & 1 == 1 {
        t += "SEL_0 ";
    }
    if (w[3] >> 24) & 1 == 1 {
        t += "SEL_1 ";
    }
    if (w[3] >> 31) & 1 == 1 {
        t += "DST_FULL ";
    }
    let comps = |m: u8| if m == 15 { String::new() } else { mask_text(m) };
    let swiz = |s: Swz| {
        if s == Swz::IDENTITY {
            String::new()
        } else {
            let mut o = String::from(".");
            for i in 0..4 {
                o.push(['x', 'y', 'z', 'w'][s.component(i)]);
            }
            o
        }
    };
    let src = |s: &Src| -> String {
        if !s.use_ {
            return "void".into();
        }
        match s.kind {
            SrcKind::Imm(imm) => match imm.ty {
                ImmType::F20 => c_f(f32::from_bits(imm.bits << 12)),
                ImmType::S20 => (((imm.bits << 12) as i32) >> 12).to_string(),
                ImmType::U20 => imm.bits.to_string(),
                ImmType::F16 => format!(
                    "{}/{:05X}",
                    c_f(float::f16_to_f32(imm.bits as u16)),
                    imm.bits
                ),
            },
            SrcKind::Reg(r) => {
                let bar = if r.abs { "|" } else { "" };
                let reg = if r.group == RegGroup::Uniform1 {
                    r.reg + 128
                } else {
                    r.reg
                };
                format!(
                    "{}{bar}{}{reg}{}{}{bar}",
                    if r.neg { "-" } else { "" },
                    r.group.prefix(),
                    r.amode.suffix(),
                    swiz(r.swiz)
                )
            }
        }
    };
    let dst = |d: &Dst| {
        if d.use_ {
            format!("t{}{}{}", d.reg, d.amode.suffix(), comps(d.mask))
        } else {
            "void".into()
        }
    };
    let [s0, s1, s2] = &inst.src;
    let ops = match inst.opcode {
        Movar | Movai => format!(
            "a{}{}, {}, {}, {}",
            inst.dst.reg,
            comps(inst.dst.mask),
            src(s0),
            src(s1),
            src(s2)
        ),
        Texkill | Texld | Texldb | Texldd | Texldl | Texldlpcf | Texldgpcf => format!(
            "{}, tex{}{}{}, {}, {}, {}",
            dst(&inst.dst),
            inst.tex.id,
            inst.tex.amode.suffix(),
            swiz(inst.tex.swiz),
            src(s0),
            src(s1),
            src(s2)
        ),
        Call | Branch => format!("void, {}, {}, label_{:04}", src(s0), src(s1), inst.target),
        Store => format!(
            "mem{}, {}, {}, {}",
            comps(inst.dst.mask),
            src(s0),
            src(s1),
            src(s2)
        ),
        _ => format!("{}, {}, {}, {}", dst(&inst.dst), src(s0), src(s1), src(s2)),
    };
    Some(t + &ops)
}

/// C's `%f`.
fn c_f(x: f32) -> String {
    if x.is_nan() {
        if x.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        }
    } else if x.is_infinite() {
        if x < 0.0 {
            "-inf".into()
        } else {
            "inf".into()
        }
    } else {
        format!("{:.6}", f64::from(x))
    }
}

fn mask_text(mask: u8) -> String {
    let mut s = String::from(".");
    for (i, c) in ['x', 'y', 'z', 'w'].iter().enumerate() {
        s.push(if mask & (1 << i) != 0 { *c } else { '_' });
    }
    s
}

fn check_platform(platform: &str, core: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/mesa-asm/{platform}")) else {
        return;
    };
    let specs = Specs::from_name(core).unwrap();
    let files = common::files_with_suffix(&dir, ".asm");
    let (mut total, mut programs, mut lossy_address_writes, mut ran) =
        (0usize, 0usize, 0usize, 0usize);
    let mut compared = 0usize;
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let words = instruction_words(&text);
        if words.is_empty() {
            continue;
        }
        programs += 1;
        let mut program = Vec::new();
        for (w, mesa) in &words {
            total += 1;
            if let Ok(inst) = decode(*w) {
                if let Some(expected) = mesa_23_3_text(&inst, *w) {
                    compared += 1;
                    if &expected != mesa {
                        failures.push(format!(
                            "{}: Mesa says '{mesa}', we decode '{expected}'",
                            f.display()
                        ));
                    }
                }
            }
            match decode(*w) {
                Ok(inst) => {
                    assert_eq!(encode(&inst), *w);
                    let line = disassemble_inst(&inst);
                    if matches!(inst.opcode, Opcode::Movar | Opcode::Movai) && !inst.dst.use_ {
                        // isaspec prints the address-register mask as `void`; the text is
                        // lossy there, so check the a0 syntax instead.
                        let dst = format!("a{}{}", inst.dst.reg, mask_text(inst.dst.mask));
                        let alt = line.replacen("void", &dst, 1);
                        let again = assemble_inst(&alt).unwrap();
                        assert_eq!(encode(&again), *w, "{alt}");
                        lossy_address_writes += 1;
                        program.push(inst);
                        continue;
                    }
                    match assemble_inst(&line) {
                        Ok(again) if encode(&again) == *w => {}
                        Ok(again) => failures.push(format!(
                            "{}: {line}: re-assembles to {:08x?}",
                            f.display(),
                            encode(&again)
                        )),
                        Err(e) => failures.push(format!("{}: {line}: {e}", f.display())),
                    }
                    program.push(inst);
                }
                Err(e) => failures.push(format!("{}: {e}", f.display())),
            }
        }
        if program.len() == words.len() {
            if let Err(e) = validate_program(specs, &program) {
                failures.push(format!("{}: {e}", f.display()));
            }
            // Every emitted instruction is something the simulator executes.
            let mut m = Machine::new(specs);
            m.max_steps = 100_000;
            m.memory = vec![0; 4096];
            for (i, u) in m.uniforms.iter_mut().enumerate() {
                *u = [(i as f32 * 0.25).to_bits(); 4];
            }
            let inputs: Vec<[f32; 4]> = (0..16).map(|i| [0.5, 0.25, i as f32, 1.0]).collect();
            let fragment = f.to_string_lossy().ends_with(".fs.asm");
            let r = if fragment {
                m.run_fragment(&program, [8.5, 4.5, 0.5, 1.0], &inputs)
            } else {
                m.run_vertex(&program, &inputs)
            };
            match r {
                Ok(_) => ran += 1,
                // Input-dependent ends: loops bounded by uniforms and buffer addresses taken
                // from uniforms the test fills with arbitrary values.
                Err(e)
                    if e.message.contains("no end after")
                        || e.message.contains("outside memory") =>
                {
                    ran += 1
                }
                Err(e) => failures.push(format!("{}: simulate: {e}", f.display())),
            }
        }
    }
    println!(
        "{platform}: {total} instructions in {programs} programs, {} failures \
         ({lossy_address_writes} MOVAR/MOVAI checked through the a0 syntax); {ran} simulated; \
         {compared} compared with Mesa 23.3's own disassembly",
        failures.len()
    );
    let mut figs = common::expect::Figures::new(&format!("{platform}.etna_isa.mesa_code"));
    figs.count("instructions", total);
    figs.count("programs", programs);
    figs.count("failures", failures.len());
    figs.count("address_writes_via_a0", lossy_address_writes);
    figs.count("simulated", ran);
    figs.count("compared_with_mesa_text", compared);
    for f in failures.iter().take(20) {
        println!("  {f}");
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{} failures", failures.len());
}

#[test]
fn gc2000_corpus_round_trips() {
    check_platform("gc2000", "gc2000");
}

#[test]
fn gc7000_corpus_round_trips() {
    check_platform("gc7000", "gc7000");
}
