//! Vertex attributes, push constants, NIR registers and outputs.
//!
//! Attributes are pushed elements (one payload register each, both vertices interleaved);
//! `load_ubo` at a constant offset reads a pushed vec4 (each distinct 16-byte vec4 pushed
//! once, in order of first use); outputs collect in one register per varying slot for the
//! URB writes at the end of the thread.

use crate::intel::eu::{CondMod, Opcode, RegType};
use crate::nir::{BaseType, IndexKind, Intrinsic, IntrinsicInstr, SsaId};

use super::super::ir::{replicate, Dst, File, Op, Src, XYZW};
use super::{invalid, ty_of, unsupported, CompileError, Tr, Val, MAX_PUSH_VEC4S};

fn src_at(i: &IntrinsicInstr, k: usize) -> Result<SsaId, CompileError> {
    i.srcs
        .get(k)
        .copied()
        .ok_or_else(|| invalid(format!("{} is missing source {k}", i.intrinsic.name())))
}

fn def_of(i: &IntrinsicInstr) -> Result<SsaId, CompileError> {
    i.def
        .ok_or_else(|| invalid(format!("{} has no destination", i.intrinsic.name())))
}

/// The swizzle that moves components `0..n` to channels `first..first + n`.
fn shift_swizzle(first: u32) -> u8 {
    (0..4u32).fold(0u8, |s, ch| {
        s | (ch.saturating_sub(first).min(3) as u8) << (2 * ch)
    })
}

/// Each element `k` of an array of `elems` with the run-time index that selects it
/// (`k - base`), those that fit an i32.
fn element_numbers(base: i64, elems: u32) -> impl Iterator<Item = (u32, i32)> {
    (0..elems).filter_map(move |k| {
        i64::from(k)
            .checked_sub(base)
            .and_then(|w| i32::try_from(w).ok())
            .map(|w| (k, w))
    })
}

impl Tr<'_> {
    pub(super) fn const_u32(&self, id: SsaId) -> Option<u32> {
        self.imp
            .const_value(id)
            .and_then(|v| v.first().copied())
            .map(|v| v as u32)
    }

    pub(super) fn emit_intrinsic(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if self.tcs.is_some() {
            if let Some(r) = self.emit_tcs_intrinsic(i) {
                return r;
            }
        }
        match i.intrinsic {
            Intrinsic::DeclReg => self.emit_decl_reg(i),
            Intrinsic::LoadReg => self.emit_load_reg(i),
            Intrinsic::LoadRegIndirect => self.emit_load_reg_indirect(i),
            Intrinsic::StoreReg | Intrinsic::StoreRegIndirect => self.emit_store_reg(i),
            Intrinsic::LoadInput | Intrinsic::LoadPerVertexInput if self.tes.is_some() => {
                self.emit_tes_input(i)
            }
            Intrinsic::LoadTessCoord if self.tes.is_some() => self.emit_tes_coord(i),
            Intrinsic::LoadPrimitiveId if self.tes.is_some() => self.emit_tes_primitive_id(i),
            Intrinsic::LoadInput => self.emit_load_input(i),
            Intrinsic::StoreOutput => self.emit_store_output(i),
            Intrinsic::LoadUbo => self.emit_load_ubo(i),
            Intrinsic::SsboAtomic => self.emit_ssbo_atomic(i),
            // Geometry intrinsics in any other stage are refused below by name.
            Intrinsic::LoadPerVertexInput if self.gs.is_some() => {
                self.emit_load_per_vertex_input(i)
            }
            Intrinsic::EmitVertexWithCounter if self.gs.is_some() => self.emit_gs_emit_vertex(i),
            Intrinsic::EndPrimitiveWithCounter if self.gs.is_some() => {
                self.emit_gs_end_primitive(i)
            }
            Intrinsic::SetVertexAndPrimitiveCount if self.gs.is_some() => self.emit_gs_set_count(i),
            Intrinsic::LoadPrimitiveId | Intrinsic::LoadInvocationId if self.gs.is_some() => {
                self.emit_gs_system_value(i)
            }
            other => Err(unsupported(format!(
                "intrinsic {} in the vec4 backend",
                other.name()
            ))),
        }
    }

    fn emit_decl_reg(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let bits = i.int_index(IndexKind::BitSize).unwrap_or(32);
        if bits != 32 && bits != 1 {
            return Err(unsupported(format!("{bits}-bit registers")));
        }
        let n = i.int_index(IndexKind::NumComponents).unwrap_or(1);
        if !(1..=4).contains(&n) {
            return Err(unsupported(format!("registers of {n} components")));
        }
        let elems = i.int_index(IndexKind::NumArrayElems).unwrap_or(0).max(1);
        if elems > 64 {
            return Err(unsupported(format!("register arrays of {elems} elements")));
        }
        let first = self.prog.num_vgrfs;
        for _ in 0..elems {
            self.prog.vgrf();
        }
        self.regs.insert(def_of(i)?.0, (first, elems as u32));
        Ok(())
    }

    /// The virtual register of element `base` of the register `i` addresses.
    fn reg_element(&self, i: &IntrinsicInstr, reg_src: usize) -> Result<u32, CompileError> {
        let id = src_at(i, reg_src)?;
        let &(first, elems) = self
            .regs
            .get(&id.0)
            .ok_or_else(|| invalid(format!("%{} is not a register", id.0)))?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0);
        u32::try_from(base)
            .ok()
            .filter(|&b| b < elems)
            .map(|b| first + b)
            .ok_or_else(|| invalid(format!("register element {base} of {elems}")))
    }

    fn emit_load_reg(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if i.intrinsic != Intrinsic::LoadReg || i.srcs.len() > 1 {
            return Err(unsupported("indirect register access"));
        }
        if i.int_index(IndexKind::LegacyFabs).unwrap_or(0) != 0
            || i.int_index(IndexKind::LegacyFneg).unwrap_or(0) != 0
        {
            return Err(unsupported("load_reg with legacy modifiers"));
        }
        let r = self.reg_element(i, 0)?;
        let def = def_of(i)?;
        let d = self.def_dst(def, RegType::UD)?;
        self.push(Op::Alu(Opcode::Mov), d, vec![Src::vgrf(r, RegType::UD)]);
        Ok(())
    }

    fn emit_store_reg(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if i.int_index(IndexKind::LegacyFsat).unwrap_or(0) != 0 {
            return Err(unsupported("store_reg with legacy saturate"));
        }
        if i.intrinsic == Intrinsic::StoreRegIndirect {
            return self.emit_store_reg_indirect(i);
        }
        if i.srcs.len() > 2 {
            return Err(unsupported("indirect register access"));
        }
        let r = self.reg_element(i, 1)?;
        let mask = i.int_index(IndexKind::WriteMask).unwrap_or(1) as u8 & 0xf;
        let v = src_at(i, 0)?;
        let s = self.value_src(v, RegType::UD)?;
        self.push(
            Op::Alu(Opcode::Mov),
            Dst::vgrf(r, RegType::UD, mask),
            vec![s],
        );
        Ok(())
    }

    /// `store_reg_indirect`: the array element is chosen per vertex at run time. Register
    /// arrays are a handful of vec4s here (the corpus's largest has sixteen), so rather than
    /// relative addressing each element gets a compare of the index against its number and a
    /// move predicated on that compare: the two vertices of a SIMD4x2 thread may pick different
    /// elements, and the per-channel flag keeps each vertex's write to its own element.
    fn emit_store_reg_indirect(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let (first, elems) = self.reg_array(i, 1)?;
        let mask = i.int_index(IndexKind::WriteMask).unwrap_or(1) as u8 & 0xf;
        let v = src_at(i, 0)?;
        let value = self.value_src(v, RegType::UD)?;
        let index = self.reg_index(i, 2)?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0);
        for (k, want) in element_numbers(base, elems) {
            self.select_element(index, want);
            self.push(
                Op::Alu(Opcode::Mov),
                Dst::vgrf(first + k, RegType::UD, mask),
                vec![value],
            )
            .pred = Some(false);
        }
        Ok(())
    }

    /// `load_reg_indirect`, the read `emit_store_reg_indirect` mirrors: per element a compare
    /// of the run-time index and a move predicated on it, so each vertex of the pair reads
    /// its own element. Mesa moves such arrays to scratch memory instead
    /// (`move_grf_array_access_to_scratch`); for arrays of a few registers the compares
    /// are cheaper than a scratch message per access. An index outside the array reads
    /// nothing defined, as in NIR.
    fn emit_load_reg_indirect(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if i.int_index(IndexKind::LegacyFabs).unwrap_or(0) != 0
            || i.int_index(IndexKind::LegacyFneg).unwrap_or(0) != 0
        {
            return Err(unsupported("load_reg_indirect with legacy modifiers"));
        }
        let (first, elems) = self.reg_array(i, 0)?;
        let index = self.reg_index(i, 1)?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0);
        let d = self.def_dst(def_of(i)?, RegType::UD)?;
        for (k, want) in element_numbers(base, elems) {
            self.select_element(index, want);
            self.push(
                Op::Alu(Opcode::Mov),
                d,
                vec![Src::vgrf(first + k, RegType::UD)],
            )
            .pred = Some(false);
        }
        Ok(())
    }

    /// The first virtual register and element count of the register array source `k`
    /// of `i` names.
    fn reg_array(&self, i: &IntrinsicInstr, k: usize) -> Result<(u32, u32), CompileError> {
        let id = src_at(i, k)?;
        self.regs
            .get(&id.0)
            .copied()
            .ok_or_else(|| invalid(format!("%{} is not a register", id.0)))
    }

    /// The run-time element index, source `k` of `i`, in a register.
    fn reg_index(&mut self, i: &IntrinsicInstr, k: usize) -> Result<Src, CompileError> {
        let off = src_at(i, k)?;
        let index = self.value_src(off, RegType::D)?;
        Ok(self.in_grf(index))
    }

    /// Sets the flag where `index` (x of each vertex's half) equals `want`.
    fn select_element(&mut self, index: Src, want: i32) {
        self.push(
            Op::Alu(Opcode::Cmp),
            Dst::null(RegType::D),
            vec![index, Src::imm(RegType::D, want as u32)],
        )
        .cmod = CondMod::Z;
    }

    fn emit_load_input(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let off = self
            .const_u32(src_at(i, 0)?)
            .ok_or_else(|| unsupported("load_input with an indirect slot"))?;
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        let def = def_of(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit vertex attributes")));
        }
        let element = base.saturating_add(off);
        if element >= self.facts.vertex.nr_attribute_slots || first + n as u32 > 4 {
            return Err(invalid(format!(
                "load_input of element {element} component {first}..{} outside the pushed \
                 vertex elements",
                first + n as u32
            )));
        }
        let ty = match i.type_index(IndexKind::DestType).map(|t| t.base) {
            Some(b) => ty_of(b),
            None => RegType::F,
        };
        // Channel c of the value reads component first + c of the element.
        let swizzle = (0..4u32).fold(0u8, |s, ch| s | ((first + ch).min(3) as u8) << (2 * ch));
        let src = Src {
            swizzle,
            ..Src::reg(File::Attr, element, ty)
        };
        self.set(def, Val::Reg(src))
    }

    fn emit_load_ubo(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let Some(block) = self.const_u32(src_at(i, 0)?) else {
            return self.emit_indexed_ubo(i);
        };
        let last = 255 - self.facts.ubo_surface_base;
        if block > last {
            return Err(unsupported(format!("UBO block index {block} over {last}")));
        }
        let def = def_of(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported("load_ubo of non-32-bit data"));
        }
        let Some(offset) = self.const_u32(src_at(i, 1)?) else {
            // A run-time offset: the 16 bytes from it, per vertex.
            let off = self.value_src(src_at(i, 1)?, RegType::UD)?;
            return self.pull_load(def, block, off.swizzled(0), 0, None);
        };
        if offset % 4 != 0 {
            return Err(unsupported("load_ubo of non-dword data"));
        }
        let first = (offset % 16) / 4;
        if first + n as u32 > 4 {
            return Err(unsupported("load_ubo crossing a vec4 boundary"));
        }
        let key = (block, offset & !15);
        let next = self.facts.push.len() as u32;
        let slot = match self.push_index.get(&key) {
            Some(&s) => s,
            None if self.push_fixed || next >= MAX_PUSH_VEC4S => {
                return self.pull_load(
                    def,
                    block,
                    Src::imm(RegType::UD, offset & !15),
                    first,
                    None,
                );
            }
            None => {
                self.push_index.insert(key, next);
                self.facts.push.push(key);
                next
            }
        };
        let swizzle = (0..4u32).fold(0u8, |s, ch| s | ((first + ch).min(3) as u8) << (2 * ch));
        let ty = match i.type_index(IndexKind::DestType).map(|t| t.base) {
            Some(BaseType::Float) | None => RegType::F,
            Some(b) => ty_of(b),
        };
        self.set(
            def,
            Val::Reg(Src {
                swizzle,
                ..Src::reg(File::Uniform, slot, ty)
            }),
        )
    }

    /// `load_ubo` of an element of a UBO array at a run-time block index (dynamically
    /// uniform, as GLSL requires): the index plus the first UBO's binding-table entry, taken
    /// from a vertex that runs (Mesa's `emit_uniformize`), into the pull load's descriptor.
    /// Any block the shader declares (`num_ubos`) may be read, so every one is pulled.
    fn emit_indexed_ubo(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if self.num_ubos == 0 {
            return Err(invalid(
                "load_ubo with a run-time block index in a shader declaring no UBO (num_ubos)",
            ));
        }
        let last = 255 - self.facts.ubo_surface_base;
        if self.num_ubos - 1 > last {
            return Err(unsupported(format!(
                "UBO block index {} over {last}",
                self.num_ubos - 1
            )));
        }
        let def = def_of(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported("load_ubo of non-32-bit data"));
        }
        let index = self
            .value_src(src_at(i, 0)?, RegType::UD)?
            .swizzled(replicate(0));
        let index = self.in_grf(index);
        let base = Src::imm(RegType::UD, self.facts.ubo_surface_base);
        let surface = self.prog.vgrf();
        self.push(
            Op::Alu(Opcode::Add),
            Dst::vgrf(surface, RegType::UD, 1),
            vec![index, base],
        );
        let surface = self.uniformize(Src::vgrf(surface, RegType::UD).swizzled(replicate(0)));
        for b in 0..self.num_ubos {
            if !self.facts.pull_blocks.contains(&b) {
                self.facts.pull_blocks.push(b);
            }
        }
        let (offset, first) = match self.const_u32(src_at(i, 1)?) {
            Some(offset) if offset % 4 != 0 => {
                return Err(unsupported("load_ubo of non-dword data"));
            }
            Some(offset) => (Src::imm(RegType::UD, offset & !15), (offset % 16) / 4),
            None => (self.value_src(src_at(i, 1)?, RegType::UD)?.swizzled(0), 0),
        };
        if first + n as u32 > 4 {
            return Err(unsupported("load_ubo crossing a vec4 boundary"));
        }
        self.pull_load(def, 0, offset, first, Some(surface))
    }

    /// A pull-constant load of block `block` at byte offset `offset` (a register's x or an
    /// immediate), the value's components starting at component `first` of the 16 bytes;
    /// with `index`, of the binding-table entry in its x (first half) instead.
    fn pull_load(
        &mut self,
        def: SsaId,
        block: u32,
        offset: Src,
        first: u32,
        index: Option<Src>,
    ) -> Result<(), CompileError> {
        // The message is the offset register itself: x of each vertex's half.
        let msg = self.prog.vgrf();
        self.push(
            Op::Alu(Opcode::Mov),
            Dst::vgrf(msg, RegType::UD, 1),
            vec![offset],
        );
        let r = self.prog.vgrf();
        self.push(
            Op::PullLoad {
                surface: if index.is_some() {
                    0
                } else {
                    self.facts.ubo_surface_base + block
                },
                indexed: index.is_some(),
            },
            Dst::vgrf(r, RegType::F, 0xf),
            std::iter::once(Src::vgrf(msg, RegType::UD))
                .chain(index)
                .collect(),
        );
        if index.is_none() && !self.facts.pull_blocks.contains(&block) {
            self.facts.pull_blocks.push(block);
        }
        let swizzle = (0..4u32).fold(0u8, |s, ch| s | ((first + ch).min(3) as u8) << (2 * ch));
        self.set(
            def,
            Val::Reg(Src {
                swizzle,
                ..Src::vgrf(r, RegType::F)
            }),
        )
    }

    fn emit_store_output(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let off = self
            .const_u32(src_at(i, 1)?)
            .ok_or_else(|| unsupported("store_output with an indirect slot"))?;
        let slot = base.saturating_add(off);
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        if first > 3 {
            return Err(invalid(format!("store_output component {first}")));
        }
        let wrmask = i.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u32;
        let mask = ((wrmask << first) & 0xf) as u8;
        let v = src_at(i, 0)?;
        let (_, bits) = self.def_info(v)?;
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit outputs")));
        }
        let reg = match self.facts.outputs.get(&slot) {
            Some(&r) => r,
            None => {
                let r = self.prog.vgrf();
                self.facts.outputs.insert(slot, r);
                r
            }
        };
        *self.facts.output_masks.entry(slot).or_default() |= mask;
        let s = self.value_src(v, RegType::UD)?;
        let s = s.swizzled(shift_swizzle(first));
        let _ = XYZW;
        self.push(
            Op::Alu(Opcode::Mov),
            Dst::vgrf(reg, RegType::UD, mask),
            vec![s],
        );
        Ok(())
    }
}
