//! Compute programs in Mesa's push layout (`BindingModel::Mesa`): the params are the pushed
//! UBO ranges' dwords and then the subgroup id, split into cross-thread and per-thread data as
//! brw's `cs_fill_push_const_info` splits them, and the shader computes its local ids from the
//! subgroup id and its channel as `brw_nir_lower_cs_intrinsics` does.
//!
//! The layout figures below are worked out by hand from Mesa 23.3's rules, not read back from
//! gpucc: `brw_nir_analyze_ubo_ranges` (runs of touched 32-byte chunks, three ranges at most
//! in a compute shader), the params (ranges in order, `BRW_PARAM_BUILTIN_SUBGROUP_ID` last),
//! and the split (Gen7: everything per-thread; Gen7.5+: `8 * ((nr_params - 1) / 8)`
//! cross-thread dwords, the rest per-thread). Every shader is also run on the simulator from
//! the CURBE a driver would build and compared with the interpreter, on ivb, hsw, bdw and skl.
//!
//! The shared corpus has no compute shaders (its Intel files are vertex and fragment shaders),
//! so the shaders are hand-written here, and `gpucc fuzz-diff --stage cs --binding mesa` runs
//! generated ones.

mod common;

use std::process::Command;

use common::compute::{assert_verifies, compile, divergent_loop, header, parse, range};
use gpucc::compiler::{BindingModel, CompileOptions, Compiler};
use gpucc::intel::cs_dispatch::PushBlock;
use gpucc::intel::kernel::{CsParam, CsPushLayout, Kernel};
use gpucc::intel::ubo_ranges::UboRange;
use gpucc::verify::VerifyOutcome;

const PLATFORMS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

fn mesa() -> CompileOptions {
    CompileOptions {
        binding: BindingModel::Mesa,
        ..Default::default()
    }
}

/// A scalar `load_ubo` of block `%blk` at the offset value `%off` into `%def`.
fn ubo(def: u32, blk: u32, off: u32) -> String {
    format!(
        "    32    %{def} = @load_ubo (%{blk}, %{off}) (access=none, align_mul=4, \
         align_offset=0, range_base=0, range=-1)\n"
    )
}

/// Every invocation stores (index × u[2] + u[0], local id x, y, z) into SSBO 0 and its global
/// id into SSBO 1, at 16 × (its index in a grid two workgroups wide); u is UBO 2, pushed.
/// `extra` goes into the header (num_textures, derivative_group, ...).
fn ids_shader(size: [u32; 3], extra: &str) -> String {
    let n = size[0] * size[1] * size[2];
    let text = header("cs-ids", size, 0)
        + &format!(
            "impl main {{\n    block b0:  // preds:\n\
    32    %0 = @load_local_invocation_index () ()\n\
    32x3  %1 = @load_local_invocation_id () ()\n\
    32x3  %2 = @load_workgroup_id () ()\n\
    32x3  %3 = @load_global_invocation_id () ()\n\
    32    %4 = load_const (0x00000000)\n\
    32    %5 = load_const (0x00000001)\n\
    32    %6 = load_const (0x00000002)\n\
    32    %7 = load_const (0x00000008)\n\
{}{}\
    32    %10 = load_const (0x00000010)\n\
    32    %11 = load_const ({n:#010x})\n\
    32    %12 = imul %2.y, %6\n\
    32    %13 = iadd %12, %2.x\n\
    32    %14 = imul %13, %11\n\
    32    %15 = iadd %14, %0\n\
    32    %16 = imul %0, %8\n\
    32    %17 = iadd %16, %9\n\
    32    %18 = imul %15, %10\n\
    32x4  %19 = vec4 %17, %1.x, %1.y, %1.z\n\
    @store_ssbo (%19, %4, %18) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)\n\
    32x4  %20 = vec4 %3.x, %3.y, %3.z, %0\n\
    @store_ssbo (%20, %5, %18) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)\n\
    // succs: b1\n    block b1:\n}}\n",
            ubo(8, 6, 7),
            ubo(9, 6, 4),
        );
    text.replacen("shared_size: 0\n", &format!("shared_size: 0\n{extra}"), 1)
}

/// Reads UBO 2 at a per-invocation offset (a pull) and at byte 16 (pushed): SSBO 0 gets their
/// sum at 4 × local index.
fn pull_shader() -> String {
    header("cs-pull", [8, 4, 1], 0)
        + &format!(
            "impl main {{\n    block b0:  // preds:\n\
    32    %0 = @load_local_invocation_index () ()\n\
    32    %1 = load_const (0x00000000)\n\
    32    %2 = load_const (0x00000002)\n\
    32    %3 = load_const (0x00000004)\n\
    32    %4 = imul %0, %3\n\
{}\
    32    %6 = load_const (0x00000010)\n\
{}\
    32    %8 = iadd %5, %7\n\
    @store_ssbo (%8, %1, %4) (wrmask=x, access=none, align_mul=4, align_offset=0)\n\
    // succs: b1\n    block b1:\n}}\n",
            ubo(5, 2, 4),
            ubo(7, 2, 6),
        )
}

/// Eight invocations (one thread at SIMD8) meet at a barrier: each stores index + u[1] in
/// shared memory, then adds its neighbour's value to u[3] and multiplies by u[2] into SSBO 0.
/// u is UBO 1.
fn barrier_shader() -> String {
    header("cs-barrier", [8, 1, 1], 32)
        + &format!(
            "impl main {{\n    block b0:  // preds:\n\
    32    %0 = @load_local_invocation_index () ()\n\
    32    %1 = load_const (0x00000000)\n\
    32    %2 = load_const (0x00000004)\n\
    32    %3 = load_const (0x0000000c)\n\
    32    %4 = load_const (0x00000008)\n\
    32    %20 = load_const (0x00000001)\n\
    32    %21 = load_const (0x00000007)\n\
{}{}{}\
    32    %8 = imul %0, %2\n\
    32    %9 = iadd %5, %0\n\
    @store_shared (%9, %8) (base=0, wrmask=x, align_mul=4, align_offset=0)\n\
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=shared)\n\
    32    %22 = iadd %0, %20\n\
    32    %23 = iand %22, %21\n\
    32    %24 = imul %23, %2\n\
    32    %10 = @load_shared (%24) (base=0, align_mul=4, align_offset=0)\n\
    32    %11 = iadd %10, %6\n\
    32    %12 = imul %11, %7\n\
    @store_ssbo (%12, %1, %8) (wrmask=x, access=none, align_mul=4, align_offset=0)\n\
    // succs: b1\n    block b1:\n}}\n",
            ubo(5, 20, 2),
            ubo(6, 20, 3),
            ubo(7, 20, 4),
        )
}

/// One invocation per thread channel of an 8x4x1 workgroup reads the dwords at the byte
/// offsets `offsets` of UBO `block` (constant offsets) and stores their sum at 4 × its local
/// index in SSBO 0.
fn sum_shader(block: u32, offsets: &[u32]) -> String {
    let loads: Vec<(u32, u32)> = offsets.iter().map(|&off| (block, off)).collect();
    ubo_sum_shader("cs-sum", &loads)
}

/// The local index and one dword from each of UBOs `blocks` (byte 0 of each), summed into
/// SSBO 0 at 4 × the local index.
fn blocks_shader(blocks: &[u32]) -> String {
    let loads: Vec<(u32, u32)> = blocks.iter().map(|&b| (b, 0)).collect();
    ubo_sum_shader("cs-blocks", &loads)
}

/// The local index plus the dword of each (UBO block, byte offset) in `loads`, stored into
/// SSBO 0 at 4 × the local index.
fn ubo_sum_shader(name: &str, loads: &[(u32, u32)]) -> String {
    let mut body = String::from(
        "    32    %0 = @load_local_invocation_index () ()\n\
         \x20   32    %1 = load_const (0x00000000)\n\
         \x20   32    %2 = load_const (0x00000004)\n\
         \x20   32    %3 = imul %0, %2\n",
    );
    let (mut acc, mut next) = (0, 4);
    for &(block, off) in loads {
        body.push_str(&format!("    32    %{next} = load_const ({block:#010x})\n"));
        body.push_str(&format!(
            "    32    %{} = load_const ({off:#010x})\n",
            next + 1
        ));
        body.push_str(&ubo(next + 2, next, next + 1));
        body.push_str(&format!(
            "    32    %{} = iadd %{acc}, %{}\n",
            next + 3,
            next + 2
        ));
        acc = next + 3;
        next += 4;
    }
    header(name, [8, 4, 1], 0)
        + &format!(
            "impl main {{\n    block b0:  // preds:\n{body}\
    @store_ssbo (%{acc}, %1, %3) (wrmask=x, access=none, align_mul=4, align_offset=0)\n\
    // succs: b1\n    block b1:\n}}\n"
        )
}

/// 70 registers of UBO 7 read a vec4 at a time at constant offsets, summed as floats into
/// SSBO 0 at 16 × the local index.
fn big_ubo_shader() -> String {
    let mut body = String::from(
        "    32    %0 = @load_local_invocation_index () ()\n\
         \x20   32    %1 = load_const (0x00000000)\n\
         \x20   32    %2 = load_const (0x00000010)\n\
         \x20   32    %3 = imul %0, %2\n\
         \x20   32    %4 = load_const (0x00000007)\n",
    );
    let mut acc = None;
    let mut next = 5;
    for r in 0..70 {
        body.push_str(&format!(
            "    32    %{next} = load_const ({:#010x})\n    32x4  %{} = @load_ubo (%4, %{next}) \
             (access=none, align_mul=16, align_offset=0, range_base=0, range=-1)\n",
            32 * r,
            next + 1
        ));
        let v = next + 1;
        next += 2;
        acc = Some(match acc {
            None => v,
            Some(a) => {
                body.push_str(&format!("    32x4  %{next} = fadd %{a}, %{v}\n"));
                next += 1;
                next - 1
            }
        });
    }
    let acc = acc.unwrap();
    header("cs-big-ubo", [8, 4, 1], 0)
        + &format!(
            "impl main {{\n    block b0:  // preds:\n{body}\
    @store_ssbo (%{acc}, %1, %3) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)\n\
    // succs: b1\n    block b1:\n}}\n"
        )
}

/// The split brw's `cs_fill_push_const_info` makes, worked by hand per case below:
/// (cross-thread dwords, per-thread dwords).
fn expect_push(k: &Kernel, what: &str, cross: u32, per: u32) {
    let push = k.cs_push().unwrap();
    assert_eq!(
        (push.cross_thread, push.per_thread),
        (PushBlock::of_dwords(cross), PushBlock::of_dwords(per)),
        "{what}"
    );
    assert_eq!(push.params, cross + per, "{what}");
    assert_eq!(push.subgroup_id_param, Some(cross + per - 1), "{what}");
    assert_eq!(push.local_id_regs, 0, "{what}");
    // The params start right after g0, where the hardware loads the CURBE.
    for v in &k.simd {
        assert_eq!(v.dispatch_grf_start, 1, "{what} SIMD{}", v.simd);
    }
}

/// The params: the ranges' dwords in range order, then the subgroup id.
fn expect_params(k: &Kernel, what: &str, ranges: &[UboRange]) {
    assert_eq!(k.ubo_ranges, ranges, "{what}");
    let mut want: Vec<CsParam> = ranges
        .iter()
        .flat_map(|r| {
            (0..8 * r.length).map(move |d| CsParam::Uniform {
                block: r.block,
                offset: 32 * r.start + 4 * d,
            })
        })
        .collect();
    want.push(CsParam::SubgroupId);
    assert_eq!(k.cs_params(), want, "{what}");
}

/// brw's split for any param count whose last param is the subgroup id, by hand:
/// 3 uniform dwords + subgroup id = 4 params, index 3: 8 * (3 / 8) = 0 cross-thread, 4
/// per-thread dwords (1 register); 9 + 1 = 10 params, index 9: 8 cross-thread dwords (1
/// register), 2 per-thread (1 register); 7 + 1 = 8 params, index 7: 0 cross-thread, 8
/// per-thread (1 register); 16 + 1: 16 and 1. Gen7 has no cross-thread data: all per-thread.
/// (gpucc pushes whole range registers, so its own programs always have 8k + 1 params.)
#[test]
fn brw_split_of_params() {
    use gpucc::intel::cs_dispatch::mesa_push_split;
    for (params, hsw) in [
        (1, (0, 1)),
        (4, (0, 4)),
        (8, (0, 8)),
        (10, (8, 2)),
        (17, (16, 1)),
    ] {
        assert_eq!(
            mesa_push_split(params, true),
            hsw,
            "{params} params, Gen7.5+"
        );
        assert_eq!(
            mesa_push_split(params, false),
            (0, params),
            "{params} params, Gen7"
        );
    }
    let regs = |dwords| PushBlock::of_dwords(dwords).regs;
    assert_eq!((regs(0), regs(4)), (0, 1));
    assert_eq!((regs(8), regs(2)), (1, 1));
    assert_eq!(regs(10), 2);
}

/// Three uniform dwords (bytes 4, 12 and 8 of UBO 2) touch chunk 0 only: one range of one
/// register, 8 uniform params, the subgroup id param 8, 9 params. Gen7.5+: 8 * (8 / 8) = 8
/// cross-thread dwords (1 register), 1 per-thread dword (1 register). Gen7: 9 per-thread
/// dwords (2 registers).
#[test]
fn three_uniform_dwords_push_one_range_register() {
    let text = sum_shader(2, &[4, 12, 8]);
    for t in PLATFORMS {
        let k = compile(t, &text, &mesa());
        let info = k.compute.as_ref().unwrap();
        assert_eq!(
            info.push_layout,
            CsPushLayout::SubgroupId {
                cross_thread: t != "ivb"
            },
            "{t}"
        );
        expect_params(&k, t, &[range(2, 0, 1)]);
        if t == "ivb" {
            expect_push(&k, t, 0, 9);
        } else {
            expect_push(&k, t, 8, 1);
        }
    }
}

/// Nine uniform dwords (bytes 0, 4, ..., 32 of UBO 1) touch chunks 0 and 1: one run, one range
/// of two registers, 16 uniform params and the subgroup id, 17 params. Gen7.5+: 8 * (16 / 8) =
/// 16 cross-thread dwords (2 registers), 1 per-thread dword. Gen7: 17 per-thread dwords (3
/// registers).
#[test]
fn nine_uniform_dwords_push_two_range_registers() {
    let offsets: Vec<u32> = (0..9).map(|d| 4 * d).collect();
    let text = sum_shader(1, &offsets);
    for t in PLATFORMS {
        let k = compile(t, &text, &mesa());
        expect_params(&k, t, &[range(1, 0, 2)]);
        if t == "ivb" {
            expect_push(&k, t, 0, 17);
        } else {
            expect_push(&k, t, 16, 1);
        }
        assert!(k.pull_constant_blocks.is_empty(), "{t}");
    }
}

/// No uniform data: the subgroup id is the only param, one per-thread dword everywhere and
/// nothing cross-thread: the layout stock iris and crocus assert in their
/// `*_fill_cs_push_const_buffer`.
#[test]
fn without_uniforms_the_subgroup_id_is_the_only_param() {
    let text = header("cs-plain", [8, 4, 1], 0) + &divergent_loop_body();
    for t in PLATFORMS {
        let k = compile(t, &text, &mesa());
        expect_params(&k, t, &[]);
        expect_push(&k, t, 0, 1);
    }
}

/// Just the body of a shader that reads no uniform data (the divergent loop of
/// common::compute, at an 8x4x1 workgroup).
fn divergent_loop_body() -> String {
    let full = divergent_loop("x", [8, 4, 1], 512);
    full[full.find("impl main").unwrap()..].to_string()
}

/// One dword from each of UBOs 3, 4, 5 and 6: four one-register runs of equal score; brw keeps
/// one range fewer in a compute shader (the subgroup id counts as regular uniforms) than its
/// four on iris's Gen8+ and three on crocus's Gen7 (`constant_buffer_0_is_relative`), ties
/// going to the higher block. bdw, skl: 6, 5, 4 kept, 3 pulled from its own slot; 24 uniform
/// params and the subgroup id, 24 cross-thread dwords (3 registers) and 1 per-thread. ivb, hsw:
/// 6, 5 kept, 4 and 3 pulled; 16 params and the subgroup id, on hsw 16 cross-thread dwords
/// (2 registers) and 1 per-thread, on ivb (no cross-thread data) 17 per-thread dwords.
#[test]
fn compute_keeps_one_range_fewer_and_pulls_the_rest() {
    let text = blocks_shader(&[3, 4, 5, 6]);
    for t in PLATFORMS {
        let k = compile(t, &text, &mesa());
        let gen7 = t == "ivb" || t == "hsw";
        if gen7 {
            expect_params(&k, t, &[range(6, 0, 1), range(5, 0, 1)]);
            assert_eq!(k.pull_constant_blocks, vec![3, 4], "{t}");
        } else {
            expect_params(&k, t, &[range(6, 0, 1), range(5, 0, 1), range(4, 0, 1)]);
            assert_eq!(k.pull_constant_blocks, vec![3], "{t}");
        }
        match t {
            "ivb" => expect_push(&k, t, 0, 17),
            "hsw" => expect_push(&k, t, 16, 1),
            _ => expect_push(&k, t, 24, 1),
        }
        assert_verifies(t, &text, &mesa(), "");
    }
}

/// 70 registers read at constant offsets: brw's analysis sees the first 64 chunks, and the
/// push block of 64 registers keeps one for the subgroup id, so the range is cut to 63
/// registers and the loads past it are pulled. 504 uniform params and the subgroup id:
/// Gen7.5+ 504 cross-thread dwords (63 registers), 1 per-thread; Gen7 505 per-thread dwords
/// (64 registers). The sum of all 70 is right on the simulator.
#[test]
fn the_push_block_keeps_a_register_for_the_subgroup_id() {
    let text = big_ubo_shader();
    for t in PLATFORMS {
        let k = compile(t, &text, &mesa());
        expect_params(&k, t, &[range(7, 0, 63)]);
        assert_eq!(k.pull_constant_blocks, vec![7], "{t}");
        if t == "ivb" {
            expect_push(&k, t, 0, 505);
        } else {
            expect_push(&k, t, 504, 1);
        }
        assert_verifies(t, &text, &mesa(), "");
    }
}

/// The CURBE bytes of the three-dword shader for one 8x4x1 workgroup at SIMD16 (2 threads),
/// UBO 2's dword d being 1000 + d. Gen7.5+: UBO 2 dwords 0-7 once (bytes 0-31), then each
/// thread's register holding its subgroup id (bytes 32 and 64). Gen7: each thread's two
/// registers, dwords 0-7 then its subgroup id (bytes 0-63 and 64-127).
#[test]
fn curbe_is_laid_out_as_iris_fills_it() {
    let text = sum_shader(2, &[4, 12, 8]);
    let dword = |bytes: &[u8], at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    for t in PLATFORMS {
        let k = compile(t, &text, &mesa());
        assert_eq!(k.compute.as_ref().unwrap().simd, 16, "{t}");
        let curbe = k
            .cs_curbe_with(|_, block, offset| {
                assert_eq!(block, 2);
                Ok(1000 + offset / 4)
            })
            .unwrap();
        let mut want = Vec::new();
        let uniforms: Vec<u8> = (0..8u32).flat_map(|d| (1000 + d).to_le_bytes()).collect();
        let sgid = |s: u32| {
            let mut reg = s.to_le_bytes().to_vec();
            reg.resize(32, 0);
            reg
        };
        if t == "ivb" {
            for s in 0..2 {
                want.extend_from_slice(&uniforms);
                want.extend(sgid(s));
            }
        } else {
            want.extend_from_slice(&uniforms);
            want.extend(sgid(0));
            want.extend(sgid(1));
        }
        assert_eq!(curbe, want, "{t}");
        assert_eq!(dword(&curbe, 4), 1001, "{t}");
        // The block-0 builder names the block it cannot serve.
        let err = k.cs_curbe(&[0; 64]).unwrap_err();
        assert!(err.contains("UBO block 2"), "{t}: {err}");
    }
}

/// Local ids from the subgroup id on every platform, over workgroup shapes that take each of
/// brw's orders: x-major (no textures or images), columns of four (textures, height a
/// multiple of 4), y-major (textures, other heights), linear derivative groups (x-major);
/// one-thread workgroups (subgroup id 0), sizes that are not powers of two (integer
/// division), several layers. Each is checked on the simulator at SIMD8 and SIMD16 against
/// the interpreter, which numbers invocations x fastest.
#[test]
fn local_ids_from_the_subgroup_id_verify() {
    let tex = "num_textures: 1\n";
    let shapes: [([u32; 3], &str); 14] = [
        ([8, 4, 1], ""),
        ([5, 3, 2], ""),
        ([1, 1, 1], ""),
        ([7, 1, 1], ""),
        ([32, 1, 1], ""),
        ([2, 2, 3], ""),
        ([3, 4, 2], tex),
        ([4, 4, 4], tex),
        ([1, 4, 3], tex),
        ([6, 3, 1], tex),
        ([1, 6, 1], tex),
        ([6, 1, 1], tex),
        ([3, 5, 3], "num_images: 2\n"),
        ([3, 5, 3], "num_textures: 1\nderivative_group: 2\n"),
    ];
    for t in PLATFORMS {
        let compiler = Compiler::new(t).unwrap();
        for (size, extra) in shapes {
            let shader = parse(&ids_shader(size, extra));
            assert_eq!(
                compiler.verify_options(&shader, &mesa()),
                VerifyOutcome::Pass,
                "{t} {size:?} {extra:?}"
            );
        }
    }
}

/// Pulls next to pushes, a barrier with shared memory, a divergent loop, Mesa's own spelling of
/// the sizes, and examples/intel/double.cs.nir: all verify under Mesa's model everywhere.
#[test]
fn compute_shaders_verify_under_mesa_binding_model() {
    let example = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/intel/double.cs.nir"),
    )
    .unwrap();
    let mesa_spelling = ids_shader([8, 4, 1], "")
        .replace("workgroup_size:", "workgroup-size:")
        .replace("shared_size:", "shared-size:");
    let shaders = [
        ("pull", pull_shader()),
        ("barrier", barrier_shader()),
        ("loop", divergent_loop("loop", [8, 4, 1], 512)),
        ("mesa-spelling", mesa_spelling),
        ("double", example),
    ];
    for t in PLATFORMS {
        let compiler = Compiler::new(t).unwrap();
        for (name, text) in &shaders {
            assert_eq!(
                compiler.verify_options(&parse(text), &mesa()),
                VerifyOutcome::Pass,
                "{t} {name}"
            );
        }
        let k = compile(t, &shaders[0].1, &mesa());
        expect_params(&k, t, &[range(2, 0, 1)]);
        assert_eq!(k.pull_constant_blocks, vec![2], "{t}");
    }
}

/// NV_compute_shader_derivatives' quad groups (derivative_group 1) number invocations in 2x2
/// quads, which gpucc does not implement: refused by name.
#[test]
fn quad_derivative_groups_are_refused() {
    let text = ids_shader([4, 4, 1], "derivative_group: 1\n");
    let err = Compiler::new("bdw")
        .unwrap()
        .compile(&parse(&text), &mesa())
        .unwrap_err();
    assert!(err.to_string().contains("derivative group 1"), "{err}");
}

/// The default model is unchanged: local ids pushed per thread, nothing cross-thread, no
/// subgroup id, and the same shader verifies.
#[test]
fn gpucc_model_keeps_its_local_id_layout() {
    let text = sum_shader(0, &[4, 12, 8]);
    for t in PLATFORMS {
        let k = compile(t, &text, &CompileOptions::default());
        assert_eq!(
            k.compute.as_ref().unwrap().push_layout,
            CsPushLayout::LocalIds
        );
        let push = k.cs_push().unwrap();
        // SIMD16: 6 registers of ids, then the 3 dwords read, in first-use order.
        assert_eq!(push.local_id_regs, 6, "{t}");
        assert_eq!(push.per_thread, PushBlock::of_dwords(48 + 3), "{t}");
        assert_eq!(push.cross_thread, PushBlock::of_dwords(0), "{t}");
        assert_eq!(push.subgroup_id_param, None, "{t}");
        assert_eq!(
            k.cs_params(),
            [4, 12, 8].map(|offset| CsParam::Uniform { block: 0, offset }),
            "{t}"
        );
        assert_verifies(t, &text, &CompileOptions::default(), "");
    }
}

/// Generated compute shaders (`gpucc fuzz-diff --stage cs`, a fixed seed: ALU over SSBO data,
/// loops, branches, uniform data, the invocation index) under Mesa's model on every platform.
#[test]
fn generated_compute_shaders_verify_under_mesa_binding_model() {
    for t in PLATFORMS {
        let out = Command::new(env!("CARGO_BIN_EXE_gpucc"))
            .args(["fuzz-diff", "--target", t, "--stage", "cs", "--seed", "7"])
            .args(["--count", "200", "--binding", "mesa"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{t}: {stdout}");
        assert!(
            stdout.contains("200 passed, 0 failed, 0 unsupported"),
            "{t}: {stdout}"
        );
    }
}
