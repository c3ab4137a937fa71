//! Vectors that share their sources, gathered into one register the vectors alias.
//!
//! `vec2(a.x, b.x)` and `vec2(a.y, b.y)` (the weights of a bilinear filter, say) are each
//! two MOVs after translation, since `a` and `b` have other uses than one vector and cannot
//! be computed into it (see `from_nir::coalesce`). When the sources together have at most
//! four components, they can instead be computed into one new value `w` side by side (`a`
//! in `w.xy`, `b` in `w.zw`), and every vector built from them is then a swizzle of `w`
//! (`w.xz`, `w.yw`): its MOVs go, and its readers read `w`.
//!
//! A *build* is an ordinary value written only by plain MOVs of ordinary values, each
//! component once. A source can be packed when it is an ordinary value written in one
//! stretch before the MOVs that read it, and is not itself a build. Builds and their
//! sources form groups (a source shared by two builds joins them); a group whose sources
//! fit one register is packed. The sources' other readers read `w` too; since nothing else
//! writes `w`, every component keeps its value from where it was computed on, and a build
//! read after its MOVs (as every read of an SSA value is) finds the same bits there.

use super::{remove_items, Facts};
use crate::etnaviv::compiler::ir::{
    Item, Operand, OperandKind, Program, Shape, ValueId, ValueKind,
};
use crate::etnaviv::isa::{DataType, Opcode};

/// Packs every group it can; returns whether it packed any.
pub fn pack_shared_sources(p: &mut Program) -> bool {
    let mut progress = false;
    while pack_one(p) {
        progress = true;
    }
    progress
}

/// A plain MOV of a value: its destination, mask and source operand.
fn plain_mov(item: &Item) -> Option<(ValueId, u8, Operand, ValueId)> {
    let Item::Instr(i) = item else { return None };
    let (Opcode::Mov, false, DataType::F32, Shape::Aligned, Some((d, m)), Some(op), 0) =
        (i.op, i.sat, i.ty, i.shape, i.dst, i.src[2], i.addr_mask)
    else {
        return None;
    };
    match op.kind {
        OperandKind::Value(s) if !op.neg && !op.abs => Some((d, m, op, s)),
        _ => None,
    }
}

/// Whether `v` is a build: an ordinary value whose writes are plain MOVs of values, in one
/// stretch, covering each of its components exactly once.
fn is_build(p: &Program, f: &Facts, v: ValueId) -> bool {
    let val = p.values[v.index()];
    if val.kind != ValueKind::Temp || !f.written_in_one_stretch(v) {
        return false;
    }
    let mut covered = 0u8;
    for &at in &f.defs[v.index()] {
        let Some((_, m, _, _)) = plain_mov(&p.items[at]) else {
            return false;
        };
        if covered & m != 0 {
            return false;
        }
        covered |= m;
    }
    covered == (1u8 << val.width) - 1
}

/// Whether `s` can be computed into a packed register.
fn packable(p: &Program, f: &Facts, s: ValueId) -> bool {
    p.values[s.index()].kind == ValueKind::Temp
        && f.written_in_one_stretch(s)
        && !is_build(p, f, s)
        && f.defs[s.index()].iter().all(|&at| {
            matches!(&p.items[at], Item::Instr(i) if i.op != Opcode::Load && i.addr_mask == 0)
        })
}

/// One group, packed: the builds and their sources in order of first write.
struct Group {
    builds: Vec<ValueId>,
    sources: Vec<ValueId>,
}

fn find(p: &Program, f: &Facts) -> Option<Group> {
    let n = p.values.len();
    // Builds whose every source is packable, each with its sources.
    let mut sources_of: Vec<Option<Vec<ValueId>>> = vec![None; n];
    for v in (0..n).map(|i| ValueId(i as u32)) {
        if !is_build(p, f, v) {
            continue;
        }
        let mut srcs: Vec<ValueId> = Vec::new();
        let ok = f.defs[v.index()].iter().all(|&at| {
            let Some((_, _, _, s)) = plain_mov(&p.items[at]) else {
                return false;
            };
            if !srcs.contains(&s) {
                srcs.push(s);
            }
            packable(p, f, s) && f.defs[s.index()].iter().all(|&d| d < at)
        });
        if ok {
            sources_of[v.index()] = Some(srcs);
        }
    }
    // Grow a group from each build in turn, through shared sources.
    for start in 0..n {
        if sources_of[start].is_none() {
            continue;
        }
        let mut group = Group {
            builds: vec![ValueId(start as u32)],
            sources: Vec::new(),
        };
        let mut k = 0;
        while k < group.builds.len() {
            let b = group.builds[k];
            for &s in sources_of[b.index()].iter().flatten() {
                if group.sources.contains(&s) {
                    continue;
                }
                group.sources.push(s);
                for (other, srcs) in sources_of.iter().enumerate() {
                    let other = ValueId(other as u32);
                    if srcs.as_ref().is_some_and(|x| x.contains(&s))
                        && !group.builds.contains(&other)
                    {
                        group.builds.push(other);
                    }
                }
            }
            k += 1;
        }
        let width: u32 = group
            .sources
            .iter()
            .map(|s| u32::from(p.values[s.index()].width))
            .sum();
        if width <= 4 {
            group.sources.sort_by_key(|s| f.defs[s.index()][0]);
            return Some(group);
        }
    }
    None
}

fn pack_one(p: &mut Program) -> bool {
    let f = Facts::of(p);
    let Some(group) = find(p, &f) else {
        return false;
    };
    let width: u8 = group
        .sources
        .iter()
        .map(|s| p.values[s.index()].width)
        .sum();
    let w = p.new_value(width, ValueKind::Temp);
    // Where each source starts in `w`.
    let mut offset = vec![None; p.values.len()];
    let mut o = 0u8;
    for &s in &group.sources {
        offset[s.index()] = Some(o);
        o += p.values[s.index()].width;
    }
    // Per build, the component of `w` each of its components is.
    let mut alias: Vec<Option<[u8; 4]>> = vec![None; p.values.len()];
    let mut dead = Vec::new();
    for &b in &group.builds {
        let mut comps = [0u8; 4];
        for &at in &f.defs[b.index()] {
            let (_, m, op, s) = plain_mov(&p.items[at]).expect("a build");
            let base = offset[s.index()].expect("a source of the group");
            for c in (0..4).filter(|c| m & (1 << c) != 0) {
                comps[c] = base + op.swz[c];
            }
            dead.push(at);
        }
        let last = p.values[b.index()].width as usize - 1;
        for c in last + 1..4 {
            comps[c] = comps[last];
        }
        alias[b.index()] = Some(comps);
    }
    for &s in &group.sources {
        let base = offset[s.index()].unwrap_or(0);
        let sw = p.values[s.index()].width;
        let mut map = [0u8; 4];
        for (j, m) in map.iter_mut().enumerate().take(sw as usize) {
            *m = 1 << (base as usize + j);
        }
        for &at in &f.defs[s.index()] {
            if let Item::Instr(ins) = &mut p.items[at] {
                ins.retarget(w, map);
            }
        }
    }
    // Reads of the sources and of the builds now read `w`.
    for item in &mut p.items {
        let Item::Instr(ins) = item else { continue };
        for op in ins.src.iter_mut().flatten() {
            let OperandKind::Value(v) = op.kind else {
                continue;
            };
            if let Some(base) = offset[v.index()] {
                op.kind = OperandKind::Value(w);
                op.swz = op.swz.map(|c| (base + c).min(width - 1));
            } else if let Some(comps) = alias[v.index()] {
                op.kind = OperandKind::Value(w);
                op.swz = op.swz.map(|c| comps[c as usize & 3]);
            }
        }
    }
    remove_items(p, dead);
    true
}
