//! Register spilling for the vec4 backend (Mesa's `evaluate_spill_costs`, `choose_spill_reg`
//! and `spill_reg`): when the virtual registers do not fit, the one whose spilling frees the
//! most interference per unit of cost goes to a scratch slot (one OWord per vertex), and the
//! allocation is retried until the program fits.
//!
//! Every instruction touching a spilled register gets its own temporary instead: a fill
//! (scratch read) before it when it reads the register or writes it only in part (some
//! components, or under a predicate — the fill keeps the other components, so the spill can
//! write the whole register back), and a spill (scratch write) after it when it writes the
//! register. The temporaries live from one instruction to the next and are never spilled.

use super::ir::{Dst, File, Inst, Op, Program, Src, SCRATCH_MSG};
use super::regalloc::{allocate, allocate_with, Allocation, Outcome};
use super::CompileError;
use crate::intel::eu::{Opcode, RegType};

/// What spilling added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpillStats {
    /// Scratch writes.
    pub spills: u32,
    /// Scratch reads.
    pub fills: u32,
    /// Scratch bytes per thread (32 per spilled register: an OWord for each vertex).
    pub scratch_bytes: u32,
    /// The virtual registers sent to scratch, in the order chosen (the register in slot
    /// `k` is the `k`th), for `GPUCC_DEBUG=ra`.
    pub spilled: Vec<u32>,
}

/// Allocates `prog` in `first_free..limit`, spilling (which keeps [`SCRATCH_MSG`] and up for
/// its messages) when it does not fit. A program that fits is allocated exactly as without
/// spilling. `None` when even spilling cannot make it fit.
pub fn allocate_spilling(
    prog: &mut Program,
    first_free: u32,
    limit: u32,
) -> Result<Option<(Allocation, SpillStats)>, CompileError> {
    if let Some(a) = allocate(prog, first_free, limit)? {
        return Ok(Some((a, SpillStats::default())));
    }
    let limit = limit.min(SCRATCH_MSG);
    let mut stats = SpillStats::default();
    let mut temps = vec![false; prog.num_vgrfs as usize];
    // Each round adds fills and spills; past twice the original length the program is
    // reported unsupported rather than grown until its jumps no longer encode.
    let budget = 2 * prog.insts.len();
    loop {
        if prog.insts.len() > budget {
            return Ok(None);
        }
        let costs = spill_costs(prog, &temps);
        match allocate_with(prog, first_free, limit, Some(&costs))? {
            Outcome::Done(a) => return Ok(Some((a, stats))),
            Outcome::NoFit => return Ok(None),
            Outcome::Spill(v) => {
                let slot = stats.scratch_bytes / 32;
                stats.scratch_bytes += 32;
                stats.spilled.push(v);
                spill_reg(prog, v, slot, &mut temps, &mut stats);
            }
        }
    }
}

/// Each virtual register's spill cost: every write (a spill) and every read that needs a
/// fill, weighted by 10 per enclosing loop. A read by an instruction right after another one
/// that touched the register costs nothing: [`spill_reg`] reuses that one's temporary.
/// Zero (never spilled) for spill temporaries and untouched registers.
pub fn spill_costs(prog: &Program, temps: &[bool]) -> Vec<f32> {
    let mut cost = vec![0f32; prog.num_vgrfs as usize];
    let mut depth = 0i32;
    let mut prev: Vec<u32> = Vec::new();
    let mut cur: Vec<u32> = Vec::new();
    for inst in &prog.insts {
        match inst.op {
            Op::Do => depth += 1,
            Op::While => depth -= 1,
            Op::ScratchRead { .. } | Op::ScratchWrite { .. } => continue,
            _ => {}
        }
        let w = 10f32.powi(depth.max(0));
        cur.clear();
        for s in inst.src.iter().filter(|s| s.file == File::Vgrf) {
            if !prev.contains(&s.nr) && !cur.contains(&s.nr) {
                if let Some(c) = cost.get_mut(s.nr as usize) {
                    *c += w;
                }
            }
            cur.push(s.nr);
        }
        if inst.dst.file == File::Vgrf {
            if let Some(c) = cost.get_mut(inst.dst.nr as usize) {
                *c += w;
            }
            cur.push(inst.dst.nr);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    for (c, &s) in cost.iter_mut().zip(temps) {
        if s {
            *c = 0.0;
        }
    }
    cost
}

/// Rewrites every instruction touching `v` to use a temporary, filled from and spilled to
/// scratch slot `slot`. Consecutive instructions touching `v` share one temporary, which
/// holds all of `v` from the first of them on (Mesa's `can_use_scratch_for_source`); spill
/// messages of other registers in between do not break the run.
fn spill_reg(prog: &mut Program, v: u32, slot: u32, temps: &mut Vec<bool>, stats: &mut SpillStats) {
    let old = std::mem::take(&mut prog.insts);
    let mut out = Vec::with_capacity(old.len() + 8);
    let mut cached: Option<u32> = None;
    for mut inst in old {
        let reads = inst.src.iter().any(|s| s.file == File::Vgrf && s.nr == v);
        let writes = inst.dst.file == File::Vgrf && inst.dst.nr == v;
        if !reads && !writes {
            if !matches!(inst.op, Op::ScratchRead { .. } | Op::ScratchWrite { .. }) {
                cached = None;
            }
            out.push(inst);
            continue;
        }
        let whole = writes
            && inst.dst.writemask == 0xf
            && (inst.pred.is_none() || inst.op == Op::Alu(Opcode::Sel));
        let t = match cached {
            Some(t) => t,
            None => {
                let t = prog.num_vgrfs;
                prog.num_vgrfs += 1;
                temps.resize(prog.num_vgrfs as usize, false);
                temps[t as usize] = true;
                // A partial write keeps the other components: fill them first, so the
                // spill below writes the whole register back.
                if reads || !whole {
                    out.push(Inst::new(
                        Op::ScratchRead { slot },
                        Dst::vgrf(t, RegType::UD, 0xf),
                        vec![],
                    ));
                    stats.fills += 1;
                }
                t
            }
        };
        for s in inst.src.iter_mut() {
            if s.file == File::Vgrf && s.nr == v {
                s.nr = t;
            }
        }
        if writes {
            inst.dst.nr = t;
        }
        out.push(inst);
        if writes {
            out.push(Inst::new(
                Op::ScratchWrite { slot },
                Dst::null(RegType::UD),
                vec![Src::vgrf(t, RegType::UD)],
            ));
            stats.spills += 1;
        }
        cached = Some(t);
    }
    prog.insts = out;
}
