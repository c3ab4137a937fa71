//! Instruction forms `fs::from_nir` picks to match Mesa 23.3's brw on Gen7/8 (gpucc issue 8),
//! each checked on the assembly and run on the simulator against the reference interpreter:
//!
//! - a UBO load at a run-time offset is one sampler `ld` per four components whose only
//!   payload is the byte offset (brw's VARYING_PULL_CONSTANT_LOAD with the sampler: the
//!   constant surface has a one-byte pitch, so any dword offset reads the 16 bytes from
//!   there): SIMD8 mlen 1 rlen 4, SIMD16 mlen 2 rlen 8, and no row shift or level source;
//! - `if (!b)` tests `b` with an inverted IF predicate (brw's nir_emit_if) instead of
//!   computing `not b`;
//! - an element of a sampler array chosen at run time is one sampler message whose
//!   descriptor comes from the address register: the index is taken from the first enabled
//!   channel (GLSL requires it to be dynamically uniform), as brw's FIND_LIVE_CHANNEL and
//!   BROADCAST do, and the descriptor is `index * 0x101 + base`, masked to 12 bits, ORed with
//!   the message bits — not one predicated message per array element.

mod common;

use common::intel_fs::{asm, fs_reading_v, passes_everywhere, PLATFORMS};

/// Lines of `asm` whose mnemonic (after any predicate) is `op`.
fn count_op(asm: &str, op: &str) -> usize {
    asm.lines()
        .filter(|l| {
            let l = l.trim_start();
            let l = if l.starts_with('(') {
                l.split_once(") ").map_or(l, |(_, r)| r)
            } else {
                l
            };
            l.split(['(', '.', ' ']).next() == Some(op)
        })
        .count()
}

/// A vec4 read from UBO 1 at a per-pixel dword offset (0, 4, … 28 bytes: mostly not
/// 16-byte aligned, so `align_mul` is 4), written out as the colour.
fn varying_ubo() -> String {
    fs_reading_v(
        "varying-ubo",
        r#"num_ubos: 2
"#,
        "",
        "",
        r#"    32    %3 = load_const (0x41000000)
    32    %4 = fmul %2.x, %3
    32    %5 = f2u32 %4
    32    %6 = load_const (0x00000007)
    32    %7 = iand %5, %6
    32    %8 = load_const (0x00000002)
    32    %9 = ishl %7, %8
    32    %10 = load_const (0x00000001)
    32x4  %11 = @load_ubo (%10, %9) (access=none, align_mul=4, align_offset=0, range_base=0, range=64)
    @store_output (%11, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#,
    )
}

#[test]
fn varying_ubo_load_matches_the_interpreter() {
    passes_everywhere(&varying_ubo());
}

#[test]
fn varying_ubo_load_is_one_ld_whose_payload_is_the_byte_offset() {
    // UBO 1 sits at binding-table index 64 + 1; the sampler `ld` reply is four registers per
    // eight channels; the payload is the offset alone, one register per eight channels.
    for p in PLATFORMS {
        for (simd, mlen, rlen) in [(8, 1, 4), (16, 2, 8)] {
            let a = asm(p, &varying_ubo(), simd);
            let lds: Vec<&str> = a
                .lines()
                .filter(|l| l.contains("sampler MsgDesc: ld"))
                .collect();
            assert_eq!(lds.len(), 1, "{p} SIMD{simd}: one ld message\n{a}");
            assert!(
                lds[0].contains(&format!("ld SIMD{simd} Surface = 65 Sampler = 0"))
                    && lds[0].contains(&format!("mlen {mlen} rlen {rlen}")),
                "{p} SIMD{simd}: {}",
                lds[0]
            );
            // The offset is (x * 8 & 7) << 2: one shift, nothing to turn it into a row
            // index, no per-component selects.
            assert_eq!(count_op(&a, "shr"), 0, "{p} SIMD{simd}\n{a}");
            assert_eq!(count_op(&a, "shl"), 1, "{p} SIMD{simd}\n{a}");
            assert_eq!(count_op(&a, "sel"), 0, "{p} SIMD{simd}\n{a}");
        }
    }
}

/// `if (!(v.x < 0.5))` colours red, else green.
fn inverted_if() -> String {
    fs_reading_v(
        "inverted-if",
        "",
        "",
        "",
        r#"    32    %3 = load_const (0x3f000000)
    1     %4 = flt %2.x, %3
    1     %5 = inot %4
    32    %6 = load_const (0x3f800000)
    // succs: b1 b2
    if %5 {
        block b1:  // preds: b0
        32x4  %7 = vec4 %6, %1, %1, %6
        @store_output (%7, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
        // succs: b3
    } else {
        block b2:  // preds: b0
        32x4  %8 = vec4 %1, %6, %1, %6
        @store_output (%8, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
        // succs: b3
    }
    block b3:  // preds: b1 b2
    // succs: b4
    block b4:
}
"#,
    )
}

#[test]
fn inverted_if_matches_the_interpreter() {
    passes_everywhere(&inverted_if());
}

#[test]
fn if_on_a_not_inverts_the_predicate_instead() {
    for p in PLATFORMS {
        for simd in [8, 16] {
            let a = asm(p, &inverted_if(), simd);
            assert_eq!(count_op(&a, "not"), 0, "{p} SIMD{simd}\n{a}");
            // Either the IF itself or, after peephole select, the SELs take the inverted
            // predicate; no uninverted predicate on f0.0 is left.
            assert!(a.contains("(-f0.0)"), "{p} SIMD{simd}\n{a}");
            assert!(!a.contains("(+f0.0)"), "{p} SIMD{simd}\n{a}");
        }
    }
}

/// `texture(samp[uint(abs(u) * 4.0) & 3], v.xy)` with `u` a uniform: the index is computed
/// per channel (so the backend has to pick one channel's value), it differs between the
/// verifier's input sets (u = -1.0, 0.375, 1.75 give 0, 1, 3), and the four textures differ
/// (the default sampler model puts the texture index in z).
fn sampler_array() -> String {
    fs_reading_v(
        "sampler-array",
        r#"num_ubos: 1
first_ubo_is_default_ubo: true
"#,
        "",
        r#"decl_var uniform INTERP_MODE_NONE none sampler2D[4] samp (1, 0, 0)
"#,
        r#"    32    %3 = @load_ubo (%1, %1) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=4)
    32    %8 = fabs %3
    32    %9 = load_const (0x40800000)
    32    %10 = fmul %8, %9
    32    %11 = f2u32 %10
    32    %4 = load_const (0x00000003)
    32    %5 = iand %11, %4
    32x2  %6 = vec2 %2.x, %2.y
    32x4  %7 = (float32)tex %5 (texture_offset), %5 (sampler_offset), %6 (coord), 0 (texture), 0 (sampler)
    @store_output (%7, %1) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
"#,
    )
}

#[test]
fn sampler_array_element_matches_the_interpreter() {
    passes_everywhere(&sampler_array());
}

#[test]
fn sampler_array_element_is_one_message_with_an_address_register_descriptor() {
    for p in PLATFORMS {
        for simd in [8, 16] {
            let a = asm(p, &sampler_array(), simd);
            let sends: Vec<&str> = a.lines().filter(|l| l.starts_with("send")).collect();
            // One sample, one render-target write.
            assert_eq!(sends.len(), 2, "{p} SIMD{simd}\n{a}");
            assert!(
                sends[0].contains("a0<0,1,0>UD") && !sends[0].starts_with('('),
                "{p} SIMD{simd}: {}",
                sends[0]
            );
            // The first enabled channel: a flag set by every enabled channel, its lowest bit.
            assert_eq!(count_op(&a, "fbl"), 1, "{p} SIMD{simd}\n{a}");
            assert!(a.contains("g[a0"), "{p} SIMD{simd}: no indirect read\n{a}");
            // index * 0x101 reaches both the binding-table and the sampler index; the mask
            // keeps a stray index out of the message type.
            assert!(a.contains("0x0101UW"), "{p} SIMD{simd}\n{a}");
            assert!(a.contains("0x00000fffUD"), "{p} SIMD{simd}\n{a}");
        }
    }
}
