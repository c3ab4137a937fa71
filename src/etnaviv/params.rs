//! A core described by its values rather than by a name: what the kernel reports for it
//! (`DRM_ETNAVIV_PARAM_GPU_*`), checked, named, and kept once per process.
//!
//! Mesa's etnaviv knows a core only by those values (`etna_get_specs` reads them and derives
//! its `etna_specs`); gpucc's presets (gc400, gc2000, gc3000, gc7000) are four such value sets
//! with names. [`Specs::from_params`](super::specs::Specs::from_params) turns any value set
//! into a target:
//!
//! - values equal to a preset's, all of them, give that preset (same `&'static Specs`, same
//!   name);
//! - any other valid set gives a custom core named `gc<model>-r<revision>-<fingerprint>`, all
//!   three in lower-case hex without leading zeros except the fingerprint, which is eight
//!   digits: FNV-1a (32-bit) over the values as little-endian u32s in [`CoreParams::words`]
//!   order. The name is the same in every process and every gpucc version for the same values,
//!   and two cores that differ in any value have different names (`gc2000-r5108-…` for a
//!   GC2000 whose kernel reports fewer constants than the preset is not `gc2000`).
//!
//! Because a target holds `&'static Specs`, custom cores are interned: a process-wide table
//! keeps one entry per distinct value set (equal values share it), at most
//! [`MAX_CUSTOM_CORES`] of them, so memory is bounded by the number of distinct cores a
//! process describes and not by how often it describes them.

use std::fmt;

use super::features::{bit, word};

/// The values the kernel reports for a core, each the `DRM_ETNAVIV_PARAM_GPU_*` parameter of
/// the same name (Mesa's `etna_get_specs` reads the same ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CoreParams {
    /// `GPU_MODEL` (chipModel), e.g. 0x2000.
    pub model: u32,
    /// `GPU_REVISION` (chipRevision), e.g. 0x5108.
    pub revision: u32,
    /// `GPU_FEATURES_0..12`: chipFeatures, then chipMinorFeatures0..11.
    pub features: [u32; 13],
    /// `GPU_REGISTER_MAX`: temporaries per thread.
    pub register_max: u32,
    /// `GPU_INSTRUCTION_COUNT`: instruction memory size.
    pub instruction_count: u32,
    /// `GPU_NUM_CONSTANTS`: uniform vec4 slots (0, an old kernel's "not reported", is taken as
    /// 168, as Mesa does).
    pub num_constants: u32,
    /// `GPU_NUM_VARYINGS`.
    pub num_varyings: u32,
    /// `GPU_THREAD_COUNT`.
    pub thread_count: u32,
    /// `GPU_SHADER_CORE_COUNT`.
    pub shader_core_count: u32,
    /// `GPU_PIXEL_PIPES`.
    pub pixel_pipes: u32,
}

/// Most distinct custom cores one process may describe (presets do not count). A process
/// drives a handful of GPUs; the bound keeps a caller that makes up cores in a loop from
/// growing the table without end.
pub const MAX_CUSTOM_CORES: usize = 1024;

/// Why a value set is no target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreError {
    /// A value the compiler cannot target: the field (as named in [`CoreParams`] and in C's
    /// `gpucc_etna_core`, `features[0]` for a feature word) and why.
    Invalid { field: &'static str, reason: String },
    /// The process already describes [`MAX_CUSTOM_CORES`] distinct custom cores.
    TableFull,
    /// Two different value sets have the same fingerprint (the name would not tell them
    /// apart); the earlier one keeps the name.
    NameClash(String),
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::Invalid { field, reason } => write!(f, "{field} {reason}"),
            CoreError::TableFull => write!(
                f,
                "this process already describes {MAX_CUSTOM_CORES} distinct custom Vivante \
                 cores, the most gpucc keeps"
            ),
            CoreError::NameClash(name) => write!(
                f,
                "another core with different values is already named {name} (a fingerprint \
                 collision)"
            ),
        }
    }
}

impl std::error::Error for CoreError {}

fn invalid(field: &'static str, reason: String) -> CoreError {
    CoreError::Invalid { field, reason }
}

impl CoreParams {
    /// Number of values in [`CoreParams::words`].
    pub const WORDS: usize = 22;

    /// The values in declaration order: model, revision, features[0..13], register_max,
    /// instruction_count, num_constants, num_varyings, thread_count, shader_core_count,
    /// pixel_pipes (the order of C's `gpucc_etna_core` after `struct_size`).
    pub fn words(&self) -> [u32; Self::WORDS] {
        let mut w = [0u32; Self::WORDS];
        w[0] = self.model;
        w[1] = self.revision;
        w[2..15].copy_from_slice(&self.features);
        w[15] = self.register_max;
        w[16] = self.instruction_count;
        w[17] = self.num_constants;
        w[18] = self.num_varyings;
        w[19] = self.thread_count;
        w[20] = self.shader_core_count;
        w[21] = self.pixel_pipes;
        w
    }

    /// Checks that the compiler can target the core: a model, a 3D pipe, temporaries and
    /// instruction memory. Every other value is taken as the kernel reports it, since Mesa's
    /// rules (and so [`Specs`](super::specs::Specs)' methods) give every value a meaning.
    pub fn validate(&self) -> Result<(), CoreError> {
        if self.model == 0 {
            return Err(invalid(
                "model",
                "is 0: no Vivante core reports model 0 (a struct left zeroed?)".into(),
            ));
        }
        let f0 = self.features[word::FEATURES];
        if f0 & bit::FEATURES_PIPE_3D == 0 {
            return Err(invalid(
                "features[0]",
                format!(
                    "(chipFeatures) is {f0:#010x}, without PIPE_3D ({:#x}): the core has no 3D \
                     pipe and runs no shaders (Mesa's etnaviv does not drive such a core)",
                    bit::FEATURES_PIPE_3D
                ),
            ));
        }
        if self.register_max == 0 {
            return Err(invalid(
                "register_max",
                "is 0: the core would have no temporary registers".into(),
            ));
        }
        if self.instruction_count == 0 {
            return Err(invalid(
                "instruction_count",
                "is 0: the core would have no instruction memory".into(),
            ));
        }
        Ok(())
    }

    /// FNV-1a (32-bit) over [`CoreParams::words`] as little-endian bytes.
    pub fn fingerprint(&self) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        for w in self.words() {
            for b in w.to_le_bytes() {
                h ^= u32::from(b);
                h = h.wrapping_mul(0x0100_0193);
            }
        }
        h
    }

    /// The name of the core when it is no preset: `gc<model>-r<revision>-<fingerprint>`.
    pub fn custom_name(&self) -> String {
        format!(
            "gc{:x}-r{:x}-{:08x}",
            self.model,
            self.revision,
            self.fingerprint()
        )
    }

    /// The field names [`CoreParams::set`] takes, in [`CoreParams::words`] order.
    pub const FIELD_NAMES: [&'static str; Self::WORDS] = [
        "model",
        "revision",
        "features0",
        "features1",
        "features2",
        "features3",
        "features4",
        "features5",
        "features6",
        "features7",
        "features8",
        "features9",
        "features10",
        "features11",
        "features12",
        "register_max",
        "instruction_count",
        "num_constants",
        "num_varyings",
        "thread_count",
        "shader_core_count",
        "pixel_pipes",
    ];

    /// Sets the value named `field` (a name of [`CoreParams::FIELD_NAMES`]; `features[3]` is
    /// accepted for `features3`). False when no value has that name.
    pub fn set(&mut self, field: &str, value: u32) -> bool {
        let field = field.replace(['[', ']'], "");
        let Some(i) = Self::FIELD_NAMES.iter().position(|&n| n == field) else {
            return false;
        };
        match i {
            0 => self.model = value,
            1 => self.revision = value,
            2..=14 => self.features[i - 2] = value,
            15 => self.register_max = value,
            16 => self.instruction_count = value,
            17 => self.num_constants = value,
            18 => self.num_varyings = value,
            19 => self.thread_count = value,
            20 => self.shader_core_count = value,
            _ => self.pixel_pipes = value,
        }
        true
    }
}
