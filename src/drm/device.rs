//! An open render node and the GPU behind it.

use std::path::{Path, PathBuf};

use super::error::{Error, Result};
use super::etnaviv::Etnaviv;
use super::i915::I915;
use super::ioctl::{DriverVersion, FdIoctl, Ioctl};
use crate::target::{Target, UnknownTarget};

/// The environment variable that makes [`Device::open`] without a path open a simulated node.
pub const SIM_NODE_ENV: &str = "GPUCC_SIM_NODE";

/// The driver-specific half of a device.
pub enum Gpu {
    I915(I915),
    Etnaviv(Etnaviv),
}

/// A render node with a supported GPU, identified and ready for uploads.
pub struct Device {
    path: PathBuf,
    version: DriverVersion,
    gpu: Gpu,
}

impl Device {
    /// Opens `path`, or with None the first render node driven by i915 or etnaviv.
    ///
    /// A path `sim:<target>` (`sim:ivb`, `sim:hsw`, `sim:bdw`, `sim:skl`) opens the simulated
    /// i915 node of [`super::sim`] instead; so does None when the environment variable
    /// `GPUCC_SIM_NODE` names a target (it overrides the search for real nodes).
    pub fn open(path: Option<&Path>) -> Result<Device> {
        let sim = match path {
            Some(p) => p
                .to_str()
                .and_then(|s| s.strip_prefix("sim:"))
                .map(str::to_string),
            None => std::env::var(SIM_NODE_ENV).ok().filter(|v| !v.is_empty()),
        };
        if let Some(target) = sim {
            return Device::open_simulated(&target);
        }
        match path {
            Some(p) => Device::open_path(p),
            None => Device::open_first(Path::new("/dev/dri")),
        }
    }

    /// The simulated i915 node playing `target`.
    pub fn open_simulated(target: &str) -> Result<Device> {
        let io = super::sim::SimIoctl::new(target).map_err(Error::Unsupported)?;
        Device::from_ioctl(Box::new(io), Path::new(&format!("sim:{target}")))
    }

    /// The first i915/etnaviv render node in `dir` (nodes of other drivers are skipped).
    pub fn open_first(dir: &Path) -> Result<Device> {
        let mut last_error = None;
        for path in render_node_paths(dir) {
            match Device::open_path(&path) {
                Ok(d) => return Ok(d),
                Err(Error::WrongDriver { .. }) => {}
                Err(e) => last_error = Some(e),
            }
        }
        // A supported node that failed to open is more useful to report than "none found".
        Err(last_error.unwrap_or(Error::NoDevice))
    }

    /// Opens one node and identifies its GPU.
    pub fn open_path(path: &Path) -> Result<Device> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| Error::Open {
                path: path.to_path_buf(),
                errno: e.raw_os_error().unwrap_or(libc::EIO),
            })?;
        Device::from_ioctl(Box::new(FdIoctl::new(file)), path)
    }

    /// Identifies the GPU behind an already open node (a real one or a test double).
    pub fn from_ioctl(io: Box<dyn Ioctl>, path: &Path) -> Result<Device> {
        let version = io.version().map_err(|errno| Error::Ioctl {
            name: super::uapi::drm::VERSION.name,
            errno,
        })?;
        let gpu = match version.name.as_str() {
            "i915" => Gpu::I915(I915::identify(io)?),
            "etnaviv" => Gpu::Etnaviv(Etnaviv::identify(io)?),
            other => {
                return Err(Error::WrongDriver {
                    path: path.to_path_buf(),
                    driver: other.to_string(),
                })
            }
        };
        Ok(Device {
            path: path.to_path_buf(),
            version,
            gpu,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn version(&self) -> &DriverVersion {
        &self.version
    }

    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    pub fn gpu_mut(&mut self) -> &mut Gpu {
        &mut self.gpu
    }

    /// The compiler target name for this GPU (what `gpucc_compiler_create` takes).
    pub fn target(&self) -> &'static str {
        match &self.gpu {
            Gpu::I915(g) => g.target(),
            Gpu::Etnaviv(g) => g.target(),
        }
    }

    /// The compiler target for this GPU: the i915 platform's, or on etnaviv the core made from
    /// the values the kernel reported (a preset when they are all a preset's).
    pub fn compiler_target(&self) -> std::result::Result<Target, UnknownTarget> {
        match &self.gpu {
            Gpu::I915(g) => Target::from_name(g.target()),
            Gpu::Etnaviv(g) => Ok(Target::Etnaviv(g.specs())),
        }
    }

    /// Places `bytes` in a new buffer object; returns (handle, GPU address or 0).
    pub fn upload(&mut self, bytes: &[u8]) -> Result<Buffer> {
        match &mut self.gpu {
            Gpu::I915(g) => g.upload(bytes).map(|b| Buffer {
                handle: b.handle,
                size: b.size,
                address: b.address,
            }),
            Gpu::Etnaviv(g) => g.upload(bytes).map(|b| Buffer {
                handle: b.handle,
                size: b.size,
                address: b.address,
            }),
        }
    }

    /// Reads `out.len()` bytes at `offset` of a buffer back (i915: PREAD; the dispatch has
    /// already waited for the GPU).
    pub fn read(&mut self, buffer: &Buffer, offset: u64, out: &mut [u8]) -> Result<()> {
        match &mut self.gpu {
            Gpu::I915(g) => g.read_bo(
                &super::i915::Bo {
                    handle: buffer.handle,
                    size: buffer.size,
                    address: buffer.address,
                },
                offset,
                out,
            ),
            Gpu::Etnaviv(_) => Err(Error::Unsupported(
                "reading buffers back is implemented for i915 only".into(),
            )),
        }
    }

    /// Releases a buffer made by [`Device::upload`].
    pub fn release(&mut self, buffer: Buffer) -> Result<()> {
        match &mut self.gpu {
            Gpu::I915(g) => g.close_bo(super::i915::Bo {
                handle: buffer.handle,
                size: buffer.size,
                address: buffer.address,
            }),
            Gpu::Etnaviv(g) => g.close_bo(super::etnaviv::Bo {
                handle: buffer.handle,
                size: buffer.size,
                address: buffer.address,
            }),
        }
    }
}

/// A buffer object, driver-neutral.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub handle: u32,
    pub size: u64,
    /// GPU address when the driver lets us choose it (softpin), else 0.
    pub address: u64,
}

/// The render nodes in `dir`, by minor number.
pub fn render_node_paths(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut nodes: Vec<(u32, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name();
            let minor = name.to_str()?.strip_prefix("renderD")?.parse().ok()?;
            Some((minor, e.path()))
        })
        .collect();
    nodes.sort();
    nodes.into_iter().map(|(_, p)| p).collect()
}
