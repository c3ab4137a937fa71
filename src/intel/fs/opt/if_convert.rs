//! If-conversion of short arithmetic arms: an IF (and ELSE) whose arms hold only a few plain
//! ALU instructions becomes those instructions predicated on the IF's flag, and the IF, ELSE
//! and ENDIF go.
//!
//! ```text
//! (+f0) if                           (+f0) add v3, v1, v2
//!       add v3, v1, v2       =>      (-f0) mul v3, v1, v4
//! else
//!       mul v3, v1, v4
//! endif
//! ```
//!
//! An IF only masks channels: an instruction in the THEN arm writes the channels whose flag
//! bit passes, one in the ELSE arm the others, and a predicate on the instruction selects the
//! same channels as long as the flag does not change in between, so the arms may not write
//! any flag (no conditional modifiers, no CMP) or be predicated already, and hold no sends,
//! math, jumps or write-mask-all instructions. A register written and read only inside one
//! arm, whose first access there overwrites it completely, is a temporary: its value in the
//! other channels is never read, so its instructions run unpredicated (which keeps it a full
//! definition for liveness, rather than a partial one live from the program's start). Mesa's
//! `opt_peephole_sel` does the MOV-only form of this; arms are limited to [`MAX_ARM`]
//! instructions in all, because the converted code runs both arms whatever the flag says.
//!
//! An IF/ELSE one of whose arms compares and selects on the IF's own flag (a `switch` lowered
//! to nested IFs) converts in a second form, [`convert_flag_arm`]: that arm first, for every
//! channel, then the IF's compare again, then the other arm predicated.
//!
//! An IF/ELSE with one short plain arm and another that cannot be converted (control flow,
//! messages, flag writes) keeps its IF but loses its ELSE in a third form,
//! [`hoist_plain_arm`]: the plain arm moves ahead of the IF, predicated.

use crate::intel::eu::{CondMod, Opcode};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg, REG_SIZE};

/// The most instructions, both arms together, that a converted IF may hold.
pub const MAX_ARM: usize = 16;

/// Whether `inst` may stand in a converted arm.
fn convertible(inst: &Inst, iff: &Inst) -> bool {
    let Op::Alu(op) = inst.op else {
        return false;
    };
    let channels_inside = inst.group >= iff.group
        && inst.group + inst.exec_size <= iff.group + iff.exec_size
        && inst.exec_size <= iff.exec_size;
    !matches!(op, Opcode::Cmp | Opcode::Cmpn)
        && inst.pred.is_none()
        && inst.cmod == CondMod::None
        && !inst.we_all
        && inst.dst.file == File::Vgrf
        && channels_inside
}

/// Reads and writes of each VGRF in `insts`.
fn accesses(insts: &[Inst], n: usize) -> Vec<u32> {
    let mut count = vec![0u32; n];
    for inst in insts {
        for r in inst.src.iter().chain(std::iter::once(&inst.dst)) {
            if r.file == File::Vgrf {
                if let Some(c) = count.get_mut(r.nr as usize) {
                    *c += 1;
                }
            }
        }
    }
    count
}

/// The program's access counts per VGRF, counted on first need.
fn counts<'a>(all: &'a mut Option<Vec<u32>>, prog: &Program) -> &'a mut Vec<u32> {
    all.get_or_insert_with(|| accesses(&prog.insts, prog.vgrf_sizes.len()))
}

/// Whether `inst` overwrites all of VGRF `inst.dst.nr` (of `size` registers).
fn writes_whole(inst: &Inst, size: u32) -> bool {
    let d = &inst.dst;
    d.offset == 0
        && d.stride == 1
        && d.region.is_none()
        && inst.regs_written() == size
        && inst.exec_size as u32 * d.ty.size() >= size * REG_SIZE
}

/// Predicates the arm `arm` (positions in `prog.insts`) with `pred` on `flag`, leaving the
/// temporaries of the arm unpredicated.
fn predicate_arm(
    prog: &mut Program,
    arm: std::ops::Range<usize>,
    pred: bool,
    flag: u8,
    all: &[u32],
) {
    // An arm holds a few instructions: its registers are kept in short lists rather than in
    // tables over every VGRF of the program.
    let insts = &prog.insts[arm.clone()];
    let local = |v: u32| {
        insts
            .iter()
            .flat_map(|i| i.src.iter().chain(std::iter::once(&i.dst)))
            .filter(|r| r.file == File::Vgrf && r.nr == v)
            .count() as u32
    };
    let mut seen: Vec<u32> = Vec::new();
    let mut temps: Vec<u32> = Vec::new();
    for inst in insts {
        for s in inst.src.iter().filter(|s| s.file == File::Vgrf) {
            if !seen.contains(&s.nr) {
                seen.push(s.nr);
            }
        }
        let d = inst.dst.nr;
        if !seen.contains(&d) {
            seen.push(d);
            if local(d) == all[d as usize] && writes_whole(inst, prog.vgrf_sizes[d as usize]) {
                temps.push(d);
            }
        }
    }
    for inst in &mut prog.insts[arm] {
        if !temps.contains(&inst.dst.nr) {
            inst.pred = Some(pred);
            inst.flag_subnr = flag;
        }
    }
}

/// Converts short IF/ELSE/ENDIF arms as described in the module documentation; returns
/// whether any IF went.
pub fn if_convert(prog: &mut Program) -> bool {
    let mut all: Option<Vec<u32>> = None;
    let mut progress = false;
    let mut ip = 0;
    while ip < prog.insts.len() {
        let iff = &prog.insts[ip];
        if iff.op != Op::If || iff.pred.is_none() {
            ip += 1;
            continue;
        }
        // The arms: up to ELSE (if any) and ENDIF, with no other control flow inside.
        let mut else_at = None;
        let mut end = None;
        for (k, inst) in prog.insts[ip + 1..].iter().enumerate().take(MAX_ARM + 2) {
            let at = ip + 1 + k;
            match inst.op {
                Op::Else if else_at.is_none() => else_at = Some(at),
                Op::EndIf => {
                    end = Some(at);
                    break;
                }
                _ if inst.op.is_flow() || !convertible(inst, iff) => break,
                _ => {}
            }
        }
        let Some(end) = end else {
            let all = counts(&mut all, prog);
            progress |= convert_flag_arm(prog, ip, all);
            ip += 1;
            continue;
        };
        let body = end - ip - 1 - else_at.is_some() as usize;
        if body > MAX_ARM {
            ip += 1;
            continue;
        }
        let (inv, flag) = (iff.pred.unwrap_or(false), iff.flag_subnr);
        let all = counts(&mut all, prog);
        let then_end = else_at.unwrap_or(end);
        predicate_arm(prog, ip + 1..then_end, inv, flag, all);
        if let Some(e) = else_at {
            predicate_arm(prog, e + 1..end, !inv, flag, all);
            prog.insts.remove(end);
            prog.insts.remove(e);
        } else {
            prog.insts.remove(end);
        }
        prog.insts.remove(ip);
        progress = true;
    }
    // The third form, from the end backwards: a conversion changes nothing before its IF.
    // A dropped ELSE becomes a NOP (the optimizer sees none otherwise), and all go at the
    // end: removing each at once would move the rest of the program every time.
    // The conversions keep the program's length and move instructions only inside their
    // own IF, so the ELSEs and ENDIFs of the IFs before it stay where they were found.
    let mut hoisted = false;
    for (ip, e, end) in if_else_endifs(&prog.insts).into_iter().rev() {
        hoisted |= hoist_plain_arm(prog, ip, e, end, &mut all);
    }
    if hoisted {
        prog.insts.retain(|i| i.op != Op::Alu(Opcode::Nop));
    }
    progress || hoisted
}

/// The most instructions, both arms together, of an IF converted with [`convert_flag_arm`].
const MAX_FLAG_ARMS: usize = 24;

/// The second form: one arm compares and selects on the IF's own flag, the other is plain.
///
/// ```text
/// cmp.z.f0 v9, v1, 0                 cmp.z.f0 v9, v1, 0
/// (+f0) if                           cmp.z.f0 null, v1, 3
///       mov v3, v5          =>       (+f0) sel v3, v6, v7
/// else                               cmp.z.f0 null, v1, 0
///       cmp.z.f0 null, v1, 3         (+f0) mov v3, v5
///       (+f0) sel v3, v6, v7
/// endif
/// ```
///
/// The flag arm runs for every channel, unpredicated; the instruction that set the IF's flag
/// runs again into a null register, and the plain arm follows predicated on it. That is right
/// when the flag arm's work is harmless in the plain arm's channels: each register it writes
/// is its own temporary or is overwritten whole by the plain arm, and the plain arm reads
/// nothing the flag arm writes. The flag is recomputed from the same sources, so neither arm
/// nor anything between the compare and the IF may write them, and the flag after the ENDIF
/// (the compare's everywhere, where the flag arm's channels had the arm's last compare) must
/// be written again before anything reads it. Mesa keeps such IFs; the conversion trades the
/// IF, ELSE and ENDIF for one instruction.
/// `all` counts each VGRF's accesses in the program; the compare run again adds reads of its
/// sources, which are counted here (the other instructions only move).
fn convert_flag_arm(prog: &mut Program, ip: usize, all: &mut [u32]) -> bool {
    let iff = &prog.insts[ip];
    let (Some(inv), flag) = (iff.pred, iff.flag_subnr) else {
        return false;
    };
    let (group, exec) = (iff.group, iff.exec_size);
    let same_channels = |i: &Inst| i.group == group && i.exec_size == exec;
    // The arms, with no control flow inside.
    let mut else_at = None;
    let mut end = None;
    for (k, inst) in prog.insts[ip + 1..]
        .iter()
        .enumerate()
        .take(MAX_FLAG_ARMS + 2)
    {
        match inst.op {
            Op::Else if else_at.is_none() => else_at = Some(ip + 1 + k),
            Op::EndIf => {
                end = Some(ip + 1 + k);
                break;
            }
            op if op.is_flow() => return false,
            _ => {}
        }
    }
    let (Some(e), Some(end)) = (else_at, end) else {
        return false;
    };
    let flagged = |i: &Inst| i.pred.is_some() || i.cmod != CondMod::None;
    let flag_arm_inst = |i: &Inst| {
        matches!(i.op, Op::Alu(_))
            && !i.we_all
            && !i.sat
            && same_channels(i)
            && matches!(i.dst.file, File::Vgrf | File::Null)
            && (!flagged(i) || i.flag_subnr == flag)
    };
    let (then_arm, else_arm) = (ip + 1..e, e + 1..end);
    let insts = &prog.insts;
    let arm_flagged = |r: &std::ops::Range<usize>| insts[r.clone()].iter().any(flagged);
    let (x, y, y_pred) = match (arm_flagged(&then_arm), arm_flagged(&else_arm)) {
        (true, false) => (then_arm, else_arm, !inv),
        (false, true) => (else_arm, then_arm, inv),
        _ => return false,
    };
    if y.is_empty()
        || x.len() + y.len() > MAX_FLAG_ARMS
        || !insts[x.clone()].iter().all(flag_arm_inst)
        || !insts[y.clone()].iter().all(|i| convertible(i, iff))
    {
        return false;
    }
    // The instruction that set the IF's flag, unpredicated, with nothing between it and the
    // IF writing its sources or the flag.
    let Some(p) = (0..ip)
        .rev()
        .find(|&k| flagged(&insts[k]) || insts[k].op.is_flow())
    else {
        return false;
    };
    let producer = &insts[p];
    if producer.op.is_flow()
        || producer.pred.is_some()
        || producer.cmod == CondMod::None
        || producer.flag_subnr != flag
        || !flag_arm_inst(producer)
    {
        return false;
    }
    let n = prog.vgrf_sizes.len();
    let mut x_writes = vec![false; n];
    let mut y_reads = vec![false; n];
    let mut y_whole = vec![false; n];
    let mut p_reads = vec![false; n];
    let vgrf = |r: &Reg| (r.file == File::Vgrf).then_some(r.nr as usize);
    for s in producer.src.iter().filter_map(vgrf) {
        p_reads[s] = true;
    }
    for i in &insts[p + 1..ip] {
        if vgrf(&i.dst).is_some_and(|d| p_reads[d]) {
            return false;
        }
    }
    for i in &insts[x.clone()] {
        if let Some(d) = vgrf(&i.dst) {
            x_writes[d] = true;
        }
    }
    for i in &insts[y.clone()] {
        for s in i.src.iter().filter_map(vgrf) {
            y_reads[s] = true;
        }
        if let Some(d) = vgrf(&i.dst) {
            y_whole[d] |= writes_whole(i, prog.vgrf_sizes[d]);
        }
    }
    let x_local = accesses(&insts[x.clone()], n);
    for d in (0..n).filter(|&d| x_writes[d]) {
        let local = x_local[d] == all[d];
        if y_reads[d] || p_reads[d] || !(local || y_whole[d]) {
            return false;
        }
    }
    // The flag must be written again after the ENDIF before it is read.
    // An ENDIF passes every channel on; at an ELSE this code's channels go on after the
    // matching ENDIF, skipping the other arm (which writes the flag only for its own).
    let mut rewritten = false;
    let mut k = end + 1;
    while let Some(i) = insts.get(k) {
        match i.op {
            Op::EndIf => {}
            Op::Else => {
                let mut depth = 0;
                while let Some(j) = insts.get(k + 1) {
                    k += 1;
                    match j.op {
                        Op::If => depth += 1,
                        Op::EndIf if depth == 0 => break,
                        Op::EndIf => depth -= 1,
                        _ => {}
                    }
                }
            }
            op if op.is_flow() => break,
            _ if i.op.is_send() || i.pred.is_some_and(|_| i.flag_subnr == flag) => break,
            _ if i.cmod != CondMod::None
                && i.flag_subnr == flag
                && same_channels(i)
                && !i.we_all =>
            {
                rewritten = true;
                break;
            }
            _ => {}
        }
        k += 1;
    }
    if !rewritten {
        return false;
    }
    let mut again = prog.insts[p].clone();
    again.dst = Reg::null(again.dst.ty);
    predicate_arm(prog, y.clone(), y_pred, flag, all);
    for s in again.src.iter().filter_map(vgrf) {
        all[s] += 1;
    }
    let mut out: Vec<Inst> = prog.insts[x].to_vec();
    out.push(again);
    out.extend(prog.insts[y].iter().cloned());
    prog.insts.splice(ip..=end, out);
    true
}

/// What a dropped ELSE becomes until [`if_convert`] removes it.
fn gone() -> Inst {
    Inst::new(Op::Alu(Opcode::Nop), 1, Reg::BAD, Vec::new())
}

/// The IFs that have an ELSE, with that ELSE and their ENDIF, in program order.
fn if_else_endifs(insts: &[Inst]) -> Vec<(usize, usize, usize)> {
    let mut open: Vec<(usize, Option<usize>)> = Vec::new();
    let mut found = Vec::new();
    for (k, inst) in insts.iter().enumerate() {
        match inst.op {
            Op::If => open.push((k, None)),
            Op::Else => {
                if let Some(top) = open.last_mut() {
                    top.1 = Some(k);
                }
            }
            Op::EndIf => {
                if let Some((ip, Some(e))) = open.pop() {
                    found.push((ip, e, k));
                }
            }
            _ => {}
        }
    }
    found.sort_unstable();
    found
}

/// The most instructions of an arm moved ahead of its IF by [`hoist_plain_arm`]: they run
/// (predicated) even when no channel takes that arm.
const MAX_HOISTED: usize = 16;

/// The third form: an IF/ELSE one of whose arms is plain and short loses its ELSE; that arm
/// moves ahead of the IF, predicated on the IF's flag, and the IF keeps the other arm.
///
/// ```text
/// (+f0) if                           (-f0) mov v3, v5
///       <anything>          =>       (+f0) if
/// else                                     <anything>
///       mov v3, v5                   endif
/// endif
/// ```
///
/// The two arms run in disjoint channels, so which runs first does not matter to a channel
/// as long as every write is confined to the channels of its instruction: the moved arm may
/// not read what the other arm writes (it now reads it before; hardware registers count as
/// one per file), and the other arm may write what the moved arm writes only with
/// per-channel ALU instructions (a write-mask-all instruction or a message reply could
/// overwrite the moved arm's channels after it). A THEN
/// arm moved keeps its place before the ELSE arm, so only the predicate changes. The plain
/// arm's temporaries run unpredicated, as in the first form. This saves the ELSE where the
/// other arm holds control flow, messages or flag writes, as in the chains of IFs a `switch`
/// becomes, whose ELSE arms only copy the case's values; Mesa keeps these ELSEs.
fn hoist_plain_arm(
    prog: &mut Program,
    ip: usize,
    e: usize,
    end: usize,
    all: &mut Option<Vec<u32>>,
) -> bool {
    let iff = &prog.insts[ip];
    let (Some(inv), flag) = (iff.pred, iff.flag_subnr) else {
        return false;
    };
    let insts = &prog.insts;
    let plain = |r: &std::ops::Range<usize>| {
        !r.is_empty()
            && r.len() <= MAX_HOISTED
            && insts[r.clone()].iter().all(|i| convertible(i, iff))
    };
    let (then_arm, else_arm) = (ip + 1..e, e + 1..end);
    if plain(&then_arm) {
        let all = counts(all, prog);
        predicate_arm(prog, then_arm, inv, flag, all);
        prog.insts[ip].pred = Some(!inv);
        prog.insts[ip..=e].rotate_left(1);
        prog.insts[e - 1] = gone();
        return true;
    }
    if !plain(&else_arm) {
        return false;
    }
    // Hardware registers are compared by file: the payload, or message registers.
    let fixed = |r: &Reg| matches!(r.file, File::Fixed | File::Mrf);
    let moved = &insts[else_arm.clone()];
    let mut reads: Vec<u32> = moved
        .iter()
        .flat_map(|i| i.src.iter().filter(|s| s.file == File::Vgrf).map(|s| s.nr))
        .collect();
    reads.sort_unstable();
    reads.dedup();
    let writes: Vec<u32> = moved.iter().map(|i| i.dst.nr).collect();
    let reads_fixed = moved.iter().any(|i| i.src.iter().any(fixed));
    let per_channel = |i: &Inst| {
        matches!(i.op, Op::Alu(_))
            && !i.we_all
            && i.group >= iff.group
            && i.group + i.exec_size <= iff.group + iff.exec_size
    };
    let clash = insts[then_arm].iter().any(|i| {
        reads_fixed && fixed(&i.dst)
            || i.dst.file == File::Vgrf
                && (reads.binary_search(&i.dst.nr).is_ok()
                    || !per_channel(i) && writes.contains(&i.dst.nr))
    });
    if clash {
        return false;
    }
    let all = counts(all, prog);
    predicate_arm(prog, else_arm.clone(), !inv, flag, all);
    prog.insts[ip..end].rotate_right(else_arm.len());
    prog.insts[end - 1] = gone();
    true
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, alu, f, flow};
    use super::*;
    use crate::intel::eu::RegType;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(if_convert, insts)
    }

    fn unchanged(insts: Vec<Inst>) {
        testing::unchanged(if_convert, insts)
    }

    fn pred(mut i: Inst, inv: bool, flag: u8) -> Inst {
        i.pred = Some(inv);
        i.flag_subnr = flag;
        i
    }

    fn add(d: u32, a: u32, b: u32) -> Inst {
        alu(Opcode::Add, f(d), vec![f(a), f(b)])
    }

    fn mul(d: u32, a: u32, b: u32) -> Inst {
        alu(Opcode::Mul, f(d), vec![f(a), f(b)])
    }

    fn read(d: u32) -> Inst {
        alu(Opcode::Mov, f(15), vec![f(d)])
    }

    #[test]
    fn both_arms_become_predicated_on_the_if_flag() {
        let (p, out) = run(vec![
            pred(flow(Op::If), false, 1),
            add(3, 1, 2),
            flow(Op::Else),
            mul(3, 1, 4),
            flow(Op::EndIf),
            read(3),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![
                pred(add(3, 1, 2), false, 1),
                pred(mul(3, 1, 4), true, 1),
                read(3)
            ]
        );
    }

    #[test]
    fn an_inverted_if_without_else_predicates_inverted() {
        let (p, out) = run(vec![
            pred(flow(Op::If), true, 0),
            add(3, 1, 2),
            flow(Op::EndIf),
            read(3),
        ]);
        assert!(p);
        assert_eq!(out, vec![pred(add(3, 1, 2), true, 0), read(3)]);
    }

    #[test]
    fn temporaries_of_an_arm_stay_unpredicated() {
        // v5 is written first and read only inside the THEN arm.
        let (p, out) = run(vec![
            pred(flow(Op::If), false, 0),
            mul(5, 1, 2),
            add(3, 5, 2),
            flow(Op::EndIf),
            read(3),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![mul(5, 1, 2), pred(add(3, 5, 2), false, 0), read(3)]
        );
    }

    #[test]
    fn flag_writes_predicates_and_write_mask_all_keep_the_if() {
        let mut cmod = add(3, 1, 2);
        cmod.cmod = CondMod::Nz;
        let mut we_all = add(3, 1, 2);
        we_all.we_all = true;
        for inner in [
            cmod,
            pred(add(3, 1, 2), false, 0),
            we_all,
            alu(Opcode::Cmp, f(3), vec![f(1), f(2)]),
        ] {
            unchanged(vec![
                pred(flow(Op::If), false, 0),
                inner,
                flow(Op::EndIf),
                read(3),
            ]);
        }
        // Nested: the inner IF goes, the outer one (now holding a predicated instruction)
        // stays.
        let (p, out) = run(vec![
            pred(flow(Op::If), false, 0),
            pred(flow(Op::If), false, 1),
            add(3, 1, 2),
            flow(Op::EndIf),
            flow(Op::EndIf),
            read(3),
        ]);
        assert!(p);
        assert_eq!(
            out,
            vec![
                pred(flow(Op::If), false, 0),
                pred(add(3, 1, 2), false, 1),
                flow(Op::EndIf),
                read(3)
            ]
        );
    }

    #[test]
    fn long_arms_keep_the_if() {
        let mut insts = vec![pred(flow(Op::If), false, 0)];
        insts.extend((0..MAX_ARM as u32 + 1).map(|_| add(3, 1, 2)));
        insts.push(flow(Op::EndIf));
        insts.push(read(3));
        unchanged(insts);
    }

    /// `cmp.z.f0 dst, a, b`.
    fn cmp_z(dst: Reg, a: u32, b: u32) -> Inst {
        let mut c = alu(Opcode::Cmp, dst, vec![f(a), f(b)]);
        c.cmod = CondMod::Z;
        c
    }

    fn sel(d: u32, a: u32, b: u32) -> Inst {
        pred(alu(Opcode::Sel, f(d), vec![f(a), f(b)]), false, 0)
    }

    /// The IF of `cmp.z v1, v2` whose ELSE arm selects on its own compare of v1 and v4, with
    /// `after` following the ENDIF.
    fn flag_arm_if(then_src: u32, after: Vec<Inst>) -> Vec<Inst> {
        let mut v = vec![
            cmp_z(f(9), 1, 2),
            pred(flow(Op::If), false, 0),
            alu(Opcode::Mov, f(3), vec![f(then_src)]),
            flow(Op::Else),
            cmp_z(Reg::null(RegType::F), 1, 4),
            sel(3, 6, 7),
            flow(Op::EndIf),
        ];
        v.extend(after);
        v
    }

    #[test]
    fn a_flag_arm_runs_first_and_the_compare_again_predicates_the_plain_arm() {
        let rewrite = cmp_z(Reg::null(RegType::F), 3, 8);
        let (p, out) = run(flag_arm_if(5, vec![rewrite.clone(), read(3)]));
        assert!(p);
        assert_eq!(
            out,
            vec![
                cmp_z(f(9), 1, 2),
                cmp_z(Reg::null(RegType::F), 1, 4),
                sel(3, 6, 7),
                cmp_z(Reg::null(RegType::F), 1, 2),
                pred(alu(Opcode::Mov, f(3), vec![f(5)]), false, 0),
                rewrite,
                read(3),
            ]
        );
    }

    /// Asserts that the flag-arm form leaves the IF of `v` (a [`flag_arm_if`]) in place: only
    /// the third form applies, moving the plain THEN arm ahead of the IF.
    fn only_hoisted(v: Vec<Inst>) {
        let at = v.iter().position(|i| i.op == Op::If).unwrap();
        let mut want = v.clone();
        want[at + 1] = pred(want[at + 1].clone(), false, 0);
        want[at].pred = Some(true);
        want[at..=at + 2].rotate_left(1);
        want.remove(at + 1);
        let (p, out) = run(v);
        assert!(p);
        assert_eq!(out, want);
    }

    #[test]
    fn a_flag_arm_stays_when_the_flag_or_its_writes_are_read() {
        let rewrite = cmp_z(Reg::null(RegType::F), 3, 8);
        // The flag is read after the ENDIF (it would hold the first compare everywhere).
        only_hoisted(flag_arm_if(5, vec![sel(10, 3, 8), rewrite.clone()]));
        // No write of the flag follows before the program ends.
        only_hoisted(flag_arm_if(5, vec![read(3)]));
        // The plain arm reads v3, which the flag arm writes: it would see the select.
        only_hoisted(flag_arm_if(3, vec![rewrite.clone(), read(3)]));
        // The compare's source changes before the IF.
        let mut v = flag_arm_if(5, vec![rewrite, read(3)]);
        v.insert(1, add(1, 6, 7));
        only_hoisted(v);
    }

    fn we_all(mut i: Inst) -> Inst {
        i.we_all = true;
        i
    }

    fn mov(d: u32, a: u32) -> Inst {
        alu(Opcode::Mov, f(d), vec![f(a)])
    }

    /// `(inv f<flag>) if; then; else; els; endif; read v3`.
    fn if_else(inv: bool, flag: u8, then: Vec<Inst>, els: Vec<Inst>) -> Vec<Inst> {
        let mut v = vec![pred(flow(Op::If), inv, flag)];
        v.extend(then);
        v.push(flow(Op::Else));
        v.extend(els);
        v.extend([flow(Op::EndIf), read(3)]);
        v
    }

    /// An arm no other form converts: it holds a write-mask-all instruction.
    fn busy_arm() -> Vec<Inst> {
        vec![we_all(add(4, 1, 2)), add(3, 4, 2)]
    }

    /// `(inv f<flag>) mov v3, v5`, then `(!inv f<flag>) if`, the busy arm and the ENDIF.
    fn hoisted(inv: bool, flag: u8) -> Vec<Inst> {
        let mut v = vec![pred(mov(3, 5), inv, flag), pred(flow(Op::If), !inv, flag)];
        v.extend(busy_arm());
        v.extend([flow(Op::EndIf), read(3)]);
        v
    }

    #[test]
    fn a_plain_else_arm_moves_ahead_of_the_if_and_the_else_goes() {
        let (p, out) = run(if_else(false, 0, busy_arm(), vec![mov(3, 5)]));
        assert!(p);
        assert_eq!(out, hoisted(true, 0));
    }

    #[test]
    fn a_plain_then_arm_stays_first_and_the_if_takes_the_else_arm() {
        let (p, out) = run(if_else(true, 1, vec![mov(3, 5)], busy_arm()));
        assert!(p);
        assert_eq!(out, hoisted(true, 1));
    }

    #[test]
    fn a_plain_else_arm_stays_when_the_other_arm_could_disturb_it() {
        // The THEN arm writes v5, which the ELSE arm reads: moved ahead, it would read v5
        // before that write.
        let then = vec![we_all(add(5, 1, 2)), add(3, 5, 2)];
        unchanged(if_else(false, 0, then, vec![mov(3, 5)]));
        // The THEN arm writes v3 in every channel: after the moved arm, it would overwrite
        // the ELSE arm's channels.
        unchanged(if_else(
            false,
            0,
            vec![we_all(add(3, 1, 2))],
            vec![mov(3, 5)],
        ));
        // The THEN arm writes a payload register, which the ELSE arm reads.
        let g = Reg::fixed(2, 0, RegType::F, 1);
        let then = vec![we_all(alu(Opcode::Mov, g, vec![f(1)]))];
        unchanged(if_else(
            false,
            0,
            then,
            vec![alu(Opcode::Mov, f(3), vec![g])],
        ));
    }
}
