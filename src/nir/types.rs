//! Value types: ALU types (`float32`, `uint` ...), GLSL types of variables, shader stages.

use std::fmt;

/// Base of an [`AluType`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaseType {
    Invalid,
    Int,
    Uint,
    Bool,
    Float,
}

/// A NIR ALU type: a base type and a bit size (0 = "the instruction's bit size").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AluType {
    pub base: BaseType,
    pub bits: u8,
}

macro_rules! alu_type_consts {
    ($($name:ident = $base:ident $bits:literal,)*) => {
        impl AluType {
            $(pub const $name: AluType = AluType { base: BaseType::$base, bits: $bits };)*
        }
    };
}

alu_type_consts! {
    INVALID = Invalid 0,
    B0 = Bool 0, B1 = Bool 1, B8 = Bool 8, B16 = Bool 16, B32 = Bool 32,
    F0 = Float 0, F16 = Float 16, F32 = Float 32, F64 = Float 64,
    I0 = Int 0, I1 = Int 1, I8 = Int 8, I16 = Int 16, I32 = Int 32, I64 = Int 64,
    U0 = Uint 0, U1 = Uint 1, U8 = Uint 8, U16 = Uint 16, U32 = Uint 32, U64 = Uint 64,
}

impl AluType {
    /// Parses nir_print's spelling (`float32`, `int`, `uint16`, `bool1`, `invalid`).
    pub fn parse(s: &str) -> Option<AluType> {
        let split = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
        let (name, digits) = s.split_at(split);
        let base = match name {
            "int" => BaseType::Int,
            "uint" => BaseType::Uint,
            "bool" => BaseType::Bool,
            "float" => BaseType::Float,
            "invalid" => BaseType::Invalid,
            _ => return None,
        };
        let bits = if digits.is_empty() {
            0
        } else {
            digits.parse().ok()?
        };
        if !matches!(bits, 0 | 1 | 8 | 16 | 32 | 64) {
            return None;
        }
        Some(AluType { base, bits })
    }
}

impl fmt::Display for AluType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.base {
            BaseType::Int => "int",
            BaseType::Uint => "uint",
            BaseType::Bool => "bool",
            BaseType::Float => "float",
            BaseType::Invalid => "invalid",
        };
        if self.bits != 0 {
            write!(f, "{name}{}", self.bits)
        } else {
            f.write_str(name)
        }
    }
}

/// Shader stage, as Mesa's `gl_shader_stage` (the numbers are Mesa's `stage:` values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Vertex,
    TessCtrl,
    TessEval,
    Geometry,
    Fragment,
    Compute,
    Task,
    Mesh,
    Kernel,
}

const STAGE_NAMES: [(Stage, &str); 9] = [
    (Stage::Vertex, "MESA_SHADER_VERTEX"),
    (Stage::TessCtrl, "MESA_SHADER_TESS_CTRL"),
    (Stage::TessEval, "MESA_SHADER_TESS_EVAL"),
    (Stage::Geometry, "MESA_SHADER_GEOMETRY"),
    (Stage::Fragment, "MESA_SHADER_FRAGMENT"),
    (Stage::Compute, "MESA_SHADER_COMPUTE"),
    (Stage::Task, "MESA_SHADER_TASK"),
    (Stage::Mesh, "MESA_SHADER_MESH"),
    (Stage::Kernel, "MESA_SHADER_KERNEL"),
];

impl Stage {
    pub fn mesa_name(self) -> &'static str {
        STAGE_NAMES
            .iter()
            .find(|(s, _)| *s == self)
            .map(|p| p.1)
            .unwrap_or("")
    }
    pub fn from_mesa_name(name: &str) -> Option<Stage> {
        STAGE_NAMES.iter().find(|(_, n)| *n == name).map(|p| p.0)
    }
    /// Mesa's short abbreviation (`_mesa_shader_stage_to_abbrev`): vs, tcs, tes, gs, fs, cs,
    /// task, mesh, kernel; the corpus file suffixes use the same.
    pub fn short_name(self) -> &'static str {
        match self {
            Stage::Vertex => "vs",
            Stage::TessCtrl => "tcs",
            Stage::TessEval => "tes",
            Stage::Geometry => "gs",
            Stage::Fragment => "fs",
            Stage::Compute => "cs",
            Stage::Task => "task",
            Stage::Mesh => "mesh",
            Stage::Kernel => "kernel",
        }
    }
    /// Mesa's `gl_shader_stage` number, as printed on the `stage:` line.
    pub fn number(self) -> u32 {
        match self {
            Stage::Vertex => 0,
            Stage::TessCtrl => 1,
            Stage::TessEval => 2,
            Stage::Geometry => 3,
            Stage::Fragment => 4,
            Stage::Compute => 5,
            Stage::Task => 6,
            Stage::Mesh => 7,
            Stage::Kernel => 14,
        }
    }
}

/// A GLSL type as nir_print names it: a base name (`vec4`, `mat3`, `sampler2D`, a struct name)
/// and array dimensions, outermost first (`vec2[4]` has `arrays == [4]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GlslType {
    pub base: String,
    pub arrays: Vec<u32>,
}

/// What a base type name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    /// Scalar, vector or matrix: base type, rows (vector size), columns.
    Numeric {
        base: BaseType,
        bits: u8,
        rows: u8,
        cols: u8,
    },
    Sampler,
    Image,
    /// A struct, interface or other named aggregate.
    Other,
}

impl GlslType {
    pub fn parse(s: &str) -> Option<GlslType> {
        let open = s.find('[').unwrap_or(s.len());
        let (base, mut rest) = s.split_at(open);
        if base.is_empty() {
            return None;
        }
        let mut arrays = Vec::new();
        while !rest.is_empty() {
            let close = rest.find(']')?;
            if !rest.starts_with('[') {
                return None;
            }
            let n = &rest[1..close];
            arrays.push(if n.is_empty() { 0 } else { n.parse().ok()? });
            rest = &rest[close + 1..];
        }
        Some(GlslType {
            base: base.to_string(),
            arrays,
        })
    }

    pub fn scalar(name: &str) -> GlslType {
        GlslType {
            base: name.to_string(),
            arrays: Vec::new(),
        }
    }

    pub fn class(&self) -> TypeClass {
        classify(&self.base)
    }

    /// Components of a non-array numeric type (0 for arrays and aggregates), as Mesa's
    /// `glsl_get_components`.
    pub fn components(&self) -> u32 {
        if !self.arrays.is_empty() {
            return 0;
        }
        match self.class() {
            TypeClass::Numeric { rows, cols, .. } => rows as u32 * cols as u32,
            _ => 0,
        }
    }

    /// Components of the element type with arrays stripped (`glsl_without_array`).
    pub fn element_components(&self) -> u32 {
        match self.class() {
            TypeClass::Numeric { rows, cols, .. } => rows as u32 * cols as u32,
            _ => 0,
        }
    }

    /// Elements of the (possibly nested) array, an unsized dimension counted as one; 1 for a
    /// non-array: how many consecutive driver locations a sampler or uniform array spans.
    pub fn array_elements(&self) -> u32 {
        self.arrays
            .iter()
            .map(|&n| n.max(1))
            .product::<u32>()
            .max(1)
    }

    /// The ALU base type of a non-array numeric type (`nir_get_nir_type_for_glsl_type`).
    pub fn alu_base(&self) -> BaseType {
        if !self.arrays.is_empty() {
            return BaseType::Invalid;
        }
        match self.class() {
            TypeClass::Numeric { base, .. } => base,
            _ => BaseType::Invalid,
        }
    }
}

fn classify(name: &str) -> TypeClass {
    let numeric = |base, bits, rows, cols| TypeClass::Numeric {
        base,
        bits,
        rows,
        cols,
    };
    let scalars: [(&str, BaseType, u8); 11] = [
        ("float", BaseType::Float, 32),
        ("double", BaseType::Float, 64),
        ("float16_t", BaseType::Float, 16),
        ("int", BaseType::Int, 32),
        ("uint", BaseType::Uint, 32),
        ("bool", BaseType::Bool, 1),
        ("int64_t", BaseType::Int, 64),
        ("uint64_t", BaseType::Uint, 64),
        ("int16_t", BaseType::Int, 16),
        ("uint16_t", BaseType::Uint, 16),
        ("int8_t", BaseType::Int, 8),
    ];
    for (n, b, bits) in scalars {
        if name == n {
            return numeric(b, bits, 1, 1);
        }
    }
    let vectors: [(&str, BaseType, u8); 7] = [
        ("vec", BaseType::Float, 32),
        ("dvec", BaseType::Float, 64),
        ("f16vec", BaseType::Float, 16),
        ("ivec", BaseType::Int, 32),
        ("uvec", BaseType::Uint, 32),
        ("bvec", BaseType::Bool, 1),
        ("i64vec", BaseType::Int, 64),
    ];
    for (prefix, b, bits) in vectors {
        if let Some(n) = name.strip_prefix(prefix).and_then(|d| d.parse::<u8>().ok()) {
            if (2..=16).contains(&n) {
                return numeric(b, bits, n, 1);
            }
        }
    }
    for (prefix, bits) in [("mat", 32), ("dmat", 64), ("f16mat", 16)] {
        if let Some(dims) = name.strip_prefix(prefix) {
            let (c, r) = match dims.split_once('x') {
                Some((c, r)) => (c.parse::<u8>().ok(), r.parse::<u8>().ok()),
                None => (dims.parse::<u8>().ok(), dims.parse::<u8>().ok()),
            };
            if let (Some(c), Some(r)) = (c, r) {
                if (2..=4).contains(&c) && (2..=4).contains(&r) {
                    return numeric(BaseType::Float, bits, r, c);
                }
            }
        }
    }
    // Integer variants carry one `i`/`u` prefix: isampler2D, uimage3D.
    let is = |kind: &str| {
        name.starts_with(kind) || (name.starts_with(['i', 'u']) && name[1..].starts_with(kind))
    };
    if is("sampler") || is("texture") {
        return TypeClass::Sampler;
    }
    if is("image") {
        return TypeClass::Image;
    }
    TypeClass::Other
}

impl fmt::Display for GlslType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.base)?;
        for n in &self.arrays {
            if *n == 0 {
                f.write_str("[]")?;
            } else {
                write!(f, "[{n}]")?;
            }
        }
        Ok(())
    }
}

/// Variable storage mode (`nir_variable_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarMode {
    ShaderIn,
    ShaderOut,
    Uniform,
    Ubo,
    System,
    Ssbo,
    Shared,
    Global,
    PushConst,
    Constant,
    Image,
    ShaderTemp,
    FunctionTemp,
}

const MODE_NAMES: [(VarMode, &str); 13] = [
    (VarMode::ShaderIn, "shader_in"),
    (VarMode::ShaderOut, "shader_out"),
    (VarMode::Uniform, "uniform"),
    (VarMode::Ubo, "ubo"),
    (VarMode::System, "system"),
    (VarMode::Ssbo, "ssbo"),
    (VarMode::Shared, "shared"),
    (VarMode::Global, "global"),
    (VarMode::PushConst, "push_const"),
    (VarMode::Constant, "constant"),
    (VarMode::Image, "image"),
    (VarMode::ShaderTemp, "shader_temp"),
    (VarMode::FunctionTemp, "function_temp"),
];

impl VarMode {
    /// nir_print's spelling in deref instructions (temporaries are named).
    pub fn name(self) -> &'static str {
        MODE_NAMES
            .iter()
            .find(|(m, _)| *m == self)
            .map(|p| p.1)
            .unwrap_or("")
    }
    pub fn from_name(s: &str) -> Option<VarMode> {
        MODE_NAMES.iter().find(|(_, n)| *n == s).map(|p| p.0)
    }
    /// Whether `decl_var` prints a location tuple for this mode.
    pub fn has_location(self) -> bool {
        matches!(
            self,
            VarMode::ShaderIn
                | VarMode::ShaderOut
                | VarMode::Uniform
                | VarMode::System
                | VarMode::Ubo
                | VarMode::Ssbo
                | VarMode::Image
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glsl_types_classify() {
        let t = GlslType::parse("vec2[4]").unwrap();
        assert_eq!(t.arrays, vec![4]);
        assert_eq!(t.components(), 0);
        assert_eq!(t.element_components(), 2);
        assert_eq!(GlslType::parse("mat3x4").unwrap().components(), 12);
        assert_eq!(GlslType::parse("mat4").unwrap().components(), 16);
        assert_eq!(
            GlslType::parse("sampler2DShadow").unwrap().class(),
            TypeClass::Sampler
        );
        assert_eq!(
            GlslType::parse("uimage2D").unwrap().class(),
            TypeClass::Image
        );
        assert_eq!(GlslType::parse("ivec3").unwrap().alu_base(), BaseType::Int);
        assert!(GlslType::parse("vec4[").is_none());
        assert_eq!(
            GlslType::parse("float[2][3]").unwrap().to_string(),
            "float[2][3]"
        );
    }

    #[test]
    fn alu_types_parse_and_print() {
        for s in ["float32", "int", "uint16", "bool1", "float64", "invalid"] {
            assert_eq!(AluType::parse(s).unwrap().to_string(), s);
        }
        assert!(AluType::parse("float33").is_none());
        assert!(AluType::parse("double").is_none());
    }
}
