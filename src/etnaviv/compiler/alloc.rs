//! Liveness, interference and colouring of the program's values.
//!
//! Liveness is the classic backward data-flow over the basic blocks the labels and branches
//! delimit, so values carried around loops stay live over the whole loop. Each value's
//! live range is then flattened to one interval of program points (instruction `i` reads at
//! point `2i + 1` and writes at `2i + 2`; inputs are defined at point 0), and two values
//! interfere when their intervals overlap. A destination may therefore share a register with
//! a source that dies in the same instruction, which is safe because every instruction reads
//! all of its sources before writing.

use super::ir::*;
use super::regs::{Class, RegFile, VirtReg};
use super::CompileError;
use crate::etnaviv::isa::Opcode;
use crate::ra::{check, AllocError, Assignment, Graph, NodeId, RegId};
use crate::util::bitset::BitSet;

/// The register class a value gets.
///
/// Every operand in this backend is re-swizzled at emission, so a value may take the
/// smallest virtual class its width allows. The exceptions are the values whose layout is
/// fixed from outside: inputs and outputs occupy whole registers (the hardware and the driver
/// address them as vec4s), and two-part transcendental results need an XY or ZW pair.
pub fn class_of(v: &Value) -> Class {
    match v.kind {
        ValueKind::Input { .. } | ValueKind::Output => Class::Vec4,
        ValueKind::Pair => Class::Pair,
        ValueKind::Temp => Class::for_width(v.width),
    }
}

/// Liveness bits (4 × value + component) an instruction writes.
fn defs_of(ins: &Instr) -> impl Iterator<Item = usize> + '_ {
    ins.dst.into_iter().flat_map(|(d, mask)| {
        (0..4)
            .filter(move |c| mask & (1 << c) != 0)
            .map(move |c| 4 * d.index() + c)
    })
}

/// Liveness bits an instruction reads: the value components its used channels read.
fn uses_of(ins: &Instr) -> Vec<usize> {
    let mut out = Vec::new();
    for (slot, s) in ins.src.iter().enumerate() {
        let Some(s) = s else { continue };
        if let OperandKind::Value(v) = s.kind {
            let used = ins.used_channels(slot);
            for c in 0..4 {
                if used & (1 << c) != 0 {
                    out.push(4 * v.index() + (s.swz[c] as usize & 3));
                }
            }
        }
    }
    out
}

/// One piece of a live range: value `value` is live over program points `start..=end` of
/// one basic block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub value: usize,
    pub start: u32,
    pub end: u32,
}

/// Live ranges as one interval per basic block a value is live in (so a phi variable,
/// assigned at the end of both arms of an `if`, is not live inside the arms), listed per
/// block.
pub fn intervals(p: &Program) -> Vec<Vec<Piece>> {
    // Basic blocks over the instruction list.
    let instrs: Vec<&Instr> = p.instrs().collect();
    if instrs.is_empty() {
        return Vec::new();
    }
    let mut label_at = vec![usize::MAX; p.labels as usize];
    let mut starts = vec![0usize];
    let mut idx = 0usize;
    for item in &p.items {
        match item {
            Item::Label(l) => {
                label_at[l.0 as usize] = idx;
                if *starts.last().unwrap_or(&0) != idx {
                    starts.push(idx);
                }
            }
            Item::Instr(i) => {
                idx += 1;
                if i.target.is_some() {
                    starts.push(idx);
                }
            }
        }
    }
    starts.retain(|&s| s < instrs.len());
    starts.dedup();
    let nb = starts.len();
    let block_of_start = |i: usize| starts.binary_search(&i).ok();
    let ends: Vec<usize> = (0..nb)
        .map(|b| starts.get(b + 1).copied().unwrap_or(instrs.len()))
        .collect();
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); nb];
    // Blocks that can leave the program, after which the outputs are read.
    let mut exits = vec![false; nb];
    exits[nb - 1] = true;
    for b in 0..nb {
        let last = instrs[ends[b] - 1];
        let uncond = last.target.is_some() && last.src[0].is_none();
        if !uncond && b + 1 < nb {
            succs[b].push(b + 1);
        }
        if let Some(t) = last.target {
            match block_of_start(label_at[t.0 as usize]) {
                Some(tb) => succs[b].push(tb),
                None => exits[b] = true,
            }
        }
    }
    let nv = p.values.len();
    let outputs: Vec<usize> = (0..nv)
        .filter(|&v| p.values[v].kind == ValueKind::Output)
        .collect();
    // Liveness is tracked per component (bit 4v + c), so a write of some components of a
    // value keeps the others live: vectors assembled over several instructions, or outputs
    // written piecewise in different blocks, stay intact in between.
    let nc = nv * 4;
    let mut gen = vec![BitSet::new(nc); nb];
    let mut kill = vec![BitSet::new(nc); nb];
    for b in 0..nb {
        for i in (starts[b]..ends[b]).rev() {
            let ins = instrs[i];
            for k in defs_of(ins) {
                kill[b].insert(k);
                gen[b].remove(k);
            }
            for k in uses_of(ins) {
                gen[b].insert(k);
            }
        }
    }
    // The driver reads the output components the program writes.
    let mut written = vec![0u8; nv];
    for ins in &instrs {
        if let Some((d, m)) = ins.dst {
            written[d.index()] |= m;
        }
    }
    let mut live_in = vec![BitSet::new(nc); nb];
    let mut live_out = vec![BitSet::new(nc); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = BitSet::new(nc);
            if exits[b] {
                for &o in &outputs {
                    for c in 0..4 {
                        if written[o] & (1 << c) != 0 {
                            out.insert(4 * o + c);
                        }
                    }
                }
            }
            for &s in &succs[b] {
                out.union_with(&live_in[s]);
            }
            let mut inn = out.clone();
            inn.subtract(&kill[b]);
            inn.union_with(&gen[b]);
            live_out[b] = out;
            if inn != live_in[b] {
                live_in[b] = inn;
                changed = true;
            }
        }
    }
    let mut pieces = Vec::with_capacity(nb);
    for b in 0..nb {
        let mut iv: Vec<Option<(u32, u32)>> = vec![None; nv];
        let mut touch = |v: usize, pt: u32| {
            iv[v] = Some(match iv[v] {
                None => (pt, pt),
                Some((a, b)) => (a.min(pt), b.max(pt)),
            });
        };
        if b == 0 {
            for (v, val) in p.values.iter().enumerate() {
                if matches!(val.kind, ValueKind::Input { .. }) {
                    touch(v, 0);
                }
            }
        }
        let mut live = live_out[b].clone();
        let end_pt = 2 * ends[b] as u32 + 1;
        for k in live.iter() {
            touch(k / 4, end_pt);
        }
        for i in (starts[b]..ends[b]).rev() {
            let ins = instrs[i];
            let (rd, wr) = (2 * i as u32 + 1, 2 * i as u32 + 2);
            for k in live.iter() {
                touch(k / 4, wr);
            }
            if let Some((d, _)) = ins.dst {
                touch(d.index(), wr);
            }
            for k in defs_of(ins) {
                live.remove(k);
            }
            for k in uses_of(ins) {
                live.insert(k);
            }
            for k in live.iter() {
                touch(k / 4, rd);
            }
        }
        let start_pt = if b == 0 { 0 } else { 2 * starts[b] as u32 + 1 };
        for k in live.iter() {
            touch(k / 4, start_pt);
        }
        let mut list: Vec<Piece> = iv
            .iter()
            .enumerate()
            .filter_map(|(v, i)| {
                i.map(|(start, end)| Piece {
                    value: v,
                    start,
                    end,
                })
            })
            .collect();
        list.sort_by_key(|p| (p.start, p.value));
        pieces.push(list);
    }
    pieces
}

/// Fails fast when more components are live at one point than the temporaries hold (four
/// each): no colouring exists then, and without
/// spilling the compile can only fail. The sweep is O(n log n), where the interference
/// graph of such a shader is quadratic (10,000 live values once took minutes and 3.7 GB to
/// reach the same error).
fn check_pressure(p: &Program, pieces: &[Vec<Piece>], temps: u32) -> Result<(), CompileError> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let capacity = 4 * u64::from(temps);
    for block in pieces {
        let mut ends: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
        let mut live = 0u64;
        for piece in block {
            while let Some(&Reverse((end, width))) = ends.peek() {
                if end >= piece.start {
                    break;
                }
                ends.pop();
                live -= u64::from(width);
            }
            let width = class_of(&p.values[piece.value]).width();
            live += u64::from(width);
            ends.push(Reverse((piece.end, width)));
            if live > capacity {
                return Err(CompileError::Limit(format!(
                    "the shader needs more than the {temps} temporaries ({live} components \
                     live at once)"
                )));
            }
        }
    }
    Ok(())
}

/// The registers chosen, per value, and the number of temporaries used.
pub struct Allocation {
    pub regs: Vec<Option<VirtReg>>,
    pub num_temps: u32,
    /// Interference edges between values (for `GPUCC_DEBUG=ra`).
    pub interference_edges: usize,
}

/// `GPUCC_DEBUG=ra`: how many values got each register type width, the interference graph
/// and the temporaries used.
pub fn describe(p: &Program, a: &Allocation) -> String {
    let mut by_width = [0u32; 5];
    for r in a.regs.iter().flatten() {
        by_width[r.comps().len().min(4)] += 1;
    }
    let classes: Vec<String> = (1..=4)
        .filter(|&w| by_width[w] > 0)
        .map(|w| format!("{}x vec{w}", by_width[w]))
        .collect();
    format!(
        "=== register allocation: {} of {} values placed [{}]; interference graph {} edges; {} temps",
        a.regs.iter().flatten().count(),
        p.values.len(),
        classes.join(", "),
        a.interference_edges,
        a.num_temps
    )
}

/// Colours every value of `p` on `file`.
///
/// A fragment shader's position, which the rasterizer leaves in t0, is an input value pinned
/// there (see the translation of `load_frag_coord`) and keeps t0 only while it is read;
/// a shader that never reads it has t0 like any other temporary, as in Mesa.
pub fn allocate(p: &Program, file: &RegFile) -> Result<Allocation, CompileError> {
    let pieces = intervals(p);
    check_pressure(p, &pieces, file.temps)?;
    let nv = p.values.len();
    let mut first_start: Vec<Option<u32>> = vec![None; nv];
    for piece in pieces.iter().flatten() {
        let f = &mut first_start[piece.value];
        *f = Some(f.map_or(piece.start, |x| x.min(piece.start)));
    }
    let mut g = Graph::with_capacity(&file.set, nv + 1, nv * 4);
    let mut nodes: Vec<Option<NodeId>> = vec![None; nv];
    for (v, val) in p.values.iter().enumerate() {
        if first_start[v].is_none() {
            continue;
        }
        let n = g.add_node(file.class_id(class_of(val)));
        if let ValueKind::Input { reg } = val.kind {
            if u32::from(reg) >= file.temps {
                return Err(CompileError::Limit(format!("input register t{reg}")));
            }
            g.precolor(n, VirtReg { base: reg, ty: 0 }.id());
        }
        g.set_spill_cost(n, 1.0);
        nodes[v] = Some(n);
    }
    let mut order: Vec<usize> = (0..nv).filter(|&v| first_start[v].is_some()).collect();
    order.sort_by_key(|&v| first_start[v]);
    let mut adj: Vec<Vec<NodeId>> = vec![Vec::new(); g.num_nodes()];
    let mut seen = std::collections::HashSet::new();
    for block in &pieces {
        let mut active: Vec<Piece> = Vec::new();
        for piece in block {
            active.retain(|a| a.end >= piece.start);
            for a in &active {
                let (Some(x), Some(y)) = (nodes[a.value], nodes[piece.value]) else {
                    continue;
                };
                if x != y && seen.insert((x.min(y), x.max(y))) {
                    g.add_edge(x, y);
                    adj[x.index()].push(y);
                    adj[y.index()].push(x);
                }
            }
            active.push(*piece);
        }
    }
    // Colourings to choose from: the graph allocator's, and greedy passes in order of
    // interval start, which is optimal for interval graphs of one class and usually beats
    // simplify/select's order here, each also with copy hints (a value prefers the register
    // of a value a plain MOV copies it from or to, so that the MOV becomes a self-move that
    // emission drops). The one using fewer temporaries wins, then the one leaving fewer
    // MOVs; all are checked by `ra::check`.
    let by_start: Vec<NodeId> = order.iter().filter_map(|&v| nodes[v]).collect();
    // Wider classes first among values starting together leaves the narrow ones the holes.
    let mut wide_first = order.clone();
    wide_first.sort_by_key(|&v| (first_start[v], std::cmp::Reverse(p.values[v].width)));
    let wide_first: Vec<NodeId> = wide_first.iter().filter_map(|&v| nodes[v]).collect();
    let copies = copies(p);
    let mut hints: Vec<Vec<NodeId>> = vec![Vec::new(); g.num_nodes()];
    for c in &copies {
        if let (Some(d), Some(s)) = (nodes[c.dst], nodes[c.src]) {
            hints[d.index()].push(s);
            hints[s.index()].push(d);
        }
    }
    let no_hints: Vec<Vec<NodeId>> = vec![Vec::new(); g.num_nodes()];
    let score = |a: &Assignment| {
        let temps = a
            .regs()
            .iter()
            .map(|r| u32::from(VirtReg::from_id(*r).base) + 1)
            .max()
            .unwrap_or(0);
        let reg = |v: usize| nodes[v].map(|n| VirtReg::from_id(a.reg(n)));
        let kept = copies.iter().filter(|c| !c.coalesced(&reg)).count();
        (temps, kept)
    };
    let mut candidates: Vec<Assignment> = Vec::new();
    let graph = g.allocate();
    let graph_err = match graph {
        Ok(a) => {
            candidates.push(a);
            None
        }
        Err(e) => Some(e),
    };
    for order in [&by_start, &wide_first] {
        for h in [&no_hints, &hints] {
            if let Some(a) = greedy(&g, &adj, order, h) {
                candidates.push(a);
            }
        }
    }
    // The first of the best: the graph allocator's on a tie, as before hints.
    let mut best: Option<(Assignment, (u32, usize))> = None;
    for a in candidates {
        let s = score(&a);
        if best.as_ref().map_or(true, |b| s < b.1) {
            best = Some((a, s));
        }
    }
    let assignment = match (best, graph_err) {
        (Some((a, _)), _) => a,
        (None, Some(e)) => {
            return Err(match e {
                AllocError::Invalid(e) => {
                    CompileError::Invalid(format!("register allocation: {e}"))
                }
                _ => CompileError::Limit(format!(
                    "the shader needs more than the {} temporaries",
                    file.temps
                )),
            })
        }
        (None, None) => unreachable!("an allocation without result or error"),
    };
    check(&g, &assignment)
        .map_err(|e| CompileError::Invalid(format!("register allocation check: {e}")))?;
    let mut regs = vec![None; nv];
    let mut num_temps = 0;
    for v in 0..nv {
        if let Some(n) = nodes[v] {
            let r = VirtReg::from_id(assignment.reg(n));
            num_temps = num_temps.max(u32::from(r.base) + 1);
            regs[v] = Some(r);
        }
    }
    Ok(Allocation {
        regs,
        num_temps,
        interference_edges: seen.len(),
    })
}

/// A plain MOV of value components into another value's components: `dst` component `j`
/// (for `j` in the mask) takes `src` component `swz[j]`.
struct CopyMove {
    dst: usize,
    src: usize,
    mask: u8,
    swz: [u8; 4],
}

impl CopyMove {
    /// Whether registers `reg` make the MOV copy every component onto itself (what
    /// emission drops as a self-move).
    fn coalesced(&self, reg: &dyn Fn(usize) -> Option<VirtReg>) -> bool {
        let (Some(d), Some(s)) = (reg(self.dst), reg(self.src)) else {
            return false;
        };
        let (dc, sc) = (d.comps(), s.comps());
        d.base == s.base
            && (0..dc.len())
                .filter(|j| self.mask & (1 << j) != 0)
                .all(|j| sc.get(self.swz[j] as usize) == Some(&dc[j]))
    }
}

/// The plain value-to-value MOVs of `p` (no modifiers, no saturation).
fn copies(p: &Program) -> Vec<CopyMove> {
    p.instrs()
        .filter_map(|ins| {
            let (Opcode::Mov, false, Some((d, mask)), [None, None, Some(op)]) =
                (ins.op, ins.sat, ins.dst, ins.src)
            else {
                return None;
            };
            let OperandKind::Value(v) = op.kind else {
                return None;
            };
            (!op.neg && !op.abs && ins.shape == Shape::Aligned && v != d).then_some(CopyMove {
                dst: d.index(),
                src: v.index(),
                mask,
                swz: op.swz,
            })
        })
        .collect()
}

/// Colours `order` greedily with the lowest register of each node's class that no coloured
/// neighbour conflicts with, preferring one in the register of a coloured node it `hints`
/// at. None when some node finds no register.
fn greedy(
    g: &Graph,
    adj: &[Vec<NodeId>],
    order: &[NodeId],
    hints: &[Vec<NodeId>],
) -> Option<Assignment> {
    let set = g.reg_set();
    let mut reg: Vec<Option<RegId>> = (0..g.num_nodes())
        .map(|n| g.precolour(NodeId(n as u32)))
        .collect();
    for &n in order {
        if reg[n.index()].is_some() {
            continue;
        }
        let taken: Vec<RegId> = adj[n.index()]
            .iter()
            .filter_map(|m| reg[m.index()])
            .collect();
        let free = |r: RegId| taken.iter().all(|&t| t != r && !set.conflicts(r, t));
        let bases: Vec<u8> = hints[n.index()]
            .iter()
            .filter_map(|m| reg[m.index()])
            .map(|r| VirtReg::from_id(r).base)
            .collect();
        let regs = set.class_regs(g.class(n));
        let r = regs
            .iter()
            .copied()
            .find(|&r| bases.contains(&VirtReg::from_id(r).base) && free(r))
            .or_else(|| regs.iter().copied().find(|&r| free(r)))?;
        reg[n.index()] = Some(r);
    }
    let regs: Option<Vec<RegId>> = reg.into_iter().collect();
    regs.map(Assignment::from_regs)
}
