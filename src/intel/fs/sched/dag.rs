//! The dependence DAG of a run of instructions without control flow: which instruction must
//! wait for which, and how many cycles the edge carries (see the rules in [`super`]).

use crate::intel::eu::types::sfid;
use crate::intel::eu::Opcode;
use crate::intel::msg::UrbDesc;
use crate::util::stamps::Stamps;

use super::super::ir::{File, Inst, Op, Program, REG_SIZE};
use super::super::regalloc;

/// Shared functions whose messages only read memory that the shader does not write (sampler,
/// Gen7 sampler-cache data port, constant cache): they may move past each other and past ALU
/// instructions. URB reads may too (see [`Resources::is_barrier`]); every other message is a
/// barrier.
const READ_ONLY_SFIDS: [u8; 3] = [sfid::SAMPLER, sfid::SAMPLER_CACHE, sfid::CONSTANT_CACHE];

/// What an operand occupies, as indices into one space: VGRF pieces, then hardware GRFs, then
/// MRFs, then the two flag subregisters.
pub(super) struct Resources {
    /// The generation (`DevInfo::ver`): what a message descriptor means depends on it.
    ver: u32,
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
    pub(super) fn new(prog: &Program, ver: u32) -> Resources {
        let mut piece_base = Vec::with_capacity(prog.vgrf_sizes.len());
        let mut total = 0u32;
        for &s in &prog.vgrf_sizes {
            piece_base.push(total);
            total += s;
        }
        Resources {
            ver,
            piece_base,
            vgrf_sizes: prog.vgrf_sizes.clone(),
            fixed: total,
            mrf: total + FIXED_SPACE,
            flag: total + FIXED_SPACE + MRF_SPACE,
        }
    }

    /// Whether nothing may move across `inst`. A URB read (the inputs a GS, TCS or TES pulls,
    /// a TCS reading back its outputs) has no side effect, as in Mesa, where the read is a
    /// SEND without `send_has_side_effects`: it may move past ALU instructions and other
    /// reads, but not across a URB write, which is a barrier. Holding every read in place
    /// would leave each one's latency exposed before its first use.
    fn is_barrier(&self, inst: &Inst) -> bool {
        match inst.op {
            op if op.is_flow() => true,
            Op::Alu(Opcode::Wait | Opcode::Nop) => true,
            Op::FbWrite { .. } => true,
            Op::Send if inst.eot => true,
            Op::Send if inst.sfid == sfid::URB => !UrbDesc::decode(self.ver, inst.desc).reads(),
            Op::Send => !READ_ONLY_SFIDS.contains(&inst.sfid),
            _ => false,
        }
    }

    /// Size of the index space (one past the last flag subregister).
    fn space(&self) -> usize {
        (self.flag + 2) as usize
    }

    /// Pieces of a register region starting at `r` and spanning `regs` registers.
    fn pieces(&self, r: &super::super::ir::Reg, regs: u32, out: &mut Vec<u32>) {
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
    pub(super) fn uses(&self, inst: &Inst, reads: &mut Vec<u32>, writes: &mut Vec<u32>) {
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
    /// Node `n`'s successors and the latency of each edge are
    /// `edges[start[n]..start[n + 1]]`, in increasing order of successor.
    start: Vec<u32>,
    edges: Vec<(u32, u32)>,
    /// Number of predecessors of each node.
    pub parents: Vec<u32>,
}

impl Dag {
    /// The successors of node `n`, each with the latency of its edge, in increasing order.
    pub fn children(&self, n: usize) -> &[(u32, u32)] {
        &self.edges[self.start[n] as usize..self.start[n + 1] as usize]
    }

    /// Whether `to` depends on `from` directly.
    pub fn has_edge(&self, from: usize, to: usize) -> bool {
        self.children(from).iter().any(|e| e.0 as usize == to)
    }
}

/// No instruction (an empty entry of the DAG builder's tables).
const NONE: u32 = u32::MAX;

/// Storage [`build_dag_into`] reuses from one run to the next: a program has a run per block,
/// and allocating per run, per resource or per node would cost more than the DAG itself.
/// Resources are dense indices (see [`Resources`]), so the per-resource state is a plain
/// table; an entry belongs to the current run only when its stamp says so, so starting a run
/// resets nothing.
#[derive(Default)]
pub(super) struct DagScratch {
    /// Per resource: whether the run being built has touched it.
    stamps: Stamps,
    /// Per resource: the last instruction that wrote it, or [`NONE`].
    write: Vec<u32>,
    /// Per resource: the newest entry of its list of readers since that write, or [`NONE`].
    reads_head: Vec<u32>,
    /// The reader lists: (instruction, next entry of the same list).
    read_pool: Vec<(u32, u32)>,
    /// The edges into each node, (predecessor, latency), node after node: every edge into
    /// node `i` is added while `i` is visited, so they come out grouped by successor.
    into: Vec<(u32, u32)>,
    /// Where each node's edges start in `into`.
    into_start: Vec<u32>,
    /// Per node: the last node it got an edge to, and where that edge is in `into` (a
    /// repeated edge only raises the latency).
    last_to: Vec<(u32, u32)>,
    since_barrier: Vec<u32>,
    reads: Vec<u32>,
    writes: Vec<u32>,
}

impl DagScratch {
    /// Starts a run of `n` instructions over a resource space of `space` indices.
    fn begin(&mut self, space: usize, n: usize) {
        if self.write.len() < space {
            self.stamps.grow(space);
            self.write.resize(space, NONE);
            self.reads_head.resize(space, NONE);
        }
        self.stamps.next_run();
        self.read_pool.clear();
        self.into.clear();
        self.into_start.clear();
        self.last_to.clear();
        self.last_to.resize(n, (NONE, 0));
        self.since_barrier.clear();
    }

    /// The table index of resource `r`, emptied on its first use in the run.
    fn touch(&mut self, r: u32) -> usize {
        let k = r as usize;
        if self.stamps.mark(k) {
            self.write[k] = NONE;
            self.reads_head[k] = NONE;
        }
        k
    }

    /// Records that `to` (the node being visited) waits `lat` cycles for `from`.
    fn edge(&mut self, from: u32, to: u32, lat: u32) {
        if from == to {
            return;
        }
        let last = &mut self.last_to[from as usize];
        if last.0 == to {
            let e = &mut self.into[last.1 as usize];
            e.1 = e.1.max(lat);
        } else {
            *last = (to, self.into.len() as u32);
            self.into.push((from, lat));
        }
    }
}

/// Builds the DAG of `insts`, which must contain no control flow, into `dag`.
pub(super) fn build_dag_into(
    res: &Resources,
    insts: &[Inst],
    lat: &[u32],
    dag: &mut Dag,
    s: &mut DagScratch,
) {
    let n = insts.len();
    s.begin(res.space(), n);
    let mut last_barrier: Option<u32> = None;
    let (mut reads, mut writes) = (std::mem::take(&mut s.reads), std::mem::take(&mut s.writes));
    for (i, inst) in insts.iter().enumerate() {
        let i = i as u32;
        s.into_start.push(s.into.len() as u32);
        res.uses(inst, &mut reads, &mut writes);
        for &r in &reads {
            let k = s.touch(r);
            let w = s.write[k];
            if w != NONE {
                s.edge(w, i, lat[w as usize]);
            }
            s.read_pool.push((i, s.reads_head[k]));
            s.reads_head[k] = (s.read_pool.len() - 1) as u32;
        }
        for &w in &writes {
            let k = s.touch(w);
            let p = s.write[k];
            if p != NONE {
                s.edge(p, i, lat[p as usize]);
            }
            let mut e = s.reads_head[k];
            while e != NONE {
                let (r, next) = s.read_pool[e as usize];
                s.edge(r, i, 0);
                e = next;
            }
            s.reads_head[k] = NONE;
            s.write[k] = i;
        }
        if res.is_barrier(inst) {
            for k in 0..s.since_barrier.len() {
                s.edge(s.since_barrier[k], i, 0);
            }
            if let Some(b) = last_barrier {
                s.edge(b, i, 0);
            }
            s.since_barrier.clear();
            last_barrier = Some(i);
        } else {
            if let Some(b) = last_barrier {
                s.edge(b, i, 0);
            }
            s.since_barrier.push(i);
        }
    }
    s.into_start.push(s.into.len() as u32);
    (s.reads, s.writes) = (reads, writes);
    // Turn the edges grouped by successor into rows by predecessor; visiting the successors
    // in order leaves each row in increasing order.
    dag.parents.clear();
    dag.parents
        .extend(s.into_start.windows(2).map(|w| w[1] - w[0]));
    dag.start.clear();
    dag.start.resize(n + 1, 0);
    for &(from, _) in &s.into {
        dag.start[from as usize + 1] += 1;
    }
    for k in 0..n {
        dag.start[k + 1] += dag.start[k];
    }
    dag.edges.clear();
    dag.edges.resize(s.into.len(), (0, 0));
    // `last_to` is done with: reuse it as each row's fill position.
    for (k, slot) in s.last_to.iter_mut().enumerate() {
        slot.1 = dag.start[k];
    }
    for to in 0..n {
        let (a, b) = (s.into_start[to] as usize, s.into_start[to + 1] as usize);
        for &(from, lat) in &s.into[a..b] {
            let fill = &mut s.last_to[from as usize].1;
            dag.edges[*fill as usize] = (to as u32, lat);
            *fill += 1;
        }
    }
}

/// Builds the DAG of `insts`, which must contain no control flow.
pub(super) fn build_dag(res: &Resources, insts: &[Inst], lat: &[u32]) -> Dag {
    let mut dag = Dag::default();
    build_dag_into(res, insts, lat, &mut dag, &mut DagScratch::default());
    dag
}
