//! Liveness of virtual registers, per GRF-sized piece, over the structured CFG, with the SIMD
//! rules that make intervals sound on the hardware.
//!
//! A piece is *defined* in a block when an unpredicated instruction overwrites all of it before
//! any read; otherwise a read makes it *used* (live in). Block sets are solved backwards to a
//! fixed point, cleared where no write of the piece (even a predicated one) can have happened
//! yet, and turned into intervals without holes. Disabled SIMD channels still run every
//! instruction of a loop with their old values in place, so a piece live across a loop's WHILE
//! is live from the loop's DO onwards (shared/seeds/004); break and continue blocks also fall
//! through to the next block, because the channels that did not take the jump keep executing.

use crate::util::bitset::{union_words, union_words_new, BitMatrix};

use crate::intel::eu::Opcode;

use crate::intel::flow::solve_liveness;
pub use crate::intel::flow::{build_cfg, Block};

use super::ir::{File, Inst, Op, Program, REG_SIZE};

/// Liveness results.
#[derive(Debug, Clone)]
pub struct Liveness {
    /// First piece index of each VGRF.
    pub piece_base: Vec<usize>,
    /// Interval start per piece (inclusive instruction index); `usize::MAX` when never live.
    pub start: Vec<usize>,
    /// Interval end per piece (inclusive).
    pub end: Vec<usize>,
    /// The blocks.
    pub blocks: Vec<Block>,
}

impl Liveness {
    /// The interval of a whole VGRF: the union of its pieces' intervals.
    pub fn vgrf_interval(&self, v: usize, size: u32) -> Option<(usize, usize)> {
        let b = self.piece_base[v];
        let mut s = usize::MAX;
        let mut e = 0;
        for p in b..b + size as usize {
            if self.start[p] != usize::MAX {
                s = s.min(self.start[p]);
                e = e.max(self.end[p]);
            }
        }
        (s != usize::MAX).then_some((s, e))
    }
}

fn pieces(r: &super::ir::Reg, regs: u32) -> std::ops::Range<u32> {
    let first = r.offset / REG_SIZE;
    first..first + regs.max(1)
}

/// No block yet.
const NO_BLOCK: u32 = u32::MAX;

/// Each block's upward-exposed uses and full definitions, as piece lists, and which pieces
/// are live across a block boundary at all.
///
/// Most pieces are temporaries written and read inside one block: no live-in set can hold
/// them (they are used nowhere before a definition), so neither can any live-out set. Only
/// the others, the *global* pieces, need the dataflow; solving it over them alone gives the
/// same sets on far fewer bits (Mesa's backends solve it over every variable).
struct Local {
    /// Upward-exposed uses of block b: `uses[use_end[b-1]..use_end[b]]`.
    uses: Vec<u32>,
    use_end: Vec<usize>,
    /// Definitions before any use in block b, likewise.
    defs: Vec<u32>,
    def_end: Vec<usize>,
    /// Pieces block b writes at all, even partially or predicated, likewise.
    writes: Vec<u32>,
    write_end: Vec<usize>,
    /// Dense index of each global piece, `NO_BLOCK` for local ones.
    global_index: Vec<u32>,
    /// The global pieces, by dense index.
    globals: Vec<u32>,
}

/// What the scan has seen of one piece.
#[derive(Clone, Copy)]
struct Seen {
    /// The block that last used the piece before defining it, and the one that last defined
    /// it before any use: a block's use and def sets without a set per block.
    used_in: u32,
    defined_in: u32,
    /// The block that last wrote the piece in any way.
    written_in: u32,
    /// The first block that touched the piece; `global` once a second one does.
    home: u32,
    global: bool,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen {
            used_in: NO_BLOCK,
            defined_in: NO_BLOCK,
            written_in: NO_BLOCK,
            home: NO_BLOCK,
            global: false,
        }
    }
}

/// Walks every block once: records the local use/def lists and widens each piece's interval
/// over the instructions that touch it.
fn scan(prog: &Program, blocks: &[Block], piece_base: &[usize], live: &mut Liveness) -> Local {
    let insts = &prog.insts;
    let total = live.start.len();
    let mut seen = vec![Seen::default(); total];
    let mut local = Local {
        uses: Vec::new(),
        use_end: Vec::with_capacity(blocks.len()),
        defs: Vec::new(),
        def_end: Vec::with_capacity(blocks.len()),
        writes: Vec::new(),
        write_end: Vec::with_capacity(blocks.len()),
        global_index: Vec::new(),
        globals: Vec::new(),
    };
    let (start, end) = (&mut live.start, &mut live.end);
    let mut touch = |p: usize, seen: &mut Seen, ip: usize, b: u32| {
        start[p] = start[p].min(ip);
        end[p] = end[p].max(ip);
        if seen.home == NO_BLOCK {
            seen.home = b;
        } else if seen.home != b {
            seen.global = true;
        }
    };
    for (b, blk) in blocks.iter().enumerate() {
        let b32 = b as u32;
        for (ip, inst) in insts.iter().enumerate().take(blk.end).skip(blk.start) {
            for s in &inst.src {
                if s.file != File::Vgrf {
                    continue;
                }
                let (size, base) = (prog.vgrf_sizes[s.nr as usize], piece_base[s.nr as usize]);
                let regs = pieces(s, source_regs(inst, s));
                for r in regs.start..regs.end.min(size) {
                    let p = base + r as usize;
                    let seen = &mut seen[p];
                    if seen.defined_in != b32 && seen.used_in != b32 {
                        seen.used_in = b32;
                        local.uses.push(p as u32);
                    }
                    touch(p, seen, ip, b32);
                }
            }
            if inst.dst.file == File::Vgrf {
                let (ws, we) = write_bytes(inst);
                // A predicated SEL still writes every channel (the predicate picks the
                // source); other predicated writes leave channels untouched.
                let whole = inst.pred.is_none() || inst.op == Op::Alu(Opcode::Sel);
                let v = inst.dst.nr as usize;
                let (size, base) = (prog.vgrf_sizes[v], piece_base[v]);
                let regs = pieces(&inst.dst, inst.regs_written());
                for r in regs.start..regs.end.min(size) {
                    let p = base + r as usize;
                    let seen = &mut seen[p];
                    let full = whole && ws <= r * REG_SIZE && we >= (r + 1) * REG_SIZE;
                    if full && seen.used_in != b32 && seen.defined_in != b32 {
                        seen.defined_in = b32;
                        local.defs.push(p as u32);
                    }
                    if seen.written_in != b32 {
                        seen.written_in = b32;
                        local.writes.push(p as u32);
                    }
                    touch(p, seen, ip, b32);
                }
            }
        }
        local.use_end.push(local.uses.len());
        local.def_end.push(local.defs.len());
        local.write_end.push(local.writes.len());
    }
    // An upward-exposed use makes a piece live into its block.
    for &p in &local.uses {
        seen[p as usize].global = true;
    }
    local.global_index = vec![NO_BLOCK; total];
    for (p, _) in seen.iter().enumerate().filter(|(_, s)| s.global) {
        local.global_index[p] = local.globals.len() as u32;
        local.globals.push(p as u32);
    }
    local
}

/// Computes liveness for `prog`.
pub fn compute(prog: &Program) -> Liveness {
    let insts = &prog.insts;
    let blocks = build_cfg(insts);
    let mut piece_base = Vec::with_capacity(prog.vgrf_sizes.len());
    let mut total = 0usize;
    for &s in &prog.vgrf_sizes {
        piece_base.push(total);
        total += s as usize;
    }
    let mut live = Liveness {
        piece_base: Vec::new(),
        start: vec![usize::MAX; total],
        end: vec![0usize; total],
        blocks: Vec::new(),
    };
    let local = scan(prog, &blocks, &piece_base, &mut live);
    let (start, end) = (&mut live.start, &mut live.end);
    let g = local.globals.len();
    let sets_of = |list: &[u32], ends: &[usize]| -> BitMatrix {
        let mut sets = BitMatrix::new(ends.len(), g);
        let mut from = 0;
        for (b, &to) in ends.iter().enumerate() {
            for &p in &list[from..to] {
                let k = local.global_index[p as usize];
                if k != NO_BLOCK {
                    sets.insert(b, k as usize);
                }
            }
            from = to;
        }
        sets
    };
    let use_ = sets_of(&local.uses, &local.use_end);
    let def = sets_of(&local.defs, &local.def_end);
    let (mut livein, mut liveout) = solve_liveness(&blocks, &use_, &def);
    // A piece is live only where some write of it can have happened: before its first write
    // (which may be predicated, a partial definition) it holds nothing a later read could
    // want, whatever the backwards solution says.
    mask_unwritten(
        &blocks,
        &sets_of(&local.writes, &local.write_end),
        &mut livein,
        &mut liveout,
    );
    // Each piece's interval reaches from its first live point to its last. Positions grow
    // along (block start, block end) in block order, so a forward walk that visits each
    // piece at its first occurrence finds the start, and a backward walk the end.
    let ends = |blk: &Block| (blk.start, blk.end.saturating_sub(1).max(blk.start));
    let mut seen = vec![0u64; g.div_ceil(64)];
    for (b, blk) in blocks.iter().enumerate() {
        let (first, last) = ends(blk);
        for (set, at) in [(livein.row(b), first), (liveout.row(b), last)] {
            union_words_new(&mut seen, set, |k| {
                let p = local.globals[k] as usize;
                start[p] = start[p].min(at);
            });
        }
    }
    seen.iter_mut().for_each(|w| *w = 0);
    for (b, blk) in blocks.iter().enumerate().rev() {
        let (first, last) = ends(blk);
        for (set, at) in [(liveout.row(b), last), (livein.row(b), first)] {
            union_words_new(&mut seen, set, |k| {
                let p = local.globals[k] as usize;
                end[p] = end[p].max(at);
            });
        }
    }
    // Values live across a WHILE are carried around the loop by disabled channels.
    let mut do_stack = Vec::new();
    for (ip, i) in insts.iter().enumerate() {
        match i.op {
            Op::Do => do_stack.push(ip),
            Op::While => {
                if let Some(d) = do_stack.pop() {
                    for p in 0..total {
                        if start[p] < ip && end[p] > ip {
                            start[p] = start[p].min(d);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    live.piece_base = piece_base;
    live.blocks = blocks;
    live
}

/// Clears from `livein` and `liveout` the pieces no write of which can have happened by
/// then. Blocks are in program order, so a write reaches a later block's start, and, through
/// a loop's back edge, every block of the loop; this over-approximates the forward solution
/// (a THEN arm's write counts at the ELSE arm's start), which leaves every interval as the
/// exact one would (the write itself already starts the interval there) at the cost of one
/// pass.
fn mask_unwritten(
    blocks: &[Block],
    writes: &BitMatrix,
    livein: &mut BitMatrix,
    liveout: &mut BitMatrix,
) {
    let n = writes.len();
    // The writes of every loop enclosing each block.
    let mut around = BitMatrix::new(blocks.len(), n);
    let mut lw = vec![0u64; n.div_ceil(64)];
    for (w, blk) in blocks.iter().enumerate() {
        for &h in blk.succs.iter().filter(|&&h| h <= w) {
            lw.iter_mut().for_each(|x| *x = 0);
            for k in h..=w {
                union_words(&mut lw, writes.row(k));
            }
            for k in h..=w {
                union_words(around.row_mut(k), &lw);
            }
        }
    }
    let mut before = vec![0u64; n.div_ceil(64)];
    for b in 0..blocks.len() {
        let masked = |row: &mut [u64], before: &[u64]| {
            for ((l, p), a) in row.iter_mut().zip(before).zip(around.row(b)) {
                *l &= p | a;
            }
        };
        masked(livein.row_mut(b), &before);
        union_words(&mut before, writes.row(b));
        masked(liveout.row_mut(b), &before);
    }
}

/// Registers source `i` of `inst` reads, including the implied ones: PLN's barycentric source
/// names one register but the instruction reads the u and v planes, two registers per eight
/// channels.
pub fn regs_read(inst: &Inst, i: usize) -> u32 {
    let s = &inst.src[i];
    if inst.op == Op::Alu(Opcode::Pln) && i == 1 && s.file != File::Imm {
        return 2 * (inst.exec_size as u32).div_ceil(8);
    }
    source_regs(inst, s).max(1)
}

/// Registers a source reads.
pub fn source_regs(inst: &Inst, s: &super::ir::Reg) -> u32 {
    match inst.op {
        // The descriptor index of an indexed message is one scalar dword.
        Op::Send if s.stride == 0 => 1,
        Op::Send => inst.mlen as u32,
        _ if s.region.is_some() => (inst.exec_size as u32 * s.ty.size())
            .div_ceil(REG_SIZE)
            .max(1),
        _ => s.regs_read(inst.exec_size as u32),
    }
}

fn write_bytes(inst: &Inst) -> (u32, u32) {
    let start = inst.dst.offset;
    let len = if inst.op == Op::Send {
        inst.rlen as u32 * REG_SIZE
    } else if inst.op == Op::Uniformize {
        // Whatever the width, it defines its one-register scalar destination.
        REG_SIZE
    } else {
        inst.exec_size as u32 * inst.dst.ty.size() * inst.dst.stride.max(1) as u32
    };
    if inst.dst.stride > 1 {
        // Strided writes leave gaps: never a full write.
        return (start, start);
    }
    (start, start + len)
}
