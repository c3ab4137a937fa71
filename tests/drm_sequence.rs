//! The request sequences of open → identify → upload → submit, run in-process against the
//! recording fake, plus the error paths (wrong driver, failing ioctl, no device) and the
//! EINTR/EAGAIN retry rule.

use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;

use gpucc::drm::error::Error;
use gpucc::drm::etnaviv::CmdStream;
use gpucc::drm::fake::FakeIoctl;
use gpucc::drm::i915::cmd::SimdSize;
use gpucc::drm::i915::{exec_list, Bo, ComputeDispatch};
use gpucc::drm::ioctl::retry_interrupted;
use gpucc::drm::uapi::i915::{self as i915, param};
use gpucc::drm::uapi::{drm as core, etnaviv as etna, Pod};
use gpucc::drm::{format_nodes, Device, Gpu, Ioctl};
use gpucc::etnaviv::specs::Specs;

/// A fake i915 kernel: handles count up from 1, context 7, mmap offsets per handle.
fn i915_kernel(chipset: i32, softpin: bool) -> FakeIoctl {
    let next = Cell::new(1u32);
    FakeIoctl::new("i915", move |name, arg| {
        match name {
            "DRM_IOCTL_I915_GEM_CREATE" => {
                let mut a = i915::DrmI915GemCreate::from_bytes(arg);
                a.handle = next.get();
                next.set(a.handle + 1);
                arg.copy_from_slice(a.as_bytes());
            }
            "DRM_IOCTL_I915_GEM_CONTEXT_CREATE" => {
                let a = i915::DrmI915GemContextCreate { ctx_id: 7, pad: 0 };
                arg.copy_from_slice(a.as_bytes());
            }
            "DRM_IOCTL_I915_GEM_MMAP_OFFSET" => {
                let mut a = i915::DrmI915GemMmapOffset::from_bytes(arg);
                a.offset = u64::from(a.handle) << 20;
                arg.copy_from_slice(a.as_bytes());
            }
            _ => {}
        }
        Ok(())
    })
    .with_i915_param(param::CHIPSET_ID, chipset)
    .with_i915_param(param::REVISION, 9)
    .with_i915_param(param::HAS_EXEC_SOFTPIN, i32::from(softpin))
    .with_i915_param(param::HAS_EXEC_NO_RELOC, 1)
    .with_i915_param(param::HAS_EXEC_HANDLE_LUT, 1)
}

fn open(fake: &Rc<FakeIoctl>) -> Result<Device, Error> {
    Device::from_ioctl(Box::new(fake.clone()), Path::new("/dev/dri/renderD128"))
}

#[test]
fn i915_open_identifies_ivy_bridge() {
    let fake = Rc::new(i915_kernel(0x0166, false));
    let dev = open(&fake).unwrap();
    assert_eq!(dev.target(), "ivb");
    assert_eq!(dev.version().name, "i915");
    assert_eq!(
        fake.names(),
        [
            "DRM_IOCTL_VERSION",
            "DRM_IOCTL_I915_GETPARAM",
            "DRM_IOCTL_I915_GETPARAM",
            "DRM_IOCTL_I915_GETPARAM",
            "DRM_IOCTL_I915_GETPARAM",
            "DRM_IOCTL_I915_GETPARAM",
            "DRM_IOCTL_I915_GETPARAM",
            "DRM_IOCTL_I915_GETPARAM",
            "DRM_IOCTL_I915_GEM_CONTEXT_CREATE",
        ]
    );
    let asked: Vec<i32> = fake.calls()[1..8]
        .iter()
        .map(|c| c.input::<i915::DrmI915Getparam>().param)
        .collect();
    assert_eq!(
        asked,
        [
            param::CHIPSET_ID,
            param::REVISION,
            param::HAS_EXEC_SOFTPIN,
            param::HAS_EXEC_NO_RELOC,
            param::HAS_EXEC_HANDLE_LUT,
            param::EU_TOTAL,
            param::SUBSLICE_TOTAL
        ]
    );
    let Gpu::I915(g) = dev.gpu() else {
        panic!("not i915")
    };
    assert_eq!(
        g.params().eu_total,
        None,
        "EU_TOTAL is unanswered on this fake kernel"
    );
    assert!(g.params().has_exec_no_reloc);
    drop(dev);
    assert_eq!(
        fake.names().last(),
        Some(&"DRM_IOCTL_I915_GEM_CONTEXT_DESTROY")
    );
    let destroy = fake
        .calls()
        .last()
        .unwrap()
        .input::<i915::DrmI915GemContextDestroy>();
    assert_eq!(destroy.ctx_id, 7);
}

fn tiny_dispatch() -> ComputeDispatch {
    ComputeDispatch {
        kernel_offset: 0,
        simd: SimdSize::Simd8,
        threads_in_group: 1,
        curbe: vec![],
        cross_thread_registers: 0,
        per_thread_registers: 1,
        buffer_sizes: vec![256],
        first_binding: 0,
        groups: [2, 1, 1],
        max_threads: 56,
        slm_size: 0,
        barrier: false,
        right_mask: 0xff,
        mocs: 1,
    }
}

#[test]
fn i915_upload_and_dispatch_sequence_gen7() {
    let fake = Rc::new(i915_kernel(0x0166, false));
    let mut dev = open(&fake).unwrap();
    let start = fake.calls().len();
    let program = dev.upload(&[0xaa; 100]).unwrap();
    let data = dev.upload(&[0; 256]).unwrap();
    assert_eq!((program.handle, data.handle, program.size), (1, 2, 4096));
    let Gpu::I915(g) = dev.gpu_mut() else {
        panic!()
    };
    let to_bo = |b: gpucc::drm::device::Buffer| Bo {
        handle: b.handle,
        size: b.size,
        address: b.address,
    };
    g.dispatch_compute(&to_bo(program), &tiny_dispatch(), &[to_bo(data)])
        .unwrap();

    let calls = fake.calls()[start..].to_vec();
    let names: Vec<&str> = calls.iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            // upload of the program: create, WC mapping offset, move to the WC domain
            "DRM_IOCTL_I915_GEM_CREATE",
            "DRM_IOCTL_I915_GEM_MMAP_OFFSET",
            "DRM_IOCTL_I915_GEM_SET_DOMAIN",
            // upload of the data buffer
            "DRM_IOCTL_I915_GEM_CREATE",
            "DRM_IOCTL_I915_GEM_MMAP_OFFSET",
            "DRM_IOCTL_I915_GEM_SET_DOMAIN",
            // the batch: create, write, submit, wait, free
            "DRM_IOCTL_I915_GEM_CREATE",
            "DRM_IOCTL_I915_GEM_MMAP_OFFSET",
            "DRM_IOCTL_I915_GEM_SET_DOMAIN",
            "DRM_IOCTL_I915_GEM_EXECBUFFER2",
            "DRM_IOCTL_I915_GEM_WAIT",
            "DRM_IOCTL_GEM_CLOSE",
        ]
    );
    let create = calls[0].input::<i915::DrmI915GemCreate>();
    assert_eq!(create.size, 4096, "sizes are rounded up to a page");
    let mo = calls[1].input::<i915::DrmI915GemMmapOffset>();
    assert_eq!((mo.handle, mo.flags), (1, i915::mmap_offset::WC));
    let sd = calls[2].input::<i915::DrmI915GemSetDomain>();
    assert_eq!(
        (sd.handle, sd.read_domains, sd.write_domain),
        (1, i915::domain::WC, i915::domain::WC)
    );
    // Each upload mapped its object at the offset the kernel returned.
    assert_eq!(fake.mmaps()[..2], [(1 << 20, 4096), (2 << 20, 4096)]);

    let eb = calls[9].input::<i915::DrmI915GemExecbuffer2>();
    assert_eq!(eb.buffer_count, 3, "data buffer, program, batch");
    assert_eq!(eb.batch_len, 168);
    assert_eq!(
        eb.flags,
        i915::exec::RENDER,
        "Gen7: relocations, no NO_RELOC"
    );
    assert_eq!(eb.rsvd1, 7, "context id");
    let wait = calls[10].input::<i915::DrmI915GemWait>();
    assert_eq!((wait.bo_handle, wait.timeout_ns), (3, -1));
    assert_eq!(calls[11].input::<core::DrmGemClose>().handle, 3);
    // The request numbers recorded are the uapi ones.
    assert_eq!(calls[9].request, i915::GEM_EXECBUFFER2.number);
}

#[test]
fn i915_pwrite_fallback_without_mmap_offset() {
    let fake = Rc::new(
        FakeIoctl::new("i915", {
            let mut handle = 0;
            move |name, arg| match name {
                "DRM_IOCTL_I915_GEM_MMAP_OFFSET" => Err(libc::ENOTTY),
                "DRM_IOCTL_I915_GEM_CREATE" => {
                    handle += 1;
                    let mut a = i915::DrmI915GemCreate::from_bytes(arg);
                    a.handle = handle;
                    arg.copy_from_slice(a.as_bytes());
                    Ok(())
                }
                _ => Ok(()),
            }
        })
        .with_i915_param(param::CHIPSET_ID, 0x0416),
    );
    let mut dev = open(&fake).unwrap();
    assert_eq!(dev.target(), "hsw");
    let start = fake.calls().len();
    dev.upload(&[1, 2, 3]).unwrap();
    let calls = &fake.calls()[start..];
    let names: Vec<&str> = calls.iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "DRM_IOCTL_I915_GEM_CREATE",
            "DRM_IOCTL_I915_GEM_MMAP_OFFSET",
            "DRM_IOCTL_I915_GEM_PWRITE"
        ]
    );
    let pw = calls[2].input::<i915::DrmI915GemPwrite>();
    assert_eq!((pw.handle, pw.offset, pw.size), (1, 0, 3));
    assert!(fake.mmaps().is_empty());
}

#[test]
fn gen8_exec_list_is_softpinned() {
    let batch_bo = Bo {
        handle: 3,
        size: 4096,
        address: 0x30_0000,
    };
    let program = Bo {
        handle: 1,
        size: 4096,
        address: 0x10_0000,
    };
    let data = Bo {
        handle: 2,
        size: 4096,
        address: 0x20_0000,
    };
    let batch = gpucc::drm::i915::build_compute_batch(
        gpucc::drm::i915::cmd::Gen::Gen8,
        &tiny_dispatch(),
        &gpucc::drm::i915::Addresses {
            batch: 0x30_0000,
            program: 0x10_0000,
            buffers: vec![0x20_0000],
        },
    )
    .unwrap();
    let exec = exec_list(&batch, &batch_bo, &program, &[data], true).unwrap();
    let pinned = i915::exec_object::PINNED | i915::exec_object::SUPPORTS_48B_ADDRESS;
    let summary: Vec<(u32, u64, u64, u32)> = exec
        .objects
        .iter()
        .map(|o| (o.handle, o.offset, o.flags, o.relocation_count))
        .collect();
    assert_eq!(
        summary,
        [
            (2, 0x20_0000, pinned | i915::exec_object::WRITE, 0),
            (1, 0x10_0000, pinned, 0),
            (3, 0x30_0000, pinned, 0),
        ]
    );
    assert_eq!(exec.flags, i915::exec::RENDER | i915::exec::NO_RELOC);

    // The same batch without softpin carries one relocation per address field.
    let exec7 = exec_list(&batch, &batch_bo, &program, &[data], false).unwrap();
    // A batch naming more buffers than given is an error, not a panic.
    assert!(exec_list(&batch, &batch_bo, &program, &[], false).is_err());
    assert_eq!(
        exec7.objects[2].relocation_count as usize,
        batch.relocs.len()
    );
    assert_eq!(exec7.relocs.len(), 5, "four state bases and one surface");
    let surface = exec7.relocs.last().unwrap();
    assert_eq!(
        (surface.target_handle, surface.write_domain),
        (2, i915::domain::RENDER)
    );
}

/// A fake etnaviv kernel reporting GC7000 r6214 (every value of the gc7000 preset) as model
/// `model`.
fn etnaviv_kernel(model: u64, softpin: Option<u64>) -> FakeIoctl {
    etnaviv_kernel_with(model, softpin, |_| None)
}

/// [`etnaviv_kernel`], answering GET_PARAM `p` with `changed(p)` where that is not None.
fn etnaviv_kernel_with(
    model: u64,
    softpin: Option<u64>,
    changed: impl Fn(u32) -> Option<u64> + 'static,
) -> FakeIoctl {
    let gc7000 = Specs::from_name("gc7000").unwrap().params();
    FakeIoctl::new("etnaviv", move |name, arg| {
        match name {
            "DRM_IOCTL_ETNAVIV_GET_PARAM" => {
                let mut a = etna::DrmEtnavivParam::from_bytes(arg);
                a.value = match (changed(a.param), a.param) {
                    (Some(v), _) => v,
                    (None, etna::param::GPU_MODEL) => model,
                    (None, etna::param::GPU_REVISION) => 0x6214,
                    (None, p @ 0x03..=0x0f) => u64::from(gc7000.features[(p - 0x03) as usize]),
                    (None, etna::param::GPU_REGISTER_MAX) => gc7000.register_max.into(),
                    (None, etna::param::GPU_INSTRUCTION_COUNT) => gc7000.instruction_count.into(),
                    (None, etna::param::GPU_NUM_CONSTANTS) => gc7000.num_constants.into(),
                    (None, etna::param::GPU_NUM_VARYINGS) => gc7000.num_varyings.into(),
                    (None, etna::param::GPU_THREAD_COUNT) => gc7000.thread_count.into(),
                    (None, etna::param::GPU_SHADER_CORE_COUNT) => gc7000.shader_core_count.into(),
                    (None, etna::param::GPU_PIXEL_PIPES) => gc7000.pixel_pipes.into(),
                    (None, etna::param::SOFTPIN_START_ADDR) => match softpin {
                        Some(a) => a,
                        None => return Err(libc::EINVAL),
                    },
                    (None, _) => 4,
                };
                arg.copy_from_slice(a.as_bytes());
            }
            "DRM_IOCTL_ETNAVIV_GEM_NEW" => {
                let mut a = etna::DrmEtnavivGemNew::from_bytes(arg);
                a.handle = 5;
                arg.copy_from_slice(a.as_bytes());
            }
            "DRM_IOCTL_ETNAVIV_GEM_INFO" => {
                let mut a = etna::DrmEtnavivGemInfo::from_bytes(arg);
                a.offset = 0x5000_0000;
                arg.copy_from_slice(a.as_bytes());
            }
            "DRM_IOCTL_ETNAVIV_GEM_SUBMIT" => {
                let mut a = etna::DrmEtnavivGemSubmit::from_bytes(arg);
                a.fence = 42;
                arg.copy_from_slice(a.as_bytes());
            }
            _ => {}
        }
        Ok(())
    })
}

#[test]
fn etnaviv_identify_upload_submit_wait() {
    let fake = Rc::new(etnaviv_kernel(0x7000, None));
    let mut dev = open(&fake).unwrap();
    assert_eq!(dev.target(), "gc7000");
    let params: Vec<u32> = fake
        .calls()
        .iter()
        .filter(|c| c.name == "DRM_IOCTL_ETNAVIV_GET_PARAM")
        .map(|c| c.input::<etna::DrmEtnavivParam>().param)
        .collect();
    // The thirteen feature words, then identity and limits, then the softpin range.
    assert_eq!(
        &params[..13],
        (0x03..=0x0f).collect::<Vec<u32>>().as_slice()
    );
    assert!(
        params.contains(&etna::param::GPU_MODEL)
            && params.contains(&etna::param::GPU_NUM_CONSTANTS)
    );
    assert_eq!(params.last(), Some(&etna::param::SOFTPIN_START_ADDR));
    let Gpu::Etnaviv(g) = dev.gpu_mut() else {
        panic!()
    };
    assert_eq!(g.specs().halti(), 5);
    assert_eq!(g.params().softpin_start, None);

    let start = fake.calls().len();
    let bo = g.upload(&[0x11; 64]).unwrap();
    let mut stream = CmdStream::new();
    stream.set_state_reloc(0x1028, 0, 0, 0);
    stream.set_state(0x15600, 2);
    let fence = g.submit(&stream, &[bo], &[false]).unwrap();
    assert_eq!(fence, 42);
    g.wait_fence(fence, 1_000_000).unwrap();

    let calls = fake.calls()[start..].to_vec();
    let names: Vec<&str> = calls.iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "DRM_IOCTL_ETNAVIV_GEM_NEW",
            "DRM_IOCTL_ETNAVIV_GEM_INFO",
            "DRM_IOCTL_ETNAVIV_GEM_CPU_PREP",
            "DRM_IOCTL_ETNAVIV_GEM_CPU_FINI",
            "DRM_IOCTL_ETNAVIV_GEM_SUBMIT",
            "DRM_IOCTL_ETNAVIV_WAIT_FENCE",
        ]
    );
    let new = calls[0].input::<etna::DrmEtnavivGemNew>();
    assert_eq!((new.size, new.flags), (4096, etna::bo::WC));
    assert_eq!(fake.mmaps(), [(0x5000_0000, 4096)]);
    let prep = calls[2].input::<etna::DrmEtnavivGemCpuPrep>();
    assert_eq!((prep.handle, prep.op), (5, etna::prep::WRITE));
    let submit = calls[4].input::<etna::DrmEtnavivGemSubmit>();
    assert_eq!(
        (
            submit.pipe,
            submit.exec_state,
            submit.nr_bos,
            submit.nr_relocs,
            submit.stream_size,
            submit.flags
        ),
        (0, 0, 1, 1, 16, 0)
    );
    assert_eq!(submit.fence_fd, -1);
    let wait = calls[5].input::<etna::DrmEtnavivWaitFence>();
    assert_eq!((wait.pipe, wait.fence, wait.flags), (0, 42, 0));
    assert!(
        wait.timeout.tv_sec > 0 || wait.timeout.tv_nsec > 0,
        "an absolute deadline"
    );
}

#[test]
fn etnaviv_softpin_submits_without_relocations() {
    let fake = Rc::new(etnaviv_kernel(0x7000, Some(0x4000_0000)));
    let mut dev = open(&fake).unwrap();
    let Gpu::Etnaviv(g) = dev.gpu_mut() else {
        panic!()
    };
    let bo = g.create_bo(100).unwrap();
    assert_eq!(bo.address, 0x4000_0000);
    let mut stream = CmdStream::new();
    stream.set_state_reloc(0x1028, 0, 0, bo.address);
    g.submit(&stream, &[bo], &[true]).unwrap();
    let submit = fake
        .calls()
        .last()
        .unwrap()
        .input::<etna::DrmEtnavivGemSubmit>();
    assert_eq!((submit.nr_relocs, submit.flags), (0, etna::submit::SOFTPIN));
    assert_eq!(
        stream.words()[1],
        0x4000_0000,
        "the stream holds the pinned address"
    );
}

/// A model gpucc has no preset for is a target all the same, made from what the kernel
/// reports: named after its values, with the facts its feature words give (GC7000's here).
#[test]
fn vivante_core_without_a_preset_is_made_from_its_values() {
    let fake = Rc::new(etnaviv_kernel(0x880, None));
    let dev = open(&fake).unwrap();
    let mut expected = Specs::from_name("gc7000").unwrap().params();
    expected.model = 0x880;
    assert!(dev.target().starts_with("gc880-r6214-"), "{}", dev.target());
    assert_eq!(dev.target(), expected.custom_name());
    let Gpu::Etnaviv(g) = dev.gpu() else { panic!() };
    assert_eq!(g.specs().params(), expected);
    assert_eq!(g.specs().halti(), 5);
    let gpucc::target::Target::Etnaviv(s) = dev.compiler_target().unwrap() else {
        panic!()
    };
    assert!(std::ptr::eq(s, g.specs()));
}

/// The kernel's values on a preset model are taken as they are: a GC7000 that reports
/// another instruction count is not the gc7000 preset.
#[test]
fn a_preset_model_with_other_values_is_its_own_core() {
    let fake = Rc::new(etnaviv_kernel_with(0x7000, None, |p| {
        (p == etna::param::GPU_NUM_CONSTANTS).then_some(256)
    }));
    let dev = open(&fake).unwrap();
    assert!(
        dev.target().starts_with("gc7000-r6214-"),
        "{}",
        dev.target()
    );
}

/// A core the compiler cannot target is refused at identification, naming the value.
#[test]
fn untargetable_vivante_core_is_reported() {
    let fake = Rc::new(etnaviv_kernel_with(0x880, None, |p| {
        (p == etna::param::GPU_REGISTER_MAX).then_some(0)
    }));
    let e = open(&fake).err().unwrap();
    assert!(matches!(e, Error::Unsupported(_)), "{e:?}");
    let e = e.to_string();
    assert!(
        e.contains("GC880") && e.contains("0x6214") && e.contains("register_max is 0"),
        "{e}"
    );
}

#[test]
fn wrong_driver_is_named() {
    let fake = Rc::new(FakeIoctl::new("amdgpu", |_, _| Ok(())));
    let e = open(&fake).err().unwrap();
    assert!(matches!(e, Error::WrongDriver { ref driver, .. } if driver == "amdgpu"));
    assert_eq!(
        e.to_string(),
        "/dev/dri/renderD128 is driven by 'amdgpu', not i915 or etnaviv"
    );
}

#[test]
fn failing_ioctl_names_itself_and_the_errno() {
    let fake = Rc::new(
        FakeIoctl::new("i915", |name, _| {
            if name == "DRM_IOCTL_I915_GEM_CREATE" {
                Err(libc::ENOMEM)
            } else {
                Ok(())
            }
        })
        .with_i915_param(param::CHIPSET_ID, 0x0166),
    );
    let mut dev = open(&fake).unwrap();
    let e = dev.upload(&[1]).unwrap_err();
    assert_eq!(
        e,
        Error::Ioctl {
            name: "DRM_IOCTL_I915_GEM_CREATE",
            errno: libc::ENOMEM
        }
    );
    assert_eq!(
        e.to_string(),
        "DRM_IOCTL_I915_GEM_CREATE failed: Cannot allocate memory (errno 12)"
    );
}

#[test]
fn missing_chipset_id_fails_identification() {
    let fake = Rc::new(FakeIoctl::new("i915", |_, _| Ok(())));
    let e = open(&fake).err().unwrap().to_string();
    assert!(
        e.starts_with("DRM_IOCTL_I915_GETPARAM(CHIPSET_ID) failed: Invalid argument"),
        "{e}"
    );
}

#[test]
fn interrupted_calls_are_retried() {
    let mut results = vec![
        Err(libc::EINTR),
        Err(libc::EAGAIN),
        Err(libc::EINTR),
        Ok(()),
    ]
    .into_iter();
    let mut calls = 0;
    assert_eq!(
        retry_interrupted(|| {
            calls += 1;
            results.next().unwrap()
        }),
        Ok(())
    );
    assert_eq!(calls, 4);
    let mut calls = 0;
    assert_eq!(
        retry_interrupted(|| {
            calls += 1;
            Err(libc::EIO)
        }),
        Err(libc::EIO)
    );
    assert_eq!(calls, 1, "other errors are not retried");
}

#[test]
fn no_render_node_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("gpucc-drm-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let e = Device::open_first(&dir).err().unwrap();
    assert_eq!(e.to_string(), "no i915 or etnaviv render node found");
    let nodes = gpucc::drm::node::list_render_nodes_in(&dir);
    assert!(nodes.is_empty());
    assert_eq!(format_nodes(&nodes), "no render nodes\n");
    // A directory that does not exist at all behaves the same.
    assert!(matches!(
        Device::open_first(&dir.join("missing")),
        Err(Error::NoDevice)
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_non_drm_node_reports_the_version_ioctl() {
    // A regular file named like a render node: open works, DRM_IOCTL_VERSION does not.
    let dir = std::env::temp_dir().join(format!("gpucc-drm-fake-node-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("renderD128"), b"").unwrap();
    std::fs::write(dir.join("card0"), b"").unwrap();
    let e = Device::open_first(&dir).err().unwrap();
    assert_eq!(
        e,
        Error::Ioctl {
            name: "DRM_IOCTL_VERSION",
            errno: libc::ENOTTY
        }
    );
    let nodes = gpucc::drm::node::list_render_nodes_in(&dir);
    assert_eq!(nodes.len(), 1, "only renderD* nodes are listed");
    let text = format_nodes(&nodes);
    assert!(
        text.contains("renderD128: ?, no target (DRM_IOCTL_VERSION failed"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn open_of_a_missing_path_names_it() {
    let e = Device::open(Some(Path::new("/nonexistent/renderD999")))
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "cannot open /nonexistent/renderD999: No such file or directory (errno 2)"
    );
}

#[test]
fn fake_request_numbers_match_uapi() {
    let fake = FakeIoctl::new("i915", |_, _| Ok(()));
    let mut arg = i915::DrmI915GemWait::default();
    gpucc::drm::ioctl::call(&fake, i915::GEM_WAIT, &mut arg).unwrap();
    assert_eq!(fake.calls()[0].request, i915::GEM_WAIT.number);
    assert_eq!(fake.calls()[0].arg_in.len(), 16);
    let _ = fake.version();
}

#[test]
fn i915_gen8_softpin_dispatch() {
    let fake = Rc::new(i915_kernel(0x1616, true));
    let mut dev = open(&fake).unwrap();
    assert_eq!(dev.target(), "bdw");
    let program = dev.upload(&[0; 64]).unwrap();
    let data = dev.upload(&[0; 64]).unwrap();
    // Softpin: gpucc assigns addresses from 1 MiB in 64 KiB steps.
    assert_eq!((program.address, data.address), (0x10_0000, 0x11_0000));
    let Gpu::I915(g) = dev.gpu_mut() else {
        panic!()
    };
    let to_bo = |b: gpucc::drm::device::Buffer| Bo {
        handle: b.handle,
        size: b.size,
        address: b.address,
    };
    let mut d = tiny_dispatch();
    d.buffer_sizes = vec![64];
    g.dispatch_compute(&to_bo(program), &d, &[to_bo(data)])
        .unwrap();
    let calls = fake.calls();
    let eb = calls
        .iter()
        .find(|c| c.name == "DRM_IOCTL_I915_GEM_EXECBUFFER2")
        .unwrap()
        .input::<i915::DrmI915GemExecbuffer2>();
    assert_eq!(eb.flags, i915::exec::RENDER | i915::exec::NO_RELOC);
    assert_eq!(eb.batch_len, 208, "52 Gen8 command dwords");
    // A buffer list that does not match the dispatch is refused before any ioctl.
    let before = fake.calls().len();
    assert!(g.dispatch_compute(&to_bo(program), &d, &[]).is_err());
    assert_eq!(fake.calls().len(), before);
}

#[test]
fn etnaviv_shader_load_and_submit() {
    use gpucc::drm::etnaviv::shader::{ShaderImage, Stage, UploadForm};
    let fake = Rc::new(etnaviv_kernel(0x7000, None));
    let mut dev = open(&fake).unwrap();
    let Gpu::Etnaviv(g) = dev.gpu_mut() else {
        panic!()
    };
    let code = [1u32, 2, 3, 4, 5, 6, 7, 8];
    let image = ShaderImage {
        stage: Stage::Fragment,
        code: &code,
        temps: 2,
        inputs: &[],
        outputs: &[0],
        uniforms: &[],
        input_count_unk8: 31,
    };
    let start = fake.calls().len();
    let load = g.load_shader(&image).unwrap();
    // HALTI5 fetches through the cache: the code goes to a buffer first.
    assert_eq!(load.form, UploadForm::IcacheHalti5);
    let bo = load.bo.unwrap();
    assert_eq!(
        fake.names()[start..],
        [
            "DRM_IOCTL_ETNAVIV_GEM_NEW",
            "DRM_IOCTL_ETNAVIV_GEM_INFO",
            "DRM_IOCTL_ETNAVIV_GEM_CPU_PREP",
            "DRM_IOCTL_ETNAVIV_GEM_CPU_FINI",
        ]
    );
    // The stream's one relocation is the PS instruction address, against submit buffer 0.
    assert_eq!(load.stream.relocs().len(), 1);
    assert_eq!(load.stream.relocs()[0].bo_index, 0);
    let fence = g.submit(&load.stream, &[bo], &[false]).unwrap();
    g.wait_fence(fence, 1_000_000_000).unwrap();
    let submit = fake
        .calls()
        .iter()
        .find(|c| c.name == "DRM_IOCTL_ETNAVIV_GEM_SUBMIT")
        .unwrap()
        .input::<etna::DrmEtnavivGemSubmit>();
    assert_eq!((submit.nr_bos, submit.nr_relocs), (1, 1));
    assert_eq!(submit.stream_size as usize, load.stream.words().len() * 4);
}
