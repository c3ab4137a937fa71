//! The compiled program object: what a driver needs to load and bind an etnaviv shader.

use std::fmt::Write as _;

use crate::etnaviv::compiler::consts::UniformContent;
use crate::etnaviv::isa::{self, Inst};
use crate::nir::types::Stage;

/// One input or output register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoReg {
    /// Temporary register holding it.
    pub reg: u8,
    /// Driver location (input slot, output slot).
    pub slot: u32,
    /// Components used (bit 0 = x).
    pub comps: u8,
    /// Mesa's slot name (`VARYING_SLOT_POS`, `FRAG_RESULT_COLOR`...), when known.
    pub name: String,
}

/// A sampler the program reads: the hardware unit, the NIR texture index behind it and how
/// many coordinate components address it (1D, 2D, 3D/cube/array).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerUse {
    pub unit: u32,
    pub texture: u32,
    pub coord_dims: u8,
}

/// Statistics with the meaning of Mesa's etnaviv shader-db report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    pub instructions: u32,
    pub temps: u32,
    pub loops: u32,
    /// Mesa's "immediates": `uniforms.count`, the components of every uniform slot the
    /// program's uniform table has (user uniforms, constants and driver values alike; Mesa
    /// packs scalars into its table, gpucc gives each user uniform slot its four).
    pub immediates: u32,
    /// Uniform slots read, user ones included.
    pub uniforms: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShaderObject {
    pub target: &'static str,
    pub stage: Stage,
    /// The instructions as the ISA layer models them.
    pub insts: Vec<Inst>,
    /// The same, encoded: four words per instruction.
    pub code: Vec<[u32; 4]>,
    pub num_temps: u32,
    pub num_loops: u32,
    /// Contents of each uniform slot (vec4 registers u0, u1, ...).
    pub uniforms: Vec<[UniformContent; 4]>,
    pub inputs: Vec<IoReg>,
    pub outputs: Vec<IoReg>,
    pub samplers: Vec<SamplerUse>,
    pub vs_pos_out_reg: Option<u8>,
    pub vs_pointsize_out_reg: Option<u8>,
    pub ps_color_out_reg: Option<u8>,
    pub ps_depth_out_reg: Option<u8>,
    pub uses_discard: bool,
    pub needs_icache: bool,
    /// Vertex: the input register the front end fills with the vertex id (x) and instance id
    /// (y), when the program reads them (Mesa's `vs_id_in_reg`).
    pub vs_id_in_reg: Option<u8>,
}

impl ShaderObject {
    pub fn stats(&self) -> Stats {
        let immediates = self.uniforms.len() as u32 * 4;
        Stats {
            instructions: self.code.len() as u32,
            temps: self.num_temps,
            loops: self.num_loops,
            immediates,
            uniforms: self.uniforms.len() as u32,
        }
    }

    fn stage_name(&self) -> &'static str {
        match self.stage {
            Stage::Fragment => "FRAG",
            _ => "VERT",
        }
    }

    /// Mesa's shader-db line (`ETNA_MESA_DEBUG=shaderdb`).
    pub fn stats_text(&self) -> String {
        let s = self.stats();
        format!(
            "{} shader: {} instructions, {} temps, {} immediates, {} loops\n",
            self.stage_name(),
            s.instructions,
            s.temps,
            s.immediates,
            s.loops
        )
    }

    /// The listing Mesa's etnaviv dump prints: words and disassembly per instruction, then
    /// temps, the filled uniforms and the I/O registers.
    pub fn asm_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.stage_name());
        for (i, (w, inst)) in self.code.iter().zip(&self.insts).enumerate() {
            let _ = writeln!(
                out,
                "{i:04}: {:08x} {:08x} {:08x} {:08x}  {}",
                w[0],
                w[1],
                w[2],
                w[3],
                isa::disassemble_inst(inst)
            );
        }
        let _ = writeln!(out, "num loops: {}", self.num_loops);
        let _ = writeln!(out, "num temps: {}", self.num_temps);
        let _ = writeln!(out, "immediates:");
        for (i, slot) in self.uniforms.iter().enumerate() {
            for (c, content) in slot.iter().enumerate() {
                let comp = ["x", "y", "z", "w"][c];
                match content {
                    UniformContent::Const(b) => {
                        let _ =
                            writeln!(out, " [{i}].{comp} = {:.6} (0x{b:08x})", f32::from_bits(*b));
                    }
                    UniformContent::TextureScale { unit, comp: k } => {
                        let _ = writeln!(
                            out,
                            " [{i}].{comp} = texture {unit} scale {}",
                            ["x", "y"][*k as usize & 1]
                        );
                    }
                    UniformContent::TextureSize { unit, comp: k } => {
                        let _ = writeln!(
                            out,
                            " [{i}].{comp} = texture {unit} size {}",
                            ["width", "height", "depth"][usize::from(*k).min(2)]
                        );
                    }
                    UniformContent::UboAddress(n) => {
                        let _ = writeln!(out, " [{i}].{comp} = UBO {n} address");
                    }
                    // A user component gathered away from its own slot.
                    UniformContent::User(n) if *n as usize != 4 * i + c => {
                        let _ = writeln!(
                            out,
                            " [{i}].{comp} = uniform {n} (u{}.{})",
                            n / 4,
                            ["x", "y", "z", "w"][*n as usize % 4]
                        );
                    }
                    _ => {}
                }
            }
        }
        let _ = writeln!(out, "inputs:");
        for io in &self.inputs {
            let _ = writeln!(
                out,
                " [{}] t{} {} comps=0x{:x}",
                io.slot, io.reg, io.name, io.comps
            );
        }
        let _ = writeln!(out, "outputs:");
        for io in &self.outputs {
            let _ = writeln!(
                out,
                " [{}] t{} {} comps=0x{:x}",
                io.slot, io.reg, io.name, io.comps
            );
        }
        let _ = writeln!(out, "special:");
        let reg = |r: Option<u8>| r.map_or(-1, i32::from);
        match self.stage {
            Stage::Fragment => {
                let _ = writeln!(out, "  ps_color_out_reg={}", reg(self.ps_color_out_reg));
                let _ = writeln!(out, "  ps_depth_out_reg={}", reg(self.ps_depth_out_reg));
            }
            _ => {
                let _ = writeln!(out, "  vs_pos_out_reg={}", reg(self.vs_pos_out_reg));
                let _ = writeln!(
                    out,
                    "  vs_pointsize_out_reg={}",
                    reg(self.vs_pointsize_out_reg)
                );
            }
        }
        out
    }
}
