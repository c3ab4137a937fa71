//! The Rust uapi structs and request numbers against the kernel's own headers.
//!
//! A small C program includes i915_drm.h and etnaviv_drm.h, prints sizeof, offsetof and the
//! DRM_IOCTL_* values, and the test compares every line with the Rust side. The headers come
//! from the kernel's uapi (Debian: linux-headers-<version>-common puts them under
//! /usr/src/linux-headers-*/include/uapi/drm; Ubuntu and newer Debian linux-libc-dev under
//! /usr/include/drm); `GPUCC_DRM_INCLUDE` names another directory. Without them the test
//! skips visibly, naming the package that brings them (README's setup installs it), and with
//! `GPUCC_REQUIRE_DRM_HEADERS=1` (CI) it fails: the layout is the only thing standing between
//! gpucc and a kernel reading the wrong bytes.

mod common;

use std::fmt::Write as _;
use std::mem::{offset_of, size_of};
use std::process::Command;

use gpucc::drm::uapi::{drm as core, etnaviv as etna, i915};

const HEADERS: [&str; 3] = ["drm.h", "i915_drm.h", "etnaviv_drm.h"];

/// (C expression, Rust value) pairs for one struct: its size and each field's offset.
macro_rules! layout {
    ($out:ident, $rust:ty, $c:literal { $($rf:ident => $cf:literal),* $(,)? }) => {
        $out.push((format!("sizeof({})", $c), size_of::<$rust>() as u64));
        $( $out.push((format!("offsetof({}, {})", $c, $cf), offset_of!($rust, $rf) as u64)); )*
    };
}

fn expectations() -> Vec<(String, u64)> {
    let mut v = Vec::new();
    layout!(v, core::DrmVersion, "struct drm_version" {
        version_major => "version_major", version_minor => "version_minor",
        version_patchlevel => "version_patchlevel", name_len => "name_len", name => "name",
        date_len => "date_len", date => "date", desc_len => "desc_len", desc => "desc",
    });
    layout!(v, core::DrmGemClose, "struct drm_gem_close" { handle => "handle", pad => "pad" });
    layout!(v, i915::DrmI915Getparam, "struct drm_i915_getparam" { param => "param", value => "value" });
    layout!(v, i915::DrmI915GemCreate, "struct drm_i915_gem_create" {
        size => "size", handle => "handle", pad => "pad",
    });
    layout!(v, i915::DrmI915GemPwrite, "struct drm_i915_gem_pwrite" {
        handle => "handle", pad => "pad", offset => "offset", size => "size", data_ptr => "data_ptr",
    });
    layout!(v, i915::DrmI915GemMmap, "struct drm_i915_gem_mmap" {
        handle => "handle", pad => "pad", offset => "offset", size => "size",
        addr_ptr => "addr_ptr", flags => "flags",
    });
    layout!(v, i915::DrmI915GemMmapOffset, "struct drm_i915_gem_mmap_offset" {
        handle => "handle", pad => "pad", offset => "offset", flags => "flags",
        extensions => "extensions",
    });
    layout!(v, i915::DrmI915GemSetDomain, "struct drm_i915_gem_set_domain" {
        handle => "handle", read_domains => "read_domains", write_domain => "write_domain",
    });
    layout!(v, i915::DrmI915GemWait, "struct drm_i915_gem_wait" {
        bo_handle => "bo_handle", flags => "flags", timeout_ns => "timeout_ns",
    });
    layout!(v, i915::DrmI915GemContextCreate, "struct drm_i915_gem_context_create" {
        ctx_id => "ctx_id", pad => "pad",
    });
    layout!(v, i915::DrmI915GemContextDestroy, "struct drm_i915_gem_context_destroy" {
        ctx_id => "ctx_id", pad => "pad",
    });
    layout!(v, i915::DrmI915GemExecbuffer2, "struct drm_i915_gem_execbuffer2" {
        buffers_ptr => "buffers_ptr", buffer_count => "buffer_count",
        batch_start_offset => "batch_start_offset", batch_len => "batch_len", dr1 => "DR1",
        dr4 => "DR4", num_cliprects => "num_cliprects", cliprects_ptr => "cliprects_ptr",
        flags => "flags", rsvd1 => "rsvd1", rsvd2 => "rsvd2",
    });
    layout!(v, i915::DrmI915GemExecObject2, "struct drm_i915_gem_exec_object2" {
        handle => "handle", relocation_count => "relocation_count", relocs_ptr => "relocs_ptr",
        alignment => "alignment", offset => "offset", flags => "flags", rsvd1 => "rsvd1",
        rsvd2 => "rsvd2",
    });
    layout!(v, i915::DrmI915GemRelocationEntry, "struct drm_i915_gem_relocation_entry" {
        target_handle => "target_handle", delta => "delta", offset => "offset",
        presumed_offset => "presumed_offset", read_domains => "read_domains",
        write_domain => "write_domain",
    });
    layout!(v, etna::DrmEtnavivTimespec, "struct drm_etnaviv_timespec" {
        tv_sec => "tv_sec", tv_nsec => "tv_nsec",
    });
    layout!(v, etna::DrmEtnavivParam, "struct drm_etnaviv_param" {
        pipe => "pipe", param => "param", value => "value",
    });
    layout!(v, etna::DrmEtnavivGemNew, "struct drm_etnaviv_gem_new" {
        size => "size", flags => "flags", handle => "handle",
    });
    layout!(v, etna::DrmEtnavivGemInfo, "struct drm_etnaviv_gem_info" {
        handle => "handle", pad => "pad", offset => "offset",
    });
    layout!(v, etna::DrmEtnavivGemCpuPrep, "struct drm_etnaviv_gem_cpu_prep" {
        handle => "handle", op => "op", timeout => "timeout",
    });
    layout!(v, etna::DrmEtnavivGemCpuFini, "struct drm_etnaviv_gem_cpu_fini" {
        handle => "handle", flags => "flags",
    });
    layout!(v, etna::DrmEtnavivGemSubmitReloc, "struct drm_etnaviv_gem_submit_reloc" {
        submit_offset => "submit_offset", reloc_idx => "reloc_idx",
        reloc_offset => "reloc_offset", flags => "flags",
    });
    layout!(v, etna::DrmEtnavivGemSubmitBo, "struct drm_etnaviv_gem_submit_bo" {
        flags => "flags", handle => "handle", presumed => "presumed",
    });
    layout!(v, etna::DrmEtnavivGemSubmit, "struct drm_etnaviv_gem_submit" {
        fence => "fence", pipe => "pipe", exec_state => "exec_state", nr_bos => "nr_bos",
        nr_relocs => "nr_relocs", stream_size => "stream_size", bos => "bos",
        relocs => "relocs", stream => "stream", flags => "flags", fence_fd => "fence_fd",
        pmrs => "pmrs", nr_pmrs => "nr_pmrs", pad => "pad",
    });
    layout!(v, etna::DrmEtnavivWaitFence, "struct drm_etnaviv_wait_fence" {
        pipe => "pipe", fence => "fence", flags => "flags", pad => "pad", timeout => "timeout",
    });

    let requests: [(&str, u64); 18] = [
        ("DRM_IOCTL_VERSION", core::VERSION.number),
        ("DRM_IOCTL_GEM_CLOSE", core::GEM_CLOSE.number),
        ("DRM_IOCTL_I915_GETPARAM", i915::GETPARAM.number),
        ("DRM_IOCTL_I915_GEM_CREATE", i915::GEM_CREATE.number),
        ("DRM_IOCTL_I915_GEM_PWRITE", i915::GEM_PWRITE.number),
        ("DRM_IOCTL_I915_GEM_MMAP", i915::GEM_MMAP.number),
        (
            "DRM_IOCTL_I915_GEM_MMAP_OFFSET",
            i915::GEM_MMAP_OFFSET.number,
        ),
        ("DRM_IOCTL_I915_GEM_SET_DOMAIN", i915::GEM_SET_DOMAIN.number),
        ("DRM_IOCTL_I915_GEM_WAIT", i915::GEM_WAIT.number),
        (
            "DRM_IOCTL_I915_GEM_CONTEXT_CREATE",
            i915::GEM_CONTEXT_CREATE.number,
        ),
        (
            "DRM_IOCTL_I915_GEM_CONTEXT_DESTROY",
            i915::GEM_CONTEXT_DESTROY.number,
        ),
        (
            "DRM_IOCTL_I915_GEM_EXECBUFFER2",
            i915::GEM_EXECBUFFER2.number,
        ),
        ("DRM_IOCTL_ETNAVIV_GET_PARAM", etna::GET_PARAM.number),
        ("DRM_IOCTL_ETNAVIV_GEM_NEW", etna::GEM_NEW.number),
        ("DRM_IOCTL_ETNAVIV_GEM_INFO", etna::GEM_INFO.number),
        ("DRM_IOCTL_ETNAVIV_GEM_CPU_PREP", etna::GEM_CPU_PREP.number),
        ("DRM_IOCTL_ETNAVIV_GEM_CPU_FINI", etna::GEM_CPU_FINI.number),
        ("DRM_IOCTL_ETNAVIV_GEM_SUBMIT", etna::GEM_SUBMIT.number),
    ];
    for (name, number) in requests {
        v.push(((*name).to_string(), number));
    }
    v.push((
        "DRM_IOCTL_ETNAVIV_WAIT_FENCE".to_string(),
        etna::WAIT_FENCE.number,
    ));

    // Parameter numbers and flags the code passes to the kernel.
    let constants: [(&str, u64); 27] = [
        ("I915_PARAM_CHIPSET_ID", i915::param::CHIPSET_ID as u64),
        ("I915_PARAM_REVISION", i915::param::REVISION as u64),
        (
            "I915_PARAM_HAS_EXEC_SOFTPIN",
            i915::param::HAS_EXEC_SOFTPIN as u64,
        ),
        (
            "I915_PARAM_HAS_EXEC_NO_RELOC",
            i915::param::HAS_EXEC_NO_RELOC as u64,
        ),
        (
            "I915_PARAM_HAS_EXEC_HANDLE_LUT",
            i915::param::HAS_EXEC_HANDLE_LUT as u64,
        ),
        ("I915_PARAM_EU_TOTAL", i915::param::EU_TOTAL as u64),
        (
            "I915_PARAM_SUBSLICE_TOTAL",
            i915::param::SUBSLICE_TOTAL as u64,
        ),
        ("I915_GEM_DOMAIN_RENDER", i915::domain::RENDER as u64),
        (
            "I915_GEM_DOMAIN_INSTRUCTION",
            i915::domain::INSTRUCTION as u64,
        ),
        ("I915_GEM_DOMAIN_WC", i915::domain::WC as u64),
        ("I915_MMAP_OFFSET_WC", i915::mmap_offset::WC),
        ("EXEC_OBJECT_WRITE", i915::exec_object::WRITE),
        ("EXEC_OBJECT_PINNED", i915::exec_object::PINNED),
        (
            "EXEC_OBJECT_SUPPORTS_48B_ADDRESS",
            i915::exec_object::SUPPORTS_48B_ADDRESS,
        ),
        ("I915_EXEC_RENDER", i915::exec::RENDER),
        ("I915_EXEC_NO_RELOC", i915::exec::NO_RELOC),
        ("ETNAVIV_PARAM_GPU_MODEL", etna::param::GPU_MODEL as u64),
        (
            "ETNAVIV_PARAM_GPU_FEATURES_0",
            etna::param::GPU_FEATURES_0 as u64,
        ),
        (
            "ETNAVIV_PARAM_GPU_FEATURES_12",
            etna::param::GPU_FEATURES_0 as u64 + 12,
        ),
        (
            "ETNAVIV_PARAM_GPU_REGISTER_MAX",
            etna::param::GPU_REGISTER_MAX as u64,
        ),
        (
            "ETNAVIV_PARAM_GPU_INSTRUCTION_COUNT",
            etna::param::GPU_INSTRUCTION_COUNT as u64,
        ),
        (
            "ETNAVIV_PARAM_GPU_NUM_CONSTANTS",
            etna::param::GPU_NUM_CONSTANTS as u64,
        ),
        (
            "ETNAVIV_PARAM_SOFTPIN_START_ADDR",
            etna::param::SOFTPIN_START_ADDR as u64,
        ),
        ("ETNA_BO_WC", etna::bo::WC as u64),
        ("ETNA_PREP_WRITE", etna::prep::WRITE as u64),
        ("ETNA_SUBMIT_BO_WRITE", etna::submit::BO_WRITE as u64),
        ("ETNA_SUBMIT_SOFTPIN", etna::submit::SOFTPIN as u64),
    ];
    for (name, value) in constants {
        v.push((name.to_string(), value));
    }
    v
}

#[test]
fn uapi_matches_kernel_headers() {
    let Some(dir) = common::drm_uapi_headers(&HEADERS) else {
        return;
    };
    let expected = expectations();

    let mut c = String::from(
        // Unexported uapi trees (the kernel's include/uapi) still carry the sparse
        // annotation `__user`, which headers_install strips; define it away.
        "#include <stdio.h>\n#include <stddef.h>\n#ifndef __user\n#define __user\n#endif\n\
         #include \"drm.h\"\n#include \"i915_drm.h\"\n\
         #include \"etnaviv_drm.h\"\nint main(void) {\n",
    );
    for (expr, _) in &expected {
        writeln!(c, "  printf(\"%llu\\n\", (unsigned long long)({expr}));").unwrap();
    }
    c.push_str("  return 0;\n}\n");

    let work = std::env::temp_dir().join(format!("gpucc-drm-layout-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let src = work.join("layout.c");
    let exe = work.join("layout");
    std::fs::write(&src, &c).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let out = Command::new(&cc)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .arg("-I")
        .arg(&dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler '{cc}': {e}"));
    assert!(
        out.status.success(),
        "compiling the layout probe against {} failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe)
        .output()
        .expect("running the layout probe");
    assert!(run.status.success());
    let _ = std::fs::remove_dir_all(&work);

    let printed: Vec<u64> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(printed.len(), expected.len());
    let mismatches: Vec<String> = expected
        .iter()
        .zip(&printed)
        .filter(|((_, rust), c)| rust != *c)
        .map(|((expr, rust), c)| format!("{expr}: C {c} ({c:#x}), Rust {rust} ({rust:#x})"))
        .collect();
    assert!(
        mismatches.is_empty(),
        "uapi mismatches against {}:\n{}",
        dir.display(),
        mismatches.join("\n")
    );
    eprintln!(
        "checked {} sizes, offsets, request numbers and constants against {}",
        expected.len(),
        dir.display()
    );
}

/// The request encoding itself, by hand from asm-generic/ioctl.h: dir in bits 31:30
/// (1 write, 2 read), size in 29:16, type 'd' (0x64) in 15:8, number in 7:0.
#[test]
fn request_numbers_by_hand() {
    // DRM_IOWR(0x40 + 0x1b, 16-byte struct): 0xc0000000 | 16 << 16 | 0x64 << 8 | 0x5b.
    assert_eq!(i915::GEM_CREATE.number, 0xc010_645b);
    // DRM_IOW(0x09, 8 bytes): 0x40000000 | 8 << 16 | 0x6409.
    assert_eq!(core::GEM_CLOSE.number, 0x4008_6409);
    // DRM_IOW(0x40 + 0x29, 64 bytes): 0x40000000 | 0x40 << 16 | 0x6469.
    assert_eq!(i915::GEM_EXECBUFFER2.number, 0x4040_6469);
    // DRM_IOWR(0x40 + 0x06, 72 bytes) for the etnaviv submit.
    assert_eq!(etna::GEM_SUBMIT.number, 0xc048_6446);
    assert_eq!(etna::GEM_SUBMIT.size(), 72);
}
