//! Texture sampling: `tex`/`txb`/`txl` to TEXLD/TEXLDB/TEXLDL, with the NIR texture index
//! mapped to the stage's hardware sampler range and the bias or LOD placed where the core
//! reads it (`coord.w` or a separate source). Texture sources take no modifiers: folded
//! `fneg`/`fabs` are computed first (see [`super::source_mods`]).

use super::{unsupported, Tr, R};
use crate::etnaviv::compiler::dialect;
use crate::etnaviv::compiler::ir::{Instr, Operand, Shape};
use crate::etnaviv::compiler::CompileError;
use crate::etnaviv::isa::Opcode;
use crate::nir::ir::{TexInstr, TexOp, TexSrc};
use crate::nir::types::Stage;

impl Tr<'_> {
    pub(super) fn tex(&mut self, t: &TexInstr) -> R<()> {
        let opcode = match t.op {
            TexOp::Tex => Opcode::Texld,
            TexOp::Txb => Opcode::Texldb,
            TexOp::Txl => Opcode::Texldl,
            other => return unsupported(format!("texture op {other}")),
        };
        let mut coord = None;
        let mut lod = None;
        let mut comparator = None;
        for &(kind, id) in &t.srcs {
            match kind {
                TexSrc::Coord => coord = Some(id),
                TexSrc::Bias | TexSrc::Lod => lod = Some(id),
                TexSrc::Comparator if opcode == Opcode::Texld => comparator = Some(id),
                k => return unsupported(format!("texture source {k}")),
            }
        }
        let coord = coord.ok_or_else(|| CompileError::Invalid("texture without coord".into()))?;
        let width = self.def(coord)?.num_components;
        // Mesa's packed txb/txl (cores before HALTI5): the coordinate already carries the
        // bias or LOD in `w`, as TEXLDB/TEXLDL read it; the sampler has its own width.
        let packed = dialect::packed_lod_coord_dims(self.specs, self.shader, t, width);
        let dims = match packed {
            Some(d) => d as u8,
            None if (1..=3).contains(&width) => width,
            None => return unsupported(format!("{width}-component texture coordinates")),
        };
        let cc = [0, 1.min(dims - 1), 2.min(dims - 1), dims - 1];
        let unit = t.texture_index.unwrap_or(0);
        let limits = self.specs.sampler_limits();
        let id = match self.stage {
            Stage::Vertex => {
                if unit >= limits.vertex_count {
                    return unsupported("vertex texture units beyond the core's");
                }
                unit + limits.vertex_offset
            }
            _ => {
                if unit >= limits.fragment_count {
                    return unsupported("fragment texture units beyond the core's");
                }
                unit
            }
        };
        match self.textures.iter().find(|b| b.0 == id) {
            Some(b) if b.1 != dims => {
                return unsupported("one sampler used with different coordinate widths")
            }
            Some(_) => {}
            None => self.textures.push((id, dims, unit)),
        }
        let dst = self.new_def(t.def)?;
        // A result narrower than vec4 (a shadow comparison's) takes the first channels.
        let width = self.p.values[dst.index()].width;
        let mut i = Instr::new(opcode, Shape::Texture);
        if let Some(c) = comparator {
            let c = self.operand(c, [0; 4])?;
            i.src[2] = Some(self.plain(c));
        }
        i.sampler = id as u8;
        i.dst = Some((dst, (1 << width) - 1));
        match lod {
            _ if packed.is_some() => {
                let c = self.operand(coord, [0, 1, 2, 3])?;
                i.src[0] = Some(self.plain(c));
            }
            Some(l) if self.specs.tex_lod_bias_in_coord_w() => {
                let tmp = self.temp(4);
                let c = self.operand(coord, cc)?;
                self.mov((tmp, 0b0111), c);
                let l = self.operand(l, [0; 4])?;
                self.mov((tmp, 0b1000), l);
                i.src[0] = Some(Operand::value(tmp, [0, 1, 2, 3]));
            }
            Some(l) => {
                let c = self.operand(coord, cc)?;
                i.src[0] = Some(self.plain(c));
                let l = self.operand(l, [0; 4])?;
                i.src[1] = Some(self.plain(l));
            }
            None => {
                let c = self.operand(coord, cc)?;
                i.src[0] = Some(self.plain(c));
            }
        }
        self.p.push(i);
        Ok(())
    }
}
