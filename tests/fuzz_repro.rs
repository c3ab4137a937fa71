//! The inputs in `shared/fuzz-repro` that once crashed or aborted the library, each run the way
//! the fuzzer ran it; every one must now end in a clean error. Issue 24 adds the rest of the
//! directory here as each is fixed; the hand-written equivalents sit beside the code they test
//! (tests/etnabe_unit.rs `uniform_slots_past_the_file_are_a_limit`).

mod common;

use gpucc::compiler::{CompileError, CompileOptions, Compiler};

/// Shaders whose uniform header or `load_uniform` base made the etnaviv translator allocate
/// gigabytes and abort: on every core they are now a uniform-file limit.
#[test]
fn etnaviv_uniform_abort_inputs_are_limits() {
    for name in ["etna-uniforms-header.nir", "etna-load-uniform-base.nir"] {
        let Some(path) = common::shared_path(&format!("fuzz-repro/{name}")) else {
            return;
        };
        let shader = gpucc::nir::parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for target in ["gc2000", "gc3000", "gc7000"] {
            let err = Compiler::new(target)
                .unwrap()
                .compile(&shader, &CompileOptions::default())
                .unwrap_err();
            assert!(
                matches!(&err, CompileError::Limit(m) if m.contains("uniform slot")),
                "{name} on {target}: {err}"
            );
        }
    }
}

// ---- Intel assembler: inputs that wrapped or overflowed (issue 24) ----
//
// The fuzzer's Intel assembly inputs: numbers too large for the field they land in used to
// wrap silently in release builds (a jump target, a subregister that moved `g2.65` to `g2.1`,
// a D immediate that became -1) or overflow in debug builds (asm.rs:523, :847, :891), and a
// missing source or a stride the hardware lacks passed the assembler (the simulator runs
// assembled instructions without encoding them). Each must now be an error naming the problem
// at its line and column. The inline tests below need no shared data.

use gpucc::intel::eu;
use gpucc::intel::DevInfo;

/// Every Intel target, and the Gen6+ ones (whose option syntax `1Q`/`1H` the inputs use).
const INTEL_ALL: [&str; 9] = [
    "brw", "g4x", "ilk", "snb", "ivb", "hsw", "bdw", "chv", "skl",
];
const INTEL_GEN6_PLUS: [&str; 6] = ["snb", "ivb", "hsw", "bdw", "chv", "skl"];

/// Assembles `text` for `target`, expecting an error on line 1 at the first character of
/// `at` (a substring of `text`) whose message contains `msg`.
fn intel_asm_rejects(target: &str, text: &str, at: &str, msg: &str) {
    let d = DevInfo::from_name(target).unwrap();
    let err = eu::assemble(d, text).expect_err(&format!("{target}: {text}"));
    let col = text
        .find(at)
        .unwrap_or_else(|| panic!("`{at}` not in {text}"))
        + 1;
    assert!(
        err.message.contains(msg),
        "{target}: `{}` does not mention `{msg}` for {text}",
        err.message
    );
    assert_eq!((err.line, err.col), (1, col), "{target}: {err} for {text}");
}

/// The fuzzer's files: (name, targets, where the error points, what it says).
const INTEL_ASM_REPROS: [(&str, &[&str], &str, &str); 7] = [
    (
        "intel-asm-jump-wrap.asm",
        &INTEL_ALL,
        "4294967295D",
        "does not fit in a 32-bit signed D",
    ),
    (
        "intel-asm-subreg-wrap.asm",
        &INTEL_GEN6_PLUS,
        "g2.65",
        "subregister .65 of a F operand is byte 260, past the 32-byte register",
    ),
    (
        "intel-asm-vstride12.asm",
        &INTEL_GEN6_PLUS,
        "g12<12",
        "vertical stride 12 is not one of",
    ),
    (
        "intel-asm-dp4-one-src.asm",
        &INTEL_GEN6_PLUS,
        "dp4",
        "dp4 takes 2 sources, 1 given",
    ),
    (
        "panics/intel_eu_asm.rs_523_39.asm",
        &INTEL_ALL,
        "922337203685477580",
        "jump distance 922337203685477580",
    ),
    (
        "panics/intel_eu_asm.rs_847_13.asm",
        &INTEL_ALL,
        "g0.4294967295",
        "past the 32-byte register",
    ),
    (
        "panics/intel_eu_asm.rs_891_13.asm",
        &INTEL_ALL,
        "g2.4294967295",
        "past the 32-byte register",
    ),
];

/// The shared inputs, through the library: an error with its position on every target whose
/// syntax they use (and still an error, for the option, on Gen4/5).
#[test]
fn intel_asm_wrap_and_overflow_inputs_are_located_errors() {
    for (name, targets, at, msg) in INTEL_ASM_REPROS {
        let Some(path) = common::shared_path(&format!("fuzz-repro/{name}")) else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        for target in INTEL_ALL {
            if targets.contains(&target) {
                intel_asm_rejects(target, &text, at, msg);
            } else {
                let d = DevInfo::from_name(target).unwrap();
                let err = eu::assemble(d, &text).expect_err(name);
                assert!(
                    err.message.contains("unknown option"),
                    "{name} {target}: {err}"
                );
            }
        }
    }
}

/// The same inputs through `gpucc asm` and `gpucc sim` (which runs what it assembles without
/// encoding it): exit status 1 and the located message on stderr, nothing on stdout.
#[test]
fn intel_asm_wrap_and_overflow_inputs_fail_the_command_line() {
    for (name, _, _, msg) in INTEL_ASM_REPROS {
        let Some(path) = common::shared_path(&format!("fuzz-repro/{name}")) else {
            return;
        };
        for cmd in ["asm", "sim"] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpucc"))
                .args([cmd, "--target", "skl"])
                .arg(&path)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{cmd} {name}: {stderr}");
            assert!(out.stdout.is_empty(), "{cmd} {name}");
            assert!(stderr.contains(msg), "{cmd} {name}: {stderr}");
            assert!(stderr.contains("1:"), "{cmd} {name}: no line in {stderr}");
        }
    }
}

/// The bytes the old assembler wrote for the wrapping inputs (Gen8 encodings) are other
/// instructions than the text asked for: disassembled, they read `-1D` for `4294967295D` and
/// `g2.1` for `g2.65`, and reassemble to themselves. The bytes it wrote for `dp4` with one
/// source do not decode at all: the immediate sits where src1's region would be. (The
/// fuzzer's `intel-asm-vstride12.hex` and `dp4-g4x.hex` are empty: the old assembler already
/// failed on those, without saying where; the assembly tests above cover them.)
#[test]
fn intel_asm_wrapped_bytes_are_other_instructions() {
    let bdw = DevInfo::from_name("bdw").unwrap();
    for (name, reads, not) in [
        ("intel-asm-jump-wrap.hex", "-1D", "4294967295"),
        ("intel-asm-subreg-wrap.hex", "g2.1<1>F", "g2.65"),
    ] {
        let Some(path) = common::shared_path(&format!("fuzz-repro/{name}")) else {
            return;
        };
        let bytes: Vec<u8> = eu::hex::parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap()
            .concat();
        let text = eu::disassemble_program(bdw, &bytes).unwrap();
        assert!(
            text.contains(reads) && !text.contains(not),
            "{name}: {text}"
        );
        let again = eu::encode_program(bdw, &eu::assemble(bdw, &text).unwrap()).unwrap();
        assert_eq!(again.concat(), bytes, "{name}");
    }
    let Some(path) = common::shared_path("fuzz-repro/dp4-bdw.hex") else {
        return;
    };
    let bytes: Vec<u8> = eu::hex::parse(&std::fs::read_to_string(&path).unwrap())
        .unwrap()
        .concat();
    let err = eu::decode_program(bdw, &bytes).unwrap_err();
    assert_eq!(err.index, Some(0));
    assert!(err.message.contains("vertical stride"), "{err}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args(["disasm", "--target", "bdw"])
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("instruction 0") && stderr.contains("vertical stride"),
        "{stderr}"
    );
}

/// Hand-written equivalents of the shared inputs, and the neighbouring fields that wrapped the
/// same way, each in the syntax of a generation that has the field. `at` is where the error
/// must point.
#[test]
fn intel_asm_out_of_range_numbers_are_errors_inline() {
    let g6 = "{ align1 1Q };";
    let cases: &[(&str, String, &str, &str)] = &[
        // D, W and UW immediates wrapped; 0xffffffffD (a bit pattern) is still accepted below.
        ("bdw", "jmpi(1) 4294967295D { align1 WE_all };".into(), "4294967295D", "32-bit signed D"),
        ("ivb", format!("mov(8) g2<1>W 40000W {g6}"), "40000W", "16-bit signed W"),
        ("ivb", format!("mov(8) g2<1>UW 65536UW {g6}"), "65536UW", "16-bit UW"),
        ("ivb", format!("mov(8) g2<1>UD 4294967296UD {g6}"), "4294967296UD", "32-bit UD"),
        // Jump distances: in jump units, past i32 after scaling, past i64 when read.
        ("ivb", "else(8) Jump: 922337203685477580 { align1 };".into(), "922337203685477580", "does not fit in 32 bits"),
        ("brw", "else(8) Jump: 268435456 { align1 };".into(), "268435456", "16-byte units"),
        ("skl", "else(8) JIP: 9223372036854775808 { align1 1Q };".into(), "9223372036854775808", "number too large"),
        // Subregisters: byte offset past the register (was `as u8`: g2.65<1>F was g2.1), and a
        // subregister number past u32 (was `as u32`: .4294967296 was .0).
        ("skl", format!("mov(8) g2.65<1>F g3<8,8,1>F {g6}"), "g2.65", "byte 260"),
        ("brw", "mov(8) g2.65<1>F g3<8,8,1>F { align1 };".into(), "g2.65", "byte 260"),
        ("skl", format!("mov(8) g2<1>F g3.8<8,8,1>F {g6}"), "g3.8", "byte 32"),
        ("ivb", format!("mov(8) g2.4294967296<1>F g3<8,8,1>F {g6}"), "4294967296", "subregister 4294967296 out of range"),
        ("brw", "shr(1) g0.4294967295<1>D g2<0,1,0>D 1D { align1 nomask };".into(), "g0.4294967295", "past the 32-byte register"),
        // Regions: 12 is no stride; 264 was `as u8` = 8; 255 was `as u8` = VxH.
        ("skl", format!("mov(8) g17<1>F g12<12,8,1>F {g6}"), "g12<12", "vertical stride 12"),
        ("g4x", "mov(8) g17<1>F g12<12,8,1>F { align1 };".into(), "g12<12", "vertical stride 12"),
        ("ivb", format!("mov(8) g17<1>F g12<264,8,1>F {g6}"), "264", "region value 264"),
        ("ivb", format!("mov(8) g17<1>F g12<8,8,3>F {g6}"), "g12<8,8,3>", "horizontal stride 3"),
        ("ivb", format!("mov(8) g17<1>F g12<8,3,1>F {g6}"), "g12<8,3,1>", "width 3"),
        ("ivb", format!("mov(8) g17<3>F g12<8,8,1>F {g6}"), "g17<3>", "destination stride 3"),
        // Source count: dp4 with one source put its immediate in src1's region bits.
        ("skl", "dp4(16) g124<1>D 1065353216D { align1 1H };".into(), "dp4", "dp4 takes 2 sources, 1 given"),
        ("brw", "dp4(16) g124<1>D 1065353216D { align1 compr };".into(), "dp4", "dp4 takes 2 sources, 1 given"),
        ("ivb", format!("add(8) g2<1>F g3<8,8,1>F {g6}"), "add", "add takes 2 sources, 1 given"),
        ("ivb", format!("not(8) g2<1>D g3<8,8,1>D g4<8,8,1>D {g6}"), "not", "not takes 1 source, 2 given"),
        // Flag registers, indirect address fields, Gen4 base MRF and pop count.
        ("ivb", format!("(+f256.0) mov(8) g2<1>F g3<8,8,1>F {g6}"), "256.0", "flag register f256.0"),
        ("ivb", format!("cmp.l.f0.257(8) null<1>F g3<8,8,1>F 0.0F {g6}"), "0.257", "flag register f0.257"),
        ("skl", format!("mov(1) g2<1>UD g[a0.256 8]<0,1,0>UD {g6}"), "256 8", "address subregister 256"),
        ("skl", format!("mov(1) g2<1>UD g[a0 65544]<0,1,0>UD {g6}"), "65544", "indirect offset 65544"),
        ("brw", "send(8) 256 g2<1>F null<8,8,1>F 0x00000000 urb MsgDesc: 0 write mlen 0 rlen 0 { align1 };".into(), "256", "base message register 256"),
        ("brw", "else(8) Jump: 2 Pop: 256 { align1 };".into(), "256", "pop count 256"),
    ];
    for (target, text, at, msg) in cases {
        intel_asm_rejects(target, text, at, msg);
    }
    // In-range neighbours still assemble: the checks are at the field's bounds, not inside.
    for (target, text) in [
        ("ivb", format!("mov(8) g2<1>D 0xffffffffD {g6}")),
        ("ivb", format!("mov(8) g2<1>D -2147483648D {g6}")),
        ("ivb", format!("mov(8) g2<1>W -32768W {g6}")),
        ("ivb", format!("mov(8) g2<1>UW 65535UW {g6}")),
        ("ivb", format!("mov(8) g2.31<1>UB g3.7<8,8,1>F {g6}")),
        ("ivb", format!("mov(8) g2<1>F g12<32,8,4>F {g6}")),
        ("skl", format!("mov(1) g2<1>UD g[a0.15 511]<0,1,0>UD {g6}")),
        ("skl", format!("(+f1.1) mov(8) g2<1>F g3<8,8,1>F {g6}")),
    ] {
        let d = DevInfo::from_name(target).unwrap();
        eu::assemble(d, &text).unwrap_or_else(|e| panic!("{target}: {text}: {e}"));
    }
}

// ---- issue 24: the rest of shared/fuzz-repro (NIR, piglit and verify inputs) ----
//
// Each shared input runs the way panics/INDEX.txt (or its file name) says: `compile/T` is a
// compile plus `Compiler::verify`, `interp/T` the reference interpreter as `gpucc nir run`
// runs it plus verify, `piglit/T` the piglit runner with the seed test's NIR. Overflow
// checks fire only in debug builds, so `cargo test --test fuzz_repro` (debug) is the run that
// proves the arithmetic; the expected errors hold in release too. The hand-written shaders
// beside them cover each fix (and its bound) without the shared data.
mod repro_inputs {
    use super::common;
    use gpucc::compiler::{CompileError, CompileOptions, Compiler};
    use gpucc::nir::Shader;
    use gpucc::piglit::{self, Mode, Outcome};
    use gpucc::verify::VerifyOutcome;

    /// A `fuzz-repro/` input's text, or `None` (with the visible skip) without shared data.
    fn repro(rel: &str) -> Option<String> {
        let path = common::shared_path(&format!("fuzz-repro/{rel}"))?;
        Some(std::fs::read_to_string(path).unwrap())
    }

    fn parse(what: &str, text: &str) -> Shader {
        gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{what}: {e}"))
    }

    pub(super) fn compile(target: &str, shader: &Shader) -> Result<(), CompileError> {
        Compiler::new(target)
            .unwrap()
            .compile(shader, &CompileOptions::default())
            .map(drop)
    }

    fn verify(target: &str, shader: &Shader) -> VerifyOutcome {
        Compiler::new(target).unwrap().verify(shader, &[])
    }

    /// The interpreter as `gpucc nir run` runs it (eight invocations, zeroed uniforms).
    fn interp(text: &str) -> Result<String, String> {
        gpucc::nir::interp::run_cli(text, 8, &[]).map_err(|e| e.to_string())
    }

    #[track_caller]
    pub(super) fn assert_limit(what: &str, r: Result<(), CompileError>, needle: &str) {
        assert!(
            matches!(&r, Err(CompileError::Limit(m)) if m.contains(needle)),
            "{what}: expected a limit naming '{needle}', got {r:?}"
        );
    }

    #[track_caller]
    fn assert_unsupported(what: &str, r: Result<(), CompileError>, needle: &str) {
        assert!(
            matches!(&r, Err(CompileError::Unsupported(m)) if m.contains(needle)),
            "{what}: expected unsupported naming '{needle}', got {r:?}"
        );
    }

    #[track_caller]
    fn assert_invalid(what: &str, r: Result<(), CompileError>, needle: &str) {
        assert!(
            matches!(&r, Err(CompileError::Invalid(m)) if m.contains(needle)),
            "{what}: expected an invalid-shader error naming '{needle}', got {r:?}"
        );
    }

    #[track_caller]
    fn assert_verify_unsupported(what: &str, v: VerifyOutcome, needle: &str) {
        assert!(
            matches!(&v, VerifyOutcome::Unsupported(m) if m.contains(needle)),
            "{what}: expected verify to report unsupported '{needle}', got {v:?}"
        );
    }

    /// A fragment shader storing one `load_ubo` of UBO `block` at byte `offset` as its colour,
    /// with the given header sizes.
    fn ubo_shader(block: u32, offset: u32, uniforms: u32, constants: u32) -> String {
        format!(
            "shader: MESA_SHADER_FRAGMENT\nname: ubo\ninputs: 0\noutputs: 1\n\
             uniforms: {uniforms}\nconstants: {constants}\n\
             decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n\
             decl_function main (0 params)\n\nimpl main {{\n    block b0:   // preds:\n\
             con 32     %0 = load_const (0x00000000)\n\
             con 32     %1 = load_const ({block:#010x})\n\
             con 32     %2 = load_const ({offset:#010x})\n\
             con 32x4   %3 = @load_ubo (%1, %2) (access=none, align_mul=16, align_offset=0, range_base=0, range=16)\n\
             @store_output (%3, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
             // succs: b1\n    block b1:\n}}\n"
        )
    }

    /// A fragment shader sampling `texture`/`sampler` at an interpolated coordinate.
    fn tex_shader(texture: u32, sampler: u32) -> String {
        format!(
            "shader: MESA_SHADER_FRAGMENT\nname: tex\ninputs: 1\noutputs: 1\nuniforms: 0\n\
             decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 32, 0)\n\
             decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n\
             decl_function main (0 params)\n\nimpl main {{\n    block b0:   // preds:\n\
             div 32x2   %0 = @load_barycentric_pixel () (interp_mode=1)\n\
             con 32     %1 = load_const (0x00000000)\n\
             div 32x4   %2 = @load_interpolated_input (%0, %1 (0x0)) (base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n\
             div 32x2   %3 = vec2 %2.x, %2.y\n\
             div 32x4   %4 = (float32)tex %3 (coord), {texture} (texture), {sampler} (sampler)\n\
             @store_output (%4, %1 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
             // succs: b1\n    block b1:\n}}\n"
        )
    }

    /// A fragment shader whose colour is `%4 = {alu}` over an interpolated vec4 `%2` and the
    /// barycentrics `%0`, stored at `component`.
    fn io_shader(alu: &str, component: i64) -> String {
        format!(
            "shader: MESA_SHADER_FRAGMENT\nname: io\ninputs: 1\noutputs: 1\nuniforms: 0\n\
             decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 32, 0)\n\
             decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n\
             decl_function main (0 params)\n\nimpl main {{\n    block b0:   // preds:\n\
             div 32x2   %0 = @load_barycentric_pixel () (interp_mode=1)\n\
             con 32     %1 = load_const (0x00000000)\n\
             div 32x4   %2 = @load_interpolated_input (%0, %1 (0x0)) (base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n\
             div 32     %4 = {alu}\n\
             @store_output (%4, %1 (0x0)) (base=4, range=1, wrmask=x, component={component}, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
             // succs: b1\n    block b1:\n}}\n"
        )
    }

    // -- UBO block indices and offsets, header sizes (Intel) --

    /// verify on a pushed UBO block of 0x3f800000 once tried to allocate 25 GB and aborted:
    /// the block is now checked against the binding table (64 + block <= 255) as pulled loads
    /// always were.
    #[test]
    fn intel_ubo_block_0x3f800000_is_unsupported() {
        let Some(text) = repro("intel-verify-ubo-block.nir") else {
            return;
        };
        let shader = parse("intel-verify-ubo-block.nir", &text);
        for target in ["ivb", "bdw", "skl"] {
            let what = format!("intel-verify-ubo-block.nir on {target}");
            assert_unsupported(
                &what,
                compile(target, &shader),
                "UBO block index 1065353216",
            );
            assert_verify_unsupported(&what, verify(target, &shader), "UBO block index 1065353216");
        }
    }

    /// The block bound at its edge (191 is binding-table entry 255), and pushed offsets: one
    /// past 4 GiB is a limit, one past what verification builds is reported, not allocated,
    /// and one just inside it is checked against the interpreter.
    #[test]
    fn intel_ubo_block_and_offset_bounds() {
        for target in ["ivb", "bdw"] {
            let ok = parse("block 191", &ubo_shader(191, 16, 0, 0));
            assert_eq!(
                verify(target, &ok),
                VerifyOutcome::Pass,
                "block 191 on {target}"
            );
            let far = parse("block 192", &ubo_shader(192, 0, 0, 0));
            assert_unsupported(
                "block 192",
                compile(target, &far),
                "UBO block index 192 over 191",
            );
            let wrap = parse("offset 0xfffffffc", &ubo_shader(0, 0xffff_fffc, 0, 0));
            assert_limit("offset 0xfffffffc", compile(target, &wrap), "past 4 GiB");
            let big = parse("offset 0x3f800000", &ubo_shader(0, 0x3f80_0000, 0, 0));
            compile(target, &big).unwrap();
            assert_verify_unsupported(
                "offset 0x3f800000",
                verify(target, &big),
                "push constant at UBO 0 byte 1065353216",
            );
            let edge = parse("offset 0xffff0", &ubo_shader(0, 0xf_fff0, 0, 0));
            assert_eq!(
                verify(target, &edge),
                VerifyOutcome::Pass,
                "offset 0xffff0 on {target}"
            );
        }
    }

    /// `constants: 4000000000` made verify build 8 GB of constant data; a `uniforms:` header of
    /// 4e9 was accepted. Both are limits naming the header, at 1 GiB and 64 KiB.
    #[test]
    fn intel_header_sizes_are_limits() {
        let shared = repro("intel-constants-header.nir");
        for target in ["ivb", "hsw", "bdw", "skl"] {
            if let Some(text) = &shared {
                let shader = parse("intel-constants-header.nir", text);
                assert_limit(target, compile(target, &shader), "constants: 4000000000");
                let v = verify(target, &shader);
                assert!(
                    matches!(&v, VerifyOutcome::Error(m) if m.contains("constants: 4000000000")),
                    "{target}: {v:?}"
                );
                let uniforms = text.replace("uniforms: 0\n", "uniforms: 4000000000\n");
                let uniforms = uniforms.replace("constants: 4000000000\n", "");
                let shader = parse("uniforms: 4000000000", &uniforms);
                assert_limit(target, compile(target, &shader), "uniforms: 4000000000");
            }
            let edge = parse("at the bounds", &ubo_shader(1, 0, 64 * 1024, 1 << 30));
            compile(target, &edge).unwrap();
            assert_verify_unsupported(
                target,
                verify(target, &edge),
                "1073741824 bytes of constant data",
            );
            let past = parse("constants", &ubo_shader(1, 0, 0, (1 << 30) + 1));
            assert_limit(target, compile(target, &past), "constants: 1073741825");
            let past = parse("uniforms", &ubo_shader(1, 0, 64 * 1024 + 1, 0));
            assert_limit(target, compile(target, &past), "uniforms: 65537");
        }
    }

    /// The same headers through the C ABI: INVALID_ARGUMENT naming the header, no abort.
    #[test]
    fn c_abi_header_limits() {
        let exe = common::build_c_program("header_limits");
        let out = std::process::Command::new(&exe)
            .env_remove("GPUCC_TEST_PANIC")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} failed ({}):\n{}\n{}",
            exe.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `gpucc nir run` builds at most 16 MiB of a declared 4e9 bytes of constant data; the
    /// shader (which reads UBO 1, zeros in the CLI's environment) still runs.
    #[test]
    fn interpreter_cli_with_a_4e9_constants_header() {
        let out = interp(&ubo_shader(1, 0, 0, 4_000_000_000)).unwrap();
        assert!(
            out.starts_with("inv 0 FRAG_RESULT_COLOR[4] = (0, 0, 0, 0)"),
            "{out}"
        );
    }

    // -- texture and sampler indices (Intel) --

    /// Index 0xffffffff wrapped past the range check and compiled to surface or sampler 255.
    #[test]
    fn intel_texture_and_sampler_index_wrap() {
        let inputs = [
            (
                "intel-tex-texture-index-wrap.nir",
                "texture index 4294967295",
            ),
            ("min/compile-10259-first10.nir", "texture index 4294967295"),
            (
                "panics/intel_fs_from_nir.rs_2012_12.nir",
                "texture index 4294967295",
            ),
        ];
        for (name, needle) in inputs {
            let Some(text) = repro(name) else {
                return;
            };
            let shader = parse(name, &text);
            for target in ["ivb", "hsw", "bdw", "skl"] {
                assert_limit(
                    &format!("{name} on {target}"),
                    compile(target, &shader),
                    needle,
                );
            }
        }
        for name in [
            "intel-tex-sampler-index-wrap.nir",
            "min/compile-10259-first9.nir",
        ] {
            let Some(text) = repro(name) else {
                return;
            };
            let shader = parse(name, &text);
            let needle = "sampler index 4294967295";
            assert_limit(name, compile("ivb", &shader), needle);
            for target in ["hsw", "bdw", "skl"] {
                assert_unsupported(
                    &format!("{name} on {target}"),
                    compile(target, &shader),
                    needle,
                );
            }
        }
    }

    /// The bounds from the message descriptor: binding-table index 0-255, sampler 0-15 (the
    /// 4-bit field; Mesa reaches 16+ on Haswell+ only through a header gpucc does not build).
    #[test]
    fn intel_texture_index_bounds() {
        for target in ["ivb", "hsw", "bdw"] {
            let ok = parse("texture 255 sampler 15", &tex_shader(255, 15));
            assert_eq!(verify(target, &ok), VerifyOutcome::Pass, "{target}");
            let t = parse("texture 256", &tex_shader(256, 0));
            assert_limit(
                target,
                compile(target, &t),
                "texture index 256 is past the 256",
            );
            let s = parse("sampler 16", &tex_shader(0, 16));
            if target == "ivb" {
                assert_limit(
                    target,
                    compile(target, &s),
                    "sampler index 16 is past the 16",
                );
            } else {
                assert_unsupported(target, compile(target, &s), "sampler index 16");
            }
        }
    }

    // -- panics/INDEX.txt: overflow sites in debug builds --

    /// How INDEX.txt runs a NIR input and what each run must now give.
    enum Want {
        /// Compile for the target fails with this kind of error naming the text.
        Limit(&'static str),
        Invalid(&'static str),
        /// Compiles and verifies.
        Pass,
        /// Verification reports this as unsupported.
        VerifyUnsupported(&'static str),
        /// The interpreter (`gpucc nir run`) stops with an error naming the text.
        InterpError(&'static str),
    }

    #[test]
    fn index_nir_inputs() {
        use Want::*;
        let cases: [(&str, &str, &[Want]); 13] = [
            (
                "etnaviv_compiler_from_nir.rs_592_86.nir",
                "gc2000",
                &[Limit("load_uniform slot 4294967297")],
            ),
            (
                "etnaviv_compiler_from_nir.rs_609_51.nir",
                "gc2000",
                &[
                    Invalid("load_input component -1"),
                    InterpError("load_input component -1"),
                ],
            ),
            (
                "etnaviv_compiler_from_nir.rs_750_32.nir",
                "gc2000",
                &[Limit("input slot 4294967295 has no register")],
            ),
            (
                "intel_fs_from_nir.rs_1012_48.nir",
                "bdw",
                &[
                    Invalid("store_output component -2"),
                    InterpError("store_output component -2"),
                ],
            ),
            (
                "intel_fs_from_nir.rs_1830_25.nir",
                "bdw",
                &[
                    Invalid("load_interpolated_input component -1"),
                    InterpError("load_interpolated_input component -1"),
                ],
            ),
            (
                "intel_fs_from_nir.rs_2012_12.nir",
                "ivb",
                &[Limit("texture index 4294967295")],
            ),
            // A vec1 texture result (the sampler index is not etnaviv's to read) once wrote
            // .xyzw of a vec1 and failed IR validation as an internal error.
            ("intel_fs_from_nir.rs_2012_42.nir", "gc2000", &[Pass]),
            ("intel_fs_from_nir.rs_2012_42.nir", "gc7000", &[Pass]),
            (
                "intel_fs_verify.rs_298_14.nir",
                "ivb",
                &[VerifyUnsupported("push constant at UBO 1 byte 1065353216")],
            ),
            // I/O offsets are signed (Mesa folds `index - 16` into base + offset), so the
            // interpreter reads base 2 + offset -1 as slot 1; the backends refuse an offset
            // outside the slots the intrinsic declares, by name.
            (
                "nir_interp_exec.rs_564_32.nir",
                "ivb",
                &[VerifyUnsupported(
                    "`load_interpolated_input` at slot offset 4294967295, outside the 1",
                )],
            ),
            (
                "nir_interp_exec.rs_568_55.nir",
                "gc7000",
                &[
                    Invalid("load_input component -1"),
                    InterpError("load_input component -1"),
                ],
            ),
            (
                "nir_interp_exec.rs_660_32.nir",
                "bdw",
                // Refused before any backend runs (src/stage_check.rs), naming the offset;
                // the interpreter writes slot 4 - 1 = 3.
                &[VerifyUnsupported(
                    "`store_output` at slot offset 4294967295, outside the 1",
                )],
            ),
            (
                "nir_interp_exec.rs_921_42.nir",
                "ivb",
                &[
                    Invalid("store_output component -2"),
                    InterpError("store_output component -2"),
                ],
            ),
        ];
        for (name, target, wants) in cases {
            let Some(text) = repro(&format!("panics/{name}")) else {
                return;
            };
            let shader = parse(name, &text);
            let what = format!("{name} on {target}");
            // Every input runs all three ways; the wants say which outcomes are pinned.
            let compiled = compile(target, &shader);
            let verified = verify(target, &shader);
            let interpreted = interp(&text);
            for want in wants {
                match want {
                    Limit(n) => assert_limit(&what, compiled.clone(), n),
                    Invalid(n) => assert_invalid(&what, compiled.clone(), n),
                    Pass => assert_eq!(verified, VerifyOutcome::Pass, "{what}"),
                    VerifyUnsupported(n) => assert_verify_unsupported(&what, verified.clone(), n),
                    InterpError(n) => assert!(
                        matches!(&interpreted, Err(m) if m.contains(n)),
                        "{what}: interpreter: {interpreted:?}"
                    ),
                }
            }
        }
    }

    /// The I/O arithmetic by hand: a negative or too large component is an invalid shader
    /// for both backends and the interpreter, not a write to another channel; components 0-3
    /// still work.
    #[test]
    fn io_component_bounds() {
        for comp in [-1, 4, 1 << 31] {
            let text = io_shader("fadd %2.x, %2.y", comp);
            let shader = parse("component", &text);
            for target in ["ivb", "bdw"] {
                assert_invalid(
                    &format!("component {comp} on {target}"),
                    compile(target, &shader),
                    &format!("store_output component {comp}"),
                );
            }
            let r = interp(&text);
            assert!(
                matches!(&r, Err(m) if m.contains(&format!("component {comp}"))),
                "{r:?}"
            );
        }
        let shader = parse("component 3", &io_shader("fadd %2.x, %2.y", 3));
        assert_eq!(verify("ivb", &shader), VerifyOutcome::Pass);
    }

    // -- verify/ and min/ --

    /// The verify mismatches the fuzzer minimized: two were negative or huge components read
    /// as other channels (now invalid), three compute with the barycentrics, which the
    /// interpreter models only as interpolation handles (now unsupported rather than compared
    /// against made-up values).
    #[test]
    fn verify_mismatch_inputs() {
        let cases = [
            ("bdw-10259-10.min.nir", "bdw", Some("component 23")),
            (
                "gc2000-10259-1.min.nir",
                "gc2000",
                Some("component 6762329"),
            ),
            ("bdw-10259-19.min.nir", "bdw", None),
            ("ivb-10259-18.min.nir", "ivb", None),
            ("ivb-10259-31.min.nir", "ivb", None),
        ];
        for (name, target, invalid) in cases {
            let Some(text) = repro(&format!("verify/{name}")) else {
                return;
            };
            let shader = parse(name, &text);
            let v = verify(target, &shader);
            match invalid {
                Some(n) => assert!(
                    matches!(&v, VerifyOutcome::Error(m) if m.contains("invalid shader") && m.contains(n)),
                    "{name}: {v:?}"
                ),
                None => assert_verify_unsupported(name, v, "used as data"),
            }
        }
    }

    /// gc7000-10259-13: `b2f32` of `fmul a, c` (no boolean) was a mismatch: the backend ANDs
    /// with 1.0 as Mesa's etnaviv does for 32-bit booleans, the interpreter compared with zero.
    /// Converting a value that is no boolean is undefined, so every input set is skipped and
    /// the shader is unsupported, naming the op; the same shader on gc2000, whose booleans are
    /// floats (Mesa's nir_lower_bool_to_float removes b2f32 there), is an unsupported op.
    #[test]
    fn b2f32_of_a_non_boolean_is_undefined() {
        let Some(text) = repro("verify/gc7000-10259-13.min.nir") else {
            return;
        };
        let shader = parse("gc7000-10259-13", &text);
        match verify("gc7000", &shader) {
            VerifyOutcome::Unsupported(m) => assert!(
                m.contains("input sets is undefined or endless")
                    && m.contains("`b2f32` reads")
                    && m.contains("not a 32-bit boolean"),
                "{m}"
            ),
            other => panic!("gc7000-10259-13: {other:?}"),
        }
        assert_unsupported(
            "gc7000-10259-13 on gc2000",
            compile("gc2000", &shader),
            "integer op b2f32 on gc2000",
        );
    }

    /// Barycentrics used as data stop the interpreter with a reason; used as handles they do
    /// not.
    #[test]
    fn interpreter_refuses_barycentrics_as_data() {
        let r = interp(&io_shader("fadd %2.x, %0.y", 0));
        assert!(
            matches!(&r, Err(m) if m.contains("barycentrics %0 used as data")),
            "{r:?}"
        );
        let out = interp(&io_shader("fadd %2.x, %2.y", 0)).unwrap();
        // generated input 0.5 + slot/4 + c/16 + x/8 + y/32 of slot 32, invocation 0:
        // (8.5 + 0) + (8.5 + 1/16) = 17.0625
        assert!(
            out.starts_with("inv 0 FRAG_RESULT_COLOR[4] = (17.0625"),
            "{out}"
        );
    }

    // -- piglit scripts --

    /// A minimized `[test]` section run as its seed test (same name) with the seed's NIR.
    fn run_as_seed(file: &str, seed: &str, target: &str) -> Option<Outcome> {
        let text = repro(file)?;
        let nir = common::shared_path(&format!("corpus/nir/{target}"))?;
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("fuzz24-{}-{target}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{seed}.shader_test"));
        std::fs::write(&path, text).unwrap();
        let out = piglit::run_test(target, &path, &nir, Mode::Simulator);
        let _ = std::fs::remove_file(&path);
        Some(out)
    }

    /// Probes at coordinates near 2^32 overflowed the clip sums; a probe with no pixel in the
    /// window now fails (glReadPixels there reads undefined values) instead of passing.
    #[test]
    fn piglit_probe_outside_the_window() {
        let cases = [
            (
                "panics/piglit_run.rs_909_18.shader_test",
                "piglit__glsl-1.10__execution__fs-sign-times-neg",
            ),
            (
                "panics/piglit_run.rs_910_22.shader_test",
                "piglit__glsl-1.10__execution__temp-array-indexing__glsl-fs-giant-temp-array",
            ),
        ];
        for (file, seed) in cases {
            let Some(out) = run_as_seed(file, seed, "bdw") else {
                return;
            };
            assert!(
                matches!(&out, Outcome::Fail { message, .. } if message.contains("has no pixel in the 250x250 window")),
                "{file}: {out}"
            );
        }
    }

    /// `texture rgbw 1 (3104434315; 8` overflowed the texel count: sizes past
    /// GL_MAX_TEXTURE_SIZE are an error naming the command, on every target.
    #[test]
    fn piglit_texture_size_past_the_maximum() {
        let seed = "piglit__glsl-1.10__execution__glsl-fs-uniform-sampler-array";
        for file in [
            "panics/piglit_texture.rs_148_46.shader_test",
            &format!("piglit/{seed}.shader_test"),
        ] {
            for target in ["ivb", "bdw", "gc2000", "gc7000"] {
                let Some(out) = run_as_seed(file, seed, target) else {
                    return;
                };
                assert!(
                    matches!(&out, Outcome::Fail { message, .. }
                        if message.contains("past GL_MAX_TEXTURE_SIZE 16384")),
                    "{file} on {target}: {out}"
                );
            }
        }
    }
}

/// Hand-written companions of the piglit and etnaviv repro inputs above, runnable without the
/// shared data.
mod repro_inline {
    use gpucc::compiler::{CompileOptions, Compiler};
    use gpucc::verify::VerifyOutcome;

    /// Texture sizes: GL_MAX_TEXTURE_SIZE (16384) per side, 2^22 texels in all.
    #[test]
    fn piglit_texture_size_bounds() {
        let parse = |cmd: &str| gpucc::piglit::script::parse(&format!("[test]\n{cmd}\n"));
        for ok in ["texture rgbw 1 (2048, 2048)", "texture shadow1D 0 (16384)"] {
            assert!(parse(ok).is_ok(), "{ok}");
        }
        for (bad, why) in [
            (
                "texture rgbw 1 (16385, 1)",
                "past GL_MAX_TEXTURE_SIZE 16384",
            ),
            (
                "texture rgbw 1 (3104434315; 8",
                "past GL_MAX_TEXTURE_SIZE 16384",
            ),
            (
                "texture shadow2D 0 (-1, 4)",
                "past GL_MAX_TEXTURE_SIZE 16384",
            ),
            (
                "texture rgbw 1 (16384, 257)",
                "more than the 4194304 texels",
            ),
            (
                "texture checkerboard 0 0 (4096, 4097) (0, 0, 0, 0) (1, 1, 1, 1)",
                "more than the 4194304 texels",
            ),
        ] {
            let e = parse(bad).map(drop).map_err(|e| e.to_string());
            assert!(matches!(&e, Err(m) if m.contains(why)), "{bad}: {e:?}");
        }
    }

    /// A scalar texture result on etnaviv (as a shadow comparison gives): the TEXLD writes
    /// only the channels the result has, and the program matches the interpreter.
    #[test]
    fn etnaviv_vec1_texture_result() {
        let text = "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 1\noutputs: 1\nuniforms: 0\n\
            decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 1, 0)\n\
            decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
            decl_function main (0 params)\n\nimpl main {\n    block b0:   // preds:\n\
            32     %0 = load_const (0x00000000)\n\
            32x2   %1 = @load_input (%0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n\
            32     %2 = (float32)tex %1 (coord), 0 (texture), 0 (sampler)\n\
            32x4   %3 = vec4 %2, %2, %2, %2\n\
            32     %4 = deref_var &gl_FragColor (shader_out vec4)\n\
            @store_deref (%4, %3) (wrmask=xyzw, access=none)\n\
            // succs: b1\n    block b1:\n}\n";
        let shader = gpucc::nir::parse(text).unwrap();
        for target in ["gc2000", "gc3000", "gc7000"] {
            let c = Compiler::new(target).unwrap();
            c.compile(&shader, &CompileOptions::default())
                .unwrap_or_else(|e| panic!("{target}: {e}"));
            assert_eq!(c.verify(&shader, &[]), VerifyOutcome::Pass, "{target}");
        }
    }
}

// ---- issue 24: costs bounded for shaders with many values live at once ----

/// A fragment shader whose `n` values `v_i = v_(i-1) * c_i + x` are all live until the end,
/// where they are summed in reverse: no schedule can shorten a live range.
fn live_chain(n: usize, etnaviv: bool) -> String {
    let (input, output) = if etnaviv {
        (
            "decl_var shader_in INTERP_MODE_NONE none vec4 c (VARYING_SLOT_VAR0.xyzw, 0, 0)",
            "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)",
        )
    } else {
        (
            "decl_var shader_in INTERP_MODE_SMOOTH none vec4 c (VARYING_SLOT_VAR0.xyzw, 32, 0)",
            "decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_DATA0.xyzw, 0, 0)",
        )
    };
    let mut s = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: live\ninputs: 1\noutputs: 1\nuniforms: 0\n{input}\n\
         {output}\ndecl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds:\n\
         \x20   32 %0 = load_const (0x00000000)\n"
    );
    if etnaviv {
        s += "    32 %2 = @load_input (%0 (0x0)) (base=0, range=1, component=0, \
              dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n";
    } else {
        s += "    32x2 %1 = @load_barycentric_pixel () (interp_mode=1)\n\
              \x20   32 %2 = @load_interpolated_input (%1, %0) (base=32, component=0, \
              dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n";
    }
    let mut k = 3;
    let mut prev = 2;
    let mut values = Vec::new();
    for i in 0..n {
        s += &format!(
            "    32 %{k} = load_const (0x{:08x})\n    32 %{} = ffma %{prev}, %{k}, %2\n",
            0x3f80_0000 + 64 * i,
            k + 1
        );
        values.push(k + 1);
        prev = k + 1;
        k += 2;
    }
    let mut acc = *values.last().unwrap();
    for &v in values.iter().rev().skip(1) {
        s += &format!("    32 %{k} = fadd %{acc}, %{v}\n");
        acc = k;
        k += 1;
    }
    s += &format!("    32x4 %{k} = vec4 %{acc}, %{acc}, %{acc}, %{acc}\n");
    if etnaviv {
        s += &format!(
            "    32 %{} = deref_var &gl_FragColor (shader_out vec4)\n    @store_deref (%{}, %{k}) \
             (wrmask=xyzw, access=none)\n",
            k + 1,
            k + 1
        );
    } else {
        s += &format!(
            "    @store_output (%{k}, %0) (base=0, range=1, wrmask=xyzw, component=0, \
             src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())\n"
        );
    }
    s + "    // succs: b1\n    block b1:\n}\n"
}

/// Ten thousand live values on a core without spilling: the allocator proves from the
/// register pressure alone that no colouring exists, before it builds the interference graph
/// (once minutes and 3.7 GB for the same error).
#[test]
fn etnaviv_ten_thousand_live_values_fail_fast() {
    let shader = gpucc::nir::parse(&live_chain(10_000, true)).unwrap();
    let r = repro_inputs::compile("gc7000", &shader);
    repro_inputs::assert_limit("10k live", r.clone(), "more than the 64 temporaries");
    repro_inputs::assert_limit("10k live", r, "components live at once");
}

/// Nine hundred values live at once spill (SIMD8), several per allocation round once the
/// pressure is far over the file, and the spilled program still computes what the
/// interpreter does.
#[test]
fn intel_nine_hundred_live_values_spill_and_verify() {
    let shader = gpucc::nir::parse(&live_chain(900, false)).unwrap();
    let compiler = gpucc::compiler::Compiler::new("ivb").unwrap();
    let options = gpucc::compiler::CompileOptions {
        simd: vec![8],
        ..Default::default()
    };
    let program = compiler.compile(&shader, &options).unwrap();
    let row = &program.stats()[0];
    assert!(row.spills.unwrap() >= 900 - 128, "{row:?}");
    assert_eq!(
        compiler.verify(&shader, &[8]),
        gpucc::verify::VerifyOutcome::Pass
    );
}

/// A fragment input whose io semantics name no location (fuzzed NIR) compiles; describing it
/// through the C ABI gave INTERNAL ("unknown slot"). The driver location stands in for the
/// varying then, as the slot a driver keyed on.
#[test]
fn fs_input_without_a_location_name_is_its_driver_location() {
    use gpucc::capi;
    let text = "shader: MESA_SHADER_FRAGMENT\nname: fs\ninputs: 1\noutputs: 1\nuniforms: 0\n\
        decl_function main (0 params)\n\nimpl main {\n    block b0:   // preds:\n\
        \x20   32     %0 = load_const (0x00000000)\n\
        \x20   32x4   %1 = @load_input (%0) (base=33, range=1, component=0, dest_type=float32, \
        io location= slots=1)\n\
        \x20   @store_output (%1, %0) (base=4, range=1, wrmask=xyzw, component=0, \
        src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())\n\
        \x20   // succs: b1\n    block b1:\n}\n";
    let shader = gpucc::nir::parse(text).unwrap();
    let program = gpucc::compiler::Compiler::new("ivb")
        .unwrap()
        .compile(&shader, &gpucc::compiler::CompileOptions::default())
        .unwrap();
    let mut input = capi::FsInput {
        struct_size: std::mem::size_of::<capi::FsInput>() as u32,
        ..Default::default()
    };
    assert_eq!(
        capi::gpucc_program_fs_input(&program, 0, &mut input),
        capi::Status::Ok
    );
    assert_eq!((input.varying, input.flat), (33, 1));
}

/// Found by `gpucc fuzz`: a denormal constant written to a colour output came back 0 on the
/// simulator. `mov g126<1>F 0x200000F` is a raw move (same type, no modifiers), which copies
/// the bits whatever the denormal mode, as a register-to-register MOV already did.
#[test]
fn a_denormal_constant_output_keeps_its_bits() {
    let text = "shader: MESA_SHADER_FRAGMENT\nname: fs\ninputs: 0\noutputs: 1\nuniforms: 0\n\
        decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n\
        decl_function main (0 params)\n\nimpl main {\n    block b0:   // preds:\n\
        \x20   32x4 %0 = load_const (0x00000000, 0x3f800000, 0x00200000, 0x3f800000)\n\
        \x20   32 %1 = load_const (0x00000000)\n\
        \x20   @store_output (%0, %1) (base=4, range=1, wrmask=xyzw, component=0, \
        src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n\
        \x20   // succs: b1\n    block b1:\n}\n";
    let shader = gpucc::nir::parse(text).unwrap();
    for target in ["ivb", "hsw", "bdw", "skl"] {
        let compiler = gpucc::compiler::Compiler::new(target).unwrap();
        assert_eq!(
            compiler.verify(&shader, &[8, 16]),
            gpucc::verify::VerifyOutcome::Pass,
            "{target}"
        );
    }
}

/// Found by `gpucc fuzz`: a bdw vertex shader reading attribute 31 pushes 32 elements of
/// four GRFs, a payload past the register file; the passes placing it then failed with an
/// internal error. It is a limit of the shader, and says what takes the registers.
#[test]
fn a_vertex_payload_past_the_register_file_is_a_limit() {
    let text = "shader: MESA_SHADER_VERTEX\nname: vs\ninputs: 1\noutputs: 1\nuniforms: 0\n\
        decl_function main (0 params)\n\nimpl main {\n    block b0:   // preds:\n\
        \x20   32 %0 = load_const (0x00000000)\n\
        \x20   32x4 %1 = @load_input (%0) (base=31, range=1, component=0, dest_type=float32, \
        io location=VERT_ATTRIB_GENERIC0 slots=1)\n\
        \x20   @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, \
        src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
        \x20   // succs: b1\n    block b1:\n}\n";
    let shader = gpucc::nir::parse(text).unwrap();
    let r = repro_inputs::compile("bdw", &shader);
    repro_inputs::assert_limit("attribute 31", r.clone(), "32 pushed vertex elements");
    repro_inputs::assert_limit("attribute 31", r, "130 GRFs");
}

/// Found by `gpucc fuzz`: I/O values that do not fit their slot or type validated, and the
/// backends and the interpreter then read them differently (verify mismatches on gc7000,
/// gc2000 and ivb). As in Mesa's validator, a value must fit the vec4 slot after
/// `component` and have its `dest_type` / `src_type` bit size.
#[test]
fn io_values_must_fit_their_slot_and_type() {
    let shader = |def: &str, load: &str| {
        format!(
            "shader: MESA_SHADER_FRAGMENT\nname: fs\ninputs: 1\noutputs: 1\nuniforms: 0\n\
             decl_function main (0 params)\n\nimpl main {{\n    block b0:   // preds:\n\
             \x20   32 %0 = load_const (0x00000000)\n\
             \x20   32x2 %1 = @load_barycentric_pixel () (interp_mode=1)\n\
             \x20   {def} %2 = {load}\n\
             \x20   // succs: b1\n    block b1:\n}}\n"
        )
    };
    let interp = |component: u32, ty: &str| {
        format!(
            "@load_interpolated_input (%1, %0) (base=32, component={component}, \
             dest_type={ty}, io location=VARYING_SLOT_VAR0 slots=1)"
        )
    };
    let cases = [
        (
            "32x4",
            interp(2, "float32"),
            Some("component 2 with 4 components runs past"),
        ),
        (
            "1",
            interp(0, "float32"),
            Some("the value is 1-bit but `dest_type` is 32-bit"),
        ),
        (
            "16",
            interp(0, "float32"),
            Some("the value is 16-bit but `dest_type` is 32-bit"),
        ),
        ("32x2", interp(2, "float32"), None),
        ("16x4", interp(0, "float16"), None),
    ];
    for (def, load, error) in cases {
        let text = shader(def, &load);
        let parsed = gpucc::nir::parse(&text).unwrap();
        let got = gpucc::nir::validate(&parsed);
        match error {
            Some(e) => {
                let err = got.expect_err(&text);
                assert!(format!("{err:?}").contains(e), "{def} {load}: {err:?}");
            }
            None => assert!(got.is_ok(), "{def} {load}: {got:?}"),
        }
    }
}
