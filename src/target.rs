//! Target names: the GPUs a compiler object can be created for.
//!
//! Intel platforms use Mesa's short names and Vivante cores their model names; the name is what
//! a driver passes to `gpucc_compiler_create` and what `--target` takes on the command line.
//! The two device tables ([`DevInfo`] and [`Specs`]) are the single source of the names.

use std::fmt;

use crate::etnaviv::specs::Specs;
use crate::intel::devinfo::DevInfo;
use crate::nir::types::Stage;

/// Which backend a target belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Intel Gen EUs (the i965 generations).
    Intel,
    /// Vivante GC cores (etnaviv).
    Etnaviv,
}

/// A GPU target with its device facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Intel(&'static DevInfo),
    Etnaviv(&'static Specs),
}

/// The target name was not recognised; the message lists the valid ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTarget(pub String);

impl fmt::Display for UnknownTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown target '{}'; valid targets: {}",
            self.0,
            target_names().join(", ")
        )
    }
}

impl std::error::Error for UnknownTarget {}

/// Every target, Intel platforms oldest first, then Vivante cores.
pub fn all_targets() -> impl Iterator<Item = Target> {
    DevInfo::all()
        .iter()
        .map(Target::Intel)
        .chain(Specs::all().iter().map(Target::Etnaviv))
}

/// The names of every target, in table order.
pub fn target_names() -> Vec<&'static str> {
    all_targets().map(|t| t.name()).collect()
}

impl Target {
    /// Looks a target up by name.
    pub fn from_name(name: &str) -> Result<Target, UnknownTarget> {
        DevInfo::from_name(name)
            .map(Target::Intel)
            .or_else(|| Specs::from_name(name).map(Target::Etnaviv))
            .ok_or_else(|| UnknownTarget(name.to_string()))
    }

    /// A target name, or a Vivante core written as a preset with some of its values changed
    /// (`gc2000:instruction_count=128,features4=0x8`, see
    /// [`crate::etnaviv::params::CoreParams::from_description`]): what `--target` takes. The
    /// message says what is wrong with the text.
    pub fn parse(text: &str) -> Result<Target, String> {
        if !text.contains(':') {
            return Target::from_name(text).map_err(|e| e.to_string());
        }
        let params = crate::etnaviv::params::CoreParams::from_description(text)?;
        Specs::from_params(&params)
            .map(Target::Etnaviv)
            .map_err(|e| format!("target '{text}': {e}"))
    }

    /// The canonical name (an alias such as `vlv` resolves to the table's `byt`; a Vivante core
    /// made from its values has the name [`Specs::from_params`] gives it).
    pub fn name(&self) -> &'static str {
        match self {
            Target::Intel(d) => d.name,
            Target::Etnaviv(s) => s.name,
        }
    }

    pub fn family(&self) -> Family {
        match self {
            Target::Intel(_) => Family::Intel,
            Target::Etnaviv(_) => Family::Etnaviv,
        }
    }

    /// A one-line description for listings.
    pub fn description(&self) -> String {
        match self {
            Target::Intel(d) => format!("{}, Gen{}", d.full_name, d.ver as f32 / 10.0),
            Target::Etnaviv(s) => {
                let halti = match s.halti() {
                    h if h < 0 => "pre-HALTI".to_string(),
                    h => format!("HALTI{h}"),
                };
                format!("Vivante GC{:X} rev {:#x}, {halti}", s.model, s.revision)
            }
        }
    }
}

/// The stages gpucc compiles for a target. This is the one table of it: the compiler refuses
/// every other stage by name before a backend runs, `gpucc targets` prints it, and README's
/// target table is checked against that listing.
/// Gen7 compiles vertex, tessellation-control, tessellation-evaluation and geometry shaders
/// with the vec4 backend (SIMD4x2 threads), Gen8+ with the scalar one (SIMD8).
const INTEL_GEN7: &[Stage] = &[
    Stage::Vertex,
    Stage::TessCtrl,
    Stage::TessEval,
    Stage::Geometry,
    Stage::Fragment,
    Stage::Compute,
];
/// Gen8+ adds the scalar tessellation-control stage (single-patch dispatch) and runs
/// tessellation-evaluation and geometry shaders SIMD8.
const INTEL_GEN8_TO_GEN9: &[Stage] = &[
    Stage::Vertex,
    Stage::TessCtrl,
    Stage::TessEval,
    Stage::Geometry,
    Stage::Fragment,
    Stage::Compute,
];
const VIVANTE: &[Stage] = &[Stage::Vertex, Stage::Fragment];
/// Gen6 (snb): the vec4 backend's vertex shaders (see `intel::vec4::gen6`) and the scalar
/// backend's fragment shaders (see `intel::fs::gen6`).
const INTEL_GEN6: &[Stage] = &[Stage::Vertex, Stage::Fragment];
/// G4x (Gen4.5): the vec4 backend's vertex shaders (see `intel::vec4::gen4`).
const INTEL_G4X: &[Stage] = &[Stage::Vertex];

impl Target {
    /// The shader stages this target compiles: vertex and fragment on Gen6, vertex on G4x,
    /// nothing on Gen4 and Gen5, which have no backend yet.
    pub fn stages(&self) -> &'static [Stage] {
        match self {
            Target::Intel(d) if (80..=90).contains(&d.ver) => INTEL_GEN8_TO_GEN9,
            Target::Intel(d) if (70..=75).contains(&d.ver) => INTEL_GEN7,
            Target::Intel(d) if d.ver == 60 => INTEL_GEN6,
            Target::Intel(d) if d.ver == 45 => INTEL_G4X,
            Target::Intel(_) => &[],
            Target::Etnaviv(_) => VIVANTE,
        }
    }

    /// Why the target compiles nothing, or `None` when it compiles some stages.
    pub fn why_no_stages(&self) -> Option<&'static str> {
        match self {
            Target::Intel(d) if d.ver < 60 && d.ver != 45 => {
                Some("Gen4 and Gen5 have no backend in gpucc yet (the scalar backend starts at Gen6 fragment shaders, the vec4 one at G4x vertex shaders)")
            }
            _ => None,
        }
    }

    /// The stages as `gpucc targets` and README's table print them (`vs fs cs`, or `none`).
    pub fn stage_list(&self) -> String {
        let names: Vec<&str> = self.stages().iter().map(|s| s.short_name()).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(" ")
        }
    }

    /// `Ok` when the target compiles `stage`; otherwise the message that refuses it by name.
    pub fn check_stage(&self, stage: Stage) -> Result<(), String> {
        if self.stages().contains(&stage) {
            return Ok(());
        }
        Err(match self.why_no_stages() {
            Some(why) => format!("{} shaders on {}: {why}", stage.mesa_name(), self.name()),
            None => format!(
                "{} shaders on {} (it compiles {})",
                stage.mesa_name(),
                self.name(),
                self.stage_list()
            ),
        })
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_design_name_resolves() {
        let names = ["brw", "g4x", "ilk", "snb", "ivb", "hsw", "bdw", "skl"];
        for name in names.into_iter().chain(["gc2000", "gc3000", "gc7000"]) {
            assert_eq!(Target::from_name(name).unwrap().name(), name);
        }
        assert_eq!(Target::from_name("ivb").unwrap().family(), Family::Intel);
        assert_eq!(
            Target::from_name("gc3000").unwrap().family(),
            Family::Etnaviv
        );
    }

    #[test]
    fn unknown_name_lists_valid_ones() {
        let msg = Target::from_name("gen12").unwrap_err().to_string();
        assert!(
            msg.contains("'gen12'") && msg.contains("ivb") && msg.contains("gc7000"),
            "{msg}"
        );
    }
}
