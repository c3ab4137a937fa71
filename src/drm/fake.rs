//! A recording stand-in for a render node, so the request sequence of every operation can be
//! checked in-process on machines without a GPU.
//!
//! The fake keeps a log of every call (name, request number, argument bytes before and after)
//! and lets a test-supplied responder play the kernel: fill in handles, parameters, offsets,
//! or fail with an errno.

use std::cell::RefCell;

use super::ioctl::{DriverVersion, Ioctl, Mapping};
use super::uapi::Pod;

/// One recorded ioctl.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: &'static str,
    pub request: u64,
    /// The argument as the caller passed it.
    pub arg_in: Vec<u8>,
    /// The argument after the responder ran.
    pub arg_out: Vec<u8>,
}

impl Call {
    /// The argument as passed, decoded as `T`.
    pub fn input<T: Pod>(&self) -> T {
        T::from_bytes(&self.arg_in)
    }
}

/// One PWRITE kept: (handle, offset, data).
type Pwrite = (u32, u64, Vec<u8>);

type Responder = Box<dyn FnMut(&'static str, &mut [u8]) -> Result<(), i32>>;

/// The fake device. Responder signature: `(ioctl name, argument bytes) -> Ok or errno`.
pub struct FakeIoctl {
    version: DriverVersion,
    responder: RefCell<Responder>,
    calls: RefCell<Vec<Call>>,
    mmaps: RefCell<Vec<(u64, usize)>>,
    i915_params: Vec<(i32, i32)>,
    /// Bytes written with I915_GEM_PWRITE, per handle; None unless asked for.
    pwrites: Option<RefCell<Vec<Pwrite>>>,
}

impl FakeIoctl {
    /// A device whose driver reports `driver`, answering every ioctl with success and no
    /// change to the argument unless `respond` says otherwise.
    pub fn new(
        driver: &str,
        respond: impl FnMut(&'static str, &mut [u8]) -> Result<(), i32> + 'static,
    ) -> FakeIoctl {
        FakeIoctl {
            version: DriverVersion {
                name: driver.to_string(),
                major: 1,
                minor: 6,
                patchlevel: 0,
                date: "20201103".to_string(),
                desc: format!("fake {driver}"),
            },
            responder: RefCell::new(Box::new(respond)),
            calls: RefCell::new(Vec::new()),
            mmaps: RefCell::new(Vec::new()),
            i915_params: Vec::new(),
            pwrites: None,
        }
    }

    /// Keeps the data of every successful I915_GEM_PWRITE, so a test can see what a buffer
    /// holds ([`FakeIoctl::written`]). Only for callers whose PWRITE arguments point at real
    /// data (gpucc's own write path does).
    pub fn keeping_pwrites(mut self) -> FakeIoctl {
        self.pwrites = Some(RefCell::new(Vec::new()));
        self
    }

    /// The contents of buffer `handle` as the PWRITEs so far left them (zero where nothing
    /// was written), up to the end of the last byte written; empty without
    /// [`FakeIoctl::keeping_pwrites`].
    pub fn written(&self, handle: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        let Some(writes) = &self.pwrites else {
            return bytes;
        };
        for (h, offset, data) in writes.borrow().iter() {
            if *h == handle {
                let at = *offset as usize;
                if bytes.len() < at + data.len() {
                    bytes.resize(at + data.len(), 0);
                }
                bytes[at..at + data.len()].copy_from_slice(data);
            }
        }
        bytes
    }

    /// Answers I915_PARAM `param` with `value`; unknown parameters fail with EINVAL as the
    /// kernel's do.
    pub fn with_i915_param(mut self, param: i32, value: i32) -> FakeIoctl {
        self.i915_params.push((param, value));
        self
    }

    /// Every ioctl made so far, oldest first (DRM_IOCTL_VERSION included).
    pub fn calls(&self) -> Vec<Call> {
        self.calls.borrow().clone()
    }

    /// The names of the ioctls made so far.
    pub fn names(&self) -> Vec<&'static str> {
        self.calls.borrow().iter().map(|c| c.name).collect()
    }

    /// `(offset, length)` of every mmap so far.
    pub fn mmaps(&self) -> Vec<(u64, usize)> {
        self.mmaps.borrow().clone()
    }
}

impl Ioctl for FakeIoctl {
    fn ioctl(&self, name: &'static str, request: u64, arg: &mut [u8]) -> Result<(), i32> {
        let arg_in = arg.to_vec();
        let result = (self.responder.borrow_mut())(name, arg);
        if let (Some(writes), Ok(())) = (&self.pwrites, result) {
            if name == super::uapi::i915::GEM_PWRITE.name {
                let pw = super::uapi::i915::DrmI915GemPwrite::from_bytes(arg);
                let data = if pw.size == 0 {
                    Vec::new()
                } else {
                    // SAFETY: keeping_pwrites is only asked for by callers whose PWRITE
                    // arguments describe `size` readable bytes at `data_ptr` (gpucc's
                    // write_bo passes a live slice), valid for the duration of the call.
                    unsafe {
                        std::slice::from_raw_parts(pw.data_ptr as *const u8, pw.size as usize)
                    }
                    .to_vec()
                };
                writes.borrow_mut().push((pw.handle, pw.offset, data));
            }
        }
        self.calls.borrow_mut().push(Call {
            name,
            request,
            arg_in,
            arg_out: arg.to_vec(),
        });
        result
    }

    fn mmap(&self, offset: u64, len: usize) -> Result<Mapping, i32> {
        self.mmaps.borrow_mut().push((offset, len));
        Ok(Mapping::owned(vec![0; len]))
    }

    fn i915_getparam(&self, param: i32) -> Result<i32, i32> {
        let request = super::uapi::i915::GETPARAM;
        let arg = super::uapi::i915::DrmI915Getparam {
            param,
            ..Default::default()
        };
        let found = self
            .i915_params
            .iter()
            .find(|(p, _)| *p == param)
            .map(|&(_, v)| v);
        self.calls.borrow_mut().push(Call {
            name: request.name,
            request: request.number,
            arg_in: arg.as_bytes().to_vec(),
            arg_out: arg.as_bytes().to_vec(),
        });
        found.ok_or(libc::EINVAL)
    }

    fn version(&self) -> Result<DriverVersion, i32> {
        let request = super::uapi::drm::VERSION;
        self.calls.borrow_mut().push(Call {
            name: request.name,
            request: request.number,
            arg_in: Vec::new(),
            arg_out: Vec::new(),
        });
        Ok(self.version.clone())
    }
}
