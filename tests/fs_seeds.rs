//! The seed discussions' examples, reproduced on the scalar backend's passes:
//! 000 (lower_load_payload), 002 (Gen7 SIMD width split) and 004 (liveness across loops).

use gpucc::intel::eu::{Opcode, RegType};
use gpucc::intel::fs::ir::{File, Inst, Op, Program, Reg};
use gpucc::intel::fs::{liveness, lower};
use gpucc::intel::DevInfo;

fn dev(name: &str) -> &'static DevInfo {
    DevInfo::from_name(name).unwrap()
}

fn mov(exec: u8, dst: Reg, src: Reg) -> Inst {
    Inst::new(Op::Alu(Opcode::Mov), exec, dst, vec![src])
}

// ---- 000: lower_load_payload ----

#[test]
fn load_payload_header_is_one_register_with_write_mask_all_and_the_rest_keep_controls() {
    let mut p = Program::default();
    let dst = p.alloc(5);
    let a = p.alloc(2);
    let b = p.alloc(2);
    let mut lp = Inst::new(
        Op::LoadPayload,
        16,
        Reg::vgrf(dst, RegType::F),
        vec![
            Reg::fixed(0, 0, RegType::UD, 1),
            Reg::vgrf(a, RegType::F),
            Reg::vgrf(b, RegType::F),
        ],
    );
    lp.header_size = 1;
    lp.sat = true;
    lp.pred = None;
    p.insts.push(lp);
    assert!(lower::lower_load_payload(dev("ivb"), &mut p));
    assert_eq!(p.insts.len(), 3);
    // Header: exactly one register, SIMD8 UD, write-mask-all, no saturate.
    let h = &p.insts[0];
    assert_eq!((h.exec_size, h.we_all, h.sat), (8, true, false));
    assert_eq!((h.dst.nr, h.dst.offset, h.dst.ty), (dst, 0, RegType::UD));
    assert_eq!(h.src[0].file, File::Fixed);
    // Payload sources: the instruction's width and saturate, no write-mask-all, 2 GRFs each.
    for (i, (k, src)) in [(1usize, a), (2, b)].into_iter().enumerate() {
        let m = &p.insts[k];
        assert_eq!(
            (m.exec_size, m.we_all, m.sat),
            (16, false, true),
            "source {i}"
        );
        assert_eq!(m.dst.offset, 32 + 64 * i as u32);
        assert_eq!(m.src[0].nr, src);
    }
}

fn compr4_payload() -> (Program, Vec<u32>) {
    let mut p = Program::default();
    let colours: Vec<u32> = (0..4).map(|_| p.alloc(2)).collect();
    let dst = Reg {
        file: File::Mrf,
        nr: 2,
        ..Reg::vgrf(0, RegType::F)
    };
    let mut lp = Inst::new(
        Op::LoadPayload,
        16,
        dst,
        colours.iter().map(|&c| Reg::vgrf(c, RegType::F)).collect(),
    );
    lp.compr4 = true;
    lp.sat = true;
    p.insts.push(lp);
    (p, colours)
}

#[test]
fn load_payload_compr4_uses_compr4_moves_where_the_platform_has_them() {
    let (mut p, colours) = compr4_payload();
    assert!(dev("g4x").has_compr4);
    lower::lower_load_payload(dev("g4x"), &mut p);
    assert_eq!(p.insts.len(), 4);
    for (i, m) in p.insts.iter().enumerate() {
        assert!(m.compr4 && m.sat && m.exec_size == 16);
        // m2+i receives channels 0-7 of colour i; COMPR4 puts 8-15 at m2+i+4.
        assert_eq!(
            (m.dst.file, m.dst.nr, m.dst.offset),
            (File::Mrf, 2, 32 * i as u32)
        );
        assert_eq!(m.src[0].nr, colours[i]);
    }
}

#[test]
fn load_payload_compr4_is_two_simd8_moves_without_compr4() {
    let (mut p, colours) = compr4_payload();
    assert!(!dev("brw").has_compr4);
    lower::lower_load_payload(dev("brw"), &mut p);
    assert_eq!(p.insts.len(), 8);
    // r0 g0 b0 a0 at m2..m5, r1 g1 b1 a1 at m6..m9; the second halves use sechalf (group 8).
    for (i, &colour) in colours.iter().enumerate().take(4) {
        let lo = &p.insts[2 * i];
        let hi = &p.insts[2 * i + 1];
        assert_eq!(
            (lo.exec_size, lo.group, lo.sat, lo.compr4),
            (8, 0, true, false)
        );
        assert_eq!(
            (hi.exec_size, hi.group, hi.sat, hi.compr4),
            (8, 8, true, false)
        );
        assert_eq!(lo.dst.offset, 32 * i as u32);
        assert_eq!(hi.dst.offset, 32 * (i as u32 + 4));
        assert_eq!((lo.src[0].nr, lo.src[0].offset), (colour, 0));
        assert_eq!((hi.src[0].nr, hi.src[0].offset), (colour, 32));
    }
}

// ---- 002: SIMD width on Gen7 ----

fn strided_mov(exec: u8, stride: u8, ty: RegType) -> Inst {
    let mut d = Reg::vgrf(0, ty);
    d.stride = stride;
    mov(exec, d, Reg::vgrf(1, ty))
}

#[test]
fn gen7_splits_compressed_writes_without_eight_channels_per_grf() {
    let ivb = dev("ivb");
    // 16 floats, stride 1: 8 channels in each of two GRFs, fine.
    assert_eq!(
        lower::max_simd_width(ivb, &strided_mov(16, 1, RegType::F)),
        16
    );
    // Stride 2: 4 channels per GRF over four GRFs, split so each part writes one GRF.
    assert_eq!(
        lower::max_simd_width(ivb, &strided_mov(16, 2, RegType::F)),
        4
    );
    // Double precision execution: 4 channels per GRF is what the hardware expects.
    let mut df = strided_mov(8, 1, RegType::DF);
    df.src[0] = Reg::vgrf(1, RegType::DF);
    assert_eq!(lower::max_simd_width(ivb, &df), 8);
    // One GRF written: never split; write-mask-all: exempt.
    assert_eq!(
        lower::max_simd_width(ivb, &strided_mov(16, 1, RegType::W)),
        16
    );
    let mut all = strided_mov(16, 2, RegType::F);
    all.we_all = true;
    assert_eq!(lower::max_simd_width(ivb, &all), 16);
    // Gen8 does not have the problem.
    assert_eq!(
        lower::max_simd_width(dev("bdw"), &strided_mov(16, 2, RegType::F)),
        16
    );
}

#[test]
fn gen7_rule_combines_with_other_limits_by_minimum() {
    let mad = |stride: u8| {
        let mut d = Reg::vgrf(0, RegType::F);
        d.stride = stride;
        Inst::new(
            Op::Alu(Opcode::Mad),
            16,
            d,
            vec![
                Reg::vgrf(1, RegType::F),
                Reg::vgrf(2, RegType::F),
                Reg::vgrf(3, RegType::F),
            ],
        )
    };
    // ivb runs 3-source at SIMD8 only; with a strided destination the Gen7 rule wins.
    assert_eq!(lower::max_simd_width(dev("ivb"), &mad(1)), 8);
    assert_eq!(lower::max_simd_width(dev("ivb"), &mad(2)), 4);
    // hsw runs 3-source SIMD16, but still has the Gen7 rule.
    assert_eq!(lower::max_simd_width(dev("hsw"), &mad(1)), 16);
    assert_eq!(lower::max_simd_width(dev("hsw"), &mad(2)), 4);
}

#[test]
fn split_parts_each_write_one_grf() {
    let mut p = Program::default();
    p.alloc(4);
    p.alloc(2);
    p.insts.push(strided_mov(16, 2, RegType::F));
    // An instruction of the program's full width waits for register allocation to be split.
    assert!(!lower::lower_simd_width(dev("ivb"), &mut p));
    assert_eq!(p.insts.len(), 1);
    assert!(lower::split_to_hardware_width(dev("ivb"), &mut p));
    assert_eq!(p.insts.len(), 4);
    for (i, part) in p.insts.iter().enumerate() {
        assert_eq!((part.exec_size, part.group), (4, 4 * i as u8));
        assert_eq!(part.dst.offset, 32 * i as u32);
        assert_eq!(part.src[0].offset, 16 * i as u32);
        assert_eq!(part.regs_written(), 1);
    }
}

// ---- 004: liveness across loops ----

#[test]
fn value_defined_in_a_loop_and_used_after_it_is_live_from_the_do() {
    // vec4 color2; while (1) { color = texture(); if (..) { color2 = color * 2; break; } }
    // gl_FragColor = color2;
    let mut p = Program::default();
    let cond = p.alloc(1);
    let color = p.alloc(1);
    let color2 = p.alloc(1);
    let out = p.alloc(1);
    let f = |v| Reg::vgrf(v, RegType::F);
    p.insts = vec![
        mov(8, f(cond), Reg::imm_f(1.0)),       // 0
        Inst::new(Op::Do, 8, Reg::BAD, vec![]), // 1
        mov(8, f(color), Reg::imm_f(0.5)),      // 2
        {
            let mut m = mov(8, Reg::null(RegType::F), f(cond)); // 3
            m.cmod = gpucc::intel::eu::CondMod::Nz;
            m
        },
        {
            let mut i = Inst::new(Op::If, 8, Reg::BAD, vec![]); // 4
            i.pred = Some(false);
            i
        },
        Inst::new(
            Op::Alu(Opcode::Mul),
            8,
            f(color2),
            vec![f(color), Reg::imm_f(2.0)],
        ), // 5
        Inst::new(Op::Break, 8, Reg::BAD, vec![]), // 6
        Inst::new(Op::EndIf, 8, Reg::BAD, vec![]), // 7
        Inst::new(Op::While, 8, Reg::BAD, vec![]), // 8
        mov(8, f(out), f(color2)),                 // 9
    ];
    let live = liveness::compute(&p);
    // color2 crosses the WHILE (defined at 5, read at 9): its interval starts at the DO.
    assert_eq!(live.vgrf_interval(color2 as usize, 1), Some((1, 9)));
    // color is defined before every use inside one iteration: it stays inside.
    assert_eq!(live.vgrf_interval(color as usize, 1), Some((2, 5)));
    // cond is read on every iteration: live through the whole loop.
    let (s, e) = live.vgrf_interval(cond as usize, 1).unwrap();
    assert!(s == 0 && e >= 8, "cond interval {s}..{e}");
}

#[test]
fn break_and_else_paths_keep_values_live() {
    // x defined before an if/else; read only in the else branch: live through the then branch.
    let mut p = Program::default();
    let x = p.alloc(1);
    let y = p.alloc(1);
    let f = |v| Reg::vgrf(v, RegType::F);
    p.insts = vec![
        mov(8, f(x), Reg::imm_f(1.0)), // 0
        {
            let mut i = Inst::new(Op::If, 8, Reg::BAD, vec![]); // 1
            i.pred = Some(false);
            i
        },
        mov(8, f(y), Reg::imm_f(2.0)),             // 2
        Inst::new(Op::Else, 8, Reg::BAD, vec![]),  // 3
        mov(8, f(y), f(x)),                        // 4
        Inst::new(Op::EndIf, 8, Reg::BAD, vec![]), // 5
        mov(8, Reg::null(RegType::F), f(y)),       // 6
    ];
    let live = liveness::compute(&p);
    assert_eq!(live.vgrf_interval(x as usize, 1), Some((0, 4)));
    // y is written on both paths and read after: from its first write to the read.
    assert_eq!(live.vgrf_interval(y as usize, 1), Some((2, 6)));
}

#[test]
fn predicated_sel_defines_but_predicated_mov_does_not() {
    // 0: mov v0 <- 1.0 (full); 1: mov v3 <- 3.0 (full); 2: (+f0) sel v1 <- v0, 2.0;
    // 3: (+f0) mov v2 <- v0; 4: (+f0) mov v3 <- v0; 5: read v1, v2; 6: read v3.
    let mut p = Program::default();
    let v0 = p.alloc(1);
    let v1 = p.alloc(1);
    let v2 = p.alloc(1);
    let v3 = p.alloc(1);
    let f = |v| Reg::vgrf(v, RegType::F);
    let pred = |mut i: Inst| {
        i.pred = Some(false);
        i
    };
    let read = |a, b| {
        Inst::new(
            Op::Alu(Opcode::Add),
            8,
            Reg::null(RegType::F),
            vec![f(a), f(b)],
        )
    };
    p.insts = vec![
        mov(8, f(v0), Reg::imm_f(1.0)),
        mov(8, f(v3), Reg::imm_f(3.0)),
        pred(Inst::new(
            Op::Alu(Opcode::Sel),
            8,
            f(v1),
            vec![f(v0), Reg::imm_f(2.0)],
        )),
        pred(mov(8, f(v2), f(v0))),
        pred(mov(8, f(v3), f(v0))),
        read(v1, v2),
        read(v3, v3),
    ];
    let live = liveness::compute(&p);
    // The SEL writes every channel: v1 starts at its definition.
    assert_eq!(live.vgrf_interval(v1 as usize, 1), Some((2, 5)));
    // The predicated MOV keeps the old value in the other channels, but v2 has none before
    // it: it starts there too.
    assert_eq!(live.vgrf_interval(v2 as usize, 1), Some((3, 5)));
    // v3's other channels keep the value written at 1.
    assert_eq!(live.vgrf_interval(v3 as usize, 1), Some((1, 6)));
}

#[test]
fn a_first_write_that_is_predicated_starts_the_interval_across_blocks() {
    // 0: mov v0 (full); 1: if; 2: (+f0) mov v1 <- v0; 3: else; 4: mov v2 <- v0; 5: endif;
    // 6: (+f0) mov v2 <- v0 (partial); 7: read v1, v2.
    // v1's first write, inside the THEN arm, is predicated: nothing of v1 exists before it,
    // so its interval runs from there to the read, not from the program's start. v2 is
    // written fully in the ELSE arm and partially after: from its first write to the read.
    let mut p = Program::default();
    let v0 = p.alloc(1);
    let v1 = p.alloc(1);
    let v2 = p.alloc(1);
    let f = |v| Reg::vgrf(v, RegType::F);
    let pred = |mut i: Inst| {
        i.pred = Some(false);
        i
    };
    p.insts = vec![
        mov(8, f(v0), Reg::imm_f(1.0)),
        pred(Inst::new(Op::If, 8, Reg::BAD, vec![])),
        pred(mov(8, f(v1), f(v0))),
        Inst::new(Op::Else, 8, Reg::BAD, vec![]),
        mov(8, f(v2), f(v0)),
        Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
        pred(mov(8, f(v2), f(v0))),
        Inst::new(
            Op::Alu(Opcode::Add),
            8,
            Reg::null(RegType::F),
            vec![f(v1), f(v2)],
        ),
    ];
    let live = liveness::compute(&p);
    assert_eq!(live.vgrf_interval(v1 as usize, 1), Some((2, 7)));
    assert_eq!(live.vgrf_interval(v2 as usize, 1), Some((4, 7)));

    // Inside a loop, a first write that is partial reaches the loop's next iteration: the
    // value is live from the DO, where the back edge brings it.
    // 0: do; 1: read v1; 2: (+f0) mov v1 <- v0; 3: while.
    let mut q = Program::default();
    let v0 = q.alloc(1);
    let v1 = q.alloc(1);
    q.insts = vec![
        mov(8, f(v0), Reg::imm_f(1.0)),
        Inst::new(Op::Do, 8, Reg::BAD, vec![]),
        mov(8, Reg::null(RegType::F), f(v1)),
        pred(mov(8, f(v1), f(v0))),
        Inst::new(Op::While, 8, Reg::BAD, vec![]),
    ];
    let live = liveness::compute(&q);
    assert_eq!(live.vgrf_interval(v1 as usize, 1), Some((1, 4)));
}
