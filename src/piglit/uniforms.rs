//! The default uniform block of one stage, laid out as the corpus NIR says Mesa placed it.
//!
//! Both targets in the corpus keep Gallium's unpacked layout: a uniform's `driver_location`
//! (the second number of its `decl_var`) is a vec4 slot, every array element and every matrix
//! column starts a new slot. Intel reads the block as UBO bytes (`16 · slot + 4 · component`),
//! etnaviv as uniform registers (`slot.component`); the storage is the same.

use crate::nir::ir::{Shader, VarMode};
use crate::nir::types::{BaseType, TypeClass};

/// One numeric uniform of the block.
#[derive(Clone, Debug, PartialEq)]
pub struct Uniform {
    pub name: String,
    pub slot: u32,
    pub base: BaseType,
    /// Components per column, columns per element, elements.
    pub rows: u32,
    pub cols: u32,
    pub len: u32,
}

/// The block's storage and what lives in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub uniforms: Vec<Uniform>,
    /// Names of uniforms whose storage the runner does not model (structs).
    pub opaque: Vec<String>,
    pub slots: Vec<[u32; 4]>,
    /// Whether the core has native integers (booleans are ~0, integers stored as integers);
    /// otherwise everything is a float, as Mesa uploads it for GC2000-class cores.
    pub native_ints: bool,
}

impl Block {
    pub fn new(shader: &Shader, native_ints: bool) -> Result<Block, String> {
        let mut block = Block {
            uniforms: Vec::new(),
            opaque: Vec::new(),
            slots: Vec::new(),
            native_ints,
        };
        for v in shader
            .variables
            .iter()
            .filter(|v| v.mode == VarMode::Uniform)
        {
            let (base, rows, cols) = match v.ty.class() {
                TypeClass::Numeric {
                    base, rows, cols, ..
                } => (base, u32::from(rows), u32::from(cols)),
                TypeClass::Sampler | TypeClass::Image => continue,
                TypeClass::Other => {
                    block.opaque.push(v.name.clone());
                    continue;
                }
            };
            let len = v.ty.arrays.iter().product::<u32>().max(1);
            let u = Uniform {
                name: v.name.clone(),
                slot: v.driver_location,
                base,
                rows,
                cols,
                len,
            };
            let end = (u.slot + u.len * u.cols) as usize;
            if end > 4096 {
                return Err(format!("uniform {} ends at slot {end}", u.name));
            }
            if block.slots.len() < end {
                block.slots.resize(end, [0; 4]);
            }
            if let Some(init) = &v.initializer {
                let values: Vec<&str> = init
                    .split(|c: char| c == '{' || c == '}' || c == ',' || c.is_whitespace())
                    .filter(|w| !w.is_empty())
                    .collect();
                block.store(&u, 0, &values)?;
            }
            block.uniforms.push(u);
        }
        Ok(block)
    }

    pub fn find(&self, name: &str) -> Option<&Uniform> {
        self.uniforms.iter().find(|u| u.name == name)
    }

    /// Stores `values` (as written in a test or an initializer) from element `index` on,
    /// column-major for matrices.
    pub fn store(&mut self, u: &Uniform, index: u32, values: &[&str]) -> Result<(), String> {
        let per_elem = (u.rows * u.cols) as usize;
        for (i, text) in values.iter().enumerate() {
            let elem = index as usize + i / per_elem;
            if elem >= u.len as usize {
                return Err(format!("too many values for uniform {}", u.name));
            }
            let within = i % per_elem;
            let slot = u.slot as usize + elem * u.cols as usize + within / u.rows as usize;
            let comp = within % u.rows as usize;
            let bits = self.bits(u.base, text).ok_or_else(|| {
                format!(
                    "value {text:?} does not fit uniform {} of type {:?}",
                    u.name, u.base
                )
            })?;
            self.slots[slot][comp] = bits;
        }
        Ok(())
    }

    /// The stored bits of one value, as Mesa's state tracker uploads it.
    fn bits(&self, base: BaseType, text: &str) -> Option<u32> {
        let number = |t: &str| -> Option<f64> {
            match t {
                "true" => Some(1.0),
                "false" => Some(0.0),
                _ => match t.strip_prefix("0x") {
                    Some(h) => u32::from_str_radix(h, 16).ok().map(f64::from),
                    None => t.parse::<f64>().ok(),
                },
            }
        };
        Some(match base {
            BaseType::Float => match text.strip_prefix("0x") {
                Some(h) => u32::from_str_radix(h, 16).ok()?,
                None => (number(text)? as f32).to_bits(),
            },
            BaseType::Bool => match (number(text)? != 0.0, self.native_ints) {
                (true, true) => !0,
                (true, false) => 1f32.to_bits(),
                (false, _) => 0,
            },
            _ if !self.native_ints => (number(text)? as f32).to_bits(),
            BaseType::Int => {
                let v = number(text)?;
                if text.starts_with("0x") {
                    v as u32
                } else {
                    v as i64 as i32 as u32
                }
            }
            _ => number(text)? as i64 as u32,
        })
    }

    /// Fills the built-in state uniforms: the fixed-function matrices shader_runner leaves at
    /// their defaults except for the projection (`ortho`), and the window-position transform
    /// for a framebuffer drawn with GL's lower-left origin.
    pub fn set_state(&mut self, projection: &[[f32; 4]; 4], height: u32) {
        let names: Vec<(String, u32)> = self
            .uniforms
            .iter()
            .map(|u| (u.name.clone(), u.slot))
            .collect();
        for (name, slot) in names {
            let cols: Option<[[f32; 4]; 4]> = match name.as_str() {
                "gl_ModelViewProjectionMatrix" | "gl_ProjectionMatrix" => Some(*projection),
                "gl_ModelViewMatrix" | "gl_NormalMatrix" | "gl_TextureMatrix" => Some(IDENTITY),
                "gl_FbWposYTransform" => {
                    let mut m = [[0.0; 4]; 4];
                    m[0] = [1.0, 0.0, -1.0, height as f32];
                    Some(m)
                }
                _ => None,
            };
            let Some(cols) = cols else { continue };
            for (c, col) in cols.iter().enumerate() {
                if let Some(s) = self.slots.get_mut(slot as usize + c) {
                    *s = col.map(f32::to_bits);
                }
            }
        }
    }

    /// The storage as bytes (Intel's default UBO).
    pub fn bytes(&self) -> Vec<u8> {
        self.slots
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }
}

pub const IDENTITY: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// glOrtho(l, r, b, t, -1, 1) as columns.
pub fn ortho([l, r, b, t]: [f32; 4]) -> [[f32; 4]; 4] {
    [
        [2.0 / (r - l), 0.0, 0.0, 0.0],
        [0.0, 2.0 / (t - b), 0.0, 0.0],
        [0.0, 0.0, -1.0, 0.0],
        [-(r + l) / (r - l), -(t + b) / (t - b), 0.0, 1.0],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shader(decls: &str) -> Shader {
        let text = format!(
            "shader: MESA_SHADER_FRAGMENT\nname: t\n{decls}\ndecl_function main (0 params)\n\n\
             impl main {{\n    block b0:  // preds: \n    block b1:\n}}\n"
        );
        crate::nir::parse(&text).unwrap()
    }

    #[test]
    fn slots_follow_driver_locations() {
        let s = shader(
            "decl_var uniform INTERP_MODE_NONE none float one (0, 0, 0)\n\
             decl_var uniform INTERP_MODE_NONE none mat2 m (1, 1, 0)\n\
             decl_var uniform INTERP_MODE_NONE none bool f (2, 3, 0)\n\
             decl_var uniform INTERP_MODE_NONE none int k[2] (3, 4, 0)",
        );
        let mut b = Block::new(&s, true).unwrap();
        assert_eq!(b.slots.len(), 6);
        let m = b.find("m").unwrap().clone();
        b.store(&m, 0, &["1", "2", "3", "4"]).unwrap();
        // Columns (1, 2) and (3, 4) in consecutive slots.
        assert_eq!(b.slots[1][..2], [1f32.to_bits(), 2f32.to_bits()]);
        assert_eq!(b.slots[2][..2], [3f32.to_bits(), 4f32.to_bits()]);
        let f = b.find("f").unwrap().clone();
        b.store(&f, 0, &["true"]).unwrap();
        assert_eq!(b.slots[3][0], !0);
        let k = b.find("k").unwrap().clone();
        b.store(&k, 1, &["-2"]).unwrap();
        assert_eq!(b.slots[5][0], (-2i32) as u32);
        assert!(b.store(&k, 2, &["1"]).is_err());
        // Without native integers the same values are floats.
        let mut g = Block::new(&s, false).unwrap();
        g.store(&k, 0, &["7"]).unwrap();
        assert_eq!(g.slots[4][0], 7f32.to_bits());
        g.store(&f, 0, &["true"]).unwrap();
        assert_eq!(g.slots[3][0], 1f32.to_bits());
    }

    #[test]
    fn ortho_maps_the_window_to_ndc() {
        let m = ortho([0.0, 250.0, 0.0, 250.0]);
        let p = [250.0f32, 0.0, 0.0, 1.0];
        let x: f32 = (0..4).map(|c| m[c][0] * p[c]).sum();
        let y: f32 = (0..4).map(|c| m[c][1] * p[c]).sum();
        assert_eq!((x, y), (1.0, -1.0));
    }
}
