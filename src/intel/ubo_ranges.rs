//! Which parts of which uniform blocks a program pushes, as Mesa's drivers expect them:
//! up to four ranges of 32-byte registers (`brw_ubo_range`: block, start, length), chosen
//! from the shader's `load_ubo` at constant offsets.
//!
//! The choice follows the rule of Mesa 23.3's `brw_nir_analyze_ubo_ranges`, so a driver that
//! programs 3DSTATE_CONSTANT_* from the ranges gets the layout it would have got from brw:
//! each block's 32-byte chunks that a constant-offset load touches (the first 64 chunks)
//! form runs of contiguous chunks; a run's benefit is the number of loads starting in it and
//! its score `2 * benefit - length`; the best-scoring runs (ties: higher block first) are
//! kept, four at most, one fewer when the stage pushes other data too (compute pushes its
//! subgroup id); and then, as brw's backend does, the list is cut to the push-block size,
//! the last ranges shortened or dropped first. Loads outside the ranges are pulled.

use crate::nir::{self, InstrKind, Intrinsic};

/// One pushed range (`brw_ubo_range`): `length` 32-byte registers of block `block` from
/// register `start`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UboRange {
    /// The `load_ubo` block operand (in crocus's and iris's final NIR, the binding-table
    /// slot of the buffer).
    pub block: u32,
    /// First 32-byte register of the block pushed.
    pub start: u32,
    /// Registers pushed.
    pub length: u32,
}

impl UboRange {
    /// The (block, byte offset) of each `unit`-byte piece the range pushes, in push order:
    /// dwords (4) for the scalar backend, vec4s (16) for vec4.
    pub fn pieces(&self, unit: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.length * 32 / unit).map(move |i| (self.block, self.start * 32 + i * unit))
    }
}

/// Ranges the driver chose itself before the hand-over (its own `brw_nir_analyze_ubo_ranges`
/// into `brw_stage_prog_data.ubo_ranges`; none at all for iris's and crocus's compute
/// shaders, whose CURBE holds only the subgroup id). A program compiled with them pushes
/// exactly these, so it binds what the driver has already planned to upload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriverRanges {
    ranges: [UboRange; 4],
    count: u8,
}

impl DriverRanges {
    /// The driver's ranges in its order (`ubo_ranges[0..]`), or None past Mesa's four.
    pub fn new(ranges: &[UboRange]) -> Option<DriverRanges> {
        let mut out = DriverRanges::default();
        out.ranges.get_mut(..ranges.len())?.copy_from_slice(ranges);
        out.count = ranges.len() as u8;
        Some(out)
    }

    /// The driver's ranges, in order.
    pub fn as_slice(&self) -> &[UboRange] {
        &self.ranges[..self.count as usize]
    }
}

/// All four of Mesa's `ubo_ranges` (empty ones push nothing).
impl From<[UboRange; 4]> for DriverRanges {
    fn from(ranges: [UboRange; 4]) -> DriverRanges {
        DriverRanges { ranges, count: 4 }
    }
}

/// The ranges a program pushes: the driver's when it gave them, cut to `max_regs` registers
/// as brw's backend cuts `ubo_ranges` (in order, the last shortened or emptied first; empty
/// ones are left out), else gpucc's choice by Mesa's rule ([`choose`]).
pub fn plan(
    shader: &nir::Shader,
    driver: Option<&DriverRanges>,
    max_ranges: usize,
    max_regs: u32,
) -> Vec<UboRange> {
    let Some(driver) = driver else {
        return choose(shader, max_ranges, max_regs);
    };
    let mut used = 0;
    let mut out = Vec::new();
    for r in driver.as_slice() {
        let length = r.length.min(max_regs - used);
        used += length;
        if length > 0 {
            out.push(UboRange { length, ..*r });
        }
    }
    out
}

/// How many 32-byte chunks of a block the analysis looks at (a 64-bit mask in Mesa).
const CHUNKS: u64 = 64;

/// How many UBO ranges a program of Mesa's binding model may push on `devinfo`, before the
/// one compute programs give up for their subgroup id: brw's analysis keeps three where the
/// driver sets `constant_buffer_0_is_relative` (crocus, which drives Gen7: on Gen7 constant
/// buffer 0's address is relative to the dynamic state base), four on iris's Gen8+.
pub fn mesa_max_ranges(devinfo: &crate::intel::DevInfo) -> usize {
    if devinfo.gen() < 8 {
        3
    } else {
        4
    }
}

/// The ranges to push for `shader`, within `max_regs` registers of push block and
/// `max_ranges` ranges.
pub fn choose(shader: &nir::Shader, max_ranges: usize, max_regs: u32) -> Vec<UboRange> {
    // Per block: chunks touched and loads starting in each chunk.
    let mut blocks: std::collections::BTreeMap<u32, (u64, [u32; CHUNKS as usize])> =
        Default::default();
    for f in &shader.functions {
        let Some(imp) = &f.body else { continue };
        for (_, instr) in imp.instrs_in_order() {
            let InstrKind::Intrinsic(i) = &instr.kind else {
                continue;
            };
            // On Gen9 brw has turned uniform loads into block loads by the hand-over; its
            // ranges were chosen before, on the same loads.
            if !matches!(
                i.intrinsic,
                Intrinsic::LoadUbo | Intrinsic::LoadUboUniformBlockIntel
            ) {
                continue;
            }
            let konst = |n: usize| {
                i.srcs
                    .get(n)
                    .and_then(|s| imp.const_value(*s))
                    .and_then(|v| v.first().copied())
            };
            let (Some(block), Some(offset)) = (konst(0), konst(1)) else {
                continue;
            };
            let (Ok(block), chunk) = (u32::try_from(block), offset / 32) else {
                continue;
            };
            if chunk >= CHUNKS {
                continue;
            }
            let bytes = i.def.and_then(|d| imp.def(d)).map_or(4, |d| {
                d.num_components as u64 * (d.bit_size as u64 / 8).max(1)
            });
            let start = offset / 32 * 32;
            let end = (offset + bytes).next_multiple_of(32);
            let chunks = (end - start) / 32;
            let entry = blocks.entry(block).or_insert((0, [0; CHUNKS as usize]));
            let bits = if chunks >= 64 {
                u64::MAX
            } else {
                (1u64 << chunks) - 1
            };
            entry.0 |= bits << chunk;
            entry.1[chunk as usize] += 1;
        }
    }
    // Runs of set bits, with their benefit.
    let mut runs: Vec<(UboRange, u32)> = Vec::new();
    for (&block, (mask, uses)) in &blocks {
        let mut rest = *mask;
        while rest != 0 {
            let first = rest.trailing_zeros();
            let hole = (!rest & !((1u64 << first) - 1)).trailing_zeros().min(64);
            rest &= if hole >= 64 { 0 } else { !((1u64 << hole) - 1) };
            let benefit = uses[first as usize..hole as usize].iter().sum();
            runs.push((
                UboRange {
                    block,
                    start: first,
                    length: hole - first,
                },
                benefit,
            ));
        }
    }
    let score = |r: &(UboRange, u32)| 2 * r.1 as i64 - r.0.length as i64;
    // Stable sort: runs of one block stay in offset order on equal scores, as they come.
    runs.sort_by(|a, b| {
        score(b)
            .cmp(&score(a))
            .then_with(|| b.0.block.cmp(&a.0.block))
    });
    runs.truncate(max_ranges);
    let mut used = 0;
    let mut out = Vec::new();
    for (mut r, _) in runs {
        r.length = r.length.min(max_regs - used);
        if r.length == 0 {
            break;
        }
        used += r.length;
        out.push(r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shader(loads: &[(u32, u32, u8)]) -> nir::Shader {
        let mut b = nir::Builder::new(nir::Stage::Fragment, "ranges");
        for &(block, offset, comps) in loads {
            let bl = b.imm_u32(block);
            let off = b.imm_u32(offset);
            b.intrinsic(Intrinsic::LoadUbo, &[bl, off], Some((comps, 32)), &[]);
        }
        b.finish().unwrap()
    }

    /// Worked by hand: block 1 reads bytes 0-15 twice and 32-47 once (chunks 0 and 1: one
    /// run, benefit 3, length 2, score 4); block 2 reads chunk 5 once (score 1); block 3
    /// reads chunk 0 once (score 1, and the tie goes to the higher block).
    #[test]
    fn runs_ranked_by_score_then_block() {
        let s = shader(&[(1, 0, 4), (1, 4, 2), (1, 32, 4), (2, 160, 4), (3, 0, 1)]);
        let r = choose(&s, 4, 64);
        assert_eq!(
            r,
            vec![
                UboRange {
                    block: 1,
                    start: 0,
                    length: 2
                },
                UboRange {
                    block: 3,
                    start: 0,
                    length: 1
                },
                UboRange {
                    block: 2,
                    start: 5,
                    length: 1
                },
            ]
        );
        // Three ranges fit two slots: the lowest-ranked goes.
        assert_eq!(choose(&s, 2, 64).len(), 2);
        // A 2-register push block: the first range takes it all.
        assert_eq!(
            choose(&s, 4, 2),
            vec![UboRange {
                block: 1,
                start: 0,
                length: 2
            }]
        );
    }

    /// A vec4 at byte 28 spans chunks 0 and 1 (one load: benefit 1, length 2, score 0); a
    /// gap splits the block, and the load at byte 128 makes a run of its own (score 1,
    /// ranked first); loads past chunk 63 (byte 2048) are never pushed.
    #[test]
    fn spans_gaps_and_far_offsets() {
        let s = shader(&[(0, 28, 4), (0, 128, 1), (0, 2048, 4)]);
        let at = |start, length| UboRange {
            block: 0,
            start,
            length,
        };
        assert_eq!(choose(&s, 4, 64), vec![at(4, 1), at(0, 2)]);
    }
}
