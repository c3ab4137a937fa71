//! The scalar backend's final code as the value check sees it ([`crate::ra::values`]).
//!
//! The check runs on the program as code generation takes it: after
//! `split_to_hardware_width`, `assign_registers` and post-allocation scheduling. Those
//! instructions name hardware GRFs only, so each is paired with its virtual original (the
//! program after width splitting, before assignment, through the order post-allocation
//! scheduling returned): the final instruction says which GRFs are read and written, the
//! virtual one which value is meant. A value is a GRF-sized piece of a VGRF, or a fixed
//! register (payload, push constants, attribute setup, or a register the program writes by
//! number); the payload's `reserved` registers hold theirs on entry.
//!
//! The paths are those of SIMD execution (see
//! [`build_simd_cfg`](crate::intel::flow::build_simd_cfg)). Each channel sees the writes of
//! its own path (disabled channels keep their contents), so a per-path model is
//! exact for channel-masked writes; a write of part of a GRF (a 16-bit type, a stride, a
//! sub-register offset, a predicate other than SEL's) is a partial write.

use crate::intel::eu::Opcode;
use crate::intel::flow::value_check_blocks;
use crate::ra::values::{self, Block, Read, Write};

use super::ir::{File, Inst, Op, Program, Reg, REG_SIZE};
use super::regalloc::regs_read;

/// The final program paired with its virtual original.
pub struct FinalCode<'a> {
    virt: &'a Program,
    fin: &'a Program,
    /// `fin.insts[k]` is `virt.insts[order[k]]` after assignment (`None`: same order).
    order: Option<&'a [u32]>,
    reserved: u32,
    grfs: u32,
    piece_base: Vec<u32>,
    fixed_base: u32,
}

impl<'a> FinalCode<'a> {
    /// `fin` is `virt` with registers assigned, reordered by `order` when given; `reserved`
    /// payload registers hold the thread payload on entry; `grfs` is the register file.
    pub fn new(
        virt: &'a Program,
        fin: &'a Program,
        order: Option<&'a [u32]>,
        reserved: u32,
        grfs: u32,
    ) -> FinalCode<'a> {
        let mut piece_base = Vec::with_capacity(virt.vgrf_sizes.len());
        let mut n = 0;
        for &s in &virt.vgrf_sizes {
            piece_base.push(n);
            n += s;
        }
        FinalCode {
            virt,
            fin,
            order,
            reserved: reserved.min(grfs),
            grfs,
            piece_base,
            fixed_base: n,
        }
    }

    fn virt_inst(&self, ip: usize) -> &Inst {
        let k = self.order.map_or(ip, |o| o[ip] as usize);
        &self.virt.insts[k]
    }

    /// Calls `f(unit, value)` for the `regs` registers operand `v` (virtual) / `p` (final)
    /// covers.
    fn each(&self, v: &Reg, p: &Reg, regs: u32, mut f: impl FnMut(u32, u32)) {
        let first = v.offset / REG_SIZE;
        let (value, count) = match v.file {
            File::Vgrf => {
                let size = self.virt.vgrf_sizes[v.nr as usize];
                let end = (first + regs).min(size);
                (
                    self.piece_base[v.nr as usize] + first,
                    end.saturating_sub(first),
                )
            }
            File::Fixed => (self.fixed_base + v.nr + first, regs),
            _ => return,
        };
        if !matches!(p.file, File::Fixed | File::Vgrf) {
            return;
        }
        let unit = p.nr + p.offset / REG_SIZE;
        for k in 0..count {
            f(unit + k, value + k);
        }
    }
}

/// Whether `inst` leaves some bytes of the registers it writes as they were.
fn partial_write(inst: &Inst) -> bool {
    if inst.op.is_send() {
        return false;
    }
    (inst.pred.is_some() && inst.op != Op::Alu(Opcode::Sel))
        || inst.dst.offset % REG_SIZE != 0
        || inst.dst.stride != 1
        || (inst.exec_size as u32 * inst.dst.ty.size()) % REG_SIZE != 0
}

impl values::FinalCode for FinalCode<'_> {
    fn units(&self) -> u32 {
        self.grfs
    }

    fn values(&self) -> u32 {
        self.fixed_base + self.grfs
    }

    fn blocks(&self) -> Vec<Block> {
        value_check_blocks(&self.fin.insts)
    }

    fn entry(&self, out: &mut Vec<(u32, u32)>) {
        out.extend((0..self.reserved).map(|r| (r, self.fixed_base + r)));
    }

    fn reads(&self, ip: usize, out: &mut Vec<Read>) {
        let (v, p) = (self.virt_inst(ip), &self.fin.insts[ip]);
        for (i, (vs, ps)) in v.src.iter().zip(&p.src).enumerate() {
            self.each(vs, ps, regs_read(v, i), |unit, value| {
                out.push(Read {
                    unit,
                    value,
                    operand: i as u32,
                })
            });
        }
    }

    fn writes(&self, ip: usize, out: &mut Vec<Write>) {
        let (v, p) = (self.virt_inst(ip), &self.fin.insts[ip]);
        let partial = partial_write(p);
        self.each(&v.dst, &p.dst, v.regs_written(), |unit, value| {
            out.push(Write {
                unit,
                value,
                partial,
            })
        });
    }

    fn describe_inst(&self, ip: usize) -> String {
        format!("{:?}", self.fin.insts[ip].op)
    }

    fn describe_value(&self, value: u32) -> String {
        if value >= self.fixed_base {
            return format!("g{}", value - self.fixed_base);
        }
        let v = self.piece_base.partition_point(|&b| b <= value) - 1;
        format!("vgrf{v} reg {}", value - self.piece_base[v])
    }

    fn describe_unit(&self, unit: u32) -> String {
        format!("g{unit}")
    }
}

/// Checks the final program `fin` against its virtual original `virt` (see [`FinalCode`]).
/// The error names the instruction (its index in `fin`), the value it reads, the register
/// and what is there instead.
pub fn check(
    virt: &Program,
    fin: &Program,
    order: Option<&[u32]>,
    reserved: u32,
    grfs: u32,
) -> Result<(), String> {
    if virt.insts.len() != fin.insts.len() || order.is_some_and(|o| o.len() != fin.insts.len()) {
        return Err(format!(
            "the final program has {} instructions for {} virtual ones",
            fin.insts.len(),
            virt.insts.len()
        ));
    }
    values::check(&FinalCode::new(virt, fin, order, reserved, grfs)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intel::eu::RegType;
    use crate::intel::fs::regalloc::{self, Allocation};

    /// `prog` with VGRF `v` at GRFs `base[v]..`, checked (no reordering).
    fn check_at(prog: &Program, base: &[u32], reserved: u32, grfs: u32) -> Result<(), String> {
        let mut fin = prog.clone();
        let alloc = Allocation {
            base: base.to_vec(),
            grfs_used: 0,
            graph_nodes: 0,
            graph_edges: 0,
        };
        regalloc::assign(&mut fin, &alloc);
        check(prog, &fin, None, reserved, grfs)
    }

    fn mov(dst: Reg, src: Reg) -> Inst {
        Inst::new(Op::Alu(Opcode::Mov), 8, dst, vec![src])
    }

    fn add(dst: Reg, a: Reg, b: Reg) -> Inst {
        Inst::new(Op::Alu(Opcode::Add), 8, dst, vec![a, b])
    }

    fn v(n: u32) -> Reg {
        Reg::vgrf(n, RegType::F)
    }

    /// `a = g2; b = g3; (c, d) = (b, a); out = c + d`: a swap through two copies.
    fn swap() -> Program {
        let mut p = Program::default();
        let [a, b, c, d, out] = [(); 5].map(|_| p.alloc(1));
        p.insts.push(mov(v(a), Reg::fixed(2, 0, RegType::F, 1)));
        p.insts.push(mov(v(b), Reg::fixed(3, 0, RegType::F, 1)));
        p.insts.push(mov(v(c), v(b)));
        p.insts.push(mov(v(d), v(a)));
        p.insts.push(add(v(out), v(c), v(d)));
        p
    }

    /// Giving the first copy's destination the register of the value the second copy still
    /// has to read loses that value, although each copy on its own looks like a register
    /// reuse at a last read: the check names the read and the clobbering write.
    #[test]
    fn a_swap_that_clobbers_its_second_source_is_rejected() {
        let p = swap();
        // a=g10 b=g11 c=g10 (over a, still needed) d=g11 out=g12
        let err = check_at(&p, &[10, 11, 10, 11, 12], 4, 128).unwrap_err();
        assert_eq!(
            err,
            "ip 3 (Alu(Mov)) operand 0 reads vgrf0 reg 0 from g10, which holds vgrf2 reg 0 \
             (written at ip 2)"
        );
        // The same registers with c and d exchanged keep both values: c takes b's register
        // as b dies, d takes a's as a dies.
        assert_eq!(check_at(&p, &[10, 11, 11, 10, 12], 4, 128), Ok(()));
    }

    /// Payload registers hold their values from the start; reusing one before its last read
    /// is caught, reusing it after is fine.
    #[test]
    fn payload_reuse_before_the_last_read_is_rejected() {
        let p = swap();
        // a in g3 overwrites the payload register that the second instruction still reads.
        let err = check_at(&p, &[3, 11, 12, 13, 14], 4, 128).unwrap_err();
        assert!(
            err.starts_with("ip 1 (Alu(Mov)) operand 0 reads g3 from g3"),
            "{err}"
        );
        // b in g3 is written after g3's only read.
        assert_eq!(check_at(&p, &[10, 3, 12, 13, 14], 4, 128), Ok(()));
    }

    /// `if { x = 1 } else { use y }` with x and y sharing a register is wrong on SIMD
    /// hardware (the then-branch runs before the else-branch for divergent channels) though
    /// the scalar paths never meet; a value written on only one path may share freely.
    #[test]
    fn divergent_branches_run_one_after_the_other() {
        let mut p = Program::default();
        let [x, y, z] = [(); 3].map(|_| p.alloc(1));
        let one = Reg::imm(RegType::F, 1.0f32.to_bits());
        p.insts.push(mov(v(y), one));
        p.insts.push(Inst::new(Op::If, 8, Reg::BAD, vec![]));
        p.insts.push(mov(v(x), one));
        p.insts.push(Inst::new(Op::Else, 8, Reg::BAD, vec![]));
        p.insts.push(mov(v(z), v(y)));
        p.insts.push(Inst::new(Op::EndIf, 8, Reg::BAD, vec![]));
        let err = check_at(&p, &[20, 20, 21], 2, 128).unwrap_err();
        assert!(
            err.contains(
                "reads vgrf1 reg 0 from g20, which holds different values on different paths"
            ),
            "{err}"
        );
        assert_eq!(check_at(&p, &[20, 22, 21], 2, 128), Ok(()));
    }

    /// A value carried around a loop must survive the loop body: a register reused inside the
    /// body for another value breaks the next iteration's read.
    #[test]
    fn loop_carried_values_survive_the_body() {
        let mut p = Program::default();
        let [acc, t] = [(); 2].map(|_| p.alloc(1));
        let one = Reg::imm(RegType::F, 1.0f32.to_bits());
        p.insts.push(mov(v(acc), one));
        p.insts.push(Inst::new(Op::Do, 8, Reg::BAD, vec![]));
        p.insts.push(add(v(t), v(acc), one));
        p.insts.push(mov(v(acc), v(t)));
        p.insts.push(Inst::new(Op::While, 8, Reg::BAD, vec![]));
        assert_eq!(check_at(&p, &[20, 21], 2, 128), Ok(()));
        assert_eq!(
            check_at(&p, &[20, 20], 2, 128),
            Ok(()),
            "t dies as acc is rewritten"
        );
        // Now t is read after acc is rewritten: sharing loses t.
        p.insts.insert(4, mov(v(acc), v(t)));
        let err = check_at(&p, &[20, 20], 2, 128).unwrap_err();
        assert!(
            err.starts_with("ip 4 (Alu(Mov)) operand 0 reads vgrf1 reg 0"),
            "{err}"
        );
    }

    /// A fragment shader compiled at SIMD16 through allocation, width splitting, assignment
    /// and post-allocation scheduling, as `compile_width` does: the virtual program after
    /// splitting, the final one and the scheduler's order.
    fn final_code() -> (Program, Program, Vec<u32>, u32, u32) {
        use crate::intel::fs::{lower, pipeline, sched, Device};
        let dev = crate::intel::DevInfo::from_name("skl").unwrap();
        let shader = crate::nir::parse(include_str!("../../../tests/data/nir/if_phi.nir")).unwrap();
        let prepared = pipeline::prepare(dev, &shader, 16, pipeline::OPTIMIZE).unwrap();
        let (mut prog, reserved) = (prepared.prog, prepared.reserved.unwrap());
        let device = Device::new(dev);
        let grfs = device.regs.set.num_units() as u32;
        sched::schedule(dev, &mut prog, sched::Mode::Pre);
        let (alloc, _) = regalloc::allocate_spilling(dev, &device.regs, &mut prog, reserved, false)
            .unwrap()
            .expect("the shader fits");
        lower::split_to_hardware_width(dev, &mut prog);
        let virt = prog.clone();
        regalloc::assign(&mut prog, &alloc);
        let n = prog.insts.len() as u32;
        let order = sched::schedule_tracked(dev, &mut prog, sched::Mode::Post, None)
            .unwrap_or_else(|| (0..n).collect());
        (virt, prog, order, reserved, grfs)
    }

    /// The allocation behind this code passed `ra::check` inside `allocate_spilling` (the
    /// colouring check sees only the graph and the registers it chose, which the corruption
    /// leaves as they are). Moving a write above the last read of its register's previous
    /// value, as a post-allocation scheduler ignoring a write-after-read dependency would,
    /// keeps every register of the allocation: the value check finds the read that lost its
    /// value and names it.
    #[test]
    fn a_write_scheduled_above_a_read_of_its_register_is_rejected() {
        let (virt, fin, order, reserved, grfs) = final_code();
        assert_eq!(check(&virt, &fin, Some(&order), reserved, grfs), Ok(()));
        // The first instruction `r` whose source GRF is overwritten later in the same block
        // (no flow in between) by an unpredicated instruction `w` with no source written in
        // r..w: moving `w` to just before `r` changes nothing else.
        let unit_of = |r: &Reg| r.nr + r.offset / REG_SIZE;
        let mut found = None;
        'search: for r in 0..fin.insts.len() {
            for w in r + 1..fin.insts.len() {
                let wi = &fin.insts[w];
                if wi.op.is_flow() || fin.insts[r].op.is_flow() {
                    break;
                }
                let written = |i: &Inst| (i.dst.file == File::Fixed).then(|| unit_of(&i.dst));
                let sources_ready = wi.src.iter().all(|s| {
                    s.file != File::Fixed
                        || (r..w).all(|k| written(&fin.insts[k]) != Some(unit_of(s)))
                });
                let reads_dst = fin.insts[r]
                    .src
                    .iter()
                    .any(|s| s.file == File::Fixed && Some(unit_of(s)) == written(wi));
                if reads_dst && wi.pred.is_none() && sources_ready && !wi.op.is_send() {
                    found = Some((r, w));
                    break 'search;
                }
            }
        }
        let (r, w) = found.expect("the program reuses a register within a block");
        let mut bad = fin.clone();
        let mut bad_order = order.clone();
        let moved = bad.insts.remove(w);
        bad.insts.insert(r, moved);
        let o = bad_order.remove(w);
        bad_order.insert(r, o);
        let err = check(&virt, &bad, Some(&bad_order), reserved, grfs).unwrap_err();
        let reg = unit_of(&bad.insts[r].dst);
        assert!(
            err.starts_with(&format!("ip {} ", r + 1))
                && err.contains(&format!(" from g{reg}, which holds "))
                && err.ends_with(&format!("(written at ip {r})")),
            "{err}"
        );
    }

    /// Width splitting after allocation: a SIMD16 instruction split into halves whose first
    /// half writes the register its second half still reads. A graph that lets a
    /// destination start where a source ends (Mesa's does, and adds an edge for compressed
    /// instructions for exactly this reason) accepts such an allocation; the value check
    /// needs no graph to find it, since the halves run one after the other.
    #[test]
    fn a_split_half_overwriting_its_sibling_source_is_rejected() {
        let mut p = Program::default();
        let [a, b] = [(); 2].map(|_| p.alloc(2));
        let one = Reg::imm(RegType::F, 1.0f32.to_bits());
        p.insts
            .push(Inst::new(Op::Alu(Opcode::Mov), 16, v(a), vec![one]));
        p.insts
            .push(Inst::new(Op::Alu(Opcode::Mov), 16, v(b), vec![v(a)]));
        p.insts.push(Inst::new(
            Op::Alu(Opcode::Mov),
            16,
            Reg::null(RegType::F),
            vec![v(b)],
        ));
        crate::intel::fs::lower::split_to(&mut p, &[8, 8, 8]);
        // a at g10-11, b at g11-12: the first half of the copy writes g11, a's second half.
        let err = check_at(&p, &[10, 11], 2, 128).unwrap_err();
        assert_eq!(
            err,
            "ip 3 (Alu(Mov)) operand 0 reads vgrf0 reg 1 from g11, which holds vgrf1 reg 0 \
             (written at ip 2)"
        );
        // b at g9-10 instead: the first half overwrites a's first half, already read.
        assert_eq!(check_at(&p, &[10, 9], 2, 128), Ok(()));
    }
}
