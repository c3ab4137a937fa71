//! The etnaviv side: identify the GC core, manage buffer objects, submit command streams.

pub mod cmdstream;
pub mod shader;

use crate::drm::error::{Error, Result};
use crate::drm::ioctl::{call, Ioctl};
use crate::drm::uapi::drm as core;
use crate::drm::uapi::etnaviv::{self as uapi, param};
use crate::etnaviv::specs::{CoreParams, Specs};

pub use cmdstream::CmdStream;

/// What GET_PARAM tells about the core.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    pub model: u32,
    pub revision: u32,
    /// FEATURES_0..12 (chipFeatures, chipMinorFeatures0..11).
    pub features: [u32; 13],
    pub stream_count: u32,
    pub register_max: u32,
    pub thread_count: u32,
    pub shader_core_count: u32,
    pub pixel_pipes: u32,
    pub instruction_count: u32,
    pub num_constants: u32,
    pub num_varyings: u32,
    /// Start of the softpin address range; None when the kernel does not offer softpin.
    pub softpin_start: Option<u64>,
}

impl Params {
    /// The values that describe the core to the compiler.
    pub fn core(&self) -> CoreParams {
        CoreParams {
            model: self.model,
            revision: self.revision,
            features: self.features,
            register_max: self.register_max,
            instruction_count: self.instruction_count,
            num_constants: self.num_constants,
            num_varyings: self.num_varyings,
            thread_count: self.thread_count,
            shader_core_count: self.shader_core_count,
            pixel_pipes: self.pixel_pipes,
        }
    }
}

/// A GEM buffer object on an etnaviv device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bo {
    pub handle: u32,
    pub size: u64,
    /// GPU address when softpin is in use, else 0 (the kernel relocates).
    pub address: u64,
}

/// A shader made ready for the core: the states to submit and, for cached forms, the buffer
/// holding the code (which must be submit buffer 0 of the stream).
#[derive(Debug)]
pub struct ShaderLoad {
    pub stream: CmdStream,
    pub bo: Option<Bo>,
    pub form: shader::UploadForm,
}

/// An open etnaviv render node (3D pipe).
pub struct Etnaviv {
    io: Box<dyn Ioctl>,
    params: Params,
    specs: &'static Specs,
    next_address: u64,
}

fn get_param(io: &dyn Ioctl, p: u32) -> Result<u64> {
    let mut arg = uapi::DrmEtnavivParam {
        pipe: uapi::PIPE_3D,
        param: p,
        value: 0,
    };
    call(io, uapi::GET_PARAM, &mut arg)?;
    Ok(arg.value)
}

impl Etnaviv {
    /// Queries the core and makes its target from what the kernel reports
    /// ([`Specs::from_params`]): a preset when every value equals one, else a custom core. A
    /// core the compiler cannot target is refused naming the value.
    pub fn identify(io: Box<dyn Ioctl>) -> Result<Etnaviv> {
        let params = Self::query(io.as_ref())?;
        let specs = Specs::from_params(&params.core()).map_err(|e| {
            Error::Unsupported(format!(
                "no gpucc target for Vivante GC{:x} revision {:#x}: {e}",
                params.model, params.revision
            ))
        })?;
        let next_address = params.softpin_start.unwrap_or(0);
        Ok(Etnaviv {
            io,
            params,
            specs,
            next_address,
        })
    }

    /// GET_PARAM for the identity, the thirteen feature words and the limits. Feature words
    /// past what an older kernel knows come back as errors and count as zero, like the
    /// kernel's own unknown words.
    pub fn query(io: &dyn Ioctl) -> Result<Params> {
        let required = |p| get_param(io, p).map(|v| v as u32);
        let optional = |p| get_param(io, p).ok();
        let mut features = [0u32; 13];
        for (i, f) in features.iter_mut().enumerate() {
            let p = param::GPU_FEATURES_0 + i as u32;
            *f = if i < 5 {
                required(p)?
            } else {
                optional(p).unwrap_or(0) as u32
            };
        }
        Ok(Params {
            model: required(param::GPU_MODEL)?,
            revision: required(param::GPU_REVISION)?,
            features,
            stream_count: required(param::GPU_STREAM_COUNT)?,
            register_max: required(param::GPU_REGISTER_MAX)?,
            thread_count: required(param::GPU_THREAD_COUNT)?,
            shader_core_count: required(param::GPU_SHADER_CORE_COUNT)?,
            pixel_pipes: required(param::GPU_PIXEL_PIPES)?,
            instruction_count: required(param::GPU_INSTRUCTION_COUNT)?,
            num_constants: required(param::GPU_NUM_CONSTANTS)?,
            num_varyings: required(param::GPU_NUM_VARYINGS)?,
            softpin_start: optional(param::SOFTPIN_START_ADDR).filter(|&a| a != u64::MAX && a != 0),
        })
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The core's target (what the compiler for this device compiles for).
    pub fn specs(&self) -> &'static Specs {
        self.specs
    }

    pub fn target(&self) -> &'static str {
        self.specs.name
    }

    /// GEM_NEW with write-combined caching (what the GPU-facing uploads want).
    pub fn create_bo(&mut self, size: u64) -> Result<Bo> {
        let size = size.max(1).div_ceil(4096) * 4096;
        let mut arg = uapi::DrmEtnavivGemNew {
            size,
            flags: uapi::bo::WC,
            handle: 0,
        };
        call(self.io.as_ref(), uapi::GEM_NEW, &mut arg)?;
        let address = if self.params.softpin_start.is_some() {
            let a = self.next_address;
            self.next_address += size.div_ceil(65536) * 65536;
            a
        } else {
            0
        };
        Ok(Bo {
            handle: arg.handle,
            size,
            address,
        })
    }

    /// GEM_INFO for the mmap offset, then CPU_PREP (write) / copy / CPU_FINI.
    pub fn write_bo(&mut self, bo: &Bo, offset: u64, bytes: &[u8]) -> Result<()> {
        if offset
            .checked_add(bytes.len() as u64)
            .map_or(true, |end| end > bo.size)
        {
            return Err(Error::Invalid(format!(
                "write of {} bytes at offset {offset} overflows buffer {} of {} bytes",
                bytes.len(),
                bo.handle,
                bo.size
            )));
        }
        let mut info = uapi::DrmEtnavivGemInfo {
            handle: bo.handle,
            ..Default::default()
        };
        call(self.io.as_ref(), uapi::GEM_INFO, &mut info)?;
        let mut map = self
            .io
            .mmap(info.offset, bo.size as usize)
            .map_err(|errno| Error::Ioctl {
                name: "mmap of DRM_IOCTL_ETNAVIV_GEM_INFO",
                errno,
            })?;
        let mut prep = uapi::DrmEtnavivGemCpuPrep {
            handle: bo.handle,
            op: uapi::prep::WRITE,
            timeout: deadline(5_000_000_000),
        };
        call(self.io.as_ref(), uapi::GEM_CPU_PREP, &mut prep)?;
        let start = offset as usize;
        map.as_mut_slice()[start..start + bytes.len()].copy_from_slice(bytes);
        let mut fini = uapi::DrmEtnavivGemCpuFini {
            handle: bo.handle,
            flags: 0,
        };
        call(self.io.as_ref(), uapi::GEM_CPU_FINI, &mut fini)
    }

    pub fn upload(&mut self, bytes: &[u8]) -> Result<Bo> {
        let bo = self.create_bo(bytes.len() as u64)?;
        if let Err(e) = self.write_bo(&bo, 0, bytes) {
            let _ = self.close_bo(bo);
            return Err(e);
        }
        Ok(bo)
    }

    pub fn close_bo(&mut self, bo: Bo) -> Result<()> {
        let mut arg = core::DrmGemClose {
            handle: bo.handle,
            pad: 0,
        };
        call(self.io.as_ref(), core::GEM_CLOSE, &mut arg)
    }

    /// GEM_SUBMIT of `stream` on the 3D pipe with `bos` (read unless flagged in `writes`).
    /// Returns the fence number.
    pub fn submit(&mut self, stream: &CmdStream, bos: &[Bo], writes: &[bool]) -> Result<u32> {
        let softpin = self.params.softpin_start.is_some();
        let submit_bos: Vec<uapi::DrmEtnavivGemSubmitBo> = bos
            .iter()
            .enumerate()
            .map(|(i, b)| uapi::DrmEtnavivGemSubmitBo {
                flags: uapi::submit::BO_READ
                    | if writes.get(i) == Some(&true) {
                        uapi::submit::BO_WRITE
                    } else {
                        0
                    },
                handle: b.handle,
                presumed: b.address,
            })
            .collect();
        for r in stream.relocs() {
            if r.bo_index as usize >= bos.len() {
                return Err(Error::Invalid(format!(
                    "command stream relocation at byte {} names buffer {} of {}",
                    r.submit_offset,
                    r.bo_index,
                    bos.len()
                )));
            }
        }
        let relocs: Vec<uapi::DrmEtnavivGemSubmitReloc> = if softpin {
            Vec::new()
        } else {
            stream
                .relocs()
                .iter()
                .map(|r| uapi::DrmEtnavivGemSubmitReloc {
                    submit_offset: r.submit_offset,
                    reloc_idx: r.bo_index,
                    reloc_offset: r.bo_offset,
                    ..Default::default()
                })
                .collect()
        };
        let bytes = stream.bytes();
        let mut arg = uapi::DrmEtnavivGemSubmit {
            pipe: uapi::PIPE_3D,
            exec_state: uapi::PIPE_3D,
            nr_bos: submit_bos.len() as u32,
            nr_relocs: relocs.len() as u32,
            stream_size: bytes.len() as u32,
            bos: submit_bos.as_ptr() as u64,
            relocs: if relocs.is_empty() {
                0
            } else {
                relocs.as_ptr() as u64
            },
            stream: bytes.as_ptr() as u64,
            flags: if softpin { uapi::submit::SOFTPIN } else { 0 },
            fence_fd: -1,
            ..Default::default()
        };
        call(self.io.as_ref(), uapi::GEM_SUBMIT, &mut arg)?;
        Ok(arg.fence)
    }

    /// WAIT_FENCE with a deadline `timeout_ns` from now.
    pub fn wait_fence(&mut self, fence: u32, timeout_ns: i64) -> Result<()> {
        let mut arg = uapi::DrmEtnavivWaitFence {
            pipe: uapi::PIPE_3D,
            fence,
            flags: 0,
            pad: 0,
            timeout: deadline(timeout_ns),
        };
        call(self.io.as_ref(), uapi::WAIT_FENCE, &mut arg)
    }

    /// Places a compiled shader where this core fetches it: into the command stream's state
    /// window, or (instruction cache cores and programs too large for the window) into a new
    /// buffer that the stream's instruction address refers to as submit buffer 0.
    pub fn load_shader(&mut self, image: &shader::ShaderImage) -> Result<ShaderLoad> {
        let form = shader::upload_form(self.specs, image.stage, image.code.len() / 4)?;
        let bo = match form {
            shader::UploadForm::StateWindow { .. } => None,
            _ => {
                let bytes: Vec<u8> = image.code.iter().flat_map(|w| w.to_le_bytes()).collect();
                Some(self.upload(&bytes)?)
            }
        };
        let mut stream = CmdStream::new();
        let presumed = bo.map_or(0, |b| b.address);
        shader::emit_shader(&mut stream, self.specs, image, 0, presumed)?;
        Ok(ShaderLoad { stream, bo, form })
    }

    pub fn io(&self) -> &dyn Ioctl {
        self.io.as_ref()
    }
}

/// An absolute CLOCK_MONOTONIC deadline `ns` from now, as the etnaviv ioctls take.
fn deadline(ns: i64) -> uapi::DrmEtnavivTimespec {
    let now = monotonic_now();
    let total = now.saturating_add(ns.max(0) as i128);
    uapi::DrmEtnavivTimespec {
        tv_sec: (total / 1_000_000_000) as i64,
        tv_nsec: (total % 1_000_000_000) as i64,
    }
}

fn monotonic_now() -> i128 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    if rc != 0 {
        return 0;
    }
    i128::from(ts.tv_sec) * 1_000_000_000 + i128::from(ts.tv_nsec)
}
