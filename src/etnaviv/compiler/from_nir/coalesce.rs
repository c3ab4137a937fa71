//! `vecN` sources whose instructions are retargeted to write straight into the vector,
//! saving a MOV per source. Kept apart from [`super::alu`] because it rewrites already
//! emitted instructions rather than emit new ones, and its conditions are the subtle part.
//! (`mov`/`fneg`/`fabs` cost no instruction either: see [`super::source_mods`].)

use super::{Binding, Tr};
use crate::etnaviv::compiler::ir::{Item, OperandKind, Shape, ValueId, ValueKind};
use crate::etnaviv::isa::Opcode;
use crate::nir::ir::SsaId;

impl Tr<'_> {
    /// Makes the instructions that compute `src` write straight into the components `mask`
    /// of `d` (channel `k` of the vector reading `src.comps[k]`), instead of a MOV per
    /// source, when `src` is an ordinary value used only here, computed in the current
    /// straight-line stretch, each of its components going to exactly one channel.
    pub(super) fn write_into(&mut self, src: SsaId, d: ValueId, mask: u8, comps: [u8; 4]) -> bool {
        let Some(Some(Binding::Src {
            kind: OperandKind::Value(v),
            swz: [0, 1, 2, 3],
            neg: false,
            abs: false,
        })) = self.bind.get(src.0 as usize).cloned()
        else {
            return false;
        };
        let width = self.p.values[v.index()].width;
        if self.uses.get(src.0 as usize) != Some(&1)
            || self.phi_values.contains(&v)
            || self.p.values[v.index()].kind != ValueKind::Temp
        {
            return false;
        }
        // map[j]: the vector channel value component j goes to.
        let mut map = [None::<usize>; 4];
        for k in (0..4).filter(|k| mask & (1 << k) != 0) {
            let j = comps[k] as usize;
            if j >= width as usize || map[j].is_some() {
                return false;
            }
            map[j] = Some(k);
        }
        if map[..width as usize].iter().any(|m| m.is_none()) {
            return false;
        }
        // The definitions must all follow the last label or branch.
        let tail_start = self
            .p
            .items
            .iter()
            .rposition(|it| match it {
                Item::Label(_) => true,
                Item::Instr(i) => i.target.is_some() || i.op == Opcode::Texkill,
            })
            .map_or(0, |i| i + 1);
        let defines = |it: &Item| matches!(it, Item::Instr(i) if i.dst.is_some_and(|x| x.0 == v));
        let reads = |it: &Item| matches!(it, Item::Instr(i) if i.src.iter().flatten().any(|o| o.kind == OperandKind::Value(v)));
        if self.p.items[..tail_start]
            .iter()
            .any(|it| defines(it) || reads(it))
            || self.p.items[tail_start..].iter().any(|it| {
                reads(it)
                    || matches!(it, Item::Instr(i) if defines(it)
                        && (i.shape == Shape::Texture || i.op == Opcode::Load))
            })
        {
            return false;
        }
        for it in &mut self.p.items[tail_start..] {
            let Item::Instr(ins) = it else { continue };
            let Some((dv, m)) = ins.dst else { continue };
            if dv != v {
                continue;
            }
            let mut nm = 0u8;
            for j in (0..4).filter(|j| m & (1 << j) != 0) {
                if let Some(k) = map[j] {
                    nm |= 1 << k;
                }
            }
            if ins.shape == Shape::Aligned {
                for op in ins.src.iter_mut().flatten() {
                    let old = *op;
                    let first = (0..4).find(|j| m & (1 << j) != 0).unwrap_or(0);
                    for c in 0..4 {
                        // Channel c of the vector takes what value channel j read.
                        let j = (0..4)
                            .find(|&j| m & (1 << j) != 0 && map[j] == Some(c))
                            .unwrap_or(first);
                        op.swz[c] = old.swz[j];
                        if let (OperandKind::Const(nv), OperandKind::Const(ov)) =
                            (&mut op.kind, old.kind)
                        {
                            nv[c] = ov[j];
                        }
                    }
                }
            }
            ins.dst = Some((d, nm));
        }
        true
    }
}
