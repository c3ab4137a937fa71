//! Optimization passes on the backend IR, run after lowering (so the copies that
//! LOAD_PAYLOAD expansion and SIMD splitting create are visible) and before register
//! allocation.
//!
//! Every pass is a `fn(&mut Program) -> bool` that reports progress. The order below is
//! written once, as the lists [`BEFORE_ROUNDS`], [`ROUND`], [`AFTER_ROUND`] and
//! [`AFTER_ROUNDS`], which [`optimize_with`] runs through the compile's
//! [`Runner`](crate::pipeline::Runner). First, once:
//!
//! - [`split`]: multi-register VGRFs whose registers no operand uses together (the halves of
//!   an instruction SIMD width lowering split) become separate VGRFs, so that the passes below
//!   see whole registers of one size and the allocator places each on its own;
//! - [`compact`]: the VGRF numbers nothing names any more are dropped (translation and
//!   lowering leave many), so every per-register table below is smaller.
//!
//! Then, in a fixed order until none makes progress:
//!
//! 1. [`algebraic`]: single instructions with an immediate or repeated operand become cheaper
//!    ones, usually MOVs (`x + 0`, `x * 1`, `sel x, x`, a saturated immediate);
//! 2. [`cse`]: recomputations within a block become copies of the first result;
//! 3. [`copy_prop`]: reads of a copy read the copy's source instead (registers, immediates and
//!    source modifiers where the hardware accepts them), which leaves the copy unread;
//! 4. [`dce`]: instructions whose result nobody reads go;
//! 5. [`coalesce`]: a whole-register copy whose destination can share the source's register
//!    (shared/seeds/003's interference rule) is removed by renaming the destination;
//! 6. [`compute_to_copy`]: a value computed only to be copied (a phi's copy at the end of a
//!    branch) is computed into the copy's destination instead;
//! 7. [`cmod_prop`]: a flag test of a value (`cmp.nz null, x, 0`, `mov.nz`, `and.nz`) goes
//!    into the instruction that computed the value;
//! 8. [`sat_prop`]: `mov.sat` of a value read nowhere else saturates the value's writer
//!    instead, leaving a plain copy for the next round;
//! 9. [`flags`]: `mov.nz` reloads of a boolean the flag already reflects go;
//! 10. [`flag_sink`]: a CMP whose result is reloaded into the flag after another flag write
//!     moves down to the reload, which goes;
//! 11. [`fold_copies`]: a value computed only to be copied a few instructions later is
//!     computed into the copy's destination, also when the copy goes into a larger register
//!     (the copies into phi registers coalescing cannot merge, because those are written in
//!     every arm);
//! 12. [`peephole_sel`]: IF/ELSE arms that begin with moves into the same registers become
//!     SELs, and arms left empty go;
//! 13. [`if_convert`]: an IF whose arms hold only a few plain ALU instructions becomes those
//!     instructions predicated on its flag, and one short plain arm of any other IF/ELSE
//!     moves ahead of the IF, predicated, so that the ELSE goes;
//! 14. [`pred_break`]: an IF holding only a BREAK or CONTINUE becomes a predicated jump;
//! 15. [`rename`]: each later complete definition of a register outside control flow gets a
//!     fresh register, its reads following it;
//! 16. [`live_channel`]: in a thread dispatched packed from channel 0 (vertex, geometry,
//!     tessellation), a Uniformize outside control flow reads channel 0, a plain copy;
//!
//! and after each round [`compact`] again, for the registers the round left unnamed (it does
//! not count as progress: a renumbering enables no other rewrite).
//!
//! Algebraic simplification and CSE first, because both turn instructions into copies;
//! copy propagation then makes most copies unread, and dead-code elimination deletes them
//! without any liveness analysis; coalescing handles what remains (copies into message
//! payloads, whose readers are sends that need the whole contiguous block and so cannot be
//! redirected one channel group at a time). Flag and saturate propagation come late: they
//! look for the writer of a value, which is easiest to find once copies are gone. Renaming
//! comes after peephole select, as in Mesa, because the SELs that replace an IF's moves are
//! definitions outside control flow; it ends the round so that the next one's copy
//! propagation and coalescing see registers with a single writer. Splitting comes first, as
//! Mesa's does before its loop: what it separates the loop never joins again, and the loop
//! makes a register splittable only by deleting the one instruction that spanned it.
//!
//! After the fixed point, once:
//!
//! - [`combine_constants`]: immediates that instructions cannot encode are loaded once into
//!   a shared register and read as scalars (last, because the earlier passes propagate
//!   immediates wherever the hardware takes them, and what is left is what needs a register);
//! - [`compact`], so that the allocator's tables cover only registers that are named.

pub mod algebraic;
pub mod cmod_prop;
pub mod coalesce;
pub mod combine_constants;
pub mod compact;
pub mod compute_to_copy;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod flag_sink;
pub mod flags;
pub mod fold_copies;
pub mod if_convert;
pub mod live_channel;
pub mod peephole_sel;
pub mod pred_break;
pub mod rename;
pub mod sat_prop;
pub mod split;
#[cfg(test)]
mod testing;

use super::ir::{Inst, Program, Reg};
use crate::pipeline::{InvalidIr, Pass, Runner};

/// Upper bound on rounds of the pass pipeline; each round that makes progress removes or
/// simplifies at least one instruction, so this is only a guard against a pass that
/// oscillates.
const MAX_ROUNDS: usize = 64;

/// How hard to optimize.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// No passes.
    None,
    /// Every pass.
    Full,
    /// Every pass, but coalescing only merges registers of equal size: values are not
    /// computed straight into message payloads, whose live ranges would otherwise grow to
    /// cover their components', and a constant is loaded again where its reads are far
    /// apart (the fallback when a width does not fit in the registers).
    NoPayloadCoalescing,
}

impl Level {
    /// Whether values may be coalesced into message payloads.
    fn into_payloads(self) -> bool {
        self == Level::Full
    }
}

/// An optimization pass; the environment is the level.
pub type OptPass = Pass<Level, Program>;

/// Run once before the rounds.
pub const BEFORE_ROUNDS: &[OptPass] = &[
    Pass {
        name: "split_virtual_grfs",
        run: |_, p| split::split_virtual_grfs(p),
    },
    Pass {
        name: "compact_virtual_grfs",
        run: |_, p| compact::compact_virtual_grfs(p),
    },
];

/// One round, repeated until none of them makes progress.
pub const ROUND: &[OptPass] = &[
    Pass {
        name: "algebraic",
        run: |_, p| algebraic::algebraic(p),
    },
    Pass {
        name: "cse",
        run: |_, p| cse::cse(p),
    },
    Pass {
        name: "copy_propagation",
        run: |_, p| copy_prop::copy_propagation(p),
    },
    Pass {
        name: "dead_code_eliminate",
        run: |_, p| dce::dead_code_eliminate(p),
    },
    Pass {
        name: "register_coalesce",
        run: |l, p| coalesce::register_coalesce(p, l.into_payloads()),
    },
    Pass {
        name: "compute_to_copy",
        run: |_, p| compute_to_copy::compute_to_copy(p),
    },
    Pass {
        name: "cmod_propagation",
        run: |_, p| cmod_prop::cmod_propagation(p),
    },
    Pass {
        name: "saturate_propagation",
        run: |_, p| sat_prop::saturate_propagation(p),
    },
    Pass {
        name: "remove_redundant_flag_writes",
        run: |_, p| flags::remove_redundant_flag_writes(p),
    },
    Pass {
        name: "sink_comparisons",
        run: |_, p| flag_sink::sink_comparisons(p),
    },
    Pass {
        name: "fold_copies",
        run: |l, p| fold_copies::fold_copies(p, l.into_payloads()),
    },
    Pass {
        name: "peephole_select",
        run: |_, p| peephole_sel::peephole_select(p),
    },
    Pass {
        name: "if_convert",
        run: |_, p| if_convert::if_convert(p),
    },
    Pass {
        name: "predicated_break",
        run: |_, p| pred_break::predicated_break(p),
    },
    Pass {
        name: "register_renaming",
        run: |_, p| rename::register_renaming(p),
    },
    Pass {
        name: "eliminate_find_live_channel",
        run: |_, p| live_channel::eliminate_find_live_channel(p),
    },
];

/// Run after every round; its renumbering is not progress (it enables no other rewrite).
pub const AFTER_ROUND: OptPass = Pass {
    name: "compact_virtual_grfs",
    run: |_, p| compact::compact_virtual_grfs(p),
};

/// Run once after the rounds: constants that need a register, then the final renumbering
/// that sizes liveness and the interference graph (as Mesa does before allocation).
pub const AFTER_ROUNDS: &[OptPass] = &[
    Pass {
        name: "combine_constants",
        run: |l, p| {
            let gap = if l.into_payloads() {
                usize::MAX
            } else {
                combine_constants::TIGHT_GAP
            };
            combine_constants::combine_constants(p, gap)
        },
    },
    Pass {
        name: "compact_virtual_grfs",
        run: |_, p| compact::compact_virtual_grfs(p),
    },
];

/// Runs the passes of `level` to a fixed point; returns whether anything changed.
pub fn optimize(prog: &mut Program, level: Level) -> bool {
    // A quiet runner never validates, so it cannot fail.
    optimize_with(&mut Runner::quiet(super::validate::validate), prog, level).unwrap_or(true)
}

/// [`optimize`] through `runner`, which prints, times and validates as the compile asked.
///
/// A pass that made no progress on a program makes none when it meets the same program
/// again: every pass is a function of the program (and the level) alone, and leaves the
/// program untouched when it reports no progress. Nor does it find anything after the
/// compaction between rounds, which only renumbers registers in their old order (the passes
/// decide by the instructions and the registers' relative order, which is why compaction
/// keeps that order). So a pass is skipped while the program is one it already found nothing
/// to do in (see [`Idle`]).
pub fn optimize_with(
    runner: &mut Runner<Program>,
    prog: &mut Program,
    level: Level,
) -> Result<bool, InvalidIr> {
    optimize_rounds(runner, prog, level, true)
}

/// [`optimize`] running every pass of every round, for checking that skipping passes (see
/// [`optimize_with`]) changes nothing: a pass that breaks the rules skipping rests on shows
/// up as a difference between the two.
pub fn optimize_without_skipping(prog: &mut Program, level: Level) -> bool {
    let mut runner = Runner::quiet(super::validate::validate);
    optimize_rounds(&mut runner, prog, level, false).unwrap_or(true)
}

fn optimize_rounds(
    runner: &mut Runner<Program>,
    prog: &mut Program,
    level: Level,
    skip: bool,
) -> Result<bool, InvalidIr> {
    if level == Level::None {
        return Ok(false);
    }
    let mut any = runner.run_all(BEFORE_ROUNDS, &level, prog)?;
    let mut idle = Idle {
        skip,
        ..Idle::default()
    };
    let mut before = Snapshot::default();
    for _ in 0..MAX_ROUNDS {
        before.take(prog);
        let start = idle.state;
        let mut progress = false;
        for (i, pass) in ROUND.iter().enumerate() {
            if idle.run(i, runner, pass, &level, prog)? {
                progress = true;
                // Back where the round began (CSE sharing an immediate move that copy
                // propagation then puts back): the passes that found nothing to do in that
                // program need not look at it again.
                if before.is(prog) {
                    idle.state = start;
                }
            }
        }
        // A round that changed nothing leaves the program compaction already left.
        let changed = progress && idle.state != start;
        let compacted = changed && runner.run(&AFTER_ROUND, &level, prog)?;
        any |= compacted;
        if !progress {
            break;
        }
        any = true;
        // A round that ends where it began (one pass undoing another's rewrite) would
        // repeat unchanged until MAX_ROUNDS: the passes are functions of the program alone,
        // so this is already the result those rounds would leave. The program is where it
        // began when the last pass that made progress left it so (compaction has nothing to
        // remove in a program it already compacted), or, should compaction have renumbered,
        // when the two are equal after all.
        if idle.state == start || (compacted && before.is(prog)) {
            break;
        }
    }
    // The rounds leave a compacted program: compaction again only after a pass changed it.
    let mut changed = false;
    for pass in AFTER_ROUNDS {
        if pass.name != AFTER_ROUND.name || changed {
            let progress = runner.run(pass, &level, prog)?;
            changed |= progress;
            any |= progress;
        }
    }
    Ok(any)
}

/// A copy of a program's instructions and register sizes, for telling whether the passes
/// came back to it. The sources are kept in one array rather than a vector per instruction,
/// so that taking a copy allocates nothing once the arrays have grown.
#[derive(Default)]
struct Snapshot {
    /// The instructions, without their sources.
    insts: Vec<Inst>,
    /// Every instruction's sources, in order, and where each instruction's end.
    srcs: Vec<Reg>,
    src_end: Vec<usize>,
    vgrf_sizes: Vec<u32>,
}

impl Snapshot {
    fn take(&mut self, prog: &Program) {
        self.insts.clear();
        self.srcs.clear();
        self.src_end.clear();
        self.insts.reserve(prog.insts.len());
        self.src_end.reserve(prog.insts.len());
        self.srcs.reserve(2 * prog.insts.len());
        for inst in &prog.insts {
            self.insts.push(Inst {
                src: Vec::new(),
                ..*inst
            });
            self.srcs.extend_from_slice(&inst.src);
            self.src_end.push(self.srcs.len());
        }
        self.vgrf_sizes.clone_from(&prog.vgrf_sizes);
    }

    /// Whether `prog` is the program copied.
    fn is(&self, prog: &Program) -> bool {
        if prog.insts.len() != self.insts.len() || prog.vgrf_sizes != self.vgrf_sizes {
            return false;
        }
        let mut from = 0;
        for ((inst, kept), &to) in prog.insts.iter().zip(&self.insts).zip(&self.src_end) {
            if inst.src[..] != self.srcs[from..to] {
                return false;
            }
            let bare = Inst {
                src: Vec::new(),
                ..*inst
            };
            if bare != *kept {
                return false;
            }
            from = to;
        }
        true
    }
}

/// Which passes of the round ran without progress on the program as it still is, up to the
/// renumbering between rounds.
///
/// Each program a pass leaves gets a fresh state number, except that a round that comes back
/// to the program it began with comes back to that program's number too; a pass is skipped
/// when the current state is one it found nothing to do in. In the round that confirms the
/// fixed point, only the passes up to the last one that made progress in the round before
/// run; when CSE and copy propagation only undo each other, the passes after them are
/// skipped as well.
#[derive(Default)]
struct Idle {
    /// Whether passes are skipped at all.
    skip: bool,
    /// The current program's state number.
    state: u64,
    /// The last state number handed out.
    last: u64,
    /// Per pass, the state it last ran in without progress, plus one; 0 when there is none.
    idle_in: [u64; ROUND.len()],
}

impl Idle {
    /// Runs pass `i` of the round unless it already found nothing to do in this state.
    fn run(
        &mut self,
        i: usize,
        runner: &mut Runner<Program>,
        pass: &OptPass,
        level: &Level,
        prog: &mut Program,
    ) -> Result<bool, InvalidIr> {
        if self.skip && self.idle_in[i] == self.state + 1 {
            return Ok(false);
        }
        let progress = runner.run(pass, level, prog)?;
        if progress {
            self.last += 1;
            self.state = self.last;
            self.idle_in[i] = 0;
        } else {
            self.idle_in[i] = self.state + 1;
        }
        Ok(progress)
    }
}
