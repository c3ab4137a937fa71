//! The simulated core's own data, which the front end and every engine work on: its specs,
//! its state file, the report of a run, and the draw the front end decoded. The command
//! dispatch over the engines is in [`super`].

use std::collections::BTreeMap;

use super::error::GpuError;
use super::fragment::Fragment;
use super::states::States;
use crate::etnaviv::specs::Specs;

/// A draw as the front end decoded it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// PRIMITIVE_TYPE_* (1 points .. 8 quads).
    pub primitive: u32,
    /// First vertex, or first index for indexed draws.
    pub start: u32,
    /// Primitive count (DRAW_PRIMITIVES and DRAW_INDEXED_PRIMITIVES).
    pub primitives: Option<u32>,
    /// Vertex count (DRAW_INSTANCED).
    pub vertices: Option<u32>,
    pub indexed: bool,
    /// Added to every index (DRAW_INDEXED_PRIMITIVES).
    pub index_offset: u32,
    pub instances: u32,
}

/// What a run did and what it met that the model does not interpret.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub submits: u32,
    pub draws: u32,
    /// Commands by opcode that were skipped or refused.
    pub unknown_commands: BTreeMap<u32, u32>,
    /// Features a draw or engine met and did not model, by name, with counts.
    pub unmodelled: BTreeMap<String, u32>,
    /// Errors that ended submissions, in order (the first few).
    pub errors: Vec<String>,
}

/// The simulated core.
pub struct Gpu {
    pub specs: &'static Specs,
    pub states: States,
    pub report: Report,
    /// When set, every fragment a draw hands the pixel engine is also recorded here (tests
    /// and tools look at what the rasterizer produced without depending on the pixels).
    pub fragment_log: Option<Vec<Fragment>>,
}

impl Gpu {
    pub fn new(specs: &'static Specs) -> Gpu {
        Gpu {
            specs,
            states: States::default(),
            report: Report::default(),
            fragment_log: None,
        }
    }

    /// Records a submission's failure in the report (the first 16).
    pub(super) fn note_error(&mut self, e: &GpuError) {
        if self.report.errors.len() < 16 {
            self.report
                .errors
                .push(format!("submit {}: {e}", self.report.submits));
        }
    }

    /// Counts something a draw or engine did not model.
    pub fn unmodelled(&mut self, what: impl Into<String>) {
        *self.report.unmodelled.entry(what.into()).or_default() += 1;
    }
}
