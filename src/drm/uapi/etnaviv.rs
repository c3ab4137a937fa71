//! etnaviv ioctls (etnaviv_drm.h).

use super::{uapi_struct, Request, DRM_COMMAND_BASE};

uapi_struct! {
    /// `struct drm_etnaviv_timespec`: an absolute CLOCK_MONOTONIC deadline.
    pub struct DrmEtnavivTimespec {
        pub tv_sec: i64,
        pub tv_nsec: i64,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_param`.
    pub struct DrmEtnavivParam {
        pub pipe: u32,
        pub param: u32,
        pub value: u64,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_gem_new`.
    pub struct DrmEtnavivGemNew {
        pub size: u64,
        pub flags: u32,
        pub handle: u32,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_gem_info`: returns the offset to pass to mmap(2).
    pub struct DrmEtnavivGemInfo {
        pub handle: u32,
        pub pad: u32,
        pub offset: u64,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_gem_cpu_prep`.
    pub struct DrmEtnavivGemCpuPrep {
        pub handle: u32,
        pub op: u32,
        pub timeout: DrmEtnavivTimespec,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_gem_cpu_fini`.
    pub struct DrmEtnavivGemCpuFini {
        pub handle: u32,
        pub flags: u32,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_gem_submit_reloc`.
    pub struct DrmEtnavivGemSubmitReloc {
        pub submit_offset: u32,
        pub reloc_idx: u32,
        pub reloc_offset: u64,
        pub flags: u32,
        /// Tail padding the C struct has implicitly (its size is a multiple of 8).
        pub _pad: u32,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_gem_submit_bo`.
    pub struct DrmEtnavivGemSubmitBo {
        pub flags: u32,
        pub handle: u32,
        pub presumed: u64,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_gem_submit`.
    pub struct DrmEtnavivGemSubmit {
        pub fence: u32,
        pub pipe: u32,
        pub exec_state: u32,
        pub nr_bos: u32,
        pub nr_relocs: u32,
        pub stream_size: u32,
        pub bos: u64,
        pub relocs: u64,
        pub stream: u64,
        pub flags: u32,
        pub fence_fd: i32,
        pub pmrs: u64,
        pub nr_pmrs: u32,
        pub pad: u32,
    }
}

uapi_struct! {
    /// `struct drm_etnaviv_wait_fence`.
    pub struct DrmEtnavivWaitFence {
        pub pipe: u32,
        pub fence: u32,
        pub flags: u32,
        pub pad: u32,
        pub timeout: DrmEtnavivTimespec,
    }
}

pub const GET_PARAM: Request<DrmEtnavivParam> =
    Request::iowr("DRM_IOCTL_ETNAVIV_GET_PARAM", DRM_COMMAND_BASE);
pub const GEM_NEW: Request<DrmEtnavivGemNew> =
    Request::iowr("DRM_IOCTL_ETNAVIV_GEM_NEW", DRM_COMMAND_BASE + 0x02);
pub const GEM_INFO: Request<DrmEtnavivGemInfo> =
    Request::iowr("DRM_IOCTL_ETNAVIV_GEM_INFO", DRM_COMMAND_BASE + 0x03);
pub const GEM_CPU_PREP: Request<DrmEtnavivGemCpuPrep> =
    Request::iow("DRM_IOCTL_ETNAVIV_GEM_CPU_PREP", DRM_COMMAND_BASE + 0x04);
pub const GEM_CPU_FINI: Request<DrmEtnavivGemCpuFini> =
    Request::iow("DRM_IOCTL_ETNAVIV_GEM_CPU_FINI", DRM_COMMAND_BASE + 0x05);
pub const GEM_SUBMIT: Request<DrmEtnavivGemSubmit> =
    Request::iowr("DRM_IOCTL_ETNAVIV_GEM_SUBMIT", DRM_COMMAND_BASE + 0x06);
pub const WAIT_FENCE: Request<DrmEtnavivWaitFence> =
    Request::iow("DRM_IOCTL_ETNAVIV_WAIT_FENCE", DRM_COMMAND_BASE + 0x07);

/// `ETNAVIV_PARAM_*` values for GET_PARAM.
pub mod param {
    pub const GPU_MODEL: u32 = 0x01;
    pub const GPU_REVISION: u32 = 0x02;
    /// FEATURES_0..12 are consecutive from here.
    pub const GPU_FEATURES_0: u32 = 0x03;
    pub const GPU_STREAM_COUNT: u32 = 0x10;
    pub const GPU_REGISTER_MAX: u32 = 0x11;
    pub const GPU_THREAD_COUNT: u32 = 0x12;
    pub const GPU_VERTEX_CACHE_SIZE: u32 = 0x13;
    pub const GPU_SHADER_CORE_COUNT: u32 = 0x14;
    pub const GPU_PIXEL_PIPES: u32 = 0x15;
    pub const GPU_VERTEX_OUTPUT_BUFFER_SIZE: u32 = 0x16;
    pub const GPU_BUFFER_SIZE: u32 = 0x17;
    pub const GPU_INSTRUCTION_COUNT: u32 = 0x18;
    pub const GPU_NUM_CONSTANTS: u32 = 0x19;
    pub const GPU_NUM_VARYINGS: u32 = 0x1a;
    pub const SOFTPIN_START_ADDR: u32 = 0x1b;
    pub const GPU_PRODUCT_ID: u32 = 0x1c;
    pub const GPU_CUSTOMER_ID: u32 = 0x1d;
    pub const GPU_ECO_ID: u32 = 0x1e;
}

/// `ETNA_BO_*` cache flags for GEM_NEW.
pub mod bo {
    pub const CACHED: u32 = 0x0001_0000;
    pub const WC: u32 = 0x0002_0000;
    pub const UNCACHED: u32 = 0x0004_0000;
}

/// `ETNA_PREP_*` for GEM_CPU_PREP.
pub mod prep {
    pub const READ: u32 = 0x01;
    pub const WRITE: u32 = 0x02;
}

/// `ETNA_SUBMIT_BO_*` and `ETNA_SUBMIT_*` flags.
pub mod submit {
    pub const BO_READ: u32 = 0x0001;
    pub const BO_WRITE: u32 = 0x0002;
    pub const SOFTPIN: u32 = 0x0008;
}

/// The 3D pipe (`ETNA_PIPE_3D`).
pub const PIPE_3D: u32 = 0;
