//! Register allocation of virtual GRFs onto the 128 hardware GRFs with `crate::ra`.
//!
//! One class per VGRF size (contiguous runs of 1..=[`MAX_VGRF_REGS`] registers); the set and its
//! q-values are built once per [`super::Device`]. Registers the thread payload, push
//! constants and attribute setup occupy are precoloured nodes that interfere with every
//! virtual register live before their last read (see [`payload_last_use`]), and the payload of the end-of-thread send is precoloured
//! to the top of the file, as Gen7 requires g112–g127 for EOT sources; on Gen8 the payload of
//! any other SIMD8 send stays out of g127.

use std::sync::Arc;

use crate::intel::eu::types::sfid;
use crate::intel::eu::Opcode;
use crate::intel::msg::ScratchDesc;
use crate::intel::DevInfo;
use crate::ra::{self, AllocError, ClassId, Graph, RegId, RegSet, RegSetBuilder};

use super::ir::{File, Inst, Op, Program, Reg, REG_SIZE};
pub use super::liveness::regs_read;
use super::liveness::{self, Liveness};
use super::CompileError;

/// How many virtual registers may be spilled before giving up.
const MAX_SPILLS: usize = 4096;

/// Registers of pressure above the file past which one round spills several VGRFs at once
/// (see [`batch_spill_candidates`]). Below it, one VGRF per round, the allocator's own choice.
const BATCH_SPILL_EXCESS: u32 = 32;

/// Spill cost multiplier per loop level: a reference inside a loop runs many times.
const LOOP_WEIGHT: f32 = 10.0;

/// What spilling added to a program.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SpillStats {
    /// Scratch write messages.
    pub spills: u32,
    /// Scratch read messages.
    pub fills: u32,
    /// Scratch bytes per thread.
    pub scratch_bytes: u32,
}

/// Allocates `prog`, spilling virtual registers to scratch until it fits when `spill` is set
/// (Mesa spills SIMD8 only and drops wider programs instead). `Ok(None)`: it does not fit.
pub fn allocate_spilling(
    devinfo: &DevInfo,
    rf: &RegFile,
    prog: &mut Program,
    reserved: u32,
    spill: bool,
) -> Result<Option<(Allocation, SpillStats)>, CompileError> {
    allocate_spilling_with(devinfo, rf, prog, reserved, spill, None)
}

/// [`allocate_spilling`], given the liveness of `prog` when the caller already has it.
pub fn allocate_spilling_with(
    devinfo: &DevInfo,
    rf: &RegFile,
    prog: &mut Program,
    reserved: u32,
    spill: bool,
    mut live: Option<&Liveness>,
) -> Result<Option<(Allocation, SpillStats)>, CompileError> {
    let mut stats = SpillStats::default();
    // Registers created by spilling live only around one instruction: never spill them again.
    let mut unspillable = vec![false; prog.vgrf_sizes.len()];
    let grfs = rf.set.num_units() as u32;
    let mut spilled = 0usize;
    while spilled <= MAX_SPILLS {
        let computed;
        let live = match live.take() {
            Some(given) => given,
            None => {
                computed = liveness::compute(prog);
                &computed
            }
        };
        let costs = spill_costs(prog, &unspillable);
        if spill {
            let batch = batch_spill_candidates(prog, live, &costs, reserved, grfs);
            if !batch.is_empty() {
                for v in batch {
                    spill_vgrf(devinfo.ver, prog, v, &mut stats);
                    unspillable.resize(prog.vgrf_sizes.len(), true);
                    unspillable[v as usize] = true;
                    spilled += 1;
                }
                continue;
            }
        }
        spilled += 1;
        match allocate_with_costs(devinfo, rf, prog, live, reserved, Some(&costs))? {
            Attempt::Done(a) => return Ok(Some((a, stats))),
            Attempt::Spill(v) if spill => {
                spill_vgrf(devinfo.ver, prog, v, &mut stats);
                unspillable.resize(prog.vgrf_sizes.len(), true);
                unspillable[v as usize] = true;
            }
            Attempt::Spill(_) | Attempt::NoFit => return Ok(None),
        }
    }
    Ok(None)
}

/// When the register pressure somewhere exceeds the file by more than
/// [`BATCH_SPILL_EXCESS`], the cheapest spillable VGRFs live there (by cost per register),
/// enough to cover half the excess: spilling them is certain to be needed, and doing it one
/// per allocation round makes a shader with hundreds of live values cubic (a round rebuilds
/// liveness and the interference graph). Empty otherwise, so ordinary shaders keep the
/// allocator's one-at-a-time choice.
fn batch_spill_candidates(
    prog: &Program,
    live: &Liveness,
    costs: &[f32],
    reserved: u32,
    grfs: u32,
) -> Vec<u32> {
    let intervals: Vec<Option<(usize, usize)>> = prog
        .vgrf_sizes
        .iter()
        .enumerate()
        .map(|(v, &size)| live.vgrf_interval(v, size))
        .collect();
    // Pressure at every point: +size where an interval starts, -size after it ends.
    let mut events: Vec<(usize, i64)> = Vec::with_capacity(2 * intervals.len());
    for (v, iv) in intervals.iter().enumerate() {
        if let Some((s, e)) = *iv {
            let size = i64::from(prog.vgrf_sizes[v]);
            events.push((s, size));
            events.push((e + 1, -size));
        }
    }
    events.sort_unstable_by_key(|&(at, d)| (at, d));
    let (mut pressure, mut peak, mut peak_at) = (i64::from(reserved.min(grfs)), 0i64, 0usize);
    for &(at, d) in &events {
        pressure += d;
        if pressure > peak {
            (peak, peak_at) = (pressure, at);
        }
    }
    let excess = peak - i64::from(grfs);
    if excess <= i64::from(BATCH_SPILL_EXCESS) {
        return Vec::new();
    }
    let mut candidates: Vec<(f32, u32, u32)> = intervals
        .iter()
        .enumerate()
        .filter(|(v, iv)| costs[*v] > 0.0 && iv.is_some_and(|(s, e)| s <= peak_at && peak_at <= e))
        .map(|(v, _)| {
            let size = prog.vgrf_sizes[v];
            (costs[v] / size as f32, v as u32, size)
        })
        .collect();
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut freed = 0i64;
    let mut out = Vec::new();
    for (_, v, size) in candidates {
        if 2 * freed >= excess {
            break;
        }
        freed += i64::from(size);
        out.push(v);
    }
    out
}

/// Spill cost of every VGRF: its references weighted by [`LOOP_WEIGHT`] per enclosing loop;
/// zero (never spilled) for registers spilling cannot help or handle.
fn spill_costs(prog: &Program, unspillable: &[bool]) -> Vec<f32> {
    let mut cost = vec![0.0f32; prog.vgrf_sizes.len()];
    let mut forbidden: Vec<bool> = unspillable.to_vec();
    forbidden.resize(prog.vgrf_sizes.len(), true);
    for (v, &size) in prog.vgrf_sizes.iter().enumerate() {
        // Scratch block messages move 1, 2 or 4 registers.
        if !matches!(size, 1 | 2 | 4) {
            forbidden[v] = true;
        }
    }
    let mut weight = 1.0f32;
    for inst in &prog.insts {
        match inst.op {
            Op::Do => weight *= LOOP_WEIGHT,
            Op::While => weight /= LOOP_WEIGHT,
            _ => {}
        }
        if inst.op == Op::Send && inst.eot {
            if let Some(s) = inst.src.first().filter(|s| s.is_vgrf()) {
                forbidden[s.nr as usize] = true;
            }
        }
        for r in std::iter::once(&inst.dst).chain(&inst.src) {
            if r.is_vgrf() {
                cost[r.nr as usize] += weight;
            }
        }
    }
    for (c, f) in cost.iter_mut().zip(&forbidden) {
        if *f {
            *c = 0.0;
        }
    }
    cost
}

/// Rewrites every instruction touching VGRF `v` to use a fresh register filled from scratch
/// before it (reads, and writes that may leave channels or registers unwritten) and written
/// back after it (writes).
fn spill_vgrf(ver: u32, prog: &mut Program, v: u32, stats: &mut SpillStats) {
    use crate::intel::eu::RegType;
    let size = prog.vgrf_sizes[v as usize];
    let hword = stats.scratch_bytes / REG_SIZE;
    stats.scratch_bytes += size * REG_SIZE;
    let old = std::mem::take(&mut prog.insts);
    let mut flow_depth = 0u32;
    for mut inst in old {
        match inst.op {
            Op::If | Op::Do => flow_depth += 1,
            Op::EndIf | Op::While => flow_depth = flow_depth.saturating_sub(1),
            _ => {}
        }
        let reads = inst.src.iter().any(|s| s.file == File::Vgrf && s.nr == v);
        let writes = inst.dst.file == File::Vgrf && inst.dst.nr == v;
        if !reads && !writes {
            prog.insts.push(inst);
            continue;
        }
        // Header register, then the spilled value's registers.
        let p = prog.alloc(1 + size);
        let data = |r: Reg| Reg {
            nr: p,
            offset: r.offset + REG_SIZE,
            ..r
        };
        let whole_write = writes
            && flow_depth == 0
            && inst.pred.is_none()
            && inst.dst.offset == 0
            && inst.dst.stride == 1
            && inst.regs_written() == size
            && inst.exec_size as u32 * inst.dst.ty.size() == size * REG_SIZE;
        if reads || !whole_write {
            let mut fill = Inst::new(
                Op::Send,
                8,
                Reg::vgrf(p, RegType::UD).reg_offset(1),
                vec![Reg::fixed(0, 0, RegType::UD, 1)],
            );
            fill.we_all = true;
            fill.mlen = 1;
            fill.rlen = size as u8;
            fill.sfid = sfid::DATA_CACHE;
            fill.desc = ScratchDesc::read(size, hword).encode(ver);
            prog.insts.push(fill);
            stats.fills += 1;
        }
        for s in &mut inst.src {
            if s.file == File::Vgrf && s.nr == v {
                *s = data(*s);
            }
        }
        if writes {
            inst.dst = data(inst.dst);
        }
        prog.insts.push(inst);
        if writes {
            let mut header = Inst::new(
                Op::Alu(Opcode::Mov),
                8,
                Reg::vgrf(p, RegType::UD),
                vec![Reg::fixed(0, 0, RegType::UD, 1)],
            );
            header.we_all = true;
            prog.insts.push(header);
            let mut spill = Inst::new(
                Op::Send,
                8,
                Reg::null(RegType::UW),
                vec![Reg::vgrf(p, RegType::UD)],
            );
            spill.we_all = true;
            spill.mlen = (1 + size) as u8;
            spill.sfid = sfid::DATA_CACHE;
            spill.desc = ScratchDesc::write(size, hword).encode(ver);
            prog.insts.push(spill);
            stats.spills += 1;
        }
    }
}

enum Attempt {
    Done(Allocation),
    Spill(u32),
    NoFit,
}

/// The largest virtual register (in GRFs) the classes cover.
pub const MAX_VGRF_REGS: u32 = 16;

/// The register set shared by every compile for one device.
#[derive(Debug)]
pub struct RegFile {
    /// The set.
    pub set: Arc<RegSet>,
    /// Class of each size (index = size - 1).
    pub classes: Vec<ClassId>,
    /// For each class, the register starting at each unit (None past the end).
    pub reg_at: Vec<Vec<Option<RegId>>>,
}

impl RegFile {
    /// Builds the classes for `grfs` registers.
    pub fn new(grfs: usize) -> RegFile {
        let mut b = RegSetBuilder::new(grfs);
        let classes: Vec<ClassId> = (1..=MAX_VGRF_REGS as usize)
            .map(|n| b.add_contiguous_class(n, 1))
            .collect();
        let set = b
            .finalize()
            .expect("the Intel register classes are well formed");
        let reg_at = classes
            .iter()
            .map(|&c| {
                let mut at = vec![None; grfs];
                for &r in set.class_regs(c) {
                    at[set.units_of(r).start] = Some(r);
                }
                at
            })
            .collect();
        RegFile {
            set,
            classes,
            reg_at,
        }
    }
}

/// Outcome of an allocation.
#[derive(Debug, Clone)]
pub struct Allocation {
    /// First hardware register of each VGRF.
    pub base: Vec<u32>,
    /// Registers used (one past the highest).
    pub grfs_used: u32,
    /// Nodes of the interference graph (VGRFs plus precoloured payload registers).
    pub graph_nodes: usize,
    /// Interference edges added (before duplicates are merged).
    pub graph_edges: usize,
}

/// Allocates every VGRF, keeping registers below `reserved` untouched. `Ok(None)` means the
/// program does not fit without spilling.
pub fn allocate(
    devinfo: &DevInfo,
    rf: &RegFile,
    prog: &Program,
    live: &Liveness,
    reserved: u32,
) -> Result<Option<Allocation>, CompileError> {
    Ok(
        match allocate_with_costs(devinfo, rf, prog, live, reserved, None)? {
            Attempt::Done(a) => Some(a),
            _ => None,
        },
    )
}

fn allocate_with_costs(
    devinfo: &DevInfo,
    rf: &RegFile,
    prog: &Program,
    live: &Liveness,
    reserved: u32,
    costs: Option<&[f32]>,
) -> Result<Attempt, CompileError> {
    let grfs = rf.set.num_units() as u32;
    let n = prog.vgrf_sizes.len();
    let mut g = Graph::with_capacity(&rf.set, n + reserved as usize, n * 8);
    let mut intervals = Vec::with_capacity(n);
    for (v, &size) in prog.vgrf_sizes.iter().enumerate() {
        if size > MAX_VGRF_REGS {
            return Err(CompileError::Unsupported(format!(
                "virtual register of {size} GRFs (limit {MAX_VGRF_REGS})"
            )));
        }
        g.add_node(rf.classes[size as usize - 1]);
        intervals.push(live.vgrf_interval(v, size));
    }
    // EOT payloads sit at the top of the register file.
    for inst in &prog.insts {
        if inst.op == Op::Send && inst.eot {
            if let Some(src) = inst.src.first().filter(|s| s.file == File::Vgrf) {
                let size = prog.vgrf_sizes[src.nr as usize];
                let at = grfs - size;
                if let Some(r) = rf.reg_at[size as usize - 1][at as usize] {
                    g.precolor(ra::NodeId(src.nr), r);
                }
            }
        }
    }
    // Gen8+: the source payload of a non-EOT SIMD8 send may not sit in the last register
    // (the hardware reads one register past a SIMD8 message there).
    if devinfo.ver >= 80 {
        let payloads: Vec<u32> = prog
            .insts
            .iter()
            .filter(|i| i.op == Op::Send && !i.eot && i.exec_size == 8)
            .filter_map(|i| i.src.first().filter(|s| s.file == File::Vgrf).map(|s| s.nr))
            .collect();
        if !payloads.is_empty() {
            let last = g.add_node(rf.classes[0]);
            if let Some(r) = rf.reg_at[0][grfs as usize - 1] {
                g.precolor(last, r);
            }
            for v in payloads {
                g.add_edge(last, ra::NodeId(v));
            }
        }
    }
    let payload_end = payload_last_use(prog, reserved.min(grfs));
    for (u, &last) in payload_end.iter().enumerate() {
        let Some(last) = last else { continue };
        let node = g.add_node(rf.classes[0]);
        if let Some(r) = rf.reg_at[0][u] {
            g.precolor(node, r);
        }
        for (v, iv) in intervals.iter().enumerate() {
            if iv.is_some_and(|(s, _)| s <= last) {
                g.add_edge(node, ra::NodeId(v as u32));
            }
        }
    }
    // Interference: overlapping closed intervals, found with a sweep over sorted starts.
    let mut order: Vec<usize> = (0..n).filter(|&v| intervals[v].is_some()).collect();
    order.sort_by_key(|&v| (intervals[v].unwrap().0, v));
    let mut active: Vec<usize> = Vec::new();
    for &v in &order {
        let (s, _) = intervals[v].unwrap();
        active.retain(|&a| intervals[a].unwrap().1 >= s);
        for &a in &active {
            g.add_edge(ra::NodeId(a as u32), ra::NodeId(v as u32));
        }
        active.push(v);
    }
    for (v, iv) in intervals.iter().enumerate() {
        let cost = match (*iv, costs) {
            (None, _) => 0.0,
            (Some(_), Some(c)) => c[v],
            (Some((s, e)), None) => 1.0 + (e - s) as f32,
        };
        g.set_spill_cost(ra::NodeId(v as u32), cost);
    }
    let assignment = match g.allocate() {
        Ok(a) => a,
        Err(AllocError::Spill(c)) if (c.candidate.0 as usize) < n => {
            return Ok(Attempt::Spill(c.candidate.0))
        }
        Err(AllocError::Spill(_) | AllocError::NoSpillCandidate { .. }) => {
            return Ok(Attempt::NoFit)
        }
        Err(e) => {
            return Err(CompileError::Internal(format!(
                "register allocation: {e:?}"
            )))
        }
    };
    ra::check(&g, &assignment)
        .map_err(|e| CompileError::Internal(format!("register allocation check failed: {e:?}")))?;
    let mut base = Vec::with_capacity(n);
    let mut used = reserved;
    for (v, iv) in intervals.iter().enumerate() {
        let r = assignment.reg(ra::NodeId(v as u32));
        let start = rf.set.units_of(r).start as u32;
        base.push(start);
        if iv.is_some() {
            used = used.max(start + prog.vgrf_sizes[v]);
        }
    }
    Ok(Attempt::Done(Allocation {
        base,
        grfs_used: used,
        graph_nodes: g.num_nodes(),
        graph_edges: g.num_edges_added(),
    }))
}

/// The last instruction that needs each payload register (`reserved` of them), or `None` for
/// one nothing reads, which virtual registers may then take from the start.
///
/// The payload, push constants and attribute setup data are written once, before the first
/// instruction, so a register of theirs is free for virtual registers after its last read, as
/// in Mesa's `calculate_payload_ranges`. A read inside a loop keeps the register until the end
/// of the outermost loop, since the next iteration reads it again. g0 and g1 stay reserved for
/// the whole program: scratch messages that spilling adds take their header from g0, and the
/// end-of-thread message is where Mesa keeps both alive too (hardware and simulators have been
/// seen to read them there).
fn payload_last_use(prog: &Program, reserved: u32) -> Vec<Option<usize>> {
    let n = prog.insts.len();
    let mut last: Vec<Option<usize>> = vec![None; reserved as usize];
    // For each instruction, the WHILE of the outermost loop around it.
    let mut outer_end = vec![None; n];
    let mut depth = 0usize;
    let mut open = 0usize;
    for (ip, inst) in prog.insts.iter().enumerate() {
        match inst.op {
            Op::Do => {
                if depth == 0 {
                    open = ip;
                }
                depth += 1;
            }
            Op::While => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    outer_end[open..=ip].fill(Some(ip));
                }
            }
            _ => {}
        }
    }
    for (ip, inst) in prog.insts.iter().enumerate() {
        let at = outer_end[ip].unwrap_or(ip);
        let mut mark = |first: u32, regs: u32| {
            for r in first..(first + regs).min(reserved) {
                let l = &mut last[r as usize];
                *l = Some(l.map_or(at, |x: usize| x.max(at)));
            }
        };
        for (i, s) in inst.src.iter().enumerate() {
            if s.file == File::Fixed {
                mark(s.nr + s.offset / REG_SIZE, regs_read(inst, i));
            }
        }
        if inst.dst.file == File::Fixed {
            mark(
                inst.dst.nr + inst.dst.offset / REG_SIZE,
                inst.regs_written().max(1),
            );
        }
    }
    for l in last.iter_mut().take(2) {
        *l = Some(n);
    }
    last
}

/// Rewrites every VGRF operand to its hardware register.
pub fn assign(prog: &mut Program, alloc: &Allocation) {
    let fix = |r: &mut Reg| {
        if r.file == File::Vgrf {
            let base = alloc.base[r.nr as usize];
            r.file = File::Fixed;
            r.nr = base + r.offset / REG_SIZE;
            r.offset %= REG_SIZE;
        }
    };
    for inst in &mut prog.insts {
        fix(&mut inst.dst);
        for s in &mut inst.src {
            fix(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::{Opcode, RegType};

    fn mov(dst: u32, src: Reg) -> Inst {
        Inst::new(
            Op::Alu(Opcode::Mov),
            8,
            Reg::vgrf(dst, RegType::UD),
            vec![src],
        )
    }

    /// A reference inside one loop costs ten times one outside, inside two loops a hundred
    /// times; registers spilling cannot handle (the EOT payload, sizes other than 1, 2, 4)
    /// and registers created by spilling cost nothing, so they are never chosen.
    #[test]
    fn spill_costs_weight_loop_depth() {
        let mut p = Program::default();
        let a = p.alloc(1);
        let b = p.alloc(1);
        let c = p.alloc(1);
        let big = p.alloc(3);
        let eot = p.alloc(1);
        let spilled = p.alloc(1);
        let imm = Reg::imm(RegType::UD, 1);
        p.insts.push(mov(a, imm));
        p.insts.push(mov(big, imm));
        p.insts.push(mov(spilled, imm));
        p.insts.push(Inst::new(Op::Do, 8, Reg::BAD, vec![]));
        p.insts.push(mov(b, imm));
        p.insts.push(Inst::new(Op::Do, 8, Reg::BAD, vec![]));
        p.insts.push(mov(c, Reg::vgrf(b, RegType::UD)));
        p.insts.push(Inst::new(Op::While, 8, Reg::BAD, vec![]));
        p.insts.push(Inst::new(Op::While, 8, Reg::BAD, vec![]));
        p.insts.push(mov(eot, Reg::vgrf(a, RegType::UD)));
        let mut send = Inst::new(
            Op::Send,
            8,
            Reg::null(RegType::UW),
            vec![Reg::vgrf(eot, RegType::UD)],
        );
        send.eot = true;
        p.insts.push(send);
        let mut unspillable = vec![false; p.vgrf_sizes.len()];
        unspillable[spilled as usize] = true;
        let cost = spill_costs(&p, &unspillable);
        assert_eq!(cost[a as usize], 2.0);
        assert_eq!(cost[b as usize], 10.0 + 100.0);
        assert_eq!(cost[c as usize], 100.0);
        assert_eq!(cost[big as usize], 0.0);
        assert_eq!(cost[eot as usize], 0.0);
        assert_eq!(cost[spilled as usize], 0.0);
    }

    /// Spilling a register read and written at the top level: the write needs no fill (it
    /// covers the whole register), the read gets one; the scratch messages carry the Gen7
    /// scratch block descriptor (header present, scratch bit 18, write bit 17, offset in
    /// 32-byte units) and the header is a copy of g0.
    #[test]
    fn spill_places_fills_before_reads_and_spills_after_writes() {
        let mut p = Program::default();
        let a = p.alloc(1);
        let b = p.alloc(1);
        let first = p.alloc(1);
        p.insts.push(mov(first, Reg::imm(RegType::UD, 7)));
        p.insts.push(mov(a, Reg::imm(RegType::UD, 1)));
        p.insts.push(mov(b, Reg::vgrf(a, RegType::UD)));
        let mut stats = SpillStats {
            scratch_bytes: 64,
            ..Default::default()
        };
        spill_vgrf(70, &mut p, a, &mut stats);
        assert_eq!(stats.fills, 1);
        assert_eq!(stats.spills, 1);
        assert_eq!(stats.scratch_bytes, 96);
        let ops: Vec<Op> = p.insts.iter().map(|i| i.op).collect();
        assert_eq!(
            ops,
            vec![
                Op::Alu(Opcode::Mov), // first
                Op::Alu(Opcode::Mov), // the def, now into the spill payload
                Op::Alu(Opcode::Mov), // header = g0
                Op::Send,             // spill
                Op::Send,             // fill
                Op::Alu(Opcode::Mov), // the use
            ]
        );
        let spill = &p.insts[3];
        assert_eq!(spill.mlen, 2);
        // mlen 2 (28:25), header (19), scratch (18), write (17), one register (13:12 = 0)
        // at register 2 (11:0).
        assert_eq!(spill.desc, 0x040e_0002);
        assert!(spill.we_all);
        let fill = &p.insts[4];
        assert_eq!(fill.rlen, 1);
        // mlen 1, rlen 1 (24:20), header, scratch, read, register 2.
        assert_eq!(fill.desc, 0x021c_0002);
        assert_eq!(fill.src[0], Reg::fixed(0, 0, RegType::UD, 1));
        // The use reads the filled register, not the spilled VGRF.
        assert_eq!(p.insts[5].src[0].nr, fill.dst.nr);
        assert_eq!(p.insts[5].src[0].offset, fill.dst.offset);
        assert!(p
            .insts
            .iter()
            .all(|i| !i.src.iter().any(|s| s.is_vgrf() && s.nr == a)));
    }

    /// Payload registers are free after their last read: g5 read at ip 1 is taken until 1;
    /// g6, read inside a loop, until the loop's WHILE (ip 5); PLN's barycentric source g2
    /// covers g2 and g3 (SIMD8 reads the u and v planes); g4 is never read; g0 and g1 stay
    /// reserved past the last instruction.
    #[test]
    fn payload_registers_are_free_after_their_last_read() {
        let mut p = Program::default();
        let a = p.alloc(1);
        let f = |nr| Reg::fixed(nr, 0, RegType::F, 1);
        p.insts.push(Inst::new(
            Op::Alu(Opcode::Pln),
            8,
            Reg::vgrf(a, RegType::F),
            vec![Reg::fixed(7, 0, RegType::F, 0), f(2)],
        ));
        p.insts.push(mov(a, f(5)));
        p.insts.push(Inst::new(Op::Do, 8, Reg::BAD, vec![]));
        p.insts.push(mov(a, f(6)));
        p.insts.push(mov(a, Reg::vgrf(a, RegType::UD)));
        p.insts.push(Inst::new(Op::While, 8, Reg::BAD, vec![]));
        p.insts.push(mov(a, Reg::vgrf(a, RegType::UD)));
        let last = payload_last_use(&p, 8);
        assert_eq!(
            last,
            vec![
                Some(7),
                Some(7),
                Some(0),
                Some(0),
                None,
                Some(1),
                Some(5),
                Some(0)
            ]
        );
    }
}
