//! Comparisons sunk to their flag reload.
//!
//! A NIR `bcsel` whose condition was computed a few instructions earlier becomes
//! `cmp.z.f0.0 X, a, b; ...; mov.nz.f0.0 null, X; (+f0.0) sel`. When something in between
//! writes the flag too (another comparison, typically the one computing the SEL's other
//! operand), conditional-modifier propagation cannot drop the reload, because the flag no
//! longer holds the CMP's condition when the SEL runs. Mesa leaves the reload there as well.
//!
//! This pass moves the CMP down to the reload's place instead and drops the reload: the CMP
//! then sets the flag right before its readers, and still writes `X` for any later reader.
//! It is safe when, between the two, nothing reads `X`, writes `X` or the CMP's sources, or
//! reads any flag (so no instruction in between saw the CMP's flag value), all within one
//! basic block. A CMP writes 0 or ~0 to `X` and its condition to the flag, so an integer
//! `.nz` test of `X` (`mov.nz null, X` or `cmp.nz null, X, 0`) sets exactly the same flag
//! bits as the CMP, over the same channels.

use crate::intel::eu::{CondMod, Opcode};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg};

/// How far back from a reload the pass looks for the comparison (bounded, so that a very
/// long block costs linear time).
const WINDOW: usize = 64;

/// `mov.nz null, X` or `cmp.nz null, X, 0` on an integer reading of a whole VGRF, the
/// register result unread (`reads` counts reads per VGRF).
fn is_reload(inst: &Inst, reads: &[u32]) -> bool {
    let Some(s) = inst.src.first() else {
        return false;
    };
    let flag_only = inst.dst.file == File::Null
        || (inst.dst.file == File::Vgrf && reads.get(inst.dst.nr as usize) == Some(&0));
    let zero = |r: &Reg| r.file == File::Imm && !r.neg && !r.abs && r.imm as u32 == 0;
    let shape = match inst.op {
        Op::Alu(Opcode::Mov) => inst.src.len() == 1,
        Op::Alu(Opcode::Cmp) => inst.src.len() == 2 && zero(&inst.src[1]),
        _ => false,
    };
    shape
        && flag_only
        && inst.pred.is_none()
        && !inst.sat
        && inst.cmod == CondMod::Nz
        && !inst.dst.ty.is_float()
        && super::flags::is_int_dword(s)
}

/// Whether `r` names any part of VGRF `nr`.
fn names_vgrf(r: &Reg, nr: u32) -> bool {
    r.file == File::Vgrf && r.nr == nr
}

/// Whether `inst`'s destination may overlap source `s` (conservative: the same register
/// of the same file, at any offset; any fixed register for a fixed source).
fn may_write(inst: &Inst, s: &Reg) -> bool {
    let d = &inst.dst;
    match s.file {
        File::Vgrf => names_vgrf(d, s.nr),
        File::Fixed | File::Attr | File::Mrf => d.file == s.file,
        _ => false,
    }
}

/// For the reload at `ip`, the position of the CMP it may replace, or `None`.
fn comparison_for(prog: &Program, ip: usize) -> Option<usize> {
    let test = &prog.insts[ip];
    let x = test.src[0];
    let mut flag_written = false;
    let from = ip.saturating_sub(WINDOW);
    for w in (from..ip).rev() {
        let scan = &prog.insts[w];
        if scan.op.is_flow() || scan.pred.is_some() {
            return None;
        }
        // Instructions that read a flag or the pixel mask without a predicate.
        if matches!(scan.op, Op::FbWrite { .. } | Op::Send | Op::Uniformize) {
            return None;
        }
        if !names_vgrf(&scan.dst, x.nr) {
            if scan.src.iter().any(|s| names_vgrf(s, x.nr)) {
                return None;
            }
            flag_written |= scan.cmod != CondMod::None;
            continue;
        }
        // The nearest writer of X: a whole, unpredicated integer or float CMP of the same
        // channels, setting the flag the reload sets.
        let fits = scan.op == Op::Alu(Opcode::Cmp)
            && scan.cmod != CondMod::None
            && scan.flag_subnr == test.flag_subnr
            && scan.dst.offset == x.offset
            && scan.dst.stride == 1
            && scan.dst.region.is_none()
            && scan.dst.ty.size() == 4
            && scan.exec_size == test.exec_size
            && scan.group == test.group
            && scan.we_all == test.we_all
            && !scan.sat
            && scan.regs_written() == 1;
        // Without a flag write in between, conditional-modifier propagation drops the
        // reload where the CMP stands.
        if !fits || !flag_written {
            return None;
        }
        let between = &prog.insts[w + 1..ip];
        let clobbered = between
            .iter()
            .any(|i| scan.src.iter().any(|s| may_write(i, s)));
        return (!clobbered).then_some(w);
    }
    None
}

/// Sinks comparisons to their flag reloads as described in the module documentation;
/// returns whether any reload went.
pub fn sink_comparisons(prog: &mut Program) -> bool {
    let mut reads = prog.vgrf_read_counts();
    let mut progress = false;
    let mut ip = 0;
    while ip < prog.insts.len() {
        if is_reload(&prog.insts[ip], &reads) {
            if let Some(w) = comparison_for(prog, ip) {
                // The reload's source read of X goes with it.
                let x = prog.insts[ip].src[0].nr as usize;
                reads[x] = reads[x].saturating_sub(1);
                let cmp = prog.insts.remove(w);
                prog.insts[ip - 1] = cmp;
                progress = true;
                continue;
            }
        }
        ip += 1;
    }
    progress
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, alu, f, flow};
    use super::*;
    use crate::intel::eu::RegType;

    const D: RegType = RegType::D;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(sink_comparisons, insts)
    }

    fn unchanged(insts: Vec<Inst>) {
        testing::unchanged(sink_comparisons, insts)
    }

    fn d(nr: u32) -> Reg {
        Reg::vgrf(nr, D)
    }

    fn cmod(mut i: Inst, c: CondMod) -> Inst {
        i.cmod = c;
        i
    }

    /// `cmp.<c> vX, vA, vB`
    fn cmp(x: u32, a: Reg, b: Reg, c: CondMod) -> Inst {
        cmod(alu(Opcode::Cmp, d(x), vec![a, b]), c)
    }

    /// `mov.nz null, vX`
    fn reload(x: u32) -> Inst {
        cmod(alu(Opcode::Mov, Reg::null(D), vec![d(x)]), CondMod::Nz)
    }

    fn sel(dst: u32, a: u32, b: u32) -> Inst {
        let mut s = alu(Opcode::Sel, d(dst), vec![d(a), d(b)]);
        s.pred = Some(false);
        s
    }

    #[test]
    fn a_comparison_moves_past_another_to_its_reload() {
        // cmp.z v3, v0, 6; cmp.ge v2, v1, v4; mov.nz null, v3; (+f0) sel v5, v2, v6
        //   =>  cmp.ge v2, v1, v4; cmp.z v3, v0, 6; (+f0) sel v5, v2, v6
        let first = cmp(3, d(0), Reg::imm(D, 6), CondMod::Z);
        let second = cmp(2, d(1), d(4), CondMod::Ge);
        let (p, out) = run(vec![first.clone(), second.clone(), reload(3), sel(5, 2, 6)]);
        assert!(p);
        assert_eq!(out, vec![second, first, sel(5, 2, 6)]);
    }

    #[test]
    fn a_cmp_nz_zero_reload_goes_too_and_a_float_comparison_moves() {
        let first = cmod(alu(Opcode::Cmp, f(3), vec![f(0), f(1)]), CondMod::L);
        let second = cmp(2, d(1), d(4), CondMod::Ge);
        let test = cmod(
            alu(Opcode::Cmp, Reg::null(D), vec![d(3), Reg::imm(D, 0)]),
            CondMod::Nz,
        );
        let (p, out) = run(vec![first.clone(), second.clone(), test, sel(5, 2, 6)]);
        assert!(p);
        assert_eq!(out, vec![second, first, sel(5, 2, 6)]);
    }

    #[test]
    fn nothing_moves_without_a_flag_write_in_between() {
        // Conditional-modifier propagation's case: the CMP's flag is still there.
        let first = cmp(3, d(0), d(1), CondMod::Z);
        let add = alu(Opcode::Add, d(2), vec![d(1), d(4)]);
        unchanged(vec![first, add, reload(3), sel(5, 2, 6)]);
    }

    #[test]
    fn a_flag_read_in_between_keeps_the_order() {
        // The SEL in between reads the first CMP's flag.
        let first = cmp(3, d(0), d(1), CondMod::Z);
        let second = cmp(2, d(1), d(4), CondMod::Ge);
        unchanged(vec![first, sel(7, 0, 1), second, reload(3), sel(5, 2, 6)]);
    }

    #[test]
    fn a_read_of_the_result_in_between_keeps_the_order() {
        let first = cmp(3, d(0), d(1), CondMod::Z);
        let second = cmp(2, d(3), d(4), CondMod::Ge);
        unchanged(vec![first, second, reload(3), sel(5, 2, 6)]);
    }

    #[test]
    fn a_write_to_a_source_in_between_keeps_the_order() {
        let first = cmp(3, d(0), d(1), CondMod::Z);
        let second = cmp(1, d(2), d(4), CondMod::Ge);
        unchanged(vec![first, second, reload(3), sel(5, 1, 6)]);
    }

    #[test]
    fn control_flow_in_between_keeps_the_order() {
        let first = cmp(3, d(0), d(1), CondMod::Z);
        let second = cmp(2, d(1), d(4), CondMod::Ge);
        unchanged(vec![
            first,
            second,
            flow(Op::If),
            reload(3),
            sel(5, 2, 6),
            flow(Op::EndIf),
        ]);
    }

    #[test]
    fn a_reload_whose_result_is_read_or_that_is_not_nz_stays() {
        let first = cmp(3, d(0), d(1), CondMod::Z);
        let second = cmp(2, d(1), d(4), CondMod::Ge);
        let mut kept = reload(3);
        kept.dst = d(8);
        let read = alu(Opcode::Add, d(9), vec![d(8), d(1)]);
        unchanged(vec![first.clone(), second.clone(), kept, read]);
        let z = cmod(alu(Opcode::Mov, Reg::null(D), vec![d(3)]), CondMod::Z);
        unchanged(vec![first, second, z, sel(5, 2, 6)]);
    }
}
