//! The device entry points of the C ABI, called as C would: NULL handling, the absence of a
//! GPU reported as a status and a message, and upload/destroy over a test double.

mod common;

use common::capi::{compile, last_error};
use std::ffi::{CStr, CString};
use std::path::Path;
use std::process::Command;
use std::ptr;
use std::rc::Rc;

use gpucc::capi::*;
use gpucc::drm::fake::FakeIoctl;
use gpucc::drm::uapi::etnaviv as etna;
use gpucc::drm::uapi::Pod;

fn has_render_nodes() -> bool {
    !gpucc::drm::node::render_node_paths(Path::new("/dev/dri")).is_empty()
}

#[test]
fn open_without_a_gpu_reports_absence() {
    if has_render_nodes() {
        common::skip(
            "this machine has render nodes; the no-device path is covered by drm_sequence",
        );
        return;
    }
    let mut dev = ptr::null_mut();
    let status = gpucc_device_open(ptr::null(), &mut dev);
    assert_eq!(status, Status::DeviceError);
    assert!(dev.is_null(), "no handle on failure");
    assert_eq!(last_error(), "no i915 or etnaviv render node found");
    // The listing the command line prints.
    assert_eq!(
        gpucc::drm::format_nodes(&gpucc::drm::list_render_nodes()),
        "no render nodes\n"
    );
}

#[test]
fn open_of_a_missing_node_names_it() {
    let path = CString::new("/nonexistent/renderD128").unwrap();
    let mut dev = ptr::null_mut();
    assert_eq!(
        gpucc_device_open(path.as_ptr(), &mut dev),
        Status::DeviceError
    );
    assert!(dev.is_null());
    assert_eq!(
        last_error(),
        "cannot open /nonexistent/renderD128: No such file or directory (errno 2)"
    );
}

#[test]
fn open_of_a_non_drm_file_names_the_ioctl() {
    let path = CString::new("/dev/null").unwrap();
    let mut dev = ptr::null_mut();
    assert_eq!(
        gpucc_device_open(path.as_ptr(), &mut dev),
        Status::DeviceError
    );
    assert_eq!(
        last_error(),
        "DRM_IOCTL_VERSION failed: Inappropriate ioctl for device (errno 25)"
    );
}

#[test]
fn null_arguments() {
    let path = CString::new("/dev/null").unwrap();
    assert_eq!(
        gpucc_device_open(path.as_ptr(), ptr::null_mut()),
        Status::InvalidArgument
    );
    assert_eq!(last_error(), "gpucc_device_open: out is NULL");
    assert_eq!(
        unsafe { CStr::from_ptr(gpucc_device_target(ptr::null())) }.to_bytes(),
        b""
    );
    gpucc_device_destroy(ptr::null_mut());
    let mut bo = ptr::null_mut();
    assert_eq!(
        gpucc_device_upload(ptr::null_mut(), ptr::null(), 0, &mut bo),
        Status::InvalidArgument
    );
    assert_eq!(
        gpucc_bo_destroy(ptr::null_mut(), ptr::null_mut()),
        Status::Ok
    );
    assert_eq!(
        (
            gpucc_bo_handle(ptr::null()),
            gpucc_bo_gpu_address(ptr::null()),
            gpucc_bo_size(ptr::null())
        ),
        (0, 0, 0)
    );
    let mut compiler = ptr::null_mut();
    assert_eq!(
        gpucc_compiler_create_for_device(ptr::null(), &mut compiler),
        Status::InvalidArgument
    );
}

/// A GC7000 with a softpin range, answering GEM_NEW with handle 9.
fn gc7000() -> FakeIoctl {
    vivante(
        gpucc::etnaviv::specs::Specs::from_name("gc7000")
            .unwrap()
            .params(),
    )
}

/// A Vivante core reporting `core`'s values, with a softpin range, answering GEM_NEW with
/// handle 9.
fn vivante(core: gpucc::etnaviv::specs::CoreParams) -> FakeIoctl {
    FakeIoctl::new("etnaviv", move |name, arg| {
        match name {
            "DRM_IOCTL_ETNAVIV_GET_PARAM" => {
                let mut a = etna::DrmEtnavivParam::from_bytes(arg);
                a.value = u64::from(match a.param {
                    etna::param::GPU_MODEL => core.model,
                    etna::param::GPU_REVISION => core.revision,
                    p @ 0x03..=0x0f => core.features[(p - 3) as usize],
                    etna::param::GPU_REGISTER_MAX => core.register_max,
                    etna::param::GPU_INSTRUCTION_COUNT => core.instruction_count,
                    etna::param::GPU_NUM_CONSTANTS => core.num_constants,
                    etna::param::GPU_NUM_VARYINGS => core.num_varyings,
                    etna::param::GPU_THREAD_COUNT => core.thread_count,
                    etna::param::GPU_SHADER_CORE_COUNT => core.shader_core_count,
                    etna::param::GPU_PIXEL_PIPES => core.pixel_pipes,
                    etna::param::SOFTPIN_START_ADDR => 0x1000_0000,
                    _ => 64,
                });
                arg.copy_from_slice(a.as_bytes());
            }
            "DRM_IOCTL_ETNAVIV_GEM_NEW" => {
                let mut a = etna::DrmEtnavivGemNew::from_bytes(arg);
                a.handle = 9;
                arg.copy_from_slice(a.as_bytes());
            }
            _ => {}
        }
        Ok(())
    })
}

#[test]
fn upload_through_the_abi() {
    let fake = Rc::new(gc7000());
    let inner =
        gpucc::drm::Device::from_ioctl(Box::new(fake.clone()), Path::new("/dev/dri/renderD128"))
            .unwrap();
    let dev = Device::into_handle(inner);
    assert_eq!(
        unsafe { CStr::from_ptr(gpucc_device_target(dev)) }
            .to_str()
            .unwrap(),
        "gc7000"
    );

    let code = [0x07u8; 48];
    let mut bo = ptr::null_mut();
    assert_eq!(
        gpucc_device_upload(dev, code.as_ptr(), code.len(), &mut bo),
        Status::Ok,
        "{}",
        last_error()
    );
    assert_eq!(gpucc_bo_handle(bo), 9);
    assert_eq!(
        gpucc_bo_gpu_address(bo),
        0x1000_0000,
        "softpin address from the kernel's range"
    );
    assert_eq!(gpucc_bo_size(bo), 4096);
    assert_eq!(gpucc_bo_destroy(dev, bo), Status::Ok);
    assert_eq!(fake.names().last(), Some(&"DRM_IOCTL_GEM_CLOSE"));

    let mut compiler = ptr::null_mut();
    assert_eq!(
        gpucc_compiler_create_for_device(dev, &mut compiler),
        Status::Ok,
        "{}",
        last_error()
    );
    assert_eq!(
        unsafe { CStr::from_ptr(gpucc_compiler_target(compiler)) }
            .to_str()
            .unwrap(),
        "gc7000"
    );
    gpucc_compiler_destroy(compiler);
    gpucc_device_destroy(dev);
}

/// A core without a preset behind a device: gpucc_compiler_create_for_device builds the
/// target from what the kernel reported, gpucc_device_target and gpucc_compiler_target name the
/// same core, that name resolves in this process, and a program compiled for it uploads to the
/// device (whose check compares the names).
#[test]
fn compiler_for_a_device_without_a_preset() {
    let mut core = gpucc::etnaviv::specs::Specs::from_name("gc7000")
        .unwrap()
        .params();
    core.model = 0x8000;
    core.revision = 0x6205;
    let fake = Rc::new(vivante(core));
    let inner =
        gpucc::drm::Device::from_ioctl(Box::new(fake.clone()), Path::new("/dev/dri/renderD128"))
            .unwrap();
    let dev = Device::into_handle(inner);
    let device_target = unsafe { CStr::from_ptr(gpucc_device_target(dev)) }
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(device_target, core.custom_name());
    assert!(
        device_target.starts_with("gc8000-r6205-"),
        "{device_target}"
    );

    let mut compiler = ptr::null_mut();
    assert_eq!(
        gpucc_compiler_create_for_device(dev, &mut compiler),
        Status::Ok,
        "{}",
        last_error()
    );
    let compiler_target = unsafe { CStr::from_ptr(gpucc_compiler_target(compiler)) }
        .to_str()
        .unwrap();
    assert_eq!(compiler_target, device_target);
    gpucc_compiler_destroy(compiler);

    // gpucc_device_target's name is one gpucc_compiler_create takes (in this process).
    let program = compile(&device_target, TINY_FS);
    let mut bo = ptr::null_mut();
    assert_eq!(
        gpucc_program_upload(dev, program, &mut bo),
        Status::Ok,
        "{}",
        last_error()
    );
    assert_eq!(gpucc_bo_destroy(dev, bo), Status::Ok);
    gpucc_program_destroy(program);
    gpucc_device_destroy(dev);
}

fn run_ok(cmd: &mut Command) {
    let result = cmd.output().unwrap();
    assert!(
        result.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
}

#[test]
fn c_program_sees_clean_failures() {
    let exe = common::build_c_program("drm_device");
    let mut run = Command::new(&exe);
    if !has_render_nodes() {
        run.arg("no-nodes");
    }
    run_ok(&mut run);
}

/// The whole C ABI path over real system calls: an LD_PRELOAD shim (tests/c/drm_shim.c)
/// plays an Ivy Bridge render node, and tests/c/drm_shim_client.c opens it, uploads and
/// creates a compiler.
#[test]
fn c_program_over_the_ioctl_shim() {
    // The uapi headers the shim is written against (see tests/drm_layout.rs).
    let Some(uapi) = common::drm_uapi_headers(&["drm.h", "i915_drm.h"]) else {
        return;
    };
    let shim = Path::new(env!("CARGO_TARGET_TMPDIR")).join("libgpucc_drm_shim.so");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(common::cc())
        .args(["-shared", "-fPIC", "-Wall", "-Werror", "-o"])
        .arg(&shim)
        .arg(root.join("tests/c/drm_shim.c"))
        .arg(format!("-I{}", uapi.display()))
        .arg("-ldl")
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler '{}': {e}", common::cc()));
    assert!(status.success(), "compiling tests/c/drm_shim.c failed");
    let client = common::build_c_program("drm_shim_client");
    run_ok(Command::new(&client).env("LD_PRELOAD", &shim));
    run_ok(
        Command::new(&client)
            .arg("amdgpu")
            .env("LD_PRELOAD", &shim)
            .env("GPUCC_SHIM_DRIVER", "amdgpu"),
    );
}

/// A fake Ivy Bridge kernel for the dispatch entry point.
fn ivb() -> FakeIoctl {
    use gpucc::drm::uapi::i915;
    let next = std::cell::Cell::new(1u32);
    FakeIoctl::new("i915", move |name, arg| {
        if name == "DRM_IOCTL_I915_GEM_CREATE" {
            let mut a = i915::DrmI915GemCreate::from_bytes(arg);
            a.handle = next.get();
            next.set(a.handle + 1);
            arg.copy_from_slice(a.as_bytes());
        }
        Ok(())
    })
    .with_i915_param(i915::param::CHIPSET_ID, 0x0166)
}

/// A compute shader of 8 invocations writing its local index to SSBO 0.
const CS: &str = "shader: MESA_SHADER_COMPUTE\nname: cs\nworkgroup_size: 8, 1, 1\n\
    inputs: 0\noutputs: 0\nuniforms: 0\ndecl_function main (0 params)\n\nimpl main {\n\
    block b0:  // preds:\n\
    32    %0 = @load_local_invocation_index () ()\n\
    32    %1 = load_const (0x00000000)\n\
    32    %2 = load_const (0x00000004)\n\
    32    %3 = imul %0, %2\n\
    @store_ssbo (%0, %1, %3) (wrmask=x, access=none, align_mul=4, align_offset=0)\n\
    // succs: b1\n    block b1:\n}\n";

/// The smallest fragment shader.
const TINY_FS: &str = "shader: MESA_SHADER_FRAGMENT\nname: tiny\ninputs: 0\noutputs: 0\n\
    uniforms: 0\ndecl_function main (0 params)\n\nimpl main {\n    block b0:   // preds:\n\
    con 32     %0 = load_const (0x00000000)\n    // succs: b1\n    block b1:\n}\n";

fn launch() -> ComputeLaunch {
    ComputeLaunch {
        struct_size: std::mem::size_of::<ComputeLaunch>() as u32,
        groups: [4, 1, 1],
        uniforms: ptr::null(),
        uniforms_size: 0,
    }
}

/// A compute shader with more than a page of code: 160 stores of distinct values.
fn big_cs() -> String {
    let mut body = String::from(
        "    32    %0 = @load_local_invocation_index () ()\n    32    %1 = load_const (0x00000000)\n",
    );
    for i in 0..160 {
        let v = 2 + 3 * i;
        body += &format!(
            "    32    %{} = load_const ({:#010x})\n    32    %{} = imul %0, %{}\n    \
             32    %{} = load_const ({:#010x})\n    \
             @store_ssbo (%{}, %1, %{}) (wrmask=x, access=none, align_mul=4, align_offset=0)\n",
            v,
            i + 7,
            v + 1,
            v,
            v + 2,
            4 * i,
            v + 1,
            v + 2
        );
    }
    format!(
        "shader: MESA_SHADER_COMPUTE\nname: big\nworkgroup_size: 8, 1, 1\ninputs: 0\n\
         outputs: 0\nuniforms: 0\ndecl_function main (0 params)\n\nimpl main {{\n    \
         block b0:  // preds:\n{body}    // succs: b1\n    block b1:\n}}\n"
    )
}

#[test]
fn dispatch_through_the_abi() {
    use gpucc::drm::uapi::i915;
    let fake = Rc::new(ivb());
    let inner =
        gpucc::drm::Device::from_ioctl(Box::new(fake.clone()), Path::new("/dev/dri/renderD128"))
            .unwrap();
    let dev = Device::into_handle(inner);
    let program = compile("ivb", CS);
    let (mut code, mut data) = (ptr::null_mut(), ptr::null_mut());
    assert_eq!(gpucc_program_upload(dev, program, &mut code), Status::Ok);
    let bytes = [0u8; 64];
    assert_eq!(
        gpucc_device_upload(dev, bytes.as_ptr(), bytes.len(), &mut data),
        Status::Ok
    );
    let buffers = [data as *const Bo];
    let desc = launch();
    assert_eq!(
        gpucc_device_dispatch_compute(dev, program, code, &desc, buffers.as_ptr(), 1),
        Status::Ok,
        "{}",
        last_error()
    );
    let calls = fake.calls();
    let n = calls.len();
    assert_eq!(
        &fake.names()[n - 3..],
        [
            "DRM_IOCTL_I915_GEM_EXECBUFFER2",
            "DRM_IOCTL_I915_GEM_WAIT",
            "DRM_IOCTL_GEM_CLOSE"
        ]
    );
    let eb = calls[n - 3].input::<i915::DrmI915GemExecbuffer2>();
    assert_eq!(eb.buffer_count, 3);

    // Bad input comes back as INVALID_ARGUMENT with a reason, before any ioctl.
    let before = fake.calls().len();
    let old = ComputeLaunch {
        struct_size: 16,
        ..desc
    };
    assert_eq!(
        gpucc_device_dispatch_compute(dev, program, code, &old, buffers.as_ptr(), 1),
        Status::InvalidArgument
    );
    assert_eq!(
        last_error(),
        format!(
            "gpucc_device_dispatch_compute: launch->struct_size is 16; this gpucc knows \
             sizeof(gpucc_compute_launch) = {}",
            std::mem::size_of::<ComputeLaunch>()
        )
    );
    assert_eq!(
        gpucc_device_dispatch_compute(dev, program, code, ptr::null(), ptr::null(), 0),
        Status::InvalidArgument
    );
    assert_eq!(
        last_error(),
        "gpucc_device_dispatch_compute: launch is NULL"
    );
    assert_eq!(
        gpucc_device_dispatch_compute(dev, ptr::null(), code, &desc, ptr::null(), 0),
        Status::InvalidArgument
    );
    assert_eq!(
        last_error(),
        "gpucc_device_dispatch_compute: program is NULL"
    );
    let nulls = [ptr::null::<Bo>()];
    assert_eq!(
        gpucc_device_dispatch_compute(dev, program, code, &desc, nulls.as_ptr(), 1),
        Status::InvalidArgument
    );
    assert_eq!(
        last_error(),
        "gpucc_device_dispatch_compute: buffers[0] is NULL"
    );
    let no_groups = ComputeLaunch {
        groups: [0, 1, 1],
        ..desc
    };
    assert_eq!(
        gpucc_device_dispatch_compute(dev, program, code, &no_groups, buffers.as_ptr(), 1),
        Status::InvalidArgument
    );
    assert!(last_error().contains("one group"), "{}", last_error());
    // A fragment program names its stage.
    let fs = compile("ivb", TINY_FS);
    assert_eq!(
        gpucc_device_dispatch_compute(dev, fs, code, &desc, buffers.as_ptr(), 1),
        Status::InvalidArgument
    );
    assert_eq!(
        last_error(),
        "gpucc_device_dispatch_compute: a MESA_SHADER_FRAGMENT program, not a compute program"
    );
    // A program compiled for another target.
    let hsw = compile("hsw", CS);
    assert_eq!(
        gpucc_device_dispatch_compute(dev, hsw, code, &desc, buffers.as_ptr(), 1),
        Status::InvalidArgument
    );
    assert!(
        last_error().contains("compiled for hsw, the device is ivb"),
        "{}",
        last_error()
    );
    // Code that does not fit the buffer given for it (one page).
    let big = compile("ivb", &big_cs());
    let (mut big_code, mut big_size) = (ptr::null(), 0usize);
    assert_eq!(
        gpucc_program_code(big, &mut big_code, &mut big_size),
        Status::Ok
    );
    assert!(big_size > 4096, "{big_size} bytes of code");
    assert_eq!(
        gpucc_device_dispatch_compute(dev, big, code, &desc, buffers.as_ptr(), 1),
        Status::InvalidArgument
    );
    assert_eq!(
        last_error(),
        format!(
            "gpucc_device_dispatch_compute: the code buffer is 4096 bytes, the program's code \
             {big_size}"
        )
    );
    assert_eq!(
        fake.calls().len(),
        before,
        "no ioctl for refused dispatches"
    );

    gpucc_program_destroy(big);
    gpucc_program_destroy(hsw);
    gpucc_program_destroy(fs);
    gpucc_program_destroy(program);
    assert_eq!(gpucc_bo_destroy(dev, code), Status::Ok);
    assert_eq!(gpucc_bo_destroy(dev, data), Status::Ok);
    gpucc_device_destroy(dev);
}

#[test]
fn dispatch_on_vivante_is_unsupported() {
    let fake = Rc::new(gc7000());
    let inner =
        gpucc::drm::Device::from_ioctl(Box::new(fake), Path::new("/dev/dri/renderD128")).unwrap();
    let dev = Device::into_handle(inner);
    let code = [0u8; 16];
    let mut kernel = ptr::null_mut();
    assert_eq!(
        gpucc_device_upload(dev, code.as_ptr(), code.len(), &mut kernel),
        Status::Ok
    );
    let program = compile("ivb", CS);
    assert_eq!(
        gpucc_device_dispatch_compute(dev, program, kernel, &launch(), ptr::null(), 0),
        Status::Unsupported
    );
    assert!(last_error().contains("Intel GPUs only"), "{}", last_error());
    gpucc_program_destroy(program);
    assert_eq!(gpucc_bo_destroy(dev, kernel), Status::Ok);
    gpucc_device_destroy(dev);
}
