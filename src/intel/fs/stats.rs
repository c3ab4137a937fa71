//! Instruction statistics and the cycle estimate.
//!
//! The estimate is Mesa's static performance model (the "cycles" shader-db prints, from
//! `brw_ir_performance.cpp`) applied to finished EU code, so that our programs and Mesa's own
//! assembly can be measured with one ruler. The model walks the program once in order:
//!
//! - The front end issues one instruction at a time; each occupies it for an issue time that
//!   grows with the instruction's size in GRFs, and may also occupy a back-end unit (the ALU
//!   pipe, extended math, or a shared function such as the sampler) for a busy time; an
//!   instruction bound to a busy unit waits for it.
//! - Every register an instruction writes becomes readable a latency after it issues
//!   (separately for GRFs, the accumulator and the flags); a later instruction that reads or
//!   overwrites it waits until then (RAW and WAW). A message's payload stays in use until the
//!   shared function has read it, so a later write to it waits too (WAR).
//! - The estimate is the front end's total time. Loop bodies are weighted by ten, as Mesa
//!   weights them for want of trip counts; branches count once, as if both sides ran.
//!
//! [`timing`] holds the per-generation figures and where they come from; [`footprint`]
//! computes the registers an instruction touches; [`listing`] reads Mesa's assembly listings
//! so that Mesa's programs can be estimated too.

mod footprint;
pub mod listing;
mod timing;

use crate::intel::eu::{self, Opcode};
use crate::intel::kernel::Stats;
use crate::intel::DevInfo;

use footprint::{Footprint, SLOTS};
use timing::{timing, Info, Unit};

/// Weight of a loop body: Mesa assumes ten iterations.
const LOOP_WEIGHT: f64 = 10.0;

/// The estimate of one program.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Cycles from the first instruction's issue to the last one's (loop bodies weighted).
    pub cycles: u32,
    /// Channels completed per cycle when the EU runs many threads of this program: the SIMD
    /// width over the larger of the thread's cycles and its busiest unit's total busy time.
    /// Mesa compares this between widths to decide whether SIMD32 is worth keeping.
    pub throughput: f64,
}

/// Counts instructions, loops and sends and estimates cycles.
pub fn collect(devinfo: &DevInfo, insts: &[eu::Inst]) -> Stats {
    collect_estimated(devinfo, insts, 8).0
}

/// [`collect`], with the program's [`estimate`] as a SIMD`simd` program from the same walk.
pub fn collect_estimated(devinfo: &DevInfo, insts: &[eu::Inst], simd: u32) -> (Stats, Estimate) {
    let mut s = Stats {
        instructions: insts.len() as u32,
        ..Stats::default()
    };
    for i in insts {
        if i.opcode == Opcode::While {
            s.loops += 1;
        }
        if i.opcode.is_send() {
            s.sends += 1;
        }
    }
    let e = estimate(devinfo, insts, simd);
    s.cycles = e.cycles;
    (s, e)
}

/// Estimates `insts` as a SIMD`simd` program (the width only scales the throughput).
pub fn estimate(devinfo: &DevInfo, insts: &[eu::Inst], simd: u32) -> Estimate {
    run(devinfo, insts, simd, |_, _| {})
}

/// The front end's clock after each instruction issued (unweighted): where a program waits,
/// for annotated listings and for reading the model's decisions.
pub fn issue_times(devinfo: &DevInfo, insts: &[eu::Inst]) -> Vec<u64> {
    let mut out = Vec::with_capacity(insts.len());
    run(devinfo, insts, 8, |_, t| out.push(t.max(0) as u64));
    out
}

fn run(
    devinfo: &DevInfo,
    insts: &[eu::Inst],
    simd: u32,
    mut each: impl FnMut(usize, i64),
) -> Estimate {
    let ver = devinfo.ver;
    // Gen6+ code has no DO: a loop begins where its WHILE jumps back to.
    let mut loop_starts = vec![0u32; insts.len()];
    let mut closes_loop = vec![false; insts.len()];
    for (i, inst) in insts.iter().enumerate() {
        if inst.opcode != Opcode::While {
            continue;
        }
        if let Some(b) = inst.branch {
            let target = i as i64 + (b.jip as i64).div_euclid(16);
            if (0..=i as i64).contains(&target) {
                loop_starts[target as usize] += 1;
                closes_loop[i] = true;
            }
        }
    }

    let mut st = State::new();
    let mut weight = 1.0f64;
    let mut elapsed = 0f64;
    for (i, inst) in insts.iter().enumerate() {
        for _ in 0..loop_starts[i] {
            weight *= LOOP_WEIGHT;
        }
        let before = st.front;
        st.issue(ver, inst, weight);
        each(i, st.front);
        // Mesa accumulates into an unsigned counter: each step truncates.
        elapsed = (elapsed + (st.front - before) as f64 * weight).trunc();
        if closes_loop[i] {
            weight /= LOOP_WEIGHT;
        }
    }
    let busiest = st.busy.iter().copied().fold(elapsed, f64::max);
    Estimate {
        cycles: elapsed.min(u32::MAX as f64) as u32,
        throughput: if busiest > 0.0 {
            simd as f64 / busiest
        } else {
            simd as f64
        },
    }
}

/// The model's clock: when the front end, each unit and each register next becomes free.
struct State {
    front: i64,
    unit_ready: [i64; Unit::COUNT],
    slot_ready: [i64; SLOTS],
    /// Weighted busy time of each unit, for the throughput.
    busy: [f64; Unit::COUNT],
    /// The footprint of the instruction being issued, kept so its lists are allocated once.
    footprint: Footprint,
}

impl State {
    fn new() -> State {
        State {
            front: 0,
            unit_ready: [0; Unit::COUNT],
            slot_ready: [0; SLOTS],
            busy: [0.0; Unit::COUNT],
            footprint: Footprint::empty(),
        }
    }

    fn wait_for(&mut self, spans: &[footprint::Span]) {
        for sp in spans {
            for s in sp.slots() {
                self.front = self.front.max(self.slot_ready[s]);
            }
        }
    }

    fn mark(&mut self, spans: &[footprint::Span], at: i64) {
        for sp in spans {
            for s in sp.slots() {
                self.slot_ready[s] = at;
            }
        }
    }

    fn issue(&mut self, ver: u32, inst: &eu::Inst, weight: f64) {
        let mut fp = std::mem::replace(&mut self.footprint, Footprint::empty());
        fp.compute(inst, ver);
        let t = timing(
            ver,
            inst,
            &Info {
                exec_ty: fp.exec_ty,
                sizes: fp.sizes,
                desc: fp.desc,
            },
        );
        self.wait_for(&fp.reads);
        if !inst.no_dd_check {
            self.wait_for(&fp.writes_grf);
            self.wait_for(&fp.writes_acc);
            self.wait_for(&fp.writes_flag);
        }
        self.front += t.issue;
        if let Some(u) = t.unit {
            let u = u.index();
            self.front = self.front.max(self.unit_ready[u]);
            self.unit_ready[u] = self.front + t.busy;
            self.busy[u] += t.busy as f64 * weight;
        }
        let now = self.front;
        self.mark(&fp.payload, now + t.src_read);
        self.mark(&fp.writes_grf, now + t.dst_ready);
        self.mark(&fp.writes_acc, now + t.acc_ready);
        self.mark(&fp.writes_flag, now + t.flag_ready);
        self.footprint = fp;
    }
}

#[cfg(test)]
mod tests;
