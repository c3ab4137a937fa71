//! Virtual register classes layered on the vec4 temporaries (shared/seeds/001).
//!
//! All threads of a core share one temporary file, so every register a shader saves lets more
//! threads run. Write masks and swizzles let several small values share one vec4 register:
//! over each base register sit fifteen *types* — the whole vec4, four vec3s, six vec2s and
//! four scalars — and two types conflict exactly when their component sets overlap. A fifth
//! class holds the contiguous XY and ZW pairs that fast transcendentals write their two-part
//! results to. The q-values come from the conflicts ([`RegSetBuilder::finalize`]) rather than
//! from the seed's hand table, which has its rows and columns swapped.
//!
//! Building the set takes a while (960 registers, their conflicts, the q-values), so a
//! [`RegFile`] is built once per compiler object and shared through an `Arc`.

// Component and type indices address several parallel tables at once.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;

use crate::ra::{ClassId, RegId, RegSet, RegSetBuilder, RegSetError};

/// Register types per base register, in the seed's order.
pub const NUM_TYPES: usize = 15;

/// Component set (write mask) of each type.
pub const TYPE_MASK: [u8; NUM_TYPES] = [
    0xf, // VEC4
    0x7, 0xb, 0xd, 0xe, // VEC3: XYZ, XYW, XZW, YZW
    0x3, 0x5, 0x9, 0x6, 0xa, 0xc, // VEC2: XY, XZ, XW, YZ, YW, ZW
    0x1, 0x2, 0x4, 0x8, // SCALAR: X, Y, Z, W
];

/// The register classes a value can be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Vec4,
    Vec3,
    Vec2,
    Scalar,
    /// XY or ZW: two adjacent components.
    Pair,
}

impl Class {
    pub const ALL: [Class; 5] = [
        Class::Vec4,
        Class::Vec3,
        Class::Vec2,
        Class::Scalar,
        Class::Pair,
    ];

    /// The smallest class holding `width` components.
    pub fn for_width(width: u8) -> Class {
        match width {
            1 => Class::Scalar,
            2 => Class::Vec2,
            3 => Class::Vec3,
            _ => Class::Vec4,
        }
    }

    /// Components a value of the class occupies.
    pub fn width(self) -> u32 {
        match self {
            Class::Vec4 => 4,
            Class::Vec3 => 3,
            Class::Vec2 | Class::Pair => 2,
            Class::Scalar => 1,
        }
    }

    fn types(self) -> &'static [usize] {
        match self {
            Class::Vec4 => &[0],
            Class::Vec3 => &[1, 2, 3, 4],
            Class::Vec2 => &[5, 6, 7, 8, 9, 10],
            Class::Scalar => &[11, 12, 13, 14],
            Class::Pair => &[5, 10],
        }
    }
}

/// The shared register set and its classes.
#[derive(Debug)]
pub struct RegFile {
    pub set: Arc<RegSet>,
    pub temps: u32,
    classes: [ClassId; 5],
}

/// A register of the set as base register and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VirtReg {
    pub base: u8,
    pub ty: usize,
}

impl VirtReg {
    pub fn from_id(r: RegId) -> VirtReg {
        VirtReg {
            base: (r.index() / NUM_TYPES) as u8,
            ty: r.index() % NUM_TYPES,
        }
    }
    pub fn id(self) -> RegId {
        RegId((self.base as usize * NUM_TYPES + self.ty) as u32)
    }
    pub fn mask(self) -> u8 {
        TYPE_MASK[self.ty]
    }
    /// The physical components, in order: value component `i` lives in `comps()[i]`.
    pub fn comps(self) -> Vec<u8> {
        (0..4).filter(|c| self.mask() & (1 << c) != 0).collect()
    }
}

impl RegFile {
    pub fn new(temps: u32) -> Result<RegFile, RegSetError> {
        let n = temps as usize * NUM_TYPES;
        let mut b = RegSetBuilder::new(n);
        let classes = Class::ALL.map(|c| {
            b.add_class((0..temps as usize).flat_map(|base| {
                c.types()
                    .iter()
                    .map(move |&t| RegId((base * NUM_TYPES + t) as u32))
            }))
        });
        for base in 0..temps as usize {
            for i in 0..NUM_TYPES {
                for j in 0..i {
                    if TYPE_MASK[i] & TYPE_MASK[j] != 0 {
                        b.add_conflict(
                            RegId((base * NUM_TYPES + i) as u32),
                            RegId((base * NUM_TYPES + j) as u32),
                        );
                    }
                }
            }
        }
        Ok(RegFile {
            set: b.finalize()?,
            temps,
            classes,
        })
    }

    pub fn class_id(&self, c: Class) -> ClassId {
        self.classes[Class::ALL.iter().position(|x| *x == c).unwrap_or(0)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_values_follow_the_layout() {
        let f = RegFile::new(4).unwrap();
        let q = |a, b| f.set.q(f.class_id(a), f.class_id(b));
        // q(b, c): how many registers of class b one register of class c can block. A vec4
        // blocks its base register's four scalars and six vec2s; a vec2 two scalars; a
        // scalar one vec4, three vec3s and three vec2s.
        assert_eq!(q(Class::Scalar, Class::Vec4), 4);
        assert_eq!(q(Class::Vec2, Class::Vec4), 6);
        assert_eq!(q(Class::Scalar, Class::Vec2), 2);
        assert_eq!(q(Class::Vec3, Class::Scalar), 3);
        assert_eq!(q(Class::Vec4, Class::Scalar), 1);
        assert_eq!(q(Class::Vec4, Class::Vec3), 1);
        assert_eq!(q(Class::Vec2, Class::Scalar), 3);
        assert_eq!(q(Class::Vec3, Class::Vec3), 4);
        assert_eq!(q(Class::Pair, Class::Vec4), 2);
        let vw = VirtReg { base: 2, ty: 3 };
        assert_eq!(vw.comps(), vec![0, 2, 3]);
        assert_eq!(VirtReg::from_id(vw.id()), vw);
    }
}
