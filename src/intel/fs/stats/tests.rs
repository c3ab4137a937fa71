//! Hand-derived estimates of tiny programs. Each expectation is worked out in the comment
//! from the figures documented in `timing.rs` (Mesa's model), not from the code's output.

use super::*;
use crate::intel::eu;

fn est(platform: &str, asm: &str) -> u32 {
    let dev = DevInfo::from_name(platform).unwrap();
    let insts = eu::assemble(dev, asm).unwrap_or_else(|e| panic!("{e:?}"));
    estimate(dev, &insts, 8).cycles
}

/// Mesa's own listing of this program prints 24 cycles (shared/corpus/mesa-asm/ivb,
/// glsl-algebraic-add-sub-1, SIMD8). Ivy Bridge float ALU: issue 2 per GRF, result after
/// 14. add: 0→2, g124 ready 16; three movs: 4, 6, 8, g127 ready 8+14 = 22. The render-target
/// write waits for its payload g124-g127 (22) and issues in 2: 24.
#[test]
fn ivb_render_target_write_matches_mesas_listing() {
    let asm = "
add(8)   g124<1>F  g2<0,1,0>F   0xbf000000F  { align1 1Q };
mov(8)   g125<1>F  g2.1<0,1,0>F  { align1 1Q };
mov(8)   g126<1>F  g2.2<0,1,0>F  { align1 1Q };
mov(8)   g127<1>F  g2.3<0,1,0>F  { align1 1Q };
sendc(8) null<1>UW g124<8,8,1>UD 0x88031400
         render MsgDesc: RT write SIMD8 LastRT Surface = 0  mlen 4 rlen 0 { align1 1Q EOT };
";
    assert_eq!(est("ivb", asm), 24);
}

/// The SIMD16 twin (Mesa prints 32): every ALU instruction is 2 GRFs, so issues in 4 and
/// keeps the pipe busy 4. add 0→4 (ready 18); movs 8, 12, 16 (g126-127 ready 30); send
/// waits to 30, issues in 2: 32.
#[test]
fn ivb_simd16_render_target_write_matches_mesas_listing() {
    let asm = "
add(16)   g120<1>F  g2<0,1,0>F   0xbf000000F  { align1 1H };
mov(16)   g122<1>F  g2.1<0,1,0>F  { align1 1H };
mov(16)   g124<1>F  g2.2<0,1,0>F  { align1 1H };
mov(16)   g126<1>F  g2.3<0,1,0>F  { align1 1H };
sendc(16) null<1>UW g120<8,8,1>UD 0x90031000
          render MsgDesc: RT write SIMD16 LastRT Surface = 0  mlen 8 rlen 0 { align1 1H EOT };
";
    assert_eq!(est("ivb", asm), 32);
}

/// Independent instructions only pay their issue time: 3 x 2 = 6.
#[test]
fn independent_alu_instructions_issue_back_to_back() {
    let asm = "
add(8) g10<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
add(8) g11<1>F g4<8,8,1>F g5<8,8,1>F { align1 1Q };
add(8) g12<1>F g6<8,8,1>F g7<8,8,1>F { align1 1Q };
";
    assert_eq!(est("ivb", asm), 6);
    assert_eq!(est("bdw", asm), 6);
}

/// A read-after-write waits for the result latency: float add on Ivy Bridge 14, integer 12,
/// Haswell float 12, Broadwell 8. Second add issues at 2 + latency, done 2 later.
#[test]
fn dependent_alu_waits_for_the_generations_latency() {
    let float = "
add(8) g10<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
add(8) g11<1>F g10<8,8,1>F g3<8,8,1>F { align1 1Q };
";
    let int = "
add(8) g10<1>D g2<8,8,1>D g3<8,8,1>D { align1 1Q };
add(8) g11<1>D g10<8,8,1>D g3<8,8,1>D { align1 1Q };
";
    assert_eq!(est("ivb", float), 2 + 14 + 2);
    assert_eq!(est("ivb", int), 2 + 12 + 2);
    assert_eq!(est("hsw", float), 2 + 12 + 2);
    assert_eq!(est("bdw", float), 2 + 8 + 2);
}

/// A scalar region reads one register: writing g10.1 and reading g10.1 scalar depends, but
/// reading g11 does not.
#[test]
fn dependences_follow_the_registers_a_region_covers() {
    let dep = "
mov(8) g10<1>F g2<8,8,1>F { align1 1Q };
mov(8) g12<1>F g10.1<0,1,0>F { align1 1Q };
";
    let indep = "
mov(8) g10<1>F g2<8,8,1>F { align1 1Q };
mov(8) g12<1>F g11.1<0,1,0>F { align1 1Q };
";
    assert_eq!(est("bdw", dep), 2 + 8 + 2);
    assert_eq!(est("bdw", indep), 4);
}

/// Extended math: Ivy Bridge issues in 2 and delivers after 14; Broadwell issues in
/// -2 + 4 = 2 and delivers after 16. The dependent mov waits, then issues in 2.
#[test]
fn math_latency() {
    let asm = "
math inv(8) g10<1>F g2<8,8,1>F null<8,8,1>F { align1 1Q };
mov(8) g11<1>F g10<8,8,1>F { align1 1Q };
";
    assert_eq!(est("ivb", asm), 2 + 14 + 2);
    assert_eq!(est("bdw", asm), 2 + 16 + 2);
}

/// Two back-to-back independent POWs on Ivy Bridge: the first issues at 2 and holds the
/// math unit for 4 (2 x 2 per GRF), so the second waits for the unit (6) rather than the
/// front end (4): total 6.
#[test]
fn a_busy_unit_delays_the_next_instruction_bound_to_it() {
    let asm = "
math pow(8) g10<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
math pow(8) g11<1>F g4<8,8,1>F g5<8,8,1>F { align1 1Q };
";
    assert_eq!(est("ivb", asm), 6);
}

/// Flags: a float CMP on Ivy Bridge sets its flag 20 cycles after issue; the predicated SEL
/// waits: 2 + 20 + 2 = 24. With the predicate on f1.0 instead there is no wait: 4.
#[test]
fn predicate_waits_for_the_flag() {
    let dep = "
cmp.l.f0.0(8) null<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
(+f0.0) sel(8) g4<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
";
    let indep = "
cmp.l.f0.0(8) null<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
(+f1.0) sel(8) g4<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
";
    assert_eq!(est("ivb", dep), 24);
    assert_eq!(est("ivb", indep), 4);
}

/// Sampler message on Ivy Bridge (mlen 2, rlen 4): issues in 2; the reply is ready
/// 750 + 2 x mlen = 754 cycles later (756); the mov of the reply then issues: 758.
#[test]
fn sampler_reply_latency() {
    let asm = "
send(8) g6<1>UW g12<8,8,1>UD 0x04420001
        sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0  mlen 2 rlen 4 { align1 1Q };
mov(8) g20<1>F g9<8,8,1>F { align1 1Q };
";
    assert_eq!(est("ivb", asm), 758);
}

/// The payload of a message is in use until the sampler has read it, 8 + 2 x mlen = 12
/// cycles after issue: overwriting g13 waits until 2 + 12 = 14, then issues: 16.
#[test]
fn overwriting_a_payload_waits_until_it_was_read() {
    let asm = "
send(8) g6<1>UW g12<8,8,1>UD 0x04420001
        sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0  mlen 2 rlen 4 { align1 1Q };
mov(8) g13<1>F g2<8,8,1>F { align1 1Q };
";
    assert_eq!(est("ivb", asm), 16);
}

/// 3-source bank conflicts on Broadwell: src1 g4 and src2 g6 share bank 0, so the MAD
/// issues in 2 + 1; with g5 (bank 1) in 2. Two of them: 6 versus 4.
#[test]
fn three_source_bank_conflict_costs_a_cycle_per_grf() {
    let conflict = "
mad(8) g10<1>F g2<4,4,1>F g4<4,4,1>F g6<4,4,1>F { align16 1Q };
mad(8) g11<1>F g2<4,4,1>F g4<4,4,1>F g6<4,4,1>F { align16 1Q };
";
    let none = "
mad(8) g10<1>F g2<4,4,1>F g4<4,4,1>F g5<4,4,1>F { align16 1Q };
mad(8) g11<1>F g2<4,4,1>F g4<4,4,1>F g5<4,4,1>F { align16 1Q };
";
    assert_eq!(est("bdw", conflict), 6);
    assert_eq!(est("bdw", none), 4);
}

/// Loop bodies count ten times. Ivy Bridge: mov 0→2 (g2 ready 16, elapsed 2); the body
/// add 2→4 and WHILE 4→6 each add 2 x 10 (elapsed 42); the mov after the loop waits for g2
/// (16) and issues at 18: +12, total 54. On Broadwell the WHILE issues in 8 (front end at
/// 12) and g2 was ready at 10, so the last mov does not wait: 2 + 20 + 80 + 2 = 104.
#[test]
fn loop_bodies_are_weighted_by_ten() {
    let asm = "
mov(8) g2<1>F g3<8,8,1>F { align1 1Q };
LOOP:
add(8) g4<1>F g5<8,8,1>F g6<8,8,1>F { align1 1Q };
(+f0.0) while(8) JIP: LOOP { align1 1Q };
mov(8) g7<1>F g2<8,8,1>F { align1 1Q };
";
    assert_eq!(est("ivb", asm), 54);
    assert_eq!(est("bdw", asm), 104);
}

/// Throughput: a thread whose only work is one sampler message keeps the sampler busy 16
/// cycles per GRF of execution size, more than its own 2 cycles: 8 channels per 16 cycles.
#[test]
fn throughput_is_limited_by_the_busiest_unit() {
    let dev = DevInfo::from_name("ivb").unwrap();
    let simd8 = eu::assemble(
        dev,
        "send(8) g6<1>UW g12<8,8,1>UD 0x04420001
         sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0  mlen 2 rlen 4 { align1 1Q };",
    )
    .unwrap();
    let e = estimate(dev, &simd8, 8);
    assert_eq!(e.cycles, 2);
    assert!((e.throughput - 8.0 / 16.0).abs() < 1e-9);
}

#[test]
fn listing_splits_programs_and_keeps_mesas_figures() {
    let text = "\
Native code for unnamed fragment shader GLSL447 (src_hash 0x00000000) (sha1 39)
SIMD8 shader: 2 instructions. 0 loops. 24 cycles. 1:2 spills:fills, 1 sends, scheduled with mode top-down.
   START B0 (24 cycles)
mov(8)          g125<1>F        g2.1<0,1,0>F                    { align1 1Q compacted };
   END B0

Native code for unnamed fragment shader GLSL447 (src_hash 0x00000000) (sha1 94)
SIMD16 shader: 5 instructions. 1 loops. 32 cycles. 0:0 spills:fills, 3 sends, scheduled with mode top-down.
add(16)         g120<1>F        g2<0,1,0>F      0xbf000000F  /* -0.5F */ { align1 1H };
";
    let progs = listing::parse(text).unwrap();
    assert_eq!(progs.len(), 2);
    assert_eq!(progs[0].simd, 8);
    assert_eq!(progs[0].line, 2);
    assert_eq!(
        progs[0].mesa,
        listing::MesaFigures {
            instructions: 2,
            loops: 0,
            cycles: 24,
            spills: 1,
            fills: 2,
            sends: 1
        }
    );
    // Line n of the program text is line 2 + n of the listing.
    assert_eq!(
        progs[0].asm.lines().nth(1).unwrap().trim_start(),
        "mov(8)          g125<1>F        g2.1<0,1,0>F                    { align1 1Q compacted };"
    );
    assert_eq!(progs[0].asm.lines().next().unwrap().trim(), "");
    assert_eq!(progs[1].simd, 16);
    assert_eq!(progs[1].mesa.loops, 1);
    assert_eq!(progs[1].mesa.sends, 3);
}

#[test]
fn listing_reads_a_vec4_program() {
    let text = "\
Native code for unnamed vertex shader GLSL3 (src_hash 0x00000000)
VS vec4 shader: 3 instructions. 0 loops. 30 cycles. 0:0 spills:fills, 1 sends. Compacted 48 to 48 bytes (0%)
   START B0 (30 cycles)
mov(8)          g1<1>F          g2<4,4,1>F                      { align16 1Q };
";
    let progs = listing::parse(text).unwrap();
    assert_eq!(progs.len(), 1);
    assert_eq!(progs[0].simd, listing::VEC4);
    assert_eq!(progs[0].line, 2);
    assert_eq!(
        (
            progs[0].mesa.instructions,
            progs[0].mesa.cycles,
            progs[0].mesa.sends
        ),
        (3, 30, 1)
    );
    assert_eq!(progs[0].asm.lines().count(), 2);
    assert!(progs[0].asm.ends_with("{ align16 1Q };\n"));
}

#[test]
fn listing_rejects_a_broken_statistics_line() {
    let err = listing::parse("SIMD8 shader: many instructions.\n").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.message.contains("instructions"), "{}", err.message);
    assert!(listing::parse("SIMD12 shader: 1 instructions.\n").is_err());
}

/// A replicated scalar in a 3-source instruction (`g8.5<0,1,0>`, align16) reads one dword of
/// g8, not the 16 bytes after it: the MAD does not wait for the sampler's reply in g9, and the
/// two issue back to back (2 + 2 on Ivy Bridge; g8 and g13 are in different banks).
#[test]
fn replicated_scalar_reads_one_register() {
    let asm = "
send(8) g9<1>UW g42<8,8,1>UD 0x04420102
        sampler MsgDesc: sample SIMD8 Surface = 2 Sampler = 1  mlen 2 rlen 4 { align1 1Q };
mad(8) g44<1>F g8.5<0,1,0>F g8.4<0,1,0>F g13<4,4,1>F { align16 1Q };
";
    assert_eq!(est("ivb", asm), 4);
}

/// The clock after each instruction: the mov of the sampler reply waits for it.
#[test]
fn issue_times_show_where_the_program_waits() {
    let dev = DevInfo::from_name("ivb").unwrap();
    let insts = eu::assemble(
        dev,
        "
send(8) g6<1>UW g12<8,8,1>UD 0x04420001
        sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0  mlen 2 rlen 4 { align1 1Q };
add(8) g20<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };
mov(8) g21<1>F g9<8,8,1>F { align1 1Q };
",
    )
    .unwrap();
    assert_eq!(issue_times(dev, &insts), vec![2, 4, 758]);
}

/// Mesa's listing of piglit fs-discard-deep-branch (bdw, SIMD8) prints 36 + 34 + 26 = 96.
/// Broadwell: integer and float ALU results after 8, flags after 12, flow control issues
/// in 8. B0: add 2 (g3 at 10); mov waits, 12; mov(1) f1 14; mov.nz f0.0 16 (flag at 28);
/// IF waits, 36. B1: mul 38, add 40 (g6 at 48), predicated CMP waits for g6, 50 (f1.0 at
/// 62), HALT waits, 70. B2: ENDIF 78; the HALT to the next instruction (Mesa's free
/// HALT_TARGET) 78; movs 80-86 (g126 at 94); the predicated write waits, 96.
#[test]
fn bdw_discard_program_matches_mesas_listing() {
    let asm = "
add(16)         g3<1>UW         g1.4<1,4,0>UW   0x11001010V     { align1 WE_all 1H };
mov(8)          g2<1>F          g3<8,4,1>UW                     { align1 1Q };
mov(1)          f1<1>UW         g1.14<0,1,0>UW                  { align1 WE_all 1N };
mov.nz.f0.0(8)  null<1>D        g4<0,1,0>D                      { align1 1Q };
(+f0.0) if(8)   JIP:  LABEL0          UIP:  LABEL0              { align1 1Q };
mul(8)          g5<1>F          g4.1<0,1,0>F    0x3f000000F  /* 0.5F */ { align1 1Q };
add(8)          g6<1>F          g2<8,8,1>F      0x3f000000F  /* 0.5F */ { align1 1Q };
(+f1.0) cmp.ge.f1.0(8) null<1>F g6<8,8,1>F      g5<8,8,1>F      { align1 1Q };
(-f1.0.any4h) halt(8) JIP:  LABEL0    UIP:  LABEL1              { align1 1Q };
LABEL0:
endif(8)        JIP:  LABEL2                                    { align1 1Q };
LABEL2:
halt(8)         JIP:  LABEL1          UIP:  LABEL1              { align1 1Q };
LABEL1:
mov(8)          g123<1>F        g4.2<0,1,0>F                    { align1 1Q compacted };
mov(8)          g124<1>F        g4.3<0,1,0>F                    { align1 1Q compacted };
mov(8)          g125<1>F        g4.4<0,1,0>F                    { align1 1Q compacted };
mov(8)          g126<1>F        g4.5<0,1,0>F                    { align1 1Q compacted };
(+f1.0) sendc(8) null<1>UW      g123<8,8,1>UD   0x88031400
                            render MsgDesc: RT write SIMD8 LastRT Surface = 0  mlen 4 rlen 0 { align1 1Q EOT };
";
    assert_eq!(est("bdw", asm), 96);
}
