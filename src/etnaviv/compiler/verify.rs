//! Differential check: the compiled program on the simulator against the NIR interpreter.
//!
//! Each input set gives the user uniforms and the inputs deterministic values (from a fixed
//! seed per set) and runs a 2×2 quad through the interpreter; the same quad then runs on
//! [`crate::etnaviv::sim`] (fragment shaders as a quad, so derivatives see their neighbours;
//! vertex shaders one invocation at a time) with the same uniforms, inputs, fragment
//! position and front-facing bit (alternating per pixel), and each output component the
//! interpreter wrote must match the register the shader object names for that output. The
//! default uniform block is also uniform buffer 0, in simulator memory at [`UBO_ADDRESS`].
//!
//! Outputs must be bit-identical (or both NaN) unless the shader uses inexact math
//! ([`crate::verify::uses_inexact_math`]: transcendentals, multiply-adds, derivatives,
//! sampling). Those shaders' floats compare within a tolerance because the hardware's
//! transcendentals (RCP, RSQ, EXP, LOG, SIN, COS, SQRT) are not correctly rounded and the
//! simulator computes them in single precision while the interpreter uses double: values match
//! when they are bit-identical, both NaN, or within `2^-9` relative or `1e-5` absolute. The
//! relative bound is wide because `pow` becomes EXP(LOG(x) · y), which multiplies LOG's error
//! by `y · log2 x` (exponents above 100 occur in the corpus' specular terms).

use std::collections::{BTreeMap, BTreeSet};

use super::consts::UniformContent;
use super::{CompileError, Context, Options};
use crate::etnaviv::isa::Opcode;
use crate::etnaviv::sim::{run_quad, Machine};
use crate::nir::interp::env::{generated_input, pixel};
use crate::nir::interp::{self, Environment, Sampler, TexRequest};
use crate::nir::ir::{InstrKind, Shader, VarMode};
use crate::nir::opcodes::{IndexKind, Intrinsic};
use crate::nir::types::{BaseType, Stage};
use crate::util::rng::Rng;

/// Invocations per input set (one quad).
const INVOCATIONS: usize = 4;

/// Where the simulator's memory holds the uniform buffers (not 0, so that a LOAD which
/// ignored its address operand would read the wrong words).
pub const UBO_ADDRESS: u32 = 0x100;

use crate::verify::MathProbes;
pub use crate::verify::VerifyOutcome;

/// Whether two output components agree (see the module documentation); `inexact` is
/// [`crate::verify::uses_inexact_math`] of the shader.
pub fn close_enough(expected: u32, got: u32, inexact: bool) -> bool {
    if expected == got {
        return true;
    }
    let (a, b) = (f32::from_bits(expected), f32::from_bits(got));
    if a.is_nan() && b.is_nan() {
        return true;
    }
    if !inexact || !a.is_finite() || !b.is_finite() {
        return false;
    }
    let diff = (a - b).abs();
    diff <= 1e-5 || diff <= a.abs().max(b.abs()) / 512.0
}

/// User uniform slots that some load reads as integers.
fn integer_uniform_slots(shader: &Shader, float_offsets: bool) -> BTreeSet<u32> {
    // GLSL integer and boolean uniforms: Mesa may load them with a float destination type.
    let mut out = uniform_slots_of(shader, |b| {
        matches!(b, BaseType::Int | BaseType::Uint | BaseType::Bool)
    });
    let Some(imp) = shader.entry() else {
        return out;
    };
    for ins in &imp.instrs {
        if let InstrKind::Intrinsic(ii) = &ins.kind {
            if ii.intrinsic != Intrinsic::LoadUniform {
                continue;
            }
            let int = ii
                .type_index(IndexKind::DestType)
                .is_some_and(|t| t.base != BaseType::Float);
            let off = ii.srcs.first().and_then(|&s| imp.const_value(s)).map(|v| {
                if float_offsets {
                    f32::from_bits(v[0] as u32) as u32
                } else {
                    v[0] as u32
                }
            });
            if let (true, Some(off)) = (int, off) {
                out.insert(ii.int_index(IndexKind::Base).unwrap_or(0).max(0) as u32 + off);
            }
        }
    }
    out
}

/// User uniform slots that hold a GLSL `bool`. The GL API stores such a uniform as the
/// driver's canonical true or false whatever value the application passes (Mesa's
/// `UniformBooleanTrue`: `~0` where the core has integers, `1.0f` where it does not), and the
/// NIR relies on it: gc7000's `inot b` is false only for `~0`. Any other bit pattern is an input
/// no GL program can produce.
fn boolean_uniform_slots(shader: &Shader) -> BTreeSet<u32> {
    uniform_slots_of(shader, |b| b == BaseType::Bool)
}

/// The slots of the user uniforms whose ALU base type passes `pick`, every array element.
fn uniform_slots_of(shader: &Shader, pick: impl Fn(BaseType) -> bool) -> BTreeSet<u32> {
    shader
        .variables
        .iter()
        .filter(|v| v.mode == VarMode::Uniform && pick(v.ty.alu_base()))
        .flat_map(|v| v.driver_location..v.driver_location + v.ty.array_elements())
        .collect()
}

/// Extra input sets tried, beyond the requested ones, when sets are skipped because the
/// shader is undefined on them or does not end: a shader that indexes an array with a loop
/// counter (glamor's gradient stops) is defined only where the uniforms agree with each other,
/// and random sets find such inputs only some of the time.
const EXTRA_SETS: usize = 29;

/// Input sets on which the interpreter may run into its step limit before the check stops
/// trying more: each costs the whole limit, and a loop that never ends on three sets of
/// random uniforms is endless by construction far more often than by chance (an endless loop
/// once cost 27 s of CPU over all 32 sets, fuzz-repro/unseen F3).
const MAX_ENDLESS_SETS: usize = 3;

/// Compiles `shader` and compares simulator and interpreter over `input_sets` input sets.
/// A set on which the interpreter finds the shader undefined, or endless (the step limit:
/// `do { } while (b)` with `b` true never ends in GLSL either, and the hardware would hang),
/// is skipped and replaced by another, up to [`EXTRA_SETS`] more.
/// Verification is a test: the IR is validated after every pass, in release builds too.
pub fn verify(ctx: &Context, shader: &Shader, input_sets: usize) -> VerifyOutcome {
    let obj = match ctx.compile(shader, &Options::default().validating()) {
        Ok(o) => o,
        Err(CompileError::Unsupported(m)) => return VerifyOutcome::Unsupported(m),
        Err(e) => return VerifyOutcome::Error(e.to_string()),
    };
    let specs = ctx.specs();
    let indirect = obj
        .insts
        .iter()
        .any(|i| matches!(i.opcode, Opcode::Movar | Opcode::Movai));
    let fragment = shader.stage() == Stage::Fragment;
    let float_offsets = !specs.has_integers();
    let int_slots = integer_uniform_slots(shader, float_offsets);
    let bool_slots = boolean_uniform_slots(shader);
    let bool_true = if float_offsets { 1.0f32.to_bits() } else { !0 };
    let user_slots = obj
        .uniforms
        .iter()
        .flatten()
        .filter_map(|c| match c {
            UniformContent::User(i) => Some(*i as usize / 4 + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0)
        // Uniforms read only through UBO loads have no slot in the shader object.
        .max(shader.info.num_uniforms as usize);
    let first_unit = if fragment {
        0
    } else {
        specs.sampler_limits().vertex_offset
    };
    let model = interp::DefaultSampler;
    let mut skipped: Vec<String> = Vec::new();
    // The interpreter gives opcodes their standard meaning (see `dialect`).
    if let Some(what) = super::dialect::parts_read_alone(specs, shader) {
        return VerifyOutcome::Unsupported(what);
    }
    let standard = super::dialect::to_standard(specs, shader);
    let inexact =
        crate::verify::uses_inexact_math(shader) || crate::verify::uses_inexact_math(&standard);
    let mut checked = 0;
    let mut endless = 0;
    for set in 0..input_sets + EXTRA_SETS {
        if checked == input_sets || endless == MAX_ENDLESS_SETS {
            break;
        }
        let mut rng = Rng::new(0x5eed_0000 + set as u64);
        let mut ubits = vec![[0u32; 4]; user_slots];
        for (slot, v) in ubits.iter_mut().enumerate() {
            for c in v.iter_mut() {
                *c = if bool_slots.contains(&(slot as u32)) {
                    if rng.below(2) == 1 {
                        bool_true
                    } else {
                        0
                    }
                } else if int_slots.contains(&(slot as u32)) {
                    // Small integers, as floats on cores that keep integers in floats.
                    let k = rng.below(4) as u32;
                    if float_offsets {
                        (k as f32).to_bits()
                    } else {
                        k
                    }
                } else if set >= input_sets {
                    // A replacement set: either sign, so that a sentinel such as a gradient's
                    // first stop (glamor puts -INT_MAX there) can lie below every value it
                    // bounds.
                    let f = random_float(&mut rng);
                    if rng.bool() { -f } else { f }.to_bits()
                } else {
                    random_float(&mut rng).to_bits()
                };
            }
        }
        let mut inputs: Vec<BTreeMap<u32, [u32; 4]>> = vec![BTreeMap::new(); INVOCATIONS];
        for (inv, map) in inputs.iter_mut().enumerate() {
            for io in &obj.inputs {
                let integer = input_is_integer(shader, io.slot);
                let v = [0u32, 1, 2, 3].map(|c| {
                    if set == 0 {
                        generated_input(inv, io.slot, c, integer)
                    } else if integer {
                        rng.below(2) as u32
                    } else {
                        // Positive, like the generated inputs: NaNs from square roots or logs
                        // of negative numbers would only test the min/max NaN conventions,
                        // where GLSL leaves the hardware free.
                        // Not dyadic either: exact binary fractions land texture coordinates
                        // on texel edges, where a fused and an unfused multiply-add pick
                        // different texels.
                        random_float(&mut rng).to_bits()
                    }
                });
                map.insert(io.slot, v);
            }
        }
        let ubytes: Vec<u8> = ubits
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let front: Vec<bool> = (0..INVOCATIONS).map(|i| (i + set) % 2 == 0).collect();
        // Vertex shaders: each invocation a vertex of a draw starting at a first vertex other
        // than 0, instances of three vertices, so that the vertex id (first vertex plus the
        // index) and the instance id differ per invocation and per set.
        let draws: Vec<interp::DrawParameters> = if fragment {
            Vec::new()
        } else {
            (0..INVOCATIONS)
                .map(|i| interp::DrawParameters {
                    first_vertex: 5 + set as u32,
                    vertex_id_zero_base: i as u32,
                    instance_id: (i / 3 + set) as u32,
                    ..Default::default()
                })
                .collect()
        };
        let make_env = |math_error| Environment {
            uniforms: ubytes.clone(),
            ubos: vec![ubytes.clone()],
            front_face: Some(front.clone()),
            draw_parameters: draws.clone(),
            float_uniform_offsets: float_offsets,
            // Mesa's etnaviv reads the front-facing register as the 32-bit value the core
            // leaves there, 1.0 or 0.0 on every core (etnaviv_nir.c widens load_front_face to
            // 32 bits and compares it with zero itself).
            float_booleans: true,
            inputs: inputs.clone(),
            generate_inputs: true,
            // Out-of-bounds reads are undefined in GLSL (the interpreter would read zero, the
            // hardware a neighbouring slot), and so is converting a value that is no boolean
            // (b2f32 of 0.5): an input set that causes one is skipped.
            robust_access: false,
            math_error,
            ..Environment::default()
        };
        let reference = match interp::run(&standard, &make_env(None), INVOCATIONS) {
            Ok(r) => r,
            Err(e) if e.undefined || e.endless => {
                endless += usize::from(e.endless);
                skipped.push(e.to_string());
                continue;
            }
            Err(e) => return VerifyOutcome::Error(format!("interpreter: {e}")),
        };
        checked += 1;
        let mut probes = MathProbes::new(&standard, |e| {
            interp::run(&standard, &make_env(Some(e)), INVOCATIONS).ok()
        });
        let mut machines = Vec::with_capacity(INVOCATIONS);
        for inv in 0..INVOCATIONS {
            let mut m = Machine::new(specs);
            m.set_sampler(Box::new(UnitSampler { first_unit }));
            for s in &obj.samplers {
                if let Some(d) = m.texture_dims.get_mut(s.unit as usize) {
                    *d = usize::from(s.coord_dims);
                }
            }
            for (slot, contents) in obj.uniforms.iter().enumerate() {
                let mut v = [0u32; 4];
                for (c, content) in contents.iter().enumerate() {
                    v[c] = match *content {
                        UniformContent::User(i) => {
                            let i = i as usize;
                            ubits.get(i / 4).map_or(0, |s| s[i % 4])
                        }
                        UniformContent::Const(b) => b,
                        UniformContent::TextureScale { unit, comp } => {
                            let size = model.size(unit, 0);
                            (1.0 / size[comp as usize & 1] as f32).to_bits()
                        }
                        UniformContent::TextureSize { unit, comp } => {
                            model.size(unit, 0)[usize::from(comp).min(2)]
                        }
                        UniformContent::UboAddress(_) => UBO_ADDRESS,
                        UniformContent::Unused => 0,
                    };
                }
                m.set_uniform_bits(slot, v);
            }
            m.memory = vec![0; UBO_ADDRESS as usize];
            m.memory.extend_from_slice(&ubytes);
            for io in &obj.inputs {
                m.set_temp_bits(usize::from(io.reg), inputs[inv][&io.slot]);
            }
            if let (Some(reg), Some(d)) = (obj.vs_id_in_reg, draws.get(inv)) {
                let vertex_id = d.first_vertex.wrapping_add(d.vertex_id_zero_base);
                m.set_temp_bits(usize::from(reg), [vertex_id, d.instance_id, 0, 0]);
            }
            if fragment {
                let (x, y) = pixel(inv);
                m.set_temp(0, [x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0]);
                m.set_front_face(front[inv]);
            }
            machines.push(m);
        }
        let outcomes = if fragment {
            run_quad(&mut machines, &obj.insts).map(|o| o.into_iter().map(Ok).collect())
        } else {
            Ok(machines
                .iter_mut()
                .map(|m| m.run(&obj.insts))
                .collect::<Vec<_>>())
        };
        let outcomes: Vec<_> = match outcomes {
            Ok(o) => o,
            Err(e) => vec![Err(e)],
        };
        for (inv, expected) in reference.invocations.iter().enumerate() {
            let m = &machines[inv];
            let run = outcomes
                .get(inv)
                .or(outcomes.first())
                .cloned()
                .unwrap_or_else(|| Ok(Default::default()));
            let outcome = match run {
                Ok(o) => o,
                Err(e) if e.message.contains("out of range") && indirect => {
                    // The interpreter reads zero out of bounds (robust access); the hardware
                    // result is undefined, so there is nothing to compare.
                    return VerifyOutcome::Unsupported(format!(
                        "out-of-range indirect uniform access on these inputs ({e})"
                    ));
                }
                Err(e) => return VerifyOutcome::Error(format!("simulator: {e}")),
            };
            if outcome.killed || expected.discarded {
                if outcome.killed != expected.discarded
                    && !probes.discard_ill_conditioned(inv, expected.discarded)
                {
                    return VerifyOutcome::Fail {
                        invocation: inv,
                        output: "discard".into(),
                        expected: expected.discarded.to_string(),
                        got: outcome.killed.to_string(),
                    };
                }
                continue;
            }
            for (slot, out) in &expected.outputs {
                let Some(io) = obj.outputs.iter().find(|o| o.slot == *slot) else {
                    return VerifyOutcome::Error(format!("output slot {slot} has no register"));
                };
                let got = m.temp_bits(usize::from(io.reg));
                for c in 0..4 {
                    let Some(e) = out.comps[c] else { continue };
                    if !close_enough(e as u32, got[c], inexact)
                        && !probes.ill_conditioned(inv, *slot, c, e, |a, b| {
                            close_enough(a as u32, b as u32, inexact)
                        })
                    {
                        let show = |b: u32| format!("{} (0x{b:08x})", f32::from_bits(b));
                        return VerifyOutcome::Fail {
                            invocation: inv + set * INVOCATIONS,
                            output: format!("{}.{}", out.name, ["x", "y", "z", "w"][c]),
                            expected: show(e as u32),
                            got: show(got[c]),
                        };
                    }
                }
            }
        }
    }
    if input_sets > 0 && checked == 0 {
        return VerifyOutcome::Unsupported(format!(
            "every one of {} input sets is undefined or endless ({})",
            skipped.len(),
            skipped[0]
        ));
    }
    VerifyOutcome::Pass
}

fn input_is_integer(shader: &Shader, slot: u32) -> bool {
    let Some(imp) = shader.entry() else {
        return false;
    };
    imp.instrs.iter().any(|ins| match &ins.kind {
        InstrKind::Intrinsic(ii) if ii.intrinsic == Intrinsic::LoadInput => {
            ii.int_index(IndexKind::Base) == Some(i64::from(slot))
                && ii
                    .type_index(IndexKind::DestType)
                    .is_some_and(|t| t.base != BaseType::Float)
        }
        _ => false,
    })
}

/// The interpreter's default texture model seen from the hardware's units: vertex shaders
/// sample through units after the fragment ones, so unit `first_unit` shows texture 0.
struct UnitSampler {
    first_unit: u32,
}

impl Sampler for UnitSampler {
    fn sample(&self, req: &TexRequest) -> Result<[f64; 4], String> {
        let mut r = req.clone();
        r.texture = r.texture.saturating_sub(self.first_unit);
        r.sampler = r.sampler.saturating_sub(self.first_unit);
        interp::DefaultSampler.sample(&r)
    }
    fn size(&self, texture: u32, lod: u32) -> [u32; 3] {
        interp::DefaultSampler.size(texture.saturating_sub(self.first_unit), lod)
    }
    fn levels(&self, texture: u32) -> u32 {
        interp::DefaultSampler.levels(texture.saturating_sub(self.first_unit))
    }
}

/// A float in [0.1, 2.0) with a random mantissa.
fn random_float(rng: &mut Rng) -> f32 {
    0.1 + rng.below(1_000_000) as f32 * (1.9 / 1_000_000.0)
}

#[cfg(test)]
mod tests {
    use super::close_enough;
    use crate::verify::uses_inexact_math;

    const FS_HEAD: &str = "shader: MESA_SHADER_FRAGMENT\ninputs: 1\noutputs: 1\nuniforms: 0\n\
        decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
        decl_function main (0 params)\n\n\
        impl main {\n    block b0:\n\
        32     %0 = load_const (0x00000000)\n\
        32x4   %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_COL0 slots=1)\n";

    fn shader(op: &str) -> crate::nir::ir::Shader {
        let text = format!(
            "{FS_HEAD}        32     %2 = {op}\n\
             32     %3 = deref_var &gl_FragColor (shader_out vec4)\n\
             32x4   %4 = vec4 %2, %2, %2, %2\n\
             @store_deref (%3, %4) (wrmask=xyzw, access=none)\n    block b1:\n}}\n"
        );
        crate::nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    /// A shader of exact operations only must match the interpreter bit for bit: the one-ulp
    /// difference a dot product may show is accepted only where the shader has inexact math.
    /// (Before, every float output of every shader got a 2^-9 relative tolerance.)
    #[test]
    fn only_inexact_shaders_get_a_tolerance() {
        let (want, got) = (0x3f9e_6667, 0x3f9e_6666); // 1.2375001 and 1.2375
        assert!(!close_enough(want, got, false));
        assert!(close_enough(want, got, true));
        assert!(close_enough(want, want, false));
        assert!(close_enough(f32::NAN.to_bits(), 0x7fc0_0001, false));
        assert!(!uses_inexact_math(&shader("fadd %1.x, %1.y")));
        assert!(!uses_inexact_math(&shader("fmul %1.x, %1.y")));
        assert!(uses_inexact_math(&shader("fdot4 %1, %1")));
        assert!(uses_inexact_math(&shader("ffma %1.x, %1.y, %1.z")));
    }
}
