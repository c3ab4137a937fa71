//! Target names: the GPUs a compiler object can be created for.
//!
//! Intel platforms use Mesa's short names and Vivante cores their model names; the name is what
//! a driver passes to `gpucc_compiler_create` and what `--target` takes on the command line.
//! The two device tables ([`DevInfo`] and [`Specs`]) are the single source of the names.

use std::fmt;

use crate::etnaviv::specs::Specs;
use crate::intel::devinfo::DevInfo;

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

    /// The canonical name (an alias such as `vlv` resolves to the table's `byt`).
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
