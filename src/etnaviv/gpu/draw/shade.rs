//! The fragment stage: the pixel shader on 2×2 quads, with the inputs the rasterizer hands
//! it and the outputs the pixel engine takes.
//!
//! Facts (Mesa 23.3 etnaviv_shader.c, etnaviv_compiler_nir*.c, etnaviv_nir.c,
//! hw/state_3d.xml.h): the fragment position arrives in t0 (x, y, z, 1/w) and varying i in
//! t(i + 1) with PS_INPUT_COUNT = varyings + 1; the front-facing value in i0 is 1.0 for
//! triangles the core calls clockwise and 0.0 otherwise (the driver's NIR compares it with 0,
//! inverted when counter-clockwise faces are front). The colour is the temporary PS_OUTPUT_REG
//! names (bits 7:0). A depth output is written to t0.z (Mesa asserts its register is t0);
//! no state says whether the shader writes one, and a compiler may reuse t0 once the
//! position is read, so the model takes the depth from t0.z only when the program writes
//! t0.z and the colour is elsewhere, and otherwise keeps the rasterizer's depth — a choice
//! the report names when it is made. PS_CONTROL bit 1 (SATURATE_RT0) clamps the colour to
//! [0, 1], which the driver sets for UNORM targets.

use crate::etnaviv::gpu::texture::{Stage as TextureStage, TextureUnit};
use crate::etnaviv::isa::Inst;
use crate::etnaviv::sim::{run_quad, Machine};

use super::super::memory::Memory;
use super::super::{Gpu, GpuError};
use super::program::Stage;
use super::raster::PixelInputs;
use super::reg;

/// Where the shader's point coordinate components come from: per varying, per component,
/// `Some(0)` for gl_PointCoord.x and `Some(1)` for .y.
pub type PointCoordMap = Vec<[Option<u8>; 4]>;

/// One pixel's result: the colour as written and the depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shaded {
    pub color: [u32; 4],
    pub z: f32,
}

pub struct FragmentStage {
    insts: Vec<Inst>,
    quad: Vec<Machine>,
    color_reg: usize,
    /// Components each varying fills in its register.
    comps: Vec<usize>,
    point_coord: PointCoordMap,
    saturate: bool,
    depth_from_t0: bool,
}

impl Gpu {
    pub(super) fn fragment_stage(
        &mut self,
        mem: &dyn Memory,
        comps: Vec<usize>,
        point_coord: PointCoordMap,
    ) -> Result<FragmentStage, GpuError> {
        let insts = self.program(mem, Stage::Fragment)?;
        let uniforms = self.uniform_file(Stage::Fragment);
        let control = self.states.get(reg::PS_CONTROL);
        if control & !0x3 != 0 {
            self.unmodelled(format!("PS_CONTROL 0x{control:08x}"));
        }
        if control & 1 != 0 {
            self.unmodelled("PS_CONTROL bypass");
        }
        let color_reg = (self.states.get(reg::PS_OUTPUT_REG) & 0xff) as usize;
        let writes_t0z = insts
            .iter()
            .any(|i| i.dst.use_ && i.dst.reg == 0 && i.dst.mask & 4 != 0);
        let depth_from_t0 = writes_t0z && color_reg != 0;
        if depth_from_t0 {
            self.unmodelled("fragment depth taken from the shader's t0.z");
        }
        let textures = self.texture_unit(mem, TextureStage::Fragment)?;
        let regions = super::program::load_regions(&insts, mem);
        let quad = (0..4)
            .map(|_| {
                let mut m = Machine::new(self.specs);
                m.regions = regions.clone();
                m.robust_reads = true;
                for (slot, u) in m.uniforms.iter_mut().zip(&uniforms) {
                    *slot = *u;
                }
                install_textures(&mut m, &textures);
                m
            })
            .collect();
        Ok(FragmentStage {
            insts,
            quad,
            color_reg,
            comps,
            point_coord,
            saturate: control & 2 != 0,
            depth_from_t0,
        })
    }
}

impl FragmentStage {
    /// Runs one quad (pixel i at (i & 1, i >> 1)); `front` is the i0 value. A pixel's result
    /// is `None` when the shader discarded it.
    pub fn shade(
        &mut self,
        pixels: &[PixelInputs; 4],
        clockwise: bool,
    ) -> Result<[Option<Shaded>; 4], GpuError> {
        for (m, p) in self.quad.iter_mut().zip(pixels) {
            for t in m.temps.iter_mut() {
                *t = [0; 4];
            }
            for i in m.internal.iter_mut() {
                *i = [0; 4];
            }
            m.address = [0; 4];
            m.set_temp(0, p.position);
            for (v, value) in p.vars.iter().enumerate() {
                let n = self.comps.get(v).copied().unwrap_or(0);
                let mut bits = [0u32; 4];
                for c in 0..n.min(4) {
                    bits[c] = match self.point_coord.get(v).and_then(|pc| pc[c]) {
                        Some(k) => p.point_coord[k as usize].to_bits(),
                        None => value[c].to_bits(),
                    };
                }
                if let Some(t) = m.temps.get_mut(v + 1) {
                    *t = bits;
                }
            }
            m.set_front_face(clockwise);
        }
        let outcomes = run_quad(&mut self.quad, &self.insts)
            .map_err(|e| GpuError::Unmodelled(format!("fragment shader: {e}")))?;
        let mut out = [None; 4];
        for (i, (m, o)) in self.quad.iter().zip(outcomes).enumerate() {
            if o.killed {
                continue;
            }
            let mut color = m.temps.get(self.color_reg).copied().unwrap_or_default();
            if self.saturate {
                color = color.map(|c| {
                    let f = f32::from_bits(c);
                    // NaN saturates to 0, like the shader core's .sat.
                    if f > 0.0 { f.min(1.0) } else { 0.0 }.to_bits()
                });
            }
            let z = if self.depth_from_t0 {
                f32::from_bits(m.temps[0][2])
            } else {
                pixels[i].position[2]
            };
            out[i] = Some(Shaded { color, z });
        }
        Ok(out)
    }
}

/// Gives a machine the samplers the draw bound: the texture unit answers its texture
/// instructions, and each enabled sampler's dimensionality decides how many coordinate
/// components the instructions pass.
pub(super) fn install_textures(m: &mut Machine, textures: &TextureUnit) {
    for unit in textures.units() {
        if let Some(d) = m.texture_dims.get_mut(unit as usize) {
            *d = textures.dims(unit) as usize;
        }
    }
    m.set_sampler(Box::new(textures.clone()));
}
