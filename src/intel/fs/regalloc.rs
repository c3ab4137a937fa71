//! Register allocation of virtual GRFs onto the 128 hardware GRFs with `crate::ra`.
//!
//! One class per VGRF size (contiguous runs of 1..=[`MAX_VGRF_REGS`] registers); the set and its
//! q-values are built once per [`super::Context`]. Registers the thread payload, push
//! constants and attribute setup occupy are excluded for the whole program (precoloured nodes
//! that interfere with everything), and the payload of the end-of-thread send is precoloured
//! to the top of the file, as Gen7 requires g112–g127 for EOT sources; on Gen8 the payload of
//! any other SIMD8 send stays out of g127.

use std::sync::Arc;

use crate::intel::DevInfo;
use crate::ra::{self, AllocError, ClassId, Graph, RegId, RegSet, RegSetBuilder};

use super::ir::{File, Op, Program, Reg, REG_SIZE};
use super::liveness::Liveness;
use super::CompileError;

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
    for u in 0..reserved.min(grfs) {
        let node = g.add_node(rf.classes[0]);
        if let Some(r) = rf.reg_at[0][u as usize] {
            g.precolor(node, r);
        }
        for (v, iv) in intervals.iter().enumerate() {
            if iv.is_some() {
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
        let cost = match *iv {
            Some((s, e)) => 1.0 + (e - s) as f32,
            None => 0.0,
        };
        g.set_spill_cost(ra::NodeId(v as u32), cost);
    }
    let assignment = match g.allocate() {
        Ok(a) => a,
        Err(AllocError::Spill(_) | AllocError::NoSpillCandidate { .. }) => return Ok(None),
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
    Ok(Some(Allocation {
        base,
        grfs_used: used,
    }))
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
