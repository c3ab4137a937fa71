//! The texture unit: sampler and texture states (TE on older cores, descriptors on HALTI5),
//! texel fetch from memory in the driver's layouts and formats, and filtering.

use std::ops::Range;

/// States the texture unit interprets.
pub const STATES: &[Range<u32>] = &[];
