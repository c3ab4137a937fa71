//! The shader programs and uniform files a draw runs with, found where the driver put them.
//!
//! Facts (Mesa 23.3 etnaviv_emit.c, etnaviv_screen.c, hw/state_3d.xml.h):
//! - Cores without range registers (models below GC1000 but GC880) hold the VS at 0x4000 and
//!   the PS at 0x6000, four dwords an instruction, and START_PC/END_PC index those windows.
//! - Cores with range registers have one instruction memory at 0xC000 (mirrored at 0x8000,
//!   which GC3000's driver uses for the PS); VS_RANGE/PS_RANGE give each stage's first
//!   instruction in bits 15:0 (the driver puts the PS at 0x100) and START_PC/END_PC count
//!   from there.
//! - With the instruction cache enabled (VS_ICACHE_CONTROL bit 0), the code is read from
//!   memory at VS_INST_ADDR/PS_INST_ADDR instead; before HALTI5 the range states' high half
//!   holds the last instruction and START_PC/END_PC still apply; HALTI5 has no PC states and
//!   runs NEWRANGE_LOW..NEWRANGE_HIGH of the buffer.
//! - Uniforms: VS at 0x5000 and PS at 0x7000 up to HALTI0; one file at 0x30000 from HALTI1
//!   and at 0x36000 (mirrored at 0x34000) on HALTI5, each stage reading from its
//!   VS_UNIFORM_BASE/PS_UNIFORM_BASE (in vec4 slots).

use crate::etnaviv::isa::{self, Inst, Opcode};
use crate::etnaviv::sim::UNIFORM_COUNT;

use super::super::memory::Memory;
use super::super::{Gpu, GpuError};
use super::reg;

/// Which shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Vertex,
    Fragment,
}

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "VS",
            Stage::Fragment => "PS",
        }
    }
}

/// The canonical address of a state that has a mirror, so both spellings land on one
/// register: the instruction memory 0x8000..0xC000 mirrors 0xC000..0x10000, and HALTI5's
/// uniforms 0x34000..0x36000 mirror 0x36000..0x38000.
pub fn canonical_state(address: u32) -> u32 {
    match address {
        0x8000..=0xbfff => address + 0x4000,
        0x34000..=0x35fff => address + 0x2000,
        _ => address,
    }
}

/// Whether the core has VS_RANGE/PS_RANGE (Mesa's `has_shader_range_registers`).
fn has_range_registers(model: u32) -> bool {
    model >= 0x1000 || model == 0x880
}

impl Gpu {
    /// The decoded program of `stage`, from its first instruction to its end.
    pub(super) fn program(
        &mut self,
        mem: &dyn Memory,
        stage: Stage,
    ) -> Result<Vec<Inst>, GpuError> {
        let vs = stage == Stage::Vertex;
        let s = &self.states;
        let pick = |v: u32, p: u32| if vs { v } else { p };
        let mut words = Vec::new();
        let halti5 = self.specs.halti() >= 5;
        let icache = s.get(reg::VS_ICACHE_CONTROL) & 1 != 0;
        let (start, end) = if halti5 {
            (
                s.get(pick(reg::VS_NEWRANGE_LOW, reg::PS_NEWRANGE_LOW)),
                s.get(pick(reg::VS_NEWRANGE_HIGH, reg::PS_NEWRANGE_HIGH)),
            )
        } else {
            (
                s.get(pick(reg::VS_START_PC, reg::PS_START_PC)) & 0xfff,
                s.get(pick(reg::VS_END_PC, reg::PS_END_PC)) & 0xfff,
            )
        };
        if end <= start {
            return Err(GpuError::Unmodelled(format!(
                "{} program of no instructions (start {start}, end {end})",
                stage.name()
            )));
        }
        if halti5 || icache {
            let address = s.get(pick(reg::VS_INST_ADDR, reg::PS_INST_ADDR));
            let mut bytes = vec![0; end as usize * 16];
            mem.read(address, &mut bytes)?;
            words.extend(
                bytes
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            );
        } else {
            let base = if has_range_registers(self.specs.model) {
                let low = s.get(pick(reg::VS_RANGE, reg::PS_RANGE)) & 0xffff;
                reg::SH_INST_MEM + 16 * low
            } else {
                pick(reg::VS_INST_MEM, reg::PS_INST_MEM)
            };
            words.extend((0..end * 4).map(|i| s.get(base + 4 * i)));
        }
        if start != 0 {
            // Branch targets count from the program's first instruction; a program entered
            // in its middle would need the simulator to start there.
            self.unmodelled(format!("{} start PC {start} other than 0", stage.name()));
        }
        let insts = words
            .chunks_exact(4)
            .enumerate()
            .map(|(i, w)| {
                isa::decode([w[0], w[1], w[2], w[3]]).map_err(|e| {
                    GpuError::Unmodelled(format!("{} instruction {i}: {e:?}", stage.name()))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if insts.iter().any(|i| i.opcode == Opcode::Store) {
            // Stores from GLSL ES 3.1's buffers and images; the draw's snapshot of memory is
            // read-only.
            self.unmodelled(format!("{} memory store (STORE)", stage.name()));
        }
        Ok(insts)
    }

    /// The uniform file `stage` reads, as many vec4 slots as the simulator holds.
    pub(super) fn uniform_file(&self, stage: Stage) -> Vec<[u32; 4]> {
        let s = &self.states;
        let vs = stage == Stage::Vertex;
        let (base, slots) = if self.specs.halti() >= 5 {
            let b = s.get(if vs {
                reg::VS_UNIFORM_BASE
            } else {
                reg::PS_UNIFORM_BASE
            });
            (reg::SH_HALTI5_UNIFORMS + 16 * b, 512u32.saturating_sub(b))
        } else if self.specs.uniform_limits().unified {
            let b = s.get(if vs {
                reg::VS_UNIFORM_BASE
            } else {
                reg::PS_UNIFORM_BASE
            });
            (reg::SH_UNIFORMS + 16 * b, 512u32.saturating_sub(b))
        } else if vs {
            (reg::VS_UNIFORMS, 256)
        } else {
            (reg::PS_UNIFORMS, 256)
        };
        (0..slots.min(UNIFORM_COUNT as u32))
            .map(|i| {
                let a = base + 16 * i;
                [s.get(a), s.get(a + 4), s.get(a + 8), s.get(a + 12)]
            })
            .collect()
    }
}

/// The memory a draw's shaders LOAD from, when `insts` has a LOAD: a read-only snapshot of
/// every buffer of the submission at its GPU address (uniform buffers, constant arrays the
/// driver placed in memory), shared by all machines of the draw.
pub(super) fn load_regions(
    insts: &[Inst],
    mem: &dyn Memory,
) -> std::sync::Arc<Vec<(u64, Vec<u8>)>> {
    if insts.iter().any(|i| i.opcode == Opcode::Load) {
        std::sync::Arc::new(mem.snapshot())
    } else {
        Default::default()
    }
}
