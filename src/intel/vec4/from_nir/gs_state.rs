//! The geometry-shader state the vec4 translator carries (`gs.rs` translates the GS
//! intrinsics with it): the program's facts, the control-data register and the vertex count
//! the thread end writes. Kept apart from `gs.rs` so the translator's state can name it
//! without the two files importing each other.

use crate::error::CompileError;
use crate::intel::eu::RegType;
use crate::intel::geometry::{DispatchMode, GeometryInfo};

use super::super::ir::{replicate, Src};

/// What the translator keeps of a geometry shader.
#[derive(Debug, Clone)]
pub struct GsState {
    /// The program's facts (VUE maps, header and vertex sizes).
    pub info: GeometryInfo,
    /// The control-data register (x of each object's half), when there is a header.
    pub control: Option<u32>,
    /// The vertex count of stream 0 `set_vertex_and_primitive_count` last gave.
    pub count: Src,
}

/// What the thread end writes: the control data and the vertex count.
#[derive(Debug, Clone, Copy)]
pub struct GsEnd {
    pub control: Option<Src>,
    /// The header dword the control data goes to, when it has more than 32 bits.
    pub control_dword: Option<u32>,
    pub count: Src,
}

impl GsState {
    /// The state at the start of `info`'s program; refuses what is not built.
    pub fn new(info: GeometryInfo) -> Result<GsState, CompileError> {
        if info.dispatch_mode == DispatchMode::Simd8 {
            return Err(CompileError::Internal(
                "SIMD8 geometry facts in the vec4 backend".into(),
            ));
        }
        if info.control_data_header_bits() > 128 {
            return Err(CompileError::Unsupported(format!(
                "Gen7 geometry shaders with {} control-data bits (more than 128 take \
                 per-slot offsets)",
                info.control_data_header_bits()
            )));
        }
        Ok(GsState {
            info,
            control: None,
            count: Src::imm(RegType::UD, 0),
        })
    }

    /// What the thread end writes; a header of more than 32 bits needs a constant final
    /// vertex count (the dword its last bits go to).
    pub fn end(&self) -> Result<GsEnd, CompileError> {
        let control_dword = if self.info.control_data_header_bits() > 32 && self.control.is_some() {
            if self.count.file != super::super::ir::File::Imm {
                return Err(CompileError::Unsupported(
                    "a run-time vertex count with more than 32 control-data bits".into(),
                ));
            }
            Some(self.control_dword(self.count.imm))
        } else {
            None
        };
        Ok(GsEnd {
            control_dword,
            control: self.control.map(|r| Src {
                swizzle: replicate(0),
                ..Src::vgrf(r, RegType::UD)
            }),
            count: self.count,
        })
    }

    /// The header dword holding the control bits of the vertex before vertex `counter`
    /// (Mesa's `(vertex_count - 1) * bits_per_vertex / 32`).
    pub fn control_dword(&self, counter: u32) -> u32 {
        counter
            .wrapping_sub(1)
            .wrapping_mul(self.info.control_data_bits_per_vertex)
            / 32
    }
}
