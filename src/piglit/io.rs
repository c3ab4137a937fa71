//! Which varying slot each I/O base of a shader stands for.
//!
//! A `decl_var`'s driver location is not always the base the loads use (Mesa's vec4 backend
//! renumbers vertex attributes; arrays span several slots), so the runner reads the
//! `io location=... slots=N` semantics of the I/O intrinsics themselves.

use std::collections::BTreeMap;

use crate::nir::interp::OutputSlot;
use crate::nir::ir::{IndexValue, InstrKind, Shader};
use crate::nir::opcodes::{IndexKind, Intrinsic};

/// One I/O range: driver slots `base..base + slots` hold `location` and the slots after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoRange {
    pub base: u32,
    pub location: String,
    pub slots: u32,
}

/// The ranges the intrinsics named in `intrinsics` access, sorted by base, without duplicates.
pub fn ranges(shader: &Shader, intrinsics: &[Intrinsic]) -> Vec<IoRange> {
    let mut out: Vec<IoRange> = Vec::new();
    let Some(imp) = shader.entry() else {
        return out;
    };
    for ins in &imp.instrs {
        let InstrKind::Intrinsic(ii) = &ins.kind else {
            continue;
        };
        if !intrinsics.contains(&ii.intrinsic) {
            continue;
        }
        let Some(IndexValue::Text(sem)) = ii.index(IndexKind::IoSemantics) else {
            continue;
        };
        let field = |key: &str| {
            sem.split(key)
                .nth(1)
                .and_then(|r| r.split(|c: char| c.is_whitespace() || c == ',').next())
                .map(str::to_string)
        };
        let (Some(location), Some(base)) = (field("location="), ii.int_index(IndexKind::Base))
        else {
            continue;
        };
        let slots = field("slots=").and_then(|s| s.parse().ok()).unwrap_or(1);
        let r = IoRange {
            base: base.max(0) as u32,
            location,
            slots,
        };
        if !out.contains(&r) {
            out.push(r);
        }
    }
    out.sort_by_key(|r| r.base);
    out
}

/// The slot `k` places after `location` (`VARYING_SLOT_VAR0` + 2 = `VARYING_SLOT_VAR2`);
/// the location itself when it has no number to advance.
pub fn offset_location(location: &str, k: u32) -> String {
    if k == 0 {
        return location.to_string();
    }
    let digits = location.len()
        - location
            .bytes()
            .rev()
            .take_while(u8::is_ascii_digit)
            .count();
    match location[digits..].parse::<u32>() {
        Ok(n) => format!("{}{}", &location[..digits], n + k),
        Err(_) => format!("{location}+{k}"),
    }
}

/// The slot name of driver slot `slot` given the ranges of a stage.
pub fn slot_name(ranges: &[IoRange], slot: u32) -> Option<String> {
    ranges
        .iter()
        .filter(|r| r.base <= slot && slot < r.base + r.slots.max(1))
        .map(|r| offset_location(&r.location, slot - r.base))
        .next()
}

/// An invocation's outputs by slot name (`ranges` of the stage's output stores), each as
/// four raw 32-bit components (unwritten ones zero).
pub fn named_outputs(
    ranges: &[IoRange],
    outputs: &BTreeMap<u32, OutputSlot>,
) -> BTreeMap<String, [u32; 4]> {
    let mut named: BTreeMap<String, [u32; 4]> = BTreeMap::new();
    for (&n, slot) in outputs {
        let name = slot_name(ranges, n).unwrap_or_else(|| slot.name.clone());
        let e = named.entry(name).or_insert([0; 4]);
        for (c, v) in slot.comps.iter().take(4).enumerate() {
            if let Some(v) = v {
                e[c] = *v as u32;
            }
        }
    }
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_advance_the_slot_number() {
        assert_eq!(offset_location("VARYING_SLOT_VAR0", 3), "VARYING_SLOT_VAR3");
        assert_eq!(offset_location("VARYING_SLOT_TEX1", 1), "VARYING_SLOT_TEX2");
        assert_eq!(offset_location("VARYING_SLOT_POS", 0), "VARYING_SLOT_POS");
        let r = [IoRange {
            base: 32,
            location: "VARYING_SLOT_VAR0".into(),
            slots: 4,
        }];
        assert_eq!(slot_name(&r, 35).as_deref(), Some("VARYING_SLOT_VAR3"));
        assert_eq!(slot_name(&r, 36), None);
    }
}
