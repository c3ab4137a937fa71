//! Compute shaders on the scalar backend: hand-written NIR compute shaders compiled for
//! ivb, hsw and bdw at SIMD8 and SIMD16, run on the EU simulator one workgroup after another,
//! and compared with the reference interpreter byte for byte over every SSBO.
//!
//! The simulator runs one thread at a time, so shaders with barriers use workgroups that fit
//! in one thread; the others use workgroups of several threads, whose local ids the payload
//! spreads over the threads in invocation order (x fastest), as the interpreter numbers them.

mod common;

use common::compute::header;
use gpucc::intel::backend::binding::SSBO_SURFACE_BASE;
use gpucc::intel::backend::{Context, Options};
use gpucc::intel::fs::from_nir::SLM_SURFACE;
use gpucc::intel::fs::CompileError;
use gpucc::intel::kernel::Kernel;
use gpucc::intel::sim::payload::CsPayload;
use gpucc::intel::sim::Thread;
use gpucc::intel::DevInfo;
use gpucc::nir::{self, interp};

const PLATFORMS: [&str; 3] = ["ivb", "hsw", "bdw"];

/// Bytes of each SSBO both sides get.
const SSBO_BYTES: usize = 4096;

/// Initial SSBO contents: distinct small integers, different per block.
fn ssbo_init(block: usize) -> Vec<u8> {
    (0..SSBO_BYTES / 4)
        .flat_map(|d| ((d as u32 * 7 + block as u32 * 1000 + 3) % 251).to_le_bytes())
        .collect()
}

/// UBO 0 dword `d` (push constants).
fn ubo_dword(d: usize) -> u32 {
    (d as u32 + 1) * 3
}

/// Runs `groups` workgroups on the interpreter and returns the final SSBOs.
fn interpret(
    shader: &nir::Shader,
    size: [u32; 3],
    groups: &[[u32; 3]],
    nssbo: usize,
) -> Vec<Vec<u8>> {
    let shared = shader
        .info
        .field("shared_size")
        .and_then(|s| s.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut ssbos: Vec<Vec<u8>> = (0..nssbo).map(ssbo_init).collect();
    for &wg in groups {
        let env = interp::Environment {
            ssbos: ssbos.clone(),
            shared: vec![0; shared.max(4)],
            ubos: vec![(0..64).flat_map(|d| ubo_dword(d).to_le_bytes()).collect()],
            workgroup_id: wg,
            workgroup_size: size,
            ..Default::default()
        };
        let n = (size[0] * size[1] * size[2]) as usize;
        let r = interp::run(shader, &env, n).expect("interpreter run");
        ssbos = r.ssbos;
    }
    ssbos
}

/// Runs `groups` workgroups on the simulator, each as consecutive threads of `simd` channels.
fn simulate(
    dev: &'static DevInfo,
    kernel: &Kernel,
    simd: u32,
    size: [u32; 3],
    groups: &[[u32; 3]],
    nssbo: usize,
) -> Result<Vec<Vec<u8>>, String> {
    let variant = kernel
        .variant(simd)
        .ok_or_else(|| format!("no SIMD{simd} variant"))?;
    let info = kernel
        .compute
        .as_ref()
        .ok_or("kernel without compute facts")?;
    assert_eq!(info.local_size, size, "local size in the program object");
    let mut ssbos: Vec<Vec<u8>> = (0..nssbo).map(ssbo_init).collect();
    let n = (size[0] * size[1] * size[2]) as usize;
    for &wg in groups {
        let mut slm = vec![0u8; (info.shared_size as usize).max(4)];
        for first in (0..n).step_by(simd as usize) {
            let ids: Vec<[u32; 3]> = (first..n.min(first + simd as usize))
                .map(|l| {
                    let l = l as u32;
                    [
                        l % size[0],
                        (l / size[0]) % size[1],
                        l / (size[0] * size[1]),
                    ]
                })
                .collect();
            let push: Vec<u32> = kernel
                .push_constants
                .iter()
                .map(|&(b, o)| {
                    assert_eq!(b, 0, "only UBO 0 is pushed here");
                    ubo_dword(o as usize / 4)
                })
                .collect();
            let mut t = Thread::new(dev, simd).map_err(|e| e.to_string())?;
            let layout = CsPayload {
                workgroup_id: wg,
                local_ids: ids,
                push_constants: push,
            }
            .apply(&mut t)
            .map_err(|e| e.to_string())?;
            assert_eq!(
                layout.push_constants, variant.dispatch_grf_start,
                "dispatch GRF start"
            );
            for (b, bytes) in ssbos.iter().enumerate() {
                t.shared_mut()
                    .bind_buffer(SSBO_SURFACE_BASE + b as u32, bytes.clone());
            }
            t.shared_mut().bind_buffer(SLM_SURFACE, slm.clone());
            t.set_step_limit(1_000_000);
            t.run_binary(kernel.code_of(variant))
                .map_err(|e| e.to_string())?;
            for (b, bytes) in ssbos.iter_mut().enumerate() {
                *bytes = t.shared().buffers[&(SSBO_SURFACE_BASE + b as u32)].clone();
            }
            slm = t.shared().buffers[&SLM_SURFACE].clone();
        }
    }
    Ok(ssbos)
}

/// Compiles `text` for every platform and width and compares both sides' SSBOs.
fn check(text: &str, size: [u32; 3], groups: &[[u32; 3]], nssbo: usize, widths: &[u32]) {
    let shader = nir::parse(text).expect("shader parses");
    let want = interpret(&shader, size, groups, nssbo);
    assert_ne!(
        want,
        (0..nssbo).map(ssbo_init).collect::<Vec<_>>(),
        "the shader writes something"
    );
    for p in PLATFORMS {
        let dev = DevInfo::from_name(p).unwrap();
        let ctx = Context::new(dev);
        for &simd in widths {
            let kernel = ctx
                .compile(&shader, &Options::widths(&[simd]))
                .unwrap_or_else(|e| panic!("{p} SIMD{simd}: {e}"));
            let got = simulate(dev, &kernel, simd, size, groups, nssbo)
                .unwrap_or_else(|e| panic!("{p} SIMD{simd}: simulator: {e}"));
            for (b, (w, g)) in want.iter().zip(&got).enumerate() {
                if let Some(d) =
                    (0..w.len() / 4).find(|d| w[4 * d..4 * d + 4] != g[4 * d..4 * d + 4])
                {
                    panic!(
                        "{p} SIMD{simd}: SSBO {b} dword {d}: expected {:?}, got {:?}",
                        &w[4 * d..4 * d + 4],
                        &g[4 * d..4 * d + 4]
                    );
                }
            }
        }
    }
}

/// Every invocation writes its local index, local id, workgroup id and global id to SSBO 0
/// at `16 * global index`.
#[test]
fn ids_reach_their_invocations() {
    let size = [4, 3, 2];
    let text = header("cs-ids", size, 0)
        + r#"impl main {
    block b0:  // preds:
    32x3  %0 = @load_local_invocation_id () ()
    32x3  %1 = @load_workgroup_id () ()
    32    %2 = @load_local_invocation_index () ()
    32x3  %3 = @load_global_invocation_id () ()
    32    %4 = load_const (0x00000000)
    32    %5 = load_const (0x00000010)
    32    %6 = load_const (0x00000018)
    32    %7 = imul %1.x, %6
    32    %8 = iadd %7, %2
    32    %9 = imul %8, %5
    32x4  %10 = vec4 %2, %0.x, %0.y, %0.z
    @store_ssbo (%10, %4, %9) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
    32    %11 = load_const (0x00000200)
    32    %12 = iadd %9, %11
    32x4  %13 = vec4 %1.x, %1.y, %3.x, %3.y
    @store_ssbo (%13, %4, %12) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
    // succs: b1
    block b1:
}
"#;
    check(&text, size, &[[0, 0, 0], [1, 2, 3]], 1, &[8, 16]);
}

/// SSBO loads feed arithmetic with a push constant; stores use a partial write mask; a
/// second block is read and written.
#[test]
fn ssbo_load_compute_store() {
    let size = [16, 1, 1];
    let text = header("cs-ssbo", size, 0)
        + r#"impl main {
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    32    %2 = load_const (0x00000001)
    32    %3 = load_const (0x00000004)
    32    %4 = load_const (0x00000008)
    32    %5 = imul %0, %4
    32x2  %6 = @load_ssbo (%1, %5) (access=none, align_mul=8, align_offset=0)
    32    %7 = @load_ubo (%1, %3) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)
    32    %8 = imul %6.x, %7
    32    %9 = iadd %8, %6.y
    32    %10 = ilt32 %6.x, %6.y
    32    %11 = bcsel %10, %9, %6.x
    32x2  %12 = vec2 %11, %9
    @store_ssbo (%12, %2, %5) (wrmask=y, access=none, align_mul=8, align_offset=0)
    32x2  %13 = @load_ssbo (%2, %5) (access=none, align_mul=8, align_offset=0)
    32    %14 = iadd %13.x, %11
    @store_ssbo (%14, %1, %5) (wrmask=x, access=none, align_mul=8, align_offset=0)
    // succs: b1
    block b1:
}
"#;
    check(&text, size, &[[0, 0, 0], [1, 0, 0]], 2, &[8, 16]);
}

/// Shared memory with a barrier: each invocation stores its value, the workgroup meets, and
/// each reads its neighbour's (reversed order), so the result depends on other channels.
#[test]
fn shared_memory_across_a_barrier() {
    let size = [8, 1, 1];
    let text = header("cs-shared", size, 64)
        + r#"impl main {
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    32    %2 = load_const (0x00000004)
    32    %3 = load_const (0x0000001c)
    32    %4 = imul %0, %2
    32    %5 = @load_ssbo (%1, %4) (access=none, align_mul=4, align_offset=0)
    32    %6 = iadd %5, %0
    @store_shared (%6, %4) (base=4, wrmask=x, align_mul=4, align_offset=0)
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, mem_semantics=ACQ|REL, mem_modes=shared)
    32    %7 = isub %3, %4
    32    %8 = @load_shared (%7) (base=4, align_mul=4, align_offset=0)
    32    %9 = load_const (0x00000100)
    32    %10 = iadd %4, %9
    32    %11 = imul %8, %6
    @store_ssbo (%11, %1, %10) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b1
    block b1:
}
"#;
    check(&text, size, &[[0, 0, 0], [3, 0, 0]], 1, &[8, 16]);
}

/// A barrier as Mesa 23.3's nir_print writes it (`mem_semantics=`, `mem_modes=`, shorter than
/// the index names) and as gpucc's older texts wrote it parse to one shader, printed Mesa's way.
#[test]
fn barrier_indices_in_mesa_spelling() {
    let mesa = "@barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, \
                mem_semantics=ACQ|REL, mem_modes=shared|ssbo)";
    let legacy = "@barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, \
                  memory_semantics=ACQ|REL, memory_modes=shared|ssbo)";
    let text = |barrier: &str| {
        header("cs-spelling", [8, 1, 1], 16)
            + &format!(
                "impl main {{\n    block b0:  // preds:\n    {barrier}\n    // succs: b1\n    block b1:\n}}\n"
            )
    };
    let a = nir::parse(&text(mesa)).unwrap();
    let b = nir::parse(&text(legacy)).unwrap();
    assert_eq!(a, b);
    assert!(nir::print(&a).contains(mesa), "{}", nir::print(&a));
}

/// Divergent control flow around SSBO traffic: a loop whose trip count comes from memory.
#[test]
fn divergent_loop_over_ssbo_data() {
    let size = [16, 1, 1];
    let text = common::compute::divergent_loop("cs-loop", size, 0x200);
    check(&text, size, &[[0, 0, 0], [2, 0, 0]], 1, &[8, 16]);
}

/// The program object describes the dispatch, and the gateway barrier is in the code.
#[test]
fn program_object_has_compute_facts() {
    let size = [8, 2, 1];
    let text = header("cs-facts", size, 128)
        + r#"impl main {
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    @store_shared (%0, %1) (base=0, wrmask=x, align_mul=4, align_offset=0)
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=shared)
    // succs: b1
    block b1:
}
"#;
    let shader = nir::parse(&text).unwrap();
    for p in PLATFORMS {
        let dev = DevInfo::from_name(p).unwrap();
        let k = Context::new(dev)
            .compile(&shader, &Options::widths(&[8, 16]))
            .unwrap();
        let c = k.compute.as_ref().expect("compute facts");
        assert_eq!(c.local_size, [8, 2, 1]);
        assert_eq!(c.shared_size, 128);
        assert_eq!(c.simd, 16);
        let asm = k.disassemble(dev);
        assert!(asm.contains("wait"), "{p}: barrier waits on n0:\n{asm}");
        assert!(asm.contains("EOT"), "{p}: thread ends:\n{asm}");
        assert!(k.flags == Default::default(), "no fragment flags");
    }
}

/// Mesa's compute width selection: a workgroup that fits in one SIMD8 thread gets no SIMD16
/// program (it would leave half the channels idle); one that needs more threads than the
/// device runs at once (ivb 64, hsw 70, bdw 56 compute threads) at a width is not compiled at
/// that width: 1024 invocations are 128 SIMD8 threads (too many everywhere) or 64 SIMD16
/// threads (ivb and hsw only).
#[test]
fn compute_widths_follow_the_workgroup_size() {
    let body = r#"impl main {
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    @store_ssbo (%0, %1, %1) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b1
    block b1:
}
"#;
    let widths = |p: &str, size: [u32; 3]| {
        let shader = nir::parse(&(header("cs-widths", size, 0) + body)).unwrap();
        let dev = DevInfo::from_name(p).unwrap();
        Context::new(dev)
            .compile(&shader, &Options::widths(&[8, 16]))
            .map(|k| k.simd.iter().map(|v| v.simd).collect::<Vec<_>>())
    };
    for p in PLATFORMS {
        assert_eq!(widths(p, [8, 1, 1]).unwrap(), [8], "{p}");
        assert_eq!(widths(p, [4, 2, 2]).unwrap(), [8, 16], "{p}");
    }
    assert_eq!(widths("ivb", [32, 32, 1]).unwrap(), [16]);
    assert_eq!(widths("hsw", [1024, 1, 1]).unwrap(), [16]);
    let err = widths("bdw", [32, 32, 1]).unwrap_err().to_string();
    assert!(err.contains("1024 invocations"), "{err}");
}

/// Features the backend does not implement are named.
#[test]
fn unsupported_compute_features_are_named() {
    let text = header("cs-numwg", [8, 1, 1], 0)
        + r#"impl main {
    block b0:  // preds:
    32x3  %0 = @load_num_workgroups () ()
    32    %1 = load_const (0x00000000)
    32    %2 = mov %0.x
    @store_ssbo (%2, %1, %1) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b1
    block b1:
}
"#;
    let shader = nir::parse(&text).unwrap();
    let ctx = Context::new(DevInfo::from_name("ivb").unwrap());
    match ctx.compile(&shader, &Options::widths(&[8])) {
        Err(CompileError::Unsupported(f)) => assert!(f.contains("load_num_workgroups"), "{f}"),
        other => panic!("expected an unsupported error, got {other:?}"),
    }
}

/// SSBO atomics against hand-derived results (the interpreter has no atomics): sixteen
/// invocations each add 1 to a counter that starts at 3, so the counter ends at 19 and the
/// old values returned are 3..=18, each exactly once; each invocation records its index + 1000
/// at the slot its old value names.
#[test]
fn ssbo_atomic_add_hands_out_distinct_slots() {
    let size = [16, 1, 1];
    let text = header("cs-atomic", size, 0)
        + r#"impl main {
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    32    %2 = load_const (0x00000001)
    32    %3 = @ssbo_atomic (%1, %1, %2) (access=none, atomic_op=iadd)
    32    %4 = load_const (0x00000004)
    32    %5 = imul %3, %4
    32    %6 = load_const (0x00000100)
    32    %7 = iadd %5, %6
    32    %8 = load_const (0x000003e8)
    32    %9 = iadd %0, %8
    @store_ssbo (%9, %1, %7) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b1
    block b1:
}
"#;
    let shader = nir::parse(&text).unwrap();
    assert_eq!(
        ssbo_init(0)[..4],
        3u32.to_le_bytes(),
        "the counter starts at 3"
    );
    for p in PLATFORMS {
        let dev = DevInfo::from_name(p).unwrap();
        for simd in [8, 16] {
            let k = Context::new(dev)
                .compile(&shader, &Options::widths(&[simd]))
                .unwrap_or_else(|e| panic!("{p} SIMD{simd}: {e}"));
            let got = simulate(dev, &k, simd, size, &[[0, 0, 0]], 1)
                .unwrap_or_else(|e| panic!("{p} SIMD{simd}: {e}"));
            let dword = |d: usize| u32::from_le_bytes(got[0][4 * d..4 * d + 4].try_into().unwrap());
            assert_eq!(dword(0), 19, "{p} SIMD{simd}: counter");
            let mut seen: Vec<u32> = (3..19).map(|old| dword(64 + old)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (1000..1016).collect::<Vec<u32>>(), "{p} SIMD{simd}");
        }
    }
}

/// A shared-memory atomic max, then a barrier: every invocation reads the workgroup's
/// largest index (7) back.
#[test]
fn shared_atomic_max_then_barrier() {
    let size = [8, 1, 1];
    let text = header("cs-shared-atomic", size, 16)
        + r#"impl main {
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    32    %2 = @shared_atomic (%1, %0) (base=4, atomic_op=umax)
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=shared)
    32    %3 = @load_shared (%1) (base=4, align_mul=4, align_offset=0)
    32    %4 = load_const (0x00000004)
    32    %5 = imul %0, %4
    @store_ssbo (%3, %1, %5) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b1
    block b1:
}
"#;
    let shader = nir::parse(&text).unwrap();
    for p in PLATFORMS {
        let dev = DevInfo::from_name(p).unwrap();
        for simd in [8, 16] {
            let k = Context::new(dev)
                .compile(&shader, &Options::widths(&[simd]))
                .unwrap_or_else(|e| panic!("{p} SIMD{simd}: {e}"));
            let got = simulate(dev, &k, simd, size, &[[0, 0, 0]], 1)
                .unwrap_or_else(|e| panic!("{p} SIMD{simd}: {e}"));
            for d in 0..8 {
                let v = u32::from_le_bytes(got[0][4 * d..4 * d + 4].try_into().unwrap());
                assert_eq!(v, 7, "{p} SIMD{simd}: invocation {d}");
            }
            assert_eq!(
                got[0][32..],
                ssbo_init(0)[32..],
                "{p} SIMD{simd}: rest untouched"
            );
        }
    }
}

/// A memory-only barrier (execution scope NONE) sends no gateway message.
#[test]
fn memory_barrier_without_execution_scope_does_not_wait() {
    let text = header("cs-membar", [8, 1, 1], 0)
        + r#"impl main {
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    @barrier () (execution_scope=NONE, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=ssbo)
    @store_ssbo (%0, %1, %1) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b1
    block b1:
}
"#;
    let shader = nir::parse(&text).unwrap();
    let dev = DevInfo::from_name("ivb").unwrap();
    let k = Context::new(dev)
        .compile(&shader, &Options::widths(&[8]))
        .unwrap();
    let asm = k.disassemble(dev);
    assert!(!asm.contains("wait"), "{asm}");
}
