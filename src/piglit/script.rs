//! The `.shader_test` format: sections, and the `[test]` commands the runner executes.
//!
//! Only the commands the runner models are parsed into [`Command`]s; anything else becomes
//! [`Command::Unsupported`] so the test can be skipped with the command named, rather than run
//! with some state silently missing.

use std::fmt;

/// A parsed shader test.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderTest {
    /// Window size from `SIZE w h` in `[require]` (piglit's default is 250×250).
    pub size: [u32; 2],
    pub has_vertex_shader: bool,
    pub has_fragment_shader: bool,
    pub has_geometry_shader: bool,
    pub has_tess_ctrl_shader: bool,
    pub has_tess_eval_shader: bool,
    /// Sections the runner does not model (tessellation shaders...).
    pub unsupported_sections: Vec<String>,
    /// The GLSL version the program uses (`#version` or the `GLSL >=` requirement, which
    /// shader_runner turns into a `#version`), times 100.
    pub glsl_version: u32,
    /// `[vertex data]`: attribute columns and rows.
    pub vertex_data: Option<VertexData>,
    /// The first `[vertex data]` column whose type the runner does not model (its
    /// `type/count` form and line), e.g. `uint/uvec4 (line 12)`.
    pub unsupported_vertex_data: Option<String>,
    /// `[test]` commands with their 1-based line numbers.
    pub commands: Vec<(usize, Command)>,
}

/// A `[vertex data]` section: a header of `name/type/count` columns, then rows of numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexData {
    /// Attribute name and component count of each column.
    pub columns: Vec<(String, usize)>,
    /// Per row (vertex), per column, the components as written.
    pub rows: Vec<Vec<Vec<f32>>>,
}

/// What `texture ...` creates on a unit.
#[derive(Clone, Debug, PartialEq)]
pub enum TextureKind {
    Rgbw {
        w: u32,
        h: u32,
    },
    Rgbw3d,
    Checkerboard {
        level: u32,
        w: u32,
        h: u32,
        black: [f32; 4],
        white: [f32; 4],
    },
    /// Depth texture: `dims` is 1 or 2.
    Shadow {
        dims: usize,
        w: u32,
        h: u32,
    },
    Miptree,
}

/// piglit's default window.
pub const DEFAULT_SIZE: [u32; 2] = [250, 250];

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `uniform TYPE NAME[INDEX] VALUES...` (values as written).
    Uniform {
        ty: String,
        name: String,
        index: u32,
        values: Vec<String>,
    },
    /// `draw rect [ortho] x y w h`, already in normalized device coordinates.
    DrawRect {
        rect: [f32; 4],
        /// `draw rect tex`: the texture coordinates' rectangle.
        tex: Option<[f32; 4]>,
    },
    /// `draw rect [ortho] patch x y w h` (NDC): the rectangle's corners as one patch of
    /// four vertices (`piglit_draw_rect_custom` with patches).
    DrawRectPatch([f32; 4]),
    /// `patch parameter vertices N`.
    PatchVertices(usize),
    /// `patch parameter default level outer a b c d` / `... inner a b`.
    PatchDefaultLevel {
        outer: bool,
        values: Vec<f32>,
    },
    /// `draw arrays MODE first count`.
    DrawArrays {
        mode: String,
        first: usize,
        count: usize,
    },
    /// `texture KIND UNIT ...`: creates a texture on a unit and makes the unit active.
    Texture {
        unit: u32,
        kind: TextureKind,
    },
    /// `texparameter TARGET NAME VALUE` on the active unit's texture.
    TexParameter {
        name: String,
        value: String,
    },
    /// `clip plane N a b c d`.
    ClipPlane(usize, [f32; 4]),
    /// `enable|disable GL_CLIP_PLANEn`.
    ClipEnable(usize, bool),
    ClearColor([f32; 4]),
    Clear,
    /// `ortho [l r b t]`: the projection fixed-function state uniforms see.
    Ortho([f32; 4]),
    Tolerance([f32; 4]),
    /// `color r g b a`: the current colour (gl_Color without a vertex array).
    Color([f32; 4]),
    /// `hint ...`: an implementation may ignore hints.
    Hint,
    /// `link success`: shader_runner checks that the program linked. The NIR of its stages
    /// is what Mesa compiled after linking, so a test that has it has linked; one without it
    /// stops earlier, as missing data.
    LinkSuccess,
    Probe(Probe),
    /// A command the runner does not model, as written.
    Unsupported(String),
}

/// Where a probe looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Region {
    /// A pixel; relative probes are resolved against the window size at parse time.
    Pixel(u32, u32),
    /// x, y, w, h in pixels.
    Rect(u32, u32, u32, u32),
    All,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub region: Region,
    /// `probe warn`: a mismatch makes piglit warn, not fail.
    pub warn: bool,
    /// Three (rgb) or four (rgba) expected channels.
    pub expected: Vec<f32>,
}

/// A malformed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ScriptError {}

/// Numbers in a command tail, ignoring the `(`, `)` and `,` piglit allows around them.
fn numbers(words: &[&str]) -> Option<Vec<f32>> {
    words
        .iter()
        .flat_map(|w| w.split(['(', ')', ',']))
        .map(|w| w.trim_end_matches(';'))
        .filter(|w| !w.is_empty())
        .map(|w| w.parse::<f32>().ok())
        .collect()
}

pub fn parse(text: &str) -> Result<ShaderTest, ScriptError> {
    let mut test = ShaderTest {
        size: DEFAULT_SIZE,
        has_vertex_shader: false,
        has_fragment_shader: false,
        has_geometry_shader: false,
        has_tess_ctrl_shader: false,
        has_tess_eval_shader: false,
        unsupported_sections: Vec::new(),
        glsl_version: 110,
        vertex_data: None,
        unsupported_vertex_data: None,
        commands: Vec::new(),
    };
    let mut version_directive = None;
    let mut section = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        if let Some(v) = raw.trim().strip_prefix("#version") {
            if let Some(n) = v.split_whitespace().next().and_then(|n| n.parse().ok()) {
                version_directive = Some(n);
            }
        }
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') && line.ends_with(']') {
            section = line[1..line.len() - 1].trim().to_string();
            match section.as_str() {
                "vertex shader" | "vertex shader passthrough" => test.has_vertex_shader = true,
                "fragment shader" => test.has_fragment_shader = true,
                "geometry shader" => test.has_geometry_shader = true,
                "tessellation control shader" => test.has_tess_ctrl_shader = true,
                "tessellation evaluation shader" => test.has_tess_eval_shader = true,
                "require" | "test" => {}
                "vertex data" => {
                    test.vertex_data = Some(VertexData {
                        columns: Vec::new(),
                        rows: Vec::new(),
                    })
                }
                other => test.unsupported_sections.push(other.to_string()),
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let err = |message: String| ScriptError {
            line: line_no,
            message,
        };
        match section.as_str() {
            "require" => {
                let words: Vec<&str> = line.split_whitespace().collect();
                if words[0] == "GLSL" {
                    // `GLSL >= 1.30` (or `GLSL ES >= ...`).
                    if let Some(v) = words.iter().rev().find_map(|w| w.parse::<f32>().ok()) {
                        test.glsl_version = (v * 100.0).round() as u32;
                    }
                }
                if words[0] == "SIZE" {
                    let v = numbers(&words[1..])
                        .filter(|v| v.len() == 2)
                        .ok_or_else(|| err(format!("bad SIZE: {line}")))?;
                    test.size = [v[0] as u32, v[1] as u32];
                }
            }
            "test" => {
                let cmd = match parse_command(line, test.size) {
                    Ok(c) => c,
                    // A form of a command the parser does not take (a format word, a
                    // command of its own such as `draw instanced rect`) is unmodelled,
                    // not malformed; a modelled form with wrong numbers is malformed.
                    Err(_) if unmodelled_form(line) => Command::Unsupported(line.to_string()),
                    Err(e) => return Err(err(e)),
                };
                test.commands.push((line_no, cmd));
            }
            "vertex data" => {
                let data = test
                    .vertex_data
                    .as_mut()
                    .ok_or_else(|| err("no data".into()))?;
                if test.unsupported_vertex_data.is_some() {
                    // The rows of columns the runner does not model are not read.
                } else if data.columns.is_empty() {
                    for col in line.split_whitespace() {
                        let mut parts = col.split('/');
                        let name = parts.next().unwrap_or("").to_string();
                        let ty = parts.next().unwrap_or("");
                        let count = parts.next().unwrap_or("");
                        // piglit-vbo: `name/type/count`, the count a number or a GLSL type
                        // (`vec3`); a fourth part is a matrix column.
                        let n = match count {
                            "float" => Some(1),
                            "vec2" => Some(2),
                            "vec3" => Some(3),
                            "vec4" => Some(4),
                            n => n.parse::<usize>().ok(),
                        };
                        match (ty, n, parts.next()) {
                            ("float", Some(n @ 1..=4), None) => data.columns.push((name, n)),
                            _ => {
                                // `type/count`, without a matrix column.
                                let form = col.split('/').skip(1).take(2).collect::<Vec<_>>();
                                test.unsupported_vertex_data =
                                    Some(format!("{} (line {line_no}: {col})", form.join("/")));
                                break;
                            }
                        }
                    }
                } else {
                    let v = numbers(&line.split_whitespace().collect::<Vec<_>>())
                        .ok_or_else(|| err(format!("bad vertex data row: {line}")))?;
                    let need: usize = data.columns.iter().map(|c| c.1).sum();
                    if v.len() != need {
                        return Err(err(format!(
                            "vertex data row has {} values, not {need}",
                            v.len()
                        )));
                    }
                    let mut at = 0;
                    let row = data
                        .columns
                        .iter()
                        .map(|(_, n)| {
                            at += n;
                            v[at - n..at].to_vec()
                        })
                        .collect();
                    data.rows.push(row);
                }
            }
            _ => {}
        }
    }
    if let Some(v) = version_directive {
        test.glsl_version = v;
    }
    Ok(test)
}

fn parse_command(line: &str, size: [u32; 2]) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let bad = || format!("malformed command: {line}");
    let nums = |ws: &[&str], n: usize| numbers(ws).filter(|v| v.len() == n).ok_or_else(bad);
    Ok(match words.as_slice() {
        ["uniform", ty, target, values @ ..] => {
            let (name, index) = match target.split_once('[') {
                Some((n, rest)) => (
                    n,
                    rest.trim_end_matches(']')
                        .parse::<u32>()
                        .map_err(|_| bad())?,
                ),
                None => (*target, 0),
            };
            Command::Uniform {
                ty: ty.to_string(),
                name: name.to_string(),
                index,
                // shader_runner's number scanner stops at a stray `;`.
                values: values
                    .iter()
                    .map(|v| v.trim_end_matches(';'))
                    .filter(|v| !v.is_empty())
                    .map(str::to_string)
                    .collect(),
            }
        }
        ["draw", "rect", "ortho", "patch", r @ ..] => {
            let v = nums(r, 4)?;
            let (sx, sy) = (2.0 / size[0] as f32, 2.0 / size[1] as f32);
            Command::DrawRectPatch([v[0] * sx - 1.0, v[1] * sy - 1.0, v[2] * sx, v[3] * sy])
        }
        ["draw", "rect", "patch", r @ ..] => {
            let v = nums(r, 4)?;
            Command::DrawRectPatch([v[0], v[1], v[2], v[3]])
        }
        ["patch", "parameter", "vertices", n] => {
            Command::PatchVertices(n.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?)
        }
        ["patch", "parameter", "default", "level", which @ ("outer" | "inner"), r @ ..] => {
            let outer = *which == "outer";
            let v = nums(r, if outer { 4 } else { 2 })?;
            Command::PatchDefaultLevel { outer, values: v }
        }
        ["draw", "rect", "ortho", r @ ..] => {
            let v = nums(r, 4)?;
            let (sx, sy) = (2.0 / size[0] as f32, 2.0 / size[1] as f32);
            Command::DrawRect {
                rect: [v[0] * sx - 1.0, v[1] * sy - 1.0, v[2] * sx, v[3] * sy],
                tex: None,
            }
        }
        ["draw", "rect", "tex", r @ ..] => {
            let v = nums(r, 8)?;
            Command::DrawRect {
                rect: [v[0], v[1], v[2], v[3]],
                tex: Some([v[4], v[5], v[6], v[7]]),
            }
        }
        ["draw", "rect", r @ ..] if r.len() == 4 => {
            let v = nums(r, 4)?;
            Command::DrawRect {
                rect: [v[0], v[1], v[2], v[3]],
                tex: None,
            }
        }
        ["draw", "arrays", mode, first, count] => Command::DrawArrays {
            mode: mode.to_string(),
            first: first.parse().map_err(|_| bad())?,
            count: count.parse().map_err(|_| bad())?,
        },
        ["texture", "rgbw", "3D", unit] => Command::Texture {
            unit: unit.parse().map_err(|_| bad())?,
            kind: TextureKind::Rgbw3d,
        },
        ["texture", "rgbw", unit, r @ ..] => {
            // `texture rgbw UNIT (W, H) FORMAT`: piglit_rgbw_texture uploads texels of 0 and
            // 1 per channel, which GL_RGBA8 stores exactly as the default GL_RGBA does (Mesa
            // picks RGBA8 unorm for both); other formats change what is sampled.
            let r = match r {
                [size @ .., "GL_RGBA" | "GL_RGBA8"] => size,
                r => r,
            };
            let v = nums(r, 2)?;
            let [w, h] = texture_size(line, [v[0], v[1]])?;
            Command::Texture {
                unit: unit.parse().map_err(|_| bad())?,
                kind: TextureKind::Rgbw { w, h },
            }
        }
        ["texture", "miptree", unit] => Command::Texture {
            unit: unit.parse().map_err(|_| bad())?,
            kind: TextureKind::Miptree,
        },
        ["texture", "checkerboard", unit, level, r @ ..] => {
            let v = nums(r, 10)?;
            let [w, h] = texture_size(line, [v[0], v[1]])?;
            Command::Texture {
                unit: unit.parse().map_err(|_| bad())?,
                kind: TextureKind::Checkerboard {
                    level: level.parse().map_err(|_| bad())?,
                    w,
                    h,
                    black: [v[2], v[3], v[4], v[5]],
                    white: [v[6], v[7], v[8], v[9]],
                },
            }
        }
        ["texture", kind @ ("shadow1D" | "shadow2D"), unit, r @ ..] => {
            let dims = if *kind == "shadow1D" { 1 } else { 2 };
            let v = nums(r, dims)?;
            let [w, h] = texture_size(line, [v[0], if dims == 2 { v[1] } else { 1.0 }])?;
            Command::Texture {
                unit: unit.parse().map_err(|_| bad())?,
                kind: TextureKind::Shadow { dims, w, h },
            }
        }
        ["texparameter", "1D" | "2D" | "3D", name, value] => Command::TexParameter {
            name: name.to_string(),
            value: value.to_string(),
        },
        ["clip", "plane", n, r @ ..] => {
            let v = nums(r, 4)?;
            let n = n.parse::<usize>().ok().filter(|&n| n < 8).ok_or_else(bad)?;
            Command::ClipPlane(n, [v[0], v[1], v[2], v[3]])
        }
        [verb @ ("enable" | "disable"), cap] if cap.starts_with("GL_CLIP_PLANE") => {
            let n = cap["GL_CLIP_PLANE".len()..]
                .parse::<usize>()
                .ok()
                .filter(|&n| n < 8)
                .ok_or_else(bad)?;
            Command::ClipEnable(n, *verb == "enable")
        }
        ["clear", "color", r @ ..] => {
            let v = nums(r, 4)?;
            Command::ClearColor([v[0], v[1], v[2], v[3]])
        }
        ["clear"] => Command::Clear,
        ["color", r @ ..] => {
            let v = nums(r, 4)?;
            Command::Color([v[0], v[1], v[2], v[3]])
        }
        ["hint", ..] => Command::Hint,
        ["link", "success"] => Command::LinkSuccess,
        ["ortho"] => Command::Ortho([0.0, size[0] as f32, 0.0, size[1] as f32]),
        ["ortho", r @ ..] => {
            let v = nums(r, 4)?;
            Command::Ortho([v[0], v[1], v[2], v[3]])
        }
        ["tolerance", r @ ..] => {
            let v = numbers(r).ok_or_else(bad)?;
            match v.as_slice() {
                [t] => Command::Tolerance([*t; 4]),
                [a, b, c, d] => Command::Tolerance([*a, *b, *c, *d]),
                _ => return Err(bad()),
            }
        }
        ["probe", "warn", rest @ ..] => probe(rest, size, false, true).ok_or_else(bad)?,
        ["probe", rest @ ..] => probe(rest, size, false, false).ok_or_else(bad)?,
        ["relative", "probe", rest @ ..] => probe(rest, size, true, false).ok_or_else(bad)?,
        _ => Command::Unsupported(line.to_string()),
    })
}

/// shader_runner's `[test]` commands, as its dispatcher (`piglit_display` in piglit's
/// tests/shaders/shader_runner.c) tells them apart: the words each starts with. A line's
/// command is the longest entry its words begin with ([`command_name`]).
pub const SHADER_RUNNER_COMMANDS: &[&str] = &[
    "active shader program",
    "active uniform",
    "atomic counter",
    "atomic counter buffer",
    "atomic counters",
    "blend barrier",
    "blit",
    "block array index",
    "block binding",
    "block matrix stride",
    "block offset",
    "block row major",
    "calllist",
    "clear",
    "clear color",
    "clear depth",
    "clip plane",
    "color",
    "deletelist",
    "depthfunc",
    "disable",
    "draw arrays",
    "draw arrays instanced",
    "draw instanced rect",
    "draw instanced rect ortho",
    "draw instanced rect ortho patch",
    "draw rect",
    "draw rect ortho",
    "draw rect ortho patch",
    "draw rect patch",
    "draw rect tex",
    "enable",
    "endlist",
    "fb",
    "fbfetch barrier",
    "frustum",
    "hint",
    "image texture",
    "link error",
    "link success",
    "memory barrier",
    "newlist",
    "ortho",
    "parameter",
    "patch parameter",
    "polygon mode",
    "probe all rgb",
    "probe all rgba",
    "probe depth",
    "probe rect rgb",
    "probe rect rgba",
    "probe rgb",
    "probe rgba",
    "probe ssbo",
    "probe warn",
    "probe xfb buffer",
    "program binary save restore",
    "provoking vertex",
    "relative probe",
    "relative probe rect rgba int",
    "resident image texture",
    "resident texture",
    "shade model flat",
    "shade model smooth",
    "ssbo",
    "subuniform",
    "texcoord",
    "texparameter",
    "texture checkerboard",
    "texture integer",
    "texture junk",
    "texture miptree",
    "texture quads",
    "texture rgbw",
    "texture shadow1D",
    "texture shadow1DArray",
    "texture shadow2D",
    "texture shadow2DArray",
    "texture shadowRect",
    "texture storage",
    "tolerance",
    "ubo array index",
    "uniform",
    "verify program_interface_query",
    "verify program_query",
    "verify query_object",
    "vertex attrib",
    "viewport indexed",
    "viewport swizzle",
    "xfb buffer object",
    "xfb draw arrays",
];

/// The shader_runner command a `[test]` line uses, with the words that select the form the
/// runner does not model where the command alone does not say it: the capability of
/// `enable`/`disable`, the parameter of `texparameter`, the type of `uniform`, the mode of
/// `draw arrays`, the target of `texture rgbw` (`texture rgbw 2DArray`) or its format
/// (`texture rgbw GL_RGBA8`). A line no command starts with is named by its first word.
pub fn command_name(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(cmd) = SHADER_RUNNER_COMMANDS
        .iter()
        .filter(|c| {
            let cw: Vec<&str> = c.split(' ').collect();
            words.len() >= cw.len() && words[..cw.len()] == cw[..]
        })
        .max_by_key(|c| c.len())
    else {
        return words.first().map_or_else(String::new, |w| w.to_string());
    };
    let n = cmd.split(' ').count();
    let rest = &words[n..];
    let is_number = |w: &&str| {
        let w = w.trim_matches(['(', ')', ',', ';']);
        w.is_empty() || w.parse::<f64>().is_ok()
    };
    let form = match *cmd {
        // `uniform TYPE NAME VALUES`: the form of NAME where it is not a plain name or one
        // array element, else the type.
        "uniform" => match rest.get(1) {
            Some(n) if n.contains("][") => Some("(array of arrays)"),
            Some(n) if n.contains('.') => Some("(struct member)"),
            _ => rest.first().copied(),
        },
        "enable"
        | "disable"
        | "draw arrays"
        | "draw arrays instanced"
        | "polygon mode"
        | "provoking vertex"
        | "fb"
        | "memory barrier"
        | "hint" => rest.first().copied(),
        // `texparameter TARGET NAME VALUE`: the parameter.
        "texparameter" => rest.get(1).copied(),
        // A target (`1D`, `2DArray`) or a format after the size.
        "texture rgbw" => rest.iter().find(|w| !is_number(w)).copied(),
        _ => None,
    };
    match form {
        Some(f) => format!("{cmd} {f}"),
        None => cmd.to_string(),
    }
}

/// The commands (and forms) [`parse_command`] models, by [`command_name`]'s command.
const MODELLED: &[&str] = &[
    "uniform",
    "draw rect",
    "draw rect ortho",
    "draw rect tex",
    "draw rect patch",
    "draw rect ortho patch",
    "draw arrays",
    "patch parameter",
    "texture rgbw",
    "texture miptree",
    "texture checkerboard",
    "texture shadow1D",
    "texture shadow2D",
    "texparameter",
    "clip plane",
    "enable",
    "disable",
    "clear",
    "clear color",
    "color",
    "hint",
    "link success",
    "ortho",
    "tolerance",
    "probe all rgb",
    "probe all rgba",
    "probe rect rgb",
    "probe rect rgba",
    "probe rgb",
    "probe rgba",
    "probe warn",
    "relative probe",
];

/// Whether a `[test]` line [`parse_command`] refused is a form it does not model rather
/// than a malformed one: its command is not one the parser models, or a word after the
/// command is not a number (`texture rgbw 0 (4, 1) GL_RGBA8`, `texture rgbw 2DArray 0 ...`).
fn unmodelled_form(line: &str) -> bool {
    let name = command_name(line);
    let command = SHADER_RUNNER_COMMANDS
        .iter()
        .filter(|c| name == **c || name.starts_with(&format!("{c} ")))
        .max_by_key(|c| c.len());
    let Some(command) = command else {
        return true;
    };
    if !MODELLED.contains(command) {
        return true;
    }
    line.split_whitespace()
        .skip(command.split(' ').count())
        .map(|w| w.trim_matches(['(', ')', ',', ';']))
        .any(|w| !w.is_empty() && w.parse::<f64>().is_err())
}

/// The largest texture width or height a script may ask for: 16384, the largest
/// GL_MAX_TEXTURE_SIZE among the targets (iris; etnaviv advertises 8192 at most). A larger
/// one fails glTexImage in shader_runner on every target; here it would also ask the runner
/// for its texels (a fuzzed `texture rgbw 1 (3104434315, 8)` overflowed the texel count).
pub const MAX_TEXTURE_SIZE: u32 = 16384;

/// The most texels the runner builds for one texture: 2^22 (64 MiB of RGBA f32 texels),
/// far beyond what piglit's shader tests draw from (32 x 32 at most in the corpus), and a
/// bound on the memory a script can make the runner take.
pub const MAX_TEXTURE_TEXELS: u64 = 1 << 22;

/// A texture command's `(w, h)`, checked against [`MAX_TEXTURE_SIZE`] and
/// [`MAX_TEXTURE_TEXELS`].
fn texture_size(line: &str, v: [f32; 2]) -> Result<[u32; 2], String> {
    if !v
        .iter()
        .all(|&d| (0.0..=MAX_TEXTURE_SIZE as f32).contains(&d))
    {
        return Err(format!(
            "texture size {} x {} is past GL_MAX_TEXTURE_SIZE {MAX_TEXTURE_SIZE}: {line}",
            v[0], v[1]
        ));
    }
    let [w, h] = v.map(|d| d as u32);
    if u64::from(w) * u64::from(h) > MAX_TEXTURE_TEXELS {
        return Err(format!(
            "texture size {w} x {h} is more than the {MAX_TEXTURE_TEXELS} texels the runner \
             builds: {line}"
        ));
    }
    Ok([w, h])
}

/// The tail of `probe ...` / `relative probe ...`.
///
/// Like shader_runner, which scans only the channels the format names, extra trailing
/// values are ignored.
fn probe(words: &[&str], size: [u32; 2], relative: bool, warn: bool) -> Option<Command> {
    let channels = |w: &str| match w {
        "rgb" => Some(3),
        "rgba" => Some(4),
        _ => None,
    };
    let (region, expected) = match words {
        ["all", fmt, rest @ ..] if !relative => {
            let v = numbers(rest)?;
            let n = channels(fmt)?;
            (Region::All, v.get(..n)?.to_vec())
        }
        ["rect", fmt, rest @ ..] => {
            let v = numbers(rest)?;
            let n = channels(fmt)?;
            if v.len() < 4 + n {
                return None;
            }
            let r = if relative {
                [
                    v[0] * size[0] as f32,
                    v[1] * size[1] as f32,
                    v[2] * size[0] as f32,
                    v[3] * size[1] as f32,
                ]
            } else {
                [v[0], v[1], v[2], v[3]]
            };
            let r = r.map(|c| c.max(0.0) as u32);
            (Region::Rect(r[0], r[1], r[2], r[3]), v[4..4 + n].to_vec())
        }
        [fmt, rest @ ..] => {
            let n = channels(fmt)?;
            let v = numbers(rest)?;
            if v.len() < 2 + n {
                return None;
            }
            let (x, y) = if relative {
                // shader_runner truncates and keeps the pixel inside the window.
                (
                    ((v[0] * size[0] as f32) as u32).min(size[0] - 1),
                    ((v[1] * size[1] as f32) as u32).min(size[1] - 1),
                )
            } else {
                (v[0].max(0.0) as u32, v[1].max(0.0) as u32)
            };
            (Region::Pixel(x, y), v[2..2 + n].to_vec())
        }
        _ => return None,
    };
    Some(Command::Probe(Probe {
        region,
        warn,
        expected,
    }))
}

/// The test name the corpus files use: the file name without `.shader_test`.
pub fn test_name(path: &std::path::Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.strip_suffix(".shader_test")
        .unwrap_or(&name)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_commands_piglit_tests_use() {
        let t = parse(
            "[require]\nGLSL >= 1.10\n\n[vertex shader]\nvoid main() {}\n[fragment shader]\n\
             void main() {}\n[test]\nuniform vec4 color 0.0 0.5 1 0\nuniform float a[2] 3\n\
             draw rect -1 -1 2 2\nclear color 0.1 0.2 0.3 0.4\nclear\n\
             probe rgba 1 2 0.0 0.25 0.0 1.0\nrelative probe rgb (0.5, 0.5) (1, 0, 0)\n\
             probe all rgb 1 0 0\nprobe rect rgba (10, 20, 30, 40) (0, 0, 0, 1)\n\
             draw rect ortho 0 0 125 250\nfoo bar\n",
        )
        .unwrap();
        assert!(t.has_vertex_shader && t.has_fragment_shader);
        let cmds: Vec<&Command> = t.commands.iter().map(|(_, c)| c).collect();
        assert_eq!(
            cmds[1],
            &Command::Uniform {
                ty: "float".into(),
                name: "a".into(),
                index: 2,
                values: vec!["3".into()]
            }
        );
        assert_eq!(
            cmds[2],
            &Command::DrawRect {
                rect: [-1.0, -1.0, 2.0, 2.0],
                tex: None
            }
        );
        assert_eq!(cmds[4], &Command::Clear);
        // 0.5 · 250 = 125, the pixel shader_runner reads.
        assert_eq!(
            cmds[6],
            &Command::Probe(Probe {
                region: Region::Pixel(125, 125),
                warn: false,
                expected: vec![1.0, 0.0, 0.0]
            })
        );
        assert!(matches!(
            cmds[8],
            Command::Probe(Probe {
                region: Region::Rect(10, 20, 30, 40),
                ..
            })
        ));
        // Ortho pixels 0..125 map to NDC -1..0.
        assert_eq!(
            cmds[9],
            &Command::DrawRect {
                rect: [-1.0, -1.0, 1.0, 2.0],
                tex: None
            }
        );
        assert_eq!(cmds[10], &Command::Unsupported("foo bar".into()));
    }

    #[test]
    fn parses_textures_clipping_and_vertex_data() {
        let t = parse(
            "[require]\nGLSL >= 1.30\n[vertex data]\nvertex/float/2 c/float/1\n0 1 0.5\n\
             2 3 0.25\n[test]\ntexture rgbw 3D 2\n\
             texture checkerboard 1 0 (8, 4) (0, 0, 0, 0) (0, 1, 0, 1)\n\
             texture shadow1D 0 (32)\ntexparameter 1D compare_func never\n\
             clip plane 3 1 0 0 -0.5\nenable GL_CLIP_PLANE3\n\
             draw rect tex -1 -1 2 2 0 0 1 1\ndraw arrays GL_TRIANGLES 0 3\n",
        )
        .unwrap();
        assert_eq!(t.glsl_version, 130);
        let data = t.vertex_data.as_ref().unwrap();
        assert_eq!(data.columns, vec![("vertex".into(), 2), ("c".into(), 1)]);
        assert_eq!(data.rows[1], vec![vec![2.0, 3.0], vec![0.25]]);
        let cmds: Vec<&Command> = t.commands.iter().map(|(_, c)| c).collect();
        assert_eq!(
            cmds[0],
            &Command::Texture {
                unit: 2,
                kind: TextureKind::Rgbw3d
            }
        );
        assert_eq!(
            cmds[1],
            &Command::Texture {
                unit: 1,
                kind: TextureKind::Checkerboard {
                    level: 0,
                    w: 8,
                    h: 4,
                    black: [0.0; 4],
                    white: [0.0, 1.0, 0.0, 1.0]
                }
            }
        );
        assert_eq!(
            cmds[2],
            &Command::Texture {
                unit: 0,
                kind: TextureKind::Shadow {
                    dims: 1,
                    w: 32,
                    h: 1
                }
            }
        );
        assert_eq!(
            cmds[3],
            &Command::TexParameter {
                name: "compare_func".into(),
                value: "never".into()
            }
        );
        assert_eq!(cmds[4], &Command::ClipPlane(3, [1.0, 0.0, 0.0, -0.5]));
        assert_eq!(cmds[5], &Command::ClipEnable(3, true));
        assert_eq!(
            cmds[6],
            &Command::DrawRect {
                rect: [-1.0, -1.0, 2.0, 2.0],
                tex: Some([0.0, 0.0, 1.0, 1.0])
            }
        );
        assert_eq!(
            cmds[7],
            &Command::DrawArrays {
                mode: "GL_TRIANGLES".into(),
                first: 0,
                count: 3
            }
        );
        // A `#version` directive wins over the requirement.
        let t = parse("[require]\nGLSL >= 1.10\n[fragment shader]\n#version 130\n").unwrap();
        assert_eq!(t.glsl_version, 130);
    }

    /// Names read off shader_runner.c's dispatcher: the longest command a line starts
    /// with, plus the word that selects the form where the command alone does not say it.
    #[test]
    fn command_names_follow_shader_runner() {
        for (line, name) in [
            ("draw rect ortho patch 0 0 4 4", "draw rect ortho patch"),
            (
                "draw arrays instanced GL_TRIANGLES 0 3 2",
                "draw arrays instanced GL_TRIANGLES",
            ),
            ("draw arrays GL_POINTS 0 1", "draw arrays GL_POINTS"),
            (
                "relative probe rect rgba int (0, 0, 1, 1) (1, 2, 3, 4)",
                "relative probe rect rgba int",
            ),
            ("texparameter 2D swizzle_r red", "texparameter swizzle_r"),
            ("texture rgbw 1D 0", "texture rgbw 1D"),
            ("texture rgbw 0 (8, 8) GL_RG8", "texture rgbw GL_RG8"),
            ("texture rgbw 0 (8, 8)", "texture rgbw"),
            ("uniform dvec4 d 1 2 3 4", "uniform dvec4"),
            ("uniform vec4 s.member 1 2 3 4", "uniform (struct member)"),
            ("uniform int a[1][2] 0", "uniform (array of arrays)"),
            ("enable GL_DEPTH_TEST", "enable GL_DEPTH_TEST"),
            ("clear depth 1.0", "clear depth"),
            ("atomic counter buffer 0 1", "atomic counter buffer"),
            ("bogus", "bogus"),
        ] {
            assert_eq!(command_name(line), name, "{line}");
        }
        // A modelled form with numbers missing is malformed; a word the form does not take,
        // or a command the parser does not model, is an unmodelled form.
        assert!(!unmodelled_form("probe rgba 1 2 0 1"));
        assert!(unmodelled_form("texture rgbw 0 (8, 8) GL_R32F"));
        assert!(unmodelled_form("draw instanced rect ortho patch 2 0 0 4 4"));
        assert!(!unmodelled_form("draw rect ortho patch 0 0 4 4"));
    }

    #[test]
    fn malformed_probe_names_its_line() {
        let e = parse("[test]\nprobe rgb 1 2 3\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("[test]\n\nprobe all rgba 1 2 3\n").unwrap_err();
        assert_eq!(e.line, 3);
    }
}
