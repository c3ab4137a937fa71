//! The default uniform block of one stage, laid out as the corpus NIR says Mesa placed it.
//!
//! Two layouts occur, chosen by the driver (`PackedDriverUniformStorage`):
//!
//! - unpacked (crocus for Gen4–7.5, etnaviv): a uniform's `driver_location` (the second
//!   number of its `decl_var`) is a vec4 slot, and every array element and matrix column
//!   starts a new slot: component c of column k of element e is dword
//!   `4 · (location + e · columns + k) + c`;
//! - packed (iris for Gen8+): `driver_location` counts dwords and values follow each other
//!   without padding: dword `location + (e · columns + k) · rows + c`.
//!
//! Intel reads the block as UBO bytes (4 per dword), etnaviv as uniform registers (4 dwords
//! each); the storage is the same.

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
    /// Names of struct uniforms: laid out from their initializers, but the NIR text does
    /// not name their members, so a test cannot set them by name.
    pub opaque: Vec<String>,
    /// Names of 64-bit uniforms (double, dvec, dmat): their layout is not modelled, so a test
    /// that sets one cannot run.
    pub wide: Vec<String>,
    /// Sampler uniforms: name, first sampler slot, array length.
    pub samplers: Vec<(String, u32, u32)>,
    /// The storage, in dwords.
    pub words: Vec<u32>,
    /// Packed layout (see the module documentation).
    pub packed: bool,
    /// Whether the core has native integers (booleans are ~0, integers stored as integers);
    /// otherwise everything is a float, as Mesa uploads it for GC2000-class cores.
    pub native_ints: bool,
}

impl Block {
    pub fn new(shader: &Shader, native_ints: bool, packed: bool) -> Result<Block, String> {
        let mut block = Block {
            uniforms: Vec::new(),
            opaque: Vec::new(),
            wide: Vec::new(),
            samplers: Vec::new(),
            words: Vec::new(),
            packed,
            native_ints,
        };
        // The default UBO's declared size in dwords (`decl_var ubo ... vec4[N] uniform_0`).
        let capacity = shader
            .variables
            .iter()
            .find(|v| v.mode == VarMode::Ubo && v.name == "uniform_0")
            .map(|v| 4 * v.ty.arrays.iter().product::<u32>().max(1) as usize);
        // Where the stage's own (non-state) uniforms end, in packed dwords.
        let mut next_state = shader
            .variables
            .iter()
            .filter(|v| v.mode == VarMode::Uniform && !v.name.starts_with("gl_"))
            .filter_map(|v| match v.ty.class() {
                TypeClass::Numeric { rows, cols, .. } => {
                    let len = v.ty.arrays.iter().product::<u32>().max(1);
                    Some((v.driver_location + len * u32::from(rows) * u32::from(cols)) as usize)
                }
                _ => None,
            })
            .max()
            .unwrap_or(0);
        for v in shader
            .variables
            .iter()
            .filter(|v| v.mode == VarMode::Uniform)
        {
            let (base, rows, cols) = match v.ty.class() {
                TypeClass::Numeric { bits: 64, .. } if v.initializer.is_none() => {
                    block.wide.push(v.name.clone());
                    continue;
                }
                TypeClass::Numeric {
                    base, rows, cols, ..
                } => (base, u32::from(rows), u32::from(cols)),
                TypeClass::Sampler => {
                    let len = v.ty.arrays.iter().product::<u32>().max(1);
                    block
                        .samplers
                        .push((v.name.clone(), v.driver_location, len));
                    continue;
                }
                TypeClass::Image => continue,
                TypeClass::Other => {
                    block.opaque.push(v.name.clone());
                    if let Some(init) = &v.initializer {
                        block.store_aggregate(v.driver_location, init)?;
                    }
                    continue;
                }
            };
            let len = v.ty.arrays.iter().product::<u32>().max(1);
            let mut u = Uniform {
                name: v.name.clone(),
                slot: v.driver_location,
                base,
                rows,
                cols,
                len,
            };
            let mut end = block.dword(&u, u.len - 1, u.cols - 1, u.rows - 1) + 1;
            // iris prints a built-in state uniform's program-wide location, but places the
            // stage's state uniforms right after its own uniforms, one after the other.
            if let (true, true, Some(cap)) = (packed, v.name.starts_with("gl_"), capacity) {
                let size = (u.len * u.cols * u.rows) as usize;
                if end > cap && next_state + size <= cap {
                    u.slot = next_state as u32;
                    next_state += size;
                    end = next_state;
                }
            }
            if end > 65536 {
                return Err(format!("uniform {} ends at dword {end}", u.name));
            }
            if block.words.len() < end {
                block.words.resize(end.next_multiple_of(4), 0);
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

    /// Applies the initializers `other` (the program's other stage) declares for uniforms
    /// this stage declares without one. The linker gives a uniform one storage for the whole
    /// program, so an initializer written in one stage is the value the other stage reads
    /// (piglit's `uniform-initializer/*-set-by-other-stage` tests check exactly this).
    pub fn share_initializers(&mut self, own: &Shader, other: &Shader) -> Result<(), String> {
        for v in other
            .variables
            .iter()
            .filter(|v| v.mode == VarMode::Uniform)
        {
            let Some(init) = &v.initializer else { continue };
            let declared_here = own
                .variables
                .iter()
                .any(|w| w.mode == VarMode::Uniform && w.name == v.name && w.initializer.is_none());
            let Some(u) = self.find(&v.name).cloned() else {
                continue;
            };
            if !declared_here {
                continue;
            }
            let values: Vec<&str> = init
                .split(|c: char| c == '{' || c == '}' || c == ',' || c.is_whitespace())
                .filter(|w| !w.is_empty())
                .collect();
            self.store(&u, 0, &values)?;
        }
        Ok(())
    }

    /// Stores a struct (or array of structs) initializer. nir_print writes each vector or
    /// scalar member as an innermost `{ ... }` group, in declaration order; the layouts place
    /// each such group at the next vec4 slot (unpacked) or the next dword (packed). Integers
    /// print as hex, floats as decimals.
    fn store_aggregate(&mut self, location: u32, init: &str) -> Result<(), String> {
        let mut groups: Vec<Vec<String>> = Vec::new();
        let mut current: Option<Vec<String>> = None;
        let mut word = String::new();
        for ch in init.chars().chain(std::iter::once(' ')) {
            if ch == '{' || ch == '}' || ch == ',' || ch.is_whitespace() {
                if !word.is_empty() {
                    if let Some(g) = current.as_mut() {
                        g.push(std::mem::take(&mut word));
                    } else {
                        word.clear();
                    }
                }
            } else {
                word.push(ch);
            }
            match ch {
                '{' => current = Some(Vec::new()),
                '}' => {
                    if let Some(g) = current.take() {
                        if !g.is_empty() {
                            groups.push(g);
                        }
                    }
                }
                _ => {}
            }
        }
        let mut at = if self.packed {
            location as usize
        } else {
            4 * location as usize
        };
        for g in groups {
            if g.len() > 4 {
                return Err(format!("initializer group of {} values", g.len()));
            }
            if self.words.len() < at + 4 {
                self.words.resize((at + 4).next_multiple_of(4), 0);
            }
            for (c, text) in g.iter().enumerate() {
                let base = if text.starts_with("0x") {
                    BaseType::Int
                } else if text == "true" || text == "false" {
                    BaseType::Bool
                } else {
                    BaseType::Float
                };
                self.words[at + c] = self
                    .bits(base, text)
                    .ok_or_else(|| format!("initializer value {text:?}"))?;
            }
            at += if self.packed { g.len() } else { 4 };
        }
        Ok(())
    }

    /// The dword holding component `comp` of column `col` of element `elem`.
    pub fn dword(&self, u: &Uniform, elem: u32, col: u32, comp: u32) -> usize {
        let column = (elem * u.cols + col) as usize;
        if self.packed {
            u.slot as usize + column * u.rows as usize + comp as usize
        } else {
            4 * (u.slot as usize + column) + comp as usize
        }
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
            let within = (i % per_elem) as u32;
            let at = self.dword(u, elem as u32, within / u.rows, within % u.rows);
            let bits = self.bits(u.base, text).ok_or_else(|| {
                format!(
                    "value {text:?} does not fit uniform {} of type {:?}",
                    u.name, u.base
                )
            })?;
            *self
                .words
                .get_mut(at)
                .ok_or_else(|| format!("uniform {} is outside its block", u.name))? = bits;
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
        let uniforms = self.uniforms.clone();
        for u in &uniforms {
            let cols: Option<[[f32; 4]; 4]> = match u.name.as_str() {
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
            for (k, col) in cols.iter().enumerate().take(u.cols as usize) {
                for (c, v) in col.iter().enumerate().take(u.rows as usize) {
                    let at = self.dword(u, 0, k as u32, c as u32);
                    if let Some(w) = self.words.get_mut(at) {
                        *w = v.to_bits();
                    }
                }
            }
        }
    }

    /// The storage as bytes (Intel's default UBO).
    pub fn bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
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
            "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 0\noutputs: 0\nuniforms: 0\n{decls}\ndecl_function main (0 params)\n\n\
             impl main {{\n    block b0:  // preds: \n                // succs: b1 \n    block b1:\n}}\n"
        );
        crate::nir::parse(&text).unwrap()
    }

    #[test]
    fn slots_follow_driver_locations() {
        let s = shader(
            "decl_var uniform INTERP_MODE_NONE none float one (0, 0, 0)\n\
             decl_var uniform INTERP_MODE_NONE none mat2 m (1, 1, 0)\n\
             decl_var uniform INTERP_MODE_NONE none bool f (2, 3, 0)\n\
             decl_var uniform INTERP_MODE_NONE none int[2] k (3, 4, 0)",
        );
        let mut b = Block::new(&s, true, false).unwrap();
        assert_eq!(b.words.len(), 24);
        let m = b.find("m").unwrap().clone();
        b.store(&m, 0, &["1", "2", "3", "4"]).unwrap();
        // Columns (1, 2) and (3, 4) in consecutive slots.
        assert_eq!(b.words[4..6], [1f32.to_bits(), 2f32.to_bits()]);
        assert_eq!(b.words[8..10], [3f32.to_bits(), 4f32.to_bits()]);
        let f = b.find("f").unwrap().clone();
        b.store(&f, 0, &["true"]).unwrap();
        assert_eq!(b.words[12], !0);
        let k = b.find("k").unwrap().clone();
        b.store(&k, 1, &["-2"]).unwrap();
        assert_eq!(b.words[20], (-2i32) as u32);
        assert!(b.store(&k, 2, &["1"]).is_err());
        // Without native integers the same values are floats.
        let mut g = Block::new(&s, false, false).unwrap();
        g.store(&k, 0, &["7"]).unwrap();
        assert_eq!(g.words[16], 7f32.to_bits());
        g.store(&f, 0, &["true"]).unwrap();
        assert_eq!(g.words[12], 1f32.to_bits());
    }

    #[test]
    fn packed_layout_counts_dwords() {
        // As iris places them: float a at dword 0, b at 1, vec3 c at 2..5, mat2 m at 5..9.
        let s = shader(
            "decl_var uniform INTERP_MODE_NONE none float a (0, 0, 0)\n\
             decl_var uniform INTERP_MODE_NONE none float b (1, 1, 0)\n\
             decl_var uniform INTERP_MODE_NONE none vec3 c (2, 2, 0)\n\
             decl_var uniform INTERP_MODE_NONE none mat2 m (3, 5, 0)",
        );
        let mut b = Block::new(&s, true, true).unwrap();
        let bu = b.find("b").unwrap().clone();
        b.store(&bu, 0, &["0.3"]).unwrap();
        assert_eq!(b.words[1], 0.3f32.to_bits());
        let m = b.find("m").unwrap().clone();
        b.store(&m, 0, &["1", "2", "3", "4"]).unwrap();
        assert_eq!(b.words[5..9], [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits));
    }

    #[test]
    fn struct_initializers_follow_each_layout() {
        // An S[2] with S { int i; float f; vec4 v[2]; }, printed as Mesa prints it.
        let s = shader(
            "decl_var uniform INTERP_MODE_NONE none S[2] s (0, 0, 0) = { { { 0x00000009 }, \
             { 33.299999 }, { { 1.000000, 2.000000, 3.000000, 4.000000 }, { 9.000000, \
             8.000000, 7.000000, 6.000000 } } }, { { 0x00000007 }, { 22.200001 }, { { \
             5.000000, 6.000000, 7.000000, 8.000000 }, { 3.000000, 2.000000, 1.000000, \
             0.000000 } } } }",
        );
        // crocus: every member starts a vec4 slot (ivb's corpus loads them at bytes 0, 16,
        // 32, 48, then s[1] from 64).
        let b = Block::new(&s, true, false).unwrap();
        assert_eq!(b.words[0], 9);
        assert_eq!(b.words[4], 33.3f32.to_bits());
        assert_eq!(b.words[8..12], [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits));
        assert_eq!(b.words[16], 7);
        assert_eq!(b.words[20], 22.2f32.to_bits());
        assert_eq!(b.words[28..32], [3.0f32, 2.0, 1.0, 0.0].map(f32::to_bits));
        // iris: members follow each other (bdw's corpus loads s[1].i at byte 40, s[1].v[0]
        // at 48).
        let b = Block::new(&s, true, true).unwrap();
        assert_eq!(b.words[..2], [9, 33.3f32.to_bits()]);
        assert_eq!(b.words[10..12], [7, 22.2f32.to_bits()]);
        assert_eq!(b.words[12..16], [5.0f32, 6.0, 7.0, 8.0].map(f32::to_bits));
        // GC2000 has no integers: Mesa uploads them as floats.
        let b = Block::new(&s, false, false).unwrap();
        assert_eq!(b.words[0], 9f32.to_bits());
    }

    #[test]
    fn iris_state_uniforms_follow_the_stage_uniforms() {
        // bdw's glsl-mat-from-int-ctor-03 VS: the matrix prints program-wide location 18 but
        // its loads start at byte 8, right after j.
        let s = shader(
            "decl_var uniform INTERP_MODE_NONE none mat4 gl_ModelViewProjectionMatrix (0, 18, 0)\n\
             decl_var uniform INTERP_MODE_NONE none ivec2 j (1, 0, 0)\n\
             decl_var ubo INTERP_MODE_NONE none vec4[5] uniform_0 (0, 0, 0)",
        );
        let b = Block::new(&s, true, true).unwrap();
        assert_eq!(b.find("gl_ModelViewProjectionMatrix").unwrap().slot, 2);
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
