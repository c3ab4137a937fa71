//! The program object: a compiled shader as a driver loads it, for either family.

use std::fmt::Write as _;

use crate::etnaviv::shader::ShaderObject;
use crate::intel::kernel::Kernel;
use crate::nir::types::Stage;
use crate::target::Target;

mod binding;

pub use binding::*;

/// What the backend produced.
// A program holds one of these and is never kept in bulk or moved in a loop, so the Intel
// variant's size (its facts are inline) costs nothing that boxing would save.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Code {
    Intel(Kernel),
    Etnaviv(ShaderObject),
}

/// A compiled shader: the machine code in memory order plus the backend's program data.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub target: Target,
    pub stage: Stage,
    /// The bytes to place in GPU memory (Intel: every SIMD variant back to back; Vivante: the
    /// instruction words, little-endian).
    pub bytes: Vec<u8>,
    pub code: Code,
}

/// One row of statistics with the meaning of Mesa's shader statistics (and the columns of
/// shared/corpus/mesa-stats): one per SIMD variant on Intel, one per shader on Vivante, where
/// `simd` is `None` and `grfs` counts vec4 temporaries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatsRow {
    pub simd: Option<u32>,
    pub instructions: u32,
    pub cycles: Option<u32>,
    pub spills: Option<u32>,
    pub fills: Option<u32>,
    pub sends: Option<u32>,
    pub grfs: u32,
}

impl Program {
    pub fn intel(target: Target, stage: Stage, kernel: Kernel) -> Program {
        Program {
            target,
            stage,
            bytes: kernel.code.clone(),
            code: Code::Intel(kernel),
        }
    }

    pub fn etnaviv(target: Target, object: ShaderObject) -> Program {
        let bytes = object
            .code
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        Program {
            target,
            stage: object.stage,
            bytes,
            code: Code::Etnaviv(object),
        }
    }

    pub fn stats(&self) -> Vec<StatsRow> {
        match &self.code {
            Code::Intel(k) => k
                .simd
                .iter()
                .map(|v| StatsRow {
                    simd: Some(v.simd),
                    instructions: v.stats.instructions,
                    cycles: Some(v.stats.cycles),
                    spills: Some(v.stats.spills),
                    fills: Some(v.stats.fills),
                    sends: Some(v.stats.sends),
                    grfs: v.grfs_used,
                })
                .collect(),
            Code::Etnaviv(o) => {
                let s = o.stats();
                vec![StatsRow {
                    instructions: s.instructions,
                    grfs: s.temps,
                    ..StatsRow::default()
                }]
            }
        }
    }

    /// Statistics lines in Mesa's wording (INTEL_DEBUG / ETNA_MESA_DEBUG=shaderdb).
    pub fn stats_text(&self) -> String {
        match &self.code {
            Code::Intel(k) => {
                let mut s = k.simd.iter().fold(String::new(), |mut s, v| {
                    let _ = writeln!(s, "{}", v.stats);
                    s
                });
                s.push_str(&k.binding_text());
                s
            }
            Code::Etnaviv(o) => o.stats_text(),
        }
    }

    /// The program's assembly in Mesa's disassembler syntax.
    pub fn asm_text(&self) -> String {
        match (&self.code, self.target) {
            (Code::Intel(k), Target::Intel(devinfo)) => k.disassemble(devinfo),
            (Code::Etnaviv(o), _) => o.asm_text(),
            // Programs are only built by `Compiler::compile`, which pairs code and target.
            (Code::Intel(k), Target::Etnaviv(s)) => {
                format!(
                    "(Intel {} code for Vivante target {})\n",
                    k.platform, s.name
                )
            }
        }
    }
}
