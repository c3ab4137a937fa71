//! Vertex shaders on Gen8+ through the scalar backend, as brw compiles them there: SIMD8,
//! eight vertices per thread, every value one register per component.
//!
//! The thread payload is g0 (header), g1 (the eight vertices' URB handles), the push
//! constants, then the vertex elements the vertex fetcher pushes: four registers per element
//! (x, y, z, w of the eight vertices). Elements are the attributes the shader reads, in
//! `VERT_ATTRIB` order, then one element of draw parameters when the shader reads any of
//! first vertex, base instance, zero-based vertex id or instance id (components 0–3, Mesa's
//! SGVS element), then one with the draw id and the is-indexed flag. NIR from brw's
//! `brw_nir_lower_vs_inputs` already reads those as `load_input` of the element; NIR that
//! still has the system-value intrinsics is given the same elements here.
//!
//! Outputs are gathered per varying and written at the end of the thread into the vertex's
//! URB entry, laid out by the [`VueMap`]: SIMD8 URB write messages of up to two slots each
//! (header register = the URB handles, then one register per component), split where a slot
//! is not written, the last one ending the thread.

use crate::intel::eu::types::sfid;
use crate::intel::eu::{Opcode, RegType};
use crate::intel::kernel::VertexInfo;
use crate::intel::msg::{Lengths, UrbDesc};
use crate::intel::vue;
use crate::nir::{BaseType, IndexKind, Intrinsic, IntrinsicInstr};

use super::super::ir::{File, Op, Reg};
use super::{intrinsic_def, intrinsic_src, unsupported, CompileError, Translator};
use crate::intel::backend::vertex::const_offset;

/// Registers of the vertex-shader thread payload before the push constants: g0 and the URB
/// handles in g1.
pub const VS_PAYLOAD_REGS: u32 = 2;

impl Translator<'_> {
    /// The vertex facts (translation of a vertex shader only).
    fn vs(&self) -> Result<&VertexInfo, CompileError> {
        self.facts
            .vertex
            .as_ref()
            .ok_or_else(|| CompileError::Invalid("vertex input outside a vertex shader".into()))
    }

    /// Component `c` of pushed vertex element `element`: an attribute register the payload
    /// placement resolves (see `assign_payload_files`).
    fn element(&self, element: u32, c: u32, ty: RegType) -> Reg {
        Reg {
            file: File::Attr,
            nr: 4 * element + c,
            ty,
            stride: 1,
            ..Reg::BAD
        }
    }

    /// `load_input` of a vertex shader: components of a pushed element.
    pub(super) fn emit_vs_input(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let off = const_offset(self.imp, i, 0)?;
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        let def = intrinsic_def(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit vertex attributes")));
        }
        let ty = match i.type_index(IndexKind::DestType).map(|t| t.base) {
            Some(BaseType::Int) => RegType::D,
            Some(BaseType::Uint) => RegType::UD,
            _ => RegType::F,
        };
        let element = base.saturating_add(off);
        if element >= self.vs()?.nr_attribute_slots || first + n as u32 > 4 {
            return Err(CompileError::Invalid(format!(
                "load_input of element {element} component {first}..{} outside the pushed \
                 vertex elements",
                first + n as u32
            )));
        }
        let regs = (0..n as u32)
            .map(|c| self.element(element, first + c, ty))
            .collect();
        self.set(def, regs);
        Ok(())
    }

    /// A draw parameter read through its system-value intrinsic.
    pub(super) fn emit_vs_system_value(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let vs = self.vs()?;
        let (element, c) = match i.intrinsic {
            Intrinsic::LoadDrawId => (vs.draw_id_element(), 0),
            Intrinsic::LoadIsIndexedDraw => (vs.draw_id_element(), 1),
            Intrinsic::LoadFirstVertex | Intrinsic::LoadBaseVertex => (vs.draw_params_element(), 0),
            Intrinsic::LoadBaseInstance => (vs.draw_params_element(), 1),
            Intrinsic::LoadVertexIdZeroBase | Intrinsic::LoadVertexId => {
                (vs.draw_params_element(), 2)
            }
            _ => (vs.draw_params_element(), 3),
        };
        let element = element.ok_or_else(|| {
            CompileError::Internal(format!("{} without its element", i.intrinsic.name()))
        })?;
        let mut v = self.element(element, c, RegType::D);
        if i.intrinsic == Intrinsic::LoadVertexId {
            // The vertex fetcher gives the id counted from the draw's first vertex.
            let sum = self.vgrf(RegType::D);
            let first = self.element(element, 0, RegType::D);
            self.alu(Opcode::Add, sum, vec![v, first]);
            v = sum;
        }
        self.set(intrinsic_def(i)?, vec![v]);
        Ok(())
    }

    /// `store_output` of a vertex shader: the value is kept per varying until the URB
    /// writes at the end of the thread.
    pub(super) fn emit_vs_output(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let varying = base.saturating_add(const_offset(self.imp, i, 1)?);
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as usize;
        let mask = i.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u32;
        let val = self.value(intrinsic_src(i, 0)?)?.clone();
        if self.def_info(intrinsic_src(i, 0)?)?.1 != 32 {
            return Err(unsupported("vertex outputs of other than 32-bit data"));
        }
        if !self.vs_outputs.contains_key(&varying) {
            let regs = [(); 4].map(|_| self.vgrf(RegType::UD));
            self.vs_outputs.insert(varying, regs);
        }
        let regs = self.vs_outputs[&varying];
        for (c, v) in val.iter().enumerate() {
            if mask & 1 << c == 0 {
                continue;
            }
            let at = first + c;
            let dst = *regs.get(at).ok_or_else(|| {
                CompileError::Invalid(format!("store_output component {at} of a vec4 slot"))
            })?;
            self.alu(Opcode::Mov, dst.retype(v.ty), vec![*v]);
        }
        Ok(())
    }

    /// The URB writes that end a vertex thread (Mesa's `emit_urb_writes` for the VS).
    pub(super) fn emit_urb_writes(&mut self) -> Result<(), CompileError> {
        let map = match &self.facts.tess_eval {
            Some(tes) => tes.vue_map.clone(),
            None => self.vs()?.vue_map.clone(),
        };
        let outputs = std::mem::take(&mut self.vs_outputs);
        let written = |v: Option<u32>| v.and_then(|v| outputs.get(&v));
        let header_mask = vue::HEADER_VARYINGS;
        let last = (0..map.slots.len())
            .rev()
            .find(|&s| match map.slots[s] {
                Some(vue::VARYING_SLOT_PSIZ) => map.slots_valid & header_mask != 0,
                v => written(v).is_some(),
            })
            .unwrap_or(0);
        let mut sources: Vec<Reg> = Vec::new();
        let mut offset = 0u32;
        let mut any = false;
        for (slot, &varying) in map.slots.iter().enumerate() {
            let mut flush = false;
            match varying {
                Some(vue::VARYING_SLOT_PSIZ) => {
                    if map.slots_valid & header_mask == 0 {
                        offset += 1;
                        continue;
                    }
                    // Header dwords 0–3: shading rate, layer, viewport index, point size;
                    // unwritten ones are zero.
                    let zero = self.vgrf(RegType::UD);
                    self.alu(Opcode::Mov, zero, vec![Reg::imm(RegType::UD, 0)]);
                    for v in [
                        vue::VARYING_SLOT_PRIMITIVE_SHADING_RATE,
                        vue::VARYING_SLOT_LAYER,
                        vue::VARYING_SLOT_VIEWPORT,
                        vue::VARYING_SLOT_PSIZ,
                    ] {
                        sources.push(outputs.get(&v).map_or(zero, |r| r[0]));
                    }
                }
                v => match written(v) {
                    None if sources.is_empty() => {
                        offset += 1;
                        continue;
                    }
                    None => flush = true,
                    Some(regs) => sources.extend(regs.iter().map(|r| r.retype(RegType::F))),
                },
            }
            if sources.len() == 8 || slot == last {
                flush = true;
            }
            if flush && !sources.is_empty() {
                self.urb_write(offset, std::mem::take(&mut sources), slot == last);
                offset = slot as u32 + 1;
                any = true;
            }
        }
        if !any {
            // Nothing written: one slot of undefined data past the header ends the thread
            // (a URB write must carry at least one data register).
            let data = self.vgrf(RegType::UD);
            self.urb_write(1, vec![data], true);
        }
        Ok(())
    }

    /// One SIMD8 URB write of `data` (one register per dword of the slots) at slot `offset`.
    fn urb_write(&mut self, offset: u32, data: Vec<Reg>, eot: bool) {
        let len = data.len() as u32;
        let payload = Reg::vgrf(self.prog.alloc(1 + len), RegType::UD);
        let handles_reg = if self.facts.tess_eval.is_some() {
            super::tes::TES_URB_HANDLES_REG
        } else {
            1
        };
        let handles = Reg::fixed(handles_reg, 0, RegType::UD, 1);
        let lp = self.push(
            Op::LoadPayload,
            payload,
            std::iter::once(handles).chain(data).collect(),
        );
        lp.header_size = 1;
        let mlen = 1 + len;
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.mlen = mlen as u8;
        send.rlen = 0;
        send.sfid = sfid::URB;
        send.desc = urb_simd8_write_desc(offset, mlen);
        send.eot = eot;
    }
}

/// Descriptor of a Gen8 SIMD8 URB write with a header (the URB handles) at `offset` 16-byte
/// slots, without per-slot offsets or channel masks, and no reply.
pub fn urb_simd8_write_desc(offset: u32, mlen: u32) -> u32 {
    UrbDesc {
        len: Lengths::new(mlen, 0, true),
        opcode: UrbDesc::SIMD8_WRITE,
        global_offset: offset,
        ..UrbDesc::default()
    }
    .encode(80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urb_write_descriptors_match_mesa_assembly() {
        // From Mesa's bdw assembly: `send(8) ... 0x8a080017 urb MsgDesc: offset 1 SIMD8
        // write mlen 5 rlen 0 { EOT }` (bit 31 is the EOT bit the encoder adds) and
        // `0x12080017 ... offset 1 ... mlen 9`, `0x8a080037 ... offset 3 ... mlen 5`.
        let eot = |d: u32| crate::intel::msg::with_dword3(80, d, sfid::URB, true);
        assert_eq!(eot(urb_simd8_write_desc(1, 5)), 0x8a08_0017);
        assert_eq!(urb_simd8_write_desc(1, 9), 0x1208_0017);
        assert_eq!(eot(urb_simd8_write_desc(3, 5)), 0x8a08_0037);
    }
}
