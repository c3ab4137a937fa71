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

use std::collections::BTreeMap;

use crate::intel::eu::types::sfid;
use crate::intel::eu::{Opcode, RegType};
use crate::intel::kernel::VertexInfo;
use crate::intel::msg::{Lengths, UrbDesc};
use crate::intel::vue::{self, VueMap};
use crate::nir::{BaseType, IndexKind, InstrKind, Intrinsic, IntrinsicInstr, Shader};

use super::super::ir::{File, Op, Reg};
use super::{intrinsic_def, intrinsic_src, unsupported, CompileError, Translator};

/// Registers of the vertex-shader thread payload before the push constants: g0 and the URB
/// handles in g1.
pub const VS_PAYLOAD_REGS: u32 = 2;

/// Mesa's `gl_system_value` numbers of the draw parameters (shader_enums.h).
mod sysval {
    pub const INSTANCE_ID: u32 = 10;
    pub const VERTEX_ID_ZERO_BASE: u32 = 12;
    pub const FIRST_VERTEX: u32 = 14;
    pub const IS_INDEXED_DRAW: u32 = 15;
    pub const BASE_INSTANCE: u32 = 16;
    pub const DRAW_ID: u32 = 17;
}

/// The `system_values_read` bit set nir_print writes as hex words (`0x00000000'00005000`),
/// most significant first.
fn system_values_read(shader: &Shader) -> u128 {
    let Some(text) = shader.info.field("system_values_read") else {
        return 0;
    };
    let hex: String = text
        .trim()
        .trim_start_matches("0x")
        .chars()
        .filter(char::is_ascii_hexdigit)
        .collect();
    u128::from_str_radix(&hex, 16).unwrap_or(0)
}

/// The facts of `shader` known before translation: attributes, draw parameters, the VUE map.
pub fn vertex_facts(shader: &Shader) -> Result<VertexInfo, CompileError> {
    let imp = shader
        .entry()
        .ok_or_else(|| CompileError::Invalid("shader has no entry point".into()))?;
    let inputs_read = shader.info.slot_mask("inputs_read").ok_or_else(|| {
        CompileError::Invalid(format!(
            "inputs_read: cannot read '{}'",
            shader.info.field("inputs_read").unwrap_or("")
        ))
    })?;
    let sv = system_values_read(shader);
    let has = |bit: u32| sv >> bit & 1 != 0;
    let mut f = VertexInfo {
        inputs_read,
        uses_first_vertex: has(sysval::FIRST_VERTEX),
        uses_base_instance: has(sysval::BASE_INSTANCE),
        uses_vertex_id: has(sysval::VERTEX_ID_ZERO_BASE),
        uses_instance_id: has(sysval::INSTANCE_ID),
        uses_draw_id: has(sysval::DRAW_ID) || has(sysval::IS_INDEXED_DRAW),
        ..VertexInfo::default()
    };
    // brw_compile_vs's masks: the clip distances first, the cull distances after them.
    let size = |key: &str| {
        shader
            .info
            .field(key)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(0)
            .min(8)
    };
    let (clip, cull) = (
        size("clip_distance_array_size"),
        size("cull_distance_array_size"),
    );
    f.clip_distance_mask = ((1u32 << clip) - 1) as u8;
    f.cull_distance_mask = ((((1u32 << cull) - 1) << clip) & 0xff) as u8;
    let mut written = 0u64;
    let mut highest_element = 0;
    for ins in &imp.instrs {
        let InstrKind::Intrinsic(i) = &ins.kind else {
            continue;
        };
        match i.intrinsic {
            Intrinsic::LoadVertexIdZeroBase => f.uses_vertex_id = true,
            Intrinsic::LoadVertexId => {
                f.uses_vertex_id = true;
                f.uses_first_vertex = true;
            }
            Intrinsic::LoadFirstVertex | Intrinsic::LoadBaseVertex => f.uses_first_vertex = true,
            Intrinsic::LoadBaseInstance => f.uses_base_instance = true,
            Intrinsic::LoadInstanceId => f.uses_instance_id = true,
            Intrinsic::LoadDrawId | Intrinsic::LoadIsIndexedDraw => f.uses_draw_id = true,
            Intrinsic::LoadInput => {
                let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
                let off = const_offset(imp, i, 0)?;
                highest_element = highest_element.max(base.saturating_add(off) + 1);
            }
            Intrinsic::StoreOutput => {
                let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
                let v = base.saturating_add(const_offset(imp, i, 1)?);
                if v >= 64 {
                    return Err(unsupported(format!("vertex output in varying slot {v}")));
                }
                written |= 1 << v;
            }
            _ => {}
        }
    }
    let pushed =
        inputs_read.count_ones() + f.draw_params_element().is_some() as u32 + f.uses_draw_id as u32;
    // Vertex elements are at most 33 (32 attributes and the system-value element); an
    // element read beyond what the header declares is pushed too.
    f.nr_attribute_slots = pushed.max(highest_element);
    if f.nr_attribute_slots > 33 {
        return Err(unsupported(format!(
            "{} vertex elements (the vertex fetcher pushes at most 33)",
            f.nr_attribute_slots
        )));
    }
    let separate = shader.info.field("separate_shader") == Some("true");
    let declared = shader.info.slot_mask("outputs_written").unwrap_or(0);
    f.vue_map = VueMap::new(declared | written, separate);
    Ok(f)
}

/// The constant value of source `k` of `i` (the indirect slot offset of an I/O intrinsic).
fn const_offset(imp: &crate::nir::Impl, i: &IntrinsicInstr, k: usize) -> Result<u32, CompileError> {
    let id = intrinsic_src(i, k)?;
    imp.const_value(id)
        .and_then(|v| v.first().copied())
        .map(|v| v as u32)
        .ok_or_else(|| unsupported(format!("{} with an indirect slot", i.intrinsic.name())))
}

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
        let map = self.vs()?.vue_map.clone();
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
        let handles = Reg::fixed(1, 0, RegType::UD, 1);
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

/// The varyings a vertex shader writes, with their four component registers (unwritten
/// components keep an undefined register).
pub(super) type VsOutputs = BTreeMap<u32, [Reg; 4]>;

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
