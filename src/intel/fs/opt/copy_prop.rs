//! Copy propagation within basic blocks.
//!
//! A plain `mov dst, src` (no predicate, saturate or conditional modifier, same type on both
//! sides) records that `dst`'s region holds `src`. A later read of exactly that region by an
//! instruction of the same channel group reads `src` directly, as long as neither region has
//! been written in between. The copy is then usually unread and dead-code elimination removes
//! it.
//!
//! What each reader accepts follows the hardware: immediates only as the last source of a
//! two-source ALU instruction (commutative operations swap their sources to get there, CMP
//! also flips its condition) or the only source of a MOV, never in MATH or three-source
//! instructions; source modifiers only on float arithmetic; three-source instructions only
//! read plain virtual registers (they are align16 and cannot take the scalar payload
//! regions). Sends and other logical instructions read whole payload blocks and are left
//! alone.

use crate::intel::eu::{CondMod, Opcode, RegType};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg, REG_SIZE};

/// A copy available for propagation.
#[derive(Debug, Clone, Copy)]
struct Copy {
    dst: Reg,
    src: Reg,
    exec_size: u8,
    group: u8,
    we_all: bool,
}

/// Redirects reads of copies to their sources; returns whether any source changed.
pub fn copy_propagation(prog: &mut Program) -> bool {
    let mut progress = false;
    let mut acp = Acp::new(prog.vgrf_sizes.len(), prog.insts.len());
    for inst in &mut prog.insts {
        if inst.op.is_flow() {
            acp.clear();
            continue;
        }
        // PLN and LINE read a register pair (or a vec4 of plane coefficients) beyond the
        // region their source names.
        if matches!(inst.op, Op::Alu(_) | Op::Math(_) | Op::MulHigh)
            && !matches!(inst.op, Op::Alu(Opcode::Pln | Opcode::Line))
        {
            for i in 0..inst.src.len() {
                if let Some(c) = acp.find(inst, &inst.src[i]) {
                    progress |= try_propagate(inst, i, &c);
                }
            }
        }
        // Whatever this instruction writes invalidates copies of or into it.
        if inst.dst.file != File::Bad && inst.dst.file != File::Null {
            acp.kill(&inst.dst, inst.regs_written().max(1));
        }
        if let Some(c) = as_copy(inst) {
            acp.push(c);
        }
    }
    progress
}

/// No entry.
const NONE: u32 = u32::MAX;

/// The available copies of the current block, indexed by register.
///
/// A reader only ever uses a copy into the virtual register it reads, and a write only ends
/// the copies into or out of the register it writes (or, for a fixed register, out of the
/// registers near it), so each copy is linked into a list per destination register and one
/// per source register (fixed sources share one list). A scan of all copies per instruction
/// would make large blocks quadratic. Copies are numbered in the order they were made, and
/// the oldest one that a read matches is the one used.
struct Acp {
    /// Every copy recorded in this call, by number.
    copies: Vec<Copy>,
    /// Whether each copy is still available.
    alive: Vec<bool>,
    /// The next older copy into the same register, and from the same source register.
    next_dst: Vec<u32>,
    next_src: Vec<u32>,
    /// Per virtual register, the newest copy into it and the newest copy from it.
    head_dst: Vec<u32>,
    head_src: Vec<u32>,
    /// The newest copy from a fixed register.
    head_fixed: u32,
    /// The first copy of the current block: older ones ended at a block boundary.
    block_start: u32,
}

impl Acp {
    /// Room for `vgrfs` registers and as many copies as a program of `insts` instructions
    /// can make, so that recording one never reallocates.
    fn new(vgrfs: usize, insts: usize) -> Acp {
        Acp {
            copies: Vec::with_capacity(insts),
            alive: Vec::with_capacity(insts),
            next_dst: Vec::with_capacity(insts),
            next_src: Vec::with_capacity(insts),
            head_dst: vec![NONE; vgrfs],
            head_src: vec![NONE; vgrfs],
            head_fixed: NONE,
            block_start: 0,
        }
    }

    /// Ends every copy (a block boundary).
    fn clear(&mut self) {
        self.block_start = self.copies.len() as u32;
        self.head_fixed = NONE;
    }

    /// A list head or link, `NONE` when it points before the current block.
    fn live_link(&self, k: u32) -> u32 {
        if k == NONE || k < self.block_start {
            NONE
        } else {
            k
        }
    }

    /// Makes room for register `nr` in the per-register heads (a program naming a register
    /// without a size is left for the validator to report).
    fn reach(&mut self, nr: u32) {
        let n = nr as usize + 1;
        if self.head_dst.len() < n {
            self.head_dst.resize(n, NONE);
            self.head_src.resize(n, NONE);
        }
    }

    /// The oldest available copy that `s` reads.
    fn find(&self, inst: &Inst, s: &Reg) -> Option<Copy> {
        if s.file != File::Vgrf {
            return None;
        }
        let mut k = self.live_link(*self.head_dst.get(s.nr as usize)?);
        let mut found = None;
        while k != NONE {
            let c = &self.copies[k as usize];
            if self.alive[k as usize] && reads_copy(inst, s, c) {
                found = Some(*c);
            }
            k = self.live_link(self.next_dst[k as usize]);
        }
        found
    }

    /// Ends the copies whose destination or source a write of `regs` registers at `w` may
    /// touch.
    fn kill(&mut self, w: &Reg, regs: u32) {
        match w.file {
            File::Vgrf => {
                self.reach(w.nr);
                let nr = w.nr as usize;
                let mut k = self.live_link(self.head_dst[nr]);
                while k != NONE {
                    self.alive[k as usize] = false;
                    k = self.live_link(self.next_dst[k as usize]);
                }
                let mut k = self.live_link(self.head_src[nr]);
                while k != NONE {
                    self.alive[k as usize] = false;
                    k = self.live_link(self.next_src[k as usize]);
                }
                self.head_dst[nr] = NONE;
                self.head_src[nr] = NONE;
            }
            File::Fixed => {
                let mut k = self.live_link(self.head_fixed);
                while k != NONE {
                    if overlaps(&self.copies[k as usize].src, w, regs) {
                        self.alive[k as usize] = false;
                    }
                    k = self.live_link(self.next_src[k as usize]);
                }
            }
            _ => {}
        }
    }

    fn push(&mut self, c: Copy) {
        let k = self.copies.len() as u32;
        self.reach(c.dst.nr);
        let dst = c.dst.nr as usize;
        self.next_dst.push(self.head_dst[dst]);
        self.head_dst[dst] = k;
        let next_src = match c.src.file {
            File::Vgrf => {
                self.reach(c.src.nr);
                std::mem::replace(&mut self.head_src[c.src.nr as usize], k)
            }
            File::Fixed => std::mem::replace(&mut self.head_fixed, k),
            _ => NONE,
        };
        self.next_src.push(next_src);
        self.copies.push(c);
        self.alive.push(true);
    }
}

/// Whether a write of `regs` registers at `w` may touch the registers `r` names (conservatively
/// by whole registers; immediates are never written).
fn overlaps(r: &Reg, w: &Reg, regs: u32) -> bool {
    if r.file != w.file || !matches!(r.file, File::Vgrf | File::Fixed) {
        return false;
    }
    if r.file == File::Vgrf {
        return r.nr == w.nr;
    }
    // Fixed registers: compare absolute register ranges.
    let rs = r.nr + r.offset / REG_SIZE;
    let ws = w.nr + w.offset / REG_SIZE;
    rs + 2 >= ws && rs < ws + regs + 2
}

fn as_copy(inst: &Inst) -> Option<Copy> {
    let s = *inst.src.first()?;
    let d = inst.dst;
    let plain = inst.op == Op::Alu(Opcode::Mov)
        && inst.pred.is_none()
        && !inst.sat
        && inst.cmod == CondMod::None
        && d.file == File::Vgrf
        && d.stride == 1
        && d.ty == s.ty
        && d.ty.size() == 4
        && s.region.is_none()
        && matches!(s.file, File::Vgrf | File::Fixed | File::Imm)
        && (s.file == File::Imm || s.stride <= 1)
        && !(s.file == File::Vgrf && s.nr == d.nr);
    plain.then_some(Copy {
        dst: d,
        src: s,
        exec_size: inst.exec_size,
        group: inst.group,
        we_all: inst.we_all,
    })
}

/// Whether `s` reads (part of) the copy's destination for channels the copy wrote, the same
/// channels at the same positions (a SIMD8 half of a SIMD16 copy included).
fn reads_copy(inst: &Inst, s: &Reg, c: &Copy) -> bool {
    let (g, e) = (inst.group as u32, inst.exec_size as u32);
    let (cg, ce) = (c.group as u32, c.exec_size as u32);
    s.file == File::Vgrf
        && s.nr == c.dst.nr
        && g >= cg
        && g + e <= cg + ce
        && s.offset == c.dst.offset + (g - cg) * c.dst.ty.size()
        && s.stride == 1
        && s.region.is_none()
        && s.ty.size() == c.dst.ty.size()
        && (c.we_all || !inst.we_all)
}

fn is_three_src(op: Op) -> bool {
    matches!(
        op,
        Op::Alu(Opcode::Mad | Opcode::Lrp | Opcode::Bfe | Opcode::Bfi2 | Opcode::Csel)
    )
}

/// Arithmetic, where negate and absolute value mean what they say (on Gen8 the logic
/// operations read a negate as a bitwise NOT).
fn takes_mods(inst: &Inst) -> bool {
    matches!(
        inst.op,
        Op::Alu(
            Opcode::Mov
                | Opcode::Add
                | Opcode::Mul
                | Opcode::Mad
                | Opcode::Lrp
                | Opcode::Sel
                | Opcode::Cmp
                | Opcode::Frc
                | Opcode::Rndd
                | Opcode::Rnde
                | Opcode::Rndz
        ) | Op::Math(_)
    )
}

fn commutes(op: Op) -> bool {
    matches!(
        op,
        Op::Alu(Opcode::Add | Opcode::Mul | Opcode::And | Opcode::Or | Opcode::Xor)
    )
}

fn swapped_cmod(c: CondMod) -> Option<CondMod> {
    Some(match c {
        CondMod::None => CondMod::None,
        CondMod::Z => CondMod::Z,
        CondMod::Nz => CondMod::Nz,
        CondMod::G => CondMod::L,
        CondMod::Ge => CondMod::Le,
        CondMod::L => CondMod::G,
        CondMod::Le => CondMod::Ge,
        _ => return None,
    })
}

/// Applies the reader's modifiers on top of the copy's source.
fn compose(copy_src: Reg, read: &Reg) -> Reg {
    let mut r = copy_src;
    r.ty = read.ty;
    if read.abs {
        r.abs = true;
        r.neg = read.neg;
    } else {
        r.neg ^= read.neg;
    }
    r
}

/// Folds modifiers into an immediate; `None` when the type has no such arithmetic.
/// (Codegen uses it too: the hardware has no modifiers on immediates.)
pub(crate) fn fold_imm(r: Reg) -> Option<Reg> {
    if !r.neg && !r.abs {
        return Some(r);
    }
    let bits = r.imm as u32;
    let bits = match r.ty {
        RegType::F => {
            let b = if r.abs { bits & 0x7fff_ffff } else { bits };
            if r.neg {
                b ^ 0x8000_0000
            } else {
                b
            }
        }
        RegType::D => {
            let v = bits as i32;
            let v = if r.abs { v.wrapping_abs() } else { v };
            (if r.neg { v.wrapping_neg() } else { v }) as u32
        }
        _ => return None,
    };
    Some(Reg {
        neg: false,
        abs: false,
        imm: bits as u64,
        ..r
    })
}

fn try_propagate(inst: &mut Inst, i: usize, c: &Copy) -> bool {
    let read = inst.src[i];
    let retyped = read.ty != c.dst.ty;
    let src_mods = c.src.neg || c.src.abs;
    // A reinterpreting read only sees the copied bits when no modifier changed them.
    if retyped && src_mods {
        return false;
    }
    let new = compose(c.src, &read);
    // MULH's MUL reads its second source again as words (Gen8+): plain strided regions
    // only, and no modifiers (which `takes_mods` already keeps out).
    if inst.op == Op::MulHigh && new.region.is_some() {
        return false;
    }
    if (src_mods || (new.file == File::Imm && (new.neg || new.abs))) && !takes_mods(inst) {
        return false;
    }
    // Align16 three-source operands take virtual registers and replicated scalars (push
    // constants), not the other payload regions.
    let scalar = new.file == File::Fixed && c.src.stride == 0 && new.ty.size() == 4;
    if is_three_src(inst.op) && new.file != File::Vgrf && !scalar {
        return false;
    }
    match new.file {
        File::Imm => {
            let Some(new) = fold_imm(new) else {
                return false;
            };
            if new.ty.size() != 4 || matches!(inst.op, Op::Math(_)) {
                return false;
            }
            // MULH takes an immediate second source (its MUL reads the low word of it).
            if inst.op == Op::MulHigh {
                if i == 1 && inst.src[0].file != File::Imm {
                    inst.src[1] = new;
                    return true;
                }
                return false;
            }
            let Op::Alu(op) = inst.op else {
                return false;
            };
            let n = inst.src.len();
            let int_mul = op == Opcode::Mul && !inst.dst.ty.is_float();
            if op == Opcode::Mov && n == 1 {
                inst.src[0] = new;
                return true;
            }
            if n != 2 || int_mul || is_three_src(inst.op) {
                return false;
            }
            let other = inst.src[1 - i];
            if other.file == File::Imm {
                return false;
            }
            if i == 1 {
                inst.src[1] = new;
                return true;
            }
            // The immediate would be src0: swap where the operation allows it.
            if commutes(inst.op) {
                inst.src[0] = other;
                inst.src[1] = new;
                return true;
            }
            if op == Opcode::Cmp {
                if let Some(cm) = swapped_cmod(inst.cmod) {
                    inst.cmod = cm;
                    inst.src[0] = other;
                    inst.src[1] = new;
                    return true;
                }
            }
            if op == Opcode::Sel && inst.pred.is_none() && inst.cmod != CondMod::None {
                // min/max: commutative.
                inst.src[0] = other;
                inst.src[1] = new;
                return true;
            }
            false
        }
        File::Vgrf | File::Fixed => {
            let mut new = new;
            new.stride = c.src.stride;
            // The reader's first channel is this far into the copy.
            let skip = (inst.group - c.group) as u32;
            new.offset += skip * c.src.stride as u32 * c.src.ty.size();
            inst.src[i] = new;
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{self, binary, f, mov};
    use super::*;

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(copy_propagation, insts)
    }

    /// MULH takes a copied register in either source and a copied immediate only as its
    /// second source (its MUL reads that one again as a word), never a negated copy.
    #[test]
    fn mulh_takes_registers_and_a_second_immediate() {
        let u = |n| Reg::vgrf(n, RegType::UD);
        let mulh = |d, a, b| Inst::new(Op::MulHigh, 8, d, vec![a, b]);
        let k = Reg::imm(RegType::UD, 0xcccc_cccd);
        let (p, out) = run(vec![mov(u(1), k), mulh(u(2), u(0), u(1))]);
        assert!(p);
        assert_eq!(out[1], mulh(u(2), u(0), k));
        let (p, out) = run(vec![mov(u(1), k), mulh(u(2), u(1), u(0))]);
        assert!(!p);
        assert_eq!(out[1], mulh(u(2), u(1), u(0)));
        let (p, out) = run(vec![mov(u(1), u(3)), mulh(u(2), u(1), u(1))]);
        assert!(p);
        assert_eq!(out[1], mulh(u(2), u(3), u(3)));
        let d = |n| Reg::vgrf(n, RegType::D);
        let (p, _) = run(vec![mov(d(1), d(3).negate()), mulh(d(2), d(0), d(1))]);
        assert!(!p);
    }

    #[test]
    fn register_copy_is_propagated() {
        // mov v1, v0; add v2, v1, v3  =>  add v2, v0, v3
        let (p, out) = run(vec![mov(f(1), f(0)), binary(Opcode::Add, f(2), f(1), f(3))]);
        assert!(p);
        assert_eq!(out[1], binary(Opcode::Add, f(2), f(0), f(3)));
    }

    #[test]
    fn negated_copy_into_float_add_and_not_into_and() {
        let (_, out) = run(vec![
            mov(f(1), f(0).negate()),
            binary(Opcode::Add, f(2), f(1), f(3)),
        ]);
        assert_eq!(out[1], binary(Opcode::Add, f(2), f(0).negate(), f(3)));
        let d = |n| Reg::vgrf(n, RegType::D);
        let (p, out) = run(vec![
            mov(d(1), d(0).negate()),
            binary(Opcode::And, d(2), d(1), d(3)),
        ]);
        assert!(!p);
        assert_eq!(out[1], binary(Opcode::And, d(2), d(1), d(3)));
    }

    #[test]
    fn abs_read_of_negated_copy_is_plain_abs() {
        let (_, out) = run(vec![
            mov(f(1), f(0).negate()),
            binary(Opcode::Mul, f(2), f(1).absolute(), f(3)),
        ]);
        assert_eq!(out[1], binary(Opcode::Mul, f(2), f(0).absolute(), f(3)));
    }

    #[test]
    fn immediate_goes_to_src1_swapping_commutative_sources() {
        let one = Reg::imm_f(1.0);
        let (_, out) = run(vec![mov(f(1), one), binary(Opcode::Add, f(2), f(1), f(3))]);
        assert_eq!(out[1], binary(Opcode::Add, f(2), f(3), one));
    }

    #[test]
    fn immediate_into_cmp_src0_reverses_the_condition() {
        let two = Reg::imm_f(2.0);
        let mut cmp = binary(Opcode::Cmp, Reg::null(RegType::F), f(1), f(3));
        cmp.cmod = CondMod::L;
        let (_, out) = run(vec![mov(f(1), two), cmp]);
        let mut want = binary(Opcode::Cmp, Reg::null(RegType::F), f(3), two);
        want.cmod = CondMod::G;
        assert_eq!(out[1], want);
    }

    #[test]
    fn negated_immediate_is_folded() {
        let (_, out) = run(vec![
            mov(f(1), Reg::imm_f(0.5)),
            binary(Opcode::Mul, f(2), f(3), f(1).negate()),
        ]);
        assert_eq!(out[1], binary(Opcode::Mul, f(2), f(3), Reg::imm_f(-0.5)));
    }

    #[test]
    fn no_immediate_into_math_or_mad() {
        let insts = vec![
            mov(f(1), Reg::imm_f(2.0)),
            Inst::new(
                Op::Math(crate::intel::eu::MathFn::Pow),
                8,
                f(2),
                vec![f(3), f(1)],
            ),
            Inst::new(Op::Alu(Opcode::Mad), 8, f(4), vec![f(3), f(3), f(1)]),
        ];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
    }

    #[test]
    fn scalar_push_constant_goes_into_mad_other_payload_regions_do_not() {
        let u = Reg::fixed(4, 8, RegType::F, 0);
        let mad = |b: Reg| Inst::new(Op::Alu(Opcode::Mad), 8, f(4), vec![f(3), b, f(5)]);
        let (p, out) = run(vec![mov(f(1), u.negate()), mad(f(1))]);
        assert!(p);
        assert_eq!(out[1], mad(u.negate()));
        let bary = Reg::fixed(2, 0, RegType::F, 1);
        let (p, _) = run(vec![mov(f(1), bary), mad(f(1))]);
        assert!(!p);
    }

    #[test]
    fn overwritten_source_blocks_propagation() {
        let insts = vec![
            mov(f(1), f(0)),
            mov(f(0), f(5)),
            binary(Opcode::Add, f(2), f(1), f(3)),
        ];
        let (_, out) = run(insts.clone());
        assert_eq!(out[2], insts[2]);
    }

    #[test]
    fn control_flow_ends_the_block() {
        let insts = vec![
            mov(f(1), f(0)),
            Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
            binary(Opcode::Add, f(2), f(1), f(3)),
        ];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
    }

    #[test]
    fn second_half_of_a_simd16_copy_reads_the_source_half() {
        let mut copy = mov(f(1), f(0));
        copy.exec_size = 16;
        let mut hi = Inst::new(
            Op::Alu(Opcode::Mad),
            8,
            f(2).horiz_offset(8),
            vec![f(3), f(1).horiz_offset(8), f(4)],
        );
        hi.group = 8;
        let (p, out) = run(vec![copy, hi.clone()]);
        assert!(p);
        hi.src[1] = f(0).reg_offset(1);
        assert_eq!(out[1], hi);
    }

    #[test]
    fn other_channel_group_is_not_the_copy() {
        let mut hi = binary(Opcode::Add, f(2), f(1), f(3));
        hi.group = 8;
        let insts = vec![mov(f(1), f(0)), hi];
        let (p, _) = run(insts);
        assert!(!p);
    }

    #[test]
    fn predicated_or_saturating_moves_are_not_copies() {
        let mut a = mov(f(1), f(0));
        a.pred = Some(false);
        let mut b = mov(f(4), f(0));
        b.sat = true;
        let insts = vec![a, b, binary(Opcode::Add, f(2), f(1), f(4))];
        let (p, out) = run(insts.clone());
        assert!(!p);
        assert_eq!(out, insts);
    }
}

#[cfg(test)]
mod mesa_tests;
