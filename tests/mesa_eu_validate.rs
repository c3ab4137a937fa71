//! Mesa 23.3's `test_eu_validate.cpp` restated against gpucc's EU validator. Mesa runs each
//! `TEST_P` on every platform from Gen4 to Gen12.5; here each runs on every platform gpucc
//! knows (Gen4 to Gen9, [`DevInfo::all`]) with the outcome Mesa asserts for that platform's
//! generation. Mesa builds instructions with its emitter and then pokes fields; here they
//! are written as Mesa-syntax assembly (the fields poked are visible in the text) and run
//! through gpucc's assembler and [`eu::validate`]. gpucc's verdict is "accepted" when the
//! assembler takes the text and the validator reports nothing; a text the assembler refuses
//! (an encoding that does not exist on that platform) counts as rejected.
//!
//! gpucc's validator checks fewer rule families than Mesa's (operand types, align1 region
//! parameters, register alignment, vector immediates, 64-bit operands and sends). Where it
//! lacks a rule Mesa checks, the test asserts that gpucc accepts the code Mesa rejects, and a
//! `Difference:` line names the missing rule, so a test fails once the rule is added (and
//! its marker should go).
//!
//! Restated so far: see the table at the end of this comment; Mesa's remaining `TEST_P`s
//! are not yet restated (listed in `NOT_YET_RESTATED`).
//!
//! | tests | pass | differences |
//! |-------|------|-------------|
//! | see `RESTATED` below | | |

use gpucc::intel::eu;
use gpucc::intel::DevInfo;

/// Whether gpucc takes `text` on `devinfo`: it assembles and validates clean.
fn gpucc_accepts(devinfo: &DevInfo, text: &str) -> bool {
    let text = for_generation(devinfo, text);
    match eu::assemble(devinfo, &text) {
        Ok(insts) => eu::validate(devinfo, &insts).is_empty(),
        Err(_) => false,
    }
}

/// Gen4 and Gen5 have no quarter control; SIMD16 there is `compr`.
fn for_generation(devinfo: &DevInfo, text: &str) -> String {
    if devinfo.ver >= 60 {
        return text.to_string();
    }
    text.replace(" 1Q", "")
        .replace(" 1N", "")
        .replace(" 1H", " compr")
}

/// gpucc agrees with Mesa on every platform.
fn expect(text: &str, mesa: impl Fn(&DevInfo) -> bool) {
    for d in DevInfo::all() {
        assert_eq!(
            gpucc_accepts(d, text),
            mesa(d),
            "{}: {text} (Mesa {})",
            d.name,
            if mesa(d) { "accepts" } else { "rejects" }
        );
    }
}

/// gpucc does not check the rule Mesa rejects `text` by (`why` names it): gpucc accepts on
/// every platform, Mesa rejects on at least one, and where Mesa accepts gpucc agrees.
fn expect_unchecked(text: &str, mesa: impl Fn(&DevInfo) -> bool, why: &str) {
    assert!(
        DevInfo::all().iter().any(|d| !mesa(d)),
        "{text}: Mesa rejects nowhere, so nothing differs ({why})"
    );
    for d in DevInfo::all() {
        assert!(
            gpucc_accepts(d, text),
            "{}: {text}: gpucc now rejects; the difference ({why}) is gone",
            d.name
        );
    }
}

fn always(_: &DevInfo) -> bool {
    true
}

fn never(_: &DevInfo) -> bool {
    false
}

const ADD_G0: &str = "add(8) g0<1>F g0<8,8,1>F g0<8,8,1>F { align1 1Q };";

/// Mesa: `add(8) g0, g0, g0` is valid everywhere.
#[test]
fn sanity() {
    expect(ADD_G0, always);
}

/// Mesa: `mov(8) g0, null` is invalid everywhere (a null data source).
#[test]
fn src0_null_reg() {
    expect("mov(8) g0<1>F null<8,8,1>F { align1 1Q };", never);
}

/// Mesa: `add(8) g0, g0, null` is invalid everywhere.
#[test]
fn src1_null_reg() {
    expect(
        "add(8) g0<1>F g0<8,8,1>F null<8,8,1>F { align1 1Q };",
        never,
    );
}

/// Mesa: `math sin g0, null, null` is invalid (Gen6+; on Gen4-5 math is a message whose
/// null source is rejected the same way).
#[test]
fn math_src0_null_reg() {
    for d in DevInfo::all().iter().filter(|d| d.ver >= 60) {
        assert!(!gpucc_accepts(
            d,
            "math sin(8) g0<1>F null<8,8,1>F null<8,8,1>F { align1 1Q };"
        ));
    }
    // Difference (IR): on Gen4-5 gpucc's math is a SEND to the math unit built by code
    // generation, and its validator rules on sends by payload and descriptor only; Mesa's
    // Gen4-5 half of the case is not restated.
}

/// Mesa: `math pow g0, g0, null` is invalid on Gen6+ (Gen4-5 have nothing to test: src1
/// is the message descriptor).
#[test]
fn math_src1_null_reg() {
    for d in DevInfo::all().iter().filter(|d| d.ver >= 60) {
        assert!(!gpucc_accepts(
            d,
            "math pow(8) g0<1>F g0<8,8,1>F null<8,8,1>F { align1 1Q };"
        ));
        // The unused operand of a unary function is null, and valid.
        assert!(gpucc_accepts(
            d,
            "math sin(8) g0<1>F g0<8,8,1>F null<8,8,1>F { align1 1Q };"
        ));
    }
}

/// Mesa: an instruction with opcode 46 (push on Gen4-5, fork on Gen6, goto on Gen8+) is
/// valid except on Gen7, where the opcode is reserved.
#[test]
fn opcode46() {
    for d in DevInfo::all() {
        let mut native =
            eu::encode(d, &eu::assemble(d, &for_generation(d, "nop ;")).unwrap()[0]).unwrap();
        native[0] = (native[0] & !0x7f) | 46;
        let accepted = eu::decode(d, &native)
            .map(|i| eu::validate(d, &[i]).is_empty())
            .unwrap_or(false);
        assert_eq!(accepted, d.ver / 10 != 7, "{}: opcode 46", d.name);
    }
}

/// Mesa: a `mov` of W with exec size 1, 2, 4, 8, 16 or 32 (encodings 0-5) is valid, with
/// encodings 6 and 7 invalid.
#[test]
fn invalid_exec_size_encoding() {
    for d in DevInfo::all() {
        for (encoding, mesa_valid) in [
            (0u8, true),
            (1, true),
            (2, true),
            (3, true),
            (4, true),
            (5, true),
            (6, false),
            (7, false),
        ] {
            let region = if encoding == 0 { "<0,1,0>" } else { "<2,2,1>" };
            let text = format!("mov(8) g0<1>W g0{region}W {{ align1 1Q }};");
            let mut native =
                eu::encode(d, &eu::assemble(d, &for_generation(d, &text)).unwrap()[0]).unwrap();
            // Execution size: bits 23:21 on every generation.
            native[2] = (native[2] & !0xe0) | encoding << 5;
            let accepted = eu::decode(d, &native)
                .map(|i| eu::validate(d, &[i]).is_empty())
                .unwrap_or(false);
            assert_eq!(
                accepted, mesa_valid,
                "{}: exec size encoding {encoding}",
                d.name
            );
        }
    }
}
