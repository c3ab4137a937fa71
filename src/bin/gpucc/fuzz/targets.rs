//! The fuzz targets: what each one does with an input, its seeds and its keywords.
//!
//! A target returns a [`Verdict`]; panics are caught around it by the driver. Clean errors
//! (parse errors, unsupported features, limits) are the expected answer to most mutants.
//! What would be a bug without being a panic is reported as `Finding`: an `Internal` status
//! through the C ABI, a compile error the backend calls internal, a verify mismatch, or
//! printed text that does not read back.

use std::ffi::{c_char, CStr};

use std::path::Path;

use gpucc::capi;
use gpucc::compiler::{CompileError, CompileOptions, Compiler};
use gpucc::etnaviv;
use gpucc::intel::{eu, DevInfo};
use gpucc::nir;
use gpucc::verify::VerifyOutcome;

/// What one execution showed (panics aside).
pub enum Verdict {
    /// The input was taken, or refused with a clean error.
    Ok,
    /// Something that is a bug although nothing panicked; says what.
    Finding(String),
}

pub struct FuzzTarget {
    pub name: String,
    pub seeds: Vec<Vec<u8>>,
    pub dict: &'static [&'static str],
    pub run: Runner,
}

pub type Runner = Box<dyn Fn(&[u8]) -> Verdict + Send + Sync>;

fn flat(program: &[eu::Encoded]) -> Vec<u8> {
    program.iter().flat_map(|e| e.bytes().to_vec()).collect()
}

/// Keywords of Mesa's nir_print text.
const NIR_DICT: &[&str] = &[
    "load_const",
    "fadd",
    "fmul",
    "ffma",
    "iadd",
    "ishl",
    "udiv",
    "idiv",
    "umod",
    "irem",
    "flt32",
    "ilt32",
    "b32csel",
    "fcsel",
    "vec4",
    "mov",
    "phi",
    "loop",
    "if",
    "else",
    "break",
    "continue",
    "block",
    "@load_uniform",
    "@load_ubo",
    "@store_output",
    "@load_input",
    "@load_interpolated_input",
    "@store_deref",
    "@store_reg",
    "@load_reg",
    "@decl_reg",
    "@discard_if",
    "@load_ssbo",
    "@store_ssbo",
    "base",
    "range",
    "component",
    "wrmask",
    "uniforms",
    "inputs",
    "outputs",
    "constants",
    "num_ubos",
    "xyzw",
    "x16",
    "32x4",
    "64",
    "1",
    "8",
    "16",
    "%0",
    "%999999",
    "undefined",
    "deref_var",
];

const INTEL_ASM_DICT: &[&str] = &[
    "mov", "add", "mul", "mad", "send", "sendc", "if", "else", "endif", "while", "break", "cont",
    "jmpi", "math", "cmp", "sel", "dp4", "pln", "g0", "g127", "g128", "r0", "null", "a0", "f0",
    "acc0", "ip", "UD", "D", "F", "W", "UW", "B", "UB", "DF", "V", "VF", "<0,1,0>", "<8,8,1>",
    "<1>", "(8)", "(16)", "(32)", "1Q", "2H", "NoMask", "Align16", "Compr4", ".xyzw", "sat", "-",
    "(abs)",
];

const ETNA_ASM_DICT: &[&str] = &[
    "mov", "add", "mad", "mul", "dp3", "dp4", "rcp", "rsq", "select", "set", "texld", "branch",
    "call", "ret", "nop", "kill", "load", "store", "t0", "t63", "t64", "u0", "u511", "u1024",
    "tex0", "a0", "void", ".xyzw", ".x", ".gt", ".lt", ".sat", ".pack", "-", "|", "th", "@",
];

const PIGLIT_DICT: &[&str] = &[
    "[require]",
    "[vertex shader]",
    "[fragment shader]",
    "[test]",
    "[vertex data]",
    "uniform",
    "vec4",
    "int",
    "draw rect",
    "probe rgba",
    "probe all rgba",
    "texture rgbw",
    "texture checkerboard",
    "clear color",
    "clear",
    "GLSL >=",
    "relative probe rgb",
    "draw arrays",
    "GL_TRIANGLES",
    "ortho",
    "fb tex 2d",
];

/// Every target name `gpucc fuzz --target` takes (`all` runs them in this order).
pub fn names() -> Vec<String> {
    let mut v = vec!["nir".to_string(), "piglit".into()];
    for p in INTEL_PLATFORMS {
        v.push(format!("compile-{p}"));
    }
    v.push("compile-gc2000".into());
    v.push("compile-gc7000".into());
    for p in INTEL_PLATFORMS {
        v.push(format!("intel-asm-{p}"));
        v.push(format!("intel-bin-{p}"));
    }
    v.push("etna-asm".into());
    v.push("etna-bin".into());
    v.push("capi-ivb".into());
    v.push("capi-gc7000".into());
    v
}

/// One Intel platform per generation (Gen4, 5, 6, 7, 7.5, 8, 9).
const INTEL_PLATFORMS: [&str; 7] = ["g4x", "ilk", "snb", "ivb", "hsw", "bdw", "skl"];

/// The corpus directory whose shaders seed `target` (the nearest one the corpus has).
fn corpus_dir(target: &str) -> &'static str {
    match target {
        "g4x" | "ilk" => "g4x",
        "snb" => "snb",
        "ivb" | "hsw" => "ivb",
        "bdw" => "bdw",
        "skl" => "skl",
        "gc2000" => "gc2000",
        _ => "gc7000",
    }
}

/// Up to `max` files ending in `suffix` under `dir`, smaller than `max_len`, spread evenly
/// over the sorted listing so that the sample is the same on every run.
fn sample(dir: &Path, suffix: &str, max: usize, max_len: u64) -> Vec<Vec<u8>> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() < max_len))
        .collect();
    files.sort();
    let step = files.len().div_ceil(max.max(1)).max(1);
    files
        .iter()
        .step_by(step)
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

/// Small NIR shaders that need no corpus: the fragment form Intel's tests write by hand.
pub const BUILTIN_NIR: &[&str] = &[
    include_str!("../../../../tests/data/nir/if_phi.nir"),
    include_str!("../../../../tests/data/nir/reg_loop.nir"),
    include_str!("../../../../tests/data/nir/tex_deref.nir"),
];

const BUILTIN_INTEL_ASM: &[&str] = &[
    "mov(8)          g10<1>F         g2<8,8,1>F                      { align1 1Q };\n\
     add(8)          g11<1>F         g10<8,8,1>F     1.0F            { align1 1Q };\n",
    "cmp.l.f0.0(8)   null<1>F        g2<8,8,1>F      0x3f000000F     { align1 1Q };\n\
     (+f0.0) if(8)   JIP: 32         UIP: 48                         { align1 1Q };\n\
     mov(8)          g10<1>F         1.0F                            { align1 1Q };\n\
     else(8)         JIP: 16         UIP: 16                         { align1 1Q };\n\
     mov(8)          g10<1>F         0.0F                            { align1 1Q };\n\
     endif(8)        JIP: 16                                         { align1 1Q };\n",
];

const BUILTIN_ETNA_ASM: &[&str] = &[
    "mov t1, void, void, u0.xyzw\nadd t2, t1.xyzw, void, t1.xyzw\n",
    "texld t1, tex0.xyzw, t1.xyyy, void, void\n",
];

const BUILTIN_PIGLIT: &str = "[require]\nGLSL >= 1.10\n\n[vertex shader passthrough]\n\n\
[fragment shader]\nuniform vec4 c;\nvoid main() { gl_FragColor = c; }\n\n[test]\n\
uniform vec4 c 0.0 1.0 0.0 1.0\ndraw rect -1 -1 2 2\nprobe all rgba 0.0 1.0 0.0 1.0\n";

/// NIR seeds for a backend: the built-in shaders and a sample of its corpus directory.
fn nir_seeds(shared: Option<&Path>, target: &str, max: usize) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = BUILTIN_NIR.iter().map(|s| s.as_bytes().to_vec()).collect();
    if let Some(dir) = shared {
        let d = dir.join("corpus/nir").join(corpus_dir(target));
        seeds.extend(sample(&d, ".nir", max, 16_000));
    }
    seeds
}

fn text(input: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(input)
}

/// Builds the named target, with seeds from `shared` (the shared data directory) if given.
pub fn build(name: &str, shared: Option<&Path>) -> Option<FuzzTarget> {
    let (seeds, dict, run): (Vec<Vec<u8>>, &'static [&'static str], Runner) = match name {
        "nir" => (
            nir_seeds(shared, "ivb", 60)
                .into_iter()
                .chain(nir_seeds(shared, "gc2000", 30).into_iter().skip(3))
                .collect(),
            NIR_DICT,
            Box::new(|i: &[u8]| nir_target(i)),
        ),
        "piglit" => {
            let mut seeds = vec![BUILTIN_PIGLIT.as_bytes().to_vec()];
            if let Some(dir) = shared {
                seeds.extend(sample(
                    &dir.join("corpus/piglit"),
                    ".shader_test",
                    80,
                    8_000,
                ));
            }
            (
                seeds,
                PIGLIT_DICT,
                Box::new(|i: &[u8]| {
                    let _ = gpucc::piglit::script::parse(&text(i));
                    Verdict::Ok
                }),
            )
        }
        "etna-asm" | "etna-bin" => {
            let specs = etnaviv::specs::Specs::from_name("gc7000")?;
            let mut asm: Vec<Vec<u8>> = BUILTIN_ETNA_ASM
                .iter()
                .map(|s| s.as_bytes().to_vec())
                .collect();
            if let Some(dir) = shared {
                if let Ok(t) =
                    std::fs::read_to_string(dir.join("vectors/etnaviv/disasm-vectors.txt"))
                {
                    let lines: Vec<&str> = t.lines().filter(|l| !l.starts_with('#')).collect();
                    for chunk in lines.chunks(8) {
                        let mut src = String::new();
                        for l in chunk {
                            if let Some(d) = l.split('|').nth(2) {
                                src.push_str(d.trim());
                                src.push('\n');
                            }
                        }
                        asm.push(src.into_bytes());
                    }
                }
            }
            if name == "etna-asm" {
                (
                    asm,
                    ETNA_ASM_DICT,
                    Box::new(move |i: &[u8]| etna_asm(specs, &text(i))),
                )
            } else {
                let bins = asm
                    .iter()
                    .filter_map(|a| etnaviv::isa::assemble(specs, &text(a)).ok())
                    .map(|p| {
                        p.iter()
                            .flat_map(etnaviv::isa::encode)
                            .flat_map(u32::to_le_bytes)
                            .collect()
                    })
                    .collect();
                (bins, &[], Box::new(|i: &[u8]| etna_bin(i)))
            }
        }
        _ => {
            if let Some(p) = name.strip_prefix("compile-") {
                let compiler = Compiler::new(p).ok()?;
                let seeds = nir_seeds(shared, p, 80);
                (
                    seeds,
                    NIR_DICT,
                    Box::new(move |i: &[u8]| compile_target(&compiler, i)),
                )
            } else if let Some(p) = name.strip_prefix("capi-") {
                let target = std::ffi::CString::new(p).ok()?;
                Compiler::new(p).ok()?;
                (
                    nir_seeds(shared, p, 40),
                    NIR_DICT,
                    Box::new(move |i: &[u8]| capi_target(&target, i)),
                )
            } else if let Some(p) = name.strip_prefix("intel-asm-") {
                let d = DevInfo::from_name(p)?;
                (
                    intel_asm_seeds(shared, p),
                    INTEL_ASM_DICT,
                    Box::new(move |i: &[u8]| intel_asm(d, &text(i))),
                )
            } else if let Some(p) = name.strip_prefix("intel-bin-") {
                let d = DevInfo::from_name(p)?;
                let seeds = intel_asm_seeds(shared, p)
                    .iter()
                    .filter_map(|a| eu::assemble(d, &text(a)).ok())
                    .filter_map(|insts| eu::encode_program_compacted(d, &insts).ok())
                    .map(|p| flat(&p))
                    .collect();
                (seeds, &[], Box::new(move |i: &[u8]| intel_bin(d, i)))
            } else {
                return None;
            }
        }
    };
    Some(FuzzTarget {
        name: name.to_string(),
        seeds,
        dict,
        run,
    })
}

fn intel_asm_seeds(shared: Option<&Path>, p: &str) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = BUILTIN_INTEL_ASM
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    if let Some(dir) = shared {
        // The encoding vectors and Mesa's listings cover some platforms; Haswell and
        // Skylake take their predecessor's (gpucc reads the older syntax on the newer EU).
        let older = match p {
            "hsw" => "ivb",
            "skl" => "bdw",
            "ilk" => "g4x",
            other => other,
        };
        seeds.extend(sample(
            &dir.join("vectors/intel").join(older),
            ".asm",
            40,
            8_000,
        ));
        let mesa = dir.join("corpus/mesa-asm").join(older);
        seeds.extend(sample(&mesa, ".fs.asm", 30, 6_000));
    }
    seeds
}

/// NIR text import: parse, validate, print; printed text must read back.
fn nir_target(input: &[u8]) -> Verdict {
    let Ok(shader) = nir::parse(&text(input)) else {
        return Verdict::Ok;
    };
    if nir::validate(&shader).is_err() {
        return Verdict::Ok;
    }
    let printed = nir::print(&shader);
    match nir::parse(&printed) {
        Ok(_) => Verdict::Ok,
        Err(e) => Verdict::Finding(format!("printed text does not parse: {e}")),
    }
}

/// Validate, compile and verify for one backend.
fn compile_target(compiler: &Compiler, input: &[u8]) -> Verdict {
    let Ok(shader) = nir::parse(&text(input)) else {
        return Verdict::Ok;
    };
    if nir::validate(&shader).is_err() {
        return Verdict::Ok;
    }
    match compiler.compile(&shader, &CompileOptions::default()) {
        Err(CompileError::Internal(m)) => return Verdict::Finding(format!("internal: {m}")),
        Err(_) => return Verdict::Ok,
        Ok(_) => {}
    }
    // A mismatch on a mutant is reported, not counted as a crash: it may be a miscompile,
    // or an input the validator should have refused.
    match compiler.verify(&shader, &[]) {
        fail @ VerifyOutcome::Fail { .. } => Verdict::Finding(fail.line("input")),
        _ => Verdict::Ok,
    }
}

fn intel_asm(d: &'static DevInfo, src: &str) -> Verdict {
    if let Ok(insts) = eu::assemble(d, src) {
        let _ = eu::disassemble(d, &insts);
        if let Ok(bytes) = eu::encode_program_compacted(d, &insts) {
            let _ = eu::disassemble_program(d, &flat(&bytes));
        }
        let _ = eu::encode_program(d, &insts);
    }
    Verdict::Ok
}

fn intel_bin(d: &'static DevInfo, bytes: &[u8]) -> Verdict {
    let _ = eu::disassemble_program(d, bytes);
    if let Ok(insts) = eu::decode_program(d, bytes) {
        // Whatever decodes must encode again, or fail cleanly.
        let _ = eu::encode_program(d, &insts);
        let _ = eu::encode_program_compacted(d, &insts);
    }
    for chunk in bytes.chunks_exact(8) {
        let mut c = [0u8; 8];
        c.copy_from_slice(chunk);
        if let Ok(native) = eu::uncompact(d, &c) {
            let _ = eu::compact(d, &native);
        }
    }
    Verdict::Ok
}

fn etna_asm(specs: &'static etnaviv::specs::Specs, src: &str) -> Verdict {
    if let Ok(prog) = etnaviv::isa::assemble(specs, src) {
        let _ = etnaviv::isa::disassemble(&prog);
        for i in &prog {
            let _ = etnaviv::isa::decode(etnaviv::isa::encode(i));
        }
        let _ = etnaviv::isa::validate_program(specs, &prog);
    }
    Verdict::Ok
}

fn etna_bin(bytes: &[u8]) -> Verdict {
    let _ = etnaviv::tool::disasm_binary(bytes);
    let whole = &bytes[..bytes.len() / 16 * 16];
    for w in etnaviv::isa::words_from_bytes(whole).unwrap_or_default() {
        if let Ok(inst) = etnaviv::isa::decode(w) {
            let _ = etnaviv::isa::disassemble_inst(&inst);
            let _ = etnaviv::isa::encode(&inst);
        }
    }
    Verdict::Ok
}

/// The C ABI as a driver calls it: import raw bytes, print, compile, query, destroy. An
/// INTERNAL status is a panic the guard caught: a finding.
fn capi_target(target: &CStr, input: &[u8]) -> Verdict {
    let internal = |st: capi::Status, what: &str| -> Option<Verdict> {
        (st == capi::Status::Internal).then(|| {
            // The panic behind it is recorded by the driver's hook, with its message.
            Verdict::Finding(format!("{what}: INTERNAL status"))
        })
    };
    let mut compiler = std::ptr::null_mut();
    let st = capi::gpucc_compiler_create(target.as_ptr(), &mut compiler);
    if st != capi::Status::Ok {
        return Verdict::Finding(format!("compiler_create: {st:?}"));
    }
    let mut shader = std::ptr::null_mut();
    let st =
        capi::gpucc_shader_from_nir_text(input.as_ptr().cast::<c_char>(), input.len(), &mut shader);
    let mut verdict = internal(st, "shader_from_nir_text");
    if st == capi::Status::Ok {
        let mut s = std::ptr::null_mut();
        let st = capi::gpucc_shader_print(shader, &mut s);
        verdict = verdict.or(internal(st, "shader_print"));
        capi::gpucc_string_free(s);
        let opts = capi::CompileOptionsC {
            struct_size: std::mem::size_of::<capi::CompileOptionsC>() as u32,
            simd_mask: (input.len() % 8) as u32,
            ..Default::default()
        };
        let mut program = std::ptr::null_mut();
        let st = capi::gpucc_compile(compiler, shader, &opts, &mut program);
        verdict = verdict.or(internal(st, "compile"));
        if st == capi::Status::Ok {
            let (mut code, mut size) = (std::ptr::null(), 0usize);
            let st = capi::gpucc_program_code(program, &mut code, &mut size);
            verdict = verdict.or(internal(st, "program_code"));
            let mut s = std::ptr::null_mut();
            let st = capi::gpucc_program_disassemble(program, &mut s);
            verdict = verdict.or(internal(st, "program_disassemble"));
            capi::gpucc_string_free(s);
            let mut s = std::ptr::null_mut();
            let st = capi::gpucc_program_stats(program, &mut s);
            verdict = verdict.or(internal(st, "program_stats"));
            capi::gpucc_string_free(s);
            verdict = verdict.or(describe(program));
        }
        capi::gpucc_program_destroy(program);
    }
    capi::gpucc_shader_destroy(shader);
    capi::gpucc_compiler_destroy(compiler);
    // A status from the input's first bytes, known or not, must name itself.
    let code = input
        .get(..4)
        .map_or(7, |b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let name = capi::gpucc_status_name(code);
    if name.is_null() {
        return Verdict::Finding(format!("status_name({code}) is NULL"));
    }
    verdict.unwrap_or(Verdict::Ok)
}

/// Every binding accessor of a compiled program, over every index the info announces (and
/// one past it): none may fail as INTERNAL or panic, whatever the program.
fn describe(program: *const gpucc::program::Program) -> Option<Verdict> {
    let internal = |st: capi::Status, what: &str| -> Option<Verdict> {
        (st == capi::Status::Internal).then(|| Verdict::Finding(format!("{what}: INTERNAL status")))
    };
    macro_rules! sized {
        ($ty:ty) => {{
            let mut v: $ty = <$ty>::default();
            v.struct_size = std::mem::size_of::<$ty>() as u32;
            v
        }};
    }
    let mut verdict = None;
    let mut info = sized!(capi::ProgramInfo);
    let st = capi::gpucc_program_get_info(program, &mut info);
    verdict = verdict.or(internal(st, "program_get_info"));
    for i in 0..=info.num_bindings.min(512) {
        let mut b = sized!(capi::BindingC);
        verdict = verdict.or(internal(
            capi::gpucc_program_binding(program, i, &mut b),
            "binding",
        ));
    }
    for i in 0..=info.uniforms.min(1024) {
        let mut q = sized!(capi::PushParamC);
        verdict = verdict.or(internal(
            capi::gpucc_program_push_param(program, i, &mut q),
            "push_param",
        ));
        let mut u = sized!(capi::EtnaUniformC);
        verdict = verdict.or(internal(
            capi::gpucc_program_etna_uniform(program, i, &mut u),
            "etna_uniform",
        ));
    }
    for i in 0..=info.inputs.min(256) {
        let mut f = sized!(capi::FsInput);
        verdict = verdict.or(internal(
            capi::gpucc_program_fs_input(program, i, &mut f),
            "fs_input",
        ));
        let mut io = sized!(capi::EtnaIoC);
        verdict = verdict.or(internal(
            capi::gpucc_program_etna_input(program, i, &mut io),
            "etna_input",
        ));
        verdict = verdict.or(internal(
            capi::gpucc_program_etna_output(program, i, &mut io),
            "etna_output",
        ));
    }
    let mut fs = sized!(capi::FsInfo);
    verdict = verdict.or(internal(
        capi::gpucc_program_fs_info(program, &mut fs),
        "fs_info",
    ));
    for v in 0..=64 {
        let mut slot = 0i32;
        verdict = verdict.or(internal(
            capi::gpucc_program_fs_urb_setup(program, v, &mut slot),
            "fs_urb_setup",
        ));
    }
    for i in 0..=fs.urb_setup_attribs_count.min(64) {
        let mut varying = 0u32;
        verdict = verdict.or(internal(
            capi::gpucc_program_fs_urb_setup_attrib(program, i, &mut varying),
            "fs_urb_setup_attrib",
        ));
    }
    let mut vs = sized!(capi::VsInfo);
    verdict = verdict.or(internal(
        capi::gpucc_program_vs_info(program, &mut vs),
        "vs_info",
    ));
    let mut e = sized!(capi::EtnaInfo);
    verdict = verdict.or(internal(
        capi::gpucc_program_etna_info(program, &mut e),
        "etna_info",
    ));
    let mut cs = sized!(capi::CsInfo);
    verdict.or(internal(
        capi::gpucc_program_cs_info(program, &mut cs),
        "cs_info",
    ))
}
