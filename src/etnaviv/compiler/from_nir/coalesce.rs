//! `vecN` sources whose instructions are retargeted to write straight into the vector,
//! saving a MOV per source. Kept apart from [`super::alu`] because it rewrites already
//! emitted instructions rather than emit new ones, and its conditions are the subtle part.
//! (`mov`/`fneg`/`fabs` cost no instruction either: see [`super::source_mods`].)

use super::{Binding, Tr};
use crate::etnaviv::compiler::ir::{Item, OperandKind, ValueId, ValueKind};
use crate::etnaviv::isa::Opcode;
use crate::nir::ir::SsaId;

impl Tr<'_> {
    /// Makes the instructions that compute `src` write straight into the components `mask`
    /// of `d` (channel `k` of the vector reading `src.comps[k]`), instead of a MOV per
    /// source, when `src` is an ordinary value used only here (`uses`, the uses of `src` the
    /// caller replaces, are all its NIR uses) and computed in the current
    /// straight-line stretch. Since the vector is its only use, the components of `src` it
    /// does not take are dead and are no longer computed (an instruction left computing
    /// nothing is dropped), and a component it takes into several channels is computed in
    /// each: a component-wise instruction computes it per channel, a broadcast one writes
    /// its one result anywhere, and a texture sample routes the colour component to every
    /// channel that takes it (its texture swizzle).
    pub(super) fn write_into(
        &mut self,
        src: SsaId,
        uses: u32,
        d: ValueId,
        mask: u8,
        comps: [u8; 4],
    ) -> bool {
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
        if self.uses.get(src.0 as usize) != Some(&uses)
            || self.phi_values.contains(&v)
            || self.p.values[v.index()].kind != ValueKind::Temp
        {
            return false;
        }
        // map[j]: the vector channels value component j goes to.
        let mut map = [0u8; 4];
        for k in (0..4).filter(|k| mask & (1 << k) != 0) {
            let j = comps[k] as usize;
            if j >= width as usize {
                return false;
            }
            map[j] |= 1 << k;
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
                reads(it) || matches!(it, Item::Instr(i) if defines(it) && i.op == Opcode::Load)
            })
        {
            return false;
        }
        let mut dead = Vec::new();
        for (at, it) in self.p.items.iter_mut().enumerate().skip(tail_start) {
            let Item::Instr(ins) = it else { continue };
            if ins.dst.is_some_and(|x| x.0 == v) && !ins.retarget(d, map) {
                dead.push(at);
            }
        }
        for at in dead.into_iter().rev() {
            self.p.items.remove(at);
        }
        true
    }
}

impl Tr<'_> {
    /// Has the instructions computing `src` write the phi variable `dst` directly instead
    /// of a copy at the block's end (see [`Tr::write_into`]), when that cannot be observed:
    /// no other copy of the same parallel copy reads `dst`, and nothing reads `dst` from
    /// the first instruction computing `src` on, except that instruction itself when it is
    /// the only one (an instruction reads its sources before it writes).
    pub(super) fn phi_computed_in_place(
        &mut self,
        dst: ValueId,
        src: SsaId,
        copies: &[(ValueId, SsaId)],
    ) -> bool {
        let Some(Some(Binding::Src {
            kind: OperandKind::Value(v),
            ..
        })) = self.bind.get(src.0 as usize).cloned()
        else {
            return false;
        };
        let w = self.p.values[dst.index()].width;
        if v == dst || self.p.values[v.index()].width != w {
            return false;
        }
        let reads_dst = |kind: OperandKind| kind == OperandKind::Value(dst);
        for &(d, s) in copies {
            if d == dst {
                continue;
            }
            match self.bind.get(s.0 as usize) {
                Some(Some(Binding::Src { kind, .. })) if !reads_dst(*kind) => {}
                Some(Some(Binding::Const(_))) => {}
                _ => return false,
            }
        }
        let defines = |it: &Item| matches!(it, Item::Instr(i) if i.dst.is_some_and(|x| x.0 == v));
        let Some(first) = self.p.items.iter().position(defines) else {
            return false;
        };
        let single = self.p.items.iter().filter(|it| defines(it)).count() == 1;
        let read_later = self.p.items[first..].iter().any(|it| {
            let Item::Instr(i) = it else { return false };
            let reads = i.src.iter().flatten().any(|o| reads_dst(o.kind));
            reads && !(single && defines(it))
        });
        if read_later {
            return false;
        }
        let full = (1u8 << w) - 1;
        self.write_into(src, 1, dst, full, [0, 1, 2, 3])
    }
}
