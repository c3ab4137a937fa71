//! Target names: the GPUs a compiler object can be created for.
//!
//! Intel platforms use Mesa's short names, Vivante cores their model names. The name is what a
//! driver passes to `gpucc_compiler_create` and what `--target` takes on the command line.

use std::fmt;

/// Which backend a target belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Intel Gen EUs (the i965 generations).
    Intel,
    /// Vivante GC cores (etnaviv).
    Etnaviv,
}

/// A named GPU target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub name: &'static str,
    pub family: Family,
    /// A human description for listings and error messages.
    pub description: &'static str,
}

/// Every target gpucc knows, Intel in generation order, then Vivante cores by model number.
pub const TARGETS: &[Target] = &[
    Target {
        name: "brw",
        family: Family::Intel,
        description: "Intel Gen4 (Broadwater/Crestline)",
    },
    Target {
        name: "g4x",
        family: Family::Intel,
        description: "Intel Gen4.5 (G45/GM45)",
    },
    Target {
        name: "ilk",
        family: Family::Intel,
        description: "Intel Gen5 (Ironlake)",
    },
    Target {
        name: "snb",
        family: Family::Intel,
        description: "Intel Gen6 (Sandy Bridge)",
    },
    Target {
        name: "ivb",
        family: Family::Intel,
        description: "Intel Gen7 (Ivy Bridge)",
    },
    Target {
        name: "hsw",
        family: Family::Intel,
        description: "Intel Gen7.5 (Haswell)",
    },
    Target {
        name: "bdw",
        family: Family::Intel,
        description: "Intel Gen8 (Broadwell)",
    },
    Target {
        name: "skl",
        family: Family::Intel,
        description: "Intel Gen9 (Skylake)",
    },
    Target {
        name: "gc400",
        family: Family::Etnaviv,
        description: "Vivante GC400",
    },
    Target {
        name: "gc2000",
        family: Family::Etnaviv,
        description: "Vivante GC2000 (HALTI0)",
    },
    Target {
        name: "gc3000",
        family: Family::Etnaviv,
        description: "Vivante GC3000 (HALTI2)",
    },
    Target {
        name: "gc7000",
        family: Family::Etnaviv,
        description: "Vivante GC7000L (HALTI5)",
    },
];

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

/// The names of every target, in table order.
pub fn target_names() -> Vec<&'static str> {
    TARGETS.iter().map(|t| t.name).collect()
}

impl Target {
    /// Looks a target up by name (case-sensitive, as Mesa's short names are).
    pub fn from_name(name: &str) -> Result<Target, UnknownTarget> {
        TARGETS
            .iter()
            .copied()
            .find(|t| t.name == name)
            .ok_or_else(|| UnknownTarget(name.to_string()))
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_design_name_resolves() {
        for name in [
            "brw", "g4x", "ilk", "snb", "ivb", "hsw", "bdw", "skl", "gc2000", "gc3000", "gc7000",
        ] {
            assert_eq!(Target::from_name(name).unwrap().name, name);
        }
        assert_eq!(Target::from_name("ivb").unwrap().family, Family::Intel);
        assert_eq!(Target::from_name("gc3000").unwrap().family, Family::Etnaviv);
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
