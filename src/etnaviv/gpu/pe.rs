//! The pixel engine: depth, stencil, alpha test, blending and colour writes of each fragment,
//! through tile status when it is enabled.

use std::ops::Range;

/// States the pixel engine interprets.
pub const STATES: &[Range<u32>] = &[];
