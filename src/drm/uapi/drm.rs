//! Core DRM ioctls (drm.h) that every driver answers.

use super::{uapi_struct, Request};

uapi_struct! {
    /// `struct drm_version`. The kernel fills the three integers and copies at most `*_len`
    /// bytes of each string into the caller's buffers, setting `*_len` to the full length.
    pub struct DrmVersion {
        pub version_major: i32,
        pub version_minor: i32,
        pub version_patchlevel: i32,
        /// Alignment padding before the first `size_t` on 64-bit targets.
        #[cfg(target_pointer_width = "64")]
        pub _pad: u32,
        pub name_len: usize,
        pub name: usize,
        pub date_len: usize,
        pub date: usize,
        pub desc_len: usize,
        pub desc: usize,
    }
}

uapi_struct! {
    /// `struct drm_gem_close`.
    pub struct DrmGemClose {
        pub handle: u32,
        pub pad: u32,
    }
}

pub const VERSION: Request<DrmVersion> = Request::iowr("DRM_IOCTL_VERSION", 0x00);
pub const GEM_CLOSE: Request<DrmGemClose> = Request::iow("DRM_IOCTL_GEM_CLOSE", 0x09);
