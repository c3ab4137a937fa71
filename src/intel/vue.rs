//! The VUE map: where each varying a vertex shader writes sits in its URB entry (Mesa's
//! `brw_vue_map`), for Gen6 and later.
//!
//! The vertex shader writes its outputs into a Vertex URB Entry of 16-byte slots; the fixed
//! functions after it (clipper, SF) read the header slots by position, and the fragment
//! stage's attribute setup (3DSTATE_SBE) reads the varyings by slot number. Both stages and
//! the driver must agree on the layout, so it is computed from the set of varyings written
//! alone, as brw does:
//!
//! 1. slot 0, the header: point size, layer, viewport index (and shading rate) share it;
//! 2. slot 1, the position;
//! 3. the clip distance slots that are written, then padding to an even slot (the header
//!    ends on a 32-byte boundary);
//! 4. front and back colours next to each other (COL0, BFC0, COL1, BFC1), so the SF can pick
//!    one by facing;
//! 5. every other built-in varying in slot-number order, then the generic ones — in
//!    slot-number order, or, in the separate-shader layout, at fixed distances from the first
//!    generic slot so that independently compiled stages agree.

use std::fmt;

use crate::nir::slots::varying_slot_name;

/// `VARYING_SLOT_POS`.
pub const VARYING_SLOT_POS: u32 = 0;
/// `VARYING_SLOT_COL0`.
pub const VARYING_SLOT_COL0: u32 = 1;
/// `VARYING_SLOT_COL1`.
pub const VARYING_SLOT_COL1: u32 = 2;
/// `VARYING_SLOT_PSIZ`: the header slot.
pub const VARYING_SLOT_PSIZ: u32 = 12;
/// `VARYING_SLOT_BFC0`.
pub const VARYING_SLOT_BFC0: u32 = 13;
/// `VARYING_SLOT_BFC1`.
pub const VARYING_SLOT_BFC1: u32 = 14;
/// `VARYING_SLOT_CLIP_DIST0`.
pub const VARYING_SLOT_CLIP_DIST0: u32 = 17;
/// `VARYING_SLOT_CLIP_DIST1`.
pub const VARYING_SLOT_CLIP_DIST1: u32 = 18;
/// `VARYING_SLOT_LAYER`: header dword 1.
pub const VARYING_SLOT_LAYER: u32 = 22;
/// `VARYING_SLOT_VIEWPORT`: header dword 2.
pub const VARYING_SLOT_VIEWPORT: u32 = 23;
/// `VARYING_SLOT_PRIMITIVE_SHADING_RATE` (an alias of `VARYING_SLOT_FACE`): header dword 0.
pub const VARYING_SLOT_PRIMITIVE_SHADING_RATE: u32 = 24;
/// `VARYING_SLOT_VAR0`: the first generic varying.
pub const VARYING_SLOT_VAR0: u32 = 32;

/// The varyings that live in the header slot rather than in slots of their own.
pub const HEADER_VARYINGS: u64 = 1 << VARYING_SLOT_PSIZ
    | 1 << VARYING_SLOT_LAYER
    | 1 << VARYING_SLOT_VIEWPORT
    | 1 << VARYING_SLOT_PRIMITIVE_SHADING_RATE;

/// A VUE layout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VueMap {
    /// The varyings written (bit n for `VARYING_SLOT` n), header ones included; Mesa's
    /// `slots_valid`.
    pub slots_valid: u64,
    /// The separate-shader (SSO) layout, where generic varyings keep fixed slots.
    pub separate: bool,
    /// The varying in each slot; `None` is padding (Mesa's `BRW_VARYING_SLOT_PAD`).
    pub slots: Vec<Option<u32>>,
}

impl VueMap {
    /// The layout brw gives the varyings in `written` (Gen6+).
    pub fn new(written: u64, separate: bool) -> VueMap {
        let mut valid = written;
        if separate {
            // The next stage may read clip distances whether or not this one writes them:
            // their slots are always reserved so the generic slots do not move.
            valid |= 1 << VARYING_SLOT_CLIP_DIST0 | 1 << VARYING_SLOT_CLIP_DIST1;
        }
        let mut map = VueMap {
            slots_valid: valid,
            separate,
            slots: Vec::new(),
        };
        let own = valid & !(HEADER_VARYINGS & !(1 << VARYING_SLOT_PSIZ));
        map.slots.push(Some(VARYING_SLOT_PSIZ));
        map.slots.push(Some(VARYING_SLOT_POS));
        for clip in [VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_CLIP_DIST1] {
            if own & 1 << clip != 0 {
                map.slots.push(Some(clip));
            }
        }
        if map.slots.len() % 2 == 1 {
            map.slots.push(None);
        }
        for colour in [
            VARYING_SLOT_COL0,
            VARYING_SLOT_BFC0,
            VARYING_SLOT_COL1,
            VARYING_SLOT_BFC1,
        ] {
            if own & 1 << colour != 0 {
                map.slots.push(Some(colour));
            }
        }
        let builtins = own & ((1u64 << VARYING_SLOT_VAR0) - 1);
        for v in bits(builtins) {
            if map.slot_of(v).is_none() {
                map.slots.push(Some(v));
            }
        }
        let first_generic = map.slots.len();
        for v in bits(own & !((1u64 << VARYING_SLOT_VAR0) - 1)) {
            if separate {
                let at = first_generic + (v - VARYING_SLOT_VAR0) as usize;
                map.slots.resize(at, None);
            }
            map.slots.push(Some(v));
        }
        map
    }

    /// The layout brw gives the varyings in `written` on Gen4 and Gen5
    /// (`brw_compute_vue_map` before Gen6): the header, the NDC position (written by the
    /// shader for the clipper; no varying, so `None` here), the position, then every other
    /// built-in varying and the generic ones in slot-number order, without padding and
    /// without the separate-shader layout.
    pub fn gen4(written: u64) -> VueMap {
        let own = written & !(HEADER_VARYINGS & !(1 << VARYING_SLOT_PSIZ));
        let mut map = VueMap {
            slots_valid: written,
            separate: false,
            slots: vec![Some(VARYING_SLOT_PSIZ), None, Some(VARYING_SLOT_POS)],
        };
        for v in bits(own) {
            if map.slot_of(v).is_none() {
                map.slots.push(Some(v));
            }
        }
        map
    }

    /// The slot holding `varying` (the header slot for layer and viewport).
    pub fn slot_of(&self, varying: u32) -> Option<u32> {
        self.slots
            .iter()
            .position(|s| *s == Some(varying))
            .map(|s| s as u32)
    }

    /// Number of slots (16 bytes each).
    pub fn num_slots(&self) -> u32 {
        self.slots.len() as u32
    }
}

/// Mesa's `brw_print_vue_map` text for a vertex shader's outputs (the lines brw prints
/// after the shader under `INTEL_DEBUG=vs`).
impl fmt::Display for VueMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "VS Output VUE map ({} slots, {})",
            self.slots.len(),
            if self.separate { "SSO" } else { "non-SSO" }
        )?;
        for (i, s) in self.slots.iter().enumerate() {
            let name = match s {
                Some(v) => varying_slot_name(*v)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("VARYING_SLOT_{v}")),
                None => "BRW_VARYING_SLOT_PAD".to_string(),
            };
            writeln!(f, "  [{i}] {name}")?;
        }
        Ok(())
    }
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros();
            mask &= mask - 1;
            b
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(m: &VueMap) -> Vec<Option<u32>> {
        m.slots.clone()
    }

    #[test]
    fn position_only_still_has_the_header_slot() {
        let m = VueMap::new(1 << VARYING_SLOT_POS, false);
        assert_eq!(names(&m), [Some(VARYING_SLOT_PSIZ), Some(VARYING_SLOT_POS)]);
    }

    #[test]
    fn one_clip_slot_pads_the_header_to_32_bytes() {
        let m = VueMap::new(1 | 1 << VARYING_SLOT_CLIP_DIST0 | 1 << 32 | 1 << 33, false);
        assert_eq!(
            names(&m),
            [Some(12), Some(0), Some(17), None, Some(32), Some(33)]
        );
    }

    #[test]
    fn colours_pair_with_their_back_faces_before_other_builtins() {
        // POS, COL0, COL1, FOGC, TEX0, BFC0 and VAR1.
        let w = 1 | 1 << 1 | 1 << 2 | 1 << 3 | 1 << 4 | 1 << 13 | 1 << 33;
        let m = VueMap::new(w, false);
        assert_eq!(
            names(&m),
            [
                Some(12),
                Some(0),
                Some(1),
                Some(13),
                Some(2),
                Some(3),
                Some(4),
                Some(33)
            ]
        );
    }

    #[test]
    fn layer_and_viewport_live_in_the_header() {
        let w = 1 | 1 << VARYING_SLOT_LAYER | 1 << VARYING_SLOT_VIEWPORT | 1 << 32;
        let m = VueMap::new(w, false);
        assert_eq!(names(&m), [Some(12), Some(0), Some(32)]);
        assert_eq!(m.slots_valid, w);
    }

    #[test]
    fn separate_shaders_keep_generic_varyings_at_fixed_slots() {
        // VAR2 alone: clip slots reserved, then VAR0 and VAR1 left empty.
        let m = VueMap::new(1 | 1 << 34, true);
        assert_eq!(
            names(&m),
            [Some(12), Some(0), Some(17), Some(18), None, None, Some(34)]
        );
        assert!(m
            .to_string()
            .starts_with("VS Output VUE map (7 slots, SSO)\n"));
        assert!(m.to_string().contains("  [4] BRW_VARYING_SLOT_PAD\n"));
    }
}
