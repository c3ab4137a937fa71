//! Instruction scheduling: list scheduling of each basic block over its dependence DAG, before
//! register allocation (to keep register pressure low enough to allocate without spilling) and
//! after it (to hide latency).
//!
//! This follows the shape of Mesa's `brw_schedule_instructions.cpp` (23.3):
//!
//! - Control flow stays where it is: only the straight runs of instructions between flow
//!   markers are reordered, and an instruction with side effects (any message other than a
//!   sampler or constant-cache read, and WAIT) is a barrier that nothing crosses.
//! - Edges come from every register piece an instruction reads or writes (read after write and
//!   write after write carry the producer's latency, write after read none) and from the flag
//!   subregisters that predicates read and conditional modifiers write.
//! - Before allocation the schedulers try, in Mesa's order, a latency-driven top-down order
//!   ([`Mode::Pre`]), a register-pressure-driven one that otherwise prefers the longest path
//!   to the end of the block ([`Mode::PreNonLifo`]), the original order ([`Mode::KeepOrder`])
//!   and a pressure-driven one that otherwise prefers what became ready last
//!   ([`Mode::PreLifo`]); the pipeline keeps the first that allocates without spilling.
//! - After allocation [`Mode::Post`] reorders for latency over the physical registers.
//!
//! The latencies are Mesa's measured Gen7 figures (see [`latency`]), not this crate's cycle
//! estimator in `stats`, which other code owns and which counts issue cycles only.

use crate::util::fxhash::FxHashMap as HashMap;

use crate::intel::eu::types::sfid;
use crate::intel::eu::{MathFn, Opcode};
use crate::intel::DevInfo;

use super::ir::{File, Inst, Op, Program, REG_SIZE};
use super::liveness;
use super::regalloc;

/// A scheduling heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Before allocation: of the ready instructions, the one whose operands are ready first
    /// (Mesa's "top-down").
    Pre,
    /// Before allocation: an instruction that frees registers first, else the longest path to
    /// the end of the block (Mesa's "non-lifo").
    PreNonLifo,
    /// No reordering (Mesa's "none").
    KeepOrder,
    /// Before allocation: an instruction that frees registers first, else the one that became
    /// ready most recently, else the longest path (Mesa's "lifo"): it finishes one expression
    /// before starting the next, which is what keeps the fewest values live.
    PreLifo,
    /// After allocation, over physical registers: operands ready first, to hide latency.
    Post,
}

/// The pre-allocation modes in the order the pipeline tries them: decreasing expected
/// performance, increasing likelihood of allocating (Mesa's `pre_modes`).
pub const PRE_RA_MODES: [Mode; 4] = [Mode::Pre, Mode::PreNonLifo, Mode::KeepOrder, Mode::PreLifo];

/// Shared functions whose messages only read memory that the shader does not write (sampler,
/// Gen7 sampler-cache data port, constant cache): they may move past each other and past ALU
/// instructions. Every other message is a barrier.
const READ_ONLY_SFIDS: [u8; 3] = [sfid::SAMPLER, sfid::SAMPLER_CACHE, sfid::CONSTANT_CACHE];

/// Sampler message type for the size query (`resinfo`), which Mesa measured apart.
const SAMPLER_RESINFO: u32 = 10;

/// Cycles from issue until the result can be read, by generation, from Mesa 23.3's
/// `schedule_node::set_latency_gfx7` (measured on Ivybridge and Haswell with a dependent MOV
/// after the instruction; Mesa applies the Ivybridge figures to Gen8 too, and so do we):
///
/// | instruction | ivb, bdw | hsw |
/// |---|---|---|
/// | MAD (3-source) | 18 | 16 |
/// | LRP (3-source) | 14 | 14 |
/// | math inv/log/exp/sqrt/rsq/sin/cos | 16 | 14 |
/// | math pow | 24 | 22 |
/// | sampler message | 200 (size query 100) | same |
/// | constant-cache read | 200 | same |
/// | render-target write | 600 (Mesa: "fabricated") | same |
/// | data-cache scratch and block messages | 200 (scratch read 50) | same |
/// | other data-cache messages | 600 | 300 |
/// | anything else | 14 | 14 |
pub fn latency(devinfo: &DevInfo, inst: &Inst) -> u32 {
    let hsw = devinfo.ver == 75;
    match inst.op {
        Op::Alu(Opcode::Mad) => {
            if hsw {
                16
            } else {
                18
            }
        }
        Op::Alu(Opcode::Lrp) => 14,
        Op::Math(MathFn::Pow) => {
            if hsw {
                22
            } else {
                24
            }
        }
        Op::Math(
            MathFn::Inv
            | MathFn::Log
            | MathFn::Exp
            | MathFn::Sqrt
            | MathFn::Rsq
            | MathFn::Sin
            | MathFn::Cos,
        ) => {
            if hsw {
                14
            } else {
                16
            }
        }
        Op::Tex { kind, .. } => {
            if kind == super::ir::TexKind::Resinfo {
                100
            } else {
                200
            }
        }
        Op::FbWrite { .. } => 600,
        Op::Send => match inst.sfid {
            sfid::SAMPLER | sfid::SAMPLER_CACHE if (inst.desc >> 12) & 0x1f == SAMPLER_RESINFO => {
                100
            }
            sfid::SAMPLER | sfid::SAMPLER_CACHE => 200,
            sfid::CONSTANT_CACHE => 200,
            sfid::RENDER_CACHE => 600,
            sfid::DATA_CACHE => {
                // Bit 18 selects the scratch block messages that spilling emits.
                if inst.desc & (1 << 18) != 0 {
                    if inst.desc & (1 << 17) != 0 {
                        200
                    } else {
                        50
                    }
                } else if hsw {
                    300
                } else {
                    600
                }
            }
            sfid::DATA_CACHE_1 => 300,
            _ => 200,
        },
        _ => 14,
    }
}

/// Cycles the EU takes to issue `inst` before it can issue the next one: a compressed (SIMD16)
/// instruction issues as two halves (Mesa's `issue_time`, without the register bank conflict
/// term, which needs the final registers).
pub fn issue_time(inst: &Inst) -> u32 {
    match inst.exec_size {
        // A SIMD32 instruction kept whole until allocation issues as two SIMD16 halves.
        32 => 8,
        16 => 4,
        _ => 2,
    }
}

/// Whether nothing may move across `inst`.
fn is_barrier(inst: &Inst) -> bool {
    match inst.op {
        op if op.is_flow() => true,
        Op::Alu(Opcode::Wait | Opcode::Nop) => true,
        Op::FbWrite { .. } => true,
        Op::Send => inst.eot || !READ_ONLY_SFIDS.contains(&inst.sfid),
        _ => false,
    }
}

/// What an operand occupies, as indices into one space: VGRF pieces, then hardware GRFs, then
/// MRFs, then the two flag subregisters.
struct Resources {
    piece_base: Vec<u32>,
    vgrf_sizes: Vec<u32>,
    fixed: u32,
    mrf: u32,
    flag: u32,
}

/// Hardware GRF numbers tracked (Gen7–Gen9 have 128; the rest is headroom for odd regions).
const FIXED_SPACE: u32 = 256;
/// Message registers tracked (Gen4–Gen6 have 16 or 24).
const MRF_SPACE: u32 = 32;

impl Resources {
    fn new(prog: &Program) -> Resources {
        let mut piece_base = Vec::with_capacity(prog.vgrf_sizes.len());
        let mut total = 0u32;
        for &s in &prog.vgrf_sizes {
            piece_base.push(total);
            total += s;
        }
        Resources {
            piece_base,
            vgrf_sizes: prog.vgrf_sizes.clone(),
            fixed: total,
            mrf: total + FIXED_SPACE,
            flag: total + FIXED_SPACE + MRF_SPACE,
        }
    }

    /// Pieces of a register region starting at `r` and spanning `regs` registers.
    fn pieces(&self, r: &super::ir::Reg, regs: u32, out: &mut Vec<u32>) {
        let first = r.offset / REG_SIZE;
        let regs = regs.max(1);
        match r.file {
            File::Vgrf => {
                let Some(&size) = self.vgrf_sizes.get(r.nr as usize) else {
                    return;
                };
                let base = self.piece_base[r.nr as usize];
                out.extend((first..(first + regs).min(size)).map(|p| base + p));
            }
            File::Fixed => {
                let s = r.nr + first;
                out.extend((s..(s + regs).min(FIXED_SPACE)).map(|p| self.fixed + p));
            }
            File::Mrf => {
                let s = r.nr + first;
                out.extend((s..(s + regs).min(MRF_SPACE)).map(|p| self.mrf + p));
            }
            _ => {}
        }
    }

    /// What `inst` reads and writes.
    fn uses(&self, inst: &Inst, reads: &mut Vec<u32>, writes: &mut Vec<u32>) {
        reads.clear();
        writes.clear();
        for (i, s) in inst.src.iter().enumerate() {
            // An explicit region may reach further than its size says; one more register
            // only adds edges.
            let regs = regalloc::regs_read(inst, i) + s.region.is_some() as u32;
            self.pieces(s, regs, reads);
        }
        self.pieces(&inst.dst, inst.regs_written(), writes);
        let flag = self.flag + (inst.flag_subnr as u32 & 1);
        if inst.pred.is_some() {
            reads.push(flag);
        }
        if inst.cmod != crate::intel::eu::CondMod::None {
            writes.push(flag);
        }
        reads.sort_unstable();
        reads.dedup();
        writes.sort_unstable();
        writes.dedup();
    }
}

/// The dependence DAG of one run of instructions.
#[derive(Debug, Clone, Default)]
pub struct Dag {
    /// For each node, its successors and the latency of each edge.
    pub children: Vec<Vec<(u32, u32)>>,
    /// Number of predecessors of each node.
    pub parents: Vec<u32>,
}

impl Dag {
    fn add_edge(&mut self, from: u32, to: u32, lat: u32) {
        if from == to {
            return;
        }
        let c = &mut self.children[from as usize];
        if let Some(e) = c.iter_mut().find(|e| e.0 == to) {
            e.1 = e.1.max(lat);
        } else {
            c.push((to, lat));
            self.parents[to as usize] += 1;
        }
    }

    /// Whether `to` depends on `from` directly.
    pub fn has_edge(&self, from: usize, to: usize) -> bool {
        self.children[from].iter().any(|e| e.0 as usize == to)
    }
}

/// What a resource saw last while a DAG is built.
#[derive(Default)]
struct LastUse {
    write: Option<u32>,
    reads: Vec<u32>,
}

/// Storage [`build_dag`] reuses from one run to the next: a program has a run per block, and
/// allocating a map, a list per resource and a list per node for each would cost more than
/// the DAG itself.
#[derive(Default)]
struct DagScratch {
    /// Index into `uses` of each resource seen in this run.
    index: HashMap<u32, usize>,
    /// Per resource; the first `index.len()` are this run's.
    uses: Vec<LastUse>,
    since_barrier: Vec<u32>,
    reads: Vec<u32>,
    writes: Vec<u32>,
}

impl DagScratch {
    /// The `uses` entry of resource `r`, taken from the pool on its first use in the run.
    fn slot(&mut self, r: u32) -> usize {
        let next = self.index.len();
        let k = *self.index.entry(r).or_insert(next);
        if k == self.uses.len() {
            self.uses.push(LastUse::default());
        }
        k
    }
}

/// Builds the DAG of `insts`, which must contain no control flow, into `dag`.
fn build_dag_into(res: &Resources, insts: &[Inst], lat: &[u32], dag: &mut Dag, s: &mut DagScratch) {
    let n = insts.len();
    dag.children.truncate(n);
    dag.children.iter_mut().for_each(Vec::clear);
    dag.children.resize_with(n, Vec::new);
    dag.parents.clear();
    dag.parents.resize(n, 0);
    for u in &mut s.uses[..s.index.len()] {
        u.write = None;
        u.reads.clear();
    }
    s.index.clear();
    s.since_barrier.clear();
    let mut last_barrier: Option<u32> = None;
    let (mut reads, mut writes) = (std::mem::take(&mut s.reads), std::mem::take(&mut s.writes));
    for (i, inst) in insts.iter().enumerate() {
        let i = i as u32;
        res.uses(inst, &mut reads, &mut writes);
        for &r in &reads {
            let k = s.slot(r);
            let u = &mut s.uses[k];
            if let Some(w) = u.write {
                dag.add_edge(w, i, lat[w as usize]);
            }
            u.reads.push(i);
        }
        for &w in &writes {
            let k = s.slot(w);
            let u = &mut s.uses[k];
            if let Some(p) = u.write {
                dag.add_edge(p, i, lat[p as usize]);
            }
            for &r in &u.reads {
                dag.add_edge(r, i, 0);
            }
            u.reads.clear();
            u.write = Some(i);
        }
        if is_barrier(inst) {
            for &p in s.since_barrier.iter().chain(last_barrier.iter()) {
                dag.add_edge(p, i, 0);
            }
            s.since_barrier.clear();
            last_barrier = Some(i);
        } else {
            if let Some(b) = last_barrier {
                dag.add_edge(b, i, 0);
            }
            s.since_barrier.push(i);
        }
    }
    (s.reads, s.writes) = (reads, writes);
}

/// Builds the DAG of `insts`, which must contain no control flow.
fn build_dag(res: &Resources, insts: &[Inst], lat: &[u32]) -> Dag {
    let mut dag = Dag::default();
    build_dag_into(res, insts, lat, &mut dag, &mut DagScratch::default());
    dag
}

/// The DAG of a run of instructions without control flow (for tests and tools).
pub fn dependencies(devinfo: &DevInfo, prog: &Program, insts: &[Inst]) -> Dag {
    let res = Resources::new(prog);
    let lat: Vec<u32> = insts.iter().map(|i| latency(devinfo, i)).collect();
    build_dag(&res, insts, &lat)
}

/// Register-pressure bookkeeping of one run before allocation (Mesa's `reads_remaining`,
/// `written`, block live-in and live-out sets, per VGRF).
struct Pressure {
    sizes: Vec<u32>,
    reads_remaining: HashMap<u32, u32>,
    written: HashMap<u32, bool>,
    live_in: HashMap<u32, bool>,
    live_out: HashMap<u32, bool>,
}

fn src_vgrfs(inst: &Inst, out: &mut Vec<u32>) {
    out.clear();
    out.extend(inst.src.iter().filter(|s| s.is_vgrf()).map(|s| s.nr));
    out.sort_unstable();
    out.dedup();
}

impl Pressure {
    /// `start..end` is the run's place in the program whose liveness is `live`.
    fn new(prog: &Program, live: &liveness::Liveness, insts: &[Inst], start: usize) -> Pressure {
        let end = start + insts.len();
        let mut p = Pressure {
            sizes: prog.vgrf_sizes.clone(),
            reads_remaining: HashMap::default(),
            written: HashMap::default(),
            live_in: HashMap::default(),
            live_out: HashMap::default(),
        };
        let mut srcs = Vec::new();
        let note = |v: u32, p: &mut Pressure| {
            if p.live_in.contains_key(&v) {
                return;
            }
            let base = live.piece_base[v as usize];
            let pieces = base..base + p.sizes[v as usize] as usize;
            let (mut inn, mut out) = (false, false);
            for q in pieces {
                let (s, e) = (live.start[q], live.end[q]);
                if s == usize::MAX {
                    continue;
                }
                inn |= s < start && e >= start;
                out |= s < end && e >= end;
            }
            p.live_in.insert(v, inn);
            p.live_out.insert(v, out);
        };
        for inst in insts {
            src_vgrfs(inst, &mut srcs);
            for &v in &srcs {
                *p.reads_remaining.entry(v).or_default() += 1;
                note(v, &mut p);
            }
            if inst.dst.is_vgrf() {
                note(inst.dst.nr, &mut p);
            }
        }
        p
    }

    /// Registers that scheduling `inst` now frees minus those it starts occupying.
    fn benefit(&self, inst: &Inst, srcs: &mut Vec<u32>) -> i32 {
        let mut b = 0i32;
        if inst.dst.is_vgrf() {
            let v = inst.dst.nr;
            if !self.live_in[&v] && !self.written.get(&v).copied().unwrap_or(false) {
                b -= self.sizes[v as usize] as i32;
            }
        }
        src_vgrfs(inst, srcs);
        for &v in srcs.iter() {
            if !self.live_out[&v] && self.reads_remaining[&v] == 1 {
                b += self.sizes[v as usize] as i32;
            }
        }
        b
    }

    fn scheduled(&mut self, inst: &Inst, srcs: &mut Vec<u32>) {
        if inst.dst.is_vgrf() {
            self.written.insert(inst.dst.nr, true);
        }
        src_vgrfs(inst, srcs);
        for v in srcs.iter() {
            if let Some(r) = self.reads_remaining.get_mut(v) {
                *r = r.saturating_sub(1);
            }
        }
    }
}

/// Orders one run of instructions (no control flow) by `mode`; returns the new order as
/// indices into `insts`.
fn schedule_run(
    devinfo: &DevInfo,
    res: &Resources,
    insts: &[Inst],
    mode: Mode,
    mut pressure: Option<Pressure>,
    (dag, scratch): (&mut Dag, &mut DagScratch),
) -> Vec<usize> {
    let n = insts.len();
    let lat: Vec<u32> = insts.iter().map(|i| latency(devinfo, i)).collect();
    let issue: Vec<u32> = insts.iter().map(issue_time).collect();
    build_dag_into(res, insts, &lat, dag, scratch);
    // Longest path to the end of the run, and an optimistic earliest start.
    let mut delay = vec![0u32; n];
    for i in (0..n).rev() {
        delay[i] = issue[i];
        for &(c, l) in &dag.children[i] {
            delay[i] = delay[i].max(l + delay[c as usize]);
        }
    }
    let mut unblocked = vec![0u32; n];
    for i in 0..n {
        for &(c, l) in &dag.children[i] {
            let t = unblocked[i] + issue[i] + l;
            let u = &mut unblocked[c as usize];
            *u = (*u).max(t);
        }
    }
    let mut parents = dag.parents.clone();
    let mut generation = vec![0u32; n];
    // The ready list; its end is the head of Mesa's list, where newly ready nodes go.
    let mut ready: Vec<u32> = (0..n as u32)
        .rev()
        .filter(|&i| parents[i as usize] == 0)
        .collect();
    let mut order = Vec::with_capacity(n);
    let mut time = 0u32;
    let mut cand_generation = 1u32;
    let mut srcs = Vec::new();
    while !ready.is_empty() {
        let mut chosen = ready.len() - 1;
        match mode {
            Mode::Pre | Mode::Post | Mode::KeepOrder => {
                for k in (0..ready.len()).rev() {
                    if unblocked[ready[k] as usize] < unblocked[ready[chosen] as usize] {
                        chosen = k;
                    }
                }
            }
            Mode::PreNonLifo | Mode::PreLifo => {
                let p = pressure.as_ref();
                let benefit = |i: u32, srcs: &mut Vec<u32>| {
                    p.map_or(0, |p| p.benefit(&insts[i as usize], srcs))
                };
                let mut cb = benefit(ready[chosen], &mut srcs);
                for k in (0..ready.len() - 1).rev() {
                    let (nn, cn) = (ready[k] as usize, ready[chosen] as usize);
                    let b = benefit(ready[k], &mut srcs);
                    if b > 0 && b > cb {
                        chosen = k;
                        cb = b;
                        continue;
                    } else if cb > 0 && b < cb {
                        continue;
                    }
                    if mode == Mode::PreLifo {
                        if generation[nn] > generation[cn] {
                            chosen = k;
                            cb = b;
                            continue;
                        } else if generation[nn] < generation[cn] {
                            continue;
                        }
                    }
                    if delay[nn] > delay[cn] {
                        chosen = k;
                        cb = b;
                    }
                }
            }
        }
        let node = ready.remove(chosen) as usize;
        order.push(node);
        if let Some(p) = pressure.as_mut() {
            p.scheduled(&insts[node], &mut srcs);
        }
        time = time.max(unblocked[node]) + issue[node];
        for &(c, l) in dag.children[node].iter().rev() {
            let c = c as usize;
            unblocked[c] = unblocked[c].max(time + l);
            generation[c] = cand_generation;
            parents[c] -= 1;
            if parents[c] == 0 {
                ready.push(c as u32);
            }
        }
        cand_generation += 1;
    }
    debug_assert_eq!(order.len(), n);
    order
}

/// Reorders the instructions of every basic block of `prog` by `mode`; returns whether the
/// order changed. Before allocation the pressure-driven modes read the program's liveness;
/// [`Mode::Post`] expects physical registers.
pub fn schedule(devinfo: &DevInfo, prog: &mut Program, mode: Mode) -> bool {
    schedule_with(devinfo, prog, mode, None)
}

/// [`schedule`], given the liveness of `prog` when the caller already has it (the
/// pressure-aware modes need it; every pre-allocation mode starts from the same program).
pub fn schedule_with(
    devinfo: &DevInfo,
    prog: &mut Program,
    mode: Mode,
    live: Option<&liveness::Liveness>,
) -> bool {
    if mode == Mode::KeepOrder || prog.insts.is_empty() {
        return false;
    }
    let res = Resources::new(prog);
    let computed;
    let live = if needs_liveness(mode) {
        Some(match live {
            Some(l) => l,
            None => {
                computed = liveness::compute(prog);
                &computed
            }
        })
    } else {
        None
    };
    let old = std::mem::take(&mut prog.insts);
    let mut out = Vec::with_capacity(old.len());
    let (mut dag, mut scratch) = (Dag::default(), DagScratch::default());
    let mut changed = false;
    let mut start = 0;
    while start < old.len() {
        if old[start].op.is_flow() {
            out.push(old[start].clone());
            start += 1;
            continue;
        }
        let end = (start..old.len())
            .find(|&i| old[i].op.is_flow())
            .unwrap_or(old.len());
        let run = &old[start..end];
        let pressure = live.map(|l| Pressure::new(prog, l, run, start));
        let order = schedule_run(devinfo, &res, run, mode, pressure, (&mut dag, &mut scratch));
        changed |= order.iter().enumerate().any(|(k, &i)| k != i);
        out.extend(order.into_iter().map(|i| run[i].clone()));
        start = end;
    }
    prog.insts = out;
    changed
}

/// Whether `mode` schedules by register pressure, which needs the program's liveness.
pub fn needs_liveness(mode: Mode) -> bool {
    matches!(mode, Mode::PreNonLifo | Mode::PreLifo)
}

/// The most GRFs live at once: at each instruction, the VGRF pieces whose live intervals
/// contain it (used to pick the schedule to spill from when none allocates).
pub fn max_pressure(prog: &Program) -> u32 {
    pressure_of(&liveness::compute(prog), prog.insts.len())
}

/// [`max_pressure`] of a program of `n` instructions from its liveness.
pub fn pressure_of(live: &liveness::Liveness, n: usize) -> u32 {
    let mut delta = vec![0i64; n + 2];
    for (s, e) in live.start.iter().zip(&live.end) {
        if *s != usize::MAX {
            delta[*s] += 1;
            delta[*e + 1] -= 1;
        }
    }
    let (mut cur, mut best) = (0i64, 0i64);
    for d in delta {
        cur += d;
        best = best.max(cur);
    }
    best as u32
}

/// Cycles an in-order EU needs for the straight-line `insts`: each instruction issues once the
/// previous one has issued and its operands are ready (the producer's issue plus
/// [`latency`]). Control flow counts its issue time only. A yardstick for what post-allocation
/// scheduling gains; it works on physical registers.
pub fn estimate_cycles(devinfo: &DevInfo, insts: &[Inst]) -> u64 {
    let prog = Program::default();
    let res = Resources::new(&prog);
    let mut ready_at: HashMap<u32, u64> = HashMap::default();
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    let mut time = 0u64;
    for inst in insts {
        res.uses(inst, &mut reads, &mut writes);
        let start = reads
            .iter()
            .chain(&writes)
            .filter_map(|r| ready_at.get(r))
            .fold(time, |t, &r| t.max(r));
        for w in &writes {
            ready_at.insert(*w, start + latency(devinfo, inst) as u64);
        }
        time = start + issue_time(inst) as u64;
    }
    time
}

#[cfg(test)]
mod tests;
