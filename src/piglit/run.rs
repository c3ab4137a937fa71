//! Executing a test: uniform state, draws, the framebuffer and probes.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use super::geometry::{self, GeometryError};
use super::io;
use super::raster::{self, Interp, Triangle, Vertex};
use super::script::{self, Command, Region, ShaderTest, TextureKind, VertexData};
use super::tessellation::{self, PatchState, TessError};
use super::texture::{Bindings, Texture};
use super::uniforms::{self, Block};
use crate::compiler::{CompileError, CompileOptions, Compiler};
use crate::etnaviv::compiler::dialect;
use crate::intel::devinfo::DevInfo;
use crate::nir::interp::{self, Environment};
use crate::nir::ir::{Shader, VarMode};
use crate::nir::opcodes::Intrinsic;
use crate::nir::types::BaseType;
use crate::program::Program;
use crate::target::Target;

/// Where the fragment (and, where supported, vertex) stage runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The NIR interpreter: checks the runner independently of the backends.
    Interpreter,
    /// The target's backend and simulator.
    Simulator,
}

/// The result of one test.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Passed; names what ran the vertex and fragment stages.
    Pass {
        stages: String,
    },
    /// Failed: a probe, a stage, or (with `gap`) the runner could not run the test.
    Fail {
        message: String,
        stages: String,
        gap: Option<Gap>,
    },
    Skip(String),
}

/// Why the runner could not run a test. Each is a failure (never a skip: a regression that
/// makes tests unrunnable must not look like fewer tests), and each names its class, so a
/// count per class says what to model or to capture next.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gap {
    /// A shader_runner command the runner does not model, as [`script::command_name`]
    /// names it (`texparameter swizzle_r`, `uniform dvec4`, `draw arrays GL_POINTS`,
    /// `draw rect ortho patch`), a section (`[geometry shader]`) or a `[vertex data]`
    /// column type (`[vertex data] uint/uvec4`).
    Command(String),
    /// Data the test's inputs lack, by class: `NIR` (no NIR file for a stage Mesa compiles),
    /// `constant data` (the bytes of a shader's constant data, which nir_print does not print).
    Data(String),
    /// The input is unreadable or malformed: the test file, its NIR, or the target name.
    Malformed,
    /// State no shader_runner command sets that the runner does not model, by class:
    /// `default uniform block` (a uniform layout or GLSL initializer in the NIR that the
    /// runner's default-block model does not take, e.g. a 64-bit initializer).
    Unmodelled(String),
    /// A stage gpucc's backend refuses as unsupported (`fragment shader`): a feature it does
    /// not build (64-bit arithmetic, for one), named in the message.
    Refused(String),
}

impl Gap {
    /// The class as counted and printed: `cannot run: <command>`, `missing data: <data>`,
    /// `invalid input`, or `not modelled: <state>`.
    pub fn class(&self) -> String {
        match self {
            Gap::Command(c) => format!("cannot run: {c}"),
            Gap::Data(d) => format!("missing data: {d}"),
            Gap::Malformed => "invalid input".to_string(),
            Gap::Unmodelled(u) => format!("not modelled: {u}"),
            Gap::Refused(stage) => format!("refused by gpucc: {stage}"),
        }
    }
}

impl Outcome {
    /// Why the runner could not run the test, if that is why it failed.
    pub fn gap(&self) -> Option<&Gap> {
        match self {
            Outcome::Fail { gap, .. } => gap.as_ref(),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Pass { stages } => write!(f, "PASS ({stages})"),
            // A test that failed before any stage ran has no stages to name.
            Outcome::Fail {
                message, stages, ..
            } if stages.is_empty() => write!(f, "FAIL: {message}"),
            Outcome::Fail {
                message, stages, ..
            } => write!(f, "FAIL: {message} ({stages})"),
            Outcome::Skip(reason) => write!(f, "SKIP: {reason}"),
        }
    }
}

/// piglit's per-channel tolerance for an 8-bit channel (`piglit_set_tolerance_for_bits`:
/// three steps of the channel's precision).
pub const TOLERANCE_8BIT: f32 = 3.0 / 256.0;

/// A 2×2 quad: its lower-left pixel and, per pixel (bit 0 = x, bit 1 = y), the triangle
/// covering it (`None` for helper pixels).
type Quad = ((u32, u32), [Option<usize>; 4]);

/// What runs the fragment stage.
enum FsExec {
    Interpreter,
    Intel(&'static DevInfo, Box<Program>),
    Etnaviv(&'static crate::etnaviv::specs::Specs, super::etna::Loaded),
}

/// A stage's shader with the facts the runner needs about its I/O.
struct Stage {
    shader: Shader,
    block: Block,
}

/// Why a test stopped early.
///
/// Only what piglit itself would skip is a skip: a requirement the platform does not meet.
/// Anything else that keeps the test from running (a file that does not parse, a command or
/// section the runner does not model, data the corpus lacks) is an error, reported as a
/// failure: as a skip it would vanish from the pass rate, and a regression that makes tests
/// unrunnable would look like fewer tests.
enum Stop {
    /// piglit would skip the test: the platform lacks a requirement.
    Skip(String),
    /// The runner cannot run the test here (counted as a failure), with why.
    Error(Gap, String),
    Fail(String),
}

impl Stop {
    /// An unmodelled shader_runner command (`command` as [`Gap::Command`] names it).
    fn command(command: impl Into<String>, detail: impl Into<String>) -> Stop {
        Stop::Error(Gap::Command(command.into()), detail.into())
    }

    /// Data the inputs lack (`class` as [`Gap::Data`] names it).
    fn data(class: &str, detail: impl Into<String>) -> Stop {
        Stop::Error(Gap::Data(class.to_string()), detail.into())
    }

    fn malformed(detail: impl Into<String>) -> Stop {
        Stop::Error(Gap::Malformed, detail.into())
    }

    fn into_outcome(self, stages: String) -> Outcome {
        match self {
            Stop::Skip(s) => Outcome::Skip(s),
            Stop::Error(gap, s) => Outcome::Fail {
                message: match &gap {
                    Gap::Command(c) => format!("cannot run: \"{c}\" is not modelled: {s}"),
                    Gap::Data(d) => format!("missing data ({d}): {s}"),
                    Gap::Malformed => format!("invalid input: {s}"),
                    Gap::Unmodelled(u) => format!("not modelled ({u}): {s}"),
                    Gap::Refused(_) => format!("refused: {s}"),
                },
                stages,
                gap: Some(gap),
            },
            Stop::Fail(message) => Outcome::Fail {
                message,
                stages,
                gap: None,
            },
        }
    }

    /// A draw's stop, with the draw command (`draw rect`, `draw arrays`) put before the
    /// form it could not draw ([`DRAW_FORM_CLIPPING`], [`DRAW_FORM_VARYING`]).
    fn in_draw(self, command: &str) -> Stop {
        match self {
            Stop::Error(Gap::Command(form), s) if form.starts_with('(') => {
                Stop::Error(Gap::Command(format!("{command} {form}")), s)
            }
            other => other,
        }
    }

    /// The same kind of stop with `f` applied to its message.
    fn map(self, f: impl FnOnce(String) -> String) -> Stop {
        match self {
            Stop::Skip(s) => Stop::Skip(f(s)),
            Stop::Error(g, s) => Stop::Error(g, f(s)),
            Stop::Fail(s) => Stop::Fail(f(s)),
        }
    }
}

/// A draw whose primitive crosses the eye plane: the runner does not clip.
const DRAW_FORM_CLIPPING: &str = "(clipping)";
/// A draw whose fragment shader reads a varying the vertex stage does not write: without a
/// vertex shader, a fixed-function output (`gl_TexCoord[1]`, `gl_FogFragCoord`...) the runner
/// does not model.
const DRAW_FORM_VARYING: &str = "(unwritten varying)";

/// The highest GLSL version Mesa 23.3 exposes on `target`, times 100: etnaviv offers OpenGL
/// 2.1 (GLSL 1.20); crocus on Gen7 and iris offer far more than any corpus test asks for.
fn max_glsl_version(target: Target) -> u32 {
    match target {
        Target::Intel(_) => 460,
        Target::Etnaviv(_) => 120,
    }
}

/// Runs one test: `nir_dir/<test>.{vs,fs}.nir` hold the shaders Mesa produced for `target`.
pub fn run_test(target: &str, path: &Path, nir_dir: &Path, mode: Mode) -> Outcome {
    let target = match Target::from_name(target) {
        Ok(t) => t,
        Err(e) => return Stop::malformed(e.to_string()).into_outcome(String::new()),
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            return Stop::malformed(format!("cannot read {}: {e}", path.display()))
                .into_outcome(String::new())
        }
    };
    let test = match script::parse(&text) {
        Ok(t) => t,
        Err(e) => {
            return Stop::malformed(format!("{}: {e}", path.display())).into_outcome(String::new())
        }
    };
    let name = super::test_name(path);
    let outcome = run_parsed(target, &test, &name, nir_dir, mode, MinMax::Hardware);
    if let (Outcome::Fail { message, .. }, Target::Etnaviv(_)) = (&outcome, target) {
        if let Some(why) = nan_rule_explains(target, &test, &name, nir_dir, message) {
            return Outcome::Skip(why);
        }
    }
    outcome
}

/// Which `fmin`/`fmax` of a NaN the interpreter computes on etnaviv (see
/// [`crate::etnaviv::compiler::dialect`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum MinMax {
    /// The hardware's: the backend's `SELECT` yields a NaN first operand.
    Hardware,
    /// NIR's own (C's `fmax`): a NaN operand yields the other one.
    Nir,
}

fn run_parsed(
    target: Target,
    test: &ShaderTest,
    name: &str,
    nir_dir: &Path,
    mode: Mode,
    min_max: MinMax,
) -> Outcome {
    let mut runner = match Runner::new(target, test, name, nir_dir, mode, min_max) {
        Ok(r) => r,
        Err(stop) => return stop.into_outcome(String::new()),
    };
    let stages = runner.stages();
    match runner.execute(test) {
        Ok(()) => Outcome::Pass { stages },
        Err(stop) => stop.into_outcome(stages),
    }
}

/// Why a failure (`message`) on an etnaviv core is the hardware's NaN rule for min/max and
/// nothing else, if it is: the interpreter with the hardware's rule fails with the very same
/// probe values, and with NIR's rule the test passes. piglit's `fs-`/`vs-nan-builtin-max`
/// and `-min` test such a NaN on purpose although GLSL does not require it (their own
/// comment says so). Vivante cores have no MAX/MIN: Mesa's etnaviv, like gpucc, compiles
/// them to one `SELECT`, and Mesa's CI lists these tests as failing on GC2000 hardware
/// (src/etnaviv/ci/etnaviv-gc2000-fails.txt). NIR's rule would cost a second instruction
/// per min/max in every shader. Such a test is a skip naming this, never a silent failure.
fn nan_rule_explains(
    target: Target,
    test: &ShaderTest,
    name: &str,
    nir_dir: &Path,
    message: &str,
) -> Option<String> {
    let hardware = run_parsed(
        target,
        test,
        name,
        nir_dir,
        Mode::Interpreter,
        MinMax::Hardware,
    );
    let nir = run_parsed(target, test, name, nir_dir, Mode::Interpreter, MinMax::Nir);
    match (hardware, nir) {
        (Outcome::Fail { message: m, .. }, Outcome::Pass { .. }) if m == message => Some(
            "min/max of a NaN: the core's single-SELECT max/min yields the NaN operand \
             (GLSL leaves it open; Mesa's etnaviv fails this test on GC2000 hardware too); \
             the test passes with NIR's rule, and fails identically with the core's"
                .to_string(),
        ),
        _ => None,
    }
}

/// Why Mesa produced no NIR for `stage` of test `name` on etnaviv core `target`, when the
/// reason is the core's uniform file: the NIR Mesa printed for another etnaviv core
/// (a sibling of `dir`) declares more vec4 uniform slots than `target` has for the stage.
///
/// piglit's `fs-vec4-const-array-indirect-access-{064,128,256}-elements` are such tests:
/// Mesa turns an indirectly indexed constant array into uniforms only where they fit
/// (`nir_lower_const_arrays_to_uniforms` is given the stage's uniform components). gc7000's
/// NIR holds 65, 129 and 257 vec4 slots; a GC2000 fragment shader has 64, so there the array
/// stays in the shader, Mesa's etnaviv compiles no program, and Mesa's CI lists the three as
/// failing on GC2000 hardware (src/etnaviv/ci/etnaviv-gc2000-fails.txt).
fn over_uniform_limit(target: Target, dir: &Path, name: &str, stage: &str) -> Option<String> {
    let Target::Etnaviv(specs) = target else {
        return None;
    };
    let limit = specs.uniform_limits().max_for(stage == "fs");
    let here = dir.file_name()?.to_str()?;
    let mut siblings: Vec<_> = std::fs::read_dir(dir.parent()?)
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|core| core != here && crate::etnaviv::specs::Specs::from_name(core).is_some())
        .collect();
    siblings.sort();
    siblings.into_iter().find_map(|core| {
        let path = dir
            .join("..")
            .join(&core)
            .join(format!("{name}.{stage}.nir"));
        let text = std::fs::read_to_string(path).ok()?;
        let slots: u32 = text
            .lines()
            .find_map(|l| l.strip_prefix("uniforms: "))?
            .trim()
            .parse()
            .ok()?;
        (slots > limit).then(|| {
            format!(
                "the {} shader needs {slots} vec4 uniform slots ({core}'s NIR, its constant \
                 array lowered to uniforms) and {} has {limit}: Mesa compiles no program",
                if stage == "fs" { "fragment" } else { "vertex" },
                specs.name
            )
        })
    })
}

/// Why a stage did not compile: a feature the backend does not build is a gap named by the
/// stage; any other error is a failure.
fn compile_stop(stage: &str, e: CompileError) -> Stop {
    match e {
        CompileError::Unsupported(_) => Stop::Error(
            Gap::Refused(stage.to_string()),
            format!("{stage} compile: {e}"),
        ),
        e => Stop::Fail(format!("{stage} compile: {e}")),
    }
}

/// A vertex the vertex stage wrote, from its outputs by varying slot name. Its position is
/// required only when the rasterizer reads it (`rasterized`): a geometry shader after the
/// vertex shader reads its inputs by slot and emits positions of its own.
fn stage_vertex(outputs: BTreeMap<String, [u32; 4]>, rasterized: bool) -> Result<Vertex, Stop> {
    let clip = match outputs.get("VARYING_SLOT_POS") {
        Some(p) => p.map(f32::from_bits),
        None if !rasterized => [0.0, 0.0, 0.0, 1.0],
        None => return Err(Stop::Fail("the vertex shader wrote no position".into())),
    };
    Ok(Vertex {
        clip,
        outputs,
        clip_distances: Vec::new(),
    })
}

/// The slot name (`VARYING_SLOT_POS`, `VARYING_SLOT_VAR0`...) of output driver location
/// `location`, from the output variable that covers it.
fn output_name(shader: &Shader, location: u32) -> Option<String> {
    shader
        .variables
        .iter()
        .filter(|v| v.mode == VarMode::ShaderOut)
        .find_map(|v| {
            let k = location.checked_sub(v.driver_location)?;
            let n = v.ty.array_elements();
            let base = v.location.split('.').next()?;
            (k < n).then(|| io::offset_location(base, k))
        })
}

fn load_stage(
    dir: &Path,
    name: &str,
    stage: &str,
    native_ints: bool,
    packed: bool,
) -> Result<Option<Stage>, Stop> {
    let path = dir.join(format!("{name}.{stage}.nir"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let shader = crate::nir::parse(&text)
        .map_err(|e| Stop::malformed(format!("{}: {e}", path.display())))?;
    let block = Block::new(&shader, native_ints, packed).map_err(|e| {
        Stop::Error(
            Gap::Unmodelled("default uniform block".into()),
            format!("{}: {e}", path.display()),
        )
    })?;
    Ok(Some(Stage { shader, block }))
}

struct Runner {
    target: Target,
    size: [u32; 2],
    vs: Option<Stage>,
    /// The vertex program on the Intel simulator (Gen8+ in simulator mode); otherwise the
    /// vertex shader runs on the interpreter.
    vs_kernel: Option<(&'static DevInfo, Box<Program>)>,
    /// Why the vertex shader runs on the interpreter although the simulator was asked for
    /// (Gen7: the vec4 backend reported it unsupported).
    vs_fallback: Option<String>,
    /// The vertex program on the etnaviv simulator (simulator mode), or why the vertex stage
    /// runs on the interpreter instead.
    vs_etna: Result<(&'static crate::etnaviv::specs::Specs, super::etna::Loaded), String>,
    /// The geometry shader, run between the vertex stage and the rasterizer.
    gs: Option<Stage>,
    /// The geometry program on the Intel simulator (simulator mode); otherwise the geometry
    /// shader runs on the interpreter.
    gs_kernel: Option<(&'static DevInfo, Box<Program>)>,
    /// The texture unit each of the geometry shader's sampler slots reads.
    gs_slot_units: Vec<u32>,
    /// The tessellation control and evaluation shaders, run on the interpreter between the
    /// vertex stage and the geometry stage or rasterizer (see [`tessellation`]), the
    /// texture unit each of their sampler slots reads, and the `patch parameter` state.
    tcs: Option<Stage>,
    tes: Option<Stage>,
    tcs_slot_units: Vec<u32>,
    tes_slot_units: Vec<u32>,
    patch: PatchState,
    fs: Stage,
    fs_exec: FsExec,
    projection: [[f32; 4]; 4],
    clear_color: [f32; 4],
    current_color: [f32; 4],
    tolerance: [f32; 4],
    /// RGBA8 unorm, bottom row first (GL's window coordinates).
    fb: Vec<[u8; 4]>,
    /// Pixels some probe reads: the only ones shaded.
    needed: Vec<bool>,
    /// Texture objects by unit, the active unit, and the unit each sampler slot reads.
    textures: BTreeMap<u32, Arc<Texture>>,
    active_unit: u32,
    slot_units: Vec<u32>,
    texture_base: u32,
    glsl130: bool,
    /// User clip planes (object = eye coordinates: the modelview matrix is the identity)
    /// and which are enabled.
    clip_planes: [[f32; 4]; 8],
    clip_enabled: [bool; 8],
    vertex_data: Option<VertexData>,
}

impl Runner {
    fn new(
        target: Target,
        test: &ShaderTest,
        name: &str,
        dir: &Path,
        mode: Mode,
        min_max: MinMax,
    ) -> Result<Runner, Stop> {
        if let Some(s) = test.unsupported_sections.first() {
            return Err(Stop::command(format!("[{s}]"), "a section of its own"));
        }
        if let Some(form) = &test.unsupported_vertex_data {
            let ty = form.split(' ').next().unwrap_or(form);
            return Err(Stop::command(format!("[vertex data] {ty}"), form.clone()));
        }
        if let Some((line, Command::Unsupported(c))) = test
            .commands
            .iter()
            .find(|(_, c)| matches!(c, Command::Unsupported(_)))
        {
            return Err(Stop::command(
                script::command_name(c),
                format!("line {line}: {c}"),
            ));
        }
        let native_ints = match target {
            Target::Intel(_) => true,
            Target::Etnaviv(s) => s.has_integers(),
        };
        // iris (Gen8+) packs the default uniform block; crocus and etnaviv do not.
        let packed = matches!(target, Target::Intel(d) if d.ver >= 80);
        // Mesa compiles no NIR for a test whose requirements the platform lacks; piglit skips
        // such a test. Missing NIR for any other test is missing data.
        let max_glsl = max_glsl_version(target);
        let no_nir = |stage: &str| {
            let what = format!("no {name}.{stage}.nir in {}", dir.display());
            if test.glsl_version > max_glsl {
                Stop::Skip(format!(
                    "GLSL {}.{:02} required, the platform has {}.{:02} ({what})",
                    test.glsl_version / 100,
                    test.glsl_version % 100,
                    max_glsl / 100,
                    max_glsl % 100
                ))
            } else if let Some(why) = over_uniform_limit(target, dir, name, stage) {
                Stop::Skip(format!("{why} ({what})"))
            } else {
                Stop::data("NIR", what)
            }
        };
        let mut fs =
            load_stage(dir, name, "fs", native_ints, packed)?.ok_or_else(|| no_nir("fs"))?;
        let mut vs = load_stage(dir, name, "vs", native_ints, packed)?;
        let mut gs = match test.has_geometry_shader {
            true => Some(
                load_stage(dir, name, "gs", native_ints, packed)?.ok_or_else(|| no_nir("gs"))?,
            ),
            false => None,
        };
        let load_tess = |has: bool, stage: &str| -> Result<Option<Stage>, Stop> {
            match has {
                true => Ok(Some(
                    load_stage(dir, name, stage, native_ints, packed)?
                        .ok_or_else(|| no_nir(stage))?,
                )),
                false => Ok(None),
            }
        };
        if test.has_tess_ctrl_shader && !test.has_tess_eval_shader {
            return Err(Stop::command(
                "[tessellation control shader] without an evaluation shader",
                "patches the control shader passes on with no evaluation shader after it",
            ));
        }
        let mut tcs = load_tess(test.has_tess_ctrl_shader, "tcs")?;
        let mut tes = load_tess(test.has_tess_eval_shader, "tes")?;
        for stage in std::iter::once(&fs)
            .chain(vs.as_ref())
            .chain(gs.as_ref())
            .chain(tcs.as_ref())
            .chain(tes.as_ref())
        {
            // nir_print gives only the size of a shader's constant data, not its bytes.
            if stage.shader.info.constant_data_size > 0 && reads_constant_data(&stage.shader) {
                return Err(Stop::data(
                    "constant data",
                    format!(
                        "the {} shader reads {} bytes of constant data; nir_print prints only \
                         their size (`constants: {}`), not the bytes",
                        stage.shader.stage().mesa_name(),
                        stage.shader.info.constant_data_size,
                        stage.shader.info.constant_data_size
                    ),
                ));
            }
        }
        if vs.is_none() && test.has_vertex_shader {
            return Err(no_nir("vs"));
        }
        if let Some(vs) = vs.as_mut() {
            let unmodelled =
                |e: String| Stop::Error(Gap::Unmodelled("default uniform block".into()), e);
            fs.block
                .share_initializers(&fs.shader, &vs.shader)
                .map_err(unmodelled)?;
            vs.block
                .share_initializers(&vs.shader, &fs.shader)
                .map_err(unmodelled)?;
        }
        if let Some(gs) = gs.as_mut() {
            let unmodelled =
                |e: String| Stop::Error(Gap::Unmodelled("default uniform block".into()), e);
            gs.block
                .share_initializers(&gs.shader, &fs.shader)
                .map_err(unmodelled)?;
            fs.block
                .share_initializers(&fs.shader, &gs.shader)
                .map_err(unmodelled)?;
            if let Some(vs) = vs.as_mut() {
                gs.block
                    .share_initializers(&gs.shader, &vs.shader)
                    .map_err(unmodelled)?;
                vs.block
                    .share_initializers(&vs.shader, &gs.shader)
                    .map_err(unmodelled)?;
            }
        }
        if tes.is_some() {
            // The linker gives a uniform one storage for the whole program.
            let unmodelled =
                |e: String| Stop::Error(Gap::Unmodelled("default uniform block".into()), e);
            let shaders: Vec<Shader> = std::iter::once(&fs)
                .chain(vs.as_ref())
                .chain(gs.as_ref())
                .chain(tcs.as_ref())
                .chain(tes.as_ref())
                .map(|s| s.shader.clone())
                .collect();
            for st in std::iter::once(&mut fs)
                .chain(vs.as_mut())
                .chain(gs.as_mut())
                .chain(tcs.as_mut())
                .chain(tes.as_mut())
            {
                for other in &shaders {
                    st.block
                        .share_initializers(&st.shader, other)
                        .map_err(unmodelled)?;
                }
            }
        }
        let fs_exec = match (mode, target) {
            (Mode::Interpreter, _) => FsExec::Interpreter,
            (Mode::Simulator, Target::Intel(dev)) => {
                let program = Compiler::for_target(target)
                    .compile(&fs.shader, &CompileOptions::default())
                    .map_err(|e| compile_stop("fragment shader", e))?;
                FsExec::Intel(dev, Box::new(program))
            }
            (Mode::Simulator, Target::Etnaviv(specs)) => {
                let program = Compiler::for_target(target)
                    .compile(&fs.shader, &CompileOptions::default())
                    .map_err(|e| compile_stop("fragment shader", e))?;
                let loaded = super::etna::Loaded::new(program)
                    .map_err(|e| Stop::Fail(format!("fragment shader load: {e}")))?;
                FsExec::Etnaviv(specs, loaded)
            }
        };
        // Gen8+ compiles the vertex shader SIMD8 (scalar backend); Gen7 compiles it SIMD4x2
        // (vec4 backend), and a shader that backend does not support yet runs on the
        // interpreter, with the reason in the outcome.
        let mut vs_fallback = None;
        let vs_kernel = match (mode, target, &vs) {
            (Mode::Simulator, Target::Intel(dev), Some(vs)) if dev.ver >= 70 => {
                let options = CompileOptions {
                    simd: vec![8],
                    ..CompileOptions::default()
                };
                match Compiler::for_target(target).compile(&vs.shader, &options) {
                    Ok(program) => Some((dev, Box::new(program))),
                    Err(e @ CompileError::Unsupported(_)) if dev.ver < 80 => {
                        vs_fallback = Some(e.to_string());
                        None
                    }
                    Err(e) => return Err(Stop::Fail(format!("vertex shader compile: {e}"))),
                }
            }
            _ => None,
        };
        let gs_kernel = match (mode, target, &gs) {
            (Mode::Simulator, Target::Intel(dev), Some(gs)) => {
                let program = Compiler::for_target(target)
                    .compile(&gs.shader, &CompileOptions::default())
                    .map_err(|e| compile_stop("geometry shader", e))?;
                Some((dev, Box::new(program)))
            }
            _ => None,
        };
        let vs_etna = match (mode, target, &vs) {
            (Mode::Simulator, Target::Etnaviv(specs), Some(vs)) => Compiler::for_target(target)
                .compile(&vs.shader, &CompileOptions::default())
                .map_err(|e| format!("vertex shader compile: {e}"))
                .and_then(super::etna::Loaded::new)
                .and_then(|l| match super::etna::vertex_unsupported(&l) {
                    Some(why) => Err(why),
                    None => Ok((specs, l)),
                }),
            _ => Err(String::new()),
        };
        // Mesa's etnaviv NIR is partly in the hardware's terms; the interpreter (vertex stage,
        // --interp) needs the standard meaning back. The backend has compiled the original.
        if let Target::Etnaviv(specs) = target {
            for st in std::iter::once(&mut fs).chain(vs.as_mut()) {
                st.shader = match min_max {
                    MinMax::Hardware => dialect::to_standard(specs, &st.shader),
                    MinMax::Nir => dialect::to_standard_with_nir_min_max(specs, &st.shader),
                };
            }
        }
        let [w, h] = test.size;
        let mut needed = vec![false; (w * h) as usize];
        for (_, c) in &test.commands {
            if let Command::Probe(p) = c {
                for (x, y) in pixels(p.region, test.size) {
                    needed[(y * w + x) as usize] = true;
                }
            }
        }
        let texture_base = texture_base(&fs.shader);
        Ok(Runner {
            textures: BTreeMap::new(),
            active_unit: 0,
            slot_units: Vec::new(),
            texture_base,
            glsl130: test.glsl_version >= 130,
            clip_planes: [[0.0; 4]; 8],
            clip_enabled: [false; 8],
            vertex_data: test.vertex_data.clone(),
            target,
            size: test.size,
            vs,
            vs_kernel,
            vs_fallback,
            vs_etna,
            gs,
            gs_kernel,
            gs_slot_units: Vec::new(),
            tcs,
            tes,
            tcs_slot_units: Vec::new(),
            tes_slot_units: Vec::new(),
            patch: PatchState::default(),
            fs,
            fs_exec,
            projection: uniforms::IDENTITY,
            clear_color: [0.0; 4],
            current_color: [1.0; 4],
            tolerance: [TOLERANCE_8BIT; 4],
            fb: vec![[0; 4]; (w * h) as usize],
            needed,
        })
    }

    fn stages(&self) -> String {
        let vs = match (&self.vs_kernel, &self.vs_fallback, &self.vs_etna) {
            (Some((_, p)), _, _)
                if p.intel_kernels()
                    .iter()
                    .any(|k| k.simd == crate::intel::kernel::SIMD4X2) =>
            {
                "gpucc on the Intel simulator (SIMD4x2)".to_string()
            }
            (Some(_), _, _) => "gpucc on the Intel simulator".to_string(),
            (None, _, Ok(_)) => "gpucc on the etnaviv simulator".to_string(),
            (None, Some(why), _) => format!("NIR interpreter (gpucc: {why})"),
            (None, None, Err(why)) if self.vs.is_some() && !why.is_empty() => {
                format!("NIR interpreter, as {why}")
            }
            (None, None, _) if self.vs.is_some() => "NIR interpreter".to_string(),
            (None, None, _) => "fixed-function".to_string(),
        };
        let fs = match self.fs_exec {
            FsExec::Interpreter => "NIR interpreter",
            FsExec::Intel(..) => "gpucc on the Intel simulator",
            FsExec::Etnaviv(..) => "gpucc on the etnaviv simulator",
        };
        let gs = match &self.gs_kernel {
            Some((_, p))
                if p.intel_kernels()
                    .iter()
                    .any(|k| k.simd == crate::intel::kernel::SIMD4X2) =>
            {
                "gpucc on the Intel simulator (SIMD4x2)"
            }
            Some(_) => "gpucc on the Intel simulator",
            None => "NIR interpreter",
        };
        let tess = match (&self.tcs, &self.tes) {
            (Some(_), _) => ", tcs: NIR interpreter, tes: NIR interpreter",
            (None, Some(_)) => ", tes: NIR interpreter",
            _ => "",
        };
        match self.gs {
            Some(_) => format!("vs: {vs}{tess}, gs: {gs}, fs: {fs}"),
            None => format!("vs: {vs}{tess}, fs: {fs}"),
        }
    }

    fn execute(&mut self, test: &ShaderTest) -> Result<(), Stop> {
        let mut first_failure = None;
        for (line, cmd) in &test.commands {
            let at = |e: String| format!("line {line}: {e}");
            match cmd {
                Command::Uniform {
                    ty,
                    name,
                    index,
                    values,
                } => self
                    .set_uniform(ty, name, *index, values)
                    .map_err(|e| e.map(at))?,
                Command::DrawRect { rect, tex } => {
                    let verts = self.rect_vertices(*rect, *tex)?;
                    self.draw_mode(verts, "GL_TRIANGLE_STRIP")
                        .map_err(|e| e.in_draw("draw rect").map(at))?
                }
                Command::DrawRectPatch(rect) => {
                    // piglit_draw_rect_custom: one patch of the four corners.
                    let verts = self.rect_vertices(*rect, None)?;
                    let state = PatchState {
                        vertices: 4,
                        ..self.patch
                    };
                    self.draw_patches(verts, "GL_PATCHES", state)
                        .map_err(|e| e.in_draw("draw rect patch").map(at))?
                }
                Command::PatchVertices(n) => self.patch.vertices = *n,
                Command::PatchDefaultLevel { outer, values } => {
                    if *outer {
                        self.patch.default_outer.copy_from_slice(&values[..4]);
                    } else {
                        self.patch.default_inner.copy_from_slice(&values[..2]);
                    }
                }
                Command::DrawArrays { mode, first, count } => {
                    let verts = self.array_vertices(*first, *count)?;
                    self.draw_mode(verts, mode)
                        .map_err(|e| e.in_draw("draw arrays").map(at))?
                }
                Command::Texture { unit, kind } => {
                    let t = match *kind {
                        TextureKind::Rgbw { w, h } => Texture::rgbw(w, h),
                        TextureKind::Rgbw3d => Texture::rgbw_3d(),
                        TextureKind::Checkerboard {
                            level,
                            w,
                            h,
                            black,
                            white,
                        } => Texture::checkerboard(level, w, h, black, white),
                        TextureKind::Shadow { dims, w, h } => Texture::shadow(dims, w, h),
                        TextureKind::Miptree => Texture::miptree(),
                    };
                    self.textures.insert(*unit, Arc::new(t));
                    self.active_unit = *unit;
                }
                Command::TexParameter { name, value } => {
                    let t = self.textures.get_mut(&self.active_unit).ok_or_else(|| {
                        Stop::malformed(at(format!(
                            "texparameter on unit {} without a texture",
                            self.active_unit
                        )))
                    })?;
                    Arc::make_mut(t)
                        .set_parameter(name, value)
                        .map_err(|e| Stop::command(format!("texparameter {name}"), at(e)))?;
                }
                Command::ClipPlane(n, p) => self.clip_planes[*n] = *p,
                Command::ClipEnable(n, on) => self.clip_enabled[*n] = *on,
                Command::ClearColor(c) => self.clear_color = *c,
                Command::Clear => {
                    let c = unorm8(self.clear_color);
                    self.fb.iter_mut().for_each(|p| *p = c);
                }
                Command::Ortho(r) => self.projection = uniforms::ortho(*r),
                Command::Tolerance(t) => self.tolerance = *t,
                Command::Color(c) => self.current_color = *c,
                Command::Hint | Command::LinkSuccess => {}
                Command::Probe(p) => {
                    if first_failure.is_none() && !p.warn {
                        first_failure = self.probe(p);
                    }
                }
                Command::Unsupported(c) => {
                    return Err(Stop::command(script::command_name(c), at(c.clone())))
                }
            }
        }
        match first_failure {
            Some(f) => Err(Stop::Fail(f)),
            None => Ok(()),
        }
    }

    fn set_uniform(
        &mut self,
        ty: &str,
        name: &str,
        index: u32,
        values: &[String],
    ) -> Result<(), Stop> {
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        let mut found = false;
        // Sampler uniforms name the texture unit their slot reads, in every stage that
        // declares them (each stage numbers its own slots).
        let mut sampler = false;
        let stage_slots = std::iter::once((&self.fs, &mut self.slot_units))
            .chain(self.gs.as_ref().map(|g| (g, &mut self.gs_slot_units)))
            .chain(self.tcs.as_ref().map(|t| (t, &mut self.tcs_slot_units)))
            .chain(self.tes.as_ref().map(|t| (t, &mut self.tes_slot_units)));
        for (stage, units) in stage_slots {
            let Some((_, slot, len)) = stage.block.samplers.iter().find(|s| s.0 == name) else {
                continue;
            };
            if index >= *len {
                return Err(Stop::malformed(format!(
                    "sampler {name}[{index}] out of range"
                )));
            }
            let unit = values
                .first()
                .and_then(|v| v.parse::<u32>().ok())
                .ok_or_else(|| Stop::malformed(format!("sampler {name}: bad unit {values:?}")))?;
            let at = (slot + index) as usize;
            if units.len() <= at {
                units.resize(at + 1, 0);
            }
            units[at] = unit;
            sampler = true;
        }
        if sampler {
            return Ok(());
        }
        for block in std::iter::once(&mut self.fs.block)
            .chain(self.vs.as_mut().map(|v| &mut v.block))
            .chain(self.gs.as_mut().map(|g| &mut g.block))
            .chain(self.tcs.as_mut().map(|t| &mut t.block))
            .chain(self.tes.as_mut().map(|t| &mut t.block))
        {
            let base = name.split(['[', '.']).next().unwrap_or(name);
            if block.wide.iter().any(|o| o == base) {
                return Err(Stop::command(
                    "uniform (64-bit)",
                    format!("uniform {ty} {name}: the layout of 64-bit uniforms is not modelled"),
                ));
            }
            if block.opaque.iter().any(|o| o == base) {
                return Err(Stop::command(
                    "uniform (struct member)",
                    format!("uniform {name}: the NIR text does not name struct members"),
                ));
            }
            if let Some(u) = block.find(name).cloned() {
                found = true;
                block
                    .store(&u, index, &values)
                    .map_err(|e| Stop::command(format!("uniform {ty}"), e))?;
            }
        }
        // A member of a named uniform block lives in a buffer the runner does not lay out
        // (its std140 offsets are in the GLSL, not the NIR): a gap, not a silent zero.
        let stages = std::iter::once(&self.fs)
            .chain(self.vs.as_ref())
            .chain(self.gs.as_ref())
            .chain(self.tcs.as_ref())
            .chain(self.tes.as_ref());
        if !found
            && stages.clone().any(|st| {
                st.shader
                    .variables
                    .iter()
                    .any(|v| v.mode == VarMode::Ubo && v.name != "uniform_0")
            })
        {
            return Err(Stop::command(
                "uniform (named uniform block)",
                format!("uniform {name}: a uniform block's buffer is not modelled"),
            ));
        }
        // A uniform the compiler removed from every stage has no storage; samplers are set
        // with `uniform int` and need none either.
        let _ = (ty, stages);
        Ok(())
    }

    /// The uniform bytes of a stage with the built-in state filled in.
    fn uniform_env(&self, block: &Block) -> Environment {
        let mut b = block.clone();
        b.set_state(&self.projection, self.size[1]);
        let bytes = b.bytes();
        Environment {
            uniforms: bytes.clone(),
            uniform_unit: 16,
            float_uniform_offsets: matches!(self.target, Target::Etnaviv(s) if !s.has_integers()),
            float_booleans: matches!(self.target, Target::Etnaviv(_)),
            // The default UBO's block index differs per stage and binding table (0 for
            // vertex shaders, after the render target and textures for fragment shaders);
            // no test here binds another UBO, so every index shows the default block.
            ubos: vec![bytes; 8],
            generate_inputs: false,
            // Out-of-bounds reads (undefined in GLSL) return zero, as with robust access.
            robust_access: true,
            sampler: Box::new(self.bindings()),
            ..Environment::default()
        }
    }

    /// The texture state a draw sees.
    fn bindings(&self) -> Bindings {
        Bindings {
            units: self.textures.clone(),
            slot_units: self.slot_units.clone(),
            texture_base: self.texture_base,
            glsl130: self.glsl130,
        }
    }

    /// The rectangle's corners (`piglit_draw_rect[_tex]`), as a triangle strip's vertices.
    fn rect_vertices(&self, rect: [f32; 4], tex: Option<[f32; 4]>) -> Result<Vec<Vertex>, Stop> {
        let [x, y, w, h] = rect;
        let corners = [[x, y], [x + w, y], [x, y + h], [x + w, y + h]];
        // Without `tex`, vertex shaders reading piglit_texcoord see the unit square.
        let [tx, ty, tw, th] = tex.unwrap_or([0.0, 0.0, 1.0, 1.0]);
        let tcs = [[tx, ty], [tx + tw, ty], [tx, ty + th], [tx + tw, ty + th]];
        let inputs = (0..4)
            .map(|i| VertexIn {
                position: [corners[i][0], corners[i][1], 0.0, 1.0],
                texcoord: [tcs[i][0], tcs[i][1], 0.0, 1.0],
                // Fixed function sees gl_MultiTexCoord0's current value unless `tex` is given.
                ff_texcoord: tex.map_or([0.0, 0.0, 0.0, 1.0], |_| [tcs[i][0], tcs[i][1], 0.0, 1.0]),
                attributes: BTreeMap::new(),
                id: i as u32,
            })
            .collect::<Vec<_>>();
        self.vertex_stage(&inputs)
    }

    /// `draw arrays`: vertices `first..first + count` of `[vertex data]` (attributes without
    /// data read their current value, (0, 0, 0, 1)).
    fn array_vertices(&self, first: usize, count: usize) -> Result<Vec<Vertex>, Stop> {
        let mut inputs = Vec::with_capacity(count);
        for i in first..first + count {
            let mut attributes = BTreeMap::new();
            if let Some(data) = &self.vertex_data {
                let row = data.rows.get(i).ok_or_else(|| {
                    Stop::Fail(format!(
                        "draw arrays reads vertex {i} of {} rows",
                        data.rows.len()
                    ))
                })?;
                for ((name, _), vals) in data.columns.iter().zip(row) {
                    let mut v = [0.0, 0.0, 0.0, 1.0];
                    v[..vals.len()].copy_from_slice(vals);
                    attributes.insert(name.clone(), v);
                }
            }
            let position = attributes
                .get("piglit_vertex")
                .or_else(|| attributes.get("vertex"))
                .copied()
                .unwrap_or([0.0, 0.0, 0.0, 1.0]);
            inputs.push(VertexIn {
                position,
                texcoord: [0.0, 0.0, 0.0, 1.0],
                ff_texcoord: [0.0, 0.0, 0.0, 1.0],
                attributes,
                id: i as u32,
            });
        }
        self.vertex_stage(&inputs)
    }

    /// Runs the vertex stage (the NIR interpreter, or fixed-function transformation) and
    /// computes each vertex's distances to the enabled clip planes.
    fn vertex_stage(&self, inputs: &[VertexIn]) -> Result<Vec<Vertex>, Stop> {
        let mut out = match &self.vs {
            None => inputs
                .iter()
                .map(|vin| {
                    let p = vin.position;
                    let clip = [0, 1, 2, 3]
                        .map(|r| (0..4).map(|k| self.projection[k][r] * p[k]).sum::<f32>());
                    let mut outputs = BTreeMap::new();
                    outputs.insert("VARYING_SLOT_POS".to_string(), clip.map(f32::to_bits));
                    outputs.insert(
                        "VARYING_SLOT_COL0".to_string(),
                        self.current_color.map(f32::to_bits),
                    );
                    outputs.insert(
                        "VARYING_SLOT_TEX0".to_string(),
                        vin.ff_texcoord.map(f32::to_bits),
                    );
                    Vertex {
                        clip,
                        outputs,
                        clip_distances: Vec::new(),
                    }
                })
                .collect(),
            Some(vs) => self.run_vs(vs, inputs)?,
        };
        for (v, vin) in out.iter_mut().zip(inputs) {
            v.clip_distances = self.clip_distances(v, Some(vin));
        }
        Ok(out)
    }

    /// Distances to the enabled user clip planes: gl_ClipDistance[i] when the vertex shader
    /// writes it, else the plane applied to gl_ClipVertex, else to the eye-space position
    /// (fixed function: the object position, the modelview matrix being the identity), else
    /// to gl_Position.
    fn clip_distances(&self, v: &Vertex, vin: Option<&VertexIn>) -> Vec<f32> {
        let slot = |name: &str| v.outputs.get(name).map(|c| c.map(f32::from_bits));
        let dist = slot("VARYING_SLOT_CLIP_DIST0").map(|a| {
            let b = slot("VARYING_SLOT_CLIP_DIST1").unwrap_or([0.0; 4]);
            [a, b].concat()
        });
        let point = slot("VARYING_SLOT_CLIP_VERTEX").unwrap_or(match vin {
            Some(vin) if self.vs.is_none() => vin.position,
            _ => v.clip,
        });
        (0..8)
            .filter(|&i| self.clip_enabled[i])
            .map(|i| match &dist {
                Some(d) => d[i],
                None => (0..4).map(|k| self.clip_planes[i][k] * point[k]).sum(),
            })
            .collect()
    }

    /// The vertex shader on the Intel simulator, or else on the NIR interpreter.
    fn run_vs(&self, vs: &Stage, verts: &[VertexIn]) -> Result<Vec<Vertex>, Stop> {
        let rasterized = self.gs.is_none() && self.tes.is_none();
        let mut env = self.uniform_env(&vs.block);
        env.inputs = self.vs_inputs(vs, verts)?;
        if let Some((dev, kernel)) = &self.vs_kernel {
            let outputs = super::intel::run_vertices(
                dev,
                kernel,
                &env.inputs,
                &env.uniforms,
                &self.bindings(),
            )
            .map_err(|e| Stop::Fail(format!("vertex shader on the simulator: {e}")))?;
            return outputs
                .into_iter()
                .map(|o| stage_vertex(o, rasterized))
                .collect();
        }
        if let Ok((specs, loaded)) = &self.vs_etna {
            let words: Vec<u32> = env
                .uniforms
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let per_vertex =
                super::etna::run_vertices(specs, loaded, &env.inputs, &words, &self.bindings())
                    .map_err(|e| Stop::Fail(format!("vertex shader on the simulator: {e}")))?;
            return per_vertex
                .into_iter()
                .map(|regs| {
                    stage_vertex(
                        regs.into_iter()
                            .filter_map(|(loc, v)| Some((output_name(&vs.shader, loc)?, v)))
                            .collect(),
                        rasterized,
                    )
                })
                .collect();
        }
        let out_ranges = io::ranges(&vs.shader, &[Intrinsic::StoreOutput]);
        let result = interp::run(&vs.shader, &env, verts.len())
            .map_err(|e| Stop::Fail(format!("vertex shader (NIR interpreter): {e}")))?;
        let mut out = Vec::new();
        for inv in &result.invocations {
            out.push(stage_vertex(
                io::named_outputs(&out_ranges, &inv.outputs),
                rasterized,
            )?);
        }
        Ok(out)
    }

    /// Each vertex's inputs by driver location (Intel: pushed element): its attributes from
    /// the test's vertex data or piglit's defaults, and Intel's system-value element.
    fn vs_inputs(
        &self,
        vs: &Stage,
        verts: &[VertexIn],
    ) -> Result<Vec<BTreeMap<u32, [u32; 4]>>, Stop> {
        let mut inputs = vec![BTreeMap::new(); verts.len()];
        for r in io::ranges(&vs.shader, &[Intrinsic::LoadInput]) {
            if r.slots == 0 {
                // Intel's system-value element: first vertex, base instance, vertex id
                // (zero-based), instance id.
                for (vin, map) in verts.iter().zip(inputs.iter_mut()) {
                    map.insert(r.base, [0, 0, vin.id, 0]);
                }
                continue;
            }
            for k in 0..r.slots {
                let location = io::offset_location(&r.location, k);
                let var = vs
                    .shader
                    .variables
                    .iter()
                    .find(|v| v.mode == VarMode::ShaderIn && v.location == location);
                let name = var.map_or("", |v| v.name.as_str());
                let value = |vin: &VertexIn| -> Option<[f32; 4]> {
                    if let Some(a) = vin.attributes.get(name) {
                        return Some(*a);
                    }
                    match (location.as_str(), name) {
                        (_, "piglit_texcoord") | ("VERT_ATTRIB_TEX0", _) => Some(vin.texcoord),
                        ("VERT_ATTRIB_COLOR0", _) => Some(self.current_color),
                        ("VERT_ATTRIB_POS", _)
                        | (_, "piglit_vertex")
                        | ("VERT_ATTRIB_GENERIC0", "" | "vertex") => Some(vin.position),
                        // An attribute without an array reads its current value.
                        _ if self.vertex_data.is_some() => Some([0.0, 0.0, 0.0, 1.0]),
                        _ => None,
                    }
                };
                for (vin, map) in verts.iter().zip(inputs.iter_mut()) {
                    let val = value(vin).ok_or_else(|| {
                        Stop::command(
                            "vertex attrib",
                            format!(
                                "vertex attribute {name} ({location}) has neither vertex \
                                 data nor a value the runner models"
                            ),
                        )
                    })?;
                    map.insert(r.base + k, val.map(f32::to_bits));
                }
            }
        }
        Ok(inputs)
    }

    /// Draws the vertex stage's `verts` as primitives of `mode` (GL's name): through the
    /// geometry shader when there is one, else as the triangles of the mode.
    fn draw_mode(&mut self, verts: Vec<Vertex>, mode: &str) -> Result<(), Stop> {
        if self.tes.is_some() {
            return self.draw_patches(verts, mode, self.patch);
        }
        let Some(gs) = &self.gs else {
            let tris = match mode {
                "GL_TRIANGLES" => raster::list_triangles(verts.len()),
                "GL_TRIANGLE_STRIP" => raster::strip_triangles(verts.len()),
                "GL_TRIANGLE_FAN" => raster::fan_triangles(verts.len()),
                other => {
                    return Err(Stop::command(
                        format!("draw arrays {other}"),
                        format!("draw arrays {other}"),
                    ))
                }
            };
            return self.draw(&verts, &tris);
        };
        let info = match crate::nir::geometry::GeometryInfo::of(&gs.shader.info) {
            Some(Ok(i)) => i,
            _ => return Err(Stop::malformed("geometry shader header")),
        };
        let stop = |e: GeometryError| match e {
            GeometryError::Unmodelled(what) => Stop::command(what.clone(), what),
            GeometryError::Fail(why) => Stop::Fail(why),
        };
        let prims =
            geometry::input_primitives(mode, verts.len(), info.input_primitive).map_err(stop)?;
        let (mut out, tris) = self.geometry_stage(gs, &verts, &prims)?;
        for v in out.iter_mut() {
            v.clip_distances = self.clip_distances(v, None);
        }
        self.draw(&out, &tris)
    }

    /// Runs the geometry shader `gs` over `prims` (indices into `verts`, numbered by
    /// `gl_PrimitiveIDIn`): compiled on the Intel simulator when the runner has its program,
    /// else on the interpreter; returns the vertices of the strips it emits and their
    /// triangles.
    #[allow(clippy::type_complexity)]
    fn geometry_stage(
        &self,
        gs: &Stage,
        verts: &[Vertex],
        prims: &[Vec<usize>],
    ) -> Result<(Vec<Vertex>, Vec<([usize; 3], usize)>), Stop> {
        let info = match crate::nir::geometry::GeometryInfo::of(&gs.shader.info) {
            Some(Ok(i)) => i,
            _ => return Err(Stop::malformed("geometry shader header")),
        };
        let stop = |e: GeometryError| match e {
            GeometryError::Unmodelled(what) => Stop::command(what.clone(), what),
            GeometryError::Fail(why) => Stop::Fail(why),
        };
        let mut env = self.uniform_env(&gs.block);
        let gs_bindings = || Bindings {
            slot_units: self.gs_slot_units.clone(),
            texture_base: texture_base(&gs.shader),
            ..self.bindings()
        };
        env.sampler = Box::new(gs_bindings());
        Ok(match &self.gs_kernel {
            Some((dev, program)) => {
                geometry::triangle_strips(info.output_primitive).map_err(stop)?;
                let inputs: Vec<_> = prims
                    .iter()
                    .enumerate()
                    .map(|(id, p)| (p.iter().map(|&v| &verts[v].outputs).collect(), id as u32))
                    .collect();
                let strips = super::intel::run_geometry(
                    dev,
                    program,
                    &inputs,
                    &env.uniforms,
                    &gs_bindings(),
                )
                .map_err(|e| Stop::Fail(format!("geometry shader on the simulator: {e}")))?;
                geometry::triangles_of_strips(strips.into_iter()).map_err(stop)?
            }
            None => {
                let header = matches!(self.target, Target::Intel(_));
                geometry::run_interp(&gs.shader, env, verts, prims, header).map_err(stop)?
            }
        })
    }

    /// Draws the vertex stage's `verts` through the tessellation stages (see
    /// [`tessellation`]), then the geometry shader when there is one, then the rasterizer.
    fn draw_patches(
        &mut self,
        verts: Vec<Vertex>,
        mode: &str,
        state: PatchState,
    ) -> Result<(), Stop> {
        let stop = |e: TessError| match e {
            TessError::Unmodelled(what) => Stop::command(what.clone(), what),
            TessError::Fail(why) => Stop::Fail(why),
            TessError::Data(class, why) => Stop::data(&class, why),
        };
        let env = |eval: bool| {
            let (stage, units) = match (eval, &self.tcs, &self.tes) {
                (false, Some(tcs), _) => (tcs, &self.tcs_slot_units),
                (_, _, Some(tes)) => (tes, &self.tes_slot_units),
                _ => (&self.fs, &self.slot_units),
            };
            let mut env = self.uniform_env(&stage.block);
            env.sampler = Box::new(Bindings {
                slot_units: units.clone(),
                texture_base: texture_base(&stage.shader),
                ..self.bindings()
            });
            env
        };
        let Some(tes) = &self.tes else {
            return Err(Stop::Fail(
                "draw GL_PATCHES without an evaluation shader (GL: INVALID_OPERATION)".into(),
            ));
        };
        let stages = tessellation::Stages {
            tcs: self.tcs.as_ref().map(|s| &s.shader),
            tes: &tes.shader,
            env: &env,
            vue_header: matches!(self.target, Target::Intel(_)),
            rasterized: self.gs.is_none(),
        };
        let prims = tessellation::run(&stages, &state, &verts, mode).map_err(stop)?;
        let (mut out, tris) = match &self.gs {
            None if !prims.lines.is_empty() => {
                return Err(Stop::command(
                    "draw tessellated isolines",
                    "the runner rasterizes triangles only",
                ))
            }
            None if !prims.points.is_empty() => {
                return Err(Stop::command(
                    "draw tessellated points",
                    "the runner rasterizes triangles only",
                ))
            }
            None => (prims.vertices, prims.triangles),
            Some(gs) => {
                use crate::nir::geometry::{GeometryInfo, Primitive};
                let input = match GeometryInfo::of(&gs.shader.info) {
                    Some(Ok(i)) => i.input_primitive,
                    _ => return Err(Stop::malformed("geometry shader header")),
                };
                let (class, list): (Primitive, Vec<Vec<usize>>) = if !prims.lines.is_empty() {
                    (
                        Primitive::Lines,
                        prims.lines.iter().map(|l| l.to_vec()).collect(),
                    )
                } else if !prims.points.is_empty() {
                    (
                        Primitive::Points,
                        prims.points.iter().map(|&p| vec![p]).collect(),
                    )
                } else {
                    let t = prims.triangles.iter().map(|(t, _)| t.to_vec()).collect();
                    (Primitive::Triangles, t)
                };
                if class != input && !list.is_empty() {
                    return Err(Stop::Fail(format!(
                        "tessellated {class:?} into a geometry shader taking {input:?} \
                         (GL: INVALID_OPERATION)"
                    )));
                }
                self.geometry_stage(gs, &prims.vertices, &list)?
            }
        };
        for v in out.iter_mut() {
            v.clip_distances = self.clip_distances(v, None);
        }
        self.draw(&out, &tris)
    }

    /// Rasterizes `tris` (vertex indices and provoking vertex) and shades the needed pixels.
    fn draw(&mut self, verts: &[Vertex], tris: &[([usize; 3], usize)]) -> Result<(), Stop> {
        if verts.iter().any(|v| v.clip[3] <= 0.0) {
            return Err(Stop::command(
                DRAW_FORM_CLIPPING,
                "a vertex behind the eye (w <= 0) needs clipping",
            ));
        }
        let tris = raster::setup(verts, tris, self.size);
        if let FsExec::Intel(dev, kernel) = &self.fs_exec {
            for (idx, c) in self.draw_intel(dev, kernel, verts, &tris)? {
                if let Some(c) = c {
                    self.fb[idx] = unorm8(c);
                }
            }
            return Ok(());
        }
        let [w, h] = self.size;
        // Quads (by their lower-left pixel) holding a needed, covered pixel, and the
        // triangle that covers each of their pixels (or, for helpers, one of the quad's).
        let mut quads: BTreeMap<(u32, u32), [Option<usize>; 4]> = BTreeMap::new();
        for y in 0..h {
            for x in 0..w {
                if !self.needed[(y * w + x) as usize] {
                    continue;
                }
                if let Some(t) = tris.iter().position(|t| t.inside(verts, x, y)) {
                    quads.entry((x & !1, y & !1)).or_insert([None; 4])
                        [((y & 1) * 2 + (x & 1)) as usize] = Some(t);
                }
            }
        }
        // Helper pixels that are covered (just not probed) still get their own triangle.
        for (&(qx, qy), q) in quads.iter_mut() {
            for (i, t) in q.iter_mut().enumerate() {
                let (x, y) = (qx + (i as u32 & 1), qy + (i as u32 >> 1));
                if t.is_none() && x < w && y < h {
                    *t = tris.iter().position(|tr| tr.inside(verts, x, y));
                }
            }
        }
        let quads: Vec<Quad> = quads.into_iter().collect();
        for batch in quads.chunks(1024) {
            self.shade(verts, &tris, batch)?;
        }
        Ok(())
    }

    /// The Intel dispatch: per triangle, the subspans holding a needed pixel it covers.
    /// Returns the framebuffer writes: pixel index and colour, `None` where discarded.
    #[allow(clippy::type_complexity)]
    fn draw_intel(
        &self,
        dev: &'static DevInfo,
        program: &Program,
        verts: &[Vertex],
        tris: &[Triangle],
    ) -> Result<Vec<(usize, Option<[f32; 4]>)>, Stop> {
        let [w, h] = self.size;
        let mut writes = Vec::new();
        let textures = self.bindings();
        for tri in tris {
            let mut subspans: BTreeMap<(u32, u32), u8> = BTreeMap::new();
            for y in 0..h {
                for x in 0..w {
                    if self.needed[(y * w + x) as usize] && tri.inside(verts, x, y) {
                        subspans.insert((x & !1, y & !1), 0);
                    }
                }
            }
            for (&(qx, qy), mask) in subspans.iter_mut() {
                for i in 0..4u32 {
                    let (x, y) = (qx + (i & 1), qy + (i >> 1));
                    if x < w && y < h && tri.inside(verts, x, y) {
                        *mask |= 1 << i;
                    }
                }
            }
            let list: Vec<_> = subspans.into_iter().collect();
            let ubo = {
                let mut b = self.fs.block.clone();
                b.set_state(&self.projection, h);
                b.bytes()
            };
            let colors = super::intel::shade(dev, program, tri, verts, &list, &ubo, &textures)
                .map_err(|e| {
                    if e.contains("not written by the vertex stage") {
                        Stop::command(DRAW_FORM_VARYING, e)
                    } else {
                        Stop::Fail(format!("fragment shader on the simulator: {e}"))
                    }
                })?;
            for (((qx, qy), mask), q) in list.iter().zip(colors) {
                for (i, c) in q.iter().enumerate() {
                    let (x, y) = (qx + (i as u32 & 1), qy + (i as u32 >> 1));
                    if mask & (1 << i) != 0 && self.needed[(y * w + x) as usize] {
                        writes.push(((y * w + x) as usize, *c));
                    }
                }
            }
        }
        Ok(writes)
    }

    /// Runs the fragment shader on a batch of quads and writes the covered, needed pixels.
    fn shade(&mut self, verts: &[Vertex], tris: &[Triangle], quads: &[Quad]) -> Result<(), Stop> {
        let n = quads.len() * 4;
        let mut env = self.uniform_env(&self.fs.block);
        env.inputs = vec![BTreeMap::new(); n];
        let mut frag_coord = Vec::with_capacity(n);
        let mut front = Vec::with_capacity(n);
        // (driver slot, varying slot, interpolation) of every input slot the shader reads.
        let mut inputs = Vec::new();
        for r in io::ranges(
            &self.fs.shader,
            &[Intrinsic::LoadInput, Intrinsic::LoadInterpolatedInput],
        ) {
            let var = self
                .fs
                .shader
                .variables
                .iter()
                .find(|v| v.mode == VarMode::ShaderIn && v.location == r.location);
            let flat = var.is_some_and(|v| {
                v.interpolation == "INTERP_MODE_FLAT"
                    || matches!(v.ty.alu_base(), BaseType::Int | BaseType::Uint)
            });
            let mode = if flat {
                Interp::Flat
            } else if var.is_some_and(|v| v.interpolation == "INTERP_MODE_NOPERSPECTIVE") {
                Interp::NoPerspective
            } else {
                Interp::Smooth
            };
            for k in 0..r.slots.max(1) {
                inputs.push((r.base + k, io::offset_location(&r.location, k), mode));
            }
        }
        let center = match self.target {
            Target::Intel(_) => 0.0,
            Target::Etnaviv(_) => 0.5,
        };
        for (q, ((qx, qy), cover)) in quads.iter().enumerate() {
            let any = cover.iter().flatten().next().copied().unwrap_or(0);
            for i in 0..4 {
                let (x, y) = (qx + (i as u32 & 1), qy + (i as u32 >> 1));
                let tri = &tris[cover[i].unwrap_or(any)];
                frag_coord.push(tri.frag_coord(x, y, center));
                front.push(tri.front_facing);
                for (slot, location, mode) in &inputs {
                    let value = match location.as_str() {
                        "VARYING_SLOT_POS" => tri.frag_coord(x, y, center).map(f32::to_bits),
                        name => tri.varying(verts, name, *mode, x, y).ok_or_else(|| {
                            Stop::command(
                                DRAW_FORM_VARYING,
                                format!("fragment input {name} is not written by the vertex stage"),
                            )
                        })?,
                    };
                    env.inputs[q * 4 + i].insert(*slot, value);
                }
            }
        }
        if let FsExec::Etnaviv(specs, loaded) = &self.fs_exec {
            let textures = self.bindings();
            let mut block = self.fs.block.clone();
            block.set_state(&self.projection, self.size[1]);
            let w = self.size[0];
            for (q, ((qx, qy), cover)) in quads.iter().enumerate() {
                let invs: Vec<super::etna::Invocation> = (q * 4..q * 4 + 4)
                    .map(|inv| super::etna::Invocation {
                        position: frag_coord[inv],
                        front_facing: front[inv],
                        inputs: &env.inputs[inv],
                    })
                    .collect();
                let colors = super::etna::shade_quad(specs, loaded, &block.words, &invs, &textures)
                    .map_err(|e| Stop::Fail(format!("fragment shader on the simulator: {e}")))?;
                for (i, t) in cover.iter().enumerate() {
                    let (x, y) = (qx + (i as u32 & 1), qy + (i as u32 >> 1));
                    let idx = (y * w + x) as usize;
                    if t.is_none() || !self.needed.get(idx).copied().unwrap_or(false) {
                        continue;
                    }
                    if let Some(c) = colors[i] {
                        self.fb[idx] = unorm8(c);
                    }
                }
            }
            return Ok(());
        }
        env.frag_coord = Some(frag_coord);
        env.front_face = Some(front);
        let result = interp::run(&self.fs.shader, &env, n)
            .map_err(|e| Stop::Fail(format!("fragment shader (NIR interpreter): {e}")))?;
        let w = self.size[0];
        for (q, ((qx, qy), cover)) in quads.iter().enumerate() {
            for (i, t) in cover.iter().enumerate() {
                let (x, y) = (qx + (i as u32 & 1), qy + (i as u32 >> 1));
                let idx = (y * w + x) as usize;
                if t.is_none() || !self.needed.get(idx).copied().unwrap_or(false) {
                    continue;
                }
                let inv = &result.invocations[q * 4 + i];
                if inv.discarded {
                    continue;
                }
                let color = inv
                    .outputs
                    .values()
                    .find(|s| s.name == "FRAG_RESULT_COLOR" || s.name == "FRAG_RESULT_DATA0");
                if let Some(s) = color {
                    let c =
                        [0, 1, 2, 3].map(|k| s.comps[k].map_or(0.0, |b| f32::from_bits(b as u32)));
                    self.fb[idx] = unorm8(c);
                }
            }
        }
        Ok(())
    }

    /// The first pixel of the region outside tolerance, as a failure message.
    fn probe(&self, p: &script::Probe) -> Option<String> {
        let region = pixels(p.region, self.size);
        if region.is_empty() {
            // glReadPixels outside the window reads undefined values: not a pass.
            return Some(format!(
                "probe {:?} has no pixel in the {}x{} window",
                p.region, self.size[0], self.size[1]
            ));
        }
        for (x, y) in region {
            let px = self.fb[(y * self.size[0] + x) as usize];
            let observed: Vec<f32> = px.iter().map(|&b| f32::from(b) / 255.0).collect();
            let bad = p
                .expected
                .iter()
                .zip(&observed)
                .zip(self.tolerance)
                .any(|((e, o), t)| (e - o).abs() > t);
            if bad {
                let fmt = |v: &[f32]| {
                    v.iter()
                        .map(|c| format!("{c:.3}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                return Some(format!(
                    "probe at ({x},{y}): expected {}, observed {}",
                    fmt(&p.expected),
                    fmt(&observed[..p.expected.len()])
                ));
            }
        }
        None
    }
}

/// One vertex as the draw call supplies it.
struct VertexIn {
    /// The position attribute (object coordinates).
    position: [f32; 4],
    /// piglit_texcoord / gl_MultiTexCoord0 as the rectangle helpers set them.
    texcoord: [f32; 4],
    /// gl_MultiTexCoord0 as fixed-function processing sees it.
    ff_texcoord: [f32; 4],
    /// `[vertex data]` attributes by name.
    attributes: BTreeMap<String, [f32; 4]>,
    /// gl_VertexID.
    id: u32,
}

/// NIR texture index minus sampler index for the fragment shader's texture instructions
/// (Intel counts textures after the render targets in the binding table; 0 elsewhere).
fn texture_base(shader: &Shader) -> u32 {
    shader
        .entry()
        .and_then(|imp| {
            imp.instrs.iter().find_map(|ins| match &ins.kind {
                crate::nir::ir::InstrKind::Tex(t) => Some(
                    t.texture_index
                        .unwrap_or(0)
                        .saturating_sub(t.sampler_index.unwrap_or(0)),
                ),
                _ => None,
            })
        })
        .unwrap_or(0)
}

/// Whether the shader loads from its constant data (lowered constant arrays).
fn reads_constant_data(shader: &Shader) -> bool {
    shader.entry().is_some_and(|imp| {
        imp.instrs.iter().any(|ins| {
            matches!(&ins.kind, crate::nir::ir::InstrKind::Intrinsic(ii)
            if matches!(
                ii.intrinsic,
                Intrinsic::LoadConstant
                    | Intrinsic::LoadGlobalConstant
                    | Intrinsic::LoadGlobalConstantUniformBlockIntel
            ))
        })
    })
}

/// The pixels of a probe region, clipped to the window.
fn pixels(region: Region, [w, h]: [u32; 2]) -> Vec<(u32, u32)> {
    let (x0, y0, rw, rh) = match region {
        Region::Pixel(x, y) => (x, y, 1, 1),
        Region::Rect(x, y, rw, rh) => (x, y, rw, rh),
        Region::All => (0, 0, w, h),
    };
    let mut out = Vec::new();
    // Saturating: a region reaching past u32 is clipped like any other.
    for y in y0..y0.saturating_add(rh).min(h) {
        for x in x0..x0.saturating_add(rw).min(w) {
            out.push((x, y));
        }
    }
    out
}

/// Conversion to the RGBA8 unorm framebuffer: clamp, then round to nearest.
fn unorm8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| {
        let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        (v * 255.0).round() as u8
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm8_clamps_and_rounds() {
        assert_eq!(unorm8([-1.0, 0.5, 2.0, f32::NAN]), [0, 128, 255, 0]);
        assert_eq!(unorm8([0.25, 1.0 / 255.0, 0.0, 1.0]), [64, 1, 0, 255]);
    }

    #[test]
    fn probe_regions_clip_to_the_window() {
        assert_eq!(
            pixels(Region::Rect(248, 0, 4, 1), [250, 250]),
            vec![(248, 0), (249, 0)]
        );
        assert_eq!(pixels(Region::All, [2, 2]).len(), 4);
        // Corners near u32::MAX clip instead of overflowing (a fuzzed probe at y = 2^32).
        assert!(pixels(Region::Pixel(1, u32::MAX), [250, 250]).is_empty());
        assert!(pixels(Region::Rect(u32::MAX, 0, u32::MAX, 1), [250, 250]).is_empty());
        assert_eq!(
            pixels(Region::Rect(249, 249, u32::MAX, u32::MAX), [250, 250]).len(),
            1
        );
    }
}
