//! The kernel's DRM uapi, transcribed as `#[repr(C)]` structs and typed request numbers.
//!
//! Every struct here is plain integers with no implicit padding (the [`uapi_struct!`] macro
//! checks this at compile time), which is what lets [`Pod`] view it as bytes without `unsafe`
//! anywhere else. Where the kernel's C struct has tail or alignment padding, the Rust struct
//! spells it out as a `_pad` field; `tests/drm_layout.rs` compares sizes, offsets and request
//! numbers with the kernel headers.

pub mod drm;
pub mod etnaviv;
pub mod i915;
mod ioc;

pub use ioc::{Pod, Request, DRM_COMMAND_BASE};

/// Declares a uapi struct: `#[repr(C)]`, integer fields only, and a compile-time proof that it
/// has no padding bytes (the sum of the field sizes is the struct size).
macro_rules! uapi_struct {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* pub $f:ident : $t:ty),* $(,)? }) => {
        $(#[$m])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name {
            $($(#[$fm])* pub $f: $t),*
        }

        const _: () = assert!(
            std::mem::size_of::<$name>() == 0 $(+ std::mem::size_of::<$t>())*,
            concat!(stringify!($name), " has implicit padding")
        );

        // SAFETY: `$name` is `#[repr(C)]`, every field is an integer or another `Pod` (checked
        // by the field types' own impls), and the assertion above proves there are no padding
        // bytes, so every byte is initialised and every bit pattern is a valid value.
        unsafe impl $crate::drm::uapi::Pod for $name {}
    };
}
pub(crate) use uapi_struct;
