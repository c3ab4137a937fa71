//! A compute program dispatched from the program object alone: the dispatch facts
//! (`gpucc_cs_info`, `ComputeInfo`, the push layout) checked against values worked out by hand
//! from the shaders below, the CURBE bytes checked by hand, and whole dispatches through the C
//! ABI over the fake i915 device, whose batch fields are checked against the program's facts,
//! and the same dispatches on the simulated render node (src/drm/sim), which executes the
//! batch as the hardware would, compared with the NIR reference interpreter.

mod common;

use common::capi::{compile, last_error};
use common::compute::header;
use std::ffi::CString;
use std::path::Path;
use std::ptr;
use std::rc::Rc;

use gpucc::capi::*;
use gpucc::drm::fake::FakeIoctl;
use gpucc::drm::uapi::i915::{self as i915, param};
use gpucc::drm::uapi::Pod;
use gpucc::intel::backend::binding::SSBO_SURFACE_BASE;
use gpucc::intel::backend::{Context, Options};
use gpucc::intel::DevInfo;
use gpucc::nir::{self, interp};
use gpucc::program::Program;

/// 8x4x1 invocations, 256 bytes of shared memory, a workgroup barrier, and three uniform
/// dwords read in the order bytes 4, 12, 8 of UBO 0.
fn barrier_shader() -> String {
    header("cs-barrier", [8, 4, 1], 256)
        + r#"impl main {
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    32    %2 = load_const (0x00000004)
    32    %3 = load_const (0x0000000c)
    32    %4 = load_const (0x00000008)
    32    %5 = @load_ubo (%1, %2) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)
    32    %6 = @load_ubo (%1, %3) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)
    32    %7 = @load_ubo (%1, %4) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)
    32    %8 = imul %0, %2
    32    %9 = iadd %5, %0
    @store_shared (%9, %8) (base=0, wrmask=x, align_mul=4, align_offset=0)
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, memory_semantics=ACQ|REL, memory_modes=shared)
    32    %10 = @load_shared (%8) (base=0, align_mul=4, align_offset=0)
    32    %11 = iadd %10, %6
    32    %12 = imul %11, %7
    @store_ssbo (%12, %1, %8) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b1
    block b1:
}
"#
}

/// No barrier; every invocation writes (local index × u[8] + u[0], local id x, local id y,
/// workgroup id y) at 16 × its flat index over a grid two workgroups wide.
fn ids_shader(size: [u32; 3]) -> String {
    let n = size[0] * size[1] * size[2];
    header("cs-ids", size, 0)
        + &format!(
            r#"impl main {{
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32x3  %1 = @load_local_invocation_id () ()
    32x3  %2 = @load_workgroup_id () ()
    32    %3 = load_const (0x00000000)
    32    %4 = load_const (0x00000008)
    32    %5 = @load_ubo (%3, %4) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)
    32    %6 = @load_ubo (%3, %3) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)
    32    %7 = load_const (0x00000010)
    32    %8 = load_const ({n:#010x})
    32    %9 = load_const (0x00000002)
    32    %10 = imul %2.y, %9
    32    %11 = iadd %10, %2.x
    32    %12 = imul %11, %8
    32    %13 = iadd %12, %0
    32    %14 = imul %0, %5
    32    %15 = iadd %14, %6
    32    %16 = imul %13, %7
    32x4  %17 = vec4 %15, %1.x, %1.y, %2.y
    @store_ssbo (%17, %3, %16) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
    // succs: b1
    block b1:
}}
"#
        )
}

/// UBO 0 as the driver has it: dword d is 100 + 7d.
fn uniforms() -> Vec<u8> {
    (0..16u32)
        .flat_map(|d| (100 + 7 * d).to_le_bytes())
        .collect()
}

/// The backend's kernel behind a program handle (an Intel program from `compile`).
fn kernel_of<'a>(program: *const Program) -> &'a gpucc::intel::kernel::Kernel {
    match &unsafe { &*program }.code {
        gpucc::program::Code::Intel(k) => k,
        gpucc::program::Code::Etnaviv(_) => panic!("not an Intel program"),
    }
}

fn cs_info(program: *const Program) -> CsInfo {
    let mut info = CsInfo {
        struct_size: std::mem::size_of::<CsInfo>() as u32,
        ..Default::default()
    };
    assert_eq!(
        gpucc_program_cs_info(program, &mut info),
        Status::Ok,
        "{}",
        last_error()
    );
    info
}

/// The barrier shader on bdw and ivb: 32 invocations are more than one SIMD8 thread, so
/// SIMD16 is compiled too and dispatched: 2 threads, both full (right mask 0xffff). Each
/// thread's push block is 3 × 2 = 6 registers of local ids (48 dwords) and the 3 uniform
/// dwords in one more register: 51 dwords, 7 registers, 224 bytes; 448 bytes per group. The
/// uniforms land after g0 and the ids: g7.
#[test]
fn cs_info_fields_worked_by_hand() {
    for target in ["bdw", "ivb"] {
        let program = compile(target, &barrier_shader());
        let info = cs_info(program);
        let k = kernel_of(program);
        let simd8 = k.variant(8).expect("a SIMD8 variant");
        let simd16 = k.variant(16).expect("a SIMD16 variant");
        assert_eq!(info.struct_size as usize, std::mem::size_of::<CsInfo>());
        assert_eq!(info.local_size, [8, 4, 1], "{target}");
        assert_eq!(info.simd_width, 16, "{target}");
        // SIMD8 first at 0, SIMD16 after it at the next 64-byte boundary.
        assert_eq!(simd8.offset, 0);
        assert_eq!(info.kernel_offset, simd8.size.div_ceil(64) * 64, "{target}");
        assert_eq!(info.kernel_offset, simd16.offset);
        assert_eq!((info.threads, info.right_mask), (2, 0xffff), "{target}");
        assert_eq!((info.uses_barrier, info.shared_size), (1, 256), "{target}");
        assert_eq!(
            (info.local_id_regs, info.uniform_dwords),
            (6, 3),
            "{target}"
        );
        assert_eq!(
            (info.per_thread_dwords, info.per_thread_regs),
            (51, 7),
            "{target}"
        );
        assert_eq!(
            (info.cross_thread_dwords, info.cross_thread_regs),
            (0, 0),
            "{target}"
        );
        assert_eq!(info.curbe_size, 448, "{target}");
        assert_eq!(info.dispatch_grf_start, 7, "{target}");
        assert_eq!(info.grfs, simd16.grfs_used, "{target}");
        assert!(info.grfs > 7 && info.grfs <= 128, "{target}: {}", info.grfs);
        assert_eq!(info.scratch_size, 0, "{target}");
        assert_eq!((info.ssbo_binding_base, info.slm_binding), (128, 254));
        // The pushed dwords in first-use order: bytes 4, 12, 8 of UBO 0.
        assert_eq!(k.push_constants, vec![(0, 4), (0, 12), (0, 8)], "{target}");
        gpucc_program_destroy(program);
    }
}

/// Without a barrier the flag is clear; 20 invocations at SIMD16 are 2 threads, the second
/// running channels 0-3 (right mask 0xf), with 2 uniform dwords: 6 + 1 registers per thread.
/// 8 invocations fit one SIMD8 thread, so no SIMD16 program is made: SIMD8, 3 id registers.
#[test]
fn partial_threads_and_no_barrier() {
    for target in ["bdw", "ivb"] {
        let program = compile(target, &ids_shader([20, 1, 1]));
        let info = cs_info(program);
        assert_eq!(info.uses_barrier, 0, "{target}");
        assert_eq!(
            (info.simd_width, info.threads, info.right_mask),
            (16, 2, 0xf)
        );
        assert_eq!((info.per_thread_dwords, info.per_thread_regs), (50, 7));
        assert_eq!((info.curbe_size, info.shared_size), (448, 0));
        gpucc_program_destroy(program);

        let program = compile(target, &ids_shader([4, 2, 1]));
        let info = cs_info(program);
        assert_eq!(
            (
                info.simd_width,
                info.kernel_offset,
                info.threads,
                info.right_mask
            ),
            (8, 0, 1, 0xff)
        );
        assert_eq!((info.local_id_regs, info.per_thread_regs), (3, 4));
        assert_eq!((info.curbe_size, info.dispatch_grf_start), (128, 4));
        gpucc_program_destroy(program);
    }
}

/// The CURBE of the barrier shader, byte by byte where it matters: thread 1, channel 3 is
/// invocation 19 = (3, 2, 0), its x in register 0 and y in register 1 at dword 3; channel 12
/// is invocation 28 = (4, 3, 0), in the second group of id registers (3, 4, 5) at dword 4;
/// the uniforms (dwords 1, 3 and 2 of UBO 0 = 107, 121, 114) start at register 6.
#[test]
fn curbe_worked_by_hand() {
    let shader = nir::parse(&barrier_shader()).unwrap();
    let dev = DevInfo::from_name("bdw").unwrap();
    let k = Context::new(dev)
        .compile(&shader, &Options::default())
        .unwrap();
    let curbe = k.cs_curbe(&uniforms()).unwrap();
    assert_eq!(curbe.len(), 448);
    let dword = |byte: usize| u32::from_le_bytes(curbe[byte..byte + 4].try_into().unwrap());
    let t1 = 224;
    assert_eq!(
        (dword(t1 + 12), dword(t1 + 32 + 12), dword(t1 + 64 + 12)),
        (3, 2, 0)
    );
    assert_eq!(
        (
            dword(t1 + 96 + 16),
            dword(t1 + 128 + 16),
            dword(t1 + 160 + 16)
        ),
        (4, 3, 0)
    );
    // Thread 0 channel 9 = invocation 9 = (1, 1, 0): x in register 3, y in register 4.
    assert_eq!((dword(96 + 4), dword(128 + 4)), (1, 1));
    for t in [0, t1] {
        assert_eq!(
            (
                dword(t + 192),
                dword(t + 196),
                dword(t + 200),
                dword(t + 204)
            ),
            (107, 121, 114, 0)
        );
    }
    // Uniform data too short for byte 12: an error naming the read.
    let err = k.cs_curbe(&uniforms()[..12]).unwrap_err();
    assert!(err.contains("bytes 12..16"), "{err}");
    // The C entry point writes the same bytes and refuses a short buffer.
    let program = compile("bdw", &barrier_shader());
    let u = uniforms();
    let mut out = vec![0xaau8; 449];
    assert_eq!(
        gpucc_program_cs_curbe(program, u.as_ptr(), u.len(), out.as_mut_ptr(), out.len()),
        Status::Ok,
        "{}",
        last_error()
    );
    assert_eq!(&out[..448], &curbe[..]);
    assert_eq!(out[448], 0xaa, "nothing past curbe_size");
    assert_eq!(
        gpucc_program_cs_curbe(program, u.as_ptr(), u.len(), out.as_mut_ptr(), 447),
        Status::InvalidArgument
    );
    assert!(last_error().contains("448 bytes"), "{}", last_error());
    gpucc_program_destroy(program);
}

/// A fake i915 kernel that keeps what is written to buffers (PWRITE: the mmap path is
/// refused as old kernels do).
fn fake_i915(chipset: i32, softpin: bool) -> FakeIoctl {
    let next = std::cell::Cell::new(1u32);
    FakeIoctl::new("i915", move |name, arg| {
        match name {
            "DRM_IOCTL_I915_GEM_CREATE" => {
                let mut a = i915::DrmI915GemCreate::from_bytes(arg);
                a.handle = next.get();
                next.set(a.handle + 1);
                arg.copy_from_slice(a.as_bytes());
            }
            "DRM_IOCTL_I915_GEM_MMAP_OFFSET" => return Err(libc::ENOTTY),
            _ => {}
        }
        Ok(())
    })
    .with_i915_param(param::CHIPSET_ID, chipset)
    .with_i915_param(param::HAS_EXEC_SOFTPIN, i32::from(softpin))
    .with_i915_param(param::HAS_EXEC_NO_RELOC, 1)
    .with_i915_param(param::HAS_EXEC_HANDLE_LUT, 1)
    .keeping_pwrites()
}

fn word(bytes: &[u8], dword: usize) -> u32 {
    u32::from_le_bytes(bytes[4 * dword..4 * dword + 4].try_into().unwrap())
}

/// What a batch asks the GPU to run, read back from its commands and state.
struct Decoded {
    simd: u32,
    thread_width: u32,
    groups: [u32; 3],
    right_mask: u32,
    kernel_start: u32,
    curbe: Vec<u8>,
    cross_regs: u32,
    per_thread_regs: u32,
    threads_in_group: u32,
    barrier: bool,
    /// Shared local memory size, encoded.
    slm: u32,
    /// Surface-state offsets of binding-table entries.
    binding_table: Vec<u32>,
}

/// Walks the commands of a GPGPU batch (Gen7 or Gen8 layouts) and reads the interface
/// descriptor and CURBE they load.
fn decode(batch: &[u8], gen8: bool) -> Decoded {
    let (mut curbe, mut idd, mut walker) = (None, None, None);
    let mut at = 0;
    loop {
        let h = word(batch, at);
        let len = match h >> 16 {
            0 => 1,                       // MI_NOOP
            0x0500 => break,              // MI_BATCH_BUFFER_END
            0x6904 => 1,                  // PIPELINE_SELECT
            _ => (h & 0xff) as usize + 2, // 3D/media commands
        };
        match h >> 16 {
            0x7001 => curbe = Some((word(batch, at + 2), word(batch, at + 3))),
            0x7002 => idd = Some(word(batch, at + 3) as usize / 4),
            0x7105 => walker = Some(at),
            _ => {}
        }
        at += len;
    }
    let (curbe_len, curbe_start) = curbe.expect("MEDIA_CURBE_LOAD");
    let i = idd.expect("MEDIA_INTERFACE_DESCRIPTOR_LOAD");
    let w = walker.expect("GPGPU_WALKER");
    let (threads, groups, right) = if gen8 {
        (
            word(batch, w + 4),
            [w + 7, w + 10, w + 12].map(|d| word(batch, d)),
            word(batch, w + 13),
        )
    } else {
        (
            word(batch, w + 2),
            [w + 4, w + 6, w + 8].map(|d| word(batch, d)),
            word(batch, w + 9),
        )
    };
    let (bt, curbe_read, group, cross) = if gen8 {
        (i + 4, i + 5, i + 6, word(batch, i + 7) & 0xff)
    } else {
        (i + 3, i + 4, i + 5, 0)
    };
    let bt_at = (word(batch, bt) & 0xffe0) as usize / 4;
    Decoded {
        simd: 8 << (threads >> 30),
        thread_width: (threads & 0x3f) + 1,
        groups,
        right_mask: right,
        kernel_start: word(batch, i) & 0xffff_ffc0,
        curbe: batch[curbe_start as usize..(curbe_start + curbe_len) as usize].to_vec(),
        cross_regs: cross,
        per_thread_regs: word(batch, curbe_read) >> 16,
        threads_in_group: word(batch, group) & 0x3ff,
        barrier: word(batch, group) >> 21 & 1 == 1,
        slm: word(batch, group) >> 16 & 0x1f,
        // Enough entries for SSBO block 0 at 128.
        binding_table: (0..=128).map(|e| word(batch, bt_at + e)).collect(),
    }
}

/// The SSBO the interpreter leaves after running `groups` workgroups.
fn interpret(text: &str, size: [u32; 3], groups: [u32; 3], ssbo: Vec<u8>) -> Vec<u8> {
    let shader = nir::parse(text).unwrap();
    let mut ssbos = vec![ssbo];
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let env = interp::Environment {
                    ssbos: ssbos.clone(),
                    // The barrier shader's 256 bytes (the ids shader uses none).
                    shared: vec![0; 256],
                    ubos: vec![uniforms()],
                    workgroup_id: [gx, gy, gz],
                    workgroup_size: size,
                    ..Default::default()
                };
                let n = (size[0] * size[1] * size[2]) as usize;
                ssbos = interp::run(&shader, &env, n)
                    .expect("interpreter run")
                    .ssbos;
            }
        }
    }
    ssbos.remove(0)
}

/// Dispatches `text` through the C ABI over a fake device: compile, upload, dispatch with
/// only group counts and uniform bytes. Returns the program, its info, the code
/// and data buffers and the decoded batch; the caller destroys the handles.
struct Dispatched {
    dev: *mut Device,
    program: *mut Program,
    info: CsInfo,
    code: *mut Bo,
    data: *mut Bo,
    batch: Vec<u8>,
    decoded: Decoded,
}

/// Uploads the program and `init` as SSBO 0 to `dev` and dispatches `groups` workgroups
/// with [`uniforms`] through the C ABI; returns the code and data buffers.
fn upload_and_dispatch(
    dev: *mut Device,
    program: *mut Program,
    init: &[u8],
    groups: [u32; 3],
) -> (*mut Bo, *mut Bo) {
    let (mut code, mut data) = (ptr::null_mut(), ptr::null_mut());
    assert_eq!(
        gpucc_program_upload(dev, program, &mut code),
        Status::Ok,
        "{}",
        last_error()
    );
    assert_eq!(
        gpucc_device_upload(dev, init.as_ptr(), init.len(), &mut data),
        Status::Ok
    );
    let u = uniforms();
    let launch = ComputeLaunch {
        struct_size: std::mem::size_of::<ComputeLaunch>() as u32,
        groups,
        uniforms: u.as_ptr(),
        uniforms_size: u.len(),
    };
    let buffers = [data as *const Bo];
    assert_eq!(
        gpucc_device_dispatch_compute(dev, program, code, &launch, buffers.as_ptr(), 1),
        Status::Ok,
        "{}",
        last_error()
    );
    (code, data)
}

fn dispatch(target: &str, chipset: i32, text: &str, groups: [u32; 3], init: &[u8]) -> Dispatched {
    let gen8 = target == "bdw";
    let fake = Rc::new(fake_i915(chipset, gen8));
    let inner =
        gpucc::drm::Device::from_ioctl(Box::new(fake.clone()), Path::new("/dev/dri/renderD128"))
            .unwrap();
    let dev = Device::into_handle(inner);
    let program = compile(target, text);
    let info = cs_info(program);
    let (code, data) = upload_and_dispatch(dev, program, init, groups);
    // The batch is the last buffer created before the execbuffer.
    let calls = fake.calls();
    let eb = calls
        .iter()
        .position(|c| c.name == "DRM_IOCTL_I915_GEM_EXECBUFFER2")
        .expect("an execbuffer");
    let batch_handle = calls[..eb]
        .iter()
        .rev()
        .find(|c| c.name == "DRM_IOCTL_I915_GEM_CREATE")
        .map(|c| i915::DrmI915GemCreate::from_bytes(&c.arg_out).handle)
        .unwrap();
    let batch = fake.written(batch_handle);
    let decoded = decode(&batch, gen8);
    Dispatched {
        dev,
        program,
        info,
        code,
        data,
        batch,
        decoded,
    }
}

impl Drop for Dispatched {
    fn drop(&mut self) {
        assert_eq!(gpucc_bo_destroy(self.dev, self.code), Status::Ok);
        assert_eq!(gpucc_bo_destroy(self.dev, self.data), Status::Ok);
        gpucc_program_destroy(self.program);
        gpucc_device_destroy(self.dev);
    }
}

/// The whole path: dispatch through the C ABI, then run the batch the fake device received
/// on the simulator and compare the SSBO with the interpreter's.
fn dispatch_and_run(target: &str, chipset: i32, size: [u32; 3], groups: [u32; 3]) {
    let gen8 = target == "bdw";
    let text = ids_shader(size);
    let init: Vec<u8> = (0..1024u32)
        .flat_map(|d| (d * 3 + 1).to_le_bytes())
        .collect();
    let run = dispatch(target, chipset, &text, groups, &init);
    let (d, info, batch) = (&run.decoded, &run.info, &run.batch);
    assert_eq!(d.simd, info.simd_width, "{target}");
    assert_eq!(
        (d.thread_width, d.threads_in_group),
        (info.threads, info.threads)
    );
    assert_eq!((d.right_mask, d.groups), (info.right_mask, groups));
    assert_eq!(d.kernel_start, info.kernel_offset);
    assert_eq!((d.per_thread_regs, d.cross_regs), (info.per_thread_regs, 0));
    assert_eq!(d.curbe.len(), info.curbe_size as usize);
    assert_eq!((d.barrier, d.slm), (false, 0));
    // SSBO block 0 is at entry 128, the entries below at a null surface.
    let (null, ss) = (d.binding_table[0], d.binding_table[128]);
    assert_eq!(word(batch, null as usize / 4) >> 29, 7, "SURFTYPE_NULL");
    assert_eq!(word(batch, ss as usize / 4) >> 29, 4, "SURFTYPE_BUFFER");
    if gen8 {
        // Softpin: the surface holds the buffer's own address (DW8).
        assert_eq!(
            u64::from(word(batch, ss as usize / 4 + 8)),
            gpucc_bo_gpu_address(run.data)
        );
    }

    let got = run_on_sim_node(target, &text, groups, &init);
    let want = interpret(&text, size, groups, init.clone());
    assert_ne!(want, init, "the shader writes something");
    for dw in 0..want.len() / 4 {
        assert_eq!(
            word(&got, dw),
            word(&want, dw),
            "{target} {size:?}: SSBO dword {dw}"
        );
    }
}

/// The same dispatch, through the C ABI, on the simulated render node of `target`, which
/// executes the batch (src/drm/sim); returns the SSBO read back with gpucc_bo_read.
fn run_on_sim_node(target: &str, text: &str, groups: [u32; 3], init: &[u8]) -> Vec<u8> {
    let node = CString::new(format!("sim:{target}")).unwrap();
    let mut dev = ptr::null_mut();
    assert_eq!(
        gpucc_device_open(node.as_ptr(), &mut dev),
        Status::Ok,
        "{}",
        last_error()
    );
    let program = compile(target, text);
    let (code, data) = upload_and_dispatch(dev, program, init, groups);
    let mut got = vec![0u8; init.len()];
    assert_eq!(
        gpucc_bo_read(dev, data, 0, got.as_mut_ptr(), got.len()),
        Status::Ok,
        "{}",
        last_error()
    );
    assert_eq!(gpucc_bo_destroy(dev, code), Status::Ok);
    assert_eq!(gpucc_bo_destroy(dev, data), Status::Ok);
    gpucc_program_destroy(program);
    gpucc_device_destroy(dev);
    got
}

/// The barrier shader's two SIMD16 threads meet at the barrier and read each other's shared
/// memory; on the simulated node (which switches threads at barriers) the SSBO matches the
/// interpreter's on every generation.
#[test]
fn barrier_shader_runs_on_the_simulated_node() {
    let init = vec![0u8; 4096];
    let want = interpret(&barrier_shader(), [8, 4, 1], [3, 1, 1], init.clone());
    assert_ne!(want, init);
    for target in ["ivb", "hsw", "bdw", "skl"] {
        let got = run_on_sim_node(target, &barrier_shader(), [3, 1, 1], &init);
        for dw in 0..want.len() / 4 {
            assert_eq!(word(&got, dw), word(&want, dw), "{target}: SSBO dword {dw}");
        }
    }
}

#[test]
fn dispatch_runs_on_bdw() {
    dispatch_and_run("bdw", 0x1616, [8, 4, 1], [2, 2, 1]);
    dispatch_and_run("bdw", 0x1616, [20, 1, 1], [2, 1, 1]);
}

#[test]
fn dispatch_runs_on_ivb() {
    dispatch_and_run("ivb", 0x0166, [8, 4, 1], [2, 2, 1]);
    dispatch_and_run("ivb", 0x0166, [20, 1, 1], [2, 1, 1]);
}

/// The barrier shader's facts reach the interface descriptor: Barrier Enable, and 256 bytes
/// of shared memory in the smallest allocation (4 KiB, encoded 1); its push data is the CURBE
/// (448 bytes: 2 threads of 7 registers). barrier_shader_runs_on_the_simulated_node runs it.
#[test]
fn barrier_and_shared_memory_reach_the_descriptor() {
    for (target, chipset) in [("bdw", 0x1616), ("ivb", 0x0166)] {
        let run = dispatch(target, chipset, &barrier_shader(), [3, 1, 1], &[0; 64]);
        let d = &run.decoded;
        assert_eq!((d.barrier, d.slm), (true, 1), "{target}");
        assert_eq!((d.simd, d.thread_width, d.threads_in_group), (16, 2, 2));
        assert_eq!((d.per_thread_regs, d.groups), (7, [3, 1, 1]));
        let k = kernel_of(run.program);
        assert_eq!(d.curbe, k.cs_curbe(&uniforms()).unwrap(), "{target}");
    }
}

/// A kernel that spills cannot be launched: the dispatch allocates no scratch space. (No
/// small shader spills, so the program data of a compiled one is edited.)
#[test]
fn a_spilling_kernel_is_refused() {
    use gpucc::drm::i915::ComputeLaunch as Launch;
    let shader = nir::parse(&ids_shader([8, 4, 1])).unwrap();
    let dev = DevInfo::from_name("bdw").unwrap();
    let mut k = Context::new(dev)
        .compile(&shader, &Options::default())
        .unwrap();
    let launch = Launch::for_kernel(&k, &uniforms(), [1, 1, 1]).unwrap();
    assert_eq!(launch.first_binding, SSBO_SURFACE_BASE);
    assert_eq!((launch.simd_width, launch.local_size), (16, 32));
    let simd16 = k.simd.iter_mut().find(|v| v.simd == 16).unwrap();
    simd16.scratch_size = 1024;
    let err = Launch::for_kernel(&k, &uniforms(), [1, 1, 1]).unwrap_err();
    assert!(
        err.to_string().contains("1024 bytes of scratch per thread"),
        "{err}"
    );
}
