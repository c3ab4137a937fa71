//! The front end: walks a command stream and turns it into state writes and engine work.
//!
//! Facts (Mesa's hw/cmdstream.xml.h, the kernel's etnaviv_buffer.c): every command starts with
//! a header dword whose opcode is in bits 31:27 and is padded to an even number of dwords.
//! LOAD_STATE (1) writes `count` (bits 25:16, 0 meaning 1024) consecutive states from the dword
//! address in bits 15:0, converting 16.16 fixed point to float when FIXP (bit 26) is set.
//! DRAW_PRIMITIVES (5): type, start vertex, primitive count. DRAW_INDEXED_PRIMITIVES (6): the
//! same plus an index offset. DRAW_INSTANCED (12): type in bits 19:16 of the header, indexed
//! bit 20, the instance count split over the header (low 16 bits) and the next dword's top
//! byte, the vertex count in its low 24 bits, then the start index. STALL (9), NOP (3),
//! WAIT (7), SEM via the GL_SEMAPHORE_TOKEN state and CHIP_SELECT (13) only order work, which a
//! model that runs each command to completion already does. END (2) stops the stream.

use std::ops::Range;

use super::memory::Memory;
use super::{Draw, Gpu, GpuError};

/// States the front end interprets: the synchronisation states are no-ops for a model that
/// executes each command before the next (GL_SEMAPHORE_TOKEN, GL_FLUSH_CACHE, GL_FLUSH_MMU,
/// GL_STALL_TOKEN) and the pipe select (only the 3D pipe is modelled).
pub const STATES: &[Range<u32>] = &[0x3800..0x3814, 0x3c00..0x3c04];

pub const OP_LOAD_STATE: u32 = 1;
pub const OP_END: u32 = 2;
pub const OP_NOP: u32 = 3;
pub const OP_DRAW_PRIMITIVES: u32 = 5;
pub const OP_DRAW_INDEXED_PRIMITIVES: u32 = 6;
pub const OP_WAIT: u32 = 7;
pub const OP_LINK: u32 = 8;
pub const OP_STALL: u32 = 9;
pub const OP_DRAW_INSTANCED: u32 = 12;
pub const OP_CHIP_SELECT: u32 = 13;

/// Dwords a command occupies, header included (before padding to an even count).
fn fixed_len(op: u32) -> Option<usize> {
    Some(match op {
        OP_END | OP_NOP | OP_WAIT | OP_CHIP_SELECT => 1,
        OP_STALL | OP_LINK => 2,
        OP_DRAW_PRIMITIVES => 4,
        OP_DRAW_INDEXED_PRIMITIVES => 5,
        OP_DRAW_INSTANCED => 3,
        _ => return None,
    })
}

/// 16.16 fixed point to the float the state holds.
pub fn fixp_to_f32(v: u32) -> f32 {
    v as i32 as f32 / 65536.0
}

impl Gpu {
    /// Executes `stream` (relocations already applied) to its END or its last dword.
    pub fn execute(&mut self, mem: &mut dyn Memory, stream: &[u32]) -> Result<(), GpuError> {
        let mut pc = 0;
        while pc < stream.len() {
            let header = stream[pc];
            let op = header >> 27;
            let at = pc * 4;
            let len = match op {
                OP_LOAD_STATE => {
                    let count = match (header >> 16) & 0x3ff {
                        0 => 1024,
                        n => n as usize,
                    };
                    let fixp = header & (1 << 26) != 0;
                    let first = (header & 0xffff) << 2;
                    let values = stream.get(pc + 1..pc + 1 + count).ok_or_else(|| {
                        GpuError::stream(
                            at,
                            format!("LOAD_STATE of {count} values runs past the end"),
                        )
                    })?;
                    for (i, &v) in values.iter().enumerate() {
                        let v = if fixp { fixp_to_f32(v).to_bits() } else { v };
                        self.load_state(mem, first + 4 * i as u32, v)?;
                    }
                    1 + count
                }
                _ => {
                    let Some(len) = fixed_len(op) else {
                        *self.report.unknown_commands.entry(op).or_default() += 1;
                        return Err(GpuError::stream(
                            at,
                            format!("opcode {op} (header 0x{header:08x}) is not modelled"),
                        ));
                    };
                    let words = stream.get(pc..pc + len).ok_or_else(|| {
                        GpuError::stream(at, format!("opcode {op} runs past the end"))
                    })?;
                    match op {
                        OP_END => return Ok(()),
                        OP_LINK => {
                            // The kernel links the driver's buffer back to its ring; a stream
                            // handed to the model has nothing to follow.
                            *self.report.unknown_commands.entry(op).or_default() += 1;
                        }
                        OP_DRAW_PRIMITIVES => self.draw(
                            mem,
                            &Draw {
                                primitive: words[1] & 0xff,
                                start: words[2],
                                primitives: Some(words[3]),
                                vertices: None,
                                indexed: false,
                                index_offset: 0,
                                instances: 1,
                            },
                        )?,
                        OP_DRAW_INDEXED_PRIMITIVES => self.draw(
                            mem,
                            &Draw {
                                primitive: words[1] & 0xff,
                                start: words[2],
                                primitives: Some(words[3]),
                                vertices: None,
                                indexed: true,
                                index_offset: words[4],
                                instances: 1,
                            },
                        )?,
                        OP_DRAW_INSTANCED => self.draw(
                            mem,
                            &Draw {
                                primitive: (header >> 16) & 0xf,
                                start: words[2],
                                primitives: None,
                                vertices: Some(words[1] & 0xff_ffff),
                                indexed: header & (1 << 20) != 0,
                                index_offset: 0,
                                instances: (header & 0xffff) | ((words[1] >> 24) << 16),
                            },
                        )?,
                        _ => {}
                    }
                    len
                }
            };
            pc += len + (len & 1);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drm::etnaviv::CmdStream;
    use crate::etnaviv::gpu::memory::Buffers;
    use crate::etnaviv::specs::Specs;

    #[test]
    fn load_state_writes_consecutive_states_and_converts_fixed_point() {
        let mut gpu = Gpu::new(Specs::from_name("gc2000").unwrap());
        let mut cs = CmdStream::new();
        cs.set_states(0x0a00, &[0x0001_8000, 0xffff_0000]);
        let mut words = cs.words().to_vec();
        // The same two values again, as FIXP.
        words.extend([
            (1 << 27) | (1 << 26) | (2 << 16) | (0x0a08 >> 2),
            0x0001_8000,
            0xffff_0000,
        ]);
        words.push(0);
        gpu.execute(&mut Buffers::new(), &words).unwrap();
        assert_eq!(gpu.states.get(0x0a00), 0x0001_8000);
        assert_eq!(gpu.states.get(0x0a04), 0xffff_0000);
        assert_eq!(gpu.states.get_f32(0x0a08), 1.5);
        assert_eq!(gpu.states.get_f32(0x0a0c), -1.0);
    }

    #[test]
    fn an_unknown_opcode_is_an_error_naming_its_offset() {
        let mut gpu = Gpu::new(Specs::from_name("gc2000").unwrap());
        let words = [OP_NOP << 27, 0, 0x1f << 27, 0];
        let e = gpu.execute(&mut Buffers::new(), &words).unwrap_err();
        assert_eq!(
            e.to_string(),
            "command stream offset 0x8: opcode 31 (header 0xf8000000) is not modelled"
        );
        assert_eq!(gpu.report.unknown_commands.get(&31), Some(&1));
    }
}
