//! End-to-end check of the simulator's semantics: fragment shaders that Mesa 23.3 compiled for
//! piglit tests (shared/corpus/mesa-asm) are run in the simulator, and the colour they write
//! is compared with what the piglit test probes for. Only shaders whose result the test fully
//! determines are used: no varyings, no textures, no built-in state uniforms; user uniforms
//! (immediates of kind 2) are placed at the driver locations the corpus NIR declares, with the
//! values the test's `uniform` commands set before the probed draw.

mod common;

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
    color_reg: usize,
}

/// Reads a Mesa 23.3 etnaviv shader dump; `None` when it is not self-contained.
fn parse_asm(text: &str) -> Option<Shader> {
    let mut program = Vec::new();
    let mut constants = Vec::new();
    let mut user = Vec::new();
    let mut ubo0 = Vec::new();
    let mut color_reg = None;
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
        match section {
            "inputs:" if !t.is_empty() => return None,
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
        color_reg: color_reg?,
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
type Probe = (Option<[f32; 2]>, Vec<f32>, Vec<u32>);

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
    let mut drawn: Option<Vec<u32>> = None;
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
                drawn = Some(storage.clone());
            }
            Some("probe") => {
                let state = drawn.clone()?;
                match words.get(1..3) {
                    Some(["all", "rgba"]) | Some(["all", "rgb"]) => {
                        out.push((None, nums(&words[3..])?, state))
                    }
                    Some(["rgba", _]) | Some(["rgb", _]) => {
                        let v = nums(&words[2..])?;
                        pixel_probes = true;
                        out.push((Some([v[0], v[1]]), v[2..].to_vec(), state));
                    }
                    _ => return None,
                }
            }
            Some("texture" | "fb" | "blend" | "enable") => return None,
            _ => {}
        }
    }
    if pixel_probes && draws > 1 {
        return None;
    }
    (!out.is_empty()).then_some(out)
}

fn run_platform(platform: &str) {
    let Some(asm_dir) = common::shared_path(&format!("corpus/mesa-asm/{platform}")) else {
        return;
    };
    let piglit_dir = asm_dir.join("../../piglit");
    let specs = Specs::from_name(platform).unwrap();
    let (mut checked, mut with_uniforms, mut with_ubo, mut failures) = (0, 0, 0, Vec::new());
    let mut opcodes = std::collections::BTreeMap::new();
    for f in common::files_with_suffix(&asm_dir, ".fs.asm") {
        let name = f
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".fs.asm", "");
        let test = piglit_dir.join(format!("{name}.shader_test"));
        let (Ok(asm), Ok(piglit)) = (std::fs::read_to_string(&f), std::fs::read_to_string(&test))
        else {
            continue;
        };
        // Out-of-bounds array reads are undefined behaviour, which the simulator reports as an
        // error rather than inventing a value.
        if name.contains("array_bounds") {
            continue;
        }
        let nir_path = asm_dir.join(format!("../../nir/{platform}/{name}.fs.nir"));
        let Some(uniforms) = std::fs::read_to_string(&nir_path)
            .ok()
            .and_then(|n| parse_uniforms(&n))
        else {
            continue;
        };
        let Some(shader) = parse_asm(&asm) else {
            continue;
        };
        let Some(probes) = parse_probes(&piglit, &uniforms, specs.has_integers()) else {
            continue;
        };
        for inst in &shader.program {
            *opcodes.entry(inst.opcode.name()).or_insert(0usize) += 1;
        }
        for (pixel, want, storage) in probes {
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
            with_ubo += usize::from(!shader.ubo0.is_empty());
            let [x, y] = pixel.unwrap_or([0.0, 0.0]);
            let out = m.run_fragment(&shader.program, [x + 0.5, y + 0.5, 0.5, 1.0], &[]);
            checked += 1;
            with_uniforms += usize::from(!shader.user.is_empty());
            match out {
                Ok(o) if o.killed => failures.push(format!("{}: killed", name)),
                Ok(_) => {
                    // Colour outputs are clamped to [0, 1] by the fixed-point render target.
                    let got = m.temp(shader.color_reg).map(|c| c.clamp(0.0, 1.0));
                    if want.iter().zip(got).any(|(w, g)| (w - g).abs() > 0.01) {
                        failures.push(format!(
                            "{name}: probe {pixel:?} wants {want:?}, got {got:?}"
                        ));
                    }
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    println!(
        "{platform}: {checked} piglit probes checked ({with_uniforms} with user uniforms, \
         {with_ubo} loading the uniform block), {} mismatches",
        failures.len()
    );
    println!("  opcodes exercised: {opcodes:?}");
    for f in &failures {
        println!("  {f}");
    }
    assert!(checked >= 20, "enough self-contained shaders found");
    assert!(failures.is_empty());
}

#[test]
fn gc2000_piglit_probes() {
    run_platform("gc2000");
}

#[test]
fn gc7000_piglit_probes() {
    run_platform("gc7000");
}
