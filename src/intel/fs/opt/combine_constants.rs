//! Constant combining: immediates that an instruction cannot encode are loaded once, into one
//! channel of a shared register, and read from there as a scalar.
//!
//! Three-source instructions (MAD, LRP, BFE, BFI2) take no immediates before Gen10, extended
//! math none on Gen7, and only the last source of a two-source instruction may be one, so
//! translation moves such constants into a full-width register right before each use: one
//! SIMD-wide MOV per use, and one or two GRFs live per constant. This pass replaces every
//! register that only ever holds one immediate by a 32-bit slot of a shared register, written
//! once per distinct value with a NoMask MOV and read with a `<0,1,0>` region, the way Mesa's
//! `opt_combine_constants` does. A value and its float negation share a slot when every
//! reader of the negated one can apply a negate modifier.
//!
//! Where a reader could take the immediate itself (the only source of a MOV, the second
//! source of most two-source instructions), it gets the immediate instead: copy propagation
//! stops at control flow, this pass does not.
//!
//! A slot is written before the first instruction that reads it, hoisted out of the control
//! flow constructs that do not contain every reader, so the write dominates all reads. Slots
//! are packed eight to a register while their live ranges overlap and the first write of the
//! register dominates the later ones; that first write fills the whole register (broadcasting
//! its value), so liveness sees a full definition there and the register is not live before.

use std::collections::BTreeMap;

use crate::intel::eu::{CondMod, MathFn, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg, REG_SIZE};

/// 32-bit slots in one register.
const SLOTS: u32 = REG_SIZE / 4;

/// A read distance for [`combine_constants`] that keeps registers short-lived, for programs
/// that do not fit otherwise.
pub const TIGHT_GAP: usize = 24;

/// What one virtual register is known to hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// No write seen yet.
    Nothing,
    /// Every write so far stores these 32 bits in every channel it writes.
    Bits(u32),
    /// Anything else.
    Other,
}

/// The 32 bits an unconditional MOV of an immediate stores, when it is one that copies bits.
fn broadcast_bits(inst: &Inst) -> Option<u32> {
    let s = inst.src.first()?;
    let d = &inst.dst;
    let plain = inst.op == Op::Alu(Opcode::Mov)
        && inst.src.len() == 1
        && inst.pred.is_none()
        && !inst.we_all
        && !inst.sat
        && inst.cmod == CondMod::None
        && s.file == File::Imm
        && !s.neg
        && !s.abs
        && d.file == File::Vgrf
        && d.stride == 1
        && d.ty.size() == 4
        && s.ty.size() == 4
        // A MOV between float and integer types converts rather than copies.
        && (s.ty == d.ty || (!s.ty.is_float() && !d.ty.is_float()));
    plain.then_some(s.imm as u32)
}

/// ALU operations that read ordinary regions, so a scalar `<0,1,0>` source means the same
/// value in every channel (PLN and LINE read register pairs, the accumulator ops and sends are
/// left alone).
fn reads_scalar(inst: &Inst) -> bool {
    match inst.op {
        Op::Math(_) | Op::MulHigh => true,
        Op::Alu(op) => matches!(
            op,
            Opcode::Mov
                | Opcode::Sel
                | Opcode::Not
                | Opcode::And
                | Opcode::Or
                | Opcode::Xor
                | Opcode::Shr
                | Opcode::Shl
                | Opcode::Asr
                | Opcode::Cmp
                | Opcode::Bfrev
                | Opcode::Bfe
                | Opcode::Bfi1
                | Opcode::Bfi2
                | Opcode::Add
                | Opcode::Mul
                | Opcode::Frc
                | Opcode::Rndu
                | Opcode::Rndd
                | Opcode::Rnde
                | Opcode::Rndz
                | Opcode::Lzd
                | Opcode::Fbh
                | Opcode::Fbl
                | Opcode::Cbit
                | Opcode::Mad
                | Opcode::Lrp
        ),
        _ => false,
    }
}

/// Whether source `i` of `inst` may be an immediate: the only source of a MOV, or the second
/// of a two-source operation whose first is not one (integer multiplies excepted: their
/// immediate must fit a word).
fn takes_imm(inst: &Inst, i: usize) -> bool {
    if inst.op == Op::MulHigh {
        return i == 1 && inst.src[0].file != File::Imm;
    }
    let Op::Alu(op) = inst.op else {
        return false;
    };
    match op {
        Opcode::Mov => inst.src.len() == 1,
        Opcode::Mul if !inst.dst.ty.is_float() => false,
        Opcode::Add
        | Opcode::Mul
        | Opcode::And
        | Opcode::Or
        | Opcode::Xor
        | Opcode::Shl
        | Opcode::Shr
        | Opcode::Asr
        | Opcode::Sel
        | Opcode::Cmp => inst.src.len() == 2 && i == 1 && inst.src[0].file != File::Imm,
        _ => false,
    }
}

/// Float arithmetic, where a negate modifier on a float source flips its sign bit.
fn negates_floats(inst: &Inst) -> bool {
    match inst.op {
        Op::Math(m) => matches!(
            m,
            MathFn::Inv
                | MathFn::Log
                | MathFn::Exp
                | MathFn::Sqrt
                | MathFn::Rsq
                | MathFn::Sin
                | MathFn::Cos
                | MathFn::Fdiv
                | MathFn::Pow
        ),
        Op::Alu(op) => matches!(op, Opcode::Mad | Opcode::Lrp | Opcode::Add | Opcode::Mul),
        _ => false,
    }
}

/// The immediate `read` sees when its register holds `bits`, with the read's modifiers folded
/// in; `None` when the type has no such arithmetic.
fn folded_imm(bits: u32, read: &Reg) -> Option<Reg> {
    let mut bits = bits;
    match read.ty {
        RegType::F => {
            if read.abs {
                bits &= 0x7fff_ffff;
            }
            if read.neg {
                bits ^= 0x8000_0000;
            }
        }
        RegType::D => {
            let mut v = bits as i32;
            if read.abs {
                v = v.wrapping_abs();
            }
            if read.neg {
                v = v.wrapping_neg();
            }
            bits = v as u32;
        }
        RegType::UD if !read.neg && !read.abs => {}
        _ => return None,
    }
    Some(Reg::imm(read.ty, bits))
}

/// A read to rewrite: instruction index and source index.
type Use = (usize, usize);

/// The nesting structure: one node per control-flow arm (then, else, loop body) under the
/// whole program's node 0.
struct Regions {
    /// Parent node of each node (node 0 is its own).
    parent: Vec<usize>,
    /// Depth of each node.
    depth: Vec<usize>,
    /// The IF or DO instruction opening each node's construct.
    opener: Vec<usize>,
    /// Whether each node is an else-arm.
    is_else: Vec<bool>,
    /// Innermost node containing each instruction (flow instructions belong to the node
    /// around their construct).
    of: Vec<usize>,
}

impl Regions {
    /// `None` when the flow instructions do not nest.
    fn new(insts: &[Inst]) -> Option<Regions> {
        let mut r = Regions {
            parent: vec![0],
            depth: vec![0],
            opener: vec![0],
            is_else: vec![false],
            of: Vec::with_capacity(insts.len()),
        };
        let mut stack = vec![0usize];
        for (ip, inst) in insts.iter().enumerate() {
            let cur = *stack.last()?;
            match inst.op {
                Op::If | Op::Do => {
                    r.of.push(cur);
                    let node = r.push(cur, ip);
                    stack.push(node);
                }
                Op::Else => {
                    stack.pop();
                    let outer = *stack.last()?;
                    // Only a then-arm ends here.
                    if outer == cur || insts[r.opener[cur]].op != Op::If || r.is_else[cur] {
                        return None;
                    }
                    r.of.push(outer);
                    let node = r.push(outer, r.opener[cur]);
                    r.is_else[node] = true;
                    stack.push(node);
                }
                Op::EndIf | Op::While => {
                    stack.pop();
                    let outer = *stack.last()?;
                    let want = if inst.op == Op::While { Op::Do } else { Op::If };
                    if outer == cur || insts[r.opener[cur]].op != want {
                        return None;
                    }
                    r.of.push(outer);
                }
                _ => r.of.push(cur),
            }
        }
        (stack.len() == 1).then_some(r)
    }

    fn push(&mut self, parent: usize, opener: usize) -> usize {
        self.parent.push(parent);
        self.depth.push(self.depth[parent] + 1);
        self.opener.push(opener);
        self.is_else.push(false);
        self.parent.len() - 1
    }

    fn common(&self, mut a: usize, mut b: usize) -> usize {
        while self.depth[a] > self.depth[b] {
            a = self.parent[a];
        }
        while self.depth[b] > self.depth[a] {
            b = self.parent[b];
        }
        while a != b {
            a = self.parent[a];
            b = self.parent[b];
        }
        a
    }

    /// Whether node `outer` contains node `inner` (or is it).
    fn contains(&self, outer: usize, mut inner: usize) -> bool {
        while self.depth[inner] > self.depth[outer] {
            inner = self.parent[inner];
        }
        inner == outer
    }

    /// The instruction before which a write dominates every instruction in `ips` (sorted):
    /// the first of them, or the opener of the outermost construct around it that does not
    /// contain them all. Returns the position and its node.
    fn dominating_point(&self, ips: &[usize]) -> (usize, usize) {
        let first = ips[0];
        let common = ips[1..]
            .iter()
            .fold(self.of[first], |n, &ip| self.common(n, self.of[ip]));
        let mut node = self.of[first];
        if node == common {
            return (first, common);
        }
        while self.parent[node] != common {
            node = self.parent[node];
        }
        (self.opener[node], common)
    }
}

/// One distinct value to load.
struct Constant {
    bits: u32,
    /// Reads of it, in program order; `true` where the read negates the stored value.
    uses: Vec<(Use, bool)>,
}

/// Combines the constants as described in the module documentation; returns whether any
/// register was replaced.
///
/// Reads of one value more than `gap` instructions apart get separate loads: one load for the
/// whole program saves the most instructions, but holds a register across everything in
/// between (`usize::MAX` for the first, [`TIGHT_GAP`] when registers are short).
pub fn combine_constants(prog: &mut Program, gap: usize) -> bool {
    let n = prog.vgrf_sizes.len();
    let mut holds = vec![Holds::Nothing; n];
    for inst in &prog.insts {
        if inst.dst.file != File::Vgrf {
            continue;
        }
        let Some(h) = holds.get_mut(inst.dst.nr as usize) else {
            return false;
        };
        *h = match (*h, broadcast_bits(inst)) {
            (Holds::Nothing, Some(b)) => Holds::Bits(b),
            (Holds::Bits(a), Some(b)) if a == b => Holds::Bits(a),
            _ => Holds::Other,
        };
    }
    // Every read of a candidate must take either the immediate or a scalar region.
    for inst in &prog.insts {
        for (i, s) in inst.src.iter().enumerate() {
            if s.file != File::Vgrf {
                continue;
            }
            let Some(h) = holds.get_mut(s.nr as usize) else {
                return false;
            };
            if let Holds::Bits(b) = *h {
                let direct = takes_imm(inst, i) && folded_imm(b, s).is_some();
                let scalar = reads_scalar(inst) && s.ty.size() == 4 && s.region.is_none();
                if !(direct || scalar) {
                    *h = Holds::Other;
                }
            }
        }
    }
    if !holds.iter().any(|h| matches!(h, Holds::Bits(_))) {
        return false;
    }
    let Some(regions) = Regions::new(&prog.insts) else {
        return false;
    };

    // Reads that take the immediate itself are rewritten now; the rest are grouped by value.
    let mut by_bits: BTreeMap<u32, Vec<Use>> = BTreeMap::new();
    for (ip, inst) in prog.insts.iter_mut().enumerate() {
        for i in 0..inst.src.len() {
            let s = inst.src[i];
            let Some(&Holds::Bits(b)) = (s.file == File::Vgrf)
                .then(|| holds.get(s.nr as usize))
                .flatten()
            else {
                continue;
            };
            match folded_imm(b, &s) {
                Some(imm) if takes_imm(inst, i) => inst.src[i] = imm,
                _ => by_bits.entry(b).or_default().push((ip, i)),
            }
        }
    }
    let constants: Vec<Constant> = merge_negations(&prog.insts, by_bits)
        .into_iter()
        .flat_map(|c| split_far_uses(c, gap))
        .collect();

    // Where each value is written, then which register slot holds it.
    let mut placed: Vec<(usize, usize, Constant)> = constants
        .into_iter()
        .map(|c| {
            let mut ips: Vec<usize> = c.uses.iter().map(|((ip, _), _)| *ip).collect();
            ips.dedup();
            let (at, node) = regions.dominating_point(&ips);
            (at, node, c)
        })
        .collect();
    placed.sort_by_key(|(at, _, c)| (*at, c.uses[0].0));

    struct Open {
        vgrf: u32,
        used: u32,
        node: usize,
        last_use: usize,
    }
    let mut open: Option<Open> = None;
    let mut inserts: Vec<(usize, Inst)> = Vec::new();
    for (at, node, c) in placed {
        let last_use = c.uses.last().map_or(at, |((ip, _), _)| *ip);
        let joins = open
            .as_ref()
            .is_some_and(|o| o.used < SLOTS && at <= o.last_use && regions.contains(o.node, node));
        if !joins {
            open = Some(Open {
                vgrf: prog.alloc(1),
                used: 0,
                node,
                last_use,
            });
        }
        let Some(o) = open.as_mut() else {
            continue;
        };
        let slot = Reg {
            offset: o.used * 4,
            ..Reg::vgrf(o.vgrf, RegType::UD)
        };
        // The register's first write fills it, so it is a definition of the whole register.
        let mut mov = Inst::new(
            Op::Alu(Opcode::Mov),
            if o.used == 0 { SLOTS as u8 } else { 1 },
            slot,
            vec![Reg::imm(RegType::UD, c.bits)],
        );
        mov.we_all = true;
        inserts.push((at, mov));
        let scalar = Reg { stride: 0, ..slot };
        for ((ip, i), negated) in c.uses {
            let read = &mut prog.insts[ip].src[i];
            let neg = read.neg ^ (negated && !read.abs);
            *read = Reg {
                ty: read.ty,
                neg,
                abs: read.abs,
                ..scalar
            };
        }
        o.used += 1;
        o.last_use = o.last_use.max(last_use);
    }

    // The old loads are unread now; the new ones go in before their points.
    inserts.sort_by_key(|(at, _)| *at);
    let old = std::mem::take(&mut prog.insts);
    let mut next = inserts.into_iter().peekable();
    for (ip, inst) in old.into_iter().enumerate() {
        while let Some((_, mov)) = next.next_if(|(at, _)| *at == ip) {
            prog.insts.push(mov);
        }
        let dead_load = inst.dst.file == File::Vgrf
            && matches!(holds.get(inst.dst.nr as usize), Some(Holds::Bits(_)));
        if !dead_load {
            prog.insts.push(inst);
        }
    }
    true
}

/// Splits a value's reads where consecutive ones are more than `gap` instructions apart, so
/// each run gets its own load instead of one register held across the stretch between.
fn split_far_uses(c: Constant, gap: usize) -> Vec<Constant> {
    let mut runs: Vec<Constant> = Vec::new();
    for u in c.uses {
        match runs.last_mut() {
            Some(r) if u.0 .0 <= r.uses.last().map_or(0, |l| l.0 .0).saturating_add(gap) => {
                r.uses.push(u)
            }
            _ => runs.push(Constant {
                bits: c.bits,
                uses: vec![u],
            }),
        }
    }
    runs
}

/// Groups the reads by value, folding a float value into its negation's slot when every read
/// of it can negate (the value with more reads keeps its own slot).
fn merge_negations(insts: &[Inst], by_bits: BTreeMap<u32, Vec<Use>>) -> Vec<Constant> {
    let negatable = |uses: &[Use]| {
        uses.iter().all(|&(ip, i)| {
            let inst = &insts[ip];
            negates_floats(inst) && inst.src[i].ty == RegType::F
        })
    };
    let mut merged: BTreeMap<u32, Constant> = BTreeMap::new();
    let mut order: Vec<(u32, Vec<Use>)> = by_bits.into_iter().collect();
    // Most-read values first, so they keep their own slot.
    order.sort_by_key(|(bits, uses)| (std::cmp::Reverse(uses.len()), *bits));
    for (bits, uses) in order {
        let flipped = bits ^ 0x8000_0000;
        if negatable(&uses) {
            if let Some(c) = merged.get_mut(&flipped) {
                c.uses.extend(uses.into_iter().map(|u| (u, true)));
                c.uses.sort_unstable();
                continue;
            }
        }
        merged.insert(
            bits,
            Constant {
                bits,
                uses: uses.into_iter().map(|u| (u, false)).collect(),
            },
        );
    }
    merged.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{f, flow, mov};
    use super::*;

    fn mad(dst: Reg, a: Reg, b: Reg, c: Reg) -> Inst {
        Inst::new(Op::Alu(Opcode::Mad), 8, dst, vec![a, b, c])
    }

    /// The NoMask load of `bits` into slot `slot` of `vgrf` (the first one fills it).
    fn load(vgrf: u32, slot: u32, bits: u32) -> Inst {
        let mut m = Inst::new(
            Op::Alu(Opcode::Mov),
            if slot == 0 { 8 } else { 1 },
            Reg {
                offset: slot * 4,
                ..Reg::vgrf(vgrf, RegType::UD)
            },
            vec![Reg::imm(RegType::UD, bits)],
        );
        m.we_all = true;
        m
    }

    /// A scalar read of slot `slot` of `vgrf` as a float.
    fn scalar(vgrf: u32, slot: u32) -> Reg {
        Reg {
            offset: slot * 4,
            stride: 0,
            ..f(vgrf)
        }
    }

    fn run(insts: Vec<Inst>, vgrfs: usize) -> (bool, Program) {
        let mut p = Program {
            insts,
            vgrf_sizes: vec![1; vgrfs],
            ..Default::default()
        };
        let progress = combine_constants(&mut p, usize::MAX);
        (progress, p)
    }

    const ONE: u32 = 0x3f80_0000;
    const HALF: u32 = 0x3f00_0000;

    #[test]
    fn repeated_mad_constants_share_one_load() {
        // Two MADs each load 1.0 and 0.5 themselves: one register, two slots, two loads.
        let (p, prog) = run(
            vec![
                mov(f(1), Reg::imm_f(1.0)),
                mov(f(2), Reg::imm_f(0.5)),
                mad(f(3), f(0), f(1), f(2)),
                mov(f(4), Reg::imm_f(1.0)),
                mov(f(5), Reg::imm_f(0.5)),
                mad(f(6), f(3), f(4), f(5)),
            ],
            7,
        );
        assert!(p);
        assert_eq!(
            prog.insts,
            vec![
                load(7, 0, ONE),
                load(7, 1, HALF),
                mad(f(3), f(0), scalar(7, 0), scalar(7, 1)),
                mad(f(6), f(3), scalar(7, 0), scalar(7, 1)),
            ]
        );
        assert_eq!(prog.vgrf_sizes.len(), 8);
    }

    #[test]
    fn negation_shares_the_slot() {
        let (p, prog) = run(
            vec![
                mov(f(1), Reg::imm_f(1.0)),
                mad(f(2), f(0), f(0), f(1)),
                mov(f(3), Reg::imm_f(-1.0)),
                mad(f(4), f(2), f(3), f(0)),
                mov(f(5), Reg::imm_f(1.0)),
                mad(f(6), f(4), f(5), f(5)),
            ],
            7,
        );
        assert!(p);
        assert_eq!(
            prog.insts,
            vec![
                load(7, 0, ONE),
                mad(f(2), f(0), f(0), scalar(7, 0)),
                mad(f(4), f(2), scalar(7, 0).negate(), f(0)),
                mad(f(6), f(4), scalar(7, 0), scalar(7, 0)),
            ]
        );
    }

    #[test]
    fn load_is_hoisted_out_of_arms_that_do_not_hold_every_use() {
        // 0.5 is read in both arms of an IF: it is loaded before the IF.
        let mut iff = flow(Op::If);
        iff.pred = Some(false);
        let (p, prog) = run(
            vec![
                iff.clone(),
                mov(f(1), Reg::imm_f(0.5)),
                mad(f(2), f(0), f(0), f(1)),
                flow(Op::Else),
                mov(f(3), Reg::imm_f(0.5)),
                mad(f(2), f(0), f(3), f(0)),
                flow(Op::EndIf),
            ],
            4,
        );
        assert!(p);
        assert_eq!(
            prog.insts,
            vec![
                load(4, 0, HALF),
                iff,
                mad(f(2), f(0), f(0), scalar(4, 0)),
                flow(Op::Else),
                mad(f(2), f(0), scalar(4, 0), f(0)),
                flow(Op::EndIf),
            ]
        );
    }

    #[test]
    fn uses_inside_one_loop_load_inside_it() {
        let (_, prog) = run(
            vec![
                flow(Op::Do),
                mov(f(1), Reg::imm_f(0.5)),
                mad(f(2), f(0), f(0), f(1)),
                flow(Op::While),
            ],
            3,
        );
        assert_eq!(
            prog.insts,
            vec![
                flow(Op::Do),
                load(3, 0, HALF),
                mad(f(2), f(0), f(0), scalar(3, 0)),
                flow(Op::While),
            ]
        );
    }

    #[test]
    fn reader_that_takes_an_immediate_gets_it() {
        // The ADD after the ENDIF (beyond copy propagation's block) takes 0.5 as src1.
        let add = |a, b| Inst::new(Op::Alu(Opcode::Add), 8, f(4), vec![a, b]);
        let (p, prog) = run(
            vec![
                flow(Op::If),
                mov(f(1), Reg::imm_f(0.5)),
                flow(Op::EndIf),
                add(f(0), f(1).negate()),
                mad(f(3), f(0), f(1), f(0)),
            ],
            5,
        );
        assert!(p);
        assert_eq!(
            prog.insts,
            vec![
                flow(Op::If),
                flow(Op::EndIf),
                add(f(0), Reg::imm_f(-0.5)),
                load(5, 0, HALF),
                mad(f(3), f(0), scalar(5, 0), f(0)),
            ]
        );
    }

    #[test]
    fn registers_with_other_writes_or_reads_stay() {
        // v1 is also written by an ADD; v2 is read by a send (a whole payload); v3 is loaded
        // with a predicate; v5 is loaded with a converting MOV.
        let mut send = Inst::new(Op::Send, 8, Reg::null(RegType::UW), vec![f(2)]);
        send.mlen = 1;
        let mut pred = mov(f(3), Reg::imm_f(2.0));
        pred.pred = Some(false);
        let insts = vec![
            mov(f(1), Reg::imm_f(1.0)),
            Inst::new(Op::Alu(Opcode::Add), 8, f(1), vec![f(1), f(0)]),
            mad(f(4), f(1), f(1), f(0)),
            mov(f(2), Reg::imm_f(1.0)),
            send,
            pred,
            mad(f(4), f(3), f(3), f(0)),
            mov(f(5), Reg::imm(RegType::D, 1)),
            mad(f(4), f(5), f(0), f(0)),
        ];
        let (p, prog) = run(insts.clone(), 6);
        assert!(!p);
        assert_eq!(prog.insts, insts);
    }

    #[test]
    fn integer_constants_of_bfe_are_combined() {
        let ud = |n| Reg::vgrf(n, RegType::UD);
        let bfe = |dst, a, b| Inst::new(Op::Alu(Opcode::Bfe), 8, dst, vec![a, b, ud(0)]);
        let (p, prog) = run(
            vec![
                mov(ud(1), Reg::imm(RegType::UD, 8)),
                mov(ud(2), Reg::imm(RegType::UD, 16)),
                bfe(ud(3), ud(1), ud(2)),
            ],
            4,
        );
        assert!(p);
        let s = |slot| Reg {
            ty: RegType::UD,
            ..scalar(4, slot)
        };
        assert_eq!(
            prog.insts,
            vec![load(4, 0, 8), load(4, 1, 16), bfe(ud(3), s(0), s(1))]
        );
    }

    #[test]
    fn disjoint_live_ranges_use_separate_registers() {
        // The second constant is first read after the first one's last read: packing them
        // would keep a register live in between for nothing.
        let (_, prog) = run(
            vec![
                mov(f(1), Reg::imm_f(1.0)),
                mad(f(2), f(0), f(0), f(1)),
                mov(f(3), Reg::imm_f(0.5)),
                mad(f(4), f(2), f(3), f(0)),
            ],
            5,
        );
        assert_eq!(
            prog.insts,
            vec![
                load(5, 0, ONE),
                mad(f(2), f(0), f(0), scalar(5, 0)),
                load(6, 0, HALF),
                mad(f(4), f(2), scalar(6, 0), f(0)),
            ]
        );
    }

    #[test]
    fn far_apart_reads_get_separate_loads_within_a_gap() {
        let add = |d, a| Inst::new(Op::Alu(Opcode::Add), 8, d, vec![a, a]);
        let insts = vec![
            mov(f(1), Reg::imm_f(1.0)),
            mad(f(2), f(0), f(0), f(1)),
            add(f(3), f(2)),
            add(f(4), f(3)),
            mad(f(5), f(4), f(1), f(0)),
        ];
        let mut p = Program {
            insts: insts.clone(),
            vgrf_sizes: vec![1; 6],
            ..Default::default()
        };
        assert!(combine_constants(&mut p, 2));
        assert_eq!(
            p.insts,
            vec![
                load(6, 0, ONE),
                mad(f(2), f(0), f(0), scalar(6, 0)),
                add(f(3), f(2)),
                add(f(4), f(3)),
                load(7, 0, ONE),
                mad(f(5), f(4), scalar(7, 0), f(0)),
            ]
        );
        // Three apart is within a gap of three: one load.
        let mut p = Program {
            insts,
            vgrf_sizes: vec![1; 6],
            ..Default::default()
        };
        assert!(combine_constants(&mut p, 3));
        assert_eq!(p.insts.iter().filter(|i| i.we_all).count(), 1);
        // The pass's own loads are not candidates again.
        let again = p.insts.clone();
        assert!(!combine_constants(&mut p, 3));
        assert_eq!(p.insts, again);
    }

    #[test]
    fn unbalanced_flow_is_left_alone() {
        let insts = vec![
            mov(f(1), Reg::imm_f(1.0)),
            mad(f(2), f(0), f(0), f(1)),
            flow(Op::EndIf),
        ];
        let (p, prog) = run(insts.clone(), 3);
        assert!(!p);
        assert_eq!(prog.insts, insts);
    }
}
