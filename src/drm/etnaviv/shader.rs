//! Putting a compiled shader in front of the shader core: where the instructions go (state
//! window or buffer through the instruction cache) and the states that describe the program.
//!
//! Facts: Mesa 23.3 etnaviv_emit.c (the three upload forms and their state order) and
//! hw/state.xml.h / state_3d.xml.h (addresses and fields).

use super::cmdstream::CmdStream;
use crate::drm::error::{Error, Result};
use crate::etnaviv::specs::Specs;

/// State addresses (bytes) used here.
pub mod reg {
    pub const VS_END_PC: u32 = 0x0800;
    pub const VS_OUTPUT_COUNT: u32 = 0x0804;
    pub const VS_INPUT_COUNT: u32 = 0x0808;
    pub const VS_TEMP_REGISTER_CONTROL: u32 = 0x080c;
    pub const VS_OUTPUT: u32 = 0x0810;
    pub const VS_INPUT: u32 = 0x0820;
    pub const VS_START_PC: u32 = 0x0838;
    pub const VS_RANGE: u32 = 0x085c;
    pub const VS_UNIFORM_CACHE: u32 = 0x0860;
    pub const VS_ICACHE_CONTROL: u32 = 0x0868;
    pub const VS_INST_ADDR: u32 = 0x086c;
    pub const VS_NEWRANGE_LOW: u32 = 0x0874;
    pub const VS_ICACHE_PREFETCH: u32 = 0x088c;
    pub const VS_NEWRANGE_HIGH: u32 = 0x08bc;
    pub const VS_ICACHE_COUNT: u32 = 0x15604;
    pub const PS_END_PC: u32 = 0x1000;
    pub const PS_OUTPUT_REG: u32 = 0x1004;
    pub const PS_INPUT_COUNT: u32 = 0x1008;
    pub const PS_TEMP_REGISTER_CONTROL: u32 = 0x100c;
    pub const PS_START_PC: u32 = 0x1018;
    pub const PS_RANGE: u32 = 0x101c;
    pub const PS_INST_ADDR: u32 = 0x1028;
    pub const PS_ICACHE_PREFETCH: u32 = 0x1048;
    pub const PS_NEWRANGE_LOW: u32 = 0x087c;
    pub const PS_NEWRANGE_HIGH: u32 = 0x1090;
    pub const PS_ICACHE_COUNT: u32 = 0x1094;
    pub const SH_CONFIG: u32 = 0x15600;
    pub const VS_UNIFORM_BASE: u32 = 0x0864;
    pub const PS_UNIFORM_BASE: u32 = 0x1024;
    pub const VS_HALTI5_OUTPUT_COUNT: u32 = 0x0870;
    pub const VS_HALTI5_UNK008A0: u32 = 0x08a0;
    pub const VS_HALTI5_INPUT: u32 = 0x08c0;
    pub const VS_HALTI5_OUTPUT: u32 = 0x08e0;
}

/// `VS_ICACHE_CONTROL` bits.
pub mod icache {
    pub const ENABLE: u32 = 0x01;
    pub const FLUSH_VS: u32 = 0x10;
    pub const FLUSH_PS: u32 = 0x20;
}

/// `VS_UNIFORM_CACHE` bits.
pub const UNIFORM_CACHE_FLUSH: u32 = 0x01;
pub const UNIFORM_CACHE_PS: u32 = 0x10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Vertex,
    Fragment,
}

/// What the command stream needs to know about one compiled shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderImage<'a> {
    pub stage: Stage,
    /// Instructions, four dwords each.
    pub code: &'a [u32],
    /// Temporaries used (TEMP_REGISTER_CONTROL.NUM_TEMPS).
    pub temps: u32,
    /// VS: input registers of the vertex attributes, in attribute order; PS: varying count.
    pub inputs: &'a [u8],
    /// VS: output registers in varying order (position first); PS: the color output register.
    pub outputs: &'a [u8],
    /// Uniform values (vec4 components in order).
    pub uniforms: &'a [u32],
    /// The compiler's value for INPUT_COUNT's UNK8 field.
    pub input_count_unk8: u32,
}

/// Where the instructions go for this core and program size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UploadForm {
    /// LOAD_STATE into the instruction window at this state address.
    StateWindow { offset: u32 },
    /// A buffer read through the instruction cache with the pre-HALTI5 range/control states.
    IcachePreHalti5,
    /// A buffer with HALTI5's new-range and icache count states.
    IcacheHalti5,
}

/// Mesa's `has_shader_range_registers`: GC1000 and newer, and GC880.
fn has_range_registers(specs: &Specs) -> bool {
    specs.model >= 0x1000 || specs.model == 0x880
}

/// Chooses the upload form: HALTI5 always fetches through the cache; older cores with a cache
/// use it when the program does not fit the state window; cores without one must fit.
pub fn upload_form(specs: &Specs, stage: Stage, instructions: usize) -> Result<UploadForm> {
    let mem = specs.instruction_memory();
    if specs.halti() >= 5 {
        return Ok(UploadForm::IcacheHalti5);
    }
    if instructions <= mem.max_instructions as usize {
        let offset = match stage {
            Stage::Vertex => mem.vs_offset,
            Stage::Fragment => mem.ps_offset,
        };
        return Ok(UploadForm::StateWindow { offset });
    }
    if mem.has_icache {
        return Ok(UploadForm::IcachePreHalti5);
    }
    Err(Error::Unsupported(format!(
        "shader of {instructions} instructions does not fit the {} instruction slots of {} (no instruction cache)",
        mem.max_instructions, specs.name
    )))
}

/// Emits the instruction upload of one shader. `bo_index`/`presumed` name the buffer holding
/// the code for the cached forms (ignored for the state window).
pub fn emit_code(
    s: &mut CmdStream,
    specs: &Specs,
    image: &ShaderImage,
    form: UploadForm,
    bo_index: u32,
    presumed: u64,
) -> Result<()> {
    if image.code.is_empty() || image.code.len() % 4 != 0 {
        return Err(Error::Invalid(format!(
            "shader code must be a non-empty multiple of four dwords, got {}",
            image.code.len()
        )));
    }
    let n = (image.code.len() / 4) as u32;
    let vs = image.stage == Stage::Vertex;
    match form {
        UploadForm::IcacheHalti5 => {
            let (lo, hi, addr, count) = if vs {
                (
                    reg::VS_NEWRANGE_LOW,
                    reg::VS_NEWRANGE_HIGH,
                    reg::VS_INST_ADDR,
                    reg::VS_ICACHE_COUNT,
                )
            } else {
                (
                    reg::PS_NEWRANGE_LOW,
                    reg::PS_NEWRANGE_HIGH,
                    reg::PS_INST_ADDR,
                    reg::PS_ICACHE_COUNT,
                )
            };
            s.set_state(lo, 0);
            s.set_state(hi, n);
            s.set_state_reloc(addr, bo_index, 0, presumed);
            s.set_state(reg::SH_CONFIG, 0x2);
            s.set_state(reg::VS_ICACHE_CONTROL, icache::ENABLE);
            s.set_state(count, n - 1);
        }
        UploadForm::IcachePreHalti5 => {
            let (range, flush, addr) = if vs {
                (reg::VS_RANGE, icache::FLUSH_VS, reg::VS_INST_ADDR)
            } else {
                (reg::PS_RANGE, icache::FLUSH_PS, reg::PS_INST_ADDR)
            };
            s.set_state(range, (n - 1) << 16);
            s.set_state(reg::VS_ICACHE_CONTROL, icache::ENABLE | flush);
            s.set_state_reloc(addr, bo_index, 0, presumed);
        }
        UploadForm::StateWindow { offset } => {
            if specs.instruction_memory().has_icache {
                // Code in the state window bypasses the cache: flush and leave it disabled.
                s.set_state(reg::VS_ICACHE_CONTROL, icache::FLUSH_VS | icache::FLUSH_PS);
            }
            if has_range_registers(specs) {
                // The VS owns instruction slots 0..255 of the unified window, the PS 256..511.
                if vs {
                    s.set_state(reg::VS_RANGE, (n - 1) << 16);
                } else {
                    s.set_state(reg::PS_RANGE, ((n - 1 + 0x100) << 16) | 0x100);
                }
            }
            s.set_states(offset, image.code);
        }
    }
    Ok(())
}

/// Packs register numbers four to a dword (VS_INPUT/VS_OUTPUT layout: 8 bits each).
fn pack_registers(regs: &[u8]) -> Vec<u32> {
    regs.chunks(4)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u32, |w, (i, &r)| w | u32::from(r) << (8 * i))
        })
        .collect()
}

/// Emits the program states of one shader: start and end PC (in instructions, relative to
/// the upload; HALTI5 has none, its shaders start at the instruction address), temporaries,
/// input/output mapping and the uniforms. HALTI5 moved the VS output and input maps to new
/// addresses and wants the output count in a new form.
pub fn emit_program_state(
    s: &mut CmdStream,
    specs: &Specs,
    image: &ShaderImage,
    start_pc: u32,
) -> Result<()> {
    let n = (image.code.len() / 4) as u32;
    let limits = specs.uniform_limits();
    let halti5 = specs.halti() >= 5;
    match image.stage {
        Stage::Vertex => {
            if image.outputs.len() > 16 || image.inputs.len() > 16 {
                return Err(Error::Invalid(
                    "a vertex shader has at most 16 inputs and 16 outputs".into(),
                ));
            }
            let outputs = image.outputs.len() as u32;
            if halti5 {
                if outputs == 0 {
                    return Err(Error::Invalid(
                        "a vertex shader must write the position".into(),
                    ));
                }
                // Count in 7:0, and the output buffer stride (16 bytes per output) from bit 8.
                s.set_state(reg::VS_HALTI5_OUTPUT_COUNT, outputs | (outputs * 0x10) << 8);
            } else {
                s.set_state(reg::VS_START_PC, start_pc);
                s.set_state(reg::VS_END_PC, start_pc + n);
                s.set_state(reg::VS_OUTPUT_COUNT, outputs & 0xff);
            }
            s.set_state(
                reg::VS_INPUT_COUNT,
                (image.input_count_unk8 & 0x1f) << 8 | (image.inputs.len() as u32 & 0xf),
            );
            s.set_state(reg::VS_TEMP_REGISTER_CONTROL, image.temps & 0x3f);
            let (output_reg, input_reg) = if halti5 {
                // Mesa's magic value: 0x0001000e with 0x110 / outputs in bits 28:20.
                s.set_state(
                    reg::VS_HALTI5_UNK008A0,
                    0x0001_000e | (0x110 / outputs) << 20,
                );
                (reg::VS_HALTI5_OUTPUT, reg::VS_HALTI5_INPUT)
            } else {
                (reg::VS_OUTPUT, reg::VS_INPUT)
            };
            if !image.outputs.is_empty() {
                s.set_states(output_reg, &pack_registers(image.outputs));
            }
            if !image.inputs.is_empty() {
                s.set_states(input_reg, &pack_registers(image.inputs));
            }
            if !image.uniforms.is_empty() {
                if limits.unified {
                    s.set_state(reg::VS_UNIFORM_BASE, 0);
                }
                s.set_state(reg::VS_UNIFORM_CACHE, UNIFORM_CACHE_FLUSH);
                s.set_states(limits.vs_offset, image.uniforms);
            }
        }
        Stage::Fragment => {
            if !halti5 {
                s.set_state(reg::PS_START_PC, start_pc);
                s.set_state(reg::PS_END_PC, start_pc + n);
            }
            s.set_state(
                reg::PS_OUTPUT_REG,
                image.outputs.first().copied().unwrap_or(0).into(),
            );
            // Varyings arrive in temporaries 1..; the count includes the position in t0.
            let inputs = image.inputs.len() as u32 + 1;
            s.set_state(
                reg::PS_INPUT_COUNT,
                (image.input_count_unk8 & 0x1f) << 8 | (inputs & 0x1f),
            );
            s.set_state(
                reg::PS_TEMP_REGISTER_CONTROL,
                image.temps.max(inputs) & 0x3f,
            );
            if !image.uniforms.is_empty() {
                if limits.unified {
                    // PS uniforms follow the VS ones in the shared bank.
                    s.set_state(reg::PS_UNIFORM_BASE, limits.max_vs_uniforms);
                }
                s.set_state(
                    reg::VS_UNIFORM_CACHE,
                    UNIFORM_CACHE_FLUSH | UNIFORM_CACHE_PS,
                );
                s.set_states(limits.ps_offset, image.uniforms);
            }
        }
    }
    Ok(())
}

/// Everything one shader needs in the stream: the code in the form the core wants, the
/// program states, and on HALTI5 the prefetch prompt that makes the cache load the new code.
/// Returns the form used, so the caller knows whether `bo_index` must be in the submit.
pub fn emit_shader(
    s: &mut CmdStream,
    specs: &Specs,
    image: &ShaderImage,
    bo_index: u32,
    presumed: u64,
) -> Result<UploadForm> {
    let form = upload_form(specs, image.stage, image.code.len() / 4)?;
    emit_code(s, specs, image, form, bo_index, presumed)?;
    emit_program_state(s, specs, image, 0)?;
    if form == UploadForm::IcacheHalti5 {
        let prefetch = match image.stage {
            Stage::Vertex => reg::VS_ICACHE_PREFETCH,
            Stage::Fragment => reg::PS_ICACHE_PREFETCH,
        };
        s.set_state(prefetch, 0);
    }
    Ok(form)
}
