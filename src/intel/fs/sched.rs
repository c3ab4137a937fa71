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
//!   ([`Mode::PreLifo`]); the pipeline keeps the first that allocates without spilling,
//!   except that a fit only with the last two first looks for one with the first two at the
//!   next optimization level.
//! - After allocation [`Mode::Post`] reorders for latency over the physical registers.
//!
//! The latencies are Mesa's measured Gen7 figures (see [`latency`]), not this crate's cycle
//! estimator in `stats`, which other code owns and which counts issue cycles only.

use crate::util::fxhash::FxHashMap as HashMap;
use crate::util::stamps::Stamps;

use crate::intel::eu::types::sfid;
use crate::intel::eu::{MathFn, Opcode};
use crate::intel::msg::{SamplerDesc, SamplerMsg, ScratchDesc};
use crate::intel::DevInfo;

use super::ir::{Inst, Op, Program};
use super::liveness;

mod dag;

pub use dag::Dag;
use dag::{build_dag, build_dag_into, DagScratch, Resources};

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
    let ver = devinfo.ver;
    let hsw = ver == 75;
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
            // Mesa measured the size query (`resinfo`) apart.
            sfid::SAMPLER | sfid::SAMPLER_CACHE
                if SamplerDesc::is(ver, inst.desc, SamplerMsg::RESINFO) =>
            {
                100
            }
            sfid::SAMPLER | sfid::SAMPLER_CACHE => 200,
            sfid::CONSTANT_CACHE => 200,
            sfid::RENDER_CACHE => 600,
            sfid::DATA_CACHE => {
                // The scratch block messages that spilling emits.
                if ScratchDesc::is_scratch(ver, inst.sfid, inst.desc) {
                    if ScratchDesc::decode(ver, inst.desc).write {
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

/// The DAG of a run of instructions without control flow (for tests and tools).
pub fn dependencies(devinfo: &DevInfo, prog: &Program, insts: &[Inst]) -> Dag {
    let res = Resources::new(prog, devinfo.ver);
    let lat: Vec<u32> = insts.iter().map(|i| latency(devinfo, i)).collect();
    build_dag(&res, insts, &lat)
}

/// Register-pressure bookkeeping of one run before allocation (Mesa's `reads_remaining`,
/// `written`, block live-in and live-out sets, per VGRF), in tables indexed by VGRF that are
/// kept from run to run: a VGRF's entries belong to the current run when its stamp says so.
struct Pressure {
    sizes: Vec<u32>,
    stamps: Stamps,
    reads_remaining: Vec<u32>,
    written: Vec<bool>,
    live_in: Vec<bool>,
    live_out: Vec<bool>,
    /// The distinct VGRF sources of the run's instruction `i`:
    /// `src_list[src_start[i]..src_start[i + 1]]` (the benefit of a ready instruction is asked
    /// for again at every step).
    src_start: Vec<u32>,
    src_list: Vec<u32>,
}

fn src_vgrfs(inst: &Inst, out: &mut Vec<u32>) {
    out.clear();
    out.extend(inst.src.iter().filter(|s| s.is_vgrf()).map(|s| s.nr));
    out.sort_unstable();
    out.dedup();
}

impl Pressure {
    fn new(prog: &Program) -> Pressure {
        let n = prog.vgrf_sizes.len();
        Pressure {
            sizes: prog.vgrf_sizes.clone(),
            stamps: Stamps::new(n),
            reads_remaining: vec![0; n],
            written: vec![false; n],
            live_in: vec![false; n],
            live_out: vec![false; n],
            src_start: Vec::new(),
            src_list: Vec::new(),
        }
    }

    /// Starts the run `insts`, whose place in the program whose liveness is `live` is
    /// `start..start + insts.len()`.
    fn begin(
        &mut self,
        live: &liveness::Liveness,
        insts: &[Inst],
        start: usize,
        srcs: &mut Vec<u32>,
    ) {
        let end = start + insts.len();
        self.stamps.next_run();
        self.src_start.clear();
        self.src_list.clear();
        let note = |v: u32, p: &mut Pressure| {
            let vi = v as usize;
            if !p.stamps.mark(vi) {
                return;
            }
            p.reads_remaining[vi] = 0;
            p.written[vi] = false;
            let base = live.piece_base[vi];
            let pieces = base..base + p.sizes[vi] as usize;
            let (mut inn, mut out) = (false, false);
            for q in pieces {
                let (s, e) = (live.start[q], live.end[q]);
                if s == usize::MAX {
                    continue;
                }
                inn |= s < start && e >= start;
                out |= s < end && e >= end;
            }
            p.live_in[vi] = inn;
            p.live_out[vi] = out;
        };
        for inst in insts {
            src_vgrfs(inst, srcs);
            self.src_start.push(self.src_list.len() as u32);
            for &v in srcs.iter() {
                note(v, self);
                self.reads_remaining[v as usize] += 1;
                self.src_list.push(v);
            }
            if inst.dst.is_vgrf() {
                note(inst.dst.nr, self);
            }
        }
        self.src_start.push(self.src_list.len() as u32);
    }

    fn srcs(&self, i: usize) -> &[u32] {
        &self.src_list[self.src_start[i] as usize..self.src_start[i + 1] as usize]
    }

    /// Registers that scheduling the run's instruction `i` now frees minus those it starts
    /// occupying.
    fn benefit(&self, insts: &[Inst], i: usize) -> i32 {
        let inst = &insts[i];
        let mut b = 0i32;
        if inst.dst.is_vgrf() {
            let v = inst.dst.nr as usize;
            if !self.live_in[v] && !self.written[v] {
                b -= self.sizes[v] as i32;
            }
        }
        for &v in self.srcs(i) {
            let v = v as usize;
            if !self.live_out[v] && self.reads_remaining[v] == 1 {
                b += self.sizes[v] as i32;
            }
        }
        b
    }

    fn scheduled(&mut self, insts: &[Inst], i: usize) {
        let inst = &insts[i];
        if inst.dst.is_vgrf() {
            self.written[inst.dst.nr as usize] = true;
        }
        let (s, e) = (self.src_start[i] as usize, self.src_start[i + 1] as usize);
        for k in s..e {
            let r = &mut self.reads_remaining[self.src_list[k] as usize];
            *r = r.saturating_sub(1);
        }
    }
}

/// Per-node tables [`schedule_run`] fills for each run, kept from run to run.
#[derive(Default)]
struct RunTables {
    lat: Vec<u32>,
    issue: Vec<u32>,
    delay: Vec<u32>,
    unblocked: Vec<u32>,
    parents: Vec<u32>,
    generation: Vec<u32>,
    ready: Vec<u32>,
}

/// Orders one run of instructions (no control flow) by `mode`; appends the new order to
/// `order`, which holds the order of everything before the run, as indices into the program
/// (the run's instruction `i` is `order.len() + i` on entry).
fn schedule_run(
    devinfo: &DevInfo,
    res: &Resources,
    insts: &[Inst],
    mode: Mode,
    mut pressure: Option<&mut Pressure>,
    (dag, scratch, t): (&mut Dag, &mut DagScratch, &mut RunTables),
    order: &mut Vec<u32>,
) {
    let n = insts.len();
    let base = order.len();
    t.lat.clear();
    t.lat.extend(insts.iter().map(|i| latency(devinfo, i)));
    t.issue.clear();
    t.issue.extend(insts.iter().map(issue_time));
    build_dag_into(res, insts, &t.lat, dag, scratch);
    let (issue, delay, unblocked) = (&t.issue, &mut t.delay, &mut t.unblocked);
    // Longest path to the end of the run, and an optimistic earliest start.
    delay.clear();
    delay.resize(n, 0);
    for i in (0..n).rev() {
        delay[i] = issue[i];
        for &(c, l) in dag.children(i) {
            delay[i] = delay[i].max(l + delay[c as usize]);
        }
    }
    unblocked.clear();
    unblocked.resize(n, 0);
    for i in 0..n {
        for &(c, l) in dag.children(i) {
            let t = unblocked[i] + issue[i] + l;
            let u = &mut unblocked[c as usize];
            *u = (*u).max(t);
        }
    }
    let parents = &mut t.parents;
    parents.clone_from(&dag.parents);
    let generation = &mut t.generation;
    generation.clear();
    generation.resize(n, 0);
    // The ready list; its end is the head of Mesa's list, where newly ready nodes go.
    let ready = &mut t.ready;
    ready.clear();
    ready.extend((0..n as u32).rev().filter(|&i| parents[i as usize] == 0));
    let mut time = 0u32;
    let mut cand_generation = 1u32;
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
                let p = pressure.as_deref();
                let benefit = |i: u32| p.map_or(0, |p| p.benefit(insts, i as usize));
                let mut cb = benefit(ready[chosen]);
                for k in (0..ready.len() - 1).rev() {
                    let (nn, cn) = (ready[k] as usize, ready[chosen] as usize);
                    let b = benefit(ready[k]);
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
        order.push((base + node) as u32);
        if let Some(p) = pressure.as_deref_mut() {
            p.scheduled(insts, node);
        }
        time = time.max(unblocked[node]) + issue[node];
        for &(c, l) in dag.children(node).iter().rev() {
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
    debug_assert_eq!(order.len() - base, n);
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
    schedule_tracked(devinfo, prog, mode, live).is_some()
}

/// [`schedule_with`], returning the new order as indices into the old program when it
/// changed (the allocation check pairs each moved instruction with its virtual original).
pub fn schedule_tracked(
    devinfo: &DevInfo,
    prog: &mut Program,
    mode: Mode,
    live: Option<&liveness::Liveness>,
) -> Option<Vec<u32>> {
    if mode == Mode::KeepOrder || prog.insts.is_empty() {
        return None;
    }
    let res = Resources::new(prog, devinfo.ver);
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
    let mut pressure = live.map(|_| Pressure::new(prog));
    let insts = &prog.insts;
    // The new order of the whole program, as indices into the old one.
    let mut order: Vec<u32> = Vec::with_capacity(insts.len());
    let (mut dag, mut scratch, mut tables) = Default::default();
    let mut srcs = Vec::new();
    let mut start = 0;
    while start < insts.len() {
        if insts[start].op.is_flow() {
            order.push(start as u32);
            start += 1;
            continue;
        }
        let end = (start..insts.len())
            .find(|&i| insts[i].op.is_flow())
            .unwrap_or(insts.len());
        let run = &insts[start..end];
        if let (Some(p), Some(l)) = (pressure.as_mut(), live) {
            p.begin(l, run, start, &mut srcs);
        }
        let bufs = (&mut dag, &mut scratch, &mut tables);
        schedule_run(
            devinfo,
            &res,
            run,
            mode,
            pressure.as_mut(),
            bufs,
            &mut order,
        );
        start = end;
    }
    let changed = order.iter().enumerate().any(|(k, &i)| k != i as usize);
    if changed {
        // Move the instructions to their new places (a moved-out slot keeps an empty
        // instruction, which allocates nothing).
        let mut old = std::mem::take(&mut prog.insts);
        let hole = Inst::new(Op::Alu(Opcode::Nop), 1, super::ir::Reg::BAD, Vec::new());
        prog.insts = order
            .iter()
            .map(|&i| std::mem::replace(&mut old[i as usize], hole.clone()))
            .collect();
    }
    changed.then_some(order)
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
    let res = Resources::new(&prog, devinfo.ver);
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
