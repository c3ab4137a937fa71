//! Request numbers as the kernel's `_IOW`/`_IOWR` macros build them, and the byte view of
//! argument structs.

use std::marker::PhantomData;

/// First driver-private ioctl number (`DRM_COMMAND_BASE` in drm.h).
pub const DRM_COMMAND_BASE: u32 = 0x40;

/// The DRM ioctl type letter (`DRM_IOCTL_BASE`).
const DRM_IOCTL_BASE: u32 = b'd' as u32;

// asm-generic/ioctl.h, used by x86, Arm and RISC-V alike: 8 bits of number, 8 of type,
// 14 of size, 2 of direction.
const NR_SHIFT: u32 = 0;
const TYPE_SHIFT: u32 = 8;
const SIZE_SHIFT: u32 = 16;
const DIR_SHIFT: u32 = 30;
const SIZE_BITS: u32 = 14;
const DIR_WRITE: u32 = 1;
const DIR_READ: u32 = 2;

const fn ioc(dir: u32, nr: u32, size: usize) -> u64 {
    assert!(
        size < (1 << SIZE_BITS),
        "ioctl argument too large for the size field"
    );
    ((dir << DIR_SHIFT)
        | (DRM_IOCTL_BASE << TYPE_SHIFT)
        | (nr << NR_SHIFT)
        | ((size as u32) << SIZE_SHIFT)) as u64
}

/// Plain-old-data: a `#[repr(C)]` struct of integers without padding, so that its bytes can
/// be handed to the kernel (or a test double) and read back.
///
/// # Safety
///
/// Implement only through `uapi_struct!`, which checks the no-padding condition.
pub unsafe trait Pod: Copy + Default + 'static {
    /// The struct's bytes, for the ioctl call.
    fn as_bytes_mut(&mut self) -> &mut [u8] {
        let len = std::mem::size_of::<Self>();
        // SAFETY: `Self: Pod` has no padding and only integer fields, so all `len` bytes are
        // initialised and any bytes written through the slice form a valid `Self`. The slice
        // borrows `self` mutably, so nothing else aliases it.
        unsafe { std::slice::from_raw_parts_mut((self as *mut Self).cast::<u8>(), len) }
    }

    /// The struct's bytes, read-only.
    fn as_bytes(&self) -> &[u8] {
        let len = std::mem::size_of::<Self>();
        // SAFETY: as in `as_bytes_mut`; shared borrow, read-only view.
        unsafe { std::slice::from_raw_parts((self as *const Self).cast::<u8>(), len) }
    }

    /// Reads a value back from bytes (for example a recorded ioctl argument). Short input is
    /// zero-extended; extra bytes are ignored.
    fn from_bytes(bytes: &[u8]) -> Self {
        let mut value = Self::default();
        let dst = value.as_bytes_mut();
        let n = dst.len().min(bytes.len());
        dst[..n].copy_from_slice(&bytes[..n]);
        value
    }
}

/// One DRM ioctl: its name (for messages) and request number, typed by its argument struct.
pub struct Request<T> {
    pub name: &'static str,
    pub number: u64,
    arg: PhantomData<fn() -> T>,
}

impl<T> Clone for Request<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Request<T> {}

impl<T> std::fmt::Debug for Request<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({:#010x})", self.name, self.number)
    }
}

impl<T: Pod> Request<T> {
    /// `DRM_IOW(nr, T)`: the kernel only reads the argument.
    pub const fn iow(name: &'static str, nr: u32) -> Self {
        Request {
            name,
            number: ioc(DIR_WRITE, nr, std::mem::size_of::<T>()),
            arg: PhantomData,
        }
    }

    /// `DRM_IOWR(nr, T)`: the kernel reads and writes the argument.
    pub const fn iowr(name: &'static str, nr: u32) -> Self {
        Request {
            name,
            number: ioc(DIR_READ | DIR_WRITE, nr, std::mem::size_of::<T>()),
            arg: PhantomData,
        }
    }

    /// The argument size encoded in the request number.
    pub const fn size(&self) -> usize {
        ((self.number >> SIZE_SHIFT) as usize) & ((1 << SIZE_BITS) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::i915::DrmI915GemCreate;
    use super::*;

    #[test]
    fn bytes_round_trip_in_native_order() {
        let mut a = DrmI915GemCreate {
            size: 0x1122_3344_5566_7788,
            handle: 0xaabb_ccdd,
            pad: 0,
        };
        let bytes = a.as_bytes().to_vec();
        assert_eq!(bytes.len(), 16);
        assert_eq!(&bytes[..8], &0x1122_3344_5566_7788u64.to_ne_bytes());
        assert_eq!(DrmI915GemCreate::from_bytes(&bytes), a);
        a.as_bytes_mut()[8..12].copy_from_slice(&5u32.to_ne_bytes());
        assert_eq!(a.handle, 5);
        // Short input is zero-extended.
        assert_eq!(DrmI915GemCreate::from_bytes(&bytes[..8]).handle, 0);
    }

    #[test]
    fn request_fields() {
        let r = super::super::i915::GEM_CREATE;
        assert_eq!(r.size(), 16);
        assert_eq!(format!("{r:?}"), "DRM_IOCTL_I915_GEM_CREATE (0xc010645b)");
    }
}
