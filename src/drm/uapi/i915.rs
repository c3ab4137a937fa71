//! i915 ioctls (i915_drm.h) used to identify the GPU, manage buffers and submit batches.

use super::{uapi_struct, Request, DRM_COMMAND_BASE};

uapi_struct! {
    /// `drm_i915_getparam_t`: the kernel stores the int answer through `value`.
    pub struct DrmI915Getparam {
        pub param: i32,
        /// Alignment padding before the pointer on 64-bit targets.
        #[cfg(target_pointer_width = "64")]
        pub _pad: u32,
        pub value: usize,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_create`.
    pub struct DrmI915GemCreate {
        pub size: u64,
        pub handle: u32,
        pub pad: u32,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_pwrite`.
    pub struct DrmI915GemPwrite {
        pub handle: u32,
        pub pad: u32,
        pub offset: u64,
        pub size: u64,
        pub data_ptr: u64,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_mmap` (the legacy CPU mapping; returns a user address).
    pub struct DrmI915GemMmap {
        pub handle: u32,
        pub pad: u32,
        pub offset: u64,
        pub size: u64,
        pub addr_ptr: u64,
        pub flags: u64,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_mmap_offset`: returns a fake offset to pass to mmap(2).
    pub struct DrmI915GemMmapOffset {
        pub handle: u32,
        pub pad: u32,
        pub offset: u64,
        pub flags: u64,
        pub extensions: u64,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_set_domain`.
    pub struct DrmI915GemSetDomain {
        pub handle: u32,
        pub read_domains: u32,
        pub write_domain: u32,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_wait`.
    pub struct DrmI915GemWait {
        pub bo_handle: u32,
        pub flags: u32,
        pub timeout_ns: i64,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_context_create`.
    pub struct DrmI915GemContextCreate {
        pub ctx_id: u32,
        pub pad: u32,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_context_destroy`.
    pub struct DrmI915GemContextDestroy {
        pub ctx_id: u32,
        pub pad: u32,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_execbuffer2`. `rsvd1` carries the context id.
    pub struct DrmI915GemExecbuffer2 {
        pub buffers_ptr: u64,
        pub buffer_count: u32,
        pub batch_start_offset: u32,
        pub batch_len: u32,
        pub dr1: u32,
        pub dr4: u32,
        pub num_cliprects: u32,
        pub cliprects_ptr: u64,
        pub flags: u64,
        pub rsvd1: u64,
        pub rsvd2: u64,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_exec_object2`.
    pub struct DrmI915GemExecObject2 {
        pub handle: u32,
        pub relocation_count: u32,
        pub relocs_ptr: u64,
        pub alignment: u64,
        pub offset: u64,
        pub flags: u64,
        pub rsvd1: u64,
        pub rsvd2: u64,
    }
}

uapi_struct! {
    /// `struct drm_i915_gem_relocation_entry`.
    pub struct DrmI915GemRelocationEntry {
        pub target_handle: u32,
        pub delta: u32,
        pub offset: u64,
        pub presumed_offset: u64,
        pub read_domains: u32,
        pub write_domain: u32,
    }
}

pub const GETPARAM: Request<DrmI915Getparam> =
    Request::iowr("DRM_IOCTL_I915_GETPARAM", DRM_COMMAND_BASE + 0x06);
pub const GEM_CREATE: Request<DrmI915GemCreate> =
    Request::iowr("DRM_IOCTL_I915_GEM_CREATE", DRM_COMMAND_BASE + 0x1b);
pub const GEM_PWRITE: Request<DrmI915GemPwrite> =
    Request::iow("DRM_IOCTL_I915_GEM_PWRITE", DRM_COMMAND_BASE + 0x1d);
/// `struct drm_i915_gem_pread` has the layout of the PWRITE argument (data flows out).
pub const GEM_PREAD: Request<DrmI915GemPwrite> =
    Request::iow("DRM_IOCTL_I915_GEM_PREAD", DRM_COMMAND_BASE + 0x1c);
pub const GEM_MMAP: Request<DrmI915GemMmap> =
    Request::iowr("DRM_IOCTL_I915_GEM_MMAP", DRM_COMMAND_BASE + 0x1e);
pub const GEM_SET_DOMAIN: Request<DrmI915GemSetDomain> =
    Request::iow("DRM_IOCTL_I915_GEM_SET_DOMAIN", DRM_COMMAND_BASE + 0x1f);
/// Shares its number (0x24) with the older GEM_MMAP_GTT, which it extends.
pub const GEM_MMAP_OFFSET: Request<DrmI915GemMmapOffset> =
    Request::iowr("DRM_IOCTL_I915_GEM_MMAP_OFFSET", DRM_COMMAND_BASE + 0x24);
pub const GEM_EXECBUFFER2: Request<DrmI915GemExecbuffer2> =
    Request::iow("DRM_IOCTL_I915_GEM_EXECBUFFER2", DRM_COMMAND_BASE + 0x29);
pub const GEM_WAIT: Request<DrmI915GemWait> =
    Request::iowr("DRM_IOCTL_I915_GEM_WAIT", DRM_COMMAND_BASE + 0x2c);
pub const GEM_CONTEXT_CREATE: Request<DrmI915GemContextCreate> =
    Request::iowr("DRM_IOCTL_I915_GEM_CONTEXT_CREATE", DRM_COMMAND_BASE + 0x2d);
pub const GEM_CONTEXT_DESTROY: Request<DrmI915GemContextDestroy> = Request::iow(
    "DRM_IOCTL_I915_GEM_CONTEXT_DESTROY",
    DRM_COMMAND_BASE + 0x2e,
);

/// `I915_PARAM_*` values for GETPARAM.
pub mod param {
    pub const CHIPSET_ID: i32 = 4;
    pub const HAS_EXEC_NO_RELOC: i32 = 25;
    pub const HAS_EXEC_HANDLE_LUT: i32 = 26;
    pub const REVISION: i32 = 32;
    pub const SUBSLICE_TOTAL: i32 = 33;
    pub const EU_TOTAL: i32 = 34;
    pub const HAS_EXEC_SOFTPIN: i32 = 37;
}

/// `I915_GEM_DOMAIN_*`.
pub mod domain {
    pub const CPU: u32 = 0x01;
    pub const RENDER: u32 = 0x02;
    pub const INSTRUCTION: u32 = 0x10;
    pub const GTT: u32 = 0x40;
    pub const WC: u32 = 0x80;
}

/// `I915_MMAP_OFFSET_*` mapping kinds.
pub mod mmap_offset {
    pub const WC: u64 = 1;
    pub const WB: u64 = 2;
}

/// `EXEC_OBJECT_*` flags.
pub mod exec_object {
    pub const WRITE: u64 = 1 << 2;
    pub const SUPPORTS_48B_ADDRESS: u64 = 1 << 3;
    pub const PINNED: u64 = 1 << 4;
}

/// `I915_EXEC_*` flags.
pub mod exec {
    pub const RENDER: u64 = 1 << 0;
    pub const NO_RELOC: u64 = 1 << 11;
    pub const HANDLE_LUT: u64 = 1 << 12;
    pub const BATCH_FIRST: u64 = 1 << 18;
}
