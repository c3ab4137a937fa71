//! Texture instructions in the vertex stage: SIMD4x2 sampler messages, laid out as Mesa's
//! vec4 backend lays them out on Gen7 (`nir_emit_texture`, `generate_tex`).
//!
//! A vertex shader has no derivatives, so every sampling message names its level: `tex`
//! and `txl` send `sample_l` (`sample_l_c` with a reference value), `tex` at level 0; `txb`
//! cannot occur. `txf` sends `ld`, `txs` and `query_levels` send `resinfo`. The parameters
//! go to message registers from g114 (Mesa's MRF 2 on Gen7, which maps MRFs to g112 and
//! up): one register of coordinates (both vertices interleaved, unused components zero),
//! and for `sample_l` a second with the level in x (`sample_l_c`: the reference in x, the
//! level in y); `ld` takes the level in w of its one register, `resinfo` in x. A header (g0
//! with the texel offsets in dword 2) leads the message only when the offsets are not zero.

use crate::intel::eu::{Opcode, RegType};
use crate::intel::vec4::urb::MSG_BASE;
use crate::nir::{self, AluSrc, BaseType, SsaId, TexOp, TexSrc};

use super::super::ir::{replicate, Dst, File, Op, Src, TexMsg};
use super::{invalid, unsupported, vf_pack, CompileError, Tr, Val};

/// The first message register of a sampler message (Mesa's `base_mrf = 2`).
pub const TEX_MSG_BASE: u32 = MSG_BASE + 2;

fn fixed(nr: u32, ty: RegType, mask: u8) -> Dst {
    Dst::fixed(nr, ty, mask)
}

/// The header's dword 2 for constant texel offsets (-8..=7 each, GLSL's limit): u in bits
/// 11:8, v in 7:4, r in 3:0.
pub fn offset_bits(offsets: &[i32]) -> Result<u32, CompileError> {
    let mut bits = 0;
    for (c, &o) in offsets.iter().enumerate().take(3) {
        if !(-8..=7).contains(&o) {
            return Err(unsupported(format!("texel offset {o} outside -8..=7")));
        }
        let shift = 4 * (2 - c as u32);
        bits |= ((o as u32) & 0xf) << shift;
    }
    Ok(bits)
}

/// The element of a sampler array a texture instruction names beyond its base indices.
enum TexIndex {
    /// Known at compile time.
    Const(u32),
    /// In x of a register, the same for every vertex that runs (GLSL requires a sampler
    /// array index to be dynamically uniform).
    Run(Src),
}

impl Tr<'_> {
    /// The texture and sampler offset sources: one index added to both, as NIR gives it
    /// for an element of a sampler array (separate indices are refused by name).
    fn tex_array_index(
        &mut self,
        t: &nir::TexInstr,
        msg: TexMsg,
    ) -> Result<Option<TexIndex>, CompileError> {
        let tex = Self::tex_src_id(t, TexSrc::TextureOffset);
        let smp = Self::tex_src_id(t, TexSrc::SamplerOffset);
        let id = match (tex, smp) {
            (None, None) => return Ok(None),
            (Some(a), Some(b)) if a == b => a,
            // `ld` and `resinfo` use no sampler state: the texture index alone serves.
            (Some(a), None) if matches!(msg, TexMsg::Ld | TexMsg::Resinfo) => a,
            _ => {
                return Err(unsupported(
                    "separate run-time texture and sampler indices in the vec4 backend",
                ))
            }
        };
        if let Some(k) = self.const_u32(id) {
            return Ok(Some(TexIndex::Const(k)));
        }
        let v = self.value_src(id, RegType::UD)?.swizzled(replicate(0));
        Ok(Some(TexIndex::Run(self.in_grf(v))))
    }

    /// A register whose first half's x holds `v`'s x from a vertex that runs (Mesa's
    /// `emit_uniformize`): what an indexed message descriptor is built from.
    pub(super) fn uniformize(&mut self, v: Src) -> Src {
        let chan = self.prog.vgrf();
        self.push(Op::FindLiveChannel, Dst::vgrf(chan, RegType::UD, 1), vec![]);
        let r = self.prog.vgrf();
        self.push(
            Op::Broadcast,
            Dst::vgrf(r, RegType::UD, 1),
            vec![v, Src::vgrf(chan, RegType::UD)],
        );
        Src::vgrf(r, RegType::UD)
    }

    fn tex_src_id(t: &nir::TexInstr, k: TexSrc) -> Option<SsaId> {
        t.srcs.iter().find(|s| s.0 == k).map(|s| s.1)
    }

    /// The operand for a one-component texture source (`ty` bits as they are) read in
    /// every channel (`.xxxx`: a move to the level's channel w must read component x), an
    /// immediate when constant.
    fn tex_scalar(&mut self, id: SsaId, ty: RegType) -> Result<Src, CompileError> {
        self.operand(&AluSrc::swizzled(id, &[0, 0, 0, 0]), 0xf, ty, true)
    }

    pub(super) fn emit_tex(&mut self, t: &nir::TexInstr) -> Result<(), CompileError> {
        let op = t.op;
        for &(k, _) in &t.srcs {
            match k {
                TexSrc::Coord
                | TexSrc::Comparator
                | TexSrc::Lod
                | TexSrc::Offset
                | TexSrc::TextureOffset
                | TexSrc::SamplerOffset => {}
                TexSrc::Bias => {
                    return Err(invalid(
                        "a level bias in a vertex shader (only fragment shaders have an \
                         implicit level)",
                    ))
                }
                other => {
                    return Err(unsupported(format!(
                        "texture source {other} in the vec4 backend"
                    )))
                }
            }
        }
        let comparator = Self::tex_src_id(t, TexSrc::Comparator);
        let msg = match op {
            TexOp::Tex | TexOp::Txl if comparator.is_some() => TexMsg::SampleLC,
            TexOp::Tex | TexOp::Txl => TexMsg::SampleL,
            TexOp::Txf if comparator.is_none() => TexMsg::Ld,
            TexOp::Txs | TexOp::QueryLevels if comparator.is_none() => TexMsg::Resinfo,
            TexOp::Txb | TexOp::Lod => {
                return Err(invalid(format!(
                    "{op} in a vertex shader (an implicit level exists in fragment shaders only)"
                )))
            }
            other => {
                return Err(unsupported(format!(
                    "texture op {other}{} in the vec4 backend",
                    if comparator.is_some() {
                        " with a comparator"
                    } else {
                        ""
                    }
                )))
            }
        };
        let mut surface = t.texture_index.unwrap_or(0);
        let mut sampler = t.sampler_index.unwrap_or(0);
        let index = self.tex_array_index(t, msg)?;
        let candidates = match index {
            Some(TexIndex::Const(k)) => {
                surface = surface.saturating_add(k);
                sampler = sampler.saturating_add(k);
                1
            }
            Some(TexIndex::Run(_)) => self.sampler_array_len.max(1),
            None => 1,
        };
        let last_surface = u64::from(surface) + u64::from(candidates) - 1;
        let last_sampler = u64::from(sampler) + u64::from(candidates) - 1;
        if last_surface > 255 {
            return Err(CompileError::Limit(format!(
                "texture index {last_surface} is past the 256 binding-table entries a \
                 sampler message addresses"
            )));
        }
        if last_sampler > 15 && msg != TexMsg::Ld && msg != TexMsg::Resinfo {
            return Err(unsupported(format!(
                "sampler index {last_sampler}: past 15 needs the sampler-state-pointer header"
            )));
        }
        let bits = match Self::tex_src_id(t, TexSrc::Offset) {
            None => 0,
            Some(_) if msg == TexMsg::Ld => {
                return Err(unsupported("txf with a texel offset in the vec4 backend"))
            }
            Some(id) => {
                let offs = self
                    .imp
                    .const_value(id)
                    .ok_or_else(|| unsupported("texture offset that is not a constant"))?;
                let offs: Vec<i32> = offs.iter().map(|&v| v as u32 as i32).collect();
                offset_bits(&offs)?
            }
        };
        let mut regs = Vec::new();
        let mut next = TEX_MSG_BASE;
        if bits != 0 {
            self.push(
                Op::SamplerHeader { offset_bits: bits },
                fixed(next, RegType::UD, 0xf),
                vec![Src::reg(File::Fixed, 0, RegType::UD)],
            );
            regs.push(next);
            next += 1;
        }
        let param = next;
        let lod_ty = if msg == TexMsg::SampleL || msg == TexMsg::SampleLC {
            RegType::F
        } else {
            RegType::D
        };
        let lod = match Self::tex_src_id(t, TexSrc::Lod) {
            Some(id) => self.tex_scalar(id, lod_ty)?,
            // `tex` samples level 0 outside fragment shaders; a buffer `txf` has no level.
            None => Src::imm(lod_ty, 0),
        };
        regs.push(param);
        match msg {
            TexMsg::Resinfo => {
                self.push(Op::Alu(Opcode::Mov), fixed(param, RegType::D, 1), vec![lod]);
            }
            _ => {
                let coord = Self::tex_src_id(t, TexSrc::Coord)
                    .ok_or_else(|| invalid(format!("{op} has no coordinate")))?;
                let ty = if msg == TexMsg::Ld {
                    RegType::D
                } else {
                    RegType::F
                };
                // `ld` takes its level in w: only u v r are zeroed.
                let used = if msg == TexMsg::Ld { 0x7 } else { 0xf };
                self.tex_coordinate(coord, param, ty, used)?;
                match msg {
                    TexMsg::Ld => {
                        self.push(Op::Alu(Opcode::Mov), fixed(param, RegType::D, 8), vec![lod]);
                    }
                    TexMsg::SampleLC => {
                        let c = comparator.expect("a comparator selected sample_l_c");
                        let c = self.tex_scalar(c, RegType::F)?;
                        self.push(
                            Op::Alu(Opcode::Mov),
                            fixed(param + 1, RegType::F, 1),
                            vec![c],
                        );
                        self.push(
                            Op::Alu(Opcode::Mov),
                            fixed(param + 1, RegType::F, 2),
                            vec![lod],
                        );
                        regs.push(param + 1);
                    }
                    _ => {
                        self.push(
                            Op::Alu(Opcode::Mov),
                            fixed(param + 1, RegType::F, 1),
                            vec![lod],
                        );
                        regs.push(param + 1);
                    }
                }
            }
        }
        let ty = match t.dest_type.base {
            BaseType::Int => RegType::D,
            BaseType::Uint => RegType::UD,
            _ => RegType::F,
        };
        let (_, bits_size) = self.def_info(t.def)?;
        if bits_size != 32 {
            return Err(unsupported(format!("{bits_size}-bit texture results")));
        }
        let r = self.prog.vgrf();
        let mut srcs: Vec<Src> = regs
            .iter()
            .map(|&nr| Src::reg(File::Fixed, nr, RegType::F))
            .collect();
        let indexed = if let Some(TexIndex::Run(v)) = index {
            srcs.push(self.uniformize(v));
            true
        } else {
            false
        };
        self.push(
            Op::Tex {
                msg,
                surface,
                sampler,
                header: bits != 0,
                indexed,
            },
            Dst::vgrf(r, ty, 0xf),
            srcs,
        );
        self.facts
            .surfaces
            .textures
            .extend(surface..surface + candidates);
        if t.op.needs_sampler() {
            self.facts
                .surfaces
                .samplers
                .extend(sampler..sampler + candidates);
        }
        // resinfo replies width, height, depth, levels: query_levels is the fourth.
        let value = if op == TexOp::QueryLevels {
            Src::vgrf(r, ty).swizzled(replicate(3))
        } else {
            Src::vgrf(r, ty)
        };
        self.set(t.def, Val::Reg(value))
    }

    /// The coordinate `id` in message register `param` as `ty`, the other components of
    /// `used` zero: one vector-float move when it is a constant that has one, else a move of
    /// its components and one of the zeros.
    fn tex_coordinate(
        &mut self,
        id: SsaId,
        param: u32,
        ty: RegType,
        used: u8,
    ) -> Result<(), CompileError> {
        let (n, _) = self.def_info(id)?;
        let n = n.clamp(1, 4);
        let mask = ((1u32 << n) - 1) as u8;
        if let (Val::Const(v), RegType::F) = (self.val(id)?.clone(), ty) {
            let mut full: Vec<u32> = v.iter().copied().take(n as usize).collect();
            full.resize(4, 0);
            if let Some(vf) = vf_pack(&full) {
                self.push(
                    Op::Alu(Opcode::Mov),
                    fixed(param, RegType::F, 0xf),
                    vec![Src::imm(RegType::VF, vf)],
                );
                return Ok(());
            }
        }
        let mut s = AluSrc::new(id);
        for (ch, c) in s.swizzle.iter_mut().enumerate().take(4) {
            *c = (ch as u8).min(n - 1);
        }
        let src = self.operand(&s, mask, ty, true)?;
        self.push(Op::Alu(Opcode::Mov), fixed(param, ty, mask), vec![src]);
        if used & !mask != 0 {
            self.push(
                Op::Alu(Opcode::Mov),
                fixed(param, RegType::D, used & !mask),
                vec![Src::imm(RegType::D, 0)],
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn texel_offsets_pack_four_bits_each() {
        // (1, -2, 3): u = 0x1 in 11:8, v = 0xe in 7:4, r = 0x3 in 3:0.
        assert_eq!(super::offset_bits(&[1, -2, 3]).unwrap(), 0x1e3);
        assert_eq!(super::offset_bits(&[-8, 7]).unwrap(), 0x870);
        assert!(super::offset_bits(&[8]).is_err());
    }
}
