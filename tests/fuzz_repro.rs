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
