//! End-to-end check of the simulator's semantics: fragment shaders that Mesa 23.3 compiled for
//! piglit tests (shared/corpus/mesa-asm) are run in the simulator, and the colour they write
//! is compared with what the piglit test probes for. Only shaders whose result the test fully
//! determines are used: no varyings, no textures, no built-in state uniforms; user uniforms
//! (immediates of kind 2) are placed at the driver locations the corpus NIR declares, with the
//! values the test's `uniform` commands set before the probed draw; the default uniform block
//! is memory for LOAD; varyings come from running the test's vertex shader on the drawn
//! rectangle's corners and interpolating at the probed pixel (perspective-correct, piglit's
//! 250×250 window).

mod common;

use std::path::Path;

use gpucc::etnaviv::isa::{decode, Class, Inst};
use gpucc::etnaviv::sim::Machine;
use gpucc::etnaviv::specs::Specs;

struct Shader {
    program: Vec<Inst>,
    constants: Vec<(usize, u32)>,
    /// (uniform slot component, index into the user uniform storage in 32-bit units)
    user: Vec<(usize, usize)>,
    /// Uniform slot components that hold the address of UBO 0 (the default uniform block).
    ubo0: Vec<usize>,
    /// (register, semantic name) of the inputs and outputs the dump lists.
    inputs: Vec<(usize, String)>,
    outputs: Vec<(usize, String)>,
    color_reg: Option<usize>,
    pos_reg: Option<usize>,
}

/// Reads a Mesa 23.3 etnaviv shader dump; `None` when it is not self-contained.
fn parse_asm(text: &str) -> Option<Shader> {
    let mut program = Vec::new();
    let mut constants = Vec::new();
    let mut user = Vec::new();
    let mut ubo0 = Vec::new();
    let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
    let mut color_reg = None;
    let mut pos_reg = None;
    let mut section = "";
    for line in text.lines() {
        let t = line.trim();
        if t.ends_with(':') && !t.starts_with('[') {
            section = t;
            continue;
        }
        if let Some(v) = t.strip_prefix("ps_color_out_reg=") {
            color_reg = v.parse().ok();
            continue;
        }
        if let Some(v) = t.strip_prefix("vs_pos_out_reg=") {
            pos_reg = v.parse().ok();
            continue;
        }
        match section {
            "inputs:" | "outputs:" if t.starts_with('[') => {
                // " [1] name=VARYING_SLOT_VAR0 comps=2"
                let reg: usize = t[1..t.find(']')?].parse().ok()?;
                let name = t
                    .split("name=")
                    .nth(1)?
                    .split_whitespace()
                    .next()?
                    .to_string();
                if section == "inputs:" {
                    inputs.push((reg, name));
                } else {
                    outputs.push((reg, name));
                }
            }
            "immediates:" if t.starts_with('[') => {
                // " [1].x = -0.500000 (0xbf000000) (1)"
                let slot: usize = t[1..t.find(']')?].parse().ok()?;
                let comp = "xyzw".find(t.chars().nth(t.find(']')? + 2)?)?;
                let hex = t.split('(').nth(1)?.trim_end_matches([')', ' ']);
                let bits = u32::from_str_radix(hex.trim_start_matches("0x"), 16).ok()?;
                let kind = t.rsplit('(').next()?.trim_end_matches(')');
                match kind {
                    "0" => {}
                    "1" => constants.push((slot * 4 + comp, bits)),
                    "2" => user.push((slot * 4 + comp, bits as usize)),
                    // ETNA_UNIFORM_UBO0_ADDR
                    "8" if bits == 0 => ubo0.push(slot * 4 + comp),
                    _ => return None,
                }
            }
            _ => {
                if let Some((idx, rest)) = t.split_once(": ") {
                    if idx.len() == 4 && idx.bytes().all(|b| b.is_ascii_digit()) {
                        let w: Vec<u32> = rest
                            .split_whitespace()
                            .take(4)
                            .map(|x| u32::from_str_radix(x, 16).ok())
                            .collect::<Option<_>>()?;
                        let inst = decode([w[0], w[1], w[2], w[3]]).ok()?;
                        if inst.format().class() == Class::Tex {
                            return None;
                        }
                        program.push(inst);
                    }
                }
            }
        }
    }
    Some(Shader {
        program,
        constants,
        user,
        ubo0,
        inputs,
        outputs,
        color_reg,
        pos_reg,
    })
}

/// A user uniform of the corpus NIR.
struct Uniform {
    name: String,
    /// First vec4 slot (driver location).
    slot: usize,
    /// Element type (`vec4` for `vec4[4]`); every element takes one vec4 slot.
    ty: String,
    len: usize,
    /// Constant initializer (lowered constant arrays), as printed numbers.
    init: Vec<f64>,
}

const SCALAR_AND_VECTOR_TYPES: [&str; 16] = [
    "float", "vec2", "vec3", "vec4", "int", "ivec2", "ivec3", "ivec4", "uint", "uvec2", "uvec3",
    "uvec4", "bool", "bvec2", "bvec3", "bvec4",
];

/// The user uniforms of the corpus NIR. `None` when the shader reads state the test cannot
/// set (built-ins, samplers, matrices, structs).
fn parse_uniforms(nir: &str) -> Option<Vec<Uniform>> {
    let mut out = Vec::new();
    for line in nir.lines() {
        let Some(rest) = line.trim().strip_prefix("decl_var uniform ") else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        // INTERP_MODE_NONE none TYPE NAME (loc, driver_loc, binding) [= { ... }]
        let (decl, name) = (*words.get(2)?, *words.get(3)?);
        let (ty, len) = match decl.split_once('[') {
            Some((t, n)) => (t, n.trim_end_matches(']').parse().ok()?),
            None => (decl, 1),
        };
        if !SCALAR_AND_VECTOR_TYPES.contains(&ty) || name.starts_with("gl_") {
            return None;
        }
        let slot: usize = words.get(5)?.trim_end_matches(',').parse().ok()?;
        let init = match rest.split_once(" = ") {
            Some((_, values)) => values
                .split(|c: char| c == '{' || c == '}' || c == ',' || c.is_whitespace())
                .filter(|w| !w.is_empty())
                .map(|w| match w {
                    "true" => Some(1.0),
                    "false" => Some(0.0),
                    _ => w.parse::<f64>().ok(),
                })
                .collect::<Option<Vec<f64>>>()?,
            None => Vec::new(),
        };
        out.push(Uniform {
            name: name.to_string(),
            slot,
            ty: ty.to_string(),
            len,
            init,
        });
    }
    Some(out)
}

/// The 32-bit storage of one value of a GLSL base type, as Mesa's state tracker uploads it
/// (integers and booleans become floats on cores without native integers).
fn storage_bits(ty: &str, v: f64, native_ints: bool) -> u32 {
    if ty == "float" || ty.starts_with("vec") {
        (v as f32).to_bits()
    } else if ty.starts_with('b') {
        match (v != 0.0, native_ints) {
            (true, true) => !0,
            (true, false) => 1f32.to_bits(),
            (false, _) => 0,
        }
    } else if native_ints {
        v as i64 as u32
    } else {
        (v as f32).to_bits()
    }
}

fn components(ty: &str) -> usize {
    ty.chars()
        .last()
        .and_then(|c| c.to_digit(10))
        .map_or(1, |d| d as usize)
}

/// A probe: optional pixel, expected colour (3 or 4 channels), and the user uniform storage
/// (32-bit units) in effect at the draw it inspects.
type Probe = (Option<[f32; 2]>, Vec<f32>, Vec<u32>, Rect);

/// A `draw rect` in normalized device coordinates: x, y, width, height.
type Rect = [f32; 4];

/// piglit's default window.
const WINDOW: f32 = 250.0;

/// Replays the `[test]` section; `None` when it does something this check does not model.
fn parse_probes(text: &str, uniforms: &[Uniform], native_ints: bool) -> Option<Vec<Probe>> {
    let test = text.split("[test]").nth(1)?;
    let slots = uniforms.iter().map(|u| u.slot + u.len).max().unwrap_or(0);
    let mut storage = vec![0u32; 4 * slots];
    for u in uniforms {
        let n = components(&u.ty);
        for (i, v) in u.init.iter().enumerate() {
            *storage.get_mut(4 * (u.slot + i / n) + i % n)? = storage_bits(&u.ty, *v, native_ints);
        }
    }
    let mut drawn: Option<(Vec<u32>, Rect)> = None;
    let mut draws = 0;
    let mut out = Vec::new();
    let mut pixel_probes = false;
    for line in test.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let nums = |ws: &[&str]| {
            ws.iter()
                .map(|w| {
                    w.trim_matches(|c| c == '(' || c == ')' || c == ',')
                        .parse::<f32>()
                        .ok()
                })
                .collect::<Option<Vec<f32>>>()
        };
        match words.first().copied() {
            Some("uniform") => {
                let (ty, target) = (*words.get(1)?, *words.get(2)?);
                let (name, index) = match target.split_once('[') {
                    Some((n, i)) => (n, i.trim_end_matches(']').parse::<usize>().ok()?),
                    None => (target, 0),
                };
                let Some(u) = uniforms.iter().find(|u| u.name == name) else {
                    continue;
                };
                if u.ty != ty || index >= u.len {
                    return None;
                }
                for (i, w) in words[3..].iter().enumerate() {
                    let v = match *w {
                        "true" => 1.0,
                        "false" => 0.0,
                        _ => w.parse::<f64>().ok()?,
                    };
                    *storage.get_mut(4 * (u.slot + index) + i)? = storage_bits(ty, v, native_ints);
                }
            }
            Some("draw") => {
                draws += 1;
                let rect = match words.get(1..) {
                    Some(["rect", "ortho", r @ ..]) => {
                        let v = nums(r)?;
                        let s = 2.0 / WINDOW;
                        [v[0] * s - 1.0, v[1] * s - 1.0, v[2] * s, v[3] * s]
                    }
                    Some(["rect", r @ ..]) => {
                        let v = nums(r)?;
                        [v[0], v[1], v[2], v[3]]
                    }
                    _ => return None,
                };
                drawn = Some((storage.clone(), rect));
            }
            Some("probe") => {
                let (state, rect) = drawn.clone()?;
                match words.get(1..3) {
                    Some(["all", "rgba"]) | Some(["all", "rgb"]) => {
                        out.push((None, nums(&words[3..])?, state, rect))
                    }
                    Some(["rgba", _]) | Some(["rgb", _]) => {
                        let v = nums(&words[2..])?;
                        pixel_probes = true;
                        out.push((Some([v[0], v[1]]), v[2..].to_vec(), state, rect));
                    }
                    _ => return None,
                }
            }
            Some("texture" | "fb" | "blend" | "enable" | "vertex" | "SIZE") => return None,
            _ => {}
        }
    }
    if pixel_probes && draws > 1 {
        return None;
    }
    (!out.is_empty()).then_some(out)
}

/// Everything needed to run one stage of a test.
struct Stage {
    shader: Shader,
    uniforms: Vec<Uniform>,
}

fn load_stage(asm_dir: &Path, platform: &str, name: &str, stage: &str) -> Option<Stage> {
    let asm = std::fs::read_to_string(asm_dir.join(format!("{name}.{stage}.asm"))).ok()?;
    let nir_path = asm_dir.join(format!("../../nir/{platform}/{name}.{stage}.nir"));
    let uniforms = parse_uniforms(&std::fs::read_to_string(nir_path).ok()?)?;
    Some(Stage {
        shader: parse_asm(&asm)?,
        uniforms,
    })
}

/// A machine with the stage's constants, user uniforms and uniform block in place.
fn machine(specs: &'static Specs, shader: &Shader, storage: &[u32]) -> Machine {
    let mut m = Machine::new(specs);
    for &(slot, bits) in &shader.constants {
        m.uniforms[slot / 4][slot % 4] = bits;
    }
    for &(slot, index) in &shader.user {
        m.uniforms[slot / 4][slot % 4] = storage.get(index).copied().unwrap_or(0);
    }
    // UBO 0 is the default uniform block, placed at address 0.
    for &slot in &shader.ubo0 {
        m.uniforms[slot / 4][slot % 4] = 0;
    }
    m.memory = storage.iter().flat_map(|w| w.to_le_bytes()).collect();
    m
}

/// A vertex after the vertex shader (or a fragment after interpolation): window position
/// (x, y, z, 1/w) and the named outputs.
type Vertex = ([f32; 4], Vec<(String, [f32; 4])>);

/// Runs the vertex shader on the rectangle's corners (piglit's triangle-strip order) and
/// returns, per corner, the window position (x, y, z, 1/w) and the outputs by name.
fn run_vertices(
    specs: &'static Specs,
    vs: &Stage,
    storage: &[u32],
    rect: Rect,
) -> Result<Vec<Vertex>, String> {
    let [x, y, w, h] = rect;
    let pos_reg = vs.shader.pos_reg.ok_or("no position output")?;
    let mut out = Vec::new();
    for corner in [[x, y], [x + w, y], [x, y + h], [x + w, y + h]] {
        let mut m = machine(specs, &vs.shader, storage);
        for (reg, name) in &vs.shader.inputs {
            if name != "VERT_ATTRIB_POS" {
                return Err(format!("attribute {name}"));
            }
            m.set_temp(*reg, [corner[0], corner[1], 0.0, 1.0]);
        }
        m.run(&vs.shader.program).map_err(|e| e.to_string())?;
        let clip = m.temp(pos_reg);
        let inv_w = 1.0 / clip[3];
        let window = [
            (clip[0] * inv_w + 1.0) * 0.5 * WINDOW,
            (clip[1] * inv_w + 1.0) * 0.5 * WINDOW,
            (clip[2] * inv_w + 1.0) * 0.5,
            inv_w,
        ];
        let outputs = vs
            .shader
            .outputs
            .iter()
            .map(|(r, n)| (n.clone(), m.temp(*r)))
            .collect();
        out.push((window, outputs));
    }
    Ok(out)
}

/// Perspective-correct barycentric interpolation of the strip triangles (0,1,2) and (2,1,3)
/// at pixel centre `p`: the window position and every varying.
fn interpolate(verts: &[Vertex], p: [f32; 2]) -> Option<Vertex> {
    for tri in [[0usize, 1, 2], [2, 1, 3]] {
        let [a, b, c] = tri.map(|i| verts[i].0);
        let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
        if area == 0.0 {
            continue;
        }
        let l1 = ((p[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (p[1] - a[1])) / area;
        let l2 = ((b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1])) / area;
        let l0 = 1.0 - l1 - l2;
        let eps = -1e-4;
        if l0 < eps || l1 < eps || l2 < eps {
            continue;
        }
        let bary = [l0, l1, l2];
        // Weights for perspective-correct interpolation: λ_i / w_i, normalized.
        let pw: Vec<f32> = (0..3).map(|k| bary[k] * verts[tri[k]].0[3]).collect();
        let sum: f32 = pw.iter().sum();
        let z = (0..3).map(|k| bary[k] * verts[tri[k]].0[2]).sum();
        let inv_w = (0..3).map(|k| bary[k] * verts[tri[k]].0[3]).sum();
        let varyings = verts[0]
            .1
            .iter()
            .enumerate()
            .map(|(o, (name, _))| {
                let mut v = [0.0f32; 4];
                for (c, slot) in v.iter_mut().enumerate() {
                    *slot = (0..3).map(|k| pw[k] / sum * verts[tri[k]].1[o].1[c]).sum();
                }
                (name.clone(), v)
            })
            .collect();
        return Some(([p[0], p[1], z, inv_w], varyings));
    }
    None
}

fn run_platform(platform: &str) {
    let Some(asm_dir) = common::shared_path(&format!("corpus/mesa-asm/{platform}")) else {
        return;
    };
    let piglit_dir = asm_dir.join("../../piglit");
    let specs = Specs::from_name(platform).unwrap();
    let (mut checked, mut with_uniforms, mut with_ubo, mut with_varyings) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut opcodes = std::collections::BTreeMap::new();
    for f in common::files_with_suffix(&asm_dir, ".fs.asm") {
        let name = f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".fs.asm", "");
        let Ok(piglit) = std::fs::read_to_string(piglit_dir.join(format!("{name}.shader_test")))
        else {
            continue;
        };
        // Out-of-bounds array reads are undefined behaviour, which the simulator reports as an
        // error rather than inventing a value. NaN tests depend on how the hardware treats
        // special values (the simulator is plain IEEE; whether Vivante's MUL gives 0·inf = NaN
        // is not documented). Other window sizes and vertex data are not modelled.
        if name.contains("array_bounds")
            || name.contains("-nan-")
            || piglit.contains("\nSIZE")
            || piglit.contains("[vertex data]")
        {
            continue;
        }
        let Some(fs) = load_stage(&asm_dir, platform, &name, "fs") else {
            continue;
        };
        let Some(color_reg) = fs.shader.color_reg else {
            continue;
        };
        let vs = if fs.shader.inputs.is_empty() {
            None
        } else {
            match load_stage(&asm_dir, platform, &name, "vs") {
                Some(vs) => Some(vs),
                None => continue,
            }
        };
        let Some(probes) = parse_probes(&piglit, &fs.uniforms, specs.has_integers()) else {
            continue;
        };
        let vs_probes = match &vs {
            Some(vs) => match parse_probes(&piglit, &vs.uniforms, specs.has_integers()) {
                Some(p) => p.into_iter().map(|p| p.2).collect(),
                None => continue,
            },
            None => vec![Vec::new(); probes.len()],
        };
        for inst in &fs.shader.program {
            *opcodes.entry(inst.opcode.name()).or_insert(0usize) += 1;
        }
        for ((pixel, want, storage, rect), vs_storage) in probes.into_iter().zip(vs_probes) {
            // The probed pixel, or the centre of the drawn rectangle for "probe all".
            let p = match pixel {
                Some([x, y]) => [x + 0.5, y + 0.5],
                None => {
                    let c = |v: f32, d: f32| ((v + d / 2.0 + 1.0) * 0.5 * WINDOW).floor() + 0.5;
                    [c(rect[0], rect[2]), c(rect[1], rect[3])]
                }
            };
            let mut position = [p[0], p[1], 0.5, 1.0];
            let mut varyings = Vec::new();
            if let Some(vs) = &vs {
                let verts = match run_vertices(specs, vs, &vs_storage, rect) {
                    Ok(v) => v,
                    Err(e) if e.starts_with("attribute") || e == "no position output" => break,
                    Err(e) => {
                        failures.push(format!("{name}: vertex shader: {e}"));
                        break;
                    }
                };
                let Some((pos, vars)) = interpolate(&verts, p) else {
                    break;
                };
                position = pos;
                varyings = vars;
            }
            let mut m = machine(specs, &fs.shader, &storage);
            m.set_temp(0, position);
            let mut missing = false;
            for (reg, input) in &fs.shader.inputs {
                match varyings.iter().find(|(n, _)| n == input) {
                    Some((_, v)) => m.set_temp(*reg, *v),
                    None => missing = true,
                }
            }
            if missing {
                break;
            }
            checked += 1;
            with_uniforms += usize::from(!fs.shader.user.is_empty());
            with_ubo += usize::from(!fs.shader.ubo0.is_empty());
            with_varyings += usize::from(!fs.shader.inputs.is_empty());
            match m.run(&fs.shader.program) {
                Ok(o) if o.killed => failures.push(format!("{name}: killed at {p:?}")),
                Ok(_) => {
                    // Colour outputs are clamped to [0, 1] by the fixed-point render target.
                    let got = m.temp(color_reg).map(|c| c.clamp(0.0, 1.0));
                    if want.iter().zip(got).any(|(w, g)| (w - g).abs() > 0.01) {
                        failures.push(format!("{name}: probe {p:?} wants {want:?}, got {got:?}"));
                    }
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    println!(
        "{platform}: {checked} piglit probes checked ({with_uniforms} with user uniforms, \
         {with_ubo} loading the uniform block, {with_varyings} with varyings from the simulated \
         vertex shader), {} mismatches",
        failures.len()
    );
    println!("  opcodes exercised: {opcodes:?}");
    let mut figs = common::expect::Figures::new(&format!("{platform}.etna_sim.piglit_probes"));
    figs.count("checked", checked);
    figs.count("with_uniforms", with_uniforms);
    figs.count("with_ubo", with_ubo);
    figs.count("with_varyings", with_varyings);
    figs.count("failed", failures.len());
    figs.count("opcodes", opcodes.len());
    for f in &failures {
        println!("  {f}");
        figs.note(f.clone());
    }
    figs.check();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn gc2000_piglit_probes() {
    run_platform("gc2000");
}

#[test]
fn gc7000_piglit_probes() {
    run_platform("gc7000");
}
