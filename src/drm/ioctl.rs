//! The one door to the kernel: the [`Ioctl`] trait, its implementation on a file descriptor,
//! and CPU mappings of buffer objects.
//!
//! Everything above this module builds argument structs and interprets answers; only
//! [`FdIoctl`] makes system calls. That split lets tests run the whole open → identify →
//! upload → submit sequence in-process against [`super::fake::FakeIoctl`].

use std::fs::File;
use std::os::fd::AsRawFd;
use std::ptr::NonNull;

use super::error::{Error, Result};
use super::uapi::{self, Pod, Request};

/// The driver's answer to DRM_IOCTL_VERSION.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DriverVersion {
    pub name: String,
    pub major: i32,
    pub minor: i32,
    pub patchlevel: i32,
    pub date: String,
    pub desc: String,
}

/// A device file that answers ioctls and maps buffer objects. Errors are raw errno values;
/// [`call`] turns them into [`Error::Ioctl`] with the ioctl's name.
pub trait Ioctl {
    /// Issues `request` with `arg` as its argument struct (in and out).
    fn ioctl(
        &self,
        name: &'static str,
        request: u64,
        arg: &mut [u8],
    ) -> std::result::Result<(), i32>;

    /// Maps `len` bytes of the device file at `offset` (the fake offset a GEM ioctl returned).
    fn mmap(&self, offset: u64, len: usize) -> std::result::Result<Mapping, i32>;

    /// DRM_IOCTL_I915_GETPARAM: the kernel writes the answer through a pointer in the
    /// argument, so like [`Ioctl::version`] it is a method a test double can answer directly.
    fn i915_getparam(&self, param: i32) -> std::result::Result<i32, i32> {
        let mut value: i32 = 0;
        let mut arg = uapi::i915::DrmI915Getparam {
            param,
            value: &mut value as *mut i32 as usize,
            ..Default::default()
        };
        let request = uapi::i915::GETPARAM;
        self.ioctl(request.name, request.number, arg.as_bytes_mut())?;
        Ok(value)
    }

    /// Why the last failing ioctl failed, beyond its errno, when the device can say (the
    /// simulated node names the command and dword of a batch it cannot run).
    fn failure_detail(&self) -> Option<String> {
        None
    }

    /// DRM_IOCTL_VERSION. It is one of two ioctls whose answer lands in caller buffers named by
    /// pointers inside the argument, so it is a method of its own: the real device does the
    /// usual two calls (sizes, then strings); a test double simply answers.
    fn version(&self) -> std::result::Result<DriverVersion, i32> {
        let mut v = uapi::drm::DrmVersion::default();
        self.ioctl(
            uapi::drm::VERSION.name,
            uapi::drm::VERSION.number,
            v.as_bytes_mut(),
        )?;
        let mut name = vec![0u8; v.name_len];
        let mut date = vec![0u8; v.date_len];
        let mut desc = vec![0u8; v.desc_len];
        v.name = name.as_mut_ptr() as usize;
        v.date = date.as_mut_ptr() as usize;
        v.desc = desc.as_mut_ptr() as usize;
        self.ioctl(
            uapi::drm::VERSION.name,
            uapi::drm::VERSION.number,
            v.as_bytes_mut(),
        )?;
        let text = |mut bytes: Vec<u8>, len: usize| {
            bytes.truncate(len);
            String::from_utf8_lossy(&bytes)
                .trim_end_matches('\0')
                .to_string()
        };
        let (name_len, date_len, desc_len) = (
            name.len().min(v.name_len),
            date.len().min(v.date_len),
            desc.len().min(v.desc_len),
        );
        Ok(DriverVersion {
            name: text(name, name_len),
            major: v.version_major,
            minor: v.version_minor,
            patchlevel: v.version_patchlevel,
            date: text(date, date_len),
            desc: text(desc, desc_len),
        })
    }
}

/// Issues a typed request; a failure names the ioctl and the errno text.
pub fn call<T: Pod>(io: &dyn Ioctl, request: Request<T>, arg: &mut T) -> Result<()> {
    io.ioctl(request.name, request.number, arg.as_bytes_mut())
        .map_err(|errno| Error::Ioctl {
            name: request.name,
            errno,
        })
}

/// Repeats `op` while it fails with EINTR or EAGAIN, as libdrm's drmIoctl does: a signal
/// or a busy GPU interrupts the call without it having had any effect.
pub fn retry_interrupted(
    mut op: impl FnMut() -> std::result::Result<(), i32>,
) -> std::result::Result<(), i32> {
    loop {
        match op() {
            Err(e) if e == libc::EINTR || e == libc::EAGAIN => continue,
            other => return other,
        }
    }
}

/// The real device: ioctls on an open render node.
pub struct FdIoctl {
    file: File,
}

impl FdIoctl {
    pub fn new(file: File) -> FdIoctl {
        FdIoctl { file }
    }
}

fn last_errno() -> i32 {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

impl Ioctl for FdIoctl {
    fn ioctl(
        &self,
        _name: &'static str,
        request: u64,
        arg: &mut [u8],
    ) -> std::result::Result<(), i32> {
        let size = ((request >> 16) & 0x3fff) as usize;
        if arg.len() < size {
            // The kernel would read or write past the buffer; refuse rather than corrupt memory.
            return Err(libc::EINVAL);
        }
        let fd = self.file.as_raw_fd();
        retry_interrupted(|| {
            // SAFETY: `fd` is an open file owned by `self`; `arg` is a live, exclusively
            // borrowed buffer at least as large as the size encoded in `request`, which is
            // all the kernel reads or writes for a DRM ioctl argument. Pointers inside the
            // argument (VERSION buffers, exec object arrays, pwrite data) are set by our
            // callers to buffers that outlive this call.
            let rc = unsafe { libc::ioctl(fd, request as _, arg.as_mut_ptr()) };
            if rc == -1 {
                Err(last_errno())
            } else {
                Ok(())
            }
        })
    }

    fn mmap(&self, offset: u64, len: usize) -> std::result::Result<Mapping, i32> {
        if len == 0 {
            return Ok(Mapping::owned(Vec::new()));
        }
        let offset = libc::off_t::try_from(offset).map_err(|_| libc::EOVERFLOW)?;
        // SAFETY: a fresh shared mapping chosen by the kernel (addr NULL) cannot overlap any
        // Rust object; the fd stays open for the call, and the mapping keeps the object alive
        // after the fd is closed.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                self.file.as_raw_fd(),
                offset,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(last_errno());
        }
        let ptr = NonNull::new(ptr.cast::<u8>()).ok_or(libc::ENOMEM)?;
        Ok(Mapping {
            inner: Inner::Os { ptr, len },
        })
    }
}

/// CPU access to a buffer object: an OS mapping of a real one, or plain memory for a fake.
pub struct Mapping {
    inner: Inner,
}

enum Inner {
    Os { ptr: NonNull<u8>, len: usize },
    Owned(Vec<u8>),
}

impl Mapping {
    /// A mapping backed by ordinary memory (used by test doubles).
    pub fn owned(bytes: Vec<u8>) -> Mapping {
        Mapping {
            inner: Inner::Owned(bytes),
        }
    }

    pub fn as_slice(&self) -> &[u8] {
        match &self.inner {
            // SAFETY: `ptr` is the start of a live mapping of `len` readable bytes owned by
            // this value (unmapped only in Drop).
            Inner::Os { ptr, len } => unsafe { std::slice::from_raw_parts(ptr.as_ptr(), *len) },
            Inner::Owned(v) => v,
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        match &mut self.inner {
            // SAFETY: as above, mapped writable; `&mut self` makes the view exclusive within
            // this process (the GPU only touches it after a submit, which waits on domains).
            Inner::Os { ptr, len } => unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), *len) },
            Inner::Owned(v) => v,
        }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        if let Inner::Os { ptr, len } = self.inner {
            // SAFETY: `ptr`/`len` describe a mapping created by mmap in FdIoctl::mmap and not
            // unmapped before; no slice into it outlives `self`.
            unsafe { libc::munmap(ptr.as_ptr().cast(), len) };
        }
    }
}

/// Shared doors (a test keeps one handle to inspect the fake while a device owns another).
impl<T: Ioctl + ?Sized> Ioctl for std::rc::Rc<T> {
    fn ioctl(
        &self,
        name: &'static str,
        request: u64,
        arg: &mut [u8],
    ) -> std::result::Result<(), i32> {
        (**self).ioctl(name, request, arg)
    }

    fn mmap(&self, offset: u64, len: usize) -> std::result::Result<Mapping, i32> {
        (**self).mmap(offset, len)
    }

    fn i915_getparam(&self, param: i32) -> std::result::Result<i32, i32> {
        (**self).i915_getparam(param)
    }

    fn version(&self) -> std::result::Result<DriverVersion, i32> {
        (**self).version()
    }

    fn failure_detail(&self) -> Option<String> {
        (**self).failure_detail()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &str) -> FdIoctl {
        FdIoctl::new(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .unwrap(),
        )
    }

    #[test]
    fn ioctl_on_a_non_drm_file_fails_with_enotty() {
        let io = open("/dev/null");
        let mut arg = uapi::drm::DrmGemClose { handle: 1, pad: 0 };
        let e = call(&io, uapi::drm::GEM_CLOSE, &mut arg).unwrap_err();
        assert_eq!(
            e,
            Error::Ioctl {
                name: "DRM_IOCTL_GEM_CLOSE",
                errno: libc::ENOTTY
            }
        );
        assert_eq!(io.version(), Err(libc::ENOTTY));
    }

    #[test]
    fn short_argument_buffers_are_refused_before_the_kernel_sees_them() {
        let io = open("/dev/null");
        let mut small = [0u8; 4];
        // GEM_CLOSE's request encodes an 8-byte argument.
        assert_eq!(
            io.ioctl("test", uapi::drm::GEM_CLOSE.number, &mut small),
            Err(libc::EINVAL)
        );
    }

    #[test]
    fn shared_mappings_read_and_write() {
        // /dev/zero supports MAP_SHARED mappings like a GEM object's fake offset does.
        let io = open("/dev/zero");
        let mut map = io.mmap(0, 8192).unwrap();
        assert!(map.as_slice().iter().all(|&b| b == 0));
        map.as_mut_slice()[4095..4097].copy_from_slice(&[7, 9]);
        assert_eq!(&map.as_slice()[4094..4098], &[0, 7, 9, 0]);
        assert_eq!(io.mmap(0, 0).unwrap().as_slice().len(), 0);
    }

    #[test]
    fn mmap_failures_return_the_errno() {
        // /dev/null cannot be mapped.
        assert_eq!(open("/dev/null").mmap(0, 4096).err(), Some(libc::ENODEV));
    }

    #[test]
    fn errno_text_drops_the_rust_suffix() {
        assert_eq!(
            crate::drm::error::errno_text(libc::ENOENT),
            "No such file or directory"
        );
    }
}
