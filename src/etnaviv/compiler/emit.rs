//! From allocated values to hardware instructions.
//!
//! This is where re-swizzling happens. A value component `i` lives in physical component
//! `comps[i]` of its register (the type's component set), so a destination mask over value
//! components becomes the set of those physical components, and each source channel is
//! placed where the hardware reads it: for component-wise instructions, at the physical
//! channel of the destination component it feeds; for dot products, scalar ops, branches and
//! texture coordinates, at its fixed channel. The source component it reads is mapped the
//! same way through the source's own type. Channels nothing reads repeat a used one, the
//! way Mesa prints them (`.xyyy`).

// Component and type indices address several parallel tables at once.
#![allow(clippy::needless_range_loop)]

use super::alloc::Allocation;
use super::consts::{UniformContent, Uniforms};
use super::ir::*;
use super::CompileError;
use crate::etnaviv::isa::{self, Dst, Inst, Opcode, RegGroup, RegSrc, Src, SrcKind, Swizzle, Tex};
use crate::etnaviv::specs::Specs;

/// Removes unconditional branches to the label that immediately follows them; returns
/// whether it removed any.
pub fn drop_trivial_branches(p: &mut Program) -> bool {
    let before = p.items.len();
    let items = std::mem::take(&mut p.items);
    let mut out: Vec<Item> = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        if let Item::Instr(i) = item {
            if let (Some(t), None) = (i.target, i.src[0]) {
                let next_labels = items[k + 1..]
                    .iter()
                    .take_while(|x| matches!(x, Item::Label(_)));
                if next_labels.into_iter().any(|x| *x == Item::Label(t)) {
                    continue;
                }
            }
        }
        out.push(item.clone());
    }
    p.items = out;
    p.items.len() != before
}

/// Turns constants that are the same in every channel read, and fit 20 bits, into inline
/// immediates (HALTI2+ cores): floats whose low 12 mantissa bits are zero, integers within
/// ±2^19. They then need no uniform slot and do not count against the one-const rule.
/// Returns whether any constant became an immediate.
pub fn inline_immediates(p: &mut Program) -> bool {
    let mut progress = false;
    for item in &mut p.items {
        let Item::Instr(ins) = item else { continue };
        if ins.shape == Shape::Texture || ins.target.is_some() {
            continue;
        }
        for slot in 0..3 {
            let used = ins.used_channels(slot);
            let Some(op) = &mut ins.src[slot] else {
                continue;
            };
            let Some(vals) = op.const_bits() else {
                continue;
            };
            if op.neg || op.abs {
                continue;
            }
            let mut read = (0..4).filter(|c| used & (1 << c) != 0).map(|c| vals[c]);
            let Some(v) = read.next() else { continue };
            if read.any(|x| x != v) {
                continue;
            }
            let imm = if ins.ty.is_float() {
                (v & 0xfff == 0).then_some(isa::Imm {
                    ty: isa::ImmType::F20,
                    bits: v >> 12,
                })
            } else {
                let x = v as i32;
                (-(1 << 19)..(1 << 19))
                    .contains(&x)
                    .then(|| isa::Imm::s20(x))
            };
            if let Some(imm) = imm {
                op.kind = OperandKind::Imm(imm);
                progress = true;
            }
        }
    }
    progress
}

/// Physical components of value `v`.
fn comps_of(alloc: &Allocation, v: ValueId) -> Result<Vec<u8>, CompileError> {
    alloc
        .regs
        .get(v.index())
        .copied()
        .flatten()
        .map(|r| r.comps())
        .ok_or_else(|| CompileError::Invalid(format!("value v{} has no register", v.0)))
}

fn base_of(alloc: &Allocation, v: ValueId) -> u8 {
    alloc.regs[v.index()].map_or(0, |r| r.base)
}

/// For each physical channel, the value-space channel that feeds it (None: unused).
pub fn channel_sources(
    ins: &Instr,
    slot: usize,
    alloc: &Allocation,
) -> Result<[Option<usize>; 4], CompileError> {
    let mut map = [None; 4];
    match ins.shape {
        Shape::Aligned => {
            if let Some((d, mask)) = ins.dst {
                let comps = comps_of(alloc, d)?;
                for (j, &pc) in comps.iter().enumerate() {
                    if mask & (1 << j) != 0 {
                        map[pc as usize] = Some(j);
                    }
                }
            }
        }
        _ => {
            let used = ins.used_channels(slot);
            for (c, m) in map.iter_mut().enumerate() {
                if used & (1 << c) != 0 {
                    *m = Some(c);
                }
            }
        }
    }
    Ok(map)
}

fn fill(sw: [Option<u8>; 4]) -> Swizzle {
    let first = sw.iter().flatten().next().copied().unwrap_or(0);
    Swizzle::from_components(sw.map(|c| c.unwrap_or(first) as usize))
}

/// Whether `ins` is a plain MOV that allocation turned into a copy of a register's
/// components onto themselves: a value moved into one that shares its register and
/// component set (a phi copy, a vector build, an output taken over by its source). Such a
/// MOV changes nothing (without modifiers or saturation it copies bits, denormals too) and
/// is not emitted.
pub fn is_self_move(ins: &Instr, alloc: &Allocation) -> Result<bool, CompileError> {
    let (Opcode::Mov, false, Some((d, mask)), [None, None, Some(op)]) =
        (ins.op, ins.sat, ins.dst, ins.src)
    else {
        return Ok(false);
    };
    let OperandKind::Value(v) = op.kind else {
        return Ok(false);
    };
    if op.neg || op.abs || ins.shape != Shape::Aligned || base_of(alloc, d) != base_of(alloc, v) {
        return Ok(false);
    }
    let (dc, vc) = (comps_of(alloc, d)?, comps_of(alloc, v)?);
    Ok((0..dc.len())
        .filter(|j| mask & (1 << j) != 0)
        .all(|j| vc.get(op.swz[j] as usize) == Some(&dc[j])))
}

/// The instructions emission turns into hardware instructions, one each, in order (self-moves
/// and jumps to the next instruction left out), and the instruction index of every label.
pub fn kept_instrs<'a>(
    p: &'a Program,
    alloc: &Allocation,
) -> Result<(Vec<&'a Instr>, Vec<u16>), CompileError> {
    let mut items: Vec<&Item> = Vec::with_capacity(p.items.len());
    for item in &p.items {
        match item {
            Item::Instr(ins) if is_self_move(ins, alloc)? => {}
            _ => items.push(item),
        }
    }
    drop_jumps_to_next(&mut items);
    let mut label_at = vec![0u16; p.labels as usize];
    let mut kept = Vec::new();
    for item in items {
        match item {
            Item::Label(l) => label_at[l.0 as usize] = kept.len() as u16,
            Item::Instr(ins) => kept.push(ins),
        }
    }
    Ok((kept, label_at))
}

/// Emits the program; constants and gathered uniform components are placed in `uniforms` on
/// the way, one slot per instruction (which every core can run; see [`emit_with`]).
pub fn emit(
    p: &Program,
    alloc: &Allocation,
    uniforms: &mut Uniforms,
) -> Result<Vec<Inst>, CompileError> {
    emit_with(p, alloc, uniforms, true)
}

/// [`emit`], with the uniform components an instruction reads from the application's slots
/// left where they are unless `one_const` (the core reads one uniform register per
/// instruction) makes them share a slot.
pub fn emit_with(
    p: &Program,
    alloc: &Allocation,
    uniforms: &mut Uniforms,
    one_const: bool,
) -> Result<Vec<Inst>, CompileError> {
    let (kept, label_at) = kept_instrs(p, alloc)?;
    let mut out = Vec::with_capacity(kept.len().max(1));
    for ins in kept {
        let mut hw = Inst::new(ins.op);
        hw.cond = ins.cond;
        hw.sat = ins.sat;
        hw.ty = ins.ty;
        if let Some(t) = ins.target {
            hw.target = label_at[t.0 as usize];
        }
        if ins.addr_mask != 0 {
            hw.dst = Dst {
                use_: false,
                reg: 0,
                amode: isa::AddrMode::Direct,
                mask: ins.addr_mask,
            };
        }
        if let Some((d, mask)) = ins.dst {
            let comps = comps_of(alloc, d)?;
            let mut m = 0u8;
            let mut tex_sw = [None; 4];
            for (j, &pc) in comps.iter().enumerate() {
                if mask & (1 << j) != 0 {
                    m |= 1 << pc;
                    tex_sw[pc as usize] = Some(ins.tex_swz[j]);
                }
            }
            hw.dst = Dst::temp(base_of(alloc, d), m);
            if ins.shape == Shape::Texture {
                hw.tex = Tex {
                    id: ins.sampler,
                    amode: isa::AddrMode::Direct,
                    swiz: fill(tex_sw),
                };
            }
        }
        // All constants of the instruction go to one slot.
        let mut const_reads: Vec<(usize, usize, UniformContent)> = Vec::new();
        let mut swz: [[Option<u8>; 4]; 3] = [[None; 4]; 3];
        for slot in 0..3 {
            let Some(op) = ins.src[slot] else { continue };
            let map = channel_sources(ins, slot, alloc)?;
            for (pc, j) in map.iter().enumerate() {
                let Some(j) = *j else { continue };
                let comp = op.swz[j];
                swz[slot][pc] = Some(match op.kind {
                    OperandKind::Value(v) => {
                        let c = comps_of(alloc, v)?;
                        *c.get(comp as usize).or(c.last()).unwrap_or(&0)
                    }
                    OperandKind::Fixed(_)
                    | OperandKind::Internal(_)
                    | OperandKind::Uniform(_)
                    | OperandKind::UniformRel(_)
                    | OperandKind::Imm(_) => comp.min(3),
                    OperandKind::Const(vals) => {
                        const_reads.push((slot, pc, vals[j]));
                        0
                    }
                });
            }
        }
        // One slot for all of them when they fit and must share a slot (under the one-const
        // rule, which `one_const` arranged), when a slot already holds them all or when they
        // are all constants; otherwise one per operand, which finds the application's
        // uniforms where they are instead of copying them into a new slot.
        let mut const_slot = [None; 3];
        let mut distinct: Vec<UniformContent> = Vec::new();
        for r in &const_reads {
            if !distinct.contains(&r.2) {
                distinct.push(r.2);
            }
        }
        let together = distinct.len() <= 4
            && (one_const
                || distinct
                    .iter()
                    .all(|c| matches!(c, UniformContent::Const(_)))
                || uniforms.holds(&distinct));
        let groups: Vec<Vec<(usize, usize, UniformContent)>> = if together {
            vec![const_reads.clone()]
        } else {
            (0..3)
                .map(|s| const_reads.iter().filter(|r| r.0 == s).copied().collect())
                .collect()
        };
        for group in groups.iter().filter(|g| !g.is_empty()) {
            let vals: Vec<UniformContent> = group.iter().map(|r| r.2).collect();
            let (slot, comps) = uniforms.place(&vals);
            for (k, r) in group.iter().enumerate() {
                swz[r.0][r.1] = Some(comps[k]);
                const_slot[r.0] = Some(slot);
            }
        }
        for slot in 0..3 {
            let Some(op) = ins.src[slot] else { continue };
            if let OperandKind::Imm(imm) = op.kind {
                hw.src[slot] = Src::imm(imm);
                continue;
            }
            let mut amode = isa::AddrMode::Direct;
            let (group, reg) = match op.kind {
                OperandKind::UniformRel(u) => {
                    amode = isa::AddrMode::AX;
                    (RegGroup::Uniform, u as u16)
                }
                OperandKind::Value(v) => (RegGroup::Temp, u16::from(base_of(alloc, v))),
                OperandKind::Fixed(r) => (RegGroup::Temp, u16::from(r)),
                OperandKind::Internal(r) => (RegGroup::Internal, u16::from(r)),
                OperandKind::Uniform(u) => (RegGroup::Uniform, u as u16),
                OperandKind::Const(_) | OperandKind::Imm(_) => {
                    (RegGroup::Uniform, const_slot[slot].unwrap_or(0) as u16)
                }
            };
            hw.src[slot] = Src {
                use_: true,
                kind: SrcKind::Reg(RegSrc {
                    group,
                    reg,
                    amode,
                    swiz: fill(swz[slot]),
                    neg: op.neg,
                    abs: op.abs,
                }),
            };
        }
        out.push(hw);
    }
    if out.is_empty() {
        out.push(Inst::new(isa::Opcode::Nop));
    }
    Ok(out)
}

/// Removes the unconditional branches that allocation left jumping to the next instruction:
/// an `else` whose copies all became self-moves is empty, and the jump over it goes
/// nowhere. [`drop_trivial_branches`] catches the ones visible before allocation; these
/// appear only once the self-moves are gone. Removing one can make an enclosing one
/// trivial, so it repeats until none is left.
fn drop_jumps_to_next(items: &mut Vec<&Item>) {
    loop {
        let trivial = items.iter().enumerate().position(|(k, item)| {
            let Item::Instr(i) = item else { return false };
            let (Some(t), None) = (i.target, i.src[0]) else {
                return false;
            };
            items[k + 1..]
                .iter()
                .take_while(|x| matches!(x, Item::Label(_)))
                .any(|x| **x == Item::Label(t))
        });
        match trivial {
            Some(k) => {
                items.remove(k);
            }
            None => return,
        }
    }
}

/// Checks the program against the core's limits; returns whether it needs the instruction
/// cache.
pub fn check_limits(
    specs: &Specs,
    fragment: bool,
    code: &[Inst],
    uniforms: &Uniforms,
) -> Result<bool, CompileError> {
    let mem = specs.instruction_memory();
    let needs_icache = mem.has_icache && code.len() > mem.max_instructions as usize;
    if !mem.has_icache && code.len() > mem.max_instructions as usize {
        return Err(CompileError::Limit(format!(
            "{} instructions exceed the {} of {}'s instruction memory",
            code.len(),
            mem.max_instructions,
            specs.name
        )));
    }
    let limits = specs.uniform_limits();
    let max = limits.max_for(fragment);
    if uniforms.slots.len() > max as usize {
        return Err(CompileError::Limit(format!(
            "{} uniform slots exceed the {max} {} allows",
            uniforms.slots.len(),
            specs.name
        )));
    }
    isa::validate_program(specs, code).map_err(|e| {
        CompileError::Invalid(format!("emitted instruction {}: {}", e.index, e.message))
    })?;
    Ok(needs_icache)
}
