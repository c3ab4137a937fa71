//! Compute shaders dispatched through the DRM layer onto the simulated i915 render node
//! (`sim:<target>`), which executes the batch as the hardware would, compared with the NIR
//! reference interpreter over every SSBO, on several local sizes and group grids. Multi-thread
//! groups with barriers run here too: the node switches threads at each barrier.
//!
//! Fault injection: the same dispatch with the CURBE shifted by one register, or the buffers
//! bound one binding-table entry off, must no longer match (so a dispatcher that disagreed
//! with the compiler on either would be caught).

mod common;

use common::compute::header;
use std::path::Path;

use gpucc::drm::i915::{Bo, ComputeLaunch, I915};
use gpucc::drm::{Device, Gpu};
use gpucc::intel::backend::{Context, Options};
use gpucc::intel::kernel::Kernel;
use gpucc::intel::DevInfo;
use gpucc::nir::{self, interp};

/// Targets whose compute batches the DRM layer builds.
const TARGETS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

/// Bytes of each SSBO (two pages: the node rounds buffers to pages, as the kernel does).
const SSBO_BYTES: usize = 8192;

fn ssbo_init(block: usize) -> Vec<u8> {
    (0..SSBO_BYTES / 4)
        .flat_map(|d| ((d as u32 * 7 + block as u32 * 1000 + 3) % 251).to_le_bytes())
        .collect()
}

/// UBO 0 (the push constants): dword d is 3(d + 1).
fn uniforms() -> Vec<u8> {
    (0..64u32)
        .flat_map(|d| (3 * (d + 1)).to_le_bytes())
        .collect()
}

/// Every invocation writes (local index, local id x, y, z) and (group x, y, z, u[4]) at 32 ×
/// its flat global index over a grid `grid` wide.
fn ids_shader(size: [u32; 3], grid: [u32; 3]) -> String {
    let n = size[0] * size[1] * size[2];
    header("sim-ids", size, 0)
        + &format!(
            r#"impl main {{
    block b0:  // preds:
    32x3  %0 = @load_local_invocation_id () ()
    32x3  %1 = @load_workgroup_id () ()
    32    %2 = @load_local_invocation_index () ()
    32    %3 = load_const (0x00000000)
    32    %4 = load_const ({gx:#010x})
    32    %5 = load_const ({gy:#010x})
    32    %6 = load_const ({n:#010x})
    32    %7 = load_const (0x00000020)
    32    %8 = imul %1.z, %5
    32    %9 = iadd %8, %1.y
    32    %10 = imul %9, %4
    32    %11 = iadd %10, %1.x
    32    %12 = imul %11, %6
    32    %13 = iadd %12, %2
    32    %14 = imul %13, %7
    32    %15 = load_const (0x00000010)
    32    %16 = @load_ubo (%3, %15) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)
    32x4  %17 = vec4 %2, %0.x, %0.y, %0.z
    @store_ssbo (%17, %3, %14) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
    32    %18 = iadd %14, %15
    32x4  %19 = vec4 %1.x, %1.y, %1.z, %16
    @store_ssbo (%19, %3, %18) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
    // succs: b1
    block b1:
}}
"#,
            gx = grid[0],
            gy = grid[1],
        )
}

/// SSBO loads, a push constant, a partial write mask, a second block (tests/fs_compute.rs).
fn ssbo_shader(size: [u32; 3]) -> String {
    header("sim-ssbo", size, 0)
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
"#
}

/// Shared memory across a barrier: each invocation stores, the group meets, each reads the
/// value of invocation n - 1 - i (so across threads when the group has several).
fn shared_shader(n: u32) -> String {
    header("sim-shared", [n, 1, 1], 4 * n + 4)
        + &format!(
            r#"impl main {{
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    32    %2 = load_const (0x00000004)
    32    %3 = load_const ({last:#010x})
    32    %4 = imul %0, %2
    32    %5 = @load_ssbo (%1, %4) (access=none, align_mul=4, align_offset=0)
    32    %6 = iadd %5, %0
    @store_shared (%6, %4) (base=4, wrmask=x, align_mul=4, align_offset=0)
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=shared)
    32    %7 = isub %3, %4
    32    %8 = @load_shared (%7) (base=4, align_mul=4, align_offset=0)
    32    %9 = load_const (0x00000400)
    32    %10 = iadd %4, %9
    32    %11 = imul %8, %6
    @store_ssbo (%11, %1, %10) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b1
    block b1:
}}
"#,
            last = 4 * (n - 1)
        )
}

/// A loop whose trip count comes from memory (divergent control flow).
fn loop_shader(size: [u32; 3]) -> String {
    common::compute::divergent_loop("sim-loop", size, 0x400)
}

/// The groups of a grid in the walker's order (x fastest).
fn grid_groups(grid: [u32; 3]) -> Vec<[u32; 3]> {
    let mut v = Vec::new();
    for z in 0..grid[2] {
        for y in 0..grid[1] {
            for x in 0..grid[0] {
                v.push([x, y, z]);
            }
        }
    }
    v
}

fn interpret(shader: &nir::Shader, size: [u32; 3], grid: [u32; 3], nssbo: usize) -> Vec<Vec<u8>> {
    let shared = shader
        .info
        .field("shared_size")
        .and_then(|s| s.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut ssbos: Vec<Vec<u8>> = (0..nssbo).map(ssbo_init).collect();
    for wg in grid_groups(grid) {
        let env = interp::Environment {
            ssbos: ssbos.clone(),
            shared: vec![0; shared.max(4)],
            ubos: vec![uniforms()],
            workgroup_id: wg,
            workgroup_size: size,
            ..Default::default()
        };
        let n = (size[0] * size[1] * size[2]) as usize;
        ssbos = interp::run(shader, &env, n).expect("interpreter run").ssbos;
    }
    ssbos
}

fn i915(dev: &mut Device) -> &mut I915 {
    match dev.gpu_mut() {
        Gpu::I915(g) => g,
        Gpu::Etnaviv(_) => panic!("a simulated node is i915"),
    }
}

/// Uploads the kernel and the SSBOs to a fresh simulated node, launches `grid` groups (after
/// `tweak` edits the launch) and reads the SSBOs back.
/// An edit of a launch before it is submitted (fault injection).
type Tweak = dyn Fn(&mut ComputeLaunch);

fn on_node(
    target: &str,
    k: &Kernel,
    grid: [u32; 3],
    nssbo: usize,
    tweak: &Tweak,
) -> Result<Vec<Vec<u8>>, String> {
    let path = format!("sim:{target}");
    let mut dev = Device::open(Some(Path::new(&path))).map_err(|e| e.to_string())?;
    assert_eq!(dev.target(), target);
    let g = i915(&mut dev);
    let code = g.upload(&k.code).map_err(|e| e.to_string())?;
    let bufs: Vec<Bo> = (0..nssbo)
        .map(|b| g.upload(&ssbo_init(b)).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let mut launch = ComputeLaunch::for_kernel(k, &uniforms(), grid).map_err(|e| e.to_string())?;
    tweak(&mut launch);
    g.launch(&code, &launch, &bufs).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for b in &bufs {
        let mut bytes = vec![0; SSBO_BYTES];
        g.read_bo(b, 0, &mut bytes).map_err(|e| e.to_string())?;
        out.push(bytes);
    }
    Ok(out)
}

/// The first dword where the two sets of SSBOs differ.
fn first_difference(want: &[Vec<u8>], got: &[Vec<u8>]) -> Option<String> {
    for (b, (w, g)) in want.iter().zip(got).enumerate() {
        if let Some(d) = (0..w.len() / 4).find(|d| w[4 * d..4 * d + 4] != g[4 * d..4 * d + 4]) {
            return Some(format!(
                "SSBO {b} dword {d}: expected {:?}, got {:?}",
                &w[4 * d..4 * d + 4],
                &g[4 * d..4 * d + 4]
            ));
        }
    }
    None
}

/// The injected dispatcher faults: the CURBE shifted by one register (every thread's
/// payload lands one register late), and the buffers bound one binding-table entry past
/// where the compiler's SSBO accesses point.
fn faults() -> [(&'static str, &'static Tweak); 2] {
    fn shift_curbe(l: &mut ComputeLaunch) {
        let mut c = vec![0u8; 32];
        c.extend_from_slice(&l.push_constants);
        c.truncate(l.push_constants.len());
        l.push_constants = c;
    }
    fn wrong_binding(l: &mut ComputeLaunch) {
        l.first_binding += 1;
    }
    [
        ("CURBE offset", &shift_curbe),
        ("binding-table index", &wrong_binding),
    ]
}

/// Compiles `text` for each target, at the backend's own width and at each of `widths`,
/// dispatches on the node for every grid and compares with the interpreter; each injected
/// fault must make the comparison fail.
fn check(text: &str, size: [u32; 3], grids: &[[u32; 3]], nssbo: usize, widths: &[u32]) {
    let shader = nir::parse(text).expect("shader parses");
    for &grid in grids {
        let want = interpret(&shader, size, grid, nssbo);
        assert_ne!(
            want,
            (0..nssbo).map(ssbo_init).collect::<Vec<_>>(),
            "the shader writes something"
        );
        for target in TARGETS {
            let dev = DevInfo::from_name(target).unwrap();
            let mut options = vec![Options::default()];
            options.extend(widths.iter().map(|&w| Options::widths(&[w])));
            for o in &options {
                let k = Context::new(dev)
                    .compile(&shader, o)
                    .unwrap_or_else(|e| panic!("{target}: {e}"));
                let simd = k.compute.as_ref().unwrap().simd;
                let what = format!("{target} SIMD{simd} local {size:?} grid {grid:?}");
                let got = on_node(target, &k, grid, nssbo, &|_| {})
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                if let Some(d) = first_difference(&want, &got) {
                    panic!("{what}: {d}");
                }
                for (name, fault) in faults() {
                    let diff = match on_node(target, &k, grid, nssbo, fault) {
                        Ok(got) => first_difference(&want, &got),
                        Err(e) => Some(e),
                    };
                    assert!(diff.is_some(), "{what}: a wrong {name} went unnoticed");
                }
            }
        }
    }
}

#[test]
fn ids_match_the_interpreter() {
    for size in [[4, 3, 2], [16, 1, 1], [20, 1, 1], [8, 4, 1], [1, 1, 1]] {
        let grids: &[[u32; 3]] = &[[1, 1, 1], [3, 2, 1], [2, 1, 2]];
        for &grid in grids {
            check(&ids_shader(size, grid), size, &[grid], 1, &[8, 16]);
        }
    }
}

#[test]
fn ssbo_traffic_matches_the_interpreter() {
    for size in [[16, 1, 1], [40, 1, 1], [8, 2, 1]] {
        check(
            &ssbo_shader(size),
            size,
            &[[1, 1, 1], [2, 1, 1]],
            2,
            &[8, 16],
        );
    }
}

#[test]
fn divergent_loops_match_the_interpreter() {
    for size in [[16, 1, 1], [20, 1, 1]] {
        check(
            &loop_shader(size),
            size,
            &[[1, 1, 1], [3, 1, 1]],
            1,
            &[8, 16],
        );
    }
}

/// Groups of one, two and four threads meeting at a barrier: the reads cross threads, so
/// the node's switching at the barrier is what makes the results right.
#[test]
fn barriers_across_threads_match_the_interpreter() {
    for n in [8, 24, 32] {
        check(
            &shared_shader(n),
            [n, 1, 1],
            &[[1, 1, 1], [2, 1, 1]],
            1,
            &[8, 16],
        );
    }
}

/// SSBO atomics (the interpreter has none, so by hand): 32 invocations in each of 3 groups
/// add 1 to a counter starting at 3; it ends at 99 and every old value 3..99 is handed out
/// once, each recording its local index + 1000 at slot 64 + old.
#[test]
fn atomics_hand_out_distinct_slots() {
    let text = header("sim-atomic", [32, 1, 1], 0)
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
    for target in TARGETS {
        let k = Context::new(DevInfo::from_name(target).unwrap())
            .compile(&shader, &Options::default())
            .unwrap();
        let got = on_node(target, &k, [3, 1, 1], 1, &|_| {}).unwrap();
        let dword = |d: usize| u32::from_le_bytes(got[0][4 * d..4 * d + 4].try_into().unwrap());
        assert_eq!(dword(0), 99, "{target}: counter");
        let mut seen: Vec<u32> = (3..99).map(|old| dword(64 + old)).collect();
        seen.sort_unstable();
        let mut want: Vec<u32> = (0..3).flat_map(|_| 1000..1032).collect();
        want.sort_unstable();
        assert_eq!(seen, want, "{target}");
    }
}

/// A deliberately wrong dispatcher is caught: the CURBE shifted by one register (the local
/// ids land in the wrong registers) or the buffers bound one entry past where the compiler's
/// SSBO accesses point (the writes hit a null surface) no longer match the interpreter.
#[test]
fn injected_dispatch_faults_are_caught() {
    let size = [8, 4, 1];
    let grid = [2, 1, 1];
    let text = ids_shader(size, grid);
    let shader = nir::parse(&text).unwrap();
    let want = interpret(&shader, size, grid, 1);
    for target in TARGETS {
        let k = Context::new(DevInfo::from_name(target).unwrap())
            .compile(&shader, &Options::default())
            .unwrap();
        let right = on_node(target, &k, grid, 1, &|_| {}).unwrap();
        assert_eq!(first_difference(&want, &right), None, "{target}");
        for (name, fault) in faults() {
            let diff = match on_node(target, &k, grid, 1, fault) {
                Ok(got) => first_difference(&want, &got),
                Err(e) => Some(e),
            };
            assert!(diff.is_some(), "{target}: a wrong {name} went unnoticed");
        }
    }
}

/// What the node does not model is refused by name: an unknown command with its dword, and a
/// target it cannot play.
#[test]
fn unmodelled_commands_are_named() {
    use gpucc::drm::i915::exec_list;
    use gpucc::drm::i915::Batch;
    for target in TARGETS {
        let mut dev = Device::open(Some(Path::new(&format!("sim:{target}")))).unwrap();
        let g = i915(&mut dev);
        // MI_NOOP, then PIPE_CONTROL (3D pipeline, opcode 2, sub-opcode 0, 4 dwords).
        let dwords = vec![0u32, 0x7a00_0002, 0, 0, 0, 0x0500_0000, 0];
        let bytes: Vec<u8> = dwords.iter().flat_map(|d| d.to_le_bytes()).collect();
        let batch_bo = g.upload(&bytes).unwrap();
        let program = g.upload(&[0; 64]).unwrap();
        let batch = Batch {
            dwords,
            command_bytes: bytes.len() as u32,
            relocs: Vec::new(),
        };
        let softpin = g.uses_softpin();
        let exec = exec_list(&batch, &batch_bo, &program, &[], softpin).unwrap();
        let e = g
            .execbuffer(&exec, batch.command_bytes)
            .unwrap_err()
            .to_string();
        assert!(e.contains("command 0x7a000002 at dword 1"), "{target}: {e}");
    }
    let e = Device::open(Some(Path::new("sim:g4x")))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("no simulated render node for 'g4x'"), "{e}");
}

/// GPUCC_SIM_NODE makes a device opened without a path the simulated node; an unknown
/// target is named.
#[test]
fn the_environment_picks_a_simulated_node() {
    std::env::set_var(gpucc::drm::device::SIM_NODE_ENV, "hsw");
    let dev = Device::open(None).map(|d| (d.target(), d.path().to_path_buf()));
    std::env::set_var(gpucc::drm::device::SIM_NODE_ENV, "vax");
    let bad = Device::open(None).err().map(|e| e.to_string());
    std::env::remove_var(gpucc::drm::device::SIM_NODE_ENV);
    let (target, path) = dev.unwrap();
    assert_eq!((target, path.to_str().unwrap()), ("hsw", "sim:hsw"));
    assert!(bad.unwrap().contains("no simulated render node for 'vax'"));
}
