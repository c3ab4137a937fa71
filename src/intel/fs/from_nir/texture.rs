//! Texture instructions: sampler messages with their parameters in the order each message
//! and generation takes them, texel offsets in the sampler header, and dynamically uniform
//! sampler-array indices.

use crate::intel::eu::{Opcode, RegType};
use crate::nir::{self, TexOp, TexSrc};

use super::super::ir::{Op, Reg, TexKind};
use super::{unsupported, CompileError, Translator};

impl Translator<'_> {
    /// A texture instruction: one sampler message (SEND) whose reply holds up to four
    /// components per channel.
    pub(super) fn emit_tex(&mut self, t: &nir::TexInstr) -> Result<(), CompileError> {
        let op = t.op;
        for &(k, _) in &t.srcs {
            if !matches!(
                k,
                TexSrc::Coord
                    | TexSrc::Comparator
                    | TexSrc::Lod
                    | TexSrc::Bias
                    | TexSrc::Ddx
                    | TexSrc::Ddy
                    | TexSrc::TextureOffset
                    | TexSrc::SamplerOffset
                    | TexSrc::Offset
            ) {
                return Err(unsupported(format!("texture source {k}")));
            }
        }
        let mut coord = self.tex_src(t, TexSrc::Coord)?;
        let offset_bits = self.tex_offsets(t, op, &mut coord)?;
        let (kind, params) = self.tex_params(t, op, &coord)?;
        let per = self.per();
        let dst_nr = self.prog.alloc(4 * per);
        let dst = Reg::vgrf(dst_nr, RegType::UD);
        let mut params: Vec<Reg> = params.into_iter().map(|r| r.retype(RegType::UD)).collect();
        let header = offset_bits.map(|bits| self.tex_header(bits));
        if let Some(h) = header {
            params.insert(0, h);
        }
        if params.is_empty() {
            // A sampler message needs a payload; without one (a `tex` whose coordinate is
            // missing) the SEND would have length 0, which EU validation rejects as an
            // internal error. The input is at fault: say so.
            return Err(CompileError::Invalid(format!(
                "{op} has no coordinate or other parameter to send"
            )));
        }
        let surface = t.texture_index.unwrap_or(0);
        let sampler = t.sampler_index.unwrap_or(0);
        let dynamic = t
            .srcs
            .iter()
            .find(|s| s.0 == TexSrc::TextureOffset)
            .map(|s| s.1);
        let candidates = if dynamic.is_some() {
            self.sampler_array_len.max(1)
        } else {
            1
        };
        self.check_tex_indices(surface, sampler, candidates)?;
        let used = &mut self.facts.surfaces;
        used.textures.extend(surface..surface + candidates);
        used.samplers.extend(sampler..sampler + candidates);
        // A run-time texture index (an element of a sampler array) is dynamically uniform, as
        // GLSL requires of sampler-array indexing: the first enabled channel's value picks
        // the surface and sampler for the whole message, as brw does, instead of one
        // predicated message per array element.
        if let Some(id) = dynamic {
            let index = self.descriptor_index(id)?;
            params.push(index);
        }
        let inst = self.push(
            Op::Tex {
                kind,
                surface: surface as u8,
                sampler: sampler as u8,
                indexed: dynamic.is_some(),
            },
            dst,
            params,
        );
        // A leading one-register header source (texel offsets).
        inst.header_size = header.is_some() as u8;
        let (n, _) = self.def_info(t.def)?;
        // resinfo replies width, height, depth, levels: query_levels is the fourth.
        let first = if op == TexOp::QueryLevels { 3 } else { 0 };
        let out = (0..n as u32)
            .map(|c| dst.reg_offset((first + c) * per))
            .collect();
        self.set(t.def, out);
        Ok(())
    }

    /// A run-time binding-table index GLSL requires to be dynamically uniform (an element of
    /// a sampler or UBO array) as the scalar dword an indexed message adds to its
    /// descriptor: the first enabled channel's value (see [`Op::Uniformize`]), as brw takes
    /// it, instead of one predicated message per array element.
    pub(super) fn descriptor_index(&mut self, id: nir::SsaId) -> Result<Reg, CompileError> {
        let idx = self.in_grf(self.comp(id, 0)?.retype(RegType::UD));
        let uniform = Reg::vgrf(self.prog.alloc(1), RegType::UD);
        self.push(Op::Uniformize, uniform, vec![idx]);
        Ok(Reg {
            stride: 0,
            ..uniform
        })
    }

    /// The texture and sampler indices a message can name, `candidates` consecutive ones
    /// from each for a sampler array (wide arithmetic: an index of 0xffffffff once wrapped
    /// past these checks and compiled to surface 255).
    ///
    /// The binding-table index in the message descriptor is 8 bits. The sampler index is 4
    /// bits: Mesa reaches samplers 16 and up on Haswell and later only by offsetting the
    /// sampler state pointer in a message header (`is_high_sampler` in
    /// brw_lower_logical_sends.cpp), which gpucc does not do, and Ivy Bridge has no way.
    fn check_tex_indices(
        &self,
        surface: u32,
        sampler: u32,
        candidates: u32,
    ) -> Result<(), CompileError> {
        let array = if candidates > 1 {
            format!(" (with a sampler array of {candidates})")
        } else {
            String::new()
        };
        if u64::from(surface) + u64::from(candidates) > 256 {
            return Err(CompileError::Limit(format!(
                "texture index {surface}{array} is past the 256 binding-table entries a \
                 sampler message addresses"
            )));
        }
        if u64::from(sampler) + u64::from(candidates) > 16 {
            let what = format!("sampler index {sampler}{array}");
            return Err(if self.devinfo.ver < 75 {
                CompileError::Limit(format!(
                    "{what} is past the 16 samplers {} addresses",
                    self.devinfo.name
                ))
            } else {
                unsupported(format!(
                    "{what}: past 15 needs the sampler-state-pointer header"
                ))
            });
        }
        Ok(())
    }

    /// The components of texture source `k` (none when the instruction has no such source).
    fn tex_src(&self, t: &nir::TexInstr, k: TexSrc) -> Result<Vec<Reg>, CompileError> {
        match t.srcs.iter().find(|s| s.0 == k).map(|s| s.1) {
            Some(id) => Ok(self.value(id)?.clone()),
            None => Ok(Vec::new()),
        }
    }

    /// Texel offsets (constants in -8..=7, as GLSL requires of textureOffset): texel fetches
    /// add them to the integer coordinates (brw has NIR do the same); sampling messages take
    /// them in the header, 4 bits each at u 11:8, v 7:4, r 3:0 of dword 2, whose bits this
    /// returns.
    fn tex_offsets(
        &mut self,
        t: &nir::TexInstr,
        op: TexOp,
        coord: &mut [Reg],
    ) -> Result<Option<u32>, CompileError> {
        let mut offset_bits = None;
        if let Some(&(_, id)) = t.srcs.iter().find(|s| s.0 == TexSrc::Offset) {
            let offs = self
                .imp
                .const_value(id)
                .ok_or_else(|| unsupported("texture offset that is not a constant"))?;
            let offs: Vec<i32> = offs.iter().map(|&v| v as u32 as i32).collect();
            if op == TexOp::Txf {
                for (c, o) in offs.iter().enumerate() {
                    if let Some(r) = coord.get_mut(c) {
                        let sum = self.vgrf(RegType::D);
                        let base = self.in_grf(r.retype(RegType::D));
                        self.alu(
                            Opcode::Add,
                            sum,
                            vec![base, Reg::imm(RegType::D, *o as u32)],
                        );
                        *r = sum;
                    }
                }
            } else {
                let mut bits = 0u32;
                for (c, &o) in offs.iter().enumerate().take(3) {
                    if !(-8..=7).contains(&o) {
                        return Err(unsupported(format!("texel offset {o} outside -8..=7")));
                    }
                    let shift = 4 * (2 - c as u32);
                    bits |= ((o as u32) << shift) & (0xf << shift);
                }
                offset_bits = Some(bits);
            }
        }
        Ok(offset_bits)
    }

    /// The message of texture op `op` and its parameters in the order the message takes
    /// them.
    fn tex_params(
        &self,
        t: &nir::TexInstr,
        op: TexOp,
        coord: &[Reg],
    ) -> Result<(TexKind, Vec<Reg>), CompileError> {
        let shadow = self.tex_src(t, TexSrc::Comparator)?;
        let lod = self.tex_src(t, TexSrc::Lod)?;
        let bias = self.tex_src(t, TexSrc::Bias)?;
        let mut params: Vec<Reg> = Vec::new();
        let kind = match (op, shadow.is_empty()) {
            (TexOp::Tex, true) => {
                params.extend(coord);
                TexKind::Sample
            }
            (TexOp::Tex, false) => {
                params.extend(&shadow);
                params.extend(coord);
                TexKind::SampleC
            }
            (TexOp::Txb, true) => {
                params.extend(&bias);
                params.extend(coord);
                TexKind::SampleB
            }
            (TexOp::Txl, true) => {
                params.extend(&lod);
                params.extend(coord);
                TexKind::SampleL
            }
            (TexOp::Txl, false) => {
                params.extend(&shadow);
                params.extend(&lod);
                params.extend(coord);
                TexKind::SampleLC
            }
            (TexOp::Txd, true) => {
                let ddx = self.tex_src(t, TexSrc::Ddx)?;
                let ddy = self.tex_src(t, TexSrc::Ddy)?;
                for (c, &co) in coord.iter().enumerate() {
                    params.push(co);
                    if let (Some(x), Some(y)) = (ddx.get(c), ddy.get(c)) {
                        params.push(*x);
                        params.push(*y);
                    }
                }
                TexKind::SampleD
            }
            (TexOp::Txf, true) => {
                // Gen7/8 `ld` interleaves the level after u (u lod v r); Gen9 puts it after
                // the 2D coordinates (u v lod r).
                let l = lod.first().copied().unwrap_or(Reg::imm(RegType::D, 0));
                params.extend(coord);
                if self.devinfo.ver >= 90 {
                    if params.len() < 2 {
                        params.push(Reg::imm(RegType::D, 0));
                    }
                    params.insert(2, l);
                } else {
                    params.insert(1.min(params.len()), l);
                }
                TexKind::Ld
            }
            (TexOp::Txs | TexOp::QueryLevels, true) => {
                params.push(lod.first().copied().unwrap_or(Reg::imm(RegType::D, 0)));
                TexKind::Resinfo
            }
            (other, sh) => {
                return Err(unsupported(format!(
                    "texture op {other}{}",
                    if sh { "" } else { " with shadow compare" }
                )))
            }
        };
        if self.devinfo.ver < 70 {
            let ddx = self.tex_src(t, TexSrc::Ddx)?;
            let ddy = self.tex_src(t, TexSrc::Ddy)?;
            let params = gen6_params(kind, coord, &shadow, &lod, &bias, &ddx, &ddy);
            // Sampler messages take at most 11 registers (Mesa's MAX_SAMPLER_MESSAGE_SIZE);
            // Gen6 has no SIMD16 sample_d (Mesa runs it as SIMD8 halves, gpucc does not).
            let regs = params.len() as u32 * self.per();
            if regs > 11 || (kind == TexKind::SampleD && self.width > 8) {
                return Err(unsupported(format!(
                    "Gen6 SIMD{} {op} ({regs} message registers)",
                    self.width
                )));
            }
            return Ok((kind, params));
        }
        Ok((kind, params))
    }

    /// The sampler header: g0 with the texel offsets `bits` in dword 2.
    fn tex_header(&mut self, bits: u32) -> Reg {
        let h = Reg::vgrf(self.prog.alloc(1), RegType::UD);
        let m = self.alu(Opcode::Mov, h, vec![Reg::fixed(0, 0, RegType::UD, 1)]);
        m.exec_size = 8;
        m.we_all = true;
        let m = self.alu(
            Opcode::Mov,
            Reg { offset: 8, ..h },
            vec![Reg::imm(RegType::UD, bits)],
        );
        m.exec_size = 1;
        m.we_all = true;
        h
    }
}

/// Gen5-6 sampler parameters in the fixed slots those messages read (Mesa's
/// `lower_sampler_logical_send_gfx5`): the coordinate from slot 0, then the shadow
/// reference, LOD, bias or derivative pairs from slot 4; `ld` takes its LOD in slot 3 and
/// `resinfo` its LOD alone. Slots nothing fills are [`Reg::BAD`] (sent undefined).
fn gen6_params(
    kind: TexKind,
    coord: &[Reg],
    shadow: &[Reg],
    lod: &[Reg],
    bias: &[Reg],
    ddx: &[Reg],
    ddy: &[Reg],
) -> Vec<Reg> {
    let zero = Reg::imm(RegType::D, 0);
    let mut p: Vec<Reg> = coord.to_vec();
    let pad = |p: &mut Vec<Reg>, n: usize| {
        while p.len() < n {
            p.push(Reg::BAD);
        }
    };
    match kind {
        TexKind::Sample => {}
        TexKind::SampleC => {
            pad(&mut p, 4);
            p.extend(shadow);
        }
        TexKind::SampleB => {
            pad(&mut p, 4);
            p.extend(bias);
        }
        TexKind::SampleL => {
            pad(&mut p, 4);
            p.extend(lod);
        }
        TexKind::SampleLC => {
            pad(&mut p, 4);
            p.extend(shadow);
            p.extend(lod);
        }
        TexKind::SampleD => {
            pad(&mut p, 4);
            for (x, y) in ddx.iter().zip(ddy) {
                p.push(*x);
                p.push(*y);
            }
        }
        TexKind::Ld => {
            pad(&mut p, 3);
            p.push(lod.first().copied().unwrap_or(zero));
        }
        TexKind::Resinfo => p = vec![lod.first().copied().unwrap_or(zero)],
    }
    p
}
