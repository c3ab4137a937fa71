//! The i915 side: identify the GPU, manage buffer objects, submit compute batches.

pub mod batch;
pub mod cmd;
mod platform;

use crate::drm::error::{Error, Result};
use crate::drm::ioctl::{call, Ioctl};
use crate::drm::uapi::i915::{self as uapi, domain, exec, exec_object, param};
use crate::drm::uapi::{drm as core, Pod};

pub use batch::{
    build_compute_batch, Addresses, Batch, ComputeDispatch, ComputeLaunch, Reloc, Target,
};
pub use platform::Platform;

/// What GETPARAM tells about the GPU.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    pub chipset_id: u16,
    pub revision: i32,
    pub has_exec_softpin: bool,
    pub has_exec_no_reloc: bool,
    pub has_exec_handle_lut: bool,
    /// Only Gen8 and later kernels answer these two.
    pub eu_total: Option<i32>,
    pub subslice_total: Option<i32>,
}

/// A GEM buffer object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bo {
    pub handle: u32,
    pub size: u64,
    /// The GPU address: chosen by us and pinned on softpin devices; the kernel's choice
    /// (unknown until a submission, 0 here) otherwise.
    pub address: u64,
}

/// An open i915 render node.
pub struct I915 {
    io: Box<dyn Ioctl>,
    params: Params,
    platform: Platform,
    context: u32,
    /// Next free GPU virtual address for softpin (we own the whole 48-bit space of our
    /// context, and never reuse addresses: a simple bump allocator is enough for a session).
    next_address: u64,
}

/// Softpin addresses start above the first page so that 0 never names a buffer.
const SOFTPIN_START: u64 = 0x10_0000;

fn getparam(io: &dyn Ioctl, p: i32, name: &'static str) -> Result<i32> {
    io.i915_getparam(p)
        .map_err(|errno| Error::Ioctl { name, errno })
}

fn optional_param(io: &dyn Ioctl, p: i32) -> Option<i32> {
    io.i915_getparam(p).ok()
}

impl I915 {
    /// Queries the parameters, finds the platform and creates a context.
    pub fn identify(io: Box<dyn Ioctl>) -> Result<I915> {
        let params = Self::query(io.as_ref())?;
        let platform = Platform::from_chipset(params.chipset_id)?;
        let mut ctx = uapi::DrmI915GemContextCreate::default();
        call(io.as_ref(), uapi::GEM_CONTEXT_CREATE, &mut ctx)?;
        Ok(I915 {
            io,
            params,
            platform,
            context: ctx.ctx_id,
            next_address: SOFTPIN_START,
        })
    }

    /// GETPARAM for every parameter gpucc cares about. CHIPSET_ID is required; the feature
    /// queries count as absent when the kernel predates them (it answers EINVAL).
    pub fn query(io: &dyn Ioctl) -> Result<Params> {
        let chipset = getparam(io, param::CHIPSET_ID, "DRM_IOCTL_I915_GETPARAM(CHIPSET_ID)")?;
        let flag = |p| optional_param(io, p).is_some_and(|v| v != 0);
        Ok(Params {
            chipset_id: chipset as u16,
            revision: optional_param(io, param::REVISION).unwrap_or(-1),
            has_exec_softpin: flag(param::HAS_EXEC_SOFTPIN),
            has_exec_no_reloc: flag(param::HAS_EXEC_NO_RELOC),
            has_exec_handle_lut: flag(param::HAS_EXEC_HANDLE_LUT),
            eu_total: optional_param(io, param::EU_TOTAL),
            subslice_total: optional_param(io, param::SUBSLICE_TOTAL),
        })
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn platform(&self) -> &Platform {
        &self.platform
    }

    /// The compiler target name (ivb, hsw, bdw, ...).
    pub fn target(&self) -> &'static str {
        self.platform.target
    }

    pub fn context(&self) -> u32 {
        self.context
    }

    /// Softpin is used from Gen8 on when the kernel offers it; Gen7 uses relocations.
    pub fn uses_softpin(&self) -> bool {
        self.platform.ver >= 80 && self.params.has_exec_softpin
    }

    /// GEM_CREATE; the size is rounded up to a page as the kernel does.
    pub fn create_bo(&mut self, size: u64) -> Result<Bo> {
        let size = size.max(1).div_ceil(4096) * 4096;
        let mut arg = uapi::DrmI915GemCreate {
            size,
            ..Default::default()
        };
        call(self.io.as_ref(), uapi::GEM_CREATE, &mut arg)?;
        let address = if self.uses_softpin() {
            let a = self.next_address;
            self.next_address += arg.size.max(size).div_ceil(65536) * 65536;
            a
        } else {
            0
        };
        Ok(Bo {
            handle: arg.handle,
            size: arg.size.max(size),
            address,
        })
    }

    /// Writes `bytes` at `offset` of a buffer: through a write-combined CPU mapping
    /// (MMAP_OFFSET + mmap, after moving the object to the WC domain), or with PWRITE when the
    /// kernel has no MMAP_OFFSET.
    pub fn write_bo(&mut self, bo: &Bo, offset: u64, bytes: &[u8]) -> Result<()> {
        offset
            .checked_add(bytes.len() as u64)
            .filter(|&end| end <= bo.size)
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "write of {} bytes at offset {offset} overflows buffer {} of {} bytes",
                    bytes.len(),
                    bo.handle,
                    bo.size
                ))
            })?;
        let mut mo = uapi::DrmI915GemMmapOffset {
            handle: bo.handle,
            flags: uapi::mmap_offset::WC,
            ..Default::default()
        };
        match call(self.io.as_ref(), uapi::GEM_MMAP_OFFSET, &mut mo) {
            Ok(()) => {
                self.set_domain(bo, domain::WC, domain::WC)?;
                let mut map =
                    self.io
                        .mmap(mo.offset, bo.size as usize)
                        .map_err(|errno| Error::Ioctl {
                            name: "mmap of DRM_IOCTL_I915_GEM_MMAP_OFFSET",
                            errno,
                        })?;
                let start = offset as usize;
                map.as_mut_slice()[start..start + bytes.len()].copy_from_slice(bytes);
                Ok(())
            }
            // Older kernels (before 5.8) or GPUs without a mappable aperture.
            Err(Error::Ioctl { errno, .. })
                if errno == libc::ENOTTY || errno == libc::EINVAL || errno == libc::ENODEV =>
            {
                let mut pw = uapi::DrmI915GemPwrite {
                    handle: bo.handle,
                    offset,
                    size: bytes.len() as u64,
                    data_ptr: bytes.as_ptr() as u64,
                    ..Default::default()
                };
                call(self.io.as_ref(), uapi::GEM_PWRITE, &mut pw)
            }
            Err(e) => Err(e),
        }
    }

    /// GEM_SET_DOMAIN.
    pub fn set_domain(&mut self, bo: &Bo, read: u32, write: u32) -> Result<()> {
        let mut arg = uapi::DrmI915GemSetDomain {
            handle: bo.handle,
            read_domains: read,
            write_domain: write,
        };
        call(self.io.as_ref(), uapi::GEM_SET_DOMAIN, &mut arg)
    }

    /// GEM_WAIT until the buffer is idle or `timeout_ns` passes (negative: forever).
    pub fn wait(&mut self, bo: &Bo, timeout_ns: i64) -> Result<()> {
        let mut arg = uapi::DrmI915GemWait {
            bo_handle: bo.handle,
            flags: 0,
            timeout_ns,
        };
        call(self.io.as_ref(), uapi::GEM_WAIT, &mut arg)
    }

    /// GEM_CLOSE.
    pub fn close_bo(&mut self, bo: Bo) -> Result<()> {
        let mut arg = core::DrmGemClose {
            handle: bo.handle,
            pad: 0,
        };
        call(self.io.as_ref(), core::GEM_CLOSE, &mut arg)
    }

    /// Creates a buffer holding `bytes` (a compiled program, a data buffer).
    pub fn upload(&mut self, bytes: &[u8]) -> Result<Bo> {
        let bo = self.create_bo(bytes.len() as u64)?;
        if let Err(e) = self.write_bo(&bo, 0, bytes) {
            let _ = self.close_bo(bo);
            return Err(e);
        }
        Ok(bo)
    }

    /// Runs one compute dispatch of the kernel at `dispatch.kernel_offset` in `program`,
    /// binding `buffers` at binding table entries `dispatch.first_binding`, ..., and waits
    /// for it.
    pub fn dispatch_compute(
        &mut self,
        program: &Bo,
        dispatch: &ComputeDispatch,
        buffers: &[Bo],
    ) -> Result<()> {
        let gen = cmd::Gen::from_ver(self.platform.ver).ok_or_else(|| {
            Error::Unsupported(format!(
                "compute dispatch is implemented for Gen7, Gen7.5, Gen8 and Gen9, not {}",
                self.platform.target
            ))
        })?;
        if self.platform.ver >= 80 && !self.params.has_exec_softpin {
            return Err(Error::Unsupported(
                "this kernel lacks softpin (I915_PARAM_HAS_EXEC_SOFTPIN)".into(),
            ));
        }
        if buffers.len() != dispatch.buffer_sizes.len() {
            return Err(Error::Invalid(format!(
                "the dispatch describes {} buffers but {} were given",
                dispatch.buffer_sizes.len(),
                buffers.len()
            )));
        }
        // Size the batch from a dry run with zero addresses; the layout does not depend on them.
        let probe = Addresses {
            batch: 0,
            program: 0,
            buffers: vec![0; buffers.len()],
        };
        let size = build_compute_batch(gen, dispatch, &probe)?.dwords.len() as u64 * 4;
        let batch_bo = self.create_bo(size)?;
        let result = self.submit_compute(gen, &batch_bo, program, dispatch, buffers);
        let closed = self.close_bo(batch_bo);
        result.and(closed)
    }

    fn submit_compute(
        &mut self,
        gen: cmd::Gen,
        batch_bo: &Bo,
        program: &Bo,
        dispatch: &ComputeDispatch,
        buffers: &[Bo],
    ) -> Result<()> {
        let addresses = Addresses {
            batch: batch_bo.address,
            program: program.address,
            buffers: buffers.iter().map(|b| b.address).collect(),
        };
        let batch = build_compute_batch(gen, dispatch, &addresses)?;
        self.write_bo(batch_bo, 0, &batch.bytes())?;
        let exec = exec_list(&batch, batch_bo, program, buffers, self.uses_softpin())?;
        self.execbuffer(&exec, batch.command_bytes)?;
        self.wait(batch_bo, -1)
    }

    /// Launches a kernel described at the driver level (see [`ComputeLaunch`]), binding
    /// `buffers` as RAW surfaces of their full size from `launch.first_binding` on.
    pub fn launch(&mut self, program: &Bo, launch: &ComputeLaunch, buffers: &[Bo]) -> Result<()> {
        let gen = cmd::Gen::from_ver(self.platform.ver).ok_or_else(|| {
            Error::Unsupported(format!(
                "compute dispatch is implemented for Gen7, Gen7.5, Gen8 and Gen9, not {}",
                self.platform.target
            ))
        })?;
        let sizes = buffers
            .iter()
            .map(|b| {
                u32::try_from(b.size).map_err(|_| {
                    Error::Invalid(format!("buffer {} is too large to bind", b.handle))
                })
            })
            .collect::<Result<Vec<u32>>>()?;
        let dispatch = launch.lower(gen, self.platform.max_cs_threads, sizes)?;
        self.dispatch_compute(program, &dispatch, buffers)
    }

    /// EXECBUFFER2 on the render ring in our context; the batch is the last object.
    pub fn execbuffer(&mut self, exec: &ExecList, batch_len: u32) -> Result<()> {
        let mut arg = uapi::DrmI915GemExecbuffer2 {
            buffers_ptr: exec.objects.as_ptr() as u64,
            buffer_count: exec.objects.len() as u32,
            batch_len,
            flags: exec.flags,
            rsvd1: u64::from(self.context),
            ..Default::default()
        };
        call(self.io.as_ref(), uapi::GEM_EXECBUFFER2, &mut arg).map_err(|e| {
            match (self.io.failure_detail(), &e) {
                (Some(detail), Error::Ioctl { .. }) => Error::Unsupported(format!("{e}: {detail}")),
                _ => e,
            }
        })
    }

    /// Reads `out.len()` bytes at `offset` of a buffer back with PREAD (after the GPU is done
    /// with it: the caller waits first, as [`I915::dispatch_compute`] does).
    pub fn read_bo(&mut self, bo: &Bo, offset: u64, out: &mut [u8]) -> Result<()> {
        offset
            .checked_add(out.len() as u64)
            .filter(|&end| end <= bo.size)
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "read of {} bytes at offset {offset} overflows buffer {} of {} bytes",
                    out.len(),
                    bo.handle,
                    bo.size
                ))
            })?;
        let mut pr = uapi::DrmI915GemPwrite {
            handle: bo.handle,
            offset,
            size: out.len() as u64,
            data_ptr: out.as_mut_ptr() as u64,
            ..Default::default()
        };
        call(self.io.as_ref(), uapi::GEM_PREAD, &mut pr)
    }

    /// The ioctl door, for tests that inspect it.
    pub fn io(&self) -> &dyn Ioctl {
        self.io.as_ref()
    }
}

impl Drop for I915 {
    fn drop(&mut self) {
        let mut arg = uapi::DrmI915GemContextDestroy {
            ctx_id: self.context,
            pad: 0,
        };
        // Nothing useful can be done about a failure while closing; the fd's release
        // destroys the context anyway.
        let _ = call(self.io.as_ref(), uapi::GEM_CONTEXT_DESTROY, &mut arg);
    }
}

/// The objects of one EXECBUFFER2 and the relocations they point to. The relocation array
/// lives here so that `relocs_ptr` stays valid for the call.
pub struct ExecList {
    pub objects: Vec<uapi::DrmI915GemExecObject2>,
    pub relocs: Vec<uapi::DrmI915GemRelocationEntry>,
    pub flags: u64,
}

/// Builds the execbuffer object list: buffers, program, then the batch (the kernel takes the
/// last object as the batch unless told otherwise). With softpin every object is pinned at
/// its address; otherwise the batch carries one relocation per address field, with the
/// buffers' handles as targets and a render-domain read (write for data buffers).
pub fn exec_list(
    batch: &Batch,
    batch_bo: &Bo,
    program: &Bo,
    buffers: &[Bo],
    softpin: bool,
) -> Result<ExecList> {
    let mut objects = Vec::with_capacity(buffers.len() + 2);
    let pinned = if softpin {
        exec_object::PINNED | exec_object::SUPPORTS_48B_ADDRESS
    } else {
        0
    };
    for b in buffers {
        objects.push(uapi::DrmI915GemExecObject2 {
            handle: b.handle,
            offset: b.address,
            flags: pinned | exec_object::WRITE,
            ..Default::default()
        });
    }
    objects.push(uapi::DrmI915GemExecObject2 {
        handle: program.handle,
        offset: program.address,
        flags: pinned,
        ..Default::default()
    });
    let mut relocs = Vec::new();
    if !softpin {
        for r in &batch.relocs {
            let (target, write) = match r.target {
                Target::Batch => (batch_bo, 0),
                Target::Program => (program, 0),
                Target::Buffer(i) => {
                    let bo = buffers.get(i).ok_or_else(|| {
                        Error::Invalid(format!(
                            "batch refers to buffer {i} but only {} were given",
                            buffers.len()
                        ))
                    })?;
                    (bo, domain::RENDER)
                }
            };
            relocs.push(uapi::DrmI915GemRelocationEntry {
                target_handle: target.handle,
                delta: r.delta,
                offset: u64::from(r.offset),
                presumed_offset: target.address,
                read_domains: if r.target == Target::Program {
                    domain::INSTRUCTION
                } else {
                    domain::RENDER
                },
                write_domain: write,
            });
        }
    }
    objects.push(uapi::DrmI915GemExecObject2 {
        handle: batch_bo.handle,
        relocation_count: relocs.len() as u32,
        relocs_ptr: if relocs.is_empty() {
            0
        } else {
            relocs.as_ptr() as u64
        },
        offset: batch_bo.address,
        flags: pinned,
        ..Default::default()
    });
    let flags = exec::RENDER | if softpin { exec::NO_RELOC } else { 0 };
    Ok(ExecList {
        objects,
        relocs,
        flags,
    })
}

/// Decodes a recorded EXECBUFFER2 argument (for request-sequence tests).
pub fn decode_execbuffer(bytes: &[u8]) -> uapi::DrmI915GemExecbuffer2 {
    uapi::DrmI915GemExecbuffer2::from_bytes(bytes)
}
