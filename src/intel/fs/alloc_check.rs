//! A value-tracking check of a register allocation, in the spirit of regalloc2's checker.
//!
//! `ra::check` proves that interfering nodes of the graph got different registers, which is
//! only as good as the graph: a missing interference edge (a liveness bug, a payload range cut
//! short) passes it. This check does not look at the graph. It runs the program abstractly with
//! the allocation applied, remembering for every hardware GRF which virtual register piece (or
//! payload register) was written into it last, and at every read asks whether the register still
//! holds the piece the instruction names. A read fails when its piece is written on every path
//! to it (so the program means a value there) and some path brings a different value into the
//! register instead.
//!
//! The paths are those of SIMD execution: beside the scalar paths of the structured CFG, the
//! channels of a divergent IF run the then-branch and then the else-branch, so the end of the
//! then-branch also flows into the else-branch; BREAK and CONTINUE fall through (see
//! [`liveness::build_cfg`]). Each channel sees the writes of its own path (disabled channels
//! keep their contents), so a per-path model is exact for channel-masked writes.

use crate::util::bitset::BitSet;

use super::ir::{File, Op, Program, REG_SIZE};
use super::liveness;
use super::regalloc::regs_read;

/// What a hardware register holds at a program point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// Every path brings the same value: a [`Label`], with the instruction that wrote it.
    Value(u32, Option<usize>),
    /// Paths disagree.
    Mixed,
}

impl Holds {
    fn meet(self, other: Holds) -> Holds {
        match (self, other) {
            (Holds::Value(a, w), Holds::Value(b, _)) if a == b => Holds::Value(a, w),
            _ => Holds::Mixed,
        }
    }
}

/// Values are numbered: the pieces (GRF-sized parts) of every VGRF first, then one per
/// hardware register for what a fixed-register write or the thread payload put there, then
/// "nothing the program wrote".
struct Labels {
    piece_base: Vec<u32>,
    fixed_base: u32,
    undefined: u32,
}

impl Labels {
    fn new(prog: &Program, grfs: u32) -> Labels {
        let mut piece_base = Vec::with_capacity(prog.vgrf_sizes.len());
        let mut n = 0;
        for &s in &prog.vgrf_sizes {
            piece_base.push(n);
            n += s;
        }
        Labels {
            piece_base,
            fixed_base: n,
            undefined: n + grfs,
        }
    }

    fn count(&self) -> usize {
        self.undefined as usize
    }

    fn describe(&self, label: u32) -> String {
        if label == self.undefined {
            return "nothing written by the program".into();
        }
        if label >= self.fixed_base {
            return format!("g{}", label - self.fixed_base);
        }
        let v = self.piece_base.partition_point(|&b| b <= label) - 1;
        format!("vgrf{v} reg {}", label - self.piece_base[v])
    }
}

/// One register an operand touches: the hardware register and the value it should hold.
struct Access {
    hw: u32,
    label: u32,
}

/// The registers `r` covers (`regs` of them from its offset), under `base`. Runs for every
/// operand of every allocation, so it allocates nothing.
fn accesses(
    prog: &Program,
    labels: &Labels,
    base: &[u32],
    r: &super::ir::Reg,
    regs: u32,
) -> impl Iterator<Item = Access> {
    let first = r.offset / REG_SIZE;
    // (first hardware register, first label, count)
    let (hw, label, count) = match r.file {
        File::Vgrf => {
            let v = r.nr as usize;
            let end = (first + regs).min(prog.vgrf_sizes[v]);
            (
                base[v] + first,
                labels.piece_base[v] + first,
                end.saturating_sub(first),
            )
        }
        File::Fixed => (r.nr + first, labels.fixed_base + r.nr + first, regs),
        _ => (0, 0, 0),
    };
    (0..count).map(move |k| Access {
        hw: hw + k,
        label: label + k,
    })
}

/// The register state flowing through one block, with the values written on every path so far.
#[derive(Clone)]
struct State {
    regs: Vec<Holds>,
    written: BitSet,
}

impl State {
    /// `self = other`, reusing the storage (one working state serves every block visit).
    fn assign(&mut self, other: &State) {
        self.regs.copy_from_slice(&other.regs);
        self.written.assign(&other.written);
    }
}

/// Checks that, with VGRF `v` placed at GRFs `base[v]..base[v] + size`, every value the program
/// reads is still in its register. `reserved` payload registers hold the thread payload on
/// entry; `grfs` is the size of the register file. The error names the instruction, the value
/// it reads, the register and what is there instead.
pub fn check(prog: &Program, base: &[u32], reserved: u32, grfs: u32) -> Result<(), String> {
    let labels = Labels::new(prog, grfs);
    for (v, (&b, &size)) in base.iter().zip(&prog.vgrf_sizes).enumerate() {
        if b + size > grfs {
            return Err(format!("vgrf{v} placed at g{b}, past the {grfs} GRFs"));
        }
    }
    let mut blocks = liveness::build_cfg(&prog.insts);
    add_divergent_else_edges(prog, &mut blocks);
    let nb = blocks.len();

    let mut entry = State {
        regs: vec![Holds::Value(labels.undefined, None); grfs as usize],
        written: BitSet::new(labels.count()),
    };
    for r in 0..reserved.min(grfs) {
        entry.regs[r as usize] = Holds::Value(labels.fixed_base + r, None);
        entry.written.insert((labels.fixed_base + r) as usize);
    }

    // Forward fixed point: registers meet, "written on every path" intersects.
    let mut st = entry.clone();
    let mut ins: Vec<Option<State>> = vec![None; nb];
    ins[0] = Some(entry);
    // Blocks are in program order, so taking the lowest queued block first visits a
    // block after its forward predecessors: the fixed point needs few passes.
    let mut work = std::collections::BTreeSet::from([0usize]);
    while let Some(b) = work.pop_first() {
        st.assign(ins[b].as_ref().expect("queued blocks have an in-state"));
        for ip in blocks[b].start..blocks[b].end {
            apply_writes(prog, &labels, base, ip, &mut st);
        }
        for &s in &blocks[b].succs {
            let changed = match &mut ins[s] {
                slot @ None => {
                    *slot = Some(st.clone());
                    true
                }
                Some(old) => {
                    let mut changed = false;
                    for (o, &n) in old.regs.iter_mut().zip(&st.regs) {
                        let m = o.meet(n);
                        changed |= m != *o;
                        *o = m;
                    }
                    changed | old.written.intersect_with(&st.written)
                }
            };
            if changed {
                work.insert(s);
            }
        }
    }

    // With the fixed point reached, walk every reachable block once more and check the reads.
    for (b, blk) in blocks.iter().enumerate() {
        let Some(in_state) = &ins[b] else {
            continue;
        };
        st.assign(in_state);
        for ip in blk.start..blk.end {
            let inst = &prog.insts[ip];
            for (i, s) in inst.src.iter().enumerate() {
                for a in accesses(prog, &labels, base, s, regs_read(inst, i)) {
                    if !st.written.contains(a.label as usize) {
                        continue; // not written on some path: any contents will do
                    }
                    let found = st.regs.get(a.hw as usize).copied();
                    if matches!(found, Some(Holds::Value(l, _)) if l == a.label) {
                        continue;
                    }
                    let there = match found {
                        Some(Holds::Value(l, Some(w))) => {
                            format!("{} (written at ip {w})", labels.describe(l))
                        }
                        Some(Holds::Value(l, None)) => format!("{} (on entry)", labels.describe(l)),
                        _ => "different values on different paths".into(),
                    };
                    return Err(format!(
                        "ip {ip} ({:?}) source {i} reads {} from g{}, which holds {there}",
                        inst.op,
                        labels.describe(a.label),
                        a.hw
                    ));
                }
            }
            apply_writes(prog, &labels, base, ip, &mut st);
        }
    }
    Ok(())
}

fn apply_writes(prog: &Program, labels: &Labels, base: &[u32], ip: usize, st: &mut State) {
    let inst = &prog.insts[ip];
    for a in accesses(prog, labels, base, &inst.dst, inst.regs_written()) {
        if let Some(r) = st.regs.get_mut(a.hw as usize) {
            *r = Holds::Value(a.label, Some(ip));
        }
        st.written.insert(a.label as usize);
    }
}

/// Channels that took the then-branch of a divergent IF wait at the ELSE while the others run
/// the else-branch: the registers at the end of the then-branch flow into the else-branch too.
fn add_divergent_else_edges(prog: &Program, blocks: &mut [liveness::Block]) {
    let block_of = |ip: usize| blocks.partition_point(|b| b.start <= ip) - 1;
    let edges: Vec<(usize, usize)> = prog
        .insts
        .iter()
        .enumerate()
        .filter(|(ip, i)| i.op == Op::Else && ip + 1 < prog.insts.len())
        .map(|(ip, _)| (block_of(ip), block_of(ip + 1)))
        .collect();
    for (from, to) in edges {
        if !blocks[from].succs.contains(&to) {
            blocks[from].succs.push(to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{Opcode, RegType};
    use crate::intel::fs::ir::{Inst, Reg};

    fn mov(dst: Reg, src: Reg) -> Inst {
        Inst::new(Op::Alu(Opcode::Mov), 8, dst, vec![src])
    }

    fn add(dst: Reg, a: Reg, b: Reg) -> Inst {
        Inst::new(Op::Alu(Opcode::Add), 8, dst, vec![a, b])
    }

    fn v(n: u32) -> Reg {
        Reg::vgrf(n, RegType::F)
    }

    /// `a = g2; b = g3; (c, d) = (b, a); out = c + d`: a swap through two copies.
    fn swap() -> Program {
        let mut p = Program::default();
        let [a, b, c, d, out] = [(); 5].map(|_| p.alloc(1));
        p.insts.push(mov(v(a), Reg::fixed(2, 0, RegType::F, 1)));
        p.insts.push(mov(v(b), Reg::fixed(3, 0, RegType::F, 1)));
        p.insts.push(mov(v(c), v(b)));
        p.insts.push(mov(v(d), v(a)));
        p.insts.push(add(v(out), v(c), v(d)));
        p
    }

    /// Giving the first copy's destination the register of the value the second copy still
    /// has to read loses that value, although each copy on its own looks like a register
    /// reuse at a last read: the check names the read and the clobbering write.
    #[test]
    fn a_swap_that_clobbers_its_second_source_is_rejected() {
        let p = swap();
        // a=g10 b=g11 c=g10 (over a, still needed) d=g11 out=g12
        let err = check(&p, &[10, 11, 10, 11, 12], 4, 128).unwrap_err();
        assert_eq!(
            err,
            "ip 3 (Alu(Mov)) source 0 reads vgrf0 reg 0 from g10, which holds vgrf2 reg 0 \
             (written at ip 2)"
        );
        // The same registers with c and d exchanged keep both values: c takes b's register
        // as b dies, d takes a's as a dies.
        assert_eq!(check(&p, &[10, 11, 11, 10, 12], 4, 128), Ok(()));
    }

    /// Payload registers hold their values from the start; reusing one before its last read
    /// is caught, reusing it after is fine.
    #[test]
    fn payload_reuse_before_the_last_read_is_rejected() {
        let p = swap();
        // a in g3 overwrites the payload register that the second instruction still reads.
        let err = check(&p, &[3, 11, 12, 13, 14], 4, 128).unwrap_err();
        assert!(
            err.starts_with("ip 1 (Alu(Mov)) source 0 reads g3 from g3"),
            "{err}"
        );
        // b in g3 is written after g3's only read.
        assert_eq!(check(&p, &[10, 3, 12, 13, 14], 4, 128), Ok(()));
    }

    /// `if { x = 1 } else { use y }` with x and y sharing a register is wrong on SIMD
    /// hardware (the then-branch runs before the else-branch for divergent channels) though
    /// the scalar paths never meet; a value written on only one path may share freely.
    #[test]
    fn divergent_branches_run_one_after_the_other() {
        let mut p = Program::default();
        let [x, y, z] = [(); 3].map(|_| p.alloc(1));
        let one = Reg::imm(RegType::F, 1.0f32.to_bits());
        p.insts.push(mov(v(y), one));
        p.insts.push(Inst::new(Op::If, 8, Reg::BAD, vec![]));
        p.insts.push(mov(v(x), one));
        p.insts.push(Inst::new(Op::Else, 8, Reg::BAD, vec![]));
        p.insts.push(mov(v(z), v(y)));
        p.insts.push(Inst::new(Op::EndIf, 8, Reg::BAD, vec![]));
        let err = check(&p, &[20, 20, 21], 2, 128).unwrap_err();
        assert!(
            err.contains(
                "reads vgrf1 reg 0 from g20, which holds different values on different paths"
            ),
            "{err}"
        );
        assert_eq!(check(&p, &[20, 22, 21], 2, 128), Ok(()));
    }

    /// A value carried around a loop must survive the loop body: a register reused inside the
    /// body for another value breaks the next iteration's read.
    #[test]
    fn loop_carried_values_survive_the_body() {
        let mut p = Program::default();
        let [acc, t] = [(); 2].map(|_| p.alloc(1));
        let one = Reg::imm(RegType::F, 1.0f32.to_bits());
        p.insts.push(mov(v(acc), one));
        p.insts.push(Inst::new(Op::Do, 8, Reg::BAD, vec![]));
        p.insts.push(add(v(t), v(acc), one));
        p.insts.push(mov(v(acc), v(t)));
        p.insts.push(Inst::new(Op::While, 8, Reg::BAD, vec![]));
        assert_eq!(check(&p, &[20, 21], 2, 128), Ok(()));
        assert_eq!(
            check(&p, &[20, 20], 2, 128),
            Ok(()),
            "t dies as acc is rewritten"
        );
        // Now t is read after acc is rewritten: sharing loses t.
        p.insts.insert(4, mov(v(acc), v(t)));
        let err = check(&p, &[20, 20], 2, 128).unwrap_err();
        assert!(
            err.starts_with("ip 4 (Alu(Mov)) source 0 reads vgrf1 reg 0"),
            "{err}"
        );
    }
}
