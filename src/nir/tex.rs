//! Texture opcodes ([`TexOp`], Mesa's `nir_texop`) and texture source kinds ([`TexSrc`],
//! `nir_tex_src_type`), with the per-op facts NIR derives from them.
//!
//! Both are closed enums over exactly what Mesa 23.3 defines, so a backend, the interpreter
//! or a sampler model matches on them and the compiler points out every place a new op or
//! source has to be handled. Text meets them at two borders only: the nir_print spelling
//! ([`TexOp::name`], [`TexSrc::name`], read back by [`TexOp::from_name`] and
//! [`TexSrc::from_name`]), used by the parser, the printer and the C builder.

use std::fmt;

use super::types::BaseType;

/// Declares a fieldless enum whose variants each have one nir_print spelling, with the
/// spelling both ways and the list of all variants in declaration (Mesa's enum) order.
macro_rules! spelled {
    ($(#[$meta:meta])* pub enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:literal,)*
    }) => {
        $(#[$meta])*
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every value, in the order of Mesa's enum.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The spelling nir_print writes.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The value nir_print spells `s`, if any.
            pub fn from_name(s: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name() == s)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

spelled! {
    /// A texture opcode (`nir_texop`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum TexOp {
        /// Sampling at the implicit level of detail.
        #[default]
        Tex = "tex",
        /// Sampling with a bias added to the implicit level.
        Txb = "txb",
        /// Sampling at an explicit level.
        Txl = "txl",
        /// Sampling with explicit derivatives.
        Txd = "txd",
        /// Texel fetch at integer coordinates and level.
        Txf = "txf",
        /// Texel fetch of one sample of a multisample texture.
        TxfMs = "txf_ms",
        /// Multisample fetch from the framebuffer.
        TxfMsFb = "txf_ms_fb",
        /// Intel's multisample control surface fetch.
        TxfMsMcsIntel = "txf_ms_mcs_intel",
        /// Size of a level.
        Txs = "txs",
        /// The level of detail sampling would use.
        Lod = "lod",
        /// Gather of one component of the four texels of a bilinear footprint.
        Tg4 = "tg4",
        /// Number of mip levels.
        QueryLevels = "query_levels",
        /// Number of samples per texel.
        TextureSamples = "texture_samples",
        /// Whether all samples of a texel are known to be equal.
        SamplesIdentical = "samples_identical",
        /// `tex` that the driver may issue before the shader starts: nir_print marks it in
        /// the op's spelling.
        TexPrefetch = "tex (pre-dispatchable)",
        FragmentFetchAmd = "fragment_fetch_amd",
        FragmentMaskFetchAmd = "fragment_mask_fetch_amd",
        DescriptorAmd = "descriptor_amd",
        SamplerDescriptorAmd = "sampler_descriptor_amd",
        LodBiasAgx = "lod_bias_agx",
        HdrDimNv = "hdr_dim_nv",
        TexTypeNv = "tex_type_nv",
    }
}

spelled! {
    /// A texture source kind (`nir_tex_src_type`); nir_print writes it in parentheses after
    /// the source (`%3 (coord)`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum TexSrc {
        Coord = "coord",
        /// Divides the coordinate (projective texturing).
        Projector = "projector",
        /// The shadow reference value.
        Comparator = "comparator",
        /// Texel offset added to the coordinate.
        Offset = "offset",
        Bias = "bias",
        Lod = "lod",
        MinLod = "min_lod",
        /// Sample index of a multisample fetch.
        MsIndex = "ms_index",
        MsMcsIntel = "ms_mcs_intel",
        Ddx = "ddx",
        Ddy = "ddy",
        TextureDeref = "texture_deref",
        SamplerDeref = "sampler_deref",
        /// Run-time index added to `texture_index` (an element of a sampler array).
        TextureOffset = "texture_offset",
        /// Run-time index added to `sampler_index`.
        SamplerOffset = "sampler_offset",
        TextureHandle = "texture_handle",
        SamplerHandle = "sampler_handle",
        Plane = "plane",
        Backend1 = "backend1",
        Backend2 = "backend2",
    }
}

impl TexOp {
    /// Whether the op reads sampler state, so the instruction names a sampler (Mesa's
    /// `nir_tex_instr_need_sampler`). Fetches and queries address the texture alone.
    pub fn needs_sampler(self) -> bool {
        !matches!(
            self,
            TexOp::Txf
                | TexOp::TxfMs
                | TexOp::Txs
                | TexOp::QueryLevels
                | TexOp::TextureSamples
                | TexOp::SamplesIdentical
                | TexOp::DescriptorAmd
        )
    }

    /// Whether the coordinate is integer texel indices rather than normalized floats (the
    /// coordinate case of Mesa's `nir_tex_instr_src_type`).
    pub fn integer_coords(self) -> bool {
        matches!(
            self,
            TexOp::Txf
                | TexOp::TxfMs
                | TexOp::TxfMsFb
                | TexOp::TxfMsMcsIntel
                | TexOp::SamplesIdentical
                | TexOp::FragmentFetchAmd
                | TexOp::FragmentMaskFetchAmd
        )
    }

    /// Whether the level of detail is an integer level number rather than a float.
    fn integer_lod(self) -> bool {
        matches!(
            self,
            TexOp::Txs
                | TexOp::Txf
                | TexOp::TxfMs
                | TexOp::FragmentFetchAmd
                | TexOp::FragmentMaskFetchAmd
        )
    }

    /// The type NIR reads source `src` of this op as (Mesa's `nir_tex_instr_src_type`):
    /// it decides how nir_print shows a constant source and how the interpreter reads it.
    pub fn src_type(self, src: TexSrc) -> BaseType {
        match src {
            TexSrc::Coord if self.integer_coords() => BaseType::Int,
            TexSrc::Lod if self.integer_lod() => BaseType::Int,
            TexSrc::Coord
            | TexSrc::Lod
            | TexSrc::Projector
            | TexSrc::Comparator
            | TexSrc::Bias
            | TexSrc::MinLod
            | TexSrc::Ddx
            | TexSrc::Ddy
            | TexSrc::Backend1
            | TexSrc::Backend2 => BaseType::Float,
            TexSrc::Offset | TexSrc::MsIndex | TexSrc::Plane => BaseType::Int,
            TexSrc::MsMcsIntel
            | TexSrc::TextureDeref
            | TexSrc::SamplerDeref
            | TexSrc::TextureOffset
            | TexSrc::SamplerOffset
            | TexSrc::TextureHandle
            | TexSrc::SamplerHandle => BaseType::Uint,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases of Mesa 23.3's `nir_tex_instr_src_type`, read off its switch: the coordinate
    /// and the level are integers for exactly the ops that address texels, and those two
    /// lists differ (a multisample framebuffer fetch has integer coordinates but a float
    /// level; a size query has no coordinate but an integer level).
    #[test]
    fn source_types_follow_mesa() {
        let cases = [
            (TexOp::Tex, TexSrc::Coord, BaseType::Float),
            (TexOp::Txf, TexSrc::Coord, BaseType::Int),
            (TexOp::SamplesIdentical, TexSrc::Coord, BaseType::Int),
            (TexOp::TxfMsFb, TexSrc::Coord, BaseType::Int),
            (TexOp::TxfMsFb, TexSrc::Lod, BaseType::Float),
            (TexOp::Txs, TexSrc::Lod, BaseType::Int),
            (TexOp::Txl, TexSrc::Lod, BaseType::Float),
            (TexOp::FragmentFetchAmd, TexSrc::Lod, BaseType::Int),
            (TexOp::Txf, TexSrc::Offset, BaseType::Int),
            (TexOp::TxfMs, TexSrc::MsIndex, BaseType::Int),
            (TexOp::TxfMsMcsIntel, TexSrc::MsMcsIntel, BaseType::Uint),
            (TexOp::Tex, TexSrc::TextureOffset, BaseType::Uint),
            (TexOp::Tex, TexSrc::Backend2, BaseType::Float),
            (TexOp::Tex, TexSrc::Plane, BaseType::Int),
        ];
        for (op, src, ty) in cases {
            assert_eq!(op.src_type(src), ty, "{op} {src}");
        }
    }

    /// Mesa's `nir_tex_instr_need_sampler` lists the seven ops that do not read one.
    #[test]
    fn sampler_free_ops_are_mesas() {
        let free: Vec<TexOp> = TexOp::ALL
            .iter()
            .copied()
            .filter(|op| !op.needs_sampler())
            .collect();
        assert_eq!(
            free,
            [
                TexOp::Txf,
                TexOp::TxfMs,
                TexOp::Txs,
                TexOp::QueryLevels,
                TexOp::TextureSamples,
                TexOp::SamplesIdentical,
                TexOp::DescriptorAmd,
            ]
        );
    }
}
