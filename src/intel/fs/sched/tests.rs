//! Scheduler tests on small hand-built programs; every expectation is derived by hand from the
//! rules in the module documentation and the latency table.

use super::*;
use crate::intel::eu::{CondMod, RegType};
use crate::intel::fs::ir::Reg;

fn ivb() -> &'static DevInfo {
    DevInfo::from_name("ivb").unwrap()
}

fn alu(op: Opcode, dst: Reg, src: Vec<Reg>) -> Inst {
    Inst::new(Op::Alu(op), 8, dst, src)
}

fn v(nr: u32) -> Reg {
    Reg::vgrf(nr, RegType::F)
}

fn g(nr: u32) -> Reg {
    Reg::fixed(nr, 0, RegType::F, 1)
}

fn imm(x: f32) -> Reg {
    Reg::imm_f(x)
}

fn program(vgrfs: u32, insts: Vec<Inst>) -> Program {
    let mut p = Program::default();
    for _ in 0..vgrfs {
        p.alloc(1);
    }
    p.insts = insts;
    p
}

/// A sampler message from a one-register payload into four registers.
fn sample(dst: Reg, payload: Reg) -> Inst {
    let mut s = Inst::new(Op::Send, 8, dst, vec![payload]);
    s.sfid = sfid::SAMPLER;
    s.mlen = 1;
    s.rlen = 4;
    s
}

/// A render-target write: a message with side effects.
fn fb_write(payload: Reg) -> Inst {
    let mut s = Inst::new(Op::Send, 8, Reg::null(RegType::UW), vec![payload]);
    s.sfid = sfid::RENDER_CACHE;
    s.mlen = 1;
    s
}

/// Read after write and write after write carry the producer's latency (14 for an ALU
/// instruction on Gen7), write after read none; flags order a conditional modifier before the
/// predicated reader and the reader before the next flag write; independent instructions have
/// no edge; a side-effect message is ordered after everything before it and before everything
/// after it.
#[test]
fn dependence_edges() {
    let mut cmp1 = alu(Opcode::Cmp, Reg::null(RegType::F), vec![v(2), imm(0.0)]);
    cmp1.cmod = CondMod::L;
    let mut sel = alu(Opcode::Sel, v(3), vec![v(0), v(1)]);
    sel.pred = Some(false);
    let mut cmp2 = alu(Opcode::Cmp, Reg::null(RegType::F), vec![v(1), imm(1.0)]);
    cmp2.cmod = CondMod::Ge;
    let insts = vec![
        alu(Opcode::Mov, v(0), vec![imm(1.0)]),         // 0
        alu(Opcode::Mov, v(1), vec![imm(2.0)]),         // 1
        alu(Opcode::Add, v(2), vec![v(0), v(1)]),       // 2
        alu(Opcode::Mov, v(0), vec![imm(3.0)]),         // 3
        cmp1,                                           // 4
        sel,                                            // 5
        cmp2,                                           // 6
        fb_write(v(3)),                                 // 7
        alu(Opcode::Mov, v(4), vec![imm(4.0)]),         // 8
        alu(Opcode::Mad, v(5), vec![v(4), v(4), v(4)]), // 9
    ];
    let p = program(6, insts.clone());
    let dag = dependencies(ivb(), &p, &insts);
    let edge = |a: usize, b: usize| {
        dag.children(a)
            .iter()
            .find(|e| e.0 as usize == b)
            .map(|e| e.1)
    };
    assert_eq!(edge(0, 2), Some(14), "v0 read after write");
    assert_eq!(edge(1, 2), Some(14), "v1 read after write");
    assert_eq!(edge(2, 3), Some(0), "v0 write after read");
    assert_eq!(edge(0, 3), Some(14), "v0 write after write");
    assert_eq!(edge(2, 4), Some(14), "v2 read by the compare");
    assert_eq!(edge(4, 5), Some(14), "flag read by the predicate");
    assert_eq!(edge(3, 5), Some(14), "new v0 read by the select");
    assert_eq!(
        edge(5, 6),
        Some(0),
        "flag written after the predicate read it"
    );
    assert_eq!(edge(4, 6), Some(14), "flag written twice");
    assert_eq!(edge(5, 7), Some(14), "message payload");
    for i in 0..7 {
        assert!(dag.has_edge(i, 7), "{i} before the render-target write");
    }
    assert!(dag.has_edge(7, 8), "the write before what follows it");
    assert_eq!(edge(8, 9), Some(14));
    assert!(!dag.has_edge(0, 1) && !dag.has_edge(1, 3) && !dag.has_edge(0, 4));
    assert_eq!(dag.parents[0], 0);
    assert_eq!(dag.parents[1], 0);
    assert_eq!(dag.parents[2], 2);
}

/// A Gen8 URB message on a one-register payload: a SIMD8 read into `rlen` registers, or (with
/// `rlen` 0) a SIMD8 write.
fn urb(dst: Reg, payload: Reg, rlen: u32) -> Inst {
    use crate::intel::msg::{Lengths, UrbDesc};
    let opcode = if rlen > 0 {
        UrbDesc::SIMD8_READ
    } else {
        UrbDesc::SIMD8_WRITE
    };
    let desc = UrbDesc {
        len: Lengths::new(1, rlen, true),
        opcode,
        ..UrbDesc::default()
    };
    let mut s = Inst::new(Op::Send, 8, dst, vec![payload]);
    s.sfid = sfid::URB;
    s.desc = desc.encode(80);
    s.mlen = 1;
    s.rlen = rlen as u8;
    s
}

/// URB reads have no side effect: the second read and the ALU instruction between them
/// depend on neither the first read nor each other, so a schedule may issue both reads before
/// either result is used (Mesa: a URB read SEND is no scheduling barrier). A URB write is a
/// barrier: the read after it stays after it, and everything before it stays before.
#[test]
fn urb_reads_move_and_urb_writes_hold() {
    let bdw = DevInfo::from_name("bdw").unwrap();
    let insts = vec![
        urb(v(0), g(2), 1),                           // 0: read
        alu(Opcode::Add, v(1), vec![v(0), imm(1.0)]), // 1
        urb(v(2), g(3), 1),                           // 2: read
        alu(Opcode::Mov, v(3), vec![imm(2.0)]),       // 3
        urb(Reg::null(RegType::UW), v(3), 0),         // 4: write
        urb(v(4), g(2), 1),                           // 5: read
    ];
    let p = program(5, insts.clone());
    let dag = dependencies(bdw, &p, &insts);
    assert!(dag.has_edge(0, 1), "the add reads the first read's result");
    assert!(
        !dag.has_edge(0, 2) && !dag.has_edge(1, 2),
        "reads pass each other"
    );
    assert!(!dag.has_edge(2, 3));
    for i in 0..4 {
        assert!(dag.has_edge(i, 4), "{i} before the write");
    }
    assert!(
        dag.has_edge(4, 5),
        "the read after the write stays after it"
    );
    assert_eq!(dag.parents[2], 0);
}

/// Four chains `a = mov imm; b = a * a` summed in order. As written, every `a` is computed
/// first, so five registers are live at once (a0..a3 and b0 when b0 is computed). The LIFO
/// heuristic finishes each chain before it starts the next: a0 b0 a1 b1 s a2 b2 s2 a3 b3 s3,
/// and never more than three registers are live.
#[test]
fn lifo_schedule_needs_fewer_registers() {
    let (a, b) = (|i: u32| v(i), |i: u32| v(4 + i));
    let mut insts = Vec::new();
    for i in 0..4 {
        insts.push(alu(Opcode::Mov, a(i), vec![imm(i as f32)]));
    }
    for i in 0..4 {
        insts.push(alu(Opcode::Mul, b(i), vec![a(i), a(i)]));
    }
    insts.push(alu(Opcode::Add, v(8), vec![b(0), b(1)]));
    insts.push(alu(Opcode::Add, v(9), vec![v(8), b(2)]));
    insts.push(alu(Opcode::Add, v(10), vec![v(9), b(3)]));
    let mut p = program(11, insts);
    assert_eq!(max_pressure(&p), 5);
    let before = p.clone();
    assert!(schedule(ivb(), &mut p, Mode::PreLifo));
    assert_eq!(max_pressure(&p), 3);
    let dst: Vec<u32> = p.insts.iter().map(|i| i.dst.nr).collect();
    assert_eq!(dst, vec![0, 4, 1, 5, 8, 2, 6, 9, 3, 7, 10]);
    // Keeping the order changes nothing.
    let mut same = before.clone();
    assert!(!schedule(ivb(), &mut same, Mode::KeepOrder));
    assert_eq!(same.insts, before.insts);
}

/// The pressure-driven modes take an instruction that frees registers before one on a longer
/// path. In the IF, the flag-setting move of v1 unblocks two instructions: a predicated move
/// that starts a chain of three multiplies (longest path, allocates v3) and the add of v0
/// (defined before the IF, dead after the add) and v1, which frees two registers and
/// allocates one. Both become ready at the same time; the latency-driven mode keeps the
/// program order (move first), the pressure-driven ones take the add.
#[test]
fn pressure_benefit_comes_first() {
    let mut set_flag = alu(Opcode::Mov, v(1), vec![g(4)]);
    set_flag.cmod = CondMod::Nz;
    let mut pred_mov = alu(Opcode::Mov, v(3), vec![g(5)]);
    pred_mov.pred = Some(false);
    let mut iff = Inst::new(Op::If, 8, Reg::BAD, vec![]);
    iff.pred = Some(false);
    let insts = vec![
        alu(Opcode::Mov, v(0), vec![imm(1.0)]),
        iff,
        set_flag,
        pred_mov,
        alu(Opcode::Add, v(2), vec![v(0), v(1)]),
        alu(Opcode::Mul, v(4), vec![v(3), v(3)]),
        alu(Opcode::Mul, v(5), vec![v(4), v(4)]),
        alu(Opcode::Mul, v(6), vec![v(5), v(5)]),
        Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
    ];
    for (mode, add_at) in [(Mode::Pre, 4), (Mode::PreNonLifo, 3), (Mode::PreLifo, 3)] {
        let mut p = program(7, insts.clone());
        schedule(ivb(), &mut p, mode);
        let pos = p.insts.iter().position(|i| i.dst.nr == 2).unwrap();
        assert_eq!(pos, add_at, "{mode:?}");
        assert_eq!(p.insts[2].dst.nr, 1, "{mode:?}: the flag write comes first");
    }
}

/// After allocation, a sampler result's reader waits 200 cycles (Mesa's Gen7 sampler
/// figure), so the independent MUL and MAD and the add of their results move up in between.
/// Optimistic start times: send 0, its reader 0+2+200, mul 0, mad 0, add max(0+2+14, 0+2+18)
/// = 20. Top-down by earliest start: send (clock 2); then mul (clock 4; the add's start
/// becomes max(20, 4+14)); mad (clock 6; add at 6+18 = 24); add (24 < 202); the reader.
/// The in-order estimate falls from 224 cycles (the reader stalls until 200, the add waits
/// for the MAD at 204+18) to 202 (the reader still waits for the sampler, but alone).
#[test]
fn post_ra_hides_sampler_latency() {
    let insts = vec![
        sample(g(10), g(2)),
        alu(Opcode::Add, g(20), vec![g(10), g(11)]),
        alu(Opcode::Mul, g(21), vec![g(5), g(6)]),
        alu(Opcode::Mad, g(22), vec![g(5), g(6), g(7)]),
        alu(Opcode::Add, g(23), vec![g(22), g(21)]),
    ];
    let mut p = program(0, insts.clone());
    assert_eq!(estimate_cycles(ivb(), &p.insts), 224);
    assert!(schedule(ivb(), &mut p, Mode::Post));
    let order: Vec<u32> = p.insts.iter().map(|i| i.dst.nr).collect();
    assert_eq!(order, vec![10, 21, 22, 23, 20]);
    assert_eq!(estimate_cycles(ivb(), &p.insts), 202);
}

/// Haswell's MAD latency is 16 and its math latency 14 (Mesa's table), Ivybridge's 18 and 16;
/// Broadwell uses the Ivybridge figures, as Mesa 23.3 does.
#[test]
fn latency_table_per_generation() {
    let mad = alu(Opcode::Mad, g(4), vec![g(1), g(2), g(3)]);
    let math = Inst::new(Op::Math(MathFn::Inv), 8, g(4), vec![g(1)]);
    let pow = Inst::new(Op::Math(MathFn::Pow), 8, g(4), vec![g(1), g(2)]);
    let lat = |name: &str, i: &Inst| latency(DevInfo::from_name(name).unwrap(), i);
    assert_eq!(
        (lat("ivb", &mad), lat("hsw", &mad), lat("bdw", &mad)),
        (18, 16, 18)
    );
    assert_eq!(
        (lat("ivb", &math), lat("hsw", &math), lat("bdw", &math)),
        (16, 14, 16)
    );
    assert_eq!((lat("ivb", &pow), lat("hsw", &pow)), (24, 22));
    assert_eq!(lat("ivb", &sample(g(4), g(2))), 200);
    assert_eq!(lat("ivb", &alu(Opcode::Add, g(4), vec![g(1), g(2)])), 14);
}

/// Only the runs between control-flow instructions are reordered: the movs inside the IF
/// stay inside it and the compare feeding the IF stays before it, while the two independent
/// sampler messages before the IF are free to swap with the ALU work around them.
#[test]
fn control_flow_stays_in_place() {
    let mut cmp = alu(Opcode::Cmp, Reg::null(RegType::F), vec![g(3), imm(0.0)]);
    cmp.cmod = CondMod::Z;
    let mut iff = Inst::new(Op::If, 8, Reg::BAD, vec![]);
    iff.pred = Some(false);
    let insts = vec![
        sample(g(10), g(2)),
        alu(Opcode::Add, g(20), vec![g(10), g(11)]),
        alu(Opcode::Mov, g(30), vec![g(4)]),
        cmp,
        iff,
        alu(Opcode::Add, g(21), vec![g(20), g(30)]),
        alu(Opcode::Mov, g(22), vec![g(5)]),
        Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
        alu(Opcode::Mov, g(23), vec![g(21)]),
    ];
    let mut p = program(0, insts.clone());
    schedule(ivb(), &mut p, Mode::Post);
    assert_eq!(p.insts[4].op, Op::If);
    assert_eq!(p.insts[7].op, Op::EndIf);
    assert_eq!(p.insts[8], insts[8]);
    let mut inside: Vec<Inst> = p.insts[5..7].to_vec();
    inside.sort_by_key(|i| i.dst.nr);
    assert_eq!(inside, insts[5..7].to_vec());
    // The sampler reader waits; the mov and compare go between.
    let before: Vec<u32> = p.insts[..4].iter().map(|i| i.dst.nr).collect();
    assert_eq!(before[0], 10);
    assert_eq!(before[3], 20);
}

/// The shared data this test reads is missing: a failure under `GPUCC_REQUIRE_SHARED` (CI),
/// else a SKIP line written past libtest's capture and recorded where
/// `tests/zz_skip_count.rs` counts the skips of the run (see `tests/common/mod.rs`).
fn skip_for_missing_data(dir: &std::path::Path) {
    use std::io::Write as _;
    let required =
        std::env::var_os("GPUCC_REQUIRE_SHARED").is_some_and(|v| v != "0" && !v.is_empty());
    assert!(
        !required,
        "{} not found, and GPUCC_REQUIRE_SHARED is set",
        dir.display()
    );
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("?");
    let why = format!("{} not found; shared data test skipped", dir.display());
    let _ = std::io::stderr().write_all(format!("SKIP {test}: {why}\n").as_bytes());
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let Some(profile) = exe.parent().and_then(|d| d.parent()) else {
        return;
    };
    let log = profile
        .join("gpucc-skips")
        .join(std::os::unix::process::parent_id().to_string());
    if std::fs::create_dir_all(&log).is_ok() {
        let file = log.join(format!("unittests.{}", std::process::id()));
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
        {
            let _ = f.write_all(format!("{test}\t{why}\n").as_bytes());
        }
    }
}

/// On the ivb corpus at SIMD8, after allocation, post-allocation scheduling lowers the total
/// in-order cycle estimate (Mesa's latencies, [`estimate_cycles`]). Also printed: the figure
/// with the latency-driven pre-allocation order too (over the shaders where that order
/// allocates, which all figures are restricted to).
#[test]
fn post_ra_scheduling_lowers_corpus_latency() {
    use crate::intel::fs::{pipeline, regalloc, Device};
    // The data folder as the integration tests find it (tests/common/mod.rs).
    let shared = std::env::var_os("GPUCC_SHARED").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        std::path::PathBuf::from,
    );
    let dir = shared.join("corpus/nir/ivb");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        skip_for_missing_data(&dir);
        return;
    };
    let mut files: Vec<_> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".fs.nir"))
        .collect();
    files.sort();
    let dev = ivb();
    let ctx = Device::new(dev);
    let (mut before, mut after, mut both, mut shaders, mut worse) = (0u64, 0u64, 0u64, 0, 0);
    for f in &files {
        let Ok(shader) = crate::nir::parse(&std::fs::read_to_string(f).unwrap()) else {
            continue;
        };
        let prepared = match pipeline::prepare(dev, &shader, 8, pipeline::OPTIMIZE) {
            Ok(prepared) => prepared,
            Err(crate::intel::fs::CompileError::Internal(e)) => panic!("{}: {e}", f.display()),
            Err(_) => continue,
        };
        let (mut p, reserved) = (prepared.prog, prepared.reserved.unwrap_or(0));
        let mut pre = p.clone();
        schedule(dev, &mut pre, Mode::Pre);
        let Ok(Some((alloc, _))) =
            regalloc::allocate_spilling(dev, &ctx.regs, &mut pre, reserved, false)
        else {
            continue;
        };
        regalloc::assign(&mut pre, &alloc);
        schedule(dev, &mut pre, Mode::Post);
        let Ok(Some((alloc, _))) =
            regalloc::allocate_spilling(dev, &ctx.regs, &mut p, reserved, false)
        else {
            continue;
        };
        regalloc::assign(&mut p, &alloc);
        let b = estimate_cycles(dev, &p.insts);
        schedule(dev, &mut p, Mode::Post);
        let a = estimate_cycles(dev, &p.insts);
        both += estimate_cycles(dev, &pre.insts);
        before += b;
        after += a;
        shaders += 1;
        worse += (a > b) as u32;
    }
    println!(
        "post-RA scheduling, ivb SIMD8, {shaders} shaders: estimated cycles {before} -> {after} \
         ({worse} shaders worse); with top-down pre-allocation scheduling too: {both}"
    );
    // Held exactly, as the integration tests hold theirs in tests/expectations/corpus.txt: a
    // floor would let a scheduler or allocator regression through. A change that moves them
    // updates these numbers in the same commit, with the reason.
    assert_eq!(
        (shaders, before, after, worse, both),
        (577, 858_576, 796_634, 5, 620_248),
        "(shaders, cycles before post-RA scheduling, after, shaders worse, with pre-RA \
         scheduling too)"
    );
}
