//! How a driver binds a program, in terms that do not depend on the backend's internals:
//! the push-constant layout, the binding table, the fragment-stage facts of an Intel
//! program, and the uniform file and I/O registers of a Vivante program.
//!
//! The C API (`src/capi/info.rs`) is a thin `repr(C)` copy of these, and the piglit runner
//! binds its programs through them, so what a driver reads is what our own tests run with.

use super::{Code, Program};
use crate::etnaviv::compiler::consts::UniformContent;
use crate::intel::kernel::{Kernel, VertexInfo};
use crate::nir::slots::slot_number;
use crate::nir::types::Stage;

/// One pushed dword of an Intel program (an entry of Mesa's `param[]`, or a dword of a
/// pushed UBO range): the driver stores dword `offset / 4` of uniform block `block` there.
/// `block` is the shader's `load_ubo` block operand as given (in crocus's and iris's final
/// NIR, already their binding-table slot; see `gpucc_push_param` in the header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushParam {
    pub block: u32,
    /// Byte offset in the block (a multiple of 4).
    pub offset: u32,
}

/// One compiled SIMD width of an Intel program: where it is in the code and where its push
/// constants start (Mesa's `prog_offset_*` and `dispatch_grf_start_reg*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelCode {
    pub simd: u32,
    /// Byte offset in [`Program::bytes`] (64-byte aligned).
    pub offset: u32,
    pub size: u32,
    pub dispatch_grf_start: u32,
    /// One past the highest GRF touched (Mesa's `grf_used`).
    pub grfs: u32,
}

/// What a binding-table entry (or, for [`BindingKind::Sampler`], a sampler state) holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BindingKind {
    /// Colour render target `index` (Mesa's `render_target_start + index`).
    RenderTarget,
    /// The texture the NIR names with `texture_index` = `index`.
    Texture,
    /// Sampler state `index` (its own table, not the binding table).
    Sampler,
    /// Uniform block `index` read with pull-constant messages (`ubo_start + index`).
    UniformBuffer,
    /// Storage block `index` (`ssbo_start + index`).
    StorageBuffer,
}

/// One entry the driver must fill: `kind` number `index` at binding-table index (Intel) or
/// hardware sampler unit (Vivante) `slot`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Binding {
    pub kind: BindingKind,
    pub index: u32,
    pub slot: u32,
}

/// A fragment program's input slot in attribute-setup order (Mesa's `urb_setup` order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentInput {
    /// The `VARYING_SLOT` number read.
    pub varying: u32,
    /// Constant interpolation (`flat_inputs` bit).
    pub flat: bool,
    /// Interpolated without perspective correction.
    pub noperspective: bool,
    /// The program reads it. Past 16 inputs laid out by `input_slots_valid`, a slot can hold
    /// a varying the program ignores, or padding (`varying` u32::MAX).
    pub read: bool,
}

/// Depth output mode (Mesa's `brw_pixel_shader_computed_depth_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComputedDepth {
    Off = 0,
    On = 1,
}

/// What an Intel fragment program needs from 3DSTATE_WM, 3DSTATE_PS and 3DSTATE_PS_EXTRA
/// (Mesa's `brw_wm_prog_data`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentInfo {
    /// Render targets written (colour outputs 0 .. n).
    pub num_render_targets: u32,
    pub computed_depth_mode: ComputedDepth,
    /// The program writes the coverage mask (`uses_omask`).
    pub uses_omask: bool,
    /// The program can discard pixels (`uses_kill`).
    pub uses_kill: bool,
    /// Interpolated source depth is in the payload (`uses_src_depth`).
    pub uses_src_depth: bool,
    /// Interpolated source W is in the payload (`uses_src_w`).
    pub uses_src_w: bool,
    /// The input coverage mask is in the payload (`uses_sample_mask`).
    pub uses_sample_mask: bool,
    /// Dispatched per sample rather than per pixel (`persample_dispatch`).
    pub persample_dispatch: bool,
    /// Render target 0 blends with two source colours (`dual_src_blend`).
    pub dual_src_blend: bool,
    /// Payload barycentric sets, bit n = `brw_barycentric_mode` n
    /// (`barycentric_interp_modes`).
    pub barycentric_interp_modes: u32,
    /// Bit per input slot that is flat shaded (`flat_inputs`).
    pub flat_inputs: u64,
    /// Bit per input slot interpolated without perspective.
    pub noperspective_inputs: u64,
    /// Input slots (`num_varying_inputs`).
    pub num_varying_inputs: u32,
    /// The shader writes memory (`has_side_effects`).
    pub has_side_effects: bool,
    /// The shader asks for early fragment tests (`early_fragment_tests`).
    pub early_fragment_tests: bool,
}

/// What fills one component of a Vivante program's uniform file (Mesa's
/// `etna_uniform_contents`): the driver writes the file before a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtnaUniform {
    /// Nothing reads it (`ETNA_UNIFORM_UNUSED`).
    Unused,
    /// Dword `index` of the application's default uniform block (`ETNA_UNIFORM_UNIFORM`):
    /// component `c` of slot `s` is dword `4 * s + c`.
    User { index: u32 },
    /// These raw bits (`ETNA_UNIFORM_CONSTANT`).
    Constant(u32),
    /// 1 / width (`comp` 0) or 1 / height (`comp` 1) of the texture bound to sampler `unit`
    /// (`ETNA_UNIFORM_TEXRECT_SCALE_X` / `_Y`).
    TextureScale { unit: u32, comp: u32 },
    /// Width (`comp` 0), height (1) or depth (2) of the texture bound to sampler `unit`, an
    /// integer (`ETNA_UNIFORM_TEXTURE_WIDTH` / `_HEIGHT` / `_DEPTH`).
    TextureSize { unit: u32, comp: u32 },
    /// The GPU address of uniform buffer `block` (`ETNA_UNIFORM_UBO0_ADDR + block`).
    UboAddress { block: u32 },
}

/// A Vivante input or output register (Mesa's `etna_shader_inout`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EtnaIo {
    /// Register number.
    pub reg: u32,
    /// `VERT_ATTRIB` (vertex inputs), `VARYING_SLOT` (varyings) or `FRAG_RESULT`
    /// (fragment outputs) number, -1 when the name is not one Mesa numbers.
    pub slot: i32,
    /// The NIR driver location.
    pub location: u32,
    /// Components used, bit 0 = x.
    pub component_mask: u32,
}

/// A Vivante program's register facts (Mesa's `etna_shader_variant`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EtnaInfo {
    /// Temporary registers (`num_temps`).
    pub num_temps: u32,
    /// Loops (`num_loops`).
    pub num_loops: u32,
    /// Vertex: the position output register (`vs_pos_out_reg`).
    pub vs_pos_out_reg: Option<u32>,
    /// Vertex: the point-size output register (`vs_pointsize_out_reg`).
    pub vs_pointsize_out_reg: Option<u32>,
    /// Fragment: the colour output register (`ps_color_out_reg`).
    pub ps_color_out_reg: Option<u32>,
    /// Fragment: the depth output register (`ps_depth_out_reg`).
    pub ps_depth_out_reg: Option<u32>,
    /// The program runs through the instruction cache (`needs_icache`).
    pub needs_icache: bool,
    /// Fragment: the program can discard pixels.
    pub uses_discard: bool,
    /// Vertex: the input register the front end fills with the vertex id (x) and instance
    /// id (y), when the program reads them (`vs_id_in_reg`).
    pub vs_id_in_reg: Option<u32>,
}

impl Program {
    fn kernel(&self) -> Option<&Kernel> {
        match &self.code {
            Code::Intel(k) => Some(k),
            Code::Etnaviv(_) => None,
        }
    }

    /// The SIMD kernels of an Intel program, narrowest first (empty for Vivante).
    pub fn intel_kernels(&self) -> Vec<KernelCode> {
        self.kernel().map_or_else(Vec::new, |k| {
            k.simd
                .iter()
                .map(|v| KernelCode {
                    simd: v.simd,
                    offset: v.offset,
                    size: v.size,
                    dispatch_grf_start: v.dispatch_grf_start,
                    grfs: v.grfs_used,
                })
                .collect()
        })
    }

    /// The kernel of width `simd` and its code.
    pub fn kernel_code(&self, simd: u32) -> Option<(KernelCode, &[u8])> {
        let k = self.intel_kernels().into_iter().find(|k| k.simd == simd)?;
        let code = self
            .bytes
            .get(k.offset as usize..(k.offset + k.size) as usize)?;
        Some((k, code))
    }

    /// An Intel vertex program's facts (the VUE map and what the vertex fetcher pushes).
    pub fn vertex_info(&self) -> Option<&VertexInfo> {
        self.kernel()?.vertex.as_ref()
    }

    /// An Intel geometry program's facts (input and output VUE maps, dispatch, control data).
    pub fn geometry_info(&self) -> Option<&crate::intel::geometry::GeometryInfo> {
        self.kernel()?.geometry.as_ref()
    }

    /// The pushed dwords of an Intel program in payload order (empty for Vivante, whose
    /// uniforms are in [`Program::etna_uniforms`]).
    pub fn push_params(&self) -> Vec<PushParam> {
        self.kernel().map_or_else(Vec::new, |k| {
            k.push_constants
                .iter()
                .map(|&(block, offset)| PushParam { block, offset })
                .collect()
        })
    }

    /// The pushed UBO ranges of an Intel program compiled with Mesa's binding model (empty
    /// otherwise), in push order.
    pub fn ubo_ranges(&self) -> Vec<crate::intel::ubo_ranges::UboRange> {
        self.kernel()
            .map_or_else(Vec::new, |k| k.ubo_ranges.clone())
    }

    /// Every binding-table entry and sampler state the program's messages address, sorted
    /// by kind and index.
    pub fn bindings(&self) -> Vec<Binding> {
        let mut out = Vec::new();
        match &self.code {
            Code::Intel(k) => {
                let mut add = |kind, index, slot| out.push(Binding { kind, index, slot });
                if self.stage == Stage::Fragment {
                    for rt in 0..k.num_render_targets {
                        add(BindingKind::RenderTarget, rt, rt);
                    }
                }
                for &t in &k.surfaces.textures {
                    add(BindingKind::Texture, t, t);
                }
                for &s in &k.surfaces.samplers {
                    add(BindingKind::Sampler, s, s);
                }
                for &b in &k.pull_constant_blocks {
                    add(BindingKind::UniformBuffer, b, k.ubo_surface_base + b);
                }
                for &b in &k.surfaces.ssbo_blocks {
                    add(BindingKind::StorageBuffer, b, k.ssbo_surface_base + b);
                }
            }
            Code::Etnaviv(o) => {
                for s in &o.samplers {
                    out.push(Binding {
                        kind: BindingKind::Texture,
                        index: s.texture,
                        slot: s.unit,
                    });
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// An Intel fragment program's input slots in attribute-setup order.
    pub fn fragment_inputs(&self) -> Vec<FragmentInput> {
        let Some(k) = self.kernel().filter(|_| self.stage == Stage::Fragment) else {
            return Vec::new();
        };
        k.inputs
            .iter()
            .map(|i| FragmentInput {
                // Input names come from the NIR's io semantics; one the table does not
                // know keeps the NIR location, which is what a driver keyed on.
                varying: slot_number(&i.location).unwrap_or(i.base),
                flat: i.flat,
                noperspective: i.noperspective,
                read: i.read,
            })
            .collect()
    }

    /// Mesa's `brw_wm_prog_data::urb_setup`: for each varying below VARYING_SLOT_MAX (64),
    /// the input slot (attribute) it is read from, -1 when it has none. Empty for programs
    /// that are not Intel fragment programs.
    pub fn urb_setup(&self) -> Vec<i32> {
        if self.kernel().is_none() || self.stage != Stage::Fragment {
            return Vec::new();
        }
        let mut setup = vec![-1; 64];
        for (slot, i) in self.fragment_inputs().iter().enumerate() {
            if let Some(s) = setup
                .get_mut(i.varying as usize)
                .filter(|s| i.read && **s < 0)
            {
                *s = slot as i32;
            }
        }
        setup
    }

    /// An Intel fragment program's WM/PS facts; `None` for other stages and for Vivante.
    pub fn fragment_info(&self) -> Option<FragmentInfo> {
        let k = self.kernel().filter(|_| self.stage == Stage::Fragment)?;
        // The flat mask is the kernel's own (Mesa's `flat_inputs`); the noperspective one
        // is the same shape over the inputs' interpolation.
        let noperspective_inputs = k
            .inputs
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, i)| i.noperspective)
            .fold(0u64, |m, (n, _)| m | 1 << n);
        Some(FragmentInfo {
            num_render_targets: k.num_render_targets,
            computed_depth_mode: if k.flags.computes_depth {
                ComputedDepth::On
            } else {
                ComputedDepth::Off
            },
            uses_omask: k.flags.uses_omask,
            uses_kill: k.flags.uses_kill,
            uses_src_depth: k.flags.uses_src_depth_w,
            uses_src_w: k.flags.uses_src_depth_w,
            uses_sample_mask: false,
            persample_dispatch: false,
            dual_src_blend: k.flags.dual_source_blend,
            barycentric_interp_modes: u32::from(k.flags.barycentric_modes),
            flat_inputs: k.flags.flat_inputs,
            noperspective_inputs,
            num_varying_inputs: k.inputs.len() as u32,
            has_side_effects: k.flags.has_side_effects,
            early_fragment_tests: k.flags.early_fragment_tests,
        })
    }

    /// A Vivante program's uniform file, four components per slot.
    pub fn etna_uniforms(&self) -> Vec<EtnaUniform> {
        let Code::Etnaviv(o) = &self.code else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(4 * o.uniforms.len());
        for comps in &o.uniforms {
            for content in comps {
                out.push(match *content {
                    UniformContent::Unused => EtnaUniform::Unused,
                    UniformContent::User(index) => EtnaUniform::User { index },
                    UniformContent::Const(bits) => EtnaUniform::Constant(bits),
                    UniformContent::TextureScale { unit, comp } => EtnaUniform::TextureScale {
                        unit,
                        comp: u32::from(comp),
                    },
                    UniformContent::TextureSize { unit, comp } => EtnaUniform::TextureSize {
                        unit,
                        comp: u32::from(comp),
                    },
                    UniformContent::UboAddress(block) => EtnaUniform::UboAddress { block },
                });
            }
        }
        out
    }

    /// A Vivante program's input registers (vertex attributes or varyings).
    pub fn etna_inputs(&self) -> Vec<EtnaIo> {
        self.etna_io(false)
    }

    /// A Vivante program's output registers (varyings or fragment results).
    pub fn etna_outputs(&self) -> Vec<EtnaIo> {
        self.etna_io(true)
    }

    fn etna_io(&self, outputs: bool) -> Vec<EtnaIo> {
        let Code::Etnaviv(o) = &self.code else {
            return Vec::new();
        };
        let regs = if outputs { &o.outputs } else { &o.inputs };
        regs.iter()
            .map(|r| EtnaIo {
                reg: u32::from(r.reg),
                slot: slot_number(&r.name).map_or(-1, |n| n as i32),
                location: r.slot,
                component_mask: u32::from(r.comps),
            })
            .collect()
    }

    /// A Vivante program's register facts; `None` for Intel.
    pub fn etna_info(&self) -> Option<EtnaInfo> {
        let Code::Etnaviv(o) = &self.code else {
            return None;
        };
        let reg = |r: Option<u8>| r.map(u32::from);
        Some(EtnaInfo {
            num_temps: o.num_temps,
            num_loops: o.num_loops,
            vs_pos_out_reg: reg(o.vs_pos_out_reg),
            vs_pointsize_out_reg: reg(o.vs_pointsize_out_reg),
            ps_color_out_reg: reg(o.ps_color_out_reg),
            ps_depth_out_reg: reg(o.ps_depth_out_reg),
            needs_icache: o.needs_icache,
            uses_discard: o.uses_discard,
            vs_id_in_reg: reg(o.vs_id_in_reg),
        })
    }
}
