//! Tessellation-evaluation shaders on Gen8+ through the scalar backend, as brw compiles them
//! there: SIMD8, one domain point per channel, all eight points of one patch.
//!
//! The thread payload (Mesa's `tes_thread_payload`) is g0 (header: dword 0 the patch URB
//! entry's handle, dword 1 the primitive id), g1–g3 the domain coordinates u, v, w of the
//! eight points, g4 their output URB handles; then the push constants, then the first
//! [`TessEvalInfo::urb_read_length`] registers of the patch URB entry, two vec4 slots each.
//!
//! Inputs arrive in Intel form: `load_input` and `load_per_vertex_input` address slots of
//! the patch URB entry (`brw_nir_lower_tes_inputs` folded the vertex index into them), so a
//! constant slot below [`TES_MAX_PUSH_SLOTS`] is a scalar region of the pushed registers and
//! any other is read with a SIMD8 URB read message from the patch handle. Outputs are written
//! as a vertex shader writes its VUE (see `vertex.rs`), to the handles in g4.

use crate::intel::eu::types::sfid;
use crate::intel::eu::RegType;
use crate::intel::msg::{Lengths, UrbDesc};
use crate::intel::tess::{TessEvalInfo, TES_MAX_PUSH_SLOTS};
use crate::nir::{BaseType, IndexKind, IntrinsicInstr};

use super::super::ir::{File, Op, Reg};
use super::{intrinsic_def, unsupported, CompileError, Translator};

/// Registers of the TES thread payload before the push constants: g0, the three domain
/// coordinates and the output URB handles.
pub const TES_PAYLOAD_REGS: u32 = 5;

/// Where the output URB handles of the eight domain points are.
pub const TES_URB_HANDLES_REG: u32 = 4;

impl Translator<'_> {
    /// The patch handle in every channel, at the top of the program (dead-code elimination
    /// removes it when no input is read from the URB).
    pub(super) fn start_patch_reads(&mut self) {
        let handle = self.vgrf(RegType::UD);
        self.alu(
            crate::intel::eu::Opcode::Mov,
            handle,
            vec![Reg::fixed(0, 0, RegType::UD, 0)],
        );
        self.tes_reads.handle = Some(handle);
    }

    /// The TES facts (translation of a tessellation-evaluation shader only).
    fn tes(&self) -> Result<&TessEvalInfo, CompileError> {
        self.facts.tess_eval.as_ref().ok_or_else(|| {
            CompileError::Invalid(
                "tessellation input outside a tessellation-evaluation shader".into(),
            )
        })
    }

    /// `load_tess_coord`: the payload's u, v and w registers.
    pub(super) fn emit_tess_coord(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let def = intrinsic_def(i)?;
        let (n, _) = self.def_info(def)?;
        let regs = (0..n.min(3) as u32)
            .map(|c| Reg::fixed(1 + c, 0, RegType::F, 1))
            .collect();
        self.set(def, regs);
        Ok(())
    }

    /// `load_primitive_id` of a TES: g0.1, the same for every point of the patch.
    pub(super) fn emit_tes_primitive_id(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        self.tes()?;
        let g0_1 = Reg::fixed(0, 4, RegType::UD, 0);
        self.set(intrinsic_def(i)?, vec![g0_1]);
        Ok(())
    }

    /// `load_input` (patch slots) and `load_per_vertex_input` of a TES: pushed registers or
    /// a URB read of the patch entry.
    pub(super) fn emit_tes_input(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        self.tes()?;
        let per_vertex = i.intrinsic == crate::nir::Intrinsic::LoadPerVertexInput;
        let off_src = usize::from(per_vertex);
        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32;
        let first = i.int_index(IndexKind::Component).unwrap_or(0) as u32;
        let def = intrinsic_def(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!("{bits}-bit TES inputs")));
        }
        if first + n as u32 > 4 {
            return Err(CompileError::Invalid(format!(
                "TES input components {first}..{} of a vec4 slot",
                first + n as u32
            )));
        }
        let ty = match i.type_index(IndexKind::DestType).map(|t| t.base) {
            Some(BaseType::Int) => RegType::D,
            Some(BaseType::Uint) => RegType::UD,
            _ => RegType::F,
        };
        let offset = i
            .srcs
            .get(off_src)
            .copied()
            .ok_or_else(|| CompileError::Invalid("TES input without its offset".into()))?;
        let constant = self
            .imp
            .const_value(offset)
            .and_then(|v| v.first().copied());
        match constant {
            Some(0) if base < TES_MAX_PUSH_SLOTS => {
                // Slot `base` is the upper or lower half of pushed register base / 2.
                let regs = (0..n as u32)
                    .map(|c| Reg {
                        file: File::Attr,
                        nr: base / 2,
                        offset: (4 * (base % 2) + first + c) * 4,
                        ty,
                        stride: 0,
                        ..Reg::BAD
                    })
                    .collect();
                self.set(def, regs);
            }
            Some(0) => {
                let regs = self.urb_read_patch(base, None, first + n as u32)?;
                let regs = regs[first as usize..]
                    .iter()
                    .map(|r| r.retype(ty))
                    .collect();
                self.set(def, regs);
            }
            Some(_) => {
                return Err(CompileError::Invalid(
                    "TES input with a constant offset not folded into its base".into(),
                ))
            }
            None => {
                let slots = self.comp(offset, 0)?;
                let regs = self.urb_read_patch(base, Some(slots), first + n as u32)?;
                let regs = regs[first as usize..]
                    .iter()
                    .map(|r| r.retype(ty))
                    .collect();
                self.set(def, regs);
            }
        }
        Ok(())
    }

    /// A SIMD8 URB read of `comps` dwords from slot `base` (plus the per-channel slot
    /// offsets `per_slot`) of the patch URB entry, whose handle is g0.0: one register per
    /// dword, as Mesa's lowering of `SHADER_OPCODE_URB_READ_LOGICAL` sends it.
    pub(super) fn urb_read_patch(
        &mut self,
        base: u32,
        per_slot: Option<Reg>,
        comps: u32,
    ) -> Result<Vec<Reg>, CompileError> {
        if base > 2047 {
            return Err(unsupported(format!("a URB read at slot {base}")));
        }
        let handle = self
            .tes_reads
            .handle
            .ok_or_else(|| CompileError::Internal("TES URB read before its handle".into()))?;
        let mlen = 1 + u32::from(per_slot.is_some());
        let payload = match per_slot {
            None => handle,
            Some(p) => {
                let key = (self.tes_reads.block, p);
                match self.tes_reads.per_slot.get(&key) {
                    Some(&payload) => payload,
                    None => {
                        let payload = Reg::vgrf(self.prog.alloc(2), RegType::UD);
                        self.push(
                            Op::LoadPayload,
                            payload,
                            vec![handle, p.retype(RegType::UD)],
                        );
                        self.tes_reads.per_slot.insert(key, payload);
                        payload
                    }
                }
            }
        };
        let dst = Reg::vgrf(self.prog.alloc(comps), RegType::UD);
        let send = self.push(Op::Send, dst, vec![payload]);
        send.mlen = mlen as u8;
        send.rlen = comps as u8;
        send.sfid = sfid::URB;
        send.desc = urb_simd8_read_desc(base, mlen, comps, per_slot.is_some());
        Ok((0..comps)
            .map(|c| Reg {
                offset: c * 32,
                ..dst
            })
            .collect())
    }
}

/// Descriptor of a Gen8 SIMD8 URB read at `offset` 16-byte slots: a header of per-channel
/// handles (and per-slot offsets when `per_slot`), `rlen` registers back.
pub fn urb_simd8_read_desc(offset: u32, mlen: u32, rlen: u32, per_slot: bool) -> u32 {
    UrbDesc {
        len: Lengths::new(mlen, rlen, true),
        opcode: UrbDesc::SIMD8_READ,
        global_offset: offset,
        per_slot_offset: per_slot,
        ..UrbDesc::default()
    }
    .encode(80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urb_read_descriptors_match_mesa_assembly() {
        // From Mesa's bdw TES assembly: `0x02480208 urb MsgDesc: offset 32 SIMD8 read mlen 1
        // rlen 4`, `0x02480298 ... offset 41 ... mlen 1 rlen 4` and `0x043a0028 ... offset 2
        // SIMD8 read per-slot mlen 2 rlen 3`.
        assert_eq!(urb_simd8_read_desc(32, 1, 4, false), 0x0248_0208);
        assert_eq!(urb_simd8_read_desc(41, 1, 4, false), 0x0248_0298);
        assert_eq!(urb_simd8_read_desc(2, 2, 3, true), 0x043a_0028);
    }
}
