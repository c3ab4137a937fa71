//! Redundant flag writes: `mov.nz null, X` when the flag already holds `X != 0`.
//!
//! NIR booleans are 0/~0 values, so every `bcsel` becomes a `mov.nz` that reloads the flag
//! from a boolean right before a predicated SEL, even when the CMP that produced the boolean
//! (and set the same flag) is the previous instruction, or an identical `mov.nz` just ran for
//! another component. Within a basic block this pass tracks which booleans the flag bits
//! currently reflect and drops the reloads that would write the same bits again.

use crate::intel::eu::{CondMod, Opcode};

use crate::intel::fs::ir::{File, Inst, Op, Program, Reg};

/// The flag bits of `flag_subnr` for channels `group..group + exec_size` equal `value != 0`.
#[derive(Debug, Clone, Copy)]
struct Known {
    flag_subnr: u8,
    group: u8,
    exec_size: u8,
    value: Reg,
}

/// A whole-register, unmodified 32-bit integer reading of a VGRF: what a boolean's flag
/// reload reads.
pub(super) fn is_int_dword(r: &Reg) -> bool {
    r.file == File::Vgrf
        && !r.ty.is_float()
        && r.ty.size() == 4
        && r.stride == 1
        && r.region.is_none()
        && !r.neg
        && !r.abs
}

/// `mov.nz null, X`: the boolean it loads into the flag.
fn flag_load(inst: &Inst) -> Option<Reg> {
    let ok = inst.op == Op::Alu(Opcode::Mov)
        && inst.cmod == CondMod::Nz
        && inst.pred.is_none()
        && !inst.sat
        && inst.dst.file == File::Null
        && inst.src.len() == 1
        && is_int_dword(&inst.src[0]);
    ok.then(|| inst.src[0])
}

/// The boolean whose non-zero-ness the flag holds after `inst`, if it is known.
fn known_after(inst: &Inst) -> Option<Reg> {
    if let Some(v) = flag_load(inst) {
        return Some(v);
    }
    // An integer CMP writes ~0 where its condition holds and 0 elsewhere, and the same
    // condition into the flag.
    let cmp = inst.op == Op::Alu(Opcode::Cmp)
        && inst.cmod != CondMod::None
        && inst.pred.is_none()
        && !inst.sat
        && is_int_dword(&inst.dst);
    cmp.then_some(inst.dst)
}

fn same_channels(a: &Known, inst: &Inst) -> bool {
    a.flag_subnr == inst.flag_subnr && a.group == inst.group && a.exec_size == inst.exec_size
}

fn channels_overlap(a: &Known, inst: &Inst) -> bool {
    let (a0, a1) = (a.group as u32, a.group as u32 + a.exec_size as u32);
    let (b0, b1) = (inst.group as u32, inst.group as u32 + inst.exec_size as u32);
    a.flag_subnr == inst.flag_subnr && a0 < b1 && b0 < a1
}

/// Removes flag reloads the flag already holds; returns whether any went.
pub fn remove_redundant_flag_writes(prog: &mut Program) -> bool {
    let mut known: Vec<Known> = Vec::new();
    let mut remove = vec![false; prog.insts.len()];
    for (ip, inst) in prog.insts.iter().enumerate() {
        if inst.op.is_flow() {
            known.clear();
            continue;
        }
        if let Some(v) = flag_load(inst) {
            if !inst.we_all && known.iter().any(|k| same_channels(k, inst) && k.value == v) {
                remove[ip] = true;
                continue;
            }
        }
        if inst.cmod != CondMod::None {
            known.retain(|k| !channels_overlap(k, inst));
        }
        if inst.dst.file == File::Vgrf {
            known.retain(|k| k.value.nr != inst.dst.nr);
        }
        if inst.cmod != CondMod::None && !inst.we_all {
            if let Some(value) = known_after(inst) {
                known.push(Known {
                    flag_subnr: inst.flag_subnr,
                    group: inst.group,
                    exec_size: inst.exec_size,
                    value,
                });
            }
        }
    }
    if !remove.contains(&true) {
        return false;
    }
    let mut ip = 0;
    prog.insts.retain(|_| {
        ip += 1;
        !remove[ip - 1]
    });
    true
}

#[cfg(test)]
mod tests {
    use super::super::testing;
    use super::*;
    use crate::intel::eu::RegType;

    fn d(nr: u32) -> Reg {
        Reg::vgrf(nr, RegType::D)
    }

    fn load(v: Reg) -> Inst {
        let mut i = Inst::new(Op::Alu(Opcode::Mov), 8, Reg::null(RegType::D), vec![v]);
        i.cmod = CondMod::Nz;
        i
    }

    fn cmp(dst: Reg) -> Inst {
        let mut i = Inst::new(Op::Alu(Opcode::Cmp), 8, dst, vec![d(0), d(1)]);
        i.cmod = CondMod::Z;
        i
    }

    fn sel(dst: Reg) -> Inst {
        let mut i = Inst::new(Op::Alu(Opcode::Sel), 8, dst, vec![d(0), d(1)]);
        i.pred = Some(false);
        i
    }

    fn run(insts: Vec<Inst>) -> (bool, Vec<Inst>) {
        testing::run(remove_redundant_flag_writes, insts)
    }

    #[test]
    fn reload_after_cmp_and_repeated_reloads_go() {
        // cmp.z v2; mov.nz v2; sel v3; mov.nz v2; sel v4  =>  cmp.z v2; sel v3; sel v4
        let (p, out) = run(vec![
            cmp(d(2)),
            load(d(2)),
            sel(d(3)),
            load(d(2)),
            sel(d(4)),
        ]);
        assert!(p);
        assert_eq!(out, vec![cmp(d(2)), sel(d(3)), sel(d(4))]);
    }

    #[test]
    fn rewritten_boolean_or_other_flag_write_keeps_the_reload() {
        let insts = vec![
            cmp(d(2)),
            Inst::new(Op::Alu(Opcode::Add), 8, d(2), vec![d(0), d(1)]),
            load(d(2)),
        ];
        let (p, _) = run(insts);
        assert!(!p);
        let insts = vec![load(d(2)), cmp(d(5)), load(d(2))];
        let (p, _) = run(insts);
        assert!(!p);
    }

    #[test]
    fn other_channels_or_control_flow_keep_the_reload() {
        let mut hi = load(d(2));
        hi.group = 8;
        let (p, _) = run(vec![load(d(2)), hi]);
        assert!(!p);
        let (p, _) = run(vec![
            load(d(2)),
            Inst::new(Op::EndIf, 8, Reg::BAD, vec![]),
            load(d(2)),
        ]);
        assert!(!p);
    }

    #[test]
    fn float_cmp_result_is_not_a_known_boolean() {
        let mut c = cmp(Reg::vgrf(2, RegType::F));
        c.src = vec![Reg::vgrf(0, RegType::F), Reg::vgrf(1, RegType::F)];
        let (p, _) = run(vec![c, load(d(2))]);
        assert!(!p);
    }
}
