//! Tessellation-control URB headers built once (after optimization, before allocation).
//!
//! Translation builds a header for every URB message of a TCS: each input or output read
//! its own (a virtual register), each patch write one in the fixed header register. Most of
//! them repeat: every read of the input vertex of the invocation builds the same ICP
//! handles, and consecutive writes of the patch entry differ at most in the channel mask
//! or the per-slot offsets. Two steps remove what is built again:
//!
//! - [`share_read_headers`]: a read header the same as one built earlier on every path to
//!   it (same operation, same sources, none written since) is dropped, its reads taking the
//!   earlier one (Mesa gets there through CSE and a copy of the header per message);
//! - [`reuse_write_header`]: each write header says what the header register already holds
//!   there ([`HEADER_BASE`], [`HEADER_MASK`], [`HEADER_OFFSETS`]), the code generator
//!   writing only the rest, and a header that holds everything goes.
//!
//! Both follow the structured control flow: what an `if` or `else` branch builds is known
//! after it only when the other way in holds the same; a loop forgets what came from
//! before it that its body could change (its back edge brings the end of the body), and
//! what its body built, after it (a `break` may leave before).

use super::ir::{swz_get, File, Op, Program, Src, HEADER_BASE, HEADER_MASK, HEADER_OFFSETS};
use super::urb::HEADER;

/// Writes per virtual register.
fn def_counts(prog: &Program) -> Vec<u32> {
    let mut defs = vec![0u32; prog.num_vgrfs as usize];
    for i in &prog.insts {
        if i.dst.file == File::Vgrf {
            if let Some(d) = defs.get_mut(i.dst.nr as usize) {
                *d += 1;
            }
        }
    }
    defs
}

/// The operand as a header reads it: x of each half of a register, or an immediate.
fn header_operand(s: &Src) -> (File, u32, u8) {
    match s.file {
        File::Imm => (File::Imm, s.imm, 0),
        f => (f, s.nr, swz_get(s.swizzle, 0)),
    }
}

/// A read header available to later reads.
struct Available {
    op: Op,
    srcs: Vec<(File, u32, u8)>,
    dst: u32,
    /// The open `if`s and loops where it was built.
    depth: usize,
}

/// Drops read headers (input headers, output headers into a virtual register) built
/// before on every path with the same sources; true on progress.
pub fn share_read_headers(prog: &mut Program) -> bool {
    let defs = def_counts(prog);
    let single = |nr: u32| defs.get(nr as usize) == Some(&1);
    let mut avail: Vec<Available> = Vec::new();
    // The open `if`s and loops.
    let mut depth = 0usize;
    let mut rename: Vec<Option<u32>> = vec![None; prog.num_vgrfs as usize];
    let mut removed = vec![false; prog.insts.len()];
    for (ip, inst) in prog.insts.iter().enumerate() {
        match inst.op {
            Op::If => depth += 1,
            // What the `then` built is not there on the way into the `else`.
            Op::Else => avail.retain(|a| a.depth < depth),
            Op::EndIf | Op::While => {
                avail.retain(|a| a.depth < depth);
                depth = depth.saturating_sub(1);
            }
            Op::Do => {
                // The back edge may bring other values of the sources.
                avail.retain(|a| a.srcs.iter().all(|s| s.0 != File::Vgrf));
                depth += 1;
            }
            _ => {}
        }
        let header = matches!(inst.op, Op::TcsInputHeader | Op::TcsOutputHeader { .. })
            && inst.dst.file == File::Vgrf
            && single(inst.dst.nr)
            && inst.pred.is_none();
        if header {
            let srcs: Vec<_> = inst.src.iter().map(header_operand).collect();
            if let Some(a) = avail.iter().find(|a| a.op == inst.op && a.srcs == srcs) {
                rename[inst.dst.nr as usize] = Some(a.dst);
                removed[ip] = true;
                continue;
            }
            avail.push(Available {
                op: inst.op,
                srcs,
                dst: inst.dst.nr,
                depth,
            });
            continue;
        }
        if inst.dst.file == File::Vgrf {
            let w = inst.dst.nr;
            avail.retain(|a| a.dst != w && !a.srcs.iter().any(|s| s.0 == File::Vgrf && s.1 == w));
        }
    }
    if !removed.contains(&true) {
        return false;
    }
    prog.remove_marked(&removed);
    for inst in &mut prog.insts {
        for s in &mut inst.src {
            if s.file == File::Vgrf {
                if let Some(Some(to)) = rename.get(s.nr as usize) {
                    s.nr = *to;
                }
            }
        }
    }
    true
}

/// Per-slot offsets a write header leaves in dwords 3 and 4.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Offsets {
    Zero,
    /// x of each half of this virtual register.
    Reg(u32, u8),
}

/// What the header register is known to hold.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Held {
    /// Zero, the patch handle and some channel mask.
    base: bool,
    mask: Option<u8>,
    offsets: Option<Offsets>,
}

impl Held {
    const UNKNOWN: Held = Held {
        base: false,
        mask: None,
        offsets: None,
    };

    /// What holds on both of two paths.
    fn meet(self, o: Held) -> Held {
        if !(self.base && o.base) {
            return Held::UNKNOWN;
        }
        Held {
            base: true,
            mask: self.mask.filter(|_| self.mask == o.mask),
            offsets: self.offsets.filter(|_| self.offsets == o.offsets),
        }
    }
}

/// An open `if`: what held at its start, and at the end of its `then` once in `else`.
struct OpenIf {
    start: Held,
    then_end: Option<Held>,
}

/// Marks each write header with what the header register already holds, dropping those
/// that would write nothing; true on progress.
pub fn reuse_write_header(prog: &mut Program) -> bool {
    let mut held = Held::UNKNOWN;
    let mut ifs: Vec<OpenIf> = Vec::new();
    let mut removed = vec![false; prog.insts.len()];
    let mut progress = false;
    for (ip, inst) in prog.insts.iter_mut().enumerate() {
        match inst.op {
            Op::If => ifs.push(OpenIf {
                start: held,
                then_end: None,
            }),
            // Both branches run when the halves diverge, the `else` after the `then`.
            Op::Else => {
                if let Some(o) = ifs.last_mut() {
                    o.then_end = Some(held);
                    held = held.meet(o.start);
                }
            }
            Op::EndIf => {
                held = match ifs.pop() {
                    Some(o) => held.meet(o.then_end.unwrap_or(o.start)),
                    None => Held::UNKNOWN,
                };
            }
            // A loop's start is also reached from the end of its body, and its end from
            // any `break`.
            Op::Do | Op::While => held = Held::UNKNOWN,
            Op::TcsOutputHeader { mask, held: 0 }
                if inst.dst.file == File::Fixed && inst.dst.nr == HEADER =>
            {
                let offsets = match inst.src.first() {
                    Some(s) if s.file == File::Vgrf => Offsets::Reg(s.nr, swz_get(s.swizzle, 0)),
                    Some(_) => {
                        held = Held::UNKNOWN;
                        continue;
                    }
                    None => Offsets::Zero,
                };
                let mut bits = 0;
                if held.base {
                    bits |= HEADER_BASE;
                    if held.mask == Some(mask) {
                        bits |= HEADER_MASK;
                    }
                    if held.offsets == Some(offsets) {
                        bits |= HEADER_OFFSETS;
                    }
                }
                held = Held {
                    base: true,
                    mask: Some(mask),
                    offsets: Some(offsets),
                };
                if bits != 0 {
                    progress = true;
                    inst.op = Op::TcsOutputHeader { mask, held: bits };
                    removed[ip] = bits == HEADER_BASE | HEADER_MASK | HEADER_OFFSETS;
                }
                continue;
            }
            _ => {}
        }
        match inst.dst.file {
            File::Fixed if inst.dst.nr <= HEADER => held = Held::UNKNOWN,
            File::Vgrf => {
                if matches!(held.offsets, Some(Offsets::Reg(r, _)) if r == inst.dst.nr) {
                    held.offsets = None;
                }
            }
            _ => {}
        }
    }
    prog.remove_marked(&removed);
    progress
}

#[cfg(test)]
mod tests;
