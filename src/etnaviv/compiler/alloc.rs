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
use crate::nir::types::Stage;
use crate::ra::{AllocError, Graph, NodeId};
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

/// Live intervals `[start, end]` in program points, per value (None: never used nor defined).
pub fn intervals(p: &Program) -> Vec<Option<(u32, u32)>> {
    // Basic blocks over the instruction list.
    let instrs: Vec<&Instr> = p.instrs().collect();
    if instrs.is_empty() {
        return vec![None; p.values.len()];
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
    // use/def per block
    let mut gen = vec![BitSet::new(nv); nb];
    let mut kill = vec![BitSet::new(nv); nb];
    for b in 0..nb {
        for i in (starts[b]..ends[b]).rev() {
            let ins = instrs[i];
            if let Some((d, _)) = ins.dst {
                kill[b].insert(d.index());
                gen[b].remove(d.index());
            }
            for s in ins.src.iter().flatten() {
                if let OperandKind::Value(v) = s.kind {
                    gen[b].insert(v.index());
                }
            }
        }
    }
    let mut live_in = vec![BitSet::new(nv); nb];
    let mut live_out = vec![BitSet::new(nv); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = BitSet::new(nv);
            if exits[b] {
                for &o in &outputs {
                    out.insert(o);
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
    let mut iv: Vec<Option<(u32, u32)>> = vec![None; nv];
    let mut touch = |v: usize, pt: u32| {
        iv[v] = Some(match iv[v] {
            None => (pt, pt),
            Some((a, b)) => (a.min(pt), b.max(pt)),
        });
    };
    for (v, val) in p.values.iter().enumerate() {
        if matches!(val.kind, ValueKind::Input { .. }) {
            touch(v, 0);
        }
    }
    for b in 0..nb {
        let mut live = live_out[b].clone();
        let end_pt = 2 * ends[b] as u32 + 1;
        for v in live.iter() {
            touch(v, end_pt);
        }
        for i in (starts[b]..ends[b]).rev() {
            let ins = instrs[i];
            let (rd, wr) = (2 * i as u32 + 1, 2 * i as u32 + 2);
            for v in live.iter() {
                touch(v, wr);
            }
            if let Some((d, _)) = ins.dst {
                touch(d.index(), wr);
                live.remove(d.index());
            }
            for s in ins.src.iter().flatten() {
                if let OperandKind::Value(v) = s.kind {
                    live.insert(v.index());
                }
            }
            for v in live.iter() {
                touch(v, rd);
            }
        }
        if b == 0 {
            for v in live.iter() {
                touch(v, 0);
            }
        }
    }
    iv
}

/// The registers chosen, per value, and the number of temporaries used.
pub struct Allocation {
    pub regs: Vec<Option<VirtReg>>,
    pub num_temps: u32,
}

/// Colours every value of `p` on `file`.
pub fn allocate(p: &Program, file: &RegFile, stage: Stage) -> Result<Allocation, CompileError> {
    let iv = intervals(p);
    let nv = p.values.len();
    let mut g = Graph::with_capacity(&file.set, nv + 1, nv * 4);
    let mut nodes: Vec<Option<NodeId>> = vec![None; nv];
    for (v, val) in p.values.iter().enumerate() {
        if iv[v].is_none() {
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
    // Fragment shaders find their position in t0: a node pinned there and interfering with
    // everything keeps other values out of it.
    let position = if stage == Stage::Fragment {
        let n = g.add_node(file.class_id(Class::Vec4));
        g.precolor(n, VirtReg { base: 0, ty: 0 }.id());
        for m in nodes.iter().flatten() {
            g.add_edge(n, *m);
        }
        Some(n)
    } else {
        None
    };
    let mut order: Vec<usize> = (0..nv).filter(|&v| iv[v].is_some()).collect();
    order.sort_by_key(|&v| iv[v].map(|i| i.0));
    let mut active: Vec<usize> = Vec::new();
    for &v in &order {
        let (s, _) = iv[v].unwrap_or((0, 0));
        active.retain(|&a| iv[a].is_some_and(|(_, e)| e >= s));
        for &a in &active {
            if let (Some(x), Some(y)) = (nodes[a], nodes[v]) {
                g.add_edge(x, y);
            }
        }
        active.push(v);
    }
    let assignment = g.allocate().map_err(|e| match e {
        AllocError::Invalid(e) => CompileError::Invalid(format!("register allocation: {e}")),
        _ => CompileError::Limit(format!(
            "the shader needs more than the {} temporaries",
            file.temps
        )),
    })?;
    let mut regs = vec![None; nv];
    let mut num_temps = u32::from(position.is_some());
    for v in 0..nv {
        if let Some(n) = nodes[v] {
            let r = VirtReg::from_id(assignment.reg(n));
            num_temps = num_temps.max(u32::from(r.base) + 1);
            regs[v] = Some(r);
        }
    }
    Ok(Allocation { regs, num_temps })
}
