//! Compute shaders as iris and crocus hand them to the backend: `brw_nir_lower_cs_intrinsics`
//! has turned the local ids into arithmetic on `load_subgroup_id`, `load_simd_width_intel`
//! and `load_subgroup_invocation`, and the driver analysed no UBO ranges, so the program may
//! push nothing but the subgroup id (the CURBE `iris_fill_cs_push_const_buffer` writes) and
//! pulls every uniform.
//!
//! The expected values are worked out by hand from how a driver dispatches a workgroup
//! (thread t gets subgroup id t; its channel c is invocation `t × width + c`) and from brw's
//! rules for cutting ranges to the push limit, then every program is run on the simulator
//! against the interpreter on ivb, hsw, bdw and skl.

mod common;

use common::compute::{assert_verifies, compile, header, parse, range};
use gpucc::compiler::{BindingModel, CompileOptions, Compiler};
use gpucc::intel::cs_dispatch::PushBlock;
use gpucc::intel::kernel::CsParam;
use gpucc::intel::ubo_ranges::{DriverRanges, UboRange};
use gpucc::nir::interp;

const PLATFORMS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

fn options(binding: BindingModel) -> CompileOptions {
    CompileOptions {
        binding,
        ..Default::default()
    }
}

/// Mesa's model with the ranges the driver gave (none: iris's and crocus's compute).
fn driver(ranges: &[UboRange]) -> CompileOptions {
    options(BindingModel::MesaDriverRanges(
        DriverRanges::new(ranges).unwrap(),
    ))
}

/// What `brw_nir_lower_cs_intrinsics` leaves of a shader storing, for each invocation of an
/// 8x4 workgroup, (local index, x, y, subgroup id) at 16 × local index of SSBO 0, and the
/// number of subgroups at byte 512: the index is `subgroup id × simd width + invocation`,
/// x-major (no textures) so x = index % 8, y = index / 8 (as `nir_umod_imm` and
/// `nir_udiv_imm` give them for a power of two: a mask and a shift).
fn lowered_ids_shader() -> String {
    header("cs-lowered-ids", [8, 4, 1], 0)
        + "impl main {\n    block b0:  // preds:\n\
    32    %0 = @load_subgroup_id () ()\n\
    32    %1 = @load_simd_width_intel () ()\n\
    32    %2 = imul %0, %1\n\
    32    %3 = @load_subgroup_invocation () ()\n\
    32    %4 = iadd %2, %3\n\
    32    %5 = load_const (0x00000007)\n\
    32    %6 = iand %4, %5\n\
    32    %14 = load_const (0x00000003)\n\
    32    %7 = ushr %4, %14\n\
    32    %8 = load_const (0x00000010)\n\
    32    %9 = imul %4, %8\n\
    32    %10 = load_const (0x00000000)\n\
    32x4  %11 = vec4 %4, %6, %7, %0\n\
    @store_ssbo (%11, %10, %9) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)\n\
    32    %12 = @load_num_subgroups () ()\n\
    32    %13 = load_const (0x00000200)\n\
    @store_ssbo (%12, %10, %13) (wrmask=x, access=none, align_mul=4, align_offset=0)\n\
    // succs: b1\n    block b1:\n}\n"
}

/// The interpreter's meaning of the three intrinsics, against values worked out by hand: in
/// SIMD8 and SIMD16 threads, invocation i of the 32 is channel i % width of subgroup
/// i / width, and the 32 invocations make 4 or 2 subgroups.
#[test]
fn interpreter_numbers_subgroups_as_a_driver_dispatches_them() {
    let shader = parse(&lowered_ids_shader());
    for width in [8u32, 16] {
        let env = interp::Environment {
            ssbos: vec![vec![0; 516]],
            workgroup_size: [8, 4, 1],
            simd_width: width,
            ..Default::default()
        };
        let out = interp::run(&shader, &env, 32).unwrap();
        let word =
            |d: usize| u32::from_le_bytes(out.ssbos[0][4 * d..4 * d + 4].try_into().unwrap());
        for i in 0..32u32 {
            let at = 4 * i as usize;
            assert_eq!(
                [word(at), word(at + 1), word(at + 2), word(at + 3)],
                [i, i % 8, i / 8, i / width],
                "SIMD{width} invocation {i}"
            );
        }
        assert_eq!(word(128), 32 / width, "SIMD{width} subgroups");
    }
    // Without a width the intrinsics have no meaning: an error, not a guess.
    let env = interp::Environment {
        ssbos: vec![vec![0; 516]],
        workgroup_size: [8, 4, 1],
        ..Default::default()
    };
    let err = interp::run(&shader, &env, 32).unwrap_err().to_string();
    assert!(err.contains("load_subgroup_id"), "{err}");
}

/// The lowered shader compiles under the driver's (empty) ranges into the layout iris and
/// crocus assert, one param, the subgroup id, in one per-thread register, and verifies at
/// every width on every platform.
#[test]
fn lowered_ids_compile_and_verify_with_the_subgroup_id_alone() {
    let text = lowered_ids_shader();
    for t in PLATFORMS {
        let k = compile(t, &text, &driver(&[]));
        assert!(k.ubo_ranges.is_empty(), "{t}");
        assert_eq!(k.cs_params(), [CsParam::SubgroupId], "{t}");
        let push = k.cs_push().unwrap();
        assert_eq!(push.cross_thread, PushBlock::of_dwords(0), "{t}");
        assert_eq!(push.per_thread, PushBlock::of_dwords(1), "{t}");
        assert_eq!(push.local_id_regs, 0, "{t}");
        assert_verifies(t, &text, &driver(&[]), "lowered ids");
    }
}

/// A workgroup that fits in one thread has subgroup id 0 (`brw_nir_lower_simd` folds it):
/// a 4x2 workgroup stores 0 for every invocation, and the program still verifies.
#[test]
fn one_thread_workgroups_read_subgroup_id_zero() {
    let text = lowered_ids_shader().replace("workgroup_size: 8, 4, 1", "workgroup_size: 4, 2, 1");
    for t in PLATFORMS {
        assert_verifies(t, &text, &driver(&[]), "4x2");
    }
}

/// gpucc's own layout pushes local ids and no subgroup id: the lowered form is refused by
/// name there.
#[test]
fn subgroup_id_needs_mesa_binding_model() {
    let err = Compiler::new("bdw")
        .unwrap()
        .compile(&parse(&lowered_ids_shader()), &CompileOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("load_subgroup_id"), "{err}");
    assert!(err.contains("binding model"), "{err}");
}

/// Each invocation adds UBO 2's dwords 1, 10 and 40 (bytes 4, 40, 160: registers 0, 1 and
/// 5) and stores the sum at 4 × its index.
fn uniforms_shader() -> String {
    let load = |def: u32, off: u32| {
        format!(
            "    32    %{def} = @load_ubo (%1, %{off}) (access=none, align_mul=4, \
             align_offset=0, range_base=0, range=-1)\n"
        )
    };
    header("cs-uniforms", [16, 1, 1], 0)
        + "impl main {\n    block b0:  // preds:\n\
    32    %0 = @load_local_invocation_index () ()\n\
    32    %1 = load_const (0x00000002)\n\
    32    %2 = load_const (0x00000004)\n\
    32    %3 = load_const (0x00000028)\n\
    32    %4 = load_const (0x000000a0)\n"
        + &load(5, 2)
        + &load(6, 3)
        + &load(7, 4)
        + "    32    %8 = iadd %5, %6\n\
    32    %9 = iadd %8, %7\n\
    32    %10 = imul %0, %2\n\
    32    %11 = load_const (0x00000000)\n\
    @store_ssbo (%9, %11, %10) (wrmask=x, access=none, align_mul=4, align_offset=0)\n\
    // succs: b1\n    block b1:\n}\n"
}

/// With no ranges from the driver every uniform is pulled from the UBO's own slot; with the
/// driver's ranges exactly those are pushed, whatever gpucc would have chosen (its own
/// choice by brw's rule: the run of registers 0-1, two loads, score 2 × 2 - 2 = 2, then
/// register 5, one load, score 1), and what they miss is pulled.
#[test]
fn driver_ranges_are_pushed_as_given() {
    let text = uniforms_shader();
    for t in PLATFORMS {
        let none = compile(t, &text, &driver(&[]));
        assert!(none.ubo_ranges.is_empty(), "{t}");
        assert_eq!(none.pull_constant_blocks, vec![2], "{t}");
        assert_verifies(t, &text, &driver(&[]), "no ranges");

        let own = compile(t, &text, &options(BindingModel::Mesa));
        assert_eq!(own.ubo_ranges, [range(2, 0, 2), range(2, 5, 1)], "{t}");

        // Register 5 alone: dword 40 pushed, dwords 1 and 10 pulled.
        let given = [range(2, 5, 1)];
        let k = compile(t, &text, &driver(&given));
        assert_eq!(k.ubo_ranges, given, "{t}");
        assert_eq!(k.pull_constant_blocks, vec![2], "{t}");
        let mut want: Vec<CsParam> = (0..8)
            .map(|d| CsParam::Uniform {
                block: 2,
                offset: 160 + 4 * d,
            })
            .collect();
        want.push(CsParam::SubgroupId);
        assert_eq!(k.cs_params(), want, "{t}");
        assert_verifies(t, &text, &driver(&given), "register 5 pushed");
    }
}

/// brw's backend cuts the ranges to the push limit in order (63 registers in a compute
/// program, whose subgroup id takes the 64th): 40 + 40 registers become 40 + 23, and a third
/// range gets nothing and is left out. An empty range in the middle pushes nothing.
#[test]
fn driver_ranges_are_cut_to_the_push_limit_as_brw_cuts_them() {
    let text = uniforms_shader();
    let given = [
        range(2, 0, 40),
        range(3, 0, 0),
        range(4, 10, 40),
        range(5, 0, 8),
    ];
    for t in ["hsw", "skl"] {
        let k = compile(t, &text, &driver(&given));
        assert_eq!(k.ubo_ranges, [range(2, 0, 40), range(4, 10, 23)], "{t}");
        assert_eq!(k.cs_params().len(), 63 * 8 + 1, "{t}");
        assert!(k.pull_constant_blocks.is_empty(), "{t}");
    }
}

/// The command line takes the driver's ranges (`--binding mesa:ranges=...`) and rejects a
/// malformed list by name.
#[test]
fn command_line_takes_driver_ranges() {
    let dir = std::env::temp_dir().join(format!("gpucc-cs-handover-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("u.nir");
    std::fs::write(&file, uniforms_shader()).unwrap();
    let run = |binding: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gpucc"))
            .args([
                "compile",
                "--target",
                "bdw",
                "--binding",
                binding,
                "--stats",
            ])
            .arg(&file)
            .output()
            .unwrap()
    };
    for ok in [
        "mesa:ranges=",
        "mesa:ranges=2/5/1",
        "mesa:ranges=2/0/1,4/3/2",
    ] {
        let out = run(ok);
        assert!(
            out.status.success(),
            "{ok}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for (bad, why) in [
        ("mesa:ranges=2/5", "not BLOCK/START/LENGTH"),
        ("mesa:ranges=2/60/8", "past register 64"),
        ("mesa:ranges=1/0/1,1/1/1,1/2/1,1/3/1,1/4/1", "Mesa has four"),
        ("iris", "is not gpucc, mesa"),
    ] {
        let out = run(bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(why), "{bad}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `gpucc report` compiles each shader with the key and binding model of its `NAME.nir.key`
/// (what a driver's GPUCC_MESA_DUMP writes beside it): the same uniforms shader pushes its
/// three dwords without a key file (one SSBO write and the thread-end message: 2 sends per
/// width) and pulls them with `binding=mesa:ranges=` (more sends); a malformed key file is
/// reported by name and the shader left out.
#[test]
fn report_reads_key_files_beside_the_shaders() {
    let dir = std::env::temp_dir().join(format!("gpucc-cs-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["pushed", "pulled", "broken"] {
        std::fs::write(dir.join(format!("{name}.nir")), uniforms_shader()).unwrap();
    }
    std::fs::write(dir.join("pulled.nir.key"), "binding=mesa:ranges=\n").unwrap();
    std::fs::write(dir.join("broken.nir.key"), "flat_shade\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpucc"))
        .args(["report", "--target", "bdw", "--binding", "mesa"])
        .arg(&dir)
        .output()
        .unwrap();
    let csv = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("broken.nir.key: `flat_shade` is not NAME=VALUE"),
        "{err}"
    );
    let sends = |name: &str| -> Vec<u32> {
        csv.lines()
            .filter(|l| l.starts_with(&format!("{name},")))
            .map(|l| l.split(',').nth(7).unwrap().parse().unwrap())
            .collect()
    };
    let (pushed, pulled) = (sends("pushed"), sends("pulled"));
    assert!(!pushed.is_empty() && pushed.len() == pulled.len(), "{csv}");
    assert!(pushed.iter().all(|&s| s == 2), "{csv}");
    assert!(pulled.iter().all(|&s| s > 2), "{csv}");
    assert!(sends("broken").is_empty(), "{csv}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Each invocation writes its index to shared memory, meets the workgroup at a barrier and
/// stores its neighbour's value ((index + 1) % size) at 4 × its index of SSBO 0.
fn barrier_shader(size: u32) -> String {
    header("cs-barrier", [size, 1, 1], 4 * size)
        + &format!(
            "impl main {{\n    block b0:  // preds:\n\
    32    %0 = @load_local_invocation_index () ()\n\
    32    %1 = load_const (0x00000000)\n\
    32    %2 = load_const (0x00000004)\n\
    32    %3 = load_const (0x00000001)\n\
    32    %4 = load_const ({:#010x})\n\
    32    %5 = imul %0, %2\n\
    @store_shared (%0, %5) (base=0, wrmask=x, align_mul=4, align_offset=0)\n\
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=shared)\n\
    32    %6 = iadd %0, %3\n\
    32    %7 = iand %6, %4\n\
    32    %8 = imul %7, %2\n\
    32    %9 = @load_shared (%8) (base=0, align_mul=4, align_offset=0)\n\
    @store_ssbo (%9, %1, %5) (wrmask=x, access=none, align_mul=4, align_offset=0)\n\
    // succs: b1\n    block b1:\n}}\n",
            size - 1
        )
}

/// brw emits no gateway barrier where the workgroup fits in one thread (its invocations run
/// in lockstep) and then does not report `uses_barrier`: an 8-invocation workgroup has none
/// at SIMD8 or SIMD16, a 32-invocation one keeps it.
#[test]
fn one_thread_workgroups_need_no_barrier() {
    for t in PLATFORMS {
        let small = compile(t, &barrier_shader(8), &driver(&[]));
        assert!(
            !small.compute.as_ref().unwrap().uses_barrier,
            "{t} 8 invocations"
        );
        assert_verifies(t, &barrier_shader(8), &driver(&[]), "8 invocations");
        let large = compile(t, &barrier_shader(32), &driver(&[]));
        assert!(
            large.compute.as_ref().unwrap().uses_barrier,
            "{t} 32 invocations"
        );
    }
}
