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
    ///
    /// With `shared`, `src` may have uses besides the vector's when the vector keeps every
    /// component of it: those uses then read the vector's channels instead (the ones already
    /// translated are rewritten, later ones through the binding), so the value lives in the
    /// vector from its definition on and needs no copy. The caller asks for this only where
    /// the vector is a fresh value, so nothing else writes the channels it takes.
    pub(super) fn write_into(
        &mut self,
        src: SsaId,
        uses: u32,
        d: ValueId,
        mask: u8,
        comps: [u8; 4],
        shared: bool,
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
        let exclusive = self.uses.get(src.0 as usize) == Some(&uses);
        if !(exclusive || shared)
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
        // Other readers need every component kept.
        if !exclusive && map[..width as usize].contains(&0) {
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
                (exclusive && reads(it))
                    || matches!(it, Item::Instr(i) if defines(it) && i.op == Opcode::Load)
            })
        {
            return false;
        }
        if !exclusive {
            self.read_through(v, d, map, tail_start);
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
    /// Redirects every read of `v` (instructions from `from` on, and the bindings of the defs
    /// that alias it) to the channels of `d` that component `j` of `v` goes to (`map[j]`,
    /// the first of them when several).
    fn read_through(&mut self, v: ValueId, d: ValueId, map: [u8; 4], from: usize) {
        // Components past the value's width (padding in a swizzle) read its first.
        let chan = |j: u8| {
            let m = match map[j as usize & 3] {
                0 => map[0],
                m => m,
            };
            m.trailing_zeros().min(3) as u8
        };
        for it in &mut self.p.items[from..] {
            let Item::Instr(ins) = it else { continue };
            for op in ins.src.iter_mut().flatten() {
                if op.kind == OperandKind::Value(v) {
                    op.kind = OperandKind::Value(d);
                    op.swz = op.swz.map(chan);
                }
            }
        }
        for b in self.bind.iter_mut().flatten() {
            if let Binding::Src { kind, swz, .. } = b {
                if *kind == OperandKind::Value(v) {
                    *kind = OperandKind::Value(d);
                    *swz = swz.map(chan);
                }
            }
        }
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
        self.write_into(src, 1, dst, full, [0, 1, 2, 3], false)
    }
}
