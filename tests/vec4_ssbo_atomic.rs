//! SSBO atomics of the Gen7 vec4 backend, on Ivy Bridge (the SIMD8 untyped atomic on the
//! data cache, its channels narrowed to 0 and 4 by the `.x` destination mask) and Haswell
//! (the SIMD4x2 untyped atomic on data cache 1), with expectations derived by hand: a
//! tessellation-evaluation thread of two domain points adds 5 to dword 2 of SSBO 0, which
//! holds 100; the first point gets the old value 100, the second 105, and 110 is left.
//! A descriptor with another operation (subtract) or another surface breaks both the hand
//! figures and the verifier's check against the interpreter, which compares the SSBOs.

mod common;

use gpucc::intel::backend::{verify_kernel, BindingModel, Context, Options, VerifyOutcome};
use gpucc::intel::eu::{self, Imm, Src};
use gpucc::intel::kernel::Kernel;
use gpucc::intel::sim::tess_payload::Vec4TesPayload;
use gpucc::intel::sim::Thread;
use gpucc::intel::DevInfo;

/// gl_Position = 0; VAR0.x = the old value of an atomic add of 5 to the dword at byte 8 of
/// SSBO 0.
const TES: &str = "shader: MESA_SHADER_TESS_EVAL
name: t
num_ssbos: 1
outputs_written: 0,32
writes_memory: true
primitive_mode: 2
tcs_vertices_out: 0
spacing: 1
ccw: true
inputs: 0
outputs: 2
uniforms: 0
decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none uint v (VARYING_SLOT_VAR0.x, 32, 0)
decl_var ssbo INTERP_MODE_NONE none uint[] counter0 (0, 0, 0)
decl_function main (0 params)

impl main {
    block b0:  // preds:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000008)
    32    %2 = load_const (0x00000005)
    32    %3 = @ssbo_atomic (%0, %1, %2) (access=none, atomic_op=iadd)
    32x4  %4 = load_const (0x00000000, 0x00000000, 0x00000000, 0x00000000)
    @store_output (%4, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    @store_output (%3, %0) (base=32, range=1, wrmask=x, component=0, src_type=uint32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())
    // succs: b1
    block b1:
}
";

/// VARYING_SLOT_VAR0.
const VAR0: u32 = 32;

/// Runs `k` on one thread of two domain points whose SSBO 0 holds 100 in dword 2; returns
/// each point's VAR0.x and the dword afterwards.
fn run(dev: &'static DevInfo, k: &Kernel) -> ([u32; 2], u32) {
    let mut t = Thread::new(dev, 8).unwrap();
    let payload = Vec4TesPayload {
        patch_handle: 0x100,
        primitive_id: 0,
        coords: vec![[0.25, 0.5, 0.25], [0.5, 0.25, 0.25]],
        urb_handles: vec![0x40, 0x50],
        push_constants: Vec::new(),
        patch_regs: Vec::new(),
    };
    let layout = payload.apply(&mut t).unwrap();
    assert_eq!(layout.push_constants, k.simd[0].dispatch_grf_start);
    let mut ssbo = vec![0u8; 16];
    ssbo[8..12].copy_from_slice(&100u32.to_le_bytes());
    t.shared_mut().bind_buffer(k.ssbo_surface_base, ssbo);
    let r = t.run_binary(&k.code[..k.simd[0].size as usize]).unwrap();
    assert!(r.eot);
    let slot = k
        .tess_eval
        .as_ref()
        .unwrap()
        .vue_map
        .slot_of(VAR0)
        .expect("VAR0 has a VUE slot");
    let urb = &t.shared().urb;
    let old = [0x40, 0x50].map(|h| urb[&h][&(4 * slot)]);
    let buf = &t.shared().buffers[&k.ssbo_surface_base];
    (old, u32::from_le_bytes([buf[8], buf[9], buf[10], buf[11]]))
}

/// `k` with its one atomic's descriptor edited by `edit`.
fn with_atomic_desc(dev: &'static DevInfo, k: &Kernel, edit: impl Fn(u64) -> u64) -> Kernel {
    let mut insts = eu::decode_program(dev, &k.code[..k.simd[0].size as usize]).unwrap();
    let sends: Vec<usize> = (0..insts.len())
        .filter(|&i| {
            insts[i].msg.is_some_and(|m| {
                m.sfid == eu::types::sfid::DATA_CACHE || m.sfid == eu::types::sfid::DATA_CACHE_1
            })
        })
        .collect();
    assert_eq!(sends.len(), 1, "one atomic");
    let Some(Src::Imm(d)) = insts[sends[0]].src.get(1).copied() else {
        panic!("an immediate descriptor")
    };
    insts[sends[0]].src[1] = Src::Imm(Imm {
        bits: edit(d.bits),
        ..d
    });
    let code: Vec<u8> = eu::encode_program(dev, &insts).unwrap().concat();
    let mut b = k.clone();
    b.simd[0].size = code.len() as u32;
    b.code = code;
    b
}

#[test]
fn a_tes_atomic_add_returns_the_old_value_per_point_and_leaves_the_sum() {
    let shader = gpucc::nir::parse(TES).unwrap();
    for platform in ["ivb", "hsw"] {
        let dev = DevInfo::from_name(platform).unwrap();
        let ctx = Context::new(dev);
        let k = ctx.compile(&shader, &Options::widths(&[8])).unwrap();
        assert_eq!(k.ssbo_surface_base, 128, "gpucc's binding model");
        // The descriptor, field by field: message length 2 (address, operand), response
        // length 1, binding table 128, add (7) with the old value returned (bit 13); Ivy
        // Bridge: data cache (10), type 6, SIMD8 (bit 12); Haswell: data cache 1 (12),
        // SIMD4x2 type 3.
        let insts = eu::decode_program(dev, &k.code[..k.simd[0].size as usize]).unwrap();
        let send = insts
            .iter()
            .find(|i| i.msg.is_some_and(|m| m.sfid == 10 || m.sfid == 12))
            .expect("an atomic message");
        let (sfid, desc) = if platform == "ivb" {
            (10, 0x0410_0000 | 6 << 14 | 0x37 << 8 | 128)
        } else {
            (12, 0x0410_0000 | 3 << 14 | 0x27 << 8 | 128)
        };
        assert_eq!(send.msg.unwrap().sfid, sfid, "{platform}");
        assert!(
            matches!(send.src.get(1), Some(Src::Imm(d)) if d.bits == desc),
            "{platform}: {:?}, want {desc:#x}",
            send.src.get(1)
        );
        assert_eq!(send.dst.writemask, 0x1, "{platform}: the old value in x");

        assert_eq!(run(dev, &k), ([100, 105], 110), "{platform}");
        assert_eq!(verify_kernel(&ctx, &shader, &k, 8), VerifyOutcome::Pass);

        // Subtract (8) instead of add: 100 - 5 - 5 = 90 left, the old values 100 and 95.
        let sub = with_atomic_desc(dev, &k, |d| d & !(0xf << 8) | 8 << 8);
        assert_eq!(run(dev, &sub), ([100, 95], 90), "{platform}");
        let verdict = verify_kernel(&ctx, &shader, &sub, 8);
        assert!(
            matches!(verdict, VerifyOutcome::Fail { .. }),
            "{platform}: subtract instead of add: {verdict:?}"
        );
        // Another surface: the interpreter's SSBO is left as it was.
        let other = with_atomic_desc(dev, &k, |d| d & !0xff | 129);
        let verdict = verify_kernel(&ctx, &shader, &other, 8);
        assert!(
            !matches!(verdict, VerifyOutcome::Pass),
            "{platform}: another surface: {verdict:?}"
        );
    }
}

/// The corpus's invocation-counting TCS (one increment per loop iteration, invocation i
/// running i of them) verifies on both platforms, and fails the check with a decrement in
/// the descriptor: the TCS check compares the SSBO too.
#[test]
fn a_vec4_tcs_with_a_wrong_atomic_fails_the_check() {
    let Some((shader, programs)) = common::stage_corpus::verified_stage_programs(
        "ivb",
        "piglit__spec__arb_tessellation_shader__execution__invocation-counting-odd.tcs.nir",
        &["ivb", "hsw"],
        BindingModel::Mesa,
    ) else {
        return;
    };
    for (dev, ctx, k) in programs {
        let platform = dev.name;
        // Increment (5) becomes decrement (6).
        let dec = with_atomic_desc(dev, &k, |d| {
            assert_eq!(d >> 8 & 0xf, 5, "{platform}: Mesa's inc for an add of 1");
            d & !(0xf << 8) | 6 << 8
        });
        let verdict = verify_kernel(&ctx, &shader, &dec, 8);
        assert!(
            matches!(verdict, VerifyOutcome::Fail { .. }),
            "{platform}: decrement instead of increment: {verdict:?}"
        );
    }
}
